/* sim_alu.c: scalar PTX instruction semantics on raw register bits (see sim_alu.h).
 *
 * Layout: rounding core (one function rounds an exact value sig * 2^exp to any binary
 * format in any mode, used by every narrowing conversion and by the f16/bf16 arithmetic),
 * then f32/f64 arithmetic, f16/bf16 arithmetic, comparisons, conversions, integer ops and
 * the carry chain.
 *
 * f32/f64 arithmetic in round-to-nearest is plain C arithmetic (this file needs
 * -ffp-contract=off, the ISO C default of GCC, and sets FP_CONTRACT OFF for clang).
 * Directed rounding of f32/f64 arithmetic switches the thread's rounding mode around one
 * operation done through volatile temporaries, then restores it. f16/bf16 arithmetic is
 * done exactly (or rounded to odd) in double, then rounded once to the narrow format in the
 * requested mode, so it never double-rounds.
 */
#include "sim/sim_alu.h"

#include <fenv.h>
#include <math.h>
#include <stdint.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#pragma STDC FP_CONTRACT OFF
#pragma GCC diagnostic pop

#define F32_SIGN 0x80000000u
#define F32_EXP 0x7f800000u
#define F32_ONE 0x3f800000u
#define F64_QUIET (UINT64_C(1) << 51)

/* ---- binary formats and the rounding core ---- */

struct alu_fmt {
  unsigned mbits; /* stored fraction bits */
  unsigned ebits; /* exponent bits */
};

static const struct alu_fmt ALU_F16 = {10, 5};
static const struct alu_fmt ALU_BF16 = {7, 8};
static const struct alu_fmt ALU_TF32 = {10, 8};
static const struct alu_fmt ALU_F32 = {23, 8};
static const struct alu_fmt ALU_F64 = {52, 11};

enum alu_mode { ALU_RN, ALU_RZ, ALU_RM, ALU_RP, ALU_RNA };

static enum alu_mode alu_mode_of(enum ptx_rnd r)
{
  switch (r) {
  case PTX_RND_RZ: case PTX_RND_RZI: return ALU_RZ;
  case PTX_RND_RM: case PTX_RND_RMI: return ALU_RM;
  case PTX_RND_RP: case PTX_RND_RPI: return ALU_RP;
  case PTX_RND_RNA: return ALU_RNA;
  default: return ALU_RN;
  }
}

static uint64_t alu_fmt_inf(struct alu_fmt f, int neg)
{
  uint64_t sign = (uint64_t)(neg != 0) << (f.mbits + f.ebits);
  return sign | (((UINT64_C(1) << f.ebits) - 1) << f.mbits);
}

/* Round (-1)^neg * sig * 2^exp2, an exact value, to format f in mode m; returns its bits. */
static uint64_t alu_round_pack(int neg, uint64_t sig, int exp2, struct alu_fmt f,
                               enum alu_mode m)
{
  uint64_t sign = (uint64_t)(neg != 0) << (f.mbits + f.ebits);
  int bias = (1 << (f.ebits - 1)) - 1;
  int emin = 1 - bias;
  uint64_t one = UINT64_C(1) << f.mbits;
  if (sig == 0)
    return sign;
  int e = exp2 + (63 - __builtin_clzll(sig)); /* value in [2^e, 2^(e+1)) */
  if (e < emin)
    e = emin;
  int shift = (e - (int)f.mbits) - exp2; /* low bits of sig below the result's quantum */
  uint64_t kept;
  if (shift <= 0) {
    kept = sig << -shift; /* exact; fits in mbits + 1 bits */
  } else {
    int above, tie, inexact = 1;
    if (shift > 64) {
      kept = 0; above = 0; tie = 0;
    } else if (shift == 64) {
      kept = 0;
      above = sig > (UINT64_C(1) << 63);
      tie = sig == (UINT64_C(1) << 63);
    } else {
      uint64_t rem = sig & ((UINT64_C(1) << shift) - 1);
      uint64_t half = UINT64_C(1) << (shift - 1);
      kept = sig >> shift;
      above = rem > half;
      tie = rem == half;
      inexact = rem != 0;
    }
    int inc = 0;
    switch (m) {
    case ALU_RN: inc = above || (tie && (kept & 1)); break;
    case ALU_RNA: inc = above || tie; break;
    case ALU_RZ: inc = 0; break;
    case ALU_RM: inc = neg && inexact; break;
    case ALU_RP: inc = !neg && inexact; break;
    }
    kept += (uint64_t)inc;
  }
  if (kept >> (f.mbits + 1)) { /* rounding carried into a new binade */
    kept >>= 1;
    e++;
  }
  if (e > bias) { /* overflow */
    int to_inf = m == ALU_RN || m == ALU_RNA || (m == ALU_RM && neg) || (m == ALU_RP && !neg);
    if (to_inf)
      return alu_fmt_inf(f, neg);
    return sign | ((uint64_t)(2 * bias) << f.mbits) | (one - 1);
  }
  if (kept < one) /* subnormal or zero: e == emin */
    return sign | kept;
  return sign | ((uint64_t)(e + bias) << f.mbits) | (kept - one);
}

/* Round a double to format f in mode m; NaN gives cnan. */
static uint64_t alu_pack_d(double x, struct alu_fmt f, enum alu_mode m, uint64_t cnan)
{
  uint64_t u = sim_alu_from_f64(x);
  int neg = (int)(u >> 63);
  unsigned e = (unsigned)(u >> 52) & 0x7ff;
  uint64_t frac = u & ((UINT64_C(1) << 52) - 1);
  if (e == 0x7ff)
    return frac ? cnan : alu_fmt_inf(f, neg);
  if (e == 0)
    return alu_round_pack(neg, frac, -1074, f, m);
  return alu_round_pack(neg, frac | (UINT64_C(1) << 52), (int)e - 1075, f, m);
}

uint32_t sim_alu_f16_to_f32(uint16_t h)
{
  uint32_t s = (uint32_t)(h & 0x8000) << 16;
  uint32_t e = (h >> 10) & 0x1f;
  uint32_t m = h & 0x3ff;
  if (e == 0x1f)
    return s | F32_EXP | (m << 13);
  if (e == 0) {
    if (m == 0)
      return s;
    int sh = __builtin_clz(m) - 21; /* bring the leading 1 to bit 10 */
    m <<= sh;
    return s | ((uint32_t)(113 - sh) << 23) | ((m & 0x3ff) << 13);
  }
  return s | ((e + 112) << 23) | (m << 13);
}

uint16_t sim_alu_f32_to_f16(uint32_t f, enum ptx_rnd rnd)
{
  return (uint16_t)alu_pack_d((double)sim_alu_as_f32(f), ALU_F16, alu_mode_of(rnd),
                              SIM_ALU_F16_CNAN);
}

uint16_t sim_alu_f32_to_bf16(uint32_t f, enum ptx_rnd rnd)
{
  return (uint16_t)alu_pack_d((double)sim_alu_as_f32(f), ALU_BF16, alu_mode_of(rnd),
                              SIM_ALU_F16_CNAN);
}

/* The value of a 16-bit f16 or bf16 as a double (exact). */
static double alu_h2d(uint32_t h, int is_bf16)
{
  uint32_t f = is_bf16 ? (h & 0xffff) << 16 : sim_alu_f16_to_f32((uint16_t)h);
  return (double)sim_alu_as_f32(f);
}

/* The exact sum a + b rounded to odd in double: exact when representable, else the
   neighbour with an odd last bit. Rounding that once more to a format of at most 51 bits
   gives the correctly rounded sum in any mode. a and b must be finite. */
static double alu_sum_odd(double a, double b)
{
  double s = a + b;
  double bb = s - a;
  double err = (a - (s - bb)) + (b - bb);
  if (err == 0)
    return s;
  uint64_t u = sim_alu_from_f64(s);
  if ((err < 0) != (s < 0))
    u -= 1; /* |exact| < |s|: truncate to the neighbour toward zero */
  return sim_alu_as_f64(u | 1);
}

/* ---- f32 / f64 helpers ---- */

static int alu_is_nan32(uint32_t u) { return (u & 0x7fffffffu) > F32_EXP; }


static uint32_t alu_sat32(uint32_t u)
{
  if (alu_is_nan32(u) || (u & F32_SIGN))
    return 0;
  return u > F32_ONE ? F32_ONE : u;
}

