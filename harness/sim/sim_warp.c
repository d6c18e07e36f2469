/* sim_warp.c: which lanes of a warp run next, and control flow.
 *
 * Every lane has its own pc. Lanes at the same pc run together as a *group* until a control
 * event (a branch that splits them, a call or return, a barrier, arriving where they must
 * wait); straight-line code never re-examines the warp. When a group splits at a divergent
 * branch, its lanes take a *convergence barrier* at the branch's immediate post-dominator
 * (computed by ptx_cfg): a lane reaching that point waits until every lane that took part in
 * the branch (and has not exited) is there too, then they continue as one group. This is the
 * SIMT reconvergence stack of pre-Volta GPUs, and it is the whole of the `stack` model.
 *
 * The `its` model (Volta and later, the default) adds forward progress: when a group keeps
 * taking backward branches (spinning) while other lanes of its warp wait at a convergence
 * barrier, those lanes are let past it and run first, so the classic spin lock
 * `while (s != tid); s++;` completes, as it does on real Volta-and-later GPUs. Lanes that
 * could run but are never chosen, because a loop at a lower pc keeps running without changing
 * anything (the livelock watch below), are run first in the same way.
 *
 * The livelock watch: every CHECK_EVERY backward branches the warp's registers and pcs are
 * hashed; when they are what they were last time and no write has changed memory in between
 * (a failed CAS or a store of the value already there changes nothing), the warp is spinning,
 * and the block layer decides whether that is a deadlock.
 *
 * Which group runs: the one with the lowest pc (lanes behind catch up with lanes ahead and
 * merge), preferring lanes just let past a barrier (for a 32-lane warp, one vector pass over
 * the lanes' pcs and their stacks' tops: sim_warp_scan_group). A warp whose lanes all wait
 * is blocked until the block layer releases a barrier.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_mma.h"
#include "sim/sim_int.h"

#define REG(r) (w->regs + (size_t)(r) * b->W)
#define SPIN_LIMIT 2048u     /* ITS: backward branches before waiting lanes are let past */
#define CHECK_EVERY 4096u    /* backward branches between livelock checkpoints */
#define GROUP_CHECK_EVERY 64u /* ... in a block of a group (sim_launch.c's run_group): one that
                                waits for another block (grid.sync()) gives way sooner */

#ifdef SIM_X86
/* The 32 bits of m, one byte a lane: 0xff where the lane's bit is set. */
__attribute__((target("avx2"))) static inline __m256i lanes8_avx2(uint32_t m)
{
  const __m256i shuf = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1,
                                        2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3);
  const __m256i bit = _mm256_set1_epi64x((long long)0x8040201008040201ull);
  __m256i x = _mm256_shuffle_epi8(_mm256_set1_epi32((int)m), shuf);
  return _mm256_cmpeq_epi8(_mm256_and_si256(x, bit), bit);
}

/* csp[l] += d for the lanes l of m (the first 32 lanes), one vector. */
__attribute__((target("avx2"))) static void csp_add32_avx2(uint8_t *csp, uint32_t m, int d)
{
  __m256i *p = (__m256i *)(void *)csp;
  _mm256_storeu_si256(p, _mm256_add_epi8(_mm256_loadu_si256(p),
                                         _mm256_and_si256(lanes8_avx2(m), _mm256_set1_epi8((char)d))));
}

/* csp[l] = 0 for the lanes l of m (the first 32 lanes), one vector. */
__attribute__((target("avx2"))) static void csp_zero32_avx2(uint8_t *csp, uint32_t m)
{
  __m256i *p = (__m256i *)(void *)csp;
  _mm256_storeu_si256(p, _mm256_andnot_si256(lanes8_avx2(m), _mm256_loadu_si256(p)));
}

/* pc[l] = v for the lanes l of m (the first 32 lanes), eight lanes a masked store. */
__attribute__((target("avx2"))) static void pcs_set_avx2(uint32_t *pc, uint32_t m, uint32_t v)
{
  const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
  const __m256i x = _mm256_set1_epi32((int)v);
  for (unsigned l = 0; l < 32; l += 8) {
    const unsigned bits = m >> l & 255;
    if (bits)
      _mm256_maskstore_epi32((int *)(void *)(pc + l),
                             _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int)bits), bit),
                                                bit), x);
  }
}
#endif

static inline int lane_top(const struct sim_warp *w, unsigned l)
{
  return w->csp[l] ? w->cstack[w->csp[l] - 1][l] : -1;
}

/* csp[l] += d for the lanes l of m (d: 1 or -1), sixteen lanes a vector. */
static inline void csp_add(struct sim_warp *w, uint64_t m, int d)
{
#ifdef SIM_X86
  if (sim_cpu_avx2 && !(m >> 32)) {
    csp_add32_avx2(w->csp, (uint32_t)m, d);
    return;
  }
#endif
#ifdef __SSE2__
  const __m128i bit = _mm_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128);
  const __m128i vd = _mm_set1_epi8((char)d);
  for (unsigned l = 0; l < SIM_MAX_WARP && m >> l; l += 16) {
    const unsigned bits = (unsigned)(m >> l) & 0xffff;
    if (!bits)
      continue;
    /* bytes 0-7: bits' low byte, 8-15: its high one (unpacked in registers: a vector set
       from bytes goes through the stack, and its load waits for the byte stores) */
    __m128i x = _mm_cvtsi32_si128((int)bits);
    x = _mm_unpacklo_epi8(x, x);
    x = _mm_unpacklo_epi16(x, x);
    x = _mm_unpacklo_epi32(x, x);
    __m128i on = _mm_cmpeq_epi8(_mm_and_si128(x, bit), bit);
    __m128i *p = (__m128i *)(void *)(w->csp + l);
    _mm_storeu_si128(p, _mm_add_epi8(_mm_loadu_si128(p), _mm_and_si128(on, vd)));
  }
#else
  for (; m; m &= m - 1)
    w->csp[sim_ctz64(m)] = (uint8_t)(w->csp[sim_ctz64(m)] + d);
#endif
}

/* ---- which registers a block must start with zeroed ---- */

/* Opcodes that write operand 0 (a register) for every lane whose guard holds, whatever their
   modifiers: a register such an instruction writes without a guard is defined from there on.
   The warp collectives (shfl, vote, match, redux) write it for every lane that runs them,
   once the lanes of their mask have arrived. Every other instruction's registers count as
   read (the safe side). */
static int writes_dst_fully(enum ptx_op op)
{
  switch (op) {
  case PTX_OP_MOV: case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_DIV:
  case PTX_OP_REM: case PTX_OP_MIN: case PTX_OP_MAX: case PTX_OP_AND: case PTX_OP_OR:
  case PTX_OP_XOR: case PTX_OP_SHL: case PTX_OP_SHR: case PTX_OP_MUL24: case PTX_OP_COPYSIGN:
  case PTX_OP_MAD: case PTX_OP_FMA: case PTX_OP_MAD24: case PTX_OP_SAD:
  case PTX_OP_ABS: case PTX_OP_NEG: case PTX_OP_NOT: case PTX_OP_CNOT: case PTX_OP_POPC:
  case PTX_OP_CLZ: case PTX_OP_BFIND: case PTX_OP_BREV: case PTX_OP_RCP: case PTX_OP_SQRT:
  case PTX_OP_RSQRT: case PTX_OP_SIN: case PTX_OP_COS: case PTX_OP_LG2: case PTX_OP_EX2:
  case PTX_OP_TANH: case PTX_OP_SETP: case PTX_OP_SELP: case PTX_OP_SLCT: case PTX_OP_CVT:
  case PTX_OP_CVTA: case PTX_OP_LD: case PTX_OP_LDU:
  case PTX_OP_SHFL: case PTX_OP_VOTE: case PTX_OP_MATCH: case PTX_OP_REDUX:
    return 1;
  default:
    return 0;
  }
}

/* The function registers instruction `in` defines: its destination (and the predicate of
   setp, shfl and match.all, the second one), when it writes them for every lane that runs it. *r2 gets PTX_NOREG when there is no
   second. Returns the first, or PTX_NOREG. */
static uint32_t defined_by(const struct ptx_inst *in, uint32_t nr, uint32_t *r2)
{
  *r2 = PTX_NOREG;
  if (in->guard != PTX_NOREG || !in->nopd || !writes_dst_fully((enum ptx_op)in->op) ||
      in->opd[0].kind != PTX_OPD_REG || in->opd[0].reg >= nr)
    return PTX_NOREG;
  if ((in->op == PTX_OP_SETP || in->op == PTX_OP_SHFL ||
       (in->op == PTX_OP_MATCH && in->sub == PTX_MATCH_ALL)) && in->opd[0].pair < nr)
    *r2 = in->opd[0].pair;
  return in->opd[0].reg;
}

