/* sim_link.c: turn one kernel of a decoded module into a launchable program.
 *
 * Linking happens once per launch, before any thread runs, so that the execution loop never
 * looks anything up by name:
 *  - the entry and every function it can call are copied into one code array;
 *  - registers of each function get their own range of the per-thread register file;
 *  - a recursive function (in a cycle of the call graph, through direct calls or calls
 *    through pointers) is marked for sim_recur.c, which gives each activation its own
 *    registers, .param variables and .local frame: its .local variables get no fixed offset
 *    but hidden registers holding their addresses, set at each call;
 *  - every immediate source operand becomes a "constant register" filled once per warp,
 *    so instructions read all their sources the same way;
 *  - symbols become addresses: module .global/.const variables are allocated on the device
 *    (with initialisers), .shared variables get offsets in the block's shared memory, .local
 *    variables offsets in the thread's local frame, .param variables of calls offsets in the
 *    thread's parameter frame, kernel parameters offsets in the parameter buffer.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_int.h"

static uint64_t align_up(uint64_t v, uint64_t a)
{
  if (a < 1)
    a = 1;
  return (v + a - 1) / a * a;
}

int sim_param_layout(const struct ptx_module *m, int func, uint32_t *offset, uint32_t *size,
                     uint32_t max, uint32_t *total)
{
  if (func < 0 || (uint32_t)func >= m->nfuncs || !m->funcs[func].is_entry)
    return -1;
  const struct ptx_func *f = &m->funcs[func];
  uint64_t off = 0;
  for (uint32_t i = 0; i < f->nparams; i++) {
    const struct ptx_var *v = &m->vars[m->func_params[f->first_param + i]];
    uint64_t al = v->align ? v->align : (v->size >= 8 ? 8 : v->size ? v->size : 1);
    off = align_up(off, al);
    if (i < max) {
      offset[i] = (uint32_t)off;
      size[i] = (uint32_t)v->size;
    }
    off += v->size;
  }
  if (total)
    *total = (uint32_t)off;
  return (int)f->nparams;
}

/* The device addresses of m's module-scope global/const variables on d, allocating them
   (with initialisers) the first time. */
static enum sim_status module_vars(struct sim_device *d, const struct ptx_module *m,
                                   uint64_t **out, char *err, size_t errlen)
{
  for (uint32_t i = 0; i < d->nmods; i++)
    if (d->mods[i].mod == m) {
      *out = d->mods[i].addr;
      return SIM_OK;
    }
  struct sim_modvars *mv = realloc(d->mods, (d->nmods + 1) * sizeof *mv);
  if (!mv)
    return SIM_ERR_NOMEM;
  d->mods = mv;
  uint64_t *addr = calloc(m->nvars ? m->nvars : 1, sizeof *addr);
  uint64_t *off = calloc(m->nvars ? m->nvars : 1, sizeof *off);
  if (!addr || !off) {
    free(addr);
    free(off);
    return SIM_ERR_NOMEM;
  }
  /* the __constant__ variables: one bank, as ptxas lays it out (sim_const.c) */
  uint64_t used = sim_cbank_layout(m, off);
  if (used > SIM_CBANK_SIZE) {
    snprintf(err, errlen, "the module has %" PRIu64 " bytes of __constant__ variables; ptxas "
             "refuses more than %u (\"File uses too much global constant data\")", used,
             SIM_CBANK_SIZE);
    free(addr);
    free(off);
    return SIM_ERR_BADARG;
  }
  enum sim_status cst = sim_cbank_new(d, m, off, used, addr);
  free(off);
  if (cst != SIM_OK) {
    free(addr);
    return cst;
  }
  for (uint32_t i = 0; i < m->nvars; i++) {
    const struct ptx_var *v = &m->vars[i];
    if (v->space != PTX_SP_GLOBAL && !(v->space == PTX_SP_CONST && v->is_extern))
      continue;
    char name[64];
    snprintf(name, sizeof name, "%s %s", v->space == PTX_SP_CONST ? "__constant__" : "__device__",
             v->name);
    enum sim_status st = sim_mem_alloc(d, v->size, name, v->space == PTX_SP_CONST, &addr[i]);
    if (st != SIM_OK) {
      free(addr);
      snprintf(err, errlen, "cannot allocate %s (%llu bytes)", name, (unsigned long long)v->size);
      return st;
    }
    if (v->has_init) {
      const struct sim_alloc *a = sim_mem_find(d, addr[i], v->size);
      if (a && v->init_off + v->size <= m->ninit)
        memcpy(a->data, m->init + v->init_off, v->size);
    }
  }
  d->mods[d->nmods].mod = m;
  d->mods[d->nmods].addr = addr;
  d->nmods++;
  *out = addr;
  return SIM_OK;
}

