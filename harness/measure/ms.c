/* ms.c: one launch measured (see ms.h): the launch, the occupancy breakdown, the emulator's
 * counters, the timing model, the GPU's timing, and the figures derived from them. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "measure/ms.h"

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void ms_result_init(struct ms_result *r)
{
  memset(r, 0, sizeof *r);
  r->time_ms = -1;
  r->time_kind = MET_MODELLED;
}

void ms_result_free(struct ms_result *r)
{
  if (r->have_rep)
    met_report_free(&r->rep);
  sim_result_free(&r->br.emu);
  ms_result_init(r);
}

int ms_add(struct ms_result *r, enum met_id id, double value, int defined, enum met_kind kind)
{
  if (r->nvalues == MS_MAX_VALUES)
    return -1;
  struct ms_value *v = &r->values[r->nvalues++];
  v->id = id;
  v->value = value;
  v->defined = defined;
  v->kind = kind;
  return 0;
}

const struct ms_value *ms_get(const struct ms_result *r, enum met_id id)
{
  for (uint32_t i = 0; i < r->nvalues; i++)
    if (r->values[i].defined && r->values[i].id == id)
      return &r->values[i];
  return NULL;
}

int ms_wanted(const struct ms_setup *s, enum met_id id)
{
  for (uint32_t i = 0; i < s->nwant; i++)
    if (s->want[i] == id)
      return 1;
  return 0;
}

/* What launch l asks of an SM, from ptxas's report of the kernel. */
static struct occ_input occ_input_of(const struct ms_setup *s, const struct be_launch *l)
{
  struct occ_input in = occ_input_default();
  in.regs_per_thread = s->kern.registers;
  in.static_smem = s->kern.static_smem;
  in.dyn_smem = (int)l->dyn_smem;
  in.block_threads = (int)(l->block[0] * l->block[1] * l->block[2]);
  if (s->kern.barriers > 0)
    in.barriers = s->kern.barriers;
  return in;
}

/* The launch checked as the driver checks it: the profile's limits and the kernel's
   registers (be_launch_limits). Every launch and timing of a measurement goes through
   here. */
static void launch_limits(const struct ms_setup *s, struct be_launch *bl)
{
  be_launch_limits(bl, s->prof, s->kern.known ? s->kern.registers : 0,
                   s->kern.known ? s->kern.static_smem : 0, s->kern.known ? s->kern.barriers : 0);
  /* a cooperative grid must fit on the GPU at once: the occupancy's blocks a SM on each SM */
  if (!s->prof || !s->kern.known || s->prof->sm_count <= 0)
    return;
  struct occ_input in = occ_input_of(s, bl);
  struct occ_result o;
  struct occ_error e;
  if (occ_compute(s->prof, &in, &o, &e) == OCC_OK && o.active_blocks > 0) {
    bl->coop_blocks_per_sm = (uint32_t)o.active_blocks;
    bl->sm_count = (uint32_t)s->prof->sm_count;
  }
}

int ms_occupancy(const struct ms_setup *s, const struct be_launch *l, struct ms_result *r)
{
  if (!s->prof || !s->kern.known)
    return 0;
  r->prof = s->prof;
  /* local memory as ptxas allocated it: arrays indexed at run time and spilled registers. The
     emulator runs PTX, where spills do not exist yet, so ptxas's report is where they show */
  const struct ms_kernel *k = &s->kern;
  ms_add(r, MET_STACK_FRAME, k->stack_frame, k->has_stack, MET_EXACT);
  ms_add(r, MET_SPILL_STORES, k->spill_stores, k->has_stack, MET_EXACT);
  struct occ_input in = occ_input_of(s, l);
  struct occ_result o;
  struct occ_error e;
  if (occ_compute(s->prof, &in, &o, &e) != OCC_OK)
    return 0;
  r->have_occ = 1;
  r->occ_in = in;
  r->occ = o;
  ms_add(r, MET_OCC_THEORETICAL, o.occupancy_pct, 1, MET_EXACT);
  ms_add(r, MET_ACTIVE_BLOCKS, o.active_blocks, 1, MET_EXACT);
  ms_add(r, MET_REGISTERS, k->registers, 1, MET_EXACT);
  return 1;
}

/* The launch as the timing model sees it. */
static struct tm_kernel tm_kernel_of(const struct ms_setup *s, const struct be_launch *l)
{
  struct tm_kernel tk = {
    .grid_blocks = l->grid[0] * l->grid[1] * l->grid[2],
    .block_threads = l->block[0] * l->block[1] * l->block[2],
    .warp_size = l->warp_size, .dyn_smem = l->dyn_smem,
    .regs_per_thread = s->kern.known ? s->kern.registers : 0,
    .static_smem = s->kern.known ? (uint32_t)s->kern.static_smem : 0,
    .barriers = s->kern.known ? s->kern.barriers : 0,
    .sass = s->sass,
  };
  return tk;
}

