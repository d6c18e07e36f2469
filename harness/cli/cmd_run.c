/* cmd_run.c: `warplab run NN`: run a lab on the student's kernel file (or the solution) and
 * report: the tests, the measurements of the main configuration and of every sweep point,
 * where the results went, and where every figure came from. On a terminal the report is the
 * feedback screen (grader/tui); --plain, --json or an output that is not a terminal give the
 * text or the JSON. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/warplab.h"
#include "grader/grade.h"
#include "grader/session.h"
#include "grader/tui/tui.h"
#include "metrics/met.h"
#include "metrics/met_fmt.h"
#include "plots/plot.h"
#include "plots/plot_lanes.h"
#include "run/run.h"
#include "run/run_describe.h"
#include "toolchain/tc_exec.h"
#include "toolchain/tc_file.h"

static void run_usage(FILE *f)
{
  fputs("usage: warplab run NN [--backend auto|gpu|emu] [--arch PROFILE] [--kernel-file PATH]\n"
        "                      [--solution] [--seed N] [--quick] [--json] [--plain] [--wide]\n"
        "                      [--no-ncu] [--profile-all] [--results DIR] [--keep N]\n"
        "                      [--size NAME=V]... [--main-first DIR]\n"
        "\n"
        "Runs lab NN (labs/NN-name; NN in any form: 1, 01, matrix-add, 01-matrix-add): builds\n"
        "the kernel file, checks it on every test size, then measures it on the lab's problem\n"
        "size and sweeps. On a terminal the results are the feedback screen (? lists its keys),\n"
        "scored against the reference solution; elsewhere, or with --plain, a text report.\n"
        "  --backend      auto (default): the GPU when a driver and device are present, else\n"
        "                 the emulator; gpu or emu to choose\n"
        "  --arch         the emulator's architecture profile (harness/arch: h200, h100-sxm,\n"
        "                 a100, v100, fermi-m2070, ...); default: the sm_90 profile\n"
        "  --kernel-file  the kernel file to run (default: the lab's, labs/NN-name/*.cu)\n"
        "  --solution     run the lab's reference solution (solutions/NN-name)\n"
        "  --seed         replay the inputs of a recorded run (its report gives the seed)\n"
        "  --quick        the tests and the main configuration only, no sweeps\n"
        "  --plain        the text report, not the feedback screen, on a terminal too\n"
        "  --wide         the text report's tables in one piece, however wide (default: split\n"
        "                 to fit 100 columns)\n"
        "  --json         the result as JSON on stdout (as written to result.json)\n"
        "  --no-ncu       on the GPU: timings only, no Nsight Compute runs for the metrics\n"
        "  --profile-all  on the GPU: Nsight Compute on every sweep configuration too (by\n"
        "                 default only the main configuration is profiled; the sweeps are\n"
        "                 timed)\n"
        "  --results      the folder the runs are saved in (default: results); each run goes\n"
        "                 to DIR/NN-name/DATE-TIME-student (or -solution), and\n"
        "                 DIR/NN-name/latest (latest-solution) points at the newest\n"
        "  --keep         how many runs of the lab to keep in the results folder (default 10,\n"
        "                 or WARPLAB_KEEP_RUNS); older ones are removed ('warplab clean' too)\n"
        "  --size         change one of the main problem size's variables (e.g. --size nx=4096);\n"
        "                 the tests' edge sizes stay as the lab defines them\n"
        "  --main-first   write the run so far as DIR/result.json as soon as the main\n"
        "                 configuration is measured, before the sweeps (DIR must not exist;\n"
        "                 the feedback screen shows it while the sweeps run)\n"
        "The text report also runs the reference solution on the same inputs (main size only)\n"
        "for the score, as the feedback screen does; --json does not.\n"
        "Environment: WARPLAB_GPU_TIMEOUT=S, the seconds a GPU launch may take (60);\n"
        "WARPLAB_EMU_BUDGET=N, the warp-instructions an emulated launch may run (2e8) before\n"
        "it is reported as a runaway loop; WARPLAB_KEEP_RUNS=N, as --keep; WARPLAB_REMODEL=0,\n"
        "every sweep point launched on the emulator (by default a point that differs from\n"
        "the one before only in dynamic shared memory the kernel cannot see reuses its\n"
        "launch, and only its occupancy and timing model are made again).\n", f);
  wl_print_exit_codes();
}

/* ---- the text report ---- */

