/* sim_int.h: the emulator's internal structures, shared by the files of harness/sim only.
 *
 * Layers inside sim: sim_mem (device memory and address windows) -> sim_link (a launchable
 * program: symbols resolved, registers laid out) -> sim_exec (one warp-instruction for one
 * group of lanes) -> sim_warp (which lanes run next: divergence, reconvergence, progress)
 * -> sim_block (warps of a block, barriers, deadlock) -> sim_launch (the grid, workers).
 */
#ifndef WARPLAB_SIM_INT_H
#define WARPLAB_SIM_INT_H

#include <pthread.h>
#include <stdint.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "sim/sim.h"

/* The emulator's hand-written x86-64 vector code (GCC target attributes; not under ASan):
   SIM_X86 where it is built, and what the CPU has, asked once at load time (sim_exec.c). The
   portable code stays for other CPUs and builds. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
    !defined(__SANITIZE_ADDRESS__)
#define SIM_X86 1
#include <immintrin.h>
extern int sim_cpu_avx2, sim_cpu_avx2_fma, sim_cpu_f16c;
#endif

#ifdef SIM_X86
/* The low 32 bits of the eight 64-bit values at p (a warp's registers, offsets or stored
   words, eight lanes at a time), in order, in one vector. */
__attribute__((target("avx2"))) static inline __m256i sim_lo32x8(const uint64_t *p)
{
  __m256 lo = _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)(const void *)p));
  __m256 hi = _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)(const void *)(p + 4)));
  return _mm256_permute4x64_epi64(_mm256_castps_si256(_mm256_shuffle_ps(lo, hi,
                                                                         _MM_SHUFFLE(2, 0, 2, 0))),
                                  _MM_SHUFFLE(3, 1, 2, 0));
}

/* Eight 32-bit values to the registers (or 64-bit slots) at d, zero-extended, in order:
   sim_lo32x8's way back. */
__attribute__((target("avx2"))) static inline void sim_store32x8(uint64_t *d, __m256i r)
{
  _mm256_storeu_si256((__m256i *)(void *)d, _mm256_cvtepu32_epi64(_mm256_castsi256_si128(r)));
  _mm256_storeu_si256((__m256i *)(void *)(d + 4),
                      _mm256_cvtepu32_epi64(_mm256_extracti128_si256(r, 1)));
}

/* The same, sign-extended (as widen leaves an s32). */
__attribute__((target("avx2"))) static inline void sim_store_s32x8(uint64_t *d, __m256i r)
{
  _mm256_storeu_si256((__m256i *)(void *)d, _mm256_cvtepi32_epi64(_mm256_castsi256_si128(r)));
  _mm256_storeu_si256((__m256i *)(void *)(d + 4),
                      _mm256_cvtepi32_epi64(_mm256_extracti128_si256(r, 1)));
}

/* The largest and the smallest of eight unsigned 32-bit values. */
__attribute__((target("avx2"))) static inline uint32_t sim_max_u32x8(__m256i v)
{
  __m128i x = _mm_max_epu32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  x = _mm_max_epu32(x, _mm_shuffle_epi32(x, _MM_SHUFFLE(1, 0, 3, 2)));
  x = _mm_max_epu32(x, _mm_shuffle_epi32(x, _MM_SHUFFLE(2, 3, 0, 1)));
  return (uint32_t)_mm_cvtsi128_si32(x);
}

__attribute__((target("avx2"))) static inline uint32_t sim_min_u32x8(__m256i v)
{
  __m128i x = _mm_min_epu32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  x = _mm_min_epu32(x, _mm_shuffle_epi32(x, _MM_SHUFFLE(1, 0, 3, 2)));
  x = _mm_min_epu32(x, _mm_shuffle_epi32(x, _MM_SHUFFLE(2, 3, 0, 1)));
  return (uint32_t)_mm_cvtsi128_si32(x);
}

/* Whether v[l] == v[0] + l step for the first n lanes (n a multiple of 4; addresses or
   offsets at one stride: a coalesced access), four lanes a vector. */
__attribute__((target("avx2"))) static inline int sim_steps_avx2(const uint64_t *v, unsigned n,
                                                                uint64_t step)
{
  __m256i x = _mm256_add_epi64(_mm256_set1_epi64x((long long)v[0]),
                               _mm256_setr_epi64x(0, (long long)step, (long long)(2 * step),
                                                  (long long)(3 * step)));
  const __m256i by4 = _mm256_set1_epi64x((long long)(4 * step));
  __m256i bad = _mm256_setzero_si256();
#pragma GCC unroll 8
  for (unsigned l = 0; l < n; l += 4) {
    bad = _mm256_or_si256(bad, _mm256_xor_si256(
                                   _mm256_loadu_si256((const __m256i *)(const void *)(v + l)), x));
    x = _mm256_add_epi64(x, by4);
  }
  return _mm256_testz_si256(bad, bad);
}

/* The same for every lane of a full 32-lane warp. */
__attribute__((target("avx2"))) static inline int sim_lanes_step_avx2(const uint64_t *v,
                                                                     uint64_t step)
{
  return sim_steps_avx2(v, 32, step);
}

/* .ftz of eight f32s' bits: a subnormal (exponent 0) becomes the zero of its sign. */
__attribute__((target("avx2"))) static inline __m256i sim_ftz32x8(__m256i u)
{
  const __m256i exp = _mm256_set1_epi32(0x7f800000), sign = _mm256_set1_epi32((int)0x80000000u);
  return _mm256_blendv_epi8(u, _mm256_and_si256(u, sign),
                            _mm256_cmpeq_epi32(_mm256_and_si256(u, exp), _mm256_setzero_si256()));
}
#endif

/* sim_lanes_step_avx2's test, on any CPU. */
static inline int sim_lanes_step(const uint64_t *v, uint64_t step)
{
#ifdef SIM_X86
  if (sim_cpu_avx2)
    return sim_lanes_step_avx2(v, step);
#endif
  uint64_t bad = 0, x = v[0];
  for (unsigned l = 1; l < 32; l++)
    bad |= v[l] ^ (x += step);
  return !bad;
}

/* ---- address windows of generic addressing ---- */
#define SIM_GLOBAL_BASE   0x00007f0000000000ull  /* first device allocation */
#define SIM_SHARED_WIN    0x0000100000000000ull  /* generic address of shared offset 0 */
#define SIM_LOCAL_WIN     0x0000200000000000ull  /* generic address of local offset 0 */
#define SIM_WIN_SIZE      0x0000000100000000ull
#define SIM_PFRAME_BASE   0x01000000u            /* param-space offset of the per-thread frame */
#define SIM_MAX_WARP      64

/* ---- device memory ---- */
struct sim_alloc {
  uint64_t base, size;
  uint8_t *data;
  int read_only;
  int heap;                      /* the device heap: accesses are checked block by block
                                    (sim_heap_check), never cached per instruction */
  int view;                      /* a __constant__ variable: data points into its module's
                                    constant bank (struct sim_cbank), which owns it */
  uint8_t written;               /* a device store reached it since the host last wrote or
                                    filled all of it (sim_written); set by sim_mem_wrote */
  char name[64];
};

/* Mark allocation a as written by the device: every store path into global memory calls it
   (plain, vector, atomic, red, bulk and tensor copies, surfaces). Tested before it is set,
   so that a warp's stores to a marked buffer do not bounce its cache line between workers;
   relaxed, as sim_run's join orders it before the host reads it. The allocation array is
   not const, only the pointers the fast paths hold. */
static inline void sim_mem_wrote(const struct sim_alloc *a)
{
  uint8_t *m = (uint8_t *)&a->written;
  if (!__atomic_load_n(m, __ATOMIC_RELAXED))
    __atomic_store_n(m, 1, __ATOMIC_RELAXED);
}

/* A module's constant bank (ptxas's bank 3, .nv.constant3): its __constant__ variables laid
   out as ptxas lays them out, in SIM_CBANK_SIZE bytes at base, zero past the last one. Each
   variable is also an allocation of its own (a view into data), so that accesses inside one
   take the usual paths; a read that leaves its variable but stays in the bank is let through
   with a warning (sim_cbank_overread), as the GPU reads the bank's next bytes. */
#define SIM_CBANK_SIZE 65536u
struct sim_cbank {
  uint64_t base;
  uint8_t *data;                 /* SIM_CBANK_SIZE bytes */
  uint32_t used;                 /* end of the last variable */
  uint32_t nvars;
  struct sim_cvar {              /* by offset */
    uint32_t off, size;
    const char *name;
  } *vars;
};
/* The offsets ptxas gives module m's .const variables in bank 3, into off (per module var;
   variables of other spaces, and .extern ones, are left as they are): first the .visible
   (and .weak, .common) ones in declaration order, then the others in declaration order, each
   at the next multiple of its alignment. Returns the bytes used, which ptxas refuses past
   SIM_CBANK_SIZE. */
uint64_t sim_cbank_layout(const struct ptx_module *m, uint64_t *off);
/* Make module m's constant bank on d, each variable an allocation named name[i] (a view into
   the bank): off as sim_cbank_layout gave it; addr[i] receives each variable's address.
   SIM_OK or SIM_ERR_NOMEM. */
enum sim_status sim_cbank_new(struct sim_device *d, const struct ptx_module *m,
                              const uint64_t *off, uint64_t used, uint64_t *addr);

/* ---- what a launch reports besides its outcome (sim_note.c) ---- */
struct sim_notes {               /* of the launch running on a device */
  pthread_mutex_t lock;
  struct sim_warning warn[SIM_MAX_WARNINGS];
  uint32_t warn_block[SIM_MAX_WARNINGS]; /* linear index of each one's block */
  uint32_t nwarn;
  uint64_t warn_more;
  struct sim_gcond gcond[SIM_MAX_GCONDS];
  uint32_t gcond_block[SIM_MAX_GCONDS];
  uint32_t ngcond;
  uint64_t gcond_more;
};

struct sim_modvars {             /* where a module's global/const variables live on a device */
  const struct ptx_module *mod;
  uint64_t *addr;                /* per module var: device address, or 0 */
};

struct sim_device {
  struct sim_alloc *allocs;      /* sorted by base */
  uint32_t nallocs, cap;
  uint64_t next_base;
  struct sim_modvars *mods;
  uint32_t nmods;
  struct sim_tex *texs;          /* texture and surface objects (sim_tex.c): handle i + 1 */
  uint32_t ntexs, cap_texs;
  struct sim_heap *heap;         /* in-kernel malloc's heap (sim_heap.c), or NULL until a
                                    kernel that calls malloc or free is linked */
  uint64_t heap_limit;           /* its size when made; 0: SIM_HEAP_DEFAULT */
  uint32_t stack_limit;          /* a thread's call stack (sim_set_stack_size); 0: the default
                                    SIM_STACK_DEFAULT */
  struct sim_cbank *cbanks;      /* the constant bank of each module launched, in address order */
  uint32_t ncbanks;
  struct sim_notes notes;
};

