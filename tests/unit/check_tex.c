/* check_tex.c: texture sampling (sim_tex.c) against values computed by hand: address modes
 * (clamp, border, wrap, mirror, and wrap/mirror without normalised coordinates), point and
 * linear filtering with the 1.8 fixed-point weights (and an H100's bits at prove.sh's
 * inputs, normalised 8- and 16-bit integers included), 8/16-bit integers read as
 * normalised floats, halves, missing channels, integer coordinates on linear memory, tld4's
 * gather order, cube map faces, and the object table's checks; then txq, suq and the
 * surface out-of-range modes (.clamp, .zero, .trap) and a handle of the wrong kind on
 * hand-written PTX. Needs no nvcc. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ptx/ptx.h"
#include "sim/sim.h"
#include "sim/sim_int.h"
#include "suites.h"

static uint32_t fb(float f)
{
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

static float bf(uint32_t u)
{
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* A texture of w x h x d texels of nchan channels of kind/bits, packed. */
static struct sim_tex tex(uint8_t geom, uint8_t kind, uint8_t bits, uint8_t nchan, uint32_t w,
                          uint32_t h, uint32_t d)
{
  struct sim_tex t;
  memset(&t, 0, sizeof t);
  t.geom = geom;
  t.kind = kind;
  t.bits = bits;
  t.nchan = nchan;
  t.width = w;
  t.height = h;
  t.depth = d;
  t.pitch = (uint64_t)w * nchan * bits / 8;
  t.addr_mode[0] = t.addr_mode[1] = t.addr_mode[2] = SIM_TEX_CLAMP;
  return t;
}

/* channel 0 of a float fetch at x (and y) */
static float at(const struct sim_tex *t, const void *data, float x, float y)
{
  uint32_t c[4] = {fb(x), fb(y), 0, 0}, out[4];
  sim_tex_fetch(t, data, c, 0, out);
  return bf(out[0]);
}

/* the fraction rounded to the nearest 1/256: the 9-bit (1.8) weight */
START_TEST(test_weights) {
  ck_assert_float_eq(sim_tex_weight(0.3f), 77.0f / 256.0f);    /* 76.8 -> 77 */
  ck_assert_float_eq(sim_tex_weight(0.7f), 179.0f / 256.0f);   /* 179.2 -> 179 */
  ck_assert_float_eq(sim_tex_weight(0.999f), 1.0f);            /* 255.74 -> 256: 1.0 fits */
  ck_assert_float_eq(sim_tex_weight(0.001f), 0.0f);
  ck_assert_float_eq(sim_tex_weight(0.5f), 0.5f);
}
END_TEST

/* point sampling of {10, 20, 30, 40} under each address mode */
START_TEST(test_address_modes) {
  static const float v[4] = {10, 20, 30, 40};
  struct sim_tex t = tex(SIM_TEX_1D, SIM_TEX_FLOAT, 32, 1, 4, 1, 1);
  /* clamp, unnormalised: the edge texels */
  ck_assert_float_eq(at(&t, v, -3.0f, 0), 10.0f);
  ck_assert_float_eq(at(&t, v, 1.99f, 0), 20.0f);
  ck_assert_float_eq(at(&t, v, 5.5f, 0), 40.0f);
  /* wrap and mirror without normalised coordinates clamp, as the hardware does */
  t.addr_mode[0] = SIM_TEX_WRAP;
  ck_assert_float_eq(at(&t, v, 5.0f, 0), 40.0f);
  t.addr_mode[0] = SIM_TEX_MIRROR;
  ck_assert_float_eq(at(&t, v, -1.0f, 0), 10.0f);
  /* border: zero outside [0, 4) */
  t.addr_mode[0] = SIM_TEX_BORDER;
  ck_assert_float_eq(at(&t, v, -0.5f, 0), 0.0f);
  ck_assert_float_eq(at(&t, v, 4.0f, 0), 0.0f);
  ck_assert_float_eq(at(&t, v, 3.99f, 0), 40.0f);
  /* normalised: x * 4; wrap takes the index modulo 4 */
  t.norm_coords = 1;
  t.addr_mode[0] = SIM_TEX_WRAP;
  ck_assert_float_eq(at(&t, v, 1.125f, 0), 10.0f);   /* 4.5 -> 4 -> 0 */
  ck_assert_float_eq(at(&t, v, -0.125f, 0), 40.0f);  /* -0.5 -> -1 -> 3 */
  ck_assert_float_eq(at(&t, v, 0.5f, 0), 30.0f);     /* 2 */
  /* mirror: period 8, 4..7 reflected to 3..0 */
  t.addr_mode[0] = SIM_TEX_MIRROR;
  ck_assert_float_eq(at(&t, v, 1.125f, 0), 40.0f);   /* 4 -> 3 */
  ck_assert_float_eq(at(&t, v, 1.875f, 0), 10.0f);   /* 7 -> 0 */
  ck_assert_float_eq(at(&t, v, -0.125f, 0), 10.0f);  /* -1 -> 0 */
  ck_assert_float_eq(at(&t, v, -0.375f, 0), 20.0f);  /* -2 -> 6 -> 1 */
}
END_TEST

