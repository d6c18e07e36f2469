/* grade_occ.h: the low-occupancy hint: when a submission keeps fewer warps on an SM than the
 * reference solution does, say which resource holds it back (registers, shared memory, the
 * block's size in warps, the SM's block limit, barriers), with the figures, the line of the
 * kernel file to change and the handout section that explains occupancy.
 *
 * The run keeps the main configuration's occupancy breakdown as the measurement layer
 * (harness/measure) worked it out: the calculator's input (ptxas's resources, the launch) and
 * its answer, with the limiting resources, on the profile the run used (run_result.occ and
 * .prof). The grader reads it; it neither runs ptxas again nor loads the profile.
 */
#ifndef WARPLAB_GRADE_OCC_H
#define WARPLAB_GRADE_OCC_H

#include <stddef.h>

#include "run/run.h"

/* The hint for student against solution (the reference solution's run on the same backend),
   into out. Returns 1 when there is one (the student's occupancy is lower than the
   reference's and its limiting resource was found), 0 when there is none. */
int grade_occupancy_hint(const struct run_lab *lab, const struct run_result *student,
                         const struct run_result *solution, char *out, size_t outlen);

/* The heading of a handout section about topic (case-insensitive, e.g. "occupancy") in
   handout file path, into out without its leading '#'s. Returns 1 when found, else 0. */
int grade_handout_section(const char *path, const char *topic, char *out, size_t outlen);

#endif