/* Canonical NaN, .ftz on the result, .relu, .sat: the common tail of every f32 op. */
static uint64_t alu_fin32(uint32_t flags, float r)
{
  uint32_t u = (uint32_t)sim_alu_from_f32(r);
  if (r != r)
    return (flags & PTX_F_SAT) ? 0 : SIM_ALU_F32_CNAN;
  if (flags & (PTX_F_FTZ | PTX_F_RELU | PTX_F_SAT)) {
    if (flags & PTX_F_FTZ)
      u = sim_alu_ftz32(u);
    if ((flags & PTX_F_RELU) && (u & F32_SIGN))
      u = 0;
    if (flags & PTX_F_SAT)
      u = alu_sat32(u);
  }
  return u;
}

uint64_t sim_alu_f64_nan(uint64_t a, uint64_t b, uint64_t c)
{
  const uint64_t mag = UINT64_C(0x7fffffffffffffff), inf = UINT64_C(0x7ff0000000000000);
  if ((a & mag) > inf)
    return a | F64_QUIET;
  if ((b & mag) > inf)
    return b | F64_QUIET;
  if ((c & mag) > inf)
    return c | F64_QUIET;
  return SIM_ALU_F64_INVALID;
}

static uint64_t alu_fin64(double r, uint64_t a, uint64_t b, uint64_t c)
{
  return r != r ? sim_alu_f64_nan(a, b, c) : sim_alu_from_f64(r);
}

/* fenv rounding mode of a PTX rounding modifier; FE_TONEAREST for none/rn. */
static int alu_fe_mode(enum ptx_rnd r)
{
  switch (alu_mode_of(r)) {
  case ALU_RZ: return FE_TOWARDZERO;
  case ALU_RM: return FE_DOWNWARD;
  case ALU_RP: return FE_UPWARD;
  default: return FE_TONEAREST;
  }
}

/* One IEEE f32 operation (ADD SUB MUL DIV FMA RCP SQRT) in the current rounding mode,
   through volatiles so that it happens between the fesetround calls around it. */
static float alu_f32_calc(enum ptx_op op, float x, float y, float z)
{
  volatile float vx = x, vy = y, vz = z;
  volatile float vr;
  switch (op) {
  case PTX_OP_ADD: vr = vx + vy; break;
  case PTX_OP_SUB: vr = vx - vy; break;
  case PTX_OP_MUL: vr = vx * vy; break;
  case PTX_OP_DIV: vr = vx / vy; break;
  case PTX_OP_FMA: vr = fmaf(vx, vy, vz); break;
  case PTX_OP_RCP: vr = 1.0f / vx; break;
  case PTX_OP_SQRT: vr = sqrtf(vx); break;
  default: vr = 0.0f; break;
  }
  return vr;
}

static float alu_f32_op(enum ptx_op op, enum ptx_rnd rnd, float x, float y, float z)
{
  int fe = alu_fe_mode(rnd);
  if (fe == FE_TONEAREST) {
    switch (op) {
    case PTX_OP_ADD: return x + y;
    case PTX_OP_SUB: return x - y;
    case PTX_OP_MUL: return x * y;
    case PTX_OP_DIV: return x / y;
    case PTX_OP_FMA: return fmaf(x, y, z);
    case PTX_OP_RCP: return 1.0f / x;
    case PTX_OP_SQRT: return sqrtf(x);
    default: return 0.0f;
    }
  }
  int old = fegetround();
  fesetround(fe);
  float r = alu_f32_calc(op, x, y, z);
  fesetround(old);
  return r;
}

/* As alu_f32_calc, in double. */
static double alu_f64_calc(enum ptx_op op, double x, double y, double z)
{
  volatile double vx = x, vy = y, vz = z;
  volatile double vr;
  switch (op) {
  case PTX_OP_ADD: vr = vx + vy; break;
  case PTX_OP_SUB: vr = vx - vy; break;
  case PTX_OP_MUL: vr = vx * vy; break;
  case PTX_OP_DIV: vr = vx / vy; break;
  case PTX_OP_FMA: vr = fma(vx, vy, vz); break;
  case PTX_OP_RCP: vr = 1.0 / vx; break;
  case PTX_OP_SQRT: vr = sqrt(vx); break;
  default: vr = 0.0; break;
  }
  return vr;
}

static double alu_f64_op(enum ptx_op op, enum ptx_rnd rnd, double x, double y, double z)
{
  int fe = alu_fe_mode(rnd);
  if (fe == FE_TONEAREST) {
    switch (op) {
    case PTX_OP_ADD: return x + y;
    case PTX_OP_SUB: return x - y;
    case PTX_OP_MUL: return x * y;
    case PTX_OP_DIV: return x / y;
    case PTX_OP_FMA: return fma(x, y, z);
    case PTX_OP_RCP: return 1.0 / x;
    case PTX_OP_SQRT: return sqrt(x);
    default: return 0.0;
    }
  }
  int old = fegetround();
  fesetround(fe);
  double r = alu_f64_calc(op, x, y, z);
  fesetround(old);
  return r;
}

/* min/max on any format given both inputs' bits and values: the other input when one is
   NaN, cnan when both are (or either, under .NaN), -0 < +0. */
static uint64_t alu_minmax(int is_max, uint32_t flags, uint64_t ua, uint64_t ub, double x,
                           double y, uint64_t cnan)
{
  int an = x != x, bn = y != y;
  if (an || bn) {
    if ((flags & PTX_F_NAN) || (an && bn))
      return cnan;
    return an ? ub : ua;
  }
  if (x == y) /* equal values: identical bits, or +0 and -0 */
    return is_max ? (ua & ub) : (ua | ub);
  return ((x < y) != is_max) ? ua : ub;
}

/* ---- f32 ---- */

static uint64_t alu_f32_bin(enum ptx_op op, enum ptx_rnd rnd, uint32_t flags, uint32_t ua,
                            uint32_t ub)
{
  if (flags & PTX_F_FTZ) {
    ua = sim_alu_ftz32(ua);
    ub = sim_alu_ftz32(ub);
  }
  float x = sim_alu_as_f32(ua), y = sim_alu_as_f32(ub), r;
  switch (op) {
  case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL:
    r = alu_f32_op(op, rnd, x, y, 0.0f);
    break;
  case PTX_OP_DIV:
    if (flags & PTX_F_APPROX) {
      float ay = fabsf(y);
      if (ay > 0x1p126f && ay <= 0x1.fffffep127f) {
        /* rcp of such b is subnormal and flushed: a * 0 */
        if (isinf(x) || x != x)
          r = NAN;
        else
          r = signbit(x) != signbit(y) ? -0.0f : 0.0f;
      } else {
        r = x * (1.0f / y);
      }
    } else if (flags & PTX_F_FULL) {
      r = (float)((double)x / (double)y);
    } else {
      r = alu_f32_op(PTX_OP_DIV, rnd, x, y, 0.0f);
    }
    break;
  case PTX_OP_MIN: case PTX_OP_MAX: {
    uint64_t m = alu_minmax(op == PTX_OP_MAX, flags, ua, ub, x, y, SIM_ALU_F32_CNAN);
    if ((flags & PTX_F_RELU) && (m & F32_SIGN) && !alu_is_nan32((uint32_t)m))
      m = 0;
    return m;
  }
  case PTX_OP_COPYSIGN:
    return (ub & ~F32_SIGN) | (ua & F32_SIGN);
  default:
    return 0;
  }
  return alu_fin32(flags, r);
}

static uint64_t alu_f32_un(enum ptx_op op, enum ptx_rnd rnd, uint32_t flags, uint32_t ua)
{
  if (flags & PTX_F_FTZ)
    ua = sim_alu_ftz32(ua);
  float x = sim_alu_as_f32(ua), r;
  double d = (double)x;
  switch (op) {
  case PTX_OP_ABS: return ua & ~F32_SIGN;
  case PTX_OP_NEG: return ua ^ F32_SIGN;
  case PTX_OP_RCP:
    r = (flags & PTX_F_APPROX) ? 1.0f / x : alu_f32_op(PTX_OP_RCP, rnd, x, 0.0f, 0.0f);
    break;
  case PTX_OP_SQRT:
    r = (flags & PTX_F_APPROX) ? sqrtf(x) : alu_f32_op(PTX_OP_SQRT, rnd, x, 0.0f, 0.0f);
    break;
  case PTX_OP_RSQRT: r = (float)(1.0 / sqrt(d)); break;
  case PTX_OP_SIN: r = (float)sin(d); break;
  case PTX_OP_COS: r = (float)cos(d); break;
  case PTX_OP_LG2: r = (float)log2(d); break;
  case PTX_OP_EX2: r = (float)exp2(d); break;
  case PTX_OP_TANH: r = (float)tanh(d); break;
  default: return 0;
  }
  return alu_fin32(flags, r);
}

