// gather.cu: lab 04's reference solution (see labs/04-coalescing/gather.cu for the task and
// handouts/04-coalescing.md for the reasoning).
//
// The layout: SOA. A warp's 32 lanes read x of 32 neighbouring points. Stored as xs[], those
// are 32 consecutive floats, 128 bytes on a 128-byte boundary: 4 sectors of 32 bytes, every
// byte used. Stored as struct point3 {x, y, z}, the same 32 x's lie 12 bytes apart over
// 384 bytes: 12 sectors, of which only a third is x (the y's and z's come along unasked).
//
// The index: k = e * stride + offset in 64 bits. On the GPU's size (n = 33,554,176) the
// stride-32 point reads up to point 1.07 billion, half of an int's range: a larger problem
// would wrap an int around to a negative index.
//
// Vector width: a thread copies vec neighbouring elements. When they are neighbours in memory
// too (SOA, stride 1, an offset that keeps them on a vec * 4-byte boundary), one float2 or
// float4 load moves them all: a quarter of the load instructions and requests at vec 4, each
// request 16 sectors instead of 4, and still every byte used. Otherwise they are copied one
// by one. vec = 1 has a path of its own, the plain copy: the general loop takes almost three
// times its instructions, and a stride-1 kernel, short of loads in flight, pays for them
// (measured on an H200: labs/04-coalescing/measured/README.md). VEC is left at 1 here: the
// lab's memory targets are for 4-byte loads, and the vector sweep runs 2 and 4.

struct point3 {
    float x, y, z;
};

#define AOS 0
#define SOA 1

__constant__ int LAYOUT = SOA;

// x of point k in the given layout.
__device__ float x_of(const float *points, int layout, size_t k)
{
    return layout == AOS ? ((const struct point3 *)points)[k].x : points[k];
}

extern "C" __global__ void gather(const float *points, float *out, int n, int stride, int offset,
                                  int layout, int vec)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (vec == 1) {                                   // an element a thread
        if (i < (size_t)n)
            out[i] = x_of(points, layout, i * (size_t)stride + (size_t)offset);
        return;
    }
    size_t first = i * (size_t)vec;                   // vec elements a thread
    if (first >= (size_t)n)
        return;
    if (layout == SOA && stride == 1 && offset % vec == 0 && first + vec <= (size_t)n) {
        const float *from = points + offset + first;
        if (vec == 4) {
            *(float4 *)(out + first) = *(const float4 *)from;
            return;
        }
        if (vec == 2) {
            *(float2 *)(out + first) = *(const float2 *)from;
            return;
        }
    }
    for (int j = 0; j < vec && first + j < (size_t)n; j++)
        out[first + j] = x_of(points, layout, (first + j) * (size_t)stride + (size_t)offset);
}
