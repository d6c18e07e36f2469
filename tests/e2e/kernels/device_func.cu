// device_func.cu: a real call. The device function is __noinline__, so the PTX has a
// .func with two parameters and a return value, and the kernel reaches it through `call`.

extern "C" __device__ __noinline__ int mix(int a, int b)
{
    int r = a * 3 - b;
    if (r < 0)
        r = -r;
    return r ^ (a >> 2);
}

extern "C" __global__ void call_device(const int *a, const int *b, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = mix(a[i], b[i]) + mix(b[i], i);
}
