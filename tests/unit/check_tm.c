/* check_tm.c: the timing model (harness/timing), held to figures derived from first
 * principles and from the h200 profile's own parameters, never to figures copied from the
 * model's output:
 *   - its pieces: the sectored LRU/random cache, the bandwidth server and its utilisation,
 *     what tm_classify says an instruction costs and reads and writes, block dispatch in
 *     tm_sm_run on a hand-made trace;
 *   - the plan: SM 0's blocks, what is recorded, the L1 left beside shared memory;
 *   - end to end (hand-written PTX -> sim_run -> tm_model): dependent and independent FMA
 *     chains (latency against issue), warps per scheduler (latency hiding), a barrier, load
 *     chains through shared memory, the L1 and DRAM, a DRAM-bound stream, extrapolation past
 *     the recorded blocks, and the metrics a report gives.
 * Needs no nvcc. Where blocks are alike, the tests record a few blocks from a grid of just
 * those blocks (trace_every 1) instead of emulating the whole grid, which keeps the suite
 * fast; test_alike_trace_equals_grid_trace shows that gives the model the same trace.
 *
 * Three tests (the random victim, named barriers, the SMs after SM 0) were written against
 * bugs the model had; they pass since the fixes.
 */
#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/occ.h"
#include "ptx/ptx.h"
#include "sim/sim.h"
#include "sim/sim_int.h"
#include "timing/tm_sm.h"
#include "suites.h"

#define HDR ".version 9.0\n.target sm_90\n.address_size 64\n"

static struct occ_profile h200(void)
{
  struct occ_profile p;
  struct occ_error e;
  enum occ_status st = occ_profile_load("h200", &p, &e);
  ck_assert_msg(st == OCC_OK, "loading h200: %s", e.msg);
  /* the model these tests were written for: sectors without the DRAM access size, page cost,
     partial-store cost, address hoisting and in-order load/store unit the H100's families
     fitted (h200.conf takes them too); each rule's own test turns it on */
  p.dram_access_bytes = 0;
  p.dram_page_bytes = 0;
  p.l2_partial_store_bytes = 0;
  p.hoist_load_address = 0;
  p.hoist_loads_sass = 0;
  p.lds_merge = 0;
  p.lsu_in_order = 0;
  return p;
}

/* ---------------------------------------------------------------------------------------
 * PTX text built in a growing buffer (the kernels are thousands of lines of straight code)
 * ------------------------------------------------------------------------------------- */

struct text {
  char *s;
  size_t len, cap;
};

static void put(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct text *t, const char *fmt, ...)
{
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? t->cap - t->len : 0, fmt, ap);
    va_end(ap);
    ck_assert_int_ge(n, 0);
    if (t->s && t->len + (size_t)n < t->cap) {
      t->len += (size_t)n;
      return;
    }
    size_t cap = t->cap ? t->cap * 2 : 4096;
    while (cap < t->len + (size_t)n + 1)
      cap *= 2;
    t->s = realloc(t->s, cap);
    ck_assert_ptr_nonnull(t->s);
    t->cap = cap;
  }
}

/* Entry "fma": `chains` independent chains of n dependent fma.rn.f32 each, interleaved
   (chain j accumulates in %f(4+j)). With warp0_only, warps other than warp 0 skip the chains
   and every warp then meets at bar.sync. The results are not stored: the model times what
   is issued, and a store would only add its own cost. */
static char *fma_ptx(unsigned chains, unsigned n, int warp0_only)
{
  struct text t = {0};
  put(&t, HDR ".visible .entry fma(.param .u64 out)\n{\n"
          "  .reg .pred %%p<2>;\n  .reg .b32 %%r<2>;\n  .reg .f32 %%f<24>;\n"
          "  mov.f32 %%f1, 0f3F7FF000;\n  mov.f32 %%f2, 0f3A800000;\n");
  if (warp0_only)
    put(&t, "  mov.u32 %%r1, %%tid.x;\n  setp.ge.u32 %%p1, %%r1, 32;\n  @%%p1 bra WAIT;\n");
  for (unsigned j = 0; j < chains; j++)
    put(&t, "  mov.f32 %%f%u, 0f00000000;\n", 4 + j);
  for (unsigned i = 0; i < n; i++)
    for (unsigned j = 0; j < chains; j++)
      put(&t, "  fma.rn.f32 %%f%u, %%f%u, %%f1, %%f2;\n", 4 + j, 4 + j);
  if (warp0_only)
    put(&t, "WAIT:\n  bar.sync 0;\n");
  put(&t, "  ret;\n}\n");
  return t.s;
}

/* Load chains of n steps, p = p + *p over a zeroed buffer (so every step reads the same
   8 bytes), one entry per path: "gchase" ld.global from the parameter; "schase" ld.shared
   with a 64-bit shared address; "gschase" a generic ld of the same shared word. Each step is
   a load and a dependent add.s64. */
static char *chase_ptx(unsigned n)
{
  struct text t = {0};
  static const char *const entry[3] = {"gchase", "schase", "gschase"};
  static const char *const ld[3] = {"ld.global.u64", "ld.shared.u64", "ld.u64"};
  put(&t, HDR);
  for (int k = 0; k < 3; k++) {
    put(&t, ".visible .entry %s(.param .u64 buf)\n{\n"
            "  .shared .align 8 .b8 s[64];\n  .reg .b64 %%rd<6>;\n", entry[k]);
    if (k == 0)
      put(&t, "  ld.param.u64 %%rd1, [buf];\n");
    else if (k == 1)
      put(&t, "  mov.u64 %%rd1, s;\n");
    else
      put(&t, "  mov.u64 %%rd2, s;\n  cvta.shared.u64 %%rd1, %%rd2;\n");
    for (unsigned i = 0; i < n; i++)
      put(&t, "  %s %%rd3, [%%rd1];\n  add.s64 %%rd1, %%rd1, %%rd3;\n", ld[k]);
    put(&t, "  ret;\n}\n");
  }
  return t.s;
}

/* Entry "stream": each block of 256 threads reads its own 32 KB (8 coalesced ld.global.v4.f32
   per thread, 4 KB apart), adds what it read, and writes one float per thread (1 KB per
   block) to out[block * 256 + tid]. */
static char *stream_ptx(void)
{
  struct text t = {0};
  put(&t, HDR ".visible .entry stream(.param .u64 in, .param .u64 out)\n{\n"
          "  .reg .b32 %%r<4>;\n  .reg .b64 %%rd<8>;\n  .reg .f32 %%f<40>;\n"
          "  ld.param.u64 %%rd1, [in];\n  ld.param.u64 %%rd2, [out];\n"
          "  mov.u32 %%r1, %%ctaid.x;\n  mov.u32 %%r2, %%tid.x;\n"
          "  mad.lo.s32 %%r3, %%r1, 256, %%r2;\n"
          "  mul.wide.u32 %%rd3, %%r3, 16;\n  add.s64 %%rd4, %%rd1, %%rd3;\n"
          "  mul.wide.u32 %%rd5, %%r1, 28672;\n  add.s64 %%rd4, %%rd4, %%rd5;\n");
  /* block b reads [b*32K + tid*16 + k*4K]: tid*16 + b*4096 (mad) + b*28672 = b*32K + tid*16 */
  for (unsigned k = 0; k < 8; k++)
    put(&t, "  ld.global.v4.f32 {%%f%u, %%f%u, %%f%u, %%f%u}, [%%rd4+%u];\n", 4 * k + 1,
        4 * k + 2, 4 * k + 3, 4 * k + 4, k * 4096);
  put(&t, "  mov.f32 %%f0, 0f00000000;\n");
  for (unsigned k = 1; k <= 32; k++)
    put(&t, "  add.f32 %%f0, %%f0, %%f%u;\n", k);
  put(&t, "  mul.wide.u32 %%rd6, %%r3, 4;\n  add.s64 %%rd7, %%rd2, %%rd6;\n"
          "  st.global.f32 [%%rd7], %%f0;\n  ret;\n}\n");
  return t.s;
}

/* Entry "named": warps 0-1 run a chain of n FMAs, meet at the named barrier 1 (bar.sync 1,
   64: those two warps' 64 threads only), and run another n; warps 2-3 run 2n and never use
   a barrier. */
/* n dependent fma.rn.f32 on %f4 (with %f1, %f2). */
static void put_fmas(struct text *t, unsigned n)
{
  for (unsigned i = 0; i < n; i++)
    put(t, "  fma.rn.f32 %%f4, %%f4, %%f1, %%f2;\n");
}

static char *named_barrier_ptx(unsigned n)
{
  struct text t = {0};
  put(&t, HDR ".visible .entry named(.param .u64 out)\n{\n"
          "  .reg .pred %%p<2>;\n  .reg .b32 %%r<2>;\n  .reg .f32 %%f<8>;\n"
          "  mov.f32 %%f1, 0f3F7FF000;\n  mov.f32 %%f2, 0f3A800000;\n  mov.f32 %%f4, 0f00000000;\n"
          "  mov.u32 %%r1, %%tid.x;\n  setp.ge.u32 %%p1, %%r1, 64;\n  @%%p1 bra OTHER;\n");
  put_fmas(&t, n);
  put(&t, "  bar.sync 1, 64;\n");
  put_fmas(&t, n);
  put(&t, "  ret;\nOTHER:\n");
  put_fmas(&t, 2 * n);
  put(&t, "  ret;\n}\n");
  return t.s;
}

/* A block's warps meet at a barrier twice; warp 0, then warp 2, comes n instructions after
   the others: its arrival wakes the warps of the schedulers after its own in the same cycle
   (tm_sm.c's warp_wake). */
static char *late_barrier_ptx(unsigned n)
{
  struct text t = {0};
  put(&t, HDR ".visible .entry late(.param .u64 out)\n{\n"
          "  .reg .pred %%p<3>;\n  .reg .b32 %%r<3>;\n  .reg .f32 %%f<8>;\n"
          "  mov.f32 %%f1, 0f3F7FF000;\n  mov.f32 %%f2, 0f3A800000;\n  mov.f32 %%f4, 0f00000000;\n"
          "  mov.u32 %%r1, %%tid.x;\n  shr.u32 %%r2, %%r1, 5;\n"
          "  setp.ne.u32 %%p1, %%r2, 0;\n  @%%p1 bra FIRST;\n");
  put_fmas(&t, n);
  put(&t, "FIRST:\n  bar.sync 0;\n  setp.ne.u32 %%p2, %%r2, 2;\n  @%%p2 bra SECOND;\n");
  put_fmas(&t, n);
  put(&t, "SECOND:\n  bar.sync 0;\n");
  put_fmas(&t, 4);
  put(&t, "  ret;\n}\n");
  return t.s;
}

/* Loops the replay's steady state skips repeats of (tm_sm.c): entry "loop", each warp
   iters + 7 (warp % 3) iterations of four fma chains, an ex2 and a double fma (their pipes
   still busy at the loop's branch) and a counter; a global load before the loop that lands
   during it, read after it, as is the ex2's result. By `kind`, each iteration also has
   0: nothing more; 1: its word of shared memory written, a barrier, another word read (a
   neighbour's, then from iteration 12 on at a stride of 8: a bank conflict), a barrier, and a
   conflicting store to another array last (the shared-memory unit busy at the branch); 2: an if/else on the
   iteration's parity and, at iteration 9, lanes 0-7 taking a longer way once; 3: a
   shfl.sync.bfly and an ld.param; 4: as 0, but only warp 0 loops, the others waiting at a
   barrier after it; 5: as 0, the loop run 8 times by an outer one (whose repeats hold the
   inner loop's). */
static char *loop_ptx(unsigned iters, int kind)
{
  struct text t = {0};
  put(&t, HDR ".visible .entry loop(.param .u64 out)\n{\n"
          "  .reg .pred %%p<5>;\n  .reg .b32 %%r<14>;\n  .reg .b64 %%rd<3>;\n"
          "  .reg .f32 %%f<12>;\n  .reg .f64 %%fd<4>;\n  .shared .align 4 .b8 s[1024];\n"
          "  .shared .align 4 .b8 s2[1024];\n"
          "  mov.f32 %%f1, 0f3F7FF000;\n  mov.f32 %%f2, 0f3A800000;\n"
          "  mov.f32 %%f4, 0f00000000;\n  mov.f32 %%f5, 0f3F800000;\n"
          "  mov.f32 %%f6, 0f40000000;\n  mov.f32 %%f7, 0f40400000;\n"
          "  mov.f64 %%fd1, 0d3FF0000000000000;\n  mov.f64 %%fd2, 0d3FEFF00000000000;\n"
          "  ld.param.u64 %%rd1, [out];\n  ld.global.f32 %%f11, [%%rd1];\n"
          "  mov.u32 %%r1, %%tid.x;\n  shr.u32 %%r2, %%r1, 5;\n  rem.u32 %%r2, %%r2, 3;\n"
          "  mul.lo.u32 %%r2, %%r2, 7;\n  add.u32 %%r2, %%r2, %u;\n  mov.u32 %%r3, 0;\n"
          "  and.b32 %%r4, %%r1, 31;\n  shl.b32 %%r5, %%r1, 2;\n  mov.u32 %%r6, s;\n"
          "  add.u32 %%r5, %%r6, %%r5;\n  mul.lo.u32 %%r7, %%r4, 8;\n  shr.u32 %%r8, %%r1, 5;\n"
          "  add.u32 %%r7, %%r7, %%r8;\n  and.b32 %%r7, %%r7, 255;\n  shl.b32 %%r7, %%r7, 2;\n"
          "  add.u32 %%r7, %%r6, %%r7;\n  add.u32 %%r12, %%r1, 1;\n  and.b32 %%r12, %%r12, 255;\n"
          "  shl.b32 %%r12, %%r12, 2;\n  add.u32 %%r12, %%r6, %%r12;\n"
          "  mov.u32 %%r11, s2;\n  sub.u32 %%r9, %%r7, %%r6;\n  add.u32 %%r11, %%r11, %%r9;\n",
          iters);
  if (kind == 4)
    put(&t, "  setp.ne.u32 %%p4, %%r8, 0;\n  @%%p4 bra WAIT;\n");
  if (kind == 5)
    put(&t, "  mov.u32 %%r9, 0;\nOUTER:\n  mov.u32 %%r3, 0;\n");
  put(&t, "TOP:\n");
  for (unsigned j = 0; j < 4; j++)
    put(&t, "  fma.rn.f32 %%f%u, %%f%u, %%f1, %%f2;\n", 4 + j, 4 + j);
  if (kind == 1)
    put(&t, "  st.shared.f32 [%%r5], %%f4;\n  bar.sync 0;\n  setp.lt.u32 %%p2, %%r3, 12;\n"
            "  selp.b32 %%r13, %%r12, %%r7, %%p2;\n  ld.shared.f32 %%f8, [%%r13];\n"
            "  add.f32 %%f5, %%f5, %%f8;\n  bar.sync 0;\n");
  if (kind == 2)
    put(&t, "  and.b32 %%r9, %%r3, 1;\n  setp.eq.u32 %%p2, %%r9, 0;\n  @%%p2 bra EVEN;\n"
            "  mul.f32 %%f6, %%f6, %%f1;\n  bra.uni JOIN;\nEVEN:\n  add.f32 %%f6, %%f6, %%f2;\n"
            "  sin.approx.f32 %%f9, %%f6;\n  add.f32 %%f7, %%f7, %%f9;\nJOIN:\n"
            "  setp.ne.u32 %%p3, %%r3, 9;\n  @%%p3 bra ON;\n  setp.ge.u32 %%p3, %%r4, 8;\n"
            "  @%%p3 bra ON;\n  ex2.approx.f32 %%f9, %%f6;\n  lg2.approx.f32 %%f9, %%f9;\n"
            "  add.f32 %%f7, %%f7, %%f9;\nON:\n");
  if (kind == 3)
    put(&t, "  shfl.sync.bfly.b32 %%r10, %%r3, 1, 31, -1;\n  ld.param.u64 %%rd1, [out];\n"
            "  cvt.u32.u64 %%r11, %%rd1;\n  add.u32 %%r10, %%r10, %%r11;\n"
            "  cvt.rn.f32.u32 %%f9, %%r10;\n  add.f32 %%f7, %%f7, %%f9;\n");
  if (kind == 1)
    put(&t, "  st.shared.f32 [%%r11], %%f6;\n");
  put(&t, "  add.u32 %%r3, %%r3, 1;\n  setp.lt.u32 %%p1, %%r3, %%r2;\n"
          "  ex2.approx.f32 %%f10, %%f5;\n  fma.rn.f64 %%fd1, %%fd1, %%fd2, %%fd2;\n"
          "  @%%p1 bra TOP;\n");
  if (kind == 5)
    put(&t, "  add.u32 %%r9, %%r9, 1;\n  setp.lt.u32 %%p4, %%r9, 8;\n  @%%p4 bra OUTER;\n");
  put(&t, "  add.f32 %%f4, %%f4, %%f10;\n  add.f32 %%f4, %%f4, %%f5;\n  add.f32 %%f4, %%f4, %%f6;\n"
          "  add.f32 %%f4, %%f4, %%f7;\n  add.f32 %%f4, %%f4, %%f11;\n"
          "  cvt.rn.f32.f64 %%f9, %%fd1;\n  add.f32 %%f4, %%f4, %%f9;\n");
  if (kind == 4)
    put(&t, "WAIT:\n  bar.sync 0;\n");
  put(&t, "  ld.param.u64 %%rd1, [out];\n  mul.wide.u32 %%rd2, %%r1, 4;\n"
          "  add.s64 %%rd1, %%rd1, %%rd2;\n  st.global.f32 [%%rd1], %%f4;\n  ret;\n}\n");
  return t.s;
}

/* ---------------------------------------------------------------------------------------
 * A modelled launch
 * ------------------------------------------------------------------------------------- */

struct model {
  struct occ_profile p;
  struct ptx_module m;
  struct sim_device *d;
  struct sim_result r;
  int regs;                       /* registers per thread for the plan; 0: the assumed 32 */
  int touch;                      /* keep the grid's first touches (sim_launch.trace_wave) */
  const struct ptx_sass *sass;    /* the SASS map the model gets, or NULL */
  struct tm_kernel k;
  struct tm_plan plan;
  struct tm_report rep;
  uint64_t buf[2];
  char err[512];
};

static void model_load(struct model *x, const char *ptx, uint64_t buf_bytes)
{
  memset(x, 0, sizeof *x);
  x->p = h200();
  struct ptx_error e;
  enum ptx_status st = ptx_parse(ptx, strlen(ptx), &x->m, &e);
  ck_assert_msg(st == PTX_OK, "parse failed at line %u: %s", e.line, e.msg);
  x->d = sim_device_new();
  ck_assert_ptr_nonnull(x->d);
  for (int i = 0; i < 2; i++)
    ck_assert_int_eq(sim_malloc(x->d, buf_bytes, i ? "argument 1" : "argument 0", &x->buf[i]),
                     SIM_OK);
}

static void model_free(struct model *x)
{
  sim_result_free(&x->r);
  sim_device_free(x->d);
  ptx_module_free(&x->m);
}

/* Plan kernel `kernel` over `grid` blocks of `block` threads (both buffers as parameters)
   and model it. The emulator runs `run_grid` blocks: the real grid (run_grid == grid),
   recording SM 0's blocks as the plan asks; or, for a kernel whose blocks are all alike,
   just as many blocks as the plan records, every one recorded. */
static void model_run(struct model *x, const char *kernel, uint32_t grid, uint32_t block,
                      uint32_t run_grid)
{
  x->k = (struct tm_kernel){.grid_blocks = grid, .block_threads = block,
                            .regs_per_thread = x->regs, .sass = x->sass};
  ck_assert_int_eq(tm_plan(&x->p, &x->k, &x->plan), 0);
  ck_assert_msg(x->plan.ok, "%s", x->plan.note);
  /* the probes load shared memory they never wrote: only the loads' timing matters here */
  struct sim_launch c = {.grid = {run_grid, 1, 1}, .block = {block, 1, 1},
                         .nocheck = SIM_NOCHECK_INIT};
  if (run_grid == grid) {
    c.trace_every = x->plan.trace_every;
    c.trace_blocks = x->plan.trace_blocks;
    c.trace_wave = x->touch ? x->plan.blocks_per_sm * x->plan.trace_every : 0;
  } else {
    ck_assert_uint_eq(run_grid, x->plan.trace_blocks);
    c.trace_every = 1;
    c.trace_blocks = run_grid;
  }
  uint32_t off[2], size[2], total;
  int np = sim_param_layout(&x->m, ptx_find_func(&x->m, kernel), off, size, 2, &total);
  ck_assert_int_ge(np, 1);
  ck_assert_int_le(np, 2);
  sim_result_free(&x->r);
  ck_assert_int_eq(sim_run(x->d, &x->m, kernel, x->buf, total, &c, &x->r, x->err,
                           sizeof x->err), SIM_OK);
  ck_assert_msg(x->r.outcome == SIM_RAN_OK, "%s", x->r.fault.message);
  ck_assert_uint_eq(x->r.trace.nblk, x->plan.trace_blocks);
  ck_assert_int_eq(tm_model(&x->p, &x->m, &x->k, &x->plan, &x->r.trace, &x->rep), 0);
  ck_assert_msg(x->rep.ok, "%s", x->rep.how);
}

