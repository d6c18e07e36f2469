// barriers.cu: lab 06, __syncthreads() in code that only some threads run (ungraded; the
// handout's exercise 7). __syncthreads() must be reached by every thread of the block that
// has not exited, or by none.
//
// halves:  the GT200 paper's listing 5, one warp of 32 threads. Lanes 0-15 write s[] and
//          wait at their barrier; lanes 16-31 wait at theirs, then read what lanes 0-15
//          wrote: out[tid] = s[tid - 16] for tid >= 16 (and out[tid] = tid below).
//   bin/warplab emu labs/06-divergence/barriers.cu --kernel halves --grid 1 --block 32 \
//       --arg i32buf:32:fill=-1
// handoff: the paper's listing 6, two warps. Warp 0 fills s[] and waits at a barrier
//          before it raises the flag ready; warp 1 waits for the flag, then copies s[]:
//          out[k] = k * k for k < 32.
//   bin/warplab emu labs/06-divergence/barriers.cu --kernel handoff --grid 1 --block 64 \
//       --arg i32buf:32:fill=-1
// Fix both in exercise 7 so that every thread reaches the same barrier.

extern "C" __global__ void halves(int *out)
{
    __shared__ int s[16];
    int tid = threadIdx.x;
    if (tid < 16) {
        s[tid] = 100 + tid;
        __syncthreads(); // PRODUCERS
        out[tid] = tid;
    } else {
        __syncthreads(); // CONSUMERS
        out[tid] = s[tid - 16];
    }
}

extern "C" __global__ void handoff(int *out)
{
    __shared__ int s[32];
    __shared__ volatile int ready;
    int tid = threadIdx.x;
    if (tid == 0)
        ready = 0;
    __syncthreads();
    if (tid < 32) {
        s[tid] = tid * tid;
        __syncthreads(); // WARP0-WAITS
        if (tid == 0)
            ready = 1;
    } else {
        while (!ready) { } // WARP1-SPINS
        out[tid - 32] = s[tid - 32];
    }
}
