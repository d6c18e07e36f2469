/* mma.c: end-to-end tests of the tensor-core PTX (tests/e2e/kernels/mma.cu): mma.sync of every
 * shape and type nvcc emits for sm_80/sm_90, ldmatrix/stmatrix, and wmma through mma.h.
 *
 * Expected values come from the PTX ISA, not from the emulator's code: the mma.sync fragments
 * are placed by the ISA's "Matrix fragments for mma.mMnNkK" rules (written out again here
 * in the ISA's words), ldmatrix's by its description, and D = A * B + C is computed on the
 * host. Inputs are small integers (f16, bf16, tf32, f64) or full-range bytes (s8, u8), so
 * every product and sum is exact and the comparison is bit for bit whatever order the
 * hardware sums in. The wmma tests check the GEMM result, which does not depend on the
 * fragments' layout, and the f16 fragments against the layout ptxas gives sm_90.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

#define A "--arg"
#define MMA_TIMEOUT_S 300

enum ty { T_F16, T_BF16, T_TF32, T_F32, T_F64, T_S8, T_U8, T_S32 };

static unsigned ty_bytes(enum ty t)
{
  return t == T_F16 || t == T_BF16 ? 2 : t == T_S8 || t == T_U8 ? 1 : t == T_F64 ? 8 : 4;
}

/* bits of small integer v in type t (exact) */
static uint64_t enc(enum ty t, long v)
{
  float f = (float)v;
  uint32_t u;
  memcpy(&u, &f, 4);
  switch (t) {
  case T_F16: {
    if (v == 0)
      return 0;
    uint32_t s = v < 0 ? 0x8000u : 0, m = (uint32_t)(v < 0 ? -v : v);
    int e = 0;
    while ((m >> e) > 1)
      e++;
    return s | (uint32_t)(e + 15) << 10 | ((m << (10 - e)) & 0x3ffu);
  }
  case T_BF16: return u >> 16;
  case T_F64: {
    double d = (double)v;
    uint64_t x;
    memcpy(&x, &d, 8);
    return x;
  }
  case T_S8: case T_U8: return (uint8_t)v;
  case T_S32: return (uint32_t)v;
  default: return u;
  }
}

struct mcase {
  const char *kernel;
  unsigned M, N, K;
  enum ty ta, tb, tc, td;
  int sat;
};

/* The ISA's fragment rules: (row, col) of element i of lane l's A (M x K), B (K x N) or C/D
   (M x N) fragment. */
static void isa_coord(const struct mcase *c, char which, unsigned l, unsigned i, unsigned *r,
                      unsigned *col)
{
  unsigned gid = l >> 2, tig = l % 4;
  int i8 = c->ta == T_S8 || c->ta == T_U8, tf = c->ta == T_TF32;
  if (which == 'c') {
    if (c->M == 8) {                         /* m8n8k4 f64, m8n8k16 int8 */
      *r = gid;
      *col = tig * 2 + i;
    } else {                                 /* m16n8kK: c0,c1 row gid, c2,c3 row gid + 8 */
      *r = i < 2 ? gid : gid + 8;
      *col = tig * 2 + (i & 1);
    }
    return;
  }
  if (which == 'a') {
    if (c->ta == T_F64) { *r = gid; *col = tig; return; }
    if (c->M == 8) { *r = gid; *col = tig * 4 + i; return; }              /* m8n8k16 */
    if (tf && c->K == 4) { *r = i == 0 ? gid : gid + 8; *col = tig; return; }
    if (tf) { *r = (i == 0 || i == 2) ? gid : gid + 8; *col = i < 2 ? tig : tig + 4; return; }
    if (i8 && c->K == 16) { *r = i < 4 ? gid : gid + 8; *col = tig * 4 + (i & 3); return; }
    if (i8) {                                                             /* m16n8k32 */
      *r = (i < 4 || (i >= 8 && i < 12)) ? gid : gid + 8;
      *col = tig * 4 + (i & 3) + (i >= 8 ? 16 : 0);
      return;
    }
    if (c->K == 8) { *r = i < 2 ? gid : gid + 8; *col = tig * 2 + (i & 1); return; }
    *r = (i < 2 || (i >= 4 && i < 6)) ? gid : gid + 8;                    /* m16n8k16 */
    *col = tig * 2 + (i & 1) + (i >= 4 ? 8 : 0);
    return;
  }
  *col = gid;
  if (c->ta == T_F64 || (tf && c->K == 4)) *r = tig;
  else if (tf) *r = i == 0 ? tig : tig + 4;
  else if (i8 && c->K == 32) *r = tig * 4 + (i & 3) + (i >= 4 ? 16 : 0);
  else if (i8) *r = tig * 4 + i;
  else if (c->K == 8) *r = tig * 2 + i;
  else *r = tig * 2 + (i & 1) + (i >= 2 ? 8 : 0);
}