/* Blocks the plan records of SM 0's when it has many: blocks of `threads` threads. */
static uint32_t recorded_cap(const struct occ_profile *p, uint32_t threads)
{
  struct tm_kernel k = {.grid_blocks = 100000u * (uint32_t)p->sm_count, .block_threads = threads};
  struct tm_plan plan;
  ck_assert_int_eq(tm_plan(p, &k, &plan), 0);
  ck_assert_uint_lt(plan.trace_blocks, plan.sm0_blocks);
  return plan.trace_blocks;
}

/* Cycles of a one-block launch of a kernel text. */
static double one_block_cycles(const char *ptx, const char *kernel, uint32_t threads)
{
  struct model x;
  model_load(&x, ptx, 4096);
  model_run(&x, kernel, 1, threads, 1);
  double c = x.rep.cycles;
  model_free(&x);
  return c;
}

static double stall_sum(const struct tm_report *r)
{
  double s = 0;
  for (int i = 0; i < TM_STALL_COUNT; i++)
    s += r->stall[i];
  return s;
}

/* ---------------------------------------------------------------------------------------
 * The cache
 * ------------------------------------------------------------------------------------- */

/* Hits of `passes` cyclic walks over sector 0 of lines 0..nlines-1, counted after the first. */
static uint64_t walk_hits(struct tm_cache *c, uint32_t nlines, int passes)
{
  uint64_t hits = 0;
  for (int p = 0; p < passes; p++)
    for (uint32_t l = 0; l < nlines; l++) {
      int h = tm_cache_access(c, (uint64_t)l * 4, 1);
      if (p > 0)
        hits += (uint64_t)h;
    }
  return hits;
}

/* One set of 4 ways (4 lines of 128 bytes): fully associative, so LRU is exact. */
START_TEST(test_cache_lru)
{
  struct tm_cache c;
  ck_assert_int_eq(tm_cache_init(&c, 4 * 128, 4, 0), 0);
  ck_assert_uint_eq(c.sets, 1);
  ck_assert_uint_eq(c.ways, 4);
  /* 4 lines fit: the first pass misses 4 times, the next 9 passes hit every time */
  ck_assert_uint_eq(walk_hits(&c, 4, 10), 9 * 4);
  ck_assert_uint_eq(c.misses, 4);
  ck_assert_uint_eq(c.hits, 9 * 4);
  tm_cache_free(&c);

  /* 5 lines cycling through 4 ways under LRU: each access evicts the line needed next */
  ck_assert_int_eq(tm_cache_init(&c, 4 * 128, 4, 0), 0);
  ck_assert_uint_eq(walk_hits(&c, 5, 10), 0);
  ck_assert_uint_eq(c.misses, 50);
  tm_cache_free(&c);

  /* lines A B C D, touch A, bring in E: B, the least recently used, goes */
  ck_assert_int_eq(tm_cache_init(&c, 4 * 128, 4, 0), 0);
  for (uint64_t l = 0; l < 4; l++)
    ck_assert_int_eq(tm_cache_access(&c, l * 4, 1), 0);
  ck_assert_int_eq(tm_cache_access(&c, 0, 1), 1);
  ck_assert_int_eq(tm_cache_access(&c, 4 * 4, 1), 0);
  ck_assert_int_eq(tm_cache_access(&c, 0, 1), 1);        /* A stayed */
  ck_assert_int_eq(tm_cache_access(&c, 2 * 4, 1), 1);    /* C stayed */
  ck_assert_int_eq(tm_cache_access(&c, 3 * 4, 1), 1);    /* D stayed */
  ck_assert_int_eq(tm_cache_access(&c, 1 * 4, 1), 0);    /* B was evicted */
  tm_cache_free(&c);
}
END_TEST

/* Many sets: a walk over no more lines than a set has ways fits whatever the set index, and
   a walk at a stride of the set count is spread by the hashed index (with a plain modulo
   index all its lines would share one set and, under LRU, never hit). */
START_TEST(test_cache_sets)
{
  struct tm_cache c;
  ck_assert_int_eq(tm_cache_init(&c, 64 * 128, 4, 0), 0);
  ck_assert_uint_eq(c.sets, 16);
  ck_assert_uint_eq(walk_hits(&c, 4, 3), 2 * 4);
  tm_cache_free(&c);

  ck_assert_int_eq(tm_cache_init(&c, 64 * 128, 4, 0), 0);
  uint64_t hits = 0;
  for (int p = 0; p < 2; p++)
    for (uint64_t k = 0; k < 16; k++) {      /* 16 lines, a quarter of the capacity */
      int h = tm_cache_access(&c, k * 16 * 4, 1);
      if (p)
        hits += (uint64_t)h;
    }
  ck_assert_uint_ge(hits, 12);
  tm_cache_free(&c);
}
END_TEST

/* A line holds the sectors asked for, one by one; allocate = 0 leaves a miss out. */
START_TEST(test_cache_sectors)
{
  struct tm_cache c;
  ck_assert_int_eq(tm_cache_init(&c, 4 * 128, 4, 0), 0);
  ck_assert_int_eq(tm_cache_access(&c, 8, 1), 0);        /* line 2, sector 0 */
  ck_assert_int_eq(tm_cache_access(&c, 8, 1), 1);
  ck_assert_int_eq(tm_cache_access(&c, 9, 1), 0);        /* same line, sector 1: a miss */
  ck_assert_int_eq(tm_cache_access(&c, 9, 1), 1);
  ck_assert_int_eq(tm_cache_access(&c, 8, 1), 1);
  ck_assert_int_eq(tm_cache_access(&c, 11, 0), 0);       /* not allocated ... */
  ck_assert_int_eq(tm_cache_access(&c, 11, 0), 0);       /* ... so still a miss */
  /* filling the missing sectors of a present line takes no other line's way: three more
     lines and the first all still hit */
  for (uint64_t l = 3; l < 6; l++)
    ck_assert_int_eq(tm_cache_access(&c, l * 4, 1), 0);
  ck_assert_int_eq(tm_cache_access(&c, 10, 1), 0);
  for (uint64_t l = 3; l < 6; l++)
    ck_assert_int_eq(tm_cache_access(&c, l * 4, 1), 1);
  ck_assert_int_eq(tm_cache_access(&c, 8, 1), 1);
  ck_assert_int_eq(tm_cache_access(&c, 10, 1), 1);
  ck_assert_uint_eq(c.hits + c.misses, 16);
  tm_cache_free(&c);
}
END_TEST

/* tm_cache_drop forgets one sector: the next access to it misses, its neighbours still hit. */
START_TEST(test_cache_drop)
{
  struct tm_cache c;
  ck_assert_int_eq(tm_cache_init(&c, 64 * 128, 4, 0), 0);
  ck_assert_int_eq(tm_cache_access(&c, 100, 1), 0);
  ck_assert_int_eq(tm_cache_access(&c, 101, 1), 0);
  ck_assert_int_eq(tm_cache_access(&c, 100, 1), 1);
  tm_cache_drop(&c, 100);
  ck_assert_int_eq(tm_cache_access(&c, 101, 1), 1);
  ck_assert_int_eq(tm_cache_access(&c, 100, 1), 0);
  ck_assert_int_eq(tm_cache_access(&c, 100, 1), 1);
  tm_cache_drop(&c, 7777);                                /* absent: nothing happens */
  ck_assert_int_eq(tm_cache_access(&c, 100, 1), 1);
  tm_cache_free(&c);
}
END_TEST

/* Dirty sectors: a sector's first write is new write-back traffic, later ones are not; an
   absent sector cannot be marked; a sector brought in again after eviction is clean. */
START_TEST(test_cache_dirty)
{
  struct tm_cache c;
  ck_assert_int_eq(tm_cache_init(&c, 4 * 128, 4, 0), 0);   /* one set of 4 lines */
  ck_assert_int_eq(tm_cache_write(&c, 40, 32), 0);          /* absent: nothing to mark */
  tm_cache_access(&c, 40, 1);
  ck_assert_int_eq(tm_cache_write(&c, 41, 32), 0);          /* same line, sector not in */
  ck_assert_int_eq(tm_cache_write(&c, 40, 32), 1);
  ck_assert_int_eq(tm_cache_write(&c, 40, 32), 0);
  for (uint64_t line = 11; line < 15; line++)               /* four other lines evict it */
    tm_cache_access(&c, line * 4, 1);
  ck_assert_int_eq(tm_cache_write(&c, 40, 32), 0);          /* evicted: not there to mark */
  tm_cache_access(&c, 40, 1);
  ck_assert_int_eq(tm_cache_write_last(&c, 40, 32), 1);     /* clean again when re-read */
  tm_cache_free(&c);
}
END_TEST

/* A DRAM access of 64 bytes brings a sector's pair partner in with it (ready when it is),
   and a pair is written back once: a sector whose partner is dirty adds no write-back. */
START_TEST(test_cache_fill_pair)
{
  struct tm_cache c;
  ck_assert_int_eq(tm_cache_init(&c, 4 * 128, 4, 0), 0);
  ck_assert_int_eq(tm_cache_fill(&c, 41, 64, 500), 0);      /* line absent: nothing */
  tm_cache_access(&c, 41, 1);
  ck_assert_int_eq(tm_cache_fill(&c, 41, 64, 500), 1);      /* sector 40 comes in */
  ck_assert_double_eq(tm_cache_ready_at(&c, 40), 500);
  ck_assert_int_eq(tm_cache_access(&c, 40, 1), 1);
  ck_assert_int_eq(tm_cache_access(&c, 42, 1), 0);           /* the other pair is not in */
  ck_assert_int_eq(tm_cache_fill(&c, 41, 32, 500), 0);      /* 32 bytes: the sector alone */
  ck_assert_int_eq(tm_cache_fill_last(&c, 42, 128, 700), 1); /* the line: 43 comes in */
  ck_assert_double_eq(tm_cache_ready_at(&c, 43), 700);
  ck_assert_double_eq(tm_cache_ready_at(&c, 40), 500);       /* present: left as it was */
  ck_assert_int_eq(tm_cache_write(&c, 40, 64), 1);          /* clean pair: a new write-back */
  ck_assert_int_eq(tm_cache_write(&c, 41, 64), 0);          /* its partner's is under way */
  ck_assert_int_eq(tm_cache_write(&c, 42, 32), 1);          /* 32 bytes: a sector's own */
  ck_assert_int_eq(tm_cache_write(&c, 43, 64), 0);          /* 42 is dirty */
  tm_cache_free(&c);
  ck_assert_int_eq(tm_cache_init(&c, 4 * 128, 4, 0), 0);
  tm_cache_access(&c, 41, 1);
  ck_assert_int_eq(tm_cache_write(&c, 41, 64), 1);          /* partner 40 absent */
  ck_assert_int_eq(tm_cache_fill(&c, 41, 64, 9), 1);
  ck_assert_int_eq(tm_cache_write(&c, 40, 64), 0);          /* 41 is dirty */
  ck_assert_int_eq(tm_cache_write(&c, 40, 64), 0);          /* and 40 now too */
  tm_cache_free(&c);
  ck_assert_int_eq(tm_cache_init(&c, 4 * 128, 4, 0), 0);
  tm_cache_access(&c, 41, 1);
  ck_assert_int_eq(tm_cache_write(&c, 41, 32), 1);
  tm_cache_drop(&c, 41);                                     /* dirty, but not present */
  tm_cache_access(&c, 40, 1);
  ck_assert_int_eq(tm_cache_write(&c, 40, 64), 1);          /* an absent partner writes nothing */
  tm_cache_free(&c);
}
END_TEST

/* Random replacement: a cyclic walk a little larger than the cache hits part of the time
   (LRU would never hit, test_cache_lru), and one that fits still always hits. */
START_TEST(test_cache_random)
{
  struct tm_cache c;
  ck_assert_int_eq(tm_cache_init(&c, 4 * 128, 4, 1), 0);
  uint64_t hits = walk_hits(&c, 5, 201), n = 200 * 5;
  ck_assert_uint_gt(hits, 0);
  ck_assert_uint_lt(hits, n);
  tm_cache_free(&c);

  ck_assert_int_eq(tm_cache_init(&c, 4 * 128, 4, 1), 0);
  ck_assert_uint_eq(walk_hits(&c, 4, 10), 9 * 4);
  tm_cache_free(&c);

  /* 64 KB, 128 sets: a walk over 10% more lines than fit. Under LRU only the sets the hash
     gave no more lines than ways hit; at random every set keeps part of its lines */
  uint64_t h[2];
  n = 19 * 563;
  for (int r = 0; r < 2; r++) {
    ck_assert_int_eq(tm_cache_init(&c, 64 * 1024, 4, r), 0);
    h[r] = walk_hits(&c, 563, 20);
    tm_cache_free(&c);
  }
  ck_assert_uint_gt(h[1], h[0]);
  ck_assert_uint_lt(h[1], n);
}
END_TEST

/* Random replacement as a reference: one set of `ways` lines, a victim picked by xorshift64*
   among the ways once all are full. Hits of a cyclic walk of nlines, after the first pass. */
static double ideal_random_hit_rate(uint32_t ways, uint32_t nlines, int passes)
{
  uint64_t tag[16] = {0}, rng = 0x2545f4914f6cdd1dull, hits = 0, n = 0;
  ck_assert_uint_le(ways, 16);
  for (int p = 0; p < passes; p++)
    for (uint64_t l = 1; l <= nlines; l++) {
      int hit = 0, empty = -1;
      for (uint32_t i = 0; i < ways; i++) {
        hit |= tag[i] == l;
        if (!tag[i] && empty < 0)
          empty = (int)i;
      }
      if (p > 0) {
        hits += (uint64_t)hit;
        n++;
      }
      if (!hit) {
        rng ^= rng >> 12;
        rng ^= rng << 25;
        rng ^= rng >> 27;
        tag[empty >= 0 ? (uint32_t)empty : (uint32_t)((rng * 0x2545f4914f6cdd1dull) >> 32) % ways] = l;
      }
    }
  return (double)hits / (double)n;
}

/* The L1's "random" victim must be random: a cyclic walk over a few more lines than a set
   holds hits as often as true random replacement would. (It was once bits 32-33 of
   (tick + line) x a constant, which locked onto the walk: a walk of 5 lines in 4 ways hit
   30% of the time instead of 60%, one of 7 lines 0.5% instead of 26%.) */
START_TEST(test_cache_random_is_random)
{
  for (uint32_t lines = 5; lines <= 8; lines++) {
    struct tm_cache c;
    ck_assert_int_eq(tm_cache_init(&c, 4 * 128, 4, 1), 0);
    int passes = 2001;
    double got = (double)walk_hits(&c, lines, passes) / (double)((passes - 1) * (int)lines);
    double want = ideal_random_hit_rate(4, lines, passes);
    tm_cache_free(&c);
    ck_assert_msg(fabs(got - want) < 0.05, "a cyclic walk of %u lines in 4 ways: hit rate %.3f, "
                  "random replacement %.3f", lines, got, want);
  }
}
END_TEST

/* ---------------------------------------------------------------------------------------
 * The bandwidth server
 * ------------------------------------------------------------------------------------- */

/* The cache answers an access to the line it found last from that way (tm_cache.last): the
   same answers and the same state as looking every line up in its set, for LRU and random
   replacement, on a mix of accesses (allocating or not), drops, fills, writes and ready
   times over lines that hit, miss and evict each other. */
START_TEST(test_cache_last_way)
{
  for (int random = 0; random < 2; random++) {
    struct tm_cache fast, plain;
    ck_assert_int_eq(tm_cache_init(&fast, 16 * 128, 4, random), 0);
    ck_assert_int_eq(tm_cache_init(&plain, 16 * 128, 4, random), 0);
    plain.plain = 1;
    uint32_t rng = 777;
    uint64_t sec = 0;
    for (int i = 0; i < 20000; i++) {
      rng = rng * 1103515245u + 12345u;
      uint32_t r = rng >> 8;
      if (r % 3)                          /* mostly the same line, or a nearby one */
        sec = (sec & ~3ull) + (r >> 4) % 4 + (r % 5 == 0 ? 4 * ((r >> 6) % 40) : 0);
      double at = (double)(r % 1000);
      int a, b;
      switch ((r >> 12) % 8) {
      case 0: case 1: case 2:
        a = tm_cache_access(&fast, sec, (r >> 16) % 4 != 0);
        b = tm_cache_access(&plain, sec, (r >> 16) % 4 != 0);
        break;
      case 3:
        tm_cache_drop(&fast, sec);
        tm_cache_drop(&plain, sec);
        a = b = 0;
        break;
      case 4:
        tm_cache_set_ready(&fast, sec, at);
        tm_cache_set_ready(&plain, sec, at);
        a = tm_cache_ready_at(&fast, sec) == tm_cache_ready_at(&plain, sec);
        b = 1;
        break;
      case 5:
        a = tm_cache_fill(&fast, sec, 64 << (r % 2), at);
        b = tm_cache_fill(&plain, sec, 64 << (r % 2), at);
        break;
      case 6:
        a = tm_cache_write(&fast, sec, 64 << (r % 2));
        b = tm_cache_write(&plain, sec, 64 << (r % 2));
        break;
      default:                            /* an allocating access, then its line's *_last */
        a = tm_cache_access(&fast, sec, 1);
        b = tm_cache_access(&plain, sec, 1);
        ck_assert_uint_eq(fast.tag[fast.last], (sec >> 2) + 1);
        ck_assert_uint_eq(fast.last, plain.last);
        if (r % 3 == 0) {
          *tm_cache_ready_last(&fast, sec) = at;
          tm_cache_set_ready(&plain, sec, at);
        } else if (r % 3 == 1) {
          a += 2 * tm_cache_fill_last(&fast, sec, 64 << (r % 2), at);
          b += 2 * tm_cache_fill(&plain, sec, 64 << (r % 2), at);
        } else {
          a += 2 * tm_cache_write_last(&fast, sec, 64);
          b += 2 * tm_cache_write(&plain, sec, 64);
        }
        break;
      }
      ck_assert_msg(a == b, "step %d (sector %llu): %d, plain %d", i, (unsigned long long)sec,
                    a, b);
    }
    size_t n = (size_t)fast.sets * fast.ways;
    ck_assert_uint_eq(fast.hits, plain.hits);
    ck_assert_uint_eq(fast.misses, plain.misses);
    ck_assert_uint_gt(fast.hits, 1000);
    ck_assert_uint_gt(fast.misses, 1000);
    ck_assert_mem_eq(fast.tag, plain.tag, n * sizeof *fast.tag);
    ck_assert_mem_eq(fast.used, plain.used, n * sizeof *fast.used);
    ck_assert_mem_eq(fast.valid, plain.valid, n);
    ck_assert_mem_eq(fast.dirty, plain.dirty, n);
    ck_assert_mem_eq(fast.ready, plain.ready, n * 4 * sizeof *fast.ready);
    tm_cache_free(&fast);
    tm_cache_free(&plain);
  }
}
END_TEST

START_TEST(test_serve_queue)
{
  const double B = 96, b = 8;                   /* 12 cycles a request */
  struct tm_server s = {.bytes_per_cycle = b};
  /* k requests arriving together leave at k * B / b */
  for (int k = 1; k <= 10; k++)
    ck_assert_double_eq_tol(tm_serve(&s, 100, B), 100 + k * B / b, 1e-9);
  ck_assert_double_eq_tol(s.bytes, 10 * B, 1e-9);
  /* arriving far apart, each leaves B / b after it arrives */
  struct tm_server t = {.bytes_per_cycle = b};
  for (int k = 0; k < 10; k++)
    ck_assert_double_eq_tol(tm_serve(&t, 1000.0 * k, B), 1000.0 * k + B / b, 1e-9);
  /* a request arriving while the server is busy waits for it */
  ck_assert_double_eq_tol(tm_serve(&t, 9000 + 4, B), 9000 + 2 * B / b, 1e-9);
}
END_TEST

