/* metrics.c: end-to-end tests of the memory and branch counters of `warplab emu --json`
 * (issue 3), from first principles. Each kernel of tests/e2e/kernels/metrics_rules.cu
 * touches memory in one pattern with full warps, so every count is exact and follows from
 * the rules the counters are defined by:
 *   global   one request per warp-level instruction with an active lane; its sectors are
 *            the distinct 32-byte sectors its active lanes touch, its lines the distinct
 *            128-byte lines; bytes requested are the distinct bytes asked for
 *   shared   32 banks of 4 bytes; the wavefronts of one access are the largest number of
 *            distinct words any bank must serve (one word read by several lanes is a
 *            broadcast); the ideal is 1 wavefront, conflicts are wavefronts - ideal
 *   branches a branch whose active lanes go both ways is divergent
 * The same patterns measured with Nsight Compute on an H200 agree with these numbers
 * (tests/gpu/metrics_validate.sh, kernels in tests/gpu/kernels/metrics.cu). The CLI's
 * buffers are 256-byte aligned, so buffer element 0 starts a sector and a line.
 *
 * Every launch here is 2 blocks of 64 threads (4 full warps) unless a test says otherwise.
 * The tests compile the .cu file, so they are left out when nvcc is missing.
 */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "e2e.h"

#define A "--arg"
#define METRICS_TIMEOUT_S 300
#define WARPS 4 /* 2 blocks of 64 threads */

/* ---- helpers ---- */

/* Runs KERNEL of metrics_rules.cu with two or three --arg specs (A2 may be NULL) and
 * asserts a clean run. The first call of a test compiles the .cu file and keeps its PTX
 * (in *PTX); later calls run that PTX. */
static struct e2e_run *run_rules(const char **ptx, const char *kernel, const char *grid,
                                 const char *block, const char *a0, const char *a1,
                                 const char *a2)
{
  const char *src = *ptx ? *ptx : e2e_kernel("metrics_rules.cu");
  const char *keep = *ptx ? NULL : e2e_tmp("metrics_rules.ptx");
  struct e2e_run *r;
  if (a2)
    r = e2e_emu(src, "--kernel", kernel, "--grid", grid, "--block", block, "--json", A, a0, A, a1,
                A, a2, keep ? "--keep-ptx" : NULL, keep, NULL);
  else
    r = e2e_emu(src, "--kernel", kernel, "--grid", grid, "--block", block, "--json", A, a0, A, a1,
                keep ? "--keep-ptx" : NULL, keep, NULL);
  e2e_expect_ok(r);
  if (keep)
    *ptx = keep;
  return r;
}

/* The value of metric NAME, which must be reported with kind KIND. */
static double metric(const struct e2e_run *r, const char *name, const char *kind)
{
  json_t *v = e2e_j(r->json, e2e_fmt("metrics/%s/value", name));
  ck_assert_msg(json_is_number(v), "%s\nmetric %s should have a numeric value:\n%.4000s", r->cmd,
                name, r->out);
  const char *got = e2e_jstr(r, e2e_fmt("metrics/%s/kind", name));
  ck_assert_msg(strcmp(got, kind) == 0, "%s\nmetric %s is of kind \"%s\", expected \"%s\"", r->cmd,
                name, got, kind);
  return json_number_value(v);
}

/* Asserts that metric NAME, of kind KIND, is exactly WANT. */
static void expect_metric(const struct e2e_run *r, const char *name, const char *kind, double want)
{
  double got = metric(r, name, kind);
  ck_assert_msg(got == want, "%s\n%s = %.17g, expected %.17g", r->cmd, name, got, want);
}

/* The global counters of one kind of access (OP "ld" or "st") when each of the WARPS warps
 * issues one instruction touching SECTORS sectors in LINES lines for BYTES distinct bytes. */
static void expect_global(const struct e2e_run *r, const char *op, double sectors, double lines,
                          double bytes)
{
  expect_metric(r, e2e_fmt("smsp__sass_inst_executed_op_global_%s.sum", op), "exact", WARPS);
  expect_metric(r, e2e_fmt("l1tex__t_requests_pipe_lsu_mem_global_op_%s.sum", op), "exact", WARPS);
  expect_metric(r, e2e_fmt("l1tex__t_sectors_pipe_lsu_mem_global_op_%s.sum", op), "exact",
                WARPS * sectors);
  expect_metric(r, e2e_fmt("l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_%s.ratio",
                           op), "exact", sectors);
  expect_metric(r, e2e_fmt("warplab__lines_pipe_lsu_mem_global_op_%s.sum", op), "exact",
                WARPS * lines);
  expect_metric(r, e2e_fmt("warplab__bytes_requested_mem_global_op_%s.sum", op), "exact",
                WARPS * bytes);
  expect_metric(r, e2e_fmt("smsp__sass_average_data_bytes_per_sector_mem_global_op_%s.pct", op),
                "exact", 100.0 * bytes / (sectors * 32.0));
}

/* The shared counters of OP ("ld" or "st") when each of INSTS warp-instructions needs
 * WAVEFRONTS wavefronts (ideal 1). */
