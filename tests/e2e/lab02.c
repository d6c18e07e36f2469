/* lab02.c: end-to-end tests of lab 02 (occupancy) through `warplab run`, `warplab grade`,
 * `warplab occupancy` and `warplab emu`, on the emulator:
 *   - the reference solution passes every test size; at every point of its three sweeps the
 *     theoretical occupancy and the blocks per SM are what the rules of CUDA's occupancy
 *     calculator, written out again below for the H200, give for the point's block size,
 *     shared memory and registers; it has no local memory; the waves sweep's times follow
 *     the waves (modelled cycles);
 *   - the calculator's staircases (`warplab occupancy --table --json`) over block sizes for
 *     several register counts, and over dynamic shared memory, equal the same rules;
 *   - occupancy.sh's three charts (block size, registers, shared memory) hold the rules'
 *     answers and limits at every point, and their points are the ends of every step;
 *   - __launch_bounds__(256, 4) caps ptxas at 64 registers and makes the 8x8 micro-tile
 *     spill; on the four-SM teaching profile a 2x2-tile GEMM at 50% occupancy is modelled
 *     faster than a 1x1 one at 100%, and 9 or 18 tiles run in 3 or 5 waves;
 *   - the starter is right but keeps its window in local memory (a stack frame, local
 *     traffic, divergent branches) at 50% occupancy; graded, it loses the metric targets;
 *   - a kernel that spills shows it in ptxas's stack frame only (the PTX the emulator runs
 *     has no local memory), and one whose PTX uses local memory that ptxas keeps in
 *     registers shows the opposite: why the grade reads the stack frame;
 *   - the reference solution with its answers gets every point.
 * The rubric's answers are held to the same rules. */
#include <check.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

#define LAB02_TIMEOUT_S 300
#define LAB02_CHECKS 6         /* lab.json: five test sizes and the main size */
#define LAB02_POINTS 19        /* the main point, 8 block sizes, 5 resident warps, 5 grids */
#define H200_SMS 132

static const char *const THEO = "sm__maximum_warps_per_active_cycle_pct";
static const char *const BLOCKS = "warplab__active_blocks_per_sm";
static const char *const REGS = "launch__registers_per_thread";
static const char *const STACK = "warplab__stack_frame_bytes";
static const char *const SPILL = "warplab__spill_store_bytes";
static const char *const LOCAL_LD = "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum";
static const char *const LOCAL_ST = "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum";
static const char *const CYCLES = "sm__cycles_elapsed.avg";
static const char *const UNIFORM = "smsp__sass_average_branch_targets_threads_uniform.pct";

/* ---- the H200's occupancy rules, from the CUDA Programming Guide's sm_90 limits ---- */

/* Blocks of `threads` threads with `regs` registers per thread and `smem` bytes of shared
   memory (static and dynamic) that one H200 SM holds at once: 64 warps, 32 blocks; 65,536
   registers in four sub-partitions of 16,384, a warp's registers rounded up to 256; 228 KB
   of shared memory, each block's plus its 1 KB reserve rounded up to 128 bytes. Each
   resource's own limit goes in lim[] (in the order of h200_limit_names), INT_MAX for none. */
enum { BY_WARPS, BY_REGS, BY_SMEM, BY_BLOCKS, H200_LIMITS };
static const char *const h200_limit_names[H200_LIMITS] = {"warps", "registers", "shared_mem",
                                                          "blocks"};

static int h200_limits(int threads, int regs, int smem, int lim[H200_LIMITS])
{
  int warps = (threads + 31) / 32;
  lim[BY_WARPS] = 64 / warps;
  lim[BY_BLOCKS] = 32;
  lim[BY_REGS] = INT_MAX;
  if (regs > 0) {
    int per_warp = (regs * 32 + 255) / 256 * 256;
    lim[BY_REGS] = 16384 / per_warp * 4 / warps;
    if (per_warp * ((warps + 3) / 4 * 4) > 65536)
      lim[BY_REGS] = 0;
  }
  int alloc = (smem + 1024 + 127) / 128 * 128;
  lim[BY_SMEM] = 233472 / alloc;
  int min = INT_MAX;
  for (int k = 0; k < H200_LIMITS; k++)
    min = lim[k] < min ? lim[k] : min;
  return min;
}

