/* tc_ptxas.h: a kernel's resource usage as the real compiler sees it, from `ptxas -v`.
 *
 * Occupancy depends on what ptxas allocates, not on the PTX: registers per thread, static
 * shared memory, the stack frame and spills to local memory, the block barriers. ptxas -v
 * prints one block per function, e.g. (CUDA 13, sm_90):
 *
 *   ptxas info    : Compiling entry function '_Z3locPfii' for 'sm_90'
 *   ptxas info    : Function properties for _Z3locPfii
 *       80 bytes stack frame, 76 bytes spill stores, 100 bytes spill loads
 *   ptxas info    : Used 64 registers, used 1 barriers, 80 bytes cumulative stack size, 4096 bytes smem
 *
 * (sm_75..sm_89 also print ", 368 bytes cmem[0]"; before CUDA 12 there is no "used N
 * barriers"; items that are zero, such as smem, are left out.) ptxas is found like nvcc.
 */
#ifndef WARPLAB_TC_PTXAS_H
#define WARPLAB_TC_PTXAS_H

#include <stddef.h>

/* Which fields of struct tc_resources ptxas reported (bits of tc_resources.has). */
enum tc_res_field {
  TC_RES_REGISTERS = 1u << 0,
  TC_RES_STATIC_SMEM = 1u << 1,   /* set with registers: ptxas omits "0 bytes smem" */
  TC_RES_CONST = 1u << 2,         /* cmem[N] printed (not on sm_90 since CUDA 13) */
  TC_RES_STACK = 1u << 3,         /* stack frame and spills */
  TC_RES_BARRIERS = 1u << 4,      /* "used N barriers" (CUDA 12 and later) */
  TC_RES_CUMULATIVE_STACK = 1u << 5
};

/* One function of a ptxas -v report. */
struct tc_resources {
  char name[256];        /* as ptxas prints it: mangled unless extern "C" */
  int is_entry;          /* a kernel (.entry), not a device function */
  char arch[16];         /* "sm_90" from "Compiling entry function ... for 'sm_90'" */
  int registers;         /* per thread */
  int static_smem;       /* bytes of __shared__ declared in the kernel */
  int const_bytes;       /* bytes of constant banks used (cmem[0] = parameters ...), summed */
  int stack_frame;       /* bytes per thread */
  int spill_stores;      /* bytes */
  int spill_loads;       /* bytes */
  int cumulative_stack;  /* bytes, including callees' frames */
  int barriers;          /* named block barriers (bar.sync N uses N+1) */
  unsigned has;          /* enum tc_res_field bits */
};

enum tc_ptxas_status {
  TC_PTXAS_OK = 0,
  TC_PTXAS_NO_PTXAS,    /* ptxas not found: log says where we looked */
  TC_PTXAS_FAILED,      /* ptxas refused the PTX (or the arch): log holds its messages */
  TC_PTXAS_SYSTEM       /* could not run it (fork, pipe, memory) */
};

/* Parse the text of a ptxas -v report into out[0..max-1], functions in the order ptxas
   first names them. Returns the number stored (functions past the first max are left out). */
int tc_ptxas_parse(const char *text, struct tc_resources *out, int max);

/* The function called name in r[0..n-1]: the exact name, else the one C++ function whose
   Itanium-mangled name is _Z<len><name>... ("add" finds "_Z3addPfPKfi"). NULL when none, or
   when a plain name matches several overloads. */
const struct tc_resources *tc_resources_find(const struct tc_resources *r, int n,
                                               const char *name);

/* Run `ptxas -v -arch=ARCH [--maxrregcount=N] -o /dev/null PTX` and parse its report into
   out[0..max-1], *n set to the count parsed. maxrregcount 0: no limit. ptxas reads a private
   copy of the PTX (a student's), confined and limited as nvcc is (tc_sandbox.h,
   tc_exec_tool_limits); stopped by a limit, it is TC_PTXAS_FAILED and log says so in words.
   On return log holds ptxas's messages (warnings too). A report given without error is
   kept in the cache folder (tc_cache.h) and read back for the same PTX, flags and ptxas. */
enum tc_ptxas_status tc_ptxas(const char *ptx, const char *arch, int maxrregcount,
                                struct tc_resources *out, int max, int *n,
                                char *log, size_t loglen);

/* tc_ptxas, and where ptxas runs (no report kept for the PTX), the cubin it assembles with
   line information (`ptxas -v -lineinfo ... -o kernel.cubin`: the report and the code are
   those without -lineinfo) into *cubin (malloc'd, *cubin_len bytes): tc_sass_cubin lists it
   without assembling the PTX again. *cubin is NULL when ptxas did not run or failed. */
enum tc_ptxas_status tc_ptxas_cubin(const char *ptx, const char *arch, int maxrregcount,
                                      struct tc_resources *out, int max, int *n,
                                      char *log, size_t loglen, char **cubin,
                                      size_t *cubin_len);

#endif
