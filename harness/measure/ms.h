/* ms.h: the measurement of one launch (ms_): the layer between the backend and a run.
 *
 * A launch on either backend (harness/backend) and everything warplab reports of it come
 * out of here, typed: the emulator's counters (harness/metrics, met_compute), the occupancy
 * calculator's breakdown (occ_compute) fed by ptxas's resources, the timing model's figures
 * (harness/timing) on the emulator, the CUDA events' timing on a GPU, and Nsight Compute's
 * figures, parsed from the CSV of a re-launch under ncu. Each figure is a metric of the
 * catalogue (met_names.def) by id, with its kind; names are for the edges (a run's
 * result.json, reports, ncu's --metrics list).
 *
 *   setup (once per run):  the architecture profile, loaded once by the caller and passed
 *                          down; the decoded module; ptxas's report of the kernel; the
 *                          metrics wanted (a lab's list)
 *   ms_launch:             one launch; with MS_MEASURE also the occupancy, the counters and
 *                          the timing model (the emulator records the blocks the model needs)
 *   ms_occupancy:          the occupancy breakdown of a launch shape, without launching
 *   ms_time:               the GPU's timing discipline (be_time) on a launch
 *   ms_command:            the launch as a `warplab emu ... --backend gpu` command line, with
 *                          the checked launch's inputs, for tools that wrap a launch
 *                          (Nsight Compute, compute-sanitizer)
 *   ms_ncu_list/_parse:    ncu's --metrics list of the wanted metrics, and its CSV read back
 *                          (with warplab's ratios of two of ncu's sums)
 *   ms_derive:             the DRAM bandwidth, from a point's bytes and time
 *
 * Running a tool (ncu, compute-sanitizer, ptxas) is the caller's (harness/run): this layer
 * builds the command and reads the output, and never starts a process.
 */
#ifndef WARPLAB_MS_H
#define WARPLAB_MS_H

#include <stddef.h>
#include <stdint.h>

#include "backend/be.h"
#include "metrics/met.h"
#include "metrics/occ.h"
#include "timing/tm.h"

/* ptxas's report of the kernel, as far as a measurement needs it. */
struct ms_kernel {
  int known;                   /* 0: ptxas did not report the kernel (no ptxas, refused) */
  int registers;               /* per thread */
  int static_smem;             /* bytes */
  int barriers;                /* named block barriers; 0: not reported */
  int has_stack;               /* the stack frame and spills were reported */
  int stack_frame, spill_stores;  /* bytes per thread */
};

/* What every launch of a run shares, set up once. */
struct ms_setup {
  const struct occ_profile *prof;  /* NULL: none (no occupancy, no timing model, default limits) */
  const struct ptx_module *mod;    /* the module the backend loaded */
  struct ms_kernel kern;
  const enum met_id *want;         /* the metrics a run reports (a lab's list), in its order */
  uint32_t nwant;
  const struct ptx_sass *sass;     /* the SASS ptxas makes of the module (tc_sass.h), or NULL:
                                      the counters are then PTX-level */
};

/* One figure: a metric of the catalogue by id, with how it relates to a real GPU's. */
struct ms_value {
  enum met_id id;
  double value;
  int defined;                 /* 0: no figure (a ratio with nothing to divide by) */
  enum met_kind kind;
};

#define MS_MAX_VALUES 48

enum ms_what {
  MS_LAUNCH = 0,               /* the launch alone (a test's) */
  MS_MEASURE = 1,              /* the launch measured: occupancy, counters, timing model */
  MS_RECORD = 2                /* MS_MEASURE's launch, its figures left to ms_finish (a test's
                                  launch that is also a measured configuration's, made before
                                  the SASS map the counters need is there): on the emulator,
                                  the blocks the timing model needs recorded */
};

/* What one measurement produced. values[] holds the figures in the order they were made
   (occupancy, the emulator's counters, the model's, the GPU's time, ncu's, derived ones),
   only the wanted ones where a run has a list to choose from. */
