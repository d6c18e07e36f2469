/* sass.c: end-to-end tests of the counts from SASS (issue 15, item 1): `warplab emu --json`
 * on kernels whose machine code differs from their PTX (tests/e2e/kernels/sass_merge.cu).
 *
 * With nvdisasm installed (docker/install-deps.sh puts the PyPI package's on PATH), the
 * instruction counts are what ptxas's SASS executes, of kind "from-sass", their PTX counts kept
 * as "ptx_value": the tiled GEMM's 32 shared loads a tile are 20 machine loads (ptxas merges
 * four As[ty][k] loads into one LDS.128), and a kernel without branches runs each of its SASS
 * instructions once a warp. Without nvdisasm the report says why and the counts stay the
 * PTX's, labelled so. Figures from the SASS of CUDA 13.0's ptxas for sm_90 (the committed
 * listing tests/unit/data/sass_merge.sass).
 */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"

#define A "--arg"
#define SASS_TIMEOUT_S 300

/* Whether the run's counts came from SASS ("sass/counts" is "sass"); else they are the PTX's
   and "sass/note" must say why. */
static int from_sass(const struct e2e_run *r)
{
  const char *counts = e2e_jstr(r, "sass/counts");
  if (!strcmp(counts, "sass"))
    return 1;
  ck_assert_str_eq(counts, "ptx");
  ck_assert_msg(strlen(e2e_jstr(r, "sass/note")) > 0, "%s: PTX counts with no reason", r->cmd);
  return 0;
}

/* Metric NAME's value, asserting its kind. */
static double metric(const struct e2e_run *r, const char *name, const char *kind)
{
  json_t *v = e2e_j(r->json, e2e_fmt("metrics/%s/value", name));
  ck_assert_msg(json_is_number(v), "%s: no value of %s", r->cmd, name);
  ck_assert_str_eq(e2e_jstr(r, e2e_fmt("metrics/%s/kind", name)), kind);
  return json_number_value(v);
}

static double ptx_value(const struct e2e_run *r, const char *name)
{
  json_t *v = e2e_j(r->json, e2e_fmt("metrics/%s/ptx_value", name));
  ck_assert_msg(json_is_number(v), "%s: no ptx_value of %s", r->cmd, name);
  return json_number_value(v);
}

/* gemm_tiled on 32x32 matrices: 2x2 blocks of 16x16 threads, 32 warps, 2 tiles each. */
static struct e2e_run *gemm(const char *src, const char *keep)
{
  struct e2e_run *r = e2e_emu(src, "--kernel", "gemm_tiled", "--grid", "2,2", "--block", "16,16",
                              A, "f32buf:1024:rand:1", A, "f32buf:1024:rand:2", A,
                              "f32buf:1024:zero", A, "i32:32", "--json",
                              keep ? "--keep-ptx" : NULL, keep, NULL);
  e2e_expect_ok(r);
  return r;
}

START_TEST(sass_gemm_merged_shared_loads)
{
  struct e2e_run *r = gemm(e2e_kernel("sass_merge.cu"), NULL);
  const char *ld = "smsp__sass_inst_executed_op_shared_ld.sum";
  const char *wave = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
  if (!from_sass(r)) {
    printf("e2e: nvdisasm not found: sass_gemm_merged_shared_loads checks the PTX counts only\n");
    ck_assert_double_eq(metric(r, ld, "exact"), 32.0 * 2 * 32);
    ck_assert_double_eq(metric(r, wave, "exact"), 32.0 * 2 * 32);
    return;
  }
  /* 16 LDS and 4 LDS.128 a tile; an LDS one wavefront, an LDS.128 of As[ty][k] (one address
     each half warp) two: 24 (ncu on an H100, sass_validate.sh's merge_gemm_n64) */
  ck_assert_double_eq(metric(r, ld, "from-sass"), 32.0 * 2 * 20);
  ck_assert_double_eq(ptx_value(r, ld), 32.0 * 2 * 32);
  ck_assert_double_eq(metric(r, wave, "from-sass"), 32.0 * 2 * 24);
  ck_assert_double_eq(ptx_value(r, wave), 32.0 * 2 * 32);
  /* stores and global loads are one machine instruction each: still exact, unchanged */
  ck_assert_double_eq(metric(r, "smsp__sass_inst_executed_op_shared_st.sum", "exact"), 32.0 * 2 * 2);
  ck_assert_double_eq(metric(r, "smsp__sass_inst_executed_op_global_ld.sum", "exact"), 32.0 * 2 * 2);
  double inst = metric(r, "smsp__inst_executed.sum", "from-sass");
  ck_assert_msg(inst < ptx_value(r, "smsp__inst_executed.sum"),
                "SASS %g warp-instructions, not fewer than the PTX's", inst);
}
END_TEST

