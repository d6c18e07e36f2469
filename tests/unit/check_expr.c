/* check_expr.c: the real-number expressions of charts (harness/run/run_expr.h,
 * run_expr.c; moved with the tests from plots/): values, precedence, functions,
 * branches, and every error with its column; and run_expr_names, the names an expression
 * uses as run_lab.c resolves them when a lab loads; and the one language's two modes side
 * by side (test_expr_modes). The integer expressions of lab definitions are check_run.c's. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "run/run_expr.h"
#include "suites.h"

struct named {
  const char *name;
  double v;
};

static const struct named expr_vars[] = {
  {"WARPS", 8}, {"UNROLL", 4}, {"n", 1024}, {"gpu__time_duration.sum", 2048}, {"zero", 0},
};

static int expr_lookup(void *ctx, const char *name, size_t len, double *v)
{
  int *asked = ctx;
  for (size_t i = 0; i < sizeof expr_vars / sizeof *expr_vars; i++)
    if (strlen(expr_vars[i].name) == len && !strncmp(expr_vars[i].name, name, len)) {
      *v = expr_vars[i].v;
      (*asked)++;
      return 0;
    }
  return -1;
}

START_TEST(test_expr_values)
{
  static const struct { const char *text; double want; } rows[] = {
    {"1 + 2 * 3", 7}, {"(1 + 2) * 3", 9}, {"7 / 2", 3.5}, {"- -4", 4}, {"2 - 3 - 4", -5},
    {"12 / 4 / 3", 1}, {"1e-6 * 2e6", 2}, {".5 + 0.25", 0.75}, {"1.5E2", 150},
    {"12 * n / gpu__time_duration.sum", 6}, {"WARPS * 32 * UNROLL", 1024},
    {"min(WARPS, 3)", 3}, {"max(1, UNROLL, WARPS, 2)", 8}, {"min(5, 4, 6)", 4},
    {"ceil(7 / 2)", 4}, {"floor(-0.5)", -1}, {"abs(3 - 5)", 2}, {"cdiv(n, 100)", 11},
    {"WARPS < 16", 1}, {"WARPS >= 16", 0}, {"WARPS == 8", 1}, {"WARPS != 8", 0},
    {"WARPS <= 8", 1}, {"UNROLL > 4", 0}, {"1 + 2 < 4", 1},
    {"WARPS > 4 ? 10 : 20", 10}, {"WARPS > 64 ? 10 : 20", 20},
    {"WARPS < 4 ? 1 : WARPS < 16 ? 2 : 3", 2}, {"(WARPS < 4 ? 1 : 5) * 2", 10},
    {"  WARPS  ", 8}, {"min(4800, WARPS * 32 * UNROLL * 12 * 132 * 1980 / 1000 / 641)", 4800},
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    double v = -12345;
    int asked = 0;
    char err[256] = "";
    ck_assert_msg(run_expr_real_eval(rows[i].text, expr_lookup, &asked, &v, err, sizeof err) ==
                  RUN_EXPR_OK, "%s: %s", rows[i].text, err);
    ck_assert_msg(fabs(v - rows[i].want) <= 1e-12 * fabs(rows[i].want), "%s = %.17g, expected %g",
                  rows[i].text, v, rows[i].want);
    ck_assert_int_eq(run_expr_real_check(rows[i].text, err, sizeof err), RUN_EXPR_OK);
  }
}
END_TEST

/* The branch not taken is parsed, not evaluated: its unknown names and its division by zero
   are no error; a syntax error in it is. */
START_TEST(test_expr_branches)
{
  double v = 0;
  int asked = 0;
  char err[256] = "";
  ck_assert_int_eq(run_expr_real_eval("WARPS > 4 ? n : nosuch / zero", expr_lookup, &asked, &v, err,
                                  sizeof err), RUN_EXPR_OK);
  ck_assert(v == 1024 && asked == 2);   /* WARPS and n, never zero */
  ck_assert_int_eq(run_expr_real_eval("WARPS < 4 ? 1 / zero : 2", expr_lookup, &asked, &v, err,
                                  sizeof err), RUN_EXPR_OK);
  ck_assert(v == 2);
  ck_assert_int_eq(run_expr_real_eval("WARPS > 4 ? 1 : (2", expr_lookup, &asked, &v, err, sizeof err),
                   RUN_EXPR_SYNTAX);
  /* a check looks up nothing and divides by nothing */
  ck_assert_int_eq(run_expr_real_check("a.b / (c - c) + min(d, e)", err, sizeof err), RUN_EXPR_OK);
}
END_TEST

