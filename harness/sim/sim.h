/* sim.h: SIMT execution of a decoded PTX module (the emulator's public face).
 *
 * A sim_device owns "global memory": named allocations at GPU-like virtual addresses, every
 * access bounds-checked. sim_run() launches one kernel of a decoded module over a grid of
 * blocks; warps of 32 (or, for the wide-wave teaching profile, 64) lanes execute in SIMT
 * fashion with active masks. Anything the student's kernel does wrong (out-of-bounds access,
 * deadlock, barrier divergence, runaway loop) is a *result* in struct sim_result, never an
 * error of ours: sim_run returns SIM_OK for a faulting kernel.
 */
#ifndef WARPLAB_SIM_H
#define WARPLAB_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "ptx/ptx.h"

enum sim_status {
  SIM_OK = 0,
  SIM_ERR_NOMEM,       /* host memory exhausted */
  SIM_ERR_BADARG,      /* bad launch configuration or arguments (message says which) */
  SIM_ERR_NOKERNEL,    /* no .entry of that name */
  SIM_ERR_UNSUPPORTED  /* the module uses something the emulator cannot run (message says what) */
};

/* Scheduling model of divergent warps. */
enum sim_sched {
  SIM_SCHED_ITS = 0,   /* Volta and later: independent thread scheduling, forward progress */
  SIM_SCHED_STACK      /* pre-Volta: reconvergence stack at the immediate post-dominator */
};

/* What happened to the kernel. */
enum sim_outcome {
  SIM_RAN_OK = 0,
  SIM_FAULT,              /* a memory fault or trap; see fault.kind */
  SIM_DEADLOCK,           /* no thread can make progress */
  SIM_BARRIER_DIVERGENCE, /* a barrier reached by only part of a warp */
  SIM_BUDGET              /* ran past the warp-instruction budget */
};

enum sim_fault_kind {
  SIM_FK_NONE = 0,
  SIM_FK_OUT_OF_BOUNDS,
  SIM_FK_MISALIGNED,
  SIM_FK_READ_ONLY,
  SIM_FK_INVALID_SPACE,   /* e.g. a generic address that is in no window */
  SIM_FK_DEADLOCK,
  SIM_FK_BARRIER_DIVERGENCE,
  SIM_FK_BUDGET,
  SIM_FK_TRAP,
  SIM_FK_CALL_DEPTH,
  SIM_FK_RACE,            /* a shared-memory hazard no barrier or __syncwarp orders (sim_race.c) */
  SIM_FK_UNINIT,          /* a read of shared memory no thread of the block wrote */
  SIM_FK_SYNC_MASK        /* a *_sync intrinsic whose mask leaves out its own lane, or names lanes
                             that have exited */
};
/* "out_of_bounds", "misaligned", ... as used in JSON. */
const char *sim_fault_kind_name(enum sim_fault_kind k);
const char *sim_outcome_name(enum sim_outcome o);

enum sim_access { SIM_ACC_READ = 0, SIM_ACC_WRITE, SIM_ACC_ATOMIC };

/* The emulator's checks of a launch (harness/sim/sim_race.c) a sim_launch may leave out. */
#define SIM_NOCHECK_RACE 1u /* shared- and global-memory races (read/write hazards) */
#define SIM_NOCHECK_INIT 2u /* reads of uninitialised shared memory; shared memory starts zeroed */
#define SIM_NOCHECK_MASK 4u /* the masks of *_sync intrinsics */

/* A group of waiting threads, for deadlock reports. */
struct sim_waiter {
  uint32_t block[3];
  uint32_t warp;
  uint64_t lanes;          /* bit mask of lanes in the warp */
  uint32_t inst;           /* module instruction index where they wait */
  uint32_t branch;         /* "reconvergence": the module instruction of the branch that split
                              them (its line is the if's); PTX_NOREG when not known */
  const char *reason;      /* "spinning" (looping without changing anything), "pending"
                              (able to run, never chosen: the other side of a branch whose
                              first side loops), "barrier", "reconvergence", "warp-sync" */
};
#define SIM_MAX_WAITERS 16

struct sim_fault {
  enum sim_fault_kind kind;
  enum ptx_space space;    /* memory faults */
  enum sim_access access;
  uint64_t addr;
  uint32_t size;
  uint32_t block[3], thread[3];
  uint32_t warp, lane;
  uint32_t inst;           /* module instruction index (PTX_NOREG when not about one) */
  int has_alloc;           /* nearest allocation, for global faults */
  char alloc_name[64];
  uint64_t alloc_base, alloc_size;
  int64_t alloc_offset;    /* addr - alloc_base (negative: before it) */
  uint32_t other_inst;     /* race: the module instruction of the other access (PTX_NOREG: none) */
  uint32_t other_thread[3];/* race: the other access's thread */
  uint32_t nwaiters;
  struct sim_waiter waiters[SIM_MAX_WAITERS];
  char message[768];       /* the explanation, in words a student reads */
};

