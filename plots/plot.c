/* plot.c: a lab's charts: gather each chart's figures from a run's result structures, write
 * them as a data file and a gnuplot script, and run gnuplot on them.
 *
 * A chart of lab.json ("charts", plots/README.md), parsed and checked when the lab loads
 * (struct run_chart, run_lab.h: plots/ reads no lab.json), is a bar chart or a line chart.
 *
 * Bars: one cluster of bars per configuration of one sweep, one bar per metric named in "y".
 * The main configuration (the kernel file's own choice, run point 0) is marked: "(yours)"
 * after its label and a shaded band behind its bars; when no sweep point has the same
 * choices, it comes first, on its own.
 *
 * Lines ("style": "lines"): x is an expression over each point's choices and metrics (a swept
 * value, or a metric), one line per sweep and metric, its points in the order of x, and a
 * prediction ("predict", an expression over the choices, the problem size and the
 * architecture profile's numbers; run/run_expr.h) drawn dashed over each sweep's points: along
 * x as a curve where x is a choice the sweep varies, else through the points. A line chart
 * is how a lab shows a law against a measurement (Little's law over lab 03's bandwidth).
 *
 * Every figure's kind (exact, ptx-level, measured, modelled) is in the key and the backend
 * and device in the subtitle, so a reader knows what each bar or point is. A metric with no
 * value anywhere (time on the emulator, until the timing model exists) is left out, with a
 * note in the chart saying so.
 *
 * The scripts are written next to their data and refer to it by name, so `gnuplot NAME.gp`
 * in the results folder redraws a chart. A run's charts are drawn by two gnuplots at once
 * (one where there is one chart or one CPU; found on PATH, run through harness/run's
 * process runner, tc_exec.h, in the results folder), the charts shared between them by
 * their size, each script from a fresh session; a chart whose script fails is drawn again
 * alone, for its message, and the ones after it too. gnuplot is killed when it takes
 * longer than PLOT_TIMEOUT_S a chart.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "metrics/met.h"
#include "metrics/occ.h"
#include "plots/plot.h"
#include "run/run_expr.h"
#include "toolchain/tc_exec.h"

/* ---- the chart: its definition and its figures ---- */

struct chart_row {
  char label[80];                     /* "32x8", with " (yours)" for the main configuration */
  int is_main;
  const struct run_point *pt;
  double v[PLOT_MAX_SERIES];
  int defined[PLOT_MAX_SERIES];
  uint32_t sweep;                     /* lines: which of the chart's sweeps */
  double x, pred;                     /* lines: x, and the prediction (times scale) */
  int x_defined, pred_defined;
};

#define CURVE_POINTS 121              /* a prediction sampled along x: smooth, with its knees */
#define MAX_USED 12                   /* profile numbers a prediction names, for the heading */

struct chart {
  char name[64], title[192], sweep[64], ylabel[192];
  int log;
  double scale;
  uint32_t nseries;
  char metric[PLOT_MAX_SERIES][96];
  char label[PLOT_MAX_SERIES][96];
  char kind[PLOT_MAX_SERIES][16];     /* the first kind the run recorded; "" when none */
  int present[PLOT_MAX_SERIES];       /* some point has the metric, defined or not */
  uint32_t ndefined[PLOT_MAX_SERIES];
  struct chart_row rows[PLOT_MAX_ROWS];
  uint32_t nrows;
  /* expressions in "y": a metric's name is read as before; anything else is evaluated */
  int is_expr[PLOT_MAX_SERIES];
  char missing[PLOT_MAX_SERIES][96];  /* an expression's first name with no value */
  /* lines */
  int lines;
  char x[160], xlabel[192], predict[320], predict_label[96];
  int xlog;
  uint32_t nsweeps;
  char sweeps[RUN_MAX_SWEEPS][64];
  char x_note[256], pred_note[256];   /* why x or the prediction has no value somewhere */
  double curve_x[RUN_MAX_SWEEPS][CURVE_POINTS], curve_y[RUN_MAX_SWEEPS][CURVE_POINTS];
  uint32_t curve_n[RUN_MAX_SWEEPS];   /* 0: the prediction is drawn through the points */
  /* what expressions may name besides a point's metrics and choices */
  int have_vars, have_prof;
  struct run_sizes sizes;             /* the run's problem size */
  const struct occ_profile *prof;     /* the run's architecture profile (run_result), or NULL */
  char used[MAX_USED][48];            /* the profile's numbers the prediction named */
  double used_v[MAX_USED];
  uint32_t nused;
};

enum target { TARGET_FILES, TARGET_DUMB };

static const char *const series_colour[PLOT_MAX_SERIES] = {
  "#3A6EA5", "#E07B39", "#4E9A57", "#C0504D", "#7E62A8", "#8C6D4F",
};
#define MAIN_BAND "#FFE9A8"
#define NOTE_COLOUR "#B03A2E"

const char *plot_status_name(enum plot_status s)
{
  switch (s) {
  case PLOT_OK: return "ok";
  case PLOT_NO_GNUPLOT: return "gnuplot is not installed";
  case PLOT_BAD_CHART: return "bad chart definition";
  case PLOT_FAILED: return "drawing failed";
  }
  return "?";
}

/* The file a lab's charts come from, for messages: lab.json, or a folder's charts.json
   (run_charts_parse notes which). */
static const char *charts_file(const struct run_lab *lab)
{
  return lab->charts_from[0] ? lab->charts_from : "lab.json";
}

/* Whether name is one of the lab's sweeps. */
static int lab_has_sweep(const struct run_lab *lab, const char *name)
{
  for (uint32_t k = 0; k < lab->nsweeps; k++)
    if (!strcmp(lab->sweeps[k].name, name))
      return 1;
  return 0;
}

/* Chart number index of the lab (parsed and checked when it loaded: run_lab.h) into c, its
   figures not gathered yet. */
static void chart_parse(const struct run_lab *lab, uint32_t index, struct chart *c)
{
  const struct run_chart *d = &lab->charts[index];
  _Static_assert(sizeof c->metric == sizeof d->metric && sizeof c->label == sizeof d->label &&
                 sizeof c->x == sizeof d->x && sizeof c->predict == sizeof d->predict &&
                 sizeof c->title == sizeof d->title && sizeof c->name == sizeof d->name,
                 "a chart's texts: the sizes run_lab.h gives them");
  memset(c, 0, sizeof *c);
  memcpy(c->name, d->name, sizeof c->name);
  memcpy(c->title, d->title, sizeof c->title);
  snprintf(c->sweep, sizeof c->sweep, "%s", d->sweep);
  snprintf(c->ylabel, sizeof c->ylabel, "%s", d->ylabel);
  c->log = d->log;
  c->scale = d->scale;
  c->nseries = d->nseries;
  memcpy(c->metric, d->metric, sizeof c->metric);
  memcpy(c->label, d->label, sizeof c->label);
  memcpy(c->is_expr, d->is_expr, sizeof c->is_expr);
  c->lines = d->lines;
  memcpy(c->x, d->x, sizeof c->x);
  snprintf(c->xlabel, sizeof c->xlabel, "%s", d->xlabel);
  c->xlog = d->xlog;
  memcpy(c->predict, d->predict, sizeof c->predict);
  snprintf(c->predict_label, sizeof c->predict_label, "%s", d->predict_label);
  c->nsweeps = d->nsweeps;
  for (uint32_t k = 0; k < d->nsweeps; k++)
    snprintf(c->sweeps[k], sizeof c->sweeps[k], "%s", d->sweeps[k]);
}

/* The chart named name (NULL: index), parsed. Returns 0, or -1 with err. */
static int chart_find(const struct run_lab *lab, const char *name, struct chart *c, char *err,
                      size_t errlen)
{
  for (uint32_t i = 0; i < lab->ncharts; i++)
    if (!strcmp(lab->charts[i].name, name)) {
      chart_parse(lab, i, c);
      return 0;
    }
  snprintf(err, errlen, "%s/%s has no chart named '%s'", lab->dir, charts_file(lab), name);
  return -1;
}

/* Whether two points are the same configuration: by their choices, or, where a point has
   none recorded (a result read back from result.json), by their labels. */
static int same_config(const struct run_point *a, const struct run_point *b)
{
  if (!a->choices.n || !b->choices.n)
    return !strcmp(a->label, b->label);
  if (a->choices.n != b->choices.n)
    return 0;
  for (uint32_t i = 0; i < a->choices.n; i++) {
    int64_t v;
    if (!run_sizes_get(&b->choices, a->choices.name[i], &v) || v != a->choices.v[i])
      return 0;
  }
  return 1;
}

/* ---- the names an expression may use ---- */

/* What expressions see at one point: its metrics (unless no_metrics) and choices, one choice
   replaced by a value of x's (over_name: a prediction sampled along x), the run's problem
   size and the numbers of its architecture profile. The lookup notes the first name it had
   no value for and the kind of the first metric used. */
struct vars {
  struct chart *c;
  const struct run_point *pt;
  int no_metrics;
  const char *over_name;
  double over;
  int note_used;          /* record the profile's numbers used, for the heading */
  char kind[16];
  char missing[96];
  int undefined;          /* a metric used has no value at this point */
};

/* The profile's number called name (len characters) into *v: the INT, BYTES, REAL and BOOL
   keys of occ_profile.def, by their names in the .conf files. */
static int profile_value(const struct occ_profile *p, const char *name, size_t len, double *v)
{
#define PV_NUM(k) if (strlen(#k) == len && !strncmp(#k, name, len)) { *v = (double)p->k; return 0; }
#define PV_STR(k)
#define PV_INT(k) PV_NUM(k)
#define PV_BYTES(k) PV_NUM(k)
#define PV_REAL(k) PV_NUM(k)
#define PV_BOOL(k) PV_NUM(k)
#define PV_KBLIST(k)
#define X(key, kind, required, meaning) PV_##kind(key)
#include "metrics/occ_profile.def"
#undef X
#undef PV_NUM
#undef PV_STR
#undef PV_INT
#undef PV_BYTES
#undef PV_REAL
#undef PV_BOOL
#undef PV_KBLIST
  return -1;
}