/* The emulator's counters of a completed launch: the wanted ones, and on a GPU whose loads
   are served in 128-byte transactions (Fermi's L1-cached loads) the efficiency its profiler
   (nvprof) reported, from the lines each request touched. */
static void counter_values(const struct ms_setup *s, const struct met_report *rep,
                           struct ms_result *r)
{
  for (uint32_t i = 0; i < s->nwant; i++) {
    enum met_id id = s->want[i];
    if (id < MET_COUNT)
      ms_add(r, id, rep->value[id], rep->defined[id], rep->kind[id]);
  }
  if (s->prof && s->prof->transaction_bytes == 128) {
    double req = rep->value[MET_G_LD_REQ], lines = rep->value[MET_G_LD_LINES];
    double bytes = rep->value[MET_G_LD_BYTES];
    ms_add(r, MET_GLD_TRANS_PER_REQ, req > 0 ? lines / req : 0, req > 0, MET_EXACT);
    ms_add(r, MET_GLD_EFFICIENCY, lines > 0 ? 100.0 * bytes / (lines * 128.0) : 0, lines > 0,
           MET_EXACT);
  }
}

/* The timing model's figures of a completed emulated launch: its time and the wanted
   modelled metrics. */
static void model_values(const struct ms_setup *s, const struct tm_kernel *tk,
                         const struct tm_plan *plan, const struct sim_trace *tr,
                         struct ms_result *r)
{
  double t0 = now_s();
  int rc = tm_model(s->prof, s->mod, tk, plan, tr, &r->tm);
  r->model_s = now_s() - t0;
  if (rc != 0) {
    r->nomem = 1;
    return;
  }
  r->have_tm = 1;
  if (!r->tm.ok) {
    snprintf(r->timing_note, sizeof r->timing_note, "%s", r->tm.how);
    return;
  }
  r->time_ms = r->tm.time_ns / 1e6;
  r->time_kind = MET_MODELLED;
  char note[sizeof r->timing_note + sizeof r->tm.how + OCC_STR_LEN];
  snprintf(note, sizeof note, "times on the emulator are modelled for %s: %s", s->prof->name,
           r->tm.how);
  size_t n = strlen(note);                      /* as long as the note holds */
  n = n < sizeof r->timing_note ? n : sizeof r->timing_note - 1;
  memcpy(r->timing_note, note, n);
  r->timing_note[n] = 0;
  double v;
  int def;
  const char *name;
  enum met_id id;
  for (unsigned i = 0; (name = tm_metric(&r->tm, i, &v, &def)) != NULL; i++)
    if (met_lookup(name, strlen(name), &id) == 0)
      for (uint32_t k = 0; k < s->nwant; k++)
        if (s->want[k] == id)
          ms_add(r, id, v, def, MET_MODELLED);
}

/* The blocks the timing model needs, asked of the emulator's launch bl (its plan into *plan). */
static void record_plan(const struct ms_setup *s, struct be_launch *bl, int emu,
                        struct tm_plan *plan)
{
  struct tm_kernel tk = tm_kernel_of(s, bl);
  memset(plan, 0, sizeof *plan);
  if (emu && s->prof)
    tm_plan(s->prof, &tk, plan);
  bl->trace_every = plan->ok ? plan->trace_every : 0;
  bl->trace_blocks = plan->ok ? plan->trace_blocks : 0;
  bl->trace_wave = plan->ok ? plan->blocks_per_sm * plan->trace_every : 0;
}

/* The emulator's figures of its launch bl (r->br): the counters, and the timing model when
   it completed. */
static void emu_figures(const struct ms_setup *s, const struct be_launch *bl,
                        const struct tm_plan *plan, struct ms_result *r)
{
  if (met_compute(s->mod, &r->br.emu, &r->rep) == 0) {
    r->have_rep = 1;
    if (s->sass)                              /* count what the GPU executes */
      met_apply_sass(&r->rep, s->mod, &r->br.emu, s->sass);
  } else
    r->nomem = 1;
  if (!r->br.ran_ok)
    return;
  if (r->have_rep)
    counter_values(s, &r->rep, r);
  struct tm_kernel tk = tm_kernel_of(s, bl);
  if (s->prof)
    model_values(s, &tk, plan, &r->br.emu.trace, r);
}