static int h200_blocks(int threads, int regs, int smem)
{
  int lim[H200_LIMITS];
  return h200_limits(threads, regs, smem, lim);
}

/* The resources that set h200_blocks, as warplab names them: "warps+registers". */
static const char *h200_limited_by(int threads, int regs, int smem)
{
  int lim[H200_LIMITS];
  int min = h200_limits(threads, regs, smem, lim);
  char *out = e2e_alloc(64);
  for (int k = 0; k < H200_LIMITS; k++)
    if (lim[k] == min)
      snprintf(out + strlen(out), 64 - strlen(out), "%s%s", out[0] ? "+" : "", h200_limit_names[k]);
  return out;
}

static double h200_occupancy(int threads, int regs, int smem)
{
  return 100.0 * h200_blocks(threads, regs, smem) * ((threads + 31) / 32) / 64.0;
}

/* ---- results ---- */

static double value(json_t *p, const char *name)
{
  json_t *v = e2e_j(p, e2e_fmt("metrics/%s/value", name));
  const char *label = json_string_value(json_object_get(p, "label"));
  ck_assert_msg(json_is_number(v), "point %s has no %s", label, name);
  return json_number_value(v);
}

static long dim(json_t *p, const char *what)
{
  json_t *a = json_object_get(p, what);
  ck_assert_msg(json_is_array(a) && json_array_size(a) == 3, "a point without %s", what);
  return (long)(json_integer_value(json_array_get(a, 0)) * json_integer_value(json_array_get(a, 1)) *
                json_integer_value(json_array_get(a, 2)));
}

static json_t *main_point(const struct e2e_run *r)
{
  json_t *p = e2e_j(r->json, "points/0");
  ck_assert_msg(p && !strcmp(json_string_value(json_object_get(p, "sweep")), ""), "%s: no main "
                "point\n%.2000s", r->cmd, r->out);
  return p;
}

/* warplab run 02 on the emulator: the reference solution with its sweeps (kernel_file NULL),
   or another kernel file with --quick. */
static struct e2e_run *run02(const char *kernel_file)
{
  const char *res = e2e_tmp("results");
  if (!kernel_file)
    return e2e_warplab("run", "02", "--solution", "--backend", "emu", "--json", "--results", res,
                       (char *)NULL);
  return e2e_warplab("run", "02", "--kernel-file", kernel_file, "--backend", "emu", "--json",
                     "--results", res, "--quick", (char *)NULL);
}

static void expect_all_passed(const struct e2e_run *r)
{
  ck_assert_msg(r->status == 0, "%s exited %d\n%.3000s\n%.2000s", r->cmd, r->status, r->out, r->err);
  ck_assert(json_is_true(e2e_j(r->json, "all_passed")));
  ck_assert_int_eq(json_array_size(e2e_j(r->json, "tests")), LAB02_CHECKS);
}

static void expect_answer(json_t *lab, const char *id, double want, double tol)
{
  double got = e2e_rubric_answer(lab, id);
  ck_assert_msg(fabs(want - got) <= tol, "%s: the rubric's answer is %g, first principles give %g",
                id, got, want);
}

/* ---- the reference solution ---- */

