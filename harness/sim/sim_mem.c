/* sim_mem.c: the emulator's global memory: named allocations at GPU-like addresses.
 *
 * Allocations are kept sorted by address and separated by unmapped gaps, so any access
 * outside a live allocation is found by a binary search and reported with the nearest
 * allocation and the offset into (or beyond) it.
 *
 * An allocation's host memory comes from sim_big_alloc: a large one is anonymous memory
 * that starts just past a 2 MiB boundary, advised for transparent huge pages. Its first touches (the inputs copied
 * in, or a launch's workers writing an output) then take one page fault per 2 MiB instead of
 * one per 4 KiB page; faults of several workers at once contend in the kernel. (Tools start
 * without a copy of our memory, tc_exec.c; the process a GPU run forks, run.c, is not given
 * kept buffers, keep_fork in sim_launch.c.)
 *
 * A device buffer's mapping that is freed is kept (struct keep) for the next allocation,
 * which zeros the bytes it uses instead of taking pages fresh from the kernel: a lab 04 sweep
 * point allocates and frees buffers of up to 134 MB, and the kernel's allocation, zeroing and
 * freeing of new pages cost 5 to 15 times a memset of pages already mapped (128 MB: 110-350
 * ms against 12-24 ms, zeroed and copied into, on this project's 2-core machine).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "sim/sim_int.h"

#define ALLOC_ALIGN 256u
#define ALLOC_GAP   4096u
#define HUGE_PAGE   (2ull << 20)
/* Where a mapped buffer starts past its 2 MiB boundary: 16 bytes, where malloc put the
   buffers before (a large chunk's header). Buffers on the boundary itself measured slower:
   saxpy of bench/emu_bench.sh on one worker thread took 0.068-0.070 s a launch with them at
   offset 0 or 128, 0.059-0.062 s at 16, 32 or 48 (best of 8, under chrt -f). */
#define BIG_OFFSET  16u

#if defined(__SANITIZE_ADDRESS__)
#define BIG_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BIG_ASAN 1
#endif
#endif

/* Whether a buffer of n bytes with huge pages from min bytes on gets a mapping of its own. */
static int mapped(uint64_t n, uint64_t min)
{
#ifdef BIG_ASAN
  (void)n;
  (void)min;
  return 0;                   /* calloc'd: AddressSanitizer's red zones and leak check */
#else
  return n >= min;
#endif
}

/* The bytes mapped for a buffer of n: whole huge pages. */
static size_t big_span(uint64_t n)
{
  return (size_t)((n + BIG_OFFSET + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1));
}

/* The mappings of freed device buffers (sim_big_free), for the next sim_big_alloc: at most
   KEEP_MAX of them and KEEP_BYTES in all, in one process (every device's, every run's). */
#define KEEP_MAX   8
#define KEEP_BYTES (1ull << 30)
static struct keep {
  pthread_mutex_t lock;
  struct {
    uint8_t *p;                     /* the mapping's start, on a 2 MiB boundary */
    size_t len;
  } map[KEEP_MAX];
  unsigned n;
  size_t bytes;
} keep = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* A kept mapping for len bytes: the smallest of at least len, cut to len (*have = len), else
   the largest, smaller (*have: its bytes); NULL when none is kept. */
static uint8_t *keep_take(size_t len, size_t *have)
{
  pthread_mutex_lock(&keep.lock);
  unsigned best = KEEP_MAX;
  for (unsigned i = 0; i < keep.n; i++) {
    size_t l = keep.map[i].len, b = best < KEEP_MAX ? keep.map[best].len : 0;
    if (best == KEEP_MAX || (l >= len ? b < len || l < b : b < len && l > b))
      best = i;
  }
  uint8_t *p = NULL;
  *have = 0;
  if (best < KEEP_MAX) {
    p = keep.map[best].p;
    *have = keep.map[best].len;
    keep.bytes -= *have;
    keep.map[best] = keep.map[--keep.n];
  }
  pthread_mutex_unlock(&keep.lock);
#ifdef MADV_DOFORK
  if (p)
    madvise(p, *have, MADV_DOFORK);   /* a live buffer again, as a fresh one */
#endif
  if (p && *have > len) {
    munmap(p + len, *have - len);   /* (whole huge pages: len is a multiple of 2 MiB) */
    *have = len;
  }
  return p;
}

