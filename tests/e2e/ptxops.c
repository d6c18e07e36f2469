/* ptxops.c: end-to-end tests of the PTX that nvcc emits for sm_80/sm_90 code beyond plain
 * arithmetic (tests/e2e/kernels/ptxops.cu), and of per-kernel refusal (two_kernels.cu).
 *
 * Every expected value is recomputed here from the PTX ISA's definition of the instruction,
 * not from the emulator's code: the byte permutes from the ISA's mode tables, the bit-field
 * and mask instructions from its pseudo-code, f16/bf16 results by exact arithmetic on the
 * operands' values followed by one rounding to the format (round_to below), reductions and
 * matches over each warp's lanes, and the atomics from order-independent results (sums,
 * minima, a multiset of exchanged values). Comparisons are bit for bit. The kernels are plain
 * .cu files that a GPU runs as they are, to prove the same results on hardware later.
 */
#include <check.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

#define A "--arg"
#define PTXOPS_TIMEOUT_S 300
#define BITS_N 33
#define WARP_N 14
#define HALF_N 33

static const char *dump_arg(int idx, const char *path)
{
  return e2e_fmt("%d=%s", idx, path);
}

static const char *file_arg(const char *type, size_t n, const char *path)
{
  return e2e_fmt("%sbuf:%zu:file=%s", type, n, path);
}

/* ---- one rounding of an exact value to a binary format ---- */

enum rmode { RM_RN, RM_RZ, RM_RD, RM_RU };

/* An exact value: (-1)^neg * mag * 2^e. */
struct exact {
  int neg;
  unsigned __int128 mag;
  int e;
};

static int top_bit(unsigned __int128 v)
{
  int n = -1;
  while (v) {
    v >>= 1;
    n++;
  }
  return n;
}

/* The bits of x rounded by mode to the format with ebits exponent bits and p significant bits
   (the hidden one included): subnormals, overflow to infinity or the largest finite value as
   the mode says, ties to even for RM_RN. */
static uint32_t round_to(struct exact x, int ebits, int p, enum rmode mode)
{
  int bias = (1 << (ebits - 1)) - 1, emin = 1 - bias;
  uint32_t sign = (uint32_t)x.neg << (ebits + p - 1);
  uint32_t inf = ((1u << ebits) - 1) << (p - 1), maxf = inf - 1;
  if (x.mag == 0)
    return sign;
  int lead = top_bit(x.mag) + x.e, qe = lead - (p - 1);
  if (qe < emin - (p - 1))
    qe = emin - (p - 1);
  unsigned __int128 n;
  int rbit = 0, sticky = 0;
  if (qe <= x.e) {
    n = x.mag << (x.e - qe);
  } else {
    int sh = qe - x.e;
    if (sh > 128) {
      n = 0;
      sticky = 1;
    } else if (sh == 128) {
      n = 0;
      rbit = (int)(x.mag >> 127);
      sticky = (x.mag << 1) != 0;
    } else {
      n = x.mag >> sh;
      rbit = (int)((x.mag >> (sh - 1)) & 1);
      sticky = sh > 1 && (x.mag & (((unsigned __int128)1 << (sh - 1)) - 1)) != 0;
    }
  }
  int inexact = rbit || sticky;
  if ((mode == RM_RN && rbit && (sticky || (n & 1))) || (mode == RM_RD && x.neg && inexact) ||
      (mode == RM_RU && !x.neg && inexact))
    n++;
  if (n == (unsigned __int128)1 << p) {
    n >>= 1;
    qe++;
  }
  uint32_t biased, mant;
  if (n < (unsigned __int128)1 << (p - 1)) {
    biased = 0;
    mant = (uint32_t)n;
  } else {
    biased = (uint32_t)(qe + (p - 1) + bias);
    mant = (uint32_t)(n - ((unsigned __int128)1 << (p - 1)));
  }
  if (qe + (p - 1) + bias >= (1 << ebits) - 1) {
    int to_inf = mode == RM_RN || (mode == RM_RU && !x.neg) || (mode == RM_RD && x.neg);
    return sign | (to_inf ? inf : maxf);
  }
  return sign | biased << (p - 1) | mant;
}

/* The exact value of a binary floating-point bit pattern (finite). */
static struct exact decode(uint64_t bits, int ebits, int p)
{
  struct exact x;
  int bias = (1 << (ebits - 1)) - 1;
  uint64_t mant = bits & ((1ull << (p - 1)) - 1);
  int be = (int)((bits >> (p - 1)) & ((1u << ebits) - 1));
  x.neg = (int)((bits >> (ebits + p - 1)) & 1);
  x.mag = be ? mant | (1ull << (p - 1)) : mant;
  x.e = (be ? be : 1) - bias - (p - 1);
  return x;
}

#define F16 5, 11
#define BF16 8, 8
#define F32 8, 24
#define F64 11, 53

static double value_of(struct exact x)
{
  return (x.neg ? -1.0 : 1.0) * ldexp((double)x.mag, x.e);
}

/* x + y, exactly, for the values of formats up to 26 significant bits: an operand whose
   leading bit is more than 64 below the other's stands in as one unit far below the larger
   one's last bit, which changes no rounding (only its sign matters there). */
static struct exact exact_add(struct exact x, struct exact y)
{
  if (y.mag == 0) {
    if (x.mag == 0)
      x.neg = x.neg && y.neg;
    return x;
  }
  if (x.mag == 0)
    return y;
  if (top_bit(x.mag) + x.e < top_bit(y.mag) + y.e) {
    struct exact t = x;
    x = y;
    y = t;
  }
  if (top_bit(x.mag) + x.e - (top_bit(y.mag) + y.e) > 64) {
    x.mag <<= 66;
    x.e -= 66;
    y.mag = 1;
    y.e = x.e;
  }
  int e = x.e < y.e ? x.e : y.e;
  unsigned __int128 ma = x.mag << (x.e - e), mb = y.mag << (y.e - e);
  struct exact r = {0, 0, e};
  if (x.neg == y.neg) {
    r.neg = x.neg;
    r.mag = ma + mb;
  } else if (ma >= mb) {
    r.neg = x.neg;
    r.mag = ma - mb;
  } else {
    r.neg = y.neg;
    r.mag = mb - ma;
  }
  if (r.mag == 0)
    r.neg = 0;
  return r;
}

static struct exact exact_mul(struct exact x, struct exact y)
{
  struct exact r = {x.neg != y.neg, x.mag * y.mag, x.e + y.e};
  return r;
}

static struct exact negated(struct exact x)
{
  x.neg = !x.neg;
  return x;
}

static struct exact from_int(int64_t v)
{
  struct exact x = {v < 0, (unsigned __int128)(v < 0 ? -(uint64_t)v : (uint64_t)v), 0};
  return x;
}

/* f16 (or bf16) arithmetic: the exact result of op on the operands, rounded once (RN). */
static uint32_t h_add(uint32_t a, uint32_t b, int bf)
{
  return bf ? round_to(exact_add(decode(a, BF16), decode(b, BF16)), BF16, RM_RN)
            : round_to(exact_add(decode(a, F16), decode(b, F16)), F16, RM_RN);
}

static uint32_t h_mul(uint32_t a, uint32_t b, int bf)
{
  return bf ? round_to(exact_mul(decode(a, BF16), decode(b, BF16)), BF16, RM_RN)
            : round_to(exact_mul(decode(a, F16), decode(b, F16)), F16, RM_RN);
}