/* Put element value bits v at element i of lane l's registers (nper elements a register). */
static void put(uint8_t *buf, unsigned regs, unsigned rbytes, unsigned l, unsigned i, enum ty t,
                uint64_t v)
{
  unsigned eb = ty_bytes(t);
  memcpy(buf + (size_t)l * regs * rbytes + (size_t)i * eb, &v, eb);
}

static uint64_t get(const uint8_t *buf, unsigned regs, unsigned rbytes, unsigned l, unsigned i,
                    enum ty t)
{
  uint64_t v = 0;
  memcpy(&v, buf + (size_t)l * regs * rbytes + (size_t)i * ty_bytes(t), ty_bytes(t));
  return v;
}

static long rnd(long lo, long hi)
{
  return lo + (long)(random() % (unsigned long)(hi - lo + 1));
}

static void run_mma_case(const struct mcase *c)
{
  unsigned na = c->M * c->K / 32, nb = c->K * c->N / 32, nc = c->M * c->N / 32;
  unsigned rb = c->ta == T_F64 ? 8 : 4;                       /* register bytes */
  unsigned ra = na * ty_bytes(c->ta) / rb, rbb = nb * ty_bytes(c->tb) / rb;
  unsigned rc = nc * ty_bytes(c->tc) / rb, rd = nc * ty_bytes(c->td) / rb;
  long am[32][32], bm[32][32], cm[32][32];
  size_t sa = 32u * ra * rb, sb = 32u * rbb * rb, sc = 32u * rc * rb, sd = 32u * rd * rb;
  uint8_t *ba = calloc(1, sa), *bb = calloc(1, sb), *bc = calloc(1, sc);
  ck_assert(ba && bb && bc);
  int i8 = c->ta == T_S8 || c->ta == T_U8;
  for (unsigned r = 0; r < c->M; r++)
    for (unsigned k = 0; k < c->K; k++)
      am[r][k] = c->ta == T_S8 ? rnd(-128, 127) : c->ta == T_U8 ? rnd(0, 255) : rnd(-8, 8);
  for (unsigned k = 0; k < c->K; k++)
    for (unsigned n = 0; n < c->N; n++)
      bm[k][n] = c->tb == T_S8 ? rnd(-128, 127) : c->tb == T_U8 ? rnd(0, 255) : rnd(-8, 8);
  for (unsigned r = 0; r < c->M; r++)
    for (unsigned n = 0; n < c->N; n++)   /* integers: near the limits, to wrap and saturate */
      cm[r][n] = !i8 ? rnd(-64, 64) : (r + n) % 3 == 0 ? INT32_MAX - rnd(0, 100000)
                 : (r + n) % 3 == 1 ? INT32_MIN + rnd(0, 100000) : rnd(-100000, 100000);
  for (unsigned l = 0; l < 32; l++) {
    unsigned r, k;
    for (unsigned i = 0; i < na; i++) {
      isa_coord(c, 'a', l, i, &r, &k);
      put(ba, ra, rb, l, i, c->ta, enc(c->ta, am[r][k]));
    }
    for (unsigned i = 0; i < nb; i++) {
      isa_coord(c, 'b', l, i, &k, &r);
      put(bb, rbb, rb, l, i, c->tb, enc(c->tb, bm[k][r]));
    }
    for (unsigned i = 0; i < nc; i++) {
      isa_coord(c, 'c', l, i, &r, &k);
      put(bc, rc, rb, l, i, c->tc, enc(c->tc, cm[r][k]));
    }
  }
  const char *pa = e2e_write(e2e_fmt("%s.a", c->kernel), ba, sa);
  const char *pb = e2e_write(e2e_fmt("%s.b", c->kernel), bb, sb);
  const char *pc = e2e_write(e2e_fmt("%s.c", c->kernel), bc, sc);
  const char *pd = e2e_tmp(e2e_fmt("%s.d", c->kernel));
  const char *bt = c->ta == T_F64 ? "f64" : "u32";
  unsigned div = rb;
  struct e2e_run *run = e2e_emu(
      e2e_kernel("mma.cu"), "--kernel", c->kernel, "--grid", "1", "--block", "32", A,
      e2e_fmt("%sbuf:%zu:file=%s", bt, sa / div, pa), A, e2e_fmt("%sbuf:%zu:file=%s", bt, sb / div, pb),
      A, e2e_fmt("%sbuf:%zu:file=%s", bt, sc / div, pc), A, e2e_fmt("%sbuf:%zu:zero", bt, sd / div),
      "--dump", e2e_fmt("3=%s", pd), "--json", NULL);
  e2e_expect_ok(run);
  const uint8_t *got = e2e_read(pd, sd);
  for (unsigned l = 0; l < 32; l++)
    for (unsigned i = 0; i < nc; i++) {
      unsigned r, n;
      isa_coord(c, 'c', l, i, &r, &n);
      long long s = cm[r][n];
      for (unsigned k = 0; k < c->K; k++)
        s += (long long)am[r][k] * bm[k][n];
      if (i8 && c->sat)
        s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
      uint64_t want = i8 ? (uint32_t)(int64_t)s : enc(c->td, (long)s);
      uint64_t have = get(got, rd, rb, l, i, c->td);
      ck_assert_msg(have == want, "%s: lane %u element %u (D[%u][%u]): got 0x%llx, expected 0x%llx "
                    "(%lld)", c->kernel, l, i, r, n, (unsigned long long)have,
                    (unsigned long long)want, s);
    }
  free(ba);
  free(bb);
  free(bc);
}

