/* fakecuda.c: a stand-in for the CUDA driver (libcuda.so.1), for tests on machines without a
 * GPU. warplab loads it in place of the real one when WARPLAB_TEST_LIBCUDA names it
 * (harness/backend/be_cuda.c); tests/e2e/gpuhang.c builds it with cc.
 *
 * It has one "GPU" whose memory is host memory, mapped apart from the heap (after a hang warplab
 * leaves it to the process's end, as it must a real GPU's, and a leak checker should not count
 * it), and whose kernels do nothing (a lab's outputs stay poisoned), except on demand:
 *   WARPLAB_FAKE_CUDA_HANG=N[:TEXT]   the N-th launch (from 1) of a module whose PTX contains
 *                                     TEXT never finishes: its end event stays not ready
 *   WARPLAB_FAKE_CUDA_CRASH=N[:TEXT]  the N-th such launch takes the process down (abort),
 *                                     as a driver that crashes would
 *   WARPLAB_FAKE_CUDA_MAX_THREADS=N   a launch of blocks of more than N threads is refused with
 *                                     CUDA_ERROR_INVALID_VALUE, as a kernel's __launch_bounds__
 *                                     makes a real driver refuse it
 *   WARPLAB_FAKE_CUDA_LOG=PATH        cuLaunchKernelEx (cooperative launches, clusters) appends
 *                                     a line to PATH: the shape, its attributes, and the first
 *                                     4 bytes of each of its first WARPLAB_FAKE_CUDA_NPARAMS
 *                                     parameters
 * A real driver waits for a hung kernel in almost every call (a copy, a free, unloading the
 * module, releasing the context), and would never come back; this one aborts there instead,
 * with a message, so that a test sees a call warplab must not make after a hang rather than
 * hanging itself. Only what is queued or asks (cuEventRecord, cuEventQuery) and the error
 * strings are safe then.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;

#define NOT_READY 600
#define INVALID_VALUE 1

static int launches, hang_at, crash_at, hung;
static const char *hang_text = "", *crash_text = "";
static int module_matches_hang, module_matches_crash;

static void die(const char *why, const char *call)
{
  struct rlimit core = {0, 0};
  setrlimit(RLIMIT_CORE, &core);                /* no core file in the test's folder */
  fprintf(stderr, "fakecuda: %s%s\n", call, why);
  abort();
}

/* Every call that a real driver would make wait for the hung kernel. */
#define WAITS(call) do { if (hung) die(" called while a kernel hangs: a real driver would wait " \
                                       "for ever here", call); } while (0)

static void read_spec(const char *var, int *at, const char **text)
{
  const char *v = getenv(var);
  if (!v || !*v)
    return;
  *at = (int)strtol(v, NULL, 10);
  const char *colon = strchr(v, ':');
  *text = colon ? colon + 1 : "";
}

CUresult cuInit(unsigned flags)
{
  (void)flags;
  read_spec("WARPLAB_FAKE_CUDA_HANG", &hang_at, &hang_text);
  read_spec("WARPLAB_FAKE_CUDA_CRASH", &crash_at, &crash_text);
  return 0;
}

CUresult cuDriverGetVersion(int *v) { *v = 13000; return 0; }
CUresult cuDeviceGetCount(int *n) { *n = 1; return 0; }
CUresult cuDeviceGet(int *d, int i) { *d = i; return 0; }

CUresult cuDeviceGetName(char *name, int len, int dev)
{
  (void)dev;
  snprintf(name, (size_t)len, "warplab's stand-in driver (tests/e2e/gpuhang/fakecuda.c)");
  return 0;
}

CUresult cuDeviceGetAttribute(int *v, int attr, int dev)
{
  (void)dev;
  *v = attr == 75 ? 9 : attr == 76 ? 0 : attr == 16 ? 1 : attr == 38 ? 1 << 20 : 0;
  return 0;
}

static int ctx_token;
CUresult cuDevicePrimaryCtxRetain(void **ctx, int dev) { (void)dev; *ctx = &ctx_token; return 0; }
CUresult cuDevicePrimaryCtxRelease_v2(int dev) { (void)dev; WAITS("cuDevicePrimaryCtxRelease"); return 0; }
CUresult cuCtxSetCurrent(void *ctx) { (void)ctx; return 0; }
CUresult cuCtxSynchronize(void) { WAITS("cuCtxSynchronize"); return 0; }

CUresult cuModuleLoadDataEx(void **mod, const void *ptx, unsigned n, int *opts, void **vals)
{
  (void)n; (void)opts; (void)vals;
  WAITS("cuModuleLoadDataEx");
  module_matches_hang = strstr(ptx, hang_text) != NULL;
  module_matches_crash = strstr(ptx, crash_text) != NULL;
  *mod = &ctx_token;
  return 0;
}

CUresult cuModuleUnload(void *mod) { (void)mod; WAITS("cuModuleUnload"); return 0; }
CUresult cuModuleGetFunction(void **f, void *mod, const char *name)
{
  (void)mod; (void)name;
  *f = &ctx_token;
  return 0;
}
CUresult cuFuncSetAttribute(void *f, int attr, int v) { (void)f; (void)attr; (void)v; return 0; }