static uint32_t h_fma(uint32_t a, uint32_t b, uint32_t c, int bf)
{
  return bf ? round_to(exact_add(exact_mul(decode(a, BF16), decode(b, BF16)), decode(c, BF16)),
                       BF16, RM_RN)
            : round_to(exact_add(exact_mul(decode(a, F16), decode(b, F16)), decode(c, F16)),
                       F16, RM_RN);
}

/* The same on both halves of a packed pair. */
static uint32_t h2(uint32_t (*f)(uint32_t, uint32_t, int), uint32_t a, uint32_t b, int bf)
{
  return f(a & 0xffff, b & 0xffff, bf) | f(a >> 16, b >> 16, bf) << 16;
}

static uint32_t f32_bits(float f)
{
  return e2e_f32_bits(f);
}

/* The reference itself, on cases worked by hand from the formats' definitions. */
START_TEST(round_to_known_values)
{
  /* 1 + 2^-11 is halfway between 1 and the next f16: ties to even */
  struct exact x = {0, 2049, -11};
  ck_assert_uint_eq(round_to(x, F16, RM_RN), 0x3c00);
  ck_assert_uint_eq(round_to(x, F16, RM_RU), 0x3c01);
  x.mag = 2051;                                          /* 1 + 3 * 2^-11: up to even */
  ck_assert_uint_eq(round_to(x, F16, RM_RN), 0x3c02);
  x = from_int(65520);                                   /* max + half an ulp: infinity */
  ck_assert_uint_eq(round_to(x, F16, RM_RN), 0x7c00);
  ck_assert_uint_eq(round_to(x, F16, RM_RZ), 0x7bff);
  x = from_int(-65520);
  ck_assert_uint_eq(round_to(x, F16, RM_RD), 0xfc00);
  ck_assert_uint_eq(round_to(x, F16, RM_RU), 0xfbff);
  struct exact sub = {0, 1, -25};                        /* half the smallest f16, 2^-24: tie */
  ck_assert_uint_eq(round_to(sub, F16, RM_RN), 0x0000);
  ck_assert_uint_eq(round_to(sub, F16, RM_RU), 0x0001);
  sub.mag = 3;
  sub.e = -25;                                           /* 1.5 * 2^-24: tie, to even (2^-23) */
  ck_assert_uint_eq(round_to(sub, F16, RM_RN), 0x0002);
  ck_assert_uint_eq(round_to(decode(0x3f800000u, F32), BF16, RM_RN), 0x3f80);
  ck_assert_uint_eq(round_to(decode(0x3f808000u, F32), BF16, RM_RN), 0x3f80);  /* tie, even */
  ck_assert_uint_eq(round_to(decode(0x3f818000u, F32), BF16, RM_RN), 0x3f82);
  ck_assert_uint_eq(round_to(decode(f32_bits(0.1f), F32), F32, RM_RN), f32_bits(0.1f));
  /* an addend far below the other operand rounds as its sign says */
  struct exact one = from_int(1), tiny = {1, 1, -200};
  ck_assert_uint_eq(round_to(exact_add(one, tiny), F16, RM_RN), 0x3c00);
  ck_assert_uint_eq(round_to(exact_add(one, tiny), F16, RM_RZ), 0x3bff);
  ck_assert_uint_eq(round_to(exact_add(one, negated(tiny)), F16, RM_RU), 0x3c01);
}
END_TEST

/* ---- bit_ops ---- */

static uint32_t byte_of(uint32_t a, uint32_t b, unsigned k)
{
  uint64_t ab = ((uint64_t)b << 32) | a;
  return (uint32_t)(ab >> (8 * (k & 7))) & 0xff;
}

/* prmt.b32.mode d, a, b, c: the ISA's table of the byte each mode takes for result byte k. */
static uint32_t prmt_ref(uint32_t a, uint32_t b, uint32_t c, int mode)
{
  uint32_t d = 0, n = c & 3;
  for (unsigned k = 0; k < 4; k++) {
    uint32_t v;
    if (mode == 0) {
      uint32_t s = (c >> (4 * k)) & 0xf;
      v = byte_of(a, b, s & 7);
      if (s & 8)
        v = (v & 0x80) ? 0xff : 0;
    } else {
      unsigned src = 0;
      switch (mode) {
      case 1: src = (n + k) & 7; break;                      /* f4e */
      case 2: src = (n - k) & 7; break;                      /* b4e */
      case 3: src = n; break;                                /* rc8 */
      case 4: src = k > n ? k : n; break;                    /* ecl */
      case 5: src = k < n ? k : n; break;                    /* ecr */
      default: src = 2 * (n & 1) + (k & 1); break;          /* rc16 */
      }
      v = byte_of(a, b, src);
    }
    d |= v << (8 * k);
  }
  return d;
}

static uint64_t bfe_ref(uint64_t a, unsigned bits, int sgn, uint32_t pos, uint32_t len)
{
  unsigned msb = bits - 1;
  pos &= 0xff;
  len &= 0xff;
  uint64_t sbit = 0;
  if (sgn && len)
    sbit = (a >> (pos + len - 1 < msb ? pos + len - 1 : msb)) & 1;
  uint64_t d = 0;
  for (unsigned i = 0; i <= msb; i++) {
    uint64_t bit = (i < len && pos + i <= msb) ? (a >> (pos + i)) & 1 : sbit;
    d |= bit << i;
  }
  return d;
}

static uint32_t bfi_ref(uint32_t a, uint32_t b, uint32_t pos, uint32_t len)
{
  uint32_t f = b;
  pos &= 0xff;
  len &= 0xff;
  for (uint32_t i = 0; i < len && pos + i <= 31; i++)
    f = (f & ~(1u << (pos + i))) | (((a >> i) & 1) << (pos + i));
  return f;
}

static uint64_t brev_ref(uint64_t v, unsigned bits)
{
  uint64_t r = 0;
  for (unsigned i = 0; i < bits; i++)
    r |= ((v >> i) & 1) << (bits - 1 - i);
  return r;
}

/* bmsk: bits a .. a+b-1 set, per the ISA's pseudo-code for both modes */
static uint32_t bmsk_ref(int clamp, uint32_t a, uint32_t b)
{
  uint32_t a1 = a & 31, b1 = b & 31, d = 0;
  if (clamp && a >= 32)
    return 0;
  uint32_t width = clamp && b >= 32 ? 32 : b1;
  for (uint32_t i = a1; i < 32 && i < a1 + width; i++)
    d |= 1u << i;
  return d;
}

/* szext: the low N bits of a, N = b mod 32 (wrap) or min(b, 32) (clamp), extended */
static uint32_t szext_ref(int clamp, int sgn, uint32_t a, uint32_t b)
{
  uint32_t nb = clamp ? (b > 32 ? 32 : b) : (b & 31);
  if (nb == 0)
    return 0;
  if (nb == 32)
    return a;
  uint32_t low = a & ((1u << nb) - 1);
  if (sgn && (low >> (nb - 1)) & 1)
    low |= ~((1u << nb) - 1);
  return low;
}

static int32_t lane8(uint32_t v, unsigned k, int sgn)
{
  uint32_t b = (v >> (8 * k)) & 0xff;
  return sgn ? (int32_t)(int8_t)b : (int32_t)b;
}

static int32_t lane16(uint32_t v, unsigned k, int sgn)
{
  uint32_t h = (v >> (16 * k)) & 0xffff;
  return sgn ? (int32_t)(int16_t)h : (int32_t)h;
}

static uint32_t dp4a_ref(uint32_t a, int as, uint32_t b, int bs, uint32_t c)
{
  int64_t s = (int32_t)c;
  for (unsigned k = 0; k < 4; k++)
    s += (int64_t)lane8(a, k, as) * lane8(b, k, bs);
  return (uint32_t)s;
}