/* busy is the utilisation over the last ~TM_BUSY_WINDOW cycles, decaying exponentially: a
   server kept fully busy from idle reaches 1 - 1/e after one window and about 1 after five;
   one kept half busy settles near 1/2; left idle for a window it falls by a factor e. */
START_TEST(test_serve_busy)
{
  const double B = 32, b = 16, svc = B / b, W = TM_BUSY_WINDOW;
  struct tm_server s = {.bytes_per_cycle = b};
  double t = 0, prev = 0;
  for (; t < W; t += svc) {
    tm_serve(&s, t, B);
    ck_assert_double_ge(s.busy, prev);          /* rising */
    prev = s.busy;
  }
  ck_assert_double_eq_tol(s.busy, 1 - exp(-1), 0.01);
  for (; t < 5 * W; t += svc)
    tm_serve(&s, t, B);
  ck_assert_double_ge(s.busy, 0.99);
  ck_assert_double_le(s.busy, 1);
  double full = s.busy, last = t - svc;
  tm_serve(&s, last + W, B);
  ck_assert_double_eq_tol(s.busy, full * exp(-1) + svc / W, 1e-6);

  struct tm_server h = {.bytes_per_cycle = b};
  for (t = 0; t < 10 * W; t += 2 * svc)
    tm_serve(&h, t, B);
  ck_assert_double_eq_tol(h.busy, 0.5, 0.01);
}
END_TEST

/* ---------------------------------------------------------------------------------------
 * tm_classify
 * ------------------------------------------------------------------------------------- */

static const char *k_classify =
  HDR
  ".visible .entry cls(.param .u64 p)\n{\n"
  "  .shared .align 16 .b8 s[256];\n"
  "  .reg .pred %p<4>;\n  .reg .b32 %r<12>;\n  .reg .f32 %f<12>;\n  .reg .f64 %fd<4>;\n"
  "  .reg .b64 %rd<6>;\n"
  "  ld.param.u64 %rd1, [p];\n"                                  /* 0 */
  "  fma.rn.f32 %f1, %f2, %f3, %f4;\n"                           /* 1 */
  "  ld.global.f32 %f5, [%rd1+16];\n"                            /* 2 */
  "  ld.shared.u32 %r1, [%r2+4];\n"                              /* 3 */
  "  ld.u32 %r3, [%rd2];\n"                                      /* 4 */
  "  st.global.f32 [%rd1], %f5;\n"                               /* 5 */
  "  st.global.v4.f32 [%rd3], {%f6, %f7, %f8, %f9};\n"           /* 6 */
  "  ld.global.v4.f32 {%f6, %f7, %f8, %f9}, [%rd3];\n"           /* 7 */
  "  setp.lt.s32 %p1, %r4, %r5;\n"                               /* 8 */
  "  @%p1 add.s32 %r6, %r4, 7;\n"                                /* 9 */
  "  bar.sync 0;\n"                                              /* 10 */
  "  @!%p2 bra DONE;\n"                                          /* 11 */
  "  fma.rn.f64 %fd1, %fd2, %fd3, %fd1;\n"                       /* 12 */
  "  ex2.approx.f32 %f10, %f11;\n"                               /* 13 */
  "  shfl.sync.bfly.b32 %r7, %r8, 1, 31, -1;\n"                  /* 14 */
  "  atom.global.add.u32 %r9, [%rd4], %r10;\n"                   /* 15 */
  "  red.global.add.u32 [%rd4], %r10;\n"                         /* 16 */
  "  setp.lt.s32 %p2|%p3, %r4, %r5;\n"                           /* 17 */
  "  mul.f32 %f10, %f11, 0f40000000;\n"                          /* 18 */
  "DONE:\n  ret;\n}\n";

static int has(const uint32_t *v, unsigned n, uint32_t r)
{
  for (unsigned i = 0; i < n; i++)
    if (v[i] == r)
      return 1;
  return 0;
}

/* Every opcode of ptx_ops.def is costed by its row's timing class (a global memory op on the
   LSU with its memory class, control on the branch unit, the rest with a latency and an
   issue interval) and writes a register exactly when its row says it does. */
START_TEST(test_classify_every_opcode)
{
  struct occ_profile p = h200();
  struct tm_costs c;
  tm_costs_init(&c, &p, 32);
  const struct ptx_op_info *oi = ptx_op_info((enum ptx_op)_i);
  struct ptx_inst in;
  memset(&in, 0, sizeof in);
  in.op = (uint16_t)_i;
  in.type = PTX_T_B32;
  in.space = PTX_SP_GLOBAL;
  in.guard = PTX_NOREG;
  in.nopd = 2;
  for (int k = 0; k < 2; k++) {
    in.opd[k].kind = PTX_OPD_REG;
    in.opd[k].reg = (uint32_t)k + 1;
    in.opd[k].pair = in.opd[k].sym = PTX_NOREG;
  }
  struct tm_op o;
  tm_classify(&c, &in, &o);
  ck_assert_uint_ge(o.interval, 1);
  /* bar.sync: no bar.red; MODE: operand 0 is a register here, so it is written */
  ck_assert_uint_eq(o.ndst, oi->dst == PTX_DST_YES || oi->dst == PTX_DST_MODE ? 1u : 0u);
  static const uint8_t cls[PTX_COST_COUNT] = {
    [PTX_COST_LOAD] = TM_C_LOAD, [PTX_COST_STORE] = TM_C_STORE, [PTX_COST_ATOM] = TM_C_ATOM,
    [PTX_COST_RED] = TM_C_RED, [PTX_COST_WARP] = TM_C_SHFL, [PTX_COST_BARRIER] = TM_C_BARRIER,
    [PTX_COST_BRANCH] = TM_C_BRANCH, [PTX_COST_EXIT] = TM_C_EXIT,
  };
  unsigned want = _i == PTX_OP_LDU ? TM_C_FIXED : cls[oi->cost]; /* ldu: uniform, fixed latency */
  ck_assert_msg(o.cls == want, "%s: class %u, its row says %u", oi->name, o.cls, want);
  if (o.cls == TM_C_FIXED)
    ck_assert_msg(o.latency >= 1, "%s: no latency", oi->name);
  if (oi->cost == PTX_COST_BRANCH || oi->cost == PTX_COST_EXIT || oi->cost == PTX_COST_BARRIER)
    ck_assert_uint_eq(o.pipe, TM_PIPE_CBU);
}
END_TEST

/* Tensor-core instructions: mma issues to the tensor pipe for its multiply-adds at the
   profile's rate (f16/bf16 at tensor_f16_fma_per_cycle, tf32 at half, int8 at twice, f64 at a
   sixteenth), with the profile's latency, and depends on every fragment register; the
   fragment loads and stores are memory accesses. */
static const char k_tensor[] =
  ".version 8.5\n.target sm_90\n.address_size 64\n"
  ".visible .entry k(.param .u64 p)\n{\n"
  ".reg .b32 %r<40>;\n.reg .f32 %f<40>;\n.reg .f64 %fd<8>;\n.reg .b64 %rd<4>;\n"
  "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, "
  "{%r5,%r6}, {%f5,%f6,%f7,%f8};\n"
  "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, "
  "{%r5,%r6}, {%f5,%f6,%f7,%f8};\n"
  "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%r10,%r11,%r12,%r13}, {%r1,%r2,%r3,%r4}, "
  "{%r5,%r6}, {%r14,%r15,%r16,%r17};\n"
  "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%fd1,%fd2}, {%fd3}, {%fd4}, {%fd5,%fd6};\n"
  "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%f9,%f10,%f11,%f12,%f13,%f14,%f15,%f16}, "
  "{%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, {%r9,%r10,%r11,%r12,%r13,%r14,%r15,%r16}, "
  "{%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8};\n"
  "wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, [%rd1], %r9;\n"
  "stmatrix.sync.aligned.m8n8.x2.shared.b16 [%r20], {%r1,%r2};\n"
  "ret;\n}\n";

START_TEST(test_classify_tensor)
{
  struct occ_profile p = h200();
  struct tm_costs c;
  tm_costs_init(&c, &p, 32);
  ck_assert_int_gt(p.tensor_cycles, 0);
  ck_assert_int_gt(p.tensor_f16_fma_per_cycle, 0);
  struct ptx_module m;
  struct ptx_error e;
  ck_assert_msg(ptx_parse(k_tensor, strlen(k_tensor), &m, &e) == PTX_OK, "line %u: %s", e.line,
                e.msg);
  ck_assert_uint_eq(m.ninsts, 8);
  struct tm_op o[8];
  for (unsigned i = 0; i < m.ninsts; i++)
    tm_classify(&c, &m.insts[i], &o[i]);
  double f16 = p.tensor_f16_fma_per_cycle;
  static const double work[5] = {16 * 8 * 16, 16 * 8 * 8 * 2, 16 * 8 * 32 / 2.0, 8 * 8 * 4 * 16,
                                 16 * 16 * 16};
  static const unsigned nsrc[5] = {10, 10, 10, 4, 24}, ndst[5] = {4, 4, 4, 2, 8};
  for (unsigned i = 0; i < 5; i++) {
    ck_assert_uint_eq(o[i].pipe, TM_PIPE_TENSOR);
    ck_assert_uint_eq(o[i].cls, TM_C_FIXED);
    ck_assert_uint_eq(o[i].latency, (uint32_t)p.tensor_cycles);
    ck_assert_msg(o[i].interval == (uint32_t)(work[i] / f16 + 0.5), "inst %u: interval %u", i,
                  o[i].interval);
    ck_assert_uint_eq(o[i].nsrc, nsrc[i]);
    ck_assert_uint_eq(o[i].ndst, ndst[i]);
  }
  ck_assert_uint_eq(o[5].cls, TM_C_LOAD);
  ck_assert_uint_eq(o[5].ndst, 8);
  ck_assert_uint_eq(o[6].cls, TM_C_STORE);
  ck_assert_uint_eq(o[6].ndst, 0);
  ck_assert_uint_eq(o[6].nsrc, 3);
  ptx_module_free(&m);
}
END_TEST

START_TEST(test_classify)
{
  struct occ_profile p = h200();
  struct tm_costs c;
  tm_costs_init(&c, &p, 32);
  ck_assert_uint_eq(c.fma, (uint32_t)p.fma_cycles);
  ck_assert_uint_eq(c.l1, (uint32_t)p.l1_hit_cycles);
  ck_assert_uint_eq(c.dram, (uint32_t)p.dram_cycles);
  ck_assert_uint_eq(c.barrier, (uint32_t)p.barrier_cycles);
  /* a warp of 32 over a pipe of L lanes per sub-partition issues every 32 / L cycles */
  ck_assert_uint_eq(c.i_fp32, (uint32_t)(32 / p.fp32_lanes));
  ck_assert_uint_eq(c.i_int, (uint32_t)(32 / p.int_lanes));
  ck_assert_uint_eq(c.i_fp64, (uint32_t)(32 / p.fp64_lanes));
  ck_assert_uint_eq(c.i_sfu, (uint32_t)(32 / p.sfu_lanes));

  struct ptx_module m;
  struct ptx_error e;
  ck_assert_msg(ptx_parse(k_classify, strlen(k_classify), &m, &e) == PTX_OK, "line %u: %s",
                e.line, e.msg);
  ck_assert_uint_eq(m.ninsts, 20);
  struct tm_op o[20];
  for (unsigned i = 0; i < m.ninsts; i++)
    tm_classify(&c, &m.insts[i], &o[i]);
  const struct ptx_inst *in = m.insts;
#define REG(i, k) in[i].opd[k].reg

  /* fma.rn.f32: the FP32 pipe, the profile's latency, one warp per cycle; writes its
     destination, reads its three operands */
  ck_assert_uint_eq(o[1].cls, TM_C_FIXED);
  ck_assert_uint_eq(o[1].pipe, TM_PIPE_FP32);
  ck_assert_uint_eq(o[1].latency, (uint32_t)p.fma_cycles);
  ck_assert_uint_eq(o[1].interval, 1);
  ck_assert_uint_eq(o[1].ndst, 1);
  ck_assert_uint_eq(o[1].dst[0], REG(1, 0));
  ck_assert_uint_eq(o[1].nsrc, 3);
  for (int k = 1; k <= 3; k++)
    ck_assert(has(o[1].src, o[1].nsrc, REG(1, k)));
  ck_assert(!has(o[1].src, o[1].nsrc, REG(1, 0)));

  /* ld.global: a load on the LSU whose readers wait on the long scoreboard; it reads its
     address's base register */
  ck_assert_uint_eq(o[2].cls, TM_C_LOAD);
  ck_assert_uint_eq(o[2].pipe, TM_PIPE_LSU);
  ck_assert_uint_eq(o[2].dep, TM_DEP_LONG);
  ck_assert_uint_eq(o[2].ndst, 1);
  ck_assert_uint_eq(o[2].dst[0], REG(2, 0));
  ck_assert_uint_eq(o[2].nsrc, 1);
  ck_assert_uint_eq(o[2].src[0], REG(2, 1));
  /* ld.shared and a generic ld are the same kind of op: the path (and so the latency and
     the scoreboard) is the trace's, per execution */
  for (int i = 3; i <= 4; i++) {
    ck_assert_uint_eq(o[i].cls, TM_C_LOAD);
    ck_assert_uint_eq(o[i].pipe, TM_PIPE_LSU);
    ck_assert_uint_eq(o[i].nsrc, 1);
    ck_assert_uint_eq(o[i].src[0], REG(i, 1));
  }
  /* ld.param: a fixed, short latency */
  ck_assert_uint_eq(o[0].cls, TM_C_FIXED);
  ck_assert_uint_eq(o[0].ndst, 1);
  ck_assert_uint_eq(o[0].nsrc, 0);

  /* stores write no register and read the address base and the value(s) */
  ck_assert_uint_eq(o[5].cls, TM_C_STORE);
  ck_assert_uint_eq(o[5].ndst, 0);
  ck_assert_uint_eq(o[5].nsrc, 2);
  ck_assert(has(o[5].src, 2, REG(5, 0)) && has(o[5].src, 2, REG(5, 1)));
  ck_assert_uint_eq(o[6].cls, TM_C_STORE);
  ck_assert_uint_eq(o[6].ndst, 0);
  ck_assert_uint_eq(o[6].nsrc, 5);
  ck_assert(has(o[6].src, 5, REG(6, 0)));
  for (int k = 0; k < 4; k++)
    ck_assert(has(o[6].src, 5, in[6].opd[1].vreg[k]));
  /* a vector load writes all four */
  ck_assert_uint_eq(o[7].ndst, 4);
  for (int k = 0; k < 4; k++)
    ck_assert(has(o[7].dst, 4, in[7].opd[0].vreg[k]));
  ck_assert_uint_eq(o[7].nsrc, 1);

  /* setp writes its predicate; a guarded instruction reads its guard */
  ck_assert_uint_eq(o[8].ndst, 1);
  ck_assert_uint_eq(o[8].dst[0], REG(8, 0));
  ck_assert_uint_eq(o[8].nsrc, 2);
  ck_assert_uint_eq(o[17].ndst, 2);                      /* %p2|%p3 */
  ck_assert(has(o[17].dst, 2, in[17].opd[0].reg) && has(o[17].dst, 2, in[17].opd[0].pair));
  ck_assert(has(o[9].src, o[9].nsrc, in[9].guard));
  ck_assert(has(o[9].src, o[9].nsrc, REG(9, 1)));
  ck_assert_uint_eq(o[9].nsrc, 2);                       /* the immediate reads nothing */
  ck_assert_uint_eq(o[9].pipe, TM_PIPE_INT);
  ck_assert_uint_eq(o[9].latency, (uint32_t)p.alu_cycles);
  ck_assert_uint_eq(o[9].interval, (uint32_t)(32 / p.int_lanes));
  ck_assert_uint_eq(o[18].nsrc, 1);
  ck_assert_uint_eq(o[18].pipe, TM_PIPE_FP32);

  /* bar.sync is a barrier writing nothing; a guarded branch reads its predicate */
  ck_assert_uint_eq(o[10].cls, TM_C_BARRIER);
  ck_assert_uint_eq(o[10].ndst, 0);
  ck_assert_uint_eq(o[11].cls, TM_C_BRANCH);
  ck_assert_uint_eq(o[11].ndst, 0);
  ck_assert_uint_eq(o[11].nsrc, 1);
  ck_assert_uint_eq(o[11].src[0], in[11].guard);

  /* FP64, SFU and shuffle: their pipes, latencies and issue intervals from the profile */
  ck_assert_uint_eq(o[12].pipe, TM_PIPE_FP64);
  ck_assert_uint_eq(o[12].latency, (uint32_t)p.fp64_cycles);
  ck_assert_uint_eq(o[12].interval, (uint32_t)(32 / p.fp64_lanes));
  ck_assert_uint_eq(o[13].pipe, TM_PIPE_SFU);
  ck_assert_uint_eq(o[13].dep, TM_DEP_SHORT);
  ck_assert_uint_eq(o[13].latency, (uint32_t)p.sfu_cycles);
  ck_assert_uint_eq(o[13].interval, (uint32_t)(32 / p.sfu_lanes));
  ck_assert_uint_eq(o[14].cls, TM_C_SHFL);
  ck_assert_uint_eq(o[14].dep, TM_DEP_SHORT);
  ck_assert_uint_eq(o[14].latency, (uint32_t)p.shfl_cycles);
  ck_assert_uint_eq(o[14].ndst, 1);
  ck_assert_uint_eq(o[14].dst[0], REG(14, 0));

  /* an atomic with a result writes it; a reduction writes nothing */
  ck_assert_uint_eq(o[15].cls, TM_C_ATOM);
  ck_assert_uint_eq(o[15].ndst, 1);
  ck_assert(has(o[15].src, o[15].nsrc, REG(15, 1)) && has(o[15].src, o[15].nsrc, REG(15, 2)));
  ck_assert_uint_eq(o[16].cls, TM_C_RED);
  ck_assert_uint_eq(o[16].ndst, 0);
  ck_assert_uint_eq(o[16].nsrc, 2);
  ck_assert_uint_eq(o[19].cls, TM_C_BRANCH);           /* ret */
#undef REG
  ptx_module_free(&m);
}
END_TEST

/* ---------------------------------------------------------------------------------------
 * tm_sm_run on a hand-made trace: block dispatch
 * ------------------------------------------------------------------------------------- */

/* Blocks of one warp running one instruction, one block slot: block j starts when block
   j-1 has ended (one cycle after it started) and the slot has taken block_launch_cycles,
   so at j * (1 + block_launch). With two slots the first two start together, as far as the
   block scheduler allows: block_dispatch cycles apart. */
START_TEST(test_sm_dispatch)
{
  struct occ_profile p = h200();
  struct tm_sm_in in;
  memset(&in, 0, sizeof in);
  tm_costs_init(&in.costs, &p, 32);
  in.warps_per_block = 1;
  in.nregs = 1;
  in.grid_blocks = 1;                   /* one busy SM: the block scheduler is all its own */
  in.sm_count = 1;
  in.sms_used = 1;
  in.l1_bytes = 64 * 1024;
  in.l2_slice_bytes = 1 << 20;
  in.l2_bytes_per_cycle = in.dram_bytes_per_cycle = 64;
  struct tm_op op;
  memset(&op, 0, sizeof op);
  op.cls = TM_C_EXIT;
  op.pipe = TM_PIPE_CBU;
  op.latency = op.interval = 1;
  enum { NB = 5 };
  struct sim_tev ev[NB];
  struct sim_tblock blk[NB];
  memset(ev, 0, sizeof ev);
  memset(blk, 0, sizeof blk);
  for (int j = 0; j < NB; j++) {
    ev[j].lanes = 32;
    blk[j].linear = (uint32_t)j;
    blk[j].ev = &ev[j];
    blk[j].nev = 1;
  }
  struct tm_sm_out out;
  in.blocks_per_sm = 1;
  ck_assert_int_eq(tm_sm_run(&in, &op, blk, NB, &out), 0);
  for (int j = 0; j < NB; j++)
    ck_assert_int_eq(out.block_start[j], (int64_t)j * (1 + p.block_launch_cycles));
  ck_assert_uint_eq(out.issued, NB);
  ck_assert_int_eq(out.stuck, 0);
  tm_sm_out_free(&out);

  in.blocks_per_sm = 2;
  ck_assert_int_eq(tm_sm_run(&in, &op, blk, NB, &out), 0);
  ck_assert_int_eq(out.block_start[0], 0);
  ck_assert_int_eq(out.block_start[1], (int64_t)ceil(p.block_dispatch_cycles));
  ck_assert_int_ge(out.block_start[2], 1 + p.block_launch_cycles);
  tm_sm_out_free(&out);
}
END_TEST

