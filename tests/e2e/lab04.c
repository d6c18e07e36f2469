/* lab04.c: end-to-end tests of lab 04 (memory coalescing) through `warplab run` and
 * `warplab grade`, on the emulator:
 *   - the reference solution passes every test size, and every point of its four sweeps
 *     (stride, offset, layout, vector width) counts the requests, sectors, lines and efficiency
 *     that first principles give for 32 lanes loading 4 bytes each, or 4 * VEC bytes with
 *     vector loads; the rubric's answers are those counts; its lane charts' logs hold the
 *     same sectors, lane by lane, and the vector width's point reads the main
 *     configuration's buffer (a new scalar argument, the same buffers);
 *   - on the Fermi profile, nvprof's gld_efficiency follows from the 128-byte lines;
 *   - the starter writes nothing and fails on the poisoned output;
 *   - a kernel that ignores the layout fails a test of the other layout at its first wrong
 *     element; a kernel without a bounds check faults at its line;
 *   - a correct kernel that keeps the array of structures misses the memory targets, and the
 *     reference solution with its answers gets every point.
 * The first principles: the lanes of a warp read point i * stride + offset, i consecutive, 4
 * bytes each, points 4 bytes apart (SoA) or 12 (AoS); a request's sectors are the distinct
 * 32-byte pieces those 32 reads touch, its lines the distinct 128-byte pieces. Every warp of
 * a run starts a whole number of lines after the one before (32 * stride * 4 or 12 bytes) and
 * buffers start on a 256-byte boundary, so every request of a run counts the same. */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

#define LAB04_TIMEOUT_S 300
#define LAB04_N 1048576        /* lab.json: sizes.emu.n */
#define LAB04_CHECKS 10        /* lab.json: nine test sizes and the main size */
#define LAB04_POINTS 19        /* the main point, 6 strides, 7 offsets, 2 layouts, 3 widths */
#define AOS 0

static const char *const SPR = "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio";
static const char *const EFF = "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct";
static const char *const REQ = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
static const char *const SEC = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
static const char *const LINES = "warplab__lines_pipe_lsu_mem_global_op_ld.sum";
static const char *const INST = "smsp__sass_inst_executed_op_global_ld.sum";

/* How many distinct UNIT-byte pieces 32 lanes touch when lane l loads the WIDTH bytes at
   start + l * step (step >= width: each lane's bytes lie past the last lane's). */
static int pieces_of(long step, long start, long unit, long width)
{
  long last = -1;
  int count = 0;
  for (long l = 0; l < 32; l++)
    for (long u = (start + l * step) / unit; u <= (start + l * step + width - 1) / unit; u++)
      if (u > last) {
        last = u;
        count++;
      }
  return count;
}

/* The choice NAME of point P. */
static long choice(json_t *p, const char *name)
{
  json_t *v = e2e_j(p, e2e_fmt("choices/%s", name));
  ck_assert_msg(json_is_integer(v), "a point without the choice %s", name);
  return (long)json_integer_value(v);
}

/* The value of metric NAME at point P, which must have kind KIND. */
static double value(json_t *p, const char *name, const char *kind)
{
  json_t *v = e2e_j(p, e2e_fmt("metrics/%s/value", name));
  const char *label = json_string_value(json_object_get(p, "label"));
  ck_assert_msg(json_is_number(v), "point %s has no %s", label, name);
  json_t *k = e2e_j(p, e2e_fmt("metrics/%s/kind", name));
  ck_assert_msg(json_is_string(k) && !strcmp(json_string_value(k), kind), "point %s: %s is %s, "
                "expected %s", label, name, json_is_string(k) ? json_string_value(k) : "?", kind);
  return json_number_value(v);
}

/* warplab run 04 on the emulator: the reference solution (kernel_file NULL) with its sweeps,
   or another kernel file with --quick; extra (may be NULL) is one more option. */
static struct e2e_run *run04(const char *kernel_file, const char *extra, const char *extra_value)
{
  const char *res = e2e_tmp("results");
  if (!kernel_file)
    return e2e_warplab("run", "04", "--solution", "--backend", "emu", "--json", "--results", res,
                       extra, extra_value, (char *)NULL);
  return e2e_warplab("run", "04", "--kernel-file", kernel_file, "--backend", "emu", "--json",
                     "--results", res, "--quick", extra, extra_value, (char *)NULL);
}

/* The rubric's answer to question ID, from lab.json. */
static void expect_answer(json_t *lab, const char *id, double measured)
{
  double want = e2e_rubric_answer(lab, id);
  ck_assert_msg(fabs(want - measured) < 0.05, "%s: the rubric's answer is %g, the emulator "
                "measures %g", id, want, measured);
}

