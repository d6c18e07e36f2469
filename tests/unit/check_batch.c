/* check_batch.c: what a batch takes as a student's grade (grader/batch.c) and what it knows of
 * a submission folder (grader/submission.c): a result is checked before it is believed (its
 * numbers in range and adding up, no member Gradescope does not define, no status a grade
 * may not report); the results the batch makes itself pass that check; a name is quoted so a
 * newline or a quote stays inside it; the submission's hash moves with any change of its
 * files and with nothing else; the kernel file is found, a miscased one with a note, and a
 * link anywhere in the folder refuses it; ncu stopped by the tools' limits leaves a student
 * ungraded. */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grader/batch.h"
#include "grader/submission.h"
#include "suites.h"

/* A grade of 30 of 40 as `warplab grade` writes one. */
static const char *const GOOD =
  "{\"score\": 30.0, \"max_score\": 40.0, \"output\": \"\", \"tests\": ["
  " {\"name\": \"correctness: nx=1\", \"score\": 20.0, \"max_score\": 20.0, \"output\": \"ok\","
  "  \"visibility\": \"visible\"},"
  " {\"name\": \"question q1\", \"score\": 10.0, \"max_score\": 20.0}],"
  " \"extra_data\": {\"backend\": \"emu\"}}";

static int check_text(const char *text, double full)
{
  json_error_t je;
  json_t *j = json_loads(text, 0, &je);
  ck_assert_msg(j != NULL, "%s: %s", text, je.text);
  char why[300];
  int rc = batch_result_check(j, full, why, sizeof why);
  json_decref(j);
  return rc;
}

START_TEST(result_check_takes_a_grade)
{
  ck_assert_int_eq(check_text(GOOD, 100), 0);
  ck_assert_int_eq(check_text(GOOD, 0), 0);     /* the lab's points not known */
}
END_TEST

/* Each a change of GOOD that makes it no grade to believe. */
static const char *const BAD[][2] = {
  {"\"score\": 30.0", "\"score\": 50.0"},                 /* above max_score */
  {"\"score\": 30.0", "\"score\": -1.0"},
  {"\"score\": 30.0", "\"score\": \"30\""},
  {"\"max_score\": 40.0", "\"max_score\": 400.0"},        /* above the lab's 100 */
  {"\"score\": 10.0, \"max_score\": 20.0}", "\"score\": 20.0, \"max_score\": 20.0}"},  /* 40 != 30 */
  {"\"name\": \"question q1\", ", ""},                     /* a test without a name */
  {"\"tests\": [", "\"tests\": 1, \"x\": ["},
  {"\"output\": \"\"", "\"output\": 3"},
  {"\"output\": \"\"", "\"output\": \"\", \"leaderboard\": []"},   /* not ours to write */
  {"\"backend\": \"emu\"", "\"status\": \"pending\""},    /* no status a grade reports */
};

START_TEST(result_check_refuses)
{
  const char *const *b = BAD[_i];
  const char *at = strstr(GOOD, b[0]);
  ck_assert_ptr_nonnull(at);
  char text[2048];
  snprintf(text, sizeof text, "%.*s%s%s", (int)(at - GOOD), GOOD, b[1], at + strlen(b[0]));
  ck_assert_msg(check_text(text, 100) != 0, "taken: %s", text);
}
END_TEST

START_TEST(result_check_statuses)
{
  /* the results a batch or a grade makes for what is no grade pass the check, and say so */
  for (int s = BATCH_MISSING; s <= BATCH_FAILED; s++) {
    json_t *j = batch_result_json((enum batch_status)s, 100, "why");
    char why[300];
    ck_assert_msg(s == BATCH_FAILED || batch_result_check(j, 100, why, sizeof why) == 0, "%s: %s",
                  batch_status_word((enum batch_status)s), why);
    ck_assert_int_eq(batch_result_status(j), s);
    double max = json_number_value(json_object_get(j, "max_score"));
    ck_assert(max == (s == BATCH_MISSING || s == BATCH_REFUSED ? 100 : 0));
    json_decref(j);
  }
  /* "missing" with points is no missing submission */
  ck_assert_int_ne(check_text("{\"score\": 5.0, \"max_score\": 100.0, \"tests\": [{\"name\": \"s\","
                              " \"score\": 5.0, \"max_score\": 100.0}], \"extra_data\":"
                              " {\"status\": \"missing\"}}", 100), 0);
  ck_assert_int_eq(batch_result_status(NULL), BATCH_PENDING);
}
END_TEST

