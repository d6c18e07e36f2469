/* check_plot.c: the charts layer draws a lab's charts from a run's results with gnuplot: the
 * PNG (its signature), the SVG and the data file with the right numbers; a series with no
 * data is left out and said to be missing; a malformed chart is refused. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plots/plot.h"
#include "suites.h"

static char dir[64];

static void setup(void)
{
  snprintf(dir, sizeof dir, "/tmp/warplab-plot-XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  ck_assert_int_eq(system(cmd), 0);
}

static void fake(struct run_lab *lab, struct run_result *r, const char *charts)
{
  memset(lab, 0, sizeof *lab);
  memset(r, 0, sizeof *r);
  json_error_t je;
  lab->json = json_loads(charts, 0, &je);
  ck_assert_msg(lab->json != NULL, "%s", je.text);
  snprintf(r->results_dir, sizeof r->results_dir, "%s", dir);
  snprintf(r->prov.backend, sizeof r->prov.backend, "emu");
  snprintf(r->prov.profile, sizeof r->prov.profile, "h200");
  snprintf(r->prov.sizes, sizeof r->prov.sizes, "n=1024");
  const char *labels[3] = {"32x8", "16x16", "4x64"};
  double spr[3] = {4, 4, 8};
  for (int i = 0; i < 3; i++) {
    struct run_point *p = &r->points[r->npoints++];
    snprintf(p->label, sizeof p->label, "%s", labels[i]);
    if (i)
      snprintf(p->sweep, sizeof p->sweep, "shapes");
    struct run_metric *m = &p->metric[p->nmetrics++];
    snprintf(m->name, sizeof m->name, "spr");
    m->value = spr[i];
    m->defined = 1;
    snprintf(m->kind, sizeof m->kind, "exact");
  }
}

static int have_gnuplot(void)
{
  char path[1024];
  if (plot_find_gnuplot(path, sizeof path)) {
    printf("check_plot: gnuplot not installed: SKIPPING the drawing tests\n");
    return 0;
  }
  return 1;
}

START_TEST(test_draws_png_svg_and_data)
{
  if (!have_gnuplot())
    return;
  struct run_lab lab;
  struct run_result r;
  fake(&lab, &r, "{\"charts\": [{\"name\": \"spr\", \"title\": \"Sectors\", \"sweep\": \"shapes\","
                 " \"y\": [\"spr\", \"time\"], \"ylabel\": \"sectors\"}]}");
  char paths[1024], err[256];
  ck_assert_int_eq(plot_lab_charts(&lab, &r, paths, sizeof paths, err, sizeof err), PLOT_OK);
  char want[256];
  snprintf(want, sizeof want, "%s/spr.png", dir);
  ck_assert_str_eq(paths, want);
  unsigned char sig[8];
  FILE *f = fopen(want, "rb");
  ck_assert_ptr_nonnull(f);
  ck_assert_int_eq(fread(sig, 1, 8, f), 8);
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fclose(f);
  ck_assert_mem_eq(sig, "\x89PNG\r\n\x1a\n", 8);
  ck_assert_int_gt(size, 5000);
  char text[8192];
  snprintf(want, sizeof want, "%s/spr.svg", dir);
  f = fopen(want, "r");
  ck_assert_ptr_nonnull(f);
  size_t n = fread(text, 1, sizeof text - 1, f);
  text[n] = 0;
  fclose(f);
  ck_assert_ptr_nonnull(strstr(text, "<svg"));
  snprintf(want, sizeof want, "%s/spr.dat", dir);
  f = fopen(want, "r");
  n = fread(text, 1, sizeof text - 1, f);
  text[n] = 0;
  fclose(f);
  /* the main configuration first and marked; the missing series as '?' */
  ck_assert_ptr_nonnull(strstr(text, "32x8 (yours)\t4\t?\n16x16\t4\t?\n4x64\t8\t?\n"));
  snprintf(want, sizeof want, "%s/spr.gp", dir);
  f = fopen(want, "r");
  n = fread(text, 1, sizeof text - 1, f);
  text[n] = 0;
  fclose(f);
  ck_assert_ptr_nonnull(strstr(text, "no data for time"));
  json_decref(lab.json);
}
END_TEST

START_TEST(test_terminal_chart)
{
  if (!have_gnuplot())
    return;
  struct run_lab lab;
  struct run_result r;
  fake(&lab, &r, "{\"charts\": [{\"name\": \"spr\", \"title\": \"Sectors\", \"sweep\": \"shapes\","
                 " \"y\": [\"spr\"]}]}");
  char out[8192], err[256];
  ck_assert_int_eq(plot_terminal_chart(&lab, &r, "spr", 70, 20, out, sizeof out, err, sizeof err), PLOT_OK);
  ck_assert_ptr_nonnull(strstr(out, "Sectors"));
  ck_assert_ptr_nonnull(strstr(out, "4x64"));
  ck_assert_int_eq(plot_terminal_chart(&lab, &r, "nope", 70, 20, out, sizeof out, err, sizeof err),
                   PLOT_BAD_CHART);
  json_decref(lab.json);
}
END_TEST

START_TEST(test_bad_chart)
{
  struct run_lab lab;
  struct run_result r;
  fake(&lab, &r, "{\"charts\": [{\"name\": \"Bad Name\", \"title\": \"x\", \"sweep\": \"shapes\", \"y\": [\"spr\"]}]}");
  char paths[256], err[256];
  int st = plot_lab_charts(&lab, &r, paths, sizeof paths, err, sizeof err);
  ck_assert(st == PLOT_BAD_CHART || st == PLOT_NO_GNUPLOT);
  if (st == PLOT_BAD_CHART)
    ck_assert_ptr_nonnull(strstr(err, "Bad Name"));
  json_decref(lab.json);
}
END_TEST

Suite *suite_plot(void)
{
  Suite *s = suite_create("plot");
  TCase *t = tcase_create("charts");
  tcase_add_checked_fixture(t, setup, teardown);
  tcase_set_timeout(t, 60);
  tcase_add_test(t, test_draws_png_svg_and_data);
  tcase_add_test(t, test_terminal_chart);
  tcase_add_test(t, test_bad_chart);
  suite_add_tcase(s, t);
  return s;
}
