// smem_bar.cu: emulator benchmark, shared memory with a barrier every iteration. Each
// thread (256 a block) writes its slot, waits, reads a neighbour's (a stride that makes no bank
// conflict) and a transposed one (an 8-way conflict), and waits again.

extern "C" __global__ void smem_bar(float *out, int iters)
{
    __shared__ float s[32 * 33];
    __shared__ float t[256];
    unsigned tid = threadIdx.x;
    float v = tid * 1e-3f;
    for (int k = 0; k < iters; k++) {
        s[tid] = v;
        t[tid] = v;
        __syncthreads();
        v += s[(tid + 1) % blockDim.x] + t[(tid % 32) * 8 + tid / 32];
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + tid] = v;
}
