/* plot_hist.c: distributions as bar charts with gnuplot (see plot_hist.h).
 *
 * Counting comes first and is separate from drawing (plot_hist_count), so what a chart shows
 * can be tested without gnuplot. Bins are chosen so a reader can name them: widths of 1, 2,
 * 2.5 or 5 times a power of ten, edges on multiples of the width, and, when a zone boundary
 * (a target) falls among the values, on that boundary, so a bin does not straddle it. With
 * few distinct values (sectors per request: 4, 8, 12) each gets its own bar on a
 * categorical axis, where a bin of width 1 would hide which value it is.
 *
 * The stacked bars are drawn as boxes of the running totals, tallest first, each zone's box
 * over the last: zone 0 ends at the bottom. Marks are arrows without heads across the graph.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plots/plot.h"
#include "plots/plot_hist.h"

static const char *const zone_colour[] = {"#4E9A57", "#E0A030", "#C0504D", "#7E62A8"};
#define OTHER_COLOUR "#3A6EA5"
#define NOTE_COLOUR "#B03A2E"
#define MARK_COLOUR "#333333"

void plot_hist_init(struct plot_hist *h)
{
  memset(h, 0, sizeof *h);
  h->lo = NAN;
  h->hi = NAN;
  snprintf(h->ylabel, sizeof h->ylabel, "count");
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* A width of 1, 2, 2.5 or 5 times a power of ten, at least raw. */
static double nice_width(double raw)
{
  if (!(raw > 0) || !isfinite(raw))
    return 1;
  double p = pow(10, floor(log10(raw)));
  static const double steps[] = {1, 2, 2.5, 5, 10};
  for (size_t i = 0; i < sizeof steps / sizeof *steps; i++)
    if (steps[i] * p >= raw * (1 - 1e-12))
      return steps[i] * p;
  return 10 * p;
}

/* A value as a short label: never in exponent notation below a million. */
static void num_label(char *out, size_t n, double v)
{
  double a = fabs(v);
  if (a >= 1e6)
    snprintf(out, n, "%.3gM", v / 1e6);
  else if (a >= 1e4)
    snprintf(out, n, "%.4gk", v / 1e3);
  else if (v == floor(v))
    snprintf(out, n, "%.0f", v);
  else
    snprintf(out, n, "%.4g", v);
}

static uint32_t zone_of(const struct plot_hist *h, double v)
{
  for (uint32_t z = 0; z < h->nzones; z++)
    if (v >= h->zones[z].lo && v <= h->zones[z].hi)
      return z;
  return h->nzones;
}

static int check_name(const char *name)
{
  if (!*name)
    return -1;
  for (const char *p = name; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
          *p == '-' || *p == '_' || *p == '.'))
      return -1;
  return 0;
}

/* The first edge for bins of width w over [min, ...]: a multiple of w, or shifted onto a zone
   boundary that falls among the values. */
static double first_edge(const struct plot_hist *h, double min, double max, double w)
{
  double start = floor(min / w + 1e-9) * w;
  for (uint32_t z = 0; z < h->nzones; z++) {
    double ends[2] = {h->zones[z].lo, h->zones[z].hi};
    for (int k = 0; k < 2; k++) {
      double edge = ends[k];
      if (isfinite(edge) && edge > min && edge < max)
        return edge - ceil((edge - min) / w - 1e-9) * w;
    }
  }
  return start;
}

/* The widest nice width up to w (down to a tenth of it) that puts every zone boundary among
   the values on a bin edge, so no bin straddles one; w when none does. */
static double fit_boundaries(const struct plot_hist *h, double min, double max, double w)
{
  double edge[2 * PLOT_HIST_MAX_ZONES];
  uint32_t n = 0;
  for (uint32_t z = 0; z < h->nzones && z < PLOT_HIST_MAX_ZONES; z++) {
    double ends[2] = {h->zones[z].lo, h->zones[z].hi};
    for (int k = 0; k < 2; k++)
      if (isfinite(ends[k]) && ends[k] > min && ends[k] < max)
        edge[n++] = ends[k];
  }
  if (n < 2)
    return w;
  static const double steps[] = {5, 2.5, 2, 1};
  double p = pow(10, floor(log10(w)));
  for (int decade = 0; decade < 2; decade++, p /= 10)
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
      double c = steps[i] * p;
      if (c > w * (1 + 1e-12) || c < w / 10 * (1 - 1e-12) || (max - min) / c > PLOT_HIST_MAX_BINS - 1)
        continue;
      int fits = 1;
      for (uint32_t k = 1; k < n && fits; k++) {
        double q = (edge[k] - edge[0]) / c;
        fits = fabs(q - round(q)) < 1e-6;
      }
      if (fits)
        return c;
    }
  return w;
}

