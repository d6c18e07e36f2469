/* tm.c: the timing model's plan, its extrapolation from SM 0 to the grid, and its report.
 *
 * Cost: the emulator records only SM 0's blocks, and of those only the first few waves
 * (TRACE_WAVES times the blocks resident at once); the SM model replays them, and blocks past
 * them are added at the steady rate of the last recorded half. The other SMs are taken to
 * behave like SM 0 (under round-robin dispatch they run the same kernel on no more blocks),
 * sharing the L2 and DRAM bandwidth with it and holding an equal slice of the L2 for what
 * the SMs do not share; what the grid's other blocks touched first is in the whole L2
 * (tm_touch_init, from the emulator's first touches of every sector). Where the
 * grid's blocks did unequal work (the emulator's per-block totals), the time is scaled by
 * how much longer the busiest SM is kept when every block is dispatched by its work
 * (tm_dispatch.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/met.h"
#include "timing/tm_sm.h"

#define TRACE_WAVES 6
#define TOUCH_PARTS 65536        /* instruction counts in struct tm_touch.part, at most */
#define DEFAULT_REGS 32

static const char *const stall_names[] = {
#define X(id, ncu, words) ncu,
#include "timing/tm_stalls.def"
#undef X
};
static const char *const stall_words[] = {
#define X(id, ncu, words) words,
#include "timing/tm_stalls.def"
#undef X
};
static const char *const stall_metrics[] = {
#define X(id, ncu, words) "smsp__average_warps_issue_stalled_" ncu "_per_issue_active.ratio",
#include "timing/tm_stalls.def"
#undef X
};

const char *tm_stall_name(enum tm_stall s) { return s < TM_STALL_COUNT ? stall_names[s] : "?"; }
const char *tm_stall_words(enum tm_stall s) { return s < TM_STALL_COUNT ? stall_words[s] : "?"; }

int tm_plan(const struct occ_profile *p, const struct tm_kernel *k, struct tm_plan *plan)
{
  memset(plan, 0, sizeof *plan);
  struct occ_input in = occ_input_default();
  in.regs_per_thread = k->regs_per_thread > 0 ? k->regs_per_thread : DEFAULT_REGS;
  in.static_smem = (int)k->static_smem;
  in.dyn_smem = (int)k->dyn_smem;
  in.block_threads = (int)k->block_threads;
  if (k->barriers > 0)
    in.barriers = k->barriers;
  struct occ_result o;
  struct occ_error e;
  if (!k->grid_blocks || occ_compute(p, &in, &o, &e) != OCC_OK) {
    snprintf(plan->note, sizeof plan->note, "no timing model: %.150s",
             k->grid_blocks ? e.msg : "the grid is empty");
    return -1;
  }
  if (o.active_blocks <= 0) {
    snprintf(plan->note, sizeof plan->note, "no timing model: %.150s", o.note);
    return 0;
  }
  plan->blocks_per_sm = (uint32_t)o.active_blocks;
  uint32_t n = (uint32_t)p->sm_count;
  plan->sms_used = k->grid_blocks < n ? k->grid_blocks : n;
  plan->sm0_blocks = (k->grid_blocks + n - 1) / n;
  plan->trace_every = n;
  uint32_t cap = plan->blocks_per_sm * TRACE_WAVES;
  plan->trace_blocks = plan->sm0_blocks < cap ? plan->sm0_blocks : cap;
  /* the driver gives shared memory the smallest carveout that keeps the occupancy (the
     reserved 1 KB per block included); the rest of the SM's L1/shared storage is L1 */
  uint64_t l1 = p->l1_bytes > 0 ? (uint64_t)p->l1_bytes : 128 * 1024;
  uint64_t need = (uint64_t)o.active_blocks * (uint64_t)o.smem_per_block, carve = need;
  for (int i = 0; i < p->n_smem_carveouts; i++)
    if ((uint64_t)p->smem_carveouts[i] >= need) {
      carve = (uint64_t)p->smem_carveouts[i];
      break;
    }
  plan->l1_bytes = (uint32_t)(l1 > carve + 16 * 1024 ? l1 - carve : 16 * 1024);
  plan->ok = 1;
  return 0;
}