#define REPORT_WIDTH 100   /* the text report fits this many columns unless --wide */

/* The report's page: its width (INT_MAX with --wide) and the stream. */
struct page {
  FILE *f;
  int width;
};

/* text at indent, word-wrapped to the page (a word longer than the line stays whole). */
static void wrap(const struct page *pg, int indent, const char *text)
{
  int room = pg->width - indent;
  if (room < 20)
    room = 20;
  const char *p = text;
  while (*p) {
    size_t n = strcspn(p, "\n");
    const char *end = p + n;
    while (p < end) {
      size_t len = (size_t)(end - p);
      if (len > (size_t)room) {
        size_t cut = (size_t)room;
        while (cut > 0 && p[cut] != ' ')
          cut--;
        if (!cut)   /* one long word: up to its end */
          cut = strcspn(p + room, " \n") + (size_t)room;
        len = cut < len ? cut : len;
      }
      fprintf(pg->f, "%*s%.*s\n", indent, "", (int)len, p);
      p += len;
      while (p < end && *p == ' ')
        p++;
    }
    if (!*end)
      break;
    p = end + 1;
  }
}

/* A point's name: its choices as "VARIANT=0 PITCH=33", or its label when it has none. */
static void point_name(const struct run_point *pt, char *out, size_t n)
{
  size_t k = 0;
  out[0] = 0;
  for (uint32_t i = 0; i < pt->choices.n && k < n; i++)
    k += (size_t)snprintf(out + k, n - k, "%s%s=%" PRId64, i ? " " : "", pt->choices.name[i],
                          pt->choices.v[i]);
  if (!pt->choices.n)
    snprintf(out, n, "%s", pt->label);
}

/* One column of the measurement table: a metric of the main point. */
struct column {
  const char *name, *kind, *unit;
  char label[MET_FMT_LABEL_MAX + 1];
  int width;
};

static const struct run_metric *point_metric(const struct run_point *pt, const char *name)
{
  for (uint32_t k = 0; k < pt->nmetrics; k++)
    if (!strcmp(pt->metric[k].name, name))
      return &pt->metric[k];
  return NULL;
}

static void cell(const struct run_point *pt, const char *name, char *out, size_t n)
{
  const struct run_metric *x = point_metric(pt, name);
  if (x && x->defined)
    met_fmt_value(name, x->value, out, n);
  else
    snprintf(out, n, "-");
}

/* The measurement table: one row per point, one column per metric of the main point, split
   into tables of the columns that fit the page, each starting with the configuration. */
