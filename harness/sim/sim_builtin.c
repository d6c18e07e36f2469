/* sim_builtin.c: the CUDA device-runtime functions the emulator provides itself.
 *
 *   vprintf(format, args)     what device printf compiles to: the format string and a packed
 *                             argument buffer (each argument at its natural alignment, floats
 *                             promoted to double) in the thread's local memory
 *   __assertfail(message, file, line, function, size)
 *                             what a failed assert() calls: reported as a fault of the
 *                             thread, with the assertion and its line
 *   malloc(size), free(ptr)   the device heap's (sim_heap.c); C++ new and delete compile to
 *                             them. free of a pointer malloc did not return, or of one freed
 *                             already, is a fault of the thread (undefined on the GPU)
 *   cudaGraphSetConditional(handle, value)
 *                             sets the value a CUDA graph's conditional node reads (if, while,
 *                             switch nodes, CUDA 12.4). Outside a graph, as here, it changes no
 *                             memory: the call is recorded (sim_note_gcond) and reported, the
 *                             value last set for each handle
 *
 * printf output is kept per block and gathered in block order by the launch, so a parallel
 * run prints what a serial one does; within a block, warps print in the order they run and
 * the lanes of one printf in lane order. printf is CUDA's: it returns the number of
 * arguments it took (not of characters), `*` widths and precisions take theirs from the
 * arguments. Its cost is bounded whatever the format says: one conversion makes at most
 * SIM_PRINTF_CONV_MAX characters (the first ones of what it would print), a launch keeps at
 * most SIM_PRINTF_FIFO bytes (CUDA's printf FIFO), and a block whose output could not be kept
 * only counts its arguments; either cut sets sim_result.printf_cut.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_int.h"

#define MAX_STRING 1024
#define CONV_LIM ((int)SIM_PRINTF_CONV_MAX + 64) /* widths and precisions past this are cut: what
                                               the first SIM_PRINTF_CONV_MAX characters of the
                                               conversion would be does not depend on them */

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

static void cut(struct sim_block *b)
{
  if (b->pf)
    sim_atomic_min_u32(&b->pf->cut, b->linear);
}

/* Whether what this block prints now is kept: its own output is under the launch's limit,
   and the blocks before it have not filled the launch's already. */
static int printing(struct sim_block *b)
{
  return b->out_len < SIM_PRINTF_FIFO &&
         (!b->pf || b->linear <= __atomic_load_n(&b->pf->cut_after, __ATOMIC_RELAXED));
}

static void append(struct sim_block *b, const char *text, size_t n)
{
  if (b->out_len + n > SIM_PRINTF_FIFO) {
    n = b->out_len < SIM_PRINTF_FIFO ? SIM_PRINTF_FIFO - b->out_len : 0;
    cut(b);
  }
  if (!n)
    return;
  if (b->out_len + n + 1 > b->out_cap) {
    size_t cap = b->out_cap ? b->out_cap * 2 : 4096;
    while (cap < b->out_len + n + 1)
      cap *= 2;
    char *nb = realloc(b->out, cap);
    if (!nb) {
      cut(b);
      return;
    }
    b->out = nb;
    b->out_cap = cap;
  }
  memcpy(b->out + b->out_len, text, n);
  b->out_len += n;
  b->out[b->out_len] = 0;
}

static void append_pad(struct sim_block *b, char c, size_t n)
{
  char pad[256];
  memset(pad, c, sizeof pad);
  for (; n; ) {
    size_t k = n < sizeof pad ? n : sizeof pad;
    append(b, pad, k);
    n -= k;
  }
}

/* One conversion's text as printf makes it, body (formatted with its flags and precision but
   no width) padded to width, into the block's output: at most SIM_PRINTF_CONV_MAX characters,
   the first of what the whole conversion would be. */