static uint32_t dp2a_ref(uint32_t a, int as, uint32_t b, int bs, uint32_t c, int hi)
{
  int64_t s = (int32_t)c;
  for (unsigned k = 0; k < 2; k++)
    s += (int64_t)lane16(a, k, as) * lane8(b, k + (hi ? 2u : 0u), bs);
  return (uint32_t)s;
}

/* fns: the position of the |offset|-th set bit from base, going up or down */
static uint32_t fns_ref(uint32_t mask, uint32_t base, int32_t offset)
{
  if (offset == 0)
    return (mask >> base) & 1 ? base : 0xffffffffu;
  int step = offset > 0 ? 1 : -1, left = offset > 0 ? offset : -offset;
  for (int pos = (int)base; pos >= 0 && pos < 32; pos += step)
    if ((mask >> pos) & 1 && --left == 0)
      return (uint32_t)pos;
  return 0xffffffffu;
}

static void bit_ops_ref(uint32_t x, uint32_t y, uint32_t z, uint32_t *o)
{
  for (int m = 0; m <= 6; m++)
    o[m] = prmt_ref(x, y, z, m);
  o[7] = (uint32_t)bfe_ref(x, 32, 0, y & 63, z & 63);
  o[8] = (uint32_t)bfe_ref(x, 32, 1, y & 63, z & 63);
  o[9] = bfi_ref(x, y, z & 63, (z >> 8) & 63);
  o[10] = (uint32_t)brev_ref(x, 32);
  uint64_t w = ((uint64_t)x << 32) | y, wr = brev_ref(w, 64);
  o[11] = (uint32_t)wr;
  o[12] = (uint32_t)(wr >> 32);
  o[13] = bmsk_ref(1, x & 63, y & 63);
  o[14] = bmsk_ref(0, x & 63, y & 63);
  o[15] = szext_ref(1, 1, x, y & 63);
  o[16] = szext_ref(0, 0, x, y & 63);
  o[17] = dp4a_ref(x, 1, y, 1, z);
  o[18] = dp4a_ref(x, 0, y, 0, z);
  o[19] = dp4a_ref(x, 1, y, 0, z);
  o[20] = dp2a_ref(x, 1, y, 1, z, 0);
  o[21] = dp2a_ref(x, 0, y, 0, z, 1);
  o[22] = fns_ref(x, y & 31, (int32_t)(z % 65u) - 32);
  uint64_t f = bfe_ref(w, 64, 1, z & 127, (z >> 8) & 127);
  o[23] = (uint32_t)f ^ (uint32_t)(f >> 32);
  o[24] = ((x >> 16 & 0xffu) << 24) | ((y >> 8 & 0xffu) << 16) | ((x & 0xffu) << 8) | (z >> 24);
  o[25] = (x & 0xfffff00fu) | (((y >> 3) & 0xffu) << 4);
  o[26] = prmt_ref(x, y, z & 0x7777u, 0);                /* __byte_perm uses 3 bits a byte */
  o[27] = o[28] = o[29] = 0;
  for (unsigned k = 0; k < 4; k++) {                     /* SIMD video: per-byte |x - y| */
    uint32_t xb = (x >> (8 * k)) & 0xff, yb = (y >> (8 * k)) & 0xff, t = xb > yb ? xb - yb : yb - xb;
    o[27] |= t << (8 * k);
    o[28] += t;
  }
  for (unsigned k = 0; k < 2; k++) {                     /* and per 16-bit half, summed */
    uint32_t xh = (x >> (16 * k)) & 0xffff, yh = (y >> (16 * k)) & 0xffff;
    o[29] += xh > yh ? xh - yh : yh - xh;
  }
  o[30] = o[31] = o[32] = 0;
  for (unsigned k = 0; k < 2; k++) {                     /* packed 16-bit halves */
    uint32_t xh = (x >> (16 * k)) & 0xffff, yh = (y >> (16 * k)) & 0xffff;
    int32_t sx = (int16_t)xh, sy = (int16_t)yh, ss = sx + sy;
    ss = ss > 32767 ? 32767 : ss < -32768 ? -32768 : ss;
    o[30] |= ((xh + yh) & 0xffff) << (16 * k);
    o[31] |= ((uint32_t)(sx < sy ? sx : sy) & 0xffff) << (16 * k);
    o[32] |= ((uint32_t)ss & 0xffff) << (16 * k);
  }
}

START_TEST(bit_ops_match_the_isa)
{
  const size_t n = 512, m = n * BITS_N;
  uint32_t *a = e2e_rand_u32(n, 401), *b = e2e_rand_u32(n, 402), *c = e2e_rand_u32(n, 403);
  /* edges: positions and widths of 0, 31, 32 and past, offsets of 0 and +-32 */
  static const uint32_t edge[][3] = {
    {0, 0, 0},           {0xffffffffu, 32, 32},     {0x80000000u, 31, 0x2001},
    {0x12345678u, 0, 0x0020}, {0xdeadbeefu, 63, 0x3f3f}, {31, 33, 0x40},
    {32, 1, 0x7f7f},     {0xaaaaaaaau, 2, 31},     {0xaaaaaaaau, 3, 33},
    {0x7f80ff01u, 0x8081fe7fu, 0x76543210u},         {0x01020304u, 0xfffefdfcu, 0xba98fedcu},
  };
  for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) {
    a[i] = edge[i][0];
    b[i] = edge[i][1];
    c[i] = edge[i][2];
  }
  uint32_t *want = e2e_alloc(m * 4);
  for (size_t i = 0; i < n; i++)
    bit_ops_ref(a[i], b[i], c[i], want + i * BITS_N);
  const char *pa = e2e_write("a.bin", a, n * 4), *pb = e2e_write("b.bin", b, n * 4),
             *pc = e2e_write("c.bin", c, n * 4), *pout = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(e2e_kernel("ptxops.cu"), "--kernel", "bit_ops", "--grid", "4",
                              "--block", "128", A, file_arg("u32", n, pa), A, file_arg("u32", n, pb),
                              A, file_arg("u32", n, pc), A, e2e_fmt("u32buf:%zu:zero", m), A,
                              e2e_fmt("i32:%zu", n), "--dump", dump_arg(3, pout), "--json", NULL);
  e2e_expect_ok(r);
  uint32_t *got = e2e_read(pout, m * 4);
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < BITS_N; k++)
      ck_assert_msg(got[i * BITS_N + k] == want[i * BITS_N + k],
                    "bit_ops o[%d] for a=0x%08x b=0x%08x c=0x%08x: got 0x%08x, expected 0x%08x "
                    "(see o[%d] in ptxops.cu)", k, a[i], b[i], c[i], got[i * BITS_N + k],
                    want[i * BITS_N + k], k);
}
END_TEST

/* ---- warp_ops ---- */

