/* sim_launch.c: a kernel launch: check the configuration, link, and run the grid's blocks on
 * worker threads (the calling thread and threads kept from one launch to the next:
 * sim_crew.c).
 *
 * Blocks are independent, so workers take them in index order from a shared counter, a few
 * consecutive blocks at a time (claim_size; under an order seed, sim_launch.order_seed, one
 * worker takes them one by one in an order the seed shuffles). The result is the same as a
 * serial run: when blocks fault, the report is the one of the lowest-numbered faulting block
 * (blocks after it are not started, or stop early), and the counters, printed text and
 * warnings are those of the blocks up to it: on more than one worker, a block counts into a
 * table of its own unless it starts as the lowest block not ended, and sim_tally.c sums the
 * tables in index order, dropping those past the fault (kept_until). Global-memory atomics
 * are host atomics (an integer add whose old value nothing reads may wait in its worker's
 * buffer, sim_redbuf, until the block's turn ends); everything else a block touches is its
 * own.
 *
 * Blocks that must run at the same time are the exception: the blocks of a cooperative grid
 * (grid.sync()) or of a cluster form a group, which one worker runs interleaved (run_group),
 * a block waiting for another giving way to the rest. Groups are what a serial run orders
 * (unit_of): a fault stops the groups after the faulting block's, and the launch keeps the
 * counters and text of the groups up to it.
 *
 * Outside groups, a block may still wait for another (a flag or lock in global memory). Such
 * a wait ends as it would on the modelled GPU, whatever the host's cores: at most
 * sim_launch.resident_blocks blocks are started and not ended at once, a new one starting
 * when one ends; a block whose warps spin on memory no block of its own changes is set aside
 * (sim_block_resume's SIM_BS_WAIT) and resumed once global memory has changed; when nothing
 * runs and none of them can move, the lowest of them reports an inter-block deadlock.
 *
 * Which block that report names must not depend on the host. When the instruction budget runs
 * out after a block has waited, no block starts or resumes and the running ones, with one
 * budget more between them (enum sim_grace), go on until each waits or ends; then the lowest
 * waiting block reports its deadlock, as in a serial run, however many workers there are and
 * however the host scheduled them (before, it was the lowest that had parked so far, or the
 * budget of a block that was about to wait).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>

#include "sim/sim_crew.h"
#include "sim/sim_int.h"

#define MAX_THREADS_PER_BLOCK 1024u
#define DEFAULT_MAX_SMEM (227u * 1024u)

struct launch {
  struct sim_device *d;
  const struct sim_prog *prog;
  const struct sim_launch *cfg;
  const uint8_t *kparams;
  uint32_t nblocks, nwarps, W, threads_per_block;
  uint32_t next;                    /* next block (group) to claim: atomic in a launch of
                                       groups, else guarded by lock */
  pthread_mutex_t lock;             /* outside groups: guards next and what follows, to
                                       `stop_after` */
  pthread_cond_t moved;             /* a block ended or was set aside */
  uint32_t resident;                /* blocks the modelled GPU holds at once */
  uint32_t in_flight;               /* blocks claimed and not ended: claimed, running or
                                       parked */
  uint32_t claimed;                 /* blocks a worker claimed and has not started yet */
  uint32_t running;                 /* blocks a worker runs now */
  struct slot **parked;             /* parked blocks, in index order (at most `resident`) */
  uint32_t nparked;
  int abandon;                      /* the launch ends now (host memory, or the report after
                                       the budget ran out): drop them */
  int budget_out;                   /* a block ran past the budget: none starts or resumes,
                                       and the running ones end or park before the report */
  int parked_any;                   /* a block has waited for another (parked) ... */
  int grace;                        /* ... which arms the budget's grace: enum sim_grace
                                       (sim_block.budget_grace; atomic) */
  volatile uint32_t stop_after;     /* lowest faulting block so far (blocks outside groups;
                                       0 when a group ran past the budget) */
  uint32_t stop_group;              /* lowest group with a faulting block so far (atomic) */
  uint64_t budget_used;
  struct sim_worker *workers;
  uint32_t nworkers;
  struct sim_trace *trace;          /* blocks recorded for the timing model */
  uint32_t trace_every;
  struct sim_lanes *lanes;          /* the lane log, when the launch keeps one */
  struct pool *pool;                /* printf output */
  uint32_t group_blocks;            /* blocks that run together (a cooperative grid, a
                                       cluster; run_group), 0: blocks run alone */
  uint32_t cluster_size;            /* blocks of a cluster (1 without clusters) */
  uint64_t coop_ws;                 /* the grid workspace of a cooperative launch, or 0 */
  uint32_t *perm;                   /* under an order seed: the order blocks (groups) start
                                       in, a shuffle of their indices; NULL: index order */
  int tallied;                      /* blocks (groups) count into tables of their own,
                                       summed by tally (guarded by lock): on more than one
                                       worker */
  struct sim_tally tally;
};

struct printed {                   /* one block's printf output */
  uint32_t block;
  char *text;
  size_t len;
};

/* The printf output of the blocks that ended so far, in block order, cut where the launch's
   output (all of it, in block order) would pass SIM_PRINTF_FIFO: a block that ends adds its
   text and pushes what lies past the limit out, from the last block back. What is left at
   the end is the first SIM_PRINTF_FIFO bytes of the whole, whatever order blocks ended in. */
struct pool {
  pthread_mutex_t lock;
  struct printed *p;                /* sorted by block */
  uint32_t n, cap;
  size_t total;
  struct sim_printf pf;
};

/* Add block idx's text (the pool takes it, or frees it). */
static void pool_add(struct pool *pl, uint32_t idx, char *text, size_t len)
{
  pthread_mutex_lock(&pl->lock);
  if (pl->n == pl->cap) {
    uint32_t cap = pl->cap ? pl->cap * 2 : 64;
    struct printed *np = realloc(pl->p, cap * sizeof *np);
    if (!np) {
      pthread_mutex_unlock(&pl->lock);
      free(text);
      __atomic_store_n(&pl->pf.cut, 0, __ATOMIC_RELAXED);
      return;
    }
    pl->p = np;
    pl->cap = cap;
  }
  uint32_t k = pl->n++;
  for (; k && pl->p[k - 1].block > idx; k--)    /* blocks end nearly in order */
    pl->p[k] = pl->p[k - 1];
  pl->p[k] = (struct printed){idx, text, len};
  pl->total += len;
  while (pl->total > SIM_PRINTF_FIFO) {
    struct printed *last = &pl->p[pl->n - 1];
    size_t over = pl->total - SIM_PRINTF_FIFO;
    sim_atomic_min_u32(&pl->pf.cut, last->block);
    if (last->len > over) {
      last->len -= over;
      pl->total -= over;
    } else {
      pl->total -= last->len;
      free(last->text);
      pl->n--;
    }
  }
  if (pl->total == SIM_PRINTF_FIFO && pl->n)
    __atomic_store_n(&pl->pf.cut_after, pl->p[pl->n - 1].block, __ATOMIC_RELAXED);
  pthread_mutex_unlock(&pl->lock);
}

static uint32_t unit_of(const struct launch *L, uint32_t linear);
static uint32_t kept_until(const struct launch *L);

/* The text of the blocks up to L's kept_until into res, as a serial run prints it: the
   blocks after would not have run. Frees the pool's entries. (What later blocks printed
   went first when the pool was cut: the text kept of the blocks up to there is theirs in
   full unless some of it was cut, pf.cut. With clusters of more than one row, a group
   kept may hold a block after pf.cut's and not cut: printf_cut is then set all the same.) */
static void pool_gather(struct pool *pl, const struct launch *L, struct sim_result *res)
{
  const uint32_t stop = kept_until(L);
  char *text = pl->n ? malloc(pl->total + 1) : NULL;
  int lost = pl->n && !text;
  size_t len = 0;
  for (uint32_t k = 0; k < pl->n; k++) {
    const int kept = unit_of(L, pl->p[k].block) <= stop;
    if (text && kept)
      memcpy(text + len, pl->p[k].text, pl->p[k].len);
    len += kept ? pl->p[k].len : 0;
    free(pl->p[k].text);
  }
  free(pl->p);
  pl->p = NULL;
  pl->n = pl->cap = 0;
  if (text) {
    text[len] = 0;
    res->printf_out = text;
    res->printf_len = len;
  }
  const uint32_t cut = __atomic_load_n(&pl->pf.cut, __ATOMIC_RELAXED);
  res->printf_cut = (cut != UINT32_MAX && unit_of(L, cut) <= stop) || lost;
}

struct worker_out {
  struct launch *L;
  uint32_t index;
  struct sim_result res;            /* the fault of fault_block ... */
  uint32_t fault_block;
  uint32_t fault_unit;              /* ... and its block or group (unit_of) */
  struct sim_counters ctr;
  struct sim_inst_stats *stats;     /* per code pc */
  enum sim_status st;
  int held;                         /* it waits for *cfg->hold before its first block ... */
  int unjoined;                     /* ... and found none left to start */
  double cpu_s;                     /* its thread's CPU time in worker_main */
  /* a tallied launch outside groups: the blocks of the worker's claim, which it runs one
     after another, count together (claim_flush) */
  struct sim_inst_stats *cst;       /* their table (NULL until needed) ... */
  struct sim_counters cctr;         /* ... and counters ... */
  uint32_t clo, cend;               /* ... of blocks clo..cend - 1, those ended so far ... */
  int cdirect;                      /* ... unless the claim started as the lowest block not
                                       ended: then its worker's stats and ctr */
  int cactive;                      /* a claim has begun and not been flushed */
};

uint32_t sim_host_cores(void)
{
  /* the cores this process may run on, fewer than the machine's under taskset, a Slurm
     allocation or a container's cpuset (under `taskset -c 0,1` on a 16-core host it started
     16 worker threads for 2 cores) */
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
    return (uint32_t)CPU_COUNT(&set);
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (uint32_t)n : 1;
}

uint64_t sim_launch_global_writes(const struct sim_block *b)
{
  uint64_t s = 0;
  for (uint32_t i = 0; i < b->nworkers; i++)
    s += __atomic_load_n(&b->all_workers[i].global_writes, __ATOMIC_RELAXED);
  return s;
}