/* tm_model, with the replay's shortcuts (plain 0) or without them (tm_sm_in.plain). */
static int model(const struct occ_profile *p, const struct ptx_module *m, const struct tm_kernel *k,
                 const struct tm_plan *plan, const struct sim_trace *tr, int plain,
                 struct tm_report *out)
{
  memset(out, 0, sizeof *out);
  if (!plan->ok) {
    snprintf(out->how, sizeof out->how, "%s", plan->note);
    return 0;
  }
  if (!tr->nblk || tr->nblk != plan->trace_blocks) {
    snprintf(out->how, sizeof out->how, "no timing model: the emulator did not record the blocks "
             "the model needs (the kernel stopped early)");
    return 0;
  }
  for (uint32_t i = 0; i < tr->nblk; i++)
    if (tr->blk[i].truncated || !tr->blk[i].nev) {
      snprintf(out->how, sizeof out->how, "no timing model: block %u %s", tr->blk[i].linear,
               tr->blk[i].truncated ? "ran more instructions than the model records" : "did not run");
      return 0;
    }
  uint32_t W = k->warp_size ? k->warp_size : (uint32_t)p->warp_size;
  struct tm_sm_in in;
  memset(&in, 0, sizeof in);
  tm_costs_init(&in.costs, p, W);
  struct tm_op *ops = calloc(m->ninsts ? m->ninsts : 1, sizeof *ops);
  if (!ops)
    return -1;
  for (uint32_t i = 0; i < m->ninsts; i++)
    tm_classify(&in.costs, &m->insts[i], &ops[i]);
  tm_mark_ifconv(m, ops);
  if (k->sass && in.costs.lds_merge)
    tm_mark_merged(m, k->sass, ops);
  double mhz = p->sm_clock_mhz > 0 ? p->sm_clock_mhz : 1500;
  double sustained = p->dram_sustained_pct > 0 ? p->dram_sustained_pct / 100.0 : 0.9;
  double dram_gbs = p->dram_bandwidth_gbs > 0 ? p->dram_bandwidth_gbs : 1000;
  double l2_gbs = p->l2_bandwidth_gbs > 0 ? p->l2_bandwidth_gbs : 2 * dram_gbs;
  in.blocks_per_sm = plan->blocks_per_sm;
  in.warps_per_block = (k->block_threads + W - 1) / W;
  in.warp_size = W;
  in.nregs = m->nregs;
  in.grid_blocks = k->grid_blocks;
  in.sm_count = (uint32_t)p->sm_count;
  in.sms_used = plan->sms_used;
  in.l1_bytes = plan->l1_bytes;
  uint64_t l2 = p->l2_bytes > 0 ? (uint64_t)p->l2_bytes : 4u << 20;
  in.l2_slice_bytes = l2 / plan->sms_used;
  in.dram_bytes_per_cycle = dram_gbs * sustained * 1e3 / mhz;
  in.l2_bytes_per_cycle = l2_gbs * 1e3 / mhz;
  in.plain = plain;

