// spmv.cu: the families benchmark's sparse matrix-vector products (issue 15): y = A x for an
// n x n matrix stored row by row as in CSR, with each row's entries at r*64 .. r*64 + len(r)
// (len(r) = rl[r] & 63, 0 to 63, mean 31.5: rows of uneven length, as in CSR, with the
// row pointer r*64 implicit) and column indices made from random words col[j]:
//
//   c = ((r & rsel) - off + (col[j] & cmask)) & (n - 1)
//
//   random  rsel = 0,  off = 0,  cmask = n - 1  columns anywhere (x from L2 at random)
//   banded  rsel = ~0, off = 32, cmask = 63     columns within 32 of the diagonal (x hits)
//
// and two ways to share the work, kind:
//
//   kind 0  scalar: a thread a row; a warp's loads of val and col are 32 rows apart
//           (uncoalesced) and it runs its longest row's trips
//   kind 1  vector: a warp a row, lanes stride by 32 (coalesced), then a shuffle sum
//
// The same instructions per entry at every sparsity.

extern "C" __global__ void spmv(const float *val, const unsigned *col, const unsigned *rl,
                                const float *x, float *y, int n, int kind, unsigned rsel,
                                unsigned off, unsigned cmask)
{
    unsigned nm = (unsigned)n - 1u;
    if (kind == 0) {
        unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
        if (r >= (unsigned)n)
            return;
        unsigned len = rl[r] & 63u;
        unsigned rb = (r & rsel) - off;
        long long p = (long long)r * 64;
        float sum = 0.0f;
        for (unsigned j = 0; j < len; j++)
            sum += val[p + j] * x[(rb + (col[p + j] & cmask)) & nm];
        y[r] = sum;
        return;
    }
    unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31u;
    if (w >= (unsigned)n)
        return;
    unsigned len = rl[w] & 63u;
    unsigned rb = (w & rsel) - off;
    long long p = (long long)w * 64;
    float sum = 0.0f;
    for (unsigned j = lane; j < len; j += 32)
        sum += val[p + j] * x[(rb + (col[p + j] & cmask)) & nm];
#pragma unroll
    for (int d = 16; d > 0; d >>= 1)
        sum += __shfl_xor_sync(0xffffffffu, sum, d);
    if (lane == 0)
        y[w] = sum;
}
