/* be_cuda.c: the GPU backend: the CUDA driver API, loaded at run time.
 *
 * libcuda.so.1 is opened with dlopen, so warplab builds and runs without a driver and uses
 * one when it is there. The PTX is JIT-compiled by the driver (cuModuleLoadDataEx, with the
 * JIT's error log; a module that calls a device-runtime function the JIT does not provide
 * itself, "Unresolved extern function", is linked with libcudadevrt.a instead, find_devrt);
 * parameters go in as the same packed buffer the emulator takes
 * (CU_LAUNCH_PARAM_BUFFER_POINTER), or one by one through cuLaunchKernelEx for a cooperative
 * launch (a kernel that uses grid.sync(), or --cooperative) or one with --cluster. A kernel that faults leaves the context unusable: the
 * error comes back as a result, in words, with the advice to rerun on the emulator, which
 * names the line.
 *
 * A kernel that never ends (an endless loop, a deadlock) cannot be stopped on a GPU: it runs
 * until the process that launched it ends, and every later call that waits for the GPU (a
 * copy, a free, unloading the module, releasing the context) would wait for it forever.
 * So nothing here blocks on a launch: the wait polls the launch's end event for at most
 * WARPLAB_GPU_TIMEOUT seconds (wait_kernel), and a kernel still running then comes back as a
 * result, "timed out", with its message, like a fault. From then on the backend is "hung":
 * it refuses every operation without calling the driver, and closing it calls nothing
 * either. The caller decides what to do; a lab run records the check and ends cleanly in a
 * child process whose end frees the GPU (run.c). An earlier version stopped the whole process
 * from a SIGALRM handler, which lost everything a lab run had not written yet.
 */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend/be.h"

typedef int cu_result;
typedef int cu_device;
typedef void *cu_context;
typedef void *cu_module;
typedef void *cu_function;
typedef void *cu_event;
typedef unsigned long long cu_ptr;

#define CU_JIT_ERROR_LOG_BUFFER 5
#define CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES 6
#define CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES 8
#define CU_LAUNCH_ATTRIBUTE_COOPERATIVE 2
#define CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION 4

/* texture and surface objects (cuda.h's CUDA_ARRAY3D_DESCRIPTOR, CUDA_MEMCPY3D,
   CUDA_RESOURCE_DESC, CUDA_TEXTURE_DESC) */
typedef void *cu_array;
struct cu_array3d_desc {
  size_t width, height, depth;
  int format;
  unsigned nchan, flags;
};
struct cu_memcpy3d {
  size_t src_x, src_y, src_z, src_lod;
  int src_type;
  const void *src_host;
  cu_ptr src_dev;
  cu_array src_array;
  void *reserved0;
  size_t src_pitch, src_height;
  size_t dst_x, dst_y, dst_z, dst_lod;
  int dst_type;
  void *dst_host;
  cu_ptr dst_dev;
  cu_array dst_array;
  void *reserved1;
  size_t dst_pitch, dst_height;
  size_t width_bytes, height, depth;
};
struct cu_resource_desc {
  int type;
  union {
    struct { cu_array array; } array;
    struct { cu_ptr dev; int format; unsigned nchan; size_t bytes; } linear;
    struct { cu_ptr dev; int format; unsigned nchan; size_t width, height, pitch; } pitch2d;
    int reserved[32];
  } res;
  unsigned flags;
};
struct cu_texture_desc {
  int addr_mode[3];
  int filter;
  unsigned flags, max_aniso;
  int mip_filter;
  float mip_bias, mip_min, mip_max;
  float border[4];
  int reserved[12];
};
#define CU_MEMORYTYPE_DEVICE 2
#define CU_MEMORYTYPE_ARRAY 3
#define CU_RESOURCE_TYPE_ARRAY 0
#define CU_RESOURCE_TYPE_LINEAR 2
#define CU_RESOURCE_TYPE_PITCH2D 3
#define CUDA_ARRAY3D_LAYERED 1
#define CUDA_ARRAY3D_SURFACE_LDST 2
#define CUDA_ARRAY3D_CUBEMAP 4
#define CU_TRSF_READ_AS_INTEGER 1
#define CU_TRSF_NORMALIZED_COORDINATES 2

/* cuLaunchKernelEx's launch description (cuda.h's CUlaunchAttribute and CUlaunchConfig) */
struct cu_launch_attr {
  int id;
  char pad[4];
  union {
    char pad[64];
    int cooperative;
    struct { unsigned x, y, z; } cluster;
  } value;
};
struct cu_launch_config {
  unsigned grid[3], block[3], smem;
  void *stream;
  struct cu_launch_attr *attrs;
  unsigned nattrs;
};
#define CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT 16
#define CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE 38
#define NVML_CLOCK_SM 1
#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR 75
#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR 76
#define CU_LAUNCH_PARAM_END ((void *)0)
#define CU_LAUNCH_PARAM_BUFFER_POINTER ((void *)1)
#define CU_LAUNCH_PARAM_BUFFER_SIZE ((void *)2)
#define CUDA_ERROR_NOT_READY 600
#define GPU_TIMEOUT_DEFAULT_S 60