static void note_read(uint64_t *zero, const uint64_t *def, uint32_t r, uint32_t nr)
{
  if (r < nr && !(def[r / 64] >> (r % 64) & 1))
    zero[r / 64] |= 1ull << (r % 64);
}

/* Instruction i's successors in the control-flow graph of one thread: n of them into s. */
static unsigned successors(const struct sim_prog *p, uint32_t i, uint32_t s[2])
{
  const struct ptx_inst *in = &p->code[i];
  unsigned n = 0;
  int falls = 1;
  switch ((enum ptx_op)in->op) {
  case PTX_OP_BRA:
    s[n++] = in->opd[0].reg;
    falls = in->guard != PTX_NOREG;
    break;
  case PTX_OP_RET:
  case PTX_OP_EXIT:
  case PTX_OP_TRAP:
    falls = in->guard != PTX_NOREG;      /* a call's return comes back at the call's pc + 1 */
    break;
  default:
    break;
  }
  if (falls)
    s[n++] = i + 1;
  for (unsigned k = 0; k < n; k++)
    if (s[k] >= p->ncode)
      s[k--] = s[--n];
  return n;
}

uint64_t *sim_warp_old_unread(const struct sim_prog *p)
{
  const uint32_t nr = p->nregs;
  uint64_t *read = calloc((nr + 63) / 64 + 1, sizeof *read);
  uint64_t *atoms = calloc((p->ncode + 63) / 64 + 1, sizeof *atoms);
  if (!read || !atoms) {
    free(read);
    free(atoms);
    return NULL;
  }
#define NOTE(r) do { if ((r) < nr) read[(r) / 64] |= 1ull << ((r) % 64); } while (0)
  /* every register an operand may read: all but operand 0 of an instruction that writes it
     (writes_dst_fully's, and atom's old value), a register's pair included */
  for (uint32_t i = 0; i < p->ncode; i++) {
    const struct ptx_inst *in = &p->code[i];
    const int writes0 = writes_dst_fully((enum ptx_op)in->op) || in->op == PTX_OP_ATOM;
    NOTE(in->guard);
    for (uint32_t o = writes0 ? 1 : 0; o < in->nopd; o++) {
      const struct ptx_operand *op = &in->opd[o];
      switch (op->kind) {
      case PTX_OPD_REG:
        NOTE(op->reg);
        NOTE(op->pair);
        break;
      case PTX_OPD_ADDR:
        NOTE(op->reg);
        break;
      case PTX_OPD_VEC:
        for (uint32_t v = 0; v < op->nvec && v < PTX_MAX_VEC; v++)
          NOTE(op->vreg[v]);
        break;
      default:
        break;
      }
    }
  }
#undef NOTE
  for (uint32_t i = 0; i < p->ncode; i++) {
    const struct ptx_inst *in = &p->code[i];
    if (in->op == PTX_OP_ATOM && in->nopd && in->opd[0].kind == PTX_OPD_REG &&
        in->opd[0].reg < nr && !(read[in->opd[0].reg / 64] >> (in->opd[0].reg % 64) & 1))
      atoms[i / 64] |= 1ull << (i % 64);
  }
  free(read);
  return atoms;
}

uint64_t *sim_warp_zero_plan(const struct sim_prog *p)
{
  uint32_t nr = p->nregs - p->nconst, nw = (nr + 63) / 64 ? (nr + 63) / 64 : 1;
  size_t cells = (size_t)p->ncode * nw;
  if (!p->ncode || cells > ((size_t)1 << 24))
    return NULL;
  uint64_t *zero = calloc(nw, sizeof *zero);
  uint64_t *def = malloc(cells * sizeof *def);     /* per instruction: registers every path
                                                      to it has written (before it runs) */
  uint64_t *out = malloc(nw * sizeof *out);
  uint8_t *seen = calloc(p->ncode, 1), *queued = calloc(p->ncode, 1);
  uint32_t *work = malloc((size_t)p->ncode * sizeof *work);
  if (!zero || !def || !out || !seen || !queued || !work) {
    free(zero);
    zero = NULL;
    goto out;
  }
  /* forward "definitely written" analysis: nothing is written at the kernel's entry nor at a
     device function's (the paths into it are the call sites'); a join keeps what every path
     into it wrote */
  uint32_t nwork = 0;
  for (uint32_t c = 0; c <= p->ncalls_all; c++) {
    uint32_t root = c == p->ncalls_all ? p->entry : p->calls[c].target;
    if (c < p->ncalls_all && p->calls[c].builtin)
      continue;
    if (root >= p->ncode || seen[root])
      continue;
    seen[root] = queued[root] = 1;
    memset(def + (size_t)root * nw, 0, nw * sizeof *def);
    work[nwork++] = root;
  }
  while (nwork) {
    uint32_t i = work[--nwork], s[2], r2;
    queued[i] = 0;
    memcpy(out, def + (size_t)i * nw, nw * sizeof *out);
    uint32_t r = defined_by(&p->code[i], nr, &r2);
    if (r != PTX_NOREG)
      out[r / 64] |= 1ull << (r % 64);
    if (r2 != PTX_NOREG)
      out[r2 / 64] |= 1ull << (r2 % 64);
    unsigned ns = successors(p, i, s);
    for (unsigned k = 0; k < ns; k++) {
      uint64_t *d = def + (size_t)s[k] * nw;
      int changed = 0;
      if (!seen[s[k]]) {
        memcpy(d, out, nw * sizeof *d);
        seen[s[k]] = 1;
        changed = 1;
      } else {
        for (uint32_t x = 0; x < nw; x++) {
          uint64_t v = d[x] & out[x];
          changed |= v != d[x];
          d[x] = v;
        }
      }
      if (changed && !queued[s[k]]) {
        queued[s[k]] = 1;
        work[nwork++] = s[k];
      }
    }
  }
  /* a register some instruction may read before every path to it wrote it starts at zero */
  for (uint32_t i = 0; i < p->ncode; i++) {
    if (!seen[i])
      continue;                           /* never runs */
    const struct ptx_inst *in = &p->code[i];
    const uint64_t *d = def + (size_t)i * nw;
    uint32_t r2, r = defined_by(in, nr, &r2);
    note_read(zero, d, in->guard, nr);
    for (uint32_t o = 0; o < in->nopd; o++) {
      const struct ptx_operand *op = &in->opd[o];
      switch (op->kind) {
      case PTX_OPD_REG:
        if (o || r == PTX_NOREG)
          note_read(zero, d, op->reg, nr);
        if (o || r2 == PTX_NOREG)
          note_read(zero, d, op->pair, nr);
        break;
      case PTX_OPD_ADDR:
        note_read(zero, d, op->reg, nr);
        break;
      case PTX_OPD_VEC:
        for (uint32_t v = 0; v < op->nvec && v < PTX_MAX_VEC; v++)
          note_read(zero, d, op->vreg[v], nr);
        break;
      default:
        break;
      }
    }
  }
  /* after the bitmap: how many runs of set bits it has, then each run's first register and
     the one past its end (sim_warp_init's memsets, with no bit scan per warp) */
  uint64_t nruns = 0;
  for (uint32_t r = 0; r < nr; r++)
    nruns += (zero[r / 64] >> (r % 64) & 1) && (!r || !(zero[(r - 1) / 64] >> ((r - 1) % 64) & 1));
  uint64_t *z = realloc(zero, (nw + 1 + 2 * nruns) * sizeof *zero);
  if (!z) {
    free(zero);
    zero = NULL;
    goto out;
  }
  zero = z;
  zero[nw] = nruns;
  for (uint32_t r = 0, k = 0; r < nr; r++)
    if (zero[r / 64] >> (r % 64) & 1) {
      uint32_t e = r;
      while (e < nr && (zero[e / 64] >> (e % 64) & 1))
        e++;
      zero[nw + 1 + 2 * k] = r;
      zero[nw + 2 + 2 * k] = e;
      k++;
      r = e;
    }
out:
  free(def);
  free(out);
  free(seen);
  free(queued);
  free(work);
  return zero;
}

