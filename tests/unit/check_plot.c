/* check_plot.c: the charts layer draws a lab's charts from a run's results with gnuplot: the
 * PNG (its signature), the SVG and the data file with the right numbers; the main
 * configuration marked once, first or in its place in the sweep; a series with no value left
 * out and said to be missing; no gnuplot is a status, not a failure; a malformed chart is
 * refused when the charts are parsed (run_charts_parse, as the lab loads), before anything
 * is drawn. Line charts: points in the order of x, one block per
 * sweep, a prediction equal to its formula at every point and along x, derived values from
 * expressions, a folder's own charts.json (the expressions themselves: check_expr.c). A run's
 * charts come from two gnuplots at once (one for one chart), each chart as its script alone
 * draws it; a failing one is named and the others drawn.
 * The drawing tests are skipped when gnuplot is not installed. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <math.h>

#include "metrics/occ.h"
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

/* The run's profile, as a run keeps it for the charts (run_result.prof): the one its
   provenance names. */
static void run_profile(struct run_result *r)
{
  struct occ_error e;
  ck_assert_int_eq(occ_profile_load(r->prov.profile, &r->prof, &e), OCC_OK);
  r->have_prof = 1;
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

/* What the last fake lab's charts gave when parsed as the lab loader parses them
   (run_charts_parse): 0, or -1 with the message in fake_err. */
static int fake_rc;
static char fake_err[768];

static void fake_charts(struct run_lab *lab, const char *charts)
{
  json_error_t je;
  json_t *root = json_loads(charts, 0, &je);
  ck_assert_msg(root != NULL, "%s", je.text);
  fake_err[0] = 0;
  fake_rc = run_charts_parse(root, "lab.json", lab, fake_err, sizeof fake_err);
  json_decref(root);
}

/* A lab with one sweep, "shapes", and the charts given; a run on the emulator of its main
   configuration 32x8 and the sweep points 16x16 and 4x64. */
static void fake(struct run_lab *lab, struct run_result *r, const char *charts)
{
  memset(lab, 0, sizeof *lab);
  memset(r, 0, sizeof *r);
  snprintf(lab->dir, sizeof lab->dir, "labs/99-fake");
  snprintf(lab->sweeps[0].name, sizeof lab->sweeps[0].name, "shapes");
  lab->nsweeps = 1;
  fake_charts(lab, charts);
  snprintf(r->results_dir, sizeof r->results_dir, "%s", dir);
  snprintf(r->prov.backend, sizeof r->prov.backend, "emu");
  snprintf(r->prov.device, sizeof r->prov.device, "warplab emulator, profile NVIDIA H200");
  snprintf(r->prov.profile, sizeof r->prov.profile, "h200");
  run_profile(r);
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
}
END_TEST

/* A gnuplot on PATH that logs its runs (one line each in dir/gnuplot.log: its arguments)
   and runs the real one. With meet, a run given several charts waits (up to 10 s) for a
   second such run to start and writes "together" in dir/meet.log when it did: two gnuplots
   at once both write it, two in turn neither. */
static void counting_gnuplot(int meet)
{
  char real[1024], path[256], env[4096];
  ck_assert_int_eq(plot_find_gnuplot(real, sizeof real), 0);
  snprintf(path, sizeof path, "%s/gnuplot", dir);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fprintf(f, "#!/bin/sh\necho \"$*\" >> '%s/gnuplot.log'\n", dir);
  if (meet)
    fprintf(f, "case \"$*\" in *'reset session'*)\n"
               "  touch '%s/batch.'$$; i=0\n"
               "  while [ $(ls '%s' | grep -c '^batch\\.') -lt 2 ] && [ $i -lt 100 ]; do\n"
               "    sleep 0.1; i=$((i + 1)); done\n"
               "  [ $(ls '%s' | grep -c '^batch\\.') -ge 2 ] && echo together >> '%s/meet.log' ;;\n"
               "esac\n", dir, dir, dir, dir);
  fprintf(f, "exec '%s' \"$@\"\n", real);
  fclose(f);
  ck_assert_int_eq(chmod(path, 0755), 0);
  const char *old = getenv("PATH");
  snprintf(env, sizeof env, "%s:%s", dir, old ? old : "");
  setenv("PATH", env, 1);                /* fork mode: this test's process only */
}

/* The lines of dir/NAME (at most max, each cut at 511 characters) into lines; their count. */
static int log_lines(const char *name, char lines[][512], int max)
{
  char path[256];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "r");
  int n = 0;
  while (f && n < max && fgets(lines[n], sizeof lines[n], f)) {
    lines[n][strcspn(lines[n], "\n")] = 0;
    n++;
  }
  if (f)
    fclose(f);
  return n;
}

