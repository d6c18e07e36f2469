/* sim_tex.c: texture and surface objects: the table of them, sampling, and the instructions
 * that use them (tex, tld4, txq on textures; suld, sust, suq on surfaces).
 *
 * What cudaTextureObject_t / cudaSurfaceObject_t compile to with nvcc's unified mode:
 *   tex.2d.v4.f32.f32 {d0, d1, d2, d3}, [handle, {x, y}];     tex2D<float4>(t, x, y)
 *   tex.1d.v4.s32.s32 {..}, [handle, {i}];                    tex1Dfetch<int4>(t, i)
 *   tld4.r.2d.v4.f32.f32 {..}, [handle, {x, y}];              tex2Dgather(t, x, y, 0)
 *   txq.width.b32 d, [handle];
 *   suld.b.2d.v4.b32.trap {..}, [handle, {xbytes, y}];         surf2Dread
 *   sust.b.2d.b32.trap [handle, {xbytes, y}], {s};             surf2Dwrite
 *   tex.level.2d.v4.f32.f32 {..}, [handle, {x, y}], lod;     tex2DLod<float4>(t, x, y, lod)
 *   tex.grad.2d.v4.f32.f32 {..}, [handle, {x, y}], {dx..}, {dy..};   tex2DGrad
 * The handle is the object's index in the device's table plus one (sim_tex_create).
 *
 * A texture here has one level: it is made over a CUDA array or linear memory, never a
 * mipmapped array, and the GPU samples such a texture at level 0 whatever level of detail
 * tex.level asks for or tex.grad's gradients give (the programming guide: tex2DLod fetches
 * "from the CUDA array" at that level; the GPU proof's tex2d_lod and tex2d_grad cases). So
 * .level and .grad sample as plain tex does, and their extra operands are not read.
 *
 * Sampling follows the CUDA programming guide's Texture Fetching appendix: with normalised
 * coordinates x is first scaled by the size; point filtering reads texel floor(x); linear
 * filtering blends texels i = floor(x - 0.5) and i + 1 with weight a = frac(x - 0.5) held in
 * 1.8 fixed point (sim_tex_weight), (1 - a) T[i] + a T[i+1], per dimension, a 0 where clamping
 * holds both texels at the edge. As an H100 does (measured, issue 18): the 2D and 3D weights
 * are split with rounding to 1/256 (corner_weights), not exact products; the blend of f32
 * texels is exact, then rounded to a float to nearest with ties away from zero; halves blend
 * to a half the same way; 8-bit unsigned normalised texels blend to a 16-bit unorm, half up,
 * read as n / 65535; 16-bit and signed 8-bit normalised integers blend to a 16-bit value too,
 * each by its own rule (norm_result).
 * Address modes act on each texel index: clamp to the edge, border (the texel reads as
 * zero), wrap and mirror (normalised coordinates only; without them the hardware clamps).
 * Integer coordinates (tex1Dfetch) read one texel, zero out of range. 8- and 16-bit integers
 * read as normalised floats give v / (2^n - 1) unsigned, max(v / (2^(n-1) - 1), -1) signed;
 * halves read as floats. A texture of fewer than four channels reads the missing ones as 0,
 * alpha too (an H100's tex2d_one_channel, tex2d_i16_norm; integer reads by analogy, not
 * measured).
 * Cube maps pick a face by the direction's major axis (the guide's cube map table) and sample
 * it with normalised coordinates and clamping.
 *
 * Surfaces take the x coordinate in bytes; suld.b/sust.b move raw bits. Out of range, .trap
 * faults with the coordinates, .clamp moves to the nearest texel, .zero reads zeros and drops
 * the store.
 *
 * Each texture or surface instruction records the first texel each lane touches as a global
 * access (sim_stats_mem), so the timing model costs tex, tld4 and suld as global loads of those
 * texels and sust as a store; the metrics count tex, tld4 and txq as Nsight Compute's
 * smsp__inst_executed_op_texture.sum, and none of them as lsu global loads or stores.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_int.h"

#define REG(r) (w->regs + (size_t)(r) * b->W)

uint32_t sim_tex_texel_size(const struct sim_tex *t)
{
  return (uint32_t)t->nchan * t->bits / 8u;
}

uint64_t sim_tex_span(const struct sim_tex *t)
{
  uint64_t es = sim_tex_texel_size(t);
  uint64_t rows = (uint64_t)t->height * t->depth;
  return (rows - 1) * t->pitch + (uint64_t)t->width * es;
}

int sim_tex_create(struct sim_device *d, const struct sim_tex *t, uint64_t *handle, char *err,
                   size_t errlen)
{
  int is_float = t->kind == SIM_TEX_FLOAT || (t->read_norm && t->bits < 32);
  if (t->nchan != 1 && t->nchan != 2 && t->nchan != 4) {
    snprintf(err, errlen, "a texture has 1, 2 or 4 channels, not %u", t->nchan);
    return -1;
  }
  if (t->bits != 8 && t->bits != 16 && t->bits != 32) {
    snprintf(err, errlen, "channels are 8, 16 or 32 bits, not %u", t->bits);
    return -1;
  }
  if (t->kind == SIM_TEX_FLOAT && t->bits == 8) {
    snprintf(err, errlen, "there are no 8-bit float channels");
    return -1;
  }
  if (!t->width || !t->height || !t->depth || t->pitch < (uint64_t)t->width * sim_tex_texel_size(t)) {
    snprintf(err, errlen, "the sizes must be positive and the pitch at least a row's bytes");
    return -1;
  }
  if (t->geom > SIM_TEX_ACUBE || t->res > SIM_TEX_RES_PITCH2D) {
    snprintf(err, errlen, "unknown geometry or resource");
    return -1;
  }
  if (!t->surface && t->linear && !is_float) {
    snprintf(err, errlen, "linear filtering needs float results: a float format, or 8/16-bit "
                          "integers read as normalised floats");
    return -1;
  }
  if ((t->geom == SIM_TEX_CUBE && t->depth != 6) || (t->geom == SIM_TEX_ACUBE && t->depth % 6) ||
      (t->geom >= SIM_TEX_CUBE && t->width != t->height)) {
    snprintf(err, errlen, "a cube map has 6 square faces (a layer)");
    return -1;
  }
  for (int k = 0; k < 3; k++)
    if (t->addr_mode[k] > SIM_TEX_BORDER) {
      snprintf(err, errlen, "unknown address mode");
      return -1;
    }
  if (sim_grow((void **)&d->texs, &d->cap_texs, d->ntexs + 1, sizeof *d->texs, 8)) {
    snprintf(err, errlen, "out of host memory");
    return -1;
  }
  d->texs[d->ntexs++] = *t;
  *handle = d->ntexs;
  return 0;
}

const struct sim_tex *sim_tex_get(const struct sim_device *d, uint64_t h)
{
  return h >= 1 && h <= d->ntexs ? &d->texs[h - 1] : NULL;
}

float sim_tex_weight(float frac)
{
  return rintf(frac * 256.0f) / 256.0f;
}

static float f32_of(uint32_t u)
{
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static uint32_t bits_of(float f)
{
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

static float half_to_float(uint16_t h)
{
  uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 31u, m = h & 1023u;
  if (e == 31)
    return f32_of(s | 0x7f800000u | (m << 13));
  if (e == 0) {
    float v = ldexpf((float)m, -24);
    return s ? -v : v;
  }
  return f32_of(s | ((e + 112u) << 23) | (m << 13));
}

/* The integer weights, summing to 256, of the 2^dims texels around a sample whose 1.8
   fixed-point fractions are a[] (bit k of a corner's index picks texel i0[k] + 1 in dimension
   k). Measured on an H100 (tests/gpu/prove.sh: tex2d_linear_border, _rand, _f16, _u8norm,
   tex3d_linear): the hardware does not multiply the fractions exactly (a b / 65536) but splits
   the weight of each z slice (c, 256 - c) by x, rounding half up, then each of those by y,
   rounding half up for the upper x texel and half down for the lower one. In 2D that is
   w11 = (a b + 128) >> 8, w10 = a - w11, w01 = b - w11, w00 = 256 - a - b + w11: the weights
   along each axis still sum to a and b. Exact products differed in 89 of the 256 samples of
   tex2d_linear_border; these weights give the H100's bits in all of them and in all 64 of
   tex3d_linear (which fit only when a clamped dimension's fraction is 0, as sim_tex_fetch
   sets it). */