void sim_warp_init(struct sim_block *b, struct sim_warp *w)
{
  const struct sim_prog *p = b->prog;
  unsigned W = b->W;
  w->live = w->exists;
  w->barwait = w->syncwait = w->prefer = w->cwait = 0;
  for (uint32_t ids = w->barids; ids; ids &= ids - 1)   /* the others are empty */
    w->barat[__builtin_ctz(ids)] = 0;
  w->barmixed = w->barids = 0;
  if (W == 32)
    sim_pcs_fill32(w->pc, p->entry);
  else
    for (unsigned l = 0; l < W; l++)
      w->pc[l] = p->entry;
  memset(w->csp, 0, sizeof w->csp);
  if (p->ncalls_all)                  /* read only by calls and returns */
    memset(w->depth, 0, sizeof w->depth);
  memset(w->carry, 0, sizeof w->carry);
  w->ncbar = 0;
  w->gmask = w->live;
  w->gpc = p->entry;
  w->gtop = -1;
  w->have_group = w->live != 0;
  w->state = w->live ? SIM_W_RUN : SIM_W_DONE;
  w->spin = w->backs = 0;
  w->loopers = w->snap_loopers = 0;
  w->snap_valid = w->spinning = 0;
  if (w->async_used) {                /* else the queues are empty, the counts 0 */
    sim_async_reset(w);
    w->async_used = 0;
  }
  if (p->zero) {
    /* only the registers that may be read before they are written (sim_warp_zero_plan's
       runs of them, after its bitmap); the others keep the last block's values until the
       code writes them */
    uint32_t nr = p->nregs - p->nconst, nw = (nr + 63) / 64 ? (nr + 63) / 64 : 1;
    const uint64_t *run = p->zero + nw + 1;
    for (uint64_t k = 0; k < p->zero[nw]; k++, run += 2)
      memset(w->regs + (size_t)run[0] * W, 0, (size_t)(run[1] - run[0]) * W * sizeof *w->regs);
  } else {
    memset(w->regs, 0, (size_t)p->nregs * W * sizeof *w->regs);
    w->consts_set = 0;
  }
  for (uint32_t c = 0; !w->consts_set && c < p->nconst; c++) {
    uint64_t *r = w->regs + (size_t)(p->nregs - p->nconst + c) * W;
    for (unsigned l = 0; l < W; l++)
      r[l] = p->consts[c];
  }
  w->consts_set = 1;
  if (p->local_size)
    memset(w->local, 0, (size_t)p->local_size * W);
  if (p->pframe_size)
    memset(w->pframe, 0, (size_t)p->pframe_size * W);
}

#ifdef SIM_X86

__attribute__((target("avx2"))) static void pcs_fill_avx2(uint32_t *pc, uint32_t v)
{
  const __m256i x = _mm256_set1_epi32((int)v);
  for (unsigned l = 0; l < 32; l += 8)
    _mm256_storeu_si256((__m256i *)(void *)(pc + l), x);
}

__attribute__((target("avx2"))) static void pcs_inc_avx2(uint32_t *pc)
{
  const __m256i one = _mm256_set1_epi32(1);
  for (unsigned l = 0; l < 32; l += 8) {
    __m256i *p = (__m256i *)(void *)(pc + l);
    _mm256_storeu_si256(p, _mm256_add_epi32(_mm256_loadu_si256(p), one));
  }
}

__attribute__((target("avx2"))) static int pcs_uniform_avx2(const uint32_t *pc,
                                                            const uint8_t *csp)
{
  const __m256i p0 = _mm256_set1_epi32((int)pc[0]);
  __m256i d = _mm256_loadu_si256((const __m256i *)(const void *)csp);
  for (unsigned l = 0; l < 32; l += 8)
    d = _mm256_or_si256(d, _mm256_xor_si256(
                               _mm256_loadu_si256((const __m256i *)(const void *)(pc + l)), p0));
  return _mm256_testz_si256(d, d);
}

__attribute__((target("avx2"))) static int reg_uniform_avx2(const uint64_t *r)
{
  const __m256i r0 = _mm256_set1_epi64x((long long)r[0]);
  __m256i d = _mm256_setzero_si256();
  for (unsigned l = 0; l < 32; l += 4)
    d = _mm256_or_si256(d, _mm256_xor_si256(
                               _mm256_loadu_si256((const __m256i *)(const void *)(r + l)), r0));
  return _mm256_testz_si256(d, d);
}
#endif

void sim_pcs_fill32(uint32_t *pc, uint32_t v)
{
#ifdef SIM_X86
  if (sim_cpu_avx2) {
    pcs_fill_avx2(pc, v);
    return;
  }
#endif
  for (unsigned l = 0; l < 32; l++)
    pc[l] = v;
}

void sim_pcs_inc32(uint32_t *pc)
{
#ifdef SIM_X86
  if (sim_cpu_avx2) {
    pcs_inc_avx2(pc);
    return;
  }
#endif
  for (unsigned l = 0; l < 32; l++)
    pc[l]++;
}

int sim_pcs_uniform32(const uint32_t *pc, const uint8_t *csp)
{
#ifdef SIM_X86
  if (sim_cpu_avx2)
    return pcs_uniform_avx2(pc, csp);
#endif
  uint32_t diff = 0;
  uint8_t open = 0;
  for (unsigned l = 0; l < 32; l++) {
    diff |= pc[l] ^ pc[0];
    open |= csp[l];
  }
  return !diff && !open;
}

int sim_reg_uniform32(const uint64_t *r)
{
#ifdef SIM_X86
  if (sim_cpu_avx2)
    return reg_uniform_avx2(r);
#endif
  uint64_t diff = 0;
  for (unsigned l = 0; l < 32; l++)
    diff |= r[l] ^ r[0];
  return !diff;
}

static void dissolve(struct sim_warp *w)
{
  if (!w->have_group)
    return;
  if (w->gmask == 0xffffffffull)
    sim_pcs_fill32(w->pc, w->gpc);
#ifdef SIM_X86
  else if (sim_cpu_avx2 && !(w->gmask >> 32))
    pcs_set_avx2(w->pc, (uint32_t)w->gmask, w->gpc);
#endif
  else
    for (uint64_t m = w->gmask; m; m &= m - 1)
      w->pc[sim_ctz64(m)] = w->gpc;
  w->have_group = 0;
}

static void try_release(struct sim_block *b, struct sim_warp *w, int t);

int sim_warp_shortcuts = 1;

/* sim_warp_take_group, inlined where sim_warp.c calls it. */
static inline int take_group(struct sim_warp *w, uint64_t m, uint32_t pc, int top)
{
  uint64_t sel = w->live & ~w->barwait & ~w->syncwait & ~w->cwait;
  /* select_group would take m: nothing else can run, no lane is preferred, and (for a
     report of the budget spent before it runs: past_budget's pc) the first live lane is
     one of m, whose pc is the group's */
  if (!sim_warp_shortcuts || !m || sel != m || (w->prefer & sel) ||
      !(m >> sim_ctz64(w->live) & 1))
    return 0;
  w->prefer = 0;
  w->gmask = m;
  w->gpc = pc;
  w->gtop = top;
  w->have_group = 1;
  return 1;
}


/* Lanes of at, whose top convergence barrier is t and who are at its pc, start waiting
   there. */
static void wait_at(struct sim_block *b, struct sim_warp *w, uint64_t at, int t)
{
  w->cwait |= at;
  w->cbar[t].waiting |= at;
  try_release(b, w, t);
}

/* The lanes of w with no convergence barrier open (csp[l] 0), sixteen lanes a compare. */
static inline uint64_t csp_none(const struct sim_warp *w)
{
  uint64_t none = 0;
#ifdef __SSE2__
  for (unsigned l = 0; l < SIM_MAX_WARP; l += 16)
    none |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(
                _mm_loadu_si128((const __m128i *)(const void *)(w->csp + l)), _mm_setzero_si128()))
            << l;
#else
  for (unsigned l = 0; l < SIM_MAX_WARP; l++)
    none |= (uint64_t)(w->csp[l] == 0) << l;
#endif
  return none;
}

/* Lanes in m whose pc is their top convergence barrier's pc start waiting there. Lanes are
   taken a top barrier at a time (the lanes of a group share theirs), and each barrier is
   looked at once for all its new arrivals; lanes with none open have nowhere to wait and
   are left out at once (converged code: __syncwarp's lanes, with no per-lane look). */
static void arrive(struct sim_block *b, struct sim_warp *w, uint64_t m)
{
  uint64_t todo = m & w->live & ~w->cwait;
  if (todo)
    todo &= ~csp_none(w);
  while (todo) {
    int t = lane_top(w, sim_ctz64(todo));
    uint32_t at_pc = t >= 0 ? w->cbar[t].pc : UINT32_MAX;
    uint64_t same = 0, at = 0;
    for (uint64_t mm = todo; mm; mm &= mm - 1) {
      unsigned l = sim_ctz64(mm);
      if (lane_top(w, l) == t) {
        same |= 1ull << l;
        if (w->pc[l] == at_pc)
          at |= 1ull << l;
      }
    }
    todo &= ~same;
    if (at)
      wait_at(b, w, at, t);
  }
}

/* The lanes of group g, at the pc of their top convergence barrier t (a group's lanes share
   it), arrive there. */
static void arrive_group(struct sim_block *b, struct sim_warp *w, uint64_t g, int t)
{
  const struct sim_cbar *cb = &w->cbar[t];
  const uint64_t exp = cb->expect & w->live;
  dissolve(w);
  uint64_t at = g & w->live & ~w->cwait;
  if (!at)
    return;
  wait_at(b, w, at, t);
  /* released, with no enclosing barrier at the same pc (where they wait again, or which
     their arrival released in turn): the lanes t expected run on as one group from its pc,
     their top barrier t's parent (select_group's choice, made here) */
  if (!cb->expect && exp && !(w->cwait & exp) &&
      (cb->parent < 0 || w->cbar[cb->parent].pc != cb->pc))
    take_group(w, exp, cb->pc, cb->parent);
}