START_TEST(lab02_solution_occupancy_from_first_principles)
{
  struct e2e_run *r = run02(NULL);
  expect_all_passed(r);
  json_t *pts = e2e_j(r->json, "points");
  ck_assert_int_eq(json_array_size(pts), LAB02_POINTS);
  size_t i;
  json_t *p;
  json_array_foreach(pts, i, p) {
    const char *label = json_string_value(json_object_get(p, "label"));
    ck_assert_msg(json_is_true(json_object_get(p, "correct")), "point %s is wrong", label);
    int threads = (int)dim(p, "block"), regs = (int)value(p, REGS);
    int smem = (int)json_integer_value(json_object_get(p, "smem"));  /* the kernel has no static */
    ck_assert_msg(value(p, BLOCKS) == h200_blocks(threads, regs, smem), "point %s: %g blocks per "
                  "SM, the rules give %d", label, value(p, BLOCKS), h200_blocks(threads, regs, smem));
    ck_assert_msg(fabs(value(p, THEO) - h200_occupancy(threads, regs, smem)) < 1e-9, "point %s: "
                  "theoretical occupancy %g%%, the rules give %g%%", label, value(p, THEO),
                  h200_occupancy(threads, regs, smem));
    ck_assert_msg(value(p, STACK) == 0 && value(p, SPILL) == 0 && value(p, LOCAL_LD) == 0 &&
                  value(p, LOCAL_ST) == 0, "point %s uses local memory", label);
  }
  /* the resident-warps sweep holds 128-thread blocks to WARPS / 4 per SM: WARPS / 64 */
  const int warps[] = {64, 32, 16, 8, 4};
  for (size_t k = 0; k < sizeof warps / sizeof *warps; k++)
    ck_assert_double_eq_tol(value(e2e_point(r, "resident warps", e2e_fmt("128x%d", warps[k])), THEO),
                            100.0 * warps[k] / 64, 1e-9);
  /* one block per SM at a time: 132 blocks are one wave, 133 two, 264 two half-size ones,
     297 and 594 three and five waves of blocks 132/297 and 132/594 of the first's size.
     When a block's time follows its share, cycles go as waves x 132 / GRID (the modelled
     second wave of 133 runs alone and faster, so only its lower bound is held) */
  double c132 = value(e2e_point(r, "waves", "256x8x132"), CYCLES);
  ck_assert_msg(value(e2e_point(r, "waves", "256x8x133"), CYCLES) > 1.4 * c132, "133 blocks: %g "
                "cycles, 132: %g", value(e2e_point(r, "waves", "256x8x133"), CYCLES), c132);
  const int grid[] = {264, 297, 594};
  for (size_t k = 0; k < sizeof grid / sizeof *grid; k++) {
    int waves = (grid[k] + H200_SMS - 1) / H200_SMS;
    double want = (double)waves * H200_SMS / grid[k];
    double got = value(e2e_point(r, "waves", e2e_fmt("256x8x%d", grid[k])), CYCLES) / c132;
    ck_assert_msg(fabs(got - want) < 0.08 * want, "GRID %d: %.3f times the cycles of 132 blocks, "
                  "%d waves say %.3f", grid[k], got, waves, want);
  }
  /* the handout's answers: q1-q3 at 32 registers (any count up to 32 gives the same) */
  json_t *lab = e2e_load_json("labs/02-occupancy/lab.json");
  expect_answer(lab, "q1", h200_occupancy(32, 32, 0), 1e-9);
  expect_answer(lab, "q2", h200_occupancy(768, 32, 0), 1e-9);
  expect_answer(lab, "q3", h200_occupancy(96, 32, 0), 0.05);
  ck_assert_double_eq_tol(value(e2e_point(r, "block size", "32"), THEO), h200_occupancy(32, 32, 0), 1e-9);
  ck_assert_double_eq_tol(value(e2e_point(r, "block size", "768"), THEO), h200_occupancy(768, 32, 0), 1e-9);
  ck_assert_double_eq_tol(value(e2e_point(r, "block size", "96"), THEO), h200_occupancy(96, 32, 0), 1e-9);
  expect_answer(lab, "q9", (133 + H200_SMS - 1) / H200_SMS, 0);
  expect_answer(lab, "q10", 3.0 * H200_SMS / 297, 0.001);
  json_decref(lab);
}
END_TEST

/* ---- the calculator ---- */

START_TEST(lab02_calculator_staircases)
{
  const int regs[] = {16, 32, 40, 56, 72, 118, 128, 255};
  for (size_t k = 0; k < sizeof regs / sizeof *regs; k++) {
    struct e2e_run *r = e2e_warplab("occupancy", "--regs", e2e_fmt("%d", regs[k]), "--block", "32",
                                    "--table", "--json", (char *)NULL);
    ck_assert_msg(r->status == 0 && r->json, "%s\n%s", r->cmd, r->err);
    json_t *table = e2e_j(r->json, "table");
    ck_assert_int_eq(json_array_size(table), 32);       /* 32, 64, ... 1024 */
    size_t i;
    json_t *row;
    json_array_foreach(table, i, row) {
      int block = (int)json_integer_value(json_object_get(row, "block"));
      ck_assert_int_eq(block, 32 * (int)(i + 1));
      ck_assert_msg(json_integer_value(json_object_get(row, "active_blocks")) ==
                    h200_blocks(block, regs[k], 0), "%d registers, block %d", regs[k], block);
      ck_assert_double_eq_tol(json_number_value(json_object_get(row, "occupancy_pct")),
                              h200_occupancy(block, regs[k], 0), 1e-9);
    }
  }
  /* shared memory: 256 threads, 32 registers, 0 to 227 KB a block */
  for (int kb = 0; kb <= 227; kb += 11) {
    struct e2e_run *r = e2e_warplab("occupancy", "--regs", "32", "--block", "256", "--dyn-smem",
                                    e2e_fmt("%d", kb * 1024), "--json", (char *)NULL);
    ck_assert_msg(r->status == 0 && r->json, "%s\n%s", r->cmd, r->err);
    ck_assert_double_eq_tol(json_number_value(e2e_j(r->json, "result/occupancy_pct")),
                            h200_occupancy(256, 32, kb * 1024), 1e-9);
  }
  json_t *lab = e2e_load_json("labs/02-occupancy/lab.json");
  expect_answer(lab, "q4", h200_occupancy(128, 72, 0), 0.01);
  expect_answer(lab, "q5", h200_occupancy(256, 32, 49152), 1e-9);
  json_decref(lab);
}
END_TEST

