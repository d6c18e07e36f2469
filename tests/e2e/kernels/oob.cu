// oob.cu: the classic missing bounds check. c holds n floats; launched with more
// threads than n, the threads past the end write outside c. The emulator must stop
// at the store, name the thread, the line and the allocation.

extern "C" __global__ void oob_write(const float *a, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    c[i] = a[i % n] * 2.0f; // FAULT-HERE
}
