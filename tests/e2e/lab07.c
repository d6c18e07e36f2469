/* lab07.c: end-to-end tests of lab 07 (warp reduction) through `warplab run` and
 * `warplab grade`, on the emulator:
 *   - the reference solution passes every test, the wave64 ones too, and every version of its
 *     sweep counts what first principles give: n/32 load requests (each element read once,
 *     32 lanes of 4 bytes a request), the shared-memory bank conflicts of the strided index
 *     (version 2) and none elsewhere, the block barriers each version's tree takes, one
 *     atomic per block in version 7, the divergent branches of the ifs; the bandwidth is the
 *     DRAM bytes over the time; the rubric's answers are those counts;
 *   - on the wave64 profile every warp is 64 lanes: a block of 256 threads takes 4 barriers
 *     where it takes 8 on the default profile;
 *   - the starter fails every version but the one it gives;
 *   - a warp sum written for 32 lanes (offsets 16..1) passes on the default profile and fails
 *     the wave64 tests of versions 6 and 7 at out[0] with exactly the half-wave sum; one with
 *     32 written everywhere deadlocks there (a full mask is the whole wave);
 *   - a test naming a profile that does not exist is refused when the lab loads;
 *   - the reference solution with its answers gets every point;
 *   - the sweep's repeat of the main configuration (version 7) is launched again when the
 *     kernel changed the device's state (a __device__ launch counter), not taken from the
 *     main configuration's launch.
 * Sizes: the sweep runs at n = 2^20 (--size), a quarter of the lab's emulator size: the counts
 * per block do not depend on n. */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

#define LAB07_TIMEOUT_S 300
#define LAB07_N 1048576        /* the sweep's size (--size n=...) */
#define LAB07_CHECKS 16        /* lab.json: fifteen tests and the main size */
#define LAB07_BLOCK 256
#define LAB07_GRID7 1056       /* version 7's grid cap (lab.json) */
#define LAB07_SEED "7"

static const char *const REQ = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
static const char *const CONF_LD = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
static const char *const CONF_ST = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
static const char *const WAVES_LD = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
static const char *const BAR = "warplab__inst_executed_op_barrier.sum";
static const char *const RED = "smsp__sass_inst_executed_op_global_red.sum";
static const char *const DIV = "smsp__sass_branch_targets_threads_divergent.sum";
static const char *const TIME = "gpu__time_duration.sum";
static const char *const DRAM = "dram__bytes.sum";
static const char *const BW = "dram__bytes.sum.per_second";
static const char *const BW_PCT = "dram__throughput.avg.pct_of_peak_sustained_elapsed";

/* The blocks version v launches for n elements (lab.json's grid). */
static long blocks_of(long v, long n)
{
  if (v == 7)
    return (n + 511) / 512 < LAB07_GRID7 ? (n + 511) / 512 : LAB07_GRID7;
  return v >= 4 ? (n + 511) / 512 : (n + 255) / 256;
}

/* Version 2's shared-memory accesses in one block of 256 threads and 32-lane warps, from
   first principles: in step st thread tid works when index = 2 st tid < 256, loads
   s[index] and s[index + st] and stores s[index]. A warp's access takes as many wavefronts as
   the most distinct words any one of the 32 banks holds among its lanes' addresses; a
   conflict is each wavefront past the first. The final read of s[0] by every thread is one
   wavefront a warp (a broadcast). */
static void strided_conflicts(long *ld_conf, long *st_conf, long *ld_waves)
{
  *ld_conf = *st_conf = *ld_waves = 0;
  for (long st = 1; st < LAB07_BLOCK; st *= 2)
    for (long w = 0; w < LAB07_BLOCK / 32; w++)
      for (int access = 0; access < 3; access++) {   /* s[index], s[index + st], the store */
        int words[32][32], nw[32] = {0}, any = 0;
        for (long tid = 32 * w; tid < 32 * w + 32; tid++) {
          long index = 2 * st * tid;
          if (index >= LAB07_BLOCK)
            continue;
          long word = index + (access == 1 ? st : 0);
          int b = (int)(word % 32), seen = 0;
          for (int k = 0; k < nw[b]; k++)
            seen |= words[b][k] == word;
          if (!seen)
            words[b][nw[b]++] = (int)word;
          any = 1;
        }
        if (!any)
          continue;
        int most = 0;
        for (int b = 0; b < 32; b++)
          most = nw[b] > most ? nw[b] : most;
        if (access == 2) {
          *st_conf += most - 1;
        } else {
          *ld_conf += most - 1;
          *ld_waves += most;
        }
      }
  *ld_waves += LAB07_BLOCK / 32;
}

