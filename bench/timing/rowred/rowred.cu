// rowred.cu: the families benchmark's row reductions (issue 15) over an m x k row-major
// matrix A of floats, one kind per sweep point:
//
//   kind 0  GEMV y = A x, a thread a row: a warp's loads are k floats apart (uncoalesced)
//   kind 1  GEMV, a warp a row: lanes stride by 32 (coalesced), then a shuffle sum
//   kind 2  softmax of every row into P, a thread a row: the row's max, the sum of
//           expf(a - max), then P = expf(a - max) / sum, three passes over the row
//   kind 3  softmax, a warp a row: the same three passes, coalesced, with shuffle max and sum
//
// lab.json launches m threads (kinds 0, 2) or m warps (1, 3) in blocks of 256. The GEMV
// kinds leave P alone and the softmax kinds y (both in-out buffers that start at zero).

extern "C" __global__ void rowred(const float *A, const float *x, float *y, float *P, int m,
                                  int k, int kind)
{
    if (kind == 0 || kind == 2) {
        int r = blockIdx.x * blockDim.x + threadIdx.x;
        if (r >= m)
            return;
        const float *a = A + (long long)r * k;
        if (kind == 0) {
            float sum = 0.0f;
            for (int j = 0; j < k; j++)
                sum += a[j] * x[j];
            y[r] = sum;
            return;
        }
        float mx = -INFINITY;
        for (int j = 0; j < k; j++)
            mx = fmaxf(mx, a[j]);
        float sum = 0.0f;
        for (int j = 0; j < k; j++)
            sum += expf(a[j] - mx);
        float inv = 1.0f / sum;
        float *p = P + (long long)r * k;
        for (int j = 0; j < k; j++)
            p[j] = expf(a[j] - mx) * inv;
        return;
    }
    int r = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
    if (r >= m)
        return;
    const float *a = A + (long long)r * k;
    if (kind == 1) {
        float sum = 0.0f;
        for (int j = lane; j < k; j += 32)
            sum += a[j] * x[j];
#pragma unroll
        for (int d = 16; d > 0; d >>= 1)
            sum += __shfl_xor_sync(0xffffffffu, sum, d);
        if (lane == 0)
            y[r] = sum;
        return;
    }
    float mx = -INFINITY;
    for (int j = lane; j < k; j += 32)
        mx = fmaxf(mx, a[j]);
#pragma unroll
    for (int d = 16; d > 0; d >>= 1)
        mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, d));
    float sum = 0.0f;
    for (int j = lane; j < k; j += 32)
        sum += expf(a[j] - mx);
#pragma unroll
    for (int d = 16; d > 0; d >>= 1)
        sum += __shfl_xor_sync(0xffffffffu, sum, d);
    float inv = 1.0f / sum;
    float *p = P + (long long)r * k;
    for (int j = lane; j < k; j += 32)
        p[j] = expf(a[j] - mx) * inv;
}
