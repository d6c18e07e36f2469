/* check_e2e.c: the end-to-end suite. Real CUDA kernels (the .cu files in tests/e2e/kernels) go
 * through the real command-line binary, `warplab emu`, exactly as a student runs them;
 * every test recomputes the expected result on the host from the same inputs and
 * compares values: bit for bit where the arithmetic is exact (integers, one IEEE
 * rounding, a float reduction whose order the kernel fixes), within the documented
 * error for the .approx instructions and for float sums whose order atomics decide.
 * Faults, deadlocks and barrier divergence are checked for the source line (found by
 * a marker comment in the .cu file), the thread and the allocation.
 *
 * Three test cases:
 *   cu     .cu files, compiled by nvcc inside the CLI; left out, with a message, when
 *          nvcc is not installed
 *   ptx    committed PTX of some kernels (tests/e2e/ptx, made by regen.sh), so that the
 *          emulator is exercised without nvcc
 *   usage  bad command lines and bad inputs: exit codes and messages
 *
 * Run with `make e2e`; WARPLAB names the binary (default bin/warplab).
 */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

#define A "--arg"
#define TEST_TIMEOUT_S 300

/* ---- small helpers ---- */

static const char *file_arg(const char *type, size_t n, const char *path)
{
  return e2e_fmt("%sbuf:%zu:file=%s", type, n, path);
}

static const char *dump_arg(int idx, const char *path)
{
  return e2e_fmt("%d=%s", idx, path);
}

static int ends_with(const char *s, const char *suffix)
{
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Float arrays compared bit for bit, with the first mismatch in the message. */
static void expect_f32_exact(const char *what, const float *got, const float *want, size_t n)
{
  for (size_t i = 0; i < n; i++)
    ck_assert_msg(e2e_f32_bits(got[i]) == e2e_f32_bits(want[i]),
                  "%s[%zu] = %a (%.9g), expected %a (%.9g)", what, i, (double)got[i],
                  (double)got[i], (double)want[i], (double)want[i]);
}

static void expect_u32_exact(const char *what, const uint32_t *got, const uint32_t *want, size_t n)
{
  for (size_t i = 0; i < n; i++)
    ck_assert_msg(got[i] == want[i], "%s[%zu] = 0x%08x (%u), expected 0x%08x (%u)", what, i,
                  got[i], got[i], want[i], want[i]);
}

/* n random integers in [lo, hi] from seed (arena). */
static int32_t *rand_i32_range(size_t n, uint64_t seed, int32_t lo, int32_t hi)
{
  int32_t *a = e2e_alloc(n * sizeof *a);
  uint64_t s = seed;
  uint64_t span = (uint64_t)((int64_t)hi - lo + 1);
  for (size_t i = 0; i < n; i++)
    a[i] = (int32_t)((int64_t)lo + (int64_t)((e2e_splitmix64(&s) >> 32) % span));
  return a;
}

/* Checks that the source location in a fault or waiting entry names FILE at LINE. */
static void expect_source(const struct e2e_run *r, const char *path, const char *cu_name, int line)
{
  const char *file = e2e_jstr(r, e2e_fmt("%s/file", path));
  long long got = e2e_jint(r, e2e_fmt("%s/line", path));
  ck_assert_msg(ends_with(file, cu_name), "%s\n%s/file = \"%s\", expected it to name %s", r->cmd,
                path, file, cu_name);
  ck_assert_msg(got == line, "%s\n%s/line = %lld, expected %d (the marked line of %s)\n%.3000s",
                r->cmd, path, got, line, cu_name, r->out);
}

/* The fault's allocation must be argument INDEX: named "argument INDEX", optionally
 * followed by " (" and the argument's spec, as in "argument 1 (f32buf:100:zero)". */
static void expect_alloc_name(const struct e2e_run *r, int index)
{
  const char *name = e2e_jstr(r, "fault/allocation/name");
  const char *want = e2e_fmt("argument %d", index);
  size_t n = strlen(want);
  ck_assert_msg(strncmp(name, want, n) == 0 && (name[n] == '\0' || strncmp(name + n, " (", 2) == 0),
                "%s\nfault.allocation.name = \"%s\", expected \"%s\"\n%.3000s", r->cmd, name, want,
                r->out);
}

/* Index of the first fault/waiting entry at LINE (and REASON, unless NULL), or -1. */
static int find_waiting(const struct e2e_run *r, int line, const char *reason)
{
  json_t *w = e2e_j(r->json, "fault/waiting");
  ck_assert_msg(json_is_array(w) && json_array_size(w) > 0,
                "%s\nfault.waiting should list the stuck warps:\n%.3000s", r->cmd, r->out);
  for (size_t i = 0; i < json_array_size(w); i++) {
    json_t *e = json_array_get(w, i);
    json_t *l = e2e_j(e, "source/line");
    json_t *why = json_object_get(e, "reason");
    if (json_is_integer(l) && json_integer_value(l) == line &&
        (!reason || (json_is_string(why) && strcmp(json_string_value(why), reason) == 0)))
      return (int)i;
  }
  return -1;
}

/* ================================================================ */
/* element-wise                                                      */

static void check_add(const char *src)
{
  const size_t n = 1000;
  float *a = e2e_rand_f32(n, 11), *b = e2e_rand_f32(n, 12);
  const char *pa = e2e_write("a.bin", a, n * 4), *pb = e2e_write("b.bin", b, n * 4);
  const char *pc = e2e_tmp("c.bin");
  struct e2e_run *r = e2e_emu(src, "--kernel", "add", "--grid", "4", "--block", "256",
                              A, file_arg("f32", n, pa), A, file_arg("f32", n, pb),
                              A, e2e_fmt("f32buf:%zu:fill=7", n), A, "i32:1000",
                              "--dump", dump_arg(2, pc), "--json", NULL);
  e2e_expect_ok(r);
  float *c = e2e_read(pc, n * 4), *want = e2e_alloc(n * 4);
  for (size_t i = 0; i < n; i++)
    want[i] = a[i] + b[i];
  expect_f32_exact("c", c, want, n);

  ck_assert_str_eq(e2e_jstr(r, "kernel"), "add");
  e2e_expect_dim3(r, "launch/grid", 4, 1, 1);
  e2e_expect_dim3(r, "launch/block", 256, 1, 1);
  ck_assert_int_eq(e2e_jint(r, "launch/warp_size"), 32);
  ck_assert_int_eq(e2e_jint(r, "launch/dynamic_smem"), 0);
  ck_assert_str_eq(e2e_jstr(r, "launch/sched"), "its");
  ck_assert_int_eq(e2e_jint(r, "resources/static_smem_bytes"), 0);
}

static void check_saxpy(const char *src)
{
  const size_t n = 1000;
  const float alpha = -1.75f;
  float *x = e2e_rand_f32(n, 21), *y = e2e_rand_f32(n, 22);
  const char *px = e2e_write("x.bin", x, n * 4), *py = e2e_write("y.bin", y, n * 4);
  const char *pout = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(src, "--kernel", "saxpy", "--grid", "8", "--block", "128",
                              A, "i32:1000", A, "f32:-1.75", A, file_arg("f32", n, px),
                              A, file_arg("f32", n, py), "--dump", dump_arg(3, pout), "--json", NULL);
  e2e_expect_ok(r);
  float *got = e2e_read(pout, n * 4), *want = e2e_alloc(n * 4);
  for (size_t i = 0; i < n; i++)
    want[i] = fmaf(alpha, x[i], y[i]);
  expect_f32_exact("y", got, want, n);
}

/* The definition of the CLI's generators, checked on buffers the kernel leaves alone. */
static void check_generators(const char *src)
{
  const char *p[6];
  for (int i = 0; i < 6; i++)
    p[i] = e2e_tmp(e2e_fmt("g%d.bin", i));
  struct e2e_run *r = e2e_emu(src, "--kernel", "probe", "--grid", "3", "--block", "50",
                              A, "f32buf:1000:rand:42", A, "u32buf:1000:rand:7",
                              A, "i32buf:777:rand:9", A, "f64buf:500:rand:3", A, "u8buf:333:rand:5",
                              A, "u32buf:1:zero", "--dump", dump_arg(0, p[0]), "--dump",
                              dump_arg(1, p[1]), "--dump", dump_arg(2, p[2]), "--dump",
                              dump_arg(3, p[3]), "--dump", dump_arg(4, p[4]), "--dump",
                              dump_arg(5, p[5]), "--json", NULL);
  e2e_expect_ok(r);
  uint64_t s = 42;
  float *f = e2e_read(p[0], 1000 * 4);
  for (size_t i = 0; i < 1000; i++) {
    float want = e2e_rand_to_f32(e2e_splitmix64(&s));
    ck_assert_msg(e2e_f32_bits(f[i]) == e2e_f32_bits(want), "f32 rand:42 [%zu] = %a, expected %a",
                  i, (double)f[i], (double)want);
  }
  s = 7;
  uint32_t *u = e2e_read(p[1], 1000 * 4);
  for (size_t i = 0; i < 1000; i++) {
    uint32_t want = (uint32_t)(e2e_splitmix64(&s) >> 32);
    ck_assert_msg(u[i] == want, "u32 rand:7 [%zu] = 0x%08x, expected 0x%08x", i, u[i], want);
  }
  s = 9;
  int32_t *k = e2e_read(p[2], 777 * 4);
  for (size_t i = 0; i < 777; i++) {
    int32_t want = (int32_t)(uint32_t)(e2e_splitmix64(&s) >> 32);
    ck_assert_msg(k[i] == want, "i32 rand:9 [%zu] = %d, expected %d", i, k[i], want);
  }
  s = 3;
  double *d = e2e_read(p[3], 500 * 8);
  for (size_t i = 0; i < 500; i++) {
    double want = e2e_rand_to_f64(e2e_splitmix64(&s));
    ck_assert_msg(e2e_f64_bits(d[i]) == e2e_f64_bits(want), "f64 rand:3 [%zu] = %a, expected %a",
                  i, d[i], want);
  }
  s = 5;
  uint8_t *b = e2e_read(p[4], 333);
  for (size_t i = 0; i < 333; i++) {
    uint8_t want = (uint8_t)(e2e_splitmix64(&s) >> 56);
    ck_assert_msg(b[i] == want, "u8 rand:5 [%zu] = %u, expected %u", i, b[i], want);
  }
  uint32_t *count = e2e_read(p[5], 4);
  ck_assert_uint_eq(count[0], 150);

  r = e2e_emu(src, "--kernel", "probe", "--grid", "2", "--block", "32",
              A, "u32buf:100:iota", A, "f32buf:100:iota", A, "i64buf:100:iota",
              A, "f64buf:50:fill=2.5", A, "u8buf:200:iota", A, "u32buf:1:fill=5",
              "--dump", dump_arg(0, p[0]), "--dump", dump_arg(1, p[1]), "--dump", dump_arg(2, p[2]),
              "--dump", dump_arg(3, p[3]), "--dump", dump_arg(4, p[4]), "--dump", dump_arg(5, p[5]),
              "--json", NULL);
  e2e_expect_ok(r);
  u = e2e_read(p[0], 400);
  f = e2e_read(p[1], 400);
  int64_t *l = e2e_read(p[2], 800);
  for (uint32_t i = 0; i < 100; i++) {
    ck_assert_uint_eq(u[i], i);
    ck_assert_msg(f[i] == (float)i, "f32 iota [%u] = %g", i, (double)f[i]);
    ck_assert_int_eq(l[i], i);
  }
  d = e2e_read(p[3], 400);
  for (int i = 0; i < 50; i++)
    ck_assert_msg(d[i] == 2.5, "f64 fill=2.5 [%d] = %g", i, d[i]);
  b = e2e_read(p[4], 200);
  for (int i = 0; i < 200; i++)
    ck_assert_uint_eq(b[i], (unsigned)i);
  count = e2e_read(p[5], 4);
  ck_assert_uint_eq(count[0], 5 + 64);
}

/* ================================================================ */
/* 2-D                                                               */

static void check_matrix_add(const char *src)
{
  const int nx = 77, ny = 45;
  const size_t n = (size_t)nx * ny;
  float *a = e2e_rand_f32(n, 31), *b = e2e_rand_f32(n, 32), *want = e2e_alloc(n * 4);
  for (size_t i = 0; i < n; i++)
    want[i] = a[i] + b[i];
  const char *pa = e2e_write("a.bin", a, n * 4), *pb = e2e_write("b.bin", b, n * 4);
  static const int shapes[][2] = {{16, 8}, {32, 4}, {8, 32}, {77, 1}};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    int bx = shapes[s][0], by = shapes[s][1];
    int gx = (nx + bx - 1) / bx, gy = (ny + by - 1) / by;
    const char *pc = e2e_tmp(e2e_fmt("c%zu.bin", s));
    struct e2e_run *r = e2e_emu(src, "--kernel", "matrix_add", "--grid", e2e_fmt("%d,%d", gx, gy),
                                "--block", e2e_fmt("%d,%d", bx, by), A, file_arg("f32", n, pa),
                                A, file_arg("f32", n, pb), A, e2e_fmt("f32buf:%zu:fill=-9", n),
                                A, e2e_fmt("i32:%d", nx), A, e2e_fmt("i32:%d", ny),
                                "--dump", dump_arg(2, pc), "--json", NULL);
    e2e_expect_ok(r);
    e2e_expect_dim3(r, "launch/grid", gx, gy, 1);
    e2e_expect_dim3(r, "launch/block", bx, by, 1);
    expect_f32_exact(e2e_fmt("c (block %dx%d)", bx, by), e2e_read(pc, n * 4), want, n);
  }
}

