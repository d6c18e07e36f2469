/* check_occ.c: unit tests of the occupancy calculator, the architecture profiles
 * (harness/metrics/occ.c, harness/arch/NAME.conf) and the ptxas report reader
 * (harness/toolchain/tc_ptxas.c).
 *
 * The calculator is held to the CUDA toolkit's own cuda_occupancy.h: occ_reference.inc is
 * that header's cudaOccMaxActiveBlocksPerMultiprocessor on thousands of launches over
 * sm_70..sm_90 (made by tests/tools/make_occ_reference.sh), and every row must come out the
 * same, each resource's block count included. The H200 rows were measured on the GPU with
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor (shared/calibration/h200). Fermi and the
 * wave64 teaching profile are outside the header; their cases are worked by hand below.
 */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/occ.h"
#include "toolchain/tc_ptxas.h"
#include "toolchain/tc_toolkit.h"
#include "suites.h"

struct occ_ref_prop {
  int sm, max_tpb, max_tpsm, regs_block, regs_sm, warp;
  int smem_block, smem_sm, smem_optin, smem_reserved, sms;
};
struct occ_ref_row {
  int sm, regs, smem, dyn, block, barriers, carveout;
  int blocks;
  unsigned factors;
  int lim_regs, lim_smem, lim_warps, lim_blocks, lim_bars;
};
#include "occ_reference.inc"

#define NPROPS (int)(sizeof occ_ref_props / sizeof occ_ref_props[0])
#define NROWS (int)(sizeof occ_ref_rows / sizeof occ_ref_rows[0])

static struct occ_profile load(const char *what)
{
  struct occ_profile p;
  struct occ_error e;
  enum occ_status st = occ_profile_load(what, &p, &e);
  ck_assert_msg(st == OCC_OK, "loading %s: %s", what, e.msg);
  return p;
}

static int ref_lim(int v) { return v < 0 ? OCC_NO_LIMIT : v; }

/* ---------------------------------------------------------------------------------------
 * Against cuda_occupancy.h
 * ------------------------------------------------------------------------------------- */

/* The default profile of each sm carries the cudaDeviceProp numbers the table was made with. */
START_TEST(test_reference_props)
{
  const struct occ_ref_prop *r = &occ_ref_props[_i];
  char name[16];
  snprintf(name, sizeof name, "sm_%d", r->sm);
  struct occ_profile p = load(name);
  ck_assert_int_eq(p.sm, r->sm);
  ck_assert_int_eq(p.max_threads_per_block, r->max_tpb);
  ck_assert_int_eq(p.max_threads_per_sm, r->max_tpsm);
  ck_assert_int_eq(p.regs_per_block, r->regs_block);
  ck_assert_int_eq(p.regs_per_sm, r->regs_sm);
  ck_assert_int_eq(p.warp_size, r->warp);
  ck_assert_int_eq(p.smem_per_block_default, r->smem_block);
  ck_assert_int_eq(p.smem_per_sm, r->smem_sm);
  ck_assert_int_eq(p.smem_per_block_optin, r->smem_optin);
  ck_assert_int_eq(p.smem_reserved_per_block, r->smem_reserved);
  ck_assert_int_eq(p.sm_count, r->sms);
}
END_TEST

/* Every row of one sm (loop index = position in occ_ref_props): blocks per SM, each limit,
   and the header's limiting-factor bits. Reports the first mismatches with their inputs. */
