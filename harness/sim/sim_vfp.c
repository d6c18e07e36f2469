/* sim_vfp.c: a full 32-lane warp's float operations that sim_alu does lane by lane, eight
 * (f32) or four (f64) lanes a vector with AVX2, bit for bit as sim_alu computes them.
 *
 * The IEEE operations of f32 and f64 (add, sub, mul, fma, div, sqrt, rcp) in any of the four
 * rounding modes, abs, neg and copysign, rounding to an integral value (floorf, ceilf,
 * truncf, rintf), and the conversions between f32 and f64 and between floats and 32-bit
 * integers. sim_alu computes each with the host's IEEE operation in the instruction's
 * rounding mode (fesetround around it) and fixes what PTX defines otherwise: a NaN result
 * is the canonical NaN (f32, and f64 from a conversion) or a NaN input quieted (f64
 * arithmetic: of two, the second operand's, but a division's first), .ftz flushes
 * subnormal f32 inputs and results to a signed zero, a float-to-integer conversion clamps.
 * The vector code does the same IEEE operations, in the same mode (the MXCSR's rounding
 * control, set around them), and the same fixes. sim_alu's f32 approximations of sin, cos,
 * lg2, ex2 and tanh are the host libm's functions in double, rounded to f32: here exp2,
 * log2, sin and cos in vectors of doubles where the f32 they round to is sure to be libm's
 * (sure8), libm's own calls, lane by lane, for the other lanes and for tanh; rsqrt is
 * 1 / sqrt in double, and cvt.sat.f32.f32 a clamp. Half precision (f16 and f16x2
 * arithmetic, the conversions between f32 and f16 or bf16) is sim_vhalf.c's, with F16C: its
 * kinds are listed here, their code there. The rest (.relu, .sat elsewhere, bf16 arithmetic,
 * f16 in other rounding modes) stays on sim_alu's lane loops: sim_vfp_of answers
 * SIM_VFP_NONE for it, as it does where the CPU has no AVX2.
 */
#include <math.h>

#include "sim/sim_alu.h"
#include "sim/sim_int.h"

#ifdef SIM_X86
/* The rounding modes the IEEE operations take: none and .rn (to nearest even), .rz, .rm,
   .rp; the integer ones (.rni, .rzi, .rmi, .rpi) are the conversions' own. */
static int ieee_rnd(enum ptx_rnd r)
{
  return r == PTX_RND_NONE || r == PTX_RND_RN || r == PTX_RND_RZ || r == PTX_RND_RM ||
         r == PTX_RND_RP;
}

static int int_rnd(enum ptx_rnd r)
{
  return r == PTX_RND_RNI || r == PTX_RND_RZI || r == PTX_RND_RMI || r == PTX_RND_RPI;
}
#endif

#ifdef SIM_X86
/* sim_vhalf.c's kinds (with F16C): f16 and f16x2 arithmetic to nearest (.ftz, .relu, .sat
   as alu_fin16 applies them), min and max (.ftz, .NaN, .relu), neg and abs (.ftz), the
   conversions between f32 and f16 or bf16 (.ftz only). */
static __attribute__((noinline)) enum sim_vfp half_of(const struct ptx_inst *in)
{
  const enum ptx_type t = (enum ptx_type)in->type, st = (enum ptx_type)in->type2;
  const enum ptx_rnd rnd = (enum ptx_rnd)in->rnd;
  const int rn = rnd == PTX_RND_NONE || rnd == PTX_RND_RN;
  const uint32_t fl = in->flags;
  if (!sim_cpu_f16c)
    return SIM_VFP_NONE;
  switch ((enum ptx_op)in->op) {
  case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_FMA:
    if ((t != PTX_T_F16 && t != PTX_T_F16X2) || !rn ||
        (fl & ~(uint32_t)(PTX_F_FTZ | PTX_F_RELU | PTX_F_SAT)) ||
        in->nopd != (in->op == PTX_OP_FMA ? 4 : 3))
      return SIM_VFP_NONE;
    return in->op == PTX_OP_ADD ? SIM_VFP_H_ADD : in->op == PTX_OP_SUB ? SIM_VFP_H_SUB
           : in->op == PTX_OP_MUL ? SIM_VFP_H_MUL : SIM_VFP_H_FMA;
  case PTX_OP_MIN: case PTX_OP_MAX:
    if ((t != PTX_T_F16 && t != PTX_T_F16X2) || rnd != PTX_RND_NONE || in->nopd != 3 ||
        (fl & ~(uint32_t)(PTX_F_FTZ | PTX_F_NAN | PTX_F_RELU)))
      return SIM_VFP_NONE;
    return in->op == PTX_OP_MIN ? SIM_VFP_H_MIN : SIM_VFP_H_MAX;
  case PTX_OP_NEG: case PTX_OP_ABS:
    if ((t != PTX_T_F16 && t != PTX_T_F16X2) || rnd != PTX_RND_NONE || in->nopd != 2 ||
        (fl & ~(uint32_t)PTX_F_FTZ))
      return SIM_VFP_NONE;
    return in->op == PTX_OP_NEG ? SIM_VFP_H_NEG : SIM_VFP_H_ABS;
  case PTX_OP_CVT:
    if (fl & ~(uint32_t)PTX_F_FTZ)
      return SIM_VFP_NONE;
    if ((t == PTX_T_F16 || t == PTX_T_BF16) && st == PTX_T_F32 && rnd == PTX_RND_RN &&
        in->nopd == 2)
      return SIM_VFP_H_TO;
    if ((t == PTX_T_F16X2 || t == PTX_T_BF16X2) && st == PTX_T_F32 && rnd == PTX_RND_RN &&
        in->nopd == 3)
      return SIM_VFP_H_PACK;
    if (t == PTX_T_F32 && (st == PTX_T_F16 || st == PTX_T_BF16) && ieee_rnd(rnd) &&
        in->nopd == 2)
      return SIM_VFP_H_FROM;
    return SIM_VFP_NONE;
  default:
    return SIM_VFP_NONE;
  }
}
#endif

