/* emu_report.c: the human report and the JSON object of `warplab emu` (see emu_report.h). */
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/emu_report.h"

/* The text of 1-based line n of text (without its newline), into buf. */
static void text_line(const char *text, size_t len, uint32_t n, char *buf, size_t bl)
{
  buf[0] = 0;
  if (!text || !n)
    return;
  const char *p = text, *end = text + len;
  for (uint32_t i = 1; i < n && p < end; i++) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    if (!nl)
      return;
    p = nl + 1;
  }
  if (p >= end)
    return;
  const char *nl = memchr(p, '\n', (size_t)(end - p));
  size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
  while (l && (*p == ' ' || *p == '\t')) {
    p++;
    l--;
  }
  while (l && (p[l - 1] == '\r' || p[l - 1] == ' ' || p[l - 1] == '\t' || p[l - 1] == ';'))
    l--;
  if (l >= bl)
    l = bl - 1;
  memcpy(buf, p, l);
  buf[l] = 0;
}

/* Line n of the file at path, or "" when it cannot be read. */
static void file_line(const char *path, uint32_t n, char *buf, size_t bl)
{
  buf[0] = 0;
  FILE *f = path ? fopen(path, "r") : NULL;
  if (!f)
    return;
  char line[1024];
  for (uint32_t i = 1; fgets(line, sizeof line, f); i++)
    if (i == n) {
      char *s = line;
      while (*s == ' ' || *s == '\t')
        s++;
      s[strcspn(s, "\r\n")] = 0;
      size_t len = strlen(s);
      if (len >= bl)
        len = bl - 1;
      memcpy(buf, s, len);
      buf[len] = 0;
      break;
    }
  fclose(f);
}

static const struct ptx_inst *inst_of(const struct emu_run *r, uint32_t mi)
{
  return mi < r->mod->ninsts ? &r->mod->insts[mi] : NULL;
}

static const char *src_path(const struct emu_run *r, const struct ptx_inst *in)
{
  return in && in->uline ? ptx_file_path(r->mod, in->ufile) : NULL;
}

static double mv(const struct emu_run *r, enum met_id id)
{
  return r->met->defined[id] ? r->met->value[id] : 0.0;
}

/* The launch's warnings (what the GPU runs through: a read past a __constant__ variable) and
   the values it set with cudaGraphSetConditional, one line each. */
static void notes_text(FILE *f, const struct emu_run *r, const struct sim_result *s)
{
  for (uint32_t i = 0; i < s->nwarn; i++)
    fprintf(f, "  warning: %s (%" PRIu64 " time%s)\n", s->warn[i].message, s->warn[i].count,
            s->warn[i].count == 1 ? "" : "s");
  if (s->warn_more)
    fprintf(f, "  warning: %" PRIu64 " more at other instructions\n", s->warn_more);
  for (uint32_t i = 0; i < s->ngcond; i++) {
    const struct sim_gcond *g = &s->gcond[i];
    const struct ptx_inst *in = inst_of(r, g->inst);
    const char *path = src_path(r, in), *base = path ? strrchr(path, '/') : NULL;
    char at[300] = "";
    if (path)
      snprintf(at, sizeof at, " at %s:%u", base ? base + 1 : path, in->uline);
    fprintf(f, "  cudaGraphSetConditional: handle %" PRIu64 " set to %u (the last of %" PRIu64
            " call%s: thread (%u,%u,%u) of block (%u,%u,%u)%s); outside a CUDA graph this "
            "changes no memory, a graph's conditional node reads it\n", g->handle, g->value,
            g->calls, g->calls == 1 ? "" : "s", g->thread[0], g->thread[1], g->thread[2],
            g->block[0], g->block[1], g->block[2], at);
  }
  if (s->gcond_more)
    fprintf(f, "  cudaGraphSetConditional: %" PRIu64 " more calls on other handles\n",
            s->gcond_more);
}

/* The source line of module instruction mi ("k.cu:12"), or null. */
static json_t *line_of(const struct emu_run *r, uint32_t mi)
{
  const struct ptx_inst *in = inst_of(r, mi);
  const char *path = src_path(r, in);
  if (!path)
    return json_null();
  const char *base = strrchr(path, '/');
  char buf[300];
  snprintf(buf, sizeof buf, "%s:%u", base ? base + 1 : path, in->uline);
  return json_string(buf);
}

