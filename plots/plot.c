/* plot.c: a lab's charts: gather each chart's figures from a run's result structures, write
 * them as a data file and a gnuplot script, and run gnuplot on them.
 *
 * One chart of lab.json ("charts", plots/README.md) is a bar chart: one cluster of bars per
 * configuration of one sweep, one bar per metric named in "y". The main configuration (the
 * kernel file's own choice, run point 0) is marked: "(yours)" after its label and a shaded band
 * behind its bars; when no sweep point has the same choices, it comes first, on its own.
 * Every figure's kind (exact, ptx-level, measured, modelled) is in the key and the backend
 * and device in the subtitle, so a reader knows what each bar is. A metric with no value
 * anywhere (time on the emulator, until the timing model exists) is left out, with a note in
 * the chart saying so.
 *
 * The scripts are written next to their data and refer to it by name, so `gnuplot NAME.gp`
 * in the results folder redraws a chart. gnuplot runs as a child process (fork and exec,
 * found on PATH), in the results folder, killed when it takes longer than PLOT_TIMEOUT_S.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "plots/plot.h"

/* ---- the chart: its definition and its figures ---- */

struct chart_row {
  char label[80];                     /* "32x8", with " (yours)" for the main configuration */
  int is_main;
  const struct run_point *pt;
  double v[PLOT_MAX_SERIES];
  int defined[PLOT_MAX_SERIES];
};

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
  struct chart_row rows[1 + RUN_MAX_POINTS];
  uint32_t nrows;
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

static int copy_str(char *dst, size_t n, const char *src)
{
  size_t len = strlen(src);
  if (len >= n)
    return -1;
  memcpy(dst, src, len + 1);
  return 0;
}

/* Read charts[index] of lab.json into c (definition only). Returns 0, or -1 with err. */
static int chart_parse(const struct run_lab *lab, json_t *def, size_t index, struct chart *c,
                       char *err, size_t errlen)
{
  memset(c, 0, sizeof *c);
  c->scale = 1.0;
  char where[1200];
  snprintf(where, sizeof where, "%s/lab.json: charts[%zu]", lab->dir, index);
  if (!json_is_object(def)) {
    snprintf(err, errlen, "%s: expected an object", where);
    return -1;
  }
  const char *name = json_string_value(json_object_get(def, "name"));
  if (!name || !*name || copy_str(c->name, sizeof c->name, name)) {
    snprintf(err, errlen, "%s: \"name\" must be a string of 1 to %zu characters (it names the "
             "chart's files)", where, sizeof c->name - 1);
    return -1;
  }
  for (const char *p = name; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
          *p == '-' || *p == '_')) {
      snprintf(err, errlen, "%s: \"name\" '%s' may hold only letters, digits, '-' and '_' (it "
               "names the chart's files)", where, name);
      return -1;
    }
  snprintf(where, sizeof where, "%s/lab.json: chart '%s'", lab->dir, name);
  static const struct { const char *key; size_t off, size; } texts[] = {
    {"title", offsetof(struct chart, title), sizeof ((struct chart *)0)->title},
    {"sweep", offsetof(struct chart, sweep), sizeof ((struct chart *)0)->sweep},
    {"ylabel", offsetof(struct chart, ylabel), sizeof ((struct chart *)0)->ylabel},
  };
  for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
    json_t *v = json_object_get(def, texts[i].key);
    if (!v)
      continue;
    if (!json_is_string(v) || copy_str((char *)c + texts[i].off, texts[i].size, json_string_value(v))) {
      snprintf(err, errlen, "%s: \"%s\" must be a string of at most %zu characters", where,
               texts[i].key, texts[i].size - 1);
      return -1;
    }
  }
  if (!c->title[0])
    snprintf(c->title, sizeof c->title, "%s", name);
  if (c->sweep[0]) {
    uint32_t k = 0;
    while (k < lab->nsweeps && strcmp(lab->sweeps[k].name, c->sweep))
      k++;
    if (k == lab->nsweeps) {
      snprintf(err, errlen, "%s: \"sweep\" '%s' is not one of the lab's sweeps", where, c->sweep);
      return -1;
    }
  }
  json_t *style = json_object_get(def, "style");
  if (style && (!json_is_string(style) || strcmp(json_string_value(style), "bars"))) {
    snprintf(err, errlen, "%s: \"style\" must be \"bars\" (the only style so far)", where);
    return -1;
  }
  json_t *log = json_object_get(def, "log");
  if (log && !json_is_boolean(log)) {
    snprintf(err, errlen, "%s: \"log\" must be true or false", where);
    return -1;
  }
  c->log = log && json_is_true(log);
  json_t *scale = json_object_get(def, "scale");
  if (scale) {
    if (!json_is_number(scale) || !(json_number_value(scale) > 0) || !isfinite(json_number_value(scale))) {
      snprintf(err, errlen, "%s: \"scale\" must be a positive number (each value is multiplied "
               "by it)", where);
      return -1;
    }
    c->scale = json_number_value(scale);
  }
  json_t *y = json_object_get(def, "y");
  if (!json_is_array(y) || json_array_size(y) == 0 || json_array_size(y) > PLOT_MAX_SERIES) {
    snprintf(err, errlen, "%s: \"y\" must list 1 to %d metric names", where, PLOT_MAX_SERIES);
    return -1;
  }
  json_t *labels = json_object_get(def, "labels");
  if (labels && (!json_is_array(labels) || json_array_size(labels) != json_array_size(y))) {
    snprintf(err, errlen, "%s: \"labels\" must give one label per metric of \"y\"", where);
    return -1;
  }
  c->nseries = (uint32_t)json_array_size(y);
  for (uint32_t s = 0; s < c->nseries; s++) {
    const char *m = json_string_value(json_array_get(y, s));
    if (!m || !*m || copy_str(c->metric[s], sizeof c->metric[s], m)) {
      snprintf(err, errlen, "%s: \"y\"[%u] must be a metric name", where, s);
      return -1;
    }
    const char *l = labels ? json_string_value(json_array_get(labels, s)) : NULL;
    if (labels && (!l || !*l || copy_str(c->label[s], sizeof c->label[s], l))) {
      snprintf(err, errlen, "%s: \"labels\"[%u] must be a string of 1 to %zu characters", where,
               s, sizeof c->label[s] - 1);
      return -1;
    }
    if (!labels)   /* one series: the chart's name says what it is ("time"); else the metric */
      snprintf(c->label[s], sizeof c->label[s], "%s", c->nseries == 1 ? c->name : c->metric[s]);
  }
  return 0;
}

