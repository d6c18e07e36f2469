/* gpuhang.c: a kernel that hangs the GPU, without a GPU (issue 9).
 *
 * A kernel that never ends holds a GPU until its process ends. warplab stops waiting after
 * WARPLAB_GPU_TIMEOUT seconds and records the check as "timeout"; a lab run does its GPU
 * part in a child process, so the run still writes its result, the report and the grade,
 * and `warplab grade` runs the reference solution next in a fresh process (run.c). These
 * tests drive that through the real GPU backend (be_cuda.c) with a stand-in driver,
 * tests/e2e/gpuhang/fakecuda.c, built here with cc and loaded through WARPLAB_TEST_LIBCUDA:
 * its kernels do nothing (a lab's outputs stay poisoned), one chosen launch never finishes
 * or takes the process down, and any call after a hang that a real driver would block in
 * aborts it, so a test sees such a call as a crash rather than hanging. The same kernel,
 * tests/e2e/lab06/hang.cu, hung an H200 (labs/06-divergence/measured/h200-hang.txt).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/e2e/e2e.h"

#define GPUHANG_TIMEOUT_S 120
#define HANG_CU "tests/e2e/lab06/hang.cu"

/* The stand-in driver, built into dir. */
static const char *fake_driver(const char *dir)
{
  const char *so = e2e_fmt("%s/libfakecuda.so", dir);
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    execlp("cc", "cc", "-std=c11", "-shared", "-fPIC", "-o", so, "tests/e2e/gpuhang/fakecuda.c",
           (char *)NULL);
    _exit(127);
  }
  int status;
  ck_assert_int_eq(waitpid(pid, &status, 0), pid);
  ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "cc could not build %s", so);
  return so;
}

/* The stand-in driver in dir, a GPU time limit of 1 s, and what the driver does (hang or
   crash: "N[:TEXT]", or NULL). */
static void use_fake_gpu(const char *dir, const char *hang, const char *crash)
{
  setenv("WARPLAB_TEST_LIBCUDA", fake_driver(dir), 1);
  setenv("WARPLAB_GPU_TIMEOUT", "1", 1);
  if (hang)
    setenv("WARPLAB_FAKE_CUDA_HANG", hang, 1);
  if (crash)
    setenv("WARPLAB_FAKE_CUDA_CRASH", crash, 1);
}

static void unuse_fake_gpu(void)
{
  unsetenv("WARPLAB_TEST_LIBCUDA");
  unsetenv("WARPLAB_GPU_TIMEOUT");
  unsetenv("WARPLAB_FAKE_CUDA_HANG");
  unsetenv("WARPLAB_FAKE_CUDA_CRASH");
  unsetenv("WARPLAB_SANDBOX");
}

static const char *str_at(const json_t *o, const char *path)
{
  const char *s = json_string_value(e2e_j(o, path));
  ck_assert_msg(s != NULL, "no string at %s", path);
  return s;
}

/* The labels of lab 06's tests and main size, in order, from lab.json. */
static size_t lab06_checks(void)
{
  json_t *lab = e2e_load_json("labs/06-divergence/lab.json");
  size_t n = json_array_size(json_object_get(lab, "tests")) + 1;
  json_decref(lab);
  ck_assert_uint_ge(n, 4);
  return n;
}

/* The lab run's tests, from the result.json it wrote in res (one run below it), which must
   hold what stdout held. */
static json_t *saved_result(const struct e2e_run *r, const char *res)
{
  const char *dir = str_at(r->json, "results_dir");
  ck_assert_msg(!strncmp(dir, res, strlen(res)), "%s is not under %s", dir, res);
  json_error_t je;
  json_t *saved = json_load_file(e2e_fmt("%s/result.json", dir), 0, &je);
  ck_assert_msg(saved != NULL, "%s/result.json: %s", dir, je.text);
  ck_assert_msg(json_equal(json_object_get(saved, "tests"), e2e_j(r->json, "tests")),
                "result.json's tests differ from the run's");
  return saved;
}

/* Every check from `from` on says "not run: WHY". */
static void expect_not_run(const json_t *tests, size_t from, const char *why)
{
  for (size_t i = from; i < json_array_size(tests); i++) {
    const json_t *t = json_array_get(tests, i);
    const char *d = str_at(t, "detail");
    ck_assert_msg(!strcmp(str_at(t, "state"), "fail") && !strncmp(d, "not run: ", 9) &&
                  strstr(d, why), "test %zu: %s: %s", i, str_at(t, "state"), d);
  }
}

/* A lab run whose second launch never finishes: the first check fails (the stand-in's
   kernels write nothing), the second is a timeout with its message, the others are not
   run, the run ends by itself with exit status 1 and its result.json says the same. */