/* Device allocation holding [addr, addr+size), or NULL. */
const struct sim_alloc *sim_mem_find(const struct sim_device *d, uint64_t addr, uint64_t size);
/* The allocation nearest to addr (for fault reports), or NULL when there are none. */
const struct sim_alloc *sim_mem_nearest(const struct sim_device *d, uint64_t addr);
/* Allocate like sim_malloc, marking read-only allocations (constant memory). */
enum sim_status sim_mem_alloc(struct sim_device *d, uint64_t size, const char *name,
                              int read_only, uint64_t *addr);
/* n zeroed bytes of host memory for a large buffer (device allocations, per-launch tables
   that workers fill as they go): from SIM_BIG_MIN bytes on, anonymous memory starting 16
   bytes past a 2 MiB boundary, advised for transparent huge pages, so that a first touch
   maps 2 MiB, not 4 KiB, and the workers of a launch take a page fault per 2 MiB; smaller
   (and under AddressSanitizer, which then keeps its red zones around them): calloc. NULL
   when host memory ran out. Free with sim_big_free and the same n. */
void *sim_big_alloc(uint64_t n);
void sim_big_free(void *p, uint64_t n);
/* Whether sim_big_alloc(n) maps memory of its own rather than calling calloc. */
int sim_big_mapped(uint64_t n);
#define SIM_BIG_MIN (2ull << 20)
/* The same for a launch's tables that its workers write as blocks run (first touches, each
   block's work), mapped from SIM_TABLE_MIN bytes on: their first access to a 4 KiB page is
   often a read, which maps the shared zero page, and the write after it replaces that with
   a page of its own and must flush the other workers' TLBs (an interrupt to each of their
   cores), a page at a time. A huge page does that once per 2 MiB. Free with sim_table_free
   and the same n. */
void *sim_table_alloc(uint64_t n);
void sim_table_free(void *p, uint64_t n);
int sim_table_mapped(uint64_t n);
#define SIM_TABLE_MIN (64ull << 10)
/* n bytes on a cache line of their own, for a launch's block storage and tables: a buffer
   that sim_keep_free kept in this process, of n's size class (the power of two at least n)
   or up to two classes larger, when there is one (its pages already mapped), else a fresh
   one: on huge pages (sim_table_alloc) with SIM_KEEP_HUGE, for a table that workers share,
   else from SIM_TABLE_MIN bytes on a mapping of 4 KiB pages. With SIM_KEEP_ZERO it reads
   as zeros (of a kept mapped one only the pages ever written and not all zeros are
   cleared); without, the caller writes all of it. NULL when host memory ran out. Free with
   sim_keep_free (sim_launch.c). */
enum { SIM_KEEP_ZERO = 1, SIM_KEEP_HUGE = 2 };
void *sim_keep_alloc(uint64_t n, unsigned flags);
void *sim_keep_zalloc(uint64_t n);
void sim_keep_free(void *p, uint64_t n);
/* Give every kept buffer back to the system (tests). */
void sim_keep_drop(void);
/* Which pages of [p, p + n) of this process's memory hold a page of their own, in memory or
   in swap (/proc/self/pagemap): one byte per page from the one holding p, nonzero when it
   does, the page size in *page; the others read as zeros (never written, or only read).
   Free with free. NULL when it cannot be told (no /proc, host memory ran out). */
unsigned char *sim_pages_used(const void *p, uint64_t n, uintptr_t *page);

/* ---- the device heap (sim_heap.c) ---- */
/* Make d's heap if it has none yet: SIM_OK, or SIM_ERR_NOMEM. */
enum sim_status sim_heap_ready(struct sim_device *d);
/* Free d's heap and its bookkeeping (sim_device_free). */
void sim_heap_free_all(struct sim_device *d);
/* Device malloc: the address of a new block of size bytes, 16-byte aligned, or 0 when the
   heap has no room (or was never made). Thread-safe. */
uint64_t sim_heap_malloc(struct sim_device *d, uint64_t size);
/* Device free: 0, or -1 when addr is not a live block's start (0 is: free(NULL) does
   nothing). Thread-safe. */
int sim_heap_free(struct sim_device *d, uint64_t addr);
/* An access of size bytes at addr in the heap's allocation: 0 when it lies in one live
   block, else -1. */
int sim_heap_check(const struct sim_device *d, uint64_t addr, uint32_t size);
/* Where an access the check refused lies, for the fault report: past the end of which block,
   or in memory no block holds. */
void sim_heap_describe(const struct sim_device *d, uint64_t addr, uint32_t size, char *buf,
                       size_t n);

/* ---- a linked program ---- */
struct sim_copy { uint32_t dst, src, size; };   /* param-frame offsets */
enum sim_builtin { SIM_BUILTIN_NONE = 0, SIM_BUILTIN_VPRINTF, SIM_BUILTIN_ASSERTFAIL,
                   SIM_BUILTIN_MALLOC, SIM_BUILTIN_FREE, SIM_BUILTIN_GRAPH_SET_COND };

struct sim_callinfo {
  uint32_t target;               /* code index of the callee's first instruction */
  uint32_t builtin;              /* enum sim_builtin: a CUDA runtime function the emulator
                                    provides itself (printf, assert, malloc, free,
                                    cudaGraphSetConditional) */
  uint32_t first_in, nin;        /* copies caller args -> callee params (into prog->copies) */
  uint32_t first_out, nout;      /* copies callee return -> caller retval */
  uint32_t recur;                /* the callee is recursive: 1 + its index in prog->rfuncs
                                    (sim_recur.c saves and restores its frame); else 0 */
  uint32_t first_alt;            /* an indirect call (target SIM_NO_TARGET): the call through
                                    a pointer to module function f is prog->calls[first_alt + f]
                                    (target SIM_NO_TARGET: not one this kernel can call) */
};
#define SIM_NO_TARGET UINT32_MAX

/* A recursive function (in a cycle of the call graph) of a linked program: what a call of
   it saves and sets up on the lane's call stack (sim_recur.c). */
struct sim_rfunc {
  uint32_t func;                 /* module function index */
  uint32_t reg, nregs;           /* its registers, hidden ones included */
  uint32_t pf_off, pf_size;      /* its .param variables: param-frame bytes [off, off + size) */
  uint32_t lsize;                /* its .local variables: bytes of an activation's frame */
  uint32_t cost;                 /* stack bytes an activation takes: ptxas's frame
                                    (sim_launch.frames), else lsize + SIM_RECUR_FRAME */
  int ptxas;                     /* cost is ptxas's frame, not the estimate */
  uint32_t first_hid, nhid;      /* its hidden registers, prog->hid[first_hid ..] */
};
/* A hidden register of a recursive function: an address of one of its .local variables (the
   variable's offset plus a constant), set at each call to the activation's frame + off. */
struct sim_hidreg { uint32_t reg, off; };
/* Stack bytes an activation takes besides its local variables (the return address and saved
   registers, which the emulator keeps elsewhere). */
#define SIM_RECUR_FRAME 16u

struct sim_prog {
  const struct ptx_module *mod;
  struct ptx_inst *code;         /* reachable functions, operands resolved (see sim_link.c) */
  uint32_t *orig;                /* code index -> module instruction index */
  uint32_t ncode;
  uint32_t entry;                /* code index of the kernel's first instruction */
  int entry_func;
  uint32_t nregs;                /* registers per thread: functions' + constant registers */
  uint32_t nconst;               /* constant registers: the last nconst registers */
  uint64_t *consts;              /* their values */
  uint32_t static_smem;          /* bytes */
  uint32_t dyn_base;             /* shared offset where dynamic shared memory starts */
  uint32_t local_size;           /* per-thread local bytes */
  uint32_t pframe_size;          /* per-thread param frame bytes */
  uint32_t kparam_size;
  struct sim_callinfo *calls;    /* indexed by the call instruction's opd[1].imm; then each
                                    indirect call's alternatives (first_alt) */
  uint32_t ncalls_all;           /* entries of calls: ncalls and the alternatives */
  int has_indirect;              /* some call is through a pointer */
  int recursive;                 /* some function is recursive: calls and returns go through
                                    sim_recur.c's per-lane call stack */
  struct sim_rfunc *rfuncs;      /* the recursive functions */
  uint32_t nrfuncs;
  struct sim_hidreg *hid;        /* their hidden registers */
  uint32_t nhid;
  uint32_t stack_base;           /* local offset where the call stack's frames start (after the
                                    other functions' local variables) */
  uint32_t stack_bytes;          /* a thread's call stack (cudaLimitStackSize) */
  uint32_t ncalls;
  struct sim_copy *copies;
  uint32_t ncopies;
  struct sim_svar {              /* the shared variables laid out, for the race reports */
    uint32_t var;                /* index in mod->vars */
    uint32_t off, size;          /* shared offset and bytes (extern: to the end of shared memory) */
  } *svars;
  uint32_t nsvars;
  uint64_t *croot;               /* per code pc of a load: the address of the __constant__
                                    variable its address was formed from (sim_cbank_roots), 0
                                    where not known; NULL when the module has none */
  uint64_t *zero;                /* bitmap of the function registers a block must start with
                                    zeroed, then their runs (sim_warp_zero_plan); NULL:
                                    all of them */
  uint8_t *fast;                 /* per code index (and one past the end, 0): non-zero where a
                                    warp's lanes may take sim_exec_run (sim_exec_fast_plan); NULL:
                                    none may */
  uint8_t *vfp;                  /* per code index: its enum sim_vfp, for the fast plan's
                                    TOP_VFP (sim_exec_fast_plan); NULL with fast */
  uint64_t *old_unread;          /* a bit per code index: an atom whose old value nothing reads
                                    (sim_warp_old_unread); NULL: none known */
  int smem_ro;                   /* 0: not known yet; 1: some instruction may write shared
                                    memory; 2: none can (sim_race.c, set by the first block that
                                    asks; atomic) */
};
/* Which instructions of p a full warp may run through sim_exec_run: an array of p->ncode + 1
   for p->fast, or NULL (none: the CPU lacks the vector code, or out of memory); *vfp gets
   p->vfp's array (NULL with it). */
uint8_t *sim_exec_fast_plan(const struct sim_prog *p, uint8_t **vfp);
/* Fuse mul/add pairs without rounding modifier into fma as ptxas does (sim_contract.c). */
void sim_contract_fma(struct sim_prog *p);


/* Link entry `func` of m for a launch on d: allocate module variables on d if needed,
   resolve symbols, lay out shared/local/param memory. */
enum sim_status sim_link(struct sim_device *d, const struct ptx_module *m, int func,
                         struct sim_prog *p, char *err, size_t errlen);
void sim_prog_free(struct sim_prog *p);