int sim_launch_others_running(const struct sim_block *b)
{
  for (uint32_t i = 0; i < b->nworkers; i++)
    if (&b->all_workers[i] != b->worker &&
        __atomic_load_n(&b->all_workers[i].state, __ATOMIC_ACQUIRE) == SIM_WK_RUNNING)
      return 1;
  return 0;
}

uint32_t sim_trace_block(uint32_t k, uint32_t every, uint32_t nblocks)
{
  uint64_t first = (uint64_t)k * every, span = nblocks - first < every ? nblocks - first : every;
  /* splitmix64 of k: a fixed, well-mixed choice, the same in every run */
  uint64_t z = (uint64_t)k + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return (uint32_t)(first + (span ? z % span : 0));
}

/* Room for the first touches of every line of the device's allocations (struct
   sim_trace.touch), when the launch asks for them (wave) and they hold no more than
   SIM_TOUCH_MAX lines; else none (the timing model then does without).
   The keys of 8 lines (1 KiB of device memory, 1 KiB-aligned) share one cache line of the
   table: each allocation's keys start at the entry that makes it so, past up to 7 unused
   (zero) ones. Neighbouring blocks touch neighbouring lines, often on two workers at
   once: with the keys of one block's lines across two cache lines, each shared with the
   block beside it, the workers' compare-and-swaps took the line from each other. */
static void touch_setup(struct sim_trace *tr, const struct sim_device *d, uint32_t wave)
{
  if (!wave || !d->nallocs)
    return;
  uint64_t total = 0;
  for (uint32_t i = 0; i < d->nallocs; i++)
    total += ((d->allocs[i].base + (d->allocs[i].size ? d->allocs[i].size : 1) + 127) >> 7) -
             (d->allocs[i].base >> 7);
  if (total > SIM_TOUCH_MAX)
    return;
  total += 8ull * d->nallocs;                      /* room to line each allocation up */
  tr->seg = calloc(d->nallocs, sizeof *tr->seg);
  tr->touch = sim_keep_alloc(total * sizeof *tr->touch, SIM_KEEP_ZERO | SIM_KEEP_HUGE);
  if (!tr->seg || !tr->touch) {
    free(tr->seg);
    sim_keep_free(tr->touch, total * sizeof *tr->touch);
    tr->seg = NULL;
    tr->touch = NULL;
    return;
  }
  /* entries from the table's start to its first 64-byte boundary (it is 8-byte aligned) */
  uint64_t skew = (64 - (uintptr_t)tr->touch % 64) % 64 / sizeof *tr->touch;
  uint64_t at = 0;
  for (uint32_t i = 0; i < d->nallocs; i++) {      /* allocations are sorted by address */
    const struct sim_alloc *a = &d->allocs[i];
    uint64_t first = a->base >> 7, end = (a->base + (a->size ? a->size : 1) + 127) >> 7;
    at += (skew + first - at) % 8;                 /* line x's key: entry = x + skew (mod 8) */
    tr->seg[i] = (struct sim_touch_seg){first, end - first, at};
    at += end - first;
  }
  tr->nseg = d->nallocs;
  tr->ntouch = total;                              /* the unused entries stay 0: no touch */
  tr->touch_wave = wave;
}

static void lower_stop(struct launch *L, uint32_t idx)
{
  sim_atomic_min_u32((uint32_t *)&L->stop_after, idx);
}

/* The unit a serial run orders block linear by: the block, or the group it runs in
   (run_group's gi: its cluster, the inverse of cluster_block; a cooperative grid's one). */
static uint32_t unit_of(const struct launch *L, uint32_t linear)
{
  if (!L->group_blocks)
    return linear;
  const uint32_t *g = L->cfg->grid;
  uint32_t c[3];
  for (int i = 0; i < 3; i++)
    c[i] = L->cfg->cluster[i] ? L->cfg->cluster[i] : 1;
  uint32_t x = linear % g[0], y = linear / g[0] % g[1], z = linear / (g[0] * g[1]);
  uint32_t ncx = g[0] / c[0], ncy = g[1] / c[1];
  uint32_t cid = x / c[0] + y / c[1] * ncx + z / c[2] * ncx * ncy;
  return cid / (L->group_blocks / L->cluster_size);
}

/* The last unit whose counters and printed text the launch keeps: as a serial run, the
   lowest faulting block or group (those after it would not have started; on several
   workers some did, or ended before it faulted); UINT32_MAX, every one that ended, outside
   groups once a block has waited for another (the blocks past the faulting one ran on the
   modelled GPU too). */
static uint32_t kept_until(const struct launch *L)
{
  if (L->group_blocks)
    return __atomic_load_n(&L->stop_group, __ATOMIC_RELAXED);
  return L->parked_any ? UINT32_MAX : __atomic_load_n(&L->stop_after, __ATOMIC_RELAXED);
}

/* Whether a serial run keeps the warning block linear gave first (sim_notes_end) */
static int warned_kept(const void *arg, uint32_t linear)
{
  const struct launch *L = arg;
  return linear == UINT32_MAX || unit_of(L, linear) <= kept_until(L);
}

/* Whether the block at position pos of a launch outside groups may start: in index order,
   when no block before it faulted; in an order seed's order, when no block faulted. */
static int may_start_at(const struct launch *L, uint32_t pos)
{
  uint32_t stop = __atomic_load_n(&L->stop_after, __ATOMIC_RELAXED);
  return L->perm ? stop == UINT32_MAX : pos <= stop;
}

static int may_start(const struct launch *L)
{
  return may_start_at(L, L->next);
}

/* One block's storage: its warps, registers, local memory, parameter frames, shared memory. */
struct bmem {
  struct sim_warp *warps;
  uint64_t *regs;
  uint8_t *local, *pframe, *smem;
  uint32_t smem_size;
  uint64_t nregs_b, nlocal_b, npframe_b;  /* the bytes of regs, local, pframe */
};

/* ---- zeroed memory kept across launches ----
   A launch's block storage (warps, registers, local and shared memory), its workers' tables
   and its trace tables were allocated, and their pages faulted in and zeroed by the kernel,
   for every worker of every launch: on lab 07 (some 20 launches) the block storage was
   about 16% of the process's fresh pages, on lab 03 the trace tables about 25,000 pages a
   run. Freed with sim_keep_free, a buffer goes to a list of this process's; a later
   sim_keep_zalloc of its size class or up to two classes smaller takes it back (the
   smallest that fits) and zeros what it hands out: all of a small one (calloc'd by
   sim_table_alloc), and of a mapped one only the pages that were ever written to and are
   not all zeros now (sim_pages_used), so that pages never touched stay unmapped (a
   first-touch table's, a warp's stacks that few kernels reach). Under AddressSanitizer every buffer is calloc'd, and its
   red zones lie around its size class rather than its bytes.
   Buffers start on a cache line: where malloc put them, 16-byte aligned, a warp's registers
   (a row of 32 lanes' 8 bytes each) straddled cache lines, and every full-warp vector load
   and store split in two (the same kernel ran 20% slower on the worker whose heap placed
   them so). */

#define KEEP_MAX   64                 /* buffers kept ... */
#define KEEP_BYTES (512ull << 20)       /* ... and their size classes' bytes, in all */
#define KEEP_HEAD  128u               /* room before the buffer for its alignment and header */

static struct {
  pthread_mutex_t lock;
  struct kept {
    uint8_t *p;                       /* the buffer handed out */
    uint64_t cap;                     /* its size class */
  } k[KEEP_MAX];
  unsigned n;
  uint64_t bytes;
} kept = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* The size class of a buffer of n bytes: the power of two at least n (at least 64). */
static uint64_t keep_class(uint64_t n)
{
  uint64_t c = 64;
  while (c < n)
    c *= 2;
  return c;
}

/* The header in the bytes before buffer p: the host allocation under it, its size class,
   and whether it is a mapping of its own (else sim_table_alloc's). */
struct keep_head {
  uint8_t *raw;
  uint64_t cap;
  uint64_t own;
};

/* Give the host allocation under a kept buffer back. */
static void keep_release(struct keep_head h)
{
  if (h.own)
    munmap(h.raw, h.cap + KEEP_HEAD);
  else
    sim_table_free(h.raw, h.cap + KEEP_HEAD);
}

static struct keep_head keep_head(const uint8_t *p)
{
  struct keep_head h;
  memcpy(&h, p - sizeof h, sizeof h);
  return h;
}

/* Whether the pages of a mapped buffer's host allocation raw (of cap + KEEP_HEAD bytes) are
   to be a forked child's. */
static void keep_fork(uint8_t *raw, uint64_t cap, int fork)
{
#if defined(MADV_DONTFORK) && defined(MADV_DOFORK)
  uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
  if (!pg)
    return;
  uintptr_t a = (uintptr_t)raw / pg * pg, e = ((uintptr_t)raw + cap + KEEP_HEAD + pg - 1) / pg * pg;
  madvise((void *)a, e - a, fork ? MADV_DOFORK : MADV_DONTFORK);
#else
  (void)raw;
  (void)cap;
  (void)fork;
#endif
}

unsigned char *sim_pages_used(const void *p, uint64_t n, uintptr_t *page)
{
  long pg = sysconf(_SC_PAGESIZE);
  if (pg <= 0 || !n)
    return NULL;
  uintptr_t a = (uintptr_t)p / (uintptr_t)pg, e = ((uintptr_t)p + n + (uintptr_t)pg - 1) / (uintptr_t)pg;
  size_t np = e - a;
  uint64_t *ent = malloc(np * sizeof *ent);
  unsigned char *used = malloc(np);
  FILE *f = ent && used ? fopen("/proc/self/pagemap", "rb") : NULL;
  int ok = f && fseeko(f, (off_t)(a * sizeof *ent), SEEK_SET) == 0 &&
           fread(ent, sizeof *ent, np, f) == np;
  if (f)
    fclose(f);
  for (size_t i = 0; ok && i < np; i++)
    used[i] = (ent[i] >> 62) != 0;      /* bit 63: in memory; bit 62: swapped out */
  free(ent);
  if (!ok) {
    free(used);
    return NULL;
  }
  *page = (uintptr_t)pg;
  return used;
}