START_TEST(mma_sync_fragments_match_the_isa)
{
  static const struct mcase cases[] = {
    {"mma_f16_k16", 16, 8, 16, T_F16, T_F16, T_F32, T_F32, 0},
    {"mma_f16_k8", 16, 8, 8, T_F16, T_F16, T_F32, T_F32, 0},
    {"mma_f16_k16_f16acc", 16, 8, 16, T_F16, T_F16, T_F16, T_F16, 0},
    {"mma_bf16_k16", 16, 8, 16, T_BF16, T_BF16, T_F32, T_F32, 0},
    {"mma_bf16_k8", 16, 8, 8, T_BF16, T_BF16, T_F32, T_F32, 0},
    {"mma_tf32_k8", 16, 8, 8, T_TF32, T_TF32, T_F32, T_F32, 0},
    {"mma_tf32_k4", 16, 8, 4, T_TF32, T_TF32, T_F32, T_F32, 0},
    {"mma_f64", 8, 8, 4, T_F64, T_F64, T_F64, T_F64, 0},
    {"mma_s8_k32", 16, 8, 32, T_S8, T_S8, T_S32, T_S32, 0},
    {"mma_u8s8_k32_sat", 16, 8, 32, T_U8, T_S8, T_S32, T_S32, 1},
    {"mma_s8u8_k16", 16, 8, 16, T_S8, T_U8, T_S32, T_S32, 0},
    {"mma_s8_m8n8k16", 8, 8, 16, T_S8, T_S8, T_S32, T_S32, 0},
    {"mma_u8_m8n8k16_sat", 8, 8, 16, T_U8, T_U8, T_S32, T_S32, 1},
  };
  srandom(18);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    run_mma_case(&cases[i]);
}
END_TEST

/* Where a sum is not exact, D is what the H100's tensor cores give, by the model of
   Khattak and Mikaitis ("Accurate Models of NVIDIA Tensor Cores", arXiv:2512.07004, checked
   bit for bit on an H100): the products are aligned to the largest term with two extra bits,
   the bits below are dropped, and the f32 sum is truncated. So 1 + 1.5 * 2^-24 is 1 (not the
   nearest float, 1 + 2^-23), and 1 + 16 * 2^-26 is 1 (not the exact 1 + 2^-22). */
