/* texture.c: end-to-end tests of texture and surface objects (tests/e2e/kernels/texture.cu)
 * run through `warplab emu` with tex2d:/surf2d:... arguments.
 *
 * Expected values are recomputed here from the CUDA programming guide's Texture Fetching
 * appendix, not from the emulator's code: point sampling reads texel floor(x) (x scaled by the
 * size when normalised); linear filtering blends floor(x - 0.5) and the next texel with the
 * fraction held in 1.8 fixed point (the nearest multiple of 1/256), and in 2D the weights of an
 * H100 (measured by tests/gpu/prove.sh, issue 18): the product of the two fractions rounded
 * half up to 1/256, the other three weights the differences; wrap takes the index
 * modulo the size, clamp the edge texel, border zero. The coordinates are the kernel's
 * fma(i, step, start) in f32, as its PTX computes them. Surfaces: x in bytes, .trap faults.
 * smsp__inst_executed_op_texture.sum counts the texture instructions, one a warp.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

#define A "--arg"
#define TEXTURE_TIMEOUT_S 300

/* texture.cu built once into PTX (the first run keeps it), then run from the PTX */
static const char *texture_ptx(void)
{
  const char *ptx = e2e_tmp("texture.ptx");
  struct e2e_run *r = e2e_emu(e2e_kernel("texture.cu"), "--kernel", "fetch1d", "--grid", "1", "--block",
                              "1", A, "tex1d:4:f32:zero", A, "f32buf:1:zero", A, "i32:0", "--keep-ptx",
                              ptx, "--json", NULL);
  e2e_expect_ok(r);
  return ptx;
}

static const char *dump(int n, const char *path)
{
  return e2e_fmt("%d=%s", n, path);
}

/* the reference: index i of a dimension of n under the address mode (w wrap, c clamp, b
   border: -1 for the border's zero) */
static long addr(long i, long n, char mode)
{
  if (mode == 'w')
    return ((i % n) + n) % n;
  if (mode == 'b')
    return i < 0 || i >= n ? -1 : i;
  return i < 0 ? 0 : i >= n ? n - 1 : i;
}

/* point sampling with normalised coordinates and wrap: a 8x4 f32x4 texture of iota, so
   channel c of texel (x, y) holds (y * 8 + x) * 4 + c */
START_TEST(point_sampling_wraps_normalised_coordinates)
{
  const char *ptx = texture_ptx(), *out = e2e_tmp("out.bin");
  const unsigned NX = 16, NY = 8;
  const float x0 = -0.5f, dx = 0.1875f, y0 = -0.25f, dy = 0.375f;
  struct e2e_run *r = e2e_emu(ptx, "--kernel", "tex2d_f4", "--grid", "1", "--block", "16,8", A,
                              "tex2d:8x4:f32x4:iota:norm=1,addr=wrap", A, e2e_fmt("f32buf:%u:zero", NX * NY * 4),
                              A, "f32:-0.5", A, "f32:0.1875", A, "f32:-0.25", A, "f32:0.375", "--dump",
                              dump(1, out), "--json", NULL);
  e2e_expect_ok(r);
  /* one tex a warp: 4 warps */
  ck_assert_int_eq(e2e_jint(r, "metrics/smsp__inst_executed_op_texture.sum/value"), 4);
  float *got = e2e_read(out, NX * NY * 16);
  for (unsigned j = 0; j < NY; j++)
    for (unsigned i = 0; i < NX; i++) {
      float x = fmaf((float)i, dx, x0) * 8.0f, y = fmaf((float)j, dy, y0) * 4.0f;
      long tx = addr((long)floorf(x), 8, 'w'), ty = addr((long)floorf(y), 4, 'w');
      for (unsigned c = 0; c < 4; c++) {
        float want = (float)((ty * 8 + tx) * 4 + (long)c);
        ck_assert_msg(got[(j * NX + i) * 4 + c] == want, "(%u, %u).%u: got %g, expected %g", i, j, c,
                      (double)got[(j * NX + i) * 4 + c], (double)want);
      }
    }
}
END_TEST

/* linear filtering, unnormalised, clamp and border: an 8x4 f32 texture of iota sampled at
   steps of 0.3 and 0.7, whose fractions are not multiples of 1/256: the 1.8 fixed-point
   weights give other values than exact ones would (and under border, the rounded product of
   the weights other values than an exact product) */