uint64_t sim_device_state_digest(const struct sim_device *d)
{
  uint64_t h = 0xcbf29ce484222325ull;
  for (uint32_t k = 0; k < d->nmods; k++) {
    const struct ptx_module *m = d->mods[k].mod;
    for (uint32_t i = 0; i < m->nvars; i++) {
      uint64_t a = d->mods[k].addr[i];
      const struct sim_alloc *al = a ? sim_mem_find(d, a, m->vars[i].size) : NULL;
      if (!al || al->read_only)
        continue;
      const uint8_t *p = al->data + (a - al->base);
      for (uint64_t j = 0; j < m->vars[i].size; j++)
        h = (h ^ p[j]) * 0x100000001b3ull;
    }
  }
  return (h ^ d->ntexs) * 0x100000001b3ull;
}

struct linker {
  const struct ptx_module *m;
  struct sim_prog *p;
  uint8_t *reach;            /* per function */
  uint32_t *order;           /* reachable functions in code order */
  uint32_t norder;
  uint32_t *func_code;       /* per function: code index of first instruction */
  uint32_t *func_reg;        /* per function: register base */
  uint64_t *sym_addr;        /* per var: resolved address */
  uint8_t *sym_ok;
  uint64_t *consts;
  uint32_t nconst, cap_const;
  char *err;
  size_t errlen;
  int indirect;              /* a reachable function calls through a pointer */
  uint8_t *linkable;         /* per function: linkable()'s state */
  uint32_t *rec;             /* per function: 1 + its index in p->rfuncs when recursive, else 0 */
  uint32_t *lfoff;           /* per var: a recursive function's .local variable's offset in
                                an activation's frame */
  struct hid { uint32_t func, var; int64_t imm; } *hid;  /* the hidden registers, grouped by
                                function: the address of var + imm */
  uint32_t nhid;
};

/* The built-in that implements an external function, or SIM_BUILTIN_NONE. */
static enum sim_builtin builtin_of(const char *name)
{
  if (!strcmp(name, "vprintf"))
    return SIM_BUILTIN_VPRINTF;
  if (!strcmp(name, "__assertfail"))
    return SIM_BUILTIN_ASSERTFAIL;
  if (!strcmp(name, "malloc"))
    return SIM_BUILTIN_MALLOC;
  if (!strcmp(name, "free"))
    return SIM_BUILTIN_FREE;
  if (!strcmp(name, "cudaGraphSetConditional"))
    return SIM_BUILTIN_GRAPH_SET_COND;
  return SIM_BUILTIN_NONE;
}

static enum sim_status reach_funcs(struct linker *L, uint32_t f)
{
  if (L->reach[f])
    return SIM_OK;
  L->reach[f] = 1;
  L->order[L->norder++] = f;
  const struct ptx_func *fn = &L->m->funcs[f];
  if ((fn->is_extern || (!fn->ninst && !fn->is_entry)) && !builtin_of(fn->name)) {
    snprintf(L->err, L->errlen, "function %s is declared but has no body in this module (the "
             "emulator provides printf, assert, malloc, free and cudaGraphSetConditional; other "
             "device-runtime functions are not supported)", fn->name);
    return SIM_ERR_UNSUPPORTED;
  }
  for (uint32_t i = 0; i < fn->ninst; i++) {
    const struct ptx_inst *in = &L->m->insts[fn->first_inst + i];
    if (in->op == PTX_OP_CALL && in->opd[0].kind != PTX_OPD_FUNC) {
      L->indirect = 1;
    } else if (in->op == PTX_OP_CALL) {
      enum sim_status st = reach_funcs(L, in->opd[0].reg);
      if (st != SIM_OK)
        return st;
    }
  }
  return SIM_OK;
}

/* Whether function f and what it calls have bodies (or are built-ins): depth-first, with
   state[] 0 unseen, 1 being looked at or fine, 2 not (a function being looked at counts as
   fine, so a cycle of calls ends the walk). */
static int linkable(const struct ptx_module *m, uint32_t f, uint8_t *state)
{
  if (state[f])
    return state[f] == 1;
  const struct ptx_func *fn = &m->funcs[f];
  state[f] = 1;
  if ((fn->is_extern || !fn->ninst) && !builtin_of(fn->name)) {
    state[f] = 2;
    return 0;
  }
  for (uint32_t i = 0; i < fn->ninst; i++) {
    const struct ptx_inst *in = &m->insts[fn->first_inst + i];
    if (in->op == PTX_OP_CALL && in->opd[0].kind == PTX_OPD_FUNC && in->opd[0].reg < m->nfuncs &&
        !linkable(m, in->opd[0].reg, state)) {
      state[f] = 2;
      return 0;
    }
  }
  return 1;
}

/* Whether an indirect call may reach function f: its address is taken, it has a body and
   nothing in it (or in what it calls) is refused or missing (a virtual destructor that
   calls free: a call through a pointer to it faults, the kernel still runs). state: as
   linkable's, kept across calls. */
static int indirect_target(const struct ptx_module *m, uint32_t f, uint8_t *state)
{
  const struct ptx_func *fn = &m->funcs[f];
  return fn->addr_taken && !fn->is_entry && !fn->is_extern && fn->ninst && ptx_func_refused(m, f) < 0 &&
         linkable(m, f, state);
}

/* The entry and what it calls; with an indirect call, every function whose address is taken
   (and what those call). */
