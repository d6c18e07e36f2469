/* coop.c: end-to-end tests of cooperative launches and thread-block clusters
 * (tests/e2e/kernels/grid_sync.cu, cluster.cu, cg_tiles.cu): cooperative_groups' grid.sync()
 * as nvcc 13 emits it for sm_90 (the grid workspace in %envreg1:2, acquire/release atomics),
 * a launch the GPU would refuse because the grid does not fit at once, clusters from
 * __cluster_dims__ and from --cluster, distributed shared memory through map_shared_rank,
 * cluster.sync(), the deadlocks of a grid or a cluster that never meets, and tiles of 64 to
 * 512 threads (their barriers and exchange slots in the reserved shared memory).
 *
 * Expected values are recomputed on the host from the inputs (the CLI's rand generator) and
 * from CUDA's definitions of the cluster coordinates; integer sums wrap as the GPU's do.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e.h"

#define A "--arg"
#define COOP_TIMEOUT_S 300

/* Two grid.sync()s: every block's total is the whole sum, and the second phase saw it. */
START_TEST(grid_sync_two_phase_reduction)
{
  const unsigned G = 20, B = 256, n = 50000;
  uint32_t *in = e2e_rand_u32(n, 41);
  const char *pp = e2e_tmp("partial.bin"), *pt = e2e_tmp("total.bin");
  struct e2e_run *r = e2e_emu(e2e_kernel("grid_sync.cu"), "--kernel", "grid_reduce", "--grid",
                              e2e_fmt("%u", G), "--block", e2e_fmt("%u", B), A,
                              e2e_fmt("i32buf:%u:rand:41", n), A, e2e_fmt("i32buf:%u:zero", G), A,
                              e2e_fmt("i32buf:%u:zero", G), A, e2e_fmt("i32:%u", n), "--dump",
                              e2e_fmt("1=%s", pp), "--dump", e2e_fmt("2=%s", pt), "--json", NULL);
  e2e_expect_ok(r);
  json_t *coop = e2e_j(r->json, "launch/cooperative");
  ck_assert_msg(json_is_true(coop), "the report does not say the launch was cooperative");
  uint32_t part[20] = {0}, total = 0;
  for (unsigned i = 0; i < n; i++) {
    part[(i / B) % G] += in[i];
    total += in[i];
  }
  uint32_t *gp = e2e_read(pp, G * 4), *gt = e2e_read(pt, G * 4);
  for (unsigned b = 0; b < G; b++) {
    ck_assert_msg(gt[b] == total, "block %u's total: got %u, expected %u", b, gt[b], total);
    ck_assert_msg(gp[b] == total - part[b], "block %u's second phase: got %u, expected %u", b,
                  gp[b], total - part[b]);
  }
}
END_TEST

/* A cooperative grid that does not fit at once is refused with the GPU's error. */
START_TEST(grid_sync_too_large_is_refused)
{
  struct e2e_run *r = e2e_emu(e2e_kernel("grid_sync.cu"), "--kernel", "grid_reduce", "--grid",
                              "100000", "--block", "256", A, "i32buf:1000:zero", A,
                              "i32buf:100000:zero", A, "i32buf:100000:zero", A, "i32:1000", NULL);
  e2e_expect_error(r, 2, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE", "grid.sync()",
                   "this grid has 100000", NULL);
}
END_TEST

/* Block 0 skips grid.sync(): the other blocks wait for it for ever, a deadlock with its line. */
START_TEST(grid_sync_skipped_is_a_deadlock)
{
  const char *k = e2e_kernel("grid_sync.cu");
  struct e2e_run *r = e2e_emu(k, "--kernel", "grid_sync_skipped", "--grid", "8", "--block", "64",
                              A, "i32buf:8:zero", "--json", NULL);
  e2e_expect_outcome(r, 1, "deadlock");
  ck_assert_msg(e2e_mentions_line(r->out, "grid_sync.cu", e2e_marker_line(k, "SKIPPED-SYNC")),
                "the report does not name the grid.sync() line: %s", r->out);
}
END_TEST

/* --cooperative: a barrier of the kernel's own completes because every block is resident;
   a grid too large for that is refused, naming the option. */
