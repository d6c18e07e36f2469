/* sim_fault.c: turn what went wrong in a student's kernel into a report they can act on.
 *
 * Every report names the thread (block and thread index, warp and lane), the CUDA source
 * line (from .loc: the innermost line of the student's own file, with the lines a device
 * function was inlined into), the PTX line and
 * instruction, and for memory faults the address, the access and the nearest allocation
 * with the offset into or past it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sim/sim_int.h"

#define WILD_DISTANCE (1u << 20)   /* bytes: see sim_fault_mem */

static const char *const fault_names[] = {
  "none", "out_of_bounds", "misaligned", "read_only", "invalid_address_space", "deadlock",
  "barrier_divergence", "budget_exceeded", "trap", "call_depth", "race", "uninitialized_read",
  "sync_mask"
};
_Static_assert(sizeof fault_names / sizeof *fault_names == SIM_FK_SYNC_MASK + 1,
               "a name for every enum sim_fault_kind");

const char *sim_fault_kind_name(enum sim_fault_kind k)
{
  return (unsigned)k < sizeof fault_names / sizeof *fault_names ? fault_names[k] : "?";
}

void sim_lanes_text(uint64_t m, char *buf, size_t n)
{
  size_t k = 0;
  buf[0] = 0;
  for (unsigned l = 0; l < 64 && k < n;) {
    if (!(m >> l & 1)) {
      l++;
      continue;
    }
    unsigned e = l;
    while (e + 1 < 64 && (m >> (e + 1) & 1))
      e++;
    int w = e == l ? snprintf(buf + k, n - k, "%s%u", k ? "," : "", l)
                   : snprintf(buf + k, n - k, "%s%u-%u", k ? "," : "", l, e);
    if (w < 0)
      break;
    k += (size_t)w;
    l = e + 1;
  }
}

const char *sim_outcome_name(enum sim_outcome o)
{
  switch (o) {
  case SIM_RAN_OK: return "ok";
  case SIM_FAULT: return "fault";
  case SIM_DEADLOCK: return "deadlock";
  case SIM_BARRIER_DIVERGENCE: return "barrier_divergence";
  case SIM_BUDGET: return "budget";
  }
  return "?";
}

static void fill_thread(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned lane,
                        struct sim_fault *f)
{
  memcpy(f->block, b->ctaid, sizeof f->block);
  f->thread[0] = w->tid[lane][0];
  f->thread[1] = w->tid[lane][1];
  f->thread[2] = w->tid[lane][2];
  f->warp = w->id;
  f->lane = lane;
  f->inst = pc < b->prog->ncode ? b->prog->orig[pc] : PTX_NOREG;
}

void sim_where(const struct ptx_module *m, uint32_t mi, char *buf, size_t n)
{
  if (mi >= m->ninsts) {
    snprintf(buf, n, "an unknown place");
    return;
  }
  const struct ptx_inst *in = &m->insts[mi];
  const char *path = in->uline ? ptx_file_path(m, in->ufile) : NULL;
  if (!path) {
    snprintf(buf, n, "PTX line %u", in->ptx_line);
    return;
  }
  const char *base = strrchr(path, '/');
  int k = snprintf(buf, n, "%s:%u", base ? base + 1 : path, in->uline);
  uint32_t file[3], line[3];
  uint32_t nin = ptx_inlined_into(m, in, file, line, 3);
  for (uint32_t i = 0; i < nin && k >= 0 && (size_t)k < n; i++) {
    const char *p = ptx_file_path(m, file[i]);
    const char *pb = p && strrchr(p, '/') ? strrchr(p, '/') + 1 : p;
    const char *lead = i == 0 ? " (inlined into line " : ", then ";
    int w = file[i] == in->ufile || !pb ? snprintf(buf + k, n - (size_t)k, "%s%u", lead, line[i])
                                        : snprintf(buf + k, n - (size_t)k, "%s%s:%u", lead, pb, line[i]);
    if (w < 0)
      break;
    k += w;
  }
  if (nin && k >= 0 && (size_t)k < n)
    snprintf(buf + k, n - (size_t)k, ")");
}

