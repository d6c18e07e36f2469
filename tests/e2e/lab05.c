/* lab05.c: end-to-end tests of lab 05 (shared-memory bank conflicts) through `warplab run`,
 * `warplab emu` and `warplab grade`, on the emulator:
 *   - the reference solution passes every test size, and every point of its two sweeps (the
 *     four tile layouts, the padded tile's row pitch) counts the shared-memory wavefronts and
 *     bank conflicts that first principles give for its layout; the rubric's answers about
 *     the transpose are those counts;
 *   - the bank probe (labs/05-bank-conflicts/bank_probe.cu) counts, for one warp's load at
 *     each stride of the handout and for 8- and 16-byte elements, the wavefronts of the rule;
 *     the rubric's answers about strides and widths are those counts;
 *   - the starter writes nothing and fails on the poisoned output;
 *   - a transpose without its barrier reads tile elements no warp has stored yet: it fails at
 *     its first element that another warp loads;
 *   - a correct transpose through the naive tile misses both conflict targets, and the
 *     reference solution with its answers gets every point.
 * The first principles: shared memory has 32 banks of 4 bytes, word w in bank w % 32. A warp's
 * access is served in phases of 128 bytes' worth of lanes (32 lanes of 4 bytes, 16 of 8, 8 of
 * 16); a phase takes as many wavefronts as its busiest bank has distinct words (lanes on the
 * same word share it). */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

#define LAB05_TIMEOUT_S 300
#define LAB05_W 1024           /* lab.json: sizes.emu.width and height */
#define LAB05_H 1024
#define LAB05_CHECKS 7         /* lab.json: six test sizes and the main size */
#define LAB05_POINTS 13        /* the main point, 4 variants, 8 pitches */
#define NAIVE 0
#define PADDED 1
#define SWIZZLED 2
#define RECONSTITUTED 3

static const char *const LD_WAVE = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
static const char *const ST_WAVE = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
static const char *const LD_CONF = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
static const char *const ST_CONF = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
static const char *const LD_INST = "smsp__sass_inst_executed_op_shared_ld.sum";
static const char *const ST_INST = "smsp__sass_inst_executed_op_shared_st.sum";
static const char *const LD_WPR = "warplab__average_wavefronts_per_request_mem_shared_op_ld.ratio";
static const char *const ST_WPR = "warplab__average_wavefronts_per_request_mem_shared_op_st.ratio";

/* Wavefronts of one warp access: lane l touches the WIDTH bytes at word word[l] (4-byte words,
   width 4, 8 or 16). Phases of 128 / WIDTH lanes; in each, the most distinct words any bank
   holds. */
static int wavefronts(const long *word, int width)
{
  int lanes = 128 / width, words = width / 4, total = 0, one = 1;
  for (int l = 1; l < 32; l++)
    one &= word[l] == word[0];
  if (one && width > 4)                   /* the whole warp on one element: 8 bytes a wavefront */
    return width / 8;
  for (int p = 0; p < 32; p += lanes) {
    long seen[32 * 4];
    int nseen = 0, per_bank[32] = {0}, most = 0;
    for (int l = p; l < p + lanes; l++)
      for (int k = 0; k < words; k++) {
        long w = word[l] + k;
        int dup = 0;
        for (int i = 0; i < nseen; i++)
          dup |= seen[i] == w;
        if (dup)
          continue;
        seen[nseen++] = w;
        int b = (int)(w % 32);
        if (++per_bank[b] > most)
          most = per_bank[b];
      }
    total += most;
  }
  return total;
}

static int gcd(int a, int b) { return b ? gcd(b, a % b) : a; }

/* The word of tile element (r, c) in each layout (labs/05-bank-conflicts/transpose.cu). */
static long tile_word(int r, int c, int variant, int pitch)
{
  switch (variant) {
  case PADDED:
    return (long)r * pitch + c;
  case SWIZZLED:
    return 32L * r + (c ^ r);
  case RECONSTITUTED:
    return 32L * c + r;
  default:
    return 32L * r + c;
  }
}

/* Wavefronts of the tile's row write (lane c stores element (r, c)) or column read (lane r
   loads element (r, c)), the same for every r or c: a layout that is a bank permutation for
   one row or column is one for all of them here. */