struct cu_api {
  void *lib;
  cu_result (*Init)(unsigned);
  cu_result (*DriverGetVersion)(int *);
  cu_result (*DeviceGetCount)(int *);
  cu_result (*DeviceGet)(cu_device *, int);
  cu_result (*DeviceGetName)(char *, int, cu_device);
  cu_result (*DeviceGetAttribute)(int *, int, cu_device);
  cu_result (*DevicePrimaryCtxRetain)(cu_context *, cu_device);
  cu_result (*DevicePrimaryCtxRelease)(cu_device);
  cu_result (*CtxSetCurrent)(cu_context);
  cu_result (*CtxSynchronize)(void);
  cu_result (*ModuleLoadDataEx)(cu_module *, const void *, unsigned, int *, void **);
  cu_result (*ModuleUnload)(cu_module);
  cu_result (*ModuleGetFunction)(cu_function *, cu_module, const char *);
  cu_result (*FuncSetAttribute)(cu_function, int, int);
  cu_result (*FuncGetAttribute)(int *, int, cu_function);   /* optional: explains refusals */
  cu_result (*MemAlloc)(cu_ptr *, size_t);
  cu_result (*MemFree)(cu_ptr);
  cu_result (*MemcpyHtoD)(cu_ptr, const void *, size_t);
  cu_result (*MemsetD8)(cu_ptr, unsigned char, size_t);
  cu_result (*MemcpyDtoH)(void *, cu_ptr, size_t);
  cu_result (*LaunchKernel)(cu_function, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                            unsigned, void *, void **, void **);
  /* optional (CUDA 12): cooperative launches and clusters */
  cu_result (*LaunchKernelEx)(const struct cu_launch_config *, cu_function, void **, void **);
  cu_result (*EventCreate)(cu_event *, unsigned);
  cu_result (*EventRecord)(cu_event, void *);
  cu_result (*EventSynchronize)(cu_event);
  cu_result (*EventQuery)(cu_event);
  cu_result (*EventElapsedTime)(float *, cu_event, cu_event);
  cu_result (*EventDestroy)(cu_event);
  cu_result (*GetErrorName)(cu_result, const char **);
  cu_result (*GetErrorString)(cu_result, const char **);
  /* optional (CUDA 12+): tensor maps for cp.async.bulk.tensor */
  cu_result (*TensorMapEncodeTiled)(void *, int, unsigned, void *, const unsigned long long *,
                                    const unsigned long long *, const unsigned *, const unsigned *,
                                    int, int, int, int);
  /* optional: texture and surface objects */
  cu_result (*Array3DCreate)(cu_array *, const struct cu_array3d_desc *);
  cu_result (*Memcpy3D)(const struct cu_memcpy3d *);
  cu_result (*TexObjectCreate)(unsigned long long *, const struct cu_resource_desc *,
                               const struct cu_texture_desc *, const void *);
  cu_result (*SurfObjectCreate)(unsigned long long *, const struct cu_resource_desc *);
  /* optional: the device heap's size (be_launch.heap_bytes) */
  cu_result (*CtxSetLimit)(int, size_t);
  /* optional: linking a module with the device runtime's library (gpu_load) */
  cu_result (*LinkCreate)(unsigned, int *, void **, void **);
  cu_result (*LinkAddData)(void *, int, void *, size_t, const char *, unsigned, int *, void **);
  cu_result (*LinkAddFile)(void *, int, const char *, unsigned, int *, void **);
  cu_result (*LinkComplete)(void *, void **, size_t *);
  cu_result (*LinkDestroy)(void *);
};
#define CU_JIT_INPUT_PTX 1
#define CU_JIT_INPUT_LIBRARY 4
#define CU_LIMIT_MALLOC_HEAP_SIZE 2
#define CU_LIMIT_STACK_SIZE 0

/* A texture or surface object this backend made over a CUDA array (be_texture). */
struct gpu_tex {
  struct sim_tex t;
  cu_array array;
};

struct gpu {
  struct cu_api api;
  cu_device dev;
  cu_context ctx;
  cu_module mod;
  const struct ptx_module *pmod;   /* the loaded PTX, decoded: what explains a refused launch */
  cu_ptr *allocs;
  uint32_t nallocs, cap;
  int broken;          /* a kernel fault left the context unusable */
  int hung;            /* a kernel did not finish in time and still runs: call the driver no
                          more (any call that waits for the GPU would wait for ever) */
  struct gpu_tex *texs; /* objects over arrays: a surface's array is copied back to its
                           resource before that memory is read */
  uint32_t ntexs, cap_texs;
  cu_ptr flush;        /* a buffer larger than the L2, rewritten between timed runs */
  size_t flush_bytes;
  int launched;        /* a launch ran: the heap's size is set */
};

static void *sym(void *lib, const char *a, const char *b)
{
  void *p = dlsym(lib, a);
  return p || !b ? p : dlsym(lib, b);
}

/* The driver library: libcuda.so.1, or the tests' stand-in named by WARPLAB_TEST_LIBCUDA
   (tests/e2e/gpuhang/fakecuda.c: a driver without a GPU whose launches can hang or crash on
   demand, so that what a hang does to a lab run is tested where there is no GPU). */
static const char *driver_library(void)
{
  const char *t = getenv("WARPLAB_TEST_LIBCUDA");
  return t && *t ? t : "libcuda.so.1";
}

int be_gpu_driver_present(void)
{
  void *lib = dlopen(driver_library(), RTLD_NOW | RTLD_LOCAL);
  if (lib)
    dlclose(lib);
  return lib != NULL;
}

