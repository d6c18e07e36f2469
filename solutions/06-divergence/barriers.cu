// barriers.cu: lab 06's exercise 7, fixed (labs/06-divergence/barriers.cu has the broken
// kernels; handouts/06-divergence.md, exercise 7, the reasoning). The rule: every thread
// of the block reaches the same __syncthreads(), so the barrier goes outside the branch, and
// the branch is split in two around it: what must happen before the barrier, and what must
// wait for it.

extern "C" __global__ void halves(int *out)
{
    __shared__ int s[16];
    int tid = threadIdx.x;
    if (tid < 16)
        s[tid] = 100 + tid;
    __syncthreads();
    out[tid] = tid < 16 ? tid : s[tid - 16];
}

// No flag: the barrier itself says that s[] is full. A thread that waits in a loop for
// another thread's write needs that thread to run; a barrier it cannot reach while it loops
// is what stopped warp 0.
extern "C" __global__ void handoff(int *out)
{
    __shared__ int s[32];
    int tid = threadIdx.x;
    if (tid < 32)
        s[tid] = tid * tid;
    __syncthreads();
    if (tid >= 32)
        out[tid - 32] = s[tid - 32];
}