START_TEST(test_expr_errors)
{
  static const struct { const char *text; int status; const char *msg; } rows[] = {
    {"", RUN_EXPR_SYNTAX, "unexpected end at column 1"},
    {"1 +", RUN_EXPR_SYNTAX, "unexpected end at column 4"},
    {"(1 + 2", RUN_EXPR_SYNTAX, "expected ')' at column 7"},
    {"1 + 2)", RUN_EXPR_SYNTAX, "unmatched ')' at column 6"},
    {"2 3", RUN_EXPR_SYNTAX, "unexpected text at column 3"},
    {"1e", RUN_EXPR_SYNTAX, "an exponent without digits"},
    {". + 1", RUN_EXPR_SYNTAX, "a lone '.' at column 1"},
    {"WARPS ? 1", RUN_EXPR_SYNTAX, "expected ':'"},
    {"pow(2, 3)", RUN_EXPR_SYNTAX, "unknown function (min, max, ceil, floor, abs, cdiv) at column 1"},
    {"min(1)", RUN_EXPR_SYNTAX, "min takes at least 2 arguments"},
    {"ceil(1, 2)", RUN_EXPR_SYNTAX, "ceil takes 1 argument"},
    {"min(1 2)", RUN_EXPR_SYNTAX, "expected ',' or ')'"},
    {"1 = 2", RUN_EXPR_SYNTAX, "unexpected text at column 3"},
    {"WARPS * nosuch", RUN_EXPR_UNKNOWN, "unknown name 'nosuch' at column 9"},
    {"gpu__time_duration.avg", RUN_EXPR_UNKNOWN, "unknown name 'gpu__time_duration.avg'"},
    {"n / zero", RUN_EXPR_MATH, "division by zero at column 3"},
    {"cdiv(n, zero)", RUN_EXPR_MATH, "cdiv by zero"},
    {"1e300 * 1e300", RUN_EXPR_MATH, "not a finite number"},
    {"1e999", RUN_EXPR_SYNTAX, "number too large"},
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    double v = 0;
    int asked = 0;
    char err[256] = "";
    int st = run_expr_real_eval(rows[i].text, expr_lookup, &asked, &v, err, sizeof err);
    ck_assert_msg(st == rows[i].status, "'%s': status %d, expected %d (%s)", rows[i].text, st,
                  rows[i].status, err);
    ck_assert_msg(strstr(err, rows[i].msg) != NULL, "'%s': message '%s' lacks '%s'", rows[i].text,
                  err, rows[i].msg);
    /* a syntax check finds exactly the syntax errors */
    st = run_expr_real_check(rows[i].text, err, sizeof err);
    ck_assert_int_eq(st, rows[i].status == RUN_EXPR_SYNTAX ? RUN_EXPR_SYNTAX : RUN_EXPR_OK);
  }
}
END_TEST

START_TEST(test_expr_is_name)
{
  ck_assert(run_expr_is_name("gpu__time_duration.sum"));
  ck_assert(run_expr_is_name("WARPS"));
  ck_assert(run_expr_is_name("_x1"));
  ck_assert(!run_expr_is_name("12 * n"));
  ck_assert(!run_expr_is_name("1x"));
  ck_assert(!run_expr_is_name(".sum"));
  ck_assert(!run_expr_is_name(""));
  ck_assert(!run_expr_is_name("a b"));
}
END_TEST

/* The names an expression uses, in order, without the functions it calls, numbers with
   exponents skipped, whether or not the text is well-formed; the walk stops at the first
   name the visitor refuses. */
struct seen {
  char names[8][48];
  int n, stop_at;
};

static int see(void *ctx, const char *name, size_t len)
{
  struct seen *s = ctx;
  if (s->n < 8)
    snprintf(s->names[s->n], sizeof s->names[0], "%.*s", (int)len, name);
  s->n++;
  return s->n == s->stop_at ? 7 : 0;
}

START_TEST(test_expr_names)
{
  struct seen s = {.stop_at = 0};
  ck_assert_int_eq(run_expr_names("min(dram_bandwidth_gbs, WARPS * 1e-6 * 2.5E+3) / "
                                  "gpu__time_duration.sum + cdiv (n, 4)", see, &s), 0);
  ck_assert_int_eq(s.n, 4);
  ck_assert_str_eq(s.names[0], "dram_bandwidth_gbs");
  ck_assert_str_eq(s.names[1], "WARPS");
  ck_assert_str_eq(s.names[2], "gpu__time_duration.sum");
  ck_assert_str_eq(s.names[3], "n");
  struct seen t = {.stop_at = 2};
  ck_assert_int_eq(run_expr_names("a ? b : c", see, &t), 7);   /* stopped at b */
  ck_assert_int_eq(t.n, 2);
  struct seen u = {.stop_at = 0};
  ck_assert_int_eq(run_expr_names("(x + ", see, &u), 0);        /* malformed: scanned anyway */
  ck_assert_int_eq(u.n, 1);
  ck_assert_str_eq(u.names[0], "x");
}
END_TEST

