/* sim_vfp.c: a full 32-lane warp's float operations that sim_alu does lane by lane, eight
 * (f32) or four (f64) lanes a vector with AVX2, bit for bit as sim_alu computes them.
 *
 * Division, square root, reciprocal, abs and neg of f32; the f64 arithmetic of a kernel
 * that promotes a float to double (x * 0.5); the conversions between f32 and f64 and
 * between f32 and 32-bit integers. sim_alu computes each with the host's IEEE operation in
 * round-to-nearest (the mode it leaves set) and fixes what PTX defines otherwise: a NaN
 * result is the canonical NaN (f32) or the first NaN input quieted (f64), .ftz flushes
 * subnormal f32 inputs and results to a signed zero, a float-to-integer conversion clamps.
 * The vector code here does the same IEEE operations, so it rounds the same, and the same
 * fixes. Anything else (other rounding modes, .sat, the transcendental approximations)
 * stays on sim_alu's lane loops: sim_vfp_of answers SIM_VFP_NONE for it.
 */
#include "sim/sim_alu.h"
#include "sim/sim_int.h"

enum sim_vfp sim_vfp_of(const struct ptx_inst *in)
{
#ifdef SIM_X86
  const enum ptx_type t = (enum ptx_type)in->type, st = (enum ptx_type)in->type2;
  const uint32_t fl = in->flags;
  const int rn = in->rnd == PTX_RND_RN || in->rnd == PTX_RND_NONE;
  if (!sim_cpu_avx2)
    return SIM_VFP_NONE;
  switch ((enum ptx_op)in->op) {
  case PTX_OP_DIV:
    if (t == PTX_T_F32 && rn && !(fl & ~(uint32_t)(PTX_F_FTZ | PTX_F_FULL | PTX_F_APPROX)))
      return (fl & PTX_F_APPROX) ? SIM_VFP_DIV_APPROX_F32
             : (fl & PTX_F_FULL) ? SIM_VFP_DIV_FULL_F32 : SIM_VFP_DIV_F32;
    return t == PTX_T_F64 && rn && !(fl & ~(uint32_t)PTX_F_FTZ) ? SIM_VFP_DIV_F64 : SIM_VFP_NONE;
  case PTX_OP_ABS:
  case PTX_OP_NEG:
    /* bit operations on the sign (f32 after .ftz): NaNs keep their bits */
    if (t == PTX_T_F64 || (t == PTX_T_F32 && !(fl & ~(uint32_t)PTX_F_FTZ)))
      return in->op == PTX_OP_ABS ? (t == PTX_T_F32 ? SIM_VFP_ABS_F32 : SIM_VFP_ABS_F64)
                                  : (t == PTX_T_F32 ? SIM_VFP_NEG_F32 : SIM_VFP_NEG_F64);
    return SIM_VFP_NONE;
  case PTX_OP_SQRT:
  case PTX_OP_RCP:
    /* .approx computes what .rn does (sim_alu's alu_f32_un) */
    if (t != PTX_T_F32 || !rn || (fl & ~(uint32_t)(PTX_F_FTZ | PTX_F_APPROX)))
      return SIM_VFP_NONE;
    return in->op == PTX_OP_SQRT ? SIM_VFP_SQRT_F32 : SIM_VFP_RCP_F32;
  case PTX_OP_ADD:
  case PTX_OP_SUB:
  case PTX_OP_MUL:
    if (t != PTX_T_F64 || !rn || (fl & ~(uint32_t)PTX_F_FTZ))
      return SIM_VFP_NONE;
    return in->op == PTX_OP_ADD ? SIM_VFP_ADD_F64
           : in->op == PTX_OP_SUB ? SIM_VFP_SUB_F64 : SIM_VFP_MUL_F64;
  case PTX_OP_FMA:
    return t == PTX_T_F64 && rn && !(fl & ~(uint32_t)PTX_F_FTZ) && sim_cpu_avx2_fma
               ? SIM_VFP_FMA_F64 : SIM_VFP_NONE;
  case PTX_OP_CVT:
    if (in->nopd != 2)
      return SIM_VFP_NONE;
    if (t == PTX_T_F32 && in->rnd == PTX_RND_RN && !fl && (st == PTX_T_S32 || st == PTX_T_U32))
      return st == PTX_T_S32 ? SIM_VFP_F32_S32 : SIM_VFP_F32_U32;
    if (t == PTX_T_F32 && st == PTX_T_F64 && in->rnd == PTX_RND_RN && !(fl & ~(uint32_t)PTX_F_FTZ))
      return SIM_VFP_F32_F64;
    if (t == PTX_T_F64 && st == PTX_T_F32 && rn && !(fl & ~(uint32_t)PTX_F_FTZ))
      return SIM_VFP_F64_F32;
    /* a subnormal truncates to 0 with .ftz or without */
    if (t == PTX_T_S32 && st == PTX_T_F32 && in->rnd == PTX_RND_RZI &&
        !(fl & ~(uint32_t)PTX_F_FTZ))
      return SIM_VFP_S32_F32_RZI;
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

/* The low 32 bits of the eight 64-bit registers at p, in order, in one vector. */
AVX2 static inline __m256i low32x8(const uint64_t *p)
{
  __m256 lo = _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)(const void *)p));
  __m256 hi = _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)(const void *)(p + 4)));
  return _mm256_permute4x64_epi64(_mm256_castps_si256(_mm256_shuffle_ps(lo, hi,
                                                                         _MM_SHUFFLE(2, 0, 2, 0))),
                                  _MM_SHUFFLE(3, 1, 2, 0));
}