/* linear filtering: (1 - a) T[i] + a T[i+1] with a = frac(x - 0.5) in 1/256 steps */
START_TEST(test_linear) {
  static const float v1[2] = {0, 256};
  static const float v2[4] = {0, 256, 512, 768};
  struct sim_tex t = tex(SIM_TEX_1D, SIM_TEX_FLOAT, 32, 1, 2, 1, 1);
  t.linear = 1;
  /* x = 0.8: x - 0.5 = 0.3, a = 77/256: 77, not the exact 76.8 */
  ck_assert_float_eq(at(&t, v1, 0.8f, 0), 77.0f);
  ck_assert_float_eq(at(&t, v1, 1.0f, 0), 128.0f);
  /* at and before the first texel's centre: clamped, T[-1] = T[0] */
  ck_assert_float_eq(at(&t, v1, 0.5f, 0), 0.0f);
  ck_assert_float_eq(at(&t, v1, 0.25f, 0), 0.0f);
  ck_assert_float_eq(at(&t, v1, 1.75f, 0), 256.0f);
  /* border: the outside texel is zero: 0.75 T[1] + 0.25 T[2] at x = 1.75 */
  t.addr_mode[0] = SIM_TEX_BORDER;
  ck_assert_float_eq(at(&t, v1, 1.75f, 0), 192.0f);
  /* bilinear: a = 77/256 (x 0.8), b = 179/256 (y 1.2): 256 a + 512 b = 77 + 358 */
  struct sim_tex t2 = tex(SIM_TEX_2D, SIM_TEX_FLOAT, 32, 1, 2, 2, 1);
  t2.linear = 1;
  ck_assert_float_eq(at(&t2, v2, 0.8f, 1.2f), 435.0f);
  /* normalised: (0.4 * 2, 0.6 * 2) = (0.8, 1.2) */
  t2.norm_coords = 1;
  ck_assert_float_eq(at(&t2, v2, 0.4f, 0.6f), 435.0f);
}
END_TEST

/* Linear filtering as an H100 does it, at inputs of tests/gpu/prove.sh's texture cases (the
   textures of `--arg tex2d:8x4:...:rand:SEED`, the coordinates its kernels computed) with the
   values the H100 returned there (proof of issue 18): bilinear and trilinear weights split
   with rounding, not exact products; f32 sums rounded to nearest with ties away from zero;
   halves blended to a half; 8-bit unorm blended to a 16-bit unorm. */
static const uint32_t rand91[32] = {
    0x3f70aa0e, 0xbebd9560, 0x3f7338e8, 0xbe8c64ac, 0x3f127d78, 0x3e15f368,
    0x3e358710, 0x3ebcf694, 0xbf11f928, 0x3e8dfacc, 0x3f6325e8, 0xbf4c4426,
    0x3f647748, 0xbe032d40, 0xbf1ad544, 0xbea2259c, 0xbf161a12, 0x3f5aab54,
    0x3f4828d0, 0xbed61358, 0x3e1f86e8, 0x3e4cc790, 0x3d83b8a0, 0x3f643922,
    0x3e9e7e04, 0xbe48d788, 0xbf477c74, 0x3f32426a, 0xbe795990, 0x3f76c1bc,
    0xbf201a10, 0xbf67e07e,
};
static const uint16_t half93[128] = {
    0x3bb4, 0x343c, 0xb7fc, 0x2cb0, 0x3930, 0x3a0c, 0x3b48, 0xb4f0, 0xb250, 0xb90e,
    0xba30, 0x33d0, 0x2dc0, 0xbaa6, 0xbbb0, 0x3ae6, 0xa180, 0xb100, 0x3bb2, 0x3870,
    0x390a, 0xb5ac, 0xbb92, 0x3922, 0x3550, 0xb6dc, 0xbab4, 0x3728, 0x3870, 0xb65c,
    0xbab4, 0xb994, 0x36d0, 0xb93e, 0x3b72, 0x38d4, 0x2440, 0x3a12, 0xa5c0, 0x3b1c,
    0xac00, 0x3998, 0x3414, 0x341c, 0x3a0a, 0xb87e, 0x368c, 0x3832, 0x3330, 0x3ad0,
    0x3638, 0x3258, 0xbb80, 0xb528, 0xac20, 0x3758, 0xb9bc, 0x392e, 0x2c80, 0x3800,
    0xbaa6, 0x3220, 0xbb7e, 0xb718, 0x380e, 0xb478, 0xb598, 0x381c, 0xb328, 0xb624,
    0x38d4, 0xb83a, 0xba2e, 0x36e8, 0x2960, 0x2f50, 0x38b0, 0x2640, 0xba28, 0xb218,
    0xba66, 0x3404, 0x3368, 0x2df0, 0x31c8, 0x362c, 0x28c0, 0x38ea, 0xacf0, 0x3814,
    0x34f0, 0xb834, 0x30c8, 0xbbcc, 0x3b9a, 0x39c8, 0x394a, 0x2e00, 0xbb8e, 0xb5e8,
    0xb9aa, 0x3afc, 0x3250, 0xb068, 0x3b5e, 0xb1a0, 0x39c0, 0xb6c8, 0xbbfa, 0xad90,
    0xb740, 0x33b8, 0xb8d4, 0xb9e6, 0x38d2, 0x38a8, 0xaee0, 0xb830, 0x38fc, 0xb964,
    0xb340, 0xb6b0, 0xb4f4, 0x3418, 0x3be6, 0xbbcc, 0x3bea, 0xb434,
};
static const uint8_t u8_92[128] = {
    157, 236, 101, 167, 137, 64, 44, 118, 117, 150, 167, 17, 73, 249, 21, 122,
    159, 138, 46, 28, 6, 60, 119, 24, 184, 75, 21, 16, 53, 27, 36, 136,
    122, 45, 123, 165, 238, 83, 49, 4, 1, 119, 214, 242, 234, 22, 231, 121,
    32, 107, 139, 65, 74, 63, 237, 26, 93, 163, 149, 18, 229, 62, 105, 65,
    141, 115, 144, 249, 30, 0, 253, 103, 38, 51, 206, 6, 239, 195, 180, 144,
    21, 40, 99, 190, 79, 101, 230, 13, 246, 23, 137, 231, 239, 16, 184, 204,
    128, 253, 56, 114, 144, 17, 123, 189, 148, 100, 244, 19, 29, 26, 175, 229,
    180, 82, 170, 122, 34, 63, 18, 138, 163, 196, 181, 178, 51, 32, 147, 2,
};

