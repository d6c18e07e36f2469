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
};

void emu_report_text(FILE *f, const struct emu_run *r);
/* Returns 0, or -1 when JSON could not be made (out of memory). */
int emu_report_json(FILE *f, const struct emu_run *r);
/* What compute-sanitizer's tool found in kernel's launch on the GPU (`--sanitize`). */
void emu_report_sanitizer(FILE *f, const char *kernel, const char *tool,
                          const struct tc_sanitized *r, int json);

#endif