static int tile_wavefronts(int variant, int pitch, int column)
{
  long word[32];
  for (int l = 0; l < 32; l++)
    word[l] = column ? tile_word(l, 5, variant, pitch) : tile_word(5, l, variant, pitch);
  return wavefronts(word, 4);
}

static long choice(json_t *p, const char *name)
{
  json_t *v = e2e_j(p, e2e_fmt("choices/%s", name));
  ck_assert_msg(json_is_integer(v), "a point without the choice %s", name);
  return (long)json_integer_value(v);
}

/* The value of metric NAME at point P, which must be exact (counted). */
static double value(json_t *p, const char *name)
{
  json_t *v = e2e_j(p, e2e_fmt("metrics/%s/value", name));
  const char *label = json_string_value(json_object_get(p, "label"));
  ck_assert_msg(json_is_number(v), "point %s has no %s", label, name);
  const char *kind = json_string_value(e2e_j(p, e2e_fmt("metrics/%s/kind", name)));
  ck_assert_msg(kind && !strcmp(kind, "exact"), "point %s: %s is %s, expected exact", label,
                name, kind ? kind : "?");
  return json_number_value(v);
}

static struct e2e_run *run05(const char *kernel_file)
{
  const char *res = e2e_tmp("results");
  if (!kernel_file)
    return e2e_warplab("run", "05", "--solution", "--backend", "emu", "--json", "--results", res,
                       (char *)NULL);
  return e2e_warplab("run", "05", "--kernel-file", kernel_file, "--backend", "emu", "--json",
                     "--results", res, "--quick", (char *)NULL);
}

static void expect_answer(json_t *lab, const char *id, double measured, double tol)
{
  double want = e2e_rubric_answer(lab, id);
  ck_assert_msg(fabs(want - measured) <= tol, "%s: the rubric's answer is %g, the emulator "
                "measures %g", id, want, measured);
}

START_TEST(lab05_solution_counts_from_first_principles)
{
  struct e2e_run *r = run05(NULL);
  ck_assert_msg(r->status == 0, "%s exited %d\n%.3000s\n%.2000s", r->cmd, r->status, r->out, r->err);
  ck_assert(json_is_true(e2e_j(r->json, "all_passed")));
  ck_assert_int_eq(json_array_size(e2e_j(r->json, "tests")), LAB05_CHECKS);
  json_t *pts = e2e_j(r->json, "points");
  ck_assert_int_eq(json_array_size(pts), LAB05_POINTS);
  const double requests = LAB05_W * LAB05_H / 32;   /* one load and one store per 32 elements */
  size_t i;
  json_t *p;
  json_array_foreach(pts, i, p) {
    const char *label = json_string_value(json_object_get(p, "label"));
    ck_assert_msg(json_is_true(json_object_get(p, "correct")), "point %s is wrong", label);
    int variant = (int)choice(p, "VARIANT"), pitch = (int)choice(p, "PITCH");
    int st = tile_wavefronts(variant, pitch, 0), ld = tile_wavefronts(variant, pitch, 1);
    ck_assert_msg(value(p, LD_INST) == requests && value(p, ST_INST) == requests,
                  "point %s: %g loads and %g stores, expected %g each", label, value(p, LD_INST),
                  value(p, ST_INST), requests);
    ck_assert_msg(value(p, LD_WAVE) == requests * ld && value(p, LD_WPR) == ld, "point %s: %g "
                  "wavefronts per load, expected %d", label, value(p, LD_WPR), ld);
    ck_assert_msg(value(p, ST_WAVE) == requests * st && value(p, ST_WPR) == st, "point %s: %g "
                  "wavefronts per store, expected %d", label, value(p, ST_WPR), st);
    ck_assert_msg(value(p, LD_CONF) == requests * (ld - 1) && value(p, ST_CONF) == requests * (st - 1),
                  "point %s: conflicts %g and %g", label, value(p, LD_CONF), value(p, ST_CONF));
    /* the tile's bytes: rows of 32 floats, of `pitch` floats when padded */
    long smem = json_integer_value(json_object_get(p, "smem"));
    ck_assert_int_eq(smem, 4 * 32 * (variant == PADDED ? pitch : 32));
  }
  /* the worked figures: 32-way on the naive column read, none padded or swizzled, 32-way on
     the reconstituted row write */
  ck_assert(tile_wavefronts(NAIVE, 32, 1) == 32 && tile_wavefronts(PADDED, 33, 1) == 1 &&
            tile_wavefronts(SWIZZLED, 32, 1) == 1 && tile_wavefronts(RECONSTITUTED, 32, 0) == 32);
  json_t *lab = e2e_load_json("labs/05-bank-conflicts/lab.json");
  expect_answer(lab, "q4", value(e2e_point(r, "variant", "0"), LD_CONF) / requests, 0);
  expect_answer(lab, "q5", value(e2e_point(r, "variant", "3"), ST_WPR), 0);
  expect_answer(lab, "q6", (double)json_integer_value(json_object_get(e2e_point(r, "pitch", "1x33"),
                                                                      "smem")), 0);
  expect_answer(lab, "q7", value(e2e_point(r, "pitch", "1x40"), LD_WPR), 0);
  /* q10: the naive column reads' wavefronts at the GPU size, one per cycle on each of the
     H200's SMs (harness/arch/h200.conf: 132 SMs, 1980 MHz) */
  double gw = (double)json_integer_value(e2e_j(lab, "sizes/gpu/width"));
  double gh = (double)json_integer_value(e2e_j(lab, "sizes/gpu/height"));
  char *conf = e2e_read_text("harness/arch/h200.conf");
  ck_assert_ptr_nonnull(strstr(conf, "\nsm_count = 132 "));
  ck_assert_ptr_nonnull(strstr(conf, "\nsm_clock_mhz = 1980 "));
  double us = gw * gh / 32 * value(e2e_point(r, "variant", "0"), LD_WPR) / 132 / 1980.0;
  expect_answer(lab, "q10", us, 0.05);
  json_decref(lab);
}
END_TEST

