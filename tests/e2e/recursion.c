/* recursion.c: end-to-end tests of recursive device functions (tests/e2e/kernels/recursion.cu):
 * each activation has its own registers, parameters and local arrays; lanes of one warp
 * recurse to depths and along paths that depend on their data, under both scheduling models;
 * mutual recursion and recursion through a function pointer; a recursion deeper than the
 * thread's call stack (cudaLimitStackSize, `--stack`) is a fault at the call's line.
 *
 * Expected values are the same functions computed on the host (unsigned arithmetic, mod
 * 2^32). Comparisons are exact.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "e2e.h"

#define A "--arg"

static uint32_t fact(uint32_t n) { return n <= 1 ? 1u : n * fact(n - 1); }
static uint32_t fib(uint32_t n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static uint32_t walk(uint32_t n, uint32_t *parent)
{
  uint32_t a[6], s = 0;
  for (uint32_t k = 0; k < 6; k++)
    a[k] = n * 7 + k;
  if (parent)
    parent[n % 6] += 100 * n + 1;
  if (n > 0)
    s = walk(n - 1, a);
  for (int k = 0; k < 6; k++)
    s = s * 3 + a[k];
  return s;
}

static uint32_t pong(uint32_t n);
static uint32_t ping(uint32_t n) { return n == 0 ? 1u : 2u * pong(n - 1) + n; }
static uint32_t pong(uint32_t n) { return n == 0 ? 3u : ping(n - 1) * 5u - n; }
static uint32_t tri(uint32_t n) { return n == 0 ? 0u : n + tri(n - 1); }
static uint32_t sq(uint32_t n) { return n == 0 ? 1u : n * n + 2u * sq(n - 1); }
static uint32_t tree(uint32_t x, uint32_t d)
{
  if (d == 0)
    return x & 0xff;
  uint32_t s;
  if (x & 1) {
    s = tree(x * 3 + 1, d - 1) + 1;
    if (s & 2)
      s ^= tree(x >> 3, d > 3 ? 3 : d - 1);
  } else if (x & 2) {
    s = tree(x >> 1, d - 1) * 5;
  } else {
    s = x % 7 == 0 ? 11 : tree(x / 4 + d, d - 1) - 3;
  }
  return s;
}

static uint32_t deep(uint32_t n) { return n == 0 ? 7u : deep(n - 1) * 3 + n; }
static uint32_t heavy(uint32_t n, uint32_t a, uint32_t b)
{
  if (n == 0)
    return a ^ b;
  uint32_t x = a * 3 + n, y = b * 5 + n, z = a ^ (b >> 3), w = a + b * 7, v = (a << 2) - b;
  uint32_t r = heavy(n - 1, x + y, z - w + v);
  return r * x + (r ^ y) + z * r + (w >> (r & 7)) + v;
}

/* Run kernel k of recursion.cu on n random inputs (seed) with out of nout words, extra
   options before the arguments; returns the run, *out the dumped output. */
static struct e2e_run *run_rec(const char *k, unsigned n, unsigned nout, uint64_t seed,
                               const char *opt, const char *optv, const char *stack,
                               uint32_t **out)
{
  const char *pout = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(e2e_kernel("recursion.cu"), "--kernel", k, "--grid", "3", "--block",
                              "64", opt ? opt : "--json", opt ? optv : "--json", "--stack",
                              stack ? stack : "1024",
                              A, e2e_fmt("u32buf:%u:rand:%llu", n, (unsigned long long)seed),
                              A, e2e_fmt("u32buf:%u:zero", nout), A, e2e_fmt("i32:%u", n),
                              "--dump", e2e_fmt("1=%s", pout), "--json", NULL);
  *out = r->status == 0 ? e2e_read(pout, nout * 4) : NULL;
  return r;
}