/* How many times script ("b.gp") is an argument in the run logged as line. */
static int script_in(const char *line, const char *script)
{
  int n = 0;
  size_t len = strlen(script);
  for (const char *p = line; (p = strstr(p, script)); p += len)
    n += (p == line || p[-1] == ' ') && (p[len] == ' ' || !p[len]);
  return n;
}

#define THREE_CHARTS                                                                          \
  "{\"charts\": [{\"name\": \"a\", \"title\": \"Log\", \"sweep\": \"shapes\", \"y\": [\"spr\"],"   \
  " \"log\": true}, {\"name\": \"b\", \"title\": \"Linear\", \"sweep\": \"shapes\","              \
  " \"y\": [\"spr\"]}, {\"name\": \"c\", \"style\": \"lines\", \"sweeps\": [\"shapes\"],"         \
  " \"x\": \"BX\", \"y\": [\"spr\"], \"predict\": \"BX / 4\"}]}"

/* A run's charts are drawn by two gnuplots at once (on a machine of two CPUs or more), each
   chart by one of them, each as `gnuplot NAME.gp` by hand draws it (no setting of one chart,
   a log scale, reaches the next). */
START_TEST(test_two_gnuplots_for_all_charts)
{
  if (!have_gnuplot() || sysconf(_SC_NPROCESSORS_ONLN) < 2)
    return;
  struct run_lab lab;
  struct run_result r;
  fake(&lab, &r, THREE_CHARTS);
  counting_gnuplot(1);
  char paths[1024], err[1024] = "";
  ck_assert_msg(plot_lab_charts(&lab, &r, paths, sizeof paths, err, sizeof err) == PLOT_OK, "%s",
                err);
  char runs[16][512], met[16][512];
  ck_assert_int_eq(log_lines("gnuplot.log", runs, 16), 2);
  ck_assert_int_eq(log_lines("meet.log", met, 16), 2);    /* at once, not in turn */
  const char *scripts[] = {"a.gp", "b.gp", "c.gp"};
  for (int i = 0; i < 3; i++) {
    ck_assert_int_eq(script_in(runs[0], scripts[i]) + script_in(runs[1], scripts[i]), 1);
  }
  ck_assert(script_in(runs[0], "a.gp") + script_in(runs[0], "b.gp") +
            script_in(runs[0], "c.gp") >= 1);     /* neither gnuplot idle */
  ck_assert(script_in(runs[1], "a.gp") + script_in(runs[1], "b.gp") +
            script_in(runs[1], "c.gp") >= 1);
  char want[512];
  snprintf(want, sizeof want, "%s/a.png\n%s/b.png\n%s/c.png", dir, dir, dir);
  ck_assert_str_eq(paths, want);
  static char batch[1 << 17], alone[1 << 17];
  const char *names[] = {"a", "b", "c"};
  for (int i = 0; i < 3; i++) {
    char png[64], script[64];
    snprintf(png, sizeof png, "%s.png", names[i]);
    snprintf(script, sizeof script, "%s.gp", names[i]);
    size_t n = slurp(png, batch, sizeof batch);
    ck_assert_int_eq(plot_run_script(dir, script, err, sizeof err), PLOT_OK);
    ck_assert_uint_eq(slurp(png, alone, sizeof alone), n);
    ck_assert_msg(!memcmp(batch, alone, n), "%s differs from `gnuplot %s`", png, script);
  }
}
END_TEST