static void corner_weights(int dims, const int a[3], int w[8])
{
  for (int z = 0; z < (dims == 3 ? 2 : 1); z++) {
    int cz = dims < 3 ? 256 : z ? a[2] : 256 - a[2];
    int x1 = (a[0] * cz + 128) >> 8, x0 = cz - x1;
    int *wz = w + 4 * z;
    if (dims == 1) {
      wz[0] = x0;
      wz[1] = x1;
      continue;
    }
    int y11 = (a[1] * x1 + 128) >> 8, y01 = (a[1] * x0 + 127) >> 8;
    wz[0] = x0 - y01;
    wz[1] = x1 - y11;
    wz[2] = y01;
    wz[3] = y11;
  }
}

/* An exact sum of products (weight times texel, each exact in a double), kept as a double
   and the rounding error of its additions. */
struct blend {
  double hi, lo;
};

static void blend_add(struct blend *s, double p)
{
  double t = s->hi + p, bp = t - s->hi;
  s->lo += (s->hi - (t - bp)) + (p - bp);   /* two-sum: the error of hi + p */
  s->hi = t;
}

/* The sum s / 256 rounded to a float of prec significant bits whose normal exponents (of
   values m 2^e, 0.5 <= m < 1) start at emin (f32: 24, -125; f16: 11, -13), to nearest with
   ties away from zero: what an H100 gives for f32 and f16 texels (the sums of
   tex2d_linear_rand that fall exactly between two floats go away from zero; those of
   tex2d_linear_f16 are halves, rounded the same way). */