START_TEST(test_reference_rows)
{
  const int sm = occ_ref_props[_i].sm;
  char name[16];
  snprintf(name, sizeof name, "sm_%d", sm);
  struct occ_profile p = load(name);
  int checked = 0, bad = 0;
  char first[512] = "";
  for (int k = 0; k < NROWS; k++) {
    const struct occ_ref_row *r = &occ_ref_rows[k];
    if (r->sm != sm)
      continue;
    struct occ_input in = occ_input_default();
    in.regs_per_thread = r->regs;
    in.static_smem = r->smem;
    in.dyn_smem = r->dyn;
    in.block_threads = r->block;
    in.barriers = r->barriers;
    in.carveout_pct = r->carveout;
    struct occ_result res;
    struct occ_error e;
    ck_assert_int_eq(occ_compute(&p, &in, &res, &e), OCC_OK);
    checked++;
    if (res.active_blocks != r->blocks || res.cuda_factors != r->factors ||
        res.limit[OCC_LIMIT_IDX_REGISTERS] != ref_lim(r->lim_regs) ||
        res.limit[OCC_LIMIT_IDX_SHARED_MEM] != ref_lim(r->lim_smem) ||
        res.limit[OCC_LIMIT_IDX_WARPS] != ref_lim(r->lim_warps) ||
        res.limit[OCC_LIMIT_IDX_BLOCKS] != ref_lim(r->lim_blocks) ||
        res.limit[OCC_LIMIT_IDX_BARRIERS] != ref_lim(r->lim_bars)) {
      if (!bad++)
        snprintf(first, sizeof first,
                 "row %d: sm_%d regs %d smem %d dyn %d block %d barriers %d carveout %d: "
                 "header %d blocks (0x%02x; regs %d smem %d warps %d blocks %d bars %d), ours %d "
                 "(0x%02x; regs %d smem %d warps %d blocks %d bars %d)",
                 k, sm, r->regs, r->smem, r->dyn, r->block, r->barriers, r->carveout, r->blocks,
                 r->factors, r->lim_regs, r->lim_smem, r->lim_warps, r->lim_blocks, r->lim_bars,
                 res.active_blocks, res.cuda_factors, res.limit[OCC_LIMIT_IDX_REGISTERS],
                 res.limit[OCC_LIMIT_IDX_SHARED_MEM], res.limit[OCC_LIMIT_IDX_WARPS],
                 res.limit[OCC_LIMIT_IDX_BLOCKS], res.limit[OCC_LIMIT_IDX_BARRIERS]);
    }
    /* the words a student reads name exactly the resources at the answer */
    for (int l = 0; l < OCC_N_LIMITS; l++)
      ck_assert_int_eq(!!(res.limiting & (1u << l)), res.limit[l] == res.active_blocks);
    ck_assert_int_eq(res.active_warps, res.active_blocks * res.warps_per_block);
  }
  ck_assert_msg(checked >= 400, "only %d reference rows for sm_%d", checked, sm);
  ck_assert_msg(bad == 0, "%d of %d rows differ from cuda_occupancy.h; first: %s", bad, checked, first);
}
END_TEST

/* shared/calibration/h200/occupancy_stream.csv: 128 threads, 18 registers, dynamic shared
   memory it does not use; active blocks from cudaOccupancyMaxActiveBlocksPerMultiprocessor
   on the H200 itself. */
START_TEST(test_h200_measured)
{
  static const struct { int dyn, blocks; } m[] = {
    {0, 16}, {8192, 16}, {16384, 13}, {24576, 9}, {32768, 6}, {49152, 4},
    {65536, 3}, {98304, 2}, {114688, 2}, {204800, 1},
  };
  struct occ_profile p = load("h200");
  for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
    struct occ_input in = occ_input_default();
    in.regs_per_thread = 18;
    in.block_threads = 128;
    in.dyn_smem = m[i].dyn;
    struct occ_result r;
    struct occ_error e;
    ck_assert_int_eq(occ_compute(&p, &in, &r, &e), OCC_OK);
    ck_assert_msg(r.active_blocks == m[i].blocks, "dyn %d: %d blocks, the H200 said %d", m[i].dyn,
                  r.active_blocks, m[i].blocks);
    ck_assert_double_eq_tol(r.occupancy_pct, 100.0 * m[i].blocks * 4 / 64, 1e-9);
  }
}
END_TEST

/* ---------------------------------------------------------------------------------------
 * Outside the header: Fermi (the occupancy spreadsheet's 2.0 rules) and wave64
 * ------------------------------------------------------------------------------------- */

static struct occ_result compute(const struct occ_profile *p, int regs, int smem, int block)
{
  struct occ_input in = occ_input_default();
  in.regs_per_thread = regs;
  in.static_smem = smem;
  in.block_threads = block;
  struct occ_result r;
  struct occ_error e;
  ck_assert_int_eq(occ_compute(p, &in, &r, &e), OCC_OK);
  return r;
}

START_TEST(test_fermi_by_hand)
{
  struct occ_profile p = load("sm_20");
  ck_assert_str_eq(p.id, "fermi-m2070");
  ck_assert_int_eq(p.teaching, 1);
  ck_assert_int_eq(p.transaction_bytes, 128);
  /* 20 regs x 32 = 640 per warp (a multiple of 64); 32768 / 640 = 51 warps, 50 in pairs:
     6 blocks of 8 warps; warps allow 48 / 8 = 6 as well: 100% */
  struct occ_result r = compute(&p, 20, 0, 256);
  ck_assert_int_eq(r.active_blocks, 6);
  ck_assert_int_eq(r.limit[OCC_LIMIT_IDX_REGISTERS], 6);
  ck_assert_int_eq(r.limiting, OCC_LIMIT_WARPS | OCC_LIMIT_REGISTERS);
  ck_assert_double_eq_tol(r.occupancy_pct, 100.0, 1e-9);
  /* 63 regs: 2016 -> 2048 per warp, 16 warps: 2 blocks of 256, 33% */
  r = compute(&p, 63, 0, 256);
  ck_assert_int_eq(r.active_blocks, 2);
  ck_assert_int_eq(r.limiting, OCC_LIMIT_REGISTERS);
  /* 64 regs is more than a Fermi thread can have */
  r = compute(&p, 64, 0, 32);
  ck_assert_int_eq(r.active_blocks, 0);
  ck_assert_ptr_nonnull(strstr(r.note, "63"));
  /* 8 blocks per SM: 64-thread blocks stop at 16 of 48 warps */
  r = compute(&p, 16, 0, 64);
  ck_assert_int_eq(r.active_blocks, 8);
  ck_assert_int_eq(r.limiting, OCC_LIMIT_BLOCKS);
  /* 12 KB + 1 byte of shared memory rounds up to 12416: 3 blocks in 48 KB */
  r = compute(&p, 16, 12289, 128);
  ck_assert_int_eq(r.smem_per_block, 12416);
  ck_assert_int_eq(r.active_blocks, 3);
  ck_assert_int_eq(r.limiting, OCC_LIMIT_SHARED_MEM);
}
END_TEST

