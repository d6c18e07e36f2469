/* sim_builtin.c: the CUDA device-runtime functions the emulator provides itself.
 *
 *   vprintf(format, args)     what device printf compiles to: the format string and a packed
 *                             argument buffer (each argument at its natural alignment, floats
 *                             promoted to double) in the thread's local memory
 *   __assertfail(message, file, line, function, size)
 *                             what a failed assert() calls: reported as a fault of the
 *                             thread, with the assertion and its line
 *
 * printf output is kept per block and gathered in block order by the launch, so a parallel
 * run prints what a serial one does; within a block, warps print in the order they run and
 * the lanes of one printf in lane order.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_int.h"

#define MAX_STRING 1024
#define MAX_BLOCK_OUTPUT (1u << 20)

/* A NUL-terminated string at generic address addr, as lane l sees it. */
static int read_string(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l,
                       uint64_t addr, char *out, size_t n)
{
  size_t k = 0;
  for (; k + 1 < n; k++) {
    char c;
    if (sim_read_lane(b, w, pc, l, addr + k, &c, 1))
      return -1;
    if (!c)
      break;
    out[k] = c;
  }
  out[k] = 0;
  return 0;
}

static void append(struct sim_block *b, const char *text, size_t n)
{
  if (b->out_len >= MAX_BLOCK_OUTPUT)
    return;
  if (b->out_len + n > MAX_BLOCK_OUTPUT)
    n = MAX_BLOCK_OUTPUT - b->out_len;
  if (b->out_len + n + 1 > b->out_cap) {
    size_t cap = b->out_cap ? b->out_cap * 2 : 4096;
    while (cap < b->out_len + n + 1)
      cap *= 2;
    char *nb = realloc(b->out, cap);
    if (!nb)
      return;
    b->out = nb;
    b->out_cap = cap;
  }
  memcpy(b->out + b->out_len, text, n);
  b->out_len += n;
  b->out[b->out_len] = 0;
}

/* Format `fmt` with the packed arguments at args into out; -1 after a fault. */
static int format(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l, const char *fmt,
                  uint64_t args, char *out, size_t n, size_t *len)
{
  size_t k = 0;
  uint64_t off = 0;
  for (const char *p = fmt; *p && k + 1 < n;) {
    if (*p != '%') {
      out[k++] = *p++;
      continue;
    }
    if (p[1] == '%') {
      out[k++] = '%';
      p += 2;
      continue;
    }
    /* %[flags][width][.precision][length]conversion */
    char spec[32];
    size_t s = 0;
    spec[s++] = *p++;
    while (*p && strchr("-+ #0", *p) && s < 10)
      spec[s++] = *p++;
    while (*p >= '0' && *p <= '9' && s < 16)
      spec[s++] = *p++;
    if (*p == '.') {
      spec[s++] = *p++;
      while (*p >= '0' && *p <= '9' && s < 22)
        spec[s++] = *p++;
    }
    int wide = 0;
    while (*p && strchr("hlLjzt", *p)) {
      wide |= *p == 'l' || *p == 'L' || *p == 'j' || *p == 'z' || *p == 't';
      p++;
    }
    char conv = *p ? *p++ : 0;
    int room = (int)(n - k);
    int wrote = 0;
    if (strchr("diouxXc", conv) && conv) {
      unsigned size = wide && conv != 'c' ? 8 : 4;
      off = (off + size - 1) / size * size;
      uint64_t v = 0;
      if (sim_read_lane(b, w, pc, l, args + off, &v, size))
        return -1;
      off += size;
      memcpy(spec + s, "ll", 2);
      spec[s + (conv == 'c' ? 0 : 2)] = conv;
      spec[s + (conv == 'c' ? 1 : 3)] = 0;
      if (conv == 'c')
        wrote = snprintf(out + k, (size_t)room, spec, (int)v);
      else if (conv == 'd' || conv == 'i')
        wrote = snprintf(out + k, (size_t)room, spec, size == 8 ? (long long)v : (long long)(int32_t)v);
      else
        wrote = snprintf(out + k, (size_t)room, spec, size == 8 ? (unsigned long long)v : (unsigned long long)(uint32_t)v);
    } else if (conv && strchr("fFeEgGaA", conv)) {
      off = (off + 7) / 8 * 8;
      double d;
      if (sim_read_lane(b, w, pc, l, args + off, &d, 8))
        return -1;
      off += 8;
      spec[s] = conv;
      spec[s + 1] = 0;
      wrote = snprintf(out + k, (size_t)room, spec, d);
    } else if (conv == 's' || conv == 'p') {
      off = (off + 7) / 8 * 8;
      uint64_t ptr;
      if (sim_read_lane(b, w, pc, l, args + off, &ptr, 8))
        return -1;
      off += 8;
      if (conv == 'p') {
        wrote = snprintf(out + k, (size_t)room, "0x%" PRIx64, ptr);
      } else {
        char str[MAX_STRING];
        if (!ptr)
          snprintf(str, sizeof str, "(null)");
        else if (read_string(b, w, pc, l, ptr, str, sizeof str))
          return -1;
        spec[s] = 's';
        spec[s + 1] = 0;
        wrote = snprintf(out + k, (size_t)room, spec, str);
      }
    } else {
      wrote = snprintf(out + k, (size_t)room, "%%%c", conv ? conv : '?');   /* as written */
    }
    if (wrote < 0)
      break;
    k += (size_t)wrote < (size_t)room ? (size_t)wrote : (size_t)room - 1;
  }
  out[k] = 0;
  *len = k;
  return 0;
}

int sim_builtin(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l,
                const struct sim_callinfo *ci)
{
  const struct sim_prog *p = b->prog;
  uint8_t *fr = w->pframe + (size_t)l * p->pframe_size;
  uint64_t arg[5] = {0};
  for (uint32_t k = 0; k < ci->nin && k < 5; k++) {
    const struct sim_copy *c = &p->copies[ci->first_in + k];
    memcpy(&arg[k], fr + c->dst, c->size < 8 ? c->size : 8);
  }
  if (ci->builtin == SIM_BUILTIN_ASSERTFAIL) {
    char msg[256] = "?", file[256] = "?", func[128] = "?", text[512];
    if ((arg[0] && read_string(b, w, pc, l, arg[0], msg, sizeof msg)) ||
        (arg[1] && read_string(b, w, pc, l, arg[1], file, sizeof file)) ||
        (arg[3] && read_string(b, w, pc, l, arg[3], func, sizeof func)))
      return -1;
    const char *base = strrchr(file, '/');
    snprintf(text, sizeof text, "assertion `%.200s` failed (%.100s:%u, in %.100s)", msg,
             base ? base + 1 : file, (uint32_t)arg[2], func);
    sim_fault_other(b, w, pc, l, SIM_FK_TRAP, text);
    return -1;
  }
  /* vprintf */
  char fmt[MAX_STRING], out[4096];
  size_t len = 0;
  if (read_string(b, w, pc, l, arg[0], fmt, sizeof fmt) ||
      format(b, w, pc, l, fmt, arg[1], out, sizeof out, &len))
    return -1;
  append(b, out, len);
  if (ci->nout) {
    int32_t r = (int32_t)len;
    memcpy(fr + p->copies[ci->first_out].src, &r, 4);
  }
  return 0;
}
