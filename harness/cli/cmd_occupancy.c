/* cmd_occupancy.c: `warplab occupancy`: the theoretical occupancy of a launch, in words.
 *
 * Either the resources are given (--regs, --smem) or they are read from a kernel: a .cu file
 * is compiled to PTX with nvcc, the PTX assembled by `ptxas -v` for the profile's sm, and
 * the kernel's registers, static shared memory and barriers taken from its report. The
 * answer is harness/metrics' calculator (the rules of CUDA's cuda_occupancy.h) on an
 * architecture profile from harness/arch. --table sweeps the block size for the occupancy
 * lab's staircase plot. Exit codes: see exit_codes.def (a launch that cannot run at all is 1).
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/warplab.h"
#include "metrics/met.h"
#include "metrics/occ.h"
#include "toolchain/tc_build.h"
#include "toolchain/tc_ptxas.h"

#define MAX_FUNCS 256

static void occ_usage(FILE *f)
{
  fputs("usage: warplab occupancy --regs R --block B [--smem S] [--dyn-smem D] [options]\n"
        "       warplab occupancy FILE.cu|FILE.ptx --kernel NAME --block B [--dyn-smem D] [options]\n"
        "\n"
        "The theoretical occupancy of a launch on one SM, computed with the rules of CUDA's\n"
        "occupancy calculator: blocks per SM, warps, occupancy, and which resource limits it.\n"
        "\n"
        "  --regs R          registers per thread (ptxas -v \"Used R registers\")\n"
        "  --smem S          static shared memory per block, bytes (ptxas \"S bytes smem\")\n"
        "  --dyn-smem D      dynamic shared memory per block, bytes (the launch's third <<<>>> value)\n"
        "  --block B         threads per block: B or X,Y[,Z]\n"
        "  --kernel NAME     the kernel in FILE (the plain C++ name is enough: add finds _Z3addPfi)\n"
        "  --arch A          sm_70 sm_75 sm_80 sm_86 sm_89 sm_90 (default), or a profile name:\n"
        "                    h100-sxm h200 a100 v100 t4 rtx3090 l4 fermi-m2070 wave64, or a .conf path\n"
        "  --barriers N      block barriers the kernel uses (default 1; read from ptxas for FILE)\n"
        "  --carveout PCT    preferred shared memory carveout, percent of the largest (default: none)\n"
        "  --maxrregcount N  passed to ptxas for FILE: cap registers (spills when too low)\n"
        "  --table           also the answer for every block size from one warp to the largest\n"
        "  --json            one JSON object instead of the text\n"
        "\n"
        "Profiles are read from harness/arch (or $WARPLAB_ARCH_DIR).\n", f);
  wl_print_exit_codes();
}

struct occ_opts {
  const char *file, *kernel, *arch;
  int regs, smem, dyn, block, barriers, carveout, maxrreg;
  int have_regs, have_smem, have_block, have_barriers;
  int table, json;
};

/* A non-negative int, with optional K/KB suffix (x1024) when allow_k. */
static int parse_int(const char *s, int allow_k, int *v)
{
  char *end;
  errno = 0;
  if (*s < '0' || *s > '9')
    return -1;
  long x = strtol(s, &end, 10);
  if (errno || x > (1L << 30))
    return -1;
  if (allow_k && (!strcmp(end, "K") || !strcmp(end, "KB") || !strcmp(end, "k"))) {
    x *= 1024;
    end += strlen(end);
  }
  if (*end)
    return -1;
  *v = (int)x;
  return 0;
}

/* "256" or "32,8" or "8,8,4" -> the product. */
static int parse_block(const char *s, int *v)
{
  long prod = 1;
  const char *p = s;
  for (int i = 0; i < 3; i++) {
    char *end;
    errno = 0;
    if (*p < '0' || *p > '9')
      return -1;
    long x = strtol(p, &end, 10);
    if (errno || x <= 0 || x > (1L << 24))
      return -1;
    prod *= x;
    if (prod > (1L << 24))
      return -1;
    if (*end == 0) {
      *v = (int)prod;
      return 0;
    }
    if (*end != ',')
      return -1;
    p = end + 1;
  }
  return -1;
}