static void linear_case(char mode)
{
  const char *ptx = texture_ptx(), *out = e2e_tmp("lin.bin");
  const unsigned NX = 32, NY = 8;
  const float x0 = -1.0f, dx = 0.3f, y0 = -0.6f, dy = 0.7f;
  struct e2e_run *r = e2e_emu(ptx, "--kernel", "tex2d_f1", "--grid", "1", "--block", "32,8", A,
                              e2e_fmt("tex2d:8x4:f32:iota:filter=linear,addr=%s", mode == 'b' ? "border" : "clamp"),
                              A, e2e_fmt("f32buf:%u:zero", NX * NY), A, "f32:-1", A, "f32:0.3", A, "f32:-0.6",
                              A, "f32:0.7", "--dump", dump(1, out), "--json", NULL);
  e2e_expect_ok(r);
  float *got = e2e_read(out, NX * NY * 4);
  unsigned differs_from_exact = 0;
  for (unsigned j = 0; j < NY; j++)
    for (unsigned i = 0; i < NX; i++) {
      float x = fmaf((float)i, dx, x0) - 0.5f, y = fmaf((float)j, dy, y0) - 0.5f;
      float fx = floorf(x), fy = floorf(y);
      int a = (int)rintf((x - fx) * 256.0f), b = (int)rintf((y - fy) * 256.0f);
      int ab = (a * b + 128) >> 8, w[4] = {256 - a - b + ab, a - ab, b - ab, ab};
      double want = 0, exact = 0;
      for (int k = 0; k < 4; k++) {
        long tx = addr((long)fx + (k & 1), 8, mode), ty = addr((long)fy + (k >> 1), 4, mode);
        double v = tx < 0 || ty < 0 ? 0.0 : (double)(ty * 8 + tx);
        want += w[k] / 256.0 * v;
        exact += ((k & 1) ? x - fx : 1.0 - (x - fx)) * ((k >> 1) ? y - fy : 1.0 - (y - fy)) * v;
      }
      float g = got[j * NX + i];
      ck_assert_msg(fabs((double)g - want) <= 1e-5 * (fabs(want) + 1.0), "(%u, %u): got %.9g, expected %.9g", i, j,
                    (double)g, want);
      if (fabs(want - exact) > 1e-3)
        differs_from_exact++;
    }
  ck_assert_msg(differs_from_exact > 10, "only %u samples tell 8-bit weights from exact ones", differs_from_exact);
}

START_TEST(linear_filtering_with_8_bit_weights_clamp)
{
  linear_case('c');
}
END_TEST

START_TEST(linear_filtering_with_8_bit_weights_border)
{
  linear_case('b');
}
END_TEST

/* tex1Dfetch on linear memory reads zero outside it; tld4 gathers component 1 of the four
   texels lower left first, counter-clockwise */
START_TEST(fetch_and_gather)
{
  const char *ptx = texture_ptx(), *out = e2e_tmp("f.bin"), *g = e2e_tmp("g.bin");
  struct e2e_run *r = e2e_emu(ptx, "--kernel", "fetch1d", "--grid", "1", "--block", "16", A, "tex1d:10:f32:iota",
                              A, "f32buf:16:zero", A, "i32:-3", "--dump", dump(1, out), "--json", NULL);
  e2e_expect_ok(r);
  float *got = e2e_read(out, 64);
  for (int i = 0; i < 16; i++)
    ck_assert_float_eq(got[i], i - 3 >= 0 && i - 3 < 10 ? (float)(i - 3) : 0.0f);
  r = e2e_emu(ptx, "--kernel", "gather_g", "--grid", "1", "--block", "4,4", A, "tex2d:4x4:f32x2:iota", A,
              "f32buf:64:zero", A, "f32:0.25", A, "f32:1", A, "f32:0.25", A, "f32:1", "--dump", dump(1, g),
              "--json", NULL);
  e2e_expect_ok(r);
  float *gg = e2e_read(g, 256);
  static const int ox[4] = {0, 1, 1, 0}, oy[4] = {1, 1, 0, 0};
  for (int j = 0; j < 4; j++)
    for (int i = 0; i < 4; i++) {
      long bx = (long)floorf(0.25f + (float)i - 0.5f), by = (long)floorf(0.25f + (float)j - 0.5f);
      for (int k = 0; k < 4; k++) {
        long tx = addr(bx + ox[k], 4, 'c'), ty = addr(by + oy[k], 4, 'c');
        float want = (float)((ty * 4 + tx) * 2 + 1);
        ck_assert_msg(gg[(j * 4 + i) * 4 + k] == want, "(%d, %d).%d: got %g, expected %g", i, j, k,
                      (double)gg[(j * 4 + i) * 4 + k], (double)want);
      }
    }
}
END_TEST

