/* limits.c: end-to-end tests of what a GPU refuses and what CUDA bounds (issues 22 and 17):
 * launches past __launch_bounds__, the register file or shared memory fail on the emulator
 * as on a GPU, with the kernel's line; printf returns what CUDA's does, takes `*` widths from
 * its arguments and cannot cost more than CUDA's 1 MiB printf buffer; `run` shows what the
 * kernel printed; and the smaller limits: %globaltimer per instruction, barrier waits in the
 * instruction budget, a 4 GiB local array, a negative seed, a float for an int parameter.
 *
 * The kernels are tests/e2e/kernels/limits.cu (and reqntid.ptx); the expected values follow
 * from CUDA's documentation: printf "returns the number of arguments parsed", the printf FIFO
 * is 1 MiB by default (cudaLimitPrintfFifoSize), a thread has at most 512 KiB of local
 * memory, an H200 block at most 1024 threads, 64 K registers and 227 KiB of shared memory.
 * The refusals were measured on an H100 (CUDA 13, the runtime API, the same kernels):
 * `bounded` in 256-thread blocks gives cudaErrorInvalidValue, in 32-thread blocks it runs;
 * `heavy` has 128 registers (cudaFuncGetAttributes: at most 512 threads a block), 1024
 * threads give cudaErrorLaunchOutOfResources "too many resources requested for launch", 512
 * run; `dynamic` with 240000 bytes of dynamic shared memory gives cudaErrorInvalidValue,
 * 232448 (after cudaFuncSetAttribute) runs. Thread block clusters follow the CUDA Programming
 * Guide (a portable cluster holds at most 8 blocks; the grid is a whole number of clusters);
 * tests/gpu/prove.sh writes what an H100 says of the same launches (launch_refusals.txt).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e.h"

#define LIMITS_TIMEOUT_S 300
#define SOLUTION "solutions/01-matrix-add/matrix_add.cu"
#define KERNEL_DECL "extern \"C\" __global__ void matrix_add("
#define BODY "    c[i] = a[i] + b[i];"

/* Lab 01's solution with `find` replaced by `replace`, as DIR/matrix_add.cu; its path. */
static const char *variant(const char *dir, const char *find, const char *replace)
{
  char *src = e2e_read_text(SOLUTION);
  char *at = strstr(src, find);
  ck_assert_msg(at != NULL, "'%s' is not in %s", find, SOLUTION);
  char *text = e2e_fmt("%.*s%s%s", (int)(at - src), src, replace, at + strlen(find));
  ck_assert_int_eq(system(e2e_fmt("mkdir -p '%s'", dir)), 0);
  const char *path = e2e_fmt("%s/matrix_add.cu", dir);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs(text, f);
  fclose(f);
  return path;
}

static void expect_in(const char *text, const char *needle)
{
  ck_assert_msg(text && strstr(text, needle), "no '%s' in:\n%.3000s", needle, text ? text : "");
}

START_TEST(launch_bounds_refused_on_emu)
{
  const char *k = e2e_kernel("limits.cu");
  struct e2e_run *r = e2e_emu(k, "--kernel", "bounded", "--grid", "1", "--block", "256", "--arg",
                              "i32buf:256:zero", "--json", (char *)NULL);
  e2e_expect_error(r, 2, "CUDA_ERROR_INVALID_VALUE", "kernel bounded",
                   "__launch_bounds__(32)", "blocks of 256 threads", (char *)NULL);
  ck_assert(e2e_mentions_line(r->err, "limits.cu", e2e_marker_line(k, "BOUNDED-DECL")));
  r = e2e_emu(k, "--kernel", "bounded", "--grid", "1", "--block", "32", "--arg", "i32buf:256:zero",
              "--json", (char *)NULL);
  e2e_expect_ok(r);
}
END_TEST

/* The GPU backend, through the tests' stand-in driver (tests/e2e/gpuhang/fakecuda.c) told to
   refuse blocks of more than 32 threads as a real driver does for __launch_bounds__(32)
   (cudaErrorInvalidValue on an H100): the refusal reads as the emulator's. */