/* fib's two calls and fact, to depths 0..17 that differ lane by lane, in both models. */
START_TEST(fact_fib_lane_depths)
{
  const unsigned n = 150;
  const char *sched[] = {"its", "stack"};
  for (unsigned s = 0; s < 2; s++) {
    uint32_t *in = e2e_rand_u32(n, 91), *got;
    struct e2e_run *r = run_rec("fact_fib", n, 2 * n, 91, "--sched", sched[s], NULL, &got);
    e2e_expect_ok(r);
    for (unsigned i = 0; i < n; i++) {
      ck_assert_msg(got[2 * i] == fact(in[i] % 13), "%s thread %u: fact(%u) = %u, expected %u",
                    sched[s], i, in[i] % 13, got[2 * i], fact(in[i] % 13));
      ck_assert_msg(got[2 * i + 1] == fib(in[i] % 18), "%s thread %u: fib(%u) = %u, expected %u",
                    sched[s], i, in[i] % 18, got[2 * i + 1], fib(in[i] % 18));
    }
  }
}
END_TEST

/* Lanes split at every level of a walk their data steers, in both models. ptxas gives tree a
   32-byte frame: 50 activations pass CUDA's 1 KiB stack, on the GPU as on the emulator, so
   the walk runs with 4 KiB (as tests/gpu/prove.sh's rec_tree_walk). */
START_TEST(divergent_tree_walk)
{
  const unsigned n = 150;
  const char *sched[] = {"its", "stack"};
  for (unsigned s = 0; s < 2; s++) {
    uint32_t *in = e2e_rand_u32(n, 95), *got;
    struct e2e_run *r = run_rec("tree_walk", n, n, 95, "--sched", sched[s], "4096", &got);
    e2e_expect_ok(r);
    for (unsigned i = 0; i < n; i++)
      ck_assert_msg(got[i] == tree(in[i], in[i] % 50), "%s thread %u: tree(%u) = %u, expected %u",
                    sched[s], i, in[i], got[i], tree(in[i], in[i] % 50));
  }
}
END_TEST

/* Each activation's local array is its own: the callee changes its caller's through a
   pointer, then the caller sums its own. */
START_TEST(local_arrays_per_activation)
{
  const unsigned n = 150;
  uint32_t *in = e2e_rand_u32(n, 92), *got;
  struct e2e_run *r = run_rec("local_frames", n, n, 92, NULL, NULL, NULL, &got);
  e2e_expect_ok(r);
  for (unsigned i = 0; i < n; i++)
    ck_assert_msg(got[i] == walk(in[i] % 11, NULL), "thread %u: walk(%u) = %u, expected %u", i,
                  in[i] % 11, got[i], walk(in[i] % 11, NULL));
}
END_TEST

/* ping calls pong calls ping, up to 24 deep. */
START_TEST(mutual_recursion)
{
  const unsigned n = 150;
  uint32_t *in = e2e_rand_u32(n, 93), *got;
  struct e2e_run *r = run_rec("mutual", n, n, 93, NULL, NULL, NULL, &got);
  e2e_expect_ok(r);
  for (unsigned i = 0; i < n; i++)
    ck_assert_msg(got[i] == ping(in[i] % 25), "thread %u: ping(%u) = %u, expected %u", i,
                  in[i] % 25, got[i], ping(in[i] % 25));
}
END_TEST

/* tri or sq (by the input's parity) calls itself through the pointer it is passed. */
START_TEST(recursion_through_a_pointer)
{
  const unsigned n = 150;
  uint32_t *in = e2e_rand_u32(n, 94), *got;
  struct e2e_run *r = run_rec("pointer_recursion", n, n, 94, NULL, NULL, NULL, &got);
  e2e_expect_ok(r);
  for (unsigned i = 0; i < n; i++) {
    uint32_t want = (in[i] & 1) ? sq(in[i] % 20) : tri(in[i] % 20);
    ck_assert_msg(got[i] == want, "thread %u: %u, expected %u", i, got[i], want);
  }
}
END_TEST

/* deep(n) takes n + 1 activations of 16 bytes: 64 fill CUDA's 1 KiB stack, 65 overflow it
   (a fault at the recursive call's line, naming the stack) unless --stack gives room. */
