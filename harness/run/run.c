/* run.c: one run of a lab (see run.h).
 *
 *   kernel file --nvcc--> PTX --parse--> module: signature checked, choices read
 *   for every test size and the main size: inputs (seeded), outputs poisoned, launch,
 *       outputs compared with the CPU reference (reference.c, compiled and loaded here)
 *   for the main size and every sweep point: measured (harness/measure: occupancy,
 *       counters and modelled time on the emulator; timings and Nsight Compute on a GPU),
 *       a sweep point on the main size's buffers unless its choices change their sizes
 *
 * A student's mistake (no build, wrong signature, wrong values, a fault, a kernel that hangs
 * the GPU) is a result in struct run_result; only our own or the lab's problems are errors.
 *
 * A run that may use a GPU happens in a child process (run_lab_run, at the end). A kernel
 * that never ends cannot be stopped on a GPU: it holds the GPU and the CUDA context until
 * its process ends, and any driver call that waits for it waits for ever. The backend stops
 * waiting after WARPLAB_GPU_TIMEOUT seconds and says so (be_cuda.c); the run records that
 * check as "timeout", the checks after it as not run, and ends cleanly, its result written
 * into memory shared with the parent. The child then ends, which frees the GPU, and the
 * parent goes on with a process that never touched CUDA: it writes result.json and the
 * report, and `warplab grade` runs the reference solution next in a fresh child. A driver
 * that takes the child down (a crash, a kill) is recorded by the parent the same way, on
 * the check that was running. The checks after a hang are not retried in a fresh child: a
 * kernel that hangs on one size almost always hangs on the next, and each would cost the
 * whole time limit.
 */
#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <malloc.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "measure/ms.h"
#include "metrics/met.h"
#include "metrics/occ.h"
#include "ptx/ptx.h"
#include "run/lab_ref.h"
#include "run/run.h"
#include "run/run_cache.h"
#include "run/run_expr.h"
#include "run/run_lanes.h"
#include "run/run_sweepfill.h"
#include "toolchain/tc_build.h"
#include "toolchain/tc_cache.h"
#include "toolchain/tc_exec.h"
#include "toolchain/tc_file.h"
#include "toolchain/tc_ptxas.h"
#include "toolchain/tc_sandbox.h"
#include "toolchain/tc_sanitize.h"
#include "toolchain/tc_sass.h"
#include "toolchain/tc_toolkit.h"

#define GUARD_BYTES 65536u   /* each side of every GPU buffer */
#define GUARD_BYTE 0xa5      /* the guard pattern: byte k of buffer i's zones is guard_byte(i, k) */
#define RUN_PTXAS_FUNCS 64   /* functions of ptxas's report kept: the kernel and its callees */

/* Every buffer's guard zones hold a pattern of their own, varying along the zone: a kernel
   that copies one buffer's guard zone into another's (a gather without its bounds check reads
   past its input and writes past its output) still changes the second. */
static uint8_t guard_byte(uint32_t buffer, uint64_t k)
{
  return (uint8_t)(GUARD_BYTE ^ (buffer * 0x3b) ^ (k * 0x9d) ^ (k >> 8));
}
/* A lab's emulator sizes take about a million warp-instructions; a kernel that runs 200 times
   that is stuck in a loop, and is stopped within seconds rather than minutes.
   WARPLAB_EMU_BUDGET=N sets another number of warp-instructions a launch (an instructor's lab
   with larger sizes; a test that needs a kernel to run until a wall-clock limit stops it). */
#define LAB_EMU_BUDGET 200000000ull

static uint64_t emu_budget(void)
{
  const char *e = getenv("WARPLAB_EMU_BUDGET");
  if (!e || !*e)
    return LAB_EMU_BUDGET;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(e, &end, 10);
  return errno || *end || v == 0 ? LAB_EMU_BUDGET : (uint64_t)v;
}

/* Whether a sweep point may be remodelled on the launch before it (kept_serves): unless
   WARPLAB_REMODEL=0, which launches every point (to compare the two, or to bisect). */
static int remodel_allowed(void)
{
  const char *e = getenv("WARPLAB_REMODEL");
  return !e || strcmp(e, "0");
}

/* What a run is doing, kept where its parent can read it if the child dies (run_lab_run):
   the index of the check or point whose launch is under way (-1: none), and the main size. */
struct run_progress {
  volatile int32_t check, point;
  struct run_sizes main_size;
};

struct ctx {
  const struct run_lab *lab;
  const struct run_opts *opts;
  struct run_result *res;
  struct be *be;
  enum be_kind kind;
  struct ptx_module mod;
  char *ptx;
  size_t ptx_len;
  lab_ref_fn ref;
  void *ref_lib;
  struct refbuild *refb;       /* the reference library being built (refbuild_start) */
  struct occ_profile prof;
  int have_prof;
  struct tc_resources rsrc;
  int have_rsrc;
  struct tc_resources rs[RUN_PTXAS_FUNCS];   /* ptxas's report of every function ... */
  int nrs;
  struct sim_frame frames[RUN_PTXAS_FUNCS];  /* ... and the device functions' stack frames,
                                                 every launch's (be_launch.frames) */
  uint32_t nframes;
  struct ms_setup ms;          /* what every launch's measurement shares: the profile (loaded
                                  once, above), the module, ptxas's report, the lab's metrics */
  char *cubin;                 /* the cubin ptxas made with its report (tc_ptxas_cubin), for
                                  the SASS map; NULL when it made none */
  size_t cubin_len;
  struct ptx_sass sass;        /* emulator: the SASS map of the PTX (tc_sass.h) ... */
  int have_sass;               /* ... when nvdisasm made one: the counts are the GPU's */
  struct sass_job {            /* tc_sass on a thread of its own (sass_start, sass_join) */
    pthread_t thread;
    int running;               /* started and not yet joined */
    const char *ptx_file;
    char arch[16];
    const struct ptx_module *mod;
    struct ptx_sass *out;
    const char *cubin;         /* the cubin of ptxas's report, to list (NULL: assemble) */
    size_t cubin_len;
    int ok;
    int done;                  /* atomic: the thread has its map (or failed), joined or not */
  } sass_job;
  int sanitized;               /* compute-sanitizer was already run for a GPU fault */
  char hung[192];              /* the check or point on which the GPU hung; "" while it has not */
  struct run_progress *prog;   /* NULL when the run is not in a child */
  struct run_inputs *inputs;   /* every launch's inputs, each made once (run_data.h); made
                                  by the first launch_prepare */
  struct measured *done;       /* emulator: the launches measured so far (measure_once) */
  uint64_t intact[RUN_MAX_PARAMS]; /* emulator: the device address of in buffer i while its
                                      bytes are known to be its input as made (written, or
                                      found unchanged after the last launch), so that
                                      launch_reset need not write it again; 0: not known */
  uint32_t ndone, cap_done;
  int smem_blind;              /* the module cannot tell its dynamic shared memory
                                  (ptx_sees_smem_size): a point that changes only that is
                                  remodelled, not launched (kept_serves) */
  uint64_t seq;                /* bumped whenever the device's buffers change hands or bytes
                                  (launch_prepare, launch_reset, launch_free) */
  struct kept_launch *kept;    /* emulator: the last launch measured, whole (measure_keep) */
  struct ms_result *main_mr;   /* emulator: the main size's test launch, recorded (MS_RECORD):
                                  the main configuration's measurement, finished in measure */
  uint64_t main_state;         /* ... and the device's state before it (be_state_digest) */
  struct pending *pend;        /* emulator: the points whose figures are still being made,
                                  oldest first (struct pending), or NULL ... */
  struct pending *pend_last;   /* ... the newest */
  uint32_t npend;
  int launch_ok;               /* the last launch_check's ms_launch returned BE_OK */
  int ref_choice_free;         /* the reference gave the main configuration's outputs without
                                  its choices (ref_choice_free): a remodelled point's are its
                                  kept launch's (remodel_check) */
  char *err;
  size_t errlen;
};

uint32_t run_device_frames(const struct tc_resources *rs, int n, struct sim_frame *out,
                           uint32_t max)
{
  uint32_t k = 0;
  for (int i = 0; i < n && k < max; i++)
    if (!rs[i].is_entry && (rs[i].has & TC_RES_STACK) && rs[i].stack_frame >= 0)
      out[k++] = (struct sim_frame){.func = rs[i].name, .bytes = (uint32_t)rs[i].stack_frame};
  return k;
}

static const char *const state_names[][2] = {
  [RUN_CHECK_PASS] = {"pass", "ok"}, [RUN_CHECK_FAIL] = {"fail", "FAIL"},
  [RUN_CHECK_FAULT] = {"fault", "FAULT"}, [RUN_CHECK_TIMEOUT] = {"timeout", "TIMEOUT"},
};

static const char *const phase_names[] = {
#define X(id, name) [id] = name,
  RUN_PHASES(X)
#undef X
};

const char *run_phase_name(enum run_phase p)
{
  return p < RUN_PHASE_COUNT ? phase_names[p] : "?";
}

/* Seconds on a monotonic clock, for the phases' wall times. */
static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

const char *run_check_state_name(enum run_check_state s)
{
  return s <= RUN_CHECK_TIMEOUT ? state_names[s][0] : "fault";
}

const char *run_check_state_label(enum run_check_state s)
{
  return s <= RUN_CHECK_TIMEOUT ? state_names[s][1] : "FAULT";
}

enum run_check_state run_check_state_parse(const char *name)
{
  for (int s = RUN_CHECK_PASS; s <= RUN_CHECK_TIMEOUT; s++)
    if (name && !strcmp(name, state_names[s][0]))
      return (enum run_check_state)s;
  return RUN_CHECK_FAULT;
}

static void progress(struct ctx *c, int32_t check, int32_t point)
{
  if (c->prog) {
    c->prog->check = check;
    c->prog->point = point;
  }
}

int run_exit_code(const struct run_result *r)
{
  if (!r->built)
    return 3;
  return r->all_passed ? 0 : 1;
}

static int mkdirs(const char *path)
{
  char tmp[1024];
  snprintf(tmp, sizeof tmp, "%s", path);
  for (char *p = tmp + 1; *p; p++)
    if (*p == '/') {
      *p = 0;
      if (mkdir(tmp, 0755) && errno != EEXIST)
        return -1;
      *p = '/';
    }
  return mkdir(tmp, 0755) && errno != EEXIST ? -1 : 0;
}

/* The variables of a launch: the size's and the choices'. */
static size_t make_vars(const struct run_sizes *size, const struct run_sizes *ch, struct run_var *v)
{
  size_t n = 0;
  for (uint32_t i = 0; i < size->n; i++)
    v[n++] = (struct run_var){size->name[i], size->v[i]};
  for (uint32_t i = 0; i < ch->n; i++)
    v[n++] = (struct run_var){ch->name[i], ch->v[i]};
  return n;
}

/* The seed of input buffer i of a launch seeded seed. */
static uint64_t input_seed(uint64_t seed, uint32_t i)
{
  return seed * 1000003u + i;
}

static void sizes_text(const struct run_sizes *s, char *buf, size_t n)
{
  size_t k = 0;
  buf[0] = 0;
  for (uint32_t i = 0; i < s->n && k < n; i++) {
    int w = snprintf(buf + k, n - k, "%s%s=%" PRId64, i ? " " : "", s->name[i], s->v[i]);
    if (w < 0)
      break;
    k += (size_t)w;
  }
}

/* ---- build, signature, choices ---- */

const char *run_kernel_path(const struct run_lab *lab, const struct run_opts *opts, char *buf,
                            size_t n)
{
  if (opts->kernel_file)
    return opts->kernel_file;
  if (!opts->solution) {
    snprintf(buf, n, "%.900s/%.120s", lab->dir, lab->kernel_file);
    return buf;
  }
  /* labs/NN-name -> solutions/NN-name, beside the labs folder */
  char labs[1024];
  snprintf(labs, sizeof labs, "%s", lab->dir);
  char *slash = strrchr(labs, '/');
  if (slash)
    *slash = 0;                                 /* the labs folder */
  slash = strrchr(labs, '/');
  if (slash)
    slash[1] = 0;                               /* its parent, with the '/' */
  else
    labs[0] = 0;
  snprintf(buf, n, "%.800ssolutions/%.60s/%.120s", labs, lab->id, lab->kernel_file);
  return buf;
}

static const char *param_type(const struct run_param *p, char *buf, size_t n)
{
  snprintf(buf, n, "%s%s", run_elem_name(p->elem), p->role == RUN_ROLE_SCALAR ? "" : "*");
  return buf;
}

/* Add a flag for the instructor to res->integrity (once each). */
static void flag(struct run_result *res, const char *what)
{
  if (strstr(res->integrity, what))
    return;
  size_t k = strlen(res->integrity);
  snprintf(res->integrity + k, sizeof res->integrity - k, "%s%s", k ? "; " : "", what);
}

/* The kernel file's line that PTX line ptx_line came from: the last `.loc F L` (or
   `inlined_at F L`) before it whose file F is the kernel file kfile. Returns that line, or 0
   when the PTX names none (built without line information). */
static uint32_t ptx_source_line(const char *ptx, size_t len, uint32_t ptx_line, const char *kfile)
{
  const char *kbase = strrchr(kfile, '/');
  kbase = kbase ? kbase + 1 : kfile;
  long kidx = -1;                               /* the kernel file's .file index */
  for (const char *p = ptx, *end = ptx + len; p < end && kidx < 0; ) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *e = nl ? nl : end, *q = p;
    while (q < e && (*q == ' ' || *q == '\t'))
      q++;
    if (e - q > 6 && !strncmp(q, ".file", 5)) {
      char *after;
      long idx = strtol(q + 5, &after, 10);
      const char *open = memchr(after, '"', (size_t)(e - after));
      const char *close = open ? memchr(open + 1, '"', (size_t)(e - open - 1)) : NULL;
      if (close) {
        const char *b = open + 1;
        for (const char *t = open + 1; t < close; t++)
          if (*t == '/')
            b = t + 1;
        if ((size_t)(close - b) == strlen(kbase) && !strncmp(b, kbase, strlen(kbase)))
          kidx = idx;
      }
    }
    p = e + 1;
  }
  uint32_t line = 1, found = 0;
  for (const char *p = ptx, *end = ptx + len; p < end && line < ptx_line; line++) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *e = nl ? nl : end, *q = p;
    while (q < e && (*q == ' ' || *q == '\t'))
      q++;
    if (kidx >= 0 && e - q > 4 && !strncmp(q, ".loc", 4)) {
      char *after;
      long f = strtol(q + 4, &after, 10), l = strtol(after, NULL, 10);
      const char *in = strstr(q, "inlined_at");
      if (f != kidx && in && in < e)
        f = strtol(in + 10, &after, 10), l = strtol(after, NULL, 10);
      if (f == kidx && l > 0)
        found = (uint32_t)l;
    }
    p = e + 1;
  }
  return found;
}

/* Timers belong to the harness: a kernel that reads the clock registers (%clock, %clock64,
   %globaltimer) could time itself or behave differently when timed; it is flagged. */
static void flag_clock_reads(struct ctx *c)
{
  for (uint32_t i = 0; i < c->mod.ninsts; i++) {
    const struct ptx_inst *in = &c->mod.insts[i];
    for (unsigned k = 0; k < in->nopd; k++) {
      const struct ptx_operand *o = &in->opd[k];
      if (o->kind != PTX_OPD_SREG || (o->reg != PTX_SR_CLOCK && o->reg != PTX_SR_CLOCK_HI &&
                                      o->reg != PTX_SR_CLOCK64 && o->reg != PTX_SR_GLOBALTIMER &&
                                      o->reg != PTX_SR_GLOBALTIMER_LO && o->reg != PTX_SR_GLOBALTIMER_HI))
        continue;
      const char *path = in->uline ? ptx_file_path(&c->mod, in->ufile) : NULL;
      const char *base = path ? strrchr(path, '/') : NULL;
      char what[256];
      if (path)
        snprintf(what, sizeof what, "the kernel reads %s at %.100s:%u", ptx_sreg_name((enum ptx_sreg)o->reg),
                 base ? base + 1 : path, in->uline);
      else
        snprintf(what, sizeof what, "the kernel reads %s (PTX line %u)",
                 ptx_sreg_name((enum ptx_sreg)o->reg), in->ptx_line);
      flag(c->res, what);
    }
  }
}

/* The kernel's parameters must be the lab's: count and sizes. A mismatch fails the run. */
static int check_signature(struct ctx *c, char *why, size_t n)
{
  const struct run_lab *lab = c->lab;
  int f = ptx_find_func(&c->mod, lab->kernel);
  if (f < 0 || !c->mod.funcs[f].is_entry) {
    snprintf(why, n, "the kernel file has no kernel named %s (declare it extern \"C\" __global__ "
             "void %s(...), as the starter does)", lab->kernel, lab->kernel);
    return -1;
  }
  const struct ptx_func *fn = &c->mod.funcs[f];
  char want[512] = "", t[16];
  size_t k = 0;
  for (uint32_t i = 0; i < lab->nparams && k < sizeof want; i++) {
    int w = snprintf(want + k, sizeof want - k, "%s%s %s", i ? ", " : "",
                     param_type(&lab->params[i], t, sizeof t), lab->params[i].name);
    if (w > 0)
      k += (size_t)w;
  }
  if (fn->nparams != lab->nparams) {
    snprintf(why, n, "wrong kernel signature: %s takes %u parameters, the lab needs %u: %s(%s)",
             lab->kernel, fn->nparams, lab->nparams, lab->kernel, want);
    return -1;
  }
  for (uint32_t i = 0; i < lab->nparams; i++) {
    const struct ptx_var *v = &c->mod.vars[c->mod.func_params[fn->first_param + i]];
    uint64_t size = lab->params[i].role == RUN_ROLE_SCALAR ? run_elem_size(lab->params[i].elem) : 8;
    if (v->size != size) {
      snprintf(why, n, "wrong kernel signature: parameter %u of %s is %llu bytes, the lab's %s is "
               "%s (%llu bytes): %s(%s)", i, lab->kernel, (unsigned long long)v->size,
               lab->params[i].name, param_type(&lab->params[i], t, sizeof t),
               (unsigned long long)size, lab->kernel, want);
      return -1;
    }
  }
  return 0;
}

