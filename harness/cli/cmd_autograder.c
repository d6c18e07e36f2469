/* cmd_autograder.c: `warplab autograder NN --out DIR` writes a Gradescope autograder for lab
 * NN; `warplab autograder NN --run` is what its run_autograder calls on Gradescope: grade
 * $ROOT/submission into $ROOT/results/results.json (grader/autograder.h). */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/warplab.h"
#include "grader/autograder.h"
#include "run/run_lab.h"
#include "toolchain/tc_exec.h"
#include "toolchain/tc_file.h"

static void autograder_usage(FILE *f)
{
  fputs("usage: warplab autograder NN --out DIR\n"
        "       warplab autograder NN --run [--timeout SECONDS]\n"
        "\n"
        "--out: writes DIR (a new or empty folder), to zip and upload to Gradescope as the\n"
        "autograder of lab NN: setup.sh (installs the build's packages and nvcc on Gradescope's\n"
        "Ubuntu image, builds warplab), run_autograder, README.md (the upload, step by step)\n"
        "and warplab/ (the harness, lab NN with its answer keys and hidden tests, and its\n"
        "reference solution: for Gradescope only, never for students).\n"
        "--run: what run_autograder calls for each submission: grades ROOT/submission on the\n"
        "emulator and writes ROOT/results/results.json (Gradescope's format), also for a\n"
        "missing, misnamed or broken submission (score 0, and why). ROOT is\n"
        "$WARPLAB_AUTOGRADER_ROOT, or /autograder. A grading is stopped after --timeout seconds\n"
        "(default $WARPLAB_AUTOGRADER_TIMEOUT, or 900).\n", f);
  wl_print_exit_codes();
}

static int parse_timeout(const char *s, unsigned *v)
{
  char *end;
  errno = 0;
  unsigned long x = strtoul(s, &end, 10);
  if (errno || *end || !*s || x == 0 || x > 86400)
    return -1;
  *v = (unsigned)x;
  return 0;
}

int wl_cmd_autograder(int argc, char **argv)
{
  static const struct option longopts[] = {
    {"out", required_argument, 0, 'o'}, {"run", no_argument, 0, 'r'},
    {"timeout", required_argument, 0, 't'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0},
  };
  const char *out = NULL;
  int run = 0, c;
  unsigned timeout_s = 900;
  const char *env = getenv("WARPLAB_AUTOGRADER_TIMEOUT");
  if (env && *env && parse_timeout(env, &timeout_s)) {
    wl_error("WARPLAB_AUTOGRADER_TIMEOUT='%s': expected seconds (1 to 86400)", env);
    return WL_EXIT_USAGE;
  }
  optind = 1;
  opterr = 0;
  while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
    switch (c) {
    case 'o': out = optarg; break;
    case 'r': run = 1; break;
    case 't':
      if (parse_timeout(optarg, &timeout_s)) {
        wl_error("--timeout '%s': expected seconds (1 to 86400)", optarg);
        return WL_EXIT_USAGE;
      }
      break;
    case 'h': autograder_usage(stdout); return WL_EXIT_OK;
    default:
      wl_error("autograder: unknown or incomplete option '%s' (see warplab autograder --help)",
               argv[optind - 1]);
      return WL_EXIT_USAGE;
    }
  }
  if (optind != argc - 1 || !!out == run) {
    wl_error("autograder: give a lab and either --out DIR or --run, e.g. warplab autograder 01 "
             "--out autograder-01");
    return WL_EXIT_USAGE;
  }
  char labs[4200], err[4096];
  snprintf(labs, sizeof labs, "%.4000s/labs", tc_home());
  struct run_lab *lab = malloc(sizeof *lab);
  if (!lab) {
    wl_error("out of host memory");
    return WL_EXIT_USAGE;
  }
  int rc = WL_EXIT_OK;
  if (run_lab_load(argv[optind], labs, lab, err, sizeof err)) {
    wl_error("%s", err);
    free(lab);
    return WL_EXIT_USAGE;   /* run_autograder writes its own results.json then */
  }
  if (run) {
    char self[4096];
    if (tc_self_path(self, sizeof self) ||
        autograder_run(lab, self, autograder_root(), timeout_s, err, sizeof err)) {
      wl_error("autograder: %s", err);
      rc = WL_EXIT_FAULT;
    } else {
      printf("warplab autograder: %s/results/results.json written\n", autograder_root());
    }
  } else if (autograder_write(tc_home(), lab, out, err, sizeof err)) {
    wl_error("autograder: %s", err);
    rc = WL_EXIT_FAULT;
  } else {
    printf("Gradescope autograder for lab %s written to %s. It holds the answer keys and the "
           "solution: for Gradescope only.\nZip its contents and upload (see %s/README.md):\n"
           "  cd %s && zip -r ../autograder-%s.zip .\n", lab->id, out, out, out, lab->id);
  }
  run_lab_free(lab);
  free(lab);
  return rc;
}
