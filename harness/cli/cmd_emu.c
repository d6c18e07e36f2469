/* cmd_emu.c: `warplab emu`: run any kernel on the emulator, for instructors and tests.
 *
 * Build (a .cu through nvcc) -> parse -> check the arguments against the kernel's parameters
 * -> allocate and fill buffers -> run and measure (harness/measure: the launch, occupancy,
 * counters, timing model) -> dump buffers -> report. Exit codes: see
 * exit_codes.def.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend/be.h"
#include "cli/emu_args.h"
#include "cli/emu_report.h"
#include "cli/warplab.h"
#include "measure/ms.h"
#include "metrics/met.h"
#include "metrics/occ.h"
#include "ptx/ptx.h"
#include "run/run.h"
#include "run/run_lanes.h"
#include "sim/sim.h"
#include "toolchain/tc_build.h"
#include "toolchain/tc_exec.h"
#include "toolchain/tc_file.h"
#include "toolchain/tc_ptxas.h"
#include "toolchain/tc_sanitize.h"
#include "toolchain/tc_sass.h"

#define MAX_ARGS 64
#define MAX_DUMPS 32

static void emu_usage(FILE *f)
{
  fputs("usage: warplab emu FILE.cu|FILE.ptx --kernel NAME --grid X[,Y[,Z]] --block X[,Y[,Z]]\n"
        "         [--smem BYTES] [--sched its|stack] [--arch sm_90] [--json] [--dump N=PATH]...\n"
        "         [--threads N] [--max-insts N] [--warp-size 32|64] [--keep-ptx PATH]\n"
        "         [--backend emu|gpu] [--lines] [--profile NAME] [--sanitize TOOL]\n"
        "         [--lanes PATH [--lanes-warp B,W]] [--cooperative] [--cluster X[,Y[,Z]]]\n"
        "         [--heap BYTES] [--stack BYTES] [--order SEED|reverse] [--order-check N]\n"
        "         --arg SPEC ...   (one per kernel parameter, in order)\n"
        "\n"
        "SPEC: TYPEbuf:COUNT:INIT   a buffer; TYPE i8 u8 i16 u16 i32 u32 i64 u64\n"
        "                           f16 bf16 f32 f64;\n"
        "                           INIT rand[:SEED] | zero | fill=V | iota | file=PATH\n"
        "      TYPE:V               a scalar of one of those types\n"
        "      bytes:HEX            a parameter as its bytes in memory order, two hex\n"
        "                           digits each: a struct passed by value\n"
        "      tmap:DIMS:STRIDES:BOX:TYPEbuf:COUNT:INIT\n"
        "                           a tensor map (const __grid_constant__ CUtensorMap)\n"
        "                           of a buffer of its own for cp.async.bulk.tensor:\n"
        "                           DIMS innermost first (64x32), STRIDES in bytes of\n"
        "                           dims 1.. (256, or - packed), BOX the tile (32x16);\n"
        "                           tiled, no swizzle, zeros outside the tensor\n"
        "      KIND:DIMS:TEXEL:INIT[:OPTS]\n"
        "                           a texture or surface object (cudaTextureObject_t,\n"
        "                           cudaSurfaceObject_t) over a buffer of its own:\n"
        "                           KIND tex1d tex2d tex3d tex1dlayered tex2dlayered\n"
        "                           texcube texcubelayered surf1d surf2d surf3d\n"
        "                           surf1dlayered surf2dlayered surfcube\n"
        "                           surfcubelayered; DIMS W, WxH, WxHxD (layers last;\n"
        "                           a cube map W, six faces; a layered one WxLAYERS);\n"
        "                           TEXEL u8 i8 u16 i16 u32 i32 f16 f32, xN for N = 1,\n"
        "                           2, 4 channels (u8x4); OPTS comma-separated:\n"
        "                           addr=clamp|wrap|mirror|border filter=point|linear\n"
        "                           norm=0|1 (normalised coordinates) read=elem|norm\n"
        "                           res=array|linear|pitch (tex1d: linear, else array)\n"
        "                           e.g. tex2d:64x32:u8x4:rand:7:filter=linear,read=norm\n"
        "--dump N=PATH writes argument N's buffer (0-based), raw, after the run.\n"
        "--sched its (default): independent thread scheduling, Volta and later;\n"
        "        stack: pre-Volta reconvergence stack (the SIMT spin lock deadlocks).\n"
        "--threads N: host threads running blocks (0 = all cores, the default).\n"
        "--heap BYTES: the device heap of in-kernel malloc/new (cudaLimitMallocHeapSize;\n"
        "        default 8 MiB, CUDA's).\n"
        "--stack BYTES: a thread's call stack, which recursive device functions use\n"
        "        (cudaLimitStackSize; default 1024, CUDA's); deeper recursion faults.\n"
        "--profile: the architecture profile for occupancy (harness/arch; default: --arch's)\n"
        "--lines: a table per CUDA source line: instructions, sectors per request, shared\n"
        "        wavefronts per instruction, divergent branches (always in --json).\n"
        "--backend gpu runs the same PTX on the GPU through the CUDA driver (no metrics or\n"
        "        fault lines there; a faulting kernel is named by its CUDA error).\n"
        "--lanes PATH: the lane log of one warp, as JSON (one step a line; the format is in\n"
        "        harness/run/run_lanes.h): every warp-instruction it executed in order, with\n"
        "        its PTX, source line, active lanes and lanes whose guard held, and for a\n"
        "        memory access each lane's address and space; global: buffer, offset and\n"
        "        32-byte sector, with the instruction's sector count; shared: offset and bank\n"
        "        ((offset / 4) mod 32), with its wavefronts. At most 65536 steps.\n"
        "--lanes-warp B,W: the warp it logs: warp W of the block whose linear index is B\n"
        "        (blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z)); default 0,0.\n"
        "--order reverse: blocks take their indices, and a block's warps their turns, in\n"
        "        reverse order (not in cooperative launches or clusters). CUDA leaves both\n"
        "        orders open: a result that changes with it depends on a race between blocks\n"
        "        or warps (two writing one word) that the checks do not see.\n"
        "--cooperative: a cooperative launch (cudaLaunchCooperativeKernel): every block is\n"
        "        resident at once, or the launch is refused as the GPU refuses it. A kernel\n"
        "        that uses cooperative_groups' grid.sync() is always launched so.\n"
        "--cluster X[,Y[,Z]]: thread-block clusters of that shape (cudaLaunchKernelEx's\n"
        "        cluster dimension), for a kernel without __cluster_dims__.\n"
        "--order SEED: the order warps and blocks run in (emulator only). 0, the default:\n"
        "        warps of a block take turns in index order and blocks start in index order.\n"
        "        Another seed: a pseudo-random order that the seed alone decides, the same in\n"
        "        every run: blocks start in a shuffled order (on one host thread), and at each\n"
        "        turn a block's warps run in a shuffled order for a random share of the turn.\n"
        "        A race-free kernel whose atomics commute (integer add) gives the same values\n"
        "        under every seed; one that hands out slots with atomicAdd, or whose last\n"
        "        writer wins, may not: a GPU may give any of those results.\n"
        "--order-check N: run the kernel under N orders (N >= 2: --order's seed S, then\n"
        "        S+1 ... S+N-1), each on a fresh emulator, and compare every buffer argument\n"
        "        with the first run's: the report says whether the output depends on the\n"
        "        order warps run, naming the first argument and element that differ, or\n"
        "        the order under which it faults and one under which it does not\n"
        "        (--json: \"order_check\").\n", f);
  wl_print_exit_codes();
}

static int parse_dim3(const char *s, uint32_t v[3])
{
  v[0] = v[1] = v[2] = 1;
  const char *p = s;
  for (int i = 0; i < 3; i++) {
    char *end;
    errno = 0;
    if (*p < '0' || *p > '9')
      return -1;
    unsigned long x = strtoul(p, &end, 10);
    if (errno || x == 0 || x > 0xffffffffUL)
      return -1;
    v[i] = (uint32_t)x;
    if (*end == 0)
      return 0;
    if (*end != ',')
      return -1;
    p = end + 1;
  }
  return -1;
}

static int parse_u64_opt(const char *s, uint64_t *v)
{
  char *end;
  errno = 0;
  if (*s < '0' || *s > '9')
    return -1;
  unsigned long long x = strtoull(s, &end, 10);
  if (errno || *end)
    return -1;
  *v = x;
  return 0;
}

struct dump {
  uint32_t arg;
  const char *path;
};

struct emu_opts {
  const char *file, *kernel, *arch, *keep_ptx, *profile;
  const char *sanitize;        /* compute-sanitizer's tool: memcheck, racecheck, synccheck */
  uint32_t grid[3], block[3];
  int have_grid, have_block, json;
  struct sim_launch cfg;
  enum be_kind backend;
  int lines;
  const char *lanes;           /* --lanes: where the lane log goes */
  const char *argspec[MAX_ARGS];
  uint32_t nargs;
  struct dump dumps[MAX_DUMPS];
  uint32_t ndumps;
  uint64_t heap;               /* --heap: bytes of the device heap, 0: the default */
  uint32_t order_check;        /* --order-check: orders to compare, 0: no check */
  int have_order;              /* --order was given */
  uint64_t stack;              /* --stack: bytes of a thread's call stack, 0: the default */
};

