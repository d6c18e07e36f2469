// tex_lod.cu: tex2DLod and tex2DGrad (PTX tex.level and tex.grad) on textures of one mipmap
// level, for the emulator's tests (tests/e2e/texture.c) and the GPU proof
// (tests/gpu/prove.sh). warplab's texture objects are made over CUDA arrays, never mipmapped
// arrays: the GPU then samples level 0 whatever the level of detail asked for, so each
// kernel writes what texture.cu's tex2d_f4 writes with the same arguments.

// out[j * nx + i] = tex2DLod<float4>(t, x0 + i * dx, y0 + j * dy, lod)
extern "C" __global__ void tex2d_lod_f4(cudaTextureObject_t t, float4 *out, float x0, float dx, float y0,
                                        float dy, float lod)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  int nx = gridDim.x * blockDim.x;
  out[j * nx + i] = tex2DLod<float4>(t, x0 + i * dx, y0 + j * dy, lod + 0.5f * i);
}

// out[j * nx + i] = tex2DGrad<float4>(t, x0 + i * dx, y0 + j * dy, {g, 0}, {0, g}), a gradient
// that grows along the row
extern "C" __global__ void tex2d_grad_f4(cudaTextureObject_t t, float4 *out, float x0, float dx, float y0,
                                         float dy, float g)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  int nx = gridDim.x * blockDim.x;
  float gi = g * (float)(i + 1);
  out[j * nx + i] = tex2DGrad<float4>(t, x0 + i * dx, y0 + j * dy, make_float2(gi, 0.0f),
                                      make_float2(0.0f, gi));
}

// tex1DLod and tex3DLod: the level operand of the other geometries
extern "C" __global__ void tex1d_lod_f1(cudaTextureObject_t t, float *out, float x0, float dx, float lod)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = tex1DLod<float>(t, x0 + i * dx, lod * i);
}

extern "C" __global__ void tex3d_grad_f1(cudaTextureObject_t t, float *out, float x0, float dx, float z)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  int nx = gridDim.x * blockDim.x;
  out[j * nx + i] = tex3DGrad<float>(t, x0 + i * dx, x0 + j * dx, z, make_float4(2.0f * i, 0, 0, 0),
                                     make_float4(0, 3.0f * j, 0, 0));
}