START_TEST(mma_rounds_as_the_h100)
{
  static const struct mcase c = {"mma_f16_k16", 16, 8, 16, T_F16, T_F16, T_F32, T_F32, 0};
  uint32_t a[128] = {0}, b[64] = {0}, cc[128] = {0};
  const float one = 1.0f;
  for (unsigned l = 0; l < 32; l++) {
    unsigned r, k;
    for (unsigned i = 0; i < 8; i++) {
      isa_coord(&c, 'a', l, i, &r, &k);
      uint16_t h = r == 0 && k == 0 ? 0x0e00 /* 1.5 * 2^-12 */ : r == 1 ? 0x0800 /* 2^-13 */ : 0;
      put((uint8_t *)a, 4, 4, l, i, T_F16, h);
    }
    for (unsigned i = 0; i < 4; i++) {
      isa_coord(&c, 'b', l, i, &k, &r);
      uint16_t h = r == 0 && k == 0 ? 0x0c00 /* 2^-12 */ : r == 1 ? 0x0800 : 0;
      put((uint8_t *)b, 2, 4, l, i, T_F16, h);
    }
    for (unsigned i = 0; i < 4; i++) {
      isa_coord(&c, 'c', l, i, &r, &k);
      uint32_t v = 0;
      if ((r == 0 && k == 0) || (r == 1 && k == 1))
        memcpy(&v, &one, 4);
      put((uint8_t *)cc, 4, 4, l, i, T_F32, v);
    }
  }
  const char *pa = e2e_write("round.a", a, sizeof a), *pb = e2e_write("round.b", b, sizeof b);
  const char *pc = e2e_write("round.c", cc, sizeof cc), *pd = e2e_tmp("round.d");
  struct e2e_run *r = e2e_emu(e2e_kernel("mma.cu"), "--kernel", "mma_f16_k16", "--grid", "1",
                              "--block", "32", A, e2e_fmt("u32buf:128:file=%s", pa), A,
                              e2e_fmt("u32buf:64:file=%s", pb), A, e2e_fmt("u32buf:128:file=%s", pc),
                              A, "u32buf:128:zero", "--dump", e2e_fmt("3=%s", pd), "--json", NULL);
  e2e_expect_ok(r);
  const uint32_t *got = e2e_read(pd, 512);
  for (unsigned l = 0; l < 32; l++)
    for (unsigned i = 0; i < 4; i++) {
      unsigned row, col;
      isa_coord(&c, 'c', l, i, &row, &col);
      uint32_t want = (row == 0 && col == 0) || (row == 1 && col == 1) ? 0x3f800000u /* 1 */
                      : row == 0 && col == 1 ? 0x33400000u /* 1.5 * 2^-25 */
                      : row == 1 && col == 0 ? 0x33000000u /* 2^-25 */ : 0;
      ck_assert_msg(got[l * 4 + i] == want, "D[%u][%u]: got 0x%08x, expected 0x%08x", row, col,
                    got[l * 4 + i], want);
    }
}
END_TEST

/* ldmatrix and stmatrix: 4 matrices of 8 x 8 distinct 16-bit values; lane l's register q
   holds row l / 4, columns 2 (l % 4), +1 of matrix q (.trans: rows 2 (l % 4), +1 of column
   l / 4), the lower column (row) in the low half. */
START_TEST(ldmatrix_and_stmatrix_match_the_isa)
{
  uint16_t src[256];
  for (unsigned i = 0; i < 256; i++)
    src[i] = (uint16_t)(0x1000 + i * 7);
  const char *ps = e2e_write("ldsm.src", src, sizeof src), *po = e2e_tmp("ldsm.out");
  struct e2e_run *r = e2e_emu(e2e_kernel("mma.cu"), "--kernel", "ldsm", "--grid", "1", "--block",
                              "32", A, e2e_fmt("u16buf:256:file=%s", ps), A, "u32buf:768:zero",
                              "--dump", e2e_fmt("1=%s", po), "--json", NULL);
  e2e_expect_ok(r);
  const uint32_t *got = e2e_read(po, 768 * 4);
  static const unsigned nm[6] = {1, 2, 4, 1, 2, 4};
  for (unsigned v = 0; v < 6; v++)
    for (unsigned l = 0; l < 32; l++)
      for (unsigned q = 0; q < 4; q++) {
        uint32_t want = 0;
        if (q < nm[v])
          for (unsigned h = 0; h < 2; h++) {
            unsigned row = v >= 3 ? 2 * (l % 4) + h : l / 4, col = v >= 3 ? l / 4 : 2 * (l % 4) + h;
            want |= (uint32_t)src[q * 64 + row * 8 + col] << (16 * h);
          }
        ck_assert_msg(got[v * 128 + l * 4 + q] == want, "ldmatrix variant %u lane %u register %u: got "
                      "0x%08x, expected 0x%08x", v, l, q, got[v * 128 + l * 4 + q], want);
      }
  /* stmatrix: the inverse */
  uint32_t in[128];
  for (unsigned i = 0; i < 128; i++)
    in[i] = 0x00010001u * (i + 1) + 0x10000000u;
  const char *pi = e2e_write("stsm.in", in, sizeof in), *pt = e2e_tmp("stsm.out");
  r = e2e_emu(e2e_kernel("mma.cu"), "--kernel", "stsm", "--grid", "1", "--block", "32", A,
              e2e_fmt("u32buf:128:file=%s", pi), A, "u16buf:1536:zero", "--dump",
              e2e_fmt("1=%s", pt), "--json", NULL);
  e2e_expect_ok(r);
  const uint16_t *st = e2e_read(pt, 1536 * 2);
  for (unsigned v = 0; v < 6; v++)
    for (unsigned q = 0; q < 4; q++)
      for (unsigned row = 0; row < 8; row++)
        for (unsigned col = 0; col < 8; col++) {
          uint16_t want = 0;
          if (q < nm[v]) {
            unsigned l = v >= 3 ? col * 4 + row / 2 : row * 4 + col / 2, h = v >= 3 ? row & 1 : col & 1;
            want = (uint16_t)(in[l * 4 + q] >> (16 * h));
          }
          uint16_t have = st[v * 256 + q * 64 + row * 8 + col];
          ck_assert_msg(have == want, "stmatrix variant %u matrix %u (%u,%u): got 0x%04x, expected 0x%04x",
                        v, q, row, col, have, want);
        }
}
END_TEST

