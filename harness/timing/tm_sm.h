/* tm_sm.h: one SM of the timing model, replaying recorded blocks (tm_sm.c). */
#ifndef WARPLAB_TM_SM_H
#define WARPLAB_TM_SM_H

#include "timing/tm_int.h"

/* The grid's first touches of global lines (struct sim_trace.touch), with how many lines
   were first touched before each point of the run: what the L2, shared by all SMs, has taken
   in since a line came (tm_touch_volume). */
struct tm_touch {
  const struct sim_trace *tr;      /* key[sim_touch_index(tr, sector)]: sim_touch_key of the
                                      sector's line, 0 none */
  const uint64_t *key;
  uint64_t n;
  uint32_t wave;                   /* blocks per wave (sim_touch_key's wave_blocks) */
  double block_insts;              /* a block's warp-instructions, on average */
  uint32_t nbins;                  /* TM_TOUCH_BINS per wave */
  uint64_t *cum;                   /* cum[k]: lines first touched in bins before k */
  double l2_lines;                 /* the L2's capacity, in 128-byte lines */
  uint8_t *part;                   /* part[i]: the bin in its wave of a touch after i
                                      warp-instructions, for i < npart (past a block's
                                      average all are the last); NULL: worked out each time */
  uint32_t npart;                  /* 0 without the table */
  int part_full;                   /* part's last is the last bin (so are all past it) */
};
#define TM_TOUCH_BINS 64
/* Build t from the emulator's trace (tr->touch; none: t->key NULL) for an L2 of l2_bytes
   (plain: no table of bins, t->part; each key's worked out on its own). 0, or -1 when out
   of host memory. */
int tm_touch_init(struct tm_touch *t, const struct sim_trace *tr, uint64_t l2_bytes, int plain);
void tm_touch_free(struct tm_touch *t);
/* Lines first touched between the touches of keys a and b (a before b), to a bin. */
double tm_touch_volume(const struct tm_touch *t, uint64_t a, uint64_t b);

struct tm_sm_in {
  struct tm_costs costs;
  uint32_t blocks_per_sm, warps_per_block, warp_size;
  uint32_t nregs;                  /* the module's registers (scoreboard size) */
  uint32_t grid_blocks, sm_count, sms_used;
  uint64_t l1_bytes, l2_slice_bytes;
  double l2_bytes_per_cycle;       /* all SMs together; divided among the busy ones */
  double dram_bytes_per_cycle;
  const struct tm_touch *touch;    /* the grid's first touches, or NULL */
  int plain;                       /* replay without the shortcuts that skip work (each
                                      warp's scoreboard kept per instruction, stalls counted
                                      by reason, tables filled as they are used): for tests
                                      that hold the shortcuts to the same figures */
};

struct tm_sm_out {
  int64_t cycles;                  /* when the last block ended */
  int64_t *block_start;            /* per block (in dispatch order): the cycle it started */
  int64_t *block_end;              /* ... and the cycle it ended (its last warp exited) */
  uint64_t issued;
  double stall[TM_STALL_COUNT];    /* warp-cycles per state */
  double warp_cycles;              /* resident warps summed over cycles */
  double active_cycles;            /* cycles with at least one resident warp */
  uint64_t l1_hits, l1_misses, l2_hits, l2_misses;
  double dram_bytes;
  int stuck;                       /* warps waited at a barrier no one else would reach (the
                                      figures are then incomplete) */
  uint64_t skipped;                /* cycles not stepped through: repeats of a loop's period
                                      (not plain) */
};

/* Replay blocks[0..nblocks) (recorded by the emulator, in this SM's dispatch order) with the
   instruction costs ops[] (per module instruction). 0, or -1 when out of host memory. */
int tm_sm_run(const struct tm_sm_in *in, const struct tm_op *ops, const struct sim_tblock *blocks,
              uint32_t nblocks, struct tm_sm_out *out);
void tm_sm_out_free(struct tm_sm_out *o);

/* tm_model without the replay's shortcuts (tm_sm_in.plain): the same report, the long way,
   for tests that compare the two. */
int tm_model_plain(const struct occ_profile *p, const struct ptx_module *m,
                   const struct tm_kernel *k, const struct tm_plan *plan,
                   const struct sim_trace *tr, struct tm_report *out);

#endif