static int load_api(struct cu_api *c, char *err, size_t n)
{
  c->lib = dlopen(driver_library(), RTLD_NOW | RTLD_LOCAL);
  if (!c->lib) {
    snprintf(err, n, "no NVIDIA driver: %s could not be loaded (%s); use the emulator "
             "(--backend emu)", driver_library(), dlerror());
    return -1;
  }
#define LOAD(field, name, alt) \
  if (!(*(void **)&c->field = sym(c->lib, name, alt))) { \
    snprintf(err, n, "the NVIDIA driver lacks %s; it is too old for warplab", name); \
    return -1; \
  }
  LOAD(Init, "cuInit", NULL)
  LOAD(DriverGetVersion, "cuDriverGetVersion", NULL)
  LOAD(DeviceGetCount, "cuDeviceGetCount", NULL)
  LOAD(DeviceGet, "cuDeviceGet", NULL)
  LOAD(DeviceGetName, "cuDeviceGetName", NULL)
  LOAD(DeviceGetAttribute, "cuDeviceGetAttribute", NULL)
  LOAD(DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", NULL)
  LOAD(DevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease")
  LOAD(CtxSetCurrent, "cuCtxSetCurrent", NULL)
  LOAD(CtxSynchronize, "cuCtxSynchronize", NULL)
  LOAD(ModuleLoadDataEx, "cuModuleLoadDataEx", NULL)
  LOAD(ModuleUnload, "cuModuleUnload", NULL)
  LOAD(ModuleGetFunction, "cuModuleGetFunction", NULL)
  LOAD(FuncSetAttribute, "cuFuncSetAttribute", NULL)
  *(void **)&c->FuncGetAttribute = sym(c->lib, "cuFuncGetAttribute", NULL);
  LOAD(MemAlloc, "cuMemAlloc_v2", NULL)
  LOAD(MemFree, "cuMemFree_v2", NULL)
  LOAD(MemcpyHtoD, "cuMemcpyHtoD_v2", NULL)
  LOAD(MemsetD8, "cuMemsetD8_v2", NULL)
  LOAD(MemcpyDtoH, "cuMemcpyDtoH_v2", NULL)
  LOAD(LaunchKernel, "cuLaunchKernel", NULL)
  *(void **)&c->LaunchKernelEx = sym(c->lib, "cuLaunchKernelEx", NULL);
  *(void **)&c->CtxSetLimit = sym(c->lib, "cuCtxSetLimit", NULL);
  *(void **)&c->LinkCreate = sym(c->lib, "cuLinkCreate_v2", "cuLinkCreate");
  *(void **)&c->LinkAddData = sym(c->lib, "cuLinkAddData_v2", "cuLinkAddData");
  *(void **)&c->LinkAddFile = sym(c->lib, "cuLinkAddFile_v2", "cuLinkAddFile");
  *(void **)&c->LinkComplete = sym(c->lib, "cuLinkComplete", NULL);
  *(void **)&c->LinkDestroy = sym(c->lib, "cuLinkDestroy", NULL);
  LOAD(EventCreate, "cuEventCreate", NULL)
  LOAD(EventRecord, "cuEventRecord", NULL)
  LOAD(EventSynchronize, "cuEventSynchronize", NULL)
  LOAD(EventQuery, "cuEventQuery", NULL)
  LOAD(EventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime")
  LOAD(EventDestroy, "cuEventDestroy_v2", "cuEventDestroy")
  LOAD(GetErrorName, "cuGetErrorName", NULL)
  LOAD(GetErrorString, "cuGetErrorString", NULL)
  *(void **)&c->TensorMapEncodeTiled = sym(c->lib, "cuTensorMapEncodeTiled", NULL);
  *(void **)&c->Array3DCreate = sym(c->lib, "cuArray3DCreate_v2", NULL);
  *(void **)&c->Memcpy3D = sym(c->lib, "cuMemcpy3D_v2", NULL);
  *(void **)&c->TexObjectCreate = sym(c->lib, "cuTexObjectCreate", NULL);
  *(void **)&c->SurfObjectCreate = sym(c->lib, "cuSurfObjectCreate", NULL);
#undef LOAD
  return 0;
}

/* The GPU time limit of one launch: WARPLAB_GPU_TIMEOUT seconds, default 60 (a lab's kernels
   take milliseconds; a minute is for a student's slow first attempt, not a hang). */
static unsigned gpu_timeout_s(void)
{
  const char *t = getenv("WARPLAB_GPU_TIMEOUT");
  char *end = NULL;
  long s = t ? strtol(t, &end, 10) : 0;
  return t && end != t && !*end && s > 0 && s < 86400 ? (unsigned)s : GPU_TIMEOUT_DEFAULT_S;
}

/* Wait for the work recorded before event ev, at most limit_s seconds. The event is polled,
   with naps from 2 us growing to 1 ms (a kernel's time is the events', so the naps do not
   change it), rather than waited for in cuCtxSynchronize, which would not come back from a
   kernel that never ends. Returns 0 with *r the outcome (0, or the kernel's CUDA error), or 1
   when the time is up with the kernel still running. */
static int wait_kernel(struct gpu *g, cu_event ev, unsigned limit_s, cu_result *r)
{
  struct timespec t0, now, nap = {0, 2000};
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (;;) {
    cu_result q = g->api.EventQuery(ev);
    if (q != CUDA_ERROR_NOT_READY) {
      *r = q == 0 ? g->api.CtxSynchronize() : q;  /* done: the context's own verdict */
      return 0;
    }
    clock_gettime(CLOCK_MONOTONIC, &now);
    if ((double)(now.tv_sec - t0.tv_sec) + (double)(now.tv_nsec - t0.tv_nsec) * 1e-9 >= limit_s)
      return 1;
    nanosleep(&nap, NULL);
    if (nap.tv_nsec < 1000000)
      nap.tv_nsec *= 2;
  }
}

/* A launch that did not finish in time: the backend is hung from now on (struct gpu). */
static void hung(struct gpu *g, unsigned limit_s, char *msg, size_t n)
{
  g->hung = 1;
  g->broken = 1;
  snprintf(msg, n, "the kernel did not finish within %u s (WARPLAB_GPU_TIMEOUT): it may loop "
           "forever or deadlock (a loop whose end never comes, a lock or a barrier some threads "
           "never reach). A GPU cannot stop a running kernel: it holds the GPU until warplab's "
           "process ends, so nothing more ran on the GPU after it. Rerun it on the emulator "
           "(--backend emu) to see which threads wait where", limit_s);
}

static const char no_more[] = "the GPU is still running an earlier kernel that did not finish: "
                              "nothing more can run on it in this process";

/* "cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (out of memory)" */
static void cu_msg(const struct cu_api *c, const char *what, cu_result r, char *err, size_t n)
{
  const char *name = "CUDA_ERROR_UNKNOWN", *text = "unknown error";
  if (c->GetErrorName)
    c->GetErrorName(r, &name);
  if (c->GetErrorString)
    c->GetErrorString(r, &text);
  snprintf(err, n, "%s: %s (%s)", what, name ? name : "?", text ? text : "?");
}

static enum be_status gpu_open(void **impl, char *desc, size_t desclen, char *err, size_t errlen)
{
  struct gpu *g = calloc(1, sizeof *g);
  if (!g) {
    snprintf(err, errlen, "out of host memory");
    return BE_ERR_NOMEM;
  }
  struct cu_api *c = &g->api;
  if (load_api(c, err, errlen))
    goto unavailable;
  cu_result r;
  int count = 0, ver = 0;
  if ((r = c->Init(0)) != 0) {
    cu_msg(c, "cuInit", r, err, errlen);
    goto unavailable;
  }
  if ((r = c->DeviceGetCount(&count)) != 0 || count == 0) {
    snprintf(err, errlen, "the NVIDIA driver sees no GPU; use the emulator (--backend emu)");
    goto unavailable;
  }
  if ((r = c->DeviceGet(&g->dev, 0)) != 0 || (r = c->DevicePrimaryCtxRetain(&g->ctx, g->dev)) != 0 ||
      (r = c->CtxSetCurrent(g->ctx)) != 0) {
    cu_msg(c, "opening the GPU", r, err, errlen);
    goto unavailable;
  }
  char name[128] = "?";
  int maj = 0, min = 0, sms = 0;
  c->DeviceGetName(name, sizeof name, g->dev);
  c->DeviceGetAttribute(&maj, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, g->dev);
  c->DeviceGetAttribute(&min, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, g->dev);
  c->DeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, g->dev);
  c->DriverGetVersion(&ver);
  snprintf(desc, desclen, "%s (sm_%d%d, %d SMs), CUDA driver %d.%d", name, maj, min, sms,
           ver / 1000, ver % 1000 / 10);
  *impl = g;
  return BE_OK;
unavailable:
  if (c->lib)
    dlclose(c->lib);
  free(g);
  return BE_ERR_UNAVAILABLE;
}

/* The device runtime's library (libcudadevrt.a), into path: $WARPLAB_CUDADEVRT, else beside
   the toolkit ($CUDA_HOME, /usr/local/cuda: lib64, lib, targets/<arch>/lib), else
   /usr/local/lib. Returns 0, or -1 when there is none. */
static int find_devrt(char *path, size_t n)
{
  const char *env = getenv("WARPLAB_CUDADEVRT");
  if (env && *env) {
    snprintf(path, n, "%s", env);
    return access(path, R_OK) ? -1 : 0;
  }
  const char *home = getenv("CUDA_HOME");
  const char *roots[] = {home && *home ? home : "/usr/local/cuda", "/usr/local/cuda"};
  const char *subs[] = {"lib64", "lib", "targets/x86_64-linux/lib", "targets/sbsa-linux/lib"};
  for (size_t r = 0; r < sizeof roots / sizeof *roots; r++)
    for (size_t k = 0; k < sizeof subs / sizeof *subs; k++) {
      snprintf(path, n, "%s/%s/libcudadevrt.a", roots[r], subs[k]);
      if (!access(path, R_OK))
        return 0;
    }
  snprintf(path, n, "/usr/local/lib/libcudadevrt.a");
  return access(path, R_OK) ? -1 : 0;
}

/* Load text (NUL-terminated PTX) linked with the device runtime's library lib (cuLinkCreate,
   the PTX, the library, cuLinkComplete, then the linked cubin), as nvcc -rdc links a program
   that calls device-runtime functions the JIT does not provide itself (a kernel launch from
   the device: __cudaCDP2LaunchDeviceV2 ...). The linker's error log goes to log. */
static cu_result link_devrt(struct gpu *g, const char *text, size_t len, const char *lib,
                            char *log, size_t loglen)
{
  int opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *vals[] = {log, (void *)(uintptr_t)loglen};
  void *state = NULL, *cubin = NULL;
  size_t size = 0;
  log[0] = 0;
  cu_result r = g->api.LinkCreate(2, opts, vals, &state);
  if (r != 0)
    return r;
  r = g->api.LinkAddData(state, CU_JIT_INPUT_PTX, (void *)text, len + 1, "kernel.ptx", 0, NULL,
                         NULL);
  if (r == 0)
    r = g->api.LinkAddFile(state, CU_JIT_INPUT_LIBRARY, lib, 0, NULL, NULL);
  if (r == 0)
    r = g->api.LinkComplete(state, &cubin, &size);
  if (r == 0)
    r = g->api.ModuleLoadDataEx(&g->mod, cubin, 0, NULL, NULL);
  g->api.LinkDestroy(state);               /* the cubin is the link state's */
  return r;
}

static enum be_status gpu_load(void *impl, const char *ptx, size_t len, const struct ptx_module *m,
                               char *err, size_t errlen)
{
  struct gpu *g = impl;
  if (g->hung) {
    snprintf(err, errlen, "%s", no_more);
    return BE_ERR_DEVICE;
  }
  char *text = malloc(len + 1), log[8192] = "";
  if (!text)
    return BE_ERR_NOMEM;
  memcpy(text, ptx, len);
  text[len] = 0;
  int opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *vals[] = {log, (void *)(uintptr_t)sizeof log};
  cu_result r = g->api.ModuleLoadDataEx(&g->mod, text, 2, opts, vals);
  char lib[512];
  if (r != 0 && strstr(log, "Unresolved extern function") && g->api.LinkCreate &&
      g->api.LinkAddData && g->api.LinkAddFile && g->api.LinkComplete && g->api.LinkDestroy &&
      !find_devrt(lib, sizeof lib))
    r = link_devrt(g, text, len, lib, log, sizeof log);   /* a device-runtime function */
  free(text);
  if (r != 0) {
    char m2[256];
    cu_msg(&g->api, "loading the PTX", r, m2, sizeof m2);
    snprintf(err, errlen, "%s%s%s", m2, log[0] ? ": " : "", log);
    return BE_ERR_LOAD;
  }
  g->pmod = m;
  return BE_OK;
}

static enum be_status gpu_alloc(void *impl, uint64_t size, const char *name, uint64_t *addr)
{
  struct gpu *g = impl;
  if (g->hung)
    return BE_ERR_DEVICE;
  if (g->nallocs == g->cap) {
    uint32_t cap = g->cap ? g->cap * 2 : 16;
    cu_ptr *a = realloc(g->allocs, cap * sizeof *a);
    if (!a)
      return BE_ERR_NOMEM;
    g->allocs = a;
    g->cap = cap;
  }
  cu_ptr p = 0;
  if (g->api.MemAlloc(&p, size ? size : 1) != 0)
    return BE_ERR_DEVICE;
  g->allocs[g->nallocs++] = p;
  *addr = p;
  return BE_OK;
}

static enum be_status gpu_free(void *impl, uint64_t addr)
{
  struct gpu *g = impl;
  if (g->hung)                 /* cuMemFree waits for the GPU; the process's end frees it */
    return BE_ERR_DEVICE;
  for (uint32_t i = 0; i < g->nallocs; i++)
    if (g->allocs[i] == addr) {
      g->api.MemFree(addr);
      g->allocs[i] = g->allocs[--g->nallocs];
      return BE_OK;
    }
  return BE_ERR_BADARG;
}

static enum be_status gpu_write(void *impl, uint64_t addr, const void *src, uint64_t n)
{
  struct gpu *g = impl;
  return !g->hung && g->api.MemcpyHtoD(addr, src, n) == 0 ? BE_OK : BE_ERR_DEVICE;
}

/* A copy between t's resource in device memory and its array (to_array, else back). */
static cu_result tex_copy(struct gpu *g, const struct gpu_tex *x, int to_array)
{
  struct cu_memcpy3d c;
  memset(&c, 0, sizeof c);
  if (to_array) {
    c.src_type = CU_MEMORYTYPE_DEVICE;
    c.src_dev = x->t.addr;
    c.src_pitch = x->t.pitch;
    c.src_height = x->t.height;
    c.dst_type = CU_MEMORYTYPE_ARRAY;
    c.dst_array = x->array;
  } else {
    c.src_type = CU_MEMORYTYPE_ARRAY;
    c.src_array = x->array;
    c.dst_type = CU_MEMORYTYPE_DEVICE;
    c.dst_dev = x->t.addr;
    c.dst_pitch = x->t.pitch;
    c.dst_height = x->t.height;
  }
  c.width_bytes = (size_t)x->t.width * sim_tex_texel_size(&x->t);
  c.height = x->t.height;
  c.depth = x->t.depth;
  return g->api.Memcpy3D(&c);
}

static enum be_status gpu_read(void *impl, uint64_t addr, void *dst, uint64_t n)
{
  struct gpu *g = impl;
  if (g->hung)
    return BE_ERR_DEVICE;
  for (uint32_t i = 0; i < g->ntexs; i++) {    /* surfaces: what the kernels stored */
    const struct gpu_tex *x = &g->texs[i];
    if (x->t.surface && x->t.addr < addr + n && addr < x->t.addr + sim_tex_span(&x->t) &&
        tex_copy(g, x, 0) != 0)
      return BE_ERR_DEVICE;
  }
  return g->api.MemcpyDtoH(dst, addr, n) == 0 ? BE_OK : BE_ERR_DEVICE;
}

/* The kernel's function, allowed the launch's dynamic shared memory. */
static enum be_status kernel_function(struct gpu *g, const char *kernel, const struct be_launch *l,
                                      cu_function *f, char *err, size_t errlen)
{
  struct cu_api *c = &g->api;
  cu_result r;
  if (g->broken) {
    snprintf(err, errlen, "%s", g->hung ? no_more
             : "the GPU context is unusable after an earlier kernel fault");
    return BE_ERR_DEVICE;
  }
  if ((r = c->ModuleGetFunction(f, g->mod, kernel)) != 0) {
    cu_msg(c, "finding the kernel", r, err, errlen);
    return BE_ERR_BADARG;
  }
  if (l->dyn_smem > 48 * 1024 &&
      (r = c->FuncSetAttribute(*f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)l->dyn_smem)) != 0) {
    cu_msg(c, "allowing the dynamic shared memory", r, err, errlen);
    return BE_ERR_BADARG;
  }
  return BE_OK;
}

/* Why the driver refused launching f with l: the emulator's check (sim_launch_check), fed
   with what the driver says of the function (its registers and static shared memory), so that
   a refusal reads the same on both backends. 1 with the reason in err, 0 when the check
   finds none (the driver's own words stay). */
static int explain_refusal(struct gpu *g, const char *kernel, cu_function f,
                           const struct be_launch *l, char *err, size_t errlen)
{
  int fi = g->pmod ? ptx_find_func(g->pmod, kernel) : -1;
  if (fi < 0)
    return 0;
  int regs = 0, smem = 0;
  if (g->api.FuncGetAttribute) {
    if (g->api.FuncGetAttribute(&regs, 4 /* CU_FUNC_ATTRIBUTE_NUM_REGS */, f) != 0)
      regs = 0;
    if (g->api.FuncGetAttribute(&smem, 1 /* CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES */, f) != 0)
      smem = 0;
  }
  struct sim_launch c = {
    .dyn_smem = l->dyn_smem, .warp_size = 32, .max_threads = l->max_threads,
    .regs_per_thread = regs > 0 ? (uint32_t)regs : l->regs_per_thread,
    .regs_per_block = l->regs_per_block, .reg_alloc_unit = l->reg_alloc_unit,
    .max_smem = l->max_smem, .cooperative = l->cooperative,
    .coop_blocks_per_sm = l->coop_blocks_per_sm, .sm_count = l->sm_count,
  };
  memcpy(c.grid, l->grid, sizeof c.grid);
  memcpy(c.block, l->block, sizeof c.block);
  memcpy(c.cluster, l->cluster, sizeof c.cluster);
  return sim_launch_check(g->pmod, fi, &c, smem > 0 ? (uint32_t)smem : 0, err, errlen) != SIM_OK;
}

/* Launch f with l: cuLaunchKernel, or cuLaunchKernelEx with the cooperative attribute (the
   kernel uses grid.sync(), or l asks for it) and the cluster dimension l names (a kernel's
   own __cluster_dims__ needs none; the driver judges one that contradicts it).
   Both take the parameters one by one (kernelParams), from the packed buffer by the kernel's
   layout: a tensor map passed by value (const __grid_constant__ CUtensorMap) handed over as
   one packed buffer (CU_LAUNCH_PARAM_BUFFER_POINTER) made the H100 stop the kernel with an
   illegal instruction at its first tensor copy, where kernelParams runs it (tests/gpu
   results: tma_params against tma_buffer). */
static cu_result launch(struct gpu *g, const char *kernel, cu_function f, const void *params,
                        size_t psize, const struct be_launch *l)
{
  struct cu_api *c = &g->api;
  if (!g->launched && l->heap_bytes) {   /* before any kernel that mallocs, as CUDA needs */
    cu_result r = c->CtxSetLimit ? c->CtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, l->heap_bytes)
                                 : 801;  /* CUDA_ERROR_NOT_SUPPORTED */
    if (r != 0)
      return r;
  }
  if (l->stack_bytes) {                  /* the call stack recursion uses */
    cu_result r = c->CtxSetLimit ? c->CtxSetLimit(CU_LIMIT_STACK_SIZE, l->stack_bytes) : 801;
    if (r != 0)
      return r;
  }
  g->launched = 1;
  int fi = g->pmod ? ptx_find_func(g->pmod, kernel) : -1;
  int coop = l->cooperative || (fi >= 0 && sim_kernel_cooperative(g->pmod, fi));
  int cluster = l->cluster[0] != 0;
  size_t sz = psize;
  void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, (void *)params, CU_LAUNCH_PARAM_BUFFER_SIZE,
                   &sz, CU_LAUNCH_PARAM_END};
  uint32_t off[256], size[256], total = 0;
  int np = fi >= 0 ? sim_param_layout(g->pmod, fi, off, size, 256, &total) : -1;
  void *args[256];
  for (int i = 0; i < np && i < 256; i++)
    args[i] = (uint8_t *)params + off[i];
  if (!coop && !cluster) {
    if (np < 0 || np > 256)
      return c->LaunchKernel(f, l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1],
                             l->block[2], l->dyn_smem, NULL, NULL, extra);
    return c->LaunchKernel(f, l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1],
                           l->block[2], l->dyn_smem, NULL, args, NULL);
  }
  if (!c->LaunchKernelEx || fi < 0)
    return 801;                         /* CUDA_ERROR_NOT_SUPPORTED */
  if (np < 0 || np > 256)
    return 1;                           /* CUDA_ERROR_INVALID_VALUE */
  struct cu_launch_attr at[2];
  memset(at, 0, sizeof at);
  unsigned na = 0;
  if (coop) {
    at[na].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
    at[na++].value.cooperative = 1;
  }
  if (cluster) {
    at[na].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    at[na].value.cluster.x = l->cluster[0];
    at[na].value.cluster.y = l->cluster[1] ? l->cluster[1] : 1;
    at[na++].value.cluster.z = l->cluster[2] ? l->cluster[2] : 1;
  }
  struct cu_launch_config cfg = {
    .grid = {l->grid[0], l->grid[1], l->grid[2]}, .block = {l->block[0], l->block[1], l->block[2]},
    .smem = l->dyn_smem, .attrs = at, .nattrs = na,
  };
  return c->LaunchKernelEx(&cfg, f, args, NULL);
}

