/* plot_lanes.c: sector maps, bank maps and lane timelines of one warp (see plot_lanes.h).
 *
 * The lane log (harness/run/run_lanes.h) lists the warp's steps with each lane's address; this
 * file picks the step a picture is about, turns its lanes into cells, writes them as a data
 * file and a gnuplot script, and runs gnuplot (plot.c's runner: one chart alone with
 * plot_run_script, a run's charts all together with plot_list_draw). Every
 * count in a title is the emulator's own for that instruction (the log's "sectors",
 * "wavefronts"), so a picture never disagrees with the metrics; what the cells show (which
 * lane's bytes fall in which sector, which banks serve how many words) is worked out here from
 * the addresses, as the rules of harness/sim/sim_stats.c state them.
 */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "plots/plot.h"
#include "plots/plot_lanes.h"

#define TIMELINE_MAX_STEPS 400     /* steps a timeline draws: more would be hairlines */
#define TIMELINE_MAX_KEYS 14       /* source lines named in its key */
#define MAX_ROWS 128               /* distinct sectors of one access (64 lanes, 2 each) */
#define ACTUAL_SPAN 48             /* sectors drawn at their own place up to this span */

static const char *const line_colour[] = {
  "#4E79A7", "#F28E2B", "#E15759", "#59A14F", "#B07AA1", "#EDC948", "#76B7B2", "#FF9DA7",
  "#9C755F", "#1F77B4", "#17BECF", "#8C564B",
};
#define NCOLOURS (sizeof line_colour / sizeof *line_colour)
#define GUARD_OFF "#C8C8C8"
#define NO_LINE "#8FA3B8"

/* ---- the log ---- */

struct lanes_log {
  json_t *root, *steps, *lines, *files, *buffers;
  uint32_t warp_size, block, warp;
  uint64_t exists;
  int main_file;                  /* the file of the first step with a line: the kernel's */
};

static uint64_t hex_mask(json_t *v)
{
  const char *s = json_string_value(v);
  return s ? strtoull(s, NULL, 16) : 0;
}

static int64_t int_of(json_t *o, const char *key, int64_t dflt)
{
  json_t *v = json_object_get(o, key);
  return json_is_integer(v) ? json_integer_value(v) : dflt;
}

static int log_load(const char *path, struct lanes_log *g, char *err, size_t errlen)
{
  memset(g, 0, sizeof *g);
  json_error_t je;
  g->root = json_load_file(path, 0, &je);
  if (!g->root) {
    snprintf(err, errlen, "%s:%d: %s", path, je.line, je.text);
    return -1;
  }
  const char *fmt = json_string_value(json_object_get(g->root, "format"));
  g->steps = json_object_get(g->root, "steps");
  if (!fmt || strncmp(fmt, "warplab-lanes ", 14) || !json_is_array(g->steps)) {
    snprintf(err, errlen, "%s is not a lane log (warplab emu --lanes writes one)", path);
    json_decref(g->root);
    g->root = NULL;
    return -1;
  }
  g->lines = json_object_get(g->root, "lines");
  g->files = json_object_get(g->root, "files");
  g->buffers = json_object_get(g->root, "buffers");
  g->warp_size = (uint32_t)int_of(g->root, "warp_size", 32);
  if (g->warp_size != 64)
    g->warp_size = 32;
  g->block = (uint32_t)int_of(g->root, "block", 0);
  g->warp = (uint32_t)int_of(g->root, "warp", 0);
  g->exists = hex_mask(json_object_get(g->root, "lanes"));
  g->main_file = -1;
  size_t i;
  json_t *s;
  json_array_foreach(g->steps, i, s)
    if (int_of(s, "line", 0) > 0) {
      g->main_file = (int)int_of(s, "file", -1);
      break;
    }
  return 0;
}

/* The text of source line (file, line), or NULL. */
static const char *line_text(const struct lanes_log *g, int64_t file, int64_t line)
{
  size_t i;
  json_t *l;
  json_array_foreach(g->lines, i, l)
    if (int_of(l, "file", -2) == file && int_of(l, "line", -1) == line)
      return json_string_value(json_object_get(l, "text"));
  return NULL;
}

/* "gather.cu:32": the base name of a step's file and its line. */
static void where(const struct lanes_log *g, json_t *step, char *buf, size_t n)
{
  int64_t file = int_of(step, "file", -1), line = int_of(step, "line", 0);
  const char *path = json_string_value(json_array_get(g->files, (size_t)(file < 0 ? 0 : file)));
  if (file < 0 || !path || line <= 0) {
    snprintf(buf, n, "PTX line %" PRId64, int_of(step, "ptx_line", 0));
    return;
  }
  const char *base = strrchr(path, '/');
  snprintf(buf, n, "%s:%" PRId64, base ? base + 1 : path, line);
}