/* ================================================================ */
/* reductions                                                        */

static void check_reduce_shared(const char *src)
{
  const size_t n = 5000;
  float *in = e2e_rand_f32(n, 41);
  const char *pin = e2e_write("in.bin", in, n * 4);
  static const unsigned blocks[] = {256, 128, 32};
  for (size_t k = 0; k < sizeof blocks / sizeof blocks[0]; k++) {
    unsigned bs = blocks[k];
    size_t grid = (n + bs - 1) / bs;
    const char *pp = e2e_tmp(e2e_fmt("partial%u.bin", bs));
    struct e2e_run *r = e2e_emu(src, "--kernel", "reduce_shared", "--grid", e2e_fmt("%zu", grid),
                                "--block", e2e_fmt("%u", bs), A, file_arg("f32", n, pin),
                                A, e2e_fmt("f32buf:%zu:zero", grid), A, e2e_fmt("i32:%zu", n),
                                "--dump", dump_arg(1, pp), "--json", NULL);
    e2e_expect_ok(r);
    ck_assert_int_eq(e2e_jint(r, "resources/static_smem_bytes"), 256 * 4);
    float *got = e2e_read(pp, grid * 4), *want = e2e_alloc(grid * 4);
    for (size_t blk = 0; blk < grid; blk++) {
      float s[256];
      for (unsigned t = 0; t < bs; t++) {
        size_t i = blk * bs + t;
        s[t] = i < n ? in[i] : 0.0f;
      }
      for (unsigned stride = bs / 2; stride > 0; stride >>= 1)
        for (unsigned t = 0; t < stride; t++)
          s[t] += s[t + stride];
      want[blk] = s[0];
    }
    expect_f32_exact(e2e_fmt("partial (block %u)", bs), got, want, grid);
  }
}

/* What lane 0 holds after the kernel's __shfl_down_sync tree (out-of-range lanes keep
 * their own value, as shfl.down does). */
static float warp_tree_f32(const float *v32)
{
  float v[32];
  memcpy(v, v32, sizeof v);
  for (int off = 16; off > 0; off >>= 1) {
    float nv[32];
    for (int l = 0; l < 32; l++)
      nv[l] = v[l] + (l + off < 32 ? v[l + off] : v[l]);
    memcpy(v, nv, sizeof v);
  }
  return v[0];
}

static void check_reduce_warp(const char *src)
{
  const size_t n = 5000, threads = 20 * 256;
  float *in = e2e_rand_f32(n, 51);
  const char *pin = e2e_write("in.bin", in, n * 4), *ptot = e2e_tmp("total.bin");
  struct e2e_run *r = e2e_emu(src, "--kernel", "reduce_warp", "--grid", "20", "--block", "256",
                              A, file_arg("f32", n, pin), A, "f32buf:1:zero", A, "i32:5000",
                              "--dump", dump_arg(1, ptot), "--json", NULL);
  e2e_expect_ok(r);
  float got = *(float *)e2e_read(ptot, 4);
  double want = 0, mag = 0;
  size_t warps = threads / 32;
  for (size_t w = 0; w < warps; w++) {
    float v[32];
    for (int l = 0; l < 32; l++) {
      size_t i = w * 32 + (size_t)l;
      v[l] = i < n ? in[i] : 0.0f;
    }
    float ws = warp_tree_f32(v);
    want += ws;
    mag += fabs(ws);
  }
  /* the order of the per-warp atomicAdds is not fixed: each of them rounds once */
  double tol = 2.0 * (double)warps * FLT_EPSILON * mag;
  ck_assert_msg(fabs((double)got - want) <= tol, "total = %.9g, expected %.9g within %.3g", (double)got,
                want, tol);

  int32_t *iv = rand_i32_range(n, 52, -1000, 1000);
  const char *piv = e2e_write("iv.bin", iv, n * 4);
  r = e2e_emu(src, "--kernel", "reduce_warp_int", "--grid", "20", "--block", "256",
              A, file_arg("i32", n, piv), A, "i32buf:1:zero", A, "i32:5000",
              "--dump", dump_arg(1, ptot), "--json", NULL);
  e2e_expect_ok(r);
  int64_t isum = 0;
  for (size_t i = 0; i < n; i++)
    isum += iv[i];
  ck_assert_int_eq(*(int32_t *)e2e_read(ptot, 4), isum);
}

/* ================================================================ */
/* shared-memory tiling                                              */

static void check_transpose(const char *src)
{
  const int width = 70, height = 45;
  const size_t n = (size_t)width * height;
  float *in = e2e_rand_f32(n, 61), *want = e2e_alloc(n * 4);
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      want[(size_t)x * height + y] = in[(size_t)y * width + x];
  const char *pin = e2e_write("in.bin", in, n * 4), *pout = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(src, "--kernel", "transpose_tiled", "--grid", "3,2", "--block", "32,8",
                              A, file_arg("f32", n, pin), A, e2e_fmt("f32buf:%zu:fill=-5", n),
                              A, "i32:70", A, "i32:45", "--dump", dump_arg(1, pout), "--json", NULL);
  e2e_expect_ok(r);
  ck_assert_int_eq(e2e_jint(r, "resources/static_smem_bytes"), 32 * 33 * 4);
  expect_f32_exact("out", e2e_read(pout, n * 4), want, n);
}