static enum be_status gpu_launch(void *impl, const char *kernel, const void *params, size_t psize,
                                 const struct be_launch *l, struct be_result *res, char *err,
                                 size_t errlen)
{
  struct gpu *g = impl;
  struct cu_api *c = &g->api;
  cu_function f;
  cu_result r;
  enum be_status st0 = kernel_function(g, kernel, l, &f, err, errlen);
  if (st0 != BE_OK)
    return st0;
  cu_event e0 = NULL, e1 = NULL;
  c->EventCreate(&e0, 0);
  c->EventCreate(&e1, 0);
  c->EventRecord(e0, NULL);
  r = launch(g, kernel, f, params, psize, l);
  if (r != 0) {
    if (!explain_refusal(g, kernel, f, l, err, errlen))
      cu_msg(c, "launching the kernel", r, err, errlen);
    c->EventDestroy(e0);
    c->EventDestroy(e1);
    return BE_ERR_BADARG;
  }
  c->EventRecord(e1, NULL);
  unsigned limit = gpu_timeout_s();
  if (wait_kernel(g, e1, limit, &r)) {
    hung(g, limit, res->gpu_error, sizeof res->gpu_error);
    res->timed_out = 1;
    res->ran_ok = 0;
    return BE_OK;              /* the events stay: destroying them is a call to the driver */
  }
  if (r != 0) {
    cu_msg(c, "the kernel failed", r, res->gpu_error, sizeof res->gpu_error);
    size_t k = strlen(res->gpu_error);
    snprintf(res->gpu_error + k, sizeof res->gpu_error - k,
             "; rerun it on the emulator (--backend emu) to see the thread and source line");
    g->broken = 1;
    res->ran_ok = 0;
    return BE_OK;
  }
  float ms = 0;
  if (c->EventSynchronize(e1) == 0 && c->EventElapsedTime(&ms, e0, e1) == 0)
    res->gpu_ms = ms;
  c->EventDestroy(e0);
  c->EventDestroy(e1);
  res->ran_ok = 1;
  return BE_OK;
}

