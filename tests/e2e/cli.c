/* cli.c: end-to-end tests of what a student types and reads (issue 20): did-you-mean for a
 * mistyped command or option; every option of `warplab run` explained in its --help; lab
 * numbers and names in any natural form; results/NN-name/latest and the pruning of old runs,
 * and `warplab clean`; the text report fitting 100 columns with named sweep rows, times in
 * ns/us/ms, the score and a tidy backend line; --main-first, the run so far before its
 * sweeps (the feedback screen's first results). Everything on the emulator. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e.h"

#define CLI_TIMEOUT_S 300

START_TEST(cli_did_you_mean)
{
  struct e2e_run *r = e2e_warplab("rnu", "01", (char *)NULL);
  ck_assert_int_eq(r->status, 2);
  ck_assert_msg(strstr(r->err, "did you mean 'run'?") != NULL, "%s", r->err);
  r = e2e_warplab("claen", (char *)NULL);
  ck_assert_msg(strstr(r->err, "did you mean 'clean'?") != NULL, "%s", r->err);
  r = e2e_warplab("frobnicate", (char *)NULL);
  ck_assert_int_eq(r->status, 2);
  ck_assert_msg(strstr(r->err, "did you mean") == NULL, "%s", r->err);
  r = e2e_warplab("run", "01", "--bakend", "emu", (char *)NULL);
  ck_assert_int_eq(r->status, 2);
  ck_assert_msg(strstr(r->err, "did you mean '--backend'?") != NULL, "%s", r->err);
  r = e2e_warplab("run", "01", "--backend", (char *)NULL);
  ck_assert_msg(strstr(r->err, "'--backend' needs an argument") != NULL, "%s", r->err);
}
END_TEST

/* Every --option of the usage lines has a line of its own that explains it. */
START_TEST(cli_help_explains_every_option)
{
  struct e2e_run *r = e2e_warplab("run", "--help", (char *)NULL);
  ck_assert_int_eq(r->status, 0);
  const char *end = strstr(r->out, "\n\n");
  ck_assert_ptr_nonnull(end);
  int n = 0;
  for (const char *p = strstr(r->out, "[--"); p && p < end; p = strstr(p + 1, "[--")) {
    char opt[40];
    size_t len = strcspn(p + 1, " ]|");
    snprintf(opt, sizeof opt, "\n  %.*s ", (int)(len < 30 ? len : 30), p + 1);
    ck_assert_msg(strstr(end, opt) != NULL, "'%s' is in the usage line but explained nowhere:\n%s",
                  opt + 3, r->out);
    n++;
  }
  ck_assert_int_ge(n, 12);   /* --results, --keep and --wide among them */
  ck_assert_ptr_nonnull(strstr(end, "\n  --results "));
}
END_TEST

START_TEST(cli_lab_in_any_form)
{
  static const char *const forms[] = {"1", "matrix-add", "01-matrix-add"};
  for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
    struct e2e_run *r = e2e_warplab("run", forms[i], "--solution", "--backend", "emu", "--quick",
                                    "--json", "--results", e2e_tmp("results"), (char *)NULL);
    ck_assert_msg(r->status == 0, "%s: %d\n%s", r->cmd, r->status, r->err);
    ck_assert_str_eq(e2e_jstr(r, "lab"), "01-matrix-add");
  }
  struct e2e_run *r = e2e_warplab("run", "matrix", "--backend", "emu", (char *)NULL);
  ck_assert_int_eq(r->status, 2);
  ck_assert_msg(strstr(r->err, "no lab 'matrix'") != NULL, "%s", r->err);
  r = e2e_warplab("run", "occupncy", "--backend", "emu", (char *)NULL);
  ck_assert_int_eq(r->status, 2);
  ck_assert_msg(strstr(r->err, "did you mean '02-occupancy'?") != NULL, "%s", r->err);
  r = e2e_warplab("clean", "02-ocupancy", (char *)NULL);
  ck_assert_msg(strstr(r->err, "did you mean '02-occupancy'?") != NULL, "%s", r->err);
}
END_TEST

