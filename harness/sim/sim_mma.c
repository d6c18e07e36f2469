/* sim_mma.c: tensor-core instructions: wmma.load/store/mma, mma.sync, ldmatrix, stmatrix.
 *
 * A warp holds a matrix as fragments: lane l keeps some of its elements in its registers,
 * packed (16-bit elements two to a register, the first in the low half; 8-bit ones four to a
 * register; f32, s32 and tf32 one; f64 one to a 64-bit register). sim_mma_coord says which
 * element is where. For mma.sync and ldmatrix that is the PTX ISA's ("Matrix fragments for
 * mma.m16n8k16" and the others: groupID = lane / 4, threadID_in_group = lane % 4); for wmma
 * the ISA leaves it to the target, and these are the layouts ptxas gives sm_80/sm_90, read
 * off its SASS (nvdisasm of wmma::load_matrix_sync from a matrix with a wide stride, for
 * every shape, type and layout): a wmma fragment is the mma.sync fragments of the m16n8 tiles
 * that make up the wmma tile (m8n32k16's transposed), the f16 A and B fragments of sm_70 hold
 * their distinct elements two or four times over, and the layout in memory does not change
 * which element is where (ptxas transposes with MOVM), except for tf32 B, whose elements come
 * in another order when B is row major.
 *
 * mma computes D = A * B + C from the whole warp's fragments. Arithmetic:
 *  - integers exactly, in 64 bits; then D wraps to 32 bits, or clamps with .satfinite;
 *  - f16, bf16 and tf32 (whose low 13 bits are ignored) as the H100's tensor cores do it, by
 *    the published model of them (tc_block below): exact products, summed in blocks of 16 (tf32:
 *    8, or 4) aligned to the largest term with 2 extra bits and truncated below, each block's
 *    result normalised toward zero for f32 (to nearest even for f16) and carried into the
 *    next; NaN and infinities as IEEE would have them, NaN canonical. Where the exact sum of
 *    a block fits D's format (small integers, values on a common grid) that is the exact
 *    result; elsewhere it is what the model says the H100 gives, which the GPU proof
 *    (tests/gpu/prove.sh) checks;
 *  - f64 as a chain of fused multiply-adds in k order, starting from C: exact where exact.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ptx/ptx_mma.h"
#include "sim/sim_alu.h"
#include "sim/sim_mma.h"

#define REG(r) (w->regs + (size_t)(r) * W)
#define MAXD 32                         /* largest M, N or K */

enum eclass { E16, E8, E32, E64 };      /* how elements are packed */

static enum eclass eclass_of(enum ptx_type t)
{
  switch (t) {
  case PTX_T_F16: case PTX_T_BF16: case PTX_T_B16: return E16;
  case PTX_T_S8: case PTX_T_U8: return E8;
  case PTX_T_F64: return E64;
  default: return E32;
  }
}

static unsigned per_reg(enum eclass c) { return c == E16 ? 2 : c == E8 ? 4 : 1; }
static unsigned esize(enum eclass c) { return c == E16 ? 2 : c == E8 ? 1 : c == E64 ? 8 : 4; }

