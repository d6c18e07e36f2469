/* plot_hist.h: distributions drawn with gnuplot: how many values fall in each bin, or on each
 * distinct value, as bars.
 *
 * A grader draws a class with it after a batch (scores, a rubric metric's values, times
 * against the reference solution), but nothing here knows about grading: a distribution is
 * a list of numbers with words around them. Bars are split by zones (ranges of values with a
 * meaning: "meets the target", "no performance points"), stacked in the zone's colour, so a
 * bin that holds values of two zones shows both; marks are values drawn as labelled lines
 * (the reference solution's value, the mean). Files are written as plot.c writes a lab's
 * charts: NAME.dat (the bars), NAME.gp (the script: `gnuplot NAME.gp` in the folder redraws
 * it), NAME.png and NAME.svg.
 */
#ifndef WARPLAB_PLOT_HIST_H
#define WARPLAB_PLOT_HIST_H

#include <stddef.h>
#include <stdint.h>

#define PLOT_HIST_MAX_BINS 40
#define PLOT_HIST_MAX_ZONES 4
#define PLOT_HIST_MAX_MARKS 4
#define PLOT_HIST_MAX_NOTES 4
#define PLOT_HIST_MAX_DISTINCT 8     /* PLOT_HIST_AUTO: up to this many distinct values, a bar each */

enum plot_hist_mode {
  PLOT_HIST_AUTO = 0,   /* a bar per distinct value when there are few, else bins */
  PLOT_HIST_BINS,       /* bins of equal width on a numeric axis */
  PLOT_HIST_DISTINCT,   /* a bar per distinct value (at most PLOT_HIST_MAX_BINS of them) */
};

/* A range of values with a meaning. A value belongs to the first zone whose closed range
   [lo, hi] holds it (-INFINITY and INFINITY for open ends); values in no zone are counted
   in an implicit last zone without a key entry. */
struct plot_hist_zone {
  double lo, hi;
  char label[128];             /* for the key: "meets the target (at most 4)" */
  char colour[16];             /* "#4E9A57"; "": the next of the default colours */
};

/* A value drawn as a vertical line with its label at the top. */
struct plot_hist_mark {
  double x;
  char label[128];             /* "reference solution: 4" */
};

struct plot_hist {
  char name[96];               /* letters, digits, '-', '_' and '.': names the files */
  char title[192], subtitle[512], xlabel[192], ylabel[96];
  const double *values;        /* NaN and infinities are left out (counted in nskipped) */
  uint32_t nvalues;
  enum plot_hist_mode mode;
  double width;                /* bins: their width; 0 chooses one (1, 2, 2.5 or 5 times 10^k) */
  double lo, hi;               /* bins: the first and the last edge; NaN: from the values. A
                                  value outside is counted in the end bin on its side */
  struct plot_hist_zone zones[PLOT_HIST_MAX_ZONES];
  uint32_t nzones;
  struct plot_hist_mark marks[PLOT_HIST_MAX_MARKS];
  uint32_t nmarks;
  char notes[PLOT_HIST_MAX_NOTES][256];   /* drawn under the subtitle, in red: what is missing */
  uint32_t nnotes;
};

/* One bar: values in [lo, hi) (the last bin: [lo, hi]); lo == hi for a distinct value. */
struct plot_hist_bar {
  double lo, hi;
  double x;                    /* where it stands on the axis: its centre (bins) or its index */
  uint32_t count;
  uint32_t zone_count[PLOT_HIST_MAX_ZONES + 1];   /* by zone; the last: in no zone */
  char label[48];              /* "4", "1.2-1.4" */
};

struct plot_hist_bars {
  struct plot_hist_bar bar[PLOT_HIST_MAX_BINS];
  uint32_t nbars;
  int distinct;                /* a bar per distinct value, on a categorical axis */
  double width;                /* bins: their width */
  uint32_t nvalues;            /* values counted */
  uint32_t nskipped;           /* NaN or infinite: left out */
  uint32_t max_count;
};

/* Initialise h: no values, mode PLOT_HIST_AUTO, width 0, lo and hi NaN, no zones, marks or
   notes, ylabel "count". */
void plot_hist_init(struct plot_hist *h);

/* Count h's values into bars. Returns 0, or -1 with err (a bad name, width or range). No
   values gives no bars and returns 0. */
int plot_hist_count(const struct plot_hist *h, struct plot_hist_bars *b, char *err, size_t errlen);

/* The position on the chart's x axis of value x (a mark's): itself with bins; with a bar per
   distinct value, its bar's index, or a place between two neighbouring bars in proportion. */
double plot_hist_axis_x(const struct plot_hist_bars *b, double x);

/* Draw h into folder dir: NAME.dat, NAME.gp, then NAME.png and NAME.svg with gnuplot. png
   receives the PNG's path when it was drawn (else ""). Returns PLOT_OK, or PLOT_NO_GNUPLOT
   (the data and script are written), PLOT_BAD_CHART or PLOT_FAILED with err (enum
   plot_status of plot.h). */
int plot_hist_draw(const struct plot_hist *h, const char *dir, char *png, size_t pnglen,
                   char *err, size_t errlen);

#endif
