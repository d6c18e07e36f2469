/* release.c: the students' copy of an instructor's tree, and the reference figures it ships
 * in place of the solutions (see release.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grader/release.h"
#include "toolchain/tc_exec.h"

/* ---- files ---- */

static int mkdirs(const char *path, char *err, size_t errlen)
{
  char p[4096];
  snprintf(p, sizeof p, "%s", path);
  for (char *s = p + 1; ; s++) {
    if (*s != '/' && *s)
      continue;
    char c = *s;
    *s = 0;
    if (mkdir(p, 0755) != 0 && errno != EEXIST) {
      snprintf(err, errlen, "cannot make the folder %s: %s", p, strerror(errno));
      return -1;
    }
    *s = c;
    if (!c)
      return 0;
  }
}

static int copy_file(const char *src, const char *dst, mode_t mode, char *err, size_t errlen)
{
  if (mode == 0) {
    struct stat st;
    mode = stat(src, &st) == 0 ? st.st_mode : 0644;
  }
  int in = open(src, O_RDONLY | O_CLOEXEC);
  if (in < 0) {
    snprintf(err, errlen, "cannot read %s: %s", src, strerror(errno));
    return -1;
  }
  int out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode & 0777);
  if (out < 0) {
    snprintf(err, errlen, "cannot write %s: %s", dst, strerror(errno));
    close(in);
    return -1;
  }
  char buf[65536];
  ssize_t n;
  int rc = 0;
  while ((n = read(in, buf, sizeof buf)) > 0)
    if (write(out, buf, (size_t)n) != n) {
      snprintf(err, errlen, "cannot write %s: %s", dst, strerror(errno));
      rc = -1;
      break;
    }
  if (n < 0) {
    snprintf(err, errlen, "cannot read %s: %s", src, strerror(errno));
    rc = -1;
  }
  close(in);
  if (close(out) != 0 && !rc) {
    snprintf(err, errlen, "cannot write %s: %s", dst, strerror(errno));
    rc = -1;
  }
  return rc;
}

static int copy_below(const char *src, const char *dst, const char *rel,
                      int (*skip)(const char *, int), unsigned *files, char *err, size_t errlen)
{
  char s[4096], d[4096];
  snprintf(s, sizeof s, "%s%s%s", src, rel[0] ? "/" : "", rel);
  snprintf(d, sizeof d, "%s%s%s", dst, rel[0] ? "/" : "", rel);
  if (mkdirs(d, err, errlen))
    return -1;
  DIR *dir = opendir(s);
  if (!dir) {
    snprintf(err, errlen, "cannot open the folder %s: %s", s, strerror(errno));
    return -1;
  }
  struct dirent *e;
  int rc = 0;
  while (!rc && (e = readdir(dir))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
      continue;
    char r[4096], from[4096], to[4096];
    snprintf(r, sizeof r, "%s%s%s", rel, rel[0] ? "/" : "", e->d_name);
    snprintf(from, sizeof from, "%.2000s/%.2000s", src, r);
    snprintf(to, sizeof to, "%.2000s/%.2000s", dst, r);
    struct stat st;
    if (lstat(from, &st) != 0 || !(S_ISDIR(st.st_mode) || S_ISREG(st.st_mode)))
      continue;   /* links, sockets, what vanished: not copied */
    if (skip && skip(r, S_ISDIR(st.st_mode)))
      continue;
    if (S_ISDIR(st.st_mode)) {
      rc = copy_below(src, dst, r, skip, files, err, errlen);
    } else {
      rc = copy_file(from, to, st.st_mode, err, errlen);
      if (!rc && files)
        (*files)++;
    }
  }
  closedir(dir);
  return rc;
}

int release_copy_tree(const char *src, const char *dst, int (*skip)(const char *rel, int is_dir),
                      unsigned *files, char *err, size_t errlen)
{
  return copy_below(src, dst, "", skip, files, err, errlen);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
  (void)st; (void)flag; (void)f;
  remove(path);
  return 0;
}

int release_copy_file(const char *src, const char *dst, char *err, size_t errlen)
{
  return copy_file(src, dst, 0, err, errlen);
}

