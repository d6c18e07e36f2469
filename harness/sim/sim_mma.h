/* sim_mma.h: the tensor-core instructions on the emulator (sim_mma.c): wmma.load/store/mma,
 * mma.sync, ldmatrix, stmatrix. Internal to harness/sim.
 */
#ifndef WARPLAB_SIM_MMA_H
#define WARPLAB_SIM_MMA_H

#include <stdint.h>

#include "sim/sim_int.h"

/* Execute tensor-core instruction pc for warp w, whose lanes all arrived at it (the warp layer
   runs these .sync.aligned instructions as collectives of the whole warp); lanes e are those
   whose guard holds. Returns 0, or -1 after reporting a fault (a bad address, a warp that is
   not 32 lanes wide). */
int sim_mma_exec(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t e);

/* Row and column, in the M x K (A), K x N (B) or M x N (C and D: which 'c') matrix, of
   element i of lane l's fragment of instruction in (wmma or mma.sync) of element type t. The
   wmma layouts are the ones ptxas gives sm_80/sm_90 (its f16 A and B fragments repeat their
   elements: i counts within the distinct ones). Exported for the unit tests. */
void sim_mma_coord(const struct ptx_inst *in, char which, enum ptx_type t, unsigned l, unsigned i,
                   unsigned *row, unsigned *col);

#endif