static int names_eq(const char *a, const char *name, size_t len)
{
  return strlen(a) == len && !strncmp(a, name, len);
}

static int vars_lookup(void *ctx, const char *name, size_t len, double *v)
{
  struct vars *x = ctx;
  struct chart *c = x->c;
  if (x->over_name && names_eq(x->over_name, name, len)) {
    *v = x->over;
    return 0;
  }
  for (uint32_t k = 0; x->pt && !x->no_metrics && k < x->pt->nmetrics; k++) {
    const struct run_metric *m = &x->pt->metric[k];
    if (!names_eq(m->name, name, len))
      continue;
    if (!x->kind[0])
      snprintf(x->kind, sizeof x->kind, "%s", m->kind);
    if (!m->defined || !isfinite(m->value)) {
      x->undefined = 1;
      break;
    }
    *v = m->value;
    return 0;
  }
  for (uint32_t k = 0; x->pt && k < x->pt->choices.n; k++)
    if (names_eq(x->pt->choices.name[k], name, len)) {
      *v = (double)x->pt->choices.v[k];
      return 0;
    }
  for (uint32_t k = 0; k < c->sizes.n; k++)
    if (names_eq(c->sizes.name[k], name, len)) {
      *v = (double)c->sizes.v[k];
      return 0;
    }
  if (c->have_prof && !profile_value(c->prof, name, len, v)) {
    uint32_t u = 0;
    while (u < c->nused && !names_eq(c->used[u], name, len))
      u++;
    if (x->note_used && u == c->nused && u < MAX_USED && len < sizeof c->used[0]) {
      memcpy(c->used[u], name, len);
      c->used[u][len] = 0;
      c->used_v[u] = *v;
      c->nused++;
    }
    return 0;
  }
  if (!x->missing[0])
    snprintf(x->missing, sizeof x->missing, "%.*s", (int)(len < 95 ? len : 95), name);
  return -1;
}

/* Whether chart c evaluates anything (an expression in "y", or a line chart). */
static int chart_has_exprs(const struct chart *c)
{
  for (uint32_t s = 0; s < c->nseries; s++)
    if (c->is_expr[s])
      return 1;
  return c->lines;
}

/* The names expressions may use besides a point's: the problem size (the run's "n=1024
   blocks=8") and the profile it names. */
static void chart_vars(struct chart *c, const struct run_result *r)
{
  if (c->have_vars)
    return;
  c->have_vars = 1;
  const char *p = r->prov.sizes;
  while (*p) {
    while (*p == ' ')
      p++;
    const char *eq = strchr(p, '='), *end = p + strcspn(p, " ");
    if (eq && eq < end && eq > p && (size_t)(eq - p) < sizeof c->sizes.name[0]) {
      char name[32], *stop;
      snprintf(name, sizeof name, "%.*s", (int)(eq - p), p);
      long long v = strtoll(eq + 1, &stop, 10);
      if (stop == end)
        run_sizes_set(&c->sizes, name, v);
    }
    p = end;
  }
  c->prof = r->have_prof ? &r->prof : NULL;   /* the run's, loaded once (run.h) */
  c->have_prof = c->prof != NULL;
}

static void add_row(struct chart *c, const struct run_point *pt, int is_main)
{
  if (c->nrows >= sizeof c->rows / sizeof *c->rows)
    return;
  struct chart_row *row = &c->rows[c->nrows++];
  memset(row, 0, sizeof *row);
  row->pt = pt;
  row->is_main = is_main;
  snprintf(row->label, sizeof row->label, "%s%s", pt->label, is_main ? " (yours)" : "");
  for (uint32_t s = 0; s < c->nseries; s++) {
    if (c->is_expr[s]) {
      struct vars x = {.c = c, .pt = pt};
      double v = 0;
      char e[512];
      int st = run_expr_real_eval(c->metric[s], vars_lookup, &x, &v, e, sizeof e);
      if (x.kind[0] && !c->kind[s][0])
        snprintf(c->kind[s], sizeof c->kind[s], "%s", x.kind);
      if (st == RUN_EXPR_OK || x.undefined || !x.missing[0])
        c->present[s] = 1;   /* every name known: a value, or none at this point */
      else if (!c->missing[s][0])
        snprintf(c->missing[s], sizeof c->missing[s], "%s", x.missing);
      v *= c->scale;
      if (st == RUN_EXPR_OK && isfinite(v) && (!c->log || v > 0)) {
        row->v[s] = v;
        row->defined[s] = 1;
        c->ndefined[s]++;
      }
      continue;
    }
    uint32_t k = 0;
    for (; k < pt->nmetrics; k++) {
      const struct run_metric *m = &pt->metric[k];
      if (strcmp(m->name, c->metric[s]))
        continue;
      c->present[s] = 1;
      if (!c->kind[s][0])
        snprintf(c->kind[s], sizeof c->kind[s], "%s", m->kind);
      if (m->defined && isfinite(m->value) && (!c->log || m->value > 0)) {
        row->v[s] = m->value * c->scale;
        row->defined[s] = 1;
        c->ndefined[s]++;
      }
      break;
    }
    /* no such metric: a choice (or, in a chart with expressions, a size or a profile
       number) of that name, an exact figure */
    struct vars x = {.c = c, .pt = pt, .no_metrics = 1};
    double v;
    if (k == pt->nmetrics && !vars_lookup(&x, c->metric[s], strlen(c->metric[s]), &v)) {
      c->present[s] = 1;
      if (!c->kind[s][0])
        snprintf(c->kind[s], sizeof c->kind[s], "exact");
      v *= c->scale;
      if (isfinite(v) && (!c->log || v > 0)) {
        row->v[s] = v;
        row->defined[s] = 1;
        c->ndefined[s]++;
      }
    }
  }
}

/* The rows of c from r: the main configuration, then the sweep's points, in their order. */
static void chart_gather_bars(struct chart *c, const struct run_result *r)
{
  const struct run_point *main_pt = r->npoints && !r->points[0].sweep[0] ? &r->points[0] : NULL;
  int main_in_sweep = 0;
  for (uint32_t i = 1; main_pt && c->sweep[0] && i < r->npoints; i++)
    if (!strcmp(r->points[i].sweep, c->sweep) && same_config(&r->points[i], main_pt))
      main_in_sweep = 1;
  if (main_pt && !main_in_sweep)
    add_row(c, main_pt, 1);
  for (uint32_t i = 1; c->sweep[0] && i < r->npoints; i++) {
    const struct run_point *pt = &r->points[i];
    if (!strcmp(pt->sweep, c->sweep))
      add_row(c, pt, main_pt && same_config(pt, main_pt));
  }
}

/* Whether the rows from..to-1 differ in no choice but name: a prediction along that choice
   then holds for every point of the sweep. */
static int only_choice_varies(const struct chart *c, uint32_t from, uint32_t to, const char *name)
{
  const struct run_sizes *a = &c->rows[from].pt->choices;
  int64_t v;
  if (!run_sizes_get(a, name, &v))
    return 0;
  for (uint32_t i = from + 1; i < to; i++) {
    const struct run_sizes *b = &c->rows[i].pt->choices;
    if (b->n != a->n)
      return 0;
    for (uint32_t k = 0; k < a->n; k++)
      if (strcmp(a->name[k], name) && (!run_sizes_get(b, a->name[k], &v) || v != a->v[k]))
        return 0;
  }
  return 1;
}

/* The prediction of sweep k sampled along x, from the smallest x of its points to the
   largest (evenly on the axis's scale), where x is a choice the sweep alone varies and the
   prediction names no metric. Leaves curve_n[k] 0 otherwise. */
static void chart_curve(struct chart *c, uint32_t k, uint32_t from, uint32_t to)
{
  if (!c->predict[0] || !run_expr_is_name(c->x) || to - from < 2 ||
      !only_choice_varies(c, from, to, c->x))
    return;
  double lo = HUGE_VAL, hi = -HUGE_VAL;
  for (uint32_t i = from; i < to; i++)
    if (c->rows[i].x_defined) {
      lo = fmin(lo, c->rows[i].x);
      hi = fmax(hi, c->rows[i].x);
    }
  if (!(lo < hi) || (c->xlog && !(lo > 0)))
    return;
  for (uint32_t j = 0; j < CURVE_POINTS; j++) {
    double f = (double)j / (CURVE_POINTS - 1);
    double x = c->xlog ? lo * pow(hi / lo, f) : lo + (hi - lo) * f;
    struct vars v = {.c = c, .pt = c->rows[from].pt, .no_metrics = 1, .over_name = c->x, .over = x};
    double y;
    char e[8];
    if (run_expr_real_eval(c->predict, vars_lookup, &v, &y, e, sizeof e) || !isfinite(y * c->scale) ||
        (c->log && !(y * c->scale > 0))) {
      c->curve_n[k] = 0;
      return;
    }
    c->curve_x[k][j] = x;
    c->curve_y[k][j] = y * c->scale;
  }
  c->curve_n[k] = CURVE_POINTS;
}