/* ---- f64 (PTX ignores .ftz on f64; .sat does not exist there) ---- */

static uint64_t alu_f64_bin(enum ptx_op op, enum ptx_rnd rnd, uint32_t flags, uint64_t ua,
                            uint64_t ub)
{
  double x = sim_alu_as_f64(ua), y = sim_alu_as_f64(ub);
  switch (op) {
  /* sim_alu_f64_nan's order, as an H200 gives two NaNs (bench/results/device_r12.txt,
     device_r13.txt): the second operand's first, but for a division (the DADD of a sub
     takes b negated and gives b's NaN as it was) */
  case PTX_OP_ADD: case PTX_OP_MUL: case PTX_OP_SUB:
    return alu_fin64(alu_f64_op(op, rnd, x, y, 0.0), ub, ua, ua);
  case PTX_OP_DIV:
    return alu_fin64(alu_f64_op(op, rnd, x, y, 0.0), ua, ub, ub);
  case PTX_OP_MIN: case PTX_OP_MAX:
    if (x != x && y != y && !(flags & PTX_F_NAN))
      return sim_alu_f64_nan(ub, ua, ua);
    return alu_minmax(op == PTX_OP_MAX, flags, ua, ub, x, y, SIM_ALU_F64_CNAN);
  case PTX_OP_COPYSIGN:
    return (ub & ~(UINT64_C(1) << 63)) | (ua & (UINT64_C(1) << 63));
  default:
    return 0;
  }
}

static uint64_t alu_f64_un(enum ptx_op op, enum ptx_rnd rnd, uint32_t flags, uint64_t ua)
{
  double x = sim_alu_as_f64(ua), r;
  switch (op) {
  case PTX_OP_ABS: return ua & ~(UINT64_C(1) << 63);
  case PTX_OP_NEG: return ua ^ (UINT64_C(1) << 63);
  case PTX_OP_RCP: case PTX_OP_SQRT:
    r = alu_f64_op(op, (flags & PTX_F_APPROX) ? PTX_RND_RN : rnd, x, 0.0, 0.0);
    break;
  case PTX_OP_RSQRT: r = 1.0 / sqrt(x); break;
  case PTX_OP_SIN: r = sin(x); break;
  case PTX_OP_COS: r = cos(x); break;
  case PTX_OP_LG2: r = log2(x); break;
  case PTX_OP_EX2: r = exp2(x); break;
  case PTX_OP_TANH: r = tanh(x); break;
  default: return 0;
  }
  return alu_fin64(r, ua, ua, ua);
}

/* ---- f16 / bf16 (one 16-bit element; the x2 forms call these per half) ---- */

static uint32_t alu_ftz16(uint32_t h)
{
  return (h & 0x7c00) == 0 ? h & 0x8000 : h;
}

/* Round an exact or rounded-to-odd double to f16/bf16 and apply .ftz .relu .sat. */
static uint32_t alu_fin16(int is_bf16, enum ptx_rnd rnd, uint32_t flags, double d)
{
  if (d != d)
    return (uint32_t)SIM_ALU_F16_CNAN;
  uint32_t u = (uint32_t)alu_pack_d(d, is_bf16 ? ALU_BF16 : ALU_F16, alu_mode_of(rnd),
                                    SIM_ALU_F16_CNAN);
  if ((flags & PTX_F_FTZ) && !is_bf16)
    u = alu_ftz16(u);
  if ((flags & (PTX_F_RELU | PTX_F_SAT)) && (u & 0x8000))
    u = 0;
  if (flags & PTX_F_SAT) {
    uint32_t one = is_bf16 ? 0x3f80 : 0x3c00;
    if (u > one)
      u = one;
  }
  return u;
}

static uint32_t alu_h_bin(enum ptx_op op, int is_bf16, enum ptx_rnd rnd, uint32_t flags,
                          uint32_t ua, uint32_t ub)
{
  ua &= 0xffff;
  ub &= 0xffff;
  if ((flags & PTX_F_FTZ) && !is_bf16) {
    ua = alu_ftz16(ua);
    ub = alu_ftz16(ub);
  }
  double x = alu_h2d(ua, is_bf16), y = alu_h2d(ub, is_bf16), r;
  switch (op) {
  case PTX_OP_ADD: case PTX_OP_SUB:
    if (op == PTX_OP_SUB)
      y = -y;
    r = (isfinite(x) && isfinite(y)) ? alu_sum_odd(x, y) : x + y;
    break;
  case PTX_OP_MUL: r = x * y; break; /* exact: at most 2 x 11 significant bits */
  case PTX_OP_DIV: r = x / y; break; /* not a PTX op on halves; RN double rounding is safe */
  case PTX_OP_MIN: case PTX_OP_MAX: {
    uint32_t m = (uint32_t)alu_minmax(op == PTX_OP_MAX, flags, ua, ub, x, y,
                                      SIM_ALU_F16_CNAN);
    if ((flags & PTX_F_RELU) && (m & 0x8000) && m != SIM_ALU_F16_CNAN)
      m = 0;
    return m;
  }
  case PTX_OP_COPYSIGN: return (ub & 0x7fff) | (ua & 0x8000);
  default: return 0;
  }
  return alu_fin16(is_bf16, rnd, flags, r);
}

static uint32_t alu_h_fma(int is_bf16, enum ptx_rnd rnd, uint32_t flags, uint32_t ua,
                          uint32_t ub, uint32_t uc)
{
  ua &= 0xffff;
  ub &= 0xffff;
  uc &= 0xffff;
  if ((flags & PTX_F_FTZ) && !is_bf16) {
    ua = alu_ftz16(ua);
    ub = alu_ftz16(ub);
    uc = alu_ftz16(uc);
  }
  double p = alu_h2d(ua, is_bf16) * alu_h2d(ub, is_bf16); /* exact */
  double c = alu_h2d(uc, is_bf16);
  double r = (isfinite(p) && isfinite(c)) ? alu_sum_odd(p, c) : p + c;
  return alu_fin16(is_bf16, rnd, flags, r);
}

static uint32_t alu_h_un(enum ptx_op op, int is_bf16, enum ptx_rnd rnd, uint32_t flags,
                         uint32_t ua)
{
  ua &= 0xffff;
  if ((flags & PTX_F_FTZ) && !is_bf16)
    ua = alu_ftz16(ua);
  double x = alu_h2d(ua, is_bf16), r;
  switch (op) {
  case PTX_OP_ABS: return ua & 0x7fff;
  case PTX_OP_NEG: return ua ^ 0x8000;
  case PTX_OP_RCP: r = 1.0 / x; break;
  case PTX_OP_SQRT: r = sqrt(x); break;
  case PTX_OP_RSQRT: r = 1.0 / sqrt(x); break;
  case PTX_OP_SIN: r = sin(x); break;
  case PTX_OP_COS: r = cos(x); break;
  case PTX_OP_LG2: r = log2(x); break;
  case PTX_OP_EX2: r = exp2(x); break;
  case PTX_OP_TANH: r = tanh(x); break;
  default: return 0;
  }
  return alu_fin16(is_bf16, rnd, flags, r);
}

/* ---- float entry points ---- */

uint64_t sim_alu_fbin(enum ptx_op op, enum ptx_type t, enum ptx_rnd rnd, uint32_t flags,
                      uint64_t a, uint64_t b)
{
  switch (t) {
  case PTX_T_F32:
    return alu_f32_bin(op, rnd, flags, (uint32_t)a, (uint32_t)b);
  case PTX_T_F64:
    return alu_f64_bin(op, rnd, flags, a, b);
  case PTX_T_F16: case PTX_T_BF16:
    return alu_h_bin(op, t == PTX_T_BF16, rnd, flags, (uint32_t)a, (uint32_t)b);
  case PTX_T_F16X2: case PTX_T_BF16X2: {
    int bf = t == PTX_T_BF16X2;
    uint32_t lo = alu_h_bin(op, bf, rnd, flags, (uint32_t)a, (uint32_t)b);
    uint32_t hi = alu_h_bin(op, bf, rnd, flags, (uint32_t)(a >> 16), (uint32_t)(b >> 16));
    return (uint64_t)(hi << 16 | lo);
  }
  default:
    return 0;
  }
}

