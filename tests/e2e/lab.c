/* lab.c: end-to-end tests of `warplab run`: lab 01's reference solution passes and is
 * measured; the starter (which writes nothing) is caught by the poisoned output; a kernel
 * without bounds checks faults at the right line; a wrong index fails with the first bad
 * element; a compile error stops the run with its line; a wrong signature is named; a seed
 * replays a run. Everything on the emulator, with results in the test's temporary folder. */
#include <check.h>
#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "e2e.h"

#define LAB_TIMEOUT_S 300

static struct e2e_run *run_lab(const char *kernel_file, const char *extra)
{
  const char *res = e2e_tmp("results");
  if (!kernel_file)
    return e2e_warplab("run", "01", "--solution", "--backend", "emu", "--json", "--results", res,
                       extra, (char *)NULL);
  return e2e_warplab("run", "01", "--kernel-file", kernel_file, "--backend", "emu", "--json",
                     "--results", res, "--quick", extra, (char *)NULL);
}

START_TEST(lab01_solution_passes)
{
  struct e2e_run *r = run_lab(NULL, NULL);
  ck_assert_msg(r->status == 0, "%s exited %d\n%.3000s\n%.2000s", r->cmd, r->status, r->out, r->err);
  ck_assert_msg(json_is_true(e2e_j(r->json, "all_passed")), "%.3000s", r->out);
  ck_assert_int_eq(json_array_size(e2e_j(r->json, "tests")), 6);
  ck_assert_str_eq(e2e_jstr(r, "provenance/backend"), "emu");
  /* the main point and the ten block shapes of the sweep, all correct */
  json_t *pts = e2e_j(r->json, "points");
  ck_assert_int_eq(json_array_size(pts), 11);
  size_t i;
  json_t *p;
  json_array_foreach(pts, i, p) {
    ck_assert(json_is_true(json_object_get(p, "correct")));
    json_t *spr = e2e_j(p, "metrics/l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio/value");
    ck_assert_ptr_nonnull(spr);
    const char *label = json_string_value(json_object_get(p, "label"));
    /* a full-width row of 4-byte floats: 4 sectors per request; 4-wide blocks: 8 */
    double want = !strcmp(label, "4x64") ? 8.0 : 4.0;
    ck_assert_msg(json_real_value(spr) == want, "%s: %g sectors per request, expected %g", label,
                  json_real_value(spr), want);
  }
  char path[1200];
  snprintf(path, sizeof path, "%s/result.json", e2e_jstr(r, "results_dir"));
  char *saved = e2e_read_text(path);
  ck_assert_ptr_nonnull(saved);
  ck_assert_ptr_nonnull(strstr(saved, "\"all_passed\": true"));
}
END_TEST

/* On the Fermi profile the sweep adds nvprof's gld_efficiency: 128 bytes over 128 bytes per
   line a warp touches. The 16-wide shapes give the 2010 lesson's 50%; q7 asks for the 8-wide
   ones, whose warps touch four lines: 25%, the rubric's answer. */
START_TEST(lab01_fermi_efficiency_is_q7)
{
  struct e2e_run *r = e2e_warplab("run", "01", "--solution", "--backend", "emu", "--arch",
                                  "fermi-m2070", "--json", "--results", e2e_tmp("results"),
                                  (char *)NULL);
  ck_assert_msg(r->status == 0, "%s exited %d\n%.3000s", r->cmd, r->status, r->err);
  json_t *lab = e2e_load_json("labs/01-matrix-add/lab.json");
  double q7 = e2e_rubric_answer(lab, "q7");
  json_decref(lab);
  static const struct { const char *label; double eff; } want[] = {
    {"16x16", 50}, {"16x32", 50}, {"8x8", 25}, {"8x32", 25}};
  for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
    json_t *v = e2e_j(e2e_point(r, "block shapes", want[i].label), "metrics/gld_efficiency/value");
    ck_assert_msg(json_is_number(v), "%s: no gld_efficiency", want[i].label);
    ck_assert_msg(json_number_value(v) == want[i].eff, "%s: gld_efficiency %g, expected %g",
                  want[i].label, json_number_value(v), want[i].eff);
    if (want[i].label[0] == '8')
      ck_assert_msg(json_number_value(v) == q7, "%s: gld_efficiency %g, the rubric's q7 %g",
                    want[i].label, json_number_value(v), q7);
  }
}
END_TEST

/* The 2010 table of handouts/01-matrix-add.md ("A lesson from 2010": the four classic block
   shapes timed on a Tesla M2070), read from the handout: block label ("32x16") and time. */
struct table_row { char label[16]; double ms; };

static int read_2010_table(struct table_row *rows, int max)
{
  char *text = e2e_read_text("handouts/01-matrix-add.md");
  ck_assert_ptr_nonnull(text);
  char *sec = strstr(text, "## A lesson from 2010");
  ck_assert_ptr_nonnull(sec);
  char *end = strstr(sec + 3, "\n## ");
  if (end)
    *end = '\0';
  int n = 0;
  for (char *line = sec; line && n < max; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
    int bx, by;
    if (sscanf(line, "| %d x %d |", &bx, &by) != 2)
      continue;
    /* the time is the first cell that reads "N ms" (bold or not) */
    char *cell = line;
    double ms = -1;
    while ((cell = strchr(cell + 1, '|')) && *(cell + 1) != '\n' && ms < 0) {
      char *c = cell + 1;
      while (*c == ' ' || *c == '*')
        c++;
      char unit[8] = "";
      if (sscanf(c, "%lf %3s", &ms, unit) != 2 || strncmp(unit, "ms", 2))
        ms = -1;
    }
    if (ms <= 0)
      continue;
    snprintf(rows[n].label, sizeof rows[n].label, "%dx%d", bx, by);
    rows[n].ms = ms;
    n++;
  }
  return n;
}