/* surf2Dread / surf2Dwrite with x in bytes: dst = src * 2 + x + 100 y; uchar4 surfaces with
   a .zero read past the edge; a read out of range under .trap is a fault at its line */
START_TEST(surfaces_read_and_write)
{
  const char *ptx = texture_ptx(), *out = e2e_tmp("s.bin"), *out8 = e2e_tmp("s8.bin");
  struct e2e_run *r = e2e_emu(ptx, "--kernel", "surf_scale", "--grid", "1", "--block", "8,4", A,
                              "surf2d:6x3:f32:iota", A, "surf2d:6x3:f32:zero", A, "i32:6", A, "i32:3", "--dump",
                              dump(1, out), "--json", NULL);
  e2e_expect_ok(r);
  float *got = e2e_read(out, 6 * 3 * 4);
  for (int y = 0; y < 3; y++)
    for (int x = 0; x < 6; x++)
      ck_assert_float_eq(got[y * 6 + x], (float)(y * 6 + x) * 2.0f + (float)(x + 100 * y));
  r = e2e_emu(ptx, "--kernel", "surf_u8x4", "--grid", "1", "--block", "4,2", A, "surf2d:3x2:u8x4:iota", A,
              "surf2d:3x2:u8x4:zero", A, "i32:3", A, "i32:2", "--dump", dump(1, out8), "--json", NULL);
  e2e_expect_ok(r);
  uint8_t *g8 = e2e_read(out8, 3 * 2 * 4);
  for (int y = 0; y < 2; y++)
    for (int x = 0; x < 3; x++) {
      const uint8_t *o = g8 + (y * 3 + x) * 4;
      unsigned a = (unsigned)(y * 3 + x) * 4, b = x + 1 < 3 ? a + 4 : 0;  /* texel (x+1) or .zero */
      unsigned bx = x + 1 < 3 ? b : 0, by = x + 1 < 3 ? b + 1 : 0;
      ck_assert_uint_eq(o[0], (a + bx) & 255);
      ck_assert_uint_eq(o[1], (a + 1) ^ by);
      ck_assert_uint_eq(o[2], a + 2);
      ck_assert_uint_eq(o[3], (unsigned)(x + y));
    }
  /* a 5-wide source read by 6 columns of threads: column 5 reads byte 20 of 20 */
  r = e2e_emu(ptx, "--kernel", "surf_scale", "--grid", "1", "--block", "8,4", A, "surf2d:5x3:f32:iota", A,
              "surf2d:6x3:f32:zero", A, "i32:6", A, "i32:3", "--json", NULL);
  e2e_expect_outcome(r, 1, "fault");
  ck_assert_msg(strstr(r->out, "out-of-range surface coordinates (20 bytes, 0, 0)") &&
                strstr(r->out, "texture.cu:"), "%s", r->out);
}
END_TEST

/* tex3D with linear filtering, tex2DLayered (the layer an integer), u8 read as integers and
   as normalised floats; a surface handed to tex is a fault, not a silent read */
