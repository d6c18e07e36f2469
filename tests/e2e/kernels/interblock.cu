// interblock.cu: blocks that wait for one another through global memory (issue 22). Block
// `waiter` (every block but `setter` when waiter < 0) spins until block `setter` sets *flag;
// then each block marks itself done in out[blockIdx.x]. Whether the spin ends on a GPU depends
// on which blocks it holds at once, never on the host that emulates it.
extern "C" __global__ void wait_for(volatile int *flag, int *out, int waiter, int setter)
{
  if (threadIdx.x != 0)
    return;
  if ((int)blockIdx.x == setter)
    *flag = 1;
  else if (waiter < 0 || (int)blockIdx.x == waiter)
    while (*flag == 0)   // SPIN
      ;
  out[blockIdx.x] = 1;
}
