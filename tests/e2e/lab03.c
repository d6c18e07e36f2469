/* lab03.c: end-to-end tests of lab 03 (latency hiding), on the emulator.
 *
 * The reference solution passes every test size, and its sweeps show what Little's law says
 * (the timing model's times, so the figures are the model's; the margins below are wide
 * enough for a model that is within the 25% issue 4 asked of it, and narrow enough that a
 * model or a kernel that no longer hides latency fails):
 *   - at UNROLL 1 a warp has 32 elements in flight (2 loads, 256 bytes), and the H200 needs
 *     about 2,300 per SM under load (3.8 TB/s, 12 bytes an element, ~1,900 cycles): below 64
 *     warps the time grows as the warps shrink, by at least 1.3x per halving;
 *   - at UNROLL 8 (2 KB per warp) 16 warps are as fast as 64 (within 10%);
 *   - at the lab's 8 warps, UNROLL 4 and 8 beat UNROLL 1 by 2x and 2.5x or more, each UNROLL
 *     faster than the one before;
 *   - at 64 warps UNROLL 1 is within 15% of UNROLL 8: 2,048 elements in flight, near the knee.
 * Exact figures are checked exactly: 2n/32 load requests of 4 sectors each, the theoretical
 * occupancy each WARPS asks for. The starter fails its tests with unwritten outputs; a kernel
 * without the tail loop is caught at its first unwritten element; a kernel that unrolls over
 * neighbouring elements is right but makes 32 sectors per request; the grade gives the
 * solution with its answers every point and takes the occupancy target from a file that
 * sets WARPS itself.
 * The charts: the run's bandwidth chart holds every point's 12 n bytes over its time (less a
 * launch's) and,
 * beside it and along the warps, Little's law with the H200 profile's numbers; fma.sh and
 * staircase.sh chart the emulator's figures, the H200's and the profile's prediction (the
 * formulas are computed here again from harness/arch/h200.conf).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"
#include "metrics/occ.h"

#define LAB03_TIMEOUT_S 300
#define LAB03_N 8650752.0   /* lab.json's emulator size */

static struct e2e_run *run03(const char *kernel_file, int quick)
{
  const char *res = e2e_tmp("results");
  if (!kernel_file)
    return e2e_warplab("run", "03", "--solution", "--backend", "emu", "--json", "--results", res,
                       quick ? "--quick" : (char *)NULL, (char *)NULL);
  return e2e_warplab("run", "03", "--kernel-file", kernel_file, "--backend", "emu", "--json",
                     "--results", res, quick ? "--quick" : (char *)NULL, (char *)NULL);
}

static json_t *test_labelled(const struct e2e_run *r, const char *label)
{
  json_t *tests = e2e_j(r->json, "tests"), *t;
  size_t i;
  json_array_foreach(tests, i, t) {
    const char *l = json_string_value(json_object_get(t, "label"));
    if (l && !strncmp(l, label, strlen(label)))
      return t;
  }
  ck_abort_msg("%s: no test labelled '%s'\n%.2000s", r->cmd, label, r->out);
  return NULL;
}

static double metric(json_t *p, const char *name)
{
  json_t *v = e2e_j(p, e2e_fmt("metrics/%s/value", name));
  ck_assert_msg(json_is_number(v), "no metric %s in %s", name,
                json_string_value(json_object_get(p, "label")));
  return json_number_value(v);
}

static double time_of(const struct e2e_run *r, const char *sweep, const char *label)
{
  json_t *p = e2e_point(r, sweep, label);
  ck_assert_str_eq(json_string_value(json_object_get(p, "time_kind")), "modelled");
  return metric(p, "gpu__time_duration.sum");
}

static struct occ_profile h200(void)
{
  struct occ_profile p;
  struct occ_error e;
  ck_assert_msg(occ_profile_load("h200", &p, &e) == OCC_OK, "%s", e.msg);
  return p;
}

/* The data lines of block `index` of a line chart's data file (comments left out), in
   order, into lines (at most max); how many. */
static int dat_block(const char *text, int index, char lines[][256], int max)
{
  int block = 0, n = 0, blank = 0;
  for (const char *p = text; *p;) {
    size_t len = strcspn(p, "\n");
    if (len == 0) {
      if (++blank == 2)
        block++;
    } else {
      blank = 0;
      if (p[0] != '#' && block == index && n < max)
        snprintf(lines[n++], sizeof lines[0], "%.*s", (int)len, p);
    }
    p += len + (p[len] == '\n');
  }
  return n;
}