int plot_hist_count(const struct plot_hist *h, struct plot_hist_bars *b, char *err, size_t errlen)
{
  memset(b, 0, sizeof *b);
  if (check_name(h->name)) {
    snprintf(err, errlen, "histogram name '%s': expected letters, digits, '-', '_' and '.' (it "
             "names the chart's files)", h->name);
    return -1;
  }
  if (h->nzones > PLOT_HIST_MAX_ZONES || h->nmarks > PLOT_HIST_MAX_MARKS ||
      h->nnotes > PLOT_HIST_MAX_NOTES) {
    snprintf(err, errlen, "histogram '%s': too many zones, marks or notes", h->name);
    return -1;
  }
  if (h->mode == PLOT_HIST_BINS && (h->width < 0 || !isfinite(h->width))) {
    snprintf(err, errlen, "histogram '%s': bin width %g: expected a positive number, or 0 to "
             "choose one", h->name, h->width);
    return -1;
  }
  if (!isnan(h->lo) && !isnan(h->hi) && !(h->hi > h->lo)) {
    snprintf(err, errlen, "histogram '%s': range %g to %g is empty", h->name, h->lo, h->hi);
    return -1;
  }
  double *v = h->nvalues ? malloc(h->nvalues * sizeof *v) : NULL;
  if (h->nvalues && !v) {
    snprintf(err, errlen, "out of host memory");
    return -1;
  }
  uint32_t n = 0;
  for (uint32_t i = 0; i < h->nvalues; i++) {
    if (isfinite(h->values[i]))
      v[n++] = h->values[i];
    else
      b->nskipped++;
  }
  b->nvalues = n;
  if (!n) {
    free(v);
    return 0;
  }
  qsort(v, n, sizeof *v, cmp_double);
  uint32_t distinct = 1;
  for (uint32_t i = 1; i < n; i++)
    distinct += v[i] != v[i - 1];
  b->distinct = h->mode == PLOT_HIST_DISTINCT ? distinct <= PLOT_HIST_MAX_BINS
              : h->mode == PLOT_HIST_AUTO && distinct <= PLOT_HIST_MAX_DISTINCT;
  if (b->distinct) {
    for (uint32_t i = 0; i < n; i++) {
      if (!i || v[i] != v[i - 1]) {
        struct plot_hist_bar *bar = &b->bar[b->nbars++];
        bar->lo = bar->hi = v[i];
        bar->x = b->nbars - 1;
        num_label(bar->label, sizeof bar->label, v[i]);
      }
      struct plot_hist_bar *bar = &b->bar[b->nbars - 1];
      bar->count++;
      bar->zone_count[zone_of(h, v[i])]++;
    }
  } else {
    double min = isnan(h->lo) ? v[0] : h->lo, max = isnan(h->hi) ? v[n - 1] : h->hi;
    int chosen = !(h->width > 0);
    double w = h->width;
    if (chosen) {
      double range = max - min;
      if (!(range > 0))
        range = fabs(min) > 0 ? fabs(min) * 0.5 : 1;
      double k = round(sqrt((double)n)) + 2;
      k = k < 5 ? 5 : k > 16 ? 16 : k;
      w = nice_width(range / k);
      w = fit_boundaries(h, min, max, w);
    }
    double start = isnan(h->lo) ? first_edge(h, min, max, w) : h->lo;
    uint32_t nb = 0;
    for (;;) {
      double span = ceil((max - start) / w - 1e-9);
      nb = span < 1 ? 1 : span > 1e6 ? 1000000 : (uint32_t)span;
      if (nb <= PLOT_HIST_MAX_BINS)
        break;
      if (!chosen) {
        free(v);
        snprintf(err, errlen, "histogram '%s': bins of %g from %g to %g make more than %d bars",
                 h->name, w, start, max, PLOT_HIST_MAX_BINS);
        return -1;
      }
      w = nice_width(w * 1.5);
      start = isnan(h->lo) ? first_edge(h, min, max, w) : h->lo;
    }
    b->width = w;
    b->nbars = nb;
    for (uint32_t i = 0; i < nb; i++) {
      struct plot_hist_bar *bar = &b->bar[i];
      bar->lo = start + i * w;
      bar->hi = start + (i + 1) * w;
      bar->x = (bar->lo + bar->hi) / 2;
      char lo[24], hi[24];
      num_label(lo, sizeof lo, bar->lo);
      num_label(hi, sizeof hi, bar->hi);
      snprintf(bar->label, sizeof bar->label, "%s-%s", lo, hi);
    }
    for (uint32_t i = 0; i < n; i++) {
      double f = floor((v[i] - start) / w + 1e-9);
      uint32_t k = f < 0 ? 0 : f >= nb ? nb - 1 : (uint32_t)f;
      b->bar[k].count++;
      b->bar[k].zone_count[zone_of(h, v[i])]++;
    }
  }
  for (uint32_t i = 0; i < b->nbars; i++)
    b->max_count = b->bar[i].count > b->max_count ? b->bar[i].count : b->max_count;
  free(v);
  return 0;
}