/* In a forked child: the kept mappings were not copied (keep_put), and the lock may have
   been held by a thread the child does not have. */
static void keep_atfork_child(void)
{
  keep.n = 0;
  keep.bytes = 0;
  pthread_mutex_init(&keep.lock, NULL);
}

static pthread_once_t keep_atfork_once = PTHREAD_ONCE_INIT;

static void keep_atfork(void)
{
  pthread_atfork(NULL, NULL, keep_atfork_child);
}

/* Keep mapping p of len bytes for keep_take; 0, or -1 when there is no room (the caller
   unmaps it). A full list makes room by dropping its smallest mapping if p is larger. */
static int keep_put(uint8_t *p, size_t len)
{
  uint8_t *drop = NULL;
  size_t droplen = 0;
  int rc = -1;
  pthread_once(&keep_atfork_once, keep_atfork);
#ifdef MADV_DONTFORK
  madvise(p, len, MADV_DONTFORK);   /* a child (nvcc, nvdisasm: fork and exec) neither copies
                                       its page tables nor makes its pages copy-on-write */
#endif
  pthread_mutex_lock(&keep.lock);
  if (keep.n == KEEP_MAX) {
    unsigned s = 0;
    for (unsigned i = 1; i < keep.n; i++)
      if (keep.map[i].len < keep.map[s].len)
        s = i;
    if (keep.map[s].len < len) {
      drop = keep.map[s].p;
      droplen = keep.map[s].len;
      keep.bytes -= droplen;
      keep.map[s] = keep.map[--keep.n];
    }
  }
  if (keep.n < KEEP_MAX && keep.bytes + len <= KEEP_BYTES) {
    keep.map[keep.n].p = p;
    keep.map[keep.n++].len = len;
    keep.bytes += len;
    rc = 0;
  }
  pthread_mutex_unlock(&keep.lock);
  if (drop)
    munmap(drop, droplen);
  return rc;
}

static void *big_alloc(uint64_t n, uint64_t min, int reuse)
{
  if (!mapped(n, min))
    return n > SIZE_MAX ? NULL : calloc(1, n ? (size_t)n : 1);
  if (n > SIZE_MAX / 2)
    return NULL;
  size_t len = big_span(n);
  size_t have = 0;
  uint8_t *kept = reuse ? keep_take(len, &have) : NULL;
  if (kept && have == len) {
    memset(kept, 0, (size_t)n + BIG_OFFSET);   /* as fresh memory reads; the rest of its
                                                  last page is never reached (sim_mem_find) */
    return kept + BIG_OFFSET;
  }
  /* a huge page's worth more than needed, to find a 2 MiB boundary in; the rest goes back */
  uint8_t *raw = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                      -1, 0);
  if (raw == MAP_FAILED) {
    if (kept)
      munmap(kept, have);
    return NULL;
  }
  uint8_t *p = raw + (HUGE_PAGE - (uintptr_t)raw % HUGE_PAGE) % HUGE_PAGE;
  if (p > raw)
    munmap(raw, (size_t)(p - raw));
  if (raw + len + HUGE_PAGE > p + len)
    munmap(p + len, (size_t)(raw + len + HUGE_PAGE - (p + len)));
#ifdef MADV_HUGEPAGE
  madvise(p, len, MADV_HUGEPAGE);   /* advice: where it is refused (no THP in this kernel, or
                                       "never") the memory is the same, in 4 KiB pages */
#endif
  /* a smaller kept mapping's pages move to the start of this one (a sweep's buffers that
     grow point by point): zeroed there, the rest fresh */
  if (kept && mremap(kept, have, have, MREMAP_MAYMOVE | MREMAP_FIXED, p) != MAP_FAILED)
    memset(p, 0, have);
  else if (kept)
    munmap(kept, have);
  return p + BIG_OFFSET;            /* anonymous memory reads as zeros until written */
}

