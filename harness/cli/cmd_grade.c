/* cmd_grade.c: `warplab grade NN SUBMISSION_DIR`: run a submission and the lab's reference
 * solution in the same session, on the same backend and inputs, score the submission by the
 * lab's rubric, and write a Gradescope results.json and a feedback report beside its results. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/warplab.h"
#include "grader/batch.h"
#include "grader/grade.h"
#include "grader/session.h"
#include "grader/submission.h"
#include "metrics/occ.h"
#include "run/run.h"
#include "sim/sim.h"
#include "toolchain/tc_exec.h"
#include "toolchain/tc_file.h"

/* The Gradescope result j, whole, to descriptor fd (when fd >= 0): the channel a batch reads
   a grade from, which nothing a student hands in reaches. */
static void put_result(int fd, json_t *j)
{
  if (fd < 0 || !j)
    return;
  char *text = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  size_t len = text ? strlen(text) : 0, k = 0;
  while (k < len) {
    ssize_t w = write(fd, text + k, len - k);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      break;
    k += (size_t)w;
  }
  free(text);
}

/* A result that is no grade (enum batch_status) to descriptor fd, and why to stderr. */
static void put_status(int fd, enum batch_status st, double full, const char *why)
{
  wl_error("%s", why);
  json_t *j = batch_result_json(st, full, why);
  put_result(fd, j);
  json_decref(j);
}

static void grade_usage(FILE *f)
{
  fputs("usage: warplab grade NN SUBMISSION_DIR [--backend auto|gpu|emu] [--seed N] [--out DIR]\n"
        "                       [--json] [--no-ncu] [--result-fd N] [--reference-only]\n"
        "\n"
        "SUBMISSION_DIR holds the lab's kernel file (e.g. matrix_add.cu) and, optionally,\n"
        "answers.json with the numeric answers to the handout's questions: {\"q1\": 4, ...},\n"
        "each a number in the unit the handout gives beside its label ([q6, percent]).\n"
        "Writes results.json (Gradescope's format) and feedback.md into the run's results folder\n"
        "(under --out, default results/).\n"
        "On a GPU, Nsight Compute measures the main configuration's metrics for the rubric's\n"
        "targets; --no-ncu (or no ncu installed) leaves the targets unscored, for the\n"
        "submission and the reference solution alike.\n"
        "--result-fd N writes the Gradescope result, and nothing else, to open descriptor N,\n"
        "also when the submission is missing, refused or could not be graded (a batch reads\n"
        "its students' results there, never from their logs).\n"
        "--reference-only builds and runs the lab's reference solution on the submission's\n"
        "inputs and stops, the build cache keeping both: warplab batch does it once before\n"
        "its graders start side by side, so that each finds them.\n", f);
  wl_print_exit_codes();
}

