// lanes.cu: one warp whose lane log tests/e2e/lanes.c checks against first principles: a
// strided global load, a shared store with a chosen word stride (bank conflicts), and a
// branch that splits the warp by lane.
extern "C" __global__ void lanes_demo(const float *in, float *out, int stride, int sstride)
{
    __shared__ float tile[32 * 33];
    int t = threadIdx.x;
    float v = in[t * stride];                        // LOAD
    tile[(t * sstride) % (32 * 33)] = v;             // SHARED
    __syncwarp();
    if (t % 4 == 0)                                  // BRANCH
        v = v * 2.0f;                                // EVERY4
    else
        v = v + tile[(t + 1) % 32];                  // OTHERS
    out[t] = v;                                      // STORE
}
