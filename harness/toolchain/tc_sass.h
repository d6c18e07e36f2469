/* tc_sass.h: the SASS map of a kernel's PTX (ptx/ptx_sass.h), from the CUDA toolkit's tools.
 *
 * ptxas assembles the PTX for the chosen sm with line information (`ptxas -lineinfo
 * -arch=ARCH -o kernel.cubin kernel.ptx`: the code is the same as without it; the cubin then
 * maps every SASS instruction to its PTX line) and `nvdisasm -c -gp kernel.cubin` lists it
 * (with -ndf, nvdisasm's dataflow analysis left out, where tc_jumptab.h can name the jump
 * tables' targets without it: tc_sass.c says why).
 * Both read a private copy of the student's PTX, confined and limited as nvcc and ptxas are
 * (tc_sandbox.h, tc_exec_tool_limits). nvdisasm is looked for as ptxas is (PATH, then
 * /usr/local/cuda/bin); where a toolkit lacks it, the PyPI package nvidia-cuda-nvdisasm has
 * it (docker/install-deps.sh installs it). WARPLAB_SASS=off in the environment leaves the
 * counts on the PTX (TC_SASS_NO_TOOL): the tests of the PTX-level rules set it.
 */
#ifndef WARPLAB_TC_SASS_H
#define WARPLAB_TC_SASS_H

#include <stddef.h>

#include "ptx/ptx.h"
#include "ptx/ptx_sass.h"

enum tc_sass_status {
  TC_SASS_OK = 0,
  TC_SASS_NO_TOOL,     /* ptxas or nvdisasm not found (log says which and where we looked),
                           or WARPLAB_SASS=off */
  TC_SASS_FAILED,      /* ptxas refused the PTX, a tool was stopped by a limit, or the listing
                           could not be read: log says so in words */
  TC_SASS_SYSTEM       /* could not run them (fork, folder, memory) */
};

/* The SASS map of module m, decoded from the PTX file ptx, for sm arch ("sm_90"; NULL or "":
   sm_90), into out (owned: ptx_sass_free). On another status than TC_SASS_OK, out is empty and
   log says why in a sentence. */
enum tc_sass_status tc_sass(const char *ptx, const char *arch, const struct ptx_module *m,
                              struct ptx_sass *out, char *log, size_t loglen);

/* tc_sass, where the listing is not kept, listing cubin (clen bytes; NULL: none) instead of
   assembling the PTX: the cubin tc_ptxas_cubin made of the same PTX for the same arch. */
enum tc_sass_status tc_sass_cubin(const char *ptx, const char *arch, const struct ptx_module *m,
                                    struct ptx_sass *out, char *log, size_t loglen,
                                    const char *cubin, size_t clen);

#endif
