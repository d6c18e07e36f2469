/* lab06.c: end-to-end tests of lab 06 (divergence and SIMT deadlock) through `warplab run`,
 * `warplab grade` and `warplab emu`, on the emulator:
 *   - the reference solution passes every test size in every mapping, and the sweep's counts
 *     follow from how a warp runs a branch: one divergent target per warp where its lanes
 *     disagree (t % 2, (t / 16) % 2), none where they agree ((t / 32) % 2); 16 lanes in
 *     either path where the warp splits; 8 sectors per request where a warp's elements lie 8
 *     bytes apart; the rubric's answers are those counts;
 *   - chain.cu's 32 paths run one after the other, 31 divergent targets, in the order of the
 *     chain whatever the thread numbers;
 *   - the GT200 spin lock deadlocks under the reconvergence stack, reported at its line with
 *     the looping and the waiting lanes, and finishes under independent scheduling; so does
 *     the atomicCAS lock (a failed CAS is no progress); the solution folder's fixed kernels
 *     finish under both with the right results;
 *   - a barrier reached by half a warp is reported as barrier divergence at its line; a warp
 *     that waits at a barrier for a looping warp, as a deadlock with both lines;
 *   - the starter writes nothing; a branch on the thread's parity fails the other mappings at
 *     their first wrong element; a kernel without its bounds check faults at its line; a
 *     kernel that never ends is a deadlock at its line in a lab run;
 *   - a correct kernel that keeps the interleaved mapping misses the warp targets, and the
 *     reference solution with its answers gets every point. */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"

#define LAB06_TIMEOUT_S 300
#define LAB06_N 262144         /* lab.json: sizes.emu.n */
#define LAB06_WARPS (LAB06_N / 32)
#define LAB06_CHECKS 7         /* lab.json: six test sizes and the main size */
#define LAB06_POINTS 4         /* the main point and the three mappings */
#define PATH_INSTS 128         /* evenodd.cu: each path is 128 floating-point instructions */
#define INTERLEAVED 0
#define BY_WARP 1
#define BY_HALF_WARP 2

static const char *const LAB = "labs/06-divergence";
static const char *const SOL = "solutions/06-divergence";
static const char *const BR = "smsp__sass_branch_targets.sum";
static const char *const DIV = "smsp__sass_branch_targets_threads_divergent.sum";
static const char *const UNI = "smsp__sass_average_branch_targets_threads_uniform.pct";
static const char *const LANES = "smsp__thread_inst_executed_per_inst_executed.ratio";
static const char *const INST = "smsp__inst_executed.sum";
static const char *const SPR = "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio";
static const char *const CYCLES = "sm__cycles_elapsed.avg";

/* The value of metric NAME at point P (a lab run's point or an emu run's root). */
static double value(json_t *p, const char *name)
{
  json_t *v = e2e_j(p, e2e_fmt("metrics/%s/value", name));
  ck_assert_msg(json_is_number(v), "no value of %s", name);
  return json_number_value(v);
}

/* The point of the variant sweep with VARIANT = v. */
static json_t *variant_point(const struct e2e_run *r, long v)
{
  size_t i;
  json_t *p;
  json_array_foreach(e2e_j(r->json, "points"), i, p) {
    const char *s = json_string_value(json_object_get(p, "sweep"));
    if (s && !strcmp(s, "variant") && json_integer_value(e2e_j(p, "choices/VARIANT")) == v)
      return p;
  }
  ck_abort_msg("%s: no point VARIANT=%ld in the sweep", r->cmd, v);
  return NULL;
}

/* warplab run 06 on the emulator: the reference solution (kernel_file NULL) with its sweep,
   or another kernel file with --quick. */
static struct e2e_run *run06(const char *kernel_file)
{
  const char *res = e2e_tmp("results");
  if (!kernel_file)
    return e2e_warplab("run", "06", "--solution", "--backend", "emu", "--json", "--results", res,
                       (char *)NULL);
  return e2e_warplab("run", "06", "--kernel-file", kernel_file, "--backend", "emu", "--json",
                     "--results", res, "--quick", (char *)NULL);
}

