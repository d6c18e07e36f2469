/* run_build.c: compile a .cu file to PTX with nvcc -ptx -lineinfo (see run_build.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/run_build.h"
#include "run/run_exec.h"
#include "run/run_file.h"

int run_find_tool(const char *name, char *out, size_t outlen)
{
  const char *path = getenv("PATH");
  char dir[4096];
  while (path && *path) {
    const char *colon = strchr(path, ':');
    size_t n = colon ? (size_t)(colon - path) : strlen(path);
    if (n && n < sizeof dir) {
      memcpy(dir, path, n);
      dir[n] = 0;
      snprintf(out, outlen, "%s/%s", dir, name);
      if (access(out, X_OK) == 0)
        return 0;
    }
    path = colon ? colon + 1 : NULL;
  }
  snprintf(out, outlen, "/usr/local/cuda/bin/%s", name);
  return access(out, X_OK) == 0 ? 0 : -1;
}

/* Rewrite "path(12): error" into "path:12: error" in place-ish (into dst). */
static void tidy_log(const char *src, char *dst, size_t n)
{
  size_t k = 0;
  while (*src && k + 1 < n) {
    const char *open = strchr(src, '(');
    const char *eol = strchr(src, '\n');
    if (open && (!eol || open < eol)) {
      const char *q = open + 1;
      while (*q >= '0' && *q <= '9')
        q++;
      if (q > open + 1 && q[0] == ')' && q[1] == ':') {
        size_t pre = (size_t)(open - src);
        int w = snprintf(dst + k, n - k, "%.*s:%.*s:", (int)pre, src, (int)(q - open - 1), open + 1);
        if (w < 0 || (size_t)w >= n - k)
          break;
        k += (size_t)w;
        src = q + 2;
        continue;
      }
    }
    size_t len = eol ? (size_t)(eol - src) + 1 : strlen(src);
    if (len > n - k - 1)
      len = n - k - 1;
    memcpy(dst + k, src, len);
    k += len;
    src += len;
  }
  dst[k] = 0;
}

/* nvcc runs its own steps through /bin/sh with the file names pasted in, so a name such as
   o'brien/k.cu or $(x)/k.cu would be taken for shell syntax. Names made of these characters
   are passed as they are; any other is reached through a private folder of links. */
static int shell_safe(const char *s)
{
  for (; *s; s++)
    if (!isalnum((unsigned char)*s) && !strchr("._/+-,=@", *s))
      return 0;
  return 1;
}

/* Run nvcc with argv in folder cwd (NULL: ours); its messages, tidied, go to log. Returns
   the exit status, or -1 (log says why) when it could not be run. */
static int run_nvcc(char *const argv[], const char *cwd, char *log, size_t loglen)
{
  char *raw = malloc(loglen + 1);
  if (!raw) {
    snprintf(log, loglen, "cannot run nvcc: out of host memory\n");
    return -1;
  }
  int rc = run_exec_capture(argv, cwd, raw, loglen + 1);
  if (rc < 0)
    snprintf(log, loglen, "cannot run nvcc: %s\n", strerror(errno));
  else
    tidy_log(raw, log, loglen);
  free(raw);
  return rc;
}

/* Copy text from src to dst, writing `to` for every `from` (from non-empty). Returns 0 when
   all of it fit. */
static int replace_all(const char *src, const char *from, const char *to, char *dst, size_t n)
{
  size_t k = 0, fl = strlen(from), tl = strlen(to);
  while (*src) {
    const char *add = src;
    size_t len = 1;
    if (!strncmp(src, from, fl)) {
      add = to;
      len = tl;
    }
    if (k + len + 1 > n)
      return -1;
    memcpy(dst + k, add, len);
    k += len;
    src += add == to ? fl : 1;
  }
  dst[k] = 0;
  return 0;
}

/* nvcc also canonicalises its input's path (links are followed), so the file is copied into
   a private folder /tmp/warplab-nvcc-XXXXXX (as kernel.cu when its own name is unsafe), with
   src -> its real folder on the include path (-I paths are passed as given). The copy's path
   in the PTX (.file) and in nvcc's messages is written back to the real one. */
