/* be.h: where a kernel runs: one interface, two implementations.
 *
 *   emu  warplab's SIMT emulator (harness/sim): always there; faults come back with lines.
 *   gpu  a real NVIDIA GPU through the CUDA driver API, loaded at run time with dlopen
 *        ("libcuda.so.1"), so one binary runs on machines with or without a driver.
 *
 * Both take the same PTX text, the same packed parameter buffer and the same launch shape,
 * so a lab runs unchanged on either.
 */
#ifndef WARPLAB_BE_H
#define WARPLAB_BE_H

#include <stddef.h>
#include <stdint.h>

#include "metrics/occ.h"
#include "ptx/ptx.h"
#include "sim/sim.h"

enum be_kind { BE_EMU = 0, BE_GPU };

enum be_status {
  BE_OK = 0,
  BE_ERR_UNAVAILABLE, /* no driver or no device (gpu) */
  BE_ERR_LOAD,        /* the PTX did not load (JIT log in the message) */
  BE_ERR_BADARG,      /* bad launch shape, arguments, unknown kernel */
  BE_ERR_DEVICE,      /* a device call failed (message names it and the CUDA error) */
  BE_ERR_NOMEM,
  BE_ERR_TIMEOUT      /* gpu: a timed launch did not finish within WARPLAB_GPU_TIMEOUT (be_time) */
};

struct be_launch {
  uint32_t grid[3], block[3];
  uint32_t dyn_smem;
  enum sim_sched sched;       /* emu only */
  uint32_t warp_size;         /* emu only: 32 or 64 */
  uint32_t workers;           /* emu only: host threads, 0 = all cores */
  const int *hold;            /* emu only: the last of them waits for *hold (sim_launch.hold) */
  int reverse;                /* emu only: blocks and warps in reverse order (sim_launch) */
  uint64_t max_warp_insts;    /* emu only */
  uint32_t trace_every;       /* emu only: blocks recorded for the timing model (harness/timing, */
  uint32_t trace_blocks;      /*   struct tm_plan); 0: none */
  uint32_t trace_wave;        /* emu only: blocks resident GPU-wide (sim_launch.trace_wave) */
  int lanes;                  /* emu only: keep the lane log of warp lanes_warp of the block */
  uint32_t lanes_block;       /*   whose linear index is lanes_block (struct sim_lanes) */
  uint32_t lanes_warp;
  /* The GPU's limits (the architecture profile) and the kernel's registers (ptxas), which a
     launch is checked against (sim_launch_check) on the emulator as the driver checks it on
     a GPU, and with which the GPU backend explains a launch the driver refused; 0 means the
     default (1024 threads, 64 K registers in units of 256, 227 KiB of shared memory) or, for
     regs_per_thread, not known (no register check). */
  uint32_t max_threads;
  uint32_t regs_per_thread;
  uint32_t regs_per_block;
  uint32_t reg_alloc_unit;
  uint32_t max_smem;
  uint32_t smem_alloc_unit;
  uint32_t resident_blocks;   /* emu only: blocks the GPU holds at once (sim_launch's); 0: the
                                 emulator's default */
  /* Cooperative launches and clusters (both backends). A kernel that uses grid.sync() (reads
     %envreg: sim_kernel_cooperative) is launched cooperatively whatever cooperative says;
     cluster is the launch's cluster dimension (0: none; a kernel's __cluster_dims__ needs
     none). The emulator refuses a cooperative grid of more than coop_blocks_per_sm x
     sm_count blocks, as the GPU does (0: unknown, no check). */
  int cooperative;
  uint32_t cluster[3];
  uint32_t coop_blocks_per_sm;
  uint32_t sm_count;
  /* The device heap of in-kernel malloc/new (cudaLimitMallocHeapSize), both backends: set
     before the first launch of the session; 0: CUDA's default, 8 MiB. */
  uint64_t heap_bytes;
  /* emu only: the order warps and blocks run in (sim_launch.order_seed); 0: the fixed order.
     The GPU backend refuses a launch with another (BE_ERR_BADARG). */
  uint64_t order_seed;
  /* A thread's call stack (cudaLimitStackSize), both backends, set before the launch;
     0: CUDA's default, 1 KiB. Recursive device functions use it. */
  uint64_t stack_bytes;
  /* emu only: ptxas's stack frames of the module's device functions (sim_launch.frames), what
     each activation of a recursive one takes from that stack; NULL, 0: not known (the
     emulator estimates them) */
  const struct sim_frame *frames;
  uint32_t nframes;
};