/* ---- occupancy.sh: the calculator's staircases as charts ---- */

struct stair_point {
  int block, regs, smem;      /* the point's choices */
  double pct;                 /* theoretical occupancy, % */
  int blocks;                 /* blocks per SM */
  const char *limited_by;     /* "warps+registers" */
};

/* DIR/CHART/result.json, as occupancy.sh wrote it. */
static json_t *stair_result(const char *dir, const char *chart)
{
  json_error_t je;
  const char *path = e2e_fmt("%s/%s/result.json", dir, chart);
  json_t *r = json_load_file(path, 0, &je);
  ck_assert_msg(r != NULL, "%s:%d: %s", path, je.line, je.text);
  return r;
}

/* The points of result r whose choice `key` is `val`, in the order written; returns how many. */
static int stair_points(json_t *r, const char *key, int val, struct stair_point *out, int max)
{
  int n = 0;
  size_t i;
  json_t *p;
  json_array_foreach(json_object_get(r, "points"), i, p) {
    if (json_integer_value(e2e_j(p, e2e_fmt("choices/%s", key))) != val)
      continue;
    ck_assert_int_lt(n, max);
    struct stair_point *s = &out[n++];
    s->block = (int)json_integer_value(e2e_j(p, "choices/BLOCK"));
    s->regs = (int)json_integer_value(e2e_j(p, "choices/REGS"));
    s->smem = (int)json_integer_value(e2e_j(p, "choices/SMEM"));
    s->pct = json_number_value(e2e_j(p, "metrics/sm__maximum_warps_per_active_cycle_pct/value"));
    s->blocks = (int)json_number_value(e2e_j(p, "metrics/warplab__active_blocks_per_sm/value"));
    char *lim = e2e_alloc(64);
    size_t k;
    json_t *w;
    json_array_foreach(json_object_get(p, "limited_by"), k, w)
      snprintf(lim + strlen(lim), 64 - strlen(lim), "%s%s", k ? "+" : "", json_string_value(w));
    s->limited_by = lim;
  }
  return n;
}

/* A point's occupancy, blocks and limits are the rules'. */
static void expect_rules(const struct stair_point *p)
{
  ck_assert_msg(fabs(p->pct - h200_occupancy(p->block, p->regs, p->smem)) < 1e-9 &&
                p->blocks == h200_blocks(p->block, p->regs, p->smem) &&
                !strcmp(p->limited_by, h200_limited_by(p->block, p->regs, p->smem)),
                "block %d, %d registers, %d B: %g%%, %d blocks, limited by %s; the rules give "
                "%g%%, %d blocks, %s", p->block, p->regs, p->smem, p->pct, p->blocks,
                p->limited_by, h200_occupancy(p->block, p->regs, p->smem),
                h200_blocks(p->block, p->regs, p->smem), h200_limited_by(p->block, p->regs, p->smem));
}

/* A swept resource's points are the two ends of every step from lo to hi: each point is the
   rules' answer; where two neighbours agree, so does every value between them (checked at
   each register, each byte); where they differ, they are `step` apart (one register, 128
   bytes); no point lies inside a flat run. */