/* Counters every launch produces (the metrics layer derives ncu metrics from them). */
struct sim_counters {
  uint64_t warp_insts;     /* warp-level instructions executed (any active lane) */
  uint64_t thread_insts;   /* sum of active lanes over them (predicated-off lanes excluded) */
};

/* What one instruction did over a launch (indexed by module instruction). The metrics layer
   turns these into Nsight Compute's metrics and the per-source-line table. */
struct sim_inst_stats {
  uint64_t execs;          /* warp-level executions (at least one active lane) */
  uint64_t threads;        /* active lanes, summed */
  uint64_t pred_on;        /* lanes whose guard predicate held, summed */
  uint64_t g_req, g_sectors, g_lines, g_bytes;  /* global: requests, 32 B sectors, 128 B lines,
                                                   distinct bytes asked for */
  uint64_t g_sectors_agg;  /* atomics: sectors if ptxas aggregates a warp-uniform atomic (one
                              address, one operand) into one lane's, as it does for atom.add
                              whose result is read */
  uint64_t l_req, l_sectors;                    /* local */
  uint64_t s_req, s_wavefronts, s_ideal;        /* shared: accesses, wavefronts, conflict-free */
  uint64_t br_uniform, br_divergent;            /* bra: executions that kept or split the warp */
  uint64_t warns;          /* threads that gave the instruction's warning (struct sim_warning) */
};

/* The block the timing model's trace takes as the simulated SM's k-th: one of blocks
   [k*every, (k+1)*every) (the k-th wave, as a GPU dispatches blocks in order to whichever SM
   is free), chosen by a hash of k rather than the first, so that which blocks one SM runs
   cannot be steered by blockIdx arithmetic (work moved off every every-th block). */
uint32_t sim_trace_block(uint32_t k, uint32_t every, uint32_t nblocks);

/* A device function's stack frame as ptxas laid it out for the GPU ("Function properties for
   _Z3fibj: 24 bytes stack frame": its local variables, spilled registers and the saved return
   address), by the function's PTX name. */
struct sim_frame {
  const char *func;
  uint32_t bytes;
};

