/* session.h: one grading session: a kernel file's run, the reference solution's run on the
 * same inputs, and the score by the lab's rubric. `warplab grade`, `warplab run`'s text
 * report and the feedback screen (grader/tui) all grade through it.
 *
 * The session decides what runs, with which options, and what each run means; the caller
 * runs them: in this process (gs_step, gs_run: run_lab_run), or as a child process (the
 * feedback screen, which answers keys meanwhile) handing each run back with gs_ran. A
 * session goes, by its mode:
 *
 *   GS_FEEDBACK  the kernel file's run, as asked; then the reference: that run itself when it
 *                is the solution's; the figures shipped with a students' copy (release.h)
 *                when solutions/ is absent; else the solution run on the run's seed and
 *                backend, main size only (also when the run measured nothing: the score's
 *                maximum does not depend on it); then the score.
 *   GS_GRADE     the seed fixed first (a fresh one unless given); the reference solution
 *                first, main size only, so that it runs before the caller confines the
 *                process (tc_sandbox.h) and is kept in run_cache.h's cache for a class;
 *                then the submission with the lab's hidden tests, main size only (a run
 *                that built but stopped for a reason of the kernel's is graded as one failed
 *                test); the reference again when "auto" chose another backend for the
 *                submission; then the score. Without solutions/, the shipped figures.
 *
 * A solution run with a seed comes from the cache (run_cache.h) when it ran before. The
 * answers to the handout's questions come from answers.json, read by submission_answers.
 * Errors are values (session_status.def); nothing here prints or exits.
 */
#ifndef WARPLAB_SESSION_H
#define WARPLAB_SESSION_H

#include <stddef.h>

#include "grader/grade.h"
#include "run/run.h"

/* How a step ended (session_status.def). */
enum gs_status {
#define X(name, meaning) GS_##name,
#include "grader/session_status.def"
#undef X
};

/* The status's meaning in words ("the reference solution's run did not happen"). */
const char *gs_status_text(enum gs_status st);

enum gs_mode {
  GS_FEEDBACK = 0,   /* warplab run, the feedback screen */
  GS_GRADE           /* warplab grade (and so batch and the autograder) */
};

/* What the caller is to do next. */
enum gs_step {
  GS_STEP_REFERENCE = 0,   /* run the reference solution: s->next into s->run */
  GS_STEP_STUDENT,         /* run the kernel file: s->next into s->run */
  GS_STEP_SCORE,           /* both runs are in: gs_score */
  GS_STEP_DONE             /* scored, or stopped by an error */
};

/* Where the reference figures came from. */
enum gs_ref_source {
  GS_REF_NONE = 0,   /* none: s->ref_note says why */
  GS_REF_SELF,       /* the kernel file is the solution: its own run */
  GS_REF_SHIPPED,    /* a students' copy's reference-run/result.json (release.h) */
  GS_REF_RUN         /* the solution run in this session (or its cached run) */
};

/* A session's inputs. */
struct gs_input {
  enum gs_mode mode;
  const struct run_lab *lab;
  struct run_opts run;         /* the kernel file's run: kernel file (NULL: the lab's starter),
                                  solution, backend, profile, seed, results root, sizes... */
  const char *answers_dir;     /* the folder of answers.json; NULL: the kernel file's */
};

struct gs_session {
  struct gs_input in;
  enum gs_step step;           /* what to do next */
  struct run_opts next;        /* the options of the next run (REFERENCE, STUDENT steps) */
  struct run_result *run;      /* the next run goes here; gs_ran takes it in */
  /* outputs; those of the last session stay until the kernel file's next run is taken in */
  struct run_result *stu;      /* the kernel file's run, when has_stu */
  struct run_result *ref;      /* the reference's, when ref_source is not GS_REF_NONE */
  int has_stu;
  enum gs_ref_source ref_source;
  char ref_note[1200];         /* why there is no reference, or "" */
  struct grade_result *grade;  /* the score, when scored */
  int scored;
  char answers[1100];          /* the answers.json scored, or "" */
  char answers_note[512];      /* why answers.json was not read, or "" (none, or read) */
  char error[2400];            /* the last step's error, or "" */
  /* the session's own */
  int stu_in;                  /* the kernel file's run of this session is in */
  int has_solution;            /* grading: solutions/ holds the lab's solution */
};

/* Allocate the session's runs and grade. Returns GS_OK or GS_NO_MEMORY (then s needs no
   gs_free, but gs_free is safe). */
enum gs_status gs_init(struct gs_session *s);
void gs_free(struct gs_session *s);

/* Start a session with the inputs in (copied; in->lab and the strings in in->run must live
   as long as the session): s->step and s->next say the first run. */
void gs_begin(struct gs_session *s, const struct gs_input *in);

/* Take in the run of s->step, which the caller made with s->next into s->run: rc 0, or
   nonzero when it did not happen, with err (the run's own message). Returns GS_OK with the
   next step in s->step, or an error with s->error (then s->step is GS_STEP_DONE): the
   kernel file's run that did not happen (STUDENT_FAILED; the last session's outputs stay),
   or, grading, the reference solution's (REFERENCE_FAILED). Feedback goes on without a
   reference that did not run, saying why in s->ref_note. */
enum gs_status gs_ran(struct gs_session *s, int rc, const char *err);

/* Score s->stu against s->ref (when there is one) with the answers: s->grade, s->scored,
   s->answers, s->answers_note. Returns GS_OK, NO_RUBRIC or NOT_SCORED (why in s->error). */
enum gs_status gs_score(struct gs_session *s);

/* Do s->step in this process (run_lab_run, or gs_score). Returns as gs_ran or gs_score. */
enum gs_status gs_step(struct gs_session *s);

/* Do every step left in this process, up to the score. Returns GS_OK or the first error. */
enum gs_status gs_run(struct gs_session *s);

#endif
