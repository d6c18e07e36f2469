/* run_sass.c: ptxas and nvdisasm on a PTX file, confined, read into its SASS map
   (run_sass.h). nvdisasm's listing is kept in the cache folder (run_cache.h, entry sass-KEY:
   the PTX's bytes, the arch and the toolkit's version line), so the same PTX is assembled
   and listed once. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/run_build.h"
#include "run/run_cache.h"
#include "run/run_exec.h"
#include "run/run_file.h"
#include "run/run_sandbox.h"
#include "run/run_sass.h"
#include "run/run_toolkit.h"

/* What nvdisasm may print: about 100 bytes a SASS instruction, so some 300,000 of them. */
#define LISTING_MAX ((size_t)32 << 20)

/* Run tool (argv, confined to work) and capture its output into out. Returns RUN_SASS_OK, or
   another status with log filled; what names the tool in the log. */
static enum run_sass_status run_tool(char *const argv[], const char *work, const char *root,
                                     const char *what, char *out, size_t cap, char *log,
                                     size_t loglen)
{
  struct run_sandbox *sb = malloc(sizeof *sb);
  if (!sb) {
    snprintf(log, loglen, "out of memory running %s\n", what);
    return RUN_SASS_SYSTEM;
  }
  enum run_sandbox_kind kind = run_sandbox_probe(NULL, 0);
  if (run_sandbox_for_nvcc(sb, kind, argv[0], NULL, work, root)) {
    snprintf(log, loglen, "cannot prepare a folder for %s\n", what);
    free(sb);
    return RUN_SASS_SYSTEM;
  }
  struct run_exec_limits lim;
  run_exec_tool_limits(&lim);
  double cpu = 0;
  int status = run_exec_confined_cpu(argv, sb, &lim, out, cap, &cpu);
  free(sb);
  char stop[200];
  if (status == -1 || status == RUN_EXEC_UNCONFINED) {
    snprintf(log, loglen, "cannot run %s%s: %s\n", what, status == -1 ? "" : " confined",
             strerror(errno));
    return RUN_SASS_SYSTEM;
  }
  if (run_exec_stopped_words(status, out, cpu, &lim, what, stop, sizeof stop)) {
    snprintf(log, loglen, "%s\n", stop);
    return RUN_SASS_FAILED;
  }
  if (status != 0) {
    /* the first line of what it said */
    size_t n = strcspn(out, "\n");
    snprintf(log, loglen, "%s failed (status %d)%s%.*s\n", what, status, n ? ": " : "",
             (int)(n > 300 ? 300 : n), out);
    return RUN_SASS_FAILED;
  }
  return RUN_SASS_OK;
}

/* The listing text (len bytes) read into the SASS map of m, into out. */
static enum run_sass_status read_listing(const char *text, size_t len, const struct ptx_module *m,
                                         struct ptx_sass *out, char *log, size_t loglen)
{
  enum run_sass_status st = RUN_SASS_OK;
  struct ptx_sass_lines lines;
  if (len + 1 >= LISTING_MAX) {
    snprintf(log, loglen, "nvdisasm's listing is longer than %zu MiB\n", LISTING_MAX >> 20);
    st = RUN_SASS_FAILED;
  } else if (ptx_sass_parse(text, len, &lines) != 0) {
    snprintf(log, loglen, "nvdisasm's listing holds no code\n");
    st = RUN_SASS_FAILED;
  } else {
    if (!lines.nlines) {
      snprintf(log, loglen, "nvdisasm's listing has no PTX line information\n");
      st = RUN_SASS_FAILED;
    } else if (ptx_sass_attach(m, &lines, out) != 0) {
      snprintf(log, loglen, "out of memory reading nvdisasm's listing\n");
      st = RUN_SASS_SYSTEM;
    }
    ptx_sass_lines_free(&lines);
  }
  return st;
}