enum sim_vfp sim_vfp_of(const struct ptx_inst *in)
{
#ifdef SIM_X86
  const enum ptx_type t = (enum ptx_type)in->type, st = (enum ptx_type)in->type2;
  const enum ptx_rnd rnd = (enum ptx_rnd)in->rnd;
  const uint32_t fl = in->flags, ftz_only = fl & ~(uint32_t)PTX_F_FTZ;
  const int f32 = t == PTX_T_F32, f64 = t == PTX_T_F64;
  const int rn = rnd == PTX_RND_NONE || rnd == PTX_RND_RN;
  if (!sim_cpu_avx2)
    return SIM_VFP_NONE;
  /* (f16, f16x2, bf16, bf16x2, of the operation or a cvt's source: half_of's alone) */
#define HALF(ty) ((unsigned)((ty) - PTX_T_F16) <= PTX_T_BF16X2 - PTX_T_F16)
  switch ((enum ptx_op)in->op) {
  case PTX_OP_MIN:
  case PTX_OP_MAX:
    return HALF(t) ? half_of(in) : SIM_VFP_NONE;
  case PTX_OP_ADD:
  case PTX_OP_SUB:
  case PTX_OP_MUL:
    if (HALF(t))
      return half_of(in);
    /* (f32 at nearest without .ftz: the fast plan's FK_VOP) */
    if (in->nopd != 3 || ftz_only || !ieee_rnd(rnd) || (!f32 && !f64) || (f32 && rn && !fl))
      return SIM_VFP_NONE;
    return in->op == PTX_OP_ADD ? (f32 ? SIM_VFP_ADD_F32 : SIM_VFP_ADD_F64)
           : in->op == PTX_OP_SUB ? (f32 ? SIM_VFP_SUB_F32 : SIM_VFP_SUB_F64)
                                  : (f32 ? SIM_VFP_MUL_F32 : SIM_VFP_MUL_F64);
  case PTX_OP_FMA:
  case PTX_OP_MAD:                             /* (mad.f32, mad.rn.f64: an fma) */
    if (HALF(t))
      return half_of(in);
    if (in->nopd != 4 || ftz_only || !ieee_rnd(rnd) || (!f32 && !f64) || (f32 && rn && !fl) ||
        !sim_cpu_avx2_fma)
      return SIM_VFP_NONE;
    return f32 ? SIM_VFP_FMA_F32 : SIM_VFP_FMA_F64;
  case PTX_OP_DIV:
    if (f32 && !(fl & ~(uint32_t)(PTX_F_FTZ | PTX_F_FULL | PTX_F_APPROX)))
      return (fl & PTX_F_APPROX) ? (rn ? SIM_VFP_DIV_APPROX_F32 : SIM_VFP_NONE)
             : (fl & PTX_F_FULL) ? (rn ? SIM_VFP_DIV_FULL_F32 : SIM_VFP_NONE)
             : ieee_rnd(rnd) ? SIM_VFP_DIV_F32 : SIM_VFP_NONE;
    return f64 && !ftz_only && ieee_rnd(rnd) ? SIM_VFP_DIV_F64 : SIM_VFP_NONE;
  case PTX_OP_SQRT:
  case PTX_OP_RCP:
    /* .approx computes what .rn does (sim_alu's alu_f32_un, alu_f64_un) */
    if ((!f32 && !f64) || (fl & ~(uint32_t)(PTX_F_FTZ | PTX_F_APPROX)) || !ieee_rnd(rnd) ||
        ((fl & PTX_F_APPROX) && !rn))
      return SIM_VFP_NONE;
    return in->op == PTX_OP_SQRT ? (f32 ? SIM_VFP_SQRT_F32 : SIM_VFP_SQRT_F64)
                                 : (f32 ? SIM_VFP_RCP_F32 : SIM_VFP_RCP_F64);
  case PTX_OP_ABS:
  case PTX_OP_NEG:
    if (HALF(t))
      return half_of(in);
    /* bit operations on the sign (f32 after .ftz): NaNs keep their bits */
    if (f64 || (f32 && !ftz_only))
      return in->op == PTX_OP_ABS ? (f32 ? SIM_VFP_ABS_F32 : SIM_VFP_ABS_F64)
                                  : (f32 ? SIM_VFP_NEG_F32 : SIM_VFP_NEG_F64);
    return SIM_VFP_NONE;
  case PTX_OP_COPYSIGN:
    if (f64 || (f32 && !ftz_only))
      return f32 ? SIM_VFP_COPYSIGN_F32 : SIM_VFP_COPYSIGN_F64;
    return SIM_VFP_NONE;
  case PTX_OP_RSQRT:
  case PTX_OP_SIN:
  case PTX_OP_COS:
  case PTX_OP_LG2:
  case PTX_OP_EX2:
  case PTX_OP_TANH:
    /* (sim_alu's alu_f32_un computes each whatever its .approx, and no rounding mode) */
    if (!f32 || in->nopd != 2 || (fl & ~(uint32_t)(PTX_F_FTZ | PTX_F_APPROX)) ||
        (in->op != PTX_OP_RSQRT && in->op != PTX_OP_TANH && !sim_cpu_avx2_fma))  /* (fmas) */
      return SIM_VFP_NONE;
    switch ((enum ptx_op)in->op) {
    case PTX_OP_RSQRT: return SIM_VFP_RSQRT_F32;
    case PTX_OP_SIN: return SIM_VFP_SIN_F32;
    case PTX_OP_COS: return SIM_VFP_COS_F32;
    case PTX_OP_LG2: return SIM_VFP_LG2_F32;
    case PTX_OP_EX2: return SIM_VFP_EX2_F32;
    default: return SIM_VFP_TANH_F32;
    }
  case PTX_OP_CVT:
    if (HALF(t) || HALF(st))
      return half_of(in);
    if (in->nopd == 2 && f32 && st == PTX_T_F32 && rn &&
        (fl & ~(uint32_t)PTX_F_FTZ) == PTX_F_SAT)
      return SIM_VFP_SAT_F32;
    if (in->nopd != 2 || ftz_only)
      return SIM_VFP_NONE;
    if (f32 && (st == PTX_T_S32 || st == PTX_T_U32) && !fl && ieee_rnd(rnd) &&
        rnd != PTX_RND_NONE)
      return st == PTX_T_S32 ? SIM_VFP_F32_S32 : SIM_VFP_F32_U32;
    if (f32 && st == PTX_T_F64 && ieee_rnd(rnd) && rnd != PTX_RND_NONE)
      return SIM_VFP_F32_F64;
    if (f64 && st == PTX_T_F32 && ieee_rnd(rnd))        /* exact */
      return SIM_VFP_F64_F32;
    if (f32 && st == PTX_T_F32 && int_rnd(rnd))
      return SIM_VFP_RND_F32;
    if (f64 && st == PTX_T_F64 && int_rnd(rnd))
      return SIM_VFP_RND_F64;
    /* a subnormal rounds to 0 or 1 as .ftz makes it 0 or not: in8 flushes it first */
    if (t == PTX_T_S32 && st == PTX_T_F32 && int_rnd(rnd))
      return SIM_VFP_S32_F32;
    if (t == PTX_T_U32 && st == PTX_T_F32 && int_rnd(rnd))
      return SIM_VFP_U32_F32;
    if (t == PTX_T_S32 && st == PTX_T_F64 && int_rnd(rnd))
      return SIM_VFP_S32_F64;
    return SIM_VFP_NONE;
  default:
    return SIM_VFP_NONE;
  }
#undef HALF
#else
  (void)in;
  return SIM_VFP_NONE;
#endif
}

#ifdef SIM_X86
#define AVX2 __attribute__((target("avx2")))
#define AVX2FMA __attribute__((target("avx2,fma")))

/* An f32 result as alu_fin32 leaves it (without .sat or .relu): NaN the canonical NaN, then
   .ftz where asked. */
AVX2 static inline __m256i fin8(__m256 r, int ftz)
{
  __m256i u = _mm256_blendv_epi8(_mm256_castps_si256(r), _mm256_set1_epi32((int)SIM_ALU_F32_CNAN),
                                 _mm256_castps_si256(_mm256_cmp_ps(r, r, _CMP_UNORD_Q)));
  return ftz ? sim_ftz32x8(u) : u;
}

/* The lanes of eight f32 registers at p, flushed where ftz is set. */
AVX2 static inline __m256 in8(const uint64_t *p, int ftz)
{
  __m256i u = sim_lo32x8(p);
  return _mm256_castsi256_ps(ftz ? sim_ftz32x8(u) : u);
}

/* Whether each f64 (as bits) is a NaN. */
AVX2 static inline __m256i isnan4(__m256i u)
{
  return _mm256_cmpgt_epi64(_mm256_and_si256(u, _mm256_set1_epi64x(0x7fffffffffffffffll)),
                            _mm256_set1_epi64x(0x7ff0000000000000ll));
}

/* An f64 result as alu_fin64 leaves it: a NaN becomes the first NaN of a, b, c quieted, else
   SIM_ALU_F64_INVALID (sim_alu_f64_nan). */
AVX2 static inline __m256i fin4(__m256d r, __m256i a, __m256i b, __m256i c)
{
  const __m256i nan = _mm256_castpd_si256(_mm256_cmp_pd(r, r, _CMP_UNORD_Q));
  if (_mm256_testz_si256(nan, nan))
    return _mm256_castpd_si256(r);
  const __m256i q = _mm256_set1_epi64x((long long)(UINT64_C(1) << 51));
  __m256i v = _mm256_set1_epi64x((long long)SIM_ALU_F64_INVALID);
  v = _mm256_blendv_epi8(v, _mm256_or_si256(c, q), isnan4(c));
  v = _mm256_blendv_epi8(v, _mm256_or_si256(b, q), isnan4(b));
  v = _mm256_blendv_epi8(v, _mm256_or_si256(a, q), isnan4(a));
  return _mm256_blendv_epi8(_mm256_castpd_si256(r), v, nan);
}

