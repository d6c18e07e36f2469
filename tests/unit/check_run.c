/* check_run.c: the lab harness's pieces: the expressions of lab definitions, every lab's
   metric names resolved in the catalogue when it loads (a typo refused with its line), the
   build's error path, compute-sanitizer's reports. */
#include <check.h>
#include <math.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/run.h"
#include "run/run_data.h"
#include "run/run_expr.h"
#include "run/run_lab.h"
#include "run/run_sweepfill.h"
#include "toolchain/tc_build.h"
#include "toolchain/tc_file.h"
#include "toolchain/tc_sanitize.h"
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

/* A result.json made fit to ship in a students' copy (run_result_ship): paths, build log,
   hot spots, charts and integrity findings gone, the note added, the figures kept. */
START_TEST(test_result_ship)
{
  char from[] = "/tmp/warplab-check-ship-XXXXXX", to[] = "/tmp/warplab-check-ship-XXXXXX";
  char path[64], err[256];
  ck_assert_ptr_nonnull(mkdtemp(from));
  ck_assert_ptr_nonnull(mkdtemp(to));
  snprintf(path, sizeof path, "%s/result.json", from);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs("{\"lab\": \"01-matrix-add\", \"results_dir\": \"/home/i/r\", \"build_log\": \"x\","
        " \"hotspots\": [], \"charts\": [\"/home/i/r/t.png\"], \"integrity\": {},"
        " \"provenance\": {\"backend\": \"emu\", \"kernel_file\": \"/home/i/s.cu\","
        " \"ptx\": \"/home/i/s.ptx\", \"isolation\": \"none\", \"seed\": 7},"
        " \"built\": true}", f);
  ck_assert_int_eq(fclose(f), 0);
  ck_assert_int_eq(run_result_ship(from, to, "shipped here", err, sizeof err), 0);
  snprintf(path, sizeof path, "%s/result.json", to);
  json_t *j = json_load_file(path, 0, NULL);
  ck_assert_ptr_nonnull(j);
  static const char *const gone[] = {"results_dir", "build_log", "hotspots", "charts", "integrity"};
  for (size_t i = 0; i < sizeof gone / sizeof *gone; i++)
    ck_assert_msg(!json_object_get(j, gone[i]), "%s kept", gone[i]);
  json_t *p = json_object_get(j, "provenance");
  ck_assert_ptr_null(json_object_get(p, "kernel_file"));
  ck_assert_ptr_null(json_object_get(p, "ptx"));
  ck_assert_ptr_null(json_object_get(p, "isolation"));
  ck_assert_str_eq(json_string_value(json_object_get(p, "shipped")), "shipped here");
  ck_assert_int_eq(json_integer_value(json_object_get(p, "seed")), 7);
  ck_assert(json_is_true(json_object_get(j, "built")));
  json_decref(j);
  unlink(path);
  rmdir(to);
  /* no result.json to ship: an error, nothing written */
  snprintf(path, sizeof path, "%s/result.json", from);
  unlink(path);
  ck_assert_int_ne(run_result_ship(from, from, NULL, err, sizeof err), 0);
  ck_assert_ptr_nonnull(strstr(err, "result.json"));
  rmdir(from);
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
  struct tc_sanitized r;
  ck_assert_int_eq(tc_sanitizer_parse(memcheck, &r), 28);
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
  ck_assert_int_eq(tc_sanitizer_parse(synccheck, &r), 2);     /* no summary: reports counted */
  ck_assert_str_eq(r.message, "Barrier error detected. Divergent thread(s) in warp. at "
                   "/work/main/tests/e2e/kernels/barrier_divergence.cu:13 by thread (0,0,0) in "
                   "block (0,0,0)");
  ck_assert_int_eq(r.line, 13);

  ck_assert_int_eq(tc_sanitizer_parse("========= COMPUTE-SANITIZER\n"
                                       "========= ERROR SUMMARY: 0 errors\n", &r), 0);
  ck_assert_str_eq(r.message, "");
  ck_assert_str_eq(r.tool_error, "");

  /* what an H100 printed when nvcc crashed under the tool: no kernel checked, no report */
  ck_assert_int_eq(tc_sanitizer_parse("========= COMPUTE-SANITIZER\n"
                                       "nvcc failed (status 139) with no message\n"
                                       "========= Error: Target application terminated before "
                                       "first instrumented API call\n", &r), 0);
  ck_assert_str_eq(r.tool_error, "Target application terminated before first instrumented API "
                   "call");
  ck_assert_str_eq(r.message, "");
}
END_TEST

/* Counts past an int are not trusted: 4294967297 errors is no summary (atoi made it 1), and
   a line 4294967304 is no line (atoi made it 8). */
START_TEST(test_sanitizer_parse_overflow)
{
  static const char text[] =
    "========= Invalid __global__ write of size 4 bytes\n"
    "=========     at oob_write+0x220 in oob.cu:4294967304\n"
    "========= Invalid __global__ write of size 4 bytes\n"
    "=========     at oob_write+0x220 in oob.cu:8\n"
    "========= ERROR SUMMARY: 4294967297 errors\n";
  struct tc_sanitized r;
  ck_assert_int_eq(tc_sanitizer_parse(text, &r), 2);          /* the reports, counted */
  ck_assert_int_eq(r.line, 0);
  ck_assert_str_eq(r.file, "");
  ck_assert_int_eq(tc_sanitizer_parse("========= ERROR SUMMARY: 12x errors\n", &r), 12);
  ck_assert_int_eq(tc_sanitizer_parse("========= ERROR SUMMARY: -3 errors\n", &r), 0);
}
END_TEST

/* The run's profile and the main configuration's occupancy breakdown through result.json:
   written, read back, the profile loaded once by the reading and the breakdown the
   calculator's on it; a run without a breakdown writes null and reads none back. */