/* channel ch of a float fetch at (x, y, z), as bits */
static uint32_t at_bits(const struct sim_tex *t, const void *data, uint32_t x, uint32_t y,
                        uint32_t z, int ch)
{
  uint32_t c[4] = {x, y, z, 0}, out[4];
  sim_tex_fetch(t, data, c, 0, out);
  return out[ch];
}

START_TEST(test_linear_h100) {
  float iota[64];
  for (int i = 0; i < 64; i++)
    iota[i] = (float)i;
  /* tex2d_linear_border, samples 38 and 39: weights 77 x 154 and 154 x 154 / 256 round to 46
     and 93 (exact products: 11858 and 23716 / 65536) */
  struct sim_tex t = tex(SIM_TEX_2D, SIM_TEX_FLOAT, 32, 1, 8, 4, 1);
  t.linear = 1;
  t.addr_mode[0] = t.addr_mode[1] = SIM_TEX_BORDER;
  ck_assert_uint_eq(at_bits(&t, iota, 0x3f4cccce, 0x3dccccc8, 0, 0), 0x3e380000);   /* 0.1796875 */
  ck_assert_uint_eq(at_bits(&t, iota, 0x3f8cccce, 0x3dccccc8, 0, 0), 0x3eba0000);   /* 0.36328125 */
  /* tex2d_linear_rand, samples 89 and 145: sums exactly between two floats go away from 0 */
  t.addr_mode[0] = t.addr_mode[1] = SIM_TEX_CLAMP;
  ck_assert_uint_eq(at_bits(&t, rand91, 0x40d00001, 0x3f4ccccc, 0, 0), 0xbd6d6c97);
  ck_assert_uint_eq(at_bits(&t, rand91, 0x40833334, 0x400ccccc, 0, 0), 0x3c5d2e87);
  /* tex2d_linear_f16, elements 24 and 44: a half, ties away from zero */
  struct sim_tex h = tex(SIM_TEX_2D, SIM_TEX_FLOAT, 16, 4, 8, 4, 1);
  h.linear = 1;
  ck_assert_uint_eq(at_bits(&h, half93, 0x3f4cccce, 0xbf19999a, 0, 0), 0x3f5e4000);   /* 0.868.. */
  ck_assert_uint_eq(at_bits(&h, half93, 0x40133334, 0xbf19999a, 0, 0), 0xbcebe000);
  /* tex2d_linear_u8norm (normalised, mirror), elements 0 and 317: n / 65535 */
  struct sim_tex u = tex(SIM_TEX_2D, SIM_TEX_UINT, 8, 4, 8, 4, 1);
  u.linear = u.read_norm = u.norm_coords = 1;
  u.addr_mode[0] = u.addr_mode[1] = SIM_TEX_MIRROR;
  ck_assert_uint_eq(at_bits(&u, u8_92, 0xbe99999a, 0xbe4ccccd, 0, 0), 0x3eb68eb7);
  ck_assert_uint_eq(at_bits(&u, u8_92, 0x40100000, 0x3f851eb8, 0, 1), 0x3e6aeceb);
  /* tex3d_linear (z = 1.3), samples 6, 16, 22, 51 and 52 (exact weights: 15.3125, 14.015625,
     16.515625, 23.6640625, 24.2109375); 16 needs the clamped x's weight of 0, 51 and 52 the
     y split rounding half down for the lower x texel */
  struct sim_tex v = tex(SIM_TEX_3D, SIM_TEX_FLOAT, 32, 1, 4, 4, 4);
  v.linear = 1;
  uint32_t z = fb(1.3f);
  ck_assert_float_eq(bf(at_bits(&v, iota, 0x40400000, 0xbe99999a, z, 0)), 15.31640625f);
  ck_assert_float_eq(bf(at_bits(&v, iota, 0xbe99999a, 0x3f4ccccd, z, 0)), 14.015625f);
  ck_assert_float_eq(bf(at_bits(&v, iota, 0x40400000, 0x3f4ccccd, z, 0)), 16.53515625f);
  ck_assert_float_eq(bf(at_bits(&v, iota, 0x3faccccd, 0x40400000, z, 0)), 23.6796875f);
  ck_assert_float_eq(bf(at_bits(&v, iota, 0x3ff33334, 0x40400000, z, 0)), 24.1953125f);
}
END_TEST