/* Divergent branches of one block of 256 threads in 32-lane warps, one per if whose lanes
   split: version 1's tid % (2 st) == 0 splits every warp while 2 st <= 32 and then the warps
   holding a multiple of 2 st; versions 2 and 3 split one warp in each step with fewer than 32
   working threads (the five steps from 16 threads down); and every version splits warp 0 at
   `if (threadIdx.x != 0) return`. */
static long divergent_per_block(long v)
{
  long d = 1;
  if (v == 1)
    for (long st = 1; st < LAB07_BLOCK; st *= 2)
      d += 2 * st <= 32 ? LAB07_BLOCK / 32 : LAB07_BLOCK / (2 * st);
  else
    d += 5;
  return d;
}

/* The value of metric NAME at point P, which must have kind KIND. */
static double value(json_t *p, const char *name, const char *kind)
{
  json_t *v = e2e_j(p, e2e_fmt("metrics/%s/value", name));
  const char *label = json_string_value(json_object_get(p, "label"));
  ck_assert_msg(json_is_number(v), "point %s has no %s", label, name);
  json_t *k = e2e_j(p, e2e_fmt("metrics/%s/kind", name));
  ck_assert_msg(json_is_string(k) && !strcmp(json_string_value(k), kind), "point %s: %s is %s, "
                "expected %s", label, name, json_is_string(k) ? json_string_value(k) : "?", kind);
  return json_number_value(v);
}

static json_t *point(const struct e2e_run *r, const char *label)
{
  size_t i;
  json_t *p;
  json_array_foreach(e2e_j(r->json, "points"), i, p) {
    const char *s = json_string_value(json_object_get(p, "sweep"));
    const char *l = json_string_value(json_object_get(p, "label"));
    if (s && l && !strcmp(s, "version") && !strcmp(l, label))
      return p;
  }
  ck_abort_msg("%s: no point %s of the version sweep", r->cmd, label);
  return NULL;
}

static json_t *test_at(const struct e2e_run *r, const char *label)
{
  size_t i;
  json_t *t;
  json_array_foreach(e2e_j(r->json, "tests"), i, t) {
    const char *l = json_string_value(json_object_get(t, "label"));
    if (l && !strcmp(l, label))
      return t;
  }
  ck_abort_msg("%s: no test labelled '%s'\n%.2000s", r->cmd, label, r->out);
  return NULL;
}

/* warplab run 07 on the emulator with the seed LAB07_SEED: the reference solution (kernel_file
   NULL) with its sweep at n = LAB07_N, or another kernel file with --quick; extra (may be NULL)
   is one more option and its value. */
static struct e2e_run *run07(const char *kernel_file, const char *extra, const char *extra_value)
{
  const char *res = e2e_tmp("results");
  if (!kernel_file)
    return e2e_warplab("run", "07", "--solution", "--backend", "emu", "--json", "--results", res,
                       "--seed", LAB07_SEED, "--size", e2e_fmt("n=%d", LAB07_N), extra,
                       extra_value, (char *)NULL);
  return e2e_warplab("run", "07", "--kernel-file", kernel_file, "--backend", "emu", "--json",
                     "--results", res, "--seed", LAB07_SEED, "--quick", extra, extra_value,
                     (char *)NULL);
}

static void expect_answer(json_t *lab, const char *id, double measured)
{
  double want = e2e_rubric_answer(lab, id);
  ck_assert_msg(fabs(want - measured) < 0.05, "%s: the rubric's answer is %g, the emulator "
                "measures %g", id, want, measured);
}