/* Set l's limits from the architecture profile p (NULL: the defaults) and the kernel's
   registers a thread, static shared memory and barriers from ptxas (0: unknown), and the
   blocks of it
   the profile's GPU holds at once (its SMs times the occupancy calculator's blocks an SM),
   from l's block and dynamic shared memory. */
static inline void be_launch_limits(struct be_launch *l, const struct occ_profile *p, int regs,
                                    int static_smem, int barriers)
{
  l->resident_blocks = 0;
  if (p && p->sm_count > 0) {
    struct occ_input in = occ_input_default();
    struct occ_result r;
    struct occ_error e;
    in.regs_per_thread = regs;
    in.static_smem = static_smem;
    in.dyn_smem = (int)l->dyn_smem;
    in.block_threads = (int)(l->block[0] * l->block[1] * l->block[2]);
    if (barriers > 0)
      in.barriers = barriers;
    if (occ_compute(p, &in, &r, &e) == OCC_OK && r.active_blocks > 0)
      l->resident_blocks = (uint32_t)r.active_blocks * (uint32_t)p->sm_count;
  }
  l->max_threads = p && p->max_threads_per_block > 0 ? (uint32_t)p->max_threads_per_block : 0;
  l->regs_per_block = p && p->regs_per_block > 0 ? (uint32_t)p->regs_per_block : 0;
  l->reg_alloc_unit = p && p->reg_alloc_unit > 0 ? (uint32_t)p->reg_alloc_unit : 0;
  l->max_smem = p && p->smem_per_block_optin > 0 ? (uint32_t)p->smem_per_block_optin : 0;
  l->smem_alloc_unit = p && p->smem_alloc_unit > 0 ? (uint32_t)p->smem_alloc_unit : 0;
  l->regs_per_thread = regs > 0 ? (uint32_t)regs : 0;
}

struct be_result {
  int ran_ok;                 /* the kernel completed and nothing was reported */
  int timed_out;              /* gpu: it did not finish within WARPLAB_GPU_TIMEOUT seconds (the
                                 message in gpu_error); it keeps the GPU until the process ends */
  struct sim_result emu;      /* emu: counters, and the fault when !ran_ok */
  char gpu_error[512];        /* gpu: the CUDA error of a kernel that failed, in words */
  double gpu_ms;              /* gpu: kernel time from CUDA events */
};

struct be;

/* Open a backend. GPU: BE_ERR_UNAVAILABLE with a clear message when there is no driver or
   device. */
enum be_status be_open(enum be_kind kind, struct be **out, char *err, size_t errlen);
/* "warplab emulator" or "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs), driver 13.0". */
const char *be_describe(const struct be *b);
enum be_kind be_kind_of(const struct be *b);
/* Load a module: its PTX text and decoded form. */
enum be_status be_load(struct be *b, const char *ptx, size_t len, const struct ptx_module *m,
                       char *err, size_t errlen);
enum be_status be_alloc(struct be *b, uint64_t size, const char *name, uint64_t *addr);
enum be_status be_free(struct be *b, uint64_t addr);
enum be_status be_write(struct be *b, uint64_t addr, const void *src, uint64_t n);
enum be_status be_read(struct be *b, uint64_t addr, void *dst, uint64_t n);
/* The emulator, whose device memory is host memory: set n bytes at addr to byte (be_fill),
   or give *p the n bytes at addr in place, to read without a copy, valid until their
   allocation is freed and changed by every launch and write (be_view). BE_ERR_BADARG when
   the range is not inside one allocation; BE_ERR_UNAVAILABLE on a GPU, whose memory a
   caller copies to and from (be_write, be_read). */
enum be_status be_fill(struct be *b, uint64_t addr, uint8_t byte, uint64_t n);
enum be_status be_view(struct be *b, uint64_t addr, uint64_t n, const void **p);
/* Whether a launch may have written the allocation holding addr since the host last wrote or
   filled all of it: 0 only where the backend knows none did (the emulator marks every
   allocation a store reaches, sim_written); 1 where one did, or on a GPU, which cannot
   tell. */
int be_written(struct be *b, uint64_t addr);
/* A tiled tensor map of t (its addr a device address of this backend) for a tensor copy
   (cp.async.bulk.tensor), as the 128 bytes of a CUtensorMap kernel parameter: the GPU's from
   cuTensorMapEncodeTiled, the emulator's from sim_tmap_encode with the same fields. Returns
   BE_OK, or an error with the reason in err (a field the encoder refuses). */
enum be_status be_tensor_map(struct be *b, const struct sim_tmap *t, uint8_t map[SIM_TMAP_BYTES],
                             char *err, size_t errlen);