static void expect_steps(const struct stair_point *p, int n, int by_regs, int lo, int hi, int step)
{
#define X(q) (by_regs ? (q)->regs : (q)->smem)
  ck_assert_int_gt(n, 1);
  ck_assert_int_eq(X(&p[0]), lo);
  ck_assert_int_eq(X(&p[n - 1]), hi);
  for (int i = 0; i < n; i++) {
    expect_rules(&p[i]);
    if (i == 0)
      continue;
    ck_assert_int_gt(X(&p[i]), X(&p[i - 1]));
    if (p[i].pct != p[i - 1].pct) {
      ck_assert_msg(X(&p[i]) - X(&p[i - 1]) == step, "block %d: a step from %d to %d", p[i].block,
                    X(&p[i - 1]), X(&p[i]));
      continue;
    }
    ck_assert_msg(i == 1 || p[i - 2].pct != p[i].pct, "block %d: %d lies inside a flat run",
                  p[i].block, X(&p[i - 1]));
    for (int v = X(&p[i - 1]); v <= X(&p[i]); v++) {
      double want = by_regs ? h200_occupancy(p[i].block, v, p[i].smem)
                            : h200_occupancy(p[i].block, p[i].regs, v);
      ck_assert_msg(want == p[i].pct, "block %d: flat from %d to %d at %g%%, but %d gives %g%%",
                    p[i].block, X(&p[i - 1]), X(&p[i]), p[i].pct, v, want);
    }
  }
#undef X
}

/* The data lines of a chart's .dat file: what warplab charts drew. */
static int dat_lines(const char *path)
{
  char *text = e2e_read_text(path);
  int n = 0;
  for (char *l = text; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l))
    n += *l != '#' && *l != '\n';
  return n;
}

/* occupancy.sh: every point of its three charts against the rules above, and the steps it
   prints. */
START_TEST(lab02_occupancy_script)
{
  const char *dir = e2e_tmp("stairs"), *log = e2e_tmp("stairs.out");
  int st = system(e2e_fmt("CHARTS='%s' sh labs/02-occupancy/occupancy.sh > '%s' 2>&1", dir, log));
  char *out = e2e_read_text(log);
  ck_assert_msg(st == 0, "occupancy.sh exited %d:\n%s", st, out);
  struct stair_point *p = e2e_alloc(256 * sizeof *p);

  /* threads per block: every whole number of warps, at 32, 64 and 128 registers */
  json_t *r = stair_result(dir, "block");
  static const int regs[] = {32, 64, 128};
  for (int k = 0; k < 3; k++) {
    ck_assert_int_eq(stair_points(r, "REGS", regs[k], p, 256), 32);
    for (int i = 0; i < 32; i++) {
      ck_assert_int_eq(p[i].block, 32 * (i + 1));
      expect_rules(&p[i]);
      double want = h200_occupancy(p[i].block, regs[k], 0);
      const char *pct = want == 0 ? "none" : e2e_fmt("%.2f%%", want);
      if (k == 0)   /* the printed table's first column */
        ck_assert_msg(strstr(out, e2e_fmt("\n%6d  %7s %-22s", p[i].block, pct,
                                          h200_limited_by(p[i].block, 32, 0))) != NULL,
                      "no row for %d threads in\n%s", p[i].block, out);
    }
  }
  json_decref(r);
  ck_assert_int_eq(dat_lines(e2e_fmt("%s/block/staircase_block.dat", dir)), 96);

  /* registers per thread, 16 to 255, and shared memory, none to 228 KB, at 128 and 256 threads */
  json_t *rr = stair_result(dir, "registers"), *rs = stair_result(dir, "smem");
  int drawn_r = 0, drawn_s = 0;
  for (int block = 128; block <= 256; block += 128) {
    int n = stair_points(rr, "BLOCK", block, p, 256);
    expect_steps(p, n, 1, 16, 255, 1);
    for (int i = 1; i < n; i++)
      if (p[i].pct == p[i - 1].pct)
        ck_assert_msg(strstr(out, e2e_fmt("  %-22s %2d block", e2e_fmt("%d to %d registers",
                                          p[i - 1].regs, p[i].regs), p[i].blocks)) != NULL,
                      "no step %d to %d registers (%d blocks of %d) in\n%s", p[i - 1].regs,
                      p[i].regs, p[i].blocks, block, out);
    drawn_r += n;
    n = stair_points(rs, "BLOCK", block, p, 256);
    expect_steps(p, n, 0, 0, 233472, 128);
    ck_assert_int_eq(p[0].regs, 32);
    ck_assert_int_eq(p[n - 1].blocks, 0);   /* 228 KB and the 1 KB reserve: none fits */
    drawn_s += n;
  }
  json_decref(rr);
  json_decref(rs);
  ck_assert_int_eq(dat_lines(e2e_fmt("%s/registers/staircase_registers.dat", dir)), drawn_r);
  ck_assert_int_eq(dat_lines(e2e_fmt("%s/smem/staircase_smem.dat", dir)), drawn_s);
}
END_TEST