/* ---------------------------------------------------------------------------------------
 * The plan
 * ------------------------------------------------------------------------------------- */

START_TEST(test_plan)
{
  struct occ_profile p = h200();
  struct tm_plan plan;
  uint32_t n = (uint32_t)p.sm_count;
  ck_assert_uint_eq(n, 132);
  /* 128 threads at the assumed 32 registers: warps allow 64 / 4 = 16 blocks, registers
     65536 / (32 x 128) = 16, block slots 32 */
  struct tm_kernel k = {.grid_blocks = 3 * n + 1, .block_threads = 128};
  ck_assert_int_eq(tm_plan(&p, &k, &plan), 0);
  ck_assert_int_eq(plan.ok, 1);
  ck_assert_uint_eq(plan.blocks_per_sm, 16);
  ck_assert_uint_eq(plan.sm0_blocks, 4);                 /* blocks 0, 132, 264, 396 */
  ck_assert_uint_eq(plan.trace_every, n);
  ck_assert_uint_eq(plan.trace_blocks, 4);
  ck_assert_uint_eq(plan.sms_used, n);
  /* 16 blocks x 1 KB reserved = 16 KB of shared memory, a carveout the h200 has: the other
     256 - 16 KB of the SM's L1/shared storage is L1 */
  ck_assert_uint_eq(plan.l1_bytes, (uint32_t)p.l1_bytes - 16 * 1024);
  /* 40 KB of dynamic shared memory: 228 / 41 = 5 blocks, 205 KB, in the 228 KB carveout */
  k.dyn_smem = 40 * 1024;
  ck_assert_int_eq(tm_plan(&p, &k, &plan), 0);
  ck_assert_uint_eq(plan.blocks_per_sm, 5);
  ck_assert_uint_eq(plan.l1_bytes, (uint32_t)p.l1_bytes - 228 * 1024);
  k.dyn_smem = 0;

  /* a grid smaller than the GPU: as many SMs as blocks, one block each */
  k.grid_blocks = 10;
  ck_assert_int_eq(tm_plan(&p, &k, &plan), 0);
  ck_assert_uint_eq(plan.sms_used, 10);
  ck_assert_uint_eq(plan.sm0_blocks, 1);
  ck_assert_uint_eq(plan.trace_blocks, 1);
  k.grid_blocks = n + 1;
  ck_assert_int_eq(tm_plan(&p, &k, &plan), 0);
  ck_assert_uint_eq(plan.sm0_blocks, 2);

  /* a long grid: SM 0 runs 200 blocks; at least one wave of them, and not all, is recorded */
  k.grid_blocks = 200 * n;
  ck_assert_int_eq(tm_plan(&p, &k, &plan), 0);
  ck_assert_uint_eq(plan.sm0_blocks, 200);
  ck_assert_uint_ge(plan.trace_blocks, plan.blocks_per_sm);
  ck_assert_uint_lt(plan.trace_blocks, plan.sm0_blocks);

  /* more shared memory than a block may have: no model, and a note saying so */
  k.grid_blocks = 8;
  k.static_smem = 240 * 1024;
  tm_plan(&p, &k, &plan);
  ck_assert_int_eq(plan.ok, 0);
  ck_assert_ptr_nonnull(strstr(plan.note, "no timing model"));
  /* an empty grid is an impossible input */
  k.static_smem = 0;
  k.grid_blocks = 0;
  ck_assert_int_eq(tm_plan(&p, &k, &plan), -1);
  ck_assert_int_eq(plan.ok, 0);
  ck_assert_uint_gt(strlen(plan.note), 0);
}
END_TEST

/* The plan's recording on a real grid: the emulator records one block of each wave of 132
   (sim_trace_block), and a grid of just as many alike blocks gives the model the same trace,
   so the same figures. */
START_TEST(test_alike_trace_equals_grid_trace)
{
  char *ptx = fma_ptx(2, 16, 0);
  struct model x;
  model_load(&x, ptx, 4096);
  uint32_t grid = 3 * 132 + 1;
  model_run(&x, "fma", grid, 64, grid);
  ck_assert_uint_eq(x.r.trace.nblk, 4);
  for (uint32_t i = 0; i < 4; i++) {
    ck_assert_uint_eq(x.r.trace.blk[i].linear, sim_trace_block(i, 132, grid));
    ck_assert_uint_ge(x.r.trace.blk[i].linear, 132 * i);
    ck_assert_uint_lt(x.r.trace.blk[i].linear, i < 3 ? 132 * (i + 1) : grid);
    ck_assert_uint_eq(x.r.trace.blk[i].nev, 2 * (2 + 2 + 2 * 16 + 1));
    ck_assert_int_eq(x.r.trace.blk[i].truncated, 0);
  }
  ck_assert_uint_eq(x.rep.blocks_sm0, 4);
  ck_assert_uint_eq(x.rep.blocks_modelled, 4);
  ck_assert_ptr_nonnull(strstr(x.rep.how, "4 blocks"));
  double whole = x.rep.cycles;
  model_run(&x, "fma", grid, 64, 4);
  ck_assert_double_eq(x.rep.cycles, whole);
  model_free(&x);
  free(ptx);
}
END_TEST

/* Atomics: every thread adds 1 to a word of the buffer, 16 times. "same" names one word for
   the whole grid, "spread" a word of its own, "atomf" float adds to the one word. */
static char *atomics_ptx(void)
{
  struct text t = {0};
  put(&t, HDR);
  static const char *const entry[3] = {"same", "spread", "atomf"};
  for (int k = 0; k < 3; k++) {
    put(&t, ".visible .entry %s(.param .u64 buf)\n{\n"
            "  .reg .b32 %%r<4>;\n  .reg .b64 %%rd<4>;\n  .reg .f32 %%f<2>;\n"
            "  ld.param.u64 %%rd1, [buf];\n  cvta.to.global.u64 %%rd1, %%rd1;\n", entry[k]);
    if (k == 1)
      put(&t, "  mov.u32 %%r1, %%ctaid.x;\n  mov.u32 %%r2, %%ntid.x;\n  mov.u32 %%r3, %%tid.x;\n"
              "  mad.lo.s32 %%r1, %%r1, %%r2, %%r3;\n  mul.wide.u32 %%rd2, %%r1, 128;\n"
              "  add.s64 %%rd1, %%rd1, %%rd2;\n");
    for (int i = 0; i < 16; i++)
      put(&t, k == 2 ? "  red.global.add.f32 [%%rd1], 0f3F800000;\n"
                     : "  red.global.add.u32 [%%rd1], 1;\n");
    put(&t, "  ret;\n}\n");
  }
  return t.s;
}

/* The L2's atomic unit (bench/timing/atomics on an H100): a grid's updates of one address are
   done one after another there, at 1.45 cycles each (3.47 for float adds), whatever SM they
   come from; updates of words of their own are not. So 132 x 4 blocks of 256 threads adding
   16 times to one word take about 2^21 x 1.45 cycles; to words of their own, far less. */
START_TEST(test_atomic_unit)
{
  char *ptx = atomics_ptx();
  struct model x;
  model_load(&x, ptx, 132u * 4 * 256 * 128);
  model_run(&x, "same", 132 * 4, 256, 132 * 4);
  double same = x.rep.cycles;
  model_run(&x, "spread", 132 * 4, 256, 132 * 4);
  double spread = x.rep.cycles;
  model_run(&x, "atomf", 132 * 4, 256, 132 * 4);
  double atomf = x.rep.cycles;
  double updates = 132.0 * 4 * 256 * 16;
  ck_assert_msg(same > 0.8 * updates * x.p.atom_same_int_cycles &&
                same < 1.25 * updates * x.p.atom_same_int_cycles,
                "one address: %.0f cycles for %.0f updates", same, updates);
  ck_assert_msg(atomf > 2 * same, "float adds %.0f cycles, integer %.0f", atomf, same);
  ck_assert_msg(spread * 5 < same, "own words %.0f cycles, one word %.0f", spread, same);
  model_free(&x);
  free(ptx);
}
END_TEST

/* The simulated SM's k-th block is one of the k-th wave's, spread over the wave by a hash:
   not always the wave's first (work moved off every 132nd block would leave the simulated
   SM idle), the same in every call, and inside a short last wave. */
START_TEST(test_trace_block_choice)
{
  uint32_t firsts = 0, seen[132] = {0};
  for (uint32_t k = 0; k < 1000; k++) {
    uint32_t b = sim_trace_block(k, 132, 132 * 1000);
    ck_assert_uint_ge(b, 132 * k);
    ck_assert_uint_lt(b, 132 * (k + 1));
    ck_assert_uint_eq(b, sim_trace_block(k, 132, 132 * 1000));
    firsts += b == 132 * k;
    seen[b - 132 * k]++;
  }
  ck_assert_uint_lt(firsts, 30);                /* about 1000 / 132 by chance */
  uint32_t used = 0;
  for (int i = 0; i < 132; i++)
    used += seen[i] > 0;
  ck_assert_uint_gt(used, 100);                 /* spread over the wave */
  ck_assert_uint_eq(sim_trace_block(5, 132, 5 * 132 + 1), 5 * 132);  /* a one-block last wave */
  ck_assert_uint_lt(sim_trace_block(5, 132, 5 * 132 + 7), 5 * 132 + 7);
}
END_TEST

/* ---------------------------------------------------------------------------------------
 * The grid's blocks over all SMs (tm_dispatch.c)
 * ------------------------------------------------------------------------------------- */

/* Greedy dispatch, worked by hand: each block, in index order, takes the slot that frees
   first. Two SMs of one slot, block 0 four times as long as the others: SM 1 runs blocks 1
   to 4 while SM 0 runs block 0, so the grid ends at 4 (round robin, SM 0 running blocks 0,
   2 and 4, would end at 6). */
START_TEST(test_dispatch_makespan)
{
  double m;
  const double uneven[] = {4, 1, 1, 1, 1};
  ck_assert_int_eq(tm_dispatch_makespan(uneven, 0, 5, 2, 1, 0, &m), 0);
  ck_assert_double_eq(m, 4);
  /* two SMs of two slots: blocks 0-3 end at 1, 4-6 at 2, and the long last one at 1 + 10 */
  const double tail[] = {1, 1, 1, 1, 1, 1, 1, 10};
  ck_assert_int_eq(tm_dispatch_makespan(tail, 0, 8, 2, 2, 0, &m), 0);
  ck_assert_double_eq(m, 11);
  /* the block scheduler: one block every 5 cycles, so the third starts at 10 */
  ck_assert_int_eq(tm_dispatch_makespan(NULL, 1, 3, 1, 4, 5, &m), 0);
  ck_assert_double_eq(m, 11);
  /* alike blocks: the same as every block given the uniform cost; ceil(G / slots) rounds */
  double same[1000], mu;
  for (int i = 0; i < 1000; i++)
    same[i] = 7;
  ck_assert_int_eq(tm_dispatch_makespan(same, 0, 1000, 132, 2, 0, &m), 0);
  ck_assert_int_eq(tm_dispatch_makespan(NULL, 7, 1000, 132, 2, 0, &mu), 0);
  ck_assert_double_eq(m, mu);
  ck_assert_double_eq(m, 7 * 4);                /* 1000 blocks on 264 slots: 4 rounds */
  ck_assert_int_eq(tm_dispatch_makespan(NULL, 1, 3, 0, 4, 0, &m), -1);   /* no slots */
}
END_TEST

/* A made-up trace of a grid of 132 x 8 blocks, one at a time on an SM: its k-th replayed
   block the k-th wave's first, each replayed block `dur` cycles long; work[] the per-block
   totals the trace has, nwork of them (the grid's blocks, or not). Returns the ratio. */
static double dispatch_ratio_of(const struct sim_bwork *work, uint32_t nwork, int64_t dur)
{
  const uint32_t grid = 132 * 8;
  enum { WAVES = 8 };
  struct sim_tblock blk[WAVES];
  int64_t start[WAVES], end[WAVES];
  memset(blk, 0, sizeof blk);
  for (uint32_t k = 0; k < WAVES; k++) {
    blk[k].linear = 132 * k;
    start[k] = dur * (int64_t)k;
    end[k] = start[k] + dur;
  }
  struct sim_trace tr = {.blk = blk, .nblk = WAVES, .work = (struct sim_bwork *)work,
                         .nwork = nwork};
  struct tm_dispatch_in in = {.grid_blocks = grid, .sm_count = 132, .blocks_per_sm = 1,
                              .dispatch = 1, .block_launch = 100, .sector_cycles = 2};
  double ratio = 0;
  ck_assert_int_eq(tm_dispatch_ratio(&in, &tr, start, end, &ratio), 0);
  return ratio;
}

/* Blocks alike: the replay stands (exactly 1). The work of every 132nd block (the replayed
   ones) moved to its neighbour: the replayed blocks were short, the others are not, and
   the neighbours hold their SMs twice as long, so the grid is more than twice as long as
   the replayed blocks say. Half of each wave's blocks twice as heavy as the replayed
   ones: about 1.33 times (the mean work, 1.5 times the replayed blocks', with the fixed
   part of each block's time). Without per-block totals for this grid: 1. Each replayed
   block lasts 100 cycles (its launch) plus its work at one unit a cycle. */
START_TEST(test_dispatch_ratio)
{
  enum { G = 132 * 8 };
  static struct sim_bwork w[G];
  for (uint32_t b = 0; b < G; b++)
    w[b] = (struct sim_bwork){.warp_insts = 400, .sectors = 100};   /* 200 units */
  ck_assert_double_eq(dispatch_ratio_of(w, G, 200), 1);
  for (uint32_t b = 0; b < G; b += 132) {
    w[b] = (struct sim_bwork){.warp_insts = 8};                     /* 2 units */
    w[b + 1] = (struct sim_bwork){.warp_insts = 800, .sectors = 200};
  }
  double shifted = dispatch_ratio_of(w, G, 2);
  ck_assert_msg(shifted >= 2, "work moved off the replayed blocks: x%.3f", shifted);
  for (uint32_t b = 0; b < G; b++)
    w[b] = (struct sim_bwork){.warp_insts = 400, .sectors = b % 132 >= 66 ? 200 : 100};
  double heavy = dispatch_ratio_of(w, G, 200);
  ck_assert_msg(heavy > 1.25 && heavy < 1.45, "half the blocks twice as heavy: x%.3f", heavy);
  ck_assert_double_eq(dispatch_ratio_of(w, G - 1, 200), 1);   /* another grid's totals */
  ck_assert_double_eq(dispatch_ratio_of(NULL, 0, 200), 1);
}
END_TEST

/* The emulator's per-block totals: one for every block of the grid, adding up to the
   launch's warp-instructions; alike blocks leave the replay's time as it is. */
START_TEST(test_block_work_recorded)
{
  char *k = fma_ptx(1, 8, 0);
  struct model x;
  model_load(&x, k, 4096);
  model_run(&x, "fma", 300, 64, 300);
  ck_assert_uint_eq(x.r.trace.nwork, 300);
  uint64_t sum = 0;
  for (uint32_t b = 0; b < 300; b++) {
    ck_assert_uint_eq(x.r.trace.work[b].warp_insts, x.r.trace.work[0].warp_insts);
    sum += x.r.trace.work[b].warp_insts;
  }
  ck_assert_uint_eq(sum, x.r.counters.warp_insts);
  ck_assert_double_eq(x.rep.dispatch_ratio, 1);
  model_free(&x);
  free(k);
}
END_TEST

/* ---------------------------------------------------------------------------------------
 * End to end: arithmetic
 * ------------------------------------------------------------------------------------- */

#define CHAIN 1024

/* One warp, one chain of N dependent FMAs: each waits fma_cycles for the one before, so
   about N x fma_cycles, plus a few cycles of set-up. Four interleaved chains issue one FMA
   a cycle: four times the work in about the same time. Eight chains double it. */
START_TEST(test_fma_chains)
{
  struct occ_profile p = h200();
  const double N = CHAIN, fma = p.fma_cycles;
  char *k1 = fma_ptx(1, CHAIN, 0), *k4 = fma_ptx(4, CHAIN, 0), *k8 = fma_ptx(8, CHAIN, 0);
  struct model x;
  model_load(&x, k1, 4096);
  model_run(&x, "fma", 1, 32, 1);
  /* the trace holds every warp-instruction the emulator ran */
  ck_assert_uint_eq(x.r.trace.blk[0].nev, x.r.counters.warp_insts);
  ck_assert_uint_eq(x.r.counters.warp_insts, 2 + 1 + CHAIN + 1);
  double c1 = x.rep.cycles;
  ck_assert_double_ge(c1, (N - 1) * fma + 1);
  ck_assert_double_le(c1, N * fma + 16);
  /* one warp of the SM's 64 resident the whole time */
  ck_assert_double_eq_tol(x.rep.achieved_occupancy_pct, 100.0 / p.max_warps_per_sm, 1e-9);
  /* one scheduler of four issuing once every fma_cycles */
  ck_assert_double_eq_tol(x.rep.issue_active_pct, 100.0 / (4 * fma), 0.1);
  /* each FMA waits fma_cycles - 1 for its operand: "wait"; and the states of the one warp
     add up to its cycles */
  double issued = (double)x.r.counters.warp_insts;
  ck_assert_double_eq_tol(x.rep.stall[TM_STALL_WAIT], fma - 1, 0.05);
  ck_assert_double_eq_tol(x.rep.stall[TM_STALL_SELECTED], 1, 1e-9);
  ck_assert_double_eq_tol(stall_sum(&x.rep) * issued, c1, 2);
  ck_assert_double_eq(x.rep.stall[TM_STALL_LONG_SB], 0);
  ck_assert_double_eq(x.rep.stall[TM_STALL_BARRIER], 0);
  /* time: the cycles at the profile's clock, plus the launch */
  ck_assert_double_eq_tol(x.rep.time_ns, c1 / p.sm_clock_mhz * 1e3 + p.launch_overhead_ns, 1e-6);
  model_free(&x);

  double c4 = one_block_cycles(k4, "fma", 32);
  ck_assert_double_ge(c4, 4 * N);                       /* 4N FMAs at one a cycle at best */
  ck_assert_double_le(c4, 4 * N + 24);
  ck_assert_double_eq_tol(c4 / c1, 1, 0.03);
  double c8 = one_block_cycles(k8, "fma", 32);
  ck_assert_double_ge(c8, 8 * N);
  ck_assert_double_eq_tol(c8 / c4, 2, 0.03);
  free(k1);
  free(k4);
  free(k8);
}
END_TEST

/* Warps spread over the four schedulers (warp slot mod 4). A dependent chain leaves each
   scheduler idle fma_cycles - 1 cycles in fma_cycles: up to fma_cycles warps per scheduler
   hide the latency (4 or 16 warps take one warp's time), twice that take twice as long.
   Independent chains issue every cycle already: 8 warps (2 per scheduler) take twice the
   time of 4. */
START_TEST(test_warps_per_scheduler)
{
  struct occ_profile p = h200();
  ck_assert_int_eq(p.fma_cycles, 4);                    /* the warp counts below assume it */
  char *k1 = fma_ptx(1, CHAIN, 0), *k4 = fma_ptx(4, CHAIN, 0);
  double one = one_block_cycles(k1, "fma", 32);
  double w4 = one_block_cycles(k1, "fma", 4 * 32);
  double w16 = one_block_cycles(k1, "fma", 16 * 32);
  double w32 = one_block_cycles(k1, "fma", 32 * 32);
  ck_assert_double_eq_tol(w4, one, 8);
  ck_assert_double_eq_tol(w16 / one, 1, 0.03);
  ck_assert_double_ge(w32, 8.0 * CHAIN);                /* 8 warps' FMAs on each scheduler */
  ck_assert_double_eq_tol(w32 / one, 2, 0.05);
  double i4 = one_block_cycles(k4, "fma", 4 * 32);
  double i8 = one_block_cycles(k4, "fma", 8 * 32);
  ck_assert_double_eq_tol(i8 / i4, 2, 0.05);
  free(k1);
  free(k4);
}
END_TEST

