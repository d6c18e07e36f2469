/* ptx_cfg.c: control-flow analysis of a decoded PTX module.
 *
 * Reconvergence points, needed before the emulator can run a module. Per function, the
 * instructions are cut into basic blocks (leaders: the first instruction, every branch
 * target, every instruction after a bra/ret/exit/trap), the block graph gets a virtual exit
 * node that ret/exit/trap and a fall off the end lead to, and immediate post-dominators are
 * computed with the Cooper-Harvey-Kennedy iterative algorithm on the reverse graph. Each
 * bra's reconv is the first instruction of its block's immediate post-dominator, or
 * PTX_NOREG when that is the virtual exit (the paths only meet when the threads are done).
 * The SIMT stack in harness/sim uses it to re-join divergent lanes. Recursion in the call
 * graph is no concern here: harness/sim/sim_link.c finds it and sim_recur.c runs it.
 * Everything is iterative (no recursion), so a huge or hostile module cannot overflow the
 * stack.
 */
#include "ptx/ptx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

struct cfg_scratch {
  uint8_t *leader;     /* [n] */
  uint32_t *blk_of;    /* [n] inst -> block */
  uint32_t *bstart;    /* [nb + 1] block -> first inst (local); bstart[nb] = n */
  uint32_t *succ;      /* [2 * (nb + 1)] up to two successors, NONE when absent */
  uint32_t *pred_off;  /* [nb + 2] CSR of predecessors */
  uint32_t *pred;      /* [2 * (nb + 1)] */
  uint32_t *po;        /* [nb + 1] postorder number, NONE when not reached from exit */
  uint32_t *order;     /* [nb + 1] nodes in postorder */
  uint32_t *idom;      /* [nb + 1] immediate post-dominator, NONE when undefined */
  uint32_t *stack;     /* [2 * (nb + 1)] DFS stack: node, next predecessor position */
};

static void scratch_free(struct cfg_scratch *s) {
  free(s->leader);
  free(s->blk_of);
  free(s->bstart);
  free(s->succ);
  free(s->pred_off);
  free(s->pred);
  free(s->po);
  free(s->order);
  free(s->idom);
  free(s->stack);
  memset(s, 0, sizeof *s);
}

static int scratch_alloc(struct cfg_scratch *s, size_t n) {
  size_t nn = n + 2;
  s->leader = malloc(nn);
  s->blk_of = malloc(nn * sizeof *s->blk_of);
  s->bstart = malloc(nn * sizeof *s->bstart);
  s->succ = malloc(2 * nn * sizeof *s->succ);
  s->pred_off = malloc((nn + 1) * sizeof *s->pred_off);
  s->pred = malloc(2 * nn * sizeof *s->pred);
  s->po = malloc(nn * sizeof *s->po);
  s->order = malloc(nn * sizeof *s->order);
  s->idom = malloc(nn * sizeof *s->idom);
  s->stack = malloc(2 * nn * sizeof *s->stack);
  return s->leader && s->blk_of && s->bstart && s->succ && s->pred_off && s->pred && s->po && s->order &&
         s->idom && s->stack;
}

static int ends_thread(uint16_t op) {
  return op == PTX_OP_RET || op == PTX_OP_EXIT || op == PTX_OP_TRAP;
}

static enum ptx_status fail(struct ptx_error *err, enum ptx_status st, uint32_t line, const char *msg,
                            const char *name) {
  if (err) {
    err->line = line;
    err->col = 0;
    snprintf(err->msg, sizeof err->msg, msg, name);
  }
  return st;
}

static uint32_t intersect(const struct cfg_scratch *s, uint32_t a, uint32_t b) {
  while (a != b) {
    while (s->po[a] < s->po[b]) a = s->idom[a];
    while (s->po[b] < s->po[a]) b = s->idom[b];
  }
  return a;
}

