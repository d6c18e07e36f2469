// smem_banks.cu: emulator benchmark, shared memory off the easy paths: bank conflicts whose
// lanes are no constant stride apart, and accesses of 16 bytes a lane.
//   bank_column: each warp walks down the columns of a 32-column tile, one row a step, lane
//                l in column l's successor (word 32 l + k of the tile, wrapping around its
//                33 rows: lab 05's probe past the end of its array); every read a 32-way
//                conflict
//   tile4:       a float4 a thread written to a tile, a barrier, its neighbour's float4 read
//                back, a barrier (a tile staged with vector stores, as a tuned kernel does)

extern "C" __global__ void bank_column(float *out, int iters)
{
    __shared__ float t[32 * 33];
    unsigned tid = threadIdx.x;
    for (unsigned j = tid; j < 32 * 33; j += blockDim.x)
        t[j] = j * 1e-3f;
    __syncthreads();
    float acc = 0.0f;
    for (int k = 0; k < iters; k++)
        acc += t[(tid * 32 + k) % (32 * 33)];
    out[blockIdx.x * blockDim.x + tid] = acc;
}

extern "C" __global__ void tile4(float *out, int iters)
{
    __shared__ float4 s[256];
    unsigned tid = threadIdx.x;
    float4 v = make_float4(tid, tid + 1.0f, tid + 2.0f, tid + 3.0f);
    for (int k = 0; k < iters; k++) {
        s[tid] = v;
        __syncthreads();
        float4 q = s[tid ^ 1];
        v.x += q.y * 1e-3f;
        v.y += q.x * 1e-3f;
        v.z = fmaf(q.w, 1e-3f, v.z);
        v.w = fmaf(q.z, 1e-3f, v.w);
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + tid] = v.x + v.y + v.z + v.w;
}
