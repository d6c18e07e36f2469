// atomics.cu: the timing model's atomics benchmark (issue 15): the histogram and counting
// kernels students write after lab 07, one kind per sweep point.
//
//   kind 0  histogram, global atomicAdd on the bin (bin = in[i] & mask)
//   kind 1  histogram privatised in shared memory: a block's counts in __shared__ with
//           shared atomicAdd, then one global atomicAdd per bin and block
//   kind 2  counting: atomicAdd(&slot[i & mask], 1.0f), float, result unused (RED)
//   kind 3  as 2, the result used (ATOM): each thread adds the old value's sign into a
//           second buffer's element of its own (never taken: counts are not negative)
//   kind 4  as 2, unsigned integer adds (RED.ADD, not RED.ADD.F32)
//
// mask picks how many addresses the updates spread over: 0 (every update to one address),
// 31, 255, 65535. Every thread handles ITEMS elements, grid-strided, so the grid is a few
// waves whatever n is. The counts are exact (integers, and floats up to 2^24), so the
// reference compares them bit for bit.

#define BLOCK 256
#define BINS_MAX 65536

__constant__ int ITEMS = 8;

extern "C" __global__ void atomics(const unsigned *in, unsigned *bins, float *slots,
                                   unsigned *side, int n, int kind, unsigned mask)
{
    __shared__ unsigned h[256];
    long long stride = (long long)gridDim.x * BLOCK;
    long long i0 = (long long)blockIdx.x * BLOCK + threadIdx.x;
    if (kind == 1) {
        for (unsigned b = threadIdx.x; b < 256; b += BLOCK)
            h[b] = 0;
        __syncthreads();
        for (long long i = i0; i < n; i += stride)
            atomicAdd(&h[in[i] & mask & 255u], 1u);
        __syncthreads();
        for (unsigned b = threadIdx.x; b <= (mask & 255u); b += BLOCK)
            if (h[b])
                atomicAdd(&bins[b], h[b]);
        return;
    }
    for (long long i = i0; i < n; i += stride) {
        unsigned k = in[i] & mask;
        if (kind == 0) {
            atomicAdd(&bins[k], 1u);
        } else if (kind == 2) {
            atomicAdd(&slots[k], 1.0f);
        } else if (kind == 3) {
            float old = atomicAdd(&slots[k], 1.0f);
            if (old < 0.0f)
                side[i] = 1u;
        } else {
            atomicAdd(&bins[k], 1u);
        }
    }
}
