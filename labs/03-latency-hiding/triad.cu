// triad.cu: lab 03, latency hiding. Your whole submission is this file.
//
// The STREAM benchmark's triad, z = 2x + y, over n floats: per element two loads, one store
// and one fused multiply-add, nothing else. How fast it runs is set by how many loads the
// GPU has on their way at once (handouts/03-latency-hiding.md: Little's law).
//
// warplab launches `blocks` blocks of 128 threads (2112 on the lab's sizes: 16 per SM of an
// H200, one full wave) and each thread walks the arrays in grid strides: elements i,
// i + stride, i + 2 stride, ..., where stride = gridDim.x * blockDim.x is the number of
// threads in the grid. The lab also holds each SM to WARPS resident warps (8) by asking for
// dynamic shared memory the kernel never touches (lab.json, launch.smem). WARPS is the
// lab's, not yours: do not set it in this file.
//
// Your choice is UNROLL (1, 2, 4 or 8): how many elements a thread has asked for, x and y
// of each, before it uses the first of them. warplab reads it from the compiled file and
// passes it to the kernel as `unroll`, which picks triad_unrolled<UNROLL> below; the lab's
// sweeps also run your code at UNROLL 1, so every UNROLL must be right for every n.

#include <cassert>

__constant__ int UNROLL = 1;

// One thread's share of the triad, U grid strides at a time. U is a compile-time constant:
// an array of U floats indexed only by loops that are unrolled lives in registers.
template <int U>
static __device__ __forceinline__ void triad_unrolled(const float *__restrict__ x,
                                                      const float *__restrict__ y,
                                                      float *__restrict__ z, int n)
{
    const int stride = gridDim.x * blockDim.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    // TODO 1: the main loop's condition. One trip handles elements i, i + stride, ...,
    //         i + (U - 1) * stride: run it only while all U of them are below n.
    // TODO 2: its body. First load the U x's and the U y's into two arrays of U floats (a
    //         loop over k marked #pragma unroll), then, in a second unrolled loop, compute
    //         and store the U results. All 2U loads are then on their way before the first
    //         of them is needed.
    // Keep `#pragma unroll 1` on this loop and on the next: it stops nvcc from unrolling
    // them further, so the loads in flight are the ones you wrote, at every UNROLL.
#pragma unroll 1
    for (; false /* TODO 1 */; i += U * stride) {
        // TODO 2
    }

    // TODO 3: the tail. When n is not a multiple of U strides, fewer than U elements are
    //         left for some threads after the main loop: do them one at a time.
#pragma unroll 1
    for (; false /* TODO 3 */; i += stride) {
    }
}

// The kernel warplab launches; nothing to change here. __launch_bounds__(128, 16): blocks of
// 128 threads, 16 of them on an SM at once, so ptxas keeps to 32 registers per thread and
// registers never hold an SM below the warps the lab asks for.
extern "C" __global__ void __launch_bounds__(128, 16)
triad(const float *__restrict__ x, const float *__restrict__ y, float *__restrict__ z, int n,
      int unroll)
{
    switch (unroll) {
    case 1: triad_unrolled<1>(x, y, z, n); break;
    case 2: triad_unrolled<2>(x, y, z, n); break;
    case 4: triad_unrolled<4>(x, y, z, n); break;
    case 8: triad_unrolled<8>(x, y, z, n); break;
    default: assert(!"UNROLL must be 1, 2, 4 or 8");
    }
}