/* Release convergence barrier t when every live lane it expects waits at it (cbar.waiting:
   the lanes waiting there, kept as they arrive, so nothing is rescanned). */
static void try_release(struct sim_block *b, struct sim_warp *w, int t)
{
  struct sim_cbar *cb = &w->cbar[t];
  uint64_t exp = cb->expect & w->live;
  if (!cb->expect || (exp & ~cb->waiting))
    return;
  cb->expect = 0;
  cb->waiting &= ~exp;
  w->cwait &= ~exp;
  /* every lane of exp has t on top, and under it the barrier they shared when t was pushed
     (a lane's stack changes only at its top, and t's lanes leave it only by popping it):
     their top barrier now is t's parent, the same for all, with no lane read */
  csp_add(w, exp, -1);
  const int t0 = exp ? cb->parent : -2;
#ifdef __SANITIZE_ADDRESS__
  for (uint64_t mm = exp; mm; mm &= mm - 1)      /* the sanitizer build checks that */
    assert(lane_top(w, sim_ctz64(mm)) == t0);
#endif
  w->spin = 0;
  /* an enclosing barrier at the same point: the lanes are all at this one's pc */
  if (t0 >= 0 && w->cbar[t0].pc == cb->pc)
    wait_at(b, w, exp, t0);
}

/* Exited lanes no longer count: release any barrier now complete. */
static void recheck_all(struct sim_block *b, struct sim_warp *w)
{
  for (uint32_t t = 0; t < w->ncbar; t++)
    if (w->cbar[t].expect)
      try_release(b, w, (int)t);
}

/* The lanes of w whose convergence stacks are full (SIM_CSTACK barriers open): the bytes of
   csp compared sixteen at a time, not lane by lane. */
_Static_assert(SIM_CSTACK < 128 && SIM_MAX_WARP % 16 == 0, "csp compared as signed bytes");
static inline uint64_t cstack_full(const struct sim_warp *w)
{
  uint64_t full = 0;
#ifdef __SSE2__
  const __m128i top = _mm_set1_epi8((char)(SIM_CSTACK - 1));
  for (unsigned l = 0; l < SIM_MAX_WARP; l += 16) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(w->csp + l));
    full |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpgt_epi8(v, top)) << l;
  }
#else
  for (unsigned l = 0; l < SIM_MAX_WARP; l++)
    full |= (uint64_t)(w->csp[l] >= SIM_CSTACK) << l;
#endif
  return full;
}

#ifdef SIM_X86
/* No convergence barrier open on any of the first 32 lanes (csp[l] 0), one test. */
__attribute__((target("avx2"))) static inline int csp_none32_avx2(const uint8_t *csp)
{
  const __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)csp);
  return _mm256_testz_si256(v, v);
}

/* cstack_full for the first 32 lanes, one compare. */
__attribute__((target("avx2"))) static inline uint32_t cstack_full32_avx2(const uint8_t *csp)
{
  return (uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(
      _mm256_loadu_si256((const __m256i *)(const void *)csp), _mm256_set1_epi8((char)(SIM_CSTACK - 1))));
}
#endif

/* When every lane of m is at one depth (the lanes of a group, but for those ITS's escape let
   past a barrier), a row of the stack is written eight lanes a vector, the other lanes'
   entries kept; else lane by lane. */
#ifdef SIM_X86
/* sim_warp_cstack_put's vector path for m within the first 32 lanes: 1, or 0 when m's lanes
   are not all at one depth. */
__attribute__((target("avx2"))) static int cstack_put32_avx2(struct sim_warp *w, uint32_t m,
                                                             int16_t t)
{
  const uint8_t d = w->csp[sim_ctz64(m)];
  const uint32_t same = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(
      _mm256_loadu_si256((const __m256i *)(const void *)w->csp), _mm256_set1_epi8((char)d)));
  if (m & ~same)
    return 0;
  const __m256i bit = _mm256_setr_epi16(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048,
                                        4096, 8192, 16384, -32768);
  const __m256i vt = _mm256_set1_epi16(t);
  int16_t *row = w->cstack[d];
  for (unsigned l = 0; l < 32; l += 16) {
    const unsigned bits = m >> l & 0xffff;
    if (!bits)
      continue;
    const __m256i on = _mm256_cmpeq_epi16(_mm256_and_si256(_mm256_set1_epi16((short)bits), bit),
                                          bit);
    __m256i *p = (__m256i *)(void *)(row + l);
    _mm256_storeu_si256(p, _mm256_blendv_epi8(_mm256_loadu_si256(p), vt, on));
  }
  return 1;
}
#endif

void sim_warp_cstack_put(struct sim_warp *w, uint64_t m, int16_t t)
{
#ifdef SIM_X86
  if (sim_cpu_avx2 && !(m >> 32) && cstack_put32_avx2(w, (uint32_t)m, t))
    return;
#endif
#ifdef __SSE2__
  const uint8_t d = w->csp[sim_ctz64(m)];
  const __m128i vd = _mm_set1_epi8((char)d);
  uint64_t same = 0;
  for (unsigned l = 0; l < SIM_MAX_WARP; l += 16)
    same |= (uint64_t)(uint16_t)_mm_movemask_epi8(
                _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(w->csp + l)), vd))
            << l;
  if (!(m & ~same)) {
    const __m128i bit = _mm_setr_epi16(1, 2, 4, 8, 16, 32, 64, 128);
    const __m128i vt = _mm_set1_epi16(t);
    int16_t *row = w->cstack[d];
    for (unsigned l = 0; l < SIM_MAX_WARP && m >> l; l += 8) {
      const unsigned bits = (unsigned)(m >> l) & 0xff;
      if (!bits)
        continue;
      const __m128i on = _mm_cmpeq_epi16(_mm_and_si128(_mm_set1_epi16((short)bits), bit), bit);
      __m128i *p = (__m128i *)(void *)(row + l);
      _mm_storeu_si128(p, _mm_or_si128(_mm_andnot_si128(on, _mm_loadu_si128(p)),
                                       _mm_and_si128(on, vt)));
    }
    return;
  }
#endif
  for (uint64_t mm = m; mm; mm &= mm - 1) {
    unsigned l = sim_ctz64(mm);
    w->cstack[w->csp[l]][l] = t;
  }
}

/* A new convergence barrier at pc for the lanes of m, split by the branch at from (or the
   group's own, when it already waits for them at that pc). Returns the barrier, the lanes'
   top one now, or -1 when the nesting is too deep. m's lanes share their top barrier, the
   group's (gtop): it becomes the new one's parent. */
static int push_cbar(struct sim_warp *w, uint64_t m, uint32_t pc, uint32_t from)
{
  if (w->gtop >= 0 && w->cbar[w->gtop].pc == pc && w->cbar[w->gtop].expect)
    return w->gtop;
  uint32_t t = 0;
  while (t < w->ncbar && w->cbar[t].expect)
    t++;
  if (t == SIM_NCBAR)
    return -1;
#ifdef SIM_X86
  if (sim_cpu_avx2 && !(m >> 32)) {
    if (cstack_full32_avx2(w->csp) & m)
      return -1;
  } else
#endif
  if (cstack_full(w) & m)
    return -1;
  if (t == w->ncbar)
    w->ncbar++;
  w->cbar[t].pc = pc;
  w->cbar[t].expect = m;
  w->cbar[t].waiting = 0;
  w->cbar[t].from = from;
  w->cbar[t].parent = w->gtop;
  sim_warp_cstack_put(w, m, (int16_t)t);
  csp_add(w, m, 1);
  return (int)t;
}

#ifdef SIM_X86
/* select_group's pass for the lanes cand of a 32-lane warp, eight lanes a vector: the lowest
   pc of cand's lanes into *minpc, and those of its lanes whose top convergence barrier
   (lane_top's, a gather of the stacks' tops) is the lowest-numbered one's, that top into
   *top. */
