/* ptx_check.c: every decoded instruction has the operands its opcode needs.
 *
 * The parser reads operands generically; this pass holds each instruction to the shape of its
 * opcode, the SHAPE column of ptx_ops.def (how many operands, and which may be a register, an
 * immediate, an address, a vector, a label), so that the emulator can rely on them and
 * malformed PTX is an error with its line, never a crash. The letters are described there.
 */
#include <stdio.h>
#include <string.h>

#include "ptx/ptx.h"

static int fits(char want, const struct ptx_operand *o)
{
  switch (want) {
  case 'd': return o->kind == PTX_OPD_REG && o->reg != PTX_NOREG;
  case 'o': return o->kind == PTX_OPD_REG;
  case 'D': return (o->kind == PTX_OPD_REG && o->reg != PTX_NOREG) ||
                   (o->kind == PTX_OPD_VEC && o->nvec >= 1 && o->nvec <= 4);
  case 's': return (o->kind == PTX_OPD_REG && o->reg != PTX_NOREG) || o->kind == PTX_OPD_IMM ||
                   o->kind == PTX_OPD_SREG || o->kind == PTX_OPD_SYM;
  case 'S': return fits('s', o) || (o->kind == PTX_OPD_VEC && o->nvec >= 1 && o->nvec <= 4);
  case 'a': return o->kind == PTX_OPD_ADDR;
  case 'l': return o->kind == PTX_OPD_LABEL;
  default: return 0;
  }
}

/* atom/red: a .v2/.v4 access takes a vector source of that many registers (and atom a vector
   result of as many, sinks allowed), a scalar one takes none; no vector CAS. */
static int atom_vectors_fit(const struct ptx_inst *in)
{
  int is_atom = in->op == PTX_OP_ATOM;
  const struct ptx_operand *dst = is_atom ? &in->opd[0] : NULL, *src = &in->opd[is_atom ? 2 : 1];
  unsigned n = in->vec > 1 ? in->vec : 1;
  if (n == 1)
    return src->kind != PTX_OPD_VEC && (!dst || dst->kind != PTX_OPD_VEC);
  if (src->kind != PTX_OPD_VEC || src->nvec != n || (is_atom && in->nopd != 3))
    return 0;
  for (unsigned k = 0; k < n; k++)
    if (src->vreg[k] == PTX_NOREG)
      return 0;
  return !dst || (dst->kind == PTX_OPD_VEC && dst->nvec == n);
}

/* Whether the instruction's operands match one of the forms in list. */
static int matches(const char *list, const struct ptx_inst *in)
{
  const char *p = list;
  for (;;) {
    const char *bar = strchr(p, '|');
    size_t n = bar ? (size_t)(bar - p) : strlen(p);
    if (n == in->nopd) {
      int ok = 1;
      for (size_t k = 0; k < n && ok; k++)
        ok = fits(p[k], &in->opd[k]);
      if (ok)
        return 1;
    }
    if (!bar)
      return 0;
    p = bar + 1;
  }
}

enum ptx_status ptx_check_operands(const struct ptx_module *m, struct ptx_error *err)
{
  for (uint32_t i = 0; i < m->ninsts; i++) {
    const struct ptx_inst *in = &m->insts[i];
    const struct ptx_op_info *oi = ptx_op_info((enum ptx_op)in->op);
    const char *list = oi ? oi->shape : "";
    if (strcmp(list, "*") == 0)
      continue;                               /* call: checked by the parser */
    const char *why = NULL;
    if (!matches(list, in))
      why = "wrong number or kind of operands";
    else if ((in->op == PTX_OP_LD || in->op == PTX_OP_LDU) && in->opd[0].kind == PTX_OPD_VEC &&
             in->opd[0].nvec != in->vec)
      why = "the vector of registers does not match the access's .v2/.v4";
    else if (in->op == PTX_OP_ST && in->opd[1].kind == PTX_OPD_VEC && in->opd[1].nvec != in->vec)
      why = "the vector of registers does not match the access's .v2/.v4";
    else if ((in->op == PTX_OP_LD || in->op == PTX_OP_LDU || in->op == PTX_OP_ST) && in->vec > 1 &&
             in->opd[in->op == PTX_OP_ST ? 1 : 0].kind != PTX_OPD_VEC)
      why = "a .v2/.v4 access needs a vector of registers";
    else if ((in->op == PTX_OP_ATOM || in->op == PTX_OP_RED) && !atom_vectors_fit(in))
      why = "the vectors of registers do not match the atomic's .v2/.v4 (only add and the like "
            "take vectors, and both the result and the source are one)";
    else if (in->op == PTX_OP_CVT && in->nopd == 3 && in->type != PTX_T_F16X2 && in->type != PTX_T_BF16X2)
      why = "only the packed cvt (f16x2, bf16x2) takes two sources";
    if (why) {
      memset(err, 0, sizeof *err);
      err->line = in->ptx_line;
      snprintf(err->msg, sizeof err->msg, "line %u: '%s' with %u operands: %s", in->ptx_line,
               ptx_op_name((enum ptx_op)in->op), in->nopd, why);
      return PTX_ERR_SYNTAX;
    }
  }
  return PTX_OK;
}
