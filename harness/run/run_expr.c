/* run_expr.c: the one expression language of lab definitions (see run_expr.h).
 *
 * One lexer and one recursive-descent parser turn a text into a tree of nodes (struct tree);
 * two evaluators walk it: eval_int, 64-bit integers with C's truncating division and every
 * overflow an error (sizes, launch shapes), and eval_real, doubles (charts). The mode is
 * also the parser's: an integer expression takes whole numbers only and the integer
 * functions, a real one any number and the real functions (the `fns` table's modes column).
 * A branch of `c ? a : b` is parsed whole but evaluated only when taken, so a syntax error
 * is found wherever it is and a name or a division only the other branch needs is never
 * looked at. Every error, of syntax or of value, says the column it is at. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/run_expr.h"

#define MAX_DEPTH 64
#define MAX_ARGS 16
#define MAX_NODES 512
#define SHOWN 80              /* the text an error message quotes */

enum mode { MODE_INT = 1, MODE_REAL = 2 };

/* The functions: name, arguments (min, max), the modes that have it. */
enum fn { FN_MIN, FN_MAX, FN_CEIL, FN_FLOOR, FN_ABS, FN_CDIV, FN_POW2CEIL, FN_COUNT };
static const struct {
  const char *name;
  int min, max, modes;
} fns[FN_COUNT] = {
  [FN_MIN] = {"min", 2, MAX_ARGS, MODE_INT | MODE_REAL},
  [FN_MAX] = {"max", 2, MAX_ARGS, MODE_INT | MODE_REAL},
  [FN_CEIL] = {"ceil", 1, 1, MODE_REAL},
  [FN_FLOOR] = {"floor", 1, 1, MODE_REAL},
  [FN_ABS] = {"abs", 1, 1, MODE_REAL},
  [FN_CDIV] = {"cdiv", 2, 2, MODE_INT | MODE_REAL},
  [FN_POW2CEIL] = {"pow2ceil", 1, 1, MODE_INT},
};

enum op {
  OP_NUM, OP_NAME, OP_NEG, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD,
  OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE, OP_COND, OP_CALL,
};

struct node {
  enum op op;
  uint32_t at, len;           /* where in the text (an operator, a name, a call's '(') */
  int kid[3];                 /* operands; a call's first argument in kid[0] */
  int next;                   /* a call's next argument, or -1 */
  enum fn fn;
  int nargs;
  int64_t i;                  /* OP_NUM */
  double d;
};

struct tree {
  const char *text, *p;
  enum mode mode;
  struct node n[MAX_NODES];
  int count, depth, status;
  char *err;
  size_t errlen;
};

/* The one error format: "'TEXT': WHAT at column N" (the first error only). */
static void fail_at(struct tree *t, const char *at, int status, const char *what)
{
  if (t->status)
    return;
  snprintf(t->err, t->errlen, "'%.*s%s': %s at column %d", SHOWN, t->text,
           strlen(t->text) > SHOWN ? "..." : "", what, (int)(at - t->text) + 1);
  t->status = status;
}

static void skip(struct tree *t)
{
  while (*t->p == ' ' || *t->p == '\t')
    t->p++;
}

static int is_digit(char c)
{
  return c >= '0' && c <= '9';
}

/* NAME: letters, digits, '_' and '.', not starting with a digit or a dot. */
static int name_char(char c, int first)
{
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (!first && (is_digit(c) || c == '.'));
}

static int add(struct tree *t, enum op op, const char *at)
{
  if (t->count == MAX_NODES) {
    fail_at(t, at, RUN_EXPR_SYNTAX, "expression too long");
    return -1;
  }
  struct node *n = &t->n[t->count];
  memset(n, 0, sizeof *n);
  n->op = op;
  n->at = (uint32_t)(at - t->text);
  n->kid[0] = n->kid[1] = n->kid[2] = n->next = -1;
  return t->count++;
}

static int expr(struct tree *t);

/* NUMBER: digits, an optional fraction, an optional exponent (no sign: unary minus does it);
   an integer expression's numbers are digits only, below 2^63. */
