/* check_plot.c: the charts layer draws a lab's charts from a run's results with gnuplot: the
 * PNG (its signature), the SVG and the data file with the right numbers; the main
 * configuration marked once, first or in its place in the sweep; a series with no value left
 * out and said to be missing; no gnuplot is a status, not a failure; a malformed chart is
 * refused before anything is drawn. The drawing tests are skipped when gnuplot is not
 * installed. */
#include <check.h>
#include <dirent.h>
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

/* The charts write only plain files into the folder. */
static void teardown(void)
{
  DIR *d = opendir(dir);
  ck_assert_ptr_nonnull(d);
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
      continue;
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    ck_assert_int_eq(unlink(path), 0);
  }
  closedir(d);
  ck_assert_int_eq(rmdir(dir), 0);
}

static void add_point(struct run_result *r, const char *sweep, int64_t bx, int64_t by, double spr)
{
  struct run_point *p = &r->points[r->npoints++];
  snprintf(p->sweep, sizeof p->sweep, "%s", sweep);
  snprintf(p->label, sizeof p->label, "%lldx%lld", (long long)bx, (long long)by);
  run_sizes_set(&p->choices, "BX", bx);
  run_sizes_set(&p->choices, "BY", by);
  p->correct = 1;
  struct run_metric *m = &p->metric[p->nmetrics++];
  snprintf(m->name, sizeof m->name, "spr");
  m->value = spr;
  m->defined = 1;
  snprintf(m->kind, sizeof m->kind, "exact");
}

/* A lab with one sweep, "shapes", and the charts given; a run on the emulator of its main
   configuration 32x8 and the sweep points 16x16 and 4x64. */
static void fake(struct run_lab *lab, struct run_result *r, const char *charts)
{
  memset(lab, 0, sizeof *lab);
  memset(r, 0, sizeof *r);
  json_error_t je;
  lab->json = json_loads(charts, 0, &je);
  ck_assert_msg(lab->json != NULL, "%s", je.text);
  snprintf(lab->dir, sizeof lab->dir, "labs/99-fake");
  snprintf(lab->sweeps[0].name, sizeof lab->sweeps[0].name, "shapes");
  lab->nsweeps = 1;
  snprintf(r->results_dir, sizeof r->results_dir, "%s", dir);
  snprintf(r->prov.backend, sizeof r->prov.backend, "emu");
  snprintf(r->prov.device, sizeof r->prov.device, "warplab emulator, profile NVIDIA H200");
  snprintf(r->prov.profile, sizeof r->prov.profile, "h200");
  snprintf(r->prov.sizes, sizeof r->prov.sizes, "n=1024");
  add_point(r, "", 32, 8, 4);
  add_point(r, "shapes", 16, 16, 4);
  add_point(r, "shapes", 4, 64, 8);
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

/* The file dir/name, whole, into buf; its size. */
static size_t slurp(const char *name, char *buf, size_t len)
{
  char path[256];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "rb");
  ck_assert_msg(f != NULL, "%s was not written", path);
  size_t n = fread(buf, 1, len - 1, f);
  buf[n] = 0;
  fclose(f);
  return n;
}

START_TEST(test_draws_png_svg_and_data)
{
  if (!have_gnuplot())
    return;
  struct run_lab lab;
  struct run_result r;
  fake(&lab, &r, "{\"charts\": [{\"name\": \"spr\", \"title\": \"Sectors\", \"sweep\": \"shapes\","
                 " \"y\": [\"spr\", \"gpu__time_duration.sum\"], \"labels\": [\"sectors\", \"time\"],"
                 " \"ylabel\": \"sectors\"}]}");
  char paths[1024], err[256] = "";
  ck_assert_int_eq(plot_lab_charts(&lab, &r, paths, sizeof paths, err, sizeof err), PLOT_OK);
  char want[256];
  snprintf(want, sizeof want, "%s/spr.png", dir);
  ck_assert_str_eq(paths, want);
  static char text[1 << 16];
  size_t size = slurp("spr.png", text, sizeof text);
  ck_assert_mem_eq(text, "\x89PNG\r\n\x1a\n", 8);
  ck_assert_uint_gt(size, 5000);           /* a 900x640 chart with text, not an empty canvas */
  slurp("spr.svg", text, sizeof text);
  ck_assert_ptr_nonnull(strstr(text, "<svg"));
  ck_assert_ptr_nonnull(strstr(text, "</svg>"));
  slurp("spr.dat", text, sizeof text);
  /* the main configuration first and marked; the series with no value as '?' */
  ck_assert_ptr_nonnull(strstr(text, "\n32x8 (yours)\t4\t?\n16x16\t4\t?\n4x64\t8\t?\n"));
  slurp("spr.gp", text, sizeof text);
  ck_assert_ptr_nonnull(strstr(text, "time: not available on the emulator yet"));
  ck_assert_ptr_nonnull(strstr(text, "sectors (exact): spr"));   /* the key gives the kind */
  ck_assert_ptr_nonnull(strstr(text, "NVIDIA H200"));            /* the subtitle the device */
  ck_assert_ptr_null(strstr(text, "gpu__time_duration.sum (")); /* no key entry for no bars */
  json_decref(lab.json);
}
END_TEST