/* Reconvergence points of one function's branches. */
static enum ptx_status analyse_func(struct ptx_module *m, uint32_t fi, struct cfg_scratch *s,
                                    struct ptx_error *err) {
  const struct ptx_func *f = &m->funcs[fi];
  uint32_t n = f->ninst, base = f->first_inst, nb = 0, exitn, i, b, npo = 0, sp = 0;
  struct ptx_inst *ins = m->insts + base;
  int changed;

  memset(s->leader, 0, n);
  s->leader[0] = 1;
  for (i = 0; i < n; i++) {
    ins[i].reconv = PTX_NOREG;
    if (ins[i].op == PTX_OP_BRA) {
      uint32_t t = ins[i].opd[0].reg;
      if (ins[i].opd[0].kind != PTX_OPD_LABEL || t < base || t - base >= n)
        return fail(err, PTX_ERR_SEMANTIC, ins[i].ptx_line, "branch target outside function '%s'",
                    f->name ? f->name : "?");
      s->leader[t - base] = 1;
      if (i + 1 < n) s->leader[i + 1] = 1;
    } else if (ends_thread(ins[i].op) && i + 1 < n) {
      s->leader[i + 1] = 1;
    }
  }
  for (i = 0; i < n; i++) {
    if (s->leader[i]) s->bstart[nb++] = i;
    s->blk_of[i] = nb - 1;
  }
  s->bstart[nb] = n;
  exitn = nb;

  /* successors */
  for (b = 0; b < nb; b++) {
    const struct ptx_inst *last = &ins[s->bstart[b + 1] - 1];
    uint32_t fall = b + 1 < nb ? b + 1 : exitn;
    uint32_t *sc = &s->succ[2 * b];
    sc[0] = sc[1] = NONE;
    if (last->op == PTX_OP_BRA) {
      sc[0] = s->blk_of[last->opd[0].reg - base];
      if (last->guard != PTX_NOREG && fall != sc[0]) sc[1] = fall;
    } else if (ends_thread(last->op)) {
      sc[0] = exitn;
      if (last->guard != PTX_NOREG && fall != exitn) sc[1] = fall;
    } else {
      sc[0] = fall;
    }
  }
  s->succ[2 * exitn] = s->succ[2 * exitn + 1] = NONE;

  /* predecessors (CSR) */
  memset(s->pred_off, 0, (nb + 2) * sizeof *s->pred_off);
  for (b = 0; b < nb; b++)
    for (i = 0; i < 2; i++)
      if (s->succ[2 * b + i] != NONE) s->pred_off[s->succ[2 * b + i] + 1]++;
  for (b = 0; b <= nb; b++) s->pred_off[b + 1] += s->pred_off[b];
  {
    uint32_t *fill = s->po; /* borrowed as a cursor array */
    for (b = 0; b <= nb; b++) fill[b] = s->pred_off[b];
    for (b = 0; b < nb; b++)
      for (i = 0; i < 2; i++)
        if (s->succ[2 * b + i] != NONE) s->pred[fill[s->succ[2 * b + i]]++] = b;
  }

  /* postorder of the reverse graph from the exit (edges: exit -> predecessors) */
  for (b = 0; b <= nb; b++) {
    s->po[b] = NONE;
    s->idom[b] = NONE;
  }
  s->po[exitn] = NONE - 1; /* mark visited */
  s->stack[sp++] = exitn;
  s->stack[sp++] = s->pred_off[exitn];
  while (sp) {
    uint32_t x = s->stack[sp - 2], *pos = &s->stack[sp - 1];
    if (*pos < s->pred_off[x + 1]) {
      uint32_t y = s->pred[(*pos)++];
      if (s->po[y] == NONE) {
        s->po[y] = NONE - 1;
        s->stack[sp++] = y;
        s->stack[sp++] = s->pred_off[y];
      }
    } else {
      s->po[x] = npo;
      s->order[npo++] = x;
      sp -= 2;
    }
  }

  /* Cooper-Harvey-Kennedy on the reverse graph: a node's "predecessors" there are its
     successors here */
  s->idom[exitn] = exitn;
  do {
    uint32_t k;
    changed = 0;
    for (k = npo; k-- > 0;) {
      uint32_t x = s->order[k], nd = NONE;
      if (x == exitn) continue;
      for (i = 0; i < 2; i++) {
        uint32_t y = s->succ[2 * x + i];
        if (y == NONE || s->idom[y] == NONE) continue;
        nd = nd == NONE ? y : intersect(s, y, nd);
      }
      if (nd != NONE && s->idom[x] != nd) {
        s->idom[x] = nd;
        changed = 1;
      }
    }
  } while (changed);

  for (b = 0; b < nb; b++) {
    struct ptx_inst *last = &ins[s->bstart[b + 1] - 1];
    uint32_t ip = s->idom[b];
    if (last->op != PTX_OP_BRA) continue;
    last->reconv = (ip == NONE || ip == exitn) ? PTX_NOREG : base + s->bstart[ip];
  }
  return PTX_OK;
}

enum ptx_status ptx_cfg_analyse(struct ptx_module *m, struct ptx_error *err) {
  struct cfg_scratch s;
  uint32_t f, maxn = 0;
  enum ptx_status st = PTX_OK;
  if (!m) return PTX_OK;
  for (f = 0; f < m->nfuncs; f++) {
    const struct ptx_func *fn = &m->funcs[f];
    if ((uint64_t)fn->first_inst + fn->ninst > m->ninsts)
      return fail(err, PTX_ERR_SEMANTIC, fn->ptx_line, "instructions of function '%s' out of range",
                  fn->name ? fn->name : "?");
    if (fn->ninst > maxn) maxn = fn->ninst;
  }
  memset(&s, 0, sizeof s);
  if (!scratch_alloc(&s, maxn)) {
    scratch_free(&s);
    return fail(err, PTX_ERR_NOMEM, 0, "%s", "out of memory in control-flow analysis");
  }
  for (f = 0; f < m->nfuncs && st == PTX_OK; f++)
    if (m->funcs[f].ninst) st = analyse_func(m, f, &s, err);
  scratch_free(&s);
  return st;
}