static int number(struct tree *t)
{
  const char *s = t->p;
  while (is_digit(*t->p))
    t->p++;
  int real = 0;
  if (*t->p == '.') {
    real = 1;
    t->p++;
    while (is_digit(*t->p))
      t->p++;
  }
  if (t->p == s + 1 && *s == '.') {
    fail_at(t, s, RUN_EXPR_SYNTAX, "a lone '.'");
    return -1;
  }
  if (*t->p == 'e' || *t->p == 'E') {
    const char *e = t->p + 1;
    if (*e == '+' || *e == '-')
      e++;
    if (!is_digit(*e)) {
      fail_at(t, t->p, RUN_EXPR_SYNTAX, "an exponent without digits");
      return -1;
    }
    while (is_digit(*e))
      e++;
    t->p = e;
    real = 1;
  }
  if (real && t->mode == MODE_INT) {
    fail_at(t, s, RUN_EXPR_SYNTAX, "a number that is not an integer");
    return -1;
  }
  char buf[64];
  size_t len = (size_t)(t->p - s);
  if (len >= sizeof buf) {
    fail_at(t, s, RUN_EXPR_SYNTAX, "number too long");
    return -1;
  }
  memcpy(buf, s, len);
  buf[len] = 0;
  int k = add(t, OP_NUM, s);
  if (k < 0)
    return -1;
  if (t->mode == MODE_INT) {
    __int128 v = 0;
    for (const char *q = buf; *q; q++) {
      v = v * 10 + (*q - '0');
      if (v > INT64_MAX) {
        fail_at(t, s, RUN_EXPR_SYNTAX, "number too large");
        return -1;
      }
    }
    t->n[k].i = (int64_t)v;
    return k;
  }
  t->n[k].d = strtod(buf, NULL);
  if (!isfinite(t->n[k].d)) {
    fail_at(t, s, RUN_EXPR_SYNTAX, "number too large");
    return -1;
  }
  return k;
}

/* A function call, its name (len characters at name) read, the '(' next. */
static int call(struct tree *t, const char *name, size_t len)
{
  int f = 0;
  while (f < FN_COUNT && !((fns[f].modes & t->mode) && strlen(fns[f].name) == len &&
                           !strncmp(fns[f].name, name, len)))
    f++;
  if (f == FN_COUNT) {
    char msg[128] = "unknown function (";
    for (int g = 0, first = 1; g < FN_COUNT; g++)
      if (fns[g].modes & t->mode) {
        size_t k = strlen(msg);
        snprintf(msg + k, sizeof msg - k, "%s%s", first ? "" : ", ", fns[g].name);
        first = 0;
      }
    size_t k = strlen(msg);
    snprintf(msg + k, sizeof msg - k, ")");
    fail_at(t, name, RUN_EXPR_SYNTAX, msg);
    return -1;
  }
  const char *open = t->p++;
  int k = add(t, OP_CALL, open);
  if (k < 0)
    return -1;
  t->n[k].fn = (enum fn)f;
  int last = -1;
  for (;;) {
    int a = expr(t);
    if (a < 0)
      return -1;
    if (last < 0)
      t->n[k].kid[0] = a;
    else
      t->n[last].next = a;
    last = a;
    t->n[k].nargs++;
    skip(t);
    if (*t->p == ',') {
      t->p++;
      continue;
    }
    if (*t->p != ')') {
      fail_at(t, t->p, RUN_EXPR_SYNTAX, "expected ',' or ')'");
      return -1;
    }
    t->p++;
    break;
  }
  if (t->n[k].nargs < fns[f].min || t->n[k].nargs > fns[f].max) {
    char msg[128];
    snprintf(msg, sizeof msg, "%s takes %s%d argument%s (a wrong number of arguments)",
             fns[f].name, fns[f].max > fns[f].min ? "at least " : "", fns[f].min,
             fns[f].min > 1 ? "s" : "");
    fail_at(t, open, RUN_EXPR_SYNTAX, msg);
    return -1;
  }
  return k;
}

