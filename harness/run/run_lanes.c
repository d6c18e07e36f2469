/* run_lanes.c: write a lane log as JSON (the format is in run_lanes.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/run_lanes.h"
#include "toolchain/tc_file.h"

#define MAX_FILES 32

/* s[0..n) as a JSON string; squeeze: runs of blanks as one space (PTX's tabs). */
static void json_str_sq(FILE *f, const char *s, size_t n, int squeeze)
{
  fputc('"', f);
  for (size_t i = 0; i < n && s[i]; i++) {
    unsigned char c = (unsigned char)s[i];
    if (squeeze && (c == ' ' || c == '\t')) {
      while (i + 1 < n && (s[i + 1] == ' ' || s[i + 1] == '\t'))
        i++;
      fputc(' ', f);
    } else if (c == '"' || c == '\\')
      fprintf(f, "\\%c", c);
    else if (c == '\t')
      fputs("\\t", f);
    else if (c < 0x20)
      fprintf(f, "\\u%04x", c);
    else
      fputc(c, f);
  }
  fputc('"', f);
}

static void json_str(FILE *f, const char *s, size_t n)
{
  json_str_sq(f, s, n, 0);
}

/* The text of a file split into lines: where each starts. */
struct text {
  char *data;
  size_t len;
  size_t *start;               /* start[k]: offset of line k + 1 */
  uint32_t nlines;
};

static void text_load(struct text *t, const char *data, size_t len, int own)
{
  memset(t, 0, sizeof *t);
  if (!data)
    return;
  t->data = (char *)data;
  t->len = len;
  uint32_t n = 1;
  for (size_t i = 0; i < len; i++)
    n += data[i] == '\n';
  t->start = malloc(n * sizeof *t->start);
  if (!t->start) {
    if (own)
      free(t->data);
    t->data = NULL;
    return;
  }
  t->start[t->nlines++] = 0;
  for (size_t i = 0; i < len; i++)
    if (data[i] == '\n' && i + 1 < len)
      t->start[t->nlines++] = i + 1;
}

/* Line k (1-based) of t without its end of line and surrounding blanks; *n its length. NULL
   when there is no such line. trim_comment: cut a PTX comment ("//") and a final ';' too. */
static const char *text_line(const struct text *t, uint32_t k, size_t *n, int trim_comment)
{
  if (!t->data || k == 0 || k > t->nlines)
    return NULL;
  const char *s = t->data + t->start[k - 1];
  const char *e = t->data + (k < t->nlines ? t->start[k] : t->len);
  while (s < e && (*s == ' ' || *s == '\t'))
    s++;
  if (trim_comment)
    for (const char *p = s; p + 1 < e; p++)
      if (p[0] == '/' && p[1] == '/') {
        e = p;
        break;
      }
  while (e > s && (e[-1] == '\n' || e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t' ||
                   (trim_comment && e[-1] == ';')))
    e--;
  *n = (size_t)(e - s);
  return s;
}

struct fline { uint32_t file, line; };

static int cmp_fline(const void *a, const void *b)
{
  const struct fline *x = a, *y = b;
  if (x->file != y->file)
    return x->file < y->file ? -1 : 1;
  return x->line < y->line ? -1 : x->line > y->line;
}

static const char *space_name(unsigned sp)
{
  switch (sp) {
  case PTX_SP_GLOBAL: return "global";
  case PTX_SP_SHARED: return "shared";
  case PTX_SP_LOCAL: return "local";
  case PTX_SP_CONST: return "const";
  case PTX_SP_PARAM: return "param";
  default: return "generic";
  }
}

static const char *access_name(unsigned a)
{
  return a == SIM_ACC_WRITE ? "write" : a == SIM_ACC_ATOMIC ? "atomic" : "read";
}

