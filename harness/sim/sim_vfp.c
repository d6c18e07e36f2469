/* sim_vfp.c: a full 32-lane warp's float operations that sim_alu does lane by lane, eight
 * (f32) or four (f64) lanes a vector with AVX2, bit for bit as sim_alu computes them.
 *
 * The IEEE operations of f32 and f64 (add, sub, mul, fma, div, sqrt, rcp) in any of the four
 * rounding modes, abs, neg and copysign, rounding to an integral value (floorf, ceilf,
 * truncf, rintf), and the conversions between f32 and f64 and between floats and 32-bit
 * integers. sim_alu computes each with the host's IEEE operation in the instruction's
 * rounding mode (fesetround around it) and fixes what PTX defines otherwise: a NaN result
 * is the canonical NaN (f32, and f64 from a conversion) or the first NaN input quieted (f64
 * arithmetic), .ftz flushes subnormal f32 inputs and results to a signed zero, a
 * float-to-integer conversion clamps. The vector code does the same IEEE operations, in the
 * same mode (the MXCSR's rounding control, set around them), and the same fixes. sim_alu's
 * f32 approximations of sin, cos, lg2, ex2 and tanh are the host libm's functions in double,
 * rounded to f32: here the same calls, lane by lane, with the flushes, conversions and NaN
 * fixes around them in vectors; rsqrt is 1 / sqrt in double, and cvt.sat.f32.f32 a clamp.
 * The rest (.relu, .sat elsewhere, f16) stays on sim_alu's lane loops: sim_vfp_of answers
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
  switch ((enum ptx_op)in->op) {
  case PTX_OP_ADD:
  case PTX_OP_SUB:
  case PTX_OP_MUL:
    /* (f32 at nearest without .ftz: the fast plan's FK_VOP) */
    if (in->nopd != 3 || ftz_only || !ieee_rnd(rnd) || (!f32 && !f64) || (f32 && rn && !fl))
      return SIM_VFP_NONE;
    return in->op == PTX_OP_ADD ? (f32 ? SIM_VFP_ADD_F32 : SIM_VFP_ADD_F64)
           : in->op == PTX_OP_SUB ? (f32 ? SIM_VFP_SUB_F32 : SIM_VFP_SUB_F64)
                                  : (f32 ? SIM_VFP_MUL_F32 : SIM_VFP_MUL_F64);
  case PTX_OP_FMA:
  case PTX_OP_MAD:                             /* (mad.f32, mad.rn.f64: an fma) */
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
    if (!f32 || in->nopd != 2 || (fl & ~(uint32_t)(PTX_F_FTZ | PTX_F_APPROX)))
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
#else
  (void)in;
  return SIM_VFP_NONE;
#endif
}

#ifdef SIM_X86
#define AVX2 __attribute__((target("avx2")))
#define AVX2FMA __attribute__((target("avx2,fma")))


/* Eight 32-bit results to the registers at d, zero-extended. */
AVX2 static inline void store32x8(uint64_t *d, __m256i r)
{
  _mm256_storeu_si256((__m256i *)(void *)d, _mm256_cvtepu32_epi64(_mm256_castsi256_si128(r)));
  _mm256_storeu_si256((__m256i *)(void *)(d + 4),
                      _mm256_cvtepu32_epi64(_mm256_extracti128_si256(r, 1)));
}

/* Eight s32 results to the registers at d, sign-extended (as widen). */
AVX2 static inline void store_s32x8(uint64_t *d, __m256i r)
{
  _mm256_storeu_si256((__m256i *)(void *)d, _mm256_cvtepi32_epi64(_mm256_castsi256_si128(r)));
  _mm256_storeu_si256((__m256i *)(void *)(d + 4),
                      _mm256_cvtepi32_epi64(_mm256_extracti128_si256(r, 1)));
}


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
    store32x8(d + l, (expr));                                                             \
  }                                                                                       \
  break
#define LOOP2(expr)                                                                       \
  for (unsigned l = 0; l < 32; l += 8) {                                                  \
    const __m256 x = in8(a + l, ftz), y = in8(b + l, ftz);                                \
    store32x8(d + l, (expr));                                                             \
  }                                                                                       \
  break
  switch (k) {
  case SIM_VFP_ADD_F32: LOOP2(fin8(_mm256_add_ps(x, y), ftz));
  case SIM_VFP_SUB_F32: LOOP2(fin8(_mm256_sub_ps(x, y), ftz));
  case SIM_VFP_MUL_F32: LOOP2(fin8(_mm256_mul_ps(x, y), ftz));
  case SIM_VFP_FMA_F32:
    for (unsigned l = 0; l < 32; l += 8)
      store32x8(d + l, fin8(_mm256_fmadd_ps(in8(a + l, ftz), in8(b + l, ftz), in8(c + l, ftz)),
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
  case SIM_VFP_SIN_F32: LOOP1(fin8(libm8(x, sin), ftz));
  case SIM_VFP_COS_F32: LOOP1(fin8(libm8(x, cos), ftz));
  case SIM_VFP_LG2_F32: LOOP1(fin8(libm8(x, log2), ftz));
  case SIM_VFP_EX2_F32: LOOP1(fin8(libm8(x, exp2), ftz));
  case SIM_VFP_TANH_F32: LOOP1(fin8(libm8(x, tanh), ftz));
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
    store32x8(d, _mm256_castps_si256(_mm256_cvtepi32_ps(sim_lo32x8(a))));
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
    store32x8(d, _mm256_castps_si256(_mm256_set_m128(f[1], f[0])));
    return;
  }
  case SIM_VFP_S32_F32:                        /* rounded to an integral value, clamped */
    store_s32x8(d, f32_s32(round8(in8(a, ftz), rnd)));
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
    store32x8(d, v);
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
    store_s32x8(d, _mm256_set_m128i(r[1], r[0]));
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
    store32x8(d, ftz ? sim_ftz32x8(v) : v);
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

/* (vector code throughout: sim_vfp_of answers SIM_VFP_NONE without AVX2, and an fma without
   FMA, so nothing calls it there) */
AVX2FMA void sim_vfp_full(enum sim_vfp k, const struct ptx_inst *in, uint64_t *d,
                          const uint64_t *a, const uint64_t *b, const uint64_t *c)
{
  const int ftz = (in->flags & PTX_F_FTZ) != 0;  /* (f64 arithmetic ignores it, as PTX) */
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
  case SIM_VFP_RSQRT_F32: case SIM_VFP_SIN_F32: case SIM_VFP_COS_F32: case SIM_VFP_LG2_F32:
  case SIM_VFP_EX2_F32: case SIM_VFP_TANH_F32:
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