static double round_away(struct blend s, int prec, int emin)
{
  double hi = s.hi / 256.0, lo = s.lo / 256.0;
  if (hi == 0.0 || !isfinite(hi))
    return hi + lo;
  int e;
  frexp(hi, &e);
  double q = ldexp(1.0, (e < emin ? emin : e) - prec);
  double t = hi / q, fl = floor(t), fr = t - fl;
  double n = fl;
  if (fr > 0.5 || (fr == 0.5 && (lo > 0 || (lo == 0 && hi > 0))))
    n = fl + 1;
  return n * q;
}

/* Whether t's fetches give floats (else 32-bit integers). */
static int float_results(const struct sim_tex *t)
{
  return t->kind == SIM_TEX_FLOAT || (t->read_norm && t->bits < 32);
}

/* Texel (x, y, z) of t, in range, into v: floats (as bits) or integers, per float_results. */
static void texel(const struct sim_tex *t, const uint8_t *data, int64_t x, int64_t y, int64_t z,
                  uint32_t v[4])
{
  const uint8_t *p = data + ((uint64_t)z * t->height + (uint64_t)y) * t->pitch +
                     (uint64_t)x * sim_tex_texel_size(t);
  for (unsigned c = 0; c < 4; c++) {
    if (c >= t->nchan) {               /* missing channels, alpha included, read 0 (H100) */
      v[c] = 0;
      continue;
    }
    uint32_t raw = 0;
    memcpy(&raw, p + c * (t->bits / 8u), t->bits / 8u);
    if (t->kind == SIM_TEX_FLOAT) {
      v[c] = t->bits == 16 ? bits_of(half_to_float((uint16_t)raw)) : raw;
    } else if (t->bits < 32) {
      uint32_t umax = (1u << t->bits) - 1u;
      int32_t sv = (int32_t)(raw << (32 - t->bits)) >> (32 - t->bits);
      if (t->read_norm && t->kind == SIM_TEX_UINT)
        v[c] = bits_of((float)raw / (float)umax);
      else if (t->read_norm) {
        float f = (float)sv / (float)(umax >> 1);
        v[c] = bits_of(f < -1.0f ? -1.0f : f);
      } else
        v[c] = t->kind == SIM_TEX_SINT ? (uint32_t)sv : raw;
    } else {
      v[c] = raw;
    }
  }
}

/* The texel index i of a dimension of n texels under address mode mode: 0 with it in *i,
   or 1 when it reads the border (zero). */
static int address(const struct sim_tex *t, int mode, int64_t *i, int64_t n)
{
  if (!t->norm_coords && (mode == SIM_TEX_WRAP || mode == SIM_TEX_MIRROR))
    mode = SIM_TEX_CLAMP;             /* the hardware's: wrap and mirror need normalised ones */
  switch (mode) {
  case SIM_TEX_WRAP:
    *i = ((*i % n) + n) % n;
    return 0;
  case SIM_TEX_MIRROR: {
    int64_t m = ((*i % (2 * n)) + 2 * n) % (2 * n);
    *i = m < n ? m : 2 * n - 1 - m;
    return 0;
  }
  case SIM_TEX_BORDER:
    return *i < 0 || *i >= n;
  default:
    *i = *i < 0 ? 0 : *i >= n ? n - 1 : *i;
    return 0;
  }
}