static enum run_build_status build_via_copy(char *nvcc, char *archflag, const char *cu,
                                            const char *ptx_out, char *log, size_t loglen)
{
  char real[4096], tdir[64] = "/tmp/warplab-nvcc-XXXXXX";
  if (!realpath(cu, real)) {
    snprintf(log, loglen, "%s: %s\n", cu, strerror(errno));
    return RUN_BUILD_FAILED;
  }
  size_t srclen = 0;
  char *src = run_read_file(real, &srclen);
  if (!src) {
    snprintf(log, loglen, "%s: %s\n", cu, strerror(errno));
    return RUN_BUILD_FAILED;
  }
  if (!mkdtemp(tdir)) {
    snprintf(log, loglen, "cannot make a build folder in /tmp: %s\n", strerror(errno));
    free(src);
    return RUN_BUILD_SYSTEM;
  }
  char *slash = strrchr(real, '/');
  const char *base = slash + 1;
  char realdir[4096], srclink[128], copy[4200], out[128], inc[160];
  snprintf(realdir, sizeof realdir, "%.*s", (int)(slash - real), real);
  snprintf(srclink, sizeof srclink, "%s/src", tdir);
  snprintf(out, sizeof out, "%s/out.ptx", tdir);
  snprintf(inc, sizeof inc, "-I%s", srclink);
  snprintf(copy, sizeof copy, "%s/%s", tdir, shell_safe(base) && strlen(base) < 200 ? base : "kernel.cu");
  enum run_build_status st = RUN_BUILD_SYSTEM;
  char *ptx = NULL, *fixed = NULL, *raw = NULL;
  FILE *f = fopen(copy, "wb");
  if (!f || fwrite(src, 1, srclen, f) != srclen || fclose(f) != 0 ||
      symlink(realdir[0] ? realdir : "/", srclink) != 0) {
    if (f)
      fclose(f);
    snprintf(log, loglen, "cannot prepare the build folder %s: %s\n", tdir, strerror(errno));
    goto out;
  }
  char *argv[] = {nvcc, archflag, "-ptx", "-lineinfo", inc, "-o", out, copy, NULL};
  if (!(raw = malloc(loglen + 1)))
    goto out;
  int rc = run_nvcc(argv, tdir, raw, loglen);
  if (replace_all(raw, copy, real, log, loglen) != 0)
    snprintf(log, loglen, "%s", raw);
  if (rc < 0)
    goto out;
  st = RUN_BUILD_FAILED;
  if (rc != 0) {
    if (!log[0])
      snprintf(log, loglen, "nvcc failed (status %d) with no message\n", rc);
    goto out;
  }
  size_t len = 0;
  ptx = run_read_file(out, &len);
  size_t cap = len + 64 * strlen(real) + 4096;
  fixed = ptx ? malloc(cap) : NULL;
  /* A '"' or '\' in the real path would need escaping inside the PTX string: keep the copy's
     path there instead (line numbers are unaffected; only the file name shown differs). */
  const char *to = strpbrk(real, "\"\\") ? copy : real;
  st = RUN_BUILD_SYSTEM;
  if (fixed && replace_all(ptx, copy, to, fixed, cap) == 0 && (f = fopen(ptx_out, "wb"))) {
    size_t fl = strlen(fixed);
    int ok = fwrite(fixed, 1, fl, f) == fl;
    if (fclose(f) == 0 && ok)
      st = RUN_BUILD_OK;
  }
  if (st != RUN_BUILD_OK)
    snprintf(log + strlen(log), loglen - strlen(log), "cannot write %s: %s\n", ptx_out, strerror(errno));
out:
  free(src);
  free(raw);
  free(ptx);
  free(fixed);
  unlink(out);
  unlink(srclink);
  unlink(copy);
  rmdir(tdir);
  return st;
}

enum run_build_status run_build_ptx(const char *cu, const char *arch, const char *ptx_out,
                                    char *log, size_t loglen)
{
  char nvcc[4096];
  log[0] = 0;
  if (run_find_tool("nvcc", nvcc, sizeof nvcc) != 0) {
    snprintf(log, loglen,
             "nvcc (the CUDA Toolkit's compiler) was not found on PATH or in /usr/local/cuda/bin.\n"
             "warplab needs it to compile .cu files (a .ptx file runs without it).\n"
             "Install the CUDA Toolkit from NVIDIA, or use the container: see docker/README.md.\n");
    return RUN_BUILD_NO_NVCC;
  }
  char archflag[64];
  snprintf(archflag, sizeof archflag, "-arch=%s", arch && *arch ? arch : "sm_90");
  if (!shell_safe(cu) || !shell_safe(ptx_out) || !shell_safe(nvcc))
    return build_via_copy(nvcc, archflag, cu, ptx_out, log, loglen);
  char *argv[] = {nvcc, archflag, "-ptx", "-lineinfo", "-o", (char *)ptx_out, (char *)cu, NULL};
  int rc = run_nvcc(argv, NULL, log, loglen);
  if (rc < 0)
    return RUN_BUILD_SYSTEM;
  if (rc == 0)
    return RUN_BUILD_OK;
  if (!log[0])
    snprintf(log, loglen, "nvcc failed (status %d) with no message\n", rc);
  return RUN_BUILD_FAILED;
}
