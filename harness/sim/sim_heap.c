/* sim_heap.c: the device heap, what in-kernel malloc() and free() (and C++ new and delete,
 * which nvcc lowers to them) hand out and take back.
 *
 * As on the GPU, the heap is one region of global memory of a fixed size (CUDA's default
 * cudaLimitMallocHeapSize, 8 MiB, unless sim_set_heap_size says otherwise), made on the
 * device the first time a kernel that calls malloc or free is linked, and kept for the
 * device's life: a block malloc'd by one launch may be used and freed by a later one.
 * malloc returns a 16-byte-aligned block, or NULL when no free range is large enough.
 *
 * Every access to the heap is checked against the blocks that are live (sim_heap_check): a
 * read past the end of a malloc'd block, or of a block already freed, is reported like an
 * access outside a cudaMalloc'd buffer, naming the block. Our bookkeeping is host-side (not
 * in the heap's bytes), so a kernel that overruns a block cannot corrupt it.
 *
 * Blocks of a launch run on several worker threads: malloc and free take the heap's lock;
 * the access check reads the owner table without it (an access racing a free of its block
 * by another thread is the kernel's own use-after-free race).
 *
 * The allocator: memory in units of 16 bytes; first fit in a list of free ranges, else the
 * never-used top of the heap; when neither has room, the free ranges are merged (sorted by
 * offset, neighbours joined, the last one given back to the top) and the search runs again.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_int.h"

#define UNIT 16u                         /* malloc's alignment: CUDA guarantees 16 bytes */

struct heap_range { uint32_t off, len; };   /* in units */

struct sim_heap {
  pthread_mutex_t lock;
  uint64_t base, size;                   /* its allocation on the device */
  uint32_t nunits;
  uint32_t *owner;                       /* per unit: 1 + the first unit of the live block
                                            holding it, or 0 (free) */
  uint32_t *bytes;                       /* per unit starting a live block: bytes asked for */
  uint32_t top;                          /* units at and past this were never handed out */
  struct heap_range *free;               /* ranges freed below top, unordered */
  uint32_t nfree, cap_free;
};

enum sim_status sim_set_heap_size(struct sim_device *d, uint64_t bytes)
{
  if (d->heap || !bytes || bytes > SIM_HEAP_MAX)
    return SIM_ERR_BADARG;
  d->heap_limit = bytes;
  return SIM_OK;
}

enum sim_status sim_heap_ready(struct sim_device *d)
{
  if (d->heap)
    return SIM_OK;
  uint64_t size = d->heap_limit ? d->heap_limit : SIM_HEAP_DEFAULT;
  size = (size + UNIT - 1) / UNIT * UNIT;
  struct sim_heap *h = calloc(1, sizeof *h);
  if (!h)
    return SIM_ERR_NOMEM;
  h->nunits = (uint32_t)(size / UNIT);
  h->owner = calloc(h->nunits, sizeof *h->owner);
  h->bytes = calloc(h->nunits, sizeof *h->bytes);
  enum sim_status st = h->owner && h->bytes ? SIM_OK : SIM_ERR_NOMEM;
  if (st == SIM_OK)
    st = sim_mem_alloc(d, size, "the device heap (in-kernel malloc)", 0, &h->base);
  if (st != SIM_OK) {
    free(h->owner);
    free(h->bytes);
    free(h);
    return st;
  }
  /* the allocation is found again by its base: sim_mem_alloc keeps the array sorted and
     this one is the last */
  d->allocs[d->nallocs - 1].heap = 1;
  h->size = size;
  pthread_mutex_init(&h->lock, NULL);
  d->heap = h;
  return SIM_OK;
}

void sim_heap_free_all(struct sim_device *d)
{
  struct sim_heap *h = d->heap;
  if (!h)
    return;
  pthread_mutex_destroy(&h->lock);
  free(h->owner);
  free(h->bytes);
  free(h->free);
  free(h);
  d->heap = NULL;
}

static int by_offset(const void *a, const void *b)
{
  const struct heap_range *x = a, *y = b;
  return x->off < y->off ? -1 : x->off > y->off;
}

/* Merge the free ranges: sorted, neighbours joined, the one that ends at top given back. */
static void coalesce(struct sim_heap *h)
{
  if (!h->nfree)
    return;
  qsort(h->free, h->nfree, sizeof *h->free, by_offset);
  uint32_t n = 0;
  for (uint32_t i = 0; i < h->nfree; i++) {
    if (n && h->free[n - 1].off + h->free[n - 1].len == h->free[i].off)
      h->free[n - 1].len += h->free[i].len;
    else
      h->free[n++] = h->free[i];
  }
  if (n && h->free[n - 1].off + h->free[n - 1].len == h->top)
    h->top = h->free[--n].off;
  h->nfree = n;
}