/* Eight 32-bit results to the registers at d, zero-extended. */
AVX2 static inline void store32x8(uint64_t *d, __m256i r)
{
  _mm256_storeu_si256((__m256i *)(void *)d, _mm256_cvtepu32_epi64(_mm256_castsi256_si128(r)));
  _mm256_storeu_si256((__m256i *)(void *)(d + 4),
                      _mm256_cvtepu32_epi64(_mm256_extracti128_si256(r, 1)));
}

/* .ftz of f32 bits: a subnormal (exponent 0) becomes the zero of its sign. */
AVX2 static inline __m256i ftz8(__m256i u)
{
  const __m256i exp = _mm256_set1_epi32(0x7f800000), sign = _mm256_set1_epi32((int)0x80000000u);
  return _mm256_blendv_epi8(u, _mm256_and_si256(u, sign),
                            _mm256_cmpeq_epi32(_mm256_and_si256(u, exp), _mm256_setzero_si256()));
}

/* An f32 result as alu_fin32 leaves it (without .sat or .relu): NaN the canonical NaN, then
   .ftz where asked. */
AVX2 static inline __m256i fin8(__m256 r, int ftz)
{
  __m256i u = _mm256_blendv_epi8(_mm256_castps_si256(r), _mm256_set1_epi32((int)SIM_ALU_F32_CNAN),
                                 _mm256_castps_si256(_mm256_cmp_ps(r, r, _CMP_UNORD_Q)));
  return ftz ? ftz8(u) : u;
}

/* The lanes of eight f32 registers at p, flushed where ftz is set. */
AVX2 static inline __m256 in8(const uint64_t *p, int ftz)
{
  __m256i u = low32x8(p);
  return _mm256_castsi256_ps(ftz ? ftz8(u) : u);
}

/* Whether each f64 (as bits) is a NaN. */
AVX2 static inline __m256i isnan4(__m256i u)
{
  return _mm256_cmpgt_epi64(_mm256_and_si256(u, _mm256_set1_epi64x(0x7fffffffffffffffll)),
                            _mm256_set1_epi64x(0x7ff0000000000000ll));
}

/* An f64 result as alu_fin64 leaves it: a NaN becomes the first NaN of a, b, c quieted, else
   SIM_ALU_F64_CNAN (sim_alu_f64_nan). */
