// scan.cu: the families benchmark's block scans (issue 15): out[i] is the inclusive prefix
// sum (mod 2^32) of in[] over i's segment of 1024 elements (one block a segment), one
// algorithm per sweep point:
//
//   kind 0  Hillis-Steele in shared memory: 1024 threads, 10 steps over two buffers, each
//           step every element adds the one 2^d before it (n log n adds)
//   kind 1  Blelloch, work-efficient: 512 threads, two elements each, an up-sweep and a
//           down-sweep over one buffer (2n adds; strided, so bank conflicts in the deep
//           levels); the exclusive result plus the element itself
//   kind 2  warp shuffles: 1024 threads, each warp scans its 32 with __shfl_up_sync, the
//           32 warp totals are scanned by warp 0 the same way, then added back
//
// Elements past n read as 0 and are not written.

#define SEG 1024

extern "C" __global__ void scan(const unsigned *in, unsigned *out, int n, int kind)
{
    __shared__ unsigned s[2 * SEG];
    long long base = (long long)blockIdx.x * SEG;
    unsigned t = threadIdx.x;
    if (kind == 0) {
        long long i = base + t;
        s[t] = i < n ? in[i] : 0u;
        __syncthreads();
        unsigned src = 0, dst = SEG;
        for (unsigned d = 1; d < SEG; d <<= 1) {
            unsigned v = s[src + t];
            if (t >= d)
                v += s[src + t - d];
            s[dst + t] = v;
            __syncthreads();
            src ^= SEG;
            dst ^= SEG;
        }
        if (i < n)
            out[i] = s[src + t];
        return;
    }
    if (kind == 1) {
        long long i0 = base + 2 * t, i1 = base + 2 * t + 1;
        unsigned a = i0 < n ? in[i0] : 0u, b = i1 < n ? in[i1] : 0u;
        s[2 * t] = a;
        s[2 * t + 1] = b;
        unsigned off = 1;
        for (unsigned d = SEG >> 1; d > 0; d >>= 1) {
            __syncthreads();
            if (t < d)
                s[off * (2 * t + 2) - 1] += s[off * (2 * t + 1) - 1];
            off <<= 1;
        }
        if (t == 0)
            s[SEG - 1] = 0;
        for (unsigned d = 1; d < SEG; d <<= 1) {
            off >>= 1;
            __syncthreads();
            if (t < d) {
                unsigned ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1;
                unsigned x = s[ai];
                s[ai] = s[bi];
                s[bi] += x;
            }
        }
        __syncthreads();
        if (i0 < n)
            out[i0] = s[2 * t] + a;
        if (i1 < n)
            out[i1] = s[2 * t + 1] + b;
        return;
    }
    long long i = base + t;
    unsigned lane = t & 31u, warp = t >> 5;
    unsigned v = i < n ? in[i] : 0u;
#pragma unroll
    for (unsigned d = 1; d < 32; d <<= 1) {
        unsigned u = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d)
            v += u;
    }
    if (lane == 31)
        s[warp] = v;
    __syncthreads();
    if (warp == 0) {
        unsigned w = s[lane];
#pragma unroll
        for (unsigned d = 1; d < 32; d <<= 1) {
            unsigned u = __shfl_up_sync(0xffffffffu, w, d);
            if (lane >= d)
                w += u;
        }
        s[32 + lane] = w;
    }
    __syncthreads();
    if (warp > 0)
        v += s[32 + warp - 1];
    if (i < n)
        out[i] = v;
}
