/* autograder.h: a Gradescope autograder for one lab (`warplab autograder NN --out DIR`).
 *
 * The folder it writes is zipped and uploaded as the assignment's autograder. Gradescope
 * unpacks it into /autograder/source and runs setup.sh there once, as root, on its Ubuntu
 * image (no GPU): the build's packages from apt (docker/install-deps.sh), nvcc and ptxas
 * from NVIDIA's CUDA apt repository, and warplab built in warplab/. For every submission it
 * runs run_autograder, which calls `warplab autograder NN --run`: the files handed in are in
 * /autograder/submission, and the result goes to /autograder/results/results.json in
 * Gradescope's format, graded on the emulator. `$WARPLAB_AUTOGRADER_ROOT` stands in for
 * /autograder (the tests).
 *
 * The folder holds the instructor's lab: its lab.json with the answer keys and the hidden
 * test sizes, and its reference solution; it goes to Gradescope only, never to students.
 *
 * A results.json is always written: a submission without the kernel file (nothing handed
 * in, a file of another name), one that does not build or faults, and a grading that dies or
 * runs out of time each give a valid results.json with the score it earned (0 when nothing
 * could be graded) and what went wrong, in words.
 */
#ifndef WARPLAB_AUTOGRADER_H
#define WARPLAB_AUTOGRADER_H

#include <stddef.h>

#include "run/run_lab.h"

/* The autograder's root: $WARPLAB_AUTOGRADER_ROOT, or /autograder. */
const char *autograder_root(void);

/* Write the autograder of lab (loaded from home's labs/) to out, a new or empty folder:
   setup.sh, run_autograder, README.md (the upload, step by step) and warplab/ (the tree to
   build, with this lab and its solution only). Returns 0, or -1 with err. */
int autograder_write(const char *home, const struct run_lab *lab, const char *out, char *err,
                     size_t errlen);

/* Grade root/submission for lab with the warplab executable warplab (`warplab grade` in a
   child process, on the emulator, stopped after timeout_s seconds) and write
   root/results/results.json. Returns 0 when results.json was written (whatever the grade),
   or -1 with err when even that failed. */
int autograder_run(const struct run_lab *lab, const char *warplab, const char *root,
                   unsigned timeout_s, char *err, size_t errlen);

#endif
