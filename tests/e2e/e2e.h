/* e2e.h: helpers for the end-to-end suite (tests/e2e/check_e2e.c).
 *
 * The suite drives the real command-line binary the way a student does: it writes
 * input files, runs `warplab emu ...` as a child process, parses the JSON on stdout,
 * reads the dumped buffers back and compares them with values recomputed on the host.
 * Everything a test allocates lives in a per-test arena and a per-test temporary
 * folder, both released by the checked teardown, so a passing test leaks nothing
 * (the suite also runs under AddressSanitizer's leak checker).
 *
 * Environment:
 *   WARPLAB          the binary to test (default bin/warplab)
 *   WARPLAB_E2E_DIR  the folder holding kernels/ and ptx/ (default tests/e2e)
 */
#ifndef WARPLAB_E2E_H
#define WARPLAB_E2E_H

#include <check.h>
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

/* ---- set-up ---- */

/* Creates the suite's root temporary folder; returns 0, or -1 with a message on stderr. */
int e2e_init(void);
/* Removes the root temporary folder and everything left in it. */
void e2e_fini(void);
/* Checked fixture: a fresh temporary folder and arena for one test. */
void e2e_setup(void);
/* Checked fixture: removes the test's folder and frees its arena. */
void e2e_teardown(void);

/* Nonzero when nvcc can be found (PATH, $CUDA_HOME/bin, /usr/local/cuda/bin). */
int e2e_have_nvcc(void);

/* ---- arena (freed by e2e_teardown) ---- */

/* Zeroed memory that lives until the end of the test. */
void *e2e_alloc(size_t size);
/* A formatted string that lives until the end of the test. */
char *e2e_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- files ---- */

/* Path of NAME inside the test's temporary folder. */
const char *e2e_tmp(const char *name);
/* Path of a kernel source (kernels/NAME) or a committed PTX file (ptx/NAME). */
const char *e2e_kernel(const char *name);
const char *e2e_ptx(const char *name);
/* Writes LEN bytes to NAME in the temporary folder; returns its path. Fails the test on error. */
const char *e2e_write(const char *name, const void *data, size_t len);
/* Reads a whole file that must be exactly LEN bytes long. Fails the test otherwise. */
void *e2e_read(const char *path, size_t len);
/* Reads a whole text file (NUL-terminated). Fails the test on error. */
char *e2e_read_text(const char *path);
/* 1-based number of the first line of PATH containing MARKER. Fails the test if absent. */
int e2e_marker_line(const char *path, const char *marker);

/* ---- running the CLI ---- */

struct e2e_run {
  int status;       /* exit code; 128 + signal number if killed */
  char *out;        /* everything written to stdout */
  char *err;        /* everything written to stderr */
  json_t *json;     /* stdout parsed as JSON, or NULL if it is not one JSON value */
  const char *cmd;  /* the command line, for messages */
};

/* Runs `$WARPLAB emu SRC ARGS...`; the NULL-terminated list of strings follows SRC.
 * Fails the test only if the process cannot be started. */
struct e2e_run *e2e_emu(const char *src, ...) __attribute__((sentinel));
/* Runs `$WARPLAB ARGS...` (NULL-terminated). */
struct e2e_run *e2e_warplab(const char *arg0, ...) __attribute__((sentinel));

/* Asserts exit code 0, a JSON object on stdout, "outcome": "ok" and "fault": null. */
void e2e_expect_ok(const struct e2e_run *r);
/* Asserts the exit code and, for 0 and 1, a JSON object with the given outcome. */
void e2e_expect_outcome(const struct e2e_run *r, int status, const char *outcome);
/* Asserts the exit code and that stderr contains every NULL-terminated needle. */
void e2e_expect_error(const struct e2e_run *r, int status, ...) __attribute__((sentinel));
/* Nonzero if TEXT mentions line LINE of the file named NAME as "NAME:LINE", "NAME(LINE)"
 * or "line LINE", with no further digit after LINE. */
int e2e_mentions_line(const char *text, const char *name, int line);

/* ---- JSON ---- */

/* The value at a '/'-separated path ("fault/source/line", "metrics/smsp__inst_executed.sum/value";
 * a numeric component indexes an array), or NULL. */
json_t *e2e_j(const json_t *root, const char *path);
/* The integer at PATH; fails the test if it is missing or not an integer. */
long long e2e_jint(const struct e2e_run *r, const char *path);
/* The string at PATH; fails the test if it is missing or not a string. */
const char *e2e_jstr(const struct e2e_run *r, const char *path);
/* Asserts that PATH is an array of three integers equal to x, y, z. */
void e2e_expect_dim3(const struct e2e_run *r, const char *path, long long x, long long y,
                     long long z);

/* ---- a lab run's result.json (warplab run --json) ---- */

/* The point of sweep SWEEP labelled LABEL; fails the test when there is none. */
json_t *e2e_point(const struct e2e_run *r, const char *sweep, const char *label);
/* The first test whose label starts with LABEL; fails the test when there is none. */
json_t *e2e_test_at(const struct e2e_run *r, const char *label);
/* A test's state: "pass", "fail", "fault", ... */
const char *e2e_state_of(json_t *t);

/* ---- a lab's lab.json ---- */

/* The JSON file at PATH; fails the test, with the parser's line, when it does not parse. */
json_t *e2e_load_json(const char *path);
/* The answer the rubric of lab.json LAB gives question ID; fails the test when it has none. */
double e2e_rubric_answer(json_t *lab, const char *id);