START_TEST(lab04_solution_counts_from_first_principles)
{
  struct e2e_run *r = run04(NULL, NULL, NULL);
  ck_assert_msg(r->status == 0, "%s exited %d\n%.3000s\n%.2000s", r->cmd, r->status, r->out, r->err);
  ck_assert(json_is_true(e2e_j(r->json, "all_passed")));
  ck_assert_int_eq(json_array_size(e2e_j(r->json, "tests")), LAB04_CHECKS);
  json_t *pts = e2e_j(r->json, "points");
  ck_assert_int_eq(json_array_size(pts), LAB04_POINTS);
  size_t i;
  json_t *p;
  json_array_foreach(pts, i, p) {
    const char *label = json_string_value(json_object_get(p, "label"));
    ck_assert_msg(json_is_true(json_object_get(p, "correct")), "point %s is wrong", label);
    long stride = choice(p, "STRIDE"), offset = choice(p, "OFFSET"), vec = choice(p, "VEC");
    long point_bytes = choice(p, "LAYOUT") == AOS ? 12 : 4;
    /* a vector width past 1 loads vec neighbours at once (the solution: SoA, stride 1,
       offset 0 in the vector sweep): lane l reads 4 vec bytes at 4 vec l */
    ck_assert_msg(vec == 1 || (stride == 1 && offset == 0 && point_bytes == 4), "point %s", label);
    int sectors = pieces_of(stride * point_bytes * vec, offset * point_bytes, 32, 4 * vec);
    int lines = pieces_of(stride * point_bytes * vec, offset * point_bytes, 128, 4 * vec);
    double req = value(p, REQ, "exact");
    ck_assert_msg(req == LAB04_N / 32 / vec, "point %s: %g requests, expected %ld", label, req,
                  LAB04_N / 32 / vec);
    ck_assert_msg(value(p, INST, "exact") == req, "point %s: a request per load instruction", label);
    ck_assert_msg(value(p, SEC, "exact") == req * sectors, "point %s: sectors", label);
    ck_assert_msg(value(p, SPR, "exact") == sectors, "point %s: %g sectors per request, expected %d",
                  label, value(p, SPR, "exact"), sectors);
    double eff = value(p, EFF, "exact");
    ck_assert_msg(fabs(eff - 100.0 * 128 * vec / (32.0 * sectors)) < 1e-9, "point %s: efficiency "
                  "%g%%", label, eff);
    ck_assert_msg(value(p, LINES, "exact") == req * lines, "point %s: %g lines per request, "
                  "expected %d", label, value(p, LINES, "exact") / req, lines);
  }
  /* the handout's graded answers are these counts */
  json_t *lab = e2e_load_json("labs/04-coalescing/lab.json");
  expect_answer(lab, "q1", value(e2e_point(r, "stride", "2"), SPR, "exact"));
  expect_answer(lab, "q2", value(e2e_point(r, "stride", "4"), EFF, "exact"));
  expect_answer(lab, "q3", value(e2e_point(r, "stride", "32"), SPR, "exact"));
  expect_answer(lab, "q4", 100.0 / value(e2e_point(r, "stride", "32"), EFF, "exact"));
  expect_answer(lab, "q5", value(e2e_point(r, "offset", "1"), SPR, "exact"));
  expect_answer(lab, "q6", value(e2e_point(r, "offset", "1"), EFF, "exact"));
  expect_answer(lab, "q8", value(e2e_point(r, "layout", "0"), SPR, "exact"));
  expect_answer(lab, "q9", value(e2e_point(r, "layout", "0"), EFF, "exact"));
  /* bytes per element when DRAM moves what the L1 asks for: the sectors read (per lane) and
     the 4 bytes written */
  double per8 = value(e2e_point(r, "stride", "8"), SPR, "exact") * 32 / 32 + 4;
  double per1 = value(e2e_point(r, "stride", "1"), SPR, "exact") * 32 / 32 + 4;
  expect_answer(lab, "q10", per8 / per1);
  expect_answer(lab, "q11", value(e2e_point(r, "vector width", "4"), SPR, "exact"));
  json_decref(lab);
  /* the lane charts' logs: warp 0 of block 0, its load of x, lane l at byte l * step of points
     (stride 1, 2; the array of structures; 16 bytes a lane at vector width 4) */
  static const struct { const char *name; long step, width; } lc[] = {
    {"lanes_stride1", 4, 4}, {"lanes_stride2", 8, 4}, {"lanes_aos", 12, 4}, {"lanes_float4", 16, 16},
  };
  const char *dir = e2e_jstr(r, "results_dir");
  json_int_t base[sizeof lc / sizeof *lc];      /* where each log's points start */
  for (size_t k = 0; k < sizeof lc / sizeof *lc; k++) {
    json_t *log = e2e_load_json(e2e_fmt("%s/%s.lanes.json", dir, lc[k].name));
    json_t *load = NULL, *s;
    json_array_foreach(json_object_get(log, "steps"), i, s) {
      const char *sp = json_string_value(e2e_j(s, "mem/space"));
      if (!load && sp && !strcmp(sp, "global") && !strcmp(json_string_value(e2e_j(s, "mem/access")), "read"))
        load = s;
    }
    ck_assert_msg(load != NULL, "%s: no load in the log", lc[k].name);
    ck_assert_int_eq(json_integer_value(e2e_j(load, "mem/size")), lc[k].width);
    ck_assert_int_eq(json_integer_value(e2e_j(load, "mem/sectors")),
                     pieces_of(lc[k].step, 0, 32, lc[k].width));
    for (long l = 0; l < 32; l++) {
      json_t *a = e2e_j(load, e2e_fmt("mem/lanes/%ld", l));
      ck_assert_int_eq(json_integer_value(json_object_get(a, "offset")), l * lc[k].step);
      ck_assert_int_eq(json_integer_value(json_object_get(a, "sector")), l * lc[k].step / 32);
    }
    json_t *a0 = e2e_j(load, "mem/lanes/0");
    base[k] = json_integer_value(json_object_get(a0, "addr")) -
              json_integer_value(json_object_get(a0, "offset"));
    json_decref(log);
    if (system("command -v gnuplot >/dev/null 2>&1") == 0) {
      char *png = e2e_read_text(e2e_fmt("%s/%s.png", dir, lc[k].name));
      ck_assert_msg(!memcmp(png, "\x89PNG", 4), "%s.png is not a PNG", lc[k].name);
    }
  }
  /* the vector width 4 point changes a scalar argument only (vec), not a buffer's size: it
     runs on the main configuration's buffers (stride 1 is the main configuration), not on
     buffers of its own */
  ck_assert_msg(base[3] == base[0], "lanes_float4 reads points at %lld, the main configuration "
                "at %lld", (long long)base[3], (long long)base[0]);
}
END_TEST