__attribute__((target("avx2"))) static uint64_t scan_group32_avx2(const struct sim_warp *w,
                                                                  uint32_t cand,
                                                                  uint32_t *minpc, int *top)
{
  const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
  const __m256i iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), ones = _mm256_set1_epi32(-1);
  __m256i pcs[4], mn = ones;
  for (unsigned k = 0; k < 4; k++) {
    const __m256i in = _mm256_cmpeq_epi32(
        _mm256_and_si256(_mm256_set1_epi32((int)(cand >> (8 * k) & 255)), bit), bit);
    pcs[k] = _mm256_loadu_si256((const __m256i *)(const void *)(w->pc + 8 * k));
    mn = _mm256_min_epu32(mn, _mm256_or_si256(pcs[k], _mm256_andnot_si256(in, ones)));
  }
  const uint32_t lo = sim_min_u32x8(mn);
  const __m256i vlo = _mm256_set1_epi32((int)lo);
  uint32_t at = 0;
  int32_t tops[32];
  for (unsigned k = 0; k < 4; k++) {
    at |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(pcs[k], vlo)))
          << (8 * k);
    /* lane_top: cstack[csp - 1][l] where csp is not 0, else -1 */
    const __m256i sp = _mm256_cvtepu8_epi32(
        _mm_loadl_epi64((const __m128i *)(const void *)(w->csp + 8 * k)));
    const __m256i open = _mm256_cmpgt_epi32(sp, _mm256_setzero_si256());
    const __m256i idx = _mm256_add_epi32(
        _mm256_slli_epi32(_mm256_sub_epi32(sp, _mm256_set1_epi32(1)), 6),  /* SIM_MAX_WARP */
        _mm256_add_epi32(iota, _mm256_set1_epi32((int)(8 * k))));
    const __m256i t = _mm256_mask_i32gather_epi32(ones, (const int *)(const void *)w->cstack,
                                                  idx, open, 2);
    _mm256_storeu_si256((__m256i *)(void *)(tops + 8 * k),
                        _mm256_srai_epi32(_mm256_slli_epi32(t, 16), 16));
  }
  at &= cand;
  const int t0 = tops[__builtin_ctz(at)];
  const __m256i vt = _mm256_set1_epi32(t0);
  uint32_t g = 0;
  for (unsigned k = 0; k < 4; k++)
    g |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(
             _mm256_loadu_si256((const __m256i *)(const void *)(tops + 8 * k)), vt)))
         << (8 * k);
  *minpc = lo;
  *top = t0;
  return g & at;
}
#endif

/* Choose the next group; 0 when no lane can run. */
static int select_group(struct sim_warp *w)
{
  uint64_t sel = w->live & ~w->barwait & ~w->syncwait & ~w->cwait;
  if (!sel)
    return 0;
  w->prefer &= sel;
  uint64_t cand = w->prefer ? w->prefer : sel;
  if (cand == 0xffffffffull) {
    /* a whole 32-lane warp at one pc with no convergence barrier open (after a barrier, a
       uniform loop): the group is every lane, with no per-lane scan */
    if (sim_pcs_uniform32(w->pc, w->csp)) {
      w->gmask = cand;
      w->gpc = w->pc[0];
      w->gtop = -1;
      w->have_group = 1;
      return 1;
    }
  }
  w->gmask = sim_warp_scan_group(w, cand, &w->gpc, &w->gtop);
  w->have_group = 1;
  return 1;
}

uint64_t sim_warp_scan_group(const struct sim_warp *w, uint64_t cand, uint32_t *pc, int *top)
{
#ifdef SIM_X86
  if (sim_cpu_avx2 && sim_warp_shortcuts && !(cand >> 32))
    return scan_group32_avx2(w, (uint32_t)cand, pc, top);
#endif
  /* one pass: the lowest pc so far, and its lanes under the first one's convergence
     barrier (a lower pc starts again; its first lane is the lowest-numbered one there) */
  uint32_t minpc = UINT32_MAX;
  uint64_t g = 0;
  int t0 = -2;
  for (uint64_t m = cand; m; m &= m - 1) {
    unsigned l = sim_ctz64(m);
    uint32_t lpc = w->pc[l];
    if (lpc > minpc)
      continue;
    if (lpc < minpc) {
      minpc = lpc;
      g = 0;
      t0 = -2;
    }
    int t = lane_top(w, l);
    if (t0 == -2)
      t0 = t;
    if (t == t0)
      g |= 1ull << l;
  }
  *pc = minpc;
  *top = t0;
  return g;
}

int sim_warp_take_group(struct sim_warp *w, uint64_t m, uint32_t pc, int top)
{
  return take_group(w, m, pc, top);
}

int sim_warp_rejoin32(struct sim_warp *w, uint32_t pc)
{
  /* select_group's whole-warp choice (sim_pcs_uniform32: every pc the same, no barrier
     open), the pcs known the same */
#ifdef SIM_X86
  if (sim_cpu_avx2) {
    if (!csp_none32_avx2(w->csp))
      return 0;
  } else
#endif
  for (unsigned l = 0; l < 32; l++)
    if (w->csp[l])
      return 0;
  return take_group(w, 0xffffffffull, pc, -1);
}

#ifdef SIM_X86
/* The lanes of g of a 32-lane warp split by a branch: pc[l] = t1 for those of e, t0 for the
   rest, the other lanes' pcs as they are; eight lanes a blend instead of a test per lane. */
__attribute__((target("avx2"))) static void pcs_split_avx2(uint32_t *pc, uint64_t g, uint64_t e,
                                                          uint32_t t1, uint32_t t0)
{
  const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
  const __m256i v1 = _mm256_set1_epi32((int)t1), v0 = _mm256_set1_epi32((int)t0);
  for (unsigned l = 0; l < 32; l += 8) {
    __m256i gm = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int)(g >> l & 255)), bit),
                                    bit);
    __m256i em = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int)(e >> l & 255)), bit),
                                    bit);
    __m256i *p = (__m256i *)(void *)(pc + l);
    __m256i nv = _mm256_blendv_epi8(v0, v1, em);
    _mm256_storeu_si256(p, _mm256_blendv_epi8(_mm256_loadu_si256(p), nv, gm));
  }
}
#endif

/* Lanes of m for which the instruction's guard holds (sim_guard_mask's; a 32-lane warp on a
   CPU with AVX2 packs every lane's bit, then keeps m's, with no test per lane). */
static uint64_t guard_lanes(const struct sim_block *b, const struct sim_warp *w,
                            const struct ptx_inst *in, uint64_t m)
{
  if (in->guard == PTX_NOREG)
    return m;
#ifdef SIM_X86
  if (sim_cpu_avx2 && b->W == 32) {
    uint64_t e = sim_guard_bits32_avx2(REG(in->guard));
    return (in->guard_neg ? ~e : e) & m;
  }
#endif
  return sim_guard_mask(REG(in->guard), m, in->guard_neg);
}

static uint64_t hash_state(const struct sim_block *b, const struct sim_warp *w)
{
  uint64_t h = 1469598103934665603ull;
  size_t n = (size_t)b->prog->nregs * b->W;
  for (size_t i = 0; i < n; i++)
    h = (h ^ w->regs[i]) * 1099511628211ull;
  for (unsigned l = 0; l < b->W; l++)
    h = (h ^ (w->have_group && (w->gmask >> l & 1) ? w->gpc : w->pc[l])) * 1099511628211ull;
  h = (h ^ w->live ^ (w->cwait << 1) ^ (w->gmask << 2)) * 1099511628211ull;
  return h;
}

/* The group took a backward branch: count it toward ITS's escape and the livelock watch. */
static void backward(struct sim_block *b, struct sim_warp *w)
{
  w->backs++;
  w->loopers |= w->gmask;
  uint64_t waiting = w->live & w->cwait & ~w->gmask;
  if (waiting)
    w->spin++;
  if (b->cfg->sched == SIM_SCHED_ITS && waiting && w->spin >= SPIN_LIMIT) {
    /* let the waiting lanes past their barrier, so they can make progress */
    dissolve(w);
    for (uint64_t mm = waiting; mm; mm &= mm - 1) {
      unsigned l = sim_ctz64(mm);
      int t = lane_top(w, l);
      if (t < 0)
        continue;
      w->cbar[t].expect &= ~(1ull << l);
      w->cbar[t].waiting &= ~(1ull << l);
      w->csp[l]--;
      w->cwait &= ~(1ull << l);
      w->prefer |= 1ull << l;
    }
    recheck_all(b, w);
    w->spin = 0;
  }
  if (w->backs % (b->in_group ? GROUP_CHECK_EVERY : CHECK_EVERY) == 0) {
    uint64_t h = hash_state(b, w);
    uint64_t wr = b->writes + sim_launch_global_writes(b);
    w->spinning = w->snap_valid && h == w->snap_hash && wr == w->snap_writes;
    w->snap_hash = h;
    w->snap_writes = wr;
    w->snap_valid = 1;
    w->snap_loopers = w->loopers;
    w->loopers = 0;
    uint64_t ready = w->live & ~w->barwait & ~w->syncwait & ~w->cwait & ~w->gmask;
    if (w->spinning && ready && b->cfg->sched == SIM_SCHED_ITS) {
      /* lanes that could run have not, because the scheduler keeps choosing the loop (the
         lowest pc): forward progress lets them run first, as it lets past waiting lanes */
      dissolve(w);
      w->prefer |= ready;
      w->spinning = 0;
    }
  }
}

int sim_warp_back(struct sim_block *b, struct sim_warp *w)
{
  backward(b, w);
  return w->have_group;
}