struct ms_result {
  struct be_result br;         /* the launch's outcome (br.emu: the emulator's counts) */
  struct ms_value values[MS_MAX_VALUES];
  uint32_t nvalues;
  const struct occ_profile *prof;  /* the profile used, or NULL */
  int have_occ;                /* the occupancy breakdown below is there */
  struct occ_input occ_in;
  struct occ_result occ;
  int have_rep;                /* emulator: rep holds the launch's counters and lines */
  struct met_report rep;
  int have_tm;                 /* emulator: tm holds the timing model's report */
  struct tm_report tm;
  double time_ms;              /* the launch's time, modelled or measured; < 0: unknown */
  enum met_kind time_kind;     /* MET_MODELLED or MET_MEASURED, when time_ms >= 0 */
  double time_spread_pct;      /* GPU: relative standard error of the repetitions */
  uint32_t reps;
  uint32_t sm_clock_mhz;       /* GPU: the SM clock while timed, 0 when unknown */
  char timing_note[400];       /* emulator: how the time was modelled, or why not; "" */
  double launch_s, model_s;    /* wall seconds of the launch and of the timing model */
  int nomem;                   /* the counters or the model ran out of host memory */
};

/* An empty result (no values, time unknown). */
void ms_result_init(struct ms_result *r);
/* Free what r holds (the emulator's counts, the counters' lines); r is empty again. */
void ms_result_free(struct ms_result *r);

/* The ptxas figures of a launch shape l: the stack frame and spills, and the occupancy
   breakdown (r->occ_in, r->occ) with its figures (theoretical occupancy, blocks per SM,
   registers) when the profile and ptxas's report are there. Returns 1 when the breakdown
   was computed, else 0. */
int ms_occupancy(const struct ms_setup *s, const struct be_launch *l, struct ms_result *r);

/* Launch kernel on b with the packed parameters and the shape l, the launch checked against
   the profile's limits and the kernel's registers (be_launch_limits). what MS_MEASURE adds
   ms_occupancy, and on the emulator: the blocks the timing model needs recorded, the
   counters (r->rep, whether the kernel completed or not; the wanted ones into values when it
   completed), nvprof's two Fermi figures on a 128-byte-transaction profile, and the timing
   model (r->tm, r->time_ms, timing_note, its wanted figures) when it completed. l is not
   changed. r must be ms_result_init'ed; the values are appended. Returns BE_OK (the kernel's
   own faults are in r->br), or the backend's error with err. */
enum be_status ms_launch(const struct ms_setup *s, struct be *b, const char *kernel,
                         const void *params, size_t psize, const struct be_launch *l,
                         enum ms_what what, struct ms_result *r, char *err, size_t errlen);

/* The figures of r, launched with MS_RECORD as l on b: what MS_MEASURE would have made of
   the launch, in its order (the occupancy, then on the emulator the counters, and the
   timing model when it completed). */
void ms_finish(const struct ms_setup *s, struct be *b, const struct be_launch *l,
               struct ms_result *r);

/* The measurement of launch l without launching it: src measured (MS_MEASURE, on the
   emulator, completed) a launch of the same kernel that differed from l only in what the
   kernel cannot see, its dynamic shared memory (ptx_sees_smem_size), so l's blocks would run
   exactly as src's did. r gets l's occupancy, src's counters, and the timing model of l's
   occupancy, replayed on src's recorded blocks (sim_trace_rewave), in ms_launch's order; r
   owns nothing of src's. r must be ms_result_init'ed. Returns 0, or -1 when src's record
   cannot give l's model, or l's shape may not launch (then launch it with ms_launch, which
   says why); r may hold values then: free and init it again. */
int ms_remodel(const struct ms_setup *s, const struct be_launch *l, const struct ms_result *src,
               struct ms_result *r);

/* ms_remodel in two steps, so that its timing model (most of its time) may run elsewhere:
   ms_remodel_begin decides and gives r everything but the model (its plan and src's blocks
   at l's wave into *m, which reads src's record: src must outlive it), ms_remodel_end the
   model, and frees m. Returns as ms_remodel; on -1 there is nothing to end. */
struct ms_remodel {
  struct tm_kernel tk;
  struct tm_plan plan;
  struct sim_trace view;
};
int ms_remodel_begin(const struct ms_setup *s, const struct be_launch *l,
                     const struct ms_result *src, struct ms_result *r, struct ms_remodel *m);
void ms_remodel_end(const struct ms_setup *s, struct ms_remodel *m, struct ms_result *r);