/* x and the prediction of the row just added. */
static void line_values(struct chart *c, struct chart_row *row)
{
  struct vars v = {.c = c, .pt = row->pt};
  char e[512];
  int st = run_expr_real_eval(c->x, vars_lookup, &v, &row->x, e, sizeof e);
  if (st == RUN_EXPR_OK && (!c->xlog || row->x > 0))
    row->x_defined = 1;
  else if (!c->x_note[0])
    snprintf(c->x_note, sizeof c->x_note, "x: no value for %.50s: %.170s", row->label,
             st == RUN_EXPR_OK ? "not positive, on a log axis" :
             v.undefined ? "a metric it names has none there" : e);
  if (!c->predict[0])
    return;
  struct vars p = {.c = c, .pt = row->pt, .note_used = 1};
  double y;
  if (run_expr_real_eval(c->predict, vars_lookup, &p, &y, e, sizeof e) == RUN_EXPR_OK &&
      isfinite(y * c->scale) && (!c->log || y * c->scale > 0)) {
    row->pred = y * c->scale;
    row->pred_defined = 1;
  } else if (!c->pred_note[0]) {
    snprintf(c->pred_note, sizeof c->pred_note, "%.40s: no value for %.40s: %.150s", c->predict_label,
             row->label, p.missing[0] && !c->have_prof ? "the run names no architecture profile"
             : e);
  }
}

/* The rows of a line chart: each sweep's points in the order of x (the ones without an x
   last), the main configuration marked where a sweep holds it; each sweep's prediction
   curve. */
static void chart_gather_lines(struct chart *c, const struct run_result *r)
{
  const struct run_point *main_pt = r->npoints && !r->points[0].sweep[0] ? &r->points[0] : NULL;
  for (uint32_t k = 0; k < c->nsweeps; k++) {
    uint32_t from = c->nrows;
    for (uint32_t i = 0; i < r->npoints; i++) {
      const struct run_point *pt = &r->points[i];
      if (strcmp(pt->sweep, c->sweeps[k]) || c->nrows >= sizeof c->rows / sizeof *c->rows)
        continue;
      add_row(c, pt, main_pt && same_config(pt, main_pt));
      c->rows[c->nrows - 1].sweep = k;
      line_values(c, &c->rows[c->nrows - 1]);
    }
    for (uint32_t i = from + 1; i < c->nrows; i++)   /* insertion sort: stable, few rows */
      for (uint32_t j = i; j > from; j--) {
        struct chart_row *a = &c->rows[j - 1], *b = &c->rows[j];
        if (!(b->x_defined && (!a->x_defined || b->x < a->x)))
          break;
        struct chart_row t = *a;
        *a = *b;
        *b = t;
      }
    chart_curve(c, k, from, c->nrows);
  }
}

static void chart_gather(struct chart *c, const struct run_result *r)
{
  if (chart_has_exprs(c))
    chart_vars(c, r);
  if (c->lines)
    chart_gather_lines(c, r);
  else
    chart_gather_bars(c, r);
}

/* ---- writing: the data file and the script ---- */

static void path_join(char *out, size_t n, const char *dir, const char *name, const char *ext)
{
  snprintf(out, n, "%s/%s%s", dir, name, ext);
}

/* The index, in the data file, of sweep k's prediction curve: after the sweeps' blocks. */
static uint32_t curve_index(const struct chart *c, uint32_t k)
{
  uint32_t idx = c->nsweeps;
  for (uint32_t j = 0; j < k; j++)
    idx += c->curve_n[j] > 0;
  return idx;
}

static void put_value(FILE *f, int defined, double v)
{
  if (defined)
    fprintf(f, "\t%.10g", v);
  else
    fputs("\t?", f);
}

/* A line chart's data: one block per sweep (gnuplot's `index`), each line a point: its
   label, x, one value per metric, the prediction; then a block per prediction curve, x and
   the prediction. Blocks are two blank lines apart. */
static void write_dat_lines(const struct chart *c, FILE *f)
{
  int curves = 0;
  for (uint32_t k = 0; k < c->nsweeps; k++)
    curves |= c->curve_n[k] > 0;
  fprintf(f, "# warplab chart '%s': %s\n", c->name, c->title);
  fprintf(f, "# lines: x = %s; a block per sweep (gnuplot's index 0, 1, ...)%s; (yours) marks the "
          "kernel file's own choice; ? is no value", c->x, curves ? ", then a block per "
          "prediction curve" : "");
  if (c->scale != 1.0)
    fprintf(f, "; values%s are the metrics times %.10g", c->predict[0] ? " and predictions" : "",
            c->scale);
  fputc('\n', f);
  for (uint32_t k = 0; k < c->nsweeps; k++) {
    fprintf(f, "%s# sweep '%s' (index %u)\n# configuration\tx", k ? "\n\n" : "", c->sweeps[k], k);
    for (uint32_t s = 0; s < c->nseries; s++)
      fprintf(f, "\t%s", c->metric[s]);
    if (c->predict[0])
      fprintf(f, "\t%s: %s", c->predict_label, c->predict);
    fputc('\n', f);
    for (uint32_t i = 0; i < c->nrows; i++) {
      const struct chart_row *row = &c->rows[i];
      if (row->sweep != k)
        continue;
      fputs(row->label, f);
      put_value(f, row->x_defined, row->x);
      for (uint32_t s = 0; s < c->nseries; s++)
        put_value(f, row->defined[s], row->v[s]);
      if (c->predict[0])
        put_value(f, row->pred_defined, row->pred);
      fputc('\n', f);
    }
  }
  for (uint32_t k = 0; k < c->nsweeps; k++) {
    if (!c->curve_n[k])
      continue;
    fprintf(f, "\n\n# %s along %s, sweep '%s' (index %u)\n# x\tprediction\n", c->predict_label,
            c->x, c->sweeps[k], curve_index(c, k));
    for (uint32_t j = 0; j < c->curve_n[k]; j++)
      fprintf(f, "%.10g\t%.10g\n", c->curve_x[k][j], c->curve_y[k][j]);
  }
}

/* The data file: a comment header, then one line per configuration: its label and one value
   per series, tab-separated, "?" where there is none (a line chart's: write_dat_lines). */
static int write_dat(const struct chart *c, const struct run_result *r, char *err, size_t errlen)
{
  char path[1200];
  path_join(path, sizeof path, r->results_dir, c->name, ".dat");
  FILE *f = fopen(path, "w");
  if (!f) {
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    return -1;
  }
  if (c->lines) {
    write_dat_lines(c, f);
    if (fclose(f) != 0) {
      snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
      return -1;
    }
    return 0;
  }
  fprintf(f, "# warplab chart '%s': %s\n", c->name, c->title);
  fprintf(f, "# %s%s%s; (yours) marks the kernel file's own choice; ? is no value", c->sweep[0] ?
          "sweep '" : "the main configuration only", c->sweep, c->sweep[0] ? "'" : "");
  if (c->scale != 1.0)
    fprintf(f, "; values are the metrics times %.10g", c->scale);
  fprintf(f, "\n# configuration");
  for (uint32_t s = 0; s < c->nseries; s++)
    fprintf(f, "\t%s", c->metric[s]);
  fputc('\n', f);
  for (uint32_t i = 0; i < c->nrows; i++) {
    fputs(c->rows[i].label, f);
    for (uint32_t s = 0; s < c->nseries; s++) {
      if (c->rows[i].defined[s])
        fprintf(f, "\t%.10g", c->rows[i].v[s]);
      else
        fputs("\t?", f);
    }
    fputc('\n', f);
  }
  if (fclose(f) != 0) {
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    return -1;
  }
  return 0;
}

/* s as a gnuplot double-quoted string, cut to max characters (0: whole) with "...": the
   dumb terminal drops a label wider than the chart. */
static void gp_str_max(FILE *f, const char *s, size_t max)
{
  size_t len = strlen(s);
  int cut = max && len > max;
  const char *end = cut ? s + (max > 3 ? max - 3 : 0) : s + len;
  fputc('"', f);
  for (; s < end; s++) {
    if (*s == '"' || *s == '\\')
      fputc('\\', f);
    if (*s == '\n')
      fputs("\\n", f);
    else if ((unsigned char)*s >= 0x20)
      fputc(*s, f);
  }
  if (cut)
    fputs("...", f);
  fputc('"', f);
}

static void gp_str(FILE *f, const char *s)
{
  gp_str_max(f, s, 0);
}

/* The line under the title: which backend and device produced the figures, and the size. */
static void chart_subtitle(const struct run_result *r, char *out, size_t n)
{
  const struct run_provenance *p = &r->prov;
  const char *prof = strstr(p->device, ", profile ");
  if (p->backend[0] == 'e')
    snprintf(out, n, "on the emulator, profile %s", prof ? prof + strlen(", profile ") :
             p->profile[0] ? p->profile : "default");
  else if (p->backend[0] == 'g')
    snprintf(out, n, "on the GPU: %s", p->device);
  else
    snprintf(out, n, "%s", p->device);
  if (p->sizes[0]) {
    size_t k = strlen(out);
    snprintf(out + k, n - k, "  |  problem %s", p->sizes);
  }
}

/* Why series s has no value at all, in words. */
static void series_absent_note(const struct chart *c, uint32_t s, const struct run_result *r,
                               char *out, size_t n)
{
  int emu = r->prov.backend[0] == 'e';
  const char *m = c->missing[s][0] ? c->missing[s] : c->metric[s];   /* an expression's */
  enum met_id id;
  if (c->present[s])
    snprintf(out, n, "%s: no value in this run (undefined for this kernel%s)", c->label[s],
             c->log ? ", or not positive on a log scale" : "");
  else if (emu && !strcmp(m, met_name(MET_TIME)))
    snprintf(out, n, "%s: not available on the emulator yet (its timing model is to come)",
             c->label[s]);
  else if (c->is_expr[s] && met_lookup(m, strlen(m), &id))
    snprintf(out, n, "%s: '%s' is no metric, choice, size or profile number of this run",
             c->label[s], m);
  else if (emu)
    snprintf(out, n, "%s: not counted by the emulator for this profile", c->label[s]);
  else
    snprintf(out, n, "%s: not counted on the GPU backend", c->label[s]);
}

