// no_tail.cu: a wrong lab 03 kernel for tests/e2e/lab03.c: the reference solution without its
// tail loop. When n is not a multiple of UNROLL grid strides, the last elements of some
// threads are never written: at n = 1 element 0 (no thread has 8 strides' worth), at
// n = 4097 with one block element 4096 (thread 0's 33rd stride).

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
    // NO-TAIL: the elements past the last whole U strides are never written
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