/* The first memory step in space sp that the spec selects, or NULL with why. */
static json_t *find_access(const struct lanes_log *g, const struct plot_lanes_spec *s,
                           const char *sp, char *why, size_t n)
{
  size_t i;
  json_t *step;
  json_array_foreach(g->steps, i, step) {
    json_t *mem = json_object_get(step, "mem");
    const char *space = json_string_value(json_object_get(mem, "space"));
    const char *acc = json_string_value(json_object_get(mem, "access"));
    if (!space || strcmp(space, sp) || !json_is_array(json_object_get(mem, "lanes")))
      continue;
    if ((s->access == RUN_LANES_LOAD && strcmp(acc, "read")) ||
        (s->access == RUN_LANES_STORE && strcmp(acc, "write")))
      continue;
    int64_t file = int_of(step, "file", -1), line = int_of(step, "line", 0);
    if (s->line && (line != s->line || file != g->main_file))
      continue;
    if (s->marker[0]) {
      const char *t = line_text(g, file, line);
      if (!t || !strstr(t, s->marker))
        continue;
    }
    return step;
  }
  char sel[200] = "";
  if (s->line)
    snprintf(sel, sizeof sel, " on source line %u", s->line);
  else if (s->marker[0])
    snprintf(sel, sizeof sel, " on a source line holding '%s'", s->marker);
  snprintf(why, n, "warp %u of block %u executed no %s %s%s (%zu steps recorded)", g->warp,
           g->block, sp, s->access == RUN_LANES_LOAD ? "load" : s->access == RUN_LANES_STORE
           ? "store" : "access", sel, json_array_size(g->steps));
  return NULL;
}

/* ---- writing ---- */

struct files {
  char dat[1200], gp[1200], script[200];
  FILE *d, *f;
};

static int files_open(struct files *x, const char *dir, const char *name, char *err,
                      size_t errlen)
{
  snprintf(x->dat, sizeof x->dat, "%s/%s.dat", dir, name);
  snprintf(x->gp, sizeof x->gp, "%s/%s.gp", dir, name);
  snprintf(x->script, sizeof x->script, "%s.gp", name);
  x->d = fopen(x->dat, "w");
  x->f = x->d ? fopen(x->gp, "w") : NULL;
  if (!x->f) {
    snprintf(err, errlen, "cannot write %s: %s", x->d ? x->gp : x->dat, strerror(errno));
    if (x->d)
      fclose(x->d);
    return -1;
  }
  return 0;
}

static int files_close(struct files *x, char *err, size_t errlen)
{
  int bad = ferror(x->d) | ferror(x->f);
  bad |= fclose(x->d) | fclose(x->f);
  if (bad) {
    snprintf(err, errlen, "cannot write %s: %s", x->gp, strerror(errno));
    return -1;
  }
  return 0;
}

/* The script's start: PNG at width x height, the title and up to four lines under it (the
   first in black, the others grey), the plot area between the given screen fractions. */
static void heading(FILE *f, const char *name, int width, int height, const char *title,
                    const char *const sub[4], double left, double right, double bottom,
                    double top)
{
  fprintf(f, "# %s.gp: a lane picture of warplab (plots/plot_lanes.c). Data: %s.dat.\n"
             "# Redraw with `gnuplot %s.gp` in this folder.\n", name, name, name);
  fprintf(f, "if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
             "  set terminal pngcairo size %d,%d font \"Sans,11\" noenhanced background rgb \"white\"\n"
             "} else {\n"
             "  set terminal png size %d,%d font \"Sans,11\" noenhanced background rgb \"white\"\n"
             "}\nset output \"%s.png\"\n", width, height, width, height, name);
  fputs("set datafile separator \"\\t\"\nset border lw 1 lc rgb \"#555555\"\n"
        "set tics out scale 0.5 nomirror\n", f);
  fprintf(f, "set lmargin at screen %.3f\nset rmargin at screen %.3f\n"
             "set bmargin at screen %.3f\nset tmargin at screen %.3f\n", left, right, bottom, top);
  fputs("set label ", f);
  plot_gp_string(f, title);
  fputs(" at screen 0.5, screen 0.975 center font \"Sans Bold,15\"\n", f);
  double y = 0.975 - 28.0 / height;
  for (int i = 0; i < 4; i++) {
    if (!sub[i] || !sub[i][0])
      continue;
    fputs("set label ", f);
    plot_gp_string(f, sub[i]);
    fprintf(f, " at screen 0.5, screen %.4f center font \",11\" tc rgb \"%s\"\n", y,
            i == 0 ? "#202020" : "#555555");
    y -= 20.0 / height;
  }
}

static void finish(FILE *f, const char *name, int width, int height)
{
  fprintf(f, "set terminal svg size %d,%d dynamic font \"Sans,11\" noenhanced background rgb "
             "\"white\"\nset output \"%s.svg\"\nreplot\nunset output\n", width, height, name);
}

/* s cut to max characters with "..." (source lines in titles and keys), without a trailing
   // comment (lab files mark lines with them: the marker is not the code). */