void sim_mma_coord(const struct ptx_inst *in, char which, enum ptx_type t, unsigned l, unsigned i,
                   unsigned *row, unsigned *col)
{
  enum ptx_mma_shape s = PTX_MMA_SHAPE(in->mma);
  enum eclass ec = eclass_of(t);
  unsigned g = (l & 31) >> 2, q = l & 3, r = 0, c = 0;
  int tf = t == PTX_T_TF32;
  if (in->op == PTX_OP_WMMA) {
    if (which == 'c') {
      switch (s) {
      case PTX_MMA_M32N8K16: r = g + 8 * (i >> 1); c = 2 * q + (i & 1); break;
      case PTX_MMA_M8N32K16: r = 2 * q + (i & 1); c = g + 8 * (i >> 1); break;
      case PTX_MMA_M8N8K4: r = g; c = 2 * q + i; break;
      default: r = g + 8 * ((i >> 1) & 1); c = 2 * q + (i & 1) + 8 * (i >> 2); break;
      }
    } else if (ec == E64) {
      r = which == 'a' ? g : q;
      c = which == 'a' ? q : g;
    } else if (tf) {
      /* B's order follows its layout: a row-major B fragment walks k first */
      unsigned bcol = in->sub == PTX_MMA_MMA ? PTX_MMA_BCOL(in->mma) : PTX_MMA_ACOL(in->mma);
      if (which == 'a') { r = g + 8 * (i & 1); c = q + 4 * (i >> 1); }
      else if (bcol) { r = q + 4 * (i >> 1); c = g + 8 * (i & 1); }
      else { r = q + 4 * (i & 1); c = g + 8 * (i >> 1); }
    } else if (ec == E8) {
      unsigned k = 4 * q + (i & 3);
      if (which == 'a') {
        c = k;
        r = s == PTX_MMA_M16N16K16 ? g + 8 * (i >> 2)
          : s == PTX_MMA_M32N8K16 ? g + 8 * ((i >> 2) & 1) + 16 * (i >> 3) : g;
      } else {
        r = k;
        c = s == PTX_MMA_M16N16K16 ? g + 8 * (i >> 2)
          : s == PTX_MMA_M8N32K16 ? g + 8 * ((i >> 2) & 1) + 16 * (i >> 3) : g;
      }
    } else if (which == 'a') {   /* f16, bf16 */
      if (s == PTX_MMA_M8N32K16) {
        r = g;
        c = 2 * q + (i & 1) + 8 * ((i >> 1) & 1);
      } else {
        r = g + 8 * ((i >> 1) & 1) + (s == PTX_MMA_M32N8K16 ? 16 * ((i >> 3) & 1) : 0);
        c = 2 * q + (i & 1) + 8 * ((i >> 2) & 1);
      }
    } else {
      if (s == PTX_MMA_M8N32K16) {
        r = 2 * q + (i & 1) + 8 * ((i >> 2) & 1);
        c = g + 8 * ((i >> 1) & 1) + 16 * ((i >> 3) & 1);
      } else {
        r = 2 * q + (i & 1) + 8 * ((i >> 1) & 1);
        c = s == PTX_MMA_M32N8K16 ? g : g + 8 * ((i >> 2) & 1);
      }
    }
  } else if (which == 'c') {   /* mma.sync */
    if (s == PTX_MMA_M8N8K4 || s == PTX_MMA_M8N8K16) { r = g; c = 2 * q + i; }
    else { r = g + 8 * (i >> 1); c = 2 * q + (i & 1); }
  } else if (which == 'a') {
    switch (s) {
    case PTX_MMA_M8N8K4: r = g; c = q; break;
    case PTX_MMA_M8N8K16: r = g; c = 4 * q + i; break;
    case PTX_MMA_M16N8K4: r = g + 8 * i; c = q; break;
    case PTX_MMA_M16N8K8:
      if (tf) { r = g + 8 * (i & 1); c = q + 4 * (i >> 1); }
      else { r = g + 8 * (i >> 1); c = 2 * q + (i & 1); }
      break;
    case PTX_MMA_M16N8K16:
      if (ec == E8) { r = g + 8 * (i >> 2); c = 4 * q + (i & 3); }
      else { r = g + 8 * ((i >> 1) & 1); c = 2 * q + (i & 1) + 8 * (i >> 2); }
      break;
    default: /* m16n8k32 */
      r = g + 8 * ((i >> 2) & 1); c = 4 * q + (i & 3) + 16 * (i >> 3);
      break;
    }
  } else {
    c = g;
    switch (s) {
    case PTX_MMA_M8N8K4: case PTX_MMA_M16N8K4: r = q; break;
    case PTX_MMA_M8N8K16: r = 4 * q + i; break;
    case PTX_MMA_M16N8K8: r = tf ? q + 4 * i : 2 * q + i; break;
    case PTX_MMA_M16N8K16: r = ec == E8 ? 4 * q + i : 2 * q + (i & 1) + 8 * (i >> 1); break;
    default: r = 4 * q + (i & 3) + 16 * (i >> 2); break;
    }
  }
  *row = r;
  *col = c;
}