static int parse_opts(int argc, char **argv, struct emu_opts *o)
{
  static const struct option longopts[] = {
    {"kernel", required_argument, 0, 'k'}, {"grid", required_argument, 0, 'g'},
    {"block", required_argument, 0, 'b'}, {"smem", required_argument, 0, 's'},
    {"sched", required_argument, 0, 'S'}, {"arch", required_argument, 0, 'a'},
    {"json", no_argument, 0, 'j'}, {"dump", required_argument, 0, 'd'},
    {"arg", required_argument, 0, 'A'}, {"threads", required_argument, 0, 't'},
    {"max-insts", required_argument, 0, 'm'}, {"warp-size", required_argument, 0, 'w'},
    {"keep-ptx", required_argument, 0, 'K'}, {"backend", required_argument, 0, 'B'},
    {"lines", no_argument, 0, 'L'}, {"profile", required_argument, 0, 'P'},
    {"sanitize", required_argument, 0, 'Z'}, {"lanes", required_argument, 0, 'N'},
    {"lanes-warp", required_argument, 0, 'W'},
    {"cooperative", no_argument, 0, 'C'}, {"cluster", required_argument, 0, 'c'},
    {"heap", required_argument, 0, 'H'}, {"stack", required_argument, 0, 'T'},
    {"order", required_argument, 0, 'O'}, {"order-check", required_argument, 0, 'Q'},
    {"help", no_argument, 0, 'h'}, {0, 0, 0, 0},
  };
  memset(o, 0, sizeof *o);
  o->arch = "sm_90";
  o->cfg.warp_size = 32;
  optind = 1;
  opterr = 0;
  int c;
  uint64_t v;
  while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
    switch (c) {
    case 'k': o->kernel = optarg; break;
    case 'g':
      if (parse_dim3(optarg, o->cfg.grid)) {
        wl_error("--grid '%s': expected X[,Y[,Z]] with positive integers", optarg);
        return -1;
      }
      o->have_grid = 1;
      break;
    case 'b':
      if (parse_dim3(optarg, o->cfg.block)) {
        wl_error("--block '%s': expected X[,Y[,Z]] with positive integers", optarg);
        return -1;
      }
      o->have_block = 1;
      break;
    case 's':
      if (parse_u64_opt(optarg, &v) || v > 0xffffffffu) {
        wl_error("--smem '%s': expected a number of bytes", optarg);
        return -1;
      }
      o->cfg.dyn_smem = (uint32_t)v;
      break;
    case 'S':
      if (!strcmp(optarg, "its"))
        o->cfg.sched = SIM_SCHED_ITS;
      else if (!strcmp(optarg, "stack"))
        o->cfg.sched = SIM_SCHED_STACK;
      else {
        wl_error("--sched '%s': expected its or stack", optarg);
        return -1;
      }
      break;
    case 'a':
      if (strncmp(optarg, "sm_", 3) || strlen(optarg) < 5 || strlen(optarg) > 8) {
        wl_error("--arch '%s': expected sm_XX, e.g. sm_90", optarg);
        return -1;
      }
      o->arch = optarg;
      break;
    case 'j': o->json = 1; break;
    case 'd': {
      const char *eq = strchr(optarg, '=');
      if (!eq || eq == optarg || !eq[1] || o->ndumps == MAX_DUMPS) {
        wl_error("--dump '%s': expected N=PATH", optarg);
        return -1;
      }
      char num[16];
      size_t nl = (size_t)(eq - optarg);
      if (nl >= sizeof num) {
        wl_error("--dump '%s': expected N=PATH", optarg);
        return -1;
      }
      memcpy(num, optarg, nl);
      num[nl] = 0;
      if (parse_u64_opt(num, &v) || v >= MAX_ARGS) {
        wl_error("--dump '%s': N must be an argument index", optarg);
        return -1;
      }
      o->dumps[o->ndumps].arg = (uint32_t)v;
      o->dumps[o->ndumps].path = eq + 1;
      o->ndumps++;
      break;
    }
    case 'A':
      if (o->nargs == MAX_ARGS) {
        wl_error("at most %d --arg", MAX_ARGS);
        return -1;
      }
      o->argspec[o->nargs++] = optarg;
      break;
    case 't':
      if (parse_u64_opt(optarg, &v) || v > 1024) {
        wl_error("--threads '%s': expected 0 (all cores) to 1024", optarg);
        return -1;
      }
      o->cfg.workers = (uint32_t)v;
      break;
    case 'H':
      if (parse_u64_opt(optarg, &v) || v == 0 || v > SIM_HEAP_MAX) {
        wl_error("--heap '%s': expected 1 to %llu bytes", optarg,
                 (unsigned long long)SIM_HEAP_MAX);
        return -1;
      }
      o->heap = v;
      break;
    case 'T':
      if (parse_u64_opt(optarg, &v) || v == 0 || v > SIM_STACK_MAX) {
        wl_error("--stack '%s': expected 1 to %u bytes", optarg, SIM_STACK_MAX);
        return -1;
      }
      o->stack = v;
      break;
    case 'm':
      if (parse_u64_opt(optarg, &v) || v == 0) {
        wl_error("--max-insts '%s': expected a positive number", optarg);
        return -1;
      }
      o->cfg.max_warp_insts = v;
      break;
    case 'w':
      if (strcmp(optarg, "32") && strcmp(optarg, "64")) {
        wl_error("--warp-size '%s': expected 32 or 64", optarg);
        return -1;
      }
      o->cfg.warp_size = (uint32_t)strtoul(optarg, NULL, 10);
      break;
    case 'K': o->keep_ptx = optarg; break;
    case 'L': o->lines = 1; break;
    case 'N': o->lanes = optarg; break;
    case 'W': {
      const char *comma = strchr(optarg, ',');
      char *end = NULL;
      errno = 0;
      unsigned long long x = comma && optarg[0] >= '0' && optarg[0] <= '9'
                             ? strtoull(optarg, &end, 10) : 0;
      int ok = comma && end == comma && !errno && x <= 0xffffffffull;
      unsigned long long y = ok && comma[1] >= '0' && comma[1] <= '9'
                             ? strtoull(comma + 1, &end, 10) : 0;
      ok = ok && !*end && !errno && y < 32;
      if (!ok) {
        wl_error("--lanes-warp '%s': expected B,W: a linear block index and a warp in it "
                 "(0 to 31)", optarg);
        return -1;
      }
      o->cfg.lanes_block = (uint32_t)x;
      o->cfg.lanes_warp = (uint32_t)y;
      break;
    }
    case 'P': o->profile = optarg; break;
    case 'Z':
      if (strcmp(optarg, "memcheck") && strcmp(optarg, "racecheck") && strcmp(optarg, "synccheck")) {
        wl_error("--sanitize '%s': expected memcheck, racecheck or synccheck", optarg);
        return -1;
      }
      o->sanitize = optarg;
      break;
    case 'B':
      if (!strcmp(optarg, "emu"))
        o->backend = BE_EMU;
      else if (!strcmp(optarg, "gpu"))
        o->backend = BE_GPU;
      else {
        wl_error("--backend '%s': expected emu or gpu", optarg);
        return -1;
      }
      break;
    case 'C': o->cfg.cooperative = 1; break;
    case 'c':
      if (parse_dim3(optarg, o->cfg.cluster)) {
        wl_error("--cluster '%s': expected X[,Y[,Z]] with positive integers", optarg);
        return -1;
      }
      break;
    case 'O':
      o->cfg.reverse = !strcmp(optarg, "reverse");
      if (o->cfg.reverse || !strcmp(optarg, "index"))
        v = 0;
      else if (parse_u64_opt(optarg, &v)) {
        wl_error("--order '%s': expected a seed (0, the fixed index order, or a positive "
                 "integer), index or reverse", optarg);
        return -1;
      }
      o->cfg.order_seed = v;
      o->have_order = 1;
      break;
    case 'Q':
      if (parse_u64_opt(optarg, &v) || v < 2 || v > 1000) {
        wl_error("--order-check '%s': expected how many orders to compare, 2 to 1000", optarg);
        return -1;
      }
      o->order_check = (uint32_t)v;
      break;
    case 'h': emu_usage(stdout); return 1;
    default:
      wl_error("emu: unknown or incomplete option '%s' (see warplab emu --help)", argv[optind - 1]);
      return -1;
    }
  }
  if (optind < argc)
    o->file = argv[optind++];
  if (optind < argc) {
    wl_error("emu: unexpected argument '%s'", argv[optind]);
    return -1;
  }
  if ((o->have_order || o->order_check) && o->backend == BE_GPU) {
    wl_error("%s chooses the order the emulator runs warps and blocks in; a GPU's scheduler "
             "chooses its own: leave out --backend gpu", o->order_check ? "--order-check" : "--order");
    return -1;
  }
  if (o->lanes && o->backend == BE_GPU) {
    wl_error("--lanes is the emulator's record of one warp: leave out --backend gpu");
    return -1;
  }
  if (!o->file || !o->kernel || !o->have_grid || !o->have_block) {
    wl_error("emu: %s is required (see warplab emu --help)",
             !o->file ? "a .cu or .ptx file" : !o->kernel ? "--kernel" : !o->have_grid ? "--grid" : "--block");
    return -1;
  }
  return 0;
}