enum run_sass_status run_sass(const char *ptx, const char *arch, const struct ptx_module *m,
                              struct ptx_sass *out, char *log, size_t loglen)
{
  char ptxas[4096], nvdisasm[4096], archflag[64];
  memset(out, 0, sizeof *out);
  log[0] = 0;
  const char *off = getenv("WARPLAB_SASS");
  if (off && !strcmp(off, "off")) {
    snprintf(log, loglen, "WARPLAB_SASS=off: counted on the PTX\n");
    return RUN_SASS_NO_TOOL;
  }
  if (run_find_tool("ptxas", ptxas, sizeof ptxas) != 0) {
    snprintf(log, loglen, "ptxas was not found on PATH or in /usr/local/cuda/bin\n");
    return RUN_SASS_NO_TOOL;
  }
  if (run_find_tool("nvdisasm", nvdisasm, sizeof nvdisasm) != 0) {
    snprintf(log, loglen, "nvdisasm was not found on PATH or in /usr/local/cuda/bin; the PyPI "
             "package nvidia-cuda-nvdisasm has it, docker/install-deps.sh installs it\n");
    return RUN_SASS_NO_TOOL;
  }
  snprintf(archflag, sizeof archflag, "-arch=%s", arch && *arch ? arch : "sm_90");
  size_t plen = 0;
  char *src = run_read_file(ptx, &plen);
  if (!src) {
    snprintf(log, loglen, "%s: %s\n", ptx, strerror(errno));
    return RUN_SASS_FAILED;
  }
  char toolkit[128];
  run_build_toolkit_line(toolkit, sizeof toolkit);
  uint64_t key = run_cache_hash_self(run_cache_hash_str(RUN_CACHE_SEED, "sass-listing-1"));
  key = run_cache_hash_str(key, toolkit);
  key = run_cache_hash_str(key, archflag);
  key = run_cache_hash(key, src, plen);
  char *kept = NULL;
  size_t klen = 0;
  if (run_cache_blob_load("sass", key, &kept, &klen) == 0) {
    enum run_sass_status ks = read_listing(kept, klen, m, out, log, loglen);
    free(kept);
    if (ks == RUN_SASS_OK) {
      free(src);
      return ks;
    }
    ptx_sass_free(out);                         /* a listing kept that does not read: made again */
    memset(out, 0, sizeof *out);
    log[0] = 0;
  }
  char base[1024], work[1100], root[1100], copy[1200], cubin[1200];
  if (run_build_private_folder("sass", base, sizeof base, log, loglen)) {
    free(src);
    return RUN_SASS_SYSTEM;
  }
  snprintf(work, sizeof work, "%s/work", base);
  snprintf(root, sizeof root, "%s/root", base);
  snprintf(copy, sizeof copy, "%s/kernel.ptx", work);
  snprintf(cubin, sizeof cubin, "%s/kernel.cubin", work);
  enum run_sass_status st = RUN_SASS_SYSTEM;
  char *text = malloc(LISTING_MAX);
  FILE *f = NULL;
  int ready = text && !mkdir(work, 0700) && !mkdir(root, 0700) && (f = fopen(copy, "wb"));
  if (f) {
    ready = fwrite(src, 1, plen, f) == plen;
    if (fclose(f) != 0)
      ready = 0;
  }
  if (!ready) {
    snprintf(log, loglen, "cannot prepare a folder for ptxas: %s\n", strerror(errno));
    goto out;
  }
  char *as[] = {ptxas, "-lineinfo", archflag, "-o", cubin, copy, NULL};
  st = run_tool(as, work, root, "ptxas", text, 1 << 16, log, loglen);
  if (st != RUN_SASS_OK)
    goto out;
  char *dis[] = {nvdisasm, "-c", "-gp", cubin, NULL};
  st = run_tool(dis, work, root, "nvdisasm", text, LISTING_MAX, log, loglen);
  if (st != RUN_SASS_OK)
    goto out;
  size_t len = strlen(text);
  st = read_listing(text, len, m, out, log, loglen);
  if (st == RUN_SASS_OK)
    run_cache_blob_store("sass", key, text, len);
out:
  free(src);
  free(text);
  unlink(cubin);
  unlink(copy);
  rmdir(work);
  rmdir(root);
  rmdir(base);
  return st;
}
