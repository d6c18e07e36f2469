// recursion.cu: recursive device functions (tests/e2e/recursion.c): each activation has its
// own registers, parameters and local variables; lanes of one warp recurse to depths that
// depend on their data. __noinline__ and the sums that follow each call keep nvcc from
// turning the recursion into loops: the PTX has the calls.

// n! (mod 2^32) and the n-th Fibonacci number by the two-call definition.
__device__ __noinline__ unsigned fact(unsigned n)
{
  return n <= 1 ? 1u : n * fact(n - 1);
}

__device__ __noinline__ unsigned fib(unsigned n)
{
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

// out[2i] = fact(in[i] % 13), out[2i + 1] = fib(in[i] % 18)
extern "C" __global__ void fact_fib(const unsigned *in, unsigned *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned v = in[i];
  out[2 * i] = fact(v % 13);
  out[2 * i + 1] = fib(v % 18);
}

// A local array per activation whose address goes to the next one down, which changes its
// caller's array through it: the activations' arrays must be distinct.
__device__ __noinline__ unsigned walk(unsigned n, unsigned *parent)
{
  unsigned a[6];
  for (int k = 0; k < 6; k++)
    a[k] = n * 7 + k;
  if (parent)
    parent[n % 6] += 100 * n + 1;
  unsigned s = 0;
  if (n > 0)
    s = walk(n - 1, a);
  for (int k = 0; k < 6; k++)
    s = s * 3 + a[k];
  return s;
}

// out[i] = walk(in[i] % 11, nullptr)
extern "C" __global__ void local_frames(const unsigned *in, unsigned *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = walk(in[i] % 11, nullptr);
}

// Mutual recursion: ping(n) = n == 0 ? 1 : 2 * pong(n - 1) + n; pong(n) = n == 0 ? 3 :
// ping(n - 1) * 5 - n.
__device__ __noinline__ unsigned pong(unsigned n);
__device__ __noinline__ unsigned ping(unsigned n)
{
  return n == 0 ? 1u : 2u * pong(n - 1) + n;
}
__device__ __noinline__ unsigned pong(unsigned n)
{
  return n == 0 ? 3u : ping(n - 1) * 5u - n;
}

// out[i] = ping(in[i] % 25)
extern "C" __global__ void mutual(const unsigned *in, unsigned *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = ping(in[i] % 25);
}

// Recursion through a function pointer: the function calls whichever function it is given,
// itself or the other. tri(n, f) = n == 0 ? 0 : n + f(n - 1, f); sq(n, f) = n == 0 ? 1 : n * n
// + 2 * f(n - 1, f).
typedef unsigned (*rec_fn)(unsigned, const void *);
__device__ __noinline__ unsigned tri(unsigned n, const void *f)
{
  return n == 0 ? 0u : n + ((rec_fn)f)(n - 1, f);
}
__device__ __noinline__ unsigned sq(unsigned n, const void *f)
{
  return n == 0 ? 1u : n * n + 2u * ((rec_fn)f)(n - 1, f);
}

// out[i] = (in[i] & 1 ? sq : tri)(in[i] % 20, the same function)
extern "C" __global__ void pointer_recursion(const unsigned *in, unsigned *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  rec_fn f = (in[i] & 1) ? sq : tri;
  out[i] = f(in[i] % 20, (const void *)f);
}

// A walk whose branches and calls depend on the lane's data: lanes of a warp split at each
// level, some recursing twice, to depths up to 49.
__device__ __noinline__ unsigned tree(unsigned x, unsigned d)
{
  if (d == 0)
    return x & 0xff;
  unsigned s;
  if (x & 1) {
    s = tree(x * 3 + 1, d - 1) + 1;
    if (s & 2)
      s ^= tree(x >> 3, d > 3 ? 3 : d - 1);
  } else if (x & 2) {
    s = tree(x >> 1, d - 1) * 5;
  } else {
    s = x % 7 == 0 ? 11 : tree(x / 4 + d, d - 1) - 3;
  }
  return s;
}

// out[i] = tree(in[i], in[i] % 50)
extern "C" __global__ void tree_walk(const unsigned *in, unsigned *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tree(in[i], in[i] % 50);
}

// Recursion n deep (n from the input): with a 1 KiB stack it overflows for n large enough;
// a runaway when n never reaches the end (in[i] = 0 counts up from 1).
__device__ __noinline__ unsigned deep(unsigned n)
{
  if (n == 0)
    return 7;
  return deep(n - 1) * 3 + n; // DEEP-CALL
}

// out[i] = deep(in[i])
extern "C" __global__ void deep_recursion(const unsigned *in, unsigned *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = deep(in[i]);
}

// Recursion n deep whose activations keep five values live across the call: ptxas spills
// them, so its stack frame (32 bytes on sm_90 with nvcc 13) is bigger than the emulator's
// estimate for a function without local variables (16 bytes).
__device__ __noinline__ unsigned heavy(unsigned n, unsigned a, unsigned b)
{
  if (n == 0)
    return a ^ b;
  unsigned x = a * 3 + n, y = b * 5 + n, z = a ^ (b >> 3), w = a + b * 7, v = (a << 2) - b;
  unsigned r = heavy(n - 1, x + y, z - w + v); // HEAVY-CALL
  return r * x + (r ^ y) + z * r + (w >> (r & 7)) + v;
}

// out[i] = heavy(in[i], in[i] * 11 + 1, i)
extern "C" __global__ void heavy_recursion(const unsigned *in, unsigned *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = heavy(in[i], in[i] * 11 + 1, i);
}
