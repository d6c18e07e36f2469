/* check_alu.c: unit tests of the emulator's scalar instruction semantics (harness/sim/sim_alu).
 *
 * Table-driven: each row is one instruction with its operands as raw register bits and the
 * expected result bits, derived by hand from the PTX ISA and IEEE 754 (the derivation is in
 * the comment beside rows that are not obvious). A loop test runs each table. Property tests
 * then compare whole ranges against C's own conversions and arithmetic (f16 via _Float16
 * where the compiler has it) and against IEEE ordering facts about directed rounding.
 */
#include <check.h>
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "sim/sim_alu.h"
#include "suites.h"

/* which sim_alu entry point a row exercises */
enum fam {
  FBIN, FFMA, FUN, FCMP, TESTP, CVT, CVTPACK, IBIN, IUN, IMAD, ICMP, BFE, BFI, PRMT, SHF,
  LOP3, DP4A, DP2A, ADDC, SUBC, MADC, BMSK, SZEXT, FNS, VABS
};

struct row {
  int line;           /* source line of the row, for failure reports */
  enum fam fam;
  int op;             /* enum ptx_op, ptx_cmp, ptx_testpmode, ptx_prmtmode or ptx_shfmode */
  enum ptx_type t, t2;
  enum ptx_rnd rnd;
  uint32_t flags;
  uint64_t a, b, c, d;
  uint64_t want;
  unsigned want_cc;   /* carry rows: expected carry/borrow out */
};

/* f32 bit patterns */
#define P0 0x00000000u
#define N0 0x80000000u
#define P1 0x3f800000u          /* 1.0 */
#define M1 0xbf800000u          /* -1.0 */
#define P2 0x40000000u          /* 2.0 */
#define P3 0x40400000u          /* 3.0 */
#define PHALF 0x3f000000u       /* 0.5 */
#define PINF 0x7f800000u
#define NINF 0xff800000u
#define QNAN 0x7fc00000u
#define CNAN 0x7fffffffu        /* PTX canonical f32 NaN */
#define SUB1 0x00000001u        /* smallest positive subnormal */
#define THIRD_RN 0x3eaaaaabu    /* 1/3 rounded to nearest (and up) */
#define THIRD_RZ 0x3eaaaaaau    /* 1/3 rounded toward zero (and down) */
/* f64 */
#define D1 UINT64_C(0x3ff0000000000000)
#define DNAN64 UINT64_C(0xfff8000000000000)   /* an H100's f64 NaN of no NaN operands */

#define N PTX_F_NAN
#define FTZ PTX_F_FTZ
#define SAT PTX_F_SAT