static void list_kernels(const struct ptx_module *m)
{
  fprintf(stderr, "warplab: kernels in this module:");
  int any = 0;
  for (uint32_t i = 0; i < m->nfuncs; i++)
    if (m->funcs[i].is_entry) {
      fprintf(stderr, " %s", m->funcs[i].name);
      any = 1;
    }
  fprintf(stderr, "%s\n", any ? "" : " (none)");
}

/* Build or read the PTX. Returns an exit code, WL_EXIT_OK on success. */
static int get_ptx(const struct emu_opts *o, char *tmpdir, char **text, size_t *len,
                   char *ptx_path, size_t plen)
{
  struct stat st;
  if (stat(o->file, &st) != 0 || !S_ISREG(st.st_mode)) {
    wl_error("cannot read %s: %s", o->file, stat(o->file, &st) ? strerror(errno) : "not a file");
    return WL_EXIT_USAGE;
  }
  if (wl_ends_with(o->file, ".cu")) {
    if (o->keep_ptx) {
      snprintf(ptx_path, plen, "%s", o->keep_ptx);
    } else {
      const char *tmp = getenv("TMPDIR");
      snprintf(tmpdir, 4096, "%.3000s/warplab-XXXXXX", tmp && *tmp ? tmp : "/tmp");
      if (!mkdtemp(tmpdir)) {
        wl_error("cannot make a temporary folder: %s", strerror(errno));
        tmpdir[0] = 0;
        return WL_EXIT_USAGE;
      }
      snprintf(ptx_path, plen, "%.3100s/kernel.ptx", tmpdir);
    }
    char log[16384];
    enum tc_build_status bs = tc_build_ptx(o->file, o->arch, ptx_path, log, sizeof log);
    if (bs != TC_BUILD_OK) {
      fprintf(stderr, "%s", log);
      /* only the kernel file's own errors are a failed build: no nvcc, or a --keep-ptx path
         that cannot be written, is the command's input */
      if (bs != TC_BUILD_FAILED) {
        if (o->keep_ptx)
          wl_error("--keep-ptx %s: the PTX could not be kept there", o->keep_ptx);
        return WL_EXIT_USAGE;
      }
      wl_error("%s did not build", o->file);
      return WL_EXIT_BUILD;
    }
    if (log[0] && !o->json)
      fprintf(stderr, "%s", log);
  } else {
    snprintf(ptx_path, plen, "%s", o->file);
  }
  *text = tc_read_file(ptx_path, len);
  if (!*text) {
    wl_error("cannot read %s: %s", ptx_path, strerror(errno));
    return WL_EXIT_USAGE;
  }
  return WL_EXIT_OK;
}


