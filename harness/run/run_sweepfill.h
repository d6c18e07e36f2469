/* run_sweepfill.h: the sweep rows of a GPU run that Nsight Compute did not profile, filled
   with the emulator's exact counts of the same PTX (issue 21).

   A GPU run profiles only its main configuration (one profiled launch costs seconds) and
   times the sweeps with CUDA events. The lesson of a sweep is often a ratio (sectors per
   request, bytes used per sector, threads per instruction) that the emulator counts exactly
   for the same PTX and that does not depend on the problem size where the grid divides it.
   The run layer runs the emulator over the sweeps at the lab's emulator size; this module
   decides which of its figures may stand in a GPU row, copies them, and says so. */
#ifndef WARPLAB_RUN_SWEEPFILL_H
#define WARPLAB_RUN_SWEEPFILL_H

#include <stddef.h>

#include "run/run.h"

/* 1 when the metric called name may fill a GPU sweep row from the emulator: an emulator
   counter (met_names.def SOURCE COUNTER) of kind exact or ptx-level whose unit is a ratio
   ("sectors/request", "%"); counts ("sectors") depend on the size and are left out. */
int run_sweepfill_metric(const char *name);

/* Copies into each sweep row of gpu that has no figure for one of lab's metrics the emulator's
   figure of the same row of emu (same sweep and label), where run_sweepfill_metric allows it,
   with kind "emulated"; the labels of what was filled (", "-separated) go to filled (n bytes).
   Returns the number of figures filled. */
int run_sweepfill_merge(const struct run_lab *lab, struct run_result *gpu, const struct run_result *emu,
                        char *filled, size_t n);

#endif
