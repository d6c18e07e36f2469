/* run_expr.c: evaluate the integer expressions of lab definitions (see run_expr.h). */
#include <stdio.h>
#include <string.h>

#include "run/run_expr.h"

#define MAX_DEPTH 64

struct parser {
  const char *text, *p;
  const struct run_var *vars;
  size_t nvars;
  char *err;
  size_t errlen;
  int failed, depth;
};

static void fail(struct parser *ps, const char *what)
{
  if (!ps->failed)
    snprintf(ps->err, ps->errlen, "'%.60s%s': %s at column %d", ps->text,
             strlen(ps->text) > 60 ? "..." : "", what, (int)(ps->p - ps->text) + 1);
  ps->failed = 1;
}

static void skip(struct parser *ps)
{
  while (*ps->p == ' ' || *ps->p == '\t')
    ps->p++;
}

static int is_name(char c, int first)
{
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (!first && c >= '0' && c <= '9');
}

static int64_t expr(struct parser *ps);

static int64_t checked(struct parser *ps, __int128 v)
{
  if (v > INT64_MAX || v < INT64_MIN) {
    fail(ps, "the value overflows 64 bits");
    return 0;
  }
  return (int64_t)v;
}

/* atom := INTEGER | NAME | NAME '(' expr (',' expr)* ')' | '(' expr ')' */
static int64_t atom(struct parser *ps)
{
  skip(ps);
  if (*ps->p >= '0' && *ps->p <= '9') {
    __int128 v = 0;
    while (*ps->p >= '0' && *ps->p <= '9') {
      v = v * 10 + (*ps->p++ - '0');
      if (v > INT64_MAX) {
        fail(ps, "number too large");
        return 0;
      }
    }
    return (int64_t)v;
  }
  if (*ps->p == '(') {
    ps->p++;
    int64_t v = expr(ps);
    skip(ps);
    if (*ps->p != ')') {
      fail(ps, "expected ')'");
      return 0;
    }
    ps->p++;
    return v;
  }
  if (!is_name(*ps->p, 1)) {
    fail(ps, *ps->p ? "expected a number, a name or '('" : "unexpected end");
    return 0;
  }
  const char *start = ps->p;
  while (is_name(*ps->p, 0))
    ps->p++;
  size_t n = (size_t)(ps->p - start);
  skip(ps);
  if (*ps->p == '(') {
    ps->p++;
    int64_t a[2] = {0, 0};
    int nargs = 0;
    for (;;) {
      int64_t v = expr(ps);
      if (nargs < 2)
        a[nargs] = v;
      nargs++;
      skip(ps);
      if (*ps->p == ',') {
        ps->p++;
        continue;
      }
      if (*ps->p != ')') {
        fail(ps, "expected ',' or ')'");
        return 0;
      }
      ps->p++;
      break;
    }
    int want = (n == 8 && !strncmp(start, "pow2ceil", 8)) ? 1 : 2;
    if (nargs != want) {
      fail(ps, "wrong number of arguments");
      return 0;
    }
    if (n == 4 && !strncmp(start, "cdiv", 4)) {
      if (a[1] <= 0) {
        fail(ps, "cdiv by a number that is not positive");
        return 0;
      }
      return a[0] >= 0 ? a[0] / a[1] + (a[0] % a[1] != 0) : a[0] / a[1];
    }
    if (n == 3 && !strncmp(start, "min", 3))
      return a[0] < a[1] ? a[0] : a[1];
    if (n == 3 && !strncmp(start, "max", 3))
      return a[0] > a[1] ? a[0] : a[1];
    if (n == 8 && !strncmp(start, "pow2ceil", 8)) {
      if (a[0] > (int64_t)1 << 62) {
        fail(ps, "pow2ceil of a number too large");
        return 0;
      }
      int64_t p = 1;
      while (p < a[0])
        p <<= 1;
      return p;
    }
    fail(ps, "unknown function (cdiv, min, max, pow2ceil)");
    return 0;
  }
  for (size_t i = 0; i < ps->nvars; i++)
    if (strlen(ps->vars[i].name) == n && !strncmp(ps->vars[i].name, start, n))
      return ps->vars[i].value;
  char msg[96];
  snprintf(msg, sizeof msg, "unknown name '%.*s'", (int)(n < 40 ? n : 40), start);
  ps->p = start;
  fail(ps, msg);
  return 0;
}

/* unary := '-' unary | atom */
static int64_t unary(struct parser *ps)
{
  skip(ps);
  if (*ps->p == '-') {
    ps->p++;
    if (++ps->depth > MAX_DEPTH) {
      fail(ps, "expression nested too deeply");
      return 0;
    }
    int64_t v = unary(ps);
    ps->depth--;
    return checked(ps, -(__int128)v);
  }
  return atom(ps);
}

/* term := unary (('*' | '/' | '%') unary)* */
static int64_t term(struct parser *ps)
{
  int64_t v = unary(ps);
  for (;;) {
    skip(ps);
    char op = *ps->p;
    if (op != '*' && op != '/' && op != '%')
      return v;
    ps->p++;
    int64_t r = unary(ps);
    if (op == '*') {
      v = checked(ps, (__int128)v * r);
    } else if (r == 0) {
      fail(ps, "division by zero");
      return 0;
    } else if (v == INT64_MIN && r == -1) {
      fail(ps, "the value overflows 64 bits");
      return 0;
    } else {
      v = op == '/' ? v / r : v % r;
    }
  }
}

/* expr := term (('+' | '-') term)* */
static int64_t expr(struct parser *ps)
{
  if (++ps->depth > MAX_DEPTH) {
    fail(ps, "expression nested too deeply");
    return 0;
  }
  int64_t v = term(ps);
  for (;;) {
    skip(ps);
    char op = *ps->p;
    if (op != '+' && op != '-')
      break;
    ps->p++;
    int64_t r = term(ps);
    v = checked(ps, op == '+' ? (__int128)v + r : (__int128)v - r);
  }
  ps->depth--;
  return v;
}

int run_expr_eval(const char *text, const struct run_var *vars, size_t nvars, int64_t *out,
                  char *err, size_t errlen)
{
  struct parser ps = {.text = text, .p = text, .vars = vars, .nvars = nvars, .err = err,
                      .errlen = errlen};
  int64_t v = expr(&ps);
  skip(&ps);
  if (!ps.failed && *ps.p)
    fail(&ps, "unexpected text");
  if (ps.failed)
    return -1;
  *out = v;
  return 0;
}
