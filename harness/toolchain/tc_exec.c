/* tc_exec.c: run a program and capture its output (see tc_exec.h).
 *
 * A program is started without a copy of warplab's memory. fork() copies the page tables of a
 * process that holds the emulator's buffers and a run's results by the time its charts are
 * drawn, and every page we write before the child's exec then takes a copy-on-write fault. The
 * child is made as posix_spawn makes its own: clone(CLONE_VM | CLONE_VFORK) on a stack of its
 * own, sharing our memory while the thread that starts it waits for its exec (or its end).
 * posix_spawn itself cannot set what a tool's child sets (its limits, death with us, the
 * confinement). Such a child reads our memory but writes none of it but its stack: it calls
 * only async-signal-safe functions, never malloc, and everything it needs (the argument vector,
 * the environment) is made before it starts. The one thing of ours it writes is the starting
 * thread's errno (the libc calls'), which start() puts back. Our signals stay blocked until it
 * has set every handled one back to its default (so none of our handlers runs in it, on our
 * memory), as exec would have.
 *
 * The one child still forked is one entering a namespace sandbox: unshare(CLONE_NEWUSER) is
 * refused to a process that shares its memory.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "toolchain/tc_exec.h"

extern char **environ;

static void set_limit(int which, unsigned long long v)
{
  struct rlimit r;
  if (!v || getrlimit(which, &r))
    return;
  if (r.rlim_max == RLIM_INFINITY || v < r.rlim_max)
    r.rlim_max = (rlim_t)v;
  r.rlim_cur = r.rlim_max;
  setrlimit(which, &r);
}

/* Variables a confined tool does not get: GCC's preprocessor reads them to search more
   folders for headers (a <name> could then be found beside the submission) or to write a
   dependency file wherever they say. */
static const char *const dropped[] = {"CPATH=", "C_INCLUDE_PATH=", "CPLUS_INCLUDE_PATH=",
                                      "OBJC_INCLUDE_PATH=", "DEPENDENCIES_OUTPUT=",
                                      "SUNPRO_DEPENDENCIES=", "TMPDIR="};

static int is_dropped(const char *var)
{
  for (size_t i = 0; i < sizeof dropped / sizeof *dropped; i++)
    if (!strncmp(var, dropped[i], strlen(dropped[i])))
      return 1;
  return 0;
}

/* The environment for a tool: for a confined one (dir set) TMPDIR=dir and without the
   dropped variables; with extra ("NAME=VALUE") that in place of NAME's value; ours, as it
   is, for neither. Freed by the caller when it is not environ: the array, and *owned (the
   one string it allocated, or NULL). */
static char **env_for(const char *dir, const char *extra, char **owned)
{
  *owned = NULL;
  if (!dir && !extra)
    return environ;
  size_t n = 0;
  while (environ[n])
    n++;
  char **env = calloc(n + 3, sizeof *env);
  char *tmp = dir ? malloc(strlen(dir) + 8) : NULL;
  if (!env || (dir && !tmp)) {
    free(env);
    free(tmp);
    return NULL;
  }
  size_t k = 0, name = extra ? strcspn(extra, "=") + 1 : 0;
  if (tmp) {
    snprintf(tmp, strlen(dir) + 8, "TMPDIR=%s", dir);
    env[k++] = tmp;
  }
  if (extra)
    env[k++] = (char *)extra;
  for (size_t i = 0; i < n; i++)
    if (!(dir && is_dropped(environ[i])) && !(extra && !strncmp(environ[i], extra, name)))
      env[k++] = environ[i];
  env[k] = NULL;
  *owned = tmp;
  return env;
}

static double now_s(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* ---- a child that shares our memory until its exec ---- */

/* The child's stack: room for execvpe's path buffer (PATH_MAX + NAME_MAX) and, for a script
   without #!, its copy of the argument vector; the rest is the few frames of its set-up. */
#define CHILD_STACK (256u << 10)

/* No sanitizer in a child's own frames: AddressSanitizer would mark its stack in shadow
   memory that outlives it, and take it for a stack of this thread's (it is none). */
#define CHILD_FN __attribute__((no_sanitize_address))

/* The child's first step: each signal with a handler of ours back to its default (the fatal
   ones also when ignored, with all_fatal), then our signal mask, blocked by start(). */
static const int fatal_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGSEGV, SIGBUS, SIGFPE, SIGILL,
                                    SIGABRT, SIGPIPE};

