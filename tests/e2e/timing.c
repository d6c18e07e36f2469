/* timing.c: the timing model (harness/timing) against the H200 calibration measurements
 * (bench/timing/calibration/h200, copied from shared/calibration): the benchmark sweeps of
 * bench/timing run on the emulator with the h200 profile, and their modelled times must
 * reproduce the measured curves' shapes, as issue 4 asks:
 *   - the occupancy-vs-bandwidth curve: its knee (where time first rises 5% above the
 *     full-occupancy time) within one step of the measured knee;
 *   - the latency staircase: the L1, L2 and DRAM plateaus within 10%;
 *   - the FMA latency-hiding curve: every block size's time, relative to one warp's, within 25%
 *     of the measured ratio, for one and for four independent chains.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/e2e/e2e.h"

#define TIMING_TIMEOUT_S 600
#define CAL "bench/timing/calibration/h200/"

/* `warplab run bench/timing/NAME` on the emulator, as JSON; size: a --size NAME=N, or NULL. */
static struct e2e_run *run_bench(const char *name, const char *kernel, const char *size)
{
  struct e2e_run *r = e2e_warplab("run", e2e_fmt("bench/timing/%s", name), "--backend", "emu",
                                  "--arch", "h200", "--json", "--kernel-file",
                                  e2e_fmt("bench/timing/%s/%s", name, kernel), "--results",
                                  e2e_tmp("results"), size ? "--size" : (char *)NULL, size,
                                  (char *)NULL);
  ck_assert_msg(r->status == 0 && r->json, "%s exited %d\n%.2000s\n%.2000s", r->cmd, r->status,
                r->out, r->err);
  return r;
}

/* The sweep point whose choice `choice` is v: its metric `metric` (NULL: time_ms). */
static double point_value(const struct e2e_run *r, const char *sweep, const char *choice,
                          long long v, const char *metric)
{
  json_t *pts = e2e_j(r->json, "points"), *p;
  size_t i;
  json_array_foreach(pts, i, p) {
    const char *sw = json_string_value(json_object_get(p, "sweep"));
    json_t *c = json_object_get(json_object_get(p, "choices"), choice);
    if (!sw || strcmp(sw, sweep) || !json_is_integer(c) || json_integer_value(c) != v)
      continue;
    ck_assert_msg(json_is_true(json_object_get(p, "correct")), "%s %s=%lld is not correct", sweep,
                  choice, v);
    json_t *x = metric ? e2e_j(p, e2e_fmt("metrics/%s/value", metric)) : json_object_get(p, "time_ms");
    ck_assert_msg(json_is_number(x), "%s %s=%lld: no %s", sweep, choice, v, metric ? metric : "time");
    if (metric)
      ck_assert_str_eq(json_string_value(e2e_j(p, e2e_fmt("metrics/%s/kind", metric))), "modelled");
    return json_number_value(x);
  }
  ck_abort_msg("%s: no point %s=%lld in sweep %s", r->cmd, choice, v, sweep);
  return 0;
}

/* Rows of a calibration CSV: up to max rows of up to 12 numbers each; returns the count. */
static int read_csv(const char *path, double rows[][12], int max)
{
  FILE *f = fopen(path, "r");
  ck_assert_msg(f != NULL, "cannot open %s", path);
  char line[512];
  int n = 0;
  ck_assert_ptr_nonnull(fgets(line, sizeof line, f));   /* header */
  while (n < max && fgets(line, sizeof line, f)) {
    char *s = line;
    int k = 0;
    while (k < 12 && *s && *s != '\n') {
      char *end;
      double v = strtod(s, &end);
      rows[n][k++] = end == s ? NAN : v;               /* a text column reads as NaN */
      s = strchr(s, ',');
      if (!s)
        break;
      s++;
    }
    n++;
  }
  fclose(f);
  return n;
}

/* Index of the first entry more than 5% above the first. */
static int knee(const double *t, int n)
{
  for (int i = 1; i < n; i++)
    if (t[i] > 1.05 * t[0])
      return i;
  return n;
}