/* One warp's load through bank_probe.cu: lane l reads element (l % group) * stride +
   (l / group) * shift of width-byte elements: every pattern of
   labs/05-bank-conflicts/measured/h200-banks.txt, whose wavefronts the H200 counted. */
START_TEST(lab05_bank_probe_from_first_principles)
{
  static const int pattern[][4] = {
    {4, 32, 1, 0}, {4, 32, 2, 0}, {4, 32, 4, 0}, {4, 32, 8, 0}, {4, 32, 16, 0}, {4, 32, 32, 0},
    {4, 32, 33, 0}, {4, 32, 12, 0}, {4, 32, 0, 0}, {4, 16, 1, 0}, {8, 32, 1, 0}, {8, 32, 2, 0},
    {8, 32, 0, 0}, {8, 16, 1, 0}, {8, 16, 2, 1}, {8, 32, 16, 0}, {8, 32, 17, 0}, {16, 32, 1, 0},
    {16, 32, 0, 0}, {16, 8, 1, 0}, {16, 8, 4, 1}, {16, 32, 2, 0}, {16, 16, 1, 0},
  };
  const char *ptx = e2e_tmp("bank_probe.ptx");
  struct e2e_run *b = e2e_emu("labs/05-bank-conflicts/bank_probe.cu", "--kernel", "bank_probe",
                              "--grid", "1", "--block", "32", "--arg", "f32buf:32:zero", "--arg",
                              "i32:4", "--arg", "i32:32", "--arg", "i32:1", "--arg", "i32:0",
                              "--keep-ptx", ptx, "--json", (char *)NULL);
  e2e_expect_ok(b);
  json_t *lab = e2e_load_json("labs/05-bank-conflicts/lab.json");
  for (size_t i = 0; i < sizeof pattern / sizeof pattern[0]; i++) {
    const int *q = pattern[i];
    long word[32];
    for (int l = 0; l < 32; l++)
      word[l] = (long)((l % q[1]) * q[2] + (l / q[1]) * q[3]) * (q[0] / 4);
    int want = wavefronts(word, q[0]);
    struct e2e_run *r = e2e_emu(ptx, "--kernel", "bank_probe", "--grid", "1", "--block", "32",
                                "--arg", "f32buf:32:zero", "--arg", e2e_fmt("i32:%d", q[0]),
                                "--arg", e2e_fmt("i32:%d", q[1]), "--arg", e2e_fmt("i32:%d", q[2]),
                                "--arg", e2e_fmt("i32:%d", q[3]), "--json", (char *)NULL);
    e2e_expect_ok(r);
    double loads = json_number_value(e2e_j(r->json, e2e_fmt("metrics/%s/value", LD_INST)));
    double got = json_number_value(e2e_j(r->json, e2e_fmt("metrics/%s/value", LD_WAVE)));
    double ideal = q[2] == 0 && q[1] == 32 && q[0] > 4 ? q[0] / 8   /* one broadcast */
                                                      : q[0] / 4;  /* phases: 1, 2 or 4 */
    double conf = json_number_value(e2e_j(r->json, e2e_fmt("metrics/%s/value", LD_CONF)));
    ck_assert_msg(loads == 1, "pattern %d:%d:%d:%d: %g loads", q[0], q[1], q[2], q[3], loads);
    ck_assert_msg(got == want && conf == want - ideal, "pattern %d:%d:%d:%d: %g wavefronts and "
                  "%g conflicts, expected %d and %g", q[0], q[1], q[2], q[3], got, conf, want,
                  want - ideal);
    if (q[0] == 4 && q[1] == 32 && q[3] == 0 && q[2] > 0)   /* a stride's cost: gcd(stride, 32) */
      ck_assert_int_eq(want, gcd(q[2], 32));
    if (q[0] == 4 && q[2] == 2)
      expect_answer(lab, "q1", got, 0);
    if (q[0] == 4 && q[2] == 12)
      expect_answer(lab, "q2", got, 0);
    if (q[0] == 4 && q[2] == 33)
      expect_answer(lab, "q3", got, 0);
    if (q[0] == 8 && q[1] == 32 && q[2] == 1)
      expect_answer(lab, "q8", got, 0);
    if (q[0] == 8 && q[1] == 32 && q[2] == 2)
      expect_answer(lab, "q9", got, 0);
  }
  json_decref(lab);
}
END_TEST

