// median.cu: lab 02's reference solution. A median filter of width 9, out[i] = the median
// of x[i-4] ... x[i+4], indices clamped to 0 .. n-1 (the starter says more).
//
// The window stays in registers: every index into w is a compile-time constant once the
// loops are unrolled, so nvcc gives each w[k] a register of its own and ptxas reports a
// 0-byte stack frame. No step depends on the data either, so the 32 lanes of a warp never
// part ways (the insertion sort of the starter splits them at its while loop).

// 256 threads per block: 8 blocks of 8 warps fill the SM's 64 warp slots, far below the
// 32-block limit that holds one-warp blocks to half the SM.
__constant__ int BLOCK = 256;

// sort2(a, b): afterwards a <= b. fminf and fmaxf return one of their arguments exactly.
static __device__ __forceinline__ void sort2(float &a, float &b)
{
    float lo = fminf(a, b);
    b = fmaxf(a, b);
    a = lo;
}

// The median of three values.
static __device__ __forceinline__ float median3(float a, float b, float c)
{
    return fmaxf(fminf(a, b), fminf(fmaxf(a, b), c));
}

// The median of nine: sort each row of the 3x3 grid w[0..2], w[3..5], w[6..8]; then the
// median is the median of three: the largest row minimum lo, the median of the row medians
// mid and the smallest row maximum hi. (Each of lo, mid, hi has at least four of the nine on
// one side of it, so none of the values outside them can be the median, and the median of
// nine lies between lo and hi.) 9 compare-exchanges and 12 more min/max: 30 instructions.
static __device__ __forceinline__ float median9_registers(float w[9])
{
#pragma unroll
    for (int r = 0; r < 9; r += 3) {
        sort2(w[r], w[r + 1]);
        sort2(w[r + 1], w[r + 2]);
        sort2(w[r], w[r + 1]);
    }
    float lo = fmaxf(fmaxf(w[0], w[3]), w[6]);
    float mid = median3(w[1], w[4], w[7]);
    float hi = fminf(fminf(w[2], w[5]), w[8]);
    return median3(lo, mid, hi);
}

extern "C" __global__ void median9(const float *__restrict__ x, float *__restrict__ out, int n)
{
    const int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        float w[9];
#pragma unroll
        for (int k = 0; k < 9; k++)
            w[k] = x[min(max(i + k - 4, 0), n - 1)];
        out[i] = median9_registers(w);
    }
}
