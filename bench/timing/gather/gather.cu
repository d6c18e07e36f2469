// gather.cu: the families benchmark's gather (issue 15): y[i] = x[idx(i)], one index
// pattern per sweep point, the same instructions at every point:
//
//   idx(i) = ((i & hi) | (r[i] & lo)) & (n - 1),  r random 32-bit words, n a power of two
//
//   random  hi = 0,   lo = n - 1   anywhere in x (every lane its own sector, from DRAM)
//   window  hi = ~4095, lo = 4095  random inside the 16 KB of x around i (L1/L2 hits)
//   sorted  hi = ~0,  lo = 0       idx = i (coalesced, the copy's bandwidth)
//
// Grid-strided, ITEMS elements a thread, so the grid is a few waves whatever n is.

extern "C" __global__ void gather(const float *x, const unsigned *r, float *y, int n,
                                  unsigned hi, unsigned lo)
{
    unsigned stride = gridDim.x * blockDim.x;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < (unsigned)n; i += stride) {
        unsigned j = ((i & hi) | (r[i] & lo)) & ((unsigned)n - 1u);
        y[i] = x[j];
    }
}
