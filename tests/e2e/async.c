/* async.c: end-to-end tests of asynchronous copies (cp.async) as CUDA C writes them
 * (tests/e2e/kernels/async.cu): __pipeline_memcpy_async with commit/wait_prior stages,
 * cooperative_groups::memcpy_async + cg::wait, zero-filled short copies, the race a missing
 * __syncthreads() leaves, the counters a copy adds (a global load and a shared store), and
 * split barriers (mbarrier: cuda::barrier, cuda::pipeline, transaction counts, kernels/
 * mbarrier.cu), bulk copies (cp.async.bulk, kernels/bulk_copy.cu), tensor copies with tensor maps (kernels/tma.cu), and lab 03's asynchronous-copy triad (labs/03-latency-hiding/async_copy.cu): right, and timed
 * by the model as loads in flight.
 *
 * Expected values come from the ISA's definition: a copy's cp-size bytes at the destination
 * are the src-size bytes of the source followed by zeros, visible to the thread once a wait
 * covers its group and to the block after a barrier. Comparisons are bit for bit.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "e2e.h"

#define A "--arg"
#define ASYNC_TIMEOUT_S 300

/* Double-buffered stages with wait_prior(1): out[t*B + i] = in[t*B + B-1-i] * 2 + t. */
START_TEST(pipeline_stages_double_buffered)
{
  const unsigned B = 128, ntiles = 5, n = B * ntiles;
  float *in = e2e_rand_f32(n, 31);
  const char *pout = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(e2e_kernel("async.cu"), "--kernel", "pipeline_stages", "--grid", "1",
                              "--block", e2e_fmt("%u", B), A, e2e_fmt("f32buf:%u:rand:31", n), A,
                              e2e_fmt("f32buf:%u:zero", n), A, e2e_fmt("i32:%u", ntiles), "--dump",
                              e2e_fmt("1=%s", pout), "--json", NULL);
  e2e_expect_ok(r);
  float *got = e2e_read(pout, n * 4);
  for (unsigned t = 0; t < ntiles; t++)
    for (unsigned i = 0; i < B; i++) {
      float want = in[t * B + (B - 1 - i)] * 2.0f + (float)t;
      ck_assert_msg(e2e_f32_bits(got[t * B + i]) == e2e_f32_bits(want),
                    "tile %u thread %u: got %a, expected %a", t, i, (double)got[t * B + i], (double)want);
    }
  /* one 4-byte copy per thread and tile: per warp and tile one global load request of 128
     contiguous bytes (4 sectors) and one shared store */
  long long reqs = (B / 32) * ntiles;
  ck_assert_int_eq(e2e_jint(r, "metrics/l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum/value"), reqs);
  ck_assert_int_eq(e2e_jint(r, "metrics/l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum/value"), reqs * 4);
  ck_assert_int_eq(e2e_jint(r, "metrics/smsp__sass_inst_executed_op_shared_st.sum/value"), reqs);
  ck_assert_int_eq(e2e_jint(r, "metrics/l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum/value"), 0);
}
END_TEST

/* cg::memcpy_async of a block's tile, cg::wait: out[b*B + i] = in[b*B + B-1-i] + 1. */
START_TEST(cooperative_groups_memcpy_async)
{
  const unsigned B = 128, G = 3, n = B * G;
  float *in = e2e_rand_f32(n, 32);
  const char *pout = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(e2e_kernel("async.cu"), "--kernel", "cg_reverse", "--grid",
                              e2e_fmt("%u", G), "--block", e2e_fmt("%u", B), A,
                              e2e_fmt("f32buf:%u:rand:32", n), A, e2e_fmt("f32buf:%u:zero", n),
                              "--dump", e2e_fmt("1=%s", pout), "--json", NULL);
  e2e_expect_ok(r);
  float *got = e2e_read(pout, n * 4);
  for (unsigned b = 0; b < G; b++)
    for (unsigned i = 0; i < B; i++) {
      float want = in[b * B + (B - 1 - i)] + 1.0f;
      ck_assert_msg(e2e_f32_bits(got[b * B + i]) == e2e_f32_bits(want),
                    "block %u thread %u: got %a, expected %a", b, i, (double)got[b * B + i], (double)want);
    }
}
END_TEST

/* cp.async.cg 16 bytes with src-size 16 - 4 * (i % 4): the words past src-size are zero. */
START_TEST(short_source_is_zero_filled)
{
  const unsigned B = 64, G = 2, n = B * G;
  uint32_t *in = e2e_rand_u32(n * 4, 33);
  const char *pout = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(e2e_kernel("async.cu"), "--kernel", "zero_fill", "--grid",
                              e2e_fmt("%u", G), "--block", e2e_fmt("%u", B), A,
                              e2e_fmt("u32buf:%u:rand:33", n * 4), A, e2e_fmt("u32buf:%u:zero", n * 4),
                              "--dump", e2e_fmt("1=%s", pout), "--json", NULL);
  e2e_expect_ok(r);
  uint32_t *got = e2e_read(pout, n * 16);
  for (unsigned t = 0; t < n; t++) {
    unsigned kept = (16 - 4 * ((t % B) % 4)) / 4;
    for (unsigned k = 0; k < 4; k++) {
      uint32_t want = k < kept ? in[t * 4 + k] : 0;
      ck_assert_msg(got[t * 4 + k] == want, "thread %u word %u: got 0x%08x, expected 0x%08x", t, k,
                    got[t * 4 + k], want);
    }
  }
}
END_TEST