START_TEST(lab07_solution_counts_from_first_principles)
{
  /* the rules on the PTX, as the rubric's answers count them: ptxas merges version 2's first
     two loads into an LDS.64, which the counts from SASS follow where nvdisasm is installed */
  setenv("WARPLAB_SASS", "off", 1);
  struct e2e_run *r = run07(NULL, NULL, NULL);
  ck_assert_msg(r->status == 0, "%s exited %d\n%.3000s\n%.2000s", r->cmd, r->status, r->out, r->err);
  ck_assert(json_is_true(e2e_j(r->json, "all_passed")));
  ck_assert_int_eq(json_array_size(e2e_j(r->json, "tests")), LAB07_CHECKS);
  ck_assert_str_eq(e2e_state_of(test_at(r, "n=1000003 VERSION=7 arch=wave64")), "pass");
  ck_assert_int_eq(json_array_size(e2e_j(r->json, "points")), 8);
  long ld_conf, st_conf, ld_waves;
  strided_conflicts(&ld_conf, &st_conf, &ld_waves);
  for (long v = 1; v <= 7; v++) {
    json_t *p = point(r, e2e_fmt("%ld", v));
    ck_assert_msg(json_is_true(json_object_get(p, "correct")), "version %ld is wrong", v);
    long blocks = blocks_of(v, LAB07_N), warps = blocks * (LAB07_BLOCK / 32);
    ck_assert_msg(value(p, REQ, "exact") == LAB07_N / 32, "version %ld: %g load requests, "
                  "expected %d", v, value(p, REQ, "exact"), LAB07_N / 32);
    ck_assert_msg(value(p, CONF_LD, "exact") == (v == 2 ? ld_conf * blocks : 0) &&
                  value(p, CONF_ST, "exact") == (v == 2 ? st_conf * blocks : 0),
                  "version %ld: %g and %g bank conflicts per block, expected %ld and %ld", v,
                  value(p, CONF_LD, "exact") / (double)blocks, value(p, CONF_ST, "exact") / (double)blocks,
                  v == 2 ? ld_conf : 0, v == 2 ? st_conf : 0);
    if (v == 2)
      ck_assert_msg(value(p, WAVES_LD, "exact") == ld_waves * blocks, "version 2: %g load "
                    "wavefronts per block, expected %ld", value(p, WAVES_LD, "exact") / (double)blocks,
                    ld_waves);
    /* barriers per warp: after the load, then one per tree step (8 steps from 256, 2 steps
       from 256 down to 64 for version 5), one for the warps' sums (6, 7) */
    long bars = v <= 4 ? 9 : v == 5 ? 3 : 1;
    ck_assert_msg(value(p, BAR, "ptx-level") == bars * warps, "version %ld: %g barriers per "
                  "warp, expected %ld", v, value(p, BAR, "ptx-level") / (double)warps, bars);
    ck_assert_msg(value(p, RED, "exact") == (v == 7 ? blocks : 0), "version %ld: %g atomics",
                  v, value(p, RED, "exact"));
    if (v <= 3)
      ck_assert_msg(value(p, DIV, "ptx-level") == divergent_per_block(v) * blocks, "version %ld: "
                    "%g divergent branches per block, expected %ld", v,
                    value(p, DIV, "ptx-level") / (double)blocks, divergent_per_block(v));
    /* the bandwidth is the DRAM bytes over the time, against the H200's 4800 GB/s */
    double bw = value(p, BW, "modelled");
    double want = value(p, DRAM, "modelled") / (value(p, TIME, "modelled") * 1e-9);
    ck_assert_msg(fabs(bw - want) <= 1e-9 * want, "version %ld: %g B/s, expected %g", v, bw, want);
    ck_assert_msg(fabs(value(p, BW_PCT, "modelled") - 100.0 * bw / 4800e9) < 1e-9, "version %ld", v);
  }
  json_t *lab = e2e_load_json("labs/07-reduction/lab.json");
  long b2 = blocks_of(2, LAB07_N), b4 = blocks_of(4, LAB07_N);
  expect_answer(lab, "q1", value(point(r, "1"), DIV, "ptx-level") / (double)blocks_of(1, LAB07_N));
  expect_answer(lab, "q2", (value(point(r, "2"), CONF_LD, "exact") +
                            value(point(r, "2"), CONF_ST, "exact")) / (double)b2);
  expect_answer(lab, "q4", value(point(r, "4"), BAR, "ptx-level") / (double)b4);
  expect_answer(lab, "q5", value(point(r, "5"), BAR, "ptx-level") / (double)b4);
  expect_answer(lab, "q6", value(point(r, "7"), RED, "exact") * (LAB07_N / 512 > LAB07_GRID7));
  json_decref(lab);
}
END_TEST