START_TEST(warp_reductions_and_matches)
{
  const size_t n = 256, m = n * WARP_N;
  uint32_t *a = e2e_rand_u32(n, 501);
  /* warp 2 draws from few values, so that matches find groups and all-equal halves */
  for (size_t i = 64; i < 96; i++)
    a[i] &= 0x80000003u;
  uint32_t *want = e2e_alloc(m * 4);
  for (size_t w0 = 0; w0 < n; w0 += 32) {
    const uint32_t *v = a + w0;
    uint32_t sum = 0, umin = UINT32_MAX, umax = 0, andv = ~0u, orv = 0, xorv = 0, part = 0;
    int32_t smin = INT32_MAX, smax = INT32_MIN;
    for (unsigned l = 0; l < 32; l++) {
      sum += v[l];
      umin = v[l] < umin ? v[l] : umin;
      umax = v[l] > umax ? v[l] : umax;
      smin = (int32_t)v[l] < smin ? (int32_t)v[l] : smin;
      smax = (int32_t)v[l] > smax ? (int32_t)v[l] : smax;
      andv &= v[l] | 0x0f0f0f0fu;
      orv |= v[l] & 0x80808081u;
      xorv ^= v[l];
      if (l < 20)
        part += v[l] >> 4;
    }
    int odd = (w0 >> 5) & 1, all_same = 1;
    for (unsigned l = 1; l < 32; l++)
      all_same &= !odd || (v[l] & 1) == (v[0] & 1);
    for (unsigned l = 0; l < 32; l++) {
      uint32_t *o = want + (w0 + l) * WARP_N, m8 = 0, m64 = 0;
      for (unsigned k = 0; k < 32; k++) {
        m8 |= (uint32_t)((v[k] & 7) == (v[l] & 7)) << k;
        m64 |= (uint32_t)((v[k] & 3) == (v[l] & 3)) << k;
      }
      o[0] = sum;
      o[1] = umin;
      o[2] = (uint32_t)smin;
      o[3] = umax;
      o[4] = (uint32_t)smax;
      o[5] = andv;
      o[6] = orv;
      o[7] = xorv;
      o[8] = l < 20 ? part : 0;
      o[9] = m8;
      o[10] = m64;
      o[11] = all_same ? 0xffffffffu : 0;
      o[12] = (uint32_t)all_same;
      o[13] = (uint32_t)(n - (w0 + l));
    }
  }
  const char *pa = e2e_write("a.bin", a, n * 4), *pout = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(e2e_kernel("ptxops.cu"), "--kernel", "warp_ops", "--grid", "2",
                              "--block", "128", A, file_arg("u32", n, pa), A,
                              e2e_fmt("u32buf:%zu:zero", m), A, e2e_fmt("i32:%zu", n), "--dump",
                              dump_arg(1, pout), "--json", NULL);
  e2e_expect_ok(r);
  uint32_t *got = e2e_read(pout, m * 4);
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < WARP_N; k++)
      ck_assert_msg(got[i * WARP_N + k] == want[i * WARP_N + k],
                    "warp_ops o[%d] of thread %zu (a=0x%08x): got 0x%08x, expected 0x%08x", k, i,
                    a[i], got[i * WARP_N + k], want[i * WARP_N + k]);
}
END_TEST

/* ---- half_ops ---- */

/* A random finite f16 pattern (subnormals and zeros included). */
static uint32_t rand_half(uint64_t *s)
{
  uint64_t x = e2e_splitmix64(s);
  uint32_t exp = (uint32_t)(x >> 20) % 31u, mant = (uint32_t)x & 0x3ff, sign = (uint32_t)(x >> 40) & 1;
  return sign << 15 | exp << 10 | mant;
}

static void half_ops_ref(uint32_t a, uint32_t b, uint32_t c, float x, uint32_t *o)
{
  uint32_t ha = a & 0xffff, hb = b & 0xffff, hc = c & 0xffff;
  struct exact fx = decode(f32_bits(x), F32);
  o[0] = h_add(ha, hb, 0);
  o[1] = h_add(ha, hb ^ 0x8000, 0);
  o[2] = h_mul(ha, hb, 0);
  o[3] = h_fma(ha, hb, hc, 0);
  o[4] = h2(h_add, a, b, 0);
  o[5] = h2(h_mul, a, b, 0);
  o[6] = h_fma(ha, hb, hc, 0) | h_fma(a >> 16, b >> 16, c >> 16, 0) << 16;
  o[7] = round_to(fx, F16, RM_RN);
  o[8] = round_to(fx, F16, RM_RZ);
  o[9] = round_to(fx, F16, RM_RD);
  o[10] = round_to(fx, F16, RM_RU);
  o[11] = round_to(fx, BF16, RM_RN);
  o[12] = round_to(fx, BF16, RM_RZ);
  o[13] = round_to(fx, BF16, RM_RD);
  o[14] = round_to(fx, BF16, RM_RU);
  o[15] = round_to(decode(ha, F16), F32, RM_RN);
  o[16] = (a & 0xffff) << 16;                            /* bf16 -> f32 is exact */
  o[17] = h_add(ha, hb, 1);
  o[18] = h_mul(ha, hb, 1);
  o[19] = h_fma(ha, hb, hc, 1);
  o[20] = h2(h_add, a, b, 1);
  o[21] = h_fma(ha, hb, hc, 1) | h_fma(a >> 16, b >> 16, c >> 16, 1) << 16;
  double d = (double)x + (double)x * 0x1p-40;
  uint64_t db;
  memcpy(&db, &d, 8);
  o[22] = round_to(decode(db, F64), F16, RM_RN);
  o[23] = (uint32_t)(int32_t)nearbyint(value_of(decode(ha, F16)));
  o[24] = round_to(from_int((int32_t)c >> 12), F16, RM_RN);
  float x3 = -3.0f * x;
  o[25] = round_to(fx, F16, RM_RN) | round_to(decode(f32_bits(x3), F32), F16, RM_RN) << 16;
  double va = value_of(decode(ha, F16)), vb = value_of(decode(hb, F16)), vc = value_of(decode(hc, F16));
  o[26] = (uint32_t)(va < vb) | (uint32_t)(va >= vc) << 1;
  o[27] = a & 0x7fff7fffu;
  o[28] = va >= vb ? ha : hb;                            /* no NaN operands, no +-0 pairs */
  o[29] = va <= vb ? ha : hb;
  o[30] = (uint32_t)(int32_t)trunc(va);
  o[31] = round_to(from_int(c & 0xffff), F16, RM_RN);
  o[32] = (a & 0xffff) << 16;                            /* mov.b32 {0, h}: h is the high half */
}

