/* emu_report.h: what `warplab emu` prints about a run: a report for people, or one JSON
 * object for tools. Reads the run's result structures only. */
#ifndef WARPLAB_EMU_REPORT_H
#define WARPLAB_EMU_REPORT_H

#include <stdio.h>

#include "backend/be.h"
#include "metrics/met.h"
#include "metrics/occ.h"
#include "sim/sim.h"
#include "timing/tm.h"
#include "toolchain/tc_ptxas.h"
#include "toolchain/tc_sanitize.h"

/* --order-check: whether a run's values depend on the order warps and blocks run in, from the
   same launch run again under other order seeds (sim_launch.order_seed) on a fresh emulator
   each, every buffer argument compared with the first run's. */
struct emu_order {
  uint32_t runs;               /* runs made, under seeds first, first + 1, ... */
  uint64_t first;              /* the first run's seed (--order's, 0 by default) */
  int all_fault;               /* every run faulted: nothing to compare */
  int depends;                 /* two orders gave different values, or one faulted */
  uint64_t seed_a, seed_b;     /* depends: the first run's seed and the one that differs */
  int fault;                   /* depends: one of the two runs faulted and the other did not */
  uint64_t fault_seed;         /* fault: the seed it faulted under, and its message */
  char fault_message[256];
  uint32_t arg;                /* depends, !fault: the argument that differs ... */
  uint64_t element;            /* ... its first differing element ... */
  char value_a[48], value_b[48]; /* ... and that element under seed_a and under seed_b */
};

struct emu_run {
  const char *kernel;
  const char *source;          /* the file given (.cu or .ptx) */
  const char *ptx_path;        /* kept PTX file, or NULL */
  const char *ptx_text;        /* the PTX, for quoting instructions */
  size_t ptx_len;
  const struct ptx_module *mod;
  const struct sim_launch *cfg;
  const char *arch;
  struct sim_result res;       /* emulator results */
  enum be_kind backend;
  const char *device;          /* the backend's description */
  int ran_ok;
  double gpu_ms;               /* gpu: kernel time from CUDA events */
  const char *gpu_error;       /* gpu: what the driver said of a failed kernel */
  double run_seconds;          /* wall time of the emulated launch itself */
  double model_seconds;        /* wall time of the timing model */
  const struct met_report *met; /* emulator: the launch's metrics, or NULL */
  const struct tc_resources *rsrc; /* ptxas's report of the kernel, or NULL */
  const struct occ_result *occ; /* theoretical occupancy on the profile, or NULL */
  const char *profile;         /* the profile's name */
  const struct tm_report *timing; /* emulator: the timing model's figures, or NULL */
  int show_lines;              /* text report: the per-source-line table */
  const char *sass_note;       /* emulator: why the counts are not from SASS (no nvdisasm,
                                  ptxas refused ...), or NULL when met->sass */
  const struct emu_order *order; /* --order-check's finding, or NULL */
};

void emu_report_text(FILE *f, const struct emu_run *r);
/* Returns 0, or -1 when JSON could not be made (out of memory). */
int emu_report_json(FILE *f, const struct emu_run *r);
/* What compute-sanitizer's tool found in kernel's launch on the GPU (`--sanitize`). */
void emu_report_sanitizer(FILE *f, const char *kernel, const char *tool,
                          const struct tc_sanitized *r, int json);

#endif
