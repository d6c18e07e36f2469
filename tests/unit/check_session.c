/* check_session.c: the grading session's plan (grader/session.c) on hand-made runs, handed in
 * with gs_ran as the feedback screen hands in its child processes' runs: which run comes
 * next and with which options (the reference on the kernel file's seed and backend, main
 * size only; grading: the seed fixed and the reference first, hidden tests, the reference
 * again on another backend), where the reference comes from (the solution's own run, none
 * when it did not run), what a run that did not happen
 * means in each mode, and that the last session's outputs stay until a new run comes. */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grader/session.h"
#include "run/run.h"
#include "run/run_lab.h"
#include "suites.h"

static char root[64];

/* A lab at ROOT/labs/99-test (kernel file k.cu) whose solution is at ROOT/solutions/99-test
   when with_solution; a rubric of correctness only. */
static struct run_lab *lab_new(int with_solution)
{
  snprintf(root, sizeof root, "/tmp/check_session.XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(root));
  char sh[512];
  snprintf(sh, sizeof sh, "mkdir -p %s/labs/99-test %s/solutions/99-test", root, root);
  ck_assert_int_eq(system(sh), 0);
  snprintf(sh, sizeof sh, "touch %s/solutions/99-test/k.cu", root);
  ck_assert_int_eq(with_solution ? system(sh) : 0, 0);
  struct run_lab *lab = calloc(1, sizeof *lab);
  ck_assert_ptr_nonnull(lab);
  json_t *rubric = json_loads("{\"rubric\": {\"total\": 10, \"correctness\": {\"points\": 10}}}",
                              0, NULL);
  ck_assert_ptr_nonnull(rubric);
  char rerr[256];
  ck_assert_int_eq(run_rubric_parse(rubric, "lab.json", &lab->rubric, rerr, sizeof rerr), 0);
  json_decref(rubric);
  snprintf(lab->id, sizeof lab->id, "99-test");
  snprintf(lab->dir, sizeof lab->dir, "%s/labs/99-test", root);
  snprintf(lab->kernel_file, sizeof lab->kernel_file, "k.cu");
  return lab;
}

static void lab_free(struct run_lab *lab)
{
  char sh[128];
  snprintf(sh, sizeof sh, "rm -rf '%s'", root);
  ck_assert_int_eq(system(sh), 0);
  free(lab);
}

/* A run into s->run as a child's run would come back: built, correct, on backend be with
   seed, measured (one point) when measured. */
static void fake_run(struct gs_session *s, const char *be, uint64_t seed, int measured)
{
  struct run_result *r = s->run;
  memset(r, 0, sizeof *r);
  r->built = 1;
  r->nchecks = 1;
  r->checks[0].state = RUN_CHECK_PASS;
  r->all_passed = 1;
  r->npoints = measured ? 1 : 0;
  r->points[0].correct = 1;
  snprintf(r->prov.backend, sizeof r->prov.backend, "%s", be);
  r->prov.seed = seed;
  snprintf(r->prov.kernel_file, sizeof r->prov.kernel_file, "%s/nowhere/k.cu", root);
  snprintf(r->results_dir, sizeof r->results_dir, "%s/res", root);
}

START_TEST(feedback_reference_on_the_runs_inputs)
{
  struct run_lab *lab = lab_new(1);
  struct gs_session s;
  ck_assert_int_eq(gs_init(&s), GS_OK);
  struct gs_input in = {.mode = GS_FEEDBACK, .lab = lab};
  in.run.backend = RUN_BACKEND_AUTO;
  in.run.kernel_file = "mine.cu";
  in.run.profile = "a100";
  gs_begin(&s, &in);
  ck_assert_int_eq(s.step, GS_STEP_STUDENT);
  ck_assert_str_eq(s.next.kernel_file, "mine.cu");
  ck_assert_int_eq(s.next.quick, 0);                   /* the student's run as asked */
  fake_run(&s, "gpu", 42, 1);
  ck_assert_int_eq(gs_ran(&s, 0, NULL), GS_OK);
  ck_assert_int_eq(s.has_stu, 1);
  ck_assert_uint_eq(s.stu->prov.seed, 42);
  ck_assert_int_eq(s.step, GS_STEP_REFERENCE);
  ck_assert_ptr_null(s.next.kernel_file);
  ck_assert_int_eq(s.next.solution, 1);
  ck_assert_int_eq(s.next.have_seed, 1);
  ck_assert_uint_eq(s.next.seed, 42);
  ck_assert_int_eq(s.next.backend, RUN_BACKEND_GPU);   /* where "auto" ran it */
  ck_assert_int_eq(s.next.quick, 1);
  ck_assert_str_eq(s.next.profile, "a100");
  fake_run(&s, "gpu", 42, 1);
  ck_assert_int_eq(gs_ran(&s, 0, NULL), GS_OK);
  ck_assert_int_eq(s.ref_source, GS_REF_RUN);
  ck_assert_int_eq(s.step, GS_STEP_SCORE);
  ck_assert_int_eq(gs_score(&s), GS_OK);
  ck_assert_int_eq(s.scored, 1);
  ck_assert(s.grade->score == 10.0);
  ck_assert_str_eq(s.answers, "");
  ck_assert_str_eq(s.answers_note, "");                /* no answers.json: nothing wrong */
  ck_assert_int_eq(s.step, GS_STEP_DONE);
  gs_free(&s);
  lab_free(lab);
}
END_TEST

START_TEST(feedback_without_a_reference)
{
  struct run_lab *lab = lab_new(1);
  struct gs_session s;
  ck_assert_int_eq(gs_init(&s), GS_OK);
  struct gs_input in = {.mode = GS_FEEDBACK, .lab = lab};
  /* nothing measured: the reference runs all the same (the score's maximum counts it) */
  gs_begin(&s, &in);
  fake_run(&s, "", 1, 0);
  s.run->built = 0;
  ck_assert_int_eq(gs_ran(&s, 0, NULL), GS_OK);
  ck_assert_int_eq(s.step, GS_STEP_REFERENCE);
  ck_assert_int_eq(s.next.backend, RUN_BACKEND_EMU);   /* no backend: the emulator */
  /* the reference did not run: scored without it, and why */
  gs_begin(&s, &in);
  fake_run(&s, "emu", 2, 1);
  ck_assert_int_eq(gs_ran(&s, 0, NULL), GS_OK);
  ck_assert_int_eq(s.step, GS_STEP_REFERENCE);
  ck_assert_int_eq(gs_ran(&s, -1, "ptxas died"), GS_OK);
  ck_assert_int_eq(s.step, GS_STEP_SCORE);
  ck_assert_int_eq(s.ref_source, GS_REF_NONE);
  ck_assert_str_eq(s.ref_note, "the reference solution did not run: ptxas died");
  ck_assert_int_eq(gs_score(&s), GS_OK);
  /* the solution itself: its own run is the reference */
  in.run.solution = 1;
  gs_begin(&s, &in);
  fake_run(&s, "emu", 3, 1);
  ck_assert_int_eq(gs_ran(&s, 0, NULL), GS_OK);
  ck_assert_int_eq(s.step, GS_STEP_SCORE);
  ck_assert_int_eq(s.ref_source, GS_REF_SELF);
  ck_assert_uint_eq(s.ref->prov.seed, 3);
  /* a kernel file's run that did not happen: an error, and the last outputs stay */
  gs_begin(&s, &in);
  fake_run(&s, "emu", 4, 1);
  ck_assert_int_eq(gs_ran(&s, -1, "no GPU"), GS_STUDENT_FAILED);
  ck_assert_str_eq(s.error, "no GPU");
  ck_assert_int_eq(s.step, GS_STEP_DONE);
  ck_assert_int_eq(s.has_stu, 1);
  ck_assert_uint_eq(s.stu->prov.seed, 3);
  gs_free(&s);
  lab_free(lab);
}
END_TEST

START_TEST(grade_reference_first)
{
  struct run_lab *lab = lab_new(1);
  struct gs_session s;
  ck_assert_int_eq(gs_init(&s), GS_OK);
  struct gs_input in = {.mode = GS_GRADE, .lab = lab, .answers_dir = root};
  in.run.kernel_file = "sub/k.cu";
  in.run.backend = RUN_BACKEND_AUTO;
  gs_begin(&s, &in);
  /* the reference first, on a seed fixed now, main size only, with the hidden tests */
  ck_assert_int_eq(s.step, GS_STEP_REFERENCE);
  ck_assert_int_eq(s.next.solution, 1);
  ck_assert_ptr_null(s.next.kernel_file);
  ck_assert_int_eq(s.next.have_seed, 1);
  ck_assert_int_eq(s.next.quick, 1);
  ck_assert_int_eq(s.next.hidden_tests, 1);
  uint64_t seed = s.next.seed;
  fake_run(&s, "emu", seed, 1);
  ck_assert_int_eq(gs_ran(&s, 0, NULL), GS_OK);
  ck_assert_int_eq(s.ref_source, GS_REF_RUN);
  /* then the submission on the same seed */
  ck_assert_int_eq(s.step, GS_STEP_STUDENT);
  ck_assert_str_eq(s.next.kernel_file, "sub/k.cu");
  ck_assert_uint_eq(s.next.seed, seed);
  ck_assert_int_eq(s.next.hidden_tests, 1);
  /* built, then stopped for the kernel's reason: graded as one failed test, no path */
  fake_run(&s, "gpu", seed, 1);
  ck_assert_int_eq(gs_ran(&s, -1, "/home/i/x/kernel.ptx:9: cp.async is not run"), GS_OK);
  ck_assert_uint_eq(s.stu->nchecks, 1);
  ck_assert_int_eq(s.stu->checks[0].state, RUN_CHECK_FAIL);
  ck_assert_str_eq(s.stu->checks[0].detail, "kernel.ptx:9: cp.async is not run");
  ck_assert_uint_eq(s.stu->npoints, 0);
  /* it ran on the GPU, the reference on the emulator: the reference again, on the GPU */
  ck_assert_int_eq(s.step, GS_STEP_REFERENCE);
  ck_assert_int_eq(s.next.backend, RUN_BACKEND_GPU);
  ck_assert_uint_eq(s.next.seed, seed);
  fake_run(&s, "gpu", seed, 1);
  ck_assert_int_eq(gs_ran(&s, 0, NULL), GS_OK);
  ck_assert_int_eq(s.step, GS_STEP_SCORE);
  ck_assert_int_eq(gs_score(&s), GS_OK);
  ck_assert(s.grade->score == 0.0);
  /* answers from the submission's folder, read by submission_answers */
  char path[128];
  snprintf(path, sizeof path, "%s/answers.json", root);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs("[1, 2]", f);
  ck_assert_int_eq(fclose(f), 0);
  ck_assert_int_eq(gs_score(&s), GS_OK);
  ck_assert_ptr_nonnull(strstr(s.answers_note, "answers.json could not be read"));
  gs_free(&s);
  lab_free(lab);
}
END_TEST

START_TEST(grade_errors_are_values)
{
  struct run_lab *lab = lab_new(1);
  struct gs_session s;
  ck_assert_int_eq(gs_init(&s), GS_OK);
  struct gs_input in = {.mode = GS_GRADE, .lab = lab};
  in.run.have_seed = 1;
  in.run.seed = 7;
  /* the reference did not run: no grade */
  gs_begin(&s, &in);
  ck_assert_uint_eq(s.next.seed, 7);
  ck_assert_int_eq(gs_ran(&s, -1, "nvcc ran out of memory"), GS_REFERENCE_FAILED);
  ck_assert_str_eq(s.error, "nvcc ran out of memory");
  ck_assert_int_eq(s.step, GS_STEP_DONE);
  /* the submission's run left no result: no grade */
  gs_begin(&s, &in);
  fake_run(&s, "emu", 7, 1);
  ck_assert_int_eq(gs_ran(&s, 0, NULL), GS_OK);
  fake_run(&s, "emu", 7, 0);
  s.run->built = 0;
  ck_assert_int_eq(gs_ran(&s, -1, "killed"), GS_STUDENT_FAILED);
  /* a lab without a rubric is not scored */
  gs_begin(&s, &in);
  fake_run(&s, "emu", 7, 1);
  gs_ran(&s, 0, NULL);
  fake_run(&s, "emu", 7, 1);
  gs_ran(&s, 0, NULL);
  ck_assert_int_eq(s.step, GS_STEP_SCORE);
  memset(&lab->rubric, 0, sizeof lab->rubric);
  ck_assert_int_eq(gs_score(&s), GS_NO_RUBRIC);
  ck_assert_int_eq(s.scored, 0);
  ck_assert_str_eq(gs_status_text(GS_NO_RUBRIC), "the lab has no rubric");
  gs_free(&s);
  lab_free(lab);
}
END_TEST

/* A students' copy (no solutions/): no reference run in either mode; the shipped figures,
   or why there are none. */
START_TEST(students_copy_no_reference_run)
{
  struct run_lab *lab = lab_new(0);
  struct gs_session s;
  ck_assert_int_eq(gs_init(&s), GS_OK);
  struct gs_input in = {.mode = GS_GRADE, .lab = lab};
  gs_begin(&s, &in);
  ck_assert_int_eq(s.step, GS_STEP_STUDENT);
  fake_run(&s, "emu", 1, 1);
  ck_assert_int_eq(gs_ran(&s, 0, NULL), GS_OK);
  ck_assert_int_eq(s.step, GS_STEP_SCORE);
  ck_assert_int_eq(s.ref_source, GS_REF_NONE);
  ck_assert_ptr_nonnull(strstr(s.ref_note, "neither the reference solution nor its figures"));
  in.mode = GS_FEEDBACK;
  gs_begin(&s, &in);
  fake_run(&s, "emu", 1, 1);
  ck_assert_int_eq(gs_ran(&s, 0, NULL), GS_OK);
  ck_assert_int_eq(s.step, GS_STEP_SCORE);
  ck_assert_ptr_nonnull(strstr(s.ref_note, "neither the reference solution nor its figures"));
  gs_free(&s);
  lab_free(lab);
}
END_TEST

Suite *suite_session(void)
{
  Suite *s = suite_create("session");
  TCase *tc = tcase_create("plan");
  tcase_add_test(tc, feedback_reference_on_the_runs_inputs);
  tcase_add_test(tc, feedback_without_a_reference);
  tcase_add_test(tc, grade_reference_first);
  tcase_add_test(tc, grade_errors_are_values);
  tcase_add_test(tc, students_copy_no_reference_run);
  suite_add_tcase(s, tc);
  return s;
}
