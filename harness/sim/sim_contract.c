/* sim_contract.c: the multiply-add contraction ptxas does, so that the emulator's floating
 * point is the GPU's bit for bit.
 *
 * The PTX ISA lets the code generator fuse a mul and an add (or sub) that carry no rounding
 * modifier into one fused multiply-add ("mul/add sequences with no rounding modifiers may be
 * optimized to use fused-multiply-add instructions on the target device"), and ptxas does so
 * by default (--fmad=true): nvcc leaves `mul.f32 %f3, %f1, %f2; sub.f32 %f5, %f4, %f3;` in the
 * PTX where its own front end did not fuse, and the GPU runs one FFMA, rounding once. Run as
 * written, the emulator rounds twice and differs in the last bit, which a later truncation
 * (a colour byte: uint(x * 255)) turns into an off-by-one (cuda-samples' recursiveGaussian).
 *
 * The half types are fused the same way: ptxas makes HFMA2 of f16 and f16x2 pairs and
 * HFMA2.BF16_V2 of bf16 and bf16x2 ones (an hgemm's `half tmp += a * b` differed on the H100
 * before they were).
 *
 * The rule, on the linked code: a mul (f32, f64, f16, f16x2, bf16, bf16x2) without rounding
 * modifier or .sat whose result
 * has exactly one use, an add or sub of the same type without rounding modifier or .sat, later
 * in the same straight-line stretch (no branch target, branch or call between), under the
 * same guard, with the mul's sources unchanged between the two. Then
 *   d = x + a*b  (add, either operand order)  becomes  fma.rn d, a, b, x;
 *   d = x - a*b                               becomes  neg m, a;  fma.rn d, m, b, x;
 *   d = a*b - x                               becomes  neg m, x;  fma.rn d, a, b, m;
 * the mul's own register m (used by nothing else) carrying the negated operand where one is
 * needed (-(a)*b and a*b + (-x) round as a*b - ... does: negation is exact). .ftz is kept
 * when both instructions have it, and the pair is left alone when only one has.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/sim_int.h"

/* Does operand o name register r (as a register, a vector element or an address base)? */
static int names_reg(const struct ptx_operand *o, uint32_t r)
{
  switch (o->kind) {
  case PTX_OPD_REG:
    return o->reg == r || o->pair == r;
  case PTX_OPD_VEC:
    for (uint32_t v = 0; v < o->nvec && v < PTX_MAX_VEC; v++)
      if (o->vreg[v] == r)
        return 1;
    return 0;
  case PTX_OPD_ADDR:
    if (o->reg == r)
      return 1;
    for (uint32_t v = 0; v < o->nvec && v < PTX_MAX_VEC; v++)
      if (o->vreg[v] == r)
        return 1;
    return 0;
  default:
    return 0;
  }
}

/* Might instruction in write register r? Its first operand is where PTX puts destinations;
   a store's first operand is an address, which names r only as a source, so it is counted
   too (conservative: a pair is then left alone, never fused wrongly). */
static int may_write(const struct ptx_inst *in, uint32_t r)
{
  return r != PTX_NOREG && in->nopd && names_reg(&in->opd[0], r);
}

static int is_contractible(const struct ptx_inst *in, enum ptx_op op)
{
  return in->op == op && (in->type == PTX_T_F32 || in->type == PTX_T_F64 ||
                          in->type == PTX_T_F16 || in->type == PTX_T_F16X2 ||
                          in->type == PTX_T_BF16 || in->type == PTX_T_BF16X2) &&
         in->rnd == PTX_RND_NONE && !(in->flags & PTX_F_SAT) && in->nopd == 3 &&
         in->opd[0].kind == PTX_OPD_REG && in->opd[1].kind == PTX_OPD_REG &&
         in->opd[2].kind == PTX_OPD_REG;
}

static int ends_stretch(const struct ptx_inst *in)
{
  return in->op == PTX_OP_BRA || in->op == PTX_OP_CALL || in->op == PTX_OP_RET ||
         in->op == PTX_OP_EXIT;
}

