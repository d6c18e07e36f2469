/* tc_sandbox.c: Landlock or a user+mount namespace around a child process (see
 * tc_sandbox.h).
 *
 * Landlock's constants and structures are declared here rather than taken from
 * <linux/landlock.h>, so warplab builds against older kernel headers (the syscall is asked at
 * run time which ABI the kernel speaks, and only the rights of that ABI are handled).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "toolchain/tc_file.h"
#include "toolchain/tc_sandbox.h"
#include "toolchain/tc_toolkit.h"

/* ---- Landlock (include/uapi/linux/landlock.h) ---- */

#define LL_SYS_CREATE_RULESET 444
#define LL_SYS_ADD_RULE 445
#define LL_SYS_RESTRICT_SELF 446
#define LL_CREATE_RULESET_VERSION 1u
#define LL_RULE_PATH_BENEATH 1

#define LL_EXECUTE (1ull << 0)
#define LL_WRITE_FILE (1ull << 1)
#define LL_READ_FILE (1ull << 2)
#define LL_READ_DIR (1ull << 3)
#define LL_REFER (1ull << 13)                   /* ABI 2 */
#define LL_TRUNCATE (1ull << 14)                /* ABI 3 */
#define LL_IOCTL_DEV (1ull << 15)               /* ABI 5 */
#define LL_NET_BIND_TCP (1ull << 0)             /* ABI 4 */
#define LL_NET_CONNECT_TCP (1ull << 1)
#define LL_SCOPE_ABSTRACT_UNIX (1ull << 0)      /* ABI 6 */
#define LL_SCOPE_SIGNAL (1ull << 1)

struct ll_ruleset_attr {
  uint64_t handled_access_fs;
  uint64_t handled_access_net;
  uint64_t scoped;
};

struct ll_path_beneath {
  uint64_t allowed_access;
  int32_t parent_fd;
} __attribute__((packed));

/* The filesystem rights ABI abi knows: 13 in ABI 1, then REFER, TRUNCATE, (4: net only),
   IOCTL_DEV. */
static uint64_t ll_fs_rights(int abi)
{
  uint64_t r = (1ull << 13) - 1;
  if (abi >= 2)
    r |= LL_REFER;
  if (abi >= 3)
    r |= LL_TRUNCATE;
  if (abi >= 5)
    r |= LL_IOCTL_DEV;
  return r;
}

static int ll_abi(void)
{
  long v = syscall(LL_SYS_CREATE_RULESET, NULL, (size_t)0, LL_CREATE_RULESET_VERSION);
  return v < 0 ? -1 : (int)v;
}

/* Allow `rights` beneath path (a file: only the rights a file can have). 0, or -1 when the
   path cannot be opened (a missing optional folder is skipped by the caller). */
static int ll_allow(int rs, const char *path, uint64_t rights)
{
  int fd = open(path, O_PATH | O_CLOEXEC);
  if (fd < 0)
    return -1;
  struct stat st;
  if (fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode))
    rights &= LL_EXECUTE | LL_WRITE_FILE | LL_READ_FILE | LL_TRUNCATE | LL_IOCTL_DEV;
  struct ll_path_beneath pb = {.allowed_access = rights, .parent_fd = fd};
  long r = syscall(LL_SYS_ADD_RULE, rs, LL_RULE_PATH_BENEATH, &pb, 0u);
  int e = errno;
  close(fd);
  errno = e;
  return r < 0 ? -1 : 0;
}