AVX2 static inline __m256i fin4(__m256d r, __m256i a, __m256i b, __m256i c)
{
  const __m256i nan = _mm256_castpd_si256(_mm256_cmp_pd(r, r, _CMP_UNORD_Q));
  if (_mm256_testz_si256(nan, nan))
    return _mm256_castpd_si256(r);
  const __m256i q = _mm256_set1_epi64x((long long)(UINT64_C(1) << 51));
  __m256i v = _mm256_set1_epi64x((long long)SIM_ALU_F64_CNAN);
  v = _mm256_blendv_epi8(v, _mm256_or_si256(c, q), isnan4(c));
  v = _mm256_blendv_epi8(v, _mm256_or_si256(b, q), isnan4(b));
  v = _mm256_blendv_epi8(v, _mm256_or_si256(a, q), isnan4(a));
  return _mm256_blendv_epi8(_mm256_castpd_si256(r), v, nan);
}

/* Eight lanes of an f32 operation from the registers at a and b (f32 bits). */
AVX2 static __m256i f32_op8(enum sim_vfp k, int ftz, const uint64_t *a, const uint64_t *b)
{
  const __m256 x = in8(a, ftz), one = _mm256_set1_ps(1.0f);
  switch (k) {
  case SIM_VFP_DIV_F32:
    return fin8(_mm256_div_ps(x, in8(b, ftz)), ftz);
  case SIM_VFP_DIV_FULL_F32: {                 /* in double, then rounded to f32 */
    const __m256 y = in8(b, ftz);
    __m128 lo = _mm256_cvtpd_ps(_mm256_div_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(x)),
                                              _mm256_cvtps_pd(_mm256_castps256_ps128(y))));
    __m128 hi = _mm256_cvtpd_ps(_mm256_div_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(x, 1)),
                                              _mm256_cvtps_pd(_mm256_extractf128_ps(y, 1))));
    return fin8(_mm256_set_m128(hi, lo), ftz);
  }
  case SIM_VFP_DIV_APPROX_F32: {
    /* x * (1 / y), but where 1 / y is subnormal, flushed (|y| past 2^126, finite): a zero
       of the quotient's sign, or NaN for an infinite or NaN x */
    const __m256 y = in8(b, ftz);
    const __m256i mag = _mm256_set1_epi32(0x7fffffff), sign = _mm256_set1_epi32((int)0x80000000u);
    const __m256i ay = _mm256_and_si256(_mm256_castps_si256(y), mag);
    const __m256i tiny = _mm256_and_si256(_mm256_cmpgt_epi32(ay, _mm256_set1_epi32(0x7e800000)),
                                          _mm256_cmpgt_epi32(_mm256_set1_epi32(0x7f800000), ay));
    __m256i r = _mm256_castps_si256(_mm256_mul_ps(x, _mm256_div_ps(one, y)));
    const __m256i z = _mm256_and_si256(_mm256_xor_si256(_mm256_castps_si256(x),
                                                         _mm256_castps_si256(y)), sign);
    const __m256i xbad = _mm256_cmpgt_epi32(_mm256_and_si256(_mm256_castps_si256(x), mag),
                                            _mm256_set1_epi32(0x7f7fffff));
    r = _mm256_blendv_epi8(r, _mm256_blendv_epi8(z, _mm256_set1_epi32(0x7fc00000), xbad), tiny);
    return fin8(_mm256_castsi256_ps(r), ftz);
  }
  case SIM_VFP_SQRT_F32:
    return fin8(_mm256_sqrt_ps(x), ftz);
  case SIM_VFP_RCP_F32:
    return fin8(_mm256_div_ps(one, x), ftz);
  case SIM_VFP_ABS_F32:
    return _mm256_and_si256(_mm256_castps_si256(x), _mm256_set1_epi32(0x7fffffff));
  case SIM_VFP_NEG_F32:
    return _mm256_xor_si256(_mm256_castps_si256(x), _mm256_set1_epi32((int)0x80000000u));
  default:
    return _mm256_setzero_si256();
  }
}

