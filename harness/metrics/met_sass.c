/* met_sass.c: instruction counts of what the GPU executes, from the SASS map (met.h,
   met_apply_sass; ptx/ptx_sass.h).
 *
 * The emulator counts each PTX instruction's warp executions; ptxas turned that instruction
 * into k machine instructions of known classes (k = 0 where it folded or merged it away, 24
 * for an integer division). A SASS basic block is taken to run as often as the most frequent
 * PTX instruction in it: that covers the bodies of branches ptxas turned into predicated
 * instructions, which every warp issues (smsp__inst_executed counts them, lanes off or not).
 * For memory classes an execution is one the PTX instruction made in that space (its requests
 * in the emulator's statistics: ncu counts a memory instruction only where a lane's predicate
 * is on), so a SASS access of a PTX access counts as the PTX one did. Bounds from the code's
 * shape: a block outside the SASS's loops runs at most once a call of its function; a block
 * reached only from the one before runs no more often than it; a loop block holding k copies
 * of its PTX body (ptxas unrolled it) runs a k-th as often. Estimates still: the remainder of
 * an unrolled loop (lanes with different trip counts: loop_mod7 of tests/e2e/kernels/
 * divergent.cu is counted 6% high), branches ptxas adds inside one PTX instruction (the
 * fast path of a division counts its call of the slow path too), and the wavefronts of a
 * merged load (those of the PTX load it stands for: right for a broadcast and for lanes that
 * read neighbouring words, 2 where lane i's LDS.64 reads words 2i and 2i + 1).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/met.h"

/* Whether instruction in accesses memory through the LSU (its statistics count requests). */
static int is_access(const struct ptx_inst *in)
{
  switch (in->op) {
  case PTX_OP_LD: case PTX_OP_LDU: case PTX_OP_ST: case PTX_OP_ATOM: case PTX_OP_RED:
  case PTX_OP_CP:
    return 1;
  default:
    return 0;
  }
}

/* Set metric id to v if it differs from the PTX count: then it is from SASS. */
static void update(struct met_report *r, enum met_id id, double v)
{
  if (!r->defined[id] || r->value[id] == v)
    return;
  r->ptx_value[id] = r->value[id];
  r->value[id] = v;
  r->kind[id] = MET_FROM_SASS;
}

/* Set a ratio num/den (times scale) from SASS figures, where both are defined. */
static void update_ratio(struct met_report *r, enum met_id id, double num, double den,
                         double scale)
{
  if (den > 0)
    update(r, id, scale * num / den);
}

