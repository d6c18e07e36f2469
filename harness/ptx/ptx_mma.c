/* ptx_mma.c: decoding the tensor-core instructions' modifiers and operands (ptx_mma.h).
 *
 * wmma.load.{a,b,c}.sync.aligned.LAYOUT.SHAPE{.SPACE}.TYPE   {r..}, [p]{, stride}
 * wmma.store.d.sync.aligned.LAYOUT.SHAPE{.SPACE}.TYPE        [p], {r..}{, stride}
 * wmma.mma.sync.aligned.ALAYOUT.BLAYOUT.SHAPE.DTYPE{.ATYPE.BTYPE}.CTYPE{.rn}  d, a, b, c
 * mma.sync.aligned.SHAPE.row.col{.satfinite}.DTYPE.ATYPE.BTYPE.CTYPE         d, a, b, c
 * ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared}.b16                 {r..}, [p]
 * stmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared}.b16                 [p], {r..}
 * The forms are those of the PTX ISA for sm_80 and sm_90 that the emulator runs
 * (harness/sim/sim_mma.c); the rest are refused with the reason.
 */
#include <string.h>

#include "ptx/ptx_mma.h"

static const struct {
  const char *name;
  uint8_t m, n, k;
} shapes[PTX_MMA_NSHAPES] = {
  [PTX_MMA_M16N16K16] = {"m16n16k16", 16, 16, 16}, [PTX_MMA_M32N8K16] = {"m32n8k16", 32, 8, 16},
  [PTX_MMA_M8N32K16] = {"m8n32k16", 8, 32, 16},    [PTX_MMA_M16N16K8] = {"m16n16k8", 16, 16, 8},
  [PTX_MMA_M8N8K4] = {"m8n8k4", 8, 8, 4},          [PTX_MMA_M16N8K4] = {"m16n8k4", 16, 8, 4},
  [PTX_MMA_M16N8K8] = {"m16n8k8", 16, 8, 8},       [PTX_MMA_M16N8K16] = {"m16n8k16", 16, 8, 16},
  [PTX_MMA_M16N8K32] = {"m16n8k32", 16, 8, 32},    [PTX_MMA_M8N8K16] = {"m8n8k16", 8, 8, 16},
  [PTX_MMA_M8N8] = {"m8n8", 8, 8, 0},
};

static const struct {
  const char *name;
  uint8_t t;
} types[] = {
  {"f16", PTX_T_F16}, {"bf16", PTX_T_BF16}, {"tf32", PTX_T_TF32}, {"f32", PTX_T_F32},
  {"f64", PTX_T_F64}, {"s8", PTX_T_S8},     {"u8", PTX_T_U8},     {"s32", PTX_T_S32},
  {"b16", PTX_T_B16},
};

#define LAYOUT2 (1u << 31)   /* parser: the first layout word was read */

void ptx_mma_dims(enum ptx_mma_shape s, unsigned *m, unsigned *n, unsigned *k)
{
  unsigned i = (unsigned)s < PTX_MMA_NSHAPES ? (unsigned)s : 0;
  *m = shapes[i].m;
  *n = shapes[i].n;
  *k = shapes[i].k;
}

int ptx_mma_op(unsigned op)
{
  return op == PTX_OP_WMMA || op == PTX_OP_MMA || op == PTX_OP_LDMATRIX || op == PTX_OP_STMATRIX;
}

static int is(const char *w, size_t n, const char *lit)
{
  return strlen(lit) == n && memcmp(w, lit, n) == 0;
}