int release_mkdirs(const char *path, char *err, size_t errlen)
{
  return mkdirs(path, err, errlen);
}

void release_remove_tree(const char *path)
{
  nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* A whole file (at most max bytes), NUL-terminated; NULL when unreadable or bigger. */
static char *slurp(const char *path, size_t max, size_t *len)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  char *buf = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    if (n + 65536 + 1 > cap) {
      cap = cap ? 2 * cap : 131072;
      char *nb = realloc(buf, cap);
      if (!nb)
        break;
      buf = nb;
    }
    size_t got = fread(buf + n, 1, 65536, f);
    n += got;
    if (got == 0 || n > max)
      break;
  }
  fclose(f);
  if (!buf || n > max) {
    free(buf);
    return NULL;
  }
  buf[n] = 0;
  if (len)
    *len = n;
  return buf;
}

/* ---- what the release holds ---- */

/* The top of the tree: what students get. Everything else (solutions/, tests/, bench/, the
   build's outputs, results) stays with the instructor. */
static const char *const shipped[] = {"Makefile", "README.md", "harness", "grader", "plots",
                                      "handouts", "docker"};

/* Below labs/: every lab's lab.json is written stripped and any answers.json stays behind.
   Its measured/ (the instructor's runs of the solutions) and pictures/ (drawings, some of
   graded answers) are left out here: the files of them that a released page links to are
   shipped by ship_linked(), and nothing else of them. */
static int skip_in_labs(const char *rel, int is_dir)
{
  const char *base = strrchr(rel, '/');
  base = base ? base + 1 : rel;
  if (is_dir)
    return !strcmp(base, "measured") || !strcmp(base, "pictures") ||
           !strcmp(base, RELEASE_REFERENCE_DIR) || base[0] == '.';
  return !strcmp(base, "lab.json") || !strcmp(base, "answers.json");
}

static int skip_anywhere(const char *rel, int is_dir)
{
  const char *base = strrchr(rel, '/');
  base = base ? base + 1 : rel;
  return !strcmp(base, "answers.json") || !strcmp(base, ".git");
}

/* The folder of a result.json below dir (dir/LAB/STAMP-solution/result.json), into path. */
static int find_result(const char *dir, char *path, size_t n)
{
  DIR *d = opendir(dir);
  if (!d)
    return -1;
  struct dirent *e;
  int found = -1;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.')
      continue;
    char sub[4096];
    snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
    char cand[4200];
    snprintf(cand, sizeof cand, "%s/result.json", sub);
    if (access(cand, R_OK) == 0) {
      snprintf(path, n, "%s", sub);
      found = 0;
    } else if (found && find_result(sub, path, n) == 0) {
      found = 0;
    }
  }
  closedir(d);
  return found;
}

/* Run lab's solution on the emulator (tests and main size) with the warplab executable, and
   write its figures, without paths, build log or source lines, to OUT/labs/ID/reference-run/. */
static int reference_figures(const char *warplab, const char *home, const struct run_lab *lab,
                             const char *out, char *err, size_t errlen)
{
  char tmp[] = "/tmp/warplab-release-XXXXXX";
  if (!mkdtemp(tmp)) {
    snprintf(err, errlen, "cannot make a temporary folder: %s", strerror(errno));
    return -1;
  }
  char *argv[] = {(char *)warplab, "run", (char *)lab->id, "--solution", "--quick", "--backend",
                  "emu", "--json", "--results", tmp, NULL};
  char *log = malloc(1 << 20), path[4400];
  int rc = -1;
  if (!log) {
    snprintf(err, errlen, "out of host memory");
    goto out;
  }
  setenv("WARPLAB_HOME", home, 1);
  int st = tc_exec_capture(argv, NULL, log, 1 << 20);
  if (st != 0 || find_result(tmp, path, sizeof path)) {
    const char *tail = strlen(log) > 1500 ? log + strlen(log) - 1500 : log;
    snprintf(err, errlen, "the reference solution of lab %s did not pass on the emulator (exit "
             "%d): %s", lab->id, st, tail);
    goto out;
  }
  char dir[4200];
  snprintf(dir, sizeof dir, "%s/labs/%s/%s", out, lab->id, RELEASE_REFERENCE_DIR);
  if (mkdirs(dir, err, errlen) == 0)
    rc = run_result_ship(path, dir, "the reference solution's figures, shipped with the "
                         "students' copy (warplab release)", err, errlen);
out:
  free(log);
  release_remove_tree(tmp);
  return rc;
}

