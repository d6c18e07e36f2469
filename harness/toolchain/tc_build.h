/* tc_build.h: compiling a student's .cu file to PTX with nvcc.
 *
 * nvcc is found on PATH or in /usr/local/cuda/bin (tc_toolkit.h). The file is built alone and isolated: the
 * include check (tc_incl.h) first, then nvcc in a private folder holding a copy of the file
 * and nothing else, confined where the kernel allows (tc_sandbox.h). The preprocessor's own
 * list of the files it opened (GCC's -MD) is then checked: a header that builds an #include
 * from the kernel file's macros (Thrust does) may open only the toolkit's, the compiler's and
 * the system's headers, and one it could not open (missing, or refused by the confinement) is
 * refused in the same words, the compiler's messages withheld. Its diagnostics are
 * rewritten to the editor-friendly "file:line: error: ..." form and returned to the caller
 * verbatim otherwise.
 *
 * A build that succeeded is kept in the cache folder (run_cache.h) and used again while the
 * file, its path, the arch, nvcc's flags, the toolkit, warplab's version and every header the
 * preprocessor opened are as they were; WARPLAB_CACHE=off builds every time.
 */
#ifndef WARPLAB_TC_BUILD_H
#define WARPLAB_TC_BUILD_H

#include <stddef.h>
#include <stdint.h>

enum tc_build_status {
  TC_BUILD_OK = 0,
  TC_BUILD_NO_NVCC,     /* nvcc not found: log says where we looked and what to do */
  TC_BUILD_FAILED,      /* nvcc reported errors: log holds them */
  TC_BUILD_SYSTEM       /* could not run it (fork, pipe...) */
};

struct tc_toolkit;
struct tc_incl_opts;

/* The include check's options for a build with toolkit tk: its header folders and
   /usr/include may be named; strict where nvcc runs unconfined. */
void tc_build_incl_opts(const struct tc_toolkit *tk, int strict, struct tc_incl_opts *o);

/* What tc_build_ptx_info tells of a build besides its status. */
struct tc_build_info {
  int from_cache;        /* the PTX and messages came from the cache: nvcc did not run */
  uint64_t key;          /* the build's cache key (0 when not reached) */
};

/* Compile cu to PTX at ptx_out for arch ("sm_90") with -lineinfo. On return, log holds
   nvcc's messages (warnings too), with "f.cu(12): error" rewritten as "f.cu:12: error", or
   the include check's refusals (TC_BUILD_FAILED, nvcc not run). */
enum tc_build_status tc_build_ptx(const char *cu, const char *arch, const char *ptx_out,
                                    char *log, size_t loglen);

/* tc_build_ptx, and into *info (NULL: not wanted) whether the build came from the cache. */
enum tc_build_status tc_build_ptx_info(const char *cu, const char *arch, const char *ptx_out,
                                         char *log, size_t loglen, struct tc_build_info *info);

/* tc_build_ptx_info, calling nvcc_starts(arg) (NULL: none) on this thread right before nvcc
   starts: the build is not in the cache, and nvcc will take a core for a while (0.2 s and
   more), in which the caller's other threads may do what needs no PTX. */
enum tc_build_status tc_build_ptx_notify(const char *cu, const char *arch, const char *ptx_out,
                                           char *log, size_t loglen, struct tc_build_info *info,
                                           void (*nvcc_starts)(void *arg), void *arg);

/* Build the C file src (a lab's reference: warplab's own code, not a student's) into the
   shared library so_out with the system's C compiler (cc -std=c11 -O2 -shared -fPIC
   -Iinc_dir), or copy the library kept in the cache for the same file, flags, compiler and
   headers (*from_cache set to 1; from_cache may be NULL). Returns 0, or -1 with cc's
   messages in log. */
int tc_build_shared_lib(const char *src, const char *inc_dir, const char *so_out, char *log,
                         size_t loglen, int *from_cache);

/* The toolkit's version line, from `nvcc --version` ("release 13.0, V13.0.88"; "" when nvcc
   is not found or does not say): tc_toolkit_version's, asked once and kept in the cache. */
void tc_build_toolkit_line(char *buf, size_t n);

/* The cache key of a build of the len bytes at src, the file cu (as named) at real path real,
   for archflag ("-arch=sm_90") with the toolkit whose version line is toolkit; checked: the
   include check is on (it and the confinement, probed here, decide which builds succeed),
   and this warplab (tc_cache_hash_self). */
uint64_t tc_build_key(const char *src, size_t len, const char *cu, const char *real,
                       const char *archflag, const char *toolkit, int checked);

/* The manifest of the files a dependency list (deps, as for tc_build_deps_ok; relative
   names from folder cwd) names, those beneath folder skip left out: a line "SIZE MTIME INODE
   PATH" each (malloc'd). NULL when a file cannot be stat'ed or the list cannot be read. */
char *tc_build_manifest(const char *deps, const char *cwd, const char *skip);

/* Whether every file of a manifest still has the size, modification time and inode it
   lists: 1 yes, 0 no (one changed, is gone, or a line cannot be read). */
int tc_build_manifest_fresh(const char *manifest);

/* Check a dependency list (deps: make's rule as GCC's -MD writes it, "t.o: a.cu /x/y.h \\\n
   ...") against the folders whose files a build may read (allowed[0..n-1], real paths):
   every file named must, once its links are resolved (relative names from folder cwd), lie
   beneath one of them. Returns 0 when all do, 1 when one does not (or cannot be resolved, or
   the list cannot be read). */
int tc_build_deps_ok(const char *deps, const char *cwd, const char *const allowed[], int n);

/* How builds are isolated on this machine, in words, for a run's provenance ("landlock
   (Landlock ABI 7): nvcc sees only ...; include check"). */
void tc_build_isolation(char *buf, size_t n);

/* A fresh private folder for a tool's run on student input, $TMPDIR/warplab-TOOL-XXXXXX (or
   under /tmp when TMPDIR is unset, relative or not safe to paste into a shell), its path in
   base. Returns 0, or -1 with a line for the log in err. */
int tc_build_private_folder(const char *tool, char *base, size_t n, char *err, size_t errlen);

#endif