/* x rounded to an integral value as rnd says (alu_round_int's), eight f32 or four f64. */
__attribute__((target("avx2"), always_inline)) static inline __m256 round8(__m256 x,
                                                                          enum ptx_rnd rnd)
{
  switch (rnd) {
  case PTX_RND_RNI: return _mm256_round_ps(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  case PTX_RND_RMI: return _mm256_round_ps(x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  case PTX_RND_RPI: return _mm256_round_ps(x, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC);
  default: return _mm256_round_ps(x, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
  }
}

__attribute__((target("avx2"), always_inline)) static inline __m256d round4(__m256d x,
                                                                           enum ptx_rnd rnd)
{
  switch (rnd) {
  case PTX_RND_RNI: return _mm256_round_pd(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  case PTX_RND_RMI: return _mm256_round_pd(x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  case PTX_RND_RPI: return _mm256_round_pd(x, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC);
  default: return _mm256_round_pd(x, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
  }
}

/* div.full.f32 of eight lanes: in double, then rounded to f32. */
AVX2 static inline __m256 div_full8(__m256 x, __m256 y)
{
  __m128 lo = _mm256_cvtpd_ps(_mm256_div_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(x)),
                                            _mm256_cvtps_pd(_mm256_castps256_ps128(y))));
  __m128 hi = _mm256_cvtpd_ps(_mm256_div_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(x, 1)),
                                            _mm256_cvtps_pd(_mm256_extractf128_ps(y, 1))));
  return _mm256_set_m128(hi, lo);
}

/* div.approx.f32 of eight lanes: x * (1 / y), but where 1 / y is subnormal, flushed (|y|
   past 2^126, finite): a zero of the quotient's sign, or NaN for an infinite or NaN x. */
AVX2 static inline __m256 div_approx8(__m256 x, __m256 y)
{
  const __m256i mag = _mm256_set1_epi32(0x7fffffff), sign = _mm256_set1_epi32((int)0x80000000u);
  const __m256i ay = _mm256_and_si256(_mm256_castps_si256(y), mag);
  const __m256i tiny = _mm256_and_si256(_mm256_cmpgt_epi32(ay, _mm256_set1_epi32(0x7e800000)),
                                        _mm256_cmpgt_epi32(_mm256_set1_epi32(0x7f800000), ay));
  __m256i r = _mm256_castps_si256(_mm256_mul_ps(x, _mm256_div_ps(_mm256_set1_ps(1.0f), y)));
  const __m256i z = _mm256_and_si256(_mm256_xor_si256(_mm256_castps_si256(x),
                                                       _mm256_castps_si256(y)), sign);
  const __m256i xbad = _mm256_cmpgt_epi32(_mm256_and_si256(_mm256_castps_si256(x), mag),
                                          _mm256_set1_epi32(0x7f7fffff));
  r = _mm256_blendv_epi8(r, _mm256_blendv_epi8(z, _mm256_set1_epi32(0x7fc00000), xbad), tiny);
  return _mm256_castsi256_ps(r);
}

/* rsqrt.approx.f32 of eight lanes as sim_alu computes it: 1 / sqrt in double, rounded to
   f32. */
AVX2 static inline __m256 rsqrt8(__m256 x)
{
  const __m256d one = _mm256_set1_pd(1.0);
  __m128 lo = _mm256_cvtpd_ps(_mm256_div_pd(one, _mm256_sqrt_pd(
                                                     _mm256_cvtps_pd(_mm256_castps256_ps128(x)))));
  __m128 hi = _mm256_cvtpd_ps(_mm256_div_pd(one, _mm256_sqrt_pd(
                                                     _mm256_cvtps_pd(_mm256_extractf128_ps(x, 1)))));
  return _mm256_set_m128(hi, lo);
}

/* fn of eight lanes in double, rounded to f32: sim_alu's libm calls, one a lane. */
AVX2 static inline __m256 libm8(__m256 x, double (*fn)(double))
{
  float v[8], r[8];
  _mm256_storeu_ps(v, x);
  for (unsigned j = 0; j < 8; j++)
    r[j] = (float)fn((double)v[j]);
  return _mm256_loadu_ps(r);
}

/* The lanes of ok whose double y (a normal f32's worth, as bits) lies more than 512 units of
   its last place from a midpoint between two f32 values: the 29 bits the f32 rounding
   drops, against 2^28. Within 2^-45 of y, relative, nothing crosses a midpoint there, so a
   value that close to y (libm's, with the vector code's error bound) rounds to the same
   f32. */
AVX2 static inline __m256i sure_f32(__m256i y, __m256d ok)
{
  const __m256i low = _mm256_and_si256(y, _mm256_set1_epi64x((1 << 29) - 1));
  const __m256i far = _mm256_or_si256(_mm256_cmpgt_epi64(low, _mm256_set1_epi64x((1 << 28) + 512)),
                                      _mm256_cmpgt_epi64(_mm256_set1_epi64x((1 << 28) - 512), low));
  return _mm256_and_si256(far, _mm256_castpd_si256(ok));
}

/* 2^(j / 64) for j = 0 .. 63, rounded to double (from 60-digit decimals). */
static const double exp2_tab[64] = {
  0x1.0000000000000p+0, 0x1.02c9a3e778061p+0, 0x1.059b0d3158574p+0,
  0x1.0874518759bc8p+0, 0x1.0b5586cf9890fp+0, 0x1.0e3ec32d3d1a2p+0,
  0x1.11301d0125b51p+0, 0x1.1429aaea92de0p+0, 0x1.172b83c7d517bp+0,
  0x1.1a35beb6fcb75p+0, 0x1.1d4873168b9aap+0, 0x1.2063b88628cd6p+0,
  0x1.2387a6e756238p+0, 0x1.26b4565e27cddp+0, 0x1.29e9df51fdee1p+0,
  0x1.2d285a6e4030bp+0, 0x1.306fe0a31b715p+0, 0x1.33c08b26416ffp+0,
  0x1.371a7373aa9cbp+0, 0x1.3a7db34e59ff7p+0, 0x1.3dea64c123422p+0,
  0x1.4160a21f72e2ap+0, 0x1.44e086061892dp+0, 0x1.486a2b5c13cd0p+0,
  0x1.4bfdad5362a27p+0, 0x1.4f9b2769d2ca7p+0, 0x1.5342b569d4f82p+0,
  0x1.56f4736b527dap+0, 0x1.5ab07dd485429p+0, 0x1.5e76f15ad2148p+0,
  0x1.6247eb03a5585p+0, 0x1.6623882552225p+0, 0x1.6a09e667f3bcdp+0,
  0x1.6dfb23c651a2fp+0, 0x1.71f75e8ec5f74p+0, 0x1.75feb564267c9p+0,
  0x1.7a11473eb0187p+0, 0x1.7e2f336cf4e62p+0, 0x1.82589994cce13p+0,
  0x1.868d99b4492edp+0, 0x1.8ace5422aa0dbp+0, 0x1.8f1ae99157736p+0,
  0x1.93737b0cdc5e5p+0, 0x1.97d829fde4e50p+0, 0x1.9c49182a3f090p+0,
  0x1.a0c667b5de565p+0, 0x1.a5503b23e255dp+0, 0x1.a9e6b5579fdbfp+0,
  0x1.ae89f995ad3adp+0, 0x1.b33a2b84f15fbp+0, 0x1.b7f76f2fb5e47p+0,
  0x1.bcc1e904bc1d2p+0, 0x1.c199bdd85529cp+0, 0x1.c67f12e57d14bp+0,
  0x1.cb720dcef9069p+0, 0x1.d072d4a07897cp+0, 0x1.d5818dcfba487p+0,
  0x1.da9e603db3285p+0, 0x1.dfc97337b9b5fp+0, 0x1.e502ee78b3ff6p+0,
  0x1.ea4afa2a490dap+0, 0x1.efa1bee615a27p+0, 0x1.f50765b6e4540p+0,
  0x1.fa7c1819e90d8p+0,
};

/* 2^x of four f32 values x (as doubles): 2^(k / 64) from exp2_tab and 2^n, k = 64 n + j the
   nearest integer to 64 x, times e^r, r = (x - k / 64) ln 2 (|r| < 0.0055, x - k / 64 exact),
   by its Taylor series to r^6 (truncated at 3e-20). Within 2^-49 of 2^x, relative: the table
   entry, the products and the series' steps each a rounding or two of 2^-53. libm's exp2 is
   within 0.51 ulp of double (2^-53), so where the result lies more than 2^-45 (512 units of
   its last place) from a midpoint between two f32 values, both round to the same f32. *safe
   gets the lanes where that holds and the result is a normal f32 (x in [-126, 128)); the
   others need libm. */
AVX2FMA static inline __m256d exp2_4(__m256d x, __m256i *safe)
{
  const __m256d ok = _mm256_and_pd(_mm256_cmp_pd(x, _mm256_set1_pd(-126.0), _CMP_GE_OQ),
                                   _mm256_cmp_pd(x, _mm256_set1_pd(128.0), _CMP_LT_OQ));
  x = _mm256_and_pd(x, ok);                    /* (the others: 0, unused) */
  const __m256d k = _mm256_round_pd(_mm256_mul_pd(x, _mm256_set1_pd(64.0)),
                                    _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  const __m256d r = _mm256_mul_pd(_mm256_fnmadd_pd(k, _mm256_set1_pd(1.0 / 64), x),
                                  _mm256_set1_pd(0x1.62e42fefa39efp-1));
  const __m128i ki = _mm256_cvtpd_epi32(k);
  const __m256d t = _mm256_i32gather_pd(exp2_tab, _mm_and_si128(ki, _mm_set1_epi32(63)), 8);
  __m256d p = _mm256_set1_pd(1.0 / 720);
  p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(1.0 / 120));
  p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(1.0 / 24));
  p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(1.0 / 6));
  p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(0.5));
  p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(1.0));
  p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(1.0));
  /* t p is in [0.99, 1.01]: 2^n goes into its exponent (a normal double for every x here) */
  const __m256i n = _mm256_cvtepi32_epi64(_mm_srai_epi32(ki, 6));
  const __m256i y = _mm256_add_epi64(_mm256_castpd_si256(_mm256_mul_pd(t, p)),
                                     _mm256_slli_epi64(n, 52));
  *safe = sure_f32(y, ok);
  return _mm256_castsi256_pd(y);
}