/* __launch_bounds__(256, 4): 4 blocks of 256 threads in 65,536 registers leave 64 a thread;
   the 8x8 micro-tile wants more and spills what does not fit */
START_TEST(lab02_launch_bounds_spill)
{
  const char *tile = "labs/02-occupancy/tile.cu";
  struct e2e_run *free8 = e2e_warplab("occupancy", tile, "--kernel", "gemm8x8", "--block", "256",
                                      "--json", (char *)NULL);
  struct e2e_run *cap = e2e_warplab("occupancy", tile, "--kernel", "gemm8x8_bounded", "--block", "256",
                                    "--json", (char *)NULL);
  ck_assert_msg(free8->status == 0 && cap->status == 0, "%s\n%s\n%s", free8->err, cap->cmd, cap->err);
  long long want = 65536 / (4 * 256);
  ck_assert_int_gt(e2e_jint(free8, "ptxas/registers"), want);
  ck_assert_int_eq(e2e_jint(free8, "ptxas/spill_stores"), 0);
  ck_assert_int_eq(e2e_jint(cap, "ptxas/registers"), want);
  ck_assert_int_gt(e2e_jint(cap, "ptxas/spill_stores"), 0);
  ck_assert_int_gt(e2e_jint(cap, "ptxas/stack_frame"), 0);
  ck_assert_int_eq(e2e_jint(cap, "result/active_blocks"), 4);
  json_t *lab = e2e_load_json("labs/02-occupancy/lab.json");
  expect_answer(lab, "q6", (double)want, 0);
  json_decref(lab);
}
END_TEST

/* The four-SM teaching profile: "the busiest, N blocks, M at a time" of the timing model. */
static void busiest(const struct e2e_run *r, int *blocks, int *at_a_time)
{
  const char *how = e2e_jstr(r, "timing_model");
  const char *at = strstr(how, "the busiest, ");
  ck_assert_msg(at && sscanf(at, "the busiest, %d blocks, %d at a time", blocks, at_a_time) == 2,
                "%s", how);
}

static struct e2e_run *tile_emu(const char *kernel, const char *grid, int m, int n, int k,
                                const char *smem)
{
  return e2e_emu("labs/02-occupancy/tile.cu", "--kernel", kernel, "--grid", grid, "--block", "16,16",
                 "--profile", "labs/02-occupancy/four-sm.conf", "--smem", smem, "--json",
                 "--arg", e2e_fmt("f32buf:%d:rand:1", m * k), "--arg", e2e_fmt("f32buf:%d:rand:2", k * n),
                 "--arg", e2e_fmt("f32buf:%d:zero", m * n), "--arg", e2e_fmt("i32:%d", m),
                 "--arg", e2e_fmt("i32:%d", n), "--arg", e2e_fmt("i32:%d", k), (char *)NULL);
}

