/* ptx_check.c: every decoded instruction has the operands its opcode needs.
 *
 * The parser reads operands generically; this pass holds each instruction to the shape of its
 * opcode (how many operands, and which may be a register, an immediate, an address, a vector,
 * a label), so that the emulator can rely on them and malformed PTX is an error with its line,
 * never a crash. Shapes, one letter per operand:
 *   d  destination: a register
 *   o  destination: a register or the sink _
 *   D  destination: a register or a vector
 *   s  source: register, immediate, special register or symbol address
 *   S  source or vector
 *   a  address [..]
 *   l  label
 * A shape list gives the allowed forms, separated by '|'.
 */
#include <stdio.h>
#include <string.h>

#include "ptx/ptx.h"

static const char *shapes(enum ptx_op op)
{
  switch (op) {
  case PTX_OP_ABS: case PTX_OP_NEG: case PTX_OP_NOT: case PTX_OP_CNOT: case PTX_OP_POPC:
  case PTX_OP_CLZ: case PTX_OP_BFIND: case PTX_OP_BREV: case PTX_OP_RCP: case PTX_OP_SQRT:
  case PTX_OP_RSQRT: case PTX_OP_SIN: case PTX_OP_COS: case PTX_OP_LG2: case PTX_OP_EX2:
  case PTX_OP_TANH: case PTX_OP_TESTP: case PTX_OP_CVTA: case PTX_OP_ISSPACEP:
  case PTX_OP_FNS:
    return "ds";
  case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_DIV: case PTX_OP_REM:
  case PTX_OP_MIN: case PTX_OP_MAX: case PTX_OP_AND: case PTX_OP_OR: case PTX_OP_XOR:
  case PTX_OP_SHL: case PTX_OP_SHR: case PTX_OP_MUL24: case PTX_OP_COPYSIGN: case PTX_OP_ADDC:
  case PTX_OP_SUBC:
    return "dss";
  case PTX_OP_MAD: case PTX_OP_FMA: case PTX_OP_MAD24: case PTX_OP_SAD: case PTX_OP_MADC:
  case PTX_OP_SELP: case PTX_OP_SLCT: case PTX_OP_BFE: case PTX_OP_PRMT: case PTX_OP_SHF:
  case PTX_OP_DP4A: case PTX_OP_DP2A:
    return "dsss";
  case PTX_OP_BFI: case PTX_OP_LOP3:
    return "dssss";
  case PTX_OP_SETP: case PTX_OP_SET:
    return "dss|dsss";
  case PTX_OP_CVT:
    return "ds|dss";
  case PTX_OP_MOV:
    return "DS";
  case PTX_OP_LD: case PTX_OP_LDU:
    return "Da";
  case PTX_OP_ST:
    return "aS";
  case PTX_OP_ATOM:
    return "oas|oass";
  case PTX_OP_RED:
    return "as";
  case PTX_OP_SHFL:
    return "dsss|dssss";
  case PTX_OP_VOTE:
    return "ds|dss";
  case PTX_OP_MATCH: case PTX_OP_REDUX:
    return "dss";
  case PTX_OP_ACTIVEMASK:
    return "d";
  case PTX_OP_BAR: case PTX_OP_BARRIER:
    return "|s|ss|dss|dsss";
  case PTX_OP_BRA:
    return "l";
  case PTX_OP_PREFETCH: case PTX_OP_PREFETCHU:
    return "a";
  case PTX_OP_NANOSLEEP: case PTX_OP_PMEVENT:
    return "s";
  case PTX_OP_RET: case PTX_OP_EXIT: case PTX_OP_TRAP: case PTX_OP_BRKPT: case PTX_OP_MEMBAR:
  case PTX_OP_FENCE:
    return "";
  default:
    return NULL;                 /* CALL: its own checks in the parser */
  }
}

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
    const char *list = shapes((enum ptx_op)in->op);
    if (!list)
      continue;
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