int wl_cmd_grade(int argc, char **argv)
{
  static const struct option longopts[] = {
    {"backend", required_argument, 0, 'b'}, {"seed", required_argument, 0, 'S'},
    {"out", required_argument, 0, 'o'}, {"json", no_argument, 0, 'j'},
    {"no-ncu", no_argument, 0, 'N'}, {"result-fd", required_argument, 0, 'R'},
    {"reference-only", no_argument, 0, 'P'},
    {"help", no_argument, 0, 'h'}, {0, 0, 0, 0},
  };
  struct run_opts o;
  memset(&o, 0, sizeof o);
  int json = 0, no_ncu = 0, rfd = -1, ref_only = 0, c;
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
      if (errno || *end || !*optarg || optarg[strspn(optarg, " \t")] == '-') {
        wl_error("--seed '%s': expected a number from 0 to 2^64-1", optarg);
        return WL_EXIT_USAGE;
      }
      o.have_seed = 1;
      break;
    }
    case 'o': o.results_root = optarg; break;
    case 'j': json = 1; break;
    case 'N': no_ncu = 1; break;
    case 'P': ref_only = 1; break;
    case 'R': {
      /* the descriptor stays ours: closed on exec, so no tool we start can write to it */
      char *end;
      errno = 0;
      long v = strtol(optarg, &end, 10);
      if (errno || *end || !*optarg || v < 0 || v > 1 << 20 || (fcntl((int)v, F_GETFL) & O_ACCMODE) ==
          O_RDONLY || fcntl((int)v, F_SETFD, FD_CLOEXEC) != 0) {
        wl_error("--result-fd '%s': expected a descriptor open for writing", optarg);
        return WL_EXIT_USAGE;
      }
      rfd = (int)v;
      break;
    }
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
  snprintf(labs, sizeof labs, "%s/labs", tc_home());
  struct run_lab lab;
  if (run_lab_load(which, labs, &lab, err, sizeof err)) {
    wl_error("%s", err);
    return WL_EXIT_USAGE;
  }
  /* the submission: its kernel file (a regular file of the folder, of a sane size, in a
     folder without links; a miscased name graded with a note) */
  double full = batch_full_score(&lab);
  char knote[768];
  enum submission_status sst = submission_find_kernel(dir, lab.kernel_file, kfile, sizeof kfile,
                                                      knote, sizeof knote, err, sizeof err);
  if (sst != SUBMISSION_OK) {
    put_status(rfd, sst == SUBMISSION_MISSING ? BATCH_MISSING : BATCH_REFUSED, full, err);
    run_lab_free(&lab);
    return WL_EXIT_USAGE;
  }
  if (knote[0])
    wl_error("%s", knote);
  /* the session (grader/session.h): the reference solution first, on the inputs the
     submission will get (our own code, run before the confinement, so that its run can be
     kept in the cache, run_cache.h, and a class's batch builds and runs it once, not once a
     student), then the submission, then the score with its answers (a broken answers.json
     loses the answers, not the grade) */
  struct gs_session s;
  if (gs_init(&s) != GS_OK) {
    put_status(rfd, BATCH_UNGRADED, full, "could not be graded: out of host memory");
    run_lab_free(&lab);
    return WL_EXIT_USAGE;
  }
  o.no_ncu = no_ncu;
  o.kernel_file = kfile;
  /* the lab's reference library, built (or taken from the build cache) before the
     confinement puts the cache out of reach: the submission's run loads it instead of
     compiling the reference again for every student; where it does not build, that run
     builds it itself and says why */
  char refso[1200];
  snprintf(refso, sizeof refso, "%s/.reference-%d.so", o.results_root ? o.results_root : "results",
           (int)getpid());
  char rerr[2600];
  if (run_reference_build(&lab, refso, rerr, sizeof rerr) == 0)
    o.reference_so = refso;
  struct gs_input in = {.mode = GS_GRADE, .lab = &lab, .run = o, .answers_dir = dir};
  gs_begin(&s, &in);
  int rc = WL_EXIT_USAGE;
  char why[2600];
  enum gs_status st = s.step == GS_STEP_REFERENCE ? gs_step(&s) : GS_OK;
  if (st != GS_OK) {
    snprintf(why, sizeof why, "could not be graded: the reference solution: %s", s.error);
    put_status(rfd, BATCH_UNGRADED, full, why);
    goto out;
  }
  if (ref_only) {
    rc = WL_EXIT_OK;
    goto out;
  }
  /* from here on the run is confined: it writes only beneath its results folder and reads
     the lab's folders and this submission's, not those beside it (tc_sandbox.h) */
  char note[512], arch[1024];
  sim_threads_end();            /* the reference's run made them: they would stay unconfined */
  if (tc_sandbox_confine_grade(dir, occ_arch_dir(arch, sizeof arch) == 0 ? arch : NULL,
                               o.results_root, o.backend != RUN_BACKEND_EMU, note,
                               sizeof note) < 0) {
    snprintf(why, sizeof why, "could not be graded: %s", note);
    put_status(rfd, BATCH_UNGRADED, full, why);
    goto out;
  }
  /* the submission, on the same inputs (on a GPU, Nsight Compute measures the main
     configuration's metrics for the targets), then the score */
  st = gs_run(&s);
  if (s.answers_note[0])
    wl_error("%s", s.answers_note);
  if (st != GS_OK) {
    snprintf(why, sizeof why, "could not be graded: %s%s", st == GS_REFERENCE_FAILED ?
             "the reference solution: " : "", s.error);
    put_status(rfd, BATCH_UNGRADED, full, why);
    goto out;
  }
  struct run_result *stu = s.stu, *ref = s.ref_source != GS_REF_NONE ? s.ref : NULL;
  struct grade_result *g = s.grade;
  if (s.answers_note[0] && g->nhints < GRADE_MAX_HINTS)
    snprintf(g->hints[g->nhints++], sizeof g->hints[0], "%s", s.answers_note);
  if (knote[0] && g->nhints < GRADE_MAX_HINTS)
    snprintf(g->hints[g->nhints++], sizeof g->hints[0], "%s", knote);
  if (s.ref_note[0] && g->nhints < GRADE_MAX_HINTS)
    snprintf(g->hints[g->nhints++], sizeof g->hints[0], "%.760s", s.ref_note);
  /* the grader's own limits decide no grade: not the student's 0 */
  int limited = batch_grader_limit(stu, ref, why, sizeof why);
  if (limited)
    wl_error("%s", why);
  json_t *gs = limited ? batch_result_json(BATCH_UNGRADED, full, why) : grade_gradescope_json(g);
  put_result(rfd, gs);
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
  gs_free(&s);
  if (o.reference_so)
    unlink(o.reference_so);
  run_lab_free(&lab);
  return rc;
}

