/* tc_ptxas.c: run ptxas -v on a PTX file and read its resource report (see tc_ptxas.h).
 *
 * A report ptxas gave without error is kept in the cache folder (tc_cache.h, entry
 * ptxas-KEY: the PTX's bytes, the arch and register flags, the toolkit's version line and
 * the ptxas program's stamp), as ptxas printed it with the name of the copy it read, so the
 * same PTX is assembled once and a report read back parses and logs as a fresh one. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "toolchain/tc_build.h"
#include "toolchain/tc_cache.h"
#include "toolchain/tc_exec.h"
#include "toolchain/tc_file.h"
#include "toolchain/tc_ptxas.h"
#include "toolchain/tc_sandbox.h"
#include "toolchain/tc_toolkit.h"

/* The number at *p (skipping blanks), advancing *p; -1 when there is none. */
static long scan_num(const char **p)
{
  const char *s = *p;
  while (*s == ' ' || *s == '\t')
    s++;
  if (*s < '0' || *s > '9')
    return -1;
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || v > 0x7fffffffL)
    return -1;
  *p = end;
  return v;
}

/* Whether s (after blanks) starts with word, advancing *s past it. */
static int eat(const char **s, const char *word)
{
  const char *p = *s;
  while (*p == ' ' || *p == '\t')
    p++;
  size_t n = strlen(word);
  if (strncmp(p, word, n))
    return 0;
  *s = p + n;
  return 1;
}

/* The record for name: an existing one, else a new one (when room); index or -1. */
static int record(struct tc_resources *out, int max, int *count, const char *name, size_t len)
{
  for (int i = 0; i < *count && i < max; i++)
    if (strlen(out[i].name) == len && !strncmp(out[i].name, name, len))
      return i;
  if (*count >= max)
    return -1;
  int i = (*count)++;
  memset(&out[i], 0, sizeof out[i]);
  if (len >= sizeof out[i].name)
    len = sizeof out[i].name - 1;
  memcpy(out[i].name, name, len);
  return i;
}

/* "N bytes stack frame, N bytes spill stores, N bytes spill loads" */
static void parse_stack(const char *s, struct tc_resources *r)
{
  long v;
  while ((v = scan_num(&s)) >= 0) {
    if (eat(&s, "bytes stack frame"))
      r->stack_frame = (int)v;
    else if (eat(&s, "bytes spill stores"))
      r->spill_stores = (int)v;
    else if (eat(&s, "bytes spill loads"))
      r->spill_loads = (int)v;
    s = strchr(s, ',');
    if (!s)
      break;
    s++;
  }
  r->has |= TC_RES_STACK;
}

/* "Used N registers, used N barriers, N bytes cumulative stack size, N bytes smem,
    N bytes cmem[0], N textures ..." (s points after "Used") */
static void parse_used(const char *s, struct tc_resources *r)
{
  long v = scan_num(&s);
  if (v >= 0 && eat(&s, "registers")) {
    r->registers = (int)v;
    r->has |= TC_RES_REGISTERS | TC_RES_STATIC_SMEM;
  }
  while ((s = strchr(s, ','))) {
    s++;
    if (eat(&s, "used")) {
      v = scan_num(&s);
      if (v >= 0 && eat(&s, "barriers")) {
        r->barriers = (int)v;
        r->has |= TC_RES_BARRIERS;
      }
      continue;
    }
    v = scan_num(&s);
    if (v < 0)
      continue;
    if (eat(&s, "bytes smem")) {
      r->static_smem = (int)v;
    } else if (eat(&s, "bytes cmem[")) {
      r->const_bytes += (int)v;
      r->has |= TC_RES_CONST;
    } else if (eat(&s, "bytes cumulative stack size")) {
      r->cumulative_stack = (int)v;
      r->has |= TC_RES_CUMULATIVE_STACK;
    }
  }
}

/* Copy src to dst (n bytes), writing `to` for every `from`; cut where it does not fit.
   Returns 0 when all of it fit. */
static int replace_all(const char *src, const char *from, const char *to, char *dst, size_t n)
{
  size_t k = 0, fl = strlen(from), tl = strlen(to);
  if (!n)
    return -1;
  while (*src) {
    int hit = fl && !strncmp(src, from, fl);
    size_t len = hit ? tl : 1;
    if (k + len + 1 > n) {
      dst[k] = 0;
      return -1;
    }
    memcpy(dst + k, hit ? to : src, len);
    k += len;
    src += hit ? fl : 1;
  }
  dst[k] = 0;
  return 0;
}

