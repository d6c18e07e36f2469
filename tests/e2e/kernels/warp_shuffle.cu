// warp_shuffle.cu: every __shfl*_sync flavour, full width and sub-warp widths
// (end-to-end suite). Launch with whole warps only. SHFL_N results per thread.

#define SHFL_N 10
#define FULL 0xffffffffu

extern "C" __global__ void shuffles(const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31;
    int v = in[i];
    int *o = out + (size_t)i * SHFL_N;

    o[0] = __shfl_xor_sync(FULL, v, 1);
    o[1] = __shfl_xor_sync(FULL, v, 21);
    o[2] = __shfl_sync(FULL, v, (int)((lane * 7u) % 32u));
    o[3] = __shfl_up_sync(FULL, v, 3);
    o[4] = __shfl_down_sync(FULL, v, 4);
    o[5] = __shfl_sync(FULL, v, 2, 8);
    o[6] = __shfl_up_sync(FULL, v, 2, 8);
    o[7] = __shfl_down_sync(FULL, v, 5, 16);
    o[8] = __shfl_xor_sync(FULL, v, 3, 8);
    float fv = __shfl_sync(FULL, (float)v * 0.5f, 31 - (int)lane);
    double dv = __shfl_down_sync(FULL, (double)v * 0.25, 1);
    o[9] = (int)fv + (int)dv;
}
