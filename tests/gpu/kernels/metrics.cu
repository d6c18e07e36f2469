// metrics.cu: validation kernels for warplab's memory and branch counters (issue 3).
// tests/gpu/metrics_validate.sh runs each of them on the emulator (`warplab emu --json`)
// and under Nsight Compute on a real GPU, from the same PTX, and compares the counts.
//
// Every kernel is written so that ptxas keeps one SASS memory instruction for each PTX one:
// no loops that ptxas could unroll or merge (`#pragma unroll 1` where a loop is needed),
// indices computed from run-time parameters so that nothing folds, and launches sized so
// that every warp is full (no bounds checks, hence no warp whose lanes are all predicated
// off). Where SASS and PTX differ on purpose it is said next to the kernel; the script's
// case list says which metric each case is about. All buffers are the CLI's allocations,
// 256-byte aligned on both backends.

// ---- global loads and stores: sectors per request ------------------------------------

// One LDG at stride `stride` floats (1, 2, 4, 8, 32: 4, 8, 16, 32, 32 sectors per
// request), one STG at stride 1 (4 sectors per request).
extern "C" __global__ void copy_strided(const float *in, float *out, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i * stride];
}

// Misaligned by k floats: k = 1 gives 5 sectors per request, k = 8 gives 4 sectors
// spread over two 128-byte lines.
extern "C" __global__ void copy_offset(const float *in, float *out, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i + k];
}

// Every lane of the launch loads in[k]: 1 sector per request (4 bytes used of 32).
extern "C" __global__ void copy_broadcast(const float *in, float *out, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[k];
}