static int parse_opts(int argc, char **argv, struct occ_opts *o)
{
  static const struct option longopts[] = {
    {"regs", required_argument, 0, 'r'},     {"smem", required_argument, 0, 's'},
    {"dyn-smem", required_argument, 0, 'd'}, {"block", required_argument, 0, 'b'},
    {"kernel", required_argument, 0, 'k'},   {"arch", required_argument, 0, 'a'},
    {"barriers", required_argument, 0, 'B'}, {"carveout", required_argument, 0, 'c'},
    {"maxrregcount", required_argument, 0, 'm'}, {"table", no_argument, 0, 't'},
    {"json", no_argument, 0, 'j'},           {"help", no_argument, 0, 'h'},
    {0, 0, 0, 0}};
  memset(o, 0, sizeof *o);
  o->arch = "sm_90";
  o->barriers = 1;
  o->carveout = -1;
  optind = 1;
  opterr = 0;
  int c;
  while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
    switch (c) {
    case 'r':
      if (parse_int(optarg, 0, &o->regs)) {
        wl_error("--regs '%s': expected a number of registers per thread", optarg);
        return -1;
      }
      o->have_regs = 1;
      break;
    case 's':
      if (parse_int(optarg, 1, &o->smem)) {
        wl_error("--smem '%s': expected bytes (or N K)", optarg);
        return -1;
      }
      o->have_smem = 1;
      break;
    case 'd':
      if (parse_int(optarg, 1, &o->dyn)) {
        wl_error("--dyn-smem '%s': expected bytes (or N K)", optarg);
        return -1;
      }
      break;
    case 'b':
      if (parse_block(optarg, &o->block)) {
        wl_error("--block '%s': expected threads per block, as B or X,Y[,Z]", optarg);
        return -1;
      }
      o->have_block = 1;
      break;
    case 'k': o->kernel = optarg; break;
    case 'a': o->arch = optarg; break;
    case 'B':
      if (parse_int(optarg, 0, &o->barriers)) {
        wl_error("--barriers '%s': expected a number", optarg);
        return -1;
      }
      o->have_barriers = 1;
      break;
    case 'c':
      if (parse_int(optarg, 0, &o->carveout) || o->carveout > 100) {
        wl_error("--carveout '%s': expected a percentage, 0 to 100", optarg);
        return -1;
      }
      break;
    case 'm':
      if (parse_int(optarg, 0, &o->maxrreg)) {
        wl_error("--maxrregcount '%s': expected a number", optarg);
        return -1;
      }
      break;
    case 't': o->table = 1; break;
    case 'j': o->json = 1; break;
    case 'h': occ_usage(stdout); return 1;
    default:
      wl_error("occupancy: unknown or incomplete option '%s' (try 'warplab occupancy --help')",
               argv[optind - 1]);
      return -1;
    }
  }
  if (optind < argc)
    o->file = argv[optind++];
  if (optind < argc) {
    wl_error("occupancy: one FILE at most (got '%s' too)", argv[optind]);
    return -1;
  }
  if (o->file && (o->have_regs || o->have_smem)) {
    wl_error("occupancy: give FILE or --regs/--smem, not both (FILE's own numbers come from ptxas)");
    return -1;
  }
  if (!o->file && !o->have_regs) {
    wl_error("occupancy: give --regs R (registers per thread), or a kernel FILE.cu|FILE.ptx --kernel NAME");
    return -1;
  }
  if (!o->have_block && !o->table) {
    wl_error("occupancy: give --block B (threads per block), or --table for every block size");
    return -1;
  }
  return 0;
}

/* Read FILE's kernel resources through nvcc (for .cu) and ptxas into *res. Returns an exit
   code (WL_EXIT_OK when *res is filled). */