/* ---- what the released pages link to ---- */

/* The path below the tree's top that link, written in a page of the folder from_dir (below
   the top), names, into out: "../labs/x.png" from "handouts" is "labs/x.png". Returns 0, or
   -1 for an anchor, a URL, an absolute path or one above the top. */
static int link_resolve(const char *from_dir, const char *link, char *out, size_t n)
{
  if (!link[0] || link[0] == '#' || link[0] == '/' || strchr(link, ':'))
    return -1;   /* an anchor, an absolute path, a URL (http:, mailto:) */
  size_t len = strcspn(link, "#?");
  char path[4096];
  int w = snprintf(path, sizeof path, "%s%s%.*s", from_dir, from_dir[0] ? "/" : "", (int)len,
                   link);
  if (w < 0 || (size_t)w >= sizeof path || n == 0)
    return -1;
  size_t o = 0;
  out[0] = 0;
  for (char *seg = path; *seg;) {
    char *end = strchr(seg, '/');
    size_t sl = end ? (size_t)(end - seg) : strlen(seg);
    if (sl == 2 && !strncmp(seg, "..", 2)) {
      if (o == 0)
        return -1;   /* above the tree */
      while (o > 0 && out[o - 1] != '/')
        o--;
      o = o > 0 ? o - 1 : 0;
      out[o] = 0;
    } else if (sl && !(sl == 1 && seg[0] == '.')) {
      if (o + (o > 0) + sl + 1 > n)
        return -1;
      if (o > 0)
        out[o++] = '/';
      memcpy(out + o, seg, sl);
      o += sl;
      out[o] = 0;
    }
    seg = end ? end + 1 : seg + sl;
  }
  return o ? 0 : -1;
}

/* Copy home/rel to out/rel when rel is a file under labs/ that is not there yet (one of a
   measured/ or pictures/ folder) and that the release may hold: never a lab.json, an
   answers.json, a reference run or a hidden file. Returns 0 (copied, already there, or not such a file),
   or -1 with err when it could not be copied. */
static int ship_linked(const char *home, const char *out, const char *rel, unsigned *files,
                       char *err, size_t errlen)
{
  if (strncmp(rel, "labs/", 5) || strstr(rel, "/" RELEASE_REFERENCE_DIR "/") ||
      strstr(rel, "/."))
    return 0;   /* outside labs/, a reference run, a hidden file or folder */
  const char *base = strrchr(rel, '/') + 1;
  if (!strcmp(base, "lab.json") || !strcmp(base, "answers.json"))
    return 0;
  char from[4200], to[4200];
  snprintf(from, sizeof from, "%.2000s/%.2000s", home, rel);
  snprintf(to, sizeof to, "%.2000s/%.2000s", out, rel);
  struct stat st;
  if (lstat(from, &st) != 0 || !S_ISREG(st.st_mode) || lstat(to, &st) == 0)
    return 0;
  char dir[4200];
  snprintf(dir, sizeof dir, "%s", to);
  *strrchr(dir, '/') = 0;
  if (mkdirs(dir, err, errlen) || copy_file(from, to, 0, err, errlen))
    return -1;
  (*files)++;
  return 0;
}

/* Every markdown link and image `](target)` of the page at out/rel that resolves to a file
   under labs/, shipped with ship_linked(). */