int met_apply_sass(struct met_report *r, const struct ptx_module *m, const struct sim_result *res,
                   const struct ptx_sass *s)
{
  if (!s->inst || s->ninsts != m->ninsts || (s->nblocks && (!s->order || !s->own || !s->joined || !s->looped || !s->unroll ||
                                        !s->func_first)))
    return -1;
  double v[MET_COUNT] = {0};
  double s_ld_wave = 0, s_ld_ideal = 0, s_st_wave = 0, s_st_ideal = 0;
  for (uint32_t i = 0; i < res->nstats && i < m->ninsts; i++) {
    const struct sim_inst_stats *st = &res->stats[i];
    const struct ptx_sass_count *c = &s->inst[i];
    if (!st->execs)
      continue;
    /* the executions of a memory class: the PTX access's requests in that space, else (SASS
       memory code from an instruction that is no access) its executions */
    int acc = is_access(&m->insts[i]);
    double sh = acc ? (double)st->s_req : (double)st->execs;
    double gl = acc ? (double)st->g_req : (double)st->execs;
    double lo = acc ? (double)st->l_req : (double)st->execs;
    /* an access's SASS memory instructions a PTX execution: one, or none where ptxas merged
       it into a neighbour's (LDS.64/128). ptxas's copies of an access in a loop it unrolls
       (the body k times and a remainder) each run a share of the executions, so their number
       is not a count per execution: the emulator's executions already are */
    uint32_t n[PTX_SASS_NCLASS];
    for (unsigned k = 0; k < PTX_SASS_NCLASS; k++)
      n[k] = acc && c->n[k] > 1 ? 1 : c->n[k];
    double lds = n[PTX_SASS_LDS] + (acc ? n[PTX_SASS_GEN_LD] : 0);
    double sts = n[PTX_SASS_STS] + (acc ? n[PTX_SASS_GEN_ST] : 0);
    v[MET_S_LD_INST] += sh * lds;
    v[MET_S_ST_INST] += sh * sts + sh * n[PTX_SASS_LDGSTS];
    v[MET_S_ATOM_INST] += sh * (n[PTX_SASS_ATOMS] + (acc ? n[PTX_SASS_GEN_ATOM] : 0));
    v[MET_G_LD_INST] += gl * (n[PTX_SASS_LDG] + n[PTX_SASS_LDGSTS] + (acc ? n[PTX_SASS_GEN_LD] : 0));
    v[MET_G_ST_INST] += gl * (n[PTX_SASS_STG] + (acc ? n[PTX_SASS_GEN_ST] : 0));
    v[MET_G_ATOM_INST] += gl * (n[PTX_SASS_ATOMG] + (acc ? n[PTX_SASS_GEN_ATOM] : 0));
    v[MET_G_RED_INST] += gl * n[PTX_SASS_REDG];
    v[MET_L_LD_INST] += lo * (n[PTX_SASS_LDL] + (acc ? n[PTX_SASS_GEN_LD] : 0));
    v[MET_L_ST_INST] += lo * (n[PTX_SASS_STL] + (acc ? n[PTX_SASS_GEN_ST] : 0));
    /* shared wavefronts: a load ptxas merged into its neighbour's LDS.64/128 makes none of
       its own; the merged one is taken to make those of the PTX load it is attributed to */
    if (acc && st->s_req) {
      const struct ptx_inst *in = &m->insts[i];
      int ld = in->op == PTX_OP_LD || in->op == PTX_OP_LDU;
      if (ld && lds > 0) {
        /* a load that stands for f PTX loads (an LDS.64 or LDS.128 of 32-bit ones) reads f
           times the bytes a lane: its conflict-free wavefronts are f times the PTX load's,
           never more than it takes (a broadcast stays one) */
        unsigned w = ptx_type_size((enum ptx_type)in->type) * (in->vec ? in->vec : 1);
        unsigned wide = c->lds128 ? 16 : c->lds64 ? 8 : w;
        double f = w && wide > w ? (double)(wide / w) : 1.0;
        double ideal = (double)st->s_ideal * f;
        s_ld_wave += (double)st->s_wavefronts;
        s_ld_ideal += ideal < (double)st->s_wavefronts ? ideal : (double)st->s_wavefronts;
      } else if (!ld && (sts > 0 || n[PTX_SASS_LDGSTS] > 0)) {
        s_st_wave += (double)st->s_wavefronts;
        s_st_ideal += (double)st->s_ideal;
      }
    }
  }
  /* every instruction of a SASS block runs as often as the block: as often as the most
     frequent PTX instruction in it (a branch body ptxas predicated runs with its branch),
     for the lanes that ran that one; a predicated instruction's lanes are on where they
     ran its PTX instruction */
  double prev = 0;              /* how often the block before ran */
  double *ran = malloc((s->nblocks ? s->nblocks : 1) * sizeof *ran);
  if (!ran)
    return -1;
  for (uint32_t b = 0; b < s->nblocks; b++) {
    uint32_t best = UINT32_MAX;
    /* instructions on their own lines decide; the prologue's (a "{" line) only in a block
       of nothing else */
    for (int own = 1; own >= 0 && best == UINT32_MAX; own--)
      for (uint32_t k = s->block[b]; k < s->block[b + 1]; k++) {
        uint32_t i = s->order[k];
        if (s->own[k] == own && i < res->nstats && res->stats[i].execs &&
            (best == UINT32_MAX || res->stats[i].execs > res->stats[best].execs))
          best = i;
      }
    double runs = best == UINT32_MAX ? 0 : (double)res->stats[best].execs;
    double threads = best == UINT32_MAX ? 0 : (double)res->stats[best].threads;
    double cap = runs;
    if (s->looped[b] && s->unroll[b] > 1)
      cap = runs / s->unroll[b];                   /* k PTX iterations a pass */
    else if (!s->looped[b] && s->func_first[b] < b)
      cap = ran[s->func_first[b]];                 /* at most once a call of its function */
    if (b > 0 && s->joined[b] && cap > prev)       /* entered from the block before alone */
      cap = prev;
    if (cap < runs) {
      threads = runs > 0 ? threads * cap / runs : 0;
      runs = cap;
    }
    ran[b] = prev = runs;
    if (runs == 0)
      continue;
    double n = (double)(s->block[b + 1] - s->block[b]);
    v[MET_INST] += n * runs;
    v[MET_THREAD_INST] += n * threads;
    for (uint32_t k = s->block[b]; k < s->block[b + 1]; k++)
      if (s->order[k] < res->nstats)
        v[MET_THREAD_INST_PRED_ON] += (double)res->stats[s->order[k]].pred_on /
                                      (s->looped[b] ? s->unroll[b] : 1);
  }
  free(ran);
  r->sass = 1;
  /* a loop block's passes are its PTX iterations over its copies: whole counts, rounded */
  for (int id = 0; id < MET_COUNT; id++)
    v[id] = floor(v[id] + 0.5);
  /* the instruction counts are SASS counts now, equal to the PTX's or not */
  static const enum met_id insts[] = {MET_INST, MET_THREAD_INST, MET_THREAD_INST_PRED_ON};
  for (size_t k = 0; k < sizeof insts / sizeof *insts; k++) {
    update(r, insts[k], v[insts[k]]);
    r->kind[insts[k]] = MET_FROM_SASS;
  }
  update_ratio(r, MET_THREAD_PER_INST, v[MET_THREAD_INST], v[MET_INST], 1.0);
  if (r->defined[MET_THREAD_PER_INST])
    r->kind[MET_THREAD_PER_INST] = MET_FROM_SASS;
  static const enum met_id mem[] = {
    MET_S_LD_INST, MET_S_ST_INST, MET_S_ATOM_INST, MET_G_LD_INST, MET_G_ST_INST,
    MET_G_ATOM_INST, MET_G_RED_INST, MET_L_LD_INST, MET_L_ST_INST,
  };
  for (size_t k = 0; k < sizeof mem / sizeof *mem; k++)
    update(r, mem[k], v[mem[k]]);
  /* a global request is one instruction's */
  update(r, MET_G_LD_REQ, v[MET_G_LD_INST]);
  update(r, MET_G_ST_REQ, v[MET_G_ST_INST]);
  update(r, MET_G_ATOM_REQ, v[MET_G_ATOM_INST]);
  update(r, MET_G_RED_REQ, v[MET_G_RED_INST]);
  update_ratio(r, MET_G_LD_SPR, r->value[MET_G_LD_SEC], v[MET_G_LD_INST], 1.0);
  update_ratio(r, MET_G_ST_SPR, r->value[MET_G_ST_SEC], v[MET_G_ST_INST], 1.0);
  update(r, MET_S_LD_WAVE, s_ld_wave);
  update(r, MET_S_LD_IDEAL, s_ld_ideal);
  update(r, MET_S_ST_WAVE, s_st_wave);
  update(r, MET_S_ST_IDEAL, s_st_ideal);
  update(r, MET_S_LD_CONF, r->value[MET_S_LD_WAVE] - r->value[MET_S_LD_IDEAL]);
  update(r, MET_S_ST_CONF, r->value[MET_S_ST_WAVE] - r->value[MET_S_ST_IDEAL]);
  update_ratio(r, MET_S_LD_WPR, r->value[MET_S_LD_WAVE], r->value[MET_S_LD_INST], 1.0);
  update_ratio(r, MET_S_ST_WPR, r->value[MET_S_ST_WAVE], r->value[MET_S_ST_INST], 1.0);
  return 0;
}