enum be_status ms_launch(const struct ms_setup *s, struct be *b, const char *kernel,
                         const void *params, size_t psize, const struct be_launch *l,
                         enum ms_what what, struct ms_result *r, char *err, size_t errlen)
{
  struct be_launch bl = *l;
  launch_limits(s, &bl);
  r->prof = s->prof;
  int emu = be_kind_of(b) == BE_EMU;
  struct tm_plan plan;
  memset(&plan, 0, sizeof plan);
  if (what == MS_MEASURE)
    ms_occupancy(s, &bl, r);
  if (what != MS_LAUNCH)
    record_plan(s, &bl, emu, &plan);
  double t0 = now_s();
  enum be_status st = be_launch(b, kernel, params, psize, &bl, &r->br, err, errlen);
  r->launch_s = now_s() - t0;
  if (st != BE_OK || what != MS_MEASURE || !emu)
    return st;
  emu_figures(s, &bl, &plan, r);
  return BE_OK;
}

void ms_finish(const struct ms_setup *s, struct be *b, const struct be_launch *l,
               struct ms_result *r)
{
  struct be_launch bl = *l;
  launch_limits(s, &bl);
  r->prof = s->prof;
  ms_occupancy(s, &bl, r);
  int emu = be_kind_of(b) == BE_EMU;
  struct tm_plan plan;
  record_plan(s, &bl, emu, &plan);
  if (emu)
    emu_figures(s, &bl, &plan, r);
}

int ms_remodel_begin(const struct ms_setup *s, const struct be_launch *l,
                     const struct ms_result *src, struct ms_result *r, struct ms_remodel *m)
{
  struct be_launch bl = *l;
  launch_limits(s, &bl);
  if (!s->prof || !src->have_rep || !src->br.ran_ok || bl.cooperative || bl.cluster[0] > 1 ||
      bl.cluster[1] > 1 || bl.cluster[2] > 1)
    return -1;
  m->tk = tm_kernel_of(s, &bl);
  /* a shape the occupancy calculator refuses (more shared memory than a block may have) is
     one the backend refuses too: launched, it says why */
  if (tm_plan(s->prof, &m->tk, &m->plan) || !m->plan.ok ||
      sim_trace_rewave(&src->br.emu.trace, m->plan.blocks_per_sm * m->plan.trace_every,
                       m->plan.trace_blocks, m->plan.trace_every, &m->view))
    return -1;
  r->prof = s->prof;
  r->br.ran_ok = 1;                             /* src's outcome, none of what it owns */
  r->br.emu.outcome = src->br.emu.outcome;
  r->br.emu.counters = src->br.emu.counters;
  ms_occupancy(s, &bl, r);                      /* the figures in ms_launch's order */
  counter_values(s, &src->rep, r);
  return 0;
}

void ms_remodel_end(const struct ms_setup *s, struct ms_remodel *m, struct ms_result *r)
{
  model_values(s, &m->tk, &m->plan, &m->view, r);
  sim_trace_view_free(&m->view);
}

int ms_remodel(const struct ms_setup *s, const struct be_launch *l, const struct ms_result *src,
               struct ms_result *r)
{
  struct ms_remodel m;
  if (ms_remodel_begin(s, l, src, r, &m))
    return -1;
  ms_remodel_end(s, &m, r);
  return 0;
}

enum be_status ms_time(const struct ms_setup *s, struct be *b, const char *kernel,
                       const void *params, size_t psize, const struct be_launch *l,
                       struct ms_result *r, char *err, size_t errlen)
{
  struct be_launch bl = *l;
  launch_limits(s, &bl);
  bl.trace_every = bl.trace_blocks = bl.trace_wave = 0;
  bl.lanes = 0;
  struct be_timing t;
  enum be_status st = be_time(b, kernel, params, psize, &bl, 1.0, 200, 2.0, &t, err, errlen);
  if (st != BE_OK)
    return st;
  r->time_ms = t.median_ms;
  r->time_kind = MET_MEASURED;
  r->time_spread_pct = t.rse_pct;
  r->reps = t.reps;
  r->sm_clock_mhz = t.sm_clock_mhz;
  ms_add(r, MET_TIME, t.median_ms * 1e6, 1, MET_MEASURED);
  return BE_OK;
}

void ms_derive(const struct ms_setup *s, struct ms_result *r)
{
  const struct ms_value *t = ms_get(r, MET_TIME), *b = ms_get(r, MET_DRAM_BYTES);
  if (!t || !b || t->value <= 0)
    return;
  double bps = b->value / (t->value * 1e-9);
  enum met_kind kind = t->kind;
  for (uint32_t i = 0; i < s->nwant; i++) {
    if (s->want[i] == MET_DRAM_BW)
      ms_add(r, MET_DRAM_BW, bps, 1, kind);
    else if (s->want[i] == MET_DRAM_BW_PCT && s->prof && s->prof->dram_bandwidth_gbs > 0)
      ms_add(r, MET_DRAM_BW_PCT, 100.0 * bps / (s->prof->dram_bandwidth_gbs * 1e9), 1, kind);
  }
}
