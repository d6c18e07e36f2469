// atomics.cu: atomic read-modify-write on global and shared memory (end-to-end suite).
//   hist_global:  256-bin byte histogram, atomicAdd straight on global memory
//   hist_shared:  the same through a per-block shared histogram, merged at the end
//   max_cas:      maximum built from an atomicCAS retry loop (no atomicMax)
//   atomic_misc:  atomicInc with wrap-around, atomicAdd tickets, an atomicExch chain

extern "C" __global__ void hist_global(const unsigned char *data, unsigned *bins, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&bins[data[i]], 1u);
}

extern "C" __global__ void hist_shared(const unsigned char *data, unsigned *bins, int n)
{
    __shared__ unsigned local[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        if (local[b] != 0)
            atomicAdd(&bins[b], local[b]);
}

extern "C" __global__ void max_cas(const int *in, int *result, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = in[i];
    int old = *result;
    while (old < v) {
        int seen = atomicCAS(result, old, v);
        if (seen == old)
            break;
        old = seen;
    }
}

// counters[0]: atomicInc wrapping at 99; counters[1]: ticket dispenser.
// inc_old[i], ticket[i], exch_old[i]: what thread i got back; *last: the exchange chain's end.
extern "C" __global__ void atomic_misc(unsigned *counters, unsigned *inc_old, unsigned *ticket,
                                       int *last, int *exch_old, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    inc_old[i] = atomicInc(&counters[0], 99u);
    ticket[i] = atomicAdd(&counters[1], 1u);
    exch_old[i] = atomicExch(last, i);
}
