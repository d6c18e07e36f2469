/* sim_const.c: __constant__ memory as the GPU holds it: one bank a module, laid out by ptxas.
 *
 * ptxas puts a module's .const variables in constant bank 3 (.nv.constant3 of the cubin), one
 * after another: first those with external linkage (.visible, .weak, .common) in declaration
 * order, then the others in declaration order, each at the next multiple of its .align; the
 * section ends with the last one, and ptxas refuses more than 64 KB ("File uses too much
 * global constant data"). This was read off the symbol values of `ptxas -arch=sm_90` cubins
 * (readelf -s) for 150 random modules of 1 to 14 variables of mixed sizes, alignments,
 * initialisers and linkage: every offset as described.
 *
 * A GPU does not check a read against a variable's end (compute-sanitizer's memcheck does
 * not check constant memory either): reading Q[64] of a 64-element Q returns the bytes that
 * follow in the bank, the next variable's, or past the last one what the bank holds there,
 * taken to be zero (the driver's bank is zero-filled past the module's data; to be proved on
 * the GPU: tests/gpu/prove.sh, const_overread). The emulator lays the bank out the same way
 * and lets such a read through with a warning at the .cu line, which changes neither the
 * values nor the outcome. A read through a __constant__ variable that leaves the bank's 64 KB
 * altogether (before its start, or past its end: a 64 KB filter indexed with a larger filter
 * size) reads zeros on the GPU, with no fault and nothing from memcheck (the H100, offsets
 * -32 to +256 KB: tests/gpu/results/const_outside_bank_h100.txt); the emulator returns zeros
 * there too, with a warning, where it faulted before.
 *
 * Each variable is also an allocation of its own (a view into the bank), so that reads
 * inside one take the usual paths. Which variable a load meant is what its address was
 * formed from (sim_cbank_roots: a mov of the variable's address, then adds and cvta, as nvcc
 * indexes an array); a load whose address came from elsewhere (a pointer passed to a device
 * function that is not inlined) is warned of only when it leaves every variable.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_int.h"

#define CBANK_GAP 4096u                  /* unmapped bytes after a bank (as between allocations) */

/* What a read outside the bank returns (the widest load is a v4 of 64-bit words); never
   written, only read through */
static uint8_t outside_bank[32];

uint64_t sim_cbank_layout(const struct ptx_module *m, uint64_t *off)
{
  uint64_t end = 0;
  for (int visible = 1; visible >= 0; visible--)
    for (uint32_t i = 0; i < m->nvars; i++) {
      const struct ptx_var *v = &m->vars[i];
      if (v->space != PTX_SP_CONST || v->func >= 0 || v->is_extern || v->is_visible != visible)
        continue;
      uint64_t a = v->align ? v->align : 1;
      end = (end + a - 1) / a * a;
      off[i] = end;
      end += v->size;
    }
  return end;
}

enum sim_status sim_cbank_new(struct sim_device *d, const struct ptx_module *m,
                              const uint64_t *off, uint64_t used, uint64_t *addr)
{
  uint32_t n = 0;
  uint32_t *idx = calloc(m->nvars ? m->nvars : 1, sizeof *idx);
  if (!idx)
    return SIM_ERR_NOMEM;
  for (uint32_t i = 0; i < m->nvars; i++) {     /* the bank's variables by offset */
    const struct ptx_var *v = &m->vars[i];
    if (v->space != PTX_SP_CONST || v->func >= 0 || v->is_extern)
      continue;
    uint32_t j = n++;
    for (; j > 0 && (off[idx[j - 1]] > off[i] ||
                     (off[idx[j - 1]] == off[i] && m->vars[idx[j - 1]].size > v->size)); j--)
      idx[j] = idx[j - 1];
    idx[j] = i;
  }
  if (!n) {                                     /* no __constant__ variable: no bank */
    free(idx);
    return SIM_OK;
  }
  struct sim_cbank bank = {.base = d->next_base, .used = (uint32_t)used};
  bank.data = calloc(1, SIM_CBANK_SIZE);
  bank.vars = calloc(n ? n : 1, sizeof *bank.vars);
  struct sim_cbank *banks = realloc(d->cbanks, (d->ncbanks + 1) * sizeof *banks);
  if (banks)
    d->cbanks = banks;
  if (!bank.data || !bank.vars || !banks ||
      sim_grow((void **)&d->allocs, &d->cap, d->nallocs + n, sizeof *d->allocs, 16)) {
    free(idx);
    free(bank.data);
    free(bank.vars);
    return SIM_ERR_NOMEM;
  }
  for (uint32_t k = 0; k < n; k++) {
    uint32_t i = idx[k];
    const struct ptx_var *v = &m->vars[i];
    addr[i] = bank.base + off[i];
    if (v->has_init && v->init_off + v->size <= m->ninit)
      memcpy(bank.data + off[i], m->init + v->init_off, v->size);
    bank.vars[bank.nvars++] = (struct sim_cvar){(uint32_t)off[i], (uint32_t)v->size, v->name};
    if (!v->size)
      continue;
    struct sim_alloc *a = &d->allocs[d->nallocs++];  /* after every earlier one: in order */
    memset(a, 0, sizeof *a);
    a->base = addr[i];
    a->size = v->size;
    a->data = bank.data + off[i];
    a->read_only = 1;
    a->view = 1;
    snprintf(a->name, sizeof a->name, "__constant__ %s", v->name);
  }
  free(idx);
  d->cbanks[d->ncbanks++] = bank;
  d->next_base += SIM_CBANK_SIZE + CBANK_GAP;
  return SIM_OK;
}