START_TEST(volumes_layers_and_read_modes)
{
  const char *ptx = texture_ptx(), *out = e2e_tmp("v.bin");
  struct e2e_run *r = e2e_emu(ptx, "--kernel", "tex3d_f1", "--grid", "1", "--block", "2,2", A,
                              "tex3d:2x2x2:f32:iota:filter=linear", A, "f32buf:4:zero", A, "f32:0.5", A, "f32:0.5",
                              A, "f32:1", "--dump", dump(1, out),
              "--json", NULL);
  e2e_expect_ok(r);
  float *got = e2e_read(out, 16);
  /* (x, y, z) = (0.5 + 0.5 i, 0.5 + 0.5 j, 1): x = 0.5 + 0.5i reads texel 0 blended with 1 by
     0.5 i; z = 1 blends the slices half and half: iota is x + 2 y + 4 z */
  for (int j = 0; j < 2; j++)
    for (int i = 0; i < 2; i++)
      ck_assert_float_eq(got[j * 2 + i], 0.5f * (float)i + 2.0f * 0.5f * (float)j + 4.0f * 0.5f);
  r = e2e_emu(ptx, "--kernel", "tex2dlayered_f1", "--grid", "1", "--block", "2,2", A, "tex2dlayered:2x2x3:f32:iota",
              A, "f32buf:4:zero", A, "f32:0.5", A, "f32:1", A, "i32:2", "--dump", dump(1, out),
              "--json", NULL);
  e2e_expect_ok(r);
  got = e2e_read(out, 16);
  for (int k = 0; k < 4; k++)
    ck_assert_float_eq(got[k], (float)(8 + k));
  r = e2e_emu(ptx, "--kernel", "tex2d_u4", "--grid", "1", "--block", "2,2", A, "tex2d:2x2:u8x4:fill=200", A,
              "u32buf:16:zero", A, "f32:0.5", A, "f32:1", A, "f32:0.5", A, "f32:1", "--dump", dump(1, out),
              "--json", NULL);
  e2e_expect_ok(r);
  uint32_t *gu = e2e_read(out, 64);
  for (int k = 0; k < 16; k++)
    ck_assert_uint_eq(gu[k], 200);
  r = e2e_emu(ptx, "--kernel", "tex2d_f4", "--grid", "1", "--block", "2,2", A, "tex2d:2x2:u8x4:fill=51:read=norm", A,
              "f32buf:16:zero", A, "f32:0.5", A, "f32:1", A, "f32:0.5", A, "f32:1", "--dump", dump(1, out),
              "--json", NULL);
  e2e_expect_ok(r);
  got = e2e_read(out, 64);
  for (int k = 0; k < 16; k++)
    ck_assert_float_eq(got[k], 51.0f / 255.0f);
  r = e2e_emu(ptx, "--kernel", "tex2d_f1", "--grid", "1", "--block", "2,2", A, "surf2d:2x2:f32:zero", A,
              "f32buf:4:zero", A, "f32:0", A, "f32:1", A, "f32:0", A, "f32:1", "--json", NULL);
  e2e_expect_outcome(r, 1, "fault");
  ck_assert_msg(strstr(r->out, "not a texture object"), "%s", r->out);
  r = e2e_emu(ptx, "--kernel", "tex2d_f1", "--grid", "1", "--block", "2,2", A, "tex2d:2x2:u8:zero:filter=linear",
              A, "f32buf:4:zero", A, "f32:0", A, "f32:1", A, "f32:0", A, "f32:1", "--json", NULL);
  e2e_expect_error(r, 2, "linear filtering needs float results", NULL);
}
END_TEST

/* cube maps: texCubemap picks the face by the major axis (the unit tests check the faces);
   texCubemapLayered's layer L reads the same texel 6 faces x L further on; surfCubemapread/
   write address faces as layers: dst(x, y, f) = src(x, y, f) + 1000 f */
START_TEST(cube_maps)
{
  const char *ptx = texture_ptx(), *a = e2e_tmp("a.bin"), *b = e2e_tmp("b.bin");
  const char *dirs[] = {A, "f32:-0.9", A, "f32:0.55", A, "f32:-0.8", A, "f32:0.6"};
  struct e2e_run *r = e2e_emu(ptx, "--kernel", "texcube_f1", "--grid", "1", "--block", "4,4", A, "texcube:2:f32:iota",
                              A, "f32buf:16:zero", dirs[0], dirs[1], dirs[2], dirs[3], dirs[4], dirs[5], dirs[6],
                              dirs[7], "--dump", dump(1, a), "--json", NULL);
  e2e_expect_ok(r);
  r = e2e_emu(ptx, "--kernel", "texcubelayered_f1", "--grid", "1", "--block", "4,4", A, "texcubelayered:2x3:f32:iota",
              A, "f32buf:16:zero", dirs[0], dirs[1], dirs[2], dirs[3], dirs[4], dirs[5], dirs[6], dirs[7], A, "i32:2",
              "--dump", dump(1, b), "--json", NULL);
  e2e_expect_ok(r);
  float *fa = e2e_read(a, 64), *fb = e2e_read(b, 64);
  int faces = 0;
  for (int k = 0; k < 16; k++) {
    ck_assert_float_eq(fb[k], fa[k] + 48.0f);
    faces |= 1 << ((int)fa[k] / 4);
  }
  ck_assert_msg(faces == 0x1f, "faces read: %#x, expected all but -z (z is 0.6)", faces);
  r = e2e_emu(ptx, "--kernel", "surfcube_copy", "--grid", "1", "--block", "2,2,6", A, "surfcube:2:f32:iota", A,
              "surfcube:2:f32:zero", "--dump", dump(1, a), "--json", NULL);
  e2e_expect_ok(r);
  fa = e2e_read(a, 96);
  for (int k = 0; k < 24; k++)
    ck_assert_float_eq(fa[k], (float)k + 1000.0f * (float)(k / 4));
}
END_TEST

/* tex2DLod, tex2DGrad, tex1DLod and tex3DGrad (tex.level, tex.grad) on textures of one level
   sample level 0, whatever level of detail each thread asks for: the same bytes as tex2D,
   tex1D and tex3D at the same coordinates (linear filtering and wrap, so that every sample is
   a blend) */