/* The four channels of a fetch of a 2 x 2 texture at unnormalised (0.5 + ax / 256,
   0.5 + ay / 256): the corner weights of fractions ax and ay over its four texels. */
static void at4(const struct sim_tex *t, const void *data, int ax, int ay, uint32_t out[4])
{
  uint32_t c[4] = {fb(0.5f + (float)ax / 256.0f), fb(0.5f + (float)ay / 256.0f), 0, 0};
  sim_tex_fetch(t, data, c, 0, out);
}

/* Normalised 16-bit and signed 8-bit texels under linear filtering: an H100's bits (the
   .gpu buffers of tests/gpu/prove.sh's tex2d_linear_u16norm, _i8norm and _i16norm) for
   samples of those cases, rebuilt on a 2 x 2 texture of the four texels each blends with the
   same fractions. Blending the normalised floats, as the emulator did before, gives other
   bits in every channel checked here but the first two of the u16 one and the missing ones. */
START_TEST(test_linear_norm_h100) {
  uint32_t o[4];
  /* i8norm elements 0 and 12 (weights 69 8 161 18, 45 32 103 76): codes widened by 258, the
     blend truncated to 1/8, rescaled by 32767 / 32766; exact 32767 / 127 gives channel 3 of 0
     and channels 1 and 3 of 12 one off */
  static const int8_t i8[16] = {-25, 118, 37, 49, -63, -94, -61, -61,
                                10, -68, 51, -61, -97, -115, -92, 77};
  struct sim_tex t = tex(SIM_TEX_2D, SIM_TEX_SINT, 8, 4, 2, 2, 1);
  t.linear = t.read_norm = 1;
  at4(&t, i8, 26, 179, o);
  ck_assert_uint_eq(o[0], 0xbd95012a);
  ck_assert_uint_eq(o[1], 0xbe314163);
  ck_assert_uint_eq(o[2], 0x3e87c110);
  ck_assert_uint_eq(o[3], 0xbe2e915d);      /* -5586 / 32767 (exact blend: -5585.47) */
  at4(&t, i8, 108, 179, o);
  ck_assert_uint_eq(o[0], 0xbe95552b);
  ck_assert_uint_eq(o[1], 0xbed3b1a7);      /* -13548 / 32767 (exact blend: -13547.43) */
  ck_assert_uint_eq(o[2], 0xbd7f41ff);
  ck_assert_uint_eq(o[3], 0xbbb40168);      /* -180 / 32767 (exact blend: -179.40) */
  /* u16norm element 10 (weights 128 128): n / 65535, halves up (40610.5 and 20336.5) */
  static const uint16_t u16[16] = {9727, 36665, 64616, 31272, 37339, 44151, 16605, 9401,
                                   9727, 36665, 64616, 31272, 37339, 44151, 16605, 9401};
  struct sim_tex u = tex(SIM_TEX_2D, SIM_TEX_UINT, 16, 4, 2, 2, 1);
  u.linear = u.read_norm = 1;
  at4(&u, u16, 128, 0, o);
  ck_assert_uint_eq(o[0], 0x3eb7dab8);
  ck_assert_uint_eq(o[1], 0x3f1dd89e);
  ck_assert_uint_eq(o[2], 0x3f1ea39f);      /* 40611 / 65535 */
  ck_assert_uint_eq(o[3], 0x3e9ee29f);      /* 20337 / 65535 */
  /* i16norm (two channels, border) elements 22 and 31: n / 32767, a half (5284.5) up; the
     missing channels read 0 */
  static const int16_t i16a[8] = {0, 0, 0, 0, 17139, 2074, -10830, 6705};
  static const int16_t i16b[8] = {0, 0, 0, 0, -21569, -17860, -31287, -29349};
  struct sim_tex s = tex(SIM_TEX_2D, SIM_TEX_SINT, 16, 2, 2, 2, 1);
  s.linear = s.read_norm = 1;
  at4(&s, i16a, 77, 154, o);
  ck_assert_uint_eq(o[0], 0x3e25294a);      /* 5285 / 32767 */
  ck_assert_uint_eq(o[1], 0x3d820104);
  ck_assert_uint_eq(o[2], 0);
  ck_assert_uint_eq(o[3], 0);
  at4(&s, i16b, 0, 154, o);
  ck_assert_uint_eq(o[0], 0xbecabd95);      /* -12975 / 32767 */
  ck_assert_uint_eq(o[1], 0xbea7e150);
}
END_TEST

