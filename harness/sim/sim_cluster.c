/* sim_cluster.c: thread-block clusters and cooperative launches, as a block sees them.
 *
 * A cluster (sm_90: __cluster_dims__, or the launch's cluster attribute) is a group of blocks
 * that run at the same time and see each other's shared memory (distributed shared memory):
 * `mapa` turns a shared address of the block into the address of the same variable in
 * another block of the cluster, and ld/st/atom reach it there. barrier.cluster.arrive/.wait
 * is a split barrier over every thread of the cluster. The blocks of a cluster run
 * interleaved on one host thread (sim_launch.c's run_group), so none of this needs host
 * atomics.
 *
 * A cooperative launch has every block resident at once; cooperative_groups' grid.sync()
 * finds its grid workspace (a counter in global memory) in %envreg1:%envreg2 and spins on it
 * with acquire loads, which the emulator runs as written, all blocks interleaved.
 *
 * Shared-space addresses of other blocks: SIM_DSMEM_STRIDE * (rank + 1) + offset, inside the
 * shared window of generic addresses; a block's own addresses (below the stride) stay what
 * they were.
 */
#include <stdio.h>
#include <string.h>

#include "sim/sim_int.h"

/* ---- which launches ---- */

/* Whether function fi of m, or one it calls, reads %envreg; seen marks functions visited. */
static int reads_envreg(const struct ptx_module *m, uint32_t fi, uint8_t *seen)
{
  if (fi >= m->nfuncs || seen[fi])
    return 0;
  seen[fi] = 1;
  const struct ptx_func *f = &m->funcs[fi];
  for (uint32_t i = f->first_inst; i < f->first_inst + f->ninst; i++) {
    const struct ptx_inst *in = &m->insts[i];
    for (uint32_t k = 0; k < in->nopd; k++) {
      const struct ptx_operand *o = &in->opd[k];
      if (o->kind == PTX_OPD_SREG && o->reg >= PTX_SR_ENVREG0 && o->reg <= PTX_SR_ENVREG31)
        return 1;
      if (o->kind == PTX_OPD_FUNC && reads_envreg(m, o->reg, seen))
        return 1;
    }
  }
  return 0;
}

int sim_kernel_cooperative(const struct ptx_module *m, int func)
{
  if (!m || func < 0 || (uint32_t)func >= m->nfuncs)
    return 0;
  uint8_t seen[4096];                   /* modules have far fewer functions; past it: no */
  if (m->nfuncs > sizeof seen)
    return 0;
  memset(seen, 0, m->nfuncs);
  return reads_envreg(m, (uint32_t)func, seen);
}

int sim_cluster_dims(const struct ptx_module *m, int func, const struct sim_launch *cfg,
                     uint32_t dims[3])
{
  const uint32_t *k = m && func >= 0 && (uint32_t)func < m->nfuncs
                      ? m->funcs[func].reqnctapercluster : NULL;
  const uint32_t *src = k && k[0] ? k : cfg->cluster[0] ? cfg->cluster : NULL;
  for (int i = 0; i < 3; i++)
    dims[i] = src && src[i] ? src[i] : 1;
  return src != NULL;
}

/* ---- special registers ---- */

uint64_t sim_cluster_sreg(const struct sim_block *b, unsigned sr)
{
  const struct sim_launch *c = b->cfg;
  uint32_t d[3];
  for (int i = 0; i < 3; i++)
    d[i] = c->cluster[i] ? c->cluster[i] : 1;
  switch (sr) {
  case PTX_SR_CLUSTER_CTAID_X: case PTX_SR_CLUSTER_CTAID_Y: case PTX_SR_CLUSTER_CTAID_Z: {
    unsigned i = sr - PTX_SR_CLUSTER_CTAID_X;
    return b->ctaid[i] % d[i];
  }
  case PTX_SR_CLUSTER_NCTAID_X: case PTX_SR_CLUSTER_NCTAID_Y: case PTX_SR_CLUSTER_NCTAID_Z:
    return d[sr - PTX_SR_CLUSTER_NCTAID_X];
  case PTX_SR_CLUSTER_CTARANK:
    return b->ctaid[0] % d[0] + (b->ctaid[1] % d[1]) * d[0] + (b->ctaid[2] % d[2]) * d[0] * d[1];
  case PTX_SR_CLUSTER_NCTARANK:
    return (uint64_t)d[0] * d[1] * d[2];
  case PTX_SR_CLUSTERID_X: case PTX_SR_CLUSTERID_Y: case PTX_SR_CLUSTERID_Z: {
    unsigned i = sr - PTX_SR_CLUSTERID_X;
    return b->ctaid[i] / d[i];
  }
  case PTX_SR_NCLUSTERID_X: case PTX_SR_NCLUSTERID_Y: case PTX_SR_NCLUSTERID_Z: {
    unsigned i = sr - PTX_SR_NCLUSTERID_X;
    return c->grid[i] / d[i];
  }
  case PTX_SR_IS_EXPLICIT_CLUSTER:
    return c->cluster[0] != 0;
  case PTX_SR_ENVREG0 + 1:
    return b->coop_ws >> 32;
  case PTX_SR_ENVREG0 + 2:
    return b->coop_ws & 0xffffffffu;
  default:
    return 0;
  }
}

