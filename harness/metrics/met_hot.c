/* met_hot.c: the lines a student should look at, from a launch's per-line counts (met.h).
 *
 * Each finding is a line and a sentence, worst first by how much it costs: global accesses
 * that move bytes nobody asked for (efficiency under 60%), shared accesses that take more
 * wavefronts than their conflict-free count (bank conflicts), branches that split warps,
 * local memory (an array indexed at run time, or registers spilled).
 */
#include <stdio.h>
#include <stdlib.h>

#include "metrics/met.h"

struct finding {
  double weight;               /* how much it costs, to sort by */
  struct met_hotspot h;
};

const char *met_hot_kind_name(enum met_hot_kind k)
{
  static const char *const names[MET_HOT_COUNT] = {"uncoalesced", "bank_conflict", "divergent",
                                                   "local"};
  return (unsigned)k < MET_HOT_COUNT ? names[k] : "?";
}

static int by_weight(const void *a, const void *b)
{
  double x = ((const struct finding *)a)->weight, y = ((const struct finding *)b)->weight;
  return x < y ? 1 : x > y ? -1 : 0;
}

int met_hotspots(const struct met_report *rep, struct met_hotspot *out, int max)
{
  if (!rep->nlines || max <= 0)
    return 0;
  struct finding *f = calloc((size_t)rep->nlines * 4, sizeof *f);
  if (!f)
    return 0;
  int n = 0;
  for (uint32_t i = 0; i < rep->nlines; i++) {
    const struct met_line *l = &rep->lines[i];
    if (!l->path)
      continue;
    if (l->global_requests && l->global_bytes) {
      double moved = (double)l->global_sectors * 32, eff = (double)l->global_bytes / moved;
      if (eff < 0.6) {
        struct finding *x = &f[n++];
        x->weight = moved - (double)l->global_bytes;
        x->h.kind = MET_HOT_UNCOALESCED;
        snprintf(x->h.text, sizeof x->h.text, "its global accesses use %.0f%% of the bytes they "
                 "move (%.1f sectors per request): neighbouring threads should touch "
                 "neighbouring addresses", 100 * eff,
                 (double)l->global_sectors / (double)l->global_requests);
        x->h.path = l->path;
        x->h.line = l->line;
      }
    }
    if (l->shared_insts && l->shared_wavefronts > l->shared_ideal + l->shared_ideal / 2) {
      struct finding *x = &f[n++];
      x->weight = 32.0 * (double)(l->shared_wavefronts - l->shared_ideal);
      x->h.kind = MET_HOT_BANK_CONFLICT;
      snprintf(x->h.text, sizeof x->h.text, "shared-memory bank conflicts: %.1f wavefronts per "
               "access where %.1f would do", (double)l->shared_wavefronts / (double)l->shared_insts,
               (double)l->shared_ideal / (double)l->shared_insts);
      x->h.path = l->path;
      x->h.line = l->line;
    }
    if (l->branches && l->divergent_branches * 5 > l->branches) {
      struct finding *x = &f[n++];
      x->weight = 32.0 * (double)l->divergent_branches;
      x->h.kind = MET_HOT_DIVERGENT;
      snprintf(x->h.text, sizeof x->h.text, "a divergent branch: %.0f%% of its executions split "
               "the warp, and both sides then run one after the other",
               100.0 * (double)l->divergent_branches / (double)l->branches);
      x->h.path = l->path;
      x->h.line = l->line;
    }
    if (l->local_insts) {
      struct finding *x = &f[n++];
      x->weight = 128.0 * (double)l->local_insts;
      x->h.kind = MET_HOT_LOCAL;
      snprintf(x->h.text, sizeof x->h.text, "local memory (%llu accesses): an array indexed at "
               "run time, or registers spilled, lives in slow per-thread memory",
               (unsigned long long)l->local_insts);
      x->h.path = l->path;
      x->h.line = l->line;
    }
  }
  qsort(f, (size_t)n, sizeof *f, by_weight);
  int k = n < max ? n : max;
  for (int i = 0; i < k; i++) {
    out[i] = f[i].h;
    out[i].weight = f[i].weight;
  }
  free(f);
  return k;
}
