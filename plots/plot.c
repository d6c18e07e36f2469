/* plot.c: a lab run's charts, drawn with gnuplot (see plot.h).
 *
 * Each chart of lab.json is a clustered bar chart: one cluster per configuration of a sweep
 * (the kernel file's own choice first, marked "yours"), one bar per metric, its value printed
 * on it, the metric's kind (exact, ptx-level, measured, modelled) in the key. The data and
 * the gnuplot script stay beside the pictures, so a chart can be redrawn or restyled by hand.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "plots/plot.h"
#include "run/run_build.h"

static const char *const colours[PLOT_MAX_SERIES] = {
  "#3b6fb6", "#e07b39", "#4f9d69", "#b8474e", "#8a6bb8", "#8c8c8c",
};

const char *plot_status_name(enum plot_status s)
{
  switch (s) {
  case PLOT_OK: return "ok";
  case PLOT_NO_GNUPLOT: return "no gnuplot";
  case PLOT_BAD_CHART: return "bad chart";
  case PLOT_FAILED: return "failed";
  }
  return "?";
}

int plot_find_gnuplot(char *out, size_t outlen)
{
  return run_find_tool("gnuplot", out, outlen);
}

struct chart {
  const char *name, *title, *sweep, *ylabel;
  const char *metric[PLOT_MAX_SERIES];
  uint32_t nmetrics;
  double scale;
  int log;
};

static int read_chart(json_t *c, struct chart *ch, char *err, size_t errlen)
{
  memset(ch, 0, sizeof *ch);
  ch->name = json_string_value(json_object_get(c, "name"));
  ch->title = json_string_value(json_object_get(c, "title"));
  ch->sweep = json_string_value(json_object_get(c, "sweep"));
  ch->ylabel = json_string_value(json_object_get(c, "ylabel"));
  json_t *y = json_object_get(c, "y"), *sc = json_object_get(c, "scale");
  ch->scale = json_is_number(sc) ? json_number_value(sc) : 1.0;
  ch->log = json_is_true(json_object_get(c, "log"));
  if (!ch->name || !ch->title || !ch->sweep || !json_is_array(y) || !json_array_size(y) ||
      json_array_size(y) > PLOT_MAX_SERIES) {
    snprintf(err, errlen, "lab.json: a chart needs name, title, sweep and y (1 to %d metric "
             "names)%s%s", PLOT_MAX_SERIES, ch->name ? ": " : "", ch->name ? ch->name : "");
    return -1;
  }
  for (const char *p = ch->name; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '_')) {
      snprintf(err, errlen, "lab.json: chart name '%s' must be lower-case letters, digits, - and _",
               ch->name);
      return -1;
    }
  for (size_t i = 0; i < json_array_size(y); i++) {
    ch->metric[i] = json_string_value(json_array_get(y, i));
    if (!ch->metric[i]) {
      snprintf(err, errlen, "lab.json: chart %s: y must list metric names", ch->name);
      return -1;
    }
  }
  ch->nmetrics = (uint32_t)json_array_size(y);
  if (!ch->ylabel)
    ch->ylabel = "";
  return 0;
}

static const struct run_metric *find_metric(const struct run_point *p, const char *name)
{
  for (uint32_t i = 0; i < p->nmetrics; i++)
    if (!strcmp(p->metric[i].name, name))
      return &p->metric[i];
  return NULL;
}

/* gnuplot text: no quotes or newlines that would end a string. */
static void clean(const char *in, char *out, size_t n)
{
  size_t k = 0;
  for (; *in && k + 1 < n; in++)
    out[k++] = *in == '"' ? '\'' : *in == '\n' ? ' ' : *in == '\\' ? '/' : *in;
  out[k] = 0;
}

/* The configurations of the chart: the main one first, then the sweep's. */
static uint32_t chart_points(const struct run_result *r, const char *sweep, const struct run_point **pts)
{
  uint32_t n = 0;
  if (r->npoints)
    pts[n++] = &r->points[0];
  for (uint32_t i = 1; i < r->npoints && n < RUN_MAX_POINTS + 1; i++)
    if (!strcmp(r->points[i].sweep, sweep))
      pts[n++] = &r->points[i];
  return n;
}