/* The Fermi profile reproduces the handout's 2010 table: the four shapes in the table's order
   of time, 32 x 16 ahead of 16 x 16 by at least half the table's margin, and every shape's
   time over the fastest one's within 20% of the table's ratio. (The emulator's size is 1024 x
   512, the table's 16384 x 16384: ratios, not times.) */
START_TEST(lab01_fermi_times_follow_2010)
{
  struct table_row t[8];
  int n = read_2010_table(t, 8);
  ck_assert_int_eq(n, 4);
  struct e2e_run *r = e2e_warplab("run", "01", "--solution", "--backend", "emu", "--arch",
                                  "fermi-m2070", "--json", "--results", e2e_tmp("results"),
                                  (char *)NULL);
  ck_assert_msg(r->status == 0, "%s exited %d\n%.3000s", r->cmd, r->status, r->err);
  double m[8];
  int best = 0;
  for (int i = 0; i < n; i++) {
    json_t *v = e2e_j(e2e_point(r, "block shapes", t[i].label), "metrics/gpu__time_duration.sum/value");
    ck_assert_msg(json_is_number(v), "%s: no modelled time", t[i].label);
    m[i] = json_number_value(v);
    if (t[i].ms < t[best].ms)
      best = i;
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      if (t[i].ms < t[j].ms)
        ck_assert_msg(m[i] < m[j], "%s (%g ms in 2010) modelled %g ns, not ahead of %s (%g ms) "
                      "at %g ns", t[i].label, t[i].ms, m[i], t[j].label, t[j].ms, m[j]);
  for (int i = 0; i < n; i++) {
    double want = t[i].ms / t[best].ms, got = m[i] / m[best];
    ck_assert_msg(fabs(got - want) <= 0.2 * want, "%s: %.2f times %s's time, the 2010 table %.2f",
                  t[i].label, got, t[best].label, want);
    if (!strcmp(t[i].label, "16x16") && !strcmp(t[best].label, "32x16"))
      ck_assert_msg(got >= 1 + (want - 1) / 2, "16x16: %.2f times 32x16's time, the 2010 table "
                    "%.2f", got, want);
  }
}
END_TEST

START_TEST(lab01_starter_is_poisoned)
{
  struct e2e_run *r = run_lab("labs/01-matrix-add/matrix_add.cu", NULL);
  ck_assert_int_eq(r->status, 1);
  json_t *t = e2e_test_at(r, "nx=1 ny=1");
  ck_assert_str_eq(e2e_state_of(t), "fail");
  ck_assert_int_eq(json_integer_value(json_object_get(t, "first_bad")), 0);
  ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(t, "detail")), "never wrote"));
  ck_assert_int_eq(json_array_size(e2e_j(r->json, "points")), 0);  /* no measurements */
}
END_TEST

START_TEST(lab01_no_bounds_faults_at_its_line)
{
  const char *k = "tests/e2e/lab01/no_bounds.cu";
  struct e2e_run *r = run_lab(k, NULL);
  ck_assert_int_eq(r->status, 1);
  json_t *t = e2e_test_at(r, "nx=33 ny=17");
  ck_assert_str_eq(e2e_state_of(t), "fault");
  ck_assert_int_eq(json_integer_value(e2e_j(t, "source/line")), e2e_marker_line(k, "NO-BOUNDS"));
  ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(t, "detail")), "out of bounds"));
}
END_TEST

START_TEST(lab01_wrong_index_first_bad)
{
  struct e2e_run *r = run_lab("tests/e2e/lab01/wrong_index.cu", NULL);
  ck_assert_int_eq(r->status, 1);
  ck_assert_str_eq(e2e_state_of(e2e_test_at(r, "nx=1 ny=1")), "pass");   /* 1x1: x and y agree */
  json_t *t = e2e_test_at(r, "nx=33 ny=17");
  ck_assert_str_eq(e2e_state_of(t), "fail");
  /* c[1] = a[1*17 + 0] + b[1]: the first element whose row and column differ */
  ck_assert_int_eq(json_integer_value(json_object_get(t, "first_bad")), 1);
  ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(t, "detail")), "c[1] is wrong"));
}
END_TEST

START_TEST(lab01_compile_error_line)
{
  const char *k = "tests/e2e/lab01/compile_error.cu";
  struct e2e_run *r = run_lab(k, NULL);
  ck_assert_int_eq(r->status, 3);
  ck_assert(json_is_false(e2e_j(r->json, "built")));
  const char *log = e2e_jstr(r, "build_log");
  int line = e2e_marker_line(k, "COMPILE-ERROR");
  /* nvcc reports a missing ';' where the next token stands: the marked line or the next */
  ck_assert_msg(e2e_mentions_line(log, "compile_error.cu", line) ||
                e2e_mentions_line(log, "compile_error.cu", line + 1),
                "the build log does not point at line %d:\n%s", line, log);
}
END_TEST

