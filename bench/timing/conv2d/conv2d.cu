// conv2d.cu: the families benchmark's 2-D convolution (issue 15): out = w * in over an
// ny x nx image of floats with a (2R+1) x (2R+1) filter w (a buffer, read by every thread
// alike), edges clamped (the nearest pixel of the image stands in for one outside it), one
// filter size per sweep point:
//
//   radius 1  3x3,  9 loads and FMAs a pixel
//   radius 2  5x5, 25
//   radius 3  7x7, 49
//
// Direct: every load from global memory (the neighbours' hit in L1). The radius is passed
// as a scalar and picks an unrolled instance of the loop. Block 32x8, a thread a pixel.

template <int R>
__device__ float conv(const float *in, const float *w, int nx, int ny, int x, int y)
{
    float acc = 0.0f;
#pragma unroll
    for (int dy = -R; dy <= R; dy++) {
        int yy = min(max(y + dy, 0), ny - 1);
#pragma unroll
        for (int dx = -R; dx <= R; dx++) {
            int xx = min(max(x + dx, 0), nx - 1);
            acc += w[(dy + R) * (2 * R + 1) + dx + R] * in[(long long)yy * nx + xx];
        }
    }
    return acc;
}

extern "C" __global__ void conv2d(const float *__restrict__ in, const float *__restrict__ w,
                                  float *__restrict__ out, int nx, int ny, int radius)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= nx || y >= ny)
        return;
    float v;
    if (radius == 1)
        v = conv<1>(in, w, nx, ny, x, y);
    else if (radius == 2)
        v = conv<2>(in, w, nx, ny, x, y);
    else
        v = conv<3>(in, w, nx, ny, x, y);
    out[(long long)y * nx + x] = v;
}