// A partial warp: out[i] = in[i] for i < n only. With n = 40 and a block of 128, warp 1
// has 8 active lanes (1 sector) and warps 2 and 3 none; PTX and SASS both branch past the
// body (`@P0 EXIT` in SASS), so warps 2 and 3 issue no memory instruction at all.
extern "C" __global__ void copy_tail(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

// A second load for the lanes i >= n only. The PTX branches around it; ptxas predicates it
// (@P0 LDG.E [R+0x4]) and keeps no branch, so with n = 72 and a block of 128 warps 0 and 1
// issue that LDG with every lane predicated off, which the PTX never executes. A probe of
// whether ncu counts instructions, requests and sectors of such warps: the first load is
// 4 requests of 4 sectors, the second 2 requests (warps 2 and 3: 4 + 5 sectors) if ncu
// leaves all-off warps out, 4 requests if it counts them. Measured on an H200: 6 requests,
// 25 sectors (all-off warps left out; smsp__inst_executed_op_global_ld_pred_off_all = 2).
extern "C" __global__ void copy_predicated(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    if (i >= n)
        v += in[i + 1];
    out[i] = v;
}

// 64-bit accesses (LDG.E.64 / STG.E.64): 8 sectors in one request per warp.
extern "C" __global__ void copy_float2(const float2 *in, float2 *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}

// 128-bit accesses (LDG.E.128 / STG.E.128): 16 sectors in one request per warp.
extern "C" __global__ void copy_float4(const float4 *in, float4 *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}

// ---- transposes through a 32x32 shared tile (block 32x32, one element a thread) -------
// The global side is coalesced in all three (row loads, row stores); only the shared side
// differs: the naive tile is read down a column (all 32 lanes on one bank: 32 wavefronts),
// the padded one (33 columns) and the XOR-swizzled one spread the column over 32 banks.

extern "C" __global__ void transpose_naive(const float *in, float *out, int width)
{
    __shared__ float tile[32][32];
    int tx = threadIdx.x, ty = threadIdx.y;
    int bx = blockIdx.x * 32, by = blockIdx.y * 32;
    tile[ty][tx] = in[(by + ty) * width + bx + tx];
    __syncthreads();
    out[(bx + ty) * width + by + tx] = tile[tx][ty];
}

extern "C" __global__ void transpose_padded(const float *in, float *out, int width)
{
    __shared__ float tile[32][33];
    int tx = threadIdx.x, ty = threadIdx.y;
    int bx = blockIdx.x * 32, by = blockIdx.y * 32;
    tile[ty][tx] = in[(by + ty) * width + bx + tx];
    __syncthreads();
    out[(bx + ty) * width + by + tx] = tile[tx][ty];
}

extern "C" __global__ void transpose_swizzle(const float *in, float *out, int width)
{
    __shared__ float tile[32][32];
    int tx = threadIdx.x, ty = threadIdx.y;
    int bx = blockIdx.x * 32, by = blockIdx.y * 32;
    tile[ty][tx ^ ty] = in[(by + ty) * width + bx + tx];
    __syncthreads();
    out[(bx + ty) * width + by + tx] = tile[tx][ty ^ tx];
}

// ---- shared memory: bank conflicts ----------------------------------------------------

// One STS and one LDS at stride `stride` words (block of at most 128 threads):
// 1, 2, 4, 8, 16, 32 give that many wavefronts per instruction, 33 gives 1.
extern "C" __global__ void smem_stride(float *out, int stride)
{
    __shared__ float s[128 * 33];
    int t = threadIdx.x;
    s[t * stride] = (float)t;
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = s[t * stride];
}

// Conflict-free store, then every lane reads word k: a broadcast, 1 wavefront.
extern "C" __global__ void smem_broadcast(float *out, int k)
{
    __shared__ float s[128];
    int t = threadIdx.x;
    s[t] = (float)t;
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = s[k];
}

// 8-byte shared accesses (STS.64 / LDS.64, block of at most 128 threads). Stride 1: each
// half-warp covers 128 bytes, 2 wavefronts (the ideal). Stride 2 (16 bytes apart): each
// half-warp spans 256 bytes, two words per bank, 4 wavefronts.
extern "C" __global__ void smem_double(double *out, int stride)
{
    __shared__ double d[128 * 2];
    int t = threadIdx.x;
    d[t * stride] = (double)t;
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = d[t * stride];
}

// 16-byte shared accesses (STS.128 / LDS.128): 4 wavefronts per warp, the ideal.
extern "C" __global__ void smem_float4(float4 *out)
{
    __shared__ float4 v[128];
    int t = threadIdx.x;
    v[t] = make_float4((float)t, 1.0f, 2.0f, 3.0f);
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = v[blockDim.x - 1 - t];
}

// ---- tree reductions (block of 256 threads, one partial sum per block) ----------------
// The loops run log2(blockDim) times with a barrier in each; `#pragma unroll 1` keeps one
// LDS/LDS/STS per iteration (blockDim is a run-time value, so ptxas could not unroll fully
// anyway, but it could unroll by a factor).
// SASS differs from PTX on purpose here: the PTX branches around the `if` body, ptxas
// predicates it (@!P1 LDS, @!P1 LDS, @!P1 STS), so a warp none of whose lanes takes the
// body still issues the three instructions with every lane predicated off. These cases
// show whether ncu counts such instructions, requests and wavefronts (the emulator, on
// PTX, does not execute them). Measured on an H200 (ncu 2025.3.1): it does not; they
// appear only under smsp__inst_executed_op_shared_{ld,st}_pred_off_all.

// Interleaved addressing, `tid % (2*s)`: divergent warps, conflict-free banks.
extern "C" __global__ void reduce_interleaved_div(const float *in, float *out)
{
    __shared__ float sdata[256];
    unsigned t = threadIdx.x;
    sdata[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
#pragma unroll 1
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        if (t % (2 * s) == 0)
            sdata[t] += sdata[t + s];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = sdata[0];
}

// Interleaved addressing with a strided index 2*s*tid: fewer divergent warps, bank
// conflicts that grow with s.
extern "C" __global__ void reduce_interleaved_bank(const float *in, float *out)
{
    __shared__ float sdata[256];
    unsigned t = threadIdx.x;
    sdata[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
#pragma unroll 1
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        unsigned index = 2 * s * t;
        if (index < blockDim.x)
            sdata[index] += sdata[index + s];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = sdata[0];
}

// Sequential addressing: conflict-free, whole warps drop out.
extern "C" __global__ void reduce_sequential(const float *in, float *out)
{
    __shared__ float sdata[256];
    unsigned t = threadIdx.x;
    sdata[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
#pragma unroll 1
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s)
            sdata[t] += sdata[t + s];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = sdata[0];
}

// ---- 2-D indexing: block shape against coalescing -------------------------------------
// c = a + b over a width x height matrix, row-major, launched with the grid that covers it
// exactly. A warp spans 32 / blockDim.x rows when blockDim.x < 32, one sector run per row.
extern "C" __global__ void matrix_add(const float *a, const float *b, float *c, int width)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int i = y * width + x;
    c[i] = a[i] + b[i];
}

// ---- branches ---------------------------------------------------------------------------
// The conditional bodies are long enough (a chain of dependent FMAs whose constants come
// from a parameter) that ptxas keeps a branch rather than predicating them.

__device__ __forceinline__ float chain(float x, float c)
{
#pragma unroll
    for (int k = 0; k < 24; k++)
        x = fmaf(x, c, (float)k);
    return x;
}

// Odd lanes take the body: every warp diverges.
extern "C" __global__ void branch_odd(const float *in, float *out, float c)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    if (threadIdx.x % 2)
        v = chain(v, c);
    out[i] = v;
}

// Odd warps take the body: no warp diverges.
extern "C" __global__ void branch_warp(const float *in, float *out, float c)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    if ((threadIdx.x / 32) % 2)
        v = chain(v, c);
    out[i] = v;
}

// A 32-way switch on the lane: every lane of a warp on its own path. NVVM lowers a dense
// switch to a jump table (brx.idx) or a compare chain; see the PTX.
extern "C" __global__ void branch_switch32(const float *in, float *out, float c)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    switch (threadIdx.x % 32) {
#define CASE(n) case n: v = fmaf(v, c, (float)(n * n + 1)) * (float)(n + 3); break;
    CASE(0) CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6) CASE(7)
    CASE(8) CASE(9) CASE(10) CASE(11) CASE(12) CASE(13) CASE(14) CASE(15)
    CASE(16) CASE(17) CASE(18) CASE(19) CASE(20) CASE(21) CASE(22) CASE(23)
    CASE(24) CASE(25) CASE(26) CASE(27) CASE(28) CASE(29) CASE(30) CASE(31)
