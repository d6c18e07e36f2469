/* met.c: the metric catalogue's lookups (met_names.def), and Nsight Compute metrics from the
   emulator's per-instruction statistics (met.h). */
#include <stdlib.h>
#include <string.h>

#include "metrics/met.h"
#include "ptx/ptx_mma.h"

static const struct {
  const char *name, *label, *unit;
  enum met_kind kind;
  enum met_source source;
} table[MET_ALL] = {
#define X(id, name, kind, source, label, unit) [MET_##id] = {name, label, unit, MET_##kind, MET_SRC_##source},
#include "met_names.def"
#undef X
};

const char *met_name(enum met_id id) { return (unsigned)id < MET_ALL ? table[id].name : "?"; }
const char *met_label(enum met_id id) { return (unsigned)id < MET_ALL ? table[id].label : "?"; }
const char *met_unit(enum met_id id) { return (unsigned)id < MET_ALL ? table[id].unit : "?"; }
enum met_kind met_kind_of(enum met_id id) { return (unsigned)id < MET_ALL ? table[id].kind : MET_PTX_LEVEL; }
enum met_source met_source_of(enum met_id id)
{
  return (unsigned)id < MET_ALL ? table[id].source : MET_SRC_NCU;
}

const char *met_kind_name(enum met_kind k)
{
  static const char *const names[MET_NKINDS] = {
    [MET_EXACT] = "exact", [MET_PTX_LEVEL] = "ptx-level", [MET_MODELLED] = "modelled",
    [MET_MEASURED] = "measured", [MET_FROM_SASS] = "from-sass",
  };
  return (unsigned)k < MET_NKINDS ? names[k] : "ptx-level";
}

const char *met_source_name(enum met_source s)
{
  static const char *const names[MET_NSOURCES] = {
    [MET_SRC_COUNTER] = "counter", [MET_SRC_PTXAS] = "ptxas", [MET_SRC_OCC] = "occupancy",
    [MET_SRC_TIMING] = "timing", [MET_SRC_DERIVED] = "derived", [MET_SRC_NCU] = "ncu",
  };
  return (unsigned)s < MET_NSOURCES ? names[s] : "?";
}

int met_lookup(const char *name, size_t len, enum met_id *id)
{
  for (int i = 0; i < MET_ALL; i++)
    if (strlen(table[i].name) == len && !memcmp(table[i].name, name, len)) {
      *id = (enum met_id)i;
      return 0;
    }
  return -1;
}

size_t met_edit_distance(const char *a, size_t la, const char *b, size_t cap)
{
  size_t lb = strlen(b), row[128];
  if (la >= sizeof row / sizeof *row || lb >= sizeof row / sizeof *row)
    return cap + 1;
  if ((la > lb ? la - lb : lb - la) > cap)
    return cap + 1;
  for (size_t j = 0; j <= lb; j++)
    row[j] = j;
  for (size_t i = 1; i <= la; i++) {
    size_t diag = row[0], best;
    row[0] = best = i;
    for (size_t j = 1; j <= lb; j++) {
      size_t up = row[j];
      size_t v = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < v)
        v = up + 1;
      if (row[j - 1] + 1 < v)
        v = row[j - 1] + 1;
      /* a swap of two neighbours counts as one edit: "rnu" -> "run" */
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && v > diag)
        v = diag;
      row[j] = v;
      diag = up;
      if (v < best)
        best = v;
    }
    if (best > cap)
      return cap + 1;
  }
  return row[lb];
}

const char *met_nearest(const char *name, size_t len)
{
  size_t cap = len / 3, best = cap + 1;
  const char *out = NULL;
  for (int i = 0; i < MET_ALL; i++) {
    size_t d = met_edit_distance(name, len, table[i].name, cap);
    if (d < best) {
      best = d;
      out = table[i].name;
    }
  }
  return out;
}

const char *met_short_label(const char *name)
{
  enum met_id id;
  return met_lookup(name, strlen(name), &id) ? name : table[id].label;
}