/* The ignore-src predicate: where it holds, zeros instead of the source. */
START_TEST(ignore_source_predicate_writes_zeros)
{
  const unsigned B = 64;
  float *in = e2e_rand_f32(B, 36);
  const char *pout = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(e2e_kernel("async.cu"), "--kernel", "ignore_source", "--grid", "1",
                              "--block", e2e_fmt("%u", B), A, e2e_fmt("f32buf:%u:rand:36", B), A,
                              e2e_fmt("f32buf:%u:zero", B), "--dump", e2e_fmt("1=%s", pout), "--json",
                              NULL);
  e2e_expect_ok(r);
  float *got = e2e_read(pout, B * 4);
  for (unsigned i = 0; i < B; i++) {
    uint32_t want = i & 1 ? 0 : e2e_f32_bits(in[i]);
    ck_assert_msg(e2e_f32_bits(got[i]) == want, "thread %u: got 0x%08x, expected 0x%08x", i,
                  e2e_f32_bits(got[i]), want);
  }
}
END_TEST

/* The copy lands at the wait: a read of the destination before it gives the old value. */
START_TEST(destination_changes_at_the_wait)
{
  const unsigned B = 64;
  float *in = e2e_rand_f32(B, 34);
  const char *pout = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(e2e_kernel("async.cu"), "--kernel", "early_read", "--grid", "1",
                              "--block", e2e_fmt("%u", B), A, e2e_fmt("f32buf:%u:rand:34", B), A,
                              e2e_fmt("f32buf:%u:zero", 2 * B), "--dump", e2e_fmt("1=%s", pout),
                              "--json", NULL);
  e2e_expect_ok(r);
  float *got = e2e_read(pout, 2 * B * 4);
  for (unsigned i = 0; i < B; i++) {
    ck_assert_msg(got[i] == -1.0f, "thread %u read %a before its wait, not the old -1", i, (double)got[i]);
    ck_assert_msg(e2e_f32_bits(got[B + i]) == e2e_f32_bits(in[i]), "thread %u after the wait: got %a, "
                  "expected %a", i, (double)got[B + i], (double)in[i]);
  }
}
END_TEST

/* Reading another thread's copy after one's own wait, without __syncthreads(): a race between
   the copy's write and the read, reported at both lines. */
START_TEST(missing_barrier_after_the_wait_is_a_race)
{
  const char *k = e2e_kernel("async.cu");
  struct e2e_run *r = e2e_emu(k, "--kernel", "missing_sync", "--grid", "1", "--block", "128", A,
                              "f32buf:128:rand:35", A, "f32buf:128:zero", "--json", NULL);
  e2e_expect_outcome(r, 1, "fault");
  ck_assert_str_eq(e2e_jstr(r, "fault/kind"), "race");
  int wline = e2e_marker_line(k, "ASYNC-RACE-WRITE"), rline = e2e_marker_line(k, "ASYNC-RACE-READ");
  long long at = e2e_jint(r, "fault/source/line"), other = e2e_jint(r, "fault/other/source/line");
  ck_assert_msg((at == wline && other == rline) || (at == rline && other == wline),
                "the race is reported at lines %lld and %lld, not %d and %d", at, other, wline, rline);
}
END_TEST

/* Reading a destination between the copy's issue and its wait, barriers in between: a race
   between the read and the copy landing, reported at both lines (the copy's destination is
   undefined until the wait, whatever barriers come between). */
START_TEST(read_while_the_copy_is_in_flight_is_a_race)
{
  const char *k = e2e_kernel("async.cu");
  struct e2e_run *r = e2e_emu(k, "--kernel", "read_in_flight", "--grid", "1", "--block", "128", A,
                              "f32buf:256:rand:36", A, "f32buf:256:zero", "--json", NULL);
  e2e_expect_outcome(r, 1, "fault");
  ck_assert_str_eq(e2e_jstr(r, "fault/kind"), "race");
  int wline = e2e_marker_line(k, "ASYNC-FLIGHT-COPY"), rline = e2e_marker_line(k, "ASYNC-FLIGHT-READ");
  long long at = e2e_jint(r, "fault/source/line"), other = e2e_jint(r, "fault/other/source/line");
  ck_assert_msg(at == wline && other == rline, "the race is reported at lines %lld and %lld, not %d "
                "and %d", at, other, wline, rline);
  ck_assert_msg(strstr(e2e_jstr(r, "fault/message"), "in flight") != NULL, "%s",
                e2e_jstr(r, "fault/message"));
}
END_TEST

/* Lab 03's asynchronous-copy triad (labs/03-latency-hiding/async_copy.cu) at every STAGES, on
   a size that leaves a partial tile and blocks with different tile counts: z = 2x + y bit for
   bit (2x is exact, so the sum is rounded once, fused or not). */
START_TEST(lab03_async_triad_is_right_at_every_stages)
{
  const unsigned n = 33333, G = 7;
  float *x = e2e_rand_f32(n, 41), *y = e2e_rand_f32(n, 42);
  static const int stages[] = {1, 2, 4, 8};
  for (size_t k = 0; k < sizeof stages / sizeof stages[0]; k++) {
    const char *pout = e2e_tmp(e2e_fmt("z%d.bin", stages[k]));
    struct e2e_run *r = e2e_emu("labs/03-latency-hiding/async_copy.cu", "--kernel", "triad_async",
                                "--grid", e2e_fmt("%u", G), "--block", "128", A,
                                e2e_fmt("f32buf:%u:rand:41", n), A, e2e_fmt("f32buf:%u:rand:42", n),
                                A, e2e_fmt("f32buf:%u:zero", n), A, e2e_fmt("i32:%u", n), A,
                                e2e_fmt("i32:%d", stages[k]), "--dump", e2e_fmt("2=%s", pout),
                                "--json", NULL);
    e2e_expect_ok(r);
    float *z = e2e_read(pout, n * 4);
    for (unsigned i = 0; i < n; i++) {
      float want = 2.0f * x[i] + y[i];
      ck_assert_msg(e2e_f32_bits(z[i]) == e2e_f32_bits(want), "STAGES %d: z[%u] = %a, expected %a",
                    stages[k], i, (double)z[i], (double)want);
    }
  }
}
END_TEST