START_TEST(launch_bounds_refusal_reads_the_same_on_the_gpu)
{
  const char *so = e2e_tmp("libfakecuda.so");
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
  const char *k = e2e_kernel("limits.cu");
  struct e2e_run *emu = e2e_emu(k, "--kernel", "bounded", "--grid", "1", "--block", "256", "--arg",
                                "i32buf:256:zero", "--json", (char *)NULL);
  setenv("WARPLAB_TEST_LIBCUDA", so, 1);
  setenv("WARPLAB_FAKE_CUDA_MAX_THREADS", "32", 1);
  struct e2e_run *gpu = e2e_emu(k, "--kernel", "bounded", "--grid", "1", "--block", "256",
                                "--backend", "gpu", "--arg", "i32buf:256:zero", "--json",
                                (char *)NULL);
  unsetenv("WARPLAB_TEST_LIBCUDA");
  unsetenv("WARPLAB_FAKE_CUDA_MAX_THREADS");
  e2e_expect_error(gpu, 2, "CUDA_ERROR_INVALID_VALUE", "__launch_bounds__(32)", (char *)NULL);
  ck_assert_int_eq(emu->status, 2);
  ck_assert_str_eq(gpu->err, emu->err);
}
END_TEST

START_TEST(reqntid_refused_on_emu)
{
  const char *k = e2e_kernel("reqntid.ptx");
  struct e2e_run *r = e2e_emu(k, "--kernel", "fixed", "--grid", "1", "--block", "128", "--arg",
                              "i32buf:128:zero", "--json", (char *)NULL);
  e2e_expect_error(r, 2, "CUDA_ERROR_INVALID_VALUE", "exactly (64,2,1)", (char *)NULL);
  r = e2e_emu(k, "--kernel", "fixed", "--grid", "1", "--block", "64,2", "--arg", "i32buf:128:zero",
              "--json", (char *)NULL);
  e2e_expect_ok(r);
}
END_TEST

/* ptxas gives `heavy` 128 registers (its PTX keeps 96 values live): 1024 threads need
   32 warps x 128 x 32 = 131072 registers, twice the file; 512 fit exactly. */
START_TEST(registers_past_the_file_refused)
{
  const char *k = e2e_kernel("limits.cu");
  struct e2e_run *r = e2e_emu(k, "--kernel", "heavy", "--grid", "1", "--block", "1024", "--arg",
                              "f32buf:1024:rand", "--arg", "f32buf:1024:zero", "--arg", "i32:2",
                              "--json", (char *)NULL);
  e2e_expect_error(r, 2, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
                   "too many resources requested for launch", "kernel heavy (limits.cu:",
                   "block may hold 65536", (char *)NULL);
  r = e2e_emu(k, "--kernel", "heavy", "--grid", "1", "--block", "512", "--arg", "f32buf:1024:rand",
              "--arg", "f32buf:1024:zero", "--arg", "i32:2", "--json", (char *)NULL);
  e2e_expect_ok(r);
}
END_TEST

START_TEST(shared_memory_past_the_limit_refused)
{
  const char *k = e2e_kernel("limits.cu");
  struct e2e_run *r = e2e_emu(k, "--kernel", "dynamic", "--grid", "1", "--block", "32", "--smem",
                              "240000", "--arg", "f32buf:32:zero", "--json", (char *)NULL);
  e2e_expect_error(r, 2, "CUDA_ERROR_INVALID_VALUE", "240000 bytes of dynamic shared memory",
                   "at most 232448", (char *)NULL);
  r = e2e_emu(k, "--kernel", "dynamic", "--grid", "1", "--block", "32", "--smem", "232448",
              "--arg", "f32buf:32:zero", "--json", (char *)NULL);
  e2e_expect_ok(r);
}
END_TEST

/* Lab 01's solution with __launch_bounds__(32) and its 256-thread blocks: every test is a
   refused launch (as on a GPU), in `run` and in `grade`, not a pass and not our crash. */