START_TEST(gpuhang_run_records_the_timeout)
{
  const char *res = e2e_tmp("results");
  use_fake_gpu(e2e_tmp(""), "2", NULL);
  struct e2e_run *r = e2e_warplab("run", "06", "--backend", "gpu", "--kernel-file", HANG_CU,
                                  "--quick", "--json", "--results", res, (char *)NULL);
  unuse_fake_gpu();
  ck_assert_msg(r->status == 1 && json_is_object(r->json), "%s: exit %d\n%.2000s\n%.2000s", r->cmd,
                r->status, r->out, r->err);
  ck_assert_msg(!strstr(r->err, "fakecuda:"), "a driver call after the hang:\n%s", r->err);
  json_t *tests = e2e_j(r->json, "tests");
  ck_assert_uint_eq(json_array_size(tests), lab06_checks());
  ck_assert_str_eq(str_at(tests, "0/state"), "fail");
  ck_assert_ptr_nonnull(strstr(str_at(tests, "0/detail"), "never wrote"));
  ck_assert_str_eq(str_at(tests, "1/state"), "timeout");
  const char *d = str_at(tests, "1/detail");
  ck_assert_msg(strstr(d, "did not finish within 1 s") && strstr(d, "loop forever or deadlock") &&
                strstr(d, "--backend emu"), "%s", d);
  expect_not_run(tests, 2, e2e_fmt("the GPU hung on %s", str_at(tests, "1/label")));
  const char *main_label = str_at(tests, e2e_fmt("%zu/label", lab06_checks() - 1));
  ck_assert_msg(strstr(main_label, " (main)"), "%s", main_label);
  ck_assert_int_eq(json_array_size(e2e_j(r->json, "points")), 0);
  ck_assert_int_eq(json_integer_value(e2e_j(r->json, "exit_code")), 1);
  json_t *saved = saved_result(r, res);
  json_decref(saved);
}
END_TEST

/* The text report names the state. */
START_TEST(gpuhang_report_says_timeout)
{
  use_fake_gpu(e2e_tmp(""), "1", NULL);
  struct e2e_run *r = e2e_warplab("run", "06", "--backend", "gpu", "--kernel-file", HANG_CU,
                                  "--quick", "--plain", "--results", e2e_tmp("results"),
                                  (char *)NULL);
  unuse_fake_gpu();
  ck_assert_int_eq(r->status, 1);
  ck_assert_msg(strstr(r->out, "TIMEOUT n=1 shift=0\n") && strstr(r->out, "0 of ") &&
                strstr(r->out, "not run: the GPU hung on n=1 shift=0"), "%s", r->out);
}
END_TEST

/* A driver that takes the run's process down: the parent records the check that was
   running, and the rest as not run, and still writes result.json. */
START_TEST(gpuhang_crash_is_recorded_by_the_parent)
{
  const char *res = e2e_tmp("results");
  use_fake_gpu(e2e_tmp(""), NULL, "2");
  struct e2e_run *r = e2e_warplab("run", "06", "--backend", "gpu", "--kernel-file", HANG_CU,
                                  "--quick", "--json", "--results", res, (char *)NULL);
  unuse_fake_gpu();
  ck_assert_msg(r->status == 1 && json_is_object(r->json), "%s: exit %d\n%.2000s", r->cmd,
                r->status, r->err);
  json_t *tests = e2e_j(r->json, "tests");
  ck_assert_uint_eq(json_array_size(tests), lab06_checks());
  ck_assert_str_eq(str_at(tests, "0/state"), "fail");
  ck_assert_str_eq(str_at(tests, "1/state"), "fault");
  const char *d = str_at(tests, "1/detail");
  ck_assert_msg(strstr(d, "ended during this check") && strstr(d, "signal 6"), "%s", d);
  expect_not_run(tests, 2, e2e_fmt("the GPU run ended on %s", str_at(tests, "1/label")));
  json_decref(saved_result(r, res));
}
END_TEST

/* warplab grade: the submission hangs on its first check; the grade is written, every
   correctness item says why, and the reference solution ran after it in a process of its
   own (in the hung one, the stand-in would have aborted it at its first call). Here every
   module hangs, the reference's too, which keeps the test short. The stand-in lives in the
   results folder, which the grade's confinement lets it read. */