/* The timing model sees the copies in flight: at the lab's 8 warps per SM (its smem rule, less
   the kernel's 8 KB of stages), each doubling of STAGES shortens the modelled time, as more
   loads are on their way per warp (Little's law), and the long-scoreboard stalls fall. */
START_TEST(lab03_async_triad_stages_hide_latency_in_the_model)
{
  const unsigned n = 2162688;    /* 8 tiles per block */
  double prev_t = 0, prev_stall = 0;
  static const int stages[] = {1, 2, 4};
  for (size_t k = 0; k < sizeof stages / sizeof stages[0]; k++) {
    struct e2e_run *r = e2e_emu("labs/03-latency-hiding/async_copy.cu", "--kernel", "triad_async",
                                "--grid", "2112", "--block", "128", "--smem",
                                e2e_fmt("%d", 233472 / 2 - 2048 - 8192), A,
                                e2e_fmt("f32buf:%u:rand:1", n), A, e2e_fmt("f32buf:%u:rand:2", n),
                                A, e2e_fmt("f32buf:%u:zero", n), A, e2e_fmt("i32:%u", n), A,
                                e2e_fmt("i32:%d", stages[k]), "--json", NULL);
    e2e_expect_ok(r);
    ck_assert_int_eq(e2e_jint(r, "occupancy/active_warps_per_sm"), 8);
    json_t *t = e2e_j(r->json, "metrics/gpu__time_duration.sum/value");
    json_t *st = e2e_j(r->json, "metrics/smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio/value");
    ck_assert_msg(json_is_number(t) && json_is_number(st), "no modelled time or stalls: %s", r->out);
    double tv = json_number_value(t), sv = json_number_value(st);
    if (k) {
      ck_assert_msg(tv < 0.9 * prev_t, "STAGES %d: modelled %.0f ns, not below 0.9 x STAGES %d's %.0f ns",
                    stages[k], tv, stages[k - 1], prev_t);
      ck_assert_msg(sv < prev_stall, "STAGES %d: %.2f long-scoreboard stalls per issue, not fewer than %.2f",
                    stages[k], sv, prev_stall);
    }
    prev_t = tv;
    prev_stall = sv;
  }
}
END_TEST

/* ---- mbarrier: cuda::barrier, cuda::pipeline, transaction counts ---- */

/* mbarrier.cu's kernel `name` (in, out, ntiles) on one block of B threads over ntiles tiles of
   rand:SEED input: its output. */
static float *run_tiles(const char *name, unsigned B, unsigned ntiles, uint64_t seed)
{
  const unsigned n = B * ntiles;
  const char *pout = e2e_tmp(e2e_fmt("%s.bin", name));
  struct e2e_run *r = e2e_emu(e2e_kernel("mbarrier.cu"), "--kernel", name, "--grid", "1",
                              "--block", e2e_fmt("%u", B), A,
                              e2e_fmt("f32buf:%u:rand:%llu", n, (unsigned long long)seed), A,
                              e2e_fmt("f32buf:%u:zero", n), A, e2e_fmt("i32:%u", ntiles), "--dump",
                              e2e_fmt("1=%s", pout), "--json", NULL);
  e2e_expect_ok(r);
  return e2e_read(pout, n * 4);
}

/* cuda::memcpy_async completing on a reused cuda::barrier, one phase per tile (and one more
   per tile before the slot is reused): each thread reads another's copy after the barrier,
   with no __syncthreads(), which the race checker accepts only because the phase orders it. */
START_TEST(cuda_barrier_phases)
{
  const unsigned B = 128, T = 5;
  float *in = e2e_rand_f32(B * T, 51), *got = run_tiles("barrier_tiles", B, T, 51);
  for (unsigned t = 0; t < T; t++)
    for (unsigned i = 0; i < B; i++) {
      float want = in[t * B + (B - 1 - i)] + (float)t;
      ck_assert_msg(e2e_f32_bits(got[t * B + i]) == e2e_f32_bits(want),
                    "tile %u thread %u: got %a, expected %a", t, i, (double)got[t * B + i], (double)want);
    }
}
END_TEST

/* A two-stage cuda::pipeline: producer_acquire/commit, consumer_wait/release on mbarriers. */
START_TEST(cuda_pipeline_two_stages)
{
  const unsigned B = 128, T = 7;
  float *in = e2e_rand_f32(B * T, 52), *got = run_tiles("pipeline_tiles", B, T, 52);
  for (unsigned t = 0; t < T; t++)
    for (unsigned i = 0; i < B; i++) {
      float want = in[t * B + (B - 1 - i)] * 2.0f;
      ck_assert_msg(e2e_f32_bits(got[t * B + i]) == e2e_f32_bits(want),
                    "tile %u thread %u: got %a, expected %a", t, i, (double)got[t * B + i], (double)want);
    }
}
END_TEST

/* arrive.expect_tx, complete_tx, test_wait and try_wait.parity: a phase whose arrivals are all
   in stays open while bytes are pending, and completes with the last complete_tx. */
