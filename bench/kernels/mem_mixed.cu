// mem_mixed.cu: emulator benchmarks that mix memory and arithmetic.
//   saxpy:  one load pair, one fma, one store per element, grid-stride loop
//   reduce: shared-memory tree reduction with __syncthreads (block size 256)

extern "C" __global__ void saxpy(int n, float alpha, const float *x, float *y)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        y[i] = fmaf(alpha, x[i], y[i]);
}

extern "C" __global__ void reduce(const float *in, float *partial, int n)
{
    __shared__ float s[256];
    unsigned tid = threadIdx.x;
    float v = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        v += in[i];
    s[tid] = v;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = s[0];
}