static void big_free(void *p, uint64_t n, uint64_t min, int reuse)
{
  if (!p)
    return;
  if (!mapped(n, min))
    free(p);
  else if (!reuse || keep_put((uint8_t *)p - BIG_OFFSET, big_span(n)))
    munmap((uint8_t *)p - BIG_OFFSET, big_span(n));
}

/* (a table's mapping is not kept: its untouched pages are to stay unmapped, and a kept one's
   would all be zeroed) */
int sim_big_mapped(uint64_t n) { return mapped(n, SIM_BIG_MIN); }
void *sim_big_alloc(uint64_t n) { return big_alloc(n, SIM_BIG_MIN, 1); }
void sim_big_free(void *p, uint64_t n) { big_free(p, n, SIM_BIG_MIN, 1); }
int sim_table_mapped(uint64_t n) { return mapped(n, SIM_TABLE_MIN); }
void *sim_table_alloc(uint64_t n) { return big_alloc(n, SIM_TABLE_MIN, 0); }
void sim_table_free(void *p, uint64_t n) { big_free(p, n, SIM_TABLE_MIN, 0); }

struct sim_device *sim_device_new(void)
{
  struct sim_device *d = calloc(1, sizeof *d);
  if (!d)
    return NULL;
  d->next_base = SIM_GLOBAL_BASE;
  pthread_mutex_init(&d->notes.lock, NULL);
  return d;
}

void sim_device_free(struct sim_device *d)
{
  if (!d)
    return;
  for (uint32_t i = 0; i < d->nallocs; i++)
    if (!d->allocs[i].view)                     /* a __constant__ variable's: its bank's */
      sim_big_free(d->allocs[i].data, d->allocs[i].size ? d->allocs[i].size : 1);
  free(d->allocs);
  for (uint32_t i = 0; i < d->ncbanks; i++) {
    free(d->cbanks[i].data);
    free(d->cbanks[i].vars);
  }
  free(d->cbanks);
  pthread_mutex_destroy(&d->notes.lock);
  for (uint32_t i = 0; i < d->nmods; i++)
    free(d->mods[i].addr);
  free(d->mods);
  free(d->texs);
  sim_heap_free_all(d);
  free(d);
}

enum sim_status sim_mem_alloc(struct sim_device *d, uint64_t size, const char *name,
                              int read_only, uint64_t *addr)
{
  if (d->nallocs == d->cap) {
    uint32_t cap = d->cap ? d->cap * 2 : 16;
    struct sim_alloc *a = realloc(d->allocs, cap * sizeof *a);
    if (!a)
      return SIM_ERR_NOMEM;
    d->allocs = a;
    d->cap = cap;
  }
  uint64_t n = size ? size : 1;
  uint8_t *data = sim_big_alloc(n);
  if (!data)
    return SIM_ERR_NOMEM;
  struct sim_alloc *a = &d->allocs[d->nallocs++];   /* addresses only grow: stays sorted */
  a->base = d->next_base;
  a->size = size;
  a->data = data;
  a->read_only = read_only;
  a->heap = 0;
  a->view = 0;
  a->written = 0;                               /* zeros, as the host made them */
  snprintf(a->name, sizeof a->name, "%s", name ? name : "allocation");
  d->next_base += (n + ALLOC_ALIGN - 1) / ALLOC_ALIGN * ALLOC_ALIGN + ALLOC_GAP;
  *addr = a->base;
  return SIM_OK;
}

enum sim_status sim_malloc(struct sim_device *d, uint64_t size, const char *name, uint64_t *addr)
{
  return sim_mem_alloc(d, size, name, 0, addr);
}