#define R(fam, op, t, t2, rnd, fl, a, b, c, d, w, cc) \
  {__LINE__, fam, op, PTX_T_##t, PTX_T_##t2, PTX_RND_##rnd, fl, a, b, c, d, w, cc}
#define FB(op, t, rnd, fl, a, b, w) R(FBIN, PTX_OP_##op, t, NONE, rnd, fl, a, b, 0, 0, w, 0)
#define FF(t, rnd, fl, a, b, c, w) R(FFMA, PTX_OP_FMA, t, NONE, rnd, fl, a, b, c, 0, w, 0)
#define FU(op, t, rnd, fl, a, w) R(FUN, PTX_OP_##op, t, NONE, rnd, fl, a, 0, 0, 0, w, 0)
#define FC(cmp, t, fl, a, b, w) R(FCMP, PTX_CMP_##cmp, t, NONE, NONE, fl, a, b, 0, 0, w, 0)
#define TP(mode, t, a, w) R(TESTP, PTX_TESTP_##mode, t, NONE, NONE, 0, a, 0, 0, 0, w, 0)
#define CV(dt, st, rnd, fl, a, w) R(CVT, 0, dt, st, rnd, fl, a, 0, 0, 0, w, 0)
#define IB(op, t, fl, a, b, w) R(IBIN, PTX_OP_##op, t, NONE, NONE, fl, a, b, 0, 0, w, 0)
#define IU(op, t, fl, a, w) R(IUN, PTX_OP_##op, t, NONE, NONE, fl, a, 0, 0, 0, w, 0)
#define IM(op, t, fl, a, b, c, w) R(IMAD, PTX_OP_##op, t, NONE, NONE, fl, a, b, c, 0, w, 0)
#define IC(cmp, t, a, b, w) R(ICMP, PTX_CMP_##cmp, t, NONE, NONE, 0, a, b, 0, 0, w, 0)

/* ---- floating point ---- */
static const struct row float_rows[] = {
  /* 1 + 2^-24 is a tie between 1 and 1+2^-23: RN picks the even 1.0 */
  FB(ADD, F32, RN, 0, P1, 0x33800000u, P1),
  FB(ADD, F32, RZ, 0, P1, 0x33800000u, P1),
  FB(ADD, F32, RM, 0, P1, 0x33800000u, P1),
  FB(ADD, F32, RP, 0, P1, 0x33800000u, 0x3f800001u),
  /* -1 - 2^-24: the four modes give RN=RZ=RP=-1, RM=-(1+2^-23) */
  FB(ADD, F32, RN, 0, M1, 0xb3800000u, M1),
  FB(ADD, F32, RZ, 0, M1, 0xb3800000u, M1),
  FB(ADD, F32, RM, 0, M1, 0xb3800000u, 0xbf800001u),
  FB(ADD, F32, RP, 0, M1, 0xb3800000u, M1),
  /* 1 + 1.5*2^-24 is above the tie: RN rounds up */
  FB(ADD, F32, RN, 0, P1, 0x33c00000u, 0x3f800001u),
  FB(ADD, F32, NONE, 0, P1, 0x33c00000u, 0x3f800001u),
  FB(SUB, F32, RN, 0, P3, P1, P2),
  /* .ftz: subnormal inputs and results flush to sign-preserving zero */
  FB(ADD, F32, RN, 0, SUB1, P0, SUB1),
  FB(ADD, F32, RN, FTZ, SUB1, P0, P0),
  FB(ADD, F32, RN, FTZ, 0x80000001u, N0, N0),
  FB(MUL, F32, RN, 0, 0x00800000u, PHALF, 0x00400000u),  /* 2^-126 * 0.5 = 2^-127 */
  FB(MUL, F32, RN, FTZ, 0x00800000u, PHALF, P0),
  /* .sat clamps to [0, 1]; NaN -> 0 */
  FB(ADD, F32, RN, SAT, 0x3f400000u, PHALF, P1),          /* 0.75 + 0.5 */
  FB(ADD, F32, RN, SAT, M1, PHALF, P0),
  FB(ADD, F32, RN, SAT, QNAN, P1, P0),
  FB(MUL, F32, RN, SAT, PHALF, PHALF, 0x3e800000u),
  /* canonical NaN results */
  FB(ADD, F32, RN, 0, 0x7fc00001u, P1, CNAN),
  FB(ADD, F32, RN, 0, PINF, NINF, CNAN),
  FB(MUL, F32, RN, 0, P0, PINF, CNAN),
  FB(MUL, F32, RZ, 0, 0xffc12345u, P2, CNAN),
  /* min/max: a NaN input yields the other input; both NaN or .NaN -> canonical; -0 < +0 */
  FB(MIN, F32, NONE, 0, QNAN, P1, P1),
  FB(MAX, F32, NONE, 0, P1, QNAN, P1),
  FB(MIN, F32, NONE, 0, QNAN, 0xffc00000u, CNAN),
  FB(MIN, F32, NONE, N, P1, QNAN, CNAN),
  FB(MAX, F32, NONE, N, QNAN, P1, CNAN),
  FB(MIN, F32, NONE, 0, N0, P0, N0),
  FB(MIN, F32, NONE, 0, P0, N0, N0),
  FB(MAX, F32, NONE, 0, N0, P0, P0),
  FB(MAX, F32, NONE, 0, P0, N0, P0),
  FB(MIN, F32, NONE, 0, P2, P3, P2),
  FB(MAX, F32, NONE, 0, 0xc0000000u, P3, P3),
  FB(MIN, F32, NONE, FTZ, SUB1, 0x80000002u, N0),         /* both flush: min(+0, -0) */
  FB(MIN, F64, NONE, 0, D1, UINT64_C(0x7ff8000000000000), D1),
  FB(MAX, F64, NONE, 0, UINT64_C(0x8000000000000000), 0, 0),
  /* div: 1/3 in each mode; .approx = a * (1/b), which is 0 for 2^126 < |b| < 2^128 */
  FB(DIV, F32, RN, 0, P1, P3, THIRD_RN),
  FB(DIV, F32, RZ, 0, P1, P3, THIRD_RZ),
  FB(DIV, F32, RM, 0, P1, P3, THIRD_RZ),
  FB(DIV, F32, RP, 0, P1, P3, THIRD_RN),
  FB(DIV, F32, RM, 0, M1, P3, 0xbeaaaaabu),
  FB(DIV, F32, NONE, PTX_F_FULL, P1, P3, THIRD_RN),
  FB(DIV, F32, NONE, PTX_F_APPROX, P1, P3, THIRD_RN),
  FB(DIV, F32, NONE, PTX_F_APPROX, P1, 0x7f000000u, P0),    /* 1 / 2^127 */
  FB(DIV, F32, NONE, PTX_F_APPROX, M1, 0x7f000000u, N0),
  FB(DIV, F32, NONE, PTX_F_APPROX, PINF, 0x7f000000u, CNAN),
  FB(DIV, F32, RN, 0, P1, 0x7f000000u, 0x00400000u),        /* IEEE: 2^-127 subnormal */
  FB(DIV, F32, NONE, PTX_F_APPROX, P1, 0x7e800000u, 0x00800000u), /* 2^126 is in range */
  FB(DIV, F32, RN, 0, P1, P0, PINF),
  FB(DIV, F32, RN, 0, P0, P0, CNAN),
  FB(COPYSIGN, F32, NONE, 0, M1, P2, 0xc0000000u),
  FB(COPYSIGN, F64, NONE, 0, 0, UINT64_C(0xc000000000000000), UINT64_C(0x4000000000000000)),
  /* f64: 1 + 2^-53 is a tie (RN -> 1); RP -> next double */
  FB(ADD, F64, RN, 0, D1, UINT64_C(0x3ca0000000000000), D1),
  FB(ADD, F64, RP, 0, D1, UINT64_C(0x3ca0000000000000), UINT64_C(0x3ff0000000000001)),
  FB(ADD, F64, RN, FTZ, 1, 0, 1),                          /* .ftz ignored on f64 */
  FB(DIV, F64, RN, 0, D1, 0, UINT64_C(0x7ff0000000000000)),
  FB(DIV, F64, RZ, 0, D1, UINT64_C(0x4008000000000000), UINT64_C(0x3fd5555555555555)),
  FB(ADD, F64, RN, 0, UINT64_C(0x7ff0000000000001), D1, UINT64_C(0x7ff8000000000001)),
  /* f64 NaNs of operands that are no NaNs: 0xfff8000000000000, as an H100 makes them
     (tests/gpu/kernels/nan_ops.cu, bench/results/device_r12.txt) */
  FB(ADD, F64, RN, 0, UINT64_C(0x7ff0000000000000), UINT64_C(0xfff0000000000000), DNAN64),
  FB(MUL, F64, RN, 0, 0, UINT64_C(0x7ff0000000000000), DNAN64),
  FB(DIV, F64, RN, 0, 0, 0, DNAN64),
  /* two NaNs: an H100's add and mul give the second, its div the first */
  FB(ADD, F64, RN, 0, UINT64_C(0xfff8000000000000), UINT64_C(0x7ff8000000000000),
     UINT64_C(0x7ff8000000000000)),
  FB(MUL, F64, RN, 0, UINT64_C(0x7ff8000000000000), UINT64_C(0xfff0000000000001),
     UINT64_C(0xfff8000000000001)),
  FB(DIV, F64, RN, 0, UINT64_C(0xfff8000000000000), UINT64_C(0x7ff8000000000000),
     UINT64_C(0xfff8000000000000)),
  /* an H200's sub, min and max give the second, quieted, its sign as it was
     (tests/gpu/kernels/nan_ops2.cu, bench/results/device_r13.txt) */
  FB(SUB, F64, RN, 0, UINT64_C(0x7ff0000000000009), UINT64_C(0xfff8000000000003),
     UINT64_C(0xfff8000000000003)),
  FB(SUB, F64, RN, 0, UINT64_C(0x7ff8000000000008), UINT64_C(0x7ff0000000000002),
     UINT64_C(0x7ff8000000000002)),
  FB(MIN, F64, NONE, 0, UINT64_C(0x7ff80000deadbeef), UINT64_C(0xfff4000000000000),
     UINT64_C(0xfffc000000000000)),
  FB(MAX, F64, NONE, 0, UINT64_C(0x7ff4000000000005), UINT64_C(0x7ff000000000000b),
     UINT64_C(0x7ff800000000000b)),
  /* f16: 1 + 2^-11 ties to 1; 1 + 2^-11(1+2^-10) rounds up; 65504 + 16 = 65520 -> inf */
  FB(ADD, F16, RN, 0, 0x3c00, 0x1000, 0x3c00),
  FB(ADD, F16, RN, 0, 0x3c00, 0x1001, 0x3c01),
  FB(ADD, F16, RN, 0, 0x7bff, 0x4c00, 0x7c00),
  FB(ADD, F16, RZ, 0, 0x7bff, 0x4c00, 0x7bff),
  FB(MUL, F16, RN, 0, 0x5c00, 0x5c00, 0x7c00),            /* 256 * 256 overflows */
  FB(MUL, F16, RN, 0, 0x0400, 0x3800, 0x0200),            /* 2^-14 * 0.5: subnormal kept */
  FB(MUL, F16, RN, FTZ, 0x0400, 0x3800, 0x0000),
  FB(ADD, F16, RN, SAT, 0x3c00, 0x3c00, 0x3c00),
  FB(ADD, F16, RN, 0, 0x7e00, 0x3c00, 0x7fff),            /* canonical f16 NaN */
  FB(SUB, F16X2, RN, 0, 0x40003c00u, 0x40003c00u, 0),
  FB(ADD, F16X2, RN, 0, 0x40003c00u, 0xc0003c00u, 0x00004000u), /* {2,1}+{-2,1} = {0,2} */
  FB(MAX, F16X2, NONE, 0, 0x7e00bc00u, 0x3c008000u, 0x3c008000u),
  FB(MIN, F16, NONE, PTX_F_RELU, 0xbc00, 0x3c00, 0x0000),
  /* bf16: 1 + 2^-8 ties to even 1; 1 + 1.5*2^-8 rounds up */
  FB(ADD, BF16, RN, 0, 0x3f80, 0x3b80, 0x3f80),
  FB(ADD, BF16, RN, 0, 0x3f80, 0x3bc0, 0x3f81),
  FB(MUL, BF16X2, RN, 0, 0x40003f80u, 0x40004000u, 0x40804000u), /* {2,1}*{2,2} = {4,2} */
  /* fma: single rounding. (1+2^-23)^2 - RN((1+2^-23)^2) = 2^-46 exactly */
  FF(F32, RN, 0, 0x3f800001u, 0x3f800001u, 0xbf800002u, 0x28800000u),
  FF(F32, RN, 0, P1, P1, 0x33800000u, P1),
  FF(F32, RP, 0, P1, P1, 0x33800000u, 0x3f800001u),
  FF(F32, RN, SAT, P2, P2, P1, P1),
  FF(F32, RN, 0, PINF, P0, P1, CNAN),
  FF(F64, RN, 0, D1, D1, D1, UINT64_C(0x4000000000000000)),
  FF(F16, RN, 0, 0x3c00, 0x4000, 0x3c00, 0x4200),         /* 1*2+1 = 3 */
  /* bf16 (1+2^-7)*1.5 is an exact tie; c = -2^-100 puts the exact sum just below it, so the
     correct result rounds down (0x3fc1) where rounding twice would give the even 0x3fc2 */
  FF(BF16, RN, 0, 0x3f81, 0x3fc0, 0x8d80, 0x3fc1),
  FF(BF16, RN, 0, 0x3f81, 0x3fc0, 0x0000, 0x3fc2),
  FF(F16, RN, PTX_F_RELU, 0xbc00, 0x3c00, 0x0000, 0x0000),
  FF(F16X2, RN, 0, 0x3c004000u, 0x40004000u, 0x3c003c00u, 0x42004500u), /* {1,2}*2+1 */
  /* one-input ops */
  FU(RCP, F32, RN, 0, P3, THIRD_RN),
  FU(RCP, F32, RZ, 0, P3, THIRD_RZ),
  FU(RCP, F32, NONE, PTX_F_APPROX, P2, PHALF),
  FU(RCP, F32, RN, 0, N0, NINF),
  FU(RCP, F64, RN, 0, UINT64_C(0x4008000000000000), UINT64_C(0x3fd5555555555555)),
  FU(SQRT, F64, RN, 0, UINT64_C(0xbff0000000000000), DNAN64),     /* sqrt(-1) */
  FU(SQRT, F32, RN, 0, P2, 0x3fb504f3u),                   /* RN(sqrt 2) is below sqrt 2 */
  FU(SQRT, F32, RZ, 0, P2, 0x3fb504f3u),
  FU(SQRT, F32, RP, 0, P2, 0x3fb504f4u),
  FU(SQRT, F32, RN, 0, M1, CNAN),
  FU(SQRT, F32, RN, 0, N0, N0),
  FU(RSQRT, F32, NONE, PTX_F_APPROX, 0x40800000u, PHALF),
  FU(RSQRT, F32, NONE, PTX_F_APPROX, P0, PINF),
  FU(ABS, F32, NONE, 0, N0, P0),
  FU(ABS, F32, NONE, FTZ, 0x80000001u, P0),
  FU(NEG, F32, NONE, 0, P1, M1),
  FU(NEG, F64, NONE, 0, D1, UINT64_C(0xbff0000000000000)),
  FU(EX2, F32, NONE, PTX_F_APPROX, P1, P2),
  FU(EX2, F32, NONE, PTX_F_APPROX, NINF, P0),
  FU(LG2, F32, NONE, PTX_F_APPROX, 0x41000000u, P3),       /* lg2 8 = 3 */
  FU(LG2, F32, NONE, PTX_F_APPROX, P0, NINF),
  FU(LG2, F32, NONE, PTX_F_APPROX, M1, CNAN),
  FU(SIN, F32, NONE, PTX_F_APPROX, P0, P0),
  FU(COS, F32, NONE, PTX_F_APPROX, P0, P1),
  FU(SIN, F32, NONE, PTX_F_APPROX, PINF, CNAN),
  FU(TANH, F32, NONE, PTX_F_APPROX, NINF, M1),
  FU(NEG, F16, NONE, 0, 0x3c00, 0xbc00),
  FU(ABS, F16X2, NONE, 0, 0xbc00bc00u, 0x3c003c00u),
  FU(EX2, F16, NONE, PTX_F_APPROX, 0x3c00, 0x4000),
  /* comparisons: ordered forms are false on NaN, unordered true */
  FC(LT, F32, 0, P1, P2, 1),
  FC(LT, F32, 0, QNAN, P2, 0),
  FC(LTU, F32, 0, QNAN, P2, 1),
  FC(NE, F32, 0, QNAN, P1, 0),
  FC(NEU, F32, 0, QNAN, P1, 1),
  FC(EQU, F32, 0, P1, P2, 0),
  FC(GEU, F32, 0, P2, P1, 1),
  FC(NUM, F32, 0, P1, P2, 1),
  FC(NUM, F32, 0, P1, QNAN, 0),
  FC(NAN, F32, 0, QNAN, P1, 1),
  FC(EQ, F32, 0, N0, P0, 1),
  FC(EQ, F32, 0, SUB1, P0, 0),
  FC(EQ, F32, FTZ, SUB1, P0, 1),
  FC(GE, F32, 0, PINF, PINF, 1),
  FC(GT, F64, 0, D1, 0, 1),
  FC(LE, F64, 0, UINT64_C(0x7ff8000000000000), 0, 0),
  FC(LT, F16X2, 0, 0x42003c00u, 0x40004000u, 1),          /* lo 1<2, hi 3<2 */
  FC(GT, F16X2, 0, 0x42003c00u, 0x40004000u, 2),
  FC(LT, BF16, 0, 0xbf80, 0x3f80, 1),
  TP(FINITE, F32, PINF, 0),
  TP(FINITE, F32, P1, 1),
  TP(INFINITE, F32, NINF, 1),
  TP(NUMBER, F32, QNAN, 0),
  TP(NOTANUMBER, F32, QNAN, 1),
  TP(NORMAL, F32, P0, 0),
  TP(NORMAL, F32, P1, 1),
  TP(SUBNORMAL, F32, SUB1, 1),
  TP(SUBNORMAL, F32, P0, 0),
  TP(SUBNORMAL, F64, 1, 1),
  TP(INFINITE, F64, UINT64_C(0x7ff0000000000000), 1),
};

/* ---- conversions ---- */
static const struct row cvt_rows[] = {
  /* float -> int: 2.5 and -2.5 in the four integer roundings */
  CV(S32, F32, RNI, 0, 0x40200000u, 2),
  CV(S32, F32, RZI, 0, 0x40200000u, 2),
  CV(S32, F32, RMI, 0, 0x40200000u, 2),
  CV(S32, F32, RPI, 0, 0x40200000u, 3),
  CV(S32, F32, RNI, 0, 0xc0200000u, 0xfffffffeu),
  CV(S32, F32, RZI, 0, 0xc0200000u, 0xfffffffeu),
  CV(S32, F32, RMI, 0, 0xc0200000u, 0xfffffffdu),
  CV(S32, F32, RPI, 0, 0xc0200000u, 0xfffffffeu),
  CV(S32, F32, RNI, 0, 0x3fc00000u, 2),                     /* 1.5 ties to even 2 */
  CV(S32, F32, RZI, 0, QNAN, 0),
  CV(U32, F32, RZI, 0, QNAN, 0),
  CV(S32, F32, RZI, 0, 0x4f32d05eu, 0x7fffffffu),          /* 3e9 saturates */
  CV(S32, F32, RZI, 0, 0xcf32d05eu, 0x80000000u),          /* -3e9 */
  CV(U32, F32, RZI, 0, 0x4f32d05eu, 3000000000u),
  CV(U32, F32, RZI, 0, M1, 0),
  CV(U8, F32, RZI, 0, 0x43960000u, 255),                    /* 300.0 -> u8 saturates */
  CV(S64, F32, RZI, 0, PINF, UINT64_C(0x7fffffffffffffff)),
  CV(U64, F32, RZI, 0, PINF, UINT64_MAX),
  CV(S64, F64, RZI, 0, UINT64_C(0xc3e0000000000000), UINT64_C(0x8000000000000000)),
  CV(S32, F32, RMI, 0, 0x80000001u, 0xffffffffu),          /* floor(-tiny) = -1 */
  CV(S32, F32, RMI, FTZ, 0x80000001u, 0),                   /* flushed to -0 first */
  CV(S32, F16, RNI, 0, 0x4100, 2),                          /* f16 2.5 */
  /* int -> int */
  CV(U8, S32, NONE, SAT, 300, 255),
  CV(U8, S32, NONE, SAT, 0xfffffffbu, 0),                   /* -5 */
  CV(U8, S32, NONE, 0, 300, 44),
  CV(S8, S32, NONE, SAT, 0xffffff38u, 0x80),                /* -200 -> -128 */
  CV(S8, S32, NONE, SAT, 200, 0x7f),
  CV(S32, S8, NONE, 0, 0x80, 0xffffff80u),
  CV(U32, S8, NONE, 0, 0x80, 0xffffff80u),                  /* extension follows the source */
  CV(S64, S32, NONE, 0, 0xffffffffu, UINT64_MAX),
  CV(U64, U32, NONE, 0, 0xffffffffu, 0xffffffffu),
  CV(U16, U32, NONE, 0, 0x12345, 0x2345),
  CV(S32, U32, NONE, SAT, 0x80000000u, 0x7fffffffu),
  CV(U32, S64, NONE, SAT, UINT64_MAX, 0),
  CV(U32, U64, NONE, SAT, UINT64_C(0x100000000), 0xffffffffu),
  /* int -> float */
  CV(F32, U64, RN, 0, UINT64_MAX, 0x5f800000u),             /* 2^64-1 -> 2^64 */
  CV(F32, U64, RZ, 0, UINT64_MAX, 0x5f7fffffu),
  CV(F32, S32, RN, 0, 16777217, 0x4b800000u),               /* 2^24+1 ties to 2^24 */
  CV(F32, S32, RP, 0, 16777217, 0x4b800001u),
  CV(F32, S32, RN, 0, 16777219, 0x4b800002u),               /* 2^24+3 ties to even up */
  CV(F32, S32, RN, 0, 0xffffffffu, M1),
  CV(F32, S32, RM, 0, 0xfeffffffu, 0xcb800001u),            /* -(2^24+1) rounds down */
  CV(F32, U32, RN, 0, 0xffffffffu, 0x4f800000u),
  CV(F64, S64, RN, 0, UINT64_C(0x8000000000000000), UINT64_C(0xc3e0000000000000)),
  CV(F64, U64, RN, 0, UINT64_MAX, UINT64_C(0x43f0000000000000)),
  CV(F16, U32, RN, 0, 65520, 0x7c00),
  CV(F16, S32, RN, 0, 0xfffffffdu, 0xc200),                 /* -3 */
  CV(F32, S32, RN, SAT, 5, P1),
  /* f32 -> f16: max, tie to inf, subnormals, NaN */
  CV(F16, F32, RN, 0, 0x477fe000u, 0x7bff),                 /* 65504 */
  CV(F16, F32, RN, 0, 0x477ff000u, 0x7c00),                 /* 65520 -> inf */
  CV(F16, F32, RN, 0, 0x477fef00u, 0x7bff),                 /* 65519 */
  CV(F16, F32, RZ, 0, 0x477ff000u, 0x7bff),
  CV(F16, F32, RM, 0, 0xc77ff000u, 0xfc00),
  CV(F16, F32, RN, 0, 0x33800000u, 0x0001),                 /* 2^-24 */
  CV(F16, F32, RN, 0, 0x33000000u, 0x0000),                 /* 2^-25 ties to 0 */
  CV(F16, F32, RN, 0, 0x33400000u, 0x0001),                 /* 1.5*2^-25 */
  CV(F16, F32, RP, 0, 0x00000001u, 0x0001),
  CV(F16, F32, RN, 0, 0x38800000u, 0x0400),                 /* 2^-14 */
  CV(F16, F32, RN, 0, 0x387fc000u, 0x03ff),                 /* largest subnormal */
  CV(F16, F32, RN, 0, QNAN, 0x7fff),
  CV(F16, F32, RN, 0, NINF, 0xfc00),
  CV(F16, F32, RN, 0, N0, 0x8000),
  CV(F16, F32, RN, PTX_F_RELU, M1, 0x0000),
  CV(F32, F16, NONE, 0, 0x0001, 0x33800000u),
  CV(F32, F16, NONE, 0, 0x7bff, 0x477fe000u),
  CV(F32, F16, NONE, 0, 0x03ff, 0x387fc000u),
  CV(F32, F16, NONE, 0, 0xfc00, NINF),
  /* bf16: ties to even */
  CV(BF16, F32, RN, 0, 0x3f808000u, 0x3f80),                /* 1 + 2^-8 */
  CV(BF16, F32, RN, 0, 0x3f818000u, 0x3f82),                /* 1 + 3*2^-8 */
  CV(BF16, F32, RN, 0, 0x3f808001u, 0x3f81),
  CV(BF16, F32, RZ, 0, 0x3f80ffffu, 0x3f80),
  CV(BF16, F32, RN, 0, 0x7f7fffffu, 0x7f80),                /* FLT_MAX -> inf */
  CV(F32, BF16, NONE, 0, 0xc049, 0xc0490000u),
  /* f64 <-> f32 */
  CV(F32, F64, RN, 0, UINT64_C(0x3fd5555555555555), THIRD_RN),
  CV(F32, F64, RZ, 0, UINT64_C(0x3fd5555555555555), THIRD_RZ),
  CV(F32, F64, RM, 0, UINT64_C(0x3fd5555555555555), THIRD_RZ),
  CV(F32, F64, RP, 0, UINT64_C(0x3fd5555555555555), THIRD_RN),
  CV(F32, F64, RN, 0, UINT64_C(0x7e37e43c8800759c), PINF),  /* 1e300 */
  CV(F32, F64, RZ, 0, UINT64_C(0x7e37e43c8800759c), 0x7f7fffffu),
  CV(F32, F64, RN, 0, 1, P0),                               /* tiniest double */
  CV(F32, F64, RP, 0, 1, SUB1),
  CV(F32, F64, RN, FTZ, UINT64_C(0x3800000000000000), P0), /* 2^-127 flushed */
  CV(F64, F32, NONE, 0, P1, D1),
  /* f32 <-> f64 keep a NaN's sign and payload, quieted (the H100's F2F); a .sat NaN is 0 */
  CV(F64, F32, NONE, 0, 0xfffefdfcu, UINT64_C(0xffffdfbf80000000)),
  CV(F64, F32, NONE, 0, 0x7f800001u, UINT64_C(0x7ff8000020000000)),
  CV(F32, F64, RN, 0, UINT64_C(0xffffdfbf80000000), 0xfffefdfcu),
  CV(F32, F64, RN, 0, UINT64_C(0x7ff0000000000001), 0x7fc00000u),
  CV(F32, F64, RN, SAT, UINT64_C(0xffffdfbf80000000), 0),
  CV(F64, F32, NONE, FTZ, SUB1, 0),
  /* an H100's: with .ftz an f32 NaN widens to the canonical one's bits; an f64 NaN is
     0x80000000 as a 32-bit integer (an f32 NaN 0), and itself, quieted, rounded to an
     integral f64 (bench/results/device_r12.txt) */
  CV(F64, F32, NONE, FTZ, 0xffc00001u, UINT64_C(0x7fffffffe0000000)),
  CV(S32, F64, RZI, 0, UINT64_C(0x7ff8000000000000), 0x80000000u),
  CV(U32, F64, RZI, 0, UINT64_C(0xfff8000000000000), 0x80000000u),
  CV(S32, F32, RZI, 0, QNAN, 0),
  CV(F64, F64, RMI, 0, UINT64_C(0x7ff0000000000001), UINT64_C(0x7ff8000000000001)),
  CV(F64, F32, NONE, 0, SUB1, UINT64_C(0x36a0000000000000)), /* 2^-149 exactly */
  /* float -> same float: integer rounding, ftz, sat */
  CV(F32, F32, RNI, 0, 0x40200000u, P2),
  CV(F32, F32, RPI, 0, 0x40200000u, P3),
  CV(F32, F32, RMI, 0, 0xc0200000u, 0xc0400000u),
  CV(F32, F32, RZI, 0, 0xc0200000u, 0xc0000000u),
  CV(F32, F32, RZI, 0, 0xbf000000u, N0),                    /* trunc(-0.5) = -0 */
  CV(F64, F64, RNI, 0, UINT64_C(0x4004000000000000), UINT64_C(0x4000000000000000)),
  CV(F16, F16, RNI, 0, 0x3e00, 0x4000),                     /* 1.5 -> 2 */
  CV(F32, F32, NONE, FTZ, SUB1, P0),
  CV(F32, F32, NONE, SAT, 0x3fc00000u, P1),
  CV(F32, F32, NONE, SAT, QNAN, P0),
  CV(F32, F32, NONE, SAT, N0, P0),
  /* tf32 (round to nearest, ties away, low 13 bits zero) */
  CV(TF32, F32, RNA, 0, 0x3f801000u, 0x3f802000u),          /* 1 + 2^-11: tie, away */
  CV(TF32, F32, RNA, 0, 0x3f800fffu, 0x3f800000u),
  CV(TF32, F32, RNA, 0, 0xbf803000u, 0xbf804000u),
  CV(TF32, F32, RN, 0, 0x3f801000u, 0x3f800000u),           /* ties to even under .rn */
  CV(TF32, F32, RNA, 0, QNAN, CNAN),
  R(CVTPACK, 0, F16X2, NONE, RN, 0, P1, P2, 0, 0, 0x3c004000u, 0),
  R(CVTPACK, 0, BF16X2, NONE, RN, 0, M1, 0x3f808001u, 0, 0, 0xbf803f81u, 0),
};

/* ---- integers ---- */
static const struct row int_rows[] = {
  IB(ADD, S32, SAT, 0x7fffffff, 1, 0x7fffffff),
  IB(SUB, S32, SAT, 0x80000000u, 1, 0x80000000u),
  IB(ADD, S32, SAT, 0xfffffffeu, 1, 0xffffffffu),
  IB(ADD, U32, 0, 0xffffffffu, 2, 1),
  IB(ADD, S16, 0, 0x7fff, 1, 0x8000),
  IB(SUB, U64, 0, 0, 1, UINT64_MAX),
  IB(MUL, S32, PTX_F_HI, 0xfffffffeu, 3, 0xffffffffu),     /* -6: high word all ones */
  IB(MUL, U32, PTX_F_HI, 0xfffffffeu, 3, 2),               /* 0x2fffffffa */
  IB(MUL, U32, PTX_F_HI, 0xffffffffu, 0xffffffffu, 0xfffffffeu),
  IB(MUL, S32, PTX_F_HI, 0x80000000u, 0x80000000u, 0x40000000u), /* 2^62 */
  IB(MUL, S32, PTX_F_LO, 0xfffffffeu, 3, 0xfffffffau),
  IB(MUL, S16, PTX_F_HI, 0x8000, 0x8000, 0x4000),           /* 2^30 >> 16 */
  IB(MUL, U64, PTX_F_HI, UINT64_MAX, 2, 1),
  IB(MUL, S64, PTX_F_HI, UINT64_MAX, 2, UINT64_MAX),
  IB(MUL, S32, PTX_F_WIDE, 0xffffffffu, 5, UINT64_C(0xfffffffffffffffb)),
  IB(MUL, U32, PTX_F_WIDE, 0xffffffffu, 0xffffffffu, UINT64_C(0xfffffffe00000001)),
  IB(MUL, S16, PTX_F_WIDE, 0x8000, 0x8000, 0x40000000u),
  IB(MUL, U16, PTX_F_WIDE, 0xffff, 0xffff, 0xfffe0001u),
  IB(MUL24, U32, PTX_F_LO, 0x01000003, 2, 6),               /* only 24 bits used */
  IB(MUL24, U32, PTX_F_HI, 0xffffff, 0xffffff, 0xfffffe00u),/* (2^24-1)^2 bits 47..16 */
  IB(MUL24, S32, PTX_F_LO, 0x00ffffff, 2, 0xfffffffeu),     /* -1 * 2 */
  IB(MUL24, S32, PTX_F_HI, 0x00800000, 0x00800000, 0x40000000u), /* 2^46 >> 16 */
  IB(DIV, U32, 0, 7, 2, 3),
  IB(DIV, U32, 0, 7, 0, 0xffffffffu),
  IB(REM, U32, 0, 7, 0, 7),
  IB(DIV, S32, 0, 0xfffffff9u, 2, 0xfffffffdu),            /* -7/2 = -3 */
  IB(REM, S32, 0, 0xfffffff9u, 2, 0xffffffffu),            /* -7%2 = -1 */
  IB(DIV, S32, 0, 0x80000000u, 0xffffffffu, 0x80000000u),  /* INT_MIN / -1 wraps */
  IB(REM, S32, 0, 0x80000000u, 0xffffffffu, 0),
  IB(DIV, S32, 0, 5, 0, 0xffffffffu),
  IB(REM, S32, 0, 0xfffffff9u, 0, 0xfffffff9u),
  IB(DIV, U64, 0, 5, 0, UINT64_MAX),
  IB(DIV, S64, 0, UINT64_C(0x8000000000000000), UINT64_MAX, UINT64_C(0x8000000000000000)),
  IB(DIV, U16, 0, 0xffff, 0, 0xffff),
  IB(MIN, S32, 0, 0xffffffffu, 1, 0xffffffffu),
  IB(MIN, U32, 0, 0xffffffffu, 1, 1),
  IB(MAX, S16, 0, 0x8000, 1, 1),
  IB(MAX, U16, 0, 0x8000, 1, 0x8000),
  IB(MAX, S32, PTX_F_RELU, 0xfffffff0u, 0xfffffff1u, 0),
  IB(SHL, B32, 0, 1, 31, 0x80000000u),
  IB(SHL, B32, 0, 1, 32, 0),
  IB(SHL, B32, 0, 1, 64, 0),
  IB(SHL, B64, 0, 1, 63, UINT64_C(0x8000000000000000)),
  IB(SHL, B64, 0, 1, 64, 0),
  IB(SHR, U32, 0, 0xffffffffu, 32, 0),
  IB(SHL, B16, 0, 0xffff, 4, 0xfff0),
  IB(SHR, U32, 0, 0x80000000u, 40, 0),
  IB(SHR, S32, 0, 0x80000000u, 40, 0xffffffffu),
  IB(SHR, S32, 0, 0x40000000u, 40, 0),
  IB(SHR, S32, 0, 0xfffffff8u, 1, 0xfffffffcu),
  IB(SHR, B32, 0, 0x80000000u, 31, 1),
  IB(SHR, S16, 0, 0x8000, 4, 0xf800),
  IB(SHR, U64, 0, UINT64_MAX, 0xffffffffu, 0),
  IB(AND, B32, 0, 0xf0f0, 0xff00, 0xf000),
  IB(OR, B32, 0, 0xf0f0, 0x0f0f, 0xffff),
  IB(XOR, B32, 0, 0xffff0000u, 0xffffffffu, 0xffff),
  IB(XOR, PRED, 0, 1, 1, 0),
  IU(POPC, B32, 0, 0, 0),
  IU(POPC, B32, 0, 0xffffffffu, 32),
  IU(POPC, B64, 0, UINT64_MAX, 64),
  IU(POPC, B32, 0, 0xf0f0f0f0u, 16),
  IU(CLZ, B32, 0, 0, 32),
  IU(CLZ, B32, 0, 0xffffffffu, 0),
  IU(CLZ, B32, 0, 1, 31),
  IU(CLZ, B64, 0, 1, 63),
  IU(CLZ, B64, 0, 0, 64),
  IU(BREV, B32, 0, 0, 0),
  IU(BREV, B32, 0, 0xffffffffu, 0xffffffffu),
  IU(BREV, B32, 0, 1, 0x80000000u),
  IU(BREV, B32, 0, 0x12345678u, 0x1e6a2c48u),
  IU(BREV, B64, 0, 1, UINT64_C(0x8000000000000000)),
  IU(BREV, B64, 0, UINT64_C(0x0123456789abcdef), UINT64_C(0xf7b3d591e6a2c480)),
  IU(BFIND, U32, 0, 0, 0xffffffffu),
  IU(BFIND, U32, 0, 0x10, 4),
  IU(BFIND, U32, PTX_F_SHIFTAMT, 0x10, 27),
  IU(BFIND, U32, PTX_F_SHIFTAMT, 0, 0xffffffffu),
  IU(BFIND, S32, 0, 0xffffffffu, 0xffffffffu),              /* -1: no non-sign bit */
  IU(BFIND, S32, 0, 0xfffffff0u, 3),                        /* -16: top 0 is bit 3 */
  IU(BFIND, S32, 0, 0x7fffffff, 30),
  IU(BFIND, U32, 0, 0x80000000u, 31),
  IU(BFIND, U64, 0, UINT64_C(1) << 40, 40),
  IU(BFIND, U64, PTX_F_SHIFTAMT, UINT64_C(1) << 40, 23),
  IU(ABS, S32, 0, 0xfffffffbu, 5),
  IU(ABS, S32, 0, 0x80000000u, 0x80000000u),
  IU(ABS, S16, 0, 0xffff, 1),
  IU(NEG, S32, 0, 5, 0xfffffffbu),
  IU(NEG, S64, 0, 1, UINT64_MAX),
  IU(NOT, B32, 0, 0, 0xffffffffu),
  IU(NOT, B16, 0, 0x00ff, 0xff00),
  IU(NOT, PRED, 0, 1, 0),
  IU(CNOT, B32, 0, 0, 1),
  IU(CNOT, B32, 0, 7, 0),
  IM(MAD, S32, PTX_F_LO, 3, 4, 5, 17),
  IM(MAD, U32, PTX_F_HI, 0xffffffffu, 0xffffffffu, 1, 0xffffffffu),
  IM(MAD, S32, PTX_F_WIDE, 0xffffffffu, 5, 10, 5),
  IM(MAD, U32, PTX_F_WIDE, 0xffffffffu, 0xffffffffu, UINT64_C(0x1fffffffe),
     UINT64_MAX),                                            /* 2^64-2^33+1 + 2^33-2 */
  IM(MAD, S32, PTX_F_HI | SAT, 0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff),
  IM(MAD, S32, PTX_F_HI, 0x7fffffff, 0x7fffffff, 0x7fffffff, 0xbffffffeu),
  IM(MAD, S32, PTX_F_HI | SAT, 0x80000000u, 1, 0x80000000u, 0x80000000u),
  IM(MAD24, U32, PTX_F_LO, 2, 3, 4, 10),
  IM(MAD24, U32, PTX_F_HI, 0xffffff, 0xffffff, 0x200, 0),    /* 0xfffffe00 + 0x200 wraps */
  IM(SAD, U32, 0, 3, 10, 100, 107),
  IM(SAD, U32, 0, 10, 3, 0, 7),
  IM(SAD, S32, 0, 0xfffffffdu, 4, 1, 8),                    /* |-3 - 4| + 1 */
  IM(SAD, U16, 0, 0xffff, 0, 1, 0),                         /* 65535 + 1 wraps */
  IC(LT, S32, 0xffffffffu, 1, 1),
  IC(LT, U32, 0xffffffffu, 1, 0),
  IC(LO, S32, 0xffffffffu, 1, 0),
  IC(HI, S32, 0xffffffffu, 1, 1),
  IC(HS, U32, 5, 5, 1),
  IC(LS, U32, 6, 5, 0),
  IC(GT, S64, UINT64_MAX, UINT64_MAX - 1, 1),
  IC(GE, S64, UINT64_C(0x8000000000000000), 0, 0),
  IC(EQ, B16, 0x1ffff, 0xffff, 1),
  IC(NE, B32, 1, 2, 1),
  IC(LE, S16, 0x8000, 0x7fff, 1),
};

/* ---- bit manipulation, dot products, carry chain ---- */
#define BE(t, a, pos, len, w) R(BFE, 0, t, NONE, NONE, 0, a, pos, len, 0, w, 0)
#define BI(t, a, b, pos, len, w) R(BFI, 0, t, NONE, NONE, 0, a, b, pos, len, w, 0)
#define PR(mode, a, b, c, w) R(PRMT, PTX_PRMT_##mode, NONE, NONE, NONE, 0, a, b, c, 0, w, 0)
#define SH(mode, a, b, c, w) R(SHF, PTX_SHF_##mode, NONE, NONE, NONE, 0, a, b, c, 0, w, 0)
#define L3(a, b, c, lut, w) R(LOP3, 0, NONE, NONE, NONE, 0, a, b, c, lut, w, 0)
#define D4(at, bt, a, b, c, w) R(DP4A, 0, at, bt, NONE, 0, a, b, c, 0, w, 0)
#define D2(at, bt, fl, a, b, c, w) R(DP2A, 0, at, bt, NONE, fl, a, b, c, 0, w, 0)
#define BM(clamp, a, b, w) R(BMSK, clamp, NONE, NONE, NONE, 0, a, b, 0, 0, w, 0)
#define SZ(clamp, t, a, b, w) R(SZEXT, clamp, t, NONE, NONE, 0, a, b, 0, 0, w, 0)
#define FN(mask, base, off, w) R(FNS, 0, NONE, NONE, NONE, 0, mask, base, (uint32_t)(off), 0, w, 0)
#define VA(lanes, dt, at, fl, a, b, c, w) R(VABS, lanes, dt, at, NONE, fl, a, b, c, 0, w, 0)
#define CA(fam, t, fl, a, b, c, cin, w, cc) R(fam, 0, t, NONE, NONE, fl, a, b, c, cin, w, cc)
#define BYTES_A 0x03020100u /* byte k of {b, a} holds k */
#define BYTES_B 0x07060504u

static const struct row bit_rows[] = {
  BE(U32, 0x12345678u, 4, 8, 0x67),
  BE(S32, 0xf0, 4, 4, 0xffffffffu),                         /* field 0xf, top bit 1 */
  BE(S32, 0x70, 4, 4, 7),
  BE(U32, 0x12345678u, 4, 0, 0),
  BE(S32, 0xffffffffu, 4, 0, 0),                            /* len 0: no sign bit */
  BE(U32, 0x12345678u, 40, 8, 0),
  BE(S32, 0x80000000u, 40, 8, 0xffffffffu),                 /* all bits = a[31] */
  BE(S32, 0x80000000u, 28, 8, 0xfffffff8u),                 /* 4 bits, sign = a[31] */
  BE(U32, 0x80000000u, 28, 8, 0x8),
  BE(U32, 0x12345678u, 260, 264, 0x67),                     /* pos, len taken mod 256 */
  BE(S64, UINT64_C(0x8000000000000000), 60, 4, UINT64_C(0xfffffffffffffff8)),
  BE(U64, UINT64_C(0xfedcba9876543210), 32, 32, 0xfedcba98u),
  BE(U32, 0xffffffffu, 0, 32, 0xffffffffu),
  BI(B32, 0xff, 0x12345678u, 8, 4, 0x12345f78u),
  BI(B32, 0xff, 0x12345678u, 8, 0, 0x12345678u),
  BI(B32, 0xff, 0x02345678u, 28, 8, 0xf2345678u),           /* clipped at bit 31 */
  BI(B32, 0xff, 0x12345678u, 32, 8, 0x12345678u),
  BI(B64, 1, 0, 63, 1, UINT64_C(0x8000000000000000)),
  PR(DEFAULT, BYTES_A, BYTES_B, 0x3210, BYTES_A),
  PR(DEFAULT, BYTES_A, BYTES_B, 0x7654, BYTES_B),
  PR(DEFAULT, BYTES_A, BYTES_B, 0x0123, 0x00010203u),
  PR(DEFAULT, BYTES_A, BYTES_B, 0x5140, 0x05010400u),
  PR(DEFAULT, 0x00000080u, 0, 0x0008, 0x808080ffu),         /* sign-replicate byte 0 */
  PR(F4E, BYTES_A, BYTES_B, 1, 0x04030201u),
  PR(F4E, BYTES_A, BYTES_B, 3, 0x06050403u),
  PR(B4E, BYTES_A, BYTES_B, 0, 0x05060700u),
  PR(RC8, BYTES_A, BYTES_B, 2, 0x02020202u),
  PR(ECL, BYTES_A, BYTES_B, 1, 0x03020101u),
  PR(ECR, BYTES_A, BYTES_B, 2, 0x02020100u),
  PR(RC16, BYTES_A, BYTES_B, 1, 0x03020302u),
  PR(RC16, BYTES_A, BYTES_B, 2, 0x01000100u),
  PR(F4E, BYTES_A, BYTES_B, 0, BYTES_A),
  PR(B4E, BYTES_A, BYTES_B, 1, 0x06070001u),
  PR(B4E, BYTES_A, BYTES_B, 3, 0x00010203u),
  PR(RC8, BYTES_A, BYTES_B, 5, 0x01010101u),               /* only c[1:0] counts */
  PR(ECL, BYTES_A, BYTES_B, 3, 0x03030303u),
  PR(ECR, BYTES_A, BYTES_B, 0, 0x00000000u),
  PR(ECR, BYTES_A, BYTES_B, 1, 0x01010100u),
  /* bmsk, szext, fns: the ISA's examples and its pseudo-code's edge cases */
  BM(0, 1, 2, 0x6),
  BM(1, 1, 2, 0x6),
  BM(0, 28, 8, 0xf0000000u),                                /* a + b past 31: to bit 31 */
  BM(0, 4, 0, 0),                                           /* width 0 */
  BM(0, 4, 32, 0),                                          /* wrap: 32 & 31 = 0 */
  BM(1, 4, 32, 0xfffffff0u),                                /* clamp: to bit 31 */
  BM(1, 32, 4, 0),                                          /* clamp: past the msb */
  BM(0, 33, 4, 0x1e),                                       /* wrap: 33 & 31 = 1 */
  SZ(0, U32, 0xffffffffu, 0, 0),
  SZ(0, S32, 0x000000f0u, 8, 0xfffffff0u),
  SZ(0, S32, 0x00000070u, 8, 0x70),
  SZ(0, U32, 0xfffffff0u, 8, 0xf0),
  SZ(1, S32, 0x80000000u, 40, 0x80000000u),                 /* clamp, >= 32: a itself */
  SZ(0, S32, 0x80000001u, 33, 0xffffffffu),                 /* wrap: 1 bit, set */
  SZ(0, S32, 0x12345678u, 32, 0),                           /* wrap: 32 & 31 = 0 */
  FN(0xaaaaaaaau, 3, 1, 3),
  FN(0xaaaaaaaau, 3, -1, 3),
  FN(0xaaaaaaaau, 2, 1, 3),
  FN(0xaaaaaaaau, 2, -1, 1),
  FN(0xaaaaaaaau, 2, 0, 0xffffffffu),
  FN(0xaaaaaaaau, 3, 0, 3),
  FN(0xaaaaaaaau, 0, 3, 5),
  FN(0x00000001u, 5, -2, 0xffffffffu),
  /* packed 16-bit integers (sm_90): each half on its own */
  IB(ADD, U16X2, 0, 0xffff0001u, 0x00020003u, 0x00010004u),
  IB(ADD, S16X2, PTX_F_SAT, 0x7fff8000u, 0x0001ffffu, 0x7fff8000u),
  IB(SUB, S16X2, 0, 0x00000000u, 0x00010001u, 0xffffffffu),
  IB(MIN, S16X2, 0, 0x8000ffffu, 0x00010001u, 0x8000ffffu),
  IB(MIN, U16X2, 0, 0x8000ffffu, 0x00010001u, 0x00010001u),
  IB(MAX, S16X2, PTX_F_RELU, 0x8000fffeu, 0x9000ffffu, 0x00000000u),
  /* vabsdiff2/4: per-lane absolute differences, merged or summed onto c */
  VA(4, U32, U32, 0, 0x0a0b0c0du, 0x0d0c0b0au, 0xffffffffu, 0x03010103u),
  VA(4, U32, U32, PTX_F_VADD, 0x0a0b0c0du, 0x0d0c0b0au, 100, 108),
  VA(2, U32, U32, PTX_F_VADD, 0x0001ffffu, 0x00030000u, 5, 65542),
  VA(2, U32, U32, 0, 0x0001ffffu, 0x00030000u, 0, 0x0002ffffu),
  VA(4, S32, S32, PTX_F_BSIGNED, 0x000000ffu, 0x00000001u, 0, 0x00000002u),  /* -1 and 1 */
  VA(4, S32, S32, PTX_F_BSIGNED | PTX_F_SAT, 0x00000080u, 0x0000007fu, 0, 0x7f), /* 255 -> 127 */
  VA(4, U32, U32, PTX_F_SAT, 0x00000080u, 0x0000007fu, 0, 0x01),
  SH(L_WRAP, 0x80000000u, 1, 4, 0x18),
  SH(L_WRAP, 0x80000000u, 1, 36, 0x18),                     /* 36 & 31 = 4 */
  SH(L_CLAMP, 0x80000000u, 1, 36, 0x80000000u),             /* min(36, 32): d = a */
  SH(R_WRAP, 0x12345678u, 0x9abcdef0u, 8, 0xf0123456u),
  SH(R_WRAP, 0x12345678u, 0x9abcdef0u, 40, 0xf0123456u),
  SH(R_CLAMP, 0x12345678u, 0x9abcdef0u, 40, 0x9abcdef0u),
  SH(R_CLAMP, 0x12345678u, 0x9abcdef0u, 0, 0x12345678u),
  L3(0xf0, 0xcc, 0xaa, 0x96, 0x96),                         /* the truth table itself */
  L3(0x12345678u, 0x9abcdef0u, 0xffffffffu, 0x96, 0x77777777u), /* xor3 */
  L3(0xf0, 0xcc, 0xaa, 0xe8, 0xe8),                         /* majority */
  L3(0x0ff0, 0x00ff, 0, 0xc0, 0x00f0),                      /* a & b */
  L3(0x0ff0, 0x00ff, 0xffff0000u, 0xfe, 0xffff0fffu),       /* a | b | c */
  L3(0x1234, 0, 0, 0x0f, 0xffffedcbu),                      /* ~a */
  D4(U32, U32, 0x01020304u, 0x01010101u, 10, 20),
  D4(S32, S32, 0xff020304u, 0x02020202u, 0, 16),            /* (4+3+2-1)*2 */
  D4(S32, U32, 0xffffffffu, 0xffffffffu, 0, 0xfffffc04u),   /* 4 * (-1 * 255) */
  D4(U32, S32, 0xffffffffu, 0xffffffffu, 0, 0xfffffc04u),
  D4(S32, S32, 0x80808080u, 0x80808080u, 0, 65536),         /* 4 * 128^2 */
  D2(U32, U32, PTX_F_LO, 0x00020003u, 0x00000504u, 1, 23),  /* 3*4 + 2*5 + 1 */
  D2(U32, U32, PTX_F_HI, 0x00020003u, 0x05040000u, 1, 23),
  D2(S32, S32, PTX_F_LO, 0xffff0002u, 0x0000ff03u, 0, 7),   /* 2*3 + (-1)(-1) */
  CA(ADDC, U32, 0, 0xffffffffu, 1, 0, 0, 0, 1),
  CA(ADDC, U32, 0, 0xffffffffu, 0, 0, 1, 0, 1),
  CA(ADDC, U32, 0, 1, 2, 0, 1, 4, 0),
  CA(ADDC, S64, 0, UINT64_MAX, 1, 0, 0, 0, 1),
  CA(ADDC, U64, 0, 0, 0, 0, 1, 1, 0),                       /* the high word of 2^64-1 + 1 */
  CA(SUBC, U32, 0, 0, 1, 0, 0, 0xffffffffu, 1),
  CA(SUBC, U32, 0, 5, 5, 0, 1, 0xffffffffu, 1),
  CA(SUBC, U32, 0, 5, 3, 0, 1, 1, 0),
  CA(SUBC, U32, 0, 0, 0xffffffffu, 0, 1, 0, 1),
  CA(MADC, U32, PTX_F_LO, 0x10000, 0x10000, 0xffffffffu, 1, 0, 1), /* lo = 0 */
  CA(MADC, U32, PTX_F_HI, 0xffffffffu, 0xffffffffu, 2, 0, 0, 1),   /* 0xfffffffe + 2 */
  CA(MADC, S32, PTX_F_HI, 0xffffffffu, 1, 1, 0, 0, 1),     /* hi(-1) = all ones, + 1 */
};

static uint64_t run_row(const struct row *r, unsigned *cc)
{
  *cc = 0;
  switch (r->fam) {
  case FBIN: return sim_alu_fbin(r->op, r->t, r->rnd, r->flags, r->a, r->b);
  case FFMA: return sim_alu_ffma(r->t, r->rnd, r->flags, r->a, r->b, r->c);
  case FUN: return sim_alu_fun(r->op, r->t, r->rnd, r->flags, r->a);
  case FCMP: return sim_alu_fcmp(r->op, r->t, r->flags, r->a, r->b);
  case TESTP: return sim_alu_testp(r->op, r->t, r->a);
  case CVT: return sim_alu_cvt(r->t, r->t2, r->rnd, r->flags, r->a);
  case CVTPACK: return sim_alu_cvt_pack(r->t, r->rnd, r->flags, r->a, r->b);
  case IBIN: return sim_alu_ibin(r->op, r->t, r->flags, r->a, r->b);
  case IUN: return sim_alu_iun(r->op, r->t, r->flags, r->a);
  case IMAD: return sim_alu_imad(r->op, r->t, r->flags, r->a, r->b, r->c);
  case ICMP: return sim_alu_icmp(r->op, r->t, r->a, r->b);
  case BFE: return sim_alu_bfe(r->t, r->a, (uint32_t)r->b, (uint32_t)r->c);
  case BFI: return sim_alu_bfi(r->t, r->a, r->b, (uint32_t)r->c, (uint32_t)r->d);
  case PRMT: return sim_alu_prmt(r->op, (uint32_t)r->a, (uint32_t)r->b, (uint32_t)r->c);
  case SHF: return sim_alu_shf(r->op, (uint32_t)r->a, (uint32_t)r->b, (uint32_t)r->c);
  case LOP3:
    return sim_alu_lop3((uint32_t)r->a, (uint32_t)r->b, (uint32_t)r->c, (uint32_t)r->d);
  case DP4A: return sim_alu_dp4a(r->t, r->t2, (uint32_t)r->a, (uint32_t)r->b, (uint32_t)r->c);
  case DP2A:
    return sim_alu_dp2a(r->t, r->t2, r->flags, (uint32_t)r->a, (uint32_t)r->b,
                        (uint32_t)r->c);
  case ADDC: return sim_alu_addc(r->t, r->a, r->b, (unsigned)r->d, cc);
  case SUBC: return sim_alu_subc(r->t, r->a, r->b, (unsigned)r->d, cc);
  case MADC: return sim_alu_madc(r->t, r->flags, r->a, r->b, r->c, (unsigned)r->d, cc);
  case BMSK: return sim_alu_bmsk(r->op, (uint32_t)r->a, (uint32_t)r->b);
  case SZEXT: return sim_alu_szext(r->op, r->t == PTX_T_S32, (uint32_t)r->a, (uint32_t)r->b);
  case FNS: return sim_alu_fns((uint32_t)r->a, (uint32_t)r->b, (int32_t)(uint32_t)r->c);
  case VABS:
    return sim_alu_vabsdiff((unsigned)r->op, r->t, r->t2, r->flags, (uint32_t)r->a, (uint32_t)r->b,
                            (uint32_t)r->c);
  }
  return 0;
}

static void check_row(const struct row *r)
{
  unsigned cc;
  uint64_t got = run_row(r, &cc);
  ck_assert_uint_eq(got, r->want); /* a failure's loop index names the row */
  if (r->fam == ADDC || r->fam == SUBC || r->fam == MADC)
    ck_assert_uint_eq(cc, r->want_cc);
}

#define NROWS(t) ((int)(sizeof(t) / sizeof((t)[0])))

START_TEST(test_float_rows) { check_row(&float_rows[_i]); }
END_TEST

START_TEST(test_cvt_rows) { check_row(&cvt_rows[_i]); }
END_TEST

START_TEST(test_int_rows) { check_row(&int_rows[_i]); }
END_TEST

START_TEST(test_bit_rows) { check_row(&bit_rows[_i]); }
END_TEST

/* ---- property tests ---- */

static uint64_t rng_state = UINT64_C(0x9e3779b97f4a7c15);

static uint64_t rng(void) /* xorshift64* */
{
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * UINT64_C(0x2545f4914f6cdd1d);
}

/* Every f16 survives f16 -> f32 -> f16; NaNs become the canonical 0x7fff (and cvt.f32.f16
   of a NaN gives the canonical f32 NaN). */
START_TEST(test_f16_roundtrip_all)
{
  unsigned bad = 0;
  for (uint32_t h = 0; h < 0x10000; h++) {
    uint32_t f = sim_alu_f16_to_f32((uint16_t)h);
    uint16_t back = sim_alu_f32_to_f16(f, PTX_RND_RN);
    int nan = (h & 0x7fff) > 0x7c00;
    bad += back != (nan ? 0x7fff : h);
    bad += sim_alu_cvt(PTX_T_F32, PTX_T_F16, PTX_RND_NONE, 0, h) != (nan ? CNAN : f);
  }
  ck_assert_uint_eq(bad, 0);
}
END_TEST

/* f32 -> f16 round-to-nearest against the compiler's _Float16 conversion. */
START_TEST(test_f16_vs_c)
{
#ifdef __FLT16_MAX__
  unsigned bad = 0;
  for (int i = 0; i < 1 << 20; i++) {
    /* exponents concentrated around the f16 range, random fraction */
    uint32_t f = (uint32_t)rng();
    uint32_t e = 96 + (uint32_t)(rng() % 52);
    f = (f & 0x807fffffu) | (e << 23);
    _Float16 h = (_Float16)sim_alu_as_f32(f);
    uint16_t want;
    memcpy(&want, &h, sizeof want);
    bad += sim_alu_f32_to_f16(f, PTX_RND_RN) != want;
  }
  ck_assert_uint_eq(bad, 0);
#endif
}
END_TEST

/* C's u64 -> f32/f64 in the current rounding mode, written out (halve with a sticky bit, convert
   signed, double) because some compilers lower the unsigned conversion in a way that is only
   right in round-to-nearest unless built with -frounding-math. */
static float u64_to_f32(uint64_t v)
{
  if ((int64_t)v >= 0)
    return (float)(int64_t)v;
  volatile float h = (float)(int64_t)((v >> 1) | (v & 1));
  return h + h;
}

static double u64_to_f64(uint64_t v)
{
  if ((int64_t)v >= 0)
    return (double)(int64_t)v;
  volatile double h = (double)(int64_t)((v >> 1) | (v & 1));
  return h + h;
}

/* Integer and f64 -> f32/f64 conversions against C's conversions in each rounding mode. */
START_TEST(test_cvt_vs_c)
{
  static const int fe[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
  static const enum ptx_rnd rn[4] = {PTX_RND_RN, PTX_RND_RZ, PTX_RND_RM, PTX_RND_RP};
  unsigned bad = 0;
  for (int m = 0; m < 4; m++) {
    for (int i = 0; i < 20000; i++) {
      uint64_t v = rng() >> (rng() % 64);
      uint64_t d = rng();
      volatile uint64_t vv = v;
      volatile int64_t sv = (int64_t)(v ^ (rng() << 63));
      volatile double vd = sim_alu_as_f64(d);
      fesetround(fe[m]);
      volatile float fu = u64_to_f32(vv), fs = (float)sv, fd = (float)vd;
      volatile double du = u64_to_f64(vv), ds = (double)sv;
      fesetround(FE_TONEAREST);
      bad += sim_alu_cvt(PTX_T_F32, PTX_T_U64, rn[m], 0, v) != sim_alu_from_f32(fu);
      bad += sim_alu_cvt(PTX_T_F32, PTX_T_S64, rn[m], 0, (uint64_t)sv) != sim_alu_from_f32(fs);
      bad += sim_alu_cvt(PTX_T_F64, PTX_T_U64, rn[m], 0, v) != sim_alu_from_f64(du);
      bad += sim_alu_cvt(PTX_T_F64, PTX_T_S64, rn[m], 0, (uint64_t)sv) != sim_alu_from_f64(ds);
      if (fd == fd)
        bad += sim_alu_cvt(PTX_T_F32, PTX_T_F64, rn[m], 0, d) != sim_alu_from_f32(fd);
    }
  }
  ck_assert_uint_eq(bad, 0);
}
END_TEST

/* Directed roundings bracket round-to-nearest: RM <= RN <= RP, RP is at most one step
   above RM, and RZ is RM for positive results and RP for negative ones. */
START_TEST(test_f32_directed_order)
{
  static const enum ptx_op ops[4] = {PTX_OP_ADD, PTX_OP_MUL, PTX_OP_DIV, PTX_OP_SUB};
  unsigned bad = 0;
  for (int i = 0; i < 40000; i++) {
    uint64_t a = (uint32_t)rng() & 0xbfffffffu, b = (uint32_t)rng() & 0xbfffffffu;
    enum ptx_op op = ops[i & 3];
    float rn = sim_alu_as_f32(sim_alu_fbin(op, PTX_T_F32, PTX_RND_RN, 0, a, b));
    float rm = sim_alu_as_f32(sim_alu_fbin(op, PTX_T_F32, PTX_RND_RM, 0, a, b));
    float rp = sim_alu_as_f32(sim_alu_fbin(op, PTX_T_F32, PTX_RND_RP, 0, a, b));
    float rz = sim_alu_as_f32(sim_alu_fbin(op, PTX_T_F32, PTX_RND_RZ, 0, a, b));
    if (rn != rn)
      continue;
    bad += !(rm <= rn && rn <= rp);
    bad += rp != rm && nextafterf(rm, INFINITY) != rp;
    bad += rz != (rn > 0 || (rn == 0 && rm >= 0) ? rm : rp);
  }
  ck_assert_uint_eq(bad, 0);
}
END_TEST

/* The inline fast paths agree with the general entry points, NaN canonicalisation included. */
START_TEST(test_fast_paths)
{
  unsigned bad = 0;
  for (int i = 0; i < 100000; i++) {
    uint64_t a = (uint32_t)rng(), b = (uint32_t)rng(), c = (uint32_t)rng();
    if (i % 7 == 0)
      a = QNAN | (a & 0xff);
    bad += sim_alu_add_f32_rn(a, b) != sim_alu_fbin(PTX_OP_ADD, PTX_T_F32, PTX_RND_RN, 0, a, b);
    /* (subnormals: a, b with a zero exponent now and then, and sums that cancel to one) */
    const uint64_t sa = i % 5 == 1 ? a & 0x807fffffu : a;
    const uint64_t sb = i % 5 == 2   ? sa ^ 0x80000000u ^ (b & 0x3ff)
                        : i % 5 == 3 ? b & 0x807fffffu
                                     : b;
    bad += sim_alu_add_f32_rn_ftz(sa, sb) !=
           sim_alu_fbin(PTX_OP_ADD, PTX_T_F32, PTX_RND_RN, PTX_F_FTZ, sa, sb);
    bad += sim_alu_sub_f32_rn(a, b) != sim_alu_fbin(PTX_OP_SUB, PTX_T_F32, PTX_RND_NONE, 0, a, b);
    bad += sim_alu_mul_f32_rn(a, b) != sim_alu_fbin(PTX_OP_MUL, PTX_T_F32, PTX_RND_RN, 0, a, b);
    bad += sim_alu_fma_f32_rn(a, b, c) != sim_alu_ffma(PTX_T_F32, PTX_RND_RN, 0, a, b, c);
    bad += sim_alu_mul_lo_b32(a, b) != sim_alu_ibin(PTX_OP_MUL, PTX_T_S32, PTX_F_LO, a, b);
    bad += sim_alu_mad_lo_b32(a, b, c) != sim_alu_imad(PTX_OP_MAD, PTX_T_U32, PTX_F_LO, a, b, c);
    bad += sim_alu_mul_wide_s32(a, b) != sim_alu_ibin(PTX_OP_MUL, PTX_T_S32, PTX_F_WIDE, a, b);
    bad += sim_alu_mul_wide_u32(a, b) != sim_alu_ibin(PTX_OP_MUL, PTX_T_U32, PTX_F_WIDE, a, b);
    uint64_t da = rng(), db = rng();
    bad += sim_alu_add_f64_rn(da, db) != sim_alu_fbin(PTX_OP_ADD, PTX_T_F64, PTX_RND_RN, 0, da, db);
    bad += sim_alu_mul_f64_rn(da, db) != sim_alu_fbin(PTX_OP_MUL, PTX_T_F64, PTX_RND_RN, 0, da, db);
  }
  ck_assert_uint_eq(bad, 0);
}
END_TEST

/* Float -> s32 with .rni/.rmi/.rpi/.rzi against C's rounding functions on in-range values. */
START_TEST(test_f2i_vs_c)
{
  unsigned bad = 0;
  for (int i = 0; i < 100000; i++) {
    float x = (float)((int32_t)(uint32_t)rng()) / (float)(1 + (rng() % 1000));
    uint64_t a = sim_alu_from_f32(x);
    bad += sim_alu_cvt(PTX_T_S32, PTX_T_F32, PTX_RND_RNI, 0, a) != (uint32_t)(int32_t)nearbyintf(x);
    bad += sim_alu_cvt(PTX_T_S32, PTX_T_F32, PTX_RND_RMI, 0, a) != (uint32_t)(int32_t)floorf(x);
    bad += sim_alu_cvt(PTX_T_S32, PTX_T_F32, PTX_RND_RPI, 0, a) != (uint32_t)(int32_t)ceilf(x);
    bad += sim_alu_cvt(PTX_T_S32, PTX_T_F32, PTX_RND_RZI, 0, a) != (uint32_t)(int32_t)x;
  }
  ck_assert_uint_eq(bad, 0);
}
END_TEST

/* Directed rounding leaves the caller's rounding mode as it found it. */
START_TEST(test_rounding_mode_restored)
{
  fesetround(FE_UPWARD);
  sim_alu_fbin(PTX_OP_ADD, PTX_T_F32, PTX_RND_RZ, 0, P1, 0x33800000u);
  sim_alu_ffma(PTX_T_F64, PTX_RND_RM, 0, D1, D1, D1);
  int mode = fegetround();
  fesetround(FE_TONEAREST);
  ck_assert_int_eq(mode, FE_UPWARD);
}
END_TEST

/* The warp-wide setp paths equal the per-lane comparisons for every compare, on values that
   cover signed/unsigned order, zeros, infinities and NaNs, with a full mask (the loop
   without mask tests) and with holes in it; lanes outside the mask keep their value. */
START_TEST(test_setp_lanes_vs_scalar)
{
  static const uint32_t iv[] = {0, 1, 2, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0xfffffffeu, 77};
  static const uint32_t fv[] = {0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x7f800000u,
                                0xff800000u, 0x7fc00000u, 0xffc00001u, 0x00000001u, 0x41200000u};
  const unsigned ni = sizeof iv / sizeof iv[0], nf = sizeof fv / sizeof fv[0];
  uint64_t a[64], b[64], d[64];
  const uint64_t masks[] = {~0ull, 0xffffffffull, 0xfffffff0ull, 0x5555555555555555ull,
                            0x8000000000000001ull, 1ull << 40};
  for (unsigned mi = 0; mi < sizeof masks / sizeof masks[0]; mi++) {
    uint64_t e = masks[mi];
    unsigned lo = (unsigned)__builtin_ctzll(e), hi = 64 - (unsigned)__builtin_clzll(e);
    for (int c = PTX_CMP_NONE; c <= PTX_CMP_NAN; c++) {
      for (int sgn = 0; sgn < 2; sgn++) {
        for (unsigned l = 0; l < 64; l++) {
          a[l] = iv[l % ni] | (uint64_t)l << 40;      /* junk above bit 31 is ignored */
          b[l] = iv[(l / ni) % ni];
          d[l] = 9;
        }
        sim_alu_setp_i32_lanes((enum ptx_cmp)c, sgn, d, a, b, e, lo, hi);
        for (unsigned l = 0; l < 64; l++) {
          uint64_t want = (e >> l & 1)
            ? sim_alu_icmp((enum ptx_cmp)c, sgn ? PTX_T_S32 : PTX_T_U32, a[l], b[l]) : 9;
          ck_assert_msg(d[l] == want, "setp i32 cmp %d sgn %d mask %u lane %u: %llu, want %llu",
                        c, sgn, mi, l, (unsigned long long)d[l], (unsigned long long)want);
        }
      }
      for (unsigned l = 0; l < 64; l++) {
        a[l] = fv[l % nf];
        b[l] = fv[(l / nf + l) % nf];
        d[l] = 9;
      }
      sim_alu_setp_f32_lanes((enum ptx_cmp)c, d, a, b, e, lo, hi);
      for (unsigned l = 0; l < 64; l++) {
        uint64_t want = (e >> l & 1) ? sim_alu_fcmp((enum ptx_cmp)c, PTX_T_F32, 0, a[l], b[l]) : 9;
        ck_assert_msg(d[l] == want, "setp f32 cmp %d mask %u lane %u: %llu, want %llu", c, mi, l,
                      (unsigned long long)d[l], (unsigned long long)want);
      }
    }
  }
}
END_TEST

Suite *suite_alu(void)
{
  Suite *s = suite_create("alu");
  TCase *tc = tcase_create("tables");
  tcase_add_loop_test(tc, test_float_rows, 0, NROWS(float_rows));
  tcase_add_loop_test(tc, test_cvt_rows, 0, NROWS(cvt_rows));
  tcase_add_loop_test(tc, test_int_rows, 0, NROWS(int_rows));
  tcase_add_loop_test(tc, test_bit_rows, 0, NROWS(bit_rows));
  suite_add_tcase(s, tc);
  TCase *tp = tcase_create("properties");
  tcase_set_timeout(tp, 60);
  tcase_add_test(tp, test_f16_roundtrip_all);
  tcase_add_test(tp, test_f16_vs_c);
  tcase_add_test(tp, test_cvt_vs_c);
  tcase_add_test(tp, test_f32_directed_order);
  tcase_add_test(tp, test_fast_paths);
  tcase_add_test(tp, test_f2i_vs_c);
  tcase_add_test(tp, test_rounding_mode_restored);
  tcase_add_test(tp, test_setp_lanes_vs_scalar);
  suite_add_tcase(s, tp);
  return s;
}