START_TEST(half_arithmetic_and_conversions)
{
  const size_t n = 512, m = n * HALF_N;
  uint32_t *a = e2e_alloc(n * 4), *b = e2e_alloc(n * 4), *c = e2e_alloc(n * 4);
  float *f = e2e_alloc(n * 4);
  uint64_t s = 601;
  for (size_t i = 0; i < n; i++) {
    a[i] = rand_half(&s) | rand_half(&s) << 16;
    b[i] = rand_half(&s) | rand_half(&s) << 16;
    c[i] = rand_half(&s) | rand_half(&s) << 16;
    /* floats around the f16 range: exponents -30 .. 17, every mantissa */
    uint64_t x = e2e_splitmix64(&s);
    uint32_t bits = (uint32_t)(x >> 63) << 31 | (uint32_t)(127 - 30 + (x >> 32) % 48u) << 23 |
                    ((uint32_t)x & 0x7fffff);
    memcpy(&f[i], &bits, 4);
  }
  /* ties and thresholds of both formats, and values that cancel */
  static const float edge_f[] = {
    1.0f + 0x1p-11f, 1.0f + 0x3p-11f, -(1.0f + 0x1p-11f), 65504.0f, 65519.0f, 65520.0f,
    -65520.0f, 0x1p-25f, 0x3p-25f, 0x1p-24f, 0x1.8p-24f, -0x1p-25f, 1.0f + 0x1p-8f,
    1.0f + 0x3p-8f, 0x1.fffffep+127f, 0.0f, -0.0f, 1e-30f,
  };
  for (size_t i = 0; i < sizeof edge_f / sizeof edge_f[0]; i++)
    f[i] = edge_f[i];
  a[0] = 0x3c00bc00u;                                    /* 1, -1 */
  b[0] = 0xbc003c00u;                                    /* -1, 1: exact cancellation */
  a[1] = 0x7bff7bffu;                                    /* max + max: overflow */
  b[1] = 0x7bff0001u;
  a[2] = 0x00010001u;                                    /* subnormals */
  b[2] = 0x80020003u;
  c[2] = 0x03ff8001u;
  uint32_t *want = e2e_alloc(m * 4);
  for (size_t i = 0; i < n; i++)
    half_ops_ref(a[i], b[i], c[i], f[i], want + i * HALF_N);
  const char *pa = e2e_write("a.bin", a, n * 4), *pb = e2e_write("b.bin", b, n * 4),
             *pc = e2e_write("c.bin", c, n * 4), *pf = e2e_write("f.bin", f, n * 4),
             *pout = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(e2e_kernel("ptxops.cu"), "--kernel", "half_ops", "--grid", "4",
                              "--block", "128", A, file_arg("u32", n, pa), A, file_arg("u32", n, pb),
                              A, file_arg("u32", n, pc), A, file_arg("f32", n, pf), A,
                              e2e_fmt("u32buf:%zu:zero", m), A, e2e_fmt("i32:%zu", n), "--dump",
                              dump_arg(4, pout), "--json", NULL);
  e2e_expect_ok(r);
  uint32_t *got = e2e_read(pout, m * 4);
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < HALF_N; k++)
      ck_assert_msg(got[i * HALF_N + k] == want[i * HALF_N + k],
                    "half_ops o[%d] for a=0x%08x b=0x%08x c=0x%08x f=%a: got 0x%08x, expected "
                    "0x%08x (see o[%d] in ptxops.cu)", k, a[i], b[i], c[i], (double)f[i],
                    got[i * HALF_N + k], want[i * HALF_N + k], k);
}
END_TEST

/* ---- atomic_ops ---- */

static int cmp_u64(const void *x, const void *y)
{
  uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
  return a < b ? -1 : a > b;
}

START_TEST(atomics_of_every_width)
{
  const size_t n = 512;
  const unsigned block = 128;
  uint32_t *a = e2e_rand_u32(n, 701), *b = e2e_rand_u32(n, 702);
  uint64_t u64[9] = {0, 0, UINT64_MAX, UINT64_MAX, 0, 0, 0, 0x5eed, 0};
  int64_t s64[2] = {INT64_MIN, INT64_MAX};
  const char *pa = e2e_write("a.bin", a, n * 4), *pb = e2e_write("b.bin", b, n * 4);
  const char *pu = e2e_write("u64.bin", u64, sizeof u64), *ps = e2e_write("s64.bin", s64, sizeof s64);
  const char *out[16];
  for (int k = 2; k < 16; k++)
    out[k] = e2e_tmp(e2e_fmt("out%d.bin", k));
  struct e2e_run *r = e2e_emu(
      e2e_kernel("ptxops.cu"), "--kernel", "atomic_ops", "--grid", e2e_fmt("%zu", n / block),
      "--block", e2e_fmt("%u", block), A, file_arg("u32", n, pa), A, file_arg("u32", n, pb), A,
      file_arg("u64", 9, pu), A, file_arg("i64", 2, ps), A, "f64buf:2:zero", A, "u8buf:8:zero",
      A, "u8buf:8:zero", A, "u8buf:8:zero", A, "u8buf:16:zero", A, "u8buf:32:zero", A,
      "u32buf:1:zero", A, e2e_fmt("u32buf:%zu:zero", n), A, e2e_fmt("u64buf:%zu:zero", n), A,
      "f32buf:4:zero", A, "f32buf:2:zero", A, e2e_fmt("f32buf:%zu:zero", n), A,
      e2e_fmt("i32:%zu", n), "--dump", dump_arg(13, out[13]), "--dump", dump_arg(14, out[14]),
      "--dump", dump_arg(15, out[15]), "--dump", dump_arg(2, out[2]), "--dump", dump_arg(3, out[3]),
      "--dump", dump_arg(4, out[4]), "--dump", dump_arg(5, out[5]), "--dump", dump_arg(6, out[6]),
      "--dump", dump_arg(7, out[7]), "--dump", dump_arg(8, out[8]), "--dump", dump_arg(9, out[9]),
      "--dump", dump_arg(10, out[10]), "--dump", dump_arg(11, out[11]), "--dump",
      dump_arg(12, out[12]), "--json", NULL);
  e2e_expect_ok(r);

  uint64_t wu[9] = {0, 0, UINT64_MAX, UINT64_MAX, 0, 0, 0, 0, 0};
  int64_t ws[2] = {INT64_MIN, INT64_MAX};
  double dsum = 0;
  uint32_t c16[4] = {0}, ch[4] = {0}, cbf[8] = {0}, cb2[8] = {0}, c2[2] = {0}, cnt = 0;
  float f4y = 0, f2x = 0;                                  /* small integers: exact */
  uint64_t *vals = e2e_alloc((n + 1) * 8);
  vals[0] = u64[7];
  for (size_t i = 0; i < n; i++) {
    uint64_t w = ((uint64_t)a[i] << 32) | b[i];
    wu[0] += w;
    wu[1] = w > wu[1] ? w : wu[1];
    wu[2] = w < wu[2] ? w : wu[2];
    wu[3] &= w | 0x0101010101010101ull;
    wu[4] |= w & 0x8000000080000001ull;
    wu[5] ^= w;
    wu[6] += w >> 3;
    wu[8] += b[i];
    ws[0] = (int64_t)w > ws[0] ? (int64_t)w : ws[0];
    ws[1] = (int64_t)w < ws[1] ? (int64_t)w : ws[1];
    dsum += (double)(a[i] % 1000u) * 0.25 - 100.0;     /* quarters: every partial sum exact */
    c16[i & 3] += 1 + (a[i] & 1);
    ch[i & 3] += 1 + (b[i] & 1);
    c2[i & 1]++;
    cbf[i & 7] += 1 + (a[i] & 1);
    cb2[i & 7]++;
    cnt += 1 + (b[i] & 3);
    vals[i + 1] = w ^ ((uint64_t)i << 8);
    f4y += (float)(a[i] & 7);
    f2x += (float)(b[i] & 3);
  }
  uint64_t *gu = e2e_read(out[2], sizeof u64);
  static const char *const uname[9] = {"add", "max", "min", "and", "or", "xor", "CAS-loop add",
                                       "exch", "shared add"};
  for (int k = 0; k < 9; k++)
    if (k != 7)
      ck_assert_msg(gu[k] == wu[k], "u64 atomic %s: got 0x%016llx, expected 0x%016llx", uname[k],
                    (unsigned long long)gu[k], (unsigned long long)wu[k]);
  int64_t *gs = e2e_read(out[3], sizeof s64);
  ck_assert_msg(gs[0] == ws[0] && gs[1] == ws[1], "s64 max/min: got %lld %lld, expected %lld %lld",
                (long long)gs[0], (long long)gs[1], (long long)ws[0], (long long)ws[1]);
  double *gd = e2e_read(out[4], 16);
  ck_assert_msg(gd[0] == dsum && gd[1] == dsum, "f64 add: got %.17g (global) %.17g (shared), "
                "expected %.17g", gd[0], gd[1], dsum);
  uint16_t *g16 = e2e_read(out[5], 8), *gh = e2e_read(out[6], 8), *gbf = e2e_read(out[8], 16);
  uint32_t *gh2 = e2e_read(out[7], 8), *gb2 = e2e_read(out[9], 32);
  for (int k = 0; k < 4; k++) {
    ck_assert_msg(g16[k] == (uint16_t)c16[k], "16-bit CAS counter %d: got %u, expected %u", k,
                  g16[k], c16[k]);
    uint32_t want = round_to(from_int(ch[k]), F16, RM_RN);
    ck_assert_msg(gh[k] == want, "f16 add %d: got 0x%04x, expected 0x%04x", k, gh[k], want);
  }
  for (int k = 0; k < 2; k++) {
    struct exact half = from_int(c2[k]);
    half.e = -1;
    uint32_t want = round_to(from_int(c2[k]), F16, RM_RN) | round_to(half, F16, RM_RN) << 16;
    ck_assert_msg(gh2[k] == want, "f16x2 add %d: got 0x%08x, expected 0x%08x", k, gh2[k], want);
  }
  for (int k = 0; k < 8; k++) {
    uint32_t want = round_to(from_int(cbf[k]), BF16, RM_RN);
    ck_assert_msg(gbf[k] == want, "bf16 add %d: got 0x%04x, expected 0x%04x", k, gbf[k], want);
    want = round_to(from_int(cb2[k]), BF16, RM_RN) | round_to(from_int(2 * cb2[k]), BF16, RM_RN) << 16;
    ck_assert_msg(gb2[k] == want, "bf16x2 add %d: got 0x%08x, expected 0x%08x", k, gb2[k], want);
  }
  uint32_t *gc = e2e_read(out[10], 4), *gslot = e2e_read(out[11], n * 4);
  ck_assert_uint_eq(gc[0], cnt);
  for (size_t i = 0; i < n; i++)
    ck_assert_msg(gslot[i] == (a[i] ^ b[i]) + 1, "release store / acquire load %zu: got 0x%08x", i,
                  gslot[i]);
  /* the vector adds: every element its own sum; f4's .x gave back each count once */
  float *g4 = e2e_read(out[13], 16), *g2 = e2e_read(out[14], 8), *gox = e2e_read(out[15], n * 4);
  ck_assert_msg(g4[0] == (float)n && g4[1] == f4y && g4[2] == 0.5f * (float)n && g4[3] == -2.0f * (float)n,
                "atom.add.v4.f32: got (%g, %g, %g, %g), expected (%g, %g, %g, %g)", (double)g4[0],
                (double)g4[1], (double)g4[2], (double)g4[3], (double)n, (double)f4y, 0.5 * (double)n,
                -2.0 * (double)n);
  ck_assert_msg(g2[0] == f2x && g2[1] == 0.25f * (float)n, "atom.add.v2.f32: got (%g, %g), expected "
                "(%g, %g)", (double)g2[0], (double)g2[1], (double)f2x, 0.25 * (double)n);
  uint8_t *counted = e2e_alloc(n);
  for (size_t i = 0; i < n; i++) {
    float v = gox[i];
    ck_assert_msg(v >= 0 && v < (float)n && v == (float)(size_t)v && !counted[(size_t)v],
                  "atom.add.v4.f32 gave thread %zu back .x = %g: not a count no other thread saw", i,
                  (double)v);
    counted[(size_t)v] = 1;
  }
  /* the exchanges: what came back, plus what is left, is what went in, plus the start */
  uint64_t *gx = e2e_read(out[12], n * 8), *seen = e2e_alloc((n + 1) * 8);
  memcpy(seen, gx, n * 8);
  seen[n] = gu[7];
  qsort(seen, n + 1, 8, cmp_u64);
  qsort(vals, n + 1, 8, cmp_u64);
  for (size_t i = 0; i <= n; i++)
    ck_assert_msg(seen[i] == vals[i], "64-bit exchange: the values returned and left are not the "
                  "values written and the initial one (element %zu)", i);
}
END_TEST

