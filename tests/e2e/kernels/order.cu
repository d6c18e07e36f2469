// order.cu: kernels whose output does or does not depend on the order warps and blocks run
// (warplab emu --order SEED, --order-check N; tests/e2e/order.c).
//
// push and push_shared hand out output slots with atomicAdd: the set of values pushed is the
// same in every order, where each lands is not. last_writer has every block store its index
// to one word: the last block to run wins. histogram counts with integer atomicAdd, which
// commutes, and scale is plain element-wise work: both give the same values in every order.

// Every element of in divisible by 3, appended to out in the order threads get their slot.
extern "C" __global__ void push(const int *in, int *out, int *count, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] % 3 == 0) {
    int k = atomicAdd(count, 1);   // SLOT
    out[k] = in[i];
  }
}

// The same within one block: a shared counter, then the block's slots copied out in order.
extern "C" __global__ void push_shared(const int *in, int *out, int *count, int n)
{
  __shared__ int slots;
  __shared__ int buf[1024];
  if (threadIdx.x == 0)
    slots = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] % 3 == 0)
    buf[atomicAdd(&slots, 1)] = in[i];
  __syncthreads();
  if (threadIdx.x < slots)
    out[blockIdx.x * blockDim.x + threadIdx.x] = buf[threadIdx.x];
  if (threadIdx.x == 0)
    count[blockIdx.x] = slots;
}

// Thread 0 of every block writes its block's index to winner[0]: which one is left is a race
// between blocks.
extern "C" __global__ void last_writer(int *winner)
{
  if (threadIdx.x == 0)
    winner[0] = blockIdx.x;
}

// hist[v % 16] counts the elements v of in: integer adds commute.
extern "C" __global__ void histogram(const int *in, unsigned *hist, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&hist[in[i] & 15], 1u);
}

// out[i] = 2 * in[i] + 1.
extern "C" __global__ void scale(const int *in, int *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2 * in[i] + 1;
}