/* The launch choices the kernel file sets (__constant__ int BLOCK_X = 32;), over the defaults. */
static void read_choices(const struct ctx *c, struct run_sizes *ch)
{
  *ch = c->lab->choices;
  for (uint32_t i = 0; i < ch->n; i++)
    for (uint32_t v = 0; v < c->mod.nvars; v++) {
      const struct ptx_var *var = &c->mod.vars[v];
      if (var->func >= 0 || strcmp(var->name, ch->name[i]) || (var->size != 4 && var->size != 8))
        continue;
      if (!var->has_init) {            /* `= 0` leaves no initialiser in the PTX: zero */
        if (var->space == PTX_SP_CONST || var->space == PTX_SP_GLOBAL)
          ch->v[i] = 0;
        continue;
      }
      if (var->init_off + var->size > c->mod.ninit)
        continue;
      int32_t x32;
      int64_t x64;
      if (var->size == 4) {
        memcpy(&x32, c->mod.init + var->init_off, 4);
        ch->v[i] = x32;
      } else {
        memcpy(&x64, c->mod.init + var->init_off, 8);
        ch->v[i] = x64;
      }
    }
}

int run_reference_build(const struct run_lab *lab, const char *so_out, char *err, size_t errlen)
{
  char src[1200], inc[1040];
  snprintf(src, sizeof src, "%s/%s", lab->dir, lab->ref_source);
  snprintf(inc, sizeof inc, "-I%.1000s/harness/run", tc_home());
  /* a labs/ folder copied without harness/ (a student's own folder): lab_ref.h from the
     repository this warplab was built in (bin/warplab's parent) */
  char exe[1000], hdr[1100];
  snprintf(hdr, sizeof hdr, "%s/lab_ref.h", inc + 2);
  if (access(hdr, R_OK) && !tc_self_path(exe, sizeof exe)) {
    for (int up = 0; up < 2; up++) {
      char *slash = strrchr(exe, '/');
      if (slash)
        *slash = 0;
    }
    snprintf(inc, sizeof inc, "-I%.1000s/harness/run", exe);
  }
  char log[2048], dir[1200];
  snprintf(dir, sizeof dir, "%s", so_out);
  char *slash = strrchr(dir, '/');
  if (slash && slash > dir) {
    *slash = 0;
    if (mkdirs(dir)) {
      snprintf(err, errlen, "cannot make %s: %s", dir, strerror(errno));
      return -1;
    }
  }
  if (tc_build_shared_lib(src, inc + 2, so_out, log, sizeof log, NULL) != 0) {
    snprintf(err, errlen, "the lab's reference %s did not build: %s", src, log);
    return -1;
  }
  return 0;
}

/* The reference library, built on a thread of its own while nvcc runs: an empty build
   cache compiles it (cc, as, ld: 0.1 s), which came after nvcc and ptxas, before the first
   test could run. */
struct refbuild {
  pthread_t thread;
  int running;
  const struct run_lab *lab;
  char so[1200];
  int rc;
  char err[2600];
};

static void *refbuild_main(void *arg)
{
  struct refbuild *r = arg;
  r->rc = run_reference_build(r->lab, r->so, r->err, sizeof r->err);
  return NULL;
}

/* Start building c's reference library into its results folder (none where the run was
   handed one, run_opts.reference_so), into *r, which c keeps until refbuild_join. */
static void refbuild_start(struct ctx *c, struct refbuild *r)
{
  memset(r, 0, sizeof *r);
  c->refb = r;
  r->lab = c->lab;
  snprintf(r->so, sizeof r->so, "%s/reference.so", c->res->results_dir);
  if (c->opts->reference_so && !access(c->opts->reference_so, R_OK)) {
    snprintf(r->so, sizeof r->so, "%s", c->opts->reference_so);
    return;
  }
  r->running = pthread_create(&r->thread, NULL, refbuild_main, r) == 0;
  if (!r->running)
    r->rc = run_reference_build(r->lab, r->so, r->err, sizeof r->err);
}

static void refbuild_join(struct ctx *c)
{
  if (c->refb && c->refb->running) {
    pthread_join(c->refb->thread, NULL);
    c->refb->running = 0;
  }
}

static int load_reference(struct ctx *c)
{
  refbuild_join(c);
  if (c->refb->rc) {
    snprintf(c->err, c->errlen, "%s", c->refb->err);
    return -1;
  }
  const char *so = c->refb->so;
  c->ref_lib = dlopen(so, RTLD_NOW | RTLD_LOCAL);
  if (!c->ref_lib) {
    snprintf(c->err, c->errlen, "cannot load the lab's reference: %s", dlerror());
    return -1;
  }
  *(void **)&c->ref = dlsym(c->ref_lib, c->lab->ref_function);
  if (!c->ref) {
    snprintf(c->err, c->errlen, "%s/%s has no function %s", c->lab->dir, c->lab->ref_source,
             c->lab->ref_function);
    return -1;
  }
  return 0;
}

/* ---- the SASS map, made beside the tests ---- */

/* ptxas and nvdisasm on the PTX (tc_sass) take about as long as nvcc itself, nvdisasm most of
   it; their map is read only when a configuration is measured (ms_launch with MS_MEASURE).
   So they run on a thread of their own from the time the PTX is parsed, while ptxas's report
   is read, the reference is built and the tests run, and the run waits for them before the
   main configuration (sass_join). The thread reads the module and writes c->sass alone;
   nothing else touches either until the join. */
static void *sass_main(void *arg)
{
  struct sass_job *j = arg;
  char slog[512];
  j->ok = tc_sass_cubin(j->ptx_file, j->arch, j->mod, j->out, slog, sizeof slog, j->cubin,
                        j->cubin_len) == TC_SASS_OK;
  __atomic_store_n(&j->done, 1, __ATOMIC_RELEASE);
  return NULL;
}

/* What the emulator's workers for the next launch wait for: one a core, but while the SASS
   map is being made (nvdisasm takes a core for about 0.3 s) the last of them waits until it is
   done (be_launch.hold). With every core's worker beside it, the tests and nvdisasm took
   turns on the cores, nvdisasm finished late and the measurements, which need its map, waited
   with a core idle (0.3 to 0.5 s of a lab 03 or 07 save on 2 cores); with one worker fewer
   for the whole launch, a launch that began beside nvdisasm kept a core idle after it ended
   (0.15 s of a lab 07 save). NULL: none waits. */
static const int *launch_hold(const struct ctx *c)
{
  if (c->kind != BE_EMU || !c->sass_job.running ||
      __atomic_load_n(&c->sass_job.done, __ATOMIC_ACQUIRE) || sim_host_cores() < 2)
    return NULL;
  return &c->sass_job.done;
}

/* Start the SASS map of c's PTX (arch: "sm_90"); without a thread, make it here. */
static void sass_start(struct ctx *c, const char *arch)
{
  struct sass_job *j = &c->sass_job;
  if (j->running || c->have_sass)
    return;
  j->ptx_file = c->res->prov.ptx_file;
  snprintf(j->arch, sizeof j->arch, "%s", arch);
  j->mod = &c->mod;
  j->out = &c->sass;
  j->cubin = c->cubin;
  j->cubin_len = c->cubin_len;
  j->ok = 0;
  j->done = 0;
  /* what the toolchain keeps in statics is filled here first, not by two threads at once */
  char toolkit[128];
  tc_build_toolkit_line(toolkit, sizeof toolkit);
  tc_sandbox_probe(NULL, 0);
  if (pthread_create(&j->thread, NULL, sass_main, j) == 0) {
    j->running = 1;
    return;
  }
  sass_main(j);
  c->have_sass = j->ok;
  c->ms.sass = c->have_sass ? &c->sass : NULL;
}

/* Wait for the SASS map sass_start began: c->have_sass, and the measurements' c->ms.sass. */
static void sass_join(struct ctx *c)
{
  struct sass_job *j = &c->sass_job;
  if (!j->running)
    return;
  pthread_join(j->thread, NULL);
  j->running = 0;
  c->have_sass = j->ok;
  c->ms.sass = c->have_sass ? &c->sass : NULL;  /* the counters as the GPU executes them */
}

/* ---- one launch: inputs, poison, run, compare ---- */

struct launch {
  struct run_sizes size, choices;
  uint64_t seed;
  const void *input[RUN_MAX_PARAMS]; /* what each buffer starts as: c->inputs' (made once for
                                       every launch of the same size and seed) ... */
  uint32_t input_owned;             /* ... unless bit i says it is this launch's own */
  void *host[RUN_MAX_PARAMS];      /* GPU: what the device held after the run, copied back */
  const void *dview[RUN_MAX_PARAMS]; /* emulator: each buffer's device bytes in place
                                       (be_view), read where they are; NULL on a GPU */
  void *expect[RUN_MAX_PARAMS];    /* the reference's outputs (NULL for an in buffer: the
                                       reference reads input[] itself) */
  uint32_t expect_nan;              /* bit i: expect[i] holds a NaN (expect_nans, once per
                                       run of the reference, not once per launch) */
  uint64_t count[RUN_MAX_PARAMS];
  int64_t scalar[RUN_MAX_PARAMS];
  uint64_t dev[RUN_MAX_PARAMS];     /* what the kernel is given */
  uint64_t base[RUN_MAX_PARAMS];    /* the allocation: guard, buffer, guard */
  uint64_t guard;                   /* bytes of each guard zone (GPU only, else 0) */
  uint8_t params[RUN_MAX_PARAMS * 8];
  uint32_t psize;
  struct be_launch bl;
  int checked;                      /* GPU: this very launch passed its check already (the
                                       main size's test): measure only times it */
  int inputs_trusted;               /* a check found the inputs as written: the launches that
                                       share these buffers skip reading them back */
  int ref_fixed;                    /* the reference's outputs were found not to depend on the
                                       choices (ref_choice_free): launches that share these
                                       buffers and scalars reuse expect[] as it is */
};

static void launch_free(struct ctx *c, struct launch *L)
{
  c->seq++;
  for (uint32_t i = 0; i < c->lab->nparams; i++) {
    size_t bytes = (size_t)L->count[i] * run_elem_size(c->lab->params[i].elem);
    if (L->input_owned >> i & 1)
      free((void *)L->input[i]);
    run_inputs_give_back(c->inputs, L->host[i], bytes);   /* for the next launch's */
    run_inputs_give_back(c->inputs, L->expect[i], bytes);
    if (L->base[i] && c->intact[i] == L->dev[i])
      c->intact[i] = 0;
    if (L->base[i])
      be_free(c->be, L->base[i]);
  }
  memset(L, 0, sizeof *L);
}

/* The launch shape of L's sizes and choices. Returns 0, or -1 with why. */
static int launch_shape(struct ctx *c, struct launch *L, char *why, size_t n)
{
  const struct run_lab *lab = c->lab;
  struct run_var vars[2 * RUN_MAX_VARS];
  size_t nv = make_vars(&L->size, &L->choices, vars);
  char e[256];
  int64_t v[3];
  char ch[160];
  sizes_text(&L->choices, ch, sizeof ch);
  for (int d = 0; d < 3; d++) {
    if (run_expr_eval(lab->grid[d], vars, nv, &v[d], e, sizeof e)) {
      snprintf(why, n, "no launch with %s: lab.json launch.grid: %s", ch, e);
      return -1;
    }
    L->bl.grid[d] = v[d] > 0 && v[d] <= 0x7fffffff ? (uint32_t)v[d] : 0;
    if (!L->bl.grid[d]) {
      snprintf(why, n, "impossible launch: grid dimension %d is %" PRId64, d, v[d]);
      return -1;
    }
    if (run_expr_eval(lab->block[d], vars, nv, &v[d], e, sizeof e)) {
      snprintf(why, n, "no launch with %s: lab.json launch.block: %s", ch, e);
      return -1;
    }
    L->bl.block[d] = v[d] > 0 && v[d] <= 1024 ? (uint32_t)v[d] : 0;
    if (!L->bl.block[d]) {
      snprintf(why, n, "impossible launch with %s: block dimension %d is %" PRId64, ch, d, v[d]);
      return -1;
    }
  }
  if ((uint64_t)L->bl.block[0] * L->bl.block[1] * L->bl.block[2] > 1024) {
    snprintf(why, n, "impossible launch: a block of %u x %u x %u threads is more than 1024",
             L->bl.block[0], L->bl.block[1], L->bl.block[2]);
    return -1;
  }
  int64_t sm = 0;
  if (run_expr_eval(lab->smem, vars, nv, &sm, e, sizeof e)) {
    snprintf(why, n, "lab.json launch.smem: %s", e);
    return -1;
  }
  L->bl.dyn_smem = sm > 0 ? (uint32_t)sm : 0;
  L->bl.sched = SIM_SCHED_ITS;
  L->bl.warp_size = c->have_prof && c->prof.warp_size == 64 ? 64 : 32;
  L->bl.max_warp_insts = emu_budget();
  L->bl.cooperative = c->lab->cooperative;
  L->bl.frames = c->frames;
  L->bl.nframes = c->nframes;
  memcpy(L->bl.cluster, c->lab->cluster, sizeof L->bl.cluster);
  return 0;
}

/* L's scalar arguments (L->scalar) from its sizes and choices. Returns 0, or -1 with why. */
static int launch_scalars(struct ctx *c, struct launch *L, char *why, size_t n)
{
  const struct run_lab *lab = c->lab;
  struct run_var vars[2 * RUN_MAX_VARS];
  size_t nv = make_vars(&L->size, &L->choices, vars);
  char e[256];
  for (uint32_t i = 0; i < lab->nparams; i++) {
    const struct run_param *p = &lab->params[i];
    if (p->role == RUN_ROLE_SCALAR && run_expr_eval(p->value, vars, nv, &L->scalar[i], e, sizeof e)) {
      snprintf(why, n, "lab.json params.%s: %s", p->name, e);
      return -1;
    }
  }
  return 0;
}

/* L's packed parameter buffer (L->params, L->psize): each scalar at its own alignment, each
   buffer's device address at 8, in the lab's order (sim_param_layout). */
static void launch_pack(struct ctx *c, struct launch *L)
{
  uint32_t off = 0;
  for (uint32_t i = 0; i < c->lab->nparams; i++) {
    const struct run_param *p = &c->lab->params[i];
    if (p->role != RUN_ROLE_SCALAR) {
      off = (off + 7) / 8 * 8;
      memcpy(L->params + off, &L->dev[i], 8);
      off += 8;
      continue;
    }
    unsigned sz = run_elem_size(p->elem);
    off = (off + sz - 1) / sz * sz;
    if (p->elem == RUN_F32) {                   /* the integer value, as the float it means */
      float v = (float)L->scalar[i];
      memcpy(L->params + off, &v, sz);
    } else if (p->elem == RUN_F64) {
      double v = (double)L->scalar[i];
      memcpy(L->params + off, &v, sz);
    } else {
      memcpy(L->params + off, &L->scalar[i], sz);
    }
    off += sz;
  }
  L->psize = off;
}

/* Sizes, buffers, inputs, scalar arguments and the launch shape. Returns 0, or -1 with why
   (the lab's or the student's launch shape is impossible). */
static int launch_prepare(struct ctx *c, struct launch *L, char *why, size_t n)
{
  const struct run_lab *lab = c->lab;
  c->seq++;
  if (launch_shape(c, L, why, n) || launch_scalars(c, L, why, n))
    return -1;
  struct run_var vars[2 * RUN_MAX_VARS];
  size_t nv = make_vars(&L->size, &L->choices, vars);
  char e[256];
  for (uint32_t i = 0; i < lab->nparams; i++) {
    const struct run_param *p = &lab->params[i];
    if (p->role == RUN_ROLE_SCALAR)
      continue;
    int64_t cnt;
    if (run_expr_eval(p->count, vars, nv, &cnt, e, sizeof e)) {
      snprintf(why, n, "lab.json buffers.%s.count: %s", p->name, e);
      return -1;
    }
    if (cnt < 1 || cnt > (1ll << 32)) {
      snprintf(why, n, "lab.json buffers.%s.count is %lld: it must be from 1 to 2^32 elements",
               p->name, (long long)cnt);
      return -1;
    }
    L->count[i] = (uint64_t)cnt;
    size_t bytes = (size_t)cnt * run_elem_size(p->elem);
    int owned = 0;
    if (!c->inputs)
      c->inputs = run_inputs_new();             /* freed at the end of run_here */
    L->input[i] = run_inputs_get(c->inputs, p->init, p->elem, L->count[i],
                                 input_seed(L->seed, i), &owned);
    L->input_owned |= (uint32_t)owned << i;
    if (c->kind == BE_GPU)                      /* the emulator's are read in place */
      L->host[i] = run_inputs_scratch(c->inputs, bytes);
    if (p->role != RUN_ROLE_IN)
      L->expect[i] = run_inputs_scratch(c->inputs, bytes);
    if (!L->input[i] || (!L->host[i] && c->kind == BE_GPU) ||
        (!L->expect[i] && p->role != RUN_ROLE_IN)) {
      snprintf(why, n, "out of host memory for %s (%zu bytes)", p->name, bytes);
      return -1;
    }
    char name[64];
    snprintf(name, sizeof name, "%s (parameter %u)", p->name, i);
    /* on the GPU, guard zones around each buffer catch writes past it, which nothing there
       stops; the emulator stops them itself, with the line */
    L->guard = c->kind == BE_GPU ? GUARD_BYTES : 0;
    if (be_alloc(c->be, bytes + 2 * L->guard, name, &L->base[i]) != BE_OK) {
      L->base[i] = 0;
      snprintf(why, n, "out of device memory for %s (%zu bytes)", p->name, bytes);
      return -1;
    }
    L->dev[i] = L->base[i] + L->guard;
    if (c->kind == BE_EMU && be_view(c->be, L->dev[i], bytes, &L->dview[i]) != BE_OK) {
      snprintf(why, n, "the emulator's memory of %s cannot be read in place", p->name);
      return -1;
    }
  }
  launch_pack(c, L);
  return 0;
}