START_TEST(lab01_launch_bounds_fails_every_test)
{
  const char *src = variant(e2e_tmp("lb"), KERNEL_DECL,
                            "extern \"C\" __global__ void __launch_bounds__(32) matrix_add(");
  struct e2e_run *r = e2e_warplab("run", "01", "--kernel-file", src, "--backend", "emu", "--json",
                                  "--quick", "--results", e2e_tmp("results"), (char *)NULL);
  ck_assert_msg(r->status == 1, "exit %d\n%.2000s\n%.2000s", r->status, r->out, r->err);
  json_t *tests = e2e_j(r->json, "tests");
  ck_assert_int_eq(json_array_size(tests), 6);
  size_t i;
  json_t *t;
  json_array_foreach(tests, i, t) {
    ck_assert_str_eq(e2e_state_of(t), "fault");
    const char *d = json_string_value(json_object_get(t, "detail"));
    expect_in(d, "CUDA_ERROR_INVALID_VALUE");
    expect_in(d, "__launch_bounds__(32)");
    ck_assert(e2e_mentions_line(d, "matrix_add.cu", e2e_marker_line(src, "__launch_bounds__")));
  }
  r = e2e_warplab("grade", "01", e2e_tmp("lb"), "--backend", "emu", "--json", "--out",
                  e2e_tmp("graded"), (char *)NULL);
  ck_assert_msg(r->status == 1, "exit %d\n%.2000s\n%.2000s", r->status, r->out, r->err);
  ck_assert(json_number_value(json_object_get(r->json, "score")) == 0);
  ck_assert_msg(strstr(r->out, "__launch_bounds__(32)") || strstr(r->err, "__launch_bounds__(32)"),
                "%.3000s\n%.2000s", r->out, r->err);
}
END_TEST

START_TEST(printf_returns_the_argument_count)
{
  const char *k = e2e_kernel("limits.cu");
  const char *dump = e2e_tmp("counts.bin");
  struct e2e_run *r = e2e_emu(k, "--kernel", "counts", "--grid", "1", "--block", "1", "--arg",
                              "i32buf:3:fill=-9", "--dump", e2e_fmt("0=%s", dump), "--json",
                              (char *)NULL);
  e2e_expect_ok(r);
  /* `*` takes the width 5 and 4 and the precision 2 from the arguments */
  ck_assert_str_eq(e2e_jstr(r, "printf"), "plain\n[   42|7   |3.14]\nx=9\n");
  ck_assert(json_is_false(e2e_j(r->json, "printf_cut")));
  int *n = e2e_read(dump, 3 * sizeof(int));
  ck_assert_int_eq(n[0], 0);
  ck_assert_int_eq(n[1], 6);   /* 5, 42, 4, 7, 2, 3.14159 */
  ck_assert_int_eq(n[2], 2);
}
END_TEST

/* %999999999d, %.999999999f, %-999999999d: each conversion is cut at its first 4096
   characters, and they are what the whole conversion would start with. */
START_TEST(printf_conversions_are_bounded)
{
  const char *k = e2e_kernel("limits.cu");
  const char *dump = e2e_tmp("huge.bin");
  struct e2e_run *r = e2e_emu(k, "--kernel", "huge", "--grid", "1", "--block", "1", "--arg",
                              "i32buf:3:zero", "--dump", e2e_fmt("0=%s", dump), "--json",
                              (char *)NULL);
  e2e_expect_ok(r);
  ck_assert(json_is_true(e2e_j(r->json, "printf_cut")));
  const char *p = e2e_jstr(r, "printf");
  ck_assert_uint_eq(strlen(p), 3 * (4096 + 3) + 1);
  const char *l2 = p + 4096 + 3, *l3 = l2 + 4096 + 3;
  ck_assert_int_eq(strspn(p + 1, " "), 4096);             /* right-justified: all padding */
  ck_assert(!strncmp(l2, "<1.5000", 7));
  ck_assert_int_eq(strspn(l2 + 4, "0"), 4096 - 3);         /* "1.5" then zeros */
  ck_assert(!strncmp(l3, "<42 ", 4));
  ck_assert_int_eq(strspn(l3 + 3, " "), 4096 - 2);
  int *n = e2e_read(dump, 3 * sizeof(int));
  ck_assert_int_eq(n[0], 1);
  ck_assert_int_eq(n[1], 1);
  ck_assert_int_eq(n[2], 1);
}
END_TEST