CHILD_FN static void child_signals(const sigset_t *mask, int all_fatal)
{
  struct sigaction sa, dfl = {.sa_handler = SIG_DFL};
  for (int sig = 1; sig < NSIG; sig++)
    if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler != SIG_DFL && sa.sa_handler != SIG_IGN)
      sigaction(sig, &dfl, NULL);
  for (size_t i = 0; all_fatal && i < sizeof fatal_signals / sizeof *fatal_signals; i++)
    sigaction(fatal_signals[i], &dfl, NULL);
  sigprocmask(SIG_SETMASK, mask, NULL);
}

/* Start fn(arg) in a child: sharing our memory (copy 0) or in a copy of it (fork). *mask gets
   our signal mask before fn starts, for child_signals. Returns its pid (its exec or its end has
   happened when it shares our memory), or -1 (errno). */
static pid_t start(int (*fn)(void *), void *arg, char *const argv[], sigset_t *mask, int copy)
{
  sigset_t all;
  sigfillset(&all);
  int saved = errno;
  pthread_sigmask(SIG_SETMASK, &all, mask);
  pid_t pid;
  int e;
  if (copy) {
    pid = fork();
    if (pid == 0)
      _exit(fn(arg));
    e = errno;
  } else {
    size_t n = 0;
    while (argv[n])
      n++;
    size_t size = CHILD_STACK + ((n + 2) * sizeof(char *) + 4095) / 4096 * 4096;
    char *stack = mmap(NULL, size, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK | MAP_NORESERVE, -1, 0);
    pid = stack == MAP_FAILED ? -1 : clone(fn, stack + size, CLONE_VM | CLONE_VFORK | SIGCHLD, arg);
    e = errno;
    if (stack != MAP_FAILED)
      munmap(stack, size);
  }
  pthread_sigmask(SIG_SETMASK, mask, NULL);
  errno = pid < 0 ? e : saved;
  return pid;
}

/* What spawn()'s child needs, made before it starts. */
struct tool_child {
  char *const *argv;
  const char *cwd;
  const struct tc_sandbox *sb;
  const struct tc_exec_limits *lim;
  char **env;
  pid_t parent;
  int out, report;
  sigset_t mask;
};

/* The child's side: its process group, death with us, standard streams, limits, the
   confinement (a failure is written to report as an errno), then argv. Never returns. */
CHILD_FN static int tool_child(void *arg)
{
  const struct tool_child *c = arg;
  child_signals(&c->mask, 0);
  /* its own group, so a timeout kills what it started too; and it dies with warplab: a
     grader killed by its batch leaves no compiler behind writing into the student's results */
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != c->parent)
    _exit(127);
  int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (null >= 0)
    dup2(null, 0);
  dup2(c->out, 1);
  dup2(c->out, 2);
  if (c->lim) {
    set_limit(RLIMIT_CPU, c->lim->cpu_s);
    set_limit(RLIMIT_FSIZE, c->lim->fsize);
    set_limit(RLIMIT_NOFILE, c->lim->nofile);
    set_limit(RLIMIT_DATA, c->lim->data);
  }
  if (c->sb ? tc_sandbox_enter(c->sb) != 0 : c->cwd && chdir(c->cwd) != 0) {
    int e = errno ? errno : EPERM;
    if (c->report >= 0 && write(c->report, &e, sizeof e) < 0)
      _exit(126);
    _exit(126);
  }
  execvpe(c->argv[0], c->argv, c->env);
  _exit(127);
}