static void check_dyn_smem(const char *src)
{
  const size_t n = 512;
  float *in = e2e_rand_f32(n, 71), *want = e2e_alloc(n * 4);
  for (size_t i = 0; i < n; i++)
    want[i] = in[(i / 128) * 128 + 127 - i % 128];
  const char *pin = e2e_write("in.bin", in, n * 4), *pout = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(src, "--kernel", "reverse_block", "--grid", "4", "--block", "128",
                              "--smem", "512", A, file_arg("f32", n, pin), A, "f32buf:512:zero",
                              "--dump", dump_arg(1, pout), "--json", NULL);
  e2e_expect_ok(r);
  ck_assert_int_eq(e2e_jint(r, "launch/dynamic_smem"), 512);
  expect_f32_exact("out", e2e_read(pout, n * 4), want, n);
}

/* 64 dynamic bytes hold 16 floats: thread 16 is the first to store past the window. */
static void check_dyn_smem_overflow(const char *src)
{
  int line = e2e_marker_line(e2e_kernel("dyn_smem.cu"), "SMEM-STORE");
  struct e2e_run *r = e2e_emu(src, "--kernel", "reverse_block", "--grid", "1", "--block", "128",
                              "--smem", "64", A, "f32buf:128:rand:1", A, "f32buf:128:zero",
                              "--json", NULL);
  e2e_expect_outcome(r, 1, "fault");
  ck_assert_str_eq(e2e_jstr(r, "fault/kind"), "out_of_bounds");
  ck_assert_str_eq(e2e_jstr(r, "fault/space"), "shared");
  ck_assert_str_eq(e2e_jstr(r, "fault/access"), "write");
  ck_assert_int_eq(e2e_jint(r, "fault/size"), 4);
  e2e_expect_dim3(r, "fault/thread", 16, 0, 0);
  e2e_expect_dim3(r, "fault/block", 0, 0, 0);
  expect_source(r, "fault/source", "dyn_smem.cu", line);
}

/* ================================================================ */
/* atomics                                                           */

static void check_histograms(const char *src)
{
  const size_t n = 10000;
  uint8_t *data = e2e_alloc(n);
  uint64_t s = 81;
  for (size_t i = 0; i < n; i++) {
    uint64_t x = e2e_splitmix64(&s);
    /* skewed: a third of the bytes land in 16 bins, so many lanes collide */
    data[i] = (uint8_t)(i % 3 == 0 ? (x >> 60) : (x >> 56));
  }
  uint32_t want[256] = {0};
  for (size_t i = 0; i < n; i++)
    want[data[i]]++;
  const char *pd = e2e_write("data.bin", data, n), *pb = e2e_tmp("bins.bin");
  static const char *const kernels[] = {"hist_global", "hist_shared"};
  for (int k = 0; k < 2; k++) {
    struct e2e_run *r = e2e_emu(src, "--kernel", kernels[k], "--grid", "8", "--block", "128",
                                A, file_arg("u8", n, pd), A, "u32buf:256:zero", A, "i32:10000",
                                "--dump", dump_arg(1, pb), "--json", NULL);
    e2e_expect_ok(r);
    if (k == 1)
      ck_assert_int_eq(e2e_jint(r, "resources/static_smem_bytes"), 1024);
    expect_u32_exact(kernels[k], e2e_read(pb, 1024), want, 256);
  }
}

static void check_max_cas(const char *src)
{
  const size_t n = 3000;
  int32_t *in = rand_i32_range(n, 91, INT32_MIN + 1, INT32_MAX);
  int32_t start = INT32_MIN, want = INT32_MIN;
  for (size_t i = 0; i < n; i++)
    want = in[i] > want ? in[i] : want;
  const char *pin = e2e_write("in.bin", in, n * 4), *pres = e2e_write("res.bin", &start, 4);
  struct e2e_run *r = e2e_emu(src, "--kernel", "max_cas", "--grid", "12", "--block", "256",
                              A, file_arg("i32", n, pin), A, file_arg("i32", 1, pres), A, "i32:3000",
                              "--dump", dump_arg(1, pres), "--json", NULL);
  e2e_expect_ok(r);
  ck_assert_int_eq(*(int32_t *)e2e_read(pres, 4), want);
}

static void check_atomic_misc(const char *src)
{
  const int n = 1037;
  const char *pc = e2e_tmp("counters.bin"), *pinc = e2e_tmp("inc.bin"), *pt = e2e_tmp("ticket.bin");
  const char *pl = e2e_tmp("last.bin"), *pe = e2e_tmp("exch.bin");
  struct e2e_run *r = e2e_emu(src, "--kernel", "atomic_misc", "--grid", "5", "--block", "256",
                              A, "u32buf:2:zero", A, "u32buf:1037:zero", A, "u32buf:1037:zero",
                              A, "i32buf:1:fill=-1", A, "i32buf:1037:zero", A, "i32:1037",
                              "--dump", dump_arg(0, pc), "--dump", dump_arg(1, pinc),
                              "--dump", dump_arg(2, pt), "--dump", dump_arg(3, pl),
                              "--dump", dump_arg(4, pe), "--json", NULL);
  e2e_expect_ok(r);
  uint32_t *counters = e2e_read(pc, 8), *inc = e2e_read(pinc, (size_t)n * 4);
  uint32_t *ticket = e2e_read(pt, (size_t)n * 4);
  int32_t last = *(int32_t *)e2e_read(pl, 4), *exch = e2e_read(pe, (size_t)n * 4);

  /* atomicInc(p, 99): the k-th caller sees k % 100, whatever the order */
  ck_assert_uint_eq(counters[0], (unsigned)(n % 100));
  ck_assert_uint_eq(counters[1], (unsigned)n);
  int seen_inc[100] = {0};
  for (int i = 0; i < n; i++) {
    ck_assert_msg(inc[i] < 100, "atomicInc gave thread %d the value %u", i, inc[i]);
    seen_inc[inc[i]]++;
  }
  for (int v = 0; v < 100; v++)
    ck_assert_msg(seen_inc[v] == (v < n % 100 ? n / 100 + 1 : n / 100),
                  "atomicInc handed out %u %d times", v, seen_inc[v]);
  /* tickets: a permutation of 0..n-1 */
  char *seen = e2e_alloc((size_t)n);
  for (int i = 0; i < n; i++) {
    ck_assert_msg(ticket[i] < (unsigned)n && !seen[ticket[i]], "ticket %u given twice or out of range",
                  ticket[i]);
    seen[ticket[i]] = 1;
  }
  /* atomicExch: one chain -1 -> t1 -> t2 ... -> last through every thread */
  int *who_saw = e2e_alloc((size_t)(n + 1) * sizeof *who_saw); /* index old+1 -> thread+1 */
  for (int i = 0; i < n; i++) {
    ck_assert_msg(exch[i] >= -1 && exch[i] < n, "atomicExch gave thread %d the value %d", i, exch[i]);
    ck_assert_msg(who_saw[exch[i] + 1] == 0, "two threads saw %d from atomicExch", exch[i]);
    who_saw[exch[i] + 1] = i + 1;
  }
  int cur = -1, steps = 0;
  while (steps < n && who_saw[cur + 1] != 0) {
    cur = who_saw[cur + 1] - 1;
    steps++;
  }
  ck_assert_msg(steps == n && cur == last, "the atomicExch chain covers %d of %d threads and ends at "
                "%d; the final value is %d", steps, n, cur, last);
}

/* ================================================================ */
/* divergence                                                        */

static void check_loop_mod7(const char *src, const char *sched)
{
  const int n = 1000;
  const char *pout = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(src, "--kernel", "loop_mod7", "--grid", "4", "--block", "256",
                              "--sched", sched, A, "i32buf:1000:fill=-1", A, "i32:1000",
                              "--dump", dump_arg(0, pout), "--json", NULL);
  e2e_expect_ok(r);
  ck_assert_str_eq(e2e_jstr(r, "launch/sched"), sched);
  int32_t *got = e2e_read(pout, (size_t)n * 4);
  for (int t = 0; t < n; t++) {
    int acc = 0;
    for (int k = 0; k < t % 7; k++)
      acc += k * t + 1;
    ck_assert_msg(got[t] == acc, "out[%d] = %d, expected %d (sched %s)", t, got[t], acc, sched);
  }
  /* lanes sit idle while others loop: fewer thread-instructions than 32 per warp-instruction */
  long long warp_insts = e2e_jint(r, "metrics/smsp__inst_executed.sum/value");
  long long thread_insts = e2e_jint(r, "metrics/smsp__thread_inst_executed.sum/value");
  ck_assert_msg(warp_insts > 0 && thread_insts < 32 * warp_insts,
                "divergent loop: %lld thread-instructions for %lld warp-instructions", thread_insts,
                warp_insts);
}

static uint32_t collatz_steps(uint32_t x)
{
  uint32_t s = 0;
  while (x > 1) {
    x = (x & 1u) ? 3u * x + 1u : x / 2u;
    s++;
  }
  return s;
}