static void clip(char *dst, size_t n, const char *s, size_t max)
{
  const char *c = strstr(s, "//");
  size_t len = c ? (size_t)(c - s) : strlen(s);
  while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
    len--;
  if (len <= max)
    snprintf(dst, n, "%.*s", (int)len, s);
  else
    snprintf(dst, n, "%.*s...", (int)(max > 3 ? max - 3 : 0), s);
}

/* "gather.cu:32  out[i] = points[k];": where a step is and its code (the PTX when the source
   is not at hand). */
static void code_line(const struct lanes_log *g, json_t *step, char *buf, size_t n)
{
  char at[128], src[200];
  where(g, step, at, sizeof at);
  const char *text = line_text(g, int_of(step, "file", -1), int_of(step, "line", 0));
  clip(src, sizeof src, text ? text : json_string_value(json_object_get(step, "ptx")), 110);
  snprintf(buf, n, "%s   %s", at, src);
}

/* ---- sectors ---- */

struct sec_row {
  int64_t sector;
  uint32_t used;                /* bytes of its 32 the warp asks for, a bit each */
  uint32_t lanes;
};

static int cmp_row(const void *a, const void *b)
{
  int64_t x = ((const struct sec_row *)a)->sector, y = ((const struct sec_row *)b)->sector;
  return x < y ? -1 : x > y;
}

static int row_of(const struct sec_row *rows, uint32_t n, int64_t sector)
{
  for (uint32_t i = 0; i < n; i++)
    if (rows[i].sector == sector)
      return (int)i;
  return -1;
}