/* The rubric's answer to question ID must be what the emulator measures. */
static void expect_answer(json_t *lab, const char *id, double measured)
{
  double want = e2e_rubric_answer(lab, id);
  ck_assert_msg(fabs(want - measured) < 0.05, "%s: the rubric's answer is %g, the emulator "
                "measures %g", id, want, measured);
}

/* How many lanes a list such as "0-15", "0" or "1,3,5-7" names. */
static int lane_count(const char *s)
{
  int n = 0;
  while (*s) {
    char *end;
    long a = strtol(s, &end, 10), b = a;
    ck_assert_msg(end != s, "a lane list \"%s\" that is not numbers", s);
    if (*end == '-')
      b = strtol(end + 1, &end, 10);
    n += (int)(b - a + 1);
    s = *end == ',' ? end + 1 : end;
    if (*end && *end != ',')
      break;
  }
  return n;
}

/* The index in fault.waiting of the entry at LINE of the file ending in NAME, whose reason is
   REASON; -1 if there is none. */
static int waiting_at(const struct e2e_run *r, const char *name, int line, const char *reason)
{
  json_t *w = e2e_j(r->json, "fault/waiting");
  ck_assert_msg(json_is_array(w) && json_array_size(w) > 0, "%s\nfault.waiting should list the "
                "stuck warps:\n%.3000s", r->cmd, r->out);
  for (size_t i = 0; i < json_array_size(w); i++) {
    json_t *e = json_array_get(w, i);
    const char *file = json_string_value(e2e_j(e, "source/file"));
    const char *why = json_string_value(json_object_get(e, "reason"));
    if (json_integer_value(e2e_j(e, "source/line")) == line && file && why &&
        strlen(file) >= strlen(name) && !strcmp(file + strlen(file) - strlen(name), name) &&
        !strcmp(why, reason))
      return (int)i;
  }
  return -1;
}

static const char *waiting_lanes(const struct e2e_run *r, int at)
{
  return e2e_jstr(r, e2e_fmt("fault/waiting/%d/lanes", at));
}

/* ---- the graded kernel ---- */

START_TEST(lab06_solution_counts_from_first_principles)
{
  struct e2e_run *r = run06(NULL);
  ck_assert_msg(r->status == 0, "%s exited %d\n%.3000s\n%.2000s", r->cmd, r->status, r->out, r->err);
  ck_assert(json_is_true(e2e_j(r->json, "all_passed")));
  ck_assert_int_eq(json_array_size(e2e_j(r->json, "tests")), LAB06_CHECKS);
  ck_assert_int_eq(json_array_size(e2e_j(r->json, "points")), LAB06_POINTS);
  for (long v = INTERLEAVED; v <= BY_HALF_WARP; v++) {
    json_t *p = variant_point(r, v);
    ck_assert_msg(json_is_true(json_object_get(p, "correct")), "VARIANT=%ld is wrong", v);
    /* a warp whose lanes disagree on the parity splits once, at the branch on it */
    double div = value(p, DIV), br = value(p, BR);
    ck_assert_msg(div == (v == BY_WARP ? 0 : LAB06_WARPS), "VARIANT=%ld: %g divergent targets, "
                  "expected %d", v, div, v == BY_WARP ? 0 : LAB06_WARPS);
    ck_assert_msg(fabs(value(p, UNI) - 100.0 * (br - div) / br) < 1e-9, "VARIANT=%ld: branch "
                  "efficiency %g%% is not the uniform targets' share", v, value(p, UNI));
    /* a warp that splits runs both paths' 2 x 128 instructions with 16 lanes, the rest with
       32: at most 32 - 16 * 256 / (instructions per warp) lanes on average */
    double per_warp = value(p, INST) / LAB06_WARPS, lanes = value(p, LANES);
    if (v == BY_WARP)
      ck_assert_msg(lanes == 32.0, "BY_WARP: %g lanes per instruction", lanes);
    else
      ck_assert_msg(lanes > 16.0 && lanes <= 32.0 - 16.0 * 2 * PATH_INSTS / per_warp + 1e-9,
                    "VARIANT=%ld: %g lanes per instruction for %g instructions per warp", v,
                    lanes, per_warp);
    /* lanes 4 bytes apart: 4 sectors; BY_WARP's lanes 8 bytes apart: 256 bytes, 8 sectors */
    ck_assert_msg(value(p, SPR) == (v == BY_WARP ? 8.0 : 4.0), "VARIANT=%ld: %g sectors per "
                  "request", v, value(p, SPR));
  }
  json_t *inter = variant_point(r, INTERLEAVED), *warp = variant_point(r, BY_WARP);
  /* the splitting warp issues the second path too */
  ck_assert_msg(value(inter, INST) - value(warp, INST) >= (double)PATH_INSTS * LAB06_WARPS * 0.9,
                "INTERLEAVED issues %g warp-instructions, BY_WARP %g", value(inter, INST),
                value(warp, INST));
  ck_assert_msg(value(inter, CYCLES) > 1.25 * value(warp, CYCLES), "modelled cycles: INTERLEAVED "
                "%g, BY_WARP %g", value(inter, CYCLES), value(warp, CYCLES));
  json_t *lab = e2e_load_json("labs/06-divergence/lab.json");
  expect_answer(lab, "q2", value(inter, DIV));
  expect_answer(lab, "q3", value(warp, UNI));
  expect_answer(lab, "q4", value(variant_point(r, BY_HALF_WARP), DIV) / LAB06_WARPS + 1);
  expect_answer(lab, "q6", value(warp, SPR));
  json_decref(lab);
}
END_TEST