START_TEST(lab01_wrong_signature)
{
  struct e2e_run *r = run_lab("tests/e2e/lab01/wrong_signature.cu", NULL);
  ck_assert_int_eq(r->status, 1);
  json_t *t = e2e_test_at(r, "kernel signature");
  ck_assert_str_eq(e2e_state_of(t), "fail");
  ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(t, "detail")), "takes 4 parameters, the lab needs 5"));
}
END_TEST

/* A choice set to 0 in the kernel file is read as 0 (nvcc leaves no initialiser for a zero
   __constant__), not replaced by lab.json's default: the run says the launch is impossible. */
START_TEST(lab01_zero_choice_is_read)
{
  char *src = e2e_read_text("solutions/01-matrix-add/matrix_add.cu");
  char *at = strstr(src, "__constant__ int BLOCK_Y = ");
  ck_assert_ptr_nonnull(at);
  char *end = strchr(at, ';');
  ck_assert_ptr_nonnull(end);
  char *text = e2e_fmt("%.*s__constant__ int BLOCK_Y = 0%s", (int)(at - src), src, end);
  struct e2e_run *r = run_lab(e2e_write("matrix_add.cu", text, strlen(text)), NULL);
  ck_assert_int_eq(r->status, 1);
  json_t *t = e2e_test_at(r, "nx=1 ny=1");
  ck_assert_str_eq(e2e_state_of(t), "fail");
  const char *detail = json_string_value(json_object_get(t, "detail"));
  ck_assert_msg(strstr(detail, "BLOCK_Y=0") != NULL, "%s", detail);
}
END_TEST

/* A block 4 threads wide wastes half of every sector: the run says so and names the line of
   the loads; the grader passes it on as a hint. */
START_TEST(lab01_hotspot_names_the_line)
{
  char *src = e2e_read_text("solutions/01-matrix-add/matrix_add.cu");
  char *x = strstr(src, "__constant__ int BLOCK_X = "), *y = strstr(src, "__constant__ int BLOCK_Y = ");
  ck_assert(x && y && x < y);
  char *text = e2e_fmt("%.*s__constant__ int BLOCK_X = 4;\n__constant__ int BLOCK_Y = 64;%s",
                       (int)(x - src), src, strchr(y, ';') + 1);
  const char *file = e2e_write("matrix_add.cu", text, strlen(text));
  struct e2e_run *r = run_lab(file, NULL);
  ck_assert_msg(r->status == 0, "%s\n%s", r->out, r->err);
  json_t *hot = e2e_j(r->json, "hotspots");
  ck_assert_int_ge(json_array_size(hot), 1);
  int want = e2e_marker_line(file, "c[i] = a[i] + b[i];");
  ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(hot, 0), "line")), want);
  ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(json_array_get(hot, 0), "finding")),
                               "use 50% of the bytes they move (8.0 sectors per request)"));
}
END_TEST

START_TEST(lab01_seed_replays)
{
  struct e2e_run *a = e2e_warplab("run", "01", "--solution", "--backend", "emu", "--json", "--quick",
                                  "--seed", "4242", "--results", e2e_tmp("r1"), (char *)NULL);
  struct e2e_run *b = e2e_warplab("run", "01", "--solution", "--backend", "emu", "--json", "--quick",
                                  "--seed", "4242", "--results", e2e_tmp("r2"), (char *)NULL);
  ck_assert_int_eq(a->status, 0);
  ck_assert_int_eq(b->status, 0);
  ck_assert_int_eq(e2e_jint(a, "provenance/seed"), 4242);
  char *ja = json_dumps(e2e_j(a->json, "points"), JSON_SORT_KEYS);
  char *jb = json_dumps(e2e_j(b->json, "points"), JSON_SORT_KEYS);
  ck_assert_str_eq(ja, jb);
  free(ja);
  free(jb);
}
END_TEST

/* A kept reference run (the cache of solution runs with a seed) stands for a new run only when
   its results folder is under this run's --results and still there: a run of seed 4242 in r2
   after one in r1 gets its own folder in r2, and a run whose kept folder --keep 1 removed is
   run again into a new folder, report and charts written. */
START_TEST(lab01_kept_run_has_its_folder)
{
  const char *r1 = e2e_tmp("r1"), *r2 = e2e_tmp("r2");
  struct e2e_run *a = e2e_warplab("run", "01", "--solution", "--backend", "emu", "--json", "--quick",
                                  "--seed", "4242", "--results", r1, (char *)NULL);
  struct e2e_run *b = e2e_warplab("run", "01", "--solution", "--backend", "emu", "--json", "--quick",
                                  "--seed", "4242", "--results", r2, (char *)NULL);
  ck_assert_int_eq(a->status, 0);
  ck_assert_int_eq(b->status, 0);
  const char *dir = e2e_jstr(b, "results_dir");
  ck_assert_msg(!strncmp(dir, r2, strlen(r2)), "%s is not under %s", dir, r2);
  ck_assert_int_eq(access(e2e_fmt("%s/result.json", dir), R_OK), 0);
  /* seed 4242 again in r1 after another seed's run with --keep 1 removed its folder */
  struct e2e_run *c = e2e_warplab("run", "01", "--solution", "--backend", "emu", "--quick", "--plain",
                                  "--seed", "77", "--results", r1, "--keep", "1", (char *)NULL);
  ck_assert_int_eq(c->status, 0);
  ck_assert_int_ne(access(e2e_jstr(a, "results_dir"), F_OK), 0);
  struct e2e_run *d = e2e_warplab("run", "01", "--solution", "--backend", "emu", "--json", "--quick",
                                  "--seed", "4242", "--results", r1, "--keep", "1", (char *)NULL);
  ck_assert_int_eq(d->status, 0);
  ck_assert_msg(!strstr(d->err, "cannot write"), "%s", d->err);
  ck_assert_int_eq(access(e2e_fmt("%s/result.json", e2e_jstr(d, "results_dir")), R_OK), 0);
}
END_TEST

