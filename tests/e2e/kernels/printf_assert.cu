// printf_assert.cu: device printf and assert, which the emulator provides itself.
#include <cassert>
#include <cstdio>

extern "C" __global__ void hello(const int *a, float f)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x < 2)
        printf("block %d thread %d: a=%d f=%.3f %s %5.1e|%-4d|%x\n", blockIdx.x, threadIdx.x, a[t],
               f, "ok", 12345.678, t, 255 + t);
}

extern "C" __global__ void checked(const int *a)
{
    int t = threadIdx.x;
    assert(a[t] < 100); // ASSERT-HERE
}
