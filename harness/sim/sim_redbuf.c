/* sim_redbuf.c: the global 32-bit integer adds a worker holds back (sim_int.h's struct
 * sim_redbuf says which and until when): their buffer, and its flush into memory.
 */
#include <stdlib.h>

#include "sim/sim_int.h"

struct sim_redbuf *sim_redbuf_alloc(struct sim_worker *wk)
{
  return wk->red = calloc(1, sizeof *wk->red);   /* (keys zero: every slot free) */
}

unsigned long sim_redbuf_flushed, sim_redbuf_flushes;

void sim_redbuf_flush(struct sim_worker *wk, uint32_t nworkers)
{
  struct sim_redbuf *rb = wk->red;
  wk->red_al = NULL;
  if (!rb || !rb->n)
    return;
  for (uint32_t k = 0; k < rb->n; k++) {
    const unsigned i = rb->used[k];
    __atomic_fetch_add((uint32_t *)rb->key[i], rb->add[i], __ATOMIC_SEQ_CST);
    rb->key[i] = 0;
  }
  __atomic_fetch_add(&sim_redbuf_flushed, rb->n, __ATOMIC_RELAXED);
  __atomic_fetch_add(&sim_redbuf_flushes, 1, __ATOMIC_RELAXED);
  rb->n = 0;
  /* the adds were counted as they were made; on several workers a block parked on another,
     which saw that count and then the memory without them, must look again */
  if (nworkers > 1)
    wk->global_writes++;
}

void sim_redbuf_free(struct sim_worker *wk)
{
  free(wk->red);
  wk->red = NULL;
  wk->red_al = NULL;
}