static enum sim_status reach_all(struct linker *L, uint32_t entry)
{
  enum sim_status st = reach_funcs(L, entry);
  for (uint32_t f = 0; st == SIM_OK && L->indirect && f < L->m->nfuncs; f++)
    if (indirect_target(L->m, f, L->linkable))
      st = reach_funcs(L, f);
  return st;
}

/* The call graph of the reachable functions, as lists of callees (off[f] .. off[f + 1] in
   to[]): direct calls, and for a call through a pointer node nf, whose callees are every
   function an indirect call may reach. Returns 0, or -1 when host memory ran out. */
static int call_graph(struct linker *L, uint32_t **off, uint32_t **to)
{
  const struct ptx_module *m = L->m;
  uint32_t nf = m->nfuncs;
  size_t n = 0;
  *off = calloc((size_t)nf + 2, sizeof **off);
  for (int pass = 0; pass < 2; pass++) {
    if (!*off)
      return -1;
    if (pass) {
      *to = malloc((n ? n : 1) * sizeof **to);
      if (!*to)
        return -1;
    }
    n = 0;
    for (uint32_t f = 0; f <= nf; f++) {
      (*off)[f] = (uint32_t)n;
      if (f == nf) {
        for (uint32_t g = 0; L->indirect && g < nf; g++)
          if (L->reach[g] && indirect_target(m, g, L->linkable)) {
            if (pass)
              (*to)[n] = g;
            n++;
          }
        continue;
      }
      if (!L->reach[f])
        continue;
      const struct ptx_func *fn = &m->funcs[f];
      for (uint32_t i = 0; i < fn->ninst; i++) {
        const struct ptx_inst *in = &m->insts[fn->first_inst + i];
        if (in->op != PTX_OP_CALL)
          continue;
        uint32_t g = in->opd[0].kind == PTX_OPD_FUNC ? in->opd[0].reg : nf;
        if (g > nf || (g < nf && !L->reach[g]))
          continue;
        if (pass)
          (*to)[n] = g;
        n++;
      }
    }
    (*off)[nf + 1] = (uint32_t)n;
  }
  return 0;
}

/* Which reachable functions are recursive (reach themselves through calls): L->rec, and
   p->rfuncs with their registers. Before the register layout: adds each one's hidden
   registers (the addresses of its .local variables it names) to L->hid. */
static enum sim_status find_recursion(struct linker *L)
{
  const struct ptx_module *m = L->m;
  struct sim_prog *p = L->p;
  uint32_t nf = m->nfuncs, *off = NULL, *to = NULL;
  uint32_t *stack = calloc((size_t)nf + 2, sizeof *stack);   /* f, then each node once */
  uint8_t *seen = calloc((size_t)nf + 1, 1);
  enum sim_status st = SIM_OK;
  if (!stack || !seen || call_graph(L, &off, &to)) {
    st = SIM_ERR_NOMEM;
    goto out;
  }
  /* f is recursive when a walk from its callees comes back to it */
  for (uint32_t k = 0; k < L->norder; k++) {
    uint32_t f = L->order[k], n = 0;
    int found = 0;
    memset(seen, 0, (size_t)nf + 1);
    stack[n++] = f;
    while (!found && n) {
      uint32_t x = stack[--n];
      for (uint32_t e = off[x]; !found && e < off[x + 1]; e++) {
        found = to[e] == f;
        if (!seen[to[e]]) {
          seen[to[e]] = 1;
          stack[n++] = to[e];
        }
      }
    }
    if (found)
      L->rec[f] = ++p->nrfuncs;
  }
  if (!p->nrfuncs)
    goto out;
  p->recursive = 1;
  p->rfuncs = calloc(p->nrfuncs, sizeof *p->rfuncs);
  if (!p->rfuncs) {
    st = SIM_ERR_NOMEM;
    goto out;
  }
  /* the hidden registers: each (variable, constant) a recursive function's operands name */
  uint32_t cap = 0;
  for (uint32_t k = 0; k < L->norder; k++) {
    uint32_t f = L->order[k];
    if (!L->rec[f])
      continue;
    struct sim_rfunc *rf = &p->rfuncs[L->rec[f] - 1];
    const struct ptx_func *fn = &m->funcs[f];
    rf->func = f;
    rf->first_hid = L->nhid;
    for (uint32_t i = 0; i < fn->ninst; i++) {
      const struct ptx_inst *in = &m->insts[fn->first_inst + i];
      for (uint32_t o = 0; o < in->nopd; o++) {
        const struct ptx_operand *op = &in->opd[o];
        if ((op->kind != PTX_OPD_SYM && (op->kind != PTX_OPD_ADDR || op->reg != PTX_NOREG)) ||
            op->sym >= m->nvars || m->vars[op->sym].space != PTX_SP_LOCAL ||
            m->vars[op->sym].func != (int32_t)f)
          continue;
        int64_t imm = op->kind == PTX_OPD_SYM ? op->imm : 0;
        uint32_t h = rf->first_hid;
        while (h < L->nhid && (L->hid[h].var != op->sym || L->hid[h].imm != imm))
          h++;
        if (h < L->nhid)
          continue;
        if (L->nhid == cap) {
          cap = cap ? cap * 2 : 16;
          struct hid *nh = realloc(L->hid, cap * sizeof *nh);
          if (!nh) {
            st = SIM_ERR_NOMEM;
            goto out;
          }
          L->hid = nh;
        }
        L->hid[L->nhid++] = (struct hid){f, op->sym, imm};
      }
    }
    rf->nhid = L->nhid - rf->first_hid;
  }
out:
  free(off);
  free(to);
  free(stack);
  free(seen);
  return st;
}