/* What a register of one function holds, for sim_cbank_roots: not known yet, no address of a
   __constant__ variable, addresses of more than one (or of one and of other memory), else
   the index of the variable. */
#define ROOT_UNSET (-1)
#define ROOT_NONE (-2)
#define ROOT_MANY (-3)

static int32_t root_join(int32_t a, int32_t b)
{
  return a == ROOT_UNSET ? b : b == ROOT_UNSET || a == b ? a : ROOT_MANY;
}

/* What operand o holds. */
static int32_t root_of(const struct ptx_module *m, const int32_t *root, uint32_t nregs,
                       const struct ptx_operand *o)
{
  if (o->kind == PTX_OPD_REG)
    return o->reg < nregs ? root[o->reg] : ROOT_MANY;
  if (o->kind == PTX_OPD_SYM && o->sym < m->nvars && m->vars[o->sym].space == PTX_SP_CONST)
    return (int32_t)o->sym;
  return ROOT_NONE;
}

/* What instruction in writes into its operand 0, from what its sources hold. */
static int32_t root_def(const struct ptx_module *m, const int32_t *root, uint32_t nregs,
                        const struct ptx_inst *in)
{
  switch (in->op) {
  case PTX_OP_MOV:
  case PTX_OP_CVTA:
    return in->nopd >= 2 ? root_of(m, root, nregs, &in->opd[1]) : ROOT_NONE;
  case PTX_OP_SELP:
    return in->nopd >= 3 ? root_join(root_of(m, root, nregs, &in->opd[1]),
                                     root_of(m, root, nregs, &in->opd[2])) : ROOT_NONE;
  case PTX_OP_ADD:
  case PTX_OP_SUB: {
    if (in->nopd < 3)
      return ROOT_NONE;
    int32_t a = root_of(m, root, nregs, &in->opd[1]), b = root_of(m, root, nregs, &in->opd[2]);
    if (a == ROOT_UNSET || b == ROOT_UNSET)
      return ROOT_UNSET;
    if (a == ROOT_MANY || b == ROOT_MANY || (a >= 0 && b >= 0) || (in->op == PTX_OP_SUB && b >= 0))
      return ROOT_MANY;
    return a >= 0 ? a : b;
  }
  default:
    return ROOT_NONE;
  }
}

enum sim_status sim_cbank_roots(struct sim_prog *p, const uint64_t *modaddr)
{
  const struct ptx_module *m = p->mod;
  int any = 0;
  for (uint32_t i = 0; i < m->nvars && !any; i++)
    any = m->vars[i].space == PTX_SP_CONST && !m->vars[i].is_extern;
  if (!any || !p->ncode)
    return SIM_OK;
  p->croot = calloc(p->ncode, sizeof *p->croot);
  if (!p->croot)
    return SIM_ERR_NOMEM;
  int32_t *root = NULL;
  uint32_t cap = 0;
  for (uint32_t pc = 0; pc < p->ncode;) {       /* the code is laid out function by function */
    uint32_t f = m->insts[p->orig[pc]].func, end = pc;
    while (end < p->ncode && m->insts[p->orig[end]].func == f)
      end++;
    const struct ptx_func *fn = &m->funcs[f];
    if (sim_grow((void **)&root, &cap, fn->nregs + 1, sizeof *root, 64)) {
      free(root);
      return SIM_ERR_NOMEM;
    }
    for (uint32_t r = 0; r < fn->nregs; r++)
      root[r] = ROOT_UNSET;
    for (int changed = 1, round = 0; changed && round < 16; round++) {  /* to the fixed point */
      changed = 0;
      for (uint32_t i = 0; i < fn->ninst; i++) {
        const struct ptx_inst *in = &m->insts[fn->first_inst + i];
        const struct ptx_op_info *info = ptx_op_info((enum ptx_op)in->op);
        if (!in->nopd || !info || info->dst == PTX_DST_NO)
          continue;
        const struct ptx_operand *d = &in->opd[0];
        int32_t v = d->kind == PTX_OPD_REG ? root_def(m, root, fn->nregs, in) : ROOT_NONE;
        uint32_t regs[PTX_MAX_VEC + 1], n = 0;
        if (d->kind == PTX_OPD_REG)
          regs[n++] = d->reg;
        else if (d->kind == PTX_OPD_VEC)
          for (uint32_t k = 0; k < d->nvec && k < PTX_MAX_VEC; k++)
            regs[n++] = d->vreg[k];
        for (uint32_t k = 0; k < n; k++) {
          if (regs[k] >= fn->nregs)
            continue;
          int32_t j = root_join(root[regs[k]], v);
          if (j != root[regs[k]]) {
            root[regs[k]] = j;
            changed = 1;
          }
        }
      }
    }
    for (; pc < end; pc++) {
      const struct ptx_inst *in = &m->insts[p->orig[pc]];
      if ((in->op != PTX_OP_LD && in->op != PTX_OP_LDU) || in->nopd < 2 ||
          (in->space != PTX_SP_CONST && in->space != PTX_SP_NONE) || in->opd[1].kind != PTX_OPD_ADDR)
        continue;
      const struct ptx_operand *a = &in->opd[1];
      int32_t v = a->reg != PTX_NOREG ? (a->reg < fn->nregs ? root[a->reg] : ROOT_MANY)
                : a->sym != PTX_NOREG && a->sym < m->nvars && m->vars[a->sym].space == PTX_SP_CONST
                ? (int32_t)a->sym : ROOT_NONE;
      if (v >= 0 && !m->vars[v].is_extern)
        p->croot[pc] = modaddr[v];
    }
  }
  free(root);
  return SIM_OK;
}