static void notes_json(json_t *o, const struct emu_run *r, const struct sim_result *s)
{
  json_t *w = json_array(), *g = json_array();
  for (uint32_t i = 0; i < s->nwarn; i++) {
    const struct sim_warning *x = &s->warn[i];
    json_array_append_new(w, json_pack("{s:s,s:o,s:I,s:[i,i,i],s:[i,i,i]}", "message",
                                       x->message, "line", line_of(r, x->inst), "count",
                                       (json_int_t)x->count, "block", x->block[0], x->block[1],
                                       x->block[2], "thread", x->thread[0], x->thread[1],
                                       x->thread[2]));
  }
  for (uint32_t i = 0; i < s->ngcond; i++) {
    const struct sim_gcond *x = &s->gcond[i];
    json_array_append_new(g, json_pack("{s:I,s:I,s:I,s:o,s:[i,i,i],s:[i,i,i]}", "handle",
                                       (json_int_t)x->handle, "value", (json_int_t)x->value,
                                       "calls", (json_int_t)x->calls, "line",
                                       line_of(r, x->inst), "block", x->block[0], x->block[1],
                                       x->block[2], "thread", x->thread[0], x->thread[1],
                                       x->thread[2]));
  }
  json_object_set_new(o, "warnings", w);
  json_object_set_new(o, "warnings_more", json_integer((json_int_t)s->warn_more));
  json_object_set_new(o, "graph_conditionals", g);
}

/* The few figures a student looks at first. */
static void metric_summary(FILE *f, const struct emu_run *r)
{
  const struct met_report *m = r->met;
  if (mv(r, MET_G_LD_REQ) + mv(r, MET_G_ST_REQ) > 0) {
    fprintf(f, "  global: %.0f load requests", mv(r, MET_G_LD_REQ));
    if (m->defined[MET_G_LD_SPR])
      fprintf(f, " (%.2f sectors each, %.1f%% of the bytes moved were asked for)",
              mv(r, MET_G_LD_SPR), mv(r, MET_G_LD_EFF));
    fprintf(f, ", %.0f store requests", mv(r, MET_G_ST_REQ));
    if (m->defined[MET_G_ST_SPR])
      fprintf(f, " (%.2f sectors each, %.1f%%)", mv(r, MET_G_ST_SPR), mv(r, MET_G_ST_EFF));
    fputc('\n', f);
  }
  double sh = mv(r, MET_S_LD_INST) + mv(r, MET_S_ST_INST);
  if (sh > 0)
    fprintf(f, "  shared: %.0f accesses, %.0f wavefronts, %.0f bank conflicts\n", sh,
            mv(r, MET_S_LD_WAVE) + mv(r, MET_S_ST_WAVE), mv(r, MET_S_LD_CONF) + mv(r, MET_S_ST_CONF));
  if (mv(r, MET_L_LD_INST) + mv(r, MET_L_ST_INST) > 0)
    fprintf(f, "  local: %.0f loads, %.0f stores (PTX level: ptxas may keep these in registers)\n",
            mv(r, MET_L_LD_INST), mv(r, MET_L_ST_INST));
  if (mv(r, MET_BR) > 0)
    fprintf(f, "  branches: %.0f, %.0f divergent (%.1f%% uniform)\n", mv(r, MET_BR),
            mv(r, MET_BR_DIVERGENT), mv(r, MET_BR_UNIFORM_PCT));
}

