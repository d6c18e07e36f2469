/* be_emu.c: the emulator backend: warplab's SIMT emulator behind the backend interface. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/be.h"

struct emu {
  struct sim_device *dev;
  const struct ptx_module *mod;
  int launched;                  /* a launch ran: the heap's size is set */
};

static enum be_status emu_open(void **impl, char *desc, size_t desclen, char *err, size_t errlen)
{
  struct emu *e = calloc(1, sizeof *e);
  if (!e || !(e->dev = sim_device_new())) {
    free(e);
    snprintf(err, errlen, "out of host memory");
    return BE_ERR_NOMEM;
  }
  snprintf(desc, desclen, "warplab emulator (%u host cores)", sim_host_cores());
  *impl = e;
  return BE_OK;
}

static enum be_status emu_load(void *impl, const char *ptx, size_t len, const struct ptx_module *m,
                               char *err, size_t errlen)
{
  struct emu *e = impl;
  e->mod = m;
  return BE_OK;
}

static enum be_status emu_alloc(void *impl, uint64_t size, const char *name, uint64_t *addr)
{
  struct emu *e = impl;
  return sim_malloc(e->dev, size, name, addr) == SIM_OK ? BE_OK : BE_ERR_NOMEM;
}

static enum be_status emu_free(void *impl, uint64_t addr)
{
  struct emu *e = impl;
  return sim_free(e->dev, addr) == SIM_OK ? BE_OK : BE_ERR_BADARG;
}

static enum be_status emu_write(void *impl, uint64_t addr, const void *src, uint64_t n)
{
  struct emu *e = impl;
  return sim_write(e->dev, addr, src, n) == SIM_OK ? BE_OK : BE_ERR_BADARG;
}

static enum be_status emu_read(void *impl, uint64_t addr, void *dst, uint64_t n)
{
  struct emu *e = impl;
  return sim_read(e->dev, addr, dst, n) == SIM_OK ? BE_OK : BE_ERR_BADARG;
}

static enum be_status emu_fill(void *impl, uint64_t addr, uint8_t byte, uint64_t n)
{
  struct emu *e = impl;
  return sim_fill(e->dev, addr, byte, n) == SIM_OK ? BE_OK : BE_ERR_BADARG;
}

static enum be_status emu_view(void *impl, uint64_t addr, uint64_t n, const void **p)
{
  struct emu *e = impl;
  *p = sim_view(e->dev, addr, n);
  return *p ? BE_OK : BE_ERR_BADARG;
}

static int emu_written(void *impl, uint64_t addr)
{
  struct emu *e = impl;
  return sim_written(e->dev, addr);
}

static enum be_status emu_launch(void *impl, const char *kernel, const void *params, size_t psize,
                                 const struct be_launch *l, struct be_result *res, char *err,
                                 size_t errlen)
{
  struct emu *e = impl;
  struct sim_launch c = {
    .dyn_smem = l->dyn_smem, .sched = l->sched, .warp_size = l->warp_size,
    .workers = l->workers, .hold = l->hold, .max_warp_insts = l->max_warp_insts,
    .reverse = l->reverse,
    .trace_every = l->trace_every, .trace_blocks = l->trace_blocks,
    .trace_wave = l->trace_wave,
    .lanes = l->lanes, .lanes_block = l->lanes_block, .lanes_warp = l->lanes_warp,
    .max_threads = l->max_threads, .regs_per_thread = l->regs_per_thread,
    .regs_per_block = l->regs_per_block, .reg_alloc_unit = l->reg_alloc_unit,
    .max_smem = l->max_smem, .smem_alloc_unit = l->smem_alloc_unit,
    .resident_blocks = l->resident_blocks,
    .cooperative = l->cooperative, .coop_blocks_per_sm = l->coop_blocks_per_sm,
    .sm_count = l->sm_count, .order_seed = l->order_seed,
    .frames = l->frames, .nframes = l->nframes,
  };
  memcpy(c.cluster, l->cluster, sizeof c.cluster);
  memcpy(c.grid, l->grid, sizeof c.grid);
  memcpy(c.block, l->block, sizeof c.block);
  if (!e->launched && l->heap_bytes && sim_set_heap_size(e->dev, l->heap_bytes) != SIM_OK) {
    snprintf(err, errlen, "a device heap of %llu bytes: expected 1 to %llu",
             (unsigned long long)l->heap_bytes, (unsigned long long)SIM_HEAP_MAX);
    return BE_ERR_BADARG;
  }
  if (sim_set_stack_size(e->dev, l->stack_bytes ? l->stack_bytes : SIM_STACK_DEFAULT) != SIM_OK) {
    snprintf(err, errlen, "a call stack of %llu bytes: expected 1 to %u",
             (unsigned long long)l->stack_bytes, SIM_STACK_MAX);
    return BE_ERR_BADARG;
  }
  e->launched = 1;
  enum sim_status st = sim_run(e->dev, e->mod, kernel, params, psize, &c, &res->emu, err, errlen);
  if (st == SIM_ERR_NOMEM)
    return BE_ERR_NOMEM;
  if (st != SIM_OK)
    return BE_ERR_BADARG;
  res->ran_ok = res->emu.outcome == SIM_RAN_OK;
  return BE_OK;
}

static void emu_close(void *impl)
{
  struct emu *e = impl;
  if (e)
    sim_device_free(e->dev);
  free(e);
}

static enum be_status emu_tensor_map(void *impl, const struct sim_tmap *t, uint8_t *map, char *err,
                                     size_t errlen)
{
  (void)impl;
  return sim_tmap_encode(t, map, err, errlen) ? BE_ERR_BADARG : BE_OK;
}

static enum be_status emu_texture(void *impl, const struct sim_tex *t, uint64_t *handle, char *err,
                                  size_t errlen)
{
  struct emu *e = impl;
  return sim_tex_create(e->dev, t, handle, err, errlen) ? BE_ERR_BADARG : BE_OK;
}

static enum be_status emu_state_digest(void *impl, uint64_t *digest)
{
  struct emu *e = impl;
  *digest = sim_device_state_digest(e->dev);
  return BE_OK;
}

const struct be_ops be_emu_ops = {
  .kind = BE_EMU, .open = emu_open, .load = emu_load, .alloc = emu_alloc, .free = emu_free,
  .write = emu_write,
  .read = emu_read, .launch = emu_launch, .tensor_map = emu_tensor_map,
  .texture = emu_texture, .close = emu_close, .state_digest = emu_state_digest,
  .fill = emu_fill, .view = emu_view, .written = emu_written,
};
