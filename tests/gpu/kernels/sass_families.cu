// sass_families.cu: kernels of the kinds students write, whose machine code differs from their
// PTX, for tests/gpu/sass_validate.sh (warplab's SASS-based counts against Nsight Compute's).
//
// gemm_tiled32: 32x32 tiles, the inner product unrolled: ptxas merges As[ty][k..k+3] into
//   LDS.128. gemm_regblock: 4 outputs a thread (register blocking), Bs read as float4.
// hist_global / hist_shared: a 256-bin histogram with global atomics, and privatised in shared
//   memory (ATOMS) then merged with one global atomic a bin per block.
// count_hot: every thread atomicAdds 1 to one counter and keeps the old value (warp-aggregated).
// sum_hot: every thread atomicAdds its float to one address, result unused (RED).
// reduce_shared: a tree reduction in shared memory; reduce_shfl: warp shuffles then one
//   atomicAdd a warp.
#define TS 32

extern "C" __global__ void gemm_tiled32(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float acc = 0;
    for (int t = 0; t < n / TS; t++) {
        As[ty][tx] = A[row * n + t * TS + tx];
        Bs[ty][tx] = B[(t * TS + ty) * n + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TS; k++)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * n + col] = acc;
}

// block (16,16): each thread computes a 1x4 strip of a 16x64 output tile.
extern "C" __global__ void gemm_regblock(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[16][16];
    __shared__ float4 Bs[16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * 16 + ty, col = blockIdx.x * 64 + tx * 4;
    float4 acc = make_float4(0, 0, 0, 0);
    for (int t = 0; t < n / 16; t++) {
        As[ty][tx] = A[row * n + t * 16 + tx];
        Bs[ty][tx] = *(const float4 *)&B[(t * 16 + ty) * n + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < 16; k++) {
            float a = As[ty][k];
            float4 b = Bs[k][tx];
            acc.x += a * b.x;
            acc.y += a * b.y;
            acc.z += a * b.z;
            acc.w += a * b.w;
        }
        __syncthreads();
    }
    *(float4 *)&C[row * n + col] = acc;
}

extern "C" __global__ void hist_global(const unsigned *in, unsigned *bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&bins[in[i] & 255], 1u);
}

extern "C" __global__ void hist_shared(const unsigned *in, unsigned *bins, int n)
{
    __shared__ unsigned local[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[in[i] & 255], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        if (local[b])
            atomicAdd(&bins[b], local[b]);
}

extern "C" __global__ void count_hot(unsigned *ctr, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = atomicAdd(ctr, 1u);
}

extern "C" __global__ void sum_hot(const float *x, float *sum, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(sum, x[i]);
}

extern "C" __global__ void reduce_shared(const float *x, float *out)
{
    __shared__ float s[256];
    int t = threadIdx.x;
    s[t] = x[blockIdx.x * 256 + t];
    __syncthreads();
    for (int k = 128; k > 0; k >>= 1) {
        if (t < k)
            s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

extern "C" __global__ void reduce_shfl(const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(out, v);
}