START_TEST(sass_straight_line_kernels)
{
  /* no branches: every SASS instruction once a warp (4 warps); count_one's atomicAdd is
     VOTEU.ANY, FLO, POPC ... and one ATOMG a warp; div_float leaves out the division's
     slow-path subroutine and the 3 instructions that call it (25 a warp, as ncu on an H100
     counts merge_div_float) */
  static const struct {
    const char *kernel, *a1, *a2;
    double sass;
  } t[] = {
    {"count_one", "i32buf:1:zero", "i32buf:128:zero", 22},
    {"div_mod", "i32buf:128:iota", "i32buf:128:zero", 40},
    {"div_float", "f32buf:129:iota", "f32buf:128:zero", 25},
  };
  for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
    const char *src = e2e_kernel("sass_merge.cu");
    struct e2e_run *r = !strcmp(t[i].kernel, "div_mod")
      ? e2e_emu(src, "--kernel", t[i].kernel, "--grid", "2", "--block", "64", A, t[i].a1, A,
                t[i].a2, A, "i32:7", "--json", NULL)
      : e2e_emu(src, "--kernel", t[i].kernel, "--grid", "2", "--block", "64", A, t[i].a1, A,
                t[i].a2, "--json", NULL);
    e2e_expect_ok(r);
    if (!from_sass(r)) {
      printf("e2e: nvdisasm not found: sass_straight_line_kernels checks nothing for %s\n",
             t[i].kernel);
      continue;
    }
    ck_assert_double_eq(metric(r, "smsp__inst_executed.sum", "from-sass"), 4 * t[i].sass);
    ck_assert_double_eq(metric(r, "smsp__thread_inst_executed.sum", "from-sass"), 128 * t[i].sass);
    if (!strcmp(t[i].kernel, "count_one"))
      ck_assert_double_eq(metric(r, "smsp__sass_inst_executed_op_global_atom.sum", "exact"), 4);
  }
}
END_TEST

/* A loop whose trip counts differ between a warp's lanes (bench/timing/loops, random trips
   0 to 63): ptxas unrolls it inside BSSY .. BSYNC regions, and the loop's back edge diverges
   at every pass some lanes leave, which is no BSYNC of its own. The H100 ran 11.79
   instructions an element (ncu, bench/timing/results/h100-families, n = 2^25); within 5%
   here (12.16 at n = 65536; 13.67 when every divergent pass counted a BSYNC). */
START_TEST(sass_data_dependent_loop)
{
  const int n = 65536;
  struct e2e_run *r = e2e_emu("bench/timing/loops/loops.cu", "--kernel", "loops", "--grid",
                              e2e_fmt("%d", n / 256), "--block", "256", A,
                              e2e_fmt("u32buf:%d:rand:5", n), A, e2e_fmt("u32buf:%d:zero", n),
                              A, e2e_fmt("i32:%d", n), A, "u32:63", A, "u32:0", "--json", NULL);
  e2e_expect_ok(r);
  if (!from_sass(r)) {
    printf("e2e: nvdisasm not found: sass_data_dependent_loop checks nothing\n");
    return;
  }
  double per = metric(r, "smsp__inst_executed.sum", "from-sass") / n;
  ck_assert_msg(per > 11.79 * 0.95 && per < 11.79 * 1.05,
                "%.2f instructions an element, the H100 11.79", per);
}
END_TEST