/* One chart: one gnuplot, as before. */
START_TEST(test_one_chart_one_gnuplot)
{
  if (!have_gnuplot())
    return;
  struct run_lab lab;
  struct run_result r;
  fake(&lab, &r, "{\"charts\": [{\"name\": \"a\", \"sweep\": \"shapes\", \"y\": [\"spr\"]}]}");
  counting_gnuplot(0);
  char paths[1024], err[1024] = "";
  ck_assert_msg(plot_lab_charts(&lab, &r, paths, sizeof paths, err, sizeof err) == PLOT_OK, "%s",
                err);
  char runs[16][512];
  ck_assert_int_eq(log_lines("gnuplot.log", runs, 16), 1);
  ck_assert_int_eq(script_in(runs[0], "a.gp"), 1);
  char want[512];
  snprintf(want, sizeof want, "%s/a.png", dir);
  ck_assert_str_eq(paths, want);
}
END_TEST

/* A chart whose script fails (its PNG cannot be written: a folder has its name) is named
   with gnuplot's message; the charts before and after it are drawn: the failing one and
   those after it in its gnuplot's share are drawn again alone. */
START_TEST(test_failing_chart_named_others_drawn)
{
  if (!have_gnuplot())
    return;
  struct run_lab lab;
  struct run_result r;
  fake(&lab, &r, THREE_CHARTS);
  counting_gnuplot(0);
  char blocker[256];
  snprintf(blocker, sizeof blocker, "%s/b.png", dir);
  ck_assert_int_eq(mkdir(blocker, 0755), 0);
  char paths[1024], err[1024] = "";
  int rc = plot_lab_charts(&lab, &r, paths, sizeof paths, err, sizeof err);
  ck_assert_int_eq(rmdir(blocker), 0);
  ck_assert_int_eq(rc, PLOT_FAILED);
  ck_assert_msg(strstr(err, "gnuplot failed on ") && strstr(err, "/b.gp: "), "%s", err);
  ck_assert_ptr_nonnull(strstr(err, "cannot open file"));
  char want[512];
  snprintf(want, sizeof want, "%s/a.png\n%s/c.png", dir, dir);
  ck_assert_str_eq(paths, want);
  static char text[1 << 17];
  ck_assert_uint_gt(slurp("c.png", text, sizeof text), 5000);
  ck_assert_ptr_nonnull(strstr(text, "PNG"));
  /* the batches (each chart in one), then b alone, and c alone where it came after b */
  char runs[16][512];
  int n = log_lines("gnuplot.log", runs, 16), batches = 0, b_alone = 0, c_alone = 0, c_after_b = 0;
  for (int i = 0; i < n; i++) {
    if (strstr(runs[i], "reset session")) {
      batches++;
      const char *pb = strstr(runs[i], " b.gp"), *pc = strstr(runs[i], " c.gp");
      c_after_b |= pb && pc && pc > pb;
    }
    b_alone += !strcmp(runs[i], "b.gp");
    c_alone += !strcmp(runs[i], "c.gp");
  }
  int two = sysconf(_SC_NPROCESSORS_ONLN) >= 2;
  ck_assert_int_eq(batches, two ? 2 : 1);
  ck_assert_int_eq(b_alone, 1);
  ck_assert_int_eq(c_alone, c_after_b);
  ck_assert_int_eq(n, batches + 1 + c_after_b);
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
    ck_assert_int_eq(fake_rc, -1);
    ck_assert_uint_eq(lab.ncharts, 0);
    ck_assert_msg(strstr(fake_err, rows[i].msg) != NULL, "%s: message '%s' lacks '%s'",
                  rows[i].json, fake_err, rows[i].msg);
    ck_assert_ptr_nonnull(strstr(fake_err, "labs/99-fake/lab.json"));
  }
}
END_TEST

/* ---- line charts ---- */

/* The H200 profile's numbers a prediction below uses. */
static struct occ_profile h200(void)
{
  struct occ_profile p;
  struct occ_error e;
  ck_assert_msg(occ_profile_load("h200", &p, &e) == OCC_OK, "%s", e.msg);
  return p;
}

static void add_warps_point(struct run_result *r, const char *sweep, int64_t unroll,
                            int64_t warps, double time_ns)
{
  struct run_point *p = &r->points[r->npoints++];
  snprintf(p->sweep, sizeof p->sweep, "%s", sweep);
  snprintf(p->label, sizeof p->label, "%lldx%lld", (long long)unroll, (long long)warps);
  run_sizes_set(&p->choices, "UNROLL", unroll);
  run_sizes_set(&p->choices, "WARPS", warps);
  p->correct = 1;
  struct run_metric *m = &p->metric[p->nmetrics++];
  snprintf(m->name, sizeof m->name, "gpu__time_duration.sum");
  m->value = time_ns;
  m->defined = 1;
  snprintf(m->kind, sizeof m->kind, "modelled");
}