/* GPU: time the launch (be_time: a warm-up, then repetitions after an L2 flush until the
   standard error is under 1% or 200 repetitions or 2 s), r->time_ms the median, and
   gpu__time_duration.sum measured among the values. Returns be_time's status
   (BE_ERR_TIMEOUT: it finished once, then hung while timed; err says so). */
enum be_status ms_time(const struct ms_setup *s, struct be *b, const char *kernel,
                       const void *params, size_t psize, const struct be_launch *l,
                       struct ms_result *r, char *err, size_t errlen);

/* The DRAM bandwidth of r, appended when wanted: from its DRAM bytes and its time (the
   timing model's on the emulator, the CUDA events' with ncu's bytes on a GPU), in bytes per
   second and as a share of the profile's peak, each of the kind of the time. Nsight
   Compute's own figures would be taken under its locked clocks and its own kernel
   duration; these go with the run's times. */
void ms_derive(const struct ms_setup *s, struct ms_result *r);

/* The first defined figure of id in r, or NULL. */
const struct ms_value *ms_get(const struct ms_result *r, enum met_id id);
/* Whether s's run reports metric id (it is in s->want). */
int ms_wanted(const struct ms_setup *s, enum met_id id);
/* Append a figure; 0, or -1 when r is full (the figure is left out). */
int ms_add(struct ms_result *r, enum met_id id, double value, int defined, enum met_kind kind);

/* ---- a launch as a command line, for tools that wrap one ---- */

/* One argument of the launch, as `warplab emu --arg` gives it the same value. */
enum ms_arg_init {
  MS_ARG_SCALAR = 0,           /* TYPE:V */
  MS_ARG_ZERO,                 /* TYPEbuf:N:zero (an output, or an input made of zeros) */
  MS_ARG_RAND,                 /* TYPEbuf:N:rand:SEED: the same generator, the same seed */
  MS_ARG_IOTA,                 /* TYPEbuf:N:iota */
  MS_ARG_DATA                  /* TYPEbuf:N:file=PATH: the bytes as the launch had them,
                                  written to a file of the command's own */
};

struct ms_arg {
  enum ms_arg_init init;
  const char *type;            /* "f32", "u64", ... as warplab emu names it */
  uint64_t count;              /* a buffer's elements */
  int64_t scalar;              /* MS_ARG_SCALAR */
  uint64_t seed;               /* MS_ARG_RAND */
  const void *data;            /* MS_ARG_DATA: count elements, bytes bytes */
  size_t bytes;
};

#define MS_MAX_ARGS 32

struct ms_command {
  char grid[64], block[64], smem[32];
  char specs[MS_MAX_ARGS][1400];
  char *argv[32 + 2 * MS_MAX_ARGS];
};

/* argv[first..] of `SELF emu PTX --kernel K --grid X,Y,Z --block X,Y,Z --smem N --backend
   gpu --arg SPEC...`, NULL-terminated: launch l of kernel in the PTX file ptx with args.
   MS_ARG_DATA inputs are written to DIR/launch-input-I.bin. The strings self, ptx, kernel
   and dir must outlive c. Returns 0, or -1 (more than MS_MAX_ARGS arguments, an input file
   that cannot be written). */
int ms_command(struct ms_command *c, int first, const char *self, const char *ptx,
               const char *kernel, const struct be_launch *l, const struct ms_arg *args,
               uint32_t nargs, const char *dir);

/* The wanted metrics Nsight Compute can measure, comma-separated, into buf: not warplab's own
   (warplab__), the launch's (launch__), the time (the CUDA events give it), the theoretical
   occupancy (the calculator's), or the derived bandwidth. Returns how many. */
int ms_ncu_list(const struct ms_setup *s, char *buf, size_t n);

/* Read ncu --csv output text (changed in place) into r: each row naming a wanted metric whose
   value is a number becomes a measured figure; then warplab's ratios of two of ncu's sums,
   which ncu has no metric for (shared wavefronts per request), computed as the emulator
   computes them when the ratio is wanted and both sums are there. Returns 1 when ncu said
   the performance counters are not permitted (ERR_NVGPUCTRPERM), else 0. */
int ms_ncu_parse(const struct ms_setup *s, char *text, struct ms_result *r);

#endif