/* read modes: 8/16-bit integers as normalised floats, or as integers */
START_TEST(test_read_modes) {
  static const uint8_t u8[4] = {0, 51, 255, 128};
  static const int8_t s8[4] = {-128, -127, 127, 0};
  static const uint16_t u16[2] = {65535, 0};
  struct sim_tex t = tex(SIM_TEX_1D, SIM_TEX_UINT, 8, 4, 1, 1, 1);
  uint32_t c[4] = {fb(0.5f), 0, 0, 0}, out[4];
  t.read_norm = 1;
  sim_tex_fetch(&t, u8, c, 0, out);
  ck_assert_float_eq(bf(out[0]), 0.0f);
  ck_assert_float_eq(bf(out[1]), 0.2f);                       /* 51 / 255 */
  ck_assert_float_eq(bf(out[2]), 1.0f);
  ck_assert_float_eq(bf(out[3]), 128.0f / 255.0f);
  t.read_norm = 0;                                           /* element type: the integers */
  sim_tex_fetch(&t, u8, c, 0, out);
  ck_assert_uint_eq(out[1], 51);
  ck_assert_uint_eq(out[2], 255);
  struct sim_tex s = tex(SIM_TEX_1D, SIM_TEX_SINT, 8, 4, 1, 1, 1);
  s.read_norm = 1;                                           /* [-1, 1]: -128 clamps to -1 */
  sim_tex_fetch(&s, s8, c, 0, out);
  ck_assert_float_eq(bf(out[0]), -1.0f);
  ck_assert_float_eq(bf(out[1]), -1.0f);
  ck_assert_float_eq(bf(out[2]), 1.0f);
  ck_assert_float_eq(bf(out[3]), 0.0f);
  s.read_norm = 0;
  sim_tex_fetch(&s, s8, c, 0, out);
  ck_assert_int_eq((int32_t)out[0], -128);                   /* sign-extended */
  struct sim_tex w = tex(SIM_TEX_1D, SIM_TEX_UINT, 16, 2, 1, 1, 1);
  w.read_norm = 1;
  sim_tex_fetch(&w, u16, c, 0, out);
  ck_assert_float_eq(bf(out[0]), 1.0f);
  ck_assert_float_eq(bf(out[1]), 0.0f);
  /* two channels: blue and alpha are 0 (an H100's tex2d_one_channel, tex2d_i16_norm) */
  ck_assert_float_eq(bf(out[2]), 0.0f);
  ck_assert_float_eq(bf(out[3]), 0.0f);
}
END_TEST

/* halves read as floats, and filtered */
START_TEST(test_half) {
  static const uint16_t h[2] = {0x3c00, 0xc000};   /* 1.0, -2.0 */
  struct sim_tex t = tex(SIM_TEX_1D, SIM_TEX_FLOAT, 16, 1, 2, 1, 1);
  ck_assert_float_eq(at(&t, h, 0.5f, 0), 1.0f);
  ck_assert_float_eq(at(&t, h, 1.5f, 0), -2.0f);
  t.linear = 1;
  ck_assert_float_eq(at(&t, h, 1.0f, 0), -0.5f);
}
END_TEST

/* integer coordinates (tex1Dfetch) on linear memory: one texel, zero out of range */
START_TEST(test_int_coords) {
  static const float v[3] = {5, 6, 7};
  struct sim_tex t = tex(SIM_TEX_1D, SIM_TEX_FLOAT, 32, 1, 3, 1, 1);
  uint32_t out[4];
  t.res = SIM_TEX_RES_LINEAR;
  uint32_t c[4] = {2, 0, 0, 0};
  sim_tex_fetch(&t, v, c, 1, out);
  ck_assert_float_eq(bf(out[0]), 7.0f);
  c[0] = 3;
  sim_tex_fetch(&t, v, c, 1, out);
  ck_assert_float_eq(bf(out[0]), 0.0f);
  c[0] = (uint32_t)-1;
  sim_tex_fetch(&t, v, c, 1, out);
  ck_assert_float_eq(bf(out[0]), 0.0f);
  t.res = SIM_TEX_RES_ARRAY;                 /* an array clamps */
  sim_tex_fetch(&t, v, c, 1, out);
  ck_assert_float_eq(bf(out[0]), 5.0f);
}
END_TEST

