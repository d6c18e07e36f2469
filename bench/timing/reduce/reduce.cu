// reduce.cu: the tree-reduction benchmark of the timing model (issue 4): the classic
// sequence of parallel sums (after M. Harris, "Optimizing parallel reduction in CUDA"),
// one kind per sweep point, each block adding its partial sum to one of `slots` floats of out
// with atomicAdd (slot = block index mod slots; the host adds the slots up).
//
//   kind 0  interleaved addressing, divergent test tid % (2s) == 0
//   kind 1  interleaved addressing, strided index 2 s tid: no divergence, bank conflicts
//   kind 2  sequential addressing: no divergence, no conflicts
//   kind 3  as 2, with the first add during the load (two elements per thread, half the grid)
//   kind 4  as 3, with the last warp unrolled (no __syncthreads below 64 elements)
//   kind 5  warp shuffles (__shfl_down_sync) within each warp, one shared step between warps
//
// Why slots: float atomicAdds to one address are serialised where the L2 performs them. On an
// H200, 2^26 elements with one atomic per 256-element block took 0.47-0.50 ms for kinds 0-2
// and 0.24-0.26 ms for 3-5 whatever the kind (the time of 262144 or 131072 atomics to one
// address); with 1024 slots the kinds separate (0.31, 0.38, 0.31, 0.17, 0.13, 0.13 ms). The
// "one address" sweep keeps that serialisation as a test of its own (slots = 1).
//
// All six are __device__ functions inlined into one kernel that switches on kind: they
// share one register allocation (the largest of the six), unlike six separate kernels.
// The block is 256 threads (lab.json fixes it): BLOCK below is that size at compile time,
// so every loop is unrolled, as ptxas would unroll a template on the block size.

__constant__ int KIND = 2;
__constant__ int SLOTS = 1024;

#define BLOCK 256
#define FULL 0xffffffffu

// The block's elements into s: one per thread (kinds 0-2).
static __device__ __forceinline__ void load1(const float *in, float *s, int n)
{
    unsigned tid = threadIdx.x;
    long long i = (long long)blockIdx.x * BLOCK + tid;
    s[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();
}

// Two elements per thread, BLOCK apart, added on the way in (kinds 3-5).
static __device__ __forceinline__ float load2(const float *in, int n)
{
    long long i = (long long)blockIdx.x * (2 * BLOCK) + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    if (i + BLOCK < n)
        v += in[i + BLOCK];
    return v;
}

static __device__ float reduce_interleaved_divergent(const float *in, float *s, int n)
{
    unsigned tid = threadIdx.x;
    load1(in, s, n);
    for (unsigned st = 1; st < BLOCK; st *= 2) {
        if (tid % (2 * st) == 0)
            s[tid] += s[tid + st];
        __syncthreads();
    }
    return s[0];
}

static __device__ float reduce_interleaved_strided(const float *in, float *s, int n)
{
    unsigned tid = threadIdx.x;
    load1(in, s, n);
    for (unsigned st = 1; st < BLOCK; st *= 2) {
        unsigned index = 2 * st * tid;
        if (index < BLOCK)
            s[index] += s[index + st];
        __syncthreads();
    }
    return s[0];
}

// Sequential addressing over s, from `from` elements down to `to` (both powers of two).
static __device__ __forceinline__ void tree_sequential(float *s, unsigned from, unsigned to)
{
    unsigned tid = threadIdx.x;
    for (unsigned st = from / 2; st >= to; st >>= 1) {
        if (tid < st)
            s[tid] += s[tid + st];
        __syncthreads();
    }
}

static __device__ float reduce_sequential(const float *in, float *s, int n)
{
    load1(in, s, n);
    tree_sequential(s, BLOCK, 1);
    return s[0];
}

static __device__ float reduce_first_add(const float *in, float *s, int n)
{
    s[threadIdx.x] = load2(in, n);
    __syncthreads();
    tree_sequential(s, BLOCK, 1);
    return s[0];
}

static __device__ float reduce_unrolled_warp(const float *in, float *s, int n)
{
    unsigned tid = threadIdx.x;
    s[tid] = load2(in, n);
    __syncthreads();
    tree_sequential(s, BLOCK, 64);
    float v = 0.0f;
    if (tid < 32) {
        // the last 64 elements, one warp, no block barriers: each step reads, then writes
        // once every lane has read (__syncwarp; correct under independent thread scheduling,
        // where the old volatile-only version is not)
        v = s[tid];
#pragma unroll
        for (unsigned off = 32; off > 0; off >>= 1) {
            v += s[tid + off];
            __syncwarp();
            s[tid] = v;
            __syncwarp();
        }
    }
    return v;   // lane 0's is the block's sum
}

static __device__ float reduce_shuffle(const float *in, float *s, int n)
{
    unsigned tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    float v = load2(in, n);
#pragma unroll
    for (unsigned off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(FULL, v, off);
    if (lane == 0)
        s[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < BLOCK / 32 ? s[lane] : 0.0f;
#pragma unroll
        for (unsigned off = BLOCK / 64; off > 0; off >>= 1)
            v += __shfl_down_sync(FULL, v, off);
    }
    return v;   // thread 0's is the block's sum
}

// slots: a power of two, at most out's length
extern "C" __global__ void reduce(const float *in, float *out, int n, int kind, int slots)
{
    __shared__ float s[BLOCK];
    float r;
    switch (kind) {
    case 0: r = reduce_interleaved_divergent(in, s, n); break;
    case 1: r = reduce_interleaved_strided(in, s, n); break;
    case 2: r = reduce_sequential(in, s, n); break;
    case 3: r = reduce_first_add(in, s, n); break;
    case 4: r = reduce_unrolled_warp(in, s, n); break;
    default: r = reduce_shuffle(in, s, n); break;
    }
    if (threadIdx.x == 0)
        atomicAdd(&out[blockIdx.x & (slots - 1)], r);
}