/* The register holding element i of fragment operand o (PTX_NOREG for a sink). */
static uint32_t frag_reg(const struct ptx_operand *o, unsigned i, enum eclass ec)
{
  unsigned k = i / per_reg(ec);
  if (o->kind == PTX_OPD_REG)
    return k ? PTX_NOREG : o->reg;
  return k < o->nvec ? o->vreg[k] : PTX_NOREG;
}

static uint64_t get_elem(const struct sim_warp *w, unsigned W, const struct ptx_operand *o,
                         enum eclass ec, unsigned l, unsigned i)
{
  uint32_t r = frag_reg(o, i, ec);
  if (r == PTX_NOREG)
    return 0;
  uint64_t v = REG(r)[l];
  switch (ec) {
  case E16: return (v >> (16 * (i & 1))) & 0xffffu;
  case E8: return (v >> (8 * (i & 3))) & 0xffu;
  case E32: return v & 0xffffffffu;
  default: return v;
  }
}

static void put_elem(struct sim_warp *w, unsigned W, const struct ptx_operand *o, enum eclass ec,
                     unsigned l, unsigned i, uint64_t v)
{
  uint32_t r = frag_reg(o, i, ec);
  if (r == PTX_NOREG)
    return;
  uint64_t *p = &REG(r)[l];
  switch (ec) {
  case E16: {
    unsigned sh = 16 * (i & 1);
    *p = (*p & ~(0xffffull << sh) & 0xffffffffull) | (v & 0xffffu) << sh;
    break;
  }
  case E8: {
    unsigned sh = 8 * (i & 3);
    *p = (*p & ~(0xffull << sh) & 0xffffffffull) | (v & 0xffu) << sh;
    break;
  }
  case E32: *p = v & 0xffffffffu; break;
  default: *p = v; break;
  }
}

/* Elements in a fragment of operand o, and how many of them are distinct. */
static void frag_size(const struct ptx_inst *in, char which, enum ptx_type t, unsigned nregs,
                      unsigned *n, unsigned *distinct)
{
  unsigned m, nn, k;
  ptx_mma_dims(PTX_MMA_SHAPE(in->mma), &m, &nn, &k);
  unsigned rows = which == 'b' ? k : m, cols = which == 'a' ? k : nn;
  *n = nregs * per_reg(eclass_of(t));
  *distinct = rows * cols / 32;
  if (*distinct > *n)
    *distinct = *n;
}

/* A value of an element of type t as a double (tf32: its 19 upper bits). */
static double to_double(enum ptx_type t, uint64_t v)
{
  switch (t) {
  case PTX_T_F16: return (double)sim_alu_as_f32(sim_alu_f16_to_f32((uint16_t)v));
  case PTX_T_BF16: return (double)sim_alu_as_f32((uint32_t)v << 16);
  case PTX_T_TF32: return (double)sim_alu_as_f32((uint32_t)v & 0xffffe000u);
  case PTX_T_F32: return (double)sim_alu_as_f32((uint32_t)v);
  case PTX_T_F64: return sim_alu_as_f64(v);
  default: return 0;
  }
}

static int64_t to_int(enum ptx_type t, uint64_t v)
{
  switch (t) {
  case PTX_T_S8: return (int8_t)(uint8_t)v;
  case PTX_T_U8: return (uint8_t)v;
  default: return (int32_t)(uint32_t)v;
  }
}

/* ---- the tensor cores' floating-point dot products ----
 * Khattak and Mikaitis, "Accurate Models of NVIDIA Tensor Cores" (arXiv:2512.07004, 2025),
 * checked bit for bit against an H100 on 10^5 random inputs; their MATLAB code
 * (github.com/north-numerical-computing/MATLAB-tensor-core, models/H100TC.m and
 * models/tools/Generic_BFMA_TC.m) is what this follows. K is taken in blocks of 16 products
 * (tf32: 8, or 4 for HMMA.1684), and each block is one fused step: every product is kept
 * unnormalised, as the product of its inputs' significands (in [1, 4)) at the sum of their
 * exponents; the products and the accumulator (when it is not zero) are aligned to the
 * largest of those exponents with 2 extra bits, the bits below dropped, and the integer sum
 * is normalised to D's format, toward zero for f32 and to nearest even for f16. That result
 * is the next block's accumulator. A product whose significand carries (>= 2) thus keeps one
 * bit more than the others when it is the largest term; a zero accumulator takes no part in
 * the alignment (which matters where mma starts from C = 0, as after wmma::fill_fragment). */

