/* run_lab.c: load and check a lab definition (see run_lab.h and labs/README.md); its metric
   names are resolved here, against the catalogue (metrics/met_names.def). */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "metrics/occ.h"
#include "run/run_expr.h"
#include "run/run_lab.h"
#include "toolchain/tc_exec.h"
#include "toolchain/tc_file.h"

int run_sizes_get(const struct run_sizes *s, const char *name, int64_t *v)
{
  for (uint32_t i = 0; i < s->n; i++)
    if (!strcmp(s->name[i], name)) {
      *v = s->v[i];
      return 1;
    }
  return 0;
}

int run_sizes_set(struct run_sizes *s, const char *name, int64_t v)
{
  for (uint32_t i = 0; i < s->n; i++)
    if (!strcmp(s->name[i], name)) {
      s->v[i] = v;
      return 0;
    }
  if (s->n == RUN_MAX_VARS || strlen(name) >= sizeof s->name[0])
    return -1;
  snprintf(s->name[s->n], sizeof s->name[0], "%s", name);
  s->v[s->n++] = v;
  return 0;
}

struct ctx {
  const char *file;
  char *err;
  size_t errlen;
  const char *text;           /* the file's text, to find a name's line; NULL if unread */
};

static int bad(struct ctx *c, const char *field, const char *what)
{
  snprintf(c->err, c->errlen, "%s: \"%s\": %s", c->file, field, what);
  return -1;
}

static int get_str(struct ctx *c, json_t *o, const char *key, char *dst, size_t n, int required)
{
  json_t *v = json_object_get(o, key);
  if (!v) {
    if (!required) {
      dst[0] = 0;
      return 0;
    }
    return bad(c, key, "missing");
  }
  if (!json_is_string(v))
    return bad(c, key, "must be a string");
  if (strlen(json_string_value(v)) >= n)
    return bad(c, key, "too long");
  snprintf(dst, n, "%s", json_string_value(v));
  return 0;
}

/* An expression given as a string or an integer. */
static int get_expr(struct ctx *c, json_t *v, const char *field, char *dst)
{
  if (json_is_integer(v)) {
    snprintf(dst, RUN_EXPR_LEN, "%lld", (long long)json_integer_value(v));
    return 0;
  }
  if (!json_is_string(v) || strlen(json_string_value(v)) >= RUN_EXPR_LEN)
    return bad(c, field, "must be an integer or an expression (a string)");
  snprintf(dst, RUN_EXPR_LEN, "%s", json_string_value(v));
  return 0;
}

static int get_sizes(struct ctx *c, json_t *o, const char *field, struct run_sizes *s)
{
  memset(s, 0, sizeof *s);
  if (!json_is_object(o))
    return bad(c, field, "must be an object of named integers");
  const char *k;
  json_t *v;
  json_object_foreach(o, k, v) {
    if (!json_is_integer(v))
      return bad(c, field, "every value must be an integer");
    if (run_sizes_set(s, k, json_integer_value(v)))
      return bad(c, field, "too many names, or a name too long");
  }
  return 0;
}

/* A test: its sizes and choices, optionally "arch", the emulator profile it runs on (lab 07
   checks its reductions on the 64-lane wave64 profile too), and "hidden": true for a test
   only a graded run checks (*hidden). *warp: the profile's warp size (the profile is loaded
   here, once, to check the name). */
static int get_test(struct ctx *c, json_t *o, struct run_sizes *s, char *arch, size_t n,
                    uint32_t *warp, uint8_t *hidden)
{
  json_t *a = json_is_object(o) ? json_object_get(o, "arch") : NULL;
  json_t *h = json_is_object(o) ? json_object_get(o, "hidden") : NULL;
  arch[0] = 0;
  *hidden = json_is_true(h);
  if (h && !json_is_boolean(h))
    return bad(c, "tests.hidden", "must be true or false");
  if (h) {
    json_t *sizes = json_copy(o);
    if (!sizes)
      return bad(c, "tests", "out of memory");
    json_object_del(sizes, "hidden");
    int rc = get_test(c, sizes, s, arch, n, warp, hidden);
    json_decref(sizes);
    *hidden = json_is_true(h);
    return rc;
  }
  if (!a)
    return get_sizes(c, o, "tests", s);
  struct occ_profile prof;
  struct occ_error oe;
  if (!json_is_string(a) || strlen(json_string_value(a)) >= n ||
      occ_profile_load(json_string_value(a), &prof, &oe) != OCC_OK)
    return bad(c, "tests.arch", "must name an architecture profile of harness/arch (\"wave64\")");
  snprintf(arch, n, "%s", json_string_value(a));
  *warp = prof.warp_size == 64 ? 64 : 32;
  json_t *sizes = json_copy(o);
  if (!sizes)
    return bad(c, "tests", "out of memory");
  json_object_del(sizes, "arch");
  int rc = get_sizes(c, sizes, "tests", s);
  json_decref(sizes);
  return rc;
}

static int parse_params(struct ctx *c, json_t *root, struct run_lab *lab)
{
  json_t *ps = json_object_get(root, "params");
  if (!json_is_array(ps) || json_array_size(ps) == 0 || json_array_size(ps) > RUN_MAX_PARAMS)
    return bad(c, "params", "must be an array of 1 to 16 parameters");
  json_t *bufs = json_object_get(root, "buffers");
  size_t i;
  json_t *p;
  json_array_foreach(ps, i, p) {
    struct run_param *rp = &lab->params[i];
    char type[16], role[16];
    if (get_str(c, p, "name", rp->name, sizeof rp->name, 1) || get_str(c, p, "type", type, sizeof type, 1))
      return -1;
    size_t tl = strlen(type);
    int ptr = tl > 0 && type[tl - 1] == '*';
    if (ptr)
      type[tl - 1] = 0;
    if (run_elem_parse(type, &rp->elem) || rp->elem > RUN_LAB_LAST)
      return bad(c, "params", "type must be one of u8 i32 u32 i64 u64 f32 f64, with * for a buffer");
    if (!ptr) {
      rp->role = RUN_ROLE_SCALAR;
      json_t *val = json_object_get(p, "value");
      if (val) {
        if (get_expr(c, val, "params.value", rp->value))
          return -1;
      } else {
        snprintf(rp->value, sizeof rp->value, "%s", rp->name);
      }
      continue;
    }
    if (get_str(c, p, "role", role, sizeof role, 1))
      return -1;
    rp->role = !strcmp(role, "in") ? RUN_ROLE_IN : !strcmp(role, "out") ? RUN_ROLE_OUT
             : !strcmp(role, "inout") ? RUN_ROLE_INOUT : RUN_ROLE_SCALAR;
    if (rp->role == RUN_ROLE_SCALAR)
      return bad(c, "params.role", "must be in, out or inout");
    json_t *b = json_object_get(bufs, rp->name);
    if (!json_is_object(b)) {
      char f[64];
      snprintf(f, sizeof f, "buffers.%s", rp->name);
      return bad(c, f, "missing: every buffer parameter needs its count");
    }
    if (get_expr(c, json_object_get(b, "count"), "buffers.count", rp->count))
      return -1;
    if (get_str(c, b, "init", rp->init, sizeof rp->init, 0))
      return -1;
    if (!rp->init[0])
      snprintf(rp->init, sizeof rp->init, "%s", rp->role == RUN_ROLE_OUT ? "zero" : "rand");
    if (strcmp(rp->init, "rand") && strcmp(rp->init, "zero") && strcmp(rp->init, "iota") &&
        strncmp(rp->init, "fill=", 5) && strncmp(rp->init, "chain=", 6))
      return bad(c, "buffers.init", "must be rand, zero, iota, fill=V or chain=STEP");
    if (!strncmp(rp->init, "chain=", 6) && (rp->elem == RUN_F32 || rp->elem == RUN_F64 ||
                                            strtoll(rp->init + 6, NULL, 0) <= 0))
      return bad(c, "buffers.init", "chain=STEP needs an integer buffer and a positive STEP "
                 "(element i holds (i + STEP) mod count: a pointer chase)");
  }
  lab->nparams = (uint32_t)json_array_size(ps);
  return 0;
}

