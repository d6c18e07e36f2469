/* sim_lanes.c: the lane log, a record of one chosen warp, lane by lane.
 *
 * The counters say how many sectors a load took and how many wavefronts a shared access cost;
 * the lane log says which lane asked for which address, so a picture can show why: a sector
 * map of a global load, a bank map of a shared access, a timeline of which lanes ran which
 * source line (divergent paths one after the other). For one warp of one block (the launch
 * names them) it keeps every warp-instruction in the order the warp ran them: the code index,
 * the active lanes and those whose guard held, and for a memory access each lane's address,
 * resolved to its space, with the sectors or wavefronts the statistics counted for it (so a
 * picture and the metrics cannot disagree).
 *
 * Cost when off: the warp layer (sim_warp.c) tests one pointer (b->lanes) per instruction, and
 * sim_stats_mem one per memory access; sim_exec and its lane loops are left as they are (a
 * call there cost 3% on a tight loop, by making the compiler keep more values across it). The
 * block that holds the logged warp calls in here for each of its warps' instructions and keeps
 * only the logged warp's. Recording changes nothing the kernel sees.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/sim_int.h"

void sim_lanes_inst(struct sim_block *b, const struct sim_warp *w, uint32_t pc, uint64_t m)
{
  struct sim_lanes *lz = b->lanes;
  b->lanes_open = 0;
  if (w->id != lz->warp || lz->truncated)
    return;
  const struct ptx_inst *in = &b->prog->code[pc];
  uint64_t e = m;                                /* the lanes its guard lets through */
  if (in->guard != PTX_NOREG) {
    const uint64_t *g = w->regs + (size_t)in->guard * b->W;
    e = 0;
    for (uint64_t mm = m; mm; mm &= mm - 1) {
      unsigned l = sim_ctz64(mm);
      if ((g[l] & 1) != in->guard_neg)
        e |= 1ull << l;
    }
  }
  if (lz->nstep >= SIM_LANES_MAX_STEPS ||
      sim_grow((void **)&lz->step, &lz->cap_step, lz->nstep + 1, sizeof *lz->step, 256)) {
    lz->truncated = 1;
    return;
  }
  const struct sim_inst_stats *st = &b->stats[pc];
  b->lanes_before[0] = st->g_sectors;
  b->lanes_before[1] = st->l_sectors;
  b->lanes_before[2] = st->s_wavefronts;
  b->lanes_before[3] = st->s_ideal;
  lz->step[lz->nstep++] = (struct sim_lane_step){
    .pc = pc, .inst = b->prog->orig[pc], .active = m, .pred = e, .first = lz->nacc,
    .space = PTX_SP_NONE,
  };
  b->lanes_open = 1;
}

/* The index in lz->buf of the allocation holding [a, a + size), added when new; 0xff when it
   is in none or the table is full. */
static uint8_t buffer_of(struct sim_block *b, struct sim_lanes *lz, uint64_t a, uint32_t size)
{
  for (uint32_t i = 0; i < lz->nbuf; i++)
    if (a - lz->buf[i].base < lz->buf[i].size)
      return (uint8_t)i;
  const struct sim_alloc *al = sim_mem_find(b->dev, a, size);
  if (!al || lz->nbuf == SIM_LANES_MAX_BUFS)
    return 0xff;
  struct sim_lane_buf *x = &lz->buf[lz->nbuf];
  x->base = al->base;
  x->size = al->size;
  memcpy(x->name, al->name, sizeof x->name);
  x->name[sizeof x->name - 1] = 0;
  return (uint8_t)lz->nbuf++;
}

void sim_lanes_mem(struct sim_block *b, uint32_t pc, enum ptx_space sp, const uint64_t *addr,
                   uint64_t m, uint32_t size)
{
  struct sim_lanes *lz = b->lanes;
  if (!b->lanes_open || !lz->nstep || lz->step[lz->nstep - 1].pc != pc)
    return;
  b->lanes_open = 0;                             /* one access per instruction */
  struct sim_lane_step *s = &lz->step[lz->nstep - 1];
  if (sim_grow((void **)&lz->acc, &lz->cap_acc, lz->nacc + sim_popc64(m), sizeof *lz->acc, 256)) {
    lz->truncated = 1;
    return;
  }
  enum ptx_op op = (enum ptx_op)b->prog->code[pc].op;
  s->access = (uint8_t)(op == PTX_OP_ST || op == PTX_OP_SUST ? SIM_ACC_WRITE
                        : op == PTX_OP_ATOM || op == PTX_OP_RED ? SIM_ACC_ATOMIC : SIM_ACC_READ);
  s->size = size;
  s->first = lz->nacc;
  for (uint64_t mm = m; mm; mm &= mm - 1) {
    unsigned l = sim_ctz64(mm);
    uint64_t a = addr[l];
    enum ptx_space real = sp;
    if (sp == PTX_SP_NONE) {                     /* generic: the window it falls in */
      if (a - SIM_SHARED_WIN < SIM_WIN_SIZE) {
        real = PTX_SP_SHARED;
        a -= SIM_SHARED_WIN;
      } else if (a - SIM_LOCAL_WIN < SIM_WIN_SIZE) {
        real = PTX_SP_LOCAL;
        a -= SIM_LOCAL_WIN;
      } else {
        real = PTX_SP_GLOBAL;
      }
    }
    uint8_t buf = real == PTX_SP_GLOBAL || real == PTX_SP_CONST ? buffer_of(b, lz, a, size) : 0xff;
    lz->acc[lz->nacc++] = (struct sim_lane_acc){.addr = a, .lane = (uint8_t)l,
                                                 .space = (uint8_t)real, .buf = buf};
  }
  s->nacc = lz->nacc - s->first;
  s->space = s->nacc ? lz->acc[s->first].space : PTX_SP_NONE;
  const struct sim_inst_stats *st = &b->stats[pc];
  switch (s->space) {
  case PTX_SP_GLOBAL: s->cost = (uint32_t)(st->g_sectors - b->lanes_before[0]); break;
  case PTX_SP_LOCAL: s->cost = (uint32_t)(st->l_sectors - b->lanes_before[1]); break;
  case PTX_SP_SHARED:
    s->cost = (uint32_t)(st->s_wavefronts - b->lanes_before[2]);
    s->ideal = (uint32_t)(st->s_ideal - b->lanes_before[3]);
    break;
  default: break;
  }
}