/* Append " item" (", item" after the first) to the note being built in buf. */
static void note_item(char *buf, size_t len, size_t *k, int *count, const char *item)
{
  if (*k < len)
    *k += (size_t)snprintf(buf + *k, len - *k, "%s %s", (*count)++ ? "," : "", item);
}

/* The notes of a chart, one per line: series with no value (unless skip_absent: they are
   said in the middle of the chart), configurations with no value in some or all series,
   and configurations whose bars come from a wrong result. */
static uint32_t chart_notes(const struct chart *c, const struct run_result *r, char notes[][256],
                            uint32_t max, int skip_absent)
{
  uint32_t n = 0;
  int none[PLOT_MAX_ROWS] = {0};   /* no value in any series drawn */
  for (uint32_t i = 0; i < c->nrows; i++) {
    int drawn = 0, missing = 0;
    for (uint32_t s = 0; s < c->nseries; s++)
      if (c->ndefined[s]) {
        drawn++;
        missing += !c->rows[i].defined[s];
      }
    none[i] = drawn && missing == drawn;
  }
  for (uint32_t s = 0; s < c->nseries && n < max; s++) {
    if (!c->ndefined[s]) {
      if (!skip_absent)
        series_absent_note(c, s, r, notes[n++], sizeof notes[0]);
      continue;
    }
    size_t k = (size_t)snprintf(notes[n], sizeof notes[0], "%s: no value for", c->label[s]);
    int count = 0;
    for (uint32_t i = 0; i < c->nrows; i++)
      if (!c->rows[i].defined[s] && !none[i])
        note_item(notes[n], sizeof notes[0], &k, &count, c->rows[i].label);
    n += count > 0;
  }
  if (n < max) {
    size_t k = (size_t)snprintf(notes[n], sizeof notes[0], "no values for");
    int count = 0;
    for (uint32_t i = 0; i < c->nrows; i++)
      if (none[i]) {
        char item[128];
        snprintf(item, sizeof item, "%s%s", c->rows[i].label, c->rows[i].pt->correct ? "" :
                 " (wrong result or fault)");
        note_item(notes[n], sizeof notes[0], &k, &count, item);
      }
    n += count > 0;
  }
  if (n < max) {
    size_t k = (size_t)snprintf(notes[n], sizeof notes[0], "wrong result or fault (%s drawn all the same):",
                                c->lines ? "points" : "bars");
    int count = 0;
    for (uint32_t i = 0; i < c->nrows; i++)
      if (!c->rows[i].pt->correct && !none[i])
        note_item(notes[n], sizeof notes[0], &k, &count, c->rows[i].label);
    n += count > 0;
  }
  if (n < max && c->x_note[0])
    snprintf(notes[n++], sizeof notes[0], "%s", c->x_note);
  if (n < max && c->pred_note[0])
    snprintf(notes[n++], sizeof notes[0], "%s", c->pred_note);
  return n;
}

/* The start of every chart's script: what it is, the terminal (a PNG, or text for dumb),
   how the data reads, fmt() for value labels, the axes' look. */
static void gp_preamble(FILE *f, const struct chart *c, const struct run_result *r, int dumb,
                        int width, int height)
{
  fprintf(f, "# %s%s: chart '%s' of warplab run %s (written by warplab's plots/plot.c).\n",
          c->name, dumb ? ".term.gp" : ".gp", c->name, r->results_dir);
  fprintf(f, "# Data: %s.dat. Redraw with `gnuplot %s%s` in this folder.\n", c->name, c->name,
          dumb ? ".term.gp" : ".gp");
  if (dumb) {
    fprintf(f, "set terminal dumb size %d,%d noenhanced\n", width, height);
    fputs("if (exists(\"warplab_out\")) { set output warplab_out } else { set output }\n", f);
  } else {
    fprintf(f, "if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
               "  set terminal pngcairo size %d,%d font \"Sans,12\" noenhanced background rgb \"white\"\n"
               "} else {\n"
               "  set terminal png size %d,%d font \"Sans,12\" noenhanced background rgb \"white\"\n"
               "}\n", width, height, width, height);
    fprintf(f, "set output \"%s.png\"\n", c->name);
  }
  fputs("set datafile separator \"\\t\"\nset datafile missing \"?\"\n", f);
  /* values over the bars: short, and never in exponent notation */
  fputs("fmt(v) = (v != v) ? \"\" : (abs(v) >= 1e6 ? sprintf(\"%.3gM\", v/1e6) : "
        "(abs(v) >= 1e4 ? sprintf(\"%.3gk\", v/1e3) : (abs(v) >= 1e3 || v == int(v) ? "
        "sprintf(\"%.0f\", v) : sprintf(\"%.3g\", v))))\n", f);
  fputs("set border 3 lw 1 lc rgb \"#555555\"\nset tics nomirror out scale 0.6\n", f);
}

/* The heading, from the top of the graph up: notes, extra (lines of the chart's own, split
   at '\n', or NULL), subtitle, title; and the top margin they take. */
static void gp_heading(FILE *f, const struct chart *c, char notes[][256], uint32_t nnotes,
                       const char *subtitle, const char *extra, int dumb, int width)
{
  const char *at = c->lines ? "screen" : "graph";   /* a line chart's key is at the right */
  double line = dumb ? 1.0 : 1.35, y = dumb ? 1.5 : 1.0;
  for (uint32_t k = nnotes; k-- > 0;) {
    fputs("set label ", f);
    gp_str_max(f, notes[k], dumb ? (size_t)width - 4 : 0);
    fprintf(f, " at %s 0.5, graph 1 offset 0,%.2f center", at, y);
    fputs(dumb ? "\n" : " font \",11\" tc rgb \"" NOTE_COLOUR "\"\n", f);
    y += line;
  }
  for (const char *end = extra ? extra + strlen(extra) : NULL; end && end > extra;) {
    const char *start = end;   /* its lines from the last up */
    while (start > extra && start[-1] != '\n')
      start--;
    char one[640];
    snprintf(one, sizeof one, "%.*s", (int)(end - start), start);
    fputs("set label ", f);
    gp_str_max(f, one, dumb ? (size_t)width - 4 : 0);
    fprintf(f, " at %s 0.5, graph 1 offset 0,%.2f center%s\n", at, y,
            dumb ? "" : " font \",10\" tc rgb \"#333333\"");
    y += line;
    end = start > extra ? start - 1 : extra;
  }
  fputs("set label ", f);
  gp_str_max(f, subtitle, dumb ? (size_t)width - 4 : 0);
  fprintf(f, " at %s 0.5, graph 1 offset 0,%.2f center%s\n", at, y,
          dumb ? "" : " font \",11\" tc rgb \"#555555\"");
  y += dumb ? line : line * 1.25;
  fputs("set label ", f);
  gp_str_max(f, c->title, dumb ? (size_t)width - 4 : 0);
  fprintf(f, " at %s 0.5, graph 1 offset 0,%.2f center%s\n", at, y, dumb ? "" : " font \"Sans Bold,16\"");
  fprintf(f, "set tmargin %.1f\n", y + (dumb ? 0.5 : 1.6));
}

/* The end of a PNG chart's script: the same chart again as SVG. */
static void gp_svg(FILE *f, const struct chart *c, int width, int height)
{
  fprintf(f, "set terminal svg size %d,%d dynamic font \"Sans,12\" noenhanced background rgb "
             "\"white\"\nset output \"%s.svg\"\nreplot\nunset output\n", width, height, c->name);
}

/* Point types and dash patterns of a line chart's sweeps when colour tells its metrics
   apart; the prediction's colour when colour does not tell its sweeps apart. */
static const int sweep_point[RUN_MAX_SWEEPS] = {7, 5, 9, 13};
static const char *const sweep_dash[RUN_MAX_SWEEPS] = {"(10,6)", "(4,5)", "(16,5,3,5)", "(2,4)"};
#define PRED_COLOUR "#222222"

/* The key of line (k, s): the sweep where there are several, the label, the kind. */
static void line_key(const struct chart *c, uint32_t k, uint32_t s, char *out, size_t n)
{
  const char *kind = c->kind[s][0] ? c->kind[s] : "?";
  if (c->nsweeps > 1 && c->nseries == 1)
    snprintf(out, n, "%s (%s)", c->sweeps[k], kind);
  else if (c->nsweeps > 1)
    snprintf(out, n, "%s, %s (%s)", c->label[s], c->sweeps[k], kind);
  else   /* the metrics' names are in the data file: the key stays narrow */
    snprintf(out, n, "%s (%s)", c->label[s], kind);
}

/* The prediction and, on a second line, the profile's numbers it used, for the heading:
   "prediction = min(...)\nwith dram_cycles = 641, sm_count = 132 (h200.conf)". */
static void predict_line(const struct chart *c, const struct run_result *r, char *out, size_t n)
{
  size_t k = (size_t)snprintf(out, n, "%s = %s", c->predict_label, c->predict);
  for (uint32_t u = 0; u < c->nused && k < n; u++)
    k += (size_t)snprintf(out + k, n - k, "%s%s = %.10g", u ? ", " : "\nwith ", c->used[u],
                          c->used_v[u]);
  if (c->nused && k < n)
    snprintf(out + k, n - k, " (%s.conf)", c->prof && c->prof->id[0] ? c->prof->id : r->prov.profile);
}

/* x as a tic label: an integer without decimals, else 4 significant digits. */
static void tic_label(double x, char *out, size_t n)
{
  if (x == floor(x) && fabs(x) < 1e15)
    snprintf(out, n, "%.0f", x);
  else
    snprintf(out, n, "%.4g", x);
}

/* The script of a line chart: each sweep's points joined in the order of x, one line per
   sweep and metric; each sweep's prediction dashed over them; the main configuration
   ringed. */