static int parse_launch(struct ctx *c, json_t *root, struct run_lab *lab)
{
  json_t *l = json_object_get(root, "launch");
  if (!json_is_object(l))
    return bad(c, "launch", "missing: grid and block");
  const char *keys[2] = {"grid", "block"};
  for (int k = 0; k < 2; k++) {
    char (*dst)[RUN_EXPR_LEN] = k ? lab->block : lab->grid;
    json_t *a = json_object_get(l, keys[k]);
    if (!json_is_array(a) || json_array_size(a) < 1 || json_array_size(a) > 3)
      return bad(c, keys[k], "must be an array of 1 to 3 dimensions");
    for (size_t d = 0; d < 3; d++) {
      if (d < json_array_size(a)) {
        if (get_expr(c, json_array_get(a, d), keys[k], dst[d]))
          return -1;
      } else {
        snprintf(dst[d], RUN_EXPR_LEN, "1");
      }
    }
  }
  json_t *co = json_object_get(l, "cooperative"), *cl = json_object_get(l, "cluster");
  if (co && !json_is_boolean(co))
    return bad(c, "launch.cooperative", "must be true or false");
  lab->cooperative = json_is_true(co);
  memset(lab->cluster, 0, sizeof lab->cluster);
  if (cl) {
    if (!json_is_array(cl) || json_array_size(cl) < 1 || json_array_size(cl) > 3)
      return bad(c, "launch.cluster", "must be an array of 1 to 3 positive integers");
    for (size_t d = 0; d < 3; d++) {
      json_t *v = json_array_get(cl, d);
      if (d < json_array_size(cl) && (!json_is_integer(v) || json_integer_value(v) < 1 ||
                                      json_integer_value(v) > 1024))
        return bad(c, "launch.cluster", "must be an array of 1 to 3 positive integers");
      lab->cluster[d] = d < json_array_size(cl) ? (uint32_t)json_integer_value(v) : 1;
    }
  }
  json_t *sm = json_object_get(l, "smem");
  if (sm)
    return get_expr(c, sm, "launch.smem", lab->smem);
  snprintf(lab->smem, sizeof lab->smem, "0");
  return 0;
}

static int parse_sweeps(struct ctx *c, json_t *root, struct run_lab *lab)
{
  json_t *sw = json_object_get(root, "sweeps");
  if (!sw)
    return 0;
  if (!json_is_array(sw) || json_array_size(sw) > RUN_MAX_SWEEPS)
    return bad(c, "sweeps", "must be an array of at most 4 sweeps");
  size_t i;
  json_t *s;
  json_array_foreach(sw, i, s) {
    struct run_sweep *rs = &lab->sweeps[i];
    if (get_str(c, s, "name", rs->name, sizeof rs->name, 1))
      return -1;
    json_t *set = json_object_get(s, "set"), *vals = json_object_get(s, "values");
    if (!json_is_array(set) || !json_array_size(set) || json_array_size(set) > 4)
      return bad(c, "sweeps.set", "must list 1 to 4 choices");
    for (size_t k = 0; k < json_array_size(set); k++) {
      json_t *n = json_array_get(set, k);
      int64_t dummy;
      if (!json_is_string(n) || !run_sizes_get(&lab->choices, json_string_value(n), &dummy))
        return bad(c, "sweeps.set", "every name must be one of the lab's choices");
      snprintf(rs->set[k], sizeof rs->set[k], "%s", json_string_value(n));
    }
    rs->nset = (uint32_t)json_array_size(set);
    if (!json_is_array(vals) || !json_array_size(vals) || json_array_size(vals) > RUN_MAX_POINTS)
      return bad(c, "sweeps.values", "must hold 1 to 32 rows");
    for (size_t r = 0; r < json_array_size(vals); r++) {
      json_t *row = json_array_get(vals, r);
      if (!json_is_array(row) || json_array_size(row) != rs->nset)
        return bad(c, "sweeps.values", "every row needs one integer per name in set");
      for (size_t k = 0; k < rs->nset; k++) {
        if (!json_is_integer(json_array_get(row, k)))
          return bad(c, "sweeps.values", "values must be integers");
        rs->values[r][k] = json_integer_value(json_array_get(row, k));
      }
    }
    rs->npoints = (uint32_t)json_array_size(vals);
  }
  lab->nsweeps = (uint32_t)json_array_size(sw);
  return 0;
}