/* 64 blocks of 256 threads print a line of 100 bytes a thread: 1.6 MB. The launch keeps the
   first 1 MiB in block order, the same whatever the number of host threads: 40 blocks of
   25600 bytes and the first 24576 bytes of block 40. */
START_TEST(printf_launch_output_is_bounded)
{
  const char *k = e2e_kernel("limits.cu");
  char *first = NULL;
  for (int w = 1; w <= 2; w++) {
    struct e2e_run *r = e2e_emu(k, "--kernel", "chatty", "--grid", "64", "--block", "256",
                                "--threads", w == 1 ? "1" : "2", "--arg", "i32:1", "--json",
                                (char *)NULL);
    e2e_expect_ok(r);
    ck_assert(json_is_true(e2e_j(r->json, "printf_cut")));
    const char *p = e2e_jstr(r, "printf");
    ck_assert_uint_eq(strlen(p), 1u << 20);
    ck_assert(!strncmp(p, "00000000 00000000 0", 19));
    ck_assert(!strncmp(p + 40 * 25600, "00010240 00000000 0", 19));
    ck_assert(p[(1u << 20) - 1] == '0');      /* 1 MiB is 10485.76 lines: cut inside one */
    ck_assert(p[10485 * 100 - 1] == '\n' && p[10485 * 100] == '0');
    if (!first)
      first = strdup(p);
    else
      ck_assert_msg(!strcmp(first, p), "the output differs with 2 host threads");
  }
  free(first);
}
END_TEST

/* A kernel that prints in every thread, under `warplab run`: the report and result.json hold
   what it printed, test by test, cut with a note where it passes what a run keeps. */
START_TEST(run_shows_printf)
{
  const char *src = variant(e2e_tmp("pf"), BODY,
                            "    c[i] = a[i] + b[i];\n"
                            "    printf(\"%d:%*d\\n\", (int)i, 3, (int)(i == 0));");
  char *text = e2e_read_text(src);
  char *withinc = e2e_fmt("#include <cstdio>\n%s", text);
  FILE *f = fopen(src, "w");
  ck_assert_ptr_nonnull(f);
  fputs(withinc, f);
  fclose(f);
  struct e2e_run *r = e2e_warplab("run", "01", "--kernel-file", src, "--backend", "emu", "--json",
                                  "--quick", "--results", e2e_tmp("results"), (char *)NULL);
  ck_assert_msg(r->status == 0, "exit %d\n%.2000s\n%.2000s", r->status, r->out, r->err);
  const char *p = e2e_jstr(r, "printf/text");
  ck_assert(!strncmp(p, "[nx=1 ny=1]\n0:  1\n[nx=33 ny=17]\n", 32));
  ck_assert(json_is_true(e2e_j(r->json, "printf/cut")));  /* 524288 lines in the main test */
  ck_assert_uint_le(strlen(p), 16384);
  char *saved = e2e_read_text(e2e_fmt("%s/result.json", e2e_jstr(r, "results_dir")));
  expect_in(saved, "\"text\": \"[nx=1 ny=1]\\n0:  1\\n");
  /* the text report (--plain) */
  r = e2e_warplab("run", "01", "--kernel-file", src, "--backend", "emu", "--plain", "--quick",
                  "--results", e2e_tmp("results"), (char *)NULL);
  ck_assert_int_eq(r->status, 0);
  expect_in(r->out, "Printed by the kernel (printf)\n  [nx=1 ny=1]\n  0:  1\n");
  expect_in(r->out, "(cut: a run keeps 16384 bytes");
}
END_TEST

START_TEST(globaltimer_is_one_reading_per_instruction)
{
  const char *k = e2e_kernel("limits.cu");
  const char *dump = e2e_tmp("timer.bin");
  struct e2e_run *r = e2e_emu(k, "--kernel", "timer", "--grid", "1", "--block", "64", "--arg",
                              "u64buf:64:zero", "--dump", e2e_fmt("0=%s", dump), "--json",
                              (char *)NULL);
  e2e_expect_ok(r);
  unsigned long long *t = e2e_read(dump, 64 * sizeof *t);
  for (int w = 0; w < 2; w++)
    for (int l = 1; l < 32; l++)
      ck_assert_msg(t[w * 32 + l] == t[w * 32], "warp %d lane %d read %llu, lane 0 %llu", w, l,
                    t[w * 32 + l], t[w * 32]);
  ck_assert(t[0] != 0);
}
END_TEST