/* Two runs of a lab in the same second get two folders: with the -solution folders of this
   second and the next 29 already there (a marker file in each), a run goes to -02 of its
   second and leaves the first untouched. */
START_TEST(lab01_same_second_gets_own_folder)
{
  const char *root = e2e_tmp("rs");
  char lab[1200], stamp[32];
  snprintf(lab, sizeof lab, "%s/01-matrix-add", root);
  ck_assert_int_eq(mkdir(root, 0755), 0);
  ck_assert_int_eq(mkdir(lab, 0755), 0);
  time_t now = time(NULL);
  for (int k = 0; k < 30; k++) {
    time_t t = now + k;
    struct tm tm;
    localtime_r(&t, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    const char *d = e2e_fmt("%s/%s-solution", lab, stamp);
    ck_assert_int_eq(mkdir(d, 0755), 0);
    FILE *f = fopen(e2e_fmt("%s/marker", d), "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
  }
  struct e2e_run *r = e2e_warplab("run", "01", "--solution", "--backend", "emu", "--json", "--quick",
                                  "--seed", "5", "--results", root, "--keep", "100", (char *)NULL);
  ck_assert_int_eq(r->status, 0);
  const char *dir = e2e_jstr(r, "results_dir");
  size_t n = strlen(dir);
  ck_assert_msg(n > 12 && !strcmp(dir + n - 12, "-solution-02"), "%s", dir);
  ck_assert_int_eq(access(e2e_fmt("%s/result.json", dir), R_OK), 0);
  const char *first = e2e_fmt("%.*s", (int)(n - 3), dir);
  ck_assert_int_ne(access(e2e_fmt("%s/result.json", first), F_OK), 0);
  ck_assert_int_eq(access(e2e_fmt("%s/marker", first), F_OK), 0);
}
END_TEST

START_TEST(lab_unknown)
{
  struct e2e_run *r = e2e_warplab("run", "99", "--backend", "emu", (char *)NULL);
  ck_assert_int_eq(r->status, 2);
  ck_assert_ptr_nonnull(strstr(r->err, "no lab '99'"));
}
END_TEST

void e2e_add_lab_tests(Suite *s)
{
  if (!e2e_have_nvcc()) {
    printf("e2e: nvcc not found: SKIPPING the 14 tests of the lab test case\n");
    return;
  }
  TCase *tc = tcase_create("lab");
  tcase_add_checked_fixture(tc, e2e_setup, e2e_teardown);
  tcase_set_timeout(tc, LAB_TIMEOUT_S);
  tcase_add_test(tc, lab01_solution_passes);
  tcase_add_test(tc, lab01_starter_is_poisoned);
  tcase_add_test(tc, lab01_fermi_efficiency_is_q7);
  tcase_add_test(tc, lab01_fermi_times_follow_2010);
  tcase_add_test(tc, lab01_no_bounds_faults_at_its_line);
  tcase_add_test(tc, lab01_wrong_index_first_bad);
  tcase_add_test(tc, lab01_compile_error_line);
  tcase_add_test(tc, lab01_wrong_signature);
  tcase_add_test(tc, lab01_zero_choice_is_read);
  tcase_add_test(tc, lab01_hotspot_names_the_line);
  tcase_add_test(tc, lab01_seed_replays);
  tcase_add_test(tc, lab01_kept_run_has_its_folder);
  tcase_add_test(tc, lab01_same_second_gets_own_folder);
  tcase_add_test(tc, lab_unknown);
  suite_add_tcase(s, tc);
}

/* warplab grade: the reference solution with the right answers gets every available point
   (performance is not scored on the emulator, and says so); the starter gets none, with the
   hint about unwritten outputs; a Gradescope results.json is written. */
START_TEST(grade_solution_and_starter)
{
  const char *sub = e2e_tmp("alice");
  char *cmd = e2e_fmt("mkdir -p '%s' && cp solutions/01-matrix-add/matrix_add.cu '%s/' && "
                      "printf '{\"q1\":4,\"q2\":4,\"q3\":2,\"q4\":4,\"q5\":8,\"q6\":50,\"q7\":25,"
                      "\"q8\":8,\"q9\":100,\"q10\":0.671}' > '%s/answers.json'", sub, sub, sub);
  ck_assert_int_eq(system(cmd), 0);
  struct e2e_run *r = e2e_warplab("grade", "01", sub, "--backend", "emu", "--json", "--out",
                                  e2e_tmp("graded"), (char *)NULL);
  ck_assert_msg(r->status == 0, "%s\n%s", r->out, r->err);
  double score = json_number_value(e2e_j(r->json, "score"));
  double max = json_number_value(e2e_j(r->json, "max_score"));
  ck_assert_msg(score == max && max == 100.0, "score %g of %g", score, max);
  /* performance is scored on the emulator with the timing model's times, and says so */
  json_t *tests = e2e_j(r->json, "tests"), *t;
  size_t i;
  int perf = 0;
  json_array_foreach(tests, i, t) {
    const char *name = json_string_value(json_object_get(t, "name"));
    if (name && strstr(name, "performance")) {
      perf = 1;
      ck_assert(json_number_value(json_object_get(t, "score")) == 15.0);
      ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(t, "output")), "modelled"));
    }
  }
  ck_assert_msg(perf, "no performance entry in\n%.3000s", r->out);
  /* the lab's reference library was built before the confinement and loaded from there, not
     compiled again inside the runs' folders, and it is gone afterwards */
  const char *found = e2e_tmp("found.txt");
  ck_assert_int_eq(system(e2e_fmt("find '%s' -name reference.so -o -name '.reference-*' > '%s'",
                                  e2e_tmp("graded"), found)), 0);
  char *left = e2e_read_text(found);
  ck_assert_msg(left && !left[0], "left behind: %s", left ? left : "(no list)");

  const char *bob = e2e_tmp("bob");
  cmd = e2e_fmt("mkdir -p '%s' && cp labs/01-matrix-add/matrix_add.cu '%s/'", bob, bob);
  ck_assert_int_eq(system(cmd), 0);
  r = e2e_warplab("grade", "01", bob, "--backend", "emu", "--json", "--out", e2e_tmp("graded2"),
                  (char *)NULL);
  ck_assert_int_eq(r->status, 1);
  ck_assert(json_number_value(e2e_j(r->json, "score")) == 0.0);
  ck_assert_ptr_nonnull(strstr(e2e_jstr(r, "output"), "never written"));
  ck_assert_int_gt(json_array_size(e2e_j(r->json, "tests")), 10);
}
END_TEST