/* The values of test_expr_modes' names as reals: n 7, WARPS 8, as its integers. */
static int mode_lookup(void *ctx, const char *name, size_t len, double *v)
{
  (void)ctx;
  if (len == 1 && name[0] == 'n')
    *v = 7;
  else if (len == 5 && !strncmp(name, "WARPS", 5))
    *v = 8;
  else
    return -1;
  return 0;
}

/* One language, two modes: the same text parsed by one parser, evaluated as integers (C's
   truncating division, sizes) or as reals (charts); the same precedence in both; errors in
   one format, with the column, in both; what only one mode has is refused in the other. */
START_TEST(test_expr_modes)
{
  static const struct run_var iv[] = {{"n", 7}, {"WARPS", 8}};
  static const struct { const char *text; int64_t i; double r; } both[] = {
    {"7 / 2", 3, 3.5}, {"-7 / 2", -3, -3.5}, {"n / 2 * 2", 6, 7}, {"1 + 2 * 3 - 4", 3, 3},
    {"2 * 3 % 4", 2, 2}, {"7 % 3", 1, 1}, {"-(2 + 3) * 2", -10, -10},
    {"1 + 2 < 4", 1, 1}, {"WARPS > 4 ? n / 2 : 0", 3, 3.5}, {"n < 4 ? 1 / 0 : 2", 2, 2},
    {"cdiv(n, 2)", 4, 4}, {"min(WARPS, n, 9)", 7, 7}, {"max(1, n - 10)", 1, 1},
  };
  for (size_t i = 0; i < sizeof both / sizeof *both; i++) {
    int64_t v = -1;
    double r = -1;
    char err[256] = "";
    ck_assert_msg(run_expr_eval(both[i].text, iv, 2, &v, err, sizeof err) == 0, "%s: %s",
                  both[i].text, err);
    ck_assert_msg(v == both[i].i, "%s = %lld as integers, expected %lld", both[i].text,
                  (long long)v, (long long)both[i].i);
    ck_assert_msg(run_expr_real_eval(both[i].text, mode_lookup, NULL, &r, err, sizeof err) ==
                  RUN_EXPR_OK, "%s: %s", both[i].text, err);
    ck_assert_msg(r == both[i].r, "%s = %g as reals, expected %g", both[i].text, r, both[i].r);
    ck_assert_int_eq(run_expr_check(both[i].text, 0, err, sizeof err), RUN_EXPR_OK);
  }
  static const struct { const char *text; int real; const char *msg; } errs[] = {
    {"n / (n - 7)", 0, "'n / (n - 7)': division by zero at column 3"},
    {"n / (n - 7)", 1, "'n / (n - 7)': division by zero at column 3"},
    {"n + 1.5", 0, "a number that is not an integer at column 5"},
    {"n + 1e3", 0, "a number that is not an integer at column 5"},
    {"ceil(n)", 0, "unknown function (min, max, cdiv, pow2ceil) at column 1"},
    {"pow2ceil(n)", 1, "unknown function (min, max, ceil, floor, abs, cdiv) at column 1"},
    {"n +* 2", 0, "expected a number, a name or '(' at column 4"},
    {"n +* 2", 1, "expected a number, a name or '(' at column 4"},
    {"cdiv(n)", 1, "cdiv takes 2 arguments (a wrong number of arguments) at column 5"},
    {"2 * nope", 0, "'2 * nope': unknown name 'nope' at column 5"},
    {"2 * nope", 1, "'2 * nope': unknown name 'nope' at column 5"},
    {"cdiv(n, 0)", 0, "cdiv by a number that is not positive at column 5"},
    {"4611686018427387904 * 2", 0, "the value overflows 64 bits at column 21"},
  };
  for (size_t i = 0; i < sizeof errs / sizeof *errs; i++) {
    char err[256] = "";
    int64_t v;
    double r;
    int st = errs[i].real ? run_expr_real_eval(errs[i].text, mode_lookup, NULL, &r, err, sizeof err)
                          : run_expr_eval(errs[i].text, iv, 2, &v, err, sizeof err);
    ck_assert_msg(st != 0, "'%s' accepted", errs[i].text);
    ck_assert_msg(strstr(err, errs[i].msg) != NULL, "'%s': message '%s' lacks '%s'",
                  errs[i].text, err, errs[i].msg);
  }
}
END_TEST

Suite *suite_expr(void)
{
  Suite *s = suite_create("expr");
  TCase *e = tcase_create("expressions");
  tcase_add_test(e, test_expr_values);
  tcase_add_test(e, test_expr_branches);
  tcase_add_test(e, test_expr_errors);
  tcase_add_test(e, test_expr_is_name);
  tcase_add_test(e, test_expr_names);
  tcase_add_test(e, test_expr_modes);
  suite_add_tcase(s, e);
  return s;
}