/* q1 line by line: the lines of the two paths run with 16 lanes in INTERLEAVED. The paths
   are device functions inlined into the kernel, and their instructions are put at their own
   lines (as Nsight Compute's source view does): even_path's loop is one line of 128
   instructions a warp, odd_path's two lines of 64. A path's line may also hold an instruction
   or two that the compiler placed before the split, run by all 32 lanes: a line's average is
   16 or a little more. */
START_TEST(lab06_paths_run_with_half_the_lanes)
{
  struct e2e_run *r = e2e_emu("solutions/06-divergence/evenodd.cu", "--kernel", "evenodd", "--grid",
                              "1", "--block", "64", "--arg", "f32buf:64:rand:1", "--arg",
                              "f32buf:64:zero", "--arg", "i32:64", "--arg", "i32:0", "--json", NULL);
  e2e_expect_ok(r);
  int paths = 0;
  double least = 32;
  size_t i;
  json_t *l;
  json_array_foreach(e2e_j(r->json, "lines"), i, l) {
    double inst = json_number_value(json_object_get(l, "inst_executed"));
    double threads = json_number_value(json_object_get(l, "thread_inst_executed"));
    if (inst >= PATH_INSTS) {         /* both warps through 64 instructions of a path or more */
      paths++;
      ck_assert_msg(threads / inst >= 16 && threads / inst <= 16.0 + 16.0 * 8 / inst, "line %lld: "
                    "%g lanes per instruction", json_integer_value(json_object_get(l, "line")),
                    threads / inst);
      least = fmin(least, threads / inst);
    }
  }
  ck_assert_msg(paths == 3, "%d lines with a path's instructions, expected 3\n%.3000s", paths, r->out);
  json_t *lab = e2e_load_json("labs/06-divergence/lab.json");
  expect_answer(lab, "q1", least);
  json_decref(lab);
}
END_TEST

START_TEST(lab06_starter_is_poisoned)
{
  struct e2e_run *r = run06("labs/06-divergence/evenodd.cu");
  ck_assert_int_eq(r->status, 1);
  json_t *t = e2e_test_at(r, "n=1 shift=0");
  ck_assert_str_eq(e2e_state_of(t), "fail");
  ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(t, "detail")), "never wrote"));
  ck_assert_int_eq(json_array_size(e2e_j(r->json, "points")), 0);
}
END_TEST

/* The branch on t % 2 instead of i % 2: right where thread t handles element t (its own
   mapping, shift 0), wrong in BY_WARP from out[1] on: thread 1 handles element 2. */
START_TEST(lab06_thread_parity_fails_other_mappings)
{
  struct e2e_run *r = run06("tests/e2e/lab06/thread_parity.cu");
  ck_assert_int_eq(r->status, 1);
  ck_assert_str_eq(e2e_state_of(e2e_test_at(r, "n=33 shift=0")), "pass");
  json_t *t = e2e_test_at(r, "n=100 shift=1");
  ck_assert_str_eq(e2e_state_of(t), "fail");
  ck_assert_int_eq(json_integer_value(json_object_get(t, "first_bad")), 1);
  ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(t, "detail")), "out[1] is wrong"));
}
END_TEST