/* Warp 0 runs a chain before __syncthreads(); warps 1-3 wait there. The block cannot end
   before the chain has and the barrier has let it go; the three waiting warps spend the
   chain's time in "barrier". */
START_TEST(test_barrier)
{
  struct occ_profile p = h200();
  const double N = CHAIN, fma = p.fma_cycles;
  char *k = fma_ptx(1, CHAIN, 1);
  struct model x;
  model_load(&x, k, 4096);
  model_run(&x, "fma", 1, 128, 1);
  double c = x.rep.cycles;
  ck_assert_double_ge(c, (N - 1) * fma + p.barrier_cycles);
  ck_assert_double_le(c, N * fma + p.barrier_cycles + 48);
  double issued = (double)x.r.counters.warp_insts;
  ck_assert_double_ge(x.rep.stall[TM_STALL_BARRIER] * issued, 3 * (N - 1) * fma);
  model_free(&x);
  free(k);
}
END_TEST

/* A named barrier with a thread count (bar.sync 1, 64) holds only the threads it names:
   warps 0-1 meet there while warps 2-3 never do, and each warp has 2n dependent FMAs, so
   the block takes about 2n x fma_cycles plus the barrier. (The model once treated every
   bar.sync as __syncthreads() and gave about 3n x fma_cycles.) */
START_TEST(test_named_barrier)
{
  struct occ_profile p = h200();
  const double N = CHAIN, fma = p.fma_cycles;
  char *k = named_barrier_ptx(CHAIN);
  double c = one_block_cycles(k, "named", 128);
  ck_assert_double_ge(c, 2 * (N - 1) * fma);
  ck_assert_msg(c <= 2 * N * fma + p.barrier_cycles + 48,
                "%.0f cycles: warps 0-1 waited at bar.sync 1, 64 for warps 2-3 (expected at "
                "most %.0f)", c, 2 * N * fma + p.barrier_cycles + 48);
  free(k);
}
END_TEST

/* ---------------------------------------------------------------------------------------
 * End to end: memory
 * ------------------------------------------------------------------------------------- */

#define STEPS 64

/* p = p + *p over one word, one warp. Through shared memory each step costs the shared
   load's latency plus the add's; through global memory the first load goes to DRAM and the
   rest hit the L1. A generic load that reaches shared memory costs what ld.shared does. */
START_TEST(test_load_chains)
{
  struct occ_profile p = h200();
  const double N = STEPS, alu = p.alu_cycles;
  char *k = chase_ptx(STEPS);
  struct model x;
  model_load(&x, k, 4096);

  model_run(&x, "schase", 1, 32, 1);
  double shared = x.rep.cycles;
  /* every lane reads the same 8-byte word: one broadcast wavefront (sim_stats.c), whose
     data is back smem_cycles after it */
  uint64_t req = 0, waves = 0;
  for (uint32_t i = 0; i < x.r.nstats; i++) {
    req += x.r.stats[i].s_req;
    waves += x.r.stats[i].s_wavefronts;
  }
  ck_assert_uint_eq(req, STEPS);
  ck_assert_uint_eq(waves, STEPS);
  double step = p.smem_cycles + alu;
  /* from the first load's issue to the last add's: (N - 1) steps and a load */
  ck_assert_double_gt(shared, (N - 1) * step + p.smem_cycles);
  ck_assert_double_le(shared, N * step + 16);
  ck_assert_double_gt(x.rep.stall[TM_STALL_SHORT_SB], x.rep.stall[TM_STALL_WAIT]);
  ck_assert_double_eq(x.rep.stall[TM_STALL_LONG_SB], 0);
  ck_assert_double_eq(x.rep.dram_bytes, 0);

  model_run(&x, "gschase", 1, 32, 1);
  ck_assert_double_ge(x.rep.cycles, shared);            /* one set-up instruction more (cvta) */
  ck_assert_double_le(x.rep.cycles, shared + p.alu_cycles);
  ck_assert_double_eq(x.rep.stall[TM_STALL_LONG_SB], 0);

  model_run(&x, "gchase", 1, 32, 1);
  double global = x.rep.cycles, first = p.dram_cycles + alu, rest = (N - 1) * (p.l1_hit_cycles + alu);
  ck_assert_double_gt(global, first + rest - alu);
  ck_assert_double_le(global, first + rest + 24);
  ck_assert_double_gt(x.rep.stall[TM_STALL_LONG_SB], x.rep.stall[TM_STALL_WAIT]);
  ck_assert_double_eq(x.rep.stall[TM_STALL_SHORT_SB], 0);
  /* one sector asked for STEPS times: one miss in the L1 (and the L2), then hits; one 32-byte
     sector from DRAM */
  ck_assert_double_eq_tol(x.rep.l1_hit_pct, 100.0 * (N - 1) / N, 1e-9);
  ck_assert_double_eq(x.rep.l2_hit_pct, 0);
  ck_assert_double_eq(x.rep.dram_bytes, 32);
  model_free(&x);
  free(k);
}
END_TEST

/* Two loads of different lines, both DRAM misses, with the first one's value used between
   them in PTX order. ptxas issues a load as early as its address allows, so the machine code
   has both in flight at once ("early": one DRAM latency), unless the second load's address
   comes from the first ("dependent") or a store stands between them ("store"): two. */
static const char issue_order_ptx[] = HDR
  ".visible .entry early(.param .u64 buf, .param .u64 out)\n{\n"
  "  .reg .b32 %r<6>;\n  .reg .b64 %rd<4>;\n"
  "  ld.param.u64 %rd1, [buf];\n"
  "  ld.global.u32 %r1, [%rd1];\n"
  "  add.u32 %r2, %r1, 1;\n"
  "  ld.global.u32 %r3, [%rd1+2048];\n"
  "  add.u32 %r4, %r3, %r2;\n"
  "  ret;\n}\n"
  ".visible .entry dependent(.param .u64 buf, .param .u64 out)\n{\n"
  "  .reg .b32 %r<6>;\n  .reg .b64 %rd<4>;\n"
  "  ld.param.u64 %rd1, [buf];\n"
  "  ld.global.u32 %r1, [%rd1];\n"
  "  cvt.u64.u32 %rd2, %r1;\n"
  "  add.s64 %rd3, %rd1, %rd2;\n"
  "  ld.global.u32 %r3, [%rd3+2048];\n"
  "  add.u32 %r4, %r3, %r1;\n"
  "  ret;\n}\n"
  ".visible .entry store(.param .u64 buf, .param .u64 out)\n{\n"
  "  .reg .b32 %r<6>;\n  .reg .b64 %rd<4>;\n"
  "  ld.param.u64 %rd1, [buf];\n"
  "  ld.global.u32 %r1, [%rd1];\n"
  "  add.u32 %r2, %r1, 1;\n"
  "  st.global.u32 [%rd1+1024], %r2;\n"
  "  ld.global.u32 %r3, [%rd1+2048];\n"
  "  add.u32 %r4, %r3, %r2;\n"
  "  ret;\n}\n";

START_TEST(test_loads_issue_early)
{
  struct occ_profile p = h200();
  const double dram = p.dram_cycles;
  double early = one_block_cycles(issue_order_ptx, "early", 32);
  double dependent = one_block_cycles(issue_order_ptx, "dependent", 32);
  double store = one_block_cycles(issue_order_ptx, "store", 32);
  ck_assert_double_ge(early, dram);
  ck_assert_msg(early < 1.5 * dram, "early: %.0f cycles, two DRAM latencies (%.0f each)",
                early, dram);
  ck_assert_double_ge(dependent, 2 * dram);
  ck_assert_double_ge(store, 2 * dram);
}
END_TEST

/* A load whose address comes from arithmetic after the first load's use: in PTX order the
   address waits for the first load. With hoist_load_address the arithmetic moves up with
   the load, as ptxas schedules it (an unrolled loop's next address), and both loads are in
   flight at once; without it (the H200 profile), two DRAM latencies. */
static const char addr_order_ptx[] = HDR
  ".visible .entry addr(.param .u64 buf, .param .u64 out)\n{\n"
  "  .reg .b32 %r<6>;\n  .reg .b64 %rd<4>;\n"
  "  ld.param.u64 %rd1, [buf];\n"
  "  ld.global.u32 %r1, [%rd1];\n"
  "  add.u32 %r2, %r1, 1;\n"
  "  add.s64 %rd2, %rd1, 2048;\n"
  "  ld.global.u32 %r3, [%rd2];\n"
  "  add.u32 %r4, %r3, %r2;\n"
  "  ret;\n}\n";

/* Cycles of a one-block launch with profile p. */
static double one_block_cycles_p(const struct occ_profile *p, const char *ptx, const char *kernel,
                                 uint32_t threads, double *dram_bytes)
{
  struct model x;
  model_load(&x, ptx, 4096);
  x.p = *p;
  model_run(&x, kernel, 1, threads, 1);
  double c = x.rep.cycles;
  if (dram_bytes)
    *dram_bytes = x.rep.dram_bytes;
  model_free(&x);
  return c;
}

START_TEST(test_address_issues_early)
{
  struct occ_profile p = h200();
  const double dram = p.dram_cycles;
  ck_assert_int_eq(p.hoist_load_address, 0);
  double without = one_block_cycles_p(&p, addr_order_ptx, "addr", 32, NULL);
  p.hoist_load_address = 1;
  double with = one_block_cycles_p(&p, addr_order_ptx, "addr", 32, NULL);
  ck_assert_double_ge(without, 2 * dram);
  ck_assert_double_ge(with, dram);
  ck_assert_msg(with < 1.5 * dram, "with: %.0f cycles, two DRAM latencies (%.0f each)", with, dram);
}
END_TEST

/* The same with an address made by a chain of arithmetic (a clamped index: min, widen,
   scale, add), all of it after the first load's use in PTX order. ptxas computes the whole
   chain early (bench/timing/conv2d's 3x3 issues its nine rows' loads before the first FMA,
   by nvdisasm); moving only the last step of it up left the load waiting for the first
   load, two DRAM latencies (the 3x3 convolution modelled at twice the H100's time). */
static const char addr_chain_ptx[] = HDR
  ".visible .entry chain(.param .u64 buf, .param .u64 out)\n{\n"
  "  .reg .b32 %r<8>;\n  .reg .b64 %rd<6>;\n"
  "  ld.param.u64 %rd1, [buf];\n  mov.u32 %r5, %tid.x;\n"
  "  ld.global.u32 %r1, [%rd1];\n"
  "  add.u32 %r2, %r1, 1;\n"
  "  min.u32 %r6, %r5, 7;\n"
  "  add.u32 %r7, %r6, 512;\n"
  "  mul.wide.u32 %rd2, %r7, 4;\n"
  "  add.s64 %rd3, %rd1, %rd2;\n"
  "  ld.global.u32 %r3, [%rd3];\n"
  "  add.u32 %r4, %r3, %r2;\n"
  "  ret;\n}\n";

START_TEST(test_address_chain_issues_early)
{
  struct occ_profile p = h200();
  const double dram = p.dram_cycles;
  double without = one_block_cycles_p(&p, addr_chain_ptx, "chain", 32, NULL);
  p.hoist_load_address = 1;
  p.hoist_loads_sass = 1;     /* the sm_90 profiles: the whole chain moves */
  double with = one_block_cycles_p(&p, addr_chain_ptx, "chain", 32, NULL);
  ck_assert_double_ge(without, 2 * dram);
  ck_assert_double_ge(with, dram);
  ck_assert_msg(with < 1.5 * dram, "with: %.0f cycles, two DRAM latencies (%.0f each)", with, dram);
}
END_TEST

/* Two trips of a loop like a scalar SpMV row's: a column index, an x load whose address is
   made from it, a value; the second trip's loads independent of the first's. In issue
   order the second trip's index and value come first, then the first trip's (loads move up
   past loads), and each x load waits for its own index: two DRAM latencies. Moving the
   second x load's address chain up past the first trip's loads put it, waiting for its
   index, ahead of loads that wait for nothing: three (bench/timing/spmv's scalar rows 1.35x
   their time). */
static const char chain_order_ptx[] = HDR
  ".visible .entry trips(.param .u64 buf, .param .u64 out)\n{\n"
  "  .reg .b32 %r<16>;\n  .reg .b64 %rd<12>;\n"
  "  ld.param.u64 %rd1, [buf];\n"
  "  ld.global.u32 %r1, [%rd1];\n"
  "  and.b32 %r2, %r1, 63;\n"
  "  mul.wide.u32 %rd2, %r2, 4;\n"
  "  add.s64 %rd3, %rd1, %rd2;\n"
  "  ld.global.u32 %r3, [%rd3+1024];\n"
  "  ld.global.u32 %r4, [%rd1+2048];\n"
  "  add.u32 %r5, %r3, %r4;\n"
  "  ld.global.u32 %r6, [%rd1+2176];\n"
  "  and.b32 %r7, %r6, 63;\n"
  "  mul.wide.u32 %rd4, %r7, 4;\n"
  "  add.s64 %rd5, %rd1, %rd4;\n"
  "  ld.global.u32 %r8, [%rd5+3072];\n"
  "  ld.global.u32 %r9, [%rd1+2304];\n"
  "  add.u32 %r10, %r8, %r9;\n"
  "  add.u32 %r11, %r10, %r5;\n"
  "  ret;\n}\n";

START_TEST(test_address_chain_stays_below_loads)
{
  struct occ_profile p = h200();
  const double dram = p.dram_cycles;
  p.hoist_load_address = 1;
  p.hoist_loads_sass = 1;
  double c = one_block_cycles_p(&p, chain_order_ptx, "trips", 32, NULL);
  ck_assert_double_ge(c, 2 * dram);
  ck_assert_msg(c < 2.5 * dram, "%.0f cycles, three DRAM latencies (%.0f each)", c, dram);
}
END_TEST

/* A tile's fill as nvcc writes it, `x = 0; if (in) x = a[i]; s[j] = x` twice: in PTX order
   the second load waits behind the shared store of the first, which waits for its data, and
   behind a branch. ptxas predicates the branches and issues both loads before the stores
   (hoist_loads_sass): one DRAM latency, not two. Then eight shared loads, each used at once
   in PTX, which ptxas issues ahead of their uses: with the rule, about one shared-memory
   latency for the eight, not eight. */
static const char fill_order_ptx[] = HDR
  ".visible .entry fill(.param .u64 buf, .param .u64 out)\n{\n"
  "  .reg .pred %p<3>;\n  .reg .b32 %r<4>;\n  .reg .f32 %f<4>;\n  .reg .b64 %rd<3>;\n"
  "  .shared .align 4 .b8 s[64];\n"
  "  ld.param.u64 %rd1, [buf];\n  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, s;\n"
  "  setp.gt.u32 %p1, %r1, 1000;\n  mov.f32 %f1, 0f00000000;\n"
  "  @%p1 bra $L1;\n  ld.global.f32 %f1, [%rd1];\n"
  "$L1:\n  st.shared.f32 [%r2], %f1;\n"
  "  setp.gt.u32 %p2, %r1, 2000;\n  mov.f32 %f2, 0f00000000;\n"
  "  @%p2 bra $L2;\n  add.s64 %rd2, %rd1, 2048;\n  ld.global.f32 %f2, [%rd2];\n"
  "$L2:\n  st.shared.f32 [%r2+4], %f2;\n  ret;\n}\n"
  ".visible .entry uses(.param .u64 buf, .param .u64 out)\n{\n"
  "  .reg .b32 %r<4>;\n  .reg .f32 %f<20>;\n"
  "  .shared .align 4 .b8 s[64];\n  mov.u32 %r2, s;\n"
  "  ld.shared.f32 %f1, [%r2];\n  add.f32 %f11, %f1, %f1;\n"
  "  ld.shared.f32 %f2, [%r2+4];\n  add.f32 %f12, %f2, %f11;\n"
  "  ld.shared.f32 %f3, [%r2+8];\n  add.f32 %f13, %f3, %f12;\n"
  "  ld.shared.f32 %f4, [%r2+12];\n  add.f32 %f14, %f4, %f13;\n"
  "  ld.shared.f32 %f5, [%r2+16];\n  add.f32 %f15, %f5, %f14;\n"
  "  ld.shared.f32 %f6, [%r2+20];\n  add.f32 %f16, %f6, %f15;\n"
  "  ld.shared.f32 %f7, [%r2+24];\n  add.f32 %f17, %f7, %f16;\n"
  "  ld.shared.f32 %f8, [%r2+28];\n  add.f32 %f18, %f8, %f17;\n"
  "  ret;\n}\n";

START_TEST(test_fill_loads_issue_early)
{
  struct occ_profile p = h200();
  const double dram = p.dram_cycles, smem = p.smem_cycles;
  ck_assert_int_eq(p.hoist_loads_sass, 0);
  double without = one_block_cycles_p(&p, fill_order_ptx, "fill", 32, NULL);
  double uses_without = one_block_cycles_p(&p, fill_order_ptx, "uses", 32, NULL);
  p.hoist_loads_sass = 1;
  double with = one_block_cycles_p(&p, fill_order_ptx, "fill", 32, NULL);
  double uses_with = one_block_cycles_p(&p, fill_order_ptx, "uses", 32, NULL);
  ck_assert_double_ge(without, 2 * dram);
  ck_assert_double_ge(with, dram);
  ck_assert_msg(with < 1.5 * dram, "with: %.0f cycles, two DRAM latencies (%.0f each)", with, dram);
  ck_assert_double_ge(uses_without, 8 * smem);
  ck_assert_double_ge(uses_with, smem);
  ck_assert_msg(uses_with < 3 * smem, "uses: %.0f cycles, eight shared-memory latencies (%.0f each)",
                uses_with, smem);
}
END_TEST

/* An unrolled gather, `sum += x[col[j]]` three times (every load in a line of its own, the
   buffer's words 0, so x at 1024, 2048, 3072 bytes): ptxas issues the three col loads, then
   each x load when its col is there, two memory latencies in all. Lifting each x load's
   address arithmetic above the col loads before it (it waits for its own col) would hold
   those up: a latency more for each. */
static const char gather_order_ptx[] = HDR
  ".visible .entry gat(.param .u64 buf, .param .u64 out)\n{\n"
  "  .reg .b32 %r<12>;\n  .reg .f32 %f<8>;\n  .reg .b64 %rd<12>;\n"
  "  ld.param.u64 %rd1, [buf];\n"
  "  ld.global.u32 %r1, [%rd1];\n  and.b32 %r2, %r1, 255;\n  mul.wide.u32 %rd2, %r2, 4;\n"
  "  add.s64 %rd3, %rd1, %rd2;\n  ld.global.f32 %f1, [%rd3+1024];\n"
  "  ld.global.u32 %r3, [%rd1+256];\n  and.b32 %r4, %r3, 255;\n  mul.wide.u32 %rd4, %r4, 4;\n"
  "  add.s64 %rd5, %rd1, %rd4;\n  ld.global.f32 %f2, [%rd5+2048];\n"
  "  ld.global.u32 %r5, [%rd1+512];\n  and.b32 %r6, %r5, 255;\n  mul.wide.u32 %rd6, %r6, 4;\n"
  "  add.s64 %rd7, %rd1, %rd6;\n  ld.global.f32 %f3, [%rd7+3072];\n"
  "  add.f32 %f4, %f1, %f2;\n  add.f32 %f5, %f4, %f3;\n  ret;\n}\n";

START_TEST(test_gather_chains_wait_their_turn)
{
  struct occ_profile p = h200();
  const double dram = p.dram_cycles;
  p.hoist_loads_sass = 1;
  double c = one_block_cycles_p(&p, gather_order_ptx, "gat", 32, NULL);
  ck_assert_double_ge(c, 2 * dram);
  ck_assert_msg(c < 2.5 * dram, "%.0f cycles, two DRAM latencies (%.0f each)", c, dram);
}
END_TEST

/* 32 warps each load 64 words that every lane of the warp reads alike (broadcasts, one
   wavefront each), in groups of four neighbouring words that ptxas makes one LDS.128 of.
   Counted as the PTX has them the shared-memory unit is busy 64 cycles a warp; with
   lds_merge and a SASS map that puts one LDS on the first of each four (none on the others),
   16, and the launch takes at most 0.6 of the time. Without a SASS map nothing changes, nor
   with one that has no vector LDS to merge into (a map that lacks the loads' lines). */