START_TEST(mbarrier_transaction_counts)
{
  const unsigned B = 128;
  float *in = e2e_rand_f32(B, 53);
  const char *pout = e2e_tmp("out.bin"), *pfirst = e2e_tmp("first.bin");
  struct e2e_run *r = e2e_emu(e2e_kernel("mbarrier.cu"), "--kernel", "transaction_counts", "--grid",
                              "1", "--block", e2e_fmt("%u", B), A, e2e_fmt("f32buf:%u:rand:53", B), A,
                              e2e_fmt("f32buf:%u:zero", B), A, e2e_fmt("i32buf:%u:fill=7", B),
                              "--dump", e2e_fmt("1=%s", pout), "--dump", e2e_fmt("2=%s", pfirst),
                              "--json", NULL);
  e2e_expect_ok(r);
  float *got = e2e_read(pout, B * 4);
  int32_t *first = e2e_read(pfirst, B * 4);
  for (unsigned i = 0; i < B; i++) {
    ck_assert_msg(first[i] == 0, "thread %u saw the phase complete with bytes pending", i);
    ck_assert_msg(e2e_f32_bits(got[i]) == e2e_f32_bits(in[B - 1 - i]), "thread %u: got %a, expected %a",
                  i, (double)got[i], (double)in[B - 1 - i]);
  }
}
END_TEST

/* An arrive on a barrier no thread initialised is stopped at its line. */
START_TEST(mbarrier_never_initialised)
{
  const char *k = e2e_kernel("mbarrier.cu");
  struct e2e_run *r = e2e_emu(k, "--kernel", "never_initialised", "--grid", "1", "--block", "64", A,
                              "f32buf:64:zero", "--json", NULL);
  e2e_expect_outcome(r, 1, "fault");
  ck_assert_int_eq(e2e_jint(r, "fault/source/line"), e2e_marker_line(k, "UNINIT-ARRIVE"));
  ck_assert_msg(strstr(e2e_jstr(r, "fault/message"), "not initialised") != NULL, "%s",
                e2e_jstr(r, "fault/message"));
}
END_TEST

/* A barrier that expects one arrival more than the block has: a deadlock, reported with the
   arrivals pending, not a run to the instruction budget. */
START_TEST(mbarrier_deadlock_is_reported)
{
  struct e2e_run *r = e2e_emu(e2e_kernel("mbarrier.cu"), "--kernel", "wrong_count", "--grid", "1",
                              "--block", "64", A, "f32buf:64:zero", "--json", NULL);
  e2e_expect_outcome(r, 1, "deadlock");
  const char *msg = e2e_jstr(r, "fault/message");
  ck_assert_msg(strstr(msg, "mbarrier") && strstr(msg, "1 of its 65 arrivals"), "%s", msg);
}
END_TEST

/* A bulk copy with a mode the emulator does not model (multicast to a cluster) is refused by
   name, with the construct and its line; the other kernels of mbarrier.cu run (the tests
   above). */
START_TEST(bulk_copy_refused_by_name)
{
  const char *k = e2e_kernel("mbarrier.cu");
  struct e2e_run *r = e2e_emu(k, "--kernel", "bulk_copy", "--grid", "1", "--block", "64", A,
                              "f32buf:256:zero", A, "f32buf:64:zero", NULL);
  e2e_expect_error(r, 2, "kernel 'bulk_copy'", "multicast", NULL);
  ck_assert_msg(e2e_mentions_line(r->err, "mbarrier.cu", e2e_marker_line(k, "BULK-HERE")),
                "the refusal does not name the bulk copy's line: %s", r->err);
}
END_TEST

/* ---- bulk copies: cp.async.bulk (kernels/bulk_copy.cu) ---- */

/* cuda::memcpy_async into shared memory on a reused cuda::barrier, one phase per tile:
   out[t*B + i] = in[t*B + B-1-i] + t. The copies are the copy engine's: no load instruction
   counts them, and the model reads their bytes from DRAM (the input is read once, cold, and
   the output written once: at least 2 * n * 4 bytes) and has the waits on the barrier wait
   for them. */
START_TEST(bulk_copy_tiles_on_a_barrier)
{
  const unsigned B = 128, T = 5, n = B * T;
  float *in = e2e_rand_f32(n, 61);
  const char *pout = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(e2e_kernel("bulk_copy.cu"), "--kernel", "bulk_tiles", "--grid", "1",
                              "--block", e2e_fmt("%u", B), A, e2e_fmt("f32buf:%u:rand:61", n), A,
                              e2e_fmt("f32buf:%u:zero", n), A, e2e_fmt("i32:%u", T), "--dump",
                              e2e_fmt("1=%s", pout), "--json", NULL);
  e2e_expect_ok(r);
  float *got = e2e_read(pout, n * 4);
  for (unsigned t = 0; t < T; t++)
    for (unsigned i = 0; i < B; i++) {
      float want = in[t * B + (B - 1 - i)] + (float)t;
      ck_assert_msg(e2e_f32_bits(got[t * B + i]) == e2e_f32_bits(want),
                    "tile %u thread %u: got %a, expected %a", t, i, (double)got[t * B + i], (double)want);
    }
  ck_assert_int_eq(e2e_jint(r, "metrics/l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum/value"), 0);
  json_t *dram = e2e_j(r->json, "metrics/dram__bytes.sum/value");
  ck_assert_msg(dram && json_number_value(dram) >= 2.0 * n * 4, "dram__bytes.sum %g, expected >= %u",
                dram ? json_number_value(dram) : -1.0, 2 * n * 4);
  /* the kernel has no load instruction: the model's waits for memory are the barrier waits
     for the copies' data */
  json_t *lsb = e2e_j(r->json, "metrics/smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio/value");
  ck_assert_msg(lsb && json_number_value(lsb) > 0.0, "the model does not wait for the bulk copies");
}
END_TEST

