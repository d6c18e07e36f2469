// tma.cu: tensor copies (cp.async.bulk.tensor, the Tensor Memory Accelerator) through the
// cuda::ptx wrappers, for tests/e2e/async.c and tests/gpu/prove.sh. The tensor maps are kernel
// parameters (const __grid_constant__ CUtensorMap) that warplab emu makes from
// --arg tmap:DIMS:STRIDES:BOX:TYPEbuf:COUNT:INIT (cuTensorMapEncodeTiled on the GPU).
//
// Block (bx, by) loads the 32 x 16 box at element (32 bx, 16 by) of `in` into shared memory
// (elements outside the tensor read as zeros), copies the box as it landed to tiles[block],
// adds 1 to every element and stores the box to `out` with one tensor store (elements outside
// the tensor are not written): out = in + 1 wherever the tensor is, and tiles holds each box
// with zeros past the tensor's edges.
#include <cuda.h>
#include <cuda/barrier>
#include <cuda/ptx>
#include <stdint.h>
#pragma nv_diag_suppress static_var_with_dynamic_init
namespace ptx = cuda::ptx;
using barrier = cuda::barrier<cuda::thread_scope_block>;

// Each thread works on whole 32-bit words of the box (the race checker's granule, so that
// neighbouring 8- and 16-bit elements of two threads never share one): add1 adds 1 to each
// element of a word.
template <typename T, typename Add1>
__device__ void tile_roundtrip(const CUtensorMap *in, const CUtensorMap *out, uint32_t *tiles, Add1 add1)
{
  constexpr int BW = 32, BH = 16, WORDS = BW * BH * (int)sizeof(T) / 4;
  __shared__ alignas(128) T s[BH][BW];
  __shared__ barrier bar;
  uint32_t *sw = reinterpret_cast<uint32_t *>(&s[0][0]);
  const int i = threadIdx.x, blk = blockIdx.y * gridDim.x + blockIdx.x;
  if (i == 0) {
    init(&bar, blockDim.x);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  int32_t coords[2] = {(int32_t)blockIdx.x * BW, (int32_t)blockIdx.y * BH};
  barrier::arrival_token tok;
  if (i == 0) {
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, &s[0][0], in, coords,
                              cuda::device::barrier_native_handle(bar));
    tok = cuda::device::barrier_arrive_tx(bar, 1, sizeof s);
  } else {
    tok = bar.arrive();
  }
  bar.wait(std::move(tok));
  for (int k = i; k < WORDS; k += blockDim.x) {
    tiles[blk * WORDS + k] = sw[k];
    sw[k] = add1(sw[k]);
  }
  ptx::fence_proxy_async(ptx::space_shared);   // the stores, before the copy engine reads
  __syncthreads();
  if (i == 0) {
    ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, out, coords, &s[0][0]);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
  }
}

struct add1_f32 { __device__ uint32_t operator()(uint32_t w) const { return __float_as_uint(__uint_as_float(w) + 1.0f); } };
struct add1_u16x2 { __device__ uint32_t operator()(uint32_t w) const { return __vadd2(w, 0x00010001u); } };
struct add1_u8x4 { __device__ uint32_t operator()(uint32_t w) const { return __vadd4(w, 0x01010101u); } };

extern "C" __global__ void tma_f32(const __grid_constant__ CUtensorMap in,
                                   const __grid_constant__ CUtensorMap out, uint32_t *tiles)
{
  tile_roundtrip<float>(&in, &out, tiles, add1_f32());
}

// f16 tensors moved as their bits (the copy does not look at them): + 1 on each half's bits.
extern "C" __global__ void tma_f16(const __grid_constant__ CUtensorMap in,
                                   const __grid_constant__ CUtensorMap out, uint32_t *tiles)
{
  tile_roundtrip<uint16_t>(&in, &out, tiles, add1_u16x2());
}

extern "C" __global__ void tma_u8(const __grid_constant__ CUtensorMap in,
                                  const __grid_constant__ CUtensorMap out, uint32_t *tiles)
{
  tile_roundtrip<uint8_t>(&in, &out, tiles, add1_u8x4());
}

// The 3-D box of 8 x 4 x 2 f32 elements at (8 bx + x0, y0, z0): box[bx][k] = the element at
// the box's k-th position (innermost first), zero outside the tensor.
__device__ void box3d_at(const CUtensorMap *in, float *box, int x0, int y0, int z0)
{
  __shared__ alignas(128) float s[2][4][8];
  __shared__ barrier bar;
  if (threadIdx.x == 0) {
    init(&bar, blockDim.x);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  barrier::arrival_token tok;
  if (threadIdx.x == 0) {
    int32_t c[3] = {(int32_t)blockIdx.x * 8 + x0, y0, z0};
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, &s[0][0][0], in, c,
                              cuda::device::barrier_native_handle(bar));
    tok = cuda::device::barrier_arrive_tx(bar, 1, sizeof s);
  } else {
    tok = bar.arrive();
  }
  bar.wait(std::move(tok));
  box[blockIdx.x * 64 + threadIdx.x] = (&s[0][0][0])[threadIdx.x];
}

// The box at (8 bx - 4, -1, 1), reaching past the tensor on every side it can. (A box's
// innermost start must be a multiple of 16 bytes: at 8 bx - 3 the GPU stops with an illegal
// instruction, tests/gpu/results/tma_granule_h100.txt.)
extern "C" __global__ void tma_box3d(const __grid_constant__ CUtensorMap in, float *box)
{
  box3d_at(&in, box, -4, -1, 1);
}

// The box at coordinates given as arguments, to probe which corner of the tensor a box may
// reach past (tests/gpu/tma_granule.sh).
extern "C" __global__ void tma_box3d_at(const __grid_constant__ CUtensorMap in, float *box, int x0,
                                        int y0, int z0)
{
  box3d_at(&in, box, x0, y0, z0);
}