void sim_contract_fma(struct sim_prog *p)
{
  uint32_t n = p->ncode, nr = p->nregs;
  uint32_t *uses = calloc(nr ? nr : 1, sizeof *uses);
  uint8_t *target = calloc(n ? n : 1, 1);
  if (!uses || !target) {          /* out of memory: the code runs as written */
    free(uses);
    free(target);
    return;
  }
  for (uint32_t i = 0; i < n; i++) {
    const struct ptx_inst *in = &p->code[i];
    for (uint32_t o = 0; o < in->nopd; o++) {
      const struct ptx_operand *op = &in->opd[o];
      if (op->kind == PTX_OPD_LABEL && op->reg < n)
        target[op->reg] = 1;
      if (op->kind == PTX_OPD_REG && op->reg < nr)
        uses[op->reg]++;
      if (op->kind == PTX_OPD_REG && op->pair < nr)
        uses[op->pair]++;
      if (op->kind == PTX_OPD_VEC || op->kind == PTX_OPD_ADDR) {
        if (op->kind == PTX_OPD_ADDR && op->reg < nr)
          uses[op->reg]++;
        for (uint32_t v = 0; v < op->nvec && v < PTX_MAX_VEC; v++)
          if (op->vreg[v] < nr)
            uses[op->vreg[v]]++;
      }
    }
    if (in->guard < nr)
      uses[in->guard]++;
  }
  for (uint32_t j = 0; j < n; j++) {
    struct ptx_inst *add = &p->code[j];
    int add_ok = is_contractible(add, PTX_OP_ADD), sub_ok = is_contractible(add, PTX_OP_SUB);
    if ((!add_ok && !sub_ok) || (add->flags & ~PTX_F_FTZ))
      continue;
    for (uint32_t o = 1; o <= 2; o++) {          /* the first operand's mul, else the second's */
      uint32_t m = add->opd[o].reg, x = add->opd[3 - o].reg, d = add->opd[0].reg;
      if (m >= nr || uses[m] != 2 || x == m)
        continue;
      uint32_t i = j;                             /* the mul: m's writer, in j's stretch */
      while (i > 0 && !target[i] && !ends_stretch(&p->code[i - 1]) && !may_write(&p->code[i - 1], m))
        i--;
      if (i == 0 || target[i] || ends_stretch(&p->code[i - 1]))
        continue;
      struct ptx_inst *mul = &p->code[--i];
      if (!is_contractible(mul, PTX_OP_MUL) || (mul->flags & ~PTX_F_FTZ) ||
          mul->opd[0].reg != m || mul->type != add->type || mul->guard != add->guard ||
          mul->guard_neg != add->guard_neg || (mul->flags & PTX_F_FTZ) != (add->flags & PTX_F_FTZ))
        continue;
      uint32_t a = mul->opd[1].reg, b = mul->opd[2].reg;
      int kept = a != m && b != m;                /* the mul's sources unchanged until the add */
      for (uint32_t k = i + 1; k < j && kept; k++)
        kept = !may_write(&p->code[k], a) && !may_write(&p->code[k], b) &&
               !may_write(&p->code[k], mul->guard);
      if (!kept)
        continue;
      if (add_ok) {                               /* d = x + a*b */
        add->opd[1].reg = a;
        add->opd[2].reg = b;
      } else if (o == 2) {                        /* d = x - a*b = fma(-a, b, x) */
        mul->op = PTX_OP_NEG;
        mul->nopd = 2;
        add->opd[1].reg = m;
        add->opd[2].reg = b;
      } else {                                    /* d = a*b - x = fma(a, b, -x): -x made */
        struct ptx_inst neg = *mul;               /* just before the add, where x is set; */
        uint32_t orig = p->orig[i];               /* what lay between moves up one */
        memmove(&p->code[i], &p->code[i + 1], (size_t)(j - 1 - i) * sizeof *p->code);
        memmove(&p->orig[i], &p->orig[i + 1], (size_t)(j - 1 - i) * sizeof *p->orig);
        neg.op = PTX_OP_NEG;
        neg.nopd = 2;
        neg.opd[1].reg = x;
        p->code[j - 1] = neg;
        p->orig[j - 1] = orig;
        add->opd[1].reg = a;
        add->opd[2].reg = b;
        x = m;
      }
      add->opd[3] = add->opd[0];
      add->opd[3].reg = x;
      add->opd[0].reg = d;
      add->op = PTX_OP_FMA;
      add->rnd = PTX_RND_RN;
      add->nopd = 4;
      break;
    }
  }
  free(uses);
  free(target);
}
