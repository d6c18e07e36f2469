/* occ.h: architecture profiles and the theoretical-occupancy calculator (occ_).
 *
 * A profile is a data file, harness/arch/NAME.conf, of `key = value` lines (the keys and
 * their kinds are listed in occ_profile.def; '#' starts a comment). It supplies what CUDA's
 * occupancy calculator reads from cudaDeviceProp plus the per-architecture constants that
 * cuda_occupancy.h keeps in switch statements (allocation units, sub-partitions, carveouts).
 *
 * occ_compute() is cudaOccMaxActiveBlocksPerMultiprocessor of the CUDA toolkit's
 * cuda_occupancy.h, written again from the profile's numbers, with the function attributes
 * a CUDA program gets from cudaFuncGetAttributes: the kernel has opted in to as much dynamic
 * shared memory as the launch asks for (cudaFuncAttributeMaxDynamicSharedMemorySize), and
 * no partitioned global caching (sm_5x/6x only). tests/unit/check_occ.c holds it to the
 * header's answers over thousands of inputs on sm_70, 75, 80, 86, 89 and 90.
 */
#ifndef WARPLAB_OCC_H
#define WARPLAB_OCC_H

#include <limits.h>
#include <stddef.h>

#define OCC_MAX_LIST 16          /* entries of a KBLIST key (smem_carveouts) */
#define OCC_STR_LEN 64
#define OCC_NO_LIMIT INT_MAX     /* a resource the launch does not use: no limit from it */

enum occ_status {
  OCC_OK = 0,
  OCC_ERR_NOT_FOUND,   /* no such profile file or name (the message lists what exists) */
  OCC_ERR_IO,          /* could not read the file */
  OCC_ERR_SYNTAX,      /* a malformed line: the message says file:line */
  OCC_ERR_PROFILE,     /* a profile whose numbers contradict each other, or a missing key */
  OCC_ERR_INPUT        /* occ_compute: an impossible input (negative size, block of 0) */
};

struct occ_error {
  char msg[512];       /* "harness/arch/x.conf:12: unknown key 'sm_cont'" */
};

#define OCC_FIELD_STR(k) char k[OCC_STR_LEN];
#define OCC_FIELD_INT(k) int k;
#define OCC_FIELD_BYTES(k) int k;
#define OCC_FIELD_KBLIST(k) int k[OCC_MAX_LIST]; int n_##k;
#define OCC_FIELD_REAL(k) double k;
#define OCC_FIELD_BOOL(k) int k;

/* One GPU: every key of occ_profile.def is a field of the same name (BYTES and KBLIST
   values in bytes; a KBLIST key `k` has its length in n_k), plus where it came from. */
struct occ_profile {
#define X(key, kind, required, meaning) OCC_FIELD_##kind(key)
#include "metrics/occ_profile.def"
#undef X
  char id[OCC_STR_LEN];  /* the file's name without .conf: "h200" */
  char path[1024];       /* the file it was read from */
};

enum occ_limit {
#define X(name, bit, word, metric) OCC_LIMIT_##name = bit,
#include "metrics/occ_limits.def"
#undef X
};

enum occ_limit_index {
#define X(name, bit, word, metric) OCC_LIMIT_IDX_##name,
#include "metrics/occ_limits.def"
#undef X
  OCC_N_LIMITS
};

/* What one launch asks of an SM. */
struct occ_input {
  int regs_per_thread;   /* ptxas "Used N registers" */
  int static_smem;       /* bytes: ptxas "N bytes smem" */
  int dyn_smem;          /* bytes: the launch's dynamic shared memory */
  int block_threads;     /* threads per block (x*y*z) */
  int barriers;          /* block barriers the kernel uses; ptxas "used N barriers". The CUDA
                            runtime's default is 1; only sm_90 profiles are limited by it */
  int carveout_pct;      /* -1: no preference (the default); 0..100: the percentage of
                            smem_per_sm asked for, as cudaFuncAttributePreferredSharedMemoryCarveout */
};

