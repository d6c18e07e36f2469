// alu_bits.cu: emulator benchmark, integer bit work and warp shuffles.
//   alu_hash:    a xorshift generator mixed by a multiply, its bits counted (popc) and its
//                leading zeros (clz): what hash tables, random streams and bitsets compute
//   alu_xorshfl: a butterfly sum over the warp (__shfl_xor_sync, five steps) in a loop: the
//                warp reduction of lab 07, each lane ending with the warp's total
//   alu_ballot:  warp votes (__ballot_sync, __any_sync) of a xorshift stream's bits in a
//                loop, the ballot counted: the divergence lab's way of asking the warp

extern "C" __global__ void alu_hash(unsigned *out, int iters)
{
    unsigned s = blockIdx.x * blockDim.x + threadIdx.x + 1, h = 0;
    for (int k = 0; k < iters; k++) {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        h += (s * 2654435761u) >> 7;
        h ^= __popc(s) + __clz(h | 1);
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = h;
}

extern "C" __global__ void alu_xorshfl(const float *in, float *out, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    for (int k = 0; k < iters; k++) {
        for (int lanes = 16; lanes >= 1; lanes /= 2)
            v += __shfl_xor_sync(0xffffffffu, v, lanes);
        v *= 0.03125f;
    }
    out[i] = v;
}

extern "C" __global__ void alu_ballot(unsigned *out, int iters)
{
    unsigned s = threadIdx.x * 2654435761u + 1, acc = 0;
    for (int k = 0; k < iters; k++) {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        unsigned b = __ballot_sync(0xffffffffu, s & 1);
        acc += __popc(b) + __any_sync(0xffffffffu, (s & 7) == 0);
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
