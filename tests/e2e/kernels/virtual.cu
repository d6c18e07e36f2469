// virtual.cu: virtual functions and function pointers in device code, for tests/e2e/calls.c
// and tests/gpu/prove.sh. nvcc compiles a virtual call to a load of the object's virtual
// function table (a .global array initialised with function addresses) and a call through
// the loaded pointer with a .callprototype; a function pointer is a mov of the function's
// address. Lanes of one warp call different functions.

// Shapes built in the kernel, one class per lane by i % 3: out[i] = area(in[i]) + 100 * kind.
struct Shape {
  __device__ virtual float area(float x) const = 0;
  __device__ virtual int kind() const { return 0; }
};
struct Square : Shape {
  __device__ float area(float x) const override { return x * x; }
};
struct Scaled : Shape {
  float k;
  __device__ explicit Scaled(float k_) : k(k_) {}
  __device__ float area(float x) const override { return k * x; }
  __device__ int kind() const override { return 1; }
};
struct Shifted : Scaled {                     // a virtual call that makes a virtual call
  __device__ explicit Shifted(float k_) : Scaled(k_) {}
  __device__ float area(float x) const override { return Scaled::area(x) + (float)kind(); }
  __device__ int kind() const override { return 2; }
};

__device__ __noinline__ float describe(const Shape *s, float x) { return s->area(x) + 100.0f * (float)s->kind(); }

extern "C" __global__ void virtual_shapes(const float *in, float *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  Square sq;
  Scaled sc(3.0f);
  Shifted sh(0.5f);
  const Shape *s = i % 3 == 0 ? (const Shape *)&sq : i % 3 == 1 ? (const Shape *)&sc : (const Shape *)&sh;
  out[i] = describe(s, in[i]);
}

// Function pointers: a __device__ table of them, one passed to a device function, one chosen
// in the kernel. out[i] = ops[i % 4](in[i], i), then apply(pick, out[i], 3).
typedef int (*binop)(int, int);
__device__ int add_op(int a, int b) { return a + b; }
__device__ int sub_op(int a, int b) { return a - b; }
__device__ int mul_op(int a, int b) { return a * b; }
__device__ int xor_op(int a, int b) { return a ^ b; }
__device__ binop ops[4] = {add_op, sub_op, mul_op, xor_op};
__device__ __noinline__ int apply(binop f, int a, int b) { return f(a, b); }  // CALL-THROUGH

extern "C" __global__ void function_pointers(const int *in, int *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int v = apply(ops[i % 4], in[i], i);
  binop pick = (in[i] & 1) ? mul_op : add_op;
  out[i] = apply(pick, v, 3);
}

// A class with a virtual destructor (its deleting destructor calls free, which the emulator
// does not provide: the kernel runs as long as nothing calls it) and a __constant__ table of
// function pointers: out[i] = ctab[i % 2](in[i]) + (i & 2 ? 2 : 1), ctab = {-x, 2x}.
typedef float (*unop)(float);
__device__ float neg_op(float x) { return -x; }
__device__ float dbl_op(float x) { return 2.0f * x; }
__constant__ unop ctab[2] = {neg_op, dbl_op};
struct Base {
  __device__ virtual ~Base() {}
  __device__ virtual float bump() const { return 1.0f; }
};
struct Derived : Base {
  __device__ float bump() const override { return 2.0f; }
};

extern "C" __global__ void virtual_destructor_and_constant_table(const float *in, float *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  Base b;
  Derived d;
  const Base *p = (i & 2) ? (const Base *)&d : &b;
  out[i] = ctab[i & 1](in[i]) + p->bump();
}

// A call through a null function pointer (an entry of ops that was never set): the emulator
// stops it there, saying what the pointer was.
__device__ binop unset[2];
extern "C" __global__ void null_function_pointer(int *out)
{
  out[threadIdx.x] = apply(unset[threadIdx.x & 1], 1, 2);
}