/* cuda::memcpy_async of a cooperative group (the block) with an aligned size, one bulk copy:
   out[b*B + i] = in[b*B + B-1-i]. */
START_TEST(bulk_copy_of_a_group)
{
  const unsigned B = 128, G = 3, n = B * G;
  float *in = e2e_rand_f32(n, 64);
  const char *pout = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(e2e_kernel("bulk_copy.cu"), "--kernel", "bulk_group_copy", "--grid",
                              e2e_fmt("%u", G), "--block", e2e_fmt("%u", B), A,
                              e2e_fmt("f32buf:%u:rand:64", n), A, e2e_fmt("f32buf:%u:zero", n),
                              "--dump", e2e_fmt("1=%s", pout), "--json", NULL);
  e2e_expect_ok(r);
  float *got = e2e_read(pout, n * 4);
  for (unsigned b = 0; b < G; b++)
    for (unsigned i = 0; i < B; i++)
      ck_assert_msg(e2e_f32_bits(got[b * B + i]) == e2e_f32_bits(in[b * B + B - 1 - i]),
                    "block %u thread %u: got %a, expected %a", b, i, (double)got[b * B + i],
                    (double)in[b * B + B - 1 - i]);
}
END_TEST

/* The cuda::ptx wrappers on a raw mbarrier (fence.mbarrier_init, arrive.expect_tx,
   try_wait.parity): out[b*B + i] = in[b*B + B-1-i]. */
START_TEST(bulk_copy_with_ptx_wrappers)
{
  const unsigned B = 64, G = 2, n = B * G;
  float *in = e2e_rand_f32(n, 65);
  const char *pout = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(e2e_kernel("bulk_copy.cu"), "--kernel", "bulk_ptx_wrappers", "--grid",
                              e2e_fmt("%u", G), "--block", e2e_fmt("%u", B), A,
                              e2e_fmt("f32buf:%u:rand:65", n), A, e2e_fmt("f32buf:%u:zero", n),
                              "--dump", e2e_fmt("1=%s", pout), "--json", NULL);
  e2e_expect_ok(r);
  float *got = e2e_read(pout, n * 4);
  for (unsigned b = 0; b < G; b++)
    for (unsigned i = 0; i < B; i++)
      ck_assert_msg(e2e_f32_bits(got[b * B + i]) == e2e_f32_bits(in[b * B + B - 1 - i]),
                    "block %u thread %u: got %a, expected %a", b, i, (double)got[b * B + i],
                    (double)in[b * B + B - 1 - i]);
}
END_TEST

/* memcpy_async_tx + barrier_arrive_tx into shared memory, then one bulk store per block with
   commit_group / wait_group.read: out[b*B + i] = 2 * in[b*B + i]. */
START_TEST(bulk_copy_roundtrip_with_bulk_store)
{
  const unsigned B = 128, G = 3, n = B * G;
  float *in = e2e_rand_f32(n, 62);
  const char *pout = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(e2e_kernel("bulk_copy.cu"), "--kernel", "bulk_roundtrip", "--grid",
                              e2e_fmt("%u", G), "--block", e2e_fmt("%u", B), A,
                              e2e_fmt("f32buf:%u:rand:62", n), A, e2e_fmt("f32buf:%u:zero", n),
                              "--dump", e2e_fmt("1=%s", pout), "--json", NULL);
  e2e_expect_ok(r);
  float *got = e2e_read(pout, n * 4);
  for (unsigned i = 0; i < n; i++) {
    float want = in[i] * 2.0f;
    ck_assert_msg(e2e_f32_bits(got[i]) == e2e_f32_bits(want), "element %u: got %a, expected %a", i,
                  (double)got[i], (double)want);
  }
  /* the only global stores are the bulk ones, which no store instruction counts */
  ck_assert_int_eq(e2e_jint(r, "metrics/l1tex__t_requests_pipe_lsu_mem_global_op_st.sum/value"), 0);
}
END_TEST

/* cp.reduce.async.bulk .add.f32 from every block into one tile, after a bulk prefetch:
   out[i] = 1 + sum over b of in[b*B + i], with iota input (exact in any order). */
START_TEST(bulk_reduce_adds_every_block)
{
  const unsigned B = 64, G = 4;
  const char *pout = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(e2e_kernel("bulk_copy.cu"), "--kernel", "bulk_reduce_add", "--grid",
                              e2e_fmt("%u", G), "--block", e2e_fmt("%u", B), A,
                              e2e_fmt("f32buf:%u:iota", B * G), A, e2e_fmt("f32buf:%u:fill=1", B),
                              "--dump", e2e_fmt("1=%s", pout), "--json", NULL);
  e2e_expect_ok(r);
  float *got = e2e_read(pout, B * 4);
  for (unsigned i = 0; i < B; i++) {
    float want = 1.0f;
    for (unsigned b = 0; b < G; b++)
      want += (float)(b * B + i);
    ck_assert_msg(e2e_f32_bits(got[i]) == e2e_f32_bits(want), "element %u: got %a, expected %a", i,
                  (double)got[i], (double)want);
  }
}
END_TEST

/* The copy's bytes land when a thread first waits on its mbarrier: thread 0's read between
   the copy and the wait sees the zero it stored (early[0] = 0), the reads after the wait the
   copy (out = in). */