/* ---- per-kernel refusal ---- */

START_TEST(refused_kernel_leaves_the_others)
{
  const char *k = e2e_kernel("two_kernels.cu"), *pout = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(k, "--kernel", "scale", "--grid", "1", "--block", "64", A,
                              "i32buf:40:iota", A, "i32buf:40:zero", A, "i32:3", A, "i32:40",
                              "--dump", dump_arg(1, pout), "--json", NULL);
  e2e_expect_ok(r);
  int32_t *got = e2e_read(pout, 40 * 4);
  for (int i = 0; i < 40; i++)
    ck_assert_int_eq(got[i], 3 * i + 1);
  r = e2e_emu(k, "--kernel", "counter", "--grid", "1", "--block", "32", A, "i32buf:8:zero", A,
              "i32:8", NULL);
  e2e_expect_error(r, 2, "kernel 'counter'", "%pm0", NULL);
  ck_assert_msg(e2e_mentions_line(r->err, "two_kernels.cu", e2e_marker_line(k, "PM-HERE")),
                "the refusal does not name the counter read's line: %s", r->err);
  /* virtual calls, once refused, run: Tri's area on odd lanes, Shape's on even ones */
  r = e2e_emu(k, "--kernel", "shapes", "--grid", "1", "--block", "32", A, "i32buf:8:zero", A,
              "i32:8", "--dump", dump_arg(0, pout), "--json", NULL);
  e2e_expect_ok(r);
  got = e2e_read(pout, 8 * 4);
  for (int i = 0; i < 8; i++)
    ck_assert_int_eq(got[i], (i & 1) ? i * i / 2 : i * i);
}
END_TEST

/* ---- warplab emu's arguments: 8- and 16-bit, half and bfloat16, a struct by value ---- */

/* The value of binary16-sized bits with ebits exponent bits and p significant bits. */
static double decode16(uint32_t bits, int ebits, int p)
{
  int bias = (1 << (ebits - 1)) - 1, be = (int)(bits >> (p - 1) & ((1u << ebits) - 1));
  double mant = (double)(bits & ((1u << (p - 1)) - 1));
  double v = be ? ldexp(mant + ldexp(1, p - 1), be - bias - (p - 1)) : ldexp(mant, 1 - bias - (p - 1));
  return bits >> 15 & 1 ? -v : v;
}