/* First unit of a range of `units` taken from the free ranges or the top, or UINT32_MAX. */
static uint32_t take(struct sim_heap *h, uint32_t units)
{
  for (uint32_t i = 0; i < h->nfree; i++)
    if (h->free[i].len >= units) {
      uint32_t off = h->free[i].off;
      h->free[i].off += units;
      h->free[i].len -= units;
      if (!h->free[i].len)
        h->free[i] = h->free[--h->nfree];
      return off;
    }
  if (h->nunits - h->top >= units) {
    uint32_t off = h->top;
    h->top += units;
    return off;
  }
  return UINT32_MAX;
}

uint64_t sim_heap_malloc(struct sim_device *d, uint64_t size)
{
  struct sim_heap *h = d->heap;
  if (!h || size > h->size)
    return 0;
  uint32_t units = size ? (uint32_t)((size + UNIT - 1) / UNIT) : 1;
  pthread_mutex_lock(&h->lock);
  uint32_t off = take(h, units);
  if (off == UINT32_MAX) {
    coalesce(h);
    off = take(h, units);
  }
  if (off != UINT32_MAX) {
    for (uint32_t u = off; u < off + units; u++)
      __atomic_store_n(&h->owner[u], off + 1, __ATOMIC_RELAXED);
    h->bytes[off] = (uint32_t)size;
  }
  pthread_mutex_unlock(&h->lock);
  return off == UINT32_MAX ? 0 : h->base + (uint64_t)off * UNIT;
}

int sim_heap_free(struct sim_device *d, uint64_t addr)
{
  struct sim_heap *h = d->heap;
  if (!addr)
    return 0;                            /* free(NULL) does nothing */
  if (!h || addr - h->base >= h->size || (addr - h->base) % UNIT)
    return -1;
  uint32_t off = (uint32_t)((addr - h->base) / UNIT);
  int r = -1;
  pthread_mutex_lock(&h->lock);
  if (h->owner[off] == off + 1 &&
      !sim_grow((void **)&h->free, &h->cap_free, h->nfree + 1, sizeof *h->free, 64)) {
    uint32_t units = h->bytes[off] ? (h->bytes[off] + UNIT - 1) / UNIT : 1;
    for (uint32_t u = off; u < off + units; u++)
      __atomic_store_n(&h->owner[u], 0, __ATOMIC_RELAXED);
    h->bytes[off] = 0;
    h->free[h->nfree++] = (struct heap_range){off, units};
    r = 0;
  }
  pthread_mutex_unlock(&h->lock);
  return r;
}

/* The live block holding heap offset o: its first unit + 1, or 0. */
static uint32_t owner_of(const struct sim_heap *h, uint64_t o)
{
  return o < h->size ? __atomic_load_n(&h->owner[o / UNIT], __ATOMIC_RELAXED) : 0;
}

int sim_heap_check(const struct sim_device *d, uint64_t addr, uint32_t size)
{
  const struct sim_heap *h = d->heap;
  uint64_t o = addr - h->base;
  uint32_t w = owner_of(h, o);
  if (!w)
    return -1;
  uint64_t start = (uint64_t)(w - 1) * UNIT;
  return o + size - start <= __atomic_load_n(&h->bytes[w - 1], __ATOMIC_RELAXED) ? 0 : -1;
}

void sim_heap_describe(const struct sim_device *d, uint64_t addr, uint32_t size, char *buf,
                       size_t n)
{
  const struct sim_heap *h = d->heap;
  uint64_t o = addr - h->base;
  uint32_t w = owner_of(h, o);
  if (!w && o >= UNIT)
    w = owner_of(h, o - UNIT);           /* just past a block: name it */
  if (w) {
    uint64_t start = h->base + (uint64_t)(w - 1) * UNIT, len = h->bytes[w - 1];
    if (addr >= start + len) {           /* counted as sim_fault_mem counts for buffers */
      uint64_t past = addr - (start + len) + 1;
      snprintf(buf, n, "%" PRIu64 " byte%s past the end of a %" PRIu64 "-byte block malloc'd "
               "at 0x%" PRIx64 " (the device heap)", past, past == 1 ? "" : "s", len, start);
    } else {
      snprintf(buf, n, "across the end of a %" PRIu64 "-byte block malloc'd at 0x%" PRIx64
               " (the device heap)", len, start);
    }
  } else {
    snprintf(buf, n, "in the device heap at offset %" PRIu64 ", in no block malloc holds "
             "(freed already, or never handed out)", o);
  }
}