START_TEST(bulk_copy_lands_at_the_wait)
{
  const unsigned B = 128;
  float *in = e2e_rand_f32(B, 63);
  const char *pout = e2e_tmp("out.bin"), *pearly = e2e_tmp("early.bin");
  struct e2e_run *r = e2e_emu(e2e_kernel("bulk_copy.cu"), "--kernel", "bulk_lands_at_the_wait",
                              "--grid", "1", "--block", e2e_fmt("%u", B), A,
                              e2e_fmt("f32buf:%u:rand:63", B), A, e2e_fmt("f32buf:%u:zero", B), A,
                              "f32buf:1:fill=5", "--dump", e2e_fmt("1=%s", pout), "--dump",
                              e2e_fmt("2=%s", pearly), "--json", NULL);
  e2e_expect_ok(r);
  float *got = e2e_read(pout, B * 4), *early = e2e_read(pearly, 4);
  ck_assert_msg(e2e_f32_bits(early[0]) == 0, "the read before the wait saw %a", (double)early[0]);
  for (unsigned i = 0; i < B; i++)
    ck_assert_msg(e2e_f32_bits(got[i]) == e2e_f32_bits(in[i]), "element %u: got %a, expected %a", i,
                  (double)got[i], (double)in[i]);
}
END_TEST

/* A bulk copy of 20 bytes (not a multiple of 16) is a fault at its line. */
START_TEST(bulk_copy_bad_size_is_a_fault)
{
  const char *k = e2e_kernel("bulk_copy.cu");
  struct e2e_run *r = e2e_emu(k, "--kernel", "bulk_bad_size", "--grid", "1", "--block", "32", A,
                              "f32buf:64:zero", A, "f32buf:32:zero", "--json", NULL);
  e2e_expect_outcome(r, 1, "fault");
  ck_assert_int_eq(e2e_jint(r, "fault/source/line"), e2e_marker_line(k, "BAD-SIZE"));
  ck_assert_msg(strstr(e2e_jstr(r, "fault/message"), "multiple of 16"), "%s", e2e_jstr(r, "fault/message"));
}
END_TEST

/* ---- tensor copies (TMA): kernels/tma.cu ---- */

/* tma.cu's kernel `kernel` on a W x H tensor of es-byte elements (row pitch P elements) given
   as --arg tmap:...:TYPEbuf:..., boxes of 32 x 16, a grid that covers it with boxes reaching
   past both edges: out = in + 1 (in the element's integer or float sense, add1) wherever the
   tensor is; in the pitch's padding, 1 (the box's zero + 1) up to the end of the 16-byte
   granule holding the row's last element, which the tensor store writes whole as the H100
   does (tests/gpu/results/tma_granule_h100.txt), and 0 past it (never written);
   tiles[block] = each box as it landed, zeros past the tensor's edges. The input is the
   buffer warplab made (dumped). */
static void check_tma(const char *kernel, const char *type, unsigned es, unsigned W, unsigned H,
                      unsigned P, uint64_t (*add1)(uint64_t))
{
  const unsigned BW = 32, BH = 16, GX = (W + BW - 1) / BW, GY = (H + BH - 1) / BH, n = P * H;
  const char *pin = e2e_tmp("in.bin"), *pout = e2e_tmp("out.bin"), *ptiles = e2e_tmp("tiles.bin");
  const char *map = e2e_fmt("%ux%u:%u:%ux%u", W, H, P * es, BW, BH);
  struct e2e_run *r = e2e_emu(e2e_kernel("tma.cu"), "--kernel", kernel, "--grid",
                              e2e_fmt("%u,%u", GX, GY), "--block", "128", A,
                              e2e_fmt("tmap:%s:%sbuf:%u:rand:71", map, type, n), A,
                              e2e_fmt("tmap:%s:%sbuf:%u:zero", map, type, n), A,
                              e2e_fmt("u32buf:%u:fill=7", GX * GY * BW * BH * es / 4), "--dump",
                              e2e_fmt("0=%s", pin), "--dump", e2e_fmt("1=%s", pout), "--dump",
                              e2e_fmt("2=%s", ptiles), "--json", NULL);
  e2e_expect_ok(r);
  const uint8_t *in = e2e_read(pin, (size_t)n * es), *out = e2e_read(pout, (size_t)n * es),
                *tiles = e2e_read(ptiles, (size_t)GX * GY * BW * BH * es);
  const unsigned granule = (W * es + 15) / 16 * 16 / es;   /* the elements a row's store writes */
  ck_assert_uint_lt(W, granule);                  /* (the cases have padding written) */
  for (unsigned y = 0; y < H; y++)
    for (unsigned x = 0; x < P; x++) {
      uint64_t a = 0, got = 0;
      memcpy(&a, in + ((size_t)y * P + x) * es, es);
      memcpy(&got, out + ((size_t)y * P + x) * es, es);
      uint64_t want = x < W ? add1(a) : x < granule ? add1(0) : 0;
      ck_assert_msg(got == want, "%s: out(%u, %u) = %#llx, expected %#llx", kernel, x, y,
                    (unsigned long long)got, (unsigned long long)want);
    }
  for (unsigned b = 0; b < GX * GY; b++)
    for (unsigned k = 0; k < BW * BH; k++) {
      unsigned x = (b % GX) * BW + k % BW, y = (b / GX) * BH + k / BW;
      uint64_t got = 0, want = 0;
      memcpy(&got, tiles + ((size_t)b * BW * BH + k) * es, es);
      if (x < W && y < H)
        memcpy(&want, in + ((size_t)y * P + x) * es, es);
      ck_assert_msg(got == want, "%s: box %u element %u (%u, %u) = %#llx, expected %#llx", kernel, b,
                    k, x, y, (unsigned long long)got, (unsigned long long)want);
    }
  /* the box loads and stores are the copy engine's: the only global stores counted are the
     tiles' (a word per thread, in rounds of the block's 4 warps) */
  ck_assert_int_eq(e2e_jint(r, "metrics/l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum/value"), 0);
  ck_assert_int_eq(e2e_jint(r, "metrics/l1tex__t_requests_pipe_lsu_mem_global_op_st.sum/value"),
                   GX * GY * ((BW * BH * es / 4 + 127) / 128 * 4));
}

