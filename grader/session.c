/* session.c: one grading session: the kernel file's run, the reference solution's, the score
 * (see session.h). The order of the runs, the options each gets and what a run that did not
 * happen means are decided here, once, for `warplab grade`, `warplab run` and the feedback
 * screen. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grader/release.h"
#include "grader/session.h"
#include "grader/submission.h"

static const char *const status_text[] = {
#define X(name, meaning) meaning,
#include "grader/session_status.def"
#undef X
};

const char *gs_status_text(enum gs_status st)
{
  return (size_t)st < sizeof status_text / sizeof *status_text ? status_text[st] : "?";
}

enum gs_status gs_init(struct gs_session *s)
{
  memset(s, 0, sizeof *s);
  s->run = malloc(sizeof *s->run);
  s->stu = malloc(sizeof *s->stu);
  s->ref = malloc(sizeof *s->ref);
  s->grade = malloc(sizeof *s->grade);
  if (!s->run || !s->stu || !s->ref || !s->grade) {
    gs_free(s);
    snprintf(s->error, sizeof s->error, "%s", gs_status_text(GS_NO_MEMORY));
    return GS_NO_MEMORY;
  }
  s->step = GS_STEP_DONE;
  return GS_OK;
}

void gs_free(struct gs_session *s)
{
  free(s->run);
  free(s->stu);
  free(s->ref);
  free(s->grade);
  s->run = s->stu = s->ref = NULL;
  s->grade = NULL;
  s->has_stu = s->scored = 0;
  s->ref_source = GS_REF_NONE;
  s->step = GS_STEP_DONE;
}

/* The reference solution's options beside the kernel file's o: the solution, main size only. */
static struct run_opts reference_opts(const struct run_opts *o)
{
  struct run_opts so = *o;
  so.kernel_file = NULL;
  so.solution = 1;
  so.quick = 1;
  so.figures_only = 1;
  return so;
}

static enum run_backend backend_of(const struct run_result *r)
{
  return !strcmp(r->prov.backend, "gpu") ? RUN_BACKEND_GPU : RUN_BACKEND_EMU;
}

void gs_begin(struct gs_session *s, const struct gs_input *in)
{
  s->in = *in;
  s->error[0] = 0;
  s->stu_in = 0;
  if (in->mode == GS_GRADE) {
    /* the submission and the reference on the same inputs, known before either runs */
    if (!s->in.run.have_seed) {
      s->in.run.seed = run_fresh_seed();
      s->in.run.have_seed = 1;
    }
    s->in.run.quick = 1;
    s->in.run.hidden_tests = 1;
    s->has_solution = release_has_solution(in->lab);
    if (s->has_solution) {
      s->next = reference_opts(&s->in.run);
      s->step = GS_STEP_REFERENCE;
      return;
    }
  }
  s->next = s->in.run;
  s->step = GS_STEP_STUDENT;
}

/* A run that built, then stopped for a reason of the kernel's (its signature, what the
   emulator does not run): graded, every test "not run" with that reason, under one check. */
static void kernel_stopped(struct run_result *r, const char *err)
{
  const char *base = err;                     /* no instructor's path: "kernel.ptx:9: ..." */
  const char *colon = strchr(err, ':');
  if (err[0] == '/' && colon)
    for (const char *p = err; p < colon; p++)
      if (*p == '/')
        base = p + 1;
  struct run_check *k = &r->checks[0];
  memset(k, 0, sizeof *k);
  snprintf(k->label, sizeof k->label, "the run");
  k->state = RUN_CHECK_FAIL;
  k->first_bad = -1;
  snprintf(k->detail, sizeof k->detail, "%.700s", base);
  r->nchecks = 1;
  r->npoints = 0;
  r->all_passed = 0;
}

/* Take s->run in as the reference's run. */
static void take_reference(struct gs_session *s)
{
  struct run_result *x = s->ref;
  s->ref = s->run;
  s->run = x;
  s->ref->lab = s->in.lab;
  s->ref_source = GS_REF_RUN;
  s->ref_note[0] = 0;
}