struct sim_launch {
  uint32_t grid[3], block[3];
  uint32_t dyn_smem;       /* dynamic shared memory bytes */
  enum sim_sched sched;
  uint32_t nocheck;        /* checks to leave out (SIM_NOCHECK_*); 0: all of them run */
  uint32_t warp_size;      /* 32, or 64 for the wide-wave profile; 0 means 32 */
  uint32_t workers;        /* host threads running blocks; 0 = one per core */
  const int *hold;         /* non-NULL: the last of them starts taking blocks only once *hold
                              reads nonzero (a core another process had is free again), and
                              ends unstarted when none is left by then; not in a cooperative
                              or clustered launch, whose workers all start at once */
  uint64_t max_warp_insts; /* budget for the launch; 0 = SIM_DEFAULT_BUDGET */
  uint32_t max_smem;       /* per-block shared memory limit of the profile; 0 = 227 KiB */
  uint32_t smem_alloc_unit; /* a block's shared memory is allocated in these (the profile's
                              smem_alloc_unit; %total_smem_size is rounded up to it); 0 = 1 */
  uint32_t trace_every;    /* record one block of every trace_every for the timing model
                              (0: record none), the k-th from blocks [k*every, (k+1)*every)
                              (sim_trace_block) ... */
  uint32_t trace_blocks;   /* ... the first trace_blocks of them */
  uint32_t trace_wave;     /* with a trace: the blocks resident GPU-wide at once (the timing
                              model's wave), which orders the first touches of global sectors
                              (struct sim_trace.touch); 0: no first touches kept */
  int lanes;               /* keep a lane log (struct sim_lanes) of one warp: ... */
  uint32_t lanes_block;    /* ... warp lanes_warp of the block whose linear index is this */
  uint32_t lanes_warp;
  /* What the GPU would check before it starts the launch (sim_launch_check): the profile's
     limits and the kernel's registers; 0 means the default, or not known. */
  uint32_t max_threads;     /* threads per block the GPU allows; 0 = 1024 */
  uint32_t regs_per_thread; /* ptxas's "Used N registers"; 0 = unknown: no register check */
  uint32_t regs_per_block;  /* 32-bit registers one block may hold; 0 = 65536 */
  uint32_t reg_alloc_unit;  /* registers per warp are rounded up to this; 0 = 256 */
  /* Blocks of this launch the modelled GPU holds at once: its SMs times the blocks of this
     kernel an SM holds (the occupancy calculator's). Blocks start in index order, a new one
     when one ends, as many at a time as this; a block that spins waiting for another block
     is run interleaved with the others started, so whether such a wait ends depends on this
     number alone, never on the host's cores or worker threads. 0: an H100's 132 SMs, each
     holding what 2048 threads and 32 blocks allow. */
  uint32_t resident_blocks;
  /* Cooperative launches and clusters (sim_cluster.c). A cooperative launch
     (cuLaunchCooperativeKernel) has every block of the grid resident at once, so grid-wide
     synchronisation (cooperative_groups' grid.sync(), which reads the grid workspace from
     %envreg1:%envreg2) completes; the emulator runs its blocks interleaved. A kernel that
     reads %envreg is launched cooperatively whatever this says (sim_kernel_cooperative). */
  int cooperative;
  uint32_t coop_blocks_per_sm; /* blocks of this kernel one SM holds (the occupancy) and ... */
  uint32_t sm_count;           /* ... the GPU's SMs: a cooperative grid of more blocks than
                                  their product is refused as the GPU refuses it; 0: unknown,
                                  no check */
  uint32_t cluster[3];      /* the launch's cluster dimension (cuLaunchKernelEx's attribute);
                               0: none, the kernel's __cluster_dims__ or else clusters of one */
  /* The order warps and blocks run in. 0: the fixed order (each block's warps take turns in
     index order, blocks start in index order on every host thread). Another value: a
     pseudo-random order that this seed alone decides, the same in every run: blocks (the
     groups of a cooperative grid or of clusters) start in an order shuffled by the seed, on
     one host thread whatever `workers` says, and at each turn a block's warps run in a
     shuffled order for a random share of the usual turn. A kernel whose result does not
     depend on the order (no races; atomics that commute, as integer adds do) gives the same
     values under every seed; one that hands out slots by an atomic counter, or whose last
     writer wins, may not (sim_block.c, sim_launch.c). */
  uint64_t order_seed;
  int reverse;              /* blocks take their indices, and a block's warps their turns, in
                               reverse order (outside cooperative launches and clusters): a
                               result that changes depends on an order CUDA leaves open */
  /* ptxas's stack frames of the module's device functions (NULL, 0: not known). Each call of
     a recursive function takes its frame from the thread's call stack (cudaLimitStackSize);
     a function not among them takes an estimate, its .local bytes + SIM_RECUR_FRAME. */
  const struct sim_frame *frames;
  uint32_t nframes;
};
#define SIM_DEFAULT_BUDGET 2000000000ull
/* What device printf may leave behind in one launch: CUDA's default printf FIFO
   (cudaLimitPrintfFifoSize), 1 MiB; what a launch prints past it is not kept. */
#define SIM_PRINTF_FIFO (1u << 20)
/* Characters one printf conversion may produce (a width or precision past it is cut). */
#define SIM_PRINTF_CONV_MAX 4096u
/* What a cut printf output lost, in the words the reports use. */
#define SIM_PRINTF_CUT_NOTE "a launch keeps the first 1 MiB of what it prints (CUDA's printf " \
  "buffer, cudaLimitPrintfFifoSize), one conversion its first 4096 characters"
/* Local memory one thread may have: CUDA's 512 KiB (ptxas refuses a kernel over it). */
#define SIM_MAX_LOCAL (512u * 1024u)

/* What the timing model (harness/timing) reads: every warp-instruction of the recorded blocks,
   in the order the emulator ran them, with what each memory access touched. */
struct sim_tev {
  uint32_t inst;           /* module instruction index */
  uint16_t warp;           /* warp within its block */
  uint8_t lanes;           /* lanes that ran it (before the guard predicate) */
  uint8_t space;           /* a memory access: the enum ptx_space it reached (GLOBAL, SHARED,
                              LOCAL), after generic addresses are resolved; else NONE */
  uint32_t n;              /* GLOBAL/LOCAL: distinct 32-byte sectors, listed at sec[first]
                              (GLOBAL: in rising order); SHARED: wavefronts */
  uint32_t first;
  uint8_t dups;            /* GLOBAL: lanes that named an address another lane named too
                              (the active lanes less the distinct addresses) */
  uint8_t same;            /* GLOBAL: the most lanes that named one address */
};
#define SIM_TRACE_MAX_EVENTS (1u << 24)   /* per recorded block */

/* A recorded block's events, a cache line of its own: the worker running the block bumps nev
   at every warp-instruction, and the recorded blocks of a small grid run side by side on
   two workers (bare_loop's 64 blocks: 8% more CPU time on 2 workers than on 1 while two
   entries shared a line). */