START_TEST(stack_overflow_is_a_fault)
{
  const char *k = e2e_kernel("recursion.cu");
  const char *pout = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(k, "--kernel", "deep_recursion", "--grid", "1", "--block", "32", A,
                              "u32buf:32:fill=63", A, "u32buf:32:zero", A, "i32:32", "--dump",
                              e2e_fmt("1=%s", pout), "--json", NULL);
  e2e_expect_ok(r);
  uint32_t *got = e2e_read(pout, 32 * 4);
  ck_assert_uint_eq(got[31], deep(63));
  r = e2e_emu(k, "--kernel", "deep_recursion", "--grid", "1", "--block", "32", A,
              "u32buf:32:fill=64", A, "u32buf:32:zero", A, "i32:32", "--json", NULL);
  e2e_expect_outcome(r, 1, "fault");
  ck_assert_str_eq(e2e_jstr(r, "fault/kind"), "call_depth");
  ck_assert_int_eq(e2e_jint(r, "fault/source/line"), e2e_marker_line(k, "DEEP-CALL"));
  const char *msg = e2e_jstr(r, "fault/message");
  ck_assert_msg(strstr(msg, "stack overflow") && strstr(msg, "1024 bytes") &&
                strstr(msg, "65 calls deep"), "%s", msg);
  r = e2e_emu(k, "--kernel", "deep_recursion", "--grid", "1", "--block", "32", "--stack", "2048",
              A, "u32buf:32:fill=64", A, "u32buf:32:zero", A, "i32:32", "--dump",
              e2e_fmt("1=%s", pout), "--json", NULL);
  e2e_expect_ok(r);
  got = e2e_read(pout, 32 * 4);
  ck_assert_uint_eq(got[0], deep(64));
}
END_TEST

/* heavy keeps five values live across its call, which ptxas spills to a frame bigger than
   the emulator's estimate of 16 bytes (32 on sm_90 with nvcc 13): each activation is
   charged ptxas's frame, as the GPU charges it, so heavy(40)'s 41 activations, which fit the
   1 KiB stack at the estimate's 16 bytes each, overflow it, at the call 1024 / frame + 1
   deep; the fault names ptxas's figure. With --stack 2048 they fit. */
START_TEST(stack_overflow_takes_ptxas_frame)
{
  const char *k = e2e_kernel("recursion.cu");
  const char *pout = e2e_tmp("out.bin");
  const unsigned depth = 40;
  ck_assert_uint_le((depth + 1) * 16, 1024);     /* fits with the estimate */
  struct e2e_run *r = e2e_emu(k, "--kernel", "heavy_recursion", "--grid", "1", "--block", "32",
                              A, e2e_fmt("u32buf:32:fill=%u", depth), A, "u32buf:32:zero", A,
                              "i32:32", "--json", NULL);
  e2e_expect_outcome(r, 1, "fault");
  ck_assert_str_eq(e2e_jstr(r, "fault/kind"), "call_depth");
  ck_assert_int_eq(e2e_jint(r, "fault/source/line"), e2e_marker_line(k, "HEAVY-CALL"));
  const char *msg = e2e_jstr(r, "fault/message");
  const char *at = strstr(msg, "(ptxas: ");
  unsigned frame = 0;
  ck_assert_msg(at && sscanf(at, "(ptxas: %u-byte frame)", &frame) == 1, "%s", msg);
  ck_assert_msg(frame > 16 && (depth + 1) * frame > 1024, "frame %u: %s", frame, msg);
  ck_assert_msg(strstr(msg, "1024 bytes") &&
                strstr(msg, e2e_fmt("%u calls deep", 1024 / frame + 1)) &&
                strstr(msg, e2e_fmt("takes %u bytes", frame)), "%s", msg);
  r = e2e_emu(k, "--kernel", "heavy_recursion", "--grid", "1", "--block", "32", "--stack",
              "2048", A, e2e_fmt("u32buf:32:fill=%u", depth), A, "u32buf:32:zero", A, "i32:32",
              "--dump", e2e_fmt("1=%s", pout), "--json", NULL);
  e2e_expect_ok(r);
  uint32_t *got = e2e_read(pout, 32 * 4);
  for (uint32_t i = 0; i < 32; i++)
    ck_assert_msg(got[i] == heavy(depth, depth * 11 + 1, i), "thread %u: %u, expected %u", i,
                  got[i], heavy(depth, depth * 11 + 1, i));
}
END_TEST