static int ship_links_of(const char *home, const char *out, const char *rel, unsigned *files,
                         char *err, size_t errlen)
{
  char path[4200];
  snprintf(path, sizeof path, "%.2000s/%.2000s", out, rel);
  char *text = slurp(path, 16 << 20, NULL);
  if (!text)
    return 0;
  char dir[4096];
  snprintf(dir, sizeof dir, "%.4000s", rel);
  char *slash = strrchr(dir, '/');
  if (slash)
    *slash = 0;
  else
    dir[0] = 0;
  int rc = 0;
  for (char *p = strstr(text, "]("); p && !rc; p = strstr(p + 2, "](")) {
    char link[4096];
    size_t len = strcspn(p + 2, ") \t\n");
    if (len == 0 || len >= sizeof link)
      continue;
    memcpy(link, p + 2, len);
    link[len] = 0;
    char target[4096];
    if (link_resolve(dir, link, target, sizeof target) == 0)
      rc = ship_linked(home, out, target, files, err, errlen);
  }
  free(text);
  return rc;
}

static int is_md(const char *name)
{
  size_t n = strlen(name);
  return n > 3 && !strcmp(name + n - 3, ".md");
}

/* ship_links_of() for every .md file below out/rel. */
static int ship_links_below(const char *home, const char *out, const char *rel,
                            unsigned *files, char *err, size_t errlen)
{
  char path[4200];
  snprintf(path, sizeof path, "%.2000s%s%.2000s", out, rel[0] ? "/" : "", rel);
  DIR *d = opendir(path);
  if (!d)
    return 0;
  struct dirent *e;
  int rc = 0;
  while (!rc && (e = readdir(d))) {
    if (e->d_name[0] == '.')
      continue;
    char r[4200], full[8500];
    snprintf(r, sizeof r, "%.3000s%s%.1000s", rel, rel[0] ? "/" : "", e->d_name);
    snprintf(full, sizeof full, "%.4000s/%.4000s", out, r);
    struct stat st;
    if (lstat(full, &st) != 0)
      continue;
    if (S_ISDIR(st.st_mode))
      rc = ship_links_below(home, out, r, files, err, errlen);
    else if (S_ISREG(st.st_mode) && is_md(e->d_name))
      rc = ship_links_of(home, out, r, files, err, errlen);
  }
  closedir(d);
  return rc;
}

/* ---- the check: no solution code in what was written ---- */

/* text without comments and white space, in a new string */
static char *squeeze(const char *t)
{
  char *o = malloc(strlen(t) + 1), *w = o;
  if (!o)
    return NULL;
  while (*t) {
    if (t[0] == '/' && t[1] == '/') {
      while (*t && *t != '\n')
        t++;
    } else if (t[0] == '/' && t[1] == '*') {
      const char *e = strstr(t + 2, "*/");
      t = e ? e + 2 : t + strlen(t);
    } else {
      if (*t != ' ' && *t != '\t' && *t != '\n' && *t != '\r' && *t != '\f' && *t != '\v')
        *w++ = *t;
      t++;
    }
  }
  *w = 0;
  return o;
}

#define RELEASE_MAX_BODIES 256
#define RELEASE_MIN_BODY 32     /* shorter bodies ("{return a+b;}") prove nothing */

struct bodies {
  char *text[RELEASE_MAX_BODIES];
  char from[RELEASE_MAX_BODIES][512];
  unsigned n;
};

/* The bodies of the __global__ and __device__ functions of one solution file (squeezed), less
   those its lab's starter of the same name holds too. */
static void collect_bodies(const char *sol, const char *starter, struct bodies *b)
{
  char *raw = slurp(sol, 1 << 22, NULL);
  char *s = raw ? squeeze(raw) : NULL;
  char *raws = starter ? slurp(starter, 1 << 22, NULL) : NULL;
  char *st = raws ? squeeze(raws) : NULL;
  free(raw);
  free(raws);
  for (char *p = s; p && *p && b->n < RELEASE_MAX_BODIES;) {
    char *g = strstr(p, "__global__"), *d = strstr(p, "__device__");
    char *k = !g ? d : !d ? g : g < d ? g : d;
    if (!k)
      break;
    char *open = strchr(k, '{'), *semi = strchr(k, ';');
    p = k + 10;
    if (!open || (semi && semi < open))
      continue;   /* a declaration or a __device__ variable */
    int depth = 0;
    char *e = open;
    for (; *e; e++) {
      depth += *e == '{';
      depth -= *e == '}';
      if (!depth)
        break;
    }
    if (!*e)
      break;
    size_t len = (size_t)(e - open + 1);
    p = e + 1;
    if (len < RELEASE_MIN_BODY)
      continue;
    char *body = malloc(len + 1);
    if (!body)
      break;
    memcpy(body, open, len);
    body[len] = 0;
    if (st && strstr(st, body)) {
      free(body);
      continue;
    }
    b->text[b->n] = body;
    snprintf(b->from[b->n++], sizeof b->from[0], "%.500s", sol);
  }
  free(s);
  free(st);
}