/* Little's law for the triad: W warps per SM, each with 32 x UNROLL elements of 12 bytes on
   their way, over the DRAM latency, capped by the DRAM's bandwidth; GB/s. */
static double triad_little(const struct occ_profile *p, double warps, double unroll)
{
  return fmin(p->dram_bandwidth_gbs, warps * 32 * unroll * 12 * p->sm_count * p->sm_clock_mhz /
              1000 / p->dram_cycles);
}

/* bandwidth.dat of the solution's run: per sweep over warps (UNROLL 1, then the solution's
   8), five points in the order of the warps, each 12 n bytes over its own time less a
   launch's, and the prediction of the formula; then each sweep's prediction along 4 to 64
   warps. */
static void check_bandwidth_chart(const struct e2e_run *r)
{
  const char *dir = json_string_value(e2e_j(r->json, "results_dir"));
  ck_assert_ptr_nonnull(dir);
  char *text = e2e_read_text(e2e_fmt("%s/bandwidth.dat", dir));
  ck_assert_msg(text != NULL, "no bandwidth.dat in %s", dir);
  struct occ_profile p = h200();
  static const char *const sweeps[] = {"warps, UNROLL 1", "warps, your UNROLL"};
  static const double warps[] = {4, 8, 16, 32, 64};
  for (int k = 0; k < 2; k++) {
    double unroll = k ? 8 : 1;
    char lines[8][256];
    ck_assert_int_eq(dat_block(text, k, lines, 8), 5);
    for (int i = 0; i < 5; i++) {
      char label[64];
      double x, bw, pred;
      ck_assert_msg(sscanf(lines[i], "%63[^\t]\t%lf\t%lf\t%lf", label, &x, &bw, &pred) == 4, "%s",
                    lines[i]);
      ck_assert_msg(x == warps[i], "%s: x %g", lines[i], x);
      char *mark = strstr(label, " (yours)");
      if (mark)
        *mark = 0;
      /* the time less the launch's fixed cost: the time the loads were on their way */
      double t = metric(e2e_point(r, sweeps[k], label), "gpu__time_duration.sum") -
                 p.launch_overhead_ns;
      ck_assert_msg(fabs(bw - 12 * LAB03_N / t) < 1e-6 * bw, "%s: bandwidth %g, 12 n / time %g",
                    lines[i], bw, 12 * LAB03_N / t);
      double want = triad_little(&p, x, unroll);
      ck_assert_msg(fabs(pred - want) < 1e-6 * want, "%s: prediction %g, Little's law %g",
                    lines[i], pred, want);
      /* the model's DRAM never beats the law's, whose latency is the idle one */
      ck_assert_msg(bw < want, "%s: %g GB/s measured over %g predicted", lines[i], bw, want);
    }
    char curve[200][256];
    int n = dat_block(text, 2 + k, curve, 200);
    ck_assert_int_gt(n, 50);
    for (int i = 0; i < n; i++) {
      double x, y;
      ck_assert(sscanf(curve[i], "%lf\t%lf", &x, &y) == 2);
      ck_assert(x >= 4 && x <= 64 + 1e-9);
      ck_assert_msg(fabs(y - triad_little(&p, x, unroll)) < 1e-6 * y, "along x, %g warps: %g",
                    x, y);
    }
  }
}

