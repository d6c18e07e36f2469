// rank_local.cu: a wrong answer to lab 02 for tests/e2e/lab02.c, right in every output,
// without a data-dependent branch, yet with an array in local memory. Each value's rank
// (how many come before it in a stable order) is counted in registers, every loop unrolled;
// then each value is stored at its rank, sorted[rank] = w[a], and the median read back as
// sorted[4]. The rank is data: an index known only at run time, which no register can take,
// so sorted lives in local memory. (Only one value has rank 4: keeping that one, m = rank ==
// 4 ? w[a] : m, needs no array at all.)
__constant__ int BLOCK = 256;

extern "C" __global__ void median9(const float *__restrict__ x, float *__restrict__ out, int n)
{
    const int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        float w[9], sorted[9];
#pragma unroll
        for (int k = 0; k < 9; k++)
            w[k] = x[min(max(i + k - 4, 0), n - 1)];
#pragma unroll
        for (int a = 0; a < 9; a++) {
            int rank = 0;
#pragma unroll
            for (int b = 0; b < 9; b++)
                rank += (w[b] < w[a]) | ((w[b] == w[a]) & (b < a));
            sorted[rank] = w[a];                       // LOCAL: a run-time index
        }
        out[i] = sorted[4];
    }
}