static void expect_shared(const struct e2e_run *r, const char *op, double insts, double wavefronts)
{
  expect_metric(r, e2e_fmt("smsp__sass_inst_executed_op_shared_%s.sum", op), "exact", insts);
  expect_metric(r, e2e_fmt("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_%s.sum", op), "exact",
                insts * wavefronts);
  expect_metric(r, e2e_fmt("warplab__ideal_wavefronts_mem_shared_op_%s.sum", op), "exact", insts);
  expect_metric(r, e2e_fmt("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_%s.sum", op),
                "exact", insts * (wavefronts - 1));
}

/* ---- global memory ---- */

/* out[i] = in[i * stride]: 32 lanes 4 * stride bytes apart. Stride 1 covers 128 bytes (4
 * sectors, 1 line); 2 and 4 spread over 8 and 16 sectors; from 8 on every lane has a
 * sector (and from 32 on a line) of its own. The store is always 4 sectors. */
START_TEST(metrics_global_strided)
{
  static const struct { int stride; double sectors, lines; } cases[] = {
    {1, 4, 1}, {2, 8, 2}, {4, 16, 4}, {8, 32, 8}, {32, 32, 32},
  };
  const char *ptx = NULL;
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    struct e2e_run *r = run_rules(&ptx, "load_strided", "2", "64",
                                  e2e_fmt("f32buf:%d:iota", 128 * cases[k].stride), "f32buf:128:zero",
                                  e2e_fmt("i32:%d", cases[k].stride));
    expect_global(r, "ld", cases[k].sectors, cases[k].lines, 128);
    expect_global(r, "st", 4, 1, 128);
  }
}
END_TEST

/* in[i + 1]: a warp's 128 bytes start 4 bytes into a sector and spill into a fifth sector
 * and a second line (80% of the bytes moved are used). */
START_TEST(metrics_global_misaligned)
{
  const char *ptx = NULL;
  struct e2e_run *r = run_rules(&ptx, "load_offset", "2", "64", "f32buf:129:iota",
                                "f32buf:128:zero", "i32:1");
  expect_global(r, "ld", 5, 2, 128);
  expect_global(r, "st", 4, 1, 128);
  r = run_rules(&ptx, "load_offset", "2", "64", "f32buf:129:iota", "f32buf:128:zero", "i32:0");
  expect_global(r, "ld", 4, 1, 128);
}
END_TEST

/* Every lane loads in[3]: one sector per request, 4 distinct bytes of its 32 asked for. */
START_TEST(metrics_global_broadcast)
{
  const char *ptx = NULL;
  struct e2e_run *r = run_rules(&ptx, "load_broadcast", "2", "64", "f32buf:8:iota",
                                "f32buf:128:zero", "i32:3");
  expect_global(r, "ld", 1, 1, 4); /* 12.5% of the sector used, as ncu reports it */
}
END_TEST

/* 8-byte and 16-byte lanes: a warp moves 256 or 512 bytes, still in one request. */
START_TEST(metrics_global_vector)
{
  const char *ptx = NULL;
  struct e2e_run *r = run_rules(&ptx, "load_float2", "2", "64", "f32buf:256:iota",
                                "f32buf:256:zero", NULL);
  expect_global(r, "ld", 8, 2, 256);
  expect_global(r, "st", 8, 2, 256);
  r = run_rules(&ptx, "load_float4", "2", "64", "f32buf:512:iota", "f32buf:512:zero", NULL);
  expect_global(r, "ld", 16, 4, 512);
  expect_global(r, "st", 16, 4, 512);
}
END_TEST

/* ---- shared memory ---- */

/* s[t * stride] over 32 banks of 4 bytes: stride 2 puts two distinct words on each even
 * bank, 4 four words on every fourth bank, 32 all 32 words on bank 0; 33 is odd, so the
 * 32 lanes land on 32 different banks. One block of 64: 2 warps, one STS and one LDS each. */
START_TEST(metrics_shared_stride)
{
  static const struct { int stride; double wavefronts; } cases[] = {
    {1, 1}, {2, 2}, {4, 4}, {32, 32}, {33, 1},
  };
  const char *ptx = NULL;
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    struct e2e_run *r = run_rules(&ptx, "smem_stride", "1", "64", "f32buf:64:zero",
                                  e2e_fmt("i32:%d", cases[k].stride), NULL);
    expect_shared(r, "ld", 2, cases[k].wavefronts);
    expect_shared(r, "st", 2, cases[k].wavefronts);
  }
}
END_TEST

/* All lanes read one word: a broadcast, one wavefront. */
START_TEST(metrics_shared_broadcast)
{
  const char *ptx = NULL;
  struct e2e_run *r = run_rules(&ptx, "smem_broadcast", "1", "64", "f32buf:64:zero", "i32:5",
                                NULL);
  expect_shared(r, "ld", 2, 1);
  expect_shared(r, "st", 2, 1);
}
END_TEST

/* ---- branches ---- */

