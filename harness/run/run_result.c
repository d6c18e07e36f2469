/* run_result.c: the owner of result.json. It writes a run's result.json (run_result_json,
 * run_result_save) and reads it back (run_result_load), so its charts and reports can be made
 * again elsewhere (a run measured on a GPU machine without gnuplot, charted on a laptop), and
 * so the feedback screen (grader/tui), which runs each lab in a child process, can show it;
 * and the run's printf output, kept bounded. */
#include <stdio.h>
#include <string.h>

#include "run/run.h"

static void copy(char *dst, size_t n, json_t *v)
{
  snprintf(dst, n, "%s", json_is_string(v) ? json_string_value(v) : "");
}

static uint32_t u32(json_t *v)
{
  return json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= UINT32_MAX
         ? (uint32_t)json_integer_value(v) : 0;
}

static void sizes(struct run_sizes *s, json_t *o)
{
  const char *name;
  json_t *v;
  json_object_foreach(o, name, v)
    if (json_is_integer(v))
      run_sizes_set(s, name, json_integer_value(v));
}

/* The run's profile, loaded once here for the layers above, and the main configuration's
   occupancy breakdown: its input as result.json keeps it, the calculator's answer on the
   profile. */
static void occupancy(struct run_result *r, json_t *o)
{
  struct occ_error e;
  r->have_prof = r->prov.profile[0] && occ_profile_load(r->prov.profile, &r->prof, &e) == OCC_OK;
  if (!r->have_prof || !json_is_object(o))
    return;
  struct occ_input *in = &r->occ.in;
  *in = occ_input_default();
  in->regs_per_thread = (int)u32(json_object_get(o, "regs_per_thread"));
  in->static_smem = (int)u32(json_object_get(o, "static_smem"));
  in->dyn_smem = (int)u32(json_object_get(o, "dyn_smem"));
  in->block_threads = (int)u32(json_object_get(o, "block_threads"));
  in->barriers = (int)u32(json_object_get(o, "barriers"));
  json_t *cv = json_object_get(o, "carveout_pct");
  if (json_is_integer(cv))
    in->carveout_pct = (int)json_integer_value(cv);
  r->occ.have = occ_compute(&r->prof, in, &r->occ.out, &e) == OCC_OK;
}

/* The tests: label, sizes, state, detail, the first wrong element and a fault's source line. */
static void checks(struct run_result *r, json_t *tests)
{
  size_t i;
  json_t *t;
  json_array_foreach(tests, i, t) {
    if (r->nchecks == sizeof r->checks / sizeof *r->checks)
      break;
    struct run_check *c = &r->checks[r->nchecks++];
    copy(c->label, sizeof c->label, json_object_get(t, "label"));
    sizes(&c->sizes, json_object_get(t, "sizes"));
    c->state = run_check_state_parse(json_string_value(json_object_get(t, "state")));
    copy(c->detail, sizeof c->detail, json_object_get(t, "detail"));
    json_t *bad = json_object_get(t, "first_bad");
    c->first_bad = json_is_integer(bad) ? json_integer_value(bad) : -1;
    json_t *src = json_object_get(t, "source");
    copy(c->fault_file, sizeof c->fault_file, json_object_get(src, "file"));
    c->fault_line = u32(json_object_get(src, "line"));
    json_t *fk = json_object_get(t, "fault");
    copy(c->fault_kind, sizeof c->fault_kind, json_object_get(fk, "kind"));
    copy(c->fault_place, sizeof c->fault_place, json_object_get(fk, "place"));
  }
}

void run_result_add_printf(struct run_result *r, const char *label, const char *text, size_t len,
                           int cut)
{
  if (!len && !cut)
    return;
  size_t k = strlen(r->printf_out), room = sizeof r->printf_out - 1 - k;
  int w = snprintf(r->printf_out + k, room + 1, "[%s]\n", label);
  if (w < 0 || (size_t)w > room) {
    r->printf_out[k] = 0;
    r->printf_cut = 1;
    return;
  }
  k += (size_t)w;
  room -= (size_t)w;
  size_t n = len < room ? len : room;
  memcpy(r->printf_out + k, text, n);
  r->printf_out[k + n] = 0;
  k += n;
  if (n && text[n - 1] != '\n' && k + 1 < sizeof r->printf_out) {
    r->printf_out[k++] = '\n';
    r->printf_out[k] = 0;
  }
  r->printf_cut |= cut || n < len;
}

json_t *run_result_printf_json(const struct run_result *r)
{
  if (!r->printf_out[0] && !r->printf_cut)
    return json_null();
  return json_pack("{s:s,s:b}", "text", r->printf_out, "cut", r->printf_cut);
}