/* Whether dimension k of a texture sampled in dims dimensions clamps (its mode, or wrap and
   mirror without normalised coordinates, as address() does). */
static int clamps(const struct sim_tex *t, int k, int dims)
{
  int mode = t->addr_mode[k];
  return k < dims && (mode == SIM_TEX_CLAMP ||
                      (!t->norm_coords && (mode == SIM_TEX_WRAP || mode == SIM_TEX_MIRROR)));
}

/* Texel (x, y, z) after the address modes (z a layer index, clamped, when layered), or the
   border's zeros. */
static void texel_at(const struct sim_tex *t, const uint8_t *data, int dims, int64_t x, int64_t y,
                     int64_t z, uint32_t v[4])
{
  int64_t n[3] = {t->width, t->height, t->depth};
  int64_t c[3] = {x, y, z};
  for (int k = 0; k < 3; k++) {
    if (k >= dims) {
      c[k] = c[k] < 0 ? 0 : c[k] >= n[k] ? n[k] - 1 : c[k];
      continue;
    }
    if (address(t, t->addr_mode[k], &c[k], n[k])) {
      memset(v, 0, 4 * sizeof *v);
      return;
    }
  }
  texel(t, data, c[0], c[1], c[2], v);
}

/* Cube map: the face and its normalised (s, t) of direction (x, y, z). */
static int cube_face(float x, float y, float z, float *s, float *tt)
{
  float ax = fabsf(x), ay = fabsf(y), az = fabsf(z), ma, sc, tc;
  int face;
  if (ax >= ay && ax >= az) {
    face = x >= 0 ? 0 : 1;
    ma = ax;
    sc = x >= 0 ? -z : z;
    tc = -y;
  } else if (ay >= az) {
    face = y >= 0 ? 2 : 3;
    ma = ay;
    sc = x;
    tc = y >= 0 ? z : -z;
  } else {
    face = z >= 0 ? 4 : 5;
    ma = az;
    sc = z >= 0 ? x : -x;
    tc = -y;
  }
  *s = (sc / ma + 1.0f) * 0.5f;
  *tt = (tc / ma + 1.0f) * 0.5f;
  return face;
}

/* The filtering dimensions of t's geometry and the float coordinates of c in texels; *layer
   the slice (layer, cube face, or layered cube's face of its layer). */
static int coords(const struct sim_tex *t, const uint32_t c[4], float u[3], int64_t *layer,
                  int *norm)
{
  int dims;
  *layer = 0;
  *norm = t->norm_coords;
  switch (t->geom) {
  case SIM_TEX_1D: dims = 1; u[0] = f32_of(c[0]); break;
  case SIM_TEX_2D: dims = 2; u[0] = f32_of(c[0]); u[1] = f32_of(c[1]); break;
  case SIM_TEX_3D: dims = 3; u[0] = f32_of(c[0]); u[1] = f32_of(c[1]); u[2] = f32_of(c[2]); break;
  case SIM_TEX_A1D: dims = 1; u[0] = f32_of(c[0]); *layer = (int32_t)c[3]; break;
  case SIM_TEX_A2D: dims = 2; u[0] = f32_of(c[0]); u[1] = f32_of(c[1]); *layer = (int32_t)c[3]; break;
  default: {                           /* cube, acube: a face, of layer c[3] */
    int64_t nl = t->depth / 6, l = t->geom == SIM_TEX_ACUBE ? (int32_t)c[3] : 0;
    l = l < 0 ? 0 : l >= nl ? nl - 1 : l;
    dims = 2;
    *layer = l * 6 + cube_face(f32_of(c[0]), f32_of(c[1]), f32_of(c[2]), &u[0], &u[1]);
    *norm = 1;
    break;
  }
  }
  float n[3] = {(float)t->width, (float)t->height, (float)t->depth};
  for (int k = 0; k < dims; k++)
    if (*norm)
      u[k] *= n[k];
  return dims;
}

/* A raw normalised integer texel v (as texel() gives it with read_norm off: zero-extended
   unsigned, sign-extended signed) as linear filtering blends it: signed ones clamped to
   -(2^(bits-1) - 1), the most negative code reading as -1 as it does unfiltered. */