/* grade --reference-only: the reference solution built and run on the class's inputs and
   kept in the build cache (what warplab batch does once before its graders start side by
   side), and nothing of the submission graded. */
START_TEST(grade_reference_only)
{
  const char *sub = e2e_tmp("carol"), *out = e2e_tmp("prepared"), *cache = e2e_tmp("cache");
  ck_assert_int_eq(system(e2e_fmt("mkdir -p '%s' && cp labs/01-matrix-add/matrix_add.cu '%s/'",
                                  sub, sub)), 0);
  setenv("WARPLAB_CACHE", cache, 1);
  struct e2e_run *r = e2e_warplab("grade", "01", sub, "--backend", "emu", "--seed", "5", "--out",
                                  out, "--reference-only", (char *)NULL);
  unsetenv("WARPLAB_CACHE");
  ck_assert_msg(r->status == 0, "%s\n%s", r->out, r->err);
  const char *found = e2e_tmp("found.txt");
  ck_assert_int_eq(system(e2e_fmt("ls '%s' | grep -c '^ref-' > '%s'; find '%s' -name "
                                  "results.json -path '*student*' >> '%s'", cache, found, out,
                                  found)), 0);
  char *list = e2e_read_text(found);
  ck_assert_msg(list && !strcmp(list, "1\n"), "the cache's kept reference runs, then the "
                "submission's results: %s", list ? list : "(none)");
}
END_TEST

/* warplab batch: every student gets a result (a compile error and a runaway kernel too), a link
   out of the roster is not a student, the gradebook lists them all with the same maximum, and
   --resume regrades only what is missing. */
START_TEST(batch_class_and_resume)
{
  const char *roster = e2e_tmp("class"), *out = e2e_tmp("graded");
  char *cmd = e2e_fmt(
      "mkdir -p '%1$s/ann' '%1$s/ben' '%1$s/cat' '%1$s/dan' && "
      "cp solutions/01-matrix-add/matrix_add.cu '%1$s/ann/' && "
      "cp labs/01-matrix-add/matrix_add.cu '%1$s/ben/' && "
      "cp tests/e2e/lab01/compile_error.cu '%1$s/cat/matrix_add.cu' && "
      "printf '__constant__ int BLOCK_X = 32;\\n__constant__ int BLOCK_Y = 8;\\n"
      "extern \"C\" __global__ void matrix_add(const float *a, const float *b, float *c, int nx, int ny)"
      "\\n{ while (1) c[0] = a[0]; }\\n' > '%1$s/dan/matrix_add.cu' && ln -s /etc '%1$s/zed'", roster);
  ck_assert_int_eq(system(cmd), 0);
  struct e2e_run *r = e2e_warplab("batch", "01", roster, "--out", out, "-j", "2", "--backend", "emu",
                                  "--timeout", "400", (char *)NULL);
  ck_assert_msg(r->status == 0, "%s\n%s", r->out, r->err);
  ck_assert_ptr_nonnull(strstr(r->out, "4 students: 4 graded, 0 failed"));
  char *book = e2e_read_text(e2e_fmt("%s/gradebook.csv", out));
  ck_assert_ptr_nonnull(book);
  ck_assert_ptr_nonnull(strstr(book, "ann,90.00,100.00,graded,,"));
  ck_assert_ptr_nonnull(strstr(book, "ben,0.00,100.00,graded,,"));
  ck_assert_ptr_nonnull(strstr(book, "cat,0.00,100.00,graded,,"));
  ck_assert_ptr_nonnull(strstr(book, "dan,0.00,100.00,graded,,"));
  ck_assert_ptr_null(strstr(book, "zed"));
  char *dan = e2e_read_text(e2e_fmt("%s/dan/results.json", out));
  ck_assert_ptr_nonnull(strstr(dan, "ran past its budget"));
  char *cat = e2e_read_text(e2e_fmt("%s/cat/results.json", out));
  ck_assert_ptr_nonnull(strstr(cat, "did not build"));
  ck_assert_ptr_nonnull(strstr(cat, "matrix_add.cu:12: error"));
  /* lose one student's results: --resume grades only that one again */
  ck_assert_int_eq(system(e2e_fmt("rm '%s/ben/results.json'", out)), 0);
  r = e2e_warplab("batch", "01", roster, "--out", out, "--resume", "--backend", "emu", (char *)NULL);
  ck_assert_int_eq(r->status, 0);
  ck_assert_ptr_nonnull(strstr(r->out, "4 students: 1 graded, 0 failed to grade, 3 kept"));
}
END_TEST