/* What of launch L serves launch P too, which differs from it in its choices: its buffers
   (the same counts, so the same inputs), and its scalar arguments with them when the lab's
   scalar values do not depend on the choices that changed either. */
enum share { SHARE_NONE, SHARE_BUFFERS, SHARE_ALL };
static enum share same_buffers(struct ctx *c, const struct launch *L, const struct launch *P)
{
  const struct run_lab *lab = c->lab;
  struct run_var vars[2 * RUN_MAX_VARS];
  size_t nv = make_vars(&P->size, &P->choices, vars);
  char e[256];
  enum share sh = SHARE_ALL;
  for (uint32_t i = 0; i < lab->nparams; i++) {
    const struct run_param *p = &lab->params[i];
    int64_t v;
    if (run_expr_eval(p->role == RUN_ROLE_SCALAR ? p->value : p->count, vars, nv, &v, e, sizeof e))
      return SHARE_NONE;
    if (p->role != RUN_ROLE_SCALAR && (uint64_t)v != L->count[i])
      return SHARE_NONE;
    if (p->role == RUN_ROLE_SCALAR && v != L->scalar[i])
      sh = SHARE_BUFFERS;
  }
  return sh;
}

/* P, a copy of L that shares its buffers but not its scalar arguments (SHARE_BUFFERS): its
   own scalars, and expected outputs of its own (the reference runs for it: its outputs may
   depend on the scalars), from the pool, given back by share_end. P->expect must be all NULL
   (not L's). Returns 0, or -1 with why. */
static int share_buffers(struct ctx *c, struct launch *P, char *why, size_t n)
{
  P->ref_fixed = 0;
  for (uint32_t i = 0; i < c->lab->nparams; i++) {
    const struct run_param *p = &c->lab->params[i];
    if (p->role == RUN_ROLE_SCALAR || p->role == RUN_ROLE_IN)
      continue;
    size_t bytes = (size_t)P->count[i] * run_elem_size(p->elem);
    P->expect[i] = run_inputs_scratch(c->inputs, bytes);
    if (!P->expect[i]) {
      snprintf(why, n, "out of host memory for %s (%zu bytes)", p->name, bytes);
      return -1;
    }
  }
  if (launch_shape(c, P, why, n) || launch_scalars(c, P, why, n))
    return -1;
  launch_pack(c, P);
  return 0;
}

/* Give back what share_buffers took for P (none of L's: P->expect is its own or NULL). */
static void share_end(struct ctx *c, struct launch *P)
{
  for (uint32_t i = 0; i < c->lab->nparams; i++)
    run_inputs_give_back(c->inputs, P->expect[i],
                         (size_t)P->count[i] * run_elem_size(c->lab->params[i].elem));
}

/* Put every buffer in its starting state for the one launch that follows: inputs written,
   outputs poisoned (all-ones bytes), so an element the kernel does not write cannot pass for a
   right answer. On the emulator the outputs are poisoned in device memory itself, and an input
   that the last launch left as it was made (c->intact: launch_check compares it after every
   launch) is not written again: a sweep point of lab 03 wrote 70 MB of unchanged inputs. */
static void launch_reset(struct ctx *c, struct launch *L)
{
  c->seq++;
  for (uint32_t i = 0; i < c->lab->nparams; i++) {
    const struct run_param *p = &c->lab->params[i];
    if (p->role == RUN_ROLE_SCALAR)
      continue;
    size_t bytes = (size_t)L->count[i] * run_elem_size(p->elem);
    if (L->dview[i]) {
      if (p->role == RUN_ROLE_OUT)
        be_fill(c->be, L->dev[i], RUN_POISON_BYTE, bytes);
      else if (p->role != RUN_ROLE_IN || c->intact[i] != L->dev[i])
        be_write(c->be, L->dev[i], L->input[i], bytes);
      c->intact[i] = 0;                         /* the launch may write it: launch_check
                                                   finds out */
      continue;
    }
    const void *from = L->input[i];             /* an input: written as it was made */
    if (p->role == RUN_ROLE_OUT) {
      run_poison(L->host[i], bytes);
      from = L->host[i];
    } else if (p->role != RUN_ROLE_IN) {        /* in and out: a copy the launch may change */
      memcpy(L->host[i], L->input[i], bytes);
      from = L->host[i];
    }
    be_write(c->be, L->dev[i], from, bytes);
    if (L->guard) {
      static uint8_t canary[GUARD_BYTES];
      for (uint64_t k = 0; k < GUARD_BYTES; k++)
        canary[k] = guard_byte(i, k);
      be_write(c->be, L->base[i], canary, L->guard);
      be_write(c->be, L->dev[i] + bytes, canary, L->guard);
    }
  }
}

/* Whether the guard zones of every buffer are intact; else why, in words. */
static int guards_intact(struct ctx *c, struct launch *L, char *why, size_t n)
{
  static uint8_t zone[GUARD_BYTES];
  for (uint32_t i = 0; L->guard && i < c->lab->nparams; i++) {
    const struct run_param *p = &c->lab->params[i];
    if (p->role == RUN_ROLE_SCALAR)
      continue;
    uint64_t bytes = L->count[i] * run_elem_size(p->elem);
    for (int side = 0; side < 2; side++) {
      if (be_read(c->be, side ? L->dev[i] + bytes : L->base[i], zone, L->guard) != BE_OK)
        continue;
      for (uint64_t k = 0; k < L->guard; k++)
        if (zone[k] != guard_byte(i, k)) {
          uint64_t by = side ? k + 1 : L->guard - k;
          snprintf(why, n, "the kernel wrote %s %s: the guard zone there changed, %" PRIu64
                   " byte%s %s. Nothing on a GPU stops such a write; rerun on the emulator "
                   "(--backend emu) to see the thread and the line", side ? "past the end of" :
                   "before the start of", p->name, by, by == 1 ? "" : "s",
                   side ? "past its end" : "before its start");
          return 0;
        }
    }
  }
  return 1;
}

/* The buffers the reference is given for L (lab_ref.h): an in buffer is L's input itself, read
   in place (a sweep's input is hundreds of megabytes in lab 04, copied for nothing before);
   an out or inout buffer is expect[], starting as the input. */
static void reference_view(struct ctx *c, struct launch *L, void *view[RUN_MAX_PARAMS])
{
  for (uint32_t i = 0; i < c->lab->nparams; i++) {
    view[i] = NULL;
    if (c->lab->params[i].role == RUN_ROLE_IN) {
      view[i] = (void *)L->input[i];
    } else if (L->expect[i]) {
      memcpy(L->expect[i], L->input[i], (size_t)L->count[i] * run_elem_size(c->lab->params[i].elem));
      view[i] = L->expect[i];
    }
  }
}

static int run_reference(struct ctx *c, struct launch *L, char *why, size_t n)
{
  struct lab_ref r;
  memset(&r, 0, sizeof r);
  const char *names[2 * RUN_MAX_VARS];
  int64_t vals[2 * RUN_MAX_VARS];
  struct run_var vars[2 * RUN_MAX_VARS];
  size_t nv = make_vars(&L->size, &L->choices, vars);
  for (size_t i = 0; i < nv; i++) {
    names[i] = vars[i].name;
    vals[i] = vars[i].value;
  }
  void *view[RUN_MAX_PARAMS];
  reference_view(c, L, view);
  r.nparams = c->lab->nparams;
  r.buf = view;
  r.count = L->count;
  r.scalar = L->scalar;
  r.nvars = (uint32_t)nv;
  r.var_name = names;
  r.var = vals;
  if (c->ref(&r) != 0) {
    snprintf(why, n, "the lab's reference failed: %s", r.error[0] ? r.error : "(no message)");
    return -1;
  }
  return 0;
}

/* Whether the reference gives L's outputs without the choices (the sizes alone): then every
   launch that shares L's buffers and scalars, and differs only in its choices (a sweep's
   block shapes), has the same expected outputs, and the reference need not run again for
   it (on a GPU's problem size it takes seconds a point). A reference that reads a choice gets
   none here and either fails or differs: it runs for every point as before. Sets
   L->ref_fixed; L->expect must hold L's expected outputs. */
static void ref_choice_free(struct ctx *c, struct launch *L)
{
  const struct run_lab *lab = c->lab;
  void *probe[RUN_MAX_PARAMS] = {0};
  int ok = 1;
  for (uint32_t i = 0; i < lab->nparams && ok; i++) {
    if (lab->params[i].role == RUN_ROLE_IN) {
      probe[i] = (void *)L->input[i];         /* read in place, as run_reference gives it */
      continue;
    }
    if (!L->expect[i])
      continue;
    size_t bytes = (size_t)L->count[i] * run_elem_size(lab->params[i].elem);
    probe[i] = run_inputs_scratch(c->inputs, bytes);   /* (given back for the sweep's) */
    ok = probe[i] != NULL;
    if (ok)
      memcpy(probe[i], L->input[i], bytes);
  }
  struct run_sizes none;
  memset(&none, 0, sizeof none);
  struct run_var vars[2 * RUN_MAX_VARS];
  const char *names[2 * RUN_MAX_VARS];
  int64_t vals[2 * RUN_MAX_VARS];
  size_t nv = make_vars(&L->size, &none, vars);
  for (size_t i = 0; i < nv; i++) {
    names[i] = vars[i].name;
    vals[i] = vars[i].value;
  }
  struct lab_ref r;
  memset(&r, 0, sizeof r);
  r.nparams = lab->nparams;
  r.buf = probe;
  r.count = L->count;
  r.scalar = L->scalar;
  r.nvars = (uint32_t)nv;
  r.var_name = names;
  r.var = vals;
  ok = ok && c->ref(&r) == 0;
  for (uint32_t i = 0; i < lab->nparams && ok; i++)
    if (probe[i] && lab->params[i].role != RUN_ROLE_IN)
      ok = !memcmp(probe[i], L->expect[i], (size_t)L->count[i] * run_elem_size(lab->params[i].elem));
  for (uint32_t i = 0; i < lab->nparams; i++)
    if (lab->params[i].role != RUN_ROLE_IN)
      run_inputs_give_back(c->inputs, probe[i],
                           (size_t)L->count[i] * run_elem_size(lab->params[i].elem));
  L->ref_fixed = ok;
}

static uint64_t ulp_distance(uint64_t a, uint64_t b, int bits64)
{
  if (bits64) {
    int64_t x = (int64_t)a, y = (int64_t)b;
    if (x < 0) x = INT64_MIN - x;
    if (y < 0) y = INT64_MIN - y;
    return x > y ? (uint64_t)(x - y) : (uint64_t)(y - x);
  }
  int32_t x = (int32_t)a, y = (int32_t)b;
  int64_t xx = x < 0 ? (int64_t)INT32_MIN - x : x, yy = y < 0 ? (int64_t)INT32_MIN - y : y;
  return (uint64_t)(xx > yy ? xx - yy : yy - xx);
}

static double as_double(enum run_elem e, uint64_t bits)
{
  switch (e) {
  case RUN_F32: { float f; uint32_t u = (uint32_t)bits; memcpy(&f, &u, 4); return f; }
  case RUN_F64: { double d; memcpy(&d, &bits, 8); return d; }
  case RUN_I32: return (int32_t)bits;
  case RUN_I64: return (double)(int64_t)bits;
  case RUN_U8: return (uint8_t)bits;
  case RUN_U32: return (uint32_t)bits;
  default: return (double)bits;
  }
}

/* The wrong elements of one output, for compare()'s detail: how many, how many were never
   written, the first few, and what they have in common. */
struct wrong_set {
  uint64_t count, unwritten;
  uint64_t first[4];           /* the first indices (count of them, at most 4) */
  uint64_t lo, hi;             /* the lowest and highest */
  uint64_t step;               /* gcd of their distances from lo (0: one element) */
};

static uint64_t gcd64(uint64_t a, uint64_t b)
{
  while (b) {
    uint64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

static void wrong_add(struct wrong_set *ws, uint64_t k, int unwritten)
{
  if (ws->count < 4)
    ws->first[ws->count] = k;
  if (!ws->count)
    ws->lo = k;
  ws->hi = k;
  ws->step = gcd64(ws->step, k - ws->lo);
  ws->count++;
  ws->unwritten += (uint64_t)unwritten;
}

/* "; 96 of 4096 elements are wrong (96 never written): [4000], [4001], [4002], ...: the
   last 96 elements, ..." after what compare() wrote. */
static void wrong_text(const struct wrong_set *ws, const char *name, uint64_t total, char *why,
                       size_t n)
{
  size_t k = strlen(why);
  if (k >= n)
    return;
  char first[160] = "";
  size_t f = 0;
  for (uint64_t i = 0; i < ws->count && i < 4 && f < sizeof first; i++) {
    int w = snprintf(first + f, sizeof first - f, "%s%s[%" PRIu64 "]", i ? ", " : "", name,
                     ws->first[i]);
    if (w < 0)
      break;
    f += (size_t)w;
  }
  char pattern[200];
  uint64_t span = ws->hi - ws->lo + 1;
  if (ws->count == total)
    snprintf(pattern, sizeof pattern, "every element");
  else if (ws->count == 1)
    snprintf(pattern, sizeof pattern, "only that one");
  else if (ws->step == 1 && ws->count == span && ws->hi == total - 1)
    snprintf(pattern, sizeof pattern, "the last %" PRIu64 " elements, from %s[%" PRIu64 "] to the "
             "end (the edge: a bound, or the last partial tile or block?)", ws->count, name, ws->lo);
  else if (ws->step == 1 && ws->count == span && ws->lo == 0)
    snprintf(pattern, sizeof pattern, "the first %" PRIu64 " elements", ws->count);
  else if (ws->step == 1 && ws->count == span)
    snprintf(pattern, sizeof pattern, "one run, %s[%" PRIu64 "] to %s[%" PRIu64 "]", name, ws->lo,
             name, ws->hi);
  else if (ws->step > 1 && ws->count == (ws->hi - ws->lo) / ws->step + 1)
    snprintf(pattern, sizeof pattern, "every %" PRIu64 "%s element from %s[%" PRIu64 "] to %s[%"
             PRIu64 "]", ws->step, ws->step % 10 == 2 && ws->step % 100 != 12 ? "nd"
             : ws->step % 10 == 3 && ws->step % 100 != 13 ? "rd" : "th", name, ws->lo, name, ws->hi);
  else if (ws->step > 1)
    snprintf(pattern, sizeof pattern, "all at indices %" PRIu64 " apart (some of them), from %s[%"
             PRIu64 "] to %s[%" PRIu64 "]", ws->step, name, ws->lo, name, ws->hi);
  else
    snprintf(pattern, sizeof pattern, "scattered from %s[%" PRIu64 "] to %s[%" PRIu64 "]", name,
             ws->lo, name, ws->hi);
  char unw[64] = "";
  if (ws->unwritten == ws->count)
    snprintf(unw, sizeof unw, ", none of them written");
  else if (ws->unwritten)
    snprintf(unw, sizeof unw, ", %" PRIu64 " of them never written", ws->unwritten);
  snprintf(why + k, n - k, ". %" PRIu64 " of %" PRIu64 " elements of %s are wrong%s: %s%s; %s",
           ws->count, total, name, unw, first, ws->count > 4 ? ", ..." : "", pattern);
}

/* Compare outputs with the reference; 0 when equal within tolerance, else -1 with the first
   wrong element in words. */
#define CMP_CHUNK 16384

/* Whether n floats of es bytes (4 or 8) hold a NaN: exponent all ones, fraction not zero.
   Vector code, by GCC's vectorizer (which -O2 leaves off for this loop in GCC 12): the scalar
   loop was 2.8% of a warm lab 03 run (perf), scanning 34 MB of expected output a point. */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("tree-vectorize")))