/* "lane_charts": pictures of one warp from the emulator's lane log (labs/README.md). */
static int parse_lane_charts(struct ctx *c, json_t *root, struct run_lab *lab)
{
  json_t *lc = json_object_get(root, "lane_charts");
  if (!lc)
    return 0;
  if (!json_is_array(lc) || json_array_size(lc) > RUN_MAX_LANE_CHARTS)
    return bad(c, "lane_charts", "must be an array of at most 8 charts");
  size_t i;
  json_t *d;
  json_array_foreach(lc, i, d) {
    struct run_lane_chart *x = &lab->lane_charts[i];
    char kind[16] = "", access[16] = "";
    if (!json_is_object(d))
      return bad(c, "lane_charts", "every chart must be an object");
    if (get_str(c, d, "name", x->name, sizeof x->name, 1) ||
        get_str(c, d, "kind", kind, sizeof kind, 1) ||
        get_str(c, d, "title", x->title, sizeof x->title, 0) ||
        get_str(c, d, "sweep", x->sweep, sizeof x->sweep, 0) ||
        get_str(c, d, "access", access, sizeof access, 0))
      return -1;
    for (const char *p = x->name; *p; p++)
      if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            *p == '-' || *p == '_'))
        return bad(c, "lane_charts.name", "may hold only letters, digits, '-' and '_' (it names "
                   "the chart's files)");
    if (!x->name[0])
      return bad(c, "lane_charts.name", "must not be empty");
    for (size_t k = 0; k < i; k++)
      if (!strcmp(lab->lane_charts[k].name, x->name))
        return bad(c, "lane_charts.name", "two charts of one name");
    x->kind = !strcmp(kind, "sectors") ? RUN_LANES_SECTORS : !strcmp(kind, "banks") ? RUN_LANES_BANKS
            : RUN_LANES_TIMELINE;
    if (strcmp(kind, "sectors") && strcmp(kind, "banks") && strcmp(kind, "timeline"))
      return bad(c, "lane_charts.kind", "must be sectors, banks or timeline");
    x->access = !strcmp(access, "load") ? RUN_LANES_LOAD : !strcmp(access, "store")
              ? RUN_LANES_STORE : RUN_LANES_ANY;
    if (access[0] && x->access == RUN_LANES_ANY)
      return bad(c, "lane_charts.access", "must be load or store");
    json_t *ln = json_object_get(d, "line");
    if (json_is_integer(ln) && json_integer_value(ln) > 0 && json_integer_value(ln) < 1000000)
      x->line = (uint32_t)json_integer_value(ln);
    else if (json_is_string(ln) && *json_string_value(ln) &&
             strlen(json_string_value(ln)) < sizeof x->marker)
      snprintf(x->marker, sizeof x->marker, "%s", json_string_value(ln));
    else if (ln)
      return bad(c, "lane_charts.line", "must be a source line number or a text the line holds");
    json_t *w = json_object_get(d, "warp");
    if (w) {
      if (!json_is_array(w) || json_array_size(w) != 2 ||
          !json_is_integer(json_array_get(w, 0)) || !json_is_integer(json_array_get(w, 1)) ||
          json_integer_value(json_array_get(w, 0)) < 0 ||
          json_integer_value(json_array_get(w, 0)) > 0x7fffffff ||
          json_integer_value(json_array_get(w, 1)) < 0 || json_integer_value(json_array_get(w, 1)) > 31)
        return bad(c, "lane_charts.warp", "must be [B, W]: a linear block index and a warp in it");
      x->block = (uint32_t)json_integer_value(json_array_get(w, 0));
      x->warp = (uint32_t)json_integer_value(json_array_get(w, 1));
    }
    json_t *pt = json_object_get(d, "point");
    if (x->sweep[0]) {
      const struct run_sweep *sw = NULL;
      for (uint32_t k = 0; k < lab->nsweeps; k++)
        if (!strcmp(lab->sweeps[k].name, x->sweep))
          sw = &lab->sweeps[k];
      if (!sw)
        return bad(c, "lane_charts.sweep", "must be one of the lab's sweeps");
      if (json_is_integer(pt))
        snprintf(x->point, sizeof x->point, "%lld", (long long)json_integer_value(pt));
      else if (!json_is_string(pt) || get_str(c, d, "point", x->point, sizeof x->point, 1))
        return bad(c, "lane_charts.point", "must name a point of the sweep by its label (\"2\", "
                   "\"32x8\")");
      int found = 0;
      for (uint32_t r = 0; r < sw->npoints && !found; r++) {
        char label[64];
        size_t k = 0;
        label[0] = 0;
        for (uint32_t v = 0; v < sw->nset && k < sizeof label; v++)
          k += (size_t)snprintf(label + k, sizeof label - k, "%s%lld", v ? "x" : "",
                                (long long)sw->values[r][v]);
        found = !strcmp(label, x->point);
      }
      if (!found)
        return bad(c, "lane_charts.point", "is not a point of its sweep (labels are the values, "
                   "joined by x)");
    } else if (pt) {
      return bad(c, "lane_charts.point", "needs a sweep");
    }
    for (size_t k = 0; k < i; k++) {    /* one lane log per configuration */
      const struct run_lane_chart *o = &lab->lane_charts[k];
      if (!strcmp(o->sweep, x->sweep) && !strcmp(o->point, x->point) &&
          (o->block != x->block || o->warp != x->warp))
        return bad(c, "lane_charts.warp", "charts of one configuration must show the same warp");
    }
  }
  lab->nlane_charts = (uint32_t)json_array_size(lc);
  return 0;
}

/* ---- metric names: resolved in the catalogue ---- */

/* The line of lab.json where s first appears as a whole string ("s"), else anywhere; 0 when
   it is not there as written (a string spelled with escapes). */
/* The line of text (a file's, or NULL) holding s: as a whole JSON string first, else
   anywhere. 0 when unknown. */
static int text_line(const char *text, const char *s)
{
  size_t n = strlen(s);
  const char *at = NULL;
  if (!text || !n)
    return 0;
  for (const char *q = strchr(text, '"'); q && !at; q = strchr(q + 1, '"'))
    if (!strncmp(q + 1, s, n) && q[n + 1] == '"')
      at = q;
  if (!at)
    at = strstr(text, s);
  if (!at)
    return 0;
  int line = 1;
  for (const char *q = text; q < at; q++)
    line += *q == '\n';
  return line;
}

static int line_of(const struct ctx *c, const char *s)
{
  return text_line(c->text, s);
}

/* Refuse name (len characters), found in the string where of field: "FILE:LINE: \"field\":
   what 'name' (did you mean 'x'?)", the suggestion the catalogue's nearest name. */
static int unknown_name(struct ctx *c, const char *field, const char *where, const char *name,
                        size_t len, const char *what)
{
  char at[32] = "", hint[160] = "", in[RUN_EXPR_LEN + 16] = "";
  int line = line_of(c, where);
  const char *near = met_nearest(name, len);
  if (line)
    snprintf(at, sizeof at, ":%d", line);
  if (near)
    snprintf(hint, sizeof hint, " (did you mean '%s'?)", near);
  if (strlen(where) != len)
    snprintf(in, sizeof in, "'%.*s': ", RUN_EXPR_LEN, where);
  snprintf(c->err, c->errlen, "%s%s: \"%s\": %s%s '%.*s'%s", c->file, at, field, in, what,
           (int)len, name, hint);
  return -1;
}

/* name's id in the catalogue into *id: 0, or -1 with the error. */
static int resolve_metric(struct ctx *c, const char *field, const char *name, enum met_id *id)
{
  if (!met_lookup(name, strlen(name), id))
    return 0;
  return unknown_name(c, field, name, name, strlen(name), "unknown metric");
}