/* ---- warplab grade ---- */

/* `warplab grade LAB DIR --backend emu --json` exits 0 and gives 100 of 100 points. */
void e2e_expect_full_marks(const char *lab, const char *dir);

/* ---- test cases kept in other files ---- */

/* Adds the "metrics" test case (tests/e2e/metrics.c: memory and branch counters from first
 * principles) to S; adds nothing, with a message, when nvcc is missing. */
void e2e_add_metrics_tests(Suite *s);
/* Counts from the SASS ptxas makes (tests/e2e/sass.c): the "sass" test case. */
void e2e_add_sass_tests(Suite *s);
/* The tests of warplab run (tests/e2e/lab.c). */
void e2e_add_lab_tests(Suite *s);
/* Lab 02, occupancy: staircases, waves, local memory and spills, starter, grade (lab02.c). */
void e2e_add_lab02_tests(Suite *s);
/* Lab 04, memory coalescing: its solution, starter and wrong kernels (tests/e2e/lab04.c). */
void e2e_add_lab04_tests(Suite *s);
/* Lab 07, warp reduction: versions, wave64 tests, starter, 32-lane kernels, grade (lab07.c). */
void e2e_add_lab07_tests(Suite *s);
/* Lab 05, bank conflicts: its solution, the bank probe, starter, race and grade (lab05.c). */
void e2e_add_lab05_tests(Suite *s);
/* Lab 06, divergence: the mappings, chain, spin locks and barriers, starter, grade (lab06.c). */
void e2e_add_lab06_tests(Suite *s);
/* Lab 03, latency hiding: its solution's sweeps, starter, wrong kernels and grade (lab03.c). */
void e2e_add_lab03_tests(Suite *s);
/* The lane log: warplab emu --lanes and warplab lanes (tests/e2e/lanes.c). */
void e2e_add_lanes_tests(Suite *s);
/* The timing model against the H200 calibration curves (timing.c). */
void e2e_add_timing_tests(Suite *s);
/* warplab batch killed and resumed (batch.c). */
void e2e_add_batch_tests(Suite *s);
/* Submissions written to break things (adversarial.c). */
void e2e_add_adversarial_tests(Suite *s);
/* Submissions that reach for other files through the compiler (isolation.c). */
void e2e_add_isolation_tests(Suite *s);
/* Shared-memory races, uninitialised reads, bad masks, wrong elements counted (racecheck.c). */
void e2e_add_racecheck_tests(Suite *s);
void e2e_add_order_tests(Suite *s);
/* The handouts' code examples (tests/e2e/handouts.c). */
void e2e_add_handout_tests(Suite *s);
/* printf and assert (tests/e2e/builtins.c). */
void e2e_add_builtin_tests(Suite *s);
/* __constant__ memory as ptxas lays out constant bank 3 (tests/e2e/constbank.c) */
void e2e_add_constbank_tests(Suite *s);
void e2e_add_limits_tests(Suite *s);   /* launch limits, printf bounds (tests/e2e/limits.c) */
/* sm_80/sm_90 PTX against the ISA, and per-kernel refusal (tests/e2e/ptxops.c). */
void e2e_add_ptxops_tests(Suite *s);
/* texture and surface objects through --arg tex2d:/surf2d:... (tests/e2e/texture.c). */
void e2e_add_texture_tests(Suite *s);
/* cp.async from CUDA C: stages, cooperative groups, zero fill, races (tests/e2e/async.c). */
void e2e_add_async_tests(Suite *s);
/* Cooperative launches (grid.sync()) and thread-block clusters (coop.c). */
void e2e_add_coop_tests(Suite *s);
/* tests/e2e/mma.c: tensor-core PTX (wmma, mma.sync, ldmatrix, stmatrix). */
void e2e_add_mma_tests(Suite *s);
/* virtual functions and function pointers (tests/e2e/calls.c). */
void e2e_add_calls_tests(Suite *s);
/* recursive device functions and the call stack (tests/e2e/recursion.c). */
void e2e_add_recursion_tests(Suite *s);
/* warplab grade (tests/e2e/lab.c). */
void e2e_add_grade_tests(Suite *s);
/* A kernel that hangs the GPU, with a stand-in driver (tests/e2e/gpuhang.c). */
void e2e_add_gpuhang_tests(Suite *s);
/* warplab release and warplab autograder, built and run where they are written (release.c). */
void e2e_add_release_tests(Suite *s);
/* cli.c: did-you-mean, --help, lab names, results/latest and clean, the text report */
void e2e_add_cli_tests(Suite *s);

/* ---- deterministic inputs: the generator the CLI's `rand:SEED` is defined by ---- */

/* splitmix64: advances *state and returns the next 64-bit value. */
uint64_t e2e_splitmix64(uint64_t *state);
/* The value the CLI's rand generator gives from one 64-bit draw, per buffer type. */
float e2e_rand_to_f32(uint64_t x);
double e2e_rand_to_f64(uint64_t x);
/* Arrays from seed SEED (arena memory), the same as `<type>buf:N:rand:SEED`. */
float *e2e_rand_f32(size_t n, uint64_t seed);
uint32_t *e2e_rand_u32(size_t n, uint64_t seed);

/* Bit pattern of a float, for exact comparisons that also cover -0 and NaN. */
uint32_t e2e_f32_bits(float f);
uint64_t e2e_f64_bits(double d);

#endif
