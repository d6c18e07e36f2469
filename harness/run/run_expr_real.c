/* run_expr_real.c: evaluate the real-number expressions of charts (see run_expr.h).
 *
 * A recursive-descent parser that computes as it parses, like run_expr.c, with
 * one addition: a parser is `live` or not. A branch of `c ? a : b` that is not taken, and the
 * whole text under run_expr_real_check, is parsed without being evaluated: no name is looked up
 * and no division is checked, so a syntax error is found wherever it is and a name that only
 * the other branch needs is never asked for. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/run_expr.h"

#define MAX_DEPTH 64
#define MAX_ARGS 16

struct parser {
  const char *text, *p;
  run_expr_lookup_fn lookup;
  void *ctx;
  int live;               /* 0: parse only (an untaken branch, or a syntax check) */
  int status, depth;
  char *err;
  size_t errlen;
};

static void fail(struct parser *ps, int status, const char *what)
{
  if (ps->status)
    return;
  snprintf(ps->err, ps->errlen, "'%.80s%s': %s at column %d", ps->text,
           strlen(ps->text) > 80 ? "..." : "", what, (int)(ps->p - ps->text) + 1);
  ps->status = status;
}

static void skip(struct parser *ps)
{
  while (*ps->p == ' ' || *ps->p == '\t')
    ps->p++;
}

static int name_char(char c, int first)
{
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (!first && ((c >= '0' && c <= '9') || c == '.'));
}

static int is_digit(char c)
{
  return c >= '0' && c <= '9';
}

static double expr(struct parser *ps);

/* NUMBER: digits, an optional fraction, an optional exponent (no sign: unary minus does it) */
static double number(struct parser *ps)
{
  const char *s = ps->p;
  while (is_digit(*ps->p))
    ps->p++;
  if (*ps->p == '.') {
    ps->p++;
    while (is_digit(*ps->p))
      ps->p++;
  }
  if (ps->p == s + 1 && *s == '.') {
    ps->p = s;
    fail(ps, RUN_EXPR_SYNTAX, "a lone '.'");
    return 0;
  }
  if (*ps->p == 'e' || *ps->p == 'E') {
    const char *e = ps->p + 1;
    if (*e == '+' || *e == '-')
      e++;
    if (!is_digit(*e)) {
      fail(ps, RUN_EXPR_SYNTAX, "an exponent without digits");
      return 0;
    }
    while (is_digit(*e))
      e++;
    ps->p = e;
  }
  char buf[64];
  size_t n = (size_t)(ps->p - s);
  if (n >= sizeof buf) {
    ps->p = s;
    fail(ps, RUN_EXPR_SYNTAX, "number too long");
    return 0;
  }
  memcpy(buf, s, n);
  buf[n] = 0;
  double v = strtod(buf, NULL);
  if (!isfinite(v)) {
    ps->p = s;
    fail(ps, RUN_EXPR_SYNTAX, "number too large");
    return 0;
  }
  return v;
}

/* A function call, name (n characters) already read, the '(' next. */
static double call(struct parser *ps, const char *name, size_t n)
{
  static const struct { const char *name; int min, max; } fns[] = {
    {"min", 2, MAX_ARGS}, {"max", 2, MAX_ARGS}, {"ceil", 1, 1}, {"floor", 1, 1},
    {"abs", 1, 1}, {"cdiv", 2, 2},
  };
  size_t f = 0;
  while (f < sizeof fns / sizeof *fns && !(strlen(fns[f].name) == n && !strncmp(fns[f].name, name, n)))
    f++;
  const char *at = ps->p;
  if (f == sizeof fns / sizeof *fns) {
    ps->p = name;
    fail(ps, RUN_EXPR_SYNTAX, "unknown function (min, max, ceil, floor, abs, cdiv)");
    return 0;
  }
  ps->p++;   /* '(' */
  double a[MAX_ARGS];
  int nargs = 0;
  for (;;) {
    double v = expr(ps);
    if (nargs < MAX_ARGS)
      a[nargs] = v;
    nargs++;
    skip(ps);
    if (*ps->p == ',') {
      ps->p++;
      continue;
    }
    if (*ps->p != ')') {
      fail(ps, RUN_EXPR_SYNTAX, "expected ',' or ')'");
      return 0;
    }
    ps->p++;
    break;
  }
  if (nargs < fns[f].min || nargs > fns[f].max) {
    const char *end = ps->p;
    ps->p = at;
    char msg[96];
    snprintf(msg, sizeof msg, "%s takes %s%d argument%s", fns[f].name,
             fns[f].max > fns[f].min ? "at least " : "", fns[f].min, fns[f].min > 1 ? "s" : "");
    fail(ps, RUN_EXPR_SYNTAX, msg);
    ps->p = end;
    return 0;
  }
  if (!ps->live)
    return 0;
  switch (f) {
  case 0:
  case 1: {
    double v = a[0];
    for (int i = 1; i < nargs; i++)
      v = f == 0 ? fmin(v, a[i]) : fmax(v, a[i]);
    return v;
  }
  case 2: return ceil(a[0]);
  case 3: return floor(a[0]);
  case 4: return fabs(a[0]);
  default:
    if (a[1] == 0) {
      fail(ps, RUN_EXPR_MATH, "cdiv by zero");
      return 0;
    }
    return ceil(a[0] / a[1]);
  }
}

