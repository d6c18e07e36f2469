// no_bounds.cu: lab 04 without the bounds check: the threads of the last block past n read
// points beyond the array. The end-to-end suite expects a fault at the marked line.
struct point3 {
    float x, y, z;
};

__constant__ int LAYOUT = 1;

extern "C" __global__ void gather(const float *points, float *out, int n, int stride, int offset,
                                  int layout, int vec)
{
    size_t first = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * vec;
    for (int j = 0; j < vec; j++) {
        size_t k = (first + j) * stride + offset;
        out[first + j] = layout == 0 ? ((const struct point3 *)points)[k].x : points[k]; // NO-BOUNDS
    }
}