/* Lab 03's shape: a main configuration 8x8 (UNROLL 8, 8 warps) and two sweeps over warps,
   given out of order; n = 1024 elements. */
static void fake_warps(struct run_lab *lab, struct run_result *r, const char *charts)
{
  memset(lab, 0, sizeof *lab);
  memset(r, 0, sizeof *r);
  snprintf(lab->dir, sizeof lab->dir, "labs/99-fake");
  snprintf(lab->sweeps[0].name, sizeof lab->sweeps[0].name, "u1");
  snprintf(lab->sweeps[1].name, sizeof lab->sweeps[1].name, "u8");
  lab->nsweeps = 2;
  fake_charts(lab, charts);
  snprintf(r->results_dir, sizeof r->results_dir, "%s", dir);
  snprintf(r->prov.backend, sizeof r->prov.backend, "emu");
  snprintf(r->prov.device, sizeof r->prov.device, "warplab emulator, profile NVIDIA H200");
  snprintf(r->prov.profile, sizeof r->prov.profile, "h200");
  run_profile(r);
  snprintf(r->prov.sizes, sizeof r->prov.sizes, "n=1024 blocks=8");
  add_warps_point(r, "", 8, 8, 40);
  static const int64_t warps[] = {16, 4, 64, 8};
  for (int k = 0; k < 4; k++)
    add_warps_point(r, "u1", 1, warps[k], 1000.0 / (double)warps[k]);
  for (int k = 0; k < 4; k++)
    add_warps_point(r, "u8", 8, warps[k], 100.0 / (double)warps[k]);
}

#define LITTLE "min(dram_bandwidth_gbs, WARPS * 32 * UNROLL * 12 * sm_count * sm_clock_mhz / 1000 / dram_cycles)"

static const char bandwidth_chart[] =
  "{\"charts\": [{\"name\": \"bw\", \"title\": \"Bandwidth\", \"style\": \"lines\","
  " \"sweeps\": [\"u1\", \"u8\"], \"x\": \"WARPS\", \"xlog\": true, \"xlabel\": \"warps per SM\","
  " \"y\": [\"12 * n / gpu__time_duration.sum\"], \"labels\": [\"bandwidth\"], \"ylabel\": \"GB/s\","
  " \"predict\": \"" LITTLE "\", \"predict_label\": \"prediction (Little's law)\"}]}";

static double little(const struct occ_profile *p, double warps, double unroll)
{
  return fmin(p->dram_bandwidth_gbs, warps * 32 * unroll * 12 * p->sm_count * p->sm_clock_mhz /
              1000 / p->dram_cycles);
}

/* The lines of block `index` of a line chart's data file (comments left out), into lines. */
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

