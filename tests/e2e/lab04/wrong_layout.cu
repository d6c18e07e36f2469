// wrong_layout.cu: lab 04 with the layout ignored: x of point k is read as points[k] in both
// layouts, which is right for SOA and wrong for AOS (where it is points[3 * k]). In bounds
// everywhere, so the run fails with the first wrong element of a test in the other layout.
__constant__ int LAYOUT = 1;

extern "C" __global__ void gather(const float *points, float *out, int n, int stride, int offset,
                                  int layout, int vec)
{
    size_t first = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * vec;
    for (int j = 0; j < vec && first + j < (size_t)n; j++)
        out[first + j] = points[(first + j) * stride + offset];
}