static void report_measurements(const struct page *pg, const struct run_result *r)
{
  const struct run_point *p0 = &r->points[0];
  struct column col[RUN_MAX_POINT_METRICS];
  uint32_t ncol = p0->nmetrics;
  char name[128], grid[32], v[48];
  int kw = (int)strlen("configuration"), gw = (int)strlen("grid");
  for (uint32_t i = 0; i < r->npoints; i++) {
    point_name(&r->points[i], name, sizeof name);
    int len = (int)strlen(name) + 2;
    kw = len > kw ? len : kw;
    snprintf(grid, sizeof grid, "%ux%u", r->points[i].grid[0], r->points[i].grid[1]);
    gw = (int)strlen(grid) > gw ? (int)strlen(grid) : gw;
  }
  for (uint32_t m = 0; m < ncol; m++) {
    struct column *c = &col[m];
    c->name = p0->metric[m].name;
    c->kind = p0->metric[m].kind;
    c->unit = met_fmt_unit(c->name);
    met_fmt_label(c->name, c->label, sizeof c->label);
    c->width = (int)strlen(c->label);
    if ((int)strlen(c->unit) > c->width)
      c->width = (int)strlen(c->unit);
    for (uint32_t i = 0; i < r->npoints; i++) {
      cell(&r->points[i], c->name, v, sizeof v);
      if ((int)strlen(v) > c->width)
        c->width = (int)strlen(v);
    }
  }
  int lead = 2 + kw + 2 + gw;
  uint32_t from = 0, part = 0, nparts = 0;
  /* count the tables first, for their titles */
  for (uint32_t m = 0; m < ncol; nparts++) {
    int w = lead;
    do
      w += 2 + col[m++].width;
    while (m < ncol && w + 2 + col[m].width <= pg->width);
  }
  fprintf(pg->f, "\nMeasurements (%s)\n", r->prov.backend[0] == 'g' ? "measured on the GPU" :
          "counted by the emulator");
  while (from < ncol || (!ncol && !part)) {
    uint32_t to = from;
    int w = lead;
    do
      w += to < ncol ? 2 + col[to++].width : 0;
    while (to < ncol && w + 2 + col[to].width <= pg->width);
    part++;
    if (nparts > 1)
      fprintf(pg->f, "%s  table %u of %u\n", part > 1 ? "\n" : "", part, nparts);
    fprintf(pg->f, "  %-*s  %-*s", kw, "configuration", gw, "grid");
    for (uint32_t m = from; m < to; m++)
      fprintf(pg->f, "  %*s", col[m].width, col[m].label);
    fprintf(pg->f, "\n  %-*s  %-*s", kw, "", gw, "");
    for (uint32_t m = from; m < to; m++)
      fprintf(pg->f, "  %*s", col[m].width, col[m].unit);
    fputc('\n', pg->f);
    for (uint32_t i = 0; i < r->npoints; i++) {
      const struct run_point *pt = &r->points[i];
      char key[140];
      point_name(pt, name, sizeof name);
      snprintf(key, sizeof key, "%s%s", pt->sweep[0] ? "  " : "* ", name);
      snprintf(grid, sizeof grid, "%ux%u", pt->grid[0], pt->grid[1]);
      fprintf(pg->f, "  %-*s  %-*s", kw, key, gw, pt->problem[0] && !pt->nmetrics ? "-" : grid);
      for (uint32_t m = from; m < to; m++) {
        cell(pt, col[m].name, v, sizeof v);
        fprintf(pg->f, "  %*s", col[m].width, v);
      }
      fputc('\n', pg->f);
      if (pt->problem[0] && part == 1)
        wrap(pg, 6, pt->problem);
    }
    from = to;
    if (!ncol)
      break;
  }
  fprintf(pg->f, "  * the kernel file's own choice%s\n", r->npoints > 1 ?
          "; the other rows are the lab's sweeps." : ".");
  if (ncol) {
    fprintf(pg->f, "  Columns (label, kind, Nsight Compute name):\n");
    for (uint32_t m = 0; m < ncol; m++) {
      char line[256];
      snprintf(line, sizeof line, "%-*s %-9s %s", MET_FMT_LABEL_MAX, col[m].label, col[m].kind,
               col[m].name);
      wrap(pg, 4, line);
    }
  }
}

/* The text report of run r: provenance, tests, measurements, hotspots, score (g, NULL when
   not scored; basis: what it was scored against), folder. */