START_TEST(test_result_occupancy_round_trip)
{
  char dir[] = "/tmp/warplab-check-occ-XXXXXX", lab_id[32], err[256];
  ck_assert_ptr_nonnull(mkdtemp(dir));
  struct run_lab *lab = calloc(1, sizeof *lab);
  struct run_result *r = calloc(1, sizeof *r), *back = malloc(sizeof *back);
  ck_assert(lab && r && back);
  snprintf(lab->id, sizeof lab->id, "99-occ");
  snprintf(r->prov.profile, sizeof r->prov.profile, "a100");
  struct occ_error oe;
  ck_assert_int_eq(occ_profile_load("a100", &r->prof, &oe), OCC_OK);
  r->have_prof = 1;
  r->occ.have = 1;
  r->occ.in = occ_input_default();
  r->occ.in.regs_per_thread = 40;
  r->occ.in.static_smem = 12288;
  r->occ.in.dyn_smem = 4096;
  r->occ.in.block_threads = 192;
  r->occ.in.barriers = 2;
  ck_assert_int_eq(occ_compute(&r->prof, &r->occ.in, &r->occ.out, &oe), OCC_OK);
  json_t *j = run_result_json(lab, r, NULL, NULL);
  ck_assert_int_eq(run_result_save(dir, j, err, sizeof err), 0);
  json_decref(j);
  ck_assert_int_eq(run_result_load(dir, back, lab_id, sizeof lab_id, err, sizeof err), 0);
  ck_assert(back->have_prof);
  ck_assert_str_eq(back->prof.id, "a100");
  ck_assert_int_eq(back->prof.regs_per_sm, r->prof.regs_per_sm);
  ck_assert(back->occ.have);
  ck_assert_mem_eq(&back->occ.in, &r->occ.in, sizeof r->occ.in);
  ck_assert_int_eq(back->occ.out.active_blocks, r->occ.out.active_blocks);
  ck_assert_uint_eq(back->occ.out.limiting, r->occ.out.limiting);
  ck_assert_int_eq(back->occ.out.smem_per_block, r->occ.out.smem_per_block);

  r->occ.have = 0;
  j = run_result_json(lab, r, NULL, NULL);
  ck_assert(json_is_null(json_object_get(j, "occupancy")));
  ck_assert_int_eq(run_result_save(dir, j, err, sizeof err), 0);
  json_decref(j);
  ck_assert_int_eq(run_result_load(dir, back, lab_id, sizeof lab_id, err, sizeof err), 0);
  ck_assert(back->have_prof && !back->occ.have);
  char path[64];
  snprintf(path, sizeof path, "%s/result.json", dir);
  unlink(path);
  rmdir(dir);
  free(lab);
  free(r);
  free(back);
}
END_TEST

/* A test's own profile is loaded once, when the lab loads: its warp size is kept with the
   test (lab 07's wave64 tests: 64 lanes), so the run does not load it again. */
START_TEST(test_lab_test_warp_size)
{
  static struct run_lab lab;
  char err[512] = "";
  ck_assert_msg(run_lab_load("07", "labs", &lab, err, sizeof err) == 0, "%s", err);
  int wave64 = 0;
  for (uint32_t t = 0; t < lab.ntests; t++) {
    if (!strcmp(lab.test_arch[t], "wave64")) {
      ck_assert_uint_eq(lab.test_warp[t], 64);
      wave64++;
    } else {
      ck_assert_str_eq(lab.test_arch[t], "");
      ck_assert_uint_eq(lab.test_warp[t], 0);
    }
  }
  ck_assert_int_ge(wave64, 1);
  run_lab_free(&lab);
}
END_TEST

/* The choices a kernel file sets, guessed from its text (run_choices_guess): numbers and
   #define'd names; a longer name, another type, an expression or a name it does not define
   leave the value as it was. Lab 04's starter and solution set LAYOUT to AOS and SOA. */
START_TEST(test_choices_guess)
{
  char path[] = "/tmp/warplab-guess-XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  static const char text[] =
    "#define ONE 1\n#define  FIVE\t0x5 // five\n#define F(x) 9\n"
    "__constant__ int A = 0x10;\n__constant__ int AB = 3;\n__constant__\n int B=FIVE ;\n"
    "__constant__ float C = 2;\n__constant__ int D = ONE + 1;\n__constant__ int E = F;\n"
    "__constant__ int G = NONE;\n__constant__ int H = -4;\n";
  ck_assert_int_eq(write(fd, text, sizeof text - 1), (int)(sizeof text - 1));
  close(fd);
  struct run_sizes ch = {.n = 8, .name = {"A", "B", "C", "D", "E", "G", "H", "X"},
                         .v = {-1, -1, -1, -1, -1, -1, -1, -1}};
  run_choices_guess(path, &ch);
  unlink(path);
  const int64_t want[] = {16, 5, -1, -1, -1, -1, -4, -1};
  for (int i = 0; i < 8; i++)
    ck_assert_msg(ch.v[i] == want[i], "%s: %lld, not %lld", ch.name[i], (long long)ch.v[i],
                  (long long)want[i]);
  static struct run_lab lab;
  char err[512] = "";
  ck_assert_msg(run_lab_load("04", "labs", &lab, err, sizeof err) == 0, "%s", err);
  int64_t v = -1;
  for (int sol = 0; sol < 2; sol++) {
    struct run_sizes c4 = lab.choices;
    run_sizes_set(&c4, "LAYOUT", 7);
    run_choices_guess(sol ? "solutions/04-coalescing/gather.cu" : "labs/04-coalescing/gather.cu",
                      &c4);
    ck_assert(run_sizes_get(&c4, "LAYOUT", &v));
    ck_assert_int_eq(v, sol);
  }
  run_lab_free(&lab);
}
END_TEST

/* The sweeps' inputs made ahead (run_sweep_inputs_ahead) are what every point of lab 04's
   sweeps asks for: each point's buffer of its points is the one made ahead (the pool makes
   none of its own), and holds the bytes a pool of the point's own makes for it. */