/* if (tid % 2) splits every warp; if ((tid / 32) % 2) sends each warp one way whole. */
START_TEST(metrics_branch_divergence)
{
  const char *ptx = NULL;
  struct e2e_run *r = run_rules(&ptx, "branch_odd", "1", "64", "f32buf:64:iota", "f32buf:64:zero",
                                NULL);
  double divergent = metric(r, "smsp__sass_branch_targets_threads_divergent.sum", "ptx-level");
  ck_assert_msg(divergent > 0, "%s\nif (tid %% 2): %g divergent branch targets, expected some",
                r->cmd, divergent);

  r = run_rules(&ptx, "branch_warp", "1", "64", "f32buf:64:iota", "f32buf:64:zero", NULL);
  double targets = metric(r, "smsp__sass_branch_targets.sum", "ptx-level");
  double uniform = metric(r, "smsp__sass_branch_targets_threads_uniform.sum", "ptx-level");
  expect_metric(r, "smsp__sass_branch_targets_threads_divergent.sum", "ptx-level", 0);
  ck_assert_msg(targets > 0 && uniform == targets,
                "%s\nif ((tid / 32) %% 2): %g branch targets, %g uniform; expected all uniform",
                r->cmd, targets, uniform);
  expect_metric(r, "smsp__sass_average_branch_targets_threads_uniform.pct", "ptx-level", 100);
}
END_TEST

/* ---- per-line table ---- */

/* The entry of r's "lines" table for LINE of metrics_rules.cu; fails if there is none. */
static json_t *line_entry(const struct e2e_run *r, int line)
{
  json_t *lines = e2e_j(r->json, "lines");
  ck_assert_msg(json_is_array(lines), "%s\n\"lines\" should be an array:\n%.4000s", r->cmd, r->out);
  size_t i;
  json_t *e;
  json_array_foreach(lines, i, e) {
    json_t *file = json_object_get(e, "file"), *ln = json_object_get(e, "line");
    if (!json_is_string(file) || !json_is_integer(ln) || json_integer_value(ln) != line)
      continue;
    const char *f = json_string_value(file);
    size_t n = strlen(f), m = strlen("metrics_rules.cu");
    if (n >= m && strcmp(f + n - m, "metrics_rules.cu") == 0)
      return e;
  }
  ck_abort_msg("%s\nno \"lines\" entry for metrics_rules.cu:%d:\n%.4000s", r->cmd, line, r->out);
  return NULL;
}

static double field(const struct e2e_run *r, json_t *entry, const char *name)
{
  json_t *v = json_object_get(entry, name);
  ck_assert_msg(json_is_number(v), "%s\nper-line field \"%s\" should be a number", r->cmd, name);
  return json_number_value(v);
}

/* Stride 2: the load's line carries its 8 sectors per request, the store's line its 4. */
START_TEST(metrics_per_line)
{
  const char *ptx = NULL;
  int load = e2e_marker_line(e2e_kernel("metrics_rules.cu"), "LOAD-STRIDED");
  int store = e2e_marker_line(e2e_kernel("metrics_rules.cu"), "STORE-UNIT");
  struct e2e_run *r = run_rules(&ptx, "load_strided", "2", "64", "f32buf:256:iota",
                                "f32buf:128:zero", "i32:2");
  json_t *e = line_entry(r, load);
  ck_assert_msg(field(r, e, "global_requests") == WARPS, "%s\nline %d: %g global requests, expected %d",
                r->cmd, load, field(r, e, "global_requests"), WARPS);
  ck_assert_msg(field(r, e, "global_sectors") == WARPS * 8, "%s\nline %d: %g global sectors, expected %d",
                r->cmd, load, field(r, e, "global_sectors"), WARPS * 8);
  ck_assert_msg(field(r, e, "sectors_per_request") == 8,
                "%s\nline %d: %g sectors per request, expected 8", r->cmd, load,
                field(r, e, "sectors_per_request"));
  ck_assert_msg(field(r, e, "inst_executed") >= WARPS, "%s\nline %d executed %g warp-instructions",
                r->cmd, load, field(r, e, "inst_executed"));
  e = line_entry(r, store);
  ck_assert_msg(field(r, e, "global_requests") == WARPS && field(r, e, "sectors_per_request") == 4,
                "%s\nline %d: %g requests of %g sectors, expected %d of 4", r->cmd, store,
                field(r, e, "global_requests"), field(r, e, "sectors_per_request"), WARPS);
}
END_TEST

void e2e_add_metrics_tests(Suite *s)
{
  if (!e2e_have_nvcc()) {
    printf("e2e: nvcc not found: SKIPPING the 8 tests of the metrics test case\n");
    return;
  }
  TCase *tc = tcase_create("metrics");
  tcase_add_checked_fixture(tc, e2e_setup, e2e_teardown);
  tcase_set_timeout(tc, METRICS_TIMEOUT_S);
  tcase_add_test(tc, metrics_global_strided);
  tcase_add_test(tc, metrics_global_misaligned);
  tcase_add_test(tc, metrics_global_broadcast);
  tcase_add_test(tc, metrics_global_vector);
  tcase_add_test(tc, metrics_shared_stride);
  tcase_add_test(tc, metrics_shared_broadcast);
  tcase_add_test(tc, metrics_branch_divergence);
  tcase_add_test(tc, metrics_per_line);
  suite_add_tcase(s, tc);
}