static void batch_usage(FILE *f)
{
  fputs("usage: warplab batch NN ROSTER --out DIR [-j N] [--resume] [--backend auto|gpu|emu]\n"
        "                     [--timeout SECONDS] [--memory MB] [--seed N]\n"
        "       warplab batch NN ROSTER --out DIR --slurm [--chunk N] [--sbatch-arg ARG]...\n"
        "                     [--no-submit] [the options above]\n"
        "       warplab batch NN ROSTER --out DIR --collect\n"
        "\n"
        "Grades every student folder of ROSTER with `warplab grade`, each in a child process\n"
        "with a time limit (default 600 s) and a memory cap (default 16384 MB). Writes\n"
        "DIR/STUDENT/results.json (Gradescope), log.txt and runs/ (the runs, feedback.md among\n"
        "them), then the class: DIR/gradebook.csv (a column per rubric item), DIR/canvas.csv\n"
        "(Canvas's gradebook import) and the class charts in DIR/charts/ (score\n"
        "distribution, the rubric's metric targets, time against the reference solution: PNG,\n"
        "SVG, their data and gnuplot scripts, and class.csv).\n"
        "  --resume       skip students whose results.json holds a grade of their submission as it\n"
        "                 is now (a changed submission, or one not graded, is graded again)\n"
        "  --seed N       grade every student on the inputs of seed N (a regrade reproduces);\n"
        "                 without it one seed is picked for the class and kept in OUT/seed.txt\n"
        "  --slurm        grade on a Slurm cluster: write DIR/slurm/ (students.txt, grade.sbatch:\n"
        "                 a job array, one task per --chunk students (default 10), collect.sbatch,\n"
        "                 collect.sh), submit the array and a collection job that runs after it\n"
        "                 (the gradebook and the charts). --sbatch-arg ARG passes ARG to sbatch\n"
        "                 (e.g. --sbatch-arg=--partition=gpu); --no-submit writes the scripts only\n"
        "  --collect      the gradebook and the charts from the results there are, grading no one\n"
        "                 (exit 1 when a student has no results yet)\n", f);
  wl_print_exit_codes();
}

/* The statuses other than graded and failed, when there are any, on a line of their own. */
static void print_others(const struct batch_summary *s)
{
  if (s->nokernel || s->refused || s->ungraded)
    printf("%u missing (no kernel file: 0 points), %u refused (0 points), %u could not be graded "
           "(ungraded: the grader's own limits, see their log.txt; --resume grades them again)\n",
           s->nokernel, s->refused, s->ungraded);
}