/* Zero [p, p + n) of a kept buffer of class cap: all of it when it is not mapped, else the
   pages of it that are in memory or swap and hold a nonzero byte. */
static void keep_clear(uint8_t *p, uint64_t n, uint64_t cap)
{
  static const uint8_t zero[4096];
  uintptr_t pg = 0;
  unsigned char *used = sim_table_mapped(cap + KEEP_HEAD) ? sim_pages_used(p, n, &pg) : NULL;
  if (!used) {
    memset(p, 0, n);
    return;
  }
  uintptr_t a = (uintptr_t)p / pg * pg;
  size_t np = ((uintptr_t)p + n + pg - 1) / pg - a / pg;
  for (size_t i = 0; i < np; i++) {
    if (!used[i])
      continue;                       /* never touched: reads as zeros */
    uint8_t *lo = (uint8_t *)(a + i * pg), *hi = lo + pg;
    lo = lo < p ? p : lo;             /* (the header and what lies past n are not ours) */
    hi = hi > p + n ? p + n : hi;
    for (uint8_t *c = lo; c < hi; c += sizeof zero) {
      size_t k = (size_t)(hi - c) < sizeof zero ? (size_t)(hi - c) : sizeof zero;
      if (memcmp(c, zero, k))
        memset(c, 0, k);
    }
  }
  free(used);
}

void *sim_keep_alloc(uint64_t n, unsigned flags)
{
  uint64_t cap = keep_class(n);
  uint8_t *p = NULL;
  pthread_mutex_lock(&kept.lock);
  /* the smallest kept of cap to 4 cap bytes; for a shared table, not one of 4 KiB pages */
  unsigned best = KEEP_MAX;
  for (unsigned i = 0; i < kept.n; i++)
    if (kept.k[i].cap >= cap && kept.k[i].cap / 4 <= cap &&
        !((flags & SIM_KEEP_HUGE) && keep_head(kept.k[i].p).own) &&
        (best == KEEP_MAX || kept.k[i].cap < kept.k[best].cap))
      best = i;
  if (best < KEEP_MAX) {
    p = kept.k[best].p;
    kept.bytes -= kept.k[best].cap;
    kept.k[best] = kept.k[--kept.n];
  }
  pthread_mutex_unlock(&kept.lock);
  if (p) {
    struct keep_head h = keep_head(p);
    if (sim_table_mapped(h.cap + KEEP_HEAD))
      keep_fork(h.raw, h.cap, 1);
    if (flags & SIM_KEEP_ZERO)
      keep_clear(p, n, h.cap);
    return p;
  }
  if (cap > UINT64_MAX / 2)
    return NULL;
  /* zeroed, untouched pages unmapped: a table on huge pages (sim_table_alloc's); a
     worker's own buffer of SIM_TABLE_MIN bytes or more in a mapping of its own, of 4 KiB
     pages (a huge page would be 2 MiB zeroed at its first touch, for a block's warps that
     touch a few pages of their stacks) */
  uint64_t len = cap + KEEP_HEAD;
  int own = !(flags & SIM_KEEP_HUGE) && sim_table_mapped(len);
  uint8_t *raw = NULL;
  if (own) {
    void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    raw = m == MAP_FAILED ? NULL : m;
  } else {
    raw = sim_table_alloc(len);
  }
  if (!raw)
    return NULL;
  struct keep_head h = {raw, cap, (uint64_t)own};
  p = (uint8_t *)(((uintptr_t)raw + sizeof h + 63) / 64 * 64);
  memcpy(p - sizeof h, &h, sizeof h);
  return p;
}

void *sim_keep_zalloc(uint64_t n) { return sim_keep_alloc(n, SIM_KEEP_ZERO); }

/* In a forked child: the kept buffers in mappings (keep_fork) were not copied, and the lock
   may have been held by a thread the child does not have. */
static void keep_atfork_child(void)
{
  unsigned n = 0;
  for (unsigned i = 0; i < kept.n; i++)
    if (sim_table_mapped(kept.k[i].cap + KEEP_HEAD))
      kept.bytes -= kept.k[i].cap;
    else
      kept.k[n++] = kept.k[i];
  kept.n = n;
  pthread_mutex_init(&kept.lock, NULL);
}

static pthread_once_t keep_atfork_once = PTHREAD_ONCE_INIT;

static void keep_atfork(void)
{
  pthread_atfork(NULL, NULL, keep_atfork_child);
}

void sim_keep_free(void *ptr, uint64_t n)
{
  uint8_t *p = ptr;
  (void)n;                            /* (its class is in its header) */
  if (!p)
    return;
  struct keep_head h = keep_head(p);
  pthread_once(&keep_atfork_once, keep_atfork);
  if (sim_table_mapped(h.cap + KEEP_HEAD))
    keep_fork(h.raw, h.cap, 0);       /* a child (nvcc: fork and exec) copies none of it */
  pthread_mutex_lock(&kept.lock);
  int room = kept.n < KEEP_MAX && kept.bytes + h.cap <= KEEP_BYTES;
  if (room) {
    kept.k[kept.n++] = (struct kept){p, h.cap};
    kept.bytes += h.cap;
  }
  pthread_mutex_unlock(&kept.lock);
  if (!room)
    keep_release(h);
}

void sim_keep_drop(void)
{
  pthread_mutex_lock(&kept.lock);
  for (unsigned i = 0; i < kept.n; i++)
    keep_release(keep_head(kept.k[i].p));
  kept.n = 0;
  kept.bytes = 0;
  pthread_mutex_unlock(&kept.lock);
}

/* Allocate m for blocks of L and set up its warps' lanes. 0, or -1 when memory ran out (what
   was allocated stays for bmem_free). */
static int bmem_alloc(const struct launch *L, struct bmem *m)
{
  const struct sim_prog *p = L->prog;
  const struct sim_launch *cfg = L->cfg;
  uint32_t W = L->W, nw = L->nwarps;
  m->nregs_b = ((uint64_t)p->nregs * W * nw + 1) * sizeof *m->regs;
  m->nlocal_b = (uint64_t)p->local_size * W * nw + 1;
  m->npframe_b = (uint64_t)p->pframe_size * W * nw + 1;
  m->warps = sim_keep_zalloc(nw * sizeof *m->warps);
  m->regs = sim_keep_zalloc(m->nregs_b);
  m->local = sim_keep_zalloc(m->nlocal_b);
  m->pframe = sim_keep_zalloc(m->npframe_b);
  m->smem_size = cfg->dyn_smem ? p->dyn_base + cfg->dyn_smem : p->static_smem;
  m->smem = sim_keep_zalloc((size_t)m->smem_size + 1);
  if (!m->warps || !m->regs || !m->local || !m->pframe || !m->smem)
    return -1;
  for (uint32_t i = 0; i < nw; i++) {
    struct sim_warp *w = &m->warps[i];
    w->id = i;
    w->nlanes = W;
    w->regs = m->regs + (size_t)p->nregs * W * i;
    w->local = m->local + (size_t)p->local_size * W * i;
    w->pframe = m->pframe + (size_t)p->pframe_size * W * i;
    w->exists = 0;
    for (uint32_t l = 0; l < W; l++) {
      uint32_t t = i * W + l;
      if (t >= L->threads_per_block)
        continue;
      w->exists |= 1ull << l;
      w->tid[l][0] = t % cfg->block[0];
      w->tid[l][1] = (t / cfg->block[0]) % cfg->block[1];
      w->tid[l][2] = t / (cfg->block[0] * cfg->block[1]);
    }
  }
  return 0;
}

static void bmem_free(struct bmem *m, uint32_t nw)
{
  if (m->warps) {
    sim_async_free(m->warps, nw);
    sim_recur_free(m->warps, nw);
  }
  sim_keep_free(m->warps, nw * sizeof *m->warps);
  sim_keep_free(m->regs, m->nregs_b);
  sim_keep_free(m->local, m->nlocal_b);
  sim_keep_free(m->pframe, m->npframe_b);
  sim_keep_free(m->smem, (uint64_t)m->smem_size + 1);
}

/* Set up *b to run block idx of L on worker out with storage m; its fault goes to *r. */
static void block_setup(struct launch *L, struct worker_out *out, struct bmem *m,
                        const struct sim_alloc **cache, uint32_t idx, struct sim_block *b,
                        struct sim_result *r)
{
  const struct sim_launch *cfg = L->cfg;
  uint64_t budget = cfg->max_warp_insts ? cfg->max_warp_insts : SIM_DEFAULT_BUDGET;
  memset(r, 0, sizeof *r);
  *b = (struct sim_block){
    .prog = L->prog, .dev = L->d, .cfg = cfg, .worker = &L->workers[out->index],
    .linear = idx, .nthreads = L->threads_per_block, .nwarps = L->nwarps, .W = L->W,
    .smem = m->smem, .smem_size = m->smem_size, .kparams = L->kparams,
    .kparam_size = L->prog->kparam_size, .warps = m->warps, .res = r,
    .stop_after = &L->stop_after, .all_workers = L->workers, .nworkers = L->nworkers,
    .budget_used = &L->budget_used, .budget = budget, .stats = out->stats,
    .budget_grace = L->group_blocks ? NULL : &L->grace,
    .alloc_cache = cache, .pf = &L->pool->pf, .coop_ws = L->coop_ws,
  };
  if (L->trace_every && idx / L->trace_every < L->trace->nblk &&
      idx == sim_trace_block(idx / L->trace_every, L->trace_every, L->nblocks)) {
    b->trace = &L->trace->blk[idx / L->trace_every];
    b->trace->linear = idx;
  }
  if (L->trace->touch && idx < L->trace->touch_until)
    b->touch = L->trace;
  if (L->lanes && idx == cfg->lanes_block && cfg->lanes_warp < L->nwarps) {
    b->lanes = L->lanes;                      /* this block holds the logged warp */
    b->lanes->recorded = 1;
    b->lanes->exists = m->warps[cfg->lanes_warp].exists;
  }
  uint32_t bi = cfg->reverse ? L->nblocks - 1 - idx : idx;   /* the block it runs as */
  b->ctaid[0] = bi % cfg->grid[0];
  b->ctaid[1] = (bi / cfg->grid[0]) % cfg->grid[1];
  b->ctaid[2] = bi / (cfg->grid[0] * cfg->grid[1]);
  if (cfg->order_seed) {     /* each block's own generator: the same whichever block ran before */
    b->order_rng = cfg->order_seed ^ ((uint64_t)idx << 32 | idx);
    sim_order_next(&b->order_rng);
  }
}