START_TEST(test_line_chart_data)
{
  struct run_lab lab;
  struct run_result r;
  fake_warps(&lab, &r, bandwidth_chart);
  setenv("PATH", "/nonexistent", 1);     /* the data and script alone; drawn below */
  char paths[1024], err[512] = "";
  ck_assert_int_eq(plot_lab_charts(&lab, &r, paths, sizeof paths, err, sizeof err),
                   PLOT_NO_GNUPLOT);
  static char text[1 << 16];
  slurp("bw.dat", text, sizeof text);
  struct occ_profile p = h200();
  /* each sweep a block, its points in the order of x; the main configuration marked in the
     second, whose choices it has */
  static const char *const want_labels[2][4] = {{"1x4", "1x8", "1x16", "1x64"},
                                                {"8x4", "8x8 (yours)", "8x16", "8x64"}};
  static const double want_x[] = {4, 8, 16, 64};
  for (int k = 0; k < 2; k++) {
    char lines[8][256];
    ck_assert_int_eq(dat_block(text, k, lines, 8), 4);
    for (int i = 0; i < 4; i++) {
      char label[64];
      double x, bw, pred;
      ck_assert_msg(sscanf(lines[i], "%63[^\t]\t%lf\t%lf\t%lf", label, &x, &bw, &pred) == 4, "%s",
                    lines[i]);
      ck_assert_str_eq(label, want_labels[k][i]);
      ck_assert(x == want_x[i]);
      double t = (k ? 100.0 : 1000.0) / x;
      ck_assert_msg(fabs(bw - 12 * 1024 / t) < 1e-6 * bw, "%s: bandwidth %g", lines[i], bw);
      double want = little(&p, x, k ? 8 : 1);
      ck_assert_msg(fabs(pred - want) < 1e-6 * want, "%s: prediction %g, the formula %g",
                    lines[i], pred, want);
    }
  }
  /* the predictions along x: 4 to 64 warps, on the formula, with the knee of UNROLL 1 */
  char curve[200][256];
  int n = dat_block(text, 2, curve, 200);
  ck_assert_int_gt(n, 50);
  double x0, y0, x1, y1;
  ck_assert(sscanf(curve[0], "%lf\t%lf", &x0, &y0) == 2 && x0 == 4);
  ck_assert(sscanf(curve[n - 1], "%lf\t%lf", &x1, &y1) == 2 && fabs(x1 - 64) < 1e-9);
  int below = 0, capped = 0;
  for (int i = 0; i < n; i++) {
    double x, y;
    ck_assert(sscanf(curve[i], "%lf\t%lf", &x, &y) == 2);
    ck_assert_msg(fabs(y - little(&p, x, 1)) < 1e-6 * y, "at %g warps: %g", x, y);
    below += y < p.dram_bandwidth_gbs;
    capped += y == p.dram_bandwidth_gbs;
  }
  ck_assert(below > 0 && capped > 0);
  ck_assert_int_gt(dat_block(text, 3, curve, 200), 50);   /* UNROLL 8's */
  slurp("bw.gp", text, sizeof text);
  ck_assert_ptr_nonnull(strstr(text, "set logscale x 2"));
  ck_assert_ptr_nonnull(strstr(text, "set xtics (\"4\" 4, \"8\" 8, \"16\" 16, \"64\" 64)"));
  ck_assert_ptr_nonnull(strstr(text, "set xlabel \"warps per SM\""));
  ck_assert_ptr_nonnull(strstr(text, "index 0 using 2:(column(3)) with linespoints"));
  ck_assert_ptr_nonnull(strstr(text, "\"u1 (modelled)\""));
  ck_assert_ptr_nonnull(strstr(text, "index 2 using 1:2 with lines dt"));   /* dashed */
  ck_assert_ptr_nonnull(strstr(text, "title \"prediction (Little's law), u8\""));
  ck_assert_ptr_nonnull(strstr(text, "(yours): the kernel file's own choice"));
  /* the formula and the profile's numbers it used, in the heading */
  ck_assert_ptr_nonnull(strstr(text, "prediction (Little's law) = " LITTLE));
  ck_assert_ptr_nonnull(strstr(text, "dram_cycles = 641"));
  ck_assert_ptr_nonnull(strstr(text, "(h200.conf)"));
}
END_TEST

START_TEST(test_line_chart_drawn)
{
  if (!have_gnuplot())
    return;
  struct run_lab lab;
  struct run_result r;
  fake_warps(&lab, &r, bandwidth_chart);
  char paths[1024], err[512] = "";
  ck_assert_int_eq(plot_lab_charts(&lab, &r, paths, sizeof paths, err, sizeof err), PLOT_OK);
  static char text[1 << 16];
  ck_assert_uint_gt(slurp("bw.png", text, sizeof text), 5000);
  ck_assert_mem_eq(text, "\x89PNG\r\n\x1a\n", 8);
  char out[16384];
  ck_assert_int_eq(plot_terminal_chart(&lab, &r, "bw", 100, 30, out, sizeof out, err, sizeof err),
                   PLOT_OK);
  ck_assert_ptr_nonnull(strstr(out, "Bandwidth"));
  ck_assert_ptr_nonnull(strstr(out, "prediction (Little's law)"));
}
END_TEST

