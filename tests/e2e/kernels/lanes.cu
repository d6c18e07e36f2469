// lanes.cu: one warp whose lane log tests/e2e/lanes.c checks against first principles: a
// strided global load, a shared store with a chosen word stride (bank conflicts), and a
// branch that splits the warp by lane.
extern "C" __global__ void lanes_demo(const float *in, float *out, int stride, int sstride)
{
    __shared__ float tile[32 * 33];
    int t = threadIdx.x;
    float v = in[t * stride];                        // LOAD
    tile[(t * sstride) % (32 * 33)] = v;             // SHARED
    __syncthreads();             // the word read below is another warp's in a block of 64
    if (t % 4 == 0)                                  // BRANCH
        v = v * 2.0f;                                // EVERY4
    else
        v = v + tile[((t + 1) % 32 * sstride) % (32 * 33)];  // OTHERS: thread (t + 1) % 32's
    out[t] = v;                                      // STORE
}
