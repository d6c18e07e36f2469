// cdp_launch.cu: a kernel launch from the device (CUDA dynamic parallelism), which nvcc
// compiles only with -rdc=true and whose PTX calls the device runtime's
// __cudaCDP2GetParameterBufferV2 and __cudaCDP2LaunchDeviceV2. The driver's JIT does not
// provide them ("Unresolved extern function"): the GPU backend links such a module with
// libcudadevrt.a (be_cuda.c). The emulator refuses it by name. out[i] = 3 * i + 1.
__global__ void cdp_child(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 3 * i + 1;
}

extern "C" __global__ void cdp_parent(int *out, int n)
{
    if (threadIdx.x == 0 && blockIdx.x == 0)
        cdp_child<<<(n + 63) / 64, 64>>>(out, n);
}