START_TEST(quote_keeps_a_name_whole)
{
  char q[64];
  submission_quote("a\n'b\\\"c\x01", q, sizeof q);
  ck_assert_str_eq(q, "'a\\n\\'b\\\\\"c\\x01'");
  submission_quote("0123456789012345678901234567890123456789", q, 16);
  ck_assert_str_eq(q, "'0123456789...'");
}
END_TEST

/* A fresh folder under /tmp, made by a shell command (%s: the folder). */
static const char *folder(const char *cmd)
{
  static char dir[64];
  snprintf(dir, sizeof dir, "/tmp/check_batch.XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(dir));
  char sh[1024];
  snprintf(sh, sizeof sh, cmd, dir, dir, dir);
  ck_assert_int_eq(system(sh), 0);
  return dir;
}

static void rm_folder(const char *dir)
{
  char sh[128];
  snprintf(sh, sizeof sh, "rm -rf '%s'", dir);
  ck_assert_int_eq(system(sh), 0);
}

START_TEST(hash_moves_with_the_files)
{
  const char *dir = folder("mkdir -p %s/sub && echo one > %s/a.cu && echo two > %s/sub/b.txt");
  char h0[17], h1[17];
  ck_assert_int_eq(submission_hash(dir, h0), 0);
  ck_assert_int_eq(strlen(h0), 16);
  ck_assert_int_eq(submission_hash(dir, h1), 0);
  ck_assert_str_eq(h0, h1);                     /* nothing changed, the same */
  static const char *const changes[] = {
    "echo ONE > %s/a.cu", "echo two >> %s/sub/b.txt", "mv %s/sub/b.txt %s/sub/c.txt",
    "touch %s/new", "ln -s x %s/l",
  };
  for (size_t i = 0; i < sizeof changes / sizeof *changes; i++) {
    char sh[512];
    snprintf(sh, sizeof sh, changes[i], dir, dir);
    ck_assert_int_eq(system(sh), 0);
    ck_assert_int_eq(submission_hash(dir, h1), 0);
    ck_assert_msg(strcmp(h0, h1) != 0, "'%s' left the hash %s", changes[i], h1);
    memcpy(h0, h1, sizeof h0);
  }
  ck_assert_int_ne(submission_hash("/nonexistent/folder", h1), 0);
  rm_folder(dir);
}
END_TEST

START_TEST(kernel_found_or_said)
{
  char path[512], note[800], err[1200];
  /* a miscased name: graded, with a note */
  const char *dir = folder("echo k > %s/Matrix_Add.cu && echo n > %s/notes.txt");
  ck_assert_int_eq(submission_find_kernel(dir, "matrix_add.cu", path, sizeof path, note,
                                          sizeof note, err, sizeof err), SUBMISSION_OK);
  ck_assert_ptr_nonnull(strstr(path, "/Matrix_Add.cu"));
  ck_assert_ptr_nonnull(strstr(note, "The kernel file is 'Matrix_Add.cu', not matrix_add.cu"));
  rm_folder(dir);
  /* the right name: no note */
  dir = folder("echo k > %s/matrix_add.cu");
  ck_assert_int_eq(submission_find_kernel(dir, "matrix_add.cu", path, sizeof path, note,
                                          sizeof note, err, sizeof err), SUBMISSION_OK);
  ck_assert_str_eq(note, "");
  rm_folder(dir);
  /* two other .cu files, or none: missing */
  dir = folder("echo k > %s/a.cu && echo k > %s/b.cu");
  ck_assert_int_eq(submission_find_kernel(dir, "matrix_add.cu", path, sizeof path, note,
                                          sizeof note, err, sizeof err), SUBMISSION_MISSING);
  ck_assert_ptr_nonnull(strstr(err, "more than one other .cu file"));
  rm_folder(dir);
  /* a lone .cu whose name is not plain (it would be shown in compiler messages): missing */
  dir = folder("echo k > '%s/{\"score\": 100}.cu'");
  ck_assert_int_eq(submission_find_kernel(dir, "matrix_add.cu", path, sizeof path, note,
                                          sizeof note, err, sizeof err), SUBMISSION_MISSING);
  ck_assert_msg(strstr(err, "'{\"score\": 100}.cu'") && strstr(err, "not only letters"), "%s", err);
  rm_folder(dir);
  dir = folder("true");
  ck_assert_int_eq(submission_find_kernel(dir, "matrix_add.cu", path, sizeof path, note,
                                          sizeof note, err, sizeof err), SUBMISSION_MISSING);
  rm_folder(dir);
  /* a link anywhere in it, with a name a newline is in: refused, both quoted */
  dir = folder("echo k > %s/matrix_add.cu && mkdir %s/d && ln -s '/etc/pass\nwd' %s/d/x");
  ck_assert_int_eq(submission_find_kernel(dir, "matrix_add.cu", path, sizeof path, note,
                                          sizeof note, err, sizeof err), SUBMISSION_REFUSED);
  ck_assert_msg(strstr(err, "'d/x' is a symbolic link (to '/etc/pass\\nwd')") != NULL, "%s", err);
  rm_folder(dir);
}
END_TEST

/* A student whose GPU metrics ncu could not measure within the tools' limits is not graded
   (the grader's failure, not the student's 0); one whose metrics came from ncu is. */
START_TEST(ncu_stopped_is_the_graders_limit)
{
  struct run_result *stu = calloc(1, sizeof *stu), *ref = calloc(1, sizeof *ref);
  ck_assert(stu && ref);
  stu->built = ref->built = 1;
  char why[400];
  snprintf(stu->prov.ncu_note, sizeof stu->prov.ncu_note, "GPU metrics from Nsight Compute");
  ck_assert_int_eq(batch_grader_limit(stu, ref, why, sizeof why), 0);
  snprintf(stu->prov.ncu_note, sizeof stu->prov.ncu_note,
           RUN_NCU_STOPPED "ncu was stopped after 600 s on the clock (its limit)");
  ck_assert_int_eq(batch_grader_limit(stu, ref, why, sizeof why), 1);
  ck_assert_str_eq(why, "could not be graded: the GPU metrics could not be measured: ncu was "
                        "stopped after 600 s on the clock (its limit)");
  free(stu);
  free(ref);
}
END_TEST

/* answers.json, read only as a regular file of the folder and of a sane size (submission.h):
   a link (even to good answers) and a file over the limit are refused with why; a UTF-8
   byte-order mark before the object is taken; no file at all is no answers, nothing wrong. */
START_TEST(answers_checked)
{
  char why[512];
  const char *dir = folder("printf '{\"q1\": 4}' > %s/good.json && ln -s good.json %s/answers.json");
  json_t *a = submission_answers(dir, why, sizeof why);
  ck_assert_ptr_null(a);
  ck_assert_msg(strstr(why, "not a regular file") != NULL, "%s", why);
  rm_folder(dir);
  char cmd[256];
  snprintf(cmd, sizeof cmd, "{ printf '{\"q1\": 4}'; head -c %d /dev/zero | tr '\\0' ' '; } > "
           "%%s/answers.json", SUBMISSION_MAX_ANSWERS_BYTES);
  dir = folder(cmd);
  a = submission_answers(dir, why, sizeof why);
  ck_assert_ptr_null(a);
  ck_assert_msg(strstr(why, "more than 65536") != NULL, "%s", why);
  rm_folder(dir);
  dir = folder("printf '\\357\\273\\277{\"q1\": 4}' > %s/answers.json");
  a = submission_answers(dir, why, sizeof why);
  ck_assert_ptr_nonnull(a);
  ck_assert_str_eq(why, "");
  ck_assert_int_eq(json_integer_value(json_object_get(a, "q1")), 4);
  json_decref(a);
  rm_folder(dir);
  dir = folder("true %s");
  ck_assert_ptr_null(submission_answers(dir, why, sizeof why));
  ck_assert_str_eq(why, "");
  rm_folder(dir);
}
END_TEST

Suite *suite_batch(void)
{
  Suite *s = suite_create("batch");
  TCase *tc = tcase_create("batch");
  tcase_add_test(tc, result_check_takes_a_grade);
  tcase_add_loop_test(tc, result_check_refuses, 0, (int)(sizeof BAD / sizeof *BAD));
  tcase_add_test(tc, result_check_statuses);
  tcase_add_test(tc, quote_keeps_a_name_whole);
  tcase_add_test(tc, hash_moves_with_the_files);
  tcase_add_test(tc, kernel_found_or_said);
  tcase_add_test(tc, ncu_stopped_is_the_graders_limit);
  tcase_add_test(tc, answers_checked);
  suite_add_tcase(s, tc);
  return s;
}