START_TEST(narrow_and_struct_arguments)
{
  const int n = 40;
  const char *k = e2e_kernel("args.cu"), *pout = e2e_tmp("out.bin");
  /* the struct Params { int a; float b; short c; signed char d; double e; } of args.cu, byte
     by byte: a = -7, b = 1.5f, c = 300, d = -3, padding, e = 0.25 */
  const char *params = "bytes:f9ffffff" "0000c03f" "2c01" "fd" "00" "00000000" "000000000000d03f";
  struct e2e_run *r = e2e_emu(k, "--kernel", "narrow_args", "--grid", "2", "--block", "32", A,
                              "f16buf:40:rand:1", A, "bf16buf:40:rand:2", A, "i8buf:40:rand:3", A,
                              "u8buf:40:rand:4", A, "i16buf:40:rand:5", A, "u16buf:40:rand:6", A,
                              "f64buf:320:zero", A, "i32:40", A, "f16:0.1", A, "bf16:0.1", A,
                              "i8:-100", A, "u8:200", A, "i16:-30000", A, "u16:65535", A, params,
                              "--dump", dump_arg(6, pout), "--json", NULL);
  e2e_expect_ok(r);
  double *got = e2e_read(pout, 320 * 8);
  /* 0.1 to nearest: f16 0x2e66 (1.6 x 2^-4 = 0.0999755859375), bf16 0x3dcd (0.10009765625);
     each the nearer of its two neighbours, and the scalars' sums below are exact */
  double h01 = decode16(0x2e66, 5, 11), b01 = decode16(0x3dcd, 8, 8);
  ck_assert(fabs(h01 - 0.1) < fabs(decode16(0x2e65, 5, 11) - 0.1) &&
            fabs(h01 - 0.1) < fabs(decode16(0x2e67, 5, 11) - 0.1));
  ck_assert(fabs(b01 - 0.1) < fabs(decode16(0x3dcc, 8, 8) - 0.1) &&
            fabs(b01 - 0.1) < fabs(decode16(0x3dce, 8, 8) - 0.1));
  uint64_t st[6] = {1, 2, 3, 4, 5, 6};
  for (int i = 0; i < n; i++) {
    uint64_t x[6];
    for (int b = 0; b < 6; b++)
      x[b] = e2e_splitmix64(&st[b]);
    double want[8] = {
      (double)(x[0] >> 53) * 0x1.0p-10 - 1.0 + h01,   /* rand's f16: k * 2^-10 - 1, exact */
      (double)(x[1] >> 56) * 0x1.0p-7 - 1.0 + b01,    /* rand's bf16: k * 2^-7 - 1, exact */
      (double)((int8_t)(x[2] >> 56) - 100),
      (double)((uint8_t)(x[3] >> 56) + 200),
      (double)((int16_t)(x[4] >> 48) - 30000),
      (double)((uint16_t)(x[5] >> 48) + 65535),
      -7.0 + 300.0 - 3.0,
      1.5 + 0.25,
    };
    for (int c = 0; c < 8; c++)
      ck_assert_msg(e2e_f64_bits(got[8 * i + c]) == e2e_f64_bits(want[c]),
                    "thread %d sum %d: got %.17g, expected %.17g", i, c, got[8 * i + c], want[c]);
  }
  /* a struct whose bytes are one short of its size, and a bad digit, are usage errors */
  r = e2e_emu(k, "--kernel", "narrow_args", "--grid", "1", "--block", "32", A, "f16buf:1:zero", A,
              "bf16buf:1:zero", A, "i8buf:1:zero", A, "u8buf:1:zero", A, "i16buf:1:zero", A,
              "u16buf:1:zero", A, "f64buf:8:zero", A, "i32:1", A, "f16:0", A, "bf16:0", A, "i8:0",
              A, "u8:0", A, "i16:0", A, "u16:0", A, "bytes:f9ffffff0000c03f2c01fd0000000000000000000000d0",
              NULL);
  e2e_expect_error(r, 2, "is 23 bytes", "is 24 bytes", NULL);
  r = e2e_emu(k, "--kernel", "narrow_args", "--grid", "1", "--block", "32", A, "bytes:0g", NULL);
  e2e_expect_error(r, 2, "'g' is not a hex digit", NULL);
  r = e2e_emu(k, "--kernel", "narrow_args", "--grid", "1", "--block", "32", A, "i8:128", NULL);
  e2e_expect_error(r, 2, "'128' is not a valid i8", NULL);
}
END_TEST

/* A struct by value of 32000 bytes (the limit is 32764 since CUDA 12.1) reaches the kernel
   whole: element i of the output is 2 v[i] + v[7999 - i] with v[i] = i. */
START_TEST(large_struct_argument)
{
  enum { N = 8000 };
  static char spec[6 + 8 * N + 1] = "bytes:";
  for (int i = 0; i < N; i++)
    snprintf(spec + 6 + 8 * i, 9, "%02x%02x%02x%02x", i & 255, i >> 8 & 255, 0, 0);
  const char *k = e2e_kernel("args.cu"), *pout = e2e_tmp("big.bin");
  struct e2e_run *r = e2e_emu(k, "--kernel", "big_param", "--grid", "32", "--block", "256", A,
                              spec, A, "i32buf:8000:zero", "--dump", dump_arg(1, pout), "--json", NULL);
  e2e_expect_ok(r);
  int32_t *got = e2e_read(pout, N * 4);
  for (int i = 0; i < N; i++)
    ck_assert_int_eq(got[i], 2 * i + (N - 1 - i));
  /* one byte over the limit is a usage error that names it */
  static char over[6 + 2 * 32765 + 1] = "bytes:";
  memset(over + 6, '0', 2 * 32765);
  r = e2e_emu(k, "--kernel", "big_param", "--grid", "1", "--block", "32", A, over, A,
              "i32buf:1:zero", NULL);
  e2e_expect_error(r, 2, "takes 1 to 32764 bytes", NULL);
}
END_TEST

/* ---- redux_groups ---- */

/* redux.sync with a different membermask in each group of a warp (labeled_partition's groups
   reducing at once): each lane gets its own group's result. The emulator reduced over every
   lane that reached the instruction (cuda-samples' calculateMaxInEachBuckets: every bucket got
   the warp's maximum). */
START_TEST(redux_over_each_lanes_own_group)
{
  const size_t n = 256;
  uint32_t *a = e2e_rand_u32(n, 621);
  for (size_t i = 0; i < n; i++)
    a[i] = (a[i] >> 1) & 0x7fffffu;            /* min is signed: keep them positive */
  uint32_t *want = e2e_alloc(n * 4 * 4);
  for (size_t i = 0; i < n; i++) {
    size_t w0 = i / 32 * 32;
    uint32_t add = 0, mx = 0, mn = 0xffffffffu, orv = 0;
    for (size_t k = w0; k < w0 + 32; k++)
      if (a[k] % 5 == a[i] % 5) {
        add += a[k];
        mx = a[k] > mx ? a[k] : mx;
        mn = a[k] < mn ? a[k] : mn;
        orv |= a[k];
      }
    want[i * 4] = add;
    want[i * 4 + 1] = mx;
    want[i * 4 + 2] = mn;
    want[i * 4 + 3] = orv;
  }
  const char *pa = e2e_write("a.bin", a, n * 4), *po = e2e_tmp("o.bin");
  struct e2e_run *r = e2e_emu(e2e_kernel("ptxops.cu"), "--kernel", "redux_groups", "--grid", "2",
                              "--block", "128", A, file_arg("u32", n, pa), A,
                              e2e_fmt("u32buf:%zu:zero", n * 4), A, e2e_fmt("i32:%zu", n),
                              "--dump", dump_arg(1, po), "--json", NULL);
  e2e_expect_ok(r);
  uint32_t *got = e2e_read(po, n * 4 * 4);
  static const char *const what[] = {"add", "max", "min", "or"};
  for (size_t i = 0; i < n * 4; i++)
    ck_assert_msg(got[i] == want[i], "redux_groups: %s of lane %zu's group (key %u): got 0x%08x, "
                  "expected 0x%08x", what[i % 4], i / 4, a[i / 4] % 5, got[i], want[i]);
}
END_TEST

/* ---- nan_payload ---- */

/* A NaN through cvt.f64.f32, add.f64 and cvt.rn.f32.f64 keeps its sign and payload, as on the
   H100 (cuda-samples' reduceSinglePassMultiBlockCG, an f32 sum kept in double, gave back its
   NaN input's bits where the emulator gave the canonical NaN). */
