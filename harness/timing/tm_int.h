/* tm_int.h: the timing model's internal pieces, shared by the files of harness/timing only.
 *
 * tm_inst (what an instruction costs) and tm_mem (caches and bandwidth) are used by tm_sm
 * (one SM, cycle by cycle), which tm.c (plan, extrapolation, report) drives.
 */
#ifndef WARPLAB_TM_INT_H
#define WARPLAB_TM_INT_H

#include <stddef.h>
#include <stdint.h>

#include "timing/tm.h"

/* ---- instruction costs (tm_inst.c) ---- */
struct tm_costs {
  uint32_t fma, alu, sfu, fp64, shfl, smem, l1, l2, dram;   /* latencies, cycles */
  uint32_t dram_loaded;                                     /* more DRAM latency at full load */
  uint32_t i_fp32, i_int, i_fp64, i_sfu;                    /* issue intervals, cycles */
  uint32_t barrier, block_launch, l1_sectors;
  uint32_t tensor, tensor_fma;      /* mma: latency, and f16 multiply-adds a cycle per
                                       sub-partition's tensor core */
  double block_dispatch;                                    /* GPU-wide, cycles per block */
  double atom_sector, atom_dup, atom_same_int, atom_same_float; /* the L2 atomic unit */
  uint32_t dram_access;     /* bytes DRAM moves at least per access: 32 (a sector) or 64 */
  uint32_t l1_fill;         /* bytes a global load's L1 miss moves from the L2: 32 (the
                               sectors asked for) or a whole line (Fermi's 128) */
  uint32_t l1_miss_lines;   /* with whole-line fills: line misses an SM's L1 keeps in flight
                               (0: no limit) */
  double l2_partial_store;  /* L2 bandwidth, in bytes, of a store's write of part of a sector */
  int hoist_addr;           /* a load's address arithmetic moves up with it (tm_sm.c) */
  int lsu_in_order;         /* warps held back by the load/store unit get it in arrival order */
  int lds_merge;            /* merged shared loads take no wavefronts (tm_op.merged) */
  int hoist_sass;           /* loads move as ptxas moves them: shared ones too, past stores to
                               another state space and past if-converted branches (tm_sm.c) */
  double dram_page;         /* DRAM bandwidth, in bytes, of opening a page (tm_sm.c); 0: none */
};
void tm_costs_init(struct tm_costs *c, const struct occ_profile *p, uint32_t warp_size);

enum tm_class {
  TM_C_FIXED = 0,   /* result after a fixed latency */
  TM_C_LOAD,        /* ld: global/local through L1-L2-DRAM, or shared memory (per the trace) */
  TM_C_STORE,
  TM_C_ATOM,        /* atomic with a result */
  TM_C_RED,         /* atomic without */
  TM_C_SHFL,        /* shfl/match/redux: through the shared-memory unit */
  TM_C_BARRIER,     /* bar.sync */
  TM_C_BRANCH,
  TM_C_EXIT
};
enum tm_pipe { TM_PIPE_FP32 = 0, TM_PIPE_INT, TM_PIPE_FP64, TM_PIPE_SFU, TM_PIPE_LSU, TM_PIPE_MIO,
               TM_PIPE_CBU, TM_PIPE_TENSOR, TM_NPIPES };
enum tm_dep { TM_DEP_WAIT = 0, TM_DEP_SHORT, TM_DEP_LONG };   /* who waits on the result */

#define TM_MAX_SRC 25                 /* wmma.mma reads 24 fragment registers and a guard */
#define TM_MAX_DST 8
/* cp.async's parts, for the groups the timing model keeps per warp (tm_sm.c); a bulk copy
   into shared memory (cp.async.bulk{.tensor}), which the block's mbarrier waits
   (test_wait/try_wait) wait for. */
enum tm_async { TM_ASYNC_NONE = 0, TM_ASYNC_COPY, TM_ASYNC_COMMIT, TM_ASYNC_WAIT, TM_ASYNC_WAIT_ALL,
                TM_ASYNC_BULK, TM_ASYNC_MBWAIT };

struct tm_op {
  uint8_t cls, pipe, dep, interval;
  uint16_t latency;
  uint8_t bar_id;          /* bar.sync/bar.red/bar.arrive: the barrier (0-15) */
  uint8_t bar_arrive;      /* bar.arrive: counts without waiting */
  uint16_t bar_threads;    /* the thread count it names; 0: every thread of the block */
  uint8_t nsrc, ndst;
  uint8_t atom_float;      /* atom/red: a floating-point operation (slower at one address) */
  uint8_t async;           /* cp.async: enum tm_async */
  uint8_t async_n;         /* cp.async.wait_group N: N (the groups that may stay in flight) */
  uint8_t st_bytes;        /* st: bytes a lane writes (type size x vector width); else 0 */
  uint8_t space;           /* ld/st/atom/red: the PTX state space (enum ptx_space; 0: generic) */
  uint8_t merged;          /* a shared load ptxas merged into another one's LDS.64/LDS.128:
                              its data comes with that one's wavefronts (tm_mark_merged) */
  uint8_t ifconv;          /* a guarded forward branch around at most TM_IFCONV_MAX
                              instructions with no barrier, branch or exit among them, which
                              ptxas turns into predication: how many it skips; else 0 */
  uint32_t src[TM_MAX_SRC], dst[TM_MAX_DST];   /* module register indices */
};
void tm_classify(const struct tm_costs *c, const struct ptx_inst *in, struct tm_op *o);
#define TM_IFCONV_MAX 12          /* longest branch-around ptxas turns into predication */
/* Mark the branches of m (ops: tm_classify's of every instruction) that ptxas if-converts:
   tm_op.ifconv. */