START_TEST(test_wave64_by_hand)
{
  struct occ_profile p = load("wave64");
  ck_assert_int_eq(p.warp_size, 64);
  ck_assert_int_eq(p.teaching, 1);
  /* 256 threads = 4 waves; 64 VGPRs x 64 lanes = 4096 per wave; a SIMD's 32768 hold 8 waves,
     the CU 32: 8 blocks, and the wave limit is 32 / 4 = 8 too */
  struct occ_result r = compute(&p, 64, 0, 256);
  ck_assert_int_eq(r.warps_per_block, 4);
  ck_assert_int_eq(r.active_blocks, 8);
  ck_assert_int_eq(r.limiting, OCC_LIMIT_WARPS | OCC_LIMIT_REGISTERS);
  /* 128 VGPRs: 4 waves per SIMD, 16 per CU: 4 blocks, 50% */
  r = compute(&p, 128, 0, 256);
  ck_assert_int_eq(r.active_blocks, 4);
  ck_assert_double_eq_tol(r.occupancy_pct, 50.0, 1e-9);
  /* 100 threads is 2 waves, not 4 */
  r = compute(&p, 16, 0, 100);
  ck_assert_int_eq(r.warps_per_block, 2);
}
END_TEST

/* The answers the occupancy lab's handout quotes, on the default sm_90. */
START_TEST(test_sm90_examples)
{
  struct occ_profile p = load("sm_90");
  struct occ_result r = compute(&p, 32, 0, 256);
  ck_assert_int_eq(r.active_blocks, 8);
  ck_assert_int_eq(r.active_warps, 64);
  ck_assert_int_eq(r.limiting, OCC_LIMIT_WARPS | OCC_LIMIT_REGISTERS);
  r = compute(&p, 33, 0, 256);   /* 33 x 32 = 1056 -> 1280 per warp: 12 warps per SMSP */
  ck_assert_int_eq(r.active_blocks, 6);
  ck_assert_int_eq(r.limiting, OCC_LIMIT_REGISTERS);
  r = compute(&p, 16, 0, 32);    /* one-warp blocks: 32 blocks, half the warps */
  ck_assert_int_eq(r.active_blocks, 32);
  ck_assert_int_eq(r.limiting, OCC_LIMIT_BLOCKS);
  ck_assert_double_eq_tol(r.occupancy_pct, 50.0, 1e-9);
  r = compute(&p, 16, 0, 1056);  /* too large a block */
  ck_assert_int_eq(r.active_blocks, 0);
  ck_assert_ptr_nonnull(strstr(r.note, "1024"));
  /* six named barriers (bar.sync 5): 64 / 6 = 10 blocks of 64 threads */
  struct occ_input in = occ_input_default();
  in.regs_per_thread = 10;
  in.static_smem = 1024;
  in.block_threads = 64;
  in.barriers = 6;
  struct occ_error e;
  ck_assert_int_eq(occ_compute(&p, &in, &r, &e), OCC_OK);
  ck_assert_int_eq(r.active_blocks, 10);
  ck_assert_int_eq(r.limiting, OCC_LIMIT_BARRIERS);
  ck_assert_int_eq(r.cuda_factors, OCC_LIMIT_BARRIERS | OCC_LIMIT_WARPS | OCC_LIMIT_BLOCKS);
  /* a carveout of 25%: 57 KB asked, 64 KB granted; 9 KB blocks (8 KB + 1 KB reserved) -> 7 */
  in = occ_input_default();
  in.regs_per_thread = 16;
  in.dyn_smem = 8192;
  in.block_threads = 128;
  in.carveout_pct = 25;
  ck_assert_int_eq(occ_compute(&p, &in, &r, &e), OCC_OK);
  ck_assert_int_eq(r.smem_config, 64 * 1024);
  ck_assert_int_eq(r.active_blocks, 7);
}
END_TEST

