/* grade_occ.c: the low-occupancy hint and its limiting resource (see grade_occ.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "grader/grade.h"
#include "grader/grade_occ.h"
#include "metrics/met.h"
#include "metrics/occ.h"
#include "toolchain/tc_file.h"

#define THEORETICAL met_name(MET_OCC_THEORETICAL)
#define ACHIEVED met_name(MET_OCC_ACHIEVED)

/* A lower occupancy than the reference's counts when it is at most this part of it. */
#define LOW_FRACTION 0.8

/* The calculator's breakdown of r's main launch, as the run measured it (harness/measure),
   on the profile the run used. Returns 0, or -1 when there is none (no profile, no ptxas
   report) or the launch cannot run. */
static int occupancy_of(const struct run_result *r, const struct occ_profile **prof,
                        const struct occ_input **in, const struct occ_result **o)
{
  if (!r->npoints || !r->have_prof || !r->occ.have || r->occ.out.active_blocks <= 0)
    return -1;
  *prof = &r->prof;
  *in = &r->occ.in;
  *o = &r->occ.out;
  return 0;
}

/* 1-based number of the first line of path holding a (and b, unless NULL), or 0. */
static unsigned line_with(const char *path, const char *a, const char *b)
{
  FILE *f = fopen(path, "r");
  if (!f)
    return 0;
  char line[1024];
  unsigned n = 0, found = 0;
  while (!found && fgets(line, sizeof line, f)) {
    n++;
    if (strstr(line, a) && (!b || strstr(line, b)))
      found = n;
  }
  fclose(f);
  return found;
}

/* The line that sets the block's shape: a __constant__ choice named in the launch's block. */
static unsigned block_choice_line(const struct run_lab *lab, const char *path)
{
  for (uint32_t i = 0; i < lab->choices.n; i++)
    for (int d = 0; d < 3; d++)
      if (strstr(lab->block[d], lab->choices.name[i])) {
        unsigned l = line_with(path, "__constant__", lab->choices.name[i]);
        if (l)
          return l;
      }
  return 0;
}

int grade_handout_section(const char *path, const char *topic, char *out, size_t outlen)
{
  FILE *f = fopen(path, "r");
  if (!f)
    return 0;
  char line[512];
  int found = 0, fence = 0;
  while (!found && fgets(line, sizeof line, f)) {
    if (!strncmp(line, "```", 3))
      fence = !fence;                          /* a '#' in a code block is not a heading */
    if (fence || line[0] != '#' || !strcasestr(line, topic))
      continue;
    const char *h = line;
    while (*h == '#' || *h == ' ')
      h++;
    snprintf(out, outlen, "%.*s", (int)strcspn(h, "\r\n"), h);
    found = 1;
  }
  fclose(f);
  return found;
}

/* "handouts/NN-name.md, section 'Heading'": the lab's own handout when it has a section on
   occupancy, else the getting-started handout's. */
static void handout_ref(const struct run_lab *lab, char *out, size_t outlen)
{
  const char *base = strrchr(lab->dir, '/');
  base = base ? base + 1 : lab->dir;
  char path[1400], heading[256];
  const char *names[2] = {base, "00-getting-started"};
  for (int i = 0; i < 2; i++) {
    snprintf(path, sizeof path, "%s/handouts/%s.md", tc_home(), names[i]);
    if (grade_handout_section(path, "occupancy", heading, sizeof heading)) {
      snprintf(out, outlen, " See handouts/%s.md, section '%s'.", names[i], heading);
      return;
    }
  }
  out[0] = 0;
}

static void append(char *out, size_t outlen, size_t *k, const char *fmt, ...)
  __attribute__((format(printf, 4, 5)));

static void append(char *out, size_t outlen, size_t *k, const char *fmt, ...)
{
  if (*k >= outlen)
    return;
  va_list ap;
  va_start(ap, fmt);
  int w = vsnprintf(out + *k, outlen - *k, fmt, ap);
  va_end(ap);
  if (w > 0)
    *k += (size_t)w;
}

