/* tc_toolkit.c: finding the CUDA Toolkit's programs and header folders (see tc_toolkit.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "toolchain/tc_exec.h"
#include "toolchain/tc_toolkit.h"

int tc_find_tool(const char *name, char *out, size_t outlen)
{
  const char *path = getenv("PATH");
  while (path && *path) {
    size_t len = strcspn(path, ":");
    if (len && (size_t)snprintf(out, outlen, "%.*s/%s", (int)len, path, name) < outlen &&
        access(out, X_OK) == 0)
      return 0;
    path += len + (path[len] == ':');
  }
  snprintf(out, outlen, "/usr/local/cuda/bin/%s", name);
  return access(out, X_OK) == 0 ? 0 : -1;
}

static int is_dir(const char *p)
{
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* dir's real path added to tk's header folders, unless missing, too long or there already. */
static void add_include(struct tc_toolkit *tk, const char *dir)
{
  char real[PATH_MAX];
  if (tk->ninclude >= TC_TOOLKIT_MAX_INCLUDE || !realpath(dir, real) || !is_dir(real) ||
      strlen(real) >= sizeof tk->include[0])
    return;
  for (int i = 0; i < tk->ninclude; i++)
    if (!strcmp(tk->include[i], real))
      return;
  memcpy(tk->include[tk->ninclude++], real, strlen(real) + 1);
}

/* The next word of a dryrun value at *p (quotes dropped), into w; 0 at the end of the line. */
static int next_word(const char **p, char *w, size_t n)
{
  const char *s = *p;
  while (*s == ' ' || *s == '\t')
    s++;
  if (!*s || *s == '\n')
    return 0;
  size_t k = 0;
  while (*s && *s != '\n' && *s != ' ' && *s != '\t') {
    if (*s == '"') {
      for (s++; *s && *s != '"' && *s != '\n'; s++)
        if (k + 1 < n)
          w[k++] = *s;
      if (*s == '"')
        s++;
    } else {
      if (k + 1 < n)
        w[k++] = *s;
      s++;
    }
  }
  w[k] = 0;
  *p = s;
  return 1;
}

/* The folders named by -I and -isystem in the rest of the line at p. */
static void add_flag_dirs(struct tc_toolkit *tk, const char *p)
{
  char w[PATH_MAX];
  int want = 0;                                 /* the word before was a bare -I or -isystem */
  while (next_word(&p, w, sizeof w)) {
    if (want)
      add_include(tk, w);
    want = !strcmp(w, "-I") || !strcmp(w, "-isystem");
    if (!want && !strncmp(w, "-isystem", 8))
      add_include(tk, w + 8);
    else if (!want && !strncmp(w, "-I", 2))
      add_include(tk, w + 2);
  }
}

/* Ask nvcc: its dryrun prints "#$ TOP=...", "#$ INCLUDES=..." and "#$ SYSTEM_INCLUDES=...". */
static int ask_nvcc(const char *nvcc, struct tc_toolkit *tk)
{
  static char out[1 << 16];
  char *argv[] = {(char *)nvcc, "-dryrun", "-E", "-x", "cu", "/dev/null", NULL};
  if (tc_exec_capture(argv, NULL, out, sizeof out) != 0)
    return -1;
  for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
    if (strncmp(l, "#$ ", 3))
      continue;
    const char *v = l + 3;
    if (!strncmp(v, "TOP=", 4)) {
      char w[PATH_MAX], real[PATH_MAX];
      const char *p = v + 4;
      if (next_word(&p, w, sizeof w) && realpath(w, real) && strlen(real) < sizeof tk->top)
        memcpy(tk->top, real, strlen(real) + 1);
    } else if (!strncmp(v, "INCLUDES=", 9)) {
      add_flag_dirs(tk, v + 9);
    } else if (!strncmp(v, "SYSTEM_INCLUDES=", 16)) {
      add_flag_dirs(tk, v + 16);
    }
  }
  return tk->top[0] && tk->ninclude ? 0 : -1;
}

/* NVIDIA's layout: ROOT/bin/nvcc, ROOT/include, ROOT/include/cccl. */
static int from_layout(const char *nvcc, struct tc_toolkit *tk)
{
  char real[PATH_MAX], dir[PATH_MAX + 32];
  if (!realpath(nvcc, real))
    return -1;
  for (int k = 0; k < 2; k++) {
    char *s = strrchr(real, '/');
    if (!s || s == real)
      return -1;
    *s = 0;
  }
  if (strlen(real) >= sizeof tk->top)
    return -1;
  snprintf(dir, sizeof dir, "%s/include/cuda_runtime.h", real);
  if (access(dir, R_OK))
    return -1;
  memcpy(tk->top, real, strlen(real) + 1);
  snprintf(dir, sizeof dir, "%s/include", real);
  add_include(tk, dir);
  snprintf(dir, sizeof dir, "%s/include/cccl", real);
  add_include(tk, dir);
  return 0;
}

int tc_toolkit_find(const char *nvcc, struct tc_toolkit *tk)
{
  static char cached_for[PATH_MAX];
  static struct tc_toolkit cached;
  static int cached_rc;
  if (cached_for[0] && !strcmp(cached_for, nvcc)) {
    *tk = cached;
    return cached_rc;
  }
  memset(tk, 0, sizeof *tk);
  int rc = ask_nvcc(nvcc, tk);
  if (rc) {
    memset(tk, 0, sizeof *tk);
    rc = from_layout(nvcc, tk);
    if (rc)
      memset(tk, 0, sizeof *tk);
  }
  if (strlen(nvcc) < sizeof cached_for) {
    snprintf(cached_for, sizeof cached_for, "%s", nvcc);
    cached = *tk;
    cached_rc = rc;
  }
  return rc;
}
