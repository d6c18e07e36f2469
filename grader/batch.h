/* batch.h: grade a class: one submission folder per student, each graded in a child process
 * of its own (`warplab grade`), with a time limit and a memory cap, so a submission that
 * crashes, hangs or eats memory gets a clear result and the batch goes on. Every student's
 * results are written atomically (a temporary file renamed into place), so an interrupted
 * batch resumes where it stopped (--resume) and loses nothing finished. */
#ifndef WARPLAB_BATCH_H
#define WARPLAB_BATCH_H

#include <stddef.h>

struct batch_opts {
  const char *warplab;         /* the warplab executable that grades each student */
  const char *lab;             /* "01" */
  const char *roster;          /* folder of student folders */
  const char *out;             /* where results go: OUT/STUDENT/{results.json,feedback.md,log.txt} */
  const char *backend;         /* "auto", "gpu", "emu" */
  int jobs;                    /* students graded at once */
  int resume;                  /* skip students whose results.json exists */
  int timeout_s;               /* per student */
  size_t memory_mb;            /* address-space cap per student */
};

struct batch_summary {
  unsigned students, graded, skipped, failed;   /* failed: crashed, timed out, malformed */
};

/* Grade every student of the roster. Returns 0 when the batch ran (whatever the students'
   results), -1 with err when it could not (no roster, no output folder). */
int batch_run(const struct batch_opts *o, struct batch_summary *s, char *err, size_t errlen);

#endif