/* A runaway loop around __syncthreads() runs 2 instructions a warp a round (bar.sync, bra);
   each warp's wait counts 32 more, so the budget stops it after about 1/17 of its
   instructions, not after all of them. */
START_TEST(barrier_waits_count_against_the_budget)
{
  const char *k = e2e_kernel("limits.cu");
  struct e2e_run *r = e2e_emu(k, "--kernel", "spin_barrier", "--grid", "1", "--block", "256",
                              "--arg", "i32buf:256:zero", "--arg", "i32:1", "--max-insts",
                              "1000000", "--json", (char *)NULL);
  e2e_expect_outcome(r, 1, "budget");
  long long ran = e2e_jint(r, "metrics/smsp__inst_executed.sum/value");
  ck_assert_msg(ran < 1000000 / 8, "%lld warp-instructions ran under a budget of 1000000", ran);
}
END_TEST

START_TEST(local_array_of_4_gib_refused)
{
  struct e2e_run *r = e2e_emu(e2e_kernel("limits.cu"), "--kernel", "huge_local", "--grid", "1",
                              "--block", "1", "--arg", "i32buf:4:zero", "--arg", "i32:0", "--json",
                              (char *)NULL);
  e2e_expect_error(r, 2, "4294967296 bytes of local memory", "at most 524288", (char *)NULL);
}
END_TEST

START_TEST(float_for_an_int_parameter_refused)
{
  const char *k = e2e_kernel("limits.cu");
  struct e2e_run *r = e2e_emu(k, "--kernel", "scale", "--grid", "1", "--block", "4", "--arg",
                              "f32buf:4:zero", "--arg", "f32:2.5", "--arg", "f32:1", "--json",
                              (char *)NULL);
  e2e_expect_error(r, 2, "--arg 'f32:2.5' is a float", "is an integer (.u32)", (char *)NULL);
  r = e2e_emu(k, "--kernel", "scale", "--grid", "1", "--block", "4", "--arg", "f32buf:4:zero",
              "--arg", "i32:2", "--arg", "i32:1", "--json", (char *)NULL);
  e2e_expect_error(r, 2, "--arg 'i32:1' is an integer", "is a float (.f32)", (char *)NULL);
  r = e2e_emu(k, "--kernel", "scale", "--grid", "1", "--block", "4", "--arg", "f32buf:4:zero",
              "--arg", "i32:2", "--arg", "f32:1", "--json", (char *)NULL);
  e2e_expect_ok(r);
}
END_TEST

/* __launch_bounds__(256, 8) (.minnctapersm 8) is a request to ptxas, not a launch limit: it
   caps `capped` (heavy's body, 128 registers uncapped) at 65536 / (8 x 256) = 32 registers, so
   blocks of 256 threads run, and only blocks past 256 threads are refused (.maxntid). */
START_TEST(min_blocks_caps_registers_not_launches)
{
  const char *k = e2e_kernel("limits.cu");
  struct e2e_run *r = e2e_emu(k, "--kernel", "capped", "--grid", "1", "--block", "256", "--arg",
                              "f32buf:1024:rand", "--arg", "f32buf:1024:zero", "--arg", "i32:2",
                              "--json", (char *)NULL);
  e2e_expect_ok(r);
  ck_assert_int_le(e2e_jint(r, "resources/registers_per_thread"), 32);
  r = e2e_emu(k, "--kernel", "capped", "--grid", "1", "--block", "512", "--arg",
              "f32buf:1024:rand", "--arg", "f32buf:1024:zero", "--arg", "i32:2", "--json",
              (char *)NULL);
  e2e_expect_error(r, 2, "CUDA_ERROR_INVALID_VALUE", "__launch_bounds__(256)", (char *)NULL);
}
END_TEST