static int draw_sectors(const struct lanes_log *g, json_t *step, const struct plot_lanes_spec *s,
                        const char *dir, const char *name, char *err, size_t errlen)
{
  json_t *mem = json_object_get(step, "mem"), *lanes = json_object_get(mem, "lanes");
  int64_t size = int_of(mem, "size", 4);
  if (size < 1 || size > 32)
    size = 4;
  /* every sector the lanes' bytes fall in, with the bytes used in each */
  struct sec_row rows[MAX_ROWS];
  uint32_t nrows = 0;
  size_t i;
  json_t *a;
  int64_t buf = -1;
  json_array_foreach(lanes, i, a) {
    int has_off = json_is_integer(json_object_get(a, "offset"));
    int64_t off = has_off ? int_of(a, "offset", 0) : int_of(a, "addr", 0);
    if (buf < 0)
      buf = int_of(a, "buffer", -1);
    for (int64_t b = off; b < off + size; b++) {
      int r = row_of(rows, nrows, b / 32);
      if (r < 0 && nrows == MAX_ROWS)
        continue;
      if (r < 0) {
        r = (int)nrows++;
        rows[r] = (struct sec_row){.sector = b / 32};
      }
      rows[r].used |= 1u << (b % 32);
    }
  }
  if (!nrows) {
    snprintf(err, errlen, "the access has no active lanes");
    return PLOT_BAD_CHART;
  }
  qsort(rows, nrows, sizeof *rows, cmp_row);
  int64_t lo = rows[0].sector, span = rows[nrows - 1].sector - lo + 1;
  int actual = span <= ACTUAL_SPAN;            /* else: the touched sectors only, in order */
  uint32_t ny = actual ? (uint32_t)span : nrows;
  uint32_t used_total = 0;
  for (uint32_t r = 0; r < nrows; r++)
    used_total += (uint32_t)__builtin_popcount(rows[r].used);

  struct files x;
  if (files_open(&x, dir, name, err, errlen))
    return PLOT_FAILED;
  /* block 0: a cell per lane; block 1: a row's note; sectors as y, top down */
  fprintf(x.d, "# warplab lane picture '%s': lane, row, %% of the sector used, byte offset of "
               "the lane in its sector, sector\n", name);
  json_array_foreach(lanes, i, a) {
    int has_off = json_is_integer(json_object_get(a, "offset"));
    int64_t off = has_off ? int_of(a, "offset", 0) : int_of(a, "addr", 0);
    for (int64_t sec = off / 32; sec <= (off + size - 1) / 32; sec++) {
      int r = row_of(rows, nrows, sec);
      if (r < 0)
        continue;
      int64_t y = actual ? sec - lo : r;
      fprintf(x.d, "%" PRId64 "\t%" PRId64 "\t%.1f\t+%" PRId64 "\t%" PRId64 "\n",
              int_of(a, "lane", 0), y, 100.0 * __builtin_popcount(rows[r].used) / 32,
              off > sec * 32 ? off - sec * 32 : 0, sec);
    }
  }

  /* the words */
  char code[400], title[300], facts[600], how[600];
  code_line(g, step, code, sizeof code);
  const char *acc = json_string_value(json_object_get(mem, "access"));
  if (s->title[0])
    snprintf(title, sizeof title, "%s", s->title);
  else
    snprintf(title, sizeof title, "Sectors of one warp's %s", acc && !strcmp(acc, "write")
             ? "store" : acc && !strcmp(acc, "atomic") ? "atomic" : "load");
  int64_t sectors = int_of(mem, "sectors", nrows);
  size_t nl = json_array_size(lanes);
  double pct = sectors ? 100.0 * used_total / (32.0 * (double)sectors) : 0.0;
  snprintf(facts, sizeof facts, "%zu lanes x %" PRId64 " B = %u B asked for: %" PRId64
           " distinct sector%s = %" PRId64 " B moved, %.*f%% used", nl, size, used_total, sectors,
           sectors == 1 ? "" : "s", 32 * sectors, pct == (double)(int64_t)pct ? 0 : 1, pct);
  snprintf(how, sizeof how, "warp %u of block %u, step %" PRId64 ": %s%s%s", g->warp, g->block,
           int_of(step, "step", 0), json_string_value(json_object_get(step, "ptx")),
           s->subtitle[0] ? "   |   " : "", s->subtitle);
  const char *sub[4] = {code, facts, how, NULL};
  int width = g->warp_size == 64 ? 1500 : 1150;
  int height = (int)(ny * 24 + 320);
  height = height < 540 ? 540 : height > 1300 ? 1300 : height;
  FILE *f = x.f;
  heading(f, name, width, height, title, sub, 0.09, 0.80, 110.0 / height, 1 - 120.0 / height);

  fprintf(f, "set xrange [-0.5:%u.5]\nset yrange [%u.5:-0.5]\n", g->warp_size - 1, ny - 1);
  fprintf(f, "set xtics 0,%d,%u font \",9\"\nset mxtics %d\n", g->warp_size == 64 ? 4 : 1,
          g->warp_size - 1, g->warp_size == 64 ? 4 : 1);
  fputs("set xlabel \"lane\"\n", f);
  const char *bname = buf >= 0 ? json_string_value(json_object_get(json_array_get(g->buffers,
                                                                                  (size_t)buf), "name"))
                               : NULL;
  char yl[256];
  snprintf(yl, sizeof yl, "32-byte sector of %s%s", bname ? bname : "memory",
           actual ? "" : " (only those touched)");
  fputs("set ylabel ", f);
  plot_gp_string(f, yl);
  fputc('\n', f);
  uint32_t every = ny <= 20 ? 1 : ny <= 40 ? 2 : ny <= 80 ? 4 : 8;
  fputs("set ytics (", f);
  for (uint32_t r = 0, k = 0; r < nrows; r++) {
    int64_t y = actual ? rows[r].sector - lo : r;
    if (y % every)
      continue;
    fprintf(f, "%s\"%" PRId64 "\" %" PRId64, k++ ? ", " : "", rows[r].sector, y);
  }
  fputs(") font \",9\"\n", f);
  /* 128-byte lines: a dashed rule where one starts */
  for (uint32_t r = 1; actual && r < ny; r++)
    if ((lo + r) % 4 == 0)
      fprintf(f, "set arrow from -0.5,%u.5 to %u.5,%u.5 nohead dt 2 lw 1 lc rgb \"#888888\"\n",
              r - 1, g->warp_size - 1, r - 1);
  fputs("set palette defined (0 \"#C0392B\", 40 \"#F1C40F\", 100 \"#27AE60\")\nset cbrange [0:100]\n"
        "set cbtics 0,25,100 font \",9\"\n"
        "set cblabel \"% of the sector's 32 bytes the warp uses\" font \",10\"\n"
        "set colorbox vertical user origin screen 0.91, screen 0.25 size screen 0.016, screen 0.45\n", f);
  for (uint32_t r = 0; r < nrows; r++)     /* beside each row: how much of it is used */
    fprintf(f, "set label \"%d of 32 B used\" at %u.9, %" PRId64 " left font \",9\"\n",
            __builtin_popcount(rows[r].used), g->warp_size - 1, actual ? rows[r].sector - lo : r);
  fputs("unset key\n", f);
  if (actual)
    fprintf(f, "set label \"dashed: a 128-byte line starts\" at screen 0.09, screen %.4f left "
               "font \",9\" tc rgb \"#666666\"\n", 30.0 / height);
  fprintf(f, "set label \"in a cell: where the lane's bytes start in its sector\" at screen 0.80, "
             "screen %.4f right font \",9\" tc rgb \"#666666\"\n", 30.0 / height);
  fprintf(f, "plot \"%s.dat\" index 0 using 1:2:(0.47):(0.46):3 with boxxyerror fs solid 1.0 "
             "border lc rgb \"#404040\" fc palette, \\\n"
             "     \"\" index 0 using 1:2:4 with labels font \",%d\" tc rgb \"#1A1A1A\"\n",
          name, g->warp_size == 64 ? 6 : 8);
  finish(f, name, width, height);
  if (files_close(&x, err, errlen))
    return PLOT_FAILED;
  return PLOT_OK;
}

/* ---- banks ---- */