/* Block b ended (st: how sim_block_run returned): its printed text and fault go to the
   launch and the worker (its counters: block_end's, run_group's). Returns 1 when the
   worker must stop taking blocks. */
static int block_finish(struct launch *L, struct worker_out *out, struct sim_block *b,
                        enum sim_status st)
{
  if (b->out_len) {
    pool_add(L->pool, b->linear, b->out, b->out_len);
    b->out = NULL;
  }
  free(b->out);
  b->out = NULL;
  if (L->trace->work && b->linear < L->trace->nwork)   /* each block's own entry */
    L->trace->work[b->linear] =
        (struct sim_bwork){b->ctr.warp_insts, b->sectors, b->wavefronts};
  if (st != SIM_OK) {
    out->st = st;
    lower_stop(L, 0);
    return 1;
  }
  if (b->faulted) {
    const uint32_t unit = unit_of(L, b->linear);
    if (unit < out->fault_unit || (unit == out->fault_unit && b->linear < out->fault_block)) {
      out->fault_unit = unit;
      out->fault_block = b->linear;
      out->res = *b->res;
    }
    /* a budget spent stops every group at once; a fault, the groups after this one (the
       ones before it run on); outside groups, the blocks before this one run on to a
       definite state (block_end) */
    if (!L->group_blocks)
      lower_stop(L, b->linear);
    else if (b->res->outcome == SIM_BUDGET)
      lower_stop(L, 0);
    else
      sim_atomic_min_u32(&L->stop_group, unit);
  }
  return 0;
}

/* ---- blocks outside groups: started as the modelled GPU holds them ---- */

/* One block outside groups: what a worker runs, and what a parked block keeps until it
   resumes. */
struct slot {
  struct sim_block b;
  struct sim_result r;
  struct bmem m;
  int in_claim;                     /* it started in its worker's claim and has not waited
                                       (parked): it counts with the claim */
};

static void slot_free(const struct launch *L, struct slot *s)
{
  if (!s)
    return;
  bmem_free(&s->m, L->nwarps);
  free(s);
}

/* A block's memory, its warps' lanes laid out; NULL when host memory ran out. */
static struct slot *slot_new(const struct launch *L)
{
  struct slot *s = calloc(1, sizeof *s);
  if (s && bmem_alloc(L, &s->m)) {
    slot_free(L, s);
    return NULL;
  }
  return s;
}

/* Drop the parked blocks past the lowest faulting one (all of them when the launch is
   abandoned): they would not have run, or are cut short as a fault cuts a running block. */
static void drop_parked(struct launch *L)
{
  uint32_t stop = __atomic_load_n(&L->stop_after, __ATOMIC_RELAXED), k = 0;
  for (uint32_t i = 0; i < L->nparked; i++) {
    struct slot *s = L->parked[i];
    if (L->abandon || s->b.linear > stop) {
      free(s->b.out);
      slot_free(L, s);
      L->in_flight--;
    } else {
      L->parked[k++] = s;
    }
  }
  L->nparked = k;
}

/* The first parked block that may move (global memory changed since it parked), taken off
   the list; NULL when none may. */
static struct slot *take_movable(struct launch *L)
{
  uint64_t now = 0;
  for (uint32_t i = 0; i < L->nworkers; i++)
    now += __atomic_load_n(&L->workers[i].global_writes, __ATOMIC_RELAXED);
  for (uint32_t i = 0; i < L->nparked; i++) {
    struct slot *s = L->parked[i];
    if (s->b.park_writes != now) {
      memmove(&L->parked[i], &L->parked[i + 1], (L->nparked - i - 1) * sizeof *L->parked);
      L->nparked--;
      return s;
    }
  }
  return NULL;
}

static void park(struct launch *L, struct slot *s)
{
  s->in_claim = 0;               /* (kept_until keeps every block from now: see block_end) */
  if (!L->parked_any) {
    L->parked_any = 1;
    __atomic_store_n(&L->grace, SIM_GRACE_ARMED, __ATOMIC_RELAXED);
  }
  uint32_t k = L->nparked++;
  for (; k && L->parked[k - 1]->b.linear > s->b.linear; k--)
    L->parked[k] = L->parked[k - 1];
  L->parked[k] = s;
}

/* Put first (a sentence and its space) in front of fault f's message, cutting the end of the
   message where both do not fit. */
static void prefix_message(struct sim_fault *f, const char *first)
{
  char rest[sizeof f->message];
  snprintf(rest, sizeof rest, "%s", f->message);
  size_t k = strlen(first), n = strlen(rest);
  if (k >= sizeof f->message)
    k = sizeof f->message - 1;
  if (k + n >= sizeof f->message)
    n = sizeof f->message - 1 - k;
  memcpy(f->message, first, k);
  memcpy(f->message + k, rest, n);
  f->message[k + n] = 0;
}

/* The deadlock of block s, which waited for another block when nothing else could move:
   which blocks the modelled GPU would not have started, in front of its report. */
static void say_interblock(const struct launch *L, struct slot *s)
{
  struct sim_fault *f = &s->r.fault;
  if (!s->b.faulted || s->r.outcome != SIM_DEADLOCK)
    return;
  char first[448];
  const uint32_t *c = s->b.ctaid;
  char later[64];
  if (L->perm && L->next + 1 < L->nblocks)
    snprintf(later, sizeof later, "%u more blocks", L->nblocks - L->next);
  else if (L->perm)
    snprintf(later, sizeof later, "block %u", L->perm[L->next]);
  else if (L->next + 1 < L->nblocks)
    snprintf(later, sizeof later, "blocks %u to %u", L->next, L->nblocks - 1);
  else
    snprintf(later, sizeof later, "block %u", L->next);
  if (L->next < L->nblocks && may_start(L))
    snprintf(first, sizeof first, "inter-block dependence: block (%u,%u,%u) waits for a write no "
             "started block makes, and %s would not have started: the modelled GPU holds at "
             "most %u blocks of this launch at once and all %u wait (a GPU hangs here; a wait "
             "across the grid needs a cooperative launch). ", c[0], c[1], c[2], later,
             L->resident, L->in_flight);
  else if (L->in_flight > 1)
    snprintf(first, sizeof first, "inter-block dependence: block (%u,%u,%u) and %u other "
             "block%s wait for writes no block makes (each waits for another). ", c[0], c[1],
             c[2], L->in_flight - 1, L->in_flight == 2 ? "" : "s");
  else
    return;
  prefix_message(f, first);
}

static void block_end(struct worker_out *out, struct slot *s);

/* The launch ran past its budget while blocks were parked, and no block runs now: when the first
   of them still waits for a write no block has made since it parked, its deadlock is the report
   (it comes before the budget's, at a later block): the budget ran out while the blocks waited
   for each other, as a GPU would hang. Returns 1 when it made that report. */
static int budget_while_parked(struct worker_out *out)
{
  struct launch *L = out->L;
  if (!L->nparked)
    return 0;
  struct slot *s = L->parked[0];
  uint64_t now = 0;
  for (uint32_t i = 0; i < L->nworkers; i++)
    now += __atomic_load_n(&L->workers[i].global_writes, __ATOMIC_RELAXED);
  if (s->b.park_writes != now)
    return 0;
  memmove(&L->parked[0], &L->parked[1], (L->nparked - 1) * sizeof *L->parked);
  L->nparked--;
  sim_block_stuck(&s->b);
  struct sim_fault *f = &s->r.fault;
  if (s->b.faulted && s->r.outcome == SIM_DEADLOCK) {
    char first[320];
    snprintf(first, sizeof first, "inter-block dependence: block (%u,%u,%u) waits for a write no "
             "block has made, and the launch ran past its budget of %" PRIu64 " warp-"
             "instructions before the blocks it may start had all run (a GPU hangs here). ",
             s->b.ctaid[0], s->b.ctaid[1], s->b.ctaid[2], s->b.budget);
    prefix_message(f, first);
  }
  L->in_flight--;
  block_end(out, s);
  slot_free(L, s);
  return 1;
}

/* A block ended (or faulted, or was cut short): its output, counters and fault (its counters
   to its worker's, or to its claim's when the claim counts apart: claim_flush). A block
   past the budget ends the launch: no block starts or resumes, the blocks after it stop
   (block_finish, and sim_block.c's spend at once), and those before it that still run go on
   until each parks, ends or finds the budget spent too, before budget_while_parked reports.
   Called with L->lock held. */
static void block_end(struct worker_out *out, struct slot *s)
{
  struct launch *L = out->L;
  block_finish(L, out, &s->b, SIM_OK);
  if (s->b.faulted && s->r.outcome == SIM_BUDGET)
    L->budget_out = 1;
  if (!L->tallied || !s->in_claim || out->cdirect) {
    sim_counters_add(&out->ctr, &s->b.ctr);
  } else {
    sim_counters_add(&out->cctr, &s->b.ctr);
  }
  if (L->tallied && s->in_claim)
    out->cend = s->b.linear + 1;
}

/* Host memory ran out (outside groups, L->lock held): the launch ends, every worker stops. */
static void out_of_memory(struct launch *L, struct worker_out *out)
{
  out->st = SIM_ERR_NOMEM;
  L->abandon = 1;
  lower_stop(L, 0);
}

/* The worker's claim, whose blocks have all ended, waited (parked) or will not start, to
   the tally (L->lock held). Its table holds something only when a block of it ended, or
   one waited: then the launch keeps every block (kept_until), and the range names the
   first. */
