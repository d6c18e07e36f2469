/* handouts.c: the handouts' code examples are run, so they cannot go stale.
 *
 * The handouts are handouts/NN-*.md and docker/README.md.
 * Every ```cuda block (its first line names its file: `// NAME.cu: ...`) is compiled with
 * nvcc. Every ```sh block is run, command by command, in a scratch folder that looks like
 * the repository (labs, solutions, tests, harness and bin are links to it), with the
 * warplab under test: a command must not fail with a usage error (2) or a build error (3);
 * a lab run of the unfinished starter may fail its tests (1). Commands that need what a test
 * machine lacks are skipped and counted: docker, a GPU (ncu, --backend gpu), and make
 * (which would rebuild the project under test).
 *
 * The tcase handout_answers reads every handout against its lab's graded questions: no
 * answer may be stated in it, in a worked example, a table or a quoted measurement
 * (leak_check below says how a statement of an answer is recognised). */
#include <check.h>
#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e.h"

#define HANDOUT_TIMEOUT_S 300

#define MAX_HANDOUTS 32

static char handouts[MAX_HANDOUTS][256];
static int nhandouts;

/* Every handout: handouts/NN-*.md, and docker/README.md. */
static void find_handouts(void)
{
  DIR *d = opendir("handouts");
  struct dirent *e;
  nhandouts = 0;
  while (d && (e = readdir(d)) && nhandouts < MAX_HANDOUTS)
    if (e->d_name[0] >= '0' && e->d_name[0] <= '9' && strstr(e->d_name, ".md"))
      snprintf(handouts[nhandouts++], sizeof handouts[0], "handouts/%.200s", e->d_name);
  if (d)
    closedir(d);
  /* the Docker image's README shows commands too: they are run the same way */
  if (nhandouts < MAX_HANDOUTS && access("docker/README.md", R_OK) == 0)
    snprintf(handouts[nhandouts++], sizeof handouts[0], "docker/README.md");
}

