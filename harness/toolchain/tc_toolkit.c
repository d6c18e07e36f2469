/* tc_toolkit.c: finding the CUDA Toolkit's programs and header folders (see tc_toolkit.h).
 *
 * What nvcc says of itself (its dryrun's folders, its version line: some 70 ms of nvcc) is
 * kept in the cache folder (tc_cache.h, entry toolkit-KEY), keyed by the nvcc found, the
 * program there and the environment it would see, and checked when read against the real
 * nvcc and nvcc.profile it named, so a warm run starts no nvcc and a changed toolkit is
 * asked again. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "toolchain/tc_cache.h"
#include "toolchain/tc_exec.h"
#include "toolchain/tc_toolkit.h"

extern char **environ;

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

/* The dryrun's lines that say where the toolkit is ("#$ _HERE_=", "#$ TOP=", "#$ INCLUDES=",
   "#$ SYSTEM_INCLUDES="), copied from out into facts (cut at n: then "" ). These are what
   the cache keeps: read_facts makes the same toolkit of them in any process. */
static void keep_facts(const char *out, char *facts, size_t n)
{
  static const char *const kept[] = {"#$ _HERE_=", "#$ TOP=", "#$ INCLUDES=",
                                     "#$ SYSTEM_INCLUDES="};
  size_t k = 0;
  facts[0] = 0;
  for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
    size_t len = strcspn(l, "\n");
    for (size_t i = 0; i < sizeof kept / sizeof *kept; i++)
      if (!strncmp(l, kept[i], strlen(kept[i]))) {
        if (k + len + 2 > n) {
          facts[0] = 0;
          return;
        }
        memcpy(facts + k, l, len);
        k += len;
        facts[k++] = '\n';
        facts[k] = 0;
      }
  }
}

/* The toolkit that dryrun lines (its whole output, or the facts kept) name, into tk: TOP
   and the folders of INCLUDES and SYSTEM_INCLUDES, resolved now (a folder that moved or
   went is seen as it is). Returns 0, or -1 when they name no TOP or no header folder. */
