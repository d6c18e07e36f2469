/* cmd_emu.c: `warplab emu`: run any kernel on the emulator, for instructors and tests.
 *
 * Build (a .cu through nvcc) -> parse -> check the arguments against the kernel's parameters
 * -> allocate and fill buffers -> run -> dump buffers -> report. Exit codes: see
 * exit_codes.def.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/emu_args.h"
#include "cli/emu_report.h"
#include "cli/warplab.h"
#include "ptx/ptx.h"
#include "run/run_build.h"
#include "run/run_exec.h"
#include "run/run_file.h"
#include "run/run_lanes.h"
#include "backend/be.h"
#include "metrics/met.h"
#include "metrics/occ.h"
#include "run/run_ptxas.h"
#include "run/run_sass.h"
#include "run/run_sanitize.h"
#include "sim/sim.h"

#define MAX_ARGS 64
#define MAX_DUMPS 32

static void emu_usage(FILE *f)
{
  fputs("usage: warplab emu FILE.cu|FILE.ptx --kernel NAME --grid X[,Y[,Z]] --block X[,Y[,Z]]\n"
        "         [--smem BYTES] [--sched its|stack] [--arch sm_90] [--json] [--dump N=PATH]...\n"
        "         [--threads N] [--max-insts N] [--warp-size 32|64] [--keep-ptx PATH]\n"
        "         [--backend emu|gpu] [--lines] [--profile NAME] [--sanitize TOOL]\n"
        "         [--lanes PATH [--lanes-warp B,W]]\n"
        "         --arg SPEC ...   (one per kernel parameter, in order)\n"
        "\n"
        "SPEC: TYPEbuf:COUNT:INIT   a buffer; TYPE i8 u8 i16 u16 i32 u32 i64 u64\n"
        "                           f16 bf16 f32 f64;\n"
        "                           INIT rand[:SEED] | zero | fill=V | iota | file=PATH\n"
        "      TYPE:V               a scalar of one of those types\n"
        "      bytes:HEX            a parameter as its bytes in memory order, two hex\n"
        "                           digits each: a struct passed by value\n"
        "--dump N=PATH writes argument N's buffer (0-based), raw, after the run.\n"
        "--sched its (default): independent thread scheduling, Volta and later;\n"
        "        stack: pre-Volta reconvergence stack (the SIMT spin lock deadlocks).\n"
        "--threads N: host threads running blocks (0 = all cores, the default).\n"
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
        "        (blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z)); default 0,0.\n", f);
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
    enum run_build_status bs = run_build_ptx(o->file, o->arch, ptx_path, log, sizeof log);
    if (bs != RUN_BUILD_OK) {
      fprintf(stderr, "%s", log);
      /* only the kernel file's own errors are a failed build: no nvcc, or a --keep-ptx path
         that cannot be written, is the command's input */
      if (bs != RUN_BUILD_FAILED) {
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
  *text = run_read_file(ptx_path, len);
  if (!*text) {
    wl_error("cannot read %s: %s", ptx_path, strerror(errno));
    return WL_EXIT_USAGE;
  }
  return WL_EXIT_OK;
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

/* `--sanitize TOOL` (GPU only): the same command again under compute-sanitizer, and its
   first finding in the emulator's words. */
static int sanitized(int argc, char **argv, const struct emu_opts *o)
{
  if (o->backend != BE_GPU) {
    wl_error("--sanitize runs compute-sanitizer on the GPU: add --backend gpu (the emulator "
             "reports every fault, race-free or not, with its line by itself)");
    return WL_EXIT_USAGE;
  }
  char self[4096];
  if (run_self_path(self, sizeof self)) {
    wl_error("cannot find the warplab executable");
    return WL_EXIT_USAGE;
  }
  char **args = calloc((size_t)argc + 2, sizeof *args);
  if (!args) {
    wl_error("out of host memory");
    return WL_EXIT_USAGE;
  }
  int k = 0;
  args[k++] = self;
  args[k++] = "emu";
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--sanitize")) {
      i++;
      continue;
    }
    if (!strncmp(argv[i], "--sanitize=", 11) || !strcmp(argv[i], "--json"))
      continue;
    args[k++] = argv[i];
  }
  args[k] = NULL;
  struct run_sanitized r;
  char err[512];
  int st = run_sanitize(o->sanitize, args, &r, err, sizeof err);
  free(args);
  if (st) {
    wl_error("%s", err);
    return WL_EXIT_USAGE;
  }
  emu_report_sanitizer(stdout, o->kernel, o->sanitize, &r, o->json);
  return r.errors ? WL_EXIT_FAULT : WL_EXIT_OK;
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
  struct met_report met;
  memset(&met, 0, sizeof met);
  struct ptx_sass sass;
  memset(&sass, 0, sizeof sass);
  char slog[512];
  struct emu_run run;
  memset(&run, 0, sizeof run);
  struct run_resources rs[32];
  struct occ_profile prof;
  struct occ_result occ;
  struct tm_report tmr;

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
    .workers = o.cfg.workers, .max_warp_insts = o.cfg.max_warp_insts,
    .lanes = o.lanes != NULL, .lanes_block = o.cfg.lanes_block, .lanes_warp = o.cfg.lanes_warp,
  };
  memcpy(bl.grid, o.cfg.grid, sizeof bl.grid);
  memcpy(bl.block, o.cfg.block, sizeof bl.block);
  /* resources from ptxas and the occupancy they allow, when the toolkit is here; the profile
     also drives the timing model */
  char plog[2048];
  int nrs = 0, have_prof = 0;
  struct occ_error oe;
  if (occ_profile_load(o.profile ? o.profile : o.arch, &prof, &oe) == OCC_OK) {
    have_prof = 1;
    run.profile = prof.id;
  } else if (o.profile) {
    wl_error("--profile %s: %s", o.profile, oe.msg);
    rc = WL_EXIT_USAGE;
    goto out;
  }
  if (run_ptxas(wl_ends_with(o.file, ".cu") ? ptx_path : o.file, o.arch, 0, rs, 32, &nrs, plog,
                sizeof plog) == RUN_PTXAS_OK)
    run.rsrc = run_resources_find(rs, nrs, o.kernel);
  if (run.rsrc && have_prof) {
    const struct run_resources *k = run.rsrc;
    struct occ_input in = occ_input_default();
    in.regs_per_thread = k->registers;
    in.static_smem = k->static_smem;
    in.dyn_smem = (int)o.cfg.dyn_smem;
    in.block_threads = (int)(o.cfg.block[0] * o.cfg.block[1] * o.cfg.block[2]);
    if (k->barriers > 0)
      in.barriers = k->barriers;
    if (occ_compute(&prof, &in, &occ, &oe) == OCC_OK)
      run.occ = &occ;
  }
  /* the timing model: which blocks the emulator records for it */
  struct tm_kernel tk = {
    .grid_blocks = o.cfg.grid[0] * o.cfg.grid[1] * o.cfg.grid[2],
    .block_threads = o.cfg.block[0] * o.cfg.block[1] * o.cfg.block[2],
    .warp_size = o.cfg.warp_size, .dyn_smem = o.cfg.dyn_smem,
    .regs_per_thread = run.rsrc ? run.rsrc->registers : 0,
    .static_smem = run.rsrc ? (uint32_t)run.rsrc->static_smem : 0,
    .barriers = run.rsrc ? run.rsrc->barriers : 0,
  };
  struct tm_plan plan;
  memset(&plan, 0, sizeof plan);
  if (o.backend == BE_EMU && have_prof)
    tm_plan(&prof, &tk, &plan);
  bl.trace_every = plan.ok ? plan.trace_every : 0;
  bl.trace_blocks = plan.ok ? plan.trace_blocks : 0;
  be_launch_limits(&bl, have_prof ? &prof : NULL, run.rsrc ? run.rsrc->registers : 0);
  struct be_result br;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  enum be_status st = be_launch(dev, o.kernel, params, psize, &bl, &br, err, sizeof err);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  run.run_seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
  if (st != BE_OK) {
    wl_error("%s", err);
    rc = WL_EXIT_USAGE;
    goto out;
  }
  run.res = br.emu;
  run.backend = o.backend;
  run.device = be_describe(dev);
  run.gpu_ms = br.gpu_ms;
  run.gpu_error = br.gpu_error;
  run.ran_ok = br.ran_ok;
  run.show_lines = o.lines;
  if (o.backend == BE_EMU) {
    if (met_compute(&mod, &run.res, &met) != 0) {
      wl_error("out of host memory computing the metrics");
      rc = WL_EXIT_USAGE;
      goto out;
    }
    run.met = &met;
    /* count what the GPU executes: the SASS ptxas makes of this PTX, where nvdisasm is here */
    if (run_sass(wl_ends_with(o.file, ".cu") ? ptx_path : o.file, o.arch, &mod, &sass, slog,
                 sizeof slog) == RUN_SASS_OK)
      met_apply_sass(&met, &mod, &run.res, &sass);
    else {
      slog[strcspn(slog, "\n")] = 0;
      run.sass_note = slog;
    }
    if (have_prof && run.ran_ok) {
      clock_gettime(CLOCK_MONOTONIC, &t0);
      int mrc = tm_model(&prof, &mod, &tk, &plan, &run.res.trace, &tmr);
      clock_gettime(CLOCK_MONOTONIC, &t1);
      run.model_seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
      if (mrc != 0) {
        wl_error("out of host memory in the timing model");
        rc = WL_EXIT_USAGE;
        goto out;
      }
      run.timing = &tmr;
    }
  }
  /* a GPU kernel that hung holds the GPU: nothing can be read back, the report says why */
  if (o.backend == BE_GPU && br.timed_out && o.ndumps)
    wl_error("--dump: nothing written: the kernel did not finish");
  rc = o.backend == BE_GPU && br.timed_out ? WL_EXIT_OK : write_dumps(&o, args, o.nargs, dev);
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
  met_report_free(&met);
  ptx_sass_free(&sass);
  sim_result_free(&run.res);
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