int tc_ptxas_parse(const char *text, struct tc_resources *out, int max)
{
  int count = 0, cur = -1;
  const char *line = text;
  while (line && *line) {
    const char *eol = strchr(line, '\n');
    size_t len = eol ? (size_t)(eol - line) : strlen(line);
    char buf[1024];
    if (len >= sizeof buf)
      len = sizeof buf - 1;
    memcpy(buf, line, len);
    buf[len] = 0;
    line = eol ? eol + 1 : NULL;

    const char *p;
    if ((p = strstr(buf, "Compiling entry function '")) || (p = strstr(buf, "Compiling function '"))) {
      int entry = !strncmp(p, "Compiling entry", 15);
      p = strchr(p, '\'') + 1;
      const char *q = strchr(p, '\'');
      if (!q)
        continue;
      cur = record(out, max, &count, p, (size_t)(q - p));
      if (cur >= 0) {
        out[cur].is_entry |= entry;
        const char *a = strstr(q + 1, "for '");
        if (a) {
          a += 5;
          const char *b = strchr(a, '\'');
          size_t al = b ? (size_t)(b - a) : 0;
          if (al < sizeof out[cur].arch) {
            memcpy(out[cur].arch, a, al);
            out[cur].arch[al] = 0;
          }
        }
      }
    } else if ((p = strstr(buf, "Function properties for "))) {
      p += strlen("Function properties for ");
      size_t n = strcspn(p, " \t\r:");
      cur = n ? record(out, max, &count, p, n) : -1;
    } else if (strstr(buf, "bytes stack frame")) {
      if (cur >= 0)
        parse_stack(buf, &out[cur]);
    } else if ((p = strstr(buf, ": Used ")) || (p = strstr(buf, "Used "))) {
      p = strstr(p, "Used ") + 4;
      if (cur >= 0)
        parse_used(p, &out[cur]);
    }
  }
  return count;
}

const struct tc_resources *tc_resources_find(const struct tc_resources *r, int n,
                                               const char *name)
{
  for (int i = 0; i < n; i++)
    if (!strcmp(r[i].name, name))
      return &r[i];
  char prefix[300];
  int w = snprintf(prefix, sizeof prefix, "_Z%zu%s", strlen(name), name);
  if (w < 0 || (size_t)w >= sizeof prefix)
    return NULL;
  const struct tc_resources *hit = NULL;
  for (int i = 0; i < n; i++)
    if (!strncmp(r[i].name, prefix, (size_t)w)) {
      if (hit)
        return NULL;
      hit = &r[i];
    }
  return hit;
}

/* The key of ptxas's report on the n bytes of PTX at src with flags archflag and regflag
   ("": none), by the ptxas at path. */
static uint64_t report_key(const char *ptxas, const char *archflag, const char *regflag,
                           const char *src, size_t n)
{
  char toolkit[128], real[4096];
  tc_build_toolkit_line(toolkit, sizeof toolkit);
  uint64_t key = tc_cache_hash_self(tc_cache_hash_str(TC_CACHE_SEED, "ptxas-report-1"));
  key = tc_cache_hash_str(key, toolkit);
  key = tc_cache_hash_str(key, realpath(ptxas, real) ? real : ptxas);
  key = tc_cache_hash_stamp(key, ptxas);
  key = tc_cache_hash_str(key, archflag);
  key = tc_cache_hash_str(key, regflag);
  return tc_cache_hash(key, src, n);
}

/* A kept report (entry: "COPY\nTEXT", TEXT what ptxas printed on the copy named COPY) read
   into out and log as tc_ptxas does with a fresh one. Returns 0, or -1 when there is none. */
static int report_load(uint64_t key, const char *ptx, struct tc_resources *out, int max, int *n,
                       char *log, size_t loglen)
{
  char *kept = NULL;
  size_t klen = 0;
  if (tc_cache_blob_load("ptxas", key, &kept, &klen))
    return -1;
  char *text = strchr(kept, '\n');
  if (!text || text == kept) {
    free(kept);
    return -1;
  }
  *text++ = 0;
  replace_all(text, kept, ptx, log, loglen);
  *n = tc_ptxas_parse(text, out, max);
  free(kept);
  return 0;
}

/* Keep ptxas's report text, printed on the copy named copy, as entry key. */
static void report_store(uint64_t key, const char *copy, const char *text)
{
  size_t cl = strlen(copy), tl = strlen(text);
  char *buf = strchr(copy, '\n') ? NULL : malloc(cl + 1 + tl);
  if (!buf)
    return;
  memcpy(buf, copy, cl);
  buf[cl] = '\n';
  memcpy(buf + cl + 1, text, tl);
  tc_cache_blob_store("ptxas", key, buf, cl + 1 + tl);
  free(buf);
}

enum tc_ptxas_status tc_ptxas(const char *ptx, const char *arch, int maxrregcount,
                                struct tc_resources *out, int max, int *n,
                                char *log, size_t loglen)
{
  return tc_ptxas_cubin(ptx, arch, maxrregcount, out, max, n, log, loglen, NULL, NULL);
}

