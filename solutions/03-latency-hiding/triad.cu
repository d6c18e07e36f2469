// triad.cu: lab 03's reference solution (see labs/03-latency-hiding/triad.cu for the task and
// handouts/03-latency-hiding.md for the reasoning).
//
// UNROLL 8, the largest the lab allows: each thread has 8 x's and 8 y's on their way before
// it uses the first, 2 KB per warp, 2,048 elements (16 KB of loads) per SM at the lab's 8
// warps. Little's law asks for a little more: at the H200's sustained 3.8 TB/s, 12 bytes of
// DRAM traffic per element and a DRAM latency that grows to some 1,900 cycles under that
// load, an SM must keep about 2,300 elements in flight. UNROLL 1 keeps 256, and the timing
// model puts it at 3.3 times the time of UNROLL 8 (125 us against 38.1 us on the emulator's
// size), UNROLL 4 at 1.4 times.
//
// Each of a warp's loads reads 32 consecutive floats: the U elements of a thread are U grid
// strides apart, not U neighbours (which would spread one warp-wide load over 8 x 32
// floats: 32 sectors per request instead of 4).

#include <cassert>

__constant__ int UNROLL = 8;

template <int U>
static __device__ __forceinline__ void triad_unrolled(const float *__restrict__ x,
                                                      const float *__restrict__ y,
                                                      float *__restrict__ z, int n)
{
    const int stride = gridDim.x * blockDim.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    // U strides at a time while all U elements exist (i + (U - 1) * stride stays far below
    // 2^31 at the lab's sizes: n is 34.6 million at most, U * stride 2.2 million)
#pragma unroll 1
    for (; i + (U - 1) * stride < n; i += U * stride) {
        float xv[U], yv[U];
#pragma unroll
        for (int k = 0; k < U; k++) {
            xv[k] = x[i + k * stride];
            yv[k] = y[i + k * stride];
        }
#pragma unroll
        for (int k = 0; k < U; k++)
            z[i + k * stride] = 2.0f * xv[k] + yv[k];
    }

    // the last 0 to U - 1 strides
#pragma unroll 1
    for (; i < n; i += stride)
        z[i] = 2.0f * x[i] + y[i];
}

// The kernel warplab launches, as the starter has it.
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
