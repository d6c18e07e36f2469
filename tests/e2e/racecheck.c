/* racecheck.c: end-to-end tests of the emulator's checks of shared memory and warp masks
 * (harness/sim/sim_race.c): each hazard kind (read-after-write, write-after-read,
 * write-after-write; between warps and within one; in global memory within a block), the
 * uninitialised read and the bad masks,
 * reported with their .cu lines by `warplab emu`; the correct kernel of each shape, which
 * must run without a report; and the count and pattern of wrong elements in `warplab run`'s
 * detail (lab 05's missing __syncthreads() as a fault of `warplab run`: tests/e2e/lab05.c). */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "e2e.h"

/* `warplab emu racecheck.cu --kernel NAME` on one block of `block` threads. */
static struct e2e_run *emu(const char *name, const char *block)
{
  return e2e_emu(e2e_kernel("racecheck.cu"), "--kernel", name, "--grid", "1", "--block", block,
                 "--arg", "f32buf:64:rand:7", "--arg", "f32buf:64:zero", "--json", (char *)NULL);
}

/* A fault of kind `kind` at the line marked `at` (and, for a race, the other access at the
   line marked `other`), whose message contains `words`. */
static void expect_report(struct e2e_run *r, const char *kind, const char *at, const char *other,
                          const char *words)
{
  const char *k = e2e_kernel("racecheck.cu");
  e2e_expect_outcome(r, 1, "fault");
  ck_assert_str_eq(e2e_jstr(r, "fault/kind"), kind);
  ck_assert_int_eq(e2e_jint(r, "fault/source/line"), e2e_marker_line(k, at));
  if (other)
    ck_assert_int_eq(e2e_jint(r, "fault/other/source/line"), e2e_marker_line(k, other));
  const char *msg = e2e_jstr(r, "fault/message");
  ck_assert_msg(strstr(msg, words) != NULL, "'%s' not in: %s", words, msg);
}

START_TEST(raw_between_warps)
{
  struct e2e_run *r = emu("raw_warps", "64");
  expect_report(r, "race", "RAW-READ", "RAW-WRITE", "read-after-write hazard on s[0]");
  e2e_expect_dim3(r, "fault/thread", 32, 0, 0);          /* warp 1 reads what warp 0 wrote */
  e2e_expect_dim3(r, "fault/other/thread", 0, 0, 0);
  ck_assert_int_eq(e2e_jint(r, "fault/shared_offset"), 0);
  e2e_expect_ok(emu("raw_warps_ok", "64"));
}
END_TEST

START_TEST(war_between_warps)
{
  struct e2e_run *r = emu("war_warps", "64");
  expect_report(r, "race", "WAR-WRITE", "WAR-READ", "write-after-read hazard on s[32]");
  e2e_expect_dim3(r, "fault/thread", 32, 0, 0);
  e2e_expect_dim3(r, "fault/other/thread", 0, 0, 0);
  ck_assert_int_eq(e2e_jint(r, "fault/shared_offset"), 128);
  e2e_expect_ok(emu("war_warps_ok", "64"));
}
END_TEST

START_TEST(waw_between_warps)
{
  struct e2e_run *r = emu("waw_warps", "64");
  expect_report(r, "race", "WAW-WRITE", "WAW-WRITE", "write-after-write hazard on s[0]");
  e2e_expect_dim3(r, "fault/thread", 32, 0, 0);
  e2e_expect_dim3(r, "fault/other/thread", 0, 0, 0);
  e2e_expect_ok(emu("waw_same_value_ok", "64"));
}
END_TEST

/* The softmax that reuses red[0] for its sum before warp 1 has read the maximum there: warp 1
   reads warp 0's sum (a device function, inlined: the lines are the function's). */
START_TEST(softmax_reusing_a_slot)
{
  struct e2e_run *r = emu("softmax_reuse", "64");
  expect_report(r, "race", "SOFTMAX-READ", "SOFTMAX-REUSE", "read-after-write hazard on red[0]");
  e2e_expect_dim3(r, "fault/thread", 32, 0, 0);
  e2e_expect_dim3(r, "fault/other/thread", 0, 0, 0);
  e2e_expect_ok(emu("softmax_ok", "64"));
}
END_TEST