START_TEST(test_bad_input)
{
  struct occ_profile p = load("sm_80");
  struct occ_input in = occ_input_default();
  struct occ_result r;
  struct occ_error e;
  in.regs_per_thread = 32;
  in.block_threads = 0;
  ck_assert_int_eq(occ_compute(&p, &in, &r, &e), OCC_ERR_INPUT);
  ck_assert_ptr_nonnull(strstr(e.msg, "block size"));
  in.block_threads = 128;
  in.carveout_pct = 101;
  ck_assert_int_eq(occ_compute(&p, &in, &r, &e), OCC_ERR_INPUT);
  in.carveout_pct = -1;
  in.dyn_smem = -5;
  ck_assert_int_eq(occ_compute(&p, &in, &r, &e), OCC_ERR_INPUT);
  /* more shared memory than a block may have is a result (0 blocks), not an error */
  in.dyn_smem = 200000;
  ck_assert_int_eq(occ_compute(&p, &in, &r, &e), OCC_OK);
  ck_assert_int_eq(r.active_blocks, 0);
  ck_assert_int_eq(r.limit[OCC_LIMIT_IDX_SHARED_MEM], 0);
  ck_assert_ptr_nonnull(strstr(r.note, "shared memory"));
}
END_TEST

START_TEST(test_limit_names)
{
  char buf[128];
  ck_assert_str_eq(occ_limit_word(OCC_LIMIT_SHARED_MEM), "shared_mem");
  ck_assert_str_eq(occ_limit_metric(OCC_LIMIT_REGISTERS), "launch__occupancy_limit_registers");
  ck_assert_str_eq(occ_limit_metric(OCC_LIMIT_BARRIERS), "launch__occupancy_limit_barriers");
  ck_assert_ptr_null(occ_limit_word((enum occ_limit)0x40));
  ck_assert_str_eq(occ_limits_str(OCC_LIMIT_WARPS | OCC_LIMIT_BLOCKS, ", ", buf, sizeof buf),
                   "warps, blocks");
  ck_assert_str_eq(occ_limits_str(0, ", ", buf, sizeof buf), "");
}
END_TEST

/* ---------------------------------------------------------------------------------------
 * Profiles
 * ------------------------------------------------------------------------------------- */

/* Every shipped .conf parses; one default per sm; every supported sm has one. */
START_TEST(test_all_profiles_parse)
{
  char dir[1024];
  ck_assert_int_eq(occ_arch_dir(dir, sizeof dir), 0);
  DIR *d = opendir(dir);
  ck_assert_ptr_nonnull(d);
  int defaults[1000] = {0}, n = 0;
  struct dirent *de;
  while ((de = readdir(d))) {
    size_t l = strlen(de->d_name);
    if (l < 6 || strcmp(de->d_name + l - 5, ".conf"))
      continue;
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
    struct occ_profile p = load(path);
    ck_assert_int_gt(p.sm_count, 0);
    ck_assert_int_gt(p.sector_bytes, 0);
    ck_assert_int_gt(p.line_bytes, 0);
    ck_assert_int_gt(p.l2_bytes, 0);
    ck_assert_int_gt(p.sm_clock_mhz, 0);
    ck_assert(p.dram_bandwidth_gbs > 0);
    if (p.default_for_sm)
      defaults[p.sm]++;
    n++;
  }
  closedir(d);
  ck_assert_int_ge(n, 9);
  static const int sms[] = {20, 70, 75, 80, 86, 89, 90};
  for (size_t i = 0; i < sizeof sms / sizeof sms[0]; i++)
    ck_assert_msg(defaults[sms[i]] == 1, "sm_%d has %d default profiles", sms[i], defaults[sms[i]]);
}
END_TEST

START_TEST(test_profile_names)
{
  struct occ_profile p = load("sm_90");
  ck_assert_str_eq(p.id, "h200");
  ck_assert_int_eq(p.l1_hit_cycles, 31);
  ck_assert_double_eq_tol(p.dram_sustained_pct, 79.5, 1e-9);
  ck_assert_int_eq(p.smem_per_sm, 228 * 1024);
  ck_assert_int_eq(p.n_smem_carveouts, 10);
  ck_assert_int_eq(p.smem_carveouts[0], 0);
  ck_assert_int_eq(p.smem_carveouts[9], 228 * 1024);
  ck_assert_double_eq_tol(p.dram_bandwidth_gbs, 4800, 1e-9);
  p = load("90");
  ck_assert_str_eq(p.id, "h200");
  p = load("H100-SXM");
  ck_assert_str_eq(p.id, "h100-sxm");
  ck_assert_int_eq(p.default_for_sm, 0);
  p = load("sm_75");
  ck_assert_str_eq(p.id, "t4");
  ck_assert_int_eq(p.n_smem_carveouts, 2);
  struct occ_error e;
  ck_assert_int_eq(occ_profile_load("sm_61", &p, &e), OCC_ERR_NOT_FOUND);
  ck_assert_ptr_nonnull(strstr(e.msg, "sm_61"));
  ck_assert_ptr_nonnull(strstr(e.msg, "h200"));
  ck_assert_int_eq(occ_profile_load("gtx480", &p, &e), OCC_ERR_NOT_FOUND);
  ck_assert_ptr_nonnull(strstr(e.msg, "a100"));
  ck_assert_int_eq(occ_profile_load("/nonexistent/x.conf", &p, &e), OCC_ERR_NOT_FOUND);
  ck_assert_ptr_nonnull(strstr(e.msg, "/nonexistent/x.conf"));
}
END_TEST