uint64_t sim_alu_ffma(enum ptx_type t, enum ptx_rnd rnd, uint32_t flags, uint64_t a,
                      uint64_t b, uint64_t c)
{
  switch (t) {
  case PTX_T_F32: {
    uint32_t ua = (uint32_t)a, ub = (uint32_t)b, uc = (uint32_t)c;
    if (flags & PTX_F_FTZ) {
      ua = sim_alu_ftz32(ua);
      ub = sim_alu_ftz32(ub);
      uc = sim_alu_ftz32(uc);
    }
    return alu_fin32(flags, alu_f32_op(PTX_OP_FMA, rnd, sim_alu_as_f32(ua),
                                       sim_alu_as_f32(ub), sim_alu_as_f32(uc)));
  }
  case PTX_T_F64: {
    double r = alu_f64_op(PTX_OP_FMA, rnd, sim_alu_as_f64(a), sim_alu_as_f64(b),
                          sim_alu_as_f64(c));
    return alu_fin64(r, b, a, c);
  }
  case PTX_T_F16: case PTX_T_BF16:
    return alu_h_fma(t == PTX_T_BF16, rnd, flags, (uint32_t)a, (uint32_t)b, (uint32_t)c);
  case PTX_T_F16X2: case PTX_T_BF16X2: {
    int bf = t == PTX_T_BF16X2;
    uint32_t lo = alu_h_fma(bf, rnd, flags, (uint32_t)a, (uint32_t)b, (uint32_t)c);
    uint32_t hi = alu_h_fma(bf, rnd, flags, (uint32_t)(a >> 16), (uint32_t)(b >> 16),
                            (uint32_t)(c >> 16));
    return (uint64_t)(hi << 16 | lo);
  }
  default:
    return 0;
  }
}

uint64_t sim_alu_fun(enum ptx_op op, enum ptx_type t, enum ptx_rnd rnd, uint32_t flags,
                     uint64_t a)
{
  switch (t) {
  case PTX_T_F32:
    return alu_f32_un(op, rnd, flags, (uint32_t)a);
  case PTX_T_F64:
    return alu_f64_un(op, rnd, flags, a);
  case PTX_T_F16: case PTX_T_BF16:
    return alu_h_un(op, t == PTX_T_BF16, rnd, flags, (uint32_t)a);
  case PTX_T_F16X2: case PTX_T_BF16X2: {
    int bf = t == PTX_T_BF16X2;
    uint32_t lo = alu_h_un(op, bf, rnd, flags, (uint32_t)a);
    uint32_t hi = alu_h_un(op, bf, rnd, flags, (uint32_t)(a >> 16));
    return (uint64_t)(hi << 16 | lo);
  }
  default:
    return 0;
  }
}

/* ---- comparisons and classification ---- */

static unsigned alu_cmp_d(enum ptx_cmp c, double x, double y)
{
  int un = x != x || y != y;
  switch (c) {
  case PTX_CMP_EQ: return x == y;
  case PTX_CMP_NE: return !un && x != y;
  case PTX_CMP_LT: return x < y;
  case PTX_CMP_LE: return x <= y;
  case PTX_CMP_GT: return x > y;
  case PTX_CMP_GE: return x >= y;
  case PTX_CMP_EQU: return un || x == y;
  case PTX_CMP_NEU: return un || x != y;
  case PTX_CMP_LTU: return un || x < y;
  case PTX_CMP_LEU: return un || x <= y;
  case PTX_CMP_GTU: return un || x > y;
  case PTX_CMP_GEU: return un || x >= y;
  case PTX_CMP_NUM: return !un;
  case PTX_CMP_NAN: return (unsigned)un;
  default: return 0;
  }
}

unsigned sim_alu_fcmp(enum ptx_cmp cmp, enum ptx_type t, uint32_t flags, uint64_t a, uint64_t b)
{
  switch (t) {
  case PTX_T_F32: {
    uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
    if (flags & PTX_F_FTZ) {
      ua = sim_alu_ftz32(ua);
      ub = sim_alu_ftz32(ub);
    }
    return alu_cmp_d(cmp, sim_alu_as_f32(ua), sim_alu_as_f32(ub));
  }
  case PTX_T_F64:
    return alu_cmp_d(cmp, sim_alu_as_f64(a), sim_alu_as_f64(b));
  case PTX_T_F16: case PTX_T_BF16: case PTX_T_F16X2: case PTX_T_BF16X2: {
    int bf = t == PTX_T_BF16 || t == PTX_T_BF16X2;
    int ftz = (flags & PTX_F_FTZ) && !bf;
    unsigned halves = (t == PTX_T_F16X2 || t == PTX_T_BF16X2) ? 2 : 1, r = 0;
    for (unsigned i = 0; i < halves; i++) {
      uint32_t ha = (uint32_t)(a >> (16 * i)) & 0xffff, hb = (uint32_t)(b >> (16 * i)) & 0xffff;
      if (ftz) {
        ha = alu_ftz16(ha);
        hb = alu_ftz16(hb);
      }
      r |= alu_cmp_d(cmp, alu_h2d(ha, bf), alu_h2d(hb, bf)) << i;
    }
    return r;
  }
  default:
    return 0;
  }
}

unsigned sim_alu_testp(enum ptx_testpmode mode, enum ptx_type t, uint64_t a)
{
  int nan, inf, zero, sub;
  if (t == PTX_T_F64) {
    uint64_t e = (a >> 52) & 0x7ff, m = a & ((UINT64_C(1) << 52) - 1);
    nan = e == 0x7ff && m; inf = e == 0x7ff && !m; zero = e == 0 && !m; sub = e == 0 && m;
  } else if (t == PTX_T_F32) {
    uint32_t e = ((uint32_t)a >> 23) & 0xff, m = (uint32_t)a & 0x7fffff;
    nan = e == 0xff && m; inf = e == 0xff && !m; zero = e == 0 && !m; sub = e == 0 && m;
  } else {
    return 0;
  }
  switch (mode) {
  case PTX_TESTP_FINITE: return !nan && !inf;
  case PTX_TESTP_INFINITE: return (unsigned)inf;
  case PTX_TESTP_NUMBER: return !nan;
  case PTX_TESTP_NOTANUMBER: return (unsigned)nan;
  case PTX_TESTP_NORMAL: return !nan && !inf && !zero && !sub;
  case PTX_TESTP_SUBNORMAL: return (unsigned)sub;
  default: return 0;
  }
}

uint64_t sim_alu_slct(enum ptx_type ct, uint32_t flags, uint64_t a, uint64_t b, uint64_t c)
{
  if (ct == PTX_T_F32) {
    uint32_t uc = (uint32_t)c;
    if (flags & PTX_F_FTZ)
      uc = sim_alu_ftz32(uc);
    return sim_alu_as_f32(uc) >= 0.0f ? a : b;
  }
  return (int32_t)(uint32_t)c >= 0 ? a : b;
}

/* ---- conversions ---- */

static int alu_is_float(enum ptx_type t)
{
  return t == PTX_T_F16 || t == PTX_T_BF16 || t == PTX_T_TF32 || t == PTX_T_F32 ||
         t == PTX_T_F64 || t == PTX_T_F16X2 || t == PTX_T_BF16X2;
}

static int alu_is_int_round(enum ptx_rnd r)
{
  return r == PTX_RND_RNI || r == PTX_RND_RZI || r == PTX_RND_RMI || r == PTX_RND_RPI;
}

/* x rounded to an integral value by an integer rounding mode (NONE: toward zero). */
static double alu_round_int(enum ptx_rnd r, double x)
{
  switch (r) {
  case PTX_RND_RNI: case PTX_RND_RN: return nearbyint(x); /* ties to even */
  case PTX_RND_RMI: case PTX_RND_RM: return floor(x);
  case PTX_RND_RPI: case PTX_RND_RP: return ceil(x);
  default: return trunc(x);
  }
}

/* The value of raw float bits of type t as a double (exact); .ftz applies to f32. */
static double alu_float_value(enum ptx_type t, uint32_t flags, uint64_t a)
{
  switch (t) {
  case PTX_T_F64: return sim_alu_as_f64(a);
  case PTX_T_F32: case PTX_T_TF32: {
    uint32_t u = (uint32_t)a;
    if (flags & PTX_F_FTZ)
      u = sim_alu_ftz32(u);
    return (double)sim_alu_as_f32(u);
  }
  case PTX_T_F16: return alu_h2d((uint32_t)a, 0);
  case PTX_T_BF16: return alu_h2d((uint32_t)a, 1);
  default: return 0.0;
  }
}

