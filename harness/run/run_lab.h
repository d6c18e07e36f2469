/* run_lab.h: a lab definition (labs/NN-name/lab.json), loaded and checked.
 *
 * The format is described in labs/README.md. Loading checks everything that can be checked
 * before a run (types, roles, expressions parse against the names they may use, sweep
 * shapes), so a mistake in a lab is reported with the file and the field, up front. Every
 * metric name (the "metrics" list, the charts' y, x and predict expressions, the rubric's
 * targets and performance metric) is resolved in the metric catalogue (met_names.def): an
 * unknown one is refused with its line in lab.json and the nearest catalogue name.
 */
#ifndef WARPLAB_RUN_LAB_H
#define WARPLAB_RUN_LAB_H

#include <jansson.h>
#include <stdint.h>

#include "metrics/met.h"
#include "run/run_data.h"

#define RUN_MAX_PARAMS 16
#define RUN_MAX_VARS 16
#define RUN_MAX_TESTS 16
#define RUN_MAX_SWEEPS 4
#define RUN_MAX_POINTS 32
#define RUN_MAX_METRICS 32
#define RUN_EXPR_LEN 128

enum run_role { RUN_ROLE_SCALAR = 0, RUN_ROLE_IN, RUN_ROLE_OUT, RUN_ROLE_INOUT };

struct run_param {
  char name[32];
  enum run_elem elem;
  enum run_role role;
  char count[RUN_EXPR_LEN];   /* buffers: elements */
  char init[64];              /* buffers: rand, zero, iota, fill=V */
  char value[RUN_EXPR_LEN];   /* scalars: the value (defaults to the parameter's name) */
};

/* Named integer values: a problem size, or launch choices. */
struct run_sizes {
  uint32_t n;
  char name[RUN_MAX_VARS][32];
  int64_t v[RUN_MAX_VARS];
};

struct run_sweep {
  char name[64];
  uint32_t nset;
  char set[4][32];            /* the choices it varies */
  uint32_t npoints;
  int64_t values[RUN_MAX_POINTS][4];
};

/* A picture of one warp, lane by lane, from the emulator's lane log (lab.json "lane_charts",
   labs/README.md; drawn by plots/plot_lanes.c). */
#define RUN_MAX_LANE_CHARTS 8
enum run_lane_kind {
  RUN_LANES_SECTORS = 0,      /* one global access: lane against 32-byte sector */
  RUN_LANES_BANKS,            /* one shared access: lane against bank */
  RUN_LANES_TIMELINE          /* every step: which lanes ran it, coloured by source line */
};
enum run_lane_access { RUN_LANES_ANY = 0, RUN_LANES_LOAD, RUN_LANES_STORE };

struct run_lane_chart {
  char name[64];              /* the files: NAME.lanes.json (the log), NAME.png ... */
  char title[160];            /* "" : made up from the instruction */
  enum run_lane_kind kind;
  char sweep[64];             /* the point it shows: "" the main configuration, or a sweep ... */
  char point[64];             /* ... and its point, by label ("2", "32x8") */
  uint32_t block, warp;       /* the warp: a linear block index and a warp in it */
  uint32_t line;              /* sectors, banks: the access on this source line (0: any) ... */
  char marker[96];            /* ... or on the first line holding this text ("" : any) */
  enum run_lane_access access;  /* ... that loads or stores; the first the warp executed */
};

/* lab.json's "charts" (plots/README.md), parsed and checked when the lab loads: what plots/
   draws and grader/ names metrics with. Every field is checked here (types, lengths, the
   sweeps named, each expression's syntax as a real expression and each name it uses), so
   plots/ reads no lab.json. */
#define RUN_MAX_CHARTS 16
#define RUN_CHART_SERIES 6    /* metrics of "y" (plots/ draws at most this many lines) */

struct run_chart {
  char name[64];              /* the files: NAME.dat, NAME.gp, NAME.png ... */
  char title[192];            /* "" in lab.json: the name */
  char sweep[64], ylabel[192];
  int log;                    /* "log": a logarithmic y axis */
  double scale;               /* each value times this (1 when absent) */
  uint32_t nseries;
  char metric[RUN_CHART_SERIES][96];   /* "y": a metric's name or a real expression ... */
  int is_expr[RUN_CHART_SERIES];       /* ... 1 for an expression */
  char label[RUN_CHART_SERIES][96];    /* "labels", else the chart's name (one series) or the
                                          metric */
  int lines;                  /* "style": "lines"; the fields below are a line chart's */
  char x[160], xlabel[192];   /* x: a choice, a metric or an expression over them */
  int xlog;
  char predict[320];          /* "" when none */
  char predict_label[96];     /* "prediction" when absent */
  uint32_t nsweeps;           /* "sweeps", or the one "sweep" */
  char sweeps[RUN_MAX_SWEEPS][64];
};

/* lab.json's "rubric", parsed and checked when the lab loads: what grader/ scores with. */
#define RUN_MAX_TARGETS 16
#define RUN_MAX_QUESTIONS 32

struct run_target {           /* rubric.metrics.targets[] */
  char metric[96];            /* the metric's name, as lab.json writes it ... */
  enum met_id id;             /* ... resolved in the catalogue at load */
  int has_max, has_min;       /* at most max, at least min (one of them, or both) */
  double max, min;
  double points;
  char why[512];              /* the reason the feedback gives; "" when none */
};

