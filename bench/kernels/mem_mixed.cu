// mem_mixed.cu: emulator benchmarks that mix memory and arithmetic.
//   saxpy:  one load pair, one fma, one store per element, grid-stride loop
//   saxpy4: the same four elements a thread, as float4 (16-byte loads and stores: the shape
//           of hand-vectorised streaming code)
//   reduce: shared-memory tree reduction with __syncthreads (block size 256)
//   histo_global: a histogram of 256 bins counted with global atomics (an atomicAdd a
//           element, the lanes of a warp on random bins: some on one bin, most alone)
//   sum_global: every element added into one float with atomicAdd (the reduction a first
//           attempt writes: a whole warp on one address)

extern "C" __global__ void saxpy(int n, float alpha, const float *x, float *y)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        y[i] = fmaf(alpha, x[i], y[i]);
}

extern "C" __global__ void saxpy4(int n4, float alpha, const float4 *x, float4 *y)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) {
        float4 a = x[i], b = y[i];
        b.x = fmaf(alpha, a.x, b.x);
        b.y = fmaf(alpha, a.y, b.y);
        b.z = fmaf(alpha, a.z, b.z);
        b.w = fmaf(alpha, a.w, b.w);
        y[i] = b;
    }
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

extern "C" __global__ void histo_global(const unsigned *in, unsigned *bins, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&bins[in[i] & 255u], 1u);
}

extern "C" __global__ void sum_global(const float *in, float *sum, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(sum, in[i]);
}