START_TEST(test_sweep_inputs_ahead)
{
  static struct run_lab lab;
  char err[512] = "";
  ck_assert_msg(run_lab_load("04", "labs", &lab, err, sizeof err) == 0, "%s", err);
  struct run_sizes ch = lab.choices;
  run_sizes_set(&ch, "LAYOUT", 1);            /* the solution's: SoA */
  struct run_inputs *pool = run_inputs_new();
  ck_assert_ptr_nonnull(pool);
  const uint64_t seed = 77;
  run_sweep_inputs_ahead(&lab, pool, &lab.emu, &ch, seed, 0, NULL);
  uint32_t pi = 0;
  while (pi < lab.nparams && strcmp(lab.params[pi].name, "points"))
    pi++;
  ck_assert_uint_lt(pi, lab.nparams);
  const struct run_param *p = &lab.params[pi];
  const void *ahead = NULL;
  uint64_t most = 0;
  uint32_t asked = 0;
  for (uint32_t s = 0; s < lab.nsweeps; s++)
    for (uint32_t k = 0; k < lab.sweeps[s].npoints; k++) {
      struct run_sizes pch = ch;
      for (uint32_t j = 0; j < lab.sweeps[s].nset; j++)
        run_sizes_set(&pch, lab.sweeps[s].set[j], lab.sweeps[s].values[k][j]);
      struct run_var v[2 * RUN_MAX_VARS];
      size_t nv = 0;
      for (uint32_t i = 0; i < lab.emu.n; i++)
        v[nv++] = (struct run_var){lab.emu.name[i], lab.emu.v[i]};
      for (uint32_t i = 0; i < pch.n; i++)
        v[nv++] = (struct run_var){pch.name[i], pch.v[i]};
      int64_t cnt;
      ck_assert_int_eq(run_expr_eval(p->count, v, nv, &cnt, err, sizeof err), 0);
      int owned = 1;
      const void *got = run_inputs_get(pool, p->init, p->elem, (uint64_t)cnt, seed * 1000003u + pi,
                                       &owned);
      ck_assert_int_eq(owned, 0);
      if (!ahead)
        ahead = got;
      ck_assert_ptr_eq(got, ahead);             /* the one buffer made ahead */
      most = (uint64_t)cnt > most ? (uint64_t)cnt : most;
      struct run_inputs *own = run_inputs_new();
      const void *want = run_inputs_get(own, p->init, p->elem, (uint64_t)cnt, seed * 1000003u + pi,
                                        &owned);
      ck_assert(!memcmp(got, want, (size_t)cnt * run_elem_size(p->elem)));
      run_inputs_free(own);
      asked++;
    }
  ck_assert_uint_eq(asked, 18);
  ck_assert_uint_gt(most, 32u * 1048576u);      /* the stride-32 point's: 32 times the size */
  run_inputs_free(pool);
  run_lab_free(&lab);
}
END_TEST

/* A build folder that cannot be prepared after the kernel's copy is written (here: a sandbox
   read path that is not absolute) is an error to report; the copy's file was closed twice
   on that path before (glibc aborts on the second fclose, ASan reports a use after free). */
START_TEST(test_build_unprepared_folder)
{
  char dir[] = "/tmp/warplab-check-build-XXXXXX", cu[64], ptx[64], log[2048];
  ck_assert_ptr_nonnull(mkdtemp(dir));
  snprintf(cu, sizeof cu, "%s/k.cu", dir);
  snprintf(ptx, sizeof ptx, "%s/k.ptx", dir);
  FILE *f = fopen(cu, "w");
  ck_assert_ptr_nonnull(f);
  fputs("__global__ void k(float *x) { x[threadIdx.x] = 1.0f; }\n", f);
  ck_assert_int_eq(fclose(f), 0);
  setenv("WARPLAB_SANDBOX_READ", "not/absolute", 1);
  enum tc_build_status st = tc_build_ptx(cu, "sm_90", ptx, log, sizeof log);
  unsetenv("WARPLAB_SANDBOX_READ");
  unlink(cu);
  rmdir(dir);
  if (st == TC_BUILD_NO_NVCC)
    return;                                     /* nothing to build with on this machine */
  ck_assert_int_eq(st, TC_BUILD_SYSTEM);
  ck_assert_msg(strstr(log, "cannot prepare the build folder") != NULL, "log: %s", log);
}
END_TEST

/* Every lab of labs/ loads, each name of its "metrics" resolved to the catalogue's id. */
START_TEST(test_labs_resolve)
{
  DIR *d = opendir("labs");
  ck_assert_msg(d != NULL, "run from the repository: no labs/");
  struct dirent *e;
  int nlabs = 0;
  static struct run_lab lab;
  while ((e = readdir(d))) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9')
      continue;
    char err[512] = "";
    ck_assert_msg(run_lab_load(e->d_name, "labs", &lab, err, sizeof err) == 0, "%s: %s",
                  e->d_name, err);
    ck_assert_msg(lab.nmetrics > 0, "%s lists no metrics", e->d_name);
    for (uint32_t i = 0; i < lab.nmetrics; i++)
      ck_assert_str_eq(met_name(lab.metric_id[i]), lab.metrics[i]);
    run_lab_free(&lab);
    nlabs++;
  }
  closedir(d);
  ck_assert_int_ge(nlabs, 7);
}
END_TEST

/* labs/03's lab.json with the first "from" replaced by "to", loaded from a copy: run_lab_load's
   status, its message in err, and in *line the line of lab.json where "to" now stands. */