/* The whole run on the wave64 profile: 64-lane warps, so a block of 256 threads is 4 warps,
   and versions 6 and 7 take one barrier per warp: 4 a block. */
START_TEST(lab07_wave64_profile)
{
  struct e2e_run *r = e2e_warplab("run", "07", "--solution", "--backend", "emu", "--json",
                                  "--results", e2e_tmp("results"), "--quick", "--arch", "wave64",
                                  (char *)NULL);
  ck_assert_msg(r->status == 0, "%s exited %d\n%.3000s\n%.2000s", r->cmd, r->status, r->out, r->err);
  json_t *p = e2e_j(r->json, "points/0");
  ck_assert_int_eq(json_integer_value(e2e_j(p, "choices/VERSION")), 7);
  ck_assert_msg(value(p, BAR, "ptx-level") == 4.0 * LAB07_GRID7, "%g barriers",
                value(p, BAR, "ptx-level"));
  ck_assert_msg(value(p, RED, "exact") == LAB07_GRID7, "%g atomics", value(p, RED, "exact"));
}
END_TEST

START_TEST(lab07_starter_fails)
{
  struct e2e_run *r = run07("labs/07-reduction/reduce.cu", NULL, NULL);
  ck_assert_int_eq(r->status, 1);
  ck_assert_str_eq(e2e_state_of(test_at(r, "n=1000 VERSION=1")), "pass");
  json_t *t = test_at(r, "n=4097 VERSION=3");
  ck_assert_str_eq(e2e_state_of(t), "fail");
  ck_assert_int_eq(json_integer_value(json_object_get(t, "first_bad")), 0);
  ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(t, "detail")), ", got 0"));
  size_t i, failed = 0;
  json_array_foreach(e2e_j(r->json, "tests"), i, t)
    failed += strcmp(e2e_state_of(t), "pass") != 0;
  ck_assert_int_eq(failed, 13);          /* all but version 1's two tests and the main size */
  /* the main size (version 1, the starter's default) is right, so its configuration is
     measured, as the rubric scores it, though other versions' tests fail (--quick: no sweep) */
  ck_assert_int_eq(json_array_size(e2e_j(r->json, "points")), 1);
  ck_assert_str_eq(json_string_value(e2e_j(r->json, "points/0/sweep")), "");
}
END_TEST

/* warp_sum with offsets 16..1: right on 32-lane warps; on 64-lane waves lane 0 holds the sum
   of lanes 0-31, so every block of version 6 sums the elements whose place in the block, mod
   256, falls in the first half of a 64-lane wave (each thread adds elements tid and tid + 256
   of its block's 512). out[0] is block 0's sum: the test recomputes both from the inputs (test
   14 of lab.json, seed LAB07_SEED + 13, parameter 0). */
START_TEST(lab07_hard32_fails_on_wave64)
{
  const char *k = "tests/e2e/lab07/hard32.cu";
  struct e2e_run *r = run07(k, NULL, NULL);
  ck_assert_int_eq(r->status, 1);
  size_t i, failed = 0;
  json_t *t;
  json_array_foreach(e2e_j(r->json, "tests"), i, t) {
    const char *label = json_string_value(json_object_get(t, "label"));
    int want_fail = strstr(label, "arch=wave64") && !strstr(label, "VERSION=5");
    ck_assert_msg(!strcmp(e2e_state_of(t), want_fail ? "fail" : "pass"), "%s: %s", label, e2e_state_of(t));
    failed += want_fail;
  }
  ck_assert_int_eq(failed, 2);
  t = test_at(r, "n=100003 VERSION=6 arch=wave64");
  ck_assert_int_eq(json_integer_value(json_object_get(t, "first_bad")), 0);
  const uint32_t *in = e2e_rand_u32(100003, (uint64_t)(strtoull(LAB07_SEED, NULL, 10) + 13) * 1000003u);
  uint32_t whole = 0, half = 0;
  for (int e = 0; e < 512; e++) {
    whole += in[e];
    half += (e % 256) % 64 < 32 ? in[e] : 0;
  }
  const char *detail = json_string_value(json_object_get(t, "detail"));
  ck_assert_msg(strstr(detail, e2e_fmt("out[0] is wrong: expected %u, got %u", whole, half)),
                "%s (expected the whole block %u, the half waves %u)", detail, whole, half);
  ck_assert_str_eq(e2e_state_of(test_at(r, "n=1000003 VERSION=7 arch=wave64")), "fail");
}
END_TEST

