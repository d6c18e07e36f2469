// two_kernels.cu: one module, one kernel the emulator runs and one it refuses (end-to-end
// suite, per-kernel refusal). `fetch` reads through a texture object, which warplab does not
// model; `scale` must still run, and launching `fetch` must name it, the texture fetch and
// the fetch's line (the marker comment on it).

extern "C" __global__ void scale(const int *in, int *out, int k, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * k + 1;
}

extern "C" __global__ void fetch(cudaTextureObject_t tex, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1Dfetch<int>(tex, i); // TEX-HERE
}
