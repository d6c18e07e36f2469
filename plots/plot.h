/* plot.h: the charts of a lab run, drawn with gnuplot.
 *
 * A lab's lab.json lists its charts ("charts", described in plots/README.md); each one is a
 * bar chart of some metrics over the points of one sweep, with the main configuration (the
 * kernel file's own choice) marked, or a line chart of them against x over one or more
 * sweeps, with a prediction drawn over the measured points. plots/ reads the run's result structures (run/run.h)
 * and nothing below them; it is the only code in warplab that knows gnuplot.
 */
#ifndef WARPLAB_PLOT_H
#define WARPLAB_PLOT_H

#include <stddef.h>
#include <stdio.h>

#include "run/run.h"

enum plot_status {
  PLOT_OK = 0,
  PLOT_NO_GNUPLOT,   /* gnuplot is not on PATH: nothing drawn (the .dat files are written) */
  PLOT_BAD_CHART,    /* no such chart (a definition is checked when the lab loads) */
  PLOT_FAILED,       /* a file could not be written, or gnuplot failed or timed out */
};

#define PLOT_MAX_SERIES RUN_CHART_SERIES   /* the metrics of a chart (run_lab.h) */
#define PLOT_MAX_ROWS (1 + RUN_MAX_SWEEPS * RUN_MAX_POINTS)   /* a line chart's sweeps' points */
#define PLOT_TIMEOUT_S 20     /* seconds a chart */

/* Find gnuplot on PATH; writes its path to out. Returns 0 when found, -1 otherwise. */
int plot_find_gnuplot(char *out, size_t outlen);

/* Draw every chart of the lab (lab->charts) for the run r, into r->results_dir: for a chart
   named NAME, NAME.dat (the data, tab-separated), NAME.gp (the gnuplot script, which can be
   rerun there by hand), NAME.png and NAME.svg. paths_out receives the PNG paths written,
   one per line (empty when there was nothing to chart: no measurements, or no charts).
   Returns PLOT_OK, or another plot_status with err; on PLOT_FAILED the charts that could be
   drawn are drawn and listed. They are drawn together (plot_list_draw). */
int plot_lab_charts(const struct run_lab *lab, const struct run_result *r, char *paths_out,
                    size_t paths_len, char *err, size_t errlen);

/* Charts whose data and scripts are written into one folder, to be drawn together
   (plot_list_draw). */
#define PLOT_MAX_LIST 64
struct plot_list {
  uint32_t n;
  char name[PLOT_MAX_LIST][64];   /* NAME: NAME.gp draws NAME.png and NAME.svg */
  char what[PLOT_MAX_LIST][80];   /* what its error starts with: "", "lane chart NAME: " */
};

/* Add chart name (its NAME.gp written) to l. Returns 0, or -1 with err when l is full. */
int plot_list_add(struct plot_list *l, const char *name, const char *what, char *err,
                  size_t errlen);

/* Draw the charts of l, in dir, with two gnuplot processes at once, the charts shared
   between them by size (one process for one chart, or on one CPU; each script from a fresh
   gnuplot session); a chart that was not drawn (gnuplot stops at the first error of a
   script) is drawn alone, so that one whose script fails is named with gnuplot's message and the others
   are drawn. Appends the PNGs drawn to paths_out, one a line. Returns PLOT_OK; PLOT_NO_GNUPLOT
   with err (nothing drawn); PLOT_FAILED with err naming the first chart that failed. */
int plot_list_draw(const struct plot_list *l, const char *dir, char *paths_out, size_t paths_len,
                   char *err, size_t errlen);

/* plot_lab_charts' first half: every chart's NAME.dat and NAME.gp written into
   r->results_dir and added to l (nothing drawn). Returns PLOT_OK; PLOT_BAD_CHART with err
   (nothing written); PLOT_FAILED with err naming the first chart that could not be written
   (the others are). */
int plot_lab_scripts(const struct run_lab *lab, const struct run_result *r,
                     struct plot_list *l, char *err, size_t errlen);

