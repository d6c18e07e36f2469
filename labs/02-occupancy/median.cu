// median.cu: lab 02, occupancy. Your whole submission is this file.
//
// A median filter of width 9: out[i] is the median of x[i-4] ... x[i+4], the fifth
// smallest of those nine values, where an index below 0 reads x[0] and one past the end
// reads x[n-1]. It takes out isolated spikes from a signal and keeps its edges, which a
// moving average would smear.
//
// warplab launches blocks of BLOCK threads (your choice, below). Normally it starts one
// thread per element, cdiv(n, BLOCK) blocks; the lab's "waves" sweep starts fewer blocks
// than that, so each thread walks the array in grid strides: i, i + stride, i + 2 stride,
// ... where stride = gridDim.x * blockDim.x, the number of threads in the grid. The loop in
// the kernel below does that already.
//
// As handed out, the kernel is correct but slow: its window w[9] lives in local memory, not
// in registers, because median9_sort indexes it with values known only at run time. Read
// handouts/02-occupancy.md, then:
//
// TODO 1: write median9_registers: the same median, computed with indices into w that are
//         all compile-time constants (fixed compare-and-exchange steps, loops marked
//         #pragma unroll), so that w stays in registers; call it instead of median9_sort.
//         ptxas's "0 bytes stack frame" (warplab run 02 reports it) says you have.
// TODO 2: choose BLOCK. The lab grades the theoretical occupancy your choice allows.
//
// The lab also sets two launch choices of its own in its sweeps, WARPS (resident warps per
// SM, held down with unused shared memory) and GRID (the number of blocks): leave them to
// the lab, do not set them in this file.

__constant__ int BLOCK = 32;

// The median of w[0..8] by insertion sort: sorts w in place and returns its middle element.
// b runs down while earlier elements are larger than v, so how far it goes, and which w[b]
// is read and written, depends on the data.
static __device__ float median9_sort(float w[9])
{
    for (int a = 1; a < 9; a++) {
        float v = w[a];
        int b = a - 1;
        while (b >= 0 && w[b] > v) {
            w[b + 1] = w[b];
            b--;
        }
        w[b + 1] = v;
    }
    return w[4];
}

// TODO 1: static __device__ __forceinline__ float median9_registers(float w[9]) { ... }

extern "C" __global__ void median9(const float *__restrict__ x, float *__restrict__ out, int n)
{
    const int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        float w[9];
#pragma unroll
        for (int k = 0; k < 9; k++)
            w[k] = x[min(max(i + k - 4, 0), n - 1)];
        out[i] = median9_sort(w);            // TODO 1: median9_registers(w)
    }
}