  struct tm_touch touch;
  if (tm_touch_init(&touch, tr, l2, plain)) {
    free(ops);
    return -1;
  }
  /* The grid's first touches make the L2 the GPU's, shared by all SMs; where the L1 moves
     whole lines (transaction_bytes above sector_bytes: Fermi), the line fill's own rule
     already serves a line's other sectors to the neighbouring block from the shared L2
     (DRAM charged only for the sectors asked for), and the two together counted that
     sharing twice (lab 01 on fermi-m2070: 16 x 32 at 1.10x 32 x 16, the 2010 table 1.34x) */
  in.touch = touch.key && p->transaction_bytes <= p->sector_bytes ? &touch : NULL;
  struct tm_sm_out so;
  int rc = tm_sm_run(&in, ops, tr->blk, tr->nblk, &so);
  tm_touch_free(&touch);
  free(ops);
  if (rc) {
    tm_sm_out_free(&so);
    return -1;
  }
  if (so.stuck) {
    snprintf(out->how, sizeof out->how, "no timing model: warps of a block wait at a barrier "
             "the rest of their block never reaches");
    tm_sm_out_free(&so);
    return 0;
  }
  /* blocks SM 0 runs past the recorded ones, at the rate blocks started in the last recorded
     half: in the steady state a block starts when one ends. (Not the rate they ended: the
     recorded blocks end with a drain, the SM emptying, that the real run has only once.) */
  uint32_t n = tr->nblk;
  double cycles = (double)so.cycles;
  if (plan->sm0_blocks > n) {
    /* over whole waves: blocks that start together end together, so starts come in bursts
       of blocks_per_sm, and only spans of whole bursts measure the rate */
    uint32_t bps = plan->blocks_per_sm, q = (n - 1 - n / 2) / bps * bps;
    double per_block = q >= bps ? (double)(so.block_start[n - 1] - so.block_start[n - 1 - q]) / q
                              : (double)so.cycles / n;
    if (per_block <= 0)
      per_block = (double)so.cycles / n;
    cycles += per_block * (double)(plan->sm0_blocks - n);
  }
  /* every block of the grid, at the cost its work gives it, to whichever SM frees a slot
     first: a grid whose blocks do unequal work keeps its busiest SM longer than the sample
     says (or shorter, where the sample was the heavy part) */
  double ratio = 1;
  struct tm_dispatch_in di = {
    .grid_blocks = k->grid_blocks, .sm_count = (uint32_t)p->sm_count,
    .blocks_per_sm = plan->blocks_per_sm, .dispatch = in.costs.block_dispatch,
    .block_launch = in.costs.block_launch,
    .sector_cycles = 32.0 * plan->sms_used / in.dram_bytes_per_cycle,
  };
  if (tm_dispatch_ratio(&di, tr, so.block_start, so.block_end, &ratio)) {
    tm_sm_out_free(&so);
    return -1;
  }
  cycles *= ratio;
  /* SM 0 gets its blocks first; the SMs after it start theirs block_dispatch_cycles apart,
     so the last SM of the final round ends that much later (the kernel ends with it) */
  double d = p->block_dispatch_cycles > 0 ? p->block_dispatch_cycles : 1.0;
  cycles += d * (double)((k->grid_blocks - 1) % (uint32_t)p->sm_count);
  out->ok = 1;
  out->cycles = cycles;
  out->time_ns = cycles / mhz * 1e3 + p->launch_overhead_ns;
  double issued = so.issued ? (double)so.issued : 1;
  if (so.active_cycles > 0) {
    out->achieved_occupancy_pct = 100.0 * so.warp_cycles / (so.active_cycles * p->max_warps_per_sm);
    out->issue_active_pct = 100.0 * (double)so.issued / (so.active_cycles * 4);
  }
  for (int s = 0; s < TM_STALL_COUNT; s++)
    out->stall[s] = so.stall[s] / issued;
  uint64_t l1a = so.l1_hits + so.l1_misses, l2a = so.l2_hits + so.l2_misses;
  out->l1_hit_pct = l1a ? 100.0 * (double)so.l1_hits / (double)l1a : -1;
  out->l2_hit_pct = l2a ? 100.0 * (double)so.l2_hits / (double)l2a : -1;
  out->dram_bytes = so.dram_bytes / n * k->grid_blocks;
  out->blocks_modelled = n;
  out->cycles_skipped = so.skipped;
  out->blocks_sm0 = plan->sm0_blocks;
  out->dispatch_ratio = ratio;
  if (plan->sm0_blocks > n)
    snprintf(out->how, sizeof out->how, "modelled: SM 0 of %u (the busiest, %u blocks, %u at a "
             "time), its first %u blocks cycle by cycle and the other %u at their steady rate; "
             "the other SMs taken to be alike", p->sm_count, plan->sm0_blocks,
             plan->blocks_per_sm, n, plan->sm0_blocks - n);
  else
    snprintf(out->how, sizeof out->how, "modelled: SM 0 of %u (the busiest, %u block%s, %u at a "
             "time) cycle by cycle; the other SMs taken to be alike", p->sm_count,
             plan->sm0_blocks, plan->sm0_blocks == 1 ? "" : "s", plan->blocks_per_sm);
  if (ratio != 1) {
    size_t len = strlen(out->how);
    snprintf(out->how + len, sizeof out->how - len, "; its blocks' unequal work, dispatched "
             "to whichever SM is free, x%.3f", ratio);
  }
  tm_sm_out_free(&so);
  return 0;
}

int tm_model(const struct occ_profile *p, const struct ptx_module *m, const struct tm_kernel *k,
             const struct tm_plan *plan, const struct sim_trace *tr, struct tm_report *out)
{
  return model(p, m, k, plan, tr, 0, out);
}

int tm_model_plain(const struct occ_profile *p, const struct ptx_module *m,
                   const struct tm_kernel *k, const struct tm_plan *plan,
                   const struct sim_trace *tr, struct tm_report *out)
{
  return model(p, m, k, plan, tr, 1, out);
}

/* The bin in its wave of a touch after `insts` of its block's warp-instructions. */
static uint32_t touch_part(const struct tm_touch *t, uint64_t insts)
{
  double f = (double)insts * TM_TOUCH_BINS / t->block_insts;
  return f < TM_TOUCH_BINS - 1 ? (uint32_t)f : TM_TOUCH_BINS - 1;
}

static inline uint32_t touch_bin(const struct tm_touch *t, uint64_t key)
{
  uint64_t i = sim_touch_insts(key);
  uint32_t part = i < t->npart ? t->part[i]
                : t->part_full ? TM_TOUCH_BINS - 1     /* touch_part never falls as i grows */
                : touch_part(t, i);
  uint64_t b = (uint64_t)sim_touch_wave(key) * TM_TOUCH_BINS + part;
  return b < t->nbins ? (uint32_t)b : t->nbins - 1;
}