int grade_occupancy_hint(const struct run_lab *lab, const struct run_result *s,
                         const struct run_result *ref, char *out, size_t outlen)
{
  out[0] = 0;
  const struct run_metric *ts = grade_main_metric(s, THEORETICAL), *tr = grade_main_metric(ref, THEORETICAL);
  const struct run_metric *as = grade_main_metric(s, ACHIEVED), *ar = grade_main_metric(ref, ACHIEVED);
  if (!ts || !tr || !(ts->value < tr->value - 1e-9))
    return 0;                                  /* the theoretical occupancy is what a resource limits */
  int low_theo = ts->value <= tr->value * LOW_FRACTION + 1e-9;
  int low_ach = as && ar && as->value <= ar->value * LOW_FRACTION + 1e-9;
  if (!low_theo && !low_ach)
    return 0;
  const struct occ_profile *prof, *rprof;
  const struct occ_input *in, *rin;
  const struct occ_result *o, *ro;
  if (occupancy_of(s, &prof, &in, &o))
    return 0;
  int have_ref = occupancy_of(ref, &rprof, &rin, &ro) == 0;
  const char *kfile = s->prov.kernel_file, *base = strrchr(kfile, '/');
  base = base ? base + 1 : kfile;

  size_t k = 0;
  append(out, outlen, &k, "Occupancy: your kernel keeps %d of the SM's %d warps (%.0f%%",
         o->active_warps, o->max_warps, o->occupancy_pct);
  if (as && ar)
    append(out, outlen, &k, ", %.0f%% achieved", as->value);
  append(out, outlen, &k, "), the reference solution %.0f%%", tr->value);
  if (as && ar)
    append(out, outlen, &k, " (%.0f%% achieved)", ar->value);
  append(out, outlen, &k, ". Its limit: ");
  int n = 0;
  unsigned line = 0;
  if (o->limiting & OCC_LIMIT_REGISTERS) {
    line = line_with(kfile, "__global__", lab->kernel);
    append(out, outlen, &k, "%sregisters: %d per thread (ptxas) and %d threads a block allow %d "
           "blocks in the SM's %d", n++ ? "; " : "", in->regs_per_thread,
           in->block_threads, o->limit[OCC_LIMIT_IDX_REGISTERS], prof->regs_per_sm);
    if (have_ref)
      append(out, outlen, &k, " (the reference solution uses %d per thread)", rin->regs_per_thread);
  }
  if (o->limiting & OCC_LIMIT_SHARED_MEM) {
    unsigned l = line_with(kfile, "__shared__", NULL);
    line = line ? line : l;
    append(out, outlen, &k, "%sshared memory: each block takes %d bytes (%d static, %d dynamic, "
           "%d the driver keeps), so %d blocks fit in the SM's %d", n++ ? "; " : "",
           o->smem_per_block, in->static_smem, in->dyn_smem,
           o->smem_per_block - in->static_smem - in->dyn_smem, o->limit[OCC_LIMIT_IDX_SHARED_MEM],
           o->smem_config);
    if (have_ref)
      append(out, outlen, &k, " (the reference solution's blocks take %d)", ro->smem_per_block);
  }
  if (o->limiting & (OCC_LIMIT_WARPS | OCC_LIMIT_BLOCKS)) {
    unsigned l = block_choice_line(lab, kfile);
    line = line ? line : l;
    if (o->limiting & OCC_LIMIT_WARPS)
      append(out, outlen, &k, "%sthe block size: blocks of %d warps fill only %d of %d warp slots",
             n++ ? "; " : "", o->warps_per_block, o->limit[OCC_LIMIT_IDX_WARPS] * o->warps_per_block,
             o->max_warps);
    else
      append(out, outlen, &k, "%sblocks per SM: at most %d blocks of %d warps fit, %d warps",
             n++ ? "; " : "", prof->max_blocks_per_sm, o->warps_per_block,
             prof->max_blocks_per_sm * o->warps_per_block);
    if (have_ref)
      append(out, outlen, &k, " (the reference solution's blocks have %d threads)",
             rin->block_threads);
  }
  if (o->limiting & OCC_LIMIT_BARRIERS)
    append(out, outlen, &k, "%sbarriers: %d named barriers a block allow %d blocks",
           n++ ? "; " : "", in->barriers, o->limit[OCC_LIMIT_IDX_BARRIERS]);
  if (!n)
    return 0;
  /* what to do about it, for the resource named first */
  append(out, outlen, &k, ". %s",
         o->limiting & OCC_LIMIT_REGISTERS ? "Keep fewer values live at once, or ask ptxas for "
         "more blocks with __launch_bounds__(threads, blocks)"
         : o->limiting & OCC_LIMIT_SHARED_MEM ? "Use less shared memory per block"
         : o->limiting & (OCC_LIMIT_WARPS | OCC_LIMIT_BLOCKS) ? "Choose a block size whose warps "
         "fill the SM's warp slots in whole blocks"
         : "Use fewer named barriers");
  if (line)
    append(out, outlen, &k, ". Look at %s:%u (kernel %s).", base, line, lab->kernel);
  else
    append(out, outlen, &k, ". Look at kernel %s in %s.", lab->kernel, base);
  char h[400];
  handout_ref(lab, h, sizeof h);
  append(out, outlen, &k, "%s", h);
  return 1;
}
