/* check_run.c: the lab harness's pieces: the expressions of lab definitions. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/run.h"
#include "run/run_expr.h"
#include "run/run_sanitize.h"
#include "suites.h"

static const struct run_var vars[] = {{"nx", 1000}, {"ny", 3}, {"BLOCK_X", 32}, {"BLOCK_Y", 8}};

START_TEST(test_expr_values)
{
  static const struct { const char *text; int64_t want; } rows[] = {
    {"nx*ny", 3000}, {"cdiv(nx, BLOCK_X)", 32}, {"cdiv(ny,BLOCK_Y)", 1}, {"cdiv(0, 8)", 0},
    {"1 + 2 * 3", 7}, {"(1 + 2) * 3", 9}, {"-4 + 10", 6}, {"- -4", 4}, {"17 % 5", 2},
    {"17 / 5", 3}, {"min(nx, 7)", 7}, {"max(ny, BLOCK_Y)", 8}, {"pow2ceil(1000)", 1024},
    {"pow2ceil(1)", 1}, {"nx - nx", 0}, {"  nx  ", 1000}, {"9223372036854775807", INT64_MAX},
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    int64_t v = -12345;
    char err[128] = "";
    ck_assert_msg(run_expr_eval(rows[i].text, vars, 4, &v, err, sizeof err) == 0, "%s: %s",
                  rows[i].text, err);
    ck_assert_msg(v == rows[i].want, "%s = %lld, expected %lld", rows[i].text, (long long)v,
                  (long long)rows[i].want);
  }
}
END_TEST

START_TEST(test_expr_errors)
{
  static const struct { const char *text, *msg; } rows[] = {
    {"nx / 0", "division by zero"}, {"cdiv(nx, 0)", "not positive"}, {"nz * 2", "unknown name 'nz'"},
    {"nx +", "unexpected end"}, {"(nx", "expected ')'"}, {"nx nx", "unexpected text"},
    {"foo(1, 2)", "unknown function"}, {"cdiv(1)", "wrong number of arguments"},
    {"9223372036854775807 + 1", "overflows"}, {"99999999999999999999", "too large"},
    {"", "unexpected end"},
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    int64_t v = 0;
    char err[160] = "";
    ck_assert_msg(run_expr_eval(rows[i].text, vars, 4, &v, err, sizeof err) == -1, "%s accepted", rows[i].text);
    ck_assert_msg(strstr(err, rows[i].msg) != NULL, "%s: message '%s' lacks '%s'", rows[i].text, err, rows[i].msg);
  }
  /* deep nesting is refused, not a stack overflow */
  char deep[400];
  memset(deep, '(', 200);
  deep[200] = '1';
  memset(deep + 201, ')', 198);
  deep[399] = 0;
  int64_t v;
  char err[160];
  ck_assert_int_eq(run_expr_eval(deep, vars, 4, &v, err, sizeof err), -1);
  ck_assert_ptr_nonnull(strstr(err, "nested too deeply"));
}
END_TEST

/* result.json read back: provenance, the tests, points, their metrics and their choices (which
   the charts use to find the kernel file's own configuration in a sweep). */