static void check_collatz(const char *src, const char *sched)
{
  const size_t n = 3000;
  uint32_t *in = e2e_alloc(n * 4), *want = e2e_alloc(n * 4);
  for (size_t i = 0; i < n; i++) {
    in[i] = (uint32_t)(i % 2 ? i + 1 : 27 + i * 13); /* 27 takes 111 steps */
    want[i] = collatz_steps(in[i]);
  }
  const char *pin = e2e_write("in.bin", in, n * 4), *pout = e2e_tmp("steps.bin");
  struct e2e_run *r = e2e_emu(src, "--kernel", "collatz", "--grid", "12", "--block", "256",
                              "--sched", sched, A, file_arg("u32", n, pin), A, "u32buf:3000:zero",
                              A, "i32:3000", "--dump", dump_arg(1, pout), "--json", NULL);
  e2e_expect_ok(r);
  expect_u32_exact(e2e_fmt("steps (sched %s)", sched), e2e_read(pout, n * 4), want, n);
}

static void check_budget(const char *src)
{
  struct e2e_run *r = e2e_emu(src, "--kernel", "collatz", "--grid", "12", "--block", "256",
                              "--max-insts", "1000", A, "u32buf:3000:iota", A, "u32buf:3000:zero",
                              A, "i32:3000", "--json", NULL);
  e2e_expect_outcome(r, 1, "budget");
  ck_assert_str_eq(e2e_jstr(r, "fault/kind"), "budget_exceeded");
}

/* ================================================================ */
/* calls                                                             */

static int32_t mix(int32_t a, int32_t b)
{
  int32_t r = a * 3 - b;
  if (r < 0)
    r = -r;
  return r ^ (a >> 2);
}

static void check_call_device(const char *src)
{
  const size_t n = 700;
  int32_t *a = rand_i32_range(n, 101, -1000000, 1000000), *b = rand_i32_range(n, 102, -1000000, 1000000);
  const char *pa = e2e_write("a.bin", a, n * 4), *pb = e2e_write("b.bin", b, n * 4);
  const char *pout = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(src, "--kernel", "call_device", "--grid", "3", "--block", "256",
                              A, file_arg("i32", n, pa), A, file_arg("i32", n, pb),
                              A, "i32buf:700:zero", A, "i32:700", "--dump", dump_arg(2, pout),
                              "--json", NULL);
  e2e_expect_ok(r);
  int32_t *got = e2e_read(pout, n * 4);
  for (size_t i = 0; i < n; i++) {
    int32_t want = mix(a[i], b[i]) + mix(b[i], (int32_t)i);
    ck_assert_msg(got[i] == want, "out[%zu] = %d, expected %d", i, got[i], want);
  }
}

/* ================================================================ */
/* faults                                                            */

/* c holds 100 floats; block 1 runs i = 64..127, so thread 36 (warp 1, lane 4) is the
 * first to store past the end, at byte offset 400 of argument 1. */
static void check_oob(const char *src)
{
  int line = e2e_marker_line(e2e_kernel("oob.cu"), "FAULT-HERE");
  struct e2e_run *r = e2e_emu(src, "--kernel", "oob_write", "--grid", "2", "--block", "64",
                              A, "f32buf:100:rand:1", A, "f32buf:100:zero", A, "i32:100",
                              "--json", NULL);
  e2e_expect_outcome(r, 1, "fault");
  ck_assert_str_eq(e2e_jstr(r, "fault/kind"), "out_of_bounds");
  ck_assert_str_eq(e2e_jstr(r, "fault/space"), "global");
  ck_assert_str_eq(e2e_jstr(r, "fault/access"), "write");
  ck_assert_int_eq(e2e_jint(r, "fault/size"), 4);
  e2e_expect_dim3(r, "fault/block", 1, 0, 0);
  e2e_expect_dim3(r, "fault/thread", 36, 0, 0);
  ck_assert_int_eq(e2e_jint(r, "fault/warp"), 1);
  ck_assert_int_eq(e2e_jint(r, "fault/lane"), 4);
  expect_source(r, "fault/source", "oob.cu", line);
  ck_assert_int_gt(e2e_jint(r, "fault/ptx_line"), 0);
  const char *inst = e2e_jstr(r, "fault/instruction");
  ck_assert_msg(strncmp(inst, "st.global", 9) == 0 || strncmp(inst, "st.", 3) == 0,
                "faulting instruction \"%s\" should be the store", inst);
  expect_alloc_name(r, 1);
  ck_assert_int_eq(e2e_jint(r, "fault/allocation/size"), 400);
  ck_assert_int_eq(e2e_jint(r, "fault/allocation/offset"), 400);
  unsigned long long addr = strtoull(e2e_jstr(r, "fault/address"), NULL, 16);
  unsigned long long base = strtoull(e2e_jstr(r, "fault/allocation/base"), NULL, 16);
  ck_assert_msg(addr == base + 400, "address 0x%llx should be base 0x%llx + 400", addr, base);
}

static void check_misaligned(const char *src)
{
  int line = e2e_marker_line(e2e_kernel("misaligned.cu"), "MISALIGNED-HERE");
  struct e2e_run *r = e2e_emu(src, "--kernel", "misaligned_load", "--grid", "1", "--block", "32",
                              A, "f32buf:256:rand:2", A, "f32buf:32:zero", "--json", NULL);
  e2e_expect_outcome(r, 1, "fault");
  ck_assert_str_eq(e2e_jstr(r, "fault/kind"), "misaligned");
  ck_assert_str_eq(e2e_jstr(r, "fault/space"), "global");
  ck_assert_str_eq(e2e_jstr(r, "fault/access"), "read");
  ck_assert_int_eq(e2e_jint(r, "fault/size"), 16);
  e2e_expect_dim3(r, "fault/thread", 0, 0, 0);
  expect_source(r, "fault/source", "misaligned.cu", line);
  expect_alloc_name(r, 0);
  ck_assert_int_eq(e2e_jint(r, "fault/allocation/offset"), 4);
}

static void check_spin_its(const char *src)
{
  const char *pturn = e2e_tmp("turn.bin"), *porder = e2e_tmp("order.bin");
  struct e2e_run *r = e2e_emu(src, "--kernel", "spin_in_order", "--grid", "1", "--block", "32",
                              "--sched", "its", "--max-insts", "10000000", A, "i32buf:2:zero",
                              A, "i32buf:32:fill=-1", "--dump", dump_arg(0, pturn),
                              "--dump", dump_arg(1, porder), "--json", NULL);
  e2e_expect_ok(r);
  int32_t *turn = e2e_read(pturn, 8), *order = e2e_read(porder, 32 * 4);
  ck_assert_int_eq(turn[0], 32);
  ck_assert_int_eq(turn[1], 32);
  for (int t = 0; t < 32; t++)
    ck_assert_msg(order[t] == t, "lane %d got through %d-th, expected in lane order", t, order[t]);
}

static void check_spin_stack(const char *src)
{
  int line = e2e_marker_line(e2e_kernel("spinlock.cu"), "SPIN-HERE");
  struct e2e_run *r = e2e_emu(src, "--kernel", "spin_in_order", "--grid", "1", "--block", "32",
                              "--sched", "stack", "--max-insts", "10000000", A, "i32buf:2:zero",
                              A, "i32buf:32:fill=-1", "--json", NULL);
  e2e_expect_outcome(r, 1, "deadlock");
  ck_assert_str_eq(e2e_jstr(r, "fault/kind"), "deadlock");
  ck_assert_str_eq(e2e_jstr(r, "launch/sched"), "stack");
  int at = find_waiting(r, line, NULL);
  ck_assert_msg(at >= 0, "%s\nno waiting warp is reported at the spinning line %d:\n%.3000s", r->cmd,
                line, r->out);
  expect_source(r, e2e_fmt("fault/waiting/%d/source", at), "spinlock.cu", line);
}

static void check_barrier_divergence(const char *src)
{
  int line = e2e_marker_line(e2e_kernel("barrier_divergence.cu"), "BARRIER-HERE");
  struct e2e_run *r = e2e_emu(src, "--kernel", "half_barrier", "--grid", "1", "--block", "64",
                              A, "f32buf:64:zero", "--json", NULL);
  e2e_expect_outcome(r, 1, "barrier_divergence");
  ck_assert_str_eq(e2e_jstr(r, "fault/kind"), "barrier_divergence");
  e2e_expect_dim3(r, "fault/block", 0, 0, 0);
  expect_source(r, "fault/source", "barrier_divergence.cu", line);
  int at = find_waiting(r, line, "barrier");
  ck_assert_msg(at >= 0, "%s\nno warp is reported waiting at the barrier on line %d:\n%.3000s",
                r->cmd, line, r->out);
  ck_assert_str_eq(e2e_jstr(r, e2e_fmt("fault/waiting/%d/lanes", at)), "0-15");
}

/* ================================================================ */
/* metrics and launch options                                        */

