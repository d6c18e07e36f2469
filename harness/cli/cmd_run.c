/* cmd_run.c: `warplab run NN`: run a lab on the student's kernel file (or the solution) and
 * report: the tests, the measurements of the main configuration and of every sweep point,
 * where the results went, and where every figure came from. On a terminal the report is the
 * feedback screen (grader/tui); --plain, --json or an output that is not a terminal give the
 * text or the JSON. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/warplab.h"
#include "grader/tui/tui.h"
#include "metrics/met.h"
#include "plots/plot.h"
#include "plots/plot_lanes.h"
#include "run/run.h"
#include "run/run_exec.h"

static void run_usage(FILE *f)
{
  fputs("usage: warplab run NN [--backend auto|gpu|emu] [--arch PROFILE] [--kernel-file PATH]\n"
        "                      [--solution] [--seed N] [--quick] [--json] [--plain]\n"
        "                      [--results DIR] [--size NAME=N]...\n"
        "\n"
        "Runs lab NN (labs/NN-name): builds the kernel file, checks it on every test size,\n"
        "then measures it on the lab's problem size and sweeps. On a terminal the results are\n"
        "the feedback screen (keys: r rerun, w watch the kernel file, b backend, p profile,\n"
        "? help, q quit), scored against the reference solution; elsewhere a text report.\n"
        "  --backend   auto (default): the GPU when a driver and device are present, else the\n"
        "              emulator; gpu or emu to choose\n"
        "  --arch      the emulator's architecture profile (harness/arch: h200, h100-sxm, a100,\n"
        "              v100, fermi-m2070, ...); default: the sm_90 profile\n"
        "  --solution  run the lab's reference solution (solutions/NN-name)\n"
        "  --seed      replay the inputs of a recorded run\n"
        "  --quick     the tests and the main configuration only, no sweeps\n"
        "  --plain     the text report, not the feedback screen, on a terminal too\n"
        "  --json      the result as JSON on stdout (as written to result.json)\n"
        "  --no-ncu    on the GPU: timings only, no Nsight Compute runs for the metrics\n"
        "  --profile-all  on the GPU: Nsight Compute on every sweep configuration too (by\n"
        "              default only the main configuration is profiled; the sweeps are timed)\n"
        "  --size      change one of the main problem size's variables (e.g. --size nx=4096);\n"
        "              the tests' edge sizes stay as the lab defines them\n"
        "Environment: WARPLAB_GPU_TIMEOUT=S, the seconds a GPU launch may take (60);\n"
        "WARPLAB_EMU_BUDGET=N, the warp-instructions an emulated launch may run (2e8) before\n"
        "it is reported as a runaway loop.\n", f);
  wl_print_exit_codes();
}

static void report_text(FILE *f, const struct run_lab *lab, const struct run_result *r)
{
  const struct run_provenance *p = &r->prov;
  fprintf(f, "warplab run %s: %s\n", lab->id, lab->title);
  fprintf(f, "  kernel file  %s\n", p->kernel_file);
  fprintf(f, "  backend      %s (%s): %s\n", p->backend[0] ? p->backend : "-", p->backend_reason,
          p->device);
  fprintf(f, "  problem      %s   seed %" PRIu64 " (--seed %" PRIu64 " replays it)\n", p->sizes,
          p->seed, p->seed);
  fprintf(f, "  took        ");
  for (int i = 0; i < RUN_PHASE_COUNT; i++)
    if (r->phase_s[i] > 0 || i == RUN_PHASE_TOTAL)
      fprintf(f, " %s %.1f s%s", run_phase_name((enum run_phase)i), r->phase_s[i],
              i == RUN_PHASE_TOTAL ? "" : ",");
  fputc('\n', f);
  if (!r->built) {
    fprintf(f, "\nThe kernel did not build:\n%s", r->build_log);
    return;
  }
  fprintf(f, "\nTests\n");
  uint32_t pass = 0;
  for (uint32_t i = 0; i < r->nchecks; i++) {
    const struct run_check *c = &r->checks[i];
    pass += c->state == RUN_CHECK_PASS;
    fprintf(f, "  %-5s %s\n", run_check_state_label(c->state), c->label);
    if (c->state != RUN_CHECK_PASS)
      fprintf(f, "        %s\n", c->detail);
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
  if (!r->npoints) {
    if (!r->all_passed)
      fprintf(f, "\nFix the main size first: measurements are taken when the kernel is correct "
              "on the main size.\n");
    return;
  }
  /* the measurement table: one row per point, one column per metric of the first point */
  const struct run_point *p0 = &r->points[0];
  fprintf(f, "\nMeasurements (%s)\n  %-16s %-9s", p->backend[0] == 'g' ? "measured on the GPU" :
          "counted by the emulator", "configuration", "grid");
  for (uint32_t m = 0; m < p0->nmetrics; m++)
    fprintf(f, " %10s", met_short_label(p0->metric[m].name));
  fputc('\n', f);
  for (uint32_t i = 0; i < r->npoints; i++) {
    const struct run_point *pt = &r->points[i];
    char cfg[80], grid[32];
    snprintf(cfg, sizeof cfg, "%s%s", pt->sweep[0] ? "" : "* ", pt->label);
    snprintf(grid, sizeof grid, "%ux%u", pt->grid[0], pt->grid[1]);
    fprintf(f, "  %-16s %-9s", cfg, pt->problem[0] && !pt->nmetrics ? "-" : grid);
    for (uint32_t m = 0; m < p0->nmetrics; m++) {
      const struct run_metric *x = NULL;
      for (uint32_t k = 0; k < pt->nmetrics; k++)
        if (!strcmp(pt->metric[k].name, p0->metric[m].name))
          x = &pt->metric[k];
      if (x && x->defined && x->value == (double)(long long)x->value && fabs(x->value) < 1e10)
        fprintf(f, " %10lld", (long long)x->value);
      else if (x && x->defined)
        fprintf(f, " %10.4g", x->value);
      else
        fprintf(f, " %10s", "-");
    }
    if (pt->problem[0])
      fprintf(f, "  %s", pt->problem);
    fputc('\n', f);
  }
  fprintf(f, "  * the kernel file's own choice. Kinds:");
  for (uint32_t m = 0; m < p0->nmetrics; m++)
    fprintf(f, " %s=%s", met_short_label(p0->metric[m].name), p0->metric[m].kind);
  fputc('\n', f);
  if (p->backend[0] == 'e' && p->timing_note[0])
    fprintf(f, "  (%s)\n", p->timing_note);
  else if (p->ncu_note[0])
    fprintf(f, "  %s; SM clock %u MHz\n", p->ncu_note, p->sm_clock_mhz);
  if (r->nhot) {
    fprintf(f, "\nWhere to look (your configuration, counted by the emulator)\n");
    for (uint32_t i = 0; i < r->nhot; i++) {
      const char *base = strrchr(r->hot[i].file, '/');
      fprintf(f, "  %s:%u: %s\n", base ? base + 1 : r->hot[i].file, r->hot[i].line, r->hot[i].text);
    }
  }
  fprintf(f, "\nResults in %s\n", r->results_dir);
}

