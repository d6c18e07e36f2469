// neighbours.cu: a lab 03 kernel for tests/e2e/lab03.c that is right and badly unrolled: each
// thread takes UNROLL neighbouring elements, U * t to U * t + U - 1, instead of elements U
// grid strides apart. Every output is correct, but the 32 lanes of a warp-wide load now lie
// U floats apart: at UNROLL 8, 32 bytes, so one load touches 32 sectors where a coalesced
// one touches 4, and the rubric's sectors-per-request target fails.

#include <cassert>

__constant__ int UNROLL = 8;

template <int U>
static __device__ __forceinline__ void triad_unrolled(const float *__restrict__ x,
                                                      const float *__restrict__ y,
                                                      float *__restrict__ z, int n)
{
    const int stride = gridDim.x * blockDim.x;
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * U;
#pragma unroll 1
    for (; i + U - 1 < n; i += U * stride) {
        float xv[U], yv[U];
#pragma unroll
        for (int k = 0; k < U; k++) {
            xv[k] = x[i + k];    // NEIGHBOURS: lanes U floats apart
            yv[k] = y[i + k];
        }
#pragma unroll
        for (int k = 0; k < U; k++)
            z[i + k] = 2.0f * xv[k] + yv[k];
    }
    // the one group that straddles n
#pragma unroll 1
    for (; i < n; i++)
        z[i] = 2.0f * x[i] + y[i];
}

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