/* Count a control instruction at pc run by lanes m, of which e pass its guard. */
static inline void count(struct sim_block *b, const struct sim_warp *w, uint32_t pc,
                         uint64_t m, uint64_t e)
{
  if (b->trace)
    sim_trace_inst(b, w, pc, m);
  if (b->lanes)
    sim_lanes_inst(b, w, pc, m);
  b->ctr.warp_insts++;
  b->ctr.thread_insts += sim_popc64(m);
  struct sim_inst_stats *st = &b->stats[pc];
  st->execs++;
  st->threads += sim_popc64(m);
  st->pred_on += sim_popc64(e);
}

/* Lanes m of w start waiting at bar.sync or bar.red `in` with barrier id: the block's counts
   for release_barriers (sim_block.c). The thread count that a bar with one names is the
   first such lane's, in warp then lane order. */
static inline void bar_enter(struct sim_block *b, const struct sim_warp *w,
                             const struct ptx_inst *in, uint32_t id, uint64_t m)
{
  int red = in->sub == PTX_BAR_RED;
  b->bar_count[id] += sim_popc64(m);
  b->bar_ids |= 1u << id;
  if (w->id < 64)
    b->bar_warps[id] |= 1ull << w->id;
  b->bar_red |= (uint32_t)red << id;
  b->bar_mixed |= w->barmixed & (1u << id);
  if (red ? in->nopd >= 4 : in->nopd >= 2) {
    unsigned l = sim_ctz64(m);
    uint32_t who = w->id * SIM_MAX_WARP + l;
    if (!(b->bar_counted >> id & 1) || who < b->bar_namer[id]) {
      b->bar_counted |= 1u << id;
      b->bar_namer[id] = who;
      b->bar_expect[id] = (uint32_t)REG(in->opd[red ? 2 : 1].reg)[l];
    }
  }
}

/* Mask of lanes a .sync collective needs: its membermask operand, within the live lanes. */
static uint64_t sync_need(const struct sim_block *b, const struct sim_warp *w,
                          const struct ptx_inst *in, unsigned l)
{
  int idx = in->op == PTX_OP_SHFL ? 4 : 2;
  if (ptx_mma_op(in->op))
    return w->live;                             /* .aligned tensor-core ops: the whole warp */
  if (in->nopd <= idx)
    return 0;                                   /* old non-.sync form */
  uint64_t mask = REG(in->opd[idx].reg)[l] & 0xffffffffu;
  if (b->W == 64 && mask == 0xffffffffu)
    mask = ~0ull;                               /* a full mask means the whole wave */
  return mask & w->live;
}

/* The call lane l of w makes through the function pointer of indirect call ci (instruction
   pc): *cidx gets its callinfo (one of ci's alternatives). Returns 0, or 1 after reporting a
   pointer that is not the address of a function this kernel can call. */
static int call_through(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l,
                        const struct sim_callinfo *ci, uint32_t *cidx)
{
  const struct sim_prog *p = b->prog;
  const struct ptx_inst *in = &p->code[pc];
  uint64_t v = REG(in->opd[0].reg)[l], f = (v - PTX_FUNC_ADDR_BASE) >> 4;
  if (v >= PTX_FUNC_ADDR_BASE && !(v & 15) && f < p->mod->nfuncs &&
      p->calls[ci->first_alt + f].target != SIM_NO_TARGET) {
    *cidx = ci->first_alt + (uint32_t)f;
    return 0;
  }
  char msg[256];
  if (v >= PTX_FUNC_ADDR_BASE && !(v & 15) && f < p->mod->nfuncs)
    snprintf(msg, sizeof msg, "a call through a function pointer to %s, which takes other "
             "parameters than the call passes or cannot run on the emulator", p->mod->funcs[f].name);
  else
    snprintf(msg, sizeof msg, "a call through a function pointer (%#llx) that is not the address "
             "of a device function%s", (unsigned long long)v,
             v == 0 ? ": a null pointer, or an object whose virtual function table was never set "
                      "(constructed on the host, or not constructed)" : "");
  sim_fault_other(b, w, pc, l, SIM_FK_TRAP, msg);
  return 1;
}

/* The lanes g of w, at the bra `in` at pc, split: those of e (not none, not all of g) to its
   target, the others on to pc + 1. Pushes the convergence barrier at the branch's
   reconvergence point and chooses the group that runs next where select_group would (a
   divergent branch's part of control()). Returns 0, or 1 after reporting the fault (divergence
   nested too deeply). */
static int diverge(struct sim_block *b, struct sim_warp *w, const struct ptx_inst *in,
                   uint32_t pc, uint64_t g, uint64_t e)
{
  const uint32_t target = in->opd[0].reg;
  /* divergent: the group's lanes share their top convergence barrier t, before and after
     a new one is pushed */
  int t = w->gtop;
  if (in->reconv != PTX_NOREG && (t = push_cbar(w, g, in->reconv, pc)) < 0) {
    sim_fault_other(b, w, pc, sim_ctz64(g), SIM_FK_TRAP,
                    "divergent branches nested too deeply for the emulator");
    return 1;
  }
  w->have_group = 0;
#ifdef SIM_X86
  if (sim_cpu_avx2 && b->W == 32)
    pcs_split_avx2(w->pc, g, e, target, pc + 1);
  else
#endif
    for (uint64_t mm = g; mm; mm &= mm - 1) {
      unsigned l = sim_ctz64(mm);
      w->pc[l] = (e >> l & 1) ? target : pc + 1;
    }
  if (target <= pc) {
    w->gmask = e;                                 /* the looping lanes, for backward() */
    backward(b, w);
    w->have_group = 0;
  }
  if (t >= 0) {                                   /* the side already at t's pc waits */
    uint32_t at_pc = w->cbar[t].pc;
    uint64_t at = (target == at_pc ? e : 0) | (pc + 1 == at_pc ? g & ~e : 0);
    if (at)
      wait_at(b, w, at, t);
    if (at && !w->cbar[t].expect)
      return 0;                                   /* released: select_group chooses */
  }
  if (target > pc + 1) {
    /* the lanes of g not waiting at t run on, the side at pc + 1 first (the lower pc),
       their top barrier t: select_group's choice, made here */
    uint64_t rg = g & ~w->cwait, lo = rg & ~e;
    take_group(w, lo ? lo : rg, lo ? pc + 1 : target, t);
  }
  return 0;
}

/* Whether push_cbar would push a new convergence barrier for the lanes g: a slot free, no
   lane's stack full. */
static int push_ok(const struct sim_warp *w, uint64_t g)
{
  uint32_t t = 0;
  while (t < w->ncbar && w->cbar[t].expect)
    t++;
  if (t == SIM_NCBAR)
    return 0;
#ifdef SIM_X86
  if (sim_cpu_avx2 && !(g >> 32))
    return !(cstack_full32_avx2(w->csp) & g);
#endif
  return !(cstack_full(w) & g);
}

/* What an if without else leaves, run through by its lanes at once (sim_exec_run):
   control() splits the group g at the bra (diverge: a new convergence barrier at the target,
   e's lanes waiting there, the group g & ~e on at pc + 1 under it); the group's last
   instruction before the target takes it there, where arrive_group releases the barrier (its
   slot free again, each lane's stack depth as before, cwait as before, spin 0) and takes g
   again at the target under its old top barrier (prefer 0). Each step is the shortcut
   take_group takes, and the pushing succeeds, when:
   - the lanes of g are all that can run (the others wait at a barrier, a collective or a
     convergence point), none of g & ~e is preferred, and the first live lane is one of them;
   - the group's top barrier is not at the target (push_cbar would reuse it, its release
     would let the lanes on onto it);
   - a barrier slot is free and no lane of g has its stack full (push_cbar would fault).
   Lanes' pcs, stack entries above their tops and free slots are read by nothing while the
   group runs, so those are all the state there is: sim_warp_skip sets it. */
int sim_warp_skip_ok(const struct sim_warp *w, uint64_t e, uint32_t target)
{
  const uint64_t g = w->gmask, lo = g & ~e;
  return sim_warp_shortcuts && w->have_group && lo && e && !(e & ~g) &&
         (w->live & ~w->barwait & ~w->syncwait & ~w->cwait) == g && !(w->prefer & lo) &&
         (lo >> sim_ctz64(w->live) & 1) && !(w->gtop >= 0 && w->cbar[w->gtop].pc == target) &&
         push_ok(w, g);
}

/* (the lanes of g all that can run, none preferred: select_group's choice once the first
   side waits at join is the other side's lanes; the group's top barrier not between the
   branch and join, where it would have the lanes arrive, nor at join, which push_cbar would
   reuse) */
