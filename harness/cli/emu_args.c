/* emu_args.c: parse --arg specs and make their data (see emu_args.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/emu_args.h"
#include "ptx/ptx.h"

#define MAX_BUFFER_ELEMENTS (1ull << 32)   /* as a lab's buffers (run.c): Nsight Compute and
                                               compute-sanitizer wrap a lab's launch in emu */

static int parse_u64(const char *s, uint64_t *v)
{
  char *end;
  errno = 0;
  if (!*s || *s == '-')
    return -1;
  unsigned long long x = strtoull(s, &end, 0);
  if (errno || *end)
    return -1;
  *v = x;
  return 0;
}

static int is_float_elem(enum run_elem e)
{
  return e == RUN_F32 || e == RUN_F64 || e == RUN_F16 || e == RUN_BF16;
}

/* A value of type e written as text, as raw bits. f16 and bf16 values are rounded to the
   nearest (ties to even) from the decimal's double, as f32 ones from it. */
static int parse_value(enum run_elem e, const char *s, uint64_t *bits)
{
  char *end;
  errno = 0;
  if (is_float_elem(e)) {
    double d = strtod(s, &end);
    if (errno || *end || !*s)
      return -1;
    if (e == RUN_F16 || e == RUN_BF16) {
      *bits = e == RUN_F16 ? run_f16_bits(d) : run_bf16_bits(d);
    } else if (e == RUN_F32) {
      float f = (float)d;
      uint32_t u;
      memcpy(&u, &f, 4);
      *bits = u;
    } else {
      memcpy(bits, &d, 8);
    }
    return 0;
  }
  if (e == RUN_I8 || e == RUN_I16 || e == RUN_I32 || e == RUN_I64) {
    long long x = strtoll(s, &end, 0);
    if (errno || *end || !*s)
      return -1;
    unsigned bits_n = run_elem_size(e) * 8;
    if (bits_n < 64 && (x < -(1ll << (bits_n - 1)) || x >= (1ll << (bits_n - 1))))
      return -1;
    *bits = bits_n < 64 ? (uint64_t)x & ((1ull << bits_n) - 1) : (uint64_t)x;
    return 0;
  }
  uint64_t x;
  if (parse_u64(s, &x))
    return -1;
  unsigned bits_n = run_elem_size(e) * 8;
  if (bits_n < 64 && x >> bits_n)
    return -1;
  *bits = x;
  return 0;
}

/* bytes:HEX, a parameter given as its bytes (a struct passed by value): two hex digits a
   byte, in memory order, at most EMU_ARG_MAX_BYTES of them. */
static int parse_bytes(const char *hex, struct emu_arg *a, char *err, size_t errlen)
{
  size_t n = strlen(hex);
  if (n == 0 || n % 2 || n / 2 > EMU_ARG_MAX_BYTES) {
    snprintf(err, errlen, "--arg '%s': bytes:HEX takes 1 to %d bytes as pairs of hex digits "
             "(bytes:0a0b0c0d)", a->spec, EMU_ARG_MAX_BYTES);
    return -1;
  }
  for (size_t i = 0; i < n / 2; i++) {
    unsigned v = 0;
    for (size_t k = 0; k < 2; k++) {
      char c = hex[2 * i + k];
      unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0') : c >= 'a' && c <= 'f'
                   ? (unsigned)(c - 'a' + 10) : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16;
      if (d > 15) {
        snprintf(err, errlen, "--arg '%s': '%c' is not a hex digit", a->spec, c);
        return -1;
      }
      v = v * 16 + d;
    }
    a->bytes[i] = (uint8_t)v;
  }
  a->nbytes = (uint32_t)(n / 2);
  return 0;
}

uint32_t emu_arg_size(const struct emu_arg *a)
{
  return a->is_tmap ? SIM_TMAP_BYTES : a->is_buffer ? 8 : a->nbytes ? a->nbytes : run_elem_size(a->elem);
}

static int fill_from_file(const char *path, struct emu_arg *a, size_t bytes, char *err, size_t n)
{
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, n, "--arg '%s': cannot open %s: %s", a->spec, path, strerror(errno));
    return -1;
  }
  size_t got = fread(a->data, 1, bytes, f);
  int extra = fgetc(f) != EOF;
  fclose(f);
  if (got != bytes || extra) {
    snprintf(err, n, "--arg '%s': %s must hold exactly %" PRIu64 " %s elements (%zu bytes)%s",
             a->spec, path, a->count, run_elem_name(a->elem), bytes,
             got != bytes ? ", it is shorter" : ", it is longer");
    return -1;
  }
  return 0;
}