/* The SM clock now, from NVML when the driver ships it; 0 when unknown. */
static uint32_t sm_clock_mhz(void)
{
  void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    return 0;
  int (*init)(void) = NULL, (*shutdown)(void) = NULL;
  int (*handle)(unsigned, void **) = NULL;
  int (*clock)(void *, int, unsigned *) = NULL;
  *(void **)&init = dlsym(lib, "nvmlInit_v2");
  *(void **)&shutdown = dlsym(lib, "nvmlShutdown");
  *(void **)&handle = dlsym(lib, "nvmlDeviceGetHandleByIndex_v2");
  *(void **)&clock = dlsym(lib, "nvmlDeviceGetClockInfo");
  unsigned mhz = 0;
  void *dev = NULL;
  if (init && handle && clock && init() == 0) {
    if (handle(0, &dev) != 0 || clock(dev, NVML_CLOCK_SM, &mhz) != 0)
      mhz = 0;
    if (shutdown)
      shutdown();
  }
  dlclose(lib);
  return mhz;
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static enum be_status gpu_time(void *impl, const char *kernel, const void *params, size_t psize,
                               const struct be_launch *l, double rse_target, uint32_t max_reps,
                               double max_seconds, struct be_timing *t, char *err, size_t errlen)
{
  struct gpu *g = impl;
  struct cu_api *c = &g->api;
  cu_function f;
  cu_result r;
  enum be_status st0 = kernel_function(g, kernel, l, &f, err, errlen);
  if (st0 != BE_OK)
    return st0;
  if (!g->flush) {
    int l2 = 0;
    c->DeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, g->dev);
    g->flush_bytes = (size_t)(l2 > 0 ? l2 : 64 << 20) * 2;
    if (c->MemAlloc(&g->flush, g->flush_bytes) != 0) {
      g->flush = 0;
      snprintf(err, errlen, "cannot allocate %zu bytes to flush the L2 between runs", g->flush_bytes);
      return BE_ERR_DEVICE;
    }
  }
  if (max_reps < 3)
    max_reps = 3;
  double *ms = calloc(max_reps, sizeof *ms);
  if (!ms)
    return BE_ERR_NOMEM;
  cu_event e0 = NULL, e1 = NULL;
  c->EventCreate(&e0, 0);
  c->EventCreate(&e1, 0);
  enum be_status st = BE_OK;
  double total = 0, sum = 0, sum2 = 0;
  uint32_t n = 0;
  unsigned limit = gpu_timeout_s();
  for (int rep = -1; (uint32_t)n < max_reps; rep++) {
    c->MemsetD8(g->flush, (unsigned char)rep, g->flush_bytes);
    c->EventRecord(e0, NULL);
    r = launch(g, kernel, f, params, psize, l);
    c->EventRecord(e1, NULL);
    if (r == 0 && wait_kernel(g, e1, limit, &r)) {
      hung(g, limit, err, errlen);
      free(ms);
      return BE_ERR_TIMEOUT;   /* the events stay, as in gpu_launch */
    }
    float x = 0;
    if (r == 0)
      r = c->EventElapsedTime(&x, e0, e1);
    if (r != 0) {
      cu_msg(c, "timing the kernel", r, err, errlen);
      g->broken = 1;
      st = BE_ERR_DEVICE;
      break;
    }
    if (rep < 0)
      continue;                               /* the warm-up run */
    ms[n++] = x;
    sum += x;
    sum2 += (double)x * x;
    total += x / 1000.0;
    if (n >= 5) {
      double mean = sum / n, var = (sum2 - n * mean * mean) / (n - 1);
      double rse = var > 0 && mean > 0 ? 100.0 * sqrt(var / n) / mean : 0;
      t->rse_pct = rse;
      if (rse < rse_target || total > max_seconds)
        break;
    }
  }
  c->EventDestroy(e0);
  c->EventDestroy(e1);
  if (st == BE_OK && n) {
    qsort(ms, n, sizeof *ms, cmp_double);
    t->median_ms = n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2;
    t->min_ms = ms[0];
    t->max_ms = ms[n - 1];
    t->reps = n;
    t->sm_clock_mhz = sm_clock_mhz();
  }
  free(ms);
  return st;
}