static void check_metrics_uniform(const char *src)
{
  /* 1024 threads, no lane ever idle: 32 identical warps */
  struct e2e_run *r = e2e_emu(src, "--kernel", "add", "--grid", "4", "--block", "256",
                              A, "f32buf:1024:rand:1", A, "f32buf:1024:rand:2", A, "f32buf:1024:zero",
                              A, "i32:1024", "--json", NULL);
  e2e_expect_ok(r);
  long long w = e2e_jint(r, "metrics/smsp__inst_executed.sum/value");
  long long t = e2e_jint(r, "metrics/smsp__thread_inst_executed.sum/value");
  /* counted on the SASS where nvdisasm is installed (tests/e2e/sass.c), else on the PTX */
  ck_assert_str_eq(e2e_jstr(r, "metrics/smsp__inst_executed.sum/kind"),
                   strcmp(e2e_jstr(r, "sass/counts"), "sass") ? "ptx-level" : "from-sass");
  ck_assert_msg(w > 0 && w % 32 == 0, "32 identical warps executed %lld warp-instructions", w);
  ck_assert_msg(t == 32 * w, "full warps: %lld thread-instructions, expected 32 x %lld", t, w);

  /* 1000 of 1024: the last warp has 24 lanes that skip the body */
  r = e2e_emu(src, "--kernel", "add", "--grid", "4", "--block", "256", A, "f32buf:1000:rand:1",
              A, "f32buf:1000:rand:2", A, "f32buf:1000:zero", A, "i32:1000", "--json", NULL);
  e2e_expect_ok(r);
  long long w2 = e2e_jint(r, "metrics/smsp__inst_executed.sum/value");
  long long t2 = e2e_jint(r, "metrics/smsp__thread_inst_executed.sum/value");
  ck_assert_msg(t2 < 32 * w2, "a partly idle warp: %lld thread-instructions for %lld", t2, w2);
}

static void check_worker_threads(const char *src)
{
  const int nx = 77, ny = 45;
  const size_t n = (size_t)nx * ny;
  const char *p1 = e2e_tmp("c1.bin"), *p2 = e2e_tmp("c2.bin");
  static const char *const threads[] = {"1", "2"};
  const char *paths[] = {p1, p2};
  for (int k = 0; k < 2; k++) {
    struct e2e_run *r = e2e_emu(src, "--kernel", "matrix_add", "--grid", "5,6", "--block", "16,8",
                                "--threads", threads[k], A, e2e_fmt("f32buf:%zu:rand:3", n),
                                A, e2e_fmt("f32buf:%zu:rand:4", n), A, e2e_fmt("f32buf:%zu:zero", n),
                                A, "i32:77", A, "i32:45", "--dump", dump_arg(2, paths[k]), "--json",
                                NULL);
    e2e_expect_ok(r);
    ck_assert_int_eq(e2e_jint(r, "launch/threads"), k + 1);
  }
  expect_f32_exact("c (2 threads vs 1)", e2e_read(p2, n * 4), e2e_read(p1, n * 4), n);
}

/* ================================================================ */
/* instruction families (.cu only)                                   */

#define INT_OPS_N 24

static uint32_t clz32(uint32_t v) { return v ? (uint32_t)__builtin_clz(v) : 32; }
static uint32_t clz64(uint64_t v) { return v ? (uint32_t)__builtin_clzll(v) : 64; }

static uint32_t brev32(uint32_t v)
{
  uint32_t r = 0;
  for (int i = 0; i < 32; i++)
    r |= ((v >> i) & 1u) << (31 - i);
  return r;
}

static uint32_t byte_perm(uint32_t x, uint32_t y, uint32_t s)
{
  uint64_t in = ((uint64_t)y << 32) | x;
  uint32_t r = 0;
  for (int k = 0; k < 4; k++)
    r |= (uint32_t)((in >> (8 * ((s >> (4 * k)) & 7))) & 0xff) << (8 * k);
  return r;
}

static void int_ops_ref(uint32_t x, uint32_t y, uint32_t *o)
{
  int32_t sx = (int32_t)x, sy = (int32_t)y;
  uint64_t wx = ((uint64_t)x << 32) | y, wy = ((uint64_t)y << 17) ^ x;
  o[0] = (uint32_t)(((uint64_t)x * y) >> 32);
  o[1] = (uint32_t)(uint64_t)(((int64_t)sx * sy) >> 32);
  o[2] = x * y;
  o[3] = (uint32_t)__builtin_popcount(x);
  o[4] = clz32(x >> (y & 31));
  o[5] = brev32(x);
  o[6] = byte_perm(x, y, y & 0x7777u);
  o[7] = (x >> (y & 15)) & 0x7fu;
  o[8] = (uint32_t)((int32_t)(x << 5) >> 20);
  o[9] = x / (y | 1u);
  o[10] = x % (y | 1u);
  o[11] = (uint32_t)(sx / (sy | 1));
  o[12] = (uint32_t)(sx % (sy | 1));
  o[13] = (uint32_t)__builtin_ffs(sx);
  o[14] = (uint32_t)((((uint64_t)y << 32) | x) << (y & 31) >> 32);
  o[15] = (uint32_t)(sx > sy ? sx : sy) - (uint32_t)(sx < sy ? sx : sy);
  o[16] = (uint32_t)(sx < 0 ? -sx : sx);
  uint64_t p = wx * wy;
  o[17] = (uint32_t)p;
  o[18] = (uint32_t)(p >> 32);
  uint64_t q = wx / (wy | 1u);
  o[19] = (uint32_t)q ^ (uint32_t)(q >> 32);
  uint64_t rem = wx % (wy | 1u);
  o[20] = (uint32_t)rem ^ (uint32_t)(rem >> 32);
  o[21] = (uint32_t)__builtin_popcountll(wx) + (clz64(wy) << 8);
  uint64_t h = (uint64_t)(((unsigned __int128)wx * wy) >> 64);
  o[22] = (uint32_t)h ^ (uint32_t)(h >> 32);
  int64_t sl = (int64_t)wx >> (y & 63);
  o[23] = (uint32_t)sl ^ (uint32_t)((uint64_t)sl >> 32);
}

static void check_int_ops(const char *src)
{
  const size_t n = 500, m = n * INT_OPS_N;
  uint32_t *a = e2e_rand_u32(n, 111), *b = e2e_rand_u32(n, 112);
  static const uint32_t edge[][2] = {{0, 0}, {1, 0xffffffffu}, {0xffffffffu, 1}, {0x7fffffffu, 0x7fffffffu},
                                     {0x80000001u, 0xffffffffu}, {0x12345678u, 0x00003210u},
                                     {0xdeadbeefu, 0xcafef00du}, {5, 0x80000000u}};
  for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) {
    a[i] = edge[i][0];
    b[i] = edge[i][1];
  }
  for (size_t i = 0; i < n; i++)
    if (a[i] == 0x80000000u) /* keep INT_MIN / -1 out */
      a[i] = 0x80000001u;
  uint32_t *want = e2e_alloc(m * 4);
  for (size_t i = 0; i < n; i++)
    int_ops_ref(a[i], b[i], want + i * INT_OPS_N);
  const char *pa = e2e_write("a.bin", a, n * 4), *pb = e2e_write("b.bin", b, n * 4);
  const char *pout = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(src, "--kernel", "int_ops", "--grid", "2", "--block", "256",
                              A, file_arg("u32", n, pa), A, file_arg("u32", n, pb),
                              A, e2e_fmt("u32buf:%zu:zero", m), A, "i32:500",
                              "--dump", dump_arg(2, pout), "--json", NULL);
  e2e_expect_ok(r);
  uint32_t *got = e2e_read(pout, m * 4);
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < INT_OPS_N; k++)
      ck_assert_msg(got[i * INT_OPS_N + k] == want[i * INT_OPS_N + k],
                    "int_ops result %d for a=0x%08x b=0x%08x: got 0x%08x, expected 0x%08x "
                    "(see the line o[%d] in int_ops.cu)", k, a[i], b[i], got[i * INT_OPS_N + k],
                    want[i * INT_OPS_N + k], k);
}

#define FLT_N 14
#define INT_N 6
#define DBL_N 4
#define HALF_N 2

/* IEEE binary32 -> binary16, round to nearest even, subnormals kept. */
static uint16_t f32_to_f16(float f)
{
  uint32_t x = e2e_f32_bits(f), sign = (x >> 16) & 0x8000u, ax = x & 0x7fffffffu;
  if (ax >= 0x7f800000u)
    return (uint16_t)(sign | (ax > 0x7f800000u ? 0x7e00u : 0x7c00u));
  if (ax >= 0x477ff000u) /* 65520 and up round to infinity */
    return (uint16_t)(sign | 0x7c00u);
  if (ax < 0x38800000u) { /* below 2^-14: a multiple of 2^-24 */
    float a;
    memcpy(&a, &ax, 4);
    return (uint16_t)(sign | (uint32_t)rintf(a * 0x1p24f));
  }
  uint32_t h = ((((ax >> 23) - 127 + 15) << 10) | ((ax & 0x7fffffu) >> 13));
  uint32_t rest = ax & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u)))
    h++;
  return (uint16_t)(sign | h);
}

static float f16_to_f32(uint16_t h)
{
  float mag;
  uint32_t e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e == 0)
    mag = ldexpf((float)m, -24);
  else if (e == 31)
    mag = m ? NAN : INFINITY;
  else
    mag = ldexpf((float)(m | 0x400u), (int)e - 25);
  return (h & 0x8000u) ? -mag : mag;
}