static int check_below(const char *dir, const struct bodies *b, char *err, size_t errlen)
{
  DIR *d = opendir(dir);
  if (!d) {
    snprintf(err, errlen, "cannot read back %s: %s", dir, strerror(errno));
    return -1;
  }
  struct dirent *e;
  int rc = 0;
  while (!rc && (e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
      continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct stat st;
    if (lstat(path, &st) != 0)
      continue;
    if (S_ISDIR(st.st_mode)) {
      if (!strcmp(e->d_name, "solutions")) {
        snprintf(err, errlen, "%s: a solutions folder in the release", path);
        rc = -1;
      } else {
        rc = check_below(path, b, err, errlen);
      }
      continue;
    }
    if (!S_ISREG(st.st_mode))
      continue;
    if (!strcmp(e->d_name, "answers.json")) {
      snprintf(err, errlen, "%s: an answers.json in the release", path);
      rc = -1;
      continue;
    }
    size_t len = 0;
    char *t = slurp(path, (size_t)64 << 20, &len);
    if (!t) {
      snprintf(err, errlen, "cannot read back %s", path);
      rc = -1;
      continue;
    }
    char *sq = strlen(t) == len ? squeeze(t) : NULL;   /* a NUL: binary (a picture) */
    for (unsigned i = 0; sq && i < b->n && !rc; i++)
      if (strstr(sq, b->text[i])) {
        snprintf(err, errlen, "%s holds the body of a function of %s (the reference solution): "
                 "this is not a release students may have", path, b->from[i]);
        rc = -1;
      }
    free(sq);
    free(t);
  }
  closedir(d);
  return rc;
}

static int is_cu(const char *name)
{
  size_t n = strlen(name);
  return n > 3 && !strcmp(name + n - 3, ".cu");
}

/* Every function body of every solution under home/solutions, found in no file under out. */
static int check_release(const char *home, const char *out, struct release_summary *s,
                         char *err, size_t errlen)
{
  struct bodies *b = calloc(1, sizeof *b);
  if (!b) {
    snprintf(err, errlen, "out of host memory");
    return -1;
  }
  char sols[4096];
  snprintf(sols, sizeof sols, "%s/solutions", home);
  DIR *d = opendir(sols);
  struct dirent *e;
  while (d && (e = readdir(d))) {
    if (e->d_name[0] == '.')
      continue;
    char ld[4400];
    snprintf(ld, sizeof ld, "%s/%s", sols, e->d_name);
    DIR *l = opendir(ld);
    struct dirent *f;
    while (l && (f = readdir(l))) {
      if (!is_cu(f->d_name))
        continue;
      char sol[4800], starter[4800];
      snprintf(sol, sizeof sol, "%s/%s", ld, f->d_name);
      snprintf(starter, sizeof starter, "%s/labs/%s/%s", home, e->d_name, f->d_name);
      collect_bodies(sol, access(starter, R_OK) == 0 ? starter : NULL, b);
    }
    if (l)
      closedir(l);
  }
  if (d)
    closedir(d);
  s->checked = b->n;
  int rc = check_below(out, b, err, errlen);
  for (unsigned i = 0; i < b->n; i++)
    free(b->text[i]);
  free(b);
  return rc;
}

/* ---- the release ---- */

int release_new_folder(const char *out, char *err, size_t errlen)
{
  DIR *od = opendir(out);
  if (!od)
    return 0;
  struct dirent *e;
  int empty = 1;
  while ((e = readdir(od)))
    empty &= !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
  closedir(od);
  if (!empty) {
    snprintf(err, errlen, "%s exists and is not empty: give a new folder", out);
    return -1;
  }
  return 0;
}

int release_write(const char *home, const char *out, const char *warplab,
                  struct release_summary *s, char *err, size_t errlen)
{
  memset(s, 0, sizeof *s);
  if (release_new_folder(out, err, errlen))
    return -1;
  if (mkdirs(out, err, errlen))
    return -1;
  for (size_t i = 0; i < sizeof shipped / sizeof *shipped; i++) {
    char from[4096], to[4096];
    snprintf(from, sizeof from, "%s/%s", home, shipped[i]);
    snprintf(to, sizeof to, "%s/%s", out, shipped[i]);
    struct stat st;
    if (lstat(from, &st) != 0)
      continue;
    if (S_ISDIR(st.st_mode)) {
      if (release_copy_tree(from, to, skip_anywhere, &s->files, err, errlen))
        return -1;
    } else if (S_ISREG(st.st_mode)) {
      if (copy_file(from, to, st.st_mode, err, errlen))
        return -1;
      s->files++;
    }
  }
  char labs[4096], olabs[4096];
  snprintf(labs, sizeof labs, "%s/labs", home);
  snprintf(olabs, sizeof olabs, "%s/labs", out);
  if (release_copy_tree(labs, olabs, skip_in_labs, &s->files, err, errlen))
    return -1;
  DIR *d = opendir(labs);
  struct dirent *e;
  int rc = 0;
  while (!rc && d && (e = readdir(d))) {
    char src[4400], dst[4400];
    snprintf(src, sizeof src, "%s/%s/lab.json", labs, e->d_name);
    if (e->d_name[0] == '.' || access(src, R_OK) != 0)
      continue;
    struct run_lab *lab = malloc(sizeof *lab);
    if (!lab) {
      snprintf(err, errlen, "out of host memory");
      rc = -1;
      break;
    }
    snprintf(dst, sizeof dst, "%s/%s/lab.json", olabs, e->d_name);
    rc = run_lab_load(e->d_name, labs, lab, err, errlen);
    if (!rc)
      rc = run_lab_students_copy(src, dst, &s->answers, &s->hidden, err, errlen);
    if (!rc)
      rc = reference_figures(warplab, home, lab, out, err, errlen);
    if (!rc) {
      s->labs++;
      s->files += 2;
    }
    run_lab_free(lab);
    free(lab);
  }
  if (d)
    closedir(d);
  if (rc || ship_links_below(home, out, "", &s->files, err, errlen))
    return -1;
  return check_release(home, out, s, err, errlen);
}

/* ---- a release at work ---- */

int release_has_solution(const struct run_lab *lab)
{
  struct run_opts o;
  memset(&o, 0, sizeof o);
  o.solution = 1;
  char buf[4096];
  const char *p = run_kernel_path(lab, &o, buf, sizeof buf);
  return p && access(p, R_OK) == 0;
}

int release_reference_load(const struct run_lab *lab, const struct run_result *student,
                           struct run_result *ref, char *err, size_t errlen)
{
  char dir[1200], id[64];
  snprintf(dir, sizeof dir, "%s/%s", lab->dir, RELEASE_REFERENCE_DIR);
  if (run_result_load(dir, ref, id, sizeof id, err, errlen)) {
    snprintf(err, errlen, "this copy has neither the reference solution nor its figures (%s)",
             dir);
    return -1;
  }
  ref->lab = lab;
  if (strcmp(ref->prov.backend, student->prov.backend) ||
      strcmp(ref->prov.profile, student->prov.profile)) {
    snprintf(err, errlen, "the reference solution's figures in this copy are from the %s "
             "backend with profile %s, this run is from %s with %s: nothing is compared with "
             "them", ref->prov.backend, ref->prov.profile, student->prov.backend,
             student->prov.profile);
    return -1;
  }
  return 0;
}
