// limits.cu: launches a GPU refuses and printf whose cost a format could make unbounded
// (tests/e2e/limits.c).
#include <cstdio>

// __launch_bounds__(32): ptxas writes .maxntid 32, 1, 1; a GPU refuses larger blocks.
extern "C" __global__ void __launch_bounds__(32) bounded(int *out) // BOUNDED-DECL
{
    out[threadIdx.x] = threadIdx.x; // BOUNDED-BODY
}

// printf returns the number of arguments; `*` takes the width and the precision from them.
extern "C" __global__ void counts(int *out)
{
    int n0 = printf("plain\n");
    int n1 = printf("[%*d|%-*d|%.*f]\n", 5, 42, 4, 7, 2, 3.14159);
    int n2 = printf("%s=%d\n", "x", 9);
    out[0] = n0;
    out[1] = n1;
    out[2] = n2;
}

// Widths and precisions that would print a gigabyte: each conversion is cut.
extern "C" __global__ void huge(int *out)
{
    out[0] = printf("<%999999999d>\n", 42);
    out[1] = printf("<%.999999999f>\n", 1.5);
    out[2] = printf("<%-999999999d|>\n", 42);
}

// Every thread prints n lines of 100 bytes (99 characters and a newline).
extern "C" __global__ void chatty(int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < n; k++)
        printf("%08d %08d %081d\n", t, k, 0);
}

// %globaltimer read by all lanes of one instruction: out[t] is what lane t saw.
extern "C" __global__ void timer(unsigned long long *out)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    out[threadIdx.x] = t;
}

// A loop that never ends, with a barrier in it.
extern "C" __global__ void spin_barrier(int *out, int n)
{
    int k = 0;
    while (n > 0) {
        __syncthreads();
        k++;
    }
    out[threadIdx.x] = k;
}

// Integer and float parameters, for the --arg type check.
extern "C" __global__ void scale(float *out, int n, float f)
{
    if ((int)threadIdx.x < n)
        out[threadIdx.x] = f;
}

// Many values live at once: ptxas gives it more than 64 registers a thread, so a block of
// 1024 threads does not fit a 64 K register file.
extern "C" __global__ void heavy(const float *in, float *out, int n)
{
    float acc[96];
#pragma unroll
    for (int k = 0; k < 96; k++)
        acc[k] = in[(threadIdx.x + k * 37) % n];
    for (int it = 0; it < n; it++) {
#pragma unroll
        for (int k = 0; k < 96; k++)
            acc[k] = acc[k] * acc[(k + 1) % 96] + 1.0f;
    }
    float s = 0;
#pragma unroll
    for (int k = 0; k < 96; k++)
        s += acc[k];
    out[threadIdx.x] = s;
}

// Dynamic shared memory, as much as the launch gives.
extern "C" __global__ void dynamic(float *out)
{
    extern __shared__ float buf[];
    buf[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}

// A 4 GiB local array: more than CUDA's 512 KiB a thread.
extern "C" __global__ void huge_local(int *out, int n)
{
    volatile char a[4294967296ull];
    a[n] = 1;
    out[0] = a[n + 1];
}

// `heavy`'s body under __launch_bounds__(256, 8): ptxas caps its registers so that 8 blocks of
// 256 threads fit an SM (65536 / 2048 = 32 a thread, spilling the rest), and blocks of 256 run.
extern "C" __global__ void __launch_bounds__(256, 8) capped(const float *in, float *out, int n)
{
    float acc[96];
#pragma unroll
    for (int k = 0; k < 96; k++)
        acc[k] = in[(threadIdx.x + k * 37) % n];
    for (int it = 0; it < n; it++) {
#pragma unroll
        for (int k = 0; k < 96; k++)
            acc[k] = acc[k] * acc[(k + 1) % 96] + 1.0f;
    }
    float s = 0;
#pragma unroll
    for (int k = 0; k < 96; k++)
        s += acc[k];
    out[threadIdx.x] = s;
}

// Thread block clusters fixed at compile time: 16 blocks (past the portable 8) and 2 x 2.
extern "C" __global__ void __cluster_dims__(16, 1, 1) wide_cluster(int *out) // WIDE-DECL
{
    out[blockIdx.x] = blockIdx.x;
}

extern "C" __global__ void __cluster_dims__(2, 2, 1) square_cluster(int *out)
{
    out[blockIdx.y * gridDim.x + blockIdx.x] = 1;
}