/* The 128 bytes of tensor-map argument a (number i) into p: a map of its own buffer, which
   must hold the tensor. Returns 0, or -1 after saying why. */
static int build_tmap(struct be *dev, const struct emu_arg *a, uint32_t i, uint8_t *p)
{
  struct sim_tmap t = a->tmap;
  uint64_t es = sim_tmap_elem_size(t.dtype), last = t.dims[0] * es, have = a->count * run_elem_size(a->elem);
  for (uint32_t d = 1; d < t.rank; d++)
    last += (t.dims[d] - 1) * t.strides[d - 1];
  if (last > have) {
    wl_error("--arg %u '%s': the tensor spans %llu bytes, more than its buffer's %llu", i, a->spec,
             (unsigned long long)last, (unsigned long long)have);
    return -1;
  }
  t.addr = a->dev_addr;
  char err[256];
  uint8_t map[SIM_TMAP_BYTES];
  if (be_tensor_map(dev, &t, map, err, sizeof err) != BE_OK) {
    wl_error("--arg %u '%s': %s", i, a->spec, err);
    return -1;
  }
  memcpy(p, map, sizeof map);
  return 0;
}

/* Check the arguments against the kernel's parameters and pack them. */
static int pack_params(const struct ptx_module *m, int f, struct emu_arg *args, uint32_t nargs,
                       struct be *dev, uint8_t **buf, uint32_t *size)
{
  uint32_t off[MAX_ARGS], sz[MAX_ARGS], total = 0;
  int n = sim_param_layout(m, f, off, sz, MAX_ARGS, &total);
  if (n < 0 || n > MAX_ARGS) {
    wl_error("kernel %s has too many parameters", m->funcs[f].name);
    return WL_EXIT_USAGE;
  }
  if ((uint32_t)n != nargs) {
    wl_error("kernel %s takes %d parameter%s, %u --arg given", m->funcs[f].name, n,
             n == 1 ? "" : "s", nargs);
    return WL_EXIT_USAGE;
  }
  *buf = calloc(total ? total : 1, 1);
  if (!*buf) {
    wl_error("out of host memory");
    return WL_EXIT_USAGE;
  }
  *size = total;
  for (uint32_t i = 0; i < nargs; i++) {
    const struct ptx_var *pv = &m->vars[m->func_params[m->funcs[f].first_param + i]];
    uint32_t want = emu_arg_size(&args[i]);
    if (sz[i] != want) {
      wl_error("--arg %u '%s' is %u bytes but parameter %u of %s (%s) is %u bytes%s", i,
               args[i].spec, want, i, m->funcs[f].name, pv->name, sz[i],
               sz[i] == 8 && !args[i].is_buffer ? " (a pointer? give a TYPEbuf:COUNT:INIT buffer)" : "");
      return WL_EXIT_USAGE;
    }
    char terr[384];
    if (emu_arg_check_type(&args[i], pv->elem_type, pv->name, terr, sizeof terr)) {
      wl_error("%s", terr);
      return WL_EXIT_USAGE;
    }
    uint64_t bits = args[i].scalar;
    if (args[i].is_buffer) {
      char name[64];
      snprintf(name, sizeof name, "argument %u (%s)", i, args[i].spec);
      uint64_t bytes = args[i].count * run_elem_size(args[i].elem);
      if (be_alloc(dev, bytes, name, &args[i].dev_addr) != BE_OK ||
          be_write(dev, args[i].dev_addr, args[i].data, bytes) != BE_OK) {
        wl_error("out of device memory for argument %u", i);
        return WL_EXIT_USAGE;
      }
      bits = args[i].dev_addr;
    }
    if (args[i].is_tmap) {
      if (build_tmap(dev, &args[i], i, *buf + off[i]))
        return WL_EXIT_USAGE;
      continue;
    }
    if (args[i].is_tex) {
      struct sim_tex t = args[i].tex;
      char terr2[256];
      t.addr = args[i].dev_addr;
      if (be_texture(dev, &t, &bits, terr2, sizeof terr2) != BE_OK) {
        wl_error("--arg %u '%s': %s", i, args[i].spec, terr2);
        return WL_EXIT_USAGE;
      }
    }
    if (args[i].nbytes)
      memcpy(*buf + off[i], args[i].bytes, want);
    else
      memcpy(*buf + off[i], &bits, want);
  }
  return WL_EXIT_OK;
}

