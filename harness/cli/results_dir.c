/* results_dir.c: the results folder's upkeep: results/NN-name/latest (and latest-solution)
 * pointing at the newest run, old runs pruned to the last N per lab, and `warplab clean`.
 *
 * A run's folder is results/NN-name/YYYYMMDD-HHMMSS-student (or -solution; -02, -03 ... after
 * it for later runs of the same second), as harness/run names it; only folders named so are
 * ever removed. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/warplab.h"
#include "run/run_lab.h"

#define MAX_RUNS 4096

/* Nonzero when name is a run folder's: 8 digits, '-', 6 digits, '-student' or '-solution'. */
static int is_run_name(const char *name)
{
  for (int i = 0; i < 15; i++) {
    if (i == 8 ? name[i] != '-' : (name[i] < '0' || name[i] > '9'))
      return 0;
  }
  const char *who = name + 15;
  size_t n = !strncmp(who, "-student", 8) ? 8 : !strncmp(who, "-solution", 9) ? 9 : 0;
  if (!n)
    return 0;
  /* a later run of the same second: -02 to -99, which sort after the first */
  return !who[n] || (who[n] == '-' && isdigit((unsigned char)who[n + 1]) &&
                     isdigit((unsigned char)who[n + 2]) && !who[n + 3]);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
  (void)st; (void)flag; (void)ftw;
  return remove(path) ? -1 : 0;
}