START_TEST(lab06_no_bounds_faults_at_its_line)
{
  const char *k = "tests/e2e/lab06/no_bounds.cu";
  struct e2e_run *r = run06(k);
  ck_assert_int_eq(r->status, 1);
  json_t *t = e2e_test_at(r, "n=1 shift=0");
  ck_assert_str_eq(e2e_state_of(t), "fault");
  ck_assert_int_eq(json_integer_value(e2e_j(t, "source/line")), e2e_marker_line(k, "NO-BOUNDS"));
  const char *detail = json_string_value(json_object_get(t, "detail"));
  ck_assert_msg(strstr(detail, "out of bounds") && strstr(detail, "(parameter 0)"), "%s", detail);
}
END_TEST

/* A kernel that never ends does not stop a lab run on the emulator: the test is a deadlock,
   at the loop's line. Thread 0 alone loops: the rest of its warp goes past the loop (with
   n = 33 through the branch on the parity, whose two sides must both get to run) and exits,
   and the report says so rather than naming them as looping (lab.json launches blocks of 256
   threads: 7 more warps, all exited). */
START_TEST(lab06_hang_is_a_deadlock_at_its_line)
{
  const char *k = "tests/e2e/lab06/hang.cu";
  int hang = e2e_marker_line(k, "HANG");
  struct e2e_run *r = run06(k);
  ck_assert_int_eq(r->status, 1);
  static const char *const sizes[] = {"n=1 shift=0", "n=33 shift=0"};
  for (int i = 0; i < 2; i++) {
    json_t *t = e2e_test_at(r, sizes[i]);
    ck_assert_str_eq(e2e_state_of(t), "fault");
    ck_assert_int_eq(json_integer_value(e2e_j(t, "source/line")), hang);
    const char *detail = json_string_value(json_object_get(t, "detail"));
    ck_assert_msg(strstr(detail, "deadlock") && strstr(detail, e2e_fmt("lanes 0 of warp 0 keep "
                  "looping at hang.cu:%d; lanes 1-31 of warp 0 have exited", hang)) &&
                  strstr(detail, "7 other warps of the block have exited") &&
                  !strstr(detail, "PTX line"), "%s: %s", sizes[i], detail);
  }
}
END_TEST

/* ---- chain.cu: 32 paths ---- */

/* The order chain.cu's paths ran in. The first call compiles chain.cu and keeps its PTX in
   the test's folder; the others run that PTX, without nvcc. */
static int32_t *chain_order(const char *sched, const char *reverse)
{
  const char *out = e2e_tmp(e2e_fmt("order-%s-%s.bin", sched, reverse));
  const char *ptx = e2e_tmp("chain.ptx");
  int have = access(ptx, R_OK) == 0;
  struct e2e_run *r = e2e_emu(have ? ptx : "labs/06-divergence/chain.cu", "--kernel", "chain",
                              "--grid", "1", "--block", "32", "--arg", "i32buf:32:iota", "--arg",
                              "i32buf:32:zero", "--arg", "i32buf:1:zero", "--arg",
                              e2e_fmt("i32:%s", reverse), "--sched", sched, "--dump",
                              e2e_fmt("1=%s", out), "--json", have ? NULL : "--keep-ptx", ptx, NULL);
  e2e_expect_ok(r);
  /* each test of the chain splits one lane off the rest, until the last finds one lane */
  json_t *lab = e2e_load_json("labs/06-divergence/lab.json");
  expect_answer(lab, "q8", value(r->json, DIV));
  json_decref(lab);
  return e2e_read(out, 32 * 4);
}

