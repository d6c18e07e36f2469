/* sim_alu.h: scalar instruction semantics of the PTX emulator (one lane, one instruction).
 *
 * The SIMT core keeps every register as raw uint64_t bits: an integer zero-extended from its
 * type's width, an f32 as its bit pattern in the low 32 bits, an f16/bf16 in the low 16, an
 * f16x2/bf16x2 packed in the low 32 (element 0 in bits 0..15), a predicate as 0/1. Every
 * function here takes and returns such bits, with the PTX type, rounding mode and PTX_F_*
 * flags of the instruction as arguments, and implements PTX ISA 8.x semantics bit-exactly,
 * except where a comment says otherwise (the .approx transcendental forms, see below).
 *
 * Results are masked to the instruction type's width (zero-extended). Widening a narrow
 * result into a wider destination register (sign-extension for signed types, PTX ISA
 * "operand size exceeding instruction-type size") is the caller's job: sim_alu_sext helps.
 *
 * NaN results: f32 arithmetic returns the canonical NaN 0x7fffffff whatever the inputs'
 * payloads, as NVIDIA GPUs do; f16/bf16 return 0x7fff. For f64, a NaN input is returned
 * quieted (the first NaN operand) and a NaN made from numbers (inf - inf) is 0x7fff...ff;
 * this f64 rule follows the f32 one and is not verified on hardware.
 *
 * Known deviations from hardware (documented, deliberate):
 *  - sin/cos/lg2/ex2/tanh/rsqrt .approx and rcp/sqrt .approx are computed with libm in
 *    double and rounded to nearest, so they are more accurate than the MUFU unit and not
 *    bit-exact to it (they stay within PTX's stated error bounds).
 *  - div.full.f32 is computed in double and rounded (correctly rounded, within the 2 ulp).
 *  - signed integer division by zero returns the unsigned result's bits (x/0 = all ones,
 *    x%0 = x); the hardware's sequence returns 1 for negative x / 0.
 *  - abs/neg on floats are sign-bit operations that keep a NaN's payload.
 *
 * Unsupported type/operation combinations (which the parser does not produce) return 0.
 * Naming: exported names carry the sim_alu_ / SIM_ALU_ prefix. Thread-safe: the only global
 * state touched is the floating-point rounding mode of the calling thread, which directed
 * rounding (.rz/.rm/.rp on f32/f64 arithmetic) sets and restores around one operation.
 */
#ifndef WARPLAB_SIM_ALU_H
#define WARPLAB_SIM_ALU_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "ptx/ptx.h"

/* Before a lane loop whose iterations are independent (a register written is at most the
   same register read, lane for lane): GCC's ivdep, so that it vectorises without alias
   checks. Nothing for other compilers. */
#if defined(__GNUC__) && !defined(__clang__)
#define SIM_IVDEP _Pragma("GCC ivdep")
#else
#define SIM_IVDEP
#endif

#define SIM_ALU_F32_CNAN UINT64_C(0x7fffffff)
#define SIM_ALU_F16_CNAN UINT64_C(0x7fff)          /* f16 and bf16 */
#define SIM_ALU_F64_CNAN UINT64_C(0x7fffffffffffffff)
/* The NaN an H100's f64 arithmetic makes of operands none of which is a NaN (sqrt of a
   negative, inf - inf, 0 * inf, 0 / 0: tests/gpu/kernels/nan_ops.cu, measured in
   bench/results/device_r12.txt) */
#define SIM_ALU_F64_INVALID UINT64_C(0xfff8000000000000)

/* ---- raw-bit helpers ---- */