/* The hidden register of recursive function f for var + imm. */
static uint32_t hidden_reg(const struct linker *L, uint32_t f, uint32_t var, int64_t imm)
{
  const struct sim_rfunc *rf = &L->p->rfuncs[L->rec[f] - 1];
  uint32_t h = rf->first_hid;
  while (L->hid[h].var != var || L->hid[h].imm != imm)
    h++;
  return rf->reg + L->m->funcs[f].nregs + (h - rf->first_hid);
}

/* Register holding constant v (bits), added on first use. */
static enum sim_status const_reg(struct linker *L, uint64_t v, uint32_t *reg)
{
  for (uint32_t i = 0; i < L->nconst; i++)
    if (L->consts[i] == v) {
      *reg = i;
      return SIM_OK;
    }
  if (L->nconst == L->cap_const) {
    uint32_t cap = L->cap_const ? L->cap_const * 2 : 32;
    uint64_t *c = realloc(L->consts, cap * sizeof *c);
    if (!c)
      return SIM_ERR_NOMEM;
    L->consts = c;
    L->cap_const = cap;
  }
  L->consts[L->nconst] = v;
  *reg = L->nconst++;
  return SIM_OK;
}

/* Lay out variables of the spaces a launch owns. */
static enum sim_status layout(struct linker *L, const uint64_t *modaddr)
{
  const struct ptx_module *m = L->m;
  struct sim_prog *p = L->p;
  uint64_t shared = 0, local = 0, pframe = 0, dyn_align = 16, stack = 0;
  uint8_t *used_shared = calloc(m->nvars ? m->nvars : 1, 1);
  if (!used_shared)
    return SIM_ERR_NOMEM;
  /* shared variables referenced by reachable code, in declaration order */
  for (uint32_t k = 0; k < L->norder; k++) {
    const struct ptx_func *fn = &m->funcs[L->order[k]];
    for (uint32_t i = 0; i < fn->ninst; i++) {
      const struct ptx_inst *in = &m->insts[fn->first_inst + i];
      for (uint32_t o = 0; o < in->nopd; o++) {
        const struct ptx_operand *op = &in->opd[o];
        if ((op->kind == PTX_OPD_SYM || op->kind == PTX_OPD_ADDR) && op->sym != PTX_NOREG &&
            op->sym < m->nvars && m->vars[op->sym].space == PTX_SP_SHARED)
          used_shared[op->sym] = 1;
      }
    }
  }
  for (uint32_t i = 0; i < m->nvars; i++) {
    const struct ptx_var *v = &m->vars[i];
    int in_reach = v->func < 0 || L->reach[v->func];
    switch (v->space) {
    case PTX_SP_GLOBAL:
    case PTX_SP_CONST:
      L->sym_addr[i] = modaddr[i];
      L->sym_ok[i] = 1;
      break;
    case PTX_SP_SHARED:
      if (!used_shared[i] || v->is_extern)
        break;
      shared = align_up(shared, v->align);
      L->sym_addr[i] = shared;
      L->sym_ok[i] = 1;
      shared += v->size;
      break;
    case PTX_SP_LOCAL:
      if (!in_reach)
        break;
      if (v->func >= 0 && L->rec[v->func]) {   /* in each activation's frame */
        struct sim_rfunc *rf = &p->rfuncs[L->rec[v->func] - 1];
        rf->lsize = (uint32_t)align_up(rf->lsize, v->align);
        L->lfoff[i] = rf->lsize;
        rf->lsize += (uint32_t)v->size;
        break;
      }
      local = align_up(local, v->align);
      L->sym_addr[i] = local;
      L->sym_ok[i] = 1;
      local += v->size;
      break;
    case PTX_SP_PARAM:
      if (v->is_kparam)
        break;                           /* below */
      if (!in_reach || (v->func >= 0 && L->rec[v->func]))
        break;                           /* a recursive function's: below */
      pframe = align_up(pframe, v->align ? v->align : 8);
      L->sym_addr[i] = SIM_PFRAME_BASE + pframe;
      L->sym_ok[i] = 1;
      pframe += v->size;
      break;
    default:
      break;
    }
  }
  /* a recursive function's .param variables lie together, saved and restored as one */
  for (uint32_t r = 0; r < p->nrfuncs; r++) {
    struct sim_rfunc *rf = &p->rfuncs[r];
    pframe = align_up(pframe, 16);
    rf->pf_off = (uint32_t)pframe;
    for (uint32_t i = 0; i < m->nvars; i++) {
      const struct ptx_var *v = &m->vars[i];
      if (v->space != PTX_SP_PARAM || v->is_kparam || v->func != (int32_t)rf->func)
        continue;
      pframe = align_up(pframe, v->align ? v->align : 8);
      L->sym_addr[i] = SIM_PFRAME_BASE + pframe;
      L->sym_ok[i] = 1;
      pframe += v->size;
    }
    rf->pf_size = (uint32_t)(pframe - rf->pf_off);
    rf->lsize = (uint32_t)align_up(rf->lsize, 16);
    rf->cost = rf->lsize + SIM_RECUR_FRAME;
    if (rf->lsize > p->stack_bytes) {
      snprintf(L->err, L->errlen, "recursive function %s has %u bytes of local variables, more "
               "than the %u-byte call stack of a thread (cudaLimitStackSize; warplab emu --stack "
               "BYTES sets it)", m->funcs[rf->func].name, rf->lsize, p->stack_bytes);
      free(used_shared);
      return SIM_ERR_BADARG;
    }
    if (rf->lsize)
      stack = p->stack_bytes;
  }
  for (uint32_t i = 0; i < m->nvars; i++) {
    const struct ptx_var *v = &m->vars[i];
    if (v->space == PTX_SP_SHARED && v->is_extern && used_shared[i] && v->align > dyn_align)
      dyn_align = v->align;
  }
  p->static_smem = (uint32_t)shared;
  p->dyn_base = (uint32_t)align_up(shared, dyn_align);
  for (uint32_t i = 0; i < m->nvars; i++) {
    const struct ptx_var *v = &m->vars[i];
    if (v->space == PTX_SP_SHARED && v->is_extern && used_shared[i]) {
      L->sym_addr[i] = p->dyn_base;
      L->sym_ok[i] = 1;
    }
  }
  /* the shared variables' places, for the race checker's reports */
  p->svars = calloc(m->nvars ? m->nvars : 1, sizeof *p->svars);
  if (!p->svars) {
    free(used_shared);
    return SIM_ERR_NOMEM;
  }
  for (uint32_t i = 0; i < m->nvars; i++)
    if (m->vars[i].space == PTX_SP_SHARED && used_shared[i])
      p->svars[p->nsvars++] = (struct sim_svar){i, (uint32_t)L->sym_addr[i],
                                                m->vars[i].is_extern ? 0 : (uint32_t)m->vars[i].size};
  free(used_shared);
  if (shared > UINT32_MAX) {           /* nor may a 4 GiB shared array wrap static_smem */
    snprintf(L->err, L->errlen, "kernel %s uses %" PRIu64 " bytes of static shared memory",
             m->funcs[p->entry_func].name, shared);
    return SIM_ERR_BADARG;
  }
  p->stack_base = (uint32_t)align_up(local, 16);
  local = stack ? p->stack_base + stack : local;   /* the frames of recursive functions */
  if (local > SIM_MAX_LOCAL) {         /* a 4 GiB array would wrap local_size to 0 */
    snprintf(L->err, L->errlen, "kernel %s uses %" PRIu64 " bytes of local memory a thread (its "
             "local arrays); CUDA allows at most %u (512 KiB)", m->funcs[p->entry_func].name,
             local, SIM_MAX_LOCAL);
    return SIM_ERR_BADARG;
  }
  p->local_size = (uint32_t)align_up(local, 16);
  p->pframe_size = (uint32_t)align_up(pframe, 16);