static int kernel_resources(const struct occ_opts *o, const struct occ_profile *prof,
                            struct tc_resources *res)
{
  char arch[16], tmpdir[] = "/tmp/warplab-occ-XXXXXX", ptx[64];
  char *log = malloc(1 << 16);
  struct tc_resources *funcs = calloc(MAX_FUNCS, sizeof *funcs);
  int rc = WL_EXIT_OK, made_dir = 0, n = 0;
  const char *ptx_path = o->file;
  snprintf(arch, sizeof arch, "sm_%d", prof->sm);
  if (!log || !funcs) {
    wl_error("out of memory");
    rc = WL_EXIT_USAGE;
    goto out;
  }
  if (access(o->file, R_OK) != 0) {
    wl_error("%s: %s", o->file, strerror(errno));
    rc = WL_EXIT_USAGE;
    goto out;
  }
  if (wl_ends_with(o->file, ".cu")) {
    if (!mkdtemp(tmpdir)) {
      wl_error("cannot make a temporary folder: %s", strerror(errno));
      rc = WL_EXIT_USAGE;
      goto out;
    }
    made_dir = 1;
    snprintf(ptx, sizeof ptx, "%s/k.ptx", tmpdir);
    enum tc_build_status b = tc_build_ptx(o->file, arch, ptx, log, 1 << 16);
    if (b != TC_BUILD_OK) {
      fputs(log, stderr);
      rc = b == TC_BUILD_NO_NVCC ? WL_EXIT_USAGE : WL_EXIT_BUILD;
      goto out;
    }
    ptx_path = ptx;
  } else if (!wl_ends_with(o->file, ".ptx")) {
    wl_error("%s: expected a .cu or .ptx file", o->file);
    rc = WL_EXIT_USAGE;
    goto out;
  }
  enum tc_ptxas_status s = tc_ptxas(ptx_path, arch, o->maxrreg, funcs, MAX_FUNCS, &n, log, 1 << 16);
  if (s != TC_PTXAS_OK) {
    fputs(log, stderr);
    if (s == TC_PTXAS_FAILED)
      wl_error("ptxas could not assemble %s for %s (the profile %s)", o->file, arch, prof->id);
    rc = s == TC_PTXAS_FAILED ? WL_EXIT_BUILD : WL_EXIT_USAGE;
    goto out;
  }
  const struct tc_resources *k = NULL;
  if (o->kernel) {
    k = tc_resources_find(funcs, n, o->kernel);
  } else {
    for (int i = 0; i < n; i++)
      if (funcs[i].is_entry) {
        if (k) {
          k = NULL;
          break;
        }
        k = &funcs[i];
      }
  }
  if (!k || !k->is_entry || !(k->has & TC_RES_REGISTERS)) {
    char names[1024];
    size_t len = 0;
    names[0] = 0;
    for (int i = 0; i < n && len < sizeof names; i++)
      if (funcs[i].is_entry) {
        int w = snprintf(names + len, sizeof names - len, "%s%s", len ? ", " : "", funcs[i].name);
        if (w > 0)
          len += (size_t)w;
      }
    if (o->kernel)
      wl_error("%s: no kernel '%s' in ptxas's report (kernels: %s)", o->file, o->kernel,
               names[0] ? names : "none");
    else
      wl_error("%s: give --kernel NAME (kernels: %s)", o->file, names[0] ? names : "none");
    rc = WL_EXIT_USAGE;
    goto out;
  }
  *res = *k;
out:
  if (made_dir) {
    unlink(ptx);
    rmdir(tmpdir);
  }
  free(funcs);
  free(log);
  return rc;
}

/* "8" or "-" for a limit. */
static const char *limit_str(int v, char *buf, size_t n)
{
  if (v == OCC_NO_LIMIT)
    snprintf(buf, n, "-");
  else
    snprintf(buf, n, "%d", v);
  return buf;
}

/* One line per resource: how many blocks it allows, and why. */
static void print_limits(const struct occ_profile *p, const struct occ_input *in,
                         const struct occ_result *r)
{
  char b[32];
  int rpw = r->warps_per_block ? r->regs_per_block / r->warps_per_block : 0;
  printf("  blocks per SM each resource allows:\n");
  printf("    registers  %4s  %d registers/thread -> %d per warp (rounded to %d)",
         limit_str(r->limit[OCC_LIMIT_IDX_REGISTERS], b, sizeof b), in->regs_per_thread, rpw,
         p->reg_alloc_unit);
  if (rpw > 0)
    printf("; the SM's %d registers hold %d such warps", p->regs_per_sm,
           p->regs_per_sm / p->warp_alloc_granularity / rpw * p->warp_alloc_granularity);
  printf("\n");
  printf("    shared_mem %4s  %d B/block (%d static + %d dynamic + %d reserved, rounded to %d) of %d B per SM\n",
         limit_str(r->limit[OCC_LIMIT_IDX_SHARED_MEM], b, sizeof b), r->smem_per_block,
         in->static_smem, in->dyn_smem, p->smem_reserved_per_block, p->smem_alloc_unit, r->smem_config);
  printf("    warps      %4s  %d warps/block of %d warps per SM\n", limit_str(r->limit[OCC_LIMIT_IDX_WARPS], b, sizeof b),
         r->warps_per_block, p->max_warps_per_sm);
  printf("    blocks     %4s  at most %d blocks per SM\n", limit_str(r->limit[OCC_LIMIT_IDX_BLOCKS], b, sizeof b),
         p->max_blocks_per_sm);
  if (p->max_barriers_per_sm > 0)
    printf("    barriers   %4s  %d barriers/block of %d per SM\n", limit_str(r->limit[OCC_LIMIT_IDX_BARRIERS], b, sizeof b),
           in->barriers, p->max_barriers_per_sm);
}