static int64_t norm_raw(const struct sim_tex *t, uint32_t v)
{
  if (t->kind == SIM_TEX_UINT)
    return v;
  int32_t lo = -(int32_t)((1u << (t->bits - 1)) - 1u);
  return (int32_t)v < lo ? lo : (int32_t)v;
}

static int64_t floor_div(int64_t a, int64_t b)  /* b > 0 */
{
  int64_t q = a / b;
  return q * b > a ? q - 1 : q;
}

/* The float an H100 returns for normalised integer texels blended with corner weights summing
   to 256: s is the sum of weight times norm_raw(texel). Each format is blended to a 16-bit
   normalised integer n, rounded half up, and read as n / 65535 (unsigned) or n / 32767
   (signed); measured bit for bit on an H100 (tests/gpu/prove.sh: tex2d_linear_u8norm, and
   tex2d_linear_u16norm, _i8norm, _i16norm, all 512 elements of each):
     u8:  n = (257 s + 128) >> 8          (the 8-bit code widened by 257, exact)
     u16: n = (s + 128) >> 8
     s16: n = floor((s + 128) / 256)
     s8:  b = floor(258 s / 32), n = floor(b 32767 / 262128 + 1/2): as if the codes were
          widened by 258 (not the exact 32767 / 127), the blend kept to 1/8 and truncated, then
          rescaled by 32767 / 32766 and rounded. The exact n = round(s 32767 / 32512) differed
          in 31 of the 512 floats of tex2d_linear_i8norm; blending v / 127 as floats, in all
          512 (u16norm: 363, i16norm: 191 of 512, with the float blend).
   Ties of negative values (round half up or away from zero) were not seen; -128 and -32768
   texels were not in the measured data (clamped as unfiltered reads are). */
static float norm_result(const struct sim_tex *t, int64_t s)
{
  if (t->kind == SIM_TEX_UINT)
    return (float)((t->bits == 8 ? 257 * s + 128 : s + 128) >> 8) / 65535.0f;
  int64_t n = t->bits == 16 ? floor_div(s + 128, 256)
                            : floor_div(floor_div(258 * s, 32) * 32767 + 131064, 262128);
  return (float)n / 32767.0f;
}

void sim_tex_fetch(const struct sim_tex *t, const void *data, const uint32_t c[4],
                   int int_coords, uint32_t out[4])
{
  int layered = t->geom == SIM_TEX_A1D || t->geom == SIM_TEX_A2D || t->geom >= SIM_TEX_CUBE;
  if (int_coords) {                    /* tex1Dfetch and the like: one texel, no filtering */
    int dims = t->geom == SIM_TEX_3D ? 3 : t->geom == SIM_TEX_2D || t->geom == SIM_TEX_A2D ? 2 : 1;
    int64_t x = (int32_t)c[0], y = dims > 1 ? (int32_t)c[1] : 0;
    int64_t z = dims > 2 ? (int32_t)c[2] : layered ? (int32_t)c[3] : 0;
    if (t->res == SIM_TEX_RES_LINEAR) {
      if (x < 0 || x >= t->width) {
        memset(out, 0, 4 * sizeof *out);
        return;
      }
      texel(t, data, x, 0, 0, out);
      return;
    }
    struct sim_tex u = *t;
    u.norm_coords = 0;
    texel_at(&u, data, dims, x, y, z, out);
    return;
  }
  float u[3] = {0, 0, 0};
  int64_t layer;
  int norm;
  int dims = coords(t, c, u, &layer, &norm);
  struct sim_tex tt = *t;
  tt.norm_coords = (uint8_t)norm;
  if (t->geom >= SIM_TEX_CUBE)
    tt.addr_mode[0] = tt.addr_mode[1] = SIM_TEX_CLAMP;
  if (!t->linear) {
    int64_t i[3] = {0, 0, layered ? layer : 0};
    for (int k = 0; k < dims; k++)
      i[k] = (int64_t)floorf(u[k]);
    texel_at(&tt, data, dims, i[0], i[1], i[2], out);
    return;
  }
  int64_t i0[3] = {0, 0, layered ? layer : 0};
  int64_t n[3] = {t->width, t->height, t->depth};
  int a[3] = {0, 0, 0};
  for (int k = 0; k < dims; k++) {
    float xb = u[k] - 0.5f, fl = floorf(xb);
    i0[k] = (int64_t)fl;
    a[k] = (int)(sim_tex_weight(xb - fl) * 256.0f);
    if (clamps(&tt, k, dims) && (i0[k] < 0 || i0[k] + 1 >= n[k]))
      a[k] = 0;                        /* the H100 clamps the coordinate, so its weight is 0 */
  }
  int wgt[8];
  corner_weights(dims, a, wgt);
  /* normalised 8- and 16-bit integers are blended as integers (raw ones, read_norm off) */
  int inorm = t->kind != SIM_TEX_FLOAT && t->bits < 32 && t->read_norm;
  if (inorm)
    tt.read_norm = 0;
  struct blend acc[4];
  memset(acc, 0, sizeof acc);
  int64_t iacc[4] = {0, 0, 0, 0};
  for (int corner = 0; corner < (1 << dims); corner++) {
    int64_t i[3] = {i0[0], i0[1], i0[2]};
    for (int k = 0; k < dims; k++)
      i[k] += (corner >> k) & 1;
    uint32_t v[4];
    texel_at(&tt, data, dims, i[0], i[1], i[2], v);
    for (int ch = 0; ch < 4; ch++) {
      if (inorm)
        iacc[ch] += (int64_t)wgt[corner] * norm_raw(t, v[ch]);
      else
        blend_add(&acc[ch], (double)wgt[corner] * f32_of(v[ch]));
    }
  }
  for (int ch = 0; ch < 4; ch++) {
    if (inorm)
      out[ch] = bits_of(norm_result(t, iacc[ch]));
    else if (t->kind == SIM_TEX_FLOAT && t->bits == 16)
      out[ch] = bits_of((float)round_away(acc[ch], 11, -13));
    else
      out[ch] = bits_of((float)round_away(acc[ch], 24, -125));
  }
}