/* Write NAME.dat; returns which series have at least one value (bit mask). */
static unsigned write_data(const char *path, const struct chart *ch, const struct run_point **pts,
                           uint32_t n)
{
  FILE *f = fopen(path, "w");
  if (!f)
    return 0;
  unsigned have = 0;
  fprintf(f, "# configuration");
  for (uint32_t s = 0; s < ch->nmetrics; s++)
    fprintf(f, "\t%s", ch->metric[s]);
  fputc('\n', f);
  for (uint32_t i = 0; i < n; i++) {
    fprintf(f, "%s%s", pts[i]->label, i == 0 ? " (yours)" : "");
    for (uint32_t s = 0; s < ch->nmetrics; s++) {
      const struct run_metric *m = find_metric(pts[i], ch->metric[s]);
      if (m && m->defined) {
        fprintf(f, "\t%.6g", m->value * ch->scale);
        have |= 1u << s;
      } else {
        fprintf(f, "\t?");
      }
    }
    fputc('\n', f);
  }
  fclose(f);
  return have;
}

static const char *metric_kind(const struct run_point **pts, uint32_t n, const char *name)
{
  for (uint32_t i = 0; i < n; i++) {
    const struct run_metric *m = find_metric(pts[i], name);
    if (m && m->defined)
      return m->kind;
  }
  return "not available";
}

/* The gnuplot commands that draw the chart from NAME.dat (no terminal, no output). */
static void write_plot(FILE *f, const struct chart *ch, const struct run_result *r,
                       const struct run_point **pts, uint32_t n, unsigned have, int terminal)
{
  char title[256], sub[320], ylabel[256];
  clean(ch->title, title, sizeof title);
  clean(ch->ylabel, ylabel, sizeof ylabel);
  const struct run_provenance *p = &r->prov;
  char dev[200];
  clean(p->device, dev, sizeof dev);
  if (p->backend[0] == 'g')
    snprintf(sub, sizeof sub, "measured on %.180s, problem %.100s", dev, p->sizes);
  else
    snprintf(sub, sizeof sub, "on the emulator, profile %.60s, problem %.100s", p->profile, p->sizes);
  uint32_t shown = 0;
  for (uint32_t s = 0; s < ch->nmetrics; s++)
    shown += have >> s & 1;
  if (terminal)
    fprintf(f, "set title \"%s\"\n", title);
  else
    fprintf(f, "set title \"%s\\n%s\" font \",13\"\n", title, sub);
  fprintf(f, "set datafile separator \"\\t\"\nset datafile missing \"?\"\n"
             "set style data histograms\nset style histogram clustered gap 1\n"
             "set style fill solid 0.85 border rgb \"#333333\"\nset boxwidth 0.9\n"
             "set grid ytics lc rgb \"#dddddd\"\nset border 3\nset xtics nomirror%s\n"
             "set ytics nomirror\nset ylabel \"%s\"\nset key top left Left reverse samplen 2\n",
          terminal ? "" : " rotate by -30 offset -1,0", ylabel);
  if (ch->log)
    fprintf(f, "set logscale y\n");
  else
    fprintf(f, "set yrange [0:*]\nset offsets 0, 0, graph 0.12, 0\n");
  if (!shown) {
    fprintf(f, "set label 1 \"%s: not available on %s\" at graph 0.5, 0.5 center font \",13\"\n"
               "unset key\nset xrange [0:1]\nset yrange [0:1]\nunset xtics\nunset ytics\n"
               "plot NaN notitle\n",
            ch->nmetrics == 1 ? ch->metric[0] : "these metrics",
            p->backend[0] == 'e' ? "the emulator yet (issue 4: the timing model)" : "this run");
    return;
  }
  for (uint32_t s = 0; s < ch->nmetrics; s++)
    if (!(have >> s & 1)) {
      char m[160];
      clean(ch->metric[s], m, sizeof m);
      fprintf(f, "set label %u \"no data for %s on %s\" at graph 0.99, %.2f right font \",9\" "
                 "textcolor rgb \"#777777\"\n", 10 + s, m,
              p->backend[0] == 'e' ? "the emulator yet (the timing model, issue 4)" : "this run",
              0.97 - 0.05 * s);
    }
  fprintf(f, "plot ");
  uint32_t k = 0;
  for (uint32_t s = 0; s < ch->nmetrics; s++) {
    if (!(have >> s & 1))
      continue;
    char m[160];
    clean(ch->metric[s], m, sizeof m);
    fprintf(f, "%s'%s.dat' using %u:xtic(1) title \"%s (%s)\" lc rgb \"%s\"", k ? ", \\\n     " : "",
            ch->name, s + 2, m, metric_kind(pts, n, ch->metric[s]), colours[s % PLOT_MAX_SERIES]);
    k++;
  }
  /* the values on the bars: cluster i, bar j of k sits at i + (j - (k-1)/2) / (k + gap) */
  if (!terminal) {
    uint32_t j = 0;
    for (uint32_t s = 0; s < ch->nmetrics; s++) {
      if (!(have >> s & 1))
        continue;
      double dx = ((double)j - (double)(shown - 1) / 2.0) / ((double)shown + 1.0);
      fprintf(f, ", \\\n     '%s.dat' using ($0 + %.4f):%u:(sprintf(\"%%.3g\", $%u)) with labels "
                 "offset 0,0.6 font \",9\" notitle", ch->name, dx, s + 2, s + 2);
      j++;
    }
  }
  fputc('\n', f);
  (void)n;
}

