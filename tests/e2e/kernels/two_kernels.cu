// two_kernels.cu: one module, two kernels the emulator runs and one it refuses (end-to-end
// suite, per-kernel refusal). `counter` reads a performance-monitor counter (%pm0), which
// warplab does not model (it once read a mipmap level with tex.level, refused until warplab's
// one-level textures ran it); `shapes` calls virtual functions (a table of function
// addresses in a global initialiser, an indirect call), refused until warplab ran them.
// `scale` and `shapes` must run, and launching `counter` must name it, what it uses and its
// line (the marker comment).

extern "C" __global__ void scale(const int *in, int *out, int k, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * k + 1;
}

extern "C" __global__ void counter(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned c;
    asm volatile("mov.u32 %0, %%pm0;" : "=r"(c)); // PM-HERE
    if (i < n)
        out[i] = (int)c;
}

struct Shape {
    __device__ virtual int area(int s) const { return s * s; }
};
struct Tri : Shape {
    __device__ int area(int s) const override { return s * s / 2; }
};

extern "C" __global__ void shapes(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    Shape sq;
    Tri tr;
    const Shape *s = (i & 1) ? (const Shape *)&tr : &sq;
    if (i < n)
        out[i] = s->area(i);
}
