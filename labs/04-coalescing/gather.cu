// gather.cu: lab 04, memory coalescing. Your whole submission is this file.
//
// A cloud of points (x, y, z) is stored in one of two layouts:
//   AOS, an array of structures: struct point3 p[np]. Point k's x is p[k].x, 12 bytes
//        after point k-1's.
//   SOA, a structure of arrays: three arrays xs[np], ys[np], zs[np]. The kernel is given
//        xs alone, so point k's x is xs[k], 4 bytes after point k-1's.
// The kernel gathers the x of every stride-th point, starting at point offset:
//
//   out[e] = x of point (e * stride + offset),   for 0 <= e < n
//
// `points` is the AOS array or the xs array, as `layout` says. Each thread copies `vec`
// neighbouring elements of out (vec is 1 except in the vector sweep and two of the tests):
// thread i's are e = i * vec to i * vec + vec - 1. warplab launches blocks of 256 threads,
// and cdiv(n, 256 * vec) blocks (handouts/04-coalescing.md).
//
// The layout is yours to choose: warplab reads LAYOUT below from the compiled file and
// passes it to the kernel as `layout`. Keep it at file scope, outside any namespace, and
// not static. The tests and the sweeps pass other strides, offsets and vector widths, and
// the other layout, so the kernel must be right for every value of its parameters: read
// `layout`, never LAYOUT, whose value in the kernel stays what this file says.

struct point3 {
    float x, y, z;
};

#define AOS 0
#define SOA 1

__constant__ int LAYOUT = AOS;

extern "C" __global__ void gather(const float *points, float *out, int n, int stride, int offset,
                                  int layout, int vec)
{
    // TODO 1: this thread's index i, from blockIdx, blockDim and threadIdx, and its first
    //         element i * vec. The grid is rounded up to whole blocks: elements e >= n are
    //         not there, and a thread must not touch them.

    // TODO 2: for each of the thread's elements e: k, the index of the point to read,
    //         e * stride + offset. Compute it in 64 bits (size_t): on the GPU's problem size
    //         at stride 32 it reaches 1.07 billion, half of what an int holds; a larger
    //         problem would overflow an int without a word.

    // TODO 3: out[e] = the x of point k, read the way `layout` says: in AOS through the
    //         struct (((const struct point3 *)points)[k].x), in SOA from the xs array.

    // TODO 4 (exercise 6, after the rest works): when the thread's vec elements are
    //         neighbours in memory too (SOA, stride 1, offset a multiple of vec, all of them
    //         below n), copy them with one vector load and store: *(const float4 *) for
    //         vec 4, *(const float2 *) for vec 2. The addresses are then multiples of 16 and
    //         8 bytes, as those loads need.
}