/* min.f32 / max.f32 as PTX defines them: -0 orders below +0 (an H200 gives
 * fminf(+0, -0) = -0, where glibc gives +0); one NaN operand yields the other. */
static float ptx_fminf(float a, float b)
{
  if (a == 0.0f && b == 0.0f)
    return signbit(a) ? a : b;
  return fminf(a, b);
}

static float ptx_fmaxf(float a, float b)
{
  if (a == 0.0f && b == 0.0f)
    return signbit(a) ? b : a;
  return fmaxf(a, b);
}

static int close_rel(double got, double want, double rel)
{
  return fabs(got - want) <= rel * fabs(want);
}

static void check_float_ops(const char *src)
{
  const size_t n = 1000;
  float *x = e2e_rand_f32(n, 121), *y = e2e_rand_f32(n, 122);
  x[0] = 0.0f; y[0] = -0.0f;
  x[1] = 0.5f; y[1] = 0.0015f;   /* x*100 = 50: rint of a .0; y*1000 = 1.5 */
  x[2] = -0.0025f; y[2] = 0.9999f;
  x[3] = 1e-9f; y[3] = -1e-7f;   /* x*1000 is a half subnormal */
  const char *px = e2e_write("x.bin", x, n * 4), *py = e2e_write("y.bin", y, n * 4);
  const char *pf = e2e_tmp("f.bin"), *pi = e2e_tmp("i.bin"), *pd = e2e_tmp("d.bin"), *ph = e2e_tmp("h.bin");
  struct e2e_run *r = e2e_emu(src, "--kernel", "float_ops", "--grid", "4", "--block", "256",
                              A, file_arg("f32", n, px), A, file_arg("f32", n, py),
                              A, e2e_fmt("f32buf:%zu:zero", n * FLT_N), A, e2e_fmt("i32buf:%zu:zero", n * INT_N),
                              A, e2e_fmt("f64buf:%zu:zero", n * DBL_N), A, e2e_fmt("u32buf:%zu:zero", n * HALF_N),
                              A, "i32:1000", "--dump", dump_arg(2, pf), "--dump", dump_arg(3, pi),
                              "--dump", dump_arg(4, pd), "--dump", dump_arg(5, ph), "--json", NULL);
  e2e_expect_ok(r);
  float *of = e2e_read(pf, n * FLT_N * 4);
  int32_t *oi = e2e_read(pi, n * INT_N * 4);
  double *od = e2e_read(pd, n * DBL_N * 8);
  uint32_t *oh = e2e_read(ph, n * HALF_N * 4);
  for (size_t i = 0; i < n; i++) {
    float xi = x[i], yi = y[i];
    const float *f = of + i * FLT_N;
    float xm100 = xi * 100.0f, xm1000 = xi * 1000.0f;
    float ef[FLT_N - 3] = {
      xi + yi, xi * yi, fmaf(xi, yi, 0.25f), xi / yi, sqrtf(fabsf(xi)),
      ptx_fminf(xi, yi) - ptx_fmaxf(xi, yi), copysignf(fabsf(yi), xi), rintf(xm100),
      floorf(xm100) + ceilf(yi * 100.0f), truncf(xm100),
      (float)(xm1000 > 0.0f ? (uint32_t)xm1000 : 7u)};
    /* a NaN's sign and payload are not compared: an H200 returns 0x7fffffff for 0/-0
     * where the host's x86 gives 0xffc00000 */
    for (int k = 0; k < FLT_N - 3; k++)
      ck_assert_msg(e2e_f32_bits(f[k]) == e2e_f32_bits(ef[k]) || (isnan(f[k]) && isnan(ef[k])),
                    "float_ops f[%d] for x=%a y=%a: got %a, expected %a", k, (double)xi, (double)yi,
                    (double)f[k], (double)ef[k]);
    /* .approx: __fdividef and rsqrtf within 2 ulp (checked at 2^-21 relative), __sinf
     * within 2^-21.41 absolute on [-pi, pi] */
    ck_assert_msg(close_rel(f[11], (double)xi / (double)(2.0f + yi), 0x1p-20),
                  "__fdividef(%a, 2+%a) = %a", (double)xi, (double)yi, (double)f[11]);
    ck_assert_msg(close_rel(f[12], 1.0 / sqrt((double)(2.0f + xi)), 0x1p-21),
                  "rsqrtf(2+%a) = %a", (double)xi, (double)f[12]);
    ck_assert_msg(fabs(f[13] - sin((double)xi)) <= 0x1p-21, "__sinf(%a) = %a", (double)xi, (double)f[13]);

    const int32_t *k = oi + i * INT_N;
    float ym1000 = yi * 1000.0f;
    int32_t ei[INT_N] = {(int32_t)xm1000, (int32_t)rintf(xm1000), (int32_t)floorf(ym1000),
                         (int32_t)(e2e_f32_bits(xi) ^ e2e_f32_bits(yi)),
                         (int32_t)(float)((int32_t)i * 12345 - 70000), (int32_t)((double)xi * 1.0e6)};
    for (int j = 0; j < INT_N; j++)
      ck_assert_msg(k[j] == ei[j], "float_ops k[%d] for x=%a y=%a: got %d, expected %d", j,
                    (double)xi, (double)yi, k[j], ei[j]);

    const double *d = od + i * DBL_N;
    double dx = xi, dy = yi;
    double ed[DBL_N] = {fma(dx, dy, 1.0), dx / (dy + 3.0), sqrt(fabs(dx) + 1.0), (double)(float)(dx * 3.0)};
    for (int j = 0; j < DBL_N; j++)
      ck_assert_msg(e2e_f64_bits(d[j]) == e2e_f64_bits(ed[j]),
                    "float_ops d[%d] for x=%a y=%a: got %a, expected %a", j, (double)xi, (double)yi,
                    d[j], ed[j]);

    const uint32_t *h = oh + i * HALF_N;
    uint32_t eh0 = f32_to_f16(xm1000), eh1 = e2e_f32_bits(f16_to_f32(f32_to_f16(yi)));
    ck_assert_msg(h[0] == eh0, "__float2half(%a): bits 0x%04x, expected 0x%04x", (double)xm1000, h[0], eh0);
    ck_assert_msg(h[1] == eh1, "__half2float(__float2half(%a)) = bits 0x%08x, expected 0x%08x",
                  (double)yi, h[1], eh1);
  }
}

#define VOTE_N 8

static void check_warp_vote(const char *src)
{
  const size_t n = 128;
  int32_t *in = rand_i32_range(n, 131, -2000000000, 2000000000);
  for (size_t i = 96; i < 128; i++)
    in[i] = 12345; /* warp 3: every lane equal, so __all_sync and match see a uniform warp */
  in[5] = 1500000000;
  const char *pin = e2e_write("in.bin", in, n * 4), *pout = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(src, "--kernel", "warp_vote", "--grid", "2", "--block", "64",
                              A, file_arg("i32", n, pin), A, e2e_fmt("u32buf:%zu:zero", n * VOTE_N),
                              "--dump", dump_arg(1, pout), "--json", NULL);
  e2e_expect_ok(r);
  uint32_t *got = e2e_read(pout, n * VOTE_N * 4);
  for (size_t w = 0; w < n / 32; w++) {
    const int32_t *v = in + w * 32;
    uint32_t ballot = 0, odd = 0;
    int any = 0, all = 1;
    for (int l = 0; l < 32; l++) {
      ballot |= (uint32_t)(v[l] > 0) << l;
      odd |= (uint32_t)(v[l] & 1) << l;
      any |= v[l] > 1000000000;
      all &= v[l] != 12345;
    }
    for (int l = 0; l < 32; l++) {
      uint32_t match = 0;
      for (int m = 0; m < 32; m++)
        match |= (uint32_t)((v[m] & 3) == (v[l] & 3)) << m;
      uint32_t want[VOTE_N] = {ballot, (uint32_t)any, (uint32_t)all,
                               l % 3 == 0 ? 0x49249249u : 0u, match, 0xffffffffu, 1u,
                               (uint32_t)__builtin_popcount(odd)};
      const uint32_t *o = got + (w * 32 + (size_t)l) * VOTE_N;
      for (int k = 0; k < VOTE_N; k++)
        ck_assert_msg(o[k] == want[k], "warp_vote o[%d] at warp %zu lane %d: got 0x%08x, expected 0x%08x",
                      k, w, l, o[k], want[k]);
    }
  }

  uint32_t *u = e2e_rand_u32(n, 132);
  const char *pu = e2e_write("u.bin", u, n * 4);
  r = e2e_emu(src, "--kernel", "warp_redux", "--grid", "2", "--block", "64", A, file_arg("u32", n, pu),
              A, e2e_fmt("u32buf:%zu:zero", n * 6), "--dump", dump_arg(1, pout), "--json", NULL);
  e2e_expect_ok(r);
  got = e2e_read(pout, n * 6 * 4);
  for (size_t w = 0; w < n / 32; w++) {
    uint32_t want[6] = {0, 0xffffffffu, 0, 0xffffffffu, 0, 0};
    for (int l = 0; l < 32; l++) {
      uint32_t v = u[w * 32 + (size_t)l];
      want[0] += v;
      want[1] = v < want[1] ? v : want[1];
      want[2] = v > want[2] ? v : want[2];
      want[3] &= v | 0x80000001u;
      want[4] |= v & 0x0f0f0f0fu;
      want[5] ^= v;
    }
    for (int l = 0; l < 32; l++)
      expect_u32_exact(e2e_fmt("warp_redux (warp %zu lane %d)", w, l), got + (w * 32 + (size_t)l) * 6,
                       want, 6);
  }
}