/* Run cmd with /bin/sh in dir; returns the exit status, output in out. */
static int sh(const char *dir, const char *cmd, char *out, size_t n)
{
  /* bin/ on the PATH: the docs' plain `warplab` (the Docker image's) is the one under test */
  char *full = e2e_fmt("cd '%s' && PATH=\"$PWD/bin:$PATH\" && ( %s\n) 2>&1", dir, cmd);
  FILE *p = popen(full, "r");
  ck_assert_ptr_nonnull(p);
  size_t got = fread(out, 1, n - 1, p);
  out[got] = 0;
  char sink[4096];
  while (fread(sink, 1, sizeof sink, p) > 0)
    ;
  int st = pclose(p);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static int skipped(const char *cmd)
{
  while (*cmd == ' ')
    cmd++;
  return !strncmp(cmd, "docker", 6) || !strncmp(cmd, "make", 4) || !strncmp(cmd, "ncu", 3) ||
         !strncmp(cmd, "bash docker/", 12) || strstr(cmd, "--backend gpu") != NULL;
}

static void run_handout(const char *path)
{
  char *text = e2e_read_text(path);
  ck_assert_msg(text != NULL, "cannot read %s", path);
  char repo[PATH_MAX];
  ck_assert_ptr_nonnull(getcwd(repo, sizeof repo));
  const char *dir = e2e_tmp("handout");
  char out[8192];
  const char *links[] = {"labs", "solutions", "tests", "harness"};
  ck_assert_int_eq(sh(e2e_tmp(""), e2e_fmt("mkdir -p handout/bin"), out, sizeof out), 0);
  for (size_t i = 0; i < sizeof links / sizeof *links; i++)
    ck_assert_int_eq(sh(dir, e2e_fmt("ln -s '%s/%s' %s", repo, links[i], links[i]), out, sizeof out), 0);
  const char *wl = getenv("WARPLAB") ? getenv("WARPLAB") : "bin/warplab";
  ck_assert_int_eq(sh(dir, e2e_fmt("ln -s '%s/%s' bin/warplab", wl[0] == '/' ? "" : repo, wl), out,
                      sizeof out), 0);
  int line = 1, ran = 0, skip = 0, compiled = 0;
  const char *p = text;
  while (*p) {
    const char *eol = strchr(p, '\n');
    size_t len = eol ? (size_t)(eol - p) : strlen(p);
    int is_cuda = len >= 7 && !strncmp(p, "```cuda", 7), is_sh = len >= 5 && !strncmp(p, "```sh", 5);
    p = eol ? eol + 1 : p + len;
    line++;
    if (!is_cuda && !is_sh)
      continue;
    int start = line;
    const char *body = p;
    while (*p && strncmp(p, "```", 3)) {
      const char *e = strchr(p, '\n');
      p = e ? e + 1 : p + strlen(p);
      line++;
    }
    size_t blen = (size_t)(p - body);
    char *block = e2e_alloc(blen + 1);
    memcpy(block, body, blen);
    if (is_cuda) {
      char name[128] = "";
      ck_assert_msg(sscanf(block, "// %127[A-Za-z0-9_.-]:", name) == 1 && strstr(name, ".cu"),
                    "%s:%d: a cuda block must start with // NAME.cu:", path, start);
      const char *f = e2e_fmt("%s/%s", dir, name);
      FILE *fp = fopen(f, "w");
      ck_assert_ptr_nonnull(fp);
      fputs(block, fp);
      fclose(fp);
      int st = sh(dir, e2e_fmt("nvcc -arch=sm_90 -ptx -o /dev/null %s", name), out, sizeof out);
      ck_assert_msg(st == 0, "%s:%d: the example %s does not compile:\n%s", path, start, name, out);
      compiled++;
      continue;
    }
    /* sh: one command per line, backslash continuations joined */
    char *cmd = block;
    while (*cmd) {
      char *e = cmd;
      while (*e && !(*e == '\n' && (e == cmd || e[-1] != '\\')))
        e++;
      char saved = *e;
      *e = 0;
      for (char *q = cmd; *q; q++)
        if (*q == '\\' && q[1] == '\n')
          q[0] = q[1] = ' ';
      if (*cmd && *cmd != '#') {
        if (skipped(cmd)) {
          skip++;
        } else {
          int st = sh(dir, cmd, out, sizeof out);
          ck_assert_msg(st == 0 || st == 1, "%s:%d: `%s` exited %d:\n%s", path, start, cmd, st, out);
          ran++;
        }
      }
      if (!saved)
        break;
      cmd = e + 1;
    }
  }
  printf("e2e: %s: %d commands run, %d skipped (docker, make, GPU), %d CUDA examples compiled\n",
         path, ran, skip, compiled);
  ck_assert_int_gt(ran, 0);
}

START_TEST(handout_examples)
{
  run_handout(handouts[_i]);
}
END_TEST

/* ---- answers stated in a handout ----
 *
 * A handout must not state the answer to one of its lab's graded questions anywhere: not
 * beside the question's label (tests/e2e/lab.c checks that) and not in a worked example, a
 * diagram, a table or a measured figure elsewhere. For each question of labs/NN/lab.json
 * (rubric.questions.items) the checker reads the handout in units, a sentence of prose, a
 * line of a code block or a table row (with its header), and flags a unit that
 *   - states the answer: a number equal to it within the question's tolerance ("4", "4.0",
 *     "1,024", "50%", "0.5" for 50 percent, "11.9 KB" for 11,938 bytes, "two", "twice",
 *     "half"), with a word of the question's unit in the 5 words after it, in the 6 before
 *     it, or in the header of its table column when the cell is just the number, and not
 *     one of a list of figures ("64, 32, 16 and 8 warps", the cases of a sweep) or the
 *     number of a thing ("version 6", "exercise 3"), and not a figure that a question of
 *     the lab gives, with the same word beside it ("written for 32 lanes", "4 cycles");
 *     and
 *   - is about the same case: it holds the question's own figures, each of its block
 *     shapes ("16 x 16", "16x16") if it has any, else at least one of its other
 *     parameters, a number with a neighbouring word ("768 threads", "stride 12") or a
 *     name ("BY_WARP", "chain.cu"). Parameters other than shapes that three or more
 *     questions of the lab share ("32-byte sectors"), and names the handout uses more
 *     than LEAK_NAME_EVERYWHERE times ("H200"), say nothing about which question a
 *     unit is about and are left out.
 * The units that carry the question's own label [qN, ...] are the question itself: they
 * state its given figures, not its answer, and are not checked for it. */

#define LEAK_MAX_TOKENS 256
#define LEAK_MAX_PARAMS 24
#define LEAK_WORD 24
#define LEAK_NAME_EVERYWHERE 30     /* uses of a name in a handout that make it no case's */

/* A number written in the text: its value (and, for "A x B", B), where it is, and how
   it is written. */
struct leak_num {
  double v, v2;
  size_t at, end;           /* offsets in the unit */
  int shape;                /* "A x B" */
  int pct;                  /* followed by % */
  double scale[4];          /* other values the suffix allows (KB: 1000 and 1024 times) */
  int nscale;
};

/* A parameter of a question: a number and the words beside it, a shape, or a name. */
struct leak_param {
  enum { LEAK_NUM, LEAK_SHAPE, LEAK_NAME } kind;
  double v, v2;
  char prev[LEAK_WORD], next[LEAK_WORD], name[48];
  int generic;
};

static int leak_isword(int c)
{
  return isalnum(c) || c == '_';
}

/* The word stem at s (lower case, no trailing 's', at most LEAK_WORD - 1 letters). */
static void leak_stem(const char *s, size_t len, char *out)
{
  size_t k = 0;
  for (size_t i = 0; i < len && k + 1 < LEAK_WORD && (isalpha((unsigned char)s[i])); i++)
    out[k++] = (char)tolower((unsigned char)s[i]);
  if (k > 3 && out[k - 1] == 's')
    k--;
  out[k] = 0;
}

static const char *const leak_stop[] = {"of", "at", "the", "a", "an", "in", "per", "with",
                                        "and", "to", "on", "for", "is", "its", "each", "one",
                                        "by", "as", "from", "than", "how", "many", "what", NULL};

static int leak_stopword(const char *w)
{
  for (int i = 0; leak_stop[i]; i++)
    if (!strcmp(w, leak_stop[i]))
      return 1;
  return 0;
}

/* The nearest word before offset at (dir < 0) or after end (dir > 0) in t[0, len), not a
   stop word, not across a clause mark; empty when there is none. */
static void leak_neighbour(const char *t, size_t len, size_t at, size_t end, int dir, char *out)
{
  out[0] = 0;
  if (dir > 0) {
    size_t i = end;
    for (int words = 0; words < 3 && i < len; words++) {
      while (i < len && (isspace((unsigned char)t[i]) || t[i] == '-' || t[i] == '*' || t[i] == '`'))
        i++;
      if (i >= len || !isalpha((unsigned char)t[i]))
        return;
      size_t s = i;
      while (i < len && leak_isword((unsigned char)t[i]))
        i++;
      leak_stem(t + s, i - s, out);
      if (out[0] && !leak_stopword(out))
        return;
      out[0] = 0;
    }
    return;
  }
  size_t i = at;
  for (int words = 0; words < 3 && i > 0; words++) {
    while (i > 0 && (isspace((unsigned char)t[i - 1]) || t[i - 1] == '*' || t[i - 1] == '`' ||
                     t[i - 1] == '='))
      i--;
    if (i == 0 || !isalpha((unsigned char)t[i - 1]))
      return;
    size_t e = i;
    while (i > 0 && leak_isword((unsigned char)t[i - 1]))
      i--;
    leak_stem(t + i, e - i, out);
    if (out[0] && !leak_stopword(out))
      return;
    out[0] = 0;
  }
}

static int leak_word_at(const char *t, size_t len, size_t i, const char *w)
{
  size_t n = strlen(w);
  return i + n <= len && !strncasecmp(t + i, w, n) && (i == 0 || !isalpha((unsigned char)t[i - 1])) &&
         (i + n == len || !isalpha((unsigned char)t[i + n]));
}

/* The numbers written in t[0, len) into v (at most max); returns how many. */
static int leak_numbers(const char *t, size_t len, struct leak_num *v, int max)
{
  static const struct { const char *w; double v; } words[] = {
    {"one", 1}, {"two", 2}, {"three", 3}, {"four", 4}, {"five", 5}, {"six", 6}, {"seven", 7},
    {"eight", 8}, {"nine", 9}, {"ten", 10}, {"twelve", 12}, {"sixteen", 16},
    {"thirty-two", 32}, {"sixty-four", 64}, {"twice", 2}, {"double", 2}, {"half", 0.5},
    {"all", 100}};
  int n = 0;
  for (size_t i = 0; i < len && n < max; i++) {
    int w = 0;
    for (size_t k = 0; k < sizeof words / sizeof *words; k++)
      if (leak_word_at(t, len, i, words[k].w)) {
        struct leak_num *x = &v[n++];
        memset(x, 0, sizeof *x);
        x->v = words[k].v;
        x->at = i;
        x->end = i + strlen(words[k].w);
        x->pct = !strcmp(words[k].w, "half") || !strcmp(words[k].w, "all");
        if (!strcmp(words[k].w, "all") && !(x->end + 1 < len && t[x->end] == ' ' &&
                                             !strncmp(t + x->end + 1, "of", 2)))
          n--;                                 /* "all of" a quantity, as 100% */
        i = x->end - 1;
        w = 1;
        break;
      }
    if (w || !isdigit((unsigned char)t[i]) ||
        (i && (leak_isword((unsigned char)t[i - 1]) || t[i - 1] == '.')))
      continue;
    char buf[64];
    size_t k = 0, s = i;
    while (i < len && k + 1 < sizeof buf &&
           (isdigit((unsigned char)t[i]) ||
            ((t[i] == ',' || t[i] == '.') && i + 1 < len && isdigit((unsigned char)t[i + 1]) &&
             (t[i] == '.' || (i + 3 < len + 0 && isdigit((unsigned char)t[i + 2]) &&
                              isdigit((unsigned char)t[i + 3])))))) {
      if (t[i] != ',')
        buf[k++] = t[i];
      i++;
    }
    buf[k] = 0;
    struct leak_num x;
    memset(&x, 0, sizeof x);
    x.v = strtod(buf, NULL);
    x.at = s;
    /* "A x B", "AxB", "A×B" */
    size_t j = i;
    while (j < len && t[j] == ' ')
      j++;
    size_t cross = 0;
    if (j < len && t[j] == 'x')
      cross = 1;
    else if (j + 1 < len && (unsigned char)t[j] == 0xC3 && (unsigned char)t[j + 1] == 0x97)
      cross = 2;
    if (cross) {
      size_t m = j + cross;
      while (m < len && t[m] == ' ')
        m++;
      if (m < len && isdigit((unsigned char)t[m])) {
        x.shape = 1;
        x.v2 = strtod(t + m, NULL);
        while (m < len && isdigit((unsigned char)t[m]))
          m++;
        i = m;
      }
    }
    if (!x.shape && i < len && isalpha((unsigned char)t[i])) {
      /* a unit of size right after the number, another unit (4x, 5ms), or a name such as
         2l or 1st, which is not a number */
      static const struct { const char *s; double f1, f2; } suf[] = {
        {"KiB", 1024, 1024}, {"KB", 1000, 1024}, {"K", 1000, 1024}, {"MiB", 1048576, 1048576},
        {"MB", 1e6, 1048576}, {"M", 1e6, 1048576}, {"GB", 1e9, 1073741824}, {"ms", 0, 0},
        {"us", 0, 0}, {"x", 0, 0}, {"B", 0, 0}};
      size_t e = i;
      while (e < len && isalpha((unsigned char)t[e]))
        e++;
      int known = 0;
      for (size_t q = 0; q < sizeof suf / sizeof *suf; q++)
        if (strlen(suf[q].s) == e - i && !strncmp(t + i, suf[q].s, e - i)) {
          known = 1;
          if (suf[q].f1 > 0) {
            x.scale[x.nscale++] = x.v * suf[q].f1;
            x.scale[x.nscale++] = x.v * suf[q].f2;
          }
        }
      if (!known)
        continue;
    }
    if (!x.shape)
      for (size_t m = i; m + 1 < len && t[m] == ' '; m++)
        for (size_t q = 0; q < 3; q++) {
          static const char *const sz[] = {"KB", "MB", "GB"};
          static const double f[] = {1e3, 1e6, 1e9};
          if (leak_word_at(t, len, m + 1, sz[q]) && x.nscale < 2) {
            x.scale[x.nscale++] = x.v * f[q];
            x.scale[x.nscale++] = x.v * (q == 0 ? 1024.0 : q == 1 ? 1048576.0 : 1073741824.0);
          }
        }
    j = i;
    while (j < len && t[j] == ' ')
      j++;
    if (j < len && t[j] == '%') {
      x.pct = 1;
      i = j + 1;
    }
    x.end = i;
    v[n++] = x;
    i = i ? i - 1 : 0;
  }
  return n;
}

/* Nonzero when the words of t[0, len) include one whose stem is stem. */
static int leak_has_stem(const char *t, size_t len, const char *stem)
{
  for (size_t i = 0; i < len; i++) {
    if (!isalpha((unsigned char)t[i]) || (i && leak_isword((unsigned char)t[i - 1])))
      continue;
    size_t e = i;
    while (e < len && leak_isword((unsigned char)t[e]))
      e++;
    char w[LEAK_WORD];
    leak_stem(t + i, e - i, w);
    if (!strncmp(w, stem, strlen(stem)) && strlen(stem) >= 2)
      return 1;
    i = e;
  }
  return 0;
}

/* The words that name a unit ("sectors per request": sector; "percent": %). */
static int leak_unit_stems(const char *unit, char stems[][LEAK_WORD], int max)
{
  int n = 0;
  const char *p = unit;
  while (*p && n < max) {
    while (*p && !isalpha((unsigned char)*p))
      p++;
    const char *s = p;
    while (*p && isalpha((unsigned char)*p))
      p++;
    if (p == s)
      break;
    char w[LEAK_WORD];
    leak_stem(s, (size_t)(p - s), w);
    if (!strcmp(w, "per") || !strcmp(w, "as") || !strcmp(w, "fetched"))
      break;                                    /* "warps per SM": the warps are the unit */
    if (!strcmp(w, "atomicadd"))
      snprintf(w, sizeof w, "atomic");
    if (!strcmp(w, "microsecond"))
      snprintf(stems[n++], LEAK_WORD, "us");
    if (!strcmp(w, "time") && n < max)
      snprintf(stems[n++], LEAK_WORD, "long");
    if (n < max)
      snprintf(stems[n++], LEAK_WORD, "%s", w);
  }
  return n;
}

/* Nonzero when the number x of unit u states the answer of q: equal within tolerance,
   with a word of its unit beside it (or in header, its table column's heading). */
static int leak_states(const char *u, size_t len, const struct leak_num *x, const char *header,
                       double answer, double tol, const char *unit)
{
  int percent = !strcmp(unit, "percent");
  double vals[6];
  int nv = 0;
  if (x->shape)
    return 0;
  vals[nv++] = x->v;
  for (int i = 0; i < x->nscale; i++)
    vals[nv++] = x->scale[i];
  if (percent && x->v <= 1 && !x->pct)
    vals[nv++] = 100 * x->v;                   /* 0.5 for 50% */
  int equal = 0;
  for (int i = 0; i < nv; i++)
    equal |= fabs(vals[i] - answer) <= (tol > 1e-9 ? tol : 1e-9);
  if (!equal)
    return 0;
  if (percent)
    return x->pct || (x->end < len && leak_has_stem(u + x->end, len - x->end < 12 ? len - x->end
                                                                                   : 12, "percent"));
  char stems[6][LEAK_WORD];
  int ns = leak_unit_stems(unit, stems, 6);
  for (int i = 0; i < ns; i++)
    if (x->nscale && !strcmp(stems[i], "byte"))
      return 1;                                 /* "11.9 KB" */
  /* the 5 words after it, the 6 before */
  size_t after = x->end, words = 0;
  while (after < len && words < 5) {
    while (after < len && !leak_isword((unsigned char)u[after]) && (unsigned char)u[after] < 0x80)
      after++;
    while (after < len && (leak_isword((unsigned char)u[after]) || (unsigned char)u[after] >= 0x80))
      after++;
    words++;
  }
  size_t before = x->at;
  words = 0;
  while (before > 0 && words < 6) {
    while (before > 0 && !leak_isword((unsigned char)u[before - 1]))
      before--;
    while (before > 0 && leak_isword((unsigned char)u[before - 1]))
      before--;
    words++;
  }
  for (int i = 0; i < ns; i++) {
    if (leak_has_stem(u + x->end, after - x->end, stems[i]) ||
        leak_has_stem(u + before, x->at - before, stems[i]) ||
        (header && leak_has_stem(header, strlen(header), stems[i])))
      return 1;
  }
  return 0;
}

/* The parameters of a question's text into p (at most max); returns how many. */
static int leak_params(const char *q, struct leak_param *p, int max)
{
  size_t len = strlen(q);
  struct leak_num v[64];
  int n = leak_numbers(q, len, v, 64), np = 0;
  for (int i = 0; i < n && np < max; i++) {
    struct leak_param *x = &p[np];
    memset(x, 0, sizeof *x);
    x->v = v[i].v;
    x->v2 = v[i].v2;
    x->kind = v[i].shape ? LEAK_SHAPE : LEAK_NUM;
    leak_neighbour(q, len, v[i].at, v[i].end, -1, x->prev);
    leak_neighbour(q, len, v[i].at, v[i].end, 1, x->next);
    if (x->kind == LEAK_SHAPE || x->prev[0] || x->next[0])
      np++;
  }
  /* names: BY_WARP, chain.cu, float2, wave64, AoS, Fermi (a capital after the first letter,
     a digit after letters, an underscore, a file name) */
  for (size_t i = 0; i < len && np < max; i++) {
    if (!isalpha((unsigned char)q[i]) || (i && (leak_isword((unsigned char)q[i - 1]) || q[i - 1] == '.')))
      continue;
    size_t e = i;
    int caps = 0, digit = 0, under = 0;
    while (e < len && (leak_isword((unsigned char)q[e]) ||
                       (q[e] == '.' && e + 1 < len && isalpha((unsigned char)q[e + 1])))) {
      caps += e > i && isupper((unsigned char)q[e]);
      digit |= isdigit((unsigned char)q[e]);
      under |= q[e] == '_' || q[e] == '.';
      e++;
    }
    if ((caps || digit || under) && e - i >= 3 && e - i < sizeof p->name) {
      struct leak_param *x = &p[np++];
      memset(x, 0, sizeof *x);
      x->kind = LEAK_NAME;
      memcpy(x->name, q + i, e - i);
    }
    i = e;
  }
  return np;
}

/* Nonzero when the parameters a and b are the same. */
static int leak_same_param(const struct leak_param *a, const struct leak_param *b)
{
  if (a->kind != b->kind)
    return 0;
  if (a->kind == LEAK_NAME)
    return !strcmp(a->name, b->name);
  if (a->v != b->v || a->v2 != b->v2)
    return 0;
  return a->kind == LEAK_SHAPE || (a->prev[0] && !strcmp(a->prev, b->prev)) ||
         (a->next[0] && !strcmp(a->next, b->next));
}

/* Nonzero when unit u (or its table header) holds parameter p, other than at the number
   that states the answer (the offset skip). */
static int leak_holds(const char *u, size_t len, const char *header, const struct leak_param *p,
                      size_t skip)
{
  if (p->kind == LEAK_NAME) {
    size_t n = strlen(p->name);
    for (const char *s = u; (s = strstr(s, p->name)) && (size_t)(s - u) + n <= len; s++)
      if ((s == u || !leak_isword((unsigned char)s[-1])) && !leak_isword((unsigned char)s[n]))
        return 1;
    return header && strstr(header, p->name) != NULL;
  }
  for (int pass = 0; pass < 2; pass++) {
    const char *t = pass ? header : u;
    if (!t)
      continue;
    size_t tl = pass ? strlen(t) : len;
    struct leak_num v[LEAK_MAX_TOKENS];
    int n = leak_numbers(t, tl, v, LEAK_MAX_TOKENS);
    for (int i = 0; i < n; i++) {
      if ((!pass && v[i].at == skip) || !isdigit((unsigned char)t[v[i].at]))
        continue;
      struct leak_param x;
      memset(&x, 0, sizeof x);
      x.kind = v[i].shape ? LEAK_SHAPE : LEAK_NUM;
      x.v = v[i].v;
      x.v2 = v[i].v2;
      if (x.kind == LEAK_NUM) {
        char prev[LEAK_WORD], next[LEAK_WORD];
        leak_neighbour(t, tl, v[i].at, v[i].end, -1, prev);
        leak_neighbour(t, tl, v[i].at, v[i].end, 1, next);
        /* a parameter's word on either side: "stride 2", "768 threads", "blocks of 768" */
        if (x.v == p->v && ((p->prev[0] && (!strcmp(prev, p->prev) || !strcmp(next, p->prev))) ||
                            (p->next[0] && (!strcmp(next, p->next) || !strcmp(prev, p->next)))))
          return 1;
        continue;
      }
      if (leak_same_param(&x, p))
        return 1;
    }
  }
  return 0;
}

struct leak_question {
  const char *id, *text, *unit;
  double answer, tol;
};

/* Checks one unit u[0, len) (header: its table's header row, or NULL) for the answer of q
   with parameters p; returns the offset of the number that states it, or -1. */
static long leak_unit(const char *u, size_t len, const char *header, const struct leak_question *q,
                      const struct leak_param *p, int np, const struct leak_param *given_p,
                      int ngiven)
{
  int shapes = 0, others = 0;
  for (int i = 0; i < np; i++)
    if (!p[i].generic)
      *(p[i].kind == LEAK_SHAPE ? &shapes : &others) += 1;
  if (!shapes && !others)
    return -1;
  struct leak_num v[LEAK_MAX_TOKENS];
  int n = leak_numbers(u, len, v, LEAK_MAX_TOKENS);
  for (int i = 0; i < n; i++) {
    /* a table cell's column header */
    char col[256] = "";
    if (header && u[0] == '|') {
      int c = 0;
      for (size_t k = 0; k < v[i].at; k++)
        c += u[k] == '|';
      const char *h = header;
      for (int k = 0; k + 1 < c && h; k++)
        h = strchr(h + 1, '|');
      if (h) {
        const char *e = strchr(h + 1, '|');
        size_t hl = e ? (size_t)(e - h - 1) : strlen(h + 1);
        snprintf(col, sizeof col, "%.*s", (int)(hl < sizeof col ? hl : sizeof col - 1), h + 1);
      }
    }
    /* a column's heading names the unit of a cell that is just the number */
    int bare = 0;
    if (col[0]) {
      size_t a = v[i].at, b = v[i].end;
      while (a > 0 && strchr(" *", u[a - 1]))
        a--;
      while (b < len && strchr(" *%", u[b]))
        b++;
      bare = a > 0 && u[a - 1] == '|' && b < len && u[b] == '|';
    }
    /* one of a list of figures ("64, 32, 16, 8 and 4 warps"): the cases, not an answer */
    size_t b = v[i].end;
    int listed = (b + 2 < len && u[b] == ',' && u[b + 1] == ' ' && isdigit((unsigned char)u[b + 2])) ||
                 (v[i].at >= 3 && u[v[i].at - 1] == ' ' && u[v[i].at - 2] == ',' &&
                  isdigit((unsigned char)u[v[i].at - 3]));
    /* the number of a thing, not a quantity: "version 6", "lab 04", "exercise 3" */
    static const char *const labels[] = {"version", "lab", "exercise", "listing", "line",
                                         "figure", "table", "chapter", "section", NULL};
    char prev[LEAK_WORD];
    leak_neighbour(u, len, v[i].at, v[i].end, -1, prev);
    int label = 0;
    for (int k = 0; labels[k]; k++)
      label |= v[i].at && isspace((unsigned char)u[v[i].at - 1]) && !strcmp(prev, labels[k]);
    /* a given figure of this or another question of the lab ("a warp sum written for 32
       lanes" when the answer is 32 lanes too, "4 cycles"): a number with a neighbouring
       word that a question states */
    int given = 0;
    if (isdigit((unsigned char)u[v[i].at]) && !v[i].shape) {
      struct leak_param x;
      memset(&x, 0, sizeof x);
      x.kind = LEAK_NUM;
      x.v = v[i].v;
      leak_neighbour(u, len, v[i].at, v[i].end, -1, x.prev);
      leak_neighbour(u, len, v[i].at, v[i].end, 1, x.next);
      for (int k = 0; k < ngiven && !given; k++)
        given = given_p[k].kind == LEAK_NUM && leak_same_param(&x, &given_p[k]);
    }
    if (given || label || listed || !leak_states(u, len, &v[i], bare ? col : NULL, q->answer, q->tol, q->unit))
      continue;
    int all_shapes = 1, other = 0;
    for (int k = 0; k < np; k++) {
      if (p[k].generic)
        continue;
      int has = leak_holds(u, len, header, &p[k], v[i].at);
      if (p[k].kind == LEAK_SHAPE)
        all_shapes &= has;
      else
        other |= has;
    }
    if (all_shapes && (other || shapes || !others))
      return (long)v[i].at;
  }
  return -1;
}

/* The answers of questions q[0, nq) that text states outside their own labels: one line
   per leak ("q4 line 138: ...") into report; returns how many. */
static int leak_check(const char *text, const struct leak_question *q, int nq, char *report,
                      size_t rlen)
{
  int leaks = 0;
  size_t used = 0;
  report[0] = 0;
  /* e2e_alloc zeroes: unused slots are numbers with no words, which match nothing */
  struct leak_param *params = e2e_alloc(sizeof *params * LEAK_MAX_PARAMS * (size_t)(nq ? nq : 1));
  int *np = e2e_alloc(sizeof *np * (size_t)(nq ? nq : 1));
  for (int i = 0; i < nq; i++)
    np[i] = leak_params(q[i].text, params + i * LEAK_MAX_PARAMS, LEAK_MAX_PARAMS);
  /* a parameter three or more questions share is not one question's (a block shape is:
     questions on one shape differ in their units); nor is a name the handout uses
     everywhere */
  for (int i = 0; i < nq; i++)
    for (int k = 0; k < np[i]; k++) {
      int shared = 0;
      for (int j = 0; j < nq; j++)
        for (int m = 0; m < np[j]; m++)
          if (leak_same_param(&params[i * LEAK_MAX_PARAMS + k], &params[j * LEAK_MAX_PARAMS + m])) {
            shared++;
            break;
          }
      struct leak_param *x = &params[i * LEAK_MAX_PARAMS + k];
      x->generic = shared >= 3 && x->kind != LEAK_SHAPE;
      /* a name the handout uses everywhere ("H200", lab 03's "UNROLL") is not one case's */
      int uses = 0;
      if (x->kind == LEAK_NAME)
        for (const char *c = strstr(text, x->name); c; c = strstr(c + 1, x->name))
          uses++;
      x->generic |= uses > LEAK_NAME_EVERYWHERE;
    }
  /* the units: a sentence of a paragraph, a line of a code block, a table row */
  size_t len = strlen(text);
  int fence = 0;
  const char *header = NULL;
  size_t header_len = 0;
  const char *para = NULL;
  for (size_t at = 0; at <= len;) {
    const char *line = text + at;
    const char *eol = strchr(line, '\n');
    size_t ll = eol ? (size_t)(eol - line) : len - at;
    const char *s = line;
    while (*s == ' ' && s < line + ll)
      s++;
    int blank = s == line + ll, is_fence = !strncmp(s, "```", 3), row = !fence && *s == '|';
    int item = !fence && ((*s == '-' && s[1] == ' ') || (isdigit((unsigned char)*s) && s[1] == '.') ||
                          *s == '#');
    /* a paragraph ends at a blank line, a fence, a table row, a list item or a heading */
    if (para && (blank || is_fence || row || item || fence || at >= len)) {
      const char *pe = text + at;
      for (const char *u = para; u < pe;) {
        const char *e = u;
        while (e < pe && !(strchr(".?!", *e) && (e + 1 == pe || isspace((unsigned char)e[1]))))
          e++;
        if (e < pe)
          e++;
        for (int i = 0; i < nq; i++) {
          char *own = e2e_fmt("[%s,", q[i].id);
          char *own2 = e2e_fmt("[%s]", q[i].id);
          char *unit = e2e_fmt("%.*s", (int)(e - u), u);
          if (strstr(unit, own) || strstr(unit, own2))
            continue;
          long off = leak_unit(unit, strlen(unit), NULL, &q[i], params + i * LEAK_MAX_PARAMS, np[i],
                                params, nq * LEAK_MAX_PARAMS);
          if (off >= 0 && used + 1 < rlen) {
            int line_no = 1;
            for (const char *c = text; c < u + off; c++)
              line_no += *c == '\n';
            used += (size_t)snprintf(report + used, rlen - used, "%s (answer %g) line %d: %s\n",
                                     q[i].id, q[i].answer, line_no, unit);
            if (used >= rlen)
              used = rlen - 1;
            leaks++;
          }
        }
        u = e;
      }
      para = NULL;
    }
    if (!row)
      header = NULL;
    if (is_fence)
      fence = !fence;
    else if (row) {
      if (!header) {
        header = line;
        header_len = ll;
      }
    } else if (!blank && !fence && !para)
      para = line;
    if ((fence && !is_fence) || (row && header != line)) {
      /* one line of a code block, one table row with its header */
      char *h = row ? e2e_fmt("%.*s", (int)header_len, header) : NULL;
      char *unit = e2e_fmt("%.*s", (int)ll, line);
      for (int i = 0; i < nq; i++) {
        if (strstr(unit, e2e_fmt("[%s,", q[i].id)) || strstr(unit, e2e_fmt("[%s]", q[i].id)))
          continue;
        long off = leak_unit(unit, ll, h, &q[i], params + i * LEAK_MAX_PARAMS, np[i],
                                params, nq * LEAK_MAX_PARAMS);
        if (off >= 0 && used + 1 < rlen) {
          int line_no = 1;
          for (const char *c = text; c < line; c++)
            line_no += *c == '\n';
          used += (size_t)snprintf(report + used, rlen - used, "%s (answer %g) line %d: %s\n",
                                   q[i].id, q[i].answer, line_no, unit);
          if (used >= rlen)
            used = rlen - 1;
          leaks++;
        }
      }
    }
    if (!eol)
      break;
    at += ll + 1;
  }
  return leaks;
}

/* A planted leak in each of the forms the checker reads (a worked example in prose, a
   diagram line, a table row, a fraction for a percent, KB for bytes) is found; the
   question's own sentence, the same figure for another case and a shared parameter are
   not leaks. */
START_TEST(handout_answer_checker)
{
  static const struct leak_question q[] = {
    {"q1", "Block 32x8, 32-byte sectors: sectors per request of the load of a?", "sectors per request", 4, 0},
    {"q2", "Blocks of 768 threads, 32 registers per thread: theoretical occupancy, in percent?", "percent", 75, 0.5},
    {"q3", "Stride 12 (lane l at word 12l): wavefronts per request?", "wavefronts per request", 4, 0},
    {"q4", "Block 8x8, 32-byte sectors: sectors per request of the load of a?", "sectors per request", 4, 0},
    {"q5", "At a DRAM latency of 650 cycles, how many bytes per SM?", "bytes", 11938, 120},
  };
  const int nq = (int)(sizeof q / sizeof *q);
  char report[4096];
  /* the questions asked, with their given figures, and no answer: clean */
  const char *clean =
    "# Lab\n\nPredict the sectors of 32 x 8 [q1, sectors per request] and 8 x 8 [q4, sectors "
    "per request]. Blocks of 768 threads [q2, percent]. Stride 12 [q3, wavefronts per request].\n"
    "A 64 x 4 block reads 4 sectors, one line. A 16 x 16 block: 4 sectors.\n"
    "Blocks of 512 threads fill 100%. At stride 6 it takes 2 wavefronts.\n\n"
    "| block | sectors / request |\n| --- | --- |\n| 64 x 4 | 4 |\n\n"
    "```\n16 x 16   row 0  |####|  two lines, 2 sectors each\n```\n"
    "At 650 cycles the DRAM needs bytes in flight [q5, bytes].\n";
  int n = leak_check(clean, q, nq, report, sizeof report);
  ck_assert_msg(n == 0, "flagged in a clean handout:\n%s", report);
  /* each planted form is caught, and for its own question */
  static const struct { const char *text, *id; } planted[] = {
    {"A 32 x 8 block's warp reads one line: 4 full sectors.\n", "q1"},
    {"```\n32x8     row 0  |########|  one line, four sectors\n```\n", "q1"},
    {"| block | sectors / request |\n| --- | --- |\n| 8 x 8 | 4.0 |\n", "q4"},
    {"768 threads are 24 warps, 2 blocks make 48 warps, so **75%**.\n", "q2"},
    {"With 768 threads per block the SM is 0.75 full: 0.75 of its warps, 75 percent.\n", "q2"},
    {"At stride 12 lanes 0, 8, 16 and 24 share bank 0: 4 wavefronts.\n", "q3"},
    {"At 650 cycles that is about 11.9 KB in flight per SM.\n", "q5"},
    {"At 650 cycles that is 11,938 bytes in flight per SM.\n", "q5"},
  };
  for (size_t i = 0; i < sizeof planted / sizeof *planted; i++) {
    n = leak_check(e2e_fmt("# Lab\n\n%s", planted[i].text), q, nq, report, sizeof report);
    ck_assert_msg(n >= 1 && !strncmp(report, planted[i].id, strlen(planted[i].id)) &&
                  report[strlen(planted[i].id)] == ' ',
                  "planted leak %zu of %s not found (%d): %s", i, planted[i].id, n, report);
  }
}
END_TEST

/* No handout states the answer to one of its lab's graded questions (see leak_check). */
START_TEST(handout_answers_not_stated)
{
  DIR *d = opendir("labs");
  ck_assert_ptr_nonnull(d);
  struct dirent *e;
  int labs = 0, total = 0;
  char *all = e2e_alloc(65536);
  size_t used = 0;
  while ((e = readdir(d))) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9')
      continue;
    json_t *lab = e2e_load_json(e2e_fmt("labs/%s/lab.json", e->d_name));
    json_t *items = e2e_j(lab, "rubric/questions/items");
    size_t nq = json_array_size(items);
    if (!nq) {
      json_decref(lab);
      continue;
    }
    labs++;
    struct leak_question *q = e2e_alloc(sizeof *q * nq);
    size_t i;
    json_t *it;
    json_array_foreach(items, i, it) {
      q[i].id = e2e_fmt("%s", json_string_value(json_object_get(it, "id")));
      q[i].text = e2e_fmt("%s", json_string_value(json_object_get(it, "question")));
      q[i].unit = e2e_fmt("%s", json_string_value(json_object_get(it, "unit")));
      q[i].answer = json_number_value(json_object_get(it, "answer"));
      q[i].tol = json_number_value(json_object_get(it, "tolerance"));
      ck_assert_msg(json_is_number(json_object_get(it, "answer")), "%s %s: no answer", e->d_name,
                    q[i].id);
    }
    json_decref(lab);
    char *text = e2e_read_text(e2e_fmt("handouts/%s.md", e->d_name));
    char report[16384];
    int n = leak_check(text, q, (int)nq, report, sizeof report);
    if (n && used + 1 < 65536)
      used += (size_t)snprintf(all + used, 65536 - used, "handouts/%s.md:\n%s", e->d_name, report);
    if (used >= 65536)
      used = 65535;
    total += n;
  }
  closedir(d);
  ck_assert_int_ge(labs, 7);
  if (total)
    printf("e2e: answers stated in the handouts:\n%s", all);
  fflush(stdout);
  ck_assert_msg(total == 0, "%d answers stated in the handouts (listed on stdout)", total);
}
END_TEST

void e2e_add_handout_tests(Suite *s)
{
  /* no nvcc needed: the handouts read against their labs' answers */
  TCase *answers = tcase_create("handout_answers");
  tcase_add_checked_fixture(answers, e2e_setup, e2e_teardown);
  tcase_add_test(answers, handout_answer_checker);
  tcase_add_test(answers, handout_answers_not_stated);
  suite_add_tcase(s, answers);
  if (!e2e_have_nvcc()) {
    printf("e2e: nvcc not found: SKIPPING the handout examples\n");
    return;
  }
  find_handouts();
  if (!nhandouts) {
    printf("e2e: no handouts found (run from the repository)\n");
    return;
  }
  TCase *tc = tcase_create("handouts");
  /* "long": the longest case, its code paths run by the others too; make asan leaves it out */
  tcase_set_tags(tc, "long");
  tcase_add_checked_fixture(tc, e2e_setup, e2e_teardown);
  tcase_set_timeout(tc, HANDOUT_TIMEOUT_S);
  tcase_add_loop_test(tc, handout_examples, 0, nhandouts);
  suite_add_tcase(s, tc);
}