START_TEST(test_main_in_sweep_marked_in_place)
{
  if (!have_gnuplot())
    return;
  struct run_lab lab;
  struct run_result r;
  fake(&lab, &r, "{\"charts\": [{\"name\": \"spr\", \"sweep\": \"shapes\", \"y\": [\"spr\"],"
                 " \"log\": true, \"scale\": 0.5}]}");
  add_point(&r, "shapes", 32, 8, 4);     /* the sweep holds the main configuration too */
  r.points[2].metric[0].defined = 0;     /* 4x64: no value */
  char paths[1024], err[256] = "";
  ck_assert_int_eq(plot_lab_charts(&lab, &r, paths, sizeof paths, err, sizeof err), PLOT_OK);
  static char text[1 << 16];
  slurp("spr.dat", text, sizeof text);
  ck_assert_ptr_nonnull(strstr(text, "\n16x16\t2\n4x64\t?\n32x8 (yours)\t2\n"));
  ck_assert_ptr_null(strstr(text, "\n32x8\t"));
  slurp("spr.gp", text, sizeof text);
  ck_assert_ptr_nonnull(strstr(text, "set logscale y"));
  ck_assert_ptr_nonnull(strstr(text, "no values for 4x64"));
  ck_assert_ptr_nonnull(strstr(text, "set object rect from 1.50, graph 0 to 2.50"));
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
  char out[8192], err[256] = "";
  ck_assert_int_eq(plot_terminal_chart(&lab, &r, "spr", 70, 20, out, sizeof out, err, sizeof err),
                   PLOT_OK);
  ck_assert_ptr_nonnull(strstr(out, "Sectors"));
  ck_assert_ptr_nonnull(strstr(out, "4x64"));
  ck_assert_ptr_nonnull(strstr(out, "32x8 (yours)"));
  int lines = 0;
  for (const char *p = out; *p; p++)
    lines += *p == '\n';
  ck_assert_int_ge(lines, 18);
  ck_assert_int_eq(plot_terminal_chart(&lab, &r, "nope", 70, 20, out, sizeof out, err, sizeof err),
                   PLOT_BAD_CHART);
  ck_assert_ptr_nonnull(strstr(err, "no chart named 'nope'"));
  json_decref(lab.json);
}
END_TEST

/* The figures for another renderer (the feedback screen): the same rows and notes, no file. */
START_TEST(test_chart_data)
{
  struct run_lab lab;
  struct run_result r;
  fake(&lab, &r, "{\"charts\": [{\"name\": \"spr\", \"title\": \"Sectors\", \"sweep\": \"shapes\","
                 " \"y\": [\"spr\", \"gpu__time_duration.sum\"], \"labels\": [\"sectors\", \"time\"],"
                 " \"scale\": 0.5}]}");
  ck_assert_uint_eq(plot_chart_count(&lab), 1);
  static struct plot_data d;
  char err[256] = "";
  ck_assert_int_eq(plot_chart_data(&lab, &r, 0, &d, err, sizeof err), PLOT_OK);
  ck_assert_str_eq(d.title, "Sectors");
  ck_assert_uint_eq(d.nseries, 2);
  ck_assert_str_eq(d.label[0], "sectors");
  ck_assert_str_eq(d.kind[0], "exact");
  ck_assert_uint_eq(d.ndefined[0], 3);
  ck_assert_uint_eq(d.ndefined[1], 0);
  ck_assert_uint_eq(d.nrows, 3);
  ck_assert_str_eq(d.rows[0].label, "32x8 (yours)");
  ck_assert(d.rows[0].is_main && !d.rows[1].is_main);
  ck_assert(d.rows[2].defined[0] && d.rows[2].v[0] == 4.0);   /* 8 sectors, scaled by 0.5 */
  ck_assert_ptr_nonnull(strstr(d.subtitle, "NVIDIA H200"));
  ck_assert_uint_eq(d.nnotes, 1);
  ck_assert_ptr_nonnull(strstr(d.notes[0], "time: not available on the emulator"));
  ck_assert_int_eq(plot_chart_data(&lab, &r, 1, &d, err, sizeof err), PLOT_BAD_CHART);
  ck_assert_ptr_nonnull(strstr(err, "no chart number 2"));
  json_decref(lab.json);
}
END_TEST