enum sim_status sim_free(struct sim_device *d, uint64_t addr)
{
  for (uint32_t i = 0; i < d->nallocs; i++)
    if (d->allocs[i].base == addr) {
      if (d->allocs[i].heap || d->allocs[i].view)
        return SIM_ERR_BADARG;                  /* the device heap and the constant banks
                                                   live as long as d */
      sim_big_free(d->allocs[i].data, d->allocs[i].size ? d->allocs[i].size : 1);
      memmove(&d->allocs[i], &d->allocs[i + 1], (d->nallocs - i - 1) * sizeof *d->allocs);
      d->nallocs--;
      return SIM_OK;
    }
  return SIM_ERR_BADARG;
}

/* Index of the last allocation with base <= addr, or -1. */
static int64_t upper_index(const struct sim_device *d, uint64_t addr)
{
  int64_t lo = 0, hi = (int64_t)d->nallocs - 1, best = -1;
  while (lo <= hi) {
    int64_t mid = (lo + hi) / 2;
    if (d->allocs[mid].base <= addr) {
      best = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return best;
}

const struct sim_alloc *sim_mem_find(const struct sim_device *d, uint64_t addr, uint64_t size)
{
  int64_t i = upper_index(d, addr);
  if (i < 0)
    return NULL;
  const struct sim_alloc *a = &d->allocs[i];
  if (addr - a->base > a->size || size > a->size - (addr - a->base))
    return NULL;
  return a;
}

const struct sim_alloc *sim_mem_nearest(const struct sim_device *d, uint64_t addr)
{
  if (!d->nallocs)
    return NULL;
  int64_t i = upper_index(d, addr);
  if (i < 0)
    return &d->allocs[0];
  if (addr - d->allocs[i].base < d->allocs[i].size)
    return &d->allocs[i];                       /* inside it (a misaligned access, say) */
  if (i + 1 < (int64_t)d->nallocs) {
    const struct sim_alloc *a = &d->allocs[i], *b = &d->allocs[i + 1];
    uint64_t past = addr - (a->base + a->size);
    uint64_t before = b->base - addr;
    return past <= before ? a : b;
  }
  return &d->allocs[i];
}

/* The host wrote n bytes at addr into a: when that is all of a, no device store has
   changed it since (a part leaves the mark: the rest may still hold the device's bytes). */
static void host_wrote(const struct sim_alloc *a, uint64_t addr, uint64_t n)
{
  if (addr == a->base && n == a->size)
    *(uint8_t *)&a->written = 0;
}

enum sim_status sim_write(struct sim_device *d, uint64_t addr, const void *src, uint64_t n)
{
  const struct sim_alloc *a = sim_mem_find(d, addr, n);
  if (!a)
    return SIM_ERR_BADARG;
  memcpy(a->data + (addr - a->base), src, n);
  host_wrote(a, addr, n);
  return SIM_OK;
}

enum sim_status sim_read(const struct sim_device *d, uint64_t addr, void *dst, uint64_t n)
{
  const struct sim_alloc *a = sim_mem_find(d, addr, n);
  if (!a)
    return SIM_ERR_BADARG;
  memcpy(dst, a->data + (addr - a->base), n);
  return SIM_OK;
}

enum sim_status sim_fill(struct sim_device *d, uint64_t addr, uint8_t byte, uint64_t n)
{
  const struct sim_alloc *a = sim_mem_find(d, addr, n);
  if (!a)
    return SIM_ERR_BADARG;
  memset(a->data + (addr - a->base), byte, n);
  host_wrote(a, addr, n);
  return SIM_OK;
}

const void *sim_view(const struct sim_device *d, uint64_t addr, uint64_t n)
{
  const struct sim_alloc *a = sim_mem_find(d, addr, n);
  return a ? a->data + (addr - a->base) : NULL;
}

int sim_written(const struct sim_device *d, uint64_t addr)
{
  const struct sim_alloc *a = sim_mem_find(d, addr, 0);
  return a ? a->written : 1;
}

int sim_grow(void **p, uint32_t *cap, uint32_t need, size_t elem, uint32_t first)
{
  if (need <= *cap)
    return 0;
  uint32_t c = *cap ? *cap : first;
  while (c < need)
    c *= 2;
  void *np = realloc(*p, (size_t)c * elem);
  if (!np)
    return -1;
  *p = np;
  *cap = c;
  return 0;
}