struct wcase {
  const char *kernel;
  unsigned M, N, K;
  enum ty t, tc;
  int acol, bcol, dcol;
};

/* wmma: D = A * B + C through load_matrix_sync / mma_sync / store_matrix_sync, with the
   leading dimensions of mma.cu's wmma_tile. */
static void run_wmma_case(const struct wcase *c)
{
  unsigned lda = c->acol ? c->M + 8 : c->K + 8, ldb = c->bcol ? c->K + 8 : c->N + 8;
  unsigned ldc = c->dcol ? c->M + 4 : c->N + 4;
  size_t na = (size_t)lda * (c->acol ? c->K : c->M), nb = (size_t)ldb * (c->bcol ? c->N : c->K);
  size_t ncd = (size_t)ldc * (c->dcol ? c->N : c->M);
  unsigned eb = ty_bytes(c->t), cb = ty_bytes(c->tc);
  uint8_t *ba = calloc(na, eb), *bb = calloc(nb, eb), *bc = calloc(ncd, cb);
  long *am = calloc(na, sizeof *am), *bm = calloc(nb, sizeof *bm), *cm = calloc(ncd, sizeof *cm);
  ck_assert(ba && bb && bc && am && bm && cm);
  int i8 = c->t == T_S8 || c->t == T_U8;
  for (size_t i = 0; i < na; i++) {
    am[i] = c->t == T_S8 ? rnd(-128, 127) : c->t == T_U8 ? rnd(0, 255) : rnd(-8, 8);
    uint64_t v = enc(c->t, am[i]);
    memcpy(ba + i * eb, &v, eb);
  }
  for (size_t i = 0; i < nb; i++) {
    bm[i] = c->t == T_S8 ? rnd(-128, 127) : c->t == T_U8 ? rnd(0, 255) : rnd(-8, 8);
    uint64_t v = enc(c->t, bm[i]);
    memcpy(bb + i * eb, &v, eb);
  }
  for (size_t i = 0; i < ncd; i++) {
    cm[i] = i8 ? rnd(-1000000, 1000000) : rnd(-64, 64);
    uint64_t v = enc(c->tc, cm[i]);
    memcpy(bc + i * cb, &v, cb);
  }
  static const char *const bufty[] = {"f16", "bf16", "f32", "f32", "f64", "i8", "u8", "i32"};
  const char *pa = e2e_write(e2e_fmt("%s.a", c->kernel), ba, na * eb);
  const char *pb = e2e_write(e2e_fmt("%s.b", c->kernel), bb, nb * eb);
  const char *pc = e2e_write(e2e_fmt("%s.c", c->kernel), bc, ncd * cb);
  const char *pd = e2e_tmp(e2e_fmt("%s.d", c->kernel)), *pfa = e2e_tmp(e2e_fmt("%s.fa", c->kernel));
  const char *pfb = e2e_tmp(e2e_fmt("%s.fb", c->kernel));
  struct e2e_run *r = e2e_emu(
      e2e_kernel("mma.cu"), "--kernel", c->kernel, "--grid", "1", "--block", "32", A,
      e2e_fmt("%sbuf:%zu:file=%s", bufty[c->t], na, pa), A, e2e_fmt("%sbuf:%zu:file=%s", bufty[c->t], nb, pb),
      A, e2e_fmt("%sbuf:%zu:file=%s", bufty[c->tc], ncd, pc), A, e2e_fmt("%sbuf:%zu:zero", bufty[c->tc], ncd),
      A, e2e_fmt("%sbuf:512:zero", bufty[c->t]), A, e2e_fmt("%sbuf:512:zero", bufty[c->t]), A,
      e2e_fmt("%sbuf:256:zero", bufty[c->tc]), "--dump", e2e_fmt("3=%s", pd), "--dump",
      e2e_fmt("4=%s", pfa), "--dump", e2e_fmt("5=%s", pfb), "--json", NULL);
  e2e_expect_ok(r);
  if (!strcmp(c->kernel, "wmma_f16_rc")) {
    /* what ptxas makes of it (SASS of mma.cu, sm_90): two HMMA.16816; the fragments loaded
       with 4 LDG.32 (A), 4 LDG.32 (B), 4 LDG.64 (C); 32 + 8 scalar stores of the fragments and
       4 STG.64 of D */
    ck_assert_int_eq(e2e_jint(r, "metrics/smsp__inst_executed_pipe_tensor.sum/value"), 2);
    ck_assert_int_eq(e2e_jint(r, "metrics/smsp__sass_inst_executed_op_global_ld.sum/value"), 12);
    ck_assert_int_eq(e2e_jint(r, "metrics/smsp__sass_inst_executed_op_global_st.sum/value"), 44);
  }
  const uint8_t *got = e2e_read(pd, ncd * cb);
  for (unsigned m = 0; m < c->M; m++)
    for (unsigned n = 0; n < c->N; n++) {
      size_t ci = c->dcol ? (size_t)n * ldc + m : (size_t)m * ldc + n;
      long long s = cm[ci];
      for (unsigned k = 0; k < c->K; k++)
        s += (long long)am[c->acol ? (size_t)k * lda + m : (size_t)m * lda + k] *
             bm[c->bcol ? (size_t)n * ldb + k : (size_t)k * ldb + n];
      uint64_t want = i8 ? (uint32_t)(int64_t)s : enc(c->tc, (long)s), have = 0;
      memcpy(&have, got + ci * cb, cb);
      ck_assert_msg(have == want, "%s: D[%u][%u]: got 0x%llx, expected 0x%llx (%lld)", c->kernel, m,
                    n, (unsigned long long)have, (unsigned long long)want, s);
    }
  if (c->t == T_F16 && c->M == 16 && !c->acol) {
    /* sm_90's A fragment (SASS of wmma::load_matrix_sync): element i of lane l is A[g + 8 *
       ((i / 2) % 2)][2 t + i % 2 + 8 * ((i / 4) % 2)], g = l / 4, t = l % 4, 16 halves with
       the second 8 repeating the first */
    const uint16_t *fa = e2e_read(pfa, 512 * 2);
    for (unsigned l = 0; l < 32; l++)
      for (unsigned i = 0; i < 16; i++) {
        unsigned row = l / 4 + 8 * ((i / 2) % 2), col = 2 * (l % 4) + i % 2 + 8 * ((i / 4) % 2);
        uint16_t want = (uint16_t)enc(T_F16, am[(size_t)row * lda + col]);
        ck_assert_msg(fa[l * 16 + i] == want, "%s: A fragment lane %u element %u: got 0x%04x, "
                      "expected A[%u][%u] = 0x%04x", c->kernel, l, i, fa[l * 16 + i], row, col, want);
      }
  }
  if (c->t == T_TF32 && !c->bcol) {
    /* sm_90's tf32 B fragment, row major (SASS): element i of lane l is B[t + 4 (i % 2)][g +
       8 (i / 2)]; column major it would be B[t + 4 (i / 2)][g + 8 (i % 2)] */
    const uint32_t *fb = e2e_read(pfb, 512 * 4);
    for (unsigned l = 0; l < 32; l++)
      for (unsigned i = 0; i < 4; i++) {
        unsigned k = l % 4 + 4 * (i % 2), n = l / 4 + 8 * (i / 2);
        uint32_t want = (uint32_t)enc(T_TF32, bm[(size_t)k * ldb + n]);
        ck_assert_msg(fb[l * 4 + i] == want, "%s: B fragment lane %u element %u: got 0x%08x, "
                      "expected B[%u][%u] = 0x%08x", c->kernel, l, i, fb[l * 4 + i], k, n, want);
      }
  }
  free(ba);
  free(bb);
  free(bc);
  free(am);
  free(bm);
  free(cm);
}

