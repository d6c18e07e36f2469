/* batch.h: grade a class: one submission folder per student, each graded in a child process
 * of its own (`warplab grade`), with a time limit and a memory cap, so a submission that
 * crashes, hangs or eats memory gets a clear result and the batch goes on. Every student's
 * results are written atomically (a temporary file renamed into place), so an interrupted
 * batch resumes where it stopped (--resume) and loses nothing finished. After the students,
 * the class: the gradebook and the class charts (class_charts.h), drawn from the students'
 * results alone.
 *
 * A class too big for one machine is graded by a Slurm job array (batch_slurm_submit): each
 * task grades a slice of the students exactly as the local batch does, into the same
 * folders, and a collection (batch_collect) writes the gradebook and the charts once they
 * are all in.
 */
#ifndef WARPLAB_BATCH_H
#define WARPLAB_BATCH_H

#include <jansson.h>
#include <stddef.h>

#include "run/run.h"
#include "run/run_lab.h"

struct batch_opts {
  const char *warplab;         /* the warplab executable that grades each student */
  const char *lab;             /* "01" */
  const struct run_lab *lab_def;  /* the lab, loaded: its rubric for the charts (NULL: none) */
  const char *roster;          /* folder of student folders */
  const char *out;             /* where results go: OUT/STUDENT/{results.json,log.txt,runs/} */
  const char *backend;         /* "auto", "gpu", "emu" */
  const char *seed;            /* every student graded with `--seed SEED` (the CLI picks one for
                                  the class when none is given, OUT/seed.txt); NULL: fresh */
  int jobs;                    /* students graded at once */
  int resume;                  /* skip students whose results.json exists */
  int timeout_s;               /* per student */
  size_t memory_mb;            /* address-space cap per student */
  const char *list;            /* the students, one name a line (a Slurm batch's students.txt);
                                  NULL: the roster's folders */
  int slice, chunk;            /* chunk > 0: grade only students slice*chunk ... +chunk-1 of
                                  the list (a Slurm array task) */
  int no_class;                /* no gradebook or charts (a Slurm task: the collection does them) */
};

struct batch_summary {
  unsigned students, graded, skipped, failed;   /* failed: stopped at --timeout (hung) */
  unsigned missing;            /* batch_collect: students without results.json */
  unsigned nokernel, refused, ungraded;         /* statuses MISSING, REFUSED, UNGRADED */
  char charts[1400];           /* where the class charts went, or why they were not drawn */
};

/* Grade every student of the roster (or of o->list's slice). Returns 0 when the batch ran
   (whatever the students' results), -1 with err when it could not (no roster, no output
   folder). */
int batch_run(const struct batch_opts *o, struct batch_summary *s, char *err, size_t errlen);

/* The class without grading anyone: the gradebook and the charts from the results under
   o->out of the roster's students, and how many are graded, failed and missing in *s.
   Returns 0, or -1 with err. */
int batch_collect(const struct batch_opts *o, struct batch_summary *s, char *err, size_t errlen);

/* How a class goes to Slurm. */
struct batch_slurm_opts {
  int chunk;                   /* students per array task */
  const char *sbatch_args[8];  /* passed to sbatch as they are ("--partition=gpu") */
  int nargs;
  int submit;                  /* 0: write the scripts, submit nothing */
};

/* Write OUT/slurm/{students.txt, grade.sbatch, collect.sbatch, collect.sh} for o (students
   that have results are left out when o->resume) and, when so->submit, submit the array and
   the collection job that runs after it. info receives what was done and the commands to
   follow it, in words. Returns 0, or -1 with err (sbatch's message when it refused). */
int batch_slurm_submit(const struct batch_opts *o, const struct batch_slurm_opts *so, char *info,
                       size_t infolen, char *err, size_t errlen);

/* The students of o: the roster's folders, or o->list's names, sorted as listed, into names
   (strdup'ed; free each). Returns how many, or -1 with err. */
int batch_students(const struct batch_opts *o, char **names, int max, char *err, size_t errlen);

#define BATCH_MAX_STUDENTS 4096

/* What became of a student (batch_status.def). */
enum batch_status {
#define X(name, word, scored, meaning) BATCH_##name,
#include "grader/batch_status.def"
#undef X
  BATCH_NSTATUS
};

/* The word gradebook.csv and a result's extra_data.status give status. */
const char *batch_status_word(enum batch_status status);

/* The status of a student's result j (NULL: PENDING): its extra_data.status, or for a result
   without one (an older warplab's) GRADED when max_score > 0, else FAILED. */
enum batch_status batch_result_status(const json_t *j);

/* A result for a submission graded no further than status (MISSING, REFUSED, UNGRADED,
   FAILED): 0 points of full (counted statuses) or of 0, why as its output and its one test's,
   extra_data.status set. Returns a new JSON object. */
json_t *batch_result_json(enum batch_status status, double full, const char *why);

/* The lab's full score: its rubric's "total", or the sum of its parts' points. */
double batch_full_score(const struct run_lab *lab);

/* Whether j is a whole Gradescope result as `warplab grade` writes one for a lab of full
   points (full <= 0: not known): score, max_score and every test's are finite numbers with
   0 <= score <= max_score <= full, the tests' scores and maxima add up to the result's, each
   test an object with a string name, no member Gradescope does not define, extra_data.status
   (when given) one a grade may report. Returns 0, or -1 with why. */
int batch_result_check(const json_t *j, double full, char *why, size_t whylen);

/* Whether student of o must be graded under --resume: no whole results.json, one that could
   not be graded (UNGRADED), or one whose submission hash is not the folder's now. */
int batch_needs_grading(const struct batch_opts *o, const char *student);

/* When a grade is not the student's to get: the reference solution did not build either, the
   student's build was stopped by the grader's own limits (out of memory, a signal), or ncu,
   measuring its GPU metrics, was (RUN_NCU_STOPPED). Returns 1 with why, for the result, or 0. */
int batch_grader_limit(const struct run_result *student, const struct run_result *solution,
                       char *why, size_t whylen);

#endif
