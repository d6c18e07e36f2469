/* run_lanes.h: a launch's lane log (struct sim_lanes) as a file that people, scripts and
 * plots/plot_lanes.c read: JSON, one step of the warp per line.
 *
 *   {"format": "warplab-lanes 1", "kernel": "gather", "block": 0, "block_idx": [0, 0, 0],
 *    "warp": 0, "warp_size": 32, "lanes": "0xffffffff", "steps_recorded": 41,
 *    "truncated": false,
 *    "files": ["labs/04-coalescing/gather.cu"],
 *    "buffers": [{"name": "points (parameter 0)", "bytes": 4198400}],
 *    "lines": [{"file": 0, "line": 31, "text": "    int i = blockIdx.x * blockDim.x + ..."}],
 *    "steps": [
 *     {"step": 0, "pc": 0, "ptx_line": 27, "file": 0, "line": 31, "ptx": "ld.param.u64 ...",
 *      "active": "0xffffffff", "pred": "0xffffffff"},
 *     {"step": 12, ..., "mem": {"space": "global", "access": "read", "size": 4, "sectors": 4,
 *      "lanes": [{"lane": 0, "addr": 139637976727552, "buffer": 0, "offset": 0, "sector": 0},
 *                ...]}},
 *     {"step": 20, ..., "mem": {"space": "shared", "access": "write", "size": 4,
 *      "wavefronts": 2, "ideal": 1, "lanes": [{"lane": 0, "addr": 0, "bank": 0}, ...]}}]}
 *
 * A step is one warp-instruction as the warp executed it: "active" the lanes that ran it,
 * "pred" those whose guard predicate held (masks in hexadecimal, lane 0 the lowest bit);
 * "file" indexes "files" (-1, line 0: no line information). A memory step lists each lane
 * that took part: global: the device address, the buffer (an index into "buffers"), the
 * offset in it and the 32-byte sector of that offset; shared: the offset in the block's
 * shared memory and its bank ((offset / 4) mod 32); local: the offset in the thread's frame;
 * param (the kernel's parameters, alike for every lane): no lanes.
 * "sectors" (global, local) and "wavefronts" and "ideal" (shared) are the emulator's counts
 * for that instruction, the same the metrics sum.
 */
#ifndef WARPLAB_RUN_LANES_H
#define WARPLAB_RUN_LANES_H

#include <stddef.h>

#include "ptx/ptx.h"
#include "sim/sim.h"

/* Write lz, the lane log of a launch of kernel from module m (ptx: its text, for each step's
   instruction; may be NULL), to path. Source lines are read from the files the module's line
   information names. Returns 0, or -1 with err. */
int run_lanes_write(const char *path, const struct sim_lanes *lz, const struct ptx_module *m,
                    const char *ptx, size_t ptx_len, const char *kernel, char *err,
                    size_t errlen);

#endif