static void claim_flush(struct launch *L, struct worker_out *out)
{
  if (!out->cactive)
    return;
  out->cactive = 0;
  if (out->cend == out->clo && !L->parked_any)
    return;
  const uint32_t hi = out->cend > out->clo ? out->cend - 1 : out->clo;
  if (out->cdirect) {
    sim_tally_pass(&L->tally, out->clo, hi, kept_until(L));
  } else if (sim_tally_add(&L->tally, out->clo, hi, &out->cctr, &out->cst, kept_until(L))) {
    out_of_memory(L, out);
  }
}

/* A claim of blocks mine.. begins (L->lock held): after the worker's last, flushed. */
static int claim_begin(struct launch *L, struct worker_out *out, uint32_t mine)
{
  if (!L->tallied)
    return 0;
  claim_flush(L, out);
  out->clo = out->cend = mine;
  out->cctr = (struct sim_counters){0, 0};
  out->cactive = 1;
  out->cdirect = mine == L->tally.low;
  if (!out->cdirect && !out->cst)
    out->cst = sim_tally_table(&L->tally);
  return out->cdirect || out->cst ? 0 : -1;
}

/* ---- groups: blocks that must run at the same time ----
   A cooperative grid is one group of all its blocks; a launch with clusters has a group per
   cluster. The blocks of a group run on one worker, interleaved: each in turn runs about
   GROUP_SLICE warp-instructions, or until it waits for another block (a spin on memory that
   does not change, barrier.cluster), and the group goes round until every block has ended.
   When every block waits and nothing changed in a whole round, it is a deadlock, reported
   for the lowest-numbered waiting block. */
#define GROUP_SLICE 4096u

/* The linear index of block `rank` of cluster cid (clusters numbered x first). */
static uint32_t cluster_block(const struct launch *L, uint32_t cid, uint32_t rank)
{
  const uint32_t *g = L->cfg->grid;
  uint32_t c[3];
  for (int i = 0; i < 3; i++)
    c[i] = L->cfg->cluster[i] ? L->cfg->cluster[i] : 1;   /* no clusters: clusters of one */
  uint32_t ncx = g[0] / c[0], ncy = g[1] / c[1];
  uint32_t x = cid % ncx * c[0] + rank % c[0];
  uint32_t y = cid / ncx % ncy * c[1] + rank / c[0] % c[1];
  uint32_t z = cid / (ncx * ncy) * c[2] + rank / (c[0] * c[1]);
  return x + y * g[0] + z * g[0] * g[1];
}

/* Run group gi of L on worker out. */
static void run_group(struct launch *L, struct worker_out *out, const struct sim_alloc **cache,
                      uint32_t gi)
{
  uint32_t csize = L->cluster_size, ncl = L->group_blocks / csize, n = L->group_blocks;
  struct bmem *mem = calloc(n, sizeof *mem);
  struct sim_block *bs = calloc(n, sizeof *bs);
  struct sim_result *rs = calloc(n, sizeof *rs);
  struct sim_cluster *cls = calloc(ncl, sizeof *cls);
  struct sim_block **ranks = calloc(n, sizeof *ranks);
  uint8_t *status = calloc(n, 1);
  uint64_t *seen = calloc(n, sizeof *seen);
  uint32_t *turn = L->perm ? calloc(n, sizeof *turn) : NULL;  /* an order seed's round */
  uint64_t phases = 0, writes = 0, rng = L->cfg->order_seed ^ gi;
  /* on several workers, the group counts into a table of its own unless it starts as the
     lowest group not ended (block_end's, for a block) */
  int direct = 1;
  struct sim_inst_stats *gst = NULL;
  if (L->tallied) {
    pthread_mutex_lock(&L->lock);
    direct = gi == L->tally.low;
    if (!direct)
      gst = sim_tally_table(&L->tally);
    pthread_mutex_unlock(&L->lock);
  }
  int ok = mem && bs && rs && cls && ranks && status && seen && (turn || !L->perm) &&
           (direct || gst);
  for (uint32_t i = 0; ok && i < n; i++)
    ok = bmem_alloc(L, &mem[i]) == 0;
  if (!ok) {
    out->st = SIM_ERR_NOMEM;
    lower_stop(L, 0);
    goto done;
  }
  for (uint32_t c = 0; c < ncl; c++) {
    cls[c] = (struct sim_cluster){.n = csize, .blk = ranks + (size_t)c * csize,
                                  .progress = &phases};
    for (uint32_t r = 0; r < csize; r++) {
      uint32_t i = c * csize + r;
      block_setup(L, out, &mem[i], cache, cluster_block(L, gi * ncl + c, r), &bs[i], &rs[i]);
      bs[i].cluster = &cls[c];
      bs[i].crank = r;
      bs[i].in_group = 1;
      if (gst)
        bs[i].stats = gst;
      ranks[i] = &bs[i];
    }
  }
  for (uint32_t i = 0; i < n; i++) {
    sim_block_begin(&bs[i]);
    status[i] = SIM_BS_YIELD;
  }
  __atomic_store_n(&L->workers[out->index].state, SIM_WK_RUNNING, __ATOMIC_RELEASE);
  uint32_t highest = 0;
  for (uint32_t i = 0; i < n; i++)
    highest = bs[i].linear > highest ? bs[i].linear : highest;
  for (uint32_t left = n; left;) {
    int moved = 0;
    /* a group before this one faulted, or one ran past the budget: the launch ends with
       its report (the group stops as a whole, so that none of it waits for a block that
       stopped) */
    if (gi > __atomic_load_n(&L->stop_group, __ATOMIC_RELAXED) ||
        highest > __atomic_load_n(&L->stop_after, __ATOMIC_RELAXED))
      break;
    for (uint32_t k = 0; turn && k < n; k++) {     /* Fisher-Yates: the blocks' turns */
      uint32_t j = (uint32_t)(sim_order_next(&rng) % (k + 1));
      turn[k] = turn[j];
      turn[j] = k;
    }
    for (uint32_t k = 0; k < n && left; k++) {
      uint32_t i = turn ? turn[k] : k;
      struct sim_block *b = &bs[i];
      uint64_t now = writes + phases + sim_launch_global_writes(b);
      if (status[i] == SIM_BS_DONE || (status[i] == SIM_BS_WAIT && seen[i] == now))
        continue;
      uint64_t w0 = b->writes;
      status[i] = (uint8_t)sim_block_resume(b, GROUP_SLICE);
      sim_redbuf_flush(b->worker, L->nworkers);     /* (its turn ended) */
      writes += b->writes - w0;
      if (status[i] == SIM_BS_WAIT) {
        seen[i] = writes + phases + sim_launch_global_writes(b);
        moved |= seen[i] != now;
        continue;
      }
      moved = 1;
      if (status[i] != SIM_BS_DONE)
        continue;
      left--;
      if (block_finish(L, out, b, SIM_OK) || b->faulted)
        left = 0;                          /* a fault ends the grid: the others stop */
    }
    if (!left || moved)
      continue;
    /* every block waits and nothing changed: unless a block on another worker may still
       write what they wait for, a deadlock */
    if (L->nworkers > 1) {
      __atomic_store_n(&L->workers[out->index].state, SIM_WK_STUCK, __ATOMIC_RELEASE);
      if (sim_launch_others_running(&bs[0])) {
        sched_yield();
        continue;
      }
    }
    uint32_t low = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++)
      if (status[i] != SIM_BS_DONE && (low == UINT32_MAX || bs[i].linear < bs[low].linear))
        low = i;
    sim_block_stuck(&bs[low]);
    status[low] = SIM_BS_DONE;
    block_finish(L, out, &bs[low], SIM_OK);
    left = 0;
  }
  /* every block's counters: those stopped by a fault count what they did */
  struct sim_counters gctr = {0, 0};
  for (uint32_t i = 0; i < n; i++) {
    sim_counters_add(&gctr, &bs[i].ctr);
    if (status[i] != SIM_BS_DONE) {
      if (bs[i].chunk)
        __atomic_add_fetch(bs[i].budget_used, bs[i].chunk, __ATOMIC_RELAXED);
      free(bs[i].out);
    }
  }
  if (direct)
    sim_counters_add(&out->ctr, &gctr);
  if (L->tallied) {
    pthread_mutex_lock(&L->lock);
    if (direct)
      sim_tally_pass(&L->tally, gi, gi, kept_until(L));
    else if (sim_tally_add(&L->tally, gi, gi, &gctr, &gst, kept_until(L))) {
      out->st = SIM_ERR_NOMEM;
      lower_stop(L, 0);
    }
    pthread_mutex_unlock(&L->lock);
  }
done:
  free(gst);
  for (uint32_t i = 0; bs && i < n; i++)
    sim_race_free_own(&bs[i]);
  for (uint32_t i = 0; mem && i < n; i++)
    bmem_free(&mem[i], L->nwarps);
  free(mem);
  free(bs);
  free(rs);
  free(cls);
  free(ranks);
  free(status);
  free(seen);
  free(turn);
}

/* A worker of a launch of groups: takes the next group until none is left. */
static void group_worker(struct worker_out *out, const struct sim_alloc **cache)
{
  struct launch *L = out->L;
  uint32_t units = L->nblocks / L->group_blocks;
  for (;;) {
    uint32_t idx = __atomic_fetch_add(&L->next, 1, __ATOMIC_RELAXED);
    if (idx >= units)
      break;
    if (!L->perm && idx > __atomic_load_n(&L->stop_group, __ATOMIC_RELAXED))
      break;                                    /* (it would stop at once) */
    run_group(L, out, cache, L->perm ? L->perm[idx] : idx);
    if (out->st != SIM_OK)
      break;
  }
}

/* Wait (L->lock held) until a block ends or parks, or a millisecond has passed. */
static void wait_moved(struct launch *L)
{
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  t.tv_nsec += 1000000;
  if (t.tv_nsec >= 1000000000) {
    t.tv_sec++;
    t.tv_nsec -= 1000000000;
  }
  pthread_cond_timedwait(&L->moved, &L->lock, &t);
}