/* The timing model's figures: time, occupancy, and where warps waited. */
static void timing_summary(FILE *f, const struct tm_report *t)
{
  if (!t->ok) {
    fprintf(f, "  time: %s\n", t->how);
    return;
  }
  fprintf(f, "  time (modelled): %.3f us = %.0f cycles; achieved occupancy %.1f%%, issue slots "
          "busy %.1f%%\n", t->time_ns / 1e3, t->cycles, t->achieved_occupancy_pct,
          t->issue_active_pct);
  /* the biggest reasons warps did not issue, in cycles per issued instruction */
  int shown = 0;
  double order[TM_STALL_COUNT];
  for (int s = 0; s < TM_STALL_COUNT; s++)
    order[s] = s == TM_STALL_SELECTED ? -1 : t->stall[s];
  for (int k = 0; k < 3; k++) {
    int best = 0;
    for (int s = 1; s < TM_STALL_COUNT; s++)
      if (order[s] > order[best])
        best = s;
    if (order[best] < 0.05)
      break;
    fprintf(f, "%s %.1f cycles per instruction %s", shown ? ";" : "  warps stalled:", order[best],
            tm_stall_words((enum tm_stall)best));
    order[best] = -1;
    shown = 1;
  }
  if (shown)
    fputc('\n', f);
  fprintf(f, "  (%s)\n", t->how);
}

/* Per-source-line table: where the instructions, sectors and conflicts come from. */
static void line_table(FILE *f, const struct emu_run *r)
{
  const struct met_report *m = r->met;
  fprintf(f, "\n  %-22s %10s %9s %8s %9s %8s %8s  %s\n", "line", "warp-inst", "g-req",
          "sect/req", "sh-inst", "wave/in", "div-br", "source");
  for (uint32_t i = 0; i < m->nlines; i++) {
    const struct met_line *l = &m->lines[i];
    char where[64], text[256] = "", spr[16] = "-", wpi[16] = "-";
    const char *base = l->path ? strrchr(l->path, '/') : NULL;
    snprintf(where, sizeof where, "%s:%u", base ? base + 1 : l->path ? l->path : "?", l->line);
    if (l->global_requests)
      snprintf(spr, sizeof spr, "%.2f", met_line_sectors_per_request(l));
    if (l->shared_insts)
      snprintf(wpi, sizeof wpi, "%.2f", met_line_wavefronts_per_inst(l));
    file_line(l->path, l->line, text, 60);
    fprintf(f, "  %-22s %10llu %9llu %8s %9llu %8s %8llu  %s\n", where,
            (unsigned long long)l->inst_executed, (unsigned long long)l->global_requests, spr,
            (unsigned long long)l->shared_insts, wpi, (unsigned long long)l->divergent_branches,
            text);
  }
  fputc('\n', f);
}

/* --order-check's finding in a sentence. */
static void order_text(const struct emu_order *d, char *buf, size_t n)
{
  if (d->all_fault)
    snprintf(buf, n, "the kernel faults under all %u orders (seeds %" PRIu64 " to %" PRIu64
             "): nothing to compare", d->runs, d->first, d->first + d->runs - 1);
  else if (d->depends && d->fault)
    snprintf(buf, n, "the output depends on the order warps run: the kernel faults under order "
             "seed %" PRIu64 " and runs cleanly under seed %" PRIu64 " (%s)", d->fault_seed,
             d->fault_seed == d->seed_a ? d->seed_b : d->seed_a, d->fault_message);
  else if (d->depends)
    snprintf(buf, n, "the output depends on the order warps run: argument %u differs between "
             "orders (first at element %" PRIu64 ": %s under order seed %" PRIu64 ", %s under "
             "seed %" PRIu64 "). The result is a matter of scheduling (atomics that hand out "
             "slots, or a race: the last writer wins), and a GPU may give either",
             d->arg, d->element, d->value_a, d->seed_a, d->value_b, d->seed_b);
  else
    snprintf(buf, n, "the same values under %u orders (seeds %" PRIu64 " to %" PRIu64 ")",
             d->runs, d->first, d->first + d->runs - 1);
}