static int write_line_script(const struct chart *c, const struct run_result *r, enum target t,
                             int width, int height, char *err, size_t errlen)
{
  char path[1200];
  path_join(path, sizeof path, r->results_dir, c->name, t == TARGET_DUMB ? ".term.gp" : ".gp");
  FILE *f = fopen(path, "w");
  if (!f) {
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    return -1;
  }
  int dumb = t == TARGET_DUMB;
  /* what is drawn, and the ranges it needs */
  uint32_t nplot = 0, ndrawn[RUN_MAX_SWEEPS][PLOT_MAX_SERIES] = {{0}}, npred[RUN_MAX_SWEEPS] = {0};
  double lo = HUGE_VAL, hi = -HUGE_VAL, xlo = HUGE_VAL, xhi = -HUGE_VAL;
  int has_main = 0;
  for (uint32_t i = 0; i < c->nrows; i++) {
    const struct chart_row *row = &c->rows[i];
    if (!row->x_defined)
      continue;
    xlo = fmin(xlo, row->x);
    xhi = fmax(xhi, row->x);
    for (uint32_t s = 0; s < c->nseries; s++)
      if (row->defined[s]) {
        ndrawn[row->sweep][s]++;
        lo = fmin(lo, row->v[s]);
        hi = fmax(hi, row->v[s]);
        has_main |= row->is_main;
      }
    if (row->pred_defined) {
      npred[row->sweep]++;
      lo = fmin(lo, row->pred);
      hi = fmax(hi, row->pred);
    }
  }
  for (uint32_t k = 0; k < c->nsweeps; k++)
    for (uint32_t j = 0; j < c->curve_n[k]; j++) {
      lo = fmin(lo, c->curve_y[k][j]);
      hi = fmax(hi, c->curve_y[k][j]);
    }
  for (uint32_t s = 0; s < c->nseries; s++)
    for (uint32_t k = 0; k < c->nsweeps; k++)
      nplot += ndrawn[k][s] > 0;
  if (!dumb) {   /* the plot 800 wide, the key on its right */
    width = 1200;
    height = 640;
  }
  char notes[PLOT_MAX_NOTES][256];
  uint32_t nnotes = chart_notes(c, r, notes, PLOT_MAX_NOTES, nplot == 0);
  char subtitle[512], extra[640] = "";
  chart_subtitle(r, subtitle, sizeof subtitle);
  if (c->predict[0] && !dumb)
    predict_line(c, r, extra, sizeof extra);

  gp_preamble(f, c, r, dumb, width, height);
  if (!dumb)
    fputs("set grid xtics ytics lt 1 lw 1 lc rgb \"#E3E3E3\"\n", f);
  if (xlo <= xhi) {
    if (c->xlog) {
      double pad = xlo < xhi ? pow(xhi / xlo, 0.05) : 2;
      fprintf(f, "set logscale x 2\nset xrange [%.6g:%.6g]\n", xlo / pad, xhi * pad);
    } else {
      double pad = xlo < xhi ? (xhi - xlo) * 0.05 : fabs(xlo) * 0.5 + 1;
      fprintf(f, "set xrange [%.6g:%.6g]\n", xlo - pad, xhi + pad);
    }
    /* tics at the points' own x, when there are few of them */
    double xs[PLOT_MAX_ROWS];
    uint32_t nx = 0;
    for (uint32_t i = 0; i < c->nrows; i++) {
      uint32_t j = 0;
      while (j < nx && xs[j] != c->rows[i].x)
        j++;
      if (c->rows[i].x_defined && j == nx)
        xs[nx++] = c->rows[i].x;
    }
    if (nx <= 12) {
      for (uint32_t i = 1; i < nx; i++)
        for (uint32_t j = i; j > 0 && xs[j] < xs[j - 1]; j--) {
          double tmp = xs[j];
          xs[j] = xs[j - 1];
          xs[j - 1] = tmp;
        }
      fputs("set xtics (", f);
      for (uint32_t i = 0; i < nx; i++) {
        char tl[32];
        tic_label(xs[i], tl, sizeof tl);
        fprintf(f, "%s\"%s\" %.10g", i ? ", " : "", tl, xs[i]);
      }
      fputs(")\n", f);
    }
  }
  if (nplot == 0) {
    fputs("set yrange [0:1]\nunset ytics\n", f);
  } else if (c->log) {
    fprintf(f, "set logscale y\nset yrange [%.6g:%.6g]\n", lo / 1.6, hi * 1.6);
    if (hi >= 1e4)
      fputs("set format y \"%.0s%c\"\n", f);
  } else {
    double top = hi > 0 ? hi * 1.1 : 1, bottom = lo < 0 ? lo * 1.1 : 0;
    fprintf(f, "set yrange [%.6g:%.6g]\n", bottom, top);
  }
  if (c->ylabel[0]) {
    fputs("set ylabel ", f);
    gp_str(f, c->ylabel);
    fputs(dumb ? "\n" : " offset 0.5,0\n", f);
  }
  fputs("set xlabel ", f);
  gp_str(f, c->xlabel[0] ? c->xlabel : c->x);
  fputc('\n', f);
  gp_heading(f, c, notes, nnotes, subtitle, extra[0] ? extra : NULL, dumb, width);
  if (nplot == 0)
    for (uint32_t s = 0; s < c->nseries; s++) {
      char why[256];
      series_absent_note(c, s, r, why, sizeof why);
      fputs("set label ", f);
      gp_str_max(f, why, dumb ? (size_t)width - 16 : 0);
      fprintf(f, " at graph 0.5, graph %.2f center%s\n", 0.55 - 0.08 * s,
              dumb ? "" : " font \",15\" tc rgb \"" NOTE_COLOUR "\"");
    }
  fputs(dumb ? "set key outside below center horizontal\n"
             : "set key outside right top vertical Left reverse samplen 3 spacing 1.4 width -5 "
               "font \",11\"\n", f);
  fputs("plot ", f);
  int first = 1;
  /* sweep by sweep, its lines and then its prediction (the key lists them so, a column per
     sweep); one colour per sweep when there is one metric, else one per metric and a point
     type per sweep */
  for (uint32_t k = 0; k < c->nsweeps; k++) {
    for (uint32_t s = 0; s < c->nseries; s++) {
      if (!ndrawn[k][s])
        continue;
      char key[400];
      line_key(c, k, s, key, sizeof key);
      const char *col = series_colour[(c->nseries == 1 ? k : s) % PLOT_MAX_SERIES];
      int pt = c->nseries == 1 ? 7 : sweep_point[k];
      fprintf(f, "%s\"%s.dat\" index %u using 2:(column(%u)) with linespoints lw 2 pt %d ps %s "
              "lc rgb \"%s\" title ", first ? "" : ", \\\n     ", c->name, k, s + 3, pt,
              dumb ? "1" : "1.4", col);
      gp_str(f, key);
      first = 0;
    }
    if (!c->predict[0] || (!npred[k] && !c->curve_n[k]))
      continue;
    char key[400];
    if (c->nsweeps > 1)
      snprintf(key, sizeof key, "%s, %s", c->predict_label, c->sweeps[k]);
    else
      snprintf(key, sizeof key, "%s", c->predict_label);
    const char *col = c->nseries == 1 && c->nsweeps > 1 ? series_colour[k % PLOT_MAX_SERIES]
                                                         : PRED_COLOUR;
    const char *dash = c->nseries == 1 ? sweep_dash[0] : sweep_dash[k];
    if (c->curve_n[k])
      fprintf(f, "%s\"%s.dat\" index %u using 1:2 with lines", first ? "" : ", \\\n     ", c->name,
              curve_index(c, k));
    else
      fprintf(f, "%s\"%s.dat\" index %u using 2:(column(%u)) with lines", first ? "" : ", \\\n     ",
              c->name, k, c->nseries + 3);
    if (dumb)
      fputs(" title ", f);
    else
      fprintf(f, " dt %s lw 2.5 lc rgb \"%s\" title ", dash, col);
    gp_str(f, key);
    first = 0;
  }
  /* the kernel file's own choice: a ring round its points */
  int ringed = 0;
  for (uint32_t k = 0; has_main && !dumb && k < c->nsweeps; k++)
    for (uint32_t s = 0; s < c->nseries; s++) {
      if (!ndrawn[k][s])
        continue;
      fprintf(f, ", \\\n     \"%s.dat\" index %u using 2:(strstrt(strcol(1), \"(yours)\") > 0 ? "
              "column(%u) : NaN) with points pt 6 ps 3.2 lw 2 lc rgb \"#000000\" %s", c->name, k,
              s + 3, ringed ? "notitle" : "title \"(yours): the kernel file's own choice\"");
      ringed = 1;
    }
  if (first)
    fputs("NaN notitle", f);
  fputc('\n', f);
  if (!dumb)
    gp_svg(f, c, width, height);
  if (fclose(f) != 0) {
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    return -1;
  }
  return 0;
}

/* The script that draws c: for TARGET_FILES, NAME.png then NAME.svg; for TARGET_DUMB, text
   of width x height characters on standard output. */
