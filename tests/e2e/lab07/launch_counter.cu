// launch_counter.cu: lab 07's reference solution with a __device__ variable that counts its
// launches: thread 0 of block 0 reads it, adds one, and runs one fence for each launch before
// this one. Every launch of it starts from another state, so no two launches of it execute
// the same instructions, though their arguments, inputs and outputs are the same: the run
// must launch each point of the sweep, not take a point that repeats the main configuration's
// launch (version 7) from that launch (tests/e2e/lab07.c, lab07_device_state_not_reused).
//
// reduce.cu: lab 07's reference solution (see labs/07-reduction/reduce.cu for the task and
// handouts/07-reduction.md for the reasoning).
//
// Seven versions of one sum, each a step of the classic sequence of parallel reductions:
//
//   1  interleaved addressing, the divergent test tid % (2s) == 0
//   2  interleaved addressing, strided index 2 s tid: no divergence, bank conflicts
//   3  sequential addressing: no divergence, no bank conflicts
//   4  the first add during the load: two elements per thread, half the blocks
//   5  as 4, the last warp unrolled: no __syncthreads below 2 x warpSize elements
//   6  warp shuffles (__shfl_down_sync) within each warp, one shared step between warps
//   7  a grid-stride loop: a fixed grid, each thread sums many elements, then as 6, and one
//      atomicAdd per block into out[0]
//
// Versions 1 to 6 are the first pass of a two-pass reduction: block b writes the sum of its
// elements to out[b]. Version 7 is the whole reduction in one pass.
//
// Nothing below assumes 32 lanes: the warp width is warpSize (PTX's WARP_SZ), 32 on every
// NVIDIA GPU and 64 on a 64-lane wave (AMD CDNA, MetaX; the emulator's wave64 profile). The
// shuffle offsets run from warpSize / 2 down to 1, the last-warp step starts at 2 x warpSize
// elements, and the lane and warp numbers come from warpSize. The mask 0xffffffff names every
// lane of the warp: CUDA's masks have 32 bits, and on a 64-lane wave a full mask means the
// whole wave.
//
// The sums are unsigned: addition modulo 2^32 is associative, so every version, every block
// order and every order of the atomics gives the same bits.

#define BLOCK 256               // lab.json launches blocks of 256 threads
#define FULL 0xffffffffu        // every lane of the warp (on a 64-lane wave: the whole wave)

__device__ unsigned launches;    // launches so far: each one adds one

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

// The sum of v over the lanes of this warp, in lane 0: log2(warpSize) shuffles. The loop is
// unrolled for the widest warp there is (64 lanes), and each step is kept only while its
// offset is under warpSize: on an NVIDIA GPU ptxas knows warpSize is 32, drops the first step
// and keeps five shuffles with constant offsets. (Written `for (off = warpSize / 2; ...)`, it
// is as correct, but ptxas keeps a loop with the offset in a register.)
static __device__ __forceinline__ unsigned warp_sum(unsigned v)
{
#pragma unroll
    for (int off = 32; off > 0; off >>= 1)
        if (off < warpSize)
            v += __shfl_down_sync(FULL, v, off);
    return v;
}

// The sum of every thread's v over the block, in thread 0: each warp's sum into s[warp],
// then the first warp adds those up.
static __device__ __forceinline__ unsigned block_sum(unsigned v, unsigned *s)
{
    unsigned tid = threadIdx.x, lane = tid & (warpSize - 1), warp = tid / warpSize;
    v = warp_sum(v);
    if (lane == 0)
        s[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < BLOCK / warpSize ? s[lane] : 0u;
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
    unsigned tid = threadIdx.x, w = warpSize;
    s[tid] = load_two(in, n);
    __syncthreads();
    tree_sequential(s, 2 * w);          // 2 x warpSize elements left
    unsigned v = 0;
    if (tid < w) {
        // one warp, no block barrier: each step reads, then writes once every lane has read
        // (__syncwarp: correct under independent thread scheduling, where the old
        // volatile-only version is not)
        v = s[tid];
        for (unsigned off = w; off > 0; off >>= 1) {
            v += s[tid + off];
            __syncwarp();
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
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        unsigned before = launches;
        launches = before + 1;
        for (unsigned k = 0; k < before; k++)
            __threadfence_block();
    }
    switch (version) {
    case 1: r = reduce_interleaved_divergent(in, s, un); break;
    case 2: r = reduce_interleaved_strided(in, s, un); break;
    case 3: r = reduce_sequential(in, s, un); break;
    case 4: r = reduce_first_add(in, s, un); break;
    case 5: r = reduce_unrolled_warp(in, s, un); break;
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