START_TEST(lab03_solution_hides_latency)
{
  struct e2e_run *r = run03(NULL, 0);
  ck_assert_msg(r->status == 0, "%s exited %d\n%.3000s\n%.2000s", r->cmd, r->status, r->out, r->err);
  ck_assert(json_is_true(e2e_j(r->json, "all_passed")));
  ck_assert_int_eq(json_array_size(e2e_j(r->json, "tests")), 6);
  /* the main point, 5 + 5 warp counts and 4 UNROLLs: every one correct, every load coalesced */
  json_t *pts = e2e_j(r->json, "points"), *p;
  ck_assert_int_eq(json_array_size(pts), 15);
  size_t i;
  json_array_foreach(pts, i, p) {
    const char *label = json_string_value(json_object_get(p, "label"));
    ck_assert_msg(json_is_true(json_object_get(p, "correct")), "point %s is wrong", label);
    ck_assert_msg(metric(p, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum") == 2 * LAB03_N / 32,
                  "%s: load requests", label);
    ck_assert_msg(metric(p, "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio") == 4.0,
                  "%s: sectors per request", label);
    long long warps = json_integer_value(e2e_j(p, "choices/WARPS"));
    ck_assert_msg(metric(p, "sm__maximum_warps_per_active_cycle_pct") == 100.0 * (double)warps / 64,
                  "%s: WARPS %lld is not the theoretical occupancy", label, warps);
  }
  ck_assert_str_eq(json_string_value(json_object_get(e2e_point(r, "", "8x8"), "label")), "8x8");

  static const char *const warps[] = {"64", "32", "16", "8", "4"};
  double t1[5], t8[5];
  for (int k = 0; k < 5; k++) {
    t1[k] = time_of(r, "warps, UNROLL 1", e2e_fmt("1x%s", warps[k]));
    t8[k] = time_of(r, "warps, your UNROLL", warps[k]);
  }
  for (int k = 1; k < 5; k++)
    ck_assert_msg(t1[k] > 1.3 * t1[k - 1], "UNROLL 1: %s warps take %.1f us, %s warps %.1f us: "
                  "halving the warps should cost at least 1.3x", warps[k], t1[k] / 1e3,
                  warps[k - 1], t1[k - 1] / 1e3);
  for (int k = 1; k < 3; k++)
    ck_assert_msg(fabs(t8[k] / t8[0] - 1) < 0.10, "UNROLL 8: %s warps take %.1f us, 64 warps "
                  "%.1f us: 2 KB per warp should be enough from 16 warps on", warps[k],
                  t8[k] / 1e3, t8[0] / 1e3);
  ck_assert_msg(t1[0] < 1.15 * t8[0], "64 warps: UNROLL 1 %.1f us, UNROLL 8 %.1f us",
                t1[0] / 1e3, t8[0] / 1e3);
  double u[4];
  static const char *const unroll[] = {"1", "2", "4", "8"};
  for (int k = 0; k < 4; k++)
    u[k] = time_of(r, "unroll", unroll[k]);
  for (int k = 1; k < 4; k++)
    ck_assert_msg(u[k] < u[k - 1], "8 warps: UNROLL %s takes %.1f us, UNROLL %s %.1f us",
                  unroll[k], u[k] / 1e3, unroll[k - 1], u[k - 1] / 1e3);
  ck_assert_msg(u[0] > 2.0 * u[2] && u[0] > 2.5 * u[3], "8 warps: UNROLL 1, 4, 8 take %.1f, %.1f, "
                "%.1f us", u[0] / 1e3, u[2] / 1e3, u[3] / 1e3);
  /* fewer loop trips: fewer instructions for the same elements */
  ck_assert(metric(e2e_point(r, "unroll", "8"), "smsp__inst_executed.sum") <
            metric(e2e_point(r, "unroll", "1"), "smsp__inst_executed.sum"));
  /* x and y read, z written once: 12 bytes an element through DRAM */
  ck_assert(metric(e2e_point(r, "", "8x8"), "dram__bytes.sum") == 12 * LAB03_N);
  check_bandwidth_chart(r);
}
END_TEST

/* Run sh SCRIPT ARGS with the warplab under test, its chart into CHARTS=dir; its output. */
static char *run_script(const char *script, const char *args, const char *dir)
{
  const char *out = e2e_fmt("%s.out", dir);
  int st = system(e2e_fmt("CHARTS='%s' sh labs/03-latency-hiding/%s %s > '%s' 2>&1", dir, script,
                          args, out));
  char *text = e2e_read_text(out);
  ck_assert_msg(st == 0, "%s %s exited %d:\n%s", script, args, st, text ? text : "");
  return text;
}

/* fma.sh's chart: per ILP, the emulator's FMAs per cycle as the script prints them, the H200's
   from its calibration, and fp32_lanes x min(min(W, 4), W x ILP / fma_cycles). staircase.sh's:
   the L1 and the L2 footprints with the profile's load latencies under them. */
START_TEST(lab03_benchmark_charts)
{
  struct occ_profile p = h200();
  const char *dir = e2e_tmp("fma");
  char *out = run_script("fma.sh", "1 4", dir);
  char *text = e2e_read_text(e2e_fmt("%s/fma.dat", dir));
  ck_assert_msg(text != NULL, "fma.sh wrote no chart data:\n%s", out);
  static const double warps[] = {1, 2, 4, 8, 16, 32};
  for (int k = 0; k < 2; k++) {
    double ilp = k ? 4 : 1;
    char lines[8][256];
    ck_assert_int_eq(dat_block(text, k, lines, 8), 6);
    for (int i = 0; i < 6; i++) {
      char label[64];
      double x, emu, gpu, pred;
      ck_assert_msg(sscanf(lines[i], "%63[^\t]\t%lf\t%lf\t%lf\t%lf", label, &x, &emu, &gpu,
                           &pred) == 5, "%s", lines[i]);
      ck_assert(x == warps[i]);
      double want = p.fp32_lanes * fmin(fmin(x, 4), x * ilp / p.fma_cycles);
      ck_assert_msg(pred == want, "%s: prediction %g, the formula %g", lines[i], pred, want);
      /* the printed table's figure (one decimal), and no more than the law allows */
      ck_assert_msg(strstr(out, e2e_fmt("%15.1f\n", emu)) != NULL, "%s: %g not in\n%s",
                    lines[i], emu, out);
      ck_assert_msg(emu <= want * 1.0001 && gpu <= want, "%s: over the prediction", lines[i]);
      ck_assert_msg(emu > 0.5 * want && gpu > 0.5 * want, "%s: far under the prediction",
                    lines[i]);
    }
  }
  dir = e2e_tmp("staircase");
  out = run_script("staircase.sh", "16 1024", dir);
  text = e2e_read_text(e2e_fmt("%s/staircase.dat", dir));
  ck_assert_msg(text != NULL, "staircase.sh wrote no chart data:\n%s", out);
  char lines[4][256];
  ck_assert_int_eq(dat_block(text, 0, lines, 4), 2);
  double kb[2], emu[2], gpu[2], pred[2];
  for (int i = 0; i < 2; i++) {
    char label[64];
    ck_assert_msg(sscanf(lines[i], "%63[^\t]\t%lf\t%lf\t%lf\t%lf", label, &kb[i], &emu[i],
                         &gpu[i], &pred[i]) == 5, "%s", lines[i]);
  }
  ck_assert(kb[0] == 16 && kb[1] == 1024);
  ck_assert(pred[0] == p.l1_hit_cycles && pred[1] == p.l2_hit_cycles);
  ck_assert(gpu[0] == 41.6 && gpu[1] == 372.2);   /* pointer_chase.csv, stride 128 */
  /* a step is the load and the address arithmetic: above the load's latency, not far */
  for (int i = 0; i < 2; i++)
    ck_assert_msg(emu[i] > pred[i] && emu[i] < pred[i] + 40, "%g KB: %g cycles a step, the "
                  "load %g", kb[i], emu[i], pred[i]);
  ck_assert_msg(strstr(out, e2e_fmt("%16.1f\n", emu[1])) != NULL, "%g not in\n%s", emu[1], out);
}
END_TEST

START_TEST(lab03_starter_writes_nothing)
{
  struct e2e_run *r = run03("labs/03-latency-hiding/triad.cu", 1);
  ck_assert_int_eq(r->status, 1);
  json_t *t = test_labelled(r, "n=1 blocks=1");
  ck_assert_str_eq(json_string_value(json_object_get(t, "state")), "fail");
  ck_assert_int_eq(json_integer_value(json_object_get(t, "first_bad")), 0);
  ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(t, "detail")), "never wrote"));
  ck_assert_int_eq(json_array_size(e2e_j(r->json, "points")), 0);
}
END_TEST