void sim_tex_gather(const struct sim_tex *t, const void *data, const uint32_t c[4], int comp,
                    uint32_t out[4])
{
  float u[3] = {0, 0, 0};
  int64_t layer;
  int norm;
  coords(t, c, u, &layer, &norm);
  int64_t i = (int64_t)floorf(u[0] - 0.5f), j = (int64_t)floorf(u[1] - 0.5f);
  static const int dx[4] = {0, 1, 1, 0}, dy[4] = {1, 1, 0, 0};   /* lower left, counter-clockwise */
  for (int k = 0; k < 4; k++) {
    uint32_t v[4];
    texel_at(t, data, 2, i + dx[k], j + dy[k], 0, v);
    out[k] = v[comp & 3];
  }
}

/* ---- the instructions ---- */

static int fault(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l, const char *msg)
{
  sim_fault_other(b, w, pc, l, SIM_FK_TRAP, msg);
  return -1;
}

/* The object lane l's handle names, checked to be of the instruction's kind, and its data on
   the host; NULL after reporting a fault. */
static const struct sim_tex *object(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l,
                                    int surface, uint8_t **data)
{
  const struct ptx_inst *in = &b->prog->code[pc];
  const struct ptx_operand *a = &in->opd[in->op == PTX_OP_SUST ? 0 : 1];
  uint64_t h = REG(a->reg)[l];
  const struct sim_tex *t = sim_tex_get(b->dev, h);
  char msg[200];
  if (!t || t->surface != surface) {
    snprintf(msg, sizeof msg, "%s on handle %llu, which is not a %s object of this launch",
             ptx_op_name((enum ptx_op)in->op), (unsigned long long)h, surface ? "surface" : "texture");
    fault(b, w, pc, l, msg);
    return NULL;
  }
  if (data) {
    const struct sim_alloc *al = sim_mem_find(b->dev, t->addr, sim_tex_span(t));
    if (!al) {
      snprintf(msg, sizeof msg, "%s: the memory of %s object %llu was freed",
               ptx_op_name((enum ptx_op)in->op), surface ? "surface" : "texture", (unsigned long long)h);
      fault(b, w, pc, l, msg);
      return NULL;
    }
    *data = al->data + (t->addr - al->base);
    if (in->op == PTX_OP_SUST)
      sim_mem_wrote(al);
    sim_redbuf_touch(b, in, al);
  }
  return t;
}

/* Lane l's coordinates of the instruction's [handle, {..}] in the order sim_tex_fetch takes
   them: x, y, z, layer (PTX puts a1d/a2d/acube's layer first). */