static int write_dumps(const struct emu_opts *o, struct emu_arg *args, uint32_t nargs,
                       struct be *dev)
{
  for (uint32_t i = 0; i < o->ndumps; i++) {
    const struct dump *d = &o->dumps[i];
    if (d->arg >= nargs || !args[d->arg].is_buffer) {
      wl_error("--dump %u=%s: argument %u is not a buffer", d->arg, d->path, d->arg);
      return WL_EXIT_USAGE;
    }
    struct emu_arg *a = &args[d->arg];
    uint64_t bytes = a->count * run_elem_size(a->elem);
    if (be_read(dev, a->dev_addr, a->data, bytes) != BE_OK) {
      wl_error("--dump %u: cannot read the buffer back", d->arg);
      return WL_EXIT_USAGE;
    }
    FILE *f = fopen(d->path, "wb");
    if (!f || fwrite(a->data, 1, bytes, f) != bytes) {
      wl_error("--dump %u: cannot write %s: %s", d->arg, d->path, strerror(errno));
      if (f)
        fclose(f);
      return WL_EXIT_USAGE;
    }
    if (fclose(f) != 0) {
      wl_error("--dump %u: cannot write %s: %s", d->arg, d->path, strerror(errno));
      return WL_EXIT_USAGE;
    }
  }
  return WL_EXIT_OK;
}

/* The element of e at p in words: an integer, a float, or a half's bits in hex. */
static void elem_text(enum run_elem e, const uint8_t *p, char *buf, size_t n)
{
  union {
    int8_t i8; uint8_t u8; int16_t i16; uint16_t u16; int32_t i32; uint32_t u32;
    int64_t i64; uint64_t u64; float f; double d;
  } v;
  memset(&v, 0, sizeof v);
  memcpy(&v, p, run_elem_size(e));
  switch (e) {
  case RUN_I8: snprintf(buf, n, "%d", v.i8); break;
  case RUN_U8: snprintf(buf, n, "%u", v.u8); break;
  case RUN_I16: snprintf(buf, n, "%d", v.i16); break;
  case RUN_U16: snprintf(buf, n, "%u", v.u16); break;
  case RUN_I32: snprintf(buf, n, "%" PRId32, v.i32); break;
  case RUN_U32: snprintf(buf, n, "%" PRIu32, v.u32); break;
  case RUN_I64: snprintf(buf, n, "%" PRId64, v.i64); break;
  case RUN_U64: snprintf(buf, n, "%" PRIu64, v.u64); break;
  case RUN_F32: snprintf(buf, n, "%.9g", (double)v.f); break;
  case RUN_F64: snprintf(buf, n, "%.17g", v.d); break;
  case RUN_F16: case RUN_BF16: snprintf(buf, n, "0x%04x", v.u16); break;
  }
}

/* The contents of every buffer argument on dev into out[i] (malloc'd; NULL for the other
   arguments). Returns 0, or -1 (out of memory, or a buffer that cannot be read). */
static int read_buffers(struct be *dev, const struct emu_arg *args, uint32_t nargs, uint8_t **out)
{
  for (uint32_t i = 0; i < nargs; i++) {
    out[i] = NULL;
    if (!args[i].is_buffer)
      continue;
    uint64_t bytes = args[i].count * run_elem_size(args[i].elem);
    out[i] = malloc(bytes ? bytes : 1);
    if (!out[i] || be_read(dev, args[i].dev_addr, out[i], bytes) != BE_OK)
      return -1;
  }
  return 0;
}

/* The launch of o once more, under order seed `seed`, on a fresh emulator with the arguments'
   first contents: its buffers' contents into out[] (read_buffers), whether it ran cleanly
   into *ran_ok, and its fault's message into msg when it did not. Returns WL_EXIT_OK, or an
   exit code after saying why. */