/* floor(log2 |x|) of a nonzero x */
static int ilog2d(double x)
{
  int e;
  frexp(x, &e);
  return e - 1;
}

static int bitlen64(uint64_t v)
{
  return v ? 64 - __builtin_clzll(v) : 0;
}

/* One block: c + sum of a[i] * b[i] (n products), in D's format (man_out fraction bits,
   exp_out exponent bits; rne: round to nearest even, else toward zero); in_ebits: the
   inputs' exponent bits. Returns the value (exact in the format). */
static double tc_block(const double *a, const double *b, unsigned n, double c, int in_ebits,
                       int man_out, int exp_out, int rne)
{
  enum { NMAX = MAXD + 1, PRD_MAN = 23, NEAB = 2 };
  const int emin_in = 2 - (1 << (in_ebits - 1)), emin_out = 2 - (1 << (exp_out - 1));
  const int min_align = exp_out == 5 ? -21 : -133;   /* the model's min_exp_limit */
  int any = 0;
  /* each term as an integer significand (PRD_MAN fraction bits) and its exponent */
  int64_t sig[NMAX];
  int ex[NMAX], neg[NMAX], valid[NMAX];
  for (unsigned i = 0; i < n; i++) {
    double r2 = a[i] * b[i];
    valid[i] = r2 != 0;
    neg[i] = r2 < 0;
    if (!valid[i])
      continue;
    any = 1;
    int ea = ilog2d(a[i]), eb = ilog2d(b[i]);
    ex[i] = (ea > emin_in ? ea : emin_in) + (eb > emin_in ? eb : emin_in);
    sig[i] = (int64_t)ldexp(fabs(r2), PRD_MAN - ex[i]);  /* exact: at most 22 significant bits */
  }
  {
    float cf = (float)c;
    uint32_t cb;
    memcpy(&cb, &cf, 4);
    int craw = (int)(cb >> 23 & 0xffu);
    valid[n] = c != 0;
    neg[n] = c < 0;
    sig[n] = (int64_t)(cb & 0x7fffffu) + (craw ? (1 << 23) : 0);
    ex[n] = craw ? craw - 127 : -126;
  }
  int max_e = min_align;
  for (unsigned i = 0; i <= n; i++)
    if (valid[i] && ex[i] > max_e)
      max_e = ex[i];
  int64_t sum = 0;
  for (unsigned i = 0; i <= n; i++) {
    if (!valid[i])
      continue;
    int sh = max_e - ex[i];
    int64_t v = (sig[i] << NEAB) >> (sh > 63 ? 63 : sh);   /* truncated */
    sum += neg[i] ? -v : v;
  }
  if (!any && c == 0)
    return 0;
  if (sum == 0)
    return 0;
  int s_out = sum < 0;
  uint64_t mag = (uint64_t)(sum < 0 ? -sum : sum);
  int bl = bitlen64(mag), target = man_out + 1 + 3;
  int d_exp = max_e + bl - (PRD_MAN + NEAB + 1);
  int shn = bl - target;
  uint64_t mant;
  if (shn > 0) {
    int k = shn > 63 ? 63 : shn;
    mant = (mag >> k) | ((mag & ((1ull << k) - 1)) != 0);
  } else {
    mant = mag << (-shn > 63 ? 63 : -shn);
  }
  if (d_exp < emin_out) {
    int k = emin_out - d_exp > 63 ? 63 : emin_out - d_exp;
    mant = (mant >> k) | ((mant & ((1ull << k) - 1)) != 0);
    d_exp = emin_out;
  }
  if (rne) {
    unsigned grs = (unsigned)(mant & 7), lsb = (unsigned)(mant >> 3 & 1);
    if (grs > 4 || (grs == 4 && lsb)) {
      uint64_t m2 = mant + 8;
      if (bitlen64(m2) > target) {
        mant = m2 >> 1;
        d_exp++;
      } else {
        mant = m2;
      }
    }
  }
  uint64_t fin = mant >> 3;
  double d = ldexp((double)fin, d_exp - man_out);
  if (d_exp + (1 << (exp_out - 1)) - 1 >= (1 << exp_out) - 1)
    d = INFINITY;
  return s_out ? -d : d;
}