static int count_runs(const char *dir)
{
  DIR *d = opendir(dir);
  int n = 0;
  struct dirent *e;
  while (d && (e = readdir(d)))
    n += e->d_name[0] >= '0' && e->d_name[0] <= '9';   /* not latest, latest-solution */
  if (d)
    closedir(d);
  return n;
}

/* Three runs with --keep 2: two folders stay, latest-solution names the newest; clean
   removes both and the link. */
START_TEST(cli_latest_prune_clean)
{
  const char *res = e2e_tmp("results");
  char last[1100] = "";
  for (int i = 0; i < 3; i++) {
    if (i)
      sleep(1);   /* run folders are named by the second */
    struct e2e_run *r = e2e_warplab("run", "01", "--solution", "--backend", "emu", "--quick",
                                    "--json", "--keep", "2", "--results", res, (char *)NULL);
    ck_assert_msg(r->status == 0, "%s\n%s", r->cmd, r->err);
    const char *dir = e2e_jstr(r, "results_dir");
    const char *slash = strrchr(dir, '/');
    snprintf(last, sizeof last, "%s", slash + 1);
  }
  const char *lab = e2e_fmt("%s/01-matrix-add", res);
  ck_assert_msg(count_runs(lab) == 2, "%d runs kept in %s, expected 2", count_runs(lab), lab);
  char target[1100];
  ssize_t n = readlink(e2e_fmt("%s/latest-solution", lab), target, sizeof target - 1);
  ck_assert_int_gt(n, 0);
  target[n] = 0;
  ck_assert_str_eq(target, last);
  struct e2e_run *r = e2e_warplab("clean", "1", "--results", res, (char *)NULL);
  ck_assert_msg(r->status == 0, "%s", r->err);
  ck_assert_ptr_nonnull(strstr(r->out, "removed 2 runs"));
  ck_assert_int_eq(count_runs(lab), 0);
  struct stat st;
  ck_assert_int_ne(lstat(e2e_fmt("%s/latest-solution", lab), &st), 0);
}
END_TEST

/* Lab 05's plain report: no line over 100 columns, sweep rows named by their choices, times
   with a unit chosen by size, never in exponent form, the score, the backend in words;
   --wide puts the whole table in one piece. */
START_TEST(cli_plain_report_fits)
{
  struct e2e_run *r = e2e_warplab("run", "05", "--solution", "--backend", "emu", "--plain",
                                  "--results", e2e_tmp("results"), (char *)NULL);
  ck_assert_msg(r->status == 0, "%s\n%s", r->cmd, r->err);
  int longest = 0;
  const char *tmp = e2e_tmp("results");
  for (const char *p = r->out; *p;) {
    int len = (int)strcspn(p, "\n");
    const char *path = strstr(p, tmp);   /* a path cannot be cut: this folder's are long */
    if (!path || path - p >= len)
      longest = len > longest ? len : longest;
    p += len + (p[len] == '\n');
  }
  ck_assert_msg(longest <= 100, "a line of %d columns:\n%.3000s", longest, r->out);
  ck_assert_msg(strstr(r->out, "VARIANT=0 PITCH=33") != NULL, "%.3000s", r->out);
  ck_assert_msg(strstr(r->out, "e+") == NULL && strstr(r->out, "e-0") == NULL, "%.3000s", r->out);
  ck_assert_msg(strstr(r->out, " us ") != NULL || strstr(r->out, " us\n") != NULL, "%.3000s", r->out);
  ck_assert_msg(strstr(r->out, "Score 100.0 of 100") != NULL, "%.3000s", r->out);
  ck_assert_msg(strstr(r->out, "backend      emulator (") != NULL, "%.3000s", r->out);
  ck_assert_msg(strstr(r->out, "sect/req") != NULL, "%.3000s", r->out);
  struct e2e_run *w = e2e_warplab("run", "05", "--solution", "--backend", "emu", "--plain",
                                  "--wide", "--quick", "--results", e2e_tmp("results"),
                                  (char *)NULL);
  ck_assert_int_eq(w->status, 0);
  ck_assert_ptr_null(strstr(w->out, "table 1 of"));
}
END_TEST

/* A kernel that does not build: the header says there is no backend, not "- ():", and the
   score is 0 of the lab's whole rubric. */
