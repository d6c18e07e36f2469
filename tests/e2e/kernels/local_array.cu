// local_array.cu: a per-thread array indexed with run-time values, which the compiler
// must place in local memory (the PTX declares a __local_depot).

extern "C" __global__ void local_mem(const int *idx, const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float arr[16];
    for (int k = 0; k < 16; k++)
        arr[k] = __fmul_rn(in[(i + k) % n], (float)k);
    int j = idx[i];
    out[i] = arr[j & 15] + arr[(j >> 4) & 15];
}
