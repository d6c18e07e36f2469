/* check_grade.c: the rubric's arithmetic (grader/grade.c) on hand-made runs: a metric target
 * met and missed; a target with no value for the reference solution (a GPU graded without
 * Nsight Compute) not counted, for every student alike, and said so in the note; a target
 * the reference was measured on but the submission was not scores nothing; performance
 * without a reference time not counted, and a correct submission without one told why; both
 * notes kept when both happen. A lab with test
 * sizes: the same test names whatever the kernel did (built, not built, not run by the
 * emulator), an edge size that fails costs its own points only; questions judged as given,
 * with their unit, how far off, the handout section and named type errors; integrity flags
 * only in what the instructor sees. */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
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
  json_t *root = json_loads(RUBRIC, 0, &e);
  ck_assert_msg(root != NULL, "%s", e.text);
  char err[256];
  ck_assert_msg(run_rubric_parse(root, "lab.json", &lab->rubric, err, sizeof err) == 0,
                "%s", err);
  json_decref(root);
  snprintf(lab->id, sizeof lab->id, "99-test");
  return lab;
}

static void lab_free(struct run_lab *lab)
{
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

START_TEST(grade_time_missing_for_a_correct_kernel_says_why)
{
  /* the reference timed, the submission correct but not (the emulator without its
     architecture profile): no points, and the reason is the run's, not "must be correct" */
  struct run_result *ref = run_new(SPR, 4, TIME, 100), *stu = run_new(SPR, 4, NULL, 0);
  snprintf(stu->prov.timing_note, sizeof stu->prov.timing_note, "no times or occupancy on the "
           "emulator: the default architecture profile could not be loaded: gone");
  struct grade_result *g = score(stu, ref);
  const struct grade_item *it = find(g, "performance");
  ck_assert_ptr_nonnull(it);
  ck_assert_double_eq(it->score, 0);
  ck_assert_str_eq(it->output, "not scored: no " TIME " for this kernel on this backend: no "
                   "times or occupancy on the emulator: the default architecture profile could "
                   "not be loaded: gone");
  free(g);
  /* an incorrect one still hears that first */
  stu->checks[0].state = RUN_CHECK_FAIL;
  g = score(stu, ref);
  ck_assert_str_eq(find(g, "performance")->output,
                   "not scored: the kernel must be correct on the main size");
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

/* A lab with two edge sizes and a main size, a correctness part, one target and questions. */
static const char *const RUBRIC2 =
  "{\"rubric\": {\"total\": 44,"
  " \"correctness\": {\"points\": 30},"
  " \"metrics\": {\"points\": 10, \"targets\": [{\"metric\": \"" SPR "\", \"max\": 4.0,"
  "   \"points\": 10, \"why\": \"whole sectors\"}]},"
  " \"questions\": {\"points\": 4, \"items\": ["
  "   {\"id\": \"q1\", \"answer\": 8, \"tolerance\": 0, \"unit\": \"warps\","
  "    \"method\": \"pencil\", \"section\": \"Exercise 1: warps\"},"
  "   {\"id\": \"q2\", \"answer\": 12288, \"tolerance\": 0, \"unit\": \"bytes\","
  "    \"method\": \"measure\", \"section\": \"Exercise 2: shared memory\"},"
  "   {\"id\": \"q3\", \"answer\": 50, \"tolerance\": 0.5, \"unit\": \"percent\"},"
  "   {\"id\": \"q4\", \"answer\": 0.671, \"tolerance\": 0.005, \"unit\": \"ms\"}]}}}";

static struct run_lab *lab2_new(void)
{
  struct run_lab *lab = calloc(1, sizeof *lab);
  ck_assert_ptr_nonnull(lab);
  json_error_t e;
  json_t *root = json_loads(RUBRIC2, 0, &e);
  ck_assert_msg(root != NULL, "%s", e.text);
  char err[256];
  ck_assert_msg(run_rubric_parse(root, "lab.json", &lab->rubric, err, sizeof err) == 0,
                "%s", err);
  json_decref(root);
  snprintf(lab->id, sizeof lab->id, "99-test");
  lab->ntests = 2;
  const int64_t n[3] = {1, 33, 4096};
  struct run_sizes *sz[3] = {&lab->tests[0], &lab->tests[1], &lab->emu};
  for (int i = 0; i < 3; i++) {
    sz[i]->n = 1;
    snprintf(sz[i]->name[0], sizeof sz[i]->name[0], "n");
    sz[i]->v[0] = n[i];
  }
  lab->gpu = lab->emu;
  return lab;
}

/* A run of lab2: built, its three checks in the given states, measured when the main size
   passed (as the run measures). */
static struct run_result *run2_new(enum run_check_state a, enum run_check_state b,
                                   enum run_check_state main)
{
  struct run_result *r = run_new(SPR, 4, TIME, 100);
  static const char *const labels[3] = {"n=1", "n=33", "n=4096 (main)"};
  enum run_check_state st[3] = {a, b, main};
  r->nchecks = 3;
  r->all_passed = 1;
  snprintf(r->prov.backend, sizeof r->prov.backend, "emu");
  for (int i = 0; i < 3; i++) {
    snprintf(r->checks[i].label, sizeof r->checks[i].label, "%s", labels[i]);
    r->checks[i].state = st[i];
    snprintf(r->checks[i].detail, sizeof r->checks[i].detail, "%s",
             st[i] == RUN_CHECK_PASS ? "" : "c[3] is wrong");
    r->all_passed &= st[i] == RUN_CHECK_PASS;
  }
  r->npoints = main == RUN_CHECK_PASS;
  return r;
}

static struct grade_result *score2(const struct run_result *stu, const struct run_result *ref,
                                   const char *answers)
{
  struct run_lab *lab = lab2_new();
  struct grade_result *g = calloc(1, sizeof *g);
  ck_assert_ptr_nonnull(g);
  json_error_t e;
  json_t *a = answers ? json_loads(answers, 0, &e) : NULL;
  ck_assert_msg(!answers || a, "%s", answers);
  char err[256] = "";
  ck_assert_msg(grade_score(lab, stu, ref, a, g, err, sizeof err) == 0, "%s", err);
  json_decref(a);
  lab_free(lab);
  return g;
}

/* The rubric's words: targets count whenever the main size is correct, and only the failing
   edge size loses its points. */
START_TEST(grade_edge_failure_keeps_targets)
{
  struct run_result *ref = run2_new(RUN_CHECK_PASS, RUN_CHECK_PASS, RUN_CHECK_PASS);
  struct run_result *stu = run2_new(RUN_CHECK_PASS, RUN_CHECK_FAULT, RUN_CHECK_PASS);
  struct grade_result *g = score2(stu, ref, NULL);
  ck_assert_double_eq(find(g, "correctness: n=1")->score, 10);
  ck_assert_double_eq(find(g, "correctness: n=33")->score, 0);
  ck_assert_double_eq(find(g, "correctness: n=4096 (main)")->score, 10);
  ck_assert_double_eq(find(g, "metric target")->score, 10);
  ck_assert_double_eq(g->score, 30);
  free(g);
  /* the main size wrong: the target is not scored, and says why */
  free(stu);
  stu = run2_new(RUN_CHECK_PASS, RUN_CHECK_PASS, RUN_CHECK_FAIL);
  g = score2(stu, ref, NULL);
  ck_assert_double_eq(find(g, "metric target")->score, 0);
  ck_assert_ptr_nonnull(strstr(find(g, "metric target")->output, "main size"));
  free(g);
  free(stu);
  free(ref);
}
END_TEST

/* The hints of g, one after another, for strstr. */
static const char *hints_of(const struct grade_result *g)
{
  static char buf[GRADE_MAX_HINTS * 800];
  size_t k = 0;
  buf[0] = 0;
  for (uint32_t i = 0; i < g->nhints && k < sizeof buf; i++) {
    int w = snprintf(buf + k, sizeof buf - k, "%s\n", g->hints[i]);
    k += w > 0 ? (size_t)w : 0;
  }
  return buf;
}

/* Each kind of fault gets its own hint: what to look at for it, never "guard every index"
   for a fault an index guard does not fix. */
START_TEST(grade_fault_hints_fit_the_fault)
{
  static const struct {
    const char *kind, *place, *want;
  } cases[] = {
    {"budget_exceeded", "", "exit condition"},
    {"out_of_bounds", "null", "null pointer"},
    {"invalid_address_space", "null", "null pointer"},
    {"out_of_bounds", "wild", "wild pointer"},
    {"out_of_bounds", "one_past", "i < n, not i <= n"},
    {"out_of_bounds", "before", "negative index"},
    {"out_of_bounds", "past", "Guard every index"},
    {"race", "", "__syncthreads() (or __syncwarp()"},
    {"uninitialized_read", "", "no thread had written"},
    {"sync_mask", "", "the mask must name exactly the lanes"},
    {"deadlock", "", "never reach"},
  };
  struct run_result *ref = run2_new(RUN_CHECK_PASS, RUN_CHECK_PASS, RUN_CHECK_PASS);
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    struct run_result *stu = run2_new(RUN_CHECK_PASS, RUN_CHECK_FAULT, RUN_CHECK_PASS);
    snprintf(stu->checks[1].fault_kind, sizeof stu->checks[1].fault_kind, "%s", cases[i].kind);
    snprintf(stu->checks[1].fault_place, sizeof stu->checks[1].fault_place, "%s", cases[i].place);
    snprintf(stu->checks[1].fault_file, sizeof stu->checks[1].fault_file, "/x/k.cu");
    stu->checks[1].fault_line = 12;
    struct grade_result *g = score2(stu, ref, NULL);
    const char *h = hints_of(g);
    ck_assert_msg(strstr(h, cases[i].want) && strstr(h, "k.cu:12 (n=33)"), "%s/%s: %s",
                  cases[i].kind, cases[i].place, h);
    ck_assert_msg(!strcmp(cases[i].place, "past") || !strstr(h, "Guard every index"), "%s/%s: %s",
                  cases[i].kind, cases[i].place, h);
    free(g);
    free(stu);
  }
  free(ref);
}
END_TEST

/* Tests that fail on another architecture profile (wave64) while the others pass get a hint
   about warp width, so the hint list is never empty while points are lost. */
START_TEST(grade_failed_arch_tests_hinted)
{
  struct run_result *ref = run2_new(RUN_CHECK_PASS, RUN_CHECK_PASS, RUN_CHECK_PASS);
  struct run_result *stu = run2_new(RUN_CHECK_FAIL, RUN_CHECK_PASS, RUN_CHECK_PASS);
  snprintf(stu->checks[0].label, sizeof stu->checks[0].label, "n=1 arch=wave64");
  struct grade_result *g = score2(stu, ref, NULL);
  ck_assert_msg(strstr(hints_of(g), "1 test on another architecture profile failed (n=1 "
                       "arch=wave64)") && strstr(hints_of(g), "warpSize"), "%s", hints_of(g));
  free(g);
  snprintf(stu->checks[0].label, sizeof stu->checks[0].label, "n=1");
  g = score2(stu, ref, NULL);
  ck_assert_msg(strstr(hints_of(g), "1 of 3 tests failed (n=1)"), "%s", hints_of(g));
  free(g);
  free(stu);
  free(ref);
}
END_TEST

/* A hotspot the reference solution's run shows too (same kind, no more than twice its cost)
   is expected in the lab: not hinted, and marked; one the reference lacks, or far worse, is. */
START_TEST(grade_hotspots_judged_against_reference)
{
  struct run_result *ref = run2_new(RUN_CHECK_PASS, RUN_CHECK_PASS, RUN_CHECK_PASS);
  struct run_result *stu = run2_new(RUN_CHECK_PASS, RUN_CHECK_PASS, RUN_CHECK_PASS);
  static const char *const kinds[3] = {"divergent", "uncoalesced", "divergent"};
  static const double weights[3] = {100, 50, 1000};
  for (int i = 0; i < 3; i++) {
    struct run_hotspot *h = &stu->hot[i];
    snprintf(h->file, sizeof h->file, "/x/k.cu");
    h->line = 10u + (uint32_t)i;
    snprintf(h->kind, sizeof h->kind, "%s", kinds[i]);
    snprintf(h->text, sizeof h->text, "finding %d", i);
    h->weight = weights[i];
  }
  stu->nhot = 3;
  snprintf(ref->hot[0].kind, sizeof ref->hot[0].kind, "divergent");
  snprintf(ref->hot[0].file, sizeof ref->hot[0].file, "/x/ref.cu");
  ref->hot[0].weight = 80;
  ref->nhot = 1;
  struct grade_result *g = score2(stu, ref, NULL);
  const char *h = hints_of(g);
  ck_assert_msg(!strstr(h, "finding 0"), "%s", h);    /* the reference's own pattern */
  ck_assert_msg(strstr(h, "k.cu:11: finding 1."), "%s", h);   /* a kind it lacks */
  ck_assert_msg(strstr(h, "k.cu:12: finding 2."), "%s", h);   /* 12.5 times the reference's */
  ck_assert_uint_eq(g->hot_expected, 1u);
  free(g);
  ref->nhot = 0;                                      /* a reference with no finding */
  g = score2(stu, ref, NULL);
  ck_assert_msg(strstr(hints_of(g), "finding 0"), "%s", hints_of(g));
  ck_assert_uint_eq(g->hot_expected, 0u);
  free(g);
  free(stu);
  free(ref);
}
END_TEST

/* The test names of results.json do not depend on what the kernel did. */
static char *names_of(const struct grade_result *g)
{
  static char buf[4096];
  size_t k = 0;
  buf[0] = 0;
  for (uint32_t i = 0; i < g->nitems && k < sizeof buf; i++)
    k += (size_t)snprintf(buf + k, sizeof buf - k, "%s|", g->items[i].name);
  return strdup(buf);
}

START_TEST(grade_same_tests_whatever_happens)
{
  struct run_result *ref = run2_new(RUN_CHECK_PASS, RUN_CHECK_PASS, RUN_CHECK_PASS);
  struct grade_result *g = score2(ref, ref, NULL);
  char *want = names_of(g);
  ck_assert_int_eq(g->nitems, 3 + 1 + 4);
  free(g);
  /* not built: every test at 0, "not run", the compiler's message under the first */
  struct run_result *nb = calloc(1, sizeof *nb);
  ck_assert_ptr_nonnull(nb);
  snprintf(nb->build_log, sizeof nb->build_log, "k.cu:12: error: expected a \";\"");
  g = score2(nb, ref, NULL);
  char *got = names_of(g);
  ck_assert_str_eq(got, want);
  ck_assert_double_eq(g->score, 0);
  ck_assert_double_eq(g->max, 44);
  ck_assert_msg(strstr(g->items[0].output, "not run: the kernel did not build") &&
                strstr(g->items[0].output, "k.cu:12: error"), "%s", g->items[0].output);
  ck_assert_ptr_nonnull(strstr(g->items[2].output, "not run: the kernel did not build"));
  free(g);
  free(got);
  /* built, but the emulator does not run it: one check that says why, named in every test */
  struct run_result *un = calloc(1, sizeof *un);
  ck_assert_ptr_nonnull(un);
  un->built = 1;
  un->nchecks = 1;
  snprintf(un->prov.backend, sizeof un->prov.backend, "emu");
  snprintf(un->checks[0].label, sizeof un->checks[0].label, "emulator support");
  un->checks[0].state = RUN_CHECK_FAIL;
  snprintf(un->checks[0].detail, sizeof un->checks[0].detail, "the emulator does not run this "
           "kernel: unsupported instruction 'cp.async.ca.shared.global' (PTX line 69), from "
           "k.cu:12");
  g = score2(un, ref, NULL);
  got = names_of(g);
  ck_assert_str_eq(got, want);
  ck_assert_double_eq(g->score, 0);
  for (uint32_t i = 0; i < 3; i++)
    ck_assert_msg(strstr(g->items[i].output, "not run: ") &&
                  strstr(g->items[i].output, "cp.async") && strstr(g->items[i].output, "k.cu:12"),
                  "%s", g->items[i].output);
  ck_assert_msg(g->nhints >= 1 && strstr(g->hints[0], "k.cu:12"), "%s", g->hints[0]);
  free(g);
  free(got);
  free(want);
  free(nb);
  free(un);
  free(ref);
}
END_TEST

static const struct grade_item *graded(const char *answers, const char *id)
{
  static struct grade_item it;
  struct run_result *ref = run2_new(RUN_CHECK_PASS, RUN_CHECK_PASS, RUN_CHECK_PASS);
  struct grade_result *g = score2(ref, ref, answers);
  char name[32];
  snprintf(name, sizeof name, "question %s", id);
  const struct grade_item *x = find(g, name);
  ck_assert_ptr_nonnull(x);
  it = *x;
  free(g);
  free(ref);
  return &it;
}

START_TEST(grade_answers_as_given)
{
  /* right, with the unit named */
  const struct grade_item *it = graded("{\"q1\": 8}", "q1");
  ck_assert_double_eq(it->score, 1);
  ck_assert_msg(strstr(it->output, "8 warps: right"), "%s", it->output);
  /* shown as given, judged with the tolerance (0): 8.0000001 is not 8 */
  it = graded("{\"q1\": 8.0000001}", "q1");
  ck_assert_double_eq(it->score, 0);
  ck_assert_msg(strstr(it->output, "you answered 8.0000001 warps"), "%s", it->output);
  ck_assert_msg(strstr(it->output, "close"), "%s", it->output);
  /* within the tolerance: right */
  it = graded("{\"q4\": 0.674}", "q4");
  ck_assert_double_eq(it->score, 1);
  ck_assert_msg(strstr(it->output, "0.674 ms: right"), "%s", it->output);
  /* a string is named as a string, not as no answer */
  it = graded("{\"q1\": \"4\"}", "q1");
  ck_assert_double_eq(it->score, 0);
  ck_assert_msg(strstr(it->output, "\"4\" is a string where a number is expected"), "%s",
                it->output);
  ck_assert_ptr_null(strstr(it->output, "no answer"));
  it = graded("{\"q1\": [8]}", "q1");
  ck_assert_msg(strstr(it->output, "is a list where a number is expected"), "%s", it->output);
  it = graded("{}", "q1");
  ck_assert_msg(strstr(it->output, "no answer given") && strstr(it->output, "in warps"), "%s",
                it->output);
}
END_TEST

START_TEST(grade_answer_feedback)
{
  /* a pencil question is sent back to the handout's section, not to warplab */
  const struct grade_item *it = graded("{\"q1\": 16}", "q1");
  ck_assert_double_eq(it->score, 0);
  ck_assert_msg(strstr(it->output, "too high") && strstr(it->output, "Work it out again") &&
                strstr(it->output, "handouts/99-test.md, section 'Exercise 1: warps'"), "%s",
                it->output);
  ck_assert_ptr_null(strstr(it->output, "warplab"));
  /* a measured one to warplab; 12 for 12288 bytes: a slip of unit, and the unit named */
  it = graded("{\"q2\": 12}", "q2");
  ck_assert_msg(strstr(it->output, "1024 times too low") && strstr(it->output, "in bytes") &&
                strstr(it->output, "Measure it with warplab"), "%s", it->output);
  /* a fraction for a percent */
  it = graded("{\"q3\": 0.5}", "q3");
  ck_assert_msg(strstr(it->output, "100 times too low") && strstr(it->output, "in percent"),
                "%s", it->output);
  /* far off, no unit slip: the factor, rounded */
  it = graded("{\"q3\": 5}", "q3");
  ck_assert_msg(strstr(it->output, "about 10 times too low"), "%s", it->output);
  it = graded("{\"q3\": -50}", "q3");
  ck_assert_msg(strstr(it->output, "the sign is wrong"), "%s", it->output);
}
END_TEST

/* The integrity flag: a hidden test and extra_data, never the visible output. */
START_TEST(grade_integrity_hidden)
{
  struct run_result *ref = run2_new(RUN_CHECK_PASS, RUN_CHECK_PASS, RUN_CHECK_PASS);
  struct run_result *stu = run2_new(RUN_CHECK_PASS, RUN_CHECK_PASS, RUN_CHECK_PASS);
  snprintf(stu->integrity, sizeof stu->integrity, "reads %%clock64 at k.cu:9");
  struct grade_result *g = score2(stu, ref, NULL);
  json_t *j = grade_gradescope_json(g);
  ck_assert_ptr_null(strstr(json_string_value(json_object_get(j, "output")), "clock64"));
  json_t *tests = json_object_get(j, "tests"), *t;
  size_t i;
  int hidden = 0;
  json_array_foreach(tests, i, t) {
    const char *out = json_string_value(json_object_get(t, "output"));
    const char *vis = json_string_value(json_object_get(t, "visibility"));
    if (strstr(out, "clock64")) {
      ck_assert_str_eq(vis, "hidden");
      hidden++;
    }
  }
  ck_assert_int_eq(hidden, 1);
  ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "extra_data"),
                                                     "integrity")), "reads %clock64 at k.cu:9");
  json_decref(j);
  free(g);
  free(stu);
  free(ref);
}
END_TEST

Suite *suite_grade(void)
{
  Suite *s = suite_create("grade");
  TCase *tc = tcase_create("rubric");
  tcase_add_test(tc, grade_target_met_and_missed);
  tcase_add_test(tc, grade_target_unmeasured_for_reference_is_not_counted);
  tcase_add_test(tc, grade_target_unmeasured_for_student_scores_nothing);
  tcase_add_test(tc, grade_time_missing_for_a_correct_kernel_says_why);
  tcase_add_test(tc, grade_notes_accumulate);
  tcase_add_test(tc, grade_edge_failure_keeps_targets);
  tcase_add_test(tc, grade_same_tests_whatever_happens);
  tcase_add_test(tc, grade_answers_as_given);
  tcase_add_test(tc, grade_answer_feedback);
  tcase_add_test(tc, grade_integrity_hidden);
  tcase_add_test(tc, grade_fault_hints_fit_the_fault);
  tcase_add_test(tc, grade_failed_arch_tests_hinted);
  tcase_add_test(tc, grade_hotspots_judged_against_reference);
  suite_add_tcase(s, tc);
  return s;
}