static int spawn(char *const argv[], const char *cwd, const struct tc_sandbox *sb,
                 const char *extra, const struct tc_exec_limits *lim, char *out, size_t outlen,
                 double *cpu_s)
{
  if (cpu_s)
    *cpu_s = 0;
  int fd[2], rep[2] = {-1, -1};
  if (outlen)
    out[0] = 0;
  char *owned;
  char **env = env_for(sb ? sb->write : NULL, extra, &owned);
  if (!env)
    return -1;
  if (pipe2(fd, O_CLOEXEC) != 0 || (sb && pipe2(rep, O_CLOEXEC) != 0)) {
    if (env != environ) {
      free(owned);
      free(env);
    }
    return -1;
  }
  struct tool_child c = {.argv = argv, .cwd = cwd, .sb = sb, .lim = lim, .env = env,
                         .parent = getpid(), .out = fd[1], .report = rep[1]};
  pid_t pid = start(tool_child, &c, argv, &c.mask, sb && sb->kind == TC_SANDBOX_NAMESPACE);
  if (env != environ) {
    free(owned);
    free(env);
  }
  close(fd[1]);
  if (rep[1] >= 0)
    close(rep[1]);
  if (pid < 0) {
    close(fd[0]);
    if (rep[0] >= 0)
      close(rep[0]);
    return -1;
  }
  size_t got = 0;
  char sink[4096];
  double deadline = lim && lim->wall_s ? now_s() + lim->wall_s : 0;
  int timed_out = 0;
  for (;;) {
    if (deadline) {
      double left = timed_out ? 1.0 : deadline - now_s();
      struct pollfd p = {.fd = fd[0], .events = POLLIN};
      int r = left > 0 ? poll(&p, 1, (int)(left * 1000) + 1) : 0;
      if (r < 0 && errno == EINTR)
        continue;
      if (r == 0 && timed_out)
        break;                                  /* something that left its group holds the pipe */
      if (r == 0) {                             /* past its time: it and all it started */
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL);
        timed_out = 1;
        continue;
      }
    }
    ssize_t r = read(fd[0], got + 1 < outlen ? out + got : sink,
                     got + 1 < outlen ? outlen - 1 - got : sizeof sink);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      break;
    if (got + 1 < outlen)
      got += (size_t)r;
  }
  close(fd[0]);
  if (outlen)
    out[got] = 0;
  int status = 0;
  struct rusage ru;
  memset(&ru, 0, sizeof ru);
  while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR)
    ;
  if (cpu_s)
    *cpu_s = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
             ru.ru_stime.tv_usec / 1e6;
  int why = 0;
  if (rep[0] >= 0) {
    if (read(rep[0], &why, sizeof why) != (ssize_t)sizeof why)
      why = 0;
    close(rep[0]);
  }
  if (why) {
    errno = why;
    return TC_EXEC_UNCONFINED;
  }
  if (timed_out)
    return TC_EXEC_TIMEOUT;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

int tc_exec_capture(char *const argv[], const char *cwd, char *out, size_t outlen)
{
  return spawn(argv, cwd, NULL, NULL, NULL, out, outlen, NULL);
}

int tc_exec_timed(char *const argv[], const char *cwd, unsigned wall_s, char *out,
                   size_t outlen)
{
  return tc_exec_timed_env(argv, cwd, NULL, wall_s, out, outlen);
}

int tc_exec_timed_env(char *const argv[], const char *cwd, const char *var, unsigned wall_s,
                      char *out, size_t outlen)
{
  struct tc_exec_limits lim = {.wall_s = wall_s};
  return spawn(argv, cwd, NULL, var, &lim, out, outlen, NULL);
}

int tc_exec_confined(char *const argv[], const struct tc_sandbox *sb,
                      const struct tc_exec_limits *lim, char *out, size_t outlen)
{
  return spawn(argv, NULL, sb, NULL, lim, out, outlen, NULL);
}

int tc_exec_confined_cpu(char *const argv[], const struct tc_sandbox *sb,
                          const struct tc_exec_limits *lim, char *out, size_t outlen,
                          double *cpu_s)
{
  return spawn(argv, NULL, sb, NULL, lim, out, outlen, cpu_s);
}

void tc_exec_tool_limits(struct tc_exec_limits *lim)
{
  *lim = (struct tc_exec_limits){.cpu_s = 300, .fsize = 512ull << 20, .nofile = 256,
                                  .wall_s = 600, .data = 4ull << 30};
  const char *e = getenv("WARPLAB_TOOL_CPU_S");
  char *end;
  unsigned long v = e && *e ? strtoul(e, &end, 10) : 0;
  if (e && *e && !*end && v > 0 && v < lim->cpu_s)
    lim->cpu_s = (unsigned)v;
  e = getenv("WARPLAB_TOOL_WALL_S");
  v = e && *e ? strtoul(e, &end, 10) : 0;
  if (e && *e && !*end && v > 0 && v < lim->wall_s)
    lim->wall_s = (unsigned)v;
}

int tc_exec_tool(char *const argv[], const char *what, char *out, size_t outlen, char *stopped,
                  size_t n)
{
  struct tc_exec_limits lim;
  tc_exec_tool_limits(&lim);
  /* the GPU tools (ncu, compute-sanitizer) run the kernel on the GPU through the CUDA driver,
     which maps device memory and opens device files in the process: a 4 GiB data cap left
     compute-sanitizer's run of a kernel finding nothing on an H100 (0 errors where it found
     13). Their time, clock and files stay bounded. */
  lim.data = 0;
  lim.nofile = 0;
  double cpu = 0;
  int rc = spawn(argv, NULL, NULL, NULL, &lim, out, outlen, &cpu);
  tc_exec_stopped_words(rc, outlen ? out : NULL, cpu, &lim, what, stopped, n);
  return rc;
}