static void report_text(FILE *f, int wide, const struct run_lab *lab, const struct run_result *r,
                        const struct grade_result *g, const char *basis, const char *score_note)
{
  const struct page pg = {f, wide ? INT_MAX : REPORT_WIDTH};
  const struct run_provenance *p = &r->prov;
  char line[2048], backend[512];
  snprintf(line, sizeof line, "warplab run %s: %s", lab->id, lab->title);
  wrap(&pg, 0, line);
  fprintf(f, "  kernel file  %s\n", p->kernel_file);
  snprintf(line, sizeof line, "backend      %s", run_describe_backend(r, backend, sizeof backend));
  wrap(&pg, 2, line);
  if (p->sizes[0]) {
    snprintf(line, sizeof line, "problem      %s   seed %" PRIu64 " (--seed %" PRIu64
             " replays it)", p->sizes, p->seed, p->seed);
    wrap(&pg, 2, line);
  }
  size_t k = (size_t)snprintf(line, sizeof line, "took         ");
  for (int i = 0, first = 1; i < RUN_PHASE_COUNT && k < sizeof line; i++)
    if (r->phase_s[i] > 0 || i == RUN_PHASE_TOTAL) {
      k += (size_t)snprintf(line + k, sizeof line - k, "%s%s %.1f s", first ? "" : ", ",
                            run_phase_name((enum run_phase)i), r->phase_s[i]);
      first = 0;
    }
  wrap(&pg, 2, line);
  if (!r->built) {
    fprintf(f, "\nThe kernel did not build:\n%s", r->build_log);
  } else {
    fprintf(f, "\nTests\n");
    uint32_t pass = 0;
    for (uint32_t i = 0; i < r->nchecks; i++) {
      const struct run_check *c = &r->checks[i];
      pass += c->state == RUN_CHECK_PASS;
      snprintf(line, sizeof line, "%-5s %s", run_check_state_label(c->state), c->label);
      wrap(&pg, 2, line);
      if (c->state != RUN_CHECK_PASS)
        wrap(&pg, 8, c->detail);
    }
    fprintf(f, "  %u of %u passed\n", pass, r->nchecks);
    if (r->printf_out[0] || r->printf_cut) {
      fprintf(f, "\nPrinted by the kernel (printf)\n");
      for (const char *l = r->printf_out; *l;) {
        const char *e = strchr(l, '\n');
        int n = e ? (int)(e - l) : (int)strlen(l);
        fprintf(f, "  %.*s\n", n, l);
        l += n + (e != NULL);
      }
      if (r->printf_cut)
        fprintf(f, "  (cut: a run keeps %u bytes; %s)\n", RUN_PRINTF_MAX, SIM_PRINTF_CUT_NOTE);
    }
    if (!r->npoints && !r->all_passed)
      fprintf(f, "\nFix the main size first: measurements are taken when the kernel is correct on the "
              "main size.\n");
  }
  if (r->npoints) {
    report_measurements(&pg, r);
    if (p->backend[0] == 'e' && p->timing_note[0]) {
      snprintf(line, sizeof line, "(%s)", p->timing_note);
      wrap(&pg, 2, line);
    } else if (p->ncu_note[0]) {
      snprintf(line, sizeof line, "%s; SM clock %u MHz", p->ncu_note, p->sm_clock_mhz);
      wrap(&pg, 2, line);
    }
  }
  if (r->nhot) {
    fprintf(f, "\nWhere to look (your configuration, counted by the emulator)\n");
    for (uint32_t i = 0; i < r->nhot; i++) {
      const char *base = strrchr(r->hot[i].file, '/');
      snprintf(line, sizeof line, "%s:%u: %s%s", base ? base + 1 : r->hot[i].file, r->hot[i].line,
               r->hot[i].text, g && g->hot_expected >> i & 1 ? " (the reference solution does "
               "this too: expected in this lab)" : "");
      wrap(&pg, 2, line);
    }
  }
  if (g) {
    fprintf(f, "\nScore %.1f of %.0f (%s)\n", g->score, g->max, basis);
    for (uint32_t i = 0; i < g->nitems; i++) {
      const struct grade_item *it = &g->items[i];
      /* a metric's name as its column's label: "metric target: sh.ld.confl at most 0" */
      const char *at = it->metric[0] ? strstr(it->name, it->metric) : NULL;
      char label[MET_FMT_LABEL_MAX + 1], name[300];
      if (at)
        snprintf(name, sizeof name, "%.*s%s%s", (int)(at - it->name), it->name,
                 met_fmt_label(it->metric, label, sizeof label), at + strlen(it->metric));
      else
        snprintf(name, sizeof name, "%s", it->name);
      snprintf(line, sizeof line, "%5.1f/%-5.1f %s%s%s", it->score, it->max, name,
               it->target[0] ? ": " : "", it->target);
      wrap(&pg, 2, line);
    }
    for (uint32_t i = 0; i < g->nhints; i++) {
      snprintf(line, sizeof line, "hint: %s", g->hints[i]);
      wrap(&pg, 2, line);
    }
    if (g->note[0])
      wrap(&pg, 2, g->note);
    if (score_note && score_note[0])
      wrap(&pg, 2, score_note);
  } else if (score_note && score_note[0]) {
    snprintf(line, sizeof line, "Score: %s", score_note);
    fputc('\n', f);
    wrap(&pg, 0, line);
  }
  fprintf(f, "\nResults in %s\n", r->results_dir);
}

