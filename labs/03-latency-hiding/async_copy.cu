// async_copy.cu: lab 03, going further (handouts/03-latency-hiding.md, section 6). Not graded.
//
// The triad z = 2x + y again, with its loads in flight held in shared memory instead of in
// registers: each block walks tiles of 128 elements (tile k holds elements k*128 ...
// k*128 + 127; block b takes tiles b, b + gridDim.x, ...), and its threads keep STAGES tiles
// of x and y on their way with asynchronous copies (cp.async, sm_80 and later): the copy of
// tile j + STAGES is issued as soon as tile j is used. STAGES plays UNROLL's part: by Little's
// law the loads in flight per warp, and so the bandwidth at a fixed number of warps, grow with
// it, until the memory system is busy; the price is shared memory (2 x 512 bytes per stage and
// block), not registers.
//
// Each thread copies, and later reads, only its own element of each tile, so no
// __syncthreads() is needed: __pipeline_wait_prior(STAGES - 1) waits for the thread's own
// oldest copy (the ISA orders a thread's copies with its wait, not other threads').
//
// Run it with labs/03-latency-hiding/async_copy.sh: time against STAGES at 8 warps per SM.

#include <cassert>
#include <cuda_pipeline.h>

#define TILE 128
#define MAX_STAGES 8

template <int S>
static __device__ __forceinline__ void triad_staged(const float *__restrict__ x,
                                                    const float *__restrict__ y,
                                                    float *__restrict__ z, int n,
                                                    float (*sx)[TILE], float (*sy)[TILE])
{
    const int t = threadIdx.x;
    const int ntiles = (n + TILE - 1) / TILE;
    // the tiles this block takes: b, b + gridDim.x, ...
    const int mine = blockIdx.x < ntiles ? (ntiles - blockIdx.x + gridDim.x - 1) / gridDim.x : 0;

    // prologue: the first S tiles on their way, one commit group each (empty past the end)
#pragma unroll
    for (int s = 0; s < S; s++) {
        int i = (blockIdx.x + s * gridDim.x) * TILE + t;
        if (s < mine && i < n) {
            __pipeline_memcpy_async(&sx[s][t], &x[i], sizeof(float));
            __pipeline_memcpy_async(&sy[s][t], &y[i], sizeof(float));
        }
        __pipeline_commit();
    }
#pragma unroll 1
    for (int j = 0; j < mine; j++) {
        const int slot = j % S, i = (blockIdx.x + j * gridDim.x) * TILE + t;
        __pipeline_wait_prior(S - 1);           // tile j is here (the S - 1 after it may not be)
        if (i < n)
            z[i] = 2.0f * sx[slot][t] + sy[slot][t];
        const int next = j + S, k = (blockIdx.x + next * gridDim.x) * TILE + t;
        if (next < mine && k < n) {             // reuse the slot just read for tile j + S
            __pipeline_memcpy_async(&sx[slot][t], &x[k], sizeof(float));
            __pipeline_memcpy_async(&sy[slot][t], &y[k], sizeof(float));
        }
        __pipeline_commit();
    }
}

// The same parameters as triad.cu's kernel, with STAGES in place of UNROLL.
extern "C" __global__ void __launch_bounds__(128, 16)
triad_async(const float *__restrict__ x, const float *__restrict__ y, float *__restrict__ z,
            int n, int stages)
{
    // one set of stages for every STAGES (declared inside the template, each instance would
    // have its own): 2 x 8 x 128 floats, 8 KB per block
    __shared__ float sx[MAX_STAGES][TILE], sy[MAX_STAGES][TILE];
    switch (stages) {
    case 1: triad_staged<1>(x, y, z, n, sx, sy); break;
    case 2: triad_staged<2>(x, y, z, n, sx, sy); break;
    case 4: triad_staged<4>(x, y, z, n, sx, sy); break;
    case 8: triad_staged<8>(x, y, z, n, sx, sy); break;
    default: assert(!"STAGES must be 1, 2, 4 or 8");
    }
}