/* Remove folder dir/name and all in it. Returns 0 or -1. */
static int remove_run(const char *dir, const char *name)
{
  char path[2048];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static int cmp_names(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The run folders of a lab's folder, oldest first (their names sort by time). Returns how
   many, or -1 when dir cannot be read; *names is malloc'd, each name too. */
static int list_runs(const char *dir, char ***names)
{
  *names = NULL;
  DIR *d = opendir(dir);
  if (!d)
    return -1;
  char **v = calloc(MAX_RUNS, sizeof *v);
  int n = 0;
  struct dirent *e;
  while (v && (e = readdir(d)) && n < MAX_RUNS)
    if (is_run_name(e->d_name) && (v[n] = strdup(e->d_name)))
      n++;
  closedir(d);
  if (!v)
    return -1;
  qsort(v, (size_t)n, sizeof *v, cmp_names);
  *names = v;
  return n;
}

static void free_runs(char **names, int n)
{
  for (int i = 0; i < n; i++)
    free(names[i]);
  free(names);
}

/* Point dir/link at run folder target (relative), or remove the link when target is NULL. */
static void set_link(const char *dir, const char *link, const char *target)
{
  char path[2048], tmp[2100];
  snprintf(path, sizeof path, "%s/%s", dir, link);
  if (!target) {
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
      unlink(path);
    return;
  }
  snprintf(tmp, sizeof tmp, "%s.%ld", path, (long)getpid());
  unlink(tmp);
  if (symlink(target, tmp) == 0 && rename(tmp, path) != 0)
    unlink(tmp);
}

/* latest -> the newest -student run, latest-solution -> the newest -solution run, or no link
   when there is none. */
static void update_links(const char *dir, char **names, int n)
{
  const char *stu = NULL, *sol = NULL;
  for (int i = 0; i < n; i++) {
    if (!names[i])
      continue;
    if (strstr(names[i], "-student"))
      stu = names[i];
    else
      sol = names[i];
  }
  set_link(dir, "latest", stu);
  set_link(dir, "latest-solution", sol);
}

/* Keep the newest `keep` runs of lab folder dir (never the run `current`); returns how many
   were removed, or -1 when the folder cannot be read. */
static int prune(const char *dir, int keep, const char *current)
{
  char **names;
  int n = list_runs(dir, &names);
  if (n < 0)
    return -1;
  int removed = 0;
  for (int i = 0; i < n && n - removed > keep; i++) {
    if (current && !strcmp(names[i], current))
      continue;
    if (remove_run(dir, names[i]) == 0) {
      free(names[i]);
      names[i] = NULL;
      removed++;
    }
  }
  update_links(dir, names, n);
  free_runs(names, n);
  return removed;
}

int wl_results_keep(const char *opt, int *keep)
{
  const char *s = opt ? opt : getenv("WARPLAB_KEEP_RUNS");
  *keep = WL_KEEP_RUNS_DEFAULT;
  if (!s || !*s)
    return 0;
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || *end || v < 0 || v > MAX_RUNS)
    return -1;
  *keep = (int)v;
  return 0;
}

void wl_results_after_run(const char *results_dir, int keep)
{
  char dir[1100];
  snprintf(dir, sizeof dir, "%s", results_dir);
  char *slash = strrchr(dir, '/');
  if (!slash)
    return;
  *slash = 0;
  /* the run just made always stays: keep at least one */
  prune(dir, keep < 1 ? 1 : keep, slash + 1);
}

static void clean_usage(FILE *f)
{
  fputs("usage: warplab clean [NN] [--keep N] [--results DIR]\n"
        "\n"
        "Removes saved runs from the results folder: those of lab NN (any form: 1, 01,\n"
        "matrix-add, 01-matrix-add), or of every lab. Only run folders (YYYYMMDD-HHMMSS-student\n"
        "or -solution) are removed; the latest and latest-solution links follow.\n"
        "  --keep N      keep the newest N runs of each lab (default: 0, remove all)\n"
        "  --results DIR the results folder (default: results)\n"
        "`warplab run` itself keeps the newest 10 runs of a lab (--keep N or WARPLAB_KEEP_RUNS=N\n"
        "change that).\n", f);
}

int wl_cmd_clean(int argc, char **argv)
{
  static const struct option longopts[] = {
    {"keep", required_argument, 0, 'k'}, {"results", required_argument, 0, 'r'},
    {"help", no_argument, 0, 'h'}, {0, 0, 0, 0},
  };
  const char *root = "results", *keep_s = "0";
  int c;
  optind = 1;
  opterr = 0;
  while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
    switch (c) {
    case 'k': keep_s = optarg; break;
    case 'r': root = optarg; break;
    case 'h': clean_usage(stdout); return WL_EXIT_OK;
    default:
      wl_bad_option("clean", argv[optind - 1], longopts);
      return WL_EXIT_USAGE;
    }
  }
  int keep;
  if (wl_results_keep(keep_s, &keep)) {
    wl_error("clean: --keep '%s': expected a number of runs, 0 or more", keep_s);
    return WL_EXIT_USAGE;
  }
  if (argc - optind > 1) {
    wl_error("clean: give at most one lab (see warplab clean --help)");
    return WL_EXIT_USAGE;
  }
  char dirs[64][300];
  int nd = 0;
  if (optind < argc) {
    struct run_lab lab;
    if (wl_lab_load(argv[optind], &lab))
      return WL_EXIT_USAGE;
    snprintf(dirs[nd++], sizeof dirs[0], "%.150s/%.140s", root, lab.id);
    run_lab_free(&lab);
  } else {
    DIR *d = opendir(root);
    if (!d) {
      printf("nothing to clean: no folder %s\n", root);
      return WL_EXIT_OK;
    }
    struct dirent *e;
    while ((e = readdir(d)) && nd < 64)
      if (e->d_name[0] != '.')
        snprintf(dirs[nd++], sizeof dirs[0], "%.150s/%.140s", root, e->d_name);
    closedir(d);
  }
  int total = 0;
  for (int i = 0; i < nd; i++) {
    int n = prune(dirs[i], keep, NULL);
    if (n > 0) {
      printf("%s: removed %d run%s\n", dirs[i], n, n == 1 ? "" : "s");
      total += n;
    }
  }
  if (!total)
    printf("nothing to clean\n");
  return WL_EXIT_OK;
}