void emu_report_text(FILE *f, const struct emu_run *r)
{
  const struct sim_launch *c = r->cfg;
  fprintf(f, "warplab emu: %s  grid (%u,%u,%u)  block (%u,%u,%u)", r->kernel, c->grid[0],
          c->grid[1], c->grid[2], c->block[0], c->block[1], c->block[2]);
  if (c->dyn_smem)
    fprintf(f, "  dynamic shared %u B", c->dyn_smem);
  if (c->cooperative)
    fprintf(f, "  cooperative");
  if (c->cluster[0])
    fprintf(f, "  clusters (%u,%u,%u)", c->cluster[0], c->cluster[1], c->cluster[2]);
  if (c->order_seed)
    fprintf(f, "  order %" PRIu64, c->order_seed);
  fprintf(f, "  sched %s  %s  warp %u\n", c->sched == SIM_SCHED_STACK ? "stack" : "its", r->arch,
          c->warp_size ? c->warp_size : 32);
  const struct sim_result *s = &r->res;
  if (r->backend == BE_GPU) {
    fprintf(f, "  on %s\n", r->device);
    if (r->ran_ok)
      fprintf(f, "  ran cleanly in %.3f ms (one launch, CUDA events)\n", r->gpu_ms);
    else
      fprintf(f, "\n  gpu_error: %s\n", r->gpu_error);
    return;
  }
  fprintf(f, "  %" PRIu64 " warp-instructions, %" PRIu64 " thread-instructions (%.1f active "
          "lanes per instruction); shared memory %u B static; local memory %u B per thread\n",
          s->counters.warp_insts, s->counters.thread_insts,
          s->counters.warp_insts ? (double)s->counters.thread_insts / (double)s->counters.warp_insts : 0.0,
          s->static_smem, s->local_bytes);
  if (r->rsrc)
    fprintf(f, "  ptxas: %d registers, %d B stack frame, %d B spill stores, %d B spill loads\n",
            r->rsrc->registers, r->rsrc->stack_frame, r->rsrc->spill_stores, r->rsrc->spill_loads);
  if (r->occ) {
    char lim[96];
    fprintf(f, "  occupancy on %s: %d blocks = %d of %d warps per SM (%.1f%%), limited by %s\n",
            r->profile, r->occ->active_blocks, r->occ->active_warps, r->occ->max_warps,
            r->occ->occupancy_pct, occ_limits_str(r->occ->limiting, ", ", lim, sizeof lim));
  }
  if (s->printf_len)
    fprintf(f, "  printf:\n%s%s", s->printf_out, s->printf_out[s->printf_len - 1] == '\n' ? "" : "\n");
  if (s->printf_cut)
    fprintf(f, "  printf: output was cut: %s\n", SIM_PRINTF_CUT_NOTE);
  notes_text(f, r, s);
  if (r->met && r->met->sass)
    fprintf(f, "  machine code (SASS ptxas makes for %s): %.0f warp-instructions, %.0f shared loads"
            " (the PTX's: %.0f and %.0f)\n", r->arch, mv(r, MET_INST), mv(r, MET_S_LD_INST),
            r->met->ptx_value[MET_INST], r->met->ptx_value[MET_S_LD_INST]);
  else if (r->met && r->sass_note)
    fprintf(f, "  instruction counts are PTX-level: %s\n", r->sass_note);
  if (r->met)
    metric_summary(f, r);
  if (r->timing)
    timing_summary(f, r->timing);
  if (r->met && r->show_lines)
    line_table(f, r);
  if (r->order) {
    char ot[768];
    order_text(r->order, ot, sizeof ot);
    fprintf(f, "  order check: %s\n", ot);
  }
  if (s->outcome == SIM_RAN_OK) {
    fprintf(f, "  ran cleanly\n");
    return;
  }
  const struct sim_fault *ft = &s->fault;
  fprintf(f, "\n  %s: %s\n", sim_fault_kind_name(ft->kind), ft->message);
  char buf[512];
  const struct ptx_inst *in = inst_of(r, ft->inst);
  const char *path = src_path(r, in);
  if (path && ft->kind != SIM_FK_DEADLOCK) {
    file_line(path, in->uline, buf, sizeof buf);
    fprintf(f, "    at %s:%u%s%s\n", path, in->uline, buf[0] ? "    " : "", buf);
  }
  if (in && ft->kind != SIM_FK_DEADLOCK) {
    text_line(r->ptx_text, r->ptx_len, in->ptx_line, buf, sizeof buf);
    fprintf(f, "    PTX line %u: %s\n", in->ptx_line, buf);
  }
  const struct ptx_inst *oi = ft->kind == SIM_FK_RACE ? inst_of(r, ft->other_inst) : NULL;
  const char *op = src_path(r, oi);
  if (op) {                                   /* a race: the other access's line too */
    file_line(op, oi->uline, buf, sizeof buf);
    fprintf(f, "    and %s:%u%s%s\n", op, oi->uline, buf[0] ? "    " : "", buf);
  }
  for (uint32_t i = 0; i < ft->nwaiters; i++) {
    const struct sim_waiter *w = &ft->waiters[i];
    char lanes[128], line[512] = "";
    sim_lanes_text(w->lanes, lanes, sizeof lanes);
    const struct ptx_inst *wi = inst_of(r, w->inst);
    const char *wp = src_path(r, wi);
    if (wp)
      file_line(wp, wi->uline, line, sizeof line);
    fprintf(f, "    block (%u,%u,%u) warp %u lanes %-8s %-13s at %s:%u%s%s\n", w->block[0],
            w->block[1], w->block[2], w->warp, lanes, w->reason, wp ? wp : "PTX line",
            wp ? wi->uline : (wi ? wi->ptx_line : 0), line[0] ? "    " : "", line);
  }
}