/* 32 written for the warp's width everywhere: the branches `warp == 0` (tid / 32) and
   `tid < 32` hold half a wave, whose full-mask __syncwarp and shuffles wait for the other
   half: a deadlock, reported with the line where lanes 0-31 wait: the __syncwarp inside the
   inlined device function (the innermost line, as Nsight Compute's source view puts it),
   inlined into the kernel's call of version 5; lanes 32-63 wait to reconverge at the end of
   the `if (tid < w)` that split them, named by the if's line (the reconvergence point's own
   first instruction carries a line of another inlined function). */
START_TEST(lab07_all32_deadlocks_on_wave64)
{
  const char *k = "tests/e2e/lab07/all32.cu";
  struct e2e_run *r = run07(k, NULL, NULL);
  ck_assert_int_eq(r->status, 1);
  ck_assert_str_eq(e2e_state_of(test_at(r, "n=100003 VERSION=6")), "pass");
  json_t *t = test_at(r, "n=4097 VERSION=5 arch=wave64");
  ck_assert_str_eq(e2e_state_of(t), "fault");
  const char *detail = json_string_value(json_object_get(t, "detail"));
  int sync = e2e_marker_line(k, "WARP-SYNC"), call = e2e_marker_line(k, "CALL-5");
  ck_assert_msg(strstr(detail, "deadlock") && strstr(detail, e2e_fmt("lanes 0-31 of warp 0 wait "
                "for the rest of the warp at all32.cu:%d (inlined into line %d)", sync, call)),
                "%s", detail);
  int split = e2e_marker_line(k, "IF-TID-W");
  ck_assert_msg(strstr(detail, e2e_fmt("lanes 32-63 of warp 0 wait to reconverge at the end of "
                "the branch at all32.cu:%d (inlined into line %d)", split, call)), "%s", detail);
  ck_assert_int_eq(json_integer_value(e2e_j(t, "source/line")), sync);
  /* version 6: the shuffle's full mask names lanes 32-63, which wait at the end of the
     `if (warp == 0)` that left them out, named by its line as above */
  t = test_at(r, "n=100003 VERSION=6 arch=wave64");
  ck_assert_str_eq(e2e_state_of(t), "fault");
  detail = json_string_value(json_object_get(t, "detail"));
  ck_assert_msg(strstr(detail, e2e_fmt("they wait at the end of the branch at all32.cu:%d",
                                       e2e_marker_line(k, "IF-WARP0"))), "%s", detail);
}
END_TEST

/* The text report of hard32.cu: its two failing wave64 tests get a hint about warp width
   (not silence, which the feedback screen reads as "nothing needs fixing"), and its deadlock
   on all32.cu a hint about the barrier, not "guard every index". */
START_TEST(lab07_failing_wave64_tests_hinted)
{
  struct e2e_run *r = e2e_warplab("run", "07", "--kernel-file", "tests/e2e/lab07/hard32.cu",
                                  "--backend", "emu", "--plain", "--wide", "--quick", "--seed",
                                  LAB07_SEED, "--results", e2e_tmp("results"), (char *)NULL);
  ck_assert_int_eq(r->status, 1);
  ck_assert_msg(strstr(r->out, "hint: 2 tests on another architecture profile failed (n=100003 "
                "VERSION=6 arch=wave64; n=1000003 VERSION=7 arch=wave64)") &&
                strstr(r->out, "warpSize"), "%s", r->out);
  r = e2e_warplab("run", "07", "--kernel-file", "tests/e2e/lab07/all32.cu", "--backend", "emu",
                  "--plain", "--wide", "--quick", "--seed", LAB07_SEED, "--results",
                  e2e_tmp("results"), (char *)NULL);
  ck_assert_int_eq(r->status, 1);
  ck_assert_msg(strstr(r->out, "hint: The kernel stopped at a barrier at all32.cu:") &&
                !strstr(r->out, "Guard every index"), "%s", r->out);
}
END_TEST