START_TEST(explicit_cooperative_launch)
{
  const unsigned G = 8, B = 64;
  const char *po = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(e2e_kernel("grid_sync.cu"), "--kernel", "counter_barrier", "--grid",
                              e2e_fmt("%u", G), "--block", e2e_fmt("%u", B), "--cooperative", A,
                              "i32buf:1:zero", A, e2e_fmt("i32buf:%u:zero", G * B), "--dump",
                              e2e_fmt("1=%s", po), "--json", NULL);
  e2e_expect_ok(r);
  int32_t *got = e2e_read(po, G * B * 4);
  for (unsigned i = 0; i < G * B; i++)
    ck_assert_msg(got[i] == (int32_t)(G + i / B), "thread %u: got %d, expected %u", i, got[i],
                  G + i / B);
  r = e2e_emu(e2e_kernel("grid_sync.cu"), "--kernel", "counter_barrier", "--grid", "100000",
              "--block", "64", "--cooperative", A, "i32buf:1:zero", A, "i32buf:6400000:zero", NULL);
  e2e_expect_error(r, 2, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE", "--cooperative", NULL);
}
END_TEST

/* __cluster_dims__(4): a histogram per cluster kept in the four blocks' shared memory. */
START_TEST(cluster_dsmem_histogram)
{
  const unsigned G = 8, B = 128, n = 5000, bins = 64, C = 4;
  uint32_t *in = e2e_rand_u32(n, 42);
  const char *ph = e2e_tmp("hist.bin");
  struct e2e_run *r = e2e_emu(e2e_kernel("cluster.cu"), "--kernel", "dsmem_hist", "--grid",
                              e2e_fmt("%u", G), "--block", e2e_fmt("%u", B), "--smem",
                              e2e_fmt("%u", bins / C * 4), A, e2e_fmt("u32buf:%u:rand:42", n), A,
                              e2e_fmt("u32buf:%u:zero", G / C * bins), A, e2e_fmt("i32:%u", n), A,
                              e2e_fmt("i32:%u", bins), "--dump", e2e_fmt("1=%s", ph), "--json",
                              NULL);
  e2e_expect_ok(r);
  uint32_t want[2 * 64] = {0};
  for (unsigned i = 0; i < n; i++)
    want[(i / B) % G / C * bins + in[i] % bins]++;
  uint32_t *got = e2e_read(ph, G / C * bins * 4);
  for (unsigned k = 0; k < G / C * bins; k++)
    ck_assert_msg(got[k] == want[k], "cluster %u bin %u: got %u, expected %u", k / bins, k % bins,
                  got[k], want[k]);
}
END_TEST

/* Expected neighbour() output for a grid gx x gy in clusters cx x cy (1 x 1: no clusters). */
static void neighbour_expect(unsigned gx, unsigned gy, unsigned cx, unsigned cy, int32_t *want)
{
  for (unsigned y = 0; y < gy; y++)
    for (unsigned x = 0; x < gx; x++) {
      unsigned b = x + gx * y, rx = x % cx, ry = y % cy, rank = rx + cx * ry, nb = cx * cy;
      unsigned nr = (rank + 1) % nb, nx = x - rx + nr % cx, ny = y - ry + nr / cx;
      int32_t *o = &want[6 * b];
      o[0] = (int32_t)(1000 * (nx + gx * ny) + 7);
      o[1] = (int32_t)rank;
      o[2] = (int32_t)nb;
      o[3] = (int32_t)(rx + 100 * ry);
      o[4] = (int32_t)(x / cx + 100 * (y / cy));
      o[5] = (int32_t)(gx / cx + 100 * (gy / cy));
    }
}

/* --cluster 2,2 on a kernel without __cluster_dims__; and without it, clusters of one. */
START_TEST(cluster_neighbour_exchange)
{
  const unsigned gx = 4, gy = 4, nblk = gx * gy;
  static const unsigned shapes[3][2] = {{2, 2}, {4, 1}, {1, 1}};
  for (unsigned s = 0; s < 3; s++) {
    unsigned cx = shapes[s][0], cy = shapes[s][1];
    const char *po = e2e_tmp(e2e_fmt("out%u.bin", s));
    struct e2e_run *r = e2e_emu(e2e_kernel("cluster.cu"), "--kernel", "neighbour", "--grid",
                                e2e_fmt("%u,%u", gx, gy), "--block", "64", "--cluster",
                                e2e_fmt("%u,%u", cx, cy), A, e2e_fmt("i32buf:%u:zero", 6 * nblk),
                                "--dump", e2e_fmt("0=%s", po), "--json", NULL);
    if (s == 2)   /* the same without --cluster */
      r = e2e_emu(e2e_kernel("cluster.cu"), "--kernel", "neighbour", "--grid",
                  e2e_fmt("%u,%u", gx, gy), "--block", "64", A, e2e_fmt("i32buf:%u:zero", 6 * nblk),
                  "--dump", e2e_fmt("0=%s", po), "--json", NULL);
    e2e_expect_ok(r);
    if (s < 2)
      e2e_expect_dim3(r, "launch/cluster", cx, cy, 1);
    else
      ck_assert_msg(json_is_null(e2e_j(r->json, "launch/cluster")), "clusters of one reported");
    int32_t want[6 * 16];
    neighbour_expect(gx, gy, cx, cy, want);
    int32_t *got = e2e_read(po, 6 * nblk * 4);
    for (unsigned k = 0; k < 6 * nblk; k++)
      ck_assert_msg(got[k] == want[k], "clusters %ux%u, block %u, value %u: got %d, expected %d",
                    cx, cy, k / 6, k % 6, got[k], want[k]);
  }
}
END_TEST

/* What the GPU refuses of a cluster launch: a grid not made of whole clusters, a cluster
   shape that contradicts the kernel's __cluster_dims__. */
START_TEST(cluster_launch_refusals)
{
  struct e2e_run *r = e2e_emu(e2e_kernel("cluster.cu"), "--kernel", "neighbour", "--grid", "6",
                              "--block", "32", "--cluster", "4", A, "i32buf:36:zero", NULL);
  e2e_expect_error(r, 2, "CUDA_ERROR_INVALID_VALUE", "not a whole number of clusters", NULL);
  r = e2e_emu(e2e_kernel("cluster.cu"), "--kernel", "dsmem_hist", "--grid", "8", "--block", "32",
              "--smem", "64", "--cluster", "2", A, "u32buf:10:zero", A, "u32buf:128:zero", A,
              "i32:10", A, "i32:64", NULL);
  e2e_expect_error(r, 2, "__cluster_dims__(4,1,1)", "clusters of (2,1,1)", NULL);
  r = e2e_emu(e2e_kernel("cluster.cu"), "--kernel", "neighbour", "--grid", "4", "--block", "32",
              "--cluster", "0", A, "i32buf:24:zero", NULL);
  e2e_expect_error(r, 2, "--cluster '0'", NULL);
}
END_TEST

/* Block 0 of a cluster waits at cluster.sync() for block 1, which spins: a deadlock. */
START_TEST(cluster_never_meets_is_a_deadlock)
{
  const char *k = e2e_kernel("cluster.cu");
  struct e2e_run *r = e2e_emu(k, "--kernel", "cluster_never_meets", "--grid", "4", "--block",
                              "32", A, "i32buf:1:zero", A, "i32buf:4:zero", "--json", NULL);
  e2e_expect_outcome(r, 1, "deadlock");
  ck_assert_msg(e2e_mentions_line(r->out, "cluster.cu", e2e_marker_line(k, "NEVER-MEETS")),
                "the report does not name the cluster.sync() line: %s", r->out);
}
END_TEST

/* The GPU backend, with the stand-in driver of tests/e2e/gpuhang (its kernels do nothing, it
   logs what cuLaunchKernelEx was asked): a kernel that uses grid.sync() goes through
   cuLaunchKernelEx with the cooperative attribute and its parameters one by one, --cluster
   with the cluster dimension, --cooperative too; a plain launch does not use it. */
START_TEST(gpu_backend_launch_attributes)
{
  const char *so = e2e_tmp("libfakecuda.so"), *log = e2e_tmp("launches.log");
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    execlp("cc", "cc", "-std=c11", "-shared", "-fPIC", "-o", so, "tests/e2e/gpuhang/fakecuda.c",
           (char *)NULL);
    _exit(127);
  }
  int status;
  ck_assert_int_eq(waitpid(pid, &status, 0), pid);
  ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "cc could not build %s", so);
  setenv("WARPLAB_TEST_LIBCUDA", so, 1);
  setenv("WARPLAB_FAKE_CUDA_LOG", log, 1);
  setenv("WARPLAB_FAKE_CUDA_NPARAMS", "4", 1);
  struct e2e_run *r = e2e_emu(e2e_kernel("grid_sync.cu"), "--kernel", "grid_reduce", "--grid", "20",
                              "--block", "256", A, "i32buf:50000:rand:41", A, "i32buf:20:zero", A,
                              "i32buf:20:zero", A, "i32:50000", "--backend", "gpu", NULL);
  int st1 = r->status;
  setenv("WARPLAB_FAKE_CUDA_NPARAMS", "0", 1);
  struct e2e_run *r2 = e2e_emu(e2e_kernel("cluster.cu"), "--kernel", "neighbour", "--grid", "4,4",
                               "--block", "64", "--cluster", "2,2", A, "i32buf:96:zero", "--backend",
                               "gpu", NULL);
  struct e2e_run *r3 = e2e_emu(e2e_kernel("cluster.cu"), "--kernel", "neighbour", "--grid", "4,4",
                               "--block", "64", A, "i32buf:96:zero", "--backend", "gpu", NULL);
  struct e2e_run *r4 = e2e_emu(e2e_kernel("grid_sync.cu"), "--kernel", "counter_barrier", "--grid",
                               "8", "--block", "64", "--cooperative", A, "i32buf:1:zero", A,
                               "i32buf:512:zero", "--backend", "gpu", NULL);
  unsetenv("WARPLAB_TEST_LIBCUDA");
  unsetenv("WARPLAB_FAKE_CUDA_LOG");
  unsetenv("WARPLAB_FAKE_CUDA_NPARAMS");
  ck_assert_msg(st1 == 0, "%s\n%s", r->cmd, r->err);
  ck_assert_msg(r2->status == 0 && r3->status == 0 && r4->status == 0, "%s\n%s%s%s", r2->cmd,
                r2->err, r3->err, r4->err);
  char *text = e2e_read_text(log);
  const char *want = "grid 20 1 1 block 256 1 1 smem 0 cooperative 1 p0 ";
  ck_assert_msg(strncmp(text, want, strlen(want)) == 0, "got: %s", text);
  ck_assert_msg(strstr(text, " p3 50000\n"), "n is not the fourth parameter: %s", text);
  const char *second = strchr(text, '\n') + 1;
  want = "grid 4 4 1 block 64 1 1 smem 0 cluster 2 2 1\n"
         "grid 8 1 1 block 64 1 1 smem 0 cooperative 1\n";
  ck_assert_msg(strcmp(second, want) == 0, "got: %s\nexpected (no line for the plain launch): %s",
                second, want);
}
END_TEST