/* "device memory": a mapping with its size in its first 16 bytes */
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n)
{
  WAITS("cuMemAlloc");
  char *m = mmap(NULL, n + 16, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED)
    return 2;
  memcpy(m, &n, sizeof n);
  *p = (CUdeviceptr)(size_t)(m + 16);
  return 0;
}
CUresult cuMemFree_v2(CUdeviceptr p)
{
  WAITS("cuMemFree");
  char *m = (char *)(size_t)p - 16;
  size_t n;
  memcpy(&n, m, sizeof n);
  munmap(m, n + 16);
  return 0;
}
CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *s, size_t n)
{
  WAITS("cuMemcpyHtoD");
  memcpy((void *)(size_t)d, s, n);
  return 0;
}
CUresult cuMemcpyDtoH_v2(void *d, CUdeviceptr s, size_t n)
{
  WAITS("cuMemcpyDtoH");
  memcpy(d, (void *)(size_t)s, n);
  return 0;
}
CUresult cuMemsetD8_v2(CUdeviceptr d, unsigned char v, size_t n)
{
  WAITS("cuMemsetD8");
  memset((void *)(size_t)d, v, n);
  return 0;
}

CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                        unsigned bz, unsigned smem, void *stream, void **params, void **extra)
{
  (void)f; (void)gx; (void)gy; (void)gz; (void)bx; (void)by; (void)bz; (void)smem;
  (void)stream; (void)params; (void)extra;
  WAITS("cuLaunchKernel");
  const char *most = getenv("WARPLAB_FAKE_CUDA_MAX_THREADS");
  if (most && *most && (unsigned long)bx * by * bz > strtoul(most, NULL, 10))
    return INVALID_VALUE;
  launches++;
  if (crash_at && module_matches_crash && launches == crash_at)
    die("", "the driver crashes on this launch (WARPLAB_FAKE_CUDA_CRASH)");
  if (hang_at && module_matches_hang && launches == hang_at)
    hung = 1;
  return 0;
}

/* cuLaunchKernelEx's description (cuda.h's CUlaunchConfig, CUlaunchAttribute) */
struct fake_attr {
  int id;
  char pad[4];
  union {
    char pad[64];
    int cooperative;
    struct { unsigned x, y, z; } cluster;
  } v;
};
struct fake_config {
  unsigned grid[3], block[3], smem;
  void *stream;
  struct fake_attr *attrs;
  unsigned nattrs;
};

CUresult cuLaunchKernelEx(const struct fake_config *c, void *f, void **params, void **extra)
{
  const char *log = getenv("WARPLAB_FAKE_CUDA_LOG"), *np = getenv("WARPLAB_FAKE_CUDA_NPARAMS");
  FILE *o = log && *log ? fopen(log, "a") : NULL;
  if (o) {
    fprintf(o, "grid %u %u %u block %u %u %u smem %u", c->grid[0], c->grid[1], c->grid[2],
            c->block[0], c->block[1], c->block[2], c->smem);
    for (unsigned i = 0; i < c->nattrs; i++) {
      const struct fake_attr *a = &c->attrs[i];
      if (a->id == 2)
        fprintf(o, " cooperative %d", a->v.cooperative);
      else if (a->id == 4)
        fprintf(o, " cluster %u %u %u", a->v.cluster.x, a->v.cluster.y, a->v.cluster.z);
      else
        fprintf(o, " attribute %d", a->id);
    }
    long n = np && *np ? strtol(np, NULL, 10) : 0;
    for (long i = 0; i < n && params; i++) {
      unsigned v;
      memcpy(&v, params[i], sizeof v);
      fprintf(o, " p%ld %u", i, v);
    }
    fputc('\n', o);
    fclose(o);
  }
  return cuLaunchKernel(f, c->grid[0], c->grid[1], c->grid[2], c->block[0], c->block[1],
                        c->block[2], c->smem, c->stream, params, extra);
}

static int event_token;
CUresult cuEventCreate(void **e, unsigned flags) { (void)flags; *e = &event_token; return 0; }
CUresult cuEventRecord(void *e, void *stream) { (void)e; (void)stream; return 0; } /* queued */
CUresult cuEventQuery(void *e) { (void)e; return hung ? NOT_READY : 0; }
CUresult cuEventSynchronize(void *e) { (void)e; WAITS("cuEventSynchronize"); return 0; }
CUresult cuEventElapsedTime_v2(float *ms, void *a, void *b)
{
  (void)a; (void)b;
  WAITS("cuEventElapsedTime");
  *ms = 0.001f;
  return 0;
}
CUresult cuEventDestroy_v2(void *e) { (void)e; WAITS("cuEventDestroy"); return 0; }

CUresult cuGetErrorName(CUresult r, const char **s)
{
  *s = r == NOT_READY ? "CUDA_ERROR_NOT_READY" : r == INVALID_VALUE ? "CUDA_ERROR_INVALID_VALUE"
      : "CUDA_ERROR_UNKNOWN";
  return 0;
}
CUresult cuGetErrorString(CUresult r, const char **s)
{
  *s = r == NOT_READY ? "device not ready" : r == INVALID_VALUE ? "invalid argument"
      : "unknown error";
  return 0;
}
