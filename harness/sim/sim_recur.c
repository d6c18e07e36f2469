/* sim_recur.c: calls and returns of a program with recursion (a function that can call itself,
 * directly, through other functions or through a function pointer).
 *
 * Without recursion every function has one frame: its registers are a fixed range of the
 * thread's register file, its .param variables fixed offsets of the thread's parameter frame
 * and its .local variables fixed offsets of the thread's local memory (sim_link.c), and a call
 * only remembers where to return (sim_warp.c). With recursion (prog->recursive) every lane
 * keeps a call stack of its own here, as a GPU keeps one in local memory since sm_20:
 *  - each call pushes a record: the return pc and the call;
 *  - a call of a recursive function (one in a cycle of the call graph, sim_link.c's
 *    struct sim_rfunc) also saves the lane's values of the callee's registers and of its
 *    .param variables (parameters, return values, the argument slots of the calls it makes)
 *    in the record, so the activation it interrupts gets them back at the return, and gives
 *    the new activation a .local frame of its own on the lane's stack in local memory: the
 *    function's local variables are addressed through hidden registers (sim_link.c) that the
 *    call sets to this frame, so each activation's arrays have their own addresses;
 *  - each activation of a recursive function takes its stack frame from the thread's stack
 *    (cudaLimitStackSize, sim_set_stack_size): the frame ptxas gives the function on the GPU
 *    (sim_launch.frames: its local variables, spilled registers and saved return address),
 *    or where ptxas's report is not at hand an estimate, its .local bytes plus
 *    SIM_RECUR_FRAME; a call that would pass the stack is a stack-overflow fault at the
 *    call's line that says which figure it charged.
 * Lanes of one warp may be at different depths: each lane's registers are its own column of
 * the register file, so lanes of different activations run an instruction together.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_int.h"

struct sim_rlane {
  uint8_t *buf;                  /* the records, one after another */
  size_t used, cap;
  size_t top;                    /* offset of the top record */
  uint32_t sp;                   /* local offset where the next activation's frame goes */
  uint32_t bytes;                /* stack bytes the lane's activations take */
};

/* Host memory the call stacks of one block's threads may take together: a runaway recursion
   of a function with many registers under a large --stack must not exhaust the host. */
#define SIM_RECUR_HOST ((size_t)256 << 20)

struct rec {                     /* a record's header; the saved bytes follow it */
  uint32_t ret_pc, ret_call;
  uint32_t sp, bytes;            /* the lane's sp and bytes before the call */
  uint64_t prev;                 /* offset of the record below */
};

enum sim_status sim_set_stack_size(struct sim_device *d, uint64_t bytes)
{
  if (!d || bytes == 0 || bytes > SIM_STACK_MAX)
    return SIM_ERR_BADARG;
  d->stack_limit = (uint32_t)bytes;
  return SIM_OK;
}

/* Room for n more bytes in lane r's records: 0, or -1 when host memory ran out. */
static int reserve(struct sim_rlane *r, size_t n)
{
  if (r->used + n <= r->cap)
    return 0;
  size_t cap = r->cap ? r->cap : 1024;
  while (cap < r->used + n)
    cap *= 2;
  uint8_t *nb = realloc(r->buf, cap);
  if (!nb)
    return -1;
  r->buf = nb;
  r->cap = cap;
  return 0;
}