int tm_touch_init(struct tm_touch *t, const struct sim_trace *tr, uint64_t l2_bytes, int plain)
{
  memset(t, 0, sizeof *t);
  if (!tr->touch || !tr->touch_wave || !tr->nwork)
    return 0;
  double insts = 0;
  for (uint32_t i = 0; i < tr->nwork; i++)
    insts += (double)tr->work[i].warp_insts;
  t->block_insts = insts / tr->nwork > 1 ? insts / tr->nwork : 1;
  uint32_t waves = (tr->nwork - 1) / tr->touch_wave + 1;
  if (waves > 0xfff)
    waves = 0xfff;
  t->nbins = waves * TM_TOUCH_BINS;
  t->cum = calloc((size_t)t->nbins + 1, sizeof *t->cum);
  if (!t->cum)
    return -1;
  t->key = tr->touch;
  t->tr = tr;
  t->n = tr->ntouch;
  t->wave = tr->touch_wave;
  t->l2_lines = (double)l2_bytes / 128;
  /* the bin in its wave of every instruction count up to a little past a block's average,
     where it reaches the last: the division is done once a count, not once a line (a
     correctly rounded quotient never falls as the dividend grows, so a count past the
     table's last, when that is the last bin, is in the last bin too) */
  if (!plain) {
    t->npart = t->block_insts < TOUCH_PARTS - 2 ? (uint32_t)t->block_insts + 2 : TOUCH_PARTS;
    t->part = malloc(t->npart);
    if (!t->part) {
      tm_touch_free(t);
      return -1;
    }
    for (uint32_t i = 0; i < t->npart; i++)
      t->part[i] = (uint8_t)touch_part(t, i);
    t->part_full = t->part[t->npart - 1] == TM_TOUCH_BINS - 1;
  }
  if (plain) {
    for (uint64_t i = 0; i < t->n; i++)
      if (t->key[i])
        t->cum[touch_bin(t, t->key[i]) + 1]++;
  } else {                       /* touch_bin's steps with t's fields in locals: the stores
                                    to cum could alias them, and reloading them each key
                                    cost as much as the rest */
    const uint64_t *key = t->key;
    const uint8_t *part = t->part;
    uint64_t *cum = t->cum, n = t->n, npart = t->npart, last = t->nbins - 1;
    int full = t->part_full;
    for (uint64_t i = 0; i < n; i++) {
      uint64_t k = key[i];
      if (!k)
        continue;
      uint64_t ic = sim_touch_insts(k);
      uint64_t b = (uint64_t)sim_touch_wave(k) * TM_TOUCH_BINS +
                   (ic < npart ? part[ic] : full ? TM_TOUCH_BINS - 1 : touch_part(t, ic));
      cum[(b < last ? b : last) + 1]++;
    }
  }
  for (uint32_t k = 0; k < t->nbins; k++)
    t->cum[k + 1] += t->cum[k];
  return 0;
}

void tm_touch_free(struct tm_touch *t)
{
  free(t->cum);
  t->cum = NULL;
  free(t->part);
  t->part = NULL;
  t->key = NULL;
}

double tm_touch_volume(const struct tm_touch *t, uint64_t a, uint64_t b)
{
  uint32_t x = touch_bin(t, a), y = touch_bin(t, b);
  return y > x ? (double)(t->cum[y] - t->cum[x]) : 0;
}

const char *tm_metric(const struct tm_report *r, unsigned i, double *value, int *defined)
{
  *defined = r->ok;
  switch (i) {
  case 0: *value = r->time_ns; return met_name(MET_TIME);
  case 1: *value = r->cycles; return met_name(MET_CYCLES);
  case 2: *value = r->achieved_occupancy_pct; return met_name(MET_OCC_ACHIEVED);
  case 3: *value = r->issue_active_pct; return met_name(MET_ISSUE_ACTIVE);
  case 4: *value = r->l1_hit_pct; *defined = r->ok && r->l1_hit_pct >= 0;
    return met_name(MET_L1_HIT);
  case 5: *value = r->l2_hit_pct; *defined = r->ok && r->l2_hit_pct >= 0;
    return met_name(MET_L2_HIT);
  case 6: *value = r->dram_bytes; return met_name(MET_DRAM_BYTES);
  default:
    break;
  }
  if (i - 7 < TM_STALL_COUNT) {
    *value = r->stall[i - 7];
    return stall_metrics[i - 7];
  }
  return NULL;
}