/* The profile names, sorted, as the feedback screen cycles through them. */
START_TEST(test_profile_list)
{
  char names[64][OCC_STR_LEN];
  int n = occ_profile_list(names, 64);
  ck_assert_int_ge(n, 9);
  for (int i = 1; i < n; i++)
    ck_assert_int_lt(strcmp(names[i - 1], names[i]), 0);
  int h200 = 0, fermi = 0;
  for (int i = 0; i < n; i++) {
    h200 |= !strcmp(names[i], "h200");
    fermi |= !strcmp(names[i], "fermi-m2070");
    ck_assert_ptr_null(strstr(names[i], ".conf"));
  }
  ck_assert(h200 && fermi);
  ck_assert_int_eq(occ_profile_list(names, 2), 2);
}
END_TEST

/* A complete, consistent profile to break one line of. */
static const char GOOD[] =
  "# a test profile\n"
  "name = Test GPU\n"
  "sm = 80\n"
  "sm_count = 2\n"
  "warp_size = 32\n"
  "max_threads_per_block = 1024\n"
  "max_threads_per_sm = 2048\n"
  "max_warps_per_sm = 64\n"
  "max_blocks_per_sm = 32\n"
  "regs_per_sm = 65536\n"
  "regs_per_block = 65536\n"
  "max_regs_per_thread = 255\n"
  "reg_alloc_unit = 256\n"
  "reg_alloc_granularity = warp   # per warp\n"
  "warp_alloc_granularity = 4\n"
  "smem_per_sm = 164 KB\n"
  "smem_per_block_default = 48 KB\n"
  "smem_per_block_optin = 163 KB\n"
  "smem_alloc_unit = 128\n"
  "smem_reserved_per_block = 1 KB\n"
  "smem_carveouts = 0, 8, 16, 32, 64, 100, 132, 164\n";

static enum occ_status parse_with(const char *from, const char *to, struct occ_error *e)
{
  char text[4096];
  const char *at = strstr(GOOD, from);
  ck_assert_ptr_nonnull(at);
  snprintf(text, sizeof text, "%.*s%s%s", (int)(at - GOOD), GOOD, to, at + strlen(from));
  struct occ_profile p;
  return occ_profile_parse(text, strlen(text), "broken.conf", &p, e);
}