START_TEST(test_result_load)
{
  char dir[] = "/tmp/warplab-check-result-XXXXXX", path[64], lab[32], err[256];
  ck_assert_ptr_nonnull(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/result.json", dir);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs("{\"lab\": \"01-matrix-add\", \"provenance\": {\"backend\": \"gpu\", \"sizes\": \"nx=8\","
        " \"seed\": 4242, \"kernel_file\": \"k.cu\"}, \"built\": true, \"registers\": 12,"
        " \"tests\": [{\"label\": \"nx=1\", \"sizes\": {\"nx\": 1}, \"state\": \"pass\", \"detail\": \"\"},"
        " {\"label\": \"nx=33\", \"state\": \"fail\", \"detail\": \"c[1] is wrong\", \"first_bad\": 1},"
        " {\"label\": \"nx=8\", \"state\": \"fault\", \"detail\": \"out of bounds\","
        " \"source\": {\"file\": \"k.cu\", \"line\": 27}}],"
        " \"points\": [{\"sweep\": \"\", \"label\": \"64x4\", \"correct\": true,"
        " \"grid\": [1, 2, 1], \"block\": [64, 4, 1], \"time_ms\": 0.5, \"time_kind\": \"measured\","
        " \"choices\": {\"BLOCK_X\": 64, \"BLOCK_Y\": 4},"
        " \"metrics\": {\"gpu__time_duration.sum\": {\"value\": 953984, \"kind\": \"measured\"},"
        " \"x\": {\"value\": null, \"kind\": \"exact\"}}}]}", f);
  ck_assert_int_eq(fclose(f), 0);
  struct run_result *r = malloc(sizeof *r);
  ck_assert_ptr_nonnull(r);
  ck_assert_int_eq(run_result_load(dir, r, lab, sizeof lab, err, sizeof err), 0);
  ck_assert_str_eq(lab, "01-matrix-add");
  ck_assert_str_eq(r->prov.backend, "gpu");
  ck_assert_uint_eq(r->prov.seed, 4242);
  ck_assert_str_eq(r->prov.kernel_file, "k.cu");
  ck_assert_uint_eq(r->registers, 12);
  ck_assert_uint_eq(r->nchecks, 3);
  ck_assert_int_eq(r->checks[0].state, RUN_CHECK_PASS);
  ck_assert_int_eq(run_sizes_get(&r->checks[0].sizes, "nx", &(int64_t){0}), 1);
  ck_assert_int_eq(r->checks[0].first_bad, -1);
  ck_assert_int_eq(r->checks[1].state, RUN_CHECK_FAIL);
  ck_assert_int_eq(r->checks[1].first_bad, 1);
  ck_assert_str_eq(r->checks[1].detail, "c[1] is wrong");
  ck_assert_int_eq(r->checks[2].state, RUN_CHECK_FAULT);
  ck_assert_str_eq(r->checks[2].fault_file, "k.cu");
  ck_assert_uint_eq(r->checks[2].fault_line, 27);
  ck_assert_uint_eq(r->npoints, 1);
  ck_assert_uint_eq(r->points[0].grid[1], 2);
  ck_assert_uint_eq(r->points[0].block[0], 64);
  ck_assert(r->points[0].time_ms == 0.5);
  ck_assert_str_eq(r->points[0].time_kind, "measured");
  int64_t v = 0;
  ck_assert_int_eq(run_sizes_get(&r->points[0].choices, "BLOCK_X", &v), 1);
  ck_assert_int_eq(v, 64);
  ck_assert_int_eq(run_sizes_get(&r->points[0].choices, "BLOCK_Y", &v), 1);
  ck_assert_int_eq(v, 4);
  ck_assert_uint_eq(r->points[0].nmetrics, 2);
  ck_assert(r->points[0].metric[0].defined && r->points[0].metric[0].value == 953984);
  ck_assert(!r->points[0].metric[1].defined);
  free(r);
  unlink(path);
  rmdir(dir);
}
END_TEST

/* compute-sanitizer's reports (as an H200 printed them, tests/gpu/results/sanitizer.txt) in
   the emulator's words: the first report, its file and line, the error count. */
START_TEST(test_sanitizer_parse)
{
  static const char memcheck[] =
    "========= COMPUTE-SANITIZER\n"
    "========= Invalid __global__ write of size 4 bytes\n"
    "=========     at oob_write+0x220 in oob.cu:8\n"
    "=========     by thread (100,0,0) in block (1,0,0)\n"
    "=========     Access to 0x7f121a800390 is out of bounds\n"
    "=========     and is 1 bytes after the nearest allocation at 0x7f121a800200 of size 400 bytes\n"
    "=========     Saved host backtrace up to driver entry point at kernel launch time\n"
    "========= \n"
    "warplab emu: oob_write  grid (2,1,1)\n"
    "========= Invalid __global__ write of size 4 bytes\n"
    "=========     at oob_write+0x220 in oob.cu:8\n"
    "=========     by thread (101,0,0) in block (1,0,0)\n"
    "========= ERROR SUMMARY: 28 errors\n";
  struct run_sanitized r;
  ck_assert_int_eq(run_sanitizer_parse(memcheck, &r), 28);
  ck_assert_str_eq(r.message, "Invalid __global__ write of size 4 bytes at oob.cu:8 by thread "
                   "(100,0,0) in block (1,0,0): access to 0x7f121a800390 is out of bounds and is "
                   "1 bytes after the nearest allocation at 0x7f121a800200 of size 400 bytes");
  ck_assert_str_eq(r.file, "oob.cu");
  ck_assert_int_eq(r.line, 8);

  static const char synccheck[] =
    "========= Barrier error detected. Divergent thread(s) in warp.\n"
    "=========     at half_barrier+0x190 in /work/main/tests/e2e/kernels/barrier_divergence.cu:13\n"
    "=========     by thread (0,0,0) in block (0,0,0)\n"
    "========= \n"
    "========= Barrier error detected. Divergent thread(s) in warp.\n"
    "=========     at half_barrier+0x190 in barrier_divergence.cu:13\n"
    "=========     by thread (1,0,0) in block (0,0,0)\n";
  ck_assert_int_eq(run_sanitizer_parse(synccheck, &r), 2);     /* no summary: reports counted */
  ck_assert_str_eq(r.message, "Barrier error detected. Divergent thread(s) in warp. at "
                   "/work/main/tests/e2e/kernels/barrier_divergence.cu:13 by thread (0,0,0) in "
                   "block (0,0,0)");
  ck_assert_int_eq(r.line, 13);

  ck_assert_int_eq(run_sanitizer_parse("========= COMPUTE-SANITIZER\n"
                                       "========= ERROR SUMMARY: 0 errors\n", &r), 0);
  ck_assert_str_eq(r.message, "");
}
END_TEST

/* "hidden": true marks a test for graded runs only; anything but a boolean is refused with
   the field's name. Lab 01 has exactly one, its last test. */
START_TEST(test_lab_hidden_tests)
{
  struct run_lab *lab = malloc(sizeof *lab);
  char err[1024];
  ck_assert_ptr_nonnull(lab);
  ck_assert_msg(run_lab_load("01", "labs", lab, err, sizeof err) == 0, "%s", err);
  uint32_t hidden = 0;
  for (uint32_t i = 0; i < lab->ntests; i++)
    hidden += lab->test_hidden[i];
  ck_assert_uint_eq(hidden, 1);
  ck_assert_uint_eq(lab->test_hidden[lab->ntests - 1], 1);
  int64_t nx;
  ck_assert(run_sizes_get(&lab->tests[lab->ntests - 1], "nx", &nx));   /* not a size itself */
  ck_assert(!run_sizes_get(&lab->tests[lab->ntests - 1], "hidden", &nx));
  json_t *bad = json_deep_copy(lab->json);
  json_object_set_new(json_array_get(json_object_get(bad, "tests"), 0), "hidden",
                      json_string("yes"));
  char dir[] = "/tmp/check_run_lab.XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(dir));
  char sub[64], file[96];
  snprintf(sub, sizeof sub, "%s/01-bad", dir);
  snprintf(file, sizeof file, "%s/lab.json", sub);
  ck_assert_int_eq(mkdir(sub, 0755), 0);
  ck_assert_int_eq(json_dump_file(bad, file, 0), 0);
  run_lab_free(lab);
  ck_assert_int_eq(run_lab_load(sub, NULL, lab, err, sizeof err), -1);
  ck_assert_msg(strstr(err, "tests.hidden"), "%s", err);
  unlink(file);
  rmdir(sub);
  rmdir(dir);
  json_decref(bad);
  free(lab);
}
END_TEST

Suite *suite_run(void)
{
  Suite *s = suite_create("run");
  TCase *t = tcase_create("expr");
  tcase_add_test(t, test_expr_values);
  tcase_add_test(t, test_expr_errors);
  tcase_add_test(t, test_result_load);
  tcase_add_test(t, test_sanitizer_parse);
  tcase_add_test(t, test_lab_hidden_tests);
  suite_add_tcase(s, t);
  return s;
}