#endif
static int has_nan(const uint8_t *buf, uint64_t n, unsigned es)
{
  int any = 0;
  if (es == 4) {
    for (uint64_t k = 0; k < n; k++) {
      uint32_t b;
      memcpy(&b, buf + 4 * k, 4);
      any |= (b & 0x7fffffffu) > 0x7f800000u;
    }
  } else {
    for (uint64_t k = 0; k < n; k++) {
      uint64_t b;
      memcpy(&b, buf + 8 * k, 8);
      any |= (b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
    }
  }
  return any;
}

/* Which of L's expected outputs hold a NaN (bit i for expect[i]): compare() looks for them
   chunk by chunk only there. Scanned once per run of the reference (expect[] changes with
   it alone): lab 03 scanned its 34 MB of expected output at every launch, 2.4% of a run. */
static uint32_t expect_nans(struct ctx *c, const struct launch *L)
{
  uint32_t bits = 0;
  for (uint32_t i = 0; i < c->lab->nparams; i++) {
    const struct run_param *p = &c->lab->params[i];
    if ((p->elem == RUN_F32 || p->elem == RUN_F64) && L->expect[i] &&
        (p->role == RUN_ROLE_OUT || p->role == RUN_ROLE_INOUT) &&
        has_nan(L->expect[i], L->count[i], run_elem_size(p->elem)))
      bits |= 1u << i;
  }
  return bits;
}

static int compare(struct ctx *c, struct launch *L, int64_t *first_bad, char *why, size_t n)
{
  const struct run_lab *lab = c->lab;
  for (uint32_t i = 0; i < lab->nparams; i++) {
    const struct run_param *p = &lab->params[i];
    if (p->role != RUN_ROLE_OUT && p->role != RUN_ROLE_INOUT)
      continue;
    unsigned es = run_elem_size(p->elem);
    int fl = p->elem == RUN_F32 || p->elem == RUN_F64;
    int nan = fl && (L->expect_nan >> i & 1);   /* else no chunk of expect[i] holds one */
    uint64_t poison = es == 8 ? UINT64_MAX : es == 4 ? 0xffffffffu : es == 1 ? 0xff : 0;
    const uint8_t *got_b = L->dview[i] ? L->dview[i] : L->host[i];  /* what the kernel left */
    struct wrong_set ws = {0};
    for (uint64_t k = 0; k < L->count[i]; k++) {
      if (k % CMP_CHUNK == 0) {
        /* a chunk equal bit for bit, with no NaN, is right whatever the tolerance: skipped
           at memcmp's speed (a GPU's problem size is a quarter of a billion elements) */
        uint64_t m = L->count[i] - k < CMP_CHUNK ? L->count[i] - k : CMP_CHUNK;
        const uint8_t *g = got_b + k * es, *w = (const uint8_t *)L->expect[i] + k * es;
        if (!memcmp(g, w, m * es) && !(nan && has_nan(w, m, es))) {
          k += m - 1;
          continue;
        }
      }
      uint64_t got = 0, want = 0;
      memcpy(&got, got_b + k * es, es);
      memcpy(&want, (uint8_t *)L->expect[i] + k * es, es);
      if (got == want && !(fl && isnan(as_double(p->elem, got))))
        continue;
      double g = as_double(p->elem, got), w = as_double(p->elem, want);
      int ok = 0;
      if (fl && !isnan(g) && !isnan(w)) {
        if (lab->has_abs && fabs(g - w) <= lab->tol_abs)
          ok = 1;
        if (lab->has_rel && fabs(g - w) <= lab->tol_rel * fabs(w))
          ok = 1;
        if (lab->has_ulp && ulp_distance(got, want, es == 8) <= lab->tol_ulp)
          ok = 1;
      }
      if (ok)
        continue;
      int unwritten = got == poison && p->role == RUN_ROLE_OUT;
      if (!ws.count) {
        *first_bad = (int64_t)k;
        int prec = fl ? 9 : 20;                 /* integers in full: 3093816930, not 3.09e+09 */
        snprintf(why, n, "%s[%" PRIu64 "] is wrong: expected %.*g, got %.*g%s", p->name, k, prec,
                 w, prec, g,
                 unwritten ? " (the poison value: the kernel never wrote this element)" : "");
      }
      wrong_add(&ws, k, unwritten);
    }
    if (ws.count) {
      wrong_text(&ws, p->name, L->count[i], why, n);
      return -1;
    }
  }
  return 0;
}

/* The launch of L as a `warplab emu PTX --backend gpu` command line (ms_command: the same
   PTX, shape, buffer sizes and inputs as the checked launch: random inputs by the same seed,
   others through a file beside the run), for tools that wrap a launch: Nsight Compute, and
   compute-sanitizer. argv[first..] is filled and NULL-terminated. Returns 0, or -1 when
   warplab's own path cannot be found or an input file cannot be written. */
struct emu_cmd {
  char self[1024];
  struct ms_command cmd;
};

static int emu_command(struct ctx *c, const struct launch *L, struct emu_cmd *e, int first)
{
  e->cmd.argv[first] = NULL;
  if (tc_self_path(e->self, sizeof e->self))
    return -1;
  struct ms_arg args[RUN_MAX_PARAMS];
  uint32_t n = c->lab->nparams < RUN_MAX_PARAMS ? c->lab->nparams : RUN_MAX_PARAMS;
  for (uint32_t i = 0; i < n; i++) {
    const struct run_param *p = &c->lab->params[i];
    struct ms_arg *a = &args[i];
    memset(a, 0, sizeof *a);
    a->type = run_elem_name(p->elem);
    a->count = L->count[i];
    if (p->role == RUN_ROLE_SCALAR) {
      a->init = MS_ARG_SCALAR;
      a->scalar = L->scalar[i];
    } else if (p->role == RUN_ROLE_OUT || !strcmp(p->init, "zero") || !p->init[0]) {
      a->init = MS_ARG_ZERO;     /* an output: the launch overwrites it; zero as launch_prepare
                                    makes unset inputs */
    } else if (!strcmp(p->init, "rand")) {
      a->init = MS_ARG_RAND;     /* the checked launch's inputs exactly: launch_prepare's seed rule */
      a->seed = input_seed(L->seed, i);
    } else if (!strcmp(p->init, "iota")) {
      a->init = MS_ARG_IOTA;
    } else {                     /* chain=, fill=: the inputs as they were made */
      a->init = MS_ARG_DATA;
      a->data = L->input[i];
      a->bytes = (size_t)L->count[i] * run_elem_size(p->elem);
    }
  }
  return ms_command(&e->cmd, first, e->self, c->res->prov.ptx_file, c->lab->kernel, &L->bl, args,
                    n, c->res->prov.ptx_file[0] ? c->res->results_dir : ".");
}

/* A kernel that faulted on the GPU (an illegal or misaligned address, a launch failure), or
   wrote into a guard zone: the launch again under compute-sanitizer's memcheck, when it is
   installed, for what and where, in the emulator's words (the wrapped launch has buffers of
   their exact sizes, so a write past one is outside every allocation). A kernel that hung is
   not run again. */
static void gpu_fault_where(struct ctx *c, struct launch *L, struct run_check *chk)
{
  if (!strstr(chk->detail, "ILLEGAL_ADDRESS") && !strstr(chk->detail, "MISALIGNED") &&
      !strstr(chk->detail, "LAUNCH_FAILED") && !strstr(chk->detail, "guard zone"))
    return;
  if (c->sanitized)              /* once a run: the first (smallest) failing check says where */
    return;
  c->sanitized = 1;
  struct emu_cmd e;
  struct tc_sanitized r;
  char err[256];
  if (emu_command(c, L, &e, 0) || tc_sanitize("memcheck", e.cmd.argv, &r, err, sizeof err) ||
      !r.message[0])
    return;
  char first[sizeof chk->detail];
  snprintf(first, sizeof first, "%s", chk->detail);
  snprintf(chk->detail, sizeof chk->detail, "%.400s (compute-sanitizer memcheck on the GPU, %d "
           "error%s; the kernel failed with: %.160s)", r.message, r.errors,
           r.errors == 1 ? "" : "s", first);
  if (r.file[0]) {
    snprintf(chk->fault_file, sizeof chk->fault_file, "%s", r.file);
    chk->fault_line = (uint32_t)r.line;
  }
}

/* The kind of emulator fault f and, for an out-of-bounds global access, where it went (for
   a hint that fits the bug: a null or wild pointer, the element one past a buffer). */
static void fault_kind(const struct sim_fault *f, struct run_check *chk)
{
  snprintf(chk->fault_kind, sizeof chk->fault_kind, "%s", sim_fault_kind_name(f->kind));
  chk->fault_place[0] = 0;
  if (f->kind != SIM_FK_OUT_OF_BOUNDS && f->kind != SIM_FK_INVALID_SPACE)
    return;
  if (f->addr < 4096 && f->space != PTX_SP_SHARED && f->space != PTX_SP_LOCAL) {
    snprintf(chk->fault_place, sizeof chk->fault_place, "null");   /* a null pointer, or one
                                                                       a little past it */
    return;
  }
  if (f->kind != SIM_FK_OUT_OF_BOUNDS || (f->space != PTX_SP_GLOBAL && f->space != PTX_SP_NONE))
    return;
  const char *place = !f->has_alloc ? "wild"
                      : strstr(f->message, "a wild pointer") ? "wild"
                      : f->alloc_offset < 0 ? "before"
                      : (uint64_t)f->alloc_offset < f->alloc_size + f->size ? "one_past" : "past";
  snprintf(chk->fault_place, sizeof chk->fault_place, "%s", place);
}

/* L's outputs, as the device's buffers hold them, checked into chk against its expected
   outputs (the reference run for L, unless L keeps them: ref_fixed) and, on a GPU, its
   guard zones. 0, or -1 when the reference failed (c->err says why). */
static int check_outputs(struct ctx *c, struct launch *L, struct run_check *chk)
{
  char err[512];
  if (!L->ref_fixed) {
    if (run_reference(c, L, err, sizeof err)) {
      snprintf(c->err, c->errlen, "%s", err);
      return -1;
    }
    L->expect_nan = expect_nans(c, L);
  }
  chk->first_bad = -1;
  chk->state = compare(c, L, &chk->first_bad, chk->detail, sizeof chk->detail) ? RUN_CHECK_FAIL
                                                                                : RUN_CHECK_PASS;
  if (chk->state == RUN_CHECK_PASS && !guards_intact(c, L, chk->detail, sizeof chk->detail)) {
    chk->state = RUN_CHECK_FAIL;
    gpu_fault_where(c, L, chk);
  }
  return 0;
}

/* launch_check's verdict on launch L, launched with status st (err: the backend's words) into
   br: its fault, or its inputs and outputs checked into *chk. 0, or -1 as launch_check. */
static int launch_outputs(struct ctx *c, struct launch *L, struct run_check *chk,
                          enum be_status st, const char *err, const struct be_result *br)
{
  if (st != BE_OK) {
    chk->state = RUN_CHECK_FAULT;
    snprintf(chk->detail, sizeof chk->detail, "the launch failed: %s", err);
    return 0;
  }
  if (!br->ran_ok && br->timed_out) {
    chk->state = RUN_CHECK_TIMEOUT;            /* the GPU is the hung kernel's from now on */
    snprintf(chk->detail, sizeof chk->detail, "%s", br->gpu_error);
    chk->first_bad = -1;
    return 0;
  }
  if (!br->ran_ok) {
    chk->state = RUN_CHECK_FAULT;
    if (c->kind == BE_GPU) {
      snprintf(chk->detail, sizeof chk->detail, "%s", br->gpu_error);
      gpu_fault_where(c, L, chk);
    } else {
      snprintf(chk->detail, sizeof chk->detail, "%s", br->emu.fault.message);
      fault_kind(&br->emu.fault, chk);
      const struct ptx_inst *in = br->emu.fault.inst < c->mod.ninsts ? &c->mod.insts[br->emu.fault.inst] : NULL;
      const char *path = in && in->uline ? ptx_file_path(&c->mod, in->ufile) : NULL;
      if (path) {
        snprintf(chk->fault_file, sizeof chk->fault_file, "%s", path);
        chk->fault_line = in->uline;
      }
    }
    return 0;
  }
  int inputs_intact = 1;
  for (uint32_t i = 0; i < c->lab->nparams; i++) {
    const struct run_param *p = &c->lab->params[i];
    size_t bytes = L->count[i] * run_elem_size(p->elem);
    if (L->dview[i]) {
      /* the emulator: the outputs are compared in place, and every input that a store of
         the launch reached (be_written; a memcmp where a GPU reads a copy back) after every
         launch, so that writing into one is flagged at any sweep point, and one left as it
         was is not written again (launch_reset). An input no store reached is as the host
         wrote it: lab 03's 70 MB of inputs were compared for nothing at every point */
      if (p->role != RUN_ROLE_IN)
        continue;
      if (!be_written(c->be, L->dev[i]) || !memcmp(L->dview[i], L->input[i], bytes)) {
        c->intact[i] = L->dev[i];
      } else {
        char what[128];
        snprintf(what, sizeof what, "the kernel wrote into its input %s", p->name);
        flag(c->res, what);
      }
      continue;
    }
    if (L->dev[i] && p->role != RUN_ROLE_IN)
      be_read(c->be, L->dev[i], L->host[i], bytes);
    else if (L->dev[i] && p->role == RUN_ROLE_IN && !L->inputs_trusted) {
      /* an input is the kernel's to read, not to change: writing into one is flagged (once
         per set of buffers: a sweep point of the same buffers reads them back no more, a
         gigabyte a point on a GPU's problem size) */
      be_read(c->be, L->dev[i], L->host[i], bytes);
      if (memcmp(L->host[i], L->input[i], bytes)) {
        char what[128];
        snprintf(what, sizeof what, "the kernel wrote into its input %s", p->name);
        flag(c->res, what);
        inputs_intact = 0;
      }
    }
  }
  L->inputs_trusted = inputs_intact;
  return check_outputs(c, L, chk);
}

/* A timing note's room: the run's (provenance), a point's (struct measured) and a
   measurement's (ms_result) alike. */
#define RUN_NOTE_LEN sizeof ((struct run_provenance *)0)->timing_note
_Static_assert(RUN_NOTE_LEN == sizeof ((struct ms_result *)0)->timing_note,
               "a measurement's timing note fits the run's");

/* A launch the emulator measured, as measure_once compares the next ones with. */
struct measured {
  uint32_t point;                   /* its point in res->points */
  struct run_sizes size, choices;
  uint64_t seed;
  struct be_launch bl;              /* the lane log's fields cleared */
  uint8_t params[RUN_MAX_PARAMS * 8];
  uint32_t psize;
  uint64_t state;                   /* be_state_digest before it ran */
  char timing_note[RUN_NOTE_LEN];   /* what it set, or "" */
};

/* A point whose figures are still being made after its launch and check (the emulator's),
   finished later by pending_end, in the order the points were measured (their values, the
   kept launch, the timing note):
   - PEND_SASS: the main configuration's, recorded in its test while the SASS map it counts
     with is being made; ms_finish once the map is in, so that the first sweep point's
     launch runs beside nvdisasm rather than after it;
   - PEND_FINISH and PEND_REMODEL: on a thread of their own, ms_finish (the counters and the
     timing model, SM 0's blocks replayed cycle by cycle) or ms_remodel_end (the model at a
     remodelled point's occupancy). Each is one core's work that left the other cores idle
     (the check, then the next point's launch, run beside it now): 10 to 20 ms a point of
     lab 07, 75 ms for lab 03's main configuration. */
enum pend_how { PEND_SASS, PEND_FINISH, PEND_REMODEL };
struct pending {
  struct pending *next;
  enum pend_how how;
  uint32_t point;                   /* its point in res->points */
  struct ms_result mr;
  struct run_check chk;
  struct be_launch bl;
  struct measured m;
  int have_m;
  int remodelled;                   /* its figures are the kept launch's, remodelled */
  uint64_t seq;                     /* c->seq after its launch */
  int on_main;                      /* the run's on_main is called once it is finished */
  const struct ms_setup *ms;        /* PEND_FINISH, PEND_REMODEL: the thread's ... */
  struct be *be;
  struct ms_remodel rm;
  pthread_t thread;
  int threaded;                     /* ... started (else its figures were made at once) */
  int ready;                        /* atomic: the thread has made them */
};

static void *pending_main(void *arg)
{
  struct pending *p = arg;
  if (p->how == PEND_REMODEL)
    ms_remodel_end(p->ms, &p->rm, &p->mr);
  else
    ms_finish(p->ms, p->be, &p->bl, &p->mr);
  __atomic_store_n(&p->ready, 1, __ATOMIC_RELEASE);
  return NULL;
}

/* Make p's figures (how: PEND_FINISH of p->mr recorded as p->bl, or PEND_REMODEL of p->rm)
   on a thread of their own; where none starts, here and now. */
static void pending_start(struct ctx *c, struct pending *p, enum pend_how how)
{
  p->how = how;
  p->ms = &c->ms;
  p->be = c->be;
  p->threaded = pthread_create(&p->thread, NULL, pending_main, p) == 0;
  if (!p->threaded)
    pending_main(p);
}

/* Launch L (measured when how is MS_MEASURE) into *mr and check its outputs into *chk.
   Given p (the emulator's, mr its p->mr), a measured launch is recorded and its figures are
   made on p's thread (pending_start) beside the check, and after it: p->threaded says so.
   Returns 0, or -1 with c->err when the lab's reference failed. */
static int launch_check(struct ctx *c, struct launch *L, struct run_check *chk, enum ms_what how,
                        struct ms_result *mr, struct pending *p)
{
  char err[512];
  const struct be_result *br = &mr->br;
  err[0] = 0;
  launch_reset(c, L);
  c->res->prov.launches++;
  struct be_launch bl = L->bl;
  bl.hold = launch_hold(c);
  int later = p && how == MS_MEASURE;
  enum be_status st = ms_launch(&c->ms, c->be, c->lab->kernel, L->params, L->psize, &bl,
                                later ? MS_RECORD : how, mr, err, sizeof err);
  c->launch_ok = st == BE_OK;
  if (later && st == BE_OK) {
    p->bl = L->bl;
    if (br->ran_ok)
      pending_start(c, p, PEND_FINISH);
    else
      ms_finish(&c->ms, c->be, &L->bl, mr);     /* a fault's figures: no check to wait for */
  } else if (later) {
    ms_occupancy(&c->ms, &L->bl, mr);           /* as MS_MEASURE gives a refused launch */
  }
  return launch_outputs(c, L, chk, st, err, br);
}

/* ---- measurement ---- */

/* The figures of a measurement as the point's metrics: by name, the edge of result.json. */
static void point_values(struct run_point *pt, const struct ms_result *mr)
{
  for (uint32_t i = 0; i < mr->nvalues && pt->nmetrics < RUN_MAX_POINT_METRICS; i++) {
    const struct ms_value *v = &mr->values[i];
    struct run_metric *m = &pt->metric[pt->nmetrics++];
    snprintf(m->name, sizeof m->name, "%s", met_name(v->id));
    m->value = v->value;
    m->defined = v->defined;
    snprintf(m->kind, sizeof m->kind, "%s", met_kind_name(v->kind));
  }
}

/* GPU metrics: the launch of L again, under Nsight Compute, through `warplab emu --backend gpu`
   on the same PTX, shape, buffer sizes and inputs (emu_command). Metrics ncu cannot give are
   left out; when ncu is missing or the counters are not permitted, the point says so and
   keeps its timings. */
static void ncu_metrics(struct ctx *c, struct launch *L, struct ms_result *mr)
{
  char ncu[1024];
  if (!strncmp(c->res->prov.ncu_note, RUN_NCU_STOPPED, strlen(RUN_NCU_STOPPED)))
    return;                        /* stopped by its limits once: not again for each point */
  if (tc_find_tool("ncu", ncu, sizeof ncu)) {
    snprintf(c->res->prov.ncu_note, sizeof c->res->prov.ncu_note,
             "ncu not found: GPU metrics other than time are not available");
    return;
  }
  char metrics[2048];
  if (!ms_ncu_list(&c->ms, metrics, sizeof metrics))
    return;
  /* argv for: ncu --csv --metrics LIST SELF emu PTX ... --backend gpu [--arg SPEC]... */
  struct emu_cmd e;
  e.cmd.argv[0] = ncu;
  e.cmd.argv[1] = "--csv";
  e.cmd.argv[2] = "--metrics";
  e.cmd.argv[3] = metrics;
  if (emu_command(c, L, &e, 4))
    return;
  size_t outlen = 1 << 20;
  char *out = malloc(outlen);
  if (!out)
    return;
  char stopped[256];
  tc_exec_tool(e.cmd.argv, "ncu", out, outlen, stopped, sizeof stopped);
  if (stopped[0]) {                /* the grader's limit, not the kernel's result */
    snprintf(c->res->prov.ncu_note, sizeof c->res->prov.ncu_note, RUN_NCU_STOPPED "%.150s",
             stopped);
    free(out);
    return;
  }
  if (ms_ncu_parse(&c->ms, out, mr))
    snprintf(c->res->prov.ncu_note, sizeof c->res->prov.ncu_note,
             "ncu: the GPU's performance counters are not permitted for this user "
             "(ERR_NVGPUCTRPERM): timings only");
  free(out);
  if (!c->res->prov.ncu_note[0])
    snprintf(c->res->prov.ncu_note, sizeof c->res->prov.ncu_note, "%s",
             c->opts->profile_all || c->opts->quick || !c->lab->nsweeps
                 ? "GPU metrics from Nsight Compute (one profiled launch per configuration)"
                 : "GPU metrics from Nsight Compute for the main configuration; the sweeps are "
                   "timed only (--profile-all profiles every configuration)");
}

/* The first lane chart of lab.json that shows point pt, or NULL. */
static const struct run_lane_chart *lane_chart_of(const struct ctx *c, const struct run_point *pt)
{
  for (uint32_t i = 0; i < c->lab->nlane_charts; i++) {
    const struct run_lane_chart *x = &c->lab->lane_charts[i];
    if (!strcmp(x->sweep, pt->sweep) && (!pt->sweep[0] || !strcmp(x->point, pt->label)))
      return x;
  }
  return NULL;
}

/* The lane log of point pt, for each lane chart that shows it: NAME.lanes.json in the results
   folder (plots/plot_lanes.c draws it). */
static void write_lane_logs(struct ctx *c, const struct run_point *pt, const struct sim_lanes *lz)
{
  for (uint32_t i = 0; i < c->lab->nlane_charts; i++) {
    const struct run_lane_chart *x = &c->lab->lane_charts[i];
    if (strcmp(x->sweep, pt->sweep) || (pt->sweep[0] && strcmp(x->point, pt->label)))
      continue;
    char path[1200], err[256];
    snprintf(path, sizeof path, "%s/%s.lanes.json", c->res->results_dir, x->name);
    run_lanes_write(path, lz, &c->mod, c->ptx, c->ptx_len, c->lab->kernel, err, sizeof err);
  }
}

/* "the main configuration", or "the sweep block size point 32x8", for messages. */
static void point_name(const struct run_point *pt, char *buf, size_t n)
{
  if (!pt->sweep[0])
    snprintf(buf, n, "the main configuration");
  else
    snprintf(buf, n, "the sweep %.63s point %.63s", pt->sweep, pt->label);
}


static int same_sizes(const struct run_sizes *a, const struct run_sizes *b)
{
  if (a->n != b->n)
    return 0;
  for (uint32_t i = 0; i < a->n; i++)
    if (a->v[i] != b->v[i] || strcmp(a->name[i], b->name[i]))
      return 0;
  return 1;
}

/* The last launch the emulator measured, whole: its result (the counters and the blocks it
   recorded for the timing model) and what it was. A sweep point that differs from it only in
   its dynamic shared memory, which the kernel cannot see (ptx_sees_smem_size), would run
   exactly as it did: lab 03's warps sweeps set the occupancy so, five points a launch of
   8.6 million threads each. Its outputs are still in the device's buffers while nothing
   has changed them (c->seq). */
struct kept_launch {
  struct measured m;
  struct ms_result mr;
  uint64_t seq;                     /* c->seq after it ran */
  char point[160];                  /* its point, in words (point_name) */
  struct run_check chk;             /* its outputs' check */
};

static void kept_free(struct ctx *c)
{
  if (!c->kept)
    return;
  ms_result_free(&c->kept->mr);
  free(c->kept);
  c->kept = NULL;
}

/* Keep mr, the measurement of launch m, as c->kept when a later point may be remodelled on
   it (seq: c->seq right after it ran); else free it. mr is empty after. */
static void measure_keep(struct ctx *c, const struct run_point *pt, const struct measured *m,
                         const struct run_check *chk, uint64_t seq, struct ms_result *mr)
{
  kept_free(c);
  if (c->kind != BE_EMU || !c->smem_blind || !mr->br.ran_ok || !mr->have_rep ||
      !mr->br.emu.trace.nblk || !(c->kept = malloc(sizeof *c->kept))) {
    ms_result_free(mr);
    return;
  }
  c->kept->m = *m;
  c->kept->mr = *mr;
  point_name(pt, c->kept->point, sizeof c->kept->point);
  c->kept->seq = seq;
  c->kept->chk = *chk;
  ms_result_init(mr);
}

/* Whether c->kept's launch serves launch m: the same kernel, sizes, seed, arguments and
   device state before it (be_state_digest: m's is now, after c->kept ran), the same shape
   but for the dynamic shared memory, and nothing done to the buffers since it ran, which
   still hold its outputs. The choices may differ (the point's reference is its own). */
static int same_but_smem(const struct measured *k, const struct measured *m)
{
  if (k->state != m->state || k->seed != m->seed || k->psize != m->psize ||
      !same_sizes(&k->size, &m->size) || memcmp(k->params, m->params, m->psize))
    return 0;
  struct be_launch a = k->bl, b = m->bl;
  a.dyn_smem = b.dyn_smem = 0;
  return !memcmp(&a, &b, sizeof a);
}

static int kept_serves(const struct ctx *c, const struct measured *m)
{
  return c->kept && c->kept->seq == c->seq && same_but_smem(&c->kept->m, m);
}

/* L's check and measurement without its launch (kept_serves): the kept launch's outputs
   checked against L's reference, its counters, and L's occupancy and timing model
   (ms_remodel; given p, its p->mr being mr, the model on p's thread: pending_start).
   Returns 0; 1 when the reference failed (c->err, as launch_check's -1); -1 when the kept
   launch cannot give L's model (mr is empty: launch L). */
static int remodel_check(struct ctx *c, struct launch *L, struct run_check *chk,
                         struct ms_result *mr, struct pending *p)
{
  if (!p ? ms_remodel(&c->ms, &L->bl, &c->kept->mr, mr)
         : ms_remodel_begin(&c->ms, &L->bl, &c->kept->mr, mr, &p->rm)) {
    ms_result_free(mr);
    ms_result_init(mr);
    return -1;
  }
  if (p)
    pending_start(c, p, PEND_REMODEL);
  if (c->ref_choice_free) {
    /* the same sizes, inputs and scalars, and a reference that reads no choice: the same
       expected outputs, so the kept launch's check is this one's (lab 03's warps sweeps
       ran a 35 MB reference, its NaN scan and the compare for nothing) */
    *chk = c->kept->chk;
    return 0;
  }
  return check_outputs(c, L, chk) ? 1 : 0;
}

/* Whether the SASS map is still being made (its thread started, not joined). */
static int sass_pending(const struct ctx *c)
{
  return c->sass_job.running;
}

/* Point pt's figures from its measurement mr (the figures made) and check chk: the point's
   values, the main configuration's hotspots and occupancy breakdown, the timing note, and
   on a GPU its timing and Nsight Compute (L: its launch; only there). mr is kept as c->kept
   (m: the launch, seq: c->seq after it; remodelled: it was not launched) or freed. */
static void measure_end(struct ctx *c, struct launch *L, struct run_point *pt,
                        const struct measured *m, const struct run_check *chk, uint64_t seq,
                        int remodelled, struct ms_result *mr)
{
  if (c->kind == BE_EMU && mr->br.ran_ok && mr->have_rep && !pt->sweep[0]) {
    struct met_hotspot h[4];                    /* the main configuration: where to look */
    int n = met_hotspots(&mr->rep, h, 4);
    c->res->nhot = 0;
    for (int i = 0; i < n; i++) {
      struct run_hotspot *x = &c->res->hot[c->res->nhot++];
      snprintf(x->file, sizeof x->file, "%s", h[i].path);
      x->line = h[i].line;
      snprintf(x->text, sizeof x->text, "%s", h[i].text);
      snprintf(x->kind, sizeof x->kind, "%s", met_hot_kind_name(h[i].kind));
      x->weight = h[i].weight;
    }
  }
  if (!pt->sweep[0] && mr->have_occ) {         /* the main configuration's breakdown */
    c->res->occ.have = 1;
    c->res->occ.in = mr->occ_in;
    c->res->occ.out = mr->occ;
  }
  if (mr->timing_note[0])
    snprintf(c->res->prov.timing_note, sizeof c->res->prov.timing_note, "%s", mr->timing_note);
  if (c->kind == BE_GPU && pt->correct) {
    char err[512];
    launch_reset(c, L);
    enum be_status ts = ms_time(&c->ms, c->be, c->lab->kernel, L->params, L->psize, &L->bl, mr,
                                err, sizeof err);
    if (ts == BE_ERR_TIMEOUT) {                 /* it finished once, then hung while timed */
      char name[160];
      point_name(pt, name, sizeof name);
      snprintf(pt->problem, sizeof pt->problem, "timing it: %s", err);
      snprintf(c->hung, sizeof c->hung, "the timing of %s", name);
    }
    if (ts == BE_OK && mr->sm_clock_mhz)
      c->res->prov.sm_clock_mhz = mr->sm_clock_mhz;
    /* Nsight Compute replays the launch once per metric pass, seconds a configuration: the
       main configuration only (the one the rubric's targets judge), unless asked */
    if (!c->opts->no_ncu && !c->hung[0] && (!pt->sweep[0] || c->opts->profile_all)) {
      double t0 = now_s();
      ncu_metrics(c, L, mr);
      c->res->phase_s[RUN_PHASE_PROFILE] += now_s() - t0;
    }
  }
  ms_derive(&c->ms, mr);
  if (mr->time_ms >= 0) {
    pt->time_ms = mr->time_ms;
    pt->time_spread_pct = mr->time_spread_pct;
    pt->reps = mr->reps;
    snprintf(pt->time_kind, sizeof pt->time_kind, "%s", met_kind_name(mr->time_kind));
  }
  point_values(pt, mr);
  if (!remodelled && m)
    measure_keep(c, pt, m, chk, seq, mr);       /* mr is c->kept's now, or freed */
  else
    ms_result_free(mr);
}

/* Finish the oldest pending point (struct pending): wait for its figures (the SASS map
   and ms_finish, or its thread), then measure_end, the note measure_once keeps for copies of
   it, and the run's on_main when it is the main configuration. */
static void pending_end_one(struct ctx *c)
{
  struct pending *p = c->pend;
  c->pend = p->next;
  if (!c->pend)
    c->pend_last = NULL;
  c->npend--;
  if (p->how == PEND_SASS) {
    sass_join(c);
    ms_finish(&c->ms, c->be, &p->bl, &p->mr);
  } else if (p->threaded) {
    pthread_join(p->thread, NULL);
  }
  struct run_point *pt = &c->res->points[p->point];
  for (uint32_t i = 0; i < c->ndone; i++)      /* its own note, for copies of it */
    if (c->done[i].point == p->point)
      memcpy(c->done[i].timing_note, p->mr.timing_note, sizeof c->done[i].timing_note);
  measure_end(c, NULL, pt, p->have_m ? &p->m : NULL, &p->chk, p->seq, p->remodelled, &p->mr);
  if (p->on_main) {                             /* the run so far: up to the main point */
    uint32_t n = c->res->npoints;
    c->res->npoints = p->point + 1;
    c->opts->on_main(c->res, c->opts->on_main_arg);
    c->res->npoints = n;
  }
  free(p);
}

/* The SASS map is in (sass_join): the main configuration's figures that waited for it are
   made on a thread now, beside the next points, unless the run's on_main waits for them
   (the feedback screen's first results: pending_end_one makes them at once). */
static void pending_sass_in(struct ctx *c)
{
  if (sim_host_cores() < 2)
    return;
  for (struct pending *p = c->pend; p; p = p->next)
    if (p->how == PEND_SASS && !p->on_main)
      pending_start(c, p, PEND_FINISH);
}

/* Finish every pending point, and join the SASS map's thread. */
static void sass_wait(struct ctx *c)
{
  while (c->pend)
    pending_end_one(c);
  sass_join(c);
}

/* Finish the pending points whose figures are made, oldest first, up to the first that is
   not (the main configuration's, which the feedback screen shows first, is waited for);
   and while more are pending than the host has cores, the oldest. */
static void pending_reap(struct ctx *c)
{
  if (c->pend && c->pend->how == PEND_SASS && !c->pend->on_main &&
      __atomic_load_n(&c->sass_job.done, __ATOMIC_ACQUIRE)) {
    sass_join(c);
    pending_sass_in(c);
  }
  while (c->pend && (c->pend->on_main || c->npend > sim_host_cores() ||
                     (c->pend->how == PEND_SASS
                          ? __atomic_load_n(&c->sass_job.done, __ATOMIC_ACQUIRE)
                          : !c->pend->threaded || __atomic_load_n(&c->pend->ready,
                                                                  __ATOMIC_ACQUIRE))))
    pending_end_one(c);
}

/* The pending entry of point i, or NULL. */
static struct pending *pending_of(const struct ctx *c, uint32_t i)
{
  for (struct pending *p = c->pend; p; p = p->next)
    if (p->point == i)
      return p;
  return NULL;
}

/* Drop every pending point unfinished (a run that ends early): its thread joined. */
static void pending_drop(struct ctx *c)
{
  while (c->pend) {
    struct pending *p = c->pend;
    c->pend = p->next;
    if (p->threaded)
      pthread_join(p->thread, NULL);
    ms_result_free(&p->mr);
    free(p);
  }
  c->pend_last = NULL;
  c->npend = 0;
}

/* Measure the configuration of L as point pt: launched, or remodelled on c->kept's launch
   when that serves it (kept_serves: m is L's launch, NULL when it cannot be compared). On the
   emulator, while the SASS map is being made, the main configuration waits for it
   (c->wait) and a launch is recorded first and measured after it (sass_wait). */
static void measure(struct ctx *c, struct launch *L, struct run_point *pt,
                    const struct measured *m, char note[RUN_NOTE_LEN])
{
  note[0] = 0;
  struct run_check chk;
  struct ms_result mr;
  memset(&chk, 0, sizeof chk);
  ms_result_init(&mr);
  memcpy(pt->grid, L->bl.grid, sizeof pt->grid);
  memcpy(pt->block, L->bl.block, sizeof pt->block);
  pt->smem = L->bl.dyn_smem;
  pt->time_ms = -1;
  snprintf(pt->time_kind, sizeof pt->time_kind, "none");
  if (c->hung[0]) {
    snprintf(pt->problem, sizeof pt->problem, "not run: the GPU hung on %s", c->hung);
    return;
  }
  /* a lane chart shows this point: the emulator keeps the log of its warp */
  const struct run_lane_chart *lane = c->kind == BE_EMU ? lane_chart_of(c, pt) : NULL;
  L->bl.lanes = lane != NULL;
  L->bl.lanes_block = lane ? lane->block : 0;
  L->bl.lanes_warp = lane ? lane->warp : 0;
  /* a point that a pending launch could serve waits for it (its figures made, then kept) */
  for (struct pending *q = c->pend; m && pt->sweep[0] && q; q = q->next)
    if (q->have_m && !q->remodelled && same_but_smem(&q->m, m)) {
      sass_wait(c);
      break;
    }
  /* the emulator's figures, with a core to spare, are made on a thread of their own, beside
     the check and the next points (struct pending); p->mr is the measurement then */
  struct pending *p = NULL;
  if (c->kind == BE_EMU && (p = calloc(1, sizeof *p)))
    ms_result_init(&p->mr);
  struct pending *beside = sim_host_cores() > 1 ? p : NULL;
  struct ms_result *mrp = p ? &p->mr : &mr;
  int lc = 0, remodelled = 0, later = 0;
  if (L->checked && c->main_mr) {
    chk.state = RUN_CHECK_PASS;                 /* the main size's test, this very launch */
    *mrp = *c->main_mr;
    free(c->main_mr);
    c->main_mr = NULL;
    if (p && sass_pending(c) && !pt->sweep[0]) {
      p->how = PEND_SASS;                       /* finished once the SASS map is in */
      p->bl = L->bl;
      later = 1;
    } else if (beside && !sass_pending(c) && !c->opts->on_main) {
      p->bl = L->bl;                            /* (the feedback screen's first results
                                                   wait for no later launch) */
      pending_start(c, p, PEND_FINISH);
      later = p->threaded;
    } else {
      sass_wait(c);
      ms_finish(&c->ms, c->be, &L->bl, mrp);
    }
  } else if (L->checked) {
    chk.state = RUN_CHECK_PASS;
    ms_occupancy(&c->ms, &L->bl, mrp);
  } else if (m && pt->sweep[0] && kept_serves(c, m) &&
             (lc = remodel_check(c, L, &chk, mrp, beside)) >= 0) {
    remodelled = 1;
    later = beside && p->threaded;
    snprintf(pt->remodelled_on, sizeof pt->remodelled_on, "%s", c->kept->point);
  } else if (sass_pending(c)) {
    /* the launch beside nvdisasm, its figures after (ms_finish: in MS_MEASURE's order) */
    lc = launch_check(c, L, &chk, MS_RECORD, mrp, NULL);
    if (lc == 0) {
      int launched = c->launch_ok;
      sass_join(c);
      pending_sass_in(c);
      if (launched && beside && mrp->br.ran_ok) {
        p->bl = L->bl;
        pending_start(c, p, PEND_FINISH);
        later = p->threaded;
      } else if (launched) {
        ms_finish(&c->ms, c->be, &L->bl, mrp);
      } else {
        ms_occupancy(&c->ms, &L->bl, mrp);      /* as MS_MEASURE gives a refused launch */
      }
    }
  } else {
    lc = launch_check(c, L, &chk, MS_MEASURE, mrp, beside);
    later = beside && p->threaded;
  }
  L->bl.lanes = 0;
  if (lane && lc == 0)
    write_lane_logs(c, pt, &mrp->br.emu.lanes);
  if (lc != 0) {
    pt->correct = 0;
    snprintf(pt->problem, sizeof pt->problem, "%s", c->err);
    if (p && p->threaded)
      pthread_join(p->thread, NULL);
    ms_result_free(mrp);
    free(p);
    return;
  }
  pt->correct = chk.state == RUN_CHECK_PASS;
  if (!pt->correct)
    snprintf(pt->problem, sizeof pt->problem, "%s", chk.detail);
  if (chk.state == RUN_CHECK_TIMEOUT)
    point_name(pt, c->hung, sizeof c->hung);
  if (later) {
    p->point = (uint32_t)(pt - c->res->points);
    p->chk = chk;
    p->have_m = m != NULL;
    if (m)
      p->m = *m;
    p->seq = c->seq;
    p->remodelled = remodelled;
    if (c->pend_last)
      c->pend_last->next = p;
    else
      c->pend = p;
    c->pend_last = p;
    c->npend++;
    pending_reap(c);
    return;
  }
  while (c->pend)                               /* the points before it first */
    pending_end_one(c);
  memcpy(note, mrp->timing_note, RUN_NOTE_LEN);
  measure_end(c, L, pt, m, &chk, c->seq, remodelled, mrp);
  free(p);
}

/* Measure the configuration of L as point pt (measure), unless the emulator measured the very
   same launch before: the same sizes, seed and choices (so the same inputs, scalars and
   reference), launch shape, argument bytes (the same buffers), and the same device state
   (be_state_digest: __device__ variables as they were), with no lane log kept by either. The
   emulator is deterministic, so that launch's figures are this one's: its point is copied,
   not run again (a sweep's point that is the main configuration, two sweeps through one
   configuration: a launch of seconds each in labs 02 to 04). */
static void measure_once(struct ctx *c, struct launch *L, struct run_point *pt)
{
  struct measured m;
  memset(&m, 0, sizeof m);
  int known = c->kind == BE_EMU && !c->hung[0] && !lane_chart_of(c, pt) &&
              be_state_digest(c->be, &m.state) == BE_OK;
  if (known) {
    m.size = L->size;
    m.choices = L->choices;
    m.seed = L->seed;
    m.bl = L->bl;
    m.bl.lanes = 0;
    m.bl.lanes_block = m.bl.lanes_warp = 0;
    memcpy(m.params, L->params, sizeof m.params);
    m.psize = L->psize;
    if (L->checked && c->main_mr)
      m.state = c->main_state;                  /* it ran in the tests, from this state */
    for (uint32_t i = 0; i < c->ndone; i++) {
      const struct measured *d = &c->done[i];
      if (d->state != m.state || d->seed != m.seed || d->psize != m.psize ||
          !same_sizes(&d->size, &m.size) || !same_sizes(&d->choices, &m.choices) ||
          memcmp(&d->bl, &m.bl, sizeof m.bl) || memcmp(d->params, m.params, m.psize))
        continue;
      while (c->pend)                           /* its figures, and the points' before */
        pending_end_one(c);
      struct run_point was = *pt;               /* its own name, the figures of d's */
      *pt = c->res->points[d->point];
      memcpy(pt->sweep, was.sweep, sizeof pt->sweep);
      memcpy(pt->label, was.label, sizeof pt->label);
      pt->choices = was.choices;
      if (d->timing_note[0])
        memcpy(c->res->prov.timing_note, d->timing_note, sizeof d->timing_note);
      return;
    }
  }
  measure(c, L, pt, known ? &m : NULL, m.timing_note);
  if (!known)
    return;
  if (c->ndone == c->cap_done) {
    uint32_t cap = c->cap_done ? c->cap_done * 2 : 16;
    struct measured *nd = realloc(c->done, cap * sizeof *nd);
    if (!nd)
      return;                                   /* it is measured again, as before */
    c->done = nd;
    c->cap_done = cap;
  }
  m.point = (uint32_t)(pt - c->res->points);
  c->done[c->ndone++] = m;
}

static void point_label(const struct run_sizes *ch, const struct run_sweep *sw, uint32_t row,
                        char *buf, size_t n)
{
  size_t k = 0;
  buf[0] = 0;
  if (!sw) {
    for (uint32_t i = 0; i < ch->n && k < n; i++) {
      int w = snprintf(buf + k, n - k, "%s%" PRId64, i ? "x" : "", ch->v[i]);
      if (w > 0)
        k += (size_t)w;
    }
    return;
  }
  for (uint32_t i = 0; i < sw->nset && k < n; i++) {
    int w = snprintf(buf + k, n - k, "%s%" PRId64, i ? "x" : "", sw->values[row][i]);
    if (w > 0)
      k += (size_t)w;
  }
}

/* A test with a profile of its own (lab.json "arch": "wave64") runs on the emulator with that
   profile's warp size, whatever the run's backend: no NVIDIA GPU has 64-lane warps. On the
   GPU an emulator stands in for that check. */
struct arch_swap {
  struct be *be, *emu;         /* the run's backend, and the stand-in (NULL when none) */
  enum be_kind kind;
  uint32_t warp_size;          /* the profile's: 32 or 64 */
};

/* The test's profile arch, whose warp size (32 or 64) the lab read when it loaded. Returns 0
   with c switched to the emulator when needed, or -1 with c->err. */
static int arch_enter(struct ctx *c, const char *arch, uint32_t warp, struct arch_swap *s)
{
  char e[256];
  memset(s, 0, sizeof *s);
  s->warp_size = warp == 64 ? 64 : 32;
  s->be = c->be;
  s->kind = c->kind;
  if (c->kind == BE_EMU)
    return 0;
  if (be_open(BE_EMU, &s->emu, e, sizeof e) != BE_OK ||
      be_load(s->emu, c->ptx, c->ptx_len, &c->mod, e, sizeof e) != BE_OK) {
    snprintf(c->err, c->errlen, "the emulator for the %s test: %s", arch, e);
    if (s->emu)
      be_close(s->emu);
    s->emu = NULL;
    return -1;
  }
  c->be = s->emu;
  c->kind = BE_EMU;
  return 0;
}

static void arch_leave(struct ctx *c, struct arch_swap *s)
{
  if (!s->emu)
    return;
  be_close(s->emu);
  c->be = s->be;
  c->kind = s->kind;
  s->emu = NULL;
}

/* ---- the run ---- */

uint64_t run_fresh_seed(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  uint64_t s = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ ((uint64_t)getpid() << 40);
  return run_splitmix64(&s) & 0xffffffffffffull;
}

static int open_backend(struct ctx *c)
{
  char err[512];
  struct run_provenance *pv = &c->res->prov;
  enum run_backend want = c->opts->backend;
  if (want != RUN_BACKEND_EMU) {
    if (be_open(BE_GPU, &c->be, err, sizeof err) == BE_OK) {
      c->kind = BE_GPU;
      snprintf(pv->backend, sizeof pv->backend, "gpu");
      snprintf(pv->backend_reason, sizeof pv->backend_reason, "%s",
               want == RUN_BACKEND_GPU ? "asked for" : "a GPU is present");
      snprintf(pv->device, sizeof pv->device, "%s", be_describe(c->be));
      return 0;
    }
    if (want == RUN_BACKEND_GPU) {
      snprintf(c->err, c->errlen, "--backend gpu: %s", err);
      return -1;
    }
    snprintf(pv->backend_reason, sizeof pv->backend_reason, "no GPU (%.120s): the emulator", err);
  } else {
    snprintf(pv->backend_reason, sizeof pv->backend_reason, "asked for");
  }
  if (be_open(BE_EMU, &c->be, err, sizeof err) != BE_OK) {
    snprintf(c->err, c->errlen, "%s", err);
    return -1;
  }
  c->kind = BE_EMU;
  snprintf(pv->backend, sizeof pv->backend, "emu");
  snprintf(pv->device, sizeof pv->device, "%s, profile %s", be_describe(c->be),
           c->have_prof ? c->prof.name : "default");
  return 0;
}

static void nvcc_version(char *buf, size_t n)
{
  tc_build_toolkit_line(buf, n);
}

/* The checks of tests u to the main size, not run, each saying why ("not run: the GPU hung on
   n=1 shift=0"). */
static void skip_checks(struct run_result *res, uint32_t u, const struct run_sizes *main_size,
                        const char *why)
{
  const struct run_lab *lab = res->lab;
  for (; u <= lab->ntests && res->nchecks < sizeof res->checks / sizeof *res->checks; u++) {
    struct run_check *skip = &res->checks[res->nchecks++];
    memset(skip, 0, sizeof *skip);
    skip->sizes = u < lab->ntests ? lab->tests[u] : *main_size;
    sizes_text(&skip->sizes, skip->label, sizeof skip->label);
    size_t k = strlen(skip->label);
    if (u == lab->ntests)
      snprintf(skip->label + k, sizeof skip->label - k, " (main)");
    else if (lab->test_arch[u][0])
      snprintf(skip->label + k, sizeof skip->label - k, " arch=%s", lab->test_arch[u]);
    skip->state = RUN_CHECK_FAIL;
    skip->first_bad = -1;
    snprintf(skip->detail, sizeof skip->detail, "not run: %s", why);
  }
}

/* The allocator's policy for a run's buffers: a sweep point of its own buffers allocates,
   writes and frees tens to hundreds of megabytes (lab 03's three arrays of 8.6 million
   floats, lab 04's strided points up to 400 MB), host copies and the emulator's device memory
   alike. glibc serves each such block with a fresh mmap and unmaps it on free, so every point
   took page faults on every page it wrote (0.9 s of system time in lab 03's run of 5 s).
   Blocks from the heap, kept when freed, are the next point's: the same memory, written
   again, without a fault. Memory the process no longer uses is returned when it ends. */
static void heap_keeps_freed_memory(void)
{
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, INT_MAX);
}