/* The score of the session's run, as the feedback screen gives it (grader/session.h):
   against the reference solution run on the same inputs, with answers.json beside the kernel
   file. basis says what it was scored against; note why the score or the handout's questions
   are missing. Returns the grade, or NULL. */
static const struct grade_result *score_run(struct gs_session *s, int keep, char *basis,
                                            size_t blen, char *note, size_t nlen)
{
  enum gs_status st = gs_run(s);
  struct stat st_ref;
  if (s->ref_source == GS_REF_RUN && stat(s->ref->results_dir, &st_ref) == 0)
    wl_results_after_run(s->ref->results_dir, keep);   /* (a kept run's folder may be gone) */
  snprintf(basis, blen, "%s", s->ref_source == GS_REF_NONE ? s->ref_note
           : s->ref_source == GS_REF_SHIPPED ? "against the reference solution's figures "
           "shipped with this copy" : "against the reference solution on the same inputs");
  if (st == GS_NO_RUBRIC) {
    snprintf(note, nlen, "%.1000s", s->error);
    return NULL;
  }
  if (st != GS_OK) {
    snprintf(note, nlen, "not scored: %.1000s", s->error);
    return NULL;
  }
  if (s->answers_note[0])
    snprintf(note, nlen, "%.500s", s->answers_note);
  else if (!s->answers[0])
    snprintf(note, nlen, "the handout's questions score from answers.json beside the kernel "
             "file ({\"q1\": 4, ...}); there is none");
  return s->grade;
}

/* --main-first DIR: the run so far, once its main configuration is measured and before its
   sweeps, as DIR/result.json (written into DIR.part, then renamed to DIR, so that a reader
   that finds DIR finds it whole; DIR must not exist). The feedback screen shows it while the
   sweeps run. */
struct main_first {
  const char *dir;
  const struct run_lab *lab;
  int done;
};

static void write_main_first(const struct run_result *res, void *arg)
{
  struct main_first *m = arg;
  if (m->done)
    return;
  m->done = 1;
  char part[1100], err[512];
  snprintf(part, sizeof part, "%s.part", m->dir);
  json_t *j = run_result_json(m->lab, res, NULL, NULL);
  if (!j || (mkdir(part, 0700) != 0 && errno != EEXIST) ||
      run_result_save(part, j, err, sizeof err) || rename(part, m->dir) != 0)
    wl_error("--main-first %s: cannot write the main configuration's result: %s", m->dir,
             strerror(errno));
  json_decref(j);
}