/* For another renderer: the points with their x, the prediction as the last series. */
START_TEST(test_line_chart_plot_data)
{
  struct run_lab lab;
  struct run_result r;
  fake_warps(&lab, &r, bandwidth_chart);
  static struct plot_data d;
  char err[512] = "";
  ck_assert_int_eq(plot_chart_data(&lab, &r, 0, &d, err, sizeof err), PLOT_OK);
  ck_assert(d.lines);
  ck_assert_str_eq(d.xlabel, "warps per SM");
  ck_assert_uint_eq(d.nseries, 2);
  ck_assert_str_eq(d.label[1], "prediction (Little's law)");
  ck_assert_str_eq(d.kind[1], "predicted");
  ck_assert_uint_eq(d.nrows, 8);
  ck_assert_uint_eq(d.ndefined[1], 8);
  struct occ_profile p = h200();
  for (uint32_t i = 0; i < d.nrows; i++) {
    ck_assert(d.rows[i].x_defined);
    ck_assert_uint_eq(d.rows[i].sweep, i / 4);
    double want = little(&p, d.rows[i].x, i < 4 ? 1 : 8);
    ck_assert(fabs(d.rows[i].v[1] - want) < 1e-6 * want);
  }
  ck_assert(d.rows[5].is_main);
  ck_assert_uint_eq(d.nnotes, 0);
}
END_TEST

/* x a metric (lab 02's time against achieved occupancy): the points in the order of the
   metric, the prediction through them (no curve: x is no choice to sample along). */
START_TEST(test_line_chart_x_metric)
{
  struct run_lab lab;
  struct run_result r;
  fake_warps(&lab, &r,
             "{\"charts\": [{\"name\": \"t\", \"style\": \"lines\", \"sweep\": \"u1\","
             " \"x\": \"gpu__time_duration.sum\", \"y\": [\"WARPS\"],"
             " \"predict\": \"1000 / gpu__time_duration.sum\"}]}");
  setenv("PATH", "/nonexistent", 1);
  char paths[256], err[512] = "";
  ck_assert_int_eq(plot_lab_charts(&lab, &r, paths, sizeof paths, err, sizeof err),
                   PLOT_NO_GNUPLOT);
  static char text[1 << 16];
  slurp("t.dat", text, sizeof text);
  char lines[8][256];
  ck_assert_int_eq(dat_block(text, 0, lines, 8), 4);
  ck_assert_int_eq(dat_block(text, 1, lines + 4, 4), 0);   /* no curve */
  static const char *const want[] = {"1x64\t15.625\t64\t64", "1x16\t62.5\t16\t16",
                                     "1x8\t125\t8\t8", "1x4\t250\t4\t4"};
  for (int i = 0; i < 4; i++)
    ck_assert_str_eq(lines[i], want[i]);
  slurp("t.gp", text, sizeof text);
  ck_assert_ptr_nonnull(strstr(text, "index 0 using 2:(column(4)) with lines dt"));
  ck_assert_ptr_null(strstr(text, "set logscale x"));
}
END_TEST

/* A y that names what a run lacks, a prediction that names what no profile has: no values,
   and notes that say which name. */
START_TEST(test_line_chart_missing)
{
  struct run_lab lab;
  struct run_result r;
  fake_warps(&lab, &r,
             "{\"charts\": [{\"name\": \"m\", \"style\": \"lines\", \"sweep\": \"u1\","
             " \"x\": \"WARPS\", \"y\": [\"12 * n / dram__bytes.sum\", \"WARPS * nosuch\"],"
             " \"labels\": [\"dram\", \"odd\"], \"predict\": \"WARPS * no_such_key\"}]}");
  r.points[2].metric[0].defined = 0;   /* u1 at 4 warps: no time */
  static struct plot_data d;
  char err[512] = "";
  ck_assert_int_eq(plot_chart_data(&lab, &r, 0, &d, err, sizeof err), PLOT_OK);
  ck_assert_uint_eq(d.ndefined[0], 0);
  ck_assert_uint_eq(d.ndefined[1], 0);
  ck_assert_uint_eq(d.ndefined[2], 0);
  char all[4096] = "";
  for (uint32_t k = 0; k < d.nnotes; k++)
    snprintf(all + strlen(all), sizeof all - strlen(all), "%s\n", d.notes[k]);
  ck_assert_msg(strstr(all, "dram: not counted by the emulator") != NULL, "%s", all);
  ck_assert_msg(strstr(all, "odd: 'nosuch' is no metric, choice, size or profile number") != NULL,
                "%s", all);
  ck_assert_msg(strstr(all, "prediction: no value for 1x16: ") != NULL &&
                strstr(all, "unknown name 'no_such_key'") != NULL, "%s", all);
  /* y from a time some points lack: the others drawn, the lacking ones named */
  fake_warps(&lab, &r,
             "{\"charts\": [{\"name\": \"m\", \"style\": \"lines\", \"sweep\": \"u1\","
             " \"x\": \"WARPS\", \"y\": [\"12 * n / gpu__time_duration.sum\"]}]}");
  r.points[2].metric[0].defined = 0;
  ck_assert_int_eq(plot_chart_data(&lab, &r, 0, &d, err, sizeof err), PLOT_OK);
  ck_assert_uint_eq(d.ndefined[0], 3);
  ck_assert_str_eq(d.kind[0], "modelled");   /* the kind of the metric it reads */
  ck_assert_ptr_nonnull(strstr(d.notes[0], "no values for 1x4"));
}
END_TEST