static int order_run(const struct emu_opts *o, const char *text, size_t len,
                     const struct ptx_module *mod, int f, struct emu_arg *args,
                     const struct ms_setup *ms, const struct be_launch *bl, uint64_t seed,
                     uint8_t **out, int *ran_ok, char *msg, size_t msglen)
{
  struct be *dev = NULL;
  uint8_t *params = NULL;
  uint32_t psize = 0;
  struct ms_result mr;
  ms_result_init(&mr);
  struct be_launch l = *bl;
  l.order_seed = seed;
  l.lanes = 0;
  char err[512];
  int rc = WL_EXIT_USAGE;
  if (be_open(BE_EMU, &dev, err, sizeof err) != BE_OK ||
      be_load(dev, text, len, mod, err, sizeof err) != BE_OK) {
    wl_error("%s", err);
    goto out;
  }
  rc = pack_params(mod, f, args, o->nargs, dev, &params, &psize);
  if (rc != WL_EXIT_OK)
    goto out;
  rc = WL_EXIT_USAGE;
  if (ms_launch(ms, dev, o->kernel, params, psize, &l, MS_LAUNCH, &mr, err, sizeof err) != BE_OK) {
    wl_error("--order-check: %s", err);
    goto out;
  }
  *ran_ok = mr.br.ran_ok;
  const char *fm = mr.br.ran_ok ? "" : mr.br.emu.fault.message;
  size_t fl = strnlen(fm, msglen - 1);         /* a long message is cut */
  memcpy(msg, fm, fl);
  msg[fl] = 0;
  if (read_buffers(dev, args, o->nargs, out)) {
    wl_error("--order-check: out of host memory");
    goto out;
  }
  rc = WL_EXIT_OK;
out:
  ms_result_free(&mr);
  free(params);
  be_close(dev);
  return rc;
}

/* Where the buffers of two runs first differ: 1 with *arg and *elem set, 0 when they are the
   same. */
static int first_difference(const struct emu_arg *args, uint32_t nargs, uint8_t *const *a,
                            uint8_t *const *b, uint32_t *arg, uint64_t *elem)
{
  for (uint32_t i = 0; i < nargs; i++) {
    if (!a[i] || !b[i])
      continue;
    uint64_t es = run_elem_size(args[i].elem);
    uint64_t bytes = args[i].count * es;
    if (!memcmp(a[i], b[i], bytes))
      continue;
    uint64_t k = 0;
    while (a[i][k] == b[i][k])
      k++;
    *arg = i;
    *elem = k / es;
    return 1;
  }
  return 0;
}

/* --order-check: the launch, which ran on dev with result br under o's order seed, run again
   under the next seeds until o->order_check runs are made or two differ (in a buffer, or in
   whether the kernel faults: blocks that wait for a block the GPU may not have started); the
   finding into *ord. Returns WL_EXIT_OK, or an exit code after saying why. */
static int order_check(const struct emu_opts *o, const char *text, size_t len,
                       const struct ptx_module *mod, int f, struct emu_arg *args,
                       const struct ms_setup *ms, const struct be_launch *bl, struct be *dev,
                       const struct be_result *br, struct emu_order *ord)
{
  memset(ord, 0, sizeof *ord);
  ord->runs = 1;
  ord->first = o->cfg.order_seed;
  uint8_t *base[MAX_ARGS] = {0}, *other[MAX_ARGS] = {0};
  uint64_t addr[MAX_ARGS];
  for (uint32_t i = 0; i < o->nargs; i++)
    addr[i] = args[i].dev_addr;
  int rc = WL_EXIT_OK;
  if (br->ran_ok && read_buffers(dev, args, o->nargs, base)) {
    wl_error("--order-check: out of host memory");
    rc = WL_EXIT_USAGE;
  }
  for (uint32_t k = 1; rc == WL_EXIT_OK && k < o->order_check && !ord->depends; k++) {
    uint64_t seed = ord->first + k;
    int ok = 0;
    char msg[sizeof ord->fault_message];
    rc = order_run(o, text, len, mod, f, args, ms, bl, seed, other, &ok, msg, sizeof msg);
    if (rc != WL_EXIT_OK)
      break;
    ord->runs++;
    ord->seed_a = ord->first;
    ord->seed_b = seed;
    if (!ok != !br->ran_ok) {                  /* whether it faults depends on the order */
      ord->depends = ord->fault = 1;
      ord->fault_seed = ok ? ord->first : seed;
      const char *fm = ok ? br->emu.fault.message : msg;
      size_t fl = strnlen(fm, sizeof ord->fault_message - 1);   /* a long message is cut */
      memcpy(ord->fault_message, fm, fl);
      ord->fault_message[fl] = 0;
    } else if (ok && first_difference(args, o->nargs, base, other, &ord->arg, &ord->element)) {
      const struct emu_arg *a = &args[ord->arg];
      uint64_t at = ord->element * run_elem_size(a->elem);
      ord->depends = 1;
      elem_text(a->elem, base[ord->arg] + at, ord->value_a, sizeof ord->value_a);
      elem_text(a->elem, other[ord->arg] + at, ord->value_b, sizeof ord->value_b);
    }
    for (uint32_t i = 0; i < o->nargs; i++) {
      free(other[i]);
      other[i] = NULL;
    }
  }
  ord->all_fault = !br->ran_ok && !ord->depends;
  for (uint32_t i = 0; i < o->nargs; i++) {
    args[i].dev_addr = addr[i];                /* the first run's, for --dump */
    free(base[i]);
    free(other[i]);
  }
  return rc;
}

/* `--sanitize TOOL` (GPU only): the same command again under compute-sanitizer, and its
   first finding in the emulator's words. A .cu file is built here first and the command
   given its PTX: nvcc run under the tool's injection crashes (status 139 on an H100), and
   the tool then checked no kernel. */