static void set(struct met_report *r, enum met_id id, double v)
{
  r->value[id] = v;
  r->ptx_value[id] = v;
  r->defined[id] = 1;
}

static void ratio(struct met_report *r, enum met_id id, double num, double den, double scale)
{
  if (den > 0)
    set(r, id, scale * num / den);
}

static int cmp_line(const void *a, const void *b)
{
  const struct met_line *x = a, *y = b;
  if (x->file != y->file)
    return x->file < y->file ? -1 : 1;
  return x->line < y->line ? -1 : x->line > y->line;
}

double met_line_sectors_per_request(const struct met_line *l)
{
  return l->global_requests ? (double)l->global_sectors / (double)l->global_requests : -1.0;
}

double met_line_wavefronts_per_inst(const struct met_line *l)
{
  return l->shared_insts ? (double)l->shared_wavefronts / (double)l->shared_insts : -1.0;
}

/* The line-table row of (file, line), made on first use; NULL when out of memory. */
static struct met_line *line_row(struct met_report *r, uint32_t *cap, const struct ptx_module *m,
                                 uint32_t file, uint32_t line)
{
  for (uint32_t i = r->nlines; i-- > 0;)
    if (r->lines[i].file == file && r->lines[i].line == line)
      return &r->lines[i];
  if (r->nlines == *cap) {
    uint32_t nc = *cap ? *cap * 2 : 64;
    struct met_line *nl = realloc(r->lines, nc * sizeof *nl);
    if (!nl)
      return NULL;
    r->lines = nl;
    *cap = nc;
  }
  struct met_line *l = &r->lines[r->nlines++];
  memset(l, 0, sizeof *l);
  l->file = file;
  l->line = line;
  l->path = ptx_file_path(m, file);
  return l;
}

/* Whether register reg of function f is read anywhere but as the destination of instruction
   skip. ptxas turns an atom whose result nobody reads into a RED, and ncu counts it there. */
static int reg_is_read(const struct ptx_module *m, uint32_t f, uint32_t reg, uint32_t skip)
{
  const struct ptx_func *fn = &m->funcs[f];
  for (uint32_t i = fn->first_inst; i < fn->first_inst + fn->ninst; i++) {
    const struct ptx_inst *in = &m->insts[i];
    if (in->guard == reg)
      return 1;
    for (uint32_t o = i == skip ? 1 : 0; o < in->nopd; o++) {
      const struct ptx_operand *op = &in->opd[o];
      if ((op->kind == PTX_OPD_REG || op->kind == PTX_OPD_ADDR) && (op->reg == reg || op->pair == reg))
        return 1;
      if (op->kind == PTX_OPD_VEC)
        for (uint32_t v = 0; v < op->nvec && v < PTX_MAX_VEC; v++)
          if (op->vreg[v] == reg)
            return 1;
    }
  }
  return 0;
}

