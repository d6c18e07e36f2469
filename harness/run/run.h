/* run.h: one run of a lab: build the kernel file, check it on every test size, measure it
 * on the lab's problem size and sweeps, and record where every figure came from.
 *
 * The result structures below are what the layers above (the report, plots/, grader/) read;
 * nothing above looks at the emulator or the backend directly.
 */
#ifndef WARPLAB_RUN_H
#define WARPLAB_RUN_H

#include <stdint.h>

#include "backend/be.h"
#include "run/run_lab.h"

/* warplab's version, in every result's provenance */

enum run_backend { RUN_BACKEND_AUTO = 0, RUN_BACKEND_EMU, RUN_BACKEND_GPU };

struct run_result;

struct run_opts {
  enum run_backend backend;
  const char *profile;         /* emulator architecture profile ("h200"); NULL: the default */
  const char *kernel_file;     /* NULL: the lab's starter file, or the solution */
  int solution;                /* run solutions/NN-name/ instead of the student's file */
  int have_seed;
  uint64_t seed;               /* replay a recorded run */
  const char *results_root;    /* NULL: "results" */
  int quick;                   /* skip the sweeps (tests and the main size only) */
  int no_ncu;                  /* GPU: timings only, no Nsight Compute runs */
  int profile_all;             /* GPU: Nsight Compute on every sweep configuration, not only
                                  the main one (each costs a profiled launch, seconds each) */
  int sweep_counters;          /* GPU without profile_all: the sweeps' ratio metrics from the
                                  emulator's exact counters of the same PTX at the lab's
                                  emulator size (run_emu_sweeps), labelled so */
  const char *size_set[8];     /* "NAME=V": problem-size variables of the main size to change */
  uint32_t nsize_set;
  int hidden_tests;            /* also check the tests lab.json marks "hidden" (grade only) */
  int figures_only;            /* a reference run whose figures alone are used (the score's):
                                  a kept run serves it wherever its results folder is */
  const char *reference_so;    /* the lab's reference library, already built
                                  (run_reference_build): loaded instead of building it into
                                  the results folder; NULL: built there */
  /* Called once, with the run so far (the tests and the main configuration, its only point),
     when the main configuration is measured and sweeps are still to run; NULL: not called.
     `warplab run --main-first`, for the feedback screen. On a GPU it runs in the run's child
     process. */
  void (*on_main)(const struct run_result *res, void *arg);
  void *on_main_arg;
};

/* A check's outcome. TIMEOUT: on the GPU the kernel did not finish within
   WARPLAB_GPU_TIMEOUT seconds (it loops or deadlocks; the emulator reports such a kernel as a
   FAULT, a deadlock or a runaway loop at its line); the checks after it are not run. */
enum run_check_state { RUN_CHECK_PASS = 0, RUN_CHECK_FAIL, RUN_CHECK_FAULT, RUN_CHECK_TIMEOUT };

/* The state's name in result.json ("pass", "fail", "fault", "timeout") and in reports ("ok",
   "FAIL", "FAULT", "TIMEOUT"); run_check_state_parse reads the former back (FAULT when
   unknown). */
const char *run_check_state_name(enum run_check_state s);
const char *run_check_state_label(enum run_check_state s);
enum run_check_state run_check_state_parse(const char *name);

/* One correctness test: one problem size. */
struct run_check {
  char label[96];              /* "nx=33 ny=17" */
  struct run_sizes sizes;
  enum run_check_state state;
  char detail[768];            /* the first wrong element, or the fault, in words */
  int64_t first_bad;           /* element index, -1 when none */
  char fault_file[256];        /* a fault's source location, when the emulator found one */
  uint32_t fault_line;
  char fault_kind[24];         /* an emulator fault's kind, as sim_fault_kind_name names it
                                  ("out_of_bounds", "budget_exceeded", "race", ...); "" when
                                  none or not known (a GPU fault) */
  char fault_place[12];        /* an out-of-bounds global access: "one_past" (the element just
                                  past a buffer), "past", "before", "wild", "null"; "" else */
};

#define RUN_MAX_POINT_METRICS 48

struct run_metric {
  char name[96];
  double value;
  int defined;
  char kind[16];               /* "exact", "ptx-level", "modelled", "measured", "from-sass" */
};

/* One measured configuration: the main run, or one point of a sweep. */
struct run_point {
  char sweep[64];              /* "" for the main run */
  char label[64];              /* "32x8" */
  struct run_sizes choices;
  uint32_t grid[3], block[3], smem;
  int correct;                 /* its output matched the reference */
  char problem[768];           /* why not, in words */
  double time_ms;              /* measured (gpu) or modelled (emu); < 0 when unknown */
  double time_spread_pct;      /* gpu: relative spread of the repetitions */
  uint32_t reps;
  char time_kind[16];          /* "measured", "modelled", "none" */
  char remodelled_on[160];     /* emu: the point whose launch this one's is (the same blocks,
                                  run alike: only the dynamic shared memory differed, which
                                  the kernel cannot see), its counters and outputs that
                                  launch's, its occupancy and timing model its own; "" when
                                  launched itself */
  struct run_metric metric[RUN_MAX_POINT_METRICS];
  uint32_t nmetrics;
};

