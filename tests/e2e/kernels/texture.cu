// texture.cu: texture and surface objects (tex, tld4, suld, sust), for the emulator's tests
// (tests/e2e/ptxops.c) and the GPU proof (tests/gpu/prove.sh), with
// --arg tex2d:WxH:TEXEL:INIT:OPTS and the like. Each thread samples at coordinates made
// from its index and a start and step given as scalars, so one kernel covers normalised and
// unnormalised coordinates, and every address mode, with exact binary fractions.

// out[j * nx + i] = tex2D<float4>(t, x0 + i * dx, y0 + j * dy) for an nx x ny grid of threads
extern "C" __global__ void tex2d_f4(cudaTextureObject_t t, float4 *out, float x0, float dx, float y0, float dy)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  int nx = gridDim.x * blockDim.x;
  out[j * nx + i] = tex2D<float4>(t, x0 + i * dx, y0 + j * dy);
}

// the same with element-type results: an integer texture read as integers
extern "C" __global__ void tex2d_u4(cudaTextureObject_t t, uint4 *out, float x0, float dx, float y0, float dy)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  int nx = gridDim.x * blockDim.x;
  out[j * nx + i] = tex2D<uint4>(t, x0 + i * dx, y0 + j * dy);
}

// one channel: out[k] = tex2D<float>(..)
extern "C" __global__ void tex2d_f1(cudaTextureObject_t t, float *out, float x0, float dx, float y0, float dy)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  int nx = gridDim.x * blockDim.x;
  out[j * nx + i] = tex2D<float>(t, x0 + i * dx, y0 + j * dy);
}

// tex1Dfetch over linear memory: integer indices from i0, out of range reads zero
extern "C" __global__ void fetch1d(cudaTextureObject_t t, float *out, int i0)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = tex1Dfetch<float>(t, i0 + i);
}

// tex1D with float coordinates
extern "C" __global__ void tex1d_f1(cudaTextureObject_t t, float *out, float x0, float dx)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = tex1D<float>(t, x0 + i * dx);
}

// tex2Dgather of component 1 (green)
extern "C" __global__ void gather_g(cudaTextureObject_t t, float4 *out, float x0, float dx, float y0, float dy)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  int nx = gridDim.x * blockDim.x;
  out[j * nx + i] = tex2Dgather<float4>(t, x0 + i * dx, y0 + j * dy, 1);
}

// tex3D and tex2DLayered
extern "C" __global__ void tex3d_f1(cudaTextureObject_t t, float *out, float x0, float dx, float z)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  int nx = gridDim.x * blockDim.x;
  out[j * nx + i] = tex3D<float>(t, x0 + i * dx, x0 + j * dx, z);
}

extern "C" __global__ void tex2dlayered_f1(cudaTextureObject_t t, float *out, float x0, float dx, int layer)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  int nx = gridDim.x * blockDim.x;
  out[j * nx + i] = tex2DLayered<float>(t, x0 + i * dx, x0 + j * dx, layer);
}

// surfaces: dst(x, y) = src(x, y) * 2 + (x, y); a w x h grid of threads
extern "C" __global__ void surf_scale(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int w, int h)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  float v = surf2Dread<float>(src, x * 4, y);
  surf2Dwrite(v * 2.0f + (float)(x + 100 * y), dst, x * 4, y);
}

// uchar4 surfaces, with a zero-mode read past the right edge
extern "C" __global__ void surf_u8x4(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int w, int h)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  uchar4 a = surf2Dread<uchar4>(src, x * 4, y);
  uchar4 b = surf2Dread<uchar4>(src, (x + 1) * 4, y, cudaBoundaryModeZero);
  surf2Dwrite(make_uchar4(a.x + b.x, a.y ^ b.y, a.z, (unsigned char)(x + y)), dst, x * 4, y);
}

// texCubemap at directions (x0 + i * dx, y0 + j * dx, z) for a grid of threads
extern "C" __global__ void texcube_f1(cudaTextureObject_t t, float *out, float x0, float dx, float y0, float z)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  int nx = gridDim.x * blockDim.x;
  out[j * nx + i] = texCubemap<float>(t, x0 + i * dx, y0 + j * dx, z);
}

// texCubemapLayered: the same directions in layer `layer`
extern "C" __global__ void texcubelayered_f1(cudaTextureObject_t t, float *out, float x0, float dx, float y0,
                                             float z, int layer)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  int nx = gridDim.x * blockDim.x;
  out[j * nx + i] = texCubemapLayered<float>(t, x0 + i * dx, y0 + j * dx, z, layer);
}

// cube map surfaces (faces are layers): dst(x, y, face) = src(x, y, face) + 1000 face; a block
// of w x w x 6 threads
extern "C" __global__ void surfcube_copy(cudaSurfaceObject_t src, cudaSurfaceObject_t dst)
{
  int x = threadIdx.x, y = threadIdx.y, face = threadIdx.z;
  float v;
  surfCubemapread(&v, src, x * 4, y, face);
  surfCubemapwrite(v + 1000.0f * face, dst, x * 4, y, face);
}