static int load_into(const char *from, const char *to, struct run_lab *lab, char *err, size_t n,
                     int *line)
{
  size_t len;
  char *text = tc_read_file("labs/03-latency-hiding/lab.json", &len);
  ck_assert_ptr_nonnull(text);
  char *at = strstr(text, from);
  ck_assert_msg(at != NULL, "labs/03 has no %s", from);
  *line = 1;
  for (const char *q = text; q < at; q++)
    *line += *q == '\n';
  char dir[] = "/tmp/warplab-check-lab-XXXXXX", path[64];
  ck_assert_ptr_nonnull(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/lab.json", dir);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fprintf(f, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
  ck_assert_int_eq(fclose(f), 0);
  free(text);
  int rc = run_lab_load(dir, NULL, lab, err, n);
  unlink(path);
  rmdir(dir);
  return rc;
}

static int load_with(const char *from, const char *to, char *err, size_t n, int *line)
{
  static struct run_lab lab;
  int rc = load_into(from, to, &lab, err, n, line);
  if (rc == 0)
    run_lab_free(&lab);
  return rc;
}

/* launch.cooperative and launch.cluster: kept as given (cluster padded with 1s), absent as
   0; anything but a boolean, or but 1 to 3 positive integers, refused with the field. */
START_TEST(test_lab_cooperative_and_cluster)
{
  static struct run_lab lab;
  char err[768] = "";
  int line;
  const char *from = "\"launch\": {";
  ck_assert_int_eq(load_into(from, "\"launch\": {\"cooperative\": true, \"cluster\": [2, 3], ", &lab,
                             err, sizeof err, &line), 0);
  ck_assert_int_eq(lab.cooperative, 1);
  ck_assert_uint_eq(lab.cluster[0], 2);
  ck_assert_uint_eq(lab.cluster[1], 3);
  ck_assert_uint_eq(lab.cluster[2], 1);
  run_lab_free(&lab);
  ck_assert_int_eq(load_into(from, from, &lab, err, sizeof err, &line), 0);
  ck_assert_int_eq(lab.cooperative, 0);
  ck_assert_uint_eq(lab.cluster[0], 0);
  run_lab_free(&lab);
  ck_assert_int_eq(load_with(from, "\"launch\": {\"cooperative\": 1, ", err, sizeof err, &line), -1);
  ck_assert_msg(strstr(err, "launch.cooperative"), "%s", err);
  ck_assert_int_eq(load_with(from, "\"launch\": {\"cluster\": [0], ", err, sizeof err, &line), -1);
  ck_assert_msg(strstr(err, "launch.cluster"), "%s", err);
}
END_TEST

/* A typo in a metric's name is refused when the lab loads, with the file, the line and the
   name it should have been: in "metrics", in a chart's y (a name, or one inside an
   expression), and in the rubric; a typo in an expression's other names too. */
START_TEST(test_lab_typo_refused)
{
  static const struct { const char *from, *to, *field, *want; } rows[] = {
    {"\"sm__cycles_elapsed.avg\"", "\"sm__cycles_elapsed.avgg\"", "\"metrics\"",
     "unknown metric 'sm__cycles_elapsed.avgg' (did you mean 'sm__cycles_elapsed.avg'?)"},
    {"\"y\": [\"gpu__time_duration.sum\"]", "\"y\": [\"gpu__time_duraton.sum\"]", "\"charts.y\"",
     "unknown metric 'gpu__time_duraton.sum' (did you mean 'gpu__time_duration.sum'?)"},
    {"12 * n / (gpu__time_duration.sum", "12 * n / (gpu__time_duration.sun", "\"charts.y\"",
     "unknown metric 'gpu__time_duration.sun' (did you mean 'gpu__time_duration.sum'?)"},
    {"- launch_overhead_ns", "- launch_overhead_nss", "\"charts.y\"",
     "unknown name (no metric, choice, size or profile number) 'launch_overhead_nss'"},
    {"\"metric\": \"sm__maximum_warps_per_active_cycle_pct\"",
     "\"metric\": \"sm__maximum_warp_per_active_cycle_pct\"", "\"rubric.metrics.targets.metric\"",
     "(did you mean 'sm__maximum_warps_per_active_cycle_pct'?)"},
    {"\"metric\": \"gpu__time_duration.sum\"", "\"metric\": \"gpu_time_duration.sum\"",
     "\"rubric.performance.metric\"", "(did you mean 'gpu__time_duration.sum'?)"},
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    char err[768] = "", at[32];
    int line;
    ck_assert_msg(load_with(rows[i].from, rows[i].to, err, sizeof err, &line) == -1,
                  "%s accepted", rows[i].to);
    snprintf(at, sizeof at, "/lab.json:%d: ", line);
    ck_assert_msg(strstr(err, at) != NULL, "%s: '%s' lacks '%s'", rows[i].to, err, at);
    ck_assert_msg(strstr(err, rows[i].field) != NULL, "'%s' lacks %s", err, rows[i].field);
    ck_assert_msg(strstr(err, rows[i].want) != NULL, "'%s' lacks '%s'", err, rows[i].want);
  }
  /* a chart expression that does not parse is refused at load too, with its line and the
     column: lab 03's bandwidth chart's x and a derived y */
  static const struct { const char *from, *to, *want; } syntax[] = {
    {"\"x\": \"WARPS\"", "\"x\": \"WARPS +\"",
     "chart 'bandwidth': \"x\": 'WARPS +': unexpected end at column 8"},
    {"12 * n / (gpu__time_duration.sum", "12 * n / (gpu__time_duration.sum +* 2",
     "\"y\"[0]: '12 * n / (gpu__time_duration.sum +* 2"},
  };
  for (size_t i = 0; i < sizeof syntax / sizeof *syntax; i++) {
    char err[768] = "", at[32];
    int line;
    ck_assert_msg(load_with(syntax[i].from, syntax[i].to, err, sizeof err, &line) == -1,
                  "%s accepted", syntax[i].to);
    snprintf(at, sizeof at, "/lab.json:%d: ", line);
    ck_assert_msg(strstr(err, at) != NULL, "%s: '%s' lacks '%s'", syntax[i].to, err, at);
    ck_assert_msg(strstr(err, syntax[i].want) != NULL, "'%s' lacks '%s'", err, syntax[i].want);
  }
  /* the unchanged copy loads: the refusals are the typos' */
  char err[768] = "";
  int line;
  ck_assert_msg(load_with("\"sm__cycles_elapsed.avg\"", "\"sm__cycles_elapsed.avg\"", err,
                          sizeof err, &line) == 0, "%s", err);
}
END_TEST

/* lab.json's rubric, parsed once by the lab loader (run_rubric_parse) into what grader/
   scores with: parts, points, bounds, defaults, each target's metric resolved, questions with
   and without their answer; and the shapes it refuses, naming the field. */
static int rubric_of(const char *text, struct run_rubric *r, char *err, size_t n)
{
  json_error_t je;
  json_t *root = json_loads(text, 0, &je);
  ck_assert_msg(root != NULL, "%s", je.text);
  int rc = run_rubric_parse(root, "lab.json", r, err, n);
  json_decref(root);
  return rc;
}

START_TEST(test_rubric_parsed)
{
  static struct run_rubric r;
  char err[512];
  ck_assert_int_eq(rubric_of("{\"rubric\": {\"total\": 90, \"correctness\": {\"points\": 40},"
      " \"metrics\": {\"points\": 20, \"targets\": [{\"metric\": \"gpu__time_duration.sum\","
      " \"max\": 5e4, \"points\": 20, \"why\": \"fast\"}]},"
      " \"performance\": {\"points\": 10, \"metric\": \"gpu__time_duration.sum\"},"
      " \"questions\": {\"points\": 20, \"items\": [{\"id\": \"q1\", \"answer\": 4, \"tolerance\":"
      " 0.5, \"unit\": \"warps\", \"method\": \"pencil\"}, {\"id\": \"q2\", \"section\": \"S\"}]}}}",
      &r, err, sizeof err), 0);
  ck_assert(r.present && r.has_total && r.has_correctness && r.has_metrics);
  ck_assert(r.has_performance && r.has_questions);
  ck_assert_double_eq(r.total, 90);
  ck_assert_double_eq(r.correctness_points, 40);
  ck_assert_uint_eq(r.ntargets, 1);
  ck_assert_str_eq(r.targets[0].metric, "gpu__time_duration.sum");
  ck_assert_int_eq(r.targets[0].id, MET_TIME);
  ck_assert(r.targets[0].has_max && !r.targets[0].has_min);
  ck_assert_double_eq(r.targets[0].max, 5e4);
  ck_assert_str_eq(r.targets[0].why, "fast");
  ck_assert_double_eq(r.performance_points, 10);
  ck_assert_double_eq(r.full_within, 1.2);          /* the defaults */
  ck_assert_double_eq(r.zero_beyond, 10);
  ck_assert_uint_eq(r.nquestions, 2);
  ck_assert(r.questions[0].has_answer && r.questions[0].pencil);
  ck_assert_double_eq(r.questions[0].answer, 4);
  ck_assert_double_eq(r.questions[0].tolerance, 0.5);
  ck_assert_str_eq(r.questions[0].unit, "warps");
  ck_assert(!r.questions[1].has_answer && !r.questions[1].pencil);   /* a students' copy */
  ck_assert_str_eq(r.questions[1].section, "S");

  ck_assert_int_eq(rubric_of("{\"title\": \"none\"}", &r, err, sizeof err), 0);
  ck_assert(!r.present && !r.has_correctness && r.ntargets == 0);

  static const struct { const char *text, *msg; } bad[] = {
    {"{\"rubric\": [1]}", "\"rubric\": must be an object"},
    {"{\"rubric\": {\"correctness\": 3}}", "\"rubric.correctness\": must be an object"},
    {"{\"rubric\": {\"correctness\": {\"points\": \"40\"}}}", "\"rubric.correctness.points\": "
     "must be a number"},
    {"{\"rubric\": {\"metrics\": {\"targets\": [{\"metric\": \"gpu__time_duraton.sum\", \"max\":"
     " 1}]}}}", "unknown metric 'gpu__time_duraton.sum' (did you mean 'gpu__time_duration.sum'?)"},
    {"{\"rubric\": {\"metrics\": {\"targets\": [{\"metric\": \"gpu__time_duration.sum\"}]}}}",
     "needs a \"max\" or a \"min\""},
    {"{\"rubric\": {\"metrics\": {\"targets\": [{\"max\": 1}]}}}",
     "\"rubric.metrics.targets.metric\": missing"},
    {"{\"rubric\": {\"questions\": {\"items\": [{\"answer\": 1}]}}}",
     "\"rubric.questions.items.id\": missing"},
    {"{\"rubric\": {\"questions\": {\"items\": [{\"id\": \"q1\", \"answer\": \"4\"}]}}}",
     "\"rubric.questions.items.answer\": must be a number"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    err[0] = 0;
    ck_assert_msg(rubric_of(bad[i].text, &r, err, sizeof err) == -1, "accepted: %s", bad[i].text);
    ck_assert_msg(strstr(err, bad[i].msg) != NULL, "%s: %s", bad[i].text, err);
    ck_assert_msg(!strncmp(err, "lab.json", 8), "%s", err);
  }
}
END_TEST

/* A large buffer is filled in parts on several threads, or in one on a thread alone (the
   run's inputs made while nvcc runs, run_fill_alone): element i must still be the i-th value
   of the one seeded sequence (a run's inputs replay by --seed whatever the cores). */
START_TEST(test_fill_rand_parts)
{
  uint64_t n = (1u << 24) + 12345;             /* several parts and a ragged last one */
  uint32_t *a = malloc(n * 4);
  ck_assert_ptr_nonnull(a);
  int best = run_fill_vectors(2);
  for (int level = 0; level <= best; level++)  /* parts start anywhere in a vector's step */
    for (int alone = 0; alone < 2; alone++) {
      memset(a, 0, n * 4);
      ck_assert_int_eq(run_fill_vectors(level), level);
      run_fill_alone(alone);
      run_fill_rand(a, RUN_U32, n, 77);
      run_fill_alone(0);
      uint64_t st = 77;
      for (uint64_t i = 0; i < n; i++) {
        uint32_t want = (uint32_t)(run_splitmix64(&st) >> 32);
        if (a[i] != want)
          ck_abort_msg("vectors %d, alone %d, element %llu: %u, expected %u", level, alone,
                       (unsigned long long)i, a[i], want);
      }
    }
  run_fill_vectors(best);
  free(a);
}
END_TEST

/* "rand" of every element type, element by element, as the generator's formulas define it
   (splitmix64 from the seed; a float from the top 24 or 53 bits, in [-1, 1); an integer from
   the top bits of its width; f16 and bf16 rounded from the top 11 or 8): each type's own
   loop in run_fill_rand must make exactly these bytes, with every level of vector code the
   CPU has and without, or recorded seeds replay other inputs. */
START_TEST(test_fill_rand_types)
{
  enum { N = 4099 };                           /* more than f16's 2048 values: its table */
  static const enum run_elem types[] = {RUN_U8, RUN_I32, RUN_U32, RUN_I64, RUN_U64, RUN_F32,
                                        RUN_F64, RUN_I8, RUN_I16, RUN_U16, RUN_F16, RUN_BF16};
  static uint8_t got[N * 8 + 8];
  int best = run_fill_vectors(2);
  for (int level = 0; level <= best; level++)
    for (size_t t = 0; t < sizeof types / sizeof *types; t++) {
      enum run_elem e = types[t];
      unsigned es = run_elem_size(e);
      memset(got, 0xab, sizeof got);
      ck_assert_int_eq(run_fill_vectors(level), level);
      run_fill_rand(got + 1, e, N, 4242 + t);  /* not aligned to the element: bytes, not words */
      uint64_t st = 4242 + t;
      for (unsigned i = 0; i < N; i++) {
        uint64_t x = run_splitmix64(&st), want;
        if (e == RUN_F32) {
          float f = (float)((double)(x >> 40) * 0x1.0p-24) * 2.0f - 1.0f;
          uint32_t u;
          memcpy(&u, &f, 4);
          want = u;
        } else if (e == RUN_F64) {
          double d = (double)(x >> 11) * 0x1.0p-53 * 2.0 - 1.0;
          memcpy(&want, &d, 8);
        } else if (e == RUN_F16) {
          want = run_f16_bits((double)(x >> 53) * 0x1.0p-10 - 1.0);
        } else if (e == RUN_BF16) {
          want = run_bf16_bits((double)(x >> 56) * 0x1.0p-7 - 1.0);
        } else {
          want = es == 8 ? x : x >> (64 - 8 * es);
        }
        uint64_t have = 0;
        memcpy(&have, got + 1 + (size_t)i * es, es);
        if (have != want)
          ck_abort_msg("vectors %d, %s element %u: %llx, expected %llx", level, run_elem_name(e),
                       i, (unsigned long long)have, (unsigned long long)want);
      }
      ck_assert_uint_eq(got[0], 0xab);          /* nothing written outside */
      ck_assert_uint_eq(got[1 + (size_t)N * es], 0xab);
    }
  run_fill_vectors(best);
}
END_TEST

/* The vector code against the portable loop, for every element type, at counts that end
   anywhere in a vector's step and parts that start anywhere (a part starting at element k is
   the sequence of the seed k steps on): the same bytes, none written outside. */
START_TEST(test_fill_rand_vectors)
{
  enum { MAXN = 1000, MAXK = 40 };
  static const enum run_elem types[] = {RUN_U8, RUN_I32, RUN_U32, RUN_I64, RUN_U64, RUN_F32,
                                        RUN_F64, RUN_I8, RUN_I16, RUN_U16, RUN_F16, RUN_BF16};
  static const uint64_t counts[] = {0, 1, 3, 4, 7, 8, 9, 15, 16, 17, 31, 33, 100, 257, 999};
  static const uint64_t starts[] = {0, 1, 2, 3, 5, 8, 13, 16, 17, 39};
  static uint8_t want[(MAXN + MAXK) * 8], got[MAXN * 8 + 16];
  int best = run_fill_vectors(2);
  for (int level = 1; level <= best; level++)
    for (size_t t = 0; t < sizeof types / sizeof *types; t++) {
      enum run_elem e = types[t];
      unsigned es = run_elem_size(e);
      uint64_t seed = 0x5eed0000u + t;
      ck_assert_int_eq(run_fill_vectors(0), 0);
      run_fill_rand(want, e, MAXN + MAXK, seed);
      ck_assert_int_eq(run_fill_vectors(level), level);
      for (size_t c = 0; c < sizeof counts / sizeof *counts; c++)
        for (size_t k = 0; k < sizeof starts / sizeof *starts; k++) {
          uint64_t n = counts[c], first = starts[k];
          unsigned off = (unsigned)(k % 7);     /* and the buffer anywhere */
          memset(got, 0xab, sizeof got);
          run_fill_rand(got + off, e, n, seed + first * 0x9e3779b97f4a7c15ull);
          if (memcmp(got + off, want + first * es, n * es))
            ck_abort_msg("vectors %d, %s: %llu elements from %llu differ", level,
                         run_elem_name(e), (unsigned long long)n, (unsigned long long)first);
          for (size_t i = 0; i < sizeof got; i++)
            if ((i < off || i >= off + n * es) && got[i] != 0xab)
              ck_abort_msg("vectors %d, %s, %llu elements: byte %zu written", level,
                           run_elem_name(e), (unsigned long long)n, i);
        }
    }
  run_fill_vectors(best);
}
END_TEST

/* A few values of seed 77 recorded from the portable loop before there was vector code: a
   changed sequence or conversion fails here at every level, whatever the other tests'
   formulas say. */
START_TEST(test_fill_rand_known)
{
  enum { N = 100000 };
  static const struct {
    enum run_elem e;
    uint64_t at0, at1, at15, at16, last;
  } known[] = {
    {RUN_F32, 0xbe6d39a8, 0xbc55ae00, 0xbf3d552c, 0xbe6e5aa0, 0xbf303718},
    {RUN_U32, 0x6258cbe0, 0x7e54a488, 0x21556a1a, 0x6234ac41, 0x27e47473},
    {RUN_F64, 0xbfcda7341f83e010, 0xbf8ab5b77c569680, 0xbfe7aaa5795f89a8, 0xbfcdcb53bea68140,
     0xbfe606e2e33050f0},
    {RUN_U64, 0x6258cbe07c1ff081, 0x7e54a4883a969e54, 0x21556a1a81d965bf, 0x6234ac41597ec565,
     0x27e474733ebc40f4},
    {RUN_U8, 0x62, 0x7e, 0x21, 0x62, 0x27},
    {RUN_I16, 0x6258, 0x7e54, 0x2155, 0x6234, 0x27e4},
    {RUN_F16, 0xb370, 0xa300, 0xb9ec, 0xb378, 0xb982},
    {RUN_BF16, 0xbe70, 0xbc80, 0xbf3e, 0xbe70, 0xbf32},
  };
  uint8_t *b = malloc((size_t)N * 8);
  ck_assert_ptr_nonnull(b);
  int best = run_fill_vectors(2);
  for (int level = 0; level <= best; level++)
    for (size_t k = 0; k < sizeof known / sizeof *known; k++) {
      unsigned es = run_elem_size(known[k].e);
      ck_assert_int_eq(run_fill_vectors(level), level);
      run_fill_rand(b, known[k].e, N, 77);
      const uint64_t at[] = {0, 1, 15, 16, N - 1};
      const uint64_t v[] = {known[k].at0, known[k].at1, known[k].at15, known[k].at16,
                            known[k].last};
      for (int j = 0; j < 5; j++) {
        uint64_t have = 0;
        memcpy(&have, b + at[j] * es, es);
        if (have != v[j])
          ck_abort_msg("vectors %d, %s element %llu: %llx, expected %llx", level,
                       run_elem_name(known[k].e), (unsigned long long)at[j],
                       (unsigned long long)have, (unsigned long long)v[j]);
      }
    }
  run_fill_vectors(best);
  free(b);
}
END_TEST

/* The pool of a run's inputs: the same rule, type, count and seed is one buffer made once
   (the seed matters to "rand" only), with the bytes run_fill_init makes, and so is a smaller
   count of any rule but chain= (the start of the larger); anything else is another buffer; no pool, or a full one, gives a buffer of the caller's own. Scratch buffers
   given back are handed out again for their size. */
START_TEST(test_inputs_pool)
{
  struct run_inputs *pool = run_inputs_new();
  ck_assert_ptr_nonnull(pool);
  int owned = -1;
  const float *a = run_inputs_get(pool, "rand", RUN_F32, 1000, 5, &owned);
  ck_assert_ptr_nonnull(a);
  ck_assert_int_eq(owned, 0);
  ck_assert_ptr_eq(run_inputs_get(pool, "rand", RUN_F32, 1000, 5, &owned), a);
  float want[1000];
  run_fill_rand(want, RUN_F32, 1000, 5);
  ck_assert(!memcmp(a, want, sizeof want));
  ck_assert_ptr_ne(run_inputs_get(pool, "rand", RUN_F32, 1000, 6, &owned), a);
  /* a smaller count of the same rule and seed is the start of a larger one made before; a
     larger one is made, and starts with the same elements */
  ck_assert_ptr_eq(run_inputs_get(pool, "rand", RUN_F32, 999, 5, &owned), a);
  const float *a2 = run_inputs_get(pool, "rand", RUN_F32, 2000, 5, &owned);
  ck_assert_ptr_ne(a2, a);
  ck_assert(!memcmp(a2, want, sizeof want));
  ck_assert_ptr_eq(run_inputs_get(pool, "rand", RUN_F32, 1001, 5, &owned), a2);
  ck_assert_ptr_eq(run_inputs_get(pool, "rand", RUN_F32, 998, 5, &owned), a);  /* the smaller */
  ck_assert_ptr_ne(run_inputs_get(pool, "rand", RUN_U32, 1000, 5, &owned), a);
  ck_assert_ptr_ne(run_inputs_get(pool, "iota", RUN_F32, 1000, 5, &owned), a);
  const int32_t *c = run_inputs_get(pool, "chain=3", RUN_I32, 10, 1, &owned);
  ck_assert_ptr_eq(run_inputs_get(pool, "chain=3", RUN_I32, 10, 2, &owned), c);
  ck_assert_int_eq(c[9], 2);                    /* (9 + 3) mod 10 */
  ck_assert_ptr_ne(run_inputs_get(pool, "chain=4", RUN_I32, 10, 1, &owned), c);
  const int32_t *c9 = run_inputs_get(pool, "chain=3", RUN_I32, 9, 1, &owned);
  ck_assert_ptr_ne(c9, c);                      /* mod the count: not c's start */
  ck_assert_int_eq(c9[8], 2);                   /* (8 + 3) mod 9 */
  for (int i = 0; i < 100; i++) {               /* the pool fills: then buffers of one's own */
    const void *b = run_inputs_get(pool, "fill=7", RUN_U8, (uint64_t)i + 1, 0, &owned);
    if (owned)
      free((void *)b);
  }
  void *mine = (void *)run_inputs_get(pool, "fill=7", RUN_U8, 500, 0, &owned);
  ck_assert_int_eq(owned, 1);
  ck_assert_int_eq(((uint8_t *)mine)[499], 7);
  free(mine);
  /* scratch given back is handed out again for the same size only */
  void *x = run_inputs_scratch(pool, 4096);
  ck_assert_ptr_nonnull(x);
  run_inputs_give_back(pool, x, 4096);
  void *y = run_inputs_scratch(pool, 8192);
  ck_assert_ptr_ne(y, x);
  ck_assert_ptr_eq(run_inputs_scratch(pool, 4096), x);
  run_inputs_give_back(pool, y, 8192);
  run_inputs_give_back(pool, x, 4096);
  run_inputs_free(pool);                        /* frees the spares too (ASan checks) */
  mine = (void *)run_inputs_get(NULL, "zero", RUN_F64, 4, 0, &owned);
  ck_assert_int_eq(owned, 1);
  ck_assert(((double *)mine)[3] == 0.0);
  free(mine);
}
END_TEST

/* Resident 4 KiB pages of the n bytes at p (mincore). */
static size_t resident_pages(const void *p, size_t n)
{
  long pg = sysconf(_SC_PAGESIZE);
  uintptr_t a = (uintptr_t)p / (uintptr_t)pg * (uintptr_t)pg;
  size_t len = (size_t)((uintptr_t)p + n - a), np = (len + (size_t)pg - 1) / (size_t)pg, r = 0;
  unsigned char *v = malloc(np);
  ck_assert_ptr_nonnull(v);
  ck_assert_int_eq(mincore((void *)a, len, v), 0);
  for (size_t i = 0; i < np; i++)
    r += v[i] & 1;
  free(v);
  return r;
}

/* A pooled input of zeros is calloc's: a large one fresh from the kernel is not written
   (its pages stay untouched until read, where a memset wrote every one) and reads as zeros;
   one of any other rule is made as before. */
START_TEST(test_inputs_zeros_untouched)
{
  size_t big = 3u << 20;
  struct run_inputs *pool = run_inputs_new();
  int owned = -1;
  const double *z = run_inputs_get(pool, "zero", RUN_F64, big / 8, 0, &owned);
  ck_assert_ptr_nonnull(z);
  ck_assert_int_eq(owned, 0);
  ck_assert_uint_le(resident_pages(z, big), 1);  /* (the chunk's header's page) */
  ck_assert(z[0] == 0.0 && z[big / 8 - 1] == 0.0);
  const uint8_t *f = run_inputs_get(pool, "fill=5", RUN_U8, big, 0, &owned);
  ck_assert_uint_eq(f[0], 5);
  ck_assert_uint_eq(f[big - 1], 5);
  ck_assert_uint_ge(resident_pages(f, big), big / 4096 - 1);
  run_inputs_free(pool);
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
  char lab_file[1100];
  snprintf(lab_file, sizeof lab_file, "%s/lab.json", lab->dir);
  json_t *bad = json_load_file(lab_file, 0, NULL);
  ck_assert_ptr_nonnull(bad);
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

/* f16 and bf16 from a double: nearest, ties to even, subnormals, overflow, signs, NaN (the
   expected bits from the IEEE 754 binary16 layout and bfloat16's, the top half of a float). */
START_TEST(test_half_bits)
{
  ck_assert_uint_eq(run_f16_bits(1.0), 0x3c00);
  ck_assert_uint_eq(run_f16_bits(-2.0), 0xc000);
  ck_assert_uint_eq(run_f16_bits(0.1), 0x2e66);
  ck_assert_uint_eq(run_f16_bits(65504.0), 0x7bff);         /* the largest finite */
  ck_assert_uint_eq(run_f16_bits(65519.0), 0x7bff);         /* below the halfway point */
  ck_assert_uint_eq(run_f16_bits(65520.0), 0x7c00);         /* halfway: to even, infinity */
  ck_assert_uint_eq(run_f16_bits(0x1.0p-24), 0x0001);       /* the smallest subnormal */
  ck_assert_uint_eq(run_f16_bits(0x1.0p-25), 0x0000);       /* halfway to 0: even */
  ck_assert_uint_eq(run_f16_bits(0x1.8p-24), 0x0002);       /* 1.5 quanta: even */
  ck_assert_uint_eq(run_f16_bits(0x1.ffcp-15), 0x0400);     /* rounds up to the smallest normal */
  ck_assert_uint_eq(run_f16_bits(1.0 + 0x1.0p-11), 0x3c00); /* tie: even */
  ck_assert_uint_eq(run_f16_bits(1.0 + 0x3.0p-11), 0x3c02); /* tie: even, up */
  ck_assert_uint_eq(run_f16_bits(-0.0), 0x8000);
  ck_assert_uint_eq(run_f16_bits(NAN) & 0x7c00, 0x7c00);
  ck_assert_uint_ne(run_f16_bits(NAN) & 0x03ff, 0);
  ck_assert_uint_eq(run_bf16_bits(1.0), 0x3f80);
  ck_assert_uint_eq(run_bf16_bits(0.1), 0x3dcd);
  ck_assert_uint_eq(run_bf16_bits(1.0 + 0x1.0p-8), 0x3f80);
  ck_assert_uint_eq(run_bf16_bits(1.0 + 0x3.0p-8), 0x3f82);
  ck_assert_uint_eq(run_bf16_bits(-INFINITY), 0xff80);
  ck_assert_uint_eq(run_bf16_bits(1e39), 0x7f80);
  ck_assert_uint_eq(run_elem_size(RUN_F16), 2);
  ck_assert_uint_eq(run_elem_size(RUN_I8), 1);
  enum run_elem e;
  ck_assert_int_eq(run_elem_parse("bf16", &e), 0);
  ck_assert_int_eq(e, RUN_BF16);
}
END_TEST

/* A GPU run's unprofiled sweep rows take the emulator's ratios, never its size-bound counts,
   never a modelled figure, never over a figure the GPU measured. */
START_TEST(test_sweepfill)
{
  ck_assert(run_sweepfill_metric("l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio"));
  ck_assert(run_sweepfill_metric("smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct"));
  ck_assert(!run_sweepfill_metric("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"));
  ck_assert(!run_sweepfill_metric("gpu__time_duration.sum"));
  ck_assert(!run_sweepfill_metric("sm__warps_active.avg.pct_of_peak_sustained_active"));
  ck_assert(!run_sweepfill_metric("no_such_metric"));
  static struct run_lab lab;
  static struct run_result gpu, emu;
  memset(&lab, 0, sizeof lab);
  memset(&gpu, 0, sizeof gpu);
  memset(&emu, 0, sizeof emu);
  const char *ratio = "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio";
  const char *count = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
  snprintf(lab.metrics[0], sizeof lab.metrics[0], "%s", ratio);
  snprintf(lab.metrics[1], sizeof lab.metrics[1], "%s", count);
  lab.nmetrics = 2;
  /* gpu: main (profiled), sweep row a (timed only), sweep row b (profiled: kept) */
  gpu.npoints = 3;
  gpu.points[1].correct = gpu.points[2].correct = 1;
  snprintf(gpu.points[1].sweep, 64, "shapes");
  snprintf(gpu.points[1].label, 64, "32x8");
  snprintf(gpu.points[2].sweep, 64, "shapes");
  snprintf(gpu.points[2].label, 64, "8x8");
  snprintf(gpu.points[2].metric[0].name, 96, "%s", ratio);
  gpu.points[2].metric[0].value = 9;
  gpu.points[2].metric[0].defined = 1;
  gpu.points[2].nmetrics = 1;
  /* emu: the same rows in another order, both metrics defined */
  emu.npoints = 3;
  const char *labels[3] = {"", "8x8", "32x8"};
  for (int i = 0; i < 3; i++) {
    struct run_point *p = &emu.points[i];
    if (i)
      snprintf(p->sweep, 64, "shapes");
    snprintf(p->label, 64, "%s", labels[i]);
    p->correct = 1;
    snprintf(p->metric[0].name, 96, "%s", ratio);
    p->metric[0].value = 4 + i;
    p->metric[0].defined = 1;
    snprintf(p->metric[1].name, 96, "%s", count);
    p->metric[1].value = 1000;
    p->metric[1].defined = 1;
    p->nmetrics = 2;
  }
  char filled[64];
  ck_assert_int_eq(run_sweepfill_merge(&lab, &gpu, &emu, filled, sizeof filled), 1);
  ck_assert_str_eq(filled, "sect/req");
  ck_assert_uint_eq(gpu.points[0].nmetrics, 0);      /* the main row is the GPU's own */
  ck_assert_uint_eq(gpu.points[1].nmetrics, 1);      /* the ratio, not the count */
  ck_assert_str_eq(gpu.points[1].metric[0].name, ratio);
  ck_assert(gpu.points[1].metric[0].value == 6);    /* row 32x8's, matched by label */
  ck_assert_str_eq(gpu.points[1].metric[0].kind, "emulated");
  ck_assert(gpu.points[2].metric[0].value == 9);    /* measured: kept */
  /* an emulator row that failed its check fills nothing */
  memset(&gpu.points[1], 0, sizeof gpu.points[1]);
  snprintf(gpu.points[1].sweep, 64, "shapes");
  snprintf(gpu.points[1].label, 64, "32x8");
  ck_assert_int_eq(run_sweepfill_merge(&lab, &gpu, &emu, filled, sizeof filled), 0);  /* GPU row failed */
  gpu.points[1].correct = 1;
  emu.points[2].correct = 0;
  ck_assert_int_eq(run_sweepfill_merge(&lab, &gpu, &emu, filled, sizeof filled), 0);
  ck_assert_uint_eq(gpu.points[1].nmetrics, 0);
}
END_TEST

Suite *suite_run(void)
{
  Suite *s = suite_create("run");
  TCase *t = tcase_create("expr");
  tcase_add_test(t, test_expr_values);
  tcase_add_test(t, test_expr_errors);
  tcase_add_test(t, test_fill_rand_parts);
  tcase_add_test(t, test_fill_rand_types);
  tcase_add_test(t, test_fill_rand_vectors);
  tcase_add_test(t, test_fill_rand_known);
  tcase_add_test(t, test_inputs_pool);
  tcase_add_test(t, test_inputs_zeros_untouched);
  tcase_add_test(t, test_rubric_parsed);
  tcase_add_test(t, test_half_bits);
  tcase_add_test(t, test_result_load);
  tcase_add_test(t, test_result_ship);
  tcase_add_test(t, test_sanitizer_parse);
  tcase_add_test(t, test_sanitizer_parse_overflow);
  tcase_add_test(t, test_result_occupancy_round_trip);
  tcase_add_test(t, test_lab_test_warp_size);
  tcase_add_test(t, test_build_unprepared_folder);
  tcase_add_test(t, test_labs_resolve);
  tcase_add_test(t, test_lab_typo_refused);
  tcase_add_test(t, test_lab_cooperative_and_cluster);
  tcase_add_test(t, test_lab_hidden_tests);
  tcase_add_test(t, test_sweepfill);
  tcase_add_test(t, test_sweep_inputs_ahead);
  tcase_add_test(t, test_choices_guess);
  suite_add_tcase(s, t);
  return s;
}