/* The chart of the lab named name, as text for a terminal (gnuplot's dumb terminal),
   width x height characters, into out (NUL-terminated, cut at outlen). Writes NAME.dat and
   NAME.term.gp into r->results_dir. Returns PLOT_OK, or another plot_status with err
   (PLOT_BAD_CHART also when there is no chart of that name). */
int plot_terminal_chart(const struct run_lab *lab, const struct run_result *r, const char *name,
                        int width, int height, char *out, size_t outlen, char *err,
                        size_t errlen);

/* One configuration of a chart: a cluster of bars, or a point of each line. */
struct plot_row {
  char label[80];              /* "32x8", or "32x8 (yours)" for the kernel file's own choice */
  int is_main;
  int correct;                 /* its output matched the reference */
  double v[PLOT_MAX_SERIES];   /* the metrics' values times the chart's scale */
  int defined[PLOT_MAX_SERIES];
  uint32_t sweep;              /* lines: the index of its sweep in the chart's "sweeps" */
  double x;                    /* lines: its x */
  int x_defined;
};

#define PLOT_MAX_NOTES (PLOT_MAX_SERIES + 4)

/* A chart's figures and words, for a renderer other than gnuplot (the feedback screen,
   grader/tui): the same rows, values, labels and notes as the gnuplot chart. */
struct plot_data {
  char name[64], title[192], ylabel[192], subtitle[512];
  int log;
  int lines;                          /* a line chart: rows are points, x in each row; with a
                                         prediction, it is the last series ("predicted") */
  char xlabel[192];
  uint32_t nseries;
  char metric[PLOT_MAX_SERIES][96];
  char label[PLOT_MAX_SERIES][96];    /* a short name per metric, for the key */
  char kind[PLOT_MAX_SERIES][16];     /* exact, ptx-level, measured, modelled; "" when none */
  uint32_t ndefined[PLOT_MAX_SERIES]; /* rows with a value; 0: the series has no bars */
  struct plot_row rows[PLOT_MAX_ROWS];
  uint32_t nrows;
  char notes[PLOT_MAX_NOTES][256];    /* what is missing, and why */
  uint32_t nnotes;
};

/* How many charts the lab has (lab->ncharts). */
uint32_t plot_chart_count(const struct run_lab *lab);

/* Chart number index of the lab, with its figures from r, into *d. Writes no file and runs
   nothing. Returns PLOT_OK, or PLOT_BAD_CHART with err (a malformed chart, or no such index). */
int plot_chart_data(const struct run_lab *lab, const struct run_result *r, uint32_t index,
                    struct plot_data *d, char *err, size_t errlen);

/* Run gnuplot on script (a file in dir), in dir, stopped after PLOT_TIMEOUT_S: the runner
   the lab charts use, for other charts of plots/ (plot_hist.c). Returns PLOT_OK,
   PLOT_NO_GNUPLOT or PLOT_FAILED with err. */
int plot_run_script(const char *dir, const char *script, char *err, size_t errlen);

/* s written to f as a gnuplot double-quoted string (quotes, backslashes and newlines escaped). */
void plot_gp_string(FILE *f, const char *s);

/* A folder of figures that no lab run made (lab 03's staircase.sh and fma.sh write one: a
   result.json whose points are the benchmark's, and charts.json, {"charts": [...]} in
   lab.json's form): when dir holds charts.json, the sweeps the points of r name become
   lab->sweeps and its charts, parsed and checked by run_charts_parse, replace lab->charts,
   so that plot_lab_charts draws them (`warplab charts DIR`). Returns 1 when it did, 0 when
   there is no charts.json, -1 with err (a charts.json that is not JSON or whose charts are
   malformed, or more sweeps than a lab may have). */
int plot_use_folder_charts(struct run_lab *lab, const struct run_result *r, const char *dir,
                           char *err, size_t errlen);

const char *plot_status_name(enum plot_status s);

#endif