struct sim_tblock {
  _Alignas(64) uint32_t linear; /* the block's linear index */
  struct sim_tev *ev;
  uint32_t nev, cap_ev;
  uint64_t *sec;           /* sector numbers (byte address / 32) */
  uint32_t nsec, cap_sec;
  int truncated;           /* the block ran past SIM_TRACE_MAX_EVENTS (or host memory): the
                              rest of it was not recorded */
};

/* What one block of the grid did, for the timing model's dispatch of every block over all
   SMs (harness/timing/tm_dispatch.c): cheap totals, counted for every block of a launch that
   records a trace. */
struct sim_bwork {
  uint64_t warp_insts;     /* warp-instructions it issued */
  uint64_t sectors;        /* global and local 32-byte sectors its accesses touched */
  uint64_t wavefronts;     /* shared-memory wavefronts */
};

struct sim_trace {
  struct sim_tblock *blk;  /* in block order */
  uint32_t nblk;
  struct sim_bwork *work;  /* per block of the grid, by linear index (nwork = the grid's
                              blocks); a block that did not run has all zero */
  uint32_t nwork;
  /* The first touch of every 128-byte line of global memory, by any block of the grid (the
     L2 is shared by all SMs: a line another block read is there for the recorded ones):
     touch[i] is sim_touch_key of the earliest access to the i-th line of the launch's
     allocations (seg: each allocation's lines, in address order; sim_touch_index), 0 for
     none. NULL when the launch asked for none or its allocations hold more than
     SIM_TOUCH_MAX lines. Lines, not sectors: a coalesced access touches its lines whole,
     and a quarter of the keys costs the emulator a quarter of the time. */
  uint64_t *touch;
  uint64_t ntouch;
  struct sim_touch_seg *seg;
  uint32_t nseg;
  uint32_t touch_wave;     /* sim_launch.trace_wave */
  uint32_t touch_until;    /* blocks from this linear index on keep none: their wave comes
                              after the last recorded block's, so none of their touches is
                              first for a recorded block */
  uint32_t touch_shared;   /* some line was touched by two blocks: its key is the earliest
                              of theirs, which depends on the wave (sim_trace_rewave) */
};
struct sim_touch_seg {
  uint64_t first, n;       /* the allocation's lines: first, and how many */
  uint64_t at;             /* the index of its first in sim_trace.touch */
};
#define SIM_TOUCH_MAX (1ull << 24)   /* lines (2 GiB of allocations; 128 MiB of keys, of which
                                        only the pages a launch touches are made) */
/* tr's record as the same launch would have made it with another wave (sim_launch.trace_wave)
   and the first nblk of its recorded blocks (trace_blocks; trace_every as tr's launch had
   it): for a launch whose blocks ran exactly as tr's did, which only the timing model's wave
   tells apart (the kernel cannot see the dynamic shared memory that sets it; the caller's to
   know). *out shares tr's blocks and per-block work and owns new first-touch keys: free it
   with sim_trace_view_free, before tr. Each key is a block's own earliest touch, so a new
   wave only renumbers it, unless a line was touched by two blocks (touch_shared: which is
   first depends on the wave), or tr kept no keys for blocks the new wave needs (touch_until).
   Returns 0, or -1 when tr cannot give the record (*out is then empty). */
int sim_trace_rewave(const struct sim_trace *tr, uint32_t wave, uint32_t nblk, uint32_t every,
                     struct sim_trace *out);
void sim_trace_view_free(struct sim_trace *view);

/* The index in tr->touch of the line of global sector `sector` (byte address / 32), or
   UINT64_MAX when it is in none of the launch's allocations (or none were kept). */
uint64_t sim_touch_index(const struct sim_trace *tr, uint64_t sector);

/* When a block touched memory, as one number that orders touches (smaller is earlier): the
   block's wave (linear / wave_blocks: blocks of one wave run at once, a later wave after
   them), its warp-instructions so far, its linear index (of two touches at the same point of
   their blocks, the lower block's is taken as first), plus 1 (0 is "none"). */
static inline uint64_t sim_touch_key(uint32_t wave_blocks, uint32_t linear, uint64_t insts)
{
  uint64_t w = wave_blocks ? linear / wave_blocks : 0;
  if (w > 0xffe)
    w = 0xffe;
  if (insts > 0xfffffff)
    insts = 0xfffffff;
  return (w << 52 | insts << 24 | (linear & 0xffffffu)) + 1;
}
/* The parts of a key: its wave, its block's warp-instructions so far, its block (low 24 bits
   of the linear index). */
static inline uint32_t sim_touch_wave(uint64_t key) { return (uint32_t)((key - 1) >> 52); }
static inline uint64_t sim_touch_insts(uint64_t key) { return ((key - 1) >> 24) & 0xfffffff; }
static inline uint32_t sim_touch_block(uint64_t key) { return (uint32_t)((key - 1) & 0xffffff); }