static int write_script(const struct chart *c, const struct run_result *r, enum target t,
                        int width, int height, char *err, size_t errlen)
{
  if (c->lines)
    return write_line_script(c, r, t, width, height, err, errlen);
  char path[1200];
  path_join(path, sizeof path, r->results_dir, c->name, t == TARGET_DUMB ? ".term.gp" : ".gp");
  FILE *f = fopen(path, "w");
  if (!f) {
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    return -1;
  }
  uint32_t nplot = 0, maxlen = 0;
  double lo = HUGE_VAL, hi = -HUGE_VAL;
  for (uint32_t s = 0; s < c->nseries; s++)
    nplot += c->ndefined[s] > 0;
  for (uint32_t i = 0; i < c->nrows; i++) {
    uint32_t len = (uint32_t)strlen(c->rows[i].label);
    maxlen = len > maxlen ? len : maxlen;
    for (uint32_t s = 0; s < c->nseries; s++)
      if (c->rows[i].defined[s]) {
        lo = c->rows[i].v[s] < lo ? c->rows[i].v[s] : lo;
        hi = c->rows[i].v[s] > hi ? c->rows[i].v[s] : hi;
      }
  }
  char notes[PLOT_MAX_SERIES + 1][256];
  uint32_t nnotes = chart_notes(c, r, notes, PLOT_MAX_SERIES + 1, nplot == 0);
  char subtitle[512];
  chart_subtitle(r, subtitle, sizeof subtitle);
  uint32_t nrows = c->nrows ? c->nrows : 1;
  int dumb = t == TARGET_DUMB;
  int upright = dumb || nplot < 3;   /* value labels: turned up beside narrow bars */
  if (!dumb) {
    /* room for every bar and its value label; readable at 100% zoom */
    uint32_t per = nplot > 1 ? 34 * nplot + 26 : 70;
    uint32_t w = 200 + nrows * per;
    /* and for the title, in bold 16-point type (about 12 pixels a character) */
    uint32_t tw = 160 + 12 * (uint32_t)strlen(c->title);
    if (w < tw)
      w = tw;
    width = (int)(w < 900 ? 900 : w > 1800 ? 1800 : w);
    height = 640;
  }

  gp_preamble(f, c, r, dumb, width, height);
  if (!dumb)
    fputs("set grid ytics lt 1 lw 1 lc rgb \"#E3E3E3\"\n", f);
  /* a cluster per configuration, a unit apart; few configurations: slimmer bars */
  double pad = nrows < 4 ? 0.6 + 0.5 * (4 - nrows) : 0.6;
  fprintf(f, "set xrange [%.2f:%.2f]\n", -pad, nrows - 1 + pad);
  if (nplot == 0) {
    fputs("set yrange [0:1]\nunset ytics\n", f);
  } else if (c->log) {
    fprintf(f, "set logscale y\nset yrange [%.6g:%.6g]\n", lo / 2, hi * 4);
    if (hi >= 1e4)
      fputs("set format y \"%.0s%c\"\n", f);   /* 10k, 100k, 1M rather than 1e+06 */
  } else {
    double top = hi > 0 ? hi * (upright ? 1.14 : 1.24) : 1;
    double bottom = lo < 0 ? lo * 1.14 : 0;
    fprintf(f, "set yrange [%.6g:%.6g]\n", bottom, top);
  }
  if (c->ylabel[0]) {
    fputs("set ylabel ", f);
    gp_str(f, c->ylabel);
    fputs(dumb ? "\n" : " offset 0.5,0\n", f);
  }
  /* labels that would run into each other: rotated, or on a terminal (no rotation there),
     every other one a row lower */
  double slot_chars = dumb ? (width - 12.0) / nrows : (width - 200.0) / nrows / 9.5;
  int tight = maxlen + 1 > slot_chars, stagger = tight && dumb;
  fputs("set xtics (", f);
  for (uint32_t i = 0, k = 0; i < c->nrows; i++) {
    if (stagger && i % 2)
      continue;
    fputs(k++ ? ", " : "", f);
    gp_str(f, c->rows[i].label);
    fprintf(f, " %u", i);
  }
  fputs(")\n", f);
  if (tight && !dumb)
    fputs("set xtics rotate by 35 right\n", f);
  for (uint32_t i = 1; stagger && i < c->nrows; i += 2) {
    fputs("set label ", f);
    gp_str(f, c->rows[i].label);
    fprintf(f, " at %u, graph 0 offset 0,-2 center\n", i);
  }
  if (stagger)
    fputs("set xlabel \" \" offset -1000,0\n", f);   /* keeps a row free; drawn off the chart */
  if (!dumb)
    for (uint32_t i = 0; i < c->nrows; i++)
      if (c->rows[i].is_main)
        fprintf(f, "set object rect from %.2f, graph 0 to %.2f, graph 1 behind fc rgb \"%s\" "
                "fs solid 1.0 noborder\n", i - 0.5, i + 0.5, MAIN_BAND);

  gp_heading(f, c, notes, nnotes, subtitle, NULL, dumb, width);
  if (dumb)   /* room for the first label, centred under the left edge */
    fprintf(f, "set lmargin %u\n", maxlen / 2 + 4 > 10 ? maxlen / 2 + 4 : 10);
  if (nplot == 0) {
    /* nothing to draw: say why, where the bars would be */
    for (uint32_t s = 0; s < c->nseries; s++) {
      char why[256];
      series_absent_note(c, s, r, why, sizeof why);
      fputs("set label ", f);
      gp_str_max(f, why, dumb ? (size_t)width - 16 : 0);
      fprintf(f, " at graph 0.5, graph %.2f center%s\n", 0.55 - 0.08 * s,
              dumb ? "" : " font \",15\" tc rgb \"" NOTE_COLOUR "\"");
    }
  }
  fputs(dumb ? "set key outside below center horizontal\n"
             : "set key outside below center horizontal Left reverse samplen 1.5 spacing 1.3 width 1 font \",11\"\n", f);
  fputs("set style fill solid 0.92 border lc rgb \"#303030\"\n", f);

  /* the bars: series s of the ones drawn sits at offset off within a cluster 0.8 wide */
  double bw = nplot ? 0.8 / nplot : 0.8;
  uint32_t j = 0;
  fputs("plot ", f);
  int first = 1;
  for (uint32_t s = 0; s < c->nseries; s++) {
    if (!c->ndefined[s])
      continue;
    double off = -0.4 + bw * (j + 0.5);
    char key[400];
    if (strcmp(c->label[s], c->metric[s]) && !dumb)
      snprintf(key, sizeof key, "%s (%s): %s", c->label[s], c->kind[s][0] ? c->kind[s] : "?",
               c->metric[s]);
    else   /* a terminal is narrow: the label alone */
      snprintf(key, sizeof key, "%s (%s)", c->label[s], c->kind[s][0] ? c->kind[s] : "?");
    fprintf(f, "%s\"%s.dat\" using ($0%+.4f):%u:(%.4f) with boxes lc rgb \"%s\" title ",
            first ? "" : ", \\\n     ", c->name, off, s + 2, bw * 0.86,
            series_colour[j % PLOT_MAX_SERIES]);
    gp_str(f, key);
    fprintf(f, ", \\\n     \"\" using ($0%+.4f):%u:(fmt($%u)) with labels %s notitle",
            off, s + 2, s + 2, dumb ? "offset 0,1" : upright ? "offset 0,0.7 font \",10\"" :
            "rotate by 90 left offset 0,0.4 font \",9\"");
    first = 0;
    j++;
  }
  if (nplot == 0) {
    fputs("NaN notitle", f);
    first = 0;
  }
  int has_main = 0;
  for (uint32_t i = 0; i < c->nrows; i++)
    has_main |= c->rows[i].is_main;
  if (has_main && !dumb)
    fputs(", \\\n     keyentry with boxes fc rgb \"" MAIN_BAND "\" fs solid 1.0 noborder "
          "title \"(yours): the kernel file's own choice\"", f);
  fputc('\n', f);
  if (!dumb)
    gp_svg(f, c, width, height);
  if (fclose(f) != 0) {
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    return -1;
  }
  return 0;
}

/* ---- running gnuplot ---- */

int plot_find_gnuplot(char *out, size_t outlen)
{
  const char *path = getenv("PATH");
  while (path && *path) {
    const char *colon = strchr(path, ':');
    size_t n = colon ? (size_t)(colon - path) : strlen(path);
    if (n && n + sizeof "/gnuplot" <= outlen) {
      memcpy(out, path, n);
      memcpy(out + n, "/gnuplot", sizeof "/gnuplot");
      if (access(out, X_OK) == 0)
        return 0;
    }
    path = colon ? colon + 1 : NULL;
  }
  if (outlen)
    out[0] = 0;
  return -1;
}

static void append_line(char *buf, size_t len, const char *line)
{
  size_t k = strlen(buf);
  if (len > k)
    snprintf(buf + k, len - k, "%s%s", k ? "\n" : "", line);
}

/* Run gnuplot with args (after its own name), in dir, through harness/run's process runner
   (tc_exec.h: no shell, stdin /dev/null, its own process group, killed with all it started
   after wall_s seconds). What it prints (stdout and stderr) goes to log. Returns 0, -1 with
   err ("gnuplot failed on DIR/what: its message"), or -2 with err when it ran out of time and
   was stopped. */
/* "LD_PRELOAD=..." that has gnuplot write its PNGs faster (plots/preload/png_speed.c:
   warplab-png.so, beside the warplab executable) into var, or "" where that library is not
   there or cannot be read (a confined grading run reads only the lab's folders and the
   system's). Asked at every run of gnuplot: a run confines itself midway. */