START_TEST(test_profile_errors)
{
  struct occ_profile p;
  struct occ_error e;
  ck_assert_int_eq(occ_profile_parse(GOOD, strlen(GOOD), "good.conf", &p, &e), OCC_OK);
  ck_assert_int_eq(p.smem_per_block_optin, 163 * 1024);
  ck_assert_int_eq(p.smem_carveouts[7], 164 * 1024);
  ck_assert_int_eq(p.l2_bytes, 0);

  ck_assert_int_eq(parse_with("sm_count = 2", "sm_cont = 2", &e), OCC_ERR_SYNTAX);
  ck_assert_str_eq(e.msg, "broken.conf:4: unknown key 'sm_cont' (the keys are listed in "
                          "harness/metrics/occ_profile.def)");
  ck_assert_int_eq(parse_with("sm = 80", "sm = eighty", &e), OCC_ERR_SYNTAX);
  ck_assert_ptr_nonnull(strstr(e.msg, "broken.conf:3: 'sm' wants a non-negative integer"));
  ck_assert_int_eq(parse_with("smem_per_sm = 164 KB", "smem_per_sm = 164 GB", &e), OCC_ERR_SYNTAX);
  ck_assert_ptr_nonnull(strstr(e.msg, "broken.conf:16:"));
  ck_assert_int_eq(parse_with("warp_size = 32\n", "warp_size 32\n", &e), OCC_ERR_SYNTAX);
  ck_assert_ptr_nonnull(strstr(e.msg, "broken.conf:5: expected 'key = value'"));
  ck_assert_int_eq(parse_with("sm_count = 2\n", "sm_count = 2\nsm_count = 3\n", &e), OCC_ERR_SYNTAX);
  ck_assert_ptr_nonnull(strstr(e.msg, "broken.conf:5: 'sm_count' given twice (first on line 4)"));
  ck_assert_int_eq(parse_with("regs_per_sm = 65536\n", "", &e), OCC_ERR_PROFILE);
  ck_assert_str_eq(e.msg, "broken.conf: missing key 'regs_per_sm'");
  ck_assert_int_eq(parse_with("max_warps_per_sm = 64", "max_warps_per_sm = 48", &e), OCC_ERR_PROFILE);
  ck_assert_ptr_nonnull(strstr(e.msg, "broken.conf:8: max_warps_per_sm (48) x warp_size (32)"));
  ck_assert_int_eq(parse_with("0, 8, 16, 32, 64, 100, 132, 164", "0 8 16 32 64 100 132", &e),
                   OCC_ERR_PROFILE);
  ck_assert_ptr_nonnull(strstr(e.msg, "broken.conf:21: the largest of smem_carveouts"));
  ck_assert_int_eq(parse_with("0, 8, 16,", "8, 0, 16,", &e), OCC_ERR_SYNTAX);
  ck_assert_ptr_nonnull(strstr(e.msg, "increasing"));
  ck_assert_int_eq(parse_with("= warp ", "= block ", &e), OCC_ERR_PROFILE);
  ck_assert_ptr_nonnull(strstr(e.msg, "broken.conf:14:"));
  ck_assert_int_eq(parse_with("name = Test GPU", "name =", &e), OCC_ERR_SYNTAX);
  ck_assert_ptr_nonnull(strstr(e.msg, "broken.conf:2: 'name' has no value"));
}
END_TEST

/* A broken file on disk is named with its path and line by occ_profile_load. */
START_TEST(test_profile_error_file)
{
  char path[] = "/tmp/warplab-occ-test-XXXXXX.conf";
  int fd = mkstemps(path, 5);
  ck_assert_int_ge(fd, 0);
  FILE *f = fdopen(fd, "w");
  fputs("name = x\nsm = 90\nwarp_size = 32 lanes\n", f);
  fclose(f);
  struct occ_profile p;
  struct occ_error e;
  enum occ_status st = occ_profile_load(path, &p, &e);
  remove(path);
  ck_assert_int_eq(st, OCC_ERR_SYNTAX);
  char want[128];
  snprintf(want, sizeof want, "%s:3: 'warp_size' wants a non-negative integer", path);
  ck_assert_msg(strstr(e.msg, want), "got: %s", e.msg);
}
END_TEST

/* ---------------------------------------------------------------------------------------
 * ptxas -v reports
 * ------------------------------------------------------------------------------------- */

/* Captured from CUDA 13.0's ptxas -v -arch=sm_90 on a kernel with a 64-float local array
   under __launch_bounds__(256, 4), and two more (tests/unit text, compile times cut). */
static const char PTXAS_SM90[] =
  "ptxas info    : 0 bytes gmem\n"
  "ptxas info    : Compiling entry function '_Z5heavyPfi' for 'sm_90'\n"
  "ptxas info    : Function properties for _Z5heavyPfi\n"
  "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
  "ptxas info    : Used 48 registers, used 0 barriers\n"
  "ptxas info    : Compile time = 14.835 ms\n"
  "ptxas info    : Compiling entry function '_Z3locPfii' for 'sm_90'\n"
  "ptxas info    : Function properties for _Z3locPfii\n"
  "    80 bytes stack frame, 76 bytes spill stores, 100 bytes spill loads\n"
  "ptxas info    : Used 64 registers, used 1 barriers, 80 bytes cumulative stack size, 4096 bytes smem\n"
  "ptxas info    : Compile time = 28.577 ms\n"
  "ptxas info    : Compiling entry function '_Z3addPfPKfi' for 'sm_90'\n"
  "ptxas info    : Function properties for _Z3addPfPKfi\n"
  "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
  "ptxas info    : Used 10 registers, used 0 barriers\n"
  "ptxas info    : Compile time = 1.997 ms\n";

/* Captured from CUDA 13.0's ptxas -v -arch=sm_75: constant banks, a named barrier
   (bar.sync 5: six barriers), and a __noinline__ device function after its caller. */
