/* cmd_release.c: `warplab release --out DIR`: write the students' copy of this (the
 * instructor's) tree: no solutions, no answer keys, no hidden tests (grader/release.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/warplab.h"
#include "grader/release.h"
#include "run/run_lab.h"
#include "toolchain/tc_exec.h"
#include "toolchain/tc_file.h"

static void release_usage(FILE *f)
{
  fputs("usage: warplab release --out DIR\n"
        "\n"
        "Writes what students get to DIR (a new or empty folder): the labs, the handouts, the\n"
        "harness, the Makefile and everything else to build (make), run and self-check\n"
        "(bin/warplab run NN). Left out: solutions/, every question's answer in each lab.json\n"
        "(the questions, their units and points stay), the test sizes lab.json marks hidden,\n"
        "tests/, bench/, and each lab's measured/ and pictures/ folders but for the files a\n"
        "handout or README links to. In place of the solutions, each lab gets\n"
        "labs/NN-name/reference-run/result.json: the reference solution's figures from a run\n"
        "on the emulator, which the feedback screen and grade score against when solutions/\n"
        "is absent. Every file written is read back and the release refused when one holds\n"
        "the body of a function of a reference solution.\n", f);
  wl_print_exit_codes();
}

int wl_cmd_release(int argc, char **argv)
{
  static const struct option longopts[] = {
    {"out", required_argument, 0, 'o'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0},
  };
  const char *out = NULL;
  int c;
  optind = 1;
  opterr = 0;
  while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
    switch (c) {
    case 'o': out = optarg; break;
    case 'h': release_usage(stdout); return WL_EXIT_OK;
    default:
      wl_error("release: unknown or incomplete option '%s' (see warplab release --help)",
               argv[optind - 1]);
      return WL_EXIT_USAGE;
    }
  }
  if (!out || optind != argc) {
    wl_error("release: give the folder to write, e.g. warplab release --out ../warplab-students");
    return WL_EXIT_USAGE;
  }
  char self[4096], err[4096];
  if (tc_self_path(self, sizeof self)) {
    wl_error("release: cannot find the warplab executable");
    return WL_EXIT_USAGE;
  }
  struct release_summary s;
  if (release_write(tc_home(), out, self, &s, err, sizeof err)) {
    wl_error("release: %s", err);
    return WL_EXIT_FAULT;
  }
  printf("Students' copy written to %s: %u labs, %u files; %u answers and %u hidden test sizes "
         "left out; no file holds any of the %u functions of the reference solutions.\n"
         "Students build it with make and run a lab with bin/warplab run NN.\n",
         out, s.labs, s.files, s.answers, s.hidden, s.checked);
  return WL_EXIT_OK;
}