static char *merge_ptx(void)
{
  struct text t = {0};
  put(&t, HDR ".visible .entry merge(.param .u64 buf, .param .u64 out)\n{\n"
          "  .reg .b32 %%r<4>;\n  .reg .f32 %%f<65>;\n"
          "  .shared .align 16 .b8 s[256];\n  mov.u32 %%r2, s;\n");
  for (int i = 0; i < 64; i++)
    put(&t, "  ld.shared.f32 %%f%d, [%%r2+%d];\n", i + 1, 4 * i);
  put(&t, "  ret;\n}\n");
  return t.s;
}

START_TEST(test_merged_shared_loads)
{
  char *ptx = merge_ptx();
  struct occ_profile p = h200();
  struct model x;
  model_load(&x, ptx, 4096);
  struct ptx_sass s;
  memset(&s, 0, sizeof s);
  s.ninsts = x.m.ninsts;
  s.inst = calloc(s.ninsts, sizeof *s.inst);
  ck_assert_ptr_nonnull(s.inst);
  uint32_t nld = 0;
  for (uint32_t i = 0; i < x.m.ninsts; i++)
    if (x.m.insts[i].op == PTX_OP_LD && x.m.insts[i].space == PTX_SP_SHARED) {
      s.inst[i].n[PTX_SASS_ALL] = s.inst[i].n[PTX_SASS_LDS] = nld % 4 == 0;
      s.inst[i].lds128 = nld % 4 == 0;
      nld++;
    }
  ck_assert_uint_eq(nld, 64);
  double c[4];
  for (int k = 0; k < 4; k++) {      /* lds_merge off/on, without and with the map */
    x.p = p;
    x.p.lds_merge = k & 1;
    x.sass = k & 2 ? &s : NULL;
    model_run(&x, "merge", 1, 1024, 1);
    c[k] = x.rep.cycles;
  }
  ck_assert_double_ge(c[0], 32 * 64);
  ck_assert_double_eq(c[1], c[0]);
  ck_assert_double_eq(c[2], c[0]);
  ck_assert_msg(c[3] < 0.6 * c[0], "merged: %.0f cycles, as the PTX counts %.0f", c[3], c[0]);
  memset(s.inst, 0, s.ninsts * sizeof *s.inst);
  x.p.lds_merge = 1;
  model_run(&x, "merge", 1, 1024, 1);
  ck_assert_double_eq(x.rep.cycles, c[0]);
  free(s.inst);
  model_free(&x);
  free(ptx);
}
END_TEST

/* DRAM access granularity and partial-sector stores. A warp loads one word every 64 bytes
   (32 sectors, none of them a pair with another) or every 4 (4 sectors, two pairs): with
   dram_access_bytes = 64 the first moves twice its sectors' bytes, the second the same.
   A warp storing one word per 128-byte line writes part of 32 sectors; with
   l2_partial_store_bytes the L2 takes that much bandwidth for each and the kernel ends when
   it is done; a warp storing 32 consecutive words writes whole sectors and is unaffected. */
static const char granularity_ptx[] = HDR
  ".visible .entry ld64(.param .u64 buf, .param .u64 out)\n{\n"
  "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
  "  ld.param.u64 %rd1, [buf];\n  mov.u32 %r1, %tid.x;\n"
  "  mul.wide.u32 %rd2, %r1, 64;\n  add.s64 %rd3, %rd1, %rd2;\n"
  "  ld.global.u32 %r2, [%rd3];\n  add.u32 %r3, %r2, 1;\n  ret;\n}\n"
  ".visible .entry ld4(.param .u64 buf, .param .u64 out)\n{\n"
  "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
  "  ld.param.u64 %rd1, [buf];\n  mov.u32 %r1, %tid.x;\n"
  "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
  "  ld.global.u32 %r2, [%rd3];\n  add.u32 %r3, %r2, 1;\n  ret;\n}\n"
  ".visible .entry st128(.param .u64 buf, .param .u64 out)\n{\n"
  "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
  "  ld.param.u64 %rd1, [buf];\n  mov.u32 %r1, %tid.x;\n"
  "  mul.wide.u32 %rd2, %r1, 128;\n  add.s64 %rd3, %rd1, %rd2;\n"
  "  st.global.u32 [%rd3], %r1;\n  ret;\n}\n"
  ".visible .entry st4(.param .u64 buf, .param .u64 out)\n{\n"
  "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
  "  ld.param.u64 %rd1, [buf];\n  mov.u32 %r1, %tid.x;\n"
  "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
  "  st.global.u32 [%rd3], %r1;\n  ret;\n}\n";

START_TEST(test_dram_granularity)
{
  struct occ_profile p = h200();
  ck_assert_int_eq(p.dram_access_bytes, 0);
  double b32, b64, c32, c64;
  one_block_cycles_p(&p, granularity_ptx, "ld64", 32, &b32);
  one_block_cycles_p(&p, granularity_ptx, "ld4", 32, &c32);
  p.dram_access_bytes = 64;
  one_block_cycles_p(&p, granularity_ptx, "ld64", 32, &b64);
  one_block_cycles_p(&p, granularity_ptx, "ld4", 32, &c64);
  ck_assert_double_eq(b32, 32 * 32);
  ck_assert_double_eq(b64, 2 * 32 * 32);
  ck_assert_double_eq(c32, 4 * 32);
  ck_assert_double_eq(c64, 4 * 32);
}
END_TEST

/* A request takes the load/store unit a cycle a line it touches (at least): a warp's lanes
   at a stride of 128 bytes touch 32 lines, at 256 bytes 32 lines too (every other one), so
   eight such loads in a row keep the unit as long at either stride, a line for each of the
   32 lanes of each load, where the sectors' span (63 lines at 256) would take twice as
   long. */
#define STRIDED(name, shift)                                                                \
  ".visible .entry " name "(.param .u64 buf, .param .u64 out)\n{\n"                            \
  "  .reg .b32 %r<12>;\n  .reg .b64 %rd<6>;\n"                                                 \
  "  ld.param.u64 %rd1, [buf];\n  mov.u32 %r1, %tid.x;\n"                                      \
  "  mul.wide.u32 %rd2, %r1, " shift ";\n  add.s64 %rd3, %rd1, %rd2;\n"                       \
  "  ld.global.u32 %r2, [%rd3];\n  ld.global.u32 %r3, [%rd3+8192];\n"                         \
  "  ld.global.u32 %r4, [%rd3+16384];\n  ld.global.u32 %r5, [%rd3+24576];\n"                  \
  "  ld.global.u32 %r6, [%rd3+32768];\n  ld.global.u32 %r7, [%rd3+40960];\n"                  \
  "  ld.global.u32 %r8, [%rd3+49152];\n  ld.global.u32 %r10, [%rd3+57344];\n"                 \
  "  add.u32 %r11, %r2, %r10;\n  ret;\n}\n"
static const char stride_ptx[] = HDR STRIDED("s128", "128") STRIDED("s256", "256");

static double stride_cycles(const char *kernel)
{
  struct model x;
  model_load(&x, stride_ptx, 1u << 17);
  model_run(&x, kernel, 1, 32, 1);
  double c = x.rep.cycles;
  model_free(&x);
  return c;
}

START_TEST(test_lsu_lines_not_span)
{
  double c128 = stride_cycles("s128"), c256 = stride_cycles("s256");
  ck_assert_msg(c256 < c128 + 32, "stride 256: %.0f cycles, 128: %.0f", c256, c128);
  ck_assert_double_ge(c256, 8 * 32);
}
END_TEST

/* A line the SM loaded before in another request is data its blocks share (other SMs read it
   too, and the real L2 shares it): a miss there is charged a sector, not the pair. A warp
   loads sector 0 of a line, then sector 2 of it: 64 + 32 bytes; sectors 0 and 2 of one
   line in one request: 64 + 64. */
static const char again_ptx[] = HDR
  ".visible .entry again(.param .u64 buf, .param .u64 out)\n{\n"
  "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
  "  ld.param.u64 %rd1, [buf];\n"
  "  ld.global.u32 %r1, [%rd1];\n  add.u32 %r2, %r1, 1;\n"
  "  ld.global.u32 %r3, [%rd1+64];\n  add.u32 %r2, %r3, %r2;\n  ret;\n}\n"
  ".visible .entry once(.param .u64 buf, .param .u64 out)\n{\n"
  "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
  "  ld.param.u64 %rd1, [buf];\n  mov.u32 %r1, %tid.x;\n"
  "  and.b32 %r1, %r1, 1;\n  mul.wide.u32 %rd2, %r1, 64;\n  add.s64 %rd3, %rd1, %rd2;\n"
  "  ld.global.u32 %r2, [%rd3];\n  add.u32 %r3, %r2, 1;\n  ret;\n}\n";

START_TEST(test_dram_pair_again)
{
  struct occ_profile p = h200();
  p.dram_access_bytes = 64;
  double again, once;
  one_block_cycles_p(&p, again_ptx, "again", 32, &again);
  one_block_cycles_p(&p, again_ptx, "once", 32, &once);
  ck_assert_double_eq(again, 64 + 32);
  ck_assert_double_eq(once, 64 + 64);
}
END_TEST

/* The L2 is the GPU's, shared by all SMs: what another SM's block read first is there for
   SM 0's. Every block reads the same 1 KB ("same"): with the grid's first touches kept, SM 0's
   recorded blocks (none of them block 0, which reads it first) find it in the L2 and move no
   DRAM bytes; without them SM 0's first block fetches it. Every block reading its own 1 KB
   ("own") moves the same bytes either way. */
static const char shared_l2_ptx[] = HDR
  ".visible .entry same(.param .u64 buf, .param .u64 out)\n{\n"
  "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
  "  ld.param.u64 %rd1, [buf];\n  mov.u32 %r1, %tid.x;\n"
  "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
  "  ld.global.u32 %r2, [%rd3];\n  add.u32 %r3, %r2, 1;\n  ret;\n}\n"
  ".visible .entry own(.param .u64 buf, .param .u64 out)\n{\n"
  "  .reg .b32 %r<6>;\n  .reg .b64 %rd<4>;\n"
  "  ld.param.u64 %rd1, [buf];\n  mov.u32 %r1, %tid.x;\n  mov.u32 %r4, %ctaid.x;\n"
  "  mad.lo.u32 %r5, %r4, 256, %r1;\n"
  "  mul.wide.u32 %rd2, %r5, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
  "  ld.global.u32 %r2, [%rd3];\n  add.u32 %r3, %r2, 1;\n  ret;\n}\n";

static double shared_l2_dram(const char *kernel, int touch, double *l2_hit)
{
  struct model x;
  model_load(&x, shared_l2_ptx, 1u << 20);
  x.touch = touch;
  uint32_t grid = 4 * (uint32_t)x.p.sm_count;
  model_run(&x, kernel, grid, 256, grid);
  ck_assert_uint_eq(x.r.trace.ntouch > 0, touch != 0);
  for (uint32_t i = 0; i < x.r.trace.nblk; i++)
    ck_assert_uint_ne(x.r.trace.blk[i].linear, 0);
  double d = x.rep.dram_bytes;
  *l2_hit = x.rep.l2_hit_pct;
  model_free(&x);
  return d;
}

START_TEST(test_shared_l2)
{
  double hit_with, hit_without, own_with, own_without;
  double with = shared_l2_dram("same", 1, &hit_with), without = shared_l2_dram("same", 0, &hit_without);
  ck_assert_double_eq(with, 0);
  ck_assert_double_gt(without, 0);
  ck_assert_double_eq(hit_with, 100);
  ck_assert_double_lt(hit_without, 100);
  double own = shared_l2_dram("own", 1, &own_with), own0 = shared_l2_dram("own", 0, &own_without);
  ck_assert_double_eq(own, own0);
  ck_assert_double_eq(own_with, 0);
  ck_assert_double_eq(own_without, 0);
}
END_TEST

/* sim_trace_rewave: a launch's record remade for another wave (another occupancy, as a
   dynamic shared memory the kernel cannot see sets it) is the record a launch with that wave
   makes: the same first touches, renumbered, the same recorded blocks. "own" touches each
   line from one block; "same" from every block, whose earliest depends on the wave: that
   record is refused, as is one with fewer recorded blocks or touches than the new wave
   needs. The new keys are made in memory a launch had before (sim_keep_alloc), which must
   read as "no touch" where the record has none. */
static void rewave_run(struct model *x, const char *kernel, uint32_t grid, uint32_t nblk,
                       uint32_t wave, struct sim_result *r)
{
  uint32_t every = (uint32_t)x->p.sm_count;
  struct sim_launch c = {.grid = {grid, 1, 1}, .block = {256, 1, 1},
                         .nocheck = SIM_NOCHECK_INIT, .trace_every = every,
                         .trace_blocks = nblk, .trace_wave = wave};
  uint32_t off[2], size[2], total;
  ck_assert_int_ge(sim_param_layout(&x->m, ptx_find_func(&x->m, kernel), off, size, 2, &total), 1);
  memset(r, 0, sizeof *r);
  ck_assert_int_eq(sim_run(x->d, &x->m, kernel, x->buf, total, &c, r, x->err, sizeof x->err),
                   SIM_OK);
  ck_assert_msg(r->outcome == SIM_RAN_OK, "%s", r->fault.message);
  ck_assert_uint_eq(r->trace.nblk, nblk);
}

START_TEST(test_trace_rewave)
{
  struct model x;
  model_load(&x, shared_l2_ptx, 1u << 20);
  uint32_t sms = (uint32_t)x.p.sm_count, grid = 4 * sms;
  struct sim_result wide, narrow, same;
  struct sim_trace v;
  rewave_run(&x, "own", grid, 4, 4 * sms, &wide);      /* 4 blocks an SM at once */
  rewave_run(&x, "own", grid, 2, sms, &narrow);        /* 1 */
  ck_assert_uint_eq(wide.trace.touch_shared, 0);
  ck_assert_uint_gt(wide.trace.ntouch, 0);
  sim_keep_drop();
  uint64_t *old = sim_keep_alloc(wide.trace.ntouch * 8, SIM_KEEP_HUGE);
  ck_assert_ptr_nonnull(old);
  memset(old, 0xff, wide.trace.ntouch * 8);
  sim_keep_free(old, wide.trace.ntouch * 8);
  ck_assert_int_eq(sim_trace_rewave(&wide.trace, sms, 2, sms, &v), 0);
  ck_assert_ptr_eq(v.touch, old);
  ck_assert_uint_eq(v.nblk, narrow.trace.nblk);
  for (uint32_t i = 0; i < v.nblk; i++)
    ck_assert_uint_eq(v.blk[i].linear, narrow.trace.blk[i].linear);
  ck_assert_uint_eq(v.touch_wave, narrow.trace.touch_wave);
  ck_assert_uint_eq(v.touch_until, narrow.trace.touch_until);
  ck_assert_uint_eq(v.ntouch, narrow.trace.ntouch);
  uint64_t differ = 0, kept = 0;
  for (uint64_t i = 0; i < v.ntouch; i++) {
    differ += v.touch[i] != narrow.trace.touch[i];
    kept += v.touch[i] != 0;
  }
  ck_assert_uint_eq(differ, 0);
  ck_assert_uint_gt(kept, 0);
  ck_assert_ptr_ne(v.touch, wide.trace.touch);        /* its own keys; wide's unchanged */
  sim_trace_view_free(&v);
  /* the narrow record kept no touches past block 2 x sms, nor a fourth block */
  ck_assert_int_eq(sim_trace_rewave(&narrow.trace, 4 * sms, 2, sms, &v), -1);
  ck_assert_int_eq(sim_trace_rewave(&wide.trace, sms, 5, sms, &v), -1);
  rewave_run(&x, "same", grid, 4, 4 * sms, &same);
  ck_assert_uint_eq(same.trace.touch_shared, 1);
  ck_assert_int_eq(sim_trace_rewave(&same.trace, sms, 2, sms, &v), -1);
  ck_assert_ptr_null(v.touch);
  sim_result_free(&wide);
  sim_result_free(&narrow);
  sim_result_free(&same);
  model_free(&x);
}
END_TEST

/* Opening a DRAM page takes bandwidth that moves no data (dram_page_bytes): 32 lanes loading
   from 32 pages 1 KB apart open 32, a warp's 128 contiguous bytes one; the bytes moved are
   the same either way. */
static const char page_ptx[] = HDR
  ".visible .entry ld1k(.param .u64 buf, .param .u64 out)\n{\n"
  "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
  "  ld.param.u64 %rd1, [buf];\n  mov.u32 %r1, %tid.x;\n"
  "  mul.wide.u32 %rd2, %r1, 1024;\n  add.s64 %rd3, %rd1, %rd2;\n"
  "  ld.global.u32 %r2, [%rd3];\n  add.u32 %r3, %r2, 1;\n  ret;\n}\n"
  ".visible .entry ld4(.param .u64 buf, .param .u64 out)\n{\n"
  "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
  "  ld.param.u64 %rd1, [buf];\n  mov.u32 %r1, %tid.x;\n"
  "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
  "  ld.global.u32 %r2, [%rd3];\n  add.u32 %r3, %r2, 1;\n  ret;\n}\n";

static double page_cycles(const char *kernel, double page, double *dram)
{
  struct model x;
  model_load(&x, page_ptx, 64 * 1024);
  x.p.dram_page_bytes = page;
  model_run(&x, kernel, 1, 32, 1);
  double c = x.rep.cycles;
  *dram = x.rep.dram_bytes;
  model_free(&x);
  return c;
}

START_TEST(test_dram_page)
{
  struct occ_profile p = h200();
  ck_assert_double_eq(p.dram_page_bytes, 0);
  double d0, d1, s0, s1;
  const double page = 1e6;
  double scattered = page_cycles("ld1k", page, &d1) - page_cycles("ld1k", 0, &d0);
  double stream = page_cycles("ld4", page, &s1) - page_cycles("ld4", 0, &s0);
  ck_assert_double_eq(d1, d0);
  ck_assert_double_eq(s1, s0);
  ck_assert_double_gt(stream, 0);
  ck_assert_msg(scattered > 16 * stream, "32 pages: %.0f more cycles, one page: %.0f", scattered,
                stream);
}
END_TEST

/* lsu_in_order: warps the backed-up load/store unit holds back get it in the order they
   reached it. Every lane reads its own 128-byte line (a warp's load: 32 lines, 32 cycles of
   the unit), then the same address again once the first value is back. Greedy-then-oldest
   gives the unit to the oldest warps first when their data returns, so their second loads
   come while their lines are still in the L1; in order, each second load waits behind every
   warp's first, 32 warps x 32 lines, more than the L1 keeps: the hit rate falls. */
static const char reread_ptx[] = HDR
  ".visible .entry reread(.param .u64 buf, .param .u64 out)\n{\n"
  "  .reg .b32 %r<8>;\n  .reg .b64 %rd<6>;\n"
  "  ld.param.u64 %rd1, [buf];\n  mov.u32 %r1, %tid.x;\n"
  "  mul.wide.u32 %rd2, %r1, 128;\n  add.s64 %rd3, %rd1, %rd2;\n"
  "  ld.global.u32 %r2, [%rd3];\n  and.b32 %r3, %r2, 0;\n"
  "  cvt.u64.u32 %rd4, %r3;\n  add.s64 %rd5, %rd3, %rd4;\n"
  "  ld.global.u32 %r4, [%rd5];\n  add.u32 %r5, %r4, %r2;\n  ret;\n}\n";

static double reread_l1_hit(int in_order)
{
  struct model x;
  model_load(&x, reread_ptx, 1024 * 128);
  x.p.l1_bytes = 96 * 1024;
  x.p.lsu_in_order = in_order;
  model_run(&x, "reread", 1, 1024, 1);
  double h = x.rep.l1_hit_pct;
  model_free(&x);
  return h;
}

START_TEST(test_lsu_in_order)
{
  ck_assert_int_eq(h200().lsu_in_order, 0);
  double gto = reread_l1_hit(0), fifo = reread_l1_hit(1);
  ck_assert_msg(fifo < gto - 10, "L1 hits: in order %.1f%%, greedy-then-oldest %.1f%%", fifo,
                gto);
}
END_TEST