/* A recursion that would go on for billions of calls ends in the stack-overflow fault, with
   CUDA's stack and with a larger one. */
/* `warplab run` charges ptxas's frames too, as `warplab emu` does: lab 01's matrix_add with
   heavy(40) in every thread (41 activations: 656 bytes at the estimate's 16 each, which fit
   CUDA's 1 KiB stack; 1312 at ptxas's 32, which do not) faults on the first test, and the
   fault names ptxas's figure. Charged the estimate, the run passed every test. */
START_TEST(lab_run_takes_ptxas_frame)
{
  static const char text[] =
    "__constant__ int BLOCK_X = 32;\n"
    "__constant__ int BLOCK_Y = 8;\n"
    "__device__ __noinline__ unsigned heavy(unsigned n, unsigned a, unsigned b)\n"
    "{\n"
    "  if (n == 0)\n"
    "    return a ^ b;\n"
    "  unsigned x = a * 3 + n, y = b * 5 + n, z = a ^ (b >> 3), w = a + b * 7, v = (a << 2) - b;\n"
    "  unsigned r = heavy(n - 1, x + y, z - w + v);\n"
    "  return r * x + (r ^ y) + z * r + (w >> (r & 7)) + v;\n"
    "}\n"
    "extern \"C\" __global__ void matrix_add(const float *a, const float *b, float *c, int nx, int ny)\n"
    "{\n"
    "  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;\n"
    "  if (x < nx && y < ny) {\n"
    "    int i = y * nx + x;\n"
    "    unsigned h = heavy(40, (unsigned)i, 7u);\n"
    "    c[i] = a[i] + b[i] + (h == 0x9e3779b9u ? 1.0f : 0.0f);\n"
    "  }\n"
    "}\n";
  const char *file = e2e_write("matrix_add.cu", text, strlen(text));
  struct e2e_run *r = e2e_warplab("run", "01", "--kernel-file", file, "--backend", "emu", "--json",
                                  "--results", e2e_tmp("results"), "--quick", (char *)NULL);
  ck_assert_msg(r->json, "%s exited %d\n%.2000s", r->cmd, r->status, r->err);
  json_t *t = json_array_get(e2e_j(r->json, "tests"), 0);
  ck_assert_ptr_nonnull(t);
  const char *state = json_string_value(json_object_get(t, "state"));
  const char *detail = json_string_value(json_object_get(t, "detail"));
  ck_assert_msg(state && !strcmp(state, "fault"), "first test: %s: %s", state, detail);
  ck_assert_msg(detail && strstr(detail, "stack overflow") && strstr(detail, "(ptxas: ") &&
                strstr(detail, "1024 bytes"), "%s", detail);
  unsigned frame = 0;
  ck_assert_msg(sscanf(strstr(detail, "(ptxas: "), "(ptxas: %u-byte frame)", &frame) == 1 &&
                frame > 16 && 41 * frame > 1024, "%s", detail);
}
END_TEST

START_TEST(runaway_recursion_is_a_fault)
{
  const char *k = e2e_kernel("recursion.cu");
  struct e2e_run *r = e2e_emu(k, "--kernel", "deep_recursion", "--grid", "2", "--block", "64",
                              A, "u32buf:128:fill=4000000000", A, "u32buf:128:zero", A,
                              "i32:128", "--json", NULL);
  e2e_expect_outcome(r, 1, "fault");
  ck_assert_str_eq(e2e_jstr(r, "fault/kind"), "call_depth");
  ck_assert_int_eq(e2e_jint(r, "fault/source/line"), e2e_marker_line(k, "DEEP-CALL"));
  const char *msg = e2e_jstr(r, "fault/message");
  ck_assert_msg(strstr(msg, "stack overflow") && strstr(msg, "65 calls deep"), "%s", msg);
  r = e2e_emu(k, "--kernel", "deep_recursion", "--grid", "2", "--block", "64", "--stack", "16384",
              A, "u32buf:128:fill=4000000000", A, "u32buf:128:zero", A, "i32:128", "--json", NULL);
  e2e_expect_outcome(r, 1, "fault");
  msg = e2e_jstr(r, "fault/message");
  ck_assert_msg(strstr(msg, "16384 bytes") && strstr(msg, "1025 calls deep"), "%s", msg);
  r = e2e_emu(k, "--kernel", "deep_recursion", "--grid", "1", "--block", "32", "--stack", "0",
              A, "u32buf:32:zero", A, "u32buf:32:zero", A, "i32:32", "--json", NULL);
  e2e_expect_error(r, 2, "--stack", NULL);
}
END_TEST