/* Whether the last non-blank line of log is exactly word (what sh prints for a child killed
   by a signal: "Killed", "CPU time limit exceeded"). */
static int last_line_is(const char *log, const char *word)
{
  size_t n = log ? strlen(log) : 0;
  while (n && (log[n - 1] == '\n' || log[n - 1] == ' '))
    n--;
  size_t b = n;
  while (b && log[b - 1] != '\n')
    b--;
  return n - b == strlen(word) && !strncmp(log + b, word, n - b);
}

int tc_exec_stopped_words(int rc, const char *log, double cpu_s,
                           const struct tc_exec_limits *lim, const char *what, char *buf,
                           size_t n)
{
  if (n)
    buf[0] = 0;
  if (rc == TC_EXEC_TIMEOUT) {
    snprintf(buf, n, "%s was stopped after %u s on the clock (its limit)", what,
             lim ? lim->wall_s : 0);
    return 1;
  }
  int killed = rc == 128 + SIGKILL || rc == 128 + SIGXCPU || last_line_is(log, "Killed") ||
               last_line_is(log, "CPU time limit exceeded");
  if (!killed)
    return 0;
  if (lim && lim->cpu_s && (rc == 128 + SIGXCPU || last_line_is(log, "CPU time limit exceeded") ||
                            cpu_s + 1.0 >= lim->cpu_s))
    snprintf(buf, n, "%s was stopped after %u s of CPU time (its limit)", what, lim->cpu_s);
  else if (lim && lim->data)
    snprintf(buf, n, "%s ran out of memory (at most %llu MiB a process, or the grader's own "
             "cap) and was stopped", what, lim->data >> 20);
  else
    snprintf(buf, n, "%s ran out of memory and was stopped", what);
  return 1;
}

int tc_self_path(char *buf, size_t len)
{
  ssize_t n = len ? readlink("/proc/self/exe", buf, len - 1) : -1;
  if (n <= 0)
    return -1;
  buf[n] = 0;
  return 0;
}

/* What tc_exec_start's child needs. */
struct start_child {
  char *const *argv;
  const struct tc_exec_child *c;
  pid_t parent;
  sigset_t mask;
};

CHILD_FN static int start_child(void *arg)
{
  const struct start_child *s = arg;
  const struct tc_exec_child *c = s->c;
  child_signals(&s->mask, c->default_signals);
  setpgid(0, 0);
  if (c->die_with_us) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != s->parent)
      _exit(126);                   /* we died before prctl took effect */
  }
  if (c->as_bytes) {
    struct rlimit as = {(rlim_t)c->as_bytes, (rlim_t)c->as_bytes};
    setrlimit(RLIMIT_AS, &as);
  }
  if (c->no_core) {
    struct rlimit core = {0, 0};
    setrlimit(RLIMIT_CORE, &core);
  }
  int in = c->in >= 0 ? c->in : open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (in < 0 || dup2(in, 0) < 0 || (c->out >= 0 && dup2(c->out, 1) < 0) ||
      (c->err >= 0 && dup2(c->err, 2) < 0))
    _exit(127);
  /* open across exec (dup2 clears close-on-exec; onto itself it does not) */
  if (c->pass_fd >= 0 && (c->pass_fd == c->pass_as ? fcntl(c->pass_fd, F_SETFD, 0)
                                                    : dup2(c->pass_fd, c->pass_as)) < 0)
    _exit(126);
  execv(s->argv[0], s->argv);
  static const char msg[] = "warplab: cannot run a program: ";
  ssize_t w = write(2, msg, sizeof msg - 1);
  w = write(2, s->argv[0], strlen(s->argv[0]));
  w = write(2, "\n", 1);
  (void)w;
  _exit(127);
}

pid_t tc_exec_start(char *const argv[], const struct tc_exec_child *c)
{
  /* its group is set before we go on: a kill right after this reaches it */
  struct start_child s = {.argv = argv, .c = c, .parent = getpid()};
  return start(start_child, &s, argv, &s.mask, 0);
}

int tc_exec_wait(pid_t pid, unsigned timeout_s)
{
  double deadline = timeout_s ? now_s() + timeout_s : 0;
  int status = 0;
  for (;;) {
    pid_t r = waitpid(pid, &status, deadline ? WNOHANG : 0);
    if (r == pid)
      return status;
    if (r < 0 && errno != EINTR)
      return -1;
    if (deadline && now_s() >= deadline) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
      return TC_EXEC_TIMEOUT;
    }
    if (deadline) {
      struct timespec ts = {0, 50 * 1000 * 1000};
      nanosleep(&ts, NULL);
    }
  }
}