/* Run gnuplot on script in dir, with a time limit. 0 on success. */
static int run_gnuplot(const char *gnuplot, const char *dir, const char *script, char *err, size_t errlen)
{
  pid_t pid = fork();
  if (pid < 0) {
    snprintf(err, errlen, "cannot run gnuplot: %s", strerror(errno));
    return -1;
  }
  if (pid == 0) {
    if (chdir(dir) != 0)
      _exit(126);
    FILE *null = freopen("/dev/null", "w", stdout);
    (void)null;
    execl(gnuplot, "gnuplot", script, (char *)NULL);
    _exit(127);
  }
  int status = 0;
  for (int waited = 0;; waited += 50) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid)
      break;
    if (w < 0 || waited >= PLOT_TIMEOUT_S * 1000) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      snprintf(err, errlen, "gnuplot did not finish %s within %d s", script, PLOT_TIMEOUT_S);
      return -1;
    }
    struct timespec ts = {0, 50 * 1000 * 1000};
    nanosleep(&ts, NULL);
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    snprintf(err, errlen, "gnuplot failed on %s/%s (status %d)", dir, script, status);
    return -1;
  }
  return 0;
}

/* Draw one chart: NAME.dat, NAME.gp, NAME.png, NAME.svg. */
static int draw(const char *gnuplot, const struct chart *ch, const struct run_result *r, char *err,
                size_t errlen)
{
  const struct run_point *pts[RUN_MAX_POINTS + 1];
  uint32_t n = chart_points(r, ch->sweep, pts);
  char path[1200];
  snprintf(path, sizeof path, "%s/%s.dat", r->results_dir, ch->name);
  unsigned have = write_data(path, ch, pts, n);
  snprintf(path, sizeof path, "%s/%s.gp", r->results_dir, ch->name);
  FILE *f = fopen(path, "w");
  if (!f) {
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    return -1;
  }
  int width = n > 8 ? 1100 : 900;
  fprintf(f, "# %s: drawn by warplab from %s.dat; rerun with: gnuplot %s.gp\n", ch->name,
          ch->name, ch->name);
  fprintf(f, "set terminal pngcairo size %d,560 font \"Sans,11\" noenhanced\n"
             "set output '%s.png'\n", width, ch->name);
  write_plot(f, ch, r, pts, n, have, 0);
  fprintf(f, "set terminal svg size %d,560 dynamic font \"Sans,11\" noenhanced\n"
             "set output '%s.svg'\nreplot\nunset output\n", width, ch->name);
  fclose(f);
  snprintf(path, sizeof path, "%s.gp", ch->name);
  return run_gnuplot(gnuplot, r->results_dir, path, err, errlen);
}

