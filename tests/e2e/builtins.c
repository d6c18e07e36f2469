/* builtins.c: end-to-end tests of the device-runtime functions the emulator provides:
 * printf (formats, block order whatever the number of workers), assert (a fault with the
 * assertion and its line), malloc/free and new/delete (the device heap: blocks that work,
 * NULL when the heap is exhausted, an overrun or a double free reported with its line),
 * cudaGraphSetConditional (the values set, reported; no memory changed). */
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

/* each thread mallocs n ints, fills and sums them, frees them: 256 threads a block, so the
   warps after the first get blocks the first freed (the race check must not take the reuse
   for a race), on one worker thread and on two sharing the heap */
START_TEST(malloc_and_new_per_thread)
{
  const char *k = e2e_kernel("heap.cu"), *out = e2e_tmp("heap.bin");
  const int N = 1024, n = 10, n2 = 7;
  for (int w = 1; w <= 2; w++) {
    struct e2e_run *r = e2e_emu(k, "--kernel", "heap_per_thread", "--grid", "4", "--block", "256",
                                "--threads", w == 1 ? "1" : "2", "--arg", "i32buf:1024:zero",
                                "--arg", "i32:10", "--dump", e2e_fmt("0=%s", out), "--json",
                                (char *)NULL);
    e2e_expect_ok(r);
    const int *got = e2e_read(out, (size_t)N * 4);
    for (int i = 0; i < N; i++)
      ck_assert_int_eq(got[i], i * n * (n - 1) / 2 + n);   /* sum of i*k + 1, k < n */
  }
  struct e2e_run *r = e2e_emu(k, "--kernel", "heap_new_delete", "--grid", "4", "--block", "256",
                              "--threads", "2", "--arg", "i32buf:1024:zero", "--arg", "i32:7",
                              "--dump", e2e_fmt("0=%s", out), "--json", (char *)NULL);
  e2e_expect_ok(r);
  const int *got = e2e_read(out, (size_t)N * 4);
  for (int i = 0; i < N; i++) {
    int want = 0;
    for (int round = 0; round < 2; round++)
      for (int j = 0; j < n2; j++)
        want += (i + round) ^ j;
    ck_assert_int_eq(got[i], want);
  }
}
END_TEST

/* 16 MiB is more than the 8 MiB heap: malloc returns NULL and the kernel carries on; 1 MiB
   fits, and its last word can be written and read */
START_TEST(malloc_returns_null_when_the_heap_is_exhausted)
{
  const char *k = e2e_kernel("heap.cu"), *out = e2e_tmp("ex.bin");
  struct e2e_run *r = e2e_emu(k, "--kernel", "heap_exhaust", "--grid", "1", "--block", "32", "--arg",
                              "i32buf:3:zero", "--arg", "u64:16777216", "--arg", "u64:1048576",
                              "--dump", e2e_fmt("0=%s", out), "--json", (char *)NULL);
  e2e_expect_ok(r);
  const int *got = e2e_read(out, 12);
  ck_assert_int_eq(got[0], 1);
  ck_assert_int_eq(got[1], 1);
  ck_assert_int_eq(got[2], 1234);
  /* --heap sets the heap's size: 2 MiB fits the default heap, not one of 1 MiB */
  for (int small = 0; small <= 1; small++) {
    r = e2e_emu(k, "--kernel", "heap_exhaust", "--grid", "1", "--block", "32", "--heap",
                small ? "1048576" : "8388608", "--arg", "i32buf:3:zero", "--arg", "u64:2097152",
                "--arg", "u64:262144", "--dump", e2e_fmt("0=%s", out), "--json", (char *)NULL);
    e2e_expect_ok(r);
    got = e2e_read(out, 12);
    ck_assert_int_eq(got[0], small);
    ck_assert_int_eq(got[1], 1);
  }
  r = e2e_emu(k, "--kernel", "heap_exhaust", "--grid", "1", "--block", "32", "--heap", "0", "--arg",
              "i32buf:3:zero", "--arg", "u64:1", "--arg", "u64:4", (char *)NULL);
  e2e_expect_error(r, 2, "--heap '0'", NULL);
}
END_TEST

/* an int written past the end of a malloc'd block of 5, and a block freed twice: faults at
   their lines */