/* Whether name (len characters) is a number of an architecture profile (occ_profile.def's
   INT, BYTES, REAL and BOOL keys), as chart expressions may use. */
static int is_profile_number(const char *name, size_t len)
{
  static const char *const keys[] = {
#define PN_STR(k)
#define PN_KBLIST(k)
#define PN_INT(k) #k,
#define PN_BYTES(k) #k,
#define PN_REAL(k) #k,
#define PN_BOOL(k) #k,
#define X(key, kind, required, meaning) PN_##kind(key)
#include "metrics/occ_profile.def"
#undef X
#undef PN_STR
#undef PN_KBLIST
#undef PN_INT
#undef PN_BYTES
#undef PN_REAL
#undef PN_BOOL
  };
  for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
    if (strlen(keys[i]) == len && !strncmp(keys[i], name, len))
      return 1;
  return 0;
}

static int sizes_have(const struct run_sizes *s, const char *name, size_t len)
{
  for (uint32_t i = 0; i < s->n; i++)
    if (strlen(s->name[i]) == len && !strncmp(s->name[i], name, len))
      return 1;
  return 0;
}

/* Whether a chart expression may use name: a metric of the catalogue, a choice, a problem
   size (emulator, GPU or test) or a profile number. */
static int chart_name_known(const struct run_lab *lab, const char *name, size_t len)
{
  enum met_id id;
  if (!met_lookup(name, len, &id) || is_profile_number(name, len) ||
      sizes_have(&lab->choices, name, len) || sizes_have(&lab->emu, name, len) ||
      sizes_have(&lab->gpu, name, len))
    return 1;
  for (uint32_t i = 0; i < lab->ntests; i++)
    if (sizes_have(&lab->tests[i], name, len))
      return 1;
  return 0;
}

/* What a chart expression's names are checked against, and where an error is said. */
struct expr_names {
  struct ctx *c;
  const struct run_lab *lab;
  const char *field, *text;
};

static int expr_name(void *ctx, const char *name, size_t len)
{
  const struct expr_names *x = ctx;
  if (chart_name_known(x->lab, name, len))
    return 0;
  int metric_like = len == strlen(x->text) || memmem(name, len, "__", 2) != NULL;
  return unknown_name(x->c, x->field, x->text, name, len, metric_like ? "unknown metric"
                      : "unknown name (no metric, choice, size or profile number)");
}

/* Resolve every name of a chart expression, as the charts' grammar reads them
   (run_expr_names); its syntax was checked by run_charts_parse. */
static int resolve_expr(struct ctx *c, const struct run_lab *lab, const char *field,
                        const char *text)
{
  struct expr_names x = {.c = c, .lab = lab, .field = field, .text = text};
  return run_expr_names(text, expr_name, &x) ? -1 : 0;
}

/* The names in the charts: each y, x and predict. */
static int resolve_charts(struct ctx *c, const struct run_lab *lab)
{
  for (uint32_t i = 0; i < lab->ncharts; i++) {
    const struct run_chart *ch = &lab->charts[i];
    for (uint32_t k = 0; k < ch->nseries; k++)
      if (resolve_expr(c, lab, "charts.y", ch->metric[k]))
        return -1;
    if ((ch->x[0] && resolve_expr(c, lab, "charts.x", ch->x)) ||
        (ch->predict[0] && resolve_expr(c, lab, "charts.predict", ch->predict)))
      return -1;
  }
  return 0;
}

/* ---- "charts" ---- */

static int copy_str(char *dst, size_t n, const char *src)
{
  size_t len = strlen(src);
  if (len >= n)
    return -1;
  memcpy(dst, src, len + 1);
  return 0;
}

/* Whether name is one of the lab's sweeps. */
static int lab_has_sweep(const struct run_lab *lab, const char *name)
{
  for (uint32_t k = 0; k < lab->nsweeps; k++)
    if (!strcmp(lab->sweeps[k].name, name))
      return 1;
  return 0;
}

/* A text field of def into dst (absent: left as it is). Returns 0, or -1 with err. */
static int chart_text(json_t *def, const char *key, char *dst, size_t size, const char *where,
                      char *err, size_t errlen)
{
  json_t *v = json_object_get(def, key);
  if (!v)
    return 0;
  if (!json_is_string(v) || copy_str(dst, size, json_string_value(v))) {
    snprintf(err, errlen, "%s: \"%s\" must be a string of at most %zu characters", where, key,
             size - 1);
    return -1;
  }
  return 0;
}

/* Where a chart's field is, for messages: the file, the chart, the file's text (for the
   line of an expression; NULL when not read). */
struct chart_at {
  const char *file, *chart, *text;
};

/* The syntax of expression text, field ("\"x\"", "\"y\"[0]") of a chart, checked as a real
   expression.
   Returns 0, or -1 with err: "labs/03-x/lab.json:57: chart 'bw': \"x\": 'WARPS +':
   unexpected end at column 8". */
static int chart_syntax(const struct chart_at *at, const char *field, const char *text,
                        char *err, size_t errlen)
{
  char e[512], line[32] = "";
  if (!run_expr_real_check(text, e, sizeof e))
    return 0;
  int n = text_line(at->text, text);
  if (n)
    snprintf(line, sizeof line, ":%d", n);
  snprintf(err, errlen, "%s%s: %s: %s: %s", at->file, line, at->chart, field, e);
  return -1;
}

/* An expression field: its syntax checked. Returns 0, or -1 with err. */
static int chart_expr(json_t *def, const char *key, char *dst, size_t size, const char *where,
                      const struct chart_at *at, char *err, size_t errlen)
{
  if (chart_text(def, key, dst, size, where, err, errlen))
    return -1;
  char field[32];
  snprintf(field, sizeof field, "\"%s\"", key);
  return dst[0] ? chart_syntax(at, field, dst, err, errlen) : 0;
}

static int chart_bool(json_t *def, const char *key, int *out, const char *where, char *err,
                      size_t errlen)
{
  json_t *v = json_object_get(def, key);
  if (v && !json_is_boolean(v)) {
    snprintf(err, errlen, "%s: \"%s\" must be true or false", where, key);
    return -1;
  }
  *out = v && json_is_true(v);
  return 0;
}

/* The line chart's own fields: x, xlabel, xlog, sweeps, predict, predict_label. Returns 0,
   or -1 with err. */
