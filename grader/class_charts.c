/* class_charts.c: the charts of a graded class (see class_charts.h). */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "grader/class_charts.h"
#include "plots/plot.h"
#include "plots/plot_hist.h"

#define GOOD "#4E9A57"
#define PART "#E0A030"
#define BAD "#C0504D"

enum status { MISSING = 0, GRADED, FAILED };

struct student {
  enum status status;
  double score, max;
  json_t *extra;               /* results.json's extra_data, or NULL */
};

struct cls {
  const struct run_lab *lab;
  const char *dir;             /* OUT/charts */
  struct student *st;
  int n;
  unsigned graded, failed, missing;
  char backend[64];            /* how the figures were taken, in words */
  double *values;              /* scratch: one per student */
  char drawn[1024];            /* the PNGs drawn, by name */
  int rc;                      /* the first plot_status other than PLOT_OK */
  char err[1024];
};

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, uint32_t n)
{
  if (!n)
    return NAN;
  qsort(v, n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* A number for a label: 4, 62.5, 1.23, never in exponent notation for a score or a ratio. */
static void num(char *out, size_t n, double v)
{
  if (v == floor(v) && fabs(v) < 1e15)
    snprintf(out, n, "%.0f", v);
  else
    snprintf(out, n, "%.3g", v);
}

/* A student's figure: extra_data.measured[metric].value (or .reference); NAN when none. */
static double measured(const struct student *s, const char *metric, const char *which)
{
  json_t *m = json_object_get(json_object_get(s->extra, "measured"), metric);
  json_t *v = json_object_get(m, which);
  return json_is_number(v) ? json_number_value(v) : NAN;
}

static void draw(struct cls *c, const struct plot_hist *h)
{
  char png[1200], err[1024];
  int rc = plot_hist_draw(h, c->dir, png, sizeof png, err, sizeof err);
  if (rc != PLOT_OK && c->rc == PLOT_OK) {
    c->rc = rc;
    snprintf(c->err, sizeof c->err, "%s", err);
  }
  if (rc == PLOT_OK) {
    size_t k = strlen(c->drawn);
    snprintf(c->drawn + k, sizeof c->drawn - k, "%s%s.png", k ? ", " : "", h->name);
  }
}

/* A file name for a metric: its name, with anything but letters, digits, '.', '-' and '_'
   as '_'. */
static void chart_name(char *out, size_t n, const char *metric)
{
  size_t k = 0;
  for (const char *p = metric; *p && k + 1 < n; p++)
    out[k++] = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
               *p == '.' || *p == '-' || *p == '_' ? *p : '_';
  out[k] = 0;
}

/* What a metric measures, in the lab's words: the y label of the lab's first chart of it. */
static const char *metric_words(const struct run_lab *lab, const char *metric)
{
  for (uint32_t i = 0; i < lab->ncharts; i++) {
    const struct run_chart *ch = &lab->charts[i];
    if (ch->ylabel[0] && ch->nseries >= 1 && !strcmp(ch->metric[0], metric))
      return ch->ylabel;
  }
  return metric;
}

static void not_drawn_notes(struct cls *c, struct plot_hist *h, unsigned without, const char *why)
{
  if (without && h->nnotes < PLOT_HIST_MAX_NOTES)
    snprintf(h->notes[h->nnotes++], sizeof h->notes[0], "%u graded student%s without a value "
             "(%s): not drawn", without, without == 1 ? "" : "s", why);
  if (c->failed && h->nnotes < PLOT_HIST_MAX_NOTES)
    snprintf(h->notes[h->nnotes++], sizeof h->notes[0], "%u submission%s could not be graded "
             "(crashed, hung or malformed: see gradebook.csv): not drawn", c->failed,
             c->failed == 1 ? "" : "s");
  if (c->missing && h->nnotes < PLOT_HIST_MAX_NOTES)
    snprintf(h->notes[h->nnotes++], sizeof h->notes[0], "%u student%s without results yet: "
             "not drawn", c->missing, c->missing == 1 ? "" : "s");
}

static void score_chart(struct cls *c)
{
  struct plot_hist h;
  plot_hist_init(&h);
  uint32_t n = 0;
  double top = 0, sum = 0;
  for (int i = 0; i < c->n; i++)
    if (c->st[i].status == GRADED) {
      c->values[n++] = c->st[i].score;
      sum += c->st[i].score;
      top = c->st[i].max > top ? c->st[i].max : top;
    }
  snprintf(h.name, sizeof h.name, "score");
  snprintf(h.title, sizeof h.title, "Scores: %s", c->lab->title);
  char t[32], mean[32], med[32];
  num(t, sizeof t, top);
  snprintf(h.xlabel, sizeof h.xlabel, "score (of %s)", t);
  snprintf(h.ylabel, sizeof h.ylabel, "students");
  h.values = c->values;
  h.nvalues = n;
  h.mode = PLOT_HIST_BINS;
  h.lo = 0;
  h.hi = top > 0 ? top : 100;
  h.width = h.hi / 10;
  if (n) {
    double m = sum / n, d;
    double *copy = malloc(n * sizeof *copy);
    if (copy) {
      memcpy(copy, c->values, n * sizeof *copy);
      d = median(copy, n);
      free(copy);
    } else {
      d = NAN;
    }
    num(mean, sizeof mean, round(m * 10) / 10);
    num(med, sizeof med, d);
    snprintf(h.subtitle, sizeof h.subtitle, "%u student%s graded %s: mean %s, median %s", n,
             n == 1 ? "" : "s", c->backend, mean, med);
    h.marks[h.nmarks].x = m;
    snprintf(h.marks[h.nmarks++].label, sizeof h.marks[0].label, "mean %s", mean);
    if (isfinite(d) && fabs(d - m) > h.width * 0.2) {   /* a second line on the first hides it */
      h.marks[h.nmarks].x = d;
      snprintf(h.marks[h.nmarks++].label, sizeof h.marks[0].label, "median %s", med);
    }
  } else {
    snprintf(h.subtitle, sizeof h.subtitle, "no student graded %s", c->backend);
  }
  not_drawn_notes(c, &h, 0, "");
  draw(c, &h);
}

static void target_chart(struct cls *c, const struct run_target *t)
{
  const char *metric = t->metric;
  int mx = t->has_max;
  double bound = mx ? t->max : t->min;
  struct plot_hist h;
  plot_hist_init(&h);
  uint32_t n = 0, nref = 0;
  unsigned without = 0;
  double refs[64];
  for (int i = 0; i < c->n; i++) {
    if (c->st[i].status != GRADED)
      continue;
    double v = measured(&c->st[i], metric, "value"), r = measured(&c->st[i], metric, "reference");
    if (isfinite(v))
      c->values[n++] = v;
    else
      without++;
    if (isfinite(r) && nref < sizeof refs / sizeof *refs)
      refs[nref++] = r;
  }
  chart_name(h.name, sizeof h.name, metric);
  char b[32], pts[32];
  num(b, sizeof b, bound);
  num(pts, sizeof pts, t->points);
  snprintf(h.title, sizeof h.title, "%s", metric);
  snprintf(h.subtitle, sizeof h.subtitle, "the rubric's target: %s %s (%s points)  |  %u of %u "
           "graded students measured %s", mx ? "at most" : "at least", b, pts,
           n, n + without, c->backend);
  snprintf(h.xlabel, sizeof h.xlabel, "%s", metric_words(c->lab, metric));
  snprintf(h.ylabel, sizeof h.ylabel, "students");
  h.values = c->values;
  h.nvalues = n;
  h.nzones = 2;
  h.zones[0].lo = mx ? -INFINITY : bound;
  h.zones[0].hi = mx ? bound : INFINITY;
  snprintf(h.zones[0].label, sizeof h.zones[0].label, "meets the target (%s %s)",
           mx ? "at most" : "at least", b);
  snprintf(h.zones[0].colour, sizeof h.zones[0].colour, GOOD);
  h.zones[1].lo = -INFINITY;
  h.zones[1].hi = INFINITY;
  snprintf(h.zones[1].label, sizeof h.zones[1].label, "misses it");
  snprintf(h.zones[1].colour, sizeof h.zones[1].colour, BAD);
  if (nref) {
    double r = median(refs, nref);
    char rv[32];
    num(rv, sizeof rv, r);
    h.marks[0].x = r;
    snprintf(h.marks[0].label, sizeof h.marks[0].label, "reference solution: %s", rv);
    h.nmarks = 1;
  }
  not_drawn_notes(c, &h, without, "not correct on the main size, or not built");
  draw(c, &h);
}

static void ratio_chart(struct cls *c, const struct run_rubric *rb)
{
  const char *metric = rb->performance_metric[0] ? rb->performance_metric : NULL;
  double full = rb->full_within, zero = rb->zero_beyond;
  struct plot_hist h;
  plot_hist_init(&h);
  uint32_t n = 0;
  unsigned without = 0;
  for (int i = 0; i < c->n; i++) {
    if (c->st[i].status != GRADED)
      continue;
    json_t *r = json_object_get(c->st[i].extra, "time_ratio");
    if (json_is_number(r))
      c->values[n++] = json_number_value(r);
    else
      without++;
  }
  snprintf(h.name, sizeof h.name, "time_ratio");
  snprintf(h.title, sizeof h.title, "Time against the reference solution");
  snprintf(h.subtitle, sizeof h.subtitle, "%s, timed in the same run as the reference  |  %u of "
           "%u graded students timed %s", metric ? metric : "time", n, n + without, c->backend);
  snprintf(h.xlabel, sizeof h.xlabel, "the kernel's time / the reference solution's (1 is as "
           "fast; below 1, faster)");
  snprintf(h.ylabel, sizeof h.ylabel, "students");
  h.values = c->values;
  h.nvalues = n;
  h.mode = PLOT_HIST_BINS;                     /* a ratio is continuous: 0.9997 and 1 share a bin */
  char f[32], z[32];
  num(f, sizeof f, full);
  num(z, sizeof z, zero);
  h.nzones = 3;
  h.zones[0] = (struct plot_hist_zone){-INFINITY, full, "", GOOD};
  snprintf(h.zones[0].label, sizeof h.zones[0].label, "full points (up to %sx)", f);
  h.zones[1] = (struct plot_hist_zone){-INFINITY, zero, "", PART};
  snprintf(h.zones[1].label, sizeof h.zones[1].label, "part of the points");
  h.zones[2] = (struct plot_hist_zone){-INFINITY, INFINITY, "", BAD};
  snprintf(h.zones[2].label, sizeof h.zones[2].label, "none (%sx or slower)", z);
  h.marks[0].x = 1;
  snprintf(h.marks[0].label, sizeof h.marks[0].label, "as fast as the reference");
  h.nmarks = 1;
  not_drawn_notes(c, &h, without, "not correct on the main size, or no time on this backend");
  draw(c, &h);
}

/* class.csv: every student's figures the charts are drawn from. */
static int write_csv(struct cls *c, char *const *names, const struct run_rubric *rb)
{
  char path[1200];
  snprintf(path, sizeof path, "%s/class.csv", c->dir);
  FILE *f = fopen(path, "w");
  if (!f)
    return -1;
  fputs("student,status,score,max_score,time_ratio", f);
  for (uint32_t i = 0; i < rb->ntargets; i++)
    fprintf(f, ",%s", rb->targets[i].metric);
  fputc('\n', f);
  static const char *const words[] = {"missing", "graded", "failed"};
  for (int k = 0; k < c->n; k++) {
    const struct student *s = &c->st[k];
    for (const char *p = names[k]; *p; p++)   /* a name is data: no field or line breaks */
      fputc(*p == ',' || *p == '"' || *p == '\n' || *p == '\r' ? '_' : *p, f);
    fprintf(f, ",%s", words[s->status]);
    if (s->status == MISSING) {
      fputs(",,", f);
    } else {
      fprintf(f, ",%.2f,%.2f", s->score, s->max);
    }
    json_t *r = json_object_get(s->extra, "time_ratio");
    if (json_is_number(r))
      fprintf(f, ",%.6g", json_number_value(r));
    else
      fputc(',', f);
    for (uint32_t i = 0; i < rb->ntargets; i++) {
      double v = measured(s, rb->targets[i].metric, "value");
      if (isfinite(v))
        fprintf(f, ",%.6g", v);
      else
        fputc(',', f);
    }
    fputc('\n', f);
  }
  return fclose(f);
}

int class_charts_draw(const struct run_lab *lab, const char *out, char *const *names, int n,
                      char *msg, size_t msglen)
{
  char dir[1200];
  snprintf(dir, sizeof dir, "%s/charts", out);
  if (mkdir(dir, 0755) && errno != EEXIST) {
    snprintf(msg, msglen, "cannot make %s: %s", dir, strerror(errno));
    return -1;
  }
  struct cls c = {.lab = lab, .dir = dir, .n = n, .rc = PLOT_OK};
  c.st = calloc(n > 0 ? (size_t)n : 1, sizeof *c.st);
  c.values = calloc(n > 0 ? (size_t)n : 1, sizeof *c.values);
  if (!c.st || !c.values) {
    free(c.st);
    free(c.values);
    snprintf(msg, msglen, "out of host memory");
    return -1;
  }
  unsigned emu = 0, gpu = 0;
  for (int i = 0; i < n; i++) {
    char path[1400];
    snprintf(path, sizeof path, "%s/%s/results.json", out, names[i]);
    json_error_t je;
    json_t *j = json_load_file(path, 0, &je);
    struct student *s = &c.st[i];
    if (!j) {
      s->status = MISSING;
      c.missing++;
      continue;
    }
    s->score = json_number_value(json_object_get(j, "score"));
    s->max = json_number_value(json_object_get(j, "max_score"));
    s->status = s->max > 0 ? GRADED : FAILED;
    c.graded += s->status == GRADED;
    c.failed += s->status == FAILED;
    s->extra = json_incref(json_object_get(j, "extra_data"));
    const char *be = json_string_value(json_object_get(s->extra, "backend"));
    emu += be && !strcmp(be, "emu");
    gpu += be && !strcmp(be, "gpu");
    json_decref(j);
  }
  snprintf(c.backend, sizeof c.backend, "%s", gpu && emu ? "on the GPU and the emulator (mixed!)"
           : gpu ? "on the GPU" : emu ? "on the emulator" : "");
  const struct run_rubric *rb = &lab->rubric;
  int rc = 0;
  if (write_csv(&c, names, rb)) {
    snprintf(msg, msglen, "cannot write %s/class.csv: %s", dir, strerror(errno));
    rc = -1;
  } else {
    score_chart(&c);
    for (uint32_t i = 0; i < rb->ntargets; i++)
      target_chart(&c, &rb->targets[i]);
    if (rb->has_performance)
      ratio_chart(&c, rb);
    if (c.rc == PLOT_OK)
      snprintf(msg, msglen, "%s/ (%s; their data, scripts, SVGs and class.csv beside them)", dir,
               c.drawn);
    else if (c.rc == PLOT_NO_GNUPLOT)
      snprintf(msg, msglen, "%s/: the data, the gnuplot scripts and class.csv (%s)", dir, c.err);
    else {
      snprintf(msg, msglen, "%s/: %s", dir, c.err);
      rc = -1;
    }
  }
  for (int i = 0; i < n; i++)
    json_decref(c.st[i].extra);
  free(c.st);
  free(c.values);
  return rc;
}