/* Copy file src to dst (no shell: the names below are shell syntax on purpose). */
static void copy_file(const char *src, const char *dst)
{
  char *text = e2e_read_text(src);
  ck_assert_ptr_nonnull(text);
  FILE *f = fopen(dst, "w");
  ck_assert_ptr_nonnull(f);
  ck_assert_int_eq(fputs(text, f) >= 0, 1);
  ck_assert_int_eq(fclose(f), 0);
}

/* A student's folder name is data, never shell syntax: o'brien $(touch pwned) builds and is
   graded (nvcc runs its steps through sh, so warplab builds such names from a private copy),
   nothing is run, and compiler messages and the PTX name the real file. */
START_TEST(grade_folder_name_is_not_shell)
{
  const char *sub = e2e_tmp("o'brien $(touch pwned)"), *bad = e2e_tmp("o'neil `touch pwned`");
  ck_assert_int_eq(mkdir(sub, 0777), 0);
  ck_assert_int_eq(mkdir(bad, 0777), 0);
  copy_file("solutions/01-matrix-add/matrix_add.cu", e2e_fmt("%s/matrix_add.cu", sub));
  copy_file("tests/e2e/lab01/compile_error.cu", e2e_fmt("%s/matrix_add.cu", bad));
  const char *out = e2e_tmp("graded $(touch pwned)");
  struct e2e_run *r = e2e_warplab("grade", "01", sub, "--backend", "emu", "--json", "--out", out,
                                  (char *)NULL);
  ck_assert_msg(r->status == 0, "%s\n%s", r->out, r->err);
  ck_assert(json_number_value(e2e_j(r->json, "score")) == 90.0);
  r = e2e_warplab("grade", "01", bad, "--backend", "emu", "--json", "--out", out, (char *)NULL);
  ck_assert_int_eq(r->status, 3);   /* the kernel did not build */
  ck_assert_ptr_nonnull(strstr(r->out, "the kernel did not build"));
  char *msg = e2e_fmt("o'neil `touch pwned`/matrix_add.cu:12: error");
  ck_assert_msg(strstr(r->out, msg) != NULL, "no '%s' in\n%s", msg, r->out);
  struct stat st;
  ck_assert_msg(stat("pwned", &st) != 0 && stat(e2e_tmp("pwned"), &st) != 0,
                "a folder name was run as a shell command");
}
END_TEST

/* The names of the tests of a results.json, one string ("a|b|c|"). */
static const char *test_names(const struct e2e_run *r)
{
  json_t *tests = e2e_j(r->json, "tests"), *t;
  size_t i;
  char *names = e2e_fmt("%s", "");
  json_array_foreach(tests, i, t)
    names = e2e_fmt("%s%s|", names, json_string_value(json_object_get(t, "name")));
  return names;
}

/* grade SUB's copy of kernel file K (with answers.json ANSWERS when not NULL) on the emulator. */
static struct e2e_run *grade_one(const char *who, const char *k, const char *answers)
{
  const char *sub = e2e_tmp(who);
  ck_assert_int_eq(mkdir(sub, 0777), 0);
  copy_file(k, e2e_fmt("%s/matrix_add.cu", sub));
  if (answers)
    e2e_write(e2e_fmt("%s/answers.json", who), answers, strlen(answers));
  return e2e_warplab("grade", "01", sub, "--backend", "emu", "--json", "--seed", "7", "--out",
                     e2e_tmp(e2e_fmt("graded-%s", who)), (char *)NULL);
}

static json_t *test_named(const struct e2e_run *r, const char *prefix)
{
  json_t *tests = e2e_j(r->json, "tests"), *t;
  size_t i;
  json_array_foreach(tests, i, t)
    if (!strncmp(json_string_value(json_object_get(t, "name")), prefix, strlen(prefix)))
      return t;
  ck_abort_msg("no test '%s' in\n%.3000s", prefix, r->out);
  return NULL;
}

/* Lab 01 guarded on x only: the main size (a multiple of the block) is right, the edge sizes
   whose rows do not fill a block fault. The rubric's words: the metric targets and the time
   count whenever the main size is correct; only the failing tests lose their points. */