/* __cluster_dims__: a cluster of 16 blocks (past the portable 8, CUDA_ERROR_INVALID_CLUSTER_SIZE)
   and a grid that is not a whole number of 2 x 2 clusters (CUDA_ERROR_INVALID_VALUE) are
   refused as a GPU refuses them, with the kernel's line; a grid of whole clusters runs. */
START_TEST(cluster_limits_refused_on_emu)
{
  const char *k = e2e_kernel("limits.cu");
  struct e2e_run *r = e2e_emu(k, "--kernel", "wide_cluster", "--grid", "16", "--block", "32",
                              "--arg", "i32buf:16:zero", "--json", (char *)NULL);
  e2e_expect_error(r, 2, "CUDA_ERROR_INVALID_CLUSTER_SIZE", "kernel wide_cluster",
                   "__cluster_dims__(16,1,1)", "16 blocks a cluster, more than the portable "
                   "maximum of 8", (char *)NULL);
  ck_assert(e2e_mentions_line(r->err, "limits.cu", e2e_marker_line(k, "WIDE-DECL")));
  r = e2e_emu(k, "--kernel", "square_cluster", "--grid", "3,2", "--block", "32", "--arg",
              "i32buf:6:zero", "--json", (char *)NULL);
  e2e_expect_error(r, 2, "CUDA_ERROR_INVALID_VALUE", "the grid (3,2,1) is not a whole number "
                   "of clusters of (2,2,1) blocks", "kernel square_cluster",
                   "grid.x = 3 is not a multiple of 2", (char *)NULL);
  r = e2e_emu(k, "--kernel", "square_cluster", "--grid", "4,3", "--block", "32", "--arg",
              "i32buf:12:zero", "--json", (char *)NULL);
  e2e_expect_error(r, 2, "grid.y = 3 is not a multiple of 2", (char *)NULL);
  r = e2e_emu(k, "--kernel", "square_cluster", "--grid", "4,2", "--block", "32", "--arg",
              "i32buf:8:zero", "--json", (char *)NULL);
  e2e_expect_ok(r);
}
END_TEST

START_TEST(negative_seed_refused)
{
  struct e2e_run *r = e2e_warplab("run", "01", "--solution", "--backend", "emu", "--seed", "-1",
                                  (char *)NULL);
  e2e_expect_error(r, 2, "--seed '-1'", (char *)NULL);
  r = e2e_warplab("grade", "01", "solutions/01-matrix-add", "--backend", "emu", "--seed", "-1",
                  (char *)NULL);
  e2e_expect_error(r, 2, "--seed '-1'", (char *)NULL);
}
END_TEST

void e2e_add_limits_tests(Suite *s)
{
  if (!e2e_have_nvcc()) {
    printf("e2e: nvcc not found: SKIPPING the launch-limit and printf-bound tests\n");
    return;
  }
  TCase *tc = tcase_create("limits");
  tcase_add_checked_fixture(tc, e2e_setup, e2e_teardown);
  tcase_set_timeout(tc, LIMITS_TIMEOUT_S);
  tcase_add_test(tc, launch_bounds_refused_on_emu);
  tcase_add_test(tc, launch_bounds_refusal_reads_the_same_on_the_gpu);
  tcase_add_test(tc, reqntid_refused_on_emu);
  tcase_add_test(tc, registers_past_the_file_refused);
  tcase_add_test(tc, shared_memory_past_the_limit_refused);
  tcase_add_test(tc, lab01_launch_bounds_fails_every_test);
  tcase_add_test(tc, printf_returns_the_argument_count);
  tcase_add_test(tc, printf_conversions_are_bounded);
  tcase_add_test(tc, printf_launch_output_is_bounded);
  tcase_add_test(tc, run_shows_printf);
  tcase_add_test(tc, globaltimer_is_one_reading_per_instruction);
  tcase_add_test(tc, barrier_waits_count_against_the_budget);
  tcase_add_test(tc, local_array_of_4_gib_refused);
  tcase_add_test(tc, float_for_an_int_parameter_refused);
  tcase_add_test(tc, negative_seed_refused);
  tcase_add_test(tc, min_blocks_caps_registers_not_launches);
  tcase_add_test(tc, cluster_limits_refused_on_emu);
  suite_add_tcase(s, tc);
}