/* atom := NUMBER | NAME | NAME '(' expr (',' expr)* ')' | '(' expr ')' */
static int atom(struct tree *t)
{
  skip(t);
  if (is_digit(*t->p) || *t->p == '.')
    return number(t);
  if (*t->p == '(') {
    t->p++;
    int k = expr(t);
    if (k < 0)
      return -1;
    skip(t);
    if (*t->p != ')') {
      fail_at(t, t->p, RUN_EXPR_SYNTAX, "expected ')'");
      return -1;
    }
    t->p++;
    return k;
  }
  if (!name_char(*t->p, 1)) {
    fail_at(t, t->p, RUN_EXPR_SYNTAX, *t->p ? "expected a number, a name or '('" : "unexpected end");
    return -1;
  }
  const char *start = t->p;
  while (name_char(*t->p, 0))
    t->p++;
  size_t len = (size_t)(t->p - start);
  const char *after = t->p;
  skip(t);
  if (*t->p == '(')
    return call(t, start, len);
  t->p = after;
  int k = add(t, OP_NAME, start);
  if (k >= 0)
    t->n[k].len = (uint32_t)len;
  return k;
}

/* unary := '-' unary | atom */
static int unary(struct tree *t)
{
  skip(t);
  if (*t->p != '-')
    return atom(t);
  const char *at = t->p++;
  if (++t->depth > MAX_DEPTH) {
    fail_at(t, t->p, RUN_EXPR_SYNTAX, "expression nested too deeply");
    return -1;
  }
  int k = add(t, OP_NEG, at);
  int a = k < 0 ? -1 : unary(t);
  if (a < 0)
    return -1;
  t->depth--;
  t->n[k].kid[0] = a;
  return k;
}

/* A binary node op over a and the operand parse gives, the operator at at. */
static int binary(struct tree *t, enum op op, const char *at, int a, int (*parse)(struct tree *))
{
  int k = add(t, op, at);
  int b = k < 0 ? -1 : parse(t);
  if (b < 0)
    return -1;
  t->n[k].kid[0] = a;
  t->n[k].kid[1] = b;
  return k;
}

/* product := unary (('*' | '/' | '%') unary)* */
static int product(struct tree *t)
{
  int k = unary(t);
  for (;;) {
    if (k < 0)
      return -1;
    skip(t);
    char c = *t->p;
    if (c != '*' && c != '/' && c != '%')
      return k;
    const char *at = t->p++;
    k = binary(t, c == '*' ? OP_MUL : c == '/' ? OP_DIV : OP_MOD, at, k, unary);
  }
}

/* sum := product (('+' | '-') product)* */
static int sum(struct tree *t)
{
  int k = product(t);
  for (;;) {
    if (k < 0)
      return -1;
    skip(t);
    char c = *t->p;
    if (c != '+' && c != '-')
      return k;
    const char *at = t->p++;
    k = binary(t, c == '+' ? OP_ADD : OP_SUB, at, k, product);
  }
}

/* compare := sum (('<' | '<=' | '>' | '>=' | '==' | '!=') sum)? */
static int compare(struct tree *t)
{
  int k = sum(t);
  if (k < 0)
    return -1;
  skip(t);
  char c0 = t->p[0], c1 = c0 ? t->p[1] : 0;   /* never past the end */
  enum op op;
  if (c0 == '<')
    op = c1 == '=' ? OP_LE : OP_LT;
  else if (c0 == '>')
    op = c1 == '=' ? OP_GE : OP_GT;
  else if (c0 == '=' && c1 == '=')
    op = OP_EQ;
  else if (c0 == '!' && c1 == '=')
    op = OP_NE;
  else
    return k;
  const char *at = t->p;
  t->p += (op == OP_LT || op == OP_GT) ? 1 : 2;
  return binary(t, op, at, k, sum);
}