/* lg2_4's tables: for z in the 64 intervals of [0.6875, 1.375) that the top six bits of a
   double's fraction less 0x6000000000000 pick, the inverse of the interval's middle
   rounded to double, invc, and log2(1 / invc) rounded (from 60-digit decimals); the two
   intervals around 1 take 1 and 0. */
static const double lg2_invc[64] = {
  0x1.724287f46debcp+0, 0x1.6e1f76b4337c7p+0, 0x1.6a13cd1537290p+0,
  0x1.661ec6a5122f9p+0, 0x1.623fa77016240p+0, 0x1.5e75bb8d015e7p+0,
  0x1.5ac056b015ac0p+0, 0x1.571ed3c506b3ap+0, 0x1.5390948f40febp+0,
  0x1.5015015015015p+0, 0x1.4cab88725af6ep+0, 0x1.49539e3b2d067p+0,
  0x1.460cbc7f5cf9ap+0, 0x1.42d6625d51f87p+0, 0x1.3fb013fb013fbp+0,
  0x1.3c995a47babe7p+0, 0x1.3991c2c187f63p+0, 0x1.3698df3de0748p+0,
  0x1.33ae45b57bcb2p+0, 0x1.30d190130d190p+0, 0x1.2e025c04b8097p+0,
  0x1.2b404ad012b40p+0, 0x1.288b01288b013p+0, 0x1.25e22708092f1p+0,
  0x1.23456789abcdfp+0, 0x1.20b470c67c0d9p+0, 0x1.1e2ef3b3fb874p+0,
  0x1.1bb4a4046ed29p+0, 0x1.19453808ca29cp+0, 0x1.16e0689427379p+0,
  0x1.1485f0e0acd3bp+0, 0x1.12358e75d3033p+0, 0x1.0fef010fef011p+0,
  0x1.0db20a88f4696p+0, 0x1.0b7e6ec259dc8p+0, 0x1.0953f39010954p+0,
  0x1.073260a47f7c6p+0, 0x1.05197f7d73404p+0, 0x1.03091b51f5e1ap+0,
  0x1.0000000000000p+0, 0x1.0000000000000p+0, 0x1.f44659e4a4271p-1,
  0x1.ecc07b301ecc0p-1, 0x1.e573ac901e574p-1, 0x1.de5d6e3f8868ap-1,
  0x1.d77b654b82c34p-1, 0x1.d0cb58f6ec074p-1, 0x1.ca4b3055ee191p-1,
  0x1.c3f8f01c3f8f0p-1, 0x1.bdd2b899406f7p-1, 0x1.b7d6c3dda338bp-1,
  0x1.b2036406c80d9p-1, 0x1.ac5701ac5701bp-1, 0x1.a6d01a6d01a6dp-1,
  0x1.a16d3f97a4b02p-1, 0x1.9c2d14ee4a102p-1, 0x1.970e4f80cb872p-1,
  0x1.920fb49d0e229p-1, 0x1.8d3018d3018d3p-1, 0x1.886e5f0abb04ap-1,
  0x1.83c977ab2beddp-1, 0x1.7f405fd017f40p-1, 0x1.7ad2208e0ecc3p-1,
  0x1.767dce434a9b1p-1,
};
static const double lg2_logc[64] = {
  -0x1.1096015dee4dap-1, -0x1.08494c66b8ef0p-1, -0x1.0014332be0032p-1,
  -0x1.efec61b011f85p-2, -0x1.dfdd89d586e2cp-2, -0x1.cffae611ad12ap-2,
  -0x1.c043859e2fdb2p-2, -0x1.b0b67f4f46812p-2, -0x1.a152f142981b5p-2,
  -0x1.921800924dd3bp-2, -0x1.8304d90c11fd1p-2, -0x1.7418acebbf18fp-2,
  -0x1.6552b49986277p-2, -0x1.56b22e6b578e5p-2, -0x1.48365e695d797p-2,
  -0x1.39de8e1559f6ep-2, -0x1.2baa0c34be1ebp-2, -0x1.1d982c9d5270ap-2,
  -0x1.0fa848044b352p-2, -0x1.01d9bbcfa61d4p-2, -0x1.e857d3d361368p-3,
  -0x1.cd3c712d31106p-3, -0x1.b2602497d534ap-3, -0x1.97c1cb13c7ec0p-3,
  -0x1.7d60496cfbb4cp-3, -0x1.633a8bf437ce6p-3, -0x1.494f863b8df32p-3,
  -0x1.2f9e32d5bfdd1p-3, -0x1.162593186da70p-3, -0x1.f9c95dc1d1167p-4,
  -0x1.c7b528b70f1bcp-4, -0x1.960caf9abb7c1p-4, -0x1.64ce26c067157p-4,
  -0x1.33f7cde14cf63p-4, -0x1.0387efbca86a7p-4, -0x1.a6f9c377dd31dp-5,
  -0x1.47aa07357703cp-5, -0x1.d23afc49139f1p-6, -0x1.16a21e20a0a29p-6,
  0x0.0p+0, 0x0.0p+0, 0x1.11cd1d513341bp-5,
  0x1.c4dfab90aab6ap-5, 0x1.3aa2fdd27f1bfp-4, 0x1.918a16e46335ep-4,
  0x1.e72ec117fa5adp-4, 0x1.1dcd197552b7dp-3, 0x1.476a9f983f74dp-3,
  0x1.70742d4ef0280p-3, 0x1.98edd077e70e1p-3, 0x1.c0db6cdd94defp-3,
  0x1.e840be74e6a4dp-3, 0x1.0790adbb03009p-2, 0x1.1ac05b291f070p-2,
  0x1.2db10fc4d9aaep-2, 0x1.406463b1b0448p-2, 0x1.52dbdfc4c96b5p-2,
  0x1.6518fe4677ba6p-2, 0x1.771d2ba7efb3cp-2, 0x1.88e9c72e0b224p-2,
  0x1.9a802391e2330p-2, 0x1.abe18797f1f4ap-2, 0x1.bd0f2e9e79032p-2,
  0x1.ce0a4923a587dp-2,
};