static void print_answer(const struct occ_profile *p, const struct occ_input *in,
                         const struct occ_result *r)
{
  char lim[128];
  occ_limits_str(r->limiting, ", ", lim, sizeof lim);
  printf("block %d, %d registers/thread, %d B shared", in->block_threads, in->regs_per_thread,
         in->static_smem + in->dyn_smem);
  if (r->active_blocks == 0) {
    printf(": cannot run: %s\n", r->note);
    return;
  }
  printf(": %d block%s = %d warps of %d per SM -> %.4g%% occupancy; limited by %s\n",
         r->active_blocks, r->active_blocks == 1 ? "" : "s", r->active_warps, r->max_warps,
         r->occupancy_pct, lim);
}

static void print_table(const struct occ_profile *p, struct occ_input in)
{
  struct occ_result r;
  struct occ_error e;
  char lim[128];
  printf("\n%6s %6s %10s %9s %10s  %s\n", "block", "warps", "blocks/SM", "warps/SM", "occupancy",
         "limited by");
  for (int b = p->warp_size; b <= p->max_threads_per_block; b += p->warp_size) {
    in.block_threads = b;
    if (occ_compute(p, &in, &r, &e) != OCC_OK)
      continue;
    printf("%6d %6d %10d %9d %9.2f%%  %s\n", b, r.warps_per_block, r.active_blocks,
           r.active_warps, r.occupancy_pct, occ_limits_str(r.limiting, ",", lim, sizeof lim));
  }
}

static json_t *limit_json(int v)
{
  return v == OCC_NO_LIMIT ? json_null() : json_integer(v);
}