int ptx_mma_mod(struct ptx_inst *in, const char *w, size_t n)
{
  uint32_t x = in->mma;
  if (is(w, n, "sync") || is(w, n, "aligned"))
    return 0;
  for (unsigned s = 1; s < PTX_MMA_NSHAPES; s++)
    if (is(w, n, shapes[s].name)) {
      if (PTX_MMA_SHAPE(x))
        return 1;
      in->mma = x | s;
      return 0;
    }
  for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
    if (is(w, n, types[t].name)) {
      uint32_t k = PTX_MMA_NTYPES(x), slot[4] = {22, 7, 12, 17}; /* D, A, B, C in written order */
      if (k >= 4)
        return 1;
      x = (x & ~(7u << 28)) | ((k + 1) << 28);
      in->mma = x | (uint32_t)types[t].t << slot[k];
      return 0;
    }
  if (is(w, n, "row") || is(w, n, "col")) {
    uint32_t col = is(w, n, "col");
    if (!(x & LAYOUT2))
      in->mma = x | LAYOUT2 | col << 4;
    else
      in->mma = x | col << 5;
    return 0;
  }
  if (is(w, n, "global") && in->op == PTX_OP_WMMA) {
    in->space = PTX_SP_GLOBAL;
    return 0;
  }
  if (is(w, n, "shared") || is(w, n, "shared::cta")) {
    in->space = PTX_SP_SHARED;
    return 0;
  }
  if (in->op == PTX_OP_WMMA && !(x & PTX_MMA_SEEN)) {
    if (is(w, n, "load") || is(w, n, "store")) {
      in->sub = is(w, n, "load") ? PTX_MMA_LOAD_A : PTX_MMA_STORE_D;
      in->mma = x | PTX_MMA_SEEN;
      return 0;
    }
    if (is(w, n, "mma")) {
      in->sub = PTX_MMA_MMA;
      in->mma = x | PTX_MMA_SEEN;
      return 0;
    }
    return 1;
  }
  if (in->op == PTX_OP_WMMA && n == 1 && !PTX_MMA_SHAPE(x) && !(x & LAYOUT2)) {
    /* the matrix of wmma.load / wmma.store */
    if (in->sub == PTX_MMA_LOAD_A && (w[0] == 'a' || w[0] == 'b' || w[0] == 'c')) {
      in->sub = (uint8_t)(PTX_MMA_LOAD_A + (w[0] - 'a'));
      return 0;
    }
    if (in->sub == PTX_MMA_STORE_D && w[0] == 'd')
      return 0;
    return 1;
  }
  if ((in->op == PTX_OP_LDMATRIX || in->op == PTX_OP_STMATRIX) &&
      (is(w, n, "x1") || is(w, n, "x2") || is(w, n, "x4"))) {
    in->vec = (uint8_t)(w[1] - '0');
    return 0;
  }
  if (is(w, n, "trans") && (in->op == PTX_OP_LDMATRIX || in->op == PTX_OP_STMATRIX)) {
    in->mma = x | 1u << 6;
    return 0;
  }
  if (is(w, n, "satfinite") && in->op == PTX_OP_MMA) {
    in->flags |= PTX_F_SAT;
    return 0;
  }
  if (is(w, n, "rn") && in->op == PTX_OP_WMMA) {
    in->rnd = PTX_RND_RN;
    return 0;
  }
  return 1;
}

static unsigned type_bytes(enum ptx_type t)
{
  switch (t) {
  case PTX_T_S8: case PTX_T_U8: return 1;
  case PTX_T_F16: case PTX_T_BF16: case PTX_T_B16: return 2;
  case PTX_T_F64: return 8;
  default: return 4;
  }
}

/* Registers of the fragment of matrix which ('a', 'b', 'c': C or D) of element type t. */
static unsigned frag_regs(const struct ptx_inst *in, char which, enum ptx_type t)
{
  unsigned m, n, k, rows, cols, elems;
  ptx_mma_dims(PTX_MMA_SHAPE(in->mma), &m, &n, &k);
  rows = which == 'b' ? k : m;
  cols = which == 'a' ? k : n;
  elems = rows * cols / 32;
  if (in->op == PTX_OP_WMMA && t == PTX_T_F16 && which != 'c')
    elems = 16;                   /* sm_70's layout: f16 A and B fragments hold 16 halves */
  if (t == PTX_T_F64)
    return elems;
  return elems * type_bytes(t) / 4;
}

