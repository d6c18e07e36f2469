/* check_grade.c: the rubric's arithmetic (grader/grade.c) on hand-made runs: a metric target
 * met and missed; a target with no value for the reference solution (a GPU graded without
 * Nsight Compute) not counted, for every student alike, and said so in the note; a target
 * the reference was measured on but the submission was not scores nothing; performance
 * without a reference time not counted; both notes kept when both happen. */
#include <check.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "grader/grade.h"
#include "run/run.h"
#include "run/run_lab.h"
#include "suites.h"

#define SPR "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio"
#define TIME "gpu__time_duration.sum"

static const char *const RUBRIC =
  "{\"rubric\": {\"total\": 30,"
  " \"metrics\": {\"points\": 10, \"targets\": [{\"metric\": \"" SPR "\", \"max\": 4.0,"
  "   \"points\": 10, \"why\": \"whole sectors\"}]},"
  " \"performance\": {\"points\": 20, \"metric\": \"" TIME "\", \"full_within\": 1.2,"
  "   \"zero_beyond\": 2.0}}}";

static struct run_lab *lab_new(void)
{
  struct run_lab *lab = calloc(1, sizeof *lab);
  ck_assert_ptr_nonnull(lab);
  json_error_t e;
  lab->json = json_loads(RUBRIC, 0, &e);
  ck_assert_msg(lab->json != NULL, "%s", e.text);
  snprintf(lab->id, sizeof lab->id, "99-test");
  return lab;
}

static void lab_free(struct run_lab *lab)
{
  json_decref(lab->json);
  free(lab);
}

/* A correct run whose main configuration has the given metrics (a NULL name ends them). */
static struct run_result *run_new(const char *n1, double v1, const char *n2, double v2)
{
  struct run_result *r = calloc(1, sizeof *r);
  ck_assert_ptr_nonnull(r);
  r->built = 1;
  r->nchecks = 1;
  r->checks[0].state = RUN_CHECK_PASS;
  r->all_passed = 1;
  r->npoints = 1;
  struct run_point *p = &r->points[0];
  p->correct = 1;
  const char *names[2] = {n1, n2};
  double values[2] = {v1, v2};
  for (int i = 0; i < 2 && names[i]; i++) {
    struct run_metric *m = &p->metric[p->nmetrics++];
    snprintf(m->name, sizeof m->name, "%s", names[i]);
    m->value = values[i];
    m->defined = 1;
    snprintf(m->kind, sizeof m->kind, "measured");
  }
  return r;
}

static const struct grade_item *find(const struct grade_result *g, const char *prefix)
{
  for (uint32_t i = 0; i < g->nitems; i++)
    if (!strncmp(g->items[i].name, prefix, strlen(prefix)))
      return &g->items[i];
  return NULL;
}

static struct grade_result *score(const struct run_result *stu, const struct run_result *ref)
{
  struct run_lab *lab = lab_new();
  struct grade_result *g = calloc(1, sizeof *g);
  ck_assert_ptr_nonnull(g);
  char err[256] = "";
  ck_assert_msg(grade_score(lab, stu, ref, NULL, g, err, sizeof err) == 0, "%s", err);
  lab_free(lab);
  return g;
}

START_TEST(grade_target_met_and_missed)
{
  struct run_result *ref = run_new(SPR, 4, TIME, 100);
  struct run_result *good = run_new(SPR, 4, TIME, 110), *bad = run_new(SPR, 8, TIME, 150);
  struct grade_result *g = score(good, ref);
  ck_assert_double_eq(g->max, 30);
  ck_assert_double_eq(find(g, "metric target")->score, 10);
  ck_assert_double_eq(find(g, "performance")->score, 20);
  free(g);
  g = score(bad, ref);
  ck_assert_double_eq(g->max, 30);
  ck_assert_double_eq(find(g, "metric target")->score, 0);
  /* 1.5x: (2.0 - 1.5) / (2.0 - 1.2) of the 20 points */
  ck_assert_double_eq_tol(find(g, "performance")->score, 20 * 0.5 / 0.8, 1e-9);
  free(g);
  free(ref);
  free(good);
  free(bad);
}
END_TEST

START_TEST(grade_target_unmeasured_for_reference_is_not_counted)
{
  /* a GPU graded without Nsight Compute: times, no sectors, for both */
  struct run_result *ref = run_new(TIME, 100, NULL, 0), *stu = run_new(TIME, 100, NULL, 0);
  struct grade_result *g = score(stu, ref);
  ck_assert_double_eq(g->max, 20);
  ck_assert_double_eq(g->score, 20);
  ck_assert_ptr_null(find(g, "metric target"));
  ck_assert_msg(strstr(g->note, "metric target " SPR " (10 points) not scored") != NULL, "%s",
                g->note);
  free(g);
  free(ref);
  free(stu);
}
END_TEST

START_TEST(grade_target_unmeasured_for_student_scores_nothing)
{
  struct run_result *ref = run_new(SPR, 4, TIME, 100), *stu = run_new(TIME, 100, NULL, 0);
  struct grade_result *g = score(stu, ref);
  ck_assert_double_eq(g->max, 30);
  const struct grade_item *it = find(g, "metric target");
  ck_assert_ptr_nonnull(it);
  ck_assert_double_eq(it->score, 0);
  ck_assert_str_eq(it->output, "not measured on this backend");
  free(g);
  free(ref);
  free(stu);
}
END_TEST

START_TEST(grade_notes_accumulate)
{
  /* neither sectors nor a time for the reference: both parts out, both said */
  struct run_result *ref = run_new(NULL, 0, NULL, 0), *stu = run_new(SPR, 4, TIME, 1);
  struct grade_result *g = score(stu, ref);
  ck_assert_double_eq(g->max, 0);
  ck_assert_msg(strstr(g->note, "metric target") && strstr(g->note, "; performance (20 points) "
                "not scored"), "%s", g->note);
  free(g);
  free(ref);
  free(stu);
}
END_TEST

Suite *suite_grade(void)
{
  Suite *s = suite_create("grade");
  TCase *tc = tcase_create("rubric");
  tcase_add_test(tc, grade_target_met_and_missed);
  tcase_add_test(tc, grade_target_unmeasured_for_reference_is_not_counted);
  tcase_add_test(tc, grade_target_unmeasured_for_student_scores_nothing);
  tcase_add_test(tc, grade_notes_accumulate);
  suite_add_tcase(s, tc);
  return s;
}