/* The calculator's answer for one launch on one SM. */
struct occ_result {
  int active_blocks;      /* blocks per SM; 0: the launch cannot run (see note) */
  int active_warps;       /* active_blocks * warps_per_block */
  int max_warps;          /* the profile's max_warps_per_sm */
  double occupancy_pct;   /* 100 * active_warps / max_warps: sm__maximum_warps_per_active_cycle_pct */
  unsigned limiting;      /* OR of enum occ_limit: every resource whose limit equals active_blocks */
  unsigned cuda_factors;  /* cudaOccResult.limitingFactors exactly as the header sets them: the
                             same, except that when the barrier limit is the lowest the factors
                             that tied before barriers were considered stay set too */
  int limit[OCC_N_LIMITS];/* blocks per SM each resource allows, by enum occ_limit_index;
                             OCC_NO_LIMIT where the launch does not use the resource */
  int warps_per_block;
  int regs_per_block;     /* registers allocated per block (after rounding) */
  int smem_per_block;     /* shared memory allocated per block: static + dynamic + reserved,
                             rounded up to smem_alloc_unit */
  int smem_config;        /* shared memory per SM in the carveout the launch runs under */
  char note[192];         /* when active_blocks is 0: why, in words; else empty */
};

/* Parse profile text (len bytes) read from file `filename` (used in messages) into *p.
   Returns OCC_OK, or OCC_ERR_SYNTAX / OCC_ERR_PROFILE with "filename:line: what" in err. */
enum occ_status occ_profile_parse(const char *text, size_t len, const char *filename,
                                  struct occ_profile *p, struct occ_error *err);

/* Load a profile. `what` is a path to a .conf file (it contains a '/' or ends in .conf), a
   profile name ("h200", "a100"), or an architecture ("sm_90", "90"), meaning the profile of
   that sm with default_for_sm = yes. Names are looked up in occ_arch_dir(). Returns OCC_OK,
   or an error status with a message (a missing name lists the profiles there are). */
enum occ_status occ_profile_load(const char *what, struct occ_profile *p, struct occ_error *err);

/* The directory holding the profiles, written to out: $WARPLAB_ARCH_DIR if set; else
   harness/arch beside the running executable (bin/ or build/ of a checkout, /opt/warplab/bin
   in the Docker image); else ./harness/arch; else /opt/warplab/harness/arch. Returns 0 when
   the directory exists, -1 (out holds the last place tried) otherwise. */
int occ_arch_dir(char *out, size_t outlen);

/* The names of the profiles in occ_arch_dir() ("a100", "fermi-m2070", "h200", ...), sorted,
   into names (at most max). Returns how many, or -1 when there is no profile folder. */
int occ_profile_list(char names[][OCC_STR_LEN], int max);

/* Theoretical occupancy of launch *in on profile *p (cudaOccMaxActiveBlocksPerMultiprocessor).
   Returns OCC_OK with *out filled (active_blocks may be 0: the launch cannot run, out->note
   says why), or OCC_ERR_INPUT with a message for impossible inputs. */
enum occ_status occ_compute(const struct occ_profile *p, const struct occ_input *in,
                            struct occ_result *out, struct occ_error *err);

/* An input with the defaults filled in: barriers 1, carveout_pct -1, the rest 0. */
struct occ_input occ_input_default(void);

/* The word for one limit ("registers") and its Nsight Compute metric
   ("launch__occupancy_limit_registers"); NULL for anything not a single enum occ_limit. */
const char *occ_limit_word(enum occ_limit l);
const char *occ_limit_metric(enum occ_limit l);

/* Write the limits in mask as words joined by sep ("registers, warps") into buf; returns buf. */
char *occ_limits_str(unsigned mask, const char *sep, char *buf, size_t buflen);

#endif