void tm_mark_ifconv(const struct ptx_module *m, struct tm_op *ops);
/* Mark the shared loads of m that ptxas merged into another's vector load (the SASS map s
   has no LDS on their line of their own, and their function has an LDS.64 or LDS.128):
   tm_op.merged. */
void tm_mark_merged(const struct ptx_module *m, const struct ptx_sass *s, struct tm_op *ops);

/* ---- memory (tm_mem.c) ---- */
/* Zeroed host memory for the model's tables; from TM_ZMAP_BYTES on an anonymous mapping,
   whose pages are zero until written: a table that a small launch touches in a few places
   (a large L2 slice, the sectors an SM loaded last) costs what it touches, where calloc
   clears the whole of it whenever the heap has the room from an earlier launch. tm_zfree
   takes the size it was given. */
#define TM_ZMAP_BYTES (64u << 10)
void *tm_zalloc(size_t bytes);
void tm_zfree(void *p, size_t bytes);
/* A sectored, set-associative LRU cache of 128-byte lines. */
struct tm_cache {
  uint32_t sets, ways;
  uint64_t *tag;       /* sets*ways line numbers + 1 (0: empty) */
  uint64_t *used;      /* last use, for LRU */
  uint8_t *valid;      /* sector bits per way */
  uint8_t *dirty;      /* sectors written since they came in, per way */
  double *ready;       /* per way and sector: the cycle its data is there (a miss still on
                          its way is present but not ready) */
  uint64_t tick;
  uint64_t hits, misses;
  int random;          /* replace a pseudo-random way, not the least recently used */
  size_t last;         /* the way found last: an access to the same line (the other sectors
                          of a request, the calls after tm_cache_access) finds it there */
  int plain;           /* look every line up in its set (for tests of `last`) */
  void *map;           /* the arrays' memory (tm_zalloc), map_bytes of it */
  size_t map_bytes;
};
int tm_cache_init(struct tm_cache *c, uint64_t bytes, uint32_t ways, int random);
void tm_cache_free(struct tm_cache *c);
/* tm_cache_access's search of the line's set (after the tick). */
int tm_cache_lookup(struct tm_cache *c, uint64_t sector, int allocate);
/* An access to the present line of way i. */
static inline int tm_cache_hit_way(struct tm_cache *c, size_t i, uint64_t sector, int allocate)
{
  uint8_t bit = (uint8_t)(1u << (sector & 3));
  c->last = i;
  c->used[i] = c->tick;
  if (c->valid[i] & bit) {
    c->hits++;
    return 1;
  }
  c->misses++;
  if (allocate) {
    c->valid[i] |= bit;
    c->ready[i * 4 + (sector & 3)] = 0;
  }
  return 0;
}
/* 1 on a hit; on a miss the sector is brought in (allocate = 1) or left out. Inline: the
   timing model makes one or two a sector of every global access, most of them to the line
   of the access before (the request's other sectors). */
static inline int tm_cache_access(struct tm_cache *c, uint64_t sector, int allocate)
{
  c->tick++;
  if (!c->plain && c->tag[c->last] == (sector >> 2) + 1)   /* a line is in one way only */
    return tm_cache_hit_way(c, c->last, sector, allocate);
  return tm_cache_lookup(c, sector, allocate);
}
/* The line the last tm_cache_access with allocate = 1 found or brought in is in way `last`
   with its sector present: the *_last calls below act on it without looking it up again,
   while no other call on the cache came between (global_access makes one or two a sector after
   its access). The others look the line up; absent, they do nothing. */
/* The cycle a present sector's data is there (0 when absent or long there), and setting it:
   a second access to a sector an earlier miss asked for waits for the same data. */
double tm_cache_ready_at(const struct tm_cache *c, uint64_t sector);
void tm_cache_set_ready(struct tm_cache *c, uint64_t sector, double t);
static inline double *tm_cache_ready_last(struct tm_cache *c, uint64_t sector)
{
  return &c->ready[c->last * 4 + (sector & 3)];
}
/* The sectors of sector's aligned group of `bytes` (2 for 64 bytes, 4 for 128), as a mask
   of its line's four sector bits. */