/* Four lanes of an f64 operation but fma, registers at a and b (b: not abs's or neg's). */
AVX2 static __m256i f64_op4(enum sim_vfp k, const uint64_t *a, const uint64_t *b)
{
  const __m256i ua = _mm256_loadu_si256((const __m256i *)(const void *)a);
  const __m256i ub = _mm256_loadu_si256((const __m256i *)(const void *)b);
  const __m256d x = _mm256_castsi256_pd(ua), y = _mm256_castsi256_pd(ub);
  switch (k) {
  case SIM_VFP_ADD_F64: return fin4(_mm256_add_pd(x, y), ua, ub, ub);
  case SIM_VFP_SUB_F64: return fin4(_mm256_sub_pd(x, y), ua, ub, ub);
  case SIM_VFP_MUL_F64: return fin4(_mm256_mul_pd(x, y), ua, ub, ub);
  case SIM_VFP_ABS_F64: return _mm256_and_si256(ua, _mm256_set1_epi64x(0x7fffffffffffffffll));
  case SIM_VFP_NEG_F64:
    return _mm256_xor_si256(ua, _mm256_set1_epi64x((long long)0x8000000000000000ull));
  default: return fin4(_mm256_div_pd(x, y), ua, ub, ub);         /* SIM_VFP_DIV_F64 */
  }
}

/* Eight lanes of a conversion, registers at a to d (ftz: the instruction's .ftz). */
AVX2 static void cvt8(enum sim_vfp k, int ftz, uint64_t *d, const uint64_t *a)
{
  const __m256i low = _mm256_set1_epi64x(0xffffffff);
  switch (k) {
  case SIM_VFP_F32_S32:                        /* rounded to nearest even */
    store32x8(d, _mm256_castps_si256(_mm256_cvtepi32_ps(low32x8(a))));
    return;
  case SIM_VFP_F32_U32: {                      /* through a double, exact: 2^52 + x, less 2^52 */
    const __m256d two52 = _mm256_set1_pd(4503599627370496.0);
    __m128 f[2];
    for (unsigned h = 0; h < 2; h++) {
      __m256i x = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(a + 4 * h)), low);
      f[h] = _mm256_cvtpd_ps(_mm256_sub_pd(
          _mm256_castsi256_pd(_mm256_or_si256(x, _mm256_castpd_si256(two52))), two52));
    }
    store32x8(d, _mm256_castps_si256(_mm256_set_m128(f[1], f[0])));
    return;
  }
  case SIM_VFP_S32_F32_RZI: {
    /* truncated; the CPU gives 0x80000000 for NaN and out of range both ways: NaN is 0 and
       the top of the range 0x7fffffff, as sim_alu_cvt clamps; sign-extended, as widen */
    const __m256 x = _mm256_castsi256_ps(low32x8(a));
    __m256i r = _mm256_cvttps_epi32(x);
    r = _mm256_blendv_epi8(r, _mm256_set1_epi32(0x7fffffff),
                           _mm256_castps_si256(_mm256_cmp_ps(x, _mm256_set1_ps(2147483648.0f),
                                                             _CMP_GE_OQ)));
    r = _mm256_andnot_si256(_mm256_castps_si256(_mm256_cmp_ps(x, x, _CMP_UNORD_Q)), r);
    _mm256_storeu_si256((__m256i *)(void *)d, _mm256_cvtepi32_epi64(_mm256_castsi256_si128(r)));
    _mm256_storeu_si256((__m256i *)(void *)(d + 4),
                        _mm256_cvtepi32_epi64(_mm256_extracti128_si256(r, 1)));
    return;
  }
  case SIM_VFP_F64_F32:
    /* exact; a NaN keeps its sign and payload, quieted (sim_alu_cvt) */
    for (unsigned h = 0; h < 2; h++) {
      __m256i u = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(a + 4 * h)), low);
      __m256i uf = ftz ? ftz8(u) : u;           /* (the high halves stay 0) */
      __m256d v = _mm256_cvtps_pd(_mm256_castps256_ps128(_mm256_castsi256_ps(
          _mm256_permutevar8x32_epi32(uf, _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7)))));
      const __m256i nan = _mm256_cmpgt_epi64(_mm256_and_si256(u, _mm256_set1_epi64x(0x7fffffff)),
                                             _mm256_set1_epi64x(0x7f800000));
      const __m256i bits = _mm256_or_si256(
          _mm256_or_si256(_mm256_slli_epi64(_mm256_srli_epi64(u, 31), 63),
                          _mm256_set1_epi64x(0x7ff8000000000000ll)),
          _mm256_slli_epi64(_mm256_and_si256(u, _mm256_set1_epi64x(0x7fffff)), 29));
      _mm256_storeu_si256((__m256i *)(void *)(d + 4 * h),
                          _mm256_blendv_epi8(_mm256_castpd_si256(v), bits, nan));
    }
    return;
  default: {                                   /* SIM_VFP_F32_F64: rounded to nearest */
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
    store32x8(d, ftz ? ftz8(v) : v);
    return;
  }
  }
}