static json_t *dim3(const uint32_t v[3])
{
  return json_pack("[I,I,I]", (json_int_t)v[0], (json_int_t)v[1], (json_int_t)v[2]);
}

static json_t *hex(uint64_t v)
{
  char b[32];
  snprintf(b, sizeof b, "0x%" PRIx64, v);
  return json_string(b);
}

static json_t *source_obj(const struct emu_run *r, const struct ptx_inst *in)
{
  const char *p = src_path(r, in);
  if (!p)
    return json_null();
  return json_pack("{s:s,s:I}", "file", p, "line", (json_int_t)in->uline);
}

static json_t *fault_obj(const struct emu_run *r)
{
  const struct sim_fault *ft = &r->res.fault;
  const struct ptx_inst *in = inst_of(r, ft->inst);
  char text[512] = "";
  if (in)
    text_line(r->ptx_text, r->ptx_len, in->ptx_line, text, sizeof text);
  json_t *o = json_object();
  json_object_set_new(o, "kind", json_string(sim_fault_kind_name(ft->kind)));
  json_object_set_new(o, "message", json_string(ft->message));
  int mem = ft->kind == SIM_FK_OUT_OF_BOUNDS || ft->kind == SIM_FK_MISALIGNED ||
            ft->kind == SIM_FK_READ_ONLY || ft->kind == SIM_FK_INVALID_SPACE;
  if (mem) {
    json_object_set_new(o, "space", json_string(ptx_space_name(ft->space)));
    json_object_set_new(o, "address", hex(ft->addr));
    json_object_set_new(o, "size", json_integer(ft->size));
    json_object_set_new(o, "access", json_string(ft->access == SIM_ACC_WRITE ? "write" :
                                                 ft->access == SIM_ACC_ATOMIC ? "atomic" : "read"));
  }
  json_object_set_new(o, "block", dim3(ft->block));
  json_object_set_new(o, "thread", dim3(ft->thread));
  json_object_set_new(o, "warp", json_integer(ft->warp));
  json_object_set_new(o, "lane", json_integer(ft->lane));
  json_object_set_new(o, "source", source_obj(r, in));
  json_object_set_new(o, "ptx_line", in ? json_integer(in->ptx_line) : json_null());
  json_object_set_new(o, "instruction", in ? json_string(text) : json_null());
  if (ft->has_alloc)
    json_object_set_new(o, "allocation",
                        json_pack("{s:s,s:o,s:I,s:I}", "name", ft->alloc_name, "base",
                                  hex(ft->alloc_base), "size", (json_int_t)ft->alloc_size,
                                  "offset", (json_int_t)ft->alloc_offset));
  else
    json_object_set_new(o, "allocation", json_null());
  json_t *ws = json_array();
  for (uint32_t i = 0; i < ft->nwaiters; i++) {
    const struct sim_waiter *w = &ft->waiters[i];
    char lanes[128];
    sim_lanes_text(w->lanes, lanes, sizeof lanes);
    const struct ptx_inst *wi = inst_of(r, w->inst);
    json_array_append_new(ws, json_pack("{s:o,s:I,s:s,s:o,s:I,s:s}", "block", dim3(w->block),
                                        "warp", (json_int_t)w->warp, "lanes", lanes, "source",
                                        source_obj(r, wi), "ptx_line",
                                        (json_int_t)(wi ? wi->ptx_line : 0), "reason", w->reason));
  }
  json_object_set_new(o, "waiting", ws);
  if (ft->kind == SIM_FK_RACE) {              /* the access the reported one races with */
    const struct ptx_inst *oi = inst_of(r, ft->other_inst);
    json_object_set_new(o, "other", json_pack("{s:o,s:o,s:o}", "thread", dim3(ft->other_thread),
                                              "source", source_obj(r, oi), "ptx_line",
                                              oi ? json_integer(oi->ptx_line) : json_null()));
  }
  if (ft->kind == SIM_FK_RACE || ft->kind == SIM_FK_UNINIT)
    json_object_set_new(o, "shared_offset", json_integer((json_int_t)ft->addr));
  return o;
}

