/* tc_toolkit.h: where the CUDA Toolkit's programs and headers are.
 *
 * A tool is looked for on PATH, then in /usr/local/cuda/bin. The toolkit's header folders are
 * the ones nvcc itself searches, and nvcc is asked for them (`nvcc -dryrun`, whose TOP,
 * INCLUDES and SYSTEM_INCLUDES lines name them): nvcc on PATH may be a wrapper script that
 * execs the real one (an image's /usr/local/bin/nvcc), or a distribution's package. Where
 * nvcc cannot say, NVIDIA's layout is assumed: ROOT/bin/nvcc, ROOT/include, ROOT/include/cccl.
 * nvcc's answers (the dryrun's and its version line) are kept in the cache folder.
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
   empty). What nvcc said is kept in the cache folder (tc_cache.h) and used again while the
   nvcc found, the real nvcc and nvcc.profile it named, and the environment are as they
   were; a changed toolkit is asked again. */
int tc_toolkit_find(const char *nvcc, struct tc_toolkit *tk);

/* The version line of the nvcc at nvcc (`nvcc --version`'s from "release ":
   "release 13.0, V13.0.88"), into buf; "" when it printed none. Asked, kept and reused as
   tc_toolkit_find's answer is. */
void tc_toolkit_version(const char *nvcc, char *buf, size_t n);

/* Forget what this process learnt of any nvcc (the cache folder's entries stay): the next
   call asks the cache, then nvcc. For tests, and for a long-lived process that changed its
   toolkit. */
void tc_toolkit_forget(void);

#endif