/* Every lab's reference solution, run as a student's kernel file (so scored against a run of
   the reference of its own), gets no hint: whatever the counters find in it (lab 07's lone
   atomicAdd and `if (lane == 0)`, lab 06's BY_WARP loads) is the lab's intended design, marked
   as such under "Where to look". */
START_TEST(every_solution_gets_no_hint_it_shares)
{
  static const char *const sol[][2] = {
    {"01", "solutions/01-matrix-add/matrix_add.cu"}, {"02", "solutions/02-occupancy/median.cu"},
    {"03", "solutions/03-latency-hiding/triad.cu"}, {"04", "solutions/04-coalescing/gather.cu"},
    {"05", "solutions/05-bank-conflicts/transpose.cu"},
    {"06", "solutions/06-divergence/evenodd.cu"}, {"07", "solutions/07-reduction/reduce.cu"},
  };
  int marked = 0;
  for (size_t i = 0; i < sizeof sol / sizeof *sol; i++) {
    struct e2e_run *r = e2e_warplab("run", sol[i][0], "--kernel-file", sol[i][1], "--backend",
                                    "emu", "--plain", "--wide", "--quick", "--seed", LAB07_SEED,
                                    "--results", e2e_tmp("results"), (char *)NULL);
    ck_assert_msg(r->status == 0, "%s: %d\n%s%s", sol[i][0], r->status, r->out, r->err);
    ck_assert_msg(!strstr(r->out, "hint:"), "lab %s: %s", sol[i][0], r->out);
    marked += strstr(r->out, "(the reference solution does this too: expected in this lab)") != NULL;
  }
  ck_assert_int_ge(marked, 2);                 /* labs 06 and 07 at least */
}
END_TEST

/* Faults get hints that name their bug (lab 01's kernel, the run's check and its hint): a
   guard of <= reads the element just past the end of b (an off-by-one: "i < n, not i <=
   n"); a pointer that is 0 at run time is a null pointer, not "guard every index". */
START_TEST(fault_hints_name_the_bug)
{
  char *src = e2e_read_text("solutions/01-matrix-add/matrix_add.cu");
  char *g = strstr(src, "if (x >= nx || y >= ny)");
  ck_assert_ptr_nonnull(g);
  char *text = e2e_fmt("%.*sif (x > nx || y > ny)%s", (int)(g - src), src,
                       g + strlen("if (x >= nx || y >= ny)"));
  const char *file = e2e_write("matrix_add.cu", text, strlen(text));
  struct e2e_run *r = e2e_warplab("run", "01", "--kernel-file", file, "--backend", "emu",
                                  "--plain", "--wide", "--quick", "--results", e2e_tmp("results"),
                                  (char *)NULL);
  ck_assert_int_eq(r->status, 1);
  ck_assert_msg(strstr(r->out, "hint: The kernel touched the element just past the end of a "
                       "buffer at matrix_add.cu:") && strstr(r->out, "i < n, not i <= n") &&
                !strstr(r->out, "Guard every index"), "%s", r->out);
  static const char null_kernel[] =
    "extern \"C\" __global__ void matrix_add(const float *a, const float *b, float *c, int nx,\n"
    "                                       int ny)\n"
    "{\n"
    "    float *p = (float *)(size_t)(nx / 1000000);   // 0 at run time: a null pointer\n"
    "    int x = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (x < nx)\n"
    "        c[x] = a[x] + p[x];                        // NULL-READ\n"
    "}\n";
  file = e2e_write("null.cu", null_kernel, strlen(null_kernel));
  r = e2e_warplab("run", "01", "--kernel-file", file, "--backend", "emu", "--json", "--quick",
                  "--results", e2e_tmp("results"), (char *)NULL);
  ck_assert_int_eq(r->status, 1);
  json_t *t = json_array_get(e2e_j(r->json, "tests"), 0);
  ck_assert_str_eq(json_string_value(e2e_j(t, "fault/kind")), "out_of_bounds");
  ck_assert_str_eq(json_string_value(e2e_j(t, "fault/place")), "null");
  r = e2e_warplab("run", "01", "--kernel-file", file, "--backend", "emu", "--plain", "--wide",
                  "--quick", "--results", e2e_tmp("results"), (char *)NULL);
  ck_assert_msg(strstr(r->out, e2e_fmt("hint: The kernel used a null pointer at null.cu:%d",
                                       e2e_marker_line(file, "NULL-READ"))), "%s", r->out);
}
END_TEST