/* Float-to-integer: round, NaN -> 0, saturate to the destination's range. */
static uint64_t alu_cvt_f2i(enum ptx_type dt, enum ptx_rnd rnd, double x)
{
  unsigned n = sim_alu_type_bits(dt);
  if (x != x)
    return 0;
  double r = alu_round_int(rnd, x);
  if (sim_alu_is_signed(dt)) {
    double lim = ldexp(1.0, (int)n - 1);
    int64_t hi = (int64_t)((UINT64_C(1) << (n - 1)) - 1), lo = -hi - 1;
    int64_t v = r >= lim ? hi : r < -lim ? lo : (int64_t)r;
    return (uint64_t)v & sim_alu_mask(dt);
  }
  if (r <= 0.0)
    return 0;
  if (r >= ldexp(1.0, (int)n))
    return sim_alu_mask(dt);
  return (uint64_t)r;
}

/* Integer-to-integer with optional saturation. */
static uint64_t alu_cvt_i2i(enum ptx_type dt, enum ptx_type st, uint32_t flags, uint64_t a)
{
  uint64_t v = sim_alu_sext(st, a);
  uint64_t dmask = sim_alu_mask(dt);
  if (flags & PTX_F_SAT) {
    int ssig = sim_alu_is_signed(st), dsig = sim_alu_is_signed(dt);
    if (dsig) {
      int64_t hi = (int64_t)(dmask >> 1), lo = -hi - 1;
      if (ssig) {
        int64_t s = (int64_t)v;
        v = (uint64_t)(s > hi ? hi : s < lo ? lo : s);
      } else if (v > (uint64_t)hi) {
        v = (uint64_t)hi;
      }
    } else {
      if (ssig && (int64_t)v < 0)
        v = 0;
      else if (v > dmask)
        v = dmask;
    }
  }
  return v & dmask;
}

/* Bits of format dt for a value computed in double; NaN -> dt's canonical NaN. */
static uint64_t alu_float_bits(enum ptx_type dt, enum ptx_rnd rnd, double x)
{
  enum alu_mode m = alu_mode_of(rnd);
  switch (dt) {
  case PTX_T_F64: return x != x ? SIM_ALU_F64_CNAN : sim_alu_from_f64(x);
  case PTX_T_F32: return alu_pack_d(x, ALU_F32, m, SIM_ALU_F32_CNAN);
  case PTX_T_TF32: return x != x ? SIM_ALU_F32_CNAN : alu_pack_d(x, ALU_TF32, m, 0) << 13;
  case PTX_T_F16: return alu_pack_d(x, ALU_F16, m, SIM_ALU_F16_CNAN);
  case PTX_T_BF16: return alu_pack_d(x, ALU_BF16, m, SIM_ALU_F16_CNAN);
  default: return 0;
  }
}

/* .ftz (f32 results), .relu and .sat on a float result of type dt. */
static uint64_t alu_float_post(enum ptx_type dt, uint32_t flags, uint64_t u)
{
  unsigned n = sim_alu_type_bits(dt);
  uint64_t sign = UINT64_C(1) << (n - 1);
  if (dt == PTX_T_F32 && (flags & PTX_F_FTZ))
    u = sim_alu_ftz32((uint32_t)u);
  if (!(flags & (PTX_F_SAT | PTX_F_RELU)))
    return u;
  int nan;
  uint64_t one;
  switch (dt) {
  case PTX_T_F64:
    nan = (u & ~sign) > UINT64_C(0x7ff0000000000000);
    one = UINT64_C(0x3ff0000000000000);
    break;
  case PTX_T_F32: case PTX_T_TF32:
    nan = alu_is_nan32((uint32_t)u);
    one = F32_ONE;
    break;
  case PTX_T_F16:
    nan = (u & 0x7fff) > 0x7c00;
    one = 0x3c00;
    break;
  default: /* bf16 */
    nan = (u & 0x7fff) > 0x7f80;
    one = 0x3f80;
    break;
  }
  if (flags & PTX_F_SAT) {
    if (nan || (u & sign))
      return 0;
    return u > one ? one : u;
  }
  return (!nan && (u & sign)) ? 0 : u; /* .relu */
}

uint64_t sim_alu_cvt(enum ptx_type dt, enum ptx_type st, enum ptx_rnd rnd, uint32_t flags,
                     uint64_t a)
{
  int dfl = alu_is_float(dt), sfl = alu_is_float(st);
  if (!dfl && !sfl)
    return alu_cvt_i2i(dt, st, flags, a);
  if (!dfl) {
    /* an H100 converts an f64 NaN to 0x80000000 in 32 bits (an f32 NaN to 0; measured in
       bench/results/device_r12.txt) */
    if (st == PTX_T_F64 && (dt == PTX_T_S32 || dt == PTX_T_U32) &&
        (a & UINT64_C(0x7fffffffffffffff)) > UINT64_C(0x7ff0000000000000))
      return 0x80000000u;
    return alu_cvt_f2i(dt, rnd, alu_float_value(st, flags, a));
  }
  if (!sfl) { /* integer to float: round the exact integer once */
    uint64_t v = sim_alu_sext(st, a), mag = v;
    int neg = sim_alu_is_signed(st) && (int64_t)v < 0;
    if (neg)
      mag = (uint64_t)0 - v;
    uint64_t u;
    enum alu_mode m = alu_mode_of(rnd);
    switch (dt) {
    case PTX_T_F64: u = alu_round_pack(neg, mag, 0, ALU_F64, m); break;
    case PTX_T_F32: u = alu_round_pack(neg, mag, 0, ALU_F32, m); break;
    case PTX_T_TF32: u = alu_round_pack(neg, mag, 0, ALU_TF32, m) << 13; break;
    case PTX_T_F16: u = alu_round_pack(neg, mag, 0, ALU_F16, m); break;
    case PTX_T_BF16: u = alu_round_pack(neg, mag, 0, ALU_BF16, m); break;
    default: return 0;
    }
    return alu_float_post(dt, flags, u);
  }
  /* float to float. Between f32 and f64 a NaN keeps its sign and payload (quieted), as the
     H100's F2F does: cuda-samples' reduceSinglePassMultiBlockCG sums f32 input through f64
     and gets its NaN input's bits back; other conversions give the canonical NaN */
  if (st == PTX_T_F32 && dt == PTX_T_F64 && alu_is_nan32((uint32_t)a))
    return (flags & PTX_F_FTZ) ? UINT64_C(0x7fffffffe0000000)   /* .ftz: the f32 canonical
                                                                    NaN widened (an H100's) */
           : alu_float_post(dt, flags, (a >> 31 & 1) << 63 | UINT64_C(0x7ff8000000000000) |
                                           (a & 0x7fffff) << 29);
  /* an f64 NaN rounded to an integral f64 is itself, quieted (an H100's) */
  if (st == PTX_T_F64 && dt == PTX_T_F64 && alu_is_int_round(rnd) &&
      (a & UINT64_C(0x7fffffffffffffff)) > UINT64_C(0x7ff0000000000000))
    return alu_float_post(dt, flags, a | F64_QUIET);
  if (st == PTX_T_F64 && dt == PTX_T_F32 &&
      (a & UINT64_C(0x7fffffffffffffff)) > UINT64_C(0x7ff0000000000000))
    return alu_float_post(dt, flags, (a >> 63) << 31 | 0x7fc00000u | (a >> 29 & 0x7fffff));
  double x = alu_float_value(st, flags, a);
  if (alu_is_int_round(rnd)) {
    x = alu_round_int(rnd, x);
    rnd = PTX_RND_RN;
  }
  return alu_float_post(dt, flags, alu_float_bits(dt, rnd, x));
}

uint64_t sim_alu_cvt_pack(enum ptx_type dt, enum ptx_rnd rnd, uint32_t flags, uint64_t a,
                          uint64_t b)
{
  enum ptx_type et = dt == PTX_T_BF16X2 ? PTX_T_BF16 : PTX_T_F16;
  uint64_t hi = sim_alu_cvt(et, PTX_T_F32, rnd, flags, a);
  uint64_t lo = sim_alu_cvt(et, PTX_T_F32, rnd, flags, b);
  return hi << 16 | lo;
}

/* ---- integers ---- */

/* Full product of a and b of width n <= 64 bits: *lo gets bits 0..n-1, *hi bits n..2n-1. */
static void alu_mul_full(enum ptx_type t, uint64_t a, uint64_t b, uint64_t *lo, uint64_t *hi)
{
  unsigned n = sim_alu_type_bits(t);
  uint64_t m = sim_alu_mask(t);
  if (n == 64) {
    unsigned __int128 p;
    if (sim_alu_is_signed(t))
      p = (unsigned __int128)((__int128)(int64_t)a * (__int128)(int64_t)b);
    else
      p = (unsigned __int128)a * b;
    *lo = (uint64_t)p;
    *hi = (uint64_t)(p >> 64);
    return;
  }
  uint64_t p;
  if (sim_alu_is_signed(t))
    p = (uint64_t)((int64_t)sim_alu_sext(t, a) * (int64_t)sim_alu_sext(t, b));
  else
    p = (a & m) * (b & m);
  *lo = p & m;
  *hi = (p >> n) & m;
}