START_TEST(grade_edge_failure_keeps_targets)
{
  char *src = e2e_read_text("solutions/01-matrix-add/matrix_add.cu");
  char *at = strstr(src, "if (x >= nx || y >= ny)");
  ck_assert_ptr_nonnull(at);
  char *text = e2e_fmt("%.*sif (x >= nx)%s", (int)(at - src), src, at + strlen("if (x >= nx || y >= ny)"));
  e2e_write("xonly.cu", text, strlen(text));
  struct e2e_run *r = grade_one("xonly", e2e_tmp("xonly.cu"), NULL);
  ck_assert_msg(r->status == 1, "%s\n%s", r->out, r->err);
  ck_assert(json_number_value(json_object_get(test_named(r, "correctness: nx=33 ny=17"), "score")) == 0);
  json_t *mt = test_named(r, "correctness: nx=1024 ny=512 (main)");
  ck_assert(json_number_value(json_object_get(mt, "score")) > 0);
  ck_assert(json_number_value(json_object_get(mt, "score")) ==
            json_number_value(json_object_get(mt, "max_score")));
  json_t *t = test_named(r, "metric target: l1tex__average_t_sectors_per_request");
  ck_assert_msg(json_number_value(json_object_get(t, "score")) == 8, "%s",
                json_string_value(json_object_get(t, "output")));
  ck_assert(json_number_value(json_object_get(test_named(r, "metric target: smsp__sass"), "score")) == 7);
  ck_assert(json_number_value(json_object_get(test_named(r, "performance"), "score")) == 15);
  ck_assert_ptr_null(strstr(r->out, "must be correct on the main size"));
}
END_TEST

/* Valid CUDA the emulator does not run (cp.async) is graded: a results.json whose every test
   is "not run", naming the instruction and its line of the .cu file; a kernel that does not
   build has the same test names as one that passes. */
START_TEST(grade_unsupported_and_the_same_tests)
{
  const char *k = "tests/e2e/lab01/unsupported.cu";
  struct e2e_run *r = grade_one("unsupported", k, NULL);
  ck_assert_msg(r->status == 1, "%s\n%s", r->out, r->err);
  ck_assert(json_number_value(e2e_j(r->json, "score")) == 0.0);
  ck_assert(json_number_value(e2e_j(r->json, "max_score")) == 100.0);
  const char *main = json_string_value(json_object_get(test_named(r, "correctness: nx=1024 ny=512 (main)"),
                                                       "output"));
  ck_assert_msg(!strncmp(main, "not run: ", 9) && strstr(main, "createpolicy") &&
                e2e_mentions_line(main, "matrix_add.cu", e2e_marker_line(k, "UNSUPPORTED")), "%s", main);
  const char *names = test_names(r);
  struct e2e_run *ok = grade_one("sol", "solutions/01-matrix-add/matrix_add.cu", NULL);
  ck_assert_int_eq(ok->status, 0);
  struct e2e_run *cerr = grade_one("cerr", "tests/e2e/lab01/compile_error.cu", NULL);
  ck_assert_int_eq(cerr->status, 3);
  ck_assert_str_eq(test_names(ok), names);
  ck_assert_str_eq(test_names(cerr), names);
  /* lab 01: 7 correctness checks (one hidden), 2 metric targets, performance, 10 questions */
  ck_assert_int_eq(json_array_size(e2e_j(cerr->json, "tests")), 20);
  const char *first = json_string_value(json_object_get(test_named(cerr, "correctness: nx=1 ny=1"), "output"));
  ck_assert_msg(strstr(first, "not run: the kernel did not build") && strstr(first, "matrix_add.cu:12: error"),
                "%s", first);
}
END_TEST

/* answers.json as an editor may save it (a UTF-8 byte-order mark), with a string where a
   number is expected and a value given to more digits than it is shown to by default. */
START_TEST(grade_answers_bom_and_types)
{
  const char *answers = "\xEF\xBB\xBF{\"q1\": 4, \"q2\": \"4\", \"q8\": 8.0000001}";
  struct e2e_run *r = grade_one("bom", "solutions/01-matrix-add/matrix_add.cu", answers);
  ck_assert_msg(r->status == 0, "%s\n%s", r->out, r->err);
  ck_assert_ptr_null(strstr(r->err, "answers.json could not be read"));
  ck_assert(json_number_value(json_object_get(test_named(r, "question q1"), "score")) == 1);
  const char *q2 = json_string_value(json_object_get(test_named(r, "question q2"), "output"));
  ck_assert_msg(strstr(q2, "\"4\" is a string where a number is expected"), "%s", q2);
  const char *q8 = json_string_value(json_object_get(test_named(r, "question q8"), "output"));
  ck_assert_msg(strstr(q8, "8.0000001"), "%s", q8);
}
END_TEST

/* The numbers written in text ("4,224", "0.671", "50"), at most max of them, into v. */
static int numbers_in(const char *t, size_t len, double *v, int max)
{
  int n = 0;
  for (size_t i = 0; i < len && n < max; i++) {
    if (t[i] < '0' || t[i] > '9' || (i && (isalnum((unsigned char)t[i - 1]) || t[i - 1] == '.')))
      continue;
    char buf[64];
    size_t k = 0;
    while (i < len && k + 1 < sizeof buf &&
           ((t[i] >= '0' && t[i] <= '9') ||
            ((t[i] == ',' || t[i] == '.') && i + 1 < len && t[i + 1] >= '0' && t[i + 1] <= '9'))) {
      if (t[i] != ',')
        buf[k++] = t[i];
      i++;
    }
    buf[k] = 0;
    v[n++] = strtod(buf, NULL);
  }
  return n;
}