static void gpu_close(void *impl)
{
  struct gpu *g = impl;
  if (!g)
    return;
  if (g->hung) {               /* every call below would wait for the kernel that hangs */
    free(g->allocs);
    free(g->texs);
    free(g);
    return;
  }
  if (!g->broken) {
    for (uint32_t i = 0; i < g->nallocs; i++)
      g->api.MemFree(g->allocs[i]);
    if (g->flush)
      g->api.MemFree(g->flush);
    if (g->mod)
      g->api.ModuleUnload(g->mod);
  }
  g->api.DevicePrimaryCtxRelease(g->dev);
  free(g->allocs);
  free(g->texs);
  free(g);
}

/* cuTensorMapEncodeTiled with t's fields (a CUtensorMap: 128 bytes, 64-byte aligned). */
static enum be_status gpu_tensor_map(void *impl, const struct sim_tmap *t, uint8_t *map, char *err,
                                     size_t errlen)
{
  struct gpu *g = impl;
  _Alignas(64) uint8_t m[SIM_TMAP_BYTES];
  unsigned long long dims[SIM_TMAP_MAX_RANK], strides[SIM_TMAP_MAX_RANK];
  unsigned box[SIM_TMAP_MAX_RANK], es[SIM_TMAP_MAX_RANK];
  if (g->hung) {
    snprintf(err, errlen, "%s", no_more);
    return BE_ERR_DEVICE;
  }
  if (!g->api.TensorMapEncodeTiled) {
    snprintf(err, errlen, "the NVIDIA driver lacks cuTensorMapEncodeTiled (CUDA 12 or later)");
    return BE_ERR_DEVICE;
  }
  for (unsigned d = 0; d < SIM_TMAP_MAX_RANK; d++) {
    dims[d] = t->dims[d];
    strides[d] = d + 1 < SIM_TMAP_MAX_RANK ? t->strides[d] : 0;
    box[d] = t->box[d];
    es[d] = t->estrides[d];
  }
  cu_result r = g->api.TensorMapEncodeTiled(m, (int)t->dtype, t->rank, (void *)(uintptr_t)t->addr, dims,
                                            strides, box, es, (int)t->interleave, (int)t->swizzle,
                                            (int)t->l2promo, (int)t->oobfill);
  if (r) {
    cu_msg(&g->api, "cuTensorMapEncodeTiled", r, err, errlen);
    return BE_ERR_BADARG;
  }
  memcpy(map, m, sizeof m);
  return BE_OK;
}

