/* sim_vhalf.c: a full 32-lane warp's half-precision operations that sim_alu does lane by lane
 * in software (alu_h_bin, alu_h_fma, sim_alu_cvt), eight lanes a vector with AVX2 and F16C,
 * bit for bit as sim_alu computes them.
 *
 * The kinds (sim_vfp_of's SIM_VFP_H_*): add, sub, mul and fma of f16 and f16x2 to nearest,
 * with .ftz, .relu and .sat; min and max (.ftz, .NaN, .relu), neg and abs; the conversions from f32 to f16 and bf16 to nearest (one value,
 * or two packed: cvt.rn.f16x2.f32), and back from f16 and bf16 to f32.
 *
 * sim_alu rounds each half operation's exact result (a product of two halves is exact in
 * double, a sum or an fma's sum of the exact product rounded to odd) once, to f16. Here the
 * halves become f32 (F16C's VCVTPH2PS, exact). The product of two f16s has at most 22
 * significant bits and lies between 2^-48 and 2^32: exact in f32. A sum s = a + b of two
 * f32s (a: the exact product, for an fma) is rounded, but its error e = (a + b) - s is an
 * f32 too and comes out exactly (TwoSum: six operations of f32, exact whatever the
 * magnitudes, barring overflow, which values below 2^33 cannot reach). Where e is not 0 and
 * s's last bit is even, s moves one unit of its last place towards e: s is then the exact
 * sum rounded to odd in f32, and 24 bits, two more than f16's 11 and a sticky bit, round
 * once more to f16 (VCVTPS2PH, to nearest even, subnormals and overflow included) to the
 * exact sum's correctly rounded f16. A NaN result is the canonical NaN (SIM_ALU_F16_CNAN),
 * as alu_fin16 makes it, before .ftz, .relu and .sat, done on the 16-bit results.
 *
 * f32 to f16 is VCVTPS2PH's own rounding of the value; f32 to bf16 rounds the top 16 bits
 * of the f32 to nearest even with integer adds (a bf16 is an f32's top half: the carry runs
 * into the exponent, to infinity past the largest bf16); back to f32 is exact either way.
 */
#include "sim/sim_alu.h"
#include "sim/sim_int.h"

#ifdef SIM_X86
#define F16C __attribute__((target("avx2,f16c")))

/* The low halves of eight lanes (the low 16 bits of each register), in one 128-bit vector. */
F16C static inline __m128i lo16x8(const uint64_t *p)
{
  const __m256i u = _mm256_and_si256(sim_lo32x8(p), _mm256_set1_epi32(0xffff));
  return _mm256_castsi256_si128(
      _mm256_permute4x64_epi64(_mm256_packus_epi32(u, u), _MM_SHUFFLE(3, 1, 2, 0)));
}

/* Eight 16-bit results to the registers at d, zero-extended. */
F16C static inline void store16x8(uint64_t *d, __m128i h)
{
  _mm256_storeu_si256((__m256i *)(void *)d, _mm256_cvtepu16_epi64(h));
  _mm256_storeu_si256((__m256i *)(void *)(d + 4), _mm256_cvtepu16_epi64(_mm_srli_si128(h, 8)));
}

/* .ftz of eight f16s: a subnormal becomes the zero of its sign (alu_ftz16). */
F16C static inline __m128i ftz16x8(__m128i h)
{
  const __m128i sub = _mm_cmpeq_epi16(_mm_and_si128(h, _mm_set1_epi16(0x7c00)), _mm_setzero_si128());
  return _mm_blendv_epi8(h, _mm_and_si128(h, _mm_set1_epi16((short)0x8000)), sub);
}

/* s + e rounded to odd in f32, where e is the exact error of s (0, or a NaN beside an
   infinite or NaN s: left as it is): where e is not 0, the sum truncated (s, or one unit of
   its last place less in magnitude where e has the other sign) with its last bit set. */
F16C static inline __m256 odd8(__m256 s, __m256 e)
{
  const __m256i sb = _mm256_castps_si256(s), eb = _mm256_castps_si256(e);
  const __m256 inexact = _mm256_cmp_ps(e, _mm256_setzero_ps(), _CMP_NEQ_OQ);
  const __m256i trunc = _mm256_add_epi32(sb, _mm256_srai_epi32(_mm256_xor_si256(sb, eb), 31));
  return _mm256_blendv_ps(s, _mm256_castsi256_ps(_mm256_or_si256(trunc, _mm256_set1_epi32(1))),
                          inexact);
}

/* The exact a + b's f32 s and its error e (TwoSum). */
F16C static inline __m256 two_sum8(__m256 a, __m256 b, __m256 *e)
{
  const __m256 s = _mm256_add_ps(a, b), bb = _mm256_sub_ps(s, a), aa = _mm256_sub_ps(s, bb);
  *e = _mm256_add_ps(_mm256_sub_ps(a, aa), _mm256_sub_ps(b, bb));
  return s;
}