/* Nonzero when one of the numbers written in t is the answer (within its tolerance). */
static int says_answer(const char *t, size_t len, double answer, double tol)
{
  double v[64];
  int n = numbers_in(t, len, v, 64);
  for (int i = 0; i < n; i++)
    if (fabs(v[i] - answer) <= (tol > 1e-9 ? tol : 1e-9))
      return 1;
  return 0;
}

/* Every lab's questions name their unit, how they are answered and the handout section
   that asks them; the handout labels each one [qN, UNIT] with lab.json's unit, and never
   prints the answer just before a label (the text back to the previous clause, unless the
   answer is one of the question's own figures, such as stride 2 for 2 wavefronts). */
START_TEST(grade_questions_units_and_handouts)
{
  DIR *d = opendir("labs");
  ck_assert_ptr_nonnull(d);
  struct dirent *e;
  int labs = 0;
  while ((e = readdir(d))) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9')
      continue;
    json_t *lab = e2e_load_json(e2e_fmt("labs/%s/lab.json", e->d_name));
    json_t *items = e2e_j(lab, "rubric/questions/items");
    if (!json_array_size(items)) {
      json_decref(lab);
      continue;
    }
    labs++;
    char *raw = e2e_read_text(e2e_fmt("handouts/%s.md", e->d_name));
    /* the text with every run of blanks and newlines as one space: labels wrap */
    size_t n = strlen(raw), k = 0;
    char *h = e2e_alloc(n + 1);
    for (size_t i = 0; i < n; i++)
      if (!isspace((unsigned char)raw[i]))
        h[k++] = raw[i];
      else if (k && h[k - 1] != ' ')
        h[k++] = ' ';
    h[k] = 0;
    size_t i;
    json_t *q;
    json_array_foreach(items, i, q) {
      const char *id = json_string_value(json_object_get(q, "id"));
      const char *unit = json_string_value(json_object_get(q, "unit"));
      const char *method = json_string_value(json_object_get(q, "method"));
      const char *section = json_string_value(json_object_get(q, "section"));
      const char *text = json_string_value(json_object_get(q, "question"));
      ck_assert_msg(id && unit && unit[0] && method && section && text,
                    "%s: question %zu lacks id, unit, method, section or question", e->d_name, i);
      ck_assert_msg(!strcmp(method, "pencil") || !strcmp(method, "measure"), "%s %s: method %s",
                    e->d_name, id, method);
      ck_assert_msg(strstr(raw, e2e_fmt(" %s\n", section)) != NULL, "%s %s: no heading '%s' in "
                    "the handout", e->d_name, id, section);
      double answer = json_number_value(json_object_get(q, "answer"));
      double tol = json_number_value(json_object_get(q, "tolerance"));
      const char *want = e2e_fmt("[%s, %s]", id, unit);
      int labelled = 0, own = says_answer(text, strlen(text), answer, tol);
      const char *tag = e2e_fmt("[%s", id);
      for (const char *p = strstr(h, tag); p; p = strstr(p + 1, tag)) {
        char next = p[strlen(tag)];
        if (next >= '0' && next <= '9')
          continue;                             /* [q1 of [q10 */
        ck_assert_msg(!strncmp(p, want, strlen(want)), "%s: %.40s... where %s is expected",
                      e->d_name, p, want);
        labelled++;
        /* back to the previous clause or label, 40 characters at most */
        const char *from = p - 40 > h ? p - 40 : h;
        for (const char *c = from; c < p; c++)
          if (strchr("];(:", *c) || (strchr(",.?", *c) && c[1] == ' '))
            from = c + 1;
        ck_assert_msg(own || !says_answer(from, (size_t)(p - from), answer, tol),
                      "%s: the answer to %s is printed beside its label: '%.*s%s'", e->d_name,
                      id, (int)(p - from), from, want);
      }
      ck_assert_msg(labelled, "%s: the handout never asks %s as %s", e->d_name, id, want);
    }
    json_decref(lab);
  }
  closedir(d);
  ck_assert_int_ge(labs, 7);
}
END_TEST

void e2e_add_grade_tests(Suite *s)
{
  if (!e2e_have_nvcc())
    return;
  TCase *tc = tcase_create("grade");
  tcase_add_checked_fixture(tc, e2e_setup, e2e_teardown);
  tcase_set_timeout(tc, 3 * LAB_TIMEOUT_S);   /* a class with a runaway kernel, under ASan too */
  tcase_add_test(tc, grade_solution_and_starter);
  tcase_add_test(tc, grade_reference_only);
  tcase_add_test(tc, batch_class_and_resume);
  tcase_add_test(tc, grade_folder_name_is_not_shell);
  tcase_add_test(tc, grade_edge_failure_keeps_targets);
  tcase_add_test(tc, grade_unsupported_and_the_same_tests);
  tcase_add_test(tc, grade_answers_bom_and_types);
  tcase_add_test(tc, grade_questions_units_and_handouts);
  suite_add_tcase(s, tc);
}