/* The main problem size sz with opts' --size NAME=V settings applied: 0, or -1 with err. */
static int size_options(const struct run_opts *opts, struct run_sizes *sz, char *err,
                        size_t errlen)
{
  for (uint32_t i = 0; i < opts->nsize_set; i++) {
    const char *eq = strchr(opts->size_set[i], '=');
    char name[32];
    char *end = NULL;
    long long v = eq ? strtoll(eq + 1, &end, 0) : 0;
    int64_t old;
    if (eq && (size_t)(eq - opts->size_set[i]) < sizeof name) {
      memcpy(name, opts->size_set[i], (size_t)(eq - opts->size_set[i]));
      name[eq - opts->size_set[i]] = 0;
    } else {
      name[0] = 0;
    }
    if (!eq || !name[0] || !end || *end || end == eq + 1 || v <= 0 ||
        !run_sizes_get(sz, name, &old)) {
      char have[160];
      sizes_text(sz, have, sizeof have);
      snprintf(err, errlen, "--size %s: expected NAME=N with N > 0, NAME one of the lab's "
               "problem sizes (%s)", opts->size_set[i], have);
      return -1;
    }
    run_sizes_set(sz, name, v);
  }
  return 0;
}

/* ---- the sweeps' inputs, the largest first ---- */