/* Operation k of eight halves x, y, z (as f32s, exact), rounded to f16 as alu_fin16 does
   (flags: .ftz, .relu, .sat). */
F16C static inline __attribute__((always_inline)) __m128i hop8(enum sim_vfp k, uint32_t flags,
                                                              __m256 x, __m256 y, __m256 z)
{
  __m256 s, e, r;
  switch (k) {
  case SIM_VFP_H_MUL:
    r = _mm256_mul_ps(x, y);                   /* exact: nothing to round to odd */
    break;
  case SIM_VFP_H_FMA:
    s = two_sum8(_mm256_mul_ps(x, y), z, &e);
    r = odd8(s, e);
    break;
  case SIM_VFP_H_SUB:
    s = two_sum8(x, _mm256_xor_ps(y, _mm256_set1_ps(-0.0f)), &e);
    r = odd8(s, e);
    break;
  default:
    s = two_sum8(x, y, &e);
    r = odd8(s, e);
    break;
  }
  __m128i h = _mm256_cvtps_ph(r, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  const __m128i nan = _mm_cmpgt_epi16(_mm_and_si128(h, _mm_set1_epi16(0x7fff)),
                                      _mm_set1_epi16(0x7c00));
  if (flags & PTX_F_FTZ)
    h = ftz16x8(h);
  if (flags & (PTX_F_RELU | PTX_F_SAT))        /* a negative result: 0 */
    h = _mm_andnot_si128(_mm_srai_epi16(h, 15), h);
  if (flags & PTX_F_SAT)                       /* (no sign left: a signed compare) */
    h = _mm_min_epi16(h, _mm_set1_epi16(0x3c00));
  return _mm_blendv_epi8(h, _mm_set1_epi16(0x7fff), nan);
}

/* .ftz of sixteen f16s. */
F16C static inline __m256i ftz16x16(__m256i h)
{
  const __m256i sub = _mm256_cmpeq_epi16(_mm256_and_si256(h, _mm256_set1_epi16(0x7c00)),
                                         _mm256_setzero_si256());
  return _mm256_blendv_epi8(h, _mm256_and_si256(h, _mm256_set1_epi16((short)0x8000)), sub);
}

/* min, max, neg or abs of sixteen f16s a and b, as alu_h_bin and alu_h_un: bit operations
   (no rounding). min and max order the values by a key that is monotonic in them (a
   negative half's magnitude bits flipped: -0 just below +0, as the lesser of two equal
   values is -0 for min and the greater +0 for max), return the other operand where one is a
   NaN and the canonical NaN where both are (either, with .NaN), then .relu. */
F16C static inline __m256i hbits16(enum sim_vfp k, uint32_t flags, __m256i a, __m256i b)
{
  if (flags & PTX_F_FTZ) {
    a = ftz16x16(a);
    b = ftz16x16(b);
  }
  if (k == SIM_VFP_H_NEG)
    return _mm256_xor_si256(a, _mm256_set1_epi16((short)0x8000));
  if (k == SIM_VFP_H_ABS)
    return _mm256_and_si256(a, _mm256_set1_epi16(0x7fff));
  const __m256i mag = _mm256_set1_epi16(0x7fff), inf = _mm256_set1_epi16(0x7c00);
  const __m256i an = _mm256_cmpgt_epi16(_mm256_and_si256(a, mag), inf);
  const __m256i bn = _mm256_cmpgt_epi16(_mm256_and_si256(b, mag), inf);
  const __m256i ka = _mm256_xor_si256(a, _mm256_and_si256(_mm256_srai_epi16(a, 15), mag));
  const __m256i kb = _mm256_xor_si256(b, _mm256_and_si256(_mm256_srai_epi16(b, 15), mag));
  const __m256i lt = _mm256_cmpgt_epi16(kb, ka);                     /* a < b */
  __m256i r = k == SIM_VFP_H_MIN ? _mm256_blendv_epi8(b, a, lt) : _mm256_blendv_epi8(a, b, lt);
  r = _mm256_blendv_epi8(r, b, an);
  r = _mm256_blendv_epi8(r, a, bn);
  const __m256i both = (flags & PTX_F_NAN) ? _mm256_or_si256(an, bn) : _mm256_and_si256(an, bn);
  r = _mm256_blendv_epi8(r, mag, both);                              /* (mag: the NaN) */
  if (flags & PTX_F_RELU)
    r = _mm256_andnot_si256(_mm256_srai_epi16(r, 15), r);
  return r;
}

/* min, max, neg, abs of f16 (the low half of each lane, masked) or f16x2 (both). */
F16C static void half_bits(enum sim_vfp k, uint32_t flags, int x2, uint64_t *d,
                           const uint64_t *a, const uint64_t *b)
{
  const __m256i keep = _mm256_set1_epi32(x2 ? -1 : 0xffff);
  for (unsigned l = 0; l < 32; l += 8) {
    const __m256i ua = _mm256_and_si256(sim_lo32x8(a + l), keep);
    const __m256i ub = b ? _mm256_and_si256(sim_lo32x8(b + l), keep) : ua;
    sim_store32x8(d + l, _mm256_and_si256(hbits16(k, flags, ua, ub), keep));
  }
}

/* Eight halves as f32s, flushed first where ftz is set. */
F16C static inline __m256 in_h8(__m128i h, int ftz)
{
  return _mm256_cvtph_ps(ftz ? ftz16x8(h) : h);
}

/* f16 add, sub, mul, fma (one half a lane). */
F16C static inline __attribute__((always_inline)) void half1_of(enum sim_vfp k, uint32_t flags,
                                                               uint64_t *d, const uint64_t *a,
                                                               const uint64_t *b,
                                                               const uint64_t *c)
{
  const int ftz = (flags & PTX_F_FTZ) != 0;
  for (unsigned l = 0; l < 32; l += 8) {
    const __m256 x = in_h8(lo16x8(a + l), ftz), y = in_h8(lo16x8(b + l), ftz);
    const __m256 z = k == SIM_VFP_H_FMA ? in_h8(lo16x8(c + l), ftz) : x;
    store16x8(d + l, hop8(k, flags, x, y, z));
  }
}

/* f16x2 add, sub, mul, fma: a lane's two halves side by side, sixteen halves a turn. */
F16C static inline __attribute__((always_inline)) void half2_of(enum sim_vfp k, uint32_t flags,
                                                               uint64_t *d, const uint64_t *a,
                                                               const uint64_t *b,
                                                               const uint64_t *c)
{
  const int ftz = (flags & PTX_F_FTZ) != 0;
  for (unsigned l = 0; l < 32; l += 8) {
    const __m256i ua = sim_lo32x8(a + l), ub = sim_lo32x8(b + l);
    const __m256i uc = k == SIM_VFP_H_FMA ? sim_lo32x8(c + l) : ua;
    __m128i r[2];
    for (int j = 0; j < 2; j++) {
      const __m128i ha = j ? _mm256_extracti128_si256(ua, 1) : _mm256_castsi256_si128(ua);
      const __m128i hb = j ? _mm256_extracti128_si256(ub, 1) : _mm256_castsi256_si128(ub);
      const __m128i hc = j ? _mm256_extracti128_si256(uc, 1) : _mm256_castsi256_si128(uc);
      r[j] = hop8(k, flags, in_h8(ha, ftz), in_h8(hb, ftz), in_h8(hc, ftz));
    }
    sim_store32x8(d + l, _mm256_set_m128i(r[1], r[0]));
  }
}

/* half1_of or half2_of (x2), their operation and flags constants in the common cases
   (no flags), so that the code of each has no test of them left inside its loop. */
F16C static void half_arith(enum sim_vfp k, uint32_t flags, int x2, uint64_t *d,
                            const uint64_t *a, const uint64_t *b, const uint64_t *c)
{
#define HALF_OF(k, flags)                                                  \
  do {                                                                     \
    if (x2)                                                                \
      half2_of((k), (flags), d, a, b, c);                                  \
    else                                                                   \
      half1_of((k), (flags), d, a, b, c);                                  \
  } while (0)
  if (flags) {
    HALF_OF(k, flags);
    return;
  }
  switch (k) {
  case SIM_VFP_H_MUL: HALF_OF(SIM_VFP_H_MUL, 0); break;
  case SIM_VFP_H_FMA: HALF_OF(SIM_VFP_H_FMA, 0); break;
  case SIM_VFP_H_SUB: HALF_OF(SIM_VFP_H_SUB, 0); break;
  default: HALF_OF(k, 0); break;
  }
#undef HALF_OF
}

/* Eight f32s (flushed where ftz is set) to f16 or bf16, to nearest even, NaN canonical. */
F16C static inline __m128i to_half8(__m256i u, int ftz, int bf16)
{
  if (ftz)
    u = sim_ftz32x8(u);
  const __m256i nan = _mm256_cmpgt_epi32(_mm256_and_si256(u, _mm256_set1_epi32(0x7fffffff)),
                                         _mm256_set1_epi32(0x7f800000));
  __m128i h;
  if (bf16) {
    const __m256i odd = _mm256_and_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(1));
    __m256i r = _mm256_srli_epi32(
        _mm256_add_epi32(u, _mm256_add_epi32(odd, _mm256_set1_epi32(0x7fff))), 16);
    r = _mm256_blendv_epi8(r, _mm256_set1_epi32(0x7fff), nan);
    h = _mm256_castsi256_si128(_mm256_permute4x64_epi64(_mm256_packus_epi32(r, r),
                                                        _MM_SHUFFLE(3, 1, 2, 0)));
  } else {
    h = _mm256_cvtps_ph(_mm256_castsi256_ps(u), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    h = _mm_blendv_epi8(h, _mm_set1_epi16(0x7fff),
                        _mm_cmpgt_epi16(_mm_and_si128(h, _mm_set1_epi16(0x7fff)),
                                        _mm_set1_epi16(0x7c00)));
  }
  return h;
}

/* Eight f16s or bf16s to f32, NaN the f32 canonical NaN, flushed where ftz is set (a bf16
   can be an f32 subnormal; an f16 never is). */
F16C static inline __m256i from_half8(__m128i h, int ftz, int bf16)
{
  const __m128i nan = _mm_cmpgt_epi16(_mm_and_si128(h, _mm_set1_epi16(0x7fff)),
                                      _mm_set1_epi16(bf16 ? 0x7f80 : 0x7c00));
  __m256i u = bf16 ? _mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16)
                   : _mm256_castps_si256(_mm256_cvtph_ps(h));
  if (ftz && bf16)
    u = sim_ftz32x8(u);
  return _mm256_blendv_epi8(u, _mm256_set1_epi32((int)SIM_ALU_F32_CNAN),
                            _mm256_cvtepi16_epi32(nan));
}