/* "arch" must name a profile: a lab that names none is refused with the field. */
START_TEST(lab07_test_arch_checked)
{
  const char *dir = e2e_tmp("07-bad");
  char *cmd = e2e_fmt("mkdir -p '%s' && cp labs/07-reduction/reference.c labs/07-reduction/reduce.cu "
                      "'%s/' && sed 's/\"arch\": \"wave64\"/\"arch\": \"wave65\"/' "
                      "labs/07-reduction/lab.json > '%s/lab.json'", dir, dir, dir);
  ck_assert_int_eq(system(cmd), 0);
  struct e2e_run *r = e2e_warplab("run", dir, "--backend", "emu", "--plain", (char *)NULL);
  e2e_expect_error(r, 2, "tests.arch", "wave64", (char *)NULL);
}
END_TEST

START_TEST(lab07_grade_solution_full_marks)
{
  e2e_expect_full_marks("07", "solutions/07-reduction");
}
END_TEST

/* A sweep point that repeats the main configuration (version 7) is taken from the main
   configuration's launch only when the device starts from the same state: a kernel that
   counts its launches in a __device__ variable, and runs one more fence for each, executes
   more instructions at the repeat, seven launches later (the first point is the main
   configuration's). Taking the figures of the first launch would give the same count. */
START_TEST(lab07_device_state_not_reused)
{
  struct e2e_run *r = e2e_warplab("run", "07", "--kernel-file", "tests/e2e/lab07/launch_counter.cu",
                                  "--backend", "emu", "--json", "--results", e2e_tmp("results"),
                                  "--seed", LAB07_SEED, "--size", "n=65536", (char *)NULL);
  ck_assert_msg(r->status == 0, "%s exited %d\n%.3000s\n%.2000s", r->cmd, r->status, r->out, r->err);
  json_t *main_pt = json_array_get(e2e_j(r->json, "points"), 0), *again = point(r, "7");
  ck_assert(json_is_true(json_object_get(again, "correct")));
  const char *inst = "metrics/smsp__inst_executed.sum/value";
  double a = json_number_value(e2e_j(main_pt, inst)), b = json_number_value(e2e_j(again, inst));
  ck_assert_msg(a > 0 && b > a, "the main configuration ran %g warp-instructions and its repeat "
                "%g: expected more (the fences of the 7 launches between them)", a, b);
}
END_TEST

void e2e_add_lab07_tests(Suite *s)
{
  if (!e2e_have_nvcc()) {
    printf("e2e: nvcc not found: SKIPPING the 10 tests of lab 07\n");
    return;
  }
  TCase *tc = tcase_create("lab07");
  tcase_add_checked_fixture(tc, e2e_setup, e2e_teardown);
  tcase_set_timeout(tc, LAB07_TIMEOUT_S);
  tcase_add_test(tc, lab07_solution_counts_from_first_principles);
  tcase_add_test(tc, lab07_wave64_profile);
  tcase_add_test(tc, lab07_starter_fails);
  tcase_add_test(tc, lab07_hard32_fails_on_wave64);
  tcase_add_test(tc, lab07_all32_deadlocks_on_wave64);
  tcase_add_test(tc, lab07_test_arch_checked);
  tcase_add_test(tc, lab07_grade_solution_full_marks);
  tcase_add_test(tc, lab07_failing_wave64_tests_hinted);
  tcase_add_test(tc, every_solution_gets_no_hint_it_shares);
  tcase_add_test(tc, fault_hints_name_the_bug);
  tcase_add_test(tc, lab07_device_state_not_reused);
  suite_add_tcase(s, tc);
}
