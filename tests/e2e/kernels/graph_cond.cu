// graph_cond.cu: cudaGraphSetConditional, the device-runtime call that sets the value a CUDA
// graph's conditional node (if, while, switch) reads. Outside a graph it changes no memory;
// the emulator reports, for each handle, the value last set (blocks in index order) and how
// many calls set it.
#include <cuda_runtime.h>

// Thread 0 of every block sets `loop` to 10 * block + flags[block] (the last block's value
// is the one left); thread 5 of block 1 alone sets `done` to 7. out[block] = flags[block] + 1,
// so that the kernel's memory is seen to be the only memory it changes.
extern "C" __global__ void graph_cond(const int *flags, int *out,
                                      cudaGraphConditionalHandle loop,
                                      cudaGraphConditionalHandle done)
{
    if (threadIdx.x == 0) {
        cudaGraphSetConditional(loop, 10 * blockIdx.x + flags[blockIdx.x]); // SET-HERE
        out[blockIdx.x] = flags[blockIdx.x] + 1;
    }
    if (threadIdx.x == 5 && blockIdx.x == 1)
        cudaGraphSetConditional(done, 7);
}