static json_t *metric(uint64_t v, const char *kind)
{
  return json_pack("{s:I,s:s}", "value", (json_int_t)v, "kind", kind);
}

/* --order-check's finding: runs, whether the output depends on the order, and where. */
static json_t *order_obj(const struct emu_order *d)
{
  char msg[768];
  order_text(d, msg, sizeof msg);
  json_t *o = json_pack("{s:I,s:I,s:b,s:b,s:s}", "runs", (json_int_t)d->runs, "first_seed",
                        (json_int_t)d->first, "all_fault", d->all_fault, "depends", d->depends,
                        "message", msg);
  if (!o)
    return json_null();
  int where = d->depends && !d->fault;
  json_object_set_new(o, "seeds", d->depends ? json_pack("[I,I]", (json_int_t)d->seed_a,
                                                         (json_int_t)d->seed_b) : json_null());
  json_object_set_new(o, "fault", d->depends && d->fault
                      ? json_pack("{s:I,s:s}", "seed", (json_int_t)d->fault_seed, "message",
                                  d->fault_message) : json_null());
  json_object_set_new(o, "arg", where ? json_integer(d->arg) : json_null());
  json_object_set_new(o, "element", where ? json_integer((json_int_t)d->element) : json_null());
  json_object_set_new(o, "values", where ? json_pack("[s,s]", d->value_a, d->value_b)
                                         : json_null());
  return o;
}