/* Fermi's L1-cached loads moved whole 128-byte lines: nvprof's gld_efficiency is the bytes
   asked for over 128 bytes per line, and its transactions per request are the lines. */
START_TEST(lab04_fermi_lines)
{
  struct e2e_run *r = run04(NULL, "--arch", "fermi-m2070");
  ck_assert_msg(r->status == 0, "%s exited %d\n%.3000s", r->cmd, r->status, r->err);
  size_t i;
  json_t *p;
  json_array_foreach(e2e_j(r->json, "points"), i, p) {
    const char *label = json_string_value(json_object_get(p, "label"));
    long stride = choice(p, "STRIDE"), offset = choice(p, "OFFSET"), vec = choice(p, "VEC");
    long point_bytes = choice(p, "LAYOUT") == AOS ? 12 : 4;
    int lines = pieces_of(stride * point_bytes * vec, offset * point_bytes, 128, 4 * vec);
    ck_assert_msg(value(p, "gld_transactions_per_request", "exact") == lines, "point %s", label);
    double eff = value(p, "gld_efficiency", "exact");
    ck_assert_msg(fabs(eff - 100.0 * vec / lines) < 1e-9, "point %s: gld_efficiency %g%%, "
                  "expected %g%%", label, eff, 100.0 * vec / lines);
  }
  json_t *lab = e2e_load_json("labs/04-coalescing/lab.json");
  expect_answer(lab, "q7", value(e2e_point(r, "offset", "8"), "gld_efficiency", "exact"));
  json_decref(lab);
}
END_TEST

START_TEST(lab04_starter_is_poisoned)
{
  struct e2e_run *r = run04("labs/04-coalescing/gather.cu", NULL, NULL);
  ck_assert_int_eq(r->status, 1);
  json_t *t = e2e_test_at(r, "n=1 stride=1 offset=0 flip=0");
  ck_assert_str_eq(e2e_state_of(t), "fail");
  ck_assert_int_eq(json_integer_value(json_object_get(t, "first_bad")), 0);
  ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(t, "detail")), "never wrote"));
  ck_assert_int_eq(json_array_size(e2e_j(r->json, "points")), 0);
}
END_TEST

/* x of point k read as points[k] in both layouts: right in SoA (its own layout, flip=0),
   wrong in AoS from the first point whose index is not 0. */
