/* run_build.c: compile a .cu file to PTX with nvcc -ptx -lineinfo (see run_build.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/run_build.h"

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
  int pipefd[2];
  if (pipe(pipefd) != 0) {
    snprintf(log, loglen, "cannot run nvcc: %s\n", strerror(errno));
    return RUN_BUILD_SYSTEM;
  }
  pid_t pid = fork();
  if (pid < 0) {
    close(pipefd[0]);
    close(pipefd[1]);
    snprintf(log, loglen, "cannot run nvcc: %s\n", strerror(errno));
    return RUN_BUILD_SYSTEM;
  }
  if (pid == 0) {
    dup2(pipefd[1], 1);
    dup2(pipefd[1], 2);
    close(pipefd[0]);
    close(pipefd[1]);
    char *argv[] = {nvcc, archflag, "-ptx", "-lineinfo", "-o", (char *)ptx_out, (char *)cu, NULL};
    execv(nvcc, argv);
    _exit(127);
  }
  close(pipefd[1]);
  char *raw = malloc(loglen + 1);
  size_t got = 0;
  ssize_t r;
  char sink[4096];
  while ((r = read(pipefd[0], got < loglen && raw ? raw + got : sink,
                   got < loglen && raw ? loglen - got : sizeof sink)) > 0)
    if (got < loglen && raw)
      got += (size_t)r;
  close(pipefd[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  if (raw) {
    raw[got < loglen ? got : loglen] = 0;
    tidy_log(raw, log, loglen);
    free(raw);
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
    return RUN_BUILD_OK;
  if (!log[0])
    snprintf(log, loglen, "nvcc failed (status %d) with no message\n", status);
  return RUN_BUILD_FAILED;
}