/* D[r][c] of a float mma: row a of A, column col of B (b[k][col]), K, accumulator c, as the
   tensor cores compute it; the bits of D's type td. nfma: the products of one block, the K of
   the HMMA instruction ptxas makes of it (16; tf32: 8 for mma.sync's HMMA.1688, 4 for wmma's
   m16n16k8, which ptxas makes of HMMA.1684 pairs, each pair's first result rounded to f32). */
static uint64_t tc_dot(const double *a, double (*b)[MAXD], unsigned col, unsigned K, double c,
                       enum ptx_type ta, enum ptx_type tc, enum ptx_type td, unsigned nfma)
{
  int out16 = td == PTX_T_F16, in_ebits = ta == PTX_T_F16 ? 5 : 8;
  double bb[MAXD], exact = c;
  int nan = c != c, pinf = c == INFINITY, ninf = c == -INFINITY;
  for (unsigned k = 0; k < K; k++) {
    bb[k] = b[k][col];
    exact += a[k] * bb[k];
    nan |= a[k] != a[k] || bb[k] != bb[k];
    pinf |= a[k] == INFINITY || bb[k] == INFINITY;
    ninf |= a[k] == -INFINITY || bb[k] == -INFINITY;
  }
  if (exact != exact)
    nan = 1;
  else if (exact > FLT_MAX)
    pinf = 1;
  else if (exact < -FLT_MAX)
    ninf = 1;
  double v;
  if (nan || (pinf && ninf)) {
    v = NAN;
  } else if (pinf || ninf) {
    v = pinf ? INFINITY : -INFINITY;
  } else {
    /* C in D's format first (an f32 C for an f16 D is rounded to it) */
    double d = out16 && tc != PTX_T_F16
                   ? sim_alu_as_f64(sim_alu_cvt(PTX_T_F64, PTX_T_F16, PTX_RND_NONE, 0,
                                                sim_alu_cvt(PTX_T_F16, PTX_T_F64, PTX_RND_RN, 0,
                                                            sim_alu_from_f64(c))))
                   : c;
    for (unsigned k0 = 0; k0 < K; k0 += nfma) {
      unsigned n = K - k0 < nfma ? K - k0 : nfma;
      d = tc_block(a + k0, bb + k0, n, d, in_ebits, out16 ? 10 : 23, out16 ? 5 : 8, out16);
    }
    v = d;
  }
  return sim_alu_cvt(td, PTX_T_F64, PTX_RND_RN, 0, sim_alu_from_f64(v));
}

static int fault(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l, const char *msg)
{
  sim_fault_other(b, w, pc, l, SIM_FK_TRAP, msg);
  return -1;
}

