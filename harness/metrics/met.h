/* met.h: the emulator's counts as Nsight Compute metrics, per launch and per source line.
 *
 * met_names.def is the catalogue of every metric warplab reports (its name, kind, source,
 * short label and unit); the lookups below are generated from it, by id and by name.
 *
 * met_compute() reads a finished launch's per-instruction statistics (struct sim_result) and
 * the decoded module, and produces the emulator's counters (the ids below MET_COUNT) and a
 * table of CUDA source lines, so feedback can point at the line that causes a problem. It
 * never looks inside the emulator.
 */
#ifndef WARPLAB_MET_H
#define WARPLAB_MET_H

#include <stddef.h>
#include <stdint.h>

#include "ptx/ptx.h"
#include "ptx/ptx_sass.h"
#include "sim/sim.h"

/* Each source of met_names.def says whether its metrics are the emulator's counters (met_compute
   fills them) or not; the counters come first in enum met_id, whatever their order in the
   .def. A SOURCE with no pair of lines here fails to compile. */
#define MET_COUNTED_COUNTER(x) x,
#define MET_COUNTED_PTXAS(x)
#define MET_COUNTED_OCC(x)
#define MET_COUNTED_TIMING(x)
#define MET_COUNTED_DERIVED(x)
#define MET_COUNTED_NCU(x)
#define MET_OTHER_COUNTER(x)
#define MET_OTHER_PTXAS(x) x,
#define MET_OTHER_OCC(x) x,
#define MET_OTHER_TIMING(x) x,
#define MET_OTHER_DERIVED(x) x,
#define MET_OTHER_NCU(x) x,

/* Every metric of the catalogue: MET_INST ... The emulator's counters are the ids below
   MET_COUNT (a met_report holds those); the others follow, up to MET_ALL. */
enum met_id {
#define X(id, name, kind, source, label, unit) MET_COUNTED_##source(MET_##id)
#include "met_names.def"
#undef X
  MET_COUNT,
  MET_OTHERS_ = MET_COUNT - 1,  /* so that the first of the others is MET_COUNT */
#define X(id, name, kind, source, label, unit) MET_OTHER_##source(MET_##id)
#include "met_names.def"
#undef X
  MET_ALL
};

/* MET_FROM_SASS: an estimate from the SASS ptxas makes of the PTX (met_apply_sass): the
   emulator's count of each PTX instruction times the machine instructions it became; never in
   the catalogue, a report's kind where the SASS changed a figure. */
enum met_kind { MET_EXACT = 0, MET_PTX_LEVEL, MET_MODELLED, MET_MEASURED, MET_FROM_SASS, MET_NKINDS };

/* Where warplab's figure of a metric comes from (the SOURCE column of met_names.def). */
enum met_source {
  MET_SRC_COUNTER = 0, MET_SRC_PTXAS, MET_SRC_OCC, MET_SRC_TIMING, MET_SRC_DERIVED, MET_SRC_NCU,
  MET_NSOURCES
};

/* "smsp__inst_executed.sum"; "?" for an id out of range */
const char *met_name(enum met_id id);
enum met_kind met_kind_of(enum met_id id);
/* "exact", "ptx-level", "modelled", "measured", "from-sass" */
const char *met_kind_name(enum met_kind k);
enum met_source met_source_of(enum met_id id);
/* "counter", "ptxas", "occupancy", "timing", "derived", "ncu" */
const char *met_source_name(enum met_source s);
/* The short column label of a metric ("sect/req"), and its unit ("sectors/request"). */
const char *met_label(enum met_id id);
const char *met_unit(enum met_id id);

/* The id of the metric called name (len characters, need not be NUL-terminated): 0 with *id,
   or -1 when the catalogue has no such metric. */
int met_lookup(const char *name, size_t len, enum met_id *id);
/* Edits (insert, delete, replace a character, swap two neighbours) from a (la characters)
   to b, or a number past cap once it exceeds cap: the "did you mean" of metric names and of
   the command line. */
size_t met_edit_distance(const char *a, size_t la, const char *b, size_t cap);

/* The catalogue's name nearest to name by edit distance, for "did you mean": NULL when none is
   close enough to be a likely typo (more than a third of name's characters away). */
const char *met_nearest(const char *name, size_t len);
/* A short column label for a metric name of a report ("sect/req" for
   "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio"); the name itself
   when the catalogue has no such metric. Used by the text report and the feedback screen. */
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

struct met_report {             /* the emulator's counters: ids below MET_COUNT */
  double value[MET_COUNT];
  int defined[MET_COUNT];      /* 0 for a ratio with nothing to divide by */
  enum met_kind kind[MET_COUNT]; /* the catalogue's (met_kind_of), or MET_FROM_SASS where
                                  met_apply_sass changed the value */
  double ptx_value[MET_COUNT]; /* the value counted on PTX (met_compute's), kept where
                                  met_apply_sass changed it */
  int sass;                    /* 1 when met_apply_sass ran: the SASS map was there */
  struct met_line *lines;      /* by file then line; only lines that executed */
  uint32_t nlines;
};

/* Compute the report of a launch; 0, or -1 when out of memory. */
int met_compute(const struct ptx_module *m, const struct sim_result *r, struct met_report *out);
void met_report_free(struct met_report *rep);

/* Count what the GPU executes (met_sass.c): recompute rep's instruction counts from the SASS
   map s of m (ptx/ptx_sass.h) and the per-instruction statistics of r, each PTX instruction's
   executions times the SASS instructions it became: smsp__inst_executed.sum and the thread
   counts; the memory instruction counts by space (LDS, LDG, ATOMG, RED ... as ptxas emitted
   them, a merged LDS.128 once for the four loads it replaced), shared wavefronts (a merged
   load's are those of the PTX load it is attributed to), and atomic sectors (aggregated where
   ptxas emitted a warp vote for the atomic). A figure that comes out different from the PTX
   count takes the new value with kind MET_FROM_SASS, its PTX count kept in ptx_value; the
   instruction counts are MET_FROM_SASS always. Returns 0, or -1 when s does not belong to m
   (rep unchanged). */
int met_apply_sass(struct met_report *rep, const struct ptx_module *m, const struct sim_result *r,
                   const struct ptx_sass *s);

/* Where a launch's trouble is, line by line: a finding from the per-line counts, in words. */
enum met_hot_kind {
  MET_HOT_UNCOALESCED = 0,     /* global accesses that move bytes nobody asked for */
  MET_HOT_BANK_CONFLICT,       /* shared accesses past their conflict-free wavefronts */
  MET_HOT_DIVERGENT,           /* a branch that splits warps */
  MET_HOT_LOCAL,               /* local memory */
  MET_HOT_COUNT
};
/* "uncoalesced", "bank_conflict", "divergent", "local", as result.json names them. */
const char *met_hot_kind_name(enum met_hot_kind k);

struct met_hotspot {
  const char *path;            /* the line's CUDA file (as in met_line) */
  uint32_t line;
  enum met_hot_kind kind;
  double weight;               /* what it costs, to rank by and to compare one run with
                                  another on the same inputs (bytes-equivalent) */
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
