/* plot_lanes.h: pictures of one warp, lane by lane, drawn with gnuplot from a lane log (the
 * emulator's record of one warp, harness/run/run_lanes.h):
 *
 *   sectors   one global access (the first the warp executed on a chosen source line): lane
 *             (x) against the 32-byte sector its bytes fall in (y), each cell coloured by how
 *             much of its sector the warp uses; the title counts the distinct sectors.
 *   banks     one shared access: lane (x) against bank (y), each cell coloured by how many
 *             different 4-byte words its bank serves to the lanes served together; the title
 *             gives the wavefronts (a broadcast, lanes reading one word, is free).
 *   timeline  every step of the warp: step (x) against lane (y), a cell where the lane ran
 *             the step, coloured by source line; divergent paths show as stripes one after
 *             the other, lanes a guard turned off in grey.
 *
 * Files as for a lab's charts (plot.h): NAME.dat (the cells), NAME.gp (the script: `gnuplot
 * NAME.gp` in the folder redraws it), NAME.png and NAME.svg. Like the rest of plots/ this reads
 * result files, never the emulator.
 */
#ifndef WARPLAB_PLOT_LANES_H
#define WARPLAB_PLOT_LANES_H

#include <stddef.h>

#include "run/run.h"

struct plot_lanes_spec {
  enum run_lane_kind kind;
  uint32_t line;               /* sectors, banks: the access on this source line (0: any) ... */
  char marker[96];             /* ... or on the first source line holding this text */
  enum run_lane_access access; /* ... that loads or stores (RUN_LANES_ANY: either) */
  char title[160];             /* "": made up from the kind and the source line */
  char subtitle[256];          /* a line under the title ("stride 2, on the emulator") */
};

/* Draw the picture s of the lane log at log_path into dir/name.{dat,gp,png,svg}. Returns
   PLOT_OK; PLOT_NO_GNUPLOT (data and script written); PLOT_BAD_CHART with err when the log
   holds no such access (or is not a lane log); PLOT_FAILED with err. */
int plot_lanes_draw(const char *log_path, const struct plot_lanes_spec *s, const char *dir,
                    const char *name, char *err, size_t errlen);

/* Draw every lane chart of lab (lab.json "lane_charts") whose lane log the run r wrote into its
   results folder (NAME.lanes.json); a chart without one is left out, as a GPU run, a --quick
   run's sweep points and a point that did not run have none. paths_out receives the PNG paths,
   one per line. Returns PLOT_OK, or another plot_status with err naming the first chart that
   could not be drawn and why; the others are drawn. */
int plot_lane_charts(const struct run_lab *lab, const struct run_result *r, char *paths_out,
                     size_t paths_len, char *err, size_t errlen);

/* Everything a run draws: the lab's charts (plot_lab_charts) and then its lane charts
   (plot_lane_charts), their PNG paths together in paths_out. Returns the first status that is
   not PLOT_OK, with its err, or PLOT_OK. */
int plot_run_charts(const struct run_lab *lab, const struct run_result *r, char *paths_out,
                    size_t paths_len, char *err, size_t errlen);

#endif