#define SHFL_N 10

static void check_warp_shuffle(const char *src)
{
  const size_t n = 128;
  int32_t *in = rand_i32_range(n, 141, -100000, 100000);
  const char *pin = e2e_write("in.bin", in, n * 4), *pout = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(src, "--kernel", "shuffles", "--grid", "2", "--block", "64",
                              A, file_arg("i32", n, pin), A, e2e_fmt("i32buf:%zu:zero", n * SHFL_N),
                              "--dump", dump_arg(1, pout), "--json", NULL);
  e2e_expect_ok(r);
  int32_t *got = e2e_read(pout, n * SHFL_N * 4);
  for (size_t w = 0; w < n / 32; w++) {
    const int32_t *v = in + w * 32;
    for (int l = 0; l < 32; l++) {
      float fv = (float)v[31 - l] * 0.5f;
      double dv = (double)v[l + 1 < 32 ? l + 1 : l] * 0.25;
      int32_t want[SHFL_N] = {
        v[l ^ 1], v[l ^ 21], v[(l * 7) % 32], v[l >= 3 ? l - 3 : l], v[l + 4 < 32 ? l + 4 : l],
        v[(l & ~7) + 2], v[l % 8 >= 2 ? l - 2 : l], v[l % 16 + 5 < 16 ? l + 5 : l], v[l ^ 3],
        (int32_t)fv + (int32_t)dv};
      const int32_t *o = got + (w * 32 + (size_t)l) * SHFL_N;
      for (int k = 0; k < SHFL_N; k++)
        ck_assert_msg(o[k] == want[k], "shuffles o[%d] at warp %zu lane %d: got %d, expected %d", k, w,
                      l, o[k], want[k]);
    }
  }
}

static void check_local_array(const char *src)
{
  const size_t n = 500;
  float *in = e2e_rand_f32(n, 151);
  int32_t *idx = (int32_t *)e2e_rand_u32(n, 152);
  const char *pidx = e2e_write("idx.bin", idx, n * 4), *pin = e2e_write("in.bin", in, n * 4);
  const char *pout = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(src, "--kernel", "local_mem", "--grid", "2", "--block", "256",
                              A, file_arg("i32", n, pidx), A, file_arg("f32", n, pin),
                              A, "f32buf:500:zero", A, "i32:500", "--dump", dump_arg(2, pout), "--json",
                              NULL);
  e2e_expect_ok(r);
  float *want = e2e_alloc(n * 4);
  for (size_t i = 0; i < n; i++) {
    float arr[16];
    for (int k = 0; k < 16; k++)
      arr[k] = in[(i + (size_t)k) % n] * (float)k;
    int32_t j = idx[i];
    want[i] = arr[j & 15] + arr[(j >> 4) & 15];
  }
  expect_f32_exact("out", e2e_read(pout, n * 4), want, n);
  /* the PTX declares a 64-byte __local_depot; ptxas may still keep it in registers (an
   * H200 reported 0 local bytes), so this is a PTX-level figure */
  ck_assert_int_ge(e2e_jint(r, "resources/local_bytes_per_thread"), 64);
}

static void check_const_mem(const char *src)
{
  static const float coeffs[5] = {1.0f, -2.0f, 0.5f, 0.25f, 3.0f};
  static const int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
  const size_t n = 1000;
  float *x = e2e_rand_f32(n, 161), *want = e2e_alloc(n * 4);
  for (size_t i = 0; i < n; i++) {
    float p = coeffs[4];
    for (int k = 3; k >= 0; k--)
      p = fmaf(p, x[i], coeffs[k]);
    want[i] = p + (float)table[i % 8];
  }
  const char *px = e2e_write("x.bin", x, n * 4), *pout = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(src, "--kernel", "poly_const", "--grid", "4", "--block", "256",
                              A, file_arg("f32", n, px), A, "f32buf:1000:zero", A, "i32:1000",
                              "--dump", dump_arg(1, pout), "--json", NULL);
  e2e_expect_ok(r);
  expect_f32_exact("out", e2e_read(pout, n * 4), want, n);
}

static void check_vector_load(const char *src)
{
  const size_t n4 = 250, n = 4 * n4;
  float *in = e2e_rand_f32(n, 171), *want = e2e_alloc(n * 4);
  for (size_t i = 0; i < n; i++)
    want[i] = in[i] * -0.75f;
  const char *pin = e2e_write("in.bin", in, n * 4), *pout = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(src, "--kernel", "vec4_scale", "--grid", "1", "--block", "256",
                              A, file_arg("f32", n, pin), A, "f32buf:1000:zero", A, "i32:250",
                              A, "f32:-0.75", "--dump", dump_arg(1, pout), "--json", NULL);
  e2e_expect_ok(r);
  expect_f32_exact("vec4 out", e2e_read(pout, n * 4), want, n);

  const size_t n2 = 301, m = 2 * n2;
  for (size_t i = 0; i < m; i++)
    want[i] = in[i ^ 1];
  r = e2e_emu(src, "--kernel", "vec2_swap", "--grid", "2", "--block", "256",
              A, file_arg("f32", m, e2e_write("in2.bin", in, m * 4)), A, "f32buf:602:zero",
              A, "i32:301", "--dump", dump_arg(1, pout), "--json", NULL);
  e2e_expect_ok(r);
  expect_f32_exact("vec2 out", e2e_read(pout, m * 4), want, m);
}

/* ================================================================ */
/* usage errors                                                      */

static void check_wrong_arg_count(const char *src)
{
  struct e2e_run *r = e2e_emu(src, "--kernel", "add", "--grid", "1", "--block", "32",
                              A, "f32buf:32:zero", A, "f32buf:32:zero", A, "f32buf:32:zero", NULL);
  e2e_expect_error(r, 2, "add", "4", NULL);
}

static void check_unknown_kernel(const char *src)
{
  struct e2e_run *r = e2e_emu(src, "--kernel", "vector_add", "--grid", "1", "--block", "32",
                              A, "f32buf:32:zero", A, "f32buf:32:zero", A, "f32buf:32:zero",
                              A, "i32:32", NULL);
  e2e_expect_error(r, 2, "vector_add", "saxpy", NULL);
  ck_assert_msg(strstr(r->err, "add") != NULL && strstr(strstr(r->err, "add") + 3, "add") != NULL,
                "stderr should list the available kernel \"add\":\n%s", r->err);
}

START_TEST(usage_missing_file)
{
  const char *missing = e2e_tmp("no_such_kernel.cu");
  struct e2e_run *r = e2e_emu(missing, "--kernel", "k", "--grid", "1", "--block", "1", NULL);
  e2e_expect_error(r, 2, "no_such_kernel.cu", NULL);
}
END_TEST

START_TEST(usage_malformed_ptx)
{
  char *text = e2e_read_text(e2e_ptx("elementwise.ptx"));
  /* replace the first add.f32 line with an opcode that does not exist */
  char *at = strstr(text, "add.f32");
  ck_assert_ptr_nonnull(at);
  int line = 1;
  for (const char *p = text; p < at; p++)
    line += *p == '\n';
  char *bol = at;
  while (bol > text && bol[-1] != '\n')
    bol--;
  char *eol = strchr(at, '\n');
  ck_assert_ptr_nonnull(eol);
  const char *bad = e2e_fmt("%.*s\tfrobnicate.f32 \t%%f3, %%f2, %%f1;%s", (int)(bol - text), text, eol);
  const char *path = e2e_write("bad.ptx", bad, strlen(bad));
  struct e2e_run *r = e2e_emu(path, "--kernel", "add", "--grid", "1", "--block", "32",
                              A, "f32buf:32:zero", A, "f32buf:32:zero", A, "f32buf:32:zero",
                              A, "i32:32", NULL);
  e2e_expect_error(r, 2, NULL);
  ck_assert_msg(e2e_mentions_line(r->err, "bad.ptx", line),
                "stderr should point at bad.ptx line %d:\n%s", line, r->err);
}
END_TEST

START_TEST(usage_bad_launch)
{
  const char *src = e2e_ptx("elementwise.ptx");
  static const char *const bad[][2] = {{"0", "32"}, {"abc", "32"}, {"1", "2048"}, {"1,0", "32"},
                                       {"1", "-4"}};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    struct e2e_run *r = e2e_emu(src, "--kernel", "add", "--grid", bad[k][0], "--block", bad[k][1],
                                A, "f32buf:32:zero", A, "f32buf:32:zero", A, "f32buf:32:zero",
                                A, "i32:32", NULL);
    e2e_expect_error(r, 2, NULL);
  }
}
END_TEST