static json_t *sizes_json(const struct run_sizes *s)
{
  json_t *o = json_object();
  for (uint32_t i = 0; i < s->n; i++)
    json_object_set_new(o, s->name[i], json_integer(s->v[i]));
  return o;
}

json_t *run_result_json(const struct run_lab *lab, const struct run_result *r, const char *charts,
                        const char *charts_note)
{
  const struct run_provenance *p = &r->prov;
  json_t *o = json_object();
  json_object_set_new(o, "lab", json_string(lab->id));
  json_object_set_new(o, "title", json_string(lab->title));
  json_object_set_new(o, "provenance", json_pack(
      "{s:s,s:s,s:s,s:s,s:s,s:s,s:I,s:s,s:s,s:s,s:s,s:I}", "warplab", p->warplab_version,
      "backend", p->backend, "backend_reason", p->backend_reason, "device", p->device,
      "profile", p->profile, "nvcc", p->nvcc_version, "seed", (json_int_t)p->seed, "sizes",
      p->sizes, "kernel_file", p->kernel_file, "ptx", p->ptx_file, "started", p->started,
      "sm_clock_mhz", (json_int_t)p->sm_clock_mhz));
  json_object_set_new(json_object_get(o, "provenance"), "metrics_source", json_string(p->ncu_note));
  json_object_set_new(json_object_get(o, "provenance"), "launches", json_integer(p->launches));
  if (p->timing_note[0])
    json_object_set_new(json_object_get(o, "provenance"), "timing_model", json_string(p->timing_note));
  if (p->isolation[0])
    json_object_set_new(json_object_get(o, "provenance"), "isolation", json_string(p->isolation));
  if (p->build_from[0])
    json_object_set_new(json_object_get(o, "provenance"), "build", json_string(p->build_from));
  json_t *ph = json_object();
  for (int i = 0; i < RUN_PHASE_COUNT; i++)
    json_object_set_new(ph, run_phase_name((enum run_phase)i), json_real(r->phase_s[i]));
  json_object_set_new(o, "phase_seconds", ph);
  json_object_set_new(o, "hidden_tests_left_out", json_boolean(r->hidden_left_out));
  json_object_set_new(o, "built", json_boolean(r->built));
  json_object_set_new(o, "build_log", json_string(r->build_log));
  json_object_set_new(o, "registers", r->registers ? json_integer(r->registers) : json_null());
  const struct occ_input *oi = &r->occ.in;
  json_object_set_new(o, "occupancy", !r->occ.have ? json_null() : json_pack(
      "{s:i,s:i,s:i,s:i,s:i,s:i}", "regs_per_thread", oi->regs_per_thread, "static_smem",
      oi->static_smem, "dyn_smem", oi->dyn_smem, "block_threads", oi->block_threads, "barriers",
      oi->barriers, "carveout_pct", oi->carveout_pct));
  json_t *tests = json_array();
  for (uint32_t i = 0; i < r->nchecks; i++) {
    const struct run_check *c = &r->checks[i];
    json_t *t = json_pack("{s:s,s:o,s:s,s:s}", "label", c->label, "sizes", sizes_json(&c->sizes),
                          "state", run_check_state_name(c->state),
                          "detail", c->detail);
    if (c->first_bad >= 0 && c->state == RUN_CHECK_FAIL)
      json_object_set_new(t, "first_bad", json_integer(c->first_bad));
    if (c->fault_line)
      json_object_set_new(t, "source", json_pack("{s:s,s:I}", "file", c->fault_file, "line",
                                                 (json_int_t)c->fault_line));
    if (c->fault_kind[0])
      json_object_set_new(t, "fault", json_pack("{s:s,s:s}", "kind", c->fault_kind, "place",
                                                c->fault_place));
    json_array_append_new(tests, t);
  }
  json_object_set_new(o, "tests", tests);
  json_object_set_new(o, "all_passed", json_boolean(r->all_passed));
  json_object_set_new(o, "printf", run_result_printf_json(r));
  json_object_set_new(o, "integrity", r->integrity[0] ? json_string(r->integrity) : json_null());
  json_t *hot = json_array();
  for (uint32_t i = 0; i < r->nhot; i++)
    json_array_append_new(hot, json_pack("{s:s,s:I,s:s}", "file", r->hot[i].file, "line",
                                         (json_int_t)r->hot[i].line, "finding", r->hot[i].text));
  json_object_set_new(o, "hotspots", hot);
  json_t *pts = json_array();
  for (uint32_t i = 0; i < r->npoints; i++) {
    const struct run_point *pt = &r->points[i];
    json_t *m = json_object();
    for (uint32_t k = 0; k < pt->nmetrics; k++)
      json_object_set_new(m, pt->metric[k].name,
                          json_pack("{s:o,s:s}", "value", pt->metric[k].defined ? json_real(pt->metric[k].value) : json_null(),
                                    "kind", pt->metric[k].kind));
    json_array_append_new(pts, json_pack(
        "{s:s,s:s,s:o,s:[I,I,I],s:[I,I,I],s:I,s:b,s:s,s:o,s:s,s:o}", "sweep", pt->sweep, "label",
        pt->label, "choices", sizes_json(&pt->choices), "grid", (json_int_t)pt->grid[0],
        (json_int_t)pt->grid[1], (json_int_t)pt->grid[2], "block", (json_int_t)pt->block[0],
        (json_int_t)pt->block[1], (json_int_t)pt->block[2], "smem", (json_int_t)pt->smem,
        "correct", pt->correct, "problem", pt->problem, "time_ms",
        pt->time_ms >= 0 ? json_real(pt->time_ms) : json_null(), "time_kind", pt->time_kind,
        "metrics", m));
    if (pt->remodelled_on[0])
      json_object_set_new(json_array_get(pts, i), "remodelled_on", json_string(pt->remodelled_on));
  }
  json_object_set_new(o, "points", pts);
  json_object_set_new(o, "results_dir", json_string(r->results_dir));
  json_object_set_new(o, "exit_code", json_integer(run_exit_code(r)));
  json_t *cj = json_array();
  for (const char *line = charts ? charts : ""; *line;) {
    size_t len = strcspn(line, "\n");
    json_array_append_new(cj, json_stringn(line, len));
    line += len + (line[len] == '\n');
  }
  json_object_set_new(o, "charts", cj);
  if (charts_note)
    json_object_set_new(o, "charts_note", json_string(charts_note));
  return o;
}