/* tld4: the four texels of a bilinear footprint, lower left first, counter-clockwise */
START_TEST(test_gather) {
  static const float v[8] = {1, 10, 2, 20, 3, 30, 4, 40};   /* 2x2, two channels */
  struct sim_tex t = tex(SIM_TEX_2D, SIM_TEX_FLOAT, 32, 2, 2, 2, 1);
  uint32_t c[4] = {fb(1.0f), fb(1.0f), 0, 0}, out[4];
  sim_tex_gather(&t, v, c, 0, out);
  ck_assert_float_eq(bf(out[0]), 3.0f);      /* (0, 1) */
  ck_assert_float_eq(bf(out[1]), 4.0f);      /* (1, 1) */
  ck_assert_float_eq(bf(out[2]), 2.0f);      /* (1, 0) */
  ck_assert_float_eq(bf(out[3]), 1.0f);      /* (0, 0) */
  sim_tex_gather(&t, v, c, 1, out);
  ck_assert_float_eq(bf(out[0]), 30.0f);
}
END_TEST

/* cube maps: the major axis picks the face */
START_TEST(test_cube) {
  float v[6 * 4];
  for (int i = 0; i < 24; i++)
    v[i] = (float)i;
  struct sim_tex t = tex(SIM_TEX_CUBE, SIM_TEX_FLOAT, 32, 1, 2, 2, 6);
  uint32_t out[4];
  /* +x: face 0, s = (-z/|x| + 1) / 2, t = (-y/|x| + 1) / 2: (0.75, 0.25) -> texel (1, 0) */
  uint32_t c[4] = {fb(2.0f), fb(1.0f), fb(-1.0f), 0};
  sim_tex_fetch(&t, v, c, 0, out);
  ck_assert_float_eq(bf(out[0]), 1.0f);
  /* -z: face 5, s = (-x/|z| + 1) / 2 = 0.25, t = 0.75: texel (0, 1) of face 5 */
  uint32_t c2[4] = {fb(0.5f), fb(-0.5f), fb(-1.0f), 0};
  sim_tex_fetch(&t, v, c2, 0, out);
  ck_assert_float_eq(bf(out[0]), 5 * 4 + 2.0f);
  /* +y: face 2, s = x, t = z: (0.25, 0.75) -> texel (0, 1) */
  uint32_t c3[4] = {fb(-0.5f), fb(1.0f), fb(0.5f), 0};
  sim_tex_fetch(&t, v, c3, 0, out);
  ck_assert_float_eq(bf(out[0]), 2 * 4 + 2.0f);
}
END_TEST

/* the table: handles from 1, and the checks cuTexObjectCreate makes */
START_TEST(test_table) {
  struct sim_device *d = sim_device_new();
  char err[256];
  uint64_t h1 = 0, h2 = 0, h3 = 0;
  struct sim_tex t = tex(SIM_TEX_2D, SIM_TEX_UINT, 8, 4, 4, 4, 1);
  ck_assert_int_eq(sim_tex_create(d, &t, &h1, err, sizeof err), 0);
  t.linear = 1;                             /* integers read as integers cannot be filtered */
  ck_assert_int_eq(sim_tex_create(d, &t, &h2, err, sizeof err), -1);
  ck_assert_msg(strstr(err, "linear filtering"), "%s", err);
  t.read_norm = 1;
  ck_assert_int_eq(sim_tex_create(d, &t, &h2, err, sizeof err), 0);
  t.nchan = 3;
  ck_assert_int_eq(sim_tex_create(d, &t, &h3, err, sizeof err), -1);
  ck_assert_uint_eq(h1, 1);
  ck_assert_uint_eq(h2, 2);
  ck_assert_ptr_null(sim_tex_get(d, 0));
  ck_assert_ptr_null(sim_tex_get(d, 3));
  ck_assert_uint_eq(sim_tex_get(d, 2)->read_norm, 1);
  ck_assert_uint_eq(sim_tex_span(sim_tex_get(d, 1)), 64);
  sim_device_free(d);
}
END_TEST


/* ---- the instructions, on hand-written PTX ---- */

/* k(tex, surf, out): out[0..3] = txq.width, txq.height, txq.normalized_coords, suq.width;
   out[4] = suld.b.1d.b32.clamp at byte -8, out[5] at byte 400 (clamped to the last texel),
   out[6] = .zero past the end; sust.b.1d.b32.zero past the end is dropped; then a sust.trap
   at byte 4 * thread */