/* (run.h) A "rand" input's first elements are the same for any count, and run_inputs_get
   serves a smaller ask from a larger buffer of the same rule and seed: made at its largest
   first, every point's buffer is one already made. Lab 04's stride sweep makes its points'
   buffer larger at every point: 2, 4, 8, 16 and 32 times the main size's were filled one
   after another, 63 of them where 32 do. */
void run_sweep_inputs_ahead(const struct run_lab *lab, struct run_inputs *pool,
                            const struct run_sizes *size, const struct run_sizes *ch,
                            uint64_t seed, uint64_t max_bytes, const int *stop)
{
  for (uint32_t i = 0; i < lab->nparams; i++) {
    const struct run_param *p = &lab->params[i];
    if (p->role == RUN_ROLE_SCALAR || strcmp(p->init, "rand"))
      continue;
    int64_t most = 0;
    for (uint32_t s = 0; s < lab->nsweeps; s++) {
      const struct run_sweep *sw = &lab->sweeps[s];
      for (uint32_t k = 0; k < sw->npoints; k++) {
        struct run_sizes pch = *ch;
        for (uint32_t j = 0; j < sw->nset; j++)
          run_sizes_set(&pch, sw->set[j], sw->values[k][j]);
        struct run_var vars[2 * RUN_MAX_VARS];
        size_t nv = make_vars(size, &pch, vars);
        char e[256];
        int64_t cnt;
        if (!run_expr_eval(p->count, vars, nv, &cnt, e, sizeof e) && cnt >= 1 &&
            cnt <= (1ll << 32) && cnt > most)
          most = cnt;
      }
    }
    if (!most || (max_bytes && (uint64_t)most * run_elem_size(p->elem) > max_bytes) ||
        (stop && __atomic_load_n(stop, __ATOMIC_RELAXED)))
      continue;
    int owned = 0;
    const void *buf = run_inputs_get(pool, p->init, p->elem, (uint64_t)most,
                                     input_seed(seed, i), &owned);
    if (owned)
      free((void *)buf);
  }
}

/* ---- the inputs, made while nvcc runs ---- */

/* s past blanks (spaces, tabs, newlines). */
static const char *skip_blanks(const char *s)
{
  while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
    s++;
  return s;
}

/* Whether s starts with the word w (not a longer name), s set past it. */
static int word_at(const char **s, const char *w)
{
  size_t n = strlen(w);
  if (strncmp(*s, w, n) || isalnum((unsigned char)(*s)[n]) || (*s)[n] == '_')
    return 0;
  *s += n;
  return 1;
}

/* Whether s, past blanks, ends a statement or a line: ';', "//" or the end of the line. */
static int ends_at(const char *s, int line)
{
  while (*s == ' ' || *s == '\t')
    s++;
  return line ? !*s || *s == '\n' || *s == '\r' || !strncmp(s, "//", 2) : *s == ';';
}

/* The number at s into *v, when it is all that follows up to the end of a statement
   (line 0) or a line (line 1): 0, or -1. */
static int number_at(const char *s, int line, int64_t *v)
{
  char *end;
  long long x = strtoll(s, &end, 0);
  if (end == s || !ends_at(end, line))
    return -1;
  *v = x;
  return 0;
}

/* The integer the statement at s is (a number, or a name that `#define NAME NUMBER` in src
   makes one) into *v: 0, or -1 when it is neither. */
static int source_int(const char *src, const char *s, int64_t *v)
{
  if ((*s >= '0' && *s <= '9') || *s == '-')
    return number_at(s, 0, v);
  size_t n = 0;
  while (isalnum((unsigned char)s[n]) || s[n] == '_')
    n++;
  if (!n || !ends_at(s + n, 0))
    return -1;
  for (const char *d = strstr(src, "#define"); d; d = strstr(d + 1, "#define")) {
    const char *q = skip_blanks(d + 7);
    if (strncmp(q, s, n) || isalnum((unsigned char)q[n]) || q[n] == '_' || q[n] == '(')
      continue;
    for (q += n; *q == ' ' || *q == '\t'; q++)
      ;
    return number_at(q, 1, v);
  }
  return -1;
}

/* (run.h) A guess made for making inputs before nvcc has built the file: a wrong one makes
   a buffer the run does not use, no other result. */
void run_choices_guess(const char *path, struct run_sizes *ch)
{
  size_t len = 0;
  char *src = tc_read_file(path, &len);
  for (const char *p = src ? strstr(src, "__constant__") : NULL; p;
       p = strstr(p + 1, "__constant__")) {
    const char *q = skip_blanks(p + strlen("__constant__"));
    if (!word_at(&q, "int"))
      continue;
    q = skip_blanks(q);
    for (uint32_t i = 0; i < ch->n; i++) {
      const char *r = q;
      int64_t v;
      if (word_at(&r, ch->name[i]) && *(r = skip_blanks(r)) == '=' &&
          !source_int(src, skip_blanks(r + 1), &v))
        ch->v[i] = v;
    }
  }
  free(src);
}


/* nvcc takes one core for 0.3 s before anything of the kernel's can run; the inputs of the
   tests and of the main size (seeded by the run's seed, sized by the lab alone) can be made
   meanwhile, into the run's pool (run_inputs_get), on another: 70 MB of random floats and
   their pages for lab 03, 0.1 s of CPU. The thread owns c->inputs until prefetch_join; a
   run that needs none of them leaves the thread the pool, which it frees when it ends (a
   build that failed is said at once, not after the buffer being made). */
#define PREFETCH_MAX_BYTES ((uint64_t)1 << 30)   /* a buffer made on a guess: at most */
/* a sweep's buffer made while nvcc runs: at most (lab 04's solution's 128 MB, not its
   starter's 384 MB: a build that fails leaves the thread to fill what it began, beside the
   rest of the run, 0.2 s of a failed save of the starter on 2 busy cores) */
#define PREFETCH_SWEEP_BYTES ((uint64_t)1 << 28)