/* log2(1 + r) / r - 1 / ln 2's Taylor series, the coefficients of r^1 .. r^9 */
static const double lg2_poly[9] = {
  -0x1.71547652b82fep-1, 0x1.ec709dc3a03fdp-2, -0x1.71547652b82fep-2,
  0x1.2776c50ef9bfep-2, -0x1.ec709dc3a03fdp-3, 0x1.a61762a7aded9p-3,
  -0x1.71547652b82fep-3, 0x1.484b13d7c02a9p-3, -0x1.2776c50ef9bfep-3,
};

/* log2 of four positive f32 values x (as doubles): x = 2^k z with z in [0.6875, 1.375),
   log2 x = k + log2(1 / invc) + log2(1 + r), r = z invc - 1 (one fma, |r| <= 2^-6; exact
   where invc is 1), the last by its Taylor series to r^10 (truncated at 2^-69). Within
   2^-50 of log2 x, relative: around x = 1 the series alone, elsewhere the sum of k and the
   table's logarithm dominates. libm's log2 is within 0.55 ulp of double, so where the
   result lies more than 2^-45 from a midpoint between two f32 values both round to the
   same f32 (as exp2_4). *safe gets the lanes where that holds and x is positive and finite
   (every such log2 is a normal f32 or 0); the others need libm. */
AVX2FMA static inline __m256d lg2_4(__m256d x, __m256i *safe)
{
  const __m256d ok = _mm256_and_pd(_mm256_cmp_pd(x, _mm256_setzero_pd(), _CMP_GT_OQ),
                                   _mm256_cmp_pd(x, _mm256_set1_pd(INFINITY), _CMP_LT_OQ));
  const __m256i ix = _mm256_castpd_si256(_mm256_blendv_pd(_mm256_set1_pd(1.0), x, ok));
  const __m256i tmp = _mm256_sub_epi64(ix, _mm256_set1_epi64x(0x3fe6000000000000ll));
  const __m256i i = _mm256_and_si256(_mm256_srli_epi64(tmp, 46), _mm256_set1_epi64x(63));
  /* k: tmp's top 12 bits, signed (its high halves, shifted arithmetically) */
  const __m128i hi = _mm256_castsi256_si128(
      _mm256_permutevar8x32_epi32(tmp, _mm256_setr_epi32(1, 3, 5, 7, 0, 2, 4, 6)));
  const __m256d k = _mm256_cvtepi32_pd(_mm_srai_epi32(hi, 20));
  const __m256d z = _mm256_castsi256_pd(
      _mm256_sub_epi64(ix, _mm256_and_si256(tmp, _mm256_set1_epi64x((long long)0xfff0000000000000ull))));
  const __m256d invc = _mm256_i64gather_pd(lg2_invc, i, 8);
  const __m256d logc = _mm256_i64gather_pd(lg2_logc, i, 8);
  const __m256d r = _mm256_fmsub_pd(z, invc, _mm256_set1_pd(1.0));
  __m256d p = _mm256_set1_pd(lg2_poly[8]);
  for (int j = 7; j >= 0; j--)
    p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(lg2_poly[j]));
  p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(0x1.71547652b82fep+0));   /* 1 / ln 2 */
  const __m256i y = _mm256_castpd_si256(_mm256_fmadd_pd(p, r, _mm256_add_pd(k, logc)));
  *safe = sure_f32(y, ok);
  return _mm256_castsi256_pd(y);
}

/* sin or cos (cosine: 1) of four f32 values x (as doubles), |x| in [2^-100, 2^18]: k the
   nearest integer to x 2 / pi, r = x - k pi / 2 with pi / 2 in four parts (the first
   three of 33 bits: their products with k exact, the first difference too), |r| <= pi / 4,
   then sin r or cos r by the Taylor series to r^17 or r^18 (truncated at 2^-62) as k mod 4
   says. Within 2^-50 of the function, relative (r to 2^-52 of itself even where x is near a
   multiple of pi / 2: no f32 is nearer than 2^-30 there). libm's sin and cos are within
   0.55 ulp of double: *safe as exp2_4's, for the lanes in that range. */
