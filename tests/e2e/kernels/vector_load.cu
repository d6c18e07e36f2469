// vector_load.cu: 128-bit and 64-bit vector loads and stores (ld.global.v4.f32,
// ld.global.v2.f32). The buffers are plain floats; the allocations are 16-byte aligned.

extern "C" __global__ void vec4_scale(const float4 *in, float4 *out, int n4, float s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 v = in[i];
        out[i] = make_float4(__fmul_rn(v.x, s), __fmul_rn(v.y, s), __fmul_rn(v.z, s),
                             __fmul_rn(v.w, s));
    }
}

extern "C" __global__ void vec2_swap(const float2 *in, float2 *out, int n2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n2) {
        float2 v = in[i];
        out[i] = make_float2(v.y, v.x);
    }
}