static json_t *sizes_json(const struct run_sizes *s)
{
  json_t *o = json_object();
  for (uint32_t i = 0; i < s->n; i++)
    json_object_set_new(o, s->name[i], json_integer(s->v[i]));
  return o;
}

static json_t *result_json(const struct run_lab *lab, const struct run_result *r)
{
  const struct run_provenance *p = &r->prov;
  json_t *o = json_object();
  json_object_set_new(o, "lab", json_string(lab->id));
  json_object_set_new(o, "title", json_string(lab->title));
  json_object_set_new(o, "provenance", json_pack(
      "{s:s,s:s,s:s,s:s,s:s,s:s,s:I,s:s,s:s,s:s,s:s,s:I}", "warplab", p->warplab_version,
      "backend", p->backend, "backend_reason", p->backend_reason, "device", p->device,
      "profile", p->profile, "nvcc", p->nvcc_version, "seed", (json_int_t)p->seed, "sizes",
      p->sizes, "kernel_file", p->kernel_file, "ptx", p->ptx_file, "started", p->started,
      "sm_clock_mhz", (json_int_t)p->sm_clock_mhz));
  json_object_set_new(json_object_get(o, "provenance"), "metrics_source", json_string(p->ncu_note));
  if (p->timing_note[0])
    json_object_set_new(json_object_get(o, "provenance"), "timing_model", json_string(p->timing_note));
  if (p->isolation[0])
    json_object_set_new(json_object_get(o, "provenance"), "isolation", json_string(p->isolation));
  json_t *ph = json_object();
  for (int i = 0; i < RUN_PHASE_COUNT; i++)
    json_object_set_new(ph, run_phase_name((enum run_phase)i), json_real(r->phase_s[i]));
  json_object_set_new(o, "phase_seconds", ph);
  json_object_set_new(o, "built", json_boolean(r->built));
  json_object_set_new(o, "build_log", json_string(r->build_log));
  json_object_set_new(o, "registers", r->registers ? json_integer(r->registers) : json_null());
  json_t *tests = json_array();
  for (uint32_t i = 0; i < r->nchecks; i++) {
    const struct run_check *c = &r->checks[i];
    json_t *t = json_pack("{s:s,s:o,s:s,s:s}", "label", c->label, "sizes", sizes_json(&c->sizes),
                          "state", run_check_state_name(c->state),
                          "detail", c->detail);
    if (c->first_bad >= 0 && c->state == RUN_CHECK_FAIL)
      json_object_set_new(t, "first_bad", json_integer(c->first_bad));
    if (c->fault_line)
      json_object_set_new(t, "source", json_pack("{s:s,s:I}", "file", c->fault_file, "line",
                                                 (json_int_t)c->fault_line));
    json_array_append_new(tests, t);
  }
  json_object_set_new(o, "tests", tests);
  json_object_set_new(o, "all_passed", json_boolean(r->all_passed));
  json_object_set_new(o, "printf", run_result_printf_json(r));
  json_object_set_new(o, "integrity", r->integrity[0] ? json_string(r->integrity) : json_null());
  json_t *hot = json_array();
  for (uint32_t i = 0; i < r->nhot; i++)
    json_array_append_new(hot, json_pack("{s:s,s:I,s:s}", "file", r->hot[i].file, "line",
                                         (json_int_t)r->hot[i].line, "finding", r->hot[i].text));
  json_object_set_new(o, "hotspots", hot);
  json_t *pts = json_array();
  for (uint32_t i = 0; i < r->npoints; i++) {
    const struct run_point *pt = &r->points[i];
    json_t *m = json_object();
    for (uint32_t k = 0; k < pt->nmetrics; k++)
      json_object_set_new(m, pt->metric[k].name,
                          json_pack("{s:o,s:s}", "value", pt->metric[k].defined ? json_real(pt->metric[k].value) : json_null(),
                                    "kind", pt->metric[k].kind));
    json_array_append_new(pts, json_pack(
        "{s:s,s:s,s:o,s:[I,I,I],s:[I,I,I],s:I,s:b,s:s,s:o,s:s,s:o}", "sweep", pt->sweep, "label",
        pt->label, "choices", sizes_json(&pt->choices), "grid", (json_int_t)pt->grid[0],
        (json_int_t)pt->grid[1], (json_int_t)pt->grid[2], "block", (json_int_t)pt->block[0],
        (json_int_t)pt->block[1], (json_int_t)pt->block[2], "smem", (json_int_t)pt->smem,
        "correct", pt->correct, "problem", pt->problem, "time_ms",
        pt->time_ms >= 0 ? json_real(pt->time_ms) : json_null(), "time_kind", pt->time_kind,
        "metrics", m));
  }
  json_object_set_new(o, "points", pts);
  json_object_set_new(o, "results_dir", json_string(r->results_dir));
  json_object_set_new(o, "exit_code", json_integer(run_exit_code(r)));
  return o;
}