START_TEST(level_and_gradient_sample_the_one_level)
{
  const char *ptx = texture_ptx(), *lod = e2e_kernel("tex_lod.cu");
  const char *plain = e2e_tmp("plain.bin"), *got = e2e_tmp("lod.bin");
  const char *t2 = "tex2d:8x4:f32x4:iota:filter=linear,norm=1,addr=wrap";
  const char *const steps[] = {A, "f32:-0.5", A, "f32:0.1875", A, "f32:-0.25", A, "f32:0.375"};
  struct e2e_run *r = e2e_emu(ptx, "--kernel", "tex2d_f4", "--grid", "1", "--block", "16,8", A, t2, A,
                              "f32buf:512:zero", steps[0], steps[1], steps[2], steps[3], steps[4], steps[5],
                              steps[6], steps[7], "--dump", dump(1, plain), "--json", NULL);
  e2e_expect_ok(r);
  const float *want = e2e_read(plain, 512 * 4);
  ck_assert_float_ne(want[17], want[18]);               /* samples that tell places apart */
  const char *const kernels[] = {"tex2d_lod_f4", "tex2d_grad_f4"}, *const extra[] = {"f32:1.5", "f32:0.7"};
  for (int k = 0; k < 2; k++) {
    r = e2e_emu(lod, "--kernel", kernels[k], "--grid", "1", "--block", "16,8", A, t2, A, "f32buf:512:zero",
                steps[0], steps[1], steps[2], steps[3], steps[4], steps[5], steps[6], steps[7], A, extra[k],
                "--dump", dump(1, got), "--json", NULL);
    e2e_expect_ok(r);
    ck_assert_int_eq(e2e_jint(r, "metrics/smsp__inst_executed_op_texture.sum/value"), 4);
    ck_assert_msg(memcmp(e2e_read(got, 512 * 4), want, 512 * 4) == 0, "%s differs from tex2d", kernels[k]);
  }
  const char *t1 = "tex1d:16:f32:iota:res=array,filter=linear,norm=1,addr=wrap";
  r = e2e_emu(ptx, "--kernel", "tex1d_f1", "--grid", "1", "--block", "64", A, t1, A, "f32buf:64:zero", A,
              "f32:-0.7", A, "f32:0.049", "--dump", dump(1, plain), "--json", NULL);
  e2e_expect_ok(r);
  r = e2e_emu(lod, "--kernel", "tex1d_lod_f1", "--grid", "1", "--block", "64", A, t1, A, "f32buf:64:zero", A,
              "f32:-0.7", A, "f32:0.049", A, "f32:0.25", "--dump", dump(1, got), "--json", NULL);
  e2e_expect_ok(r);
  ck_assert(memcmp(e2e_read(got, 256), e2e_read(plain, 256), 256) == 0);
  const char *t3 = "tex3d:4x4x4:f32:iota:filter=linear";
  r = e2e_emu(ptx, "--kernel", "tex3d_f1", "--grid", "1", "--block", "8,8", A, t3, A, "f32buf:64:zero", A,
              "f32:-0.3", A, "f32:0.55", A, "f32:1.3", "--dump", dump(1, plain), "--json", NULL);
  e2e_expect_ok(r);
  r = e2e_emu(lod, "--kernel", "tex3d_grad_f1", "--grid", "1", "--block", "8,8", A, t3, A, "f32buf:64:zero",
              A, "f32:-0.3", A, "f32:0.55", A, "f32:1.3", "--dump", dump(1, got), "--json", NULL);
  e2e_expect_ok(r);
  ck_assert(memcmp(e2e_read(got, 256), e2e_read(plain, 256), 256) == 0);
}
END_TEST

void e2e_add_texture_tests(Suite *s)
{
  TCase *tc = tcase_create("texture");
  tcase_add_checked_fixture(tc, e2e_setup, e2e_teardown);
  tcase_set_timeout(tc, TEXTURE_TIMEOUT_S);
  if (!e2e_have_nvcc()) {
    printf("e2e: nvcc not found: SKIPPING the texture test case\n");
  } else {
    tcase_add_test(tc, point_sampling_wraps_normalised_coordinates);
    tcase_add_test(tc, linear_filtering_with_8_bit_weights_clamp);
    tcase_add_test(tc, linear_filtering_with_8_bit_weights_border);
    tcase_add_test(tc, fetch_and_gather);
    tcase_add_test(tc, surfaces_read_and_write);
    tcase_add_test(tc, volumes_layers_and_read_modes);
    tcase_add_test(tc, cube_maps);
    tcase_add_test(tc, level_and_gradient_sample_the_one_level);
  }
  suite_add_tcase(s, tc);
}