int wl_cmd_run(int argc, char **argv)
{
  static const struct option longopts[] = {
    {"backend", required_argument, 0, 'b'}, {"arch", required_argument, 0, 'a'},
    {"kernel-file", required_argument, 0, 'k'}, {"solution", no_argument, 0, 's'},
    {"seed", required_argument, 0, 'S'}, {"json", no_argument, 0, 'j'},
    {"quick", no_argument, 0, 'q'}, {"results", required_argument, 0, 'r'},
    {"no-ncu", no_argument, 0, 'N'}, {"size", required_argument, 0, 'Z'},
    {"profile-all", no_argument, 0, 'A'}, {"plain", no_argument, 0, 'P'},
    {"wide", no_argument, 0, 'W'}, {"keep", required_argument, 0, 'K'},
    {"main-first", required_argument, 0, 'M'},
    {"help", no_argument, 0, 'h'}, {0, 0, 0, 0},
  };
  const char *keep_s = NULL;
  struct main_first early = {0};
  struct run_opts o;
  memset(&o, 0, sizeof o);
  o.sweep_counters = 1;                         /* GPU: the sweeps' ratios from the emulator */
  int json = 0, plain = 0, wide = 0, c;
  optind = 1;
  opterr = 0;
  while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
    switch (c) {
    case 'b':
      if (!strcmp(optarg, "auto")) o.backend = RUN_BACKEND_AUTO;
      else if (!strcmp(optarg, "gpu")) o.backend = RUN_BACKEND_GPU;
      else if (!strcmp(optarg, "emu")) o.backend = RUN_BACKEND_EMU;
      else {
        wl_error("--backend '%s': expected auto, gpu or emu", optarg);
        return WL_EXIT_USAGE;
      }
      break;
    case 'a': o.profile = optarg; break;
    case 'k': o.kernel_file = optarg; break;
    case 's': o.solution = 1; break;
    case 'S': {
      char *end;
      errno = 0;
      unsigned long long v = strtoull(optarg, &end, 10);
      if (errno || *end || !*optarg || optarg[strspn(optarg, " \t")] == '-') {
        wl_error("--seed '%s': expected a number from 0 to 2^64-1", optarg);
        return WL_EXIT_USAGE;
      }
      o.seed = v;
      o.have_seed = 1;
      break;
    }
    case 'j': json = 1; break;
    case 'P': plain = 1; break;
    case 'W': wide = 1; break;
    case 'K': keep_s = optarg; break;
    case 'M': early.dir = optarg; break;
    case 'q': o.quick = 1; break;
    case 'N': o.no_ncu = 1; break;
    case 'A': o.profile_all = 1; break;
    case 'r': o.results_root = optarg; break;
    case 'Z':
      if (o.nsize_set == sizeof o.size_set / sizeof *o.size_set) {
        wl_error("--size: at most %zu", sizeof o.size_set / sizeof *o.size_set);
        return WL_EXIT_USAGE;
      }
      o.size_set[o.nsize_set++] = optarg;
      break;
    case 'h': run_usage(stdout); return WL_EXIT_OK;
    default:
      wl_bad_option("run", argv[optind - 1], longopts);
      return WL_EXIT_USAGE;
    }
  }
  if (optind != argc - 1) {
    wl_error("run: give one lab, e.g. warplab run 01 (see warplab run --help)");
    return WL_EXIT_USAGE;
  }
  int keep;
  if (wl_results_keep(keep_s, &keep)) {
    wl_error("run: %s '%s': expected a number of runs, 0 or more", keep_s ? "--keep" :
             "WARPLAB_KEEP_RUNS", keep_s ? keep_s : getenv("WARPLAB_KEEP_RUNS"));
    return WL_EXIT_USAGE;
  }
  if (o.solution && o.kernel_file) {
    wl_error("run: --solution and --kernel-file exclude each other");
    return WL_EXIT_USAGE;
  }
  char err[2048];
  struct run_lab lab;
  if (wl_lab_load(argv[optind], &lab))
    return WL_EXIT_USAGE;
  char self[4096];
  if (!json && !plain && isatty(STDOUT_FILENO) && isatty(STDIN_FILENO) &&
      !tc_self_path(self, sizeof self)) {
    struct tui_opts t = {.warplab = self, .lab = &lab, .run = o};
    int status;
    int st = tui_run(&t, &status, err, sizeof err);
    if (st != TUI_NO_TERMINAL) {
      run_lab_free(&lab);
      if (st == TUI_ERROR) {
        wl_error("%s", err);
        return WL_EXIT_USAGE;
      }
      return st == TUI_STOPPED || status < 0 ? WL_EXIT_STOPPED : status;
    }
    wl_error("%s: the text report follows", err);
  }
  if (keep_s) {   /* the feedback screen's runs keep as many (it passes the environment on) */
    char env[32];
    snprintf(env, sizeof env, "%d", keep);
    setenv("WARPLAB_KEEP_RUNS", env, 1);
  }
  if (early.dir) {
    early.lab = &lab;
    o.on_main = write_main_first;
    o.on_main_arg = &early;
  }
  struct gs_session s;
  if (gs_init(&s) != GS_OK) {
    run_lab_free(&lab);
    wl_error("out of host memory");
    return WL_EXIT_USAGE;
  }
  struct gs_input in = {.mode = GS_FEEDBACK, .lab = &lab, .run = o};
  gs_begin(&s, &in);
  int rc;
  if (gs_step(&s) != GS_OK) {   /* the kernel file's run */
    wl_error("%s", s.error);
    rc = WL_EXIT_USAGE;
  } else {
    const struct run_result *res = s.stu;
    rc = run_exit_code(res);
    wl_results_after_run(res->results_dir, keep);
    char charts[4096] = "", perr[512] = "";
    int pst = plot_run_charts(&lab, res, charts, sizeof charts, perr, sizeof perr);
    json_t *j = run_result_json(&lab, res, charts, pst != PLOT_OK ? perr : NULL);
    char werr[512];
    if (run_result_save(res->results_dir, j, werr, sizeof werr))
      wl_error("%s", werr);
    if (json) {
      json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
      fputc('\n', stdout);
    } else {
      char note[1100] = "", basis[1300];
      const struct grade_result *g = score_run(&s, keep, basis, sizeof basis, note, sizeof note);
      report_text(stdout, wide, &lab, res, g, basis, note);
      if (charts[0]) {
        printf("Charts\n");
        for (char *line = charts; *line;) {
          size_t len = strcspn(line, "\n");
          printf("  %.*s\n", (int)len, line);
          line += len + (line[len] == '\n');
        }
      }
      if (pst != PLOT_OK)
        printf("Charts: %s\n", perr);
    }
    json_decref(j);
  }
  gs_free(&s);
  run_lab_free(&lab);
  return rc;
}