START_TEST(lab06_chain_runs_32_paths_in_chain_order)
{
  int32_t *fwd = chain_order("stack", "0"), *rev = chain_order("stack", "1");
  int32_t *its = chain_order("its", "0");
  int seen[32] = {0};
  for (int t = 0; t < 32; t++) {
    ck_assert_msg(fwd[t] >= 0 && fwd[t] < 32 && !seen[fwd[t]]++, "thread %d got ticket %d: the "
                  "32 paths should run one after the other", t, fwd[t]);
    /* reversed, thread t has thread 31 - t's key: its path, and so its turn */
    ck_assert_msg(rev[t] == fwd[31 - t], "reversed, thread %d ran %d-th, thread %d %d-th as "
                  "given: the order should follow the chain, not the thread", t, rev[t], 31 - t,
                  fwd[31 - t]);
    ck_assert_int_eq(its[t], fwd[t]);
  }
  json_t *lab = e2e_load_json("labs/06-divergence/lab.json");
  int paths = 0;
  for (int k = 0; k < 32; k++)
    paths += seen[k];
  expect_answer(lab, "q7", paths);
  json_decref(lab);
}
END_TEST

/* ---- spinlock.cu ---- */

/* FILE (DIR/spinlock.cu or DIR/barriers.cu) as PTX: the first call of a test compiles it and
   keeps the PTX in the test's folder (*keep is then the option to pass), later calls run the
   kept PTX without nvcc (*keep NULL). */
static const char *src_or_ptx(const char *dir, const char *file, const char **keep)
{
  const char *ptx = e2e_tmp(e2e_fmt("%s.ptx", file));
  *keep = access(ptx, R_OK) == 0 ? NULL : "--keep-ptx";
  return *keep ? e2e_fmt("%s/%s.cu", dir, file) : ptx;
}

static struct e2e_run *take_turns(const char *dir, const char *kernel, const char *sched,
                                  const char *out)
{
  const char *keep, *src = src_or_ptx(dir, "spinlock", &keep);
  return e2e_emu(src, "--kernel", kernel, "--grid", "1", "--block", "32", "--arg",
                 "i32buf:32:fill=-1", "--sched", sched, "--dump", e2e_fmt("0=%s", out),
                 "--max-insts", "10000000", "--json", keep, e2e_tmp("spinlock.ptx"), NULL);
}

START_TEST(lab06_spin_lock_deadlocks_under_the_stack)
{
  const char *src = "labs/06-divergence/spinlock.cu", *out = e2e_tmp("order.bin");
  int spin = e2e_marker_line(src, "SPIN"), left = e2e_marker_line(src, "LEFT-LOOP");
  struct e2e_run *r = take_turns(LAB, "take_turns", "stack", out);
  e2e_expect_outcome(r, 1, "deadlock");
  ck_assert_str_eq(e2e_jstr(r, "fault/kind"), "deadlock");
  ck_assert_int_eq(e2e_jint(r, "fault/source/line"), spin);
  /* lane 0 left the loop and waits at the statement after it; the others loop */
  int looping = waiting_at(r, "spinlock.cu", spin, "spinning");
  int waiting = waiting_at(r, "spinlock.cu", left, "reconvergence");
  ck_assert_msg(looping >= 0 && waiting >= 0, "%s\nexpected lanes looping at line %d and lanes "
                "waiting to reconverge at line %d:\n%.3000s", r->cmd, spin, left, r->out);
  ck_assert_str_eq(waiting_lanes(r, waiting), "0");
  json_t *lab = e2e_load_json("labs/06-divergence/lab.json");
  expect_answer(lab, "q9", lane_count(waiting_lanes(r, looping)));
  int32_t *order = e2e_read(out, 32 * 4);
  int wrote = 0;
  for (int t = 0; t < 32; t++)
    wrote += order[t] != -1;
  expect_answer(lab, "q10", wrote);
  json_decref(lab);
  ck_assert_ptr_nonnull(strstr(e2e_jstr(r, "fault/message"), "SIMT deadlock"));
}
END_TEST

START_TEST(lab06_spin_lock_finishes_under_its)
{
  const char *out = e2e_tmp("order.bin");
  for (int k = 0; k < 2; k++) {
    struct e2e_run *r = take_turns(LAB, k ? "take_turns_sync" : "take_turns", "its", out);
    e2e_expect_ok(r);
    int32_t *order = e2e_read(out, 32 * 4);
    for (int t = 0; t < 32; t++)
      ck_assert_msg(order[t] == t, "%s: thread %d saw turn %d", r->cmd, t, order[t]);
  }
}
END_TEST

/* The atomicCAS lock under the stack: the winner waits after the loop, the others try
   forever. A failed CAS leaves the lock word as it was, so nothing changes: a SIMT deadlock
   like the plain spin lock's, with the looping and the waiting lanes at their lines, and
   nothing appended. Under independent scheduling the same kernel finishes, also with the
   lock held by a block on another worker thread while a whole block fails its CAS. */