static uint64_t add1_f32(uint64_t bits)
{
  float f;
  uint32_t u = (uint32_t)bits;
  memcpy(&f, &u, 4);
  f += 1.0f;
  memcpy(&u, &f, 4);
  return u;
}
static uint64_t add1_u16(uint64_t bits) { return (bits + 1) & 0xffff; }
static uint64_t add1_u8(uint64_t bits) { return (bits + 1) & 0xff; }

/* A 50 x 37 f32 tensor with rows 52 elements apart (208 bytes: a multiple of 16). */
START_TEST(tma_f32_tiles_with_edges)
{
  check_tma("tma_f32", "f32", 4, 50, 37, 52, add1_f32);
}
END_TEST

/* A tensor store's last granule past the end of its allocation: a one-row 50-float tensor in
   a 50-float buffer. The two elements the granule adds are outside every allocation, so they
   are not written (the GPU's allocations are padded; the emulator's are exact), and the store
   is no fault: every element of the tensor is in + 1. */
START_TEST(tma_granule_stays_inside_its_allocation)
{
  const char *pin = e2e_tmp("in.bin"), *pout = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(e2e_kernel("tma.cu"), "--kernel", "tma_f32", "--grid", "2,1",
                              "--block", "128", A, "tmap:50x1:208:32x16:f32buf:50:rand:71", A,
                              "tmap:50x1:208:32x16:f32buf:50:zero", A, "u32buf:1024:zero",
                              "--dump", e2e_fmt("0=%s", pin), "--dump", e2e_fmt("1=%s", pout),
                              "--json", NULL);
  e2e_expect_ok(r);
  const uint8_t *in = e2e_read(pin, 200), *out = e2e_read(pout, 200);
  for (unsigned x = 0; x < 50; x++) {
    uint32_t a, got;
    memcpy(&a, in + 4 * x, 4);
    memcpy(&got, out + 4 * x, 4);
    ck_assert_msg(got == add1_f32(a), "out(%u) = %#x, expected %#llx", x, got,
                  (unsigned long long)add1_f32(a));
  }
}
END_TEST

/* f16 (moved as bits) 70 x 20, rows 72 apart; u8 45 x 33, rows 64 apart. */
START_TEST(tma_f16_and_u8_tiles)
{
  check_tma("tma_f16", "f16", 2, 70, 20, 72, add1_u16);
  check_tma("tma_u8", "u8", 1, 45, 33, 64, add1_u8);
}
END_TEST

/* Tensor maps the encoder refuses, by what is wrong, before anything runs: a box whose rows are
   not a multiple of 16 bytes, a stride not a multiple of 16, a tensor larger than its buffer. */
START_TEST(tma_bad_maps_are_refused)
{
  static const struct { const char *map, *needle; } bad[] = {
    {"tmap:64x32:-:3x16:f32buf:2048:zero", "multiple of 16 bytes"},
    {"tmap:50x32:200:32x16:f32buf:2048:zero", "multiple of 16"},
    {"tmap:64x64:-:32x16:f32buf:2048:zero", "more than its buffer"},
    {"tmap:64x32:-:32:f32buf:2048:zero", "as many as each other"},
  };
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    struct e2e_run *r = e2e_emu(e2e_kernel("tma.cu"), "--kernel", "tma_f32", "--grid", "1", "--block",
                                "32", A, bad[k].map, A, "tmap:64x32:-:32x16:f32buf:2048:zero", A,
                                "f32buf:512:zero", NULL);
    e2e_expect_error(r, 2, bad[k].needle, NULL);
  }
}
END_TEST

/* A 3-D box (8 x 4 x 2) of a packed 12 x 5 x 3 f32 tensor (iota: element (x, y, z) is
   z * 60 + y * 12 + x) at (8 bx - 4, -1, 1): past the tensor on the low x, low y and high x
   and z sides, which read as zeros. */
START_TEST(tma_3d_box_with_negative_coordinates)
{
  const char *pbox = e2e_tmp("box.bin");
  struct e2e_run *r = e2e_emu(e2e_kernel("tma.cu"), "--kernel", "tma_box3d", "--grid", "2", "--block",
                              "64", A, "tmap:12x5x3:-:8x4x2:f32buf:180:iota", A, "f32buf:128:fill=-1",
                              "--dump", e2e_fmt("1=%s", pbox), "--json", NULL);
  e2e_expect_ok(r);
  float *got = e2e_read(pbox, 128 * 4);
  for (int b = 0; b < 2; b++)
    for (int k = 0; k < 64; k++) {
      int x = b * 8 - 4 + k % 8, y = -1 + (k / 8) % 4, z = 1 + k / 32;
      float want = x >= 0 && x < 12 && y >= 0 && y < 5 && z < 3 ? (float)(z * 60 + y * 12 + x) : 0.0f;
      ck_assert_msg(e2e_f32_bits(got[b * 64 + k]) == e2e_f32_bits(want), "box %d element %d (%d, %d, %d): "
                    "got %g, expected %g", b, k, x, y, z, (double)got[b * 64 + k], (double)want);
    }
}
END_TEST

/* A box whose innermost start is not on a 16-byte boundary (x = -3, 1, 2 floats) faults,
   as the H100 stops it; -8, -4 and 4 run (tests/gpu/results/tma_granule_h100.txt). */