/* `warplab charts RESULTS_DIR`: draw a saved run's charts again, from its result.json. */
int wl_cmd_charts(int argc, char **argv)
{
  if (argc != 2 || argv[1][0] == '-') {
    fputs("usage: warplab charts RESULTS_DIR   (a folder `warplab run` wrote: its result.json;\n"
          "                                    its charts.json, when it has one, says the charts)\n",
          argc == 2 ? stdout : stderr);
    return argc == 2 ? WL_EXIT_OK : WL_EXIT_USAGE;
  }
  struct run_result *res = malloc(sizeof *res);
  char id[128], err[1024];
  if (!res) {
    wl_error("out of host memory");
    return WL_EXIT_USAGE;
  }
  int rc = WL_EXIT_USAGE;
  struct run_lab lab;
  char labs[1024];
  snprintf(labs, sizeof labs, "%s/labs", tc_home());
  if (run_result_load(argv[1], res, id, sizeof id, err, sizeof err) ||
      run_lab_load(id, labs, &lab, err, sizeof err)) {
    wl_error("%s", err);
    free(res);
    return rc;
  }
  res->lab = &lab;
  char charts[4096] = "";
  /* a benchmark's folder (lab 03's staircase.sh) brings its own charts.json */
  int st = plot_use_folder_charts(&lab, res, argv[1], err, sizeof err) < 0
           ? PLOT_BAD_CHART : plot_run_charts(&lab, res, charts, sizeof charts, err, sizeof err);
  if (st != PLOT_OK)
    wl_error("%s", err);
  else
    rc = WL_EXIT_OK;
  for (char *line = charts; *line;) {
    size_t len = strcspn(line, "\n");
    printf("%.*s\n", (int)len, line);
    line += len + (line[len] == '\n');
  }
  run_lab_free(&lab);
  free(res);
  return rc;
}