/* The 48-bit product of mul24/mad24 as a 64-bit two's-complement value. */
static uint64_t alu_mul24(enum ptx_type t, uint64_t a, uint64_t b)
{
  if (sim_alu_is_signed(t)) {
    int64_t x = (int64_t)((a & 0xffffff) ^ 0x800000) - 0x800000;
    int64_t y = (int64_t)((b & 0xffffff) ^ 0x800000) - 0x800000;
    return (uint64_t)(x * y);
  }
  return (a & 0xffffff) * (b & 0xffffff);
}

static uint64_t alu_sat_s32(int64_t v)
{
  if (v > INT32_MAX)
    v = INT32_MAX;
  if (v < INT32_MIN)
    v = INT32_MIN;
  return (uint64_t)v & 0xffffffffu;
}

uint32_t sim_alu_ibin16x2(enum ptx_op op, enum ptx_type t, uint32_t flags, uint32_t a, uint32_t b)
{
  int sg = t == PTX_T_S16X2;
  uint32_t d = 0;
  for (unsigned k = 0; k < 2; k++) {
    uint32_t ua = (a >> (16 * k)) & 0xffff, ub = (b >> (16 * k)) & 0xffff;
    int32_t x = sg ? (int16_t)ua : (int32_t)ua, y = sg ? (int16_t)ub : (int32_t)ub, r;
    switch (op) {
    case PTX_OP_ADD: r = x + y; break;
    case PTX_OP_SUB: r = x - y; break;
    case PTX_OP_MIN: r = x < y ? x : y; break;
    case PTX_OP_MAX: r = x > y ? x : y; break;
    default: r = 0; break;
    }
    if ((flags & PTX_F_SAT) && sg)
      r = r > INT16_MAX ? INT16_MAX : r < INT16_MIN ? INT16_MIN : r;
    if ((flags & PTX_F_RELU) && sg && r < 0)
      r = 0;
    d |= ((uint32_t)r & 0xffff) << (16 * k);
  }
  return d;
}

uint64_t sim_alu_ibin(enum ptx_op op, enum ptx_type t, uint32_t flags, uint64_t a, uint64_t b)
{
  if (t == PTX_T_U16X2 || t == PTX_T_S16X2)
    return sim_alu_ibin16x2(op, t, flags, (uint32_t)a, (uint32_t)b);
  unsigned n = sim_alu_type_bits(t);
  uint64_t m = sim_alu_mask(t);
  int sg = sim_alu_is_signed(t);
  switch (op) {
  case PTX_OP_ADD: case PTX_OP_SUB:
    if ((flags & PTX_F_SAT) && t == PTX_T_S32) {
      int64_t x = (int32_t)(uint32_t)a, y = (int32_t)(uint32_t)b;
      return alu_sat_s32(op == PTX_OP_ADD ? x + y : x - y);
    }
    return (op == PTX_OP_ADD ? a + b : a - b) & m;
  case PTX_OP_MUL: {
    uint64_t lo, hi;
    if (flags & PTX_F_WIDE) {
      if (n >= 64)
        return 0;
      uint64_t wm = n == 32 ? UINT64_MAX : (UINT64_C(1) << (2 * n)) - 1;
      if (sg)
        return (uint64_t)((int64_t)sim_alu_sext(t, a) * (int64_t)sim_alu_sext(t, b)) & wm;
      return ((a & m) * (b & m)) & wm;
    }
    alu_mul_full(t, a, b, &lo, &hi);
    return (flags & PTX_F_HI) ? hi : lo;
  }
  case PTX_OP_MUL24: {
    uint64_t p = alu_mul24(t, a, b);
    return ((flags & PTX_F_HI) ? p >> 16 : p) & 0xffffffffu;
  }
  case PTX_OP_DIV: case PTX_OP_REM: {
    uint64_t x = a & m, y = b & m;
    if (y == 0)
      return op == PTX_OP_DIV ? m : x;
    if (sg) {
      int64_t sx = (int64_t)sim_alu_sext(t, x), sy = (int64_t)sim_alu_sext(t, y);
      if (sy == -1) /* avoids INT64_MIN / -1; the quotient wraps like the hardware's */
        return op == PTX_OP_DIV ? ((uint64_t)0 - (uint64_t)sx) & m : 0;
      return (uint64_t)(op == PTX_OP_DIV ? sx / sy : sx % sy) & m;
    }
    return op == PTX_OP_DIV ? x / y : x % y;
  }
  case PTX_OP_MIN: case PTX_OP_MAX: {
    uint64_t r;
    if (sg) {
      int64_t sx = (int64_t)sim_alu_sext(t, a), sy = (int64_t)sim_alu_sext(t, b);
      int64_t s = (op == PTX_OP_MIN) == (sx < sy) ? sx : sy;
      if ((flags & PTX_F_RELU) && s < 0)
        s = 0;
      r = (uint64_t)s;
    } else {
      uint64_t x = a & m, y = b & m;
      r = (op == PTX_OP_MIN) == (x < y) ? x : y;
    }
    return r & m;
  }
  case PTX_OP_AND: return (a & b) & m;
  case PTX_OP_OR: return (a | b) & m;
  case PTX_OP_XOR: return (a ^ b) & m;
  case PTX_OP_SHL: {
    uint64_t s = b & 0xffffffffu;
    return s >= n ? 0 : (a << s) & m;
  }
  case PTX_OP_SHR: {
    uint64_t s = b & 0xffffffffu;
    if (sg) {
      int64_t x = (int64_t)sim_alu_sext(t, a);
      return (uint64_t)(x >> (s >= n ? n - 1 : s)) & m;
    }
    return s >= n ? 0 : (a & m) >> s;
  }
  default:
    return 0;
  }
}

uint64_t sim_alu_iun(enum ptx_op op, enum ptx_type t, uint32_t flags, uint64_t a)
{
  unsigned n = sim_alu_type_bits(t);
  uint64_t m = sim_alu_mask(t);
  a &= m;
  switch (op) {
  case PTX_OP_ABS: {
    int64_t x = (int64_t)sim_alu_sext(t, a);
    return (x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x) & m;
  }
  case PTX_OP_NEG: return ((uint64_t)0 - a) & m;
  case PTX_OP_NOT: return t == PTX_T_PRED ? !a : ~a & m;
  case PTX_OP_CNOT: return a == 0;
  case PTX_OP_POPC: return (uint64_t)__builtin_popcountll(a);
  case PTX_OP_CLZ: return a == 0 ? n : (uint64_t)(__builtin_clzll(a) - (64 - (int)n));
  case PTX_OP_BFIND: {
    uint64_t v = a;
    if (sim_alu_is_signed(t) && (a >> (n - 1)) & 1)
      v = ~a & m; /* negative: the most significant 0 */
    if (v == 0)
      return 0xffffffffu;
    uint64_t pos = (uint64_t)(63 - __builtin_clzll(v));
    return (flags & PTX_F_SHIFTAMT) ? n - 1 - pos : pos;
  }
  case PTX_OP_BREV: { /* swap ever larger groups: bits, pairs, nibbles, ... words */
    static const uint64_t k[5] = {UINT64_C(0x5555555555555555), UINT64_C(0x3333333333333333),
                                  UINT64_C(0x0f0f0f0f0f0f0f0f), UINT64_C(0x00ff00ff00ff00ff),
                                  UINT64_C(0x0000ffff0000ffff)};
    uint64_t r = a;
    for (unsigned i = 0; i < 5; i++)
      r = ((r >> (1u << i)) & k[i]) | ((r & k[i]) << (1u << i));
    r = r >> 32 | r << 32;
    return n >= 64 ? r : (r >> (64 - n)) & m;
  }
  default:
    return 0;
  }
}

