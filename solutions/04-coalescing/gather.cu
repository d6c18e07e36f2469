// gather.cu: lab 04's reference solution (see labs/04-coalescing/gather.cu for the task and
// handouts/04-coalescing.md for the reasoning).
//
// The layout: SOA. A warp's 32 lanes read x of 32 neighbouring points. Stored as xs[], those
// are 32 consecutive floats, 128 bytes on a 128-byte boundary: 4 sectors of 32 bytes, every
// byte used. Stored as struct point3 {x, y, z}, the same 32 x's lie 12 bytes apart over
// 384 bytes: 12 sectors, of which only a third is x (the y's and z's come along unasked).
//
// The index: k = i * stride + offset in 64 bits. On the GPU's size (n = 33,554,176) the
// stride-32 point reads up to point 1.07 billion, half of an int's range: a larger problem
// would wrap an int around to a negative index.

struct point3 {
    float x, y, z;
};

#define AOS 0
#define SOA 1

__constant__ int LAYOUT = SOA;

extern "C" __global__ void gather(const float *points, float *out, int n, int stride, int offset,
                                  int layout)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    size_t k = (size_t)i * (size_t)stride + (size_t)offset;
    if (layout == AOS)
        out[i] = ((const struct point3 *)points)[k].x;
    else
        out[i] = points[k];
}
