// misaligned.cu: a float4 load from an address that is only 4-byte aligned
// (in + 1). Vector loads need their natural alignment (16 bytes here).

extern "C" __global__ void misaligned_load(const float *in, float *out)
{
    const float4 *p = reinterpret_cast<const float4 *>(in + 1 + 4 * threadIdx.x);
    float4 v = *p; // MISALIGNED-HERE
    out[threadIdx.x] = v.x + v.y + v.z + v.w;
}
