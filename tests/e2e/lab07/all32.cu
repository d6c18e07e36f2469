// all32.cu: lab 07's reference solution with 32 written wherever the warp's width is meant:
// lane = tid % 32, warp = tid / 32, the shuffle offsets 16 ... 1, and the last-warp step of
// version 5 from 64 elements by the first 32 threads. On a 64-lane wave a full mask names the
// whole wave, and a branch taken by half of it leaves the other half outside: the
// __syncwarp of version 5 and the second warp_sum of versions 6 and 7 wait for lanes 32 to
// 63, which never come. The emulator reports the deadlock, with both halves' lines
// (tests/e2e/lab07.c).

#define BLOCK 256               // lab.json launches blocks of 256 threads
#define FULL 0xffffffffu        // every lane of the warp (on a 64-lane wave: the whole wave)

__constant__ int VERSION = 7;   // the fastest: warp shuffles and a grid-stride loop

// One element per thread into s (versions 1 to 3): element blockIdx.x * BLOCK + tid, or 0
// past the end.
static __device__ __forceinline__ void load_one(const unsigned *in, unsigned *s, unsigned n)
{
    unsigned tid = threadIdx.x, i = blockIdx.x * BLOCK + tid;
    s[tid] = i < n ? in[i] : 0u;
    __syncthreads();
}

// Two elements per thread, BLOCK apart, added on the way in (versions 4 to 6): a block covers
// 2 x BLOCK elements.
static __device__ __forceinline__ unsigned load_two(const unsigned *in, unsigned n)
{
    unsigned i = blockIdx.x * (2 * BLOCK) + threadIdx.x;
    unsigned v = i < n ? in[i] : 0u;
    if (i + BLOCK < n)
        v += in[i + BLOCK];
    return v;
}

// Sequential addressing: halve the live part of s until `to` elements are left.
static __device__ __forceinline__ void tree_sequential(unsigned *s, unsigned to)
{
    unsigned tid = threadIdx.x;
    for (unsigned st = BLOCK / 2; st >= to; st >>= 1) {
        if (tid < st)
            s[tid] += s[tid + st];
        __syncthreads();
    }
}

// The sum of v over the lanes of this warp, in lane 0: log2(warpSize) shuffles.
static __device__ __forceinline__ unsigned warp_sum(unsigned v)
{
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(FULL, v, off);
    return v;
}

// The sum of every thread's v over the block, in thread 0: each warp's sum into s[warp],
// then the first warp adds those up.
static __device__ __forceinline__ unsigned block_sum(unsigned v, unsigned *s)
{
    unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    v = warp_sum(v);
    if (lane == 0)
        s[warp] = v;
    __syncthreads();
    if (warp == 0) {                    // IF-WARP0
        v = lane < BLOCK / 32 ? s[lane] : 0u;
        v = warp_sum(v);
    }
    return v;
}

static __device__ unsigned reduce_interleaved_divergent(const unsigned *in, unsigned *s, unsigned n)
{
    unsigned tid = threadIdx.x;
    load_one(in, s, n);
    for (unsigned st = 1; st < BLOCK; st *= 2) {
        if (tid % (2 * st) == 0)
            s[tid] += s[tid + st];
        __syncthreads();
    }
    return s[0];
}

static __device__ unsigned reduce_interleaved_strided(const unsigned *in, unsigned *s, unsigned n)
{
    unsigned tid = threadIdx.x;
    load_one(in, s, n);
    for (unsigned st = 1; st < BLOCK; st *= 2) {
        unsigned index = 2 * st * tid;
        if (index < BLOCK)
            s[index] += s[index + st];
        __syncthreads();
    }
    return s[0];
}

static __device__ unsigned reduce_sequential(const unsigned *in, unsigned *s, unsigned n)
{
    load_one(in, s, n);
    tree_sequential(s, 1);
    return s[0];
}

static __device__ unsigned reduce_first_add(const unsigned *in, unsigned *s, unsigned n)
{
    s[threadIdx.x] = load_two(in, n);
    __syncthreads();
    tree_sequential(s, 1);
    return s[0];
}

static __device__ unsigned reduce_unrolled_warp(const unsigned *in, unsigned *s, unsigned n)
{
    unsigned tid = threadIdx.x, w = 32;
    s[tid] = load_two(in, n);
    __syncthreads();
    tree_sequential(s, 2 * w);          // 2 x warpSize elements left
    unsigned v = 0;
    if (tid < w) {                      // IF-TID-W
        // one warp, no block barrier: each step reads, then writes once every lane has read
        // (__syncwarp: correct under independent thread scheduling, where the old
        // volatile-only version is not)
        v = s[tid];
        for (unsigned off = w; off > 0; off >>= 1) {
            v += s[tid + off];
            __syncwarp();                   // WARP-SYNC
            s[tid] = v;
            __syncwarp();
        }
    }
    return v;
}

static __device__ unsigned reduce_shuffle(const unsigned *in, unsigned *s, unsigned n)
{
    return block_sum(load_two(in, n), s);
}

// A grid-stride loop: thread t of the grid adds elements t, t + T, t + 2T, ... (T threads in
// the grid), LOADS of them an iteration, all loaded before any is added so that LOADS loads
// are in flight at once (lab 03: bytes in flight are what bandwidth needs).
#define LOADS 8

static __device__ unsigned reduce_grid_stride(const unsigned *in, unsigned *s, unsigned n)
{
    unsigned stride = gridDim.x * BLOCK, v = 0;
    for (unsigned i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += LOADS * stride) {
        unsigned x[LOADS];
#pragma unroll
        for (int k = 0; k < LOADS; k++)
            x[k] = i + k * stride < n ? in[i + k * stride] : 0u;
#pragma unroll
        for (int k = 0; k < LOADS; k++)
            v += x[k];
    }
    return block_sum(v, s);
}

extern "C" __global__ void reduce(const unsigned *in, unsigned *out, int n, int version)
{
    __shared__ unsigned s[BLOCK];
    unsigned un = (unsigned)n, r;
    switch (version) {
    case 1: r = reduce_interleaved_divergent(in, s, un); break;
    case 2: r = reduce_interleaved_strided(in, s, un); break;
    case 3: r = reduce_sequential(in, s, un); break;
    case 4: r = reduce_first_add(in, s, un); break;
    case 5: r = reduce_unrolled_warp(in, s, un); break;   // CALL-5
    case 6: r = reduce_shuffle(in, s, un); break;
    default: r = reduce_grid_stride(in, s, un); break;
    }
    if (threadIdx.x != 0)
        return;
    if (version == 7)
        atomicAdd(out, r);
    else
        out[blockIdx.x] = r;
}