START_TEST(lab06_cas_lock_deadlocks_under_the_stack)
{
  const char *src = "labs/06-divergence/spinlock.cu", *len = e2e_tmp("len.bin");
  int acquire = e2e_marker_line(src, "ACQUIRE");
  struct e2e_run *r = e2e_emu(src, "--kernel", "append", "--grid", "1", "--block", "32", "--arg",
                              "i32buf:1:zero", "--arg", "i32buf:32:fill=-1", "--arg",
                              "i32buf:1:zero", "--sched", "stack", "--max-insts", "1000000",
                              "--dump", e2e_fmt("2=%s", len), "--json", "--keep-ptx",
                              e2e_tmp("lock.ptx"), NULL);
  e2e_expect_outcome(r, 1, "deadlock");
  ck_assert_str_eq(e2e_jstr(r, "fault/kind"), "deadlock");
  ck_assert_int_eq(e2e_jint(r, "fault/source/line"), acquire);
  int looping = waiting_at(r, "spinlock.cu", acquire, "spinning");
  int waiting = waiting_at(r, "spinlock.cu", acquire + 1, "reconvergence");
  ck_assert_msg(looping >= 0 && waiting >= 0, "%s\nexpected lanes looping at line %d and lanes "
                "waiting to reconverge at line %d:\n%.3000s", r->cmd, acquire, acquire + 1, r->out);
  ck_assert_str_eq(waiting_lanes(r, looping), "1-31");
  ck_assert_str_eq(waiting_lanes(r, waiting), "0");
  ck_assert_int_eq(json_array_size(e2e_j(r->json, "fault/waiting")), 2);
  ck_assert_ptr_nonnull(strstr(e2e_jstr(r, "fault/message"), "SIMT deadlock"));
  ck_assert_int_eq(*(int32_t *)e2e_read(len, 4), 0);
  /* independent scheduling, three blocks on three workers */
  const char *list = e2e_tmp("list.bin");
  r = e2e_emu(e2e_tmp("lock.ptx"), "--kernel", "append", "--grid", "3", "--block", "32", "--arg",
              "i32buf:1:zero", "--arg", "i32buf:96:fill=-1", "--arg", "i32buf:1:zero", "--sched",
              "its", "--threads", "3", "--dump", e2e_fmt("1=%s", list), "--dump",
              e2e_fmt("2=%s", len), "--json", NULL);
  e2e_expect_ok(r);
  ck_assert_int_eq(*(int32_t *)e2e_read(len, 4), 96);
  int32_t *l = e2e_read(list, 96 * 4);
  int seen[96] = {0};
  for (int k = 0; k < 96; k++)
    ck_assert_msg(l[k] >= 0 && l[k] < 96 && !seen[l[k]]++, "%s: list[%d] = %d: every thread "
                  "must append itself once", r->cmd, k, l[k]);
}
END_TEST

/* The fixed kernels of exercise 6 finish under both schedulers with the right results. */
START_TEST(lab06_fixed_locks_finish_under_both)
{
  static const char *const scheds[] = {"stack", "its"};
  const char *out = e2e_tmp("out.bin"), *len = e2e_tmp("len.bin");
  for (int s = 0; s < 2; s++) {
    for (int k = 0; k < 2; k++) {
      struct e2e_run *r = take_turns(SOL, k ? "take_turns_sync" : "take_turns", scheds[s], out);
      e2e_expect_ok(r);
      int32_t *order = e2e_read(out, 32 * 4);
      for (int t = 0; t < 32; t++)
        ck_assert_msg(order[t] == t, "%s: thread %d saw turn %d", r->cmd, t, order[t]);
    }
    const char *keep, *src = src_or_ptx(SOL, "spinlock", &keep);
    struct e2e_run *r = e2e_emu(src, "--kernel", "append", "--grid", "2", "--block", "64",
                                "--arg", "i32buf:1:zero", "--arg", "i32buf:128:fill=-1", "--arg",
                                "i32buf:1:zero", "--sched", scheds[s], "--dump",
                                e2e_fmt("1=%s", out), "--dump", e2e_fmt("2=%s", len), "--json",
                                keep, e2e_tmp("spinlock.ptx"), NULL);
    e2e_expect_ok(r);
    int32_t *list = e2e_read(out, 128 * 4), *n = e2e_read(len, 4);
    ck_assert_int_eq(n[0], 128);
    int seen[128] = {0};
    for (int k = 0; k < 128; k++)
      ck_assert_msg(list[k] >= 0 && list[k] < 128 && !seen[list[k]]++, "%s: list[%d] = %d: "
                    "every thread must append itself once", r->cmd, k, list[k]);
  }
}
END_TEST