int sim_warp_ifelse_ok(const struct sim_warp *w, uint64_t e, uint32_t pc, uint32_t join)
{
  const uint64_t g = w->gmask;
  return sim_warp_shortcuts && w->have_group && (g & ~e) && e && !(e & ~g) &&
         (w->live & ~w->barwait & ~w->syncwait & ~w->cwait) == g && !(w->prefer & g) &&
         !(w->gtop >= 0 && w->cbar[w->gtop].pc > pc && w->cbar[w->gtop].pc <= join) &&
         push_ok(w, g);
}

int sim_warp_sync_ok(const struct sim_warp *w)
{
#ifdef SIM_X86
  /* control()'s shortcut (csp none, the group all it needs) and take_group's conditions,
     for a group of all 32 lanes (gtop -1 as take_group leaves it) */
  return sim_warp_shortcuts && sim_cpu_avx2 && w->have_group && w->gmask == 0xffffffffull &&
         w->live == 0xffffffffull && !w->syncwait && !w->barwait && !w->cwait && !w->prefer &&
         w->gtop < 0 && csp_none32_avx2(w->csp);
#else
  (void)w;
  return 0;
#endif
}

void sim_warp_skip(struct sim_warp *w)
{
  w->prefer = 0;
  w->spin = 0;
}

int sim_warp_split(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t e)
{
  return diverge(b, w, &b->prog->code[pc], pc, w->gmask, e);
}

/* Control instructions and .sync collectives. Returns 0 to go on, 1 when the warp must stop
   (fault). */
static int control(struct sim_block *b, struct sim_warp *w, const struct ptx_inst *in)
{
  const struct sim_prog *p = b->prog;
  uint32_t pc = w->gpc;
  uint64_t g = w->gmask;
  uint64_t e = guard_lanes(b, w, in, g);

  switch ((enum ptx_op)in->op) {
  case PTX_OP_BRA: {
    count(b, w, pc, g, e);
    uint32_t target = in->opd[0].reg;
    if (e == g || !e)
      b->stats[pc].br_uniform++;
    else
      b->stats[pc].br_divergent++;
    if (e == g) {
      w->gpc = target;
      if (target <= pc)
        backward(b, w);
      if (w->have_group && w->gtop >= 0 && w->gpc == w->cbar[w->gtop].pc) {
        arrive_group(b, w, g, w->gtop);
      }
      return 0;
    }
    if (!e) {
      w->gpc = pc + 1;
      if (w->gtop >= 0 && w->gpc == w->cbar[w->gtop].pc) {
        arrive_group(b, w, g, w->gtop);
      }
      return 0;
    }
    return diverge(b, w, in, pc, g, e);
  }

  case PTX_OP_CALL: {
    count(b, w, pc, g, e);
    const struct sim_callinfo *ci = &p->calls[in->opd[1].imm];
    size_t fs = p->pframe_size;
    if (ci->builtin) {
      /* printf, assert: run here, lane by lane, as one instruction */
      for (uint64_t mm = e; mm; mm &= mm - 1) {
        unsigned l = sim_ctz64(mm);
        uint8_t *fr = w->pframe + l * fs;
        for (uint32_t k = 0; k < ci->nin; k++) {
          const struct sim_copy *cp = &p->copies[ci->first_in + k];
          memmove(fr + cp->dst, fr + cp->src, cp->size);
        }
        if (sim_builtin(b, w, pc, l, ci))
          return 1;
        for (uint32_t k = 0; k < ci->nout; k++) {
          const struct sim_copy *cp = &p->copies[ci->first_out + k];
          memmove(fr + cp->dst, fr + cp->src, cp->size);
        }
      }
      w->gpc = pc + 1;
      if (w->gtop >= 0 && w->gpc == w->cbar[w->gtop].pc) {
        arrive_group(b, w, g, w->gtop);
      }
      return 0;
    }
    uint32_t tgt[SIM_MAX_WARP], first = SIM_NO_TARGET;
    int same = 1;
    for (uint64_t mm = e; mm; mm &= mm - 1) {
      unsigned l = sim_ctz64(mm);
      uint32_t cidx = (uint32_t)in->opd[1].imm;
      if (ci->target == SIM_NO_TARGET && call_through(b, w, pc, l, ci, &cidx))
        return 1;
      const struct sim_callinfo *cl = &p->calls[cidx];
      if (p->recursive) {                  /* the lane's own call stack (sim_recur.c) */
        if (sim_recur_call(b, w, pc, l, cidx))
          return 1;
        tgt[l] = cl->target;
        if (first == SIM_NO_TARGET)
          first = cl->target;
        same &= cl->target == first;
        continue;
      }
      if (w->depth[l] >= SIM_CALLDEPTH) {
        sim_fault_other(b, w, pc, l, SIM_FK_CALL_DEPTH, "device-function calls nested too deeply");
        return 1;
      }
      uint8_t *fr = w->pframe + l * fs;
      for (uint32_t k = 0; k < cl->nin; k++) {
        const struct sim_copy *c = &p->copies[cl->first_in + k];
        memmove(fr + c->dst, fr + c->src, c->size);
      }
      w->ret_pc[l][w->depth[l]] = pc + 1;
      w->ret_call[l][w->depth[l]] = cidx;
      w->depth[l]++;
      tgt[l] = cl->target;
      if (first == SIM_NO_TARGET)
        first = cl->target;
      same &= cl->target == first;
    }
    if (e == g && same) {
      w->gpc = first;
    } else {
      /* lanes calling different functions (virtual calls on objects of several classes) go
         their own ways, as lanes of a divergent branch, and meet again after the call */
      w->have_group = 0;
      for (uint64_t mm = g; mm; mm &= mm - 1) {
        unsigned l = sim_ctz64(mm);
        w->pc[l] = (e >> l & 1) ? tgt[l] : pc + 1;
      }
      arrive(b, w, g);
    }
    return 0;
  }

  case PTX_OP_RET:
  case PTX_OP_EXIT: {
    count(b, w, pc, g, e);
    /* exit, and ret in a kernel that makes no calls: every lane exits; else a ret returns
       the lanes in a call */
    int all_exit = in->op == PTX_OP_EXIT || !p->ncalls_all;
    uint64_t exiting = all_exit ? e : 0;
    dissolve(w);
    for (uint64_t mm = all_exit ? 0 : e; mm; mm &= mm - 1) {
      unsigned l = sim_ctz64(mm);
      if (w->depth[l] && p->recursive) {
        sim_recur_return(b, w, l);
      } else if (w->depth[l]) {
        unsigned dd = --w->depth[l];
        const struct sim_callinfo *ci = &p->calls[w->ret_call[l][dd]];
        uint8_t *fr = w->pframe + (size_t)l * p->pframe_size;
        for (uint32_t k = 0; k < ci->nout; k++) {
          const struct sim_copy *c = &p->copies[ci->first_out + k];
          memmove(fr + c->dst, fr + c->src, c->size);
        }
        w->pc[l] = w->ret_pc[l][dd];
      } else {
        exiting |= 1ull << l;
      }
    }
    for (uint64_t mm = g & ~e; mm; mm &= mm - 1)
      w->pc[sim_ctz64(mm)] = pc + 1;
    if (exiting && w->syncwait && sim_race_exit(b, w, pc, exiting))
      return 1;
    if (exiting) {
      w->live &= ~exiting;
      b->nlive -= sim_popc64(exiting);
      w->cwait &= ~exiting;
#ifdef SIM_X86
      if (sim_cpu_avx2 && !(exiting >> 32))
        csp_zero32_avx2(w->csp, (uint32_t)exiting);
      else
#endif
        for (uint64_t mm = exiting; mm; mm &= mm - 1)
          w->csp[sim_ctz64(mm)] = 0;
      recheck_all(b, w);
    }
    arrive(b, w, g & ~exiting);
    return 0;
  }

  case PTX_OP_BAR: {
    count(b, w, pc, g, e);
    dissolve(w);
    if (in->sub == PTX_BAR_WARP_SYNC) {
      for (uint64_t mm = g & ~e; mm; mm &= mm - 1)
        w->pc[sim_ctz64(mm)] = pc + 1;
      if (!e)
        return 0;
      if (sim_race_mask(b, w, pc, in, e))
        return 1;
      uint64_t need = REG(in->opd[0].reg)[sim_ctz64(e)] & 0xffffffffu;
      if (b->W == 64 && need == 0xffffffffu)
        need = ~0ull;
      need &= w->live;
#ifdef SIM_X86
      if (!w->syncwait && e == g && !(need & ~e) && b->W == 32 && sim_cpu_avx2 &&
          sim_warp_shortcuts && csp_none32_avx2(w->csp)) {
        /* the group's lanes all it waits for, no lane waiting elsewhere, no convergence
           barrier open: they step past it together (the loop below, for lanes all at pc)
           and, with nothing for arrive to do, go on as the group select_group would choose
           (take_group's shortcut) */
        if (e == 0xffffffffull)
          sim_pcs_fill32(w->pc, pc + 1);
        else
          pcs_set_avx2(w->pc, (uint32_t)e, pc + 1);
        w->wsync++;
        take_group(w, e, pc + 1, -1);
        return 0;
      }
#endif
      w->syncwait |= e;
      if ((w->syncwait & need) == need) {
        /* everyone arrived (at this or another bar.warp.sync): go on past it */
        uint64_t rel = w->syncwait & (need | e);
        for (uint64_t mm = rel; mm; mm &= mm - 1) {
          unsigned l = sim_ctz64(mm);
          if (p->code[w->pc[l]].op == PTX_OP_BAR && p->code[w->pc[l]].sub == PTX_BAR_WARP_SYNC)
            w->pc[l]++;
        }
        w->syncwait &= ~rel;
        w->wsync++;
        arrive(b, w, rel);
      }
      return 0;
    }
    if (in->sub == PTX_BAR_CLUSTER_ARRIVE || in->sub == PTX_BAR_CLUSTER_WAIT) {
      /* barrier.cluster: lanes that may not go on wait for the cluster (sim_cluster.c) */
      uint64_t go = sim_cluster_barrier(b, w, in->sub == PTX_BAR_CLUSTER_WAIT, e);
      for (uint64_t mm = (g & ~e) | go; mm; mm &= mm - 1)
        w->pc[sim_ctz64(mm)] = pc + 1;
      arrive(b, w, (g & ~e) | go);
      return 0;
    }
    if (in->sub == PTX_BAR_ARRIVE) {
      uint32_t id = (uint32_t)REG(in->opd[0].reg)[sim_ctz64(g)] & 15;
      b->bar_arrived[id] += sim_popc64(e);
      for (uint64_t mm = g; mm; mm &= mm - 1)
        w->pc[sim_ctz64(mm)] = pc + 1;
      arrive(b, w, g);
      return 0;
    }
    /* bar.sync / bar.red: wait for the block layer to release the barrier */
    if (in->sub != PTX_BAR_RED && e && in->opd[0].reg >= p->nregs - p->nconst) {
      /* a constant barrier id (bar.sync 0): one id for every lane, the bookkeeping at once */
      uint32_t id = (uint32_t)REG(in->opd[0].reg)[sim_ctz64(e)] & 15;
      for (uint64_t mm = g & ~e; mm; mm &= mm - 1)
        w->pc[sim_ctz64(mm)] = pc + 1;
      if (!w->barat[id])
        w->barpc[id] = pc;
      else if (w->barpc[id] != pc)
        w->barmixed |= 1u << id;
      w->barat[id] |= e;
      w->barids |= 1u << id;
      w->barwait |= e;
      bar_enter(b, w, in, id, e);
      if (g & ~e)
        arrive(b, w, g & ~e);
      return 0;
    }
    for (uint64_t mm = g; mm; mm &= mm - 1) {
      unsigned l = sim_ctz64(mm);
      if (e >> l & 1) {
        uint32_t id = (uint32_t)REG(in->opd[0].reg)[l] & 15;
        if (!w->barat[id])
          w->barpc[id] = pc;
        else if (w->barpc[id] != pc)
          w->barmixed |= 1u << id;
        w->barat[id] |= 1ull << l;
        w->barids |= 1u << id;
        bar_enter(b, w, in, id, 1ull << l);
        if (in->sub == PTX_BAR_RED) {
          const struct ptx_operand *po = &in->opd[in->nopd - 1];
          w->barpred[l] = (uint8_t)((REG(po->reg)[l] & 1) ^ po->neg);
        }
      } else {
        w->pc[l] = pc + 1;
      }
    }
    w->barwait |= e;
    arrive(b, w, g & ~e);
    return 0;
  }

  case PTX_OP_TRAP:
    count(b, w, pc, g, e);
    if (!e) {
      w->gpc = pc + 1;
      return 0;
    }
    sim_fault_other(b, w, pc, sim_ctz64(e), SIM_FK_TRAP,
                    "the kernel executed a trap instruction (for example a failed assert())");
    return 1;

  case PTX_OP_SHFL:
  case PTX_OP_VOTE:
  case PTX_OP_MATCH:
  case PTX_OP_REDUX:
  case PTX_OP_WMMA:
  case PTX_OP_MMA:
  case PTX_OP_LDMATRIX:
  case PTX_OP_STMATRIX: {
    if ((in->op == PTX_OP_SHFL || !ptx_mma_op(in->op)) && sim_race_mask(b, w, pc, in, e))
      return 1;
    uint64_t need = g ? sync_need(b, w, in, sim_ctz64(g)) : 0;
    uint64_t waiting_here = 0;
    for (uint64_t mm = w->syncwait; mm; mm &= mm - 1) {
      unsigned l = sim_ctz64(mm);
      if (w->pc[l] == pc)
        waiting_here |= 1ull << l;
    }
    uint64_t all = g | waiting_here;
    if ((need & ~all) != 0) {                  /* wait for the rest of the mask */
      dissolve(w);
      w->syncwait |= g;
      return 0;
    }
    w->syncwait &= ~waiting_here;
    if (b->lanes)
      sim_lanes_inst(b, w, pc, all);
    uint32_t npc = in->op == PTX_OP_SHFL && in->guard == PTX_NOREG && b->W == 32
                   ? sim_exec_shfl(b, w, pc, all) : sim_exec(b, w, pc, all);
    if (b->faulted)
      return 1;
    w->wsync++;                                /* orders the lanes' shared accesses */
    if (waiting_here) {
      dissolve(w);
      for (uint64_t mm = all; mm; mm &= mm - 1)
        w->pc[sim_ctz64(mm)] = npc;
      arrive(b, w, all);
    } else {
      w->gpc = npc;
      if (w->gtop >= 0 && w->gpc == w->cbar[w->gtop].pc) {
        arrive_group(b, w, g, w->gtop);
      }
    }
    return 0;
  }

  default:
    return 0;
  }
}

