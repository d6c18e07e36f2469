/* tc_file.c: reading a whole file into memory (see tc_file.h). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>

#include "toolchain/tc_exec.h"
#include "toolchain/tc_file.h"

char *tc_read_file(const char *path, size_t *len)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap + 1);
  while (buf) {
    size_t r = fread(buf + n, 1, cap - n, f);
    n += r;
    if (n < cap)
      break;
    char *nb = realloc(buf, cap * 2 + 1);
    if (!nb) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = nb;
    cap *= 2;
  }
  fclose(f);
  if (buf) {
    buf[n] = 0;
    *len = n;
  }
  return buf;
}

static int is_dir(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *tc_home(void)
{
  static char home[4096];
  const char *env = getenv("WARPLAB_HOME");
  if (env && *env)
    return env;
  if (home[0])
    return home;
  snprintf(home, sizeof home, ".");
  if (is_dir("labs"))
    return home;
  char exe[4096], labs[4200];
  if (tc_self_path(exe, sizeof exe))
    return home;
  for (int up = 0; up < 2; up++) {
    char *slash = strrchr(exe, '/');
    if (!slash)
      return home;
    *slash = 0;
  }
  snprintf(labs, sizeof labs, "%s/labs", exe[0] ? exe : "/");
  if (is_dir(labs))
    snprintf(home, sizeof home, "%s", exe[0] ? exe : "/");
  return home;
}
