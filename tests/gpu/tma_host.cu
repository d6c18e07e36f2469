// tma_host.cu: a TMA check outside warplab (tests/gpu/tma_launch.sh): tma.cu's tma_f32
// kernel launched through the runtime with maps made by cuTensorMapEncodeTiled, its outputs
// compared with the expected.
#include <cuda.h>
#include <cstdio>
#include <cstdint>
#include <vector>
extern "C" __global__ void tma_f32(const __grid_constant__ CUtensorMap in, const __grid_constant__ CUtensorMap out, uint32_t *tiles);
int main() {
  cuInit(0);
  const int W = 50, H = 37, P = 52;  // 208 bytes a row
  std::vector<float> h(P * H);
  for (int i = 0; i < P * H; i++) h[i] = (float)(i % 97) * 0.5f;
  float *din, *dout; uint32_t *dt;
  cudaMalloc(&din, h.size() * 4); cudaMalloc(&dout, h.size() * 4); cudaMalloc(&dt, 3072 * 4);
  cudaMemcpy(din, h.data(), h.size() * 4, cudaMemcpyHostToDevice);
  cudaMemset(dout, 0, h.size() * 4);
  alignas(64) CUtensorMap mi, mo;
  cuuint64_t dims[2] = {W, H}, strides[1] = {208};
  cuuint32_t box[2] = {32, 16}, es[2] = {1, 1};
  CUresult r1 = cuTensorMapEncodeTiled(&mi, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, din, dims, strides, box, es,
    CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  CUresult r2 = cuTensorMapEncodeTiled(&mo, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, dout, dims, strides, box, es,
    CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  tma_f32<<<dim3(2, 3), 128>>>(mi, mo, dt);
  cudaError_t e = cudaDeviceSynchronize();
  std::vector<float> o(h.size());
  cudaMemcpy(o.data(), dout, o.size() * 4, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) bad += o[y * P + x] != h[y * P + x] + 1.0f;
  printf("encode %d %d, kernel %s, wrong %d of %d\n", r1, r2, cudaGetErrorString(e), bad, W * H);
  return e != cudaSuccess || bad;
}