START_TEST(occupancy_knee)
{
  double cal[16][12];
  int n = read_csv(CAL "occupancy_stream.csv", cal, 16);
  ck_assert_int_ge(n, 8);
  struct e2e_run *r = run_bench("stream", "stream.cu", NULL);
  double measured[16], model[16];
  for (int i = 0; i < n; i++) {
    measured[i] = cal[i][7];                              /* median_ms */
    model[i] = point_value(r, "dsmem", "DSMEM", (long long)cal[i][0], NULL);
  }
  int km = knee(measured, n), ke = knee(model, n);
  char table[1024] = "";
  for (int i = 0; i < n; i++)
    snprintf(table + strlen(table), sizeof table - strlen(table), "  %6.0f B: measured x%.3f, "
             "modelled x%.3f\n", cal[i][0], measured[i] / measured[0], model[i] / model[0]);
  ck_assert_msg(abs(km - ke) <= 1, "knee at %.0f B measured, %.0f B modelled\n%s", cal[km][0],
                ke < n ? cal[ke][0] : -1.0, table);
  /* and the curve rises: the least occupancy is the slowest, by more than 2x */
  ck_assert_msg(model[n - 1] > 2 * model[0], "%s", table);
}
END_TEST

/* The sweep point of sweep `sweep` whose choices are FOOT = foot and PASSES = passes: its
   modelled cycles. */
static double chase_cycles(const struct e2e_run *r, long long foot, int passes)
{
  json_t *pts = e2e_j(r->json, "points"), *p;
  size_t i;
  json_array_foreach(pts, i, p) {
    if (!json_string_value(json_object_get(p, "sweep"))[0] ||
        json_integer_value(e2e_j(p, "choices/FOOT")) != foot ||
        json_integer_value(e2e_j(p, "choices/PASSES")) != passes)
      continue;
    ck_assert(json_is_true(json_object_get(p, "correct")));
    ck_assert_str_eq(json_string_value(e2e_j(p, "metrics/sm__cycles_elapsed.avg/kind")), "modelled");
    return json_number_value(e2e_j(p, "metrics/sm__cycles_elapsed.avg/value"));
  }
  ck_abort_msg("no chase point FOOT=%lld PASSES=%d", foot, passes);
  return 0;
}

START_TEST(latency_staircase)
{
  double cal[64][12];
  int n = read_csv(CAL "pointer_chase.csv", cal, 64);
  struct e2e_run *r = run_bench("chase", "chase.cu", NULL);
  /* steps = PASSES x max(FOOT/128, base): the warm latency per load is the second pass's */
  const char *sizes = e2e_jstr(r, "provenance/sizes"), *b = sizes ? strstr(sizes, "base=") : NULL;
  ck_assert_msg(b != NULL, "no base in the chase's sizes (%s)", sizes ? sizes : "none");
  double base = atof(b + 5);
  /* the plateaus of the calibration, stride 128: L1 up to 8 KB, L2 1-16 MB, DRAM from 64 MB */
  static const struct { const char *name; double lo, hi; } level[] = {
    {"L1", 0, 8192}, {"L2", 1 << 20, 16 << 20}, {"DRAM", 64 << 20, 1e12},
  };
  static const long long foot[] = {4096, 1 << 20, 4 << 20, 16 << 20, 64 << 20, 128 << 20};
  for (int l = 0; l < 3; l++) {
    double sum = 0;
    int cnt = 0;
    for (int i = 0; i < n; i++)
      if (cal[i][1] == 128 && cal[i][0] >= level[l].lo && cal[i][0] <= level[l].hi) {
        sum += cal[i][2];
        cnt++;
      }
    ck_assert_int_gt(cnt, 0);
    double want = sum / cnt;
    int seen = 0;
    for (size_t k = 0; k < sizeof foot / sizeof *foot; k++) {
      if (foot[k] < level[l].lo || foot[k] > level[l].hi)
        continue;
      double steps = foot[k] / 128 > base ? (double)(foot[k] / 128) : base;
      double per = (chase_cycles(r, foot[k], 2) - chase_cycles(r, foot[k], 1)) / steps;
      ck_assert_msg(fabs(per / want - 1) <= 0.10, "%s plateau: %lld-byte chain, %.1f modelled "
                    "cycles per load, %.1f measured", level[l].name, foot[k], per, want);
      seen++;
    }
    ck_assert_int_gt(seen, 0);
  }
}
END_TEST

START_TEST(fma_latency_hiding)
{
  double cal[16][12];
  int n = read_csv(CAL "fma_chain.csv", cal, 16);
  struct e2e_run *r = run_bench("fma", "fma.cu", "iters=4096")   /* as measured */;
  for (int ilp = 1; ilp <= 4; ilp += 3) {
    double m0 = 0, e0 = 0;
    for (int i = 0; i < n; i++) {
      if (cal[i][1] != ilp)
        continue;
      long long block = (long long)cal[i][2];
      double m = cal[i][5];
      double e = point_value(r, ilp == 1 ? "ilp1" : "ilp4", "BLOCK", block, NULL);
      if (m0 == 0) {
        m0 = m;
        e0 = e;
      }
      double err = (e / e0) / (m / m0) - 1;
      ck_assert_msg(fabs(err) <= 0.25, "ilp %d, %lld threads: modelled x%.3f of one warp's time, "
                    "measured x%.3f", ilp, block, e / e0, m / m0);
    }
  }
}
END_TEST