/* ---- barriers.cu ---- */

START_TEST(lab06_half_warp_barrier_is_divergence)
{
  const char *src = "labs/06-divergence/barriers.cu";
  int prod = e2e_marker_line(src, "PRODUCERS"), cons = e2e_marker_line(src, "CONSUMERS");
  struct e2e_run *r = e2e_emu(src, "--kernel", "halves", "--grid", "1", "--block", "32", "--arg",
                              "i32buf:32:fill=-1", "--json", NULL);
  e2e_expect_outcome(r, 1, "barrier_divergence");
  ck_assert_int_eq(e2e_jint(r, "fault/source/line"), prod);
  int a = waiting_at(r, "barriers.cu", prod, "barrier"), b = waiting_at(r, "barriers.cu", cons, "barrier");
  ck_assert_msg(a >= 0 && b >= 0, "%s\nexpected lanes at both barriers, lines %d and %d:\n%.3000s",
                r->cmd, prod, cons, r->out);
  ck_assert_str_eq(waiting_lanes(r, a), "0-15");
  ck_assert_str_eq(waiting_lanes(r, b), "16-31");
}
END_TEST

START_TEST(lab06_block_barrier_deadlock)
{
  const char *src = "labs/06-divergence/barriers.cu";
  int bar = e2e_marker_line(src, "WARP0-WAITS"), spin = e2e_marker_line(src, "WARP1-SPINS");
  struct e2e_run *r = e2e_emu(src, "--kernel", "handoff", "--grid", "1", "--block", "64", "--arg",
                              "i32buf:32:fill=-1", "--json", NULL);
  e2e_expect_outcome(r, 1, "deadlock");
  int a = waiting_at(r, "barriers.cu", bar, "barrier"), b = waiting_at(r, "barriers.cu", spin, "spinning");
  ck_assert_msg(a >= 0 && b >= 0, "%s\nexpected warp 0 at the barrier (line %d) and warp 1 "
                "looping (line %d):\n%.3000s", r->cmd, bar, spin, r->out);
  ck_assert_int_eq(e2e_jint(r, e2e_fmt("fault/waiting/%d/warp", a)), 0);
  ck_assert_int_eq(e2e_jint(r, e2e_fmt("fault/waiting/%d/warp", b)), 1);
  ck_assert_str_eq(waiting_lanes(r, a), "0-31");
}
END_TEST

START_TEST(lab06_fixed_barriers_finish_under_both)
{
  static const char *const scheds[] = {"stack", "its"};
  const char *out = e2e_tmp("out.bin");
  const char *ptx = e2e_tmp("barriers.ptx");
  for (int s = 0; s < 2; s++) {
    const char *keep, *src = src_or_ptx(SOL, "barriers", &keep);
    struct e2e_run *r = e2e_emu(src, "--kernel", "halves", "--grid", "1", "--block", "32",
                                "--arg", "i32buf:32:fill=-1", "--sched", scheds[s], "--dump",
                                e2e_fmt("0=%s", out), "--json", keep, ptx, NULL);
    e2e_expect_ok(r);
    int32_t *o = e2e_read(out, 32 * 4);
    for (int t = 0; t < 32; t++)
      ck_assert_int_eq(o[t], t < 16 ? t : 100 + t - 16);
    r = e2e_emu(ptx, "--kernel", "handoff", "--grid", "1", "--block", "64", "--arg",
                "i32buf:32:fill=-1", "--sched", scheds[s], "--dump", e2e_fmt("0=%s", out),
                "--json", NULL);
    e2e_expect_ok(r);
    o = e2e_read(out, 32 * 4);
    for (int k = 0; k < 32; k++)
      ck_assert_int_eq(o[k], k * k);
  }
}
END_TEST

