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

#include <stddef.h>

#include "run/run_lab.h"

struct batch_opts {
  const char *warplab;         /* the warplab executable that grades each student */
  const char *lab;             /* "01" */
  const struct run_lab *lab_def;  /* the lab, loaded: its rubric for the charts (NULL: none) */
  const char *roster;          /* folder of student folders */
  const char *out;             /* where results go: OUT/STUDENT/{results.json,log.txt,runs/} */
  const char *backend;         /* "auto", "gpu", "emu" */
  const char *seed;            /* every student graded with `--seed SEED`; NULL: fresh seeds */
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
  unsigned students, graded, skipped, failed;   /* failed: crashed, timed out, malformed */
  unsigned missing;            /* batch_collect: students without results.json */
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

#endif
