/* tm_sm.h: one SM of the timing model, replaying recorded blocks (tm_sm.c). */
#ifndef WARPLAB_TM_SM_H
#define WARPLAB_TM_SM_H

#include "timing/tm_int.h"

struct tm_sm_in {
  struct tm_costs costs;
  uint32_t blocks_per_sm, warps_per_block, warp_size;
  uint32_t nregs;                  /* the module's registers (scoreboard size) */
  uint32_t grid_blocks, sm_count, sms_used;
  uint64_t l1_bytes, l2_slice_bytes;
  double l2_bytes_per_cycle;       /* all SMs together; divided among the busy ones */
  double dram_bytes_per_cycle;
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
  int stuck;                       /* warps waited at a barrier no one else would reach */
};

/* Replay blocks[0..nblocks) (recorded by the emulator, in this SM's dispatch order) with the
   instruction costs ops[] (per module instruction). 0, or -1 when out of host memory. */
int tm_sm_run(const struct tm_sm_in *in, const struct tm_op *ops, const struct sim_tblock *blocks,
              uint32_t nblocks, struct tm_sm_out *out);
void tm_sm_out_free(struct tm_sm_out *o);

#endif
