/* run_result.c: read a run back from its result.json, so its charts and reports can be made
 * again elsewhere (a run measured on a GPU machine without gnuplot, charted on a laptop). */
#include <stdio.h>
#include <string.h>

#include "run/run.h"

static void copy(char *dst, size_t n, json_t *v)
{
  snprintf(dst, n, "%s", json_is_string(v) ? json_string_value(v) : "");
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
  snprintf(r->results_dir, sizeof r->results_dir, "%s", dir);
  r->built = json_is_true(json_object_get(o, "built"));
  r->all_passed = json_is_true(json_object_get(o, "all_passed"));
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
    const char *name;
    json_t *m;
    json_object_foreach(json_object_get(pt, "choices"), name, m)
      if (json_is_integer(m))
        run_sizes_set(&x->choices, name, json_integer_value(m));
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
