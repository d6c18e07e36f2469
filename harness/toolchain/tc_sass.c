/* tc_sass.c: ptxas and nvdisasm on a PTX file, confined, read into its SASS map
   (tc_sass.h). nvdisasm's listing is kept in the cache folder (run_cache.h, entry sass-KEY:
   the PTX's bytes, the arch and the toolkit's version line), so the same PTX is assembled
   and listed once.

   nvdisasm lists without its dataflow analysis (-ndf): 0.26 s of CPU instead of 0.35 s
   whatever the kernel (nearly all of it nvdisasm's own start), on every save. What the
   analysis adds is comments, of which the map reads one: the jump table of an indirect
   branch (BRANCH_TARGETS), the only naming of the labels it reaches. tc_jumptab.h names
   them from the cubin's own tables where ptxas made the BRX as it makes a switch's (labs 03
   and 07, whose switch on the version ptxas makes one); where it cannot, nvdisasm lists the
   cubin again with the analysis. */
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
#include "toolchain/tc_jumptab.h"
#include "toolchain/tc_sandbox.h"
#include "toolchain/tc_sass.h"
#include "toolchain/tc_toolkit.h"

/* What nvdisasm may print: about 100 bytes a SASS instruction, so some 300,000 of them. */
#define LISTING_MAX ((size_t)32 << 20)

/* Run tool (argv, confined to work) and capture its output into out. Returns TC_SASS_OK, or
   another status with log filled; what names the tool in the log. */
static enum tc_sass_status run_tool(char *const argv[], const char *work, const char *root,
                                     const char *what, char *out, size_t cap, char *log,
                                     size_t loglen)
{
  struct tc_sandbox *sb = malloc(sizeof *sb);
  if (!sb) {
    snprintf(log, loglen, "out of memory running %s\n", what);
    return TC_SASS_SYSTEM;
  }
  enum tc_sandbox_kind kind = tc_sandbox_probe(NULL, 0);
  if (tc_sandbox_for_nvcc(sb, kind, argv[0], NULL, work, root)) {
    snprintf(log, loglen, "cannot prepare a folder for %s\n", what);
    free(sb);
    return TC_SASS_SYSTEM;
  }
  struct tc_exec_limits lim;
  tc_exec_tool_limits(&lim);
  double cpu = 0;
  int status = tc_exec_confined_cpu(argv, sb, &lim, out, cap, &cpu);
  free(sb);
  char stop[200];
  if (status == -1 || status == TC_EXEC_UNCONFINED) {
    snprintf(log, loglen, "cannot run %s%s: %s\n", what, status == -1 ? "" : " confined",
             strerror(errno));
    return TC_SASS_SYSTEM;
  }
  if (tc_exec_stopped_words(status, out, cpu, &lim, what, stop, sizeof stop)) {
    snprintf(log, loglen, "%s\n", stop);
    return TC_SASS_FAILED;
  }
  if (status != 0) {
    /* the first line of what it said */
    size_t n = strcspn(out, "\n");
    snprintf(log, loglen, "%s failed (status %d)%s%.*s\n", what, status, n ? ": " : "",
             (int)(n > 300 ? 300 : n), out);
    return TC_SASS_FAILED;
  }
  return TC_SASS_OK;
}

/* The listing text (len bytes) read into the SASS map of m, into out. */
static enum tc_sass_status read_listing(const char *text, size_t len, const struct ptx_module *m,
                                         struct ptx_sass *out, char *log, size_t loglen)
{
  enum tc_sass_status st = TC_SASS_OK;
  struct ptx_sass_lines lines;
  if (len + 1 >= LISTING_MAX) {
    snprintf(log, loglen, "nvdisasm's listing is longer than %zu MiB\n", LISTING_MAX >> 20);
    st = TC_SASS_FAILED;
  } else if (ptx_sass_parse(text, len, &lines) != 0) {
    snprintf(log, loglen, "nvdisasm's listing holds no code\n");
    st = TC_SASS_FAILED;
  } else {
    if (!lines.nlines) {
      snprintf(log, loglen, "nvdisasm's listing has no PTX line information\n");
      st = TC_SASS_FAILED;
    } else if (ptx_sass_attach(m, &lines, out) != 0) {
      snprintf(log, loglen, "out of memory reading nvdisasm's listing\n");
      st = TC_SASS_SYSTEM;
    }
    ptx_sass_lines_free(&lines);
  }
  return st;
}

enum tc_sass_status tc_sass(const char *ptx, const char *arch, const struct ptx_module *m,
                              struct ptx_sass *out, char *log, size_t loglen)
{
  return tc_sass_cubin(ptx, arch, m, out, log, loglen, NULL, 0);
}