static int draw_banks(const struct lanes_log *g, json_t *step, const struct plot_lanes_spec *s,
                      const char *dir, const char *name, char *err, size_t errlen)
{
  json_t *mem = json_object_get(step, "mem"), *lanes = json_object_get(mem, "lanes");
  int64_t size = int_of(mem, "size", 4);
  unsigned words = size > 4 ? (unsigned)(size / 4) : 1;
  if (words > 8)
    words = 8;
  /* lanes are served together in groups: a warp of 4-byte words, half of 8-byte, a quarter
     of 16-byte (sim_stats.c); a bank's load is its distinct words within a group */
  unsigned group = size >= 16 ? 8 : size == 8 ? 16 : 32;
  uint32_t W = g->warp_size, ngroups = (W + group - 1) / group;
  static int64_t word[64][8];                    /* [lane][k]: word index, -1 none */
  static unsigned degree[8][32];                 /* [group][bank] */
  for (unsigned l = 0; l < 64; l++)
    for (unsigned k = 0; k < 8; k++)
      word[l][k] = -1;
  memset(degree, 0, sizeof degree);
  size_t i;
  json_t *a;
  json_array_foreach(lanes, i, a) {
    int64_t l = int_of(a, "lane", -1);
    if (l < 0 || l >= 64)
      continue;
    for (unsigned k = 0; k < words; k++)
      word[l][k] = int_of(a, "addr", 0) / 4 + k;
  }
  unsigned worst = 1;
  for (uint32_t gr = 0; gr < ngroups; gr++)
    for (unsigned bank = 0; bank < 32; bank++) {
      int64_t seen[64 * 8];
      unsigned n = 0;
      for (unsigned l = gr * group; l < (gr + 1) * group && l < W; l++)
        for (unsigned k = 0; k < words; k++) {
          int64_t w = word[l][k];
          if (w < 0 || w % 32 != bank)
            continue;
          unsigned j = 0;
          while (j < n && seen[j] != w)
            j++;
          if (j == n)
            seen[n++] = w;
        }
      degree[gr][bank] = n;
      worst = n > worst ? n : worst;
    }

  struct files x;
  if (files_open(&x, dir, name, err, errlen))
    return PLOT_FAILED;
  fprintf(x.d, "# warplab lane picture '%s': lane, bank, different words its bank serves to the "
               "lane's group, the word's 128-byte row of shared memory (word / 32)\n", name);
  for (unsigned l = 0; l < W; l++)
    for (unsigned k = 0; k < words; k++)
      if (word[l][k] >= 0)
        fprintf(x.d, "%u\t%" PRId64 "\t%u\t%" PRId64 "\n", l, word[l][k] % 32,
                degree[l / group][word[l][k] % 32], word[l][k] / 32);

  char code[400], title[300], facts[600], how[600];
  code_line(g, step, code, sizeof code);
  const char *acc = json_string_value(json_object_get(mem, "access"));
  if (s->title[0])
    snprintf(title, sizeof title, "%s", s->title);
  else
    snprintf(title, sizeof title, "Shared-memory banks of one warp's %s", acc &&
             !strcmp(acc, "write") ? "store" : acc && !strcmp(acc, "atomic") ? "atomic" : "load");
  int64_t wf = int_of(mem, "wavefronts", 0), ideal = int_of(mem, "ideal", 1);
  snprintf(facts, sizeof facts, "%" PRId64 " wavefront%s (%" PRId64 " without conflicts): the "
           "busiest bank serves %u different word%s", wf, wf == 1 ? "" : "s", ideal, worst,
           worst == 1 ? "" : "s");
  snprintf(how, sizeof how, "warp %u of block %u, step %" PRId64 ": %s%s%s", g->warp, g->block,
           int_of(step, "step", 0), json_string_value(json_object_get(step, "ptx")),
           s->subtitle[0] ? "   |   " : "", s->subtitle);
  const char *sub[4] = {code, facts, how, NULL};
  char groups[160];
  if (group < 32) {
    snprintf(groups, sizeof groups, "%" PRId64 "-byte accesses are served %u lanes at a time "
             "(dotted): a bank's words count within one group", size, group);
    sub[3] = groups;
  }
  int width = W == 64 ? 1500 : 1150, height = 1000;
  FILE *f = x.f;
  heading(f, name, width, height, title, sub, 0.08, 0.82, 100.0 / height, 1 - 140.0 / height);
  fprintf(f, "set xrange [-0.5:%u.5]\nset yrange [31.5:-0.5]\n", W - 1);
  fprintf(f, "set xtics 0,%d,%u font \",9\"\nset ytics 0,1,31 font \",9\"\n", W == 64 ? 4 : 1, W - 1);
  fputs("set xlabel \"lane\"\nset ylabel \"bank (4-byte word address mod 32)\"\n", f);
  for (unsigned gr = 1; gr < ngroups; gr++)
    fprintf(f, "set arrow from %u.5,-0.5 to %u.5,31.5 nohead dt 3 lw 1.5 lc rgb \"#555555\"\n",
            gr * group - 1, gr * group - 1);
  unsigned top = worst < 2 ? 2 : worst;
  fprintf(f, "set palette defined (1 \"#27AE60\", %g \"#F1C40F\", %u \"#C0392B\")\n"
             "set cbrange [1:%u]\nset cbtics 1,%u,%u font \",9\"\n", 1 + (top - 1) / 3.0, top,
          top, top <= 8 ? 1 : top / 8, top);
  for (unsigned bank = 0; bank < 32; bank++) {   /* beside each conflicted bank: its words */
    unsigned most = 0;
    for (uint32_t gr = 0; gr < ngroups; gr++)
      most = degree[gr][bank] > most ? degree[gr][bank] : most;
    if (most > 1)
      fprintf(f, "set label \"%u words\" at %u.9, %u left font \",9\" tc rgb \"#B03A2E\"\n",
              most, W - 1, bank);
  }
  fputs("set cblabel \"different words the cell's bank serves (1: no conflict)\" font \",10\"\n"
        "set colorbox vertical user origin screen 0.92, screen 0.25 size screen 0.016, screen 0.45\n"
        "unset key\n", f);
  fprintf(f, "set label \"in a cell: the word's 128-byte row of shared memory (word / 32); lanes "
             "reading one word share it (a broadcast)\" at screen 0.08, screen %.4f left "
             "font \",9\" tc rgb \"#666666\"\n", 28.0 / height);
  fprintf(f, "plot \"%s.dat\" index 0 using 1:2:(0.47):(0.45):3 with boxxyerror fs solid 1.0 "
             "border lc rgb \"#404040\" fc palette, \\\n"
             "     \"\" index 0 using 1:2:4 with labels font \",%d\" tc rgb \"#1A1A1A\"\n",
          name, W == 64 ? 6 : 8);
  finish(f, name, width, height);
  if (files_close(&x, err, errlen))
    return PLOT_FAILED;
  return PLOT_OK;
}

