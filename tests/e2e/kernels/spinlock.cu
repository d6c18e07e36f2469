// spinlock.cu: the SIMT spin-lock hazard. Every lane of a warp waits for its turn,
// which the lane before it hands over. Under independent thread scheduling (Volta
// and later, --sched its) the lane whose turn it is gets to run and the warp finishes,
// in order. Under a reconvergence stack (--sched stack) the lanes still spinning hold
// the warp, the lane that could hand the turn on waits at the reconvergence point,
// and the warp never finishes: a deadlock, reported at the spinning line.
//
// turn[0]: whose turn it is (starts at 0); turn[1]: arrival counter; order[t]: t's rank.

extern "C" __global__ void spin_in_order(int *turn, int *order)
{
    int t = threadIdx.x;
    while (*(volatile int *)turn != t) { } // SPIN-HERE
    order[t] = atomicAdd(&turn[1], 1);
    __threadfence();
    *(volatile int *)turn = t + 1;
}
