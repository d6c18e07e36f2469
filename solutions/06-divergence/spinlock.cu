// spinlock.cu: lab 06's exercise 6, fixed (labs/06-divergence/spinlock.cu has the broken
// kernels; handouts/06-divergence.md, exercise 6, the reasoning). Each kernel now finishes
// under both schedulers, --sched its and --sched stack.
//
// What was wrong: the work a thread does once it has its turn (or the lock) came after the
// waiting loop, that is after the loop's reconvergence point. Under a reconvergence stack
// the thread that gets out of the loop waits there for the rest of its warp, which is still
// looping, waiting for that very thread: nobody moves. The fix moves the work inside the
// loop, under an if: the if's paths reconverge at the end of the loop body, so the thread
// whose turn it is does its work and hands on the turn in the same pass, before it waits
// for anyone. Under independent thread scheduling the broken kernels happen to finish; the
// fixed ones finish under any scheduler that runs every path it has split off.

extern "C" __global__ void take_turns(int *order)
{
    __shared__ volatile int turn;
    int tid = threadIdx.x;
    if (tid == 0)
        turn = 0;
    __syncthreads();
    bool done = false;
    while (!done) {
        if (turn == tid) {
            order[tid] = turn;
            turn = tid + 1;
            done = true;
        }
    }
}

extern "C" __global__ void take_turns_sync(int *order)
{
    __shared__ volatile int turn;
    int tid = threadIdx.x;
    if (tid == 0)
        turn = 0;
    __syncthreads();
    bool done = false;
    while (!done) {
        if (turn == tid) {
            order[tid] = turn;
            turn = tid + 1;
            done = true;
        }
    }
    __syncthreads();        // every thread reaches it, once its loop is over
}

// The lock is taken and released inside the loop: a thread that wins the atomicCAS appends
// and frees the lock in the same pass, so the lanes still trying find it free next time.
extern "C" __global__ void append(int *lock, int *list, int *len)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    bool done = false;
    while (!done) {
        if (atomicCAS(lock, 0, 1) == 0) {
            int k = *(volatile int *)len;
            list[k] = tid;
            *(volatile int *)len = k + 1;
            __threadfence();
            atomicExch(lock, 0);
            done = true;
        }
    }
}
