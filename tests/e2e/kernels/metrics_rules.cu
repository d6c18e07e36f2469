// metrics_rules.cu: kernels whose memory and branch counters follow from first principles
// (tests/e2e/metrics.c). Each touches memory in one pattern only, with full warps, so that
// every count is a small exact number: 32-byte sectors per global request, wavefronts per
// shared instruction over 32 banks of 4 bytes, divergent or uniform branches.
// The same patterns were measured with Nsight Compute on an H200 by
// tests/gpu/metrics_validate.sh (kernels in tests/gpu/kernels/metrics.cu).

// One load at stride `stride` floats and one store at stride 1, each on its own line (for
// the per-line table).
extern "C" __global__ void load_strided(const float *in, float *out, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i * stride]; // LOAD-STRIDED
    out[i] = v; // STORE-UNIT
}

// Misaligned by k floats.
extern "C" __global__ void load_offset(const float *in, float *out, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i + k];
}

// Every lane loads in[k].
extern "C" __global__ void load_broadcast(const float *in, float *out, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[k];
}

// 8-byte and 16-byte loads (ld.global.v2.f32, ld.global.v4.f32).
extern "C" __global__ void load_float2(const float2 *in, float2 *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}

extern "C" __global__ void load_float4(const float4 *in, float4 *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}

// One shared store and one shared load at stride `stride` words (block of at most 64).
extern "C" __global__ void smem_stride(float *out, int stride)
{
    __shared__ float s[64 * 33];
    int t = threadIdx.x;
    s[t * stride] = (float)t;
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = s[t * stride];
}

// A conflict-free store, then every lane reads word k.
extern "C" __global__ void smem_broadcast(float *out, int k)
{
    __shared__ float s[64];
    int t = threadIdx.x;
    s[t] = (float)t;
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = s[k];
}

// Odd lanes store: every warp splits at the branch.
extern "C" __global__ void branch_odd(const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x % 2)
        out[i] = in[i] * 3.0f;
}

// Odd warps store: each warp goes one way as a whole.
extern "C" __global__ void branch_warp(const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if ((threadIdx.x / 32) % 2)
        out[i] = in[i] * 3.0f;
}
