/* tc_toolkit.h: where the CUDA Toolkit's programs and headers are.
 *
 * A tool is looked for on PATH, then in /usr/local/cuda/bin. The toolkit's header folders are
 * the ones nvcc itself searches, and nvcc is asked for them (`nvcc -dryrun`, whose TOP,
 * INCLUDES and SYSTEM_INCLUDES lines name them): nvcc on PATH may be a wrapper script that
 * execs the real one (an image's /usr/local/bin/nvcc), or a distribution's package. Where
 * nvcc cannot say, NVIDIA's layout is assumed: ROOT/bin/nvcc, ROOT/include, ROOT/include/cccl.
 */
#ifndef WARPLAB_TC_TOOLKIT_H
#define WARPLAB_TC_TOOLKIT_H

#include <stddef.h>

#define TC_TOOLKIT_MAX_INCLUDE 4

struct tc_toolkit {
  char top[1024];                                  /* the toolkit's real root ("": unknown) */
  char include[TC_TOOLKIT_MAX_INCLUDE][1024];     /* real folders nvcc searches, in order */
  int ninclude;
};

/* Path of tool `name` (PATH, then /usr/local/cuda/bin) written to out; 0 when found. */
int tc_find_tool(const char *name, char *out, size_t outlen);

/* The toolkit whose nvcc is at nvcc, into tk (nvcc is asked once per path in a process).
   Returns 0, or -1 when neither nvcc nor the layout says where its headers are (tk then
   empty). */
int tc_toolkit_find(const char *nvcc, struct tc_toolkit *tk);

#endif
