/* warplab.c: the command-line front: dispatch to a subcommand. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/warplab.h"

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

static void usage(FILE *f)
{
  fputs("usage: warplab COMMAND [ARGS]\n"
        "\n"
        "Commands:\n"
        "  run NN [--backend auto|gpu|emu] ...      run lab NN: tests, measurements, charts\n"
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
        "'warplab emu --help' describes the emulator's options.\n", f);
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
  wl_error("unknown command '%s' (try 'warplab help')", cmd);
  return WL_EXIT_USAGE;
}