struct run_question {         /* rubric.questions.items[] */
  char id[64];                /* "q1": its key in answers.json */
  char unit[48];              /* "" when none */
  char section[160];          /* the handout section that explains it; "" when none */
  int pencil;                 /* "method": "pencil": worked out from the handout, not measured */
  int has_answer;             /* 0 in a students' copy (warplab release takes the key out) */
  double answer, tolerance;
};

struct run_rubric {
  int present;                /* lab.json has a "rubric" */
  int has_total;              /* "total": the lab's full score; else the parts' points */
  double total;
  int has_correctness;        /* each part: present, and its points */
  double correctness_points;
  int has_metrics;
  double metrics_points;
  struct run_target targets[RUN_MAX_TARGETS];
  uint32_t ntargets;
  int has_performance;
  double performance_points;
  char performance_metric[96]; /* "" when none */
  double full_within, zero_beyond;  /* full points within this ratio of the reference's
                                       figure, none beyond that one (defaults 1.2 and 10) */
  int has_questions;
  double questions_points;    /* shared evenly by the items */
  struct run_question questions[RUN_MAX_QUESTIONS];
  uint32_t nquestions;
};

struct run_lab {
  char dir[1024];             /* the lab's folder */
  char id[64];                /* "01-matrix-add" */
  char title[160];
  char kernel_file[128], kernel[64];
  struct run_param params[RUN_MAX_PARAMS];
  uint32_t nparams;
  struct run_sizes choices;   /* defaults */
  struct run_sizes emu, gpu;  /* problem sizes */
  struct run_sizes tests[RUN_MAX_TESTS];
  uint32_t ntests;
  char test_arch[RUN_MAX_TESTS][32];  /* a test's own emulator profile ("wave64"), "" if none */
  uint32_t test_warp[RUN_MAX_TESTS];  /* that profile's warp size (32 or 64), read when the lab
                                         loads; 0 if none */
  uint8_t test_hidden[RUN_MAX_TESTS]; /* "hidden": true: only `warplab grade` checks it */
  char grid[3][RUN_EXPR_LEN], block[3][RUN_EXPR_LEN], smem[RUN_EXPR_LEN];
  int cooperative;            /* launch.cooperative: every block resident at once (a kernel
                                 that uses grid.sync() is launched so anyway) */
  uint32_t cluster[3];        /* launch.cluster: thread-block clusters of that shape; 0: none */
  char ref_source[128], ref_function[64];
  int has_abs, has_rel, has_ulp;
  double tol_abs, tol_rel;
  uint64_t tol_ulp;
  struct run_sweep sweeps[RUN_MAX_SWEEPS];
  uint32_t nsweeps;
  char metrics[RUN_MAX_METRICS][96];   /* as lab.json names them: names at the edges ... */
  enum met_id metric_id[RUN_MAX_METRICS];  /* ... each resolved in the catalogue at load */
  uint32_t nmetrics;
  struct run_lane_chart lane_charts[RUN_MAX_LANE_CHARTS];
  uint32_t nlane_charts;
  struct run_rubric rubric;   /* what grader/ scores with */
  struct run_chart charts[RUN_MAX_CHARTS];   /* what plots/ draws */
  uint32_t ncharts;
  char charts_from[32];       /* the file in dir the charts came from, for messages:
                                 "lab.json", or a results folder's "charts.json" */
};

/* Load a lab by number ("01"), name ("01-matrix-add") or folder path. labs_dir is the labs
   folder (NULL: "labs"). Returns 0, or -1 with a message naming the file and field (and for
   an unknown metric, its line: "labs/03-x/lab.json:44: \"metrics\": unknown metric ..."). */
int run_lab_load(const char *which, const char *labs_dir, struct run_lab *lab, char *err,
                 size_t errlen);
/* Release what a loaded lab holds (nothing now: kept so that callers need not know). */
void run_lab_free(struct run_lab *lab);

/* The "rubric" of lab.json's root object (read from file, for messages) into *r, checked: its
   parts objects, points and bounds numbers, each target naming a metric of the catalogue,
   each question an id. No "rubric": r->present 0. Returns 0, or -1 with err naming the file
   and field. run_lab_load does this; a test's or a tool's hand-made lab.json text too. */
int run_rubric_parse(json_t *root, const char *file, struct run_rubric *r, char *err,
                     size_t errlen);

/* The "charts" of root (read from dir/from: "lab.json", or a results folder's "charts.json")
   into lab->charts, checked against lab->sweeps: every field's type and length, each y, x and
   predict a well-formed real expression. No "charts": none. The names the expressions use are
   not resolved here (run_lab_load does that for lab.json: a folder's charts.json may name
   figures of its own). Returns 0, or -1 with err naming the file, the chart and the field. */
int run_charts_parse(json_t *root, const char *from, struct run_lab *lab, char *err,
                     size_t errlen);

/* 1 with the value of name in *v, or 0 when s has no such name. */
int run_sizes_get(const struct run_sizes *s, const char *name, int64_t *v);
/* Set name to v in s (added when absent); -1 when s is full. */
int run_sizes_set(struct run_sizes *s, const char *name, int64_t v);

/* The students' copy of the lab.json at src, written to dst: every "answer" taken out of the
   rubric's questions and every hidden test out of "tests", the rest as it is (key order
   kept); *answers and *hidden count what was taken out. Returns 0, or -1 with err. The one
   other reading of a lab.json than run_lab_load's, here so that this module owns the format. */
int run_lab_students_copy(const char *src, const char *dst, unsigned *answers, unsigned *hidden,
                          char *err, size_t errlen);

#endif