static int chart_lines(const struct run_lab *lab, json_t *def, struct run_chart *c,
                       const char *where, const struct chart_at *at, char *err, size_t errlen)
{
  if (chart_expr(def, "x", c->x, sizeof c->x, where, at, err, errlen) ||
      chart_text(def, "xlabel", c->xlabel, sizeof c->xlabel, where, err, errlen) ||
      chart_bool(def, "xlog", &c->xlog, where, err, errlen) ||
      chart_expr(def, "predict", c->predict, sizeof c->predict, where, at, err, errlen) ||
      chart_text(def, "predict_label", c->predict_label, sizeof c->predict_label, where, err,
                 errlen))
    return -1;
  if (!c->x[0]) {
    snprintf(err, errlen, "%s: a line chart needs \"x\": a choice, a metric or an expression "
             "over them", where);
    return -1;
  }
  if (!c->predict_label[0])
    snprintf(c->predict_label, sizeof c->predict_label, "prediction");
  json_t *sweeps = json_object_get(def, "sweeps");
  if (sweeps && c->sweep[0]) {
    snprintf(err, errlen, "%s: give \"sweep\" or \"sweeps\", not both", where);
    return -1;
  }
  if (sweeps) {
    if (!json_is_array(sweeps) || json_array_size(sweeps) == 0 ||
        json_array_size(sweeps) > RUN_MAX_SWEEPS) {
      snprintf(err, errlen, "%s: \"sweeps\" must list 1 to %d sweeps", where, RUN_MAX_SWEEPS);
      return -1;
    }
    for (size_t k = 0; k < json_array_size(sweeps); k++) {
      const char *n = json_string_value(json_array_get(sweeps, k));
      if (!n || copy_str(c->sweeps[k], sizeof c->sweeps[k], n) || !lab_has_sweep(lab, n)) {
        snprintf(err, errlen, "%s: \"sweeps\"[%zu] '%s' is not one of the lab's sweeps", where,
                 k, n ? n : "?");
        return -1;
      }
    }
    c->nsweeps = (uint32_t)json_array_size(sweeps);
  } else if (c->sweep[0]) {
    memcpy(c->sweeps[0], c->sweep, sizeof c->sweeps[0]);
    c->nsweeps = 1;
  } else {
    snprintf(err, errlen, "%s: a line chart needs \"sweep\" or \"sweeps\"", where);
    return -1;
  }
  return 0;
}

/* charts[index], def, into c; text: the file's, for lines (or NULL). Returns 0, or -1 with
   err. */
static int chart_parse(const struct run_lab *lab, json_t *def, size_t index, const char *text,
                       struct run_chart *c, char *err, size_t errlen)
{
  memset(c, 0, sizeof *c);
  c->scale = 1.0;
  char where[1200];
  snprintf(where, sizeof where, "%s/%s: charts[%zu]", lab->dir, lab->charts_from, index);
  if (!json_is_object(def)) {
    snprintf(err, errlen, "%s: expected an object", where);
    return -1;
  }
  const char *name = json_string_value(json_object_get(def, "name"));
  if (!name || !*name || copy_str(c->name, sizeof c->name, name)) {
    snprintf(err, errlen, "%s: \"name\" must be a string of 1 to %zu characters (it names the "
             "chart's files)", where, sizeof c->name - 1);
    return -1;
  }
  for (const char *p = name; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
          *p == '-' || *p == '_')) {
      snprintf(err, errlen, "%s: \"name\" '%s' may hold only letters, digits, '-' and '_' (it "
               "names the chart's files)", where, name);
      return -1;
    }
  snprintf(where, sizeof where, "%s/%s: chart '%s'", lab->dir, lab->charts_from, name);
  char file[1100], chart[96];
  snprintf(file, sizeof file, "%s/%s", lab->dir, lab->charts_from);
  snprintf(chart, sizeof chart, "chart '%s'", name);
  struct chart_at at = {file, chart, text};
  if (chart_text(def, "title", c->title, sizeof c->title, where, err, errlen) ||
      chart_text(def, "sweep", c->sweep, sizeof c->sweep, where, err, errlen) ||
      chart_text(def, "ylabel", c->ylabel, sizeof c->ylabel, where, err, errlen))
    return -1;
  if (!c->title[0])
    snprintf(c->title, sizeof c->title, "%s", name);
  if (c->sweep[0] && !lab_has_sweep(lab, c->sweep)) {
    snprintf(err, errlen, "%s: \"sweep\" '%s' is not one of the lab's sweeps", where, c->sweep);
    return -1;
  }
  json_t *style = json_object_get(def, "style");
  const char *st = json_string_value(style);
  if (style && (!st || (strcmp(st, "bars") && strcmp(st, "lines")))) {
    snprintf(err, errlen, "%s: \"style\" must be \"bars\" or \"lines\"", where);
    return -1;
  }
  c->lines = st && !strcmp(st, "lines");
  static const char *const line_keys[] = {"x", "xlabel", "xlog", "sweeps", "predict",
                                          "predict_label"};
  for (size_t k = 0; !c->lines && k < sizeof line_keys / sizeof *line_keys; k++)
    if (json_object_get(def, line_keys[k])) {
      snprintf(err, errlen, "%s: \"%s\" belongs to line charts (\"style\": \"lines\")", where,
               line_keys[k]);
      return -1;
    }
  if (c->lines && chart_lines(lab, def, c, where, &at, err, errlen))
    return -1;
  if (chart_bool(def, "log", &c->log, where, err, errlen))
    return -1;
  json_t *scale = json_object_get(def, "scale");
  if (scale) {
    if (!json_is_number(scale) || !(json_number_value(scale) > 0) ||
        !isfinite(json_number_value(scale))) {
      snprintf(err, errlen, "%s: \"scale\" must be a positive number (each value is multiplied "
               "by it)", where);
      return -1;
    }
    c->scale = json_number_value(scale);
  }
  json_t *y = json_object_get(def, "y");
  if (!json_is_array(y) || json_array_size(y) == 0 || json_array_size(y) > RUN_CHART_SERIES) {
    snprintf(err, errlen, "%s: \"y\" must list 1 to %d metric names", where, RUN_CHART_SERIES);
    return -1;
  }
  if (c->lines && json_array_size(y) * c->nsweeps > RUN_CHART_SERIES) {
    snprintf(err, errlen, "%s: %zu metrics of \"y\" over %u sweeps make %zu lines: at most %d",
             where, json_array_size(y), c->nsweeps, json_array_size(y) * c->nsweeps,
             RUN_CHART_SERIES);
    return -1;
  }
  if (c->lines && c->predict[0] && json_array_size(y) >= RUN_CHART_SERIES) {
    snprintf(err, errlen, "%s: with \"predict\", \"y\" may list at most %d metrics", where,
             RUN_CHART_SERIES - 1);
    return -1;
  }
  json_t *labels = json_object_get(def, "labels");
  if (labels && (!json_is_array(labels) || json_array_size(labels) != json_array_size(y))) {
    snprintf(err, errlen, "%s: \"labels\" must give one label per metric of \"y\"", where);
    return -1;
  }
  c->nseries = (uint32_t)json_array_size(y);
  for (uint32_t s = 0; s < c->nseries; s++) {
    const char *m = json_string_value(json_array_get(y, s));
    if (!m || !*m || copy_str(c->metric[s], sizeof c->metric[s], m)) {
      snprintf(err, errlen, "%s: \"y\"[%u] must be a metric name, or an expression of at most "
               "%zu characters", where, s, sizeof c->metric[s] - 1);
      return -1;
    }
    c->is_expr[s] = !run_expr_is_name(m);
    char field[32];
    snprintf(field, sizeof field, "\"y\"[%u]", s);
    if (c->is_expr[s] && chart_syntax(&at, field, m, err, errlen))
      return -1;
    const char *l = labels ? json_string_value(json_array_get(labels, s)) : NULL;
    if (labels && (!l || !*l || copy_str(c->label[s], sizeof c->label[s], l))) {
      snprintf(err, errlen, "%s: \"labels\"[%u] must be a string of 1 to %zu characters", where,
               s, sizeof c->label[s] - 1);
      return -1;
    }
    if (!labels)   /* one series: the chart's name says what it is ("time"); else the metric */
      snprintf(c->label[s], sizeof c->label[s], "%s", c->nseries == 1 ? c->name : c->metric[s]);
  }
  return 0;
}