/* Lab 01's main time, modelled, for a kernel file, at 4096 x 4096: 65536 blocks of 64 x 4,
   497 of them SM 0's, 48 of those replayed. */
static double lab01_time(const char *kernel)
{
  struct e2e_run *r = e2e_warplab("run", "01", "--backend", "emu", "--arch", "h200", "--json",
                                  "--quick", "--kernel-file", kernel, "--size", "nx=4096",
                                  "--size", "ny=4096", "--results", e2e_tmp("results"), (char *)NULL);
  ck_assert_msg(r->status == 0 && r->json, "%s exited %d\n%.2000s", r->cmd, r->status, r->err);
  json_t *t = e2e_j(r->json, "points/0/time_ms");
  ck_assert_msg(json_is_number(t), "%s: no modelled time", r->cmd);
  return json_number_value(t);
}

/* Work moved off the blocks whose linear index is a multiple of 132 onto their neighbours
   (tests/e2e/lab01/shift_work.cu) is no faster on a GPU, whose blocks go to whichever SM is
   free. The model, which simulates one SM's share of the blocks, must not find that SM idle:
   before the blocks it simulates were chosen by a hash within each wave, it modelled this
   kernel 1.78 times faster than the solution. */
START_TEST(block_work_shift_no_faster)
{
  double sol = lab01_time("solutions/01-matrix-add/matrix_add.cu");
  double shift = lab01_time("tests/e2e/lab01/shift_work.cu");
  ck_assert_msg(shift >= 0.98 * sol, "work moved between blocks by blockIdx modelled %.3f times "
                "faster than the solution (%.4g ms against %.4g ms)", sol / shift, shift, sol);
}
END_TEST

/* Half the work of the grid's first eighth of blocks moved to the blocks an eighth later
   (tests/e2e/lab01/tail_work.cu): no faster on a GPU, the same bytes moved. The blocks the
   model replays all lie in the first eighth (the first 48 of the grid's 497 waves of 132); before it
   dispatched every block over all SMs by its recorded work, it took them for the grid and
   modelled this kernel 1.26 times faster than the solution (0.0514 ms against 0.0647). */
START_TEST(block_work_tail_no_faster)
{
  double sol = lab01_time("solutions/01-matrix-add/matrix_add.cu");
  double tail = lab01_time("tests/e2e/lab01/tail_work.cu");
  ck_assert_msg(tail >= 0.98 * sol, "work moved past the replayed blocks modelled %.3f times "
                "faster than the solution (%.4g ms against %.4g ms)", sol / tail, tail, sol);
}
END_TEST

/* The whole work of the first eighth moved an eighth later (tests/e2e/lab01/tail_all_work.cu):
   the replayed blocks do nothing, so the model knows their work but not a working block's
   latency, and comes within 5% (0.0634 ms against 0.0647); before the dispatch by recorded
   work it modelled the kernel 1.78 times faster (0.0363 ms). */
START_TEST(block_work_tail_all_no_faster)
{
  double sol = lab01_time("solutions/01-matrix-add/matrix_add.cu");
  double tail = lab01_time("tests/e2e/lab01/tail_all_work.cu");
  ck_assert_msg(tail >= 0.95 * sol, "the replayed blocks' work moved past them modelled %.3f "
                "times faster than the solution (%.4g ms against %.4g ms)", sol / tail, tail, sol);
}
END_TEST

void e2e_add_timing_tests(Suite *s)
{
  if (!e2e_have_nvcc()) {
    printf("e2e: nvcc not found: SKIPPING the 6 tests of the timing test case\n");
    return;
  }
  TCase *tc = tcase_create("timing");
  /* "long": the longest case, its code paths run by the others too; make asan leaves it out */
  tcase_set_tags(tc, "long");
  tcase_add_checked_fixture(tc, e2e_setup, e2e_teardown);
  tcase_set_timeout(tc, TIMING_TIMEOUT_S);
  tcase_add_test(tc, occupancy_knee);
  tcase_add_test(tc, latency_staircase);
  tcase_add_test(tc, fma_latency_hiding);
  tcase_add_test(tc, block_work_shift_no_faster);
  tcase_add_test(tc, block_work_tail_no_faster);
  tcase_add_test(tc, block_work_tail_all_no_faster);
  suite_add_tcase(s, tc);
}
