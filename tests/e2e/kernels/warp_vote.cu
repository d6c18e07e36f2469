// warp_vote.cu: warp-wide votes and reductions (end-to-end suite). Launch with whole
// warps only (blockDim.x a multiple of 32): every call names the full mask.
//   warp_vote:  __ballot_sync, __any_sync, __all_sync, __activemask in a divergent
//               branch, __match_any_sync, __match_all_sync; VOTE_N words per thread
//   warp_redux: __reduce_add_sync / min / max / and / or / xor (sm_80 and later)

#define VOTE_N 8
#define FULL 0xffffffffu

extern "C" __global__ void warp_vote(const int *in, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31;
    int v = in[i];
    unsigned *o = out + (size_t)i * VOTE_N;

    o[0] = __ballot_sync(FULL, v > 0);
    o[1] = (unsigned)__any_sync(FULL, v > 1000000000);
    o[2] = (unsigned)__all_sync(FULL, v != 12345);
    unsigned am = 0;
    if (lane % 3 == 0)
        am = __activemask();
    o[3] = am;
    o[4] = __match_any_sync(FULL, v & 3);
    int pred = -1;
    o[5] = __match_all_sync(FULL, v & 0, &pred);
    o[6] = (unsigned)pred;
    o[7] = (unsigned)__popc(__ballot_sync(FULL, v & 1));
}

extern "C" __global__ void warp_redux(const unsigned *in, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = in[i];
    unsigned *o = out + (size_t)i * 6;
    o[0] = __reduce_add_sync(FULL, v);
    o[1] = __reduce_min_sync(FULL, v);
    o[2] = __reduce_max_sync(FULL, v);
    o[3] = __reduce_and_sync(FULL, v | 0x80000001u);
    o[4] = __reduce_or_sync(FULL, v & 0x0f0f0f0fu);
    o[5] = __reduce_xor_sync(FULL, v);
}
