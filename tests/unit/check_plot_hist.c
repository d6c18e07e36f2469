/* check_plot_hist.c: distributions (plots/plot_hist.c): values counted into bins of a width a
 * reader can name, the last bin closed, values outside a given range in the end bins; a bar
 * per distinct value when there are few; bars split by zone, first zone first; bins aligned
 * on zone boundaries; marks placed on a categorical axis; bad input refused; the data file,
 * the script and, when gnuplot is installed, the PNG and the SVG; no gnuplot is a status. */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plots/plot.h"
#include "plots/plot_hist.h"
#include "suites.h"

static char dir[64];

static void setup(void)
{
  snprintf(dir, sizeof dir, "/tmp/warplab-hist-XXXXXX");
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

static struct plot_hist *hist(const char *name, const double *v, uint32_t n)
{
  static struct plot_hist h;
  plot_hist_init(&h);
  snprintf(h.name, sizeof h.name, "%s", name);
  h.values = v;
  h.nvalues = n;
  return &h;
}

static struct plot_hist_bars *count(const struct plot_hist *h)
{
  static struct plot_hist_bars b;
  char err[512];
  ck_assert_msg(plot_hist_count(h, &b, err, sizeof err) == 0, "%s", err);
  return &b;
}

static char *slurp(const char *name)
{
  char path[256];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  static char buf[1 << 16];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = 0;
  fclose(f);
  return buf;
}

static int have_gnuplot(void)
{
  char p[1024];
  return plot_find_gnuplot(p, sizeof p) == 0;
}

/* Scores of 100 in bins of 10: 10 bins, 100 in the last (closed) one, 10 in the second. */
START_TEST(hist_score_bins)
{
  static const double v[] = {0, 9.99, 10, 95, 100, 100};
  struct plot_hist *h = hist("score", v, 6);
  h->mode = PLOT_HIST_BINS;
  h->lo = 0;
  h->hi = 100;
  h->width = 10;
  struct plot_hist_bars *b = count(h);
  ck_assert_int_eq(b->distinct, 0);
  ck_assert_uint_eq(b->nbars, 10);
  static const unsigned want[10] = {2, 1, 0, 0, 0, 0, 0, 0, 0, 3};
  for (uint32_t i = 0; i < 10; i++) {
    ck_assert_uint_eq(b->bar[i].count, want[i]);
    ck_assert_double_eq_tol(b->bar[i].lo, 10.0 * i, 1e-9);
    ck_assert_double_eq_tol(b->bar[i].x, 10.0 * i + 5, 1e-9);
  }
  ck_assert_str_eq(b->bar[9].label, "90-100");
  ck_assert_uint_eq(b->max_count, 3);
  ck_assert_uint_eq(b->nvalues, 6);
}
END_TEST

/* Few distinct values: a bar each, in order, NaN and infinities left out and counted. */
START_TEST(hist_distinct_values)
{
  static const double v[] = {8, 4, 12, 4, NAN, INFINITY, 4};
  struct plot_hist_bars *b = count(hist("sectors", v, 7));
  ck_assert_int_eq(b->distinct, 1);
  ck_assert_uint_eq(b->nbars, 3);
  ck_assert_uint_eq(b->nskipped, 2);
  ck_assert_uint_eq(b->nvalues, 5);
  static const char *const label[] = {"4", "8", "12"};
  static const unsigned want[] = {3, 1, 1};
  for (uint32_t i = 0; i < 3; i++) {
    ck_assert_str_eq(b->bar[i].label, label[i]);
    ck_assert_uint_eq(b->bar[i].count, want[i]);
    ck_assert_double_eq(b->bar[i].x, i);
  }
}
END_TEST

/* Many distinct values: bins whose width is 1, 2, 2.5 or 5 times a power of ten, edges on
   its multiples, every value in exactly one bin, and its own. */
START_TEST(hist_auto_bins_are_nice)
{
  static const double scales[] = {1, 0.001, 37, 1e6};
  for (size_t s = 0; s < sizeof scales / sizeof *scales; s++) {
    double v[50];
    for (int i = 0; i < 50; i++)
      v[i] = scales[s] * (3.3 + i * i * 0.07);
    struct plot_hist_bars *b = count(hist("x", v, 50));
    ck_assert_int_eq(b->distinct, 0);
    ck_assert_uint_ge(b->nbars, 5);
    ck_assert_uint_le(b->nbars, PLOT_HIST_MAX_BINS);
    double e = pow(10, floor(log10(b->width))), m = b->width / e;
    ck_assert_msg(fabs(m - 1) < 1e-9 || fabs(m - 2) < 1e-9 || fabs(m - 2.5) < 1e-9 ||
                  fabs(m - 5) < 1e-9, "width %g", b->width);
    double q = b->bar[0].lo / b->width;
    ck_assert_double_eq_tol(q, round(q), 1e-6);
    unsigned total = 0;
    for (uint32_t i = 0; i < b->nbars; i++) {
      total += b->bar[i].count;
      unsigned mine = 0;
      for (int k = 0; k < 50; k++)
        mine += v[k] >= b->bar[i].lo - 1e-9 * b->width &&
                (v[k] < b->bar[i].hi - 1e-9 * b->width || (i == b->nbars - 1 && v[k] <= b->bar[i].hi));
      ck_assert_uint_eq(b->bar[i].count, mine);
    }
    ck_assert_uint_eq(total, 50);
  }
}
END_TEST

/* Zones: a value belongs to the first zone that holds it (4 meets "at most 4"), and a bar
   counts its values by zone. */
START_TEST(hist_zones_split_bars)
{
  static const double v[] = {4, 4, 8, 3.5, 12};
  struct plot_hist *h = hist("target", v, 5);
  h->nzones = 2;
  h->zones[0] = (struct plot_hist_zone){-INFINITY, 4, "meets", ""};
  h->zones[1] = (struct plot_hist_zone){-INFINITY, INFINITY, "misses", ""};
  struct plot_hist_bars *b = count(h);
  ck_assert_uint_eq(b->nbars, 4);
  ck_assert(b->bar[0].zone_count[0] == 1 && b->bar[0].zone_count[1] == 0);   /* 3.5 */
  ck_assert(b->bar[1].zone_count[0] == 2 && b->bar[1].zone_count[1] == 0);   /* 4 */
  ck_assert(b->bar[2].zone_count[0] == 0 && b->bar[2].zone_count[1] == 1);   /* 8 */
  /* in bins: one bin holding both sides of the target counts both */
  h->mode = PLOT_HIST_BINS;
  h->width = 10;
  h->lo = 0;
  b = count(h);
  ck_assert_uint_eq(b->nbars, 2);
  ck_assert(b->bar[0].zone_count[0] == 3 && b->bar[0].zone_count[1] == 1);
  ck_assert(b->bar[1].zone_count[0] == 0 && b->bar[1].zone_count[1] == 1);
  /* a value in no zone: the implicit last one (8 is in [5, 9]; 3.5, 4, 4 and 12 in none) */
  h->nzones = 1;
  h->zones[0] = (struct plot_hist_zone){5, 9, "middle", ""};
  b = count(h);
  ck_assert(b->bar[0].zone_count[0] == 1 && b->bar[0].zone_count[1] == 3);
  ck_assert(b->bar[1].zone_count[0] == 0 && b->bar[1].zone_count[1] == 1);
}
END_TEST

/* Chosen bins put the zone boundaries among the values on edges: 1.2 and 2.0 (the
   performance bands) are edges, so no bar mixes full and partial points. */
START_TEST(hist_bins_align_on_zones)
{
  double v[16];
  for (int i = 0; i < 16; i++)
    v[i] = 0.95 + i * 0.143;
  struct plot_hist *h = hist("ratio", v, 16);
  h->mode = PLOT_HIST_BINS;
  h->nzones = 3;
  h->zones[0] = (struct plot_hist_zone){-INFINITY, 1.2, "full", ""};
  h->zones[1] = (struct plot_hist_zone){-INFINITY, 2.0, "part", ""};
  h->zones[2] = (struct plot_hist_zone){-INFINITY, INFINITY, "none", ""};
  struct plot_hist_bars *b = count(h);
  int at12 = 0, at20 = 0;
  for (uint32_t i = 0; i < b->nbars; i++) {
    at12 |= fabs(b->bar[i].lo - 1.2) < 1e-9;
    at20 |= fabs(b->bar[i].lo - 2.0) < 1e-9;
  }
  ck_assert_msg(at12 && at20, "width %g from %g: 1.2 and 2.0 are not edges", b->width, b->bar[0].lo);
}
END_TEST

/* A given range: values outside it fall in the end bins, not out of the chart. */
START_TEST(hist_range_clamps)
{
  static const double v[] = {-5, 0, 50, 100, 130};
  struct plot_hist *h = hist("clamp", v, 5);
  h->mode = PLOT_HIST_BINS;
  h->lo = 0;
  h->hi = 100;
  h->width = 25;
  struct plot_hist_bars *b = count(h);
  ck_assert_uint_eq(b->nbars, 4);
  ck_assert_uint_eq(b->bar[0].count, 2);
  ck_assert_uint_eq(b->bar[2].count, 1);
  ck_assert_uint_eq(b->bar[3].count, 2);
}
END_TEST

/* Marks on a bar per distinct value: on a value's bar, between two in proportion, beyond the
   ends just outside; with bins, the value itself. */
START_TEST(hist_axis_x)
{
  static const double v[] = {4, 8, 12, 12};
  struct plot_hist_bars *b = count(hist("axis", v, 4));
  ck_assert_double_eq(plot_hist_axis_x(b, 4), 0);
  ck_assert_double_eq(plot_hist_axis_x(b, 12), 2);
  ck_assert_double_eq_tol(plot_hist_axis_x(b, 6), 0.5, 1e-12);
  ck_assert_double_eq_tol(plot_hist_axis_x(b, 11), 1.75, 1e-12);
  ck_assert_double_lt(plot_hist_axis_x(b, 1), 0);
  ck_assert_double_gt(plot_hist_axis_x(b, 40), 2);
  struct plot_hist *h = hist("axis", v, 4);
  h->mode = PLOT_HIST_BINS;
  b = count(h);
  ck_assert_double_eq(plot_hist_axis_x(b, 6.5), 6.5);
}
END_TEST

START_TEST(hist_bad_input)
{
  static const double v[] = {1, 2, 3};
  struct plot_hist_bars b;
  char err[512];
  struct plot_hist *h = hist("a/b", v, 3);
  ck_assert_int_eq(plot_hist_count(h, &b, err, sizeof err), -1);
  ck_assert_ptr_nonnull(strstr(err, "names the chart's files"));
  h = hist("w", v, 3);
  h->mode = PLOT_HIST_BINS;
  h->width = -1;
  ck_assert_int_eq(plot_hist_count(h, &b, err, sizeof err), -1);
  h->width = 1;
  h->lo = 5;
  h->hi = 5;
  ck_assert_int_eq(plot_hist_count(h, &b, err, sizeof err), -1);
  ck_assert_ptr_nonnull(strstr(err, "empty"));
  h->lo = 0;
  h->hi = 1000;
  h->width = 1;                                 /* 1000 bars */
  ck_assert_int_eq(plot_hist_count(h, &b, err, sizeof err), -1);
  ck_assert_ptr_nonnull(strstr(err, "more than"));
  ck_assert_int_eq(plot_hist_draw(h, dir, err, sizeof err, err, sizeof err), PLOT_BAD_CHART);
}
END_TEST

/* The files: the data (a line per bar with its zone counts), the script (which reads it by
   name), and the pictures when gnuplot is there. */
START_TEST(hist_draws_files)
{
  static const double v[] = {4, 4, 8, 12};
  struct plot_hist *h = hist("sect.req", v, 4);
  snprintf(h->title, sizeof h->title, "Sectors \"per\" request");
  snprintf(h->xlabel, sizeof h->xlabel, "sectors per request");
  h->nzones = 2;
  h->zones[0] = (struct plot_hist_zone){-INFINITY, 4, "meets the target", "#4E9A57"};
  h->zones[1] = (struct plot_hist_zone){-INFINITY, INFINITY, "misses it", "#C0504D"};
  h->nmarks = 2;
  h->marks[0] = (struct plot_hist_mark){4, "reference solution: 4"};
  h->marks[1] = (struct plot_hist_mark){6, "between"};
  snprintf(h->notes[0], sizeof h->notes[0], "1 student without a value");
  h->nnotes = 1;
  char png[1200], err[1024];
  int rc = plot_hist_draw(h, dir, png, sizeof png, err, sizeof err);
  ck_assert_msg(rc == (have_gnuplot() ? PLOT_OK : PLOT_NO_GNUPLOT), "%d: %s", rc, err);
  char *dat = slurp("sect.req.dat");
  ck_assert_ptr_nonnull(dat);
  ck_assert_ptr_nonnull(strstr(dat, "\n0\t2\t2\t0\t0\t4\t4\t4\n"));
  ck_assert_ptr_nonnull(strstr(dat, "\n1\t1\t0\t1\t0\t8\t8\t8\n"));
  ck_assert_ptr_nonnull(strstr(dat, "\n2\t1\t0\t1\t0\t12\t12\t12\n"));
  char *gp = slurp("sect.req.gp");
  ck_assert_ptr_nonnull(gp);
  ck_assert_ptr_nonnull(strstr(gp, "\"sect.req.dat\""));
  ck_assert_ptr_nonnull(strstr(gp, "set output \"sect.req.png\""));
  ck_assert_ptr_nonnull(strstr(gp, "set output \"sect.req.svg\""));
  ck_assert_ptr_nonnull(strstr(gp, "\"Sectors \\\"per\\\" request\""));
  ck_assert_ptr_nonnull(strstr(gp, "\"meets the target\""));
  ck_assert_ptr_nonnull(strstr(gp, "\"1 student without a value\""));
  ck_assert_ptr_nonnull(strstr(gp, "set arrow from 0, graph"));        /* on the bar of 4 */
  ck_assert_ptr_nonnull(strstr(gp, "set arrow from 0.5, graph 0"));    /* 6: between 4 and 8 */
  if (!have_gnuplot())
    return;
  char want[256];
  snprintf(want, sizeof want, "%s/sect.req.png", dir);
  ck_assert_str_eq(png, want);
  char *p = slurp("sect.req.png");
  ck_assert(p && !memcmp(p, "\x89PNG\r\n\x1a\n", 8));
  char *svg = slurp("sect.req.svg");
  ck_assert(svg && strstr(svg, "<svg") && strstr(svg, "reference solution: 4"));
}
END_TEST

/* No values: a chart that says so, drawn all the same. */
START_TEST(hist_no_values)
{
  struct plot_hist *h = hist("empty", NULL, 0);
  char png[1200], err[1024];
  int rc = plot_hist_draw(h, dir, png, sizeof png, err, sizeof err);
  ck_assert_msg(rc == (have_gnuplot() ? PLOT_OK : PLOT_NO_GNUPLOT), "%d: %s", rc, err);
  ck_assert_ptr_nonnull(strstr(slurp("empty.gp"), "no values to draw"));
  if (have_gnuplot())
    ck_assert_ptr_nonnull(slurp("empty.png"));
}
END_TEST

/* gnuplot missing: the data and the script are written, and the status says why. */
START_TEST(hist_without_gnuplot)
{
  static const double v[] = {1, 2};
  const char *path = getenv("PATH");
  char *saved = path ? strdup(path) : NULL;
  setenv("PATH", "/nonexistent", 1);
  char png[1200], err[1024];
  int rc = plot_hist_draw(hist("nog", v, 2), dir, png, sizeof png, err, sizeof err);
  if (saved) {
    setenv("PATH", saved, 1);
    free(saved);
  }
  ck_assert_int_eq(rc, PLOT_NO_GNUPLOT);
  ck_assert_ptr_nonnull(strstr(err, "gnuplot is not installed"));
  ck_assert_str_eq(png, "");
  ck_assert_ptr_nonnull(slurp("nog.dat"));
  ck_assert_ptr_nonnull(slurp("nog.gp"));
  ck_assert_ptr_null(slurp("nog.png"));
}
END_TEST

Suite *suite_plot_hist(void)
{
  Suite *s = suite_create("plot_hist");
  TCase *tc = tcase_create("count");
  tcase_add_test(tc, hist_score_bins);
  tcase_add_test(tc, hist_distinct_values);
  tcase_add_test(tc, hist_auto_bins_are_nice);
  tcase_add_test(tc, hist_zones_split_bars);
  tcase_add_test(tc, hist_bins_align_on_zones);
  tcase_add_test(tc, hist_range_clamps);
  tcase_add_test(tc, hist_axis_x);
  suite_add_tcase(s, tc);
  tc = tcase_create("draw");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, hist_bad_input);
  tcase_add_test(tc, hist_draws_files);
  tcase_add_test(tc, hist_no_values);
  tcase_add_test(tc, hist_without_gnuplot);
  suite_add_tcase(s, tc);
  return s;
}