START_TEST(test_no_gnuplot)
{
  struct run_lab lab;
  struct run_result r;
  fake(&lab, &r, "{\"charts\": [{\"name\": \"spr\", \"sweep\": \"shapes\", \"y\": [\"spr\"]}]}");
  setenv("PATH", "/nonexistent", 1);     /* fork mode: this test's process only */
  char paths[1024], err[256] = "";
  ck_assert_int_eq(plot_lab_charts(&lab, &r, paths, sizeof paths, err, sizeof err),
                   PLOT_NO_GNUPLOT);
  ck_assert_str_eq(paths, "");
  ck_assert_ptr_nonnull(strstr(err, "gnuplot is not installed"));
  static char text[4096];
  slurp("spr.dat", text, sizeof text);   /* the data is written all the same */
  ck_assert_ptr_nonnull(strstr(text, "4x64\t8\n"));
  json_decref(lab.json);
}
END_TEST

START_TEST(test_bad_charts)
{
  static const struct { const char *json, *msg; } rows[] = {
    {"{\"charts\": [{\"name\": \"Bad Name\", \"sweep\": \"shapes\", \"y\": [\"spr\"]}]}", "Bad Name"},
    {"{\"charts\": [{\"name\": \"x\", \"sweep\": \"shapez\", \"y\": [\"spr\"]}]}",
     "'shapez' is not one of the lab's sweeps"},
    {"{\"charts\": [{\"name\": \"x\", \"sweep\": \"shapes\", \"y\": []}]}", "\"y\" must list"},
    {"{\"charts\": [{\"name\": \"x\", \"sweep\": \"shapes\", \"y\": [\"a\"], \"labels\": []}]}",
     "one label per metric"},
    {"{\"charts\": [{\"name\": \"x\", \"sweep\": \"shapes\", \"y\": [\"a\"], \"style\": \"pie\"}]}",
     "\"style\""},
    {"{\"charts\": [{\"name\": \"x\", \"sweep\": \"shapes\", \"y\": [\"a\"], \"scale\": 0}]}",
     "\"scale\""},
    {"{\"charts\": {\"name\": \"x\"}}", "must be an array"},
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    struct run_lab lab;
    struct run_result r;
    fake(&lab, &r, rows[i].json);
    char paths[256], err[512] = "";
    ck_assert_int_eq(plot_lab_charts(&lab, &r, paths, sizeof paths, err, sizeof err), PLOT_BAD_CHART);
    ck_assert_msg(strstr(err, rows[i].msg) != NULL, "%s: message '%s' lacks '%s'", rows[i].json,
                  err, rows[i].msg);
    ck_assert_ptr_nonnull(strstr(err, "labs/99-fake/lab.json"));
    json_decref(lab.json);
  }
}
END_TEST

Suite *suite_plot(void)
{
  Suite *s = suite_create("plot");
  TCase *t = tcase_create("charts");
  tcase_add_checked_fixture(t, setup, teardown);
  tcase_set_timeout(t, 60);
  tcase_add_test(t, test_draws_png_svg_and_data);
  tcase_add_test(t, test_main_in_sweep_marked_in_place);
  tcase_add_test(t, test_terminal_chart);
  tcase_add_test(t, test_chart_data);
  tcase_add_test(t, test_no_gnuplot);
  tcase_add_test(t, test_bad_charts);
  suite_add_tcase(s, t);
  return s;
}
