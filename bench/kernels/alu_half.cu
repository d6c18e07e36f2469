// alu_half.cu: emulator benchmark, half precision: what a mixed-precision kernel computes.
//   alu_half2: __hfma2 and __hmul2 on pairs of halves (fma.rn.f16x2, mul.rn.f16x2), each
//              result's halves taken apart and summed in float (cvt.f32.f16)
#include <cuda_fp16.h>

extern "C" __global__ void alu_half2(float *out, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    __half2 a = __floats2half2_rn((float)i * 1e-3f, 0.5f), h = __floats2half2_rn(1.0f, 0.25f);
    const __half2 k = __floats2half2_rn(0.999f, 0.998f), b = __floats2half2_rn(0.01f, -0.02f);
    float acc = 0.0f;
    for (int j = 0; j < iters; j++) {
        h = __hfma2(a, h, b);
        a = __hmul2(a, k);
        acc += __low2float(h) + __high2float(h);
    }
    out[i] = acc;
}
