/* class_charts.h: the charts of a graded class, drawn after a batch from the students'
 * results alone (OUT/STUDENT/results.json), so a local batch and a Slurm batch's collection
 * draw the same charts from the same files.
 *
 * Into OUT/charts/: the score distribution (score.*), one distribution per metric target of
 * the lab's rubric (the metric's name.*: sectors per request, load efficiency, occupancy ...)
 * with the students who meet the target told apart from those who miss it and the reference
 * solution's value marked, and the kernels' times against the reference solution
 * (time_ratio.*) in the rubric's performance bands; each as .dat, .gp, .png and .svg
 * (plots/plot_hist.h), and class.csv: the figures of every student they are drawn from.
 */
#ifndef WARPLAB_CLASS_CHARTS_H
#define WARPLAB_CLASS_CHARTS_H

#include <stddef.h>

#include "run/run_lab.h"

/* Draw the class charts of lab for the students names[0..n-1] whose results are under out.
   msg receives what was drawn, or why not ("gnuplot is not installed ..."). Returns 0 when
   the charts' data and scripts were written (the pictures too when gnuplot ran), -1 when
   they could not be (msg says why). */
int class_charts_draw(const struct run_lab *lab, const char *out, char *const *names, int n,
                      char *msg, size_t msglen);

#endif