/* The lane log (sim_lanes.c): every warp-instruction one chosen warp executed, in order, with
   its active lanes and, for a memory access, each lane's address; what plots/plot_lanes.c
   draws sector maps, bank maps and divergence timelines from. */
struct sim_lane_acc {      /* one lane's part of a memory access */
  uint64_t addr;           /* global: the device address; shared: the offset in the block's
                              shared memory; local: the offset in the thread's own frame;
                              param, const: as the instruction addressed it */
  uint8_t lane;
  uint8_t space;           /* enum ptx_space, a generic address resolved to its window */
  uint8_t buf;             /* global: the allocation, an index into sim_lanes.buf; else 0xff */
};

struct sim_lane_step {
  uint32_t pc;             /* code index in the linked program */
  uint32_t inst;           /* module instruction index (its lines and PTX text: ptx_inst) */
  uint64_t active;         /* lanes that executed it */
  uint64_t pred;           /* of those, the lanes whose guard predicate held */
  uint32_t first, nacc;    /* a memory access: its lanes' parts, acc[first .. first + nacc) */
  uint32_t size;           /* bytes per lane of that access (0: not a memory access) */
  uint8_t space;           /* enum ptx_space of the access (its first lane's), else NONE */
  uint8_t access;          /* enum sim_access */
  uint32_t cost;           /* global and local: distinct 32-byte sectors; shared: wavefronts;
                              as the instruction statistics counted them */
  uint32_t ideal;          /* shared: the wavefronts it would take without bank conflicts */
};
#define SIM_LANES_MAX_STEPS 65536u
#define SIM_LANES_MAX_BUFS 16

struct sim_lanes {
  int recorded;            /* the chosen block ran and holds the chosen warp */
  uint32_t block, warp;    /* the linear block index and the warp in it */
  uint32_t ctaid[3];
  uint32_t warp_size;
  uint64_t exists;         /* lanes of the warp that are threads of the block */
  struct sim_lane_step *step;
  uint32_t nstep, cap_step;
  struct sim_lane_acc *acc;
  uint32_t nacc, cap_acc;
  int truncated;           /* it ran past SIM_LANES_MAX_STEPS (or host memory): the rest of
                              the warp's steps are not recorded */
  struct sim_lane_buf {    /* the allocations its global accesses touched */
    uint64_t base, size;
    char name[64];
  } buf[SIM_LANES_MAX_BUFS];
  uint32_t nbuf;
};

/* Something a kernel did that a GPU runs through and a student should know of: a read past
   the end of a __constant__ variable (the GPU returns the bytes that follow in the constant
   bank). It changes neither the values nor the outcome. One a module instruction. */
struct sim_warning {
  uint32_t inst;           /* module instruction index */
  uint32_t block[3], thread[3]; /* the first thread that did it: in the lowest block, the first
                              time in that block */
  uint64_t count;          /* times a thread did it there */
  char message[512];       /* in words a student reads, with the .cu line */
};
#define SIM_MAX_WARNINGS 16

/* cudaGraphSetConditional(handle, value) as a kernel called it: the device runtime sets a
   conditional node's value, which only a CUDA graph's conditional node reads. Outside a graph
   it changes no memory; the emulator keeps, for each handle, the value last set (the last
   call of the highest block that called it, blocks in index order) for the report. */
struct sim_gcond {
  uint64_t handle;         /* cudaGraphConditionalHandle */
  uint32_t value;          /* the last value set */
  uint32_t inst;           /* where it was set (module instruction index) */
  uint32_t block[3], thread[3];
  uint64_t calls;          /* calls that set this handle, by every thread */
};
#define SIM_MAX_GCONDS 16

struct sim_result {
  enum sim_outcome outcome;
  struct sim_fault fault;          /* valid unless outcome == SIM_RAN_OK */
  struct sim_counters counters;
  uint32_t static_smem;            /* bytes of static shared memory the kernel uses */
  uint32_t local_bytes;            /* per-thread local memory (stack frame) bytes */
  uint32_t workers_used;
  double cpu_seconds;              /* the CPU time of the worker threads that ran the grid: the
                                      launch's wall time times workers_used where each had a
                                      core of its own the whole time */
  struct sim_inst_stats *stats;    /* per module instruction (nstats = module->ninsts); owned:
                                      release with sim_result_free */
  uint32_t nstats;
  char *printf_out;                /* what the kernel printed, block by block (NULL: nothing);
                                      owned, released with sim_result_free */
  size_t printf_len;
  int printf_cut;                  /* output was not kept: past SIM_PRINTF_FIFO for the launch,
                                      or a conversion past SIM_PRINTF_CONV_MAX characters */
  struct sim_trace trace;          /* the blocks sim_launch.trace_every chose (owned) */
  struct sim_lanes lanes;          /* the warp sim_launch.lanes chose (owned) */
  struct sim_warning *warn;        /* warnings, by instruction in code order (owned; NULL:
                                      none) */
  uint32_t nwarn;
  uint64_t warn_more;              /* warnings at further instructions, not kept */
  struct sim_gcond *gcond;         /* cudaGraphSetConditional calls, by handle in the order
                                      first set (owned; NULL: none) */
  uint32_t ngcond;
  uint64_t gcond_more;             /* calls on further handles, not kept */
};