static const char PTXAS_SM75[] =
  "ptxas info    : 0 bytes gmem, 400 bytes cmem[3]\n"
  "ptxas info    : Compiling entry function '_Z5namedPf' for 'sm_75'\n"
  "ptxas info    : Function properties for _Z5namedPf\n"
  "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
  "ptxas info    : Used 10 registers, used 6 barriers, 1024 bytes smem, 360 bytes cmem[0]\n"
  "ptxas info    : Compile time = 1.010 ms\n"
  "ptxas info    : Compiling entry function '_Z5callsPfi' for 'sm_75'\n"
  "ptxas info    : Function properties for _Z5callsPfi\n"
  "    128 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
  "ptxas info    : Used 63 registers, used 0 barriers, 128 bytes cumulative stack size, 364 bytes cmem[0]\n"
  "ptxas info    : Compile time = 5.591 ms\n"
  "ptxas info    : Function properties for _Z6helperPfi\n"
  "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n";

/* The older layout (CUDA 11 and before, here for sm_70): no barrier count, and the
   -maxrregcount warning lines before the report. */
static const char PTXAS_SM70_OLD[] =
  "ptxas info    : Overriding maximum register limit 256 for 'scale' with  32 of maxrregcount option\n"
  "ptxas info    : 0 bytes gmem\n"
  "ptxas info    : Compiling entry function 'scale' for 'sm_70'\n"
  "ptxas info    : Function properties for scale\n"
  "    40 bytes stack frame, 36 bytes spill stores, 36 bytes spill loads\n"
  "ptxas info    : Used 32 registers, 8192 bytes smem, 372 bytes cmem[0], 8 bytes cmem[2]\n";

START_TEST(test_ptxas_parse_sm90)
{
  struct tc_resources r[8];
  ck_assert_int_eq(tc_ptxas_parse(PTXAS_SM90, r, 8), 3);
  ck_assert_str_eq(r[1].name, "_Z3locPfii");
  ck_assert_str_eq(r[1].arch, "sm_90");
  ck_assert_int_eq(r[1].is_entry, 1);
  ck_assert_int_eq(r[1].registers, 64);
  ck_assert_int_eq(r[1].static_smem, 4096);
  ck_assert_int_eq(r[1].stack_frame, 80);
  ck_assert_int_eq(r[1].spill_stores, 76);
  ck_assert_int_eq(r[1].spill_loads, 100);
  ck_assert_int_eq(r[1].cumulative_stack, 80);
  ck_assert_int_eq(r[1].barriers, 1);
  ck_assert_uint_eq(r[1].has, TC_RES_REGISTERS | TC_RES_STATIC_SMEM | TC_RES_STACK |
                              TC_RES_BARRIERS | TC_RES_CUMULATIVE_STACK);
  ck_assert_int_eq(r[2].registers, 10);
  ck_assert_int_eq(r[2].static_smem, 0);
  ck_assert_int_eq(r[2].barriers, 0);
  ck_assert_int_eq(r[0].registers, 48);
  ck_assert_ptr_eq(tc_resources_find(r, 3, "add"), &r[2]);
  ck_assert_ptr_eq(tc_resources_find(r, 3, "_Z3locPfii"), &r[1]);
  ck_assert_ptr_null(tc_resources_find(r, 3, "ad"));
  ck_assert_ptr_null(tc_resources_find(r, 3, "missing"));
  /* room for one: the first is kept */
  ck_assert_int_eq(tc_ptxas_parse(PTXAS_SM90, r, 1), 1);
  ck_assert_str_eq(r[0].name, "_Z5heavyPfi");
  ck_assert_int_eq(r[0].registers, 48);
}
END_TEST

START_TEST(test_ptxas_parse_sm75)
{
  struct tc_resources r[8];
  ck_assert_int_eq(tc_ptxas_parse(PTXAS_SM75, r, 8), 3);
  ck_assert_int_eq(r[0].barriers, 6);
  ck_assert_int_eq(r[0].static_smem, 1024);
  ck_assert_int_eq(r[0].const_bytes, 360);
  ck_assert(r[0].has & TC_RES_CONST);
  ck_assert_int_eq(r[1].registers, 63);
  ck_assert_int_eq(r[1].stack_frame, 128);
  ck_assert_str_eq(r[2].name, "_Z6helperPfi");
  ck_assert_int_eq(r[2].is_entry, 0);
  ck_assert(!(r[2].has & TC_RES_REGISTERS));
  ck_assert_ptr_eq(tc_resources_find(r, 3, "helper"), &r[2]);
}
END_TEST

START_TEST(test_ptxas_parse_old)
{
  struct tc_resources r[4];
  ck_assert_int_eq(tc_ptxas_parse(PTXAS_SM70_OLD, r, 4), 1);
  ck_assert_str_eq(r[0].name, "scale");
  ck_assert_str_eq(r[0].arch, "sm_70");
  ck_assert_int_eq(r[0].registers, 32);
  ck_assert_int_eq(r[0].static_smem, 8192);
  ck_assert_int_eq(r[0].const_bytes, 380);
  ck_assert_int_eq(r[0].spill_stores, 36);
  ck_assert(!(r[0].has & TC_RES_BARRIERS));
  ck_assert_int_eq(tc_ptxas_parse("", r, 4), 0);
  ck_assert_int_eq(tc_ptxas_parse("ptxas fatal   : Unresolved extern function 'f'\n", r, 4), 0);
}
END_TEST