static int enter_landlock(const struct tc_sandbox *sb)
{
  int abi = ll_abi();
  if (abi < 1) {
    errno = ENOSYS;
    return -1;
  }
  uint64_t all = ll_fs_rights(abi);
  struct ll_ruleset_attr attr = {.handled_access_fs = all};
  size_t size = sizeof attr.handled_access_fs;
  if (abi >= 4) {                               /* no network: a compiler needs none */
    attr.handled_access_net = LL_NET_BIND_TCP | LL_NET_CONNECT_TCP;
    size = 2 * sizeof(uint64_t);
  }
  if (abi >= 6) {                               /* no signals or abstract sockets outside */
    attr.scoped = LL_SCOPE_ABSTRACT_UNIX | LL_SCOPE_SIGNAL;
    size = sizeof attr;
  }
  int rs = (int)syscall(LL_SYS_CREATE_RULESET, &attr, size, 0u);
  if (rs < 0)
    return -1;
  uint64_t ro = LL_EXECUTE | LL_READ_FILE | LL_READ_DIR;
  int bad = 0;
  for (size_t i = 0; i < sb->nread; i++)
    if (ll_allow(rs, sb->read[i], ro) && errno != ENOENT)
      bad = 1;
  if (ll_allow(rs, sb->write, all) ||
      ll_allow(rs, "/dev/null", LL_READ_FILE | LL_WRITE_FILE | ((LL_TRUNCATE | LL_IOCTL_DEV) & all)))
    bad = 1;
  if (bad || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || syscall(LL_SYS_RESTRICT_SELF, rs, 0u)) {
    int e = errno;
    close(rs);
    errno = e ? e : EPERM;
    return -1;
  }
  close(rs);
  return chdir(sb->write);
}

/* ---- user + mount namespace ---- */

#define SYS_MOUNT_SETATTR_NR 442
#define MOUNT_ATTR_RDONLY_FLAG 0x1ull
#define AT_RECURSIVE_FLAG 0x8000

struct mount_attr_arg {
  uint64_t attr_set, attr_clr, propagation, userns_fd;
};

static int write_text(const char *path, const char *text)
{
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  size_t n = strlen(text);
  int ok = write(fd, text, n) == (ssize_t)n;
  int e = errno;
  close(fd);
  errno = e;
  return ok ? 0 : -1;
}

/* mkdir -p path (each component 0755). */
static int mkdirs(const char *path)
{
  char p[2200];
  if (snprintf(p, sizeof p, "%s", path) >= (int)sizeof p) {
    errno = ENAMETOOLONG;
    return -1;
  }
  for (char *s = p + 1; *s; s++)
    if (*s == '/') {
      *s = 0;
      if (mkdir(p, 0755) && errno != EEXIST)
        return -1;
      *s = '/';
    }
  return mkdir(p, 0755) && errno != EEXIST ? -1 : 0;
}

/* Make the bind mount at target read-only, with everything mounted beneath it (mount_setattr,
   Linux 5.12), else the top mount alone, keeping the flags the kernel locked on the source's
   mount (a remount in a user namespace that drops them is refused). */
static int make_readonly(const char *target, const char *source)
{
  struct mount_attr_arg a = {.attr_set = MOUNT_ATTR_RDONLY_FLAG};
  if (syscall(SYS_MOUNT_SETATTR_NR, -1, target, AT_RECURSIVE_FLAG, &a, sizeof a) == 0)
    return 0;
  static const struct {
    unsigned long st, ms;
  } map[] = {{ST_NOSUID, MS_NOSUID}, {ST_NODEV, MS_NODEV}, {ST_NOEXEC, MS_NOEXEC},
             {ST_NOATIME, MS_NOATIME}, {ST_NODIRATIME, MS_NODIRATIME}, {ST_RELATIME, MS_RELATIME}};
  struct statvfs v;
  unsigned long keep = 0;
  if (statvfs(source, &v) == 0)
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
      if (v.f_flag & map[i].st)
        keep |= map[i].ms;
  return mount(NULL, target, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | keep, NULL);
}

/* Mirror path at the same place beneath root: a link as the same link, a folder or a file as
   a bind mount (read-only unless rw). A path that does not exist is skipped. */