unsigned ptx_mma_nregs(const struct ptx_inst *in, unsigned opd)
{
  uint32_t x = in->mma;
  switch ((enum ptx_mma_mode)in->sub) {
  case PTX_MMA_LOAD_A: return frag_regs(in, 'a', PTX_MMA_ATYPE(x));
  case PTX_MMA_LOAD_B: return frag_regs(in, 'b', PTX_MMA_ATYPE(x));
  case PTX_MMA_LOAD_C:
  case PTX_MMA_STORE_D: return frag_regs(in, 'c', PTX_MMA_ATYPE(x));
  case PTX_MMA_LDMATRIX:
  case PTX_MMA_STMATRIX: return in->vec;
  case PTX_MMA_MMA:
    switch (opd) {
    case 0: return frag_regs(in, 'c', PTX_MMA_DTYPE(x));
    case 1: return frag_regs(in, 'a', PTX_MMA_ATYPE(x));
    case 2: return frag_regs(in, 'b', PTX_MMA_BTYPE(x));
    default: return frag_regs(in, 'c', PTX_MMA_CTYPE(x));
    }
  }
  return 0;
}

static int is_int8(enum ptx_type t) { return t == PTX_T_S8 || t == PTX_T_U8; }

/* Whether A/B type ab, C type c and D type d go together, with the shape s. */
static int types_fit(int wmma, enum ptx_mma_shape s, enum ptx_type a, enum ptx_type b,
                     enum ptx_type c, enum ptx_type d)
{
  int cd32 = c == PTX_T_F32 && d == PTX_T_F32, cdi = c == PTX_T_S32 && d == PTX_T_S32;
  int cdh = (c == PTX_T_F16 || c == PTX_T_F32) && (d == PTX_T_F16 || d == PTX_T_F32);
  if (is_int8(a) && is_int8(b))
    return cdi && (wmma ? (s == PTX_MMA_M16N16K16 || s == PTX_MMA_M32N8K16 || s == PTX_MMA_M8N32K16)
                        : (s == PTX_MMA_M8N8K16 || s == PTX_MMA_M16N8K16 || s == PTX_MMA_M16N8K32));
  if (a != b)
    return 0;
  switch (a) {
  case PTX_T_F16:
    return cdh && (wmma ? (s == PTX_MMA_M16N16K16 || s == PTX_MMA_M32N8K16 || s == PTX_MMA_M8N32K16)
                        : (s == PTX_MMA_M16N8K8 || s == PTX_MMA_M16N8K16));
  case PTX_T_BF16:
    return cd32 && (wmma ? (s == PTX_MMA_M16N16K16 || s == PTX_MMA_M32N8K16 || s == PTX_MMA_M8N32K16)
                         : (s == PTX_MMA_M16N8K8 || s == PTX_MMA_M16N8K16));
  case PTX_T_TF32:
    return cd32 && (wmma ? s == PTX_MMA_M16N16K8 : (s == PTX_MMA_M16N8K4 || s == PTX_MMA_M16N8K8));
  case PTX_T_F64:
    return c == PTX_T_F64 && d == PTX_T_F64 && s == PTX_MMA_M8N8K4;
  default:
    return 0;
  }
}

/* Whether operand o is a fragment of n registers: {r, ...} (sinks allowed where it is a
   destination), or a plain register when n is 1. */
static int frag_fits(const struct ptx_operand *o, unsigned n, int dst)
{
  if (o->kind == PTX_OPD_REG)
    return n == 1 && o->reg != PTX_NOREG;
  if (o->kind != PTX_OPD_VEC || o->nvec != n)
    return 0;
  for (unsigned k = 0; k < n; k++)
    if (!dst && o->vreg[k] == PTX_NOREG)
      return 0;
  return 1;
}

static int is_addr(const struct ptx_operand *o) { return o->kind == PTX_OPD_ADDR; }
static int is_src(const struct ptx_operand *o)
{
  return (o->kind == PTX_OPD_REG && o->reg != PTX_NOREG) || o->kind == PTX_OPD_IMM;
}