/* wmma's tf32 m16n16k8 is two HMMA.1684 in a row on sm_90 (ptxas), mma.sync's m16n8k8 one
   HMMA.1688: the tensor cores round the sum of the first four products to f32 (toward zero)
   before the next four come in. A row {1, 2^-24, 0, 0, 2^-24, 0, 0, 0} times ones: 1 + 2^-24
   drops to 1, and 1 + 2^-24 again, so D = 1 (in one block of eight it would be 1 + 2^-23).
   cuda-samples' simple_wmma_tf32gemm: 3896 words 1 to 30 ULP off the H100's, 5 after. */
START_TEST(wmma_tf32_sums_four_products_at_a_time)
{
  enum { M = 16, N = 16, K = 8, LDA = K + 8, LDB = N + 8, LDC = N + 4 };
  float *a = calloc(M * LDA, 4), *b = calloc(K * LDB, 4), *c = calloc(M * LDC, 4);
  ck_assert(a && b && c);
  for (int r = 0; r < M; r++) {
    a[r * LDA] = 1.0f;
    a[r * LDA + 1] = a[r * LDA + 4] = ldexpf(1.0f, -24);
  }
  for (int i = 0; i < K * LDB; i++)
    b[i] = 1.0f;
  const char *pa = e2e_write("tf.a", a, M * LDA * 4), *pb = e2e_write("tf.b", b, K * LDB * 4);
  const char *pc = e2e_write("tf.c", c, M * LDC * 4), *pd = e2e_tmp("tf.d");
  struct e2e_run *r = e2e_emu(e2e_kernel("mma.cu"), "--kernel", "wmma_tf32", "--grid", "1",
                              "--block", "32", A, e2e_fmt("f32buf:%d:file=%s", M * LDA, pa), A,
                              e2e_fmt("f32buf:%d:file=%s", K * LDB, pb), A,
                              e2e_fmt("f32buf:%d:file=%s", M * LDC, pc), A,
                              e2e_fmt("f32buf:%d:zero", M * LDC), A, "f32buf:512:zero", A,
                              "f32buf:512:zero", A, "f32buf:256:zero", "--dump",
                              e2e_fmt("3=%s", pd), "--json", NULL);
  e2e_expect_ok(r);
  float *d = e2e_read(pd, M * LDC * 4);
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++)
      ck_assert_msg(d[i * LDC + j] == 1.0f, "D[%d][%d] = %a, expected 1 (two blocks of four)", i,
                    j, (double)d[i * LDC + j]);
  free(a);
  free(b);
  free(c);
}
END_TEST