static void lane_coords(struct sim_block *b, struct sim_warp *w, const struct ptx_operand *a, int geom,
                        unsigned l, uint32_t c[4])
{
  uint32_t r[4] = {0, 0, 0, 0};
  for (unsigned k = 0; k < 4 && k < a->nvec; k++)
    r[k] = a->vreg[k] != PTX_NOREG ? (uint32_t)REG(a->vreg[k])[l] : 0;
  if (geom == SIM_TEX_A1D || geom == SIM_TEX_A2D || geom == SIM_TEX_ACUBE) {
    c[0] = r[1]; c[1] = geom == SIM_TEX_A1D ? 0 : r[2]; c[2] = geom == SIM_TEX_ACUBE ? r[3] : 0; c[3] = r[0];
  } else {
    c[0] = r[0]; c[1] = r[1]; c[2] = r[2]; c[3] = 0;
  }
}

/* Whether an instruction of geometry geom may use t: its own, or a2d for a surface over a
   cube map (surfCubemapread's faces are layers) */
static int tex_geom_matches(const struct sim_tex *t, int geom)
{
  return t->geom == geom || (t->surface && t->geom >= SIM_TEX_CUBE && geom == SIM_TEX_A2D);
}

static int geom_fault(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l,
                      const struct sim_tex *t)
{
  static const char *const names[] = {"1d", "2d", "3d", "a1d", "a2d", "cube", "acube"};
  const struct ptx_inst *in = &b->prog->code[pc];
  char msg[200];
  snprintf(msg, sizeof msg, "%s.%s on a %s object made for %s", ptx_op_name((enum ptx_op)in->op),
           names[in->sub % 7], t->surface ? "surface" : "texture", names[t->geom % 7]);
  return fault(b, w, pc, l, msg);
}

/* The byte offset of surface texel coordinates c (x in bytes) for an access of n bytes under
   mode: 0 with it in *off, 1 when out of range under .zero, -1 when under .trap. */
static int surf_offset(const struct sim_tex *t, const uint32_t c[4], int dims, int layered, unsigned n,
                       int mode, uint64_t *off)
{
  int64_t lim[3] = {(int64_t)t->width * sim_tex_texel_size(t) - (int64_t)n + 1, t->height, t->depth};
  int64_t v[3] = {(int32_t)c[0], dims > 1 ? (int32_t)c[1] : 0,
                  dims > 2 ? (int32_t)c[2] : layered ? (int32_t)c[3] : 0};
  for (int k = 0; k < 3; k++) {
    if (v[k] >= 0 && v[k] < lim[k])
      continue;
    if (mode == PTX_SU_ZERO)
      return 1;
    if (mode == PTX_SU_TRAP)
      return -1;
    v[k] = v[k] < 0 ? 0 : lim[k] - 1;
    if (k == 0)
      v[0] -= v[0] % n;
  }
  *off = ((uint64_t)v[2] * t->height + (uint64_t)v[1]) * t->pitch + (uint64_t)v[0];
  return 0;
}