__attribute__((target("avx2,fma"), always_inline)) static inline __m256d
sincos_4(__m256d x, int cosine, __m256i *safe)
{
  static const double sc[8] = {
    -0x1.5555555555555p-3, 0x1.1111111111111p-7, -0x1.a01a01a01a01ap-13, 0x1.71de3a556c734p-19,
    -0x1.ae64567f544e4p-26, 0x1.6124613a86d09p-33, -0x1.ae7f3e733b81fp-41, 0x1.952c77030ad4ap-49};
  static const double cc[9] = {
    -0x1.0000000000000p-1, 0x1.5555555555555p-5, -0x1.6c16c16c16c17p-10, 0x1.a01a01a01a01ap-16,
    -0x1.27e4fb7789f5cp-22, 0x1.1eed8eff8d898p-29, -0x1.93974a8c07c9dp-37, 0x1.ae7f3e733b81fp-45,
    -0x1.6827863b97d97p-53};
  const __m256d ax = _mm256_andnot_pd(_mm256_set1_pd(-0.0), x);
  const __m256d ok = _mm256_and_pd(_mm256_cmp_pd(ax, _mm256_set1_pd(0x1p-100), _CMP_GE_OQ),
                                   _mm256_cmp_pd(ax, _mm256_set1_pd(0x1p18), _CMP_LE_OQ));
  x = _mm256_and_pd(x, ok);                    /* (the others: 0, unused) */
  const __m256d k = _mm256_round_pd(_mm256_mul_pd(x, _mm256_set1_pd(0x1.45f306dc9c883p-1)),
                                    _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m256d r = _mm256_fnmadd_pd(k, _mm256_set1_pd(0x1.921fb54400000p+0), x);
  r = _mm256_fnmadd_pd(k, _mm256_set1_pd(0x1.0b4611a600000p-34), r);
  r = _mm256_fnmadd_pd(k, _mm256_set1_pd(0x1.3198a2e000000p-69), r);
  r = _mm256_fnmadd_pd(k, _mm256_set1_pd(0x1.b839a252049c1p-104), r);
  const __m256d r2 = _mm256_mul_pd(r, r);
  __m256d ps = _mm256_set1_pd(sc[7]), pc = _mm256_set1_pd(cc[8]);
  for (int j = 6; j >= 0; j--)
    ps = _mm256_fmadd_pd(ps, r2, _mm256_set1_pd(sc[j]));
  for (int j = 7; j >= 0; j--)
    pc = _mm256_fmadd_pd(pc, r2, _mm256_set1_pd(cc[j]));
  const __m256d sn = _mm256_fmadd_pd(_mm256_mul_pd(ps, r2), r, r);
  const __m256d cs = _mm256_fmadd_pd(pc, r2, _mm256_set1_pd(1.0));
  /* k mod 4 (plus 1 for the cosine): 1 and 3 take the cosine of r, 2 and 3 negate */
  const __m256i q = _mm256_cvtepi32_epi64(
      _mm_add_epi32(_mm256_cvtpd_epi32(k), _mm_set1_epi32(cosine)));
  const __m256d odd = _mm256_castsi256_pd(
      _mm256_cmpeq_epi64(_mm256_and_si256(q, _mm256_set1_epi64x(1)), _mm256_set1_epi64x(1)));
  const __m256i neg = _mm256_slli_epi64(_mm256_and_si256(q, _mm256_set1_epi64x(2)), 62);
  const __m256i y = _mm256_xor_si256(_mm256_castpd_si256(_mm256_blendv_pd(sn, cs, odd)), neg);
  *safe = sure_f32(y, ok);
  return _mm256_castsi256_pd(y);
}

AVX2FMA static inline __m256d sin_4(__m256d x, __m256i *safe)
{
  return sincos_4(x, 0, safe);
}

AVX2FMA static inline __m256d cos_4(__m256d x, __m256i *safe)
{
  return sincos_4(x, 1, safe);
}

/* fn of eight f32 lanes as sim_alu computes it, libm's fn in double rounded to f32: by
   vec (exp2_4, lg2_4, sin_4, cos_4) where it is sure to give the same, libm for the rest. */
__attribute__((target("avx2,fma"), always_inline)) static inline __m256
sure8(__m256 x, __m256d (*vec)(__m256d, __m256i *), double (*fn)(double))
{
  __m256i s0, s1;
  const __m256d y0 = vec(_mm256_cvtps_pd(_mm256_castps256_ps128(x)), &s0);
  const __m256d y1 = vec(_mm256_cvtps_pd(_mm256_extractf128_ps(x, 1)), &s1);
  __m256 r = _mm256_set_m128(_mm256_cvtpd_ps(y1), _mm256_cvtpd_ps(y0));
  const unsigned sure = (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(s0)) |
                        (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(s1)) << 4;
  if (sure != 0xffu) {
    float v[8], w[8];
    _mm256_storeu_ps(v, x);
    _mm256_storeu_ps(w, r);
    for (unsigned j = 0; j < 8; j++)
      if (!(sure >> j & 1))
        w[j] = (float)fn((double)v[j]);
    r = _mm256_loadu_ps(w);
  }
  return r;
}

/* The 32 lanes of an f32 operation, registers at a, b and c (b, c: where it has them), its
   loop inside each case (x, y, z: eight lanes of a, b, c). */
__attribute__((target("avx2,fma"), always_inline)) static inline void
f32_full(enum sim_vfp k, int ftz, enum ptx_rnd rnd, uint64_t *d, const uint64_t *a,
         const uint64_t *b, const uint64_t *c)
{
  const __m256 one = _mm256_set1_ps(1.0f);
  const __m256i mag = _mm256_set1_epi32(0x7fffffff), sign = _mm256_set1_epi32((int)0x80000000u);
#define LOOP1(expr)                                                                       \
  for (unsigned l = 0; l < 32; l += 8) {                                                  \
    const __m256 x = in8(a + l, ftz);                                                     \
    sim_store32x8(d + l, (expr));                                                             \
  }                                                                                       \
  break
#define LOOP2(expr)                                                                       \
  for (unsigned l = 0; l < 32; l += 8) {                                                  \
    const __m256 x = in8(a + l, ftz), y = in8(b + l, ftz);                                \
    sim_store32x8(d + l, (expr));                                                             \
  }                                                                                       \
  break
  switch (k) {
  case SIM_VFP_ADD_F32: LOOP2(fin8(_mm256_add_ps(x, y), ftz));
  case SIM_VFP_SUB_F32: LOOP2(fin8(_mm256_sub_ps(x, y), ftz));
  case SIM_VFP_MUL_F32: LOOP2(fin8(_mm256_mul_ps(x, y), ftz));
  case SIM_VFP_FMA_F32:
    for (unsigned l = 0; l < 32; l += 8)
      sim_store32x8(d + l, fin8(_mm256_fmadd_ps(in8(a + l, ftz), in8(b + l, ftz), in8(c + l, ftz)),
                            ftz));
    break;
  case SIM_VFP_DIV_F32: LOOP2(fin8(_mm256_div_ps(x, y), ftz));
  case SIM_VFP_DIV_FULL_F32: LOOP2(fin8(div_full8(x, y), ftz));
  case SIM_VFP_DIV_APPROX_F32: LOOP2(fin8(div_approx8(x, y), ftz));
  case SIM_VFP_SQRT_F32: LOOP1(fin8(_mm256_sqrt_ps(x), ftz));
  case SIM_VFP_RCP_F32: LOOP1(fin8(_mm256_div_ps(one, x), ftz));
  case SIM_VFP_ABS_F32: LOOP1(_mm256_and_si256(_mm256_castps_si256(x), mag));
  case SIM_VFP_NEG_F32: LOOP1(_mm256_xor_si256(_mm256_castps_si256(x), sign));
  case SIM_VFP_COPYSIGN_F32:                   /* b's magnitude, a's sign */
    LOOP2(_mm256_or_si256(_mm256_and_si256(_mm256_castps_si256(y), mag),
                          _mm256_and_si256(_mm256_castps_si256(x), sign)));
  case SIM_VFP_SAT_F32:                        /* NaN and negatives 0, past 1.0 1.0 */
    LOOP1(_mm256_andnot_si256(
        _mm256_or_si256(_mm256_castps_si256(_mm256_cmp_ps(x, x, _CMP_UNORD_Q)),
                        _mm256_srai_epi32(_mm256_castps_si256(x), 31)),
        _mm256_min_epu32(_mm256_castps_si256(x), _mm256_castps_si256(one))));
  case SIM_VFP_RSQRT_F32: LOOP1(fin8(rsqrt8(x), ftz));
  case SIM_VFP_RND_F32:                        /* (a loop for each mode: round8's switch out) */
    switch (rnd) {
    case PTX_RND_RNI: LOOP1(fin8(round8(x, PTX_RND_RNI), ftz));
    case PTX_RND_RMI: LOOP1(fin8(round8(x, PTX_RND_RMI), ftz));
    case PTX_RND_RPI: LOOP1(fin8(round8(x, PTX_RND_RPI), ftz));
    default: LOOP1(fin8(round8(x, PTX_RND_RZI), ftz));
    }
    break;
  default: break;
  }
#undef LOOP1
#undef LOOP2
}

/* Four lanes of an f64 operation, registers at a, b and c (b, c: where it has them). */
__attribute__((target("avx2,fma"), always_inline)) static inline __m256i
f64_op4(enum sim_vfp k, enum ptx_rnd rnd, const uint64_t *a, const uint64_t *b,
        const uint64_t *c)
{
  const __m256i ua = _mm256_loadu_si256((const __m256i *)(const void *)a);
  const __m256i ub = _mm256_loadu_si256((const __m256i *)(const void *)b);
  const __m256d x = _mm256_castsi256_pd(ua), y = _mm256_castsi256_pd(ub);
  const __m256i sign = _mm256_set1_epi64x((long long)0x8000000000000000ull);
  switch (k) {
  /* (the NaN inputs in sim_alu_f64_nan's order) */
  case SIM_VFP_ADD_F64: return fin4(_mm256_add_pd(x, y), ub, ua, ua);
  case SIM_VFP_SUB_F64: return fin4(_mm256_sub_pd(x, y), ub, ua, ua);
  case SIM_VFP_MUL_F64: return fin4(_mm256_mul_pd(x, y), ub, ua, ua);
  case SIM_VFP_DIV_F64: return fin4(_mm256_div_pd(x, y), ua, ub, ub);
  case SIM_VFP_FMA_F64: {
    const __m256i uc = _mm256_loadu_si256((const __m256i *)(const void *)c);
    return fin4(_mm256_fmadd_pd(x, y, _mm256_castsi256_pd(uc)), ub, ua, uc);
  }
  case SIM_VFP_SQRT_F64: return fin4(_mm256_sqrt_pd(x), ua, ua, ua);
  case SIM_VFP_RCP_F64: return fin4(_mm256_div_pd(_mm256_set1_pd(1.0), x), ua, ua, ua);
  case SIM_VFP_ABS_F64: return _mm256_andnot_si256(sign, ua);
  case SIM_VFP_NEG_F64: return _mm256_xor_si256(ua, sign);
  case SIM_VFP_COPYSIGN_F64:
    return _mm256_or_si256(_mm256_andnot_si256(sign, ub), _mm256_and_si256(ua, sign));
  default:                                     /* SIM_VFP_RND_F64: a NaN itself, quieted */
    return _mm256_blendv_epi8(_mm256_castpd_si256(round4(x, rnd)),
                              _mm256_or_si256(ua, _mm256_set1_epi64x(1ll << 51)), isnan4(ua));
  }
}

/* The low halves of four 64-bit masks, in order. */
AVX2 static inline __m128i low32x4(__m256d m)
{
  return _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(_mm256_castpd_si256(m),
                                                            _mm256_setr_epi32(0, 2, 4, 6, 1, 3,
                                                                              5, 7)));
}

