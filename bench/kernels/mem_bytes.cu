// mem_bytes.cu: emulator benchmark, streaming bytes: an image's pixels.
//   rgba_grey: one uchar4 pixel in, its luminance out as one byte (grid-stride), with the
//              integer weights of ITU-R BT.601 scaled by 256

extern "C" __global__ void rgba_grey(const uchar4 *rgba, unsigned char *grey, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        const uchar4 p = rgba[i];
        grey[i] = (unsigned char)((77 * p.x + 150 * p.y + 29 * p.z) >> 8);
    }
}