int met_compute(const struct ptx_module *m, const struct sim_result *res, struct met_report *r)
{
  memset(r, 0, sizeof *r);
  double v[MET_COUNT] = {0};
  uint32_t cap = 0;
  for (uint32_t i = 0; i < res->nstats && i < m->ninsts; i++) {
    const struct sim_inst_stats *s = &res->stats[i];
    const struct ptx_inst *in = &m->insts[i];
    if (!s->execs)
      continue;
    v[MET_INST] += (double)s->execs;
    v[MET_THREAD_INST] += (double)s->threads;
    v[MET_THREAD_INST_PRED_ON] += (double)s->pred_on;
    int ld = in->op == PTX_OP_LD || in->op == PTX_OP_LDU, st = in->op == PTX_OP_ST;
    if (ptx_mma_op(in->op)) {       /* tensor cores: fragment loads and stores are accesses */
      ld = in->sub != PTX_MMA_MMA && in->sub != PTX_MMA_STORE_D && in->sub != PTX_MMA_STMATRIX;
      st = in->sub == PTX_MMA_STORE_D || in->sub == PTX_MMA_STMATRIX;
      if (in->sub == PTX_MMA_MMA) {
        /* ptxas's HMMA/IMMA/DMMA: one per m16n8 tile of a wmma (f64's m8n8k4: one) */
        unsigned mm, nn, kk;
        ptx_mma_dims(PTX_MMA_SHAPE(in->mma), &mm, &nn, &kk);
        double per = in->op == PTX_OP_WMMA && mm * nn > 128 ? (double)(mm * nn / 128) : 1.0;
        v[MET_TENSOR_INST] += per * (double)s->execs;
      }
    }
    if (in->op == PTX_OP_TEX || in->op == PTX_OP_TLD4 || in->op == PTX_OP_TXQ)
      v[MET_TEX_INST] += (double)s->execs;   /* the texture unit's: ncu's op_texture */
    int atom = in->op == PTX_OP_ATOM, red = in->op == PTX_OP_RED;
    if (atom && in->opd[0].kind == PTX_OPD_REG && !reg_is_read(m, in->func, in->opd[0].reg, i)) {
      atom = 0;
      red = 1;
    }
    if (in->op == PTX_OP_CP && in->sub >= PTX_CP_BULK_G2S) {
      /* bulk and tensor copies are the copy engine's (TMA), not load/store instructions:
         Nsight Compute's pipe_lsu counters do not see them; their sectors reach the L2 and
         DRAM counters through the timing model (sim_async.c records them) */
    } else if (in->op == PTX_OP_CP && in->sub == PTX_CP_COPY) {
      /* cp.async: a global load into a shared store, counted as both (sim_async.c) */
      v[MET_G_LD_INST] += (double)s->g_req;
      v[MET_G_LD_REQ] += (double)s->g_req;
      v[MET_G_LD_SEC] += (double)s->g_sectors;
      v[MET_G_LD_LINES] += (double)s->g_lines;
      v[MET_G_LD_BYTES] += (double)s->g_bytes;
      v[MET_S_ST_INST] += (double)s->s_req;
      v[MET_S_ST_WAVE] += (double)s->s_wavefronts;
      v[MET_S_ST_IDEAL] += (double)s->s_ideal;
    } else if (ld) {
      v[MET_G_LD_INST] += (double)s->g_req;
      v[MET_G_LD_REQ] += (double)s->g_req;
      v[MET_G_LD_SEC] += (double)s->g_sectors;
      v[MET_G_LD_LINES] += (double)s->g_lines;
      v[MET_G_LD_BYTES] += (double)s->g_bytes;
      v[MET_S_LD_INST] += (double)s->s_req;
      v[MET_S_LD_WAVE] += (double)s->s_wavefronts;
      v[MET_S_LD_IDEAL] += (double)s->s_ideal;
      v[MET_L_LD_INST] += (double)s->l_req;
      v[MET_L_LD_SEC] += (double)s->l_sectors;
    } else if (st) {
      v[MET_G_ST_INST] += (double)s->g_req;
      v[MET_G_ST_REQ] += (double)s->g_req;
      v[MET_G_ST_SEC] += (double)s->g_sectors;
      v[MET_G_ST_LINES] += (double)s->g_lines;
      v[MET_G_ST_BYTES] += (double)s->g_bytes;
      v[MET_S_ST_INST] += (double)s->s_req;
      v[MET_S_ST_WAVE] += (double)s->s_wavefronts;
      v[MET_S_ST_IDEAL] += (double)s->s_ideal;
      v[MET_L_ST_INST] += (double)s->l_req;
      v[MET_L_ST_SEC] += (double)s->l_sectors;
    } else if (atom || red) {
      v[atom ? MET_G_ATOM_INST : MET_G_RED_INST] += (double)s->g_req;
      v[atom ? MET_G_ATOM_REQ : MET_G_RED_REQ] += (double)s->g_req;
      /* ptxas aggregates a warp-uniform atom.add whose result is read into one lane's
         access; a RED (result unread) stays serialised (both measured with ncu, H200) */
      int agg = atom && (in->sub == PTX_ATOM_ADD || in->sub == PTX_ATOM_INC ||
                         in->sub == PTX_ATOM_DEC);
      v[atom ? MET_G_ATOM_SEC : MET_G_RED_SEC] += (double)(agg ? s->g_sectors_agg : s->g_sectors);
      v[MET_S_ATOM_INST] += (double)s->s_req;
    } else if (in->op == PTX_OP_BRA) {
      v[MET_BR_UNIFORM] += (double)s->br_uniform;
      v[MET_BR_DIVERGENT] += (double)s->br_divergent;
    } else if (in->op == PTX_OP_BAR && in->sub != PTX_BAR_WARP_SYNC) {
      v[MET_BARRIERS] += (double)s->execs;
    }
    if (!in->uline)
      continue;
    struct met_line *l = line_row(r, &cap, m, in->ufile, in->uline);
    if (!l) {
      met_report_free(r);
      return -1;
    }
    l->inst_executed += s->execs;
    l->thread_inst_executed += s->threads;
    l->global_requests += s->g_req;
    l->global_sectors += s->g_sectors;
    l->global_bytes += s->g_bytes;
    if (ld || st || in->op == PTX_OP_CP) {
      l->shared_insts += s->s_req;
      l->shared_wavefronts += s->s_wavefronts;
      l->shared_ideal += s->s_ideal;
    }
    l->local_insts += s->l_req;
    l->branches += s->br_uniform + s->br_divergent;
    l->divergent_branches += s->br_divergent;
  }
  for (int id = 0; id < MET_COUNT; id++) {
    set(r, (enum met_id)id, v[id]);
    r->kind[id] = met_kind_of((enum met_id)id);
  }
  r->defined[MET_THREAD_PER_INST] = 0;
  ratio(r, MET_THREAD_PER_INST, v[MET_THREAD_INST], v[MET_INST], 1.0);
  set(r, MET_S_LD_CONF, v[MET_S_LD_WAVE] - v[MET_S_LD_IDEAL]);
  set(r, MET_S_ST_CONF, v[MET_S_ST_WAVE] - v[MET_S_ST_IDEAL]);
  set(r, MET_BR, v[MET_BR_UNIFORM] + v[MET_BR_DIVERGENT]);
  r->defined[MET_G_LD_SPR] = r->defined[MET_G_ST_SPR] = 0;
  r->defined[MET_G_LD_EFF] = r->defined[MET_G_ST_EFF] = 0;
  r->defined[MET_BR_UNIFORM_PCT] = 0;
  r->defined[MET_S_LD_WPR] = r->defined[MET_S_ST_WPR] = 0;
  ratio(r, MET_G_LD_SPR, v[MET_G_LD_SEC], v[MET_G_LD_REQ], 1.0);
  ratio(r, MET_G_ST_SPR, v[MET_G_ST_SEC], v[MET_G_ST_REQ], 1.0);
  ratio(r, MET_G_LD_EFF, v[MET_G_LD_BYTES], v[MET_G_LD_SEC] * 32.0, 100.0);
  ratio(r, MET_G_ST_EFF, v[MET_G_ST_BYTES], v[MET_G_ST_SEC] * 32.0, 100.0);
  ratio(r, MET_S_LD_WPR, v[MET_S_LD_WAVE], v[MET_S_LD_INST], 1.0);  /* one request an instruction */
  ratio(r, MET_S_ST_WPR, v[MET_S_ST_WAVE], v[MET_S_ST_INST], 1.0);
  ratio(r, MET_BR_UNIFORM_PCT, v[MET_BR_UNIFORM], v[MET_BR_UNIFORM] + v[MET_BR_DIVERGENT], 100.0);
  if (r->nlines)
    qsort(r->lines, r->nlines, sizeof *r->lines, cmp_line);
  return 0;
}

void met_report_free(struct met_report *rep)
{
  free(rep->lines);
  rep->lines = NULL;
  rep->nlines = 0;
}