int run_result_save(const char *dir, json_t *j, char *err, size_t errlen)
{
  char path[1200];
  snprintf(path, sizeof path, "%s/result.json", dir);
  if (json_dump_file(j, path, JSON_INDENT(2) | JSON_PRESERVE_ORDER)) {
    snprintf(err, errlen, "cannot write %.1100s", path);
    return -1;
  }
  return 0;
}


int run_result_ship(const char *from_dir, const char *to_dir, const char *note, char *err,
                    size_t errlen)
{
  char path[1200];
  snprintf(path, sizeof path, "%s/result.json", from_dir);
  json_error_t je;
  json_t *r = json_load_file(path, JSON_PRESERVE_ORDER, &je);
  if (!json_is_object(r)) {
    snprintf(err, errlen, "%s:%d: %s", path, je.line, r ? "not an object" : je.text);
    json_decref(r);
    return -1;
  }
  /* what names the machine it ran on or quotes the source: paths, the build log, the hot
     spots' lines, the charts' files, the integrity findings */
  static const char *const drop[] = {"build_log", "hotspots", "charts", "results_dir",
                                     "integrity"};
  for (size_t i = 0; i < sizeof drop / sizeof *drop; i++)
    json_object_del(r, drop[i]);
  json_t *prov = json_object_get(r, "provenance");
  json_object_del(prov, "kernel_file");
  json_object_del(prov, "ptx");
  json_object_del(prov, "isolation");
  if (note)
    json_object_set_new(prov, "shipped", json_string(note));
  int rc = run_result_save(to_dir, r, err, errlen);
  json_decref(r);
  return rc;
}