START_TEST(lab02_four_sms)
{
  /* 384 x 384 x 128 in 9 tiles of 128 x 128 or 18 of 128 x 64, one block per SM at a time */
  struct e2e_run *t9 = tile_emu("gemm8x8", "3,3", 384, 384, 128, "131072");
  struct e2e_run *t18 = tile_emu("gemm8x4", "6,3", 384, 384, 128, "131072");
  e2e_expect_ok(t9);
  e2e_expect_ok(t18);
  int b9, a9, b18, a18;
  busiest(t9, &b9, &a9);
  busiest(t18, &b18, &a18);
  ck_assert_int_eq(a9, 1);
  ck_assert_int_eq(a18, 1);
  ck_assert_int_eq(b9, (9 + 3) / 4);
  ck_assert_int_eq(b18, (18 + 3) / 4);
  json_t *lab = e2e_load_json("labs/02-occupancy/lab.json");
  expect_answer(lab, "q7", 100.0 * 9 / (4 * b9), 1e-9);
  expect_answer(lab, "q8", 100.0 * 18 / (4 * b18), 1e-9);
  json_decref(lab);
  /* higher occupancy is not always faster: 256 x 256 x 32 with 1x1 micro-tiles (32 registers,
     100%) and 2x2 ones (about 34 registers, 75%): fewer loads per FMA win */
  struct e2e_run *m1 = tile_emu("gemm1x1", "16,16", 256, 256, 32, "0");
  struct e2e_run *m2 = tile_emu("gemm2x2", "8,8", 256, 256, 32, "0");
  e2e_expect_ok(m1);
  e2e_expect_ok(m2);
  double o1 = json_number_value(e2e_j(m1->json, "occupancy/occupancy_pct"));
  double o2 = json_number_value(e2e_j(m2->json, "occupancy/occupancy_pct"));
  double c1 = json_number_value(e2e_j(m1->json, "metrics/sm__cycles_elapsed.avg/value"));
  double c2 = json_number_value(e2e_j(m2->json, "metrics/sm__cycles_elapsed.avg/value"));
  ck_assert_msg(o2 < o1 && c2 < c1, "2x2: %g%%, %g cycles; 1x1: %g%%, %g cycles", o2, c2, o1, c1);
}
END_TEST

/* ---- the starter and wrong kernels ---- */

START_TEST(lab02_starter_local_memory)
{
  struct e2e_run *r = run02("labs/02-occupancy/median.cu");
  expect_all_passed(r);        /* right, but slow: the grade (below) says why */
  json_t *p = main_point(r);
  ck_assert_int_eq((int)json_integer_value(e2e_j(p, "choices/BLOCK")), 32);
  ck_assert_double_eq_tol(value(p, THEO), h200_occupancy(32, (int)value(p, REGS), 0), 1e-9);
  ck_assert_double_eq_tol(value(p, THEO), 50.0, 1e-9);
  ck_assert_msg(value(p, STACK) >= 36, "the window of 9 floats in local memory: stack frame %g B",
                value(p, STACK));
  ck_assert(value(p, LOCAL_LD) > 0 && value(p, LOCAL_ST) > 0);
  ck_assert_msg(value(p, UNIFORM) < 50, "the insertion sort's loop splits warps: %g%% uniform",
                value(p, UNIFORM));
  int line = e2e_marker_line("labs/02-occupancy/median.cu", "w[b + 1] = w[b];");
  int found = 0;
  size_t i;
  json_t *h;
  json_array_foreach(e2e_j(r->json, "hotspots"), i, h)
    found |= json_integer_value(json_object_get(h, "line")) == line &&
             strstr(json_string_value(json_object_get(h, "finding")), "local memory") != NULL;
  ck_assert_msg(found, "no local-memory hint at median.cu:%d\n%.2000s", line, r->out);
}
END_TEST

/* Spills exist only in ptxas's machine code: the PTX, and so the emulator's counters, have
   no local memory; ptxas's stack frame has it. */
START_TEST(lab02_spill_shows_in_the_stack_frame)
{
  struct e2e_run *r = run02("tests/e2e/lab02/spill.cu");
  expect_all_passed(r);
  json_t *p = main_point(r);
  ck_assert_int_eq((int)value(p, REGS), 65536 / (2 * 1024));
  ck_assert(value(p, STACK) > 0 && value(p, SPILL) > 0);
  ck_assert(value(p, LOCAL_LD) == 0 && value(p, LOCAL_ST) == 0);
}
END_TEST

/* The opposite: the PTX stores to and loads from a local array, which ptxas keeps in
   registers (no stack frame): the emulator's local counters are PTX-level. */
START_TEST(lab02_local_in_ptx_only)
{
  struct e2e_run *r = run02("tests/e2e/lab02/rank_local.cu");
  expect_all_passed(r);
  json_t *p = main_point(r);
  ck_assert(value(p, LOCAL_ST) > 0);
  ck_assert_msg(value(p, STACK) == 0, "ptxas kept a stack frame of %g B", value(p, STACK));
}
END_TEST

/* The score of each kind of grade item, from warplab grade's JSON. */
static double part(const struct e2e_run *r, const char *prefix)
{
  double sum = 0;
  size_t i;
  json_t *t;
  json_array_foreach(e2e_j(r->json, "tests"), i, t) {
    const char *name = json_string_value(json_object_get(t, "name"));
    if (name && !strncmp(name, prefix, strlen(prefix)))
      sum += json_number_value(json_object_get(t, "score"));
  }
  return sum;
}