START_TEST(lab03_no_tail_first_bad)
{
  struct e2e_run *r = run03("tests/e2e/lab03/no_tail.cu", 1);
  ck_assert_int_eq(r->status, 1);
  /* n = 4097, one block: thread 0 does 4 trips of 8 strides of 128, then element 4096 */
  json_t *t = test_labelled(r, "n=4097 blocks=1");
  ck_assert_str_eq(json_string_value(json_object_get(t, "state")), "fail");
  ck_assert_int_eq(json_integer_value(json_object_get(t, "first_bad")), 4096);
  const char *detail = json_string_value(json_object_get(t, "detail"));
  ck_assert_msg(strstr(detail, "z[4096] is wrong") && strstr(detail, "never wrote"), "%s", detail);
  /* n = 33333, 7 blocks (stride 896): 32 strides done, 28672 the first left */
  t = test_labelled(r, "n=33333 blocks=7");
  ck_assert_int_eq(json_integer_value(json_object_get(t, "first_bad")), 28672);
  /* the main size is 32 whole strides: the bug does not show there */
  ck_assert_str_eq(json_string_value(json_object_get(test_labelled(r, "n=8650752"), "state")), "pass");
}
END_TEST

START_TEST(lab03_neighbours_are_uncoalesced)
{
  struct e2e_run *r = run03("tests/e2e/lab03/neighbours.cu", 1);
  ck_assert_msg(r->status == 0, "%s exited %d\n%.3000s", r->cmd, r->status, r->out);
  json_t *p = e2e_point(r, "", "8x8");
  /* lanes 8 floats apart: a warp-wide load spans 32 sectors of 32 bytes */
  ck_assert(metric(p, "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio") == 32.0);
}
END_TEST