/* D = A * B + C over the warp's fragments. */
static int run_mma(struct sim_block *b, struct sim_warp *w, const struct ptx_inst *in, uint64_t e)
{
  const unsigned W = b->W;
  uint32_t x = in->mma;
  enum ptx_type ta = PTX_MMA_ATYPE(x), tb = PTX_MMA_BTYPE(x), tc = PTX_MMA_CTYPE(x),
                td = PTX_MMA_DTYPE(x);
  unsigned M, N, K;
  ptx_mma_dims(PTX_MMA_SHAPE(x), &M, &N, &K);
  int integer = ta == PTX_T_S8 || ta == PTX_T_U8;
  static _Thread_local double fa[MAXD][MAXD], fb[MAXD][MAXD], fc[MAXD][MAXD];
  static _Thread_local int64_t ia[MAXD][MAXD], ib[MAXD][MAXD], ic[MAXD][MAXD];
  const struct { char which; enum ptx_type t; unsigned opd; } ins[3] = {
    {'a', ta, 1}, {'b', tb, 2}, {'c', tc, 3}};
  for (unsigned f = 0; f < 3; f++) {
    const struct ptx_operand *o = &in->opd[ins[f].opd];
    enum eclass ec = eclass_of(ins[f].t);
    unsigned n, distinct;
    frag_size(in, ins[f].which, ins[f].t, ptx_mma_nregs(in, ins[f].opd), &n, &distinct);
    for (unsigned l = 0; l < 32; l++)
      for (unsigned i = 0; i < distinct; i++) {
        unsigned r, c;
        sim_mma_coord(in, ins[f].which, ins[f].t, l, i, &r, &c);
        if (r >= MAXD || c >= MAXD)
          continue;
        uint64_t v = get_elem(w, W, o, ec, l, i);
        if (integer) {
          int64_t *dst = f == 0 ? &ia[r][c] : f == 1 ? &ib[r][c] : &ic[r][c];
          *dst = to_int(ins[f].t, v);
        } else {
          double *dst = f == 0 ? &fa[r][c] : f == 1 ? &fb[r][c] : &fc[r][c];
          *dst = to_double(ins[f].t, v);
        }
      }
  }
  const struct ptx_operand *d = &in->opd[0];
  enum eclass ed = eclass_of(td);
  unsigned n, distinct;
  frag_size(in, 'c', td, ptx_mma_nregs(in, 0), &n, &distinct);
  for (uint64_t mm = e; mm; mm &= mm - 1) {
    unsigned l = sim_ctz64(mm);
    for (unsigned i = 0; i < n; i++) {
      unsigned r, c;
      uint64_t bits;
      sim_mma_coord(in, 'c', td, l, i % distinct, &r, &c);
      if (r >= M || c >= N)
        continue;
      if (integer) {
        int64_t s = ic[r][c];
        for (unsigned k = 0; k < K; k++)
          s += ia[r][k] * ib[k][c];
        if (in->flags & PTX_F_SAT)
          s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
        bits = (uint32_t)s;
      } else if (td == PTX_T_F64) {
        double s = fc[r][c];
        for (unsigned k = 0; k < K; k++)
          s = fma(fa[r][k], fb[k][c], s);
        bits = s != s ? SIM_ALU_F64_CNAN : sim_alu_from_f64(s);
      } else {
        bits = tc_dot(fa[r], fb, c, K, fc[r][c], ta, tc, td,
                      ta != PTX_T_TF32 ? 16 : in->op == PTX_OP_WMMA ? 4 : 8);
      }
      put_elem(w, W, d, ed, l, i, bits);
    }
  }
  return 0;
}

/* Check and record one lane's access of size bytes at p (host) / addr: the race checker for
   shared and global memory. Returns 0, or -1 when the block faulted. */
static int checked(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l, uint8_t *p,
                   uint64_t addr, uint32_t size, enum sim_access acc, int same)
{
  if ((uintptr_t)p - (uintptr_t)b->smem < b->smem_size) {
    if (b->race && sim_race_access(b, w, pc, l, (uint32_t)(p - b->smem), size, acc, 0, same))
      return -1;
    return 0;
  }
  if (acc == SIM_ACC_READ ? sim_race_global_read(b, addr) : b->race != NULL)
    if (sim_race_global(b, w, pc, l, addr, size, acc, same))
      return -1;
  return 0;
}

/* wmma.load / wmma.store: each lane's elements at their rows and columns of the matrix at
   [p] with stride elements between rows (row major) or columns (column major). */