  /* kernel parameters of the entry */
  const struct ptx_func *e = &m->funcs[p->entry_func];
  uint32_t off[256], sz[256], total = 0;
  int n = sim_param_layout(m, p->entry_func, off, sz, 256, &total);
  if (n > 256) {
    snprintf(L->err, L->errlen, "kernel %s has %d parameters; at most 256 are supported", e->name, n);
    return SIM_ERR_UNSUPPORTED;
  }
  for (int i = 0; i < n; i++) {
    uint32_t vi = m->func_params[e->first_param + (uint32_t)i];
    L->sym_addr[vi] = off[i];
    L->sym_ok[vi] = 1;
  }
  p->kparam_size = total;
  return SIM_OK;
}

static enum sim_status sym_address(struct linker *L, uint32_t sym, uint64_t *addr)
{
  if (sym >= L->m->nvars || !L->sym_ok[sym]) {
    snprintf(L->err, L->errlen, "symbol %s cannot be addressed here",
             sym < L->m->nvars ? L->m->vars[sym].name : "?");
    return SIM_ERR_UNSUPPORTED;
  }
  *addr = L->sym_addr[sym];
  return SIM_OK;
}

static int is_source_imm_ok(const struct ptx_inst *in, uint32_t o)
{
  /* operands that stay immediate: the call's table index */
  return in->op == PTX_OP_CALL && o == 1;
}