START_TEST(lab04_wrong_layout_first_bad)
{
  struct e2e_run *r = run04("tests/e2e/lab04/wrong_layout.cu", NULL, NULL);
  ck_assert_int_eq(r->status, 1);
  ck_assert_str_eq(e2e_state_of(e2e_test_at(r, "n=33 stride=3 offset=5 flip=0")), "pass");
  ck_assert_str_eq(e2e_state_of(e2e_test_at(r, "n=257 stride=32 offset=31 flip=0")), "pass");
  json_t *t = e2e_test_at(r, "n=1000 stride=2 offset=0 flip=1");
  ck_assert_str_eq(e2e_state_of(t), "fail");
  /* out[0] reads point 0, float 0 in both layouts; out[1] reads point 2: float 2, not 6 */
  ck_assert_int_eq(json_integer_value(json_object_get(t, "first_bad")), 1);
  ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(t, "detail")), "out[1] is wrong"));
}
END_TEST

START_TEST(lab04_no_bounds_faults_at_its_line)
{
  const char *k = "tests/e2e/lab04/no_bounds.cu";
  struct e2e_run *r = run04(k, NULL, NULL);
  ck_assert_int_eq(r->status, 1);
  json_t *t = e2e_test_at(r, "n=1 stride=1 offset=0 flip=0");
  ck_assert_str_eq(e2e_state_of(t), "fault");
  ck_assert_int_eq(json_integer_value(e2e_j(t, "source/line")), e2e_marker_line(k, "NO-BOUNDS"));
  const char *detail = json_string_value(json_object_get(t, "detail"));
  /* points holds a block's worth of points past the last one read, so the fault is the
     write past out, not a read */
  ck_assert_msg(strstr(detail, "out of bounds") && strstr(detail, "out (parameter 1)"), "%s", detail);
}
END_TEST

/* A correct kernel that keeps the array of structures: every correctness point and every
   answer, but neither memory target (12 sectors per request, 33% efficiency). */
START_TEST(lab04_grade_aos_misses_the_targets)
{
  const char *sub = e2e_tmp("alice");
  char *src = e2e_read_text("solutions/04-coalescing/gather.cu");
  char *at = strstr(src, "__constant__ int LAYOUT = SOA;");
  ck_assert_ptr_nonnull(at);
  memcpy(at, "__constant__ int LAYOUT = AOS;", strlen("__constant__ int LAYOUT = AOS;"));
  char *cmd = e2e_fmt("mkdir -p '%s' && cp solutions/04-coalescing/answers.json '%s/'", sub, sub);
  ck_assert_int_eq(system(cmd), 0);
  FILE *f = fopen(e2e_fmt("%s/gather.cu", sub), "w");
  ck_assert_ptr_nonnull(f);
  fputs(src, f);
  fclose(f);
  struct e2e_run *r = e2e_warplab("grade", "04", sub, "--backend", "emu", "--json", "--out",
                                  e2e_tmp("graded"), (char *)NULL);
  ck_assert_msg(r->status == 0, "%s\n%.3000s\n%.2000s", r->cmd, r->out, r->err);
  double correct = 0, targets = 0, answers = 0;
  size_t i;
  json_t *t;
  json_array_foreach(e2e_j(r->json, "tests"), i, t) {
    const char *name = json_string_value(json_object_get(t, "name"));
    double score = json_number_value(json_object_get(t, "score"));
    if (!strncmp(name, "correctness", 11))
      correct += score;
    else if (!strncmp(name, "metric target", 13))
      targets += score;
    else if (!strncmp(name, "question", 8))
      answers += score;
  }
  ck_assert_msg(fabs(correct - 60) < 1e-9 && fabs(answers - 11) < 1e-9, "correctness %g, "
                "questions %g\n%.3000s", correct, answers, r->out);
  ck_assert_msg(targets == 0, "the AoS layout earned %g points of memory targets", targets);
  ck_assert_ptr_nonnull(strstr(e2e_jstr(r, "output"), "is 12, the target is at most 4"));
}
END_TEST

/* The reference solution handed in as a submission, with its answers.json (what `make demo`
   grades): every point there is. */
START_TEST(lab04_grade_solution_full_marks)
{
  e2e_expect_full_marks("04", "solutions/04-coalescing");
}
END_TEST

void e2e_add_lab04_tests(Suite *s)
{
  if (!e2e_have_nvcc()) {
    printf("e2e: nvcc not found: SKIPPING the 7 tests of lab 04\n");
    return;
  }
  TCase *tc = tcase_create("lab04");
  tcase_add_checked_fixture(tc, e2e_setup, e2e_teardown);
  tcase_set_timeout(tc, LAB04_TIMEOUT_S);
  tcase_add_test(tc, lab04_solution_counts_from_first_principles);
  tcase_add_test(tc, lab04_fermi_lines);
  tcase_add_test(tc, lab04_starter_is_poisoned);
  tcase_add_test(tc, lab04_wrong_layout_first_bad);
  tcase_add_test(tc, lab04_no_bounds_faults_at_its_line);
  tcase_add_test(tc, lab04_grade_aos_misses_the_targets);
  tcase_add_test(tc, lab04_grade_solution_full_marks);
  suite_add_tcase(s, tc);
}