START_TEST(lab05_starter_is_poisoned)
{
  struct e2e_run *r = run05("labs/05-bank-conflicts/transpose.cu");
  ck_assert_int_eq(r->status, 1);
  json_t *t = e2e_test_at(r, "width=1 height=1 shift=0");
  ck_assert_str_eq(e2e_state_of(t), "fail");
  ck_assert_int_eq(json_integer_value(json_object_get(t, "first_bad")), 0);
  ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(t, "detail")), "never wrote"));
  ck_assert_int_eq(json_array_size(e2e_j(r->json, "points")), 0);
}
END_TEST

/* Without the barrier, warp 0 writes out row 0 from tile column 0 as soon as it has stored
   its own rows (0, 8, 16, 24): it reads tile elements other threads store with nothing
   ordering the two, a race the emulator reports as a fault at the read (harness/sim/sim_race.c;
   before it, the read was "out[1] is wrong"). A 1 x 1 matrix has only thread 0's element and
   passes. */
START_TEST(lab05_no_barrier_race)
{
  const char *k = "tests/e2e/lab05/no_sync.cu";
  int marker = e2e_marker_line(k, "NO-SYNC");
  struct e2e_run *r = run05(k);
  ck_assert_int_eq(r->status, 1);
  ck_assert_str_eq(e2e_state_of(e2e_test_at(r, "width=1 height=1 shift=0")), "pass");
  json_t *t = e2e_test_at(r, "width=33 height=17 shift=1");
  ck_assert_str_eq(e2e_state_of(t), "fault");
  const char *detail = json_string_value(json_object_get(t, "detail"));
  ck_assert_msg(strstr(detail, "Race on __shared__ memory") && strstr(detail, "of tile"), "%s",
                detail);
  ck_assert_int_gt(json_integer_value(e2e_j(t, "source/line")), marker);  /* the tile's read */
}
END_TEST

