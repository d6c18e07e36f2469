/* check_run.c: the lab harness's pieces: the expressions of lab definitions. */
#include <check.h>
#include <string.h>

#include "run/run_expr.h"
#include "suites.h"

static const struct run_var vars[] = {{"nx", 1000}, {"ny", 3}, {"BLOCK_X", 32}, {"BLOCK_Y", 8}};

START_TEST(test_expr_values)
{
  static const struct { const char *text; int64_t want; } rows[] = {
    {"nx*ny", 3000}, {"cdiv(nx, BLOCK_X)", 32}, {"cdiv(ny,BLOCK_Y)", 1}, {"cdiv(0, 8)", 0},
    {"1 + 2 * 3", 7}, {"(1 + 2) * 3", 9}, {"-4 + 10", 6}, {"- -4", 4}, {"17 % 5", 2},
    {"17 / 5", 3}, {"min(nx, 7)", 7}, {"max(ny, BLOCK_Y)", 8}, {"pow2ceil(1000)", 1024},
    {"pow2ceil(1)", 1}, {"nx - nx", 0}, {"  nx  ", 1000}, {"9223372036854775807", INT64_MAX},
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    int64_t v = -12345;
    char err[128] = "";
    ck_assert_msg(run_expr_eval(rows[i].text, vars, 4, &v, err, sizeof err) == 0, "%s: %s",
                  rows[i].text, err);
    ck_assert_msg(v == rows[i].want, "%s = %lld, expected %lld", rows[i].text, (long long)v,
                  (long long)rows[i].want);
  }
}
END_TEST

START_TEST(test_expr_errors)
{
  static const struct { const char *text, *msg; } rows[] = {
    {"nx / 0", "division by zero"}, {"cdiv(nx, 0)", "not positive"}, {"nz * 2", "unknown name 'nz'"},
    {"nx +", "unexpected end"}, {"(nx", "expected ')'"}, {"nx nx", "unexpected text"},
    {"foo(1, 2)", "unknown function"}, {"cdiv(1)", "wrong number of arguments"},
    {"9223372036854775807 + 1", "overflows"}, {"99999999999999999999", "too large"},
    {"", "unexpected end"},
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    int64_t v = 0;
    char err[160] = "";
    ck_assert_msg(run_expr_eval(rows[i].text, vars, 4, &v, err, sizeof err) == -1, "%s accepted", rows[i].text);
    ck_assert_msg(strstr(err, rows[i].msg) != NULL, "%s: message '%s' lacks '%s'", rows[i].text, err, rows[i].msg);
  }
  /* deep nesting is refused, not a stack overflow */
  char deep[400];
  memset(deep, '(', 200);
  deep[200] = '1';
  memset(deep + 201, ')', 198);
  deep[399] = 0;
  int64_t v;
  char err[160];
  ck_assert_int_eq(run_expr_eval(deep, vars, 4, &v, err, sizeof err), -1);
  ck_assert_ptr_nonnull(strstr(err, "nested too deeply"));
}
END_TEST

Suite *suite_run(void)
{
  Suite *s = suite_create("run");
  TCase *t = tcase_create("expr");
  tcase_add_test(t, test_expr_values);
  tcase_add_test(t, test_expr_errors);
  suite_add_tcase(s, t);
  return s;
}
