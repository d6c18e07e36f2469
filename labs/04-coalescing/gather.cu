// gather.cu: lab 04, memory coalescing. Your whole submission is this file.
//
// A cloud of points (x, y, z) is stored in one of two layouts:
//   AOS, an array of structures: struct point3 p[np]. Point k's x is p[k].x, 12 bytes
//        after point k-1's.
//   SOA, a structure of arrays: three arrays xs[np], ys[np], zs[np]. The kernel is given
//        xs alone, so point k's x is xs[k], 4 bytes after point k-1's.
// The kernel gathers the x of every stride-th point, starting at point offset:
//
//   out[i] = x of point (i * stride + offset),   for 0 <= i < n
//
// `points` is the AOS array or the xs array, as `layout` says. warplab launches one thread
// per element of out, in blocks of 256 threads, and cdiv(n, 256) blocks
// (handouts/04-coalescing.md).
//
// The layout is yours to choose: warplab reads LAYOUT below from the compiled file and
// passes it to the kernel as `layout`. Keep it at file scope, outside any namespace, and
// not static. The tests and the sweeps pass other strides and offsets, and the other
// layout, so the kernel must be right for every value of its parameters: read `layout`,
// never LAYOUT, whose value in the kernel stays what this file says.

struct point3 {
    float x, y, z;
};

#define AOS 0
#define SOA 1

__constant__ int LAYOUT = AOS;

extern "C" __global__ void gather(const float *points, float *out, int n, int stride, int offset,
                                  int layout)
{
    // TODO 1: this thread's element i of out, from blockIdx, blockDim and threadIdx. The
    //         grid is rounded up to whole blocks: threads with i >= n must do nothing.

    // TODO 2: k, the index of the point to read: i * stride + offset. Compute it in 64 bits
    //         (size_t): on the GPU's problem size at stride 32 it reaches 1.07 billion, half
    //         of what an int holds; a larger problem would overflow an int without a word.

    // TODO 3: out[i] = the x of point k, read the way `layout` says: in AOS through the
    //         struct (((const struct point3 *)points)[k].x), in SOA from the xs array.
}