/* Blocks a worker claims at once (L->lock held, room for one at least): consecutive ones, so
   that two workers do not run neighbouring blocks at the same time. Neighbours share host
   cache lines (the buffers start 16 bytes past a boundary; the trace's per-block entries)
   and split the host's prefetch streams. Taken one at a time in turn, saxpy's and reduce's
   blocks (bench/emu_bench.sh) cost two workers a median 8-15% more CPU than one on the
   device's Intel hosts; in runs of 16, 0-4%, and the two workers' launches took 8-14% less
   time (medians of 70-100 launches in turns). Fewer towards the end of the grid, so that the
   workers end together; never more than the modelled GPU has room for; one at a time on one
   worker. */
#define CLAIM_MAX 16u

static uint32_t claim_size(const struct launch *L)
{
  uint32_t left = L->nblocks - L->next, room = L->resident - L->in_flight;
  uint32_t c = left / (4 * L->nworkers);
  c = c > CLAIM_MAX ? CLAIM_MAX : c < 1 ? 1 : c;
  return c < room ? c : room;
}

/* A worker of a launch without groups: claims blocks in index order while the modelled GPU
   holds fewer than L->resident, and starts them; resumes parked blocks that may move, waits
   while others run, and when nothing can move has the first parked block report its
   deadlock.

   A claimed block counts as started for the modelled GPU (L->in_flight): the blocks claimed
   are always those before L->next, as the blocks started are on a GPU that starts them in
   order. Its worker starts it next, before it resumes or claims another, also while the
   budget's grace pauses the launch (as a running block goes on then); a block after the
   lowest faulting one is given back unstarted, and so is every claim once the budget ran
   out. No deadlock is declared while a claim is pending (L->claimed). */
static void block_worker(struct worker_out *out, const struct sim_alloc **cache)
{
  struct launch *L = out->L;
  struct slot *spare = NULL;
  uint32_t mine = 0, mine_end = 0;             /* this worker's claim: positions mine.. */
  pthread_mutex_lock(&L->lock);
  for (;;) {
    drop_parked(L);
    if (mine < mine_end && (L->abandon || L->budget_out || !may_start_at(L, mine))) {
      L->claimed -= mine_end - mine;            /* given back: they do not start */
      L->in_flight -= mine_end - mine;
      mine = mine_end;
    }
    if (L->abandon)
      break;
    int own = mine < mine_end;
    if (!own &&
        (L->budget_out || __atomic_load_n(&L->grace, __ATOMIC_RELAXED) == SIM_GRACE_PAUSED)) {
      /* the budget ran out: once the running (and claimed) blocks have parked or ended, the
         first parked one reports its deadlock (when it still waits) and the launch ends;
         after the grace (the budget spent, and none faulted for it), with none waiting, the
         launch goes on */
      if (L->running || L->claimed) {
        wait_moved(L);
        continue;
      }
      if (budget_while_parked(out) || L->budget_out)
        L->abandon = 1;
      else
        __atomic_store_n(&L->grace, SIM_GRACE_NONE, __ATOMIC_RELAXED);
      continue;
    }
    int more = L->next < L->nblocks && may_start(L), fresh = 0;
    struct slot *s = NULL;
    if (own || (more && L->in_flight < L->resident)) {
      if (!spare) {                             /* memory for it, outside the lock */
        pthread_mutex_unlock(&L->lock);
        spare = slot_new(L);
        pthread_mutex_lock(&L->lock);
        if (!spare) {
          out_of_memory(L, out);
          continue;                             /* (gives the claim back, and ends) */
        }
        continue;                               /* things may have moved meanwhile */
      }
      if (!own) {
        if (claim_begin(L, out, L->next)) {
          out_of_memory(L, out);
          continue;
        }
        uint32_t c = claim_size(L);
        mine = L->next;
        mine_end = mine + c;
        L->next += c;
        L->in_flight += c;
        L->claimed += c;
      }
      s = spare;
      spare = NULL;
      L->claimed--;
      block_setup(L, out, &s->m, cache, L->perm ? L->perm[mine] : mine, &s->b, &s->r);
      s->in_claim = 1;
      if (L->tallied && !out->cdirect)
        s->b.stats = out->cst;
      mine++;
      fresh = 1;
    } else if ((s = take_movable(L)) != NULL) {
      s->b.final = 0;
    } else if (!more && !L->nparked) {
      break;                                    /* nothing left for this worker */
    } else if (L->running || L->claimed) {
      /* the running blocks may end, park, or write what a parked one waits for; a claimed
         block is about to start */
      wait_moved(L);
      continue;
    } else {
      /* nothing runs, no parked block can move and no block may start: the first parked
         block reports its deadlock (and the launch stops there) */
      s = L->parked[0];
      memmove(&L->parked[0], &L->parked[1], (L->nparked - 1) * sizeof *L->parked);
      L->nparked--;
      s->b.final = 1;
    }
    if (!fresh) {                               /* resumed here: this worker's tables */
      s->b.worker = &L->workers[out->index];
      s->b.stats = out->stats;
      s->b.alloc_cache = cache;
    }
    L->running++;
    pthread_mutex_unlock(&L->lock);
    if (fresh)
      sim_block_begin(&s->b);    /* shared memory is poisoned (or zeroed): sim_race_begin */
    enum sim_bstep st = sim_block_resume(&s->b, 0);
    sim_redbuf_flush(s->b.worker, L->nworkers);   /* (its turn ended: it may resume elsewhere) */
    pthread_mutex_lock(&L->lock);
    L->running--;
    pthread_cond_broadcast(&L->moved);
    if (st == SIM_BS_WAIT) {
      park(L, s);
      continue;
    }
    if (s->b.final)
      say_interblock(L, s);
    L->in_flight--;
    block_end(out, s);
    if (!spare)
      spare = s;
    else
      slot_free(L, s);
  }
  claim_flush(L, out);
  drop_parked(L);
  pthread_cond_broadcast(&L->moved);
  pthread_mutex_unlock(&L->lock);
  slot_free(L, spare);
  free(out->cst);
  out->cst = NULL;
}

/* Whether held worker out may start: *hold reads nonzero. It sleeps until then, a
   millisecond at a time, and returns 0 when no block (group) is left to start by then: the
   others took them all. */
static int hold_released(struct worker_out *out)
{
  struct launch *L = out->L;
  uint32_t units = L->group_blocks ? L->nblocks / L->group_blocks : L->nblocks;
  for (;;) {
    if (__atomic_load_n(L->cfg->hold, __ATOMIC_ACQUIRE))
      return 1;
    uint32_t next;
    if (L->group_blocks) {
      next = __atomic_load_n(&L->next, __ATOMIC_RELAXED);
    } else {
      pthread_mutex_lock(&L->lock);
      next = L->abandon ? units : L->next;
      pthread_mutex_unlock(&L->lock);
    }
    if (next >= units || __atomic_load_n(&L->stop_after, __ATOMIC_RELAXED) != UINT32_MAX)
      return 0;
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);
  }
}

/* The calling thread's CPU time, in seconds. */
static double thread_cpu_s(void)
{
  struct timespec t;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t))
    return 0;
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void *worker_main(void *arg)
{
  struct worker_out *out = arg;
  struct launch *L = out->L;
  const struct sim_prog *p = L->prog;
  double cpu0 = thread_cpu_s();
  if (out->held) {
    if (!hold_released(out)) {
      out->unjoined = 1;                        /* (its state is SIM_WK_IDLE still) */
      out->cpu_s = thread_cpu_s() - cpu0;
      return NULL;
    }
    __atomic_store_n(&L->workers[out->index].state, SIM_WK_RUNNING, __ATOMIC_RELEASE);
  }
  out->stats = sim_keep_zalloc((p->ncode ? p->ncode : 1) * sizeof *out->stats);
  const struct sim_alloc **cache = sim_keep_zalloc((p->ncode ? p->ncode : 1) * sizeof *cache);
  if (!out->stats || !cache) {
    out->st = SIM_ERR_NOMEM;
    lower_stop(L, 0);
    if (!L->group_blocks) {                     /* the others stop too */
      pthread_mutex_lock(&L->lock);
      L->abandon = 1;
      pthread_cond_broadcast(&L->moved);
      pthread_mutex_unlock(&L->lock);
    }
  } else if (L->group_blocks) {
    group_worker(out, cache);
  } else {
    block_worker(out, cache);
  }
  __atomic_store_n(&L->workers[out->index].state, SIM_WK_IDLE, __ATOMIC_RELEASE);
  sim_keep_free(cache, (p->ncode ? p->ncode : 1) * sizeof *cache);
  out->cpu_s = thread_cpu_s() - cpu0;
  return NULL;
}

/* Blocks of nwarps warps an H100 holds at once, the default of sim_launch.resident_blocks:
   132 SMs of 64 warps and 32 blocks each. */
static uint32_t default_resident(uint32_t nwarps)
{
  uint32_t per_sm = nwarps ? 64 / nwarps : 32;
  if (per_sm > 32)
    per_sm = 32;
  return 132 * (per_sm ? per_sm : 1);
}

/* "kernel NAME (FILE.cu:LINE)": the kernel and the first line of its own code, where the
   PTX has line information. */
static void kernel_named(const struct ptx_module *m, int func, char *buf, size_t n)
{
  const struct ptx_func *fn = &m->funcs[func];
  uint32_t best = 0, file = 0;
  for (uint32_t i = fn->first_inst; i < fn->first_inst + fn->ninst; i++) {
    const struct ptx_inst *in = &m->insts[i];
    uint32_t f[1], l[1];
    if (!in->line || ptx_inlined_into(m, in, f, l, 1))
      continue;
    if (!best || (in->file == file && in->line < best)) {
      best = in->line;
      file = in->file;
    }
  }
  const char *path = best ? ptx_file_path(m, file) : NULL;
  const char *base = path ? strrchr(path, '/') : NULL;
  if (path)
    snprintf(buf, n, "kernel %.100s (%.100s:%u)", fn->name, base ? base + 1 : path, best);
  else
    snprintf(buf, n, "kernel %.100s", fn->name);
}

