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
 * reached only from the one before runs no more often than it; a block holding k copies of
 * a PTX loop's body (ptxas unrolled it) runs a k-th as often. Where ptxas made several copies
 * of one PTX loop (a peeled first iteration, a main loop of k a pass, straight-line and loop
 * copies for the rest), the PTX loop's executions are shared over them (loop_shares): each
 * entry (the instruction before the loop's head runs once an entry) leaves its trips modulo
 * k to the copies after the main one, on average (k - 1) / 2; where a warp's lanes run
 * different trip counts (the warp runs more than its lanes' mean), the copies after the main
 * one run where any lane needs them, and their runs move that way in proportion; the
 * copies' checks outside SASS loops run at most once an entry. A BSYNC (ptxas's
 * reconvergence after a branch it brackets with BSSY) is issued by every group of lanes that
 * reaches it apart: as often as the BSSY's block ran, plus once for each divergent execution
 * of the PTX branches between them (outside nested BSSY .. BSYNC regions; not where a SASS
 * loop lies between them, whose passes the PTX loop's branch does not count). Estimates
 * still: the shares
 * of the copies (trips modulo k are taken as spread evenly, where every entry may run the
 * same), code ptxas sank into a path of a branch it keeps (a block entered by falling
 * through a conditional branch counts by its PTX from after that branch where it has any; a
 * path entered at its label counts by what was sunk into it too), the call of a slow path
 * ptxas adds inside one PTX instruction (an IEEE division's, for special operands: taken
 * never to run), and the wavefronts of a
 * merged load (merged_wavefronts: from those of the PTX load it stands for, whose lanes'
 * addresses the statistics do not keep).
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

/* The shared wavefronts of a load ptxas merged with its neighbours into one of `wide` bytes a
   lane (LDS.64, LDS.128), from those of the PTX load it stands for (st), into *wave and the
   conflict-free *ideal. A wavefront returns 128 bytes, one register of each of 32 lanes, so a
   warp's LDS.64 takes 2 and its LDS.128 4 (half warps, quarter warps: a phase of 32 / r lanes
   for r registers a lane, each phase as many wavefronts as the most distinct words it reads
   in one bank), and half that where lanes 2i and 2i + 1 (or 2i and 2i + 2) read one address,
   whose registers the return packs two at a time (measured with ncu on an H100: an LDS.128
   that a whole warp, or each half warp, reads at one address takes 2 wavefronts, one of 16
   distinct addresses a half warp, twice over, takes 4). The PTX load's lanes read at the same
   addresses, 1/r of the bytes: where it takes one wavefront a request, no two lanes read
   different words of one bank, which is taken as lanes sharing addresses (a row broadcast,
   As[ty][k] of a tiled GEMM); where it takes more, the merged load takes as many as it does
   (lane i reading 16-byte chunk i: 4 for the PTX load's 32 words over 8 banks, 4 for the
   LDS.128's quarter warps), and no fewer than its phases of the lanes on. */
static void merged_wavefronts(const struct sim_inst_stats *st, unsigned wide, double *wave,
                              double *ideal)
{
  double r = wide / 4, req = (double)st->s_req, wf = (double)st->s_wavefronts;
  if (wf <= req) {                       /* shared addresses: registers packed in pairs */
    *wave = *ideal = req * r / 2;
    return;
  }
  double lanes = (double)st->pred_on / req;  /* a request's lanes on, on average */
  double phases = ceil(lanes / (32 / r));
  phases = phases < 1 ? 1 : phases > r ? r : phases;
  *ideal = req * phases;
  *wave = wf > *ideal ? wf : *ideal;
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

/* What met_apply_sass works out for one SASS block before it counts it. */
struct block_est {
  uint32_t best;               /* the PTX instruction that sets how often it runs (UINT32_MAX:
                                  none ran) */
  uint32_t loop;               /* the innermost PTX loop holding best: the index of its
                                  backward branch, UINT32_MAX when none */
  double share;                /* how often it runs at most, from its loop's copies; < 0 when
                                  not known */
};

/* The PTX instruction a backward branch at e goes to, or UINT32_MAX when e is no branch
   back within its function. */
static uint32_t back_target(const struct ptx_module *m, uint32_t e)
{
  const struct ptx_inst *in = &m->insts[e];
  if (in->op != PTX_OP_BRA)
    return UINT32_MAX;
  for (unsigned k = 0; k < in->nopd; k++)
    if (in->opd[k].kind == PTX_OPD_LABEL) {
      uint32_t h = in->opd[k].reg;
      return h <= e && h < m->ninsts && m->insts[h].func == in->func ? h : UINT32_MAX;
    }
  return UINT32_MAX;
}

/* Each block's best instruction (the most often run of those on their own lines; the
   prologue's, on a "{" line, only in a block of nothing else) and the innermost PTX loop
   that holds it (the loop from target h to backward branch e with the latest h). */
static int block_bests(const struct ptx_module *m, const struct sim_result *res,
                       const struct ptx_sass *s, struct block_est *est)
{
  uint32_t nback = 0, *back = malloc((m->ninsts ? m->ninsts : 1) * sizeof *back);
  if (!back)
    return -1;
  for (uint32_t e = 0; e < m->ninsts; e++)
    if (back_target(m, e) != UINT32_MAX)
      back[nback++] = e;
  for (uint32_t b = 0; b < s->nblocks; b++) {
    uint32_t best = UINT32_MAX, after = 0;
    /* a block entered only by falling through a conditional branch is one of its paths:
       what ptxas sank into it from before the branch ran on the other path too */
    if (b > 0 && s->joined[b] && !s->looped[b] && s->block[b] > 0) {
      uint32_t k = s->block[b] - 1, j = s->order[k];
      const struct ptx_inst *br = &m->insts[j];
      if (s->own[k] && br->op == PTX_OP_BRA && br->guard != PTX_NOREG)
        after = j + 1;
    }
    int later = 0;               /* own instructions from after that branch */
    for (uint32_t k = s->block[b]; k < s->block[b + 1] && after; k++)
      later |= s->own[k] && s->order[k] >= after &&
               m->insts[s->order[k]].func == m->insts[after - 1].func;
    for (int own = 1; own >= 0 && best == UINT32_MAX; own--)
      for (uint32_t k = s->block[b]; k < s->block[b + 1]; k++) {
        uint32_t i = s->order[k];
        if (later && (!own || i < after))
          continue;
        if (s->own[k] == own && i < res->nstats && res->stats[i].execs &&
            (best == UINT32_MAX || res->stats[i].execs > res->stats[best].execs))
          best = i;
      }
    est[b].best = best;
    est[b].loop = UINT32_MAX;
    est[b].share = -1;
    uint32_t head = 0;
    for (uint32_t j = 0; best != UINT32_MAX && j < nback; j++) {
      uint32_t h = back_target(m, back[j]);
      if (h <= best && best <= back[j] && (est[b].loop == UINT32_MAX || h > head)) {
        est[b].loop = back[j];
        head = h;
      }
    }
  }
  free(back);
  return 0;
}

/* How often PTX loop e (backward branch e, target h) is entered: as often as the
   instruction before h runs, where it falls through into h; 0 when not known. *lanes: by
   how many lanes, summed. */
static double loop_entries(const struct ptx_module *m, const struct sim_result *res,
                           uint32_t e, double *lanes)
{
  uint32_t h = back_target(m, e);
  *lanes = 0;
  if (h == UINT32_MAX || h == 0 || m->insts[h - 1].func != m->insts[h].func ||
      h - 1 >= res->nstats)
    return 0;
  const struct ptx_inst *pre = &m->insts[h - 1];
  if ((pre->op == PTX_OP_BRA && pre->guard == PTX_NOREG) || pre->op == PTX_OP_RET ||
      pre->op == PTX_OP_EXIT)
    return 0;
  *lanes = (double)res->stats[h - 1].threads;
  return (double)res->stats[h - 1].execs;
}

/* One copy of a PTX loop's body in the SASS: a SASS loop's blocks (k PTX iterations a pass),
   or one block outside SASS loops (k iterations, once an entry at most). */
struct version {
  uint32_t id;                 /* the SASS loop, or the block */
  int looped;
  uint32_t k;
  uint32_t covered;            /* distinct PTX instructions of the loop in it */
  uint32_t first;              /* its first block */
  int peeled;                  /* straight-line, before every SASS loop copy: ptxas peeled
                                  the first iterations off */
  double runs;
};

/* Peeled copies first, then the largest, a loop before straight-line code, then in code
   order. */
static int cmp_version(const void *a, const void *b)
{
  const struct version *x = a, *y = b;
  if (x->peeled != y->peeled)
    return x->peeled ? -1 : 1;
  if (x->k != y->k)
    return x->k > y->k ? -1 : 1;
  if (x->looped != y->looped)
    return x->looped ? -1 : 1;
  return x->first < y->first ? -1 : x->first > y->first;
}

/* Share execs executions in visits entries of a PTX loop over its copies ver[0 .. n) (in
   cmp_version's order), into ver[].runs, or into runs[] where that is not NULL (see
   loop_shares). */
static void share_out(struct version *ver, uint32_t n, double execs, double visits,
                      double *runs)
{
  double left = execs, mod = 0;          /* mod: what is left an entry is below it (0: any) */
  for (uint32_t v = 0; v < n; v++) {
    double k = ver[v].k, mean = left / visits, r;
    if (v + 1 == n) {
      r = left / k;
    } else if (ver[v].peeled) {            /* every entry runs a PTX loop's first trip */
      r = visits * k < left ? visits : left / k;
      left -= r * k;
    } else if (ver[v].looped) {
      double rest = (k - 1) / 2 < mean ? (k - 1) / 2 : mean;
      double take = left - visits * rest;
      r = take > 0 ? take / k : 0;
      left -= r * k;
      mod = k;
    } else {
      /* what is left an entry, spread evenly below mod, or up to twice its mean */
      double w = mod > 0 && mod < 2 * mean + 1 ? mod : 2 * mean + 1;
      double p = (w - k) / w;
      r = visits * (p < 0 ? 0 : p);
      if (r * k > left)
        r = left / k;
      left -= r * k;
      mod = k;
    }
    if (runs)
      runs[v] = r;
    else
      ver[v].runs = r;
  }
}

/* ptxas unrolls a loop into copies of its body: a main loop of k iterations a pass, then
   what is left over (fewer than k an entry) in smaller copies, a loop of one iteration a
   pass or straight-line code. The PTX loop's E executions in its V entries are shared out
   over them, largest first: each entry leaves the rest of its trips modulo k to the
   copies after (on average (k - 1) / 2 where the entries' trip counts spread over them, no
   more than an entry's mean), and a straight-line copy of k runs where at least k are
   left. Copies of a PTX loop hold most of its instructions; the other blocks of it outside
   SASS loops (ptxas's checks between the copies) run at most once an entry. Sets est[b].share
   of the blocks of loops with more than one copy. */
static int loop_shares(const struct ptx_module *m, const struct sim_result *res,
                       const struct ptx_sass *s, struct block_est *est)
{
  struct version *ver = malloc((s->nblocks ? s->nblocks : 1) * sizeof *ver);
  uint8_t *seen = calloc(m->ninsts ? m->ninsts : 1, 1);
  uint8_t *done = calloc(s->nblocks ? s->nblocks : 1, 1);
  int rc = -1;
  if (!ver || !seen || !done)
    goto out;
  for (uint32_t b0 = 0; b0 < s->nblocks; b0++) {
    uint32_t e = est[b0].loop;
    if (e == UINT32_MAX || done[b0])
      continue;
    uint32_t h = back_target(m, e), body = 0;
    for (uint32_t i = h; i <= e; i++)
      body += s->inst[i].n[PTX_SASS_ALL] > 0;
    double lane_visits, visits = loop_entries(m, res, e, &lane_visits);
    double execs = (double)res->stats[est[b0].best].execs;
    double lane_execs = (double)res->stats[est[b0].best].threads;
    /* the copies: per SASS loop, or per block outside loops */
    uint32_t nver = 0;
    for (uint32_t b = b0; b < s->nblocks; b++) {
      if (est[b].loop != e)
        continue;
      done[b] = 1;
      if (execs < (double)res->stats[est[b].best].execs) {
        execs = (double)res->stats[est[b].best].execs;
        lane_execs = (double)res->stats[est[b].best].threads;
      }
      int looped = s->loop[b] != UINT32_MAX;
      uint32_t id = looped ? s->loop[b] : b, v;
      for (v = 0; v < nver && !(ver[v].looped == looped && ver[v].id == id); v++)
        ;
      if (v == nver) {
        ver[nver].id = id;
        ver[nver].first = b;
        ver[nver].peeled = 0;
        ver[nver].looped = looped;
        ver[nver].k = 1;
        ver[nver].covered = 0;
        ver[nver++].runs = -1;
      }
      if (ver[v].k < s->unroll[b])
        ver[v].k = s->unroll[b];
    }
    /* how much of the body each holds */
    for (uint32_t v = 0; v < nver; v++) {
      for (uint32_t k = 0; k < s->nblocks; k++)
        if (est[k].loop == e && (ver[v].looped ? s->loop[k] == ver[v].id : k == ver[v].id))
          for (uint32_t j = s->block[k]; j < s->block[k + 1]; j++) {
            uint32_t i = s->order[j];
            if (s->own[j] && i >= h && i <= e && !seen[i]) {
              seen[i] = 1;
              ver[v].covered++;
            }
          }
      for (uint32_t i = h; i <= e; i++)
        seen[i] = 0;
    }
    uint32_t copies = 0;
    for (uint32_t v = 0; v < nver; v++)
      if (2 * ver[v].covered > body) {   /* the copies first; the others are checks */
        struct version t = ver[copies];
        ver[copies++] = ver[v];
        ver[v] = t;
      }
    if (visits <= 0 || lane_visits <= 0 || lane_execs <= 0)
      continue;
    for (uint32_t b = b0; b < s->nblocks; b++)  /* outside SASS loops: once an entry at most */
      if (est[b].loop == e && s->loop[b] == UINT32_MAX)
        est[b].share = visits;
    if (copies < 2)
      continue;
    uint32_t first_loop = UINT32_MAX;
    for (uint32_t v = 0; v < copies; v++)
      if (ver[v].looped && ver[v].first < first_loop)
        first_loop = ver[v].first;
    for (uint32_t v = 0; v < copies; v++)
      ver[v].peeled = !ver[v].looped && first_loop != UINT32_MAX && ver[v].first < first_loop;
    qsort(ver, copies, sizeof *ver, cmp_version);
    /* as if a warp's lanes ran the same trips, and by lanes: a copy after the first runs
       where any of the warp's lanes needs it */
    double *lane = malloc(copies * sizeof *lane);
    if (!lane)
      goto out;
    share_out(ver, copies, execs, visits, NULL);
    share_out(ver, copies, lane_execs, lane_visits, lane);
    double a = lane_visits / visits;     /* lanes a warp's entry */
    double mean = lane_execs / lane_visits, max = execs / visits;
    /* how far the lanes' trips differ: 0 where the warp runs its lanes' mean, 1 where it
       runs twice it (as the longest of independent lanes with trips spread evenly) */
    double spread = mean > 0 ? max / mean - 1 : 0;
    spread = spread < 0 ? 0 : spread > 1 ? 1 : spread;
    for (uint32_t v = 1; v < copies && spread > 0; v++) {
      double p = lane[v] / lane_visits, any;   /* runs a lane's entry */
      if (ver[v].looped) {
        double most = (double)(ver[v - 1].k - 1) / ver[v].k;
        any = a * p < most ? a * p : most;
      } else {
        any = 1 - pow(1 - (p < 1 ? p : 1), a);
      }
      ver[v].runs += spread * (visits * any - ver[v].runs);
    }
    free(lane);
    for (uint32_t b = b0; b < s->nblocks; b++) {
      if (est[b].loop != e)
        continue;
      int looped = s->loop[b] != UINT32_MAX;
      uint32_t id = looped ? s->loop[b] : b;
      for (uint32_t v = 0; v < copies; v++)
        if (ver[v].looped == looped && ver[v].id == id &&
            (est[b].share < 0 || ver[v].runs < est[b].share))
          est[b].share = ver[v].runs;
    }
  }
  rc = 0;
out:
  free(ver);
  free(seen);
  free(done);
  return rc;
}

/* The groups of lanes that leave SASS block a apart on their way to the BSYNC at block b
   (s->sync_from[b] == a): the divergent executions of the PTX branches in blocks a .. b - 1,
   each of which splits a group in two, less those inside a BSSY .. BSYNC region nested in
   it, whose groups meet again there. -1 where a loop of the SASS is in the region outside
   nested ones: lanes leave it at different passes, which the PTX loop's branch, once an
   iteration where ptxas's loop may run several a pass, does not count. seen: scratch,
   m->ninsts zeros, left zero. */
static double sync_splits(const struct ptx_module *m, const struct sim_result *res,
                          const struct ptx_sass *s, uint32_t a, uint32_t b, uint8_t *seen)
{
  double splits = 0;
  for (uint32_t c = a; c < b && splits >= 0; c++) {
    int nested = 0;              /* c is in a region from a' > a to a BSYNC d before b */
    for (uint32_t d = c + 1; d < b && !nested; d++)
      nested = s->sync_from[d] != UINT32_MAX && s->sync_from[d] > a && s->sync_from[d] <= c;
    if (nested)
      continue;
    if (s->loop[c] != UINT32_MAX && s->loop[c] != s->loop[b]) {
      splits = -1;
      break;
    }
    for (uint32_t k = s->block[c]; k < s->block[c + 1]; k++) {
      uint32_t i = s->order[k];
      const struct ptx_inst *in = &m->insts[i];
      if (s->own[k] && in->op == PTX_OP_BRA && in->guard != PTX_NOREG && i < res->nstats &&
          !seen[i]) {
        if (in->nopd > 0 && in->opd[0].kind == PTX_OPD_LABEL && in->opd[0].reg <= i) {
          splits = -1;           /* a PTX loop's back edge: it diverges at every pass some
                                    lanes leave (data-dependent trips), which ptxas's copies
                                    of the loop, unrolled, do not repeat at the BSYNC */
          break;
        }
        seen[i] = 1;
        splits += (double)res->stats[i].br_divergent;
      }
    }
  }
  for (uint32_t c = a; c < b; c++)
    for (uint32_t k = s->block[c]; k < s->block[c + 1]; k++)
      seen[s->order[k]] = 0;
  return splits;
}

int met_apply_sass(struct met_report *r, const struct ptx_module *m, const struct sim_result *res,
                   const struct ptx_sass *s)
{
  if (!s->inst || s->ninsts != m->ninsts || (s->nblocks && (!s->order || !s->own || !s->joined || !s->looped || !s->unroll || !s->loop ||
                                        !s->func_first || !s->slow || !s->sync_from)))
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
        unsigned w = ptx_type_size((enum ptx_type)in->type) * (in->vec ? in->vec : 1);
        unsigned wide = c->lds128 ? 16 : c->lds64 ? 8 : w;
        if (w && wide > w) {
          double wave, ideal;
          merged_wavefronts(st, wide, &wave, &ideal);
          s_ld_wave += wave;
          s_ld_ideal += ideal;
        } else {
          s_ld_wave += (double)st->s_wavefronts;
          s_ld_ideal += (double)st->s_ideal;
        }
      } else if (!ld && (sts > 0 || n[PTX_SASS_LDGSTS] > 0)) {
        s_st_wave += (double)st->s_wavefronts;
        s_st_ideal += (double)st->s_ideal;
      }
    }
  }
  /* every instruction of a SASS block runs as often as the block: as often as the most
     frequent PTX instruction in it (a branch body ptxas predicated runs with its branch),
     for the lanes that ran that one, less where ptxas made several copies of a PTX loop
     (loop_shares); a predicated instruction's lanes are on where they ran its PTX
     instruction */
  struct block_est *est = calloc(s->nblocks ? s->nblocks : 1, sizeof *est);
  double *ran = malloc((s->nblocks ? s->nblocks : 1) * sizeof *ran);
  double *ran_threads = malloc((s->nblocks ? s->nblocks : 1) * sizeof *ran_threads);
  uint8_t *seen = calloc(m->ninsts ? m->ninsts : 1, 1);
  if (!ran || !ran_threads || !seen || !est || block_bests(m, res, s, est) ||
      loop_shares(m, res, s, est)) {
    free(ran);
    free(ran_threads);
    free(seen);
    free(est);
    return -1;
  }
  double prev = 0;              /* how often the block before ran */
  for (uint32_t b = 0; b < s->nblocks; b++) {
    uint32_t best = est[b].best;
    double runs = best == UINT32_MAX ? 0 : (double)res->stats[best].execs;
    double threads = best == UINT32_MAX ? 0 : (double)res->stats[best].threads;
    double cap = runs;
    if (s->unroll[b] > 1 && (s->looped[b] || est[b].loop != UINT32_MAX))
      cap = runs / s->unroll[b];                   /* k PTX iterations a pass */
    if (!s->looped[b] && s->func_first[b] < b && ran[s->func_first[b]] < cap)
      cap = ran[s->func_first[b]];                 /* at most once a call of its function */
    if (est[b].share >= 0 && est[b].share < cap)
      cap = est[b].share;                          /* its share of its PTX loop's passes */
    if (b > 0 && s->joined[b] && cap > prev)       /* entered from the block before alone */
      cap = prev;
    if (s->slow[b])                                /* a slow path, for special operands */
      cap = 0;
    if (cap < runs) {
      threads = runs > 0 ? threads * cap / runs : 0;
      runs = cap;
    }
    uint32_t a = s->sync_from[b];
    double splits = a < b ? sync_splits(m, res, s, a, b, seen) : -1;
    if (splits >= 0) {            /* a BSYNC: once a group of lanes arriving apart, each lane once */
      runs = ran[a] + splits;
      threads = ran_threads[a];
    }
    ran[b] = prev = runs;
    ran_threads[b] = threads;
    if (runs == 0)
      continue;
    double n = (double)(s->block[b + 1] - s->block[b]);
    v[MET_INST] += n * runs;
    v[MET_THREAD_INST] += n * threads;
    /* a copy's lanes on: its PTX instruction's, in the share of its executions the block ran */
    for (uint32_t k = s->block[b]; k < s->block[b + 1]; k++) {
      uint32_t i = s->order[k];
      if (i < res->nstats && res->stats[i].execs) {
        double part = runs / (double)res->stats[i].execs;
        v[MET_THREAD_INST_PRED_ON] += (double)res->stats[i].pred_on * (part < 1 ? part : 1);
      }
    }
  }
  free(est);
  free(ran);
  free(ran_threads);
  free(seen);
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