START_TEST(test_bad_line_charts)
{
  static const struct { const char *json, *msg; } rows[] = {
    {"{\"charts\": [{\"name\": \"x\", \"style\": \"lines\", \"sweep\": \"u1\", \"y\": [\"a\"]}]}",
     "a line chart needs \"x\""},
    {"{\"charts\": [{\"name\": \"x\", \"style\": \"lines\", \"x\": \"WARPS\", \"y\": [\"a\"]}]}",
     "needs \"sweep\" or \"sweeps\""},
    {"{\"charts\": [{\"name\": \"x\", \"style\": \"lines\", \"x\": \"WARPS\", \"sweep\": \"u1\","
     " \"sweeps\": [\"u8\"], \"y\": [\"a\"]}]}", "not both"},
    {"{\"charts\": [{\"name\": \"x\", \"style\": \"lines\", \"x\": \"WARPS\", \"sweeps\": [\"u9\"],"
     " \"y\": [\"a\"]}]}", "\"sweeps\"[0] 'u9' is not one of the lab's sweeps"},
    {"{\"charts\": [{\"name\": \"x\", \"style\": \"lines\", \"x\": \"WARPS\", \"sweeps\": [],"
     " \"y\": [\"a\"]}]}", "\"sweeps\" must list 1 to"},
    {"{\"charts\": [{\"name\": \"x\", \"style\": \"lines\", \"x\": \"WARPS +\", \"sweep\": \"u1\","
     " \"y\": [\"a\"]}]}", "\"x\": 'WARPS +': unexpected end at column 8"},
    {"{\"charts\": [{\"name\": \"x\", \"style\": \"lines\", \"x\": \"WARPS\", \"sweep\": \"u1\","
     " \"y\": [\"a\"], \"predict\": \"min(1)\"}]}", "\"predict\": 'min(1)': min takes at least 2"},
    {"{\"charts\": [{\"name\": \"x\", \"style\": \"lines\", \"x\": \"WARPS\", \"sweep\": \"u1\","
     " \"y\": [\"a * (b\"]}]}", "\"y\"[0]: 'a * (b': expected ')'"},
    {"{\"charts\": [{\"name\": \"x\", \"style\": \"lines\", \"x\": \"WARPS\", \"sweeps\": [\"u1\", \"u8\"],"
     " \"y\": [\"a\", \"b\", \"c\", \"d\"]}]}", "4 metrics of \"y\" over 2 sweeps make 8 lines"},
    {"{\"charts\": [{\"name\": \"x\", \"style\": \"lines\", \"x\": \"WARPS\", \"sweep\": \"u1\","
     " \"y\": [\"a\", \"b\", \"c\", \"d\", \"e\", \"f\"], \"predict\": \"1\"}]}",
     "with \"predict\", \"y\" may list at most 5"},
    {"{\"charts\": [{\"name\": \"x\", \"sweep\": \"u1\", \"y\": [\"a\"], \"predict\": \"1\"}]}",
     "\"predict\" belongs to line charts"},
    {"{\"charts\": [{\"name\": \"x\", \"sweep\": \"u1\", \"y\": [\"a\"], \"xlog\": true}]}",
     "\"xlog\" belongs to line charts"},
    {"{\"charts\": [{\"name\": \"x\", \"style\": \"lines\", \"x\": \"WARPS\", \"sweep\": \"u1\","
     " \"y\": [\"a\"], \"xlog\": 1}]}", "\"xlog\" must be true or false"},
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    struct run_lab lab;
    struct run_result r;
    fake_warps(&lab, &r, rows[i].json);
    ck_assert_int_eq(fake_rc, -1);
    ck_assert_uint_eq(lab.ncharts, 0);
    ck_assert_msg(strstr(fake_err, rows[i].msg) != NULL, "%s: message '%s' lacks '%s'",
                  rows[i].json, fake_err, rows[i].msg);
    ck_assert_ptr_nonnull(strstr(fake_err, "labs/99-fake/lab.json"));
  }
}
END_TEST