/* ---- warps ---- */
struct sim_cbar {                /* a convergence barrier: lanes meet again at pc */
  uint32_t pc;
  uint32_t from;                 /* the divergent branch that set it up (its pc), for reports:
                                  its line is the if's, where pc's may be any code after it */
  uint64_t expect;               /* lanes that are to arrive */
  uint64_t waiting;              /* the cwait lanes whose top barrier this is: released when
                                    it holds every live lane of expect */
  int32_t parent;                /* the barrier under it on each of its lanes' stacks (the top
                                    they shared when it was pushed), or -1 */
};

#define SIM_PF_SLOTS 32          /* struct sim_warp.pf: a power of 2 */
#define SIM_CSTACK 96            /* nesting depth of divergence per lane */
#define SIM_CALLDEPTH 32
#define SIM_NCBAR 512

enum sim_wstate { SIM_W_RUN = 0, SIM_W_BLOCKED, SIM_W_DONE };

struct sim_warp {
  uint32_t id;                   /* warp index in the block */
  uint32_t nlanes;               /* W */
  uint64_t exists;               /* lanes that are threads of the block */
  uint64_t live;                 /* not exited */
  uint64_t barwait;              /* waiting at bar.sync */
  uint64_t syncwait;             /* waiting at a .sync collective or bar.warp.sync */
  uint64_t prefer;               /* ITS: lanes let past a convergence barrier, run them first */
  uint64_t cwait;                /* waiting at their top convergence barrier */
  uint8_t barpred[SIM_MAX_WARP]; /* bar.red: each waiting lane's predicate */
  uint64_t barat[16];            /* the barwait lanes by barrier id */
  uint32_t barpc[16];            /* the bar instruction the first of them waits at */
  uint32_t barmixed;             /* ids whose lanes wait at more than one bar instruction */
  uint32_t barids;               /* ids whose barat is not empty */
  uint32_t pc[SIM_MAX_WARP];     /* per-lane pc, valid for lanes outside the current group */
  uint32_t tid[SIM_MAX_WARP][3];

  /* the current group: lanes at one pc that run together until a control event */
  uint64_t gmask;
  uint32_t gpc;
  int32_t gtop;                  /* their top convergence barrier, or -1 */
  int have_group;

  /* convergence barriers */
  struct sim_cbar cbar[SIM_NCBAR];
  uint32_t ncbar;                /* high-water mark; free slots have expect == 0 */
  int16_t cstack[SIM_CSTACK][SIM_MAX_WARP]; /* by depth, then lane: a push at one depth for
                                               lanes of a warp stores to one row */
  uint8_t csp[SIM_MAX_WARP];

  /* calls */
  uint32_t ret_pc[SIM_MAX_WARP][SIM_CALLDEPTH];
  uint32_t ret_call[SIM_MAX_WARP][SIM_CALLDEPTH];
  uint32_t depth[SIM_MAX_WARP];
  struct sim_rlane *rl;          /* a recursive program's per-lane call stacks (sim_recur.c),
                                    made at the first call; else NULL */

  uint64_t *regs;                /* nregs * W */
  uint8_t *local;                /* local_size * W */
  uint8_t *pframe;               /* pframe_size * W */
  uint8_t carry[SIM_MAX_WARP];   /* add.cc carry flag */

  enum sim_wstate state;
  uint64_t spin;                 /* consecutive backward branches taken while lanes wait */
  uint64_t backs;                /* backward branches taken, for the livelock check */
  uint64_t snap_hash, snap_writes;
  uint64_t loopers;              /* lanes that took a backward branch since the checkpoint */

  /* cp.async (sim_async.c): copies issued and not yet waited on, in issue order, and each
     lane's count of committed groups */
  struct sim_acopy *acp;
  uint32_t nacp, cap_acp;
  uint32_t agroups[SIM_MAX_WARP];
  /* bulk copies (cp.async.bulk, sim_async.c): issued and not yet done, in issue order, and
     each lane's count of committed bulk groups */
  struct sim_bulk *bulk;
  uint32_t nbulk, cap_bulk;
  uint32_t bgroups[SIM_MAX_WARP];
  uint8_t async_used;            /* sim_exec ran a cp instruction (the only ones that fill the
                                    queues or count groups) since sim_warp_init last emptied
                                    them: the next block's sim_warp_init must */
  uint64_t snap_loopers;         /* ... and in the window before it (deadlock reports) */
  int snap_valid, spinning;
  int consts_set;                /* the constant registers hold p->consts (sim_warp_init: the
                                    code never writes them, so once a launch is enough) */
  uint32_t wsync;                /* __syncwarp()s and .sync collectives the warp has completed:
                                    the race checker's order between its lanes */
  /* barrier.cluster (sim_cluster.c): lanes that arrived and have not waited yet, the phase
     they arrived in, and lanes waiting (also in barwait, at no block barrier) */
  uint64_t clarr, clwait;
  uint32_t clphase[SIM_MAX_WARP];
  /* where a few of the warp's coalesced global accesses (by pc) were last, and how far they
     moved from the one before: the next is fetched ahead when that repeats (sim_exec.c's
     prefetch_next); stale slots (a block before) only make a useless prefetch */
  struct sim_pf {
    uint32_t pc;
    int64_t delta;
    uint64_t addr;
  } pf[SIM_PF_SLOTS];
};

/* ---- blocks ---- */
struct sim_worker;
struct sim_block;

/* A cluster of blocks that run together (sim_cluster.c): their distributed shared memory and
   barrier.cluster. A launch without clusters gives each block a cluster of its own. */
struct sim_cluster {
  uint32_t n;                    /* blocks */
  struct sim_block **blk;        /* by rank (%cluster_ctarank) */
  uint32_t phase;                /* barrier.cluster phases completed */
  uint64_t *progress;            /* bumped when a phase completes (the group's progress
                                    count, sim_launch.c), or NULL */
};

/* Where distributed shared memory lives: a shared-space address at or past this names block
   (address / SIM_DSMEM_STRIDE - 1) of the cluster, at offset address % SIM_DSMEM_STRIDE. */
#define SIM_DSMEM_STRIDE 0x01000000u

/* The shared memory a block holds for NVIDIA's system software (sm_80 and later; the 1 KB
   reservedSharedMemPerBlock of the arch profiles, counted by the occupancy calculator):
   %reserved_smem_offset_begin .. _end. A GPU puts it below the kernel's own shared memory;
   the emulator puts it at a shared offset of its own, far past any block's shared memory, so
   that an access just outside the kernel's arrays still faults. cooperative_groups keeps its
   multi-warp tiles' barriers and exchange slots (288 bytes) at %reserved_smem_offset_1. */
#define SIM_RSMEM_BASE   0x00800000u
#define SIM_RSMEM_SIZE   1024u
#define SIM_RSMEM_OFF1   512u             /* %reserved_smem_offset_1 - _begin */