/* The chart named name (NULL: index), parsed. Returns 0, or -1 with err. */
static int chart_find(const struct run_lab *lab, const char *name, struct chart *c, char *err,
                      size_t errlen)
{
  json_t *charts = lab->json ? json_object_get(lab->json, "charts") : NULL;
  for (size_t i = 0; json_is_array(charts) && i < json_array_size(charts); i++) {
    const char *n = json_string_value(json_object_get(json_array_get(charts, i), "name"));
    if (n && !strcmp(n, name))
      return chart_parse(lab, json_array_get(charts, i), i, c, err, errlen);
  }
  snprintf(err, errlen, "%s/lab.json has no chart named '%s'", lab->dir, name);
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

static void add_row(struct chart *c, const struct run_point *pt, int is_main)
{
  if (c->nrows >= sizeof c->rows / sizeof *c->rows)
    return;
  struct chart_row *row = &c->rows[c->nrows++];
  memset(row, 0, sizeof *row);
  row->pt = pt;
  row->is_main = is_main;
  snprintf(row->label, sizeof row->label, "%s%s", pt->label, is_main ? " (yours)" : "");
  for (uint32_t s = 0; s < c->nseries; s++)
    for (uint32_t k = 0; k < pt->nmetrics; k++) {
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
}

/* The rows of c from r: the main configuration, then the sweep's points, in their order. */
static void chart_gather(struct chart *c, const struct run_result *r)
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

/* ---- writing: the data file and the script ---- */

static void path_join(char *out, size_t n, const char *dir, const char *name, const char *ext)
{
  snprintf(out, n, "%s/%s%s", dir, name, ext);
}

/* The data file: a comment header, then one line per configuration: its label and one value
   per series, tab-separated, "?" where there is none. */
static int write_dat(const struct chart *c, const struct run_result *r, char *err, size_t errlen)
{
  char path[1200];
  path_join(path, sizeof path, r->results_dir, c->name, ".dat");
  FILE *f = fopen(path, "w");
  if (!f) {
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    return -1;
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
  if (c->present[s])
    snprintf(out, n, "%s: no value in this run (undefined for this kernel%s)", c->label[s],
             c->log ? ", or not positive on a log scale" : "");
  else if (emu && !strncmp(c->metric[s], "gpu__time_duration", strlen("gpu__time_duration")))
    snprintf(out, n, "%s: not available on the emulator yet (its timing model is to come)",
             c->label[s]);
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
  int none[1 + RUN_MAX_POINTS] = {0};   /* no value in any series drawn */
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
    size_t k = (size_t)snprintf(notes[n], sizeof notes[0], "wrong result or fault (bars drawn all the same):");
    int count = 0;
    for (uint32_t i = 0; i < c->nrows; i++)
      if (!c->rows[i].pt->correct && !none[i])
        note_item(notes[n], sizeof notes[0], &k, &count, c->rows[i].label);
    n += count > 0;
  }
  return n;
}

/* The script that draws c: for TARGET_FILES, NAME.png then NAME.svg; for TARGET_DUMB, text
   of width x height characters on standard output. */
static int write_script(const struct chart *c, const struct run_result *r, enum target t,
                        int width, int height, char *err, size_t errlen)
{
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
    width = (int)(w < 900 ? 900 : w > 1800 ? 1800 : w);
    height = 640;
  }

  fprintf(f, "# %s%s: chart '%s' of warplab run %s (written by warplab's plots/plot.c).\n",
          c->name, dumb ? ".term.gp" : ".gp", c->name, r->results_dir);
  fprintf(f, "# Data: %s.dat. Redraw with `gnuplot %s%s` in this folder.\n", c->name, c->name,
          dumb ? ".term.gp" : ".gp");
  if (dumb) {
    fprintf(f, "set terminal dumb size %d,%d noenhanced\nset output\n", width, height);
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

  /* the heading, from the top of the graph up: notes, subtitle, title */
  double line = dumb ? 1.0 : 1.35, y = dumb ? 1.5 : 1.0;
  for (uint32_t k = nnotes; k-- > 0;) {
    fputs("set label ", f);
    gp_str_max(f, notes[k], dumb ? (size_t)width - 4 : 0);
    fprintf(f, " at graph 0.5, graph 1 offset 0,%.2f center", y);
    fputs(dumb ? "\n" : " font \",11\" tc rgb \"" NOTE_COLOUR "\"\n", f);
    y += line;
  }
  fputs("set label ", f);
  gp_str_max(f, subtitle, dumb ? (size_t)width - 4 : 0);
  fprintf(f, " at graph 0.5, graph 1 offset 0,%.2f center%s\n", y,
          dumb ? "" : " font \",11\" tc rgb \"#555555\"");
  y += dumb ? line : line * 1.25;
  fputs("set label ", f);
  gp_str_max(f, c->title, dumb ? (size_t)width - 4 : 0);
  fprintf(f, " at graph 0.5, graph 1 offset 0,%.2f center%s\n", y, dumb ? "" : " font \"Sans Bold,16\"");
  fprintf(f, "set tmargin %.1f\n", y + (dumb ? 0.5 : 1.6));
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
    fprintf(f, "set terminal svg size %d,%d dynamic font \"Sans,12\" noenhanced background rgb "
               "\"white\"\nset output \"%s.svg\"\nreplot\nunset output\n", width, height, c->name);
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

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Append what fd has to buf (cut at len, the rest read and dropped). Returns 0 at end of
   file, 1 when there may be more. */
static int drain(int fd, char *buf, size_t len, size_t *used)
{
  char tmp[4096];
  ssize_t n = read(fd, tmp, sizeof tmp);
  if (n < 0)
    return errno == EINTR || errno == EAGAIN ? 1 : 0;
  if (n == 0)
    return 0;
  size_t take = (size_t)n;
  if (len && *used + take > len - 1)
    take = len - 1 - *used;
  if (take) {
    memcpy(buf + *used, tmp, take);
    *used += take;
    buf[*used] = 0;
  }
  return 1;
}

/* Run gnuplot on script (a file in dir), in dir. Its standard output goes to out (when not
   NULL). Returns 0, -1 with err (gnuplot's own message when it failed), or -2 with err when
   it ran out of time and was stopped. */
static int gp_run(const char *gnuplot, const char *dir, const char *script, char *out,
                  size_t outlen, char *err, size_t errlen)
{
  int po[2], pe[2];
  if (pipe(po) != 0) {
    snprintf(err, errlen, "cannot run gnuplot: %s", strerror(errno));
    return -1;
  }
  if (pipe(pe) != 0) {
    snprintf(err, errlen, "cannot run gnuplot: %s", strerror(errno));
    close(po[0]);
    close(po[1]);
    return -1;
  }
  pid_t pid = fork();
  if (pid < 0) {
    snprintf(err, errlen, "cannot run gnuplot: %s", strerror(errno));
    close(po[0]), close(po[1]), close(pe[0]), close(pe[1]);
    return -1;
  }
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);          /* gnuplot dies with warplab */
    int null = open("/dev/null", O_RDONLY);
    if (null >= 0)
      dup2(null, 0);
    dup2(po[1], 1);
    dup2(pe[1], 2);
    close(po[0]), close(po[1]), close(pe[0]), close(pe[1]);
    if (null > 2)
      close(null);
    if (chdir(dir) != 0) {
      fprintf(stderr, "cannot enter %s: %s\n", dir, strerror(errno));
      _exit(126);
    }
    execl(gnuplot, "gnuplot", script, (char *)NULL);
    fprintf(stderr, "cannot run %s: %s\n", gnuplot, strerror(errno));
    _exit(127);
  }
  close(po[1]);
  close(pe[1]);
  char diag[2048] = "";
  size_t nout = 0, ndiag = 0;
  if (out && outlen)
    out[0] = 0;
  struct pollfd fds[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
  double deadline = now_s() + PLOT_TIMEOUT_S;
  int timed_out = 0, status = 0;
  while (fds[0].fd >= 0 || fds[1].fd >= 0) {
    double left = deadline - now_s();
    if (left <= 0) {
      timed_out = 1;
      break;
    }
    int n = poll(fds, 2, (int)(left * 1000) + 1);
    if (n < 0 && errno != EINTR)
      break;
    for (int k = 0; n > 0 && k < 2; k++) {
      if (fds[k].fd < 0 || !fds[k].revents)
        continue;
      int more = k == 0 ? drain(fds[k].fd, out, out ? outlen : 0, &nout)
                        : drain(fds[k].fd, diag, sizeof diag, &ndiag);
      if (!more) {
        close(fds[k].fd);
        fds[k].fd = -1;
      }
    }
  }
  for (int k = 0; k < 2; k++)
    if (fds[k].fd >= 0)
      close(fds[k].fd);
  /* the pipes are closed; wait for the exit, within the same deadline */
  while (!timed_out) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid || (w < 0 && errno != EINTR))
      break;
    if (now_s() >= deadline) {
      timed_out = 1;
      break;
    }
    struct timespec ts = {0, 5000000};
    nanosleep(&ts, NULL);
  }
  if (timed_out) {
    kill(pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
      ;
    snprintf(err, errlen, "gnuplot did not finish %s/%s in %d s: stopped", dir, script,
             PLOT_TIMEOUT_S);
    return -2;
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    while (ndiag && (diag[ndiag - 1] == '\n' || diag[ndiag - 1] == ' '))
      diag[--ndiag] = 0;
    snprintf(err, errlen, "gnuplot failed on %s/%s: %s", dir, script,
             ndiag ? diag : "no message");
    return -1;
  }
  return 0;
}

/* ---- the entry points ---- */

static void append_line(char *buf, size_t len, const char *line)
{
  size_t k = strlen(buf);
  if (len > k)
    snprintf(buf + k, len - k, "%s%s", k ? "\n" : "", line);
}

int plot_lab_charts(const struct run_lab *lab, const struct run_result *r, char *paths_out,
                    size_t paths_len, char *err, size_t errlen)
{
  if (paths_len)
    paths_out[0] = 0;
  json_t *charts = lab->json ? json_object_get(lab->json, "charts") : NULL;
  if (!charts || r->npoints == 0)
    return PLOT_OK;
  if (!json_is_array(charts)) {
    snprintf(err, errlen, "%s/lab.json: \"charts\" must be an array", lab->dir);
    return PLOT_BAD_CHART;
  }
  size_t n = json_array_size(charts);
  struct chart *c = malloc(sizeof *c);
  if (!c) {
    snprintf(err, errlen, "out of host memory");
    return PLOT_FAILED;
  }
  /* every definition first, so a broken one is reported before anything is drawn */
  for (size_t i = 0; i < n; i++)
    if (chart_parse(lab, json_array_get(charts, i), i, c, err, errlen)) {
      free(c);
      return PLOT_BAD_CHART;
    }
  char gnuplot[1024];
  int have = plot_find_gnuplot(gnuplot, sizeof gnuplot) == 0;
  int rc = PLOT_OK;
  for (size_t i = 0; i < n; i++) {
    char e[1024];
    chart_parse(lab, json_array_get(charts, i), i, c, e, sizeof e);
    chart_gather(c, r);
    char script[128];
    snprintf(script, sizeof script, "%s.gp", c->name);
    int st = write_dat(c, r, e, sizeof e) || write_script(c, r, TARGET_FILES, 0, 0, e, sizeof e)
             ? -1 : have ? gp_run(gnuplot, r->results_dir, script, NULL, 0, e, sizeof e) : 0;
    if (st) {
      if (rc == PLOT_OK) {
        snprintf(err, errlen, "%s", e);
        rc = PLOT_FAILED;
      }
      have = have && st != -2;   /* a gnuplot that hangs once is not tried on every chart */
      continue;
    }
    if (have) {
      char png[1200];
      path_join(png, sizeof png, r->results_dir, c->name, ".png");
      append_line(paths_out, paths_len, png);
    }
  }
  free(c);
  if (!have && rc == PLOT_OK) {
    snprintf(err, errlen, "gnuplot is not installed (not on PATH): the charts' data and scripts "
             "are in %s, the pictures are not drawn", r->results_dir);
    rc = PLOT_NO_GNUPLOT;
  }
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
    char script[128];
    snprintf(script, sizeof script, "%s.term.gp", c->name);
    if (write_dat(c, r, err, errlen) || write_script(c, r, TARGET_DUMB, width, height, err, errlen))
      rc = PLOT_FAILED;
    else if (plot_find_gnuplot(gnuplot, sizeof gnuplot)) {
      snprintf(err, errlen, "gnuplot is not installed (not on PATH)");
      rc = PLOT_NO_GNUPLOT;
    } else if (gp_run(gnuplot, r->results_dir, script, out, outlen, err, errlen)) {
      rc = PLOT_FAILED;
    }
  }
  free(c);
  return rc;
}

uint32_t plot_chart_count(const struct run_lab *lab)
{
  json_t *charts = lab->json ? json_object_get(lab->json, "charts") : NULL;
  return json_is_array(charts) ? (uint32_t)json_array_size(charts) : 0;
}

int plot_chart_data(const struct run_lab *lab, const struct run_result *r, uint32_t index,
                    struct plot_data *d, char *err, size_t errlen)
{
  memset(d, 0, sizeof *d);
  if (index >= plot_chart_count(lab)) {
    snprintf(err, errlen, "%s/lab.json has no chart number %u", lab->dir, index + 1);
    return PLOT_BAD_CHART;
  }
  struct chart *c = malloc(sizeof *c);
  if (!c) {
    snprintf(err, errlen, "out of host memory");
    return PLOT_FAILED;
  }
  if (chart_parse(lab, json_array_get(json_object_get(lab->json, "charts"), index), index, c, err,
                  errlen)) {
    free(c);
    return PLOT_BAD_CHART;
  }
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
  return gp_run(gnuplot, dir, script, NULL, 0, err, errlen) ? PLOT_FAILED : PLOT_OK;
}

void plot_gp_string(FILE *f, const char *s)
{
  gp_str(f, s);
}
