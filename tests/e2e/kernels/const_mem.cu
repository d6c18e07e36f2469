// const_mem.cu: __constant__ memory with initialisers, read at fixed and at run-time
// indices. out[i] = poly(x[i]) + table[i % 8], Horner with explicit fmaf.

__constant__ float coeffs[5] = {1.0f, -2.0f, 0.5f, 0.25f, 3.0f};
__constant__ int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};

extern "C" __global__ void poly_const(const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = x[i];
    float p = coeffs[4];
    for (int k = 3; k >= 0; k--)
        p = fmaf(p, v, coeffs[k]);
    out[i] = p + (float)table[i % 8];
}