/* How ncu_note starts when ncu was stopped by the limits of the tools run on a student's
   input (tc_exec_tool): the metrics could not be measured, the grader's failure (batch.h). */
#define RUN_NCU_STOPPED "could not be measured: "

struct run_provenance {
  char warplab_version[32];
  char backend[8];             /* "emu" or "gpu" */
  char backend_reason[160];    /* why this backend ("no GPU driver: emulator") */
  char device[256];            /* GPU name and driver, or the emulator and its profile */
  char profile[64];
  char nvcc_version[64];
  char build_from[8];          /* "nvcc", or "cache": the PTX was a build kept in the cache
                                  (tc_build.h), nvcc did not run */
  uint64_t seed;
  char sizes[160];             /* the problem size, as text */
  char kernel_file[1024];
  char ptx_file[1200];
  char started[32];            /* ISO 8601 UTC */
  uint32_t sm_clock_mhz;       /* gpu, when the driver tells */
  uint32_t launches;           /* the kernel's launches the run made and checked: every
                                  test's, and every configuration's not measured on another
                                  launch (the main one on its test's; a sweep point on the
                                  same point's, or remodelled); a GPU's timing repetitions
                                  and profiler's replays aside */
  char ncu_note[400];          /* gpu: where the metrics came from, or why there are none
                                  (RUN_NCU_STOPPED when ncu met a tool limit) */
  char timing_note[400];       /* emu: how times were modelled, or why there are none */
  char isolation[700];         /* how nvcc was kept from files other than the kernel's,
                                  and the run from files other than its own
                                  (tc_build_isolation) */
};

/* The phases of a run whose wall time the report shows: X(ID, "name in result.json") */
#define RUN_PHASES(X) \
  X(RUN_PHASE_BUILD, "build")       /* nvcc, ptxas and loading the module */ \
  X(RUN_PHASE_TESTS, "tests")       /* every test size and the main size, checked */ \
  X(RUN_PHASE_MEASURE, "measure")   /* each configuration, timed or modelled */ \
  X(RUN_PHASE_PROFILE, "profile")   /* GPU: Nsight Compute's profiled launches */ \
  X(RUN_PHASE_TOTAL, "total")

enum run_phase {
#define X(id, name) id,
  RUN_PHASES(X)
#undef X
  RUN_PHASE_COUNT
};

/* A phase's name in result.json and reports ("build", ...). */
const char *run_phase_name(enum run_phase p);

#define RUN_PRINTF_MAX 16384    /* bytes of printf output a run keeps */

struct run_result {
  const struct run_lab *lab;
  int hidden_left_out;         /* the lab's hidden tests were not run (a run, not a grade):
                                  checks[] holds the others and the main size */
  double phase_s[RUN_PHASE_COUNT]; /* wall seconds each phase took; 0 when it did not run */
  struct run_provenance prov;
  int built;
  char build_log[8192];
  struct run_check checks[RUN_MAX_TESTS + 1];
  uint32_t nchecks;
  int all_passed;
  struct run_point points[1 + RUN_MAX_SWEEPS * RUN_MAX_POINTS];
  uint32_t npoints;
  char results_dir[1024];      /* where the report, data and charts went */
  uint32_t registers;          /* from ptxas, 0 when unknown */
  int have_prof;               /* prof holds the architecture profile the run used */
  struct occ_profile prof;     /* loaded once, by the run (or by run_result_load for a run
                                  read back) and passed down: the charts' expressions and the
                                  grader's occupancy hint read it, never load it again */
  struct run_occupancy {       /* the main configuration's occupancy breakdown, as measured
                                  (harness/measure): the calculator's input (ptxas's
                                  resources, the launch) and its answer on prof; have 0 when
                                  not worked out (no profile, no ptxas report) */
    int have;
    struct occ_input in;
    struct occ_result out;
  } occ;
  struct run_hotspot {         /* emulator, main configuration: the lines to look at first */
    char file[256];
    uint32_t line;
    char text[200];
    char kind[16];             /* met_hot_kind_name: "uncoalesced", "divergent", ... */
    double weight;             /* what it costs (met_hotspot.weight), to compare with the
                                  reference solution's run on the same inputs */
  } hot[4];
  uint32_t nhot;
  char printf_out[RUN_PRINTF_MAX]; /* what the kernel printed in the tests (emulator), each
                                  test's under a "[label]" line; "" when nothing */
  int printf_cut;              /* some of it is not there: past RUN_PRINTF_MAX here, or past
                                  what one launch keeps (SIM_PRINTF_CUT_NOTE) */
  char integrity[512];         /* what a graded run flags for the instructor ("reads %clock64
                                  at matrix_add.cu:12", "wrote into its input a"); "" when
                                  nothing */
};