/* ---- timeline ---- */

struct tkey { int64_t file, line; };

/* Whether a step is a branch ("@%p1 bra $L__BB0_4"): its guard says where the lanes go, so a
   false guard is not a lane turned off. */
static int is_branch(json_t *step)
{
  const char *t = json_string_value(json_object_get(step, "ptx"));
  if (!t)
    return 0;
  if (*t == '@') {
    t += strcspn(t, " ");
    while (*t == ' ')
      t++;
  }
  return !strncmp(t, "bra", 3) && (t[3] == ' ' || t[3] == '.' || !t[3]);
}

static int draw_timeline(const struct lanes_log *g, const struct plot_lanes_spec *s,
                         const char *dir, const char *name, char *err, size_t errlen)
{
  size_t total = json_array_size(g->steps);
  if (!total) {
    snprintf(err, errlen, "warp %u of block %u has no steps recorded (did it run?)", g->warp,
             g->block);
    return PLOT_BAD_CHART;
  }
  size_t nsteps = total < TIMELINE_MAX_STEPS ? total : TIMELINE_MAX_STEPS;
  struct tkey keys[64];
  uint32_t nkeys = 0;
  uint32_t *colour = calloc(nsteps, sizeof *colour);
  if (!colour) {
    snprintf(err, errlen, "out of host memory");
    return PLOT_FAILED;
  }
  uint64_t lane_steps = 0, full = 0;
  for (size_t i = 0; i < nsteps; i++) {
    json_t *st = json_array_get(g->steps, i);
    struct tkey k = {int_of(st, "file", -1), int_of(st, "line", 0)};
    uint32_t j = 0;
    while (j < nkeys && (keys[j].file != k.file || keys[j].line != k.line))
      j++;
    if (j == nkeys && nkeys < sizeof keys / sizeof *keys)
      keys[nkeys++] = k;
    colour[i] = j;
    uint64_t act = hex_mask(json_object_get(st, "active"));
    lane_steps += (uint64_t)__builtin_popcountll(act);
    full += act == g->exists;
  }
  struct files x;
  if (files_open(&x, dir, name, err, errlen)) {
    free(colour);
    return PLOT_FAILED;
  }
  /* a box per run of steps in which a lane ran lines of one colour, guard on or off */
  fprintf(x.d, "# warplab lane picture '%s': first step, last step, lane, colour (0xRRGGBB)\n",
          name);
  for (unsigned l = 0; l < g->warp_size; l++) {
    long start = -1;
    uint32_t cur = 0;
    for (size_t i = 0; i <= nsteps; i++) {
      uint32_t c = UINT32_MAX;
      if (i < nsteps) {
        json_t *st = json_array_get(g->steps, i);
        uint64_t act = hex_mask(json_object_get(st, "active"));
        uint64_t pred = hex_mask(json_object_get(st, "pred"));
        if (is_branch(st))
          pred = act;                        /* its guard chose the path: nothing wasted */
        if (act >> l & 1) {
          const struct tkey *k = &keys[colour[i] < nkeys ? colour[i] : 0];
          c = !(pred >> l & 1) ? (uint32_t)strtoul(GUARD_OFF + 1, NULL, 16)
            : k->line <= 0 ? (uint32_t)strtoul(NO_LINE + 1, NULL, 16)
            : (uint32_t)strtoul(line_colour[colour[i] % NCOLOURS] + 1, NULL, 16);
        }
      }
      if (start >= 0 && c != cur) {
        fprintf(x.d, "%ld\t%zu\t%u\t%u\n", start, i - 1, l, cur);
        start = -1;
      }
      if (start < 0 && c != UINT32_MAX) {
        start = (long)i;
        cur = c;
      }
    }
  }
  free(colour);

  char title[300], facts[300], how[600];
  snprintf(title, sizeof title, "%s", s->title[0] ? s->title : "Which lanes ran each step");
  snprintf(facts, sizeof facts, "%zu steps; all %d lanes active in %" PRIu64 " of them; %.1f "
           "lanes active per step on average (%.0f%% of the warp)", total,
           __builtin_popcountll(g->exists), full,
           (double)lane_steps / (double)nsteps,
           100.0 * (double)lane_steps / ((double)nsteps * g->warp_size));
  char shown[96] = "";
  if (total > nsteps)
    snprintf(shown, sizeof shown, "   |   the first %zu steps are drawn", nsteps);
  snprintf(how, sizeof how, "warp %u of block %u: one step is one warp-instruction%s%s%s",
           g->warp, g->block, shown, s->subtitle[0] ? "   |   " : "", s->subtitle);
  const char *sub[4] = {facts, how, NULL, NULL};
  uint32_t nkey = nkeys < TIMELINE_MAX_KEYS ? nkeys : TIMELINE_MAX_KEYS;
  uint32_t keyrows = (nkey + 2 + 1) / 2;      /* two columns, the guard and a spare entry */
  int width = (int)(260 + nsteps * 4);
  width = width < 1100 ? 1100 : width > 1900 ? 1900 : width;
  int plot_h = (int)(g->warp_size * 14 + 60);
  int height = 150 + plot_h + (int)keyrows * 20 + 40;
  FILE *f = x.f;
  double bottom = (double)(keyrows * 20 + 80) / height;
  heading(f, name, width, height, title, sub, 0.06, 0.98, bottom, 1 - 110.0 / height);
  fprintf(f, "set xrange [-0.5:%zu.5]\nset yrange [%u.5:-0.5]\n", nsteps - 1, g->warp_size - 1);
  fprintf(f, "set ytics 0,%d,%u font \",9\"\nset mytics %d\nset xtics font \",9\"\n",
          g->warp_size == 64 ? 8 : 4, g->warp_size - 1, g->warp_size == 64 ? 8 : 4);
  fputs("set xlabel \"step (the warp's instructions, in the order it ran them)\"\n"
        "set ylabel \"lane\"\nset grid xtics lc rgb \"#EEEEEE\"\n", f);
  fprintf(f, "set key at screen 0.06, screen %.4f left top Left reverse maxrows %u samplen 1.2 "
             "font \",10\" width 2\n", (double)(keyrows * 20 + 20) / height, keyrows);
  fprintf(f, "plot \"%s.dat\" using (($1 + $2) / 2):3:(($2 - $1) / 2 + 0.5):(0.42):4 with "
             "boxxyerror fs solid 1.0 noborder lc rgb variable notitle", name);
  for (uint32_t k = 0; k < nkey; k++) {
    char label[200], t[120];
    const char *text = line_text(g, keys[k].file, keys[k].line);
    clip(t, sizeof t, text ? text : "", 58);
    if (keys[k].line <= 0)
      snprintf(label, sizeof label, "no source line");
    else
      snprintf(label, sizeof label, "line %" PRId64 ": %s", keys[k].line, t);
    fprintf(f, ", \\\n     keyentry with boxes fc rgb \"%s\" fs solid 1.0 noborder title ",
            keys[k].line <= 0 ? NO_LINE : line_colour[k % NCOLOURS]);
    plot_gp_string(f, label);
  }
  if (nkeys > nkey)
    fprintf(f, ", \\\n     keyentry with boxes fc rgb \"white\" fs empty noborder title "
               "\"(and %u more lines)\"", nkeys - nkey);
  fputs(", \\\n     keyentry with boxes fc rgb \"" GUARD_OFF "\" fs solid 1.0 noborder title "
        "\"ran with its guard false (predicated off)\"\n", f);
  finish(f, name, width, height);
  if (files_close(&x, err, errlen))
    return PLOT_FAILED;
  return PLOT_OK;
}