/* atom := NUMBER | NAME | NAME '(' expr (',' expr)* ')' | '(' expr ')' */
static double atom(struct parser *ps)
{
  skip(ps);
  if (is_digit(*ps->p) || *ps->p == '.')
    return number(ps);
  if (*ps->p == '(') {
    ps->p++;
    double v = expr(ps);
    skip(ps);
    if (*ps->p != ')') {
      fail(ps, RUN_EXPR_SYNTAX, "expected ')'");
      return 0;
    }
    ps->p++;
    return v;
  }
  if (!name_char(*ps->p, 1)) {
    fail(ps, RUN_EXPR_SYNTAX, *ps->p ? "expected a number, a name or '('" : "unexpected end");
    return 0;
  }
  const char *start = ps->p;
  while (name_char(*ps->p, 0))
    ps->p++;
  size_t n = (size_t)(ps->p - start);
  const char *after = ps->p;
  skip(ps);
  if (*ps->p == '(')
    return call(ps, start, n);
  ps->p = after;
  if (!ps->live)
    return 0;
  double v = 0;
  if (!ps->lookup || ps->lookup(ps->ctx, start, n, &v)) {
    char msg[160];
    snprintf(msg, sizeof msg, "unknown name '%.*s'", (int)(n < 100 ? n : 100), start);
    ps->p = start;
    fail(ps, RUN_EXPR_UNKNOWN, msg);
    ps->p = after;
    return 0;
  }
  return v;
}

/* unary := '-' unary | atom */
static double unary(struct parser *ps)
{
  skip(ps);
  if (*ps->p != '-')
    return atom(ps);
  ps->p++;
  if (++ps->depth > MAX_DEPTH) {
    fail(ps, RUN_EXPR_SYNTAX, "expression nested too deeply");
    return 0;
  }
  double v = -unary(ps);
  ps->depth--;
  return v;
}

/* product := unary (('*' | '/') unary)* */
static double product(struct parser *ps)
{
  double v = unary(ps);
  for (;;) {
    skip(ps);
    char op = *ps->p;
    if (op != '*' && op != '/')
      return v;
    const char *at = ps->p++;
    double r = unary(ps);
    if (!ps->live)
      continue;
    if (op == '/' && r == 0) {
      const char *end = ps->p;
      ps->p = at;
      fail(ps, RUN_EXPR_MATH, "division by zero");
      ps->p = end;
      return 0;
    }
    v = op == '*' ? v * r : v / r;
  }
}

/* sum := product (('+' | '-') product)* */
static double sum(struct parser *ps)
{
  double v = product(ps);
  for (;;) {
    skip(ps);
    char op = *ps->p;
    if (op != '+' && op != '-')
      return v;
    ps->p++;
    double r = product(ps);
    v = op == '+' ? v + r : v - r;
  }
}

/* compare := sum (('<' | '<=' | '>' | '>=' | '==' | '!=') sum)? */
static double compare(struct parser *ps)
{
  double v = sum(ps);
  skip(ps);
  char c0 = ps->p[0], c1 = c0 ? ps->p[1] : 0;   /* never past the end */
  int op;   /* 1 <, 2 <=, 3 >, 4 >=, 5 ==, 6 != */
  if (c0 == '<')
    op = c1 == '=' ? 2 : 1;
  else if (c0 == '>')
    op = c1 == '=' ? 4 : 3;
  else if (c0 == '=' && c1 == '=')
    op = 5;
  else if (c0 == '!' && c1 == '=')
    op = 6;
  else
    return v;
  ps->p += (op == 1 || op == 3) ? 1 : 2;
  double r = sum(ps);
  switch (op) {
  case 1: return v < r;
  case 2: return v <= r;
  case 3: return v > r;
  case 4: return v >= r;
  case 5: return v == r;
  default: return v != r;
  }
}

/* expr := compare ('?' expr ':' expr)? */
static double expr(struct parser *ps)
{
  if (++ps->depth > MAX_DEPTH) {
    fail(ps, RUN_EXPR_SYNTAX, "expression nested too deeply");
    return 0;
  }
  double v = compare(ps);
  skip(ps);
  if (*ps->p == '?') {
    ps->p++;
    int live = ps->live, take = v != 0;
    ps->live = live && take;
    double a = expr(ps);
    skip(ps);
    if (*ps->p != ':') {
      fail(ps, RUN_EXPR_SYNTAX, "expected ':'");
      ps->live = live;
      return 0;
    }
    ps->p++;
    ps->live = live && !take;
    double b = expr(ps);
    ps->live = live;
    v = take ? a : b;
  }
  ps->depth--;
  return v;
}

static int run(struct parser *ps, double *out)
{
  double v = expr(ps);
  skip(ps);
  if (!ps->status && *ps->p)
    fail(ps, RUN_EXPR_SYNTAX, *ps->p == ')' ? "unmatched ')'" : "unexpected text");
  if (!ps->status && ps->live && !isfinite(v)) {
    ps->p = ps->text;
    fail(ps, RUN_EXPR_MATH, "the result is not a finite number");
  }
  if (!ps->status && out)
    *out = v;
  return ps->status;
}

int run_expr_real_eval(const char *text, run_expr_lookup_fn lookup, void *ctx, double *out,
                   char *err, size_t errlen)
{
  struct parser ps = {.text = text, .p = text, .lookup = lookup, .ctx = ctx, .live = 1,
                      .err = err, .errlen = errlen};
  return run(&ps, out);
}

int run_expr_real_check(const char *text, char *err, size_t errlen)
{
  struct parser ps = {.text = text, .p = text, .err = err, .errlen = errlen};
  return run(&ps, NULL);
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
