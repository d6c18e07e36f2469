/* release.c: the students' copy (`warplab release`) and the Gradescope autograder
 * (`warplab autograder`), end to end, and the hidden test sizes both depend on.
 *
 * The students' copy is written to a temporary folder, built there with make, and lab 01's
 * starter run in it; what it must not hold (solutions, answers, hidden tests, the solution's
 * code) is looked for independently of warplab's own check. The autograder is written under
 * a stand-in for /autograder ($WARPLAB_AUTOGRADER_ROOT), its setup.sh run (on a machine with
 * the packages and nvcc it only builds warplab), and run_autograder given a good, an empty, a
 * misnamed, a broken and a nested submission, and a tree where warplab is missing; every time
 * results.json is asserted on.
 */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "e2e.h"

#define RELEASE_TIMEOUT_S 1200   /* two builds of warplab and the solutions' runs, on 2 cores */

/* Run a shell command (formatted), its output into the test's log file; returns its exit
   status, with the log's end in the message when want is not it. */
static int sh_expect(int want, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int sh_expect(int want, const char *fmt, ...)
{
  char cmd[8192];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(cmd, sizeof cmd, fmt, ap);
  va_end(ap);
  const char *log = e2e_tmp("sh.log");
  int st = system(e2e_fmt("( %s ) > '%s' 2>&1", cmd, log));
  int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  if (want >= 0 && rc != want) {
    char *t = e2e_read_text(log);
    size_t n = strlen(t);
    ck_abort_msg("%s\nexited %d, expected %d:\n%s", cmd, rc, want, n > 3000 ? t + n - 3000 : t);
  }
  return rc;
}

static int exists(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0;
}

/* text without white space (arena) */
static char *squeeze(const char *t)
{
  char *o = e2e_alloc(strlen(t) + 1), *w = o;
  for (; *t; t++)
    if (*t != ' ' && *t != '\t' && *t != '\n' && *t != '\r')
      *w++ = *t;
  return o;
}

/* No file under dir holds four consecutive lines of solution (white space aside) that its
   starter does not hold: independent of warplab's own check, which looks for whole function
   bodies. Returns how many windows of lines were looked for. */
static int expect_no_solution_lines(const char *dir, const char *solution, const char *starter)
{
  char *sol = e2e_read_text(solution), *st = squeeze(e2e_read_text(starter));
  char *line[2048];
  int n = 0;
  for (char *p = sol; p && *p && n < 2048;) {
    char *end = strchr(p, '\n');
    if (end)
      *end = 0;
    if (*squeeze(p))
      line[n++] = p;
    p = end ? end + 1 : NULL;
  }
  const char *list = e2e_tmp("files.txt");
  sh_expect(0, "find '%s' -type f -size -4M > '%s'", dir, list);
  char *files = e2e_read_text(list);
  const char **win = e2e_alloc(sizeof *win * (size_t)(n + 1));
  int *at = e2e_alloc(sizeof *at * (size_t)(n + 1));
  int windows = 0;
  for (int i = 0; i + 3 < n; i++) {
    const char *w = squeeze(e2e_fmt("%s%s%s%s", line[i], line[i + 1], line[i + 2], line[i + 3]));
    if (!strstr(st, w) && strlen(w) >= 40) {
      at[windows] = i + 1;
      win[windows++] = w;
    }
  }
  for (char *f = files; f && *f;) {
    char *end = strchr(f, '\n');
    if (end)
      *end = 0;
    const char *text = squeeze(e2e_read_text(f));
    for (int k = 0; k < windows; k++)
      ck_assert_msg(!strstr(text, win[k]), "%s holds lines %d to %d of %s", f, at[k],
                    at[k] + 3, solution);
    f = end ? end + 1 : NULL;
  }
  return windows;
}

/* `warplab release`: no solutions, no answers, no hidden tests, no solution code; the copy
   builds, runs lab 01's starter (without the hidden test) and grades against the shipped
   figures of the solution. */
START_TEST(release_students_copy)
{
  const char *rel = e2e_tmp("students");
  struct e2e_run *r = e2e_warplab("release", "--out", rel, (char *)NULL);
  ck_assert_msg(r->status == 0, "%s\n%s\n%s", r->cmd, r->out, r->err);
  ck_assert(exists(e2e_fmt("%s/Makefile", rel)));
  ck_assert(exists(e2e_fmt("%s/handouts/01-matrix-add.md", rel)));
  ck_assert(exists(e2e_fmt("%s/labs/01-matrix-add/matrix_add.cu", rel)));
  ck_assert(!exists(e2e_fmt("%s/solutions", rel)));
  ck_assert(!exists(e2e_fmt("%s/labs/07-reduction/measured", rel)));
  /* nothing named like a solution or an answer file, anywhere */
  sh_expect(1, "find '%s' -name answers.json -o -name solutions | grep .", rel);
  /* no four lines of a solution that its starter lacks, in any file */
  static const char *const labs[][2] = {{"01-matrix-add", "matrix_add.cu"},
                                        {"05-bank-conflicts", "transpose.cu"},
                                        {"07-reduction", "reduce.cu"}};
  for (size_t i = 0; i < sizeof labs / sizeof *labs; i++)
    ck_assert_int_gt(expect_no_solution_lines(rel, e2e_fmt("solutions/%s/%s", labs[i][0],
                                                           labs[i][1]),
                                              e2e_fmt("labs/%s/%s", labs[i][0], labs[i][1])), 0);
  /* every lab.json: the same questions and points, no answer, no hidden test */
  const char *names[] = {"01-matrix-add", "02-occupancy", "03-latency-hiding", "04-coalescing",
                         "05-bank-conflicts", "06-divergence", "07-reduction"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    json_t *mine = e2e_load_json(e2e_fmt("labs/%s/lab.json", names[i]));
    json_t *theirs = e2e_load_json(e2e_fmt("%s/labs/%s/lab.json", rel, names[i]));
    json_t *qa = e2e_j(mine, "rubric/questions/items"), *qb = e2e_j(theirs, "rubric/questions/items");
    ck_assert_int_gt(json_array_size(qa), 0);
    ck_assert_int_eq(json_array_size(qa), json_array_size(qb));
    ck_assert(json_equal(e2e_j(mine, "rubric/questions/points"),
                         e2e_j(theirs, "rubric/questions/points")));
    size_t k;
    json_t *q;
    json_array_foreach(qb, k, q) {
      ck_assert_ptr_nonnull(json_object_get(q, "question"));
      ck_assert_msg(!json_object_get(q, "answer"), "%s: %s keeps its answer", names[i],
                    json_string_value(json_object_get(q, "id")));
    }
    size_t hidden = 0;
    json_array_foreach(e2e_j(mine, "tests"), k, q)
      hidden += json_is_true(json_object_get(q, "hidden"));
    json_array_foreach(e2e_j(theirs, "tests"), k, q)
      ck_assert(!json_object_get(q, "hidden"));
    ck_assert_int_eq(json_array_size(e2e_j(theirs, "tests")) + hidden,
                     json_array_size(e2e_j(mine, "tests")));
    if (i == 0)
      ck_assert_int_eq(hidden, 1);   /* lab 01 has one hidden test */
    /* the solution's figures, without its paths */
    json_t *fig = e2e_load_json(e2e_fmt("%s/labs/%s/reference-run/result.json", rel, names[i]));
    ck_assert_str_eq(json_string_value(e2e_j(fig, "provenance/backend")), "emu");
    ck_assert_ptr_null(e2e_j(fig, "provenance/kernel_file"));
    ck_assert_ptr_null(e2e_j(fig, "build_log"));
    ck_assert(json_is_true(e2e_j(fig, "all_passed")));
    json_decref(mine);
    json_decref(theirs);
    json_decref(fig);
  }
  /* it builds, and lab 01's starter runs: its 6 visible checks, not the hidden one */
  sh_expect(0, "cd '%s' && nice make -j2 bin/warplab", rel);
  const char *out = e2e_tmp("run.json");
  sh_expect(1, "cd '%s' && env -u WARPLAB_HOME bin/warplab run 01 --quick --backend emu --json "
            "--results '%s' > '%s'", rel, e2e_tmp("runs"), out);
  json_t *run = e2e_load_json(out);
  ck_assert_int_eq(json_array_size(e2e_j(run, "tests")), 6);
  ck_assert_str_eq(json_string_value(e2e_j(run, "tests/0/state")), "fail");
  ck_assert(!strstr(e2e_read_text(out), "nx=31 ny=65"));
  json_decref(run);
  /* grade in the copy: the solution's time comes from the shipped figures; an answer is
     noted, not marked wrong */
  const char *sub = e2e_tmp("sub");
  sh_expect(0, "mkdir -p '%1$s' && cp solutions/01-matrix-add/matrix_add.cu '%1$s/' && "
            "echo '{\"q1\": 4}' > '%1$s/answers.json'", sub);
  out = e2e_tmp("grade.json");
  sh_expect(0, "cd '%s' && env -u WARPLAB_HOME bin/warplab grade 01 '%s' --backend emu --json "
            "--out '%s' > '%s'", rel, sub, e2e_tmp("graded"), out);
  json_t *g = e2e_load_json(out);
  size_t k;
  json_t *t;
  int perf = 0, q1 = 0;
  json_array_foreach(e2e_j(g, "tests"), k, t) {
    const char *name = json_string_value(json_object_get(t, "name"));
    const char *o = json_string_value(json_object_get(t, "output"));
    if (strstr(name, "performance")) {
      perf = 1;
      ck_assert_msg(json_number_value(json_object_get(t, "score")) == 15.0, "%s", o);
    }
    if (!strcmp(name, "question q1")) {
      q1 = 1;
      ck_assert_msg(strstr(o, "no answer key"), "%s", o);
    }
    ck_assert(!strstr(name, "nx=31 ny=65"));
  }
  ck_assert(perf && q1);
  json_decref(g);
  /* run's text report in the copy scores against the shipped figures too (grader/session.h),
     as grade and the feedback screen do */
  out = e2e_tmp("run.txt");
  sh_expect(0, "cd '%s' && env -u WARPLAB_HOME bin/warplab run 01 --quick --backend emu --plain "
            "--kernel-file '%s/matrix_add.cu' --results '%s' > '%s'", rel, sub, e2e_tmp("runs"),
            out);
  char *text = e2e_read_text(out);
  ck_assert_msg(strstr(text, "(against the reference solution's figures shipped with this copy)")
                && strstr(text, "15.0/15.0  performance against the reference solution"),
                "%.3000s", text);
}
END_TEST

/* A tree whose handout holds a solution's kernel is refused, and says which file. */
START_TEST(release_refuses_solution_code)
{
  const char *home = e2e_tmp("home");
  sh_expect(0, "mkdir -p '%1$s/labs' '%1$s/solutions' && cp -r Makefile README.md harness "
            "grader plots handouts docker '%1$s/' && cp -r labs/01-matrix-add '%1$s/labs/' && "
            "cp -r solutions/01-matrix-add '%1$s/solutions/' && "
            "{ echo 'A worked example:'; sed 's/^/    /' solutions/01-matrix-add/matrix_add.cu; } "
            "> '%1$s/handouts/notes.md'", home);
  const char *out = e2e_tmp("leaky");
  int rc = sh_expect(-1, "WARPLAB_HOME='%s' '%s' release --out '%s'", home,
                     getenv("WARPLAB") ? getenv("WARPLAB") : "bin/warplab", out);
  char *log = e2e_read_text(e2e_tmp("sh.log"));
  ck_assert_msg(rc == 1, "exit %d:\n%s", rc, log);
  ck_assert_msg(strstr(log, "handouts/notes.md") && strstr(log, "matrix_add.cu"), "%s", log);
  /* without the leak the same tree is a release */
  sh_expect(0, "rm '%s/handouts/notes.md' && WARPLAB_HOME='%s' '%s' release --out '%s'", home,
            home, getenv("WARPLAB") ? getenv("WARPLAB") : "bin/warplab", e2e_tmp("clean"));
}
END_TEST

/* ROOT/results/results.json after run_autograder, loaded; fails the test when absent. */
static json_t *autograde(const char *root)
{
  sh_expect(0, "WARPLAB_AUTOGRADER_ROOT='%s' bash '%s/source/run_autograder'", root, root);
  return e2e_load_json(e2e_fmt("%s/results/results.json", root));
}

static double num(json_t *j, const char *path)
{
  json_t *v = e2e_j(j, path);
  ck_assert_msg(json_is_number(v), "no number at %s", path);
  return json_number_value(v);
}

/* `warplab autograder`: its setup.sh builds it, and run_autograder writes a results.json for
   every kind of submission. */
START_TEST(autograder_gradescope_root)
{
  const char *root = e2e_tmp("autograder");
  struct e2e_run *r = e2e_warplab("autograder", "01", "--out", e2e_fmt("%s/source", root),
                                  (char *)NULL);
  ck_assert_msg(r->status == 0, "%s\n%s\n%s", r->cmd, r->out, r->err);
  ck_assert(exists(e2e_fmt("%s/source/warplab/solutions/01-matrix-add/matrix_add.cu", root)));
  json_t *lab = e2e_load_json("labs/01-matrix-add/lab.json");
  sh_expect(0, "test -x '%1$s/source/setup.sh' && test -x '%1$s/source/run_autograder' && "
            "test -s '%1$s/source/README.md'", root);
  /* set-up: the packages are there (install-deps --if-missing says so), nvcc too: it builds */
  sh_expect(0, "cd '%s/source' && nice bash ./setup.sh", root);
  sh_expect(0, "test -x '%s/source/warplab/bin/warplab'", root);

  /* the solution and the right answers: full marks, the hidden test among the checks */
  const char *sub = e2e_fmt("%s/submission", root);
  char answers[512];
  snprintf(answers, sizeof answers, "{\"q1\": %g, \"q2\": %g, \"q3\": %g, \"q4\": %g, \"q5\": %g, "
           "\"q6\": %g, \"q7\": %g, \"q8\": %g, \"q9\": %g, \"q10\": %g}",
           e2e_rubric_answer(lab, "q1"), e2e_rubric_answer(lab, "q2"),
           e2e_rubric_answer(lab, "q3"), e2e_rubric_answer(lab, "q4"),
           e2e_rubric_answer(lab, "q5"), e2e_rubric_answer(lab, "q6"),
           e2e_rubric_answer(lab, "q7"), e2e_rubric_answer(lab, "q8"),
           e2e_rubric_answer(lab, "q9"), e2e_rubric_answer(lab, "q10"));
  sh_expect(0, "mkdir -p '%1$s' && cp solutions/01-matrix-add/matrix_add.cu '%1$s/' && "
            "echo '%2$s' > '%1$s/answers.json'", sub, answers);
  json_t *res = autograde(root);
  ck_assert_msg(num(res, "score") == 100.0 && num(res, "max_score") == 100.0,
                "score %g of %g", num(res, "score"), num(res, "max_score"));
  size_t k;
  json_t *t;
  int hidden = 0;
  json_array_foreach(e2e_j(res, "tests"), k, t) {
    const char *vis = json_string_value(json_object_get(t, "visibility"));
    if (strstr(json_string_value(json_object_get(t, "name")), "nx=31 ny=65")) {
      hidden++;   /* the hidden size: scored, shown to students once grades are published */
      ck_assert(json_number_value(json_object_get(t, "score")) > 0);
      ck_assert_str_eq(vis ? vis : "(none)", "after_published");
    } else {
      ck_assert(!vis || strcmp(vis, "after_published"));
    }
  }
  ck_assert_int_eq(hidden, 1);
  json_decref(res);

  /* nothing handed in: 0 of 100, and what was expected */
  sh_expect(0, "rm -rf '%1$s' && mkdir -p '%1$s'", sub);
  res = autograde(root);
  ck_assert(num(res, "score") == 0.0 && num(res, "max_score") == 100.0);
  ck_assert(strstr(json_string_value(e2e_j(res, "output")), "matrix_add.cu"));
  json_decref(res);

  /* a misnamed file: 0 of 100, naming what was found */
  sh_expect(0, "cp solutions/01-matrix-add/matrix_add.cu '%s/Matrix_Add.cu'", sub);
  res = autograde(root);
  ck_assert(num(res, "score") == 0.0 && num(res, "max_score") == 100.0);
  ck_assert(strstr(json_string_value(e2e_j(res, "output")), "Matrix_Add.cu"));
  json_decref(res);

  /* a kernel that does not build: graded, 0 of 100, the compiler's line in a test */
  sh_expect(0, "rm -rf '%1$s' && mkdir -p '%1$s' && cp tests/e2e/lab01/compile_error.cu "
            "'%1$s/matrix_add.cu'", sub);
  res = autograde(root);
  ck_assert(num(res, "score") == 0.0 && num(res, "max_score") == 100.0);
  ck_assert_int_gt(json_array_size(e2e_j(res, "tests")), 1);
  char *all = json_dumps(res, 0);
  int names_line = all && strstr(all, "matrix_add.cu:") != NULL;
  free(all);
  ck_assert(names_line);
  json_decref(res);

  /* in a folder of the upload: found and graded, with a note */
  sh_expect(0, "rm -rf '%1$s' && mkdir -p '%1$s/lab01' && cp solutions/01-matrix-add/matrix_add.cu "
            "'%1$s/lab01/'", sub);
  res = autograde(root);
  ck_assert(num(res, "score") == 90.0);   /* everything but the 10 points of the questions */
  ck_assert(strstr(json_string_value(e2e_j(res, "output")), "lab01/matrix_add.cu"));
  json_decref(res);

  /* warplab gone: run_autograder still writes a valid results.json, score 0 */
  sh_expect(0, "mv '%1$s/source/warplab/bin' '%1$s/source/warplab/bin.away'", root);
  res = autograde(root);
  ck_assert(num(res, "score") == 0.0);
  ck_assert(strstr(json_string_value(e2e_j(res, "output")), "could not run warplab"));
  json_decref(res);
  json_decref(lab);
}
END_TEST

void e2e_add_release_tests(Suite *s)
{
  if (!e2e_have_nvcc()) {
    printf("e2e: nvcc not found: SKIPPING the 3 tests of the release test case\n");
    return;
  }
  TCase *tc = tcase_create("release");
  tcase_add_checked_fixture(tc, e2e_setup, e2e_teardown);
  tcase_set_timeout(tc, RELEASE_TIMEOUT_S);
  tcase_add_test(tc, release_students_copy);
  tcase_add_test(tc, release_refuses_solution_code);
  tcase_add_test(tc, autograder_gradescope_root);
  suite_add_tcase(s, tc);
}