/* ---- entry points ---- */

/* The picture s of the lane log at log_path: dir/name.dat and dir/name.gp written, nothing
   drawn. Returns as plot_lanes_draw. */
static int lanes_write(const char *log_path, const struct plot_lanes_spec *s, const char *dir,
                       const char *name, char *err, size_t errlen)
{
  struct lanes_log g;
  if (log_load(log_path, &g, err, errlen))
    return PLOT_BAD_CHART;
  int rc;
  if (s->kind == RUN_LANES_TIMELINE) {
    rc = draw_timeline(&g, s, dir, name, err, errlen);
  } else {
    json_t *step = find_access(&g, s, s->kind == RUN_LANES_SECTORS ? "global" : "shared", err,
                               errlen);
    rc = !step ? PLOT_BAD_CHART : s->kind == RUN_LANES_SECTORS
       ? draw_sectors(&g, step, s, dir, name, err, errlen)
       : draw_banks(&g, step, s, dir, name, err, errlen);
  }
  json_decref(g.root);
  return rc;
}

int plot_lanes_draw(const char *log_path, const struct plot_lanes_spec *s, const char *dir,
                    const char *name, char *err, size_t errlen)
{
  int rc = lanes_write(log_path, s, dir, name, err, errlen);
  if (rc != PLOT_OK)
    return rc;
  char script[200];
  snprintf(script, sizeof script, "%s.gp", name);
  return plot_run_script(dir, script, err, errlen);
}