static void put_conv(struct sim_block *b, const char *body, size_t len, uint64_t width, int left,
                     int zero)
{
  size_t room = SIM_PRINTF_CONV_MAX;
  uint64_t npad = width > len ? width - len : 0;
  if (len + npad > room)
    cut(b);
  if (left) {
    size_t k = len < room ? len : room;
    append(b, body, k);
    room -= k;
    append_pad(b, ' ', npad < room ? (size_t)npad : room);
    return;
  }
  size_t lead = 0;                  /* zero padding goes after the sign and 0x */
  if (zero) {
    if (len && strchr("+- ", body[0]))
      lead = 1;
    if (len >= lead + 2 && body[lead] == '0' && (body[lead + 1] == 'x' || body[lead + 1] == 'X'))
      lead += 2;
    append(b, body, lead);
    room -= lead;
  }
  size_t p = npad < room ? (size_t)npad : room;
  append_pad(b, zero ? '0' : ' ', p);
  room -= p;
  append(b, body + lead, len - lead < room ? len - lead : room);
}

/* A decimal number of the format at *p (clamped at CONV_LIM + 1, so that no width overflows). */
static uint64_t number(const char **p)
{
  uint64_t v = 0;
  for (; **p >= '0' && **p <= '9'; (*p)++)
    if (v <= CONV_LIM)
      v = v * 10 + (uint64_t)(**p - '0');
  return v;
}

/* The next argument of size bytes (at its natural alignment) in the packed buffer; -1 after a
   fault. */
static int next_arg(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l, uint64_t args,
                    uint64_t *off, unsigned size, void *v)
{
  *off = (*off + size - 1) / size * size;
  if (sim_read_lane(b, w, pc, l, args + *off, v, size))
    return -1;
  *off += size;
  return 0;
}

/* Print fmt with the packed arguments at args into the block's output (or only count them,
   when nothing it prints would be kept). Returns the number of arguments it took, as CUDA's
   printf does, or -2 after a fault. */