enum tc_sass_status tc_sass_cubin(const char *ptx, const char *arch, const struct ptx_module *m,
                                    struct ptx_sass *out, char *log, size_t loglen,
                                    const char *given, size_t glen)
{
  char ptxas[4096], nvdisasm[4096], archflag[64];
  memset(out, 0, sizeof *out);
  log[0] = 0;
  const char *off = getenv("WARPLAB_SASS");
  if (off && !strcmp(off, "off")) {
    snprintf(log, loglen, "WARPLAB_SASS=off: counted on the PTX\n");
    return TC_SASS_NO_TOOL;
  }
  if (tc_find_tool("ptxas", ptxas, sizeof ptxas) != 0) {
    snprintf(log, loglen, "ptxas was not found on PATH or in /usr/local/cuda/bin\n");
    return TC_SASS_NO_TOOL;
  }
  if (tc_find_tool("nvdisasm", nvdisasm, sizeof nvdisasm) != 0) {
    snprintf(log, loglen, "nvdisasm was not found on PATH or in /usr/local/cuda/bin; the PyPI "
             "package nvidia-cuda-nvdisasm has it, docker/install-deps.sh installs it\n");
    return TC_SASS_NO_TOOL;
  }
  snprintf(archflag, sizeof archflag, "-arch=%s", arch && *arch ? arch : "sm_90");
  size_t plen = 0;
  char *src = tc_read_file(ptx, &plen);
  if (!src) {
    snprintf(log, loglen, "%s: %s\n", ptx, strerror(errno));
    return TC_SASS_FAILED;
  }
  char toolkit[128];
  tc_build_toolkit_line(toolkit, sizeof toolkit);
  uint64_t key = tc_cache_hash_self(tc_cache_hash_str(TC_CACHE_SEED, "sass-listing-1"));
  key = tc_cache_hash_str(key, toolkit);
  key = tc_cache_hash_str(key, archflag);
  key = tc_cache_hash(key, src, plen);
  char *kept = NULL;
  size_t klen = 0;
  if (tc_cache_blob_load("sass", key, &kept, &klen) == 0) {
    enum tc_sass_status ks = read_listing(kept, klen, m, out, log, loglen);
    free(kept);
    if (ks == TC_SASS_OK) {
      free(src);
      return ks;
    }
    ptx_sass_free(out);                         /* a listing kept that does not read: made again */
    memset(out, 0, sizeof *out);
    log[0] = 0;
  }
  char base[1024], work[1100], root[1100], copy[1200], cubin[1200];
  if (tc_build_private_folder("sass", base, sizeof base, log, loglen)) {
    free(src);
    return TC_SASS_SYSTEM;
  }
  snprintf(work, sizeof work, "%s/work", base);
  snprintf(root, sizeof root, "%s/root", base);
  snprintf(copy, sizeof copy, "%s/kernel.ptx", work);
  snprintf(cubin, sizeof cubin, "%s/kernel.cubin", work);
  enum tc_sass_status st = TC_SASS_SYSTEM;
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
  if (given) {                                  /* assembled already (tc_ptxas_cubin) */
    f = fopen(cubin, "wb");
    int wrote = f && fwrite(given, 1, glen, f) == glen;
    if (f && fclose(f) != 0)
      wrote = 0;
    if (!wrote) {
      snprintf(log, loglen, "cannot write the cubin for nvdisasm: %s\n", strerror(errno));
      goto out;
    }
  } else {
    char *as[] = {ptxas, "-lineinfo", archflag, "-o", cubin, copy, NULL};
    st = run_tool(as, work, root, "ptxas", text, 1 << 16, log, loglen);
    if (st != TC_SASS_OK)
      goto out;
  }
  /* without the dataflow analysis where tc_jumptab names every BRX's targets (the cubin's
     jump tables read here); else, or where it cannot, with it */
  size_t clen = 0;
  uint8_t *elf = (uint8_t *)tc_read_file(cubin, &clen);
  struct tc_bank2 banks[64];
  int nbanks = elf ? tc_jumptab_banks(elf, clen, banks, 64) : -1;
  int ndf = nbanks >= 0 && nbanks <= 64;
  char *dis[] = {nvdisasm, "-c", "-gp", ndf ? "-ndf" : cubin, ndf ? cubin : NULL, NULL};
  st = run_tool(dis, work, root, "nvdisasm", text, LISTING_MAX, log, loglen);
  if (st == TC_SASS_OK && ndf) {
    char *named = tc_jumptab_name(text, banks, (unsigned)nbanks);
    size_t nlen = named ? strlen(named) : 0;
    if (named && nlen < LISTING_MAX) {
      memcpy(text, named, nlen + 1);
    } else {
      dis[3] = cubin;
      dis[4] = NULL;
      st = run_tool(dis, work, root, "nvdisasm", text, LISTING_MAX, log, loglen);
    }
    free(named);
  }
  free(elf);
  if (st != TC_SASS_OK)
    goto out;
  size_t len = strlen(text);
  st = read_listing(text, len, m, out, log, loglen);
  if (st == TC_SASS_OK)
    tc_cache_blob_store("sass", key, text, len);
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
