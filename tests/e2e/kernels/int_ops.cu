// int_ops.cu: integer instruction families (end-to-end suite). Each thread writes
// INT_OPS_N results for its pair (a[i], b[i]); the host recomputes every one exactly.
// Divisors are forced odd (b | 1) so they are never zero; the host keeps a[i] away
// from INT_MIN so the signed division never overflows.

#define INT_OPS_N 24

extern "C" __global__ void int_ops(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = a[i], y = b[i];
    int sx = (int)x, sy = (int)y;
    unsigned long long wx = ((unsigned long long)x << 32) | y;
    unsigned long long wy = ((unsigned long long)y << 17) ^ x;
    unsigned *o = out + (size_t)i * INT_OPS_N;

    o[0] = __umulhi(x, y);                          // mul.hi.u32
    o[1] = (unsigned)__mulhi(sx, sy);               // mul.hi.s32
    o[2] = x * y;                                   // mul.lo
    o[3] = (unsigned)__popc(x);                     // popc
    o[4] = (unsigned)__clz(x >> (y & 31));          // clz, zero included
    o[5] = __brev(x);                               // brev
    o[6] = __byte_perm(x, y, y & 0x7777u);          // prmt
    o[7] = (x >> (y & 15)) & 0x7fu;                 // unsigned bit field
    o[8] = (unsigned)((sx << 5) >> 20);             // signed bit field
    o[9] = x / (y | 1u);                            // div.u32
    o[10] = x % (y | 1u);                           // rem.u32
    o[11] = (unsigned)(sx / (sy | 1));              // div.s32
    o[12] = (unsigned)(sx % (sy | 1));              // rem.s32
    o[13] = (unsigned)__ffs(sx);                    // ffs (brev + clz)
    o[14] = __funnelshift_l(x, y, y);               // shf.l.wrap
    o[15] = (unsigned)max(sx, sy) - (unsigned)min(sx, sy);
    o[16] = (unsigned)abs(sx);
    unsigned long long p = wx * wy;                 // mul.lo.u64
    o[17] = (unsigned)p;
    o[18] = (unsigned)(p >> 32);
    unsigned long long q = wx / (wy | 1ull);        // div.u64
    o[19] = (unsigned)q ^ (unsigned)(q >> 32);
    unsigned long long r = wx % (wy | 1ull);        // rem.u64
    o[20] = (unsigned)r ^ (unsigned)(r >> 32);
    o[21] = (unsigned)__popcll(wx) + ((unsigned)__clzll(wy) << 8);
    unsigned long long h = __umul64hi(wx, wy);      // mul.hi.u64
    o[22] = (unsigned)h ^ (unsigned)(h >> 32);
    long long sl = (long long)wx >> (y & 63);       // shr.s64
    o[23] = (unsigned)sl ^ (unsigned)((unsigned long long)sl >> 32);
}