static enum sim_status rewrite(struct linker *L)
{
  const struct ptx_module *m = L->m;
  struct sim_prog *p = L->p;
  for (uint32_t k = 0; k < L->norder; k++) {
    uint32_t f = L->order[k];
    const struct ptx_func *fn = &m->funcs[f];
    uint32_t rb = L->func_reg[f];
    for (uint32_t i = 0; i < fn->ninst; i++) {
      uint32_t ci = L->func_code[f] + i;
      struct ptx_inst *in = &p->code[ci];
      *in = m->insts[fn->first_inst + i];
      p->orig[ci] = fn->first_inst + i;
      if (in->guard != PTX_NOREG)
        in->guard += rb;
      if (in->op == PTX_OP_BRA) {
        const struct ptx_inst *rv = in->reconv < m->ninsts ? &m->insts[in->reconv] : NULL;
        /* in a kernel, paths that meet only at an unconditional exit need not wait for each
           other there: those lanes simply end (the early-return idiom before a barrier) */
        if (rv && fn->is_entry && rv->guard == PTX_NOREG &&
            (rv->op == PTX_OP_RET || rv->op == PTX_OP_EXIT))
          in->reconv = PTX_NOREG;
        if (in->reconv != PTX_NOREG)
          in->reconv = in->reconv - fn->first_inst + L->func_code[f];
      } else {
        in->reconv = PTX_NOREG;
      }
      for (uint32_t o = 0; o < in->nopd; o++) {
        struct ptx_operand *op = &in->opd[o];
        uint64_t a;
        enum sim_status st;
        switch (op->kind) {
        case PTX_OPD_REG:
          op->reg += rb;
          if (op->pair != PTX_NOREG)
            op->pair += rb;
          break;
        case PTX_OPD_VEC:
          for (uint32_t v = 0; v < op->nvec && v < PTX_MAX_VEC; v++)
            if (op->vreg[v] != PTX_NOREG)
              op->vreg[v] += rb;
          break;
        case PTX_OPD_LABEL:
          op->reg = op->reg - fn->first_inst + L->func_code[f];
          break;
        case PTX_OPD_SYM:
          if (L->rec[f] && op->sym < m->nvars && m->vars[op->sym].space == PTX_SP_LOCAL &&
              m->vars[op->sym].func == (int32_t)f) {
            op->kind = PTX_OPD_REG;      /* this activation's address of the variable */
            op->reg = hidden_reg(L, f, op->sym, op->imm);
            op->pair = PTX_NOREG;
            op->sym = PTX_NOREG;
            break;
          }
          st = sym_address(L, op->sym, &a);
          if (st != SIM_OK)
            return st;
          op->kind = PTX_OPD_IMM;
          op->imm = (int64_t)(a + (uint64_t)op->imm);
          op->sym = PTX_NOREG;
          break;
        case PTX_OPD_ADDR:
          for (uint32_t v = 0; v < op->nvec; v++) {   /* a tensor copy's coordinates */
            uint32_t *cr = v < 4 ? &op->vreg[v] : &op->pair;
            if (*cr != PTX_NOREG)
              *cr += rb;
          }
          if (op->reg != PTX_NOREG) {
            op->reg += rb;
          } else if (L->rec[f] && op->sym < m->nvars && m->vars[op->sym].space == PTX_SP_LOCAL &&
                     m->vars[op->sym].func == (int32_t)f) {
            op->reg = hidden_reg(L, f, op->sym, 0);
            op->sym = PTX_NOREG;
          } else if (op->sym != PTX_NOREG) {
            st = sym_address(L, op->sym, &a);
            if (st != SIM_OK)
              return st;
            op->imm = (int64_t)(a + (uint64_t)op->imm);
            op->sym = PTX_NOREG;
          }
          break;
        default:
          break;
        }
        if (op->kind == PTX_OPD_IMM && !is_source_imm_ok(in, o)) {
          uint32_t r;
          st = const_reg(L, (uint64_t)op->imm, &r);
          if (st != SIM_OK)
            return st;
          op->kind = PTX_OPD_REG;
          op->reg = r;                  /* a constant register: fixed up below, once the */
          op->pad_ = 1;                 /* register count is known */
          op->pair = PTX_NOREG;
        }
      }
    }
  }
  /* constant registers go after all functions' registers */
  uint32_t base = p->nregs;
  for (uint32_t ci = 0; ci < p->ncode; ci++) {
    struct ptx_inst *in = &p->code[ci];
    for (uint32_t o = 0; o < in->nopd; o++) {
      struct ptx_operand *op = &in->opd[o];
      if (op->kind == PTX_OPD_REG && op->pad_) {
        op->reg += base;
        op->pad_ = 0;
      }
    }
  }
  p->nregs += L->nconst;
  p->nconst = L->nconst;
  p->consts = L->consts;
  L->consts = NULL;
  return SIM_OK;
}

/* A copy between two .param variables of the thread's parameter frame (a call's argument
   into the callee's parameter, or its return value back), as many bytes as the smaller. */
static enum sim_status add_copy(struct linker *L, uint32_t dst, uint32_t src)
{
  const struct ptx_module *m = L->m;
  uint64_t sa, da;
  enum sim_status st = sym_address(L, src, &sa);
  if (st == SIM_OK)
    st = sym_address(L, dst, &da);
  if (st != SIM_OK)
    return st;
  uint64_t sz = m->vars[dst].size < m->vars[src].size ? m->vars[dst].size : m->vars[src].size;
  L->p->copies[L->p->ncopies++] = (struct sim_copy){(uint32_t)(da - SIM_PFRAME_BASE),
                                                    (uint32_t)(sa - SIM_PFRAME_BASE), (uint32_t)sz};
  return SIM_OK;
}