struct sim_device;

/* A new empty device, or NULL when out of memory. */
struct sim_device *sim_device_new(void);
void sim_device_free(struct sim_device *d);

/* Allocate size bytes (zero-filled) named name ("argument 2"); *addr receives the device
   address. Allocations are 256-byte aligned and separated by unmapped gaps, so an
   overrun is always detected. */
enum sim_status sim_malloc(struct sim_device *d, uint64_t size, const char *name, uint64_t *addr);
/* Release the allocation starting at addr; SIM_ERR_BADARG when there is none. */
enum sim_status sim_free(struct sim_device *d, uint64_t addr);
/* The device heap that in-kernel malloc/free (and new/delete) use: CUDA's default size
   (cudaLimitMallocHeapSize), and the largest the emulator makes. */
#define SIM_HEAP_DEFAULT (8ull << 20)
#define SIM_HEAP_MAX (1ull << 30)
/* Set the size of d's device heap, as cudaDeviceSetLimit(cudaLimitMallocHeapSize) does:
   SIM_OK, or SIM_ERR_BADARG for 0 bytes, more than SIM_HEAP_MAX, or once the heap is made
   (the first launch of a kernel that calls malloc or free makes it, as on the GPU). */
enum sim_status sim_set_heap_size(struct sim_device *d, uint64_t bytes);
/* A thread's call stack, as cudaLimitStackSize: CUDA's default (1 KiB), and the largest the
   emulator allows. Only recursion uses it (sim_recur.c): non-recursive calls need no stack
   beyond what ptxas lays out. */
#define SIM_STACK_DEFAULT 1024u
#define SIM_STACK_MAX (512u * 1024u)
/* Set the call stack of a thread for later launches on d, as
   cudaDeviceSetLimit(cudaLimitStackSize) does: SIM_OK, or SIM_ERR_BADARG for 0 bytes or more
   than SIM_STACK_MAX. */
enum sim_status sim_set_stack_size(struct sim_device *d, uint64_t bytes);
/* Copy to/from device memory; SIM_ERR_BADARG when the range is not inside one allocation. */
enum sim_status sim_write(struct sim_device *d, uint64_t addr, const void *src, uint64_t n);
enum sim_status sim_read(const struct sim_device *d, uint64_t addr, void *dst, uint64_t n);
/* Set n bytes of device memory at addr to byte; SIM_ERR_BADARG as sim_write. */
enum sim_status sim_fill(struct sim_device *d, uint64_t addr, uint8_t byte, uint64_t n);
/* The n bytes of device memory at addr, in place (the emulator's device memory is host
   memory): valid until their allocation is freed. NULL when the range is not inside one
   allocation. */
const void *sim_view(const struct sim_device *d, uint64_t addr, uint64_t n);
/* Whether a device store may have changed the allocation holding addr since the host last
   wrote or filled all of it (sim_write, sim_fill): 0 when none did, so its bytes are the
   host's; 1 when one did, or when addr is in no allocation. */
int sim_written(const struct sim_device *d, uint64_t addr);
/* A digest (FNV-1a, 64 bits) of what a launch on d starts from besides its arguments: the
   contents of the writable module-scope variables (__device__) of the modules launched on d
   so far, and the number of texture objects. Equal digests before two launches of the same
   kernel, arguments and buffers mean the same starting state (a kernel that keeps a counter
   in a __device__ variable changes it). */
uint64_t sim_device_state_digest(const struct sim_device *d);

/* Kernel parameter layout of entry `func`: offsets and sizes of each parameter in the
   parameter buffer (natural alignment), and the buffer's total size. Returns the number of
   parameters, or -1 if func is not an entry. At most max entries are written. */
int sim_param_layout(const struct ptx_module *m, int func, uint32_t *offset, uint32_t *size,
                     uint32_t max, uint32_t *total);

/* Run kernel `kernel` of module m on device d. params/params_size: the packed parameter
   buffer (see sim_param_layout). Module-scope .global/.const variables are allocated on d
   (with their initialisers) at the first launch of m on d. On SIM_OK, *res says what the
   kernel did; on another status, err holds a message and *res is not meaningful. */