int run_lanes_write(const char *path, const struct sim_lanes *lz, const struct ptx_module *m,
                    const char *ptx, size_t ptx_len, const char *kernel, char *err, size_t errlen)
{
  /* the files of the steps' lines, in the order first met: module file -> log index */
  uint32_t files[MAX_FILES], nfiles = 0;
  struct fline *fl = lz->nstep ? calloc(lz->nstep, sizeof *fl) : NULL;
  if (lz->nstep && !fl) {
    snprintf(err, errlen, "out of host memory writing %s", path);
    return -1;
  }
  uint32_t nfl = 0;
  for (uint32_t i = 0; i < lz->nstep; i++) {
    const struct ptx_inst *in = lz->step[i].inst < m->ninsts ? &m->insts[lz->step[i].inst] : NULL;
    if (!in || !in->uline || !ptx_file_path(m, in->ufile))
      continue;
    uint32_t k = 0;
    while (k < nfiles && files[k] != in->ufile)
      k++;
    if (k == nfiles && nfiles < MAX_FILES)
      files[nfiles++] = in->ufile;
    if (k < nfiles)
      fl[nfl++] = (struct fline){k, in->uline};
  }
  qsort(fl, nfl, sizeof *fl, cmp_fline);

  FILE *f = fopen(path, "w");
  if (!f) {
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    free(fl);
    return -1;
  }
  fputs("{\"format\": \"warplab-lanes 1\", \"kernel\": ", f);
  json_str(f, kernel, strlen(kernel));
  fprintf(f, ", \"block\": %" PRIu32 ", \"block_idx\": [%" PRIu32 ", %" PRIu32 ", %" PRIu32 "],"
          " \"warp\": %" PRIu32 ", \"warp_size\": %" PRIu32 ", \"lanes\": \"0x%" PRIx64 "\",\n"
          " \"recorded\": %s, \"steps_recorded\": %" PRIu32 ", \"truncated\": %s,\n \"files\": [",
          lz->block, lz->ctaid[0], lz->ctaid[1], lz->ctaid[2], lz->warp, lz->warp_size,
          lz->exists, lz->recorded ? "true" : "false", lz->nstep, lz->truncated ? "true" : "false");
  for (uint32_t k = 0; k < nfiles; k++) {
    const char *p = ptx_file_path(m, files[k]);
    fputs(k ? ", " : "", f);
    json_str(f, p, strlen(p));
  }
  fputs("],\n \"buffers\": [", f);
  for (uint32_t k = 0; k < lz->nbuf; k++) {
    fputs(k ? ", " : "", f);
    fputs("{\"name\": ", f);
    json_str(f, lz->buf[k].name, strlen(lz->buf[k].name));
    fprintf(f, ", \"bytes\": %" PRIu64 "}", lz->buf[k].size);
  }
  fputs("],\n \"lines\": [", f);
  struct text src;
  memset(&src, 0, sizeof src);
  uint32_t loaded = UINT32_MAX;
  for (uint32_t i = 0, first = 1; i < nfl; i++) {
    if (i && !cmp_fline(&fl[i], &fl[i - 1]))
      continue;
    if (fl[i].file != loaded) {            /* the lines come sorted by file: one read each */
      free(src.data);
      free(src.start);
      size_t len = 0;
      char *d = tc_read_file(ptx_file_path(m, files[fl[i].file]), &len);
      text_load(&src, d, len, 1);
      loaded = fl[i].file;
    }
    fprintf(f, "%s\n  {\"file\": %" PRIu32 ", \"line\": %" PRIu32, first ? "" : ",", fl[i].file,
            fl[i].line);
    size_t n;
    const char *s = text_line(&src, fl[i].line, &n, 0);
    if (s) {
      fputs(", \"text\": ", f);
      json_str(f, s, n);
    }
    fputc('}', f);
    first = 0;
  }
  free(src.data);
  free(src.start);
  free(fl);
  fputs("],\n \"steps\": [", f);
  struct text ptxt;
  text_load(&ptxt, ptx, ptx_len, 0);
  for (uint32_t i = 0; i < lz->nstep; i++) {
    const struct sim_lane_step *s = &lz->step[i];
    const struct ptx_inst *in = s->inst < m->ninsts ? &m->insts[s->inst] : NULL;
    int32_t file = -1;
    uint32_t line = 0;
    for (uint32_t k = 0; in && in->uline && k < nfiles; k++)
      if (files[k] == in->ufile) {
        file = (int32_t)k;
        line = in->uline;
      }
    fprintf(f, "%s\n  {\"step\": %" PRIu32 ", \"pc\": %" PRIu32 ", \"ptx_line\": %" PRIu32
            ", \"file\": %" PRId32 ", \"line\": %" PRIu32 ", \"ptx\": ", i ? "," : "", i, s->pc,
            in ? in->ptx_line : 0, file, line);
    size_t n;
    const char *t = in ? text_line(&ptxt, in->ptx_line, &n, 1) : NULL;
    if (t)
      json_str_sq(f, t, n, 1);
    else
      json_str(f, in ? ptx_op_name((enum ptx_op)in->op) : "?", 64);
    fprintf(f, ", \"active\": \"0x%" PRIx64 "\", \"pred\": \"0x%" PRIx64 "\"", s->active, s->pred);
    if (s->size) {
      fprintf(f, ", \"mem\": {\"space\": \"%s\", \"access\": \"%s\", \"size\": %" PRIu32,
              space_name(s->space), access_name(s->access), s->size);
      if (s->space == PTX_SP_SHARED)
        fprintf(f, ", \"wavefronts\": %" PRIu32 ", \"ideal\": %" PRIu32, s->cost, s->ideal);
      else if (s->space == PTX_SP_GLOBAL || s->space == PTX_SP_LOCAL)
        fprintf(f, ", \"sectors\": %" PRIu32, s->cost);
      if (s->space == PTX_SP_PARAM) {          /* the kernel's parameters: the same for all */
        fputs("}}", f);
        continue;
      }
      fputs(", \"lanes\": [", f);
      for (uint32_t k = 0; k < s->nacc; k++) {
        const struct sim_lane_acc *a = &lz->acc[s->first + k];
        fprintf(f, "%s{\"lane\": %u, \"addr\": %" PRIu64, k ? ", " : "", (unsigned)a->lane, a->addr);
        if (a->space != s->space)
          fprintf(f, ", \"space\": \"%s\"", space_name(a->space));
        if (a->buf < lz->nbuf) {
          uint64_t off = a->addr - lz->buf[a->buf].base;
          fprintf(f, ", \"buffer\": %u, \"offset\": %" PRIu64 ", \"sector\": %" PRIu64,
                  (unsigned)a->buf, off, off / 32);
        }
        if (a->space == PTX_SP_SHARED)
          fprintf(f, ", \"bank\": %" PRIu64, (a->addr / 4) % 32);
        fputc('}', f);
      }
      fputs("]}", f);
    }
    fputc('}', f);
  }
  free(ptxt.start);
  fputs("]}\n", f);
  if (ferror(f) | fclose(f)) {
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    return -1;
  }
  return 0;
}