static int format(struct sim_block *b, struct sim_warp *w, uint32_t pc, unsigned l, const char *fmt,
                  uint64_t args)
{
  int show = printing(b), nargs = 0;
  uint64_t off = 0;
  if (!show)
    cut(b);
  static _Thread_local char tmp[2 * CONV_LIM + 512];   /* one conversion, before its width */
  for (const char *p = fmt; *p;) {
    if (*p != '%') {
      const char *q = strchr(p, '%');
      size_t n = q ? (size_t)(q - p) : strlen(p);
      if (show)
        append(b, p, n);
      p += n;
      continue;
    }
    if (p[1] == '%') {
      if (show)
        append(b, "%", 1);
      p += 2;
      continue;
    }
    /* %[flags][width|*][.precision|.*][length]conversion */
    const char *start = p++;
    char flags[8];
    size_t nf = 0;
    int left = 0, zero = 0;
    for (; *p && strchr("-+ #0", *p); p++) {
      left |= *p == '-';
      zero |= *p == '0';
      if (*p != '-' && *p != '0' && nf + 1 < sizeof flags && !strchr(flags, *p))
        flags[nf++] = *p;
      flags[nf] = 0;
    }
    flags[nf] = 0;
    uint64_t width = 0;
    int64_t prec = -1;
    if (*p == '*') {
      int32_t v;
      if (next_arg(b, w, pc, l, args, &off, 4, &v))
        return -2;
      nargs++;
      p++;
      if (v < 0)
        left = 1;
      width = v < 0 ? (uint64_t)-(int64_t)v : (uint64_t)v;
    } else {
      width = number(&p);
    }
    if (*p == '.') {
      p++;
      if (*p == '*') {
        int32_t v;
        if (next_arg(b, w, pc, l, args, &off, 4, &v))
          return -2;
        nargs++;
        p++;
        prec = v < 0 ? -1 : v;
      } else {
        prec = (int64_t)number(&p);
      }
    }
    int wide = 0, half = 0;
    for (; *p && strchr("hlLjzt", *p); p++) {
      wide |= *p == 'l' || *p == 'L' || *p == 'j' || *p == 'z' || *p == 't';
      half += *p == 'h';
    }
    char conv = *p ? *p++ : 0;
    int cprec = prec < 0 ? -1 : prec > CONV_LIM ? CONV_LIM : (int)prec;
    char spec[40];
    int len = -1;
    if (conv && strchr("diouxXc", conv)) {
      unsigned size = wide && conv != 'c' ? 8 : 4;
      uint64_t v = 0;
      if (next_arg(b, w, pc, l, args, &off, size, &v))
        return -2;
      nargs++;
      if (!show)
        continue;
      if (conv == 'c') {
        snprintf(spec, sizeof spec, "%%%sc", flags);
        len = snprintf(tmp, sizeof tmp, spec, (int)v);
      } else {
        if (cprec >= 0)
          snprintf(spec, sizeof spec, "%%%s.%dll%c", flags, cprec, conv);
        else
          snprintf(spec, sizeof spec, "%%%sll%c", flags, conv);
        if (conv == 'd' || conv == 'i') {
          long long x = size == 8 ? (long long)v : (long long)(int32_t)v;
          if (half == 1)
            x = (short)x;
          else if (half > 1)
            x = (signed char)x;
          len = snprintf(tmp, sizeof tmp, spec, x);
        } else {
          unsigned long long x = size == 8 ? v : (uint32_t)v;
          if (half == 1)
            x = (unsigned short)x;
          else if (half > 1)
            x = (unsigned char)x;
          len = snprintf(tmp, sizeof tmp, spec, x);
        }
        zero &= prec < 0;              /* C: a precision turns the 0 flag off for integers */
      }
    } else if (conv && strchr("fFeEgGaA", conv)) {
      double d;
      if (next_arg(b, w, pc, l, args, &off, 8, &d))
        return -2;
      nargs++;
      if (!show)
        continue;
      if (cprec >= 0)
        snprintf(spec, sizeof spec, "%%%s.%d%c", flags, cprec, conv);
      else
        snprintf(spec, sizeof spec, "%%%s%c", flags, conv);
      len = snprintf(tmp, sizeof tmp, spec, d);
      zero &= !isinf(d) && !isnan(d);
    } else if (conv == 's' || conv == 'p') {
      uint64_t ptr;
      if (next_arg(b, w, pc, l, args, &off, 8, &ptr))
        return -2;
      nargs++;
      if (!show)
        continue;
      zero = 0;
      if (conv == 'p') {
        len = snprintf(tmp, sizeof tmp, "0x%" PRIx64, ptr);
      } else {
        char str[MAX_STRING];
        if (!ptr)
          snprintf(str, sizeof str, "(null)");
        else if (read_string(b, w, pc, l, ptr, str, sizeof str))
          return -2;
        len = snprintf(tmp, sizeof tmp, "%.*s", cprec < 0 ? (int)sizeof str : cprec, str);
      }
    } else {
      if (show)                        /* not a conversion CUDA knows: printed as written */
        append(b, start, (size_t)(p - start));
      continue;
    }
    if (len < 0)
      continue;
    if ((size_t)len >= sizeof tmp) {
      len = (int)sizeof tmp - 1;
      cut(b);
    }
    put_conv(b, tmp, (size_t)len, width, left, zero);
  }
  return nargs;
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
  if (ci->builtin == SIM_BUILTIN_MALLOC) {
    uint64_t r = sim_heap_malloc(b->dev, arg[0]);
    if (r && b->race)
      sim_race_global_forget(b, r, arg[0]);   /* a block another thread freed: a new life */
    if (ci->nout)
      memcpy(fr + p->copies[ci->first_out].src, &r, 8);
    return 0;
  }
  if (ci->builtin == SIM_BUILTIN_GRAPH_SET_COND) {
    sim_note_gcond(b, w, pc, l, arg[0], (uint32_t)arg[1]);
    return 0;
  }
  if (ci->builtin == SIM_BUILTIN_FREE) {
    if (sim_heap_free(b->dev, arg[0])) {
      char text[160];
      snprintf(text, sizeof text, "free() of 0x%" PRIx64 ", which is not a block malloc "
               "returned (or it was freed already)", arg[0]);
      sim_fault_other(b, w, pc, l, SIM_FK_TRAP, text);
      return -1;
    }
    return 0;
  }
  /* vprintf: returns the number of arguments, -1 for a null format (as CUDA's printf) */
  char fmt[MAX_STRING];
  int32_t r = -1;
  if (arg[0]) {
    if (read_string(b, w, pc, l, arg[0], fmt, sizeof fmt))
      return -1;
    r = format(b, w, pc, l, fmt, arg[1]);
    if (r < 0)
      return -1;
  }
  if (ci->nout)
    memcpy(fr + p->copies[ci->first_out].src, &r, 4);
  return 0;
}