/* The starter handed in with the solution's answers: every check right, no metric target
   (a stack frame, one-warp blocks), and more than twice the solution's time. */
START_TEST(lab02_grade_starter)
{
  const char *sub = e2e_tmp("bob");
  char *cmd = e2e_fmt("mkdir -p '%s' && cp labs/02-occupancy/median.cu "
                      "solutions/02-occupancy/answers.json '%s/'", sub, sub);
  ck_assert_int_eq(system(cmd), 0);
  struct e2e_run *r = e2e_warplab("grade", "02", sub, "--backend", "emu", "--json", "--out",
                                  e2e_tmp("graded"), (char *)NULL);
  ck_assert_msg(r->status == 0, "%s\n%.3000s\n%.2000s", r->cmd, r->out, r->err);
  ck_assert_msg(fabs(part(r, "correctness") - 50) < 1e-9 && fabs(part(r, "question") - 10) < 1e-9,
                "correctness %g, questions %g\n%.3000s", part(r, "correctness"), part(r, "question"),
                r->out);
  ck_assert_msg(part(r, "metric target") == 0 && part(r, "performance") == 0, "targets %g, "
                "performance %g\n%.3000s", part(r, "metric target"), part(r, "performance"), r->out);
  ck_assert_ptr_nonnull(strstr(e2e_jstr(r, "output"), "warplab__stack_frame_bytes"));
}
END_TEST

/* A point the profile refuses to launch (a Fermi holds no 48 KB of shared memory beside
   these blocks) has no result of the kernel's, but its occupancy figures, as every point
   launched: the registers, the blocks an SM holds, the theoretical occupancy. (They were
   lost once, when a measured launch took its figures after the check: the refused launch
   never got there.) */
START_TEST(lab02_refused_points_keep_occupancy)
{
  struct e2e_run *r = e2e_warplab("run", "02", "--solution", "--backend", "emu", "--arch",
                                  "fermi-m2070", "--json", "--results", e2e_tmp("results"),
                                  (char *)NULL);
  ck_assert_msg(r->status == 0, "%s\n%.3000s\n%.2000s", r->cmd, r->out, r->err);
  json_t *pts = e2e_j(r->json, "points");
  size_t i, refused = 0;
  json_t *p;
  json_array_foreach(pts, i, p) {
    const char *problem = json_string_value(json_object_get(p, "problem"));
    if (!problem || !strstr(problem, "refuses this launch"))
      continue;
    refused++;
    ck_assert(value(p, "launch__registers_per_thread") > 0);
    ck_assert(value(p, "warplab__active_blocks_per_sm") == 0);
    ck_assert(value(p, "sm__maximum_warps_per_active_cycle_pct") == 0);
  }
  ck_assert_msg(refused >= 3, "%zu refused points\n%.3000s", refused, r->out);
}
END_TEST

START_TEST(lab02_grade_solution_full_marks)
{
  e2e_expect_full_marks("02", "solutions/02-occupancy");
}
END_TEST

void e2e_add_lab02_tests(Suite *s)
{
  if (!e2e_have_nvcc()) {
    printf("e2e: nvcc not found: SKIPPING the 10 tests of lab 02\n");
    return;
  }
  TCase *tc = tcase_create("lab02");
  tcase_add_checked_fixture(tc, e2e_setup, e2e_teardown);
  tcase_set_timeout(tc, LAB02_TIMEOUT_S);
  tcase_add_test(tc, lab02_solution_occupancy_from_first_principles);
  tcase_add_test(tc, lab02_calculator_staircases);
  tcase_add_test(tc, lab02_occupancy_script);
  tcase_add_test(tc, lab02_launch_bounds_spill);
  tcase_add_test(tc, lab02_four_sms);
  tcase_add_test(tc, lab02_starter_local_memory);
  tcase_add_test(tc, lab02_spill_shows_in_the_stack_frame);
  tcase_add_test(tc, lab02_local_in_ptx_only);
  tcase_add_test(tc, lab02_grade_starter);
  tcase_add_test(tc, lab02_grade_solution_full_marks);
  tcase_add_test(tc, lab02_refused_points_keep_occupancy);
  suite_add_tcase(s, tc);
}