/* "64x32": 1 to 5 positive integers separated by 'x', into v; their count, or 0. */
static unsigned parse_xlist(const char *s, size_t len, uint64_t *v)
{
  char buf[128];
  unsigned n = 0;
  if (!len || len >= sizeof buf)
    return 0;
  memcpy(buf, s, len);
  buf[len] = 0;
  for (char *p = buf;;) {
    char *x = strchr(p, 'x');
    if (x)
      *x = 0;
    if (n == SIM_TMAP_MAX_RANK || parse_u64(p, &v[n]) || !v[n])
      return 0;
    n++;
    if (!x)
      return n;
    p = x + 1;
  }
}

/* tmap:DIMS:STRIDES:BOX:<type>buf:COUNT:INIT (emu_args.h). The map's own checks (alignment,
   sizes) are sim_tmap_encode's and cuTensorMapEncodeTiled's, when it is made. */
static int parse_tmap(const char *rest, struct emu_arg *a, char *err, size_t errlen)
{
  static const struct { enum run_elem e; uint32_t dt; } types[] = {
    {RUN_U8, SIM_TMAP_U8}, {RUN_I8, SIM_TMAP_U8}, {RUN_U16, SIM_TMAP_U16}, {RUN_I16, SIM_TMAP_U16},
    {RUN_U32, SIM_TMAP_U32}, {RUN_I32, SIM_TMAP_I32}, {RUN_U64, SIM_TMAP_U64}, {RUN_I64, SIM_TMAP_I64},
    {RUN_F16, SIM_TMAP_F16}, {RUN_F32, SIM_TMAP_F32}, {RUN_F64, SIM_TMAP_F64}, {RUN_BF16, SIM_TMAP_BF16},
  };
  const char *f[4];
  size_t fl[3];
  const char *p = rest;
  for (unsigned k = 0; k < 3; k++) {
    const char *c = strchr(p, ':');
    if (!c)
      break;
    f[k] = p;
    fl[k] = (size_t)(c - p);
    p = c + 1;
    f[k + 1] = p;
  }
  if (p == rest || !strstr(p, "buf:") || (size_t)(p - rest) < 6) {
    snprintf(err, errlen, "--arg '%s': a tensor map is tmap:DIMS:STRIDES:BOX:TYPEbuf:COUNT:INIT "
             "(tmap:64x32:-:32x16:f32buf:2048:rand)", a->spec);
    return -1;
  }
  struct emu_arg b;
  char spec[sizeof a->spec];
  snprintf(spec, sizeof spec, "%s", a->spec);
  if (emu_arg_parse(f[3], &b, err, errlen))
    return -1;
  if (!b.is_buffer) {
    emu_arg_free(&b);
    snprintf(err, errlen, "--arg '%s': a tensor map's tensor is a buffer (TYPEbuf:COUNT:INIT)", spec);
    return -1;
  }
  *a = b;
  snprintf(a->spec, sizeof a->spec, "%s", spec);
  size_t k;
  for (k = 0; k < sizeof types / sizeof types[0] && types[k].e != a->elem; k++)
    ;
  uint64_t dims[SIM_TMAP_MAX_RANK], strides[SIM_TMAP_MAX_RANK], box[SIM_TMAP_MAX_RANK];
  int packed = fl[1] == 1 && f[1][0] == '-';
  unsigned rank = parse_xlist(f[0], fl[0], dims), nb = parse_xlist(f[2], fl[2], box);
  unsigned ns = packed ? 0 : parse_xlist(f[1], fl[1], strides);
  if (!rank || nb != rank || (!packed && ns != rank - 1) || (!packed && rank == 1)) {
    snprintf(err, errlen, "--arg '%s': DIMS and BOX need 1 to 5 sizes each, as many as each "
             "other, and STRIDES one fewer (or '-' for a packed tensor)", a->spec);
    return -1;
  }
  a->is_tmap = 1;
  a->tmap.dtype = types[k].dt;
  a->tmap.rank = rank;
  uint64_t pitch = run_elem_size(a->elem);
  for (unsigned d = 0; d < rank; d++) {
    a->tmap.dims[d] = dims[d];
    a->tmap.box[d] = box[d] > UINT32_MAX ? UINT32_MAX : (uint32_t)box[d];
    a->tmap.estrides[d] = 1;
    if (d)
      a->tmap.strides[d - 1] = packed ? pitch : strides[d - 1];
    pitch *= dims[d];
  }
  return 0;
}