/* A sweep point that differs from the launch before it only in dynamic shared memory the
   kernel cannot see is remodelled on that launch (ms_remodel): its outputs and counters are
   that launch's, its occupancy and timing model its own. The solution's warps sweeps are
   such points; remodelled or launched (WARPLAB_REMODEL=0), every figure and verdict is the
   same. The main configuration is measured on its test's launch (--quick: no launch but
   the tests'), with the figures of a whole run's. A kernel that reads its shared memory's size is launched at every point: its
   verdicts differ from point to point as its outputs do. */
START_TEST(lab03_remodelled_points_match_launched)
{
  struct e2e_run *r = run03(NULL, 0);
  ck_assert_msg(r->status == 0, "%s exited %d\n%.3000s", r->cmd, r->status, r->err);
  setenv("WARPLAB_REMODEL", "0", 1);
  struct e2e_run *l = run03(NULL, 0);
  unsetenv("WARPLAB_REMODEL");
  ck_assert_msg(l->status == 0, "%s exited %d\n%.3000s", l->cmd, l->status, l->err);
  json_t *pr = e2e_j(r->json, "points"), *pl = e2e_j(l->json, "points"), *p;
  ck_assert_int_eq(json_array_size(pr), json_array_size(pl));
  size_t i, remodelled = 0;
  json_array_foreach(pr, i, p) {
    json_t *q = json_array_get(pl, i);
    const char *label = json_string_value(json_object_get(p, "label"));
    ck_assert_ptr_null(json_object_get(q, "remodelled_on"));
    const char *on = json_string_value(json_object_get(p, "remodelled_on"));
    if (on && !strcmp(json_string_value(json_object_get(p, "sweep")), "warps, UNROLL 1")) {
      ck_assert_str_eq(on, "the sweep warps, UNROLL 1 point 1x64");
      remodelled++;
    }
    ck_assert_msg(json_equal(json_object_get(p, "correct"), json_object_get(q, "correct")), "%s", label);
    ck_assert_msg(json_number_value(json_object_get(p, "time_ms")) ==
                  json_number_value(json_object_get(q, "time_ms")), "%s: time %.17g, launched %.17g",
                  label, json_number_value(json_object_get(p, "time_ms")),
                  json_number_value(json_object_get(q, "time_ms")));
    const char *name;
    json_t *m;
    json_object_foreach(json_object_get(p, "metrics"), name, m)
      ck_assert_msg(json_equal(m, e2e_j(q, e2e_fmt("metrics/%s", name))), "%s: %s", label, name);
  }
  ck_assert_uint_eq(remodelled, 4);                /* 1x32 to 1x4 on 1x64's launch */
  /* launched: the 6 tests, the main configuration on its test's launch, then 1x64, 64, 2
     and 4 (the 8 points remodelled); else the 11 points that are not the main one again */
  ck_assert_int_eq(json_integer_value(e2e_j(r->json, "provenance/launches")), 6 + 4);
  ck_assert_int_eq(json_integer_value(e2e_j(l->json, "provenance/launches")), 6 + 11);
  struct e2e_run *quick = run03(NULL, 1);
  ck_assert_int_eq(json_integer_value(e2e_j(quick->json, "provenance/launches")), 6);
  ck_assert_int_eq(json_array_size(e2e_j(quick->json, "points")), 1);
  ck_assert(json_equal(e2e_j(quick->json, "points/0/metrics"), e2e_j(r->json, "points/0/metrics")));

  struct e2e_run *s = run03("tests/e2e/lab03/smem_size.cu", 0);
  static const char *const warps[] = {"64", "32", "16", "8", "4"};
  for (int k = 0; k < 5; k++) {
    json_t *q = e2e_point(s, "warps, UNROLL 1", e2e_fmt("1x%s", warps[k]));
    ck_assert_ptr_null(json_object_get(q, "remodelled_on"));
    ck_assert_msg(json_is_true(json_object_get(q, "correct")) == (k >= 3), "1x%s: correct is %d",
                  warps[k], json_is_true(json_object_get(q, "correct")));
  }
}
END_TEST

