/* warplab.c: the command-line front: dispatch to a subcommand. */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <dirent.h>

#include "cli/warplab.h"
#include "metrics/met.h"
#include "run/run_lab.h"
#include "toolchain/tc_file.h"

void wl_error(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fputs("warplab: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

int wl_ends_with(const char *s, const char *suffix)
{
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && !strcmp(s + a - b, suffix);
}

void wl_print_exit_codes(void)
{
  fputs("Exit codes:\n", stdout);
#define X(name, value, meaning) printf("  %d  %s\n", value, meaning);
#include "cli/exit_codes.def"
#undef X
}

const char *wl_closest(const char *word, const char *const *candidates, size_t n)
{
  const char *best = NULL;
  size_t bd = 3, wl = strlen(word);
  for (size_t i = 0; i < n; i++) {
    size_t d = wl >= 2 && !strncmp(candidates[i], word, wl) ? 1 : met_edit_distance(word, strlen(word), candidates[i], 2);
    if (d < bd) {
      bd = d;
      best = candidates[i];
    }
  }
  return best;
}

void wl_bad_option(const char *cmd, const char *arg, const struct option *opts)
{
  const char *names[64];
  size_t n = 0;
  for (; opts[n].name && n < 64; n++)
    names[n] = opts[n].name;
  char word[64];
  snprintf(word, sizeof word, "%.*s", (int)strcspn(arg + strspn(arg, "-"), "="),
           arg + strspn(arg, "-"));
  for (size_t i = 0; i < n; i++)
    if (!strcmp(names[i], word)) {   /* known, so its argument is missing */
      wl_error("%s: option '--%s' needs an argument (see warplab %s --help)", cmd, word, cmd);
      return;
    }
  const char *near = wl_closest(word, names, n);
  if (near)
    wl_error("%s: unknown option '%s': did you mean '--%s'? (see warplab %s --help)", cmd, arg,
             near, cmd);
  else
    wl_error("%s: unknown option '%s' (see warplab %s --help)", cmd, arg, cmd);
}

int wl_lab_load(const char *which, struct run_lab *lab)
{
  char labs[1100], err[2048];
  snprintf(labs, sizeof labs, "%s/labs", tc_home());
  if (run_lab_load(which, labs, lab, err, sizeof err) == 0)
    return 0;
  /* a mistyped name: the closest folder name, or name without its number */
  char names[64][128], bare[64][128];
  const char *list[128] = {0};
  size_t n = 0;
  DIR *d = strchr(which, '/') || strncmp(err, "no lab ", 7) ? NULL : opendir(labs);
  struct dirent *e;
  while (d && (e = readdir(d)) && n < 64) {
    size_t nd = strspn(e->d_name, "0123456789");
    if (!nd || e->d_name[nd] != '-')
      continue;
    snprintf(names[n], sizeof names[0], "%.120s", e->d_name);
    snprintf(bare[n], sizeof bare[0], "%.120s", e->d_name + nd + 1);
    n++;
  }
  if (d)
    closedir(d);
  for (size_t i = 0; i < n; i++) {
    list[i] = names[i];
    list[n + i] = bare[i];
  }
  const char *near = strlen(which) > 3 ? wl_closest(which, list, 2 * n) : NULL;
  for (size_t i = 0; near && i < n; i++)
    if (near == bare[i])
      near = names[i];
  if (near)
    wl_error("no lab '%s' in %s: did you mean '%s'?", which, labs, near);
  else
    wl_error("%s", err);
  return -1;
}

/* The commands, as `warplab help` lists them; the did-you-mean of an unknown command reads
   its candidates from here, so a command added to this text is suggested too. */
static const char usage_text[] =
        "usage: warplab COMMAND [ARGS]\n"
        "\n"
        "Commands:\n"
        "  run NN [--backend auto|gpu|emu] ...      run lab NN: tests, measurements, charts\n"
        "  clean [NN] [--keep N]                    remove saved runs from results/\n"
        "  grade NN SUBMISSION_DIR [...]            score a submission by the lab's rubric\n"
        "  batch NN ROSTER --out DIR [-j N]         grade a class, one process per student\n"
        "  charts RESULTS_DIR                       draw a saved run's charts again\n"
        "  emu FILE.cu|FILE.ptx --kernel NAME ...   run one kernel on the SIMT emulator\n"
        "  lanes LOG sectors|banks|timeline ...     draw one warp from emu --lanes's log\n"
        "  occupancy --regs R --block B ...         theoretical occupancy and what limits it\n"
        "  release --out DIR                        the students' copy: no solutions or answers\n"
        "  autograder NN --out DIR                  a Gradescope autograder for lab NN\n"
        "  help                                     this text\n"
        "  version                                  the version\n"
        "\n"
        "NN is a lab's number or name in any form: 1, 01, matrix-add, 01-matrix-add.\n"
        "'warplab COMMAND --help' describes a command's options.\n";

static void usage(FILE *f)
{
  fputs(usage_text, f);
}

/* The command names of usage_text's "Commands:" list. Returns how many. */
static size_t command_names(char names[][32], size_t max)
{
  const char *p = strstr(usage_text, "Commands:\n");
  size_t n = 0;
  for (p = p ? strchr(p, '\n') : NULL; p && p[1] == ' ' && p[2] == ' ' && n < max;
       p = strchr(p + 1, '\n')) {
    size_t len = strcspn(p + 3, " \n");
    snprintf(names[n++], 32, "%.*s", (int)(len < 31 ? len : 31), p + 3);
  }
  return n;
}

int main(int argc, char **argv)
{
  if (argc < 2) {
    usage(stderr);
    return WL_EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "run"))
    return wl_cmd_run(argc - 1, argv + 1);
  if (!strcmp(cmd, "clean"))
    return wl_cmd_clean(argc - 1, argv + 1);
  if (!strcmp(cmd, "charts"))
    return wl_cmd_charts(argc - 1, argv + 1);
  if (!strcmp(cmd, "grade"))
    return wl_cmd_grade(argc - 1, argv + 1);
  if (!strcmp(cmd, "batch"))
    return wl_cmd_batch(argc - 1, argv + 1);
  if (!strcmp(cmd, "emu"))
    return wl_cmd_emu(argc - 1, argv + 1);
  if (!strcmp(cmd, "lanes"))
    return wl_cmd_lanes(argc - 1, argv + 1);
  if (!strcmp(cmd, "occupancy"))
    return wl_cmd_occupancy(argc - 1, argv + 1);
  if (!strcmp(cmd, "release"))
    return wl_cmd_release(argc - 1, argv + 1);
  if (!strcmp(cmd, "autograder"))
    return wl_cmd_autograder(argc - 1, argv + 1);
  if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
    usage(stdout);
    wl_print_exit_codes();
    return WL_EXIT_OK;
  }
  if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
    printf("warplab %s\n", WARPLAB_VERSION);
    return WL_EXIT_OK;
  }
  char names[32][32];
  const char *list[32];
  size_t n = command_names(names, 32);
  for (size_t i = 0; i < n; i++)
    list[i] = names[i];
  const char *near = wl_closest(cmd, list, n);
  if (near)
    wl_error("unknown command '%s': did you mean '%s'? (try 'warplab help')", cmd, near);
  else
    wl_error("unknown command '%s' (try 'warplab help')", cmd);
  return WL_EXIT_USAGE;
}