/* The conversions: f32 to f16 or bf16 (one, or a's and b's packed, a's high), and back. */
F16C static inline __attribute__((always_inline)) void half_cvt_of(enum sim_vfp k, int ftz,
                                                                  int bf16, uint64_t *d,
                                                                  const uint64_t *a,
                                                                  const uint64_t *b)
{
  for (unsigned l = 0; l < 32; l += 8) {
    switch (k) {
    case SIM_VFP_H_TO:
      store16x8(d + l, to_half8(sim_lo32x8(a + l), ftz, bf16));
      break;
    case SIM_VFP_H_PACK: {
      const __m256i hi = _mm256_cvtepu16_epi32(to_half8(sim_lo32x8(a + l), ftz, bf16));
      const __m256i lo = _mm256_cvtepu16_epi32(to_half8(sim_lo32x8(b + l), ftz, bf16));
      sim_store32x8(d + l, _mm256_or_si256(_mm256_slli_epi32(hi, 16), lo));
      break;
    }
    default:
      sim_store32x8(d + l, from_half8(lo16x8(a + l), ftz, bf16));
      break;
    }
  }
}

/* half_cvt_of, its kind and flags constants in the common cases (no .ftz). */
F16C static void half_cvt(enum sim_vfp k, uint32_t flags, int bf16, uint64_t *d,
                          const uint64_t *a, const uint64_t *b)
{
  if (flags & PTX_F_FTZ)
    half_cvt_of(k, 1, bf16, d, a, b);
  else if (k == SIM_VFP_H_FROM)
    half_cvt_of(SIM_VFP_H_FROM, 0, bf16, d, a, b);
  else if (k == SIM_VFP_H_PACK)
    half_cvt_of(SIM_VFP_H_PACK, 0, bf16, d, a, b);
  else
    half_cvt_of(k, 0, bf16, d, a, b);
}

