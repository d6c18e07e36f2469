// sync_semantics.cu: how a real GPU treats barriers and spin locks that the emulator
// reports on. Run by tests/gpu/prove.sh on the device; not part of the CPU suites.
//   early_exit_barrier: threads past n return before __syncthreads() (the common idiom)
//   spin_then_sync:     the SIMT spin lock followed by __syncthreads() (hangs even on Volta+,
//                       because of where the compiler places warp synchronisation)

extern "C" __global__ void early_exit_barrier(float *out, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x;
    if (t >= n)
        return;
    s[t] = (float)t;
    __syncthreads();
    out[t] = s[n - 1 - t];
}

extern "C" __global__ void spin_then_sync(int *turn, int *order)
{
    int tid = threadIdx.x;
    while (*(volatile int *)turn != tid)
        ;
    order[tid] = atomicAdd(turn, 1);
    __syncthreads();
}

// hang_forever: waits for a flag nobody sets. On a GPU it never ends; warplab's watchdog
// (WARPLAB_GPU_TIMEOUT) stops the run with a message. The emulator reports a deadlock.
extern "C" __global__ void hang_forever(int *flag)
{
    while (*(volatile int *)flag == 0)
        ;
}