int run_result_load(const char *dir, struct run_result *r, char *lab_id, size_t lab_len, char *err,
                    size_t errlen)
{
  memset(r, 0, sizeof *r);
  char path[1200];
  snprintf(path, sizeof path, "%s/result.json", dir);
  json_error_t je;
  json_t *o = json_load_file(path, 0, &je);
  if (!o) {
    snprintf(err, errlen, "%s:%d: %s", path, je.line, je.text);
    return -1;
  }
  copy(lab_id, lab_len, json_object_get(o, "lab"));
  json_t *p = json_object_get(o, "provenance");
  copy(r->prov.backend, sizeof r->prov.backend, json_object_get(p, "backend"));
  copy(r->prov.device, sizeof r->prov.device, json_object_get(p, "device"));
  copy(r->prov.profile, sizeof r->prov.profile, json_object_get(p, "profile"));
  copy(r->prov.sizes, sizeof r->prov.sizes, json_object_get(p, "sizes"));
  copy(r->prov.started, sizeof r->prov.started, json_object_get(p, "started"));
  copy(r->prov.warplab_version, sizeof r->prov.warplab_version, json_object_get(p, "warplab"));
  copy(r->prov.backend_reason, sizeof r->prov.backend_reason, json_object_get(p, "backend_reason"));
  copy(r->prov.nvcc_version, sizeof r->prov.nvcc_version, json_object_get(p, "nvcc"));
  copy(r->prov.kernel_file, sizeof r->prov.kernel_file, json_object_get(p, "kernel_file"));
  copy(r->prov.ptx_file, sizeof r->prov.ptx_file, json_object_get(p, "ptx"));
  copy(r->prov.ncu_note, sizeof r->prov.ncu_note, json_object_get(p, "metrics_source"));
  copy(r->prov.timing_note, sizeof r->prov.timing_note, json_object_get(p, "timing_model"));
  copy(r->prov.isolation, sizeof r->prov.isolation, json_object_get(p, "isolation"));
  copy(r->prov.build_from, sizeof r->prov.build_from, json_object_get(p, "build"));
  json_t *seed = json_object_get(p, "seed");
  r->prov.seed = json_is_integer(seed) ? (uint64_t)json_integer_value(seed) : 0;
  r->prov.sm_clock_mhz = u32(json_object_get(p, "sm_clock_mhz"));
  r->prov.launches = u32(json_object_get(p, "launches"));
  snprintf(r->results_dir, sizeof r->results_dir, "%s", dir);
  r->built = json_is_true(json_object_get(o, "built"));
  r->hidden_left_out = json_is_true(json_object_get(o, "hidden_tests_left_out"));
  json_t *ph = json_object_get(o, "phase_seconds");
  for (int i = 0; i < RUN_PHASE_COUNT; i++) {
    json_t *v = json_object_get(ph, run_phase_name((enum run_phase)i));
    r->phase_s[i] = json_is_number(v) ? json_number_value(v) : 0;
  }
  copy(r->build_log, sizeof r->build_log, json_object_get(o, "build_log"));
  r->registers = u32(json_object_get(o, "registers"));
  occupancy(r, json_object_get(o, "occupancy"));
  checks(r, json_object_get(o, "tests"));
  r->all_passed = json_is_true(json_object_get(o, "all_passed"));
  json_t *pf = json_object_get(o, "printf");
  copy(r->printf_out, sizeof r->printf_out, json_object_get(pf, "text"));
  r->printf_cut = json_is_true(json_object_get(pf, "cut"));
  json_t *pts = json_object_get(o, "points");
  size_t i;
  json_t *pt;
  json_array_foreach(pts, i, pt) {
    if (r->npoints == sizeof r->points / sizeof *r->points)
      break;
    struct run_point *x = &r->points[r->npoints++];
    copy(x->sweep, sizeof x->sweep, json_object_get(pt, "sweep"));
    copy(x->label, sizeof x->label, json_object_get(pt, "label"));
    x->correct = json_is_true(json_object_get(pt, "correct"));
    copy(x->problem, sizeof x->problem, json_object_get(pt, "problem"));
    sizes(&x->choices, json_object_get(pt, "choices"));
    for (size_t d = 0; d < 3; d++) {
      x->grid[d] = u32(json_array_get(json_object_get(pt, "grid"), d));
      x->block[d] = u32(json_array_get(json_object_get(pt, "block"), d));
    }
    x->smem = u32(json_object_get(pt, "smem"));
    json_t *t = json_object_get(pt, "time_ms");
    x->time_ms = json_is_number(t) ? json_number_value(t) : -1;
    copy(x->time_kind, sizeof x->time_kind, json_object_get(pt, "time_kind"));
    copy(x->remodelled_on, sizeof x->remodelled_on, json_object_get(pt, "remodelled_on"));
    const char *name;
    json_t *m;
    json_object_foreach(json_object_get(pt, "metrics"), name, m) {
      if (x->nmetrics == RUN_MAX_POINT_METRICS)
        break;
      struct run_metric *rm = &x->metric[x->nmetrics++];
      snprintf(rm->name, sizeof rm->name, "%s", name);
      json_t *v = json_object_get(m, "value");
      rm->defined = json_is_number(v);
      rm->value = rm->defined ? json_number_value(v) : 0;
      copy(rm->kind, sizeof rm->kind, json_object_get(m, "kind"));
    }
  }
  json_decref(o);
  if (!lab_id[0]) {
    snprintf(err, errlen, "%s names no lab", path);
    return -1;
  }
  return 0;
}
