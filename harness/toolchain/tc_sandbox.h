/* tc_sandbox.h: a confined view of the filesystem for a tool that reads untrusted input.
 *
 * nvcc compiles a student's kernel file on the grading machine, and its preprocessor opens
 * whatever the file names (#include "/etc/passwd", "../bob/kernel.cu"); its messages, which
 * the student reads, would quote what it found. So nvcc runs in a private folder holding a
 * copy of the kernel file alone, and, where the kernel allows it, in a view of the
 * filesystem that holds nothing else of the machine's but the compiler's own files:
 *
 *   landlock    the Landlock LSM (Linux 5.13+, no privilege needed): the tool may read and
 *               execute beneath the compiler's folders only, and write beneath its own
 *               folder only; every other path, however it is spelt (../, /proc/self/cwd,
 *               a link), is refused by the kernel (though whether a path exists can still
 *               be told from the error: EACCES, not ENOENT)
 *   namespace   an unprivileged user and mount namespace: a new root holding read-only
 *               bind mounts of the compiler's folders, /dev/null and the private folder
 *   none        neither is available (a container's seccomp profile, an old kernel): the
 *               include check (tc_incl.h) alone, made stricter to hold without them
 *
 * What is in force is probed once per process and said in every run's provenance;
 * WARPLAB_SANDBOX=landlock|namespace|none forces one (tests, or a machine where a probe
 * misleads), WARPLAB_SANDBOX_READ=DIR:DIR adds folders the compiler may read (a host
 * compiler installed outside /usr).
 */
#ifndef WARPLAB_TC_SANDBOX_H
#define WARPLAB_TC_SANDBOX_H

#include <stddef.h>

enum tc_sandbox_kind {
  TC_SANDBOX_NONE = 0,
  TC_SANDBOX_LANDLOCK,
  TC_SANDBOX_NAMESPACE
};

#define TC_SANDBOX_MAX_READ 24

/* A confinement for one child process. */
struct tc_sandbox {
  enum tc_sandbox_kind kind;
  char read[TC_SANDBOX_MAX_READ][1024];  /* folders or files it may read and execute */
  size_t nread;
  char write[1024];       /* the one folder it may write (and read): its cwd and TMPDIR */
  char root[1024];        /* namespace: an empty folder to mount its root on */
};

/* The confinement this machine gives a child (probed once; WARPLAB_SANDBOX forces one). In
   why, when given, the reason in a few words ("Landlock ABI 7", "no Landlock (...), user
   namespaces"). */
enum tc_sandbox_kind tc_sandbox_probe(char *why, size_t n);

/* "landlock", "namespace" or "none". */
const char *tc_sandbox_name(enum tc_sandbox_kind kind);

struct tc_toolkit;

/* Fill sb for running the CUDA toolkit whose nvcc is at nvcc, writing only beneath dir (root:
   an empty folder for the namespace's root, used by that kind only): the folders the
   compiler reads (the toolkit, the host compiler, /usr's programs, libraries and headers, a
   few files of /etc and /dev). The toolkit is the folder two above nvcc, as named and as it
   really is, and tk's root and header folders (tc_toolkit.h; NULL: none). Returns 0, or -1
   when a path does not fit. */
int tc_sandbox_for_nvcc(struct tc_sandbox *sb, enum tc_sandbox_kind kind, const char *nvcc,
                         const struct tc_toolkit *tk, const char *dir, const char *root);

/* In a child process, between fork and exec: confine it as sb says and make sb->write its
   working folder. The namespace's root holds no /proc (a host /proc would lead back out
   through /proc/PID/root). Returns 0, or -1 with errno when the confinement could not be made
   (then the child must not run the tool). */
int tc_sandbox_enter(const struct tc_sandbox *sb);

/* Confine this process, and all it starts, for the rest of its life: a run of an untrusted
   kernel (warplab grade, each student of a batch). It may then write beneath write_dir only
   (made if missing; its TMPDIR becomes write_dir/.tmp) and /dev/null, and read beneath read[]
   (nread paths: the lab's folders, the submission's), write_dir and the system's folders
   (/usr, /bin, /lib*, /etc, /opt, /proc, /sys, /dev) only: not the folders beside the
   submission's, not $HOME. gpu: the CUDA driver and its tools also keep files in /dev, /tmp,
   /dev/shm, /var/tmp and ~/.nv, so those are writable too. Files it writes are held to
   TC_SANDBOX_MAX_FILE bytes, open files to 4096, core dumps to none. Landlock only (a
   namespace would move the process's own paths). Returns 0 when confined, 1 when the kernel
   offers no Landlock or WARPLAB_SANDBOX is not landlock or auto (the limits are set; nothing
   else is done), -1 on a failure; why says which, in words. */
int tc_sandbox_confine_self(const char *write_dir, const char *const read[], size_t nread,
                             int gpu, char *why, size_t n);

#define TC_SANDBOX_MAX_FILE (1ull << 30)

/* tc_sandbox_confine_self for `warplab grade` of the submission in folder sub, its results
   under results_root (NULL: "results"): it reads warplab's labs, solutions, handouts,
   harness and plots folders, sub, and the folder also (NULL: none; the architecture
   profiles the binary reads, which lie in another tree when it was built there); may_gpu:
   the backend may be the GPU (then, when this machine has one, its driver's folders are
   writable too). Returns as that does. */
int tc_sandbox_confine_grade(const char *sub, const char *also, const char *results_root,
                             int may_gpu, char *why, size_t n);

/* What tc_sandbox_confine_self did to this process, in words ("" when it was not called). */
const char *tc_sandbox_self_note(void);

#endif