const char *ptx_mma_check(struct ptx_inst *in, int *unsupported)
{
  uint32_t x = in->mma;
  enum ptx_mma_shape s = PTX_MMA_SHAPE(x);
  unsigned nt = PTX_MMA_NTYPES(x);
  *unsupported = 1;
  if (!s)
    return "no shape that warplab models";
  if (in->op == PTX_OP_LDMATRIX || in->op == PTX_OP_STMATRIX) {
    in->sub = in->op == PTX_OP_LDMATRIX ? PTX_MMA_LDMATRIX : PTX_MMA_STMATRIX;
    if (s != PTX_MMA_M8N8 || nt != 1 || PTX_MMA_DTYPE(x) != PTX_T_B16)
      return "only .m8n8 with .b16 elements is modelled";
    if (in->vec != 1 && in->vec != 2 && in->vec != 4)
      return "it needs .x1, .x2 or .x4";
    in->mma = (x & 0x7fu) | (uint32_t)PTX_T_B16 << 7;
    *unsupported = 0;
    if (in->nopd != 2)
      return "it takes two operands";
    if (in->op == PTX_OP_LDMATRIX ? !frag_fits(&in->opd[0], in->vec, 1) || !is_addr(&in->opd[1])
                                  : !is_addr(&in->opd[0]) || !frag_fits(&in->opd[1], in->vec, 0))
      return "it needs a vector of as many registers as matrices, and an address";
    return NULL;
  }
  if (s == PTX_MMA_M8N8)
    return "the .m8n8 shape is ldmatrix's";
  int wmma = in->op == PTX_OP_WMMA;
  if (!wmma || in->sub == PTX_MMA_MMA) {
    enum ptx_type d = PTX_MMA_DTYPE(x), a = PTX_MMA_ATYPE(x), b = PTX_MMA_BTYPE(x),
                  c = PTX_MMA_CTYPE(x);
    if (wmma && nt == 2) {      /* wmma.mma f16: .dtype.ctype */
      c = a;
      a = b = PTX_T_F16;
    } else if (nt != 4) {
      return "its types are not the .dtype.atype.btype.ctype of an sm_80/sm_90 form";
    }
    if (!(x & LAYOUT2) || (!wmma && (PTX_MMA_ACOL(x) || !PTX_MMA_BCOL(x))))
      return wmma ? "it needs the layouts of A and B" : "only .row.col is modelled";
    if (!types_fit(wmma, s, a, b, c, d))
      return "this shape and these types are not a form of sm_80/sm_90 that warplab models";
    if ((in->flags & PTX_F_SAT) && !is_int8(a))
      return ".satfinite is only modelled for integer mma";
    in->mma = (x & 0x3fu) | (uint32_t)a << 7 | (uint32_t)b << 12 | (uint32_t)c << 17 |
              (uint32_t)d << 22;
    *unsupported = 0;
    if (in->nopd != 4)
      return "it takes four operands, d, a, b, c";
    for (unsigned k = 0; k < 4; k++)
      if (!frag_fits(&in->opd[k], ptx_mma_nregs(in, k), k == 0))
        return "a fragment does not have the number of registers the shape and type need";
    return NULL;
  }
  /* wmma.load / wmma.store: one element type */
  {
    enum ptx_type t = PTX_MMA_DTYPE(x);
    int ab = in->sub == PTX_MMA_LOAD_A || in->sub == PTX_MMA_LOAD_B, ok;
    if (nt != 1 || !(x & LAYOUT2))
      return "it needs one layout and one type";
    if (ab)
      ok = types_fit(1, s, t, t, is_int8(t) ? PTX_T_S32 : PTX_T_F32,
                     is_int8(t) ? PTX_T_S32 : PTX_T_F32) ||
           (t == PTX_T_F64 && s == PTX_MMA_M8N8K4);
    else
      ok = (t == PTX_T_F64 && s == PTX_MMA_M8N8K4) ||
           (t == PTX_T_F32 && s != PTX_MMA_M8N8K4) ||
           ((t == PTX_T_F16 || t == PTX_T_S32) && s != PTX_MMA_M8N8K4 && s != PTX_MMA_M16N16K8);
    if (!ok)
      return "this shape and this type are not a form of sm_80/sm_90 that warplab models";
    in->mma = (x & 0x1fu) | (uint32_t)t << 7;
    *unsupported = 0;
    if (in->nopd != 2 && in->nopd != 3)
      return "it takes a fragment, an address and an optional stride";
    int st = in->sub == PTX_MMA_STORE_D;
    if (!is_addr(&in->opd[st ? 0 : 1]) || !frag_fits(&in->opd[st ? 1 : 0], ptx_mma_nregs(in, 0), !st))
      return "it needs an address and a fragment of the registers its shape and type take";
    if (in->nopd == 3 && !is_src(&in->opd[2]))
      return "its stride is a register or a number";
    return NULL;
  }
}