/* run_charts_parse, with the file's text for the lines of messages (or NULL). */
static int charts_parse(json_t *root, const char *from, const char *text, struct run_lab *lab,
                        char *err, size_t errlen)
{
  lab->ncharts = 0;
  snprintf(lab->charts_from, sizeof lab->charts_from, "%s", from);
  json_t *charts = json_is_object(root) ? json_object_get(root, "charts") : NULL;
  if (!charts)
    return 0;
  if (!json_is_array(charts)) {
    snprintf(err, errlen, "%s/%s: \"charts\" must be an array", lab->dir, from);
    return -1;
  }
  if (json_array_size(charts) > RUN_MAX_CHARTS) {
    snprintf(err, errlen, "%s/%s: \"charts\" lists %zu charts: at most %d", lab->dir, from,
             json_array_size(charts), RUN_MAX_CHARTS);
    return -1;
  }
  for (size_t i = 0; i < json_array_size(charts); i++)
    if (chart_parse(lab, json_array_get(charts, i), i, text, &lab->charts[i], err, errlen)) {
      lab->ncharts = 0;
      return -1;
    }
  lab->ncharts = (uint32_t)json_array_size(charts);
  return 0;
}

int run_charts_parse(json_t *root, const char *from, struct run_lab *lab, char *err,
                     size_t errlen)
{
  return charts_parse(root, from, NULL, lab, err, errlen);
}

/* The number at key of o into *v (fallback when absent; *has, when asked, whether it is
   there). Returns 0, or -1 with the error when it is there but not a number. */
static int rubric_number(struct ctx *c, json_t *o, const char *key, const char *field,
                         double fallback, double *v, int *has)
{
  json_t *x = json_object_get(o, key);
  if (has)
    *has = x != NULL;
  *v = fallback;
  if (!x)
    return 0;
  if (!json_is_number(x))
    return bad(c, field, "must be a number");
  *v = json_number_value(x);
  return 0;
}

/* The string at key of o into out ("" when absent and not required). Returns 0, or -1 with
   the error. */
static int rubric_string(struct ctx *c, json_t *o, const char *key, const char *field, char *out,
                         size_t n, int required)
{
  json_t *x = json_object_get(o, key);
  out[0] = 0;
  if (!x)
    return required ? bad(c, field, "missing") : 0;
  if (!json_is_string(x) || strlen(json_string_value(x)) >= n)
    return bad(c, field, "must be a string (of reasonable length)");
  snprintf(out, n, "%s", json_string_value(x));
  return 0;
}

/* A part of the rubric: absent (0, *has 0), an object (0, *has 1), or an error. */
static int rubric_part(struct ctx *c, json_t *rubric, const char *key, const char *field,
                       json_t **part, int *has)
{
  *part = json_object_get(rubric, key);
  *has = *part != NULL;
  return *part && !json_is_object(*part) ? bad(c, field, "must be an object") : 0;
}

/* rubric.metrics.targets: {"metric": NAME, "max" and/or "min": N, "points": N, "why": TEXT} */
static int rubric_targets(struct ctx *c, json_t *m, struct run_rubric *r)
{
  json_t *ts = json_object_get(m, "targets"), *t;
  if (ts && !json_is_array(ts))
    return bad(c, "rubric.metrics.targets", "must be an array");
  if (json_array_size(ts) > RUN_MAX_TARGETS)
    return bad(c, "rubric.metrics.targets", "too many (at most 16)");
  size_t i;
  json_array_foreach(ts, i, t) {
    struct run_target *x = &r->targets[r->ntargets++];
    if (!json_is_object(t))
      return bad(c, "rubric.metrics.targets", "each must be an object");
    if (rubric_string(c, t, "metric", "rubric.metrics.targets.metric", x->metric,
                      sizeof x->metric, 1) ||
        resolve_metric(c, "rubric.metrics.targets.metric", x->metric, &x->id) ||
        rubric_number(c, t, "max", "rubric.metrics.targets.max", 0, &x->max, &x->has_max) ||
        rubric_number(c, t, "min", "rubric.metrics.targets.min", 0, &x->min, &x->has_min) ||
        rubric_number(c, t, "points", "rubric.metrics.targets.points", 0, &x->points, NULL) ||
        rubric_string(c, t, "why", "rubric.metrics.targets.why", x->why, sizeof x->why, 0))
      return -1;
    if (!x->has_max && !x->has_min)
      return bad(c, "rubric.metrics.targets", "each needs a \"max\" or a \"min\"");
  }
  return 0;
}

/* rubric.questions.items: {"id": ID, "answer": N, "tolerance": N, "unit", "section",
   "method": "pencil" | "measure"} */
