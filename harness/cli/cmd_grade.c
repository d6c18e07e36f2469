/* cmd_grade.c: `warplab grade NN SUBMISSION_DIR`: run a submission and the lab's reference
 * solution in the same session, on the same backend and inputs, score the submission by the
 * lab's rubric, and write a Gradescope results.json and a feedback report beside its results. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/warplab.h"
#include "grader/batch.h"
#include "grader/grade.h"
#include "grader/submission.h"
#include "run/run.h"
#include "run/run_exec.h"

static void grade_usage(FILE *f)
{
  fputs("usage: warplab grade NN SUBMISSION_DIR [--backend auto|gpu|emu] [--seed N] [--out DIR]\n"
        "                       [--json]\n"
        "\n"
        "SUBMISSION_DIR holds the lab's kernel file (e.g. matrix_add.cu) and, optionally,\n"
        "answers.json with the numeric answers to the handout's questions: {\"q1\": 4, ...}.\n"
        "Writes results.json (Gradescope's format) and feedback.md into the run's results folder\n"
        "(under --out, default results/).\n", f);
  wl_print_exit_codes();
}

int wl_cmd_grade(int argc, char **argv)
{
  static const struct option longopts[] = {
    {"backend", required_argument, 0, 'b'}, {"seed", required_argument, 0, 'S'},
    {"out", required_argument, 0, 'o'}, {"json", no_argument, 0, 'j'},
    {"help", no_argument, 0, 'h'}, {0, 0, 0, 0},
  };
  struct run_opts o;
  memset(&o, 0, sizeof o);
  int json = 0, c;
  optind = 1;
  opterr = 0;
  while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
    switch (c) {
    case 'b':
      o.backend = !strcmp(optarg, "gpu") ? RUN_BACKEND_GPU : !strcmp(optarg, "emu") ? RUN_BACKEND_EMU
                : RUN_BACKEND_AUTO;
      if (strcmp(optarg, "gpu") && strcmp(optarg, "emu") && strcmp(optarg, "auto")) {
        wl_error("--backend '%s': expected auto, gpu or emu", optarg);
        return WL_EXIT_USAGE;
      }
      break;
    case 'S': {
      char *end;
      errno = 0;
      o.seed = strtoull(optarg, &end, 10);
      if (errno || *end || !*optarg) {
        wl_error("--seed '%s': expected a number", optarg);
        return WL_EXIT_USAGE;
      }
      o.have_seed = 1;
      break;
    }
    case 'o': o.results_root = optarg; break;
    case 'j': json = 1; break;
    case 'h': grade_usage(stdout); return WL_EXIT_OK;
    default:
      wl_error("grade: unknown or incomplete option '%s' (see warplab grade --help)", argv[optind - 1]);
      return WL_EXIT_USAGE;
    }
  }
  if (optind != argc - 2) {
    wl_error("grade: give a lab and a submission folder, e.g. warplab grade 01 alice/");
    return WL_EXIT_USAGE;
  }
  const char *which = argv[optind], *dir = argv[optind + 1];
  char err[2048], labs[1024], kfile[1400];
  snprintf(labs, sizeof labs, "%s/labs", run_home());
  struct run_lab lab;
  if (run_lab_load(which, labs, &lab, err, sizeof err)) {
    wl_error("%s", err);
    return WL_EXIT_USAGE;
  }
  /* the submission: its kernel file (a regular file of the folder, of a sane size) and its
     answers (a broken answers.json loses the answers, not the grade) */
  if (submission_kernel(dir, lab.kernel_file, kfile, sizeof kfile, err, sizeof err)) {
    wl_error("%s", err);
    run_lab_free(&lab);
    return WL_EXIT_USAGE;
  }
  char why[512];
  json_t *answers = submission_answers(dir, why, sizeof why);
  if (why[0])
    wl_error("%s", why);
  struct run_result *stu = malloc(sizeof *stu), *ref = malloc(sizeof *ref);
  struct grade_result *g = malloc(sizeof *g);
  int rc = WL_EXIT_USAGE;
  if (!stu || !ref || !g) {
    wl_error("out of host memory");
    goto out;
  }
  /* the submission, then the solution on the same backend and inputs */
  o.kernel_file = kfile;
  o.quick = 1;
  o.no_ncu = 1;
  if (run_lab_run(&lab, &o, stu, err, sizeof err)) {
    wl_error("%s", err);
    goto out;
  }
  struct run_opts so = o;
  so.kernel_file = NULL;
  so.solution = 1;
  so.seed = stu->prov.seed;
  so.have_seed = 1;
  so.backend = !strcmp(stu->prov.backend, "gpu") ? RUN_BACKEND_GPU : RUN_BACKEND_EMU;
  if (run_lab_run(&lab, &so, ref, err, sizeof err)) {
    wl_error("the reference solution: %s", err);
    goto out;
  }
  if (grade_score(&lab, stu, ref, answers, g, err, sizeof err)) {
    wl_error("%s", err);
    goto out;
  }
  if (why[0] && g->nhints < GRADE_MAX_HINTS)
    snprintf(g->hints[g->nhints++], sizeof g->hints[0], "%s", why);
  json_t *gs = grade_gradescope_json(g);
  char path[1200];
  snprintf(path, sizeof path, "%s/results.json", stu->results_dir);
  json_dump_file(gs, path, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  snprintf(path, sizeof path, "%s/feedback.md", stu->results_dir);
  FILE *fb = fopen(path, "w");
  if (fb) {
    grade_feedback_md(fb, &lab, stu, g);
    fclose(fb);
  }
  if (json) {
    json_dumpf(gs, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fputc('\n', stdout);
  } else {
    grade_feedback_md(stdout, &lab, stu, g);
    printf("\nGradescope results and this report: %s/\n", stu->results_dir);
  }
  json_decref(gs);
  rc = run_exit_code(stu);
out:
  json_decref(answers);
  free(stu);
  free(ref);
  free(g);
  run_lab_free(&lab);
  return rc;
}

/* `warplab batch NN ROSTER --out DIR [-j N] [--resume] [--backend B] [--timeout S]`. */
int wl_cmd_batch(int argc, char **argv)
{
  static const struct option longopts[] = {
    {"out", required_argument, 0, 'o'}, {"jobs", required_argument, 0, 'j'},
    {"resume", no_argument, 0, 'r'}, {"backend", required_argument, 0, 'b'},
    {"timeout", required_argument, 0, 't'}, {"memory", required_argument, 0, 'm'},
    {"help", no_argument, 0, 'h'}, {0, 0, 0, 0},
  };
  struct batch_opts o = {.backend = "auto", .jobs = 1, .timeout_s = 600, .memory_mb = 16384};
  int c;
  optind = 1;
  opterr = 0;
  while ((c = getopt_long(argc, argv, "j:h", longopts, NULL)) != -1) {
    long v;
    char *end;
    switch (c) {
    case 'o': o.out = optarg; break;
    case 'r': o.resume = 1; break;
    case 'b':
      if (strcmp(optarg, "gpu") && strcmp(optarg, "emu") && strcmp(optarg, "auto")) {
        wl_error("--backend '%s': expected auto, gpu or emu", optarg);
        return WL_EXIT_USAGE;
      }
      o.backend = optarg;
      break;
    case 'j': case 't': case 'm':
      errno = 0;
      v = strtol(optarg, &end, 10);
      if (errno || *end || v < 1) {
        wl_error("-%c '%s': expected a positive number", c == 'j' ? 'j' : c, optarg);
        return WL_EXIT_USAGE;
      }
      if (c == 'j') o.jobs = (int)v;
      else if (c == 't') o.timeout_s = (int)v;
      else o.memory_mb = (size_t)v;
      break;
    case 'h':
      fputs("usage: warplab batch NN ROSTER --out DIR [-j N] [--resume] [--backend auto|gpu|emu]\n"
            "                     [--timeout SECONDS] [--memory MB]\n"
            "Grades every student folder of ROSTER with `warplab grade`, each in a child process\n"
            "with a time limit (default 600 s) and a memory cap (default 16384 MB). Writes\n"
            "DIR/STUDENT/results.json (Gradescope), feedback.md, log.txt, and DIR/gradebook.csv.\n"
            "--resume skips students whose results.json exists.\n", stdout);
      return WL_EXIT_OK;
    default:
      wl_error("batch: unknown or incomplete option '%s' (see warplab batch --help)", argv[optind - 1]);
      return WL_EXIT_USAGE;
    }
  }
  if (optind != argc - 2 || !o.out) {
    wl_error("batch: give a lab, a roster folder and --out DIR, e.g. warplab batch 01 class/ --out graded/");
    return WL_EXIT_USAGE;
  }
  o.lab = argv[optind];
  o.roster = argv[optind + 1];
  char self[4096];
  if (run_self_path(self, sizeof self)) {
    wl_error("cannot find the warplab executable to grade with");
    return WL_EXIT_USAGE;
  }
  o.warplab = self;
  struct batch_summary s;
  char err[1024];
  if (batch_run(&o, &s, err, sizeof err)) {
    wl_error("%s", err);
    return WL_EXIT_USAGE;
  }
  printf("%u students: %u graded, %u failed to grade, %u kept from an earlier run (--resume)\n"
         "Gradebook: %s/gradebook.csv\n", s.students, s.graded, s.failed, s.skipped, o.out);
  return WL_EXIT_OK;
}