/* One tile's sum, wrapping as the GPU's int does. */
static uint32_t sum_u32(const uint32_t *v, unsigned n)
{
  uint32_t s = 0;
  for (unsigned i = 0; i < n; i++)
    s += v[i];
  return s;
}

/* tiled_partition<64> and <128> of blocks of 256: cg::reduce per tile, and each thread's
   thread_rank, meta_group_rank, num_threads, meta_group_size; the exchange slots and
   barriers in reserved shared memory are counted as the shared accesses they are. */
START_TEST(multi_warp_tile_sums)
{
  const unsigned G = 3, B = 256, n = G * B;
  static const unsigned sizes[2] = {64, 128};
  uint32_t *in = e2e_rand_u32(n, 51);
  for (unsigned k = 0; k < 2; k++) {
    unsigned T = sizes[k], ntiles = n / T;
    const char *ps = e2e_tmp(e2e_fmt("sum%u.bin", T)), *pi = e2e_tmp(e2e_fmt("info%u.bin", T));
    struct e2e_run *r = e2e_emu(e2e_kernel("cg_tiles.cu"), "--kernel", e2e_fmt("tile%u_sum", T),
                                "--grid", e2e_fmt("%u", G), "--block", e2e_fmt("%u", B), A,
                                e2e_fmt("i32buf:%u:rand:51", n), A, e2e_fmt("i32buf:%u:zero", ntiles),
                                A, e2e_fmt("u32buf:%u:zero", 4 * n), "--dump", e2e_fmt("1=%s", ps),
                                "--dump", e2e_fmt("2=%s", pi), "--json", NULL);
    e2e_expect_ok(r);
    uint32_t *sum = e2e_read(ps, ntiles * 4), *info = e2e_read(pi, 4 * n * 4);
    for (unsigned t = 0; t < ntiles; t++)
      ck_assert_msg(sum[t] == sum_u32(in + t * T, T), "tile<%u> %u: sum %u, expected %u", T, t,
                    sum[t], sum_u32(in + t * T, T));
    for (unsigned g = 0; g < n; g++) {
      const uint32_t want[4] = {g % T, g % B / T, T, B / T}, *got = &info[4 * g];
      ck_assert_msg(!memcmp(got, want, sizeof want), "tile<%u>, thread %u: thread_rank %u "
                    "meta_group_rank %u num_threads %u meta_group_size %u, expected %u %u %u %u",
                    T, g, got[0], got[1], got[2], got[3], want[0], want[1], want[2], want[3]);
    }
    /* the kernel declares no shared memory: every shared store is cg::reduce's, one a warp
       (its partial sum) and one a tile (the tile's) */
    ck_assert_int_eq(e2e_jint(r, "metrics/smsp__sass_inst_executed_op_shared_st.sum/value"),
                     n / 32 + ntiles);
  }
}
END_TEST