START_TEST(gpuhang_grade_records_the_timeout)
{
  const char *sub = e2e_tmp("alice"), *out = e2e_tmp("graded");
  ck_assert_int_eq(system(e2e_fmt("mkdir -p '%s' '%s' && cp %s '%s/evenodd.cu'", sub, out,
                                  HANG_CU, sub)), 0);
  use_fake_gpu(out, "1", NULL);
  struct e2e_run *r = e2e_warplab("grade", "06", sub, "--backend", "gpu", "--json", "--out", out,
                                  (char *)NULL);
  unuse_fake_gpu();
  ck_assert_msg(r->status == 1 && json_is_object(r->json), "%s: exit %d\n%.2000s\n%.2000s", r->cmd,
                r->status, r->out, r->err);
  ck_assert_msg(!strstr(r->err, "fakecuda:"), "a driver call after the hang:\n%s", r->err);
  ck_assert(json_real_value(e2e_j(r->json, "score")) == 0.0);
  size_t i, ncorrect = 0;
  json_t *t;
  json_array_foreach(e2e_j(r->json, "tests"), i, t) {
    const char *name = str_at(t, "name");
    if (strncmp(name, "correctness: ", 13))
      continue;
    const char *o = str_at(t, "output");
    ck_assert_msg(ncorrect ? strstr(o, "not run: the GPU hung on n=1 shift=0") != NULL
                           : strstr(o, "did not finish within 1 s") != NULL, "%s: %s", name, o);
    ncorrect++;
  }
  ck_assert_uint_eq(ncorrect, lab06_checks());
}
END_TEST

/* warplab batch, one student after the other (-j 1): both kernels hang the GPU (every
   module does, the reference's too, to keep the test short); each grade is recorded with
   the hang's message rather than as a grade that could not be made, and the batch goes on
   to the second student. The stand-in driver is outside the students' folders, so the
   grades run unconfined (isolation.c tests the confinement). */
START_TEST(gpuhang_batch_goes_on)
{
  const char *roster = e2e_tmp("class"), *out = e2e_tmp("graded");
  ck_assert_int_eq(system(e2e_fmt("mkdir -p '%s/ann' '%s/ben' && cp %s '%s/ann/evenodd.cu' && "
                                  "cp labs/06-divergence/evenodd.cu '%s/ben/evenodd.cu'", roster,
                                  roster, HANG_CU, roster, roster)), 0);
  use_fake_gpu(e2e_tmp(""), "1", NULL);
  setenv("WARPLAB_SANDBOX", "none", 1);
  struct e2e_run *r = e2e_warplab("batch", "06", roster, "--out", out, "-j", "1", "--backend",
                                  "gpu", (char *)NULL);
  unuse_fake_gpu();
  ck_assert_msg(r->status == 0 && strstr(r->out, "2 students: 2 graded, 0 failed"), "%s: exit %d\n"
                "%.2000s\n%.2000s", r->cmd, r->status, r->out, r->err);
  for (int k = 0; k < 2; k++) {
    const char *res = e2e_read_text(e2e_fmt("%s/%s/results.json", out, k ? "ben" : "ann"));
    ck_assert_msg(strstr(res, "did not finish within 1 s") && strstr(res, "not run: the GPU hung"),
                  "%.3000s", res);
  }
  const char *book = e2e_read_text(e2e_fmt("%s/gradebook.csv", out));
  ck_assert_msg(strstr(book, "ann") && strstr(book, "ben"), "%s", book);
}
END_TEST

/* warplab emu --backend gpu: the launch comes back as a gpu_error with the message, exit 1,
   and --dump writes nothing rather than reading a GPU that is not free. */
START_TEST(gpuhang_emu_reports_the_timeout)
{
  use_fake_gpu(e2e_tmp(""), "1", NULL);
  const char *dump = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(e2e_ptx("elementwise.ptx"), "--kernel", "add", "--grid", "1",
                              "--block", "32", "--arg", "f32buf:32:zero", "--arg", "f32buf:32:zero",
                              "--arg", "f32buf:32:zero", "--arg", "i32:32", "--backend", "gpu",
                              "--dump", e2e_fmt("2=%s", dump), "--json", (char *)NULL);
  unuse_fake_gpu();
  e2e_expect_outcome(r, 1, "gpu_error");
  ck_assert_ptr_nonnull(strstr(e2e_jstr(r, "fault/message"), "did not finish within 1 s"));
  ck_assert_ptr_nonnull(strstr(r->err, "--dump: nothing written"));
  ck_assert_msg(!strstr(r->err, "fakecuda:"), "%s", r->err);
  ck_assert_int_ne(access(dump, F_OK), 0);
}
END_TEST

void e2e_add_gpuhang_tests(Suite *s)
{
  if (!e2e_have_nvcc())
    printf("e2e: nvcc not found: SKIPPING 5 of the 6 tests of a hanging GPU kernel\n");
  TCase *tc = tcase_create("gpuhang");
  tcase_add_checked_fixture(tc, e2e_setup, e2e_teardown);
  tcase_set_timeout(tc, GPUHANG_TIMEOUT_S);
  tcase_add_test(tc, gpuhang_emu_reports_the_timeout);
  if (e2e_have_nvcc()) {
    tcase_add_test(tc, gpuhang_run_records_the_timeout);
    tcase_add_test(tc, gpuhang_report_says_timeout);
    tcase_add_test(tc, gpuhang_crash_is_recorded_by_the_parent);
    tcase_add_test(tc, gpuhang_grade_records_the_timeout);
    tcase_add_test(tc, gpuhang_batch_goes_on);
  }
  suite_add_tcase(s, tc);
}
