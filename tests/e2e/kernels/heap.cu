// heap.cu: in-kernel malloc/free and new/delete (the device heap), for the emulator's tests
// (tests/e2e/builtins.c) and the GPU proof (tests/gpu/prove.sh). What the kernels write
// depends on what malloc hands out (NULL or not, 16-byte aligned or not), never on the
// addresses themselves, so the GPU and the emulator write the same bytes.

// Each thread mallocs n ints, fills them, sums them back and frees them: out[i] is the sum,
// -1 when malloc returned NULL, -2 when the block was not 16-byte aligned.
extern "C" __global__ void heap_per_thread(int *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int *p = (int *)malloc(n * sizeof(int));
  if (!p) {
    out[i] = -1;
    return;
  }
  if ((unsigned long long)p % 16) {
    out[i] = -2;
    free(p);
    return;
  }
  for (int k = 0; k < n; k++)
    p[k] = i * k + 1;
  int s = 0;
  for (int k = 0; k < n; k++)
    s += p[k];
  free(p);
  out[i] = s;
}

// The same with new[] and delete[] (nvcc lowers them to malloc and free), twice over, so the
// second round reuses what the first freed.
extern "C" __global__ void heap_new_delete(int *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x, s = 0;
  for (int round = 0; round < 2; round++) {
    int *p = new int[n];
    if (!p) {
      out[i] = -1;
      return;
    }
    for (int k = 0; k < n; k++)
      p[k] = (i + round) ^ k;
    for (int k = 0; k < n; k++)
      s += p[k];
    delete[] p;
  }
  out[i] = s;
}

// The heap exhausted: thread 0 asks for `big` bytes (more than the 8 MiB default heap: NULL)
// and handles the NULL, then for `small` bytes (which fit). out[0] = 1 when the big request
// failed, out[1] = 1 when the small one succeeded, out[2] the first word written and read back
// through it.
extern "C" __global__ void heap_exhaust(int *out, unsigned long long big, unsigned long long small)
{
  if (threadIdx.x || blockIdx.x)
    return;
  char *p = (char *)malloc(big);
  out[0] = p == NULL;
  if (p)
    free(p);
  int *q = (int *)malloc(small);
  out[1] = q != NULL;
  if (q) {
    q[small / sizeof(int) - 1] = 1234;
    out[2] = q[small / sizeof(int) - 1];
    free(q);
  }
}

// A bug for the fault report: each thread writes one int past the end of its block
extern "C" __global__ void heap_overrun(int *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int *p = (int *)malloc(n * sizeof(int));
  if (!p)
    return;
  for (int k = 0; k <= n; k++)
    p[k] = k;  // OVERRUN-HERE
  out[i] = p[0];
  free(p);
}

// Another: a block freed twice
extern "C" __global__ void heap_double_free(int *out)
{
  int *p = (int *)malloc(64);
  if (!p)
    return;
  p[0] = 1;
  out[threadIdx.x] = p[0];
  free(p);
  free(p);  // DOUBLE-FREE-HERE
}
