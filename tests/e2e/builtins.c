/* builtins.c: end-to-end tests of the device-runtime functions the emulator provides:
 * printf (formats, block order whatever the number of workers) and assert (a fault with the
 * assertion and its line). */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "e2e.h"

START_TEST(printf_in_block_order)
{
  const char *k = e2e_kernel("printf_assert.cu");
  const char *want =
      "block 0 thread 0: a=0 f=0.250 ok 1.2e+04|0   |ff\n"
      "block 0 thread 1: a=1 f=0.250 ok 1.2e+04|1   |100\n"
      "block 1 thread 0: a=4 f=0.250 ok 1.2e+04|4   |103\n"
      "block 1 thread 1: a=5 f=0.250 ok 1.2e+04|5   |104\n"
      "block 2 thread 0: a=8 f=0.250 ok 1.2e+04|8   |107\n"
      "block 2 thread 1: a=9 f=0.250 ok 1.2e+04|9   |108\n";
  for (int w = 1; w <= 2; w++) {
    struct e2e_run *r = e2e_emu(k, "--kernel", "hello", "--grid", "3", "--block", "4", "--threads",
                                w == 1 ? "1" : "2", "--arg", "i32buf:12:iota", "--arg", "f32:0.25",
                                "--json", (char *)NULL);
    e2e_expect_ok(r);
    ck_assert_str_eq(e2e_jstr(r, "printf"), want);
  }
}
END_TEST

START_TEST(assert_is_a_fault_at_its_line)
{
  const char *k = e2e_kernel("printf_assert.cu");
  struct e2e_run *r = e2e_emu(k, "--kernel", "checked", "--grid", "1", "--block", "8", "--arg",
                              "i32buf:8:fill=7", "--json", (char *)NULL);
  e2e_expect_ok(r);
  r = e2e_emu(k, "--kernel", "checked", "--grid", "1", "--block", "8", "--arg", "i32buf:8:fill=100",
              "--json", (char *)NULL);
  e2e_expect_outcome(r, 1, "fault");
  ck_assert_str_eq(e2e_jstr(r, "fault/kind"), "trap");
  ck_assert_ptr_nonnull(strstr(e2e_jstr(r, "fault/message"), "assertion `a[t] < 100` failed"));
  ck_assert_int_eq(e2e_jint(r, "fault/source/line"), e2e_marker_line(k, "ASSERT-HERE"));
}
END_TEST

void e2e_add_builtin_tests(Suite *s)
{
  if (!e2e_have_nvcc()) {
    printf("e2e: nvcc not found: SKIPPING the printf and assert tests\n");
    return;
  }
  TCase *tc = tcase_create("builtins");
  tcase_add_checked_fixture(tc, e2e_setup, e2e_teardown);
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, printf_in_block_order);
  tcase_add_test(tc, assert_is_a_fault_at_its_line);
  suite_add_tcase(s, tc);
}