static int sanitized(int argc, char **argv, const struct emu_opts *o)
{
  if (o->backend != BE_GPU) {
    wl_error("--sanitize runs compute-sanitizer on the GPU: add --backend gpu (the emulator "
             "reports every fault, race-free or not, with its line by itself)");
    return WL_EXIT_USAGE;
  }
  char self[4096];
  if (tc_self_path(self, sizeof self)) {
    wl_error("cannot find the warplab executable");
    return WL_EXIT_USAGE;
  }
  char tmpdir[4096] = "", ptx_path[4096] = "";
  char *text = NULL;
  size_t len = 0;
  int rc = get_ptx(o, tmpdir, &text, &len, ptx_path, sizeof ptx_path);
  free(text);
  char **args = rc ? NULL : calloc((size_t)argc + 2, sizeof *args);
  if (!rc && !args) {
    wl_error("out of host memory");
    rc = WL_EXIT_USAGE;
  }
  if (!rc) {
    int k = 0;
    args[k++] = self;
    args[k++] = "emu";
    for (int i = 1; i < argc; i++) {
      if (!strcmp(argv[i], "--sanitize") || !strcmp(argv[i], "--keep-ptx")) {
        i++;
        continue;
      }
      if (!strncmp(argv[i], "--sanitize=", 11) || !strncmp(argv[i], "--keep-ptx=", 11) ||
          !strcmp(argv[i], "--json"))
        continue;
      args[k++] = argv[i] == o->file ? ptx_path : argv[i];
    }
    args[k] = NULL;
    struct tc_sanitized r;
    char err[512];
    if (tc_sanitize(o->sanitize, args, &r, err, sizeof err)) {
      wl_error("%s", err);
      rc = WL_EXIT_USAGE;
    } else {
      emu_report_sanitizer(stdout, o->kernel, o->sanitize, &r, o->json);
      rc = r.errors ? WL_EXIT_FAULT : WL_EXIT_OK;
    }
  }
  free(args);
  if (tmpdir[0]) {
    unlink(ptx_path);
    rmdir(tmpdir);
  }
  return rc;
}