/* The grade: the solution with its answers (solutions/03-latency-hiding/answers.json) gets
   every point; a file that sets WARPS to 64 itself runs at full occupancy and loses the
   occupancy target. */
START_TEST(lab03_grade)
{
  const char *sub = e2e_tmp("alice");
  char *cmd = e2e_fmt("mkdir -p '%s' && cp solutions/03-latency-hiding/triad.cu "
                      "solutions/03-latency-hiding/answers.json '%s/'", sub, sub);
  ck_assert_int_eq(system(cmd), 0);
  struct e2e_run *r = e2e_warplab("grade", "03", sub, "--backend", "emu", "--json", "--out",
                                  e2e_tmp("graded"), (char *)NULL);
  ck_assert_msg(r->status == 0, "%s\n%s", r->out, r->err);
  double score = json_number_value(e2e_j(r->json, "score"));
  ck_assert_msg(score == 100.0, "score %g\n%.4000s", score, r->out);

  const char *bob = e2e_tmp("bob");
  char *src = e2e_read_text("solutions/03-latency-hiding/triad.cu");
  char *at = strstr(src, "__constant__ int UNROLL = 8;");
  ck_assert_ptr_nonnull(at);
  char *text = e2e_fmt("%.*s__constant__ int WARPS = 64;\n%s", (int)(at - src), src, at);
  ck_assert_int_eq(system(e2e_fmt("mkdir -p '%s'", bob)), 0);
  FILE *f = fopen(e2e_fmt("%s/triad.cu", bob), "w");
  ck_assert_ptr_nonnull(f);
  fputs(text, f);
  fclose(f);
  r = e2e_warplab("grade", "03", bob, "--backend", "emu", "--json", "--out", e2e_tmp("graded2"),
                  (char *)NULL);
  ck_assert_msg(r->status == 0, "%s\n%s", r->out, r->err);
  json_t *tests = e2e_j(r->json, "tests"), *t;
  size_t i;
  int seen = 0;
  json_array_foreach(tests, i, t) {
    const char *name = json_string_value(json_object_get(t, "name"));
    if (name && strstr(name, "sm__maximum_warps_per_active_cycle_pct")) {
      seen = 1;
      ck_assert(json_number_value(json_object_get(t, "score")) == 0.0);
    }
  }
  ck_assert_msg(seen, "no occupancy target in\n%.3000s", r->out);
}
END_TEST

void e2e_add_lab03_tests(Suite *s)
{
  if (!e2e_have_nvcc()) {
    printf("e2e: nvcc not found: SKIPPING the 6 tests of lab 03\n");
    return;
  }
  TCase *tc = tcase_create("lab03");
  tcase_add_checked_fixture(tc, e2e_setup, e2e_teardown);
  tcase_set_timeout(tc, LAB03_TIMEOUT_S);
  tcase_add_test(tc, lab03_solution_hides_latency);
  tcase_add_test(tc, lab03_starter_writes_nothing);
  tcase_add_test(tc, lab03_no_tail_first_bad);
  tcase_add_test(tc, lab03_neighbours_are_uncoalesced);
  tcase_add_test(tc, lab03_grade);
  tcase_add_test(tc, lab03_remodelled_points_match_launched);
  tcase_add_test(tc, lab03_benchmark_charts);
  suite_add_tcase(s, tc);
}
