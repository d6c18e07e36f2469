/* fuzz_ptx.c: libFuzzer target: PTX text in, parse it, and run every kernel it declares on a
 * tiny launch with a small instruction budget. Nothing a PTX file says may crash warplab,
 * hang it, or touch memory it does not own: parse errors, faults, deadlocks and budgets are
 * all results. `make fuzz` builds it with AddressSanitizer and UBSan and runs it, seeded
 * with real nvcc output (tests/e2e/ptx) and the corpus kept in tests/fuzz/corpus. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"
#include "sim/sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  struct ptx_module m;
  struct ptx_error e;
  if (ptx_parse((const char *)data, size, &m, &e) != PTX_OK)
    return 0;
  for (uint32_t f = 0; f < m.nfuncs; f++) {
    if (!m.funcs[f].is_entry)
      continue;
    uint32_t off[64], sz[64], total = 0;
    int n = sim_param_layout(&m, (int)f, off, sz, 64, &total);
    if (n < 0 || n > 64 || total > 4096)
      continue;
    struct sim_device *d = sim_device_new();
    if (!d)
      break;
    uint8_t *params = calloc(total ? total : 1, 1);
    /* every 8-byte parameter points at a small buffer of its own */
    for (int i = 0; i < n && params; i++)
      if (sz[i] == 8) {
        uint64_t a;
        if (sim_malloc(d, 256, "buffer", &a) == SIM_OK)
          memcpy(params + off[i], &a, 8);
      }
    struct sim_launch c = {.grid = {2, 1, 1}, .block = {40, 1, 1}, .workers = 1,
                           .max_warp_insts = 20000, .dyn_smem = 64};
    struct sim_result r;
    char err[256];
    if (params && sim_run(d, &m, m.funcs[f].name, params, total, &c, &r, err, sizeof err) == SIM_OK)
      sim_result_free(&r);
    c.sched = SIM_SCHED_STACK;
    if (params && sim_run(d, &m, m.funcs[f].name, params, total, &c, &r, err, sizeof err) == SIM_OK)
      sim_result_free(&r);
    free(params);
    sim_device_free(d);
  }
  ptx_module_free(&m);
  return 0;
}