int sim_same_inlined_call(const struct ptx_module *m, uint32_t a, uint32_t b)
{
  if (a >= m->ninsts || b >= m->ninsts)
    return 0;
  const struct ptx_inst *ia = &m->insts[a], *ib = &m->insts[b];
  if (!ia->uline || !ib->uline || ia->ufile != ib->ufile)
    return 0;
  uint32_t fa[4], la[4], fb[4], lb[4];
  uint32_t na = ptx_inlined_into(m, ia, fa, la, 4), nb = ptx_inlined_into(m, ib, fb, lb, 4);
  if (na != nb)
    return 0;
  for (uint32_t i = 0; i < na; i++)
    if (fa[i] != fb[i] || la[i] != lb[i])
      return 0;
  return 1;
}

int sim_reconv_where(const struct sim_block *b, const struct sim_warp *w, unsigned l, char *buf,
                     size_t n)
{
  if (!(w->cwait >> l & 1) || !w->csp[l])
    return 0;
  const struct sim_cbar *c = &w->cbar[w->cstack[w->csp[l] - 1][l]];
  if (c->from >= b->prog->ncode || c->pc >= b->prog->ncode)
    return 0;
  uint32_t br = b->prog->orig[c->from], at = b->prog->orig[c->pc];
  if (sim_same_inlined_call(b->prog->mod, br, at))
    return 0;
  char where[240];
  sim_where(b->prog->mod, br, where, sizeof where);
  snprintf(buf, n, "the end of the branch at %s", where);
  return 1;
}

static int claim(struct sim_block *b)
{
  if (b->faulted)
    return 0;
  b->faulted = 1;
  memset(&b->res->fault, 0, sizeof b->res->fault);
  return 1;
}