uint64_t sim_alu_imad(enum ptx_op op, enum ptx_type t, uint32_t flags, uint64_t a, uint64_t b,
                      uint64_t c)
{
  unsigned n = sim_alu_type_bits(t);
  uint64_t m = sim_alu_mask(t);
  switch (op) {
  case PTX_OP_MAD: {
    if (flags & PTX_F_WIDE) {
      if (n >= 64)
        return 0;
      uint64_t wm = n == 32 ? UINT64_MAX : (UINT64_C(1) << (2 * n)) - 1;
      return (sim_alu_ibin(PTX_OP_MUL, t, PTX_F_WIDE, a, b) + c) & wm;
    }
    uint64_t lo, hi;
    alu_mul_full(t, a, b, &lo, &hi);
    if ((flags & PTX_F_HI) && (flags & PTX_F_SAT) && t == PTX_T_S32)
      return alu_sat_s32((int64_t)(int32_t)(uint32_t)hi + (int32_t)(uint32_t)c);
    return (((flags & PTX_F_HI) ? hi : lo) + c) & m;
  }
  case PTX_OP_MAD24: {
    uint64_t p = alu_mul24(t, a, b);
    if (flags & PTX_F_HI) {
      uint64_t h = (p >> 16) & 0xffffffffu;
      if ((flags & PTX_F_SAT) && t == PTX_T_S32)
        return alu_sat_s32((int64_t)(int32_t)(uint32_t)h + (int32_t)(uint32_t)c);
      return (h + c) & 0xffffffffu;
    }
    return (p + c) & 0xffffffffu;
  }
  case PTX_OP_SAD: {
    uint64_t d;
    if (sim_alu_is_signed(t)) {
      int64_t x = (int64_t)sim_alu_sext(t, a), y = (int64_t)sim_alu_sext(t, b);
      d = x < y ? (uint64_t)y - (uint64_t)x : (uint64_t)x - (uint64_t)y;
    } else {
      uint64_t x = a & m, y = b & m;
      d = x < y ? y - x : x - y;
    }
    return (c + d) & m;
  }
  default:
    return 0;
  }
}

unsigned sim_alu_icmp(enum ptx_cmp cmp, enum ptx_type t, uint64_t a, uint64_t b)
{
  uint64_t m = sim_alu_mask(t);
  uint64_t x = a & m, y = b & m;
  int sg = sim_alu_is_signed(t);
  int64_t sx = (int64_t)sim_alu_sext(t, a), sy = (int64_t)sim_alu_sext(t, b);
  switch (cmp) {
  case PTX_CMP_EQ: return x == y;
  case PTX_CMP_NE: return x != y;
  case PTX_CMP_LT: return sg ? sx < sy : x < y;
  case PTX_CMP_LE: return sg ? sx <= sy : x <= y;
  case PTX_CMP_GT: return sg ? sx > sy : x > y;
  case PTX_CMP_GE: return sg ? sx >= sy : x >= y;
  case PTX_CMP_LO: return x < y;
  case PTX_CMP_LS: return x <= y;
  case PTX_CMP_HI: return x > y;
  case PTX_CMP_HS: return x >= y;
  default: return 0;
  }
}

/* d[l] = expr for the lanes of e in [lo, hi), with x and y lane l's operands as LOAD makes
   them: one loop without mask tests when e holds every lane of the range. */
#define SETP_LANES(LOAD, expr)                                                                  \
  do {                                                                                          \
    if (e == 0xffffffffull) {      /* a full warp: constant trip count, vectorised */          \
      SIM_IVDEP                                                                                 \
      for (unsigned l = 0; l < 32; l++) {                                                       \
        LOAD;                                                                                   \
        d[l] = (expr);                                                                          \
      }                                                                                         \
    } else if (full) {                                                                          \
      for (unsigned l = lo; l < hi; l++) {                                                      \
        LOAD;                                                                                   \
        d[l] = (expr);                                                                          \
      }                                                                                         \
    } else {                                                                                    \
      for (unsigned l = lo; l < hi; l++)                                                        \
        if (e >> l & 1) {                                                                       \
          LOAD;                                                                                 \
          d[l] = (expr);                                                                        \
        }                                                                                       \
    }                                                                                           \
  } while (0)

static int lanes_full(uint64_t e, unsigned lo, unsigned hi)
{
  return hi > lo && (unsigned)__builtin_popcountll(e) == hi - lo;
}

void sim_alu_setp_i32_lanes(enum ptx_cmp cmp, int sgn, uint64_t *d, const uint64_t *a,
                            const uint64_t *b, uint64_t e, unsigned lo, unsigned hi)
{
  int full = lanes_full(e, lo, hi);
#define S32 int32_t x = (int32_t)(uint32_t)a[l], y = (int32_t)(uint32_t)b[l]
#define U32 uint32_t x = (uint32_t)a[l], y = (uint32_t)b[l]
  switch (cmp) {
  case PTX_CMP_EQ: SETP_LANES(U32, x == y); return;
  case PTX_CMP_NE: SETP_LANES(U32, x != y); return;
  case PTX_CMP_LT: if (sgn) SETP_LANES(S32, x < y); else SETP_LANES(U32, x < y); return;
  case PTX_CMP_LE: if (sgn) SETP_LANES(S32, x <= y); else SETP_LANES(U32, x <= y); return;
  case PTX_CMP_GT: if (sgn) SETP_LANES(S32, x > y); else SETP_LANES(U32, x > y); return;
  case PTX_CMP_GE: if (sgn) SETP_LANES(S32, x >= y); else SETP_LANES(U32, x >= y); return;
  case PTX_CMP_LO: SETP_LANES(U32, x < y); return;
  case PTX_CMP_LS: SETP_LANES(U32, x <= y); return;
  case PTX_CMP_HI: SETP_LANES(U32, x > y); return;
  case PTX_CMP_HS: SETP_LANES(U32, x >= y); return;
  default: SETP_LANES((void)0, 0); return;
  }
#undef S32
#undef U32
}

void sim_alu_setp_f32_lanes(enum ptx_cmp cmp, uint64_t *d, const uint64_t *a, const uint64_t *b,
                            uint64_t e, unsigned lo, unsigned hi)
{
  int full = lanes_full(e, lo, hi);
#define F32 float x = sim_alu_as_f32(a[l]), y = sim_alu_as_f32(b[l])
#define UN (x != x || y != y)
  switch (cmp) {
  case PTX_CMP_EQ: SETP_LANES(F32, x == y); return;
  case PTX_CMP_NE: SETP_LANES(F32, !UN && x != y); return;
  case PTX_CMP_LT: SETP_LANES(F32, x < y); return;
  case PTX_CMP_LE: SETP_LANES(F32, x <= y); return;
  case PTX_CMP_GT: SETP_LANES(F32, x > y); return;
  case PTX_CMP_GE: SETP_LANES(F32, x >= y); return;
  case PTX_CMP_EQU: SETP_LANES(F32, UN || x == y); return;
  case PTX_CMP_NEU: SETP_LANES(F32, UN || x != y); return;
  case PTX_CMP_LTU: SETP_LANES(F32, UN || x < y); return;
  case PTX_CMP_LEU: SETP_LANES(F32, UN || x <= y); return;
  case PTX_CMP_GTU: SETP_LANES(F32, UN || x > y); return;
  case PTX_CMP_GEU: SETP_LANES(F32, UN || x >= y); return;
  case PTX_CMP_NUM: SETP_LANES(F32, !UN); return;
  case PTX_CMP_NAN: SETP_LANES(F32, UN); return;
  default: SETP_LANES((void)0, 0); return;
  }
#undef F32
#undef UN
}
#undef SETP_LANES

uint64_t sim_alu_bfe(enum ptx_type t, uint64_t a, uint32_t pos, uint32_t len)
{
  unsigned n = (t == PTX_T_U64 || t == PTX_T_S64 || t == PTX_T_B64) ? 64 : 32;
  uint64_t m = n == 64 ? UINT64_MAX : 0xffffffffu;
  unsigned msb = n - 1;
  pos &= 0xff;
  len &= 0xff;
  a &= m;
  uint64_t sbit = 0;
  if (sim_alu_is_signed(t) && len != 0) {
    unsigned top = pos + len - 1 < msb ? pos + len - 1 : msb;
    sbit = (a >> top) & 1;
  }
  unsigned count = pos > msb ? 0 : (len < n - pos ? len : n - pos); /* bits taken from a */
  uint64_t keep = count >= 64 ? UINT64_MAX : (UINT64_C(1) << count) - 1;
  uint64_t field = count ? (a >> pos) & keep : 0;
  if (sbit)
    field |= ~keep;
  return field & m;
}

uint64_t sim_alu_bfi(enum ptx_type t, uint64_t a, uint64_t b, uint32_t pos, uint32_t len)
{
  unsigned n = (t == PTX_T_B64 || t == PTX_T_U64 || t == PTX_T_S64) ? 64 : 32;
  uint64_t m = n == 64 ? UINT64_MAX : 0xffffffffu;
  pos &= 0xff;
  len &= 0xff;
  b &= m;
  if (pos >= n || len == 0)
    return b;
  unsigned count = len < n - pos ? len : n - pos;
  uint64_t keep = count >= 64 ? UINT64_MAX : (UINT64_C(1) << count) - 1;
  return ((b & ~(keep << pos)) | ((a & keep) << pos)) & m;
}