#undef CASE
    }
    out[i] = v;
}

// ---- global atomics ---------------------------------------------------------------------

// Result used, every lane on one address: 1 sector per request. ptxas aggregates the warp
// itself (VOTEU.ANY, POPC, one ATOMG.E.ADD by the first active lane, SHFL of the result),
// so in SASS one lane issues the atomic where the PTX has 32; requests and sectors are the
// same (one request, one sector), thread-instruction counts are not.
extern "C" __global__ void atomic_one(int *ctr, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = atomicAdd(ctr, 1);
}

// Result used (ATOMG), lane i on ctr[i]: 4 sectors per request.
extern "C" __global__ void atomic_distinct(int *ctr, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = atomicAdd(&ctr[i], 1);
}

// Result unused, lane i on ctr[i * stride] (stride 0: one address). NVVM still writes
// `atom.global.add` (its result register unread); ptxas makes it a REDG, so ncu counts it
// under op_red and the PTX has no red at all: the emulator must see that the result is
// dead to count it as ncu does (on an H200 ncu reports these under op_red only).
extern "C" __global__ void red_strided(int *ctr, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&ctr[i * stride], 1);
}

// Atomics whose lanes share addresses in various ways, lane i on ctr[((i / div) % mod) * mul].
// Measured on an H200, for ATOMG and REDG alike, a request's sectors are not its distinct
// sectors: each sector counts as many times as the most lanes that hit one address in it
// (32 lanes on one address: 32 sectors; pairs: 4; 8 addresses x 4 lanes in one sector: 4).
// See also red_hot below.
// (1, 1, 1) one address; (2, big, 1) pairs of lanes on one address, 16 addresses in 2
// sectors; (1, 8, 1) 8 addresses in one sector, 4 lanes each; (1, big, 8) a sector each.
// red_index writes `red.global.add` in the PTX itself (REDG in SASS, op_red on both sides
// with no liveness question). atomic_index adds a lane-dependent value and uses the result,
// which ptxas cannot aggregate (one ATOMG with 32 lanes, as in the PTX).
extern "C" __global__ void red_index(int *ctr, int div, int mod, int mul)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int *p = ctr + ((i / div) % mod) * mul;
    asm volatile("red.global.add.u32 [%0], %1;" ::"l"(p), "r"(1) : "memory");
}

extern "C" __global__ void atomic_index(int *ctr, int *out, int div, int mod, int mul)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = atomicAdd(ctr + ((i / div) % mod) * mul, i);
}

// Uneven sharing: lanes 0 .. hot-1 of every warp on ctr[0], the other lanes on ctr[i].
// With hot = 4, warp 0 has 4 lanes on one address of sector 0 and single lanes on the rest
// of sectors 0-3; every other warp has the 4 lanes on sector 0 and single lanes on 4
// sectors of its own. Tells apart "sum over sectors of the most lanes on one address in
// that sector" (7 and 8 sectors a request) from "distinct sectors x the most lanes on one
// address" (16 and 20). Measured on an H200: 63 sectors for the 8 warps (7 + 7 x 8), the
// first rule.
extern "C" __global__ void red_hot(int *ctr, int hot)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int *p = ctr + ((int)(threadIdx.x % 32) < hot ? 0 : i);
    asm volatile("red.global.add.u32 [%0], %1;" ::"l"(p), "r"(1) : "memory");
}

extern "C" __global__ void atomic_hot(int *ctr, int *out, int hot)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = atomicAdd(ctr + ((int)(threadIdx.x % 32) < hot ? 0 : i), i);
}

// ---- local memory -------------------------------------------------------------------------
// A per-thread array indexed with a run-time value lives in local memory. The fill loop is
// kept rolled (`#pragma unroll 1`): one st.local / STL.32 per iteration, 64 in all, and
// one ld.local / LDL.32. Unrolled, NVVM writes st.local.v4 and ptxas turns the whole array
// into registers and selects (no STL/LDL left), which is why these counts are ptx-level:
// ptxas decides what really goes to local memory.
// Local memory is interleaved across the warp in 4-byte words: word w of lane l's frame
// sits at w * 128 + l * 4 within the warp's slice. The stores (one uniform word per
// iteration) are 4 sectors each; the load, each lane on its own word (i + k) & 63, touches
// 32 different 128-byte rows: 32 sectors per request on an H200.
extern "C" __global__ void local_array(const float *in, float *out, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a[64];
    float v = in[i];
#pragma unroll 1
    for (int j = 0; j < 64; j++) {
        a[j] = v;
        v = fmaf(v, v, 0.5f);
    }
    out[i] = a[(i + k) & 63];
}