void sim_fault_mem(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned lane,
                   enum sim_fault_kind kind, enum ptx_space sp, enum sim_access acc,
                   uint64_t addr, uint32_t size)
{
  if (!claim(b))
    return;
  struct sim_fault *f = &b->res->fault;
  b->res->outcome = SIM_FAULT;
  f->kind = kind;
  f->other_inst = PTX_NOREG;
  f->space = sp;
  f->access = acc;
  f->addr = addr;
  f->size = size;
  fill_thread(b, w, pc, lane, f);
  /* in compute-sanitizer memcheck's words, so what students read here carries over */
  const char *verb = acc == SIM_ACC_WRITE ? "write" : acc == SIM_ACC_ATOMIC ? "atomic" : "read";
  char loc[256], extra[320] = "";
  sim_where(b->prog->mod, f->inst, loc, sizeof loc);
  if (sp == PTX_SP_GLOBAL || sp == PTX_SP_CONST) {
    const struct sim_alloc *a = sim_mem_nearest(b->dev, addr);
    if (a) {
      f->has_alloc = 1;
      snprintf(f->alloc_name, sizeof f->alloc_name, "%s", a->name);
      f->alloc_base = a->base;
      f->alloc_size = a->size;
      f->alloc_offset = (int64_t)(addr - a->base);
      /* beyond this distance from every allocation an address is a wild pointer, and the
         nearest allocation says nothing about it */
      uint64_t dist = addr >= a->base + a->size ? addr - (a->base + a->size) + 1 : a->base - addr;
      int wild = dist >= WILD_DISTANCE && dist > a->size;
      if (kind == SIM_FK_OUT_OF_BOUNDS && a->heap && addr - a->base < a->size) {
        char where[200];
        sim_heap_describe(b->dev, addr, size, where, sizeof where);
        snprintf(extra, sizeof extra, ": access to 0x%" PRIx64 " is out of bounds, %s", addr,
                 where);
      } else if (kind == SIM_FK_OUT_OF_BOUNDS && wild)
        snprintf(extra, sizeof extra, ": access to 0x%" PRIx64 " is out of bounds, in no "
                 "allocation (a wild pointer: no buffer, argument or __constant__ variable lies "
                 "within %u MiB)", addr, WILD_DISTANCE >> 20);
      else if (kind == SIM_FK_OUT_OF_BOUNDS && addr >= a->base + a->size)
        snprintf(extra, sizeof extra, ": access to 0x%" PRIx64 " is out of bounds, %" PRIu64
                 " byte%s past the end of %s (%" PRIu64 " bytes at 0x%" PRIx64 ")", addr, dist,
                 dist == 1 ? "" : "s", a->name, a->size, a->base);
      else if (kind == SIM_FK_OUT_OF_BOUNDS)
        snprintf(extra, sizeof extra, ": access to 0x%" PRIx64 " is out of bounds, %" PRIu64
                 " byte%s before the start of %s (%" PRIu64 " bytes at 0x%" PRIx64 ")", addr,
                 dist, dist == 1 ? "" : "s", a->name, a->size, a->base);
      else if (kind == SIM_FK_MISALIGNED)
        snprintf(extra, sizeof extra, ": address 0x%" PRIx64 " is misaligned (a %u-byte access "
                 "needs a multiple of %u); it is at offset %" PRId64 " of %s", addr, size, size,
                 f->alloc_offset, a->name);
      else if (kind == SIM_FK_READ_ONLY)
        snprintf(extra, sizeof extra, ": 0x%" PRIx64 " is in %s, which is read-only", addr, a->name);
    }
  } else if (sp == PTX_SP_SHARED) {
    snprintf(extra, sizeof extra, ": %s 0x%" PRIx64 "; the block has %u bytes of shared memory",
             kind == SIM_FK_MISALIGNED ? "misaligned address" : "access out of bounds at offset",
             addr, b->smem_size);
  } else if (sp == PTX_SP_LOCAL) {
    snprintf(extra, sizeof extra, ": %s 0x%" PRIx64 "; the thread has %u bytes of local memory",
             kind == SIM_FK_MISALIGNED ? "misaligned address" : "access out of bounds at offset",
             addr, b->prog->local_size);
  } else {
    snprintf(extra, sizeof extra, ": address 0x%" PRIx64 "%s", addr,
             kind == SIM_FK_READ_ONLY ? " is read-only" : " is in no memory space");
  }
  snprintf(f->message, sizeof f->message,
           "Invalid __%s__ %s of size %u bytes at %.200s by thread (%u,%u,%u) in block (%u,%u,%u)%.300s",
           ptx_space_name(sp), verb, size, loc, f->thread[0], f->thread[1], f->thread[2],
           f->block[0], f->block[1], f->block[2], extra);
}

void sim_fault_other(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned lane,
                     enum sim_fault_kind kind, const char *msg)
{
  if (!claim(b))
    return;
  struct sim_fault *f = &b->res->fault;
  b->res->outcome = kind == SIM_FK_DEADLOCK ? SIM_DEADLOCK :
                    kind == SIM_FK_BARRIER_DIVERGENCE ? SIM_BARRIER_DIVERGENCE :
                    kind == SIM_FK_BUDGET ? SIM_BUDGET : SIM_FAULT;
  f->kind = kind;
  fill_thread(b, w, pc, lane, f);
  char loc[256];
  sim_where(b->prog->mod, f->inst, loc, sizeof loc);
  f->other_inst = PTX_NOREG;
  if (kind == SIM_FK_DEADLOCK || kind == SIM_FK_BARRIER_DIVERGENCE || kind == SIM_FK_BUDGET ||
      kind == SIM_FK_RACE || kind == SIM_FK_UNINIT || kind == SIM_FK_SYNC_MASK)
    snprintf(f->message, sizeof f->message, "%s", msg);
  else
    snprintf(f->message, sizeof f->message, "%s, in thread (%u,%u,%u) of block (%u,%u,%u) at %s",
             msg, f->thread[0], f->thread[1], f->thread[2], f->block[0], f->block[1], f->block[2],
             loc);
}