/* A benchmark's folder (lab 03's fma.sh): its charts.json replaces the lab's charts, its
   points' sweeps become the lab's; a folder without one is left alone. */
START_TEST(test_folder_charts)
{
  struct run_lab lab;
  struct run_result r;
  fake_warps(&lab, &r, "{\"lab\": \"99-fake\", \"charts\": []}");
  for (uint32_t i = 0; i < r.npoints; i++)
    snprintf(r.points[i].sweep, sizeof r.points[i].sweep, "%s", i < 5 ? "bench a" : "bench b");
  char err[512] = "";
  ck_assert_int_eq(plot_use_folder_charts(&lab, &r, dir, err, sizeof err), 0);
  ck_assert_uint_eq(plot_chart_count(&lab), 0);
  char path[256];
  snprintf(path, sizeof path, "%s/charts.json", dir);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs("{\"charts\": [{\"name\": \"b\", \"style\": \"lines\", \"sweeps\": [\"bench a\", \"bench b\"],"
        " \"x\": \"WARPS\", \"y\": [\"gpu__time_duration.sum\"], \"predict\": \"2 * WARPS\"}]}", f);
  fclose(f);
  ck_assert_int_eq(plot_use_folder_charts(&lab, &r, dir, err, sizeof err), 1);
  ck_assert_uint_eq(plot_chart_count(&lab), 1);
  ck_assert_uint_eq(lab.nsweeps, 2);
  ck_assert_str_eq(lab.sweeps[0].name, "bench a");
  ck_assert_str_eq(lab.sweeps[1].name, "bench b");
  static struct plot_data d;
  ck_assert_int_eq(plot_chart_data(&lab, &r, 0, &d, err, sizeof err), PLOT_OK);
  ck_assert_uint_eq(d.nrows, 9);   /* the first point too: no main configuration here */
  for (uint32_t i = 0; i < d.nrows; i++)
    ck_assert(d.rows[i].defined[1] && d.rows[i].v[1] == 2 * d.rows[i].x);
  /* its errors name charts.json */
  ck_assert_int_eq(plot_chart_data(&lab, &r, 3, &d, err, sizeof err), PLOT_BAD_CHART);
  ck_assert_ptr_nonnull(strstr(err, "/charts.json has no chart number 4"));
  /* its charts are checked as a lab's are: a malformed expression is refused with its place */
  f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs("{\"charts\": [{\"name\": \"b\", \"style\": \"lines\", \"sweep\": \"bench a\","
        " \"x\": \"WARPS +\", \"y\": [\"gpu__time_duration.sum\"]}]}", f);
  fclose(f);
  ck_assert_int_eq(plot_use_folder_charts(&lab, &r, dir, err, sizeof err), -1);
  ck_assert_msg(strstr(err, "/charts.json: chart 'b': \"x\": 'WARPS +': unexpected end at column 8"),
                "%s", err);
  f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs("{\"charts\": [", f);
  fclose(f);
  ck_assert_int_eq(plot_use_folder_charts(&lab, &r, dir, err, sizeof err), -1);
  ck_assert_ptr_nonnull(strstr(err, "charts.json:1:"));
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
  tcase_add_test(t, test_two_gnuplots_for_all_charts);
  tcase_add_test(t, test_one_chart_one_gnuplot);
  tcase_add_test(t, test_failing_chart_named_others_drawn);
  tcase_add_test(t, test_bad_charts);
  tcase_add_test(t, test_line_chart_data);
  tcase_add_test(t, test_line_chart_drawn);
  tcase_add_test(t, test_line_chart_plot_data);
  tcase_add_test(t, test_line_chart_missing);
  tcase_add_test(t, test_line_chart_x_metric);
  tcase_add_test(t, test_bad_line_charts);
  tcase_add_test(t, test_folder_charts);
  suite_add_tcase(s, t);
  return s;
}