/* expr := compare ('?' expr ':' expr)? */
static int expr(struct tree *t)
{
  if (++t->depth > MAX_DEPTH) {
    fail_at(t, t->p, RUN_EXPR_SYNTAX, "expression nested too deeply");
    return -1;
  }
  int k = compare(t);
  if (k < 0)
    return -1;
  skip(t);
  if (*t->p == '?') {
    int c = add(t, OP_COND, t->p);
    t->p++;
    int a = c < 0 ? -1 : expr(t);
    if (a < 0)
      return -1;
    skip(t);
    if (*t->p != ':') {
      fail_at(t, t->p, RUN_EXPR_SYNTAX, "expected ':'");
      return -1;
    }
    t->p++;
    int b = expr(t);
    if (b < 0)
      return -1;
    t->n[c].kid[0] = k;
    t->n[c].kid[1] = a;
    t->n[c].kid[2] = b;
    k = c;
  }
  t->depth--;
  return k;
}

/* Parse t->text whole. Returns the root node, or -1 with t->status and the message. */
static int parse(struct tree *t)
{
  int k = expr(t);
  if (k < 0)
    return -1;
  skip(t);
  if (*t->p) {
    fail_at(t, t->p, RUN_EXPR_SYNTAX, *t->p == ')' ? "unmatched ')'" : "unexpected text");
    return -1;
  }
  return k;
}

/* ---- integer evaluation ---- */

struct int_env {
  const struct run_var *vars;
  size_t nvars;
};

static int int_fail(struct tree *t, const struct node *n, const char *what)
{
  fail_at(t, t->text + n->at, RUN_EXPR_MATH, what);
  return -1;
}

static int int_fit(struct tree *t, const struct node *n, __int128 v, int64_t *out)
{
  if (v > INT64_MAX || v < INT64_MIN)
    return int_fail(t, n, "the value overflows 64 bits");
  *out = (int64_t)v;
  return 0;
}

/* The value of node k into *out. Returns 0, or -1 with t's message. */
static int eval_int(struct tree *t, const struct int_env *env, int k, int64_t *out)
{
  const struct node *n = &t->n[k];
  int64_t a = 0, b = 0;
  switch (n->op) {
  case OP_NUM:
    *out = n->i;
    return 0;
  case OP_NAME:
    for (size_t i = 0; i < env->nvars; i++)
      if (strlen(env->vars[i].name) == n->len && !strncmp(env->vars[i].name, t->text + n->at, n->len)) {
        *out = env->vars[i].value;
        return 0;
      }
    {
      char msg[96];
      snprintf(msg, sizeof msg, "unknown name '%.*s'", (int)(n->len < 40 ? n->len : 40),
               t->text + n->at);
      fail_at(t, t->text + n->at, RUN_EXPR_UNKNOWN, msg);
    }
    return -1;
  case OP_NEG:
    return eval_int(t, env, n->kid[0], &a) ? -1 : int_fit(t, n, -(__int128)a, out);
  case OP_COND:
    if (eval_int(t, env, n->kid[0], &a))
      return -1;
    return eval_int(t, env, n->kid[a ? 1 : 2], out);
  case OP_CALL: {
    int64_t v[MAX_ARGS] = {0};
    int m = 0;
    for (int x = n->kid[0]; x >= 0; x = t->n[x].next)
      if (eval_int(t, env, x, &v[m++]))
        return -1;
    switch (n->fn) {
    case FN_MIN:
    case FN_MAX:
      *out = v[0];
      for (int i = 1; i < m; i++)
        if (n->fn == FN_MIN ? v[i] < *out : v[i] > *out)
          *out = v[i];
      return 0;
    case FN_CDIV:
      if (v[1] <= 0)
        return int_fail(t, n, "cdiv by a number that is not positive");
      *out = v[0] >= 0 ? v[0] / v[1] + (v[0] % v[1] != 0) : v[0] / v[1];
      return 0;
    case FN_POW2CEIL:
      if (v[0] > (int64_t)1 << 62)
        return int_fail(t, n, "pow2ceil of a number too large");
      *out = 1;
      while (*out < v[0])
        *out <<= 1;
      return 0;
    case FN_CEIL:
    case FN_FLOOR:
    case FN_ABS:
    case FN_COUNT:
      break;
    }
    return int_fail(t, n, "not an integer function");   /* the parser lets none through */
  }
  default:
    break;
  }
  if (eval_int(t, env, n->kid[0], &a) || eval_int(t, env, n->kid[1], &b))
    return -1;
  switch (n->op) {
  case OP_ADD: return int_fit(t, n, (__int128)a + b, out);
  case OP_SUB: return int_fit(t, n, (__int128)a - b, out);
  case OP_MUL: return int_fit(t, n, (__int128)a * b, out);
  case OP_DIV:
  case OP_MOD:
    if (b == 0)
      return int_fail(t, n, "division by zero");
    if (a == INT64_MIN && b == -1)
      return int_fail(t, n, "the value overflows 64 bits");
    *out = n->op == OP_DIV ? a / b : a % b;
    return 0;
  case OP_LT: *out = a < b; return 0;
  case OP_LE: *out = a <= b; return 0;
  case OP_GT: *out = a > b; return 0;
  case OP_GE: *out = a >= b; return 0;
  case OP_EQ: *out = a == b; return 0;
  case OP_NE: *out = a != b; return 0;
  default: return int_fail(t, n, "malformed expression");
  }
}