int emu_arg_parse(const char *spec, struct emu_arg *a, char *err, size_t errlen)
{
  memset(a, 0, sizeof *a);
  snprintf(a->spec, sizeof a->spec, "%s", spec);
  const char *colon = strchr(spec, ':');
  if (!colon) {
    snprintf(err, errlen, "--arg '%s': expected TYPE:VALUE or TYPEbuf:COUNT:INIT", spec);
    return -1;
  }
  char type[16];
  size_t tl = (size_t)(colon - spec);
  if (tl >= sizeof type) {
    snprintf(err, errlen, "--arg '%s': unknown type", spec);
    return -1;
  }
  memcpy(type, spec, tl);
  type[tl] = 0;
  if (!strcmp(type, "bytes"))
    return parse_bytes(colon + 1, a, err, errlen);
  if (!strcmp(type, "tmap"))
    return parse_tmap(colon + 1, a, err, errlen);
  if (tl > 3 && !strcmp(type + tl - 3, "buf")) {
    a->is_buffer = 1;
    type[tl - 3] = 0;
  }
  int found = run_elem_parse(type, &a->elem) == 0;
  if (!found) {
    snprintf(err, errlen, "--arg '%s': unknown type '%s' (use i8 u8 i16 u16 i32 u32 i64 u64 "
             "f16 bf16 f32 f64, with 'buf' for a buffer, or bytes:HEX)", spec, type);
    return -1;
  }
  const char *rest = colon + 1;
  if (!a->is_buffer) {
    if (parse_value(a->elem, rest, &a->scalar)) {
      snprintf(err, errlen, "--arg '%s': '%s' is not a valid %s", spec, rest, type);
      return -1;
    }
    return 0;
  }
  const char *c2 = strchr(rest, ':');
  char num[32];
  size_t nl = c2 ? (size_t)(c2 - rest) : strlen(rest);
  if (!c2 || nl == 0 || nl >= sizeof num) {
    snprintf(err, errlen, "--arg '%s': expected %sbuf:COUNT:INIT (INIT: rand[:SEED], zero, "
             "fill=V, iota, file=PATH)", spec, type);
    return -1;
  }
  memcpy(num, rest, nl);
  num[nl] = 0;
  if (parse_u64(num, &a->count) || a->count == 0) {
    snprintf(err, errlen, "--arg '%s': COUNT must be a positive integer, not '%s'", spec, num);
    return -1;
  }
  unsigned es = run_elem_size(a->elem);
  if (a->count > MAX_BUFFER_ELEMENTS) {
    snprintf(err, errlen, "--arg '%s': %" PRIu64 " elements is more than the 2^32 a buffer may "
             "hold", spec, a->count);
    return -1;
  }
  size_t bytes = (size_t)(a->count * es);
  a->data = malloc(bytes);
  if (!a->data) {
    snprintf(err, errlen, "--arg '%s': out of host memory", spec);
    return -1;
  }
  const char *init = c2 + 1;
  if (!strcmp(init, "zero")) {
    memset(a->data, 0, bytes);
  } else if (!strncmp(init, "rand", 4) && (init[4] == 0 || init[4] == ':')) {
    uint64_t seed = 1;
    if (init[4] == ':' && parse_u64(init + 5, &seed)) {
      snprintf(err, errlen, "--arg '%s': SEED must be a non-negative integer", spec);
      goto fail;
    }
    run_fill_rand(a->data, a->elem, a->count, seed);
  } else if (!strcmp(init, "iota")) {
    run_fill_iota(a->data, a->elem, a->count);
  } else if (!strncmp(init, "fill=", 5)) {
    uint64_t v;
    if (parse_value(a->elem, init + 5, &v)) {
      snprintf(err, errlen, "--arg '%s': '%s' is not a valid %s", spec, init + 5, type);
      goto fail;
    }
    run_fill_bits(a->data, a->elem, a->count, v);
  } else if (!strncmp(init, "file=", 5)) {
    if (fill_from_file(init + 5, a, bytes, err, errlen))
      goto fail;
  } else {
    snprintf(err, errlen, "--arg '%s': unknown initialiser '%s' (rand[:SEED], zero, fill=V, "
             "iota, file=PATH)", spec, init);
    goto fail;
  }
  return 0;
fail:
  free(a->data);
  a->data = NULL;
  return -1;
}

void emu_arg_free(struct emu_arg *a)
{
  free(a->data);
  a->data = NULL;
}

int emu_arg_check_type(const struct emu_arg *a, unsigned t, const char *param, char *err,
                       size_t errlen)
{
  enum ptx_type pt = (enum ptx_type)t;
  if (a->is_buffer || a->nbytes || a->is_tmap || pt == PTX_T_NONE || (pt >= PTX_T_B8 && pt <= PTX_T_B128))
    return 0;
  int want_float = ptx_type_is_float(pt) != 0;
  int is_float = is_float_elem(a->elem);
  if (want_float == is_float)
    return 0;
  unsigned sz = ptx_type_size(pt);
  snprintf(err, errlen, "--arg '%s' is %s, but parameter %s is %s (.%s): give it as %s", a->spec,
           is_float ? "a float" : "an integer", param, want_float ? "a float" : "an integer",
           ptx_type_name(pt), want_float ? (sz == 8 ? "f64:V" : sz == 2 ? "f16:V or bf16:V" : "f32:V")
           : sz == 8 ? "i64:V or u64:V" : sz == 2 ? "i16:V or u16:V" : sz == 1 ? "i8:V or u8:V"
           : "i32:V or u32:V");
  return -1;
}