static int run_wmma_mem(struct sim_block *b, struct sim_warp *w, uint32_t pc,
                        const struct ptx_inst *in, uint64_t e)
{
  const unsigned W = b->W;
  int store = in->sub == PTX_MMA_STORE_D;
  char which = in->sub == PTX_MMA_LOAD_A ? 'a' : in->sub == PTX_MMA_LOAD_B ? 'b' : 'c';
  enum ptx_type t = PTX_MMA_ATYPE(in->mma);
  enum eclass ec = eclass_of(t);
  unsigned es = esize(ec);
  const struct ptx_operand *ad = &in->opd[store ? 0 : 1], *fr = &in->opd[store ? 1 : 0];
  unsigned M, N, K, n, distinct;
  ptx_mma_dims(PTX_MMA_SHAPE(in->mma), &M, &N, &K);
  unsigned rows = which == 'b' ? K : M, cols = which == 'a' ? K : N;
  int col_major = PTX_MMA_ACOL(in->mma) != 0;
  frag_size(in, which, t, ptx_mma_nregs(in, 0), &n, &distinct);
  enum ptx_space sp = (enum ptx_space)in->space;
  uint64_t av[SIM_MAX_WARP];
  int global = 0;
  /* one access for each run of fragment elements that lie side by side in memory, up to 8
     bytes and aligned to its size, as ptxas's loads and stores (LDG.32 for two halves, LDG.64
     for two floats of an accumulator) */
  for (unsigned i = 0; i < distinct;) {
    unsigned group = 8 / es;
    while (group > 1) {
      int ok = i + group <= distinct;
      for (uint64_t mm = e; mm && ok; mm &= mm - 1) {
        unsigned l = sim_ctz64(mm), r0, c0;
        sim_mma_coord(in, which, t, l, i, &r0, &c0);
        uint64_t stride = in->nopd == 3 ? (uint32_t)REG(in->opd[2].reg)[l] : col_major ? rows : cols;
        uint64_t off = col_major ? (uint64_t)c0 * stride + r0 : (uint64_t)r0 * stride + c0;
        uint64_t addr = (ad->reg != PTX_NOREG ? REG(ad->reg)[l] : 0) + (uint64_t)ad->imm + off * es;
        ok = addr % (group * es) == 0;
        for (unsigned j = 1; j < group && ok; j++) {
          unsigned r, c;
          sim_mma_coord(in, which, t, l, i + j, &r, &c);
          ok = col_major ? (c == c0 && r == r0 + j) : (r == r0 && c == c0 + j);
        }
      }
      if (ok)
        break;
      group /= 2;
    }
    for (uint64_t mm = e; mm; mm &= mm - 1) {
      unsigned l = sim_ctz64(mm), r, c;
      sim_mma_coord(in, which, t, l, i, &r, &c);
      uint64_t stride = in->nopd == 3 ? (uint32_t)REG(in->opd[2].reg)[l] : col_major ? rows : cols;
      uint64_t off = col_major ? (uint64_t)c * stride + r : (uint64_t)r * stride + c;
      uint64_t addr = av[l] = (ad->reg != PTX_NOREG ? REG(ad->reg)[l] : 0) + (uint64_t)ad->imm +
                              off * es;
      uint8_t *p = sim_mem_lane(b, w, pc, l, sp, addr, group * es, group * es,
                                store ? SIM_ACC_WRITE : SIM_ACC_READ);
      if (!p)
        return -1;
      if (store) {
        int same = 1;
        for (unsigned j = 0; j < group; j++) {
          uint64_t v = get_elem(w, W, fr, ec, l, i + j), old = 0;
          memcpy(&old, p + j * es, es);
          same &= old == v;
        }
        if (checked(b, w, pc, l, p, addr, group * es, SIM_ACC_WRITE, same))
          return -1;
        for (unsigned j = 0; j < group; j++) {
          uint64_t v = get_elem(w, W, fr, ec, l, i + j);
          memcpy(p + j * es, &v, es);       /* little-endian host, as the GPU */
        }
        global |= !((uintptr_t)p - (uintptr_t)b->smem < b->smem_size);
      } else {
        if (checked(b, w, pc, l, p, addr, group * es, SIM_ACC_READ, 0))
          return -1;
        for (unsigned j = 0; j < group; j++) {
          uint64_t v = 0;
          memcpy(&v, p + j * es, es);
          /* the element and each copy of it in the fragment */
          for (unsigned k = i + j; k < n; k += distinct)
            put_elem(w, W, fr, ec, l, k, v);
        }
      }
    }
    sim_stats_mem(b, pc, sp, av, e, group * es, 0);
    i += group;
  }
  if (store) {
    b->writes++;
    if (global)
      b->worker->global_writes++;
  }
  return 0;
}

/* ldmatrix / stmatrix: matrix q's row r is the 16 bytes at lane 8q + r's address; lane l
   holds row l / 4, columns 2 (l % 4) and 2 (l % 4) + 1 of it in register q (.trans: rows
   2 (l % 4) and 2 (l % 4) + 1 of column l / 4). */
