/* sim_note.c: what a launch reports besides its outcome: warnings (a read past the end of a
 * __constant__ variable, which the GPU runs through) and the values a kernel set with
 * cudaGraphSetConditional.
 *
 * Blocks run on several host threads at once, so the notes of the launch running on a device
 * are gathered under one lock in the device (struct sim_notes) and moved into the result when
 * the launch ends. What is kept does not depend on which host thread ran which block first:
 * a warning keeps the lowest block that gave it (and that block's first time), a conditional
 * handle the value the highest block set last, as if blocks ran one after another in index
 * order. A warning's count is the launch's statistics' (sim_inst_stats.warns, in the block's
 * own table: a kernel may read past a __constant__ array millions of times), so that, as
 * the warnings themselves (sim_notes_end's kept), it leaves out the blocks a serial run
 * would not have run when the launch faults.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_int.h"

void sim_notes_begin(struct sim_device *d)
{
  struct sim_notes *n = &d->notes;
  pthread_mutex_lock(&n->lock);
  __atomic_store_n(&n->nwarn, 0, __ATOMIC_RELEASE);
  n->ngcond = 0;
  n->warn_more = n->gcond_more = 0;
  pthread_mutex_unlock(&n->lock);
}

enum sim_status sim_notes_end(struct sim_device *d, struct sim_result *res,
                              int (*kept)(const void *arg, uint32_t block), const void *arg)
{
  struct sim_notes *n = &d->notes;
  enum sim_status st = SIM_OK;
  pthread_mutex_lock(&n->lock);
  if (n->nwarn) {
    res->warn = malloc(n->nwarn * sizeof *res->warn);
    if (res->warn) {
      /* by instruction, in code order */
      uint32_t k = 0;
      for (uint32_t i = 0; i < n->nwarn; i++) {
        if (!kept(arg, n->warn_block[i]))
          continue;
        uint32_t j = k++;
        for (; j > 0 && res->warn[j - 1].inst > n->warn[i].inst; j--)
          res->warn[j] = res->warn[j - 1];
        res->warn[j] = n->warn[i];
        const uint32_t inst = n->warn[i].inst;
        res->warn[j].count = res->stats && inst < res->nstats ? res->stats[inst].warns : 0;
      }
      res->nwarn = k;
      res->warn_more = n->warn_more;
    } else {
      st = SIM_ERR_NOMEM;
    }
  }
  if (n->ngcond) {
    res->gcond = malloc(n->ngcond * sizeof *res->gcond);
    if (res->gcond) {
      memcpy(res->gcond, n->gcond, n->ngcond * sizeof *res->gcond);
      res->ngcond = n->ngcond;
      res->gcond_more = n->gcond_more;
    } else {
      st = SIM_ERR_NOMEM;
    }
  }
  __atomic_store_n(&n->nwarn, 0, __ATOMIC_RELEASE);
  n->ngcond = 0;
  pthread_mutex_unlock(&n->lock);
  return st;
}

static void where_thread(const struct sim_block *b, const struct sim_warp *w, unsigned l,
                         uint32_t block[3], uint32_t thread[3])
{
  memcpy(block, b->ctaid, 3 * sizeof *block);
  memcpy(thread, w->tid[l], 3 * sizeof *thread);
}

int sim_note_warn_count(struct sim_block *b, uint32_t pc)
{
  struct sim_notes *n = &b->dev->notes;
  if (b->stats && pc < b->prog->ncode)
    b->stats[pc].warns++;
  uint32_t inst = pc < b->prog->ncode ? b->prog->orig[pc] : PTX_NOREG;
  /* without the lock: entries are written before nwarn counts them, never moved */
  uint32_t have = __atomic_load_n(&n->nwarn, __ATOMIC_ACQUIRE);
  for (uint32_t i = 0; i < have; i++)
    if (n->warn[i].inst == inst)
      return b->linear < __atomic_load_n(&n->warn_block[i], __ATOMIC_RELAXED);
  pthread_mutex_lock(&n->lock);
  uint32_t i = 0;
  while (i < n->nwarn && n->warn[i].inst != inst)
    i++;
  int keep = 0;
  if (i < n->nwarn) {
    keep = b->linear < n->warn_block[i];
  } else if (n->nwarn == SIM_MAX_WARNINGS) {
    n->warn_more++;
  } else {
    memset(&n->warn[i], 0, sizeof n->warn[i]);
    n->warn[i].inst = inst;
    n->warn_block[i] = UINT32_MAX;
    __atomic_store_n(&n->nwarn, i + 1, __ATOMIC_RELEASE);
    keep = 1;
  }
  pthread_mutex_unlock(&n->lock);
  return keep;
}

void sim_note_warn(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l,
                   const char *msg)
{
  struct sim_notes *n = &b->dev->notes;
  uint32_t inst = pc < b->prog->ncode ? b->prog->orig[pc] : PTX_NOREG;
  pthread_mutex_lock(&n->lock);
  for (uint32_t i = 0; i < n->nwarn; i++) {
    struct sim_warning *x = &n->warn[i];
    if (x->inst != inst || b->linear >= n->warn_block[i])
      continue;
    __atomic_store_n(&n->warn_block[i], b->linear, __ATOMIC_RELAXED);  /* the lowest block's
                                                                           first time */
    where_thread(b, w, l, x->block, x->thread);
    char loc[256];
    sim_where(b->prog->mod, inst, loc, sizeof loc);
    snprintf(x->message, sizeof x->message, "%.330s, at %.120s by thread (%u,%u,%u) in block "
             "(%u,%u,%u)", msg, loc, x->thread[0], x->thread[1], x->thread[2], x->block[0],
             x->block[1], x->block[2]);
  }
  pthread_mutex_unlock(&n->lock);
}

void sim_note_gcond(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l,
                    uint64_t handle, uint32_t value)
{
  struct sim_notes *n = &b->dev->notes;
  pthread_mutex_lock(&n->lock);
  uint32_t i = 0;
  while (i < n->ngcond && n->gcond[i].handle != handle)
    i++;
  if (i == n->ngcond) {
    if (n->ngcond == SIM_MAX_GCONDS) {
      n->gcond_more++;
      pthread_mutex_unlock(&n->lock);
      return;
    }
    n->ngcond++;
    n->gcond[i].handle = handle;
    n->gcond[i].calls = 0;
    n->gcond_block[i] = 0;
  }
  struct sim_gcond *g = &n->gcond[i];
  if (!g->calls || b->linear >= n->gcond_block[i]) {  /* the highest block's last call */
    n->gcond_block[i] = b->linear;
    g->value = value;
    g->inst = pc < b->prog->ncode ? b->prog->orig[pc] : PTX_NOREG;
    where_thread(b, w, l, g->block, g->thread);
  }
  g->calls++;
  pthread_mutex_unlock(&n->lock);
}
