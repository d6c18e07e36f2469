// smem_sizes.cu: the special registers that give a block's shared-memory sizes, for
// tests/gpu/prove.sh. A block with 400 bytes of its own __shared__ memory, launched with
// --smem 1000 of dynamic shared memory, writes out[0..3] = %dynamic_smem_size,
// %total_smem_size, %aggr_smem_size (sm_90: the total with the 1 KB the system holds; ptxas
// reads SR_SMEMSZ for it, and SR_SMEMSZ less a constant-bank word for the total),
// %reserved_smem_offset_cap. The H100 and the emulator: 1000, 1408 (1400 in the 128-byte
// units shared memory is allocated in), 2424, 1024.
extern "C" __global__ void smem_sizes(unsigned *out)
{
    __shared__ unsigned own[100];
    extern __shared__ unsigned dyn[];
    unsigned d, t, a, cap;
    asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(d));
    asm volatile("mov.u32 %0, %%total_smem_size;" : "=r"(t));
    asm volatile("mov.u32 %0, %%aggr_smem_size;" : "=r"(a));
    asm volatile("mov.u32 %0, %%reserved_smem_offset_cap;" : "=r"(cap));
    own[threadIdx.x % 100] = d;
    dyn[threadIdx.x % 250] = t;
    __syncthreads();
    if (threadIdx.x == 0) {
        out[0] = own[0];
        out[1] = dyn[0];
        out[2] = a;
        out[3] = cap;
    }
}