static int read_facts(const char *out, struct tc_toolkit *tk)
{
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

/* Ask nvcc: its dryrun prints "#$ TOP=...", "#$ INCLUDES=..." and "#$ SYSTEM_INCLUDES=...";
   the lines that say so are kept in facts (n bytes). */
static int ask_nvcc(const char *nvcc, struct tc_toolkit *tk, char *facts, size_t n)
{
  static char out[1 << 16];
  char *argv[] = {(char *)nvcc, "-dryrun", "-E", "-x", "cu", "/dev/null", NULL};
  facts[0] = 0;
  if (tc_exec_capture(argv, NULL, out, sizeof out) != 0)
    return -1;
  keep_facts(out, facts, n);
  return read_facts(out, tk);
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

/* The version line of `nvcc --version` ("release 13.0, V13.0.88"), into buf ("" when it
   says none). */
static void ask_version(const char *nvcc, char *buf, size_t n)
{
  char *argv[] = {(char *)nvcc, "--version", NULL};
  char out[2048] = "";
  buf[0] = 0;
  tc_exec_capture(argv, NULL, out, sizeof out);
  char *r = strstr(out, "release ");
  if (r) {
    r[strcspn(r, "\n")] = 0;
    snprintf(buf, n, "%s", r);
  }
}

/* Environment variables that cannot change nvcc's answer: warplab's own settings, the
   shell's bookkeeping, and the temporary folder (a graded run's own, set per run; it names
   where nvcc's temporary files go, not where the toolkit is). Every other one is part of
   the key: nvcc reads its environment (NVCC_PREPEND_FLAGS, NVCC_APPEND_FLAGS, NVCC_CCBIN,
   and any variable its nvcc.profile names: INCLUDES, PATH ...). */
static int env_ignored(const char *var)
{
  static const char *const names[] = {"PWD=", "OLDPWD=", "SHLVL=", "_=", "TMPDIR=", "WARPLAB_",
                                      "CK_"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (!strncmp(var, names[i], strlen(names[i])))
      return 1;
  return 0;
}

/* The key of the probe of the nvcc found at nvcc: this warplab, the path, the program there
   (its real path and stamp; a script's bytes too, since a wrapper names the nvcc it runs),
   the folder a relative path is taken from, and the environment nvcc would see. What the
   answer rests on beyond these (the real nvcc a wrapper runs, its nvcc.profile) is checked
   when the entry is read (probe_stamp). */
static uint64_t probe_key(const char *nvcc)
{
  uint64_t h = tc_cache_hash_self(tc_cache_hash_str(TC_CACHE_SEED, "toolkit-probe-1"));
  h = tc_cache_hash_str(h, nvcc);
  char real[PATH_MAX], cwd[PATH_MAX];
  h = tc_cache_hash_str(h, realpath(nvcc, real) ? real : "(unresolved)");
  h = tc_cache_hash_stamp(h, nvcc);
  if (nvcc[0] != '/')
    h = tc_cache_hash_str(h, getcwd(cwd, sizeof cwd) ? cwd : "(no cwd)");
  FILE *f = fopen(nvcc, "rb");
  char head[2] = {0, 0};
  if (f) {
    if (fread(head, 1, 2, f) == 2 && head[0] == '#' && head[1] == '!')
      h = tc_cache_hash_file(h, nvcc);
    fclose(f);
  }
  for (char **e = environ; e && *e; e++)
    if (!env_ignored(*e))
      h = tc_cache_hash_str(h, *e);
  return h;
}

/* The stamp of the nvcc that facts say answered (the real one, where nvcc on PATH is a
   wrapper): _HERE_/nvcc and _HERE_/nvcc.profile, else TOP/bin's. A toolkit replaced,
   upgraded or re-linked in place changes it. */
static uint64_t probe_stamp(const char *facts)
{
  char w[PATH_MAX], path[PATH_MAX + 32];
  const char *here = strstr(facts, "#$ _HERE_="), *top = strstr(facts, "#$ TOP=");
  const char *p = here ? here + 10 : top ? top + 7 : NULL;
  uint64_t h = TC_CACHE_SEED;
  if (!p || !next_word(&p, w, sizeof w))
    return tc_cache_hash_str(h, "(no folder)");
  snprintf(path, sizeof path, here ? "%s/nvcc" : "%s/bin/nvcc", w);
  h = tc_cache_hash_stamp(h, path);
  snprintf(path, sizeof path, here ? "%s/nvcc.profile" : "%s/bin/nvcc.profile", w);
  return tc_cache_hash_stamp(h, path);
}

/* What a probe of one nvcc learnt. */
struct probe {
  char nvcc[PATH_MAX];          /* the path asked about ("": none yet) */
  struct tc_toolkit tk;
  int rc;                       /* tc_toolkit_find's */
  char version[128];            /* tc_toolkit_version's */
};

static struct probe memo;       /* the last nvcc probed in this process */

/* An entry of the cache (kind "toolkit") is text: "stamp HEX\n", "version LINE\n", then the
   dryrun's facts (keep_facts). Read into pr when whole and its stamp is the toolkit's now.
   Returns 0, or -1 (pr then untouched). */
static int probe_load(uint64_t key, struct probe *pr)
{
  char *text = NULL;
  size_t len = 0;
  if (tc_cache_blob_load("toolkit", key, &text, &len))
    return -1;
  int rc = -1;
  unsigned long long stamp = 0;
  char *facts = strchr(text, '\n');
  char *vl = facts ? facts + 1 : NULL;
  facts = vl ? strchr(vl, '\n') : NULL;
  if (facts && sscanf(text, "stamp %16llx\n", &stamp) == 1 && !strncmp(vl, "version ", 8) &&
      stamp == probe_stamp(facts + 1)) {
    struct tc_toolkit tk;
    memset(&tk, 0, sizeof tk);
    if (read_facts(facts + 1, &tk) == 0) {
      size_t vn = (size_t)(facts - (vl + 8));
      if (vn < sizeof pr->version) {
        memcpy(pr->version, vl + 8, vn);
        pr->version[vn] = 0;
        pr->tk = tk;
        pr->rc = 0;
        rc = 0;
      }
    }
  }
  free(text);
  return rc;
}

/* Probe nvcc into pr: from the cache, else by asking it (and the answer kept when the
   dryrun said where the toolkit is), else from NVIDIA's layout. */
static void probe(const char *nvcc, struct probe *pr)
{
  static char facts[1 << 14];
  memset(pr, 0, sizeof *pr);
  uint64_t key = probe_key(nvcc);
  if (probe_load(key, pr) == 0)
    return;
  pr->rc = ask_nvcc(nvcc, &pr->tk, facts, sizeof facts);
  ask_version(nvcc, pr->version, sizeof pr->version);
  if (pr->rc == 0 && facts[0]) {
    size_t cap = strlen(facts) + sizeof pr->version + 64;
    char *text = malloc(cap);
    if (text) {
      int w = snprintf(text, cap, "stamp %016llx\nversion %s\n%s",
                       (unsigned long long)probe_stamp(facts), pr->version, facts);
      if (w > 0 && (size_t)w < cap)
        tc_cache_blob_store("toolkit", key, text, (size_t)w);
      free(text);
    }
  }
  if (pr->rc) {
    memset(&pr->tk, 0, sizeof pr->tk);
    pr->rc = from_layout(nvcc, &pr->tk);
    if (pr->rc)
      memset(&pr->tk, 0, sizeof pr->tk);
  }
}

/* The probe of nvcc: this process's memo, else probed (and remembered when the path fits). */
static const struct probe *probe_of(const char *nvcc)
{
  static struct probe fresh;
  if (memo.nvcc[0] && !strcmp(memo.nvcc, nvcc))
    return &memo;
  probe(nvcc, &fresh);
  if (strlen(nvcc) < sizeof fresh.nvcc) {
    snprintf(fresh.nvcc, sizeof fresh.nvcc, "%s", nvcc);
    memo = fresh;
  }
  return &fresh;
}

int tc_toolkit_find(const char *nvcc, struct tc_toolkit *tk)
{
  const struct probe *pr = probe_of(nvcc);
  *tk = pr->tk;
  return pr->rc;
}

void tc_toolkit_version(const char *nvcc, char *buf, size_t n)
{
  snprintf(buf, n, "%s", probe_of(nvcc)->version);
}

void tc_toolkit_forget(void)
{
  memset(&memo, 0, sizeof memo);
}