/* Sums the grade's items whose names start with each prefix. */
static void grade_parts(const struct e2e_run *r, double *correct, double *targets, double *answers)
{
  *correct = *targets = *answers = 0;
  size_t i;
  json_t *t;
  json_array_foreach(e2e_j(r->json, "tests"), i, t) {
    const char *name = json_string_value(json_object_get(t, "name"));
    double score = json_number_value(json_object_get(t, "score"));
    if (!strncmp(name, "correctness", 11))
      *correct += score;
    else if (!strncmp(name, "metric target", 13))
      *targets += score;
    else if (!strncmp(name, "question", 8))
      *answers += score;
  }
}

/* A correct transpose through the naive tile, with every answer right: all the correctness
   and question points, and the stores' conflict target (a row of the tile is 32 banks), but
   not the loads' (32 wavefronts on every column read). */
START_TEST(lab05_grade_naive_misses_the_targets)
{
  const char *sub = e2e_tmp("bob");
  char *src = e2e_read_text("solutions/05-bank-conflicts/transpose.cu");
  const char *from = "__constant__ int VARIANT = SWIZZLED;";
  const char *to = "__constant__ int VARIANT = NAIVE;   ";
  char *at = strstr(src, from);
  ck_assert_ptr_nonnull(at);
  ck_assert_uint_eq(strlen(from), strlen(to));
  memcpy(at, to, strlen(to));
  ck_assert_int_eq(system(e2e_fmt("mkdir -p '%s' && cp solutions/05-bank-conflicts/answers.json "
                                  "'%s/'", sub, sub)), 0);
  FILE *f = fopen(e2e_fmt("%s/transpose.cu", sub), "w");
  ck_assert_ptr_nonnull(f);
  fputs(src, f);
  fclose(f);
  struct e2e_run *r = e2e_warplab("grade", "05", sub, "--backend", "emu", "--json", "--out",
                                  e2e_tmp("graded"), (char *)NULL);
  ck_assert_msg(r->status == 0, "%s\n%.3000s\n%.2000s", r->cmd, r->out, r->err);
  double correct, targets, answers;
  grade_parts(r, &correct, &targets, &answers);
  ck_assert_msg(fabs(correct - 60) < 1e-9 && fabs(answers - 10) < 1e-9, "correctness %g, "
                "questions %g\n%.3000s", correct, answers, r->out);
  ck_assert_msg(targets == 7, "the naive tile earned %g points of conflict targets, expected "
                "the stores' 7", targets);
  /* the loads' target is the one missed: 32 wavefronts on each column read */
  size_t i;
  json_t *t;
  int seen = 0;
  json_array_foreach(e2e_j(r->json, "tests"), i, t) {
    const char *name = json_string_value(json_object_get(t, "name"));
    if (strcmp(name, e2e_fmt("metric target: %s", LD_WPR)))
      continue;
    seen = 1;
    ck_assert(json_number_value(json_object_get(t, "score")) == 0);
    const char *out = json_string_value(json_object_get(t, "output"));
    ck_assert_msg(out && strstr(out, "= 32 (exact); target at most 1.5"), "%s", out);
  }
  ck_assert_msg(seen, "no target on %s\n%.3000s", LD_WPR, r->out);
}
END_TEST

START_TEST(lab05_grade_solution_full_marks)
{
  e2e_expect_full_marks("05", "solutions/05-bank-conflicts");
}
END_TEST

void e2e_add_lab05_tests(Suite *s)
{
  if (!e2e_have_nvcc()) {
    printf("e2e: nvcc not found: SKIPPING the 6 tests of lab 05\n");
    return;
  }
  TCase *tc = tcase_create("lab05");
  tcase_add_checked_fixture(tc, e2e_setup, e2e_teardown);
  tcase_set_timeout(tc, LAB05_TIMEOUT_S);
  tcase_add_test(tc, lab05_solution_counts_from_first_principles);
  tcase_add_test(tc, lab05_bank_probe_from_first_principles);
  tcase_add_test(tc, lab05_starter_is_poisoned);
  tcase_add_test(tc, lab05_no_barrier_race);
  tcase_add_test(tc, lab05_grade_naive_misses_the_targets);
  tcase_add_test(tc, lab05_grade_solution_full_marks);
  suite_add_tcase(s, tc);
}