/* *p = min(*p, v), atomically */
static inline void sim_atomic_min_u32(uint32_t *p, uint32_t v)
{
  uint32_t cur = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (v < cur && !__atomic_compare_exchange_n(p, &cur, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
    ;
}

/* What the launch's printf output has come to (kept by sim_launch.c, read by sim_builtin.c). */
struct sim_printf {
  uint32_t cut_after;            /* atomic: the output kept fills SIM_PRINTF_FIFO with blocks up
                                    to this linear index: what later blocks print is not kept */
  uint32_t cut;                  /* atomic: the lowest block some of whose output was not kept
                                    (UINT32_MAX: none; 0 also when the pool lost some) */
};

/* The budget's grace, outside groups. Once a block of the launch has waited for another
   (sim_launch.c arms it), the block whose instructions pass the budget does not fault: it
   gives the launch one budget more and pauses it, so that the blocks still running, itself
   among them, reach their wait or end before the launch reports the lowest waiting block,
   whatever the workers' timing; with none waiting, the launch goes on, and the next block to
   pass the budget faults. */
enum sim_grace {
  SIM_GRACE_NONE = 0,            /* no block has waited, or the grace was used */
  SIM_GRACE_ARMED,
  SIM_GRACE_PAUSED               /* given: no block starts or resumes until the running stop */
};

#define SIM_TOUCH_HINTS 4        /* struct sim_block.touch_hint: a power of 2 */
struct sim_block {
  const struct sim_prog *prog;
  struct sim_device *dev;
  const struct sim_launch *cfg;
  struct sim_worker *worker;
  uint32_t ctaid[3];
  uint32_t linear;               /* linear block index */
  uint32_t nthreads, nwarps, W;
  uint8_t *smem;
  uint32_t smem_size;
  _Alignas(16) uint8_t rsmem[SIM_RSMEM_SIZE]; /* the reserved shared memory, zeroed when the
                                                 block begins */
  const uint8_t *kparams;
  uint32_t kparam_size;
  struct sim_warp *warps;
  uint64_t writes;               /* stores and atomics by this block that changed memory
                                    (the progress watch) */
  uint32_t bar_arrived[16];      /* bar.arrive counts per barrier */
  /* bar.sync and bar.red by barrier id, counted as lanes arrive (sim_warp.c) and cleared as
     the barrier is released (sim_block.c), so that a release looks at no other warp */
  uint32_t bar_count[16];        /* threads waiting */
  uint32_t bar_expect[16];       /* the thread count the first counted lane names ... */
  uint32_t bar_namer[16];        /* ... that lane, warp * SIM_MAX_WARP + lane */
  uint64_t bar_warps[16];        /* the warps with lanes waiting (of the first 64) */
  uint32_t bar_ids;              /* ids with threads waiting */
  uint32_t bar_counted;          /* ... of which some wait at a bar with a thread count */
  uint32_t bar_red;              /* ... some at a bar.red */
  uint32_t bar_mixed;            /* ... some warp's lanes at more than one bar instruction */
  uint32_t nlive;                /* the block's threads that have not exited */
  char *out;                     /* this block's printf output */
  size_t out_len, out_cap;
  struct sim_printf *pf;         /* the launch's */
  const struct sim_alloc **alloc_cache; /* per code pc: the allocation it last touched */
  struct sim_inst_stats *stats;  /* the worker's statistics, indexed by code pc */
  int faulted;
  struct sim_result *res;        /* where the fault goes */
  struct sim_counters ctr;
  uint64_t sectors, wavefronts;  /* its global/local sectors and shared wavefronts so far
                                    (struct sim_bwork) */
  volatile uint32_t *stop_after; /* blocks past this linear index stop (a lower one faulted) */
  const struct sim_worker *all_workers;
  uint32_t nworkers;
  uint64_t *budget_used;         /* shared counter, updated in chunks */
  uint64_t budget;
  uint64_t chunk;                /* instructions not yet added to budget_used */
  int *budget_grace;             /* outside groups, the launch's enum sim_grace (atomic), NULL
                                    in a group */
  struct sim_tblock *trace;      /* where this block's instructions are recorded, or NULL */
  struct sim_trace *touch;       /* the launch's first touches (every block), or NULL ... */
  uint64_t touch_key0;           /* ... the key of its touches at 0 warp-instructions
                                    (sim_touch_key), 0 until sim_trace.c first needs it ... */
  struct sim_touch_hint {        /* ... and, per allocation it touched, the lines whose keys
                                    are its own (sim_trace.c; zero: none yet) */
    const struct sim_alloc *al;
    uint64_t lo, n;              /* lines lo .. lo + n - 1 of al's segment, none of them
                                    shared with an allocation before it ... */
    uint64_t off;                /* ... line x's key: touch->touch[off + x] (off wraps) */
  } touch_hint[SIM_TOUCH_HINTS];
  uint64_t touch_memo[32];       /* the lines of the block's last full-warp access whose lines
                                    sim_trace.c took a lane at a time (each lane's bytes in
                                    one line), all then keeping a key of this block or with
                                    touch_shared set, no later than that access's ... */
  int touch_memo_ok;             /* ... when set (an access of the same lines later in the
                                    block changes nothing) */
  struct sim_lanes *lanes;       /* the lane log, when this block holds its warp, or NULL */
  int lanes_open;                /* the last instruction run was the logged warp's */
  uint64_t lanes_before[4];      /* its statistics before it ran (sim_lanes.c) */
  struct sim_race *race;         /* the shared-memory checker's shadow (sim_race.c), or NULL */
  uint32_t race_base;            /* the epoch the block started in */
  uint32_t race_ep;              /* the current barrier epoch (one more at each release) */
  uint32_t race_gused;           /* global words and lines this block wrote that the checker
                                    holds (0: its global reads need no look-up) ... */
  uint64_t race_glo, race_gspan; /* ... nor reads outside [race_glo, race_glo + race_gspan] */
  int un_pending;                /* a read of unwritten shared memory, reported at the next
                                    barrier or the block's end unless a racing write explains it */
  uint32_t un_pc, un_warp, un_lane, un_addr, un_size;
  uint64_t mb_fails;             /* mbarrier waits that found their phase open since an
                                    mbarrier or memory last changed (sim_async.c) ... */
  uint64_t mb_writes;            /* ... and b->writes when that count started */
  uint64_t park_writes;          /* outside a group: the launch's global writes when it last
                                    returned SIM_BS_WAIT (sim_launch.c resumes it after more) */
  int final;                     /* outside a group: nothing else can write what it waits for:
                                    sim_block_resume reports the deadlock, not SIM_BS_WAIT */
  struct sim_cluster *cluster;   /* its cluster, when it runs in a group (sim_launch.c), else
                                    NULL: then own is its cluster of one */
  struct sim_cluster own;
  struct sim_block *own_blk;
  uint32_t crank;                /* its rank in the cluster */
  uint64_t coop_ws;              /* the grid workspace of a cooperative launch (%envreg1:2) */
  int in_group;                  /* run by sim_block_resume among the other blocks of its
                                    group: waiting for them yields instead of a deadlock */
  struct sim_race *race_own;     /* the checker's shadow of a block in a group (its own) */
  uint64_t order_rng;            /* under an order seed (sim_launch.order_seed): the state of
                                    the generator that shuffles its warps' turns */
};

/* The splitmix64 step: the next pseudo-random number of the order generator at *s
   (sim_launch.order_seed). */
static inline uint64_t sim_order_next(uint64_t *s)
{
  uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* What a worker is doing, for the progress watch of the blocks on the others. */
enum sim_wkstate {
  SIM_WK_IDLE = 0,               /* not started, or out of blocks */
  SIM_WK_RUNNING,                /* running a block that makes progress, or taking the next */
  SIM_WK_STUCK                   /* its block's warps spin without changing anything or wait */
};

struct sim_redbuf;

struct sim_worker {
  uint64_t global_writes;        /* this worker's stores and atomics that changed global memory */
  const struct sim_alloc *red_al; /* the allocation of the adds red holds, NULL: none */
  struct sim_redbuf *red;        /* those adds (sim_redbuf.c), allocated at the first */
  uint32_t state;                /* enum sim_wkstate (atomic): kept by the workers of groups */
  char pad[36];
};
_Static_assert(sizeof(struct sim_worker) == 64, "struct sim_worker is one cache line");

/* ---- a worker's global integer adds whose old values nothing reads (sim_redbuf.c) ----
   A histogram's `atomicAdd(&bins[v], 1)` on several workers made every lane a host atomic
   on cache lines both workers write: two workers ran it slower than one. A worker instead
   sums such 32-bit adds by word (red, or an atom whose destination no instruction reads:
   sim_prog.old_unread) and adds each word's sum to memory later, with one host atomic.
   Integer adds commute, so memory ends the same; until then the adds are this worker's
   alone, as a relaxed atomic's may be. The worker adds them to memory (sim_redbuf_flush)
   before any access that must see them: when one of its warps accesses that allocation in
   any other way (sim_redbuf_touch, on every path to global memory: a block's warps all run
   on its worker), at a fence, a volatile access or a release (the PTX memory model's
   orderings across blocks), and whenever a block's turn on the worker ends (it ends, parks,
   waits: another worker may resume it). With one worker every read sees what it would
   without them, and the progress watch counts each add when it is made, as before; with
   several, a flush that adds anything counts one write more, so that a block parked on
   another worker looks again. */
#define SIM_REDBUF_SLOTS 4096u
struct sim_redbuf {
  uint32_t n;                          /* slots in use */
  int off;                             /* holding stopped paying: the adds go to memory */
  uint64_t held, taken;                /* adds held, and those that took a slot another word
                                          held (which went to memory) */
  uint16_t used[SIM_REDBUF_SLOTS];     /* their indices, in the order taken */
  uint32_t add[SIM_REDBUF_SLOTS];      /* the sum held for the word */
  uintptr_t key[SIM_REDBUF_SLOTS];     /* the word's host address; 0: free */
};
/* Add every sum wk holds to memory (host atomics) and empty it; nworkers: the launch's. */
void sim_redbuf_flush(struct sim_worker *wk, uint32_t nworkers);
/* Words the flushes have added to memory, and the flushes that added any, over every launch
   (for the tests: that adds were held, and when they went). */
extern unsigned long sim_redbuf_flushed, sim_redbuf_flushes;
/* Allocate wk's buffer (NULL when host memory ran out). */
struct sim_redbuf *sim_redbuf_alloc(struct sim_worker *wk);
/* Free wk's buffer (empty: every block's turn flushed it). */
void sim_redbuf_free(struct sim_worker *wk);

/* Hold back an add of v to the 32-bit word at host address hp of wk's red_al. A word a
   slot held before goes to memory first. */
static inline void sim_redbuf_add(struct sim_redbuf *rb, uintptr_t hp, uint32_t v)
{
  const unsigned i = (unsigned)(hp >> 2) & (SIM_REDBUF_SLOTS - 1);
  if (rb->key[i] != hp) {
    if (rb->key[i]) {
      __atomic_fetch_add((uint32_t *)rb->key[i], rb->add[i], __ATOMIC_SEQ_CST);
      rb->taken++;
    } else {
      rb->used[rb->n++] = (uint16_t)i;
    }
    rb->key[i] = hp;
    rb->add[i] = 0;
  }
  rb->add[i] += v;
}

/* The buffer of wk, allocated at the first call; NULL when host memory ran out, or once
   holding stopped paying (then the adds go to memory at once). */
static inline struct sim_redbuf *sim_redbuf_get(struct sim_worker *wk)
{
  struct sim_redbuf *rb = wk->red ? wk->red : sim_redbuf_alloc(wk);
  return rb && !rb->off ? rb : NULL;
}

/* Before adds to allocation al are held: what wk holds for another goes to memory. */
static inline void sim_redbuf_hold(struct sim_worker *wk, const struct sim_alloc *al,
                                   uint32_t nworkers)
{
  if (wk->red_al != al) {
    sim_redbuf_flush(wk, nworkers);
    wk->red_al = al;
  }
}

/* After n more adds held: when more than a quarter of the last ones took a slot from another
   word (bins far more than the slots: each add then cost a host atomic and the buffer's work
   besides), the worker stops holding for the rest of the launch. */
static inline void sim_redbuf_held(struct sim_redbuf *rb, unsigned n)
{
  rb->held += n;
  if (rb->held >= 4 * SIM_REDBUF_SLOTS) {
    if (4 * rb->taken > rb->held)
      rb->off = 1;
    rb->held = rb->taken = 0;
  }
}

/* Before instruction in (NULL: none) of a warp of b accesses allocation al (NULL: none)
   other than by an add the worker holds back: the worker's held adds go to memory first
   when they are al's, or when in is volatile or orders the writes before it (sim_redbuf).
   One test of a pointer while none are held. */
static inline void sim_redbuf_touch(struct sim_block *b, const struct ptx_inst *in,
                                    const struct sim_alloc *al)
{
  const struct sim_alloc *h = b->worker->red_al;
  if (__builtin_expect(h != NULL, 0) &&
      (h == al || (in && (in->flags & (PTX_F_VOLATILE | PTX_F_RELEASE)))))
    sim_redbuf_flush(b->worker, b->nworkers);
}

/* Sum of every worker's global writes (monotonic; racy reads are fine). */
uint64_t sim_launch_global_writes(const struct sim_block *b);
/* 1 when a worker other than b's runs a group that is not stuck (or is about to take one): it
   may yet write what b's group waits for. */
int sim_launch_others_running(const struct sim_block *b);

/* ---- a launch's counters as a serial run gives them (sim_tally.c) ---- */
static inline void sim_counters_add(struct sim_counters *to, const struct sim_counters *c)
{
  to->warp_insts += c->warp_insts;
  to->thread_insts += c->thread_insts;
}

/* A serial run starts blocks in index order and stops at the first that faults: its counters
   are those of the blocks up to that one. With blocks on several workers, a block past the
   faulting one may have ended (or been cut short) by then, so the blocks a worker runs one
   after another (a claim's, lo..hi) count into a table of their own, handed to the tally
   when they have ended (sim_tally_add, under the launch's lock): the blocks below the
   lowest that has not ended, summed in `done`; the others that have ended, in runs of
   consecutive blocks, each summed. A block faults before it ends, and a worker starts no
   block of its claim past a fault, so no run holds blocks on both sides of one; a run past
   the lowest faulting block is dropped, as is every range past it that ends later. The
   runs number at most the ranges started and not ended, plus one. */
struct sim_tally_run {
  uint32_t lo, hi;                 /* blocks lo..hi, all ended */
  struct sim_counters ctr;
  struct sim_inst_stats *st;       /* per code pc, summed */
};
struct sim_tally {
  uint32_t ncode;
  uint32_t low;                    /* the lowest block that has not ended */
  struct sim_counters done_ctr;    /* blocks below low, summed */
  struct sim_inst_stats *done;
  struct sim_tally_run *run;       /* by lo; none holds low */
  uint32_t nrun, caprun;
  struct sim_inst_stats **spare;   /* zeroed tables, for blocks to count into */
  uint32_t nspare, capspare;
};
/* 0, or -1 when host memory ran out. */
int sim_tally_init(struct sim_tally *t, uint32_t ncode);
void sim_tally_free(struct sim_tally *t);
/* A zeroed table of t's size (a spare, or a new one; free() frees it); NULL when host
   memory ran out. */
struct sim_inst_stats *sim_tally_table(struct sim_tally *t);
/* Blocks lo..hi ended with counters *ctr and table *st, stop the lowest faulting block so
   far (UINT32_MAX: none). *st is zeroed, or kept by the tally and replaced with a zeroed
   one (NULL when host memory ran out). 0, or -1 when host memory ran out. */
int sim_tally_add(struct sim_tally *t, uint32_t lo, uint32_t hi, const struct sim_counters *ctr,
                  struct sim_inst_stats **st, uint32_t stop);
/* Blocks lo..hi, lo the lowest not ended when they started (every block before had ended:
   none of them can fault, so what they count is kept, and they counted into their worker's
   own table), have ended; stop as sim_tally_add's. */
void sim_tally_pass(struct sim_tally *t, uint32_t lo, uint32_t hi, uint32_t stop);
/* The blocks up to stop, summed into to (per code pc) and *ctr. */
void sim_tally_sum(const struct sim_tally *t, uint32_t stop, struct sim_inst_stats *to,
                   struct sim_counters *ctr);

/* ---- launch checks ---- */
#define SIM_CLUSTER_PORTABLE_MAX 8u  /* blocks a cluster may hold without the non-portable
                                        attribute */
/* The cluster part of sim_launch_check (sim_launch_cluster.c): the launch of kernel func, named
   `who` in the words, against its __cluster_dims__ and __launch_bounds__ cluster bound. SIM_OK,
   or SIM_ERR_BADARG with the driver's error and why in err. */
enum sim_status sim_launch_check_cluster(const struct ptx_module *m, int func,
                                         const struct sim_launch *c, const char *who, char *err,
                                         size_t n);

/* ---- execution ---- */
/* Blocks that run interleaved or are set aside (sim_launch.c): sim_block_begin sets b up,
   sim_block_resume runs it for about slice warp-instructions (0: no limit) and says why it
   stopped, sim_block_stuck reports the deadlock of a block nothing can free (b->faulted).
   A block of a group (a cooperative grid, a cluster) waits for the other blocks of its group;
   one outside a group waits only when its warps spin on memory another block may write, with
   b->park_writes set, and its race check ends there (it may resume on another worker thread,
   unchecked); with b->final set it reports its deadlock instead. */
enum sim_bstep {
  SIM_BS_DONE = 0,               /* ended, faulted, or stopped (a lower block faulted) */
  SIM_BS_YIELD,                  /* its slice is used up; it can go on */
  SIM_BS_WAIT                    /* no warp can run: it waits for another block */
};
void sim_block_begin(struct sim_block *b);
enum sim_bstep sim_block_resume(struct sim_block *b, uint64_t slice);
void sim_block_stuck(struct sim_block *b);

/* ---- clusters and cooperative launches (sim_cluster.c) ---- */
/* The value of cluster or %envreg special register sr for block b (0 for any other). */
uint64_t sim_cluster_sreg(const struct sim_block *b, unsigned sr);
/* b's cluster (its own cluster of one when it runs alone). */
struct sim_cluster *sim_cluster_of(struct sim_block *b);
/* barrier.cluster.arrive (wait 0) or .wait (wait 1) by lanes e of warp w: returns the lanes
   that go on past it; the others wait (w->clwait, w->barwait) until sim_cluster_release. */
uint64_t sim_cluster_barrier(struct sim_block *b, struct sim_warp *w, int wait, uint64_t e);
/* Let past the lanes of b waiting at barrier.cluster.wait whose phase completed (a thread that
   exited may have completed it). Returns 1 when some were, else 0. */
int sim_cluster_release(struct sim_block *b);
/* Host pointer of size bytes at shared-space address a (past SIM_DSMEM_STRIDE: another block
   of the cluster), or NULL when a is in no block's shared memory. */
uint8_t *sim_cluster_smem(struct sim_block *b, uint64_t a, uint32_t size);
/* mapa: address a of lane l (generic when space is NONE, else shared::cta) as the same
   location in the block of rank `rank` of b's cluster. Returns 0 with *out set, or -1 after
   reporting the fault (a rank outside the cluster, an address outside shared memory). */
int sim_cluster_mapa(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l,
                     enum ptx_space sp, uint64_t a, uint64_t rank, uint64_t *out);

/* Run warp w of block b for up to quantum instructions. Returns the number executed; sets
   w->state. A fault marks b->faulted. */
uint64_t sim_warp_run(struct sim_block *b, struct sim_warp *w, uint64_t quantum);
/* The function registers of p that some instruction may read before every path to it has
   written them: a bitmap (one bit a register, 64 a word: max(1, (nregs - nconst + 63) / 64)
   words), then the count of its runs of set bits and each run's first register and the one
   past its end, for sim_warp_init, which zeroes only those at the start of a block; or NULL
   when host memory ran out (then all are zeroed). */
uint64_t *sim_warp_zero_plan(const struct sim_prog *p);
/* The atoms of p whose old value no instruction reads (their destination register is no
   operand that any instruction reads): a bitmap, a bit per code index, for the adds a worker
   may hold back (sim_redbuf); NULL when host memory ran out (none). */
uint64_t *sim_warp_old_unread(const struct sim_prog *p);
/* Make lanes m of w, all at pc with top convergence barrier top (-1: none), its current
   group when that is the group select_group would choose next (and report, were the budget
   spent before it runs): 1; else 0, w unchanged. */
int sim_warp_take_group(struct sim_warp *w, uint64_t m, uint32_t pc, int top);
/* The 32 lanes of a 32-lane warp w, all live, just released from a barrier and all at pc
   (w->pc not yet stepped on to it): w's current group when that is the group select_group
   would choose next (the whole warp, no convergence barrier open, nothing preferred, no lane
   waiting): 1, with w->pc left as it was (a group's lanes' pcs are its gpc); else 0, w
   unchanged. */
int sim_warp_rejoin32(struct sim_warp *w, uint32_t pc);
/* 1 (the default): sim_warp.c and sim_block.c choose a warp's next group where a branch
   split it or a barrier released it (sim_warp_take_group); 0 (tests only): select_group
   always chooses, for comparison. */
extern int sim_warp_shortcuts;
/* Set up warp w's lanes at the entry point. */
void sim_warp_init(struct sim_block *b, struct sim_warp *w);

/* The per-lane pcs of a full 32-lane warp, with AVX2 where the CPU has it (sim_warp.c): set
   every one to v; step every one on; whether every one is pc[0]'s and no lane has a
   convergence barrier open (csp[l] 0). */
void sim_pcs_fill32(uint32_t *pc, uint32_t v);
void sim_pcs_inc32(uint32_t *pc);
int sim_pcs_uniform32(const uint32_t *pc, const uint8_t *csp);
/* select_group's choice among the lanes cand (not empty) of warp w: the lowest pc of theirs
   into *pc, and its lanes under the convergence barrier on top of the lowest-numbered one's
   stack (-1: none), that barrier into *top (sim_warp.c; a 32-lane warp's with AVX2 while
   sim_warp_shortcuts is set). */
uint64_t sim_warp_scan_group(const struct sim_warp *w, uint64_t cand, uint32_t *pc, int *top);
/* Whether the 32 lanes of register r (a 32-lane warp's) all hold r[0] (sim_warp.c). */
int sim_reg_uniform32(const uint64_t *r);
#ifdef SIM_X86
/* Bit l: bit 0 of g[l], for the 32 lanes of a warp (a guard predicate's lanes), four lanes a
   movemask; only where the CPU has AVX2 (sim_exec.c's and sim_warp.c's fast paths). */
__attribute__((target("avx2"))) static inline uint64_t sim_guard_bits32_avx2(const uint64_t *g)
{
  uint64_t e = 0;
  for (unsigned l = 0; l < 32; l += 4) {
    __m256i v = _mm256_slli_epi64(_mm256_loadu_si256((const __m256i *)(const void *)(g + l)), 63);
    e |= (uint64_t)(unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(v)) << l;
  }
  return e;
}
#endif
/* cstack[csp[l]][l] = t for the lanes l of m (not 0) of warp w: a new convergence barrier
   on top of their stacks, before their csp counts it (sim_warp.c). */
void sim_warp_cstack_put(struct sim_warp *w, uint64_t m, int16_t t);

/* Execute instruction `in` (code index pc) for lanes `m` of warp w. Returns the next pc for
   non-control instructions; control instructions are handled by sim_warp. On a fault,
   fills b->res and sets b->faulted. */
uint32_t sim_exec(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t m);
/* Run lanes m (not empty) of a 32-lane warp w of block b from pc through the instructions
   p->fast marks, one after another (on through a branch that m's lanes take all together,
   or none of them, as control() would), as sim_exec(b, w, pc, m) would: at most *n of them,
   stopping before pc `stop` (a convergence point), before an unmarked one, before a shared
   access with an address out of bounds (sim_exec's to report) and, for a partial warp, before
   a global access. Sets *n to the number run (0: run pc through sim_exec); returns the next
   pc. On a fault (a race the checker ends the block for), b->faulted is set and the pc
   returned is the faulting one's. */
uint32_t sim_exec_run(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint32_t stop,
                      uint64_t m, uint64_t *n);
/* A backward branch taken by w's whole current group (w->gpc its target), inside
   sim_exec_run: what control() does for it (the livelock watch, ITS's escape). Returns 0
   when that dissolved the group (waiting lanes let go), else 1. */
int sim_warp_back(struct sim_block *b, struct sim_warp *w);
/* An if without else inside sim_exec_run (sim_warp.c): the group of w (running, gmask g) at
   a bra to target, its reconvergence point, whose lanes e (not none, not all) take it.
   sim_warp_skip_ok: 1 when control() would split g there, run g & ~e on from the next
   instruction as one group and, once those reach target, run g on from there as one group
   again, under the same top barrier, with no choice select_group makes and no fault (0:
   sim_warp_shortcuts is 0, or any other case). Then sim_exec_run may run the lanes of g & ~e
   up to target itself; sim_warp_skip leaves w as control() and arrive_group would once they
   got there (gpc the caller's to set), and sim_warp_split (branch at pc) as control() would
   have at the branch, where they stopped before the target (gpc the caller's to set: where
   they stopped). sim_warp_split returns 0, or 1 after reporting a fault (none where
   sim_warp_skip_ok said 1). */
int sim_warp_skip_ok(const struct sim_warp *w, uint64_t e, uint32_t target);
/* An if with an else inside sim_exec_run (sim_warp.c): the group of w at a bra at pc whose
   lanes e (not none, not all) take it, join its reconvergence point. 1 when control() would
   split g there, run g & ~e on from the next instruction as one group and, once those wait
   at join, the lanes of e from the target as one group (select_group's choice: no other lane
   can run, none is preferred, join's barrier the new one), and once those get there run g on
   from join as one group again under the same top barrier, with no fault (0: any other case,
   or sim_warp_shortcuts 0). Then sim_exec_run may run both sides to join itself, and
   sim_warp_skip leaves w as control() and arrive_group would once they got there (gpc the
   caller's to set). */
int sim_warp_ifelse_ok(const struct sim_warp *w, uint64_t e, uint32_t pc, uint32_t join);
/* A bar.warp.sync inside sim_exec_run by w's whole 32-lane group, its mask the whole warp:
   1 when control() would step the group past it at once and take it again as it was (no
   lane waiting at a collective, a barrier or a convergence barrier, none open, none
   preferred), so that the run goes on through it, the warp's __syncwarp count stepped. */
int sim_warp_sync_ok(const struct sim_warp *w);
void sim_warp_skip(struct sim_warp *w);
int sim_warp_split(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t e);
/* sim_exec of the unguarded shfl.sync at pc for lanes m of a 32-lane warp: the same values,
   counts and trace, with the shuffle's mode chosen once for the warp rather than lane by
   lane and none of sim_exec's dispatch. Returns pc + 1. */
uint32_t sim_exec_shfl(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t m);

/* Fill a memory fault report for lane `lane` of warp w at code index pc. */
void sim_fault_mem(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned lane,
                   enum sim_fault_kind kind, enum ptx_space sp, enum sim_access acc,
                   uint64_t addr, uint32_t size);
/* "k.cu:12" for module instruction mi, "k.cu:12 (inlined into line 30)" when the device
   function holding line 12 was inlined at line 30 (", then 41" for each call further out),
   or "PTX line N" when there is no .loc; into buf. */
void sim_where(const struct ptx_module *m, uint32_t mi, char *buf, size_t n);
/* Whether module instructions a and b are code of the same inlined call (or both of the
   kernel's own body), each with a source line: the same file and chain of call sites. */
int sim_same_inlined_call(const struct ptx_module *m, uint32_t a, uint32_t b);
/* Where lane l of w waits to reconverge, when that is better named by the branch that split
   it: "the end of the branch at k.cu:116 (inlined into line 165)", when the lane waits at
   its top convergence barrier and the barrier's point is code of another inlined call than
   the branch (laid out after the if). Returns 1 with buf filled, else 0. */
int sim_reconv_where(const struct sim_block *b, const struct sim_warp *w, unsigned l, char *buf,
                     size_t n);
/* p->croot of a program linked from m, whose module variables are at modaddr: for each load
   (ld, ldu of the constant or generic space), the __constant__ variable whose address its
   address register was formed from (a mov of the variable's address, then adds, subs, cvta,
   selp of the same variable), as the kernel's source indexed it. SIM_OK or SIM_ERR_NOMEM. */
enum sim_status sim_cbank_roots(struct sim_prog *p, const uint64_t *modaddr);
/* A read of size bytes at addr by lane l at code index pc, which found allocation al (NULL:
   none): when it leaves the __constant__ variable it was addressed from (p->croot) or lies
   in no allocation, but stays in a constant bank, a warning for the student (sim_note_warn)
   and the host pointer to the bank's bytes there, which the GPU reads. NULL otherwise: the
   caller goes on as for any allocation (al), or reports the fault (no al). */
uint8_t *sim_cbank_read(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l,
                        uint64_t addr, uint32_t size, const struct sim_alloc *al);
/* The launch's notes: sim_notes_begin empties d's before a launch; sim_notes_end moves them
   into res (SIM_OK, or SIM_ERR_NOMEM): the warnings whose first block (its linear index)
   kept(arg, block) keeps, each counted from res->stats (sim_inst_stats.warns). */
void sim_notes_begin(struct sim_device *d);
enum sim_status sim_notes_end(struct sim_device *d, struct sim_result *res,
                              int (*kept)(const void *arg, uint32_t block), const void *arg);
/* A warning at code index pc by block b, kept once an instruction for the lowest block that
   gives it: sim_note_warn_count counts it, and returns 1 when its words are wanted (none kept
   yet for the instruction, or a higher block's), which sim_note_warn then gives (msg; the
   thread, lane l of w, and the place are added). */
int sim_note_warn_count(struct sim_block *b, uint32_t pc);
void sim_note_warn(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l,
                   const char *msg);
/* cudaGraphSetConditional(handle, value) by lane l of w at code index pc. */
void sim_note_gcond(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l,
                    uint64_t handle, uint32_t value);

/* Fill a fault report of another kind with a message. */
void sim_fault_other(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned lane,
                     enum sim_fault_kind kind, const char *msg);

/* Host pointer for lane l's access of size bytes at addr in space sp (PTX_SP_NONE: generic),
   or NULL after reporting the fault; align is the alignment the access needs. */
uint8_t *sim_mem_lane(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l,
                      enum ptx_space sp, uint64_t addr, uint32_t size, uint32_t align,
                      enum sim_access acc);

/* Texture and surface objects (sim_tex.c). Execute tex, tld4, txq, suld, sust or suq
   instruction pc for lanes e of warp w. Returns 0, or -1 after reporting a fault. */
int sim_tex_exec(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t e);

/* cp.async (sim_async.c). Execute cp.async instruction pc (a copy, commit_group, wait_group
   or wait_all) for lanes e of warp w. Copies are queued per thread and done when their group
   is waited on. Returns 0, or -1 after reporting a fault. */
int sim_async_exec(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t e);
/* Execute mbarrier instruction pc for lanes e of warp w, lane by lane. Returns 0, or -1 after
   reporting a fault (an mbarrier used before its init, a count out of range). */
int sim_mbarrier_exec(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t e);
/* Forget warp w's queued copies (a new block starts on it). */
void sim_async_reset(struct sim_warp *w);
/* The block's threads have all ended: perform the bulk stores to global memory they issued
   and did not wait for (the GPU completes them). Returns 0, or -1 after reporting a fault. */
int sim_async_block_end(struct sim_block *b);
/* Free the queues of warps[0 .. n). */
void sim_async_free(struct sim_warp *warps, uint32_t n);

/* Calls of a recursive program (sim_recur.c). Lane l of w calls prog->calls[cidx] (call
   instruction pc): push the lane's record, save a recursive callee's frame, copy the
   arguments in, set up its .local frame. Returns 0, or 1 after reporting the fault (a stack
   overflow). The caller sets the lane's pc. */
int sim_recur_call(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l, uint32_t cidx);
/* Lane l of w returns from its top call (w->depth[l] > 0): copy the return values out, give
   the interrupted activation its frame back, set w->pc[l] to the return point. */
void sim_recur_return(struct sim_block *b, struct sim_warp *w, unsigned l);
/* Charge each recursive function of p ptxas's stack frame for it among frames[0 .. n) (by
   its PTX name) instead of the estimate sim_link gave it. */
void sim_recur_frames(struct sim_prog *p, const struct sim_frame *frames, uint32_t n);
/* Free the call stacks of warps[0 .. n). */
void sim_recur_free(struct sim_warp *warps, uint32_t n);

/* Copy n bytes at generic address addr, as lane l of warp w sees it, into dst; -1 after
   reporting a fault (the access was not allowed). */
int sim_read_lane(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l, uint64_t addr,
                  void *dst, uint32_t n);
/* Run built-in function ci->builtin for lane l (its parameters are in the lane's frame).
   Returns 0, or -1 after reporting a fault (a failed assert, a bad pointer). */
int sim_builtin(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l,
                const struct sim_callinfo *ci);

/* ---- the race and initialisation checker (sim_race.c) ---- */
/* Set up the checker for block b (its shadow, its first epoch) and poison its shared memory.
   Returns 0, or -1 when host memory ran out (the block then runs unchecked). */
int sim_race_begin(struct sim_block *b);
/* Set n bytes at p to x, as memset does, writing only the span from the first byte that is
   not x yet to the last (sim_race_begin's poisoning of a worker's shared memory, which the
   block before it may have left untouched). */
void sim_race_fill(uint8_t *p, size_t n, uint8_t x);
/* Free the shadow of a block that ran in a group (b->race_own). */
void sim_race_free_own(struct sim_block *b);
/* A block-wide barrier was released: accesses after it are ordered after those before it.
   Reports a race or an uninitialised read held (b->faulted) first. */
void sim_race_barrier(struct sim_block *b);
/* The block ran to its end, or reached a barrier: report the race held, else the
   uninitialised read held (b->faulted). */
void sim_race_end(struct sim_block *b);
/* Check one lane's access of size bytes at shared offset off (before a store is done): acc,
   vol (ld/st.volatile: deliberate communication, checked for initialisation only), same (a
   store that leaves the bytes as they are). A race or an uninitialised read found is held and
   reported as b's fault at the next barrier or the block's end (sim_race_end), unless another
   fault comes first. Returns 0, or -1 when b has faulted. */
int sim_race_access(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l,
                    uint32_t off, uint32_t size, enum sim_access acc, int vol, int same);
/* sim_vfp.c: a full 32-lane warp's float operations that sim_alu does lane by lane, with
   AVX2, bit for bit as sim_alu. */
enum sim_vfp {
  SIM_VFP_NONE,                           /* none of these, or no AVX2: sim_alu, lane by lane */
  /* f32: add, sub, mul and fma other than to nearest without .ftz (the fast plan's own) */
  SIM_VFP_ADD_F32, SIM_VFP_SUB_F32, SIM_VFP_MUL_F32, SIM_VFP_FMA_F32,
  SIM_VFP_DIV_F32, SIM_VFP_DIV_FULL_F32, SIM_VFP_DIV_APPROX_F32,   /* div.{rn..,full,approx} */
  SIM_VFP_SQRT_F32, SIM_VFP_RCP_F32,                              /* IEEE, or .approx */
  SIM_VFP_ABS_F32, SIM_VFP_NEG_F32, SIM_VFP_COPYSIGN_F32,
  SIM_VFP_RND_F32,                        /* cvt.{rni,rzi,rmi,rpi}.f32.f32: floorf, ... */
  SIM_VFP_SAT_F32,                        /* cvt{.rn}.sat.f32.f32: clamped to [0, 1] */
  SIM_VFP_RSQRT_F32,                      /* rsqrt.approx.f32, in double */
  SIM_VFP_ADD_F64, SIM_VFP_SUB_F64, SIM_VFP_MUL_F64, SIM_VFP_DIV_F64, SIM_VFP_FMA_F64,
  SIM_VFP_SQRT_F64, SIM_VFP_RCP_F64, SIM_VFP_ABS_F64, SIM_VFP_NEG_F64, SIM_VFP_COPYSIGN_F64,
  SIM_VFP_RND_F64,
  SIM_VFP_F32_S32, SIM_VFP_F32_U32,       /* cvt.{rn,rz,rm,rp}.f32.{s32,u32} */
  SIM_VFP_S32_F32, SIM_VFP_U32_F32,       /* cvt.{rni,rzi,rmi,rpi}.{s32,u32}.f32 */
  SIM_VFP_S32_F64,                        /* cvt.{rni,rzi,rmi,rpi}.s32.f64 */
  SIM_VFP_F64_F32, SIM_VFP_F32_F64,       /* cvt.f64.f32, cvt.{rn,rz,rm,rp}.f32.f64 */
  /* the f32 approximations sim_alu takes from the host's libm in double: sin, cos, lg2, ex2,
     tanh .approx.f32 (with the halves, last: sim_vfp_full sends them out first) */
  SIM_VFP_SIN_F32, SIM_VFP_COS_F32, SIM_VFP_LG2_F32, SIM_VFP_EX2_F32, SIM_VFP_TANH_F32,
  /* halves, with F16C too (sim_vhalf.c): add, sub, mul, fma .rn, min, max, neg and abs of
     f16 and f16x2; cvt.rn from f32 to f16 or bf16 (H_TO), two of them packed (H_PACK:
     cvt.rn.f16x2.f32, bf16x2), and from f16 or bf16 to f32 (H_FROM) */
  SIM_VFP_H_ADD, SIM_VFP_H_SUB, SIM_VFP_H_MUL, SIM_VFP_H_FMA,
  SIM_VFP_H_MIN, SIM_VFP_H_MAX, SIM_VFP_H_NEG, SIM_VFP_H_ABS,
  SIM_VFP_H_TO, SIM_VFP_H_PACK, SIM_VFP_H_FROM,
};
/* Which of them in is (no flag but .ftz and the division's and square root's kinds), where
   the CPU has AVX2 (and FMA, for an fma); else SIM_VFP_NONE. */
enum sim_vfp sim_vfp_of(const struct ptx_inst *in);
/* d[l] = operation k (sim_vfp_of(in)) of a[l] (b[l], c[l]: the second and third operands,
   where it has them, else NULL) for the 32 lanes, as sim_alu gives them. */
void sim_vfp_full(enum sim_vfp k, const struct ptx_inst *in, uint64_t *d, const uint64_t *a,
                  const uint64_t *b, const uint64_t *c);
/* sim_vfp_full's half-precision kinds (SIM_VFP_H_*), sim_vhalf.c's. */
void sim_vhalf_full(enum sim_vfp k, const struct ptx_inst *in, uint64_t *d, const uint64_t *a,
                    const uint64_t *b, const uint64_t *c);

/* 1 (the default): sim_exec does a warp's 32-bit integer atomic adds on shared memory in one
   pass when every lane's word is in bounds and aligned, and a full warp's float operations
   of sim_vfp.c with AVX2; 0 (tests only): lane by lane through the general path, for
   comparison. */
extern int sim_exec_shortcuts;
/* sim_race_access for the lanes of e's atomics on the aligned words at shared offsets off[l]
   (the caller checked them), in lane order: atomics race with nothing, so each is the
   uninitialised-read check of the word it reads and the word's record as written. */
void sim_race_shared_atomics(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t e,
                             const uint64_t *off);
/* Check one lane's plain (not atomic, not volatile) access of size bytes at global address
   addr against the block's earlier global writes: read-after-write and write-after-write
   between its threads (a write is checked before it is done; same: it leaves the bytes as
   they are). A race found is held like sim_race_access's. Returns 0, or -1 when b has
   faulted. */
int sim_race_global(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l,
                    uint64_t addr, uint32_t size, enum sim_access acc, int same);
/* sim_race_global for the lanes of e reading size bytes at global addresses addr[l] (plain
   loads), in lane order. Returns 0. */
int sim_race_global_reads(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t e,
                          const uint64_t *addr, uint32_t size);
/* sim_race_global_reads for a full 32-lane warp reading at a0 + lane * size (a coalesced
   load). Returns 0. */
int sim_race_global_reads_seq(struct sim_block *b, struct sim_warp *w, uint32_t pc,
                              uint64_t a0, uint32_t size);
/* A full warp's shared offsets (or addresses) step by no constant, or the caller did not look:
   the stride arguments below. */
#define SIM_NO_STRIDE INT64_MIN
/* 1 (the default): sim_race_shared_stores and sim_race_shared_reads take their shortcuts for
   some lanes' words (a pass over a line of them, and lane by lane), and sim_race_mask its
   one test of a mask the whole warp shares; 0 (tests only): every lane that no full warp's
   pass takes (nor the passes of a full warp's reads and stores at a stride of more than a
   word) goes through the general check, and every lane's mask is tested, for comparison. */
extern int sim_race_lane_shortcuts;
/* 0 (the default); 1 (tests only): at every barrier and block end, each shared word whose
   reads the race checker takes as quiet (a full warp's read of it changing nothing, found
   once and not checked again in the epoch) is checked against its read summary; the words
   whose summary does not make them so are counted in sim_race_quiet_bad, the others in
   sim_race_quiet_seen. */
extern int sim_race_check_quiet;
extern unsigned long sim_race_quiet_bad, sim_race_quiet_seen;
/* sim_race_access for the lanes of e reading size bytes at shared offsets off[l] (each a
   multiple of size: the caller checked), in lane order. stride: for a full warp, the constant
   step of off in bytes where the caller knows it (off[l] = off[0] + l stride), else
   SIM_NO_STRIDE. Returns 0, or -1 when b has faulted. */
int sim_race_shared_reads(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t e,
                          const uint64_t *off, uint32_t size, int vol, int64_t stride);
/* sim_race_shared_reads for a full warp's reads of 8 or 16 bytes a lane (a float2, a float4),
   a word of every lane's at a time where that comes to the same. */
int sim_race_shared_reads_wide(struct sim_block *b, struct sim_warp *w, uint32_t pc,
                               const uint64_t *off, uint32_t size, int vol, int64_t stride);
/* The lanes of e store val[l]'s low size bytes (size <= 8) at shared offset off[l] (a
   multiple of size: the caller checked), in lane
   order, each checked by sim_race_access just before it is done (same: the bytes there
   already hold the value). Returns 0, or -1 when b has faulted (that lane and the lanes after
   it not stored). stride: as sim_race_shared_reads's. */
int sim_race_shared_stores(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t e,
                           const uint64_t *off, uint32_t size, int vol, const uint64_t *val,
                           int64_t stride);
/* A full 32-lane warp's store of n elements of size bytes a lane (a float2, a float4: element
   k's value val[k][l]) at shared offset off[l] (a multiple of size * n, 16 bytes at most: the
   caller checked), as sim_race_access checks and records each lane's (same: its bytes there
   already hold all n elements) in lane order, each just before its store; where a check
   could report (a word read in the epoch, or written in it by another thread) it returns 0,
   nothing done, else 1, all stored. */
int sim_race_shared_stores_wide(struct sim_block *b, struct sim_warp *w, uint32_t pc,
                                const uint64_t *off, uint32_t size, unsigned n, int vol,
                                const uint64_t *const *val);
/* The lanes of e store val[l]'s low size bytes (size <= 8) at global address addr[l], host
   byte host + (addr[l] - host_base), in lane order, each checked by sim_race_global just before it is done.
   Returns 0, or -1 when b has faulted (that lane and the lanes after it not stored). */
int sim_race_global_stores(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t e,
                           const uint64_t *addr, uint32_t size, uint8_t *host,
                           uint64_t host_base, const uint64_t *val);
/* Forget the block's writes to [addr, addr + size): the memory was freed and malloc handed
   it out again, so what threads wrote there before is no hazard for what comes now. */
void sim_race_global_forget(struct sim_block *b, uint64_t addr, uint64_t size);
/* cp.async's copy of size bytes to shared offset off, issued by lane l of w at pc in barrier
   epoch ep, lands now (at its wait): a read of those bytes between the issue and now, by
   another thread or after a barrier, is a race (the ISA leaves the destination undefined
   until the wait). Returns 0 (a race is held for the next barrier), or -1. */
int sim_race_async_land(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l,
                        uint32_t off, uint32_t size, uint32_t ep);
/* sim_race_global_stores for a full 32-lane warp storing at a0 + lane * size (a coalesced
   store), host bytes from host on. Returns 0. */
int sim_race_global_stores_seq(struct sim_block *b, struct sim_warp *w, uint32_t pc,
                               uint64_t a0, uint32_t size, uint8_t *host, const uint64_t *val);
/* sim_race_global_stores_seq's check alone, of a full 32-lane warp's store of size bytes a
   lane (4, 8 or 16: a vector's elements, a multiple of 4 bytes) at a0 + lane * size, a0 a
   multiple of size, already done: chg the lanes whose store changed the bytes there (bit l:
   lane l; the others are no access, as sim_race_global's `same`). Returns 0. */
int sim_race_global_stores_lines(struct sim_block *b, struct sim_warp *w, uint32_t pc,
                                 uint64_t a0, uint32_t size, uint32_t chg);
/* A global read at addr may need sim_race_global: the block has written words near it. */
static inline int sim_race_global_read(const struct sim_block *b, uint64_t addr)
{
  return b->race_gused && addr - b->race_glo <= b->race_gspan;
}

/* Check the masks lanes e of w pass to the .sync collective or bar.warp.sync `in` at pc.
   Returns 0, or -1 after reporting a bad mask as b's fault. */
int sim_race_mask(struct sim_block *b, struct sim_warp *w, uint32_t pc, const struct ptx_inst *in,
                  uint64_t e);
/* Lanes `exiting` of w leave (at pc) while other lanes wait at a .sync collective whose mask names
   them: report it (-1), else 0. */
int sim_race_exit(struct sim_block *b, struct sim_warp *w, uint32_t pc, uint64_t exiting);
/* The block is stuck: lanes of w wait at a .sync collective (not bar.warp.sync, which may
   meet another) for lanes of their mask that wait elsewhere. Report it (-1), else 0. */
int sim_race_stuck(struct sim_block *b, struct sim_warp *w);

/* 1 (the default): sim_stats.c counts the accesses whose lanes step by a constant in closed
   form and a global access whose lanes' addresses ascend in one pass, sim_trace.c finds
   first-touch keys from the block's hint for the instruction's allocation and adds the
   block's instructions to its touch_key0, and sim_exec.c checks the bounds of a partial
   warp's shared access whose lanes step by a constant at its first and last lane; 0 (tests
   only): every such access takes the general lane-by-lane count, look-up, key and check, for
   comparison. */
extern int sim_stats_shortcuts;
/* Sort v[0..n) ascending (sim_stats.c), for a warp's addresses or sectors: one pass when they
   are in order already (lane order), a merge when they are two ascending runs of at most
   SIM_SORT_MAX in all (a warp's halves on the same words, or on two rows), else a sort. */
#define SIM_SORT_MAX (SIM_MAX_WARP * 8)
void sim_sort_u64(uint64_t *v, unsigned n);
/* sim_stats_mem for a full 32-lane warp whose lanes address a0 + lane * size (a coalesced
   access), counted in closed form where nothing needs the lanes' addresses. al: the
   allocation that holds every byte of the access (b->alloc_cache[pc], warp_seq's).
   sim_stats_seq (below) is its common case, inline. */
void sim_stats_mem_seq(struct sim_block *b, uint32_t pc, enum ptx_space sp, uint64_t a0,
                       uint32_t size, const struct sim_alloc *al);
/* Count one memory access of the lanes in m (addresses addr[lane], size bytes each) into the
   statistics of pc: requests, sectors, lines, distinct bytes, shared wavefronts. atomic: 0, or
   SIM_ATOMIC / SIM_ATOMIC_UNIFORM. */
void sim_stats_mem(struct sim_block *b, uint32_t pc, enum ptx_space sp, const uint64_t *addr,
                   uint64_t m, uint32_t size, int atomic);
/* sim_stats_mem of a plain shared access by a full 32-lane warp at shared offsets addr[l] =
   addr[0] + l stride (stride in bytes; SIM_NO_STRIDE: not known to be constant), each
   aligned to its size; span: the largest offset less the smallest where the caller knows it,
   else UINT64_MAX. */
void sim_stats_shared_full(struct sim_block *b, uint32_t pc, const uint64_t *addr,
                           uint32_t size, int64_t stride, uint64_t span);
/* sim_stats_mem of a plain shared access by the lanes m of a warp at shared offsets off[l],
   without its tests for the other spaces. stride: the constant step in bytes of the offsets of
   m's lanes (off[l] = off[lo] + (l - lo) stride, lo m's first lane; none wrapping around)
   where the caller knows it, else SIM_NO_STRIDE. */
void sim_stats_shared_part(struct sim_block *b, uint32_t pc, const uint64_t *off, uint64_t m,
                           uint32_t size, int64_t stride);
#define SIM_ATOMIC 1          /* sim_stats_mem's atomic argument: an atomic access */
#define SIM_ATOMIC_UNIFORM 2  /* an atomic whose active lanes share one address and one operand */

/* Record for the timing model (sim_trace.c; only when b->trace is set): one warp-instruction
   at code index pc run by lanes m of warp w; then, for a memory access, what the lanes in m
   touched (addresses addr[lane], size bytes each, in space sp as resolved; shared: the
   access's wavefronts). */
void sim_trace_inst_grow(struct sim_block *b, const struct sim_warp *w, uint32_t pc, uint64_t m);
static inline void sim_trace_inst(struct sim_block *b, const struct sim_warp *w, uint32_t pc,
                                  uint64_t m)
{
  struct sim_tblock *t = b->trace;
  if (t->nev >= t->cap_ev || t->nev >= SIM_TRACE_MAX_EVENTS || t->truncated) {
    sim_trace_inst_grow(b, w, pc, m);    /* room first (or the block marked truncated) */
    return;
  }
  t->ev[t->nev++] = (struct sim_tev){
    .inst = b->prog->orig[pc], .warp = (uint16_t)w->id,
    .lanes = (uint8_t)__builtin_popcountll(m), .space = PTX_SP_NONE, .n = 0, .first = t->nsec,
  };
}
void sim_trace_mem(struct sim_block *b, enum ptx_space sp, const uint64_t *addr, uint64_t m,
                   uint32_t size, uint64_t wavefronts);
/* sim_trace_mem for a global access of a full 32-lane warp whose lanes address
   a0 + lane * size (a coalesced access): every address once, sectors in one run. */
void sim_trace_mem_seq(struct sim_block *b, uint64_t a0, uint32_t size);

/* Keep the first touch of the global lines the lanes in m touch (addresses addr[lane], size
   bytes each; span: their bytes [span[0], span[1]) when those leave no line between
   untouched, else span[1] <= span[0]) in b->touch (sim_trace.c; only when b->touch is set).
   al: the allocation the access is likely in (the instruction's last, b->alloc_cache), or
   NULL; a guess that changes nothing but the time taken. */
void sim_trace_touch(struct sim_block *b, const uint64_t *addr, uint64_t m, uint32_t size,
                     const uint64_t *span, const struct sim_alloc *al);
/* sim_trace_touch of a coalesced access: its bytes [lo, end), end > lo. */
void sim_trace_touch_span(struct sim_block *b, uint64_t lo, uint64_t end,
                          const struct sim_alloc *al);

/* Keep at p, the key of a line, the smaller of key and what is there (0: none yet): an
   atomic minimum, as blocks on other workers may touch the line at once; a line two blocks
   touch is noted (sim_trace.touch_shared). */
static inline void sim_touch_keep(struct sim_trace *tr, uint64_t *p, uint64_t key)
{
  uint64_t v = __atomic_load_n(p, __ATOMIC_RELAXED);
  for (;;) {
    if (v && sim_touch_block(v) != sim_touch_block(key) &&
        !__atomic_load_n(&tr->touch_shared, __ATOMIC_RELAXED))
      __atomic_store_n(&tr->touch_shared, 1, __ATOMIC_RELAXED);
    if ((v && v <= key) ||
        __atomic_compare_exchange_n(p, &v, key, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
      return;
  }
}

/* The key of b's access now, once b->touch_key0 is known: sim_touch_key(wave, b->linear,
   the block's warp-instructions before this one (sim_exec counts it first)), its parts
   added, as they share no bit. */
static inline uint64_t sim_touch_now(const struct sim_block *b)
{
  uint64_t done = b->ctr.warp_insts - 1;
  if (done >= 0xfffffff)                /* sim_touch_key's limit, or none before */
    done = b->ctr.warp_insts ? 0xfffffff : 0;
  return b->touch_key0 + (done << 24);
}

/* b's hint slot for allocation al (struct sim_block.touch_hint): neighbouring allocations
   have slots of their own. */
static inline struct sim_touch_hint *sim_touch_slot(struct sim_block *b,
                                                    const struct sim_alloc *al)
{
  return &b->touch_hint[(uintptr_t)al / sizeof *al & (SIM_TOUCH_HINTS - 1)];
}

/* sim_trace_touch_span (b->touch set) of an access inside allocation al (its bytes
   [lo, end), al not NULL), inline where b's hint for al holds its lines (the lines after the
   hint's first are al's to its end): a key and an index, no look-up. ahead: where the next
   access of its warp and instruction is likely to be, in bytes from lo, or 0: that access's
   first key is fetched into the host's caches (a miss to host memory else, as few keys near
   it were touched; a prefetch changes nothing). */
static inline void sim_touch_span_in(struct sim_block *b, uint64_t lo, uint64_t end,
                                     const struct sim_alloc *al, int64_t ahead)
{
  const struct sim_touch_hint *h = sim_touch_slot(b, al);
  uint64_t x0 = lo >> 7, x1 = (end - 1) >> 7;
  if (h->al != al || x0 < h->lo) {
    sim_trace_touch_span(b, lo, end, al);
    return;
  }
  struct sim_trace *tr = b->touch;
  uint64_t key = sim_touch_now(b), *p = &tr->touch[h->off + x0];
  if (ahead)                            /* by address: it may be past the table, unread */
    __builtin_prefetch((const void *)((uintptr_t)tr->touch +
                                      (h->off + ((lo + (uint64_t)ahead) >> 7)) * sizeof *p),
                       1, 3);
  for (uint64_t x = x0; x <= x1; x++)
    sim_touch_keep(tr, p++, key);
}

/* global_cost's sums for a coalesced access (full 32-lane warp at a0 + lane * size) into st;
   returns its sectors. */
static inline uint64_t sim_stats_seq_count(struct sim_inst_stats *st, uint64_t a0,
                                           uint32_t size)
{
  uint64_t end = a0 + 32u * size, sectors = ((end - 1) >> 5) - (a0 >> 5) + 1;
  st->g_req++;
  st->g_sectors += sectors;
  st->g_lines += ((end - 1) >> 7) - (a0 >> 7) + 1;
  st->g_bytes += end - a0;
  return sectors;
}

/* sim_stats_mem_seq, inline for the common case (a global access of a block that is neither
   recorded nor holds the logged warp): the counts, then the first touches (ahead: as
   sim_touch_span_in's). */
static inline __attribute__((always_inline)) void
sim_stats_seq(struct sim_block *b, uint32_t pc, enum ptx_space sp, uint64_t a0, uint32_t size,
              const struct sim_alloc *al, int64_t ahead)
{
  if (sp != PTX_SP_GLOBAL || !b->stats || b->W != 32 || b->lanes || b->trace) {
    sim_stats_mem_seq(b, pc, sp, a0, size, al);
    return;
  }
  b->sectors += sim_stats_seq_count(&b->stats[pc], a0, size);
  if (b->touch)
    sim_touch_span_in(b, a0, a0 + 32u * size, al, ahead);
}

/* Lane log (sim_lanes.c; only when b->lanes is set): one warp-instruction at code index pc
   about to run for lanes m of warp w (recorded when w is the logged warp, with the lanes its
   guard lets through); then, for a memory access of that instruction, each lane's address
   (lanes m, addresses addr[lane], size bytes each, in space sp as the instruction named it),
   with the sectors or wavefronts sim_stats_mem counted for it. */
void sim_lanes_inst(struct sim_block *b, const struct sim_warp *w, uint32_t pc, uint64_t m);
void sim_lanes_mem(struct sim_block *b, uint32_t pc, enum ptx_space sp, const uint64_t *addr,
                   uint64_t m, uint32_t size);

/* Make room for need elements of elem bytes in the array *p of *cap (first, then doubling),
   for the recordings of sim_trace.c and sim_lanes.c. 0, or -1 when memory ran out. */
int sim_grow(void **p, uint32_t *cap, uint32_t need, size_t elem, uint32_t first);

static inline unsigned sim_ctz64(uint64_t x) { return (unsigned)__builtin_ctzll(x); }
static inline unsigned sim_popc64(uint64_t x) { return (unsigned)__builtin_popcountll(x); }

/* The lanes of m whose predicate register g holds (bit 0 of g[l] is not neg, 0 or 1): a
   guard "@%p" or "@!%p". A full 32-lane warp packs the bits without a mask test per lane,
   two lanes an SSE2 movemask where the compiler targets SSE2 (every x86-64). */
static inline uint64_t sim_guard_mask(const uint64_t *g, uint64_t m, unsigned neg)
{
  uint64_t e = 0;
  if (m == 0xffffffffull) {
#ifdef __SSE2__
    for (unsigned l = 0; l < 32; l += 2) {
      __m128i v = _mm_slli_epi64(_mm_loadu_si128((const __m128i *)(g + l)), 63);
      e |= (uint64_t)_mm_movemask_pd(_mm_castsi128_pd(v)) << l;
    }
#else
    for (unsigned l = 0; l < 32; l++)
      e |= (g[l] & 1) << l;
#endif
    return neg ? ~e & m : e;
  }
  for (uint64_t mm = m; mm; mm &= mm - 1) {
    unsigned l = sim_ctz64(mm);
    if ((g[l] & 1) != neg)
      e |= 1ull << l;
  }
  return e;
}

#endif