/* A texture or surface object over t's resource (t->addr a device address of this backend),
   as the 64-bit handle a cudaTextureObject_t / cudaSurfaceObject_t parameter holds: the GPU's
   from cuTexObjectCreate / cuSurfObjectCreate (over a CUDA array filled from the resource, or
   the memory itself for linear and pitch2D resources; a surface's array is copied back to the
   resource before be_read reads it), the emulator's from sim_tex_create. Returns BE_OK, or
   an error with the reason in err. */
enum be_status be_texture(struct be *b, const struct sim_tex *t, uint64_t *handle, char *err,
                          size_t errlen);
/* Launch kernel with the packed parameter buffer (see sim_param_layout) and wait for it.
   GPU: at most WARPLAB_GPU_TIMEOUT seconds (default 60). A kernel still running then comes
   back as a result (ran_ok 0, timed_out 1, the message in gpu_error), not as an end of the
   process; a GPU cannot stop it, so from then on the backend refuses every operation without
   calling the driver (which would wait for the kernel), and the GPU is free again only when
   the process ends: a caller that must go on with a GPU runs it in a child process (run.c). */
enum be_status be_launch(struct be *b, const char *kernel, const void *params, size_t psize,
                         const struct be_launch *l, struct be_result *res, char *err,
                         size_t errlen);
/* Timing discipline (GPU): one warm-up launch, then repetitions, each after the L2 is flushed
   (a buffer larger than the L2 is rewritten), until the relative standard error of the mean is
   under rse_target or max_reps / max_seconds is reached. Reports the median and the spread. */
struct be_timing {
  double median_ms, min_ms, max_ms;
  double rse_pct;              /* relative standard error of the mean, in percent */
  uint32_t reps;
  uint32_t sm_clock_mhz;       /* the SM clock during the runs, when the driver says (0: unknown) */
};
enum be_status be_time(struct be *b, const char *kernel, const void *params, size_t psize,
                       const struct be_launch *l, double rse_target, uint32_t max_reps,
                       double max_seconds, struct be_timing *t, char *err, size_t errlen);
/* The emulator: *digest receives sim_device_state_digest of its device (what a launch starts
   from besides its arguments and buffers). BE_ERR_UNAVAILABLE on a GPU, whose state is not
   the program's to know. */
enum be_status be_state_digest(struct be *b, uint64_t *digest);
void be_close(struct be *b);
/* Whether a CUDA driver library can be loaded, without initialising it (a process that has
   initialised CUDA cannot use it in a child it forks). WARPLAB_TEST_LIBCUDA names another
   library in its place: the tests' stand-in driver (tests/e2e/gpuhang/fakecuda.c). */
int be_gpu_driver_present(void);

/* The implementations' operations (be.c dispatches to them). */
struct be_ops {
  enum be_kind kind;
  enum be_status (*open)(void **impl, char *desc, size_t desclen, char *err, size_t errlen);
  enum be_status (*load)(void *impl, const char *ptx, size_t len, const struct ptx_module *m,
                         char *err, size_t errlen);
  enum be_status (*alloc)(void *impl, uint64_t size, const char *name, uint64_t *addr);
  enum be_status (*free)(void *impl, uint64_t addr);
  enum be_status (*write)(void *impl, uint64_t addr, const void *src, uint64_t n);
  enum be_status (*read)(void *impl, uint64_t addr, void *dst, uint64_t n);
  enum be_status (*launch)(void *impl, const char *kernel, const void *params, size_t psize,
                           const struct be_launch *l, struct be_result *res, char *err,
                           size_t errlen);
  enum be_status (*time)(void *impl, const char *kernel, const void *params, size_t psize,
                         const struct be_launch *l, double rse_target, uint32_t max_reps,
                         double max_seconds, struct be_timing *t, char *err, size_t errlen);
  enum be_status (*tensor_map)(void *impl, const struct sim_tmap *t, uint8_t *map, char *err,
                               size_t errlen);
  enum be_status (*texture)(void *impl, const struct sim_tex *t, uint64_t *handle, char *err,
                            size_t errlen);
  void (*close)(void *impl);
  enum be_status (*state_digest)(void *impl, uint64_t *digest);   /* NULL: unsupported */
  /* the emulator's; NULL on a GPU (be_fill, be_view: BE_ERR_UNAVAILABLE) */
  enum be_status (*fill)(void *impl, uint64_t addr, uint8_t byte, uint64_t n);
  enum be_status (*view)(void *impl, uint64_t addr, uint64_t n, const void **p);
  int (*written)(void *impl, uint64_t addr);                      /* NULL: always 1 */
};
extern const struct be_ops be_emu_ops;
extern const struct be_ops be_cuda_ops;

#endif