static int is_control(enum ptx_op op)
{
  switch (op) {
  case PTX_OP_BRA:
  case PTX_OP_CALL:
  case PTX_OP_RET:
  case PTX_OP_EXIT:
  case PTX_OP_BAR:
  case PTX_OP_TRAP:
  case PTX_OP_SHFL:
  case PTX_OP_VOTE:
  case PTX_OP_MATCH:
  case PTX_OP_REDUX:
  case PTX_OP_WMMA:
  case PTX_OP_MMA:
  case PTX_OP_LDMATRIX:
  case PTX_OP_STMATRIX:
    return 1;
  default:
    return 0;
  }
}

uint64_t sim_warp_run(struct sim_block *b, struct sim_warp *w, uint64_t quantum)
{
  const struct sim_prog *p = b->prog;
  uint64_t start = b->ctr.warp_insts;
  while (b->ctr.warp_insts - start < quantum) {
    if (!w->have_group && !select_group(w)) {
      w->state = w->live ? SIM_W_BLOCKED : SIM_W_DONE;
      return b->ctr.warp_insts - start;
    }
    uint32_t pc = w->gpc;
    if (pc >= p->ncode) {
      sim_fault_other(b, w, p->ncode ? p->ncode - 1 : 0, sim_ctz64(w->gmask), SIM_FK_TRAP,
                      "control fell off the end of the function (missing ret)");
      return b->ctr.warp_insts - start;
    }
    const struct ptx_inst *in = &p->code[pc];
    if (is_control((enum ptx_op)in->op)) {
      if (control(b, w, in))
        return b->ctr.warp_insts - start;
      continue;
    }
    if (p->fast && p->fast[pc] && b->W == 32 && !b->lanes) {
      /* a run of plain arithmetic and shared accesses, by a full warp or the lanes of a
         branch: one call for all of it */
      uint64_t n = quantum - (b->ctr.warp_insts - start);
      uint32_t npc = sim_exec_run(b, w, pc, w->gtop >= 0 ? w->cbar[w->gtop].pc : UINT32_MAX,
                                  w->gmask, &n);
      if (b->faulted)
        return b->ctr.warp_insts - start;
      if (n) {
        w->gpc = npc;
        if (w->have_group && w->gtop >= 0 && npc == w->cbar[w->gtop].pc) {
          uint64_t g = w->gmask;
          arrive_group(b, w, g, w->gtop);
        }
        continue;
      }                            /* none run: sim_exec reports pc's address */
    }
    if (b->lanes)                  /* the lane log: here, not in sim_exec's lane loops */
      sim_lanes_inst(b, w, pc, w->gmask);
    uint32_t npc = sim_exec(b, w, pc, w->gmask);
    if (b->faulted)
      return b->ctr.warp_insts - start;
    w->gpc = npc;
    if (w->gtop >= 0 && npc == w->cbar[w->gtop].pc) {
      uint64_t g = w->gmask;
      arrive_group(b, w, g, w->gtop);
    }
  }
  w->state = w->live ? SIM_W_RUN : SIM_W_DONE;
  return b->ctr.warp_insts - start;
}