int wl_cmd_emu(int argc, char **argv)
{
  struct emu_opts o;
  int rc = parse_opts(argc, argv, &o);
  if (rc)
    return rc > 0 ? WL_EXIT_OK : WL_EXIT_USAGE;
  if (o.sanitize)
    return sanitized(argc, argv, &o);

  struct emu_arg args[MAX_ARGS];
  memset(args, 0, sizeof args);
  char err[512], tmpdir[4096] = "", ptx_path[4096] = "";
  char *text = NULL;
  size_t len = 0;
  uint8_t *params = NULL;
  uint32_t psize = 0;
  struct ptx_module mod;
  memset(&mod, 0, sizeof mod);
  struct be *dev = NULL;
  struct ms_result mr;
  ms_result_init(&mr);
  struct ptx_sass sass;
  memset(&sass, 0, sizeof sass);
  char slog[512];
  struct emu_run run;
  memset(&run, 0, sizeof run);
  struct tc_resources rs[128];
  struct sim_frame frames[128];
  struct occ_profile prof;
  struct emu_order order;

  for (uint32_t i = 0; i < o.nargs; i++)
    if (emu_arg_parse(o.argspec[i], &args[i], err, sizeof err)) {
      wl_error("%s", err);
      rc = WL_EXIT_USAGE;
      goto out;
    }
  rc = get_ptx(&o, tmpdir, &text, &len, ptx_path, sizeof ptx_path);
  if (rc != WL_EXIT_OK)
    goto out;
  struct ptx_error perr;
  if (ptx_parse(text, len, &mod, &perr) != PTX_OK) {
    wl_error("%s:%u: %s", ptx_path, perr.line, perr.msg);
    rc = WL_EXIT_USAGE;
    goto out;
  }
  int f = ptx_find_func(&mod, o.kernel);
  if (f < 0 || !mod.funcs[f].is_entry) {
    wl_error("no kernel named '%s' in %s (kernels are looked up by their PTX name: declare "
             "them extern \"C\" to keep the C name)", o.kernel, o.file);
    list_kernels(&mod);
    rc = WL_EXIT_USAGE;
    goto out;
  }
  if (be_open(o.backend, &dev, err, sizeof err) != BE_OK) {
    wl_error("%s", err);
    rc = WL_EXIT_USAGE;
    goto out;
  }
  if (be_load(dev, text, len, &mod, err, sizeof err) != BE_OK) {
    wl_error("%s", err);
    rc = WL_EXIT_USAGE;
    goto out;
  }
  rc = pack_params(&mod, f, args, o.nargs, dev, &params, &psize);
  if (rc != WL_EXIT_OK)
    goto out;

  run.kernel = o.kernel;
  run.source = o.file;
  run.ptx_path = o.keep_ptx ? o.keep_ptx : (wl_ends_with(o.file, ".ptx") ? o.file : NULL);
  run.ptx_text = text;
  run.ptx_len = len;
  run.mod = &mod;
  run.cfg = &o.cfg;
  run.arch = o.arch;
  struct be_launch bl = {
    .dyn_smem = o.cfg.dyn_smem, .sched = o.cfg.sched, .warp_size = o.cfg.warp_size,
    .workers = o.cfg.workers, .max_warp_insts = o.cfg.max_warp_insts, .heap_bytes = o.heap,
    .order_seed = o.cfg.order_seed, .reverse = o.cfg.reverse, .stack_bytes = o.stack,
    .lanes = o.lanes != NULL, .lanes_block = o.cfg.lanes_block, .lanes_warp = o.cfg.lanes_warp,
  };
  memcpy(bl.grid, o.cfg.grid, sizeof bl.grid);
  memcpy(bl.block, o.cfg.block, sizeof bl.block);
  /* resources from ptxas and the occupancy they allow, when the toolkit is here; the profile
     also drives the timing model. The measurement (harness/measure) does the rest: the
     launch, the occupancy breakdown, the counters and the timing model */
  char plog[2048];
  int nrs = 0;
  struct occ_error oe;
  struct ms_setup ms = {.mod = &mod};
  if (occ_profile_load(o.profile ? o.profile : o.arch, &prof, &oe) == OCC_OK) {
    ms.prof = &prof;
    run.profile = prof.id;
  } else if (o.profile) {
    wl_error("--profile %s: %s", o.profile, oe.msg);
    rc = WL_EXIT_USAGE;
    goto out;
  }
  if (tc_ptxas(wl_ends_with(o.file, ".cu") ? ptx_path : o.file, o.arch, 0, rs, 128, &nrs, plog,
                sizeof plog) == TC_PTXAS_OK) {
    run.rsrc = tc_resources_find(rs, nrs, o.kernel);
    bl.frames = frames;
    bl.nframes = run_device_frames(rs, nrs, frames, 128);
  }
  if (run.rsrc) {
    ms.kern.known = 1;
    ms.kern.registers = run.rsrc->registers;
    ms.kern.static_smem = run.rsrc->static_smem;
    ms.kern.barriers = run.rsrc->barriers;
  }
  bl.cooperative = o.cfg.cooperative;
  memcpy(bl.cluster, o.cfg.cluster, sizeof bl.cluster);
  /* the report names the launch as it runs: cooperative when the kernel uses grid.sync(),
     with the kernel's clusters */
  o.cfg.cooperative = o.cfg.cooperative || sim_kernel_cooperative(&mod, f);
  if (!sim_cluster_dims(&mod, f, &o.cfg, o.cfg.cluster))
    memset(o.cfg.cluster, 0, sizeof o.cfg.cluster);
  /* count what the GPU executes: the SASS ptxas makes of this PTX, where nvdisasm is here */
  if (o.backend == BE_EMU) {
    if (tc_sass(wl_ends_with(o.file, ".cu") ? ptx_path : o.file, o.arch, &mod, &sass, slog,
                 sizeof slog) == TC_SASS_OK) {
      ms.sass = &sass;
    } else {
      slog[strcspn(slog, "\n")] = 0;
      run.sass_note = slog;
    }
  }
  enum be_status st = ms_launch(&ms, dev, o.kernel, params, psize, &bl, MS_MEASURE, &mr, err,
                                sizeof err);
  run.run_seconds = mr.launch_s;
  if (st != BE_OK) {
    wl_error("%s", err);
    rc = WL_EXIT_USAGE;
    goto out;
  }
  const struct be_result *br = &mr.br;
  run.res = br->emu;
  run.occ = mr.have_occ ? &mr.occ : NULL;
  run.backend = o.backend;
  run.device = be_describe(dev);
  run.gpu_ms = br->gpu_ms;
  run.gpu_error = br->gpu_error;
  run.ran_ok = br->ran_ok;
  run.show_lines = o.lines;
  if (o.backend == BE_EMU) {
    if (!mr.have_rep) {
      wl_error("out of host memory computing the metrics");
      rc = WL_EXIT_USAGE;
      goto out;
    }
    run.met = &mr.rep;
    if (ms.prof && run.ran_ok) {
      run.model_seconds = mr.model_s;
      if (!mr.have_tm) {
        wl_error("out of host memory in the timing model");
        rc = WL_EXIT_USAGE;
        goto out;
      }
      run.timing = &mr.tm;
    }
  }
  if (o.order_check) {
    rc = order_check(&o, text, len, &mod, f, args, &ms, &bl, dev, br, &order);
    if (rc != WL_EXIT_OK)
      goto out;
    run.order = &order;
  }
  /* a GPU kernel that hung holds the GPU, and one that faulted took its context with it:
     nothing can be read back, and the report says why */
  int gpu_lost = o.backend == BE_GPU && (br->timed_out || !br->ran_ok);
  if (gpu_lost && o.ndumps)
    wl_error("--dump: nothing written: %s", br->timed_out ? "the kernel did not finish"
             : "the kernel faulted on the GPU, and the fault ends the GPU context the buffers "
               "were in (the report says what the driver reported)");
  rc = gpu_lost ? WL_EXIT_OK : write_dumps(&o, args, o.nargs, dev);
  if (rc != WL_EXIT_OK)
    goto out;
  if (o.lanes) {
    const struct sim_lanes *lz = &run.res.lanes;
    if (run_lanes_write(o.lanes, lz, &mod, text, len, o.kernel, err, sizeof err)) {
      wl_error("%s", err);
      rc = WL_EXIT_USAGE;
      goto out;
    }
    if (!lz->recorded)
      wl_error("--lanes: warp %u of block %u did not run (the grid has %u blocks of %u warps%s): "
               "%s holds no steps", lz->warp, lz->block, bl.grid[0] * bl.grid[1] * bl.grid[2],
               (bl.block[0] * bl.block[1] * bl.block[2] + lz->warp_size - 1) / lz->warp_size,
               run.ran_ok ? "" : ", or a block before it faulted", o.lanes);
  }
  if (o.json) {
    if (emu_report_json(stdout, &run)) {
      wl_error("out of memory writing JSON");
      rc = WL_EXIT_USAGE;
      goto out;
    }
  } else {
    emu_report_text(stdout, &run);
  }
  rc = run.ran_ok ? WL_EXIT_OK : WL_EXIT_FAULT;
out:
  ms_result_free(&mr);                         /* run.res is mr's */
  ptx_sass_free(&sass);
  for (uint32_t i = 0; i < o.nargs; i++)
    emu_arg_free(&args[i]);
  free(params);
  free(text);
  ptx_module_free(&mod);
  be_close(dev);
  if (tmpdir[0]) {
    unlink(ptx_path);
    rmdir(tmpdir);
  }
  return rc;
}
