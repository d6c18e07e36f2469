/* check_sim.c: the SIMT core on hand-written PTX: memory faults with their reports,
 * reconvergence (counted exactly), the spin lock under both scheduling models, barriers and
 * barrier divergence, the instruction budget, calls, 64-lane warps, and parallel runs that
 * must equal serial ones, which registers a block starts with zeroed, grid-wide
 * synchronisation in a cooperative grid, clusters (barrier.cluster, mapa, distributed
 * shared memory), the device's state digest, large buffers on huge pages, launches in a
 * forked child, and the worker threads kept from one launch to the next. Needs no nvcc. */
#include <check.h>
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ptx/ptx.h"
#include "sim/sim.h"
#include "sim/sim_alu.h"
#include "sim/sim_crew.h"
#include "sim/sim_int.h"
#include "suites.h"

#define HDR ".version 9.0\n.target sm_90\n.address_size 64\n"

/* The random tests' generator: an xorshift64 step on *s, then bits 11..42 of it (each test
   starts *s at a seed of its own, and names the call X_NEXT()). */
static uint32_t rng_next(uint64_t *s)
{
  *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
  return (uint32_t)(*s >> 11);
}

struct fx {
  struct ptx_module m;
  struct sim_device *d;
  struct sim_result r;
  char err[512];
};

static void load(struct fx *f, const char *src)
{
  struct ptx_error e;
  memset(f, 0, sizeof *f);
  enum ptx_status st = ptx_parse(src, strlen(src), &f->m, &e);
  ck_assert_msg(st == PTX_OK, "parse failed at line %u: %s", e.line, e.msg);
  f->d = sim_device_new();
  ck_assert_ptr_nonnull(f->d);
}

static void done(struct fx *f)
{
  sim_result_free(&f->r);
  sim_device_free(f->d);
  ptx_module_free(&f->m);
}

/* Launch kernel k with 1-D grid/block and n 8-byte parameters. */
static enum sim_status launch(struct fx *f, const char *k, uint32_t grid, uint32_t block,
                              const uint64_t *params, size_t n, enum sim_sched sched,
                              uint32_t workers, uint64_t budget)
{
  struct sim_launch c = {.grid = {grid, 1, 1}, .block = {block, 1, 1}, .sched = sched,
                         .workers = workers, .max_warp_insts = budget};
  sim_result_free(&f->r);
  return sim_run(f->d, &f->m, k, params, n * 8, &c, &f->r, f->err, sizeof f->err);
}

static uint64_t buffer(struct fx *f, uint64_t bytes, const char *name)
{
  uint64_t a;
  ck_assert_int_eq(sim_malloc(f->d, bytes, name, &a), SIM_OK);
  return a;
}

/* out[tid] = tid for every thread: no bounds check. */
static const char *k_store =
  HDR
  ".visible .entry store(.param .u64 p)\n"
  "{\n"
  "  .reg .b32 %r<3>;\n  .reg .b64 %rd<4>;\n"
  "  ld.param.u64 %rd1, [p];\n"
  "  cvta.to.global.u64 %rd2, %rd1;\n"
  "  mov.u32 %r1, %tid.x;\n"
  "  mul.wide.u32 %rd3, %r1, 4;\n"
  "  add.s64 %rd2, %rd2, %rd3;\n"
  "  .loc 1 7 3\n"
  "  st.global.u32 [%rd2], %r1;\n"
  "  ret;\n"
  "}\n"
  ".file 1 \"/lab/store.cu\"\n";

START_TEST(test_store_ok)
{
  struct fx f;
  load(&f, k_store);
  uint64_t a = buffer(&f, 64 * 4, "argument 0");
  ck_assert_int_eq(launch(&f, "store", 1, 64, &a, 1, SIM_SCHED_ITS, 1, 0), SIM_OK);
  ck_assert_int_eq(f.r.outcome, SIM_RAN_OK);
  uint32_t out[64];
  ck_assert_int_eq(sim_read(f.d, a, out, sizeof out), SIM_OK);
  for (uint32_t i = 0; i < 64; i++)
    ck_assert_uint_eq(out[i], i);
  /* 7 instructions, 2 warps, all lanes active */
  ck_assert_uint_eq(f.r.counters.warp_insts, 14);
  ck_assert_uint_eq(f.r.counters.thread_insts, 14 * 32);
  done(&f);
}
END_TEST

/* The "written by the device" mark (sim_written) that run.c trusts to skip comparing an input
   with its bytes as made: each kind of global store sets it on the allocation it reaches and
   on no other (q is only read); a host write of all of the allocation clears it, of a part
   does not. Each kernel runs twice, the mark cleared between, on 1 and 2 workers. */
#define MARK_K                                                                                  \
  HDR ".shared .align 128 .b8 sm[128];\n"                                                       \
  ".visible .entry k(.param .u64 p, .param .u64 q)\n{\n"                                        \
  "  .reg .pred %%pp<2>;\n  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<8>;\n"                          \
  "  ld.param.u64 %%rd1, [p];\n  ld.param.u64 %%rd2, [q];\n"                                    \
  "  cvta.to.global.u64 %%rd1, %%rd1;\n  cvta.to.global.u64 %%rd2, %%rd2;\n"                    \
  "  mov.u32 %%r1, %%tid.x;\n  mul.wide.u32 %%rd3, %%r1, 4;\n"                                  \
  "  add.s64 %%rd4, %%rd2, %%rd3;\n  ld.global.u32 %%r2, [%%rd4];\n"                            \
  "  add.s64 %%rd5, %%rd1, %%rd3;\n%s  ret;\n}\n"

static const struct {
  const char *name, *body;
  uint32_t block;
} mark_cases[] = {
  {"st.global, a whole warp", "  st.global.u32 [%rd5], %r2;\n", 32},
  {"st.global, part of a warp", "  st.global.u32 [%rd5], %r2;\n", 20},
  {"st.global, twice at one pc (the cached allocation's paths)",
   "  mov.u32 %r5, 0;\nL1:\n  st.global.u32 [%rd5], %r2;\n  add.s64 %rd5, %rd5, 128;\n"
   "  add.u32 %r5, %r5, 1;\n  setp.lt.u32 %pp1, %r5, 3;\n  @%pp1 bra L1;\n", 32},
  {"st.global, one lane", "  setp.eq.u32 %pp1, %r1, 3;\n  @%pp1 st.global.u32 [%rd5], %r2;\n", 32},
  {"generic st", "  cvta.global.u64 %rd6, %rd5;\n  st.u32 [%rd6], %r2;\n", 32},
  {"st.global.v4",
   "  mul.wide.u32 %rd6, %r1, 16;\n  add.s64 %rd6, %rd1, %rd6;\n"
   "  st.global.v4.u32 [%rd6], {%r2, %r2, %r2, %r2};\n", 32},
  {"st.global.v2.u64", "  mul.wide.u32 %rd6, %r1, 16;\n  add.s64 %rd6, %rd1, %rd6;\n"
   "  st.global.v2.u64 [%rd6], {%rd3, %rd3};\n", 32},
  {"atom.global.add", "  atom.global.add.u32 %r3, [%rd1], %r2;\n", 32},
  {"atom.global.cas", "  atom.global.cas.b32 %r3, [%rd1], %r2, %r1;\n", 32},
  {"red.global.add", "  red.global.add.u32 [%rd1], %r2;\n", 32},
  {"cp.async.bulk to global",
   "  mov.u32 %r3, sm;\n  mov.u32 %r4, 64;\n"
   "  st.shared.v4.u32 [sm], {%r2, %r2, %r2, %r2};\n  st.shared.v4.u32 [sm+16], {%r2, %r2, %r2, %r2};\n"
   "  st.shared.v4.u32 [sm+32], {%r2, %r2, %r2, %r2};\n  st.shared.v4.u32 [sm+48], {%r2, %r2, %r2, %r2};\n"
   "  cp.async.bulk.global.shared::cta.bulk_group [%rd1], [%r3], %r4;\n"
   "  cp.async.bulk.commit_group;\n  cp.async.bulk.wait_group 0;\n", 1},
};

START_TEST(test_store_marks_written)
{
  char src[2048];
  snprintf(src, sizeof src, MARK_K, mark_cases[_i].body);
  struct fx f;
  load(&f, src);
  uint64_t a[2] = {buffer(&f, 1024, "p"), buffer(&f, 1024, "q")};
  static uint8_t zero[1024];
  for (uint32_t workers = 1; workers <= 2; workers++) {
    ck_assert_int_eq(sim_write(f.d, a[0], zero, sizeof zero), SIM_OK);
    ck_assert_int_eq(sim_fill(f.d, a[1], 0, sizeof zero), SIM_OK);
    ck_assert_int_eq(sim_written(f.d, a[0]), 0);
    ck_assert_int_eq(sim_written(f.d, a[1]), 0);
    ck_assert_int_eq(launch(&f, "k", 2, mark_cases[_i].block, a, 2, SIM_SCHED_ITS, workers, 0),
                     SIM_OK);
    ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s: %s", mark_cases[_i].name, f.r.fault.message);
    ck_assert_msg(sim_written(f.d, a[0]) == 1, "%s: p not marked", mark_cases[_i].name);
    ck_assert_msg(sim_written(f.d, a[1]) == 0, "%s: q marked, read only", mark_cases[_i].name);
    ck_assert_int_eq(sim_write(f.d, a[0] + 8, zero, 4), SIM_OK);   /* a part: still marked */
    ck_assert_int_eq(sim_written(f.d, a[0]), 1);
  }
  ck_assert_int_eq(sim_fill(f.d, a[0], 0, sizeof zero), SIM_OK);
  ck_assert_int_eq(sim_written(f.d, a[0]), 0);
  ck_assert_int_eq(sim_written(f.d, 8), 1);      /* no allocation: not known, so written */
  done(&f);
}
END_TEST

/* count += 1 by thread 0, and the argument buffer's element 0 = 7: a kernel that changes a
   __device__ variable, beside a read-only __constant__ one */
static const char *k_count =
  HDR
  ".global .align 4 .u32 count;\n"
  ".const .align 4 .u32 limit = 5;\n"
  ".visible .entry bump(.param .u64 p)\n"
  "{\n"
  "  .reg .b32 %r<4>;\n  .reg .b64 %rd<3>;\n  .reg .pred %p<2>;\n"
  "  ld.param.u64 %rd1, [p];\n"
  "  cvta.to.global.u64 %rd2, %rd1;\n"
  "  mov.u32 %r1, %tid.x;\n"
  "  setp.ne.u32 %p1, %r1, 0;\n"
  "  @%p1 bra done;\n"
  "  ld.global.u32 %r2, [count];\n"
  "  ld.const.u32 %r3, [limit];\n"
  "  add.u32 %r2, %r2, 1;\n"
  "  st.global.u32 [count], %r2;\n"
  "  mov.u32 %r3, 7;\n"
  "  st.global.u32 [%rd2], %r3;\n"
  "done:\n"
  "  ret;\n"
  "}\n";

/* The device's state digest (what run.c compares before taking a sweep point's figures from
   an earlier launch) follows the __device__ variables a launch changes, and not the argument
   buffers the run writes itself before every launch. */
START_TEST(test_state_digest_follows_device_vars)
{
  struct fx f;
  load(&f, k_count);
  uint64_t a = buffer(&f, 64 * 4, "argument 0");
  ck_assert_int_eq(launch(&f, "bump", 1, 32, &a, 1, SIM_SCHED_ITS, 1, 0), SIM_OK);
  ck_assert_int_eq(f.r.outcome, SIM_RAN_OK);
  uint64_t once = sim_device_state_digest(f.d);
  uint32_t junk[64];
  memset(junk, 0xab, sizeof junk);
  ck_assert_int_eq(sim_write(f.d, a, junk, sizeof junk), SIM_OK);
  ck_assert(sim_device_state_digest(f.d) == once);     /* buffers are not the state */
  ck_assert_int_eq(launch(&f, "bump", 1, 32, &a, 1, SIM_SCHED_ITS, 1, 0), SIM_OK);
  ck_assert_int_eq(f.r.outcome, SIM_RAN_OK);
  uint64_t twice = sim_device_state_digest(f.d);
  ck_assert(twice != once);                             /* count went from 1 to 2 */
  ck_assert(sim_device_state_digest(f.d) == twice);
  done(&f);
}
END_TEST

/* a pointer far from every allocation is "in no allocation", not N bytes from the nearest */
/* The device heap's allocator (sim_heap.c): its size is set before it is made and not after;
   blocks are 16-byte aligned and distinct, malloc returns 0 when no range fits, the ranges
   freed in any order merge again into one, free refuses what malloc did not return, and the
   access check holds an access to its block. */
/* Large buffers (sim_big_alloc): zeroed, on huge-page boundaries (16 bytes past one) where
   they are mapped, freed by sim_big_free; a device allocation of that size and a launch's
   first-touch table (a grid over 40 MiB of allocations: a 2.5 MiB table) read and write
   as any other, and the table goes back with sim_result_free. */
START_TEST(test_big_buffers)
{
  ck_assert_int_eq(sim_big_mapped(SIM_BIG_MIN - 1), 0);
  uint64_t n = 2 * SIM_BIG_MIN + 100;
  uint8_t *p = sim_big_alloc(n);
  ck_assert_ptr_nonnull(p);
  if (sim_big_mapped(n))
    ck_assert_uint_eq(((uintptr_t)p - 16) % SIM_BIG_MIN, 0);
  for (uint64_t i = 0; i < n; i += 4093)
    ck_assert_uint_eq(p[i], 0);
  ck_assert_uint_eq(p[n - 1], 0);
  memset(p, 0xab, n);
  sim_big_free(p, n);

  struct fx f;
  load(&f, k_store);
  uint64_t big = buffer(&f, 40u << 20, "big");
  uint64_t params[1] = {big};
  struct sim_launch c = {.grid = {4, 1, 1}, .block = {64, 1, 1}, .workers = 2,
                         .trace_every = 1, .trace_blocks = 4, .trace_wave = 4};
  sim_result_free(&f.r);
  ck_assert_int_eq(sim_run(f.d, &f.m, "store", params, 8, &c, &f.r, f.err, sizeof f.err), SIM_OK);
  ck_assert_int_eq(f.r.outcome, SIM_RAN_OK);
  uint32_t v[64];
  ck_assert_int_eq(sim_read(f.d, big, v, sizeof v), SIM_OK);
  for (uint32_t i = 0; i < 64; i++)
    ck_assert_uint_eq(v[i], i);
  ck_assert_int_eq(sim_read(f.d, big + (40u << 20) - sizeof v, v, sizeof v), SIM_OK);
  for (uint32_t i = 0; i < 64; i++)
    ck_assert_uint_eq(v[i], 0);
  ck_assert_ptr_nonnull(f.r.trace.touch);
  ck_assert_uint_ge(f.r.trace.ntouch, (40u << 20) / 128);
  uint64_t first = sim_touch_index(&f.r.trace, big / 32);
  uint64_t last = sim_touch_index(&f.r.trace, (big + (40u << 20) - 1) / 32);
  ck_assert_uint_ne(first, UINT64_MAX);
  ck_assert_uint_ne(last, UINT64_MAX);
  ck_assert_uint_ne(f.r.trace.touch[first], 0);     /* the stores' line */
  ck_assert_uint_eq(f.r.trace.touch[last], 0);      /* never touched */
  /* freed and allocated again: zeros, not the old contents */
  ck_assert_int_eq(sim_free(f.d, big), SIM_OK);
  big = buffer(&f, 40u << 20, "again");
  ck_assert_int_eq(sim_read(f.d, big, v, sizeof v), SIM_OK);
  for (uint32_t i = 0; i < 64; i++)
    ck_assert_uint_eq(v[i], 0);
  done(&f);
}
END_TEST

/* The first-touch keys of 8 device lines (1 KiB, 1 KiB-aligned) share one cache line of the
   table, in allocations of any size: neighbouring blocks on two workers do not write one
   cache line of keys. A table of SIM_TABLE_MIN bytes or more is on huge pages (at the start
   of one, past sim_keep_alloc's header). */
START_TEST(test_touch_keys_line_up)
{
  struct fx f;
  load(&f, k_store);
  uint64_t sizes[] = {100, 3000, 1u << 20, 777, (3u << 20) + 5, 4096};
  uint64_t base[6];
  for (int i = 0; i < 6; i++)
    base[i] = buffer(&f, sizes[i], "buf");
  uint64_t params[1] = {base[4]};
  struct sim_launch c = {.grid = {2, 1, 1}, .block = {64, 1, 1}, .workers = 2,
                         .trace_every = 1, .trace_blocks = 2, .trace_wave = 2};
  ck_assert_int_eq(sim_run(f.d, &f.m, "store", params, 8, &c, &f.r, f.err, sizeof f.err), SIM_OK);
  ck_assert_ptr_nonnull(f.r.trace.touch);
  /* a 260 KiB table: in a huge page of its own (sim_table_alloc), except under ASan */
  ck_assert_uint_ge(f.r.trace.ntouch * 8, SIM_TABLE_MIN);
  ck_assert_int_eq(sim_table_mapped(SIM_TABLE_MIN - 1), 0);
  if (sim_table_mapped(f.r.trace.ntouch * 8))
    ck_assert_uint_le((uintptr_t)f.r.trace.touch % SIM_BIG_MIN, 128);
  for (int i = 0; i < 6; i++)
    for (uint64_t a = base[i]; a < base[i] + sizes[i]; a += 128) {
      uint64_t k = sim_touch_index(&f.r.trace, a / 32);
      ck_assert_uint_lt(k, f.r.trace.ntouch);
      ck_assert_uint_eq((uintptr_t)&f.r.trace.touch[k] % 64, (a >> 7) % 8 * 8);
    }
  uint64_t k = sim_touch_index(&f.r.trace, base[4] / 32);
  ck_assert_uint_ne(f.r.trace.touch[k], 0);         /* the stores' line */
  done(&f);
}
END_TEST

/* Resident pages among the n bytes from page-aligned p (mincore). */
static size_t resident(const void *p, size_t n)
{
  size_t pg = (size_t)sysconf(_SC_PAGESIZE), np = (n + pg - 1) / pg, r = 0;
  unsigned char *v = malloc(np);
  ck_assert_ptr_nonnull(v);
  ck_assert_int_eq(mincore((void *)p, n, v), 0);
  for (size_t i = 0; i < np; i++)
    r += v[i] & 1;
  free(v);
  return r;
}

/* Wait for the forked child pid, which must have exited with 0. */
static void child_ok(pid_t pid)
{
  int status = -1;
  ck_assert_int_eq(waitpid(pid, &status, 0), pid);
  ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child: status %#x", status);
}

/* A freed device buffer's mapping serves the next allocation (sim_mem.c's keep): one of the
   same size gets its memory, a larger one its pages at its start (resident before any
   write, where a fresh mapping has none); both read as zeros, as fresh memory does. While
   kept, a mapping is left out of forked children; once handed out it is theirs again. */
START_TEST(test_freed_buffer_memory_kept)
{
  const uint64_t n = 4u << 20;
  if (!sim_big_mapped(n))
    return;                                     /* AddressSanitizer: calloc'd */
  struct sim_device *d = sim_device_new();
  ck_assert_ptr_nonnull(d);
  uint64_t a, b, c;
  ck_assert_int_eq(sim_malloc(d, n, "a", &a), SIM_OK);
  ck_assert_int_eq(sim_fill(d, a, 0xab, n), SIM_OK);
  const uint8_t *pa = sim_view(d, a, n);
  ck_assert_int_eq(sim_free(d, a), SIM_OK);
  /* kept, it is not a forked child's (a GPU run's: no page tables copied, no copy-on-write) */
  size_t pg = (size_t)sysconf(_SC_PAGESIZE);
  unsigned char v;
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0)
    _exit(mincore((void *)(pa - (uintptr_t)pa % pg), pg, &v) != 0 && errno == ENOMEM ? 0 : 1);
  child_ok(pid);
  ck_assert_int_eq(sim_malloc(d, n, "b", &b), SIM_OK);
  ck_assert_uint_ne(b, a);                      /* device addresses only grow, as before */
  const uint8_t *pb = sim_view(d, b, n);
  ck_assert_ptr_eq(pb, pa);
  pid = fork();                                 /* live again: a child's, as any buffer */
  ck_assert_int_ge(pid, 0);
  if (pid == 0)
    _exit(mincore((void *)(pb - (uintptr_t)pb % pg), pg, &v) == 0 ? 0 : 1);
  child_ok(pid);
  for (uint64_t i = 0; i < n; i += 4093)
    ck_assert_uint_eq(pb[i], 0);
  ck_assert_uint_eq(pb[n - 1], 0);
  ck_assert_int_eq(sim_fill(d, b, 0xcd, n), SIM_OK);
  ck_assert_int_eq(sim_free(d, b), SIM_OK);
  ck_assert_int_eq(sim_malloc(d, 3 * n, "c", &c), SIM_OK);
  const uint8_t *pc = sim_view(d, c, 3 * n);
  const uint8_t *map = pc - (uintptr_t)pc % (size_t)sysconf(_SC_PAGESIZE);
  ck_assert_uint_ge(resident(map, n), n / (size_t)sysconf(_SC_PAGESIZE) - 1);
  ck_assert_uint_eq(resident(map + 2 * n, n), 0);  /* past the kept pages: fresh */
  for (uint64_t i = 0; i < 3 * n; i += 4093)
    ck_assert_uint_eq(pc[i], 0);
  sim_device_free(d);
}
END_TEST

/* Zeroed memory kept across launches (sim_keep_alloc): a buffer freed with sim_keep_free
   comes back for the next request of its size class, or of up to two classes smaller, and
   reads as zeros, as a fresh one does, however it was written; of a mapped one, the pages
   never written stay unmapped. A request that zero says it writes itself gets the buffer
   as it is; one larger than the buffer's class does not get it. */
START_TEST(test_keep_buffers_cleared)
{
  sim_keep_drop();
  prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);   /* 4 KiB pages: which were mapped is to be seen */
  size_t pg = (size_t)sysconf(_SC_PAGESIZE);
  const uint64_t sizes[] = {1000, SIM_TABLE_MIN * 4 + 100};
  for (int k = 0; k < 2; k++) {
    uint64_t n = sizes[k];
    uint8_t *p = sim_keep_zalloc(n);
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq((uintptr_t)p % 64, 0);        /* a cache line of its own */
    for (uint64_t i = 0; i < n; i += 97)
      ck_assert_uint_eq(p[i], 0);
    for (uint64_t i = 0; i < n; i += 3 * pg)        /* every third page, and the last byte */
      memset(p + i, 0xab, 100);
    p[n - 1] = 0xcd;
    sim_keep_free(p, n);
    uint8_t *q = sim_keep_zalloc(n - 10);           /* the same class: the same buffer */
    ck_assert_ptr_eq(q, p);
    for (uint64_t i = 0; i < n - 10; i++)
      ck_assert_msg(q[i] == 0, "byte %" PRIu64 " of %" PRIu64 " kept", i, n);
    memset(q, 0x11, n - 10);
    sim_keep_free(q, n - 10);
    uint8_t *r = sim_keep_alloc(n, 0);              /* written by its caller: as it is */
    ck_assert_ptr_eq(r, p);
    ck_assert_uint_eq(r[0], 0x11);
    sim_keep_free(r, n);
    uint8_t *big = sim_keep_zalloc(8 * n);          /* larger than its class: a fresh one */
    ck_assert_ptr_nonnull(big);
    ck_assert_ptr_ne(big, p);
    sim_keep_free(big, 8 * n);
  }
  /* a table workers share: on huge pages, at the start of one (sim_table_alloc's), not in
     the kept buffers of 4 KiB pages */
  uint8_t *t = sim_keep_alloc(SIM_TABLE_MIN * 4, SIM_KEEP_ZERO | SIM_KEEP_HUGE);
  ck_assert_ptr_nonnull(t);
  if (sim_table_mapped(SIM_TABLE_MIN * 4))
    ck_assert_uint_le((uintptr_t)t % SIM_BIG_MIN, 128);
  ck_assert_uint_eq(t[SIM_TABLE_MIN * 4 - 1], 0);
  sim_keep_free(t, SIM_TABLE_MIN * 4);
  /* a mapped buffer of 4 classes: a quarter of it written, then asked for by a request
     two classes smaller (the smallest kept that fits it), and a request of its own size */
  sim_keep_drop();
  uint64_t n = SIM_TABLE_MIN * 16;
  uint8_t *p = sim_keep_zalloc(n);
  ck_assert_ptr_nonnull(p);
  memset(p, 0x5a, n / 4);
  sim_keep_free(p, n);
  uint8_t *q = sim_keep_zalloc(n / 4);
  ck_assert_ptr_eq(q, p);
  for (uint64_t i = 0; i < n / 4; i++)
    ck_assert_uint_eq(q[i], 0);
  q[n / 4 - 1] = 1;
  sim_keep_free(q, n / 4);
  const uint8_t *map = p + (pg - (uintptr_t)p % pg) % pg;
  size_t before = sim_table_mapped(n) ? resident(map, n - pg) : 0;
  q = sim_keep_zalloc(n);
  ck_assert_ptr_eq(q, p);
  if (sim_table_mapped(n))       /* pages never written were not mapped to be cleared */
    ck_assert_uint_eq(resident(map, n - pg), before);
  for (uint64_t i = 0; i < n; i += 61)
    ck_assert_uint_eq(q[i], 0);
  ck_assert_uint_eq(q[n / 4 - 1], 0);
  sim_keep_free(q, n);
  sim_keep_drop();
  prctl(PR_SET_THP_DISABLE, 0, 0, 0, 0);
}
END_TEST

/* out[tid] = tid + 1000 (kadd1) or tid + 7 (kadd2): the immediates the linker keeps in
   constant registers, set once for a block's storage (sim_warp_init's consts_set). */
static const char *k_adds =
  HDR
  ".visible .entry kadd1(.param .u64 p)\n"
  "{\n"
  "  .reg .b32 %r<3>;\n  .reg .b64 %rd<4>;\n"
  "  ld.param.u64 %rd1, [p];\n"
  "  cvta.to.global.u64 %rd2, %rd1;\n"
  "  mov.u32 %r1, %tid.x;\n"
  "  mul.wide.u32 %rd3, %r1, 4;\n"
  "  add.s64 %rd2, %rd2, %rd3;\n"
  "  add.s32 %r2, %r1, 1000;\n"
  "  st.global.u32 [%rd2], %r2;\n"
  "  ret;\n"
  "}\n"
  ".visible .entry kadd2(.param .u64 p)\n"
  "{\n"
  "  .reg .b32 %r<3>;\n  .reg .b64 %rd<4>;\n"
  "  ld.param.u64 %rd1, [p];\n"
  "  cvta.to.global.u64 %rd2, %rd1;\n"
  "  mov.u32 %r1, %tid.x;\n"
  "  mul.wide.u32 %rd3, %r1, 4;\n"
  "  add.s64 %rd2, %rd2, %rd3;\n"
  "  add.s32 %r2, %r1, 7;\n"
  "  st.global.u32 [%rd2], %r2;\n"
  "  ret;\n"
  "}\n";

/* A launch's block storage and first-touch table come back to the next launch of the
   process (sim_keep_alloc) as fresh ones: the second kernel's constant registers are its
   own, not the first one's, and the lines the second launch does not touch read as
   untouched in its table, though the first launch touched them in the same memory. */
START_TEST(test_launch_storage_kept_fresh)
{
  sim_keep_drop();
  struct fx f;
  load(&f, k_adds);
  uint64_t a = buffer(&f, 256 * 4, "out");
  uint32_t v[256];
  const char *names[] = {"kadd1", "kadd2", "kadd1"};
  const uint32_t add[] = {1000, 7, 1000};
  for (int k = 0; k < 3; k++) {
    ck_assert_int_eq(launch(&f, names[k], 1, 256, &a, 1, SIM_SCHED_ITS, 1, 0), SIM_OK);
    ck_assert_int_eq(f.r.outcome, SIM_RAN_OK);
    ck_assert_int_eq(sim_read(f.d, a, v, sizeof v), SIM_OK);
    for (uint32_t i = 0; i < 256; i++)
      ck_assert_uint_eq(v[i], i + add[k]);
  }
  /* first touches: 256 threads touch 8 lines, then 32 threads 1 line, in the same table */
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {256, 1, 1}, .workers = 1,
                         .trace_every = 1, .trace_blocks = 1, .trace_wave = 1};
  sim_result_free(&f.r);
  ck_assert_int_eq(sim_run(f.d, &f.m, "kadd1", &a, 8, &c, &f.r, f.err, sizeof f.err), SIM_OK);
  ck_assert_ptr_nonnull(f.r.trace.touch);
  const uint64_t *first = f.r.trace.touch;
  for (uint32_t l = 0; l < 8; l++)
    ck_assert_uint_ne(f.r.trace.touch[sim_touch_index(&f.r.trace, a / 32 + l * 4)], 0);
  c.block[0] = 32;
  sim_result_free(&f.r);
  ck_assert_int_eq(sim_run(f.d, &f.m, "kadd2", &a, 8, &c, &f.r, f.err, sizeof f.err), SIM_OK);
  ck_assert_ptr_eq(f.r.trace.touch, first);          /* the same memory, kept */
  ck_assert_uint_ne(f.r.trace.touch[sim_touch_index(&f.r.trace, a / 32)], 0);
  for (uint32_t l = 1; l < 8; l++)
    ck_assert_uint_eq(f.r.trace.touch[sim_touch_index(&f.r.trace, a / 32 + l * 4)], 0);
  done(&f);
  sim_keep_drop();
}
END_TEST

START_TEST(test_heap_allocator)
{
  struct sim_device *d = sim_device_new();
  ck_assert_ptr_nonnull(d);
  ck_assert_int_eq(sim_set_heap_size(d, 0), SIM_ERR_BADARG);
  ck_assert_int_eq(sim_set_heap_size(d, SIM_HEAP_MAX + 1), SIM_ERR_BADARG);
  ck_assert_int_eq(sim_set_heap_size(d, 4096), SIM_OK);
  ck_assert_uint_eq(sim_heap_malloc(d, 16), 0);            /* not made yet */
  ck_assert_int_eq(sim_heap_ready(d), SIM_OK);
  ck_assert_int_eq(sim_set_heap_size(d, 8192), SIM_ERR_BADARG);
  uint64_t p[16];
  for (int i = 0; i < 16; i++) {
    p[i] = sim_heap_malloc(d, 250);                        /* 256 bytes each: the heap full */
    ck_assert_uint_ne(p[i], 0);
    ck_assert_uint_eq(p[i] % 16, 0);
    for (int j = 0; j < i; j++)
      ck_assert_uint_ne(p[i], p[j]);
  }
  ck_assert_uint_eq(sim_heap_malloc(d, 1), 0);
  ck_assert_int_eq(sim_heap_check(d, p[3], 4), 0);
  ck_assert_int_eq(sim_heap_check(d, p[3] + 246, 4), 0);
  ck_assert_int_eq(sim_heap_check(d, p[3] + 248, 4), -1);  /* past the 250 bytes asked for */
  ck_assert_int_eq(sim_heap_free(d, p[3] + 16), -1);       /* not a block's start */
  ck_assert_int_eq(sim_heap_free(d, 0), 0);                /* free(NULL) */
  const int order[16] = {5, 0, 15, 9, 3, 12, 1, 7, 14, 2, 10, 6, 13, 4, 11, 8};
  for (int i = 0; i < 16; i++)
    ck_assert_int_eq(sim_heap_free(d, p[order[i]]), 0);
  ck_assert_int_eq(sim_heap_free(d, p[5]), -1);            /* freed twice */
  ck_assert_int_eq(sim_heap_check(d, p[3], 4), -1);        /* freed: no access */
  uint64_t all = sim_heap_malloc(d, 4096);                 /* the ranges merged into one */
  ck_assert_uint_ne(all, 0);
  ck_assert_int_eq(sim_heap_check(d, all + 4092, 4), 0);
  ck_assert_int_eq(sim_free(d, all), SIM_ERR_BADARG);      /* the host cannot free the heap */
  sim_device_free(d);
}
END_TEST

/* malloc and free as a kernel calls them: a block one launch mallocs lives on to the next,
   which reads what the first wrote and frees it; a third launch's free of it is a fault */
static const char *k_heap =
  HDR
  ".extern .func (.param .b64 func_retval0) malloc(.param .b64 malloc_param_0);\n"
  ".extern .func free(.param .b64 free_param_0);\n"
  ".visible .entry mk(.param .u64 slot)\n"
  "{\n"
  "  .reg .b32 %r<2>;\n  .reg .b64 %rd<4>;\n"
  "  ld.param.u64 %rd1, [slot];\n"
  "  {\n  .param .b64 param0;\n  st.param.b64 [param0], 40;\n  .param .b64 retval0;\n"
  "  call.uni (retval0), malloc, (param0);\n  ld.param.b64 %rd2, [retval0];\n  }\n"
  "  mov.u32 %r1, 77;\n"
  "  st.u32 [%rd2+36], %r1;\n"
  "  st.u64 [%rd1], %rd2;\n"
  "  ret;\n"
  "}\n"
  ".visible .entry use(.param .u64 slot, .param .u64 out)\n"
  "{\n"
  "  .reg .b32 %r<2>;\n  .reg .b64 %rd<4>;\n"
  "  ld.param.u64 %rd1, [slot];\n"
  "  ld.param.u64 %rd3, [out];\n"
  "  ld.u64 %rd2, [%rd1];\n"
  "  ld.u32 %r1, [%rd2+36];\n"
  "  st.u32 [%rd3], %r1;\n"
  "  {\n  .param .b64 param0;\n  st.param.b64 [param0], %rd2;\n"
  "  call.uni free, (param0);\n  }\n"
  "  ret;\n"
  "}\n";

START_TEST(test_heap_across_launches)
{
  struct fx f;
  load(&f, k_heap);
  uint64_t slot = buffer(&f, 8, "slot"), out = buffer(&f, 4, "out");
  ck_assert_int_eq(launch(&f, "mk", 1, 1, &slot, 1, SIM_SCHED_ITS, 1, 0), SIM_OK);
  ck_assert_int_eq(f.r.outcome, SIM_RAN_OK);
  uint64_t pp[2] = {slot, out}, blk;
  ck_assert_int_eq(sim_read(f.d, slot, &blk, 8), SIM_OK);
  ck_assert_uint_ne(blk, 0);
  ck_assert_int_eq(launch(&f, "use", 1, 1, pp, 2, SIM_SCHED_ITS, 1, 0), SIM_OK);
  ck_assert_int_eq(f.r.outcome, SIM_RAN_OK);
  uint32_t v = 0;
  ck_assert_int_eq(sim_read(f.d, out, &v, 4), SIM_OK);
  ck_assert_uint_eq(v, 77);
  ck_assert_int_eq(launch(&f, "use", 1, 1, pp, 2, SIM_SCHED_ITS, 1, 0), SIM_OK);
  ck_assert_int_eq(f.r.outcome, SIM_FAULT);                /* the block is freed: its read */
  ck_assert_int_eq(f.r.fault.kind, SIM_FK_OUT_OF_BOUNDS);
  ck_assert_msg(strstr(f.r.fault.message, "in no block malloc holds") != NULL, "%s",
                f.r.fault.message);
  done(&f);
}
END_TEST

START_TEST(test_wild_pointer_report)
{
  struct fx f;
  load(&f, k_store);
  uint64_t a = buffer(&f, 64 * 4, "argument 0 (out)");
  uint64_t wild = a + (1ull << 36);
  ck_assert_int_eq(launch(&f, "store", 1, 64, &wild, 1, SIM_SCHED_ITS, 1, 0), SIM_OK);
  ck_assert_int_eq(f.r.outcome, SIM_FAULT);
  ck_assert_int_eq(f.r.fault.kind, SIM_FK_OUT_OF_BOUNDS);
  ck_assert_msg(strstr(f.r.fault.message, "is out of bounds, in no allocation") != NULL, "%s",
                f.r.fault.message);
  ck_assert_msg(strstr(f.r.fault.message, "past the end") == NULL, "%s", f.r.fault.message);
  done(&f);
}
END_TEST

START_TEST(test_oob_write_report)
{
  struct fx f;
  load(&f, k_store);
  uint64_t a = buffer(&f, 40 * 4, "argument 0 (out)");
  ck_assert_int_eq(launch(&f, "store", 1, 64, &a, 1, SIM_SCHED_ITS, 1, 0), SIM_OK);
  ck_assert_int_eq(f.r.outcome, SIM_FAULT);
  const struct sim_fault *ft = &f.r.fault;
  ck_assert_int_eq(ft->kind, SIM_FK_OUT_OF_BOUNDS);
  ck_assert_int_eq(ft->access, SIM_ACC_WRITE);
  ck_assert_int_eq(ft->space, PTX_SP_GLOBAL);
  ck_assert_uint_eq(ft->thread[0], 40);   /* the first thread past the end */
  ck_assert_uint_eq(ft->warp, 1);
  ck_assert_uint_eq(ft->lane, 8);
  ck_assert_uint_eq(ft->addr, a + 160);
  ck_assert_int_eq(ft->has_alloc, 1);
  ck_assert_str_eq(ft->alloc_name, "argument 0 (out)");
  ck_assert_int_eq(ft->alloc_offset, 160);
  ck_assert_uint_eq(f.m.insts[ft->inst].uline, 7);
  ck_assert_ptr_nonnull(strstr(ft->message, "store.cu:7"));
  ck_assert_ptr_nonnull(strstr(ft->message, "Invalid __global__ write of size 4 bytes"));
  ck_assert_ptr_nonnull(strstr(ft->message, "is out of bounds, 1 byte past the end of argument 0 (out)"));
  done(&f);
}
END_TEST

/* The lowest faulting block is reported, whatever the number of workers. */
START_TEST(test_fault_lowest_block)
{
  const char *k =
    HDR
    ".visible .entry blk(.param .u64 p)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<3>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  mov.u32 %r1, %ctaid.x;\n"
    "  setp.ne.s32 %p1, %r1, 3;\n"
    "  setp.ne.s32 %p1, %r1, 5;\n"
    "  setp.lt.s32 %p1, %r1, 3;\n"
    "  @%p1 bra DONE;\n"
    "  mul.wide.u32 %rd3, %r1, 4096;\n"
    "  add.s64 %rd2, %rd1, %rd3;\n"
    "  st.global.u32 [%rd2], %r1;\n"
    "DONE:\n  ret;\n}\n";
  for (uint32_t w = 1; w <= 4; w *= 2) {
    struct fx f;
    load(&f, k);
    uint64_t a = buffer(&f, 64, "argument 0");
    ck_assert_int_eq(launch(&f, "blk", 16, 32, &a, 1, SIM_SCHED_ITS, w, 0), SIM_OK);
    ck_assert_int_eq(f.r.outcome, SIM_FAULT);
    ck_assert_uint_eq(f.r.fault.block[0], 3);
    done(&f);
  }
}
END_TEST

/* Launch k on a 1-D grid in clusters of `cluster` blocks (0: none). */
static enum sim_status launch_cl(struct fx *f, const char *k, uint32_t grid, uint32_t block,
                                 const uint64_t *params, size_t n, uint32_t workers,
                                 uint32_t cluster)
{
  struct sim_launch c = {.grid = {grid, 1, 1}, .block = {block, 1, 1}, .sched = SIM_SCHED_ITS,
                         .workers = workers, .cluster = {cluster, cluster ? 1 : 0, cluster ? 1 : 0}};
  sim_result_free(&f->r);
  return sim_run(f->d, &f->m, k, params, n * 8, &c, &f->r, f->err, sizeof f->err);
}

/* A faulting launch keeps what a serial run keeps, whatever the number of workers: the
   counters, per-instruction statistics and printed text of the blocks up to the lowest
   faulting one (of its cluster, in clusters of 2: blocks 2 and 3), none after. Block 3 spins before it faults, so that on
   several workers the later blocks have ended (or are cut short) by then; each block prints
   its index, 1000 wide, and stores (block 3 past the end of the buffer), and block 9 prints
   more than the launch's printf buffer holds (cut, but not in the serial run's text). */
START_TEST(test_fault_keeps_serial_counters)
{
  const char *k =
    HDR
    ".extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, "
    ".param .b64 vprintf_param_1);\n"
    ".global .align 1 .b8 fmt[8] = {37, 49, 48, 48, 48, 117, 10, 0};\n"
    ".visible .entry spin(.param .u64 p, .param .u64 n)\n{\n"
    "  .local .align 8 .b8 depot[8];\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [p];\n  ld.param.u64 %rd2, [n];\n  cvt.u32.u64 %r2, %rd2;\n"
    "  mov.u32 %r1, %ctaid.x;\n  mov.u32 %r3, 0;\n"
    "  setp.ne.s32 %p1, %r1, 3;\n  @%p1 bra PRINT;\n"
    "LOOP:\n  add.u32 %r3, %r3, 1;\n  setp.lt.u32 %p2, %r3, %r2;\n  @%p2 bra LOOP;\n"
    "  mov.u32 %r1, 100000;\n"
    "PRINT:\n  mov.u32 %r4, %tid.x;\n  setp.ne.s32 %p3, %r4, 0;\n  @%p3 bra STORE;\n"
    "  mov.u32 %r6, 1;\n  mov.u32 %r7, %r1;\n  setp.ne.s32 %p1, %r1, 9;\n  @%p1 bra CALL;\n"
    "  mov.u32 %r6, 1100;\n"
    "CALL:\n  mov.u64 %rd4, depot;\n  cvta.local.u64 %rd5, %rd4;\n  st.local.u32 [depot], %r7;\n"
    "  mov.u64 %rd6, fmt;\n  cvta.global.u64 %rd7, %rd6;\n"
    "  { .param .b64 a0;\n  st.param.b64 [a0], %rd7;\n  .param .b64 a1;\n"
    "  st.param.b64 [a1], %rd5;\n  .param .b32 r;\n"
    "  call.uni (r), vprintf, (a0, a1);\n  }\n"
    "  sub.u32 %r6, %r6, 1;\n  setp.ne.u32 %p1, %r6, 0;\n  @%p1 bra CALL;\n"
    "STORE:\n  mad.lo.u32 %r5, %r1, 32, %r4;\n  mul.wide.u32 %rd2, %r5, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r3;\n  ret;\n}\n";
  char serial[4 * 1001 + 1] = "";               /* "%1000u\n" of 0, 1, 2, 100000 */
  for (uint32_t b = 0; b <= 3; b++)
    snprintf(serial + strlen(serial), sizeof serial - strlen(serial), "%1000u\n",
             b == 3 ? 100000 : b);
  for (uint32_t cl = 0; cl <= 2; cl += 2) {        /* blocks alone; clusters of 2 */
    struct sim_counters ctr1 = {0};
    uint64_t *execs1 = NULL, *sectors1 = NULL;
    char *text1 = NULL;
    size_t n1 = 0;
    for (uint32_t w = 1; w <= 4; w++) {
      struct fx f;
      load(&f, k);
      uint64_t p[2] = {buffer(&f, 64 * 32 * 4, "argument 0"), 200000};
      ck_assert_msg(launch_cl(&f, "spin", 64, 32, p, 2, w, cl) == SIM_OK, "%s", f.err);
      ck_assert_int_eq(f.r.outcome, SIM_FAULT);
      ck_assert_uint_eq(f.r.fault.block[0], 3);
      ck_assert_ptr_nonnull(f.r.printf_out);
      if (!cl)
        ck_assert_str_eq(f.r.printf_out, serial);
      ck_assert_int_eq(f.r.printf_cut, 0);
      if (w == 2 && !cl) {                      /* blocks 0 to 2 alone: no fault, all kept */
        ck_assert_int_eq(launch_cl(&f, "spin", 3, 32, p, 2, w, 0), SIM_OK);
        ck_assert_int_eq(f.r.outcome, SIM_OK);
        ck_assert_uint_eq(f.r.printf_len, 3 * 1001);
        ck_assert_int_eq(strncmp(f.r.printf_out, serial, 3 * 1001), 0);
        ck_assert_int_eq(f.r.printf_cut, 0);
        ck_assert_int_eq(launch_cl(&f, "spin", 64, 32, p, 2, w, 0), SIM_OK);
      }
      if (w == 1) {
        ctr1 = f.r.counters;
        n1 = f.r.nstats;
        text1 = strdup(f.r.printf_out);
        execs1 = calloc(n1, sizeof *execs1);
        sectors1 = calloc(n1, sizeof *sectors1);
        for (size_t i = 0; i < n1; i++) {
          execs1[i] = f.r.stats[i].execs;
          sectors1[i] = f.r.stats[i].g_sectors;
        }
        /* blocks 0, 1 and 2 and the spin of block 3, none after it */
        ck_assert_uint_gt(ctr1.warp_insts, 3 * 200000);
        ck_assert_uint_lt(ctr1.warp_insts, 4 * 200000);
      } else {
        ck_assert_str_eq(f.r.printf_out, text1);
        ck_assert_uint_eq(f.r.counters.warp_insts, ctr1.warp_insts);
        ck_assert_uint_eq(f.r.counters.thread_insts, ctr1.thread_insts);
        ck_assert_uint_eq(f.r.nstats, n1);
        for (size_t i = 0; i < n1; i++) {
          ck_assert_uint_eq(f.r.stats[i].execs, execs1[i]);
          ck_assert_uint_eq(f.r.stats[i].g_sectors, sectors1[i]);
        }
      }
      done(&f);
    }
    free(text1);
    free(execs1);
    free(sectors1);
  }
}
END_TEST

/* A faulting launch's warnings are a serial run's on any number of workers: those the
   blocks up to the fault gave, counted over those blocks. Threads 4-7 of every 8 read past
   the end of tab (16 a block); blocks 8 and up read past it again at another instruction,
   and block 3 spins, then faults. */
START_TEST(test_fault_keeps_serial_warnings)
{
  const char *k =
    HDR
    ".const .align 4 .b8 tab[16] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0};\n"
    ".visible .entry cw(.param .u64 p, .param .u64 n)\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [p];\n  ld.param.u64 %rd2, [n];\n  cvt.u32.u64 %r2, %rd2;\n"
    "  mov.u32 %r1, %ctaid.x;\n  mov.u32 %r4, %tid.x;\n"
    "  and.b32 %r5, %r4, 7;\n  mul.wide.u32 %rd3, %r5, 4;\n"
    "  mov.u64 %rd4, tab;\n  add.s64 %rd5, %rd4, %rd3;\n  ld.const.u32 %r6, [%rd5];\n"
    "  setp.lt.u32 %p1, %r1, 8;\n  @%p1 bra SKIP;\n"
    "  ld.const.u32 %r7, [tab+20];\n  add.u32 %r6, %r6, %r7;\n"
    "SKIP:\n  mov.u32 %r3, 0;\n  setp.ne.s32 %p1, %r1, 3;\n  @%p1 bra STORE;\n"
    "LOOP:\n  add.u32 %r3, %r3, 1;\n  setp.lt.u32 %p2, %r3, %r2;\n  @%p2 bra LOOP;\n"
    "  mov.u32 %r1, 100000;\n"
    "STORE:\n  mad.lo.u32 %r5, %r1, 32, %r4;\n  mul.wide.u32 %rd6, %r5, 4;\n"
    "  add.s64 %rd7, %rd1, %rd6;\n  st.global.u32 [%rd7], %r6;\n  ret;\n}\n";
  for (uint32_t w = 1; w <= 4; w++) {
    struct fx f;
    load(&f, k);
    uint64_t p[2] = {buffer(&f, 64 * 32 * 4, "argument 0"), 200000};
    ck_assert_msg(launch_cl(&f, "cw", 64, 32, p, 2, w, 0) == SIM_OK, "%s", f.err);
    ck_assert_int_eq(f.r.outcome, SIM_FAULT);
    ck_assert_uint_eq(f.r.fault.block[0], 3);
    ck_assert_uint_eq(f.r.nwarn, 1);
    ck_assert_uint_eq(f.r.warn[0].count, 4 * 16);
    ck_assert_uint_eq(f.r.warn[0].block[0], 0);
    ck_assert_uint_eq(f.r.warn[0].thread[0], 4);
    if (w == 2) {                                /* no fault: every block's */
      ck_assert_int_eq(launch_cl(&f, "cw", 3, 32, p, 2, w, 0), SIM_OK);
      ck_assert_int_eq(f.r.outcome, SIM_OK);
      ck_assert_uint_eq(f.r.nwarn, 1);
      ck_assert_uint_eq(f.r.warn[0].count, 3 * 16);
      p[1] = 1;                                  /* block 3 stores past the end at once */
      ck_assert_int_eq(launch_cl(&f, "cw", 12, 32, p, 2, w, 0), SIM_OK);
      ck_assert_int_eq(f.r.outcome, SIM_FAULT);
      ck_assert_uint_eq(f.r.nwarn, 1);
      ck_assert_uint_eq(f.r.warn[0].count, 4 * 16);
    }
    done(&f);
  }
}
END_TEST

/* sim_tally over claims (1 to 4 consecutive blocks) that end in any order, a fault at any
   block or none (its claim ends there), claims past the fault that never end, some of
   those that end as the lowest not ended counting on their own (sim_tally_pass): the sum
   is that of the blocks up to the fault, and after every claim the runs are in order,
   apart (a gap between each two), above the lowest block not ended, and each holds the sum
   of its blocks (block i counts i + 1 executions at pc 0, 1 at pc 2, and 3 i
   warp-instructions); with no fault every block ends up in `done`. */
START_TEST(test_tally_orders)
{
  uint64_t rng = 0x7a11;
  for (int trial = 0; trial < 3000; trial++) {
    const uint32_t n = 1 + (uint32_t)(sim_order_next(&rng) % 40);
    const uint32_t fault = sim_order_next(&rng) % 3 ? (uint32_t)(sim_order_next(&rng) % n)
                                                    : UINT32_MAX;
    uint32_t lo[40], hi[40], order[40], nu = 0;
    for (uint32_t b = 0; b < n; nu++) {             /* the claims */
      lo[nu] = b;
      b += 1 + (uint32_t)(sim_order_next(&rng) % 4);
      hi[nu] = (b < n ? b : n) - 1;
      b = hi[nu] + 1;
    }
    for (uint32_t k = 0; k < nu; k++) {              /* Fisher-Yates: the order they end in */
      uint32_t j = (uint32_t)(sim_order_next(&rng) % (k + 1));
      order[k] = order[j];
      order[j] = k;
    }
    struct sim_tally t;
    ck_assert_int_eq(sim_tally_init(&t, 3), 0);
    struct sim_inst_stats *st = sim_tally_table(&t);
    ck_assert_ptr_nonnull(st);
    uint32_t stop = UINT32_MAX;
    struct sim_inst_stats own[3] = {{0}};          /* what the passed claims counted */
    struct sim_counters own_ctr = {0, 0};
    for (uint32_t k = 0; k < nu; k++) {
      const uint32_t u = order[k];
      uint32_t a = lo[u], z = hi[u];
      if (stop != UINT32_MAX && a > stop && sim_order_next(&rng) % 2)
        continue;                                    /* given back, or never ends */
      if (a <= fault && fault <= z) {                /* it faults: its claim ends there */
        stop = fault;
        z = fault;
      }
      const uint64_t blocks = z - a + 1;
      const uint64_t execs = (uint64_t)(a + 1 + z + 1) * blocks / 2;
      const struct sim_counters c = {3ull * (a + z) * blocks / 2, blocks};
      /* (a claim past a fault never starts as the lowest not ended) */
      if (a == t.low && z <= stop && sim_order_next(&rng) % 2) {
        sim_tally_pass(&t, a, z, stop);
        own[0].execs += execs;
        own[2].execs += blocks;
        own_ctr.warp_insts += c.warp_insts;
        own_ctr.thread_insts += c.thread_insts;
        continue;
      }
      st[0].execs = execs;
      st[2].execs = blocks;
      ck_assert_int_eq(sim_tally_add(&t, a, z, &c, &st, stop), 0);
      ck_assert_ptr_nonnull(st);
      for (uint32_t pc = 0; pc < 3; pc++)
        ck_assert_uint_eq(st[pc].execs, 0);
      for (uint32_t r = 0; r < t.nrun; r++) {
        const struct sim_tally_run *v = &t.run[r];
        ck_assert_uint_gt(v->lo, t.low);
        ck_assert_uint_le(v->lo, v->hi);
        ck_assert_uint_le(v->hi, stop);
        if (r + 1 < t.nrun)
          ck_assert_uint_lt(v->hi + 1, t.run[r + 1].lo);
        const uint64_t vb = v->hi - v->lo + 1;
        ck_assert_uint_eq(v->st[0].execs, (uint64_t)(v->lo + 1 + v->hi + 1) * vb / 2);
        ck_assert_uint_eq(v->st[2].execs, vb);
        ck_assert_uint_eq(v->ctr.warp_insts, 3ull * (v->lo + v->hi) * vb / 2);
        ck_assert_uint_eq(v->ctr.thread_insts, vb);
      }
    }
    const uint32_t last = fault == UINT32_MAX ? n - 1 : fault;
    if (fault == UINT32_MAX) {
      ck_assert_uint_eq(t.nrun, 0);
      ck_assert_uint_eq(t.low, n);
    }
    struct sim_inst_stats *sum = own;
    struct sim_counters ctr = own_ctr;
    sim_tally_sum(&t, stop, sum, &ctr);
    ck_assert_uint_eq(sum[0].execs, (uint64_t)(last + 1) * (last + 2) / 2);
    ck_assert_uint_eq(sum[1].execs, 0);
    ck_assert_uint_eq(sum[2].execs, last + 1);
    ck_assert_uint_eq(ctr.warp_insts, 3ull * last * (last + 1) / 2);
    ck_assert_uint_eq(ctr.thread_insts, last + 1);
    free(st);
    sim_tally_free(&t);
  }
}
END_TEST

START_TEST(test_misaligned_and_readonly)
{
  const char *k =
    HDR
    ".const .align 4 .b8 tab[8] = {1, 0, 0, 0, 2, 0, 0, 0};\n"
    ".visible .entry mis(.param .u64 p)\n{\n"
    "  .reg .b32 %r<2>;\n  .reg .b64 %rd<3>;\n"
    "  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, 7;\n"
    "  st.global.u32 [%rd1+2], %r1;\n  ret;\n}\n"
    ".visible .entry ro()\n{\n"
    "  .reg .b32 %r<2>;\n  .reg .b64 %rd<3>;\n"
    "  mov.u64 %rd1, tab;\n  ld.global.u32 %r1, [%rd1+4];\n"
    "  st.global.u32 [%rd1], %r1;\n  ret;\n}\n";
  struct fx f;
  load(&f, k);
  uint64_t a = buffer(&f, 64, "argument 0");
  ck_assert_int_eq(launch(&f, "mis", 1, 1, &a, 1, SIM_SCHED_ITS, 1, 0), SIM_OK);
  ck_assert_int_eq(f.r.fault.kind, SIM_FK_MISALIGNED);
  ck_assert_uint_eq(f.r.fault.addr, a + 2);
  ck_assert_int_eq(launch(&f, "ro", 1, 1, NULL, 0, SIM_SCHED_ITS, 1, 0), SIM_OK);
  ck_assert_int_eq(f.r.fault.kind, SIM_FK_READ_ONLY);
  ck_assert_ptr_nonnull(strstr(f.r.fault.alloc_name, "tab"));
  done(&f);
}
END_TEST

/* A recursive function's activations take ptxas's stack frame for it when the launch gives
   one (sim_launch.frames), else the estimate (.local bytes + SIM_RECUR_FRAME, 16 here), and
   the overflow fault says which: d(n) = d(n - 1) + 1 makes n + 1 activations. */
START_TEST(test_recursion_takes_ptxas_frames)
{
  const char *k =
    HDR
    ".func (.param .b32 rv) d(.param .b32 n)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n"
    "  ld.param.u32 %r1, [n];\n  mov.u32 %r3, 0;\n  setp.eq.u32 %p1, %r1, 0;\n"
    "  @%p1 bra DONE;\n  sub.u32 %r2, %r1, 1;\n"
    "  {\n  .param .b32 a;\n  st.param.b32 [a], %r2;\n  .param .b32 r;\n"
    "  call.uni (r), d, (a);\n  ld.param.b32 %r3, [r];\n  }\n"
    "  add.u32 %r3, %r3, 1;\n"
    "DONE:\n  st.param.b32 [rv], %r3;\n  ret;\n}\n"
    ".visible .entry k(.param .u32 n)\n{\n"
    "  .reg .b32 %r<3>;\n  ld.param.u32 %r1, [n];\n"
    "  {\n  .param .b32 a;\n  st.param.b32 [a], %r1;\n  .param .b32 r;\n"
    "  call.uni (r), d, (a);\n  ld.param.b32 %r2, [r];\n  }\n  ret;\n}\n";
  struct fx f;
  load(&f, k);
  struct sim_frame big = {.func = "d", .bytes = 32}, small = {.func = "d", .bytes = 8};
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {1, 1, 1}, .workers = 1};
  uint32_t n = 40;             /* 41 activations: 656 bytes estimated, 1312 at 32 bytes */
  sim_result_free(&f.r);
  ck_assert_int_eq(sim_run(f.d, &f.m, "k", &n, 4, &c, &f.r, f.err, sizeof f.err), SIM_OK);
  ck_assert_int_eq(f.r.outcome, SIM_RAN_OK);
  c.frames = &big;
  c.nframes = 1;
  sim_result_free(&f.r);
  ck_assert_int_eq(sim_run(f.d, &f.m, "k", &n, 4, &c, &f.r, f.err, sizeof f.err), SIM_OK);
  ck_assert_int_eq(f.r.fault.kind, SIM_FK_CALL_DEPTH);
  ck_assert_msg(strstr(f.r.fault.message, "33 calls deep") &&
                strstr(f.r.fault.message, "takes 32 bytes (ptxas: 32-byte frame)"), "%s",
                f.r.fault.message);
  n = 100;                     /* 101 activations: 1616 bytes estimated, 808 at 8 bytes */
  c.frames = &small;
  sim_result_free(&f.r);
  ck_assert_int_eq(sim_run(f.d, &f.m, "k", &n, 4, &c, &f.r, f.err, sizeof f.err), SIM_OK);
  ck_assert_int_eq(f.r.outcome, SIM_RAN_OK);
  c.frames = NULL;
  c.nframes = 0;
  sim_result_free(&f.r);
  ck_assert_int_eq(sim_run(f.d, &f.m, "k", &n, 4, &c, &f.r, f.err, sizeof f.err), SIM_OK);
  ck_assert_int_eq(f.r.fault.kind, SIM_FK_CALL_DEPTH);
  ck_assert_msg(strstr(f.r.fault.message, "65 calls deep") &&
                strstr(f.r.fault.message, "takes 16 bytes (estimated:") &&
                strstr(f.r.fault.message, "not available"), "%s", f.r.fault.message);
  done(&f);
}
END_TEST

START_TEST(test_shared_and_local_bounds)
{
  const char *k =
    HDR
    ".visible .entry sh(.param .u32 i)\n{\n"
    "  .shared .align 4 .b8 s[64];\n"
    "  .reg .b32 %r<4>;\n"
    "  ld.param.u32 %r1, [i];\n  mov.u32 %r2, s;\n  add.s32 %r3, %r2, %r1;\n"
    "  st.shared.u32 [%r3], %r1;\n  ret;\n}\n"
    ".visible .entry lo(.param .u32 i)\n{\n"
    "  .local .align 4 .b8 d[16];\n"
    "  .reg .b32 %r<2>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u32 %r1, [i];\n  mov.u64 %rd1, d;\n  cvt.u64.u32 %rd2, %r1;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n  st.local.u32 [%rd3], %r1;\n  ret;\n}\n";
  struct fx f;
  load(&f, k);
  uint64_t p = 60;
  ck_assert_int_eq(launch(&f, "sh", 1, 1, &p, 0, SIM_SCHED_ITS, 1, 0), SIM_ERR_BADARG);
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {1, 1, 1}, .workers = 1};
  uint32_t i = 60;
  sim_result_free(&f.r);
  ck_assert_int_eq(sim_run(f.d, &f.m, "sh", &i, 4, &c, &f.r, f.err, sizeof f.err), SIM_OK);
  ck_assert_int_eq(f.r.outcome, SIM_RAN_OK);
  ck_assert_uint_eq(f.r.static_smem, 64);
  i = 64;
  sim_result_free(&f.r);
  ck_assert_int_eq(sim_run(f.d, &f.m, "sh", &i, 4, &c, &f.r, f.err, sizeof f.err), SIM_OK);
  ck_assert_int_eq(f.r.fault.kind, SIM_FK_OUT_OF_BOUNDS);
  ck_assert_int_eq(f.r.fault.space, PTX_SP_SHARED);
  i = 12;
  sim_result_free(&f.r);
  ck_assert_int_eq(sim_run(f.d, &f.m, "lo", &i, 4, &c, &f.r, f.err, sizeof f.err), SIM_OK);
  ck_assert_int_eq(f.r.outcome, SIM_RAN_OK);
  ck_assert_uint_eq(f.r.local_bytes, 16);
  i = 16;
  sim_result_free(&f.r);
  ck_assert_int_eq(sim_run(f.d, &f.m, "lo", &i, 4, &c, &f.r, f.err, sizeof f.err), SIM_OK);
  ck_assert_int_eq(f.r.fault.kind, SIM_FK_OUT_OF_BOUNDS);
  ck_assert_int_eq(f.r.fault.space, PTX_SP_LOCAL);
  done(&f);
}
END_TEST

/* if (tid & 1) a else b; then 4 joined instructions. With reconvergence at the join the warp
   runs the tail once: 4 (head) + 2 (then: add, bra) + 1 (else) + 5 (tail incl. ret) = 12. */
START_TEST(test_reconvergence_counts)
{
  const char *k =
    HDR
    ".visible .entry dia(.param .u64 p)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<6>;\n  .reg .b64 %rd<2>;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  and.b32 %r2, %r1, 1;\n"
    "  setp.eq.s32 %p1, %r2, 0;\n"
    "  @%p1 bra ELSE;\n"
    "  add.s32 %r3, %r1, 100;\n"
    "  bra.uni JOIN;\n"
    "ELSE:\n"
    "  add.s32 %r3, %r1, 200;\n"
    "JOIN:\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  mul.wide.u32 %rd1, %r1, 4;\n"
    "  mov.u32 %r4, %r3;\n"
    "  mov.u32 %r5, %r4;\n"
    "  ret;\n}\n";
  for (int s = 0; s < 2; s++) {
    struct fx f;
    load(&f, k);
    uint64_t a = 0;
    ck_assert_int_eq(launch(&f, "dia", 1, 32, &a, 1, s ? SIM_SCHED_STACK : SIM_SCHED_ITS, 1, 0),
                     SIM_OK);
    ck_assert_int_eq(f.r.outcome, SIM_RAN_OK);
    ck_assert_uint_eq(f.r.counters.warp_insts, 4 + 2 + 1 + 5);
    /* thread instructions: 4*32 + 2*16 + 1*16 + 5*32 */
    ck_assert_uint_eq(f.r.counters.thread_insts, 4 * 32 + 2 * 16 + 16 + 5 * 32);
    done(&f);
  }
}
END_TEST

/* An if inside one side of an if, each with its own join: the inner barrier's lanes, once
   released, are under the outer one (their top barrier when the inner one was pushed) and
   meet the other side there. Counted exactly: every instruction after a join runs once. */
START_TEST(test_nested_reconvergence_counts)
{
  const char *k =
    HDR
    ".visible .entry nest(.param .u64 p)\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<6>;\n  .reg .b64 %rd<4>;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  and.b32 %r2, %r1, 1;\n"
    "  setp.eq.s32 %p1, %r2, 0;\n"
    "  @%p1 bra ELSE1;\n"
    "  and.b32 %r3, %r1, 2;\n"
    "  setp.eq.s32 %p2, %r3, 0;\n"
    "  @%p2 bra ELSE2;\n"
    "  add.s32 %r4, %r1, 1;\n"
    "  bra.uni J2;\n"
    "ELSE2:\n"
    "  add.s32 %r4, %r1, 2;\n"
    "J2:\n"
    "  add.s32 %r4, %r4, 3;\n"
    "  bra.uni J1;\n"
    "ELSE1:\n"
    "  add.s32 %r4, %r1, 5;\n"
    "J1:\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r4;\n"
    "  ret;\n}\n";
  for (int s = 0; s < 2; s++) {
    struct fx f;
    load(&f, k);
    uint64_t out = buffer(&f, 64 * 4, "out");
    ck_assert_int_eq(launch(&f, "nest", 1, 64, &out, 1, s ? SIM_SCHED_STACK : SIM_SCHED_ITS, 1,
                            0), SIM_OK);
    ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
    /* per warp: 4 before the outer if, 3 on its odd side, 2 + 1 on the inner sides, 2 after
       the inner join, 1 on the even side, 5 after the outer join */
    ck_assert_uint_eq(f.r.counters.warp_insts, 2 * (4 + 3 + 2 + 1 + 2 + 1 + 5));
    ck_assert_uint_eq(f.r.counters.thread_insts,
                      2 * (4 * 32 + 3 * 16 + 2 * 8 + 8 + 2 * 16 + 16 + 5 * 32));
    uint32_t got[64];
    ck_assert_int_eq(sim_read(f.d, out, got, sizeof got), SIM_OK);
    for (uint32_t t = 0; t < 64; t++)
      ck_assert_uint_eq(got[t], !(t & 1) ? t + 5 : (t & 2) ? t + 4 : t + 5);
    done(&f);
  }
}
END_TEST

/* while (*s != tid) ; *s = *s + 1; : the SIMT spin lock. */
static const char *k_spin =
  HDR
  ".visible .entry spin(.param .u64 s, .param .u64 o)\n{\n"
  "  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<6>;\n"
  "  ld.param.u64 %rd1, [s];\n  ld.param.u64 %rd2, [o];\n"
  "  mov.u32 %r1, %tid.x;\n"
  "LOOP:\n"
  "  .loc 1 3 5\n"
  "  ld.volatile.global.u32 %r2, [%rd1];\n"
  "  setp.ne.s32 %p1, %r2, %r1;\n"
  "  @%p1 bra LOOP;\n"
  "  .loc 1 4 5\n"
  "  add.s32 %r3, %r1, 1;\n"
  "  st.global.u32 [%rd1], %r3;\n"
  "  mul.wide.u32 %rd3, %r1, 4;\n  add.s64 %rd4, %rd2, %rd3;\n"
  "  st.global.u32 [%rd4], %r2;\n"
  "  ret;\n}\n"
  ".file 1 \"/lab/spin.cu\"\n";

START_TEST(test_spinlock_its_completes)
{
  struct fx f;
  load(&f, k_spin);
  uint64_t p[2] = {buffer(&f, 4, "s"), buffer(&f, 32 * 4, "o")};
  ck_assert_int_eq(launch(&f, "spin", 1, 32, p, 2, SIM_SCHED_ITS, 1, 0), SIM_OK);
  ck_assert_int_eq(f.r.outcome, SIM_RAN_OK);
  uint32_t s, o[32];
  sim_read(f.d, p[0], &s, 4);
  sim_read(f.d, p[1], o, sizeof o);
  ck_assert_uint_eq(s, 32);
  for (uint32_t i = 0; i < 32; i++)
    ck_assert_uint_eq(o[i], i);
  done(&f);
}
END_TEST

START_TEST(test_spinlock_stack_deadlocks)
{
  struct fx f;
  load(&f, k_spin);
  uint64_t p[2] = {buffer(&f, 4, "s"), buffer(&f, 32 * 4, "o")};
  ck_assert_int_eq(launch(&f, "spin", 1, 32, p, 2, SIM_SCHED_STACK, 1, 0), SIM_OK);
  ck_assert_int_eq(f.r.outcome, SIM_DEADLOCK);
  const struct sim_fault *ft = &f.r.fault;
  ck_assert_int_eq(ft->kind, SIM_FK_DEADLOCK);
  ck_assert_uint_ge(ft->nwaiters, 2);
  int spinning = 0, reconv = 0;
  for (uint32_t i = 0; i < ft->nwaiters; i++) {
    const struct sim_waiter *w = &ft->waiters[i];
    if (!strcmp(w->reason, "spinning")) {
      spinning = 1;
      ck_assert_uint_eq(w->lanes, 0xfffffffeull);
      ck_assert_uint_eq(f.m.insts[w->inst].uline, 3);
    }
    if (!strcmp(w->reason, "reconvergence")) {
      reconv = 1;
      ck_assert_uint_eq(w->lanes, 1);
      ck_assert_uint_eq(f.m.insts[w->inst].uline, 4);
    }
  }
  ck_assert(spinning && reconv);
  ck_assert_ptr_nonnull(strstr(ft->message, "SIMT deadlock"));
  done(&f);
}
END_TEST

/* The waiter of ft whose reason is `reason`, or NULL. */
static const struct sim_waiter *waiter(const struct sim_fault *ft, const char *reason)
{
  for (uint32_t i = 0; i < ft->nwaiters; i++)
    if (!strcmp(ft->waiters[i].reason, reason))
      return &ft->waiters[i];
  return NULL;
}

/* A lock taken with atomicCAS (labs/06-divergence/spinlock.cu's append):
   while (atomicCAS(lock, 0, 1) != 0) ; k = *len; list[k] = tid; *len = k + 1;
   atomicExch(lock, 0); */
static const char *k_caslock =
  HDR
  ".visible .entry append(.param .u64 lock, .param .u64 list, .param .u64 len)\n{\n"
  "  .reg .pred %p<2>;\n  .reg .b32 %r<9>;\n  .reg .b64 %rd<8>;\n"
  "  ld.param.u64 %rd1, [lock];\n  ld.param.u64 %rd2, [list];\n  ld.param.u64 %rd3, [len];\n"
  "  mov.u32 %r1, %tid.x;\n  mov.u32 %r6, %ctaid.x;\n  mov.u32 %r7, %ntid.x;\n"
  "  mad.lo.s32 %r1, %r6, %r7, %r1;\n"
  "  mov.u32 %r2, 0;\n  mov.u32 %r3, 1;\n"
  "LOOP:\n"
  "  .loc 1 3 5\n"
  "  atom.global.cas.b32 %r4, [%rd1], %r2, %r3;\n"
  "  setp.ne.s32 %p1, %r4, 0;\n"
  "  @%p1 bra LOOP;\n"
  "  .loc 1 4 5\n"
  "  ld.volatile.global.u32 %r5, [%rd3];\n"
  "  mul.wide.u32 %rd4, %r5, 4;\n  add.s64 %rd5, %rd2, %rd4;\n"
  "  st.global.u32 [%rd5], %r1;\n"
  "  add.s32 %r5, %r5, 1;\n"
  "  st.volatile.global.u32 [%rd3], %r5;\n"
  "  membar.gl;\n"
  "  atom.global.exch.b32 %r8, [%rd1], %r2;\n"
  "  ret;\n}\n"
  ".file 1 \"/lab/lock.cu\"\n";

/* Under the stack the lane that took the lock waits after the loop for the lanes that try it
   forever: a failed CAS changes nothing, so it is a deadlock, not a runaway loop. */
START_TEST(test_cas_lock_stack_deadlocks)
{
  struct fx f;
  load(&f, k_caslock);
  uint64_t p[3] = {buffer(&f, 4, "lock"), buffer(&f, 32 * 4, "list"), buffer(&f, 4, "len")};
  ck_assert_int_eq(launch(&f, "append", 1, 32, p, 3, SIM_SCHED_STACK, 1, 10000000), SIM_OK);
  ck_assert_int_eq(f.r.outcome, SIM_DEADLOCK);
  const struct sim_fault *ft = &f.r.fault;
  ck_assert_uint_eq(ft->nwaiters, 2);
  const struct sim_waiter *spin = waiter(ft, "spinning"), *rec = waiter(ft, "reconvergence");
  ck_assert_ptr_nonnull(spin);
  ck_assert_ptr_nonnull(rec);
  ck_assert_uint_eq(spin->lanes, 0xfffffffeull);
  ck_assert_uint_eq(f.m.insts[spin->inst].uline, 3);
  ck_assert_uint_eq(rec->lanes, 1);
  ck_assert_uint_eq(f.m.insts[rec->inst].uline, 4);
  ck_assert_uint_eq(f.m.insts[ft->inst].uline, 3);
  ck_assert_ptr_nonnull(strstr(ft->message, "SIMT deadlock"));
  ck_assert_ptr_nonnull(strstr(ft->message, "lanes 1-31 of warp 0 keep looping at lock.cu:3"));
  ck_assert_uint_lt(f.r.counters.warp_insts, 1000000);
  uint32_t len;
  sim_read(f.d, p[2], &len, 4);
  ck_assert_uint_eq(len, 0);
  done(&f);
}
END_TEST

/* Under independent scheduling every thread gets the lock in turn, also when it is held by a
   block on another worker while this block's warps only fail their CAS. */
START_TEST(test_cas_lock_its_completes)
{
  for (uint32_t workers = 1; workers <= 3; workers += 2) {
    struct fx f;
    load(&f, k_caslock);
    uint64_t p[3] = {buffer(&f, 4, "lock"), buffer(&f, 96 * 4, "list"), buffer(&f, 4, "len")};
    ck_assert_int_eq(launch(&f, "append", 3, 32, p, 3, SIM_SCHED_ITS, workers, 0), SIM_OK);
    ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%u workers: %s", workers, f.r.fault.message);
    uint32_t len, list[96], seen[96] = {0};
    sim_read(f.d, p[2], &len, 4);
    sim_read(f.d, p[1], list, sizeof list);
    ck_assert_uint_eq(len, 96);
    for (uint32_t i = 0; i < 96; i++) {
      ck_assert_uint_lt(list[i], 96);
      ck_assert_uint_eq(seen[list[i]]++, 0);
    }
    done(&f);
  }
}
END_TEST

/* A loop that waits for a flag nobody sets, while its atomics leave memory as it was (a CAS
   that fails, a max that loses, an exchange of what is there, adds of 0, shared and global):
   no progress, a deadlock at the loop; with adds of 1 it changes memory every round and runs
   into the budget instead. (A plain store counts as progress whatever it writes: a loop that
   stores the same value for ever is a runaway loop, as tests/e2e/adversarial.c has it.) */
START_TEST(test_unchanged_writes_are_not_progress)
{
  const char *k =
    HDR
    ".visible .entry wait(.param .u64 m, .param .u32 inc)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<3>;\n"
    "  ld.param.u64 %rd1, [m];\n  ld.param.u32 %r9, [inc];\n"
    "  mov.u32 %r1, -1;\n  mov.u32 %r2, 7;\n  mov.u32 %r3, 5;\n  mov.u32 %r4, 6;\n"
    "  mov.u32 %r10, 0;\n"
    "  .loc 1 2 5\n"
    "  st.global.u32 [%rd1+8], %r2;\n"
    "LOOP:\n"
    "  .loc 1 3 5\n"
    "  atom.global.max.s32 %r5, [%rd1+4], %r1;\n"
    "  atom.global.exch.b32 %r6, [%rd1+8], %r2;\n"
    "  atom.global.cas.b32 %r7, [%rd1+16], %r3, %r4;\n"
    "  atom.shared.add.u32 %r11, [%r10], %r9;\n"
    "  red.global.add.u32 [%rd1+20], %r9;\n"
    "  ld.volatile.global.u32 %r8, [%rd1];\n"
    "  setp.eq.s32 %p1, %r8, 0;\n"
    "  @%p1 bra LOOP;\n"
    "  ret;\n}\n"
    ".file 1 \"/lab/wait.cu\"\n";
  for (int s = 0; s < 2; s++) {
    struct fx f;
    load(&f, k);
    /* shared memory for the add: the kernel declares none, so give it a word of dynamic */
    struct { uint64_t m; uint32_t inc; uint32_t pad; } prm = {buffer(&f, 24, "m"), 0, 0};
    struct sim_launch c = {.grid = {2, 1, 1}, .block = {32, 1, 1}, .dyn_smem = 4, .workers = 2,
                           .sched = s ? SIM_SCHED_STACK : SIM_SCHED_ITS,
                           .max_warp_insts = 600000, .nocheck = SIM_NOCHECK_INIT};
    ck_assert_int_eq(sim_run(f.d, &f.m, "wait", &prm, 12, &c, &f.r, f.err, sizeof f.err), SIM_OK);
    ck_assert_msg(f.r.outcome == SIM_DEADLOCK, "%s", f.r.fault.message);
    const struct sim_fault *ft = &f.r.fault;
    ck_assert_uint_eq(ft->block[0], 0);
    ck_assert_uint_eq(ft->nwaiters, 1);
    ck_assert_str_eq(ft->waiters[0].reason, "spinning");
    ck_assert_uint_eq(ft->waiters[0].lanes, 0xffffffffull);
    ck_assert_uint_eq(f.m.insts[ft->waiters[0].inst].uline, 3);
    ck_assert_ptr_nonnull(strstr(ft->message, "wait for a value no running thread will write"));
    if (!s) {
      sim_result_free(&f.r);
      prm.inc = 1;
      ck_assert_int_eq(sim_run(f.d, &f.m, "wait", &prm, 12, &c, &f.r, f.err, sizeof f.err), SIM_OK);
      ck_assert_msg(f.r.outcome == SIM_BUDGET, "%s", f.r.fault.message);
    }
    done(&f);
  }
}
END_TEST

/* if (tid < 16) while (*flag == 0) ; else *flag = 1;
   Under the stack the loop's side runs first and never lets the other side run: lanes 0-15
   loop, lanes 16-31 wait their turn (not looping). Under independent scheduling the other
   side is given its turn, sets the flag, and the kernel finishes. */
static const char *k_sides =
  HDR
  ".visible .entry sides(.param .u64 flag)\n{\n"
  "  .reg .pred %p<3>;\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<2>;\n"
  "  ld.param.u64 %rd1, [flag];\n"
  "  mov.u32 %r1, %tid.x;\n  mov.u32 %r3, 1;\n"
  "  setp.ge.u32 %p1, %r1, 16;\n"
  "  @%p1 bra ELSE;\n"
  "LOOP:\n"
  "  .loc 1 4 9\n"
  "  ld.volatile.global.u32 %r2, [%rd1];\n"
  "  setp.eq.s32 %p2, %r2, 0;\n"
  "  @%p2 bra LOOP;\n"
  "  bra.uni END;\n"
  "ELSE:\n"
  "  .loc 1 6 9\n"
  "  st.volatile.global.u32 [%rd1], %r3;\n"
  "END:\n"
  "  .loc 1 7 1\n"
  "  ret;\n}\n"
  ".file 1 \"/lab/sides.cu\"\n";

START_TEST(test_pending_side_of_a_branch)
{
  struct fx f;
  load(&f, k_sides);
  uint64_t a = buffer(&f, 4, "flag");
  ck_assert_int_eq(launch(&f, "sides", 1, 32, &a, 1, SIM_SCHED_STACK, 1, 0), SIM_OK);
  ck_assert_int_eq(f.r.outcome, SIM_DEADLOCK);
  const struct sim_fault *ft = &f.r.fault;
  ck_assert_uint_eq(ft->nwaiters, 2);
  const struct sim_waiter *spin = waiter(ft, "spinning"), *pend = waiter(ft, "pending");
  ck_assert_ptr_nonnull(spin);
  ck_assert_ptr_nonnull(pend);
  ck_assert_uint_eq(spin->lanes, 0xffffull);
  ck_assert_uint_eq(f.m.insts[spin->inst].uline, 4);
  ck_assert_uint_eq(pend->lanes, 0xffff0000ull);
  ck_assert_uint_eq(f.m.insts[pend->inst].uline, 6);
  ck_assert_ptr_nonnull(strstr(ft->message, "lanes 16-31 of warp 0 wait for their turn to run at "
                                            "sides.cu:6"));
  ck_assert_uint_eq(f.m.insts[ft->inst].uline, 4);
  ck_assert_int_eq(launch(&f, "sides", 1, 32, &a, 1, SIM_SCHED_ITS, 1, 0), SIM_OK);
  ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
  uint32_t flag;
  sim_read(f.d, a, &flag, 4);
  ck_assert_uint_eq(flag, 1);
  done(&f);
}
END_TEST

/* if (tid == 0) while (*flag == 0) ; out[tid] = tid & 1 ? tid * 3 : tid + 5;
   (tests/e2e/lab06/hang.cu in small.) Under independent scheduling lanes 1-31 are let past
   the loop and exit, through a branch of their own, and so does warp 1: the report names lane
   0 alone as looping, and says which lanes have exited. */
START_TEST(test_deadlock_names_only_the_looping_lane)
{
  const char *k =
    HDR
    ".visible .entry hang(.param .u64 flag, .param .u64 out)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<6>;\n  .reg .b64 %rd<5>;\n"
    "  ld.param.u64 %rd1, [flag];\n  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.ne.s32 %p1, %r1, 0;\n"
    "  @%p1 bra AFTER;\n"
    "LOOP:\n"
    "  .loc 1 5 9\n"
    "  ld.volatile.global.u32 %r2, [%rd1];\n"
    "  setp.eq.s32 %p2, %r2, 0;\n"
    "  @%p2 bra LOOP;\n"
    "AFTER:\n"
    "  .loc 1 6 5\n"
    "  and.b32 %r3, %r1, 1;\n"
    "  setp.eq.s32 %p3, %r3, 1;\n"
    "  @%p3 bra ODD;\n"
    "  add.s32 %r4, %r1, 5;\n"
    "  bra.uni STORE;\n"
    "ODD:\n"
    "  mul.lo.s32 %r4, %r1, 3;\n"
    "STORE:\n"
    "  .loc 1 0 5\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n  add.s64 %rd4, %rd2, %rd3;\n"
    "  .loc 1 6 5\n"
    "  st.global.u32 [%rd4], %r4;\n"
    "  ret;\n}\n"
    ".file 1 \"/lab/hang.cu\"\n";
  struct fx f;
  load(&f, k);
  uint64_t p[2] = {buffer(&f, 4, "flag"), buffer(&f, 64 * 4, "out")};
  ck_assert_int_eq(launch(&f, "hang", 1, 64, p, 2, SIM_SCHED_ITS, 1, 0), SIM_OK);
  ck_assert_int_eq(f.r.outcome, SIM_DEADLOCK);
  const struct sim_fault *ft = &f.r.fault;
  ck_assert_uint_eq(ft->nwaiters, 1);
  ck_assert_str_eq(ft->waiters[0].reason, "spinning");
  ck_assert_uint_eq(ft->waiters[0].warp, 0);
  ck_assert_uint_eq(ft->waiters[0].lanes, 1);
  ck_assert_uint_eq(f.m.insts[ft->waiters[0].inst].uline, 5);
  ck_assert_uint_eq(f.m.insts[ft->inst].uline, 5);
  ck_assert_ptr_nonnull(strstr(ft->message, "lanes 0 of warp 0 keep looping at hang.cu:5; lanes "
                                            "1-31 of warp 0 have exited; 1 other warp of the "
                                            "block has exited"));
  uint32_t out[64];
  sim_read(f.d, p[1], out, sizeof out);
  ck_assert_uint_eq(out[0], 0);
  for (uint32_t t = 1; t < 64; t++)
    ck_assert_uint_eq(out[t], t & 1 ? t * 3 : t + 5);
  done(&f);
}
END_TEST

/* if (tid < 16) __syncthreads(); then more work: barrier divergence. */
static const char *k_bar =
  HDR
  ".visible .entry bar(.param .u32 lim)\n{\n"
  "  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n"
  "  ld.param.u32 %r2, [lim];\n"
  "  mov.u32 %r1, %tid.x;\n"
  "  setp.ge.u32 %p1, %r1, %r2;\n"
  "  @%p1 bra SKIP;\n"
  "  .loc 1 5 7\n"
  "  bar.sync 0;\n"
  "SKIP:\n"
  "  .loc 1 7 3\n"
  "  add.s32 %r3, %r1, 1;\n"
  "  ret;\n}\n"
  ".file 1 \"/lab/bar.cu\"\n";

START_TEST(test_barrier_divergence)
{
  struct fx f;
  load(&f, k_bar);
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {64, 1, 1}, .workers = 1};
  uint32_t lim = 16;
  sim_result_free(&f.r);
  ck_assert_int_eq(sim_run(f.d, &f.m, "bar", &lim, 4, &c, &f.r, f.err, sizeof f.err), SIM_OK);
  ck_assert_int_eq(f.r.outcome, SIM_BARRIER_DIVERGENCE);
  ck_assert_ptr_nonnull(strstr(f.r.fault.message, "Barrier error detected. Divergent thread(s) in warp"));
  ck_assert_uint_eq(f.m.insts[f.r.fault.inst].uline, 5);
  /* every thread takes the barrier: fine; none takes it: fine */
  lim = 64;
  sim_result_free(&f.r);
  ck_assert_int_eq(sim_run(f.d, &f.m, "bar", &lim, 4, &c, &f.r, f.err, sizeof f.err), SIM_OK);
  ck_assert_int_eq(f.r.outcome, SIM_RAN_OK);
  lim = 0;
  sim_result_free(&f.r);
  ck_assert_int_eq(sim_run(f.d, &f.m, "bar", &lim, 4, &c, &f.r, f.err, sizeof f.err), SIM_OK);
  ck_assert_int_eq(f.r.outcome, SIM_RAN_OK);
  /* whole warps skipping it: a deadlock-free kernel? no: warp 0 waits for warp 1 forever,
     unless warp 1 exits (it does: exited threads do not count) */
  lim = 32;
  sim_result_free(&f.r);
  ck_assert_int_eq(sim_run(f.d, &f.m, "bar", &lim, 4, &c, &f.r, f.err, sizeof f.err), SIM_OK);
  ck_assert_int_eq(f.r.outcome, SIM_RAN_OK);
  done(&f);
}
END_TEST

/* Barrier with a thread count nobody can meet: deadlock, waiters named. */
START_TEST(test_barrier_count_deadlock)
{
  const char *k =
    HDR
    ".visible .entry bc()\n{\n"
    "  .reg .b32 %r<2>;\n"
    "  mov.u32 %r1, 128;\n"
    "  bar.sync 1, %r1;\n"
    "  ret;\n}\n";
  struct fx f;
  load(&f, k);
  ck_assert_int_eq(launch(&f, "bc", 1, 64, NULL, 0, SIM_SCHED_ITS, 1, 0), SIM_OK);
  ck_assert_int_eq(f.r.outcome, SIM_DEADLOCK);
  ck_assert_uint_eq(f.r.fault.nwaiters, 2);
  ck_assert_str_eq(f.r.fault.waiters[0].reason, "barrier");
  done(&f);
}
END_TEST

/* A loop whose state changes forever runs into the budget. */
START_TEST(test_budget)
{
  const char *k =
    HDR
    ".visible .entry forever()\n{\n"
    "  .reg .b32 %r<2>;\n"
    "  mov.u32 %r1, 0;\n"
    "L:\n  add.s32 %r1, %r1, 1;\n  bra.uni L;\n}\n";
  struct fx f;
  load(&f, k);
  ck_assert_int_eq(launch(&f, "forever", 1, 32, NULL, 0, SIM_SCHED_ITS, 1, 1000000), SIM_OK);
  ck_assert_int_eq(f.r.outcome, SIM_BUDGET);
  ck_assert_int_eq(f.r.fault.kind, SIM_FK_BUDGET);
  ck_assert_uint_ge(f.r.counters.warp_insts, 1000000);
  ck_assert_uint_lt(f.r.counters.warp_insts, 1000000 + 70000);
  done(&f);
}
END_TEST

/* Block 0 loops 30000 times before it spins on a flag no block sets; every other block spins
   at once. On one worker, block 0 parks first and the budget runs out some 10 blocks later;
   on several, it mostly runs out while block 0 still loops (or on block 0's own count).
   Either way the report is block 0's inter-block deadlock: once a block has waited, the
   blocks still running when the budget runs out get one budget more to reach their wait or
   end before the report, so the block it names does not depend on how many workers there
   are or how the host scheduled them (before, it named whichever block had parked first,
   or block 0's budget). */
START_TEST(test_interblock_budget_names_first_waiter)
{
  const char *k =
    HDR
    ".visible .entry late(.param .u64 p)\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<3>;\n"
    "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mov.u32 %r1, %ctaid.x;\n  mov.u32 %r2, 0;\n"
    "  setp.ne.u32 %p1, %r1, 0;\n  @%p1 bra SPIN;\n"
    "LOOP:\n  add.u32 %r2, %r2, 1;\n  setp.lt.u32 %p2, %r2, 30000;\n  @%p2 bra LOOP;\n"
    "SPIN:\n  .loc 1 9 5\n  ld.volatile.global.u32 %r3, [%rd2];\n"
    "  setp.eq.u32 %p2, %r3, 0;\n  @%p2 bra SPIN;\n  ret;\n}\n"
    ".file 1 \"/lab/late.cu\"\n";
  static const uint32_t workers[] = {1, 2, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8};
  struct fx f;
  load(&f, k);
  uint64_t flag = buffer(&f, 4, "argument 0");
  for (size_t i = 0; i < sizeof workers / sizeof *workers; i++) {
    ck_assert_int_eq(launch(&f, "late", 64, 32, &flag, 1, SIM_SCHED_ITS, workers[i], 300000),
                     SIM_OK);
    ck_assert_msg(f.r.outcome == SIM_DEADLOCK && f.r.fault.block[0] == 0 &&
                  strstr(f.r.fault.message, "inter-block dependence: block (0,0,0) waits for a "
                         "write no block has made, and the launch ran past its budget of "
                         "300000 warp-instructions") == f.r.fault.message &&
                  strstr(f.r.fault.message, "late.cu:9"),
                  "%u workers (run %zu): outcome %d, block %u: %s", workers[i], i,
                  (int)f.r.outcome, f.r.fault.block[0], f.r.fault.message);
  }
  done(&f);
}
END_TEST

/* A barrier-synchronised block reduction with shared memory and atomics: block b writes the
   sum of b * 7 + t over its 128 threads t to out[b + 1] and adds it into out[0]. */
static const char *k_block_red =
    HDR
    ".visible .entry red(.param .u64 out)\n{\n"
    "  .shared .align 4 .b8 s[512];\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<4>;\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n"
    "  mad.lo.s32 %r3, %r2, 7, %r1;\n"
    "  mov.u32 %r4, s;\n  shl.b32 %r5, %r1, 2;\n  add.s32 %r6, %r4, %r5;\n"
    "  st.shared.u32 [%r6], %r3;\n"
    "  bar.sync 0;\n"
    "  mov.u32 %r7, 64;\n"
    "LOOP:\n"
    "  setp.ge.u32 %p1, %r1, %r7;\n"
    "  @%p1 bra NEXT;\n"
    "  shl.b32 %r8, %r7, 2;\n  add.s32 %r9, %r6, %r8;\n"
    "  ld.shared.u32 %r10, [%r9];\n  ld.shared.u32 %r11, [%r6];\n"
    "  add.s32 %r11, %r11, %r10;\n  st.shared.u32 [%r6], %r11;\n"
    "NEXT:\n"
    "  bar.sync 0;\n"
    "  shr.u32 %r7, %r7, 1;\n"
    "  setp.ne.s32 %p2, %r7, 0;\n"
    "  @%p2 bra LOOP;\n"
    "  setp.ne.s32 %p1, %r1, 0;\n"
    "  @%p1 bra END;\n"
    "  ld.shared.u32 %r10, [%r4];\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  atom.global.add.u32 %r11, [%rd1], %r10;\n"
    "  mul.wide.u32 %rd2, %r2, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3+4], %r10;\n"
    "END:\n  ret;\n}\n";

/* The reduction of k_block_red over 64 blocks, as out holds it. */
static void block_red_expect(uint32_t out[65])
{
  uint32_t total = 0;
  for (uint32_t b = 0; b < 64; b++) {
    uint32_t sum = 0;
    for (uint32_t t = 0; t < 128; t++)
      sum += b * 7 + t;
    out[b + 1] = sum;
    total += sum;
  }
  out[0] = total;
}

/* k_block_red run with 1 and with 4 workers: identical memory and counters. */
START_TEST(test_parallel_equals_serial)
{
  uint32_t res[2][65], expect[65];
  uint64_t insts[2];
  for (int i = 0; i < 2; i++) {
    struct fx f;
    load(&f, k_block_red);
    uint64_t a = buffer(&f, 65 * 4, "out");
    ck_assert_int_eq(launch(&f, "red", 64, 128, &a, 1, SIM_SCHED_ITS, i ? 4 : 1, 0), SIM_OK);
    ck_assert_int_eq(f.r.outcome, SIM_RAN_OK);
    sim_read(f.d, a, res[i], sizeof res[i]);
    insts[i] = f.r.counters.warp_insts;
    done(&f);
  }
  block_red_expect(expect);
  ck_assert_mem_eq(res[0], expect, sizeof expect);
  ck_assert_mem_eq(res[0], res[1], sizeof res[0]);
  ck_assert_uint_eq(insts[0], insts[1]);
}
END_TEST

/* Chains of blocks through global memory: in fwd, block b spins until block b-1 has set its
   flag, then sets its own; in back, block b waits for block b+1 and the last block starts the
   chain. */
static const char *k_chain =
  HDR
  ".visible .entry fwd(.param .u64 p)\n{\n"
  "  .reg .pred %p<3>;\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<6>;\n"
  "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n"
  "  mov.u32 %r1, %ctaid.x;\n  mul.wide.u32 %rd3, %r1, 4;\n  add.s64 %rd4, %rd2, %rd3;\n"
  "  add.s64 %rd5, %rd4, -4;\n"
  "  setp.eq.u32 %p1, %r1, 0;\n  @%p1 bra SET;\n"
  "SPIN:\n  ld.volatile.global.u32 %r2, [%rd5];\n"
  "  setp.eq.u32 %p2, %r2, 0;\n  @%p2 bra SPIN;\n"
  "SET:\n  mov.u32 %r3, 1;\n  st.volatile.global.u32 [%rd4], %r3;\n  ret;\n}\n"
  ".visible .entry back(.param .u64 p)\n{\n"
  "  .reg .pred %p<3>;\n  .reg .b32 %r<5>;\n  .reg .b64 %rd<6>;\n"
  "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n"
  "  mov.u32 %r1, %ctaid.x;\n  mul.wide.u32 %rd3, %r1, 4;\n  add.s64 %rd4, %rd2, %rd3;\n"
  "  add.s64 %rd5, %rd4, 4;\n"
  "  mov.u32 %r4, %nctaid.x;\n  sub.u32 %r4, %r4, 1;\n"
  "  setp.eq.u32 %p1, %r1, %r4;\n  @%p1 bra SET;\n"
  "SPIN:\n  ld.volatile.global.u32 %r2, [%rd5];\n"
  "  setp.eq.u32 %p2, %r2, 0;\n  @%p2 bra SPIN;\n"
  "SET:\n  mov.u32 %r3, 1;\n  st.volatile.global.u32 [%rd4], %r3;\n  ret;\n}\n";

/* Workers claim a few consecutive blocks at a time, and a claimed block counts as started
   for the modelled GPU: the blocks started are always the first ones, as on a GPU that
   starts them in order, however many workers there are. A forward chain of 32 blocks ends
   with 5 resident blocks as with all of them; a backward chain ends when the GPU holds all
   32, and with 5 it is block 0's deadlock, in the same words on 1 to 4 workers (had a
   worker started a block past the first five, or claimed more than the room left, the
   count of blocks that wait or the first block not started would differ). 32 blocks, 4
   times each: a backward chain resumes every waiting block at every write, and 64 blocks 8
   times took 12 s, past the limit under ASan. */
START_TEST(test_claims_start_blocks_in_order)
{
  enum { NB = 32 };
  struct fx f;
  load(&f, k_chain);
  uint64_t a = buffer(&f, NB * 4, "flags");
  uint32_t zero[NB] = {0}, got[NB];
  for (uint32_t workers = 1; workers <= 4; workers++)
    for (int rep = 0; rep < 4; rep++)
      for (int k = 0; k < 4; k++) {
        int back = k >= 2;
        uint32_t resident = k & 1 ? 5 : 0;
        struct sim_launch c = {.grid = {NB, 1, 1}, .block = {32, 1, 1}, .workers = workers,
                               .resident_blocks = resident};
        ck_assert_int_eq(sim_write(f.d, a, zero, sizeof zero), SIM_OK);
        sim_result_free(&f.r);
        ck_assert_int_eq(sim_run(f.d, &f.m, back ? "back" : "fwd", &a, 8, &c, &f.r, f.err,
                                 sizeof f.err), SIM_OK);
        if (back && resident) {
          ck_assert_msg(f.r.outcome == SIM_DEADLOCK && f.r.fault.block[0] == 0 &&
                        strstr(f.r.fault.message, "inter-block dependence: block (0,0,0) waits "
                               "for a write no started block makes, and blocks 5 to 31 would "
                               "not have started: the modelled GPU holds at most 5 blocks of "
                               "this launch at once and all 5 wait") == f.r.fault.message,
                        "%u workers: outcome %d, block %u: %s", workers, (int)f.r.outcome,
                        f.r.fault.block[0], f.r.fault.message);
          continue;
        }
        ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s, %u resident, %u workers: outcome %d: %s",
                      back ? "back" : "fwd", resident, workers, (int)f.r.outcome,
                      f.r.fault.message);
        ck_assert_int_eq(sim_read(f.d, a, got, sizeof got), SIM_OK);
        for (uint32_t b = 0; b < NB; b++)
          ck_assert_uint_eq(got[b], 1);
      }
  done(&f);
}
END_TEST

static void *open_hold(void *arg)
{
  __atomic_store_n((int *)arg, 1, __ATOMIC_RELEASE);
  return NULL;
}

/* A held worker (sim_launch.hold: the run layer's while nvdisasm has a core) takes no block
   while *hold reads 0 and ends unstarted, so one worker runs the launch; with *hold set it
   runs beside the others; set from another thread during the launch, it may join at any
   block. Every way, the memory and counters are the serial run's. */
START_TEST(test_held_worker)
{
  uint32_t expect[65];
  uint64_t serial = 0;
  block_red_expect(expect);
  for (int how = -1; how < 3; how++) {         /* -1: the serial run, no worker held */
    int hold = how == 1;
    struct fx f;
    load(&f, k_block_red);
    uint64_t a = buffer(&f, 65 * 4, "out");
    struct sim_launch c = {.grid = {64, 1, 1}, .block = {128, 1, 1}, .workers = how < 0 ? 1 : 2,
                           .hold = how < 0 ? NULL : &hold};
    pthread_t opener;
    if (how == 2)
      ck_assert_int_eq(pthread_create(&opener, NULL, open_hold, &hold), 0);
    ck_assert_int_eq(sim_run(f.d, &f.m, "red", &a, 8, &c, &f.r, f.err, sizeof f.err), SIM_OK);
    if (how == 2)
      pthread_join(opener, NULL);
    ck_assert_int_eq(f.r.outcome, SIM_RAN_OK);
    uint32_t out[65];
    sim_read(f.d, a, out, sizeof out);
    ck_assert_msg(!memcmp(out, expect, sizeof out), "hold %d: the sums differ", how);
    if (how < 0)
      serial = f.r.counters.warp_insts;
    ck_assert_uint_eq(f.r.counters.warp_insts, serial);
    ck_assert_msg(f.r.cpu_seconds > 0, "hold %d: no CPU time counted", how);
    if (how >= 0 && how < 2)
      ck_assert_msg(f.r.workers_used == (how ? 2u : 1u), "hold %d: %u workers ran", how,
                    f.r.workers_used);
    done(&f);
  }
}
END_TEST

/* k_block_red on `workers` workers (hold: sim_launch.hold, or NULL) on a device of its own:
   0 when its memory is the serial run's sums, its counters and per-instruction figures are
   *ctr's and *st's (filled by the first call, st with RED_STATS entries) and
   workers_used is `used`; else which check failed. */
enum { RED_STATS = 64 };
static int red_check(uint32_t workers, const int *hold, uint32_t used, struct sim_counters *ctr,
                     struct sim_inst_stats *st, int first)
{
  uint32_t expect[65], out[65];
  block_red_expect(expect);
  struct fx f;
  load(&f, k_block_red);
  uint64_t a = buffer(&f, 65 * 4, "out");
  struct sim_launch c = {.grid = {64, 1, 1}, .block = {128, 1, 1}, .workers = workers,
                         .hold = hold};
  int bad = 0;
  if (sim_run(f.d, &f.m, "red", &a, 8, &c, &f.r, f.err, sizeof f.err) != SIM_OK ||
      f.r.outcome != SIM_RAN_OK || f.r.nstats > RED_STATS)
    bad = 1;
  else if (sim_read(f.d, a, out, sizeof out), memcmp(out, expect, sizeof out))
    bad = 2;
  else if (first) {
    *ctr = f.r.counters;
    memcpy(st, f.r.stats, f.r.nstats * sizeof *st);
  } else if (f.r.counters.warp_insts != ctr->warp_insts ||
           f.r.counters.thread_insts != ctr->thread_insts ||
           memcmp(st, f.r.stats, f.r.nstats * sizeof *st)) {
    bad = 3;
  }
  if (!bad && f.r.workers_used != used)
    bad = 4;
  if (!bad && !(f.r.cpu_seconds > 0))
    bad = 5;
  done(&f);
  return bad;
}

/* A big buffer allocated, filled, checked and freed on a device of its own (freed, its
   mapping is kept for the next: sim_mem.c's keep_put). 0, or -1. */
static int big_cycle(void)
{
  const uint64_t n = 4u << 20;
  struct sim_device *d = sim_device_new();
  uint64_t a;
  int bad = !d || sim_malloc(d, n, "big", &a) != SIM_OK || sim_fill(d, a, 0x5a, n) != SIM_OK;
  const uint8_t *p = bad ? NULL : sim_view(d, a, n);
  bad = bad || !p || p[0] != 0x5a || p[n - 1] != 0x5a || sim_free(d, a) != SIM_OK;
  sim_device_free(d);
  return bad ? -1 : 0;
}

/* Launches in a forked child after launches in its parent: what the parent kept for later
   launches (block storage, freed device mappings) was not copied into the child, which
   makes its own (it used them and faulted). */
START_TEST(test_launch_in_forked_child)
{
  struct sim_counters ctr;
  struct sim_inst_stats st[RED_STATS];
  ck_assert_int_eq(red_check(1, NULL, 1, &ctr, st, 1), 0);
  ck_assert_int_eq(big_cycle(), 0);
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    int bad = 0;
    for (int i = 0; !bad && i < 3; i++)
      bad = red_check(1, NULL, 1, &ctr, st, 0) || big_cycle() ? 10 + i : 0;
    _exit(bad);
  }
  child_ok(pid);
  ck_assert_int_eq(red_check(1, NULL, 1, &ctr, st, 0), 0);
  ck_assert_int_eq(big_cycle(), 0);
}
END_TEST

/* Launch after launch on 1, 2, 4, 3 workers and a held one: the crew's threads are made
   once, by the launches that first ask for them, and reused; a launch on fewer workers uses
   some of them; every launch gives the serial run's memory, counters and per-instruction
   figures, with the workers it asked for. */
START_TEST(test_crew_reused)
{
  static const uint32_t wk[] = {1, 2, 2, 4, 1, 2, 3, 4, 4, 2, 1, 3};
  static const uint32_t size[] = {0, 1, 1, 3, 3, 3, 3, 3, 3, 3, 3, 3};
  struct sim_counters ctr;
  struct sim_inst_stats st[RED_STATS];
  ck_assert_uint_eq(sim_crew_size(), 0);
  for (int round = 0; round < 3; round++)
    for (size_t i = 0; i < sizeof wk / sizeof *wk; i++) {
      int bad = red_check(wk[i], NULL, wk[i], &ctr, st, !round && !i);
      ck_assert_msg(!bad, "round %d, launch %zu on %u workers: check %d failed", round, i,
                    wk[i], bad);
      ck_assert_uint_eq(sim_crew_size(), round ? 3u : size[i]);
    }
  int shut = 0;                                 /* a held worker that never starts */
  ck_assert_int_eq(red_check(4, &shut, 3, &ctr, st, 0), 0);
  ck_assert_int_eq(red_check(2, NULL, 2, &ctr, st, 0), 0);
  ck_assert_uint_eq(sim_crew_size(), 3);
}
END_TEST

/* sim_threads_end ends the crew's threads (a process about to confine itself: Landlock
   confines only the threads made after it): the crew is empty after it, the threads are gone
   from the process, and the next launches make new ones and give the same results. */
static unsigned process_threads(void)
{
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  unsigned n = 0;
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "Threads: %u", &n) == 1)
      break;
  if (f)
    fclose(f);
  return n;
}

START_TEST(test_crew_threads_end)
{
  struct sim_counters ctr;
  struct sim_inst_stats st[RED_STATS];
  ck_assert_int_eq(red_check(1, NULL, 1, &ctr, st, 1), 0);
  ck_assert_int_eq(red_check(3, NULL, 3, &ctr, st, 0), 0);
  ck_assert_uint_eq(sim_crew_size(), 2);
  unsigned before = process_threads();
  sim_threads_end();
  ck_assert_uint_eq(sim_crew_size(), 0);
  ck_assert_uint_eq(process_threads(), before - 2);
  sim_threads_end();                            /* none left: nothing to do */
  ck_assert_int_eq(red_check(2, NULL, 2, &ctr, st, 0), 0);
  ck_assert_uint_eq(sim_crew_size(), 1);
  ck_assert_uint_eq(process_threads(), before - 1);
}
END_TEST

/* What a crew thread saw when it ran a launch's function: its affinity. */
static void *crew_affinity(void *arg)
{
  cpu_set_t *seen = arg;
  CPU_ZERO(seen);
  sched_getaffinity(0, sizeof *seen, seen);
  return NULL;
}

/* The crew's threads are woken off the core their launch began on, and then may run on every
   core the launching thread may (had a thread kept its wake-up's mask, that core would be
   missing): with the process's cores, and with the launching thread held to two of them. */
START_TEST(test_crew_runs_where_its_launch_may)
{
  cpu_set_t all, two, seen[2];
  ck_assert_int_eq(sched_getaffinity(0, sizeof all, &all), 0);
  CPU_ZERO(&two);
  for (int c = 0; c < CPU_SETSIZE && CPU_COUNT(&two) < 2; c++)
    if (CPU_ISSET(c, &all))
      CPU_SET(c, &two);
  for (int k = 0; k < 4; k++) {
    const cpu_set_t *want = k & 1 ? &two : &all;
    ck_assert_int_eq(sched_setaffinity(0, sizeof *want, want), 0);
    struct sim_crew_job j;
    sim_crew_begin(&j);
    ck_assert_int_eq(j.own, 0);
    ck_assert_int_eq(sim_crew_give(&j, crew_affinity, &seen[0]), 0);
    ck_assert_int_eq(sim_crew_give(&j, crew_affinity, &seen[1]), 0);
    sim_crew_end(&j);
    for (int i = 0; i < 2; i++)
      ck_assert_msg(CPU_EQUAL(&seen[i], want), "launch %d, thread %d: %d cores of %d", k, i,
                    CPU_COUNT(&seen[i]), CPU_COUNT(want));
  }
  ck_assert_int_eq(sched_setaffinity(0, sizeof all, &all), 0);
}
END_TEST

/* A forked child has none of its parent's crew: its launches make their own threads, run on
   them and give the parent's results; the parent's crew is still there after. */
START_TEST(test_crew_forked_child)
{
  struct sim_counters ctr;
  struct sim_inst_stats st[RED_STATS];
  ck_assert_int_eq(red_check(1, NULL, 1, &ctr, st, 1), 0);
  ck_assert_int_eq(red_check(2, NULL, 2, &ctr, st, 0), 0);
  ck_assert_uint_eq(sim_crew_size(), 1);
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    int bad = sim_crew_size() != 0 ? 10 : 0;
    for (int i = 0; !bad && i < 4; i++)
      bad = red_check(i & 1 ? 2 : 3, NULL, i & 1 ? 2 : 3, &ctr, st, 0);
    if (!bad && sim_crew_size() != 2)
      bad = 20 + (int)sim_crew_size();
    _exit(bad);
  }
  child_ok(pid);
  ck_assert_int_eq(red_check(2, NULL, 2, &ctr, st, 0), 0);
  ck_assert_uint_eq(sim_crew_size(), 1);
}
END_TEST

struct crew_caller {
  const struct sim_counters *ctr;
  const struct sim_inst_stats *st;
  int bad;
};

static void *crew_call(void *arg)
{
  struct crew_caller *cc = arg;
  struct sim_counters ctr = *cc->ctr;
  struct sim_inst_stats st[RED_STATS];
  memcpy(st, cc->st, sizeof st);
  for (int i = 0; !cc->bad && i < 8; i++)
    cc->bad = red_check(2 + (uint32_t)(i & 1), NULL, 2 + (uint32_t)(i & 1), &ctr, st, 0);
  return NULL;
}

/* Launches from two threads at once: whichever finds the crew held runs on threads of its
   own; both give the serial run's results. */
START_TEST(test_crew_two_callers)
{
  struct sim_counters ctr;
  struct sim_inst_stats st[RED_STATS];
  ck_assert_int_eq(red_check(1, NULL, 1, &ctr, st, 1), 0);
  struct crew_caller cc[2] = {{&ctr, st, 0}, {&ctr, st, 0}};
  pthread_t t;
  ck_assert_int_eq(pthread_create(&t, NULL, crew_call, &cc[1]), 0);
  crew_call(&cc[0]);
  pthread_join(t, NULL);
  ck_assert_int_eq(cc[0].bad, 0);
  ck_assert_int_eq(cc[1].bad, 0);
  ck_assert_uint_le(sim_crew_size(), 2);
}
END_TEST

/* A .func with a parameter and a return value. */
START_TEST(test_call)
{
  const char *k =
    HDR
    ".func (.param .b32 ret) twice(.param .b32 x)\n{\n"
    "  .reg .b32 %r<3>;\n"
    "  ld.param.u32 %r1, [x];\n  add.s32 %r2, %r1, %r1;\n"
    "  st.param.b32 [ret], %r2;\n  ret;\n}\n"
    ".visible .entry caller(.param .u64 o)\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  { .param .b32 a0; st.param.b32 [a0], %r1; .param .b32 r0;\n"
    "    call.uni (r0), twice, (a0);\n"
    "    ld.param.b32 %r2, [r0]; }\n"
    "  ld.param.u64 %rd1, [o];\n  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r2;\n  ret;\n}\n";
  struct fx f;
  load(&f, k);
  uint64_t a = buffer(&f, 32 * 4, "o");
  ck_assert_int_eq(launch(&f, "caller", 1, 32, &a, 1, SIM_SCHED_ITS, 1, 0), SIM_OK);
  ck_assert_int_eq(f.r.outcome, SIM_RAN_OK);
  uint32_t o[32];
  sim_read(f.d, a, o, sizeof o);
  for (uint32_t i = 0; i < 32; i++)
    ck_assert_uint_eq(o[i], 2 * i);
  done(&f);
}
END_TEST

/* The shared-memory size registers of a block with 400 bytes of its own and 1000 dynamic:
   %dynamic_smem_size 1000, %total_smem_size 1400 (the two), %aggr_smem_size 2424 (with the
   1 KB held for the system, %reserved_smem_offset_cap; ptxas reads SR_SMEMSZ for it). */
START_TEST(test_smem_size_registers)
{
  const char *k =
    HDR
    ".extern .shared .align 16 .b8 dyn[];\n"
    ".visible .entry sizes(.param .u64 o)\n{\n"
    "  .shared .align 4 .b8 own[400];\n"
    "  .reg .b32 %r<6>;\n  .reg .b64 %rd<2>;\n"
    "  mov.u32 %r1, %dynamic_smem_size;\n  mov.u32 %r2, %total_smem_size;\n"
    "  mov.u32 %r3, %aggr_smem_size;\n  mov.u32 %r4, %reserved_smem_offset_cap;\n"
    "  st.shared.u32 [own], %r1;\n  st.shared.u32 [dyn], %r2;\n"
    "  ld.param.u64 %rd1, [o];\n"
    "  st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};\n  ret;\n}\n";
  struct fx f;
  load(&f, k);
  uint64_t a = buffer(&f, 16, "o");
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {32, 1, 1}, .workers = 1, .dyn_smem = 1000};
  sim_result_free(&f.r);
  ck_assert_int_eq(sim_run(f.d, &f.m, "sizes", &a, 8, &c, &f.r, f.err, sizeof f.err), SIM_OK);
  ck_assert_int_eq(f.r.outcome, SIM_RAN_OK);
  uint32_t o[4];
  sim_read(f.d, a, o, sizeof o);
  ck_assert_uint_eq(o[0], 1000);
  ck_assert_uint_eq(o[1], 400 + 1000);
  ck_assert_uint_eq(o[3], 1024);
  ck_assert_uint_eq(o[2], 400 + 1000 + 1024);
  /* In 128-byte allocation units (sm_90) the total is what the block was allocated, as the
     H100 gives it (1408); the aggregate is not rounded (2424 on the H100 too). */
  c.smem_alloc_unit = 128;
  sim_result_free(&f.r);
  ck_assert_int_eq(sim_run(f.d, &f.m, "sizes", &a, 8, &c, &f.r, f.err, sizeof f.err), SIM_OK);
  sim_read(f.d, a, o, sizeof o);
  ck_assert_uint_eq(o[1], 1408);
  ck_assert_uint_eq(o[2], 400 + 1000 + 1024);
  done(&f);
}
END_TEST

/* 64-lane waves: WARP_SZ reads 64, a full-mask ballot spans the wave, shfl.down reaches
   lane 32+. */
START_TEST(test_wave64)
{
  const char *k =
    HDR
    ".visible .entry w64(.param .u64 o)\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<10>;\n  .reg .b64 %rd<4>;\n"
    "  mov.u32 %r1, %laneid;\n  mov.u32 %r2, WARP_SZ;\n"
    "  setp.ge.u32 %p1, %r1, 48;\n"
    "  vote.sync.ballot.b32 %r3, %p1, -1;\n"
    "  shfl.sync.down.b32 %r4|%p2, %r1, 32, 31, -1;\n"
    "  ld.param.u64 %rd1, [o];\n  mov.u32 %r5, %tid.x;\n"
    "  mul.wide.u32 %rd2, %r5, 16;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.v4.u32 [%rd3], {%r1, %r2, %r3, %r4};\n  ret;\n}\n";
  struct fx f;
  load(&f, k);
  uint64_t a = buffer(&f, 64 * 16, "o");
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {64, 1, 1}, .workers = 1, .warp_size = 64};
  sim_result_free(&f.r);
  ck_assert_int_eq(sim_run(f.d, &f.m, "w64", &a, 8, &c, &f.r, f.err, sizeof f.err), SIM_OK);
  ck_assert_int_eq(f.r.outcome, SIM_RAN_OK);
  ck_assert_uint_eq(f.r.counters.warp_insts, 11);  /* one wave */
  uint32_t o[64][4];
  sim_read(f.d, a, o, sizeof o);
  ck_assert_uint_eq(o[63][0], 63);
  ck_assert_uint_eq(o[0][1], 64);
  ck_assert_uint_eq(o[0][2], 0);                    /* ballot is 32 bits: lanes 0-31 none */
  ck_assert_uint_eq(o[5][3], 37);
  ck_assert_uint_eq(o[40][3], 40);                  /* past the wave: own value */
  done(&f);
}
END_TEST

/* sim_exec's arithmetic for a full 64-lane wave (the 32-lane vector code on each half, a loop
   of 64 where it has none, a special register read once) against its general lane loops:
   every operation run twice, by the whole wave and under a guard that leaves out lane 63; the
   two results of lanes 0-62 must agree, and the whole wave's add and special registers be
   right in every lane. */
static const char *const w64_ops32[] = {
  "add.u32 %r30, %r2, %r3;", "sub.u32 %r30, %r2, %r3;", "mul.lo.u32 %r30, %r2, %r3;",
  "and.b32 %r30, %r2, %r3;", "or.b32 %r30, %r2, %r3;", "xor.b32 %r30, %r2, %r3;",
  "shl.b32 %r30, %r2, %r4;", "shr.u32 %r30, %r2, %r4;", "min.s32 %r30, %r2, %r3;",
  "max.u32 %r30, %r2, %r3;", "mov.u32 %r30, %tid.x;", "mov.u32 %r30, %ntid.x;",
  "mov.u32 %r30, %ctaid.x;", "mov.u32 %r30, %laneid;", "mov.b32 %r30, %r3;",
  "mov.u32 %r30, %warpid;",
  "setp.lt.s32 %p1, %r2, %r3;~selp.u32 %r30, 1, 0, %p1;",
  "setp.hs.u32 %p1, %r2, %r3;~selp.u32 %r30, 1, 0, %p1;",
  "setp.ne.u32 %p1, %r2, %r3;~selp.u32 %r30, 1, 0, %p1;",
  "add.f32 %f3, %f1, %f2;~mov.b32 %r30, %f3;", "sub.f32 %f3, %f1, %f2;~mov.b32 %r30, %f3;",
  "mul.f32 %f3, %f1, %f2;~mov.b32 %r30, %f3;", "min.f32 %f3, %f1, %f2;~mov.b32 %r30, %f3;",
  "fma.rn.f32 %f3, %f1, %f2, %f1;~mov.b32 %r30, %f3;", "ld.global.u32 %r30, [%rd5];",
  "ld.global.s32 %r30, [%rd6+4];",
  "shfl.sync.down.b32 %r30|%p2, %r2, 16, 31, -1;~selp.u32 %r31, 1, 0, %p2;~add.u32 %r30, %r30, %r31;",
  "shfl.sync.up.b32 %r30|%p2, %r2, 3, 0, -1;~selp.u32 %r31, 2, 0, %p2;~add.u32 %r30, %r30, %r31;",
  "shfl.sync.bfly.b32 %r30, %r2, 33, 31, -1;", "shfl.sync.idx.b32 %r30, %r2, 5, 0x101f, -1;",
  "shfl.sync.down.b32 %r30, %r2, 1, 0x1f, -1;", "shfl.sync.down.b32 %r30, %r2, %r4, 31, -1;",
};
static const char *const w64_ops64[] = {
  "mul.wide.s32 %rd30, %r2, %r3;", "mul.wide.u32 %rd30, %r2, %r3;",
  "add.s64 %rd30, %rd20, %rd21;", "sub.s64 %rd30, %rd20, %rd21;",
  "and.b64 %rd30, %rd20, %rd21;", "cvt.u64.u32 %rd30, %r2;", "cvt.s64.s32 %rd30, %r2;",
  "cvta.to.shared.u64 %rd30, %rd20;", "cvta.shared.u64 %rd30, %rd21;",
  "cvta.to.global.u64 %rd30, %rd21;", "ld.global.u64 %rd30, [%rd12];",
};
#define W64_N32 (sizeof w64_ops32 / sizeof *w64_ops32)
#define W64_N64 (sizeof w64_ops64 / sizeof *w64_ops64)

static void w64_kernel(char *buf, size_t n)
{
  size_t o = (size_t)snprintf(buf, n,
    HDR
    ".visible .entry w64a(.param .u64 pa, .param .u64 pb, .param .u64 po, .param .u64 pq)\n{\n"
    "  .reg .pred %%p<10>;\n  .reg .b32 %%r<40>;\n  .reg .f32 %%f<6>;\n  .reg .b64 %%rd<40>;\n"
    "  ld.param.u64 %%rd1, [pa];\n  ld.param.u64 %%rd2, [pb];\n"
    "  ld.param.u64 %%rd3, [po];\n  ld.param.u64 %%rd9, [pq];\n"
    "  mov.u32 %%r1, %%tid.x;\n  mul.wide.u32 %%rd4, %%r1, 4;\n  mul.wide.u32 %%rd10, %%r1, 8;\n"
    "  add.s64 %%rd5, %%rd1, %%rd4;\n  ld.global.u32 %%r2, [%%rd5];\n"
    "  add.s64 %%rd6, %%rd2, %%rd4;\n  ld.global.u32 %%r3, [%%rd6];\n"
    "  add.s64 %%rd7, %%rd3, %%rd4;\n  add.s64 %%rd8, %%rd9, %%rd10;\n"
    "  and.b32 %%r4, %%r3, 63;\n  mov.b32 %%f1, %%r2;\n  mov.b32 %%f2, %%r3;\n"
    "  mul.wide.s32 %%rd20, %%r2, %%r3;\n  mul.wide.u32 %%rd21, %%r3, 77777;\n"
    "  add.s64 %%rd12, %%rd2, %%rd10;\n  setp.ne.u32 %%p9, %%r1, 63;\n");
  for (int sec = 0; sec < 2; sec++) {
    const char *g = sec ? "@%p9 " : "";
    for (size_t k = 0; k < W64_N32 + W64_N64; k++) {
      const char *op = k < W64_N32 ? w64_ops32[k] : w64_ops64[k - W64_N32];
      for (const char *q = op; *q;) {              /* each instruction (~) guarded */
        const char *bar = strchr(q, '~');
        size_t len = bar ? (size_t)(bar - q) : strlen(q);
        o += (size_t)snprintf(buf + o, n - o, "  %s%.*s\n", g, (int)len, q);
        q += len + (bar != NULL);
      }
      if (k < W64_N32)
        o += (size_t)snprintf(buf + o, n - o, "  %sst.global.u32 [%%rd7+%zu], %%r30;\n", g,
                              (sec * W64_N32 + k) * 256);
      else
        o += (size_t)snprintf(buf + o, n - o, "  %sst.global.u64 [%%rd8+%zu], %%rd30;\n", g,
                              (sec * W64_N64 + k - W64_N32) * 512);
    }
  }
  o += (size_t)snprintf(buf + o, n - o, "  ret;\n}\n");
  ck_assert_uint_lt(o, n);
}

START_TEST(test_wave64_full_halves)
{
  static char k[16384];
  w64_kernel(k, sizeof k);
  uint32_t a[64], b[64];
  uint64_t rng = 0x5851F42D4C957F2Dull;
  for (unsigned l = 0; l < 64; l++) {
    a[l] = (uint32_t)sim_order_next(&rng);
    b[l] = (uint32_t)sim_order_next(&rng);
  }
  a[3] = 0x7f800000u;  b[3] = 0xff800000u;           /* inf + -inf: NaN */
  a[40] = 0x7fc00001u; b[40] = 0x3f800000u;          /* a NaN with a payload */
  a[41] = 0x80000000u; b[41] = 0xffffffffu;          /* the most negative int, -1 */
  a[50] = 12345u;      b[50] = 12345u;               /* equal */
  struct fx f;
  load(&f, k);
  uint64_t p[4] = {buffer(&f, sizeof a, "a"), buffer(&f, 2 * sizeof b + 4, "b"),
                   buffer(&f, 2 * W64_N32 * 256, "o32"), buffer(&f, 2 * W64_N64 * 512, "o64")};
  ck_assert_int_eq(sim_write(f.d, p[0], a, sizeof a), SIM_OK);
  ck_assert_int_eq(sim_write(f.d, p[1], b, sizeof b), SIM_OK);
  ck_assert_int_eq(sim_write(f.d, p[1] + sizeof b, a, sizeof a), SIM_OK);
  /* three blocks of one wave, one after another: the last one's results are read */
  struct sim_launch c = {.grid = {3, 1, 1}, .block = {64, 1, 1}, .workers = 1,
                         .warp_size = 64};
  ck_assert_int_eq(sim_run(f.d, &f.m, "w64a", p, sizeof p, &c, &f.r, f.err, sizeof f.err),
                   SIM_OK);
  ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
  static uint32_t o32[2 * W64_N32][64];
  static uint64_t o64[2 * W64_N64][64];
  ck_assert_int_eq(sim_read(f.d, p[2], o32, sizeof o32), SIM_OK);
  ck_assert_int_eq(sim_read(f.d, p[3], o64, sizeof o64), SIM_OK);
  for (unsigned l = 0; l < 64; l++) {              /* the special registers as they are */
    ck_assert_uint_eq(o32[0][l], a[l] + b[l]);
    ck_assert_uint_eq(o32[24][l], a[l]);             /* the coalesced loads */
    ck_assert_uint_eq(o32[25][l], l < 63 ? b[l + 1] : a[0]);
    ck_assert_uint_eq(o64[10][l], l < 32 ? (uint64_t)b[2 * l + 1] << 32 | b[2 * l]
                                         : (uint64_t)a[2 * l - 63] << 32 | a[2 * l - 64]);
    ck_assert_uint_eq(o32[10][l], l);                /* %tid.x */
    ck_assert_uint_eq(o32[11][l], 64);               /* %ntid.x */
    ck_assert_uint_eq(o32[12][l], 2);                /* %ctaid.x: the last block's */
    ck_assert_uint_eq(o32[13][l], l);                /* %laneid */
    ck_assert_uint_eq(o32[15][l], 0);                /* %warpid */
  }
  for (unsigned l = 0; l < 63; l++) {
    for (size_t j = 0; j < W64_N32; j++)
      ck_assert_msg(o32[j][l] == o32[W64_N32 + j][l], "%s lane %u: 0x%08x, lane by lane 0x%08x",
                    w64_ops32[j], l, o32[j][l], o32[W64_N32 + j][l]);
    for (size_t j = 0; j < W64_N64; j++)
      ck_assert_msg(o64[j][l] == o64[W64_N64 + j][l], "%s lane %u: 0x%" PRIx64
                    ", lane by lane 0x%" PRIx64, w64_ops64[j], l, o64[j][l],
                    o64[W64_N64 + j][l]);
  }
  done(&f);
}
END_TEST

/* 64-lane waves, the rest of what lab 07 relies on: a full 32-bit mask is the whole wave for
   votes (vote.all over lanes 0-47 is false in every lane), and an explicit width of 32
   (c = ((64 - 32) << 8) | 31) splits a wave into two segments of 32 that shuffle apart. */
START_TEST(test_wave64_votes_and_segments)
{
  const char *k =
    HDR
    ".visible .entry w64s(.param .u64 o)\n{\n"
    "  .reg .pred %p<5>;\n  .reg .b32 %r<10>;\n  .reg .b64 %rd<4>;\n"
    "  mov.u32 %r1, %laneid;\n"
    "  setp.lt.u32 %p1, %r1, 48;\n"
    "  vote.sync.all.pred %p2, %p1, -1;\n  selp.u32 %r2, 1, 0, %p2;\n"
    "  vote.sync.any.pred %p3, %p1, -1;\n  selp.u32 %r3, 1, 0, %p3;\n"
    "  shfl.sync.down.b32 %r4|%p4, %r1, 16, 8223, -1;\n"
    "  ld.param.u64 %rd1, [o];\n"
    "  mul.wide.u32 %rd2, %r1, 16;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.v4.u32 [%rd3], {%r1, %r2, %r3, %r4};\n  ret;\n}\n";
  struct fx f;
  load(&f, k);
  uint64_t a = buffer(&f, 64 * 16, "o");
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {64, 1, 1}, .workers = 1, .warp_size = 64};
  sim_result_free(&f.r);
  ck_assert_int_eq(sim_run(f.d, &f.m, "w64s", &a, 8, &c, &f.r, f.err, sizeof f.err), SIM_OK);
  ck_assert_int_eq(f.r.outcome, SIM_RAN_OK);
  uint32_t o[64][4];
  sim_read(f.d, a, o, sizeof o);
  for (unsigned l = 0; l < 64; l++) {
    ck_assert_uint_eq(o[l][1], 0);                  /* lanes 48-63 vote false: not all */
    ck_assert_uint_eq(o[l][2], 1);
  }
  ck_assert_uint_eq(o[5][3], 21);                   /* within lanes 0-31 */
  ck_assert_uint_eq(o[20][3], 20);                  /* 36 is in the other segment: own value */
  ck_assert_uint_eq(o[36][3], 52);
  ck_assert_uint_eq(o[50][3], 50);                  /* 66 is past the segment */
  done(&f);
}
END_TEST

START_TEST(test_bad_launch)
{
  struct fx f;
  load(&f, k_store);
  uint64_t a = buffer(&f, 4, "a");
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {2048, 1, 1}};
  sim_result_free(&f.r);
  ck_assert_int_eq(sim_run(f.d, &f.m, "store", &a, 8, &c, &f.r, f.err, sizeof f.err), SIM_ERR_BADARG);
  ck_assert_ptr_nonnull(strstr(f.err, "1024"));
  c.block[0] = 32;
  sim_result_free(&f.r);
  ck_assert_int_eq(sim_run(f.d, &f.m, "nope", &a, 8, &c, &f.r, f.err, sizeof f.err), SIM_ERR_NOKERNEL);
  sim_result_free(&f.r);
  ck_assert_int_eq(sim_run(f.d, &f.m, "store", &a, 4, &c, &f.r, f.err, sizeof f.err), SIM_ERR_BADARG);
  done(&f);
}
END_TEST


/* ---- the race checker (sim_race.c) ---- */

/* A kernel of 64 threads: s[tid] = tid (line 5), then SYNC (nothing, bar.sync, bar.warp.sync or
   a shuffle), then a read of s[(tid ^ X) % 64] (line 9) stored to out[tid]. */
static char *race_kernel(char *buf, size_t n, const char *sync, unsigned x)
{
  snprintf(buf, n,
    HDR
    ".visible .entry rk(.param .u64 out)\n{\n"
    "  .shared .align 4 .b8 s[256];\n"
    "  .reg .b32 %%r<12>;\n  .reg .b64 %%rd<4>;\n"
    "  mov.u32 %%r1, %%tid.x;\n  mov.u32 %%r4, s;\n  shl.b32 %%r5, %%r1, 2;\n"
    "  add.s32 %%r6, %%r4, %%r5;\n"
    "  .loc 1 5 3\n"
    "  st.shared.u32 [%%r6], %%r1;\n"
    "  .loc 1 7 3\n"
    "  %s\n"
    "  xor.b32 %%r7, %%r1, %u;\n  and.b32 %%r7, %%r7, 63;\n  shl.b32 %%r7, %%r7, 2;\n"
    "  add.s32 %%r8, %%r4, %%r7;\n"
    "  .loc 1 9 3\n"
    "  ld.shared.u32 %%r9, [%%r8];\n"
    "  ld.param.u64 %%rd1, [out];\n  mul.wide.u32 %%rd2, %%r1, 4;\n  add.s64 %%rd3, %%rd1, %%rd2;\n"
    "  st.global.u32 [%%rd3], %%r9;\n"
    "  ret;\n}\n"
    ".file 1 \"/lab/race.cu\"\n", sync, x);
  return buf;
}

/* Run race_kernel; returns the address of out. */
static uint64_t race_run(struct fx *f, const char *sync, unsigned x, uint32_t nocheck)
{
  char k[2048];
  load(f, race_kernel(k, sizeof k, sync, x));
  uint64_t out = buffer(f, 64 * 4, "out");
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {64, 1, 1}, .workers = 1,
                         .nocheck = nocheck};
  ck_assert_int_eq(sim_run(f->d, &f->m, "rk", &out, 8, &c, &f->r, f->err, sizeof f->err), SIM_OK);
  return out;
}

static uint32_t line_of(const struct fx *f, uint32_t inst)
{
  ck_assert_uint_lt(inst, f->m.ninsts);
  return f->m.insts[inst].uline;
}

START_TEST(test_race_between_warps)
{
  /* warp 0 reads s[32..63] before warp 1 writes them: write-after-read, reported at warp 1's
     write (line 5) against warp 0's read (line 9) */
  struct fx f;
  race_run(&f, "", 32, 0);
  ck_assert_int_eq(f.r.outcome, SIM_FAULT);
  const struct sim_fault *ft = &f.r.fault;
  ck_assert_int_eq(ft->kind, SIM_FK_RACE);
  ck_assert_str_eq(sim_fault_kind_name(ft->kind), "race");
  ck_assert_uint_eq(ft->thread[0], 32);
  ck_assert_uint_eq(ft->other_thread[0], 0);
  ck_assert_uint_eq(line_of(&f, ft->inst), 5);
  ck_assert_uint_eq(line_of(&f, ft->other_inst), 9);
  ck_assert_uint_eq(ft->addr, 128);
  ck_assert_msg(strstr(ft->message, "write-after-read hazard on s[32]") &&
                strstr(ft->message, "race.cu:5") && strstr(ft->message, "race.cu:9"), "%s",
                ft->message);
  done(&f);
  uint64_t out = race_run(&f, "bar.sync 0;", 32, 0);   /* ordered by the barrier */
  ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
  uint32_t v[64];
  ck_assert_int_eq(sim_read(f.d, out, v, sizeof v), SIM_OK);
  for (unsigned i = 0; i < 64; i++)
    ck_assert_uint_eq(v[i], i ^ 32);
  done(&f);
  race_run(&f, "", 32, SIM_NOCHECK_RACE | SIM_NOCHECK_INIT);   /* checks left out */
  ck_assert_int_eq(f.r.outcome, SIM_RAN_OK);
  done(&f);
}
END_TEST

START_TEST(test_race_within_a_warp)
{
  /* lane 0 reads s[1], which lane 1 wrote one instruction before: read-after-write between
     lanes of warp 0, unless a __syncwarp() or a shuffle orders them */
  struct fx f;
  race_run(&f, "", 1, 0);
  ck_assert_int_eq(f.r.fault.kind, SIM_FK_RACE);
  ck_assert_uint_eq(f.r.fault.thread[0], 0);
  ck_assert_uint_eq(f.r.fault.other_thread[0], 1);
  ck_assert_msg(strstr(f.r.fault.message, "read-after-write") &&
                strstr(f.r.fault.message, "no __syncwarp()"), "%s", f.r.fault.message);
  done(&f);
  race_run(&f, "bar.warp.sync -1;", 1, 0);
  ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
  done(&f);
  race_run(&f, "shfl.sync.bfly.b32 %r10, %r1, 1, 31, -1;", 1, 0);
  ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
  done(&f);
  race_run(&f, "", 0, 0);                       /* its own word: no hazard */
  ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
  done(&f);
}
END_TEST

/* Block 0 writes s[tid], every block then reads it after a barrier: block 1 reads what no
   thread of its own wrote, although block 0 left it there (the shadow's epochs restart). */
START_TEST(test_uninitialised_shared_read)
{
  const char *k =
    HDR
    ".visible .entry un(.param .u64 out)\n{\n"
    "  .shared .align 4 .b8 s[128];\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<4>;\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n  mov.u32 %r4, s;\n"
    "  shl.b32 %r5, %r1, 2;\n  add.s32 %r6, %r4, %r5;\n"
    "  setp.ne.s32 %p1, %r2, 0;\n"
    "  @%p1 bra READ;\n"
    "  st.shared.u32 [%r6], %r1;\n"
    "READ:\n"
    "  bar.sync 0;\n"
    "  .loc 1 12 3\n"
    "  ld.shared.u32 %r9, [%r6];\n"
    "  ld.param.u64 %rd1, [out];\n  st.global.u32 [%rd1], %r9;\n"
    "  ret;\n}\n"
    ".file 1 \"/lab/un.cu\"\n";
  for (int off = 0; off < 2; off++) {
    struct fx f;
    load(&f, k);
    uint64_t out = buffer(&f, 4, "out");
    struct sim_launch c = {.grid = {2, 1, 1}, .block = {32, 1, 1}, .workers = 1,
                           .nocheck = off ? SIM_NOCHECK_INIT : 0};
    ck_assert_int_eq(sim_run(f.d, &f.m, "un", &out, 8, &c, &f.r, f.err, sizeof f.err), SIM_OK);
    if (off) {
      ck_assert_int_eq(f.r.outcome, SIM_RAN_OK);
    } else {
      ck_assert_int_eq(f.r.fault.kind, SIM_FK_UNINIT);
      ck_assert_uint_eq(f.r.fault.block[0], 1);
      ck_assert_uint_eq(line_of(&f, f.r.fault.inst), 12);
      ck_assert_msg(strstr(f.r.fault.message, "no thread of the block wrote s[0]"), "%s",
                    f.r.fault.message);
    }
    done(&f);
  }
}
END_TEST

/* Global memory within a block: thread t >= 32 reads out[t - 32], which thread t - 32 wrote
   (line 6); SYNC between them or not. Two blocks, one worker: block 1 must not take block 0's
   writes for its own. */
/* Coalesced warp stores that land inside the span of the block's words, in 128-byte chunks
   the checker has not seen: warp 1's stores of out[32..63] and out[160..191] (an instruction
   runs the warp-wide path from its second warp on), between warp 0's. Warp 2 reads
   out[160..191] with no barrier after warp 1 wrote them: a read-after-write (line 9 against
   line 7). Warps 0 and 1 read words nobody writes. */
START_TEST(test_global_race_coalesced_chunks)
{
  for (int sync = 0; sync < 2; sync++) {
    char k[2048];
    snprintf(k, sizeof k,
      HDR
      ".visible .entry gc(.param .u64 out)\n{\n"
      "  .reg .pred %%p<2>;\n  .reg .b32 %%r<12>;\n  .reg .b64 %%rd<8>;\n"
      "  mov.u32 %%r1, %%tid.x;\n  add.u32 %%r2, %%r1, 1;\n"
      "  ld.param.u64 %%rd1, [out];\n  mul.wide.u32 %%rd2, %%r1, 4;\n  add.s64 %%rd3, %%rd1, %%rd2;\n"
      "  .loc 1 5 3\n  st.global.u32 [%%rd3+1024], %%r2;\n"
      "  .loc 1 6 3\n  st.global.u32 [%%rd3], %%r2;\n"
      "  .loc 1 7 3\n  st.global.u32 [%%rd3+512], %%r2;\n"
      "  %s\n"
      "  setp.ge.u32 %%p1, %%r1, 64;\n  selp.u32 %%r6, 96, 512, %%p1;\n  add.u32 %%r7, %%r1, %%r6;\n"
      "  mul.wide.u32 %%rd4, %%r7, 4;\n  add.s64 %%rd5, %%rd1, %%rd4;\n"
      "  .loc 1 9 3\n  ld.global.u32 %%r5, [%%rd5];\n"
      "  st.global.u32 [%%rd3+3072], %%r5;\n"
      "  ret;\n}\n"
      ".file 1 \"/lab/gc.cu\"\n", sync ? "bar.sync 0;" : "");
    struct fx f;
    load(&f, k);
    uint64_t out = buffer(&f, 1024 * 4, "out");
    ck_assert_int_eq(launch(&f, "gc", 1, 96, &out, 1, SIM_SCHED_ITS, 1, 0), SIM_OK);
    if (sync) {
      ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
    } else {
      ck_assert_int_eq(f.r.fault.kind, SIM_FK_RACE);
      ck_assert_uint_eq(f.r.fault.thread[0], 64);
      ck_assert_uint_eq(f.r.fault.other_thread[0], 32);
      ck_assert_uint_eq(line_of(&f, f.r.fault.inst), 9);
      ck_assert_uint_eq(line_of(&f, f.r.fault.other_inst), 7);
      ck_assert_msg(strstr(f.r.fault.message, "read-after-write hazard on element 160 "), "%s",
                    f.r.fault.message);
    }
    done(&f);
  }
}
END_TEST

START_TEST(test_global_race_within_a_block)
{
  for (int sync = 0; sync < 2; sync++) {
    char k[2048];
    snprintf(k, sizeof k,
      HDR
      ".visible .entry g(.param .u64 out)\n{\n"
      "  .reg .pred %%p<2>;\n  .reg .b32 %%r<12>;\n  .reg .b64 %%rd<8>;\n"
      "  mov.u32 %%r1, %%tid.x;\n  mov.u32 %%r2, %%ctaid.x;\n  shl.b32 %%r3, %%r2, 6;\n"
      "  add.s32 %%r4, %%r3, %%r1;\n"
      "  ld.param.u64 %%rd1, [out];\n  mul.wide.u32 %%rd2, %%r4, 4;\n  add.s64 %%rd3, %%rd1, %%rd2;\n"
      "  setp.ge.u32 %%p1, %%r1, 32;\n"
      "  @%%p1 bra SKIP;\n"
      "  .loc 1 6 3\n"
      "  st.global.u32 [%%rd3], %%r1;\n"
      "SKIP:\n"
      "  %s\n"
      "  @!%%p1 bra END;\n"
      "  .loc 1 8 3\n"
      "  ld.global.u32 %%r5, [%%rd3+-128];\n"
      "  st.global.u32 [%%rd3], %%r5;\n"
      "END:\n  ret;\n}\n"
      ".file 1 \"/lab/g.cu\"\n", sync ? "bar.sync 0;" : "");
    struct fx f;
    load(&f, k);
    uint64_t out = buffer(&f, 128 * 4, "out");
    ck_assert_int_eq(launch(&f, "g", 2, 64, &out, 1, SIM_SCHED_ITS, 1, 0), SIM_OK);
    if (sync) {
      ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
    } else {
      ck_assert_int_eq(f.r.fault.kind, SIM_FK_RACE);
      ck_assert_uint_eq(f.r.fault.block[0], 0);
      /* thread 0 stored 0 over the 0 already there, which nobody can tell from no store:
         the first hazard is thread 33's read of thread 1's store */
      ck_assert_uint_eq(f.r.fault.thread[0], 33);
      ck_assert_uint_eq(f.r.fault.other_thread[0], 1);
      ck_assert_uint_eq(line_of(&f, f.r.fault.inst), 8);
      ck_assert_uint_eq(line_of(&f, f.r.fault.other_inst), 6);
      ck_assert_msg(strstr(f.r.fault.message, "__global__ memory: read-after-write hazard on "
                                              "element 1 (byte 4) of out"), "%s",
                    f.r.fault.message);
      /* again with races left out, on this host thread, whose table of global writes the
         launch above filled (it keeps it): nothing found */
      struct sim_launch c = {.grid = {2, 1, 1}, .block = {64, 1, 1}, .workers = 1,
                             .sched = SIM_SCHED_ITS, .nocheck = SIM_NOCHECK_RACE};
      sim_result_free(&f.r);
      ck_assert_int_eq(sim_run(f.d, &f.m, "g", &out, 8, &c, &f.r, f.err, sizeof f.err), SIM_OK);
      ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
    }
    done(&f);
  }
}
END_TEST

/* The checker holds a coalesced warp store of whole words as lines (one record a 128-byte
   chunk): warps 1 and 2 of an instruction take the warp-wide path, warp 0 the lane-by-lane
   one. Thread t stores t + 1 (size bytes) at out + off + size t (line 5), then SYNC, then
   thread `reader` loads the word at out + raddr (line 8). expect: the thread whose write that
   load races with, or -1 for none. */
struct line_case {
  unsigned size, off, reader, raddr;
  const char *sync;
  int expect;
};

static void line_case_run(const struct line_case *lc)
{
  char k[2048];
  snprintf(k, sizeof k,
    HDR
    ".visible .entry gl(.param .u64 out)\n{\n"
    "  .reg .pred %%p<2>;\n  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<8>;\n"
    "  mov.u32 %%r1, %%tid.x;\n  add.u32 %%r2, %%r1, 1;\n  cvt.u64.u32 %%rd4, %%r2;\n"
    "  ld.param.u64 %%rd1, [out];\n  mul.wide.u32 %%rd2, %%r1, %u;\n  add.s64 %%rd3, %%rd1, %%rd2;\n"
    "  .loc 1 5 3\n  st.global.u%u [%%rd3+%u], %s;\n"
    "  %s\n"
    "  setp.ne.u32 %%p1, %%r1, %u;\n  @%%p1 bra END;\n"
    "  .loc 1 8 3\n  ld.global.u32 %%r5, [%%rd1+%u];\n"
    "END:\n  ret;\n}\n"
    ".file 1 \"/lab/gl.cu\"\n",
    lc->size, lc->size * 8, lc->off, lc->size == 8 ? "%rd4" : "%r2", lc->sync, lc->reader,
    lc->raddr);
  struct fx f;
  load(&f, k);
  uint64_t out = buffer(&f, 4096, "out");
  ck_assert_int_eq(launch(&f, "gl", 1, 96, &out, 1, SIM_SCHED_ITS, 1, 0), SIM_OK);
  if (lc->expect < 0) {
    ck_assert_msg(f.r.outcome == SIM_RAN_OK, "size %u off %u reader %u raddr %u '%s': %s",
                  lc->size, lc->off, lc->reader, lc->raddr, lc->sync, f.r.fault.message);
  } else {
    ck_assert_msg(f.r.fault.kind == SIM_FK_RACE, "size %u off %u reader %u raddr %u '%s': %s",
                  lc->size, lc->off, lc->reader, lc->raddr, lc->sync, f.r.fault.message);
    ck_assert_uint_eq(f.r.fault.thread[0], lc->reader);
    ck_assert_uint_eq(f.r.fault.other_thread[0], (unsigned)lc->expect);
    ck_assert_uint_eq(line_of(&f, f.r.fault.inst), 8);
    ck_assert_uint_eq(line_of(&f, f.r.fault.other_inst), 5);
    ck_assert_msg(strstr(f.r.fault.message, "read-after-write"), "%s", f.r.fault.message);
  }
  uint8_t v[4096];
  ck_assert_int_eq(sim_read(f.d, out, v, sizeof v), SIM_OK);
  for (unsigned t = 0; t < 96; t++) {             /* every store done, held or not */
    uint64_t x = 0;
    memcpy(&x, v + lc->off + lc->size * t, lc->size);
    ck_assert_uint_eq(x, t + 1);
  }
  done(&f);
}

START_TEST(test_global_race_lines)
{
  static const struct line_case c[] = {
    /* a single-word read from another warp of a word of warp 1's line */
    {4, 0, 64, 4 * 40, "", 40},
    {4, 0, 64, 4 * 40, "bar.sync 0;", -1},
    /* within warp 1: another lane's word, then its own, then after __syncwarp() */
    {4, 0, 41, 4 * 40, "", 40},
    {4, 0, 40, 4 * 40, "", -1},
    {4, 0, 41, 4 * 40, "bar.warp.sync -1;", -1},
    /* misaligned by a word: warp 1's words 33..64 in two chunks, warp 2's line beside
       warp 1's in chunk 2 */
    {4, 4, 64, 4 * 33, "", 32},
    {4, 4, 64, 4 * 64, "", 63},
    {4, 4, 64, 4 * 66, "", 65},
    {4, 4, 64, 4 * 65, "", -1},
    /* 8-byte lanes: each word of a lane's pair is the lane's */
    {8, 0, 64, 8 * 40 + 4, "", 40},
    {8, 0, 64, 8 * 40, "", 40},
    {8, 0, 80, 8 * 81, "", 81},
    {8, 0, 81, 8 * 81 + 4, "", -1},
    {8, 0, 64, 8 * 40 + 4, "bar.sync 0;", -1},
  };
  for (size_t i = 0; i < sizeof c / sizeof *c; i++)
    line_case_run(&c[i]);
}
END_TEST

/* Lines that a later store overlaps in part: S1 (line 5) stores out[t] = t + 1, S2 (line 7)
   out[t + 16] = t + 1000 (warp 0's S2 elsewhere). Warp 1's S2 overwrites out[48..63], which
   its own lanes 48..63 wrote at S1: a write-after-write within the warp (lane 0 against lane
   16) unless a __syncwarp() orders them; then warp 2's S1 overwrites out[64..79], warp 1's
   S2 words: a write-after-write between warps unless a barrier comes between. */
START_TEST(test_global_race_lines_overlap)
{
  static const char *const sync[] = {"", "bar.warp.sync -1;", "bar.sync 0;"};
  for (int s = 0; s < 3; s++) {
    char k[2048];
    snprintf(k, sizeof k,
      HDR
      ".visible .entry go(.param .u64 out)\n{\n"
      "  .reg .pred %%p<2>;\n  .reg .b32 %%r<12>;\n  .reg .b64 %%rd<8>;\n"
      "  mov.u32 %%r1, %%tid.x;\n  add.u32 %%r2, %%r1, 1;\n  add.u32 %%r3, %%r1, 1000;\n"
      "  ld.param.u64 %%rd1, [out];\n  mul.wide.u32 %%rd2, %%r1, 4;\n  add.s64 %%rd3, %%rd1, %%rd2;\n"
      "  setp.lt.u32 %%p1, %%r1, 32;\n  selp.u32 %%r4, 2048, 64, %%p1;\n"
      "  cvt.u64.u32 %%rd4, %%r4;\n  add.s64 %%rd5, %%rd3, %%rd4;\n"
      "  .loc 1 5 3\n  st.global.u32 [%%rd3], %%r2;\n"
      "  %s\n"
      "  .loc 1 7 3\n  st.global.u32 [%%rd5], %%r3;\n"
      "  ret;\n}\n"
      ".file 1 \"/lab/go.cu\"\n", sync[s]);
    struct fx f;
    load(&f, k);
    uint64_t out = buffer(&f, 4096, "out");
    ck_assert_int_eq(launch(&f, "go", 1, 96, &out, 1, SIM_SCHED_ITS, 1, 0), SIM_OK);
    if (s == 2) {
      ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
      uint32_t v[96];
      ck_assert_int_eq(sim_read(f.d, out, v, sizeof v), SIM_OK);
      for (unsigned i = 0; i < 96; i++)   /* every S1, then S2 over out[48..] */
        ck_assert_uint_eq(v[i], i >= 48 ? i - 16 + 1000 : i + 1);
    } else {
      ck_assert_int_eq(f.r.fault.kind, SIM_FK_RACE);
      ck_assert_msg(strstr(f.r.fault.message, "write-after-write"), "%s", f.r.fault.message);
      ck_assert_uint_eq(f.r.fault.thread[0], s == 0 ? 32 : 64);
      ck_assert_uint_eq(f.r.fault.other_thread[0], 48);
      ck_assert_uint_eq(line_of(&f, f.r.fault.inst), s == 0 ? 7 : 5);
      ck_assert_uint_eq(line_of(&f, f.r.fault.other_inst), s == 0 ? 5 : 7);
    }
    done(&f);
  }
}
END_TEST

/* A block that writes more chunks than the table of lines holds: one warp stores out[32 i + l]
   = l + 1 for 900 chunks i (line 5); the lines fill up at 768, the word table takes the
   next chunks. Then lane 1 reads a word of a chunk held each way (line 8) with no
   __syncwarp() between: a read-after-write with lane `other`. Every store is done. */
START_TEST(test_global_race_lines_full)
{
  static const struct { unsigned word, other; } c[] = {
    {5, 5}, {32 * 500 + 7, 7}, {32 * 800 + 9, 9},
  };
  for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
    char k[2048];
    snprintf(k, sizeof k,
      HDR
      ".visible .entry gf(.param .u64 out)\n{\n"
      "  .reg .pred %%p<4>;\n  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<8>;\n"
      "  mov.u32 %%r1, %%tid.x;\n  add.u32 %%r2, %%r1, 1;\n"
      "  ld.param.u64 %%rd1, [out];\n  mul.wide.u32 %%rd2, %%r1, 4;\n  add.s64 %%rd3, %%rd1, %%rd2;\n"
      "  mov.u32 %%r3, 0;\n"
      "LOOP:\n"
      "  .loc 1 5 3\n  st.global.u32 [%%rd3], %%r2;\n"
      "  add.s64 %%rd3, %%rd3, 128;\n  add.u32 %%r3, %%r3, 1;\n"
      "  setp.lt.u32 %%p2, %%r3, 900;\n  @%%p2 bra LOOP;\n"
      "  setp.ne.u32 %%p3, %%r1, 1;\n  @%%p3 bra END;\n"
      "  .loc 1 8 3\n  ld.global.u32 %%r5, [%%rd1+%u];\n"
      "END:\n  ret;\n}\n"
      ".file 1 \"/lab/gf.cu\"\n", 4 * c[i].word);
    struct fx f;
    load(&f, k);
    uint64_t out = buffer(&f, 900 * 128, "out");
    ck_assert_int_eq(launch(&f, "gf", 1, 32, &out, 1, SIM_SCHED_ITS, 1, 0), SIM_OK);
    ck_assert_msg(f.r.fault.kind == SIM_FK_RACE, "word %u: %s", c[i].word, f.r.fault.message);
    ck_assert_uint_eq(f.r.fault.thread[0], 1);
    ck_assert_uint_eq(f.r.fault.other_thread[0], c[i].other);
    ck_assert_uint_eq(line_of(&f, f.r.fault.inst), 8);
    ck_assert_uint_eq(line_of(&f, f.r.fault.other_inst), 5);
    static uint32_t v[900 * 32];
    ck_assert_int_eq(sim_read(f.d, out, v, sizeof v), SIM_OK);
    for (unsigned w = 0; w < 900 * 32; w++)
      ck_assert_uint_eq(v[w], w % 32 + 1);
    done(&f);
  }
}
END_TEST

/* Whole warps of contiguous words after a barrier (the checker's warp-wide path): each thread
   writes s[tid], waits, reads a word of s[32..63] (warp 0 reads warp 1's words, in order or
   not) and writes s[tid] again. Warps run in order, so warp 1's second write of s[32..63] follows warp 0's reads of
   them: without a barrier between, a write-after-read (line 9 against line 7) that only a
   record of those warp-wide reads shows. With a second barrier there is none. */
START_TEST(test_race_warp_wide_reads)
{
  /* the read's word offset from tid * 4 (%r5): contiguous, the other warp's words in
     another order (lane l reads word 32 + 5 l % 32), or in reverse (word 63 - l: a stride of
     -1 word, sim_race.c's strided path; thread 31 then reads s[32] first) */
  static const char *const addr[3] = {
    "or.b32 %r7, %r5, 128;",
    "mul.lo.u32 %r7, %r5, 5;\n  and.b32 %r7, %r7, 124;\n  or.b32 %r7, %r7, 128;",
    "and.b32 %r7, %r5, 124;\n  xor.b32 %r7, %r7, 252;",
  };
  for (int run = 0; run < 6; run++) {
    const int sync = run & 1;
    char k[1536];
    snprintf(k, sizeof k,
      HDR
      ".visible .entry ww(.param .u64 out)\n{\n"
      "  .shared .align 4 .b8 s[256];\n"
      "  .reg .b32 %%r<12>;\n  .reg .b64 %%rd<4>;\n"
      "  mov.u32 %%r1, %%tid.x;\n  mov.u32 %%r4, s;\n  shl.b32 %%r5, %%r1, 2;\n"
      "  add.s32 %%r6, %%r4, %%r5;\n  %s\n  add.s32 %%r8, %%r4, %%r7;\n"
      "  .loc 1 5 3\n  st.shared.u32 [%%r6], %%r1;\n"
      "  bar.sync 0;\n"
      "  .loc 1 7 3\n  ld.shared.u32 %%r9, [%%r8];\n"
      "  %s\n"
      "  add.s32 %%r9, %%r9, 1000;\n"
      "  .loc 1 9 3\n  st.shared.u32 [%%r6], %%r9;\n"
      "  ld.param.u64 %%rd1, [out];\n  mul.wide.u32 %%rd2, %%r1, 4;\n  add.s64 %%rd3, %%rd1, %%rd2;\n"
      "  st.global.u32 [%%rd3], %%r9;\n"
      "  ret;\n}\n"
      ".file 1 \"/lab/ww.cu\"\n", addr[run >> 1], sync ? "bar.sync 0;" : "");
    struct fx f;
    load(&f, k);
    uint64_t out = buffer(&f, 64 * 4, "out");
    struct sim_launch c = {.grid = {1, 1, 1}, .block = {64, 1, 1}, .workers = 1};
    ck_assert_int_eq(sim_run(f.d, &f.m, "ww", &out, 8, &c, &f.r, f.err, sizeof f.err), SIM_OK);
    if (sync) {
      ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
    } else {
      ck_assert_int_eq(f.r.fault.kind, SIM_FK_RACE);
      ck_assert_uint_eq(f.r.fault.thread[0], 32);
      ck_assert_uint_eq(f.r.fault.other_thread[0], run >> 1 == 2 ? 31 : 0);
      ck_assert_uint_eq(line_of(&f, f.r.fault.inst), 9);
      ck_assert_uint_eq(line_of(&f, f.r.fault.other_inst), 7);
      ck_assert_msg(strstr(f.r.fault.message, "write-after-read hazard on s[32]"), "%s",
                    f.r.fault.message);
    }
    done(&f);
  }
}
END_TEST

/* A full warp's store of s[tid] after the warp read or wrote those words in the same epoch
   (the checker's warp-wide write path, which takes words that only their writer now read or
   wrote): warp 0 stores s[tid] (line 5), then, after a barrier, each thread reads s[R]
   (line 7) or stores s[R] (line 7), and stores s[tid] (line 9). R is tid, or, for warp 1's
   lanes from some lane on, tid ^ 1 (a neighbour lane's word: that lane then writes its word
   after the neighbour read or wrote it, a write-after-read or write-after-write within the
   warp, unless a __syncwarp() comes between). */
START_TEST(test_race_warp_wide_own_writes)
{
  static const struct { const char *access, *sync; unsigned other; } c[] = {
    {"ld.shared.u32 %r9, [%r8];", "", 0},
    {"ld.shared.u32 %r9, [%r8];", "", 33},
    {"ld.shared.u32 %r9, [%r8];", "", 41},
    {"ld.shared.u32 %r9, [%r8];", "", 49},
    {"ld.shared.u32 %r9, [%r8];", "bar.warp.sync -1;", 0},
    {"st.shared.u32 [%r8], %r9;", "", 0},
    {"st.shared.u32 [%r8], %r9;", "", 33},
    {"st.shared.u32 [%r8], %r9;", "", 57},
    {"st.shared.u32 [%r8], %r9;", "bar.warp.sync -1;", 0},
  };
  for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
    /* warp 1's lanes from `other` - 33 on take their neighbour's word */
    const int racy = c[i].other != 0;
    const unsigned from = racy ? c[i].other - 1 : 64;
    const int reads = c[i].access[0] == 'l';
    char k[2048];
    snprintf(k, sizeof k,
      HDR
      ".visible .entry wo(.param .u64 out)\n{\n"
      "  .shared .align 4 .b8 s[256];\n"
      "  .reg .pred %%p<2>;\n  .reg .b32 %%r<12>;\n"
      "  mov.u32 %%r1, %%tid.x;\n  mov.u32 %%r4, s;\n  shl.b32 %%r5, %%r1, 2;\n"
      "  add.s32 %%r6, %%r4, %%r5;\n"
      "  setp.ge.u32 %%p1, %%r1, %u;\n  xor.b32 %%r7, %%r1, 1;\n  selp.u32 %%r7, %%r7, %%r1, %%p1;\n"
      "  shl.b32 %%r7, %%r7, 2;\n  add.s32 %%r8, %%r4, %%r7;\n  mov.u32 %%r9, 7;\n"
      "  .loc 1 5 3\n  st.shared.u32 [%%r6], %%r1;\n"
      "  bar.sync 0;\n"
      "  .loc 1 7 3\n  %s\n"
      "  %s\n"
      "  add.s32 %%r9, %%r9, 1000;\n"
      "  .loc 1 9 3\n  st.shared.u32 [%%r6], %%r9;\n"
      "  bar.sync 0;\n"
      "  ret;\n}\n"
      ".file 1 \"/lab/wo.cu\"\n", from, c[i].access, c[i].sync);
    struct fx f;
    load(&f, k);
    uint64_t out = buffer(&f, 64, "out");
    struct sim_launch lc = {.grid = {1, 1, 1}, .block = {64, 1, 1}, .workers = 1};
    ck_assert_int_eq(sim_run(f.d, &f.m, "wo", &out, 8, &lc, &f.r, f.err, sizeof f.err), SIM_OK);
    if (!racy) {
      ck_assert_msg(f.r.outcome == SIM_RAN_OK, "case %zu: %s", i, f.r.fault.message);
    } else {
      ck_assert_msg(f.r.fault.kind == SIM_FK_RACE, "case %zu: %s", i, f.r.fault.message);
      char what[64];
      snprintf(what, sizeof what, "%s hazard on s[%u]",
               reads ? "write-after-read" : "write-after-write", from);
      ck_assert_uint_eq(f.r.fault.thread[0], from);
      ck_assert_uint_eq(f.r.fault.other_thread[0], c[i].other);
      ck_assert_uint_eq(line_of(&f, f.r.fault.inst), 9);
      ck_assert_uint_eq(line_of(&f, f.r.fault.other_inst), 7);
      ck_assert_msg(strstr(f.r.fault.message, what), "%s", f.r.fault.message);
    }
    done(&f);
  }
}
END_TEST

/* The warp-wide write path's words read or written before the warp's last __syncwarp()
   (warp-synchronous code): after a barrier, warp 1 reads s[tid] (line 7), then warp 0, once
   warp 1 has raised a flag, reads warp 1's words too (line 8, unless `other` is 0) and
   raises a second one, and warp 1, after a __syncwarp(), stores s[tid] (line 9). The
   __syncwarp() orders its own lanes' reads before the store, not warp 0's: thread 32's store
   follows thread 0's read of s[32] with nothing between, a write-after-read. */
START_TEST(test_race_warp_sync_own_writes)
{
  for (int other = 0; other < 2; other++) {
    char k[3072];
    snprintf(k, sizeof k,
      HDR
      ".visible .entry ws(.param .u64 out)\n{\n"
      "  .shared .align 4 .b8 s[256];\n"
      "  .reg .pred %%p<3>;\n  .reg .b32 %%r<12>;\n  .reg .b64 %%rd<3>;\n"
      "  ld.param.u64 %%rd1, [out];\n"
      "  mov.u32 %%r1, %%tid.x;\n  mov.u32 %%r4, s;\n  shl.b32 %%r5, %%r1, 2;\n"
      "  add.s32 %%r6, %%r4, %%r5;\n"
      "  .loc 1 5 3\n  st.shared.u32 [%%r6], %%r1;\n"
      "  bar.sync 0;\n"
      "  setp.lt.u32 %%p1, %%r1, 32;\n  @%%p1 bra W0;\n"
      "  .loc 1 7 3\n  ld.shared.u32 %%r9, [%%r6];\n"
      "  st.volatile.global.u32 [%%rd1], 1;\n"
      "SPIN1:\n  ld.volatile.global.u32 %%r2, [%%rd1+4];\n"
      "  setp.eq.u32 %%p2, %%r2, 0;\n  @%%p2 bra SPIN1;\n"
      "  bar.warp.sync -1;\n"
      "  add.s32 %%r9, %%r9, 1000;\n"
      "  .loc 1 9 3\n  st.shared.u32 [%%r6], %%r9;\n"
      "  bra END;\n"
      "W0:\n  ld.volatile.global.u32 %%r2, [%%rd1];\n"
      "  setp.eq.u32 %%p2, %%r2, 0;\n  @%%p2 bra W0;\n"
      "  %s\n"
      "  st.volatile.global.u32 [%%rd1+4], 1;\n"
      "END:\n  bar.sync 0;\n"
      "  ret;\n}\n"
      ".file 1 \"/lab/ws.cu\"\n",
      other ? ".loc 1 8 3\n  ld.shared.u32 %r10, [%r6+128];" : "");
    struct fx f;
    load(&f, k);
    uint64_t out = buffer(&f, 8, "out");
    struct sim_launch lc = {.grid = {1, 1, 1}, .block = {64, 1, 1}, .workers = 1};
    ck_assert_int_eq(sim_run(f.d, &f.m, "ws", &out, 8, &lc, &f.r, f.err, sizeof f.err), SIM_OK);
    if (!other) {
      ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
    } else {
      ck_assert_msg(f.r.fault.kind == SIM_FK_RACE, "%s", f.r.fault.message);
      ck_assert_uint_eq(f.r.fault.thread[0], 32);
      ck_assert_uint_eq(f.r.fault.other_thread[0], 0);
      ck_assert_uint_eq(line_of(&f, f.r.fault.inst), 9);
      ck_assert_uint_eq(line_of(&f, f.r.fault.other_inst), 8);
      ck_assert_msg(strstr(f.r.fault.message, "write-after-read hazard on s[32]"), "%s",
                    f.r.fault.message);
    }
    done(&f);
  }
}
END_TEST

/* The warp-wide write path's lane masks in order: every thread reads s[tid] (an epoch
   before), then lanes 16-23 of warp 1 read their neighbour's word (line 7), and every thread
   stores s[tid] (line 9): thread 48 writes s[48] after thread 49 read it, a write-after-read
   within the warp, while lanes 8-15 were read by their own lanes only, an epoch before. */
START_TEST(test_race_warp_wide_own_writes_lanes)
{
  const char *k =
    HDR
    ".visible .entry wl(.param .u64 out)\n{\n"
    "  .shared .align 4 .b8 s[256];\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<12>;\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r4, s;\n  shl.b32 %r5, %r1, 2;\n"
    "  add.s32 %r6, %r4, %r5;\n  xor.b32 %r7, %r5, 4;\n  add.s32 %r8, %r4, %r7;\n"
    "  sub.u32 %r10, %r1, 48;\n  setp.lt.u32 %p1, %r10, 8;\n"
    "  .loc 1 5 3\n  st.shared.u32 [%r6], %r1;\n"
    "  bar.sync 0;\n"
    "  ld.shared.u32 %r9, [%r6];\n"
    "  bar.sync 0;\n"
    "  .loc 1 7 3\n  @%p1 ld.shared.u32 %r11, [%r8];\n"
    "  add.s32 %r9, %r9, 1000;\n"
    "  .loc 1 9 3\n  st.shared.u32 [%r6], %r9;\n"
    "  bar.sync 0;\n"
    "  ret;\n}\n"
    ".file 1 \"/lab/wl.cu\"\n";
  struct fx f;
  load(&f, k);
  uint64_t out = buffer(&f, 64, "out");
  struct sim_launch lc = {.grid = {1, 1, 1}, .block = {64, 1, 1}, .workers = 1};
  ck_assert_int_eq(sim_run(f.d, &f.m, "wl", &out, 8, &lc, &f.r, f.err, sizeof f.err), SIM_OK);
  ck_assert_msg(f.r.fault.kind == SIM_FK_RACE, "%s", f.r.fault.message);
  ck_assert_uint_eq(f.r.fault.thread[0], 48);
  ck_assert_uint_eq(f.r.fault.other_thread[0], 49);
  ck_assert_uint_eq(line_of(&f, f.r.fault.inst), 9);
  ck_assert_uint_eq(line_of(&f, f.r.fault.other_inst), 7);
  done(&f);
}
END_TEST

/* Some lanes' shared loads (the checker's lane-by-lane shortcut for words whose reads start
   a new summary): every thread stores s[tid] (line 5), then SYNC, then lanes 0-15 of warp 1
   read s[R] (line 9): R = tid ^ 1 (a neighbour lane's word), or tid + 64 (a word no thread
   wrote). Then every thread stores s[tid] again (line 11). Without SYNC, thread 32's read of
   s[33] is a read-after-write; after a __syncwarp() or a barrier, thread 32's second store
   of s[32] follows thread 33's read of it with nothing between, a write-after-read (the
   summary the shortcut began holds the read). The word no thread wrote is reported. */
START_TEST(test_race_partial_warp_reads)
{
  static const struct { const char *idx, *sync; int kind; unsigned other, line; } c[] = {
    {"xor.b32 %r7, %r1, 1;", "", SIM_FK_RACE, 33, 5},          /* read-after-write */
    {"xor.b32 %r7, %r1, 1;", "bar.warp.sync -1;", SIM_FK_RACE, 33, 9}, /* the later write */
    {"xor.b32 %r7, %r1, 1;", "bar.sync 0;", SIM_FK_RACE, 33, 9},
    {"add.u32 %r7, %r1, 64;", "bar.sync 0;", SIM_FK_UNINIT, 0, 0},
  };
  for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
    char k[2048];
    snprintf(k, sizeof k,
      HDR
      ".visible .entry pr(.param .u64 out)\n{\n"
      "  .shared .align 4 .b8 s[512];\n"
      "  .reg .pred %%p<2>;\n  .reg .b32 %%r<12>;\n"
      "  mov.u32 %%r1, %%tid.x;\n  mov.u32 %%r4, s;\n  shl.b32 %%r5, %%r1, 2;\n"
      "  add.s32 %%r6, %%r4, %%r5;\n  %s\n  shl.b32 %%r7, %%r7, 2;\n  add.s32 %%r8, %%r4, %%r7;\n"
      "  sub.u32 %%r10, %%r1, 32;\n  setp.lt.u32 %%p1, %%r10, 16;\n  add.u32 %%r9, %%r1, 100;\n"
      "  .loc 1 5 3\n  st.shared.u32 [%%r6], %%r1;\n"
      "  %s\n"
      "  .loc 1 9 3\n  @%%p1 ld.shared.u32 %%r11, [%%r8];\n"
      "  .loc 1 11 3\n  st.shared.u32 [%%r6], %%r9;\n"
      "  ret;\n}\n"
      ".file 1 \"/lab/pr.cu\"\n", c[i].idx, c[i].sync);
    struct fx f;
    load(&f, k);
    uint64_t out = buffer(&f, 64, "out");
    struct sim_launch lc = {.grid = {1, 1, 1}, .block = {64, 1, 1}, .workers = 1};
    ck_assert_int_eq(sim_run(f.d, &f.m, "pr", &out, 8, &lc, &f.r, f.err, sizeof f.err), SIM_OK);
    ck_assert_msg(f.r.fault.kind == (enum sim_fault_kind)c[i].kind, "case %zu: %s", i,
                  f.r.fault.message);
    if (c[i].kind == SIM_FK_RACE) {
      ck_assert_uint_eq(f.r.fault.thread[0], 32);
      ck_assert_uint_eq(f.r.fault.other_thread[0], c[i].other);
      ck_assert_uint_eq(line_of(&f, f.r.fault.other_inst), c[i].line);
    } else {
      ck_assert_uint_eq(f.r.fault.thread[0], 32);
      ck_assert_uint_eq(line_of(&f, f.r.fault.inst), 9);
    }
    done(&f);
  }
}
END_TEST

/* A full warp runs plain arithmetic through sim_exec_run's fast path, a partial one through
   sim_exec: in a block of 48 threads, warp 0's lanes 0-15 and warp 1's (threads 32-47) start
   from the same values (tid % 16) and must end with the same results, NaNs included. */
START_TEST(test_fast_path_matches_sim_exec)
{
  const char *k =
    HDR
    ".visible .entry fp(.param .u64 out)\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<12>;\n  .reg .f32 %f<6>;\n  .reg .b64 %rd<8>;\n"
    "  mov.u32 %r1, %tid.x;\n  and.b32 %r2, %r1, 15;\n"
    "  mul.lo.u32 %r3, %r2, -1640531527;\n  add.s32 %r4, %r3, -7;\n  sub.s32 %r5, %r4, %r2;\n"
    "  or.b32 %r6, %r5, 256;\n  and.b32 %r7, %r6, %r3;\n  xor.b32 %r7, %r7, %r2;\n"
    "  setp.lt.s32 %p1, %r5, %r4;\n  setp.gt.u32 %p2, %r3, -2147483648;\n"
    "  selp.u32 %r9, 1, 0, %p1;\n  selp.u32 %r10, 2, 0, %p2;\n  or.b32 %r9, %r9, %r10;\n"
    "  mul.wide.s32 %rd1, %r5, -3;\n  mul.wide.u32 %rd2, %r3, %r3;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  cvt.rn.f32.u32 %f1, %r2;\n  mul.f32 %f2, %f1, 0f7F000000;\n  sub.f32 %f3, %f2, %f2;\n"
    "  fma.rn.f32 %f4, %f1, 0f3F000000, %f3;\n  add.f32 %f5, %f4, %f1;\n  mov.b32 %r8, %f5;\n"
    "  ld.param.u64 %rd4, [out];\n  mul.wide.u32 %rd5, %r1, 32;\n  add.s64 %rd6, %rd4, %rd5;\n"
    "  st.global.u32 [%rd6], %r7;\n  st.global.u32 [%rd6+8], %r8;\n"
    "  st.global.u32 [%rd6+16], %r9;\n  st.global.u64 [%rd6+24], %rd3;\n"
    "  ret;\n}\n";
  struct fx f;
  load(&f, k);
  uint64_t out = buffer(&f, 48 * 32, "out");
  ck_assert_int_eq(launch(&f, "fp", 1, 48, &out, 1, SIM_SCHED_ITS, 1, 0), SIM_OK);
  ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
  uint64_t v[48][4];
  memset(v, 0, sizeof v);
  ck_assert_int_eq(sim_read(f.d, out, v, sizeof v), SIM_OK);
  for (unsigned t = 0; t < 16; t++)
    for (unsigned j = 0; j < 4; j++) {
      ck_assert_uint_eq(v[t][j], v[t + 32][j]);
      ck_assert_uint_eq(v[t][j], v[t + 16][j]);
    }
  /* tid 1: 0x9E3779B9 - 7 - 1 = 0x9E3779B1 (bit 8 already set), & 0x9E3779B9, ^ 1 */
  ck_assert_uint_eq(v[1][0], 0x9E3779B0u);
  ck_assert_uint_eq(v[1][1], 0x3fc00000u);          /* 1 * 0.5 + (big - big = 0) + 1 = 1.5 */
  ck_assert_uint_eq(v[2][1], 0x7fffffffu);          /* inf - inf: the canonical NaN */
  done(&f);
}
END_TEST

/* Kernel `name` of k on one block of 256 threads with parameters (a, b, out): a and b hold
   every pair of the 16 values v (lane l: v[l % 16], v[l / 16]), each value `size` bytes; out
   (out_size bytes) is read back. The caller ends the fixture with done(). */
static void run_pairs(struct fx *f, const char *k, const char *name, const void *v,
                      unsigned size, void *a, void *b, void *out, size_t out_size)
{
  for (unsigned l = 0; l < 256; l++) {
    memcpy((uint8_t *)a + l * size, (const uint8_t *)v + (l % 16) * size, size);
    memcpy((uint8_t *)b + l * size, (const uint8_t *)v + (l / 16) * size, size);
  }
  load(f, k);
  uint64_t p[3] = {buffer(f, 256 * size, "a"), buffer(f, 256 * size, "b"),
                   buffer(f, out_size, "out")};
  ck_assert_int_eq(sim_write(f->d, p[0], a, 256 * size), SIM_OK);
  ck_assert_int_eq(sim_write(f->d, p[1], b, 256 * size), SIM_OK);
  ck_assert_int_eq(launch(f, name, 1, 256, p, 3, SIM_SCHED_ITS, 1, 0), SIM_OK);
  ck_assert_msg(f->r.outcome == SIM_RAN_OK, "%s", f->r.fault.message);
  ck_assert_int_eq(sim_read(f->d, p[2], out, out_size), SIM_OK);
}

/* min and max of f32, s32 and u32, shl.b32 and shr.u32 on a full warp (the AVX2 path where
   the CPU has it) give what sim_alu gives lane by lane: NaN against a number, two NaNs, +0
   against -0, subnormals, infinities, the ends of both integer ranges, shift counts of 0 to
   32 and more: every pair of 16 values, both ways round, in eight full warps. */
START_TEST(test_fast_path_min_max)
{
  const char *k =
    HDR
    ".visible .entry mm(.param .u64 a, .param .u64 b, .param .u64 out)\n{\n"
    "  .reg .b32 %r<14>;\n  .reg .f32 %f<6>;\n  .reg .b64 %rd<12>;\n"
    "  mov.u32 %r1, %tid.x;\n  ld.param.u64 %rd1, [a];\n  ld.param.u64 %rd2, [b];\n"
    "  ld.param.u64 %rd3, [out];\n  mul.wide.u32 %rd4, %r1, 4;\n"
    "  add.s64 %rd5, %rd1, %rd4;\n  add.s64 %rd6, %rd2, %rd4;\n"
    "  ld.global.u32 %r2, [%rd5];\n  ld.global.u32 %r3, [%rd6];\n"
    "  mov.b32 %f1, %r2;\n  mov.b32 %f2, %r3;\n"
    "  min.f32 %f3, %f1, %f2;\n  max.f32 %f4, %f1, %f2;\n"
    "  min.s32 %r4, %r2, %r3;\n  max.s32 %r5, %r2, %r3;\n"
    "  min.u32 %r6, %r2, %r3;\n  max.u32 %r7, %r2, %r3;\n"
    "  mov.b32 %r8, %f3;\n  mov.b32 %r9, %f4;\n"
    "  shl.b32 %r10, %r2, %r3;\n  shr.u32 %r11, %r2, %r3;\n"
    "  mul.wide.u32 %rd7, %r1, 32;\n  add.s64 %rd8, %rd3, %rd7;\n"
    "  st.global.u32 [%rd8], %r8;\n  st.global.u32 [%rd8+4], %r9;\n"
    "  st.global.u32 [%rd8+8], %r4;\n  st.global.u32 [%rd8+12], %r5;\n"
    "  st.global.u32 [%rd8+16], %r6;\n  st.global.u32 [%rd8+20], %r7;\n"
    "  st.global.u32 [%rd8+24], %r10;\n  st.global.u32 [%rd8+28], %r11;\n"
    "  ret;\n}\n";
  static const uint32_t v[] = {
    0x7fc00000u, 0xffc12345u, 0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u,
    0x00000001u, 0x80000001u, 0x3f800000u, 0xbf800000u, 0x7fffffffu, 0xffffffffu,
    0x00000002u, 0x0000001fu, 0xff7fffffu, 0x00000020u};
  _Static_assert(sizeof v / sizeof v[0] == 16, "16 values, 256 pairs");
  uint32_t a[256], b[256], out[256][8];
  struct fx f;
  run_pairs(&f, k, "mm", v, sizeof v[0], a, b, out, sizeof out);
  static const enum ptx_op ops[2] = {PTX_OP_MIN, PTX_OP_MAX};
  static const enum ptx_type it[2] = {PTX_T_S32, PTX_T_U32};
  for (unsigned l = 0; l < 256; l++)
    for (unsigned j = 0; j < 8; j++) {
      uint64_t want = j >= 6 ? sim_alu_ibin(j == 6 ? PTX_OP_SHL : PTX_OP_SHR,
                                            j == 6 ? PTX_T_B32 : PTX_T_U32, 0, a[l], b[l])
                    : j < 2 ? sim_alu_fbin(ops[j], PTX_T_F32, PTX_RND_NONE, 0, a[l], b[l])
                            : sim_alu_ibin(ops[j & 1], it[(j - 2) / 2], 0, a[l], b[l]);
      ck_assert_msg(out[l][j] == (uint32_t)want, "lane %u, %s of 0x%08x and 0x%08x: 0x%08x, "
                    "sim_alu 0x%08x", l, j < 2 ? (j ? "max.f32" : "min.f32")
                    : j < 4 ? (j & 1 ? "max.s32" : "min.s32") : j < 6 ? (j & 1 ? "max.u32" : "min.u32")
                    : j == 6 ? "shl.b32" : "shr.u32",
                    a[l], b[l], out[l][j], (uint32_t)want);
    }
  done(&f);
}
END_TEST

/* 64-bit sub, mul.lo, shl, and, or, xor and the widening cvts (s64 from s32, u64 from u32) on
   full warps (AVX2 where the CPU has it, the inline loops else) give what sim_alu gives lane
   by lane: shifts of 0, 63, 64 and more, negative 32-bit values, the ends of the ranges. */
START_TEST(test_fast_path_int64)
{
  const char *k =
    HDR
    ".visible .entry i64(.param .u64 a, .param .u64 b, .param .u64 out)\n{\n"
    "  .reg .b32 %r<6>;\n  .reg .b64 %rd<24>;\n"
    "  mov.u32 %r1, %tid.x;\n  ld.param.u64 %rd1, [a];\n  ld.param.u64 %rd2, [b];\n"
    "  ld.param.u64 %rd3, [out];\n  mul.wide.u32 %rd4, %r1, 8;\n"
    "  add.s64 %rd5, %rd1, %rd4;\n  add.s64 %rd6, %rd2, %rd4;\n"
    "  ld.global.u64 %rd7, [%rd5];\n  ld.global.u64 %rd8, [%rd6];\n"
    "  cvt.u32.u64 %r2, %rd7;\n  cvt.u32.u64 %r3, %rd8;\n"
    "  sub.s64 %rd9, %rd7, %rd8;\n  mul.lo.s64 %rd10, %rd7, %rd8;\n"
    "  shl.b64 %rd11, %rd7, %r3;\n  and.b64 %rd12, %rd7, %rd8;\n"
    "  or.b64 %rd13, %rd7, %rd8;\n  xor.b64 %rd14, %rd7, %rd8;\n"
    "  cvt.s64.s32 %rd15, %r2;\n  cvt.u64.u32 %rd16, %r2;\n"
    "  mul.wide.u32 %rd17, %r1, 64;\n  add.s64 %rd18, %rd3, %rd17;\n"
    "  st.global.u64 [%rd18], %rd9;\n  st.global.u64 [%rd18+8], %rd10;\n"
    "  st.global.u64 [%rd18+16], %rd11;\n  st.global.u64 [%rd18+24], %rd12;\n"
    "  st.global.u64 [%rd18+32], %rd13;\n  st.global.u64 [%rd18+40], %rd14;\n"
    "  st.global.u64 [%rd18+48], %rd15;\n  st.global.u64 [%rd18+56], %rd16;\n"
    "  ret;\n}\n";
  static const uint64_t v[] = {
    0, 1, 63, 64, 65, 0xffffffffull, 0x80000000ull, 0x7fffffffull, 0x100000000ull | 5,
    0xffffffff00000003ull, 0x8000000000000000ull, 0x7fffffffffffffffull, 0xffffffffffffffffull,
    0x9E3779B97F4A7C15ull, 32, 0x123456789abcdef0ull};
  _Static_assert(sizeof v / sizeof v[0] == 16, "16 values, 256 pairs");
  uint64_t a[256], b[256], out[256][8];
  struct fx f;
  run_pairs(&f, k, "i64", v, sizeof v[0], a, b, out, sizeof out);
  static const enum ptx_op ops[6] = {PTX_OP_SUB, PTX_OP_MUL, PTX_OP_SHL, PTX_OP_AND, PTX_OP_OR,
                                     PTX_OP_XOR};
  static const char *const names[8] = {"sub", "mul.lo", "shl", "and", "or", "xor",
                                       "cvt.s64.s32", "cvt.u64.u32"};
  for (unsigned l = 0; l < 256; l++)
    for (unsigned j = 0; j < 8; j++) {
      uint64_t want = j < 6 ? sim_alu_ibin(ops[j], j == 2 ? PTX_T_B64 : PTX_T_S64,
                                           j == 1 ? PTX_F_LO : 0, a[l],
                                           j == 2 ? (uint32_t)b[l] : b[l])
                      : j == 6 ? (uint64_t)(int64_t)(int32_t)(uint32_t)a[l] : (uint32_t)a[l];
      ck_assert_msg(out[l][j] == want, "lane %u, %s of 0x%" PRIx64 " and 0x%" PRIx64 ": 0x%"
                    PRIx64 ", sim_alu 0x%" PRIx64, l, names[j], a[l], b[l], out[l][j], want);
    }
  done(&f);
}
END_TEST

/* The 64-bit setps (every integer compare, u64 and s64), selp (its predicate plain and
   negated), mad.lo.s32, mad.wide.s32 and .u32, mul.lo.u64, and, or, xor and not of predicates
   and cvta to and from the shared window, run as the fast plan's vector kinds, give what
   sim_alu gives lane by lane: every pair of 16 values. Kernel "nk" runs them on full warps
   (sim_exec_run); "nkp" skips them in the lanes with tid % 3 == 0, so that sim_exec runs them
   for partial warps, whose skipped lanes must keep their registers' earlier values. */
START_TEST(test_fast_path_new_kinds)
{
  static const char *const cmps[10] = {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"};
  static const uint64_t v[] = {
    0, 1, 63, 64, 65, 0xffffffffull, 0x80000000ull, 0x7fffffffull, 0x100000000ull | 5,
    0xffffffff00000003ull, 0x8000000000000000ull, 0x7fffffffffffffffull, 0xffffffffffffffffull,
    0x9E3779B97F4A7C15ull, 32, 0x123456789abcdef0ull};
  _Static_assert(sizeof v / sizeof v[0] == 16, "16 values, 256 pairs");
  const uint64_t sent = 0x5A5A5A5A5A5A5A5Aull;
  for (int partial = 0; partial < 2; partial++) {
    char k[8192], *q = k;
    size_t left = sizeof k;
#define EMIT(...)                                                    \
    do {                                                             \
      int w_ = snprintf(q, left, __VA_ARGS__);                       \
      ck_assert(w_ > 0 && (size_t)w_ < left);                        \
      q += w_;                                                       \
      left -= (size_t)w_;                                            \
    } while (0)
    EMIT(HDR ".visible .entry %s(.param .u64 a, .param .u64 b, .param .u64 out)\n{\n"
         "  .reg .pred %%p<32>;\n  .reg .b32 %%r<64>;\n  .reg .b64 %%rd<32>;\n"
         "  mov.u32 %%r1, %%tid.x;\n  ld.param.u64 %%rd1, [a];\n  ld.param.u64 %%rd2, [b];\n"
         "  ld.param.u64 %%rd3, [out];\n  mul.wide.u32 %%rd4, %%r1, 8;\n"
         "  add.s64 %%rd5, %%rd1, %%rd4;\n  add.s64 %%rd6, %%rd2, %%rd4;\n"
         "  ld.global.u64 %%rd7, [%%rd5];\n  ld.global.u64 %%rd8, [%%rd6];\n"
         "  cvt.u32.u64 %%r2, %%rd7;\n  cvt.u32.u64 %%r3, %%rd8;\n"
         "  mov.b32 %%r10, 0x5A5A5A5A;\n  mov.b32 %%r13, 0x5A5A5A5A;\n",
         partial ? "nkp" : "nk");
    for (int j = 11; j <= 18; j++)
      EMIT("  mov.b64 %%rd%d, 0x5A5A5A5A5A5A5A5A;\n", j);
    EMIT("  rem.u32 %%r4, %%r1, 3;\n  setp.eq.u32 %%p31, %%r4, %d;\n  @%%p31 bra DONE;\n"
         "  mov.b32 %%r10, 0;\n", partial ? 0 : 7);
    for (int i = 0; i < 20; i++)
      EMIT("  setp.%s.%s %%p%d, %%rd7, %%rd8;\n  selp.b32 %%r%d, %d, 0, %%p%d;\n"
           "  or.b32 %%r10, %%r10, %%r%d;\n", cmps[i % 10], i < 10 ? "u64" : "s64", i, 20 + i,
           1 << i, i, 20 + i);
    EMIT("  and.pred %%p20, %%p2, %%p0;\n  or.pred %%p21, %%p2, %%p0;\n"
         "  xor.pred %%p22, %%p2, %%p12;\n  not.pred %%p23, %%p2;\n");
    for (int i = 20; i < 24; i++)
      EMIT("  selp.b32 %%r%d, %d, 0, %%p%d;\n  or.b32 %%r10, %%r10, %%r%d;\n", 20 + i, 1 << i,
           i, 20 + i);
    EMIT("  selp.b64 %%rd11, %%rd7, %%rd8, %%p2;\n  selp.b64 %%rd12, %%rd7, %%rd8, !%%p12;\n"
         "  xor.b32 %%r5, %%r2, %%r3;\n  mad.lo.s32 %%r13, %%r2, %%r3, %%r5;\n"
         "  mad.wide.s32 %%rd13, %%r2, %%r3, %%rd8;\n  mad.wide.u32 %%rd14, %%r2, %%r3, %%rd7;\n"
         "  mul.lo.u64 %%rd15, %%rd7, %%rd8;\n  cvta.shared.u64 %%rd16, %%rd7;\n"
         "  cvta.to.shared.u64 %%rd17, %%rd7;\n"
         "DONE:\n"
         "  cvt.u64.u32 %%rd10, %%r10;\n  cvt.u64.u32 %%rd9, %%r13;\n"
         "  mul.wide.u32 %%rd19, %%r1, 72;\n  add.s64 %%rd20, %%rd3, %%rd19;\n");
    static const int slot[9] = {10, 11, 12, 9, 13, 14, 15, 16, 17};
    for (int j = 0; j < 9; j++)
      EMIT("  st.global.u64 [%%rd20+%d], %%rd%d;\n", 8 * j, slot[j]);
    EMIT("  ret;\n}\n");
#undef EMIT
    uint64_t a[256], b[256], out[256][9];
    struct fx f;
    run_pairs(&f, k, partial ? "nkp" : "nk", v, sizeof v[0], a, b, out, sizeof out);
    for (unsigned l = 0; l < 256; l++) {
      uint64_t want[9];
      if (partial && l % 3 == 0) {               /* skipped: the values from before */
        for (int j = 0; j < 9; j++)
          want[j] = j == 0 || j == 3 ? (uint32_t)sent : sent;
      } else {
        uint64_t bits = 0;
        for (unsigned i = 0; i < 20; i++)
          bits |= (uint64_t)sim_alu_icmp((enum ptx_cmp)(PTX_CMP_EQ + i % 10),
                                         i < 10 ? PTX_T_U64 : PTX_T_S64, a[l], b[l]) << i;
        uint64_t lt = bits >> 2 & 1, eq = bits & 1, slt = bits >> 12 & 1;
        bits |= sim_alu_ibin(PTX_OP_AND, PTX_T_PRED, 0, lt, eq) << 20 |
                sim_alu_ibin(PTX_OP_OR, PTX_T_PRED, 0, lt, eq) << 21 |
                sim_alu_ibin(PTX_OP_XOR, PTX_T_PRED, 0, lt, slt) << 22 | (uint64_t)!lt << 23;
        uint32_t a32 = (uint32_t)a[l], b32 = (uint32_t)b[l];
        want[0] = bits;
        want[1] = lt ? a[l] : b[l];
        want[2] = !slt ? a[l] : b[l];
        want[3] = sim_alu_imad(PTX_OP_MAD, PTX_T_S32, PTX_F_LO, a32, b32, a32 ^ b32);
        want[4] = sim_alu_imad(PTX_OP_MAD, PTX_T_S32, PTX_F_WIDE, a32, b32, b[l]);
        want[5] = sim_alu_imad(PTX_OP_MAD, PTX_T_U32, PTX_F_WIDE, a32, b32, a[l]);
        want[6] = sim_alu_ibin(PTX_OP_MUL, PTX_T_U64, PTX_F_LO, a[l], b[l]);
        want[7] = a[l] + SIM_SHARED_WIN;
        want[8] = a[l] - SIM_SHARED_WIN;
      }
      for (int j = 0; j < 9; j++)
        ck_assert_msg(out[l][j] == want[j], "%s lane %u, result %d of 0x%" PRIx64 " and 0x%"
                      PRIx64 ": 0x%" PRIx64 ", sim_alu 0x%" PRIx64, partial ? "nkp" : "nk", l, j,
                      a[l], b[l], out[l][j], want[j]);
    }
    done(&f);
  }
}
END_TEST

/* The arithmetic shifts, 64-bit shifts, mul.hi of 32-bit integers (a division by a
   constant), div and rem of 32-bit integers (by 0, INT_MIN by -1), the cvts between 32- and
   64-bit integers, and sim_vfp.c's float operations (add.rz.f32 first, then floorf's
   cvt.rmi.f32.f32, and the round-to-nearest ones after them: div.rn.f32, sqrt.rn.f32,
   fma.rn.f64, cvt.rn.f32.f64, cvt.f64.f32), --use_fast_math's add, sub, mul, min, max
   and fma of f32 with .ftz, neg.f32 and float(i) give what sim_alu gives lane by lane: every
   pair of 16 values (shift counts of 0 to 64 and 2^32 - 1, the ends of the ranges, float
   NaNs, infinities and subnormals). Kernel "mk" runs them in sim_exec_run's fast plan on
   full warps; "mkp" skips them in the lanes with tid % 3 == 0, so that partial warps run
   them, whose skipped lanes must keep their registers' earlier values; "mkg" guards each
   with a predicate that holds, so that sim_exec runs them. */
START_TEST(test_fast_path_more_kinds)
{
  static const uint64_t v[] = {
    0, 1, 31, 32, 33, 63, 64, 0xffffffffull, 0x80000000ull, 0x3f800000ull, 0x4000000000800000ull,
    0xbff0000040400000ull, 0x7ff8000000000000ull, 0xfff0000000000000ull, 0x80000000bf000000ull,
    0x9E3779B97F4A7C15ull};
  /* (0x00800000 and 0xbf000000, the least normal f32 and -0.5: a subnormal product and fma) */
  _Static_assert(sizeof v / sizeof v[0] == 16, "16 values, 256 pairs");
  static const char *const ops[30] = {
    "add.rz.f32 %f4, %f10, %f11", "cvt.rmi.f32.f32 %f5, %f10", "shr.s32 %r40, %r2, %r3", "shr.u64 %rd21, %rd7, %r3", "shr.s64 %rd22, %rd7, %r3",
    "shr.b64 %rd23, %rd7, %r3", "mul.hi.s32 %r41, %r2, %r3", "mul.hi.u32 %r42, %r2, %r3",
    "cvt.s32.s64 %r43, %rd7", "cvt.u32.s64 %r44, %rd7", "cvt.u64.s32 %rd24, %r2",
    "cvt.s64.u32 %rd25, %r2", "cvt.s32.u32 %r45, %r2", "div.rn.f32 %f1, %f10, %f11",
    "sqrt.rn.f32 %f2, %f10", "fma.rn.f64 %fd1, %fd10, %fd11, %fd10", "cvt.rn.f32.f64 %f3, %fd10",
    "cvt.f64.f32 %fd2, %f10", "div.s32 %r46, %r2, %r3", "div.u32 %r47, %r2, %r3",
    "rem.s32 %r48, %r2, %r3", "rem.u32 %r49, %r2, %r3", "add.ftz.f32 %f6, %f10, %f11",
    "sub.ftz.f32 %f7, %f10, %f11", "mul.ftz.f32 %f8, %f10, %f11", "min.ftz.f32 %f9, %f10, %f11",
    "max.ftz.f32 %f12, %f10, %f11", "fma.rn.ftz.f32 %f13, %f10, %f11, %f10",
    "neg.f32 %f14, %f10", "cvt.rn.f32.s32 %f15, %r2"};
  /* where each result goes: a 32-bit register (widened with cvt.u64.u32 to be stored) or a
     64-bit one */
  static const char *const res[30] = {
    "%f4", "%f5", "%r40", "%rd21", "%rd22", "%rd23", "%r41", "%r42", "%r43", "%r44", "%rd24", "%rd25", "%r45",
    "%f1", "%f2", "%fd1", "%f3", "%fd2", "%r46", "%r47", "%r48", "%r49",
    "%f6", "%f7", "%f8", "%f9", "%f12", "%f13", "%f14", "%f15"};
  const uint64_t sent = 0x5A5A5A5A5A5A5A5Aull;
  static const char *const name[3] = {"mk", "mkp", "mkg"};
  for (int var = 0; var < 3; var++) {
    char k[8192], *q = k;
    size_t left = sizeof k;
#define EMIT(...)                                                    \
    do {                                                             \
      int w_ = snprintf(q, left, __VA_ARGS__);                       \
      ck_assert(w_ > 0 && (size_t)w_ < left);                        \
      q += w_;                                                       \
      left -= (size_t)w_;                                            \
    } while (0)
    EMIT(HDR ".visible .entry %s(.param .u64 a, .param .u64 b, .param .u64 out)\n{\n"
         "  .reg .pred %%p<32>;\n  .reg .b32 %%r<64>;\n  .reg .b64 %%rd<48>;\n"
         "  .reg .f32 %%f<16>;\n  .reg .f64 %%fd<16>;\n"
         "  mov.u32 %%r1, %%tid.x;\n  ld.param.u64 %%rd1, [a];\n  ld.param.u64 %%rd2, [b];\n"
         "  ld.param.u64 %%rd3, [out];\n  mul.wide.u32 %%rd4, %%r1, 8;\n"
         "  add.s64 %%rd5, %%rd1, %%rd4;\n  add.s64 %%rd6, %%rd2, %%rd4;\n"
         "  ld.global.u64 %%rd7, [%%rd5];\n  ld.global.u64 %%rd8, [%%rd6];\n"
         "  cvt.u32.u64 %%r2, %%rd7;\n  cvt.u32.u64 %%r3, %%rd8;\n"
         "  mov.b32 %%f10, %%r2;\n  mov.b32 %%f11, %%r3;\n"
         "  mov.b64 %%fd10, %%rd7;\n  mov.b64 %%fd11, %%rd8;\n"
         "  setp.ne.u32 %%p30, %%r1, 9999;\n", name[var]);
    for (int j = 0; j < 30; j++)                   /* the values from before */
      EMIT("  mov.b%d %s, 0x%s;\n", res[j][1] == 'r' && res[j][2] == 'd' ? 64
           : res[j][1] == 'f' && res[j][2] == 'd' ? 64 : 32, res[j],
           (res[j][2] == 'd') ? "5A5A5A5A5A5A5A5A" : "5A5A5A5A");
    EMIT("  rem.u32 %%r4, %%r1, 3;\n  setp.eq.u32 %%p31, %%r4, %d;\n  @%%p31 bra DONE;\n",
         var == 1 ? 0 : 7);
    for (int j = 0; j < 30; j++)
      EMIT("  %s%s;\n", var == 2 ? "@%p30 " : "", ops[j]);
    EMIT("DONE:\n  mul.wide.u32 %%rd40, %%r1, 240;\n  add.s64 %%rd41, %%rd3, %%rd40;\n");
    for (int j = 0; j < 30; j++) {
      if (res[j][2] == 'd') {
        EMIT("  mov.b64 %%rd42, %s;\n  st.global.u64 [%%rd41+%d], %%rd42;\n", res[j], 8 * j);
      } else {
        EMIT("  mov.b32 %%r50, %s;\n  cvt.u64.u32 %%rd42, %%r50;\n"
             "  st.global.u64 [%%rd41+%d], %%rd42;\n", res[j], 8 * j);
      }
    }
    EMIT("  ret;\n}\n");
#undef EMIT
    uint64_t a[256], b[256], out[256][30];
    struct fx f;
    run_pairs(&f, k, name[var], v, sizeof v[0], a, b, out, sizeof out);
    for (unsigned l = 0; l < 256; l++) {
      uint64_t want[30];
      const uint32_t a32 = (uint32_t)a[l], b32 = (uint32_t)b[l];
      if (var == 1 && l % 3 == 0) {               /* skipped: the values from before */
        for (int j = 0; j < 30; j++)
          want[j] = res[j][2] == 'd' ? sent : (uint32_t)sent;
      } else {
        want[0] = (uint32_t)sim_alu_fbin(PTX_OP_ADD, PTX_T_F32, PTX_RND_RZ, 0, a32, b32);
        want[1] = (uint32_t)sim_alu_cvt(PTX_T_F32, PTX_T_F32, PTX_RND_RMI, 0, a32);
        want[2] = (uint32_t)sim_alu_ibin(PTX_OP_SHR, PTX_T_S32, 0, a32, b32);
        want[3] = sim_alu_ibin(PTX_OP_SHR, PTX_T_U64, 0, a[l], b32);
        want[4] = sim_alu_ibin(PTX_OP_SHR, PTX_T_S64, 0, a[l], b32);
        want[5] = sim_alu_ibin(PTX_OP_SHR, PTX_T_B64, 0, a[l], b32);
        want[6] = (uint32_t)sim_alu_ibin(PTX_OP_MUL, PTX_T_S32, PTX_F_HI, a32, b32);
        want[7] = (uint32_t)sim_alu_ibin(PTX_OP_MUL, PTX_T_U32, PTX_F_HI, a32, b32);
        want[8] = (uint32_t)sim_alu_cvt(PTX_T_S32, PTX_T_S64, PTX_RND_NONE, 0, a[l]);
        want[9] = (uint32_t)sim_alu_cvt(PTX_T_U32, PTX_T_S64, PTX_RND_NONE, 0, a[l]);
        want[10] = sim_alu_cvt(PTX_T_U64, PTX_T_S32, PTX_RND_NONE, 0, a32);
        want[11] = sim_alu_cvt(PTX_T_S64, PTX_T_U32, PTX_RND_NONE, 0, a32);
        want[12] = (uint32_t)sim_alu_cvt(PTX_T_S32, PTX_T_U32, PTX_RND_NONE, 0, a32);
        want[13] = (uint32_t)sim_alu_fbin(PTX_OP_DIV, PTX_T_F32, PTX_RND_RN, 0, a32, b32);
        want[14] = (uint32_t)sim_alu_fun(PTX_OP_SQRT, PTX_T_F32, PTX_RND_RN, 0, a32);
        want[15] = sim_alu_ffma(PTX_T_F64, PTX_RND_RN, 0, a[l], b[l], a[l]);
        want[16] = (uint32_t)sim_alu_cvt(PTX_T_F32, PTX_T_F64, PTX_RND_RN, 0, a[l]);
        want[17] = sim_alu_cvt(PTX_T_F64, PTX_T_F32, PTX_RND_NONE, 0, a32);
        want[18] = sim_alu_ibin(PTX_OP_DIV, PTX_T_S32, 0, a32, b32);
        want[19] = sim_alu_ibin(PTX_OP_DIV, PTX_T_U32, 0, a32, b32);
        want[20] = sim_alu_ibin(PTX_OP_REM, PTX_T_S32, 0, a32, b32);
        want[21] = sim_alu_ibin(PTX_OP_REM, PTX_T_U32, 0, a32, b32);
        want[22] = (uint32_t)sim_alu_fbin(PTX_OP_ADD, PTX_T_F32, PTX_RND_NONE, PTX_F_FTZ, a32, b32);
        want[23] = (uint32_t)sim_alu_fbin(PTX_OP_SUB, PTX_T_F32, PTX_RND_NONE, PTX_F_FTZ, a32, b32);
        want[24] = (uint32_t)sim_alu_fbin(PTX_OP_MUL, PTX_T_F32, PTX_RND_NONE, PTX_F_FTZ, a32, b32);
        want[25] = (uint32_t)sim_alu_fbin(PTX_OP_MIN, PTX_T_F32, PTX_RND_NONE, PTX_F_FTZ, a32, b32);
        want[26] = (uint32_t)sim_alu_fbin(PTX_OP_MAX, PTX_T_F32, PTX_RND_NONE, PTX_F_FTZ, a32, b32);
        want[27] = (uint32_t)sim_alu_ffma(PTX_T_F32, PTX_RND_RN, PTX_F_FTZ, a32, b32, a32);
        want[28] = (uint32_t)sim_alu_fun(PTX_OP_NEG, PTX_T_F32, PTX_RND_NONE, 0, a32);
        want[29] = (uint32_t)sim_alu_cvt(PTX_T_F32, PTX_T_S32, PTX_RND_RN, 0, a32);
      }
      for (int j = 0; j < 30; j++)
        ck_assert_msg(out[l][j] == want[j], "%s lane %u, %s of 0x%" PRIx64 " and 0x%" PRIx64
                      ": 0x%" PRIx64 ", sim_alu 0x%" PRIx64, name[var], l, ops[j], a[l], b[l],
                      out[l][j], want[j]);
    }
    done(&f);
  }
}
END_TEST

/* div and rem of s32 and u32 on full warps (the fast plan's quotient through double) against
   sim_alu_ibin on 16384 random pairs: random bits, small divisors, dividends near 2^32 and
   2^31 over divisors near a power of two or one off a factor, quotients just under an
   integer (x = q y - 1), both signs. */
START_TEST(test_fast_path_idiv_random)
{
  static const char *k =
    HDR
    ".visible .entry dv(.param .u64 a, .param .u64 b, .param .u64 out)\n{\n"
    "  .reg .b32 %r<12>;\n  .reg .b64 %rd<12>;\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n  mad.lo.u32 %r3, %r2, 256, %r1;\n"
    "  ld.param.u64 %rd1, [a];\n  ld.param.u64 %rd2, [b];\n  ld.param.u64 %rd3, [out];\n"
    "  mul.wide.u32 %rd4, %r3, 4;\n  add.s64 %rd5, %rd1, %rd4;\n  add.s64 %rd6, %rd2, %rd4;\n"
    "  ld.global.u32 %r4, [%rd5];\n  ld.global.u32 %r5, [%rd6];\n"
    "  div.s32 %r6, %r4, %r5;\n  div.u32 %r7, %r4, %r5;\n"
    "  rem.s32 %r8, %r4, %r5;\n  rem.u32 %r9, %r4, %r5;\n"
    "  mul.wide.u32 %rd7, %r3, 16;\n  add.s64 %rd8, %rd3, %rd7;\n"
    "  st.global.v4.u32 [%rd8], {%r6, %r7, %r8, %r9};\n"
    "  ret;\n}\n";
  enum { N = 16384 };
  static uint32_t a[N], b[N], out[N][4];
  uint64_t rng = 0xDA942042E4DD58B5ull;
  for (unsigned i = 0; i < N; i++) {
    uint64_t r = sim_order_next(&rng), r2 = sim_order_next(&rng);
    uint32_t y;
    switch (r % 6) {
    case 0: a[i] = (uint32_t)r2; b[i] = (uint32_t)(r2 >> 32); break;
    case 1: a[i] = (uint32_t)r2; b[i] = (uint32_t)(r >> 8) % 17; break;
    case 2:                                        /* near 2^32 or 2^31, by near 2^k */
      a[i] = ((r >> 8) & 1 ? 0xffffffffu : 0x80000000u) - (uint32_t)(r2 % 5);
      b[i] = (1u << (r2 >> 8) % 32) + (uint32_t)((r >> 16) % 3) - 1;
      break;
    case 3:                                        /* a quotient just under an integer */
      y = (uint32_t)(r2 % 100000) + 1;
      a[i] = (uint32_t)(((r >> 8) % (0xffffffffull / y)) * y) - 1;
      b[i] = y;
      break;
    case 4:                                        /* signed, both signs */
      a[i] = (uint32_t)(int32_t)((int64_t)(r2 % 4000000001ull) - 2000000000);
      b[i] = (uint32_t)(int32_t)((int64_t)((r >> 8) % 20001) - 10000);
      break;
    default: a[i] = (uint32_t)r2 | 0x80000000u; b[i] = (uint32_t)(r >> 40) | 1; break;
    }
  }
  struct fx f;
  load(&f, k);
  uint64_t p[3] = {buffer(&f, sizeof a, "a"), buffer(&f, sizeof b, "b"),
                   buffer(&f, sizeof out, "out")};
  ck_assert_int_eq(sim_write(f.d, p[0], a, sizeof a), SIM_OK);
  ck_assert_int_eq(sim_write(f.d, p[1], b, sizeof b), SIM_OK);
  ck_assert_int_eq(launch(&f, "dv", N / 256, 256, p, 3, SIM_SCHED_ITS, 1, 0), SIM_OK);
  ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
  ck_assert_int_eq(sim_read(f.d, p[2], out, sizeof out), SIM_OK);
  static const enum ptx_op op[4] = {PTX_OP_DIV, PTX_OP_DIV, PTX_OP_REM, PTX_OP_REM};
  for (unsigned i = 0; i < N; i++)
    for (unsigned j = 0; j < 4; j++) {
      uint32_t want = (uint32_t)sim_alu_ibin(op[j], j & 1 ? PTX_T_U32 : PTX_T_S32, 0, a[i], b[i]);
      ck_assert_msg(out[i][j] == want, "%s.%s of 0x%08x and 0x%08x: 0x%08x, sim_alu 0x%08x",
                    j < 2 ? "div" : "rem", j & 1 ? "u32" : "s32", a[i], b[i], out[i][j], want);
    }
  done(&f);
}
END_TEST

/* setp.f32 in sim_exec_run's fast plan (eight lanes a compare) gives what sim_alu_fcmp gives
   lane by lane, for all fourteen compares, ordered and unordered, with .ftz and without:
   every pair of 16 values,
   NaNs, zeros of both signs, infinities, subnormals; each compare's predicate read by selp
   and, for lt and geu, by the bra it guards (the plan's setp that also returns the lanes
   for that bra). */
START_TEST(test_fast_path_setp_f32)
{
  static const char *const cmps[14] = {"eq", "ne", "lt", "le", "gt", "ge", "equ", "neu",
                                       "ltu", "leu", "gtu", "geu", "num", "nan"};
  static const enum ptx_cmp cv[14] = {PTX_CMP_EQ, PTX_CMP_NE, PTX_CMP_LT, PTX_CMP_LE,
                                      PTX_CMP_GT, PTX_CMP_GE, PTX_CMP_EQU, PTX_CMP_NEU,
                                      PTX_CMP_LTU, PTX_CMP_LEU, PTX_CMP_GTU, PTX_CMP_GEU,
                                      PTX_CMP_NUM, PTX_CMP_NAN};
  static const uint32_t v[] = {
    0x7fc00000u, 0xffc12345u, 0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u,
    0x00000001u, 0x80000001u, 0x3f800000u, 0xbf800000u, 0x3f800001u, 0x7f7fffffu,
    0x00800000u, 0x007fffffu, 0xff7fffffu, 0x7fa00000u};
  _Static_assert(sizeof v / sizeof v[0] == 16, "16 values, 256 pairs");
  char k[8192], *q = k;
  size_t left = sizeof k;
#define EMIT(...)                                                    \
  do {                                                               \
    int w_ = snprintf(q, left, __VA_ARGS__);                         \
    ck_assert(w_ > 0 && (size_t)w_ < left);                          \
    q += w_;                                                         \
    left -= (size_t)w_;                                              \
  } while (0)
  EMIT(HDR ".visible .entry sf(.param .u64 a, .param .u64 b, .param .u64 out)\n{\n"
       "  .reg .pred %%p<16>;\n  .reg .b32 %%r<40>;\n  .reg .f32 %%f<4>;\n  .reg .b64 %%rd<12>;\n"
       "  mov.u32 %%r1, %%tid.x;\n  ld.param.u64 %%rd1, [a];\n  ld.param.u64 %%rd2, [b];\n"
       "  ld.param.u64 %%rd3, [out];\n  mul.wide.u32 %%rd4, %%r1, 4;\n"
       "  add.s64 %%rd5, %%rd1, %%rd4;\n  add.s64 %%rd6, %%rd2, %%rd4;\n"
       "  ld.global.f32 %%f1, [%%rd5];\n  ld.global.f32 %%f2, [%%rd6];\n  mov.u32 %%r10, 0;\n");
  for (int i = 0; i < 14; i++)
    EMIT("  setp.%s.f32 %%p%d, %%f1, %%f2;\n  selp.b32 %%r%d, %d, 0, %%p%d;\n"
         "  or.b32 %%r10, %%r10, %%r%d;\n", cmps[i], i, 20 + i, 1 << i, i, 20 + i);
  /* the guarded branches: bit 14 where lt holds, bit 15 where geu does */
  /* bits 16 to 29: the same with .ftz */
  for (int i = 0; i < 14; i++)
    EMIT("  setp.%s.ftz.f32 %%p%d, %%f1, %%f2;\n  selp.b32 %%r%d, %d, 0, %%p%d;\n"
         "  or.b32 %%r10, %%r10, %%r%d;\n", cmps[i], i, 20 + i, 1 << (16 + i), i, 20 + i);
  EMIT("  setp.lt.f32 %%p14, %%f1, %%f2;\n  @%%p14 bra L1;\n  bra.uni L2;\n"
       "L1:\n  or.b32 %%r10, %%r10, 16384;\n"
       "L2:\n  setp.geu.f32 %%p15, %%f1, %%f2;\n  @!%%p15 bra L3;\n  or.b32 %%r10, %%r10, 32768;\n"
       "L3:\n  mul.wide.u32 %%rd7, %%r1, 4;\n  add.s64 %%rd8, %%rd3, %%rd7;\n"
       "  st.global.u32 [%%rd8], %%r10;\n  ret;\n}\n");
#undef EMIT
  uint32_t a[256], b[256], out[256];
  struct fx f;
  run_pairs(&f, k, "sf", v, sizeof v[0], a, b, out, sizeof out);
  for (unsigned l = 0; l < 256; l++) {
    uint32_t want = 0;
    for (int i = 0; i < 14; i++)
      want |= sim_alu_fcmp(cv[i], PTX_T_F32, 0, a[l], b[l]) << i;
    want |= sim_alu_fcmp(PTX_CMP_LT, PTX_T_F32, 0, a[l], b[l]) << 14;
    want |= sim_alu_fcmp(PTX_CMP_GEU, PTX_T_F32, 0, a[l], b[l]) << 15;
    for (int i = 0; i < 14; i++)
      want |= sim_alu_fcmp(cv[i], PTX_T_F32, PTX_F_FTZ, a[l], b[l]) << (16 + i);
    ck_assert_msg(out[l] == want, "lane %u, 0x%08x against 0x%08x: 0x%08x, sim_alu 0x%08x", l,
                  a[l], b[l], out[l], want);
  }
  done(&f);
}
END_TEST

/* Special registers (tid, ntid, ctaid, nctaid in x and y, %laneid, %warpid, WARP_SZ) and
   kernel parameters loaded at 1, 2 and 4 bytes, sign- or zero-extended, as the fast plan's
   vector kinds give them, in blocks of 40 x 2 threads (two full warps and one of 16 lanes) of
   a 2 x 3 grid: each thread's values against the launch's shape. */
START_TEST(test_fast_path_sregs_params)
{
  const char *k =
    HDR
    ".visible .entry sr(.param .u64 out, .param .b32 pi)\n{\n"
    "  .reg .b32 %r<24>;\n  .reg .b64 %rd<24>;\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %tid.y;\n  mov.u32 %r3, %tid.z;\n"
    "  mov.u32 %r4, %ntid.x;\n  mov.u32 %r5, %ntid.y;\n  mov.u32 %r6, %ctaid.x;\n"
    "  mov.u32 %r7, %ctaid.y;\n  mov.u32 %r8, %nctaid.x;\n  mov.u32 %r9, %nctaid.y;\n"
    "  mov.u32 %r10, %laneid;\n  mov.u32 %r11, %warpid;\n  mov.u32 %r12, WARP_SZ;\n"
    "  ld.param.u64 %rd1, [out];\n  cvta.to.global.u64 %rd2, %rd1;\n"
    "  ld.param.s32 %rd3, [pi];\n  ld.param.s8 %rd4, [pi];\n  ld.param.u16 %rd5, [pi+2];\n"
    "  mad.lo.s32 %r13, %r7, %r8, %r6;\n  mad.lo.s32 %r14, %r2, %r4, %r1;\n"
    "  mul.lo.s32 %r15, %r4, %r5;\n  mad.lo.s32 %r16, %r13, %r15, %r14;\n"
    "  mul.wide.u32 %rd6, %r16, 80;\n  add.s64 %rd7, %rd2, %rd6;\n"
    "  st.global.u32 [%rd7], %r1;\n  st.global.u32 [%rd7+4], %r2;\n"
    "  st.global.u32 [%rd7+8], %r3;\n  st.global.u32 [%rd7+12], %r4;\n"
    "  st.global.u32 [%rd7+16], %r5;\n  st.global.u32 [%rd7+20], %r6;\n"
    "  st.global.u32 [%rd7+24], %r7;\n  st.global.u32 [%rd7+28], %r8;\n"
    "  st.global.u32 [%rd7+32], %r9;\n  st.global.u32 [%rd7+36], %r10;\n"
    "  st.global.u32 [%rd7+40], %r11;\n  st.global.u32 [%rd7+44], %r12;\n"
    "  st.global.u64 [%rd7+48], %rd3;\n  st.global.u64 [%rd7+56], %rd4;\n"
    "  st.global.u64 [%rd7+64], %rd5;\n  st.global.u64 [%rd7+72], %rd2;\n"
    "  ret;\n}\n";
  struct fx f;
  load(&f, k);
  enum { NB = 6, NT = 80 };
  uint64_t out = buffer(&f, NB * NT * 80, "out");
  uint8_t params[12];
  const uint32_t pi = 0xffe1ff85u;                 /* s8 0x85, u16 0xffe1, s32 negative */
  memcpy(params, &out, 8);
  memcpy(params + 8, &pi, 4);
  struct sim_launch c = {.grid = {2, 3, 1}, .block = {40, 2, 1}, .workers = 1};
  ck_assert_int_eq(sim_run(f.d, &f.m, "sr", params, sizeof params, &c, &f.r, f.err,
                           sizeof f.err), SIM_OK);
  ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
  static uint64_t got[NB * NT][10];
  ck_assert_int_eq(sim_read(f.d, out, got, sizeof got), SIM_OK);
  for (unsigned bl = 0; bl < NB; bl++)
    for (unsigned t = 0; t < NT; t++) {
      const uint64_t *g = got[bl * NT + t];
      uint32_t u[12];
      memcpy(u, g, sizeof u);
      const uint32_t want[12] = {t % 40, t / 40, 0, 40, 2, bl % 2, bl / 2, 2, 3, t % 32,
                                 t / 32, 32};
      for (int j = 0; j < 12; j++)
        ck_assert_msg(u[j] == want[j], "block %u thread %u, value %d: %u, want %u", bl, t, j,
                      u[j], want[j]);
      ck_assert_uint_eq(g[6], 0xffffffffffe1ff85ull);
      ck_assert_uint_eq(g[7], 0xffffffffffffff85ull);
      ck_assert_uint_eq(g[8], 0xffe1u);
      ck_assert_uint_eq(g[9], out);
    }
  done(&f);
}
END_TEST

/* A full warp's shared load from a symbol's address, without an address register (every
   lane the same word, sim_exec_run's fast kind): the value a barrier published, and past the
   end of shared memory the fault sim_exec reports for lane 0. */
START_TEST(test_fast_path_shared_symbol)
{
  for (int oob = 0; oob < 2; oob++) {
    char k[1024];
    snprintf(k, sizeof k,
      HDR
      ".visible .entry ss(.param .u64 out)\n{\n"
      "  .shared .align 4 .b8 s[128];\n"
      "  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<6>;\n"
      "  mov.u32 %%r1, %%tid.x;\n  mov.u32 %%r2, s;\n  shl.b32 %%r3, %%r1, 2;\n"
      "  add.s32 %%r4, %%r2, %%r3;\n  mul.lo.s32 %%r5, %%r1, 7;\n"
      "  st.shared.u32 [%%r4], %%r5;\n  bar.sync 0;\n"
      "  .loc 1 5 3\n"
      "  ld.shared.u32 %%r6, [s+%d];\n"
      "  ld.param.u64 %%rd1, [out];\n  mul.wide.u32 %%rd2, %%r1, 4;\n"
      "  add.s64 %%rd3, %%rd1, %%rd2;\n  st.global.u32 [%%rd3], %%r6;\n"
      "  ret;\n}\n"
      ".file 1 \"/lab/ss.cu\"\n", oob ? 4096 : 20);
    struct fx f;
    load(&f, k);
    uint64_t out = buffer(&f, 32 * 4, "out");
    ck_assert_int_eq(launch(&f, "ss", 1, 32, &out, 1, SIM_SCHED_ITS, 1, 0), SIM_OK);
    if (oob) {
      ck_assert_int_eq(f.r.outcome, SIM_FAULT);
      ck_assert_int_eq(f.r.fault.kind, SIM_FK_OUT_OF_BOUNDS);
      ck_assert_int_eq(f.r.fault.space, PTX_SP_SHARED);
      ck_assert_uint_eq(f.r.fault.lane, 0);
      ck_assert_uint_eq(line_of(&f, f.r.fault.inst), 5);
    } else {
      ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
      uint32_t v[32];
      ck_assert_int_eq(sim_read(f.d, out, v, sizeof v), SIM_OK);
      for (unsigned t = 0; t < 32; t++)
        ck_assert_uint_eq(v[t], 5 * 7);            /* s[5] = 5 * 7 */
    }
    done(&f);
  }
}
END_TEST

/* A full warp's shared store and load past the end of shared memory, after arithmetic the
   fast path runs: sim_exec_run leaves the access to sim_exec, which reports its first lane.
   Lane l's address: s + l * 256 KiB, or (64-bit) s + l * 595056260442243604, whose lane 31
   wraps around to s + 108, in bounds like lane 0 (the bounds are not the ends' alone). */
START_TEST(test_fast_path_shared_oob)
{
  static const char *const addr[2] = {
    "mul.lo.u32 %r5, %r1, 65536;\n  add.s32 %r6, %r4, %r5;\n  cvt.u64.u32 %rd6, %r6;",
    "cvt.u64.u32 %rd1, %r1;\n  mul.lo.u64 %rd2, %rd1, 595056260442243604;\n"
    "  cvt.u64.u32 %rd3, %r4;\n  add.s64 %rd6, %rd3, %rd2;",
  };
  for (int run = 0; run < 4; run++) {
    const int load_it = run & 1;
    char k[1024];
    snprintf(k, sizeof k,
      HDR
      ".visible .entry so(.param .u64 out)\n{\n"
      "  .shared .align 4 .b8 s[128];\n"
      "  .reg .b32 %%r<12>;\n  .reg .b64 %%rd<8>;\n"
      "  mov.u32 %%r1, %%tid.x;\n  mov.u32 %%r4, s;\n  %s\n  add.s32 %%r7, %%r1, 1;\n"
      "  .loc 1 5 3\n"
      "  %s\n"
      "  ret;\n}\n"
      ".file 1 \"/lab/so.cu\"\n",
      addr[run >> 1], load_it ? "ld.shared.u32 %r8, [%rd6];" : "st.shared.u32 [%rd6], %r7;");
    struct fx f;
    load(&f, k);
    uint64_t out = buffer(&f, 64, "out");
    ck_assert_int_eq(launch(&f, "so", 1, 32, &out, 1, SIM_SCHED_ITS, 1, 0), SIM_OK);
    ck_assert_int_eq(f.r.outcome, SIM_FAULT);
    ck_assert_int_eq(f.r.fault.kind, SIM_FK_OUT_OF_BOUNDS);
    ck_assert_int_eq(f.r.fault.space, PTX_SP_SHARED);
    ck_assert_int_eq(f.r.fault.access, load_it ? SIM_ACC_READ : SIM_ACC_WRITE);
    ck_assert_uint_eq(f.r.fault.lane, 1);
    ck_assert_uint_eq(line_of(&f, f.r.fault.inst), 5);
    done(&f);
  }
}
END_TEST

/* A shared access by some lanes of a warp (the others branched past it), each lane at an
   offset of its own: out of bounds or misaligned in lanes that do not run it is no fault; in
   one that does, the fault is the lowest such lane's. The partial-warp bounds check (a mask
   over the whole warp's addresses) against what each lane's own address says. */
/* The shared bounds trials of test_fast_path_shared_partial_bounds (sparse 0: any lanes, a
   quarter of the offsets bad) and test_fast_path_shared_sparse_bounds (sparse 1: 1 to 17
   lanes, a third bad, the last word 124 among the good ones), trials runs from seed. */
static void shared_bounds_trials(uint64_t seed, int trials, int sparse)
{
  static const uint32_t bad_off[] = {128, 130, 2, 1000, 0xfffffffcu, 0x7ffffffcu, 125, 127};
  for (int load_it = 0; load_it < 2; load_it++) {
    char k[2048];
    snprintf(k, sizeof k,
      HDR
      ".visible .entry sp(.param .u64 in)\n{\n"
      "  .shared .align 4 .b8 s[128];\n"
      "  .reg .pred %%p<2>;\n  .reg .b32 %%r<12>;\n  .reg .b64 %%rd<8>;\n"
      "  mov.u32 %%r1, %%tid.x;\n  ld.param.u64 %%rd1, [in];\n"
      "  mul.wide.u32 %%rd2, %%r1, 8;\n  add.s64 %%rd3, %%rd1, %%rd2;\n"
      "  ld.global.u32 %%r2, [%%rd3];\n  ld.global.u32 %%r3, [%%rd3+4];\n"
      "  mov.u32 %%r4, s;\n  shl.b32 %%r7, %%r1, 2;\n  add.s32 %%r8, %%r4, %%r7;\n"
      "  st.shared.u32 [%%r8], %%r1;\n  bar.sync 0;\n"
      "  add.s32 %%r5, %%r4, %%r2;\n"
      "  setp.eq.u32 %%p1, %%r3, 0;\n  @%%p1 bra END;\n"
      "  .loc 1 5 3\n"
      "  %s\n"
      "END:\n  ret;\n}\n"
      ".file 1 \"/lab/sp.cu\"\n",
      load_it ? "ld.shared.u32 %r6, [%r5];" : "st.shared.u32 [%r5], %r1;");
    struct fx f;
    load(&f, k);
    uint64_t in = buffer(&f, 32 * 8, "in");
    uint64_t rng = seed + (uint64_t)load_it;
    for (int trial = 0; trial < trials; trial++) {
      uint32_t v[32][2];
      uint32_t act = 0;
      if (sparse) {
        const unsigned want = 1 + (unsigned)trial % 17;
        while ((unsigned)__builtin_popcount(act) < want)
          act |= 1u << (sim_order_next(&rng) >> 59);
      } else {
        uint64_t r = sim_order_next(&rng);
        act = (uint32_t)r;
        if (!act)
          act = 1u << (r >> 59);
      }
      int first_bad = -1;
      for (unsigned l = 0; l < 32; l++) {
        uint64_t q = sim_order_next(&rng);
        int bad = q % (sparse ? 3 : 4) == 0 && !(trial % 3 == 0 && (act >> l & 1));
        v[l][0] = bad                  ? bad_off[(q >> 8) % 8]
                  : sparse && q % 5 == 0 ? 124
                                         : 4 * (uint32_t)((q >> 16) % 32);
        v[l][1] = act >> l & 1;
        if (bad && (act >> l & 1) && first_bad < 0)
          first_bad = (int)l;
      }
      ck_assert_int_eq(sim_write(f.d, in, v, sizeof v), SIM_OK);
      ck_assert_int_eq(launch(&f, "sp", 1, 32, &in, 1, SIM_SCHED_ITS, 1, 0), SIM_OK);
      if (first_bad < 0) {
        ck_assert_msg(f.r.outcome == SIM_RAN_OK, "trial %d, lanes 0x%08x: %s", trial, act,
                      f.r.fault.message);
        continue;
      }
      ck_assert_msg(f.r.outcome == SIM_FAULT, "trial %d, lanes 0x%08x: lane %d's offset %u "
                    "ran", trial, act, first_bad, v[first_bad][0]);
      ck_assert_int_eq(f.r.fault.space, PTX_SP_SHARED);
      ck_assert_uint_eq(f.r.fault.lane, (unsigned)first_bad);
      ck_assert_int_eq(f.r.fault.kind, v[first_bad][0] % 4 ? SIM_FK_MISALIGNED
                                                           : SIM_FK_OUT_OF_BOUNDS);
      ck_assert_uint_eq(line_of(&f, f.r.fault.inst), 5);
    }
    done(&f);
  }
}

START_TEST(test_fast_path_shared_partial_bounds)
{
  shared_bounds_trials(0x243F6A8885A308D3ull, 300, 0);
}
END_TEST

/* What one run of the strided/vector kernel left: its result, counters, statistics, trace
   and the two buffers. */
struct gv_out {
  enum sim_status st;
  struct sim_result r;
  uint64_t p[2];                                   /* src and dst, size bytes each */
  uint32_t size;
  uint8_t src[32 * 32 * 36], dst[32 * 32 * 36];
};

/* Run kernel "gv" of k on one warp of 32 threads, over src (src_size bytes) and dst (dst_size,
   read-only when ro), both filled with a byte pattern, recording the block's trace and first
   touches; lanes: with the lane log of the warp (which keeps it on sim_exec's lane-by-lane
   paths), else on sim_exec_run's where it qualifies. The fixture is ended here. */
static void gv_run(const char *k, uint32_t src_size, uint32_t dst_size, int ro, int lanes,
                   struct gv_out *o)
{
  struct fx f;
  load(&f, k);
  uint64_t p[2];
  ck_assert_int_eq(sim_mem_alloc(f.d, src_size, "src", 0, &p[0]), SIM_OK);
  ck_assert_int_eq(sim_mem_alloc(f.d, dst_size, "dst", ro, &p[1]), SIM_OK);
  for (uint32_t i = 0; i < sizeof o->src; i++) {
    o->src[i] = (uint8_t)(i * 37 + (i >> 8) * 11 + 1);
    o->dst[i] = (uint8_t)(i * 13 + 5);
  }
  ck_assert_int_eq(sim_write(f.d, p[0], o->src, src_size), SIM_OK);
  ck_assert_int_eq(sim_write(f.d, p[1], o->dst, dst_size), SIM_OK);
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {32, 1, 1}, .sched = SIM_SCHED_ITS,
                         .workers = 1, .trace_every = 1, .trace_blocks = 1, .trace_wave = 1,
                         .lanes = lanes};
  o->st = sim_run(f.d, &f.m, "gv", p, sizeof p, &c, &f.r, f.err, sizeof f.err);
  ck_assert_int_eq(sim_read(f.d, p[0], o->src, src_size), SIM_OK);
  ck_assert_int_eq(sim_read(f.d, p[1], o->dst, dst_size), SIM_OK);
  o->r = f.r;                                      /* owned by o now */
  o->p[0] = p[0];
  o->p[1] = p[1];
  o->size = src_size < dst_size ? src_size : dst_size;
  memset(&f.r, 0, sizeof f.r);
  done(&f);
}

/* Fast (a) and lane-by-lane (b) runs of one case did the same, to the byte. */
static void gv_same(const struct gv_out *a, const struct gv_out *b, const char *what)
{
  ck_assert_msg(a->st == b->st, "%s: status", what);
  ck_assert_msg(a->r.outcome == b->r.outcome, "%s: outcome %d, lane by lane %d (%s)", what,
                a->r.outcome, b->r.outcome, a->r.fault.message);
  if (a->r.outcome != SIM_RAN_OK) {
    const struct sim_fault *x = &a->r.fault, *y = &b->r.fault;
    ck_assert_msg(x->kind == y->kind && x->space == y->space && x->access == y->access &&
                  x->addr == y->addr && x->size == y->size && x->lane == y->lane &&
                  x->inst == y->inst && x->other_inst == y->other_inst &&
                  x->other_thread[0] == y->other_thread[0] &&
                  !strcmp(x->message, y->message), "%s: fault '%s', lane by lane '%s'", what,
                  x->message, y->message);
  }
  ck_assert_msg(!memcmp(&a->r.counters, &b->r.counters, sizeof a->r.counters), "%s: counters",
                what);
  ck_assert_uint_eq(a->r.nstats, b->r.nstats);
  for (uint32_t i = 0; i < a->r.nstats; i++)
    ck_assert_msg(!memcmp(&a->r.stats[i], &b->r.stats[i], sizeof *a->r.stats),
                  "%s: statistics of instruction %u: %llu/%llu sectors", what, i,
                  (unsigned long long)a->r.stats[i].g_sectors,
                  (unsigned long long)b->r.stats[i].g_sectors);
  ck_assert_msg(!memcmp(a->src, b->src, sizeof a->src) && !memcmp(a->dst, b->dst, sizeof a->dst),
                "%s: memory", what);
  ck_assert_uint_eq(a->r.trace.nblk, b->r.trace.nblk);
  for (uint32_t i = 0; i < a->r.trace.nblk; i++) {
    const struct sim_tblock *x = &a->r.trace.blk[i], *y = &b->r.trace.blk[i];
    ck_assert_msg(x->nev == y->nev && x->nsec == y->nsec && x->truncated == y->truncated,
                  "%s: trace", what);
    for (uint32_t j = 0; j < x->nev; j++)
      ck_assert_msg(x->ev[j].inst == y->ev[j].inst && x->ev[j].lanes == y->ev[j].lanes &&
                    x->ev[j].space == y->ev[j].space && x->ev[j].n == y->ev[j].n &&
                    x->ev[j].first == y->ev[j].first && x->ev[j].dups == y->ev[j].dups &&
                    x->ev[j].same == y->ev[j].same, "%s: trace event %u", what, j);
    ck_assert_msg(!x->nsec || !memcmp(x->sec, y->sec, x->nsec * sizeof *x->sec),
                  "%s: trace sectors", what);
  }
  /* first touches by address (the lane log keeps an allocation of its own, which moves the
     indices of the others) */
  ck_assert_msg((a->r.trace.touch != NULL) == (b->r.trace.touch != NULL), "%s: touches", what);
  for (unsigned i = 0; i < 2 && a->r.trace.touch; i++)
    for (uint64_t x = 0; x < a->size; x += 128) {
      uint64_t ia = sim_touch_index(&a->r.trace, (a->p[i] + x) >> 5),
               ib = sim_touch_index(&b->r.trace, (b->p[i] + x) >> 5);
      ck_assert_msg(ia != UINT64_MAX && ib != UINT64_MAX &&
                    a->r.trace.touch[ia] == b->r.trace.touch[ib],
                    "%s: first touch of byte %llu of buffer %u", what, (unsigned long long)x, i);
    }
}

/* The setps sim_exec_run leaves to sim_exec (a 64-bit float compare, a boolean operation
   with a 64-bit compare, one with a second destination) are no branch in the fast plan: each
   runs as a setp (before, a plan byte of their own read as a branch's, and the warp looped).
   out[l] = (l < 16 ? 100 : 200) + (l == 3 ? 1000 : 0) + (l < 8 ? 10000 : l < 16 ? 20000 : 0)
   + 6. */
START_TEST(test_fast_plan_setp_no_branch)
{
  static const char *k =
    HDR
    ".visible .entry sp(.param .u64 out)\n{\n"
    "  .reg .pred %p<6>;\n  .reg .b32 %r<12>;\n  .reg .f64 %fd<4>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n  cvt.rn.f64.u32 %fd1, %r1;\n"
    "  cvt.u64.u32 %rd4, %r1;\n  mov.u32 %r2, 5;\n"
    "  setp.lt.f64 %p1, %fd1, 0d4030000000000000;\n  add.u32 %r2, %r2, 1;\n"
    "  setp.eq.and.u64 %p2, %rd4, 3, %p1;\n  add.u32 %r2, %r2, 0;\n"
    "  setp.lt.and.s64 %p3|%p4, %rd4, 8, %p1;\n  add.u32 %r2, %r2, 0;\n"
    "  selp.u32 %r3, 100, 200, %p1;\n  selp.u32 %r4, 1000, 0, %p2;\n"
    "  selp.u32 %r5, 10000, 0, %p3;\n  selp.u32 %r6, 20000, 0, %p4;\n"
    "  add.u32 %r7, %r3, %r4;\n  add.u32 %r7, %r7, %r5;\n  add.u32 %r7, %r7, %r6;\n"
    "  add.u32 %r7, %r7, %r2;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r7;\n"
    "  ret;\n}\n";
  struct fx f;
  load(&f, k);
  uint64_t p = buffer(&f, 32 * 4, "out");
  ck_assert_int_eq(launch(&f, "sp", 1, 32, &p, 1, SIM_SCHED_ITS, 1, 0), SIM_OK);
  ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
  uint32_t out[32];
  ck_assert_int_eq(sim_read(f.d, p, out, sizeof out), SIM_OK);
  for (uint32_t l = 0; l < 32; l++)
    ck_assert_uint_eq(out[l], (l < 16 ? 100u : 200u) + (l == 3 ? 1000u : 0u) +
                              (l < 8 ? 10000u : l < 16 ? 20000u : 0u) + 6u);
  done(&f);
}
END_TEST

/* Branches inside sim_exec_run's runs: forward ones all lanes take or none does, bra.uni,
   loops closed by a backward branch of the whole warp and of the lanes of a divergent branch,
   and a spin lock whose looping lanes let the one that got the lock past its barrier (ITS's
   escape, from a backward branch inside a run): counters, per-instruction statistics (the
   branches' br_uniform among them), trace and memory as control() leaves them (the lane log
   keeps every branch there). */
START_TEST(test_fast_path_branches)
{
  static const char *const k[2] = {
    HDR
    ".visible .entry gv(.param .u64 src, .param .u64 dst)\n{\n"
    "  .reg .pred %p<8>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [src];\n  ld.param.u64 %rd2, [dst];\n"
    "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd3, %r1, 4;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n  add.s64 %rd5, %rd2, %rd3;\n"
    "  ld.global.u32 %r2, [%rd4];\n  mov.u32 %r3, 0;\n  mov.u32 %r4, 0;\n"
    "OUTER:\n"
    "  and.b32 %r5, %r3, 1;\n  setp.eq.u32 %p1, %r5, 0;\n  @%p1 bra EVEN;\n"
    "  add.s32 %r4, %r4, %r2;\n  bra.uni NEXT;\n"
    "EVEN:\n"
    "  xor.b32 %r4, %r4, %r3;\n"
    "NEXT:\n"
    "  setp.gt.u32 %p2, %r3, 100;\n  @%p2 bra END;\n"
    "  and.b32 %r6, %r2, 3;\n  setp.eq.u32 %p3, %r6, 0;\n  @%p3 bra SKIP;\n"
    "  mov.u32 %r7, 0;\n"
    "INNER:\n"
    "  add.s32 %r4, %r4, %r7;\n  add.s32 %r7, %r7, 1;\n"
    "  setp.lt.u32 %p4, %r7, 3;\n  @!%p4 bra OUT;\n  bra.uni INNER;\n"
    "OUT:\n"
    "  shl.b32 %r4, %r4, 1;\n"
    "SKIP:\n"
    "  add.s32 %r3, %r3, 1;\n  setp.lt.u32 %p5, %r3, 6;\n  @%p5 bra OUTER;\n"
    "END:\n"
    "  st.global.u32 [%rd5], %r4;\n"
    "  ret;\n}\n",
    HDR
    ".visible .entry gv(.param .u64 src, .param .u64 dst)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd2, [dst];\n  mov.u32 %r1, %tid.x;\n"
    "  setp.eq.u32 %p2, %r1, 0;\n  mov.u32 %r5, 0;\n"
    "  @%p2 st.volatile.global.u32 [%rd2], %r5;\n  bar.sync 0;\n"
    "LOOP:\n"
    "  add.s32 %r5, %r5, 1;\n"
    "  ld.volatile.global.u32 %r2, [%rd2];\n  setp.ne.u32 %p1, %r2, %r1;\n  @%p1 bra LOOP;\n"
    "  add.s32 %r3, %r1, 1;\n  st.volatile.global.u32 [%rd2], %r3;\n"
    "  ret;\n}\n",
  };
  static struct gv_out a, b;
  for (int i = 0; i < 2; i++) {
    gv_run(k[i], 32 * 4, 32 * 4, 0, 0, &a);
    gv_run(k[i], 32 * 4, 32 * 4, 0, 1, &b);
    ck_assert_msg(a.r.outcome == SIM_RAN_OK, "kernel %d: %s", i, a.r.fault.message);
    gv_same(&a, &b, i ? "spin lock" : "branches");
    uint64_t uni = 0;
    for (uint32_t j = 0; j < a.r.nstats; j++)
      uni += a.r.stats[j].br_uniform;
    ck_assert_uint_gt(uni, i ? 2000 : 30);      /* (the spin lock's: past SPIN_LIMIT) */
    sim_result_free(&a.r);
    sim_result_free(&b.r);
  }
}
END_TEST

/* A whole warp reading one shared word (return s[0]): the race checker's summary after it,
   as later accesses see it, against the lane-by-lane check (the lane log's run): a write by
   lane 0 or lane 3 after the read, unordered (a race naming another reader), the same after
   __syncwarp (none), a read of a word never written (reported uninitialised), and a read of
   a word one lane wrote in the epoch (a race, the lane loop's). */
START_TEST(test_race_warp_reads_one_word)
{
  static const char *const pre[5] = {
    "  st.shared.u32 [%r4], %r1;\n  bar.sync 0;\n",
    "  st.shared.u32 [%r4], %r1;\n  bar.sync 0;\n",
    "  st.shared.u32 [%r4], %r1;\n  bar.sync 0;\n",
    "",
    "  st.shared.u32 [%r4], %r1;\n  bar.sync 0;\n  @%p2 st.shared.u32 [s], %r6;\n",
  };
  static const char *const post[5] = {
    "  @%p1 st.shared.u32 [s], %r6;\n",
    "  @%p2 st.shared.u32 [s], %r6;\n",
    "  bar.warp.sync -1;\n  @%p1 st.shared.u32 [s], %r6;\n",
    "",
    "",
  };
  static struct gv_out a, b;
  for (int i = 0; i < 5; i++) {
    char k[2048];
    snprintf(k, sizeof k,
      HDR
      ".visible .entry gv(.param .u64 src, .param .u64 dst)\n{\n"
      "  .shared .align 4 .b8 s[128];\n"
      "  .reg .pred %%p<4>;\n  .reg .b32 %%r<12>;\n  .reg .b64 %%rd<8>;\n"
      "  ld.param.u64 %%rd2, [dst];\n  mov.u32 %%r1, %%tid.x;\n"
      "  setp.eq.u32 %%p1, %%r1, 0;\n  setp.eq.u32 %%p2, %%r1, 3;\n"
      "  mov.u32 %%r2, s;\n  shl.b32 %%r3, %%r1, 2;\n  add.s32 %%r4, %%r2, %%r3;\n"
      "  add.s32 %%r6, %%r1, 100;\n"
      "%s"
      "  .loc 1 9 3\n"
      "  ld.shared.u32 %%r5, [s];\n"
      "  .loc 1 10 3\n"
      "%s"
      "  mul.wide.u32 %%rd3, %%r1, 4;\n  add.s64 %%rd4, %%rd2, %%rd3;\n"
      "  st.global.u32 [%%rd4], %%r5;\n"
      "  ret;\n}\n"
      ".file 1 \"/lab/gv.cu\"\n", pre[i], post[i]);
    gv_run(k, 32 * 4, 32 * 4, 0, 0, &a);
    gv_run(k, 32 * 4, 32 * 4, 0, 1, &b);
    static const char *const what[5] = {"write by lane 0", "write by lane 3",
                                        "write after __syncwarp", "uninitialised",
                                        "read after a write"};
    gv_same(&a, &b, what[i]);
    ck_assert_msg((a.r.outcome == SIM_RAN_OK) == (i == 2), "%s: outcome %d (%s)", what[i],
                  a.r.outcome, a.r.fault.message);
    sim_result_free(&a.r);
    sim_result_free(&b.r);
  }
}
END_TEST

/* A whole warp storing words at a constant stride (2, 3, 5 and 7 words, and -3): the race
   checker's record of them and what it reports, as shadow_word would lane by lane, checked
   against the hazards themselves (the lane log's run finds the same stride and takes the
   same record, so it is compared for counters and statistics only): words no one touched
   in the epoch, words another lane read first (a race), words each lane read itself first
   (none), words another lane wrote first (a race), stores that leave a word as it is
   (none), words each lane read itself and then another lane read too (a race: the read
   summary's first reader is the storing thread, its flags say there were more); and each
   once more with lane l reading lane l^1's word after the store, a race
   that names the store's thread and line unless the store changed nothing. */
START_TEST(test_race_warp_strided_stores)
{
  static const int strides[] = {2, 3, 5, 7, -3};
  static const char *const pre[6] = {
    "",
    "  ld.shared.u32 %r9, [%r11];\n",            /* lane l reads lane l^1's word */
    "  ld.shared.u32 %r9, [%r10];\n",            /* its own */
    "  st.shared.u32 [%r11], %r8;\n",            /* lane l writes lane l^1's word */
    "",
    "  ld.shared.u32 %r9, [%r10];\n  ld.shared.u32 %r15, [%r11];\n",  /* its own, then l^1's */
  };
  static struct gv_out a, b;
  for (unsigned si = 0; si < sizeof strides / sizeof *strides; si++)
    for (int i = 0; i < 12; i++) {
      /* i >= 6: case i - 6, then lane l reads lane l^1's word unordered (a race with the
         store's record, unless it left the word as it was) */
      const int post = i >= 6, c = i % 6;
      const int st = strides[si];
      char k[3072];
      snprintf(k, sizeof k,
        HDR
        ".visible .entry gv(.param .u64 src, .param .u64 dst)\n{\n"
        "  .shared .align 4 .b8 s[1024];\n"
        "  .reg .pred %%p<4>;\n  .reg .b32 %%r<16>;\n  .reg .b64 %%rd<8>;\n"
        "  ld.param.u64 %%rd2, [dst];\n  mov.u32 %%r1, %%tid.x;\n  mov.u32 %%r2, s;\n"
        /* every word initialised: lane l writes words 8l to 8l + 7 (value: the word's index) */
        "  shl.b32 %%r3, %%r1, 5;\n  add.s32 %%r3, %%r2, %%r3;\n  shl.b32 %%r4, %%r1, 3;\n"
        "  st.shared.u32 [%%r3], %%r4;\n  add.s32 %%r4, %%r4, 1;\n"
        "  st.shared.u32 [%%r3+4], %%r4;\n  add.s32 %%r4, %%r4, 1;\n"
        "  st.shared.u32 [%%r3+8], %%r4;\n  add.s32 %%r4, %%r4, 1;\n"
        "  st.shared.u32 [%%r3+12], %%r4;\n  add.s32 %%r4, %%r4, 1;\n"
        "  st.shared.u32 [%%r3+16], %%r4;\n  add.s32 %%r4, %%r4, 1;\n"
        "  st.shared.u32 [%%r3+20], %%r4;\n  add.s32 %%r4, %%r4, 1;\n"
        "  st.shared.u32 [%%r3+24], %%r4;\n  add.s32 %%r4, %%r4, 1;\n"
        "  st.shared.u32 [%%r3+28], %%r4;\n"
        "  bar.sync 0;\n"
        /* lane l's word: %r12 = base + l * stride (from word 8, the stride's sign aside) */
        "  mul.lo.s32 %%r5, %%r1, %d;\n  add.s32 %%r12, %%r5, %d;\n"
        "  shl.b32 %%r6, %%r12, 2;\n  add.s32 %%r10, %%r2, %%r6;\n"
        "  xor.b32 %%r7, %%r1, 1;\n  mul.lo.s32 %%r5, %%r7, %d;\n  add.s32 %%r13, %%r5, %d;\n"
        "  shl.b32 %%r6, %%r13, 2;\n  add.s32 %%r11, %%r2, %%r6;\n"
        "  add.s32 %%r8, %%r1, 5000;\n"
        "  .loc 1 19 3\n"
        "%s"
        "  .loc 1 20 3\n"
        "  st.shared.u32 [%%r10], %%r14;\n"
        "%s"
        "  mul.wide.u32 %%rd3, %%r1, 4;\n  add.s64 %%rd4, %%rd2, %%rd3;\n"
        "  st.global.u32 [%%rd4], %%r14;\n"
        "  ret;\n}\n"
        ".file 1 \"/lab/gv.cu\"\n",
        st, st < 0 ? 120 : 8, st, st < 0 ? 120 : 8, pre[c],
        post ? "  .loc 1 21 3\n  ld.shared.u32 %r9, [%r11];\n" : "");
      /* the value stored: the word's own (4: no change), else 1000 + lane */
      char *v = strstr(k, "  .loc 1 20 3\n");
      ck_assert_ptr_nonnull(v);
      char k2[3200];
      snprintf(k2, sizeof k2, "%.*s%s%s", (int)(v - k), k,
               c == 4 ? "  mov.u32 %r14, %r12;\n" : "  add.s32 %r14, %r1, 1000;\n", v);
      gv_run(k2, 32 * 4, 32 * 4, 0, 0, &a);
      gv_run(k2, 32 * 4, 32 * 4, 0, 1, &b);
      char what[64];
      snprintf(what, sizeof what, "stride %d, case %d%s", st, c, post ? ", read after" : "");
      gv_same(&a, &b, what);
      ck_assert_msg((a.r.outcome == SIM_RAN_OK) ==
                        (c == 4 || (!post && c != 1 && c != 3 && c != 5)),
                    "%s: outcome %d (%s)",
                    what, a.r.outcome, a.r.fault.message);
      /* the hazard, and the other access as the record names it (the lane loop's and this
         path's alike: the lane log's run takes the same record for a strided warp) */
      const char *want = c == 1 || c == 5 ? "write-after-read" : c == 3 ? "write-after-write"
                         : "read-after-write";
      const char *other = c == 1 || c == 5 ? "read it at gv.cu:19"
                          : c == 3 ? "wrote it at gv.cu:19"
                          : "after lane 1 of warp 0, thread (1,0,0) wrote it at gv.cu:20";
      if (a.r.outcome != SIM_RAN_OK)
        ck_assert_msg(strstr(a.r.fault.message, want) && strstr(a.r.fault.message, other),
                      "%s: %s", what, a.r.fault.message);
      sim_result_free(&a.r);
      sim_result_free(&b.r);
    }
}
END_TEST

/* Full-warp global loads and stores of 1, 2 and 4 elements of 4 and 8 bytes a lane (ld/st
   .global.v2/.v4), lane l at l * stride vectors for strides 0 to 33, three times in a loop
   (the first finds the instruction's allocation; the later ones take sim_exec_run's warp
   check, gather and scatter), moved on by shift bytes each time: sim_exec_run does what
   sim_exec's lane loops do, counters, sectors, trace, first touches and memory alike, and
   where a later pass is misaligned, leaves its allocation, or stores to a read-only one, or
   a lane reads what another wrote (a race), the same fault for the same lane; stores that
   leave memory as it is, no race. */
START_TEST(test_fast_path_global_strided)
{
  static const unsigned strides[] = {0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 32, 33};
  static struct gv_out a, b;                       /* (large: not on the stack) */
  unsigned ncase = 0;
  for (unsigned esz = 4; esz <= 8; esz += 4)
    for (unsigned n = 1; n <= 4; n *= 2)
      for (unsigned variant = 0; variant < 6; variant++)
        for (unsigned si = 0; si < sizeof strides / sizeof *strides; si++) {
          /* variant 0: in bounds; 1: the second pass misaligned; 2: a buffer the later
             passes of the larger strides leave; 3: dst read-only; 4: each lane then reads
             its neighbour's store (a race); 5: dst is read and written back as it is
             (stores that change nothing: no race, every lane on one address or not) */
          const unsigned stride = strides[si], vb = esz * n;
          const unsigned shift = variant == 1 ? (n > 1 ? esz : esz / 2) : 5 * vb;
          uint32_t size = variant == 2 ? 32 * vb * 8 + 64 : 32 * 32 * 36;
          char el[4][8], ld[160], st[160], add[96], race[96];
          const char *ty = esz == 4 ? "u32" : "u64";
          for (unsigned e = 0; e < 4; e++)
            snprintf(el[e], sizeof el[e], esz == 4 ? "%%r%u" : "%%rd%u", 3 + e);
          if (n == 1) {
            snprintf(ld, sizeof ld, "ld.global.%s %s, [%%rd4];", ty, el[0]);
            snprintf(st, sizeof st, "st.global.%s [%%rd5], %s;", ty, el[0]);
          } else if (n == 2) {
            snprintf(ld, sizeof ld, "ld.global.v2.%s {%s, %s}, [%%rd4];", ty, el[0], el[1]);
            snprintf(st, sizeof st, "st.global.v2.%s [%%rd5], {%s, %s};", ty, el[0], el[1]);
          } else {
            snprintf(ld, sizeof ld, "ld.global.v4.%s {%s, %s, %s, %s}, [%%rd4];", ty, el[0],
                     el[1], el[2], el[3]);
            snprintf(st, sizeof st, "st.global.v4.%s [%%rd5], {%s, %s, %s, %s};", ty, el[0],
                     el[1], el[2], el[3]);
          }
          snprintf(add, sizeof add, variant == 5 ? ""
                   : esz == 4 ? "add.u32 %s, %s, %%r1;" : "add.u64 %s, %s, %%rd2;",
                   el[n - 1], el[n - 1]);
          snprintf(race, sizeof race, variant == 4 ? "ld.global.%s %s, [%%rd5+%u];" : "",
                   ty, el[0], vb);
          char k[2048];
          snprintf(k, sizeof k,
            HDR
            ".visible .entry gv(.param .u64 src, .param .u64 dst)\n{\n"
            "  .reg .pred %%p<2>;\n  .reg .b32 %%r<12>;\n  .reg .b64 %%rd<16>;\n"
            "  ld.param.u64 %%rd1, [%s];\n  ld.param.u64 %%rd6, [dst];\n"
            "  mov.u32 %%r1, %%tid.x;\n  cvt.u64.u32 %%rd2, %%r1;\n"
            "  mul.lo.u32 %%r2, %%r1, %u;\n  mul.wide.u32 %%rd3, %%r2, %u;\n"
            "  add.s64 %%rd4, %%rd1, %%rd3;\n  add.s64 %%rd5, %%rd6, %%rd3;\n"
            "  mov.u32 %%r9, 0;\n"
            "LOOP:\n"
            "  .loc 1 5 3\n  %s\n  %s\n  .loc 1 6 3\n  %s\n  .loc 1 7 3\n  %s\n"
            "  add.s64 %%rd4, %%rd4, %u;\n  add.s64 %%rd5, %%rd5, %u;\n"
            "  add.u32 %%r9, %%r9, 1;\n  setp.lt.u32 %%p1, %%r9, 3;\n  @%%p1 bra LOOP;\n"
            "  ret;\n}\n"
            ".file 1 \"/lab/gv.cu\"\n", variant == 5 ? "dst" : "src", stride, vb, ld, add, st, race, shift, shift);
          char what[96];
          snprintf(what, sizeof what, "%s x%u stride %u variant %u", ty, n, stride, variant);
          gv_run(k, size, size, variant == 3, 0, &a);
          gv_run(k, size, size, variant == 3, 1, &b);
          gv_same(&a, &b, what);
          ncase += a.r.outcome == SIM_RAN_OK;
          sim_result_free(&a.r);
          sim_result_free(&b.r);
        }
  ck_assert_uint_gt(ncase, 100);                   /* most cases ran to the end */
}
END_TEST

/* Bank conflicts of a full warp's shared loads at a constant stride (sim_exec_run passes the
   stride it found to the stats) and at none: the busiest bank's distinct words. */
START_TEST(test_fast_path_shared_wavefronts)
{
  /* word index of lane l: l * stride words (stride 0: a broadcast), or l ^ 1 (no constant
     stride: the lane-by-lane count) */
  static const struct { const char *idx; uint64_t wf; } c[] = {
    {"mul.lo.u32 %r5, %r1, 0;", 1}, {"mul.lo.u32 %r5, %r1, 1;", 1},
    {"mul.lo.u32 %r5, %r1, 2;", 2}, {"mul.lo.u32 %r5, %r1, 8;", 8},
    {"mul.lo.u32 %r5, %r1, 32;", 32}, {"mul.lo.u32 %r5, %r1, 33;", 1},
    {"xor.b32 %r5, %r1, 1;", 1}, {"and.b32 %r5, %r1, 3;\n  mul.lo.u32 %r5, %r5, 32;", 4},
  };
  for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
    char k[1024];
    snprintf(k, sizeof k,
      HDR
      ".visible .entry wf(.param .u64 out)\n{\n"
      "  .shared .align 4 .b8 s[4352];\n"
      "  .reg .b32 %%r<12>;\n"
      "  mov.u32 %%r1, %%tid.x;\n  mov.u32 %%r4, s;\n  %s\n  shl.b32 %%r5, %%r5, 2;\n"
      "  add.s32 %%r6, %%r4, %%r5;\n"
      "  ld.volatile.shared.u32 %%r8, [%%r6];\n"
      "  ret;\n}\n", c[i].idx);
    struct fx f;
    load(&f, k);
    uint64_t out = buffer(&f, 64, "out");
    struct sim_launch lc = {.grid = {1, 1, 1}, .block = {32, 1, 1}, .workers = 1,
                            .nocheck = SIM_NOCHECK_INIT};
    ck_assert_int_eq(sim_run(f.d, &f.m, "wf", &out, 8, &lc, &f.r, f.err, sizeof f.err), SIM_OK);
    ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
    uint64_t wf = 0, req = 0;
    for (uint32_t j = 0; j < f.r.nstats; j++) {
      wf += f.r.stats[j].s_wavefronts;
      req += f.r.stats[j].s_req;
    }
    ck_assert_uint_eq(req, 1);
    ck_assert_msg(wf == c[i].wf, "%s: %llu wavefronts", c[i].idx, (unsigned long long)wf);
    done(&f);
  }
}
END_TEST

/* One access through sim_stats_mem on a 32-lane block of its own (atomic: its argument), with
   sim_stats_shortcuts set to sc, into *st (zeroed first); sc 2: a full warp's shared access through
   sim_stats_shared_full, shortcuts on, its step not known; sc 3: the same, its span known
   (addresses below 4 GiB, as run_shared's); sc 4: its step known where the lanes have one (as
   run_shared_vec's), its span not. Returns the sectors and wavefronts the block counted. */
static uint64_t stats_access(int sc, enum ptx_space sp, const uint64_t *addr, uint64_t m,
                             uint32_t size, int atomic, struct sim_inst_stats *st)
{
  struct sim_block b;
  memset(&b, 0, sizeof b);
  memset(st, 0, sizeof *st);
  b.stats = st;
  b.W = 32;
  sim_stats_shortcuts = sc >= 2 ? 1 : sc;
  uint64_t lo = UINT64_MAX, hi = 0;
  for (unsigned l = 0; l < 32 && sc == 3; l++) {
    lo = addr[l] < lo ? addr[l] : lo;
    hi = addr[l] > hi ? addr[l] : hi;
  }
  int64_t stride = (int64_t)(addr[1] - addr[0]);
  for (unsigned l = 2; l < 32 && sc == 4; l++)
    if (addr[l] - addr[l - 1] != (uint64_t)stride)
      stride = SIM_NO_STRIDE;
  if (sc >= 2)                             /* a full warp's shared access from run_shared */
    sim_stats_shared_full(&b, 0, addr, size, sc == 4 ? stride : SIM_NO_STRIDE,
                          sc == 3 && hi < (1ull << 32) ? hi - lo : UINT64_MAX);
  else
    sim_stats_mem(&b, 0, sp, addr, m, size, atomic);
  sim_stats_shortcuts = 1;
  return b.sectors + b.wavefronts;
}

/* sim_trace_mem's event of a global access, in lane order where the addresses ascend, against
   the sorts of every access (sim_stats_shortcuts 0): lanes of 1 to 16 bytes at steps of 0
   to 40 bytes (overlapping, within a sector, across them), forwards and backwards, misaligned,
   with a lane moved back or onto the lane before, over masks of every shape; the sectors, the
   lanes that share an address and the most on one must be the same. */
START_TEST(test_trace_mem_ordered)
{
  static const uint32_t sizes[] = {1, 2, 4, 8, 16};
  static const int64_t steps[] = {0, 1, 2, 4, 8, 12, 16, 31, 32, 33, 40, -4, -32};
  uint64_t rng = 0xA0761D6478BD642Full;
  unsigned ordered = 0;
  for (size_t zi = 0; zi < sizeof sizes / sizeof *sizes; zi++)
    for (size_t si = 0; si < sizeof steps / sizeof *steps; si++)
      for (unsigned rep = 0; rep < 24; rep++) {
        const uint64_t r = sim_order_next(&rng);
        const uint32_t size = sizes[zi];
        uint64_t addr[32], m = rep % 4 == 0 ? 0xffffffffull : r >> 32 ? r >> 32 : 1;
        const uint64_t a0 = SIM_GLOBAL_BASE + 4096 + (r % 64) * (rep % 3 ? size : 1);
        for (unsigned l = 0; l < 32; l++)
          addr[l] = a0 + (uint64_t)((int64_t)l * steps[si]) + 2048;
        const unsigned hit = 1 + (unsigned)(r >> 8) % 31;
        if (rep % 8 == 5)
          addr[hit] = addr[hit - 1] - size;                          /* a lane back */
        else if (rep % 8 == 6)
          addr[hit] = addr[hit - 1];                                 /* onto the one before */
        struct sim_tev ev[2][1];
        struct sim_tblock tb[2];
        for (int sc = 0; sc < 2; sc++) {
          memset(&tb[sc], 0, sizeof tb[sc]);
          memset(ev[sc], 0, sizeof ev[sc]);
          tb[sc].ev = ev[sc];
          tb[sc].nev = tb[sc].cap_ev = 1;
          struct sim_block b;
          memset(&b, 0, sizeof b);
          b.trace = &tb[sc];
          sim_stats_shortcuts = sc;
          sim_trace_mem(&b, PTX_SP_GLOBAL, addr, m, size, 0);
          sim_stats_shortcuts = 1;
        }
        ck_assert_msg(ev[0][0].n == ev[1][0].n && ev[0][0].first == ev[1][0].first &&
                      ev[0][0].dups == ev[1][0].dups && ev[0][0].same == ev[1][0].same &&
                      !memcmp(tb[0].sec, tb[1].sec, ev[0][0].n * sizeof *tb[0].sec),
                      "size %u, step %lld, rep %u: %u sectors, %u dups, %u same; in order "
                      "%u, %u, %u", size, (long long)steps[si], rep, ev[0][0].n, ev[0][0].dups,
                      ev[0][0].same, ev[1][0].n, ev[1][0].dups, ev[1][0].same);
        ordered += steps[si] > 0 && rep % 8 < 5;
        free(tb[0].sec);
        free(tb[1].sec);
      }
  ck_assert_uint_gt(ordered, 100);
}
END_TEST

/* The sectors, lines and bytes of global accesses in closed form (lanes stepping by their
   size, or one address) and in one pass over lanes whose addresses ascend (sim_stats.c's
   global_cost_ordered, a full warp's lanes in turn or a mask's), against the general count
   over the sorted addresses (sim_stats_shortcuts 0): accesses of 1 to 32 bytes (of sizes
   not a power of two too), aligned and not (across a sector), strides of 0 to 64 elements
   and of half an element more, masks of every shape, and the same addresses with one lane
   moved back (out of order) or onto the lane before, or with lanes 16-31 at lanes 0-15's
   addresses (a 16-wide block's rows), but for one lane or not. */
START_TEST(test_global_stats_ordered)
{
  static const uint64_t strides[] = {0, 1, 2, 3, 4, 5, 7, 8, 16, 31, 32, 33, 64};
  static const uint32_t sizes[] = {1, 2, 4, 8, 12, 16, 24, 32};
  uint64_t rng = 0x2545F4914F6CDD1Dull;
  unsigned ncase = 0, nspan = 0;
  for (size_t si = 0; si < sizeof strides / sizeof *strides; si++)
    for (size_t zi = 0; zi < sizeof sizes / sizeof *sizes; zi++)
      for (unsigned mi = 0; mi < 12; mi++)
        for (int disturb = 0; disturb < 5; disturb++) {
          uint64_t r = sim_order_next(&rng), m;
          switch (mi % 4) {
          case 0: m = 0xffffffffull; break;                                  /* full */
          case 1: m = sim_order_next(&rng) & 0xffffffffull; break;           /* any lanes */
          case 2: m = 0xffffffffull & ~(1ull << (r % 32)); break;            /* all but one */
          default: m = 0xffffull << (r % 17); break;                         /* a run */
          }
          if (!m)
            m = 1;
          uint32_t size = sizes[zi];
          uint64_t addr[32], a0 = SIM_GLOBAL_BASE + (r >> 16) % (1ull << 20) * size + r % 3;
          const uint64_t step = strides[si] * size + (mi >= 8 ? size / 2 : 0);   /* skewed */
          for (unsigned l = 0; l < 32; l++)
            addr[l] = a0 + l * step;
          unsigned hit = 31 - sim_ctz64(r | 1u << 31);
          if (disturb == 1 && hit)
            addr[hit] = addr[hit - 1] - (1 + r % 9) * size;                  /* back */
          else if (disturb == 2 && hit)
            addr[hit] = addr[hit - 1];                                       /* the same */
          else if (disturb >= 3)                                             /* halves alike */
            for (unsigned l = 16; l < 32; l++)
              addr[l] = addr[l - 16] + (disturb == 4 && l == 16 + hit % 16 ? size : 0);
          struct sim_inst_stats st[2];
          uint64_t sectors[2];
          for (int sc = 0; sc < 2; sc++)
            sectors[sc] = stats_access(sc, PTX_SP_GLOBAL, addr, m, size, 0, &st[sc]);
          ck_assert_msg(st[0].g_req == st[1].g_req && st[0].g_sectors == st[1].g_sectors &&
                        st[0].g_lines == st[1].g_lines && st[0].g_bytes == st[1].g_bytes &&
                        sectors[0] == sectors[1],
                        "stride %llu, size %u, mask 0x%llx, disturb %d: sectors %llu lines %llu "
                        "bytes %llu, shortcuts %llu %llu %llu", (unsigned long long)strides[si],
                        size, (unsigned long long)m, disturb,
                        (unsigned long long)st[0].g_sectors, (unsigned long long)st[0].g_lines,
                        (unsigned long long)st[0].g_bytes, (unsigned long long)st[1].g_sectors,
                        (unsigned long long)st[1].g_lines, (unsigned long long)st[1].g_bytes);
          ncase++;
          nspan += st[0].g_lines > 1;
        }
  ck_assert_uint_gt(nspan, ncase / 4);
}
END_TEST

/* The sectors, lines and bytes of global atomics (a pass a sector for each of its addresses'
   lanes in turn) of a whole warp through the vector count (sim_stats_shortcuts 1) against the
   general one over the sorted addresses (0): lanes on bins of 1 to 4096 words (a histogram's,
   a reduction's one word), on words of one sector, spread over pages, across a 4 GiB line
   (the vector count takes only one top half), and in masks of fewer lanes. */
START_TEST(test_atomic_stats)
{
  static const uint64_t bins[] = {1, 2, 3, 8, 32, 256, 4096};
  uint64_t rng = 0x9E3779B97F4A7C15ull;
  unsigned cases = 0, shared = 0;
  for (size_t bi = 0; bi < sizeof bins / sizeof *bins; bi++)
    for (unsigned rep = 0; rep < 60; rep++) {
      const uint64_t r = sim_order_next(&rng);
      uint64_t addr[32], base = SIM_GLOBAL_BASE + (r % 4096) * 4;
      if (rep % 10 == 9)
        base = (1ull << 32) - 64;                          /* across a 4 GiB line */
      for (unsigned l = 0; l < 32; l++) {
        const uint64_t x = sim_order_next(&rng);
        addr[l] = base + (x % bins[bi]) * (rep % 5 == 4 ? 4096 : 4);
      }
      const uint64_t m = rep % 3 == 2 ? (r >> 7) & 0xffffffffull : 0xffffffffull;
      for (int uniform = 0; uniform < 2; uniform++) {
        struct sim_inst_stats st[2];
        for (int sc = 0; sc < 2; sc++)
          stats_access(sc, PTX_SP_GLOBAL, addr, m ? m : 1, 4,
                       uniform ? SIM_ATOMIC_UNIFORM : SIM_ATOMIC, &st[sc]);
        ck_assert_msg(!memcmp(&st[0], &st[1], sizeof st[0]),
                      "bins %llu, rep %u: sectors %llu (%llu) lines %llu bytes %llu; "
                      "vector %llu (%llu) %llu %llu", (unsigned long long)bins[bi], rep,
                      (unsigned long long)st[0].g_sectors,
                      (unsigned long long)st[0].g_sectors_agg,
                      (unsigned long long)st[0].g_lines, (unsigned long long)st[0].g_bytes,
                      (unsigned long long)st[1].g_sectors,
                      (unsigned long long)st[1].g_sectors_agg,
                      (unsigned long long)st[1].g_lines, (unsigned long long)st[1].g_bytes);
        cases++;
        shared += st[0].g_sectors > st[0].g_lines;
      }
    }
  ck_assert_uint_gt(shared, cases / 3);                   /* lanes on one address, often */
}
END_TEST

/* The bank conflicts of shared accesses by some lanes of a warp whose words step by a constant
   per lane number (sim_stats.c's closed form) against the general lane-by-lane count
   (sim_stats_shortcuts 0): strides of every power of two and odd ones, backwards, one word,
   across 2^32 words, for masks of every shape; and the same addresses disturbed in one lane,
   which the closed form must leave to the general count. */
START_TEST(test_shared_stats_affine)
{
  static const int64_t strides[] = {0, 1, 2, 3, 4, 5, 6, 8, 12, 16, 24, 32, 33, 64, 96, -1, -2,
                                    -4, -16, -32, 1ll << 31, 1ll << 32, 3ll << 32, 1ll << 40};
  uint64_t rng = 0x9E3779B97F4A7C15ull;
  struct sim_inst_stats st[3];
  unsigned ncase = 0, nconf = 0;
  for (size_t si = 0; si < sizeof strides / sizeof *strides; si++)
    for (unsigned mi = 0; mi < 40; mi++)
      for (unsigned size = 1; size <= 8; size *= 2)
        for (int disturb = 0; disturb < 2; disturb++) {
          uint64_t r = sim_order_next(&rng), m;
          switch (mi % 5) {
          case 0: m = sim_order_next(&rng) & 0xffffffffull; break;          /* any lanes */
          case 1: {                                                          /* a run */
            unsigned a = (unsigned)(r % 32), n = 1 + (unsigned)(r >> 8) % (32 - a);
            m = (n == 32 ? 0xffffffffull : ((1ull << n) - 1)) << a;
            break;
          }
          case 2: {                                                          /* every 2^k-th */
            unsigned k = (unsigned)(r % 6), a = (unsigned)(r >> 8) % (1u << k);
            m = 0;
            for (unsigned l = a; l < 32; l += 1u << k)
              m |= 1ull << l;
            break;
          }
          case 3: m = 1ull << (r % 32); break;                               /* one lane */
          default: m = 0xffffffffull & ~(1ull << (r % 32)); break;           /* all but one */
          }
          if (!m)
            m = 1;
          uint64_t addr[32], w0 = (r >> 20) % (1ull << 36);
          for (unsigned l = 0; l < 32; l++)
            addr[l] = (w0 + (uint64_t)l * (uint64_t)strides[si]) * 4 +
                      (size < 4 ? r % (4 / size) * size : 0);      /* a byte of the word */
          if (disturb)
            addr[31 - sim_ctz64(r | 1u << 31)] += 4;                         /* one lane off */
          for (int sc = 0; sc < 3; sc++) {
            /* sc 2: the step the caller found (sim_exec's partial-warp check) given */
            struct sim_block b;
            memset(&b, 0, sizeof b);
            memset(&st[sc], 0, sizeof st[sc]);
            b.stats = &st[sc];
            b.W = 32;
            sim_stats_shortcuts = sc > 0;
            if (sc < 2)
              sim_stats_mem(&b, 0, PTX_SP_SHARED, addr, m, size, 0);
            else
              sim_stats_shared_part(&b, 0, addr, m, size,
                                    disturb ? SIM_NO_STRIDE : strides[si] * 4);
            sim_stats_shortcuts = 1;
            ck_assert_uint_eq(b.wavefronts, st[sc].s_wavefronts);
          }
          ck_assert_msg(st[0].s_wavefronts == st[2].s_wavefronts &&
                        st[0].s_ideal == st[2].s_ideal && st[0].s_req == st[2].s_req,
                        "stride %lld given, mask 0x%llx, size %u%s: %llu wavefronts "
                        "(%llu ideal), closed form %llu (%llu)", (long long)strides[si],
                        (unsigned long long)m, size, disturb ? ", one lane off" : "",
                        (unsigned long long)st[0].s_wavefronts,
                        (unsigned long long)st[0].s_ideal,
                        (unsigned long long)st[2].s_wavefronts,
                        (unsigned long long)st[2].s_ideal);
          ck_assert_msg(st[0].s_wavefronts == st[1].s_wavefronts &&
                        st[0].s_ideal == st[1].s_ideal && st[0].s_req == st[1].s_req,
                        "stride %lld, mask 0x%llx, size %u%s: %llu wavefronts (%llu ideal), "
                        "closed form %llu (%llu)", (long long)strides[si],
                        (unsigned long long)m, size, disturb ? ", one lane off" : "",
                        (unsigned long long)st[0].s_wavefronts,
                        (unsigned long long)st[0].s_ideal,
                        (unsigned long long)st[1].s_wavefronts,
                        (unsigned long long)st[1].s_ideal);
          ncase++;
          nconf += st[0].s_wavefronts > 1;
        }
  ck_assert_uint_gt(nconf, ncase / 4);             /* conflicts, not only conflict-free cases */
}
END_TEST

static int cmp_u64_test(const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* sim_sort_u64 against qsort: 0 to SIM_SORT_MAX values in order, in two ascending runs (equal
   halves, interleaved, one run empty of repeats), descending, at random with repeats, at
   random over all 64 bits (merged runs of eight), and at random in the low 32 bits under
   one top half, with 0 and 2^32 - 1 among them (the network of 32, whose padding is
   2^32 - 1). */
START_TEST(test_sort_u64_matches_qsort)
{
  static uint64_t v[SIM_SORT_MAX], want[SIM_SORT_MAX];
  uint64_t rng = 0x6A09E667F3BCC909ull;
  unsigned merged = 0;
  for (unsigned n = 0; n <= SIM_SORT_MAX; n += n < 70 ? 1 : 37)
    for (unsigned shape = 0; shape < 8; shape++) {
      const unsigned cut = n ? (unsigned)(sim_order_next(&rng) % n) : 0;
      for (unsigned i = 0; i < n; i++) {
        const uint64_t r = sim_order_next(&rng);
        switch (shape) {
        case 0: v[i] = i / 3; break;                                   /* in order */
        case 1: v[i] = i < n / 2 ? i : i - n / 2; break;               /* equal halves */
        case 2: v[i] = i < cut ? 2 * i : 2 * (i - cut) + 1; break;     /* interleaved runs */
        case 3: v[i] = i < cut ? i + 1000 : i; break;                  /* a run above */
        case 4: v[i] = n - i; break;                                   /* descending */
        case 5: v[i] = r % (n / 2 + 1); break;                         /* random, repeats */
        case 6: v[i] = r; break;                                       /* random, 64 bits */
        default:                                                       /* low halves */
          v[i] = 0x7f3a00000000ull | (r % 5 == 0 ? 0xffffffffull : r % 5 == 1 ? 0 : r >> 32);
          break;
        }
      }
      memcpy(want, v, n * sizeof *v);
      qsort(want, n, sizeof *want, cmp_u64_test);
      sim_sort_u64(v, n);
      ck_assert_msg(!memcmp(v, want, n * sizeof *v), "n %u, shape %u", n, shape);
      merged += shape >= 1 && shape <= 3 && n > 2;
    }
  ck_assert_uint_gt(merged, 100);
}
END_TEST

/* The bank conflicts of full warps whose words lie in a few rows of 32 (sim_stats.c's count by
   row masks, with AVX2) against the general lane-by-lane count (sim_stats_shortcuts 0): words
   drawn from 1 to 11 rows (past the 8 the masks take), with broadcasts (lanes sharing a word),
   pairs, half-warps, one lane far off, words at 2^32 (past what the masks take), two words a
   multiple of 32 apart, a span of just 32 words, lane 0 at a word's last byte and the others
   32 k words on (less than 128 bytes apart for 1 and 2 bytes, two words of one bank); and
   past the rows (the sorted count): words of one bank many rows apart, a tile's column
   wrapped around (33 rows of 32, lanes 32 words apart), words anywhere in 2^20, and just
   below 2^32; sizes of 1, 2 and 4 bytes; each also through a full warp's entry,
   sim_stats_shared_full, which counts by rows first, its span unknown and known. */
START_TEST(test_shared_stats_rows)
{
  uint64_t rng = 0xD1B54A32D192ED03ull;
  unsigned ncase = 0, nconf = 0, nbig = 0;
  for (unsigned rows = 1; rows <= 11; rows++)
    for (unsigned shape = 0; shape < 13; shape++)
      for (unsigned rep = 0; rep < 60; rep++) {
        uint64_t r = sim_order_next(&rng), addr[32];
        const unsigned size = 1u << (r % 3);
        uint64_t w0 = shape == 5 ? (1ull << 32) - 40 + r % 64 : (r >> 8) % (1ull << 20);
        for (unsigned l = 0; l < 32; l++) {
          uint64_t x = sim_order_next(&rng), w;
          switch (shape) {
          case 0: w = w0 + x % (32 * rows); break;                         /* anywhere */
          case 1: w = w0 + (x % rows) * 32 + (x >> 8) % 4; break;          /* few banks */
          case 2: w = w0 + (l / 2) * (rows > 1 ? 2 * rows : 1); break;     /* pairs */
          case 3: w = w0 + (l / 16) * 32 * (rows - 1) + l % 16; break;     /* half-warps */
          case 4: w = w0 + (l == x % 32 ? 32 * rows + 7 : x % 32); break;  /* one lane off */
          case 5: w = w0 + x % (32 * rows); break;                         /* at 2^32 */
          case 6: w = w0 + (l & 1) * 32 * rows; break;                     /* 32 k apart */
          case 7: w = w0 + l + (l == 31) * (32 * rows - 30); break;        /* a span of 32 k */
          case 8: w = w0 + (l > 0) * 32 * rows; break;                     /* lane 0 on its own */
          case 9: w = w0 + 32 * (x % (rows * 37)); break;                  /* one bank */
          case 10: w = w0 + (l * 32 + rows + rep) % (33 * 32); break;      /* a column */
          case 11: w = (x >> 8) % (1u << 20); break;                       /* anywhere */
          default: w = 0xffffffffull - x % (32 * rows * 40); break;        /* below 2^32 */
          }
          addr[l] = w * 4 + (shape == 8 ? (l ? 0 : 4 - size)
                                        : size < 4 ? (x >> 16) % (4 / size) * size : 0);
        }
        struct sim_inst_stats st[4];
        for (int sc = 0; sc < 4; sc++)
          ck_assert_uint_eq(stats_access(sc, PTX_SP_SHARED, addr, 0xffffffffull, size, 0,
                                         &st[sc]), st[sc].s_wavefronts);
        for (int sc = 1; sc < 4; sc++)
          ck_assert_msg(st[0].s_wavefronts == st[sc].s_wavefronts &&
                        st[0].s_ideal == st[sc].s_ideal && st[0].s_req == st[sc].s_req,
                        "rows %u, shape %u, size %u: %llu wavefronts (%llu ideal), %s %llu "
                        "(%llu)", rows, shape, size, (unsigned long long)st[0].s_wavefronts,
                        (unsigned long long)st[0].s_ideal,
                        sc == 1 ? "by rows" : sc == 2 ? "a full warp's first" : "by its span",
                        (unsigned long long)st[sc].s_wavefronts,
                        (unsigned long long)st[sc].s_ideal);
        ncase++;
        nconf += st[0].s_wavefronts > 1;
        nbig += st[0].s_wavefronts > 4;
      }
  ck_assert_uint_gt(nconf, ncase / 2);             /* conflicts, not only conflict-free cases */
  ck_assert_uint_gt(nbig, ncase / 20);             /* busy banks, where the counters carry */
}
END_TEST

/* The bank conflicts of full warps of 8 and 16 bytes a lane (float2, float4; sim_stats.c's
   count of each half- or quarter-warp's words sorted, with AVX2) against the general
   lane-by-lane count (sim_stats_shortcuts 0): lanes stepping by 1 to 33 elements, in a
   tile's column wrapped around, anywhere in 2^20 words or in a few rows, in a few words
   (lanes sharing an element: broadcasts within a group), half-warps on the same elements,
   one address for all (the broadcast), off their alignment by a word (strided) or by any
   number of words (anywhere: a lane's words then straddle two groups of banks, unlike its
   neighbours'), and just below 2^32 words and across it (one lane whose last word is 2^32,
   beside lanes on word 0: past what the sorted count takes); each also through
   sim_stats_shared_full with its step where the lanes have one (float2s or float4s one after
   another: a closed form). */
START_TEST(test_shared_stats_wide)
{
  static const unsigned steps[] = {1, 2, 3, 4, 8, 16, 32, 33};
  uint64_t rng = 0x8CB92BA72F3D8DD7ull;
  unsigned ncase = 0, nconf = 0;
  for (uint32_t size = 8; size <= 16; size *= 2)
    for (unsigned shape = 0; shape < 18; shape++)
      for (unsigned rep = 0; rep < 40; rep++) {
        const uint64_t r = sim_order_next(&rng);
        const uint64_t e0 = (r >> 8) % (1ull << 18), el = size / 4;   /* element, its words */
        uint64_t addr[32];
        for (unsigned l = 0; l < 32; l++) {
          const uint64_t x = sim_order_next(&rng);
          uint64_t e;
          switch (shape) {
          case 0: case 1: case 2: case 3: case 4: case 5: case 6: case 7:
            e = e0 + (uint64_t)l * steps[shape]; break;                 /* a stride */
          case 8: e = e0 + (l * 32 + rep) % (33 * 32) / el; break;       /* a column */
          case 9: e = (x >> 8) % (1u << 18); break;                      /* anywhere */
          case 10: e = e0 + x % 5; break;                                /* a few */
          case 11: e = e0 + l % 16 * (1 + rep % 4); break;               /* half-warps alike */
          case 12: e = e0; break;                                        /* one address */
          case 13: e = e0 + l * (1 + rep % 8); break;                    /* off by a word */
          case 14: e = (0xffffffffull - 40 * el - x % (64 * el)) / el; break;  /* below 2^32 */
          case 15: e = l == rep % 32 ? (1ull << 32) / el - 1 : 0; break;  /* across it */
          case 16: e = e0 + x % (16 + rep); break;                       /* a few rows */
          default: e = (x >> 8) % (1u << 18); break;                     /* anywhere, off */
          }
          const uint64_t off = shape == 13 || (shape == 15 && l == rep % 32) ? 4
                               : shape == 17 ? 4 * (x % el) : 0;
          addr[l] = e * size + off;
        }
        struct sim_inst_stats st[5];
        for (int sc = 0; sc < 5; sc++)
          ck_assert_uint_eq(stats_access(sc, PTX_SP_SHARED, addr, 0xffffffffull, size, 0,
                                         &st[sc]), st[sc].s_wavefronts);
        for (int sc = 1; sc < 5; sc++)
          ck_assert_msg(st[0].s_wavefronts == st[sc].s_wavefronts &&
                        st[0].s_ideal == st[sc].s_ideal && st[0].s_req == st[sc].s_req,
                        "size %u, shape %u, rep %u: %llu wavefronts (%llu ideal), way %d: "
                        "%llu (%llu)", size, shape, rep, (unsigned long long)st[0].s_wavefronts,
                        (unsigned long long)st[0].s_ideal, sc,
                        (unsigned long long)st[sc].s_wavefronts,
                        (unsigned long long)st[sc].s_ideal);
        ncase++;
        nconf += st[0].s_wavefronts > st[0].s_ideal;
      }
  ck_assert_uint_gt(nconf, ncase / 3);             /* conflicts, not only conflict-free cases */
}
END_TEST

/* The bounds and alignment of a partial warp's shared accesses whose active lanes' addresses
   step by a constant (sim_exec.c's check of their first and last lane) against the check of
   every lane (sim_stats_shortcuts 0): the even lanes of a warp store and load at
   s + c + tid k, the odd lanes' address register disturbed by tid j (j = 0: all 32 lanes
   on one line; else only the active ones), for steps forwards, backwards, misaligned and
   none, at offsets that put the last, the first or no active lane outside s; and lane 8's
   address moved by x (x != 0: off the line, outside s between ends inside it). */
START_TEST(test_shared_part_bounds)
{
  const char *k =
    HDR
    ".visible .entry pb(.param .u32 k, .param .u32 c, .param .u32 j, .param .u32 x)\n{\n"
    "  .shared .align 8 .b8 s[512];\n"
    "  .reg .b32 %r<12>;\n  .reg .pred %p<2>;\n"
    "  ld.param.u32 %r1, [k];\n  ld.param.u32 %r2, [c];\n  ld.param.u32 %r3, [j];\n"
    "  ld.param.u32 %r11, [x];\n"
    "  mov.u32 %r4, %tid.x;\n  mov.u32 %r5, s;\n  add.s32 %r5, %r5, %r2;\n"
    "  mad.lo.u32 %r6, %r4, %r1, %r5;\n  and.b32 %r7, %r4, 1;\n"
    "  mul.lo.u32 %r8, %r4, %r3;\n  mul.lo.u32 %r8, %r8, %r7;\n  add.s32 %r6, %r6, %r8;\n"
    "  setp.eq.u32 %p1, %r4, 8;\n  selp.b32 %r10, %r11, 0, %p1;\n  add.s32 %r6, %r6, %r10;\n"
    "  setp.ne.u32 %p1, %r7, 0;\n  @%p1 bra $L_end;\n"
    "  st.shared.u32 [%r6], %r4;\n  ld.shared.u32 %r9, [%r6];\n"
    "$L_end:\n  ret;\n}\n";
  static const int32_t ks[] = {4, 8, 12, 16, 0, -4, -8, 2, 6, 5, 20, 1 << 20};
  static const uint32_t cs[] = {0, 4, 2, 16, 32, 120, 136, 260, 388, 392, 396, 508, 512,
                                0xfffffff0u, 0x80000000u};
  static const uint32_t js[] = {0, 3, 4};
  unsigned nok = 0, nfault = 0;
  struct fx f;
  load(&f, k);
  for (size_t ki = 0; ki < sizeof ks / sizeof *ks; ki++)
    for (size_t ci = 0; ci < sizeof cs / sizeof *cs; ci++)
      for (size_t ji = 0; ji < 2 * sizeof js / sizeof *js; ji++) {
        uint32_t prm[4] = {(uint32_t)ks[ki], cs[ci], js[ji / 2], ji & 1 ? 4096 : 0};
        struct sim_result r[2];
        for (int sc = 0; sc < 2; sc++) {
          struct sim_launch c = {.grid = {1, 1, 1}, .block = {32, 1, 1}, .workers = 1};
          sim_result_free(&f.r);
          sim_stats_shortcuts = sc;
          ck_assert_int_eq(sim_run(f.d, &f.m, "pb", prm, sizeof prm, &c, &f.r, f.err,
                                   sizeof f.err), SIM_OK);
          sim_stats_shortcuts = 1;
          r[sc] = f.r;
          memset(&f.r, 0, sizeof f.r);
        }
        ck_assert_msg(r[0].outcome == r[1].outcome && r[0].fault.kind == r[1].fault.kind &&
                      r[0].fault.lane == r[1].fault.lane &&
                      r[0].fault.addr == r[1].fault.addr &&
                      !strcmp(r[0].fault.message, r[1].fault.message),
                      "k %d, c 0x%x, j %u, x %u: every lane checked: %d %s; first and last: "
                      "%d %s", ks[ki], cs[ci], prm[2], prm[3], (int)r[0].outcome,
                      r[0].fault.message, (int)r[1].outcome, r[1].fault.message);
        nok += r[0].outcome == SIM_RAN_OK;
        nfault += r[0].outcome == SIM_FAULT;
        sim_result_free(&r[0]);
        sim_result_free(&r[1]);
      }
  ck_assert_uint_gt(nok, 20);                      /* both outcomes, often */
  ck_assert_uint_gt(nfault, 20);
  done(&f);
}
END_TEST

/* The first touches found from the instruction's allocation (the block's hint for it,
   struct sim_block.touch_hint: sim_touch_span_in inline for a coalesced access inside it,
   sim_trace_touch_span and sim_trace_touch out of line) with keys from the block's
   touch_key0, against the look-up of every line and sim_touch_key's whole sum
   (sim_stats_shortcuts 0), on one worker and two: global loads and stores in buffers past
   the first, by each block's two warps (the second finds the hint the first made), a load of
   the same lines in descending order (no span: lane by lane), and a generic load and a
   global one (each warp the same 128 bytes, the second finding the first's hint: a
   __constant__ variable is never an instruction's cached allocation, so these go lane by
   lane) of a __constant__ array that shares its first line with the variable before it (the
   line is that one's: not in the array's hint). */
static const char *k_touch =
  HDR
  ".const .align 4 .u32 c0;\n"
  ".const .align 4 .b8 c1[256];\n"
  ".visible .entry tk(.param .u64 a, .param .u64 b)\n{\n"
  "  .reg .b32 %r<8>;\n  .reg .b64 %rd<12>;\n"
  "  ld.param.u64 %rd1, [a];\n  cvta.to.global.u64 %rd1, %rd1;\n"
  "  ld.param.u64 %rd2, [b];\n  cvta.to.global.u64 %rd2, %rd2;\n"
  "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n  mad.lo.u32 %r2, %r2, 64, %r1;\n"
  "  mul.wide.u32 %rd3, %r2, 4;\n  add.s64 %rd4, %rd1, %rd3;\n"
  "  ld.global.u32 %r2, [%rd4];\n"
  "  mov.u64 %rd5, c1;\n  cvta.const.u64 %rd6, %rd5;\n  mul.wide.u32 %rd7, %r1, 4;\n"
  "  add.s64 %rd7, %rd6, %rd7;\n  ld.u32 %r3, [%rd7];\n"
  "  add.s32 %r2, %r2, %r3;\n  add.s64 %rd8, %rd2, %rd3;\n  st.global.u32 [%rd8], %r2;\n"
  "  mov.u32 %r4, %ctaid.x;\n  sub.u32 %r5, 63, %r1;\n  mad.lo.u32 %r5, %r4, 64, %r5;\n"
  "  mul.wide.u32 %rd9, %r5, 4;\n  add.s64 %rd10, %rd2, %rd9;\n  ld.global.u32 %r6, [%rd10];\n"
  "  add.s64 %rd11, %rd1, %rd9;\n  st.global.u32 [%rd11], %r6;\n"
  "  and.b32 %r7, %r1, 31;\n  mul.wide.u32 %rd9, %r7, 4;\n  cvta.to.global.u64 %rd10, %rd6;\n"
  "  add.s64 %rd10, %rd10, %rd9;\n  ld.global.u32 %r7, [%rd10];\n"
  "  ret;\n}\n";

START_TEST(test_touch_span_guess)
{
  for (uint32_t workers = 1; workers <= 2; workers++) {
    /* each run's keys by line, allocation after allocation (where the table puts an
       allocation's first line depends on the table's own address) */
    uint64_t *keys[2] = {NULL, NULL}, nkeys = 0;
    uint32_t shared[2] = {0, 0};
    for (int sc = 0; sc < 2; sc++) {
      struct fx f;
      load(&f, k_touch);
      (void)buffer(&f, 5000, "first");
      uint64_t p[2] = {buffer(&f, 4 * 256, "a"), 0};
      (void)buffer(&f, 300, "between");
      p[1] = buffer(&f, 4 * 256, "b");
      struct sim_launch c = {.grid = {4, 1, 1}, .block = {64, 1, 1}, .workers = workers,
                             .trace_every = 1, .trace_blocks = 4, .trace_wave = 2};
      sim_stats_shortcuts = sc;
      ck_assert_int_eq(sim_run(f.d, &f.m, "tk", p, sizeof p, &c, &f.r, f.err, sizeof f.err),
                       SIM_OK);
      sim_stats_shortcuts = 1;
      ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
      const struct sim_trace *tr = &f.r.trace;
      ck_assert_ptr_nonnull(tr->touch);
      ck_assert_uint_eq(tr->nseg, 6);              /* 4 buffers, c0, c1 */
      keys[sc] = malloc(tr->ntouch * sizeof *keys[sc]);
      ck_assert_ptr_nonnull(keys[sc]);
      uint64_t n = 0;
      for (uint32_t q = 0; q < tr->nseg; q++)
        for (uint64_t j = 0; j < tr->seg[q].n; j++)
          keys[sc][n++] = tr->touch[tr->seg[q].at + j];
      ck_assert(!sc || n == nkeys);
      nkeys = n;
      shared[sc] = tr->touch_shared;
      done(&f);
    }
    unsigned touched = 0;
    for (uint64_t i = 0; i < nkeys; i++) {
      ck_assert_msg(keys[0][i] == keys[1][i], "%u workers, line %llu: key 0x%llx, guessed 0x%llx",
                    workers, (unsigned long long)i, (unsigned long long)keys[0][i],
                    (unsigned long long)keys[1][i]);
      touched += keys[0][i] != 0;
    }
    ck_assert_uint_eq(touched, 8 + 8 + 3);         /* a's and b's lines; c1's first line
                                                      is c0's (its key there), two more */
    ck_assert_uint_eq(shared[0], 1);               /* every block loads c1's lines */
    ck_assert_uint_eq(shared[1], 1);
    free(keys[0]);
    free(keys[1]);
  }
}
END_TEST

/* A full warp's scattered accesses, one line a lane (sim_trace_touch's gather of the lines'
   keys): odd blocks reaching the lines of the even block before them after fewer
   instructions (their keys lower than the lines hold) or after more (flip: a line of another
   block's, with a lower key, which sets touch_shared), lanes sharing a line, the second
   warp on the first's lines, and a load whose odd lanes read another buffer (lines past the
   block's hint for the first), must leave the keys and touch_shared of the general path
   (sim_stats_shortcuts 0), on 1 worker and 2. */
static const char *k_touch_scatter =
  HDR
  ".visible .entry ts(.param .u64 a, .param .u64 b, .param .u32 flip)\n{\n"
  "  .reg .pred %p<2>;\n  .reg .b32 %r<9>;\n  .reg .b64 %rd<8>;\n"
  "  ld.param.u64 %rd1, [a];\n  mov.u32 %r1, %tid.x;\n  mov.u32 %r4, %ctaid.x;\n"
  "  ld.param.u32 %r8, [flip];\n  and.b32 %r5, %r4, 1;\n  xor.b32 %r5, %r5, %r8;\n"
  "  setp.ne.u32 %p1, %r5, 0;\n  @%p1 bra DONE;\n"
  "  add.u32 %r5, %r5, 1;\n  add.u32 %r5, %r5, 1;\n  add.u32 %r5, %r5, 1;\n"
  "  add.u32 %r5, %r5, 1;\n  add.u32 %r5, %r5, 1;\n  add.u32 %r5, %r5, 1;\n"
  "DONE:\n  mul.lo.u32 %r6, %r1, 7;\n  and.b32 %r6, %r6, 31;\n  bfe.u32 %r7, %r4, 1, 1;\n"
  "  mad.lo.u32 %r6, %r7, 32, %r6;\n  shl.b32 %r6, %r6, 7;\n  and.b32 %r7, %r1, 3;\n"
  "  shr.u32 %r3, %r1, 5;\n  mad.lo.u32 %r7, %r3, 4, %r7;\n  mad.lo.u32 %r6, %r7, 4, %r6;\n  cvt.u64.u32 %rd2, %r6;\n  add.s64 %rd3, %rd1, %rd2;\n"
  "  ld.global.u32 %r2, [%rd3];\n  add.u32 %r2, %r2, %r1;\n  st.global.u32 [%rd3], %r2;\n"
  "  ld.param.u64 %rd4, [b];\n  and.b32 %r7, %r1, 1;\n  setp.eq.u32 %p1, %r7, 1;\n"
  "  selp.b64 %rd5, %rd4, %rd1, %p1;\n  add.s64 %rd6, %rd5, %rd2;\n"
  "  ld.global.u32 %r3, [%rd6];\n  add.u32 %r2, %r2, %r3;\n  st.global.u32 [%rd3], %r2;\n"
  "  ret;\n}\n";

START_TEST(test_touch_scattered_keys)
{
  for (uint32_t run = 0; run < 4; run++) {
    const uint32_t workers = 1 + run / 2, flip = run % 2;
    uint64_t keys[2][128];
    uint32_t shared[2] = {0, 0};
    for (int sc = 0; sc < 2; sc++) {
      struct fx f;
      load(&f, k_touch_scatter);
      const uint64_t a = buffer(&f, 64 * 128, "a"), bb = buffer(&f, 64 * 128, "b");
      uint8_t p[20];                               /* a, b, flip */
      memcpy(p, &a, 8);
      memcpy(p + 8, &bb, 8);
      memcpy(p + 16, &flip, 4);
      struct sim_launch c = {.grid = {6, 1, 1}, .block = {64, 1, 1}, .workers = workers,
                             .trace_every = 1, .trace_blocks = 6, .trace_wave = 6};
      sim_stats_shortcuts = sc;
      ck_assert_int_eq(sim_run(f.d, &f.m, "ts", p, sizeof p, &c, &f.r, f.err, sizeof f.err),
                       SIM_OK);
      sim_stats_shortcuts = 1;
      ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
      for (unsigned x = 0; x < 128; x++) {
        const uint64_t k = sim_touch_index(&f.r.trace, ((x < 64 ? a : bb - 8192) + 128 * x) / 32);
        ck_assert_uint_lt(k, f.r.trace.ntouch);
        keys[sc][x] = f.r.trace.touch[k];
      }
      shared[sc] = f.r.trace.touch_shared;
      done(&f);
    }
    for (unsigned x = 0; x < 128; x++) {
      ck_assert_msg(keys[0][x] == keys[1][x],
                    "%u workers, flip %u, line %u: key 0x%llx, gathered 0x%llx", workers, flip,
                    x, (unsigned long long)keys[0][x], (unsigned long long)keys[1][x]);
      ck_assert(keys[0][x] != 0 || (x >= 64 && x % 2 == 0));   /* b's odd lines */
    }
    ck_assert_uint_eq(shared[0], 1);               /* blocks 0 to 3 share a's lines */
    ck_assert_uint_eq(shared[1], 1);
  }
}
END_TEST

/* A full warp's strided accesses, a line a lane at a stride of 128 bytes or 25 lines in
   100-byte steps (global_cost's closed form gives them as a span of lines, which
   sim_trace_touch_span takes four keys at a time, the last one to three alone): blocks
   whose lines are the blocks' before them (shift 0: all of them; 32 words: all but one),
   even blocks after fewer instructions (flip), each line loaded and then stored by its
   block, must leave the keys and touch_shared of the general path (sim_stats_shortcuts 0),
   on 1 worker and 2. */
static const char *k_touch_stride =
  HDR
  ".visible .entry tsp(.param .u64 a, .param .u32 shift, .param .u32 flip, .param .u32 st)\n{\n"
  "  .reg .pred %p<2>;\n  .reg .b32 %r<10>;\n  .reg .b64 %rd<4>;\n"
  "  ld.param.u64 %rd1, [a];\n  mov.u32 %r1, %tid.x;\n  mov.u32 %r4, %ctaid.x;\n"
  "  ld.param.u32 %r9, [st];\n"
  "  ld.param.u32 %r6, [shift];\n  ld.param.u32 %r8, [flip];\n"
  "  and.b32 %r7, %r4, 1;\n  xor.b32 %r7, %r7, %r8;\n  setp.ne.u32 %p1, %r7, 0;\n"
  "  @%p1 bra GO;\n  add.u32 %r7, %r7, 1;\n  add.u32 %r7, %r7, 1;\n  add.u32 %r7, %r7, 1;\n"
  "GO:\n  and.b32 %r5, %r4, 3;\n  mad.lo.u32 %r2, %r1, %r9, %r5;\n"
  "  mad.lo.u32 %r2, %r6, %r4, %r2;\n  mul.wide.u32 %rd2, %r2, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
  "  ld.global.u32 %r3, [%rd3];\n  add.u32 %r3, %r3, %r7;\n  st.global.u32 [%rd3], %r3;\n"
  "  ret;\n}\n";

START_TEST(test_touch_strided_span_keys)
{
  static const uint32_t shifts[3] = {0, 32, 7}, strides[3] = {32, 32, 25};
  for (uint32_t run = 0; run < 12; run++) {
    const uint32_t workers = 1 + run % 2, flip = run / 2 % 2;
    const uint32_t shift = shifts[run / 4], st = strides[run / 4];
    uint64_t keys[2][128];
    uint32_t shared[2] = {0, 0};
    for (int sc = 0; sc < 2; sc++) {
      struct fx f;
      load(&f, k_touch_stride);
      const uint64_t a = buffer(&f, 128 * 128, "a");
      uint8_t p[20];                               /* a, shift, flip, st */
      memcpy(p, &a, 8);
      memcpy(p + 8, &shift, 4);
      memcpy(p + 12, &flip, 4);
      memcpy(p + 16, &st, 4);
      struct sim_launch c = {.grid = {6, 1, 1}, .block = {64, 1, 1}, .workers = workers,
                             .trace_every = 1, .trace_blocks = 6, .trace_wave = 6};
      sim_stats_shortcuts = sc;
      ck_assert_int_eq(sim_run(f.d, &f.m, "tsp", p, sizeof p, &c, &f.r, f.err, sizeof f.err),
                       SIM_OK);
      sim_stats_shortcuts = 1;
      ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
      for (unsigned x = 0; x < 128; x++) {
        const uint64_t k = sim_touch_index(&f.r.trace, (a + 128 * x) / 32);
        ck_assert_uint_lt(k, f.r.trace.ntouch);
        keys[sc][x] = f.r.trace.touch[k];
      }
      shared[sc] = f.r.trace.touch_shared;
      done(&f);
    }
    unsigned touched = 0;
    for (unsigned x = 0; x < 128; x++) {
      ck_assert_msg(keys[0][x] == keys[1][x],
                    "%u workers, flip %u, shift %u, stride %u, line %u: key 0x%llx, four at "
                    "a time 0x%llx", workers, flip, shift, st, x, (unsigned long long)keys[0][x],
                    (unsigned long long)keys[1][x]);
      touched += keys[0][x] != 0;
    }
    /* two warps' 32 lines (shifted a line a block), or 50 and more at 100 bytes */
    ck_assert_uint_eq(touched, st == 25 ? 51 : shift ? 64 + 5 : 64);
    ck_assert_uint_eq(shared[0], 1);
    ck_assert_uint_eq(shared[1], 1);
  }
}
END_TEST

/* A block's hint for an allocation that shares its first line with the one before it (as
   packed __constant__ variables do; no kernel's coalesced access reaches one today) leaves
   that line out: sim_touch_span_in keeps its key in the allocation before's entry, as
   touch_seg finds it, and the hint's other lines in the allocation's own. */
START_TEST(test_touch_hint_shared_line)
{
  struct sim_alloc al[2] = {{.base = 0x1000, .size = 4}, {.base = 0x1004, .size = 0x100}};
  struct sim_device d = {.allocs = al, .nallocs = 2};
  struct sim_touch_seg seg[2] = {{0x1000 >> 7, 1, 0}, {0x1004 >> 7, 3, 1}};
  uint64_t keys[4] = {0, 0, 0, 0};
  struct sim_trace tr = {.touch = keys, .ntouch = 4, .seg = seg, .nseg = 2, .touch_wave = 1};
  struct sim_block *b = calloc(1, sizeof *b);
  ck_assert_ptr_nonnull(b);
  b->dev = &d;
  b->touch = &tr;
  b->linear = 3;
  b->ctr.warp_insts = 5;
  sim_trace_touch_span(b, 0x1080, 0x1100, &al[1]);  /* line 0x21: makes the hint */
  ck_assert_ptr_eq(sim_touch_slot(b, &al[1])->al, &al[1]);
  b->ctr.warp_insts = 9;
  sim_touch_span_in(b, 0x1004, 0x1084, &al[1], 0);     /* lines 0x20 (al[0]'s) and 0x21 */
  sim_touch_span_in(b, 0x1080, 0x1104, &al[1], 0x100000);     /* lines 0x21 and 0x22 */
  ck_assert_uint_eq(keys[0], sim_touch_key(1, 3, 8));
  ck_assert_uint_eq(keys[1], 0);
  ck_assert_uint_eq(keys[2], sim_touch_key(1, 3, 4));
  ck_assert_uint_eq(keys[3], sim_touch_key(1, 3, 8));
  free(b);
}
END_TEST

/* sim_trace_touch of a full warp whose odd lanes are in another allocation than its hint's,
   whose keys the table keeps far from the hint's (a lane past the hint's lines): the keys of
   the general path (sim_stats_shortcuts 0), every lane's line touched once. */
START_TEST(test_touch_scattered_past_hint)
{
  struct sim_alloc al[2] = {{.base = 0x10000, .size = 0x1000}, {.base = 0x40000, .size = 0x1000}};
  struct sim_device d = {.allocs = al, .nallocs = 2};
  struct sim_touch_seg seg[2] = {{0x10000 >> 7, 32, 0}, {0x40000 >> 7, 32, 40}};
  uint64_t addr[32], span[2] = {0, 0}, keys[2][72];
  for (unsigned l = 0; l < 32; l++)
    addr[l] = al[l & 1].base + (uint64_t)(l * 7 % 32) * 128 + 4 * (l & 3);
  for (int sc = 0; sc < 2; sc++) {
    memset(keys[sc], 0, sizeof keys[sc]);
    struct sim_trace tr = {.touch = keys[sc], .ntouch = 72, .seg = seg, .nseg = 2,
                           .touch_wave = 1};
    struct sim_block *b = calloc(1, sizeof *b);
    ck_assert_ptr_nonnull(b);
    b->dev = &d;
    b->touch = &tr;
    b->linear = 3;
    b->ctr.warp_insts = 5;
    sim_stats_shortcuts = sc;
    sim_trace_touch(b, addr, 0xffffffffull, 4, span, &al[0]);
    sim_stats_shortcuts = 1;
    free(b);
  }
  unsigned touched = 0;
  for (unsigned i = 0; i < 72; i++) {
    ck_assert_uint_eq(keys[1][i], keys[0][i]);
    touched += keys[0][i] == sim_touch_key(1, 3, 4);
  }
  ck_assert_uint_eq(touched, 32);
}
END_TEST

/* sim_touch_now, a block's touch_key0 plus its warp-instructions so far, is sim_touch_key's
   whole sum: at the first instruction, in every wave, for the 24-bit block field's wrap, and
   at and past the limit of 0xfffffff instructions. */
START_TEST(test_touch_now_key)
{
  static const uint64_t insts[] = {0, 1, 2, 3, 1000, 0xffffffe, 0xfffffff, 0x10000000,
                                   0x10000001, 0x123456789ull, UINT64_MAX};
  static const uint32_t linear[] = {0, 1, 7, 8, 1000, 0xffffff, 0x1000000, 0x1234567,
                                    UINT32_MAX};
  static const uint32_t wave[] = {1, 2, 3, 132, 0xfff000};
  for (unsigned iw = 0; iw < sizeof wave / sizeof *wave; iw++)
    for (unsigned il = 0; il < sizeof linear / sizeof *linear; il++)
      for (unsigned ii = 0; ii < sizeof insts / sizeof *insts; ii++) {
        struct sim_block b = {.linear = linear[il]};
        b.touch_key0 = sim_touch_key(wave[iw], linear[il], 0);
        b.ctr.warp_insts = insts[ii];
        uint64_t done = insts[ii] ? insts[ii] - 1 : 0;
        ck_assert_msg(sim_touch_now(&b) == sim_touch_key(wave[iw], linear[il], done),
                      "wave %u, block %u, %llu warp-instructions", wave[iw], linear[il],
                      (unsigned long long)insts[ii]);
      }
}
END_TEST

/* Coalesced global loads and stores of a full warp go through sim_exec_run, a partial warp's
   through sim_exec: out[t] = in[t] * 3 + 1 (u32) and out64[t] = in64[t] + t (u64), run twice
   so that the second run finds the instructions' allocations cached. */
START_TEST(test_fast_path_global)
{
  const char *k =
    HDR
    ".visible .entry fg(.param .u64 in, .param .u64 out, .param .u64 in64, .param .u64 out64)\n{\n"
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<16>;\n"
    "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n"
    "  ld.param.u64 %rd3, [in64];\n  ld.param.u64 %rd4, [out64];\n"
    "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd5, %r1, 4;\n  mul.wide.u32 %rd6, %r1, 8;\n"
    "  add.s64 %rd7, %rd1, %rd5;\n  add.s64 %rd8, %rd2, %rd5;\n"
    "  add.s64 %rd9, %rd3, %rd6;\n  add.s64 %rd10, %rd4, %rd6;\n"
    "  ld.global.u32 %r2, [%rd7];\n  mul.lo.u32 %r3, %r2, 3;\n  add.s32 %r3, %r3, 1;\n"
    "  st.global.u32 [%rd8], %r3;\n"
    "  ld.global.u64 %rd11, [%rd9];\n  cvt.u64.u32 %rd12, %r1;\n  add.s64 %rd13, %rd11, %rd12;\n"
    "  st.global.u64 [%rd10], %rd13;\n"
    "  ret;\n}\n";
  struct fx f;
  load(&f, k);
  uint64_t a[4] = {buffer(&f, 48 * 4, "in"), buffer(&f, 48 * 4, "out"), buffer(&f, 48 * 8, "in64"),
                   buffer(&f, 48 * 8, "out64")};
  uint32_t in[48], out[48];
  uint64_t in64[48], out64[48];
  for (unsigned t = 0; t < 48; t++) {
    in[t] = 0x9E3779B9u * (t + 1);
    in64[t] = 0x9E3779B97F4A7C15ull * (t + 7);
  }
  ck_assert_int_eq(sim_write(f.d, a[0], in, sizeof in), SIM_OK);
  ck_assert_int_eq(sim_write(f.d, a[2], in64, sizeof in64), SIM_OK);
  for (int run = 0; run < 2; run++) {
    ck_assert_int_eq(launch(&f, "fg", 1, 48, a, 4, SIM_SCHED_ITS, 1, 0), SIM_OK);
    ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
    ck_assert_int_eq(sim_read(f.d, a[1], out, sizeof out), SIM_OK);
    ck_assert_int_eq(sim_read(f.d, a[3], out64, sizeof out64), SIM_OK);
    for (unsigned t = 0; t < 48; t++) {
      ck_assert_uint_eq(out[t], in[t] * 3u + 1u);
      ck_assert_uint_eq(out64[t], in64[t] + t);
    }
  }
  done(&f);
}
END_TEST

/* Vector loads and stores (.v2, .v4 of words and double words) of global and shared memory:
   a block of 80 threads (two full warps through sim_exec_run, a partial one through sim_exec)
   with the fast paths (AVX2: coalesced vectors as one run of bytes, their race check as
   lines, a warp reading one shared vector) against the same launch without them (sim_exec
   lane by lane for every instruction): the same memory, outcome, fault (a race held: which
   threads, instructions, words), counters, per-instruction statistics, the timing model's
   trace (sectors, wavefronts) and first touches. Kernel vx: coalesced v4.f32, v4.s32 (sign
   extended), v2.u32, v2.u64 loads and stores, a load with sinks, a store that leaves some
   lanes' bytes as they are, a shared vector written, one read by the whole warp, one at a
   stride of three and with sinks. Kernel vr: a coalesced v4 store to global or shared memory,
   then a v4 load `off` bytes from it (a lane's neighbour: a race within the warp; the
   previous warp's: across warps; its own: none); vs the same in shared memory alone, stored
   twice (the second store changes some lanes' bytes only); vw a coalesced v4 store to global
   memory twice, the second changing threads 0-59 only (53-59 the first 8 bytes alone), then
   threads 52 on read one word of a neighbour's vector (which store wrote it, and each word of
   a lane's vector recorded; the second time in memory no store wrote before, so the first
   store's words are one line). The races are warp 1's: its stores run the fast path from the
   first (warp 0's first found the allocations). v2: vr's global part for v2 of words and of
   double words, stored twice (the second changing the odd lanes' second element). vb: a
   coalesced v4 store, a barrier, the store again changing lanes 24-31's vectors only, then
   warp 1's v4 load `off` bytes on (its lanes 0-22 reading words of the epoch before). */
#define VX_OUT 16384u
struct vx_run {
  uint8_t out[VX_OUT];
  struct sim_result r;                     /* the fields compared, copied */
  struct sim_inst_stats st[64];
  uint32_t nev;
  struct sim_tev ev[256];
  uint64_t sec[1024];
  uint32_t nsec;
  uint64_t touch[256];
};

/* (avx 0: as a CPU without AVX2 runs it; under the sanitizers, where the x86 code is not
   built, both runs are that) */
static void vx_launch(const char *k, const char *name, int avx, uint32_t arg, uint32_t nocheck,
                      struct vx_run *o)
{
#ifdef SIM_X86
  const int keep = sim_cpu_avx2;
  sim_cpu_avx2 = avx && keep;
#endif
  struct fx f;
  load(&f, k);
  uint64_t in = buffer(&f, 2048, "in"), out = buffer(&f, VX_OUT, "out");
  float init[512];                         /* (numbers that adding 1 changes) */
  for (unsigned i = 0; i < 512; i++)
    init[i] = (float)((i * 7u) % 61u) + 0.5f;
  ck_assert_int_eq(sim_write(f.d, in, init, sizeof init), SIM_OK);
  uint64_t params[3] = {in, out, arg};
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {80, 1, 1}, .workers = 1,
                         .sched = SIM_SCHED_ITS, .trace_every = 1, .trace_blocks = 1,
                         .trace_wave = 1, .nocheck = nocheck};
  sim_result_free(&f.r);
  ck_assert_int_eq(sim_run(f.d, &f.m, name, params, 20, &c, &f.r, f.err, sizeof f.err), SIM_OK);
#ifdef SIM_X86
  sim_cpu_avx2 = keep;
#endif
  ck_assert_int_eq(sim_read(f.d, out, o->out, VX_OUT), SIM_OK);
  memset(&o->r, 0, sizeof o->r);
  o->r.outcome = f.r.outcome;
  o->r.fault = f.r.fault;
  o->r.counters = f.r.counters;
  ck_assert_uint_le(f.r.nstats, 64);
  memset(o->st, 0, sizeof o->st);
  memcpy(o->st, f.r.stats, f.r.nstats * sizeof *f.r.stats);
  ck_assert_uint_eq(f.r.trace.nblk, 1);
  const struct sim_tblock *t = &f.r.trace.blk[0];
  ck_assert_uint_le(t->nev, 256);
  ck_assert_uint_le(t->nsec, 1024);
  o->nev = t->nev;
  o->nsec = t->nsec;
  memset(o->ev, 0, sizeof o->ev);
  for (uint32_t i = 0; i < t->nev; i++)     /* field by field: no padding compared */
    o->ev[i] = (struct sim_tev){.inst = t->ev[i].inst, .warp = t->ev[i].warp,
                                .lanes = t->ev[i].lanes, .space = t->ev[i].space,
                                .n = t->ev[i].n, .first = t->ev[i].first,
                                .dups = t->ev[i].dups, .same = t->ev[i].same};
  memcpy(o->sec, t->sec, t->nsec * sizeof *t->sec);
  memset(o->touch, 0, sizeof o->touch);
  ck_assert_ptr_nonnull(f.r.trace.touch);
  ck_assert_uint_le(f.r.trace.ntouch, 256);
  memcpy(o->touch, f.r.trace.touch, f.r.trace.ntouch * sizeof *f.r.trace.touch);
  done(&f);
}

static void vx_compare(const char *k, const char *name, uint32_t arg, int race,
                       uint32_t nocheck)
{
  static struct vx_run a, b;
  vx_launch(k, name, 1, arg, nocheck, &a);
  vx_launch(k, name, 0, arg, nocheck, &b);
  ck_assert_msg(race ? a.r.outcome == SIM_FAULT && a.r.fault.kind == SIM_FK_RACE
                     : a.r.outcome == SIM_RAN_OK, "%s %u: outcome %d: %s", name, arg,
                a.r.outcome, a.r.fault.message);
  ck_assert_int_eq(a.r.outcome, b.r.outcome);
  ck_assert_msg(!memcmp(a.out, b.out, VX_OUT), "%s %u: memory differs", name, arg);
  ck_assert_str_eq(a.r.fault.message, b.r.fault.message);
  ck_assert_int_eq(a.r.fault.kind, b.r.fault.kind);
  ck_assert_uint_eq(a.r.fault.inst, b.r.fault.inst);
  ck_assert_uint_eq(a.r.fault.other_inst, b.r.fault.other_inst);
  for (int i = 0; i < 3; i++) {
    ck_assert_uint_eq(a.r.fault.thread[i], b.r.fault.thread[i]);
    ck_assert_uint_eq(a.r.fault.other_thread[i], b.r.fault.other_thread[i]);
  }
  ck_assert_uint_eq(a.r.fault.addr, b.r.fault.addr);
  ck_assert_uint_eq(a.r.counters.warp_insts, b.r.counters.warp_insts);
  ck_assert_uint_eq(a.r.counters.thread_insts, b.r.counters.thread_insts);
  for (unsigned i = 0; i < 64; i++)
    ck_assert_msg(!memcmp(&a.st[i], &b.st[i], sizeof a.st[i]),
                  "%s %u: instruction %u's statistics differ (sectors %llu/%llu, wavefronts "
                  "%llu/%llu)", name, arg, i, (unsigned long long)a.st[i].g_sectors,
                  (unsigned long long)b.st[i].g_sectors,
                  (unsigned long long)a.st[i].s_wavefronts,
                  (unsigned long long)b.st[i].s_wavefronts);
  ck_assert_uint_eq(a.nev, b.nev);
  ck_assert_uint_eq(a.nsec, b.nsec);
  ck_assert_msg(!memcmp(a.ev, b.ev, sizeof a.ev), "%s %u: trace events differ", name, arg);
  ck_assert_msg(!memcmp(a.sec, b.sec, sizeof a.sec), "%s %u: trace sectors differ", name, arg);
  ck_assert_msg(!memcmp(a.touch, b.touch, sizeof a.touch), "%s %u: first touches differ", name,
                arg);
}

START_TEST(test_fast_path_vectors)
{
  const char *vx =
    HDR
    ".visible .entry vx(.param .u64 in, .param .u64 out, .param .u32 k)\n{\n"
    "  .shared .align 16 .b8 sh[2048];\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<40>;\n  .reg .f32 %f<32>;\n  .reg .b64 %rd<30>;\n"
    "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n  ld.param.u32 %r30, [k];\n"
    "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd3, %r1, 16;\n  mul.wide.u32 %rd6, %r1, 8;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n  add.s64 %rd5, %rd2, %rd3;\n  add.s64 %rd7, %rd1, %rd6;\n"
    "  add.s64 %rd8, %rd2, %rd6;\n"
    "  ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd4];\n"
    "  add.f32 %f5, %f1, %f4;\n  mul.f32 %f6, %f2, %f3;\n"
    "  st.global.v4.f32 [%rd5], {%f5, %f6, %f3, %f1};\n"
    "  ld.global.v4.s32 {%r2, %r3, %r4, %r5}, [%rd4];\n"
    "  ld.global.v4.f32 {%f7, _, %f8, %f9}, [%rd5];\n"
    "  ld.global.v2.u32 {%r6, %r7}, [%rd7];\n"
    "  add.s32 %r8, %r6, %r2;\n  xor.b32 %r9, %r7, %r3;\n"
    "  st.global.v2.u32 [%rd8+2048], {%r8, %r9};\n"
    "  ld.global.v2.u64 {%rd10, %rd11}, [%rd4];\n  cvt.u64.u32 %rd12, %r1;\n"
    "  add.s64 %rd13, %rd11, %rd12;\n"
    "  st.global.v2.u64 [%rd5+4096], {%rd11, %rd13};\n"
    "  st.global.v4.f32 [%rd5+6144], {%f1, %f2, %f3, %f4};\n"
    "  and.b32 %r10, %r1, 1;\n  setp.eq.u32 %p1, %r10, 0;\n  add.f32 %f10, %f4, 0f3F800000;\n"
    "  selp.f32 %f11, %f4, %f10, %p1;\n"
    "  st.global.v4.f32 [%rd5+6144], {%f1, %f2, %f3, %f11};\n"
    "  st.global.v4.s32 [%rd5+8192], {%r5, %r4, %r3, %r2};\n"
    "  mov.u32 %r11, sh;\n  shl.b32 %r12, %r1, 4;\n  add.s32 %r13, %r11, %r12;\n"
    "  st.shared.v4.f32 [%r13], {%f5, %f6, %f7, %f8};\n"
    "  bar.sync 0;\n"
    "  shl.b32 %r14, %r30, 4;\n  add.s32 %r15, %r11, %r14;\n"
    "  ld.shared.v4.f32 {%f12, %f13, %f14, %f15}, [%r15];\n"
    "  mul.lo.u32 %r16, %r1, 3;\n  and.b32 %r16, %r16, 127;\n  shl.b32 %r16, %r16, 3;\n"
    "  add.s32 %r17, %r11, %r16;\n"
    "  ld.shared.v2.f32 {%f16, %f17}, [%r17];\n"
    "  ld.shared.v4.f32 {%f18, _, %f19, _}, [%r13];\n"
    "  ld.shared.v2.u64 {%rd14, %rd15}, [%r15];\n"
    "  add.f32 %f20, %f12, %f16;\n  mul.f32 %f21, %f13, %f17;\n  sub.f32 %f22, %f14, %f18;\n"
    "  add.f32 %f23, %f15, %f19;\n"
    "  st.global.v4.f32 [%rd5+10240], {%f20, %f21, %f22, %f23};\n"
    "  st.global.v2.u64 [%rd5+12288], {%rd14, %rd15};\n"
    "  ret;\n}\n";
  /* (each twice, the offset 0 the first time; in vr, warp 1's alone: warp 0's first run of a
     global access finds its allocation, through sim_exec) */
  const char *vr =
    HDR
    ".visible .entry vr(.param .u64 in, .param .u64 out, .param .u32 off)\n{\n"
    "  .shared .align 16 .b8 sh[4096];\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<20>;\n  .reg .f32 %f<12>;\n  .reg .b64 %rd<12>;\n"
    "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n  ld.param.u32 %r7, [off];\n"
    "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd3, %r1, 16;\n  mov.u32 %r8, 0;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n  add.s64 %rd5, %rd2, %rd3;\n  add.s64 %rd5, %rd5, 2048;\n"
    "  setp.ge.u32 %p1, %r1, 32;\n  selp.u32 %r9, %r7, 0, %p1;\n"
    "again:\n"
    "  mul.lo.u32 %r2, %r9, %r8;\n  cvt.rn.f32.u32 %f11, %r8;\n"
    "  cvt.s64.s32 %rd6, %r2;\n  add.s64 %rd7, %rd5, %rd6;\n"
    "  ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd4];\n  add.f32 %f1, %f1, %f11;\n"
    "  st.global.v4.f32 [%rd5], {%f1, %f2, %f3, %f4};\n"
    "  ld.global.v4.f32 {%f5, %f6, %f7, %f8}, [%rd7];\n"
    "  mov.u32 %r3, sh;\n  shl.b32 %r4, %r1, 4;\n  add.s32 %r5, %r3, %r4;\n"
    "  add.s32 %r5, %r5, 1024;\n  add.s32 %r6, %r5, %r2;\n"
    "  st.shared.v4.f32 [%r5], {%f5, %f6, %f7, %f8};\n"
    "  ld.shared.v4.f32 {%f9, %f10, %f1, %f2}, [%r6];\n"
    "  st.global.v4.f32 [%rd5+4096], {%f9, %f10, %f1, %f2};\n"
    "  add.u32 %r8, %r8, 1;\n  setp.lt.u32 %p1, %r8, 2;\n  @%p1 bra again;\n"
    "  ret;\n}\n";
  const char *vs =
    HDR
    ".visible .entry vs(.param .u64 in, .param .u64 out, .param .u32 off)\n{\n"
    "  .shared .align 16 .b8 sh[4096];\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<20>;\n  .reg .f32 %f<12>;\n  .reg .b64 %rd<12>;\n"
    "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n  ld.param.u32 %r7, [off];\n"
    "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd3, %r1, 16;\n  mov.u32 %r8, 0;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n  add.s64 %rd5, %rd2, %rd3;\n"
    "again:\n"
    "  mul.lo.u32 %r2, %r7, %r8;\n  cvt.rn.f32.u32 %f11, %r8;\n"
    "  ld.global.v4.f32 {%f5, %f6, %f7, %f8}, [%rd4];\n  add.f32 %f5, %f5, %f11;\n"
    "  mov.u32 %r3, sh;\n  shl.b32 %r4, %r1, 4;\n  add.s32 %r5, %r3, %r4;\n"
    "  add.s32 %r5, %r5, 1024;\n  add.s32 %r6, %r5, %r2;\n"
    "  st.shared.v4.f32 [%r5], {%f5, %f6, %f7, %f8};\n"
    "  and.b32 %r9, %r1, 1;\n  setp.eq.u32 %p2, %r9, 1;\n  add.f32 %f3, %f8, 0f3F800000;\n"
    "  selp.f32 %f4, %f3, %f8, %p2;\n"
    "  st.shared.v4.f32 [%r5], {%f5, %f6, %f7, %f4};\n"
    "  ld.shared.v4.f32 {%f9, %f10, %f1, %f2}, [%r6];\n"
    "  st.global.v4.f32 [%rd5+4096], {%f9, %f10, %f1, %f2};\n"
    "  add.u32 %r8, %r8, 1;\n  setp.lt.u32 %p1, %r8, 2;\n  @%p1 bra again;\n"
    "  ret;\n}\n";
  const char *vw =
    HDR
    ".visible .entry vw(.param .u64 in, .param .u64 out, .param .u32 off)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<20>;\n  .reg .f32 %f<12>;\n  .reg .b64 %rd<12>;\n"
    "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n  ld.param.u32 %r7, [off];\n"
    "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd3, %r1, 16;\n  mov.u32 %r8, 0;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n"
    "again:\n"
    "  mul.lo.u32 %r2, %r7, %r8;\n  cvt.rn.f32.u32 %f11, %r8;\n"
    "  mul.wide.u32 %rd10, %r8, 2048;\n  add.s64 %rd5, %rd2, %rd10;\n  add.s64 %rd5, %rd5, %rd3;\n"
    "  cvt.s64.s32 %rd6, %r2;\n  add.s64 %rd7, %rd5, %rd6;\n"
    "  ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd4];\n  add.f32 %f1, %f1, %f11;\n"
    "  st.global.v4.f32 [%rd5], {%f1, %f2, %f3, %f4};\n"
    "  setp.lt.u32 %p1, %r1, 53;\n  add.f32 %f5, %f4, 0f3F800000;\n"
    "  selp.f32 %f6, %f5, %f4, %p1;\n"
    "  setp.lt.u32 %p1, %r1, 60;\n  add.f32 %f8, %f2, 0f3F800000;\n"
    "  selp.f32 %f9, %f8, %f2, %p1;\n"
    "  st.global.v4.f32 [%rd5], {%f1, %f9, %f3, %f6};\n"
    "  setp.ge.u32 %p2, %r1, 52;\n"
    "  @%p2 ld.global.f32 %f7, [%rd7];\n"
    "  mul.wide.u32 %rd8, %r1, 4;\n  add.s64 %rd9, %rd2, %rd8;\n"
    "  st.global.f32 [%rd9+8192], %f7;\n"
    "  add.u32 %r8, %r8, 1;\n  setp.lt.u32 %p3, %r8, 2;\n  @%p3 bra again;\n"
    "  ret;\n}\n";
  const char *vb =
    HDR
    ".visible .entry vb(.param .u64 in, .param .u64 out, .param .u32 off)\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<20>;\n  .reg .f32 %f<12>;\n  .reg .b64 %rd<12>;\n"
    "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n  ld.param.u32 %r7, [off];\n"
    "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd3, %r1, 16;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n  add.s64 %rd5, %rd2, %rd3;\n"
    "  setp.ge.u32 %p1, %r1, 32;\n  selp.u32 %r9, %r7, 0, %p1;\n"
    "  cvt.s64.s32 %rd6, %r9;\n  add.s64 %rd7, %rd5, %rd6;\n"
    "  and.b32 %r10, %r1, 31;\n  setp.lt.u32 %p2, %r10, 24;\n"
    "  ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd4];\n"
    "  st.global.v4.f32 [%rd5], {%f1, %f2, %f3, %f4};\n"
    "  bar.sync 0;\n"
    "  add.f32 %f5, %f1, 0f3F800000;\n  selp.f32 %f6, %f1, %f5, %p2;\n"
    "  st.global.v4.f32 [%rd5], {%f6, %f2, %f3, %f4};\n"
    "  ld.global.v4.f32 {%f7, %f8, %f9, %f10}, [%rd7];\n"
    "  st.global.v4.f32 [%rd5+4096], {%f7, %f8, %f9, %f10};\n"
    "  ret;\n}\n";
  const char *v2[2] = {
    HDR
    ".visible .entry v2(.param .u64 in, .param .u64 out, .param .u32 off)\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<20>;\n  .reg .b64 %rd<12>;\n"
    "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n  ld.param.u32 %r7, [off];\n"
    "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd3, %r1, 8;\n  mov.u32 %r8, 0;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n  add.s64 %rd5, %rd2, %rd3;\n"
    "  setp.ge.u32 %p1, %r1, 32;\n  selp.u32 %r9, %r7, 0, %p1;\n"
    "  and.b32 %r10, %r1, 1;\n  setp.eq.u32 %p2, %r10, 1;\n"
    "again:\n"
    "  mul.lo.u32 %r2, %r9, %r8;\n  cvt.s64.s32 %rd6, %r2;\n  add.s64 %rd7, %rd5, %rd6;\n"
    "  ld.global.v2.u32 {%r3, %r4}, [%rd4];\n  add.s32 %r3, %r3, %r8;\n"
    "  st.global.v2.u32 [%rd5], {%r3, %r4};\n"
    "  add.s32 %r5, %r4, 1;\n  selp.b32 %r6, %r5, %r4, %p2;\n"
    "  st.global.v2.u32 [%rd5], {%r3, %r6};\n"
    "  ld.global.v2.u32 {%r11, %r12}, [%rd7];\n"
    "  st.global.v2.u32 [%rd5+4096], {%r12, %r11};\n"
    "  add.u32 %r8, %r8, 1;\n  setp.lt.u32 %p1, %r8, 2;\n  @%p1 bra again;\n"
    "  ret;\n}\n",
    HDR
    ".visible .entry v2(.param .u64 in, .param .u64 out, .param .u32 off)\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<20>;\n  .reg .b64 %rd<24>;\n"
    "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n  ld.param.u32 %r7, [off];\n"
    "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd3, %r1, 16;\n  mov.u32 %r8, 0;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n  add.s64 %rd5, %rd2, %rd3;\n"
    "  setp.ge.u32 %p1, %r1, 32;\n  selp.u32 %r9, %r7, 0, %p1;\n"
    "  and.b32 %r10, %r1, 1;\n  setp.eq.u32 %p2, %r10, 1;\n"
    "again:\n"
    "  mul.lo.u32 %r2, %r9, %r8;\n  cvt.s64.s32 %rd6, %r2;\n  add.s64 %rd7, %rd5, %rd6;\n"
    "  ld.global.v2.u64 {%rd13, %rd14}, [%rd4];\n  cvt.u64.u32 %rd15, %r8;\n"
    "  add.s64 %rd13, %rd13, %rd15;\n"
    "  st.global.v2.u64 [%rd5], {%rd13, %rd14};\n"
    "  add.s64 %rd16, %rd14, 1;\n  selp.b64 %rd17, %rd16, %rd14, %p2;\n"
    "  st.global.v2.u64 [%rd5], {%rd13, %rd17};\n"
    "  ld.global.v2.u64 {%rd18, %rd19}, [%rd7];\n"
    "  st.global.v2.u64 [%rd5+4096], {%rd19, %rd18};\n"
    "  add.u32 %r8, %r8, 1;\n  setp.lt.u32 %p1, %r8, 2;\n  @%p1 bra again;\n"
    "  ret;\n}\n"};
  vx_compare(vx, "vx", 0, 0, 0);
  vx_compare(vx, "vx", 37, 0, 0);
  vx_compare(vx, "vx", 37, 0, SIM_NOCHECK_RACE); /* no race check */
  vx_compare(vr, "vr", 16, 0, SIM_NOCHECK_RACE | SIM_NOCHECK_INIT);
  vx_compare(vw, "vw", 28, 0, SIM_NOCHECK_RACE);     /* (this thread's table kept: unused) */
  vx_compare(vr, "vr", 0, 0, 0);
  vx_compare(vr, "vr", 16, 1, 0);                    /* a lane's neighbour's, global first */
  vx_compare(vr, "vr", (uint32_t)-512, 1, 0);        /* the warp before's */
  vx_compare(vr, "vr", (uint32_t)-16, 1, 0);
  vx_compare(vs, "vs", 0, 0, 0);
  vx_compare(vs, "vs", 16, 1, 0);                    /* shared: a lane's neighbour's */
  vx_compare(vs, "vs", 32, 1, 0);                    /* (written the second time alike) */
  vx_compare(vs, "vs", (uint32_t)-512, 1, 0);
  vx_compare(vw, "vw", 28, 1, 0);                    /* word 3 of the next lane's vector */
  vx_compare(vw, "vw", 20, 1, 0);
  vx_compare(vw, "vw", (uint32_t)-4, 1, 0);
  vx_compare(vw, "vw", (uint32_t)-20, 1, 0);
  vx_compare(vw, "vw", 92, 1, 0);                    /* (from lane 25's on: the last chunk) */
  vx_compare(vb, "vb", 16, 1, 0);
  vx_compare(vb, "vb", 0, 0, 0);
  for (int i = 0; i < 2; i++) {
    vx_compare(v2[i], "v2", 0, 0, 0);
    vx_compare(v2[i], "v2", 8u << i, 1, 0);
    vx_compare(v2[i], "v2", 16u << i, 1, 0);
    vx_compare(v2[i], "v2", (uint32_t)-(8 << i), 1, 0);
  }
}
END_TEST

/* The fast kinds a partial warp runs through sim_exec_run (the lanes of a branch) against
   sim_exec for the same lanes: section A runs every kind guarded by %p1 (never fast: sim_exec
   with the guard's lanes), section B the same instructions unguarded behind "@!%p1 bra" (the
   lanes of %p1 as a partial group, sim_exec_run). Their destinations start from the same
   per-thread values; both must end equal in every thread (the others' registers and shared
   words left as they were), and B's counts must be A's lanes: threads and pred_on the lanes
   of %p1, and the same shared requests and wavefronts. Masks: warp 0 every lane, warp 1 one
   lane, the rest random, for four seeds. */
#define PM_N 23                          /* instructions in each section */
static const char *const pm_inst[PM_N] = {
  /* %s: the section's letter (a or b), %s again where a second one is needed */
  "mov.b32 %%r%s0, %%r3;", "add.s32 %%r%s1, %%r3, %%r4;", "add.f32 %%f%s0, %%f1, %%f2;",
  "mul.wide.u32 %%d%s0, %%r3, %%r4;", "fma.rn.f32 %%f%s1, %%f1, %%f2, %%f1;",
  "setp.lt.s32 %%p%s0, %%r3, %%r4;", "setp.hi.u64 %%p%s1, %%rd8, %%rd9;",
  "min.s32 %%r%s2, %%r3, %%r4;", "sub.s64 %%d%s1, %%rd8, %%rd9;",
  "shl.b64 %%d%s2, %%rd8, %%r4;", "cvt.s64.s32 %%d%s3, %%r3;", "not.pred %%p%s2, %%p2;",
  "selp.u32 %%r%s3, %%r3, %%r4, %%p2;", "mad.lo.s32 %%r%s4, %%r3, %%r4, %%r1;",
  "mov.u32 %%r%s5, %%laneid;", "mov.u32 %%r%s6, %%tid.x;", "mov.u32 %%r%s7, %%ctaid.x;",
  "cvta.shared.u64 %%d%s4, %%rd10;", "ld.shared.u32 %%r%s8, [%%r9];",
  "ld.shared.u32 %%r%s9, [s+8];", "ld.param.u64 %%d%s5, [a];",
  "st.shared.u32 [%%r1%s], %%r4;", "ld.shared.u16 %%h%s0, [%%r9+2];",
};

/* The PTX of kernel "pm" into buf. */
static void pm_kernel(char *buf, size_t n)
{
  size_t o = (size_t)snprintf(buf, n,
    HDR
    ".visible .entry pm(.param .u64 sel, .param .u64 a, .param .u64 out)\n{\n"
    "  .shared .align 8 .b8 s[1024];\n  .shared .align 4 .b8 sa[1024];\n"
    "  .shared .align 4 .b8 sb[1024];\n"
    "  .reg .pred %%p<4>;\n  .reg .pred %%pa<3>;\n  .reg .pred %%pb<3>;\n"
    "  .reg .b32 %%r<16>;\n  .reg .b32 %%ra<10>;\n  .reg .b32 %%rb<10>;\n"
    "  .reg .b32 %%r1a, %%r1b;\n"
    "  .reg .b16 %%ha<1>;\n  .reg .b16 %%hb<1>;\n"
    "  .reg .f32 %%f<4>;\n  .reg .f32 %%fa<2>;\n  .reg .f32 %%fb<2>;\n"
    "  .reg .b64 %%rd<16>;\n  .reg .b64 %%da<6>;\n  .reg .b64 %%db<6>;\n"
    "  mov.u32 %%r1, %%tid.x;\n"
    "  ld.param.u64 %%rd1, [sel];\n  ld.param.u64 %%rd2, [a];\n  ld.param.u64 %%rd3, [out];\n"
    "  mul.wide.u32 %%rd4, %%r1, 4;\n  add.s64 %%rd5, %%rd1, %%rd4;\n"
    "  ld.global.u32 %%r2, [%%rd5];\n  setp.ne.u32 %%p1, %%r2, 0;\n"
    "  mul.wide.u32 %%rd6, %%r1, 8;\n  add.s64 %%rd7, %%rd2, %%rd6;\n"
    "  ld.global.u64 %%rd8, [%%rd7];\n  xor.b64 %%rd9, %%rd8, -7046029254386353131;\n"
    "  cvt.u32.u64 %%r3, %%rd8;\n  shr.u64 %%rd11, %%rd8, 32;\n  cvt.u32.u64 %%r4, %%rd11;\n"
    "  mov.b32 %%f1, %%r3;\n  mov.b32 %%f2, %%r4;\n  setp.gt.u32 %%p2, %%r3, %%r4;\n"
    "  mov.u32 %%r5, s;\n  shl.b32 %%r6, %%r1, 2;\n  add.s32 %%r7, %%r5, %%r6;\n"
    "  st.shared.u32 [%%r7], %%r3;\n"
    "  mov.u32 %%r10, sa;\n  add.s32 %%r1a, %%r10, %%r6;\n  st.shared.u32 [%%r1a], %%r1;\n"
    "  mov.u32 %%r11, sb;\n  add.s32 %%r1b, %%r11, %%r6;\n  st.shared.u32 [%%r1b], %%r1;\n"
    "  bar.sync 0;\n"
    "  and.b32 %%r8, %%r4, 255;\n  shl.b32 %%r8, %%r8, 2;\n  add.s32 %%r9, %%r5, %%r8;\n"
    "  cvt.u64.u32 %%rd10, %%r9;\n  mul.lo.u32 %%r12, %%r1, 7;\n"
    "  add.s32 %%r12, %%r12, 1515847680;\n  cvt.u64.u32 %%rd12, %%r12;\n"
    "  cvt.rn.f32.u32 %%f3, %%r12;\n  setp.eq.u32 %%p3, %%r12, 0;\n");
  /* every destination of both sections starts from the same per-thread value */
  for (int s = 0; s < 2; s++) {
    const char *x = s ? "b" : "a";
    for (int j = 0; j < 10; j++)
      o += (size_t)snprintf(buf + o, n - o, "  mov.u32 %%r%s%d, %%r12;\n", x, j);
    for (int j = 0; j < 6; j++)
      o += (size_t)snprintf(buf + o, n - o, "  mov.u64 %%d%s%d, %%rd12;\n", x, j);
    for (int j = 0; j < 2; j++)
      o += (size_t)snprintf(buf + o, n - o, "  mov.f32 %%f%s%d, %%f3;\n", x, j);
    for (int j = 0; j < 3; j++)
      o += (size_t)snprintf(buf + o, n - o, "  mov.pred %%p%s%d, %%p3;\n", x, j);
    o += (size_t)snprintf(buf + o, n - o, "  cvt.u16.u32 %%h%s0, %%r12;\n", x);
  }
  /* A: guarded; B: behind the branch */
  for (int s = 0; s < 2; s++) {
    const char *x = s ? "b" : "a";
    if (s)
      o += (size_t)snprintf(buf + o, n - o, "  @!%%p1 bra SKIP;\n");
    for (int i = 0; i < PM_N; i++) {
      char one[128];
      snprintf(one, sizeof one, pm_inst[i], x, x);
      o += (size_t)snprintf(buf + o, n - o, "  %s%s\n", s ? "" : "@%p1 ", one);
    }
    if (s)
      o += (size_t)snprintf(buf + o, n - o, "SKIP:\n");
  }
  /* out[tid]: A's 26 values, then B's, 8 bytes each */
  o += (size_t)snprintf(buf + o, n - o,
    "  bar.sync 0;\n"
    "  mul.wide.u32 %%rd13, %%r1, 416;\n  add.s64 %%rd14, %%rd3, %%rd13;\n");
  for (int s = 0; s < 2; s++) {
    const char *x = s ? "b" : "a";
    unsigned base = s ? 208u : 0u, k = 0;
    for (int j = 0; j < 10; j++, k++)
      o += (size_t)snprintf(buf + o, n - o, "  cvt.u64.u32 %%rd15, %%r%s%d;\n"
                            "  st.global.u64 [%%rd14+%u], %%rd15;\n", x, j, base + 8 * k);
    for (int j = 0; j < 6; j++, k++)
      o += (size_t)snprintf(buf + o, n - o, "  st.global.u64 [%%rd14+%u], %%d%s%d;\n",
                            base + 8 * k, x, j);
    for (int j = 0; j < 2; j++, k++)
      o += (size_t)snprintf(buf + o, n - o, "  mov.b32 %%r13, %%f%s%d;\n"
                            "  cvt.u64.u32 %%rd15, %%r13;\n"
                            "  st.global.u64 [%%rd14+%u], %%rd15;\n", x, j, base + 8 * k);
    for (int j = 0; j < 3; j++, k++)
      o += (size_t)snprintf(buf + o, n - o, "  selp.u32 %%r13, 1, 0, %%p%s%d;\n"
                            "  cvt.u64.u32 %%rd15, %%r13;\n"
                            "  st.global.u64 [%%rd14+%u], %%rd15;\n", x, j, base + 8 * k);
    o += (size_t)snprintf(buf + o, n - o, "  cvt.u64.u16 %%rd15, %%h%s0;\n"
                          "  st.global.u64 [%%rd14+%u], %%rd15;\n"
                          "  ld.shared.u32 %%r13, [%%r1%s];\n  cvt.u64.u32 %%rd15, %%r13;\n"
                          "  st.global.u64 [%%rd14+%u], %%rd15;\n", x, base + 8 * k, x,
                          base + 8 * (k + 1));
    k += 2;
    ck_assert_uint_le(8 * k, 208);
  }
  o += (size_t)snprintf(buf + o, n - o, "  ret;\n}\n");
  ck_assert_uint_lt(o, n);
}

START_TEST(test_fast_path_partial_warps)
{
  static char k[16384];
  pm_kernel(k, sizeof k);
  enum { NT = 256 };
  struct fx f;
  load(&f, k);
  /* the module's sections: A from the first guarded instruction, B after the branch */
  uint32_t a0 = UINT32_MAX, b0 = UINT32_MAX;
  for (uint32_t i = 0; i < f.m.ninsts; i++) {
    if (a0 == UINT32_MAX && f.m.insts[i].guard != PTX_NOREG && f.m.insts[i].op != PTX_OP_BRA)
      a0 = i;
    if (f.m.insts[i].op == PTX_OP_BRA && f.m.insts[i].guard != PTX_NOREG)
      b0 = i + 1;
  }
  ck_assert_uint_ne(a0, UINT32_MAX);
  ck_assert_uint_ne(b0, UINT32_MAX);
  for (unsigned i = 0; i < PM_N; i++)
    ck_assert_uint_eq(f.m.insts[a0 + i].op, f.m.insts[b0 + i].op);
  uint64_t p[3] = {buffer(&f, NT * 4, "sel"), buffer(&f, NT * 8, "a"),
                   buffer(&f, NT * 416, "out")};
  static uint64_t out[NT][52];
  uint64_t rng = 0x243F6A8885A308D3ull;
  for (unsigned seed = 0; seed < 4; seed++) {
    uint32_t sel[NT];
    uint64_t a[NT];
    unsigned nsel = 0, nwarps = 0;
    for (unsigned t = 0; t < NT; t++) {
      uint64_t r = sim_order_next(&rng);
      a[t] = sim_order_next(&rng);
      if (t % 5 == 0)
        a[t] &= 0xffffffff8000ffffull;          /* some equal halves, some NaN-free floats */
      sel[t] = t < 32 ? 1 : t < 64 ? t == 32 + seed * 7 : (r % 100) < 30 + 10 * seed;
    }
    for (unsigned wi = 0; wi < NT / 32; wi++) {
      unsigned c = 0;
      for (unsigned l = 0; l < 32; l++)
        c += sel[wi * 32 + l];
      if (!c)
        sel[wi * 32 + 5] = c = 1;                /* every warp takes the branch */
      nsel += c;
      nwarps++;
    }
    ck_assert_int_eq(sim_write(f.d, p[0], sel, sizeof sel), SIM_OK);
    ck_assert_int_eq(sim_write(f.d, p[1], a, sizeof a), SIM_OK);
    ck_assert_int_eq(launch(&f, "pm", 1, NT, p, 3, SIM_SCHED_ITS, 1, 0), SIM_OK);
    ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
    ck_assert_int_eq(sim_read(f.d, p[2], out, sizeof out), SIM_OK);
    for (unsigned t = 0; t < NT; t++)
      for (unsigned j = 0; j < 26; j++)
        ck_assert_msg(out[t][j] == out[t][26 + j], "seed %u, thread %u (%s), value %u: "
                      "guarded 0x%" PRIx64 ", branched 0x%" PRIx64, seed, t,
                      sel[t] ? "on" : "off", j, out[t][j], out[t][26 + j]);
    for (unsigned i = 0; i < PM_N; i++) {
      const struct sim_inst_stats *sa = &f.r.stats[a0 + i], *sb = &f.r.stats[b0 + i];
      ck_assert_uint_eq(sa->pred_on, nsel);
      ck_assert_msg(sb->threads == nsel && sb->pred_on == nsel && sb->execs == nwarps,
                    "seed %u, instruction %u: threads %" PRIu64 ", pred_on %" PRIu64
                    ", execs %" PRIu64 "; want %u, %u", seed, i, sb->threads, sb->pred_on,
                    sb->execs, nsel, nwarps);
      ck_assert_uint_eq(sa->s_req, sb->s_req);
      ck_assert_uint_eq(sa->s_wavefronts, sb->s_wavefronts);
      ck_assert_uint_eq(sa->s_ideal, sb->s_ideal);
    }
  }
  done(&f);
}
END_TEST

/* shfl.sync in every mode, unguarded (sim_exec_shfl) against the same shuffle guarded by a
   predicate true in every lane (sim_exec): per-lane values, source lanes and clamp/segment
   operands from a table (seeds 6 and 7: in odd warps one lane's clamp/segment operand not
   the others', the offset uniform), run by full warps and by the random lanes of a branch (membermask:
   activemask); the results, their predicates and the counts must agree. */
static const char *k_shfl_modes =
  HDR
  ".visible .entry sh(.param .u64 in, .param .u64 out)\n{\n"
  "  .reg .pred %p<12>;\n  .reg .b32 %r<40>;\n  .reg .b64 %rd<8>;\n"
  "  mov.u32 %r1, %tid.x;\n  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n"
  "  mul.wide.u32 %rd3, %r1, 16;\n  add.s64 %rd4, %rd1, %rd3;\n"
  "  ld.global.u32 %r2, [%rd4];\n  ld.global.u32 %r3, [%rd4+4];\n"
  "  ld.global.u32 %r4, [%rd4+8];\n  ld.global.u32 %r5, [%rd4+12];\n"
  "  setp.eq.u32 %p9, %r1, %r1;\n  setp.ne.u32 %p10, %r5, 0;\n  setp.eq.u32 %p11, %r1, 999;\n"
  "  mov.u32 %r10, %r1;\n  mov.u32 %r11, %r1;\n  mov.u32 %r12, %r1;\n  mov.u32 %r13, %r1;\n"
  "  mov.u32 %r20, %r1;\n  mov.u32 %r21, %r1;\n  mov.u32 %r22, %r1;\n  mov.u32 %r23, %r1;\n"
  "  mov.pred %p1, %p11;\n  mov.pred %p2, %p11;\n  mov.pred %p3, %p11;\n  mov.pred %p4, %p11;\n"
  "  mov.pred %p5, %p11;\n  mov.pred %p6, %p11;\n  mov.pred %p7, %p11;\n  mov.pred %p8, %p11;\n"
  "  @!%p10 bra SKIP;\n"
  "  activemask.b32 %r6;\n"
  "  shfl.sync.up.b32 %r10|%p1, %r2, %r3, %r4, %r6;\n"
  "  shfl.sync.down.b32 %r11|%p2, %r2, %r3, %r4, %r6;\n"
  "  shfl.sync.bfly.b32 %r12|%p3, %r2, %r3, %r4, %r6;\n"
  "  shfl.sync.idx.b32 %r13|%p4, %r2, %r3, %r4, %r6;\n"
  "  @%p9 shfl.sync.up.b32 %r20|%p5, %r2, %r3, %r4, %r6;\n"
  "  @%p9 shfl.sync.down.b32 %r21|%p6, %r2, %r3, %r4, %r6;\n"
  "  @%p9 shfl.sync.bfly.b32 %r22|%p7, %r2, %r3, %r4, %r6;\n"
  "  @%p9 shfl.sync.idx.b32 %r23|%p8, %r2, %r3, %r4, %r6;\n"
  "SKIP:\n"
  "  mul.wide.u32 %rd5, %r1, 64;\n  add.s64 %rd6, %rd2, %rd5;\n"
  "  st.global.u32 [%rd6], %r10;\n  st.global.u32 [%rd6+4], %r11;\n"
  "  st.global.u32 [%rd6+8], %r12;\n  st.global.u32 [%rd6+12], %r13;\n"
  "  selp.u32 %r30, 1, 0, %p1;\n  st.global.u32 [%rd6+16], %r30;\n"
  "  selp.u32 %r30, 1, 0, %p2;\n  st.global.u32 [%rd6+20], %r30;\n"
  "  selp.u32 %r30, 1, 0, %p3;\n  st.global.u32 [%rd6+24], %r30;\n"
  "  selp.u32 %r30, 1, 0, %p4;\n  st.global.u32 [%rd6+28], %r30;\n"
  "  st.global.u32 [%rd6+32], %r20;\n  st.global.u32 [%rd6+36], %r21;\n"
  "  st.global.u32 [%rd6+40], %r22;\n  st.global.u32 [%rd6+44], %r23;\n"
  "  selp.u32 %r30, 1, 0, %p5;\n  st.global.u32 [%rd6+48], %r30;\n"
  "  selp.u32 %r30, 1, 0, %p6;\n  st.global.u32 [%rd6+52], %r30;\n"
  "  selp.u32 %r30, 1, 0, %p7;\n  st.global.u32 [%rd6+56], %r30;\n"
  "  selp.u32 %r30, 1, 0, %p8;\n  st.global.u32 [%rd6+60], %r30;\n"
  "  ret;\n}\n";

START_TEST(test_shfl_fast_matches_sim_exec)
{
  enum { NT = 256 };
  static const uint32_t cs[] = {0x1f, 0x0, 0x0f, 0x181f, 0x101f, 0x1c1f, 0x7, 0x1e00};
  struct fx f;
  load(&f, k_shfl_modes);
  uint32_t first = UINT32_MAX;                  /* the first shfl: the unguarded four, then
                                                   the guarded four */
  for (uint32_t i = 0; i < f.m.ninsts && first == UINT32_MAX; i++)
    if (f.m.insts[i].op == PTX_OP_SHFL)
      first = i;
  ck_assert_uint_ne(first, UINT32_MAX);
  uint64_t p[2] = {buffer(&f, NT * 16, "in"), buffer(&f, NT * 64, "out")};
  uint64_t rng = 0x13198A2E03707344ull;
  /* seeds 4 to 9: one lane offset per warp, as a constant offset gives, for the full warps'
     path of a warp-uniform offset and clamp (warps 0, 3 and 7 take the branch whole); seeds
     8 and 9: clamp 31 and no segments in every warp (shfl.down's and shfl.bfly's own paths,
     shfl_down31_avx2 and shfl_bfly31_avx2) */
  for (unsigned seed = 0; seed < 10; seed++) {
    static uint32_t in[NT][4], out[NT][16];
    uint32_t wb[NT / 32];
    unsigned nsel = 0;
    for (unsigned k = 0; k < NT / 32; k++) {
      uint64_t r = sim_order_next(&rng);
      wb[k] = (uint32_t)(r & 0x3f) | (seed & 1 ? 0 : (uint32_t)(r >> 40) << 6);
    }
    for (unsigned t = 0; t < NT; t++) {
      uint64_t r = sim_order_next(&rng);
      in[t][0] = (uint32_t)sim_order_next(&rng);
      in[t][1] = seed >= 4 ? wb[t / 32]
                 : (uint32_t)(r & 0x3f) | (seed & 1 ? 0 : (uint32_t)(r >> 40) << 6);
      in[t][2] = seed >= 8 ? 0x1f : cs[(t / 32 + seed) % 8];  /* one per warp */
      if ((seed == 6 || seed == 7) && (t / 32) % 2 && t % 32 == 9)
        in[t][2] = cs[(t / 32 + seed + 1) % 8]; /* but one lane's, under a uniform offset */
      in[t][3] = t < 32 || (t / 32) % 4 == 3 ? 1 : ((r >> 20) % 100) < 40 + 15 * (seed % 4);
      if (t % 32 == 7)
        in[t][3] = 1;                           /* every warp takes the branch */
      nsel += in[t][3];
    }
    ck_assert_int_eq(sim_write(f.d, p[0], in, sizeof in), SIM_OK);
    ck_assert_int_eq(launch(&f, "sh", 1, NT, p, 2, SIM_SCHED_ITS, 1, 0), SIM_OK);
    ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
    ck_assert_int_eq(sim_read(f.d, p[1], out, sizeof out), SIM_OK);
    for (unsigned t = 0; t < NT; t++)
      for (unsigned j = 0; j < 8; j++)
        ck_assert_msg(out[t][j] == out[t][8 + j], "seed %u, thread %u, value %u: unguarded "
                      "0x%08x, guarded 0x%08x", seed, t, j, out[t][j], out[t][8 + j]);
    for (unsigned i = 0; i < 4; i++) {
      const struct sim_inst_stats *su = &f.r.stats[first + i], *sg = &f.r.stats[first + 4 + i];
      ck_assert_uint_eq(su->threads, nsel);
      ck_assert_uint_eq(su->pred_on, nsel);
      ck_assert_uint_eq(sg->pred_on, nsel);
      ck_assert_uint_eq(su->execs, sg->execs);
    }
  }
  done(&f);
}
END_TEST

/* Every thread of two warps stores 1 into one flag, then all read it after a barrier: stores
   that leave the word as it is are no hazard. */
START_TEST(test_same_value_stores_are_no_race)
{
  const char *k =
    HDR
    ".visible .entry flag(.param .u64 out)\n{\n"
    "  .shared .align 4 .b8 s[4];\n"
    "  .reg .b32 %r<12>;\n  .reg .b64 %rd<4>;\n"
    "  mov.u32 %r4, s;\n  mov.u32 %r1, 1;\n"
    "  st.shared.u32 [%r4], %r1;\n"
    "  bar.sync 0;\n"
    "  ld.shared.u32 %r9, [%r4];\n"
    "  ld.param.u64 %rd1, [out];\n  st.global.u32 [%rd1], %r9;\n"
    "  ret;\n}\n";
  struct fx f;
  load(&f, k);
  uint64_t out = buffer(&f, 4, "out");
  ck_assert_int_eq(launch(&f, "flag", 1, 64, &out, 1, SIM_SCHED_ITS, 1, 0), SIM_OK);
  ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
  done(&f);
}
END_TEST

/* shfl.sync.down with mask 0x0000ffff called by all 32 lanes: lane 16 is not in its mask. A
   full mask after lanes 16-31 exited names lanes that never arrive: lanes 0-15 reach the
   shfl first and wait (1), or lanes 16-31 exit first and lanes 0-15 then call it with a mask,
   the same in every lane, that names them (3). */
START_TEST(test_sync_masks)
{
  static const char *const body[4] = {
    "  shfl.sync.down.b32 %r2, %r1, 1, 31, 65535;\n",
    "  setp.ge.u32 %p1, %r1, 16;\n  @%p1 bra END;\n  shfl.sync.down.b32 %r2, %r1, 1, 31, -1;\n",
    "  setp.ge.u32 %p1, %r1, 16;\n  @%p1 bra END;\n  shfl.sync.down.b32 %r2, %r1, 1, 31, 65535;\n",
    "  setp.lt.u32 %p1, %r1, 16;\n  @%p1 bra WORK;\n  ret;\nWORK:\n"
    "  shfl.sync.down.b32 %r2, %r1, 1, 31, -1;\n",
  };
  for (int i = 0; i < 4; i++) {
    char k[1024];
    snprintf(k, sizeof k,
             HDR
             ".visible .entry m(.param .u64 out)\n{\n"
             "  .reg .pred %%p<2>;\n  .reg .b32 %%r<4>;\n  .reg .b64 %%rd<4>;\n"
             "  mov.u32 %%r1, %%tid.x;\n"
             "  .loc 1 4 3\n"
             "%s"
             "  ld.param.u64 %%rd1, [out];\n  st.global.u32 [%%rd1], %%r2;\n"
             "END:\n  ret;\n}\n"
             ".file 1 \"/lab/m.cu\"\n", body[i]);
    struct fx f;
    load(&f, k);
    uint64_t out = buffer(&f, 4, "out");
    ck_assert_int_eq(launch(&f, "m", 1, 32, &out, 1, SIM_SCHED_ITS, 1, 0), SIM_OK);
    if (i == 2) {
      ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
    } else {
      ck_assert_int_eq(f.r.fault.kind, SIM_FK_SYNC_MASK);
      ck_assert_str_eq(sim_fault_kind_name(f.r.fault.kind), "sync_mask");
      ck_assert_uint_eq(line_of(&f, f.r.fault.inst), 4);
      ck_assert_msg(strstr(f.r.fault.message, i == 0 ? "leaves out the calling lane"
                                              : i == 3 ? "lanes 16-31 of the warp, and they have exited"
                                                       : "lanes 16-31"), "%s",
                    f.r.fault.message);
      if (i == 0)
        ck_assert_uint_eq(f.r.fault.lane, 16);
    }
    done(&f);
  }
}
END_TEST

/* Kernel k's entry `name` launched as c on a fresh device twice, the test switch *sw (one of
   the emulator's *_shortcuts) set to 0 (the general path), then 1 (the shortcuts): each run's
   result into r[0] and r[1] (the caller frees them) and its one buffer argument, of `bytes`
   bytes, read back into got0 and got1. *sw is 1 after. */
static void run_switched(const char *k, const char *name, const struct sim_launch *c, int *sw,
                         struct sim_result r[2], void *got0, void *got1, size_t bytes)
{
  void *got[2] = {got0, got1};
  for (int sc = 0; sc < 2; sc++) {
    struct fx f;
    load(&f, k);
    uint64_t out = buffer(&f, bytes, "out");
    *sw = sc;
    ck_assert_int_eq(sim_run(f.d, &f.m, name, &out, 8, c, &f.r, f.err, sizeof f.err), SIM_OK);
    *sw = 1;
    r[sc] = f.r;
    memset(&f.r, 0, sizeof f.r);
    ck_assert_int_eq(sim_read(f.d, out, got[sc], bytes), SIM_OK);
    done(&f);
  }
}

/* sim_race_check_quiet over a test's runs: quiet_begin() turns it on; quiet_end(min) turns
   it off and asserts that no word's reads were taken as quiet without the summary that makes
   them so, and that at least min words (over all the barriers) were taken so rightly. */
static void quiet_begin(void)
{
  sim_race_check_quiet = 1;
  sim_race_quiet_bad = sim_race_quiet_seen = 0;
}

static void quiet_end(unsigned long min)
{
  sim_race_check_quiet = 0;
  ck_assert_uint_eq(sim_race_quiet_bad, 0);
  ck_assert_uint_ge(sim_race_quiet_seen, min);
}

/* The two runs of run_switched (the race checker's general path, then its shortcuts) must
   agree: outcome, fault (kind, message, lane, the other instruction and thread), the
   warp-instructions and the buffer read back (bytes at got0, got1). Counts the run as a race
   (*races) or a clean one (*clean), and frees both results. */
static void same_race_runs(struct sim_result r[2], const void *got0, const void *got1,
                           size_t bytes, unsigned *races, unsigned *clean)
{
  ck_assert_int_eq(r[0].outcome, r[1].outcome);
  ck_assert_int_eq(r[0].fault.kind, r[1].fault.kind);
  ck_assert_str_eq(r[0].fault.message, r[1].fault.message);
  ck_assert_uint_eq(r[0].fault.lane, r[1].fault.lane);
  ck_assert_uint_eq(r[0].fault.other_inst, r[1].fault.other_inst);
  ck_assert_mem_eq(r[0].fault.other_thread, r[1].fault.other_thread,
                   sizeof r[0].fault.other_thread);
  ck_assert_uint_eq(r[0].counters.warp_insts, r[1].counters.warp_insts);
  ck_assert_mem_eq(got0, got1, bytes);
  if (r[1].fault.kind == SIM_FK_RACE)
    (*races)++;
  else if (r[1].outcome == SIM_RAN_OK)
    (*clean)++;
  sim_result_free(&r[0]);
  sim_result_free(&r[1]);
}

/* A random program of three warps in k (cap bytes, n of them written: an entry name reading
   .param out, with out[tid] = %f2 left to write) ended, and run on the race checker's general
   path and then its shortcuts (run_switched), in turns, in a seed's shuffle or reversed as
   trial picks; the runs must agree (same_race_runs), counted in *races and *clean, and in
   *uninit when they report an uninitialised read. */
static void race_trial96(char *k, size_t cap, size_t n, const char *name, int trial,
                         unsigned *races, unsigned *clean, unsigned *uninit)
{
  snprintf(k + n, cap - n,
           "  ld.param.u64 %%rd1, [out];\n  mul.wide.u32 %%rd2, %%r1, 4;\n"
           "  add.s64 %%rd3, %%rd1, %%rd2;\n  st.global.f32 [%%rd3], %%f2;\n"
           "  ret;\n}\n.file 1 \"/lab/%s.cu\"\n", name);
  struct sim_result r[2];
  float got[2][96];
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {96, 1, 1}, .sched = SIM_SCHED_ITS,
                         .workers = 1, .reverse = trial % 4 == 3,
                         .order_seed = trial % 4 == 1 ? 1000u + (unsigned)trial : 0};
  run_switched(k, name, &c, &sim_race_lane_shortcuts, r, got[0], got[1], sizeof got[0]);
  if (r[1].fault.kind == SIM_FK_UNINIT)
    (*uninit)++;
  same_race_runs(r, got[0], got[1], sizeof got[0], races, clean);
}

/* run_shfl, run_vote and a __syncwarp() inside a run of the fast plan (PLAN_SHFL, PLAN_VOTE,
   PLAN_WSYNC), against control() taking every one (sim_warp_shortcuts 0, which leaves them
   out of the plan): random programs of six, each after an add (so inside a run): shuffles
   of mode up, down, bfly or idx (an offset constant, the warp's own or the lane's; a clamp
   of 31, 15, the lane's own or with segments; with or without the predicate), votes (all,
   any, uni, ballot of a bit of the value, or of its negation), __syncwarp(); a mask of -1,
   __activemask() or a register holding -1, or now and then 0xffff or -1 in lane 0 alone
   (invalid masks: faults); some inside a branch half the warp takes (their mask
   __activemask() there) or after shared stores (the __syncwarp count each steps orders
   them); three warps and a half one, under both schedulers. Each must leave the same values,
   fault, counters and per-instruction statistics. */
START_TEST(test_collectives_in_runs_match_control)
{
  static const char *const mode[4] = {"up", "down", "bfly", "idx"};
  static const char *const mask[5] = {"-1", "%r6", "%r7", "%r8", "%r26"};
  uint64_t rng = 0x452821E638D01377ull;
#define SR_NEXT() rng_next(&rng)
  unsigned faults = 0, clean = 0;
  static char k[8192];
  for (int trial = 0; trial < 120; trial++) {
    size_t n = (size_t)snprintf(k, sizeof k,
      HDR
      ".visible .entry sr(.param .u64 out)\n{\n"
      "  .shared .align 4 .b8 sm[512];\n"
      "  .reg .pred %%p<16>;\n  .reg .b32 %%r<40>;\n  .reg .b64 %%rd<8>;\n"
      "  mov.u32 %%r1, %%tid.x;\n  ld.param.u64 %%rd1, [out];\n  and.b32 %%r3, %%r1, 31;\n"
      "  shr.u32 %%r4, %%r1, 5;\n  mul.lo.u32 %%r2, %%r1, -1640531535;\n"
      "  xor.b32 %%r2, %%r2, %u;\n  activemask.b32 %%r6;\n  mov.u32 %%r7, -1;\n"
      "  mov.u32 %%r8, 65535;\n  mov.u32 %%r9, 0;\n  mov.u32 %%r5, sm;\n"
      "  setp.eq.u32 %%p15, %%r3, 0;\n  selp.b32 %%r26, -1, 2147483647, %%p15;\n"
      "  and.b32 %%r27, %%r1, 1;\n  selp.b32 %%r27, 31, 15, %%p15;\n"
      "  shl.b32 %%r10, %%r1, 2;\n  add.u32 %%r5, %%r5, %%r10;\n",
      (unsigned)SR_NEXT());
    for (int i = 0; i < 6; i++) {
      const uint32_t md = SR_NEXT() % 4, ob = SR_NEXT() % 4, cl = SR_NEXT() % 4;
      const uint32_t mk = SR_NEXT() % 24 == 0 ? 3 + SR_NEXT() % 2 : SR_NEXT() % 3;
      const uint32_t pr = SR_NEXT() % 2;
      const uint32_t br = SR_NEXT() % 6, shm = SR_NEXT() % 4 == 0;
      char off[48], clamp[16];
      if (ob < 2)
        snprintf(off, sizeof off, "%u", (unsigned)(SR_NEXT() % 32));   /* a constant */
      else if (ob == 2)
        snprintf(off, sizeof off, "%%r4");                  /* the warp's own */
      else
        snprintf(off, sizeof off, "%%r3");                  /* the lane's */
      snprintf(clamp, sizeof clamp, "%s",
               cl < 2 ? "31" : cl == 2 ? (SR_NEXT() % 3 ? "15" : "%r27") : "6175");
      if (shm)                                  /* a shared store the shuffle orders */
        n += (size_t)snprintf(k + n, sizeof k - n, "  st.shared.u32 [%%r5], %%r2;\n");
      if (br == 0)                              /* half the warp only */
        n += (size_t)snprintf(k + n, sizeof k - n,
                              "  setp.lt.u32 %%p14, %%r3, 16;\n  @%%p14 bra SKIP%d;\n"
                              "  activemask.b32 %%r19;\n", i);
      const char *const mks = br == 0 && mk < 3 ? "%r19" : mask[mk];
      const uint32_t op = SR_NEXT() % 8;        /* a shuffle, a vote or a __syncwarp() */
      if (op < 5)
        n += (size_t)snprintf(k + n, sizeof k - n,
                              "  add.u32 %%r9, %%r9, 1;\n"
                              "  shfl.sync.%s.b32 %%r%d%s%s, %%r2, %s, %s, %s;\n"
                              "  add.u32 %%r2, %%r2, %%r%d;\n",
                              mode[md], 11 + i, pr ? "|%p" : "", pr ? (const char *[]){"1", "2",
                              "3", "4", "5", "6"}[i] : "", off, clamp, mks, 11 + i);
      else if (op < 7)                          /* of a bit of the value, or its negation */
        n += (size_t)snprintf(k + n, sizeof k - n,
                              "  and.b32 %%r28, %%r2, %u;\n  setp.ne.u32 %%p13, %%r28, 0;\n"
                              "  add.u32 %%r9, %%r9, 1;\n"
                              "  vote.sync.%s %s, %s%%p13, %s;\n%s",
                              1u << (SR_NEXT() % 32), (const char *[]){"all.pred", "any.pred",
                              "uni.pred", "ballot.b32"}[md], md == 3 ? "%r29" : "%p12",
                              pr ? "!" : "", mks,
                              md == 3 ? "  add.u32 %r2, %r2, %r29;\n"
                                      : "  selp.u32 %r29, 7, 3, %p12;\n"
                                        "  add.u32 %r2, %r2, %r29;\n");
      else                                      /* (an invalid mask one time in six) */
        n += (size_t)snprintf(k + n, sizeof k - n,
                              "  add.u32 %%r9, %%r9, 1;\n  bar.warp.sync %s;\n",
                              SR_NEXT() % 6 ? mks : "%r26");
      if (br == 0)
        n += (size_t)snprintf(k + n, sizeof k - n, "SKIP%d:\n", i);
      if (shm)                                  /* a neighbour's word, read back */
        n += (size_t)snprintf(k + n, sizeof k - n,
                              "  xor.b32 %%r10, %%r1, 1;\n  shl.b32 %%r10, %%r10, 2;\n"
                              "  mov.u32 %%r17, sm;\n  add.u32 %%r10, %%r10, %%r17;\n"
                              "  ld.shared.u32 %%r18, [%%r10];\n  add.u32 %%r2, %%r2, %%r18;\n");
    }
    snprintf(k + n, sizeof k - n,
             "  mul.wide.u32 %%rd2, %%r1, 32;\n  add.s64 %%rd3, %%rd1, %%rd2;\n"
             "  st.global.u32 [%%rd3], %%r2;\n  st.global.u32 [%%rd3+4], %%r9;\n"
             "  selp.u32 %%r20, 1, 0, %%p1;\n  selp.u32 %%r21, 2, 0, %%p2;\n"
             "  selp.u32 %%r22, 4, 0, %%p3;\n  selp.u32 %%r23, 8, 0, %%p4;\n"
             "  selp.u32 %%r24, 16, 0, %%p5;\n  selp.u32 %%r25, 32, 0, %%p6;\n"
             "  or.b32 %%r20, %%r20, %%r21;\n  or.b32 %%r20, %%r20, %%r22;\n"
             "  or.b32 %%r20, %%r20, %%r23;\n  or.b32 %%r20, %%r20, %%r24;\n"
             "  or.b32 %%r20, %%r20, %%r25;\n  st.global.u32 [%%rd3+8], %%r20;\n"
             "  st.global.u32 [%%rd3+12], %%r11;\n  st.global.u32 [%%rd3+16], %%r13;\n"
             "  st.global.u32 [%%rd3+20], %%r16;\n  ret;\n}\n");
    struct sim_result r[2];
    uint32_t got[2][112 * 8];
    struct sim_launch c = {.grid = {2, 1, 1}, .block = {112, 1, 1}, .workers = 1,
                           .sched = trial % 2 ? SIM_SCHED_ITS : SIM_SCHED_STACK};
    run_switched(k, "sr", &c, &sim_warp_shortcuts, r, got[0], got[1], sizeof got[0]);
    ck_assert_uint_eq(r[0].nstats, r[1].nstats);
    for (uint32_t i = 0; i < r[0].nstats; i++)
      ck_assert_msg(!memcmp(&r[0].stats[i], &r[1].stats[i], sizeof r[0].stats[i]),
                    "trial %d: instruction %u's statistics differ (%s)", trial, i,
                    r[1].fault.message);
    unsigned races = 0, ok = 0;
    same_race_runs(r, got[0], got[1], sizeof got[0], &races, &ok);
    faults += !ok;
    clean += ok;
  }
#undef SR_NEXT
  ck_assert_uint_gt(faults, 10);
  ck_assert_uint_gt(clean, 40);
}
END_TEST

/* reads_words_avx2 and writes_words_avx2, a full warp's access of 32 different shared words
   in one pass, against shadow_word lane by lane (sim_race_lane_shortcuts 0): random
   programs of three warps over 192 words, eight steps, each a read or a write by every lane
   at its own word, its neighbour's, a lane xor'ed by a constant, its warp's words rotated
   or reversed, every other word (its own, or its neighbour's), the next warp's (as a
   block's warps share a tile), or one of eight words (no pass: the lanes' words repeat);
   writes of new values or of the value there (which change nothing once the word is
   written); a __syncwarp() or a barrier between some; the warps in index order, in reverse,
   or in turns of a seed's shuffle. Each must report the same fault, to the message, and
   leave the same values and counters. */
START_TEST(test_shared_distinct_words_match_lanes)
{
  static const char *const at[9] = {
    "  mov.u32 %r2, %r1;\n",                                       /* its own */
    "  xor.b32 %r2, %r1, 1;\n",                                    /* a neighbour's */
    "  xor.b32 %r2, %r1, %r8;\n",                                  /* xor a constant */
    "  add.u32 %r2, %r3, %r8;\n  and.b32 %r2, %r2, 31;\n  add.u32 %r2, %r2, %r4;\n", /* rotated */
    "  sub.u32 %r2, 31, %r3;\n  add.u32 %r2, %r2, %r4;\n",         /* reversed */
    "  shl.b32 %r2, %r3, 1;\n  add.u32 %r2, %r2, %r4;\n",          /* every other word */
    "  add.u32 %r2, %r1, 32;\n",                                   /* the next warp's */
    "  and.b32 %r2, %r1, 7;\n",                                    /* eight, repeated */
    "  xor.b32 %r2, %r3, 1;\n  shl.b32 %r2, %r2, 1;\n  add.u32 %r2, %r2, %r4;\n",
                                          /* every other word, neighbours' (no one step) */
  };
  uint64_t rng = 0xBE5466CF34E90C6Cull;
#define SD_NEXT() rng_next(&rng)
  unsigned races = 0, clean = 0;
  static char k[8192];
  for (int trial = 0; trial < 300; trial++) {
    size_t n = (size_t)snprintf(k, sizeof k,
      HDR
      ".visible .entry sd(.param .u64 out)\n{\n"
      "  .shared .align 4 .b8 sm[768];\n"
      "  .reg .pred %%p<4>;\n  .reg .b32 %%r<16>;\n  .reg .b64 %%rd<6>;\n"
      "  mov.u32 %%r1, %%tid.x;\n  ld.param.u64 %%rd1, [out];\n  and.b32 %%r3, %%r1, 31;\n"
      "  and.b32 %%r4, %%r1, 96;\n  mov.u32 %%r9, 0;\n  mov.u32 %%r6, sm;\n");
    if (SD_NEXT() % 4)                 /* all written first, and a barrier (most words then
                                          read or rewritten in a later epoch; else the first
                                          reads are of unwritten words) */
      n += (size_t)snprintf(k + n, sizeof k - n,
                            "  shl.b32 %%r5, %%r1, 2;\n  add.u32 %%r5, %%r5, %%r6;\n"
                            "  st.shared.u32 [%%r5], %%r1;\n  st.shared.u32 [%%r5+384], %%r1;\n"
                            "  bar.sync 0;\n");
    for (int step = 0; step < 8; step++) {
      const uint32_t kind = SD_NEXT() % 12;
      /* a write at the lane's own word two times in three, after a __syncwarp() half the
         time (fewer races at once) */
      const uint32_t a = kind >= 5 && kind < 9 && SD_NEXT() % 3 ? 0 : SD_NEXT() % 9;
      if (kind >= 5 && kind < 9 && SD_NEXT() % 2)
        n += (size_t)snprintf(k + n, sizeof k - n, "  bar.warp.sync -1;\n");
      if (kind < 9) {
        n += (size_t)snprintf(k + n, sizeof k - n, "  mov.u32 %%r8, %u;\n%s"
                              "  shl.b32 %%r5, %%r2, 2;\n  add.u32 %%r5, %%r5, %%r6;\n",
                              (unsigned)(1 + SD_NEXT() % 31), at[a]);
        if (kind < 5)
          n += (size_t)snprintf(k + n, sizeof k - n,
                                "  .loc 1 %d 3\n  ld.shared.u32 %%r7, [%%r5];\n"
                                "  add.u32 %%r9, %%r9, %%r7;\n", 10 + step);
        else
          n += (size_t)snprintf(k + n, sizeof k - n, "  .loc 1 %d 3\n  st.shared.u32 [%%r5], %s;\n",
                                10 + step, SD_NEXT() % 3 ? "%r1" : "0");
      } else {
        n += (size_t)snprintf(k + n, sizeof k - n, "  %s\n",
                              kind == 9 ? "bar.sync 0;" : "bar.warp.sync -1;");
      }
    }
    snprintf(k + n, sizeof k - n,
             "  mul.wide.u32 %%rd2, %%r1, 4;\n  add.s64 %%rd3, %%rd1, %%rd2;\n"
             "  st.global.u32 [%%rd3], %%r9;\n  ret;\n}\n.file 1 \"/lab/sd.cu\"\n");
    struct sim_result r[2];
    uint32_t got[2][96];
    struct sim_launch c = {.grid = {1, 1, 1}, .block = {96, 1, 1}, .sched = SIM_SCHED_ITS,
                           .workers = 1, .reverse = trial % 4 == 2,
                           .order_seed = trial % 4 == 1 ? 500u + (unsigned)trial : 0};
    run_switched(k, "sd", &c, &sim_race_lane_shortcuts, r, got[0], got[1], sizeof got[0]);
    same_race_runs(r, got[0], got[1], sizeof got[0], &races, &clean);
  }
#undef SD_NEXT
  ck_assert_uint_gt(races, 100);
  ck_assert_uint_gt(clean, 40);
}
END_TEST

/* sim_race_mask's one test of a mask a whole warp or 64-lane wave shares against its
   lane-by-lane test (sim_race_lane_shortcuts 0): masks in a register (a full one, a 16-lane
   one, one that differs between the wave's halves or lane by lane), after lanes exited or
   with some lanes away, must give the same outcome, fault and counters. */
START_TEST(test_sync_masks_uniform_match_lanes)
{
  static const char *const mask[4] = {
    "  mov.u32 %r9, -1;\n",
    "  mov.u32 %r9, 65535;\n",
    "  setp.ge.u32 %p2, %r1, 32;\n  selp.b32 %r9, 65535, -1, %p2;\n",
    "  or.b32 %r9, %r1, -2;\n",
  };
  static const char *const before[3] = {
    "",
    "  setp.ge.u32 %p1, %r1, 48;\n  @%p1 ret;\n",
    "  setp.ge.u32 %p1, %r1, 20;\n  @%p1 bra END;\n",
  };
  static const char *const op[3] = {
    "  shfl.sync.down.b32 %r2, %r1, 1, 31, %r9;\n",
    "  bar.warp.sync %r9;\n  mov.u32 %r2, %r1;\n",
    "  vote.sync.ballot.b32 %r2, %p2, %r9;\n",
  };
  unsigned ok = 0, bad = 0;
  for (unsigned W = 32; W <= 64; W += 32)
    for (int m = 0; m < 4; m++)
      for (int bf = 0; bf < 3; bf++)
        for (int o = 0; o < 3; o++) {
          char k[2048];
          snprintf(k, sizeof k,
                   HDR
                   ".visible .entry m(.param .u64 out)\n{\n"
                   "  .reg .pred %%p<3>;\n  .reg .b32 %%r<10>;\n  .reg .b64 %%rd<4>;\n"
                   "  mov.u32 %%r1, %%tid.x;\n  setp.lt.u32 %%p2, %%r1, 7;\n%s%s"
                   "  .loc 1 4 3\n%s"
                   "  ld.param.u64 %%rd1, [out];\n  mul.wide.u32 %%rd2, %%r1, 4;\n"
                   "  add.s64 %%rd3, %%rd1, %%rd2;\n  st.global.u32 [%%rd3], %%r2;\n"
                   "END:\n  ret;\n}\n"
                   ".file 1 \"/lab/m.cu\"\n", mask[m], before[bf], op[o]);
          struct sim_result r[2];
          uint32_t got[2][128];
          struct sim_launch c = {.grid = {1, 1, 1}, .block = {128, 1, 1}, .workers = 1,
                                 .warp_size = W};
          run_switched(k, "m", &c, &sim_race_lane_shortcuts, r, got[0], got[1], sizeof got[0]);
          ck_assert_int_eq(r[0].outcome, r[1].outcome);
          ck_assert_int_eq(r[0].fault.kind, r[1].fault.kind);
          ck_assert_uint_eq(r[0].fault.lane, r[1].fault.lane);
          ck_assert_uint_eq(r[0].fault.warp, r[1].fault.warp);
          ck_assert_str_eq(r[0].fault.message, r[1].fault.message);
          ck_assert_uint_eq(r[0].counters.warp_insts, r[1].counters.warp_insts);
          ck_assert_mem_eq(got[0], got[1], sizeof got[0]);
          if (r[1].outcome == SIM_RAN_OK)
            ok++;
          else if (r[1].fault.kind == SIM_FK_SYNC_MASK)
            bad++;
          sim_result_free(&r[0]);
          sim_result_free(&r[1]);
        }
  ck_assert_uint_gt(ok, 4);
  ck_assert_uint_gt(bad, 10);
}
END_TEST

/* Block 0 writes %r3 on every lane and %r4 on lane 0 only (a guarded write); block 1 skips
   both writes. Every block must still read 0 from a register no path of its own wrote:
   out[block * 32 + lane] = %r3 + %r4. */
static const char *k_zero =
  HDR
  ".visible .entry zreg(.param .u64 p)\n"
  "{\n"
  "  .reg .pred %p<3>;\n  .reg .b32 %r<7>;\n  .reg .b64 %rd<4>;\n"
  "  ld.param.u64 %rd1, [p];\n"
  "  cvta.to.global.u64 %rd2, %rd1;\n"
  "  mov.u32 %r1, %ctaid.x;\n"
  "  mov.u32 %r2, %tid.x;\n"
  "  setp.ne.u32 %p1, %r1, 0;\n"
  "  @%p1 bra SKIP;\n"
  "  mov.u32 %r3, 77;\n"
  "  setp.eq.u32 %p2, %r2, 0;\n"
  "  @%p2 mov.u32 %r4, 5;\n"
  "SKIP:\n"
  "  add.u32 %r5, %r3, %r4;\n"
  "  shl.b32 %r6, %r1, 5;\n"
  "  add.u32 %r6, %r6, %r2;\n"
  "  mul.wide.u32 %rd3, %r6, 4;\n"
  "  add.s64 %rd2, %rd2, %rd3;\n"
  "  st.global.u32 [%rd2], %r5;\n"
  "  ret;\n"
  "}\n";

/* Link func of src and check its zero plan: exactly the registers named in want (a
   NULL-ended list) are zeroed at warp set-up. */
static void check_zero_plan(const char *src, const char *func, const char *const *want)
{
  struct fx f;
  load(&f, src);
  int fn = ptx_find_func(&f.m, func);
  ck_assert_int_ge(fn, 0);
  struct sim_prog p;
  ck_assert_int_eq(sim_link(f.d, &f.m, fn, &p, f.err, sizeof f.err), SIM_OK);
  ck_assert_ptr_nonnull(p.zero);
  const struct ptx_func *F = &f.m.funcs[fn];
  unsigned nzero = 0, nwant = 0;
  for (const char *const *w = want; *w; w++)
    nwant++;
  for (uint32_t r = 0; r < F->nregs; r++) {
    const char *name = f.m.regs[F->first_reg + r].name;
    int z = (int)(p.zero[r / 64] >> (r % 64) & 1), wanted = 0;
    for (const char *const *w = want; *w; w++)
      wanted |= !strcmp(name, *w);
    ck_assert_msg(z == wanted, "%s: zeroed %d, expected %d", name, z, wanted);
    nzero += (unsigned)z;
  }
  ck_assert_uint_eq(nzero, nwant);
  /* the runs after the bitmap (sim_warp_init's memsets): in order, maximal, each register in
     one exactly when its bit is set */
  uint32_t nr = p.nregs - p.nconst, nw = (nr + 63) / 64 ? (nr + 63) / 64 : 1, in_runs = 0;
  const uint64_t *run = p.zero + nw + 1;
  for (uint64_t k = 0; k < p.zero[nw]; k++) {
    ck_assert_uint_lt(run[2 * k], run[2 * k + 1]);
    ck_assert_uint_le(run[2 * k + 1], nr);
    if (k)
      ck_assert_uint_gt(run[2 * k], run[2 * k - 1]);
    in_runs += (uint32_t)(run[2 * k + 1] - run[2 * k]);
    for (uint64_t r = run[2 * k]; r < run[2 * k + 1]; r++)
      ck_assert_msg(p.zero[r / 64] >> (r % 64) & 1, "register %u in a run, not set",
                    (unsigned)r);
  }
  uint32_t set = 0;
  for (uint32_t r = 0; r < nr; r++)
    set += (uint32_t)(p.zero[r / 64] >> (r % 64) & 1);
  ck_assert_uint_eq(in_runs, set);
  ck_assert_uint_gt(p.zero[nw], 0);
  sim_prog_free(&p);
  done(&f);
}

START_TEST(test_zero_plan)
{
  /* only the registers the SKIP path reads unwritten: the rest are written first */
  static const char *const want[] = {"%r3", "%r4", NULL};
  check_zero_plan(k_zero, "zreg", want);
}
END_TEST

/* The warp collectives define their destinations (and shfl's and match.all's predicate) for
   every lane that runs them: only %r5, written by a guarded shfl, may be read unwritten. */
static const char *k_zero_coll =
  HDR
  ".visible .entry zcoll(.param .u64 p)\n"
  "{\n"
  "  .reg .pred %p<4>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<3>;\n"
  "  ld.param.u64 %rd1, [p];\n"
  "  mov.u32 %r1, %tid.x;\n"
  "  mov.u32 %r2, -1;\n"
  "  mov.u32 %r10, 1;\n"
  "  mov.u32 %r11, 31;\n"
  "  shfl.sync.down.b32 %r3|%p1, %r1, %r10, %r11, %r2;\n"
  "  vote.sync.ballot.b32 %r4, %p1, %r2;\n"
  "  setp.eq.u32 %p2, %r1, 0;\n"
  "  @%p2 shfl.sync.idx.b32 %r5, %r1, %r10, %r11, %r2;\n"
  "  match.all.sync.b32 %r6|%p3, %r1, %r2;\n"
  "  redux.sync.add.u32 %r7, %r1, %r2;\n"
  "  add.u32 %r8, %r3, %r4;\n"
  "  add.u32 %r8, %r8, %r5;\n"
  "  add.u32 %r8, %r8, %r6;\n"
  "  add.u32 %r8, %r8, %r7;\n"
  "  selp.u32 %r9, 1, 0, %p1;\n"
  "  add.u32 %r8, %r8, %r9;\n"
  "  selp.u32 %r9, 1, 0, %p3;\n"
  "  add.u32 %r8, %r8, %r9;\n"
  "  st.global.u32 [%rd1], %r8;\n"
  "  ret;\n"
  "}\n";

START_TEST(test_zero_plan_collectives)
{
  static const char *const want[] = {"%r5", NULL};
  check_zero_plan(k_zero_coll, "zcoll", want);
}
END_TEST

START_TEST(test_unwritten_registers_read_zero)
{
  struct fx f;
  load(&f, k_zero);
  uint64_t a = buffer(&f, 64 * 4, "argument 0");
  /* one worker: block 1 runs in the warp that block 0 left its registers in */
  ck_assert_int_eq(launch(&f, "zreg", 2, 32, &a, 1, SIM_SCHED_ITS, 1, 0), SIM_OK);
  ck_assert_int_eq(f.r.outcome, SIM_RAN_OK);
  uint32_t out[64];
  ck_assert_int_eq(sim_read(f.d, a, out, sizeof out), SIM_OK);
  ck_assert_uint_eq(out[0], 82);
  for (uint32_t i = 1; i < 32; i++)
    ck_assert_uint_eq(out[i], 77);
  for (uint32_t i = 32; i < 64; i++)
    ck_assert_uint_eq(out[i], 0);
  done(&f);
}
END_TEST

/* Full-warp fast paths (coalesced loads and stores, vector integer and f32 arithmetic) give
   what the lane-by-lane loops give: the same kernel in a block of 32 (a full warp) and of 31
   threads (a partial one), each lane checked against C. Results: out32[k * 32 + tid] for
   add sub mul.lo and or xor (u32), add sub mul (f32, NaN made 0x7fffffff) and setp (lt.s32,
   lt.u32, ne.u32, ge.s32, as 0 or 1) and a shared load of the next thread's a (through a
   barrier); out64[j * 32 + tid] (from byte 2048) for mul.wide.s32, mul.wide.u32 and their
   add.s64. */
static const char *k_fast =
  HDR
  ".visible .entry fast(.param .u64 pa, .param .u64 pb, .param .u64 po)\n"
  "{\n"
  "  .shared .align 4 .b32 sh[32];\n"
  "  .reg .pred %p<5>;\n  .reg .b32 %r<24>;\n  .reg .f32 %f<6>;\n  .reg .b64 %rd<16>;\n"
  "  ld.param.u64 %rd1, [pa];\n  ld.param.u64 %rd2, [pb];\n  ld.param.u64 %rd3, [po];\n"
  "  cvta.to.global.u64 %rd1, %rd1;\n  cvta.to.global.u64 %rd2, %rd2;\n"
  "  cvta.to.global.u64 %rd3, %rd3;\n"
  "  mov.u32 %r1, %tid.x;\n"
  "  mul.wide.u32 %rd4, %r1, 4;\n"
  "  add.s64 %rd5, %rd1, %rd4;\n  ld.global.u32 %r2, [%rd5];\n"
  "  add.s64 %rd6, %rd2, %rd4;\n  ld.global.u32 %r3, [%rd6];\n"
  "  add.s64 %rd7, %rd3, %rd4;\n"
  "  add.u32 %r4, %r2, %r3;\n  st.global.u32 [%rd7], %r4;\n"
  "  sub.u32 %r5, %r2, %r3;\n  st.global.u32 [%rd7+128], %r5;\n"
  "  mul.lo.u32 %r6, %r2, %r3;\n  st.global.u32 [%rd7+256], %r6;\n"
  "  and.b32 %r7, %r2, %r3;\n  st.global.u32 [%rd7+384], %r7;\n"
  "  or.b32 %r8, %r2, %r3;\n  st.global.u32 [%rd7+512], %r8;\n"
  "  xor.b32 %r9, %r2, %r3;\n  st.global.u32 [%rd7+640], %r9;\n"
  "  mov.b32 %f1, %r2;\n  mov.b32 %f2, %r3;\n"
  "  add.f32 %f3, %f1, %f2;\n  st.global.f32 [%rd7+768], %f3;\n"
  "  sub.f32 %f4, %f1, %f2;\n  st.global.f32 [%rd7+896], %f4;\n"
  "  mul.f32 %f5, %f1, %f2;\n  st.global.f32 [%rd7+1024], %f5;\n"
  "  setp.lt.s32 %p1, %r2, %r3;\n  selp.u32 %r10, 1, 0, %p1;\n  st.global.u32 [%rd7+1152], %r10;\n"
  "  setp.lt.u32 %p2, %r2, %r3;\n  selp.u32 %r11, 1, 0, %p2;\n  st.global.u32 [%rd7+1280], %r11;\n"
  "  setp.ne.u32 %p3, %r2, %r3;\n  selp.u32 %r12, 1, 0, %p3;\n  st.global.u32 [%rd7+1408], %r12;\n"
  "  setp.ge.s32 %p4, %r2, %r3;\n  selp.u32 %r13, 1, 0, %p4;\n  st.global.u32 [%rd7+1536], %r13;\n"
  "  mov.u32 %r14, sh;\n  shl.b32 %r15, %r1, 2;\n  add.u32 %r15, %r15, %r14;\n"
  "  st.shared.u32 [%r15], %r2;\n  bar.sync 0;\n"
  "  mov.u32 %r16, %ntid.x;\n  add.u32 %r17, %r1, 1;\n  rem.u32 %r17, %r17, %r16;\n"
  "  shl.b32 %r17, %r17, 2;\n  add.u32 %r17, %r17, %r14;\n"
  "  ld.shared.u32 %r18, [%r17];\n  st.global.u32 [%rd7+1664], %r18;\n"
  "  mul.wide.u32 %rd8, %r1, 8;\n  add.s64 %rd9, %rd3, %rd8;\n"
  "  mul.wide.s32 %rd10, %r2, %r3;\n  st.global.u64 [%rd9+2048], %rd10;\n"
  "  mul.wide.u32 %rd11, %r2, %r3;\n  st.global.u64 [%rd9+2304], %rd11;\n"
  "  add.s64 %rd12, %rd10, %rd11;\n  st.global.u64 [%rd9+2560], %rd12;\n"
  "  ret;\n"
  "}\n";

static uint32_t f32_canon_bits(float r)
{
  uint32_t u;
  memcpy(&u, &r, 4);
  return r != r ? 0x7fffffffu : u;
}

static float bits_f32(uint32_t u)
{
  float f;
  memcpy(&f, &u, 4);
  return f;
}

START_TEST(test_full_warp_fast_paths)
{
  uint32_t a[32], b[32];
  for (uint32_t i = 0; i < 32; i++) {
    a[i] = i * 0x9E3779B9u + 0x3f000000u;
    b[i] = (i * 0x85EBCA6Bu) ^ 0x40400000u;
  }
  a[3] = 0x7f800000u;  b[3] = 0xff800000u;           /* inf + -inf: NaN */
  a[5] = 0x7fc00001u;  b[5] = 0x3f800000u;           /* a NaN with a payload */
  a[7] = 0x00000000u;  b[7] = 0x7f800000u;           /* 0 * inf: NaN */
  a[9] = 0x80000000u;  b[9] = 0xffffffffu;           /* the most negative int, -1 */
  a[11] = 12345u;      b[11] = 12345u;               /* equal */
  for (uint32_t block = 31; block <= 32; block++) {
    struct fx f;
    load(&f, k_fast);
    uint64_t p[3] = {buffer(&f, sizeof a, "argument 0"), buffer(&f, sizeof b, "argument 1"),
                     buffer(&f, 2816, "argument 2")};
    ck_assert_int_eq(sim_write(f.d, p[0], a, sizeof a), SIM_OK);
    ck_assert_int_eq(sim_write(f.d, p[1], b, sizeof b), SIM_OK);
    ck_assert_int_eq(launch(&f, "fast", 1, block, p, 3, SIM_SCHED_ITS, 1, 0), SIM_OK);
    ck_assert_int_eq(f.r.outcome, SIM_RAN_OK);
    uint32_t o32[14 * 32];
    uint64_t o64[3 * 32];
    ck_assert_int_eq(sim_read(f.d, p[2], o32, sizeof o32), SIM_OK);
    ck_assert_int_eq(sim_read(f.d, p[2] + 2048, o64, sizeof o64), SIM_OK);
    for (uint32_t l = 0; l < block; l++) {
      float x = bits_f32(a[l]), y = bits_f32(b[l]);
      uint32_t want32[14] = {a[l] + b[l], a[l] - b[l], a[l] * b[l], a[l] & b[l], a[l] | b[l],
                             a[l] ^ b[l], f32_canon_bits(x + y), f32_canon_bits(x - y),
                             f32_canon_bits(x * y), (int32_t)a[l] < (int32_t)b[l],
                             a[l] < b[l], a[l] != b[l], (int32_t)a[l] >= (int32_t)b[l],
                             a[(l + 1) % block]};
      uint64_t ws = (uint64_t)((int64_t)(int32_t)a[l] * (int64_t)(int32_t)b[l]);
      uint64_t wu = (uint64_t)a[l] * b[l];
      uint64_t want64[3] = {ws, wu, ws + wu};
      for (uint32_t k = 0; k < 14; k++)
        ck_assert_msg(o32[k * 32 + l] == want32[k], "block %u lane %u result %u: %08x, not %08x",
                      block, l, k, o32[k * 32 + l], want32[k]);
      for (uint32_t j = 0; j < 3; j++)
        ck_assert_msg(o64[j * 32 + l] == want64[j], "block %u lane %u wide %u", block, l, j);
    }
    done(&f);
  }
}
END_TEST

/* A guarded ld.param (read once for the warp) gives the parameter to the lanes its guard
   lets through and leaves the others' register alone: out[tid] = tid odd ? n : tid. */
static const char *k_param =
  HDR
  ".visible .entry lparam(.param .u64 p, .param .u32 n, .param .u32 pad)\n"
  "{\n"
  "  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
  "  ld.param.u64 %rd1, [p];\n"
  "  cvta.to.global.u64 %rd2, %rd1;\n"
  "  mov.u32 %r1, %tid.x;\n"
  "  mov.u32 %r2, %r1;\n"
  "  and.b32 %r3, %r1, 1;\n"
  "  setp.ne.u32 %p1, %r3, 0;\n"
  "  @%p1 ld.param.u32 %r2, [n];\n"
  "  mul.wide.u32 %rd3, %r1, 4;\n"
  "  add.s64 %rd2, %rd2, %rd3;\n"
  "  st.global.u32 [%rd2], %r2;\n"
  "  ret;\n"
  "}\n";

START_TEST(test_guarded_param_load)
{
  struct fx f;
  load(&f, k_param);
  uint64_t params[2] = {buffer(&f, 48 * 4, "argument 0"), 1234};
  ck_assert_msg(launch(&f, "lparam", 1, 48, params, 2, SIM_SCHED_ITS, 1, 0) == SIM_OK, "%s", f.err);
  ck_assert_int_eq(f.r.outcome, SIM_RAN_OK);
  uint32_t out[48];
  ck_assert_int_eq(sim_read(f.d, params[0], out, sizeof out), SIM_OK);
  for (uint32_t i = 0; i < 48; i++)
    ck_assert_uint_eq(out[i], i % 2 ? 1234 : i);
  done(&f);
}
END_TEST

/* Even lanes wait at one bar instruction, odd lanes at another (both barrier 1): with a
   thread count (bar.sync 1, 64) the barrier completes when all 64 threads are there, wherever
   they wait; without one it is barrier divergence, named at the even lanes' instruction. */
static char *bar2_kernel(char *buf, size_t n, const char *bar)
{
  snprintf(buf, n,
           HDR
           ".visible .entry bar2(.param .u64 p)\n{\n"
           "  .reg .pred %%p<2>;\n  .reg .b32 %%r<3>;\n  .reg .b64 %%rd<4>;\n"
           "  ld.param.u64 %%rd1, [p];\n"
           "  cvta.to.global.u64 %%rd2, %%rd1;\n"
           "  mov.u32 %%r1, %%tid.x;\n"
           "  and.b32 %%r2, %%r1, 1;\n"
           "  setp.ne.u32 %%p1, %%r2, 0;\n"
           "  @%%p1 bra ODD;\n"
           "  .loc 1 4 5\n"
           "  %s;\n"
           "  bra.uni JOIN;\n"
           "ODD:\n"
           "  .loc 1 6 5\n"
           "  %s;\n"
           "JOIN:\n"
           "  mul.wide.u32 %%rd3, %%r1, 4;\n"
           "  add.s64 %%rd2, %%rd2, %%rd3;\n"
           "  st.global.u32 [%%rd2], %%r1;\n"
           "  ret;\n}\n"
           ".file 1 \"/lab/bar2.cu\"\n", bar, bar);
  return buf;
}

START_TEST(test_barrier_at_two_instructions)
{
  char src[2048];
  struct fx f;
  load(&f, bar2_kernel(src, sizeof src, "bar.sync 1, 64"));
  uint64_t a = buffer(&f, 64 * 4, "argument 0");
  ck_assert_int_eq(launch(&f, "bar2", 1, 64, &a, 1, SIM_SCHED_ITS, 1, 0), SIM_OK);
  ck_assert_int_eq(f.r.outcome, SIM_RAN_OK);
  uint32_t out[64];
  ck_assert_int_eq(sim_read(f.d, a, out, sizeof out), SIM_OK);
  for (uint32_t i = 0; i < 64; i++)
    ck_assert_uint_eq(out[i], i);
  done(&f);

  load(&f, bar2_kernel(src, sizeof src, "bar.sync 1"));
  a = buffer(&f, 64 * 4, "argument 0");
  ck_assert_int_eq(launch(&f, "bar2", 1, 64, &a, 1, SIM_SCHED_ITS, 1, 0), SIM_OK);
  ck_assert_int_eq(f.r.outcome, SIM_BARRIER_DIVERGENCE);
  ck_assert_uint_eq(f.m.insts[f.r.fault.inst].uline, 4);
  done(&f);
}
END_TEST

/* Warps name different thread counts at one barrier: the count is the first counted lane's
   in warp order, not in order of arrival. Warp 1 arrives first naming 96; warp 0 arrives
   after a loop naming 64; warp 2 exits. Taken from warp 0, the 64 threads there release
   the barrier and store out[tid] = tid + 1; taken from warp 1 it would be a deadlock. Then
   every thread of warps 0 and 1 meets at bar.red.popc with a count (64) and a predicate
   (tid odd): out[64 + tid] = 32, the odd threads of the 64. */
static const char *k_bar_order =
  HDR
  ".visible .entry border(.param .u64 p)\n{\n"
  "  .reg .pred %p<4>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<5>;\n"
  "  ld.param.u64 %rd1, [p];\n"
  "  cvta.to.global.u64 %rd2, %rd1;\n"
  "  mov.u32 %r1, %tid.x;\n"
  "  shr.u32 %r2, %r1, 5;\n"
  "  setp.eq.u32 %p1, %r2, 2;\n"
  "  @%p1 bra DONE;\n"
  "  setp.eq.u32 %p2, %r2, 1;\n"
  "  @%p2 bra LATE;\n"
  "  mov.u32 %r3, 0;\n"
  "LOOP:\n"
  "  add.u32 %r3, %r3, 1;\n"
  "  setp.lt.u32 %p3, %r3, 300;\n"
  "  @%p3 bra.uni LOOP;\n"
  "  mov.u32 %r4, 64;\n"
  "  bra.uni BAR;\n"
  "LATE:\n"
  "  mov.u32 %r4, 96;\n"
  "BAR:\n"
  "  bar.sync 1, %r4;\n"
  "  add.u32 %r5, %r1, 1;\n"
  "  mul.wide.u32 %rd3, %r1, 4;\n"
  "  add.s64 %rd4, %rd2, %rd3;\n"
  "  st.global.u32 [%rd4], %r5;\n"
  "  and.b32 %r6, %r1, 1;\n"
  "  setp.ne.u32 %p3, %r6, 0;\n"
  "  mov.u32 %r4, 64;\n"
  "  bar.red.popc.u32 %r7, 2, %r4, %p3;\n"
  "  st.global.u32 [%rd4+256], %r7;\n"
  "DONE:\n"
  "  ret;\n}\n";

START_TEST(test_barrier_count_warp_order)
{
  struct fx f;
  load(&f, k_bar_order);
  uint64_t a = buffer(&f, 128 * 4, "argument 0");
  ck_assert_msg(launch(&f, "border", 1, 96, &a, 1, SIM_SCHED_ITS, 1, 0) == SIM_OK, "%s", f.err);
  ck_assert_int_eq(f.r.outcome, SIM_RAN_OK);
  uint32_t out[128];
  ck_assert_int_eq(sim_read(f.d, a, out, sizeof out), SIM_OK);
  for (uint32_t i = 0; i < 64; i++) {
    ck_assert_uint_eq(out[i], i + 1);
    ck_assert_uint_eq(out[64 + i], 32);
  }
  done(&f);
}
END_TEST

/* ---- cooperative grids and clusters (sim_cluster.c, sim_launch.c's groups) ---- */

/* grid.sync() as cooperative_groups emits it: the workspace from %envreg1:%envreg2, a
   release add that flips the counter's top bit once every block has added, an acquire spin.
   a[b] = b + 1 before it; out[b] = a[(b + 1) % G] after it. One thread a block. */
static const char *k_gsync =
  HDR
  ".visible .entry gsync(.param .u64 pa, .param .u64 po)\n"
  "{\n"
  "  .reg .pred %p<3>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<12>;\n"
  "  ld.param.u64 %rd1, [pa];\n  ld.param.u64 %rd9, [po];\n"
  "  mov.u32 %r3, %ctaid.x;\n  mov.u32 %r4, %nctaid.x;\n"
  "  mul.wide.u32 %rd6, %r3, 4;\n  add.s64 %rd7, %rd1, %rd6;\n"
  "  add.u32 %r11, %r3, 1;\n  st.global.u32 [%rd7], %r11;\n"
  "  mov.u32 %r1, %envreg2;\n  cvt.u64.u32 %rd2, %r1;\n"
  "  mov.u32 %r2, %envreg1;\n  cvt.u64.u32 %rd3, %r2;\n"
  "  bfi.b64 %rd4, %rd3, %rd2, 32, 32;\n  add.s64 %rd5, %rd4, 4;\n"
  "  setp.eq.s32 %p1, %r3, 0;\n  mov.u32 %r5, -2147483647;\n  sub.s32 %r6, %r5, %r4;\n"
  "  selp.b32 %r7, %r6, 1, %p1;\n"
  "  atom.add.release.gpu.u32 %r8, [%rd5], %r7;\n"
  "$L_spin:\n"
  "  ld.acquire.gpu.u32 %r9, [%rd5];\n  xor.b32 %r10, %r9, %r8;\n"
  "  setp.gt.s32 %p2, %r10, -1;\n  @%p2 bra $L_spin;\n"
  "  rem.u32 %r12, %r11, %r4;\n  mul.wide.u32 %rd8, %r12, 4;\n  add.s64 %rd8, %rd1, %rd8;\n"
  "  ld.global.u32 %r13, [%rd8];\n  add.s64 %rd10, %rd9, %rd6;\n  st.global.u32 [%rd10], %r13;\n"
  "  ret;\n"
  "}\n";

/* Every block of the grid runs interleaved, so the spin ends, even on one host thread; the
   kernel's %envreg makes the launch cooperative without asking. */
START_TEST(test_grid_sync_one_host_thread)
{
  struct fx f;
  load(&f, k_gsync);
  ck_assert_int_eq(sim_kernel_cooperative(&f.m, ptx_find_func(&f.m, "gsync")), 1);
  const uint32_t G = 12;
  uint64_t p[2] = {buffer(&f, G * 4, "argument 0"), buffer(&f, G * 4, "argument 1")};
  for (uint32_t workers = 1; workers <= 2; workers++) {
    ck_assert_int_eq(launch(&f, "gsync", G, 1, p, 2, SIM_SCHED_ITS, workers, 0), SIM_OK);
    ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
    uint32_t out[12];
    ck_assert_int_eq(sim_read(f.d, p[1], out, sizeof out), SIM_OK);
    for (uint32_t b = 0; b < G; b++)
      ck_assert_uint_eq(out[b], (b + 1) % G + 1);
  }
  done(&f);
}
END_TEST

/* A cooperative grid larger than the GPU holds at once is refused, in the driver's words;
   one that fits, or a launch that is not cooperative, is not. */
START_TEST(test_cooperative_grid_too_large)
{
  struct fx f;
  load(&f, k_gsync);
  int k = ptx_find_func(&f.m, "gsync");
  char err[512];
  struct sim_launch c = {.grid = {133, 1, 1}, .block = {1, 1, 1}, .coop_blocks_per_sm = 1,
                         .sm_count = 132};
  ck_assert_int_eq(sim_launch_check(&f.m, k, &c, 0, err, sizeof err), SIM_ERR_BADARG);
  ck_assert_msg(strstr(err, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE") && strstr(err, "132"), "%s", err);
  c.grid[0] = 132;
  ck_assert_int_eq(sim_launch_check(&f.m, k, &c, 0, err, sizeof err), SIM_OK);
  done(&f);
  load(&f, k_store);                      /* no grid.sync(): not cooperative unless asked */
  k = ptx_find_func(&f.m, "store");
  ck_assert_int_eq(sim_kernel_cooperative(&f.m, k), 0);
  c.grid[0] = 1000;
  ck_assert_int_eq(sim_launch_check(&f.m, k, &c, 0, err, sizeof err), SIM_OK);
  c.cooperative = 1;
  ck_assert_int_eq(sim_launch_check(&f.m, k, &c, 0, err, sizeof err), SIM_ERR_BADARG);
  done(&f);
}
END_TEST

/* Clusters of two (.reqnctapercluster): each block puts its rank + 1 in shared memory, and
   after barrier.cluster reads its neighbour's through mapa (generic and shared::cluster):
   out[b] = neighbour's + 10 * %cluster_nctarank + 100 * %clusterid.x + 1000 * both reads
   agree + 10000 * isspacep.shared::cluster + 100000 * isspacep.shared (::cta) of the
   neighbour's address. */
static const char *k_cluster =
  HDR
  ".visible .entry cl(.param .u64 po)\n"
  ".explicitcluster\n.reqnctapercluster 2, 1, 1\n"
  "{\n"
  "  .reg .pred %p<4>;\n  .reg .b32 %r<24>;\n  .reg .b64 %rd<8>;\n"
  "  .shared .align 4 .u32 s;\n"
  "  ld.param.u64 %rd1, [po];\n"
  "  mov.u32 %r1, %cluster_ctarank;\n  mov.u32 %r2, %cluster_nctarank;\n"
  "  add.u32 %r3, %r1, 1;\n  st.shared.u32 [s], %r3;\n"
  "  barrier.cluster.arrive.aligned;\n  barrier.cluster.wait.aligned;\n"
  "  rem.u32 %r4, %r3, %r2;\n"
  "  mov.u32 %r5, s;\n  cvt.u64.u32 %rd2, %r5;\n  cvta.shared.u64 %rd3, %rd2;\n"
  "  mapa.u64 %rd4, %rd3, %r4;\n  ld.u32 %r6, [%rd4];\n"
  "  mapa.shared::cluster.u32 %r7, %r5, %r4;\n  ld.shared::cluster.u32 %r8, [%r7];\n"
  "  barrier.cluster.arrive;\n  barrier.cluster.wait;\n"
  "  setp.eq.u32 %p1, %r6, %r8;\n  selp.u32 %r9, 1000, 0, %p1;\n"
  "  mov.u32 %r10, %clusterid.x;\n  mad.lo.u32 %r11, %r10, 100, %r9;\n"
  "  mad.lo.u32 %r12, %r2, 10, %r11;\n  add.u32 %r13, %r12, %r6;\n"
  "  mov.u32 %r14, %ctaid.x;\n  mul.wide.u32 %rd5, %r14, 4;\n  add.s64 %rd6, %rd1, %rd5;\n"
  "  isspacep.shared::cluster %p2, %rd4;\n  selp.u32 %r15, 10000, 0, %p2;\n"
  "  isspacep.shared %p3, %rd4;\n  selp.u32 %r16, 100000, 0, %p3;\n"
  "  add.u32 %r17, %r13, %r15;\n  add.u32 %r18, %r17, %r16;\n"
  "  st.global.u32 [%rd6], %r18;\n"
  "  ret;\n"
  "}\n";

START_TEST(test_cluster_dsmem_and_barrier)
{
  struct fx f;
  load(&f, k_cluster);
  uint64_t p = buffer(&f, 6 * 4, "argument 0");
  ck_assert_int_eq(launch(&f, "cl", 6, 32, &p, 1, SIM_SCHED_ITS, 2, 0), SIM_OK);
  ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
  uint32_t out[6];
  ck_assert_int_eq(sim_read(f.d, p, out, sizeof out), SIM_OK);
  for (uint32_t b = 0; b < 6; b++)
    ck_assert_uint_eq(out[b], 10000 + 1000 + 100 * (b / 2) + 20 + ((b % 2 + 1) % 2 + 1));
  /* a grid that is not whole clusters is refused */
  ck_assert_int_eq(launch(&f, "cl", 5, 32, &p, 1, SIM_SCHED_ITS, 2, 0), SIM_ERR_BADARG);
  ck_assert_msg(strstr(f.err, "whole number of clusters"), "%s", f.err);
  done(&f);
}
END_TEST

/* The emulator's tensor map: the fields come back as encoded; the modes it does not model
   (interleave, swizzle, NaN fill, element strides) and the encoder's limits are refused by
   name. */
START_TEST(test_tensor_map_encode)
{
  struct sim_tmap t = {.addr = 0x7f0000000100ull, .dtype = SIM_TMAP_F16, .rank = 3,
                       .dims = {40, 30, 7}, .strides = {96, 96 * 30}, .box = {16, 8, 2},
                       .estrides = {1, 1, 1}};
  uint8_t map[SIM_TMAP_BYTES];
  char err[200];
  struct sim_tmap back;
  ck_assert_int_eq(sim_tmap_encode(&t, map, err, sizeof err), 0);
  ck_assert_int_eq(sim_tmap_decode(map, &back), 0);
  ck_assert_uint_eq(back.addr, t.addr);
  ck_assert_uint_eq(back.dtype, SIM_TMAP_F16);
  ck_assert_uint_eq(back.rank, 3);
  for (unsigned d = 0; d < 3; d++) {
    ck_assert_uint_eq(back.dims[d], t.dims[d]);
    ck_assert_uint_eq(back.box[d], t.box[d]);
  }
  ck_assert_uint_eq(back.strides[0], 96);
  ck_assert_uint_eq(back.strides[1], 96 * 30);
  memset(map, 0, sizeof map);
  ck_assert_int_eq(sim_tmap_decode(map, &back), -1);   /* zeros are not a map */
  static const struct { unsigned field; const char *needle; } bad[] = {
    {0, "interleave"}, {1, "swizzle"}, {2, "NaN fill"}, {3, "element stride"}, {4, "multiple of 16 bytes"},
    {5, "16-byte aligned"}, {6, "1 to 256"}, {7, "multiple of 16 below"},
  };
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    struct sim_tmap u = t;
    switch (bad[k].field) {
    case 0: u.interleave = 1; break;
    case 1: u.swizzle = 3; break;
    case 2: u.oobfill = 1; break;
    case 3: u.estrides[1] = 2; break;
    case 4: u.box[0] = 4; break;
    case 5: u.addr += 8; break;
    case 6: u.box[2] = 300; break;
    default: u.strides[0] = 90; break;
    }
    err[0] = 0;
    ck_assert_int_eq(sim_tmap_encode(&u, map, err, sizeof err), -1);
    ck_assert_msg(strstr(err, bad[k].needle), "case %zu: \"%s\" lacks \"%s\"", k, err, bad[k].needle);
  }
}
END_TEST

/* A launch's own cluster dimension (cuLaunchKernelEx's attribute, --cluster) is held to the
   portable maximum of 8 blocks a cluster, as a kernel's __cluster_dims__ is; 8 runs. */
START_TEST(test_launch_cluster_past_portable_refused)
{
  struct fx f;
  load(&f, k_store);
  uint64_t p = buffer(&f, 16 * 32 * 4, "argument 0");
  struct sim_launch c = {.grid = {16, 1, 1}, .block = {32, 1, 1}, .sched = SIM_SCHED_ITS,
                         .workers = 1, .cluster = {16, 1, 1}};
  sim_result_free(&f.r);
  ck_assert_int_eq(sim_run(f.d, &f.m, "store", &p, 8, &c, &f.r, f.err, sizeof f.err),
                   SIM_ERR_BADARG);
  ck_assert_msg(strstr(f.err, "CUDA_ERROR_INVALID_CLUSTER_SIZE") &&
                strstr(f.err, "launched with clusters of (16,1,1)") &&
                strstr(f.err, "more than the portable maximum of 8"), "%s", f.err);
  c.cluster[0] = 8;
  sim_result_free(&f.r);
  ck_assert_int_eq(sim_run(f.d, &f.m, "store", &p, 8, &c, &f.r, f.err, sizeof f.err), SIM_OK);
  ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
  done(&f);
}
END_TEST

/* The worker threads' default is the cores this process may run on (its affinity), not the
   machine's: pinned to one core, one. (libcheck runs each test in a child of its own.) */
START_TEST(test_host_cores_affinity)
{
  cpu_set_t set;
  ck_assert_int_eq(sched_getaffinity(0, sizeof set, &set), 0);
  int first = -1;
  for (int c = 0; c < CPU_SETSIZE && first < 0; c++)
    if (CPU_ISSET(c, &set))
      first = c;
  ck_assert_int_ge(first, 0);
  ck_assert_uint_eq(sim_host_cores(), (uint32_t)CPU_COUNT(&set));
  CPU_ZERO(&set);
  CPU_SET(first, &set);
  ck_assert_int_eq(sched_setaffinity(0, sizeof set, &set), 0);
  ck_assert_uint_eq(sim_host_cores(), 1);
}
END_TEST

/* sim_race_fill against memset: shared memory of n bytes (at every alignment mod 4) that
   holds x but for some bytes (none, one anywhere, the first and the last, a run, bytes at
   random, the first and one anywhere) ends up all x, and the bytes around it are not
   touched. */
START_TEST(test_race_fill_matches_memset)
{
  static const size_t sizes[] = {0, 1, 7, 8, 9, 31, 127, 128, 129, 255, 256, 257, 511, 512, 513,
                                 767, 768, 769, 1000, 4093};
  static uint8_t buf[4096 + 64], want[4096 + 64];
  uint64_t rng = 0x2545f4914f6cdd1dull;
  unsigned filled = 0;
  for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
    for (unsigned xi = 0; xi < 2; xi++)
      for (unsigned al = 0; al < 4; al++)
        for (unsigned kind = 0; kind < 6; kind++) {
          const size_t n = sizes[si];
          const uint8_t x = xi ? 0xff : 0;
          const size_t reps = kind == 1 || kind == 5 ? n : kind == 4 ? 8 : 1;
          for (size_t r = 0; r < reps; r++) {
            uint8_t *p = buf + 16 + al;
            memset(buf, 0xab, sizeof buf);
            memset(p, x, n);
            if (n && kind == 1)
              p[r] = (uint8_t)(x ^ (1u << (r % 8)));
            if (n && kind == 2)
              p[0] = p[n - 1] = (uint8_t)~x;
            if (n && kind == 5)
              p[0] = p[r] = (uint8_t)(x ^ 0x80);
            if (n && kind == 3)
              memset(p + n / 3, 0x5a, n / 3 + 1);
            if (n && kind == 4)
              for (unsigned k = 0; k < 3; k++) {
                rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
                p[rng % n] = (uint8_t)(rng >> 32 | 1);
              }
            sim_race_fill(p, n, x);
            memset(want, 0xab, sizeof want);
            memset(want + 16 + al, x, n);
            if (memcmp(buf, want, sizeof buf)) {
              size_t i = 0;
              while (buf[i] == want[i])
                i++;
              ck_abort_msg("n %zu x %#x align %u kind %u rep %zu: byte %td is %#x", n, x, al,
                           kind, r, buf + i - p, buf[i]);
            }
            filled++;
          }
        }
  ck_assert_uint_gt(filled, 2000);
}
END_TEST

/* sim_race_global_stores_seq's new lines without a gctx (line_new) against line_store
   (sim_race_lane_shortcuts 0): random programs of three warps, each step a coalesced 4- or
   8-byte store of every thread at its own word plus an offset (0, 1, 16, 32, 33 or 64
   words; values that change the word or not), a read of another thread's word, a
   __syncwarp() or a barrier, must report the same fault, to the message, and leave the
   same values and counters. */
START_TEST(test_global_lines_new_match_line_store)
{
  static const unsigned offs[6] = {0, 1, 16, 32, 33, 64};
  uint64_t rng = 0x853c49e6748fea9bull;
#define GL_NEXT() rng_next(&rng)
  unsigned races = 0, clean = 0;
  static char k[8192];
  for (int trial = 0; trial < 150; trial++) {
    size_t n = (size_t)snprintf(k, sizeof k,
      HDR
      ".visible .entry gl(.param .u64 out)\n{\n"
      "  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<8>;\n"
      "  mov.u32 %%r1, %%tid.x;\n  ld.param.u64 %%rd1, [out];\n"
      "  mul.wide.u32 %%rd2, %%r1, 4;\n  add.s64 %%rd3, %%rd1, %%rd2;\n"
      "  mul.wide.u32 %%rd4, %%r1, 8;\n  add.s64 %%rd5, %%rd1, %%rd4;\n");
    for (int step = 0; step < 8; step++) {
      const uint32_t kind = GL_NEXT() % 10, off = offs[GL_NEXT() % 6], v = GL_NEXT() % 3;
      const char *val = v == 0 ? "%r1" : v == 1 ? "0" : "7";
      if (kind < 4)
        n += (size_t)snprintf(k + n, sizeof k - n,
                              "  .loc 1 %d 3\n  st.global.u32 [%%rd3+%u], %s;\n", 10 + step,
                              4 * off, val);
      else if (kind < 6)
        n += (size_t)snprintf(k + n, sizeof k - n,
                              "  cvt.u64.u32 %%rd6, %s;\n  .loc 1 %d 3\n"
                              "  st.global.u64 [%%rd5+%u], %%rd6;\n", val, 10 + step, 8 * off);
      else if (kind < 8)
        n += (size_t)snprintf(k + n, sizeof k - n,
                              "  xor.b32 %%r2, %%r1, %u;\n  mul.wide.u32 %%rd6, %%r2, 4;\n"
                              "  add.s64 %%rd7, %%rd1, %%rd6;\n  .loc 1 %d 3\n"
                              "  ld.global.u32 %%r3, [%%rd7+%u];\n", GL_NEXT() % 64, 10 + step,
                              4 * off);
      else
        n += (size_t)snprintf(k + n, sizeof k - n, "  %s\n",
                              kind == 8 ? "bar.warp.sync -1;" : "bar.sync 0;");
    }
    snprintf(k + n, sizeof k - n, "  ret;\n}\n.file 1 \"/lab/gl.cu\"\n");
    struct sim_result r[2];
    uint32_t got[2][512];
    struct sim_launch c = {.grid = {1, 1, 1}, .block = {96, 1, 1}, .sched = SIM_SCHED_ITS,
                           .workers = 1};
    run_switched(k, "gl", &c, &sim_race_lane_shortcuts, r, got[0], got[1], sizeof got[0]);
    same_race_runs(r, got[0], got[1], sizeof got[0], &races, &clean);
  }
#undef GL_NEXT
  ck_assert_uint_gt(races, 20);
  ck_assert_uint_gt(clean, 3);
}
END_TEST

/* reads_other's lanes that change nothing (quiet: the summary names many readers already;
   or the two lanes before read the same word) against shadow_word lane by lane
   (sim_race_lane_shortcuts 0): random programs of three warps over 128 words of shared
   memory, each step a full warp's read in one of eight shapes (a word per half-warp, pairs of
   lanes, runs of two and three, one word, the thread's own, a neighbour's, a warp's words
   shifted), a write of its own word (by every lane or lanes 0-15 of each warp) or of another
   (racing or not), a __syncwarp() or a barrier; half of them with every word written first,
   the rest reading words never written; a quarter with the warps in reverse order, a quarter
   in turns of a seed's shuffle; must report the same fault, to the message, and leave the
   same values and counters. */
START_TEST(test_shared_reads_quiet_match_lanes)
{
  static const char *const shape[8] = {
    "  shr.u32 %r2, %r1, 4;\n",                          /* a word a half-warp */
    "  and.b32 %r2, %r1, 15;\n",                         /* lanes l and l + 16 */
    "  shr.u32 %r2, %r1, 1;\n",                          /* runs of two */
    "  mul.lo.u32 %r2, %r1, 11;\n  shr.u32 %r2, %r2, 5;\n",  /* runs of two and three */
    "  mov.u32 %r2, 5;\n",                               /* one word */
    "  mov.u32 %r2, %r1;\n",                             /* its own */
    "  add.u32 %r2, %r1, 1;\n",                          /* a neighbour's */
    "  add.u32 %r2, %r1, 32;\n",                         /* the next warp's */
  };
  uint64_t rng = 0x2545F4914F6CDD1Dull;
#define SQ_NEXT() rng_next(&rng)
  unsigned races = 0, clean = 0, uninit = 0;
  static char k[16384];
  quiet_begin();
  for (int trial = 0; trial < 400; trial++) {
    const int first = trial % 2;                      /* every word written, then a barrier */
    size_t n = (size_t)snprintf(k, sizeof k,
      HDR
      ".visible .entry sq(.param .u64 out)\n{\n"
      "  .reg .pred %%p<2>;\n  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<4>;\n"
      "  .reg .f32 %%f<4>;\n  .shared .align 4 .b8 s[512];\n"
      "  mov.u32 %%r1, %%tid.x;\n  mov.u32 %%r5, s;\n  mov.f32 %%f2, 0f00000000;\n"
      "  and.b32 %%r7, %%r1, 31;\n  setp.lt.u32 %%p1, %%r7, 16;\n"
      "  shl.b32 %%r6, %%r1, 2;\n  add.u32 %%r6, %%r5, %%r6;\n%s",
      first ? "  .loc 1 9 3\n  st.shared.u32 [%r6], %r1;\n"
              "  add.u32 %r7, %r6, 384;\n  setp.lt.u32 %p1, %r1, 32;\n"
              "  @%p1 st.shared.u32 [%r7], %r1;\n  bar.sync 0;\n" : "");
    for (int step = 0; step < 10; step++) {
      const uint32_t kind = SQ_NEXT() % 12;
      if (kind < 7) {                                 /* a read of word r2 & 127 */
        n += (size_t)snprintf(k + n, sizeof k - n,
                              "%s  and.b32 %%r2, %%r2, 127;\n  shl.b32 %%r2, %%r2, 2;\n"
                              "  add.u32 %%r3, %%r5, %%r2;\n  .loc 1 %d 3\n"
                              "  ld.shared.f32 %%f1, [%%r3];\n  add.f32 %%f2, %%f2, %%f1;\n",
                              shape[SQ_NEXT() % 8], 10 + step);
      } else if (kind < 9) {                          /* a write: its own word, or another's */
        const uint32_t off = SQ_NEXT() % 3 == 0 ? 4 * (SQ_NEXT() % 64) : 0;
        n += (size_t)snprintf(k + n, sizeof k - n,
                              "  add.u32 %%r4, %%r1, %u;\n  and.b32 %%r4, %%r4, 127;\n"
                              "  shl.b32 %%r4, %%r4, 2;\n  add.u32 %%r4, %%r5, %%r4;\n"
                              "  .loc 1 %d 3\n  %sst.shared.f32 [%%r4], %%f2;\n", off / 4,
                              10 + step, off ? "" : SQ_NEXT() % 2 ? "@%p1 " : "");
      } else {
        n += (size_t)snprintf(k + n, sizeof k - n, "  %s\n",
                              kind == 9 ? "bar.warp.sync -1;" : "bar.sync 0;");
      }
    }
    race_trial96(k, sizeof k, n, "sq", trial, &races, &clean, &uninit);
  }
#undef SQ_NEXT
  quiet_end(1000);
  ck_assert_uint_gt(races, 20);
  ck_assert_uint_gt(clean, 20);
  ck_assert_uint_gt(uninit, 5);
}
END_TEST

/* The race checks of a full warp's float2 and float4 (reads: a word of every lane's at a time
   while their checks stay silent, then lane by lane, the words marked quiet once many warps
   read them; stores: recorded without the checks where none could report) against the lane
   loop (sim_race_lane_shortcuts 0): random programs of three warps over 128 words of shared
   memory, each step a read or a store of 8 or 16 bytes a lane at an element of one of seven
   shapes (its own, a neighbour's, the next warp's, one for four lanes, one for all, a hash of
   the lane, one of 16), a store by the first warp or by all, of the sum so far, of 0xff bytes
   (what unwritten words hold) or of what is there already (a store that changes nothing), a
   word write (its own, or another's, by all lanes or half of them, of the sum or of 0xff
   bytes) or a barrier; some programs begin with thread 0's word, a barrier, the first
   warp's float4s (one over that word, of what it holds and what unwritten words hold, or
   not) and reads of both, or with a float4 after a __syncwarp and then a neighbour's word in
   it; half of
   them with every word written first, the rest reading words never written (the
   uninitialised read of the first such word, as the lane loop finds it). Must report the
   same fault, to the message, and leave the same values and counters. */
START_TEST(test_shared_wide_match_lanes)
{
  static const char *const shape[7] = {
    "  mov.u32 %r2, %r1;\n",                             /* its own */
    "  add.u32 %r2, %r1, 1;\n",                          /* a neighbour's */
    "  add.u32 %r2, %r1, 32;\n",                         /* the next warp's */
    "  shr.u32 %r2, %r1, 2;\n",                          /* one for four lanes */
    "  mov.u32 %r2, 3;\n",                               /* one for all */
    "  mul.lo.u32 %r2, %r1, 7;\n",                       /* a hash */
    "  and.b32 %r2, %r1, 15;\n",                         /* one of 16 */
  };
  uint64_t rng = 0x3C6EF372FE94F82Bull;
#define SW_NEXT() rng_next(&rng)
  unsigned races = 0, clean = 0, uninit = 0;
  static char k[16384];
  quiet_begin();
  for (int trial = 0; trial < 400; trial++) {
    const int first = trial % 2;                      /* every word written, then a barrier */
    size_t n = (size_t)snprintf(k, sizeof k,
      HDR
      ".visible .entry sw(.param .u64 out)\n{\n"
      "  .reg .pred %%p<3>;\n  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<4>;\n"
      "  .reg .f32 %%f<8>;\n  .shared .align 16 .b8 s[512];\n"
      "  mov.u32 %%r1, %%tid.x;\n  mov.u32 %%r5, s;\n  mov.f32 %%f2, 0f00000000;\n"
      "  mov.b32 %%f6, 0fFFFFFFFF;\n  setp.eq.u32 %%p2, %%r1, 0;\n"
      "  and.b32 %%r7, %%r1, 31;\n  setp.lt.u32 %%p1, %%r7, 16;\n"
      "  shl.b32 %%r6, %%r1, 2;\n  add.u32 %%r6, %%r5, %%r6;\n"
      "  setp.lt.u32 %%p0, %%r1, 32;\n%s",
      first ? "  .loc 1 9 3\n  st.shared.u32 [%r6], %r1;\n"
              "  add.u32 %r7, %r6, 384;\n  setp.lt.u32 %p1, %r1, 32;\n"
              "  @%p1 st.shared.u32 [%r7], %r1;\n  bar.sync 0;\n" : "");
    if (trial % 8 == 4 || trial % 8 == 5)
      /* thread 0 writes a word (of 0xff bytes, or 0); after a barrier the first warp its
         float4s, lane 3's over that word (of 0xff bytes: the same as the word and the
         unwritten ones), then thread 0 reads the word, the warp its float4s */
      n += (size_t)snprintf(k + n, sizeof k - n,
                            "  .loc 1 5 3\n  @%%p2 st.shared.f32 [s+%d], %%f%d;\n"
                            "  bar.sync 0;\n  @!%%p0 bra $Lw;\n"
                            "  and.b32 %%r2, %%r1, 31;\n  shl.b32 %%r2, %%r2, 4;\n"
                            "  add.u32 %%r3, %%r5, %%r2;\n"
                            "  .loc 1 6 3\n  st.shared.v4.f32 [%%r3], {%%f%d, %%f%d, %%f%d, %%f%d};\n"
                            "  .loc 1 7 3\n  @%%p2 ld.shared.f32 %%f4, [s+%d];\n"
                            "  .loc 1 8 3\n  ld.shared.v4.f32 {%%f4, %%f5, %%f3, %%f7}, [%%r3];\n"
                            "$Lw:\n",
                            48 + 4 * (trial / 8 % 4), trial % 8 == 4 ? 6 : 2,
                            trial % 8 == 4 ? 6 : 2, trial % 8 == 4 ? 6 : 2,
                            trial % 8 == 4 ? 6 : 2, trial % 8 == 4 ? 6 : 2,
                            48 + 4 * (trial / 8 % 4));
    else if (trial % 8 == 6)     /* a float4 after a __syncwarp, then a neighbour's word */
      n += (size_t)snprintf(k + n, sizeof k - n,
                            "  .loc 1 5 3\n  st.shared.f32 [%%r6], %%f2;\n  bar.sync 0;\n"
                            "  @!%%p0 bra $Lw;\n"
                            "  bar.warp.sync -1;\n  and.b32 %%r2, %%r1, 31;\n"
                            "  shl.b32 %%r2, %%r2, 4;\n  add.u32 %%r3, %%r5, %%r2;\n"
                            "  .loc 1 6 3\n  st.shared.v4.f32 [%%r3], {%%f2, %%f2, %%f2, %%f2};\n"
                            "  .loc 1 7 3\n  st.shared.f32 [%%r6+4], %%f2;\n$Lw:\n");
    for (int step = 0; step < 8; step++) {
      const uint32_t kind = SW_NEXT() % 14;
      if (kind < 7) {                                 /* a read of 8 or 16 bytes */
        const int v4 = SW_NEXT() % 2;
        n += (size_t)snprintf(k + n, sizeof k - n,
                              "%s  and.b32 %%r2, %%r2, %d;\n  shl.b32 %%r2, %%r2, %d;\n"
                              "  add.u32 %%r3, %%r5, %%r2;\n  .loc 1 %d 3\n"
                              "  ld.shared.%s, [%%r3];\n  add.f32 %%f2, %%f2, %%f4;\n"
                              "  add.f32 %%f2, %%f2, %%f5;\n",
                              shape[SW_NEXT() % 7], v4 ? 31 : 63, v4 ? 4 : 3, 10 + step,
                              v4 ? "v4.f32 {%f4, %f5, %f3, %f7}" : "v2.f32 {%f4, %f5}");
      } else if (kind < 9) {                          /* a store of 8 or 16 bytes */
        const int v4 = SW_NEXT() % 2, keep = SW_NEXT() % 3 == 0;
        n += (size_t)snprintf(k + n, sizeof k - n,
                              "%s  and.b32 %%r2, %%r2, %d;\n  shl.b32 %%r2, %%r2, %d;\n"
                              "  add.u32 %%r3, %%r5, %%r2;\n%s  .loc 1 %d 3\n"
                              "  %sst.shared.%s;\n",
                              shape[SW_NEXT() % 7], v4 ? 31 : 63, v4 ? 4 : 3,
                              !keep ? "" : v4 ? "  ld.volatile.shared.v4.f32 {%f4, %f5, %f3, %f7}, [%r3];\n"
                                              : "  ld.volatile.shared.v2.f32 {%f4, %f5}, [%r3];\n",
                              10 + step, SW_NEXT() % 3 ? "@%p0 " : "",
                              keep ? (v4 ? "v4.f32 [%r3], {%f4, %f5, %f3, %f7}"
                                         : "v2.f32 [%r3], {%f4, %f5}")
                              : SW_NEXT() % 3 == 0  /* as the poison (0xff bytes) is */
                                   ? (v4 ? "v4.f32 [%r3], {%f6, %f6, %f6, %f6}"
                                         : "v2.f32 [%r3], {%f6, %f6}")
                                   : (v4 ? "v4.f32 [%r3], {%f2, %f4, %f2, %f5}"
                                         : "v2.f32 [%r3], {%f5, %f2}"));
      } else if (kind < 11) {                          /* a write: its own word, or another's */
        const uint32_t off = SW_NEXT() % 3 == 0 ? 4 * (SW_NEXT() % 64) : 0;
        n += (size_t)snprintf(k + n, sizeof k - n,
                              "  add.u32 %%r4, %%r1, %u;\n  and.b32 %%r4, %%r4, 127;\n"
                              "  shl.b32 %%r4, %%r4, 2;\n  add.u32 %%r4, %%r5, %%r4;\n"
                              "  .loc 1 %d 3\n  %sst.shared.f32 [%%r4], %%f%d;\n", off / 4,
                              10 + step, off ? "" : SW_NEXT() % 2 ? "@%p1 " : "",
                              SW_NEXT() % 3 ? 2 : 6);
      } else {
        n += (size_t)snprintf(k + n, sizeof k - n, "  %s\n",
                              kind == 11 ? "bar.warp.sync -1;" : "bar.sync 0;");
      }
    }
    race_trial96(k, sizeof k, n, "sw", trial, &races, &clean, &uninit);
  }
#undef SW_NEXT
#ifdef SIM_X86
  quiet_end(sim_cpu_avx2 ? 500 : 0);     /* (the scattered reads' marks: AVX2's path) */
#else
  quiet_end(0);
#endif
  ck_assert_uint_gt(races, 20);
  ck_assert_uint_gt(clean, 20);
  ck_assert_uint_gt(uninit, 5);
}
END_TEST

/* sim_race_shared_atomics's test of a warp whose words are all written already (nothing to
   record: a histogram's bins) against its lane loop (sim_race_lane_shortcuts 0): random
   programs of three warps over 128 words of shared memory, each step a 32-bit atomic add by
   a full warp or by lanes 0-15 at words in one of four shapes (its own, a word a half-warp,
   one word, the next warp's), a write of its own word (a word or one byte of it, by a full
   warp or by lanes 0-15), a read of it (the word, or its byte 1) or a barrier; half of them with every word written first, the rest with atomics at words never
   written (the uninitialised read of the first such lane); must report the same fault and
   leave the same values and counters. */
START_TEST(test_shared_atomics_quiet_match_lanes)
{
  static const char *const shape[4] = {
    "  mov.u32 %r2, %r1;\n",                             /* its own */
    "  shr.u32 %r2, %r1, 4;\n",                          /* a word a half-warp */
    "  mov.u32 %r2, 9;\n",                               /* one word */
    "  add.u32 %r2, %r1, 32;\n",                         /* the next warp's */
  };
  uint64_t rng = 0x9E3779B97F4A7C15ull;
#define SA_NEXT() rng_next(&rng)
  unsigned races = 0, clean = 0, uninit = 0;
  static char k[16384];
  for (int trial = 0; trial < 300; trial++) {
    const int first = trial % 2;                      /* every word written, then a barrier */
    size_t n = (size_t)snprintf(k, sizeof k,
      HDR
      ".visible .entry sa(.param .u64 out)\n{\n"
      "  .reg .pred %%p<2>;\n  .reg .b32 %%r<10>;\n  .reg .b64 %%rd<4>;\n"
      "  .shared .align 4 .b8 s[512];\n"
      "  mov.u32 %%r1, %%tid.x;\n  mov.u32 %%r5, s;\n  mov.u32 %%r8, 0;\n"
      "  and.b32 %%r7, %%r1, 31;\n  setp.lt.u32 %%p1, %%r7, 16;\n"
      "  shl.b32 %%r6, %%r1, 2;\n  add.u32 %%r6, %%r5, %%r6;\n%s",
      first ? "  st.shared.u32 [%r6], %r1;\n  add.u32 %r7, %r6, 384;\n"
              "  setp.lt.u32 %p1, %r1, 32;\n  @%p1 st.shared.u32 [%r7], %r1;\n"
              "  and.b32 %r7, %r1, 31;\n  setp.lt.u32 %p1, %r7, 16;\n  bar.sync 0;\n" : "");
    for (int step = 0; step < 10; step++) {
      const uint32_t kind = SA_NEXT() % 10;
      if (kind < 6) {                                 /* an atomic add at word r2 & 127 */
        const char *sh = shape[SA_NEXT() % 4], *guard = SA_NEXT() % 3 ? "" : "@%p1 ";
        n += (size_t)snprintf(k + n, sizeof k - n,
                              "%s  and.b32 %%r2, %%r2, 127;\n  shl.b32 %%r2, %%r2, 2;\n"
                              "  add.u32 %%r3, %%r5, %%r2;\n  .loc 1 %d 3\n"
                              "  %satom.shared.add.u32 %%r9, [%%r3], %u;\n"
                              "  add.u32 %%r8, %%r8, %%r9;\n",
                              sh, 10 + step, guard, 1 + SA_NEXT() % 5);
      } else if (kind < 8) {                          /* a write of its own word, or a byte */
        const char *guard = SA_NEXT() % 3 ? "" : "@%p1 ";
        n += (size_t)snprintf(k + n, sizeof k - n, "  .loc 1 %d 3\n  %s%s [%%r6], %%r1;\n",
                              10 + step, guard, SA_NEXT() % 2 ? "st.shared.u32" : "st.shared.u8");
      } else if (kind < 9) {                          /* a read of its own word, or byte 1 */
        n += (size_t)snprintf(k + n, sizeof k - n,
                              "  .loc 1 %d 3\n  %s\n  add.u32 %%r8, %%r8, %%r9;\n", 10 + step,
                              SA_NEXT() % 2 ? "ld.shared.u32 %r9, [%r6];"
                                            : "ld.shared.u8 %r9, [%r6+1];");
      } else {
        n += (size_t)snprintf(k + n, sizeof k - n, "  bar.sync 0;\n");
      }
    }
    snprintf(k + n, sizeof k - n,
             "  ld.param.u64 %%rd1, [out];\n  mul.wide.u32 %%rd2, %%r1, 4;\n"
             "  add.s64 %%rd3, %%rd1, %%rd2;\n  st.global.u32 [%%rd3], %%r8;\n"
             "  ret;\n}\n.file 1 \"/lab/sa.cu\"\n");
    struct sim_result r[2];
    uint32_t got[2][96];
    struct sim_launch c = {.grid = {1, 1, 1}, .block = {96, 1, 1}, .sched = SIM_SCHED_ITS,
                           .workers = 1, .reverse = trial % 4 == 3};
    run_switched(k, "sa", &c, &sim_race_lane_shortcuts, r, got[0], got[1], sizeof got[0]);
    if (r[1].fault.kind == SIM_FK_UNINIT)
      uninit++;
    same_race_runs(r, got[0], got[1], sizeof got[0], &races, &clean);
  }
#undef SA_NEXT
  ck_assert_uint_gt(clean, 50);
  ck_assert_uint_gt(uninit, 20);
}
END_TEST

/* The same comparison as test_shared_reads_quiet_match_lanes over every program of three
   steps from eight, in two warps after every word is written and a barrier: reads of its own
   word, of a word a half-warp, of pairs of lanes on consecutive words or on every other
   word, of the other warp's words, its own word's write, a __syncwarp(), or a write of
   word tid % 16 by lanes 0-15; the warps in their order and in reverse. Every order of first
   and second readers of a word, of one warp or two, with the writes and counts that make
   them races or not. */
START_TEST(test_shared_reads_sequences_match_lanes)
{
  static const char *const step[8] = {
    "  mov.u32 %r2, %r1;\n  READ",                               /* its own */
    "  shr.u32 %r2, %r1, 4;\n  READ",                            /* a word a half-warp */
    "  and.b32 %r2, %r1, 15;\n  READ",                           /* pairs, consecutive */
    "  and.b32 %r2, %r1, 15;\n  shl.b32 %r2, %r2, 1;\n  READ",   /* pairs, every other */
    "  xor.b32 %r2, %r1, 32;\n  READ",                           /* the other warp's */
    "  shl.b32 %r4, %r1, 2;\n  add.u32 %r4, %r5, %r4;\n  st.shared.f32 [%r4], %f2;\n",
    "  bar.warp.sync -1;\n",
    "  and.b32 %r4, %r1, 31;\n  setp.lt.u32 %p1, %r4, 16;\n  and.b32 %r4, %r1, 15;\n"
    "  shl.b32 %r4, %r4, 2;\n  add.u32 %r4, %r5, %r4;\n  @%p1 st.shared.f32 [%r4], %f2;\n",
  };
  static const char read[] =
    "  and.b32 %r2, %r2, 63;\n  shl.b32 %r2, %r2, 2;\n  add.u32 %r3, %r5, %r2;\n"
    "  ld.shared.f32 %f1, [%r3];\n  add.f32 %f2, %f2, %f1;\n";
  unsigned races = 0, clean = 0;
  static char k[8192];
  quiet_begin();
  for (unsigned p = 0; p < 2 * 8 * 8 * 8; p++) {
    size_t n = (size_t)snprintf(k, sizeof k,
      HDR
      ".visible .entry ss(.param .u64 out)\n{\n"
      "  .reg .pred %%p<2>;\n  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<4>;\n  .reg .f32 %%f<4>;\n"
      "  .shared .align 4 .b8 s[256];\n"
      "  mov.u32 %%r1, %%tid.x;\n  mov.u32 %%r5, s;\n  cvt.rn.f32.u32 %%f2, %%r1;\n"
      "  shl.b32 %%r6, %%r1, 2;\n  add.u32 %%r6, %%r5, %%r6;\n"
      "  .loc 1 9 3\n  st.shared.f32 [%%r6], %%f2;\n  bar.sync 0;\n");
    for (unsigned j = 0, q = p % (8 * 8 * 8); j < 3; j++, q /= 8) {
      const char *st = step[q % 8], *at = strstr(st, "READ");
      n += (size_t)snprintf(k + n, sizeof k - n, "  .loc 1 %u 3\n%.*s%s", 10 + j,
                            (int)(at ? at - st : (ptrdiff_t)strlen(st)), st, at ? read : "");
    }
    snprintf(k + n, sizeof k - n,
             "  ld.param.u64 %%rd1, [out];\n  mul.wide.u32 %%rd2, %%r1, 4;\n"
             "  add.s64 %%rd3, %%rd1, %%rd2;\n  st.global.f32 [%%rd3], %%f2;\n"
             "  ret;\n}\n.file 1 \"/lab/ss.cu\"\n");
    struct sim_result r[2];
    float got[2][64];
    struct sim_launch c = {.grid = {1, 1, 1}, .block = {64, 1, 1}, .sched = SIM_SCHED_ITS,
                           .workers = 1, .reverse = p >= 8 * 8 * 8};
    run_switched(k, "ss", &c, &sim_race_lane_shortcuts, r, got[0], got[1], sizeof got[0]);
    same_race_runs(r, got[0], got[1], sizeof got[0], &races, &clean);
  }
  quiet_end(1000);
  ck_assert_uint_gt(races, 50);
  ck_assert_uint_gt(clean, 50);
}
END_TEST

/* A warp's read of 32 consecutive words some of which it read before in the epoch and some
   not (sim_race.c's reads_join_avx2) keeps all four bytes in each word's read summary: a
   word new to the epoch whose last summary, of an epoch before, had one byte; or a word read
   in the epoch only by one byte, by the same thread. So another warp's store of another
   byte of the word is a race (write-after-read), with the shortcuts as on the general
   path. Warp 0 reads its own words, then words 16-47; warp 1 stores byte 0 of its own. */
START_TEST(test_shared_reads_join_bytes)
{
  static const char *const before[2][2] = {
    {"  ld.shared.u8 %r7, [%r6+3];\n", ""},                            /* an epoch before */
    {"", "  ld.shared.u8 %r7, [%r3+3];\n"},                            /* this one */
  };
  static char k[4096];
  for (unsigned v = 0; v < 2; v++) {
    snprintf(k, sizeof k,
      HDR
      ".visible .entry jb(.param .u64 out)\n{\n"
      "  .reg .pred %%p<2>;\n  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<4>;\n  .reg .f32 %%f<4>;\n"
      "  .shared .align 4 .b8 s[256];\n"
      "  mov.u32 %%r1, %%tid.x;\n  mov.u32 %%r5, s;\n  cvt.rn.f32.u32 %%f2, %%r1;\n"
      "  mov.u32 %%r7, 7;\n  shl.b32 %%r6, %%r1, 2;\n  add.u32 %%r6, %%r5, %%r6;\n"
      "  add.u32 %%r2, %%r1, 16;\n  shl.b32 %%r2, %%r2, 2;\n  add.u32 %%r3, %%r5, %%r2;\n"
      "  .loc 1 9 3\n  st.shared.f32 [%%r6], %%f2;\n  bar.sync 0;\n"
      "  .loc 1 10 3\n%s  bar.sync 0;\n"
      "  setp.ge.u32 %%p1, %%r1, 32;\n  @%%p1 bra $L_w1;\n"
      "  .loc 1 11 3\n%s"
      "  .loc 1 12 3\n  ld.shared.f32 %%f1, [%%r6];\n  add.f32 %%f2, %%f2, %%f1;\n"
      "  .loc 1 13 3\n  ld.shared.f32 %%f1, [%%r3];\n  add.f32 %%f2, %%f2, %%f1;\n"
      "  bra.uni $L_out;\n"
      "$L_w1:\n  .loc 1 14 3\n  st.shared.u8 [%%r6], %%r7;\n"
      "$L_out:\n"
      "  ld.param.u64 %%rd1, [out];\n  mul.wide.u32 %%rd2, %%r1, 4;\n"
      "  add.s64 %%rd3, %%rd1, %%rd2;\n  st.global.f32 [%%rd3], %%f2;\n"
      "  ret;\n}\n.file 1 \"/lab/jb.cu\"\n", before[v][0], before[v][1]);
    struct sim_result r[2];
    float got[2][64];
    unsigned races = 0, clean = 0;
    struct sim_launch c = {.grid = {1, 1, 1}, .block = {64, 1, 1}, .sched = SIM_SCHED_ITS,
                           .workers = 1};
    run_switched(k, "jb", &c, &sim_race_lane_shortcuts, r, got[0], got[1], sizeof got[0]);
    ck_assert_msg(strstr(r[1].fault.message, "write-after-read hazard on s[128]") != NULL,
                  "case %u: %s", v, r[1].fault.message);
    same_race_runs(r, got[0], got[1], sizeof got[0], &races, &clean);
    ck_assert_uint_eq(races, 1);
  }
}
END_TEST

/* A full warp's cvt.rn.f32.s32, cvt.rn.f32.u32 and cvt.rzi{,.ftz}.s32.f32 (sim_exec.c's
   cvt_full_avx2) against sim_alu_cvt, and against sim_exec's lane loop (sim_exec_shortcuts
   0): integers that round (2^24 + 1, + 3, the top of the range), the ends, and floats NaN,
   infinite, at and past the ends of the s32 range, subnormal, halves, then random bits; two
   warps. */
START_TEST(test_cvt_full_matches_lanes)
{
  static const char *k =
    HDR
    ".visible .entry cv(.param .u64 in, .param .u64 out)\n{\n"
    "  .reg .b32 %r<6>;\n  .reg .b64 %rd<12>;\n  .reg .f32 %f<4>;\n"
    "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd3, %r1, 4;\n  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.u32 %r2, [%rd4];\n  mov.b32 %f3, %r2;\n"
    "  cvt.rn.f32.s32 %f1, %r2;\n  cvt.rn.f32.u32 %f2, %r2;\n"
    "  cvt.rzi.s32.f32 %r3, %f3;\n  cvt.rzi.ftz.s32.f32 %r4, %f3;\n"
    "  mul.wide.u32 %rd5, %r1, 16;\n  add.s64 %rd6, %rd2, %rd5;\n"
    "  st.global.f32 [%rd6], %f1;\n  st.global.f32 [%rd6+4], %f2;\n"
    "  st.global.s32 [%rd6+8], %r3;\n  st.global.s32 [%rd6+12], %r4;\n"
    "  ret;\n}\n";
  static const uint32_t edge[] = {
    0, 1, 0xffffffffu, 0x80000000u, 0x7fffffffu, 0x01000001u, 0x01000003u, 0x01000002u,
    0xfeffffffu, 0x80000001u, 0x7fffffc0u, 0xffffff81u,
    0x7fc00000u, 0xffc00001u, 0x7f800000u, 0xff800000u, 0x4f000000u, 0xcf000000u,
    0xcf000001u, 0x4effffffu, 0x00000001u, 0x80000001u, 0x3f000000u, 0xbfc00000u,
    0x501502f9u, 0xd01502f9u, 0x3f7fffffu, 0xbf7fffffu, 0x807fffffu, 0x4b000001u};
  uint32_t in[64];
  uint64_t rng = 0x9E3779B97F4A7C15ull;
  for (unsigned i = 0; i < 64; i++)
    in[i] = i < sizeof edge / sizeof *edge ? edge[i] : (uint32_t)(sim_order_next(&rng) >> 16);
  uint32_t got[2][64 * 4];
  for (int sc = 0; sc < 2; sc++) {
    struct fx f;
    load(&f, k);
    uint64_t p[2] = {buffer(&f, sizeof in, "in"), buffer(&f, sizeof got[0], "out")};
    ck_assert_int_eq(sim_write(f.d, p[0], in, sizeof in), SIM_OK);
    sim_exec_shortcuts = sc;
    enum sim_status st = launch(&f, "cv", 1, 64, p, 2, SIM_SCHED_ITS, 1, 0);
    sim_exec_shortcuts = 1;
    ck_assert_int_eq(st, SIM_OK);
    ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
    ck_assert_int_eq(sim_read(f.d, p[1], got[sc], sizeof got[sc]), SIM_OK);
    done(&f);
  }
  for (unsigned i = 0; i < 64; i++) {
    const uint32_t *g = &got[1][4 * i];
    const uint32_t want[4] = {
      (uint32_t)sim_alu_cvt(PTX_T_F32, PTX_T_S32, PTX_RND_RN, 0, in[i]),
      (uint32_t)sim_alu_cvt(PTX_T_F32, PTX_T_U32, PTX_RND_RN, 0, in[i]),
      (uint32_t)sim_alu_cvt(PTX_T_S32, PTX_T_F32, PTX_RND_RZI, 0, in[i]),
      (uint32_t)sim_alu_cvt(PTX_T_S32, PTX_T_F32, PTX_RND_RZI, PTX_F_FTZ, in[i])};
    ck_assert_msg(!memcmp(g, want, sizeof want), "0x%08x: f32.s32 0x%08x (0x%08x), f32.u32 "
                  "0x%08x (0x%08x), s32.f32 0x%08x (0x%08x), .ftz 0x%08x (0x%08x)", in[i],
                  g[0], want[0], g[1], want[1], g[2], want[2], g[3], want[3]);
  }
  ck_assert_mem_eq(got[0], got[1], sizeof got[0]);
}
END_TEST

/* sim_vfp.c's vector code against sim_alu, lane by lane, for every operation it takes: the
   IEEE operations of f32 and f64 (add, sub, mul, fma, div, sqrt, rcp) in each rounding mode,
   division's .full and .approx, abs, neg and copysign, rounding to an integral value, the
   conversions between f32 and f64 and between floats and 32-bit integers, cvt.sat.f32.f32,
   and the f32 approximations (rsqrt, sin, cos, lg2, ex2, tanh), with .ftz and without;
   operands drawn from NaNs (quiet and signalling, with payloads, of either sign),
   infinities, zeros, subnormals, the ends of the ranges, values near 2^126 (whose
   reciprocal is subnormal), 2^31 and 2^32, halves, and random bits and random ordinary
   values; 100 warps of 32 lanes each. An s32 result is compared sign-extended, as widen
   leaves it. */
static uint64_t vfp_operand(uint64_t *rng, int f64)
{
  static const uint32_t s32[] = {
    0x7fc00000u, 0xffc00001u, 0x7fa00001u, 0xff800001u, 0x7f800000u, 0xff800000u, 0, 0x80000000u,
    1, 0x80000001u, 0x007fffffu, 0x00800000u, 0x7f7fffffu, 0xff7fffffu, 0x3f800000u,
    0xbf800000u, 0x7e800000u, 0x7e800001u, 0xfe800001u, 0x4f000000u, 0xcf000000u, 0xcf000001u,
    0x4effffffu, 0x3f000000u, 0x01000003u, 0x7fffffffu, 0xffffffffu, 0x4f800000u, 0x4f7fffffu,
    0xbf000000u, 0x3fc00000u, 0x40200000u, 0xc0200000u, 0x3effffffu};
  static const uint64_t s64[] = {
    0x7ff8000000000000ull, 0xfff8000000000123ull, 0x7ff0000000000001ull, 0x7ff0000000000000ull,
    0xfff0000000000000ull, 0, 0x8000000000000000ull, 1, 0x000fffffffffffffull,
    0x7fefffffffffffffull, 0x3ff0000000000000ull, 0xbff0000000000000ull,
    0x47efffffe0000000ull, 0x47efffff00000000ull, 0x3810000000000000ull, 0x36a0000000000000ull,
    0x380fffffffffffffull, 0x7ff8000000000001ull, 0x7ff4000000000000ull, 0xfffc0000f0000000ull,
    0x7ff00000a0000000ull, 0x41e0000000000000ull, 0x41dfffffffc00000ull, 0xc1e0000000200000ull,
    0x4004000000000000ull, 0xbfe0000000000000ull, 0xc004000000000000ull};
  const uint64_t r = sim_order_next(rng);
  switch (r % 4) {
  case 0:                                          /* a special value */
    return f64 ? s64[(r >> 8) % (sizeof s64 / sizeof *s64)]
               : s32[(r >> 8) % (sizeof s32 / sizeof *s32)];
  case 1:                                          /* random bits */
    return f64 ? sim_order_next(rng) : (uint32_t)sim_order_next(rng);
  default: {                                       /* an ordinary value, of either sign */
    double x = ldexp((double)(sim_order_next(rng) >> 11) / 9007199254740992.0,
                     (int)((r >> 8) % 80) - 40) * ((r >> 20) & 1 ? -1 : 1);
    if (f64)
      return sim_alu_from_f64(x);
    return (uint32_t)sim_alu_from_f32((float)x);
  }
  }
}

START_TEST(test_vfp_matches_sim_alu)
{
  struct vcase {
    enum ptx_op op;
    enum ptx_type t, st;
    enum ptx_rnd rnd;
    uint32_t flags;
    unsigned nopd;
  };
  static const struct vcase cs[] = {
    {PTX_OP_DIV, PTX_T_F32, PTX_T_NONE, PTX_RND_RN, 0, 3},
    {PTX_OP_DIV, PTX_T_F32, PTX_T_NONE, PTX_RND_RN, PTX_F_FTZ, 3},
    {PTX_OP_DIV, PTX_T_F32, PTX_T_NONE, PTX_RND_RZ, 0, 3},
    {PTX_OP_DIV, PTX_T_F32, PTX_T_NONE, PTX_RND_RM, PTX_F_FTZ, 3},
    {PTX_OP_DIV, PTX_T_F32, PTX_T_NONE, PTX_RND_NONE, PTX_F_FULL, 3},
    {PTX_OP_DIV, PTX_T_F32, PTX_T_NONE, PTX_RND_NONE, PTX_F_FULL | PTX_F_FTZ, 3},
    {PTX_OP_DIV, PTX_T_F32, PTX_T_NONE, PTX_RND_NONE, PTX_F_APPROX, 3},
    {PTX_OP_DIV, PTX_T_F32, PTX_T_NONE, PTX_RND_NONE, PTX_F_APPROX | PTX_F_FTZ, 3},
    {PTX_OP_ADD, PTX_T_F32, PTX_T_NONE, PTX_RND_RN, PTX_F_FTZ, 3},
    {PTX_OP_ADD, PTX_T_F32, PTX_T_NONE, PTX_RND_RZ, 0, 3},
    {PTX_OP_SUB, PTX_T_F32, PTX_T_NONE, PTX_RND_RP, 0, 3},
    {PTX_OP_MUL, PTX_T_F32, PTX_T_NONE, PTX_RND_RM, PTX_F_FTZ, 3},
    {PTX_OP_MUL, PTX_T_F32, PTX_T_NONE, PTX_RND_NONE, PTX_F_FTZ, 3},
    {PTX_OP_FMA, PTX_T_F32, PTX_T_NONE, PTX_RND_RN, PTX_F_FTZ, 4},
    {PTX_OP_FMA, PTX_T_F32, PTX_T_NONE, PTX_RND_RZ, 0, 4},
    {PTX_OP_MAD, PTX_T_F32, PTX_T_NONE, PTX_RND_RP, PTX_F_FTZ, 4},
    {PTX_OP_SQRT, PTX_T_F32, PTX_T_NONE, PTX_RND_RN, 0, 2},
    {PTX_OP_SQRT, PTX_T_F32, PTX_T_NONE, PTX_RND_RP, PTX_F_FTZ, 2},
    {PTX_OP_SQRT, PTX_T_F32, PTX_T_NONE, PTX_RND_NONE, PTX_F_APPROX | PTX_F_FTZ, 2},
    {PTX_OP_RCP, PTX_T_F32, PTX_T_NONE, PTX_RND_RN, 0, 2},
    {PTX_OP_RCP, PTX_T_F32, PTX_T_NONE, PTX_RND_RZ, 0, 2},
    {PTX_OP_RCP, PTX_T_F32, PTX_T_NONE, PTX_RND_NONE, PTX_F_APPROX | PTX_F_FTZ, 2},
    {PTX_OP_ABS, PTX_T_F32, PTX_T_NONE, PTX_RND_NONE, 0, 2},
    {PTX_OP_ABS, PTX_T_F32, PTX_T_NONE, PTX_RND_NONE, PTX_F_FTZ, 2},
    {PTX_OP_NEG, PTX_T_F32, PTX_T_NONE, PTX_RND_NONE, 0, 2},
    {PTX_OP_NEG, PTX_T_F32, PTX_T_NONE, PTX_RND_NONE, PTX_F_FTZ, 2},
    {PTX_OP_COPYSIGN, PTX_T_F32, PTX_T_NONE, PTX_RND_NONE, 0, 3},
    {PTX_OP_ADD, PTX_T_F64, PTX_T_NONE, PTX_RND_NONE, 0, 3},
    {PTX_OP_ADD, PTX_T_F64, PTX_T_NONE, PTX_RND_RZ, 0, 3},
    {PTX_OP_SUB, PTX_T_F64, PTX_T_NONE, PTX_RND_RN, 0, 3},
    {PTX_OP_MUL, PTX_T_F64, PTX_T_NONE, PTX_RND_RM, 0, 3},
    {PTX_OP_DIV, PTX_T_F64, PTX_T_NONE, PTX_RND_RN, 0, 3},
    {PTX_OP_DIV, PTX_T_F64, PTX_T_NONE, PTX_RND_RP, 0, 3},
    {PTX_OP_FMA, PTX_T_F64, PTX_T_NONE, PTX_RND_RN, 0, 4},
    {PTX_OP_FMA, PTX_T_F64, PTX_T_NONE, PTX_RND_RM, 0, 4},
    {PTX_OP_SQRT, PTX_T_F64, PTX_T_NONE, PTX_RND_RN, 0, 2},
    {PTX_OP_RCP, PTX_T_F64, PTX_T_NONE, PTX_RND_RZ, 0, 2},
    {PTX_OP_ABS, PTX_T_F64, PTX_T_NONE, PTX_RND_NONE, 0, 2},
    {PTX_OP_NEG, PTX_T_F64, PTX_T_NONE, PTX_RND_NONE, 0, 2},
    {PTX_OP_COPYSIGN, PTX_T_F64, PTX_T_NONE, PTX_RND_NONE, 0, 3},
    {PTX_OP_CVT, PTX_T_F32, PTX_T_S32, PTX_RND_RN, 0, 2},
    {PTX_OP_CVT, PTX_T_F32, PTX_T_S32, PTX_RND_RZ, 0, 2},
    {PTX_OP_CVT, PTX_T_F32, PTX_T_U32, PTX_RND_RN, 0, 2},
    {PTX_OP_CVT, PTX_T_F32, PTX_T_U32, PTX_RND_RM, 0, 2},
    {PTX_OP_CVT, PTX_T_S32, PTX_T_F32, PTX_RND_RZI, 0, 2},
    {PTX_OP_CVT, PTX_T_S32, PTX_T_F32, PTX_RND_RZI, PTX_F_FTZ, 2},
    {PTX_OP_CVT, PTX_T_S32, PTX_T_F32, PTX_RND_RNI, 0, 2},
    {PTX_OP_CVT, PTX_T_S32, PTX_T_F32, PTX_RND_RMI, 0, 2},
    {PTX_OP_CVT, PTX_T_S32, PTX_T_F32, PTX_RND_RPI, PTX_F_FTZ, 2},
    {PTX_OP_CVT, PTX_T_U32, PTX_T_F32, PTX_RND_RZI, 0, 2},
    {PTX_OP_CVT, PTX_T_U32, PTX_T_F32, PTX_RND_RNI, 0, 2},
    {PTX_OP_CVT, PTX_T_U32, PTX_T_F32, PTX_RND_RPI, PTX_F_FTZ, 2},
    {PTX_OP_CVT, PTX_T_S32, PTX_T_F64, PTX_RND_RZI, 0, 2},
    {PTX_OP_CVT, PTX_T_S32, PTX_T_F64, PTX_RND_RMI, 0, 2},
    {PTX_OP_CVT, PTX_T_F32, PTX_T_F32, PTX_RND_RNI, 0, 2},
    {PTX_OP_CVT, PTX_T_F32, PTX_T_F32, PTX_RND_RZI, 0, 2},
    {PTX_OP_CVT, PTX_T_F32, PTX_T_F32, PTX_RND_RMI, PTX_F_FTZ, 2},
    {PTX_OP_CVT, PTX_T_F32, PTX_T_F32, PTX_RND_RPI, PTX_F_FTZ, 2},
    {PTX_OP_CVT, PTX_T_F64, PTX_T_F64, PTX_RND_RNI, 0, 2},
    {PTX_OP_CVT, PTX_T_F64, PTX_T_F64, PTX_RND_RMI, 0, 2},
    {PTX_OP_CVT, PTX_T_F64, PTX_T_F32, PTX_RND_NONE, 0, 2},
    {PTX_OP_CVT, PTX_T_F64, PTX_T_F32, PTX_RND_NONE, PTX_F_FTZ, 2},
    {PTX_OP_CVT, PTX_T_F32, PTX_T_F64, PTX_RND_RN, 0, 2},
    {PTX_OP_CVT, PTX_T_F32, PTX_T_F64, PTX_RND_RZ, PTX_F_FTZ, 2},
    {PTX_OP_CVT, PTX_T_F32, PTX_T_F64, PTX_RND_RP, 0, 2},
    {PTX_OP_CVT, PTX_T_F32, PTX_T_F32, PTX_RND_NONE, PTX_F_SAT, 2},
    {PTX_OP_CVT, PTX_T_F32, PTX_T_F32, PTX_RND_RN, PTX_F_SAT | PTX_F_FTZ, 2},
    {PTX_OP_RSQRT, PTX_T_F32, PTX_T_NONE, PTX_RND_NONE, PTX_F_APPROX, 2},
    {PTX_OP_RSQRT, PTX_T_F32, PTX_T_NONE, PTX_RND_NONE, PTX_F_APPROX | PTX_F_FTZ, 2},
    {PTX_OP_SIN, PTX_T_F32, PTX_T_NONE, PTX_RND_NONE, PTX_F_APPROX, 2},
    {PTX_OP_SIN, PTX_T_F32, PTX_T_NONE, PTX_RND_NONE, PTX_F_APPROX | PTX_F_FTZ, 2},
    {PTX_OP_COS, PTX_T_F32, PTX_T_NONE, PTX_RND_NONE, PTX_F_APPROX, 2},
    {PTX_OP_COS, PTX_T_F32, PTX_T_NONE, PTX_RND_NONE, PTX_F_APPROX | PTX_F_FTZ, 2},
    {PTX_OP_LG2, PTX_T_F32, PTX_T_NONE, PTX_RND_NONE, PTX_F_APPROX, 2},
    {PTX_OP_LG2, PTX_T_F32, PTX_T_NONE, PTX_RND_NONE, PTX_F_APPROX | PTX_F_FTZ, 2},
    {PTX_OP_EX2, PTX_T_F32, PTX_T_NONE, PTX_RND_NONE, PTX_F_APPROX, 2},
    {PTX_OP_EX2, PTX_T_F32, PTX_T_NONE, PTX_RND_NONE, PTX_F_APPROX | PTX_F_FTZ, 2},
    {PTX_OP_TANH, PTX_T_F32, PTX_T_NONE, PTX_RND_NONE, PTX_F_APPROX, 2},
  };
  uint64_t rng = 0x853C49E6748FEA9Bull;
  unsigned taken = 0;
  for (size_t ci = 0; ci < sizeof cs / sizeof *cs; ci++) {
    const struct vcase *c = &cs[ci];
    struct ptx_inst in;
    memset(&in, 0, sizeof in);
    in.op = (uint16_t)c->op;
    in.type = (uint8_t)c->t;
    in.type2 = (uint8_t)c->st;
    in.rnd = (uint8_t)c->rnd;
    in.flags = c->flags;
    in.nopd = (uint8_t)c->nopd;
    const enum sim_vfp k = sim_vfp_of(&in);
    if (k == SIM_VFP_NONE)                         /* no AVX2 (or FMA) here */
      continue;
    taken++;
    const int f64in = c->op == PTX_OP_CVT ? c->st == PTX_T_F64 : c->t == PTX_T_F64;
    /* (the cvts from integers: any 32-bit values) */
    for (unsigned rep = 0; rep < 100; rep++) {
      uint64_t a[32], b[32], cc[32], d[32];
      for (unsigned l = 0; l < 32; l++) {
        a[l] = vfp_operand(&rng, f64in);
        b[l] = vfp_operand(&rng, f64in);
        cc[l] = vfp_operand(&rng, f64in);
      }
      sim_vfp_full(k, &in, d, a, c->nopd > 2 ? b : NULL, c->nopd > 3 ? cc : NULL);
      for (unsigned l = 0; l < 32; l++) {
        uint64_t want;
        if (c->op == PTX_OP_CVT) {
          want = sim_alu_cvt(c->t, c->st, c->rnd, c->flags, a[l]);
          if (c->t == PTX_T_S32)
            want = sim_alu_sext(PTX_T_S32, want);
        } else if (c->op == PTX_OP_FMA || c->op == PTX_OP_MAD) {
          want = sim_alu_ffma(c->t, c->rnd, c->flags, a[l], b[l], cc[l]);
        } else if (c->nopd == 2) {
          want = sim_alu_fun(c->op, c->t, c->rnd, c->flags, a[l]);
        } else {
          want = sim_alu_fbin(c->op, c->t, c->rnd, c->flags, a[l], b[l]);
        }
        ck_assert_msg(d[l] == want, "case %zu (%s), lane %u: 0x%llx, 0x%llx, 0x%llx: 0x%llx, "
                      "sim_alu 0x%llx", ci, ptx_op_name(c->op), l, (unsigned long long)a[l],
                      (unsigned long long)b[l], (unsigned long long)cc[l],
                      (unsigned long long)d[l], (unsigned long long)want);
      }
    }
  }
#ifdef SIM_X86
  unsigned fmas = 0;                               /* (an fma needs FMA too) */
  for (size_t ci = 0; ci < sizeof cs / sizeof *cs; ci++)
    fmas += cs[ci].op == PTX_OP_FMA || cs[ci].op == PTX_OP_MAD;
  if (sim_cpu_avx2)
    ck_assert_uint_eq(taken, sizeof cs / sizeof *cs - (sim_cpu_avx2_fma ? 0 : fmas));
#else
  ck_assert_uint_eq(taken, 0);                     /* (no vector code in this build) */
#endif
}
END_TEST

/* popc, clz and brev of b32 and b64 for whole warps (the fast plan's vector code, and
   sim_exec's for a guarded instruction) against sim_alu_iun: 256 threads, each on a value
   of zeros and ones, a single bit, a run of low bits, or random bits (all above 32 too; the
   b32 operand loaded as an s32, whose register holds it sign-extended). */
START_TEST(test_bit_ops_match_sim_alu)
{
  static const char *k =
    HDR
    ".visible .entry bits(.param .u64 in, .param .u64 out)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<12>;\n"
    "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd3, %r1, 8;\n  add.s64 %rd4, %rd1, %rd3;\n  ld.global.u64 %rd5, [%rd4];\n"
    "  ld.global.s32 %r2, [%rd4];\n"                 /* (the low word, sign-extended) */
    "  popc.b32 %r3, %r2;\n  clz.b32 %r4, %r2;\n  brev.b32 %r5, %r2;\n"
    "  popc.b64 %r6, %rd5;\n  clz.b64 %r7, %rd5;\n  brev.b64 %rd6, %rd5;\n"
    "  setp.ne.u32 %p1, %r1, 1000;\n"
    "  @%p1 popc.b64 %r8, %rd5;\n  @%p1 clz.b32 %r9, %r2;\n  @%p1 brev.b32 %r10, %r2;\n"
    "  mul.wide.u32 %rd7, %r1, 64;\n  add.s64 %rd8, %rd2, %rd7;\n"
    "  st.global.v4.u32 [%rd8], {%r3, %r4, %r5, %r6};\n  st.global.u32 [%rd8+16], %r7;\n"
    "  st.global.u64 [%rd8+24], %rd6;\n  st.global.v4.u32 [%rd8+32], {%r8, %r9, %r10, %r10};\n"
    "  ret;\n}\n";
  uint64_t v[256];
  uint64_t rng = 0x6A09E667F3BCC909ull;
  for (unsigned t = 0; t < 256; t++) {
    const uint64_t r = sim_order_next(&rng);
    switch (t % 5) {
    case 0: v[t] = (t / 5) % 2 ? ~0ull : 0; break;
    case 1: v[t] = 1ull << (t / 5 % 64); break;
    case 2: v[t] = (1ull << (t / 5 % 64)) - 1; break;
    case 3: v[t] = r >> (r % 64); break;
    default: v[t] = r; break;
    }
  }
  struct fx f;
  load(&f, k);
  uint64_t p[2] = {buffer(&f, sizeof v, "in"), buffer(&f, 256 * 64, "out")};
  ck_assert_int_eq(sim_write(f.d, p[0], v, sizeof v), SIM_OK);
  ck_assert_int_eq(launch(&f, "bits", 1, 256, p, 2, SIM_SCHED_ITS, 1, 0), SIM_OK);
  ck_assert_int_eq(f.r.outcome, SIM_RAN_OK);
  static uint32_t got[256 * 16];
  ck_assert_int_eq(sim_read(f.d, p[1], got, sizeof got), SIM_OK);
  for (unsigned t = 0; t < 256; t++) {
    const uint32_t *g = got + t * 16;
    const uint64_t x = v[t], lo = (uint32_t)x;
    const uint64_t want[] = {sim_alu_iun(PTX_OP_POPC, PTX_T_B32, 0, lo),
                             sim_alu_iun(PTX_OP_CLZ, PTX_T_B32, 0, lo),
                             sim_alu_iun(PTX_OP_BREV, PTX_T_B32, 0, lo),
                             sim_alu_iun(PTX_OP_POPC, PTX_T_B64, 0, x),
                             sim_alu_iun(PTX_OP_CLZ, PTX_T_B64, 0, x)};
    for (unsigned i = 0; i < 5; i++)
      ck_assert_msg(g[i] == want[i], "thread %u (0x%llx), result %u: 0x%x, sim_alu 0x%llx", t,
                    (unsigned long long)x, i, g[i], (unsigned long long)want[i]);
    uint64_t b64;
    memcpy(&b64, g + 6, 8);
    ck_assert_uint_eq(b64, sim_alu_iun(PTX_OP_BREV, PTX_T_B64, 0, x));
    ck_assert_uint_eq(g[8], want[3]);
    ck_assert_uint_eq(g[9], want[1]);
    ck_assert_uint_eq(g[10], want[2]);
  }
  done(&f);
}
END_TEST

/* cvt between integers with a side of 8 or 16 bits (u8, s8, u16, s16 to and from each other
   and u32, s32, u64, s64), for whole warps through the fast plan and through sim_exec (the
   same cvt guarded): each result's stored bits against sim_alu_cvt's, widened as the
   destination is, on random 64-bit sources (each type reads its low bits) in 64 threads. */
START_TEST(test_int_cvt_small_match_sim_alu)
{
  static const enum ptx_type ty[8] = {PTX_T_U8, PTX_T_S8, PTX_T_U16, PTX_T_S16,
                                      PTX_T_U32, PTX_T_S32, PTX_T_U64, PTX_T_S64};
  static char k[24576];
  size_t n = (size_t)snprintf(k, sizeof k,
    HDR ".visible .entry cv(.param .u64 in, .param .u64 out)\n{\n"
    "  .reg .pred %%p<2>;\n  .reg .b16 %%rs<4>;\n  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<12>;\n"
    "  .reg .b16 %%h<2>;\n  .reg .b32 %%s<2>;\n  .reg .b64 %%q<2>;\n"
    "  ld.param.u64 %%rd1, [in];\n  ld.param.u64 %%rd2, [out];\n  mov.u32 %%r1, %%tid.x;\n"
    "  mul.wide.u32 %%rd3, %%r1, 8;\n  add.s64 %%rd4, %%rd1, %%rd3;\n"
    "  ld.global.u64 %%rd5, [%%rd4];\n  ld.global.u16 %%rs1, [%%rd4];\n"
    "  ld.global.u32 %%r2, [%%rd4];\n  setp.ne.u32 %%p1, %%r1, 1000;\n"
    "  mul.wide.u32 %%rd6, %%r1, 768;\n  add.s64 %%rd7, %%rd2, %%rd6;\n");
  unsigned nc = 0;
  for (unsigned g = 0; g < 2; g++)
    for (unsigned i = 0; i < 8; i++)
      for (unsigned j = 0; j < 8; j++) {
        const unsigned sb = 8 * ptx_type_size(ty[i]), db = 8 * ptx_type_size(ty[j]);
        if (sb > 16 && db > 16)
          continue;
        const char *src = sb <= 16 ? "%rs1" : sb == 32 ? "%r2" : "%rd5";
        const char *dst = db <= 16 ? "%h1" : db == 32 ? "%s1" : "%q1";
        const char *st = db <= 16 ? "u16" : db == 32 ? "u32" : "u64";
        n += (size_t)snprintf(k + n, sizeof k - n, "  %scvt.%s.%s %s, %s;\n"
                              "  st.global.%s [%%rd7+%u], %s;\n", g ? "@%p1 " : "",
                              ptx_type_name(ty[j]), ptx_type_name(ty[i]), dst, src, st, nc * 8,
                              dst);
        nc++;
      }
  snprintf(k + n, sizeof k - n, "  ret;\n}\n");
  ck_assert_uint_eq(nc, 96);
  uint64_t v[64];
  uint64_t rng = 0xBB67AE8584CAA73Bull;
  for (unsigned t = 0; t < 64; t++)
    v[t] = sim_order_next(&rng) >> (t % 3 ? 0 : t % 61);
  struct fx f;
  load(&f, k);
  uint64_t p[2] = {buffer(&f, sizeof v, "in"), buffer(&f, 64 * 768, "out")};
  ck_assert_int_eq(sim_write(f.d, p[0], v, sizeof v), SIM_OK);
  ck_assert_int_eq(sim_fill(f.d, p[1], 0, 64 * 768), SIM_OK);
  ck_assert_int_eq(launch(&f, "cv", 1, 64, p, 2, SIM_SCHED_ITS, 1, 0), SIM_OK);
  ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
  static uint64_t got[64 * 96];
  ck_assert_int_eq(sim_read(f.d, p[1], got, sizeof got), SIM_OK);
  for (unsigned t = 0; t < 64; t++) {
    unsigned c = 0;
    for (unsigned g = 0; g < 2; g++)
      for (unsigned i = 0; i < 8; i++)
        for (unsigned j = 0; j < 8; j++) {
          const unsigned sb = 8 * ptx_type_size(ty[i]), db = 8 * ptx_type_size(ty[j]);
          if (sb > 16 && db > 16)
            continue;
          const uint64_t a = sb <= 16 ? v[t] & 0xffff : sb == 32 ? v[t] & 0xffffffffu : v[t];
          uint64_t want = sim_alu_cvt(ty[j], ty[i], PTX_RND_NONE, 0, a);
          if (ptx_type_is_signed(ty[j]))
            want = sim_alu_sext(ty[j], want);
          const unsigned stb = db <= 16 ? 16 : db;
          if (stb < 64)
            want &= (1ull << stb) - 1;
          ck_assert_msg(got[t * 96 + c] == want, "thread %u, cvt.%s.%s%s of 0x%llx: 0x%llx, "
                        "sim_alu 0x%llx", t, ptx_type_name(ty[j]), ptx_type_name(ty[i]),
                        g ? " (guarded)" : "", (unsigned long long)a,
                        (unsigned long long)got[t * 96 + c], (unsigned long long)want);
          c++;
        }
  }
  done(&f);
}
END_TEST

/* 16-bit integer arithmetic of whole warps (i16_full_avx2) against sim_alu_ibin: add, sub,
   mul.lo, mul.wide, and, or, xor, shl, shr, min and max of b16, u16 and s16 on random
   shorts, the ends of their ranges, and shift counts of 0 to 40, in 64 threads. */
START_TEST(test_int16_ops_match_sim_alu)
{
  static const struct { const char *name; enum ptx_op op; enum ptx_type t; uint32_t flags; } o[] = {
    {"add.s16", PTX_OP_ADD, PTX_T_S16, 0}, {"sub.u16", PTX_OP_SUB, PTX_T_U16, 0},
    {"mul.lo.s16", PTX_OP_MUL, PTX_T_S16, PTX_F_LO}, {"mul.lo.u16", PTX_OP_MUL, PTX_T_U16, PTX_F_LO},
    {"mul.wide.s16", PTX_OP_MUL, PTX_T_S16, PTX_F_WIDE},
    {"mul.wide.u16", PTX_OP_MUL, PTX_T_U16, PTX_F_WIDE},
    {"and.b16", PTX_OP_AND, PTX_T_B16, 0}, {"or.b16", PTX_OP_OR, PTX_T_B16, 0},
    {"xor.b16", PTX_OP_XOR, PTX_T_B16, 0}, {"shl.b16", PTX_OP_SHL, PTX_T_B16, 0},
    {"shr.u16", PTX_OP_SHR, PTX_T_U16, 0}, {"shr.s16", PTX_OP_SHR, PTX_T_S16, 0},
    {"min.s16", PTX_OP_MIN, PTX_T_S16, 0}, {"max.s16", PTX_OP_MAX, PTX_T_S16, 0},
    {"min.u16", PTX_OP_MIN, PTX_T_U16, 0}, {"max.u16", PTX_OP_MAX, PTX_T_U16, 0},
  };
  enum { NO = sizeof o / sizeof *o };
  static char k[8192];
  size_t n = (size_t)snprintf(k, sizeof k,
    HDR ".visible .entry i16(.param .u64 in, .param .u64 out)\n{\n"
    "  .reg .b16 %%h<4>;\n  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<10>;\n"
    "  ld.param.u64 %%rd1, [in];\n  ld.param.u64 %%rd2, [out];\n  mov.u32 %%r1, %%tid.x;\n"
    "  mul.wide.u32 %%rd3, %%r1, 8;\n  add.s64 %%rd4, %%rd1, %%rd3;\n"
    "  ld.global.u16 %%h1, [%%rd4];\n  ld.global.u16 %%h2, [%%rd4+2];\n"
    "  ld.global.u32 %%r2, [%%rd4+4];\n"
    "  mul.wide.u32 %%rd5, %%r1, %u;\n  add.s64 %%rd6, %%rd2, %%rd5;\n", NO * 4);
  for (unsigned i = 0; i < NO; i++) {
    const int sh = o[i].op == PTX_OP_SHL || o[i].op == PTX_OP_SHR;
    const int wide = o[i].flags == PTX_F_WIDE;
    n += (size_t)snprintf(k + n, sizeof k - n, "  %s %s, %%h1, %s;\n  st.global.%s [%%rd6+%u], %s;\n",
                          o[i].name, wide ? "%r3" : "%h3", sh ? "%r2" : "%h2",
                          wide ? "u32" : "u16", i * 4, wide ? "%r3" : "%h3");
  }
  snprintf(k + n, sizeof k - n, "  ret;\n}\n");
  static const uint16_t ends[] = {0, 1, 0x7fff, 0x8000, 0xffff, 0x8001, 0xfffe, 2};
  uint16_t v[64][4];
  uint64_t rng = 0xA54FF53A5F1D36F1ull;
  for (unsigned t = 0; t < 64; t++) {
    const uint64_t r = sim_order_next(&rng);
    v[t][0] = t % 4 == 0 ? ends[(r >> 8) % 8] : (uint16_t)r;
    v[t][1] = t % 4 == 1 ? ends[(r >> 16) % 8] : (uint16_t)(r >> 24);
    const uint32_t c = (uint32_t)((r >> 40) % 41);
    v[t][2] = (uint16_t)c;
    v[t][3] = (uint16_t)(t % 8 == 0 ? 0x8000 : 0);    /* (a count of 2^31 and more) */
  }
  struct fx f;
  load(&f, k);
  uint64_t p[2] = {buffer(&f, sizeof v, "in"), buffer(&f, 64 * NO * 4, "out")};
  ck_assert_int_eq(sim_write(f.d, p[0], v, sizeof v), SIM_OK);
  ck_assert_int_eq(launch(&f, "i16", 1, 64, p, 2, SIM_SCHED_ITS, 1, 0), SIM_OK);
  ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
  static uint32_t got[64 * NO];
  ck_assert_int_eq(sim_read(f.d, p[1], got, sizeof got), SIM_OK);
  for (unsigned t = 0; t < 64; t++)
    for (unsigned i = 0; i < NO; i++) {
      const int sh = o[i].op == PTX_OP_SHL || o[i].op == PTX_OP_SHR;
      const int wide = o[i].flags == PTX_F_WIDE;
      const uint64_t b = sh ? (uint64_t)v[t][2] | (uint64_t)v[t][3] << 16 : v[t][1];
      uint64_t want = sim_alu_ibin(o[i].op, o[i].t, o[i].flags, v[t][0], b);
      uint32_t g = got[t * NO + i];
      if (!wide) {
        want &= 0xffff;
        g &= 0xffff;
      }
      ck_assert_msg(g == want, "thread %u, %s of 0x%x, 0x%llx: 0x%x, sim_alu 0x%llx", t,
                    o[i].name, v[t][0], (unsigned long long)b, g, (unsigned long long)want);
    }
  done(&f);
}
END_TEST

/* prmt in every mode of whole warps against sim_alu_prmt: eight warps of random a and b,
   each warp's selector its own (random nibbles, sign bits included; the modes take its low
   two bits), the same in every lane (prmt_full_avx2's one shuffle) but in the last warp,
   where each lane has its own (the lane loop). */
START_TEST(test_prmt_matches_sim_alu)
{
  static const char *const mode[7] = {"", ".f4e", ".b4e", ".rc8", ".ecl", ".ecr", ".rc16"};
  static char k[4096];
  size_t n = (size_t)snprintf(k, sizeof k,
    HDR ".visible .entry pm(.param .u64 in, .param .u64 out)\n{\n"
    "  .reg .b32 %%r<16>;\n  .reg .b64 %%rd<10>;\n"
    "  ld.param.u64 %%rd1, [in];\n  ld.param.u64 %%rd2, [out];\n  mov.u32 %%r1, %%tid.x;\n"
    "  mul.wide.u32 %%rd3, %%r1, 12;\n  add.s64 %%rd4, %%rd1, %%rd3;\n"
    "  ld.global.u32 %%r2, [%%rd4];\n  ld.global.u32 %%r3, [%%rd4+4];\n"
    "  ld.global.u32 %%r4, [%%rd4+8];\n"
    "  mul.wide.u32 %%rd5, %%r1, 28;\n  add.s64 %%rd6, %%rd2, %%rd5;\n");
  for (unsigned m = 0; m < 7; m++)
    n += (size_t)snprintf(k + n, sizeof k - n, "  prmt.b32%s %%r5, %%r2, %%r3, %%r4;\n"
                          "  st.global.u32 [%%rd6+%u], %%r5;\n", mode[m], 4 * m);
  snprintf(k + n, sizeof k - n, "  ret;\n}\n");
  static uint32_t v[256][3], got[256][7];
  uint64_t rng = 0x510E527FADE682D1ull;
  uint32_t wsel[8];
  for (unsigned w = 0; w < 8; w++)
    wsel[w] = (uint32_t)sim_order_next(&rng) | (w == 0 ? 0x8888u : 0);
  for (unsigned t = 0; t < 256; t++) {
    v[t][0] = (uint32_t)sim_order_next(&rng);
    v[t][1] = (uint32_t)sim_order_next(&rng);
    v[t][2] = t / 32 == 7 ? (uint32_t)sim_order_next(&rng) : wsel[t / 32];
  }
  struct fx f;
  load(&f, k);
  uint64_t p[2] = {buffer(&f, sizeof v, "in"), buffer(&f, sizeof got, "out")};
  ck_assert_int_eq(sim_write(f.d, p[0], v, sizeof v), SIM_OK);
  ck_assert_int_eq(launch(&f, "pm", 1, 256, p, 2, SIM_SCHED_ITS, 1, 0), SIM_OK);
  ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
  ck_assert_int_eq(sim_read(f.d, p[1], got, sizeof got), SIM_OK);
  for (unsigned t = 0; t < 256; t++)
    for (unsigned m = 0; m < 7; m++) {
      const uint32_t want = sim_alu_prmt((enum ptx_prmtmode)m, v[t][0], v[t][1], v[t][2]);
      ck_assert_msg(got[t][m] == want, "thread %u, prmt%s 0x%08x 0x%08x 0x%08x: 0x%08x, "
                    "sim_alu 0x%08x", t, mode[m], v[t][0], v[t][1], v[t][2], got[t][m], want);
    }
  done(&f);
}
END_TEST

/* dp4a of whole warps (dp4a_full_avx2) against sim_alu_dp4a: u32 and s32 for a and for b,
   on random words, words of 0x80 and 0xff bytes (the ends of the products), and random c, in
   64 threads. */
START_TEST(test_dp4a_matches_sim_alu)
{
  static const char *const ty[4] = {"u32.u32", "u32.s32", "s32.u32", "s32.s32"};
  static char k[4096];
  size_t n = (size_t)snprintf(k, sizeof k,
    HDR ".visible .entry dp(.param .u64 in, .param .u64 out)\n{\n"
    "  .reg .b32 %%r<16>;\n  .reg .b64 %%rd<10>;\n"
    "  ld.param.u64 %%rd1, [in];\n  ld.param.u64 %%rd2, [out];\n  mov.u32 %%r1, %%tid.x;\n"
    "  mul.wide.u32 %%rd3, %%r1, 12;\n  add.s64 %%rd4, %%rd1, %%rd3;\n"
    "  ld.global.u32 %%r2, [%%rd4];\n  ld.global.u32 %%r3, [%%rd4+4];\n"
    "  ld.global.u32 %%r4, [%%rd4+8];\n"
    "  mul.wide.u32 %%rd5, %%r1, 16;\n  add.s64 %%rd6, %%rd2, %%rd5;\n");
  for (unsigned m = 0; m < 4; m++)
    n += (size_t)snprintf(k + n, sizeof k - n, "  dp4a.%s %%r5, %%r2, %%r3, %%r4;\n"
                          "  st.global.u32 [%%rd6+%u], %%r5;\n", ty[m], 4 * m);
  snprintf(k + n, sizeof k - n, "  ret;\n}\n");
  static const uint32_t ends[4] = {0x80808080u, 0xffffffffu, 0x7f807fffu, 0x01ff80feu};
  static uint32_t v[64][3], got[64][4];
  uint64_t rng = 0x9B05688C2B3E6C1Full;
  for (unsigned t = 0; t < 64; t++) {
    const uint64_t r = sim_order_next(&rng);
    v[t][0] = t % 4 == 0 ? ends[(r >> 8) % 4] : (uint32_t)r;
    v[t][1] = t % 4 == 1 ? ends[(r >> 12) % 4] : (uint32_t)(r >> 32);
    v[t][2] = (uint32_t)sim_order_next(&rng);
  }
  struct fx f;
  load(&f, k);
  uint64_t p[2] = {buffer(&f, sizeof v, "in"), buffer(&f, sizeof got, "out")};
  ck_assert_int_eq(sim_write(f.d, p[0], v, sizeof v), SIM_OK);
  ck_assert_int_eq(launch(&f, "dp", 1, 64, p, 2, SIM_SCHED_ITS, 1, 0), SIM_OK);
  ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
  ck_assert_int_eq(sim_read(f.d, p[1], got, sizeof got), SIM_OK);
  for (unsigned t = 0; t < 64; t++)
    for (unsigned m = 0; m < 4; m++) {
      const uint32_t want = sim_alu_dp4a(m & 2 ? PTX_T_S32 : PTX_T_U32,
                                         m & 1 ? PTX_T_S32 : PTX_T_U32, v[t][0], v[t][1], v[t][2]);
      ck_assert_msg(got[t][m] == want, "thread %u, dp4a.%s 0x%08x 0x%08x 0x%08x: 0x%08x, "
                    "sim_alu 0x%08x", t, ty[m], v[t][0], v[t][1], v[t][2], got[t][m], want);
    }
  done(&f);
}
END_TEST

/* mov's pack and unpack (mov.b64 %rd, {%r, %r}; mov.b64 {%r, %r}, %rd; mov.b32 {%h, %h}, %r
   and back, parts swapped), for whole warps and for lanes a guard picks (the others keep
   what they held), in three warps: every part against the host's. */
START_TEST(test_mov_pack_unpack)
{
  static const char *k =
    HDR
    ".visible .entry pk(.param .u64 out)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b16 %h<4>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<8>;\n"
    "  mov.u32 %r1, %tid.x;\n  mul.lo.u32 %r2, %r1, -1640531527;\n"
    "  xor.b32 %r3, %r2, 1540483477;\n"
    "  mov.b64 %rd1, {%r2, %r3};\n"
    "  mov.b64 {%r4, %r5}, %rd1;\n"
    "  mov.b32 {%h1, %h2}, %r3;\n  mov.b32 %r6, {%h2, %h1};\n"
    "  mov.u32 %r7, 7;\n  mov.u32 %r8, 8;\n  mov.u64 %rd2, 9;\n"
    "  and.b32 %r9, %r1, 5;\n  setp.ne.u32 %p1, %r9, 0;\n"
    "  @%p1 mov.b64 {%r7, %r8}, %rd1;\n  @%p1 mov.b64 %rd2, {%r3, %r2};\n"
    "  ld.param.u64 %rd3, [out];\n  mul.wide.u32 %rd4, %r1, 32;\n  add.s64 %rd5, %rd3, %rd4;\n"
    "  st.global.v4.u32 [%rd5], {%r4, %r5, %r6, %r7};\n  st.global.u32 [%rd5+16], %r8;\n"
    "  st.global.u64 [%rd5+24], %rd2;\n  ret;\n}\n";
  struct fx f;
  load(&f, k);
  uint64_t out = buffer(&f, 96 * 32, "out");
  ck_assert_int_eq(launch(&f, "pk", 1, 96, &out, 1, SIM_SCHED_ITS, 1, 0), SIM_OK);
  ck_assert_int_eq(f.r.outcome, SIM_RAN_OK);
  uint32_t got[96 * 8];
  ck_assert_int_eq(sim_read(f.d, out, got, sizeof got), SIM_OK);
  for (uint32_t t = 0; t < 96; t++) {
    const uint32_t lo = t * 2654435769u, hi = lo ^ 1540483477u, *g = got + t * 8;
    const int on = (t & 5) != 0;
    ck_assert_uint_eq(g[0], lo);
    ck_assert_uint_eq(g[1], hi);
    ck_assert_uint_eq(g[2], (hi >> 16) | (hi & 0xffff) << 16);
    ck_assert_uint_eq(g[3], on ? lo : 7);
    ck_assert_uint_eq(g[4], on ? hi : 8);
    ck_assert_uint_eq(g[6], on ? hi : 9);
    ck_assert_uint_eq(g[7], on ? lo : 0);
  }
  done(&f);
}
END_TEST

/* sim_vhalf.c's vector code (through sim_vfp_full) against sim_alu, lane by lane: add, sub,
   mul and fma of f16 and f16x2 to nearest, with .ftz, .relu and .sat, min and max (.ftz,
   .NaN, .relu), neg and abs, and the conversions
   between f32 and f16 or bf16 (one value, two packed, and back), with .ftz and without. The
   arithmetic takes every f16 as its first operand (in each half of an f16x2), against
   drawn ones: special values (NaNs of both kinds and signs, infinities, zeros, the ends of
   the subnormals and normals, 1 and its neighbours), random bits, and neighbours of the
   first operand (sums and fmas that cancel, and that round from a tie), garbage above an
   f16 register's 16 bits included. The conversions to halves take f32s at and beside the
   midpoints between two f16s or bf16s, specials and random bits; the ones from halves every
   f16 and bf16. A kind it should take and does not (F16C present) fails. */
static uint32_t half_operand(uint64_t *rng, uint32_t near)
{
  static const uint16_t sp[] = {0x7e00, 0x7c01, 0xfe01, 0x7dff, 0x7c00, 0xfc00, 0, 0x8000,
                                1, 0x8001, 0x03ff, 0x0400, 0x83ff, 0x7bff, 0xfbff, 0x3c00,
                                0xbc00, 0x3c01, 0x3bff, 0x3800, 0x0200, 0x7800, 0x1000};
  const uint64_t r = sim_order_next(rng);
  switch (r % 4) {
  case 0: return sp[(r >> 8) % (sizeof sp / sizeof *sp)];
  case 1: return (uint32_t)(r >> 16) & 0xffff;
  default: {                                        /* near the first operand, either sign */
    uint32_t h = (near & 0x7fff) + (uint32_t)((r >> 8) % 64) - 32 - (uint32_t)((r >> 20) % 3 ? 0 : 11 << 10);
    return ((h & 0x7fff) | (uint32_t)((r >> 30) & 1) << 15) & 0xffff;
  }
  }
}

static uint32_t f32_near_half(uint64_t *rng, int bf16)
{
  const uint64_t r = sim_order_next(rng);
  uint32_t u = (uint32_t)sim_order_next(rng);
  if (r % 4 == 0)
    return u;                                        /* random bits */
  if (!bf16) {                                       /* an f16's f32, then its low 13 bits */
    uint32_t h = (uint32_t)(r >> 8) & 0xffff;
    u = sim_alu_f16_to_f32((uint16_t)h);
    if (((u >> 23) & 0xff) < 102)
      u += (uint32_t)((r >> 40) % 3) << 23;          /* (below the f16 range: f16 subnormals) */
    static const uint32_t low[] = {0x1000, 0x0fff, 0x1001, 0, 1, 0x1fff, 0x0800};
    u = (u & ~0x1fffu) | low[(r >> 24) % 7];
    if (((r >> 28) & 7) == 0)                        /* an f16 subnormal's neighbourhood */
      u = (u & 0x80001fffu) | (uint32_t)(103 + (r >> 32) % 10) << 23;
  } else {
    static const uint32_t low[] = {0x8000, 0x7fff, 0x8001, 0, 1, 0xffff};
    u = (u & ~0xffffu) | low[(r >> 24) % 6];
  }
  return u;
}

START_TEST(test_vhalf_matches_sim_alu)
{
  struct hcase {
    enum ptx_op op;
    enum ptx_type t, st;
    enum ptx_rnd rnd;
    uint32_t flags;
    unsigned nopd;
    enum sim_vfp want;
  };
  static const struct hcase cs[] = {
    {PTX_OP_ADD, PTX_T_F16, PTX_T_NONE, PTX_RND_RN, 0, 3, SIM_VFP_H_ADD},
    {PTX_OP_ADD, PTX_T_F16, PTX_T_NONE, PTX_RND_NONE, PTX_F_FTZ | PTX_F_SAT, 3, SIM_VFP_H_ADD},
    {PTX_OP_SUB, PTX_T_F16, PTX_T_NONE, PTX_RND_RN, 0, 3, SIM_VFP_H_SUB},
    {PTX_OP_MUL, PTX_T_F16, PTX_T_NONE, PTX_RND_RN, 0, 3, SIM_VFP_H_MUL},
    {PTX_OP_MUL, PTX_T_F16, PTX_T_NONE, PTX_RND_RN, PTX_F_FTZ, 3, SIM_VFP_H_MUL},
    {PTX_OP_FMA, PTX_T_F16, PTX_T_NONE, PTX_RND_RN, 0, 4, SIM_VFP_H_FMA},
    {PTX_OP_FMA, PTX_T_F16, PTX_T_NONE, PTX_RND_RN, PTX_F_RELU, 4, SIM_VFP_H_FMA},
    {PTX_OP_FMA, PTX_T_F16, PTX_T_NONE, PTX_RND_RN, PTX_F_FTZ | PTX_F_SAT, 4, SIM_VFP_H_FMA},
    {PTX_OP_ADD, PTX_T_F16X2, PTX_T_NONE, PTX_RND_RN, 0, 3, SIM_VFP_H_ADD},
    {PTX_OP_SUB, PTX_T_F16X2, PTX_T_NONE, PTX_RND_RN, PTX_F_SAT, 3, SIM_VFP_H_SUB},
    {PTX_OP_MUL, PTX_T_F16X2, PTX_T_NONE, PTX_RND_RN, PTX_F_FTZ | PTX_F_RELU, 3, SIM_VFP_H_MUL},
    {PTX_OP_MUL, PTX_T_F16X2, PTX_T_NONE, PTX_RND_RN, 0, 3, SIM_VFP_H_MUL},
    {PTX_OP_SUB, PTX_T_F16X2, PTX_T_NONE, PTX_RND_RN, 0, 3, SIM_VFP_H_SUB},
    {PTX_OP_FMA, PTX_T_F16X2, PTX_T_NONE, PTX_RND_RN, 0, 4, SIM_VFP_H_FMA},
    {PTX_OP_FMA, PTX_T_F16X2, PTX_T_NONE, PTX_RND_RN, PTX_F_FTZ | PTX_F_RELU, 4, SIM_VFP_H_FMA},
    {PTX_OP_MIN, PTX_T_F16, PTX_T_NONE, PTX_RND_NONE, 0, 3, SIM_VFP_H_MIN},
    {PTX_OP_MAX, PTX_T_F16, PTX_T_NONE, PTX_RND_NONE, PTX_F_FTZ, 3, SIM_VFP_H_MAX},
    {PTX_OP_MIN, PTX_T_F16X2, PTX_T_NONE, PTX_RND_NONE, PTX_F_NAN, 3, SIM_VFP_H_MIN},
    {PTX_OP_MAX, PTX_T_F16X2, PTX_T_NONE, PTX_RND_NONE, PTX_F_RELU, 3, SIM_VFP_H_MAX},
    {PTX_OP_MAX, PTX_T_F16X2, PTX_T_NONE, PTX_RND_NONE, PTX_F_NAN | PTX_F_RELU | PTX_F_FTZ, 3,
     SIM_VFP_H_MAX},
    {PTX_OP_NEG, PTX_T_F16, PTX_T_NONE, PTX_RND_NONE, 0, 2, SIM_VFP_H_NEG},
    {PTX_OP_NEG, PTX_T_F16X2, PTX_T_NONE, PTX_RND_NONE, PTX_F_FTZ, 2, SIM_VFP_H_NEG},
    {PTX_OP_ABS, PTX_T_F16, PTX_T_NONE, PTX_RND_NONE, PTX_F_FTZ, 2, SIM_VFP_H_ABS},
    {PTX_OP_ABS, PTX_T_F16X2, PTX_T_NONE, PTX_RND_NONE, 0, 2, SIM_VFP_H_ABS},
    {PTX_OP_CVT, PTX_T_F16, PTX_T_F32, PTX_RND_RN, 0, 2, SIM_VFP_H_TO},
    {PTX_OP_CVT, PTX_T_F16, PTX_T_F32, PTX_RND_RN, PTX_F_FTZ, 2, SIM_VFP_H_TO},
    {PTX_OP_CVT, PTX_T_BF16, PTX_T_F32, PTX_RND_RN, 0, 2, SIM_VFP_H_TO},
    {PTX_OP_CVT, PTX_T_BF16, PTX_T_F32, PTX_RND_RN, PTX_F_FTZ, 2, SIM_VFP_H_TO},
    {PTX_OP_CVT, PTX_T_F16X2, PTX_T_F32, PTX_RND_RN, 0, 3, SIM_VFP_H_PACK},
    {PTX_OP_CVT, PTX_T_BF16X2, PTX_T_F32, PTX_RND_RN, PTX_F_FTZ, 3, SIM_VFP_H_PACK},
    {PTX_OP_CVT, PTX_T_F32, PTX_T_F16, PTX_RND_NONE, 0, 2, SIM_VFP_H_FROM},
    {PTX_OP_CVT, PTX_T_F32, PTX_T_F16, PTX_RND_NONE, PTX_F_FTZ, 2, SIM_VFP_H_FROM},
    {PTX_OP_CVT, PTX_T_F32, PTX_T_BF16, PTX_RND_NONE, 0, 2, SIM_VFP_H_FROM},
    {PTX_OP_CVT, PTX_T_F32, PTX_T_BF16, PTX_RND_NONE, PTX_F_FTZ, 2, SIM_VFP_H_FROM},
    /* left to sim_alu: other rounding modes, flags the vector code does not apply */
    {PTX_OP_ADD, PTX_T_F16, PTX_T_NONE, PTX_RND_RZ, 0, 3, SIM_VFP_NONE},
    {PTX_OP_CVT, PTX_T_F16, PTX_T_F32, PTX_RND_RZ, 0, 2, SIM_VFP_NONE},
    {PTX_OP_CVT, PTX_T_F16, PTX_T_F32, PTX_RND_RN, PTX_F_RELU, 2, SIM_VFP_NONE},
  };
  uint64_t rng = 0x2545F4914F6CDD1Dull;
  unsigned taken = 0, cases = 0;
  for (size_t ci = 0; ci < sizeof cs / sizeof *cs; ci++) {
    const struct hcase *c = &cs[ci];
    struct ptx_inst in;
    memset(&in, 0, sizeof in);
    in.op = (uint16_t)c->op;
    in.type = (uint8_t)c->t;
    in.type2 = (uint8_t)c->st;
    in.rnd = (uint8_t)c->rnd;
    in.flags = c->flags;
    in.nopd = (uint8_t)c->nopd;
    const enum sim_vfp k = sim_vfp_of(&in);
#ifdef SIM_X86
    if (sim_cpu_f16c)
      ck_assert_msg(k == c->want, "case %zu: kind %d, want %d", ci, (int)k, (int)c->want);
#endif
    if (k == SIM_VFP_NONE)
      continue;
    taken++;
    const int cvt = c->op == PTX_OP_CVT, x2 = c->t == PTX_T_F16X2 || c->t == PTX_T_BF16X2;
    const int to = cvt && c->st == PTX_T_F32, bf = c->t == PTX_T_BF16 || c->t == PTX_T_BF16X2 ||
                                                  c->st == PTX_T_BF16;
    for (uint32_t first = 0; first < 65536; first += 32) {
      uint64_t a[32], b[32], cc[32], d[32];
      for (unsigned l = 0; l < 32; l++) {
        const uint32_t h = first + l;
        if (to) {
          a[l] = f32_near_half(&rng, bf);
          b[l] = f32_near_half(&rng, bf);
        } else if (cvt) {
          a[l] = h;
        } else if (x2) {
          const uint32_t h2 = (h * 40503u + 7u) & 0xffff;        /* another one, above */
          a[l] = h | h2 << 16;
          b[l] = half_operand(&rng, h) | half_operand(&rng, h2) << 16;
          cc[l] = half_operand(&rng, h) | half_operand(&rng, h2) << 16;
        } else {
          a[l] = h | (sim_order_next(&rng) % 4 ? 0 : sim_order_next(&rng) << 16);
          b[l] = half_operand(&rng, h) | (sim_order_next(&rng) % 4 ? 0 : 0xabcd0000u);
          cc[l] = half_operand(&rng, h);
        }
        cases++;
      }
      sim_vfp_full(k, &in, d, a, c->nopd > 2 ? b : NULL, c->nopd > 3 ? cc : NULL);
      for (unsigned l = 0; l < 32; l++) {
        uint64_t want;
        if (cvt && c->nopd == 3)
          want = sim_alu_cvt_pack(c->t, c->rnd, c->flags, a[l], b[l]);
        else if (cvt)
          want = sim_alu_cvt(c->t, c->st, c->rnd, c->flags, a[l]);
        else if (c->op == PTX_OP_FMA)
          want = sim_alu_ffma(c->t, c->rnd, c->flags, a[l], b[l], cc[l]);
        else if (c->nopd == 2)
          want = sim_alu_fun(c->op, c->t, c->rnd, c->flags, a[l]);
        else
          want = sim_alu_fbin(c->op, c->t, c->rnd, c->flags, a[l], b[l]);
        ck_assert_msg(d[l] == want, "case %zu (%s), lane %u: 0x%llx, 0x%llx, 0x%llx: 0x%llx, "
                      "sim_alu 0x%llx", ci, ptx_op_name(c->op), l, (unsigned long long)a[l],
                      (unsigned long long)b[l], (unsigned long long)cc[l],
                      (unsigned long long)d[l], (unsigned long long)want);
      }
    }
  }
#ifdef SIM_X86
  if (sim_cpu_f16c)
    ck_assert_uint_eq(taken, sizeof cs / sizeof *cs - 3);
#else
  ck_assert_uint_eq(taken, 0);
#endif
  (void)cases;
}
END_TEST

/* sim_exec's one pass over a warp's 32-bit integer atomic adds on shared memory against the
   lane-by-lane path (sim_exec_shortcuts 0): random programs of three warps over 64 words of
   shared memory, written first or not, each step an atom or red .shared.add.u32 or .s32 at
   words in one of six shapes (one word, a word a half-warp, its own, bins by a hash of the
   thread, a misaligned word, one lane past the end) or a read; must report the same fault
   (an uninitialised read, a misaligned or out-of-bounds lane), to the message, and leave the
   same values (memory, every lane's old value) and counters. */
START_TEST(test_shared_atomic_adds_match_lanes)
{
  static const char *const shape[6] = {
    "  mov.u32 %r2, 12;\n",                              /* one word */
    "  shr.u32 %r2, %r1, 4;\n  shl.b32 %r2, %r2, 2;\n",   /* a word a half-warp */
    "  and.b32 %r2, %r1, 63;\n  shl.b32 %r2, %r2, 2;\n",  /* its own */
    "  mul.lo.u32 %r2, %r1, 2654435761;\n  shr.u32 %r2, %r2, 26;\n  shl.b32 %r2, %r2, 2;\n",
    "  shl.b32 %r2, %r1, 2;\n  and.b32 %r2, %r2, 252;\n  add.u32 %r2, %r2, 2;\n",
    "  setp.eq.u32 %p1, %r1, 77;\n  selp.u32 %r2, 256, 8, %p1;\n",  /* lane 13 of warp 2 */
  };
  uint64_t rng = 0x9FB21C651E98DF25ull;
#define SA_NEXT() rng_next(&rng)
  unsigned faults = 0, clean = 0;
  static char k[16384];
  for (int trial = 0; trial < 160; trial++) {
    const int first = trial % 4 != 0;                 /* every word written, then a barrier */
    size_t n = (size_t)snprintf(k, sizeof k,
      HDR
      ".visible .entry sa(.param .u64 out)\n{\n"
      "  .reg .pred %%p<2>;\n  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<4>;\n"
      "  .shared .align 4 .b8 s[256];\n"
      "  mov.u32 %%r1, %%tid.x;\n  mov.u32 %%r5, s;\n  mov.u32 %%r6, 0;\n%s",
      first ? "  shl.b32 %r3, %r1, 2;\n  add.u32 %r3, %r5, %r3;\n  setp.lt.u32 %p1, %r1, 64;\n"
              "  .loc 1 9 3\n  @%p1 st.shared.u32 [%r3], %r1;\n  bar.sync 0;\n" : "");
    for (int step = 0; step < 6; step++) {
      const uint32_t kind = SA_NEXT() % 8, sh = SA_NEXT() % 6;
      if (sh >= 4 && SA_NEXT() % 4)                   /* faults now and then */
        continue;
      n += (size_t)snprintf(k + n, sizeof k - n, "%s  add.u32 %%r3, %%r5, %%r2;\n",
                            shape[sh]);
      if (kind < 6)
        n += (size_t)snprintf(k + n, sizeof k - n,
                              "  .loc 1 %d 3\n%s  add.u32 %%r6, %%r6, %%r4;\n", 10 + step,
                              kind < 3 ? "  atom.shared.add.u32 %r4, [%r3], %r1;\n"
                              : kind < 5 ? "  atom.shared.add.s32 %r4, [%r3], -3;\n"
                                         : "  red.shared.add.u32 [%r3], 5;\n  mov.u32 %r4, 1;\n");
      else
        n += (size_t)snprintf(k + n, sizeof k - n,
                              "  bar.sync 0;\n  .loc 1 %d 3\n  ld.shared.u32 %%r4, [%%r3];\n"
                              "  add.u32 %%r6, %%r6, %%r4;\n  bar.sync 0;\n", 10 + step);
    }
    snprintf(k + n, sizeof k - n,
             "  bar.sync 0;\n  and.b32 %%r3, %%r1, 63;\n  shl.b32 %%r3, %%r3, 2;\n"
             "  add.u32 %%r3, %%r5, %%r3;\n  ld.shared.u32 %%r4, [%%r3];\n"
             "  ld.param.u64 %%rd1, [out];\n  mul.wide.u32 %%rd2, %%r1, 8;\n"
             "  add.s64 %%rd3, %%rd1, %%rd2;\n  st.global.v2.u32 [%%rd3], {%%r6, %%r4};\n"
             "  ret;\n}\n.file 1 \"/lab/sa.cu\"\n");
    struct sim_result r[2];
    uint32_t got[2][192];
    struct sim_launch c = {.grid = {1, 1, 1}, .block = {96, 1, 1}, .sched = SIM_SCHED_ITS,
                           .workers = 1};
    run_switched(k, "sa", &c, &sim_exec_shortcuts, r, got[0], got[1], sizeof got[0]);
    ck_assert_mem_eq(&r[0].stats[0], &r[1].stats[0], r[0].nstats * sizeof *r[0].stats);
    if (r[1].outcome == SIM_RAN_OK)
      clean++;
    else
      faults++;
    unsigned races = 0, ok = 0;
    same_race_runs(r, got[0], got[1], sizeof got[0], &races, &ok);
  }
#undef SA_NEXT
  ck_assert_uint_gt(faults, 20);
  ck_assert_uint_gt(clean, 40);
}
END_TEST

/* ex2, lg2, sin and cos .approx.f32 through sim_vfp (a table and a series in double where
   the f32 rounding is sure, libm's function elsewhere) against sim_alu's libm calls: about a
   million f32 values spread over every exponent and sign, every value within 2048 of the
   points where the vector code changes course (1.0, exp2's range -126 and 128, pi / 2, pi,
   the range of sin and cos 2^18 and 2^-100), and the integers and powers of two, with .ftz
   and without. */
START_TEST(test_vfp_transcendentals_match_libm)
{
  static const enum ptx_op ops[4] = {PTX_OP_EX2, PTX_OP_LG2, PTX_OP_SIN, PTX_OP_COS};
  static const uint32_t near[8] = {0x3f800000u, 0xc2fc0000u, 0x43000000u, 0x3fc90fdbu,
                                   0x40490fdbu, 0x48800000u, 0x0d800000u, 0xc8800000u};
  static uint64_t a[32], d[32];
  unsigned taken = 0;
  for (unsigned oi = 0; oi < 4; oi++)
    for (unsigned ftz = 0; ftz < 2; ftz++) {
      struct ptx_inst in;
      memset(&in, 0, sizeof in);
      in.op = (uint16_t)ops[oi];
      in.type = (uint8_t)PTX_T_F32;
      in.flags = PTX_F_APPROX | (ftz ? PTX_F_FTZ : 0);
      in.nopd = 2;
      const enum sim_vfp k = sim_vfp_of(&in);
      if (k == SIM_VFP_NONE)                       /* no AVX2 or FMA here */
        continue;
      taken++;
      unsigned n = 0;
      uint64_t rng = 0x2545F4914F6CDD1Dull;
      for (uint64_t step = 0;; step++) {
        uint32_t u;
        if (step < (1u << 20))                     /* spread, with a random low part */
          u = (uint32_t)(step << 12) ^ (uint32_t)(sim_order_next(&rng) & 0xfff);
        else if (step < (1u << 20) + 8 * 4096)     /* around the points */
          u = near[(step - (1u << 20)) / 4096] - 2048 + (uint32_t)((step - (1u << 20)) % 4096);
        else if (step < (1u << 20) + 8 * 4096 + 600) { /* integers and powers of two */
          const int j = (int)(step - (1u << 20) - 8 * 4096) - 300;
          float f = j < 0 ? ldexpf(1.0f, j / 2) : (float)(j - 150);
          memcpy(&u, &f, 4);
        } else {
          break;
        }
        a[n++] = u;
        if (n < 32)
          continue;
        n = 0;
        sim_vfp_full(k, &in, d, a, NULL, NULL);
        for (unsigned l = 0; l < 32; l++) {
          const uint64_t want = sim_alu_fun(in.op, PTX_T_F32, PTX_RND_NONE, in.flags, a[l]);
          ck_assert_msg(d[l] == want, "%s%s of 0x%08llx: 0x%08llx, libm 0x%08llx",
                        ptx_op_name(in.op), ftz ? ".ftz" : "", (unsigned long long)a[l],
                        (unsigned long long)d[l], (unsigned long long)want);
        }
      }
    }
#ifdef SIM_X86
  if (sim_cpu_avx2 && sim_cpu_avx2_fma)
    ck_assert_uint_eq(taken, 8);
#endif
}
END_TEST

/* Float atomic adds as an H200 makes them (tests/gpu/kernels/nan_ops2.cu,
   bench/results/device_r13.txt): in global memory, through atom, red and a generic
   address, subnormal operands and sums flush to zero, keeping the sign, and the old value
   comes back as it was; in shared memory, through atom and a generic address, they are
   plain IEEE adds. Each lane of the warp's first 8 adds its own pair, on 1 lane and on 32
   (the lane loop and the warp's pass). */
static const char *k_fatom =
  HDR
  ".visible .entry fa(.param .u64 g, .param .u64 out)\n{\n"
  "  .reg .pred %p<2>;\n  .reg .b32 %r<12>;\n  .reg .f32 %f<12>;\n  .reg .b64 %rd<12>;\n"
  "  .shared .align 4 .b32 s[64];\n"
  "  ld.param.u64 %rd1, [g];\n  ld.param.u64 %rd2, [out];\n  mov.u32 %r1, %tid.x;\n"
  "  and.b32 %r2, %r1, 7;\n  mul.wide.u32 %rd3, %r2, 4;\n"
  "  mov.u64 %rd4, pairs;\n  add.s64 %rd4, %rd4, %rd3;\n"
  "  ld.const.u32 %r3, [%rd4];\n  ld.const.u32 %r4, [%rd4+32];\n  mov.b32 %f2, %r4;\n"
  "  mul.wide.u32 %rd5, %r1, 4;\n  add.s64 %rd6, %rd1, %rd5;\n"
  "  st.global.u32 [%rd6], %r3;\n  st.global.u32 [%rd6+128], %r3;\n"
  "  st.global.u32 [%rd6+256], %r3;\n"
  "  mov.u32 %r5, s;\n  shl.b32 %r6, %r1, 2;\n  add.u32 %r7, %r5, %r6;\n"
  "  st.shared.u32 [%r7], %r3;\n  st.shared.u32 [%r7+128], %r3;\n  bar.sync 0;\n"
  "  atom.global.add.f32 %f3, [%rd6], %f2;\n"
  "  red.global.add.f32 [%rd6+128], %f2;\n"
  "  atom.add.f32 %f4, [%rd6+256], %f2;\n"
  "  atom.shared.add.f32 %f5, [%r7], %f2;\n"
  "  cvt.u64.u32 %rd8, %r7;\n  cvta.shared.u64 %rd9, %rd8;\n"
  "  atom.add.f32 %f6, [%rd9+128], %f2;\n  bar.sync 0;\n"
  "  ld.global.u32 %r8, [%rd6];\n  ld.global.u32 %r9, [%rd6+128];\n"
  "  ld.global.u32 %r10, [%rd6+256];\n  ld.shared.u32 %r11, [%r7];\n"
  "  mul.wide.u32 %rd10, %r1, 32;\n  add.s64 %rd11, %rd2, %rd10;\n"
  "  mov.b32 %r2, %f3;\n  st.global.v4.u32 [%rd11], {%r2, %r8, %r9, %r10};\n"
  "  ld.shared.u32 %r2, [%r7+128];\n  mov.b32 %r3, %f5;\n  mov.b32 %r4, %f6;\n"
  "  st.global.v4.u32 [%rd11+16], {%r11, %r2, %r3, %r4};\n"
  "  ret;\n}\n";

START_TEST(test_float_atomics_flush_in_global)
{
  /* old value, operand: subnormals that sum to a normal or flush, signs, a normal and a
     subnormal, NaNs (canonical either way) */
  static const uint32_t pa[8] = {0x00400000, 0x80400000, 0x00000001, 0x80000001,
                                 0x3f800000, 0x00800000, 0x7fc00001, 0x00054321};
  static const uint32_t pb[8] = {0x00400000, 0x80400000, 0x00000002, 0x00800000,
                                 0x00000001, 0x80000001, 0x7fc00005, 0x00012345};
  char src[4096];
  snprintf(src, sizeof src, "%s", k_fatom);
  char *decl = strstr(src, ".visible");
  ck_assert_ptr_nonnull(decl);
  char table[512];
  int n = snprintf(table, sizeof table, ".const .align 4 .u32 pairs[16] = {");
  for (int i = 0; i < 16; i++)
    n += snprintf(table + n, sizeof table - (size_t)n, "%s%u", i ? ", " : "",
                  i < 8 ? pa[i] : pb[i - 8]);
  snprintf(table + n, sizeof table - (size_t)n, "};\n");
  memmove(decl + strlen(table), decl, strlen(decl) + 1);
  memcpy(decl, table, strlen(table));
  for (unsigned threads = 1; threads <= 32; threads += 31) {
    struct fx f;
    load(&f, src);
    uint64_t p[2] = {buffer(&f, 3 * 128, "g"), buffer(&f, 32 * 32, "out")};
    ck_assert_int_eq(launch(&f, "fa", 1, threads, p, 2, SIM_SCHED_ITS, 1, 0), SIM_OK);
    ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
    uint32_t got[32][8];
    ck_assert_int_eq(sim_read(f.d, p[1], got, threads * 32), SIM_OK);
    for (unsigned l = 0; l < threads; l++) {
      const uint32_t a = pa[l % 8], b = pb[l % 8];
      /* the sums: IEEE, and with subnormals flushed (sign kept) before and after */
      const uint32_t fa = a & 0x7f800000 ? a : a & 0x80000000;
      const uint32_t fb = b & 0x7f800000 ? b : b & 0x80000000;
      uint32_t ieee = (uint32_t)sim_alu_fbin(PTX_OP_ADD, PTX_T_F32, PTX_RND_RN, 0, a, b);
      uint32_t ftz = (uint32_t)sim_alu_fbin(PTX_OP_ADD, PTX_T_F32, PTX_RND_RN, 0, fa, fb);
      if (!(ftz & 0x7f800000))
        ftz &= 0x80000000;
      ck_assert_uint_eq(got[l][0], a);                  /* atom.global: the old value */
      ck_assert_uint_eq(got[l][1], ftz);                /* ... and the sum */
      ck_assert_uint_eq(got[l][2], ftz);                /* red.global */
      ck_assert_uint_eq(got[l][3], ftz);                /* generic, global */
      ck_assert_uint_eq(got[l][4], ieee);               /* atom.shared */
      ck_assert_uint_eq(got[l][5], ieee);               /* generic, shared */
      ck_assert_uint_eq(got[l][6], a);                  /* the old values */
      ck_assert_uint_eq(got[l][7], a);
    }
    done(&f);
  }
  /* the pairs cover both: a flushed sum that differs from the IEEE one */
  ck_assert_uint_ne((uint32_t)sim_alu_fbin(PTX_OP_ADD, PTX_T_F32, PTX_RND_RN, 0, pa[0], pb[0]), 0);
}
END_TEST

/* sim_exec's pass over a warp's global atomics (the addresses checked for the warp, an
   integer add as one host atomic add) against the lane-by-lane path (sim_exec_shortcuts 0):
   random programs of three warps over 64 words of a global buffer, set first, each step an
   atom or red of one of fourteen operations (add .u32, .s32, .f32 and .u64, max .s32, cas,
   exch, inc, a generic-space add, a red.add, add .f64, an f32 add of a subnormal, a .u32 and
   an .f32 add whose old value goes into its operand's register) at words in
   one of seven shapes (one word: a whole warp's add there is one host operation; a word a
   half-warp, its own, bins by a hash of the thread, a misaligned word, and, after two warps
   that fit, one lane past the buffer's end or misaligned), by some lanes or all; must report
   the same fault, to the message, and leave the same values (memory, each thread's sum of
   its old values) and counters. */
START_TEST(test_global_atomics_match_lanes)
{
  static const char *const shape[7] = {
    "  mov.u64 %rd4, 24;\n",                                           /* one word */
    "  shr.u32 %r2, %r1, 4;\n  mul.wide.u32 %rd4, %r2, 8;\n",           /* a half-warp's */
    "  and.b32 %r2, %r1, 31;\n  mul.wide.u32 %rd4, %r2, 8;\n",          /* its own */
    "  mul.lo.u32 %r2, %r1, 2654435761;\n  shr.u32 %r2, %r2, 27;\n  mul.wide.u32 %rd4, %r2, 8;\n",
    "  and.b32 %r2, %r1, 31;\n  mul.wide.u32 %rd4, %r2, 8;\n  add.u64 %rd4, %rd4, 2;\n",
    "  setp.eq.u32 %p1, %r1, 77;\n  selp.u64 %rd4, 1024, 16, %p1;\n",   /* lane 13, warp 2 */
    "  setp.eq.u32 %p1, %r1, 70;\n  selp.u64 %rd4, 18, 16, %p1;\n",     /* lane 6, warp 2 */
  };
  static const char *const op[14] = {
    "  atom.global.add.u32 %r4, [%rd5], %r1;\n",
    "  atom.global.add.s32 %r4, [%rd5], -3;\n",
    "  atom.global.add.f32 %r4, [%rd5], 0f3FC00000;\n",
    "  atom.global.add.u64 %rd6, [%rd5], %rd4;\n  cvt.u32.u64 %r4, %rd6;\n",
    "  atom.global.max.s32 %r4, [%rd5], %r1;\n",
    "  atom.global.cas.b32 %r4, [%rd5], %r1, 7;\n",
    "  atom.global.exch.b32 %r4, [%rd5], %r1;\n",
    "  atom.global.inc.u32 %r4, [%rd5], 40;\n",
    "  atom.add.u32 %r4, [%rd5], 9;\n",
    "  red.global.add.u32 [%rd5], %r1;\n  mov.u32 %r4, 1;\n",
    "  atom.global.add.f64 %rd6, [%rd5], 0d3FF4000000000000;\n  cvt.u32.u64 %r4, %rd6;\n",
    "  atom.global.add.f32 %r4, [%rd5], 0f00400000;\n",          /* subnormal: flushed */
    "  atom.global.add.u32 %r3, [%rd5], %r3;\n  mov.u32 %r4, %r3;\n",  /* old value into */
    "  atom.global.add.f32 %r3, [%rd5], %r3;\n  mov.u32 %r4, %r3;\n",  /* the operand's */
  };
  uint64_t rng = 0x5851F42D4C957F2Dull;
#define GA_NEXT() rng_next(&rng)
  unsigned faults = 0, clean = 0, some = 0;
  static char k[16384];
  for (int trial = 0; trial < 120; trial++) {
    size_t n = (size_t)snprintf(k, sizeof k,
      HDR
      ".visible .entry ga(.param .u64 out)\n{\n"
      "  .reg .pred %%p<3>;\n  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<8>;\n"
      "  mov.u32 %%r1, %%tid.x;\n  mov.u32 %%r6, 0;\n  ld.param.u64 %%rd1, [out];\n"
      "  setp.lt.u32 %%p1, %%r1, 64;\n  mul.wide.u32 %%rd2, %%r1, 4;\n"
      "  add.s64 %%rd3, %%rd1, %%rd2;\n  mul.lo.u32 %%r3, %%r1, 40503;\n"
      "  @%%p1 st.global.u32 [%%rd3], %%r3;\n  bar.sync 0;\n");
    for (int step = 0; step < 6; step++) {
      const uint32_t o = GA_NEXT() % 14, sh = GA_NEXT() % 7, part = GA_NEXT() % 3 == 0;
      if (sh >= 4 && GA_NEXT() % 4)                   /* faults now and then */
        continue;
      some += part;
      n += (size_t)snprintf(k + n, sizeof k - n,
                            "%s  add.s64 %%rd5, %%rd1, %%rd4;\n%s  .loc 1 %d 3\n"
                            "  @%%p2 %s  mul.lo.u32 %%r6, %%r6, 31;\n"
                            "  add.u32 %%r6, %%r6, %%r4;\n", shape[sh],
                            part ? "  and.b32 %r5, %r1, 5;\n  setp.ne.u32 %p2, %r5, 0;\n"
                                 : "  setp.ne.u32 %p2, %r1, 999;\n",
                            10 + step, op[o] + 2);
    }
    snprintf(k + n, sizeof k - n,
             "  bar.sync 0;\n  mul.wide.u32 %%rd2, %%r1, 4;\n  add.s64 %%rd3, %%rd1, %%rd2;\n"
             "  st.global.u32 [%%rd3+512], %%r6;\n  ret;\n}\n.file 1 \"/lab/ga.cu\"\n");
    struct sim_result r[2];
    uint32_t got[2][256];
    struct sim_launch c = {.grid = {1, 1, 1}, .block = {96, 1, 1}, .sched = SIM_SCHED_ITS,
                           .workers = 1};
    run_switched(k, "ga", &c, &sim_exec_shortcuts, r, got[0], got[1], sizeof got[0]);
    ck_assert_mem_eq(&r[0].stats[0], &r[1].stats[0], r[0].nstats * sizeof *r[0].stats);
    unsigned races = 0, ok = 0;
    same_race_runs(r, got[0], got[1], sizeof got[0], &races, &ok);
    faults += !ok;
    clean += ok;
  }
#undef GA_NEXT
  ck_assert_uint_gt(faults, 15);
  ck_assert_uint_gt(clean, 40);
  ck_assert_uint_gt(some, 40);
}
END_TEST

/* A whole warp's add on one address whose old value goes into the operand's own register
   (atom.add %r3, [a], %r3: legal PTX), .u32 and .f32 (the one-address paths, which read every
   lane's operand after the add): each thread's old value and the word after the warp's adds,
   against the lane-by-lane path (sim_exec_shortcuts 0). */
START_TEST(test_global_atomic_into_operand)
{
  static const char k[] =
    HDR
    ".visible .entry ao(.param .u64 out)\n{\n"
    "  .reg .b32 %r<8>;\n  .reg .f32 %f<4>;\n  .reg .b64 %rd<6>;\n"
    "  mov.u32 %r1, %tid.x;\n  ld.param.u64 %rd1, [out];\n"
    "  add.u32 %r3, %r1, 1;\n  atom.global.add.u32 %r3, [%rd1], %r3;\n"
    "  cvt.rn.f32.u32 %f1, %r1;\n  add.f32 %f1, %f1, 0f3FC00000;\n"
    "  atom.global.add.f32 %f1, [%rd1+4], %f1;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3+8], %r3;\n  st.global.f32 [%rd3+264], %f1;\n  ret;\n}\n";
  struct sim_result r[2];
  uint32_t got[2][128];
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {64, 1, 1}, .workers = 1};
  run_switched(k, "ao", &c, &sim_exec_shortcuts, r, got[0], got[1], sizeof got[0]);
  ck_assert_mem_eq(got[0], got[1], sizeof got[0]);
  ck_assert_uint_eq(got[0][0], 64 * 65 / 2);              /* the sum of 1 .. 64 */
  /* thread 33's old value: thread 32's add (33) on the sum of the warp before, or on 0 */
  ck_assert_msg(got[0][2 + 33] == 32 * 33 / 2 + 33 || got[0][2 + 33] == 33, "%u",
                got[0][2 + 33]);
  for (int i = 0; i < 2; i++)
    sim_result_free(&r[i]);
}
END_TEST

/* The integer adds a worker holds back (sim_redbuf) against the lane-by-lane path, which
   holds none (sim_exec_shortcuts 0): random programs of three warps in two blocks on one
   worker (a third of them in 64-lane waves), each step an add whose old value nothing
   reads (red, or atom into a register no instruction reads; u32 or s32) on bins of either
   of two allocations (the kernel's buffer and a module variable: a worker holds one
   allocation's at a time), a lane's own word, 256 hashed bins, one word, some lanes only;
   or a load of those bins (a coalesced warp, a vector, a gather, partial), a store to them
   (after an add to the same word), an atom whose old value is read, a fence, a barrier.
   Every read must see what the lanes one at a time give; the buffer, the module variable
   and the counters must end the same. Then: a histogram on two workers (the sums alone are
   fixed), with slots of the buffer shared; which accesses send the held adds; an atom
   whose old value is read only as a store's address (not held); and blocks that wait for
   each other's held adds (a spin, a flag behind a fence or a release) must end, and see
   them. */
START_TEST(test_held_adds_match_direct)
{
  static const char *const bins[5] = {
    "  and.b32 %r2, %r1, 63;\n  mul.wide.u32 %rd4, %r2, 4;\n",                 /* its own */
    "  mul.lo.u32 %r2, %r1, 2654435761;\n  shr.u32 %r2, %r2, 24;\n"
    "  mul.wide.u32 %rd4, %r2, 4;\n",                                          /* 256 bins */
    "  mov.u64 %rd4, 12;\n",                                                   /* one word */
    "  and.b32 %r2, %r1, 7;\n  mul.wide.u32 %rd4, %r2, 4;\n",                  /* 8 bins */
    "  mul.lo.u32 %r2, %r1, 40503;\n  and.b32 %r2, %r2, 255;\n"
    "  mul.wide.u32 %rd4, %r2, 4;\n",                                          /* scattered */
  };
  static const char *const step[14] = {
    "  @%p2 red.global.add.u32 [%rd5], %r1;\n",
    "  @%p2 atom.global.add.u32 %r7, [%rd5], 3;\n",
    "  @%p2 atom.global.add.s32 %r7, [%rd5], -2;\n",
    "  @%p2 ld.global.u32 %r4, [%rd5];\n  add.u32 %r6, %r6, %r4;\n",
    "  and.b32 %r2, %r1, 60;\n  mul.wide.u32 %rd6, %r2, 4;\n  add.s64 %rd6, %rd8, %rd6;\n"
    "  ld.global.v4.u32 {%r3, %r4, %r5, %r2}, [%rd6];\n  add.u32 %r6, %r6, %r5;\n",
    "  mul.wide.u32 %rd6, %r1, 4;\n  add.s64 %rd6, %rd8, %rd6;\n"
    "  @%p2 ld.global.u32 %r4, [%rd6];\n  xor.b32 %r6, %r6, %r4;\n",           /* coalesced */
    "  @%p2 st.global.u32 [%rd5], %r1;\n",
    "  @%p2 atom.global.add.u32 %r4, [%rd5], 1;\n  add.u32 %r6, %r6, %r4;\n",
    "  membar.gl;\n",
    "  @%p2 red.global.add.u32 [%rd5], %r1;\n  @%p2 st.global.u32 [%rd5], %r2;\n",
    "  and.b32 %r2, %r1, 63;\n  mul.wide.u32 %rd6, %r2, 16;\n  add.s64 %rd6, %rd8, %rd6;\n"
    "  ld.global.v4.u32 {%r3, %r4, %r5, %r2}, [%rd6];\n  add.u32 %r6, %r6, %r4;\n",  /* coalesced */
    "  st.global.u32 [%rd5], %r1;\n",                                  /* every lane's */
    /* half the lanes in each allocation, which half flipping from warp to warp: the lanes
       of the one the instruction used last take it, the others find theirs */
    "  shr.u32 %r2, %r1, 4;\n  shr.u32 %r3, %r1, 5;\n  xor.b32 %r2, %r2, %r3;\n"
    "  and.b32 %r2, %r2, 1;\n  setp.ne.u32 %p1, %r2, 0;\n  add.s64 %rd6, %rd1, 1024;\n"
    "  selp.b64 %rd6, %rd9, %rd6, %p1;\n  add.s64 %rd6, %rd6, %rd4;\n"
    "  @%p2 ld.global.u32 %r4, [%rd6];\n  add.u32 %r6, %r6, %r4;\n",
    "  shr.u32 %r2, %r1, 4;\n  shr.u32 %r3, %r1, 5;\n  xor.b32 %r2, %r2, %r3;\n"
    "  and.b32 %r2, %r2, 1;\n  setp.ne.u32 %p1, %r2, 0;\n  add.s64 %rd6, %rd1, 1024;\n"
    "  selp.b64 %rd6, %rd9, %rd6, %p1;\n  add.s64 %rd6, %rd6, %rd4;\n"
    "  @%p2 st.global.u32 [%rd6], %r1;\n",
  };
  uint64_t rng = 0x2545F4914F6CDD1Dull;
#define HA_NEXT() rng_next(&rng)
  static char k[16384];
  const unsigned long flushed0 = sim_redbuf_flushed;
  unsigned races = 0, clean = 0;
  for (int trial = 0; trial < 150; trial++) {
    size_t n = (size_t)snprintf(k, sizeof k,
      HDR
      ".global .align 16 .b8 gb[1024];\n"
      ".visible .entry ha(.param .u64 out)\n{\n"
      "  .reg .pred %%p<3>;\n  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<10>;\n"
      "  mov.u32 %%r1, %%tid.x;\n  mov.u32 %%r6, 0;\n  ld.param.u64 %%rd1, [out];\n"
      "  mov.u64 %%rd9, gb;\n  cvta.to.global.u64 %%rd9, %%rd9;\n");
    for (int s = 0; s < 10; s++) {
      const uint32_t kind = HA_NEXT() % 17, sh = HA_NEXT() % 5, part = HA_NEXT() % 3 == 0;
      const char *text = kind < 5 ? step[HA_NEXT() % 3]    /* adds: a third of the steps */
                         : kind < 16 ? step[kind - 2] : "  bar.sync 0;\n";
      n += (size_t)snprintf(k + n, sizeof k - n,
                            "%s  %s;\n  add.s64 %%rd5, %%rd8, %%rd4;\n%s  .loc 1 %d 3\n%s",
                            bins[sh], HA_NEXT() % 2 ? "mov.u64 %rd8, %rd9" : "add.s64 %rd8, %rd1, 1024",
                            part ? "  and.b32 %r5, %r1, 5;\n  setp.ne.u32 %p2, %r5, 0;\n"
                                 : "  setp.ne.u32 %p2, %r1, 999;\n",
                            10 + s, text);
    }
    /* each thread's sum of what it read, then the module variable, into the buffer */
    snprintf(k + n, sizeof k - n,
             "  bar.sync 0;\n  mov.u32 %%r3, %%ctaid.x;\n  mov.u32 %%r4, %%ntid.x;\n"
             "  mad.lo.u32 %%r2, %%r3, %%r4, %%r1;\n"
             "  mul.wide.u32 %%rd2, %%r2, 4;\n  add.s64 %%rd3, %%rd1, %%rd2;\n"
             "  st.global.u32 [%%rd3], %%r6;\n"
             "  setp.ne.u32 %%p1, %%r3, 1;\n  @%%p1 bra DONE;\n  setp.ge.u32 %%p1, %%r1, 64;\n"
             "  @%%p1 bra DONE;\n"
             "  mul.wide.u32 %%rd2, %%r1, 16;\n  add.s64 %%rd6, %%rd9, %%rd2;\n"
             "  ld.global.v4.u32 {%%r2, %%r3, %%r4, %%r5}, [%%rd6];\n  add.s64 %%rd3, %%rd1, %%rd2;\n"
             "  st.global.v4.u32 [%%rd3+2048], {%%r2, %%r3, %%r4, %%r5};\n"
             "DONE:\n  ret;\n}\n.file 1 \"/lab/ha.cu\"\n");
    struct sim_result r[2];
    uint32_t got[2][1024];
    const int wide = trial % 3 == 2;     /* (two full waves: the second finds the cache) */
    struct sim_launch c = {.grid = {2, 1, 1}, .block = {wide ? 128u : 96u, 1, 1},
                           .sched = SIM_SCHED_ITS, .workers = 1, .warp_size = wide ? 64 : 32};
    run_switched(k, "ha", &c, &sim_exec_shortcuts, r, got[0], got[1], sizeof got[0]);
    ck_assert_mem_eq(&r[0].stats[0], &r[1].stats[0], r[0].nstats * sizeof *r[0].stats);
    for (unsigned i = 0; i < 1024; i++)
      ck_assert_msg(got[0][i] == got[1][i], "trial %d: word %u: %u, held %u", trial, i,
                    got[0][i], got[1][i]);
    same_race_runs(r, got[0], got[1], sizeof got[0], &races, &clean);
  }
#undef HA_NEXT
  ck_assert_uint_gt(clean, 10);
  ck_assert_uint_gt(races, 20);
  ck_assert_uint_gt(sim_redbuf_flushed - flushed0, 1000);

  /* a histogram of 64 warps on two workers, on 256 hashed bins and on 16384 (64 KiB) where
     every four lanes' words share a slot of the worker's buffer (4096 words apart), and
     take it from each other: the sums */
  static const char hk[] =
    HDR
    ".visible .entry hh(.param .u64 out, .param .u64 big)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<6>;\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n  mad.lo.u32 %r1, %r2, 256, %r1;\n"
    "  ld.param.u64 %rd1, [out];\n  ld.param.u32 %r5, [big];\n"
    "  mul.lo.u32 %r3, %r1, 2654435761;\n  shr.u32 %r3, %r3, 24;\n"
    "  shl.b32 %r6, %r1, 12;\n  shr.u32 %r7, %r1, 2;\n  add.u32 %r6, %r6, %r7;\n"
    "  and.b32 %r6, %r6, 16383;\n  setp.ne.u32 %p1, %r5, 0;\n  selp.u32 %r3, %r6, %r3, %p1;\n"
    "  mul.wide.u32 %rd2, %r3, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  atom.global.add.u32 %r4, [%rd3], 1;\n  red.global.add.u32 [%rd3], %r2;\n  ret;\n}\n";
  static uint32_t want[16384], hgot[2][16384];
  for (int big = 0; big < 2; big++) {
    const unsigned nb = big ? 16384 : 256;
    memset(want, 0, sizeof want);
    for (uint32_t i = 0; i < 8 * 256; i++)
      want[big ? ((i << 12) + (i >> 2)) & 16383 : (uint32_t)(i * 2654435761u) >> 24] += 1 + i / 256;
    for (int sc = 0; sc < 2; sc++) {
      struct fx f;
      load(&f, hk);
      uint64_t args[2] = {buffer(&f, 4 * nb, "out"), (uint64_t)big};
      struct sim_launch hc = {.grid = {8, 1, 1}, .block = {256, 1, 1}, .workers = 2};
      sim_exec_shortcuts = sc;
      ck_assert_int_eq(sim_run(f.d, &f.m, "hh", args, 16, &hc, &f.r, f.err, sizeof f.err), SIM_OK);
      sim_exec_shortcuts = 1;
      ck_assert_int_eq(sim_read(f.d, args[0], hgot[sc], 4 * nb), SIM_OK);
      ck_assert_mem_eq(hgot[sc], want, 4 * nb);
      done(&f);
    }
  }

  /* what sends the held adds: four warps (the first's adds find no allocation cached, and
     go to memory at once) add to a module variable, a word a lane (held), access their
     other buffer, add again, end. A fence, a volatile access, a release (a store, an
     atomic), or an access of the module variable itself sends the adds (a flush there and
     one when the block's turn ends); a plain or relaxed access of the other buffer does not
     (the turn's alone) */
  static const struct { const char *op; unsigned flushes; } send[12] = {
    {"st.global.u32 [%rd4], %r1;", 1}, {"ld.relaxed.gpu.global.u32 %r3, [%rd4];", 1},
    {"ld.acquire.gpu.global.u32 %r3, [%rd4];", 1}, {"atom.global.exch.b32 %r3, [%rd4], 1;", 1},
    {"membar.gl;", 2}, {"fence.acq_rel.gpu;", 2}, {"fence.sc.sys;", 2},
    {"st.volatile.global.u32 [%rd4], %r1;", 2}, {"ld.volatile.global.u32 %r3, [%rd4];", 2},
    {"st.release.gpu.global.u32 [%rd4], %r1;", 2},
    {"atom.release.gpu.global.exch.b32 %r3, [%rd4], 1;", 2}, {"ld.global.u32 %r3, [%rd2];", 2}};
  for (int i = 0; i < 12; i++) {
    char fk[1024];
    snprintf(fk, sizeof fk,
             HDR
             ".global .align 4 .b8 data[128];\n"
             ".visible .entry fl(.param .u64 out)\n{\n"
             "  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<6>;\n"
             "  mov.u32 %%r1, %%tid.x;\n  ld.param.u64 %%rd1, [out];\n"
             "  mov.u64 %%rd2, data;\n  cvta.to.global.u64 %%rd2, %%rd2;\n"
             "  and.b32 %%r2, %%r1, 31;\n  mul.wide.u32 %%rd3, %%r2, 4;\n  add.s64 %%rd2, %%rd2, %%rd3;\n"
             "  mul.wide.u32 %%rd3, %%r1, 4;\n  add.s64 %%rd4, %%rd1, %%rd3;\n"
             "  red.global.add.u32 [%%rd2], %%r1;\n  %s\n  red.global.add.u32 [%%rd2], 1;\n"
             "  ret;\n}\n", send[i].op);
    struct fx f;
    load(&f, fk);
    uint64_t out = buffer(&f, 512, "out");
    struct sim_launch fc = {.grid = {1, 1, 1}, .block = {128, 1, 1}, .workers = 1};
    const unsigned long before = sim_redbuf_flushes;
    ck_assert_int_eq(sim_run(f.d, &f.m, "fl", &out, 8, &fc, &f.r, f.err, sizeof f.err), SIM_OK);
    ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s: %s", send[i].op, f.r.fault.message);
    const unsigned long n = sim_redbuf_flushes - before;
    ck_assert_msg(send[i].flushes == 1 ? n == 1 : n >= 2, "%s: %lu flushes", send[i].op, n);
    done(&f);
  }

  /* 64-lane waves: the second adds to its words (held: the first left the allocation
     cached), then loads them as one coalesced run: it sees its add and the first's */
  {
    static const char wk[] =
      HDR
      ".visible .entry wv(.param .u64 out)\n{\n"
      "  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
      "  mov.u32 %r1, %tid.x;\n  ld.param.u64 %rd1, [out];\n  and.b32 %r2, %r1, 63;\n"
      "  mul.wide.u32 %rd2, %r2, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
      "  red.global.add.u32 [%rd3], 1;\n  ld.global.u32 %r4, [%rd3];\n"
      "  mul.wide.u32 %rd4, %r1, 4;\n  add.s64 %rd5, %rd1, %rd4;\n"
      "  st.global.u32 [%rd5+256], %r4;\n  ret;\n}\n";
    struct sim_result wr[2];
    uint32_t wgot[2][192];
    struct sim_launch wc = {.grid = {1, 1, 1}, .block = {128, 1, 1}, .workers = 1,
                            .warp_size = 64};
    run_switched(wk, "wv", &wc, &sim_exec_shortcuts, wr, wgot[0], wgot[1], sizeof wgot[0]);
    for (int i = 0; i < 2; i++) {
      ck_assert_msg(wr[i].outcome == SIM_RAN_OK, "%s", wr[i].fault.message);
      for (unsigned l = 0; l < 64; l++) {
        ck_assert_uint_eq(wgot[i][l], 2);
        ck_assert_msg(wgot[i][64 + 64 + l] == 2, "lane %u of the second wave read %u", l,
                      wgot[i][128 + l]);
      }
      sim_result_free(&wr[i]);
    }
  }

  /* an atom whose old value is read only as another instruction's address (operand 0 of a
     store): not held, its old values written (the second warp's, after the first's adds) */
  {
    static const char ak[] =
      HDR
      ".visible .entry ad(.param .u64 out)\n{\n"
      "  .shared .align 4 .b8 sm[256];\n"
      "  .reg .pred %p<2>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
      "  mov.u32 %r1, %tid.x;\n  ld.param.u64 %rd1, [out];\n  and.b32 %r2, %r1, 31;\n"
      "  mul.wide.u32 %rd2, %r2, 4;\n  add.s64 %rd3, %rd1, %rd2;\n  shl.b32 %r5, %r2, 3;\n"
      "  setp.lt.u32 %p1, %r1, 32;\n  @%p1 st.global.u32 [%rd3], %r5;\n  bar.sync 0;\n"
      "  atom.global.add.u32 %r4, [%rd3], 4;\n  st.shared.u32 [%r4], %r1;\n  bar.sync 0;\n"
      "  mul.wide.u32 %rd4, %r1, 4;\n  mov.u32 %r6, sm;\n  shl.b32 %r7, %r1, 2;\n"
      "  add.u32 %r6, %r6, %r7;\n  ld.shared.u32 %r3, [%r6];\n  add.s64 %rd5, %rd1, %rd4;\n"
      "  st.global.u32 [%rd5+256], %r3;\n  ret;\n}\n";
    struct sim_result ar[2];
    uint32_t agot[2][128];
    struct sim_launch ac = {.grid = {1, 1, 1}, .block = {64, 1, 1}, .workers = 1};
    run_switched(ak, "ad", &ac, &sim_exec_shortcuts, ar, agot[0], agot[1], sizeof agot[0]);
    for (int i = 0; i < 2; i++) {
      ck_assert_msg(ar[i].outcome == SIM_RAN_OK, "%s", ar[i].fault.message);
      for (unsigned t = 0; t < 64; t++)        /* word t: thread 32 (t % 2) + t / 2's */
        ck_assert_msg(agot[i][64 + t] == 32 * (t % 2) + t / 2, "word %u: %u", t,
                      agot[i][64 + t]);
      sim_result_free(&ar[i]);
    }
  }

  /* one block publishes what it added to a module variable with a flag in another allocation
     (behind a fence, a volatile store, a release store), then waits for the other to answer,
     with relaxed loads (which send nothing); the other, on the second worker, reads the
     variable once it sees the flag: it must see the add */
  static const char *const publish[4] = {
    "membar.gl;\n  st.global.u32", "st.volatile.global.u32", "st.release.gpu.global.u32",
    "fence.acq_rel.gpu;\n  st.relaxed.gpu.global.u32"};
  for (int pb = 0; pb < 4; pb++) {
    char pk[2048];
    snprintf(pk, sizeof pk,
             HDR
             ".global .align 4 .u32 data;\n"
             ".visible .entry pb(.param .u64 out)\n{\n"
             "  .reg .pred %%p<3>;\n  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<6>;\n"
             "  mov.u32 %%r1, %%tid.x;\n  mov.u32 %%r3, %%ctaid.x;\n  ld.param.u64 %%rd1, [out];\n"
             "  mov.u64 %%rd2, data;\n  cvta.to.global.u64 %%rd2, %%rd2;\n"
             "  mov.u32 %%r4, 1;\n  setp.ne.u32 %%p1, %%r1, 0;\n  @%%p1 bra END;\n"
             "  setp.ne.u32 %%p1, %%r3, 0;\n  @%%p1 bra READER;\n"
             "  red.global.add.u32 [%%rd2], 5;\n  %s [%%rd1], %%r4;\n"
             "ACK:\n  ld.relaxed.gpu.global.u32 %%r5, [%%rd1+4];\n"
             "  setp.eq.u32 %%p2, %%r5, 0;\n  @%%p2 bra ACK;\n  bra END;\n"
             "READER:\n  ld.volatile.global.u32 %%r5, [%%rd1];\n"
             "  setp.eq.u32 %%p2, %%r5, 0;\n  @%%p2 bra READER;\n"
             "  ld.global.u32 %%r6, [%%rd2];\n  st.global.u32 [%%rd1+8], %%r6;\n"
             "  st.volatile.global.u32 [%%rd1+4], %%r4;\n"
             "END:\n  ret;\n}\n", publish[pb]);
    for (int rep = 0; rep < 2; rep++) {
      struct sim_result pr[2];
      uint32_t pgot[2][4];
      struct sim_launch pc = {.grid = {2, 1, 1}, .block = {32, 1, 1}, .workers = 2};
      run_switched(pk, "pb", &pc, &sim_exec_shortcuts, pr, pgot[0], pgot[1], sizeof pgot[0]);
      for (int i = 0; i < 2; i++) {
        ck_assert_msg(pr[i].outcome == SIM_RAN_OK, "%s: %s", publish[pb], pr[i].fault.message);
        ck_assert_msg(pgot[i][2] == 5, "%s: the reader saw %u", publish[pb], pgot[i][2]);
        sim_result_free(&pr[i]);
      }
    }
  }

  /* blocks that wait until every block has added (a grid barrier of a first attempt): the
     add held, then a volatile spin (which sends it) or a relaxed one (the block parks, its
     turn ends, the add goes) */
  for (int vol = 0; vol < 2; vol++) {
    char sk[1024];
    snprintf(sk, sizeof sk,
             HDR
             ".visible .entry sp(.param .u64 out)\n{\n"
             "  .reg .pred %%p<3>;\n  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<6>;\n"
             "  mov.u32 %%r1, %%tid.x;\n  ld.param.u64 %%rd1, [out];\n"
             "  setp.ne.u32 %%p1, %%r1, 0;\n  @%%p1 bra W;\n"
             "  atom.global.add.u32 %%r4, [%%rd1], 1;\n"
             "SPIN:\n  ld.%s.global.u32 %%r2, [%%rd1];\n"
             "  setp.lt.u32 %%p2, %%r2, 6;\n  @%%p2 bra SPIN;\n"
             "W:\n  bar.sync 0;\n  ret;\n}\n", vol ? "volatile" : "relaxed.gpu");
    for (uint32_t wk = 1; wk <= 2; wk++) {
      struct sim_result sr[2];
      uint32_t sgot[2][4];
      struct sim_launch sc = {.grid = {6, 1, 1}, .block = {64, 1, 1}, .workers = wk};
      run_switched(sk, "sp", &sc, &sim_exec_shortcuts, sr, sgot[0], sgot[1], sizeof sgot[0]);
      for (int i = 0; i < 2; i++) {
        ck_assert_msg(sr[i].outcome == SIM_RAN_OK, "%s spin, %u workers: %s",
                      vol ? "volatile" : "relaxed", wk, sr[i].fault.message);
        ck_assert_uint_eq(sgot[i][0], 6);
        sim_result_free(&sr[i]);
      }
    }
  }
}
END_TEST

/* sim_race_global_stores's record of byte and short stores whose words the filters say are
   new (stores_subword: the last changing lane of each word) against gword_one lane by lane
   (sim_race_lane_shortcuts 0): random programs of three warps, six steps, each a store of bytes
   or shorts (st.global.u8, .u16) at the thread's own element, its neighbour's, the same
   element for all, a stride of three, the odd elements, backwards, or eight elements four
   times a warp, at an offset of 0 to 3 elements, of values that change the bytes or not; a word store over them; a read of another
   thread's byte, short or word; a __syncwarp() or a barrier; and first, bytes stored over
   words the warp's coalesced store held in a line. Each must report the same fault, to the
   message, and leave the same values and counters. */
START_TEST(test_global_subword_stores_match_general_path)
{
  static const char *const at[7] = {
    "  mov.u32 %r2, %r1;\n",                                 /* its own */
    "  xor.b32 %r2, %r1, 1;\n",                              /* a neighbour's */
    "  mov.u32 %r2, 5;\n",                                   /* one for all */
    "  mul.lo.u32 %r2, %r1, 3;\n",                           /* a stride of three */
    "  mul.lo.u32 %r2, %r1, 2;\n  add.u32 %r2, %r2, 1;\n",   /* the odd ones */
    "  sub.u32 %r2, 95, %r1;\n",                             /* backwards */
    "  and.b32 %r2, %r1, 7;\n",                              /* eight, four times a warp */
  };
  uint64_t rng = 0x3c6ef372fe94f82bull;
#define SB_NEXT() rng_next(&rng)
  unsigned races = 0, clean = 0;
  static char k[8192];
  for (int trial = 0; trial < 200; trial++) {
    size_t n = (size_t)snprintf(k, sizeof k,
      HDR
      ".visible .entry sb(.param .u64 out)\n{\n"
      "  .reg .b16 %%h<4>;\n  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<10>;\n"
      "  mov.u32 %%r1, %%tid.x;\n  ld.param.u64 %%rd1, [out];\n");
    for (int step = 0; step < 6; step++) {
      const uint32_t kind = SB_NEXT() % 10, sh = SB_NEXT() % 7, off = SB_NEXT() % 4;
      const uint32_t v = SB_NEXT() % 3, size = SB_NEXT() % 2 ? 2 : 1;
      const char *val = v == 0 ? "%r1" : v == 1 ? "0" : "7";
      if (kind < 5) {
        const char *ty = size == 1 ? "u8" : "u16";
        n += (size_t)snprintf(k + n, sizeof k - n,
                              "%s  mul.wide.u32 %%rd2, %%r2, %u;\n  add.s64 %%rd3, %%rd1, %%rd2;\n"
                              "  mov.u32 %%r4, %s;\n  cvt.u16.u32 %%h1, %%r4;\n  .loc 1 %d 3\n"
                              "  st.global.%s [%%rd3+%u], %%h1;\n",
                              at[sh == 4 && size == 1 ? 0 : sh], size, val, 10 + step, ty,
                              off * size);
      } else if (kind < 6) {
        n += (size_t)snprintf(k + n, sizeof k - n,
                              "  mul.wide.u32 %%rd2, %%r1, 4;\n  add.s64 %%rd3, %%rd1, %%rd2;\n"
                              "  .loc 1 %d 3\n  st.global.u32 [%%rd3+%u], %s;\n", 10 + step,
                              4 * off, val);
      } else if (kind < 8) {
        const char *ty = kind == 6 ? (size == 1 ? "u8" : "u16") : "u32";
        const unsigned sz = kind == 6 ? size : 4;
        n += (size_t)snprintf(k + n, sizeof k - n,
                              "  xor.b32 %%r2, %%r1, %u;\n  mul.wide.u32 %%rd6, %%r2, %u;\n"
                              "  add.s64 %%rd7, %%rd1, %%rd6;\n  .loc 1 %d 3\n"
                              "  ld.global.%s %%r3, [%%rd7];\n", SB_NEXT() % 64, sz, 10 + step,
                              ty);
      } else {
        n += (size_t)snprintf(k + n, sizeof k - n, "  %s\n",
                              kind == 8 ? "bar.warp.sync -1;" : "bar.sync 0;");
      }
    }
    snprintf(k + n, sizeof k - n, "  ret;\n}\n.file 1 \"/lab/sb.cu\"\n");
    if (trial == 0)         /* bytes over words a coalesced store of the warp's just wrote
                               (held in a line): a race, reported at the first such lane */
      snprintf(k, sizeof k,
               HDR ".visible .entry sb(.param .u64 out)\n{\n"
               "  .reg .b16 %%h<4>;\n  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<10>;\n"
               "  mov.u32 %%r1, %%tid.x;\n  ld.param.u64 %%rd1, [out];\n"
               "  mul.wide.u32 %%rd2, %%r1, 4;\n  add.s64 %%rd3, %%rd1, %%rd2;\n"
               "  add.u32 %%r3, %%r1, 9;\n  .loc 1 10 3\n  st.global.u32 [%%rd3], %%r3;\n"
               "  cvt.u64.u32 %%rd4, %%r1;\n  add.s64 %%rd5, %%rd1, %%rd4;\n"
               "  add.u32 %%r2, %%r1, 1;\n  cvt.u16.u32 %%h1, %%r2;\n"
               "  .loc 1 11 3\n  st.global.u8 [%%rd5+32], %%h1;\n"
               "  ret;\n}\n.file 1 \"/lab/sb.cu\"\n");
    struct sim_result r[2];
    uint32_t got[2][512];
    struct sim_launch c = {.grid = {1, 1, 1}, .block = {96, 1, 1}, .sched = SIM_SCHED_ITS,
                           .workers = 1};
    run_switched(k, "sb", &c, &sim_race_lane_shortcuts, r, got[0], got[1], sizeof got[0]);
    same_race_runs(r, got[0], got[1], sizeof got[0], &races, &clean);
  }
#undef SB_NEXT
  ck_assert_uint_gt(races, 20);
  ck_assert_uint_gt(clean, 5);
}
END_TEST

/* stores_subword_seq's lines of a full warp's coalesced byte or short stores (a word's
   record its last lane's, in a line of its chunk) against gword_one lane by lane
   (sim_race_lane_shortcuts 0): random programs of three warps, six steps, each a store of
   bytes or shorts at the thread's element plus 0 to 3, by every warp or by the first and
   the last (the warps' runs sharing chunks, some across two; two blocks, the second's
   stores finding the allocation their instruction last touched, so taking the warp-wide
   paths; a third of them at another offset or size), of values that change every byte, some
   or none; a store at a neighbour's element (its words into g); a coalesced word store over
   them; a read of a byte, short or word of any thread's, or of the next warp's elements of
   the same lane less 0 to 2; a __syncwarp() or a barrier. Each must report the same fault,
   to the message, and leave the same values and counters. */
START_TEST(test_global_subword_lines_match_general_path)
{
  static const char *const value[11] = {
    "mov.u32 %r4, %r1;", "mov.u32 %r4, 0;", "mov.u32 %r4, 7;", "and.b32 %r4, %r1, 1;",
    "and.b32 %r4, %r1, 2;", "shr.u32 %r4, %r1, 2;", "add.u32 %r4, %r1, %r8;",
    "shl.b32 %r4, %r8, 8;\n  add.u32 %r4, %r4, %r1;",      /* a short's high byte new */
    "xor.b32 %r4, %r1, 128;",                 /* over %r1's, each byte's top bit alone new */
    /* 0 (the bytes of a fresh word, kept) from each fourth or second lane, the others new:
       words changed by lanes before their last */
    "and.b32 %r4, %r1, 3;\n  setp.eq.u32 %p1, %r4, 3;\n  selp.b32 %r4, 0, %r8, %p1;",
    "and.b32 %r4, %r1, 1;\n  setp.eq.u32 %p1, %r4, 1;\n  selp.b32 %r4, 0, %r8, %p1;"};
  uint64_t rng = 0x9b05688c2b3e6c1full;
#define SL_NEXT() rng_next(&rng)
  unsigned races = 0, clean = 0;
  static char k[8192];
  for (int trial = 0; trial < 300; trial++) {
    size_t n = (size_t)snprintf(k, sizeof k,
      HDR
      ".visible .entry sl(.param .u64 out)\n{\n"
      "  .reg .pred %%p<3>;\n  .reg .b16 %%h<4>;\n  .reg .b32 %%r<10>;\n"
      "  .reg .b64 %%rd<10>;\n"
      "  mov.u32 %%r1, %%tid.x;\n  ld.param.u64 %%rd1, [out];\n  mov.u32 %%r8, 1;\n"
      "  mov.u32 %%r7, %%ctaid.x;\n  mul.wide.u32 %%rd9, %%r7, 640;\n"
      "  add.s64 %%rd1, %%rd1, %%rd9;\n  shr.u32 %%r5, %%r1, 5;\n"
      "  setp.ne.u32 %%p2, %%r5, 1;\n");
    /* most stores of a trial at one offset and size (others race at once) */
    const uint32_t toff = SL_NEXT() % 4, tsize = SL_NEXT() % 2 ? 2 : 1;
    for (int step = 0; step < 6; step++) {
      const uint32_t kind = SL_NEXT() % 16, odd = SL_NEXT() % 3 == 0;
      const uint32_t size = odd ? (SL_NEXT() % 2 ? 2 : 1) : tsize;
      /* (an odd one half the time where its first lane meets the last lane's bytes of a
         whole word's store) */
      const uint32_t off = !odd ? toff : SL_NEXT() % 2 ? SL_NEXT() % 4 : size == 1 ? 3 : 1;
      const char *val = value[SL_NEXT() % 11];
      const char *ty = size == 1 ? "u8" : "u16";
      if (kind < 8) {
        n += (size_t)snprintf(k + n, sizeof k - n,
                              "  %s\n  add.u32 %%r8, %%r8, 3;\n  cvt.u16.u32 %%h1, %%r4;\n"
                              "  mul.wide.u32 %%rd2, %%r1, %u;\n  add.s64 %%rd3, %%rd1, %%rd2;\n"
                              "  .loc 1 %d 3\n  %sst.global.%s [%%rd3+%u], %%h1;\n", val, size,
                              10 + step, kind < 2 ? "@%p2 " : "", ty, off * size);
      } else if (kind < 9) {
        n += (size_t)snprintf(k + n, sizeof k - n,
                              "  %s\n  cvt.u16.u32 %%h1, %%r4;\n  xor.b32 %%r2, %%r1, 1;\n"
                              "  mul.wide.u32 %%rd2, %%r2, %u;\n  add.s64 %%rd3, %%rd1, %%rd2;\n"
                              "  .loc 1 %d 3\n  st.global.%s [%%rd3+%u], %%h1;\n", val, size,
                              10 + step, ty, off * size);
      } else if (kind < 10) {
        n += (size_t)snprintf(k + n, sizeof k - n,
                              "  %s\n  mul.wide.u32 %%rd2, %%r1, 4;\n"
                              "  add.s64 %%rd3, %%rd1, %%rd2;\n"
                              "  .loc 1 %d 3\n  st.global.u32 [%%rd3+%u], %%r4;\n", val,
                              10 + step, 4 * off);
      } else if (kind < 11) {
        const unsigned sz = SL_NEXT() % 2 ? size : 4;
        n += (size_t)snprintf(k + n, sizeof k - n,
                              "  xor.b32 %%r2, %%r1, %u;\n  mul.wide.u32 %%rd6, %%r2, %u;\n"
                              "  add.s64 %%rd7, %%rd1, %%rd6;\n  .loc 1 %d 3\n"
                              "  ld.global.%s %%r3, [%%rd7];\n",
                              SL_NEXT() % 2 ? 0 : SL_NEXT() % 128, sz, 10 + step,
                              sz == 4 ? "u32" : ty);
      } else if (kind < 12) {
        /* the next warp's element of the same lane, less 0 to 2 (the last lanes' bytes of
           a warp's last word, and the first of the next's) */
        n += (size_t)snprintf(k + n, sizeof k - n,
                              "  add.u32 %%r2, %%r1, %u;\n  rem.u32 %%r2, %%r2, 96;\n"
                              "  mul.wide.u32 %%rd6, %%r2, %u;\n  add.s64 %%rd7, %%rd1, %%rd6;\n"
                              "  .loc 1 %d 3\n  ld.global.%s %%r3, [%%rd7+%u];\n",
                              30 + SL_NEXT() % 3, size, 10 + step, ty, toff * size);
      } else {
        n += (size_t)snprintf(k + n, sizeof k - n, "  %s\n",
                              kind == 12 ? "bar.warp.sync -1;" : "bar.sync 0;");
      }
    }
    snprintf(k + n, sizeof k - n, "  ret;\n}\n.file 1 \"/lab/sl.cu\"\n");
    struct sim_result r[2];
    uint32_t got[2][320];
    struct sim_launch c = {.grid = {2, 1, 1}, .block = {96, 1, 1}, .sched = SIM_SCHED_ITS,
                           .workers = 1};
    run_switched(k, "sl", &c, &sim_race_lane_shortcuts, r, got[0], got[1], sizeof got[0]);
    same_race_runs(r, got[0], got[1], sizeof got[0], &races, &clean);
  }
#undef SL_NEXT
  ck_assert_uint_gt(races, 100);
  ck_assert_uint_gt(clean, 30);
}
END_TEST

/* stores_subword_seq's records in the cases a line must get right, each in the second trip
   of a loop over a fresh 1 KiB (the first trip's loads and stores take the lane-by-lane path
   at first, which puts their words into g, so the second finds their allocation and fresh
   chunks; the stores after the first go 512 bytes away in the first trip, the loads 768,
   apart):
   the race (or none) each reports, against the lane-by-lane path (sim_race_lane_shortcuts 0)
   and as written here. */
START_TEST(test_global_subword_lines_cases)
{
  static const struct {
    const char *what, *body;
    int race;                  /* a race expected, and its other thread */
    unsigned other;
  } cs[] = {
    /* warps 0 and 2 store bytes one past their threads; warp 2 reads the byte warp 0's last
       lane wrote, in the word warp 1 would have shared: its record is lane 31's */
    {"the last lane of a warp's last word",
     "  setp.ne.u32 %p1, %r5, 1;\n  @%p1 st.global.u8 [%rd4+1], %h1;\n"
     "  setp.eq.u32 %p2, %r5, 2;\n  @%p2 ld.global.u8 %r7, [%rd6+32];\n",
     1, 31},
    /* warp 0 stores bytes, each fourth lane the 0 already there (a word's last lane changes
       nothing); warp 1 reads the byte of the last lane of word 0 that did change it, or the
       last lane's own */
    {"a word whose last lane changed nothing, its last changer's byte",
     "  and.b32 %r6, %r1, 3;\n  setp.eq.u32 %p1, %r6, 3;\n  selp.b16 %h1, 0, %h1, %p1;\n"
     "  setp.eq.u32 %p1, %r5, 0;\n  @%p1 st.global.u8 [%rd4], %h1;\n"
     "  setp.eq.u32 %p2, %r5, 1;\n  @%p2 ld.global.u8 %r7, [%rd6+2];\n",
     1, 2},
    {"a word whose last lane changed nothing, that lane's byte",
     "  and.b32 %r6, %r1, 3;\n  setp.eq.u32 %p1, %r6, 3;\n  selp.b16 %h1, 0, %h1, %p1;\n"
     "  setp.eq.u32 %p1, %r5, 0;\n  @%p1 st.global.u8 [%rd4], %h1;\n"
     "  setp.eq.u32 %p2, %r5, 1;\n  @%p2 ld.global.u8 %r7, [%rd6+3];\n",
     0, 0},
    /* warp 0 stores bytes, then (second trip only) bytes three on: its lane 0 writes the byte
       lane 3 wrote, with no __syncwarp() between */
    {"the same warp's bytes at another offset",
     "  setp.eq.u32 %p1, %r5, 0;\n  @%p1 st.global.u8 [%rd4], %h1;\n"
     "  @%p1 st.global.u8 [%rd7+3], %h1;\n",
     1, 3},
    /* the same, a __syncwarp() between: no race */
    {"the same warp's bytes at another offset, after __syncwarp()",
     "  setp.eq.u32 %p1, %r5, 0;\n  @%p1 st.global.u8 [%rd4], %h1;\n  bar.warp.sync -1;\n"
     "  @%p1 st.global.u8 [%rd7+3], %h1;\n",
     0, 0},
    /* warp 0's shorts, then warp 1's over the same words: other warps' lines of this epoch */
    {"another warp's shorts over them",
     "  setp.eq.u32 %p1, %r5, 0;\n  @%p1 st.global.u16 [%rd5], %h1;\n"
     "  setp.eq.u32 %p2, %r5, 1;\n  @%p2 st.global.u16 [%rd8-62], %h1;\n",
     1, 1},
    /* warp 0 stores bytes; warp 1 reads a byte of word 1: the block's span must hold it */
    {"a read past the first word",
     "  setp.eq.u32 %p1, %r5, 0;\n  @%p1 st.global.u8 [%rd4], %h1;\n"
     "  setp.eq.u32 %p2, %r5, 1;\n  @%p2 ld.global.u8 %r7, [%rd6+7];\n",
     1, 7},
    /* warp 0 stores bytes, then again after a barrier (its words the new epoch's): warp 1's
       read is a race with the second */
    {"the same layout in a later epoch",
     "  setp.eq.u32 %p1, %r5, 0;\n  @%p1 st.global.u8 [%rd4], %h1;\n  bar.sync 0;\n"
     "  add.u16 %h1, %h1, 7;\n  @%p1 st.global.u8 [%rd4], %h1;\n"
     "  setp.eq.u32 %p2, %r5, 1;\n  @%p2 ld.global.u8 %r7, [%rd6+11];\n",
     1, 11},
    /* warp 0 stores shorts, then (after __syncwarp()) again with only their high bytes new,
       then reads a neighbour's: the second store's records */
    {"shorts whose high bytes alone change",
     "  setp.eq.u32 %p1, %r5, 0;\n  @%p1 st.global.u16 [%rd5], %h1;\n  bar.warp.sync -1;\n"
     "  add.u16 %h2, %h1, 256;\n  @%p1 st.global.u16 [%rd8], %h2;\n"
     "  @%p1 ld.global.u16 %h3, [%rd6+2];\n",
     1, 1},
    /* the same of bytes whose top bits alone change */
    {"bytes whose top bits alone change",
     "  setp.eq.u32 %p1, %r5, 0;\n  @%p1 st.global.u8 [%rd4], %h1;\n  bar.warp.sync -1;\n"
     "  xor.b16 %h2, %h1, 128;\n  @%p1 st.global.u8 [%rd7], %h2;\n"
     "  @%p1 ld.global.u8 %h3, [%rd6+3];\n",
     1, 3},
    /* warp 1 stores bytes over warp 0's in the same layout, changing only each word's last
       byte: its lane 3 meets warp 0's lane 3 there */
    {"another warp's bytes in the same layout",
     "  setp.eq.u32 %p1, %r5, 0;\n  @%p1 st.global.u8 [%rd4], %h1;\n"
     "  and.b32 %r6, %r1, 3;\n  setp.eq.u32 %p2, %r6, 3;\n  add.u16 %h2, %h1, -32;\n"
     "  selp.b16 %h2, %h1, %h2, %p2;\n  setp.eq.u32 %p2, %r5, 1;\n"
     "  @%p2 st.global.u8 [%rd7-32], %h2;\n",
     1, 3},
    /* warp 0 stores bytes twice at one instruction (a loop in the loop): the same layout */
    {"the same store again",
     "  setp.eq.u32 %p1, %r5, 0;\n  mov.u32 %r8, 0;\nAGAIN:\n  add.u16 %h1, %h1, 1;\n"
     "  @%p1 st.global.u8 [%rd4], %h1;\n  add.u32 %r8, %r8, 1;\n  setp.lt.u32 %p2, %r8, 2;\n"
     "  @%p2 bra AGAIN;\n"
     "  setp.eq.u32 %p2, %r5, 1;\n  @%p2 ld.global.u8 %r7, [%rd6+11];\n",
     1, 11},
  };
  static char k[4096];
  for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
    snprintf(k, sizeof k,
             HDR ".visible .entry sc(.param .u64 out)\n{\n"
             "  .reg .pred %%p<4>;\n  .reg .b16 %%h<4>;\n  .reg .b32 %%r<12>;\n"
             "  .reg .b64 %%rd<12>;\n"
             "  mov.u32 %%r1, %%tid.x;\n  ld.param.u64 %%rd1, [out];\n  shr.u32 %%r5, %%r1, 5;\n"
             "  mov.u32 %%r9, 0;\nLOOP:\n  setp.eq.u32 %%p3, %%r9, 1;\n"
             "  mul.wide.u32 %%rd9, %%r9, 1024;\n  add.s64 %%rd2, %%rd1, %%rd9;\n"
             "  cvt.u64.u32 %%rd3, %%r1;\n  add.s64 %%rd4, %%rd2, %%rd3;\n"
             "  add.s64 %%rd5, %%rd4, %%rd3;\n  selp.b64 %%rd10, 0, 512, %%p3;\n"
             "  selp.b64 %%rd11, 0, 768, %%p3;\n  add.s64 %%rd6, %%rd2, %%rd11;\n"
             "  add.s64 %%rd7, %%rd4, %%rd10;\n  add.s64 %%rd8, %%rd5, %%rd10;\n"
             "  add.u32 %%r4, %%r1, 1;\n  cvt.u16.u32 %%h1, %%r4;\n"
             "%s"
             "  add.u32 %%r9, %%r9, 1;\n  setp.lt.u32 %%p1, %%r9, 2;\n  @%%p1 bra LOOP;\n"
             "  ret;\n}\n", cs[i].body);
    struct sim_result r[2];
    uint32_t got[2][512];
    struct sim_launch c = {.grid = {1, 1, 1}, .block = {96, 1, 1}, .workers = 1};
    unsigned races = 0, clean = 0;
    run_switched(k, "sc", &c, &sim_race_lane_shortcuts, r, got[0], got[1], sizeof got[0]);
    ck_assert_msg(r[1].fault.kind == (cs[i].race ? SIM_FK_RACE : SIM_FK_NONE) &&
                      (!cs[i].race || r[1].fault.other_thread[0] == cs[i].other),
                  "%s: %s", cs[i].what, r[1].fault.message);
    same_race_runs(r, got[0], got[1], sizeof got[0], &races, &clean);
  }
}
END_TEST

/* A warp's coalesced byte stores once the table of lines is full (1,000 chunks, 768 lines a
   block): every word changed goes to the table of words as its last lane's, whether or not
   the warp took the loop that finds each word's last changing lane (every lane changing its
   byte, as here, each store's bytes new and none 0, skips it). The warp then reads the last lane's byte of a word of the last chunk, with
   no __syncwarp() between: a race with thread 3. (The lane-by-lane records hold fewer words,
   3,072, and miss it: only the values are compared with them.) */
START_TEST(test_global_subword_lines_full)
{
  static const char k[] =
    HDR ".visible .entry lf(.param .u64 out)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b16 %h<4>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
    "  mov.u32 %r1, %tid.x;\n  ld.param.u64 %rd1, [out];\n"
    "  cvt.u64.u32 %rd2, %r1;\n  add.s64 %rd3, %rd1, %rd2;\n  mov.u32 %r2, 0;\n"
    "LOOP:\n  add.u32 %r3, %r1, %r2;\n  and.b32 %r3, %r3, 127;\n  add.u32 %r3, %r3, 1;\n"
    "  cvt.u16.u32 %h1, %r3;\n"
    "  st.global.u8 [%rd3], %h1;\n  add.s64 %rd3, %rd3, 128;\n  add.u32 %r2, %r2, 1;\n"
    "  setp.lt.u32 %p2, %r2, 1000;\n  @%p2 bra LOOP;\n"
    "  ld.global.u8 %h2, [%rd1+127875];\n"
    "  ret;\n}\n";
  struct sim_result r[2];
  uint32_t got[2][32768];
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {32, 1, 1}, .workers = 1};
  run_switched(k, "lf", &c, &sim_race_lane_shortcuts, r, got[0], got[1], sizeof got[0]);
  ck_assert_msg(r[1].fault.kind == SIM_FK_RACE && r[1].fault.other_thread[0] == 3, "%s",
                r[1].fault.message);
  ck_assert_mem_eq(got[0], got[1], sizeof got[0]);
  sim_result_free(&r[0]);
  sim_result_free(&r[1]);
}
END_TEST

/* The statistics of a warp's byte and short loads and stores that take the whole-warp paths
   (the second trip of a loop: the first found the allocation), counted in closed form where
   the lanes are one coalesced run and lane by lane elsewhere: a run of bytes (one sector, one
   line, 32 bytes), of shorts (two sectors), and lanes 0 and 31 at bytes 0 and 31 with the
   rest 128 bytes apart (31 sectors, 31 lines, 32 bytes). Each trip adds the same. */
START_TEST(test_global_subword_stats)
{
  static const struct {
    const char *what, *addr, *ty;
    uint64_t sectors, lines, bytes;
  } cs[] = {
    {"bytes in a run", "  cvt.u64.u32 %rd3, %r1;\n", "u8", 1, 1, 32},
    {"shorts in a run", "  mul.wide.u32 %rd3, %r1, 2;\n", "u16", 2, 1, 64},
    {"bytes at both ends, the rest apart",
     "  mul.wide.u32 %rd3, %r1, 128;\n  setp.eq.u32 %p1, %r1, 31;\n"
     "  selp.b64 %rd3, 31, %rd3, %p1;\n", "u8", 31, 31, 32},
  };
  for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
    char k[2048];
    snprintf(k, sizeof k,
             HDR ".visible .entry st(.param .u64 out)\n{\n"
             "  .reg .pred %%p<4>;\n  .reg .b16 %%h<4>;\n  .reg .b32 %%r<8>;\n"
             "  .reg .b64 %%rd<8>;\n"
             "  mov.u32 %%r1, %%tid.x;\n  ld.param.u64 %%rd1, [out];\n  mov.u32 %%r2, 0;\n"
             "%s  add.s64 %%rd4, %%rd1, %%rd3;\nLOOP:\n"
             "  ld.global.%s %%h1, [%%rd4];\n  add.u16 %%h1, %%h1, 1;\n"
             "  st.global.%s [%%rd4+8192], %%h1;\n"
             "  add.u32 %%r2, %%r2, 1;\n  setp.lt.u32 %%p2, %%r2, 2;\n  @%%p2 bra LOOP;\n"
             "  ret;\n}\n", cs[i].addr, cs[i].ty, cs[i].ty);
    struct fx f;
    load(&f, k);
    uint64_t out = buffer(&f, 16384, "out");
    struct sim_launch c = {.grid = {1, 1, 1}, .block = {32, 1, 1}, .workers = 1};
    ck_assert_int_eq(sim_run(f.d, &f.m, "st", &out, 8, &c, &f.r, f.err, sizeof f.err), SIM_OK);
    ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s: %s", cs[i].what, f.r.fault.message);
    unsigned seen = 0;
    for (uint32_t j = 0; j < f.r.nstats; j++) {
      const struct sim_inst_stats *st = &f.r.stats[j];
      if (!st->g_req)
        continue;
      seen++;
      ck_assert_msg(st->g_req == 2 && st->g_sectors == 2 * cs[i].sectors &&
                        st->g_lines == 2 * cs[i].lines && st->g_bytes == 2 * cs[i].bytes,
                    "%s, instruction %u: %llu requests, %llu sectors, %llu lines, %llu bytes",
                    cs[i].what, j, (unsigned long long)st->g_req,
                    (unsigned long long)st->g_sectors, (unsigned long long)st->g_lines,
                    (unsigned long long)st->g_bytes);
    }
    ck_assert_uint_eq(seen, 2);
    done(&f);
  }
}
END_TEST

/* sim_exec's vector loads of small elements from global memory, the lanes all in the cached
   allocation (one check for the warp, then element by element, or a coalesced warp's
   vectors split), against the lane-by-lane path (sim_exec_shortcuts 0): random programs of
   three warps loading v2 and v4 of u8, s8, u16, s16, u32 and s32 (from words every thread
   first filled with a hash of its number, every bit in play) at the thread's own vector, a
   neighbour's, one for all, eight for all (a run of eight four times), past the end of the
   buffer (a fault) or misaligned (a fault), some lanes only (a branch), stores of words by
   other threads before them (races), barriers; into 16- or 32-bit registers; every element
   loaded summed in. Each must report the same fault, to the message, and leave the same
   values and counters. */
START_TEST(test_global_vector_loads_match_general_path)
{
  static const char *const ty[6] = {"u8", "s8", "u16", "s16", "u32", "s32"};
  static const unsigned tsz[6] = {1, 1, 2, 2, 4, 4};
  uint64_t rng = 0x1F83D9ABFB41BD6Bull;
#define VL_NEXT() rng_next(&rng)
  unsigned faults = 0, clean = 0;
  static char k[8192];
  for (int trial = 0; trial < 200; trial++) {
    size_t n = (size_t)snprintf(k, sizeof k,
      HDR
      ".visible .entry vl(.param .u64 out)\n{\n"
      "  .reg .pred %%p<4>;\n  .reg .b16 %%h<8>;\n  .reg .b32 %%r<16>;\n  .reg .b64 %%rd<10>;\n"
      "  mov.u32 %%r1, %%tid.x;\n  ld.param.u64 %%rd1, [out];\n  mov.u32 %%r9, 0;\n"
      "  mul.lo.u32 %%r10, %%r1, -1640531535;\n  xor.b32 %%r11, %%r10, 1540483477;\n"
      "  mul.wide.u32 %%rd4, %%r1, 16;\n  add.s64 %%rd5, %%rd1, %%rd4;\n"
      "  st.global.v4.u32 [%%rd5], {%%r10, %%r11, %%r11, %%r10};\n  bar.sync 0;\n");
    for (int step = 0; step < 5; step++) {
      const uint32_t kind = VL_NEXT() % 8, ti = VL_NEXT() % 6, vn = VL_NEXT() % 2 ? 4 : 2;
      const uint32_t at = VL_NEXT() % 11, vb = tsz[ti] * vn;
      if (kind < 5) {
        const char *addr = at < 5 ? "  mov.u32 %r2, %r1;\n" : at < 7 ? "  xor.b32 %r2, %r1, 1;\n"
                           : at < 8 ? "  mov.u32 %r2, 3;\n" : at == 10 ? "  and.b32 %r2, %r1, 7;\n"
                           : "  add.u32 %r2, %r1, 4000;\n";
        const int mis = at == 9 && VL_NEXT() % 2, part = VL_NEXT() % 4 == 0;
        const int wide = tsz[ti] == 4 || VL_NEXT() % 3 == 0;  /* (bytes, shorts into 32 bits:
                                                                 their extension seen) */
        n += (size_t)snprintf(k + n, sizeof k - n,
                              "%s  mul.wide.u32 %%rd2, %%r2, %u;\n  add.s64 %%rd3, %%rd1, %%rd2;\n"
                              "  setp.lt.u32 %%p1, %%r1, %u;\n  .loc 1 %d 3\n"
                              "  %sld.global.v%u.%s {%s}, [%%rd3+%u];\n",
                              addr, vb, part ? 40u : 1000u, 10 + step, part ? "@%p1 " : "", vn,
                              ty[ti], wide ? (vn == 4 ? "%r3, %r4, %r5, %r6" : "%r3, %r4")
                                           : (vn == 4 ? "%h1, %h2, %h3, %h4" : "%h1, %h2"),
                              mis ? tsz[ti] : 0);
        n += (size_t)snprintf(k + n, sizeof k - n,
                              wide ? "  add.u32 %%r9, %%r9, %%r3;\n  shl.b32 %%r9, %%r9, 1;\n"
                                     "  add.u32 %%r9, %%r9, %%r4;\n"
                                   : "  cvt.u32.u16 %%r7, %%h2;\n  add.u32 %%r9, %%r9, %%r7;\n"
                                     "  shl.b32 %%r9, %%r9, 1;\n"
                                     "  cvt.s32.s16 %%r7, %%h1;\n  add.u32 %%r9, %%r9, %%r7;\n");
        if (vn == 4)                          /* the third and fourth elements too */
          n += (size_t)snprintf(k + n, sizeof k - n,
                                wide ? "  shl.b32 %%r9, %%r9, 1;\n  add.u32 %%r9, %%r9, %%r5;\n"
                                       "  xor.b32 %%r9, %%r9, %%r6;\n"
                                     : "  cvt.s32.s16 %%r7, %%h3;\n  shl.b32 %%r9, %%r9, 1;\n"
                                       "  add.u32 %%r9, %%r9, %%r7;\n"
                                       "  cvt.u32.u16 %%r7, %%h4;\n  xor.b32 %%r9, %%r9, %%r7;\n");
      } else if (kind < 7) {
        n += (size_t)snprintf(k + n, sizeof k - n,
                              "  xor.b32 %%r2, %%r1, %u;\n  mul.wide.u32 %%rd6, %%r2, 4;\n"
                              "  add.s64 %%rd7, %%rd1, %%rd6;\n  .loc 1 %d 3\n"
                              "  st.global.u32 [%%rd7], %%r1;\n", VL_NEXT() % 64, 10 + step);
      } else {
        n += (size_t)snprintf(k + n, sizeof k - n, "  bar.sync 0;\n");
      }
    }
    snprintf(k + n, sizeof k - n,
             "  bar.sync 0;\n  mul.wide.u32 %%rd8, %%r1, 4;\n  add.s64 %%rd9, %%rd1, %%rd8;\n"
             "  st.global.u32 [%%rd9+4096], %%r9;\n  ret;\n}\n.file 1 \"/lab/vl.cu\"\n");
    struct sim_result r[2];
    uint32_t got[2][2048];
    struct sim_launch c = {.grid = {1, 1, 1}, .block = {96, 1, 1}, .sched = SIM_SCHED_ITS,
                           .workers = 1};
    run_switched(k, "vl", &c, &sim_exec_shortcuts, r, got[0], got[1], sizeof got[0]);
    unsigned races = 0, ok = 0;
    if (r[1].outcome != SIM_RAN_OK)
      faults++;
    else
      clean++;
    same_race_runs(r, got[0], got[1], sizeof got[0], &races, &ok);
  }
#undef VL_NEXT
  ck_assert_uint_gt(faults, 20);
  ck_assert_uint_gt(clean, 15);
}
END_TEST

/* sim_race_global's record of a lane's whole words that the filters say are new (words_new)
   against gword_one's word by word (sim_race_lane_shortcuts 0): random programs of three
   warps, each step a vector store of 2 or 4 words a lane (st.global.v2/.v4, one lane's
   record at a time), a scattered word store (a stride of two words: no coalesced warp), a
   coalesced one (lines, which words_new must not pass over), at the thread's own words
   plus an offset (0, 1, 2, 4, 16 or 33 words; values that change the words or not), a read
   of another thread's word, a __syncwarp() or a barrier, must report the same fault, to the
   message, and leave the same values and counters. */
START_TEST(test_global_words_new_match_general_path)
{
  static const unsigned offs[6] = {0, 1, 2, 4, 16, 33};
  uint64_t rng = 0x2f6b1c9d3e4a5b7full;
#define GW_NEXT() rng_next(&rng)
  unsigned races = 0, clean = 0;
  static char k[8192];
  for (int trial = 0; trial < 150; trial++) {
    size_t n = (size_t)snprintf(k, sizeof k,
      HDR
      ".visible .entry gw(.param .u64 out)\n{\n"
      "  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<10>;\n"
      "  mov.u32 %%r1, %%tid.x;\n  ld.param.u64 %%rd1, [out];\n"
      "  mul.wide.u32 %%rd2, %%r1, 16;\n  add.s64 %%rd3, %%rd1, %%rd2;\n"
      "  mul.wide.u32 %%rd4, %%r1, 8;\n  add.s64 %%rd5, %%rd1, %%rd4;\n"
      "  mul.wide.u32 %%rd8, %%r1, 4;\n  add.s64 %%rd9, %%rd1, %%rd8;\n");
    for (int step = 0; step < 8; step++) {
      const uint32_t kind = GW_NEXT() % 10, off = offs[GW_NEXT() % 6], v = GW_NEXT() % 3;
      const char *val = v == 0 ? "%r1" : v == 1 ? "0" : "7";
      if (kind < 2)
        n += (size_t)snprintf(k + n, sizeof k - n,
                              "  mov.u32 %%r4, %s;\n  .loc 1 %d 3\n"
                              "  st.global.v4.u32 [%%rd3+%u], {%%r4, %%r4, %%r4, %%r4};\n",
                              val, 10 + step, 4 * (off & ~3u));
      else if (kind < 4)
        n += (size_t)snprintf(k + n, sizeof k - n,
                              "  mov.u32 %%r4, %s;\n  .loc 1 %d 3\n"
                              "  st.global.v2.u32 [%%rd5+%u], {%%r4, %%r4};\n",
                              val, 10 + step, 4 * (off & ~1u));
      else if (kind < 6)
        n += (size_t)snprintf(k + n, sizeof k - n,
                              "  .loc 1 %d 3\n  st.global.u32 [%%rd%d+%u], %s;\n", 10 + step,
                              kind == 4 ? 5 : 9, 4 * off, val);
      else if (kind < 8)
        n += (size_t)snprintf(k + n, sizeof k - n,
                              "  xor.b32 %%r2, %%r1, %u;\n  mul.wide.u32 %%rd6, %%r2, 4;\n"
                              "  add.s64 %%rd7, %%rd1, %%rd6;\n  .loc 1 %d 3\n"
                              "  ld.global.u32 %%r3, [%%rd7+%u];\n", GW_NEXT() % 64, 10 + step,
                              4 * off);
      else
        n += (size_t)snprintf(k + n, sizeof k - n, "  %s\n",
                              kind == 8 ? "bar.warp.sync -1;" : "bar.sync 0;");
    }
    snprintf(k + n, sizeof k - n, "  ret;\n}\n.file 1 \"/lab/gw.cu\"\n");
    struct sim_result r[2];
    uint32_t got[2][512];
    struct sim_launch c = {.grid = {1, 1, 1}, .block = {96, 1, 1}, .sched = SIM_SCHED_ITS,
                           .workers = 1};
    run_switched(k, "gw", &c, &sim_race_lane_shortcuts, r, got[0], got[1], sizeof got[0]);
    same_race_runs(r, got[0], got[1], sizeof got[0], &races, &clean);
  }
#undef GW_NEXT
  ck_assert_uint_gt(races, 20);
  ck_assert_uint_gt(clean, 3);
}
END_TEST

/* sim_race_global_stores's pass over a warp's scattered words (stores_words) against
   gword_one word by word (sim_race_lane_shortcuts 0): random programs of three warps whose
   first warp leaves at once and whose second stores and reads its own words only (it runs
   each instruction first, through the lane loops, and races with nothing), while the third
   runs the steps at their offsets: a scattered word store (a stride of two words), a
   coalesced one (lines, over the third warp's scattered words), at the thread's words plus
   0, 1, 2, 4, 16 or 33 words, with values that change the words or not, a read of another
   thread's word, a __syncwarp() or a barrier. Must report the same fault, to the message,
   and leave the same values and counters. */
START_TEST(test_global_stores_words_match_general_path)
{
  static const unsigned offs[6] = {0, 1, 2, 4, 16, 33};
  uint64_t rng = 0x7c1f08d2a96e35b4ull;
#define SW_NEXT() rng_next(&rng)
  unsigned races = 0, clean = 0;
  static char k[8192];
  for (int trial = 0; trial < 150; trial++) {
    size_t n = (size_t)snprintf(k, sizeof k,
      HDR
      ".visible .entry sw(.param .u64 out)\n{\n"
      "  .reg .pred %%p<3>;\n  .reg .b32 %%r<9>;\n  .reg .b64 %%rd<10>;\n"
      "  mov.u32 %%r1, %%tid.x;\n  setp.lt.u32 %%p1, %%r1, 32;\n  @%%p1 ret;\n"
      "  setp.ge.u32 %%p2, %%r1, 64;\n  ld.param.u64 %%rd1, [out];\n"
      "  mul.wide.u32 %%rd4, %%r1, 8;\n  add.s64 %%rd5, %%rd1, %%rd4;\n"
      "  mul.wide.u32 %%rd8, %%r1, 4;\n  add.s64 %%rd9, %%rd1, %%rd8;\n"
      "  selp.b64 %%rd3, 256, 0, %%p2;\n  add.s64 %%rd9, %%rd9, %%rd3;\n");
    for (int step = 0; step < 8; step++) {
      const uint32_t kind = SW_NEXT() % 8, off = offs[SW_NEXT() % 6], v = SW_NEXT() % 3;
      const char *val = v == 0 ? "%r1" : v == 1 ? "0" : "7";
      if (kind < 5)
        n += (size_t)snprintf(k + n, sizeof k - n,
                              "  selp.b64 %%rd6, %u, 0, %%p2;\n  add.s64 %%rd7, %%rd%d, %%rd6;\n"
                              "  .loc 1 %d 3\n  st.global.u32 [%%rd7], %s;\n", 4 * off,
                              kind < 4 ? 5 : 9, 10 + step, val);
      else if (kind < 7)
        n += (size_t)snprintf(k + n, sizeof k - n,
                              "  selp.b32 %%r8, %u, 0, %%p2;\n  xor.b32 %%r2, %%r1, %%r8;\n"
                              "  mul.wide.u32 %%rd6, %%r2, 8;\n  add.s64 %%rd7, %%rd1, %%rd6;\n"
                              "  .loc 1 %d 3\n  ld.global.u32 %%r3, [%%rd7];\n",
                              SW_NEXT() % 32, 10 + step);
      else
        n += (size_t)snprintf(k + n, sizeof k - n, "  %s\n",
                              SW_NEXT() % 2 ? "bar.warp.sync -1;" : "bar.sync 0;");
    }
    snprintf(k + n, sizeof k - n, "  ret;\n}\n.file 1 \"/lab/sw.cu\"\n");
    struct sim_result r[2];
    uint32_t got[2][512];
    struct sim_launch c = {.grid = {1, 1, 1}, .block = {96, 1, 1}, .sched = SIM_SCHED_ITS,
                           .workers = 1};
    run_switched(k, "sw", &c, &sim_race_lane_shortcuts, r, got[0], got[1], sizeof got[0]);
    same_race_runs(r, got[0], got[1], sizeof got[0], &races, &clean);
  }
#undef SW_NEXT
  ck_assert_uint_gt(races, 20);
  ck_assert_uint_gt(clean, 10);
}
END_TEST

/* words_new must leave words that lie in a line to gword_one: warps 1 and 2 store out[t]
   coalesced (lines), then each thread from 32 on stores out[4 t - 96 ...] four at a time
   (st.global.v4): thread 32 writes out[32..35], three of them its warp's other lanes',
   with no __syncwarp() between (a write-after-write against thread 33), both ways. */
START_TEST(test_global_words_new_leave_lines)
{
  const char *k =
    HDR
    ".visible .entry gv(.param .u64 out)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<10>;\n"
    "  mov.u32 %r1, %tid.x;\n  ld.param.u64 %rd1, [out];\n  mov.u32 %r5, 7;\n"
    "  mul.wide.u32 %rd2, %r1, 16;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  mul.wide.u32 %rd8, %r1, 4;\n  add.s64 %rd9, %rd1, %rd8;\n"
    "  setp.ge.u32 %p1, %r1, 32;\n"
    "  .loc 1 5 3\n  st.global.u32 [%rd9], %r5;\n"
    "  .loc 1 6 3\n  @%p1 st.global.v4.u32 [%rd3+-384], {%r1, %r1, %r1, %r1};\n"
    "  ret;\n}\n.file 1 \"/lab/gv.cu\"\n";
  struct sim_result r[2];
  uint32_t got[2][512];
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {96, 1, 1}, .sched = SIM_SCHED_ITS,
                         .workers = 1};
  run_switched(k, "gv", &c, &sim_race_lane_shortcuts, r, got[0], got[1], sizeof got[0]);
  for (int sc = 0; sc < 2; sc++) {
    ck_assert_int_eq(r[sc].fault.kind, SIM_FK_RACE);
    ck_assert_msg(strstr(r[sc].fault.message, "write-after-write"), "%s", r[sc].fault.message);
    ck_assert_uint_eq(r[sc].fault.thread[0], 32);
    ck_assert_uint_eq(r[sc].fault.other_thread[0], 33);
  }
  ck_assert_str_eq(r[0].fault.message, r[1].fault.message);
  sim_result_free(&r[0]);
  sim_result_free(&r[1]);
}
END_TEST

/* sim_race_begin's skip of the fill where the program cannot write shared memory, against
   the fill at every block (sim_race_lane_shortcuts 0): four blocks on one worker with 32 KiB
   of dynamic shared memory each read dyn[64 + tid] (byte 0, which the skip looks at, is
   left alone) before anything writes it, then write it or
   not (st.shared, a generic st, atom.shared, st.global only); with shared memory zeroed
   (SIM_NOCHECK_INIT) every block must read 0, not the block before's value, and with it
   poisoned the same uninitialised read is reported. */
START_TEST(test_race_fill_skip_matches_fill)
{
  static const char *const wr[4] = {
    "  st.shared.u32 [%rd2], %r3;\n",
    "  cvta.shared.u64 %rd5, %rd2;\n  st.u32 [%rd5], %r3;\n",
    "  atom.shared.add.u32 %r6, [%rd2], %r3;\n",
    "  st.global.u32 [%rd4+512], %r3;\n",
  };
  for (int v = 0; v < 4; v++)
    for (uint32_t nc = 0; nc <= SIM_NOCHECK_INIT; nc += SIM_NOCHECK_INIT) {
      char k[2048];
      snprintf(k, sizeof k,
               HDR
               ".extern .shared .align 16 .b8 dyn[];\n"
               ".visible .entry fs(.param .u64 o)\n{\n"
               "  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<6>;\n"
               "  mov.u32 %%r1, %%tid.x;\n  mov.u32 %%r2, %%ctaid.x;\n  add.u32 %%r3, %%r2, 5;\n"
               "  mov.u64 %%rd1, dyn;\n  mul.wide.u32 %%rd3, %%r1, 4;\n"
               "  add.s64 %%rd2, %%rd1, %%rd3;\n  add.s64 %%rd2, %%rd2, 256;\n"
               "  .loc 1 5 3\n  ld.shared.u32 %%r4, [%%rd2];\n"
               "  shl.b32 %%r5, %%r2, 5;\n  add.u32 %%r5, %%r5, %%r1;\n"
               "  ld.param.u64 %%rd4, [o];\n  mul.wide.u32 %%rd3, %%r5, 4;\n"
               "  add.s64 %%rd4, %%rd4, %%rd3;\n  st.global.u32 [%%rd4], %%r4;\n"
               "%s  ret;\n}\n"
               ".file 1 \"/lab/fs.cu\"\n", wr[v]);
      struct sim_result r[2];
      uint32_t got[2][256];
      struct sim_launch c = {.grid = {4, 1, 1}, .block = {32, 1, 1}, .workers = 1,
                             .dyn_smem = 32768, .nocheck = nc};
      run_switched(k, "fs", &c, &sim_race_lane_shortcuts, r, got[0], got[1], sizeof got[0]);
      ck_assert_int_eq(r[0].outcome, r[1].outcome);
      ck_assert_int_eq(r[0].fault.kind, r[1].fault.kind);
      ck_assert_str_eq(r[0].fault.message, r[1].fault.message);
      ck_assert_mem_eq(got[0], got[1], sizeof got[0]);
      if (nc) {
        ck_assert_msg(r[1].outcome == SIM_RAN_OK, "%s", r[1].fault.message);
        for (unsigned i = 0; i < 128; i++)
          ck_assert_uint_eq(got[1][i], 0);
      } else {
        ck_assert_int_eq(r[1].fault.kind, SIM_FK_UNINIT);
      }
      sim_result_free(&r[0]);
      sim_result_free(&r[1]);
    }
}
END_TEST

/* A whole warp reading, then storing, every other word (stride 2: the pass that records two
   lines with masked stores and blends) after an epoch in which two threads read each of
   those words: the new read summaries must name one reader and no flags, so that each
   lane's store of the word it alone read is no race; and again with the first epoch's
   reads by one thread each, and with a third epoch in which lane l stores the word of lane
   l^1 (a write-after-read race naming the stride-2 read). Run with the race checker's
   shortcuts and without (shadow_word lane by lane), the two must agree to the message. */
START_TEST(test_race_pairs_pass_match_general_path)
{
  static const char *const first[2] = {
    "  ld.shared.u32 %r5, [%r3];\n  ld.shared.u32 %r6, [%r4];\n",   /* word 2t, then 2t + 2 */
    "  ld.shared.u32 %r5, [%r3];\n",                                 /* word 2t alone */
  };
  static const char *const last[2] = {
    "  st.shared.u32 [%r3], %r7;\n",                                 /* its own word */
    "  st.shared.u32 [%r9], %r7;\n",                                 /* lane l^1's */
  };
  unsigned races = 0;
  for (int a = 0; a < 2; a++)
    for (int z = 0; z < 2; z++) {
      char k[2048];
      snprintf(k, sizeof k,
        HDR
        ".visible .entry pp(.param .u64 out)\n{\n"
        "  .shared .align 4 .b8 s[512];\n"
        "  .reg .b32 %%r<12>;\n  .reg .b64 %%rd<4>;\n"
        "  mov.u32 %%r1, %%tid.x;\n  mov.u32 %%r2, s;\n"
        "  shl.b32 %%r3, %%r1, 3;\n  add.s32 %%r3, %%r2, %%r3;\n"     /* word 2t */
        "  add.s32 %%r4, %%r1, 1;\n  and.b32 %%r4, %%r4, 31;\n  shl.b32 %%r4, %%r4, 3;\n"
        "  add.s32 %%r4, %%r2, %%r4;\n"                                /* word 2 (t + 1 mod 32) */
        "  xor.b32 %%r9, %%r1, 1;\n  shl.b32 %%r9, %%r9, 3;\n  add.s32 %%r9, %%r2, %%r9;\n"
        "  st.shared.u32 [%%r3], %%r1;\n  st.shared.u32 [%%r3+4], %%r1;\n"
        "  bar.sync 0;\n"
        "  .loc 1 5 3\n%s"
        "  bar.sync 0;\n"
        "  .loc 1 7 3\n"
        "  ld.shared.u32 %%r7, [%%r3];\n"
        "  add.s32 %%r7, %%r7, 1000;\n"
        "  .loc 1 8 3\n%s"
        "  ld.param.u64 %%rd1, [out];\n  mul.wide.u32 %%rd2, %%r1, 4;\n"
        "  add.s64 %%rd3, %%rd1, %%rd2;\n  st.global.u32 [%%rd3], %%r7;\n"
        "  ret;\n}\n"
        ".file 1 \"/lab/pp.cu\"\n", first[a], last[z]);
      struct sim_result r[2];
      uint32_t got[2][32];
      struct sim_launch c = {.grid = {1, 1, 1}, .block = {32, 1, 1}, .workers = 1};
      run_switched(k, "pp", &c, &sim_race_lane_shortcuts, r, got[0], got[1], sizeof got[0]);
      ck_assert_msg(r[0].outcome == r[1].outcome, "first %d, last %d: outcome %d, general %d (%s)",
                    a, z, r[1].outcome, r[0].outcome, r[1].fault.message);
      ck_assert_str_eq(r[0].fault.message, r[1].fault.message);
      ck_assert_uint_eq(r[0].counters.warp_insts, r[1].counters.warp_insts);
      ck_assert_mem_eq(got[0], got[1], sizeof got[0]);
      /* lane l^1's word: a race with the stride-2 read (line 7); its own: none */
      ck_assert_int_eq(r[1].outcome == SIM_RAN_OK, !z);
      if (z) {
        ck_assert_ptr_nonnull(strstr(r[1].fault.message, "write-after-read"));
        ck_assert_ptr_nonnull(strstr(r[1].fault.message, "pp.cu:7"));
        races++;
      }
      sim_result_free(&r[0]);
      sim_result_free(&r[1]);
    }
  ck_assert_uint_eq(races, 2);
}
END_TEST

/* ---- the race checker's lane-by-lane shortcuts against its general path ---- */

/* One run of a random shared-memory program (lr_kernel) over the control words ctl, with
   sim_race.c's lane-by-lane shortcuts on or off: what it reported and what it left. */
struct lr_out {
  enum sim_outcome outcome;
  struct sim_fault fault;
  struct sim_counters counters;
  uint32_t dst[64];
};

#define LR_STEPS 24

static void lr_run(const char *k, const uint32_t *ctl, uint32_t nocheck, int shortcuts,
                   struct lr_out *o)
{
  struct fx f;
  load(&f, k);
  uint64_t p[2];
  p[0] = buffer(&f, LR_STEPS * 64 * 4, "ctl");
  p[1] = buffer(&f, 64 * 4, "dst");
  ck_assert_int_eq(sim_write(f.d, p[0], ctl, LR_STEPS * 64 * 4), SIM_OK);
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {64, 1, 1}, .workers = 1,
                         .nocheck = nocheck};
  sim_race_lane_shortcuts = shortcuts;
  ck_assert_int_eq(sim_run(f.d, &f.m, "lr", p, sizeof p, &c, &f.r, f.err, sizeof f.err),
                   SIM_OK);
  sim_race_lane_shortcuts = 1;
  o->outcome = f.r.outcome;
  o->fault = f.r.fault;
  o->counters = f.r.counters;
  ck_assert_int_eq(sim_read(f.d, p[1], o->dst, sizeof o->dst), SIM_OK);
  done(&f);
}

/* Random programs of 24 steps over 64 shared words in a block of two warps, each step one
   instruction of every thread: a shared load or store (plain or volatile) whose lanes,
   words and stored values come from a control word of the thread's (bit 0: the lane takes
   part, bits 2-7: its word, bits 8-9: the value, 0-3, so that stores often leave a word as
   it was), or a __syncwarp(), or a barrier. The lanes of a step: every lane, the first 16,
   8, 4, 2 or 1 of each warp (a tree reduction's), every other or every fourth lane, or at
   random; their words: their own, their own plus 16, 8, 4, 2 or 1, a neighbour's, the
   other warp's, one word for all, or at random, with a few lanes moved at random (lane l at
   word i0 + l is the masked store pass's case). Some programs first initialise every word,
   some not (uninitialised reads). Each program runs with the stores' shortcuts and without
   (every lane through shadow_word: the partial warps' loads too) and must report the same
   fault, to the message, and leave the same values and counters. */
START_TEST(test_race_lane_shortcuts_match_general_path)
{
  static const char *const op[6] = {
    "@%p1 ld.shared.u32 %r7, [%r5];\n  add.u32 %r10, %r10, %r7;\n",
    "@%p1 st.shared.u32 [%r5], %r6;\n",
    "@%p1 ld.volatile.shared.u32 %r7, [%r5];\n  add.u32 %r10, %r10, %r7;\n",
    "@%p1 st.volatile.shared.u32 [%r5], %r6;\n",
    "bar.warp.sync -1;\n",
    "bar.sync 0;\n",
  };
  uint64_t rng = 0x9e3779b97f4a7c15ull;
#define LR_NEXT() rng_next(&rng)
  unsigned seen_ok = 0, seen_race = 0, seen_uninit = 0;
  static uint32_t ctl[LR_STEPS * 64];
  static char k[LR_STEPS * 400 + 2048];
  for (int trial = 0; trial < 400; trial++) {
    /* a third of the programs tame: a barrier before every load or store, stores to the
       thread's own word, every word initialised (so that some run to their end) */
    const int tame = trial % 3 == 0;
    const int init = tame || LR_NEXT() % 3 != 0;
    const uint32_t nocheck = trial % 10 == 9 ? SIM_NOCHECK_INIT : 0;
    size_t n = (size_t)snprintf(k, sizeof k,
      HDR
      ".visible .entry lr(.param .u64 ctl, .param .u64 dst)\n{\n"
      "  .shared .align 4 .b8 s[256];\n"
      "  .reg .pred %%p<2>;\n  .reg .b32 %%r<12>;\n  .reg .b64 %%rd<6>;\n"
      "  ld.param.u64 %%rd1, [ctl];\n  ld.param.u64 %%rd2, [dst];\n"
      "  mov.u32 %%r1, %%tid.x;\n  mov.u32 %%r4, s;\n  mov.u32 %%r10, 0;\n"
      "  mul.wide.u32 %%rd3, %%r1, 4;\n  add.s64 %%rd4, %%rd1, %%rd3;\n"
      "%s",
      init ? "  shl.b32 %r2, %r1, 2;\n  add.s32 %r2, %r4, %r2;\n  and.b32 %r3, %r1, 3;\n"
             "  st.shared.u32 [%r2], %r3;\n  bar.sync 0;\n" : "");
    for (int step = 0; step < LR_STEPS; step++) {
      const uint32_t kind = LR_NEXT() % 16;
      const int o = kind < 6 ? 0 : kind < 12 ? 1 : kind == 12 ? 2 : kind == 13 ? 3
                    : kind == 14 ? 4 : 5;
      const uint32_t lanes = LR_NEXT() % 10;
      uint32_t words = LR_NEXT() % 12, noise = LR_NEXT() % 4;
      if (tame) {
        noise = 0;
        if (o == 1 || o == 3 || words > 9)
          words = 0;
      }
      for (unsigned t = 0; t < 64; t++) {
        const unsigned l = t % 32;
        static const unsigned first[6] = {32, 16, 8, 4, 2, 1};
        int on = lanes < 6 ? l < first[lanes] : lanes == 6 ? !(l & 1) : lanes == 7 ? !(l & 3)
                 : lanes == 8 ? (int)(LR_NEXT() & 1) : LR_NEXT() % 8 == 0;
        static const unsigned plus[6] = {0, 16, 8, 4, 2, 1};
        unsigned w = words < 6 ? t + plus[words] : words == 6 ? t ^ 1 : words == 7 ? t ^ 32
                     : words == 8 ? 3 : words == 9 ? 2 * t : LR_NEXT();
        if (noise && LR_NEXT() % (8u << noise) == 0)
          w = LR_NEXT();
        ctl[step * 64 + t] = (uint32_t)on | (w % 64) << 2 | (LR_NEXT() % 4) << 8;
      }
      n += (size_t)snprintf(k + n, sizeof k - n,
        "  %s.loc 1 %d 3\n"
        "  ld.global.u32 %%r2, [%%rd4+%d];\n  and.b32 %%r3, %%r2, 1;\n"
        "  setp.ne.u32 %%p1, %%r3, 0;\n  and.b32 %%r5, %%r2, 252;\n  add.s32 %%r5, %%r4, %%r5;\n"
        "  shr.u32 %%r6, %%r2, 8;\n  and.b32 %%r6, %%r6, 3;\n  %s",
        tame && o < 4 ? "bar.sync 0;\n  " : "", step + 10, step * 256, op[o]);
    }
    snprintf(k + n, sizeof k - n,
      "  add.s64 %%rd5, %%rd2, %%rd3;\n  st.global.u32 [%%rd5], %%r10;\n  ret;\n}\n"
      ".file 1 \"/lab/lr.cu\"\n");
    static struct lr_out a, b;
    lr_run(k, ctl, nocheck, 1, &a);
    lr_run(k, ctl, nocheck, 0, &b);
    ck_assert_msg(a.outcome == b.outcome, "trial %d: outcome %d, general path %d (%s / %s)",
                  trial, a.outcome, b.outcome, a.fault.message, b.fault.message);
    if (a.outcome != SIM_RAN_OK) {
      const struct sim_fault *x = &a.fault, *y = &b.fault;
      ck_assert_msg(x->kind == y->kind && x->space == y->space && x->access == y->access &&
                    x->addr == y->addr && x->size == y->size && x->lane == y->lane &&
                    x->inst == y->inst && x->other_inst == y->other_inst &&
                    !memcmp(x->thread, y->thread, sizeof x->thread) &&
                    !memcmp(x->other_thread, y->other_thread, sizeof x->other_thread) &&
                    !strcmp(x->message, y->message),
                    "trial %d: fault '%s', general path '%s'", trial, x->message, y->message);
    }
    ck_assert_msg(!memcmp(&a.counters, &b.counters, sizeof a.counters), "trial %d: counters",
                  trial);
    ck_assert_msg(!memcmp(a.dst, b.dst, sizeof a.dst), "trial %d: values", trial);
    seen_ok += a.outcome == SIM_RAN_OK;
    seen_race += a.outcome != SIM_RAN_OK && a.fault.kind == SIM_FK_RACE;
    seen_uninit += a.outcome != SIM_RAN_OK && a.fault.kind == SIM_FK_UNINIT;
  }
#undef LR_NEXT
  /* the programs reach all three ends */
  ck_assert_uint_gt(seen_ok, 10);
  ck_assert_uint_gt(seen_race, 10);
  ck_assert_uint_gt(seen_uninit, 3);
}
END_TEST

/* Lab 07's interleaved tree reduction (`if (tid % (2 * s) == 0) s[tid] += s[tid + s]`) in a
   block of two warps: partial warps' reads (sim_race.c's reads_lanes) and stores of words
   written the step before, 16 lanes a warp down to one (the stores' pass over a line of
   words from 4), with shortcuts and without (every lane through shadow_word), which must
   agree to the message, the values and the counters. Variants: a barrier after every step (clean); none after
   the first stores (nobar 0: a read-after-write at the first step's 16 lanes) or after step
   nobar - 1 (a race within a warp at the next step's reads, or between warps for the last
   steps); thread `hole`'s first store left out (an uninitialised read at step 1), with
   uninitialised reads reported and not; at the first step a third load, of s[tid ^ 2], a
   second reader of another lane's word, whose write then races with it (the report names
   the readers the shortcuts recorded). Each end is asserted, so the variants reach the fast
   paths' either answer. */
START_TEST(test_race_reduce_reads_match_general_path)
{
  static uint32_t ctl[LR_STEPS * 64];
  static char k[8192];
  struct { int nobar, hole, twice; uint32_t nocheck; enum sim_fault_kind want; } v[] = {
    {-1, -1, 0, 0, 0},
    {0, -1, 0, 0, SIM_FK_RACE},
    {1, -1, 0, 0, SIM_FK_RACE},                 /* s = 1 then s = 2 without a barrier */
    {2, -1, 0, 0, SIM_FK_RACE},
    {5, -1, 0, 0, SIM_FK_RACE},                 /* s = 16 then 32: warp 1's write, warp 0's read */
    {-1, 5, 0, 0, SIM_FK_UNINIT},
    {-1, 5, 0, SIM_NOCHECK_INIT, 0},
    {-1, -1, 1, 0, SIM_FK_RACE},
  };
  for (unsigned j = 0; j < sizeof v / sizeof *v; j++) {
    size_t n = (size_t)snprintf(k, sizeof k,
      HDR
      ".visible .entry lr(.param .u64 ctl, .param .u64 dst)\n{\n"
      "  .shared .align 4 .b8 s[256];\n"
      "  .reg .pred %%p<3>;\n  .reg .b32 %%r<12>;\n  .reg .b64 %%rd<6>;\n"
      "  ld.param.u64 %%rd2, [dst];\n"
      "  mov.u32 %%r1, %%tid.x;\n  mov.u32 %%r4, s;\n"
      "  shl.b32 %%r2, %%r1, 2;\n  add.s32 %%r2, %%r4, %%r2;\n"
      "  xor.b32 %%r9, %%r2, 8;\n"
      "  setp.ne.u32 %%p2, %%r1, %d;\n"
      "  mul.lo.u32 %%r3, %%r1, 7;\n  add.u32 %%r3, %%r3, 1;\n"
      "  @%%p2 st.shared.u32 [%%r2], %%r3;\n%s",
      v[j].hole, v[j].nobar == 0 ? "" : "  bar.sync 0;\n");
    for (int st = 0; st < 6; st++) {
      const int sz = 1 << st;
      n += (size_t)snprintf(k + n, sizeof k - n,
        "  .loc 1 %d 3\n"
        "  and.b32 %%r5, %%r1, %d;\n  setp.eq.u32 %%p1, %%r5, 0;\n"
        "  @%%p1 ld.shared.u32 %%r6, [%%r2];\n  @%%p1 ld.shared.u32 %%r7, [%%r2+%d];\n"
        "%s"
        "  add.u32 %%r6, %%r6, %%r7;\n  @%%p1 st.shared.u32 [%%r2], %%r6;\n%s",
        10 + st, 2 * sz - 1, 4 * sz,
        v[j].twice && st == 0 ? "  @%p1 ld.shared.u32 %r8, [%r9];\n  add.u32 %r6, %r6, %r8;\n"
                              : "",
        st + 1 == v[j].nobar ? "" : "  bar.sync 0;\n");
    }
    snprintf(k + n, sizeof k - n,
      "  ld.shared.u32 %%r10, [s];\n"
      "  mul.wide.u32 %%rd3, %%r1, 4;\n  add.s64 %%rd5, %%rd2, %%rd3;\n"
      "  st.global.u32 [%%rd5], %%r10;\n  ret;\n}\n"
      ".file 1 \"/lab/lr.cu\"\n");
    static struct lr_out a, b;
    lr_run(k, ctl, v[j].nocheck, 1, &a);
    lr_run(k, ctl, v[j].nocheck, 0, &b);
    ck_assert_msg(a.outcome == b.outcome, "variant %u: outcome %d, general path %d (%s / %s)", j,
                  a.outcome, b.outcome, a.fault.message, b.fault.message);
    if (v[j].want) {
      ck_assert_msg(a.outcome != SIM_RAN_OK && a.fault.kind == v[j].want, "variant %u: %s", j,
                    a.fault.message);
      ck_assert_str_eq(a.fault.message, b.fault.message);
      ck_assert_int_eq(a.fault.lane, b.fault.lane);
      ck_assert_mem_eq(a.fault.other_thread, b.fault.other_thread, sizeof a.fault.other_thread);
    } else {
      ck_assert_msg(a.outcome == SIM_RAN_OK, "variant %u: %s", j, a.fault.message);
      uint32_t sum = 0;          /* s[0]: every thread's 7 t + 1, the hole's 0 (zeroed memory
                                    where uninitialised reads are not reported) */
      for (uint32_t t = 0; t < 64; t++)
        sum += (int)t == v[j].hole ? 0 : 7 * t + 1;
      ck_assert_uint_eq(a.dst[0], sum);
    }
    ck_assert_msg(!memcmp(&a.counters, &b.counters, sizeof a.counters), "variant %u: counters", j);
    ck_assert_msg(!memcmp(a.dst, b.dst, sizeof a.dst), "variant %u: values", j);
  }
}
END_TEST

/* ---- setp whose predicate guards the next bra (sim_exec_run's PLAN_SETP_GUARD) ---- */

/* One case (j) of test_fast_path_setp_guard: setp.<cmp>.<type> %p1 on a word of src the same
   for every lane and another, the same, the lane's or one of four, bent toward the edges
   (sign bit, all ones, 0 and 1, equal; 64-bit: sign-extended, or equal low words under
   different high ones); every fourth case instead the first word and, for one lane alone,
   one more or one less (lane 7(j/4)+3 mod 32, every lane in turn; in region P lanes 8-15, at
   its mask's edge). Then "@%p1 bra" or "@!%p1 bra" (every sixteenth "@%p5 bra", another
   predicate: no fusing) over an add that marks the path taken in %r4; every fourth case
   reads %p1 again (selp), so the register the fused setp writes is checked too. */
static size_t setp_guard_case(char *k, size_t cap, const char *tag, unsigned j)
{
  static const char *const combo[][2] = {
    {"eq", "u32"}, {"ne", "u32"}, {"lt", "u32"}, {"le", "u32"}, {"gt", "u32"}, {"ge", "u32"},
    {"lo", "u32"}, {"ls", "u32"}, {"hi", "u32"}, {"hs", "u32"}, {"eq", "s32"}, {"ne", "s32"},
    {"lt", "s32"}, {"le", "s32"}, {"gt", "s32"}, {"ge", "s32"}, {"eq", "b32"}, {"ne", "b32"},
    {"eq", "u64"}, {"ne", "u64"}, {"lo", "u64"}, {"ls", "u64"}, {"hi", "u64"}, {"hs", "u64"},
    {"lt", "u64"}, {"ge", "u64"}, {"eq", "s64"}, {"ne", "s64"}, {"lt", "s64"}, {"le", "s64"},
    {"gt", "s64"}, {"ge", "s64"},
  };
  static const char *const bend[8] = {
    "",
    "  xor.b32 %r5, %r5, -2147483648;\n  xor.b32 %r6, %r6, -2147483648;\n",
    "  xor.b32 %r5, %r5, 2147483647;\n  xor.b32 %r6, %r6, 2147483647;\n",
    "  and.b32 %r5, %r5, -2147483648;\n  and.b32 %r6, %r6, -2147483648;\n",
    "  or.b32 %r5, %r5, -2;\n  or.b32 %r6, %r6, -2;\n",
    "  and.b32 %r5, %r5, 1;\n  and.b32 %r6, %r6, 1;\n",
    "  mov.b32 %r6, %r5;\n",
    "  and.b32 %r5, %r5, 0;\n  and.b32 %r6, %r6, 16;\n",
  };
  static const char *const base[3] = {"%rd1", "%rd4", "%rd6"};
  const unsigned c = j % 4 == 3 ? j / 4 % 32 : j % 32, pat = (j / 32 + j) % 8;
  const int wide = combo[c][1][1] == '6';
  char cmpd[400], r6[80];
  snprintf(r6, sizeof r6, "  ld.global.u32 %%r6, [%s+%u];\n", base[j % 3], 4 * ((j * 7) % 64));
  if (wide && j / 32 % 2)          /* the low words both %r6, the high ones %r5 and %r6 */
    snprintf(cmpd, sizeof cmpd, "  cvt.u64.u32 %%rd10, %%r6;\n  cvt.u64.u32 %%rd8, %%r5;\n"
             "  shl.b64 %%rd8, %%rd8, 32;\n  or.b64 %%rd8, %%rd8, %%rd10;\n"
             "  shl.b64 %%rd9, %%rd10, 32;\n  or.b64 %%rd9, %%rd9, %%rd10;\n"
             "  setp.%s.%s %%p1, %%rd8, %%rd9;\n", combo[c][0], combo[c][1]);
  else if (wide)
    snprintf(cmpd, sizeof cmpd, "  cvt.s64.s32 %%rd8, %%r5;\n  cvt.s64.s32 %%rd9, %%r6;\n"
             "  setp.%s.%s %%p1, %%rd8, %%rd9;\n", combo[c][0], combo[c][1]);
  else
    snprintf(cmpd, sizeof cmpd, "  setp.%s.%s %%p1, %%r5, %%r6;\n", combo[c][0], combo[c][1]);
  char one[300] = "";
  if (j % 4 == 3)                  /* one lane's b one above or below the others' (a) */
    snprintf(one, sizeof one, "  setp.eq.u32 %%p5, %%r1, %u;\n  selp.u32 %%r3, %d, 0, %%p5;\n"
             "  add.s32 %%r6, %%r5, %%r3;\n",
             tag[0] == 'P' ? 8 + j / 4 % 8 : (j / 4 * 7 + 3) % 32, j / 8 % 2 ? 1 : -1);
  return (size_t)snprintf(k, cap,
                          "  ld.global.u32 %%r5, [%%rd1+%u];\n%s%s"
                          "%s%s  @%s%%p%d bra %s%u;\n  add.s32 %%r4, %%r4, %u;\n%s%u:\n"
                          "  mul.lo.s32 %%r4, %%r4, 3;\n%s",
                          4 * (j % 128), one, j % 4 == 3 ? "" : r6, j % 4 == 3 ? "" : bend[pat],
                          cmpd, ((j / 2) ^ (j / 8)) & 1 ? "!" : "", j % 16 == 5 ? 5 : 1, tag, j,
                          j + 1, tag, j,
                          j % 4 == 3 ? "  selp.u32 %r8, 5, 9, %p1;\n  add.s32 %r4, %r4, %r8;\n"
                                     : "");
}

/* setp and the "@%p bra" it guards, fused in sim_exec_run (the bra takes the lane mask the
   setp computed): every compare of u32, s32, b32, u64 and s64 that the fast plan runs, guards
   plain and negated, values at the sign bit, all ones, 0, 1 and equal, warp-uniform and
   lane-varying operands (branches taken in the run, and splits left to control()), by the
   whole warp and by partial warps (lanes 0-11, so that lane 11 alone may split them while
   the lanes next to it in a vector, 12 and 13, are outside; the odd lanes): paths taken,
   predicates, counters, per-instruction statistics and trace as the lane-by-lane run leaves
   them. */
START_TEST(test_fast_path_setp_guard)
{
  const size_t cap = 1u << 18;
  char *k = malloc(cap);
  ck_assert_ptr_nonnull(k);
  size_t n = (size_t)snprintf(k, cap,
    HDR
    ".visible .entry gv(.param .u64 src, .param .u64 dst)\n{\n"
    "  .reg .pred %%p<8>;\n  .reg .b32 %%r<12>;\n  .reg .b64 %%rd<12>;\n"
    "  ld.param.u64 %%rd1, [src];\n  ld.param.u64 %%rd2, [dst];\n"
    "  mov.u32 %%r1, %%tid.x;\n  and.b32 %%r2, %%r1, 3;\n"
    "  mul.wide.u32 %%rd3, %%r1, 4;\n  add.s64 %%rd4, %%rd1, %%rd3;\n"
    "  mul.wide.u32 %%rd5, %%r2, 4;\n  add.s64 %%rd6, %%rd1, %%rd5;\n"
    "  add.s64 %%rd7, %%rd2, %%rd3;\n  mov.u32 %%r4, 0;\n");
  for (unsigned j = 0; j < 96; j++)
    n += setp_guard_case(k + n, cap - n, "F", j);
  n += (size_t)snprintf(k + n, cap - n, "  setp.lt.u32 %%p7, %%r1, 12;\n  @!%%p7 bra PEND;\n");
  for (unsigned j = 0; j < 96; j++)
    n += setp_guard_case(k + n, cap - n, "P", j + 96);
  n += (size_t)snprintf(k + n, cap - n, "PEND:\n  and.b32 %%r9, %%r1, 1;\n"
                        "  setp.eq.u32 %%p6, %%r9, 0;\n  @%%p6 bra QEND;\n");
  for (unsigned j = 0; j < 96; j++)
    n += setp_guard_case(k + n, cap - n, "Q", j + 192);
  n += (size_t)snprintf(k + n, cap - n, "QEND:\n  st.global.u32 [%%rd7], %%r4;\n  ret;\n}\n");
  ck_assert_uint_lt(n, cap);
  static struct gv_out a, b;
  gv_run(k, 32 * 16, 32 * 4, 0, 0, &a);
  gv_run(k, 32 * 16, 32 * 4, 0, 1, &b);
  free(k);
  ck_assert_msg(a.r.outcome == SIM_RAN_OK, "%s", a.r.fault.message);
  gv_same(&a, &b, "setp and the bra it guards");
  uint64_t uni = 0, div = 0;
  for (uint32_t j = 0; j < a.r.nstats; j++) {
    uni += a.r.stats[j].br_uniform;
    div += a.r.stats[j].br_divergent;
  }
  ck_assert_uint_gt(uni, 100);                   /* branches taken inside the runs */
  ck_assert_uint_gt(div, 50);                    /* and splits, by control() */
  sim_result_free(&a.r);
  sim_result_free(&b.r);
}
END_TEST

/* mov of an immediate or a symbol's address (a constant register after linking:
   PLAN_MOV_CONST, broadcast, not read lane by lane) of u32, s32, b32, u64, b16, pred and f32,
   masked to the type (a b16 of a wider literal), by whole warps and by partial warps (lanes
   0-11; then the even lanes), whose other lanes keep the register's own values (tid-based),
   against the lane-by-lane run: values, counters, per-instruction statistics and trace the
   same, and the values as written. */
START_TEST(test_fast_path_mov_const)
{
  static const char *const movs =
    "  mov.u32 %r5, -559038737;\n  mov.s32 %r6, -5;\n  mov.b32 %r7, 65536;\n"
    "  mov.u64 %rd8, 1311768467463790320;\n  mov.b16 %rs1, 4660;\n  mov.pred %p1, 1;\n"
    "  mov.f32 %f1, 0f40490FDB;\n  mov.u32 %r8, s;\n"
    "  mov.u64 %rd9, -1;\n  mov.pred %p2, 0;\n  mov.b16 %rs2, -1;\n";
  char k[4096];
  int n = snprintf(k, sizeof k,
    HDR
    ".visible .entry gv(.param .u64 src, .param .u64 dst)\n{\n"
    "  .shared .align 4 .b8 s[16];\n"
    "  .reg .pred %%p<8>;\n  .reg .b16 %%rs<4>;\n  .reg .f32 %%f<4>;\n"
    "  .reg .b32 %%r<16>;\n  .reg .b64 %%rd<12>;\n"
    "  ld.param.u64 %%rd2, [dst];\n  mov.u32 %%r1, %%tid.x;\n"
    "  mul.wide.u32 %%rd3, %%r1, 40;\n  add.s64 %%rd7, %%rd2, %%rd3;\n"
    "  add.u32 %%r5, %%r1, 1;\n  add.u32 %%r6, %%r1, 2;\n  add.u32 %%r7, %%r1, 3;\n"
    "  cvt.u64.u32 %%rd8, %%r1;\n  cvt.u16.u32 %%rs1, %%r1;\n  setp.eq.u32 %%p1, %%r1, 3;\n"
    "  cvt.rn.f32.u32 %%f1, %%r1;\n  add.u32 %%r8, %%r1, 4;\n  cvt.u64.u32 %%rd9, %%r1;\n"
    "  setp.ne.u32 %%p2, %%r1, 5;\n  cvt.u16.u32 %%rs2, %%r1;\n  mov.b16 %%rs3, 0;\n"
    "  setp.lt.u32 %%p7, %%r1, 12;\n  @!%%p7 bra PEND;\n%s"
    "PEND:\n  and.b32 %%r9, %%r1, 1;\n  setp.eq.u32 %%p6, %%r9, 1;\n  @%%p6 bra QEND;\n%s"
    "QEND:\n  and.b32 %%r9, %%r1, 16;\n  setp.eq.u32 %%p5, %%r9, 0;\n  @%%p5 bra FEND;\n%s"
    "FEND:\n"
    "  st.global.u32 [%%rd7], %%r5;\n  st.global.u32 [%%rd7+4], %%r6;\n"
    "  st.global.u32 [%%rd7+8], %%r7;\n  st.global.u64 [%%rd7+16], %%rd8;\n"
    "  cvt.u32.u16 %%r10, %%rs1;\n  selp.u32 %%r11, 1, 0, %%p1;\n  shl.b32 %%r11, %%r11, 16;\n"
    "  or.b32 %%r10, %%r10, %%r11;\n  selp.u32 %%r11, 2, 0, %%p2;\n  shl.b32 %%r11, %%r11, 16;\n"
    "  or.b32 %%r10, %%r10, %%r11;\n  st.global.u32 [%%rd7+12], %%r10;\n"
    "  mov.b32 %%r12, %%f1;\n  st.global.u32 [%%rd7+24], %%r12;\n"
    "  cvt.u32.u64 %%r13, %%rd9;\n  add.u32 %%r13, %%r13, %%r8;\n  st.global.u32 [%%rd7+28], %%r13;\n"
    "  mov.b32 %%r14, {%%rs2, %%rs3};\n  st.global.u32 [%%rd7+32], %%r14;\n"
    "  ret;\n}\n", movs, movs, movs);
  ck_assert_int_lt(n, (int)sizeof k);
  static struct gv_out a, b;
  gv_run(k, 32 * 4, 32 * 40, 0, 0, &a);
  gv_run(k, 32 * 4, 32 * 40, 0, 1, &b);
  ck_assert_msg(a.r.outcome == SIM_RAN_OK, "%s", a.r.fault.message);
  gv_same(&a, &b, "mov of a constant");
  for (uint32_t t = 0; t < 32; t++) {             /* lanes 0-11, the even ones, 16-31 moved */
    const int moved = t < 12 || !(t & 1) || (t & 16);
    uint32_t v[9];
    memcpy(v, a.dst + 40 * t, sizeof v);
    ck_assert_uint_eq(v[0], moved ? 0xdeadbeefu : t + 1);
    ck_assert_uint_eq(v[1], moved ? 0xfffffffbu : t + 2);
    ck_assert_uint_eq(v[2], moved ? 65536u : t + 3);
    ck_assert_uint_eq(v[3], moved ? 0x1234u | 1u << 16
                                  : t | (uint32_t)(t == 3) << 16 | (uint32_t)(t != 5) << 17);
    ck_assert_uint_eq(v[4], moved ? 0x9abcdef0u : t);
    ck_assert_uint_eq(v[5], moved ? 0x12345678u : 0);
    float ft = (float)t;
    uint32_t fb;
    memcpy(&fb, &ft, 4);
    ck_assert_uint_eq(v[6], moved ? 0x40490fdbu : fb);
    if (!moved)
      ck_assert_uint_eq(v[7], 2 * t + 4);
    ck_assert_uint_eq(v[8], moved ? 0xffffu : t);  /* a b16's -1 masked to 16 bits */
  }
  sim_result_free(&a.r);
  sim_result_free(&b.r);
  /* a u32 of -4 (all 64 bits of the literal's constant register set) masked to 0xfffffffc:
     [%r2+4] is then past shared memory, not its byte 0 (the same fault in both runs) */
  static const char *const k2 =
    HDR
    ".visible .entry gv(.param .u64 src, .param .u64 dst)\n{\n"
    "  .shared .align 4 .b8 s[16];\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd2, [dst];\n  mov.u32 %r2, -4;\n  ld.shared.u32 %r3, [%r2+4];\n"
    "  st.global.u32 [%rd2], %r3;\n  ret;\n}\n";
  gv_run(k2, 32 * 4, 32 * 4, 0, 0, &a);
  gv_run(k2, 32 * 4, 32 * 4, 0, 1, &b);
  ck_assert_int_ne(b.r.outcome, SIM_RAN_OK);
  ck_assert_int_eq(a.r.outcome, b.r.outcome);
  ck_assert_str_eq(a.r.fault.message, b.r.fault.message);
  sim_result_free(&a.r);
  sim_result_free(&b.r);
}
END_TEST

/* sim_warp_cstack_put against the lane loop it replaces (cstack[csp[l]][l] = t for the lanes
   of m): random masks of 32- and 64-lane warps, every lane one depth (the vector path, lanes
   7, 15, ... at the ends of its vectors among them) or some at another (the lane loop), the
   entries of the other lanes and depths random and kept; the whole stack compared. */
START_TEST(test_cstack_put_matches_lane_loop)
{
  struct sim_warp *w = calloc(1, sizeof *w);
  int16_t(*ref)[SIM_MAX_WARP] = malloc(sizeof w->cstack);
  ck_assert_ptr_nonnull(w);
  ck_assert_ptr_nonnull(ref);
  uint64_t x = 0x9e3779b97f4a7c15ull;
  unsigned vector_cases = 0;
  for (unsigned it = 0; it < 4000; it++) {
    for (unsigned d = 0; d < SIM_CSTACK; d++)
      for (unsigned l = 0; l < SIM_MAX_WARP; l++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        w->cstack[d][l] = (int16_t)(x & 0x7fff);
      }
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    uint64_t m = x;
    switch (it % 5) {                              /* dense, sparse, one lane, 32 lanes, all */
    case 1: x ^= x << 13, x ^= x >> 7, x ^= x << 17; m &= x; break;
    case 2: m = 1ull << (x % 64); break;
    case 3: m &= 0xffffffffull; break;
    case 4: m = it & 8 ? ~0ull : 0xffffffffull; break;
    default: break;
    }
    if (!m)
      m = 1ull << 7;
    const uint8_t d0 = (uint8_t)((x >> 20) % (SIM_CSTACK - 1));
    for (unsigned l = 0; l < SIM_MAX_WARP; l++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      /* lanes outside m at any depth; in m at d0, but in every third case one or a few
         lanes (possibly none of m) one deeper */
      w->csp[l] = !(m >> l & 1) ? (uint8_t)(x % SIM_CSTACK)
                  : it % 3 == 2 && x % 5 == 0 ? (uint8_t)(d0 + 1) : d0;
    }
    uint64_t same = 0;
    for (unsigned l = 0; l < SIM_MAX_WARP; l++)
      same |= (uint64_t)(w->csp[l] == w->csp[sim_ctz64(m)]) << l;
    vector_cases += !(m & ~same);
    memcpy(ref, w->cstack, sizeof w->cstack);
    const int16_t t = (int16_t)(x >> 40 & 0x3ff);
    for (uint64_t mm = m; mm; mm &= mm - 1)
      ref[w->csp[sim_ctz64(mm)]][sim_ctz64(mm)] = t;
    sim_warp_cstack_put(w, m, t);
    ck_assert_msg(!memcmp(ref, w->cstack, sizeof w->cstack),
                  "case %u: mask %#llx, t %d: stacks differ", it, (unsigned long long)m, t);
  }
  ck_assert_uint_gt(vector_cases, 1000);
  ck_assert_uint_lt(vector_cases, 3900);
  free(ref);
  free(w);
}
END_TEST

/* One run of kernel wg (one block of 48 threads: a full warp and a half one) for
   test_warp_shortcuts_match_select_group. */
static void wg_run(const char *k, enum sim_sched sched, uint64_t seed, uint64_t budget,
                   int shortcuts, struct gv_out *o)
{
  struct fx f;
  load(&f, k);
  uint64_t p[2];
  ck_assert_int_eq(sim_mem_alloc(f.d, 48 * 4, "src", 0, &p[0]), SIM_OK);
  ck_assert_int_eq(sim_mem_alloc(f.d, 48 * 4, "dst", 0, &p[1]), SIM_OK);
  memset(o->src, 0, sizeof o->src);
  memset(o->dst, 0, sizeof o->dst);
  ck_assert_int_eq(sim_write(f.d, p[1], o->dst, 48 * 4), SIM_OK);
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {48, 1, 1}, .sched = sched,
                         .workers = 1, .trace_every = 1, .trace_blocks = 1, .trace_wave = 1,
                         .max_warp_insts = budget, .order_seed = seed};
  sim_warp_shortcuts = shortcuts;
  o->st = sim_run(f.d, &f.m, "wg", p, sizeof p, &c, &f.r, f.err, sizeof f.err);
  sim_warp_shortcuts = 1;
  ck_assert_int_eq(sim_read(f.d, p[1], o->dst, 48 * 4), SIM_OK);
  o->r = f.r;
  o->p[0] = p[0];
  o->p[1] = p[1];
  o->size = 48 * 4;
  memset(&f.r, 0, sizeof f.r);
  done(&f);
}

/* The groups sim_warp.c takes at once after a divergent branch and a convergence barrier's
   release (sim_warp_take_group) against select_group choosing them (sim_warp_shortcuts 0).
   Kernel 0: a tree reduction's if without else at every step (the taken side waiting at the
   join, lane 0 on the other), then one whose taken side holds lane 0 (the first live lane:
   the side at pc + 1 is run first, but a budget report must name lane 0's pc), an if without
   else nested in another (released onto the outer barrier, whose other lanes wait), an if-else
   in a loop with an if nested in its then side joining before it (released onto the outer
   barrier), a divergent loop, lanes that exit early (the first live lane then lane 2), a
   half warp. Kernel 1: a spin lock, whose waiting lanes ITS lets past their barrier (and
   prefers), under the stack scheduler only to small budgets. Kernel 2: lanes that leave a
   loop from inside an if in it (a break), the others when the loop ends. Kernel 3: ifs with
   an else whose sides are arithmetic only (run_ifelse), lane 0 on the taken side, on the
   other, in nvcc's layout (the fall-through lanes jump to their side), one inside an if
   whose join is just after its own, one inside an if whose join is its own (control()
   then has the inner lanes wait at the outer barrier). Under ITS and the stack scheduler,
   in index order and under order seeds (turns of 1 to 256 instructions), with the default
   budget and budgets spent at many points: outcome, fault message, counters,
   per-instruction statistics, trace and memory the same. */
START_TEST(test_warp_shortcuts_match_select_group)
{
  static const char *const k[4] = {
    HDR
    ".visible .entry wg(.param .u64 src, .param .u64 dst)\n{\n"
    "  .reg .pred %p<8>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [dst];\n  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n  mov.u32 %r2, 1;\n"
    "  setp.eq.u32 %p1, %r1, 1;\n  @%p1 ret;\n"
    "  mov.u32 %r3, 1;\n"
    "STEP:\n"
    "  shl.b32 %r4, %r3, 1;\n  sub.s32 %r4, %r4, 1;\n  and.b32 %r5, %r1, %r4;\n"
    "  setp.ne.u32 %p2, %r5, 0;\n  @%p2 bra JOIN;\n"
    "  add.s32 %r2, %r2, %r3;\n  mul.lo.s32 %r2, %r2, 3;\n"
    "JOIN:\n"
    "  bar.sync 0;\n"
    "  setp.eq.u32 %p2, %r5, 0;\n  @%p2 bra BODY;\n  bra.uni JOIN2;\n"
    "BODY:\n"
    "  add.s32 %r2, %r2, 9;\n"
    "JOIN2:\n"
    "  shl.b32 %r3, %r3, 1;\n  setp.lt.u32 %p3, %r3, 64;\n  @%p3 bra STEP;\n"
    "  setp.eq.u32 %p1, %r1, 0;\n  @%p1 ret;\n"
    "  mov.u32 %r8, 0;\n"
    "  and.b32 %r9, %r1, 3;\n  setp.eq.u32 %p7, %r9, 3;\n  @%p7 bra OJOIN;\n"
    "  add.s32 %r2, %r2, 13;\n  setp.eq.u32 %p7, %r9, 2;\n  @%p7 bra IJOIN;\n"
    "  xor.b32 %r2, %r2, 3;\n"
    "IJOIN:\n"
    "  add.s32 %r2, %r2, 17;\n"
    "OJOIN:\n"
    "OUTER:\n"
    "  and.b32 %r6, %r1, 7;\n  setp.lt.u32 %p4, %r6, 3;\n  @%p4 bra ELSE;\n"
    "  add.s32 %r2, %r2, 7;\n"
    "  setp.gt.u32 %p5, %r6, 5;\n  @%p5 bra INNER;\n"
    "  xor.b32 %r2, %r2, 5;\n"
    "INNER:\n"
    "  add.s32 %r2, %r2, 11;\n  bra.uni END;\n"
    "ELSE:\n"
    "  mul.lo.s32 %r2, %r2, 5;\n"
    "END:\n"
    "  add.s32 %r8, %r8, 1;\n  setp.lt.u32 %p6, %r8, 4;\n  @%p6 bra OUTER;\n"
    "  and.b32 %r7, %r1, 3;\n"
    "LOOP:\n"
    "  add.s32 %r2, %r2, %r7;\n  sub.s32 %r7, %r7, 1;\n  setp.gt.s32 %p6, %r7, 0;\n"
    "  @%p6 bra LOOP;\n"
    "  st.global.u32 [%rd3], %r2;\n  ret;\n}\n",
    HDR
    ".visible .entry wg(.param .u64 src, .param .u64 dst)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd2, [dst];\n  mov.u32 %r1, %tid.x;\n"
    "  setp.eq.u32 %p2, %r1, 0;\n  mov.u32 %r5, 0;\n"
    "  @%p2 st.volatile.global.u32 [%rd2], %r5;\n  bar.sync 0;\n"
    "LOOP:\n"
    "  add.s32 %r5, %r5, 1;\n"
    "  ld.volatile.global.u32 %r2, [%rd2];\n  setp.ne.u32 %p1, %r2, %r1;\n  @%p1 bra LOOP;\n"
    "  add.s32 %r3, %r1, 1;\n  st.volatile.global.u32 [%rd2], %r3;\n"
    "  ret;\n}\n",
    HDR
    ".visible .entry wg(.param .u64 src, .param .u64 dst)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [dst];\n  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  mov.u32 %r2, %r1;\n  mov.u32 %r4, 0;\n  and.b32 %r5, %r1, 3;\n"
    "  and.b32 %r6, %r1, 4;\n  setp.ne.u32 %p2, %r6, 0;\n"
    "LOOP:\n"
    "  and.b32 %r7, %r4, 3;\n  setp.ne.u32 %p1, %r5, %r7;\n  @%p1 bra SKIP;\n"
    "  @%p2 bra EXIT;\n"
    "  add.s32 %r2, %r2, 5;\n"
    "SKIP:\n"
    "  mul.lo.s32 %r2, %r2, 3;\n  add.s32 %r4, %r4, 1;\n  setp.lt.u32 %p3, %r4, 6;\n"
    "  @%p3 bra LOOP;\n"
    "EXIT:\n"
    "  add.s32 %r2, %r2, %r4;\n  st.global.u32 [%rd3], %r2;\n  ret;\n}\n",
    HDR
    ".visible .entry wg(.param .u64 src, .param .u64 dst)\n{\n"
    "  .reg .pred %p<8>;\n  .reg .b32 %r<10>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [dst];\n  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  mov.u32 %r2, %r1;\n  mov.u32 %r4, 0;\n"
    "LOOP:\n"
    "  and.b32 %r5, %r1, 1;\n  setp.eq.u32 %p1, %r5, 0;\n  @%p1 bra A;\n"
    "  add.s32 %r2, %r2, 3;\n  mul.lo.s32 %r2, %r2, 5;\n  bra.uni J1;\n"
    "A:\n"
    "  xor.b32 %r2, %r2, 7;\n  add.s32 %r2, %r2, %r4;\n"
    "J1:\n"
    "  and.b32 %r6, %r1, 6;\n  setp.ne.u32 %p2, %r6, 2;\n  @%p2 bra B;\n  bra.uni C;\n"
    "B:\n"
    "  add.s32 %r2, %r2, 11;\n  bra.uni J2;\n"
    "C:\n"
    "  shl.b32 %r2, %r2, 1;\n"
    "J2:\n"
    "  setp.lt.u32 %p3, %r1, 20;\n  @%p3 bra D;\n"
    "  and.b32 %r7, %r1, 8;\n  setp.eq.u32 %p4, %r7, 0;\n  @%p4 bra E;\n"
    "  add.s32 %r2, %r2, 1;\n  bra.uni F;\n"
    "E:\n"
    "  sub.s32 %r2, %r2, 1;\n"
    "F:\n"
    "  mul.lo.s32 %r2, %r2, 3;\n"
    "D:\n"
    "  setp.gt.u32 %p3, %r1, 37;\n  @%p3 bra G;\n"
    "  and.b32 %r7, %r1, 16;\n  setp.eq.u32 %p4, %r7, 0;\n  @%p4 bra H;\n"
    "  add.s32 %r2, %r2, 5;\n  bra.uni G;\n"
    "H:\n"
    "  xor.b32 %r2, %r2, 9;\n"
    "G:\n"
    "  add.s32 %r4, %r4, 1;\n  setp.lt.u32 %p5, %r4, 5;\n  @%p5 bra LOOP;\n"
    "  st.global.u32 [%rd3], %r2;\n  ret;\n}\n",
  };
  static struct gv_out a, b;
  unsigned runs = 0, budget_faults = 0;
  for (int i = 0; i < 4; i++)
    for (int sched = 0; sched < 2; sched++)
      for (uint64_t seed = 0; seed < 3; seed++)
        for (uint64_t budget = i == 1 && sched ? 16 : 0; budget < (i == 1 ? 200 : 500);
             budget = budget ? budget + (i == 1 ? 37 : sched || seed ? 13 : 1)
                             : i == 1 ? 9000 : 16) {
          enum sim_sched sc = sched ? SIM_SCHED_STACK : SIM_SCHED_ITS;
          wg_run(k[i], sc, seed, budget, 1, &a);
          wg_run(k[i], sc, seed, budget, 0, &b);
          char what[96];
          snprintf(what, sizeof what, "kernel %d, sched %d, seed %llu, budget %llu", i, sched,
                   (unsigned long long)seed, (unsigned long long)budget);
          if (!budget && !(i == 1 && sched))
            ck_assert_msg(a.r.outcome == SIM_RAN_OK, "%s: %s", what, a.r.fault.message);
          budget_faults += a.r.outcome == SIM_BUDGET;
          gv_same(&a, &b, what);
          runs++;
          sim_result_free(&a.r);
          sim_result_free(&b.r);
        }
  ck_assert_uint_gt(budget_faults, runs / 2);
}
END_TEST

/* sim_warp_scan_group's vector pass against its lane-by-lane one (sim_warp_shortcuts 0) on
   random 32-lane warps: lanes at three pcs, stacks of convergence barriers 0 to 3 deep with
   their tops drawn from four barriers (lanes at one pc under different ones: a device
   function called from two depths of an if), candidates some lanes or all: the group, its pc
   and its barrier the same. */
START_TEST(test_scan_group_matches_lanes)
{
  struct sim_warp *w = calloc(1, sizeof *w);
  ck_assert_ptr_nonnull(w);
  uint64_t rng = 0x9E3779B97F4A7C15ull;
  unsigned split = 0;
  for (int trial = 0; trial < 4000; trial++) {
    for (unsigned l = 0; l < 32; l++) {
      w->pc[l] = 10 + (uint32_t)(sim_order_next(&rng) % 3);
      w->csp[l] = (uint8_t)(sim_order_next(&rng) % 4);
      for (unsigned d = 0; d < 3; d++)
        w->cstack[d][l] = (int16_t)(sim_order_next(&rng) % 4);
    }
    uint64_t cand = trial % 5 ? sim_order_next(&rng) & 0xffffffffull : 0xffffffffull;
    if (!cand)
      cand = 1;
    uint32_t pc[2];
    int top[2];
    uint64_t g[2];
    for (int sc = 0; sc < 2; sc++) {
      sim_warp_shortcuts = sc;
      g[sc] = sim_warp_scan_group(w, cand, &pc[sc], &top[sc]);
      sim_warp_shortcuts = 1;
    }
    ck_assert_msg(g[0] == g[1] && pc[0] == pc[1] && top[0] == top[1],
                  "trial %d: group 0x%llx pc %u top %d, lane by lane 0x%llx pc %u top %d", trial,
                  (unsigned long long)g[1], pc[1], top[1], (unsigned long long)g[0], pc[0],
                  top[0]);
    uint64_t at = 0;
    for (unsigned l = 0; l < 32; l++)
      at |= (uint64_t)((cand >> l & 1) && w->pc[l] == pc[0]) << l;
    split += g[0] != at;
  }
  ck_assert_uint_gt(split, 1000);
  free(w);
}
END_TEST

/* A tree reduction in shared memory, a bar.sync after every step, in a block of 48 threads (a
   full warp, whose 32 lanes a barrier releases together, and a half one): the whole warp's
   group taken at the release (sim_warp_rejoin32) and each step's if without else run inside
   sim_exec_run (run_skip) against select_group and control() (sim_warp_shortcuts 0), under
   ITS and the stack scheduler, in index order and under order seeds, with the default budget
   and budgets spent at many points: outcome, fault message, counters, per-instruction
   statistics, trace and memory the same; dst[t] the block's sums as the steps leave them. */
START_TEST(test_warp_shortcuts_barrier_reduction)
{
  static const char *k =
    HDR
    ".visible .entry wg(.param .u64 src, .param .u64 dst)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<4>;\n"
    "  .shared .align 4 .b8 s[512];\n"
    "  ld.param.u64 %rd1, [dst];\n  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  mov.u32 %r2, s;\n  shl.b32 %r3, %r1, 2;\n  add.u32 %r4, %r2, %r3;\n"
    "  add.u32 %r5, %r1, 1;\n  st.shared.u32 [%r4], %r5;\n"
    "  mov.u32 %r12, 0;\n  st.shared.u32 [%r4+192], %r12;\n"
    "  bar.sync 0;\n"
    "  mov.u32 %r6, 1;\n"
    "STEP:\n"
    "  shl.b32 %r7, %r6, 1;\n  sub.u32 %r7, %r7, 1;\n  and.b32 %r8, %r1, %r7;\n"
    "  setp.ne.u32 %p1, %r8, 0;\n  @%p1 bra JOIN;\n"
    "  shl.b32 %r9, %r6, 2;\n  add.u32 %r9, %r4, %r9;\n"
    "  ld.shared.u32 %r10, [%r4];\n  ld.shared.u32 %r11, [%r9];\n"
    "  add.u32 %r10, %r10, %r11;\n  st.shared.u32 [%r4], %r10;\n"
    "JOIN:\n"
    "  bar.sync 0;\n"
    "  shl.b32 %r6, %r6, 1;\n  setp.lt.u32 %p2, %r6, 64;\n  @%p2 bra STEP;\n"
    "  ld.shared.u32 %r10, [%r4];\n  st.global.u32 [%rd3], %r10;\n"
    "  ret;\n}\n";
  static struct gv_out a, b;
  unsigned runs = 0, budget_faults = 0;
  for (int sched = 0; sched < 2; sched++)
    for (uint64_t seed = 0; seed < 3; seed++)
      for (uint64_t budget = 0; budget < 700; budget = budget ? budget + 11 : 16) {
        enum sim_sched sc = sched ? SIM_SCHED_STACK : SIM_SCHED_ITS;
        wg_run(k, sc, seed, budget, 1, &a);
        wg_run(k, sc, seed, budget, 0, &b);
        char what[96];
        snprintf(what, sizeof what, "sched %d, seed %llu, budget %llu", sched,
                 (unsigned long long)seed, (unsigned long long)budget);
        if (!budget) {
          ck_assert_msg(a.r.outcome == SIM_RAN_OK, "%s: %s", what, a.r.fault.message);
          /* thread t holds the sum of 1 + t .. 1 + t + 2^z - 1 (z: t's trailing zeros, at
             most 6) over the threads there are, the rest of the words 0 */
          for (uint32_t t = 0; t < 48; t++) {
            uint32_t span = t ? 1u << __builtin_ctz(t) : 64, want = 0;
            if (span > 64)
              span = 64;
            for (uint32_t u = t; u < t + span && u < 48; u++)
              want += u + 1;
            uint32_t got;
            memcpy(&got, a.dst + 4 * t, 4);
            ck_assert_msg(got == want, "%s: thread %u: %u, want %u", what, t, got, want);
          }
        }
        budget_faults += a.r.outcome == SIM_BUDGET;
        gv_same(&a, &b, what);
        runs++;
        sim_result_free(&a.r);
        sim_result_free(&b.r);
      }
  ck_assert_uint_gt(budget_faults, runs / 2);
}
END_TEST

/* __syncwarp() (bar.warp.sync) by a whole warp's group and a half warp's (16 live lanes), its
   mask in a register and an immediate (released at once: the group steps past it and goes on
   as one, control()'s shortcut), and inside both sides of an if-else, where each side waits at its
   own for the other and a convergence barrier is open, and one side's lanes sync among
   themselves (__activemask()) under that barrier (control()'s general path), in a block
   of 48 threads, against control() with no shortcut (sim_warp_shortcuts 0), under ITS and the
   stack scheduler, in index order and under order seeds, with the default budget and budgets
   spent at many points: outcome, fault message, counters, per-instruction statistics, trace
   and memory the same; dst[t] as three rounds of r = (r + 3) * 5 + (t odd ? 7 : 9) from t. */
START_TEST(test_warp_shortcuts_syncwarp)
{
  static const char *k =
    HDR
    ".visible .entry wg(.param .u64 src, .param .u64 dst)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [dst];\n  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  mov.u32 %r2, %r1;\n  mov.u32 %r6, 0;\n  mov.u32 %r9, -1;\n"
    "LOOP:\n"
    "  add.u32 %r2, %r2, 3;\n  bar.warp.sync %r9;\n"
    "  mul.lo.u32 %r2, %r2, 5;\n  bar.warp.sync -1;\n"
    "  and.b32 %r3, %r1, 1;\n  setp.eq.u32 %p1, %r3, 0;\n  @%p1 bra EVEN;\n"
    "  add.u32 %r2, %r2, 7;\n  bar.warp.sync %r9;\n  bra.uni JOIN;\n"
    "EVEN:\n"
    "  add.u32 %r2, %r2, 9;\n  activemask.b32 %r11;\n  bar.warp.sync %r11;\n"
    "  bar.warp.sync %r9;\n"
    "JOIN:\n"
    "  add.u32 %r6, %r6, 1;\n  setp.lt.u32 %p2, %r6, 3;\n  @%p2 bra LOOP;\n"
    "  st.global.u32 [%rd3], %r2;\n  ret;\n}\n";
  static struct gv_out a, b;
  unsigned runs = 0, budget_faults = 0;
  for (int sched = 0; sched < 2; sched++)
    for (uint64_t seed = 0; seed < 3; seed++)
      for (uint64_t budget = 0; budget < 160; budget = budget ? budget + 7 : 4) {
        enum sim_sched sc = sched ? SIM_SCHED_STACK : SIM_SCHED_ITS;
        wg_run(k, sc, seed, budget, 1, &a);
        wg_run(k, sc, seed, budget, 0, &b);
        char what[96];
        snprintf(what, sizeof what, "sched %d, seed %llu, budget %llu", sched,
                 (unsigned long long)seed, (unsigned long long)budget);
        if (!budget) {
          ck_assert_msg(a.r.outcome == SIM_RAN_OK, "%s: %s", what, a.r.fault.message);
          for (uint32_t t = 0; t < 48; t++) {
            uint32_t want = t, got;
            for (int i = 0; i < 3; i++)
              want = (want + 3) * 5 + (t & 1 ? 7 : 9);
            memcpy(&got, a.dst + 4 * t, 4);
            ck_assert_msg(got == want, "%s: thread %u: %u, want %u", what, t, got, want);
          }
        }
        budget_faults += a.r.outcome == SIM_BUDGET;
        gv_same(&a, &b, what);
        runs++;
        sim_result_free(&a.r);
        sim_result_free(&b.r);
      }
  ck_assert_uint_gt(budget_faults, runs / 2);
}
END_TEST

/* Two bar.sync instructions with a thread count, one on each side of a branch that never
   joins (each side ends the thread), so that no convergence barrier is open: both halves of
   each warp arrive at barrier 0, at different instructions, and the count releases them
   together; each lane goes on after its own (not the warp's first lane's, which the whole
   warp's shortcut at a release, sim_warp_rejoin32, would take), with shortcuts and without:
   out[t] = t & 16 ? 222 : 111. */
START_TEST(test_barrier_release_mixed_pcs)
{
  static const char *k =
    HDR
    ".visible .entry mx(.param .u64 out)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  and.b32 %r2, %r1, 16;\n  setp.ne.u32 %p1, %r2, 0;\n  @%p1 bra B;\n"
    "  bar.sync 0, 64;\n  mov.u32 %r3, 111;\n  st.global.u32 [%rd3], %r3;\n  ret;\n"
    "B:\n"
    "  bar.sync 0, 64;\n  mov.u32 %r3, 222;\n  st.global.u32 [%rd3], %r3;\n  ret;\n}\n";
  struct sim_result r[2];
  uint32_t got[2][64];
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {64, 1, 1}, .workers = 1};
  run_switched(k, "mx", &c, &sim_warp_shortcuts, r, got[0], got[1], sizeof got[0]);
  for (int i = 0; i < 2; i++) {
    ck_assert_msg(r[i].outcome == SIM_RAN_OK, "%s", r[i].fault.message);
    for (uint32_t t = 0; t < 64; t++)
      ck_assert_uint_eq(got[i][t], t & 16 ? 222u : 111u);
    sim_result_free(&r[i]);
  }
}
END_TEST

/* A block that leaves a cp.async copy queued (committed, never waited for) on one worker, and
   the next block on the same warps: its wait_all finds its own queue empty (sim_warp_init
   empties it after a block that issued copies), so its word keeps the 5 it stored, not the
   first block's copy of src[0] (77). */
START_TEST(test_async_queue_emptied_per_block)
{
  static const char *k =
    HDR
    ".visible .entry aq(.param .u64 src, .param .u64 dst)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n"
    "  .shared .align 4 .u32 s;\n"
    "  ld.param.u64 %rd1, [src];\n  ld.param.u64 %rd2, [dst];\n"
    "  mov.u32 %r1, %ctaid.x;\n  mov.u32 %r2, %tid.x;\n"
    "  setp.ne.u32 %p1, %r2, 0;\n  @%p1 bra END;\n"
    "  mov.u32 %r3, s;\n"
    "  setp.ne.u32 %p2, %r1, 0;\n  @%p2 bra SECOND;\n"
    "  cp.async.ca.shared.global [%r3], [%rd1], 4;\n  cp.async.commit_group;\n"
    "  bra.uni END;\n"
    "SECOND:\n"
    "  mov.u32 %r4, 5;\n  st.shared.u32 [%r3], %r4;\n  cp.async.wait_all;\n"
    "  ld.shared.u32 %r5, [%r3];\n  st.global.u32 [%rd2], %r5;\n"
    "END:\n  ret;\n}\n";
  struct fx f;
  load(&f, k);
  uint64_t p[2] = {buffer(&f, 4, "src"), buffer(&f, 4, "dst")};
  const uint32_t v = 77;
  ck_assert_int_eq(sim_write(f.d, p[0], &v, 4), SIM_OK);
  ck_assert_int_eq(launch(&f, "aq", 2, 32, p, 2, SIM_SCHED_ITS, 1, 0), SIM_OK);
  ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
  uint32_t got;
  ck_assert_int_eq(sim_read(f.d, p[1], &got, 4), SIM_OK);
  ck_assert_uint_eq(got, 5);
  done(&f);
}
END_TEST

/* sim_warp_take_group takes a group only where select_group would choose the same one next
   and a budget report would name the same pc: refused when other lanes could run, when a
   lane is preferred, when the first live lane is not in it (the report would name that
   lane's pc, not the group's); taken otherwise, w's group then m at pc under top. */
START_TEST(test_take_group_refuses_other_choices)
{
  struct sim_warp *w = calloc(1, sizeof *w);
  ck_assert_ptr_nonnull(w);
  static const struct {
    uint64_t live, cwait, barwait, prefer, m;
    int taken;
  } c[] = {
    {0xffffffffull, 0x2, 0, 0, 0xfffffffdull, 1},       /* lane 1 waits: the rest */
    {0xffffffffull, 0x1, 0, 0, 0xfffffffeull, 0},       /* lane 0, the first live, waits */
    {0xfffffffcull, 0x4, 0, 0, 0xfffffff8ull, 0},       /* lanes 0-1 exited, lane 2 waits */
    {0xfffffffcull, 0x8, 0, 0, 0xfffffff4ull, 1},       /* ... lane 3 waits */
    {0xffffffffull, 0x2, 0, 0, 0x0000fffdull, 0},       /* lanes 16-31 could run too */
    {0xffffffffull, 0x2, 0xffff0000ull, 0, 0x0000fffdull, 1}, /* they wait at a bar.sync */
    {0xffffffffull, 0x2, 0, 0x4, 0xfffffffdull, 0},     /* lane 2 is preferred */
    {0xffffffffull, 0x2, 0, 0x2, 0xfffffffdull, 1},     /* the preferred lane waits */
    {0xffffffffull, 0, 0, 0, 0, 0},                     /* no lanes */
  };
  for (unsigned i = 0; i < sizeof c / sizeof *c; i++) {
    memset(w, 0, sizeof *w);
    w->live = c[i].live;
    w->cwait = c[i].cwait;
    w->barwait = c[i].barwait;
    w->prefer = c[i].prefer;
    w->gmask = 5;
    w->gpc = 7;
    w->gtop = -1;
    ck_assert_int_eq(sim_warp_take_group(w, c[i].m, 40, 3), c[i].taken);
    ck_assert_int_eq(w->have_group, c[i].taken);
    ck_assert_uint_eq(w->gmask, c[i].taken ? c[i].m : 5);
    ck_assert_uint_eq(w->gpc, c[i].taken ? 40 : 7);
    ck_assert_int_eq(w->gtop, c[i].taken ? 3 : -1);
    ck_assert_uint_eq(w->prefer, c[i].taken ? 0 : c[i].prefer);
  }
  sim_warp_shortcuts = 0;                           /* the tests' switch: never taken */
  memset(w, 0, sizeof *w);
  w->live = 0xffffffffull;
  ck_assert_int_eq(sim_warp_take_group(w, 0xffffffffull, 40, -1), 0);
  sim_warp_shortcuts = 1;
  free(w);
}
END_TEST

/* sim_warp_skip_ok lets sim_exec_run run an if without else itself only where control()
   would split the group and take its sides as groups of their own, each step a shortcut
   take_group takes, with no fault: refused when lanes outside the group could run, when a
   lane that falls through is preferred, when the first live lane takes the branch, when no
   lane or every lane takes it, when the group's top barrier is at the target, when no
   barrier slot is free or a lane's stack is full, when the warp has no group, and under the
   tests' switch. */
START_TEST(test_skip_ok_refuses_other_choices)
{
  struct sim_warp *w = calloc(1, sizeof *w);
  ck_assert_ptr_nonnull(w);
  enum { NONE, GTOP_AT, GTOP_ELSE, SLOTS_FULL, SLOT_FREE, STACK_FULL, STACK_E, NO_GROUP };
  static const struct {
    uint64_t live, g, e, barwait, cwait, prefer;
    int other, ok;
  } c[] = {
    {0xffffffffull, 0xffffffffull, 0xaaaaaaaaull, 0, 0, 0, NONE, 1},   /* odd lanes skip */
    {0xffffffffull, 0xffffffffull, 0xfffffffeull, 0, 0, 0, NONE, 1},   /* all but lane 0 */
    {0xffffffffull, 0xffffffffull, 0, 0, 0, 0, NONE, 0},               /* none take it */
    {0xffffffffull, 0xffffffffull, 0xffffffffull, 0, 0, 0, NONE, 0},   /* every lane */
    {0xffffffffull, 0xffffffffull, 0x55555555ull, 0, 0, 0, NONE, 0},   /* lane 0 takes it */
    {0xfffffffeull, 0xfffffffeull, 0x55555554ull, 0, 0, 0, NONE, 1},   /* lane 0 exited */
    {0xffffffffull, 0x0000ffffull, 0x0000aaaaull, 0, 0, 0, NONE, 0},   /* 16-31 could run */
    {0xffffffffull, 0x0000ffffull, 0x0000aaaaull, 0xffff0000ull, 0, 0, NONE, 1},
    {0xffffffffull, 0x0000ffffull, 0x0000aaaaull, 0, 0xffff0000ull, 0, NONE, 1},
    {0xffffffffull, 0xffffffffull, 0xaaaaaaaaull, 0, 0, 0x4, NONE, 0}, /* lane 2 preferred */
    {0xffffffffull, 0xffffffffull, 0xaaaaaaaaull, 0, 0, 0x2, NONE, 1}, /* lane 1: it skips */
    {0xffffffffull, 0xffffffffull, 0xaaaaaaaaull, 0, 0, 0, GTOP_AT, 0},
    {0xffffffffull, 0xffffffffull, 0xaaaaaaaaull, 0, 0, 0, GTOP_ELSE, 1},
    {0xffffffffull, 0xffffffffull, 0xaaaaaaaaull, 0, 0, 0, SLOTS_FULL, 0},
    {0xffffffffull, 0xffffffffull, 0xaaaaaaaaull, 0, 0, 0, SLOT_FREE, 1},
    {0xffffffffull, 0xffffffffull, 0xaaaaaaaaull, 0, 0, 0, STACK_FULL, 0},
    {0xffffffffull, 0xffffffffull, 0xaaaaaaaaull, 0, 0, 0, STACK_E, 0}, /* a skipping lane's */
    {0xffffffffull, 0xffffffffull, 0xaaaaaaaaull, 0, 0, 0, NO_GROUP, 0},
  };
  const uint32_t target = 40;
  for (unsigned i = 0; i < sizeof c / sizeof *c; i++) {
    memset(w, 0, sizeof *w);
    w->live = c[i].live;
    w->gmask = c[i].g;
    w->barwait = c[i].barwait;
    w->cwait = c[i].cwait;
    w->prefer = c[i].prefer;
    w->have_group = c[i].other != NO_GROUP;
    w->gtop = -1;
    if (c[i].other == GTOP_AT || c[i].other == GTOP_ELSE) {
      w->ncbar = 3;
      w->gtop = 2;
      w->cbar[2].pc = c[i].other == GTOP_AT ? target : target + 5;
      w->cbar[2].expect = c[i].g;
    }
    if (c[i].other == SLOTS_FULL || c[i].other == SLOT_FREE) {
      w->ncbar = SIM_NCBAR;
      for (unsigned t = 0; t < SIM_NCBAR; t++)
        w->cbar[t].expect = t == SIM_NCBAR - 1 && c[i].other == SLOT_FREE ? 0 : 1;
    }
    if (c[i].other == STACK_FULL || c[i].other == STACK_E)
      w->csp[c[i].other == STACK_FULL ? 2 : 3] = SIM_CSTACK;
    ck_assert_msg(sim_warp_skip_ok(w, c[i].e, target) == c[i].ok, "case %u", i);
  }
  memset(w, 0, sizeof *w);
  w->live = w->gmask = 0xffffffffull;
  w->have_group = 1;
  w->gtop = -1;
  ck_assert_int_eq(sim_warp_skip_ok(w, 0xaaaaaaaaull, target), 1);
  sim_warp_shortcuts = 0;                           /* the tests' switch: never */
  ck_assert_int_eq(sim_warp_skip_ok(w, 0xaaaaaaaaull, target), 0);
  sim_warp_shortcuts = 1;
  free(w);
}
END_TEST

/* An if without else whose lanes sim_exec_run runs through itself (run_skip) against
   control() splitting them (sim_warp_shortcuts 0), in clusters of two blocks of 64 threads:
   bodies that stop before their target at a shared::cluster load of the other block's word
   (sim_exec's to run: the lanes go on split, as control() split them), one at its first
   instruction, one after three, and a body whose own shared load is out of bounds from lane 4
   on (the fault sim_exec reports, the same one). Outcome, fault, counters, per-instruction statistics and
   memory the same; the values as the kernel computes them: lanes 4k get
   (12 + own + other's) * 3, odd lanes the other's word more. */
START_TEST(test_fast_path_if_skip_stops)
{
  for (int bad = 0; bad < 2; bad++) {
    char k[2048];
    snprintf(k, sizeof k,
             HDR
             ".visible .entry sk(.param .u64 po)\n"
             ".explicitcluster\n.reqnctapercluster 2, 1, 1\n"
             "{\n"
             "  .reg .pred %%p<4>;\n  .reg .b32 %%r<24>;\n  .reg .b64 %%rd<8>;\n"
             "  .shared .align 4 .b8 s[256];\n"
             "  ld.param.u64 %%rd1, [po];\n"
             "  mov.u32 %%r1, %%tid.x;\n  mov.u32 %%r2, %%cluster_ctarank;\n"
             "  mov.u32 %%r3, s;\n  shl.b32 %%r4, %%r1, 2;\n  add.u32 %%r5, %%r3, %%r4;\n"
             "  mad.lo.u32 %%r6, %%r2, 1000, %%r1;\n  st.shared.u32 [%%r5], %%r6;\n"
             "  barrier.cluster.arrive.aligned;\n  barrier.cluster.wait.aligned;\n"
             "  xor.b32 %%r7, %%r2, 1;\n  mapa.shared::cluster.u32 %%r8, %%r5, %%r7;\n"
             "  mov.u32 %%r9, 7;\n"
             "  and.b32 %%r10, %%r1, 3;\n  setp.ne.u32 %%p1, %%r10, 0;\n  @%%p1 bra JOIN;\n"
             "  add.u32 %%r9, %%r9, 5;\n  ld.shared.u32 %%r11, [%%r5+%d];\n"
             "  add.u32 %%r9, %%r9, %%r11;\n"
             "  ld.shared::cluster.u32 %%r12, [%%r8];\n  add.u32 %%r9, %%r9, %%r12;\n"
             "  mul.lo.u32 %%r9, %%r9, 3;\n"
             "JOIN:\n"
             "  and.b32 %%r15, %%r1, 1;\n  setp.eq.u32 %%p2, %%r15, 0;\n  @%%p2 bra J2;\n"
             "  ld.shared::cluster.u32 %%r16, [%%r8];\n  add.u32 %%r9, %%r9, %%r16;\n"
             "J2:\n"
             "  barrier.cluster.arrive.aligned;\n  barrier.cluster.wait.aligned;\n"
             "  mov.u32 %%r13, %%ctaid.x;\n  mad.lo.u32 %%r14, %%r13, 64, %%r1;\n"
             "  mul.wide.u32 %%rd2, %%r14, 4;\n  add.s64 %%rd3, %%rd1, %%rd2;\n"
             "  st.global.u32 [%%rd3], %%r9;\n"
             "  ret;\n}\n",
             bad ? 240 : 0);
    struct sim_result r[2];
    uint32_t got[2][128];
    struct sim_launch c = {.grid = {2, 1, 1}, .block = {64, 1, 1}, .workers = 1};
    run_switched(k, "sk", &c, &sim_warp_shortcuts, r, got[0], got[1], sizeof got[0]);
    ck_assert_int_eq(r[0].outcome, r[1].outcome);
    ck_assert_int_eq(r[1].outcome, bad ? SIM_FAULT : SIM_RAN_OK);
    ck_assert_int_eq(r[0].fault.kind, r[1].fault.kind);
    ck_assert_uint_eq(r[0].fault.lane, r[1].fault.lane);
    ck_assert_uint_eq(r[0].fault.inst, r[1].fault.inst);
    ck_assert_str_eq(r[0].fault.message, r[1].fault.message);
    if (bad)
      ck_assert_msg(r[1].fault.lane % 4 == 0 && strstr(r[1].fault.message, "out of bounds"),
                    "%s", r[1].fault.message);
    ck_assert(!memcmp(&r[0].counters, &r[1].counters, sizeof r[0].counters));
    ck_assert_uint_eq(r[0].nstats, r[1].nstats);
    for (uint32_t i = 0; i < r[0].nstats; i++)
      ck_assert_msg(!memcmp(&r[0].stats[i], &r[1].stats[i], sizeof *r[0].stats),
                    "statistics of instruction %u", i);
    ck_assert(!memcmp(got[0], got[1], sizeof got[0]));
    for (uint32_t t = 0; t < 128 && !bad; t++) {
      const uint32_t l = t % 64, rank = t / 64, own = rank * 1000 + l,
                     other = (rank ^ 1) * 1000 + l;
      const uint32_t want = (l % 4 ? 7 : (12 + own + other) * 3) + (l % 2 ? other : 0);
      ck_assert_msg(got[1][t] == want, "thread %u: %u, want %u", t, got[1][t], want);
    }
    sim_result_free(&r[0]);
    sim_result_free(&r[1]);
  }
}
END_TEST

/* test_fast_path_shared_partial_bounds for the few-lane masks (at most 16 lanes: the bounds
   checked lane by lane, addrs_ok_sparse_avx2) and those just over: one to 17 lanes of a warp
   load or store shared memory, each at an offset of its own, the last word (124) among the
   good ones; out of bounds or misaligned in lanes that do not run it is no fault, in one
   that does the fault is the lowest such lane's. */
START_TEST(test_fast_path_shared_sparse_bounds)
{
  shared_bounds_trials(0x13198A2E03707344ull, 400, 1);
}
END_TEST

/* Lanes a __syncwarp releases onto the join of the if they are in (bar.warp.sync, then the
   join's pc: arrive's lanes, with a convergence barrier open) wait there for the other side,
   and the join runs once for the whole warp: counted exactly, under ITS and the stack
   scheduler; a second __syncwarp after the join, by lanes with no barrier open, goes on. */
START_TEST(test_syncwarp_onto_a_join)
{
  const char *k =
    HDR
    ".visible .entry sj(.param .u64 p)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<6>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, 0;\n"
    "  setp.ge.u32 %p1, %r1, 16;\n"
    "  @%p1 bra JOIN;\n"
    "  add.s32 %r2, %r1, 1;\n"
    "  bar.warp.sync 65535;\n"
    "JOIN:\n"
    "  add.s32 %r3, %r2, %r1;\n"
    "  bar.warp.sync -1;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r3;\n"
    "  ret;\n}\n";
  for (int s = 0; s < 2; s++) {
    struct fx f;
    load(&f, k);
    uint64_t a = buffer(&f, 32 * 4, "out");
    ck_assert_int_eq(launch(&f, "sj", 1, 32, &a, 1, s ? SIM_SCHED_STACK : SIM_SCHED_ITS, 1, 0),
                     SIM_OK);
    ck_assert_msg(f.r.outcome == SIM_RAN_OK, "%s", f.r.fault.message);
    ck_assert_uint_eq(f.r.counters.warp_insts, 5 + 2 + 6);
    ck_assert_uint_eq(f.r.counters.thread_insts, 5 * 32 + 2 * 16 + 6 * 32);
    uint32_t out[32];
    ck_assert_int_eq(sim_read(f.d, a, out, sizeof out), SIM_OK);
    for (uint32_t l = 0; l < 32; l++)
      ck_assert_uint_eq(out[l], l < 16 ? 2 * l + 1 : l);
    done(&f);
  }
}
END_TEST

Suite *suite_sim(void)
{
  Suite *s = suite_create("sim");
  TCase *t = tcase_create("core");
  tcase_set_timeout(t, 60);
  tcase_add_test(t, test_store_ok);
  tcase_add_loop_test(t, test_store_marks_written, 0, sizeof mark_cases / sizeof mark_cases[0]);
  tcase_add_test(t, test_recursion_takes_ptxas_frames);
  tcase_add_test(t, test_full_warp_fast_paths);
  tcase_add_test(t, test_state_digest_follows_device_vars);
  tcase_add_test(t, test_host_cores_affinity);
  tcase_add_test(t, test_tensor_map_encode);
  tcase_add_test(t, test_race_between_warps);
  tcase_add_test(t, test_race_within_a_warp);
  tcase_add_test(t, test_uninitialised_shared_read);
  tcase_add_test(t, test_same_value_stores_are_no_race);
  tcase_add_test(t, test_race_warp_wide_reads);
  tcase_add_test(t, test_fast_path_matches_sim_exec);
  tcase_add_test(t, test_fast_path_min_max);
  tcase_add_test(t, test_fast_path_int64);
  tcase_add_test(t, test_fast_path_new_kinds);
  tcase_add_test(t, test_fast_path_more_kinds);
  tcase_add_test(t, test_fast_path_idiv_random);
  tcase_add_test(t, test_fast_path_setp_f32);
  tcase_add_test(t, test_fast_path_sregs_params);
  tcase_add_test(t, test_fast_path_shared_oob);
  tcase_add_test(t, test_fast_path_shared_partial_bounds);
  tcase_add_test(t, test_fast_path_shared_symbol);
  tcase_add_test(t, test_fast_path_shared_wavefronts);
  tcase_add_test(t, test_shared_stats_affine);
  tcase_add_test(t, test_shared_stats_rows);
  tcase_add_test(t, test_shared_stats_wide);
  tcase_add_test(t, test_trace_mem_ordered);
  tcase_add_test(t, test_sort_u64_matches_qsort);
  tcase_add_test(t, test_shared_part_bounds);
  tcase_add_test(t, test_touch_span_guess);
  tcase_add_test(t, test_touch_scattered_keys);
  tcase_add_test(t, test_touch_strided_span_keys);
  tcase_add_test(t, test_touch_scattered_past_hint);
  tcase_add_test(t, test_global_stats_ordered);
  tcase_add_test(t, test_atomic_stats);
  tcase_add_test(t, test_touch_now_key);
  tcase_add_test(t, test_touch_hint_shared_line);
  tcase_add_test(t, test_wave64_full_halves);
  tcase_add_test(t, test_fast_path_global_strided);
  tcase_add_test(t, test_fast_plan_setp_no_branch);
  tcase_add_test(t, test_fast_path_branches);
  tcase_add_test(t, test_race_warp_reads_one_word);
  tcase_add_test(t, test_race_warp_strided_stores);
  tcase_add_test(t, test_race_pairs_pass_match_general_path);
  tcase_add_test(t, test_fast_path_global);
  tcase_add_test(t, test_fast_path_vectors);
  tcase_add_test(t, test_fast_path_partial_warps);
  tcase_add_test(t, test_shfl_fast_matches_sim_exec);
  tcase_add_test(t, test_collectives_in_runs_match_control);
  tcase_add_test(t, test_shared_distinct_words_match_lanes);
  tcase_add_test(t, test_global_race_within_a_block);
  tcase_add_test(t, test_global_race_coalesced_chunks);
  tcase_add_test(t, test_global_race_lines);
  tcase_add_test(t, test_global_race_lines_overlap);
  tcase_add_test(t, test_global_race_lines_full);
  tcase_add_test(t, test_race_warp_wide_own_writes);
  tcase_add_test(t, test_race_warp_sync_own_writes);
  tcase_add_test(t, test_race_warp_wide_own_writes_lanes);
  tcase_add_test(t, test_race_partial_warp_reads);
  tcase_add_test(t, test_sync_masks);
  tcase_add_test(t, test_sync_masks_uniform_match_lanes);
  tcase_add_test(t, test_oob_write_report);
  tcase_add_test(t, test_wild_pointer_report);
  tcase_add_test(t, test_fault_lowest_block);
  tcase_add_test(t, test_fault_keeps_serial_counters);
  tcase_add_test(t, test_tally_orders);
  tcase_add_test(t, test_fault_keeps_serial_warnings);
  tcase_add_test(t, test_misaligned_and_readonly);
  tcase_add_test(t, test_shared_and_local_bounds);
  tcase_add_test(t, test_reconvergence_counts);
  tcase_add_test(t, test_nested_reconvergence_counts);
  tcase_add_test(t, test_spinlock_its_completes);
  tcase_add_test(t, test_spinlock_stack_deadlocks);
  tcase_add_test(t, test_cas_lock_stack_deadlocks);
  tcase_add_test(t, test_cas_lock_its_completes);
  tcase_add_test(t, test_unchanged_writes_are_not_progress);
  tcase_add_test(t, test_pending_side_of_a_branch);
  tcase_add_test(t, test_deadlock_names_only_the_looping_lane);
  tcase_add_test(t, test_barrier_divergence);
  tcase_add_test(t, test_barrier_count_deadlock);
  tcase_add_test(t, test_budget);
  tcase_add_test(t, test_interblock_budget_names_first_waiter);
  tcase_add_test(t, test_claims_start_blocks_in_order);
  tcase_add_test(t, test_parallel_equals_serial);
  tcase_add_test(t, test_held_worker);
  tcase_add_test(t, test_launch_in_forked_child);
  tcase_add_test(t, test_crew_reused);
  tcase_add_test(t, test_crew_threads_end);
  tcase_add_test(t, test_crew_forked_child);
  tcase_add_test(t, test_crew_runs_where_its_launch_may);
  tcase_add_test(t, test_crew_two_callers);
  tcase_add_test(t, test_call);
  tcase_add_test(t, test_wave64);
  tcase_add_test(t, test_smem_size_registers);
  tcase_add_test(t, test_wave64_votes_and_segments);
  tcase_add_test(t, test_bad_launch);
  tcase_add_test(t, test_zero_plan);
  tcase_add_test(t, test_zero_plan_collectives);
  tcase_add_test(t, test_unwritten_registers_read_zero);
  tcase_add_test(t, test_guarded_param_load);
  tcase_add_test(t, test_barrier_at_two_instructions);
  tcase_add_test(t, test_barrier_count_warp_order);
  tcase_add_test(t, test_grid_sync_one_host_thread);
  tcase_add_test(t, test_cooperative_grid_too_large);
  tcase_add_test(t, test_cluster_dsmem_and_barrier);
  tcase_add_test(t, test_launch_cluster_past_portable_refused);
  tcase_add_test(t, test_heap_allocator);
  tcase_add_test(t, test_freed_buffer_memory_kept);
  tcase_add_test(t, test_keep_buffers_cleared);
  tcase_add_test(t, test_launch_storage_kept_fresh);
  tcase_add_test(t, test_heap_across_launches);
  tcase_add_test(t, test_big_buffers);
  tcase_add_test(t, test_touch_keys_line_up);
  tcase_add_test(t, test_race_lane_shortcuts_match_general_path);
  tcase_add_test(t, test_race_reduce_reads_match_general_path);
  tcase_add_test(t, test_race_fill_matches_memset);
  tcase_add_test(t, test_race_fill_skip_matches_fill);
  tcase_add_test(t, test_global_lines_new_match_line_store);
  tcase_add_test(t, test_shared_reads_quiet_match_lanes);
  tcase_add_test(t, test_shared_wide_match_lanes);
  tcase_add_test(t, test_shared_atomics_quiet_match_lanes);
  tcase_add_test(t, test_shared_reads_sequences_match_lanes);
  tcase_add_test(t, test_shared_reads_join_bytes);
  tcase_add_test(t, test_cvt_full_matches_lanes);
  tcase_add_test(t, test_vfp_matches_sim_alu);
  tcase_add_test(t, test_vfp_transcendentals_match_libm);
  tcase_add_test(t, test_vhalf_matches_sim_alu);
  tcase_add_test(t, test_mov_pack_unpack);
  tcase_add_test(t, test_bit_ops_match_sim_alu);
  tcase_add_test(t, test_int_cvt_small_match_sim_alu);
  tcase_add_test(t, test_int16_ops_match_sim_alu);
  tcase_add_test(t, test_prmt_matches_sim_alu);
  tcase_add_test(t, test_dp4a_matches_sim_alu);
  tcase_add_test(t, test_shared_atomic_adds_match_lanes);
  tcase_add_test(t, test_global_atomics_match_lanes);
  tcase_add_test(t, test_global_atomic_into_operand);
  tcase_add_test(t, test_held_adds_match_direct);
  tcase_add_test(t, test_float_atomics_flush_in_global);
  tcase_add_test(t, test_global_words_new_match_general_path);
  tcase_add_test(t, test_global_subword_stores_match_general_path);
  tcase_add_test(t, test_global_subword_lines_match_general_path);
  tcase_add_test(t, test_global_subword_lines_cases);
  tcase_add_test(t, test_global_subword_stats);
  tcase_add_test(t, test_global_subword_lines_full);
  tcase_add_test(t, test_global_vector_loads_match_general_path);
  tcase_add_test(t, test_global_stores_words_match_general_path);
  tcase_add_test(t, test_global_words_new_leave_lines);
  tcase_add_test(t, test_fast_path_setp_guard);
  tcase_add_test(t, test_fast_path_mov_const);
  tcase_add_test(t, test_cstack_put_matches_lane_loop);
  tcase_add_test(t, test_warp_shortcuts_match_select_group);
  tcase_add_test(t, test_scan_group_matches_lanes);
  tcase_add_test(t, test_warp_shortcuts_barrier_reduction);
  tcase_add_test(t, test_barrier_release_mixed_pcs);
  tcase_add_test(t, test_warp_shortcuts_syncwarp);
  tcase_add_test(t, test_async_queue_emptied_per_block);
  tcase_add_test(t, test_take_group_refuses_other_choices);
  tcase_add_test(t, test_skip_ok_refuses_other_choices);
  tcase_add_test(t, test_fast_path_if_skip_stops);
  tcase_add_test(t, test_fast_path_shared_sparse_bounds);
  tcase_add_test(t, test_syncwarp_onto_a_join);
  suite_add_tcase(s, t);
  return s;
}
