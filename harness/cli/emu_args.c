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
  a->bytes = malloc(n / 2);
  if (!a->bytes) {
    snprintf(err, errlen, "--arg '%s': out of host memory", a->spec);
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
        free(a->bytes);
        a->bytes = NULL;
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

/* KIND:DIMS:<type>[xN]:INIT[:OPTS] (emu_args.h): a texture or surface object over a buffer of
   its own. The object's own checks (formats, filtering) are sim_tex_create's and the driver's,
   when it is made. */
static int parse_tex(const char *kind, const char *rest, struct emu_arg *a, char *err, size_t errlen)
{
  static const struct { const char *n; uint8_t surface, geom, ndims; } kinds[] = {
    {"tex1d", 0, SIM_TEX_1D, 1}, {"tex2d", 0, SIM_TEX_2D, 2}, {"tex3d", 0, SIM_TEX_3D, 3},
    {"tex1dlayered", 0, SIM_TEX_A1D, 2}, {"tex2dlayered", 0, SIM_TEX_A2D, 3},
    {"texcube", 0, SIM_TEX_CUBE, 1}, {"texcubelayered", 0, SIM_TEX_ACUBE, 2},
    {"surf1d", 1, SIM_TEX_1D, 1}, {"surf2d", 1, SIM_TEX_2D, 2},
    {"surf3d", 1, SIM_TEX_3D, 3}, {"surf1dlayered", 1, SIM_TEX_A1D, 2},
    {"surf2dlayered", 1, SIM_TEX_A2D, 3}, {"surfcube", 1, SIM_TEX_CUBE, 1},
    {"surfcubelayered", 1, SIM_TEX_ACUBE, 2},
  };
  static const struct { const char *n; enum run_elem e; uint8_t kind; } types[] = {
    {"u8", RUN_U8, SIM_TEX_UINT}, {"i8", RUN_I8, SIM_TEX_SINT}, {"u16", RUN_U16, SIM_TEX_UINT},
    {"i16", RUN_I16, SIM_TEX_SINT}, {"u32", RUN_U32, SIM_TEX_UINT}, {"i32", RUN_I32, SIM_TEX_SINT},
    {"f16", RUN_F16, SIM_TEX_FLOAT}, {"f32", RUN_F32, SIM_TEX_FLOAT},
  };
  char spec[sizeof a->spec];
  snprintf(spec, sizeof spec, "%s", a->spec);
  size_t k;
  for (k = 0; k < sizeof kinds / sizeof kinds[0] && strcmp(kinds[k].n, kind); k++)
    ;
  const char *c1 = strchr(rest, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
  if (k == sizeof kinds / sizeof kinds[0]) {
    snprintf(err, errlen, "--arg '%s': unknown kind '%s' (tex1d tex2d tex3d tex1dlayered "
             "tex2dlayered texcube texcubelayered surf1d surf2d surf3d surf1dlayered "
             "surf2dlayered surfcube surfcubelayered)", spec, kind);
    return -1;
  }
  if (!c2) {
    snprintf(err, errlen, "--arg '%s': a texture or surface is KIND:DIMS:TYPE[xN]:INIT[:OPTS] "
             "(tex2d:64x32:f32:rand:filter=linear)", spec);
    return -1;
  }
  uint64_t dims[SIM_TMAP_MAX_RANK];
  unsigned nd = parse_xlist(rest, (size_t)(c1 - rest), dims);
  if (nd != kinds[k].ndims) {
    snprintf(err, errlen, "--arg '%s': %s takes %u size%s (%s)", spec, kind, kinds[k].ndims,
             kinds[k].ndims == 1 ? "" : "s",
             kinds[k].ndims == 1 ? "W" : kinds[k].ndims == 2 ? "WxH, or WxLAYERS" : "WxHxD, or WxHxLAYERS");
    return -1;
  }
  for (unsigned d = 0; d < nd; d++)
    if (!dims[d] || dims[d] > 65536) {
      snprintf(err, errlen, "--arg '%s': sizes are 1 to 65536", spec);
      return -1;
    }
  char ty[16];
  size_t tl = (size_t)(c2 - c1 - 1);
  if (tl >= sizeof ty)
    tl = sizeof ty - 1;
  memcpy(ty, c1 + 1, tl);
  ty[tl] = 0;
  unsigned nchan = 1;
  char *x = strchr(ty, 'x');
  if (x) {
    nchan = x[1] == '1' ? 1 : x[1] == '2' ? 2 : x[1] == '4' ? 4 : 0;
    if (x[1] && x[2])
      nchan = 0;
    *x = 0;
  }
  size_t t;
  for (t = 0; t < sizeof types / sizeof types[0] && strcmp(types[t].n, ty); t++)
    ;
  if (t == sizeof types / sizeof types[0] || !nchan) {
    snprintf(err, errlen, "--arg '%s': the texel type is u8 i8 u16 i16 u32 i32 f16 or f32, with "
             "x1, x2 or x4 channels (u8x4)", spec);
    return -1;
  }
  /* INIT, then OPTS when the last field names options */
  const char *init = c2 + 1, *opts = NULL;
  const char *last = strrchr(init, ':');
  if (last && (!strncmp(last + 1, "addr=", 5) || !strncmp(last + 1, "filter=", 7) ||
               !strncmp(last + 1, "norm=", 5) || !strncmp(last + 1, "read=", 5) ||
               !strncmp(last + 1, "res=", 4)))
    opts = last + 1;
  size_t il = opts ? (size_t)(opts - 1 - init) : strlen(init);
  uint64_t w = dims[0], h = 1, dpt = 1;
  if (kinds[k].geom >= SIM_TEX_CUBE) {
    h = w;
    dpt = kinds[k].geom == SIM_TEX_ACUBE ? 6 * dims[1] : 6;
  } else if (kinds[k].geom == SIM_TEX_A1D) {
    dpt = dims[1];
  } else {
    h = nd > 1 ? dims[1] : 1;
    dpt = nd > 2 ? dims[2] : 1;
  }
  char bspec[sizeof a->spec];
  snprintf(bspec, sizeof bspec, "%sbuf:%llu:%.*s", types[t].n,
           (unsigned long long)(w * h * dpt * nchan), (int)il, init);
  struct emu_arg b;
  if (emu_arg_parse(bspec, &b, err, errlen))
    return -1;
  *a = b;
  snprintf(a->spec, sizeof a->spec, "%s", spec);
  a->is_tex = 1;
  struct sim_tex *tx = &a->tex;
  tx->surface = kinds[k].surface;
  tx->geom = kinds[k].geom;
  tx->res = !tx->surface && tx->geom == SIM_TEX_1D ? SIM_TEX_RES_LINEAR : SIM_TEX_RES_ARRAY;
  tx->kind = types[t].kind;
  tx->bits = (uint8_t)(run_elem_size(types[t].e) * 8);
  tx->nchan = (uint8_t)nchan;
  tx->addr_mode[0] = tx->addr_mode[1] = tx->addr_mode[2] = SIM_TEX_CLAMP;
  tx->width = (uint32_t)w;
  tx->height = (uint32_t)h;
  tx->depth = (uint32_t)dpt;
  tx->pitch = w * nchan * run_elem_size(types[t].e);
  while (opts && *opts) {
    size_t n = strcspn(opts, ",");
    char o[32];
    snprintf(o, sizeof o, "%.*s", (int)(n < sizeof o ? n : sizeof o - 1), opts);
    int ok = 1;
    if (!strcmp(o, "addr=clamp") || !strcmp(o, "addr=wrap") || !strcmp(o, "addr=mirror") ||
        !strcmp(o, "addr=border")) {
      uint8_t m = o[5] == 'c' ? SIM_TEX_CLAMP : o[5] == 'w' ? SIM_TEX_WRAP : o[5] == 'm' ? SIM_TEX_MIRROR
                  : SIM_TEX_BORDER;
      tx->addr_mode[0] = tx->addr_mode[1] = tx->addr_mode[2] = m;
    } else if (!strcmp(o, "filter=point") || !strcmp(o, "filter=linear")) {
      tx->linear = o[7] == 'l';
    } else if (!strcmp(o, "norm=0") || !strcmp(o, "norm=1")) {
      tx->norm_coords = o[5] == '1';
    } else if (!strcmp(o, "read=elem") || !strcmp(o, "read=norm")) {
      tx->read_norm = o[5] == 'n';
    } else if (!strcmp(o, "res=array") || !strcmp(o, "res=linear") || !strcmp(o, "res=pitch")) {
      tx->res = o[4] == 'a' ? SIM_TEX_RES_ARRAY : o[4] == 'l' ? SIM_TEX_RES_LINEAR : SIM_TEX_RES_PITCH2D;
    } else {
      ok = 0;
    }
    if (!ok || (tx->surface && o[0] != 'r')) {
      snprintf(err, errlen, "--arg '%s': unknown option '%s' (%s)", spec, o,
               tx->surface ? "a surface takes only res=array" :
               "addr=clamp|wrap|mirror|border, filter=point|linear, norm=0|1, read=elem|norm, "
               "res=array|linear|pitch");
      emu_arg_free(a);
      return -1;
    }
    opts += n + (opts[n] == ',');
  }
  if ((tx->res == SIM_TEX_RES_LINEAR && tx->geom != SIM_TEX_1D) ||
      (tx->res == SIM_TEX_RES_PITCH2D && tx->geom != SIM_TEX_2D) ||
      (tx->surface && tx->res != SIM_TEX_RES_ARRAY)) {
    snprintf(err, errlen, "--arg '%s': res=linear is for tex1d, res=pitch for tex2d, and "
             "surfaces are arrays", spec);
    emu_arg_free(a);
    return -1;
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
  if (!strncmp(type, "tex", 3) || !strncmp(type, "surf", 4))
    return parse_tex(type, colon + 1, a, err, errlen);
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
  free(a->bytes);
  a->bytes = NULL;
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