uint8_t *sim_cbank_read(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l,
                        uint64_t addr, uint32_t size, const struct sim_alloc *al)
{
  const struct sim_device *d = b->dev;
  uint64_t from_addr = b->prog->croot && pc < b->prog->ncode ? b->prog->croot[pc] : 0;
  if (al && (!from_addr || al->base == from_addr))
    return NULL;                        /* inside the variable it was addressed from */
  for (uint32_t k = 0; k < d->ncbanks; k++) {
    const struct sim_cbank *c = &d->cbanks[k];
    if (addr < c->base || addr - c->base > SIM_CBANK_SIZE || size > SIM_CBANK_SIZE - (addr - c->base))
      continue;
    uint64_t rel = addr - c->base;
    if (!sim_note_warn_count(b, pc))
      return c->data + rel;             /* warned of already: counted */
    /* the variable it was addressed from (else the one it starts in or after), and the one
       whose bytes it reads */
    const struct sim_cvar *from = NULL, *into = NULL;
    for (uint32_t i = 0; i < c->nvars; i++) {
      const struct sim_cvar *v = &c->vars[i];
      if (from_addr ? c->base + v->off == from_addr && v->size : v->off <= rel)
        from = v;
    }
    for (uint32_t i = 0; i < c->nvars && !into; i++) {
      const struct sim_cvar *v = &c->vars[i];
      if (v != from && v->off + v->size > rel && v->off < rel + size)
        into = v;
    }
    char what[160], msg[400];
    if (rel >= c->used)
      snprintf(what, sizeof what, "here zeros: no __constant__ variable of the module lies past "
               "byte %u of the bank", c->used);
    else if (into)
      snprintf(what, sizeof what, "here those of __constant__ %.80s", into->name);
    else
      snprintf(what, sizeof what, "here alignment padding (zeros)");
    if (from && rel < from->off)
      snprintf(msg, sizeof msg, "read before the start of __constant__ %.80s: the GPU returns "
               "the bytes that precede it in the constant bank (%u bytes, %" PRIu64 " before "
               "it; %s)", from->name, size, from->off - rel, what);
    else if (from)
      snprintf(msg, sizeof msg, "read past the end of __constant__ %.80s: the GPU returns the "
               "bytes that follow in the constant bank (%u bytes at its byte %" PRIu64 ", of %u; "
               "%s)", from->name, size, rel - from->off, from->size, what);
    else
      snprintf(msg, sizeof msg, "read outside every __constant__ variable: the GPU returns the "
               "constant bank's bytes (%u bytes at its byte %" PRIu64 "; %s)", size, rel, what);
    sim_note_warn(b, w, pc, l, msg);
    return c->data + rel;
  }
  /* outside every bank: through a __constant__ variable, or an ld.const, the GPU's offset into
     its bank lies outside it, and it reads zeros */
  const struct ptx_inst *in = pc < b->prog->ncode ? &b->prog->code[pc] : NULL;
  const struct sim_cbank *home = NULL;
  for (uint32_t k = 0; k < d->ncbanks && !home; k++) {
    const struct sim_cbank *c = &d->cbanks[k];
    if (from_addr ? from_addr - c->base < SIM_CBANK_SIZE
                  : in && in->space == PTX_SP_CONST && d->ncbanks == 1)
      home = c;
  }
  if (!home || size > sizeof outside_bank)
    return NULL;
  if (sim_note_warn_count(b, pc)) {
    char msg[300];
    int before = addr < home->base;
    snprintf(msg, sizeof msg, "read outside the 64 KB constant bank (%u bytes, %" PRIu64 " bytes "
             "%s): the GPU returns zeros there", size,
             before ? home->base - addr : addr - home->base,
             before ? "before its start" : "from its start");
    sim_note_warn(b, w, pc, l, msg);
  }
  return outside_bank;
}