int emu_report_json(FILE *f, const struct emu_run *r)
{
  const struct sim_launch *c = r->cfg;
  const struct sim_result *s = &r->res;
  json_t *o = json_object();
  if (!o)
    return -1;
  json_object_set_new(o, "kernel", json_string(r->kernel));
  json_object_set_new(o, "source", json_string(r->source));
  json_object_set_new(o, "ptx", r->ptx_path ? json_string(r->ptx_path) : json_null());
  json_object_set_new(o, "backend", json_string(r->backend == BE_GPU ? "gpu" : "emu"));
  json_object_set_new(o, "device", json_string(r->device ? r->device : ""));
  json_object_set_new(o, "launch",
                      json_pack("{s:o,s:o,s:I,s:s,s:s,s:I,s:I}", "grid", dim3(c->grid), "block",
                                dim3(c->block), "dynamic_smem", (json_int_t)c->dyn_smem, "sched",
                                c->sched == SIM_SCHED_STACK ? "stack" : "its", "arch", r->arch,
                                "warp_size", (json_int_t)(c->warp_size ? c->warp_size : 32),
                                "threads", (json_int_t)s->workers_used));
  json_t *lj = json_object_get(o, "launch");
  if (lj) {     /* as it ran: cooperative (grid.sync() or --cooperative), its clusters or null */
    json_object_set_new(lj, "cooperative", json_boolean(c->cooperative));
    json_object_set_new(lj, "cluster", c->cluster[0] ? dim3(c->cluster) : json_null());
    json_object_set_new(lj, "order", json_integer((json_int_t)c->order_seed));
  }
  json_t *res = json_pack("{s:I,s:I}", "static_smem_bytes", (json_int_t)s->static_smem,
                           "local_bytes_per_thread", (json_int_t)s->local_bytes);
  if (r->rsrc) {
    json_object_set_new(res, "registers_per_thread", json_integer(r->rsrc->registers));
    json_object_set_new(res, "stack_frame_bytes", json_integer(r->rsrc->stack_frame));
    json_object_set_new(res, "spill_store_bytes", json_integer(r->rsrc->spill_stores));
    json_object_set_new(res, "spill_load_bytes", json_integer(r->rsrc->spill_loads));
    json_object_set_new(res, "barriers", json_integer(r->rsrc->barriers));
    json_object_set_new(res, "ptxas_static_smem_bytes", json_integer(r->rsrc->static_smem));
  }
  json_object_set_new(o, "resources", res);
  if (r->occ) {
    char lim[96];
    json_t *limits = json_object();
#define X(name, bit, word, metric) \
    json_object_set_new(limits, word, r->occ->limit[OCC_LIMIT_IDX_##name] >= 0 && \
                        r->occ->limit[OCC_LIMIT_IDX_##name] < 100000 ? \
                        json_integer(r->occ->limit[OCC_LIMIT_IDX_##name]) : json_null());
#include "metrics/occ_limits.def"
#undef X
    json_object_set_new(o, "occupancy", json_pack(
        "{s:s,s:I,s:I,s:I,s:f,s:s,s:o}", "profile", r->profile, "active_blocks_per_sm",
        (json_int_t)r->occ->active_blocks, "active_warps_per_sm", (json_int_t)r->occ->active_warps,
        "max_warps_per_sm", (json_int_t)r->occ->max_warps, "occupancy_pct", r->occ->occupancy_pct,
        "limited_by", occ_limits_str(r->occ->limiting, ",", lim, sizeof lim), "blocks_per_sm_by_limit", limits));
  }
  if (r->backend == BE_GPU) {
    json_object_set_new(o, "outcome", json_string(r->ran_ok ? "ok" : "gpu_error"));
    json_object_set_new(o, "fault", r->ran_ok ? json_null()
                        : json_pack("{s:s,s:s}", "kind", "gpu_error", "message", r->gpu_error));
    json_object_set_new(o, "metrics", json_object());
    json_object_set_new(o, "gpu", json_pack("{s:f}", "kernel_ms", r->gpu_ms));
  } else {
    json_object_set_new(o, "printf", s->printf_len ? json_stringn(s->printf_out, s->printf_len) : json_null());
    json_object_set_new(o, "printf_cut", json_boolean(s->printf_cut));
    notes_json(o, r, s);
    json_object_set_new(o, "outcome", json_string(sim_outcome_name(s->outcome)));
    json_object_set_new(o, "fault", s->outcome == SIM_RAN_OK ? json_null() : fault_obj(r));
    json_object_set_new(o, "order_check", r->order ? order_obj(r->order) : json_null());
    json_t *m = json_object();
    if (r->met) {
      for (int id = 0; id < MET_COUNT; id++) {
        double x = r->met->value[id];
        json_t *val = !r->met->defined[id] ? json_null()
                    : strstr(met_name((enum met_id)id), ".sum") ? json_integer((json_int_t)x)
                    : json_real(x);
        json_t *e = json_pack("{s:o,s:s}", "value", val, "kind", met_kind_name(r->met->kind[id]));
        /* a figure the SASS changed keeps its count on PTX beside it */
        if (e && r->met->kind[id] == MET_FROM_SASS && r->met->ptx_value[id] != x)
          json_object_set_new(e, "ptx_value", strstr(met_name((enum met_id)id), ".sum")
                                              ? json_integer((json_int_t)r->met->ptx_value[id])
                                              : json_real(r->met->ptx_value[id]));
        json_object_set_new(m, met_name((enum met_id)id), e);
      }
    } else {
      json_object_set_new(m, met_name(MET_INST), metric(s->counters.warp_insts, "ptx-level"));
      json_object_set_new(m, met_name(MET_THREAD_INST),
                          metric(s->counters.thread_insts, "ptx-level"));
    }
    if (r->rsrc)
      json_object_set_new(m, met_name(MET_REGISTERS),
                          json_pack("{s:I,s:s}", "value", (json_int_t)r->rsrc->registers, "kind", "exact"));
    if (r->occ) {
      json_object_set_new(m, met_name(MET_OCC_THEORETICAL),
                          json_pack("{s:f,s:s}", "value", r->occ->occupancy_pct, "kind", "exact"));
#define X(name, bit, word, metric) \
      if (r->occ->limit[OCC_LIMIT_IDX_##name] >= 0 && r->occ->limit[OCC_LIMIT_IDX_##name] < 100000) \
        json_object_set_new(m, metric, json_pack("{s:I,s:s}", "value", \
                            (json_int_t)r->occ->limit[OCC_LIMIT_IDX_##name], "kind", "exact"));
#include "metrics/occ_limits.def"
#undef X
    }
    if (r->timing) {
      double v;
      int def;
      const char *name;
      for (unsigned i = 0; (name = tm_metric(r->timing, i, &v, &def)) != NULL; i++)
        json_object_set_new(m, name, json_pack("{s:o,s:s}", "value", def ? json_real(v) : json_null(),
                                               "kind", "modelled"));
    }
    json_object_set_new(o, "metrics", m);
    if (r->met)
      json_object_set_new(o, "sass", json_pack("{s:s,s:s?}", "counts", r->met->sass ? "sass" : "ptx",
                                               "note", r->sass_note));
    if (r->timing)
      json_object_set_new(o, "timing_model", json_string(r->timing->how));
    json_t *lines = json_array();
    for (uint32_t i = 0; r->met && i < r->met->nlines; i++) {
      const struct met_line *l = &r->met->lines[i];
      double spr = met_line_sectors_per_request(l), wpi = met_line_wavefronts_per_inst(l);
      json_array_append_new(lines, json_pack(
          "{s:s?,s:I,s:I,s:I,s:I,s:I,s:o,s:I,s:I,s:o,s:I,s:I}", "file", l->path, "line",
          (json_int_t)l->line, "inst_executed", (json_int_t)l->inst_executed,
          "thread_inst_executed", (json_int_t)l->thread_inst_executed, "global_requests",
          (json_int_t)l->global_requests, "global_sectors", (json_int_t)l->global_sectors,
          "sectors_per_request", spr < 0 ? json_null() : json_real(spr), "shared_insts",
          (json_int_t)l->shared_insts, "shared_wavefronts", (json_int_t)l->shared_wavefronts,
          "wavefronts_per_inst", wpi < 0 ? json_null() : json_real(wpi), "branches",
          (json_int_t)l->branches, "divergent_branches", (json_int_t)l->divergent_branches));
    }
    json_object_set_new(o, "lines", lines);
    json_object_set_new(o, "emulator",
                        json_pack("{s:f,s:f,s:f,s:f}", "run_seconds", r->run_seconds,
                                  "cpu_seconds", s->cpu_seconds, "model_seconds",
                                  r->model_seconds,
                                  "warp_insts_per_second",
                                  r->run_seconds > 0 ? (double)s->counters.warp_insts / r->run_seconds : 0.0));
  }
  int rc = json_dumpf(o, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  fputc('\n', f);
  json_decref(o);
  return rc;
}

void emu_report_sanitizer(FILE *f, const char *kernel, const char *tool,
                          const struct tc_sanitized *r, int json)
{
  if (json) {
    json_t *j = json_pack("{s:s,s:s,s:i,s:s,s:s?,s:o}", "kernel", kernel, "sanitizer", tool,
                          "errors", r->errors, "first", r->message, "file",
                          r->file[0] ? r->file : NULL,
                          "line", r->line ? json_integer(r->line) : json_null());
    if (j)
      json_dumpf(j, f, JSON_INDENT(2));
    fputc('\n', f);
    json_decref(j);
    return;
  }
  fprintf(f, "compute-sanitizer %s on the GPU, kernel %s: %d error%s\n", tool, kernel, r->errors,
          r->errors == 1 ? "" : "s");
  if (r->message[0])
    fprintf(f, "  first: %s\n", r->message);
}