/* The f32 held in the low 32 bits of r. */
static inline float sim_alu_as_f32(uint64_t r)
{
  uint32_t u = (uint32_t)r;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

/* The raw bits of f, zero-extended. */
static inline uint64_t sim_alu_from_f32(float f)
{
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

/* The f64 held in r. */
static inline double sim_alu_as_f64(uint64_t r)
{
  double d;
  memcpy(&d, &r, sizeof d);
  return d;
}

/* The raw bits of d. */
static inline uint64_t sim_alu_from_f64(double d)
{
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return u;
}

/* Width in bits of an integer/bit/float type (pred: 1, none and b128: 0 / 128). */
static inline unsigned sim_alu_type_bits(enum ptx_type t)
{
  switch (t) {
  case PTX_T_B8: case PTX_T_U8: case PTX_T_S8: return 8;
  case PTX_T_B16: case PTX_T_U16: case PTX_T_S16: case PTX_T_F16: case PTX_T_BF16: return 16;
  case PTX_T_B32: case PTX_T_U32: case PTX_T_S32: case PTX_T_F32: case PTX_T_F16X2:
  case PTX_T_BF16X2: case PTX_T_TF32: case PTX_T_U16X2: case PTX_T_S16X2: return 32;
  case PTX_T_B64: case PTX_T_U64: case PTX_T_S64: case PTX_T_F64: return 64;
  case PTX_T_B128: return 128;
  case PTX_T_PRED: return 1;
  default: return 0;
  }
}

/* All-ones mask of a type's width (64-bit and wider: all 64 bits). */
static inline uint64_t sim_alu_mask(enum ptx_type t)
{
  unsigned n = sim_alu_type_bits(t);
  return n >= 64 ? UINT64_MAX : (UINT64_C(1) << n) - 1;
}

/* Nonzero for s8/s16/s32/s64. */
static inline int sim_alu_is_signed(enum ptx_type t)
{
  return t == PTX_T_S8 || t == PTX_T_S16 || t == PTX_T_S32 || t == PTX_T_S64;
}

/* The low bits of v as a value of type t, sign-extended to 64 bits when t is signed and
   zero-extended otherwise. */
static inline uint64_t sim_alu_sext(enum ptx_type t, uint64_t v)
{
  unsigned n = sim_alu_type_bits(t);
  if (n >= 64)
    return v;
  if (sim_alu_is_signed(t)) {
    uint64_t sign = UINT64_C(1) << (n - 1);
    v &= (UINT64_C(1) << n) - 1;
    return (v ^ sign) - sign;
  }
  return v & ((UINT64_C(1) << n) - 1);
}

/* ---- hot fast paths: round-to-nearest, no .ftz/.sat (what nvcc emits by default) ---- */

/* add.rn.f32 / add.f32. */
static inline uint64_t sim_alu_add_f32_rn(uint64_t a, uint64_t b)
{
  float r = sim_alu_as_f32(a) + sim_alu_as_f32(b);
  return r != r ? SIM_ALU_F32_CNAN : sim_alu_from_f32(r);
}

/* .ftz of an f32: a subnormal is the zero of its sign. */
static inline uint32_t sim_alu_ftz32(uint32_t u)
{
  return (u & 0x7f800000u) == 0 ? u & 0x80000000u : u;
}

/* add.rn.ftz.f32 (and a global f32 atomic add, which flushes as .ftz does): subnormal
   operands and a subnormal sum are zeros of their sign. */
static inline uint64_t sim_alu_add_f32_rn_ftz(uint64_t a, uint64_t b)
{
  float r = sim_alu_as_f32(sim_alu_ftz32((uint32_t)a)) + sim_alu_as_f32(sim_alu_ftz32((uint32_t)b));
  return r != r ? SIM_ALU_F32_CNAN : sim_alu_ftz32((uint32_t)sim_alu_from_f32(r));
}

/* sub.rn.f32 / sub.f32. */
static inline uint64_t sim_alu_sub_f32_rn(uint64_t a, uint64_t b)
{
  float r = sim_alu_as_f32(a) - sim_alu_as_f32(b);
  return r != r ? SIM_ALU_F32_CNAN : sim_alu_from_f32(r);
}

/* mul.rn.f32 / mul.f32. */
static inline uint64_t sim_alu_mul_f32_rn(uint64_t a, uint64_t b)
{
  float r = sim_alu_as_f32(a) * sim_alu_as_f32(b);
  return r != r ? SIM_ALU_F32_CNAN : sim_alu_from_f32(r);
}

/* fma.rn.f32 / mad.rn.f32 (fused, one rounding). */
static inline uint64_t sim_alu_fma_f32_rn(uint64_t a, uint64_t b, uint64_t c)
{
  float r = fmaf(sim_alu_as_f32(a), sim_alu_as_f32(b), sim_alu_as_f32(c));
  return r != r ? SIM_ALU_F32_CNAN : sim_alu_from_f32(r);
}

/* The f64 NaN result of an operation on a, b, c (pass c = b when there are two inputs):
   the first NaN input quieted, else SIM_ALU_F64_INVALID. The slow path of the f64 fast ops.
   Callers pass the operands in the order an H100 takes the first NaN from: add, mul and fma
   the second operand's before the first's (b, a, c), div and sub the first's
   (bench/results/device_r12.txt measured add, mul, fma and div). */
uint64_t sim_alu_f64_nan(uint64_t a, uint64_t b, uint64_t c);

/* add.rn.f64. */
static inline uint64_t sim_alu_add_f64_rn(uint64_t a, uint64_t b)
{
  double r = sim_alu_as_f64(a) + sim_alu_as_f64(b);
  return r != r ? sim_alu_f64_nan(b, a, a) : sim_alu_from_f64(r);
}

/* mul.rn.f64. */
static inline uint64_t sim_alu_mul_f64_rn(uint64_t a, uint64_t b)
{
  double r = sim_alu_as_f64(a) * sim_alu_as_f64(b);
  return r != r ? sim_alu_f64_nan(b, a, a) : sim_alu_from_f64(r);
}

/* fma.rn.f64. */
static inline uint64_t sim_alu_fma_f64_rn(uint64_t a, uint64_t b, uint64_t c)
{
  double r = fma(sim_alu_as_f64(a), sim_alu_as_f64(b), sim_alu_as_f64(c));
  return r != r ? sim_alu_f64_nan(b, a, c) : sim_alu_from_f64(r);
}

/* add.{u32,s32,b32} without .sat/.cc. */
static inline uint64_t sim_alu_add_b32(uint64_t a, uint64_t b)
{
  return (uint32_t)(a + b);
}

/* mul.lo.{u32,s32}. */
static inline uint64_t sim_alu_mul_lo_b32(uint64_t a, uint64_t b)
{
  return (uint32_t)((uint32_t)a * (uint32_t)b);
}

/* mad.lo.{u32,s32}. */
static inline uint64_t sim_alu_mad_lo_b32(uint64_t a, uint64_t b, uint64_t c)
{
  return (uint32_t)((uint32_t)a * (uint32_t)b + (uint32_t)c);
}

/* mul.wide.s32: the 64-bit product of two s32. */
static inline uint64_t sim_alu_mul_wide_s32(uint64_t a, uint64_t b)
{
  return (uint64_t)((int64_t)(int32_t)(uint32_t)a * (int64_t)(int32_t)(uint32_t)b);
}

/* mul.wide.u32: the 64-bit product of two u32. */
static inline uint64_t sim_alu_mul_wide_u32(uint64_t a, uint64_t b)
{
  return (uint64_t)(uint32_t)a * (uint32_t)b;
}

/* ---- floating point: f32, f64, f16, f16x2, bf16, bf16x2 ---- */

/* Two-input float op, op one of ADD SUB MUL DIV MIN MAX COPYSIGN, on type t. rnd: NONE/RN
   (nearest), RZ, RM, RP (f32/f64; f16 forms use the same modes). flags: PTX_F_FTZ (f32 and
   f16 only; PTX ignores it for f64), PTX_F_SAT (clamp to [0,1], NaN -> +0), PTX_F_APPROX and
   PTX_F_FULL (div.f32), PTX_F_NAN (min/max propagate NaN), PTX_F_RELU (min/max of f16/bf16:
   negative -> +0). min/max return the other input when one is NaN and order -0 < +0.
   copysign.t d, a, b returns b with the sign of a. Returns the result's raw bits. */
uint64_t sim_alu_fbin(enum ptx_op op, enum ptx_type t, enum ptx_rnd rnd, uint32_t flags,
                      uint64_t a, uint64_t b);

/* fma.rnd.t / mad.rnd.t: a * b + c with one rounding, for f32, f64, f16(x2), bf16(x2).
   flags: PTX_F_FTZ, PTX_F_SAT, PTX_F_RELU as for sim_alu_fbin. Returns the raw bits. */
uint64_t sim_alu_ffma(enum ptx_type t, enum ptx_rnd rnd, uint32_t flags,
                      uint64_t a, uint64_t b, uint64_t c);

/* One-input float op, op one of ABS NEG RCP SQRT RSQRT SIN COS LG2 EX2 TANH. rcp and sqrt
   are IEEE (correctly rounded in rnd) unless PTX_F_APPROX; the rest are .approx forms
   computed with libm and rounded to nearest (not bit-exact to the MUFU unit). abs/neg are
   sign-bit operations (with .ftz they flush a subnormal input first). Returns the raw bits. */
uint64_t sim_alu_fun(enum ptx_op op, enum ptx_type t, enum ptx_rnd rnd, uint32_t flags,
                     uint64_t a);

/* setp/set float comparison of a and b under cmp (EQ NE LT LE GT GE, their unordered U forms,
   NUM, NAN). PTX_F_FTZ flushes f32 subnormal inputs. Returns 0 or 1; for f16x2/bf16x2 bit 0
   is the result for the low halves and bit 1 for the high halves. */
unsigned sim_alu_fcmp(enum ptx_cmp cmp, enum ptx_type t, uint32_t flags, uint64_t a, uint64_t b);

/* setp.cmp.f32 (no .ftz, one destination, no boolean operand) for lanes e of [lo, hi):
   d[l] = sim_alu_fcmp(cmp, PTX_T_F32, 0, a[l], b[l]), the comparison chosen once for the warp
   and, when e holds every lane of [lo, hi), a lane loop without mask tests. */
void sim_alu_setp_f32_lanes(enum ptx_cmp cmp, uint64_t *d, const uint64_t *a, const uint64_t *b,
                            uint64_t e, unsigned lo, unsigned hi);

/* testp.mode.t (f32/f64): 1 when a is in the class, else 0. Zero is neither normal nor
   subnormal. */
unsigned sim_alu_testp(enum ptx_testpmode mode, enum ptx_type t, uint64_t a);

/* slct.dtype.ct d, a, b, c: a when c >= 0 (c an s32, or an f32 where -0 counts as >= 0 and
   NaN does not; PTX_F_FTZ flushes a subnormal c), else b. */
uint64_t sim_alu_slct(enum ptx_type ct, uint32_t flags, uint64_t a, uint64_t b, uint64_t c);

/* ---- conversions ---- */

/* cvt.rnd.flags.dt.st d, a between any two of the integer, bit and float types (f16, bf16,
   tf32, f32, f64). Integer-to-integer truncates or extends by the source's signedness, and
   clamps to the destination's range under PTX_F_SAT. Float-to-integer rounds by rnd (RNI RZI
   RMI RPI; NONE means RZI) and always saturates, NaN -> 0. Integer-to-float and narrowing
   float-to-float round by rnd (RN RZ RM RP, RNA for tf32; NONE means RN). Float-to-float of
   the same type with RNI/RZI/RMI/RPI rounds to an integral value. PTX_F_FTZ flushes f32
   subnormal inputs and results, PTX_F_SAT clamps float results to [0,1] (NaN -> 0),
   PTX_F_RELU clamps negative f16/bf16 results to +0. Returns the raw bits. */
uint64_t sim_alu_cvt(enum ptx_type dt, enum ptx_type st, enum ptx_rnd rnd, uint32_t flags,
                     uint64_t a);

/* cvt.rnd.{f16x2,bf16x2}.f32 d, a, b: both f32 inputs converted as by sim_alu_cvt; a goes to
   the upper half and b to the lower half. Returns the packed 32 bits. */
uint64_t sim_alu_cvt_pack(enum ptx_type dt, enum ptx_rnd rnd, uint32_t flags,
                          uint64_t a, uint64_t b);

/* The f32 bit pattern of an f16 (exact). */
uint32_t sim_alu_f16_to_f32(uint16_t h);
/* An f32 bit pattern rounded to f16 in rnd (NONE/RN, RZ, RM, RP, RNA); NaN -> 0x7fff. */
uint16_t sim_alu_f32_to_f16(uint32_t f, enum ptx_rnd rnd);
/* An f32 bit pattern rounded to bf16 in rnd; NaN -> 0x7fff. */
uint16_t sim_alu_f32_to_bf16(uint32_t f, enum ptx_rnd rnd);

/* ---- integers: b/u/s 8..64 ---- */

/* Two-input integer op on type t: ADD SUB (PTX_F_SAT for s32), MUL (PTX_F_LO default,
   PTX_F_HI, PTX_F_WIDE: 16->32 and 32->64 bits), MUL24 (lo/hi, u32/s32), DIV REM (x/0 = all
   ones, x%0 = x, for signed types too), MIN MAX (PTX_F_RELU: signed result clamped at 0),
   AND OR XOR (pred too), SHL SHR (b is an unsigned shift amount; amounts >= the width give 0,
   or the sign fill for shr.s). Returns the result masked to its width. */
uint64_t sim_alu_ibin(enum ptx_op op, enum ptx_type t, uint32_t flags, uint64_t a, uint64_t b);
/* The same on u16x2/s16x2 (sm_90): add, sub (.sat: s16x2, saturating each half), min, max
   (.relu: s16x2, negative halves to 0), each half on its own. */
uint32_t sim_alu_ibin16x2(enum ptx_op op, enum ptx_type t, uint32_t flags, uint32_t a, uint32_t b);

/* One-input integer op: ABS NEG NOT CNOT (pred too for NOT), POPC CLZ (b32/b64, u32 result),
   BFIND (u32/s32/u64/s64: bit position of the most significant non-sign bit, 0xffffffff when
   none; PTX_F_SHIFTAMT gives width-1-position instead), BREV (b32/b64). */
uint64_t sim_alu_iun(enum ptx_op op, enum ptx_type t, uint32_t flags, uint64_t a);

/* Three-input integer op: MAD (lo/hi/wide like MUL, plus c; PTX_F_SAT for mad.hi.s32),
   MAD24 (lo/hi, PTX_F_SAT for .hi.s32), SAD (c + |a - b|). Returns the masked result. */
uint64_t sim_alu_imad(enum ptx_op op, enum ptx_type t, uint32_t flags,
                      uint64_t a, uint64_t b, uint64_t c);

/* setp/set integer comparison: EQ NE, LT LE GT GE (signedness from t), LO LS HI HS
   (unsigned). Returns 0 or 1. */
unsigned sim_alu_icmp(enum ptx_cmp cmp, enum ptx_type t, uint64_t a, uint64_t b);

/* setp.cmp of 32-bit integers (signed when sgn) for lanes e of [lo, hi), in the way of
   sim_alu_setp_f32_lanes: d[l] = sim_alu_icmp(cmp, sgn ? PTX_T_S32 : PTX_T_U32, a[l], b[l]). */
void sim_alu_setp_i32_lanes(enum ptx_cmp cmp, int sgn, uint64_t *d, const uint64_t *a,
                            const uint64_t *b, uint64_t e, unsigned lo, unsigned hi);

/* bfe.t d, a, pos, len (u32 s32 u64 s64): bit field extract exactly as the PTX pseudo-code,
   pos and len taken modulo 256, signed types replicate the field's top bit. */
uint64_t sim_alu_bfe(enum ptx_type t, uint64_t a, uint32_t pos, uint32_t len);

/* bfi.t f, a, b, pos, len (b32 b64): b with the low len bits of a inserted at pos. */
uint64_t sim_alu_bfi(enum ptx_type t, uint64_t a, uint64_t b, uint32_t pos, uint32_t len);

/* prmt.b32.mode d, a, b, c: byte permute of {b, a} (a = bytes 0..3) by selector c. */
uint32_t sim_alu_prmt(enum ptx_prmtmode mode, uint32_t a, uint32_t b, uint32_t c);
/* prmt's selector: four nibbles, d's byte i from nibble i (bits 0-2: the byte of b:a, bit 3
   in the default mode: its sign replicated), c's own or the mode's for c's low two bits. */
uint32_t sim_alu_prmt_sel(enum ptx_prmtmode mode, uint32_t c);

/* shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: funnel shift of {b, a} (b high) by c. */
uint32_t sim_alu_shf(enum ptx_shfmode mode, uint32_t a, uint32_t b, uint32_t c);

/* lop3.b32 d, a, b, c, lut: bitwise function whose truth table is lut (bit index a*4+b*2+c,
   so a = 0xf0, b = 0xcc, c = 0xaa give back lut). */
uint32_t sim_alu_lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut);

/* dp4a.at.bt d, a, b, c: c + the dot product of the four bytes of a and of b, each byte
   signed when its type is s32. Modulo 2^32. */
uint32_t sim_alu_dp4a(enum ptx_type at, enum ptx_type bt, uint32_t a, uint32_t b, uint32_t c);

/* dp2a.{lo,hi}.at.bt d, a, b, c: c + the two 16-bit halves of a times bytes 0,1 (PTX_F_LO,
   the default) or 2,3 (PTX_F_HI) of b. Modulo 2^32. */
uint32_t sim_alu_dp2a(enum ptx_type at, enum ptx_type bt, uint32_t flags,
                      uint32_t a, uint32_t b, uint32_t c);

/* bmsk.{wrap,clamp}.b32 d, a, b: the mask of b bits from bit a (clamp: a position past 31
   gives 0, a width of 32 or more reaches bit 31; wrap: both taken modulo 32), exactly as the
   PTX pseudo-code. */
uint32_t sim_alu_bmsk(int clamp, uint32_t a, uint32_t b);

/* szext.{wrap,clamp}.{u32,s32} d, a, b: the low b bits of a, zero- or (s32) sign-extended;
   0 for b = 0 (and for b = 32 with wrap), a itself for b >= 32 with clamp. */
uint32_t sim_alu_szext(int clamp, int is_signed, uint32_t a, uint32_t b);

/* fns.b32 d, mask, base, offset: position of the offset-th set bit of mask counting from bit
   base upwards (offset > 0) or downwards (offset < 0); offset 0 asks whether bit base is set.
   0xffffffff when there is none. */
uint32_t sim_alu_fns(uint32_t mask, uint32_t base, int32_t offset);

/* vabsdiff2/vabsdiff4.dtype.atype.btype{.sat,.add} d, a, b, c (SIMD video, no lane selectors
   or masks): the absolute difference of each of the `lanes` 16- or 8-bit lanes of a and b
   (each signed when its type is s32); merged into d lane by lane (saturated to dtype's lane
   range with PTX_F_SAT, else truncated to the lane), or with PTX_F_VADD summed onto c. */
uint32_t sim_alu_vabsdiff(unsigned lanes, enum ptx_type dt, enum ptx_type at, uint32_t flags,
                          uint32_t a, uint32_t b, uint32_t c);

/* ---- carry chain (CC.CF) ---- */

/* add.cc (cin = 0) and addc{.cc} (cin = CC.CF): a + b + cin on u32/s32/u64/s64; *cout gets
   the carry out. */
uint64_t sim_alu_addc(enum ptx_type t, uint64_t a, uint64_t b, unsigned cin, unsigned *cout);

/* sub.cc (cin = 0) and subc{.cc} (cin = CC.CF): a - (b + cin); *cout gets the borrow out. */
uint64_t sim_alu_subc(enum ptx_type t, uint64_t a, uint64_t b, unsigned cin, unsigned *cout);

/* mad.cc (cin = 0) and madc{.cc}: (a * b).lo or .hi (PTX_F_HI) + c + cin; *cout gets the
   carry out of the addition. */
uint64_t sim_alu_madc(enum ptx_type t, uint32_t flags, uint64_t a, uint64_t b, uint64_t c,
                      unsigned cin, unsigned *cout);

#endif
