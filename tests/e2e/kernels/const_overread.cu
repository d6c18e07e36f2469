// const_overread.cu: reads past the end of __constant__ arrays, as the CUDA samples' dct8x8
// (Q) and bilateralFilter (cGaussian) do. ptxas lays a module's __constant__ variables out in
// one bank (bank 3), in declaration order here (none is .visible: nvcc compiles without -rdc),
// each at its alignment: lo (3 shorts) at byte 0, mid (4 ints) at 8, hi (2 floats) at 24,
// the bank's data ends at byte 32. The GPU does not check a read against a variable's end:
// lo[3] reads the padding (bytes 6-7), lo[4] and on mid; mid[4] reads hi[0]'s bits; hi[2]
// onwards reads past the last variable, zero.
__constant__ short lo[3] = {0x1111, 0x2222, 0x3333};
__constant__ int mid[4] = {0x44444444, 0x55555555, 0x66666666, 0x77777777};
__constant__ float hi[2] = {1.5f, -2.25f};

// out[k] is the 32-bit word at byte 4k of the bank (k < 8), then words past its data, read
// through each array at run-time indices: threads 0-3 through lo, 4-11 through mid, 12 on
// through hi.
extern "C" __global__ void const_overread(int *out, int n)
{
    int i = threadIdx.x;
    if (i >= n)
        return;
    int v;
    if (i < 4)
        v = (unsigned short)lo[2 * i] | ((int)(unsigned short)lo[2 * i + 1] << 16); // LO-HERE
    else if (i < 12)
        v = mid[i - 4]; // MID-HERE
    else
        v = __float_as_int(hi[i - 12]); // HI-HERE
    out[i] = v;
}

// out[i] = mid[k + i]: k = 100 is inside the 64 KB bank (zero, past the last variable), k =
// 16384 is 65544 bytes into it, outside, and k = -10 starts 32 bytes before it: zeros outside
// the bank, on the H100 (no fault, nothing from memcheck) as on the emulator.
extern "C" __global__ void const_far(int *out, int k)
{
    out[threadIdx.x] = mid[k + (int)threadIdx.x]; // FAR-HERE
}
