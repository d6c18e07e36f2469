/* ms_cmd.c: a measured launch as the tools that wrap one see it (see ms.h): the launch as a
 * `warplab emu --backend gpu` command line with the checked launch's inputs, Nsight
 * Compute's --metrics list, and its CSV read back into typed figures. Nothing here starts a
 * process: harness/run runs the tools. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/ms.h"

int ms_command(struct ms_command *c, int first, const char *self, const char *ptx,
               const char *kernel, const struct be_launch *l, const struct ms_arg *args,
               uint32_t nargs, const char *dir)
{
  c->argv[first] = NULL;
  if (nargs > MS_MAX_ARGS)
    return -1;
  snprintf(c->grid, sizeof c->grid, "%u,%u,%u", l->grid[0], l->grid[1], l->grid[2]);
  snprintf(c->block, sizeof c->block, "%u,%u,%u", l->block[0], l->block[1], l->block[2]);
  snprintf(c->smem, sizeof c->smem, "%u", l->dyn_smem);
  int a = first;
  char **argv = c->argv;
  argv[a++] = (char *)self;
  argv[a++] = "emu";
  argv[a++] = (char *)ptx;
  argv[a++] = "--kernel";
  argv[a++] = (char *)kernel;
  argv[a++] = "--grid";
  argv[a++] = c->grid;
  argv[a++] = "--block";
  argv[a++] = c->block;
  argv[a++] = "--smem";
  argv[a++] = c->smem;
  argv[a++] = "--backend";
  argv[a++] = "gpu";
  for (uint32_t i = 0; i < nargs; i++) {
    const struct ms_arg *p = &args[i];
    char *spec = c->specs[i];
    size_t n = sizeof c->specs[i];
    switch (p->init) {
    case MS_ARG_SCALAR:
      snprintf(spec, n, "%s:%" PRId64, p->type, p->scalar);
      break;
    case MS_ARG_ZERO:
      snprintf(spec, n, "%sbuf:%" PRIu64 ":zero", p->type, p->count);
      break;
    case MS_ARG_RAND:                 /* the same generator and seed: the same values */
      snprintf(spec, n, "%sbuf:%" PRIu64 ":rand:%" PRIu64, p->type, p->count, p->seed);
      break;
    case MS_ARG_IOTA:
      snprintf(spec, n, "%sbuf:%" PRIu64 ":iota", p->type, p->count);
      break;
    case MS_ARG_DATA: {               /* the inputs as they were made, through a file */
      char path[1200];
      snprintf(path, sizeof path, "%s/launch-input-%u.bin", dir, i);
      FILE *f = fopen(path, "wb");
      int ok = f && fwrite(p->data, 1, p->bytes, f) == p->bytes;
      if (f)
        ok &= fclose(f) == 0;
      if (!ok) {
        c->argv[first] = NULL;
        return -1;
      }
      snprintf(spec, n, "%sbuf:%" PRIu64 ":file=%s", p->type, p->count, path);
      break;
    }
    }
    argv[a++] = "--arg";
    argv[a++] = spec;
  }
  argv[a] = NULL;
  return 0;
}

int ms_ncu_list(const struct ms_setup *s, char *buf, size_t n)
{
  size_t k = 0;
  int count = 0;
  if (n)
    buf[0] = 0;
  for (uint32_t i = 0; i < s->nwant; i++) {
    enum met_id id = s->want[i];
    const char *m = met_name(id);
    if (!strncmp(m, "warplab__", 9) || !strncmp(m, "launch__", 8) || id == MET_TIME ||
        id == MET_OCC_THEORETICAL || id == MET_DRAM_BW || id == MET_DRAM_BW_PCT)
      continue;
    int w = snprintf(buf + k, n - k, "%s%s", k ? "," : "", m);
    if (w < 0 || (size_t)w >= n - k) {
      buf[k] = 0;
      break;
    }
    k += (size_t)w;
    count++;
  }
  return count;
}

/* warplab's ratios of two Nsight Compute sums (met_names.def), which ncu has no metric for:
   {ratio, numerator, denominator}, as the emulator computes them (met.c). */
static const enum met_id ms_ratios[][3] = {
  {MET_S_LD_WPR, MET_S_LD_WAVE, MET_S_LD_INST},
  {MET_S_ST_WPR, MET_S_ST_WAVE, MET_S_ST_INST},
};

int ms_ncu_parse(const struct ms_setup *s, char *text, struct ms_result *r)
{
  int denied = 0;
  for (char *line = text, *next; line && *line; line = next) {
    next = strchr(line, '\n');
    if (next)
      *next++ = 0;
    if (strstr(line, "ERR_NVGPUCTRPERM")) {
      denied = 1;
      continue;
    }
    /* CSV rows: ...,"Metric Name","Metric Unit","Metric Value" at the end */
    char *fields[32];
    int nf = 0;
    for (char *q = line; *q && nf < 32;) {
      if (*q != '"') {
        q++;
        continue;
      }
      char *start = ++q;
      while (*q && *q != '"')
        q++;
      if (!*q)
        break;
      *q++ = 0;
      fields[nf++] = start;
    }
    if (nf < 3)
      continue;
    const char *name = fields[nf - 3], *value = fields[nf - 1];
    enum met_id id;
    if (met_lookup(name, strlen(name), &id) || !ms_wanted(s, id))
      continue;
    char num[64];
    size_t j = 0;
    for (const char *q = value; *q && j < sizeof num - 1; q++)
      if (*q != ',')                  /* thousands separators: "1,048,576" */
        num[j++] = *q;
    num[j] = 0;
    char *end;
    double v = strtod(num, &end);
    if (end != num)
      ms_add(r, id, v, 1, MET_MEASURED);
  }
  for (size_t i = 0; i < sizeof ms_ratios / sizeof ms_ratios[0]; i++) {
    const struct ms_value *num = ms_get(r, ms_ratios[i][1]), *den = ms_get(r, ms_ratios[i][2]);
    if (ms_wanted(s, ms_ratios[i][0]) && num && den && den->value > 0)
      ms_add(r, ms_ratios[i][0], num->value / den->value, 1, MET_MEASURED);
  }
  return denied;
}