/* ---- the grade ---- */

/* A correct kernel that keeps the interleaved mapping: every correctness point and every
   answer, neither warp target, and not the full performance points. */
START_TEST(lab06_grade_interleaved_misses_the_targets)
{
  const char *sub = e2e_tmp("bob");
  char *src = e2e_read_text("solutions/06-divergence/evenodd.cu");
  const char *from = "__constant__ int VARIANT = BY_WARP;";
  const char *to = "__constant__ int VARIANT = 0;      ";
  char *at = strstr(src, from);
  ck_assert_ptr_nonnull(at);
  memcpy(at, to, strlen(to));
  ck_assert_int_eq(system(e2e_fmt("mkdir -p '%s' && cp solutions/06-divergence/answers.json '%s/'",
                                  sub, sub)), 0);
  FILE *f = fopen(e2e_fmt("%s/evenodd.cu", sub), "w");
  ck_assert_ptr_nonnull(f);
  fputs(src, f);
  fclose(f);
  struct e2e_run *r = e2e_warplab("grade", "06", sub, "--backend", "emu", "--json", "--out",
                                  e2e_tmp("graded"), (char *)NULL);
  ck_assert_msg(r->status == 0, "%s\n%.3000s\n%.2000s", r->cmd, r->out, r->err);
  double correct = 0, targets = 0, answers = 0, perf = -1;
  size_t i;
  json_t *t;
  json_array_foreach(e2e_j(r->json, "tests"), i, t) {
    const char *name = json_string_value(json_object_get(t, "name"));
    double score = json_number_value(json_object_get(t, "score"));
    if (!strncmp(name, "correctness", 11))
      correct += score;
    else if (!strncmp(name, "metric target", 13))
      targets += score;
    else if (!strncmp(name, "question", 8))
      answers += score;
    else if (!strncmp(name, "performance", 11))
      perf = score;
  }
  ck_assert_msg(fabs(correct - 60) < 1e-9 && fabs(answers - 10) < 1e-9, "correctness %g, "
                "questions %g\n%.3000s", correct, answers, r->out);
  ck_assert_msg(targets == 0, "the interleaved mapping earned %g points of warp targets", targets);
  ck_assert_msg(perf >= 0 && perf < 15, "the interleaved mapping earned %g of 15 performance "
                "points", perf);
}
END_TEST

START_TEST(lab06_grade_solution_full_marks)
{
  e2e_expect_full_marks("06", SOL);
}
END_TEST

void e2e_add_lab06_tests(Suite *s)
{
  if (!e2e_have_nvcc()) {
    printf("e2e: nvcc not found: SKIPPING the 16 tests of lab 06\n");
    return;
  }
  TCase *tc = tcase_create("lab06");
  tcase_add_checked_fixture(tc, e2e_setup, e2e_teardown);
  tcase_set_timeout(tc, LAB06_TIMEOUT_S);
  tcase_add_test(tc, lab06_solution_counts_from_first_principles);
  tcase_add_test(tc, lab06_paths_run_with_half_the_lanes);
  tcase_add_test(tc, lab06_starter_is_poisoned);
  tcase_add_test(tc, lab06_thread_parity_fails_other_mappings);
  tcase_add_test(tc, lab06_no_bounds_faults_at_its_line);
  tcase_add_test(tc, lab06_hang_is_a_deadlock_at_its_line);
  tcase_add_test(tc, lab06_chain_runs_32_paths_in_chain_order);
  tcase_add_test(tc, lab06_spin_lock_deadlocks_under_the_stack);
  tcase_add_test(tc, lab06_spin_lock_finishes_under_its);
  tcase_add_test(tc, lab06_cas_lock_deadlocks_under_the_stack);
  tcase_add_test(tc, lab06_fixed_locks_finish_under_both);
  tcase_add_test(tc, lab06_half_warp_barrier_is_divergence);
  tcase_add_test(tc, lab06_block_barrier_deadlock);
  tcase_add_test(tc, lab06_fixed_barriers_finish_under_both);
  tcase_add_test(tc, lab06_grade_interleaved_misses_the_targets);
  tcase_add_test(tc, lab06_grade_solution_full_marks);
  suite_add_tcase(s, tc);
}