/* The CUDA driver's words for the errors a refused launch gets. */
#define INVALID_VALUE "CUDA_ERROR_INVALID_VALUE (invalid argument)"
#define OUT_OF_RESOURCES "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES (too many resources requested for launch)"
#define COOP_TOO_LARGE "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE (too many blocks in cooperative launch)"

/* What a launch with clusters or a cooperative one needs beyond sim_launch_check's other
   checks (the cluster size limits are checked with those): a grid of whole clusters, one
   cluster dimension, and a cooperative grid whose blocks are all resident at once. */
static enum sim_status check_groups(const struct ptx_module *m, int func, const struct sim_launch *c,
                                    const char *who, char *err, size_t n)
{
  const struct ptx_func *fn = &m->funcs[func];
  const uint32_t *k = fn->reqnctapercluster;
  uint32_t d[3];
  int clusters = sim_cluster_dims(m, func, c, d);
  if (k[0] && c->cluster[0] && (c->cluster[0] != k[0] || c->cluster[1] != (k[1] ? k[1] : 1) ||
                                c->cluster[2] != (k[2] ? k[2] : 1))) {
    snprintf(err, n, "the GPU refuses this launch with " INVALID_VALUE ": %s was compiled with "
             "__cluster_dims__(%u,%u,%u) (PTX .reqnctapercluster) and the launch asks for "
             "clusters of (%u,%u,%u); leave out --cluster", who, d[0], d[1], d[2],
             c->cluster[0], c->cluster[1], c->cluster[2]);
    return SIM_ERR_BADARG;
  }
  if (fn->explicitcluster && !clusters) {
    snprintf(err, n, "the GPU refuses this launch with " INVALID_VALUE ": %s must be launched "
             "with clusters (PTX .explicitcluster); give --cluster X,Y,Z", who);
    return SIM_ERR_BADARG;
  }
  for (int i = 0; clusters && i < 3; i++)
    if (c->grid[i] % d[i]) {
      snprintf(err, n, "the GPU refuses this launch with " INVALID_VALUE ": the grid (%u,%u,%u) "
               "is not a whole number of clusters of (%u,%u,%u) blocks (%s%s: grid.%c = %u is "
               "not a multiple of %u)", c->grid[0], c->grid[1], c->grid[2], d[0], d[1], d[2],
               who, k[0] ? ", compiled with __cluster_dims__" : "", "xyz"[i], c->grid[i], d[i]);
      return SIM_ERR_BADARG;
    }
  uint64_t nblocks = (uint64_t)c->grid[0] * c->grid[1] * c->grid[2];
  uint64_t most = (uint64_t)c->coop_blocks_per_sm * c->sm_count;
  if ((c->cooperative || sim_kernel_cooperative(m, func)) && c->sm_count && nblocks > most) {
    snprintf(err, n, "the GPU refuses this launch with " COOP_TOO_LARGE ": %s is launched "
             "cooperatively (%s), so every block must be resident at once, and at most "
             "%" PRIu64 " blocks are (%u a SM by the occupancy of this launch, %u SMs); this grid "
             "has %" PRIu64, who, c->cooperative ? "--cooperative" : "it uses grid.sync()",
             most, c->coop_blocks_per_sm, c->sm_count, nblocks);
    return SIM_ERR_BADARG;
  }
  return SIM_OK;
}

enum sim_status sim_launch_check(const struct ptx_module *m, int func, const struct sim_launch *c,
                                 uint32_t static_smem, char *err, size_t n)
{
  uint64_t threads = (uint64_t)c->block[0] * c->block[1] * c->block[2];
  uint32_t W = c->warp_size ? c->warp_size : 32;
  uint32_t max_threads = c->max_threads ? c->max_threads : MAX_THREADS_PER_BLOCK;
  char who[256];
  kernel_named(m, func, who, sizeof who);
  const struct ptx_func *fn = &m->funcs[func];
  if (!c->grid[0] || !c->grid[1] || !c->grid[2] || !c->block[0] || !c->block[1] || !c->block[2]) {
    snprintf(err, n, "grid and block dimensions must be at least 1");
    return SIM_ERR_BADARG;
  }
  if (threads > max_threads || c->block[0] > 1024 || c->block[1] > 1024 || c->block[2] > 64) {
    snprintf(err, n, "the GPU refuses this launch with " INVALID_VALUE ": block (%u,%u,%u) has "
             "%" PRIu64 " threads; the GPU allows at most %u per block (x, y <= 1024, z <= 64)",
             c->block[0], c->block[1], c->block[2], threads, max_threads);
    return SIM_ERR_BADARG;
  }
  if (c->grid[1] > 65535 || c->grid[2] > 65535 || c->grid[0] > 0x7fffffffu) {
    snprintf(err, n, "grid (%u,%u,%u) is too large: x <= 2^31-1, y and z <= 65535",
             c->grid[0], c->grid[1], c->grid[2]);
    return SIM_ERR_BADARG;
  }
  if ((uint64_t)c->grid[0] * c->grid[1] * c->grid[2] > 0xffffffffull) {
    snprintf(err, n, "the grid has more than 2^32 blocks");
    return SIM_ERR_BADARG;
  }
  if (W != 32 && W != 64) {
    snprintf(err, n, "warp size %u: the emulator runs warps of 32 or 64 lanes", W);
    return SIM_ERR_BADARG;
  }
  const uint32_t *req = fn->reqntid;
  if (req[0] && (c->block[0] != req[0] || c->block[1] != (req[1] ? req[1] : 1) ||
                 c->block[2] != (req[2] ? req[2] : 1))) {
    snprintf(err, n, "the GPU refuses this launch with " INVALID_VALUE ": %s requires blocks of "
             "exactly (%u,%u,%u) threads (PTX .reqntid); this launch has blocks of (%u,%u,%u)", who, req[0],
             req[1] ? req[1] : 1, req[2] ? req[2] : 1, c->block[0], c->block[1], c->block[2]);
    return SIM_ERR_BADARG;
  }
  const uint32_t *mx = fn->maxntid;
  uint64_t bound = mx[0] ? (uint64_t)mx[0] * (mx[1] ? mx[1] : 1) * (mx[2] ? mx[2] : 1) : 0;
  if (bound && threads > bound) {
    snprintf(err, n, "the GPU refuses this launch with " INVALID_VALUE ": %s was compiled with "
             "__launch_bounds__(%" PRIu64 ") (PTX .maxntid %u, %u, %u): at most %" PRIu64 " threads "
             "a block, and this launch has blocks of %" PRIu64 " threads", who, bound, mx[0],
             mx[1] ? mx[1] : 1, mx[2] ? mx[2] : 1, bound, threads);
    return SIM_ERR_BADARG;
  }
  if (c->regs_per_thread) {
    /* registers are given to warps, each warp's share rounded up to the allocation unit */
    uint64_t unit = c->reg_alloc_unit ? c->reg_alloc_unit : 256;
    uint64_t file = c->regs_per_block ? c->regs_per_block : 65536;
    uint64_t per_warp = ((uint64_t)c->regs_per_thread * W + unit - 1) / unit * unit;
    uint64_t warps = (threads + W - 1) / W;
    if (per_warp * warps > file) {
      uint64_t most = file / per_warp * W;
      snprintf(err, n, "the GPU refuses this launch with " OUT_OF_RESOURCES ": %s uses %u "
               "registers a thread (ptxas), so a block of %" PRIu64 " threads needs %" PRIu64
               " registers and a block may hold %" PRIu64 "; at most %" PRIu64 " threads a block "
               "fit (fewer registers: __launch_bounds__ or -maxrregcount)", who,
               c->regs_per_thread, threads, per_warp * warps, file, most);
      return SIM_ERR_BADARG;
    }
  }
  uint32_t max_smem = c->max_smem ? c->max_smem : DEFAULT_MAX_SMEM;
  if ((uint64_t)static_smem + c->dyn_smem > max_smem) {
    snprintf(err, n, "the GPU refuses this launch with " INVALID_VALUE ": %s needs %u bytes of "
             "static and %u bytes of dynamic shared memory a block; at most %u are available",
             who, static_smem, c->dyn_smem, max_smem);
    return SIM_ERR_BADARG;
  }
  if (sim_launch_check_cluster(m, func, c, who, err, n) != SIM_OK)
    return SIM_ERR_BADARG;
  return check_groups(m, func, c, who, err, n);
}