/* A tiny hand-written kernel: 8 KB of shared memory and one barrier, through the real ptxas. */
static const char TINY_PTX[] =
  ".version 8.0\n.target sm_80\n.address_size 64\n"
  ".visible .entry tiny(.param .u64 tiny_param_0)\n{\n"
  ".reg .b32 %r<4>;\n.reg .f32 %f<4>;\n.reg .b64 %rd<4>;\n"
  ".shared .align 4 .b8 buf[8192];\n"
  "ld.param.u64 %rd1, [tiny_param_0];\n"
  "cvta.to.global.u64 %rd2, %rd1;\n"
  "mov.u32 %r1, %tid.x;\n"
  "shl.b32 %r2, %r1, 2;\n"
  "mov.u32 %r3, buf;\n"
  "add.s32 %r3, %r3, %r2;\n"
  "cvt.rn.f32.u32 %f1, %r1;\n"
  "st.shared.f32 [%r3], %f1;\n"
  "bar.sync 0;\n"
  "ld.shared.f32 %f2, [buf];\n"
  "mul.wide.u32 %rd3, %r1, 4;\n"
  "add.s64 %rd2, %rd2, %rd3;\n"
  "st.global.f32 [%rd2], %f2;\n"
  "ret;\n}\n";

START_TEST(test_ptxas_real)
{
  char tool[4096];
  if (tc_find_tool("ptxas", tool, sizeof tool) != 0) {
    fprintf(stderr, "check_occ: ptxas not found: the real-ptxas test is skipped\n");
    return;
  }
  char path[] = "/tmp/warplab-occ-test-XXXXXX.ptx";
  int fd = mkstemps(path, 4);
  ck_assert_int_ge(fd, 0);
  FILE *f = fdopen(fd, "w");
  fputs(TINY_PTX, f);
  fclose(f);
  struct tc_resources r[4];
  int n = 0;
  char log[8192];
  enum tc_ptxas_status st = tc_ptxas(path, "sm_80", 0, r, 4, &n, log, sizeof log);
  ck_assert_msg(st == TC_PTXAS_OK, "ptxas: %s", log);
  ck_assert_int_eq(n, 1);
  ck_assert_str_eq(r[0].name, "tiny");
  ck_assert_str_eq(r[0].arch, "sm_80");
  ck_assert_int_eq(r[0].static_smem, 8192);
  ck_assert_int_gt(r[0].registers, 0);
  ck_assert_int_le(r[0].registers, 32);
  ck_assert_int_eq(r[0].spill_stores, 0);
  if (r[0].has & TC_RES_BARRIERS)
    ck_assert_int_eq(r[0].barriers, 1);
  /* an arch ptxas does not know is its failure, with its message */
  st = tc_ptxas(path, "sm_1", 0, r, 4, &n, log, sizeof log);
  ck_assert_int_eq(st, TC_PTXAS_FAILED);
  ck_assert_ptr_nonnull(strstr(log, "sm_1"));
  remove(path);
}
END_TEST

Suite *suite_occ(void)
{
  Suite *s = suite_create("occ");
  TCase *tc = tcase_create("reference");
  tcase_add_loop_test(tc, test_reference_props, 0, NPROPS);
  tcase_add_loop_test(tc, test_reference_rows, 0, NPROPS);
  tcase_add_test(tc, test_h200_measured);
  suite_add_tcase(s, tc);
  tc = tcase_create("calculator");
  tcase_add_test(tc, test_fermi_by_hand);
  tcase_add_test(tc, test_wave64_by_hand);
  tcase_add_test(tc, test_sm90_examples);
  tcase_add_test(tc, test_bad_input);
  tcase_add_test(tc, test_limit_names);
  suite_add_tcase(s, tc);
  tc = tcase_create("profiles");
  tcase_add_test(tc, test_all_profiles_parse);
  tcase_add_test(tc, test_profile_names);
  tcase_add_test(tc, test_profile_list);
  tcase_add_test(tc, test_profile_errors);
  tcase_add_test(tc, test_profile_error_file);
  suite_add_tcase(s, tc);
  tc = tcase_create("ptxas");
  tcase_add_test(tc, test_ptxas_parse_sm90);
  tcase_add_test(tc, test_ptxas_parse_sm75);
  tcase_add_test(tc, test_ptxas_parse_old);
  tcase_add_test(tc, test_ptxas_real);
  tcase_set_timeout(tc, 30);
  suite_add_tcase(s, tc);
  return s;
}
