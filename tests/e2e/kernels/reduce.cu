// reduce.cu: sums (end-to-end suite).
//   reduce_shared:   tree in shared memory, sequential addressing, one partial per block
//                    (block size must be a power of two, at most 256)
//   reduce_warp:     __shfl_down_sync tree inside each warp, one atomicAdd per warp
//   reduce_warp_int: the same on integers, so the total is exact whatever the atomic order

extern "C" __global__ void reduce_shared(const float *in, float *partial, int n)
{
    __shared__ float s[256];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    s[tid] = (i < (unsigned)n) ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = s[0];
}

extern "C" __global__ void reduce_warp(const float *in, float *total, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = (i < n) ? in[i] : 0.0f;
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(total, v);
}

extern "C" __global__ void reduce_warp_int(const int *in, int *total, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? in[i] : 0;
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(total, v);
}