/* The argument and return copies of a call of callee into ci (their param symbols are the
   call's). Returns SIM_ERR_UNSUPPORTED when the counts do not match. */
static enum sim_status call_copies(struct linker *L, const struct ptx_call *call, uint32_t f,
                                   struct sim_callinfo *ci)
{
  const struct ptx_module *m = L->m;
  const struct ptx_func *callee = &m->funcs[f];
  struct sim_prog *p = L->p;
  if (call->nargs != callee->nparams || call->nret > callee->nrets) {
    snprintf(L->err, L->errlen, "call of %s passes %u arguments, the function takes %u",
             callee->name, call->nargs, callee->nparams);
    return SIM_ERR_UNSUPPORTED;
  }
  ci->target = L->func_code[f];
  ci->recur = L->rec[f];
  ci->builtin = callee->ninst ? SIM_BUILTIN_NONE : builtin_of(callee->name);
  ci->first_in = p->ncopies;
  for (uint32_t a = 0; a < call->nargs; a++) {
    enum sim_status st = add_copy(L, m->func_params[callee->first_param + a],
                                  m->call_syms[call->first + call->nret + a]);
    if (st != SIM_OK)
      return st;
  }
  ci->nin = p->ncopies - ci->first_in;
  ci->first_out = p->ncopies;
  for (uint32_t r = 0; r < call->nret; r++) {
    enum sim_status st = add_copy(L, m->call_syms[call->first + r],
                                  m->func_params[callee->first_ret + r]);
    if (st != SIM_OK)
      return st;
  }
  ci->nout = p->ncopies - ci->first_out;
  return SIM_OK;
}

/* Each call's callinfo. An indirect call gets one alternative per module function (a call
   through a pointer to it): a direct call's copies where the function is one the kernel can
   call with these arguments, else SIM_NO_TARGET (the call faults there). */
static enum sim_status link_calls(struct linker *L)
{
  const struct ptx_module *m = L->m;
  struct sim_prog *p = L->p;
  uint64_t nalt = 0, ncopy = m->ncall_syms;
  for (uint32_t c = 0; c < m->ncalls; c++)
    if (m->calls[c].func == PTX_NOREG) {
      nalt += m->nfuncs;
      ncopy += (uint64_t)m->nfuncs * (m->calls[c].nargs + m->calls[c].nret);
    }
  if (nalt + m->ncalls > UINT32_MAX / 2 || ncopy > UINT32_MAX / 2)
    return SIM_ERR_NOMEM;
  p->ncalls = m->ncalls;
  p->ncalls_all = (uint32_t)(m->ncalls + nalt);
  p->calls = calloc(p->ncalls_all ? p->ncalls_all : 1, sizeof *p->calls);
  p->copies = calloc(ncopy ? ncopy : 1, sizeof *p->copies);
  if (!p->calls || !p->copies)
    return SIM_ERR_NOMEM;
  uint32_t next_alt = m->ncalls;
  for (uint32_t c = 0; c < m->ncalls; c++) {
    const struct ptx_call *call = &m->calls[c];
    struct sim_callinfo *ci = &p->calls[c];
    if (call->func == PTX_NOREG) {
      ci->target = SIM_NO_TARGET;
      ci->first_alt = next_alt;
      next_alt += m->nfuncs;
      p->has_indirect = 1;
      for (uint32_t f = 0; f < m->nfuncs; f++)
        p->calls[ci->first_alt + f].target = SIM_NO_TARGET;
    }
    int caller = 1;                      /* the call is in a function this launch runs */
    for (uint32_t k = 0; k < call->nret + call->nargs; k++) {
      const struct ptx_var *v = &m->vars[m->call_syms[call->first + k]];
      caller &= v->func < 0 || L->reach[v->func];
    }
    if (!caller)
      continue;
    if (call->func != PTX_NOREG) {
      if (!L->reach[call->func])
        continue;
      enum sim_status st = call_copies(L, call, call->func, ci);
      if (st != SIM_OK)
        return st;
      continue;
    }
    for (uint32_t f = 0; f < m->nfuncs; f++) {
      struct sim_callinfo *alt = &p->calls[ci->first_alt + f];
      const struct ptx_func *fn = &m->funcs[f];
      if (!L->reach[f] || !indirect_target(m, f, L->linkable) || call->nargs != fn->nparams || call->nret > fn->nrets)
        continue;
      enum sim_status st = call_copies(L, call, f, alt);
      if (st != SIM_OK)
        return st;
    }
  }
  return SIM_OK;
}

