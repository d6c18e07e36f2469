/* tui_chart.c: the chart pane: one of the lab's charts as horizontal bars of text.
 *
 * The figures, labels and notes come from plots/ (plot_chart_data), which draws the same chart
 * as a PNG with gnuplot; this file only lays them out in a terminal: one row per configuration
 * (the kernel file's own first, marked "(yours)"), one bar per metric in the series' own
 * character and colour, the value at the end of the bar, and the PNG's path below. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "grader/tui/tui_int.h"
#include "plots/plot.h"

#define LABEL_MAX 18
#define VALUE_W 10

static const char series_char[PLOT_MAX_SERIES] = {'#', '=', '*', '+', 'o', '%'};

void tui_chart_title(const struct tui_view *v, char *out, size_t n)
{
  if (v->ncharts > 1)
    snprintf(out, n, "Chart %u of %u ([ ] for the others)", v->chart + 1, v->ncharts);
  else
    snprintf(out, n, "Chart");
}

/* The bar of v, in characters out of width, on a linear scale to hi or a log scale from lo
   to hi. At least one character for a positive value. */
static int bar_len(double v, double lo, double hi, int log_scale, int width)
{
  if (!(v > 0) || !(hi > 0))
    return 0;
  double f;
  if (log_scale) {
    double base = lo / 2;   /* the smallest value still gets a bar */
    f = hi > base ? (log(v) - log(base)) / (log(hi) - log(base)) : 1;
  } else {
    f = v / hi;
  }
  int n = (int)lround(f * width);
  return n < 1 ? 1 : n > width ? width : n;
}

void tui_chart_draw(struct tui_canvas *c, const struct tui_view *v)
{
  static struct plot_data d;   /* 30 kB: not on the stack */
  char err[512];
  if (!v->stu) {
    tui_wrap(c, TUI_DIM, 0, "No chart yet.");
    return;
  }
  if (!v->ncharts) {
    tui_wrap(c, TUI_DIM, 0, "This lab has no charts.");
    return;
  }
  if (!v->stu->npoints) {
    tui_wrap(c, TUI_DIM, 0, "No chart: there are no measurements (the main size's test must pass "
             "first).");
    return;
  }
  if (plot_chart_data(v->lab, v->stu, v->chart, &d, err, sizeof err) != PLOT_OK) {
    tui_wrap(c, TUI_BAD, 0, err);
    return;
  }
  tui_wrap(c, TUI_TITLE, 0, d.title);
  tui_wrap(c, TUI_DIM, 0, d.subtitle);

  /* the key: each series' character, name and kind; then the unit */
  double lo = HUGE_VAL, hi = 0;
  int drawn = 0;
  c->col = 0;
  for (uint32_t s = 0; s < d.nseries; s++) {
    if (!d.ndefined[s])
      continue;
    drawn++;
    char mark[4] = {series_char[s], series_char[s], series_char[s], 0};
    c->col += c->col ? 2 : 0;
    tui_put(c, TUI_SERIES + (int)s, mark);
    tui_putf(c, TUI_NORMAL, " %s (%s)", d.label[s], d.kind[s][0] ? d.kind[s] : "no kind");
    for (uint32_t i = 0; i < d.nrows; i++)
      if (d.rows[i].defined[s]) {
        lo = d.rows[i].v[s] > 0 && d.rows[i].v[s] < lo ? d.rows[i].v[s] : lo;
        hi = d.rows[i].v[s] > hi ? d.rows[i].v[s] : hi;
      }
  }
  tui_nl(c);
  if (d.ylabel[0]) {
    char unit[256];
    snprintf(unit, sizeof unit, "in %s%s", d.ylabel, d.log ? ", log scale" : "");
    tui_wrap(c, TUI_DIM, 0, unit);
  }

  /* the bars */
  int lw = 0;
  for (uint32_t i = 0; i < d.nrows; i++) {
    int l = (int)strlen(d.rows[i].label);
    lw = l > lw ? l : lw;
  }
  lw = lw > LABEL_MAX ? LABEL_MAX : lw;
  int width = c->w - lw - 2 - VALUE_W;
  width = width < 5 ? 5 : width;
  for (uint32_t i = 0; drawn && i < d.nrows; i++) {
    const struct plot_row *row = &d.rows[i];
    int first = 1;
    for (uint32_t s = 0; s < d.nseries; s++) {
      if (!d.ndefined[s])
        continue;
      c->col = 0;
      if (first)
        tui_putf(c, row->is_main ? TUI_TITLE : TUI_NORMAL, "%-*.*s", lw, lw, row->label);
      c->col = lw + 1;
      tui_put(c, TUI_DIM, "|");
      if (row->defined[s]) {
        char bar[512];
        int n = bar_len(row->v[s], lo, hi, d.log, width);
        n = n < (int)sizeof bar - 1 ? n : (int)sizeof bar - 1;
        memset(bar, series_char[s], (size_t)n);
        bar[n] = 0;
        tui_put(c, TUI_SERIES + (int)s, bar);
        tui_putf(c, TUI_NORMAL, " %.4g", row->v[s]);
      } else {
        tui_put(c, TUI_DIM, " no value");
      }
      if (first && !row->correct)
        tui_put(c, TUI_BAD, "  wrong result");
      first = 0;
      tui_nl(c);
    }
  }
  for (uint32_t k = 0; k < d.nnotes; k++)
    tui_wrap(c, TUI_DIM, 0, d.notes[k]);

  /* the picture (none yet while the sweeps run, though gnuplot may have drawn it already:
     the rows above are the main configuration's alone) */
  char png[1200];
  snprintf(png, sizeof png, "%s/%s.png", v->stu->results_dir, d.name);
  char line[1400];
  if (!v->early && access(png, R_OK) == 0)
    snprintf(line, sizeof line, "PNG: %s", png);
  else
    snprintf(line, sizeof line, "No PNG: %s", v->charts_note[0] ? v->charts_note : "not drawn");
  tui_wrap(c, TUI_DIM, 0, line);
}