START_TEST(nan_keeps_its_payload_through_f64)
{
  const size_t n = 256;
  uint32_t *a = e2e_rand_u32(n, 631);
  const char *pa = e2e_write("a.bin", a, n * 4), *po = e2e_tmp("o.bin"), *pd = e2e_tmp("d.bin");
  struct e2e_run *r = e2e_emu(e2e_kernel("ptxops.cu"), "--kernel", "nan_payload", "--grid", "2",
                              "--block", "128", A, file_arg("u32", n, pa), A,
                              e2e_fmt("u32buf:%zu:zero", n), A, e2e_fmt("u64buf:%zu:zero", n), A,
                              e2e_fmt("i32:%zu", n), "--dump", dump_arg(1, po), "--dump",
                              dump_arg(2, pd), "--json", NULL);
  e2e_expect_ok(r);
  uint32_t *got = e2e_read(po, n * 4);
  uint64_t *gotd = e2e_read(pd, n * 8);
  for (size_t i = 0; i < n; i++) {
    uint32_t bits = (a[i] & 0x807fffffu) | 0x7fc00001u;
    uint64_t d = (uint64_t)(bits >> 31) << 63 | UINT64_C(0x7ff8000000000000) |
                 (uint64_t)(bits & 0x7fffffu) << 29;
    ck_assert_msg(gotd[i] == d, "nan_payload: (double)0x%08x: got 0x%016" PRIx64 ", expected 0x%016"
                  PRIx64, bits, gotd[i], d);
    ck_assert_msg(got[i] == bits, "nan_payload: 0x%08x through double: got 0x%08x", bits, got[i]);
  }
}
END_TEST

/* ---- fma_contract ---- */

/* ptxas fuses a mul and an add or sub without rounding modifier into one fma (the PTX ISA
   allows it; the GPU rounds once): cuda-samples' recursiveGaussian was a byte off where the
   emulator rounded twice. An explicit .rn on the mul forbids it. */
START_TEST(mul_add_contract_as_ptxas_does)
{
  const size_t n = 1024;
  float *x = e2e_rand_f32(n, 611), *y = e2e_rand_f32(n, 612), *z = e2e_rand_f32(n, 613);
  float *want = e2e_alloc(n * 5 * sizeof(float));
  double *wantd = e2e_alloc(n * 2 * sizeof(double));
  size_t twice = 0;                     /* inputs where rounding twice gives another value */
  for (size_t i = 0; i < n; i++) {
    volatile float p = x[i] * y[i];
    float *w = want + i * 5;
    w[0] = w[1] = fmaf(x[i], y[i], z[i]);
    w[2] = fmaf(-x[i], y[i], z[i]);
    w[3] = fmaf(x[i], y[i], -z[i]);
    w[4] = p + z[i];
    twice += w[4] != w[0];
    double dx = x[i], dy = (double)y[i] * (1.0 + 1.0 / 3.0), dz = z[i];
    wantd[i * 2] = fma(-dx, dy, dz);
    wantd[i * 2 + 1] = fma(dx, dy, -dz);
  }
  ck_assert_msg(twice > 0, "the inputs never tell one rounding from two");
  const char *px = e2e_write("x.bin", x, n * 4), *py = e2e_write("y.bin", y, n * 4),
             *pz = e2e_write("z.bin", z, n * 4), *po = e2e_tmp("o.bin"), *pd = e2e_tmp("d.bin");
  struct e2e_run *r = e2e_emu(e2e_kernel("contract.cu"), "--kernel", "fma_contract", "--grid", "8",
                              "--block", "128", A, file_arg("f32", n, px), A, file_arg("f32", n, py),
                              A, file_arg("f32", n, pz), A, e2e_fmt("f32buf:%zu:zero", n * 5), A,
                              e2e_fmt("f64buf:%zu:zero", n * 2), A, e2e_fmt("i32:%zu", n),
                              "--dump", dump_arg(3, po), "--dump", dump_arg(4, pd), "--json", NULL);
  e2e_expect_ok(r);
  uint32_t *got = e2e_read(po, n * 5 * 4);
  uint64_t *gotd = e2e_read(pd, n * 2 * 8);
  for (size_t i = 0; i < n * 5; i++)
    ck_assert_msg(got[i] == f32_bits(want[i]), "fma_contract o[%zu] (x=%a y=%a z=%a): got 0x%08x, "
                  "expected 0x%08x (see o[%zu] in contract.cu)", i % 5, (double)x[i / 5],
                  (double)y[i / 5], (double)z[i / 5], got[i], f32_bits(want[i]), i % 5);
  for (size_t i = 0; i < n * 2; i++) {
    uint64_t wb;
    memcpy(&wb, &wantd[i], 8);
    ck_assert_msg(gotd[i] == wb, "fma_contract d[%zu] of thread %zu: got 0x%016" PRIx64
                  ", expected 0x%016" PRIx64, i % 2, i / 2, gotd[i], wb);
  }
}
END_TEST

/* The half types too: ptxas fuses f16, f16x2, bf16 and bf16x2 mul+add/sub pairs into HFMA2
   (contract.cu's fma_contract_half): each fused pair equals the explicit fma.rn, and rounding
   twice (mul.rn) gives another value on some inputs of every type. */
START_TEST(half_mul_add_contract_as_ptxas_does)
{
  const size_t n = 512, H = 7;
  static const char *type[] = {"f16", "f16x2", "bf16", "bf16x2"};
  const char *po = e2e_tmp("h.bin");
  struct e2e_run *r = e2e_emu(e2e_kernel("contract.cu"), "--kernel", "fma_contract_half", "--grid",
                              "4", "--block", "128", A, "u32buf:512:rand:31", A, "u32buf:512:rand:32",
                              A, "u32buf:512:rand:33", A, e2e_fmt("u32buf:%zu:zero", n * 4 * H), A,
                              "i32:512", "--dump", dump_arg(3, po), "--json", NULL);
  e2e_expect_ok(r);
  uint32_t *got = e2e_read(po, n * 4 * H * 4);
  for (size_t t = 0; t < 4; t++) {
    size_t twice = 0;
    for (size_t i = 0; i < n; i++) {
      const uint32_t *h = got + (i * 4 + t) * H;
      for (size_t k = 0; k < 3; k++)
        ck_assert_msg(h[k] == h[4 + k], "%s thread %zu: the pair h[%zu] = 0x%08x, its fma.rn 0x%08x",
                      type[t], i, k, h[k], h[4 + k]);
      twice += h[3] != h[4];
    }
    ck_assert_msg(twice > 0, "%s: the inputs never tell one rounding from two", type[t]);
  }
}
END_TEST

void e2e_add_ptxops_tests(Suite *s)
{
  TCase *tc = tcase_create("ptxops");
  tcase_add_checked_fixture(tc, e2e_setup, e2e_teardown);
  tcase_set_timeout(tc, PTXOPS_TIMEOUT_S);
  tcase_add_test(tc, round_to_known_values);
  if (!e2e_have_nvcc()) {
    printf("e2e: nvcc not found: SKIPPING the kernels of the ptxops test case\n");
  } else {
    tcase_add_test(tc, bit_ops_match_the_isa);
    tcase_add_test(tc, warp_reductions_and_matches);
    tcase_add_test(tc, half_arithmetic_and_conversions);
    tcase_add_test(tc, atomics_of_every_width);
    tcase_add_test(tc, refused_kernel_leaves_the_others);
    tcase_add_test(tc, narrow_and_struct_arguments);
    tcase_add_test(tc, large_struct_argument);
    tcase_add_test(tc, mul_add_contract_as_ptxas_does);
    tcase_add_test(tc, half_mul_add_contract_as_ptxas_does);
    tcase_add_test(tc, redux_over_each_lanes_own_group);
    tcase_add_test(tc, nan_keeps_its_payload_through_f64);
  }
  suite_add_tcase(s, tc);
}