START_TEST(cli_build_failure_header)
{
  struct e2e_run *r = e2e_warplab("run", "01", "--kernel-file", "tests/e2e/lab01/compile_error.cu",
                                  "--backend", "emu", "--plain", "--results", e2e_tmp("results"),
                                  (char *)NULL);
  ck_assert_int_eq(r->status, 3);
  ck_assert_msg(strstr(r->out, "backend      none (the kernel did not build)") != NULL, "%.3000s",
                r->out);
  ck_assert_ptr_null(strstr(r->out, "- ()"));
  /* scored all the same, as the feedback screen and grade score it: 0 of the whole rubric,
     the reference solution run on the same inputs (its time is part of the maximum) */
  ck_assert_msg(strstr(r->out, "Score 0.0 of 100 (against the reference solution on the same "
                       "inputs)"), "%.3000s", r->out);
}
END_TEST

/* The text report's score reads answers.json as `warplab grade` does (submission.h): a link
   named answers.json beside the kernel file is not followed, and the report says so. */
START_TEST(cli_answers_link_refused)
{
  const char *dir = e2e_tmp("sub");
  char repo[1024];
  ck_assert_ptr_nonnull(getcwd(repo, sizeof repo));
  ck_assert_int_eq(system(e2e_fmt("mkdir -p '%s' && cp labs/01-matrix-add/matrix_add.cu '%s/' && "
                                  "ln -s '%s/solutions/01-matrix-add/answers.json' "
                                  "'%s/answers.json'", dir, dir, repo, dir)), 0);
  struct e2e_run *r = e2e_warplab("run", "01", "--kernel-file", e2e_fmt("%s/matrix_add.cu", dir),
                                  "--backend", "emu", "--quick", "--plain", "--results",
                                  e2e_tmp("results"), (char *)NULL);
  ck_assert_int_eq(r->status, 1);
  ck_assert_msg(strstr(r->out, "answers.json is not a regular file of the submission (a link?)"),
                "%.3000s", r->out);
}
END_TEST

/* A folder holding a copy of labs/ alone (no harness/): the run finds lab_ref.h in the
   repository warplab was built in, and the starter runs (its tests fail: exit 1, not 2). */
START_TEST(cli_labs_copied_alone)
{
  const char *dir = e2e_tmp("mine");
  char repo[1024];
  ck_assert_ptr_nonnull(getcwd(repo, sizeof repo));
  const char *wl = getenv("WARPLAB") ? getenv("WARPLAB") : "bin/warplab";
  char *cmd = e2e_fmt("mkdir -p '%s' && cp -r labs '%s/' && cd '%s' && '%s%s%s' run 1 --backend "
                      "emu --quick --plain --kernel-file labs/01-matrix-add/matrix_add.cu "
                      ">out.txt 2>&1", dir, dir, dir, wl[0] == '/' ? "" : repo,
                      wl[0] == '/' ? "" : "/", wl);
  int st = system(cmd);
  char *out = e2e_read_text(e2e_fmt("%s/out.txt", dir));
  ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 1, "exit %d:\n%.3000s", st, out);
  ck_assert_ptr_null(strstr(out, "lab_ref.h"));
  ck_assert_ptr_nonnull(strstr(out, "0 of 6 passed"));
}
END_TEST

/* --main-first DIR: DIR/result.json holds the run before its sweeps (the tests, the main
   configuration as its only point, the run's own folder), the same tests and main point as
   the whole run's result; a --quick run has no sweeps to wait for and writes nothing. */