static int mirror(const char *root, const char *path, int rw)
{
  char at[2200], parent[2200];
  struct stat st;
  if (lstat(path, &st))
    return errno == ENOENT ? 0 : -1;
  if (snprintf(at, sizeof at, "%s%s", root, path) >= (int)sizeof at) {
    errno = ENAMETOOLONG;
    return -1;
  }
  memcpy(parent, at, sizeof parent);
  char *slash = strrchr(parent, '/');
  if (slash && slash > parent) {
    *slash = 0;
    if (mkdirs(parent))
      return -1;
  }
  if (S_ISLNK(st.st_mode)) {
    char to[1024];
    ssize_t n = readlink(path, to, sizeof to - 1);
    if (n < 0)
      return -1;
    to[n] = 0;
    return symlink(to, at) && errno != EEXIST ? -1 : 0;
  }
  if (S_ISDIR(st.st_mode)) {
    if (mkdirs(at))
      return -1;
  } else {
    int fd = open(at, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
    if (fd < 0)
      return -1;
    close(fd);
  }
  if (mount(path, at, NULL, MS_BIND | MS_REC, NULL))
    return -1;
  return rw ? 0 : make_readonly(at, path);
}

/* Whether path lies beneath folder dir (or is it). */
static int beneath(const char *path, const char *dir)
{
  size_t n = strlen(dir);
  while (n > 1 && dir[n - 1] == '/')
    n--;
  return !strncmp(path, dir, n) && (path[n] == '/' || path[n] == 0);
}

static int enter_namespace(const struct tc_sandbox *sb)
{
  char map[64];
  uid_t uid = getuid();
  gid_t gid = getgid();
  if (unshare(CLONE_NEWUSER | CLONE_NEWNS))
    return -1;
  if (write_text("/proc/self/setgroups", "deny") && errno != ENOENT)
    return -1;
  snprintf(map, sizeof map, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
  if (write_text("/proc/self/uid_map", map))
    return -1;
  snprintf(map, sizeof map, "%u %u 1\n", (unsigned)gid, (unsigned)gid);
  if (write_text("/proc/self/gid_map", map))
    return -1;
  if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
      mount("tmpfs", sb->root, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0755"))
    return -1;
  /* a folder already mirrored covers what lies beneath it (and is read-only there) */
  for (size_t i = 0; i < sb->nread; i++) {
    int covered = 0;
    for (size_t j = 0; j < i && !covered; j++)
      covered = beneath(sb->read[i], sb->read[j]) && strcmp(sb->read[i], sb->read[j]);
    if (!covered && mirror(sb->root, sb->read[i], 0))
      return -1;
  }
  char tmp[1100];
  snprintf(tmp, sizeof tmp, "%s/tmp", sb->root);
  if (mirror(sb->root, "/dev/null", 1) || mirror(sb->root, sb->write, 1) || mkdirs(tmp))
    return -1;
  /* the new root replaces the old, which is then detached: nothing of it stays reachable */
  if (chdir(sb->root) || syscall(SYS_pivot_root, ".", ".") || umount2(".", MNT_DETACH) ||
      chdir("/"))
    return -1;
  if (mount(NULL, "/", NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL))
    return -1;
  return chdir(sb->write);
}

/* ---- which, and for what ---- */

static int probe_namespace(void)
{
  pid_t pid = fork();
  if (pid < 0)
    return 0;
  if (pid == 0) {
    char map[64];
    uid_t uid = getuid();
    if (unshare(CLONE_NEWUSER | CLONE_NEWNS))
      _exit(1);
    snprintf(map, sizeof map, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
    if (write_text("/proc/self/uid_map", map) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
        mount("tmpfs", "/", "tmpfs", MS_NOSUID | MS_NODEV, "size=64k"))
      _exit(1);
    _exit(0);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

enum tc_sandbox_kind tc_sandbox_probe(char *why, size_t n)
{
  static int done;
  static enum tc_sandbox_kind kind;
  static char reason[160];
  if (!done) {
    const char *force = getenv("WARPLAB_SANDBOX");
    int abi = ll_abi();
    int lle = errno;
    if (force && *force && strcmp(force, "auto")) {
      kind = !strcmp(force, "landlock") ? TC_SANDBOX_LANDLOCK
           : !strcmp(force, "namespace") ? TC_SANDBOX_NAMESPACE : TC_SANDBOX_NONE;
      snprintf(reason, sizeof reason, "WARPLAB_SANDBOX=%.40s", force);
    } else if (abi >= 1) {
      kind = TC_SANDBOX_LANDLOCK;
      snprintf(reason, sizeof reason, "Landlock ABI %d", abi);
    } else if (probe_namespace()) {
      kind = TC_SANDBOX_NAMESPACE;
      snprintf(reason, sizeof reason, "no Landlock (%s); user namespaces", strerror(lle));
    } else {
      kind = TC_SANDBOX_NONE;
      snprintf(reason, sizeof reason, "no Landlock (%s), no user namespaces", strerror(lle));
    }
    done = 1;
  }
  if (why && n)
    snprintf(why, n, "%s", reason);
  return kind;
}

const char *tc_sandbox_name(enum tc_sandbox_kind kind)
{
  return kind == TC_SANDBOX_LANDLOCK ? "landlock" : kind == TC_SANDBOX_NAMESPACE ? "namespace" : "none";
}

static int add_read(struct tc_sandbox *sb, const char *path)
{
  if (sb->nread == TC_SANDBOX_MAX_READ || strlen(path) >= sizeof sb->read[0] || path[0] != '/')
    return -1;
  for (size_t i = 0; i < sb->nread; i++)
    if (!strcmp(sb->read[i], path))
      return 0;
  memcpy(sb->read[sb->nread++], path, strlen(path) + 1);
  return 0;
}

/* The folder two levels above file (".../cuda/bin/nvcc" -> ".../cuda"), into out. */
static void grandparent(const char *file, char *out, size_t n)
{
  snprintf(out, n, "%s", file);
  for (int k = 0; k < 2; k++) {
    char *s = strrchr(out, '/');
    if (s && s > out)
      *s = 0;
  }
}

int tc_sandbox_for_nvcc(struct tc_sandbox *sb, enum tc_sandbox_kind kind, const char *nvcc,
                         const struct tc_toolkit *tk, const char *dir, const char *root)
{
  static const char *const sys[] = {
    "/usr/bin", "/usr/sbin", "/usr/lib", "/usr/lib32", "/usr/lib64", "/usr/libx32", "/usr/libexec",
    "/usr/include", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
    "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime", "/etc/alternatives",
    "/dev/urandom"};
  memset(sb, 0, sizeof *sb);
  sb->kind = kind;
  int bad = snprintf(sb->write, sizeof sb->write, "%s", dir) >= (int)sizeof sb->write ||
            snprintf(sb->root, sizeof sb->root, "%s", root ? root : "") >= (int)sizeof sb->root;
  /* the toolkit, as nvcc is named (/usr/local/cuda, often a link) and as it really is */
  char top[4096], real[4096];
  grandparent(nvcc, top, sizeof top);
  bad |= add_read(sb, top);
  if (realpath(nvcc, real)) {
    grandparent(real, top, sizeof top);
    bad |= add_read(sb, top);
  }
  /* and where nvcc says it is, when nvcc is a wrapper that execs one elsewhere */
  if (tk && tk->top[0])
    bad |= add_read(sb, tk->top);
  for (int i = 0; tk && i < tk->ninclude; i++)
    bad |= add_read(sb, tk->include[i]);
  for (size_t i = 0; i < sizeof sys / sizeof *sys; i++)
    bad |= add_read(sb, sys[i]);
  /* the host compiler nvcc calls, where it lives outside /usr */
  static const char *const hosts[] = {"gcc", "g++"};
  for (size_t i = 0; i < 2; i++) {
    char host[1024];
    if (tc_find_tool(hosts[i], host, sizeof host) == 0 && realpath(host, real) && !beneath(real, "/usr")) {
      grandparent(real, top, sizeof top);
      bad |= add_read(sb, top);
    }
  }
  const char *more = getenv("WARPLAB_SANDBOX_READ");
  while (more && *more) {
    size_t len = strcspn(more, ":");
    char d[1024];
    if (len && len < sizeof d) {
      memcpy(d, more, len);
      d[len] = 0;
      bad |= add_read(sb, d);
    }
    more += len + (more[len] == ':');
  }
  return bad ? -1 : 0;
}

int tc_sandbox_enter(const struct tc_sandbox *sb)
{
  switch (sb->kind) {
  case TC_SANDBOX_LANDLOCK: return enter_landlock(sb);
  case TC_SANDBOX_NAMESPACE: return enter_namespace(sb);
  case TC_SANDBOX_NONE: break;
  }
  return chdir(sb->write);
}

/* ---- a whole run, confined ---- */

static char self_note[400];
static char run_tmp[1024];

static void remove_run_tmp(void)
{
  rmdir(run_tmp);                               /* empty by then: each build removes its own */
}

const char *tc_sandbox_self_note(void)
{
  return self_note;
}

static void cap_limit(int which, rlim_t v)
{
  struct rlimit r;
  if (getrlimit(which, &r))
    return;
  if (r.rlim_max == RLIM_INFINITY || v < r.rlim_max)
    r.rlim_max = v;
  if (r.rlim_cur == RLIM_INFINITY || r.rlim_cur > r.rlim_max)
    r.rlim_cur = r.rlim_max;
  setrlimit(which, &r);
}

int tc_sandbox_confine_self(const char *write_dir, const char *const read[], size_t nread,
                             int gpu, char *why, size_t n)
{
  /* limits first: they hold whatever the kernel offers. No RLIMIT_NPROC: it counts every
     process of the user (a batch's other students, the grader's shell), not this run's */
  cap_limit(RLIMIT_FSIZE, (rlim_t)TC_SANDBOX_MAX_FILE);
  cap_limit(RLIMIT_NOFILE, 4096);
  cap_limit(RLIMIT_CORE, 0);
  const char *force = getenv("WARPLAB_SANDBOX");
  int abi = ll_abi();
  if ((force && *force && strcmp(force, "auto") && strcmp(force, "landlock")) || abi < 1) {
    snprintf(why, n, "this run not confined (%s): files held to %llu MiB", abi < 1 ? "no Landlock"
             : "WARPLAB_SANDBOX", TC_SANDBOX_MAX_FILE >> 20);
    snprintf(self_note, sizeof self_note, "%s", why);
    return 1;
  }
  char wd[4096];
  if (mkdirs(write_dir) || !realpath(write_dir, wd)) {
    snprintf(why, n, "cannot confine the run: %s: %s", write_dir, strerror(errno));
    return -1;
  }
  /* its temp folder: in its results folder, removed when it exits; or, where that path would
     be shell syntax to nvcc (which pastes temp paths into sh), a fresh one in /tmp */
  int safe = strlen(wd) < sizeof run_tmp - 8;
  for (const char *c = wd; *c && safe; c++)
    safe = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
           strchr("._/+-,=@", *c);
  if (safe)
    snprintf(run_tmp, sizeof run_tmp, "%.1000s/.tmp", wd);
  else
    snprintf(run_tmp, sizeof run_tmp, "/tmp/warplab-run-XXXXXX");
  if ((safe ? mkdir(run_tmp, 0700) && errno != EEXIST : !mkdtemp(run_tmp)) ||
      setenv("TMPDIR", run_tmp, 1)) {
    snprintf(why, n, "cannot confine the run: %s: %s", run_tmp, strerror(errno));
    return -1;
  }
  atexit(remove_run_tmp);
  uint64_t all = ll_fs_rights(abi);
  uint64_t ro = LL_EXECUTE | LL_READ_FILE | LL_READ_DIR;
  uint64_t dev = LL_READ_FILE | LL_WRITE_FILE | ((LL_TRUNCATE | LL_IOCTL_DEV) & all);
  struct ll_ruleset_attr attr = {.handled_access_fs = all};
  size_t size = sizeof attr.handled_access_fs;
  if (abi >= 6) {            /* no signals to processes outside: the batch, other students */
    attr.scoped = LL_SCOPE_SIGNAL;
    size = sizeof attr;
  }
  /* the rules: a path, its rights, whether it may be missing */
  struct rule {
    const char *path;
    uint64_t rights;
    int optional;
  } rules[TC_SANDBOX_MAX_READ + 32];
  size_t nr = 0;
  static const char *const sys_ro[] = {"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64",
                                       "/libx32", "/etc", "/opt", "/proc", "/sys", "/dev"};
  for (size_t i = 0; i < sizeof sys_ro / sizeof *sys_ro; i++)
    rules[nr++] = (struct rule){sys_ro[i], ro, 1};
  for (size_t i = 0; i < nread && nr < TC_SANDBOX_MAX_READ + 12; i++)
    rules[nr++] = (struct rule){read[i], ro, 1};
  char exe[4096];
  ssize_t el = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (el > 0) {                 /* warplab itself, run again under ncu or compute-sanitizer */
    exe[el] = 0;
    rules[nr++] = (struct rule){exe, ro, 0};
  }
  rules[nr++] = (struct rule){wd, all, 0};
  if (!safe)
    rules[nr++] = (struct rule){run_tmp, all, 0};
  rules[nr++] = (struct rule){"/dev/null", dev, 0};
  char nv[4200] = "";
  const char *home = getenv("HOME");
  if (gpu) {                    /* the CUDA driver's and its tools' own files */
    static const char *const gpu_ro[] = {"/run", "/var"};
    static const char *const gpu_rw[] = {"/dev", "/tmp", "/var/tmp", "/dev/shm"};
    for (size_t i = 0; i < 2; i++)
      rules[nr++] = (struct rule){gpu_ro[i], ro, 1};
    for (size_t i = 0; i < 4; i++)
      rules[nr++] = (struct rule){gpu_rw[i], all, 1};
    /* cuInit opens a file of /proc with fopen(..., "w"), so write and truncate: without them
       it fails with CUDA_ERROR_OPERATING_SYSTEM (found on an H200, driver 580). Landlock keeps
       ptrace, and so /proc/PID/mem, to processes inside this domain. */
    rules[nr++] = (struct rule){"/proc", ro | LL_WRITE_FILE | (LL_TRUNCATE & all), 1};
    if (home && home[0] == '/') {
      snprintf(nv, sizeof nv, "%s/.nv", home);
      mkdirs(nv);
      rules[nr++] = (struct rule){nv, all, 1};
    }
  }
  int rs = (int)syscall(LL_SYS_CREATE_RULESET, &attr, size, 0u);
  if (rs < 0) {
    snprintf(why, n, "cannot confine the run: Landlock: %s", strerror(errno));
    return -1;
  }
  const char *what = NULL;
  for (size_t i = 0; i < nr && !what; i++)
    if (ll_allow(rs, rules[i].path, rules[i].rights) && !(rules[i].optional && errno == ENOENT))
      what = rules[i].path;
  if (what || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || syscall(LL_SYS_RESTRICT_SELF, rs, 0u)) {
    snprintf(why, n, "cannot confine the run (Landlock%s%s): %s", what ? ", " : "",
             what ? what : "", strerror(errno));
    close(rs);
    return -1;
  }
  close(rs);
  /* no path in the words: they go into a student's results, which a regrade elsewhere (a
     Slurm node, another folder) must reproduce byte for byte */
  snprintf(why, n, "this run confined by Landlock ABI %d: it writes only beneath its results "
           "folder%s, reads only the lab's and the submission's folders and the system's; files "
           "held to %llu MiB", abi, gpu ? " (and the GPU's /dev, /tmp, ~/.nv)" : "",
           TC_SANDBOX_MAX_FILE >> 20);
  snprintf(self_note, sizeof self_note, "%s", why);
  return 0;
}

int tc_sandbox_confine_grade(const char *sub, const char *also, const char *results_root,
                             int may_gpu, char *why, size_t n)
{
  static const char *const parts[] = {"labs", "solutions", "handouts", "harness", "plots"};
  char paths[5][1100];
  const char *read[TC_SANDBOX_MAX_READ + 9];
  size_t k = 0;
  read[k++] = sub;
  if (also)
    read[k++] = also;
  for (size_t i = 0; i < 5; i++) {
    snprintf(paths[i], sizeof paths[i], "%.1000s/%s", tc_home(), parts[i]);
    read[k++] = paths[i];
  }
  /* and what nvcc reads, where that is outside the system's folders (a toolkit in $HOME) */
  struct tc_sandbox *sb = malloc(sizeof *sb);
  struct tc_toolkit *tk = malloc(sizeof *tk);
  char nvcc[4096];
  if (sb && tk && tc_find_tool("nvcc", nvcc, sizeof nvcc) == 0 &&
      (tc_toolkit_find(nvcc, tk), 1) &&
      tc_sandbox_for_nvcc(sb, TC_SANDBOX_NONE, nvcc, tk, "/", NULL) == 0)
    for (size_t i = 0; i < sb->nread && k < sizeof read / sizeof *read; i++)
      read[k++] = sb->read[i];
  int gpu = may_gpu && access("/dev/nvidiactl", F_OK) == 0;
  int rc = tc_sandbox_confine_self(results_root ? results_root : "results", read, k, gpu, why, n);
  free(sb);
  free(tk);
  return rc;
}