START_TEST(test_partial_store)
{
  struct occ_profile p = h200();
  double col = one_block_cycles_p(&p, granularity_ptx, "st128", 32, NULL);
  double row = one_block_cycles_p(&p, granularity_ptx, "st4", 32, NULL);
  p.l2_partial_store_bytes = 1e6;
  double l2_per_cycle = p.l2_bandwidth_gbs * 1e3 / p.sm_clock_mhz;   /* one SM busy */
  double col2 = one_block_cycles_p(&p, granularity_ptx, "st128", 32, NULL);
  double row2 = one_block_cycles_p(&p, granularity_ptx, "st4", 32, NULL);
  ck_assert_double_lt(col, 1000);
  ck_assert_double_ge(col2, 32 * 1e6 / l2_per_cycle);
  ck_assert_double_eq(row2, row);
}
END_TEST

/* Whole-line L1 fills (transaction_bytes above sector_bytes: Fermi). With the L2 at one byte
   a cycle, a warp reading one word every 64 bytes (32 sectors in 16 lines) takes the L2 1024
   cycles with sectors and 2048 with 128-byte lines, and moves the same DRAM bytes; a warp
   reading 32 consecutive words (one whole line) takes the same either way; a profile whose
   transaction is its sector (wave64: 64 and 64) moves sectors. */
START_TEST(test_line_fill)
{
  struct occ_profile p = h200();
  ck_assert_int_eq(p.transaction_bytes, p.sector_bytes);
  p.l2_bandwidth_gbs = p.sm_clock_mhz / 1e3;              /* 1 byte a cycle */
  double d32, d128, spread32, spread128, line32, line128;
  spread32 = one_block_cycles_p(&p, granularity_ptx, "ld64", 32, &d32);
  line32 = one_block_cycles_p(&p, granularity_ptx, "ld4", 32, NULL);
  p.transaction_bytes = 128;
  spread128 = one_block_cycles_p(&p, granularity_ptx, "ld64", 32, &d128);
  line128 = one_block_cycles_p(&p, granularity_ptx, "ld4", 32, NULL);
  ck_assert_msg(spread128 - spread32 >= 1000 && spread128 - spread32 <= 1030,
                "16 lines: %.0f cycles with lines, %.0f with sectors", spread128, spread32);
  ck_assert_double_eq(d128, d32);
  ck_assert_double_eq(line128, line32);
  p.sector_bytes = 128;                                    /* the transaction is the sector */
  ck_assert_double_eq(one_block_cycles_p(&p, granularity_ptx, "ld64", 32, NULL), spread32);
}
END_TEST

/* l1_miss_lines: with whole-line fills the L1 keeps that many line misses in flight. The
   warp of ld64 misses 16 lines at once: with one slot they go to DRAM one after another,
   16 latencies; with 16 slots or no limit, together. */
START_TEST(test_l1_miss_lines)
{
  struct occ_profile p = h200();
  p.transaction_bytes = 128;
  double free_ = one_block_cycles_p(&p, granularity_ptx, "ld64", 32, NULL);
  p.l1_miss_lines = 16;
  double sixteen = one_block_cycles_p(&p, granularity_ptx, "ld64", 32, NULL);
  p.l1_miss_lines = 1;
  double one = one_block_cycles_p(&p, granularity_ptx, "ld64", 32, NULL);
  ck_assert_double_eq(sixteen, free_);
  ck_assert_msg(one >= 16.0 * p.dram_cycles && free_ < 2.0 * p.dram_cycles,
                "one slot: %.0f cycles, no limit: %.0f (DRAM latency %d)", one, free_, p.dram_cycles);
  p.transaction_bytes = 32;                                /* no line fills: no slots */
  double sectors = one_block_cycles_p(&p, granularity_ptx, "ld64", 32, NULL);
  ck_assert_double_lt(sectors, 2.0 * p.dram_cycles);
}
END_TEST

/* Two warps read one sector at once: the first misses and goes to DRAM, the second finds
   the sector on its way and must wait for the same data, then runs 30 dependent adds on it.
   The block ends with the second warp: a DRAM latency and the 30 adds after the loads. */
static const char same_sector_ptx[] = HDR
  ".visible .entry samesector(.param .u64 buf, .param .u64 out)\n{\n"
  "  .reg .pred %p<2>;\n  .reg .b32 %r<40>;\n  .reg .b64 %rd<2>;\n"
  "  ld.param.u64 %rd1, [buf];\n"
  "  mov.u32 %r1, %tid.x;\n"
  "  ld.global.u32 %r3, [%rd1];\n"
  "  setp.lt.u32 %p1, %r1, 32;\n"
  "  @%p1 bra DONE;\n"
  "  add.u32 %r4, %r3, 1;\n"
  "  add.u32 %r5, %r4, 1;\n"
  "  add.u32 %r6, %r5, 1;\n"
  "  add.u32 %r7, %r6, 1;\n"
  "  add.u32 %r8, %r7, 1;\n"
  "  add.u32 %r9, %r8, 1;\n"
  "  add.u32 %r10, %r9, 1;\n"
  "  add.u32 %r11, %r10, 1;\n"
  "  add.u32 %r12, %r11, 1;\n"
  "  add.u32 %r13, %r12, 1;\n"
  "  add.u32 %r14, %r13, 1;\n"
  "  add.u32 %r15, %r14, 1;\n"
  "  add.u32 %r16, %r15, 1;\n"
  "  add.u32 %r17, %r16, 1;\n"
  "  add.u32 %r18, %r17, 1;\n"
  "  add.u32 %r19, %r18, 1;\n"
  "  add.u32 %r20, %r19, 1;\n"
  "  add.u32 %r21, %r20, 1;\n"
  "  add.u32 %r22, %r21, 1;\n"
  "  add.u32 %r23, %r22, 1;\n"
  "  add.u32 %r24, %r23, 1;\n"
  "  add.u32 %r25, %r24, 1;\n"
  "  add.u32 %r26, %r25, 1;\n"
  "  add.u32 %r27, %r26, 1;\n"
  "  add.u32 %r28, %r27, 1;\n"
  "  add.u32 %r29, %r28, 1;\n"
  "  add.u32 %r30, %r29, 1;\n"
  "  add.u32 %r31, %r30, 1;\n"
  "  add.u32 %r32, %r31, 1;\n"
  "  add.u32 %r33, %r32, 1;\n"
  "DONE:\n"
  "  add.u32 %r2, %r3, 1;\n"
  "  ret;\n}\n";

START_TEST(test_sector_on_its_way)
{
  struct occ_profile p = h200();
  double cycles = one_block_cycles(same_sector_ptx, "samesector", 64);
  ck_assert_msg(cycles >= p.dram_cycles + 30.0 * p.alu_cycles,
                "%.0f cycles: the second warp's load did not wait for the first one's data "
                "(%d + 30 x %d)", cycles, p.dram_cycles, p.alu_cycles);
}
END_TEST

/* A stream over the whole GPU is bound by its DRAM bandwidth: SM 0's share, with all 132
   SMs busy, is dram_bandwidth_gbs x dram_sustained_pct / sm_count, so its blocks' bytes
   take at least bytes / share; with 8 blocks of 64 KB-deep loads in flight (far more than
   bandwidth x latency) it gets close. Every byte crosses DRAM once: 32 KB read and 1 KB
   written per block. */
START_TEST(test_dram_bound)
{
  char *k = stream_ptx();
  struct model x;
  model_load(&x, k, 2u << 20);
  uint32_t nrec = recorded_cap(&x.p, 256);
  ck_assert_uint_le(nrec * 32 * 1024, 2u << 20);
  uint32_t grid = 132 * nrec;                          /* SM 0: exactly the recorded blocks */
  model_run(&x, "stream", grid, 256, nrec);
  ck_assert_uint_eq(x.plan.blocks_per_sm, 8);         /* 64 warps / 8 */
  ck_assert_uint_eq(x.rep.blocks_sm0, x.rep.blocks_modelled);
  double per_block = 33.0 * 1024;
  ck_assert_double_eq_tol(x.rep.dram_bytes, per_block * grid, 1e-3);
  double share = x.p.dram_bandwidth_gbs * x.p.dram_sustained_pct / 100 * 1e3 /
                 x.p.sm_clock_mhz / x.p.sm_count;      /* bytes per SM cycle */
  /* the reads must be back before the block ends; the writes need not */
  ck_assert_double_ge(x.rep.cycles, 32.0 * 1024 * nrec / share);
  ck_assert_double_le(x.rep.cycles, 1.10 * per_block * nrec / share);
  ck_assert_double_eq(x.rep.l1_hit_pct, 0);
  for (int s = 0; s < TM_STALL_COUNT; s++)
    if (s != TM_STALL_LONG_SB)
      ck_assert_double_lt(x.rep.stall[s], x.rep.stall[TM_STALL_LONG_SB]);
  model_free(&x);
  free(k);
}
END_TEST

/* ---------------------------------------------------------------------------------------
 * Extrapolation and the report
 * ------------------------------------------------------------------------------------- */

/* SM 0 with many more blocks than recorded: the rest run at the steady rate, so the time is
   proportional to the blocks. Blocks of 8 warps of 4 chains of 64 FMAs keep the four
   schedulers issuing every cycle: each block costs its warp-instructions / 4 cycles. */
START_TEST(test_extrapolation)
{
  char *k = fma_ptx(4, 64, 0);
  struct model x;
  model_load(&x, k, 4096);
  uint32_t nrec = recorded_cap(&x.p, 256);
  double cyc[2];
  for (int i = 0; i < 2; i++) {
    uint32_t sm0 = 4 * nrec << i;
    model_run(&x, "fma", 132 * sm0, 256, nrec);
    ck_assert_uint_eq(x.rep.blocks_sm0, sm0);
    ck_assert_uint_eq(x.rep.blocks_modelled, nrec);
    char want[96];
    snprintf(want, sizeof want, "first %u blocks cycle by cycle and the other %u", nrec,
             sm0 - nrec);
    ck_assert_msg(strstr(x.rep.how, want) != NULL, "%s", x.rep.how);
    double insts = (double)x.r.counters.warp_insts / nrec;   /* per block */
    ck_assert_double_eq(insts, 8 * (2 + 4 + 4 * 64 + 1));
    /* the issue bound; the extrapolated part is an estimate, allowed 1% below it */
    ck_assert_double_ge(x.rep.cycles, 0.99 * sm0 * insts / 4);
    ck_assert_double_le(x.rep.cycles, 1.05 * sm0 * insts / 4);
    cyc[i] = x.rep.cycles;
  }
  ck_assert_double_eq_tol(cyc[1] / cyc[0], 2, 0.05);
  model_free(&x);
  free(k);
}
END_TEST

/* Blocks of one warp and 8 FMAs are over long before the next can start: the GPU's block
   scheduler starts one block every block_dispatch_cycles anywhere on the GPU, so with all
   132 SMs busy SM 0 gets one every 132 x block_dispatch_cycles, and its time is that times
   its blocks; doubling the grid doubles it. */
START_TEST(test_extrapolation_dispatch_bound)
{
  char *k = fma_ptx(1, 8, 0);
  struct model x;
  model_load(&x, k, 4096);
  uint32_t nrec = recorded_cap(&x.p, 32);
  double every = x.p.block_dispatch_cycles * x.p.sm_count, cyc[2];
  for (int i = 0; i < 2; i++) {
    uint32_t sm0 = 1000u << i;
    model_run(&x, "fma", 132 * sm0, 32, nrec);
    ck_assert_uint_eq(x.rep.blocks_sm0, sm0);
    ck_assert_uint_lt(x.rep.blocks_modelled, sm0);
    ck_assert_double_ge(x.rep.cycles, 0.99 * (sm0 - 1) * every);
    ck_assert_double_le(x.rep.cycles, 1.02 * sm0 * every);
    cyc[i] = x.rep.cycles;
  }
  ck_assert_double_eq_tol(cyc[1] / cyc[0], 2, 0.02);
  model_free(&x);
  free(k);
}
END_TEST

/* One block more than a full wave: with 255 registers a thread, 8 one-warp blocks fit on an
   SM; SM 0's ninth (grid 8 x 132 + 1) waits for a slot, so it runs after one of the first
   eight has run its whole chain: two chains one after the other, and the slot's launch
   time between them. */
START_TEST(test_wave_tail)
{
  struct occ_profile p = h200();
  const double N = CHAIN, fma = p.fma_cycles;
  char *k = fma_ptx(1, CHAIN, 0);
  struct model x;
  model_load(&x, k, 4096);
  x.regs = 255;
  model_run(&x, "fma", 8 * 132, 32, 8);
  ck_assert_uint_eq(x.plan.blocks_per_sm, 8);
  double one_wave = x.rep.cycles;
  ck_assert_double_le(one_wave, N * fma + 8 * 132 * p.block_dispatch_cycles + 32);
  model_run(&x, "fma", 8 * 132 + 1, 32, 9);
  ck_assert_uint_eq(x.plan.sm0_blocks, 9);
  ck_assert_double_ge(x.rep.cycles, 2 * (N - 1) * fma + p.block_launch_cycles);
  ck_assert_double_le(x.rep.cycles, one_wave + N * fma + p.block_launch_cycles + 32);
  model_free(&x);
  free(k);
}
END_TEST

/* block_dispatch_cycles is the time between two blocks the GPU's block scheduler starts
   anywhere on the GPU, so the last of a grid's G blocks starts no earlier than (G - 1) x
   block_dispatch_cycles, and the kernel lasts at least that plus a block's own time, though
   the model times SM 0, which is served first. (It once left those cycles out: a one-wave
   grid of 132 short blocks came out as fast as a single block.) */
START_TEST(test_grid_dispatch)
{
  struct occ_profile p = h200();
  char *k = fma_ptx(1, 8, 0);
  struct model x;
  model_load(&x, k, 4096);
  uint32_t grid = (uint32_t)p.sm_count;
  model_run(&x, "fma", grid, 32, grid);
  double floor_ = (grid - 1) * p.block_dispatch_cycles + 7 * p.fma_cycles;
  ck_assert_msg(x.rep.cycles >= floor_, "a grid of %u blocks: %.0f cycles, fewer than the %.0f "
                "its blocks need to be started and the last to run", grid, x.rep.cycles, floor_);
  model_free(&x);
  free(k);
}
END_TEST

static const char *stall_metric(enum tm_stall s, char *buf, size_t n)
{
  snprintf(buf, n, "smsp__average_warps_issue_stalled_%s_per_issue_active.ratio",
           tm_stall_name(s));
  return buf;
}

/* Every metric by its Nsight Compute name, once, with the report's figure; none defined on
   a report that is not ok; a hit rate with no accesses is not defined. */
START_TEST(test_metrics)
{
  char *k = fma_ptx(1, 32, 0);
  struct model x;
  model_load(&x, k, 4096);
  model_run(&x, "fma", 1, 32, 1);
  const char *want[] = {"gpu__time_duration.sum", "sm__cycles_elapsed.avg",
                        "sm__warps_active.avg.pct_of_peak_sustained_active",
                        "smsp__issue_active.avg.pct_of_peak_sustained_active",
                        "l1tex__t_sector_hit_rate.pct", "lts__t_sector_hit_rate.pct",
                        "dram__bytes.sum"};
  const double field[] = {x.rep.time_ns, x.rep.cycles, x.rep.achieved_occupancy_pct,
                          x.rep.issue_active_pct, x.rep.l1_hit_pct, x.rep.l2_hit_pct,
                          x.rep.dram_bytes};
  int nwant = (int)(sizeof want / sizeof want[0]);
  int seen[7 + TM_STALL_COUNT] = {0};
  unsigned i;
  const char *name;
  double v;
  int def;
  char buf[128];
  for (i = 0; (name = tm_metric(&x.rep, i, &v, &def)) != NULL; i++) {
    int found = 0;
    for (int j = 0; j < nwant; j++)
      if (!strcmp(name, want[j])) {
        seen[j]++;
        found = 1;
        ck_assert_double_eq(v, field[j]);
        /* no global accesses: the hit rates are not defined; everything else is */
        ck_assert_int_eq(def, j == 4 || j == 5 ? 0 : 1);
      }
    for (int s = 0; s < TM_STALL_COUNT; s++)
      if (!strcmp(name, stall_metric((enum tm_stall)s, buf, sizeof buf))) {
        seen[nwant + s]++;
        found = 1;
        ck_assert_double_eq(v, x.rep.stall[s]);
        ck_assert_int_eq(def, 1);
      }
    ck_assert_msg(found, "unexpected metric %s", name);
  }
  ck_assert_uint_eq(i, (unsigned)nwant + TM_STALL_COUNT);
  for (int j = 0; j < nwant + TM_STALL_COUNT; j++)
    ck_assert_int_eq(seen[j], 1);
  ck_assert_str_eq(tm_stall_name(TM_STALL_LONG_SB), "long_scoreboard");
  ck_assert_str_eq(tm_stall_name(TM_STALL_COUNT), "?");

  /* a launch recorded without the plan's blocks: no model, and every metric undefined */
  struct sim_trace empty = {0};
  struct tm_report r;
  ck_assert_int_eq(tm_model(&x.p, &x.m, &x.k, &x.plan, &empty, &r), 0);
  ck_assert_int_eq(r.ok, 0);
  ck_assert_ptr_nonnull(strstr(r.how, "no timing model"));
  for (i = 0; (name = tm_metric(&r, i, &v, &def)) != NULL; i++)
    ck_assert_int_eq(def, 0);
  /* nor from a plan that is not ok: its note is the report's how */
  struct tm_plan bad;
  struct tm_kernel big = {.grid_blocks = 1, .block_threads = 32, .static_smem = 240 * 1024};
  tm_plan(&x.p, &big, &bad);
  ck_assert_int_eq(bad.ok, 0);
  ck_assert_int_eq(tm_model(&x.p, &x.m, &big, &bad, &x.r.trace, &r), 0);
  ck_assert_int_eq(r.ok, 0);
  ck_assert_str_eq(r.how, bad.note);
  model_free(&x);
  free(k);
}
END_TEST

/* ---------------------------------------------------------------------------------------
 * The replay's shortcuts (tm_sm_in.plain): the same figures as the long way
 * ------------------------------------------------------------------------------------- */

/* The figures of two reports, bit for bit (how aside). */
static void same_report(const struct tm_report *a, const struct tm_report *b, const char *what)
{
  ck_assert_int_eq(a->ok, b->ok);
  const double fa[] = {a->cycles, a->time_ns, a->achieved_occupancy_pct, a->issue_active_pct,
                       a->l1_hit_pct, a->l2_hit_pct, a->dram_bytes, a->dispatch_ratio};
  const double fb[] = {b->cycles, b->time_ns, b->achieved_occupancy_pct, b->issue_active_pct,
                       b->l1_hit_pct, b->l2_hit_pct, b->dram_bytes, b->dispatch_ratio};
  for (size_t i = 0; i < sizeof fa / sizeof fa[0]; i++)
    ck_assert_msg(memcmp(&fa[i], &fb[i], sizeof fa[i]) == 0, "%s: figure %zu: %.17g, plain %.17g",
                  what, i, fa[i], fb[i]);
  for (int i = 0; i < TM_STALL_COUNT; i++)
    ck_assert_msg(memcmp(&a->stall[i], &b->stall[i], sizeof a->stall[i]) == 0,
                  "%s: stall %s: %.17g, plain %.17g", what, tm_stall_name((enum tm_stall)i),
                  a->stall[i], b->stall[i]);
  ck_assert_uint_eq(a->blocks_modelled, b->blocks_modelled);
}

/* tm_touch_init bins keys by a table of each instruction count's bin (tm_touch.part): the
   same cumulative counts and volumes as each key's bin worked out on its own, for counts
   below, at and past a block's average, and for blocks whose average is past the table
   (counts past it worked out, unless the table's last is the last bin). */