static int rubric_questions(struct ctx *c, json_t *q, struct run_rubric *r)
{
  json_t *items = json_object_get(q, "items"), *x;
  if (items && !json_is_array(items))
    return bad(c, "rubric.questions.items", "must be an array");
  if (json_array_size(items) > RUN_MAX_QUESTIONS)
    return bad(c, "rubric.questions.items", "too many (at most 32)");
  size_t i;
  json_array_foreach(items, i, x) {
    struct run_question *y = &r->questions[r->nquestions++];
    char method[16];
    if (!json_is_object(x))
      return bad(c, "rubric.questions.items", "each must be an object");
    if (rubric_string(c, x, "id", "rubric.questions.items.id", y->id, sizeof y->id, 1) ||
        rubric_string(c, x, "unit", "rubric.questions.items.unit", y->unit, sizeof y->unit, 0) ||
        rubric_string(c, x, "section", "rubric.questions.items.section", y->section,
                      sizeof y->section, 0) ||
        rubric_string(c, x, "method", "rubric.questions.items.method", method, sizeof method, 0) ||
        rubric_number(c, x, "answer", "rubric.questions.items.answer", 0, &y->answer,
                      &y->has_answer) ||
        rubric_number(c, x, "tolerance", "rubric.questions.items.tolerance", 0, &y->tolerance,
                      NULL))
      return -1;
    y->pencil = !strcmp(method, "pencil");
  }
  return 0;
}

/* "rubric": {"total", "correctness", "metrics", "performance", "questions"}, each part
   {"points": N, ...}; metric names resolved in the catalogue. */
static int parse_rubric(struct ctx *c, json_t *root, struct run_rubric *r)
{
  memset(r, 0, sizeof *r);
  json_t *rubric = json_object_get(root, "rubric"), *part;
  if (!rubric)
    return 0;
  if (!json_is_object(rubric))
    return bad(c, "rubric", "must be an object");
  r->present = 1;
  if (rubric_number(c, rubric, "total", "rubric.total", 0, &r->total, &r->has_total))
    return -1;
  if (rubric_part(c, rubric, "correctness", "rubric.correctness", &part, &r->has_correctness) ||
      rubric_number(c, part, "points", "rubric.correctness.points", 0, &r->correctness_points,
                    NULL))
    return -1;
  if (rubric_part(c, rubric, "metrics", "rubric.metrics", &part, &r->has_metrics) ||
      rubric_number(c, part, "points", "rubric.metrics.points", 0, &r->metrics_points, NULL) ||
      rubric_targets(c, part, r))
    return -1;
  enum met_id id;
  if (rubric_part(c, rubric, "performance", "rubric.performance", &part, &r->has_performance) ||
      rubric_number(c, part, "points", "rubric.performance.points", 0, &r->performance_points,
                    NULL) ||
      rubric_string(c, part, "metric", "rubric.performance.metric", r->performance_metric,
                    sizeof r->performance_metric, 0) ||
      (r->performance_metric[0] &&
       resolve_metric(c, "rubric.performance.metric", r->performance_metric, &id)) ||
      rubric_number(c, part, "full_within", "rubric.performance.full_within", 1.2,
                    &r->full_within, NULL) ||
      rubric_number(c, part, "zero_beyond", "rubric.performance.zero_beyond", 10,
                    &r->zero_beyond, NULL))
    return -1;
  if (rubric_part(c, rubric, "questions", "rubric.questions", &part, &r->has_questions) ||
      rubric_number(c, part, "points", "rubric.questions.points", 0, &r->questions_points, NULL) ||
      rubric_questions(c, part, r))
    return -1;
  return 0;
}

int run_rubric_parse(json_t *root, const char *file, struct run_rubric *r, char *err,
                     size_t errlen)
{
  struct ctx c = {file, err, errlen, NULL};
  return parse_rubric(&c, root, r);
}

/* Every expression must evaluate with the emulator sizes and the default choices. */
static int check_exprs(struct ctx *c, struct run_lab *lab)
{
  struct run_var vars[2 * RUN_MAX_VARS];
  size_t n = 0;
  for (uint32_t i = 0; i < lab->emu.n; i++)
    vars[n++] = (struct run_var){lab->emu.name[i], lab->emu.v[i]};
  for (uint32_t i = 0; i < lab->choices.n; i++)
    vars[n++] = (struct run_var){lab->choices.name[i], lab->choices.v[i]};
  char e[256];
  int64_t v;
  for (uint32_t i = 0; i < lab->nparams; i++) {
    const char *x = lab->params[i].role == RUN_ROLE_SCALAR ? lab->params[i].value : lab->params[i].count;
    if (run_expr_eval(x, vars, n, &v, e, sizeof e))
      return bad(c, lab->params[i].name, e);
  }
  for (int d = 0; d < 3; d++)
    if (run_expr_eval(lab->grid[d], vars, n, &v, e, sizeof e) ||
        run_expr_eval(lab->block[d], vars, n, &v, e, sizeof e))
      return bad(c, "launch", e);
  if (run_expr_eval(lab->smem, vars, n, &v, e, sizeof e))
    return bad(c, "launch.smem", e);
  return 0;
}

/* Whether lab folder name ("01-matrix-add") is the one `which` names, in any natural form:
   "01-matrix-add", "01", "1", "matrix-add". */
static int lab_name_matches(const char *name, const char *which, size_t wl)
{
  if (!strcmp(name, which) || (!strncmp(name, which, wl) && name[wl] == '-'))
    return 1;
  size_t digits = strspn(which, "0123456789"), nd = strspn(name, "0123456789");
  if (digits && !which[digits] && nd && (name[nd] == '-' || !name[nd])) {   /* "1" for "01" */
    const char *a = which, *b = name;
    while (*a == '0' && a[1] >= '0' && a[1] <= '9')
      a++;
    while (*b == '0' && b[1] >= '0' && b[1] <= '9')
      b++;
    size_t la = digits - (size_t)(a - which), lb = nd - (size_t)(b - name);
    return la == lb && !strncmp(a, b, la);
  }
  return nd && name[nd] == '-' && !strcmp(name + nd + 1, which);   /* "matrix-add" */
}

static int find_dir(const char *which, const char *labs_dir, char *out, size_t n, char *err,
                    size_t errlen)
{
  struct stat st;
  if (strchr(which, '/') && stat(which, &st) == 0 && S_ISDIR(st.st_mode)) {
    snprintf(out, n, "%s", which);
    return 0;
  }
  const char *ld = labs_dir ? labs_dir : "labs";
  DIR *d = opendir(ld);
  if (!d) {
    snprintf(err, errlen, "cannot open the labs folder %s (run warplab from the repository, or "
             "set WARPLAB_HOME)", ld);
    return -1;
  }
  struct dirent *e;
  size_t wl = strlen(which);
  int found = 0;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.')
      continue;
    if (lab_name_matches(e->d_name, which, wl)) {
      snprintf(out, n, "%s/%s", ld, e->d_name);
      found = 1;
      break;
    }
  }
  closedir(d);
  if (!found) {
    snprintf(err, errlen, "no lab '%s' in %s (give its number or name: 1, 01, matrix-add or "
             "01-matrix-add)", which, ld);
    return -1;
  }
  return 0;
}