/* tile<128>.sync() orders a write to shared memory before another warp's read of it (no race
   reported); the tile's shfl, any and all reach across its four warps. */
START_TEST(multi_warp_tile_exchange)
{
  const unsigned G = 2, B = 512, n = G * B, T = 128;
  uint32_t *in = e2e_rand_u32(n, 52);
  const char *po = e2e_tmp("out.bin");
  struct e2e_run *r = e2e_emu(e2e_kernel("cg_tiles.cu"), "--kernel", "tile128_exchange", "--grid",
                              e2e_fmt("%u", G), "--block", e2e_fmt("%u", B), A,
                              e2e_fmt("i32buf:%u:rand:52", n), A, e2e_fmt("i32buf:%u:zero", 4 * n),
                              "--dump", e2e_fmt("1=%s", po), "--json", NULL);
  e2e_expect_ok(r);
  uint32_t *out = e2e_read(po, 4 * n * 4);
  unsigned anys = 0;
  for (unsigned g = 0; g < n; g++) {
    unsigned base = g - g % T, rank = g % T, mgr = g % B / T;
    uint32_t any = 0, all = 1;
    for (unsigned i = base; i < base + T; i++) {
      any |= (in[i] & 0xff) < 2;
      all &= (in[i] & 0xff) != 0x5a;
    }
    anys += any;
    const uint32_t want[4] = {in[base + (rank + 33) % T], in[base + (7 * mgr + 3) % T], any, all};
    const uint32_t *got = &out[4 * g];
    ck_assert_msg(!memcmp(got, want, sizeof want), "thread %u: got %u %u %u %u, expected %u %u "
                  "%u %u", g, got[0], got[1], got[2], got[3], want[0], want[1], want[2],
                  want[3]);
  }
  ck_assert_msg(anys > 0 && anys < n, "the inputs make any() the same for every tile");
}
END_TEST