static json_t *result_json(const struct occ_input *in, const struct occ_result *r)
{
  json_t *o = json_object();
  json_t *lims = json_object(), *why = json_array(), *metrics = json_object();
  json_object_set_new(o, "block", json_integer(in->block_threads));
  json_object_set_new(o, "active_blocks", json_integer(r->active_blocks));
  json_object_set_new(o, "active_warps", json_integer(r->active_warps));
  json_object_set_new(o, "max_warps", json_integer(r->max_warps));
  json_object_set_new(o, "occupancy_pct", json_real(r->occupancy_pct));
#define X(name, bit, word, metric) \
  json_object_set_new(lims, word, limit_json(r->limit[OCC_LIMIT_IDX_##name])); \
  json_object_set_new(metrics, metric, limit_json(r->limit[OCC_LIMIT_IDX_##name])); \
  if (r->limiting & (bit)) \
    json_array_append_new(why, json_string(word));
#include "metrics/occ_limits.def"
#undef X
  json_object_set_new(metrics, met_name(MET_OCC_THEORETICAL), json_real(r->occupancy_pct));
  json_object_set_new(metrics, met_name(MET_REGISTERS), json_integer(in->regs_per_thread));
  json_object_set_new(o, "limited_by", why);
  json_object_set_new(o, "limits", lims);
  json_object_set_new(o, "regs_per_block", json_integer(r->regs_per_block));
  json_object_set_new(o, "smem_per_block", json_integer(r->smem_per_block));
  json_object_set_new(o, "smem_config", json_integer(r->smem_config));
  json_object_set_new(o, "note", r->active_blocks ? json_null() : json_string(r->note));
  json_object_set_new(o, "metrics", metrics);
  return o;
}

int wl_cmd_occupancy(int argc, char **argv)
{
  struct occ_opts o;
  int prc = parse_opts(argc, argv, &o);
  if (prc)
    return prc > 0 ? WL_EXIT_OK : WL_EXIT_USAGE;

  struct occ_profile prof;
  struct occ_error err;
  if (occ_profile_load(o.arch, &prof, &err) != OCC_OK) {
    wl_error("%s", err.msg);
    return WL_EXIT_USAGE;
  }

  struct occ_input in = occ_input_default();
  struct tc_resources res;
  memset(&res, 0, sizeof res);
  if (o.file) {
    int rc = kernel_resources(&o, &prof, &res);
    if (rc != WL_EXIT_OK)
      return rc;
    in.regs_per_thread = res.registers;
    in.static_smem = res.static_smem;
    if (res.has & TC_RES_BARRIERS)
      in.barriers = res.barriers;
  } else {
    in.regs_per_thread = o.regs;
    in.static_smem = o.smem;
  }
  if (o.have_barriers)
    in.barriers = o.barriers;
  in.dyn_smem = o.dyn;
  in.carveout_pct = o.carveout;
  in.block_threads = o.have_block ? o.block : prof.warp_size;

  struct occ_result r;
  if (occ_compute(&prof, &in, &r, &err) != OCC_OK) {
    wl_error("%s", err.msg);
    return WL_EXIT_USAGE;
  }

  if (o.json) {
    json_t *root = json_object();
    json_t *pj = json_pack("{s:s,s:s,s:i,s:b}", "id", prof.id, "name", prof.name, "sm", prof.sm,
                           "teaching", prof.teaching);
    json_object_set_new(pj, "sm_count", json_integer(prof.sm_count));
    json_object_set_new(pj, "warp_size", json_integer(prof.warp_size));
    json_object_set_new(pj, "max_threads_per_block", json_integer(prof.max_threads_per_block));
    json_object_set_new(pj, "max_threads_per_sm", json_integer(prof.max_threads_per_sm));
    json_object_set_new(pj, "max_blocks_per_sm", json_integer(prof.max_blocks_per_sm));
    json_object_set_new(pj, "regs_per_sm", json_integer(prof.regs_per_sm));
    json_object_set_new(pj, "regs_per_block", json_integer(prof.regs_per_block));
    json_object_set_new(pj, "smem_per_sm", json_integer(prof.smem_per_sm));
    json_object_set_new(pj, "smem_per_block_default", json_integer(prof.smem_per_block_default));
    json_object_set_new(pj, "smem_per_block_optin", json_integer(prof.smem_per_block_optin));
    json_object_set_new(pj, "smem_reserved_per_block", json_integer(prof.smem_reserved_per_block));
    json_object_set_new(root, "profile", pj);
    if (o.file) {
      json_t *k = json_object();
      json_object_set_new(k, "file", json_string(o.file));
      json_object_set_new(k, "kernel", json_string(res.name));
      json_object_set_new(k, "registers", json_integer(res.registers));
      json_object_set_new(k, "static_smem", json_integer(res.static_smem));
      json_object_set_new(k, "stack_frame", json_integer(res.stack_frame));
      json_object_set_new(k, "spill_stores", json_integer(res.spill_stores));
      json_object_set_new(k, "spill_loads", json_integer(res.spill_loads));
      json_object_set_new(k, "barriers", (res.has & TC_RES_BARRIERS) ? json_integer(res.barriers) : json_null());
      json_object_set_new(k, "const_bytes", (res.has & TC_RES_CONST) ? json_integer(res.const_bytes) : json_null());
      json_object_set_new(root, "ptxas", k);
    }
    json_t *inj = json_pack("{s:i,s:i,s:i,s:i,s:i}", "regs_per_thread", in.regs_per_thread,
                            "static_smem", in.static_smem, "dyn_smem", in.dyn_smem,
                            "barriers", in.barriers, "carveout_pct", in.carveout_pct);
    json_object_set_new(root, "input", inj);
    if (o.have_block)
      json_object_set_new(root, "result", result_json(&in, &r));
    if (o.table) {
      json_t *t = json_array();
      struct occ_input ti = in;
      for (int b = prof.warp_size; b <= prof.max_threads_per_block; b += prof.warp_size) {
        struct occ_result tr;
        ti.block_threads = b;
        if (occ_compute(&prof, &ti, &tr, &err) == OCC_OK)
          json_array_append_new(t, result_json(&ti, &tr));
      }
      json_object_set_new(root, "table", t);
    }
    char *s = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    if (s) {
      puts(s);
      free(s);
    }
    json_decref(root);
    return (o.have_block && r.active_blocks == 0) ? WL_EXIT_FAULT : WL_EXIT_OK;
  }

  printf("%s (%s, sm_%d%s): %d SMs, %d warps and %d blocks per SM, %d registers, %d KB shared\n",
         prof.id, prof.name, prof.sm, prof.teaching ? ", a teaching profile" : "", prof.sm_count,
         prof.max_warps_per_sm, prof.max_blocks_per_sm, prof.regs_per_sm, prof.smem_per_sm / 1024);
  if (o.file) {
    printf("%s, kernel %s (ptxas -arch=sm_%d): %d registers, %d B static shared, %d B stack, "
           "%d B spill stores, %d B spill loads", o.file, res.name, prof.sm, res.registers,
           res.static_smem, res.stack_frame, res.spill_stores, res.spill_loads);
    if (res.has & TC_RES_BARRIERS)
      printf(", %d barrier%s", res.barriers, res.barriers == 1 ? "" : "s");
    printf("\n");
  }
  if (o.have_block) {
    print_answer(&prof, &in, &r);
    print_limits(&prof, &in, &r);
  }
  if (o.table)
    print_table(&prof, in);
  return (o.have_block && r.active_blocks == 0) ? WL_EXIT_FAULT : WL_EXIT_OK;
}