double plot_hist_axis_x(const struct plot_hist_bars *b, double x)
{
  if (!b->distinct || !b->nbars)
    return x;
  const struct plot_hist_bar *bar = b->bar;
  if (x <= bar[0].lo)
    return x == bar[0].lo ? 0 : -0.45;
  for (uint32_t i = 0; i + 1 < b->nbars; i++)
    if (x <= bar[i + 1].lo)
      return i + (x - bar[i].lo) / (bar[i + 1].lo - bar[i].lo);
  return x == bar[b->nbars - 1].lo ? b->nbars - 1 : b->nbars - 1 + 0.45;
}

/* The bars: x, count, the counts by zone, lo, hi, label; tab-separated. */
static int write_dat(const struct plot_hist *h, const struct plot_hist_bars *b, const char *dir,
                     char *err, size_t errlen)
{
  char path[1200];
  snprintf(path, sizeof path, "%s/%s.dat", dir, h->name);
  FILE *f = fopen(path, "w");
  if (!f) {
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    return -1;
  }
  fprintf(f, "# warplab distribution '%s': %s\n", h->name, h->title);
  fprintf(f, "# %u values counted, %u left out (no finite value); %s\n", b->nvalues, b->nskipped,
          b->distinct ? "a bar per distinct value (x is its index)"
                      : "bins [lo, hi) of equal width, the last one [lo, hi] (x is the centre)");
  fputs("# x\tcount", f);
  for (uint32_t z = 0; z < h->nzones; z++)
    fprintf(f, "\tzone %u: %s", z, h->zones[z].label);
  fputs("\tin no zone\tlo\thi\tlabel\n", f);
  for (uint32_t i = 0; i < b->nbars; i++) {
    const struct plot_hist_bar *bar = &b->bar[i];
    fprintf(f, "%.10g\t%u", bar->x, bar->count);
    for (uint32_t z = 0; z <= h->nzones; z++)
      fprintf(f, "\t%u", bar->zone_count[z]);
    fprintf(f, "\t%.10g\t%.10g\t%s\n", bar->lo, bar->hi, bar->label);
  }
  if (fclose(f) != 0) {
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    return -1;
  }
  return 0;
}