START_TEST(heap_overrun_and_double_free_are_faults)
{
  const char *k = e2e_kernel("heap.cu");
  struct e2e_run *r = e2e_emu(k, "--kernel", "heap_overrun", "--grid", "2", "--block", "64", "--arg",
                              "i32buf:128:zero", "--arg", "i32:5", "--json", (char *)NULL);
  e2e_expect_outcome(r, 1, "fault");
  ck_assert_str_eq(e2e_jstr(r, "fault/kind"), "out_of_bounds");
  const char *msg = e2e_jstr(r, "fault/message");
  ck_assert_msg(strstr(msg, "1 byte past the end of a 20-byte block malloc'd") != NULL, "%s", msg);
  ck_assert_int_eq(e2e_jint(r, "fault/source/line"), e2e_marker_line(k, "OVERRUN-HERE"));
  r = e2e_emu(k, "--kernel", "heap_double_free", "--grid", "1", "--block", "4", "--arg",
              "i32buf:4:zero", "--json", (char *)NULL);
  e2e_expect_outcome(r, 1, "fault");
  ck_assert_str_eq(e2e_jstr(r, "fault/kind"), "trap");
  msg = e2e_jstr(r, "fault/message");
  ck_assert_msg(strstr(msg, "which is not a block malloc returned") != NULL, "%s", msg);
  ck_assert_int_eq(e2e_jint(r, "fault/source/line"), e2e_marker_line(k, "DOUBLE-FREE-HERE"));
}
END_TEST

/* cudaGraphSetConditional outside a graph: no memory changes but the kernel's own; for each
   handle the value the last block (in index order) set and the calls, on one worker thread
   and on two */
START_TEST(graph_set_conditional_is_reported)
{
  const char *k = e2e_kernel("graph_cond.cu"), *out = e2e_tmp("out.bin");
  for (int w = 1; w <= 2; w++) {
    struct e2e_run *r = e2e_emu(k, "--kernel", "graph_cond", "--grid", "4", "--block", "32",
                                "--threads", w == 1 ? "1" : "2", "--arg", "i32buf:4:iota", "--arg",
                                "i32buf:4:zero", "--arg", "u64:1234", "--arg", "u64:99", "--dump",
                                e2e_fmt("1=%s", out), "--json", (char *)NULL);
    e2e_expect_ok(r);
    const int *got = e2e_read(out, 16);
    for (int b = 0; b < 4; b++)
      ck_assert_int_eq(got[b], b + 1);
    ck_assert_int_eq(json_array_size(e2e_j(r->json, "graph_conditionals")), 2);
    ck_assert_int_eq(e2e_jint(r, "graph_conditionals/0/handle"), 1234);
    ck_assert_int_eq(e2e_jint(r, "graph_conditionals/0/value"), 10 * 3 + 3);
    ck_assert_int_eq(e2e_jint(r, "graph_conditionals/0/calls"), 4);
    e2e_expect_dim3(r, "graph_conditionals/0/block", 3, 0, 0);
    ck_assert_str_eq(e2e_jstr(r, "graph_conditionals/0/line"),
                     e2e_fmt("graph_cond.cu:%d", e2e_marker_line(k, "SET-HERE")));
    ck_assert_int_eq(e2e_jint(r, "graph_conditionals/1/handle"), 99);
    ck_assert_int_eq(e2e_jint(r, "graph_conditionals/1/value"), 7);
    ck_assert_int_eq(e2e_jint(r, "graph_conditionals/1/calls"), 1);
    e2e_expect_dim3(r, "graph_conditionals/1/thread", 5, 0, 0);
  }
  struct e2e_run *r = e2e_emu(k, "--kernel", "graph_cond", "--grid", "4", "--block", "32",
                              "--arg", "i32buf:4:fill=2", "--arg", "i32buf:4:zero", "--arg",
                              "u64:1234", "--arg", "u64:99", (char *)NULL);
  ck_assert_int_eq(r->status, 0);
  ck_assert_msg(strstr(r->out, "cudaGraphSetConditional: handle 1234 set to 32 (the last of 4 "
                       "calls"), "%s", r->out);
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
  tcase_add_test(tc, malloc_and_new_per_thread);
  tcase_add_test(tc, malloc_returns_null_when_the_heap_is_exhausted);
  tcase_add_test(tc, heap_overrun_and_double_free_are_faults);
  tcase_add_test(tc, graph_set_conditional_is_reported);
  suite_add_tcase(s, tc);
}
