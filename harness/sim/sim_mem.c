/* sim_mem.c: the emulator's global memory: named allocations at GPU-like addresses.
 *
 * Allocations are kept sorted by address and separated by unmapped gaps, so any access
 * outside a live allocation is found by a binary search and reported with the nearest
 * allocation and the offset into (or beyond) it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_int.h"

#define ALLOC_ALIGN 256u
#define ALLOC_GAP   4096u

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
      free(d->allocs[i].data);
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
  uint8_t *data = calloc(1, n);
  if (!data)
    return SIM_ERR_NOMEM;
  struct sim_alloc *a = &d->allocs[d->nallocs++];   /* addresses only grow: stays sorted */
  a->base = d->next_base;
  a->size = size;
  a->data = data;
  a->read_only = read_only;
  a->heap = 0;
  a->view = 0;
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
      free(d->allocs[i].data);
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

enum sim_status sim_write(struct sim_device *d, uint64_t addr, const void *src, uint64_t n)
{
  const struct sim_alloc *a = sim_mem_find(d, addr, n);
  if (!a)
    return SIM_ERR_BADARG;
  memcpy(a->data + (addr - a->base), src, n);
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
  return SIM_OK;
}

const void *sim_view(const struct sim_device *d, uint64_t addr, uint64_t n)
{
  const struct sim_alloc *a = sim_mem_find(d, addr, n);
  return a ? a->data + (addr - a->base) : NULL;
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