/* `warplab batch NN ROSTER --out DIR ...`: a class, locally or on Slurm (batch_usage). */
/* The class's seed in buf: OUT/seed.txt's, or a new one written there. Returns 0, or -1
   with err. */
static int class_seed(const char *out, char *buf, size_t n, char *err, size_t errlen)
{
  char path[4200];
  snprintf(path, sizeof path, "%s/seed.txt", out);
  FILE *f = fopen(path, "r");
  if (f) {
    char line[64] = "";
    char *end = NULL;
    int ok = fgets(line, sizeof line, f) != NULL;
    fclose(f);
    line[strcspn(line, "\n")] = 0;
    errno = 0;
    unsigned long long v = ok ? strtoull(line, &end, 10) : 0;
    if (!ok || errno || !end || *end || !line[0] || line[0] == '-') {
      snprintf(err, errlen, "%.1000s: expected the class's seed, a number", path);
      return -1;
    }
    snprintf(buf, n, "%llu", v);
    return 0;
  }
  if (mkdir(out, 0755) && errno != EEXIST) {
    snprintf(err, errlen, "cannot make %.1000s: %s", out, strerror(errno));
    return -1;
  }
  snprintf(buf, n, "%llu", (unsigned long long)run_fresh_seed());
  f = fopen(path, "w");
  if (!f || fprintf(f, "%s\n", buf) < 0 || fclose(f)) {
    snprintf(err, errlen, "cannot write %.1000s: %s", path, strerror(errno));
    return -1;
  }
  return 0;
}