int wl_cmd_run(int argc, char **argv)
{
  static const struct option longopts[] = {
    {"backend", required_argument, 0, 'b'}, {"arch", required_argument, 0, 'a'},
    {"kernel-file", required_argument, 0, 'k'}, {"solution", no_argument, 0, 's'},
    {"seed", required_argument, 0, 'S'}, {"json", no_argument, 0, 'j'},
    {"quick", no_argument, 0, 'q'}, {"results", required_argument, 0, 'r'},
    {"no-ncu", no_argument, 0, 'N'}, {"size", required_argument, 0, 'Z'},
    {"profile-all", no_argument, 0, 'A'}, {"plain", no_argument, 0, 'P'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0},
  };
  struct run_opts o;
  memset(&o, 0, sizeof o);
  int json = 0, plain = 0, c;
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
      wl_error("run: unknown or incomplete option '%s' (see warplab run --help)", argv[optind - 1]);
      return WL_EXIT_USAGE;
    }
  }
  if (optind != argc - 1) {
    wl_error("run: give one lab, e.g. warplab run 01 (see warplab run --help)");
    return WL_EXIT_USAGE;
  }
  if (o.solution && o.kernel_file) {
    wl_error("run: --solution and --kernel-file exclude each other");
    return WL_EXIT_USAGE;
  }
  char err[2048];
  struct run_lab lab;
  char labs[1024];
  snprintf(labs, sizeof labs, "%s/labs", run_home());
  if (run_lab_load(argv[optind], labs, &lab, err, sizeof err)) {
    wl_error("%s", err);
    return WL_EXIT_USAGE;
  }
  char self[4096];
  if (!json && !plain && isatty(STDOUT_FILENO) && isatty(STDIN_FILENO) &&
      !run_self_path(self, sizeof self)) {
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
  struct run_result *res = malloc(sizeof *res);
  if (!res) {
    run_lab_free(&lab);
    wl_error("out of host memory");
    return WL_EXIT_USAGE;
  }
  int rc;
  if (run_lab_run(&lab, &o, res, err, sizeof err)) {
    wl_error("%s", err);
    rc = WL_EXIT_USAGE;
  } else {
    rc = run_exit_code(res);
    char charts[4096] = "", perr[512] = "";
    int pst = plot_run_charts(&lab, res, charts, sizeof charts, perr, sizeof perr);
    json_t *j = result_json(&lab, res);
    json_t *cj = json_array();
    for (char *line = charts; *line;) {
      char *nl = strchr(line, '\n');
      if (nl)
        *nl = 0;
      json_array_append_new(cj, json_string(line));
      if (!nl)
        break;
      *nl = '\n';
      line = nl + 1;
    }
    json_object_set_new(j, "charts", cj);
    if (pst != PLOT_OK)
      json_object_set_new(j, "charts_note", json_string(perr));
    char path[1200];
    snprintf(path, sizeof path, "%s/result.json", res->results_dir);
    json_dump_file(j, path, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    if (json) {
      json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
      fputc('\n', stdout);
    } else {
      report_text(stdout, &lab, res);
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
  free(res);
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
  snprintf(labs, sizeof labs, "%s/labs", run_home());
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