static const char *k_tex =
  ".version 9.0\n.target sm_90\n.address_size 64\n"
  ".visible .entry k(.param .u64 t, .param .u64 s, .param .u64 o)\n{\n"
  ".reg .b32 %r<12>;\n.reg .b64 %rd<6>;\n"
  "ld.param.u64 %rd1, [t];\nld.param.u64 %rd2, [s];\nld.param.u64 %rd3, [o];\n"
  "cvta.to.global.u64 %rd3, %rd3;\n"
  "txq.width.b32 %r1, [%rd1];\ntxq.height.b32 %r2, [%rd1];\n"
  "txq.normalized_coords.b32 %r3, [%rd1];\nsuq.width.b32 %r4, [%rd2];\n"
  "mov.u32 %r9, -8;\nsuld.b.1d.b32.clamp {%r5}, [%rd2, {%r9}];\n"
  "mov.u32 %r9, 400;\nsuld.b.1d.b32.clamp {%r6}, [%rd2, {%r9}];\n"
  "suld.b.1d.b32.zero {%r7}, [%rd2, {%r9}];\n"
  "mov.u32 %r10, 99;\nsust.b.1d.b32.zero [%rd2, {%r9}], {%r10};\n"
  "st.global.v4.u32 [%rd3], {%r1, %r2, %r3, %r4};\n"
  "st.global.v4.u32 [%rd3+16], {%r5, %r6, %r7, %r7};\n"
  "mov.u32 %r11, %tid.x;\nshl.b32 %r11, %r11, 2;\n"
  "sust.b.1d.b32.trap [%rd2, {%r11}], {%r11};\n"
  "ret;\n}\n";

static void run_k(struct sim_device *d, const struct ptx_module *m, uint64_t p[3], uint32_t threads,
                  struct sim_result *r)
{
  char err[256];
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {threads, 1, 1}};
  memset(r, 0, sizeof *r);
  ck_assert_int_eq(sim_run(d, m, "k", p, sizeof(uint64_t) * 3, &c, r, err, sizeof err), SIM_OK);
}

START_TEST(test_queries_and_surface_modes) {
  struct ptx_module m;
  struct ptx_error e;
  ck_assert_msg(ptx_parse(k_tex, strlen(k_tex), &m, &e) == PTX_OK, "%s", e.msg);
  ck_assert_ptr_null(m.funcs[0].refused);
  struct sim_device *d = sim_device_new();
  char err[256];
  uint64_t tbuf, sbuf, obuf, p[3];
  uint32_t sv[5] = {10, 11, 12, 13, 14}, o[8];
  ck_assert_int_eq(sim_malloc(d, 64, "tex", &tbuf), SIM_OK);
  ck_assert_int_eq(sim_malloc(d, sizeof sv, "surf", &sbuf), SIM_OK);
  ck_assert_int_eq(sim_malloc(d, sizeof o, "out", &obuf), SIM_OK);
  ck_assert_int_eq(sim_write(d, sbuf, sv, sizeof sv), SIM_OK);
  struct sim_tex t = tex(SIM_TEX_2D, SIM_TEX_FLOAT, 32, 1, 4, 4, 1), s = tex(SIM_TEX_1D, SIM_TEX_UINT, 32, 1, 5, 1, 1);
  t.addr = tbuf;
  t.norm_coords = 1;
  s.addr = sbuf;
  s.surface = 1;
  ck_assert_int_eq(sim_tex_create(d, &t, &p[0], err, sizeof err), 0);
  ck_assert_int_eq(sim_tex_create(d, &s, &p[1], err, sizeof err), 0);
  p[2] = obuf;
  struct sim_result r;
  ck_assert_int_eq(sim_written(d, sbuf), 0);
  run_k(d, &m, p, 5, &r);                    /* threads 0..4 store at bytes 0..16: in range */
  ck_assert_msg(r.outcome == SIM_RAN_OK, "%s", r.fault.message);
  sim_result_free(&r);
  ck_assert_int_eq(sim_written(d, sbuf), 1); /* sust marks the surface's memory written ... */
  ck_assert_int_eq(sim_written(d, tbuf), 0); /* ... a texture read does not */
  ck_assert_int_eq(sim_read(d, obuf, o, sizeof o), SIM_OK);
  ck_assert_uint_eq(o[0], 4);
  ck_assert_uint_eq(o[1], 4);
  ck_assert_uint_eq(o[2], 1);
  ck_assert_uint_eq(o[3], 5);
  ck_assert_uint_eq(o[4], 10);               /* clamped to texel 0 */
  ck_assert_uint_eq(o[5], 14);               /* clamped to texel 4 */
  ck_assert_uint_eq(o[6], 0);                /* .zero */
  ck_assert_int_eq(sim_read(d, sbuf, sv, sizeof sv), SIM_OK);
  for (uint32_t i = 0; i < 5; i++)           /* the .zero store was dropped; the .trap ones landed */
    ck_assert_uint_eq(sv[i], 4 * i);
  run_k(d, &m, p, 6, &r);                    /* thread 5 stores at byte 20 of 20 */
  ck_assert_int_eq(r.outcome, SIM_FAULT);
  ck_assert_msg(strstr(r.fault.message, "out-of-range surface coordinates (20 bytes"), "%s", r.fault.message);
  ck_assert_uint_eq(r.fault.thread[0], 5);
  sim_result_free(&r);
  uint64_t swapped[3] = {p[1], p[0], obuf};  /* a surface as the texture, and back */
  run_k(d, &m, swapped, 1, &r);
  ck_assert_int_eq(r.outcome, SIM_FAULT);
  ck_assert_msg(strstr(r.fault.message, "txq on handle 2, which is not a texture object"), "%s",
                r.fault.message);
  sim_result_free(&r);
  sim_device_free(d);
  ptx_module_free(&m);
}
END_TEST

