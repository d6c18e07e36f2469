// barrier_divergence.cu: __syncthreads() reached by only some threads of the block.
// Threads 0-15 wait at the barrier; the others skip it and finish, so the barrier can
// never complete. The code after it reads what another thread wrote to shared memory,
// which is why the barrier was there. The emulator reports barrier divergence at the
// line of the barrier.

extern "C" __global__ void half_barrier(float *out)
{
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    s[t] = (float)t;
    if (t < 16) {
        __syncthreads(); // BARRIER-HERE
    }
    out[t] = s[(t + 1) % blockDim.x];
}
