/* run_sweepfill.c: a GPU run's unprofiled sweep rows filled with the emulator's exact ratios
   (run_sweepfill.h). */
#include "run/run_sweepfill.h"

#include <stdio.h>
#include <string.h>

#include "metrics/met.h"

int run_sweepfill_metric(const char *name)
{
  enum met_id id;
  if (met_lookup(name, strlen(name), &id) != 0 || met_source_of(id) != MET_SRC_COUNTER)
    return 0;
  enum met_kind k = met_kind_of(id);
  if (k != MET_EXACT && k != MET_PTX_LEVEL)
    return 0;
  const char *u = met_unit(id);
  return strchr(u, '/') != NULL || !strcmp(u, "%");
}

static const struct run_metric *find(const struct run_point *pt, const char *name)
{
  for (uint32_t m = 0; m < pt->nmetrics; m++)
    if (!strcmp(pt->metric[m].name, name))
      return &pt->metric[m];
  return NULL;
}

static const struct run_point *same_row(const struct run_result *emu, const struct run_point *pt)
{
  for (uint32_t i = 0; i < emu->npoints; i++)
    if (!strcmp(emu->points[i].sweep, pt->sweep) && !strcmp(emu->points[i].label, pt->label))
      return &emu->points[i];
  return NULL;
}

/* label appended to the list in filled once */
static void note_label(char *filled, size_t n, const char *label)
{
  size_t len = strlen(label), have = strlen(filled);
  for (const char *p = filled; (p = strstr(p, label)) != NULL; p += len)
    if ((p == filled || p[-1] == ' ') && (p[len] == 0 || p[len] == ','))
      return;
  snprintf(filled + have, n - have, "%s%s", have ? ", " : "", label);
}

int run_sweepfill_merge(const struct run_lab *lab, struct run_result *gpu, const struct run_result *emu,
                        char *filled, size_t n)
{
  int count = 0;
  if (n)
    filled[0] = 0;
  for (uint32_t i = 0; i < gpu->npoints; i++) {
    struct run_point *pt = &gpu->points[i];
    const struct run_point *ep = pt->sweep[0] ? same_row(emu, pt) : NULL;
    if (!ep || !ep->correct || !pt->correct)       /* a row that failed keeps its failure */
      continue;
    for (uint32_t k = 0; k < lab->nmetrics; k++) {
      const char *name = lab->metrics[k];
      const struct run_metric *have = find(pt, name), *em = find(ep, name);
      if ((have && have->defined) || !em || !em->defined || !run_sweepfill_metric(name))
        continue;
      struct run_metric *m = (struct run_metric *)have;
      if (!m) {
        if (pt->nmetrics >= RUN_MAX_POINT_METRICS)
          break;
        m = &pt->metric[pt->nmetrics++];
      }
      *m = *em;
      snprintf(m->kind, sizeof m->kind, "emulated");
      enum met_id id;
      if (met_lookup(name, strlen(name), &id) == 0)
        note_label(filled, n, met_label(id));
      count++;
    }
  }
  return count;
}