static int run_matrix(struct sim_block *b, struct sim_warp *w, uint32_t pc,
                      const struct ptx_inst *in, uint64_t e)
{
  const unsigned W = b->W;
  int st = in->op == PTX_OP_STMATRIX, trans = PTX_MMA_TRANS(in->mma) != 0;
  const struct ptx_operand *ad = &in->opd[st ? 0 : 1], *fr = &in->opd[st ? 1 : 0];
  enum ptx_space sp = (enum ptx_space)in->space;
  unsigned nm = in->vec;
  uint64_t rowlanes = nm >= 4 ? 0xffffffffull : (1ull << (8 * nm)) - 1;
  uint64_t av[SIM_MAX_WARP];
  uint8_t *row[32];
  for (uint64_t mm = rowlanes; mm; mm &= mm - 1) {
    unsigned l = sim_ctz64(mm);
    av[l] = (ad->reg != PTX_NOREG ? REG(ad->reg)[l] : 0) + (uint64_t)ad->imm;
    row[l] = sim_mem_lane(b, w, pc, l, sp, av[l], 16, 16, st ? SIM_ACC_WRITE : SIM_ACC_READ);
    if (!row[l])
      return -1;
  }
  for (unsigned qm = 0; qm < nm; qm++) {
    uint32_t reg = fr->kind == PTX_OPD_REG ? (qm ? PTX_NOREG : fr->reg) : fr->vreg[qm];
    if (st) {
      for (unsigned r = 0; r < 8; r++) {
        unsigned rl = qm * 8 + r;
        uint8_t bytes[16];
        for (unsigned c = 0; c < 8; c++) {
          unsigned l = trans ? c * 4 + r / 2 : r * 4 + c / 2, h = trans ? r & 1 : c & 1;
          uint64_t v = reg != PTX_NOREG ? REG(reg)[l] >> (16 * h) : 0;
          bytes[2 * c] = (uint8_t)v;
          bytes[2 * c + 1] = (uint8_t)(v >> 8);
        }
        if (checked(b, w, pc, rl, row[rl], av[rl], 16, SIM_ACC_WRITE, !memcmp(row[rl], bytes, 16)))
          return -1;
        memcpy(row[rl], bytes, 16);
      }
    } else {
      for (unsigned r = 0; r < 8; r++)
        if (checked(b, w, pc, qm * 8 + r, row[qm * 8 + r], av[qm * 8 + r], 16, SIM_ACC_READ, 0))
          return -1;
      for (uint64_t mm = e; mm; mm &= mm - 1) {
        unsigned l = sim_ctz64(mm), g = l >> 2, q = l & 3;
        uint32_t v = 0;
        for (unsigned h = 0; h < 2; h++) {
          unsigned r = trans ? 2 * q + h : g, c = trans ? g : 2 * q + h;
          const uint8_t *p = row[qm * 8 + r] + 2 * c;
          v |= (uint32_t)(p[0] | p[1] << 8) << (16 * h);
        }
        if (reg != PTX_NOREG)
          REG(reg)[l] = v;
      }
    }
  }
  sim_stats_mem(b, pc, sp, av, rowlanes, 16, 0);
  if (st)
    b->writes++;
  return 0;
}

int sim_mma_exec(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t e)
{
  const struct ptx_inst *in = &b->prog->code[pc];
  if (b->W != 32)
    return fault(b, w, pc, sim_ctz64(e), "tensor-core instructions (wmma, mma, ldmatrix, "
                 "stmatrix) need a warp of 32 lanes");
  switch ((enum ptx_mma_mode)in->sub) {
  case PTX_MMA_MMA:
    return run_mma(b, w, in, e);
  case PTX_MMA_LOAD_A:
  case PTX_MMA_LOAD_B:
  case PTX_MMA_LOAD_C:
  case PTX_MMA_STORE_D:
    return run_wmma_mem(b, w, pc, in, e);
  case PTX_MMA_LDMATRIX:
  case PTX_MMA_STMATRIX:
    return run_matrix(b, w, pc, in, e);
  }
  return fault(b, w, pc, sim_ctz64(e), "the emulator cannot execute this tensor-core instruction");
}