START_TEST(cli_main_first)
{
  const char *res = e2e_tmp("results"), *early = e2e_tmp("early");
  struct e2e_run *r = e2e_warplab("run", "01", "--solution", "--backend", "emu", "--json",
                                  "--results", res, "--main-first", early, (char *)NULL);
  ck_assert_msg(r->status == 0, "%s\n%s", r->cmd, r->err);
  json_t *e = e2e_load_json(e2e_fmt("%s/result.json", early));
  ck_assert_ptr_nonnull(e);
  json_t *pts = json_object_get(e, "points"), *all = json_object_get(r->json, "points");
  ck_assert_uint_eq(json_array_size(pts), 1);
  ck_assert_uint_gt(json_array_size(all), 1);
  ck_assert_str_eq(json_string_value(json_object_get(json_array_get(pts, 0), "sweep")), "");
  ck_assert_str_eq(json_string_value(json_object_get(json_array_get(pts, 0), "label")),
                   json_string_value(json_object_get(json_array_get(all, 0), "label")));
  ck_assert(json_equal(json_object_get(json_array_get(pts, 0), "metrics"),
                       json_object_get(json_array_get(all, 0), "metrics")));
  ck_assert(json_equal(json_object_get(e, "tests"), json_object_get(r->json, "tests")));
  ck_assert(json_is_true(json_object_get(e, "all_passed")));
  ck_assert_str_eq(json_string_value(json_object_get(e, "results_dir")),
                   e2e_jstr(r, "results_dir"));
  json_decref(e);
  struct stat st;
  ck_assert_int_ne(stat(e2e_fmt("%s.part", early), &st), 0);
  const char *quick = e2e_tmp("early-quick");
  r = e2e_warplab("run", "01", "--solution", "--backend", "emu", "--json", "--quick",
                  "--results", res, "--main-first", quick, (char *)NULL);
  ck_assert_msg(r->status == 0, "%s\n%s", r->cmd, r->err);
  ck_assert_int_ne(stat(quick, &st), 0);
}
END_TEST

/* The build cache (tc_build.h): a second run of the same kernel file takes its PTX from the
   cache, nvcc not run (provenance "build": "cache"), with the same PTX and the same results;
   WARPLAB_CACHE=off builds with nvcc again. */
START_TEST(cli_build_cache)
{
  setenv("WARPLAB_CACHE", e2e_tmp("cache"), 1);
  struct e2e_run *r[3];
  const char *ptx[3];
  for (int i = 0; i < 3; i++) {
    if (i == 2)
      setenv("WARPLAB_CACHE", "off", 1);
    r[i] = e2e_warplab("run", "01", "--solution", "--backend", "emu", "--quick", "--json",
                       "--results", e2e_tmp(e2e_fmt("results%d", i)), (char *)NULL);
    ck_assert_msg(r[i]->status == 0, "%s\n%s", r[i]->cmd, r[i]->err);
    ptx[i] = e2e_read_text(e2e_jstr(r[i], "provenance/ptx"));
    ck_assert_ptr_nonnull(ptx[i]);
  }
  unsetenv("WARPLAB_CACHE");
  ck_assert_str_eq(e2e_jstr(r[0], "provenance/build"), "nvcc");
  ck_assert_str_eq(e2e_jstr(r[1], "provenance/build"), "cache");
  ck_assert_str_eq(e2e_jstr(r[2], "provenance/build"), "nvcc");
  ck_assert_str_eq(ptx[0], ptx[1]);
  ck_assert_str_eq(ptx[0], ptx[2]);
  for (int i = 1; i < 3; i++) {
    ck_assert_int_eq(e2e_jint(r[i], "registers"), e2e_jint(r[0], "registers"));
    ck_assert_str_eq(e2e_jstr(r[i], "tests/0/state"), "pass");
  }
}
END_TEST

void e2e_add_cli_tests(Suite *s)
{
  TCase *tc = tcase_create("cli");
  tcase_add_checked_fixture(tc, e2e_setup, e2e_teardown);
  tcase_set_timeout(tc, CLI_TIMEOUT_S);
  tcase_add_test(tc, cli_did_you_mean);
  tcase_add_test(tc, cli_help_explains_every_option);
  if (e2e_have_nvcc()) {
    tcase_add_test(tc, cli_lab_in_any_form);
    tcase_add_test(tc, cli_latest_prune_clean);
    tcase_add_test(tc, cli_plain_report_fits);
    tcase_add_test(tc, cli_build_failure_header);
    tcase_add_test(tc, cli_answers_link_refused);
    tcase_add_test(tc, cli_labs_copied_alone);
    tcase_add_test(tc, cli_main_first);
    tcase_add_test(tc, cli_build_cache);
  }
  suite_add_tcase(s, tc);
}
