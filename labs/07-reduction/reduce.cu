// reduce.cu: lab 07, warp reduction. Your whole submission is this file.
//
// The sum of n unsigned integers, seven ways, each a step of the classic sequence of
// parallel reductions (handouts/07-reduction.md):
//
//   1  interleaved addressing, the divergent test tid % (2s) == 0   (given: the baseline)
//   2  interleaved addressing, strided index 2 s tid: no divergence, bank conflicts
//   3  sequential addressing: no divergence, no bank conflicts
//   4  the first add during the load: two elements per thread, half the blocks
//   5  as 4, the last warp unrolled: no __syncthreads below 2 x warpSize elements
//   6  warp shuffles (__shfl_down_sync) within each warp, one shared step between warps
//   7  a grid-stride loop: a fixed grid, each thread sums many elements, then as 6, and one
//      atomicAdd per block into out[0]
//
// warplab launches blocks of 256 threads (BLOCK). Versions 1 to 3 launch cdiv(n, 256) blocks
// and versions 4 to 6 cdiv(n, 512): block b sums its elements and writes the sum to out[b]
// (the first pass of a two-pass reduction). Version 7 launches min(cdiv(n, 512), 1056) blocks
// (1056: 8 blocks on each of an H200's 132 SMs) and adds every block's sum to out[0], which
// starts at 0. Elements past n count as 0.
//
// Which version is yours to choose: warplab reads VERSION below from the compiled file and
// passes it to the kernel as `version`; the tests and the sweep run all seven, so every one
// must be right. Read `version`, never VERSION, whose value in the kernel stays this file's.
//
// The warp is not always 32 lanes: some tests run on a 64-lane wave (the emulator's wave64
// profile), where warpSize reads 64. Write the warp steps (versions 5, 6, 7) with warpSize.
//
// The sums are unsigned and wrap around at 2^32: that addition is associative, so every order
// of adding gives the same bits (the handout says why that matters).

#define BLOCK 256               // lab.json launches blocks of 256 threads
#define FULL 0xffffffffu        // every lane of the warp, for the *_sync intrinsics

__constant__ int VERSION = 1;

// One element per thread into s (versions 1 to 3): element blockIdx.x * BLOCK + tid, or 0
// past the end; then a barrier, so that every thread sees every element.
static __device__ __forceinline__ void load_one(const unsigned *in, unsigned *s, unsigned n)
{
    unsigned tid = threadIdx.x, i = blockIdx.x * BLOCK + tid;
    s[tid] = i < n ? in[i] : 0u;
    __syncthreads();
}

// Version 1, the baseline: in step s (1, 2, 4, ... 128) the threads whose tid is a multiple of
// 2s add the element s to their right. Half of the threads of every warp sit out the first
// step, three quarters the second: the warps diverge.
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

// Version 2. TODO: the same additions as version 1, done by the first threads of the block:
//         thread tid works on index = 2 * st * tid (when index < BLOCK), adding s[index + st]
//         into s[index]. No warp diverges until fewer than 32 threads work; what happens to
//         the banks of shared memory?
static __device__ unsigned reduce_interleaved_strided(const unsigned *in, unsigned *s, unsigned n)
{
    return 0;
}

// Version 3. TODO: sequential addressing: in step st (128, 64, ... 1) thread tid < st adds
//         s[tid + st] into s[tid]. Consecutive threads, consecutive words: no conflicts.
static __device__ unsigned reduce_sequential(const unsigned *in, unsigned *s, unsigned n)
{
    return 0;
}

// TODO (versions 4 to 6): two elements per thread, BLOCK apart, added on the way in: block b
//         covers elements b * 2 * BLOCK ... b * 2 * BLOCK + 2 * BLOCK - 1. Either may be past n.
static __device__ __forceinline__ unsigned load_two(const unsigned *in, unsigned n)
{
    return 0;
}

// Version 4. TODO: s[tid] = load_two(...), a barrier, then version 3's tree.
static __device__ unsigned reduce_first_add(const unsigned *in, unsigned *s, unsigned n)
{
    return 0;
}

// Version 5. TODO: as version 4, but stop the tree when 2 x warpSize elements are left; then
//         the threads of the first warp finish alone, with no block barrier: in each step
//         (offsets warpSize, warpSize / 2, ... 1) read s[tid + off], __syncwarp(), write
//         s[tid], __syncwarp(). Thread 0's value is the sum.
static __device__ unsigned reduce_unrolled_warp(const unsigned *in, unsigned *s, unsigned n)
{
    return 0;
}

// TODO (versions 6 and 7): the sum of v over the lanes of this warp, in lane 0:
//         v += __shfl_down_sync(FULL, v, off) for off = warpSize / 2, ... 2, 1.
static __device__ __forceinline__ unsigned warp_sum(unsigned v)
{
    return v;
}

// TODO (versions 6 and 7): the sum of every thread's v over the block, in thread 0: each
//         warp's sum (warp_sum) into s[warp] by its lane 0, a barrier, then the first warp
//         sums s[0 .. BLOCK / warpSize - 1] with warp_sum again. lane = tid % warpSize,
//         warp = tid / warpSize.
static __device__ __forceinline__ unsigned block_sum(unsigned v, unsigned *s)
{
    return 0;
}

// Version 6. TODO: block_sum(load_two(...)).
static __device__ unsigned reduce_shuffle(const unsigned *in, unsigned *s, unsigned n)
{
    return 0;
}

// Version 7. TODO: a grid-stride loop: thread t of the grid (t = blockIdx.x * BLOCK + tid)
//         adds elements t, t + T, t + 2T, ... below n, T = gridDim.x * BLOCK the threads of
//         the grid; then block_sum. To keep DRAM busy, load several elements before adding
//         any (lab 03): one load at a time per thread leaves bandwidth unused.
static __device__ unsigned reduce_grid_stride(const unsigned *in, unsigned *s, unsigned n)
{
    return 0;
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
    case 5: r = reduce_unrolled_warp(in, s, un); break;
    case 6: r = reduce_shuffle(in, s, un); break;
    default: r = reduce_grid_stride(in, s, un); break;
    }
    if (threadIdx.x != 0)
        return;
    if (version == 7)
        atomicAdd(out, r);      // one atomic per block: the whole sum in one launch
    else
        out[blockIdx.x] = r;    // one partial sum per block
}