/* ---- barrier.cluster ---- */

struct sim_cluster *sim_cluster_of(struct sim_block *b)
{
  if (b->cluster)
    return b->cluster;
  if (!b->own.n) {
    b->own_blk = b;
    b->own.n = 1;
    b->own.blk = &b->own_blk;
  }
  return &b->own;
}

/* Every live thread of the cluster has arrived in the current phase: complete it. */
static void check_phase(struct sim_cluster *cl)
{
  for (uint32_t r = 0; r < cl->n; r++) {
    const struct sim_block *x = cl->blk[r];
    for (uint32_t i = 0; i < x->nwarps; i++) {
      const struct sim_warp *w = &x->warps[i];
      if (w->live & ~w->clarr)
        return;
      for (uint64_t m = w->live; m; m &= m - 1)
        if (w->clphase[sim_ctz64(m)] != cl->phase)
          return;
    }
  }
  cl->phase++;
  if (cl->progress)
    (*cl->progress)++;
  for (uint32_t r = 0; r < cl->n; r++)   /* what follows the wait is ordered after the arrive */
    if (!cl->blk[r]->faulted)
      sim_race_barrier(cl->blk[r]);
}

uint64_t sim_cluster_barrier(struct sim_block *b, struct sim_warp *w, int wait, uint64_t e)
{
  struct sim_cluster *cl = sim_cluster_of(b);
  if (!wait) {
    for (uint64_t m = e & ~w->clarr; m; m &= m - 1)
      w->clphase[sim_ctz64(m)] = cl->phase;
    w->clarr |= e;
    check_phase(cl);
    return e;
  }
  uint64_t go = e & ~w->clarr;           /* a wait without an arrive does not wait */
  for (uint64_t m = e & w->clarr; m; m &= m - 1) {
    unsigned l = sim_ctz64(m);
    if (w->clphase[l] != cl->phase)
      go |= 1ull << l;
  }
  w->clarr &= ~go;
  w->clwait |= e & ~go;
  w->barwait |= e & ~go;
  return go;
}

int sim_cluster_release(struct sim_block *b)
{
  struct sim_cluster *cl = sim_cluster_of(b);
  int waiting = 0;
  for (uint32_t i = 0; i < b->nwarps; i++)
    waiting |= (b->warps[i].clwait & b->warps[i].live) != 0;
  if (!waiting)
    return 0;
  check_phase(cl);                       /* threads that exited may have completed it */
  int released = 0;
  for (uint32_t i = 0; i < b->nwarps; i++) {
    struct sim_warp *w = &b->warps[i];
    uint64_t go = 0;
    for (uint64_t m = w->clwait & w->live; m; m &= m - 1) {
      unsigned l = sim_ctz64(m);
      if (w->clphase[l] != cl->phase)
        go |= 1ull << l;
    }
    if (!go)
      continue;
    for (uint64_t m = go; m; m &= m - 1)
      w->pc[sim_ctz64(m)]++;
    w->clwait &= ~go;
    w->clarr &= ~go;
    w->barwait &= ~go;
    if (w->state == SIM_W_BLOCKED)
      w->state = SIM_W_RUN;
    released = 1;
  }
  return released;
}

/* ---- distributed shared memory ---- */

uint8_t *sim_cluster_smem(struct sim_block *b, uint64_t a, uint32_t size)
{
  struct sim_cluster *cl = sim_cluster_of(b);
  uint64_t rank = a / SIM_DSMEM_STRIDE - 1, off = a % SIM_DSMEM_STRIDE;
  if (a < SIM_DSMEM_STRIDE || rank >= cl->n)
    return NULL;
  struct sim_block *x = cl->blk[rank];
  if (off > x->smem_size || size > x->smem_size - off)
    return NULL;
  return x->smem + off;
}

int sim_cluster_mapa(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l,
                     enum ptx_space sp, uint64_t a, uint64_t rank, uint64_t *out)
{
  struct sim_cluster *cl = sim_cluster_of(b);
  char msg[256];
  uint64_t off = a;
  if (sp != PTX_SP_SHARED) {
    if (a - SIM_SHARED_WIN >= SIM_WIN_SIZE) {
      snprintf(msg, sizeof msg, "mapa (cluster.map_shared_rank) of address 0x%llx, which is "
               "not in shared memory", (unsigned long long)a);
      sim_fault_other(b, w, pc, l, SIM_FK_INVALID_SPACE, msg);
      return -1;
    }
    off = a - SIM_SHARED_WIN;
  }
  if (rank >= cl->n) {
    snprintf(msg, sizeof msg, "mapa (cluster.map_shared_rank) to block rank %llu of a cluster "
             "of %u block%s", (unsigned long long)rank, cl->n, cl->n == 1 ? "" : "s");
    sim_fault_other(b, w, pc, l, SIM_FK_OUT_OF_BOUNDS, msg);
    return -1;
  }
  off = off % SIM_DSMEM_STRIDE + (rank + 1) * SIM_DSMEM_STRIDE;
  *out = sp != PTX_SP_SHARED ? off + SIM_SHARED_WIN : off;
  return 0;
}