/* The H100's tensor cores keep a product unnormalised (its inputs' significands multiplied, at
   the sum of their exponents) when they align a block's terms, and a zero C takes no part in
   the alignment. wmma_tf32_zero_c (kernels/wmma_tf32_gemm.cu) adds 0.375 * 0.375 = 2.25 * 2^-4
   and -2^-15 * 2^-14 = -2^-29 to C = 0: aligned to 2^-4 with 2 extra bits the grid is 2^-29,
   so the small product stays and the sum truncated toward zero is 0.140625 - 2^-26; aligned
   to the normalised 1.125 * 2^-3 (as the emulator did when C was 0 and the products were
   below 1/2) it drops out and D was 0.140625. With that, cuda-samples' simple_wmma_tf32gemm
   had 5 words up to 24 ULP off the H100's; the emulator's own outputs change in exactly those
   5 words and by that much with the fix (corpus.py's inputs). */
START_TEST(wmma_tf32_from_zero_keeps_the_carry_bit)
{
  const char *pd = e2e_tmp("zc.d");
  struct e2e_run *r = e2e_emu(e2e_kernel("wmma_tf32_gemm.cu"), "--kernel", "wmma_tf32_zero_c",
                              "--grid", "1", "--block", "32", A, "f32buf:256:zero", "--dump",
                              e2e_fmt("0=%s", pd), "--json", NULL);
  e2e_expect_ok(r);
  const uint32_t *d = e2e_read(pd, 256 * 4);
  for (int i = 0; i < 256; i++)
    ck_assert_msg(d[i] == 0x3e0fffffu, "D[%d][%d] = 0x%08x, expected 0x3e0fffff (0.140625 - 2^-26)",
                  i / 16, i % 16, d[i]);
}
END_TEST

START_TEST(wmma_tiles_multiply)
{
  static const struct wcase cases[] = {
    {"wmma_f16_rc", 16, 16, 16, T_F16, T_F32, 0, 1, 0},
    {"wmma_f16_cr", 16, 16, 16, T_F16, T_F32, 1, 0, 1},
    {"wmma_f16_rr_h", 16, 16, 16, T_F16, T_F16, 0, 0, 0},
    {"wmma_f16_m32", 32, 8, 16, T_F16, T_F32, 0, 1, 0},
    {"wmma_f16_m8", 8, 32, 16, T_F16, T_F32, 1, 1, 1},
    {"wmma_bf16", 16, 16, 16, T_BF16, T_F32, 0, 1, 0},
    {"wmma_tf32", 16, 16, 8, T_TF32, T_F32, 0, 0, 0},
    {"wmma_f64", 8, 8, 4, T_F64, T_F64, 0, 1, 0},
    {"wmma_s8", 16, 16, 16, T_S8, T_S32, 0, 1, 0},
    {"wmma_u8", 16, 16, 16, T_U8, T_S32, 1, 0, 1},
  };
  srandom(1818);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    run_wmma_case(&cases[i]);
}
END_TEST

/* The wmma GEMM of NVIDIA's CUDA 9 blog post, unchanged (K loop, fill_fragment, col-major
   loads, an epilogue on the fragment's elements): 96 x 64 x 48, small integers, C = 2 A B - C. */