int plot_lab_charts(const struct run_lab *lab, const struct run_result *r, char *paths_out,
                    size_t paths_len, char *err, size_t errlen)
{
  if (paths_len)
    paths_out[0] = 0;
  json_t *charts = lab->json ? json_object_get(lab->json, "charts") : NULL;
  if (!json_is_array(charts) || !json_array_size(charts) || !r->npoints)
    return PLOT_OK;
  char gnuplot[1024];
  if (plot_find_gnuplot(gnuplot, sizeof gnuplot)) {
    snprintf(err, errlen, "gnuplot is not installed: no charts (docker/install-deps.sh installs it)");
    return PLOT_NO_GNUPLOT;
  }
  int st = PLOT_OK;
  size_t k = 0;
  for (size_t i = 0; i < json_array_size(charts); i++) {
    struct chart ch;
    if (read_chart(json_array_get(charts, i), &ch, err, errlen))
      return PLOT_BAD_CHART;
    if (draw(gnuplot, &ch, r, err, errlen)) {
      st = PLOT_FAILED;
      continue;
    }
    int w = snprintf(paths_out + k, paths_len > k ? paths_len - k : 0, "%s%s/%s.png",
                     k ? "\n" : "", r->results_dir, ch.name);
    if (w > 0 && (size_t)w < paths_len - k)
      k += (size_t)w;
  }
  return st;
}

int plot_terminal_chart(const struct run_lab *lab, const struct run_result *r, const char *name,
                        int width, int height, char *out, size_t outlen, char *err, size_t errlen)
{
  if (outlen)
    out[0] = 0;
  json_t *charts = lab->json ? json_object_get(lab->json, "charts") : NULL;
  struct chart ch;
  int found = 0;
  for (size_t i = 0; json_is_array(charts) && i < json_array_size(charts) && !found; i++) {
    if (read_chart(json_array_get(charts, i), &ch, err, errlen))
      return PLOT_BAD_CHART;
    found = !strcmp(ch.name, name);
  }
  if (!found) {
    snprintf(err, errlen, "the lab has no chart named %s", name);
    return PLOT_BAD_CHART;
  }
  char gnuplot[1024];
  if (plot_find_gnuplot(gnuplot, sizeof gnuplot)) {
    snprintf(err, errlen, "gnuplot is not installed");
    return PLOT_NO_GNUPLOT;
  }
  const struct run_point *pts[RUN_MAX_POINTS + 1];
  uint32_t n = chart_points(r, ch.sweep, pts);
  char path[1200];
  snprintf(path, sizeof path, "%s/%s.dat", r->results_dir, ch.name);
  unsigned have = write_data(path, &ch, pts, n);
  snprintf(path, sizeof path, "%s/%s.term.gp", r->results_dir, ch.name);
  FILE *f = fopen(path, "w");
  if (!f) {
    snprintf(err, errlen, "cannot write %s", path);
    return PLOT_FAILED;
  }
  fprintf(f, "set terminal dumb size %d,%d\nset output '%s.term.txt'\n", width, height, ch.name);
  write_plot(f, &ch, r, pts, n, have, 1);
  fclose(f);
  snprintf(path, sizeof path, "%s.term.gp", ch.name);
  if (run_gnuplot(gnuplot, r->results_dir, path, err, errlen))
    return PLOT_FAILED;
  snprintf(path, sizeof path, "%s/%s.term.txt", r->results_dir, ch.name);
  f = fopen(path, "r");
  if (!f) {
    snprintf(err, errlen, "gnuplot wrote no %s", path);
    return PLOT_FAILED;
  }
  size_t got = fread(out, 1, outlen ? outlen - 1 : 0, f);
  if (outlen)
    out[got] = 0;
  fclose(f);
  return PLOT_OK;
}
