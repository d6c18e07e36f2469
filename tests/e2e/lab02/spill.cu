// spill.cu: a wrong answer to lab 02 for tests/e2e/lab02.c, right in every output. Sixteen
// outputs per thread from one load of their 24 inputs (fewer loads), and, to win back the
// occupancy that costs, __launch_bounds__(1024, 2): at most 32 registers per thread. The 24
// inputs and 16 medians do not fit: ptxas spills registers to local memory (a stack frame
// and spill stores in ptxas -v). The PTX has no local memory at all, so the emulator, which
// runs the PTX, counts no local traffic; only ptxas's stack frame shows it.
__constant__ int BLOCK = 1024;

static __device__ __forceinline__ void sort2(float &a, float &b)
{
    float lo = fminf(a, b);
    b = fmaxf(a, b);
    a = lo;
}

static __device__ __forceinline__ float median3(float a, float b, float c)
{
    return fmaxf(fminf(a, b), fminf(fmaxf(a, b), c));
}

static __device__ __forceinline__ float median9(const float *v)
{
    float w[9];
#pragma unroll
    for (int k = 0; k < 9; k++)
        w[k] = v[k];
#pragma unroll
    for (int r = 0; r < 9; r += 3) {
        sort2(w[r], w[r + 1]);
        sort2(w[r + 1], w[r + 2]);
        sort2(w[r], w[r + 1]);
    }
    return median3(fmaxf(fmaxf(w[0], w[3]), w[6]), median3(w[1], w[4], w[7]),
                   fminf(fminf(w[2], w[5]), w[8]));
}

extern "C" __global__ void __launch_bounds__(1024, 2)
median9(const float *__restrict__ x, float *__restrict__ out, int n)
{
    const int stride = gridDim.x * blockDim.x;
    for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < (n + 15) / 16; t += stride) {
        int i0 = t * 16;
        float v[24];
#pragma unroll
        for (int k = 0; k < 24; k++)
            v[k] = x[min(max(i0 + k - 4, 0), n - 1)];
        float m[16];
#pragma unroll
        for (int j = 0; j < 16; j++)
            m[j] = median9(v + j);
#pragma unroll
        for (int j = 0; j < 16; j++)
            if (i0 + j < n)
                out[i0 + j] = m[j];        // SPILL: the 16 medians held until here
    }
}