static void png_preload(char *var, size_t n)
{
  char exe[1024], so[1100];
  var[0] = 0;
  if (tc_self_path(exe, sizeof exe))
    return;
  char *slash = strrchr(exe, '/');
  if (!slash)
    return;
  *slash = 0;
  snprintf(so, sizeof so, "%s/warplab-png.so", exe);
  int fd = open(so, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return;
  close(fd);
  const char *was = getenv("LD_PRELOAD");
  snprintf(var, n, "LD_PRELOAD=%s%s%s", so, was && *was ? ":" : "", was ? was : "");
}

static int gp_exec(const char *gnuplot, const char *dir, const char *const args[], size_t nargs,
                   unsigned wall_s, const char *what, char *log, size_t loglen, char *err,
                   size_t errlen)
{
  const char **argv = calloc(nargs + 2, sizeof *argv);
  if (!argv) {
    snprintf(err, errlen, "cannot run gnuplot: out of host memory");
    return -1;
  }
  argv[0] = gnuplot;
  for (size_t i = 0; i < nargs; i++)
    argv[i + 1] = args[i];
  char preload[2300];
  png_preload(preload, sizeof preload);
  int rc = tc_exec_timed_env((char *const *)argv, dir, preload[0] ? preload : NULL, wall_s, log,
                             loglen);
  free(argv);
  if (rc == TC_EXEC_TIMEOUT) {
    snprintf(err, errlen, "gnuplot did not finish %s/%s in %u s: stopped", dir, what, wall_s);
    return -2;
  }
  if (rc != 0) {
    size_t n = strlen(log);
    while (n && (log[n - 1] == '\n' || log[n - 1] == ' '))
      log[--n] = 0;
    if (rc < 0)
      snprintf(err, errlen, "cannot run gnuplot: %s", strerror(errno));
    else if (rc == 127 && !n)
      snprintf(err, errlen, "cannot run %s", gnuplot);
    else
      snprintf(err, errlen, "gnuplot failed on %s/%s: %.*s", dir, what, 1600,
               n ? log : "no message");
    return -1;
  }
  return 0;
}

/* Run gnuplot on script (a file in dir), in dir, stopped after PLOT_TIMEOUT_S. Returns as
   gp_exec. */
static int gp_run(const char *gnuplot, const char *dir, const char *script, char *err,
                  size_t errlen)
{
  char log[2048];
  const char *args[] = {script};
  return gp_exec(gnuplot, dir, args, 1, PLOT_TIMEOUT_S, script, log, sizeof log, err, errlen);
}

/* Run gnuplot on NAME.term.gp in dir, its text chart into out (NUL-terminated, cut at
   outlen): the script writes it to the file warplab_out names when that is set (here:
   NAME.term.txt, read and removed; gnuplot's messages stay apart), else to standard output
   (`gnuplot NAME.term.gp` by hand). Returns as gp_exec. */
static int gp_text(const char *gnuplot, const char *dir, const char *name, char *out,
                   size_t outlen, char *err, size_t errlen)
{
  char script[80], set[160], txt[1200], log[2048];
  snprintf(script, sizeof script, "%s.term.gp", name);
  snprintf(set, sizeof set, "warplab_out = \"%s.term.txt\"", name);
  path_join(txt, sizeof txt, dir, name, ".term.txt");
  if (outlen)
    out[0] = 0;
  const char *args[] = {"-e", set, script};
  int rc = gp_exec(gnuplot, dir, args, 3, PLOT_TIMEOUT_S, script, log, sizeof log, err, errlen);
  FILE *f = fopen(txt, "r");
  if (f) {
    size_t n = outlen ? fread(out, 1, outlen - 1, f) : 0;
    if (outlen)
      out[n] = 0;
    fclose(f);
    unlink(txt);
  } else if (rc == 0) {
    snprintf(err, errlen, "gnuplot wrote no chart into %s", txt);
    rc = -1;
  }
  return rc;
}

/* Whether a chart's name can go into a gnuplot command as it is (lab.json's chart names
   can: letters, digits, '-' and '_'). */
static int plain_name(const char *name)
{
  for (const char *p = name; *p; p++)
    if (!(*p == '-' || *p == '_' || *p == '.' || (*p >= '0' && *p <= '9') ||
          (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
      return 0;
  return name[0] != 0;
}

#define DREW "warplab drew "   /* gnuplot prints it after each chart of a batch it drew */

/* One gnuplot for the charts of l whose names are plain and that pick[] holds (pick NULL:
   all): `gnuplot -e "reset session" A.gp -e 'print "warplab drew A"' -e "reset session"
   B.gp ...` in dir, each script from a fresh session (nothing one chart sets reaches the
   next), sets drawn[i] for each chart it drew (gnuplot stops at a script's first error: the
   charts after it are not drawn). Returns 0, or -2 with err when it ran out of time. */
static int gp_batch(const char *gnuplot, const char *dir, const struct plot_list *l,
                    const int pick[], int drawn[], char *err, size_t errlen)
{
  size_t nargs = 0, nplain = 0;
  const char **args = calloc((size_t)l->n * 5 + 1, sizeof *args);
  char (*script)[80] = calloc(l->n ? l->n : 1, sizeof *script);
  char (*mark)[112] = calloc(l->n ? l->n : 1, sizeof *mark);
  size_t loglen = 65536;
  char *log = malloc(loglen);
  int rc = 0;
  if (!args || !script || !mark || !log)
    goto out;                        /* nothing drawn: each chart is drawn alone */
  for (uint32_t i = 0; i < l->n; i++) {
    if (!plain_name(l->name[i]) || (pick && !pick[i]))
      continue;
    snprintf(script[i], sizeof script[i], "%s.gp", l->name[i]);
    snprintf(mark[i], sizeof mark[i], "print \"" DREW "%s\"", l->name[i]);
    args[nargs++] = "-e";
    args[nargs++] = "reset session";
    args[nargs++] = script[i];
    args[nargs++] = "-e";
    args[nargs++] = mark[i];
    nplain++;
  }
  if (!nplain)
    goto out;
  char e[1200];
  int st = gp_exec(gnuplot, dir, args, nargs, PLOT_TIMEOUT_S * (unsigned)nplain, "(all charts)",
                   log, loglen, e, sizeof e);
  if (st == -2) {
    snprintf(err, errlen, "%s", e);
    rc = -2;
  }
  /* the charts it drew: its lines "warplab drew NAME" (only its own: drawn[] is shared with
     the other gnuplot of plot_list_draw) */
  for (char *line = log; *line;) {
    size_t len = strcspn(line, "\n");
    if (len > strlen(DREW) && !strncmp(line, DREW, strlen(DREW)))
      for (uint32_t i = 0; i < l->n; i++)
        if ((!pick || pick[i]) && !drawn[i] && len - strlen(DREW) == strlen(l->name[i]) &&
            !strncmp(line + strlen(DREW), l->name[i], len - strlen(DREW)))
          drawn[i] = 1;
    line += len + (line[len] == '\n');
  }
out:
  free(args);
  free(script);
  free(mark);
  free(log);
  return rc;
}

/* How much drawing chart NAME in dir is, to share charts between two gnuplots: the bytes
   of its data and script (a chart's points and series; most of gnuplot's time is
   compressing the PNG, which grows with them), and a floor for a chart's fixed cost. */
static long chart_weight(const char *dir, const char *name)
{
  static const char *const ext[] = {".dat", ".gp"};
  long w = 1024;
  for (size_t k = 0; k < 2; k++) {
    char path[1200];
    struct stat st;
    path_join(path, sizeof path, dir, name, ext[k]);
    if (stat(path, &st) == 0)
      w += (long)st.st_size;
  }
  return w;
}

/* One of plot_list_draw's two gnuplots, run on a thread of its own. */
struct gp_half {
  const char *gnuplot, *dir;
  const struct plot_list *l;
  const int *pick;
  int *drawn;
  int rc;
  char err[1400];
};

static void *gp_half_run(void *arg)
{
  struct gp_half *h = arg;
  h->rc = gp_batch(h->gnuplot, h->dir, h->l, h->pick, h->drawn, h->err, sizeof h->err);
  return NULL;
}

/* The charts of l drawn by gnuplot in batches (gp_batch): one gnuplot where there is one
   chart to draw or one CPU, else two at once, the charts shared between them in list order,
   each to the one with less to draw so far (chart_weight). Sets drawn[i] for each chart
   drawn. Returns 0, or -2 with err when a gnuplot ran out of time. */
static int gp_batches(const char *gnuplot, const char *dir, const struct plot_list *l,
                      int drawn[], char *err, size_t errlen)
{
  uint32_t nplain = 0;
  for (uint32_t i = 0; i < l->n; i++)
    nplain += (uint32_t)plain_name(l->name[i]);
  if (nplain < 2 || sysconf(_SC_NPROCESSORS_ONLN) < 2)
    return gp_batch(gnuplot, dir, l, NULL, drawn, err, errlen);
  int pick[2][PLOT_MAX_LIST] = {{0}};
  long load[2] = {0, 0};
  for (uint32_t i = 0; i < l->n; i++) {
    if (!plain_name(l->name[i]))
      continue;
    int k = load[1] < load[0];
    pick[k][i] = 1;
    load[k] += chart_weight(dir, l->name[i]);
  }
  struct gp_half half[2];
  for (int k = 0; k < 2; k++)
    half[k] = (struct gp_half){.gnuplot = gnuplot, .dir = dir, .l = l, .pick = pick[k],
                               .drawn = drawn, .err = ""};
  pthread_t t;
  int threaded = pthread_create(&t, NULL, gp_half_run, &half[1]) == 0;
  gp_half_run(&half[0]);
  if (threaded)
    pthread_join(t, NULL);
  else
    gp_half_run(&half[1]);                      /* no thread: one after the other */
  for (int k = 0; k < 2; k++)
    if (half[k].rc == -2) {
      snprintf(err, errlen, "%s", half[k].err);
      return -2;
    }
  return 0;
}

int plot_list_add(struct plot_list *l, const char *name, const char *what, char *err,
                  size_t errlen)
{
  if (l->n == PLOT_MAX_LIST) {
    snprintf(err, errlen, "%s%s: more than %d charts in one run", what, name, PLOT_MAX_LIST);
    return -1;
  }
  snprintf(l->name[l->n], sizeof l->name[l->n], "%s", name);
  snprintf(l->what[l->n], sizeof l->what[l->n], "%s", what);
  l->n++;
  return 0;
}

int plot_list_draw(const struct plot_list *l, const char *dir, char *paths_out, size_t paths_len,
                   char *err, size_t errlen)
{
  if (!l->n)
    return PLOT_OK;
  char gnuplot[1024];
  if (plot_find_gnuplot(gnuplot, sizeof gnuplot)) {
    snprintf(err, errlen, "gnuplot is not installed (not on PATH): the charts' data and scripts "
             "are in %s, the pictures are not drawn", dir);
    return PLOT_NO_GNUPLOT;
  }
  int drawn[PLOT_MAX_LIST] = {0};
  char e[1400];
  int rc = PLOT_OK;
  int hung = gp_batches(gnuplot, dir, l, drawn, e, sizeof e) == -2;
  for (uint32_t i = 0; i < l->n; i++) {
    /* one the batch did not draw is drawn alone: the one whose script failed says why, the
       ones after it are drawn; a gnuplot that hung is not tried on every chart */
    int st = drawn[i] ? 0 : hung ? -2 : 0;
    if (!drawn[i] && !hung) {
      char script[80];
      snprintf(script, sizeof script, "%s.gp", l->name[i]);
      st = gp_run(gnuplot, dir, script, e, sizeof e);
      hung = st == -2;
    }
    if (st) {
      if (rc == PLOT_OK) {
        snprintf(err, errlen, "%s%s", l->what[i], e);
        rc = PLOT_FAILED;
      }
      continue;
    }
    char png[1200];
    path_join(png, sizeof png, dir, l->name[i], ".png");
    append_line(paths_out, paths_len, png);
  }
  return rc;
}

/* ---- the entry points ---- */

int plot_lab_scripts(const struct run_lab *lab, const struct run_result *r,
                     struct plot_list *l, char *err, size_t errlen)
{
  if (lab->ncharts == 0 || r->npoints == 0)
    return PLOT_OK;
  uint32_t n = lab->ncharts;
  struct chart *c = malloc(sizeof *c);
  if (!c) {
    snprintf(err, errlen, "out of host memory");
    return PLOT_FAILED;
  }
  int rc = PLOT_OK;
  for (uint32_t i = 0; i < n; i++) {
    char e[1024];
    chart_parse(lab, i, c);
    chart_gather(c, r);
    if (write_dat(c, r, e, sizeof e) || write_script(c, r, TARGET_FILES, 0, 0, e, sizeof e) ||
        plot_list_add(l, c->name, "", e, sizeof e)) {
      if (rc == PLOT_OK) {
        snprintf(err, errlen, "%s", e);
        rc = PLOT_FAILED;
      }
    }
  }
  free(c);
  return rc;
}

int plot_lab_charts(const struct run_lab *lab, const struct run_result *r, char *paths_out,
                    size_t paths_len, char *err, size_t errlen)
{
  if (paths_len)
    paths_out[0] = 0;
  struct plot_list *l = calloc(1, sizeof *l);
  if (!l) {
    snprintf(err, errlen, "out of host memory");
    return PLOT_FAILED;
  }
  int rc = plot_lab_scripts(lab, r, l, err, errlen);
  if (rc != PLOT_BAD_CHART) {
    char e[1600];
    int drc = plot_list_draw(l, r->results_dir, paths_out, paths_len, e, sizeof e);
    if (rc == PLOT_OK && drc != PLOT_OK) {
      snprintf(err, errlen, "%s", e);
      rc = drc;
    }
  }
  free(l);
  return rc;
}

int plot_terminal_chart(const struct run_lab *lab, const struct run_result *r, const char *name,
                        int width, int height, char *out, size_t outlen, char *err, size_t errlen)
{
  if (outlen)
    out[0] = 0;
  if (width < 40 || height < 12 || width > 1000 || height > 500) {
    snprintf(err, errlen, "terminal chart size %dx%d: expected 40..1000 by 12..500 characters",
             width, height);
    return PLOT_FAILED;
  }
  struct chart *c = malloc(sizeof *c);
  if (!c) {
    snprintf(err, errlen, "out of host memory");
    return PLOT_FAILED;
  }
  int rc = PLOT_OK;
  char gnuplot[1024];
  if (chart_find(lab, name, c, err, errlen)) {
    rc = PLOT_BAD_CHART;
  } else {
    chart_gather(c, r);
    if (write_dat(c, r, err, errlen) || write_script(c, r, TARGET_DUMB, width, height, err, errlen))
      rc = PLOT_FAILED;
    else if (plot_find_gnuplot(gnuplot, sizeof gnuplot)) {
      snprintf(err, errlen, "gnuplot is not installed (not on PATH)");
      rc = PLOT_NO_GNUPLOT;
    } else if (gp_text(gnuplot, r->results_dir, c->name, out, outlen, err, errlen)) {
      rc = PLOT_FAILED;
    }
  }
  free(c);
  return rc;
}

uint32_t plot_chart_count(const struct run_lab *lab)
{
  return lab->ncharts;
}

int plot_chart_data(const struct run_lab *lab, const struct run_result *r, uint32_t index,
                    struct plot_data *d, char *err, size_t errlen)
{
  memset(d, 0, sizeof *d);
  if (index >= plot_chart_count(lab)) {
    snprintf(err, errlen, "%s/%s has no chart number %u", lab->dir, charts_file(lab), index + 1);
    return PLOT_BAD_CHART;
  }
  struct chart *c = malloc(sizeof *c);
  if (!c) {
    snprintf(err, errlen, "out of host memory");
    return PLOT_FAILED;
  }
  chart_parse(lab, index, c);
  chart_gather(c, r);
  snprintf(d->name, sizeof d->name, "%s", c->name);
  snprintf(d->title, sizeof d->title, "%s", c->title);
  snprintf(d->ylabel, sizeof d->ylabel, "%s", c->ylabel);
  chart_subtitle(r, d->subtitle, sizeof d->subtitle);
  d->log = c->log;
  d->nseries = c->nseries;
  for (uint32_t s = 0; s < c->nseries; s++) {
    memcpy(d->metric[s], c->metric[s], sizeof d->metric[s]);
    memcpy(d->label[s], c->label[s], sizeof d->label[s]);
    memcpy(d->kind[s], c->kind[s], sizeof d->kind[s]);
    d->ndefined[s] = c->ndefined[s];
  }
  d->nrows = c->nrows;
  for (uint32_t i = 0; i < c->nrows; i++) {
    const struct chart_row *from = &c->rows[i];
    struct plot_row *to = &d->rows[i];
    memcpy(to->label, from->label, sizeof to->label);
    to->is_main = from->is_main;
    to->correct = from->pt->correct;
    memcpy(to->v, from->v, sizeof to->v);
    memcpy(to->defined, from->defined, sizeof to->defined);
    to->sweep = from->sweep;
    to->x = from->x;
    to->x_defined = from->x_defined;
  }
  d->lines = c->lines;
  snprintf(d->xlabel, sizeof d->xlabel, "%s", c->xlabel[0] ? c->xlabel : c->x);
  if (c->lines && c->predict[0]) {   /* the prediction: one series more, after the metrics' */
    uint32_t p = d->nseries++;
    snprintf(d->metric[p], sizeof d->metric[p], "%.*s", (int)sizeof d->metric[p] - 1, c->predict);
    snprintf(d->label[p], sizeof d->label[p], "%s", c->predict_label);
    snprintf(d->kind[p], sizeof d->kind[p], "predicted");
    for (uint32_t i = 0; i < c->nrows; i++) {
      d->rows[i].v[p] = c->rows[i].pred;
      d->rows[i].defined[p] = c->rows[i].pred_defined;
      d->ndefined[p] += (uint32_t)c->rows[i].pred_defined;
    }
  }
  d->nnotes = chart_notes(c, r, d->notes, PLOT_MAX_NOTES, 0);
  free(c);
  return PLOT_OK;
}

int plot_run_script(const char *dir, const char *script, char *err, size_t errlen)
{
  char gnuplot[1024];
  if (plot_find_gnuplot(gnuplot, sizeof gnuplot)) {
    snprintf(err, errlen, "gnuplot is not installed (not on PATH): the data and script are in "
             "%s, the picture is not drawn", dir);
    return PLOT_NO_GNUPLOT;
  }
  return gp_run(gnuplot, dir, script, err, errlen) ? PLOT_FAILED : PLOT_OK;
}

void plot_gp_string(FILE *f, const char *s)
{
  gp_str(f, s);
}

int plot_use_folder_charts(struct run_lab *lab, const struct run_result *r, const char *dir,
                           char *err, size_t errlen)
{
  char path[1200];
  snprintf(path, sizeof path, "%s/charts.json", dir);
  if (access(path, F_OK) != 0)
    return 0;
  json_error_t je;
  json_t *o = json_load_file(path, 0, &je);
  if (!o) {
    snprintf(err, errlen, "%s:%d: %s", path, je.line, je.text);
    return -1;
  }
  if (!json_is_object(o)) {
    snprintf(err, errlen, "%s: expected an object, {\"charts\": [...]}", path);
    json_decref(o);
    return -1;
  }
  lab->nsweeps = 0;
  for (uint32_t i = 0; i < r->npoints; i++) {
    const char *name = r->points[i].sweep;
    if (!name[0] || lab_has_sweep(lab, name))
      continue;
    if (lab->nsweeps == RUN_MAX_SWEEPS) {
      snprintf(err, errlen, "%s/result.json: more than %d sweeps (a chart draws at most that "
               "many)", dir, RUN_MAX_SWEEPS);
      json_decref(o);
      return -1;
    }
    struct run_sweep *sw = &lab->sweeps[lab->nsweeps++];
    memset(sw, 0, sizeof *sw);
    snprintf(sw->name, sizeof sw->name, "%s", name);
  }
  snprintf(lab->dir, sizeof lab->dir, "%s", dir);
  int rc = run_charts_parse(o, "charts.json", lab, err, errlen) ? -1 : 1;
  json_decref(o);
  return rc;
}