/* f32 values (integral, or NaN, or infinite) to s32 as sim_alu_cvt clamps them: NaN 0, from
   2^31 on 0x7fffffff (the CPU gives 0x80000000 for NaN and out of range both ways). */
AVX2 static inline __m256i f32_s32(__m256 r)
{
  __m256i v = _mm256_cvttps_epi32(r);
  v = _mm256_blendv_epi8(v, _mm256_set1_epi32(0x7fffffff),
                         _mm256_castps_si256(_mm256_cmp_ps(r, _mm256_set1_ps(2147483648.0f),
                                                           _CMP_GE_OQ)));
  return _mm256_andnot_si256(_mm256_castps_si256(_mm256_cmp_ps(r, r, _CMP_UNORD_Q)), v);
}

/* Eight lanes of a conversion, registers at a to d (ftz: the instruction's .ftz); inlined
   into cvt_full's case of each k. */
__attribute__((target("avx2"), always_inline)) static inline void
cvt8(enum sim_vfp k, int ftz, enum ptx_rnd rnd, uint64_t *d, const uint64_t *a)
{
  const __m256i low = _mm256_set1_epi64x(0xffffffff);
  switch (k) {
  case SIM_VFP_F32_S32:                        /* rounded as the MXCSR says */
    sim_store32x8(d, _mm256_castps_si256(_mm256_cvtepi32_ps(sim_lo32x8(a))));
    return;
  case SIM_VFP_F32_U32: {
    /* through a double, exact: 2^52 + x, less 2^52 (its sign cleared: 0 comes out -0
       rounding down) */
    const __m256d two52 = _mm256_set1_pd(4503599627370496.0), neg0 = _mm256_set1_pd(-0.0);
    __m128 f[2];
    for (unsigned h = 0; h < 2; h++) {
      __m256i x = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(a + 4 * h)), low);
      f[h] = _mm256_cvtpd_ps(_mm256_andnot_pd(neg0, _mm256_sub_pd(
          _mm256_castsi256_pd(_mm256_or_si256(x, _mm256_castpd_si256(two52))), two52)));
    }
    sim_store32x8(d, _mm256_castps_si256(_mm256_set_m128(f[1], f[0])));
    return;
  }
  case SIM_VFP_S32_F32:                        /* rounded to an integral value, clamped */
    sim_store_s32x8(d, f32_s32(round8(in8(a, ftz), rnd)));
    return;
  case SIM_VFP_U32_F32: {
    /* clamped to 0 (NaN too) and 0xffffffff; from 2^31 on converted less 2^31, the top
       bit put back */
    const __m256 r = round8(in8(a, ftz), rnd), two31 = _mm256_set1_ps(2147483648.0f);
    const __m256i big = _mm256_castps_si256(_mm256_cmp_ps(r, two31, _CMP_GE_OQ));
    __m256i v = _mm256_cvttps_epi32(_mm256_blendv_ps(r, _mm256_sub_ps(r, two31),
                                                     _mm256_castsi256_ps(big)));
    v = _mm256_xor_si256(v, _mm256_and_si256(big, _mm256_set1_epi32((int)0x80000000u)));
    v = _mm256_blendv_epi8(v, _mm256_set1_epi32(-1),
                           _mm256_castps_si256(_mm256_cmp_ps(r, _mm256_set1_ps(4294967296.0f),
                                                             _CMP_GE_OQ)));
    /* not above 0 (NaN: unordered): 0 */
    v = _mm256_and_si256(v, _mm256_castps_si256(_mm256_cmp_ps(r, _mm256_setzero_ps(),
                                                              _CMP_GT_OQ)));
    sim_store32x8(d, v);
    return;
  }
  case SIM_VFP_S32_F64: {
    __m128i r[2];
    for (unsigned h = 0; h < 2; h++) {
      const __m256d x = round4(_mm256_loadu_pd((const double *)(const void *)(a + 4 * h)), rnd);
      /* (a NaN: the CPU's 0x80000000, as an H100's, sim_alu_cvt) */
      const __m128i top = low32x4(_mm256_cmp_pd(x, _mm256_set1_pd(2147483648.0), _CMP_GE_OQ));
      r[h] = _mm_blendv_epi8(_mm256_cvttpd_epi32(x), _mm_set1_epi32(0x7fffffff), top);
    }
    sim_store_s32x8(d, _mm256_set_m128i(r[1], r[0]));
    return;
  }
  case SIM_VFP_F64_F32:
    /* exact; a NaN keeps its sign and payload, quieted, but with .ftz is the f32 canonical
       NaN widened (sim_alu_cvt) */
    for (unsigned h = 0; h < 2; h++) {
      __m256i u = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(a + 4 * h)), low);
      __m256i uf = ftz ? sim_ftz32x8(u) : u;           /* (the high halves stay 0) */
      __m256d v = _mm256_cvtps_pd(_mm256_castps256_ps128(_mm256_castsi256_ps(
          _mm256_permutevar8x32_epi32(uf, _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7)))));
      const __m256i nan = _mm256_cmpgt_epi64(_mm256_and_si256(u, _mm256_set1_epi64x(0x7fffffff)),
                                             _mm256_set1_epi64x(0x7f800000));
      const __m256i bits = ftz ? _mm256_set1_epi64x(0x7fffffffe0000000ll) : _mm256_or_si256(
          _mm256_or_si256(_mm256_slli_epi64(_mm256_srli_epi64(u, 31), 63),
                          _mm256_set1_epi64x(0x7ff8000000000000ll)),
          _mm256_slli_epi64(_mm256_and_si256(u, _mm256_set1_epi64x(0x7fffff)), 29));
      _mm256_storeu_si256((__m256i *)(void *)(d + 4 * h),
                          _mm256_blendv_epi8(_mm256_castpd_si256(v), bits, nan));
    }
    return;
  default: {                                   /* SIM_VFP_F32_F64: rounded as the MXCSR says */
    __m128i r[2];
    for (unsigned h = 0; h < 2; h++) {
      const __m256i u = _mm256_loadu_si256((const __m256i *)(a + 4 * h));
      const __m128 f = _mm256_cvtpd_ps(_mm256_castsi256_pd(u));
      /* a NaN keeps its sign and the top of its payload, quieted */
      const __m256i bits = _mm256_or_si256(
          _mm256_or_si256(_mm256_slli_epi64(_mm256_srli_epi64(u, 63), 31),
                          _mm256_set1_epi64x(0x7fc00000)),
          _mm256_and_si256(_mm256_srli_epi64(u, 29), _mm256_set1_epi64x(0x7fffff)));
      const __m128i b32 = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(
          bits, _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7)));
      const __m128i n32 = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(
          isnan4(u), _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7)));
      r[h] = _mm_blendv_epi8(_mm_castps_si128(f), b32, n32);
    }
    __m256i v = _mm256_set_m128i(r[1], r[0]);
    sim_store32x8(d, ftz ? sim_ftz32x8(v) : v);
    return;
  }
  }
}