enum sim_status sim_run(struct sim_device *d, const struct ptx_module *m, const char *kernel,
                        const void *params, size_t params_size, const struct sim_launch *cfg,
                        struct sim_result *res, char *err, size_t errlen);

/* Whether a GPU would refuse to launch entry func of m with cfg, checked as the CUDA driver
   checks it before the kernel starts: the block's shape and the GPU's threads per block,
   the kernel's __launch_bounds__ (PTX .maxntid, .reqntid), its registers times the block's
   threads against the register file (when cfg->regs_per_thread is known), and static_smem
   plus cfg->dyn_smem bytes of shared memory against cfg->max_smem. Returns SIM_OK, or
   SIM_ERR_BADARG with the reason in err, in the words both backends report: the CUDA error
   the driver gives, the kernel's name and its .cu line where the PTX has one. */
enum sim_status sim_launch_check(const struct ptx_module *m, int func, const struct sim_launch *cfg,
                                 uint32_t static_smem, char *err, size_t errlen);

/* Whether entry func of m must be launched cooperatively: it, or a function it calls, reads
   %envreg (cooperative_groups' grid workspace: grid.sync(), this_grid().is_valid()). Both
   backends then launch it cooperatively, as a CUDA program that calls grid.sync() must
   (cudaLaunchCooperativeKernel); warplab's command line has no host code to say so. */
int sim_kernel_cooperative(const struct ptx_module *m, int func);
/* The cluster dimension a launch of entry func of m with cfg runs with, into dims: the
   kernel's __cluster_dims__ (.reqnctapercluster), else cfg->cluster, else 1,1,1. Returns 1
   when the launch has clusters (either of those named them), else 0. */
int sim_cluster_dims(const struct ptx_module *m, int func, const struct sim_launch *cfg,
                     uint32_t dims[3]);

/* "0-15,17": the set bits of a lane mask as ranges, into buf. */
void sim_lanes_text(uint64_t lanes, char *buf, size_t n);

/* Release what a result owns (statistics, printed text, trace, lane log). Safe on a zeroed
   result. */
void sim_result_free(struct sim_result *r);

/* Host cores, for "all cores" worker counts. */
uint32_t sim_host_cores(void);

/* End the worker threads the emulator keeps from one launch to the next (sim_crew.c), waiting
   for their end; the next launch makes new ones. For a process about to confine itself
   (Landlock confines only the calling thread and those it makes later). Does nothing while a
   launch runs on them. */
void sim_threads_end(void);

/* ---- tensor maps (cp.async.bulk.tensor, sim_async.c) ----
   What cuTensorMapEncodeTiled is given, for a tiled map. On the GPU the driver encodes it into
   an opaque 128-byte CUtensorMap; the emulator's 128 bytes (sim_tmap_encode) carry the same
   fields in its own layout, passed the same way (a __grid_constant__ kernel parameter). */
enum sim_tmap_dtype {      /* CUtensorMapDataType's numbering */
  SIM_TMAP_U8 = 0, SIM_TMAP_U16, SIM_TMAP_U32, SIM_TMAP_I32, SIM_TMAP_U64, SIM_TMAP_I64,
  SIM_TMAP_F16, SIM_TMAP_F32, SIM_TMAP_F64, SIM_TMAP_BF16
};
#define SIM_TMAP_BYTES 128
#define SIM_TMAP_MAX_RANK 5
struct sim_tmap {
  uint64_t addr;                         /* globalAddress: 16-byte aligned */
  uint32_t dtype;                        /* enum sim_tmap_dtype */
  uint32_t rank;                         /* 1..5 */
  uint64_t dims[SIM_TMAP_MAX_RANK];      /* globalDim: elements, innermost first */
  uint64_t strides[SIM_TMAP_MAX_RANK - 1]; /* globalStrides: bytes of dims 1..rank-1 */
  uint32_t box[SIM_TMAP_MAX_RANK];       /* boxDim: elements, 1..256 */
  uint32_t estrides[SIM_TMAP_MAX_RANK];  /* elementStrides: 1 (the only one supported) */
  uint32_t interleave, swizzle, l2promo, oobfill; /* 0 (NONE) is the only one supported */
};
/* Bytes of one element of dtype, or 0 for an unknown type. */
uint32_t sim_tmap_elem_size(uint32_t dtype);
/* Check t as cuTensorMapEncodeTiled does (and refuse, by name, the modes the emulator does
   not model: interleave, swizzle, NaN fill, element strides other than 1) and write the
   emulator's 128-byte map into out. Returns 0, or -1 with a message in err. */