START_TEST(test_touch_bins_by_table)
{
  enum { NWORK = 48, WAVE = 8, NKEYS = 6000 };
  for (int big = 0; big < 3; big++) {
    /* averages: about 110; about 200,000 (past the table: its last is short of the last
       bin); 65,535 (the table's length) */
    struct sim_bwork work[NWORK];
    memset(work, 0, sizeof work);
    for (uint32_t i = 0; i < NWORK; i++)
      work[i].warp_insts = big == 2 ? 65535 : big ? 190000 + 400 * i : 40 + 3 * i;
    uint64_t avg = big == 2 ? 65535 : big ? 199400 : 110;
    uint64_t *key = calloc(NKEYS, sizeof *key);
    ck_assert_ptr_nonnull(key);
    uint32_t rng = 12345;
    for (uint32_t i = 0; i < NKEYS; i++) {
      rng = rng * 1103515245u + 12345u;
      uint64_t insts = (uint64_t)(rng >> 4) % (3 * avg);
      if (i % 4 == 0)              /* around the bins' edges and the average */
        insts = avg * ((rng >> 20) % 70) / 64 + (rng >> 28) % 3;
      key[i] = (rng >> 8) % 9 == 0 ? 0 : sim_touch_key(WAVE, (rng >> 12) % NWORK, insts);
    }
    struct sim_trace tr;
    memset(&tr, 0, sizeof tr);
    tr.work = work;
    tr.nwork = NWORK;
    tr.touch = key;
    tr.ntouch = NKEYS;
    tr.touch_wave = WAVE;
    struct tm_touch fast, plain;
    ck_assert_int_eq(tm_touch_init(&fast, &tr, 1u << 20, 0), 0);
    ck_assert_int_eq(tm_touch_init(&plain, &tr, 1u << 20, 1), 0);
    ck_assert_ptr_nonnull(fast.part);
    ck_assert_ptr_null(plain.part);
    ck_assert_uint_eq(fast.nbins, plain.nbins);
    ck_assert_uint_eq(fast.nbins, NWORK / WAVE * TM_TOUCH_BINS);
    for (uint32_t k = 0; k <= fast.nbins; k++)
      ck_assert_msg(fast.cum[k] == plain.cum[k], "average %llu, bin %u: %llu lines, plain %llu",
                    (unsigned long long)avg, k, (unsigned long long)fast.cum[k],
                    (unsigned long long)plain.cum[k]);
    ck_assert_uint_gt(plain.cum[plain.nbins], NKEYS / 2);
    for (uint32_t i = 0; i + 1 < NKEYS; i++)
      if (key[i] && key[i + 1]) {
        uint64_t x = key[i] < key[i + 1] ? key[i] : key[i + 1];
        uint64_t y = key[i] < key[i + 1] ? key[i + 1] : key[i];
        ck_assert(tm_touch_volume(&fast, x, y) == tm_touch_volume(&plain, x, y));
      }
    tm_touch_free(&fast);
    tm_touch_free(&plain);
    free(key);
  }
}
END_TEST

/* Warp 0 branches around 8 adds that ptxas predicates (it issues them, predicated off)
   while the other warps wait for the load the adds read. */
static const char phantom_ptx[] = HDR
  ".visible .entry phantom(.param .u64 buf, .param .u64 out)\n{\n"
  "  .reg .pred %p<2>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<2>;\n"
  "  ld.param.u64 %rd1, [buf];\n  mov.u32 %r1, %tid.x;\n"
  "  ld.global.u32 %r2, [%rd1];\n  setp.lt.u32 %p1, %r1, 32;\n  @%p1 bra DONE;\n"
  "  add.u32 %r3, %r2, 1;\n  add.u32 %r4, %r3, 1;\n  add.u32 %r5, %r4, 1;\n"
  "  add.u32 %r6, %r5, 1;\n  add.u32 %r7, %r6, 1;\n  add.u32 %r8, %r7, 1;\n"
  "  add.u32 %r9, %r8, 1;\n  add.u32 %r10, %r9, 1;\n"
  "DONE:\n  add.u32 %r11, %r1, 1;\n  ret;\n}\n";

/* 1024 threads each read a word of 8 lines 128 KB apart (8192 lines: more than an H200's
   L2 slice keeps), then another sector of their first line again: a miss of a line the SM
   loaded before. */
static char *revisit_ptx(void)
{
  struct text t = {0};
  put(&t, HDR ".visible .entry revisit(.param .u64 buf, .param .u64 out)\n{\n"
          "  .reg .b32 %%r<12>;\n  .reg .b64 %%rd<4>;\n"
          "  ld.param.u64 %%rd1, [buf];\n  mov.u32 %%r1, %%tid.x;\n"
          "  mul.wide.u32 %%rd2, %%r1, 128;\n  add.s64 %%rd3, %%rd1, %%rd2;\n");
  for (unsigned k = 0; k < 8; k++)
    put(&t, "  ld.global.u32 %%r%u, [%%rd3+%u];\n", 2 + k, k * 131072);
  put(&t, "  ld.global.u32 %%r10, [%%rd3+64];\n  add.u32 %%r11, %%r10, %%r2;\n  ret;\n}\n");
  return t.s;
}

/* Thread 0 of each block copies 4 KB into shared memory with one bulk copy (cp.async.bulk)
   completing on the block's mbarrier, which every warp waits on (try_wait, in a loop) before
   it reads a word of it; the other warps wait at once, thread 0's warp after a chain of 16
   adds. Then 8 cp.async copies of 4 bytes a thread, committed, waited for and read. */
static char *bulk_ptx(void)
{
  struct text t = {0};
  put(&t, ".version 9.0\n.target sm_90\n.address_size 64\n"
          ".visible .entry bulk(.param .u64 buf, .param .u64 out)\n{\n"
          "  .reg .pred %%p<3>;\n  .reg .b32 %%r<40>;\n  .reg .b64 %%rd<8>;\n"
          "  .shared .align 128 .b8 s[4096];\n  .shared .align 8 .b64 bar;\n"
          "  ld.param.u64 %%rd1, [buf];\n  mov.u32 %%r1, %%tid.x;\n"
          "  mov.u32 %%r2, bar;\n  mov.u32 %%r3, s;\n  setp.ne.u32 %%p1, %%r1, 0;\n"
          "  @%%p1 bra SKIPINIT;\n  mbarrier.init.shared.b64 [%%r2], 1;\nSKIPINIT:\n"
          "  bar.sync 0;\n  @%%p1 bra WAIT;\n  mov.u32 %%r10, 1;\n");
  for (unsigned k = 0; k < 16; k++)
    put(&t, "  add.u32 %%r10, %%r10, %%r1;\n");
  put(&t, "  mbarrier.arrive.expect_tx.shared.b64 %%rd2, [%%r2], 4096;\n"
          "  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%%r3], [%%rd1], 4096, [%%r2];\n"
          "WAIT:\n  mbarrier.try_wait.parity.shared.b64 %%p2, [%%r2], 0;\n  @!%%p2 bra WAIT;\n"
          "  shl.b32 %%r4, %%r1, 2;\n  add.u32 %%r5, %%r3, %%r4;\n  ld.shared.u32 %%r6, [%%r5];\n"
          "  cvt.u64.u32 %%rd3, %%r4;\n  add.s64 %%rd4, %%rd1, %%rd3;\n");
  for (unsigned k = 0; k < 8; k++)
    put(&t, "  cp.async.ca.shared.global [%%r5+%u], [%%rd4+%u], 4;\n", 0, 4096 * (k + 1));
  put(&t, "  cp.async.commit_group;\n  cp.async.wait_group 0;\n  ld.shared.u32 %%r7, [%%r5];\n"
          "  add.u32 %%r8, %%r7, %%r6;\n  ret;\n}\n");
  return t.s;
}

/* A register a load writes is read by the add before it (the loads may not swap with
   those adds), and written again by the next load (nor with each other). */
static const char war_ptx[] = HDR
  ".visible .entry war(.param .u64 buf, .param .u64 out)\n{\n"
  "  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n"
  "  ld.param.u64 %rd1, [buf];\n  mov.u32 %r1, %tid.x;\n"
  "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
  "  ld.global.u32 %r2, [%rd3];\n  add.u32 %r3, %r2, 1;\n"
  "  ld.global.u32 %r2, [%rd3+4096];\n  add.u32 %r4, %r2, %r3;\n"
  "  ld.global.u32 %r2, [%rd3+8192];\n  add.u32 %r5, %r2, %r4;\n  ret;\n}\n";

/* A load after a short branch around one add (if-converted: ptxas predicates the add) moves
   up past the branch, and then not past the setp that writes the branch's guard. */
static const char guard_ptx[] = HDR
  ".visible .entry guard(.param .u64 buf, .param .u64 out)\n{\n"
  "  .reg .pred %p<2>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<2>;\n"
  "  ld.param.u64 %rd1, [buf];\n  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, 0;\n"
  "  setp.lt.u32 %p1, %r1, 16;\n  @%p1 bra SKIP;\n  add.u32 %r2, %r1, 1;\nSKIP:\n"
  "  ld.global.u32 %r3, [%rd1];\n  add.u32 %r4, %r3, %r2;\n  ret;\n}\n";

/* Warps of one block in three kinds, by warp id % 3: what comes before a global load, a
   chain of fma it moves up past (kinds 0 and 1) or a chain of adds that make its address
   (kind 2: the same state spaces, other instructions); the space a generic load after it
   finds, global (kind 0) or shared (1 and 2: hoist_loads moves only the first, or both with
   sass). Each kind's events are as many as the others', and the warp before each warp is of
   the kind that differs from its own in one of the two (issue order: warps of the same code
   share their order, hoist_block). */
static const char kinds_ptx[] = HDR
  ".visible .entry kinds(.param .u64 buf, .param .u64 out)\n{\n"
  "  .reg .pred %p<3>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<10>;\n  .reg .f32 %f<8>;\n"
  "  .shared .align 4 .b8 sm[1024];\n"
  "  ld.param.u64 %rd1, [buf];\n  mov.u32 %r1, %tid.x;\n  shr.u32 %r2, %r1, 5;\n"
  "  rem.u32 %r3, %r2, 3;\n  setp.eq.u32 %p1, %r3, 0;\n"
  "  setp.ne.u32 %p2, %r3, 2;\n  and.b32 %r4, %r1, 255;\n  shl.b32 %r4, %r4, 2;\n"
  "  mov.u32 %r5, sm;\n  add.u32 %r5, %r5, %r4;\n  st.shared.u32 [%r5], %r1;\n"
  "  bar.sync 0;\n  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
  "  cvt.u64.u32 %rd4, %r5;\n  cvta.shared.u64 %rd5, %rd4;\n  selp.b64 %rd6, %rd3, %rd5, %p1;\n"
  "  cvt.rn.f32.u32 %f1, %r1;\n  mov.f32 %f5, 0f3F800000;\n  @%p2 bra FMAS;\n"
  "  add.s64 %rd7, %rd3, 4096;\n  add.s64 %rd7, %rd7, 4;\n  add.s64 %rd7, %rd7, 4;\n"
  "  add.s64 %rd7, %rd7, 4;\n  ld.global.u32 %r6, [%rd7];\n  ld.u32 %r7, [%rd6];\n"
  "  bra DONE;\n"
  "FMAS:\n  fma.rn.f32 %f2, %f1, %f1, %f1;\n  fma.rn.f32 %f3, %f2, %f2, %f1;\n"
  "  fma.rn.f32 %f4, %f3, %f3, %f2;\n  fma.rn.f32 %f5, %f4, %f4, %f3;\n"
  "  ld.global.u32 %r6, [%rd3+4096];\n  ld.u32 %r7, [%rd6];\n  bra DONE;\n"
  "DONE:\n  add.u32 %r8, %r6, %r7;\n  cvt.rzi.u32.f32 %r9, %f5;\n  add.u32 %r8, %r8, %r9;\n"
  "  ret;\n}\n";

/* Every shortcut of the replay (each warp's scoreboard kept per instruction, stalls counted
   by reason, tables filled as they are used, the cache's last line, the first touches'
   bins) gives the figures the plain replay gives, bit for bit, on each profile's own
   parameters (line fills, DRAM access sizes, pages, in-order load/store unit, hoisting) and
   kernels that stall every way: dependent and independent arithmetic, barriers (named too),
   load chains through global and shared memory, streams over many blocks, atomics at one
   address, scattered and partial stores, a sector on its way, the grid's shared L2,
   predicated-off code issued while the other warps wait, lines loaded again after the L2
   slice let them go, bulk copies waited for on an mbarrier and cp.async groups, loads that
   may not pass the reads of what they write or the guards of the branches they pass. */
START_TEST(test_shortcuts_same_figures)
{
  static const char *const profs[] = {"h200", "h100-sxm", "a100", "v100", "fermi-m2070", "t4"};
  char *fma1 = fma_ptx(1, 48, 1), *fma4 = fma_ptx(4, 24, 0), *named = named_barrier_ptx(24);
  char *chase = chase_ptx(12), *stream = stream_ptx(), *atom = atomics_ptx();
  char *revisit = revisit_ptx(), *bulk = bulk_ptx(), *late = late_barrier_ptx(24);
  char *loop0 = loop_ptx(40, 0), *loop1 = loop_ptx(30, 1), *loop2 = loop_ptx(30, 2);
  char *loop3 = loop_ptx(30, 3), *loop4 = loop_ptx(40, 4), *loop5 = loop_ptx(6, 5);
  struct sc {
    const char *ptx, *kernel;
    uint32_t grid, block, buf;
    int alike, touch;           /* run only the recorded blocks; keep the first touches */
  } cases[] = {
    {fma1, "fma", 3, 256, 4096, 1, 0},
    {fma4, "fma", 40, 512, 4096, 1, 0},
    {named, "named", 2, 128, 4096, 1, 0},
    {chase, "gchase", 2, 256, 4096, 1, 0},
    {chase, "schase", 2, 256, 4096, 1, 0},
    {stream, "stream", 0, 256, 0, 0, 1},
    {atom, "same", 0, 128, 1u << 20, 0, 0},
    {reread_ptx, "reread", 1, 1024, 1024 * 128, 1, 0},
    {granularity_ptx, "ld64", 3, 512, 64 * 512, 1, 0},
    {granularity_ptx, "st128", 3, 512, 128 * 512, 1, 0},
    {again_ptx, "again", 2, 64, 4096, 1, 0},
    {same_sector_ptx, "samesector", 2, 64, 4096, 1, 0},
    {shared_l2_ptx, "same", 0, 256, 1u << 20, 0, 1},
    {issue_order_ptx, "early", 2, 256, 1u << 16, 1, 0},
    {phantom_ptx, "phantom", 2, 64, 4096, 1, 0},
    {revisit, "revisit", 1, 1024, (1u << 20) + 4096, 1, 0},
    {bulk, "bulk", 2, 256, 64 * 1024, 1, 0},
    {war_ptx, "war", 2, 256, 16 * 1024, 1, 0},
    {guard_ptx, "guard", 2, 64, 4096, 1, 0},
    {late, "late", 3, 256, 4096, 1, 0},
    {loop0, "loop", 2, 256, 4096, 1, 0},
    {loop0, "loop", 3, 96, 4096, 1, 0},
    {loop1, "loop", 2, 256, 4096, 1, 0},
    {loop2, "loop", 2, 256, 4096, 1, 0},
    {loop3, "loop", 2, 128, 4096, 1, 0},
    {loop4, "loop", 2, 256, 4096, 1, 0},
    {loop5, "loop", 2, 256, 4096, 1, 0},
    {kinds_ptx, "kinds", 2, 256, 4096 + 4096, 1, 0},
  };
  uint64_t skipped[sizeof cases / sizeof cases[0]] = {0};
  for (size_t pi = 0; pi < sizeof profs / sizeof profs[0]; pi++)
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
      const struct sc *c = &cases[ci];
      struct occ_profile p;
      struct occ_error e;
      ck_assert_int_eq(occ_profile_load(profs[pi], &p, &e), OCC_OK);
      uint32_t grid = c->grid ? c->grid : 3 * (uint32_t)p.sm_count;
      struct model x;
      model_load(&x, c->ptx, c->buf ? c->buf : (uint64_t)grid * 32 * 1024);
      x.p = p;
      x.touch = c->touch;
      if (c->alike) {
        x.k = (struct tm_kernel){.grid_blocks = grid, .block_threads = c->block};
        ck_assert_int_eq(tm_plan(&x.p, &x.k, &x.plan), 0);
        model_run(&x, c->kernel, grid, c->block, x.plan.trace_blocks);
      } else {
        model_run(&x, c->kernel, grid, c->block, grid);
      }
      struct tm_report plain;
      ck_assert_int_eq(tm_model_plain(&x.p, &x.m, &x.k, &x.plan, &x.r.trace, &plain), 0);
      char what[96];
      snprintf(what, sizeof what, "%s on %s", c->kernel, profs[pi]);
      same_report(&x.rep, &plain, what);
      ck_assert_uint_eq(plain.cycles_skipped, 0);
      skipped[ci] += x.rep.cycles_skipped;
      model_free(&x);
    }
  for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++)   /* the loops' repeats */
    if (cases[ci].ptx == loop0 || cases[ci].ptx == loop1 || cases[ci].ptx == loop2 ||
        cases[ci].ptx == loop3 || cases[ci].ptx == loop4 || cases[ci].ptx == loop5)
      ck_assert_msg(skipped[ci] > 0, "case %zu: no repeats skipped", ci);
  free(fma1);
  free(fma4);
  free(named);
  free(chase);
  free(stream);
  free(atom);
  free(revisit);
  free(bulk);
  free(late);
  free(loop0);
  free(loop1);
  free(loop2);
  free(loop3);
  free(loop4);
  free(loop5);
}
END_TEST

Suite *suite_tm(void)
{
  Suite *s = suite_create("tm");
  TCase *tc = tcase_create("pieces");
  tcase_add_test(tc, test_cache_lru);
  tcase_add_test(tc, test_cache_sets);
  tcase_add_test(tc, test_cache_sectors);
  tcase_add_test(tc, test_cache_drop);
  tcase_add_test(tc, test_cache_dirty);
  tcase_add_test(tc, test_cache_fill_pair);
  tcase_add_test(tc, test_cache_random);
  tcase_add_test(tc, test_serve_queue);
  tcase_add_test(tc, test_serve_busy);
  tcase_add_test(tc, test_classify);
  tcase_add_test(tc, test_classify_tensor);
  tcase_add_loop_test(tc, test_classify_every_opcode, 0, PTX_OP_COUNT);
  tcase_add_test(tc, test_sm_dispatch);
  tcase_add_test(tc, test_plan);
  tcase_add_test(tc, test_dispatch_makespan);
  tcase_add_test(tc, test_dispatch_ratio);
  suite_add_tcase(s, tc);
  tc = tcase_create("model");
  tcase_set_timeout(tc, 30);
  tcase_add_test(tc, test_alike_trace_equals_grid_trace);
  tcase_add_test(tc, test_trace_block_choice);
  tcase_add_test(tc, test_atomic_unit);
  tcase_add_test(tc, test_fma_chains);
  tcase_add_test(tc, test_warps_per_scheduler);
  tcase_add_test(tc, test_barrier);
  tcase_add_test(tc, test_load_chains);
  tcase_add_test(tc, test_loads_issue_early);
  tcase_add_test(tc, test_address_issues_early);
  tcase_add_test(tc, test_address_chain_issues_early);
  tcase_add_test(tc, test_address_chain_stays_below_loads);
  tcase_add_test(tc, test_fill_loads_issue_early);
  tcase_add_test(tc, test_merged_shared_loads);
  tcase_add_test(tc, test_gather_chains_wait_their_turn);
  tcase_add_test(tc, test_dram_granularity);
  tcase_add_test(tc, test_dram_pair_again);
  tcase_add_test(tc, test_lsu_lines_not_span);
  tcase_add_test(tc, test_partial_store);
  tcase_add_test(tc, test_lsu_in_order);
  tcase_add_test(tc, test_line_fill);
  tcase_add_test(tc, test_l1_miss_lines);
  tcase_add_test(tc, test_shared_l2);
  tcase_add_test(tc, test_trace_rewave);
  tcase_add_test(tc, test_dram_page);
  tcase_add_test(tc, test_sector_on_its_way);
  tcase_add_test(tc, test_dram_bound);
  tcase_add_test(tc, test_extrapolation);
  tcase_add_test(tc, test_extrapolation_dispatch_bound);
  tcase_add_test(tc, test_wave_tail);
  tcase_add_test(tc, test_metrics);
  tcase_add_test(tc, test_cache_random_is_random);
  tcase_add_test(tc, test_named_barrier);
  tcase_add_test(tc, test_grid_dispatch);
  tcase_add_test(tc, test_block_work_recorded);
  tcase_add_test(tc, test_shortcuts_same_figures);
  tcase_add_test(tc, test_touch_bins_by_table);
  tcase_add_test(tc, test_cache_last_way);
  suite_add_tcase(s, tc);
  return s;
}