static inline uint8_t tm_group_mask(uint64_t sector, uint32_t bytes)
{
  uint32_t n = bytes / 32;
  if (n <= 1)
    return (uint8_t)(1u << (sector & 3));
  if (n > 4)
    n = 4;
  uint32_t first = (uint32_t)(sector & 3) & ~(n - 1);
  return (uint8_t)(((1u << n) - 1) << first);
}
/* Make the other sectors of sector's aligned `bytes` (64: its pair) present, ready at t,
   where its line is present (in way w) and they are not: what a DRAM access of that size
   brought in. Returns how many it made present. */
static inline int tm_cache_fill_way(struct tm_cache *c, size_t w, uint64_t sector, uint32_t bytes,
                                    double t)
{
  uint8_t add = (uint8_t)(tm_group_mask(sector, bytes) & ~c->valid[w]);
  int n = 0;
  for (int k = 0; k < 4; k++)
    if (add & (1u << k)) {
      c->ready[w * 4 + (size_t)k] = t;
      n++;
    }
  c->valid[w] |= add;
  return n;
}
int tm_cache_fill(struct tm_cache *c, uint64_t sector, uint32_t bytes, double t);
static inline int tm_cache_fill_last(struct tm_cache *c, uint64_t sector, uint32_t bytes, double t)
{
  return tm_cache_fill_way(c, c->last, sector, bytes, t);
}
/* Mark a present sector (of way w) written; 1 when that is new write-back traffic: it was
   clean, and no other sector of its aligned `bytes` (64: its pair, which DRAM writes with
   it) is dirty already; else 0. */
static inline int tm_cache_write_way(struct tm_cache *c, size_t w, uint64_t sector, uint32_t bytes)
{
  uint8_t bit = (uint8_t)(1u << (sector & 3));
  if (!(c->valid[w] & bit) || (c->dirty[w] & bit))
    return 0;
  c->dirty[w] |= bit;
  uint8_t peers = (uint8_t)(tm_group_mask(sector, bytes) & ~bit);
  return !(c->dirty[w] & c->valid[w] & peers);
}
int tm_cache_write(struct tm_cache *c, uint64_t sector, uint32_t bytes);
static inline int tm_cache_write_last(struct tm_cache *c, uint64_t sector, uint32_t bytes)
{
  return tm_cache_write_way(c, c->last, sector, bytes);
}
/* Forget a sector (a store through an L1 that does not keep written data). */
void tm_cache_drop(struct tm_cache *c, uint64_t sector);

/* A bandwidth: requests served one after another at bytes_per_cycle. */
struct tm_server {
  double free_at;      /* cycle the server is next free */
  double bytes_per_cycle;
  double bytes;        /* served so far */
  double busy;         /* recent utilisation, 0..1: busy time over the last ~TM_BUSY_WINDOW
                          cycles, decaying exponentially */
  double busy_at;      /* cycle busy was last brought up to date */
};
#define TM_BUSY_WINDOW 2000.0
/* Bring s's utilisation from busy_at to cycle t (t > busy_at). */
void tm_serve_decay(struct tm_server *s, double t);
/* Serve `bytes` arriving at cycle t; returns the cycle the last byte leaves. */
static inline double tm_serve(struct tm_server *s, double t, double bytes)
{
  double start = t > s->free_at ? t : s->free_at;
  double busy = bytes / s->bytes_per_cycle;
  s->free_at = start + busy;
  s->bytes += bytes;
  if (t > s->busy_at)
    tm_serve_decay(s, t);
  s->busy += busy / TM_BUSY_WINDOW;
  if (s->busy > 1)
    s->busy = 1;
  return s->free_at;
}

/* ---- the grid's blocks over all SMs (tm_dispatch.c) ---- */
/* The makespan of nblocks blocks, in index order, each to the slot of sms x slots_per_sm
   that frees first (ties: the first wave round robin over the SMs), none starting before
   its index times `dispatch` cycles (the GPU's block scheduler), block i holding its slot
   cost[i] cycles (cost NULL: every block `uniform`): when the last block ends, on the
   busiest SM. 0, or -1 when out of host memory or without slots. */
int tm_dispatch_makespan(const double *cost, double uniform, uint32_t nblocks, uint32_t sms,
                         uint32_t slots_per_sm, double dispatch, double *makespan);

struct tm_dispatch_in {
  uint32_t grid_blocks, sm_count, blocks_per_sm;
  double dispatch;           /* GPU-wide cycles between two blocks started */
  double block_launch;       /* cycles a slot stays empty between two blocks */
  double sector_cycles;      /* what a 32-byte sector costs an SM: its share of DRAM */
};
/* How much longer the grid's blocks, each at the cost its recorded work gives it, keep the
   busiest SM than a grid of blocks like the replayed ones would (tr: the emulator's trace,
   start/end: the replayed blocks' cycles, tm_sm_out). *ratio is 1 when every block did the
   same work or the trace has no per-block totals. 0, or -1 when out of host memory. */
int tm_dispatch_ratio(const struct tm_dispatch_in *in, const struct sim_trace *tr,
                      const int64_t *start, const int64_t *end, double *ratio);

#endif