/* The 32 lanes of f32_op8, f64_op4 and cvt8. */
AVX2 static void f32_full(enum sim_vfp k, int ftz, uint64_t *d, const uint64_t *a,
                          const uint64_t *b)
{
  for (unsigned l = 0; l < 32; l += 8)
    store32x8(d + l, f32_op8(k, ftz, a + l, b + l));
}

AVX2 static void f64_full(enum sim_vfp k, uint64_t *d, const uint64_t *a, const uint64_t *b)
{
  for (unsigned l = 0; l < 32; l += 4)
    _mm256_storeu_si256((__m256i *)(void *)(d + l), f64_op4(k, a + l, b + l));
}

/* fma.rn.f64, four lanes a vector, where the CPU has FMA (sim_vfp_of). */
__attribute__((target("avx2,fma"))) static void fma64_full(uint64_t *d, const uint64_t *a,
                                                           const uint64_t *b, const uint64_t *c)
{
  for (unsigned l = 0; l < 32; l += 4) {
    const __m256i ua = _mm256_loadu_si256((const __m256i *)(const void *)(a + l));
    const __m256i ub = _mm256_loadu_si256((const __m256i *)(const void *)(b + l));
    const __m256i uc = _mm256_loadu_si256((const __m256i *)(const void *)(c + l));
    _mm256_storeu_si256((__m256i *)(void *)(d + l),
                        fin4(_mm256_fmadd_pd(_mm256_castsi256_pd(ua), _mm256_castsi256_pd(ub),
                                             _mm256_castsi256_pd(uc)), ua, ub, uc));
  }
}

AVX2 static void cvt_full(enum sim_vfp k, int ftz, uint64_t *d, const uint64_t *a)
{
  for (unsigned l = 0; l < 32; l += 8)
    cvt8(k, ftz, d + l, a + l);
}

void sim_vfp_full(enum sim_vfp k, uint32_t flags, uint64_t *d, const uint64_t *a,
                  const uint64_t *b, const uint64_t *c)
{
  const int ftz = (flags & PTX_F_FTZ) != 0;      /* (f64 arithmetic ignores it, as PTX) */
  switch (k) {
  case SIM_VFP_DIV_F32: case SIM_VFP_DIV_FULL_F32: case SIM_VFP_DIV_APPROX_F32:
  case SIM_VFP_SQRT_F32: case SIM_VFP_RCP_F32: case SIM_VFP_ABS_F32: case SIM_VFP_NEG_F32:
    f32_full(k, ftz, d, a, b ? b : a);             /* (b: a division's alone) */
    return;
  case SIM_VFP_ADD_F64: case SIM_VFP_SUB_F64: case SIM_VFP_MUL_F64: case SIM_VFP_DIV_F64:
  case SIM_VFP_ABS_F64: case SIM_VFP_NEG_F64:
    f64_full(k, d, a, b ? b : a);                  /* (b: not abs's or neg's) */
    return;
  case SIM_VFP_FMA_F64:
    fma64_full(d, a, b, c);
    return;
  case SIM_VFP_NONE:
    return;
  default:
    cvt_full(k, ftz, d, a);
    return;
  }
}
#else
void sim_vfp_full(enum sim_vfp k, uint32_t flags, uint64_t *d, const uint64_t *a,
                  const uint64_t *b, const uint64_t *c)
{
  (void)k; (void)flags; (void)d; (void)a; (void)b; (void)c;
}
#endif