/* ---- real evaluation ---- */

struct real_env {
  run_expr_lookup_fn lookup;
  void *ctx;
};

static int real_fail(struct tree *t, const struct node *n, int status, const char *what)
{
  fail_at(t, t->text + n->at, status, what);
  return -1;
}

/* The value of node k into *out. Returns 0, or -1 with t's status and message. */
static int eval_real(struct tree *t, const struct real_env *env, int k, double *out)
{
  const struct node *n = &t->n[k];
  double a = 0, b = 0;
  switch (n->op) {
  case OP_NUM:
    *out = n->d;
    return 0;
  case OP_NAME:
    if (!env->lookup || env->lookup(env->ctx, t->text + n->at, n->len, out)) {
      char msg[160];
      snprintf(msg, sizeof msg, "unknown name '%.*s'", (int)(n->len < 100 ? n->len : 100),
               t->text + n->at);
      return real_fail(t, n, RUN_EXPR_UNKNOWN, msg);
    }
    return 0;
  case OP_NEG:
    if (eval_real(t, env, n->kid[0], &a))
      return -1;
    *out = -a;
    return 0;
  case OP_COND:
    if (eval_real(t, env, n->kid[0], &a))
      return -1;
    return eval_real(t, env, n->kid[a != 0 ? 1 : 2], out);
  case OP_CALL: {
    double v[MAX_ARGS] = {0};
    int m = 0;
    for (int x = n->kid[0]; x >= 0; x = t->n[x].next)
      if (eval_real(t, env, x, &v[m++]))
        return -1;
    switch (n->fn) {
    case FN_MIN:
    case FN_MAX:
      *out = v[0];
      for (int i = 1; i < m; i++)
        *out = n->fn == FN_MIN ? fmin(*out, v[i]) : fmax(*out, v[i]);
      return 0;
    case FN_CEIL: *out = ceil(v[0]); return 0;
    case FN_FLOOR: *out = floor(v[0]); return 0;
    case FN_ABS: *out = fabs(v[0]); return 0;
    case FN_CDIV:
      if (v[1] == 0)
        return real_fail(t, n, RUN_EXPR_MATH, "cdiv by zero");
      *out = ceil(v[0] / v[1]);
      return 0;
    case FN_POW2CEIL:
    case FN_COUNT:
      break;
    }
    return real_fail(t, n, RUN_EXPR_SYNTAX, "not a real function");   /* the parser lets none through */
  }
  default:
    break;
  }
  if (eval_real(t, env, n->kid[0], &a) || eval_real(t, env, n->kid[1], &b))
    return -1;
  switch (n->op) {
  case OP_ADD: *out = a + b; return 0;
  case OP_SUB: *out = a - b; return 0;
  case OP_MUL: *out = a * b; return 0;
  case OP_DIV:
  case OP_MOD:
    if (b == 0)
      return real_fail(t, n, RUN_EXPR_MATH, "division by zero");
    *out = n->op == OP_DIV ? a / b : fmod(a, b);
    return 0;
  case OP_LT: *out = a < b; return 0;
  case OP_LE: *out = a <= b; return 0;
  case OP_GT: *out = a > b; return 0;
  case OP_GE: *out = a >= b; return 0;
  case OP_EQ: *out = a == b; return 0;
  case OP_NE: *out = a != b; return 0;
  default: return real_fail(t, n, RUN_EXPR_SYNTAX, "malformed expression");
  }
}