START_TEST(within_a_warp)
{
  /* the unrolled last warp without volatile or __syncwarp(): two lanes of warp 0 */
  struct e2e_run *r = emu("warp_unrolled", "64");
  e2e_expect_outcome(r, 1, "fault");
  ck_assert_str_eq(e2e_jstr(r, "fault/kind"), "race");
  ck_assert_int_eq(e2e_jint(r, "fault/warp"), 0);
  ck_assert_int_lt(e2e_jint(r, "fault/other/thread/0"), 32);
  const char *k = e2e_kernel("racecheck.cu");
  long long line = e2e_jint(r, "fault/source/line");
  ck_assert_int_ge(line, e2e_marker_line(k, "UNROLLED-FIRST"));
  ck_assert_int_le(line, e2e_marker_line(k, "UNROLLED-FIRST") + 5);
  ck_assert_ptr_nonnull(strstr(e2e_jstr(r, "fault/message"), "no __syncwarp()"));
  e2e_expect_ok(emu("warp_unrolled_ok", "64"));
  e2e_expect_ok(emu("shuffle_ok", "64"));                 /* shuffles and votes: no report */
}
END_TEST

START_TEST(global_within_a_block)
{
  struct e2e_run *r = emu("global_raw", "64");
  expect_report(r, "race", "GRAW-READ", "GRAW-WRITE",
                "Race on __global__ memory: read-after-write hazard on element 0");
  e2e_expect_dim3(r, "fault/thread", 32, 0, 0);
  e2e_expect_dim3(r, "fault/other/thread", 0, 0, 0);
  e2e_expect_ok(emu("global_raw_ok", "64"));
}
END_TEST

/* Global hazards are judged on the bytes written, not the word: threads writing neighbouring
   bytes of one word are not a race; a read of another thread's byte is one. */
START_TEST(global_bytes_of_a_word)
{
  e2e_expect_ok(emu("global_bytes_ok", "64"));
  struct e2e_run *r = emu("global_bytes_raw", "64");
  expect_report(r, "race", "GBYTE-READ", "GBYTE-WRITE",
                "Race on __global__ memory: read-after-write hazard on");
  /* the word's last writer is held: thread 2 reads the byte thread 3 wrote */
  e2e_expect_dim3(r, "fault/thread", 2, 0, 0);
  e2e_expect_dim3(r, "fault/other/thread", 3, 0, 0);
}
END_TEST

/* --order reverse: blocks take their indices, and warps their turns, in reverse order. A result
   that changes with it depends on a race between blocks (every block writing out[0]); a race
   the index order hides from the checker shows in the other order. */
START_TEST(reverse_order_shows_races)
{
  const char *k = e2e_kernel("racecheck.cu");
  const char *pi = e2e_tmp("index.bin"), *pr = e2e_tmp("reverse.bin");
  /* one worker thread: with two, blocks 0 and 1 run at once and either may write last (1 in
     2 of 30 runs on 2 cores) */
  e2e_expect_ok(e2e_emu(k, "--kernel", "last_block_wins", "--grid", "4", "--block", "32", "--arg",
                        "f32buf:64:rand:7", "--arg", "f32buf:64:zero", "--dump",
                        e2e_fmt("1=%s", pi), "--threads", "1", "--json", (char *)NULL));
  e2e_expect_ok(e2e_emu(k, "--kernel", "last_block_wins", "--grid", "4", "--block", "32", "--arg",
                        "f32buf:64:rand:7", "--arg", "f32buf:64:zero", "--dump",
                        e2e_fmt("1=%s", pr), "--order", "reverse", "--threads", "1", "--json",
                        (char *)NULL));
  float *a = e2e_read(pi, 64 * 4), *b = e2e_read(pr, 64 * 4);
  ck_assert_msg(a[0] == 3.0f && b[0] == 0.0f, "out[0]: %g in index order, %g in reverse order",
                (double)a[0], (double)b[0]);
  struct e2e_run *r = e2e_emu(k, "--kernel", "byte_then_word", "--grid", "1", "--block", "64",
                              "--arg", "f32buf:64:rand:7", "--arg", "f32buf:64:zero", "--order",
                              "reverse", "--json", (char *)NULL);
  expect_report(r, "race", "ORDER-BYTE", "ORDER-WORD",
                "Race on __global__ memory: write-after-write hazard");
  r = e2e_emu(k, "--kernel", "last_block_wins", "--grid", "1", "--block", "32", "--arg",
              "f32buf:64:rand:7", "--arg", "f32buf:64:zero", "--order", "backwards", (char *)NULL);
  e2e_expect_error(r, 2, "--order 'backwards'", NULL);
}
END_TEST