uint32_t sim_alu_prmt_sel(enum ptx_prmtmode mode, uint32_t c)
{
  /* selector nibbles (d.b3 d.b2 d.b1 d.b0) of each special mode, indexed by c[1:0] */
  static const uint16_t sel[7][4] = {
    {0, 0, 0, 0},                          /* default: unused */
    {0x3210, 0x4321, 0x5432, 0x6543},      /* f4e: forward 4 extract */
    {0x5670, 0x6701, 0x7012, 0x0123},      /* b4e: backward 4 extract */
    {0x0000, 0x1111, 0x2222, 0x3333},      /* rc8: replicate 8 */
    {0x3210, 0x3211, 0x3222, 0x3333},      /* ecl: edge clamp left */
    {0x0000, 0x1110, 0x2210, 0x3210},      /* ecr: edge clamp right */
    {0x1010, 0x3232, 0x1010, 0x3232},      /* rc16: replicate 16 */
  };
  return mode == PTX_PRMT_DEFAULT ? (c & 0xffff) : sel[mode <= PTX_PRMT_RC16 ? mode : 0][c & 3];
}

uint32_t sim_alu_prmt(enum ptx_prmtmode mode, uint32_t a, uint32_t b, uint32_t c)
{
  uint64_t src = (uint64_t)b << 32 | a;
  uint32_t s = sim_alu_prmt_sel(mode, c);
  uint32_t d = 0;
  for (unsigned i = 0; i < 4; i++) {
    uint32_t nib = (s >> (4 * i)) & 0xf;
    uint32_t byte = (uint32_t)(src >> (8 * (nib & 7))) & 0xff;
    if (mode == PTX_PRMT_DEFAULT && (nib & 8)) /* sign-replicate the selected byte */
      byte = (byte & 0x80) ? 0xff : 0;
    d |= byte << (8 * i);
  }
  return d;
}

uint32_t sim_alu_shf(enum ptx_shfmode mode, uint32_t a, uint32_t b, uint32_t c)
{
  int clamp = mode == PTX_SHF_L_CLAMP || mode == PTX_SHF_R_CLAMP;
  uint32_t s = clamp ? (c > 32 ? 32 : c) : (c & 31);
  uint64_t v = (uint64_t)b << 32 | a;
  if (mode == PTX_SHF_L_WRAP || mode == PTX_SHF_L_CLAMP)
    return (uint32_t)((v << s) >> 32);
  return (uint32_t)(v >> s);
}

uint32_t sim_alu_lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut)
{
  uint32_t r = 0;
  for (unsigned i = 0; i < 8; i++) {
    if (!((lut >> i) & 1))
      continue;
    r |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
  }
  return r;
}

/* Byte i (or 16-bit half) of v, sign-extended when the operand type is s32. */
static int32_t alu_lane(enum ptx_type t, uint32_t v, unsigned i, unsigned bits)
{
  uint32_t x = (v >> (bits * i)) & ((1u << bits) - 1);
  if (t == PTX_T_S32 && (x >> (bits - 1)))
    return (int32_t)x - (int32_t)(1u << bits);
  return (int32_t)x;
}

uint32_t sim_alu_dp4a(enum ptx_type at, enum ptx_type bt, uint32_t a, uint32_t b, uint32_t c)
{
  uint32_t d = c;
  for (unsigned i = 0; i < 4; i++)
    d += (uint32_t)(alu_lane(at, a, i, 8) * alu_lane(bt, b, i, 8));
  return d;
}

uint32_t sim_alu_dp2a(enum ptx_type at, enum ptx_type bt, uint32_t flags, uint32_t a,
                      uint32_t b, uint32_t c)
{
  unsigned k = (flags & PTX_F_HI) ? 2 : 0;
  uint32_t d = c;
  d += (uint32_t)(alu_lane(at, a, 0, 16) * alu_lane(bt, b, k, 8));
  d += (uint32_t)(alu_lane(at, a, 1, 16) * alu_lane(bt, b, k + 1, 8));
  return d;
}

/* ---- carry chain ---- */

uint64_t sim_alu_addc(enum ptx_type t, uint64_t a, uint64_t b, unsigned cin, unsigned *cout)
{
  uint64_t m = sim_alu_mask(t);
  a &= m;
  b &= m;
  uint64_t s = (a + b) & m;
  unsigned c1 = s < a;
  uint64_t r = (s + (cin & 1)) & m;
  unsigned c2 = r < s;
  *cout = c1 | c2;
  return r;
}

uint64_t sim_alu_subc(enum ptx_type t, uint64_t a, uint64_t b, unsigned cin, unsigned *cout)
{
  uint64_t m = sim_alu_mask(t);
  a &= m;
  b &= m;
  uint64_t d = (a - b) & m;
  unsigned b1 = a < b;
  uint64_t r = (d - (cin & 1)) & m;
  unsigned b2 = d < (uint64_t)(cin & 1);
  *cout = b1 | b2;
  return r;
}

uint64_t sim_alu_madc(enum ptx_type t, uint32_t flags, uint64_t a, uint64_t b, uint64_t c,
                      unsigned cin, unsigned *cout)
{
  uint64_t lo, hi;
  alu_mul_full(t, a, b, &lo, &hi);
  return sim_alu_addc(t, (flags & PTX_F_HI) ? hi : lo, c, cin, cout);
}

uint32_t sim_alu_bmsk(int clamp, uint32_t a, uint32_t b)
{
  uint32_t a1 = a & 0x1f, b1 = b & 0x1f, sum = a1 + b1;
  uint32_t mask0 = ~0u << a1, mask1 = sum >= 32 ? 0 : ~0u << sum;
  int over = sum >= 32;
  if (clamp) {
    if (a >= 32) {
      over = 1;
      mask0 = 0;
    }
    if (b >= 32)
      over = 1;
  }
  if (over)
    mask1 = 0;
  else if (b1 == 0)
    mask1 = ~0u;
  return mask0 & ~mask1;
}

uint32_t sim_alu_szext(int clamp, int is_signed, uint32_t a, uint32_t b)
{
  uint32_t b1 = b & 0x1f;
  int too_large = clamp && b >= 32;
  uint32_t mask = too_large ? 0 : ~0u << b1;
  int sign = !(b1 == 0 || too_large || !is_signed) && ((a >> ((b1 - 1) & 0x1f)) & 1);
  return (a & ~mask) | (sign ? mask : 0);
}

uint32_t sim_alu_fns(uint32_t mask, uint32_t base, int32_t offset)
{
  if (offset == 0)
    return base < 32 && (mask >> base & 1) ? base : 0xffffffffu;
  int64_t count = (offset > 0 ? (int64_t)offset : -(int64_t)offset) - 1;
  int inc = offset > 0 ? 1 : -1;
  for (int64_t pos = base; pos >= 0 && pos < 32; pos += inc)
    if (mask >> pos & 1) {
      if (count == 0)
        return (uint32_t)pos;
      count--;
    }
  return 0xffffffffu;
}

uint32_t sim_alu_vabsdiff(unsigned lanes, enum ptx_type dt, enum ptx_type at, uint32_t flags,
                          uint32_t a, uint32_t b, uint32_t c)
{
  unsigned bits = 32 / lanes;
  uint32_t lm = (1u << bits) - 1, d = 0, sum = c;
  int as = ptx_type_is_signed(at), bs = (flags & PTX_F_BSIGNED) != 0, ds = ptx_type_is_signed(dt);
  for (unsigned i = 0; i < lanes; i++) {
    uint32_t ua = (a >> (i * bits)) & lm, ub = (b >> (i * bits)) & lm;
    int64_t x = as && (ua >> (bits - 1)) ? (int64_t)ua - (1ll << bits) : (int64_t)ua;
    int64_t y = bs && (ub >> (bits - 1)) ? (int64_t)ub - (1ll << bits) : (int64_t)ub;
    int64_t t = x > y ? x - y : y - x;
    if (flags & PTX_F_VADD) {
      sum += (uint32_t)t;
      continue;
    }
    if (flags & PTX_F_SAT) {
      int64_t hi = ds ? (1ll << (bits - 1)) - 1 : (int64_t)lm;
      t = t > hi ? hi : t;
    }
    d |= ((uint32_t)t & lm) << (i * bits);
  }
  return (flags & PTX_F_VADD) ? sum : d;
}