/* plot_lane_charts' first half: each lane chart's data and script written and added to l.
   Returns PLOT_OK, or the first other status with err ("lane chart NAME: ..."). */
static int lane_scripts(const struct run_lab *lab, const struct run_result *r,
                        struct plot_list *l, char *err, size_t errlen)
{
  int rc = PLOT_OK;
  for (uint32_t i = 0; i < lab->nlane_charts; i++) {
    const struct run_lane_chart *c = &lab->lane_charts[i];
    char log[1200], e[512], what[80];
    snprintf(log, sizeof log, "%s/%s.lanes.json", r->results_dir, c->name);
    struct stat st;
    if (stat(log, &st) != 0)     /* a GPU run, a --quick run, a point that did not run */
      continue;
    struct plot_lanes_spec s = {.kind = c->kind, .line = c->line, .access = c->access};
    snprintf(s.marker, sizeof s.marker, "%s", c->marker);
    snprintf(s.title, sizeof s.title, "%s", c->title);
    if (c->sweep[0])
      snprintf(s.subtitle, sizeof s.subtitle, "sweep '%s', point %s, on the emulator", c->sweep,
               c->point);
    else
      snprintf(s.subtitle, sizeof s.subtitle, "the kernel file's own configuration, on the "
               "emulator");
    snprintf(what, sizeof what, "lane chart %.60s: ", c->name);
    int st2 = lanes_write(log, &s, r->results_dir, c->name, e, sizeof e);
    if (st2 == PLOT_OK && plot_list_add(l, c->name, what, e, sizeof e))
      st2 = PLOT_FAILED;
    if (st2 != PLOT_OK && rc == PLOT_OK) {
      snprintf(err, errlen, "%s%s", what, e);
      rc = st2;
    }
  }
  return rc;
}

int plot_run_charts(const struct run_lab *lab, const struct run_result *r, char *paths_out,
                    size_t paths_len, char *err, size_t errlen)
{
  if (paths_len)
    paths_out[0] = 0;
  struct plot_list *l = calloc(1, sizeof *l);
  if (!l) {
    snprintf(err, errlen, "out of host memory");
    return PLOT_FAILED;
  }
  /* the lab's charts, then its lane charts, all drawn together (plot_list_draw) */
  char lab_e[1600] = "", lane_e[1600] = "", draw_e[1600] = "";
  int lab_st = plot_lab_scripts(lab, r, l, lab_e, sizeof lab_e);
  int lane_st = r->npoints ? lane_scripts(lab, r, l, lane_e, sizeof lane_e) : PLOT_OK;
  int draw_st = plot_list_draw(l, r->results_dir, paths_out, paths_len, draw_e, sizeof draw_e);
  free(l);
  /* the lab charts' own errors first, then the drawing's, then the lane charts' */
  int rc = lab_st != PLOT_OK ? lab_st : draw_st != PLOT_OK ? draw_st : lane_st;
  if (rc != PLOT_OK)
    snprintf(err, errlen, "%s", lab_st != PLOT_OK ? lab_e : draw_st != PLOT_OK ? draw_e : lane_e);
  return rc;
}

int plot_lane_charts(const struct run_lab *lab, const struct run_result *r, char *paths_out,
                     size_t paths_len, char *err, size_t errlen)
{
  if (paths_len)
    paths_out[0] = 0;
  struct plot_list *l = calloc(1, sizeof *l);
  if (!l) {
    snprintf(err, errlen, "out of host memory");
    return PLOT_FAILED;
  }
  char e[1600];
  int rc = lane_scripts(lab, r, l, err, errlen);
  int drc = plot_list_draw(l, r->results_dir, paths_out, paths_len, e, sizeof e);
  free(l);
  if (rc == PLOT_OK && drc != PLOT_OK) {
    snprintf(err, errlen, "%s", e);
    rc = drc;
  }
  return rc;
}