enum tc_ptxas_status tc_ptxas_cubin(const char *ptx, const char *arch, int maxrregcount,
                                      struct tc_resources *out, int max, int *n,
                                      char *log, size_t loglen, char **cubin,
                                      size_t *cubin_len)
{
  char ptxas[4096], archflag[64], regflag[64];
  *n = 0;
  log[0] = 0;
  if (cubin) {
    *cubin = NULL;
    *cubin_len = 0;
  }
  if (tc_find_tool("ptxas", ptxas, sizeof ptxas) != 0) {
    snprintf(log, loglen,
             "ptxas (the CUDA Toolkit's PTX assembler) was not found on PATH or in /usr/local/cuda/bin.\n"
             "warplab needs it to read a kernel's registers and shared memory.\n"
             "Install the CUDA Toolkit from NVIDIA, or use the container: see docker/README.md.\n");
    return TC_PTXAS_NO_PTXAS;
  }
  snprintf(archflag, sizeof archflag, "-arch=%s", arch && *arch ? arch : "sm_90");
  snprintf(regflag, sizeof regflag, "--maxrregcount=%d", maxrregcount);
  /* The PTX is the student's: ptxas reads a private copy of it, confined as nvcc is (its view
     of the files, its CPU time, memory and time on the clock): a 100,000-instruction inline
     asm block took 897 s of ptxas. */
  size_t plen = 0;
  char *src = tc_read_file(ptx, &plen);
  if (!src) {
    snprintf(log, loglen, "%s: %s\n", ptx, strerror(errno));
    return TC_PTXAS_FAILED;
  }
  uint64_t key = report_key(ptxas, archflag, maxrregcount > 0 ? regflag : "", src, plen);
  if (report_load(key, ptx, out, max, n, log, loglen) == 0) {
    free(src);
    return TC_PTXAS_OK;
  }
  char base[1024], work[1100], root[1100], copy[1200], cub[1200];
  if (tc_build_private_folder("ptxas", base, sizeof base, log, loglen)) {
    free(src);
    return TC_PTXAS_SYSTEM;
  }
  snprintf(work, sizeof work, "%s/work", base);
  snprintf(root, sizeof root, "%s/root", base);
  snprintf(copy, sizeof copy, "%s/kernel.ptx", work);
  snprintf(cub, sizeof cub, "%s/kernel.cubin", work);
  enum tc_ptxas_status st = TC_PTXAS_SYSTEM;
  size_t cap = (size_t)1 << 20;         /* ptxas -v says a few lines per kernel */
  char *text = malloc(cap);
  struct tc_sandbox *sb = malloc(sizeof *sb);
  FILE *f = NULL;
  int ready = text && sb && !mkdir(work, 0700) && !mkdir(root, 0700) && (f = fopen(copy, "wb"));
  if (f) {
    ready = fwrite(src, 1, plen, f) == plen;
    if (fclose(f) != 0)
      ready = 0;
  }
  enum tc_sandbox_kind kind = tc_sandbox_probe(NULL, 0);
  if (!ready || tc_sandbox_for_nvcc(sb, kind, ptxas, NULL, work, root)) {
    snprintf(log, loglen, "cannot prepare a folder for ptxas: %s\n", strerror(errno));
    goto out;
  }
  char *argv[9];
  int k = 0;
  argv[k++] = ptxas;
  argv[k++] = "-v";
  if (cubin)
    argv[k++] = "-lineinfo";
  argv[k++] = archflag;
  if (maxrregcount > 0)
    argv[k++] = regflag;
  argv[k++] = "-o";
  argv[k++] = cubin ? cub : "/dev/null";
  argv[k++] = copy;
  argv[k] = NULL;
  struct tc_exec_limits lim;
  tc_exec_tool_limits(&lim);
  double cpu = 0;
  int status = tc_exec_confined_cpu(argv, sb, &lim, text, cap, &cpu);
  char stop[200];
  st = TC_PTXAS_OK;
  if (status == -1 || status == TC_EXEC_UNCONFINED) {
    snprintf(log, loglen, "cannot run ptxas%s: %s\n", status == -1 ? "" : " confined",
             strerror(errno));
    st = TC_PTXAS_SYSTEM;
  } else if (tc_exec_stopped_words(status, text, cpu, &lim, "ptxas", stop, sizeof stop)) {
    snprintf(log, loglen, "%s: %s\n", ptx, stop);
    st = TC_PTXAS_FAILED;
  } else if (status != 0) {
    if (status == 127)
      snprintf(log, loglen, "cannot run %s\n", ptxas);
    else if (replace_all(text, copy, ptx, log, loglen) != 0 || !log[0])
      snprintf(log, loglen, "ptxas failed (status %d) with no message\n", status);
    st = TC_PTXAS_FAILED;
  } else {
    replace_all(text, copy, ptx, log, loglen);
    *n = tc_ptxas_parse(text, out, max);
    report_store(key, copy, text);
    if (cubin)
      *cubin = tc_read_file(cub, cubin_len);
  }
out:
  free(src);
  free(text);
  free(sb);
  unlink(cub);
  unlink(copy);
  rmdir(work);
  rmdir(root);
  rmdir(base);
  return st;
}