/* The 32 lanes of f64_op4 and cvt8. */
__attribute__((target("avx2,fma"), always_inline)) static inline void
f64_full(enum sim_vfp k, enum ptx_rnd rnd, uint64_t *d, const uint64_t *a, const uint64_t *b,
         const uint64_t *c)
{
  /* the loop inside each case, f64_op4 inlined with its operation known */
#define F64_CASE(K)                                                                       \
  case K:                                                                                 \
    for (unsigned l = 0; l < 32; l += 4)                                                  \
      _mm256_storeu_si256((__m256i *)(void *)(d + l), f64_op4(K, rnd, a + l, b + l, c + l)); \
    break
  switch (k) {
  F64_CASE(SIM_VFP_ADD_F64);
  F64_CASE(SIM_VFP_SUB_F64);
  F64_CASE(SIM_VFP_MUL_F64);
  F64_CASE(SIM_VFP_DIV_F64);
  F64_CASE(SIM_VFP_FMA_F64);
  F64_CASE(SIM_VFP_SQRT_F64);
  F64_CASE(SIM_VFP_RCP_F64);
  F64_CASE(SIM_VFP_ABS_F64);
  F64_CASE(SIM_VFP_NEG_F64);
  F64_CASE(SIM_VFP_COPYSIGN_F64);
  F64_CASE(SIM_VFP_RND_F64);
  default: break;
  }
#undef F64_CASE
}

__attribute__((target("avx2"), always_inline)) static inline void
cvt_full(enum sim_vfp k, int ftz, enum ptx_rnd rnd, uint64_t *d, const uint64_t *a)
{
#define CVT_LOOP(K, R)                                                                    \
    for (unsigned l = 0; l < 32; l += 8)                                                  \
      cvt8(K, ftz, R, d + l, a + l);                                                      \
    break
#define CVT_CASE(K)                                                                       \
  case K:                                                                                 \
    CVT_LOOP(K, rnd)
#define CVT_CASE_RND(K)                 /* (a loop for each integer rounding mode) */     \
  case K:                                                                                 \
    switch (rnd) {                                                                        \
    case PTX_RND_RNI: CVT_LOOP(K, PTX_RND_RNI);                                           \
    case PTX_RND_RMI: CVT_LOOP(K, PTX_RND_RMI);                                           \
    case PTX_RND_RPI: CVT_LOOP(K, PTX_RND_RPI);                                           \
    default: CVT_LOOP(K, PTX_RND_RZI);                                                    \
    }                                                                                     \
    break
  switch (k) {
  CVT_CASE(SIM_VFP_F32_S32);
  CVT_CASE(SIM_VFP_F32_U32);
  CVT_CASE_RND(SIM_VFP_S32_F32);
  CVT_CASE_RND(SIM_VFP_U32_F32);
  CVT_CASE_RND(SIM_VFP_S32_F64);
  CVT_CASE(SIM_VFP_F64_F32);
  CVT_CASE(SIM_VFP_F32_F64);
  default: break;
  }
#undef CVT_CASE
#undef CVT_CASE_RND
#undef CVT_LOOP
}

/* The 32 lanes of the approximations that call libm (sure8, libm8): out of line, so that
   sim_vfp_full's other operations keep a frame without calls (one saved register set less a
   warp-instruction). */
__attribute__((target("avx2,fma"), noinline)) static void
f32_libm(enum sim_vfp k, int ftz, uint64_t *d, const uint64_t *a)
{
  for (unsigned l = 0; l < 32; l += 8) {
    const __m256 x = in8(a + l, ftz);
    __m256 r;
    switch (k) {
    case SIM_VFP_SIN_F32: r = sure8(x, sin_4, sin); break;
    case SIM_VFP_COS_F32: r = sure8(x, cos_4, cos); break;
    case SIM_VFP_LG2_F32: r = sure8(x, lg2_4, log2); break;
    case SIM_VFP_EX2_F32: r = sure8(x, exp2_4, exp2); break;
    default: r = libm8(x, tanh); break;
    }
    sim_store32x8(d + l, fin8(r, ftz));
  }
}

/* (vector code throughout: sim_vfp_of answers SIM_VFP_NONE without AVX2, and an fma without
   FMA, so nothing calls it there) */
AVX2FMA void sim_vfp_full(enum sim_vfp k, const struct ptx_inst *in, uint64_t *d,
                          const uint64_t *a, const uint64_t *b, const uint64_t *c)
{
  const int ftz = (in->flags & PTX_F_FTZ) != 0;  /* (f64 arithmetic ignores it, as PTX) */
  if (k >= SIM_VFP_SIN_F32) {                  /* (a tail call: no rounding mode to set) */
    if (k >= SIM_VFP_H_ADD)
      sim_vhalf_full(k, in, d, a, b, c);
    else
      f32_libm(k, ftz, d, a);
    return;
  }
  const enum ptx_rnd rnd = (enum ptx_rnd)in->rnd;
  /* the IEEE operations' rounding mode, in the MXCSR's rounding control (bits 13-14: 0 to
     nearest, 1 down, 2 up, 3 toward zero), set around them as sim_alu's fesetround */
  const unsigned rc = rnd == PTX_RND_RZ ? 3u : rnd == PTX_RND_RM ? 1u
                      : rnd == PTX_RND_RP ? 2u : 0u;
  const unsigned csr = rc ? _mm_getcsr() : 0;
  if (rc)
    _mm_setcsr((csr & ~0x6000u) | rc << 13);
  /* (an operand the operation does not have: a, never read) */
  b = b ? b : a;
  c = c ? c : a;
  switch (k) {
  case SIM_VFP_NONE:
    break;
  case SIM_VFP_ADD_F32: case SIM_VFP_SUB_F32: case SIM_VFP_MUL_F32: case SIM_VFP_FMA_F32:
  case SIM_VFP_DIV_F32: case SIM_VFP_DIV_FULL_F32: case SIM_VFP_DIV_APPROX_F32:
  case SIM_VFP_SQRT_F32: case SIM_VFP_RCP_F32: case SIM_VFP_ABS_F32: case SIM_VFP_NEG_F32:
  case SIM_VFP_COPYSIGN_F32: case SIM_VFP_RND_F32: case SIM_VFP_SAT_F32:
  case SIM_VFP_RSQRT_F32:
    if (ftz)                                   /* (each .ftz its own code) */
      f32_full(k, 1, rnd, d, a, b, c);
    else
      f32_full(k, 0, rnd, d, a, b, c);
    break;
  case SIM_VFP_ADD_F64: case SIM_VFP_SUB_F64: case SIM_VFP_MUL_F64: case SIM_VFP_DIV_F64:
  case SIM_VFP_FMA_F64: case SIM_VFP_SQRT_F64: case SIM_VFP_RCP_F64: case SIM_VFP_ABS_F64:
  case SIM_VFP_NEG_F64: case SIM_VFP_COPYSIGN_F64: case SIM_VFP_RND_F64:
    f64_full(k, rnd, d, a, b, c);
    break;
  default:
    if (ftz)
      cvt_full(k, 1, rnd, d, a);
    else
      cvt_full(k, 0, rnd, d, a);
    break;
  }
  if (rc)
    _mm_setcsr(csr);
}
#else
void sim_vfp_full(enum sim_vfp k, const struct ptx_inst *in, uint64_t *d, const uint64_t *a,
                  const uint64_t *b, const uint64_t *c)
{
  (void)k; (void)in; (void)d; (void)a; (void)b; (void)c;
}
#endif