/* ---- the interface ---- */

static struct tree *tree_new(const char *text, enum mode mode, char *err, size_t errlen)
{
  struct tree *t = malloc(sizeof *t);
  if (!t) {
    snprintf(err, errlen, "out of host memory");
    return NULL;
  }
  t->text = t->p = text;
  t->mode = mode;
  t->count = t->depth = t->status = 0;
  t->err = err;
  t->errlen = errlen;
  return t;
}

int run_expr_eval(const char *text, const struct run_var *vars, size_t nvars, int64_t *out,
                  char *err, size_t errlen)
{
  struct tree *t = tree_new(text, MODE_INT, err, errlen);
  if (!t)
    return -1;
  struct int_env env = {vars, nvars};
  int64_t v = 0;
  int root = parse(t);
  int rc = root < 0 || eval_int(t, &env, root, &v) ? -1 : 0;
  free(t);
  if (!rc)
    *out = v;
  return rc;
}

int run_expr_real_eval(const char *text, run_expr_lookup_fn lookup, void *ctx, double *out,
                       char *err, size_t errlen)
{
  struct tree *t = tree_new(text, MODE_REAL, err, errlen);
  if (!t)
    return RUN_EXPR_MATH;
  struct real_env env = {lookup, ctx};
  double v = 0;
  int root = parse(t);
  if (root >= 0 && !eval_real(t, &env, root, &v) && !isfinite(v))
    fail_at(t, text, RUN_EXPR_MATH, "the result is not a finite number");
  int st = t->status;
  free(t);
  if (st == RUN_EXPR_OK)
    *out = v;
  return st;
}

int run_expr_check(const char *text, int real, char *err, size_t errlen)
{
  struct tree *t = tree_new(text, real ? MODE_REAL : MODE_INT, err, errlen);
  if (!t)
    return RUN_EXPR_MATH;
  parse(t);
  int st = t->status;
  free(t);
  return st;
}

int run_expr_real_check(const char *text, char *err, size_t errlen)
{
  return run_expr_check(text, 1, err, errlen);
}

int run_expr_is_name(const char *text)
{
  if (!name_char(*text, 1))
    return 0;
  while (name_char(*text, 0))
    text++;
  return *text == 0;
}

int run_expr_names(const char *text, int (*visit)(void *ctx, const char *name, size_t len),
                   void *ctx)
{
  const char *p = text;
  while (*p) {
    if (is_digit(*p) || *p == '.') {            /* a number: 12, 0.5, 1e-6 */
      while (is_digit(*p) || *p == '.')
        p++;
      if ((*p == 'e' || *p == 'E') &&
          (is_digit(p[1]) || ((p[1] == '+' || p[1] == '-') && is_digit(p[2])))) {
        p += 2;
        while (is_digit(*p))
          p++;
      }
      continue;
    }
    if (!name_char(*p, 1)) {
      p++;
      continue;
    }
    const char *s = p;
    while (name_char(*p, 0))
      p++;
    const char *q = p;
    while (*q == ' ' || *q == '\t')
      q++;
    if (*q == '(')                              /* a function */
      continue;
    int rc = visit(ctx, s, (size_t)(p - s));
    if (rc)
      return rc;
  }
  return 0;
}
