/* tm_dispatch.c: every block of the grid dispatched over all SMs, block by block.
 *
 * The SM model (tm_sm.c) replays a sample of blocks, SM 0's, cycle by cycle. A GPU sends each
 * block, in index order, to whichever SM has a free slot first, so how long the kernel runs
 * depends on every block's work, not on the sample's alone: a block that does twice the work
 * holds its slot twice as long wherever it lands, and a grid whose late blocks do more (a
 * tail, a triangular loop) ends later than its early blocks say. This file gives each block a
 * cost from the emulator's cheap per-block totals (struct sim_bwork), calibrated on the
 * replayed blocks, and plays the dispatch greedily over every slot of every SM; tm.c scales
 * the replay's time by the makespan of the grid's real costs over that of a grid of blocks
 * all like the sample (tm_dispatch_ratio).
 */
#include <stdlib.h>
#include <string.h>

#include "timing/tm_int.h"

/* A slot in the heap: when it is free, and its order among slots free at the same cycle
   (the first wave goes round robin over the SMs: slot s of SM m is s x SMs + m). */
struct hslot {
  double free_at;
  uint64_t seq;
};

static int before(const struct hslot *a, const struct hslot *b)
{
  return a->free_at < b->free_at || (a->free_at == b->free_at && a->seq < b->seq);
}

static void sift_down(struct hslot *h, uint32_t n, uint32_t i)
{
  for (;;) {
    uint32_t l = 2 * i + 1, r = l + 1, m = i;
    if (l < n && before(&h[l], &h[m]))
      m = l;
    if (r < n && before(&h[r], &h[m]))
      m = r;
    if (m == i)
      return;
    struct hslot t = h[i];
    h[i] = h[m];
    h[m] = t;
    i = m;
  }
}

int tm_dispatch_makespan(const double *cost, double uniform, uint32_t nblocks, uint32_t sms,
                         uint32_t slots_per_sm, double dispatch, double *makespan)
{
  *makespan = 0;
  uint32_t n = sms * slots_per_sm;
  if (!n)
    return -1;
  struct hslot *h = malloc((size_t)n * sizeof *h);
  if (!h)
    return -1;
  for (uint32_t k = 0; k < n; k++)       /* all free at 0: ordered by seq, already a heap */
    h[k] = (struct hslot){0, k};
  uint64_t seq = n;
  double end_max = 0;
  for (uint32_t i = 0; i < nblocks; i++) {
    double start = h[0].free_at, gate = (double)i * dispatch;
    if (gate > start)
      start = gate;
    double end = start + (cost ? cost[i] : uniform);
    if (end > end_max)
      end_max = end;
    h[0] = (struct hslot){end, seq++};    /* the slot that freed first takes the block */
    sift_down(h, n, 0);
  }
  free(h);
  *makespan = end_max;
  return 0;
}

/* The cost of a block in work units: its issue cycles on four schedulers, its sectors at
   the SM's share of the DRAM bandwidth, its shared-memory wavefronts at one a cycle. */
static double work_units(const struct sim_bwork *w, double sector_cycles)
{
  double issue = (double)w->warp_insts / 4.0, mem = (double)w->sectors * sector_cycles;
  double smem = (double)w->wavefronts, u = issue > mem ? issue : mem;
  return u > smem ? u : smem;
}

int tm_dispatch_ratio(const struct tm_dispatch_in *in, const struct sim_trace *tr,
                      const int64_t *start, const int64_t *end, double *ratio)
{
  *ratio = 1;
  uint32_t G = in->grid_blocks, n = tr->nblk;
  if (!tr->work || tr->nwork != G || !n || !G)
    return 0;                           /* no per-block totals: the sample stands for all */
  int alike = 1;
  for (uint32_t b = 0; b < G; b++) {
    const struct sim_bwork *w = &tr->work[b];
    if (!w->warp_insts)
      return 0;                         /* a block without totals */
    alike &= w->warp_insts == tr->work[0].warp_insts && w->sectors == tr->work[0].sectors &&
             w->wavefronts == tr->work[0].wavefronts;
  }
  if (alike)
    return 0;                           /* every block alike: the replay's time stands */
  /* calibrate slot cycles = a + c x work units on the replayed blocks. Blocks that share an
     SM share its throughput, so c is at least the blocks an SM holds at once (its blocks'
     work at the SM's rate, with the others'); more where the replayed blocks' work differs
     enough to fit a line that says so. a is the rest of their mean slot time (latency that
     work does not buy), at least the slot's own launch time. */
  double sw = 0, sd = 0, sww = 0, swd = 0, wmin = 0, wmax = 0;
  for (uint32_t j = 0; j < n; j++) {
    uint32_t lin = tr->blk[j].linear;
    if (lin >= G)
      return 0;
    double w = work_units(&tr->work[lin], in->sector_cycles);
    double d = (double)(end[j] - start[j]) + in->block_launch;
    sw += w;
    sd += d;
    sww += w * w;
    swd += w * d;
    wmin = j == 0 || w < wmin ? w : wmin;
    wmax = j == 0 || w > wmax ? w : wmax;
  }
  if (sw <= 0)
    return 0;
  uint32_t per_sm = (G + in->sm_count - 1) / in->sm_count;
  double c = per_sm < in->blocks_per_sm ? per_sm : in->blocks_per_sm;
  double var = sww - sw * sw / n;
  if (n >= 3 && wmax > 1.2 * wmin && var > 0) {
    double cf = (swd - sw * sd / n) / var;
    if (cf > c)
      c = cf;
  }
  double a = (sd - c * sw) / n;
  if (a < in->block_launch)
    a = in->block_launch;
  double *cost = malloc((size_t)G * sizeof *cost);
  if (!cost)
    return -1;
  for (uint32_t b = 0; b < G; b++)
    cost[b] = a + c * work_units(&tr->work[b], in->sector_cycles);
  double all, ref;
  int rc = tm_dispatch_makespan(cost, 0, G, in->sm_count, in->blocks_per_sm, in->dispatch, &all);
  free(cost);
  if (rc || tm_dispatch_makespan(NULL, a + c * sw / n, G, in->sm_count, in->blocks_per_sm,
                                 in->dispatch, &ref))
    return -1;
  if (ref > 0 && all > 0)
    *ratio = all / ref;
  return 0;
}