F16C void sim_vhalf_full(enum sim_vfp k, const struct ptx_inst *in, uint64_t *d,
                         const uint64_t *a, const uint64_t *b, const uint64_t *c)
{
  const enum ptx_type t = (enum ptx_type)in->type;
  switch (k) {
  case SIM_VFP_H_TO: case SIM_VFP_H_PACK:
    half_cvt(k, in->flags, t == PTX_T_BF16 || t == PTX_T_BF16X2, d, a, b);
    break;
  case SIM_VFP_H_FROM:
    half_cvt(k, in->flags, in->type2 == PTX_T_BF16, d, a, b);
    break;
  case SIM_VFP_H_MIN: case SIM_VFP_H_MAX: case SIM_VFP_H_NEG: case SIM_VFP_H_ABS:
    half_bits(k, in->flags, t == PTX_T_F16X2, d, a, k <= SIM_VFP_H_MAX ? b : NULL);
    break;
  default:
    half_arith(k, in->flags, t == PTX_T_F16X2, d, a, b, c);
    break;
  }
}
#else
void sim_vhalf_full(enum sim_vfp k, const struct ptx_inst *in, uint64_t *d, const uint64_t *a,
                    const uint64_t *b, const uint64_t *c)
{
  (void)k; (void)in; (void)d; (void)a; (void)b; (void)c;
}
#endif