int sim_recur_call(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l, uint32_t cidx)
{
  const struct sim_prog *p = b->prog;
  const struct sim_callinfo *cl = &p->calls[cidx];
  const struct sim_rfunc *rf = cl->recur ? &p->rfuncs[cl->recur - 1] : NULL;
  unsigned W = b->W;
  if (!w->rl && !(w->rl = calloc(SIM_MAX_WARP, sizeof *w->rl))) {
    sim_fault_other(b, w, pc, l, SIM_FK_CALL_DEPTH, "out of host memory for the call stack");
    return 1;
  }
  struct sim_rlane *r = &w->rl[l];
  if (!w->depth[l]) {            /* the lane's first call: an empty stack */
    r->used = 0;
    r->sp = p->stack_base;
    r->bytes = 0;
  }
  if (rf && r->bytes + rf->cost > p->stack_bytes) {
    char msg[640], how[256];
    if (rf->ptxas)
      snprintf(how, sizeof how, "ptxas: %u-byte frame", rf->cost);
    else
      snprintf(how, sizeof how, "estimated: %u of local variables, %u for the return address "
               "and saved registers; ptxas's frame size was not available", rf->lsize,
               SIM_RECUR_FRAME);
    snprintf(msg, sizeof msg, "stack overflow: this recursive call of %s, %u calls deep, would "
             "take the thread's call stack past its %u bytes (cudaLimitStackSize, `warplab emu "
             "--stack BYTES`); each activation of %s takes %u bytes (%s)",
             p->mod->funcs[rf->func].name, w->depth[l] + 1, p->stack_bytes,
             p->mod->funcs[rf->func].name, rf->cost, how);
    sim_fault_other(b, w, pc, l, SIM_FK_CALL_DEPTH, msg);
    return 1;
  }
  /* the saved registers and .param bytes, rounded so that records stay 8-byte aligned */
  size_t save = rf ? ((size_t)rf->nregs * 8 + rf->pf_size + 7) / 8 * 8 : 0;
  size_t cap = SIM_RECUR_HOST / (b->nthreads ? b->nthreads : 1);
  if (r->used + sizeof(struct rec) + save > cap || reserve(r, sizeof(struct rec) + save)) {
    char msg[512];
    snprintf(msg, sizeof msg, "this call, %u calls deep, would take the emulator's copy of the "
             "thread's call stack past the host memory it gives one thread (%zu bytes: %u MiB a "
             "block, shared by its threads; this call keeps %zu bytes there): the emulator "
             "cannot run a recursion this deep", w->depth[l] + 1, cap,
             (unsigned)(SIM_RECUR_HOST >> 20), sizeof(struct rec) + save);
    sim_fault_other(b, w, pc, l, SIM_FK_CALL_DEPTH, msg);
    return 1;
  }
  struct rec h = {pc + 1, cidx, r->sp, r->bytes, r->top};
  uint8_t *at = r->buf + r->used;
  memcpy(at, &h, sizeof h);
  uint8_t *fr = w->pframe + (size_t)l * p->pframe_size;
  if (rf) {
    uint64_t *sv = (uint64_t *)(void *)(at + sizeof h);
    const uint64_t *reg = w->regs + (size_t)rf->reg * W + l;
    for (uint32_t i = 0; i < rf->nregs; i++)
      sv[i] = reg[(size_t)i * W];
    memcpy(at + sizeof h + (size_t)rf->nregs * 8, fr + rf->pf_off, rf->pf_size);
  }
  r->top = r->used;
  r->used += sizeof h + save;
  for (uint32_t k = 0; k < cl->nin; k++) {
    const struct sim_copy *c = &p->copies[cl->first_in + k];
    memmove(fr + c->dst, fr + c->src, c->size);
  }
  if (rf) {
    for (uint32_t k = 0; k < rf->nhid; k++) {
      const struct sim_hidreg *hr = &p->hid[rf->first_hid + k];
      w->regs[(size_t)hr->reg * W + l] = (uint64_t)r->sp + hr->off;
    }
    r->sp += rf->lsize;
    r->bytes += rf->cost;
  }
  w->depth[l]++;
  return 0;
}

void sim_recur_return(struct sim_block *b, struct sim_warp *w, unsigned l)
{
  const struct sim_prog *p = b->prog;
  struct sim_rlane *r = &w->rl[l];
  struct rec h;
  memcpy(&h, r->buf + r->top, sizeof h);
  const struct sim_callinfo *cl = &p->calls[h.ret_call];
  const struct sim_rfunc *rf = cl->recur ? &p->rfuncs[cl->recur - 1] : NULL;
  uint8_t *fr = w->pframe + (size_t)l * p->pframe_size;
  if (!rf) {
    for (uint32_t k = 0; k < cl->nout; k++) {
      const struct sim_copy *c = &p->copies[cl->first_out + k];
      memmove(fr + c->dst, fr + c->src, c->size);
    }
  } else {
    /* the return values go past the records while the interrupted activation's registers and
       .param variables come back (the caller's slots may be among them), then to the slots */
    size_t tmp = r->used, n = 0;
    for (uint32_t k = 0; k < cl->nout; k++)
      n += p->copies[cl->first_out + k].size;
    if (reserve(r, n))
      n = 0;                     /* no room: the return values are lost, not the stack */
    for (uint32_t k = 0, o = 0; n && k < cl->nout; k++) {
      const struct sim_copy *c = &p->copies[cl->first_out + k];
      memcpy(r->buf + tmp + o, fr + c->src, c->size);
      o += c->size;
    }
    const uint8_t *at = r->buf + r->top + sizeof h;
    const uint64_t *sv = (const uint64_t *)(const void *)at;
    uint64_t *reg = w->regs + (size_t)rf->reg * b->W + l;
    for (uint32_t i = 0; i < rf->nregs; i++)
      reg[(size_t)i * b->W] = sv[i];
    memcpy(fr + rf->pf_off, at + (size_t)rf->nregs * 8, rf->pf_size);
    for (uint32_t k = 0, o = 0; n && k < cl->nout; k++) {
      const struct sim_copy *c = &p->copies[cl->first_out + k];
      memcpy(fr + c->dst, r->buf + tmp + o, c->size);
      o += c->size;
    }
  }
  w->pc[l] = h.ret_pc;
  r->sp = h.sp;
  r->bytes = h.bytes;
  r->used = r->top;
  r->top = h.prev;
  w->depth[l]--;
}

void sim_recur_frames(struct sim_prog *p, const struct sim_frame *frames, uint32_t n)
{
  for (uint32_t r = 0; r < p->nrfuncs; r++) {
    struct sim_rfunc *rf = &p->rfuncs[r];
    const char *name = p->mod->funcs[rf->func].name;
    for (uint32_t i = 0; i < n; i++)
      if (frames[i].func && !strcmp(frames[i].func, name)) {
        rf->cost = frames[i].bytes;
        rf->ptxas = 1;
        break;
      }
  }
}

void sim_recur_free(struct sim_warp *warps, uint32_t n)
{
  for (uint32_t i = 0; i < n; i++) {
    if (!warps[i].rl)
      continue;
    for (unsigned l = 0; l < SIM_MAX_WARP; l++)
      free(warps[i].rl[l].buf);
    free(warps[i].rl);
    warps[i].rl = NULL;
  }
}