START_TEST(usage_bad_args)
{
  const char *src = e2e_ptx("elementwise.ptx");
  float nine[9] = {0};
  const char *short_file = e2e_write("nine.bin", nine, sizeof nine);
  const char *bad[] = {"f12buf:32:zero", "f32buf:32:bogus", "f32buf:x:zero",
                       e2e_fmt("f32buf:10:file=%s", short_file), e2e_fmt("f32buf:10:file=%s", e2e_tmp("absent.bin"))};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    struct e2e_run *r = e2e_emu(src, "--kernel", "add", "--grid", "1", "--block", "32",
                                A, bad[k], A, "f32buf:32:zero", A, "f32buf:32:zero", A, "i32:32", NULL);
    e2e_expect_error(r, 2, NULL);
  }
  /* a buffer where the kernel takes a scalar, and the reverse */
  struct e2e_run *r = e2e_emu(src, "--kernel", "add", "--grid", "1", "--block", "32", A, "f32buf:32:zero",
                              A, "f32buf:32:zero", A, "f32buf:32:zero", A, "f32buf:32:zero", NULL);
  e2e_expect_error(r, 2, NULL);
  r = e2e_emu(src, "--kernel", "add", "--grid", "1", "--block", "32", A, "i32:3", A, "f32buf:32:zero",
              A, "f32buf:32:zero", A, "i32:32", NULL);
  e2e_expect_error(r, 2, NULL);
}
END_TEST

START_TEST(cu_syntax_error)
{
  const char *bad = "extern \"C\" __global__ void k(int *p)\n"
                    "{\n"
                    "    p[0] = undefined_name;\n"
                    "}\n";
  const char *path = e2e_write("broken.cu", bad, strlen(bad));
  struct e2e_run *r = e2e_emu(path, "--kernel", "k", "--grid", "1", "--block", "1", A, "i32buf:1:zero",
                              NULL);
  e2e_expect_error(r, 3, NULL);
  ck_assert_msg(e2e_mentions_line(r->err, "broken.cu", 3), "stderr should carry nvcc's broken.cu:3:\n%s",
                r->err);
}
END_TEST

/* ================================================================ */
/* registration                                                      */

#define CU(name, file, fn) \
  START_TEST(cu_##name) { fn(e2e_kernel(file ".cu")); } END_TEST
#define PTX(name, file, fn) \
  START_TEST(ptx_##name) { fn(e2e_ptx(file ".ptx")); } END_TEST
#define BOTH(name, file, fn) CU(name, file, fn) PTX(name, file, fn)

static void check_loop_its(const char *src) { check_loop_mod7(src, "its"); }
static void check_loop_stack(const char *src) { check_loop_mod7(src, "stack"); }
static void check_collatz_its(const char *src) { check_collatz(src, "its"); }
static void check_collatz_stack(const char *src) { check_collatz(src, "stack"); }

BOTH(add, "elementwise", check_add)
BOTH(saxpy, "elementwise", check_saxpy)
BOTH(generators, "buffers", check_generators)
BOTH(matrix_add, "matrix_add", check_matrix_add)
BOTH(reduce_shared, "reduce", check_reduce_shared)
BOTH(call_device, "device_func", check_call_device)
BOTH(oob, "oob", check_oob)
BOTH(spin_its, "spinlock", check_spin_its)
BOTH(spin_stack, "spinlock", check_spin_stack)
BOTH(barrier_divergence, "barrier_divergence", check_barrier_divergence)
BOTH(collatz_its, "divergent", check_collatz_its)
BOTH(collatz_stack, "divergent", check_collatz_stack)
BOTH(metrics_uniform, "elementwise", check_metrics_uniform)
BOTH(wrong_arg_count, "elementwise", check_wrong_arg_count)
BOTH(unknown_kernel, "elementwise", check_unknown_kernel)
CU(reduce_warp, "reduce", check_reduce_warp)
CU(transpose, "transpose", check_transpose)
CU(dyn_smem, "dyn_smem", check_dyn_smem)
CU(dyn_smem_overflow, "dyn_smem", check_dyn_smem_overflow)
CU(histograms, "atomics", check_histograms)
CU(max_cas, "atomics", check_max_cas)
CU(atomic_misc, "atomics", check_atomic_misc)
CU(loop_its, "divergent", check_loop_its)
CU(loop_stack, "divergent", check_loop_stack)
CU(budget, "divergent", check_budget)
CU(misaligned, "misaligned", check_misaligned)
CU(worker_threads, "matrix_add", check_worker_threads)
CU(int_ops, "int_ops", check_int_ops)
CU(float_ops, "float_ops", check_float_ops)
CU(warp_vote, "warp_vote", check_warp_vote)
CU(warp_shuffle, "warp_shuffle", check_warp_shuffle)
CU(local_array, "local_array", check_local_array)
CU(const_mem, "const_mem", check_const_mem)
CU(vector_load, "vector_load", check_vector_load)

static TCase *new_tcase(const char *name)
{
  TCase *tc = tcase_create(name);
  tcase_add_checked_fixture(tc, e2e_setup, e2e_teardown);
  tcase_set_timeout(tc, TEST_TIMEOUT_S);
  return tc;
}

static void add_tests(TCase *tc, const TTest *const *tests, size_t n)
{
  for (size_t i = 0; i < n; i++)
    tcase_add_test(tc, tests[i]);
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static Suite *suite_e2e(int have_nvcc, size_t *skipped)
{
  const TTest *ptx_tests[] = {
    ptx_add, ptx_saxpy, ptx_generators, ptx_matrix_add, ptx_reduce_shared, ptx_call_device,
    ptx_oob, ptx_spin_its, ptx_spin_stack, ptx_barrier_divergence, ptx_collatz_its,
    ptx_collatz_stack, ptx_metrics_uniform};
  const TTest *usage_tests[] = {
    ptx_wrong_arg_count, ptx_unknown_kernel, usage_missing_file, usage_malformed_ptx,
    usage_bad_launch, usage_bad_args};
  const TTest *cu_tests[] = {
    cu_add, cu_saxpy, cu_generators, cu_matrix_add, cu_worker_threads, cu_transpose,
    cu_reduce_shared, cu_reduce_warp, cu_histograms, cu_max_cas, cu_atomic_misc, cu_loop_its,
    cu_loop_stack, cu_collatz_its, cu_collatz_stack, cu_budget, cu_call_device, cu_spin_its,
    cu_spin_stack, cu_barrier_divergence, cu_oob, cu_misaligned, cu_dyn_smem,
    cu_dyn_smem_overflow, cu_int_ops, cu_float_ops, cu_warp_vote, cu_warp_shuffle,
    cu_local_array, cu_const_mem, cu_vector_load, cu_metrics_uniform, cu_wrong_arg_count,
    cu_unknown_kernel, cu_syntax_error};

  Suite *s = suite_create("e2e");
  TCase *ptx = new_tcase("ptx");
  add_tests(ptx, ptx_tests, COUNT(ptx_tests));
  suite_add_tcase(s, ptx);
  TCase *usage = new_tcase("usage");
  add_tests(usage, usage_tests, COUNT(usage_tests));
  suite_add_tcase(s, usage);
  *skipped = have_nvcc ? 0 : COUNT(cu_tests);
  if (have_nvcc) {
    TCase *cu = new_tcase("cu");
    add_tests(cu, cu_tests, COUNT(cu_tests));
    suite_add_tcase(s, cu);
  }
  return s;
}

int main(void)
{
  if (e2e_init() != 0)
    return EXIT_FAILURE;
  int have_nvcc = e2e_have_nvcc();
  size_t skipped;
  Suite *s = suite_e2e(have_nvcc, &skipped);
  e2e_add_metrics_tests(s);
  e2e_add_sass_tests(s);
  e2e_add_lab_tests(s);
  e2e_add_lab02_tests(s);
  e2e_add_lab03_tests(s);
  e2e_add_lab04_tests(s);
  e2e_add_lab07_tests(s);
  e2e_add_lab05_tests(s);
  e2e_add_lab06_tests(s);
  e2e_add_lanes_tests(s);
  e2e_add_timing_tests(s);
  e2e_add_batch_tests(s);
  e2e_add_adversarial_tests(s);
  e2e_add_isolation_tests(s);
  e2e_add_racecheck_tests(s);
  e2e_add_order_tests(s);
  e2e_add_handout_tests(s);
  e2e_add_builtin_tests(s);
  e2e_add_constbank_tests(s);
  e2e_add_limits_tests(s);
  e2e_add_ptxops_tests(s);
  e2e_add_texture_tests(s);
  e2e_add_async_tests(s);
  e2e_add_coop_tests(s);
  e2e_add_mma_tests(s);
  e2e_add_calls_tests(s);
  e2e_add_recursion_tests(s);
  e2e_add_grade_tests(s);
  e2e_add_gpuhang_tests(s);
  e2e_add_release_tests(s);
  e2e_add_cli_tests(s);
  const char *bin = getenv("WARPLAB");
  printf("e2e: testing %s\n", bin && *bin ? bin : "bin/warplab");
  if (skipped)
    printf("e2e: nvcc not found (PATH, $CUDA_HOME/bin, /usr/local/cuda/bin): SKIPPING the %zu "
           "tests of the .cu test case; the committed .ptx tests still run. Install the CUDA "
           "Toolkit, or use docker/, to run them.\n", skipped);
  fflush(stdout);
  SRunner *sr = srunner_create(s);
  /* fork mode (Check's default; CK_FORK=no turns it off for a debugger): a crash or an
   * abort in one test fails that test only */
  srunner_run_all(sr, CK_ENV); /* CK_VERBOSITY=verbose lists every test */
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  e2e_fini();
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
