/* met.h: the emulator's counts as Nsight Compute metrics, per launch and per source line.
 *
 * met_compute() reads a finished launch's per-instruction statistics (struct sim_result) and
 * the decoded module, and produces every metric of met_names.def with its kind (exact,
 * ptx-level, modelled) and a table of CUDA source lines, so feedback can point at the line
 * that causes a problem. It never looks inside the emulator.
 */
#ifndef WARPLAB_MET_H
#define WARPLAB_MET_H

#include <stdint.h>

#include "ptx/ptx.h"
#include "sim/sim.h"

enum met_id {
#define X(id, name, kind) MET_##id,
#include "met_names.def"
#undef X
  MET_COUNT
};

enum met_kind { MET_EXACT = 0, MET_PTX_LEVEL, MET_MODELLED };

/* "smsp__inst_executed.sum" */
const char *met_name(enum met_id id);
enum met_kind met_kind_of(enum met_id id);
/* "exact", "ptx-level", "modelled" */
const char *met_kind_name(enum met_kind k);
/* A short column label for a metric name of a report ("sect/req" for
   "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio"); the name itself
   when it has none. Used by the text report and the feedback screen alike. */
const char *met_short_label(const char *name);

struct met_line {
  const char *path;            /* CUDA source file (from .file), or NULL: PTX only */
  uint32_t file, line;
  uint64_t inst_executed, thread_inst_executed;
  uint64_t global_requests, global_sectors;
  uint64_t global_bytes;       /* distinct bytes the line's loads and stores asked for */
  uint64_t shared_insts, shared_wavefronts, shared_ideal;
  uint64_t local_insts;
  uint64_t branches, divergent_branches;
};

struct met_report {
  double value[MET_COUNT];
  int defined[MET_COUNT];      /* 0 for a ratio with nothing to divide by */
  struct met_line *lines;      /* by file then line; only lines that executed */
  uint32_t nlines;
};

/* Compute the report of a launch; 0, or -1 when out of memory. */
int met_compute(const struct ptx_module *m, const struct sim_result *r, struct met_report *out);
void met_report_free(struct met_report *rep);

/* Where a launch's trouble is, line by line: a finding from the per-line counts, in words. */
struct met_hotspot {
  const char *path;            /* the line's CUDA file (as in met_line) */
  uint32_t line;
  char text[200];              /* "uses 50% of the bytes its global accesses move (8.0 sectors
                                  per request)" */
};
/* The worst lines of rep (wasted global bytes, shared-memory bank conflicts, divergent
   branches, local memory), worst first, at most max. Returns how many. */
int met_hotspots(const struct met_report *rep, struct met_hotspot *out, int max);

/* Sectors per request of a line (global loads and stores together), or -1 when none. */
double met_line_sectors_per_request(const struct met_line *l);
/* Shared wavefronts per shared instruction of a line, or -1 when none. */
double met_line_wavefronts_per_inst(const struct met_line *l);

#endif
