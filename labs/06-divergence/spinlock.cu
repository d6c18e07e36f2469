// spinlock.cu: lab 06, threads of one warp that wait for each other (ungraded; the handout's
// exercise 6). Each kernel is correct if every thread runs on its own, as the CUDA
// programming model says it may; whether it finishes depends on how the warp schedules its
// divergent lanes:
//
//   bin/warplab emu labs/06-divergence/spinlock.cu --kernel take_turns --grid 1 --block 32 \
//       --arg i32buf:32:fill=-1 --dump 0=order.bin --sched stack     (or --sched its)
//
// take_turns:      the GT200 paper's listing 4. Thread tid waits until turn == tid, writes
//                  order[tid], and passes the turn to tid + 1.
// take_turns_sync: the same, with a __syncthreads() after the handover.
// append:          every thread appends its index to list[] under a lock taken with
//                  atomicCAS: len holds the list's length, lock is 0 when free.
// Fix them in exercise 6 so that they finish under both schedulers.

extern "C" __global__ void take_turns(int *order)
{
    __shared__ volatile int turn;
    int tid = threadIdx.x;
    if (tid == 0)
        turn = 0;
    __syncthreads();
    while (turn != tid) { } // SPIN
    order[tid] = turn;      // LEFT-LOOP
    turn = tid + 1;
}

extern "C" __global__ void take_turns_sync(int *order)
{
    __shared__ volatile int turn;
    int tid = threadIdx.x;
    if (tid == 0)
        turn = 0;
    __syncthreads();
    while (turn != tid) { } // SPIN-SYNC
    order[tid] = turn;
    turn = tid + 1;
    __syncthreads(); // AFTER-LOOP
}

extern "C" __global__ void append(int *lock, int *list, int *len)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    while (atomicCAS(lock, 0, 1) != 0) { } // ACQUIRE
    int k = *(volatile int *)len;
    list[k] = tid;
    *(volatile int *)len = k + 1;
    __threadfence();        // the list and len are written before the lock is seen free
    atomicExch(lock, 0);
}