enum sim_status sim_run(struct sim_device *d, const struct ptx_module *m, const char *kernel,
                        const void *params, size_t params_size, const struct sim_launch *cfg,
                        struct sim_result *res, char *err, size_t errlen)
{
  memset(res, 0, sizeof *res);
  uint32_t W = cfg->warp_size ? cfg->warp_size : 32;
  int f = ptx_find_func(m, kernel);
  if (f < 0 || !m->funcs[f].is_entry) {
    snprintf(err, errlen, "no kernel (.entry) named %s in the module", kernel);
    return SIM_ERR_NOKERNEL;
  }
  /* the launch as it runs: cooperative when the kernel needs it, its clusters' dimension
     (the blocks read it through b->cfg) */
  const struct sim_launch *asked = cfg;
  struct sim_launch eff = *cfg;
  eff.cooperative = cfg->cooperative || sim_kernel_cooperative(m, f);
  if (!sim_cluster_dims(m, f, cfg, eff.cluster))
    memset(eff.cluster, 0, sizeof eff.cluster);
  cfg = &eff;
  struct sim_prog prog;
  enum sim_status st = sim_link(d, m, f, &prog, err, errlen);
  if (st != SIM_OK)
    return st;
  sim_recur_frames(&prog, cfg->frames, cfg->nframes);
  if (params_size != prog.kparam_size) {
    snprintf(err, errlen, "kernel %s takes %u bytes of parameters, %zu were given", kernel,
             prog.kparam_size, params_size);
    sim_prog_free(&prog);
    return SIM_ERR_BADARG;
  }
  /* what the GPU checks before it starts (dyn_base: the static part, aligned for the dynamic) */
  st = sim_launch_check(m, f, asked, cfg->dyn_smem ? prog.dyn_base : prog.static_smem, err, errlen);
  if (st != SIM_OK) {
    sim_prog_free(&prog);
    return st;
  }
  sim_notes_begin(d);
  struct pool pool = {.lock = PTHREAD_MUTEX_INITIALIZER,
                      .pf = {.cut_after = UINT32_MAX, .cut = UINT32_MAX}};
  struct launch L = {
    .d = d, .prog = &prog, .cfg = cfg, .kparams = params, .W = W, .pool = &pool,
    .threads_per_block = cfg->block[0] * cfg->block[1] * cfg->block[2],
    .stop_after = UINT32_MAX, .stop_group = UINT32_MAX,
  };
  L.nblocks = cfg->grid[0] * cfg->grid[1] * cfg->grid[2];
  L.nwarps = (L.threads_per_block + W - 1) / W;
  L.cluster_size = cfg->cluster[0] ? cfg->cluster[0] * cfg->cluster[1] * cfg->cluster[2] : 1;
  L.group_blocks = cfg->cooperative ? L.nblocks : L.cluster_size > 1 ? L.cluster_size : 0;
  if (cfg->cooperative && sim_mem_alloc(d, 16, "the grid workspace of the cooperative launch",
                                        0, &L.coop_ws) != SIM_OK) {
    sim_prog_free(&prog);
    snprintf(err, errlen, "out of host memory");
    return SIM_ERR_NOMEM;
  }
  uint32_t nwk = cfg->workers ? cfg->workers : sim_host_cores();
  uint32_t units = L.group_blocks ? L.nblocks / L.group_blocks : L.nblocks;
  if (cfg->order_seed) {
    /* the seed's order: blocks (groups) start in a shuffle of their indices, on one host
       thread, so that no host timing changes which block's atomics come first */
    nwk = 1;
    L.perm = calloc(units, sizeof *L.perm);
    if (!L.perm) {
      if (L.coop_ws)
        sim_free(d, L.coop_ws);
      sim_prog_free(&prog);
      snprintf(err, errlen, "out of host memory");
      return SIM_ERR_NOMEM;
    }
    uint64_t rng = cfg->order_seed;
    for (uint32_t k = 0; k < units; k++) {
      uint32_t j = (uint32_t)(sim_order_next(&rng) % ((uint64_t)k + 1));
      L.perm[k] = L.perm[j];
      L.perm[j] = k;
    }
  }
  if (nwk > units)
    nwk = units;
  if (nwk < 1)
    nwk = 1;
  if (nwk > 256)
    nwk = 256;
  L.nworkers = nwk;
  L.trace = &res->trace;
  if (cfg->trace_every && cfg->trace_blocks) {
    uint32_t n = (L.nblocks + cfg->trace_every - 1) / cfg->trace_every;
    if (n > cfg->trace_blocks)
      n = cfg->trace_blocks;
    res->trace.blk = aligned_alloc(64, n * sizeof *res->trace.blk);  /* a line each */
    if (res->trace.blk)
      memset(res->trace.blk, 0, n * sizeof *res->trace.blk);
    res->trace.work = sim_keep_alloc((uint64_t)L.nblocks * sizeof *res->trace.work,
                                     SIM_KEEP_ZERO | SIM_KEEP_HUGE);
    if (res->trace.blk) {
      res->trace.nblk = n;
      L.trace_every = cfg->trace_every;
    }
    if (res->trace.work)
      res->trace.nwork = L.nblocks;
    touch_setup(&res->trace, d, cfg->trace_wave);
    /* a block of a wave after the last recorded block's touches nothing first for it */
    uint64_t until = (uint64_t)res->trace.nblk * cfg->trace_every;
    if (cfg->trace_wave)
      until = (until + cfg->trace_wave - 1) / cfg->trace_wave * cfg->trace_wave;
    res->trace.touch_until = until < L.nblocks ? (uint32_t)until : L.nblocks;
  }
  if (cfg->lanes) {
    struct sim_lanes *lz = &res->lanes;
    lz->block = cfg->lanes_block;
    lz->warp = cfg->lanes_warp;
    lz->warp_size = W;
    lz->ctaid[0] = cfg->lanes_block % cfg->grid[0];
    lz->ctaid[1] = (cfg->lanes_block / cfg->grid[0]) % cfg->grid[1];
    lz->ctaid[2] = cfg->lanes_block / (cfg->grid[0] * cfg->grid[1]);
    L.lanes = lz;
  }
  L.resident = cfg->resident_blocks ? cfg->resident_blocks : default_resident(L.nwarps);
  if (L.resident > L.nblocks)
    L.resident = L.nblocks;
  /* a cache line each, aligned: every global store bumps its worker's global_writes, and
     two workers sharing a line would take it from each other (calloc aligns to 16 only) */
  L.workers = aligned_alloc(64, nwk * sizeof *L.workers);
  if (L.workers)
    memset(L.workers, 0, nwk * sizeof *L.workers);
  L.parked = calloc(L.resident, sizeof *L.parked);
  struct worker_out *outs = calloc(nwk, sizeof *outs);
  L.tallied = nwk > 1;
  if (!L.workers || !L.parked || !outs || (L.tallied && sim_tally_init(&L.tally, prog.ncode))) {
    sim_tally_free(&L.tally);
    if (L.coop_ws)
      sim_free(d, L.coop_ws);
    sim_result_free(res);
    free(L.perm);
    free(L.parked);
    free(L.workers);
    free(outs);
    sim_prog_free(&prog);
    snprintf(err, errlen, "out of host memory");
    return SIM_ERR_NOMEM;
  }
  for (uint32_t i = 0; i < nwk; i++) {
    outs[i].L = &L;
    outs[i].index = i;
    outs[i].fault_block = UINT32_MAX;
    outs[i].fault_unit = UINT32_MAX;
  }
  pthread_mutex_init(&L.lock, NULL);
  pthread_cond_init(&L.moved, NULL);
  uint32_t started = 0;
  L.workers[0].state = SIM_WK_RUNNING;
  /* (not in a launch of groups: there whether a group that waits for another is reported
     stuck depends on the workers running, sim_launch_others_running) */
  if (cfg->hold && nwk > 1 && !L.group_blocks)
    outs[nwk - 1].held = 1;                     /* SIM_WK_IDLE until it starts */
  struct sim_crew_job crew;                     /* workers 1 .. started: kept threads */
  if (nwk > 1)
    sim_crew_begin(&crew);
  for (uint32_t i = 1; i < nwk; i++) {
    if (!outs[i].held)
      __atomic_store_n(&L.workers[i].state, SIM_WK_RUNNING, __ATOMIC_RELEASE);
    if (sim_crew_give(&crew, worker_main, &outs[i]) != 0) {
      __atomic_store_n(&L.workers[i].state, SIM_WK_IDLE, __ATOMIC_RELEASE);
      break;
    }
    started = i;
  }
  worker_main(&outs[0]);
  if (nwk > 1)
    sim_crew_end(&crew);
  pthread_cond_destroy(&L.moved);
  pthread_mutex_destroy(&L.lock);

  st = SIM_OK;
  res->nstats = m->ninsts;
  res->stats = calloc(m->ninsts ? m->ninsts : 1, sizeof *res->stats);
  if (!res->stats)
    st = SIM_ERR_NOMEM;
  uint32_t best = UINT32_MAX, best_unit = UINT32_MAX;
  if (L.tallied) {            /* into worker 0's, beside the blocks that counted there */
    if (outs[0].stats)
      sim_tally_sum(&L.tally, kept_until(&L), outs[0].stats, &outs[0].ctr);
    sim_tally_free(&L.tally);
  }
  for (uint32_t i = 0; i < nwk; i++) {
    for (uint32_t pc = 0; res->stats && outs[i].stats && pc < prog.ncode; pc++) {
      const struct sim_inst_stats *a = &outs[i].stats[pc];
      struct sim_inst_stats *to = &res->stats[prog.orig[pc]];
      to->execs += a->execs;
      to->threads += a->threads;
      to->pred_on += a->pred_on;
      to->g_req += a->g_req;
      to->g_sectors += a->g_sectors;
      to->g_sectors_agg += a->g_sectors_agg;
      to->g_lines += a->g_lines;
      to->g_bytes += a->g_bytes;
      to->l_req += a->l_req;
      to->l_sectors += a->l_sectors;
      to->s_req += a->s_req;
      to->s_wavefronts += a->s_wavefronts;
      to->s_ideal += a->s_ideal;
      to->br_uniform += a->br_uniform;
      to->br_divergent += a->br_divergent;
      to->warns += a->warns;
    }
    sim_keep_free(outs[i].stats, (prog.ncode ? prog.ncode : 1) * sizeof *outs[i].stats);
    sim_counters_add(&res->counters, &outs[i].ctr);
    if (outs[i].st != SIM_OK)
      st = outs[i].st;
    if (outs[i].fault_unit < best_unit ||
        (outs[i].fault_unit == best_unit && outs[i].fault_block < best)) {
      best_unit = outs[i].fault_unit;
      best = outs[i].fault_block;
      res->outcome = outs[i].res.outcome;
      res->fault = outs[i].res.fault;
    }
  }
  pool_gather(&pool, &L, res);
  pthread_mutex_destroy(&pool.lock);
  if (sim_notes_end(d, res, warned_kept, &L) != SIM_OK)
    st = SIM_ERR_NOMEM;
  if (st != SIM_OK)
    snprintf(err, errlen, "out of host memory while running the kernel");
  res->static_smem = prog.static_smem;
  res->local_bytes = prog.local_size;
  res->workers_used = started + 1;
  for (uint32_t i = 1; i <= started; i++)
    res->workers_used -= (uint32_t)outs[i].unjoined;
  res->cpu_seconds = 0;
  for (uint32_t i = 0; i <= started; i++)
    res->cpu_seconds += outs[i].cpu_s;
  if (L.coop_ws)
    sim_free(d, L.coop_ws);
  for (uint32_t i = 0; i < nwk; i++)
    sim_redbuf_free(&L.workers[i]);
  free(L.perm);
  free(L.parked);
  free(L.workers);
  free(outs);
  sim_prog_free(&prog);
  return st;
}