/* block_tile_memory, a tile of 256 and tiles of 64 taken from it: a maximum and sums. */
START_TEST(multi_warp_tile_memory_nested)
{
  const unsigned G = 2, B = 512, n = G * B;
  uint32_t *in = e2e_rand_u32(n, 53);
  const char *pm = e2e_tmp("mx.bin"), *ps = e2e_tmp("sum.bin");
  struct e2e_run *r = e2e_emu(e2e_kernel("cg_tiles.cu"), "--kernel", "tile_memory_nested",
                              "--grid", e2e_fmt("%u", G), "--block", e2e_fmt("%u", B), A,
                              e2e_fmt("i32buf:%u:rand:53", n), A, e2e_fmt("i32buf:%u:zero", n / 256),
                              A, e2e_fmt("i32buf:%u:zero", n / 64), "--dump", e2e_fmt("1=%s", pm),
                              "--dump", e2e_fmt("2=%s", ps), "--json", NULL);
  e2e_expect_ok(r);
  int32_t *mx = e2e_read(pm, n / 256 * 4);
  uint32_t *sum = e2e_read(ps, n / 64 * 4);
  for (unsigned t = 0; t < n / 256; t++) {
    int32_t m = INT32_MIN;
    for (unsigned i = t * 256; i < (t + 1) * 256; i++)
      m = (int32_t)in[i] > m ? (int32_t)in[i] : m;
    ck_assert_msg(mx[t] == m, "tile<256> %u: max %d, expected %d", t, mx[t], m);
  }
  for (unsigned t = 0; t < n / 64; t++)
    ck_assert_msg(sum[t] == sum_u32(in + t * 64, 64), "tile<64> %u: sum %u, expected %u", t,
                  sum[t], sum_u32(in + t * 64, 64));
}
END_TEST