/* cuTexObjectCreate / cuSurfObjectCreate over t: a linear or pitch2D texture reads t's memory
   itself; an array resource is a CUDA array (layered, cube map, surface load/store as t
   says) filled from it. */
static enum be_status gpu_texture(void *impl, const struct sim_tex *t, uint64_t *handle, char *err,
                                  size_t errlen)
{
  struct gpu *g = impl;
  struct cu_api *c = &g->api;
  static const int fmts[3][3] = {{0x01, 0x02, 0x03}, {0x08, 0x09, 0x0a}, {0, 0x10, 0x20}};
  int fmt = fmts[t->kind % 3][t->bits == 8 ? 0 : t->bits == 16 ? 1 : 2];
  cu_result r;
  if (g->hung || g->broken) {
    snprintf(err, errlen, "%s", g->hung ? no_more : "the GPU context is unusable after an earlier kernel fault");
    return BE_ERR_DEVICE;
  }
  if (!c->Array3DCreate || !c->Memcpy3D || !c->TexObjectCreate || !c->SurfObjectCreate) {
    snprintf(err, errlen, "the NVIDIA driver lacks texture and surface objects");
    return BE_ERR_DEVICE;
  }
  struct cu_resource_desc rd;
  memset(&rd, 0, sizeof rd);
  if (t->res == SIM_TEX_RES_LINEAR) {
    rd.type = CU_RESOURCE_TYPE_LINEAR;
    rd.res.linear.dev = t->addr;
    rd.res.linear.format = fmt;
    rd.res.linear.nchan = t->nchan;
    rd.res.linear.bytes = (size_t)t->width * sim_tex_texel_size(t);
  } else if (t->res == SIM_TEX_RES_PITCH2D) {
    rd.type = CU_RESOURCE_TYPE_PITCH2D;
    rd.res.pitch2d.dev = t->addr;
    rd.res.pitch2d.format = fmt;
    rd.res.pitch2d.nchan = t->nchan;
    rd.res.pitch2d.width = t->width;
    rd.res.pitch2d.height = t->height;
    rd.res.pitch2d.pitch = t->pitch;
  } else {
    struct cu_array3d_desc ad;
    struct gpu_tex x;
    memset(&ad, 0, sizeof ad);
    ad.width = t->width;
    ad.height = t->geom == SIM_TEX_1D || t->geom == SIM_TEX_A1D ? 0 : t->height;
    ad.depth = t->geom == SIM_TEX_1D || t->geom == SIM_TEX_2D ? 0 : t->depth;
    ad.format = fmt;
    ad.nchan = t->nchan;
    ad.flags = (t->geom == SIM_TEX_A1D || t->geom == SIM_TEX_A2D || t->geom == SIM_TEX_ACUBE
                ? CUDA_ARRAY3D_LAYERED : 0u) |
               (t->geom >= SIM_TEX_CUBE ? CUDA_ARRAY3D_CUBEMAP : 0u) |
               (t->surface ? CUDA_ARRAY3D_SURFACE_LDST : 0u);
    x.t = *t;
    if ((r = c->Array3DCreate(&x.array, &ad)) != 0) {
      cu_msg(c, "cuArray3DCreate", r, err, errlen);
      return BE_ERR_BADARG;
    }
    if ((r = tex_copy(g, &x, 1)) != 0) {
      cu_msg(c, "cuMemcpy3D into the array", r, err, errlen);
      return BE_ERR_DEVICE;
    }
    if (g->ntexs == g->cap_texs) {
      uint32_t cap = g->cap_texs ? 2 * g->cap_texs : 8;
      struct gpu_tex *nt = realloc(g->texs, cap * sizeof *nt);
      if (!nt) {
        snprintf(err, errlen, "out of host memory");
        return BE_ERR_NOMEM;
      }
      g->texs = nt;
      g->cap_texs = cap;
    }
    g->texs[g->ntexs++] = x;
    rd.type = CU_RESOURCE_TYPE_ARRAY;
    rd.res.array.array = x.array;
  }
  unsigned long long h = 0;
  if (t->surface) {
    r = c->SurfObjectCreate(&h, &rd);
  } else {
    struct cu_texture_desc td;
    memset(&td, 0, sizeof td);
    for (int k = 0; k < 3; k++)
      td.addr_mode[k] = t->addr_mode[k];          /* CUaddress_mode's numbering */
    td.filter = t->linear;
    td.flags = (t->norm_coords ? CU_TRSF_NORMALIZED_COORDINATES : 0u) |
               (t->kind != SIM_TEX_FLOAT && !t->read_norm ? CU_TRSF_READ_AS_INTEGER : 0u);
    r = c->TexObjectCreate(&h, &rd, &td, NULL);
  }
  if (r) {
    cu_msg(c, t->surface ? "cuSurfObjectCreate" : "cuTexObjectCreate", r, err, errlen);
    return BE_ERR_BADARG;
  }
  *handle = h;
  return BE_OK;
}

const struct be_ops be_cuda_ops = {
  .kind = BE_GPU, .open = gpu_open, .load = gpu_load, .alloc = gpu_alloc, .free = gpu_free,
  .write = gpu_write, .read = gpu_read, .launch = gpu_launch, .time = gpu_time,
  .tensor_map = gpu_tensor_map, .texture = gpu_texture, .close = gpu_close,
};
