// elementwise.cu: one thread per element, with a bounds check (end-to-end suite).
//   add:   c[i] = a[i] + b[i]            (exact: one rounding, same on the host)
//   saxpy: y[i] = fmaf(alpha, x[i], y[i]) (fused on purpose, so the host can use fmaf)

extern "C" __global__ void add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

extern "C" __global__ void saxpy(int n, float alpha, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = fmaf(alpha, x[i], y[i]);
}