struct prefetch {
  pthread_t thread;
  struct run_lab lab;               /* the run's, copied: the thread may outlive the run */
  struct run_inputs *pool;
  uint64_t seed;                    /* the run's: test t's launch is seeded seed + t */
  struct run_sizes main_size;       /* the main size's test (t = ntests) ... */
  int with_main;                    /* ... when the backend is the emulator for certain */
  struct run_sizes choices;         /* the kernel file's choices as its text tells them
                                       (run_choices_guess) */
  int sweeps;                       /* the sweeps' inputs too (run_sweep_inputs_ahead), once
                                       nvcc runs (go) and unless the run waits (off) first */
  pthread_mutex_t lock;             /* guards go, off, ended and left */
  pthread_cond_t said;              /* go or off set */
  int go, off;
  int ended;                        /* the thread has made all it will */
  int left;                         /* the run went on without it: it frees pool and itself */
  int stop;                         /* atomic: make no more */
};

/* The thread's end: where the run left it, its pool and itself freed. */
static void prefetch_end(struct prefetch *f)
{
  pthread_mutex_lock(&f->lock);
  f->ended = 1;
  int left = f->left;
  pthread_mutex_unlock(&f->lock);
  if (!left)
    return;
  run_inputs_free(f->pool);
  pthread_cond_destroy(&f->said);
  pthread_mutex_destroy(&f->lock);
  free(f);
}

static void *prefetch_main(void *arg)
{
  struct prefetch *f = arg;
  const struct run_lab *lab = &f->lab;
  run_fill_alone(1);
  for (uint32_t t = 0; t <= lab->ntests; t++) {
    if (t == lab->ntests && !f->with_main)
      break;
    const struct run_sizes *size = t < lab->ntests ? &lab->tests[t] : &f->main_size;
    struct run_var vars[2 * RUN_MAX_VARS];
    size_t nv = make_vars(size, &f->choices, vars);
    uint64_t seed = f->seed + t;
    for (uint32_t i = 0; i < lab->nparams; i++) {
      const struct run_param *p = &lab->params[i];
      char e[256];
      int64_t cnt;
      if (__atomic_load_n(&f->stop, __ATOMIC_RELAXED)) {
        prefetch_end(f);
        return NULL;
      }
      if (p->role == RUN_ROLE_SCALAR || run_expr_eval(p->count, vars, nv, &cnt, e, sizeof e) ||
          cnt < 1 || (uint64_t)cnt * run_elem_size(p->elem) > PREFETCH_MAX_BYTES)
        continue;
      int owned = 0;
      const void *buf = run_inputs_get(f->pool, p->init, p->elem, (uint64_t)cnt,
                                       input_seed(seed, i), &owned);
      if (owned)
        free((void *)buf);
    }
  }
  /* the sweeps' (seeded as the main size's test, whose launch the main configuration's is),
     while nvcc runs: a build from the cache leaves them to the main thread, whose fills are
     in parts on every core (run_sweep_inputs_ahead before the sweeps) */
  if (f->sweeps) {
    pthread_mutex_lock(&f->lock);
    while (!f->go && !f->off)
      pthread_cond_wait(&f->said, &f->lock);
    int go = f->go && !f->off;
    pthread_mutex_unlock(&f->lock);
    if (go && !__atomic_load_n(&f->stop, __ATOMIC_RELAXED))
      run_sweep_inputs_ahead(lab, f->pool, &f->main_size, &f->choices, f->seed + lab->ntests,
                             PREFETCH_SWEEP_BYTES, &f->stop);
  }
  prefetch_end(f);
  return NULL;
}

/* tc_build_ptx_notify's call as nvcc starts: the sweeps' inputs may be made (struct
   prefetch). */
static void prefetch_go(void *arg)
{
  struct prefetch *f = arg;
  pthread_mutex_lock(&f->lock);
  f->go = 1;
  pthread_cond_signal(&f->said);
  pthread_mutex_unlock(&f->lock);
}

/* Start making the inputs (struct prefetch) into c->inputs, made here. Returns the thread's
   handle for prefetch_join, or NULL: none (no second core, no memory). */
static struct prefetch *prefetch_start(struct ctx *c, const char *kfile, int emulator)
{
  if (sim_host_cores() < 2 || (!c->inputs && !(c->inputs = run_inputs_new())))
    return NULL;
  struct prefetch *f = calloc(1, sizeof *f);
  if (!f)
    return NULL;
  f->lab = *c->lab;
  f->pool = c->inputs;
  f->seed = c->res->prov.seed;
  char err[256];
  f->main_size = c->lab->emu;
  f->with_main = emulator && !size_options(c->opts, &f->main_size, err, sizeof err);
  f->choices = c->lab->choices;
  run_choices_guess(kfile, &f->choices);
  f->sweeps = f->with_main && !c->opts->quick && c->lab->nsweeps;
  pthread_mutex_init(&f->lock, NULL);
  pthread_cond_init(&f->said, NULL);
  if (pthread_create(&f->thread, NULL, prefetch_main, f) == 0)
    return f;
  pthread_cond_destroy(&f->said);
  pthread_mutex_destroy(&f->lock);
  free(f);
  return NULL;
}

/* Wait for the inputs, *fp's thread (NULL: none), and set *fp to NULL. stop: the run needs
   none of them; it does not wait, and the thread takes c->inputs with it. */
static void prefetch_join(struct ctx *c, struct prefetch **fp, int stop)
{
  struct prefetch *f = *fp;
  if (!f)
    return;
  *fp = NULL;
  pthread_mutex_lock(&f->lock);
  if (stop)
    __atomic_store_n(&f->stop, 1, __ATOMIC_RELAXED);
  f->off = 1;
  pthread_cond_signal(&f->said);
  if (stop && !f->ended) {
    f->left = 1;
    pthread_mutex_unlock(&f->lock);
    pthread_detach(f->thread);
    c->inputs = NULL;
    return;
  }
  pthread_mutex_unlock(&f->lock);
  pthread_join(f->thread, NULL);
  pthread_cond_destroy(&f->said);
  pthread_mutex_destroy(&f->lock);
  free(f);
}

static int run_here(const struct run_lab *lab, const struct run_opts *opts, struct run_result *res,
                    char *err, size_t errlen, struct run_progress *prog)
{
  static pthread_once_t heap_once = PTHREAD_ONCE_INIT;
  pthread_once(&heap_once, heap_keeps_freed_memory);
  memset(res, 0, sizeof *res);
  res->lab = lab;
  struct ctx c = {.lab = lab, .opts = opts, .res = res, .err = err, .errlen = errlen, .prog = prog};
  struct launch main_L;                         /* the main size's checked launch */
  int have_main_L = 0;
  struct run_provenance *pv = &res->prov;
  int rc = -1;
  err[0] = 0;
  snprintf(pv->warplab_version, sizeof pv->warplab_version, "%s", WARPLAB_VERSION);
  pv->seed = opts->have_seed ? opts->seed : run_fresh_seed();
  time_t now = time(NULL);
  struct tm tm;
  gmtime_r(&now, &tm);
  strftime(pv->started, sizeof pv->started, "%Y-%m-%dT%H:%M:%SZ", &tm);

  /* profile */
  struct occ_error oe;
  const char *prof = opts->profile ? opts->profile : "sm_90";
  if (occ_profile_load(prof, &c.prof, &oe) == OCC_OK) {
    c.have_prof = 1;
    res->prof = c.prof;                         /* what the layers above read */
    res->have_prof = 1;
    snprintf(pv->profile, sizeof pv->profile, "%s", c.prof.id);
  } else if (opts->profile) {
    snprintf(err, errlen, "--arch %s: %s", opts->profile, oe.msg);
    return -1;
  } else {
    /* the run goes on (correctness needs no profile), without occupancy or modelled times:
       the report says why rather than leave them out silently */
    snprintf(pv->timing_note, sizeof pv->timing_note, "no times or occupancy on the emulator: "
             "the default architecture profile could not be loaded: %.240s", oe.msg);
  }

  /* where results go */
  char stamp[32], kbuf[1024];
  strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
  const char *kfile = run_kernel_path(c.lab, c.opts, kbuf, sizeof kbuf);
  snprintf(pv->kernel_file, sizeof pv->kernel_file, "%s", kfile);
  /* a folder of its own: a run in the same second as another of the lab's gets -02, -03 ... */
  snprintf(res->results_dir, sizeof res->results_dir, "%s/%s",
           opts->results_root ? opts->results_root : "results", lab->id);
  if (mkdirs(res->results_dir)) {
    snprintf(err, errlen, "cannot make %s: %s", res->results_dir, strerror(errno));
    return -1;
  }
  size_t lab_len = strlen(res->results_dir);
  int made = -1;
  for (int k = 1; k < 100 && made; k++) {
    snprintf(res->results_dir + lab_len, sizeof res->results_dir - lab_len,
             k > 1 ? "/%s-%s-%02d" : "/%s-%s",
             stamp, opts->solution ? "solution" : "student", k);
    made = mkdir(res->results_dir, 0755);
    if (made && errno != EEXIST) {
      snprintf(err, errlen, "cannot make %s: %s", res->results_dir, strerror(errno));
      return -1;
    }
  }
  if (made) {
    snprintf(err, errlen, "cannot make a folder for the run in %.900s: 99 runs of this second "
             "are there already", res->results_dir);
    return -1;
  }
  if (access(kfile, R_OK)) {
    snprintf(err, errlen, "cannot read the kernel file %s: %s", kfile, strerror(errno));
    return -1;
  }

  /* build, the inputs made meanwhile (the emulator's main size too where it is certain) */
  struct prefetch *pf = prefetch_start(&c, kfile, opts->backend == RUN_BACKEND_EMU ||
                                       !be_gpu_driver_present());
  struct refbuild rb;
  refbuild_start(&c, &rb);
  double t_start = now_s();
  nvcc_version(pv->nvcc_version, sizeof pv->nvcc_version);
  tc_build_isolation(pv->isolation, sizeof pv->isolation);
  snprintf(pv->ptx_file, sizeof pv->ptx_file, "%s/kernel.ptx", res->results_dir);
  char arch[16];
  snprintf(arch, sizeof arch, "sm_%d", c.have_prof && c.prof.sm >= 50 ? c.prof.sm : 90);
  if (c.have_prof && c.prof.sm < 50)
    snprintf(arch, sizeof arch, "sm_90");      /* teaching profiles of old GPUs: compile for today's */
  struct tc_build_info binfo;
  enum tc_build_status bs = tc_build_ptx_notify(kfile, arch, pv->ptx_file, res->build_log,
                                                  sizeof res->build_log, &binfo,
                                                  pf ? prefetch_go : NULL, pf);
  snprintf(pv->build_from, sizeof pv->build_from, "%s", binfo.from_cache ? "cache" : "nvcc");
  if (bs == TC_BUILD_NO_NVCC) {
    snprintf(err, errlen, "%s", res->build_log);
    prefetch_join(&c, &pf, 1);
    refbuild_join(&c);
    run_inputs_free(c.inputs);
    return -1;
  }
  if (bs != TC_BUILD_OK) {
    prefetch_join(&c, &pf, 1);
    refbuild_join(&c);
    run_inputs_free(c.inputs);
    res->phase_s[RUN_PHASE_BUILD] = res->phase_s[RUN_PHASE_TOTAL] = now_s() - t_start;
    return 0;                                   /* not built: exit 3, the log says why */
  }
  res->built = 1;
  c.ptx = tc_read_file(pv->ptx_file, &c.ptx_len);
  struct ptx_error pe;
  enum ptx_status ps = c.ptx ? ptx_parse(c.ptx, c.ptx_len, &c.mod, &pe) : PTX_ERR_SEMANTIC;
  if (ps == PTX_ERR_UNSUPPORTED) {
    /* valid CUDA the emulator does not run (cp.async, textures, ...): a result of the
       kernel's, naming the construct and its line, so that it is graded, not an error */
    struct run_check *un = &res->checks[0];
    const char *kbase = strrchr(kfile, '/');
    snprintf(un->label, sizeof un->label, "emulator support");
    un->state = RUN_CHECK_FAIL;
    un->first_bad = -1;
    un->fault_line = ptx_source_line(c.ptx, c.ptx_len, pe.line, kfile);
    snprintf(un->fault_file, sizeof un->fault_file, "%s", kfile);
    char what[256], at[300] = "";
    snprintf(what, sizeof what, "%s", pe.msg);
    char *tail = strstr(what, " at line ");
    if (tail)
      *tail = 0;                                /* the PTX line is said below */
    if (un->fault_line)
      snprintf(at, sizeof at, ", from %s:%u", kbase ? kbase + 1 : kfile, un->fault_line);
    snprintf(un->detail, sizeof un->detail, "the emulator does not run this kernel: %s (PTX "
             "line %u)%s. No test could run: write it with what the handouts use, or run it on "
             "a GPU (--backend gpu)", what, pe.line, at);
    res->nchecks = 1;
    rc = 0;
    goto out;
  }
  if (ps != PTX_OK) {
    snprintf(err, errlen, "%s:%u: %s", pv->ptx_file, c.ptx ? pe.line : 0,
             c.ptx ? pe.msg : "cannot read the PTX");
    goto out;
  }
  struct run_check *sig = &res->checks[0];
  if (check_signature(&c, sig->detail, sizeof sig->detail)) {
    snprintf(sig->label, sizeof sig->label, "kernel signature");
    sig->state = RUN_CHECK_FAIL;
    res->nchecks = 1;
    rc = 0;
    goto out;
  }
  /* one ptxas for its report and, where the emulator may run, the cubin the SASS map lists
     (ran beside the SASS map's own ptxas, which took a core for as long) */
  char plog[2048];
  enum tc_ptxas_status pst = tc_ptxas_cubin(pv->ptx_file, arch, 0, c.rs, RUN_PTXAS_FUNCS,
                                            &c.nrs, plog, sizeof plog,
                                            opts->backend != RUN_BACKEND_GPU ? &c.cubin : NULL,
                                            &c.cubin_len);
  /* the emulator for certain (asked for, or no driver): its SASS map from now on, beside
     the rest; an "auto" run with a driver starts it once the emulator is chosen */
  if (opts->backend == RUN_BACKEND_EMU || !be_gpu_driver_present())
    sass_start(&c, arch);
  flag_clock_reads(&c);
  if (pst == TC_PTXAS_OK) {
    const struct tc_resources *k = tc_resources_find(c.rs, c.nrs, lab->kernel);
    if (k) {
      c.rsrc = *k;
      c.have_rsrc = 1;
      res->registers = (uint32_t)k->registers;
    }
    c.nframes = run_device_frames(c.rs, c.nrs, c.frames, RUN_PTXAS_FUNCS);
  }
  c.ms.prof = c.have_prof ? &c.prof : NULL;
  c.ms.mod = &c.mod;
  c.smem_blind = remodel_allowed() && !ptx_sees_smem_size(&c.mod);
  c.ms.want = lab->metric_id;
  c.ms.nwant = lab->nmetrics;
  if (c.have_rsrc) {
    c.ms.kern.known = 1;
    c.ms.kern.registers = c.rsrc.registers;
    c.ms.kern.static_smem = c.rsrc.static_smem;
    c.ms.kern.barriers = c.rsrc.barriers;
    c.ms.kern.has_stack = (c.rsrc.has & TC_RES_STACK) != 0;
    c.ms.kern.stack_frame = c.rsrc.stack_frame;
    c.ms.kern.spill_stores = c.rsrc.spill_stores;
  }
  if (load_reference(&c) || open_backend(&c))
    goto out;
  if (be_load(c.be, c.ptx, c.ptx_len, &c.mod, err, errlen) != BE_OK)
    goto out;
  if (c.kind == BE_EMU)
    sass_start(&c, arch);
  int kfi = ptx_find_func(&c.mod, lab->kernel);
  int refused = c.kind == BE_EMU && kfi >= 0 ? ptx_func_refused(&c.mod, (uint32_t)kfi) : -1;
  if (refused >= 0) {
    /* the module loaded, but the lab's kernel uses what the emulator does not run: as a
       refusal at load, one result naming the construct and its line, once, not a failed
       launch on every test */
    const struct ptx_func *g = &c.mod.funcs[refused];
    struct run_check *un = &res->checks[0];
    const char *path = g->refused_line ? ptx_file_path(&c.mod, g->refused_file) : NULL;
    const char *base = path ? strrchr(path, '/') : NULL;
    char what[400], at[300] = "";
    ptx_refusal_text(&c.mod, (uint32_t)kfi, (uint32_t)refused, what, sizeof what);
    snprintf(un->label, sizeof un->label, "emulator support");
    un->state = RUN_CHECK_FAIL;
    un->first_bad = -1;
    if (path) {
      snprintf(un->fault_file, sizeof un->fault_file, "%s", path);
      un->fault_line = g->refused_line;
      if (!strstr(what, " (at "))
        snprintf(at, sizeof at, ", from %s:%u", base ? base + 1 : path, g->refused_line);
    }
    snprintf(un->detail, sizeof un->detail, "%s%s. No test could run: write it with what the "
             "handouts use, or run it on a GPU (--backend gpu)", what, at);
    res->nchecks = 1;
    rc = 0;
    goto out;
  }
  double t_tests = now_s();
  res->phase_s[RUN_PHASE_BUILD] = t_tests - t_start;

  struct run_sizes choices;
  read_choices(&c, &choices);
  struct run_sizes main_sz = c.kind == BE_GPU ? lab->gpu : lab->emu;
  const struct run_sizes *main_size = &main_sz;
  if (size_options(opts, &main_sz, err, errlen))
    goto out;
  sizes_text(main_size, pv->sizes, sizeof pv->sizes);
  if (prog)
    prog->main_size = main_sz;

  prefetch_join(&c, &pf, 0);
  /* correctness on every test size and the main size */
  res->all_passed = 1;
  for (uint32_t t = 0; t <= lab->ntests; t++) {
    struct run_check *chk = &res->checks[res->nchecks++];
    struct launch L;
    memset(&L, 0, sizeof L);
    L.size = t < lab->ntests ? lab->tests[t] : *main_size;
    L.choices = choices;
    L.seed = pv->seed + t;
    chk->sizes = L.size;
    sizes_text(&L.size, chk->label, sizeof chk->label);
    if (t == lab->ntests)
      snprintf(chk->label + strlen(chk->label), sizeof chk->label - strlen(chk->label), " (main)");
    const char *tarch = t < lab->ntests ? lab->test_arch[t] : "";
    struct arch_swap sw = {0};
    if (tarch[0]) {
      snprintf(chk->label + strlen(chk->label), sizeof chk->label - strlen(chk->label),
               " arch=%s", tarch);
      if (arch_enter(&c, tarch, lab->test_warp[t], &sw))
        goto out;
    }
    struct ms_result mr;
    ms_result_init(&mr);
    const struct be_result *br = &mr.br;
    int prepared = launch_prepare(&c, &L, chk->detail, sizeof chk->detail) == 0;
    if (prepared && sw.warp_size)
      L.bl.warp_size = sw.warp_size;
    progress(&c, (int32_t)t, -1);
    /* on the emulator the main size's test is the main configuration's launch: recorded as
       its measurement needs (the timing model's blocks, the lane chart's warp), measured
       once the SASS map is there (measure), not launched a second time */
    int record = t == lab->ntests && c.kind == BE_EMU && !tarch[0] &&
                 be_state_digest(c.be, &c.main_state) == BE_OK;
    if (record) {
      struct run_point main_pt;
      memset(&main_pt, 0, sizeof main_pt);
      const struct run_lane_chart *lane = lane_chart_of(&c, &main_pt);
      L.bl.lanes = lane != NULL;
      L.bl.lanes_block = lane ? lane->block : 0;
      L.bl.lanes_warp = lane ? lane->warp : 0;
    }
    if (!prepared) {
      chk->state = RUN_CHECK_FAIL;
    } else if (launch_check(&c, &L, chk, record ? MS_RECORD : MS_LAUNCH, &mr, NULL)) {
      launch_free(&c, &L);
      ms_result_free(&mr);
      arch_leave(&c, &sw);
      goto out;
    }
    int ran_away = c.kind == BE_EMU && !br->ran_ok && br->emu.outcome == SIM_BUDGET;
    run_result_add_printf(res, chk->label, br->emu.printf_out, br->emu.printf_len, br->emu.printf_cut);
    L.bl.lanes = 0;
    if (chk->state != RUN_CHECK_PASS)
      res->all_passed = 0;
    if (record && chk->state == RUN_CHECK_PASS && prepared && (c.main_mr = malloc(sizeof mr))) {
      *c.main_mr = mr;
      ms_result_init(&mr);
    }
    ms_result_free(&mr);
    if (t == lab->ntests && (c.kind == BE_GPU || c.main_mr) && !tarch[0] &&
        chk->state == RUN_CHECK_PASS) {
      /* the main size's test is the main configuration's launch: measured as it is, not
         prepared and checked a second time (seconds on a GPU's problem size) */
      main_L = L;
      main_L.checked = 1;
      have_main_L = 1;
    } else {
      launch_free(&c, &L);
    }
    arch_leave(&c, &sw);
    char why[192];
    if (chk->state == RUN_CHECK_TIMEOUT) {
      /* the GPU runs the hung kernel until this process ends: nothing more can run here */
      snprintf(c.hung, sizeof c.hung, "%s", chk->label);
      snprintf(why, sizeof why, "the GPU hung on %s", chk->label);
      skip_checks(res, t + 1, main_size, why);
      break;
    }
    if (chk->state == RUN_CHECK_FAULT && c.kind == BE_GPU && !tarch[0]) {
      snprintf(why, sizeof why, "the GPU's context was lost to the fault on %s", chk->label);
      skip_checks(res, t + 1, main_size, why);
      break;
    }
    if (ran_away) {
      /* a kernel stuck in a loop on one size is stuck on the others: say so, don't wait */
      snprintf(why, sizeof why, "the kernel ran away on %s", chk->label);
      skip_checks(res, t + 1, main_size, why);
      break;
    }
  }
  progress(&c, -1, -1);
  double t_measure = now_s();                   /* (the SASS map is joined when a
                                                   measurement first needs it: sass_wait) */
  res->phase_s[RUN_PHASE_TESTS] = t_measure - t_tests;

  /* the main configuration, then the sweeps, on the main size: measured whenever the main
     size is correct, also when an edge size failed (the rubric scores targets and time then,
     and only the failing tests lose their points) */
  if (res->nchecks == lab->ntests + 1 && res->checks[lab->ntests].state == RUN_CHECK_PASS) {
    struct launch L;
    memset(&L, 0, sizeof L);
    L.size = *main_size;
    L.choices = choices;
    L.seed = pv->seed;
    char why[512];
    if (have_main_L) {
      L = main_L;
      have_main_L = 0;
    }
    if (L.checked || launch_prepare(&c, &L, why, sizeof why) == 0) {
      struct run_point *pt = &res->points[res->npoints++];
      pt->choices = choices;
      point_label(&choices, NULL, 0, pt->label, sizeof pt->label);
      progress(&c, -1, (int32_t)res->npoints - 1);
      measure_once(&c, &L, pt);
      if (opts->on_main && !opts->quick && lab->nsweeps) {
        struct pending *mp = pending_of(&c, (uint32_t)(pt - res->points));
        if (mp)
          mp->on_main = 1;                      /* once its figures are in */
        else
          opts->on_main(res, opts->on_main_arg);
      }
      if (!opts->quick && lab->nsweeps && pt->correct)
        ref_choice_free(&c, &L);
      c.ref_choice_free = L.ref_fixed;
      if (!opts->quick && c.inputs && !c.hung[0])
        run_sweep_inputs_ahead(lab, c.inputs, &L.size, &L.choices, L.seed, 0, NULL);
      for (uint32_t s = 0; s < lab->nsweeps && !opts->quick; s++) {
        const struct run_sweep *sw = &lab->sweeps[s];
        for (uint32_t p = 0; p < sw->npoints; p++) {
          struct launch P = L;                  /* same buffers, new launch shape ... */
          P.checked = 0;
          for (uint32_t k = 0; k < sw->nset; k++)
            run_sizes_set(&P.choices, sw->set[k], sw->values[p][k]);
          struct run_point *sp = &res->points[res->npoints++];
          snprintf(sp->sweep, sizeof sp->sweep, "%s", sw->name);
          sp->choices = P.choices;
          point_label(&P.choices, sw, p, sp->label, sizeof sp->label);
          /* ... unless the choices change them: new scalars (lab 03's unroll) with the
             same buffers, or buffers of their own */
          enum share sh = same_buffers(&c, &L, &P);
          int own = sh == SHARE_NONE;
          if (own) {                            /* (memset: ref_fixed and the rest 0) */
            memset(&P, 0, sizeof P);
            P.size = L.size;
            P.choices = sp->choices;
            P.seed = L.seed;
          } else if (sh == SHARE_BUFFERS) {
            memset(P.expect, 0, sizeof P.expect); /* its own (share_buffers), not L's */
          }
          progress(&c, -1, (int32_t)res->npoints - 1);
          if (c.hung[0])
            snprintf(sp->problem, sizeof sp->problem, "not run: the GPU hung on %s", c.hung);
          else if (own ? launch_prepare(&c, &P, why, sizeof why)
                   : sh == SHARE_BUFFERS ? share_buffers(&c, &P, why, sizeof why)
                   : launch_shape(&c, &P, why, sizeof why))
            snprintf(sp->problem, sizeof sp->problem, "%s", why);
          else
            measure_once(&c, &P, sp);
          if (own)
            launch_free(&c, &P);
          else if (sh == SHARE_BUFFERS)
            share_end(&c, &P);
        }
      }
    }
    sass_wait(&c);                              /* the main configuration, with no sweeps */
    launch_free(&c, &L);
    res->phase_s[RUN_PHASE_MEASURE] = now_s() - t_measure - res->phase_s[RUN_PHASE_PROFILE];
  }
  progress(&c, -1, -1);
  rc = 0;
out:
  prefetch_join(&c, &pf, 1);
  refbuild_join(&c);
  pending_drop(&c);                             /* (a run that ended early) */
  sass_join(&c);
  if (have_main_L)
    launch_free(&c, &main_L);
  res->phase_s[RUN_PHASE_TOTAL] = now_s() - t_start;
  if (c.be)
    be_close(c.be);
  if (c.ref_lib)
    dlclose(c.ref_lib);
  kept_free(&c);
  if (c.main_mr) {
    ms_result_free(c.main_mr);
    free(c.main_mr);
  }
  ptx_module_free(&c.mod);
  ptx_sass_free(&c.sass);
  free(c.ptx);
  free(c.cubin);
  run_inputs_free(c.inputs);
  free(c.done);
  return rc;
}