/* A texture over a buffer whose words a warp's adds were held back for (sim_redbuf: red,
   in the second warp, once the first has left the allocation cached): the fetch sees them */
START_TEST(test_fetch_after_held_adds) {
  static const char k[] =
    ".version 9.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 t, .param .u64 b, .param .u64 o)\n{\n"
    ".reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
    "mov.u32 %r1, %tid.x;\nld.param.u64 %rd1, [t];\nld.param.u64 %rd2, [b];\n"
    "ld.param.u64 %rd3, [o];\nand.b32 %r2, %r1, 31;\nmul.wide.u32 %rd4, %r2, 4;\n"
    "add.s64 %rd5, %rd2, %rd4;\nred.global.add.u32 [%rd5], 1;\n"
    "tex.1d.v4.u32.s32 {%r3, %r4, %r5, %r6}, [%rd1, {%r2}];\n"
    "mul.wide.u32 %rd6, %r1, 4;\nadd.s64 %rd7, %rd3, %rd6;\nst.global.u32 [%rd7], %r3;\n"
    "ret;\n}\n";
  struct ptx_module m;
  struct ptx_error e;
  ck_assert_msg(ptx_parse(k, strlen(k), &m, &e) == PTX_OK, "%s", e.msg);
  struct sim_device *d = sim_device_new();
  char err[256];
  uint64_t p[3];
  uint32_t o[64];
  ck_assert_int_eq(sim_malloc(d, 128, "bins", &p[1]), SIM_OK);
  ck_assert_int_eq(sim_malloc(d, sizeof o, "out", &p[2]), SIM_OK);
  static const uint32_t zero[32];
  ck_assert_int_eq(sim_write(d, p[1], zero, sizeof zero), SIM_OK);
  struct sim_tex t = tex(SIM_TEX_1D, SIM_TEX_UINT, 32, 1, 32, 1, 1);
  t.res = SIM_TEX_RES_LINEAR;
  t.addr = p[1];
  ck_assert_int_eq(sim_tex_create(d, &t, &p[0], err, sizeof err), 0);
  struct sim_launch c = {.grid = {1, 1, 1}, .block = {64, 1, 1}, .workers = 1};
  struct sim_result r;
  memset(&r, 0, sizeof r);
  const unsigned long held = sim_redbuf_flushed;
  ck_assert_int_eq(sim_run(d, &m, "k", p, sizeof p, &c, &r, err, sizeof err), SIM_OK);
  ck_assert_msg(r.outcome == SIM_RAN_OK, "%s", r.fault.message);
  ck_assert_uint_ge(sim_redbuf_flushed - held, 32);
  ck_assert_int_eq(sim_read(d, p[2], o, sizeof o), SIM_OK);
  for (unsigned l = 0; l < 32; l++) {
    ck_assert_msg(o[l] == 1 || o[l] == 2, "lane %u of warp 0 fetched %u", l, o[l]);
    ck_assert_msg(o[32 + l] == 2, "lane %u of warp 1 fetched %u", l, o[32 + l]);
  }
  sim_result_free(&r);
  sim_device_free(d);
  ptx_module_free(&m);
}
END_TEST

Suite *suite_tex(void)
{
  Suite *s = suite_create("tex");
  TCase *tc = tcase_create("sampling");
  tcase_add_test(tc, test_weights);
  tcase_add_test(tc, test_address_modes);
  tcase_add_test(tc, test_linear);
  tcase_add_test(tc, test_linear_h100);
  tcase_add_test(tc, test_linear_norm_h100);
  tcase_add_test(tc, test_read_modes);
  tcase_add_test(tc, test_half);
  tcase_add_test(tc, test_int_coords);
  tcase_add_test(tc, test_gather);
  tcase_add_test(tc, test_cube);
  tcase_add_test(tc, test_table);
  suite_add_tcase(s, tc);
  tc = tcase_create("instructions");
  tcase_add_test(tc, test_queries_and_surface_modes);
  tcase_add_test(tc, test_fetch_after_held_adds);
  suite_add_tcase(s, tc);
  return s;
}