static int write_script(const struct plot_hist *h, const struct plot_hist_bars *b,
                        const char *dir, char *err, size_t errlen)
{
  char path[1200];
  snprintf(path, sizeof path, "%s/%s.gp", dir, h->name);
  FILE *f = fopen(path, "w");
  if (!f) {
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    return -1;
  }
  uint32_t nz = h->nzones;
  int width = 960, height = 600;
  if (b->distinct && b->nbars > 8)
    width = 960 + (int)(b->nbars - 8) * 60;
  int title_px = (int)(strlen(h->title[0] ? h->title : h->name) * 13) + 60;   /* Sans Bold 16 */
  width = title_px > width ? (title_px > 2400 ? 2400 : title_px) : width;
  fprintf(f, "# %s.gp: a distribution drawn by warplab's plots/plot_hist.c.\n", h->name);
  fprintf(f, "# Data: %s.dat (one line per bar). Redraw with `gnuplot %s.gp` in this folder.\n",
          h->name, h->name);
  fprintf(f, "if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
             "  set terminal pngcairo size %d,%d font \"Sans,12\" noenhanced background rgb \"white\"\n"
             "} else {\n"
             "  set terminal png size %d,%d font \"Sans,12\" noenhanced background rgb \"white\"\n"
             "}\n", width, height, width, height);
  fprintf(f, "set output \"%s.png\"\n", h->name);
  fputs("set datafile separator \"\\t\"\n", f);
  fputs("set border 3 lw 1 lc rgb \"#555555\"\nset tics nomirror out scale 0.6\n"
        "set grid ytics lt 1 lw 1 lc rgb \"#E3E3E3\"\n", f);

  /* the x axis: the bins' edges, or the distinct values by index */
  double xlo, xhi;
  if (!b->nbars) {
    xlo = 0;
    xhi = 1;
    fputs("unset xtics\n", f);
  } else if (b->distinct) {
    xlo = b->nbars < 3 ? -1.2 : -0.7;
    xhi = b->nbars - 1 + (b->nbars < 3 ? 1.2 : 0.7);
    fputs("set xtics (", f);
    for (uint32_t i = 0; i < b->nbars; i++) {
      fputs(i ? ", " : "", f);
      plot_gp_string(f, b->bar[i].label);
      fprintf(f, " %u", i);
    }
    fputs(")\n", f);
  } else {
    xlo = b->bar[0].lo - b->width * 0.4;
    xhi = b->bar[b->nbars - 1].hi + b->width * 0.4;
    uint32_t every = b->nbars <= 12 ? 1 : b->nbars <= 24 ? 2 : 4;
    fprintf(f, "set xtics %.10g, %.10g, %.10g\n", b->bar[0].lo, b->width * every,
            b->bar[b->nbars - 1].hi + b->width * 0.01);
  }
  for (uint32_t m = 0; m < h->nmarks; m++) {   /* every mark on the chart */
    double x = plot_hist_axis_x(b, h->marks[m].x);
    double pad = b->distinct || !b->nbars ? 0.5 : b->width * 0.5;
    if (x - pad < xlo)
      xlo = x - pad;
    if (x + pad > xhi)
      xhi = x + pad;
  }
  fprintf(f, "set xrange [%.10g:%.10g]\n", xlo, xhi);
  double top = b->max_count ? b->max_count * (1.15 + 0.09 * h->nmarks) + 0.5 : 1;
  fprintf(f, "set yrange [0:%.6g]\n", top);
  if (b->max_count && b->max_count <= 10)
    fputs("set ytics 1\n", f);
  if (!b->max_count)
    fputs("unset ytics\n", f);
  if (h->xlabel[0]) {
    fputs("set xlabel ", f);
    plot_gp_string(f, h->xlabel);
    fputc('\n', f);
  }
  if (h->ylabel[0]) {
    fputs("set ylabel ", f);
    plot_gp_string(f, h->ylabel);
    fputs(" offset 0.5,0\n", f);
  }

  /* the heading, from the top of the graph up: notes, subtitle, title */
  double y = 1.0;
  for (uint32_t k = h->nnotes; k-- > 0;) {
    fputs("set label ", f);
    plot_gp_string(f, h->notes[k]);
    fprintf(f, " at graph 0.5, graph 1 offset 0,%.2f center font \",11\" tc rgb \"" NOTE_COLOUR
            "\"\n", y);
    y += 1.35;
  }
  if (h->subtitle[0]) {
    fputs("set label ", f);
    plot_gp_string(f, h->subtitle);
    fprintf(f, " at graph 0.5, graph 1 offset 0,%.2f center font \",11\" tc rgb \"#555555\"\n", y);
    y += 1.7;
  }
  fputs("set label ", f);
  plot_gp_string(f, h->title[0] ? h->title : h->name);
  fprintf(f, " at graph 0.5, graph 1 offset 0,%.2f center font \"Sans Bold,16\"\n", y);
  fprintf(f, "set tmargin %.1f\n", y + 1.6);
  fputs("set rmargin 4\n", f);

  /* marks: a dashed line behind the bars with its label at the top, on the side with room;
     on a distinct value's own bar, an arrow down to the bar instead, clear of its count */
  for (uint32_t m = 0; m < h->nmarks; m++) {
    double x = plot_hist_axis_x(b, h->marks[m].x), at = 0.955 - 0.075 * m;
    const struct plot_hist_bar *on = NULL;
    for (uint32_t i = 0; b->distinct && i < b->nbars; i++)
      if (b->bar[i].lo == h->marks[m].x)
        on = &b->bar[i];
    fputs("set label ", f);
    plot_gp_string(f, h->marks[m].label);
    if (on) {
      fprintf(f, " at %.10g, graph %.3f center offset 0,0.7 font \",10\" tc rgb \"" MARK_COLOUR
              "\" front\n", x, at);
      fprintf(f, "set arrow from %.10g, graph %.3f to %.10g, first %.6g head filled size "
              "screen 0.008,25 lw 1.5 lc rgb \"" MARK_COLOUR "\" front\n", x, at, x,
              on->count + top * 0.075);
      continue;
    }
    int right = (x - xlo) / (xhi - xlo) > 0.62;
    fprintf(f, " at %.10g, graph %.3f %s offset %s,0 font \",10\" tc rgb \"" MARK_COLOUR
            "\" front\n", x, at, right ? "right" : "left", right ? "-0.6" : "0.6");
    fprintf(f, "set arrow from %.10g, graph 0 to %.10g, graph 1 nohead dt 2 lw 2 lc rgb \""
            MARK_COLOUR "\" back\n", x, x);
  }
  if (!b->nbars) {
    fputs("set label \"no values to draw\" at graph 0.5, graph 0.5 center font \",15\" tc rgb \""
          NOTE_COLOUR "\"\n", f);
  }
  fputs("set key outside below center horizontal Left reverse samplen 1.5 spacing 1.3 width 1 "
        "font \",11\"\n", f);
  fputs("set style fill solid 0.92 border lc rgb \"#303030\"\n", f);

  /* stacked bars: running totals over the zones (columns 3 ...), tallest first */
  double bw = b->distinct ? (b->nbars < 3 ? 0.5 : 0.62) : b->width * 0.94;
  int any_other = 0;
  for (uint32_t i = 0; i < b->nbars; i++)
    any_other |= b->bar[i].zone_count[nz] > 0;
  fputs("plot ", f);
  int first = 1;
  for (uint32_t z = nz + 1; b->nbars && z-- > 0;) {
    if (z == nz && !any_other)
      continue;
    fprintf(f, "%s\"%s.dat\" using 1:(", first ? "" : ", \\\n     ", h->name);
    for (uint32_t k = 0; k <= z; k++)
      fprintf(f, "%s$%u", k ? "+" : "", 3 + k);
    fputs(" > 0 ? ", f);
    for (uint32_t k = 0; k <= z; k++)
      fprintf(f, "%s$%u", k ? "+" : "", 3 + k);
    const char *colour = z == nz ? OTHER_COLOUR : h->zones[z].colour[0] ? h->zones[z].colour
                       : zone_colour[z % (sizeof zone_colour / sizeof *zone_colour)];
    fprintf(f, " : NaN):(%.10g) with boxes lc rgb \"%s\" notitle", bw, colour);
    first = 0;
  }
  /* the key in the zones' order (the boxes above are drawn the other way round); zones
     without values too, so every chart of a kind reads alike */
  for (uint32_t z = 0; b->nbars && z <= nz; z++) {
    if (z == nz && (!any_other || nz == 0))
      continue;
    const char *colour = z == nz ? OTHER_COLOUR : h->zones[z].colour[0] ? h->zones[z].colour
                       : zone_colour[z % (sizeof zone_colour / sizeof *zone_colour)];
    fprintf(f, ", \\\n     keyentry with boxes fc rgb \"%s\" title ", colour);
    plot_gp_string(f, z == nz ? "in no zone" : h->zones[z].label);
  }
  if (b->nbars)
    fprintf(f, ", \\\n     \"%s.dat\" using 1:($2 > 0 ? $2 : NaN):(sprintf(\"%%d\", $2)) with "
            "labels offset 0,0.8 font \",11\" notitle\n", h->name);
  else
    fputs("NaN notitle\n", f);
  fprintf(f, "set terminal svg size %d,%d dynamic font \"Sans,12\" noenhanced background rgb "
             "\"white\"\nset output \"%s.svg\"\nreplot\nunset output\n", width, height, h->name);
  if (fclose(f) != 0) {
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    return -1;
  }
  return 0;
}

int plot_hist_draw(const struct plot_hist *h, const char *dir, char *png, size_t pnglen,
                   char *err, size_t errlen)
{
  if (pnglen)
    png[0] = 0;
  struct plot_hist_bars *b = malloc(sizeof *b);
  if (!b) {
    snprintf(err, errlen, "out of host memory");
    return PLOT_FAILED;
  }
  int rc = PLOT_OK;
  if (plot_hist_count(h, b, err, errlen))
    rc = PLOT_BAD_CHART;
  else if (write_dat(h, b, dir, err, errlen) || write_script(h, b, dir, err, errlen))
    rc = PLOT_FAILED;
  else {
    char script[128];
    snprintf(script, sizeof script, "%s.gp", h->name);
    rc = plot_run_script(dir, script, err, errlen);
    if (rc == PLOT_OK && pnglen)
      snprintf(png, pnglen, "%s/%s.png", dir, h->name);
  }
  free(b);
  return rc;
}
