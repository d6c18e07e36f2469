// dyn_smem.cu: dynamic shared memory (extern __shared__, sized by the launch: --smem).
// Each block reverses its slice of `in` through shared memory. With fewer dynamic
// bytes than blockDim.x floats the store overruns the shared window.

extern "C" __global__ void reverse_block(const float *in, float *out)
{
    extern __shared__ float buf[];
    unsigned t = threadIdx.x;
    unsigned base = blockIdx.x * blockDim.x;
    buf[t] = in[base + t]; // SMEM-STORE
    __syncthreads();
    out[base + t] = buf[blockDim.x - 1 - t];
}