/* The kernel file's run is in: where its reference comes from, and the next step. */
static void plan_reference(struct gs_session *s)
{
  const struct run_result *stu = s->stu;
  if (s->in.mode == GS_GRADE && s->has_solution) {
    /* "auto" chose otherwise for the submission (a GPU lost between the two): the reference
       again, on the submission's backend (a kernel that did not build has none) */
    if (stu->prov.backend[0] && strcmp(stu->prov.backend, s->ref->prov.backend)) {
      s->next = reference_opts(&s->in.run);
      s->next.backend = backend_of(stu);
      s->step = GS_STEP_REFERENCE;
      return;
    }
    s->step = GS_STEP_SCORE;
    return;
  }
  s->ref_source = GS_REF_NONE;
  s->ref_note[0] = 0;
  s->step = GS_STEP_SCORE;
  if (s->in.mode == GS_FEEDBACK && s->in.run.solution) {   /* the solution is what ran */
    memcpy(s->ref, stu, sizeof *s->ref);
    s->ref_source = GS_REF_SELF;
  } else if (s->in.mode == GS_GRADE || !release_has_solution(s->in.lab)) {
    /* a students' copy: the solution's figures shipped with it */
    if (release_reference_load(s->in.lab, stu, s->ref, s->ref_note, sizeof s->ref_note) == 0)
      s->ref_source = GS_REF_SHIPPED;
  } else {
    /* the solution on the run's inputs: its seed, the backend it ran on, main size only */
    s->next = reference_opts(&s->in.run);
    s->next.seed = stu->prov.seed;
    s->next.have_seed = 1;
    s->next.backend = backend_of(stu);
    s->step = GS_STEP_REFERENCE;
  }
}

static enum gs_status fail(struct gs_session *s, enum gs_status st, const char *err)
{
  snprintf(s->error, sizeof s->error, "%s", err && err[0] ? err : gs_status_text(st));
  s->step = GS_STEP_DONE;
  return st;
}

enum gs_status gs_ran(struct gs_session *s, int rc, const char *err)
{
  s->error[0] = 0;
  if (s->step == GS_STEP_REFERENCE) {
    if (rc && s->in.mode == GS_GRADE)
      return fail(s, GS_REFERENCE_FAILED, err);
    if (rc) {   /* feedback goes on without it, and says why */
      s->ref_source = GS_REF_NONE;
      snprintf(s->ref_note, sizeof s->ref_note, "the reference solution did not run: %.1000s",
               err && err[0] ? err : "no reason given");
      s->step = GS_STEP_SCORE;
      return GS_OK;
    }
    take_reference(s);
    if (s->in.mode == GS_GRADE && !s->stu_in) {
      s->next = s->in.run;
      s->step = GS_STEP_STUDENT;
    } else {
      s->step = GS_STEP_SCORE;
    }
    return GS_OK;
  }
  if (s->step != GS_STEP_STUDENT)
    return fail(s, GS_STUDENT_FAILED, "no run was expected at this step of the session");
  if (rc) {
    /* grading: a run that built and stopped for a reason of the kernel's is the student's
       result; any other run that did not happen is no result */
    if (s->in.mode != GS_GRADE || !s->run->built || !s->run->results_dir[0])
      return fail(s, GS_STUDENT_FAILED, err);
    kernel_stopped(s->run, err ? err : "");
  }
  struct run_result *x = s->stu;
  s->stu = s->run;
  s->run = x;
  s->stu->lab = s->in.lab;
  s->has_stu = 1;
  s->stu_in = 1;
  s->scored = 0;
  plan_reference(s);
  return GS_OK;
}

enum gs_status gs_score(struct gs_session *s)
{
  s->error[0] = 0;
  s->scored = 0;
  s->answers[0] = s->answers_note[0] = 0;
  if (!s->has_stu)
    return fail(s, GS_NOT_SCORED, "there is no run to score");
  const struct run_lab *lab = s->in.lab;
  if (!lab->rubric.present)
    return fail(s, GS_NO_RUBRIC, NULL);
  /* answers.json: in the submission's folder, else beside the kernel file */
  char dir[1100];
  if (s->in.answers_dir) {
    snprintf(dir, sizeof dir, "%s", s->in.answers_dir);
  } else {
    const char *kf = s->stu->prov.kernel_file, *slash = strrchr(kf, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - kf) : 1, slash ? kf : ".");
  }
  json_t *answers = submission_answers(dir, s->answers_note, sizeof s->answers_note);
  if (answers)
    snprintf(s->answers, sizeof s->answers, "%.1000s/answers.json", dir);
  char err[1024];
  int rc = grade_score(lab, s->stu, s->ref_source != GS_REF_NONE ? s->ref : NULL, answers,
                       s->grade, err, sizeof err);
  json_decref(answers);
  if (rc)
    return fail(s, GS_NOT_SCORED, err);
  s->scored = 1;
  s->step = GS_STEP_DONE;
  return GS_OK;
}

enum gs_status gs_step(struct gs_session *s)
{
  if (s->step == GS_STEP_SCORE)
    return gs_score(s);
  if (s->step == GS_STEP_DONE)
    return GS_OK;
  char err[2048];
  err[0] = 0;
  int rc = run_lab_run(s->in.lab, &s->next, s->run, err, sizeof err);
  return gs_ran(s, rc, err);
}

enum gs_status gs_run(struct gs_session *s)
{
  enum gs_status st = GS_OK;
  while (st == GS_OK && s->step != GS_STEP_DONE)
    st = gs_step(s);
  return st;
}