/* A new seed for a run's inputs (48 bits, from the clock and the process id). */
uint64_t run_fresh_seed(void);

/* Exit status of a run, as warplab's exit codes: 0 every test passed, 1 a test failed or the
   kernel faulted, 2 bad usage or input, 3 the kernel did not build. */
int run_exit_code(const struct run_result *r);

/* Run lab with opts; fills *res. The tests lab.json marks hidden are checked only when
   opts->hidden_tests is set (a graded run); otherwise the run is that of the lab without them
   (res->lab is still lab). Returns 0 when the run happened (whatever the kernel did), or
   -1 with err for a problem of ours or of the input (no such file, broken lab, no backend).
   Where a GPU may be used (the backend is not emu and a CUDA driver is installed) the run
   happens in a child process, so that a kernel that hangs the GPU, or a driver that takes
   the process down, ends as a recorded check and leaves this process able to run again. */
/* Build the lab's reference (the C source lab.json names, with harness/run/lab_ref.h) into
   the shared library so_out, or take it from the build cache. `warplab grade` builds it
   before the confinement, which leaves the cache out of the student's run's reach, and
   hands it to that run (run_opts.reference_so): built in there, it was compiled again for
   every student of a batch (0.1 s of CPU each). 0, or -1 with err in words. */
int run_reference_build(const struct run_lab *lab, const char *so_out, char *err, size_t errlen);

int run_lab_run(const struct run_lab *lab, const struct run_opts *opts, struct run_result *res,
                char *err, size_t errlen);

/* The choices the kernel file at path sets as its text tells them (`__constant__ int NAME =
   3;`, or `= SOA;` after `#define SOA 1`), over ch's values: a guess from the text alone,
   before the file is built (the run's are the PTX's); a name the text sets no other way
   keeps its value. */
void run_choices_guess(const char *path, struct run_sizes *ch);

struct run_inputs;

/* Make in pool, for the sweeps of a run on size with the choices ch (the main
   configuration's; its launch seeded seed), each random ("rand") input buffer at the largest
   count a sweep point gives it, so that every point's buffer of that input is the start of
   one made (run_inputs_get), none made on its own; none of more than max_bytes (0: no
   limit). Makes no more once *stop (atomic; NULL: none) is set. */
void run_sweep_inputs_ahead(const struct run_lab *lab, struct run_inputs *pool,
                            const struct run_sizes *size, const struct run_sizes *ch,
                            uint64_t seed, uint64_t max_bytes, const int *stop);

struct tc_resources;

/* The stack frames of the device functions in ptxas's report rs[0 .. n) into out (at most
   max), each naming rs[i].name (out lives no longer than rs): what each activation of a
   recursive function takes on the GPU (be_launch.frames; without them the emulator charges
   an estimate). Returns the count. */
uint32_t run_device_frames(const struct tc_resources *rs, int n, struct sim_frame *out,
                           uint32_t max);

/* The kernel file a run with opts builds: opts->kernel_file, the solution's
   (solutions/NN-name/KERNEL.cu) or the lab's starter file; in buf when made up. */
const char *run_kernel_path(const struct run_lab *lab, const struct run_opts *opts, char *buf,
                            size_t n);

/* Add one test's printf output (text, len bytes, cut: the launch did not keep all of it)
   to r's, under a line naming the test; what does not fit is cut (r->printf_cut). */
void run_result_add_printf(struct run_result *r, const char *label, const char *text, size_t len,
                           int cut);
/* r's printf output as result.json holds it: {"text": ..., "cut": ...}, or null when the
   kernel printed nothing. */
json_t *run_result_printf_json(const struct run_result *r);

/* result.json's owner is run_result.c: it writes it (these two) and reads it
   (run_result_load); nothing else knows its fields.
   run_result_json: run r of lab as result.json's JSON, with charts (the PNGs drawn, one a
   line; NULL: none) and charts_note (why charts are missing; NULL: none). The caller owns it. */
json_t *run_result_json(const struct run_lab *lab, const struct run_result *r, const char *charts,
                        const char *charts_note);
/* Write j as dir/result.json. Returns 0, or -1 with err. */
int run_result_save(const char *dir, json_t *j, char *err, size_t errlen);
/* The run saved in from_dir/result.json made fit to ship (a students' copy's reference
   figures): without paths, build log, hot spots, charts or integrity findings, with note as
   provenance.shipped (NULL: none); written to to_dir/result.json (to_dir exists). Returns 0,
   or -1 with err. */
int run_result_ship(const char *from_dir, const char *to_dir, const char *note, char *err,
                    size_t errlen);

/* Read the run saved in dir/result.json back into *res (provenance, points and their metrics;
   results_dir = dir) and its lab's id into lab_id. Returns 0, or -1 with err. */
int run_result_load(const char *dir, struct run_result *res, char *lab_id, size_t lab_len,
                    char *err, size_t errlen);

#endif
