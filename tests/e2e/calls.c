/* calls.c: end-to-end tests of calls through pointers (tests/e2e/kernels/virtual.cu): virtual
 * functions of objects built in the kernel (a virtual function table is a .global array of
 * function addresses, a virtual call a call through the loaded address), a __device__ table of
 * function pointers, pointers passed to a device function and chosen per lane. Lanes of one
 * warp call different functions and meet again after the call.
 *
 * Expected values follow from the C++ semantics: each lane's object or pointer decides which
 * function runs. Comparisons are bit for bit.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "e2e.h"

#define A "--arg"

/* One class per lane by i % 3: Square (x * x, kind 0), Scaled(3) (3x, kind 1), Shifted(0.5)
   (0.5x + kind, kind 2, a virtual call inside a virtual function): out = area + 100 * kind. */
START_TEST(virtual_calls_per_lane)
{
  const unsigned n = 200;
  float *in = e2e_rand_f32(n, 81);
  const char *pout = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(e2e_kernel("virtual.cu"), "--kernel", "virtual_shapes", "--grid", "2",
                              "--block", "128", A, e2e_fmt("f32buf:%u:rand:81", n), A,
                              e2e_fmt("f32buf:%u:zero", n), A, e2e_fmt("i32:%u", n), "--dump",
                              e2e_fmt("1=%s", pout), "--json", NULL);
  e2e_expect_ok(r);
  float *got = e2e_read(pout, n * 4);
  for (unsigned i = 0; i < n; i++) {
    float x = in[i];
    float want = i % 3 == 0 ? x * x + 0.0f : i % 3 == 1 ? 3.0f * x + 100.0f : (0.5f * x + 2.0f) + 200.0f;
    ck_assert_msg(e2e_f32_bits(got[i]) == e2e_f32_bits(want), "thread %u: got %a, expected %a", i,
                  (double)got[i], (double)want);
  }
}
END_TEST

/* ops[i % 4] (add, sub, mul, xor) through a pointer passed to apply(), then add or mul by 3
   chosen per lane by the input's parity. */
START_TEST(function_pointers_per_lane)
{
  const unsigned n = 200;
  uint32_t *in = e2e_rand_u32(n, 82);
  const char *pout = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(e2e_kernel("virtual.cu"), "--kernel", "function_pointers", "--grid",
                              "2", "--block", "128", A, e2e_fmt("i32buf:%u:rand:82", n), A,
                              e2e_fmt("i32buf:%u:zero", n), A, e2e_fmt("i32:%u", n), "--dump",
                              e2e_fmt("1=%s", pout), "--json", NULL);
  e2e_expect_ok(r);
  uint32_t *got = e2e_read(pout, n * 4);
  for (unsigned i = 0; i < n; i++) {
    uint32_t a = in[i], v = i % 4 == 0 ? a + i : i % 4 == 1 ? a - i : i % 4 == 2 ? a * i : a ^ i;
    uint32_t want = (a & 1) ? v * 3 : v + 3;
    ck_assert_msg(got[i] == want, "thread %u: got %u, expected %u", i, got[i], want);
  }
}
END_TEST

/* A virtual destructor's deleting form calls free, which the emulator does not provide: the
   kernel still runs, as nothing calls it; pointers from a __constant__ table.
   out[i] = (i odd ? 2 * in[i] : -in[i]) + (i & 2 ? 2 : 1). */
START_TEST(virtual_destructor_and_constant_table)
{
  const unsigned n = 100;
  float *in = e2e_rand_f32(n, 83);
  const char *pout = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(e2e_kernel("virtual.cu"), "--kernel", "virtual_destructor_and_constant_table",
                              "--grid", "1", "--block", "128", A, e2e_fmt("f32buf:%u:rand:83", n), A,
                              e2e_fmt("f32buf:%u:zero", n), A, e2e_fmt("i32:%u", n), "--dump",
                              e2e_fmt("1=%s", pout), "--json", NULL);
  e2e_expect_ok(r);
  float *got = e2e_read(pout, n * 4);
  for (unsigned i = 0; i < n; i++) {
    float want = ((i & 1) ? 2.0f * in[i] : -in[i]) + ((i & 2) ? 2.0f : 1.0f);
    ck_assert_msg(e2e_f32_bits(got[i]) == e2e_f32_bits(want), "thread %u: got %a, expected %a", i,
                  (double)got[i], (double)want);
  }
}
END_TEST

/* A call through a null function pointer faults at the call, saying so. */
START_TEST(null_function_pointer_is_a_fault)
{
  const char *k = e2e_kernel("virtual.cu");
  struct e2e_run *r = e2e_emu(k, "--kernel", "null_function_pointer", "--grid", "1", "--block", "32",
                              A, "i32buf:32:zero", "--json", NULL);
  e2e_expect_outcome(r, 1, "fault");
  ck_assert_int_eq(e2e_jint(r, "fault/source/line"), e2e_marker_line(k, "CALL-THROUGH"));
  const char *msg = e2e_jstr(r, "fault/message");
  ck_assert_msg(strstr(msg, "function pointer") && strstr(msg, "null"), "%s", msg);
}
END_TEST

void e2e_add_calls_tests(Suite *s)
{
  if (!e2e_have_nvcc()) {
    printf("e2e: nvcc not found: SKIPPING the indirect call tests\n");
    return;
  }
  TCase *tc = tcase_create("calls");
  tcase_add_checked_fixture(tc, e2e_setup, e2e_teardown);
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, virtual_calls_per_lane);
  tcase_add_test(tc, function_pointers_per_lane);
  tcase_add_test(tc, virtual_destructor_and_constant_table);
  tcase_add_test(tc, null_function_pointer_is_a_fault);
  suite_add_tcase(s, tc);
}