/* ---- a run that may use a GPU: in a child process ---- */

/* The run as the child leaves it, in memory shared with the parent. */
struct shared_run {
  struct run_result res;
  struct run_progress prog;
  char err[2048];
  int rc;
  volatile int done;           /* the child got to the end of run_here */
};

/* The child's end in words: "killed by signal 6 (Aborted)", "exit status 3". */
static void child_end(int status, char *buf, size_t n)
{
  if (WIFSIGNALED(status))
    snprintf(buf, n, "killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
  else
    snprintf(buf, n, "exit status %d", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/* The child ended before the end of its run: the check or point under way is recorded as
   what ended it, the checks after it as not run. Returns 0, or -1 with err when the child
   ended before any check (the build, the backend), which is then ours to report. */
static int child_died(struct shared_run *sh, struct run_result *res, int status, char *err,
                      size_t errlen)
{
  char how[96], why[256];
  child_end(status, how, sizeof how);
  int32_t check = sh->prog.check, point = sh->prog.point;
  if (check >= 0 && (uint32_t)check <= res->lab->ntests) {
    struct run_check *k = &res->checks[check];
    memset(k, 0, sizeof *k);
    k->sizes = (uint32_t)check < res->lab->ntests ? res->lab->tests[check] : sh->prog.main_size;
    sizes_text(&k->sizes, k->label, sizeof k->label);
    size_t n = strlen(k->label);
    if ((uint32_t)check == res->lab->ntests)
      snprintf(k->label + n, sizeof k->label - n, " (main)");
    else if (res->lab->test_arch[check][0])
      snprintf(k->label + n, sizeof k->label - n, " arch=%s", res->lab->test_arch[check]);
    k->state = RUN_CHECK_FAULT;
    k->first_bad = -1;
    snprintf(k->detail, sizeof k->detail, "the GPU run's process ended during this check (%s): "
             "the kernel or the driver took it down. Rerun it on the emulator (--backend emu) to "
             "see what the kernel does", how);
    res->nchecks = (uint32_t)check + 1;
    res->all_passed = 0;
    snprintf(why, sizeof why, "the GPU run ended on %s", k->label);
    skip_checks(res, (uint32_t)check + 1, &sh->prog.main_size, why);
    return 0;
  }
  if (point >= 0 && (uint32_t)point < sizeof res->points / sizeof *res->points) {
    struct run_point *pt = &res->points[point];
    res->npoints = (uint32_t)point + 1;
    pt->correct = 0;
    snprintf(pt->problem, sizeof pt->problem, "the GPU run's process ended while this was "
             "measured (%s); the points after it were not measured", how);
    return 0;
  }
  snprintf(err, errlen, "the GPU run's process ended before its first check (%s)%s%s", how,
           sh->err[0] ? ": " : "", sh->err);
  return -1;
}

/* A GPU run whose sweeps were timed only (run_sweepfill.h): the emulator runs the same kernel
   file over the sweeps at the lab's emulator size, on the same seed, and its exact ratios fill
   the rows Nsight Compute did not profile; the metrics note says which and at what size. A
   failed emulator run leaves the GPU's result as it was. */
static void fill_sweeps_from_emulator(const struct run_lab *lab, const struct run_opts *opts,
                                      struct run_result *res)
{
  if (!opts->sweep_counters || opts->quick || opts->profile_all || opts->no_ncu || !lab->nsweeps ||
      strcmp(res->prov.backend, "gpu") || !res->built || res->npoints < 2)
    return;
  struct run_result *emu = malloc(sizeof *emu);
  if (!emu)
    return;
  struct run_opts eo = *opts;
  char root[1100], err[512];
  snprintf(root, sizeof root, "%s/emulator", res->results_dir);
  eo.backend = RUN_BACKEND_EMU;
  eo.results_root = root;
  eo.have_seed = 1;
  eo.seed = res->prov.seed;
  eo.nsize_set = 0;
  eo.sweep_counters = 0;
  double t0 = now_s();
  char filled[160];
  if (run_here(lab, &eo, emu, err, sizeof err, NULL) == 0 &&
      run_sweepfill_merge(lab, res, emu, filled, sizeof filled) > 0) {
    snprintf(res->prov.ncu_note, sizeof res->prov.ncu_note,
             "GPU metrics from Nsight Compute for the main configuration; the sweeps are timed on "
             "the GPU, their %.100s the emulator's exact counts of the same PTX at %.60s "
             "(--profile-all profiles every configuration)", filled, emu->prov.sizes);
  }
  res->phase_s[RUN_PHASE_MEASURE] += now_s() - t0;
  res->phase_s[RUN_PHASE_TOTAL] += now_s() - t0;
  free(emu);
}

static int run_uncached(const struct run_lab *lab, const struct run_opts *opts,
                        struct run_result *res, char *err, size_t errlen)
{
  /* the emulator alone, or no driver to use: here, as it always ran */
  if (opts->backend == RUN_BACKEND_EMU || !be_gpu_driver_present())
    return run_here(lab, opts, res, err, errlen, NULL);
  struct shared_run *sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                               -1, 0);
  if (sh == MAP_FAILED) {
    snprintf(err, errlen, "cannot map memory for the GPU run: %s", strerror(errno));
    return -1;
  }
  sh->prog.check = sh->prog.point = -1;
  sh->rc = -1;
  fflush(NULL);                                 /* nothing buffered is written twice */
  pid_t parent = getpid(), pid = fork();
  if (pid < 0) {
    snprintf(err, errlen, "cannot start the GPU run's process: %s", strerror(errno));
    munmap(sh, sizeof *sh);
    return -1;
  }
  if (pid == 0) {
    /* the child: it dies with its parent (a killed grader leaves no GPU run behind) */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
      _exit(126);
    sh->rc = run_here(lab, opts, &sh->res, sh->err, sizeof sh->err, &sh->prog);
    sh->done = 1;
    fflush(NULL);
    _exit(0);                                   /* its end frees the GPU, a hung kernel too */
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  memcpy(res, &sh->res, sizeof *res);
  res->lab = lab;
  snprintf(err, errlen, "%s", sh->err);
  int rc = sh->done ? sh->rc : child_died(sh, res, status, err, errlen);
  munmap(sh, sizeof *sh);
  if (rc == 0)
    fill_sweeps_from_emulator(lab, opts, res);
  return rc;
}

/* The run with the lab's hidden tests left out unless opts->hidden_tests asks for them. */
static int run_shown_tests(const struct run_lab *lab, const struct run_opts *opts,
                           struct run_result *res, char *err, size_t errlen)
{
  uint32_t nhidden = 0;
  for (uint32_t t = 0; t < lab->ntests; t++)
    nhidden += lab->test_hidden[t] != 0;
  if (opts->hidden_tests || !nhidden)
    return run_uncached(lab, opts, res, err, errlen);
  /* hidden tests are a graded run's only: the others run the lab as if lab.json did not list
     them (a copy without them, the definition's JSON shared, not owned) */
  struct run_lab *shown = malloc(sizeof *shown);
  if (!shown) {
    snprintf(err, errlen, "out of host memory");
    return -1;
  }
  memcpy(shown, lab, sizeof *shown);
  shown->ntests = 0;
  for (uint32_t t = 0; t < lab->ntests; t++) {
    if (lab->test_hidden[t])
      continue;
    shown->tests[shown->ntests] = lab->tests[t];
    memcpy(shown->test_arch[shown->ntests], lab->test_arch[t], sizeof lab->test_arch[t]);
    shown->test_warp[shown->ntests] = lab->test_warp[t];
    shown->test_hidden[shown->ntests++] = 0;
  }
  int rc = run_uncached(shown, opts, res, err, errlen);
  res->lab = lab;
  res->hidden_left_out = 1;
  free(shown);
  return rc;
}

/* Is the kept run res one this run can stand for: its results folder under the results root
   this run was given, and still there (its kernel.ptx: the report, charts and lanes files of
   the run are written into that folder, and --keep or `warplab clean` may have removed it)?
   A run for its figures alone (a score's reference) takes any kept run. */
static int kept_run_usable(const struct run_opts *opts, const struct run_result *res)
{
  if (opts->figures_only)
    return 1;
  const char *root = opts->results_root ? opts->results_root : "results";
  size_t n = strlen(root);
  while (n > 1 && root[n - 1] == '/')
    n--;
  struct stat st;
  return !strncmp(res->results_dir, root, n) && res->results_dir[n] == '/' &&
         stat(res->prov.ptx_file, &st) == 0 && S_ISREG(st.st_mode);
}

int run_lab_run(const struct run_lab *lab, const struct run_opts *opts, struct run_result *res,
                char *err, size_t errlen)
{
  /* the reference solution on given inputs: as graders run it for every student */
  if (!opts->solution || !opts->have_seed)
    return run_shown_tests(lab, opts, res, err, errlen);
  char kbuf[1024], toolkit[64];
  nvcc_version(toolkit, sizeof toolkit);
  uint64_t key = run_cache_key(lab, opts, run_kernel_path(lab, opts, kbuf, sizeof kbuf), toolkit);
  if (run_cache_load(key, lab, res) == 0 && kept_run_usable(opts, res)) {
    err[0] = 0;
    return 0;
  }
  int rc = run_shown_tests(lab, opts, res, err, errlen);
  if (rc == 0 && res->built && res->all_passed && res->npoints)
    run_cache_store(key, res);
  return rc;
}
