/* release.h: the students' copy of an instructor's tree (`warplab release --out DIR`).
 *
 * The instructor's tree holds the labs with their answer keys and hidden test sizes, and the
 * reference solutions. A release holds what students get: the labs, handouts, the harness,
 * the Makefile and everything to build, run and self-check, with every question's answer and
 * every hidden test taken out of each lab.json, no solutions/ folder, of each lab's measured/
 * (the instructor's calibration runs of the solutions) and pictures/ folders only the files
 * that a page of the release (a handout, a README) links to, and, in place of the
 * solutions, the reference solution's figures as data: labs/NN-name/reference-run/result.json,
 * a run of the solution on the emulator (main size, tests) in run/run.h's result.json format,
 * without its paths, build log or source lines. `warplab run` (its feedback screen) and
 * `warplab grade` score against those figures where solutions/ is absent.
 *
 * Before it reports success, release_write reads back every file it wrote and refuses the
 * release when one holds the body of a function of a reference solution (comments and white
 * space aside) that the lab's starter file does not hold too.
 */
#ifndef WARPLAB_RELEASE_H
#define WARPLAB_RELEASE_H

#include <stddef.h>

#include "run/run.h"

/* The folder of a lab that holds its shipped reference figures (result.json). */
#define RELEASE_REFERENCE_DIR "reference-run"

struct release_summary {
  unsigned labs;               /* labs written */
  unsigned files;              /* files written */
  unsigned answers;            /* answers taken out of the labs' rubrics */
  unsigned hidden;             /* hidden test sizes left out */
  unsigned checked;            /* solution functions looked for in every file written */
};

/* Whether out may be written into: absent, or an empty folder. Returns 0, or -1 with err
   ("... exists and is not empty: give a new folder"). */
int release_new_folder(const char *out, char *err, size_t errlen);

/* Write the students' copy of the tree at home (the instructor's: labs/, solutions/, ...) to
   out, which must not exist or be an empty folder; the reference figures come from runs of
   the solutions by the warplab executable warplab. Returns 0, or -1 with err (a file that
   could not be written, a solution that did not run, a written file that holds solution
   code: then out is left as it is, for the instructor to see). */
int release_write(const char *home, const char *out, const char *warplab,
                  struct release_summary *s, char *err, size_t errlen);

/* Copy the folder src to dst (made, with its parents), recursively; entries for which
   skip(rel, is_dir) is nonzero are left out (rel: the path below src). Symbolic links are
   not followed nor copied. Adds the files copied to *files. Returns 0, or -1 with err. */
int release_copy_tree(const char *src, const char *dst,
                      int (*skip)(const char *rel, int is_dir), unsigned *files, char *err,
                      size_t errlen);

/* Copy the file src to dst, with its permissions. Returns 0, or -1 with err. */
int release_copy_file(const char *src, const char *dst, char *err, size_t errlen);

/* Make the folder path and its parents. Returns 0, or -1 with err. */
int release_mkdirs(const char *path, char *err, size_t errlen);

/* Remove the folder path and everything below it (links are removed, not followed). */
void release_remove_tree(const char *path);

/* Nonzero when the lab's reference solution is there (solutions/NN-name/KERNEL_FILE). */
int release_has_solution(const struct run_lab *lab);

/* The reference solution's figures shipped with lab (a release's RELEASE_REFERENCE_DIR) into
   *ref, for scoring student. Returns 0, or -1 with why in err: none shipped, or they were
   measured on another backend or profile than student's run (then nothing is compared). */
int release_reference_load(const struct run_lab *lab, const struct run_result *student,
                           struct run_result *ref, char *err, size_t errlen);

#endif