START_TEST(wmma_blog_gemm_multiplies)
{
  enum { M = 96, N = 64, K = 48 };
  uint16_t *a = calloc(M * K, 2), *b = calloc(K * N, 2);
  float *c = calloc(M * N, 4);
  long *am = calloc(M * K, sizeof *am), *bm = calloc(K * N, sizeof *bm);
  ck_assert(a && b && c && am && bm);
  srandom(96);
  for (unsigned i = 0; i < M * K; i++)
    a[i] = (uint16_t)enc(T_F16, am[i] = rnd(-6, 6));
  for (unsigned i = 0; i < K * N; i++)
    b[i] = (uint16_t)enc(T_F16, bm[i] = rnd(-6, 6));
  for (unsigned i = 0; i < M * N; i++)
    c[i] = (float)rnd(-50, 50);
  const char *pa = e2e_write("blog.a", a, M * K * 2), *pb = e2e_write("blog.b", b, K * N * 2);
  const char *pc = e2e_write("blog.c", c, M * N * 4), *pd = e2e_tmp("blog.d");
  /* grid: M / 64 x N / 64 blocks of 128 x 4 threads cover M / 16 x N / 16 warp tiles */
  struct e2e_run *r = e2e_emu(e2e_kernel("mma.cu"), "--kernel", "wmma_blog_gemm", "--grid",
                              e2e_fmt("%d,%d", (M + 63) / 64, (N + 63) / 64), "--block", "128,4",
                              A, e2e_fmt("f16buf:%d:file=%s", M * K, pa), A,
                              e2e_fmt("f16buf:%d:file=%s", K * N, pb), A,
                              e2e_fmt("f32buf:%d:file=%s", M * N, pc), A, e2e_fmt("i32:%d", M), A,
                              e2e_fmt("i32:%d", N), A, e2e_fmt("i32:%d", K), A, "f32:2", A,
                              "f32:-1", "--dump", e2e_fmt("2=%s", pd), "--json", NULL);
  e2e_expect_ok(r);
  const float *got = e2e_read(pd, M * N * 4);
  for (unsigned m = 0; m < M; m++)
    for (unsigned n = 0; n < N; n++) {
      long s = 0;
      for (unsigned k = 0; k < K; k++)
        s += am[k * M + m] * bm[n * K + k];
      float want = 2.0f * (float)s - c[n * M + m];
      ck_assert_msg(got[n * M + m] == want, "C[%u][%u]: got %g, expected %g", m, n,
                    (double)got[n * M + m], (double)want);
    }
  free(a);
  free(b);
  free(c);
  free(am);
  free(bm);
}
END_TEST

/* mma.sync run by half of a warp: .aligned is violated, and the emulator says so. */
START_TEST(divergent_mma_is_reported)
{
  struct e2e_run *r = e2e_emu(e2e_kernel("mma.cu"), "--kernel", "mma_diverged", "--grid", "1",
                              "--block", "32", A, "u32buf:32:iota", A, "u32buf:64:zero", "--json",
                              NULL);
  e2e_expect_outcome(r, 1, "fault");
  ck_assert_str_eq(e2e_jstr(r, "fault/kind"), "sync_mask");
  ck_assert_int_eq(e2e_jint(r, "fault/source/line"), e2e_marker_line(e2e_kernel("mma.cu"), "DIVERGED"));
  const char *msg = e2e_jstr(r, "fault/message");
  ck_assert_msg(strstr(msg, "without lanes 16-31") && strstr(msg, ".aligned"), "message: %s", msg);
}
END_TEST

void e2e_add_mma_tests(Suite *s)
{
  TCase *tc = tcase_create("mma");
  tcase_add_checked_fixture(tc, e2e_setup, e2e_teardown);
  tcase_set_timeout(tc, MMA_TIMEOUT_S);
  if (!e2e_have_nvcc()) {
    printf("e2e: nvcc not found: SKIPPING the mma test case\n");
  } else {
    tcase_add_test(tc, mma_sync_fragments_match_the_isa);
    tcase_add_test(tc, mma_rounds_as_the_h100);
    tcase_add_test(tc, ldmatrix_and_stmatrix_match_the_isa);
    tcase_add_test(tc, wmma_tiles_multiply);
    tcase_add_test(tc, wmma_tf32_sums_four_products_at_a_time);
    tcase_add_test(tc, wmma_tf32_from_zero_keeps_the_carry_bit);
    tcase_add_test(tc, wmma_blog_gemm_multiplies);
    tcase_add_test(tc, divergent_mma_is_reported);
  }
  suite_add_tcase(s, tc);
}