int run_lab_load(const char *which, const char *labs_dir, struct run_lab *lab, char *err,
                 size_t errlen)
{
  memset(lab, 0, sizeof *lab);
  if (find_dir(which, labs_dir, lab->dir, sizeof lab->dir, err, errlen))
    return -1;
  char file[1200];
  snprintf(file, sizeof file, "%s/lab.json", lab->dir);
  json_error_t je;
  json_t *root = json_load_file(file, 0, &je);
  if (!root) {
    snprintf(err, errlen, "%s:%d: %s", file, je.line, je.text);
    return -1;
  }
  size_t textlen;
  char *text = tc_read_file(file, &textlen);
  struct ctx c = {file, err, errlen, text};
  const char *slash = strrchr(lab->dir, '/');
  const char *base = slash ? slash + 1 : lab->dir;
  size_t bl = strlen(base);
  if (bl >= sizeof lab->id)
    bl = sizeof lab->id - 1;
  memcpy(lab->id, base, bl);
  lab->id[bl] = 0;
  if (!json_is_object(root)) {
    bad(&c, "(top)", "must be an object");
    goto fail;
  }
  if (get_str(&c, root, "title", lab->title, sizeof lab->title, 1) ||
      get_str(&c, root, "kernel_file", lab->kernel_file, sizeof lab->kernel_file, 1) ||
      get_str(&c, root, "kernel", lab->kernel, sizeof lab->kernel, 1) ||
      parse_params(&c, root, lab))
    goto fail;
  json_t *ch = json_object_get(root, "choices");
  if (ch && get_sizes(&c, ch, "choices", &lab->choices))
    goto fail;
  json_t *sz = json_object_get(root, "sizes");
  if (!json_is_object(sz) || get_sizes(&c, json_object_get(sz, "emu"), "sizes.emu", &lab->emu) ||
      get_sizes(&c, json_object_get(sz, "gpu"), "sizes.gpu", &lab->gpu))
    goto fail_sizes;
  json_t *ts = json_object_get(root, "tests");
  if (ts) {
    if (!json_is_array(ts) || json_array_size(ts) > RUN_MAX_TESTS) {
      bad(&c, "tests", "must be an array of at most 16 sizes");
      goto fail;
    }
    for (size_t i = 0; i < json_array_size(ts); i++)
      if (get_test(&c, json_array_get(ts, i), &lab->tests[i], lab->test_arch[i],
                   sizeof lab->test_arch[i], &lab->test_warp[i], &lab->test_hidden[i]))
        goto fail;
    lab->ntests = (uint32_t)json_array_size(ts);
  }
  if (parse_launch(&c, root, lab))
    goto fail;
  json_t *ref = json_object_get(root, "reference");
  if (!json_is_object(ref) || get_str(&c, ref, "source", lab->ref_source, sizeof lab->ref_source, 1) ||
      get_str(&c, ref, "function", lab->ref_function, sizeof lab->ref_function, 1)) {
    if (!c.err[0])
      bad(&c, "reference", "missing: {\"source\": \"reference.c\", \"function\": NAME}");
    goto fail;
  }
  json_t *tol = json_object_get(root, "tolerance");
  if (tol) {
    json_t *a = json_object_get(tol, "abs"), *r = json_object_get(tol, "rel"), *u = json_object_get(tol, "ulp");
    if ((a && !json_is_number(a)) || (r && !json_is_number(r)) || (u && !json_is_integer(u))) {
      bad(&c, "tolerance", "abs and rel must be numbers, ulp an integer");
      goto fail;
    }
    lab->has_abs = a != NULL;
    lab->has_rel = r != NULL;
    lab->has_ulp = u != NULL;
    lab->tol_abs = a ? json_number_value(a) : 0;
    lab->tol_rel = r ? json_number_value(r) : 0;
    lab->tol_ulp = u ? (uint64_t)json_integer_value(u) : 0;
  }
  if (parse_sweeps(&c, root, lab) || parse_lane_charts(&c, root, lab))
    goto fail;
  json_t *ms = json_object_get(root, "metrics");
  if (ms) {
    if (!json_is_array(ms) || json_array_size(ms) > RUN_MAX_METRICS) {
      bad(&c, "metrics", "must be an array of at most 32 metric names");
      goto fail;
    }
    for (size_t i = 0; i < json_array_size(ms); i++) {
      json_t *m = json_array_get(ms, i);
      if (!json_is_string(m) || strlen(json_string_value(m)) >= sizeof lab->metrics[0]) {
        bad(&c, "metrics", "every entry must be a metric name");
        goto fail;
      }
      snprintf(lab->metrics[i], sizeof lab->metrics[0], "%s", json_string_value(m));
      if (resolve_metric(&c, "metrics", lab->metrics[i], &lab->metric_id[i]))
        goto fail;
    }
    lab->nmetrics = (uint32_t)json_array_size(ms);
  }
  if (check_exprs(&c, lab) || charts_parse(root, "lab.json", text, lab, err, errlen) ||
      resolve_charts(&c, lab) || parse_rubric(&c, root, &lab->rubric))
    goto fail;
  free(text);
  json_decref(root);
  return 0;
fail_sizes:
  if (!c.err[0] || !strstr(c.err, "sizes"))
    bad(&c, "sizes", "missing: {\"emu\": {...}, \"gpu\": {...}}");
fail:
  free(text);
  json_decref(root);
  run_lab_free(lab);
  return -1;
}

void run_lab_free(struct run_lab *lab)
{
  (void)lab;   /* a loaded lab holds nothing to free: every field is parsed into the struct */
}

int run_lab_students_copy(const char *src, const char *dst, unsigned *answers, unsigned *hidden,
                          char *err, size_t errlen)
{
  json_error_t je;
  json_t *root = json_load_file(src, JSON_PRESERVE_ORDER, &je);
  if (!json_is_object(root)) {
    snprintf(err, errlen, "%s:%d: %s", src, je.line, root ? "not an object" : je.text);
    json_decref(root);
    return -1;
  }
  json_t *items = json_object_get(json_object_get(json_object_get(root, "rubric"), "questions"),
                                  "items");
  size_t i;
  json_t *x;
  json_array_foreach(items, i, x)
    if (json_object_get(x, "answer")) {
      json_object_del(x, "answer");
      (*answers)++;
    }
  json_t *tests = json_object_get(root, "tests");
  for (i = json_array_size(tests); i-- > 0;)
    if (json_is_true(json_object_get(json_array_get(tests, i), "hidden"))) {
      json_array_remove(tests, i);
      (*hidden)++;
    }
  int rc = json_dump_file(root, dst, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  json_decref(root);
  if (rc) {
    snprintf(err, errlen, "cannot write %s", dst);
    return -1;
  }
  return 0;
}