START_TEST(tma_box_start_off_16_bytes_is_a_fault)
{
  static const struct { int x0, ok; } at[] = {{-3, 0}, {1, 0}, {2, 0}, {-8, 1}, {-4, 1}, {4, 1}};
  for (size_t k = 0; k < sizeof at / sizeof at[0]; k++) {
    struct e2e_run *r = e2e_emu(e2e_kernel("tma.cu"), "--kernel", "tma_box3d_at", "--grid", "2",
                                "--block", "64", A, "tmap:12x5x3:-:8x4x2:f32buf:180:iota", A,
                                "f32buf:128:zero", A, e2e_fmt("i32:%d", at[k].x0), A, "i32:0", A,
                                "i32:0", "--json", NULL);
    if (at[k].ok) {
      e2e_expect_ok(r);
      continue;
    }
    e2e_expect_outcome(r, 1, "fault");
    const char *msg = e2e_jstr(r, "fault/message");
    ck_assert_msg(strstr(msg, e2e_fmt("element %d of the innermost", at[k].x0)) &&
                  strstr(msg, "16 bytes") && strstr(msg, "illegal instruction"), "%s", msg);
  }
}
END_TEST

/* A map whose box (8 x 4 x 3 f32: 384 bytes) is larger than the block's shared memory faults
   at the copy. */
START_TEST(tma_box_larger_than_shared_memory_is_a_fault)
{
  struct e2e_run *r = e2e_emu(e2e_kernel("tma.cu"), "--kernel", "tma_box3d", "--grid", "1", "--block",
                              "64", A, "tmap:12x5x3:-:8x4x3:f32buf:180:iota", A, "f32buf:128:zero",
                              "--json", NULL);
  e2e_expect_outcome(r, 1, "fault");
  const char *msg = e2e_jstr(r, "fault/message");
  ck_assert_msg(strstr(msg, "384 bytes") && strstr(msg, "shared memory"), "%s", msg);
}
END_TEST

/* A tensor copy given 128 bytes that are not a tensor map (a struct's bytes) faults at the
   copy, saying how to give one. */
START_TEST(tma_without_a_tensor_map_is_a_fault)
{
  char hex[2 * 128 + 7] = "bytes:";
  memset(hex + 6, '0', 256);
  hex[sizeof hex - 1] = 0;
  struct e2e_run *r = e2e_emu(e2e_kernel("tma.cu"), "--kernel", "tma_f32", "--grid", "1", "--block",
                              "32", A, hex, A, "tmap:64x32:-:32x16:f32buf:2048:zero", A,
                              "f32buf:512:zero", "--json", NULL);
  e2e_expect_outcome(r, 1, "fault");
  const char *msg = e2e_jstr(r, "fault/message");
  ck_assert_msg(strstr(msg, "not a tensor map") && strstr(msg, "tmap:DIMS:STRIDES:BOX:TYPEbuf"), "%s", msg);
}
END_TEST

void e2e_add_async_tests(Suite *s)
{
  if (!e2e_have_nvcc()) {
    printf("e2e: nvcc not found: SKIPPING the asynchronous copy tests\n");
    return;
  }
  TCase *tc = tcase_create("async");
  tcase_add_checked_fixture(tc, e2e_setup, e2e_teardown);
  tcase_set_timeout(tc, ASYNC_TIMEOUT_S);
  tcase_add_test(tc, pipeline_stages_double_buffered);
  tcase_add_test(tc, cooperative_groups_memcpy_async);
  tcase_add_test(tc, short_source_is_zero_filled);
  tcase_add_test(tc, ignore_source_predicate_writes_zeros);
  tcase_add_test(tc, destination_changes_at_the_wait);
  tcase_add_test(tc, read_while_the_copy_is_in_flight_is_a_race);
  tcase_add_test(tc, missing_barrier_after_the_wait_is_a_race);
  tcase_add_test(tc, cuda_barrier_phases);
  tcase_add_test(tc, cuda_pipeline_two_stages);
  tcase_add_test(tc, mbarrier_transaction_counts);
  tcase_add_test(tc, mbarrier_never_initialised);
  tcase_add_test(tc, mbarrier_deadlock_is_reported);
  tcase_add_test(tc, bulk_copy_refused_by_name);
  tcase_add_test(tc, bulk_copy_tiles_on_a_barrier);
  tcase_add_test(tc, bulk_copy_of_a_group);
  tcase_add_test(tc, bulk_copy_with_ptx_wrappers);
  tcase_add_test(tc, bulk_copy_roundtrip_with_bulk_store);
  tcase_add_test(tc, bulk_reduce_adds_every_block);
  tcase_add_test(tc, bulk_copy_lands_at_the_wait);
  tcase_add_test(tc, bulk_copy_bad_size_is_a_fault);
  tcase_add_test(tc, tma_f32_tiles_with_edges);
  tcase_add_test(tc, tma_f16_and_u8_tiles);
  tcase_add_test(tc, tma_granule_stays_inside_its_allocation);
  tcase_add_test(tc, tma_box_start_off_16_bytes_is_a_fault);
  tcase_add_test(tc, tma_3d_box_with_negative_coordinates);
  tcase_add_test(tc, tma_bad_maps_are_refused);
  tcase_add_test(tc, tma_box_larger_than_shared_memory_is_a_fault);
  tcase_add_test(tc, tma_without_a_tensor_map_is_a_fault);
  tcase_add_test(tc, lab03_async_triad_is_right_at_every_stages);
  tcase_add_test(tc, lab03_async_triad_stages_hide_latency_in_the_model);
  suite_add_tcase(s, tc);
}
