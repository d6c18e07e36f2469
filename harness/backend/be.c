/* be.c: the backend interface: pick an implementation and forward to it (see be.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/be.h"

struct be {
  const struct be_ops *ops;
  void *impl;
  char desc[256];
};

enum be_status be_open(enum be_kind kind, struct be **out, char *err, size_t errlen)
{
  *out = NULL;
  struct be *b = calloc(1, sizeof *b);
  if (!b) {
    snprintf(err, errlen, "out of host memory");
    return BE_ERR_NOMEM;
  }
  b->ops = kind == BE_GPU ? &be_cuda_ops : &be_emu_ops;
  enum be_status st = b->ops->open(&b->impl, b->desc, sizeof b->desc, err, errlen);
  if (st != BE_OK) {
    free(b);
    return st;
  }
  *out = b;
  return BE_OK;
}

const char *be_describe(const struct be *b) { return b->desc; }
enum be_kind be_kind_of(const struct be *b) { return b->ops->kind; }

enum be_status be_load(struct be *b, const char *ptx, size_t len, const struct ptx_module *m,
                       char *err, size_t errlen)
{
  return b->ops->load(b->impl, ptx, len, m, err, errlen);
}

enum be_status be_alloc(struct be *b, uint64_t size, const char *name, uint64_t *addr)
{
  return b->ops->alloc(b->impl, size, name, addr);
}

enum be_status be_free(struct be *b, uint64_t addr)
{
  return b->ops->free(b->impl, addr);
}

/* Whether l asks b for what only the emulator does: an order seed or the reverse order (a
   GPU schedules warps and blocks itself). BE_ERR_BADARG with the reason in err, or BE_OK. */
static enum be_status emu_only(const struct be *b, const struct be_launch *l, char *err,
                               size_t errlen)
{
  if (b->ops->kind != BE_GPU || (!l->order_seed && !l->reverse))
    return BE_OK;
  snprintf(err, errlen, "an order (--order) chooses the order the emulator runs warps and "
           "blocks in; a GPU's scheduler chooses its own: leave out --backend gpu");
  return BE_ERR_BADARG;
}

enum be_status be_time(struct be *b, const char *kernel, const void *params, size_t psize,
                       const struct be_launch *l, double rse_target, uint32_t max_reps,
                       double max_seconds, struct be_timing *t, char *err, size_t errlen)
{
  memset(t, 0, sizeof *t);
  if (emu_only(b, l, err, errlen) != BE_OK)
    return BE_ERR_BADARG;
  if (!b->ops->time) {
    snprintf(err, errlen, "the %s backend does not measure time", b->ops->kind == BE_GPU ? "gpu" : "emulator");
    return BE_ERR_BADARG;
  }
  return b->ops->time(b->impl, kernel, params, psize, l, rse_target, max_reps, max_seconds, t,
                      err, errlen);
}

enum be_status be_write(struct be *b, uint64_t addr, const void *src, uint64_t n)
{
  return b->ops->write(b->impl, addr, src, n);
}

enum be_status be_read(struct be *b, uint64_t addr, void *dst, uint64_t n)
{
  return b->ops->read(b->impl, addr, dst, n);
}

enum be_status be_fill(struct be *b, uint64_t addr, uint8_t byte, uint64_t n)
{
  return b->ops->fill ? b->ops->fill(b->impl, addr, byte, n) : BE_ERR_UNAVAILABLE;
}

enum be_status be_view(struct be *b, uint64_t addr, uint64_t n, const void **p)
{
  *p = NULL;
  return b->ops->view ? b->ops->view(b->impl, addr, n, p) : BE_ERR_UNAVAILABLE;
}

int be_written(struct be *b, uint64_t addr)
{
  return b->ops->written ? b->ops->written(b->impl, addr) : 1;
}

enum be_status be_tensor_map(struct be *b, const struct sim_tmap *t, uint8_t map[SIM_TMAP_BYTES],
                             char *err, size_t errlen)
{
  return b->ops->tensor_map(b->impl, t, map, err, errlen);
}

enum be_status be_texture(struct be *b, const struct sim_tex *t, uint64_t *handle, char *err,
                          size_t errlen)
{
  return b->ops->texture(b->impl, t, handle, err, errlen);
}

enum be_status be_state_digest(struct be *b, uint64_t *digest)
{
  return b->ops->state_digest ? b->ops->state_digest(b->impl, digest) : BE_ERR_UNAVAILABLE;
}

enum be_status be_launch(struct be *b, const char *kernel, const void *params, size_t psize,
                         const struct be_launch *l, struct be_result *res, char *err,
                         size_t errlen)
{
  memset(res, 0, sizeof *res);
  if (emu_only(b, l, err, errlen) != BE_OK)
    return BE_ERR_BADARG;
  return b->ops->launch(b->impl, kernel, params, psize, l, res, err, errlen);
}

void be_close(struct be *b)
{
  if (!b)
    return;
  b->ops->close(b->impl);
  free(b);
}