START_TEST(uninitialised_read)
{
  struct e2e_run *r = emu("uninit_read", "64");
  expect_report(r, "uninitialized_read", "UNINIT-READ", NULL,
                "no thread of the block wrote s[32]");
  e2e_expect_dim3(r, "fault/thread", 32, 0, 0);
}
END_TEST

START_TEST(bad_masks)
{
  /* __shfl_down_sync(0x0000ffff, v, 1) called by all 32 lanes: lane 16 is not in its mask */
  struct e2e_run *r = emu("bad_mask", "32");
  expect_report(r, "sync_mask", "BAD-MASK", NULL, "leaves out the calling lane");
  ck_assert_int_eq(e2e_jint(r, "fault/lane"), 16);
  ck_assert_ptr_nonnull(strstr(e2e_jstr(r, "fault/message"), "__shfl_down_sync() with mask 0x0000ffff"));
  /* a full mask after lanes 16-31 returned */
  r = emu("exited_mask", "32");
  expect_report(r, "sync_mask", "EXITED-MASK", NULL, "lanes 16-31");
  /* a full mask in a branch lanes 16-31 do not take: they never come (a deadlock before) */
  r = emu("inactive_mask", "32");
  expect_report(r, "sync_mask", "INACTIVE-MASK", NULL, "not active there");
  e2e_expect_ok(emu("half_mask_ok", "32"));
}
END_TEST

/* Lab 01 with every 32nd element wrong (index 5, 37, ...): on the 33 x 17 test, 561 elements,
   indices 5 + 32k < 561 are 18 of them, 5 to 549. */
START_TEST(wrong_elements_counted)
{
  struct e2e_run *r = e2e_warplab("run", "01", "--kernel-file", e2e_kernel("matrix_add_stride.cu"),
                                  "--backend", "emu", "--json", "--results", e2e_tmp("results"),
                                  "--quick", (char *)NULL);
  ck_assert_int_eq(r->status, 1);
  json_t *t = e2e_test_at(r, "nx=33 ny=17");
  ck_assert_str_eq(e2e_state_of(t), "fail");
  ck_assert_int_eq(json_integer_value(json_object_get(t, "first_bad")), 5);
  const char *d = json_string_value(json_object_get(t, "detail"));
  ck_assert_msg(strstr(d, "c[5] is wrong") && strstr(d, "18 of 561 elements of c are wrong") &&
                strstr(d, "c[5], c[37], c[69], c[101], ...") &&
                strstr(d, "every 32nd element from c[5] to c[549]"), "%s", d);
}
END_TEST

void e2e_add_racecheck_tests(Suite *s)
{
  if (!e2e_have_nvcc()) {
    printf("e2e: nvcc not found: SKIPPING the race checker tests\n");
    return;
  }
  TCase *tc = tcase_create("racecheck");
  tcase_add_checked_fixture(tc, e2e_setup, e2e_teardown);
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, raw_between_warps);
  tcase_add_test(tc, global_bytes_of_a_word);
  tcase_add_test(tc, war_between_warps);
  tcase_add_test(tc, waw_between_warps);
  tcase_add_test(tc, softmax_reusing_a_slot);
  tcase_add_test(tc, within_a_warp);
  tcase_add_test(tc, global_within_a_block);
  tcase_add_test(tc, uninitialised_read);
  tcase_add_test(tc, reverse_order_shows_races);
  tcase_add_test(tc, bad_masks);
  tcase_add_test(tc, wrong_elements_counted);
  suite_add_tcase(s, tc);
}