int sim_tex_exec(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t e)
{
  const struct ptx_inst *in = &b->prog->code[pc];
  uint64_t av[SIM_MAX_WARP] = {0};
  uint32_t stat_size = 4;
  switch ((enum ptx_op)in->op) {
  case PTX_OP_TXQ:
  case PTX_OP_SUQ:
    for (uint64_t mm = e; mm; mm &= mm - 1) {
      unsigned l = sim_ctz64(mm);
      const struct sim_tex *t = object(b, w, pc, l, in->op == PTX_OP_SUQ, NULL);
      if (!t)
        return -1;
      int layered = t->geom == SIM_TEX_A1D || t->geom == SIM_TEX_A2D;
      uint32_t v = 0;
      switch ((enum ptx_texquery)in->sub) {
      case PTX_TXQ_WIDTH: v = t->width; break;
      case PTX_TXQ_HEIGHT: v = t->geom == SIM_TEX_A1D ? 1 : t->height; break;
      case PTX_TXQ_DEPTH: v = t->geom == SIM_TEX_3D ? t->depth : 1; break;
      case PTX_TXQ_ARRAY_SIZE: v = layered ? t->depth : 1; break;
      case PTX_TXQ_NORMALIZED_COORDS: v = t->norm_coords; break;
      case PTX_TXQ_FILTER_MODE: v = t->linear; break;
      case PTX_TXQ_ADDR_MODE_0: v = t->addr_mode[0]; break;
      case PTX_TXQ_ADDR_MODE_1: v = t->addr_mode[1]; break;
      case PTX_TXQ_ADDR_MODE_2: v = t->addr_mode[2]; break;
      case PTX_TXQ_NUM_MIPMAP_LEVELS: v = 1; break;
      case PTX_TXQ_NUM_SAMPLES: v = 1; break;
      }
      if (in->opd[0].reg != PTX_NOREG)
        REG(in->opd[0].reg)[l] = v;
    }
    return 0;
  case PTX_OP_TEX:
  case PTX_OP_TLD4:
    for (uint64_t mm = e; mm; mm &= mm - 1) {
      unsigned l = sim_ctz64(mm);
      uint8_t *data;
      const struct sim_tex *t = object(b, w, pc, l, 0, &data);
      if (!t)
        return -1;
      if (!tex_geom_matches(t, in->sub))
        return geom_fault(b, w, pc, l, t);
      if ((in->type == PTX_T_F32) != float_results(t)) {
        char msg[200];
        snprintf(msg, sizeof msg, "%s.%s on a texture that reads as %s (its format and read mode)",
                 ptx_op_name((enum ptx_op)in->op), ptx_type_name((enum ptx_type)in->type),
                 float_results(t) ? "floats" : "integers");
        return fault(b, w, pc, l, msg);
      }
      uint32_t c[4], out[4];
      lane_coords(b, w, &in->opd[1], in->sub, l, c);
      if (in->op == PTX_OP_TLD4)
        sim_tex_gather(t, data, c, in->cmp, out);
      else
        sim_tex_fetch(t, data, c, in->type2 != PTX_T_F32, out);
      for (unsigned k = 0; k < 4; k++)
        if (in->opd[0].vreg[k] != PTX_NOREG)
          REG(in->opd[0].vreg[k])[l] = out[k];
      av[l] = t->addr;
      stat_size = sim_tex_texel_size(t);
    }
    sim_stats_mem(b, pc, PTX_SP_GLOBAL, av, e, stat_size, 0);
    return 0;
  case PTX_OP_SULD:
  case PTX_OP_SUST: {
    int st = in->op == PTX_OP_SUST;
    const struct ptx_operand *a = &in->opd[st ? 0 : 1], *v = &in->opd[st ? 1 : 0];
    unsigned es = ptx_type_size((enum ptx_type)in->type), n = in->vec ? in->vec : 1;
    int dims = in->sub == SIM_TEX_3D ? 3 : in->sub == SIM_TEX_2D || in->sub == SIM_TEX_A2D ? 2 : 1;
    int layered = in->sub == SIM_TEX_A1D || in->sub == SIM_TEX_A2D;
    for (uint64_t mm = e; mm; mm &= mm - 1) {
      unsigned l = sim_ctz64(mm);
      uint8_t *data;
      const struct sim_tex *t = object(b, w, pc, l, 1, &data);
      if (!t)
        return -1;
      if (!tex_geom_matches(t, in->sub))
        return geom_fault(b, w, pc, l, t);
      uint32_t c[4];
      uint64_t off = 0;
      lane_coords(b, w, a, in->sub, l, c);
      int r = surf_offset(t, c, dims, layered, es * n, in->cmp, &off);
      if (r < 0 || (r == 0 && off % (es * n))) {
        char msg[240];
        snprintf(msg, sizeof msg, "%s: %s surface coordinates (%d bytes, %d, %d) of a %ux%ux%u surface of "
                 "%u-byte texels (x is in bytes)", ptx_op_name((enum ptx_op)in->op),
                 r < 0 ? "out-of-range" : "misaligned", (int32_t)c[0], (int32_t)c[1], (int32_t)c[2],
                 t->width, t->height, t->depth, sim_tex_texel_size(t));
        return fault(b, w, pc, l, msg);
      }
      uint8_t *p = data + off;
      for (unsigned k = 0; k < n; k++) {
        uint32_t reg = v->kind == PTX_OPD_VEC ? v->vreg[k] : v->reg;
        if (st) {
          uint64_t bits = reg != PTX_NOREG ? REG(reg)[l] : 0;
          if (r == 0)
            memcpy(p + k * es, &bits, es);
        } else if (reg != PTX_NOREG) {
          uint64_t bits = 0;
          if (r == 0)
            memcpy(&bits, p + k * es, es);
          REG(reg)[l] = bits;
        }
      }
      if (st && r == 0) {
        b->worker->global_writes++;
        b->writes++;
      }
      av[l] = t->addr + off;
    }
    sim_stats_mem(b, pc, PTX_SP_GLOBAL, av, e, es * n, 0);
    return 0;
  }
  default:
    return 0;
  }
}