/* The emulator keeps each activation's saved registers on the host, 256 MiB a block at most:
   a recursion that would pass it under a large --stack is a fault that says so, at the
   call's line (thread 0 recurses, the other 1023 threads do not). */
START_TEST(host_memory_of_the_call_stack_is_bounded)
{
  const char *k = e2e_kernel("recursion.cu");
  uint32_t in[1024] = {4000000000u};
  const char *pin = e2e_write("in.bin", in, sizeof in);
  struct e2e_run *r = e2e_emu(k, "--kernel", "deep_recursion", "--grid", "1", "--block", "1024",
                              "--stack", "524288", A, e2e_fmt("u32buf:1024:file=%s", pin), A,
                              "u32buf:1024:zero", A, "i32:1024", "--json", NULL);
  e2e_expect_outcome(r, 1, "fault");
  ck_assert_str_eq(e2e_jstr(r, "fault/kind"), "call_depth");
  ck_assert_int_eq(e2e_jint(r, "fault/source/line"), e2e_marker_line(k, "DEEP-CALL"));
  ck_assert_int_eq(e2e_jint(r, "fault/thread/0"), 0);
  const char *msg = e2e_jstr(r, "fault/message");
  ck_assert_msg(strstr(msg, "host memory") && strstr(msg, "cannot run a recursion this deep"),
                "%s", msg);
}
END_TEST

/* Hand-written PTX (tests/e2e/ptx/recursion.ptx): the .local array named in the load and
   store operands themselves ([buf+4]) is each activation's own. out[i] = r(i) = 11 i + r(i-1). */
START_TEST(ptx_local_operands_per_activation)
{
  const char *pout = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(e2e_ptx("recursion.ptx"), "--kernel", "k", "--grid", "1", "--block",
                              "32", A, "u32buf:32:zero", "--dump", e2e_fmt("0=%s", pout), "--json",
                              NULL);
  e2e_expect_ok(r);
  uint32_t *got = e2e_read(pout, 32 * 4);
  for (uint32_t i = 0; i < 32; i++)
    ck_assert_msg(got[i] == 11 * i * (i + 1) / 2, "thread %u: %u, expected %u", i, got[i],
                  11 * i * (i + 1) / 2);
}
END_TEST

void e2e_add_recursion_tests(Suite *s)
{
  TCase *tc = tcase_create("recursion");
  tcase_add_checked_fixture(tc, e2e_setup, e2e_teardown);
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, ptx_local_operands_per_activation);
  suite_add_tcase(s, tc);
  if (!e2e_have_nvcc()) {
    printf("e2e: nvcc not found: SKIPPING the recursion tests of .cu files\n");
    return;
  }
  tcase_add_test(tc, fact_fib_lane_depths);
  tcase_add_test(tc, divergent_tree_walk);
  tcase_add_test(tc, local_arrays_per_activation);
  tcase_add_test(tc, mutual_recursion);
  tcase_add_test(tc, recursion_through_a_pointer);
  tcase_add_test(tc, stack_overflow_is_a_fault);
  tcase_add_test(tc, stack_overflow_takes_ptxas_frame);
  tcase_add_test(tc, lab_run_takes_ptxas_frame);
  tcase_add_test(tc, runaway_recursion_is_a_fault);
  tcase_add_test(tc, host_memory_of_the_call_stack_is_bounded);
}