int sim_tmap_encode(const struct sim_tmap *t, uint8_t out[SIM_TMAP_BYTES], char *err, size_t errlen);
/* Decode a map sim_tmap_encode wrote. Returns 0, or -1 when the bytes are not one. */
int sim_tmap_decode(const uint8_t in[SIM_TMAP_BYTES], struct sim_tmap *t);

/* ---- texture and surface objects (tex, tld4, txq, suld, sust, suq: sim_tex.c) ----
   What cuTexObjectCreate / cuSurfObjectCreate are given: a resource (device memory holding
   width x height x depth texels of one format, rows pitch bytes apart, slices height rows
   apart; layers and cube faces are slices) and, for a texture, how it is sampled. The
   emulator keeps the objects in a table of the device; the 64-bit handle a kernel is passed
   (cudaTextureObject_t) is the object's index plus one. */
enum sim_tex_geom {        /* the PTX geometry that samples it (a surface's cube map: a2d) */
  SIM_TEX_1D = 0, SIM_TEX_2D, SIM_TEX_3D, SIM_TEX_A1D, SIM_TEX_A2D, SIM_TEX_CUBE,
  SIM_TEX_ACUBE            /* layered cube map: 6 faces a layer */
};
enum sim_tex_res { SIM_TEX_RES_ARRAY = 0, SIM_TEX_RES_LINEAR, SIM_TEX_RES_PITCH2D };
enum sim_tex_kind { SIM_TEX_UINT = 0, SIM_TEX_SINT, SIM_TEX_FLOAT }; /* float: 16 is half */
enum sim_tex_addr { SIM_TEX_WRAP = 0, SIM_TEX_CLAMP, SIM_TEX_MIRROR, SIM_TEX_BORDER }; /* CUaddress_mode */
struct sim_tex {
  uint8_t surface;         /* a surface object (suld/sust), else a texture object */
  uint8_t geom;            /* enum sim_tex_geom */
  uint8_t res;             /* enum sim_tex_res */
  uint8_t kind;            /* enum sim_tex_kind of each channel */
  uint8_t bits;            /* bits of each channel: 8, 16 or 32 */
  uint8_t nchan;           /* 1, 2 or 4 */
  uint8_t addr_mode[3];    /* enum sim_tex_addr, per dimension */
  uint8_t linear;          /* filter mode linear, else point */
  uint8_t norm_coords;     /* normalised coordinates: [0, 1) spans the texture */
  uint8_t read_norm;       /* read mode normalised float: 8/16-bit integers read as [0, 1]
                              (unsigned) or [-1, 1] (signed) */
  uint32_t width, height, depth; /* texels (height, depth 1 when unused); layers of a1d/a2d
                              and the 6 faces of a cube are depth slices (a layered cube:
                              6 x layers, layer after layer) */
  uint64_t addr;           /* device address of texel (0, 0, 0) */
  uint64_t pitch;          /* bytes from one row to the next */
};
/* Bytes of one texel of t. */
uint32_t sim_tex_texel_size(const struct sim_tex *t);
/* Bytes of the resource t reads: from its address to the end of its last texel. */
uint64_t sim_tex_span(const struct sim_tex *t);
/* Check t as cuTexObjectCreate / cuSurfObjectCreate do (a format, filter or read mode they
   refuse, such as linear filtering of integers read as integers) and add it to d's table.
   Returns 0 with its handle in *handle, or -1 with a message in err. */
int sim_tex_create(struct sim_device *d, const struct sim_tex *t, uint64_t *handle, char *err,
                   size_t errlen);
/* The object of handle h in d's table, or NULL. */
const struct sim_tex *sim_tex_get(const struct sim_device *d, uint64_t h);

/* Sampling, for the emulator and its tests: data is the resource's first byte on the host.
   Texture fetch at coordinates c (x, y, z: f32 bits when !int_coords, else s32; c[3] the
   layer of a1d/a2d/acube, an integer) into out (4 x 32 bits: f32 bits when the results are
   floats, else integers), as tex.GEOM.v4.DTYPE.CTYPE does. */
void sim_tex_fetch(const struct sim_tex *t, const void *data, const uint32_t c[4],
                   int int_coords, uint32_t out[4]);
/* tld4.COMP: component comp (0..3: r g b a) of the four texels a linear fetch at (x, y) would
   blend, lower left first, counter-clockwise (tex2Dgather). */
void sim_tex_gather(const struct sim_tex *t, const void *data, const uint32_t c[4], int comp,
                    uint32_t out[4]);
/* The 1.8 fixed-point weight the texture unit blends with for the fraction of x - 0.5: the
   fraction rounded to a multiple of 1/256 (the CUDA programming guide's Texture Fetching
   appendix). Exported for the tests. */
float sim_tex_weight(float frac);

#endif
