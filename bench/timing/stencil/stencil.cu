// stencil.cu: the families benchmark's stencils (issue 15): 5-point stencils over n = nx*ny
// floats, one kind per sweep point.
//
//   kind 0  1-D, naive: out[i] = c0 in[i] + c1 (in[i-1] + in[i+1]) + c2 (in[i-2] + in[i+2]),
//           five global loads a point (neighbours hit in L1)
//   kind 1  1-D through shared memory: a block stages its 256 points and a halo of 2 each
//           side, then reads the five from shared memory
//   kind 2  2-D, naive: out = c0 in[y][x] + c1 (in[y][x-1] + in[y][x+1] + in[y-1][x] +
//           in[y+1][x]), five global loads
//   kind 3  2-D through a shared 32x8 tile with a halo of one
//
// A point closer to the edge than the stencil reaches copies its input. 1-D launches
// cdiv(n, 256) blocks of 256 (the grid's y is 1); 2-D blocks of 32x8 over the nx x ny grid:
// lab.json's launch picks with the choice D2 (0 or 1).

#define C0 0.5f
#define C1 0.25f
#define C2 (-0.125f)
#define BX 32
#define BY 8

extern "C" __global__ void stencil(const float *in, float *out, int nx, int ny, int kind)
{
    __shared__ float s[(BX + 2) * (BY + 2) + 4];
    if (kind < 2) {
        int n = nx * ny;
        int i = blockIdx.x * 256 + threadIdx.x;
        if (kind == 1) {
            int t = threadIdx.x;
            if (i < n)
                s[t + 2] = in[i];
            if (t < 2 && i >= 2)
                s[t] = in[i - 2];
            if (t >= 254 && i + 2 < n)
                s[t + 4] = in[i + 2];
            __syncthreads();
            if (i >= n)
                return;
            if (i < 2 || i >= n - 2) {
                out[i] = s[t + 2];
                return;
            }
            out[i] = C0 * s[t + 2] + C1 * (s[t + 1] + s[t + 3]) + C2 * (s[t] + s[t + 4]);
            return;
        }
        if (i >= n)
            return;
        if (i < 2 || i >= n - 2) {
            out[i] = in[i];
            return;
        }
        out[i] = C0 * in[i] + C1 * (in[i - 1] + in[i + 1]) + C2 * (in[i - 2] + in[i + 2]);
        return;
    }
    int x = blockIdx.x * BX + threadIdx.x;
    int y = blockIdx.y * BY + threadIdx.y;
    long long i = (long long)y * nx + x;
    bool inside = x < nx && y < ny;
    bool edge = x == 0 || y == 0 || x == nx - 1 || y == ny - 1;
    if (kind == 3) {
        const int W = BX + 2;
        int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
        if (inside) {
            s[ty * W + tx] = in[i];
            if (threadIdx.x == 0 && x > 0)
                s[ty * W] = in[i - 1];
            if (threadIdx.x == BX - 1 && x + 1 < nx)
                s[ty * W + tx + 1] = in[i + 1];
            if (threadIdx.y == 0 && y > 0)
                s[tx] = in[i - nx];
            if (threadIdx.y == BY - 1 && y + 1 < ny)
                s[(ty + 1) * W + tx] = in[i + nx];
        }
        __syncthreads();
        if (!inside)
            return;
        if (edge) {
            out[i] = s[ty * W + tx];
            return;
        }
        out[i] = C0 * s[ty * W + tx] + C1 * (s[ty * W + tx - 1] + s[ty * W + tx + 1] +
                                             s[(ty - 1) * W + tx] + s[(ty + 1) * W + tx]);
        return;
    }
    if (!inside)
        return;
    if (edge) {
        out[i] = in[i];
        return;
    }
    out[i] = C0 * in[i] + C1 * (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx]);
}