int wl_cmd_batch(int argc, char **argv)
{
  static const struct option longopts[] = {
    {"out", required_argument, 0, 'o'}, {"jobs", required_argument, 0, 'j'},
    {"resume", no_argument, 0, 'r'}, {"backend", required_argument, 0, 'b'},
    {"timeout", required_argument, 0, 't'}, {"memory", required_argument, 0, 'm'},
    {"seed", required_argument, 0, 'S'}, {"slurm", no_argument, 0, 'L'},
    {"chunk", required_argument, 0, 'c'}, {"sbatch-arg", required_argument, 0, 'A'},
    {"no-submit", no_argument, 0, 'N'}, {"collect", no_argument, 0, 'C'},
    {"list", required_argument, 0, 'l'}, {"slice", required_argument, 0, 's'},
    {"no-ncu", no_argument, 0, 'N'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0},
  };
  struct batch_opts o = {.backend = "auto", .jobs = 1, .timeout_s = 600, .memory_mb = 16384};
  struct batch_slurm_opts so = {.chunk = 10, .submit = 1};
  int c, slurm = 0, collect = 0, have_slice = 0;
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
    case 'S':
      errno = 0;
      strtoull(optarg, &end, 10);
      if (errno || *end || !*optarg || *optarg == '-') {
        wl_error("--seed '%s': expected a number", optarg);
        return WL_EXIT_USAGE;
      }
      o.seed = optarg;
      break;
    case 'L': slurm = 1; break;
    case 'N': so.submit = 0; break;
    case 'C': collect = 1; break;
    case 'l': o.list = optarg; break;
    case 'A':
      if (so.nargs == (int)(sizeof so.sbatch_args / sizeof *so.sbatch_args)) {
        wl_error("--sbatch-arg: at most %zu", sizeof so.sbatch_args / sizeof *so.sbatch_args);
        return WL_EXIT_USAGE;
      }
      so.sbatch_args[so.nargs++] = optarg;
      break;
    case 'j': case 't': case 'm': case 'c': case 's':
      errno = 0;
      v = strtol(optarg, &end, 10);
      if (errno || *end || !*optarg || v < (c == 's' ? 0 : 1) || v > INT_MAX) {
        wl_error("%s '%s': expected a %s number", c == 'j' ? "-j" : c == 't' ? "--timeout" :
                 c == 'm' ? "--memory" : c == 'c' ? "--chunk" : "--slice", optarg,
                 c == 's' ? "non-negative" : "positive");
        return WL_EXIT_USAGE;
      }
      if (c == 'j') o.jobs = (int)v;
      else if (c == 't') o.timeout_s = (int)v;
      else if (c == 'm') o.memory_mb = (size_t)v;
      else if (c == 'c') so.chunk = (int)v;
      else {
        o.slice = (int)v;
        have_slice = 1;
      }
      break;
    case 'h': batch_usage(stdout); return WL_EXIT_OK;
    default:
      wl_error("batch: unknown or incomplete option '%s' (see warplab batch --help)", argv[optind - 1]);
      return WL_EXIT_USAGE;
    }
  }
  if (optind != argc - 2 || !o.out) {
    wl_error("batch: give a lab, a roster folder and --out DIR, e.g. warplab batch 01 class/ --out graded/");
    return WL_EXIT_USAGE;
  }
  if (slurm + collect + have_slice > 1) {
    wl_error("batch: --slurm, --collect and --slice are different modes: give one");
    return WL_EXIT_USAGE;
  }
  o.lab = argv[optind];
  o.roster = argv[optind + 1];
  char self[4096], err[2048], labs[1024];
  if (tc_self_path(self, sizeof self)) {
    wl_error("cannot find the warplab executable to grade with");
    return WL_EXIT_USAGE;
  }
  o.warplab = self;
  /* the lab, loaded now: a wrong number is said at once, not once per student, and its
     rubric says which class charts to draw */
  snprintf(labs, sizeof labs, "%s/labs", tc_home());
  struct run_lab lab;
  if (run_lab_load(o.lab, labs, &lab, err, sizeof err)) {
    wl_error("%s", err);
    return WL_EXIT_USAGE;
  }
  o.lab_def = &lab;
  /* one seed for the class, kept in OUT/seed.txt: every student graded on the same inputs
     (a resumed batch and Slurm's slices read it back), and the reference solution built and
     run once (run_cache.h), not once a student */
  char seedbuf[32];
  if (!o.seed) {
    if (class_seed(o.out, seedbuf, sizeof seedbuf, err, sizeof err)) {
      wl_error("%s", err);
      run_lab_free(&lab);
      return WL_EXIT_USAGE;
    }
    o.seed = seedbuf;
  }
  int rc = WL_EXIT_OK;
  struct batch_summary s;
  if (slurm) {
    char info[4096];
    if (batch_slurm_submit(&o, &so, info, sizeof info, err, sizeof err)) {
      wl_error("%s", err);
      rc = WL_EXIT_USAGE;
    } else {
      fputs(info, stdout);
    }
  } else if (collect) {
    if (batch_collect(&o, &s, err, sizeof err)) {
      wl_error("%s", err);
      rc = WL_EXIT_USAGE;
    } else {
      printf("%u students: %u graded, %u failed to grade, %u without results yet\n"
             "Gradebook: %s/gradebook.csv\nClass charts: %s\n", s.students, s.graded, s.failed,
             s.missing, o.out, s.charts);
      print_others(&s);
      rc = s.missing ? WL_EXIT_FAULT : WL_EXIT_OK;
    }
  } else {
    if (have_slice) {
      o.chunk = so.chunk;
      o.no_class = 1;                 /* an array task: the collection draws the class */
    }
    if (batch_run(&o, &s, err, sizeof err)) {
      wl_error("%s", err);
      rc = WL_EXIT_USAGE;
    } else if (have_slice) {
      printf("slice %d: %u students: %u graded, %u failed to grade, %u kept from an earlier run\n",
             o.slice, s.students, s.graded, s.failed, s.skipped);
      print_others(&s);
    } else {
      printf("%u students: %u graded, %u failed to grade, %u kept from an earlier run (--resume)\n"
             "Gradebook: %s/gradebook.csv\nClass charts: %s\n", s.students, s.graded, s.failed,
             s.skipped, o.out, s.charts);
      print_others(&s);
    }
  }
  run_lab_free(&lab);
  return rc;
}