/* %reserved_smem_offset_*: a region of 1 KB (the arch profiles' reservedSharedMemPerBlock)
   from _begin to _end, with room at offset_1 for cooperative_groups' 288 bytes (5 barriers,
   12 bytes, 32 slots of 8 bytes: details/memory.h), 8-byte aligned. */
START_TEST(reserved_smem_registers)
{
  const char *po = e2e_tmp("regs.bin");
  struct e2e_run *r = e2e_emu(e2e_kernel("cg_tiles.cu"), "--kernel", "reserved_smem_regs",
                              "--grid", "1", "--block", "32", A, "u32buf:6:zero", "--dump",
                              e2e_fmt("0=%s", po), "--json", NULL);
  e2e_expect_ok(r);
  uint32_t *v = e2e_read(po, 6 * 4);
  ck_assert_uint_eq(v[2], 1024);
  ck_assert_uint_eq(v[1] - v[0], v[2]);
  ck_assert_msg(v[3] >= v[0] && v[3] < v[1], "offset_0 %u outside [%u, %u)", v[3], v[0], v[1]);
  ck_assert_msg(v[4] >= v[0] && v[4] + 288 <= v[1], "offset_1 %u leaves no 288 bytes before %u",
                v[4], v[1]);
  ck_assert_msg(v[4] % 8 == 0, "offset_1 %u is not 8-byte aligned", v[4]);
  ck_assert_uint_eq(v[5], v[4] - v[0]);
}
END_TEST

void e2e_add_coop_tests(Suite *s)
{
  if (!e2e_have_nvcc()) {
    printf("e2e: nvcc not found: SKIPPING the cooperative launch and cluster tests\n");
    return;
  }
  TCase *tc = tcase_create("coop");
  tcase_add_checked_fixture(tc, e2e_setup, e2e_teardown);
  tcase_set_timeout(tc, COOP_TIMEOUT_S);
  tcase_add_test(tc, grid_sync_two_phase_reduction);
  tcase_add_test(tc, grid_sync_too_large_is_refused);
  tcase_add_test(tc, grid_sync_skipped_is_a_deadlock);
  tcase_add_test(tc, explicit_cooperative_launch);
  tcase_add_test(tc, cluster_dsmem_histogram);
  tcase_add_test(tc, cluster_neighbour_exchange);
  tcase_add_test(tc, cluster_launch_refusals);
  tcase_add_test(tc, cluster_never_meets_is_a_deadlock);
  tcase_add_test(tc, gpu_backend_launch_attributes);
  tcase_add_test(tc, multi_warp_tile_sums);
  tcase_add_test(tc, multi_warp_tile_exchange);
  tcase_add_test(tc, multi_warp_tile_memory_nested);
  tcase_add_test(tc, reserved_smem_registers);
  suite_add_tcase(s, tc);
}