enum sim_status sim_link(struct sim_device *d, const struct ptx_module *m, int func,
                         struct sim_prog *p, char *err, size_t errlen)
{
  memset(p, 0, sizeof *p);
  int refused = ptx_func_refused(m, (uint32_t)func);
  if (refused >= 0) {               /* it, or a function it calls, uses what we do not run */
    ptx_refusal_text(m, (uint32_t)func, (uint32_t)refused, err, errlen);
    return SIM_ERR_UNSUPPORTED;
  }
  p->mod = m;
  p->entry_func = func;
  uint64_t *modaddr;
  enum sim_status st = module_vars(d, m, &modaddr, err, errlen);
  if (st != SIM_OK)
    return st;
  struct linker L = {.m = m, .p = p, .err = err, .errlen = errlen};
  uint32_t nf = m->nfuncs ? m->nfuncs : 1, nv = m->nvars ? m->nvars : 1;
  L.reach = calloc(nf, 1);
  L.order = calloc(nf, sizeof *L.order);
  L.func_code = calloc(nf, sizeof *L.func_code);
  L.func_reg = calloc(nf, sizeof *L.func_reg);
  L.sym_addr = calloc(nv, sizeof *L.sym_addr);
  L.sym_ok = calloc(nv, 1);
  L.linkable = calloc(nf, 1);
  L.rec = calloc(nf, sizeof *L.rec);
  L.lfoff = calloc(nv, sizeof *L.lfoff);
  if (!L.rec || !L.lfoff || !L.linkable || !L.reach || !L.order || !L.func_code || !L.func_reg || !L.sym_addr || !L.sym_ok) {
    st = SIM_ERR_NOMEM;
    goto out;
  }
  st = reach_all(&L, (uint32_t)func);
  if (st == SIM_OK)
    st = find_recursion(&L);
  if (st != SIM_OK)
    goto out;
  p->stack_bytes = d->stack_limit ? d->stack_limit : SIM_STACK_DEFAULT;
  for (uint32_t k = 0; k < L.norder; k++) {
    const struct ptx_func *fn = &m->funcs[L.order[k]];
    L.func_code[L.order[k]] = p->ncode;
    L.func_reg[L.order[k]] = p->nregs;
    p->ncode += fn->ninst;
    p->nregs += fn->nregs;
    if (L.rec[L.order[k]]) {           /* then its hidden registers */
      struct sim_rfunc *rf = &p->rfuncs[L.rec[L.order[k]] - 1];
      rf->reg = L.func_reg[L.order[k]];
      rf->nregs = fn->nregs + rf->nhid;
      p->nregs += rf->nhid;
    }
  }
  p->nhid = L.nhid;
  if (L.nhid) {
    p->hid = calloc(L.nhid, sizeof *p->hid);
    if (!p->hid) {
      st = SIM_ERR_NOMEM;
      goto out;
    }
  }
  p->entry = 0;
  p->code = calloc(p->ncode ? p->ncode : 1, sizeof *p->code);
  p->orig = calloc(p->ncode ? p->ncode : 1, sizeof *p->orig);
  if (!p->code || !p->orig) {
    st = SIM_ERR_NOMEM;
    goto out;
  }
  st = layout(&L, modaddr);
  for (uint32_t h = 0; st == SIM_OK && h < L.nhid; h++)   /* now that frames are laid out */
    p->hid[h] = (struct sim_hidreg){hidden_reg(&L, L.hid[h].func, L.hid[h].var, L.hid[h].imm),
                                    L.lfoff[L.hid[h].var] + (uint32_t)L.hid[h].imm};
  if (st == SIM_OK)
    st = rewrite(&L);
  if (st == SIM_OK)
    st = link_calls(&L);
  for (uint32_t c = 0; st == SIM_OK && c < p->ncalls_all; c++)
    if (p->calls[c].builtin == SIM_BUILTIN_MALLOC || p->calls[c].builtin == SIM_BUILTIN_FREE)
      st = sim_heap_ready(d);                  /* made once, at the first such kernel */
  if (st == SIM_OK)
    st = sim_cbank_roots(p, modaddr);
  if (st == SIM_OK)
    sim_contract_fma(p);            /* ptxas's mul+add fusion (sim_contract.c) */
  if (st == SIM_OK)
    p->zero = sim_warp_zero_plan(p);  /* NULL (zero them all) when memory ran out */
  if (st == SIM_OK)
    p->fast = sim_exec_fast_plan(p, &p->vfp);  /* NULL: sim_exec for every instruction */
  if (st == SIM_OK)
    p->old_unread = sim_warp_old_unread(p);    /* NULL: every atom's old value kept */
out:
  free(L.reach);
  free(L.order);
  free(L.func_code);
  free(L.func_reg);
  free(L.sym_addr);
  free(L.sym_ok);
  free(L.linkable);
  free(L.rec);
  free(L.lfoff);
  free(L.hid);
  free(L.consts);
  if (st != SIM_OK) {
    if (st == SIM_ERR_NOMEM)
      snprintf(err, errlen, "out of host memory while linking the kernel");
    sim_prog_free(p);
  }
  return st;
}

void sim_prog_free(struct sim_prog *p)
{
  free(p->code);
  free(p->orig);
  free(p->consts);
  free(p->calls);
  free(p->copies);
  free(p->svars);
  free(p->zero);
  free(p->old_unread);
  free(p->croot);
  free(p->rfuncs);
  free(p->hid);
  free(p->fast);
  free(p->vfp);
  memset(p, 0, sizeof *p);
}
