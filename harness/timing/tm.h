/* tm.h: the cycle-approximate timing model (issue 4).
 *
 * The emulator gets every answer; the model says how long a real GPU of the profile would
 * take. It replays what the emulator recorded (struct sim_trace) for the blocks of one SM,
 * SM 0, which under round-robin dispatch runs the most blocks and so finishes last:
 *
 *   tm_plan()   before the launch: how many blocks fit on an SM (the occupancy calculator),
 *               which blocks are SM 0's and how many of them to record;
 *   sim_run()   records them (sim_launch.trace_every / trace_blocks);
 *   tm_model()  replays them cycle by cycle: blocks dispatched into the SM's slots as earlier
 *               ones finish, four schedulers issuing from ready warps, a scoreboard of
 *               register results, pipe throughput, shared-memory wavefronts, an L1, an L2
 *               slice and DRAM as bandwidth-limited servers shared with the other busy SMs,
 *               barriers. Blocks past the recorded ones are extrapolated at the steady rate;
 *               blocks of unequal work are dispatched over all SMs by their work.
 *
 * It reads the trace, the module and the profile, and never changes the emulator's state.
 * Every figure it produces is `modelled`.
 */
#ifndef WARPLAB_TM_H
#define WARPLAB_TM_H

#include <stdint.h>

#include "metrics/occ.h"
#include "ptx/ptx.h"
#include "ptx/ptx_sass.h"
#include "sim/sim.h"

/* The launch, as the model needs it. */
struct tm_kernel {
  uint32_t grid_blocks;        /* blocks in the grid */
  uint32_t block_threads;
  uint32_t warp_size;          /* 0: the profile's */
  int regs_per_thread;         /* ptxas "Used N registers"; 0: unknown (32 is assumed) */
  uint32_t static_smem, dyn_smem;
  int barriers;                /* ptxas "used N barriers"; 0: 1 */
  const struct ptx_sass *sass; /* the SASS ptxas made of the module, or NULL (ptx_sass.h) */
};

struct tm_plan {
  int ok;                      /* 0: no model for this launch (note says why) */
  uint32_t blocks_per_sm;      /* resident blocks per SM (occupancy) */
  uint32_t sms_used;           /* SMs with at least one block */
  uint32_t sm0_blocks;         /* blocks SM 0 runs: the grid's busiest SM */
  uint32_t trace_every;        /* copy into struct sim_launch: SM 0's blocks are every */
  uint32_t trace_blocks;       /*   sm_count-th, and the first trace_blocks of them */
  uint32_t l1_bytes;           /* L1 data cache left beside the shared-memory carveout */
  char note[192];
};

/* Where warps spent cycles without issuing, by Nsight Compute's stall reasons. */
enum tm_stall {
#define X(id, ncu, words) TM_STALL_##id,
#include "timing/tm_stalls.def"
#undef X
  TM_STALL_COUNT
};
/* "long_scoreboard" (the suffix of smsp__average_warps_issue_stalled_..._per_issue_active) */
const char *tm_stall_name(enum tm_stall s);
/* "waiting for a global or local memory load" */
const char *tm_stall_words(enum tm_stall s);

struct tm_report {
  int ok;                      /* 0: not modelled (how says why) */
  double cycles;               /* sm__cycles_elapsed.avg: the kernel's duration in SM cycles */
  double time_ns;              /* gpu__time_duration.sum: cycles at the profile's clock, plus
                                  the launch overhead */
  double achieved_occupancy_pct;  /* sm__warps_active.avg.pct_of_peak_sustained_active */
  double issue_active_pct;     /* smsp__issue_active.avg.pct_of_peak_sustained_active */
  double stall[TM_STALL_COUNT];/* warp-cycles in each state per issued instruction */
  double l1_hit_pct, l2_hit_pct;  /* global and local sectors */
  double dram_bytes;           /* the whole grid's DRAM traffic, extrapolated */
  uint32_t blocks_modelled;    /* SM 0's blocks replayed in detail */
  uint64_t cycles_skipped;     /* cycles of that replay not stepped through: repeats of a
                                  loop's period (tm_sm.c) */
  uint32_t blocks_sm0;
  double dispatch_ratio;       /* the grid's busiest SM over a grid of blocks like SM 0's,
                                  by each block's recorded work (tm_dispatch.c); 1: alike */
  char how[320];               /* how it was modelled, in a sentence */
};

/* Plan the model of launch k on profile p. Returns 0 (plan->ok says whether there will be a
   model), or -1 on an impossible input (plan->note says why). */
int tm_plan(const struct occ_profile *p, const struct tm_kernel *k, struct tm_plan *plan);

/* Model the launch from the trace the plan asked for. m is the module the emulator ran.
   Returns 0 with *out filled (out->ok 0 and out->how saying why when the trace cannot be
   modelled), or -1 when out of host memory. */
int tm_model(const struct occ_profile *p, const struct ptx_module *m, const struct tm_kernel *k,
             const struct tm_plan *plan, const struct sim_trace *tr, struct tm_report *out);

/* The modelled metrics of a report, by name, for reports and charts: index i from 0 until it
   returns NULL. *value is the figure; *defined 0 when there is none. */
const char *tm_metric(const struct tm_report *r, unsigned i, double *value, int *defined);

#endif