/* A switch through two jump tables (sass_merge.cu's jump_table), every lane taking case c:
   the SASS on c's path, counted by hand on the listing of `nvdisasm -c -gp` (to the first
   BRX 19, or to the second 22; the case's own 2 or 3; BSYNC, the store and EXIT 6). The
   cases' labels are named only by the BRX's BRANCH_TARGETS, which nvdisasm prints only with
   its dataflow analysis: without them cases 0, 1 and 3 were counted 25, 25 and 28. */
START_TEST(sass_jump_table_targets)
{
  static const double per_warp[] = {27, 27, 28, 30};
  for (int c = 0; c < 4; c++) {
    struct e2e_run *r = e2e_emu(e2e_kernel("sass_merge.cu"), "--kernel", "jump_table", "--grid",
                                "2", "--block", "64", A, e2e_fmt("i32buf:128:fill=%d", c), A,
                                "i32buf:128:zero", "--json", NULL);
    e2e_expect_ok(r);
    if (!from_sass(r)) {
      printf("e2e: nvdisasm not found: sass_jump_table_targets checks nothing\n");
      return;
    }
    ck_assert_msg(metric(r, "smsp__inst_executed.sum", "from-sass") == 4 * per_warp[c],
                  "case %d: %.0f SASS instructions, expected %.0f", c,
                  metric(r, "smsp__inst_executed.sum", "from-sass"), 4 * per_warp[c]);
  }
}
END_TEST

START_TEST(sass_without_nvdisasm_says_so)
{
  /* the PTX made with the usual PATH, then run where no nvdisasm is */
  const char *ptx = e2e_tmp("sass_merge.ptx");
  gemm(e2e_kernel("sass_merge.cu"), ptx);
  if (access("/usr/local/cuda/bin/nvdisasm", X_OK) == 0 || access("/usr/bin/nvdisasm", X_OK) == 0 ||
      access("/bin/nvdisasm", X_OK) == 0) {
    printf("e2e: nvdisasm is in a system folder: SKIPPING sass_without_nvdisasm_says_so\n");
    return;
  }
  setenv("PATH", "/usr/bin:/bin", 1);
  struct e2e_run *r = gemm(ptx, NULL);
  ck_assert_int_eq(from_sass(r), 0);
  ck_assert_msg(strstr(e2e_jstr(r, "sass/note"), "nvdisasm") || strstr(e2e_jstr(r, "sass/note"), "ptxas"),
                "%s: note \"%s\" names no tool", r->cmd, e2e_jstr(r, "sass/note"));
  ck_assert_double_eq(metric(r, "smsp__sass_inst_executed_op_shared_ld.sum", "exact"), 32.0 * 2 * 32);
  ck_assert_double_eq(metric(r, "smsp__inst_executed.sum", "ptx-level"),
                      (double)e2e_jint(r, "metrics/smsp__inst_executed.sum/value"));
  /* the text report says it too */
  r = e2e_emu(ptx, "--kernel", "gemm_tiled", "--grid", "2,2", "--block", "16,16", A,
              "f32buf:1024:rand:1", A, "f32buf:1024:rand:2", A, "f32buf:1024:zero", A, "i32:32",
              NULL);
  ck_assert_int_eq(r->status, 0);
  ck_assert_msg(strstr(r->out, "instruction counts are PTX-level"), "%s\n%s", r->cmd, r->out);
}
END_TEST

void e2e_add_sass_tests(Suite *s)
{
  if (!e2e_have_nvcc()) {
    printf("e2e: nvcc not found: SKIPPING the 5 tests of the sass test case\n");
    return;
  }
  TCase *tc = tcase_create("sass");
  tcase_add_checked_fixture(tc, e2e_setup, e2e_teardown);
  tcase_set_timeout(tc, SASS_TIMEOUT_S);
  tcase_add_test(tc, sass_gemm_merged_shared_loads);
  tcase_add_test(tc, sass_straight_line_kernels);
  tcase_add_test(tc, sass_data_dependent_loop);
  tcase_add_test(tc, sass_jump_table_targets);
  tcase_add_test(tc, sass_without_nvdisasm_says_so);
  suite_add_tcase(s, tc);
}
