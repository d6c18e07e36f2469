/* check_tex.c: texture sampling (sim_tex.c) against values computed by hand: address modes
 * (clamp, border, wrap, mirror, and wrap/mirror without normalised coordinates), point and
 * linear filtering with the 1.8 fixed-point weights, 8/16-bit integers read as normalised
 * floats, halves, missing channels, integer coordinates on linear memory, tld4's gather
 * order, cube map faces, and the object table's checks. Needs no nvcc. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/sim.h"
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
  uint32_t c[3] = {fb(x), fb(y), 0}, out[4];
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

/* read modes: 8/16-bit integers as normalised floats, or as integers */
START_TEST(test_read_modes) {
  static const uint8_t u8[4] = {0, 51, 255, 128};
  static const int8_t s8[4] = {-128, -127, 127, 0};
  static const uint16_t u16[2] = {65535, 0};
  struct sim_tex t = tex(SIM_TEX_1D, SIM_TEX_UINT, 8, 4, 1, 1, 1);
  uint32_t c[3] = {fb(0.5f), 0, 0}, out[4];
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
  /* two channels: blue is 0, alpha 1 */
  ck_assert_float_eq(bf(out[2]), 0.0f);
  ck_assert_float_eq(bf(out[3]), 1.0f);
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
  uint32_t c[3] = {2, 0, 0};
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
  uint32_t c[3] = {fb(1.0f), fb(1.0f), 0}, out[4];
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
  uint32_t c[3] = {fb(2.0f), fb(1.0f), fb(-1.0f)};
  sim_tex_fetch(&t, v, c, 0, out);
  ck_assert_float_eq(bf(out[0]), 1.0f);
  /* -z: face 5, s = (-x/|z| + 1) / 2 = 0.25, t = 0.75: texel (0, 1) of face 5 */
  uint32_t c2[3] = {fb(0.5f), fb(-0.5f), fb(-1.0f)};
  sim_tex_fetch(&t, v, c2, 0, out);
  ck_assert_float_eq(bf(out[0]), 5 * 4 + 2.0f);
  /* +y: face 2, s = x, t = z: (0.25, 0.75) -> texel (0, 1) */
  uint32_t c3[3] = {fb(-0.5f), fb(1.0f), fb(0.5f)};
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

Suite *suite_tex(void)
{
  Suite *s = suite_create("tex");
  TCase *tc = tcase_create("sampling");
  tcase_add_test(tc, test_weights);
  tcase_add_test(tc, test_address_modes);
  tcase_add_test(tc, test_linear);
  tcase_add_test(tc, test_read_modes);
  tcase_add_test(tc, test_half);
  tcase_add_test(tc, test_int_coords);
  tcase_add_test(tc, test_gather);
  tcase_add_test(tc, test_cube);
  tcase_add_test(tc, test_table);
  suite_add_tcase(s, tc);
  return s;
}
