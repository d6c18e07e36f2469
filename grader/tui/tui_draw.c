/* tui_draw.c: the feedback screen drawn from a tui_view.
 *
 *   row 0        the lab and the score
 *   row 1        the settings of the next run (backend, profile, watch) and the kernel file
 *   row 2        where the figures shown come from (backend, device, size, seed, folder)
 *   the panes    Tests | Metrics over Chart | Hints and score, in a grid on a large terminal;
 *                on a small one the focused pane takes the room and the others keep a line
 *   last row     the status line
 * Everything is drawn again on each call (curses sends only what changed), from the sizes of
 * the moment, so a resize needs nothing more than a call. */
#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grader/tui/tui_int.h"
#include "metrics/met.h"
#include "metrics/met_fmt.h"
#include "run/run_describe.h"

#define MIN_COLS 50
#define MIN_LINES 14
#define GRID_COLS 100    /* a grid of four panes from this width and ... */
#define GRID_LINES 28    /* ... this height */

/* ---- text in a rectangle ---- */

/* s for one row of the screen: control characters as spaces, UTF-8 quotes as ASCII ones, other
   non-ASCII characters as '?' (curses here is the narrow one). */
static size_t clean(const char *s, char *out, size_t n)
{
  size_t k = 0;
  const unsigned char *p = (const unsigned char *)s;
  while (*p && k + 1 < n) {
    unsigned char ch = *p;
    if (ch < 0x80) {
      out[k++] = ch < 0x20 || ch == 0x7f ? ' ' : (char)ch;
      p++;
      continue;
    }
    size_t len = ch >= 0xf0 ? 4 : ch >= 0xe0 ? 3 : ch >= 0xc0 ? 2 : 1;
    char rep = '?';
    if (ch == 0xe2 && p[1] == 0x80 && (p[2] == 0x98 || p[2] == 0x99))
      rep = '\'';
    else if (ch == 0xe2 && p[1] == 0x80 && (p[2] == 0x9c || p[2] == 0x9d))
      rep = '"';
    out[k++] = rep;
    for (size_t i = 0; i < len && *p; i++)
      p++;
  }
  out[k] = 0;
  return k;
}

/* ---- the overlap check ----
 * With WARPLAB_TUI_OVERLAP_LOG=FILE (tests/e2e/tui.sh sets it), every cell that text is
 * written to in a frame is remembered, and text written over text already there in the same
 * frame is logged to FILE: the screen must never draw one text over another. */

static char *cells;          /* the characters written in this frame, 0 where none */
static int cell_rows, cell_cols;
static int overlaps_logged;

static void cells_reset(void)
{
  static int checked, on;
  if (!checked) {
    const char *f = getenv("WARPLAB_TUI_OVERLAP_LOG");
    on = f && *f;
    checked = 1;
  }
  if (!on)
    return;
  if (LINES != cell_rows || COLS != cell_cols || !cells) {
    free(cells);
    cells = calloc((size_t)LINES * (size_t)COLS, 1);
    cell_rows = cells ? LINES : 0;
    cell_cols = cells ? COLS : 0;
  } else {
    memset(cells, 0, (size_t)cell_rows * (size_t)cell_cols);
  }
  overlaps_logged = 0;
}

/* Note the n characters of buf written at (y, x); log those that land on earlier text. */
static void cells_mark(int y, int x, const char *buf, int n)
{
  if (!cells || y < 0 || y >= cell_rows)
    return;
  for (int i = 0; i < n && x + i < cell_cols; i++) {
    if (x + i < 0)
      continue;
    char *at = &cells[y * cell_cols + x + i];
    if (*at && *at != ' ' && overlaps_logged < 8) {
      FILE *f = fopen(getenv("WARPLAB_TUI_OVERLAP_LOG"), "a");
      if (f) {
        fprintf(f, "%dx%d: row %d col %d: '%.*s' written over '%c'\n", cell_cols, cell_rows, y,
                x + i, n, buf, *at);
        fclose(f);
      }
      overlaps_logged++;
    }
    *at = buf[i];
  }
}

void tui_put(struct tui_canvas *c, int role, const char *text)
{
  char buf[1024];
  int len = (int)clean(text, buf, sizeof buf);
  int row = c->line - c->skip;
  if (row >= 0 && row < c->h && c->col < c->w && c->col >= 0) {
    int n = len < c->w - c->col ? len : c->w - c->col;
    attrset(tui_crt_attr(role));
    mvaddnstr(c->y + row, c->x + c->col, buf, n);
    attrset(A_NORMAL);
    cells_mark(c->y + row, c->x + c->col, buf, n);
  }
  c->col += len;
}

void tui_putf(struct tui_canvas *c, int role, const char *fmt, ...)
{
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  tui_put(c, role, buf);
}

void tui_nl(struct tui_canvas *c)
{
  c->line++;
  c->col = 0;
}

void tui_wrap(struct tui_canvas *c, int role, int indent, const char *text)
{
  size_t width = c->w - indent < 16 ? 16 : (size_t)(c->w - indent);
  const char *p = text;
  for (;;) {
    const char *end = p + strcspn(p, "\n");
    for (int first = 1;; first = 0) {
      if (!first) {   /* no blanks at the start of a wrapped line */
        while (p < end && *p == ' ')
          p++;
        if (p == end)
          break;
      }
      size_t n = (size_t)(end - p);
      if (n > width) {   /* cut at the last blank, unless that leaves a short line */
        size_t cut = width;
        while (cut > width / 3 && p[cut] != ' ')
          cut--;
        n = cut > width / 3 ? cut : width;
      }
      char line[1024];
      snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), p);
      c->col = indent;
      tui_put(c, role, line);
      tui_nl(c);
      p += n;
      if (p >= end)
        break;
    }
    if (!*end || !end[1])
      break;
    p = end + 1;
  }
}

/* Line `line` of file, without its newline, into out. Returns 0, or -1 when there is none. */
static int source_line(const char *file, uint32_t line, char *out, size_t n)
{
  FILE *f = fopen(file, "r");
  if (!f)
    return -1;
  char buf[1024];
  uint32_t at = 0;
  int rc = -1;
  while (fgets(buf, sizeof buf, f)) {
    size_t len = strlen(buf);
    int whole = len && buf[len - 1] == '\n';
    if (++at == line) {
      buf[strcspn(buf, "\r\n")] = 0;
      snprintf(out, n, "%s", buf);
      rc = 0;
      break;
    }
    while (!whole && fgets(buf, sizeof buf, f)) {   /* the rest of a very long line */
      len = strlen(buf);
      whole = len && buf[len - 1] == '\n';
    }
  }
  fclose(f);
  return rc;
}

/* "  27 | c[i] = a[i] + b[i];" under a test or a hint that names a line of the kernel file. */
static void show_source(struct tui_canvas *c, int indent, const char *file, uint32_t line)
{
  char text[512];
  if (!line || source_line(file, line, text, sizeof text))
    return;
  const char *base = strrchr(file, '/');
  c->col = indent;
  tui_putf(c, TUI_DIM, "%s:%u | ", base ? base + 1 : file, line);
  const char *code = text;
  while (*code == ' ' || *code == '\t')
    code++;
  tui_put(c, TUI_WARN, code);
  tui_nl(c);
}

/* The first "FILE:LINE" in text that names the kernel file, as a line number; 0 when none. */
static uint32_t line_in(const char *text, const char *kernel)
{
  const char *base = strrchr(kernel, '/');
  base = base ? base + 1 : kernel;
  size_t bl = strlen(base);
  for (const char *p = strstr(text, base); p && bl; p = strstr(p + 1, base))
    if (p[bl] == ':' && p[bl + 1] >= '1' && p[bl + 1] <= '9') {
      uint32_t n = 0;
      for (const char *q = p + bl + 1; *q >= '0' && *q <= '9' && n < 100000000; q++)
        n = n * 10 + (uint32_t)(*q - '0');
      return n;
    }
  return 0;
}

/* ---- the panes ---- */

static void tests_title(const struct tui_view *v, char *out, size_t n)
{
  const struct run_result *s = v->stu;
  if (!s) {
    snprintf(out, n, "Tests");
    return;
  }
  if (!s->built) {
    snprintf(out, n, "Tests: the kernel did not build");
    return;
  }
  uint32_t pass = 0;
  for (uint32_t i = 0; i < s->nchecks; i++)
    pass += s->checks[i].state == RUN_CHECK_PASS;
  snprintf(out, n, "Tests: %u of %u passed", pass, s->nchecks);
}

#define PRINTF_LINES 40     /* lines of the kernel's printf output the tests pane shows */

/* What the kernel printed in the tests (run_result.printf_out, each test's under a "[label]"
   line), at most PRINTF_LINES lines, saying so when some of it is not shown: past those
   lines here, or cut by the run (the whole is in the results folder's result.json). */
static void draw_printf(struct tui_canvas *c, const struct run_result *s)
{
  if (!s->printf_out[0] && !s->printf_cut)
    return;
  tui_nl(c);
  tui_put(c, TUI_TITLE, "Printed by the kernel (printf)");
  tui_nl(c);
  const char *p = s->printf_out;
  int shown = 0;
  while (*p && shown < PRINTF_LINES) {
    const char *e = strchr(p, '\n');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    char line[512];
    snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line - 1 ? len : sizeof line - 1), p);
    tui_wrap(c, line[0] == '[' ? TUI_DIM : TUI_NORMAL, 2, line[0] ? line : " ");
    shown++;
    p = e ? e + 1 : p + len;
  }
  uint32_t more = 0;
  for (const char *q = p; *q; q++)
    more += *q == '\n' || (!q[1] && *q != '\n');
  char note[256];
  if (more) {
    snprintf(note, sizeof note, "... %u more line%s not shown here%s (result.json in the "
             "results folder has them)", more, more == 1 ? "" : "s",
             s->printf_cut ? "; the run cut the output too" : "");
    tui_wrap(c, TUI_WARN, 2, note);
  } else if (s->printf_cut)
    tui_wrap(c, TUI_WARN, 2, "... cut: the kernel printed more than a run keeps");
}

static void draw_tests(struct tui_canvas *c, const struct tui_view *v)
{
  const struct run_result *s = v->stu;
  if (v->error[0]) {
    tui_wrap(c, TUI_BAD, 0, "The run did not happen:");
    tui_wrap(c, TUI_BAD, 2, v->error);
    if (s)
      tui_wrap(c, TUI_DIM, 0, "Shown: the last results that came (b or r to run again).");
    tui_nl(c);
  }
  if (!s) {
    if (!v->error[0])
      tui_wrap(c, TUI_DIM, 0, "No result yet: the first run is on its way.");
    return;
  }
  if (!s->built) {
    tui_wrap(c, TUI_BAD, 0, "The kernel did not build. nvcc says:");
    tui_wrap(c, TUI_NORMAL, 2, s->build_log);
    tui_nl(c);
    show_source(c, 2, s->prov.kernel_file, line_in(s->build_log, s->prov.kernel_file));
    return;
  }
  uint32_t pass = 0;
  for (uint32_t i = 0; i < s->nchecks; i++) {
    const struct run_check *k = &s->checks[i];
    pass += k->state == RUN_CHECK_PASS;
    c->col = 1;
    const char *state = run_check_state_label(k->state);
    tui_put(c, k->state == RUN_CHECK_PASS ? TUI_GOOD : TUI_BAD, state);
    c->col = 1 + (int)strlen(state) < 7 ? 8 : 2 + (int)strlen(state);   /* "TIMEOUT" is long */
    tui_put(c, TUI_NORMAL, k->label);
    tui_nl(c);
    if (k->state != RUN_CHECK_PASS) {
      tui_wrap(c, TUI_NORMAL, 8, k->detail);
      show_source(c, 8, k->fault_file, k->fault_line);
    }
  }
  tui_nl(c);
  if (pass == s->nchecks)
    tui_wrap(c, TUI_GOOD, 1, "Every test passed: every output element matches the reference.");
  else
    tui_wrap(c, TUI_DIM, 1, "FAIL: the first wrong element, what was expected and what was "
             "found. Outputs start as NaN, so an element never written cannot pass by luck.");
  draw_printf(c, s);
}

static const struct run_metric *find_metric(const struct run_result *r, const char *name)
{
  if (!r || !r->npoints)
    return NULL;
  const struct run_point *p = &r->points[0];
  for (uint32_t i = 0; i < p->nmetrics; i++)
    if (!strcmp(p->metric[i].name, name))
      return &p->metric[i];
  return NULL;
}

static const struct grade_item *find_item(const struct grade_result *g, const char *metric)
{
  for (uint32_t i = 0; g && i < g->nitems; i++)
    if (g->items[i].metric[0] && !strcmp(g->items[i].metric, metric))
      return &g->items[i];
  return NULL;
}

static void value_text(const struct run_metric *m, char *out, size_t n)
{
  if (!m || !m->defined)
    snprintf(out, n, "-");
  else
    met_fmt_value(m->name, m->value, out, n);
}

/* The mark of a grade item: its points in a word. */
static const char *item_mark(const struct grade_item *it, int *role)
{
  if (it->score >= it->max - 1e-9) {
    *role = TUI_GOOD;
    return "ok";
  }
  if (it->score <= 1e-9) {
    *role = TUI_BAD;
    return "MISS";
  }
  *role = TUI_WARN;
  return "part";
}

/* One row of the metrics pane. */
struct metric_row {
  char label[MET_FMT_LABEL_MAX + 1], yours[32], ref[32];
  const char *mark, *target, *kind;
  int mark_role, graded;
};

static int max_int(int a, int b) { return a > b ? a : b; }

/* The metrics pane: metric, yours, reference, mark, target, kind, each column as wide as its
   widest text and two blanks apart, so no text is drawn over another. What does not fit the
   pane is left out: first the kind, then the target goes on a line of its own. */
static void draw_metrics(struct tui_canvas *c, const struct tui_view *v)
{
  const struct run_result *s = v->stu;
  if (!s) {
    tui_wrap(c, TUI_DIM, 0, "No measurements yet.");
    return;
  }
  if (!s->npoints) {
    tui_wrap(c, TUI_DIM, 0, "No measurements: they are taken when the kernel is correct on the "
             "main size, so the main size's test must pass first.");
    return;
  }
  const struct run_point *p = &s->points[0];
  struct metric_row rows[RUN_MAX_POINT_METRICS];
  uint32_t n = 0;
  int wl = 6, wy = 5, wr = 9, wm = 0, wt = 0, wk = 4;   /* "metric", "yours", "reference"... */
  /* the rows the grade holds to a target first, so they stay in sight in a short pane */
  for (uint32_t k = 0; k < 2 * p->nmetrics && n < RUN_MAX_POINT_METRICS; k++) {
    const struct run_metric *x = &p->metric[k % p->nmetrics];
    const struct grade_item *it = find_item(v->grade, x->name);
    if ((it != NULL) != (k < p->nmetrics))
      continue;
    struct metric_row *r = &rows[n++];
    met_fmt_label(x->name, r->label, sizeof r->label);
    value_text(x, r->yours, sizeof r->yours);
    if (v->ref)
      value_text(find_metric(v->ref, x->name), r->ref, sizeof r->ref);
    else
      snprintf(r->ref, sizeof r->ref, "%s", v->grade ? "-" : "...");
    r->graded = it != NULL;
    r->mark = it ? item_mark(it, &r->mark_role) : "";
    r->target = it ? it->target : "";
    r->kind = x->kind;
    wl = max_int(wl, (int)strlen(r->label));
    wy = max_int(wy, (int)strlen(r->yours));
    wr = max_int(wr, (int)strlen(r->ref));
    wm = max_int(wm, (int)strlen(r->mark));
    wt = max_int(wt, (int)strlen(r->target));
    wk = max_int(wk, (int)strlen(r->kind));
  }
  if (wt)
    wt = max_int(wt, 6);   /* "target" */
  int x_y = wl + 2, x_r = x_y + wy + 2, x_m = x_r + wr + 2, x_t = x_m + (wm ? wm + 2 : 0);
  int x_k = x_t + (wt ? wt + 2 : 0);
  int show_kind = x_k + wk <= c->w, target_below = 0;
  if (!show_kind && wt && x_t + wt > c->w) {   /* the target on its own line */
    target_below = 1;
    x_k = x_t;
    show_kind = x_k + wk <= c->w;
  }
  c->col = 0;
  tui_put(c, TUI_TITLE, "metric");
  c->col = x_y + wy - 5;
  tui_put(c, TUI_TITLE, "yours");
  c->col = x_r + wr - 9;
  tui_put(c, TUI_TITLE, "reference");
  if (wt && !target_below) {
    c->col = x_t;
    tui_put(c, TUI_TITLE, "target");
  }
  if (show_kind) {
    c->col = x_k;
    tui_put(c, TUI_TITLE, "kind");
  }
  tui_nl(c);
  for (uint32_t i = 0; i < n; i++) {
    const struct metric_row *r = &rows[i];
    c->col = 0;
    tui_put(c, r->graded ? TUI_TITLE : TUI_NORMAL, r->label);
    c->col = x_y;
    tui_putf(c, TUI_NORMAL, "%*s", wy, r->yours);
    c->col = x_r;
    tui_putf(c, TUI_DIM, "%*s", wr, r->ref);
    if (r->mark[0]) {
      c->col = x_m;
      tui_put(c, r->mark_role, r->mark);
    }
    if (r->target[0] && !target_below) {
      c->col = x_t;
      tui_put(c, TUI_NORMAL, r->target);
    }
    if (show_kind) {
      c->col = x_k;
      tui_put(c, TUI_DIM, r->kind);
    }
    tui_nl(c);
    if (r->target[0] && target_below) {
      c->col = 2;
      tui_putf(c, TUI_NORMAL, "target: %s", r->target);
      tui_nl(c);
    }
  }
  tui_nl(c);
  char line[512];
  snprintf(line, sizeof line, "Your configuration %s (grid %ux%u, block %ux%u)%s%s. ok: target "
           "met, MISS: missed, part: some of its points.", p->label, p->grid[0], p->grid[1],
           p->block[0], p->block[1], v->ref && v->ref->npoints ? "; the reference's " : "",
           v->ref && v->ref->npoints ? v->ref->points[0].label : "");
  tui_wrap(c, TUI_DIM, 0, line);
  if (s->prov.backend[0] == 'e' && s->prov.timing_note[0])
    tui_wrap(c, TUI_DIM, 0, s->prov.timing_note);
  else if (s->prov.ncu_note[0])
    tui_wrap(c, TUI_DIM, 0, s->prov.ncu_note);
}

static void hints_title(const struct tui_view *v, char *out, size_t n)
{
  if (v->grade)
    snprintf(out, n, "Score %.1f / %.0f, hints", v->grade->score, v->grade->max);
  else
    snprintf(out, n, "Score and hints");
}

static void draw_hints(struct tui_canvas *c, const struct tui_view *v)
{
  const struct grade_result *g = v->grade;
  if (!g) {
    tui_wrap(c, TUI_DIM, 0, v->ref_note[0] ? v->ref_note : v->stu ?
             "Scoring after the reference solution's run on the same inputs..." : "No score yet.");
    return;
  }
  c->col = 0;
  tui_putf(c, TUI_TITLE, "Score %.1f of %.0f", g->score, g->max);
  tui_nl(c);
  tui_nl(c);
  tui_put(c, TUI_TITLE, "Hints");
  tui_nl(c);
  int full = 1;
  for (uint32_t i = 0; i < g->nitems; i++)
    full &= g->items[i].score >= g->items[i].max - 1e-9;
  if (!g->nhints)
    tui_wrap(c, full ? TUI_GOOD : TUI_DIM, 1, full ? "None: nothing the rubric measures needs "
             "fixing." : "None: the points below say which items lost points.");
  for (uint32_t i = 0; i < g->nhints; i++) {
    c->col = 0;
    tui_put(c, TUI_WARN, "*");
    tui_wrap(c, TUI_WARN, 2, g->hints[i]);
    if (v->stu) {
      uint32_t line = line_in(g->hints[i], v->stu->prov.kernel_file);
      show_source(c, 2, v->stu->prov.kernel_file, line);
    }
  }
  if (g->note[0])
    tui_wrap(c, TUI_DIM, 0, g->note);
  if (v->ref_note[0])
    tui_wrap(c, TUI_DIM, 0, v->ref_note);
  if (v->answers[0]) {
    char line[1100];
    snprintf(line, sizeof line, "Answers to the handout's questions: %s", v->answers);
    tui_wrap(c, TUI_DIM, 0, line);
  } else {
    tui_wrap(c, TUI_DIM, 0, "The handout's questions score from answers.json beside your kernel "
             "file ({\"q1\": 4, ...}); there is none.");
  }
  tui_nl(c);
  tui_put(c, TUI_TITLE, "Points");
  tui_nl(c);
  for (uint32_t i = 0; i < g->nitems; i++) {
    const struct grade_item *it = &g->items[i];
    int role;
    const char *mark = item_mark(it, &role);
    c->col = 0;
    tui_putf(c, TUI_NORMAL, "%5.1f/%-5.1f", it->score, it->max);
    c->col = 13;
    tui_put(c, role, mark);
    c->col = 18;
    /* a metric's name shortened as in the metrics pane: "metric target: sect/req" */
    const char *at = it->metric[0] ? strstr(it->name, it->metric) : NULL;
    char label[MET_FMT_LABEL_MAX + 1];
    if (at)
      tui_putf(c, TUI_NORMAL, "%.*s%s%s", (int)(at - it->name), it->name,
               met_fmt_label(it->metric, label, sizeof label), at + strlen(it->metric));
    else
      tui_put(c, TUI_NORMAL, it->name);
    tui_nl(c);
  }
}

/* ---- frames, header, status, help ---- */

static void hline_at(int y, int x, int w)
{
  if (w > 0)
    mvhline(y, x, ACS_HLINE, w);
}

/* A pane's frame and title; more lines above or below are said on the frame. */
static void frame(int y, int x, int h, int w, const char *title, int focus, int above, int below)
{
  attrset(focus ? A_BOLD : A_NORMAL);
  mvaddch(y, x, ACS_ULCORNER);
  hline_at(y, x + 1, w - 2);
  mvaddch(y, x + w - 1, ACS_URCORNER);
  if (h > 2) {
    mvvline(y + 1, x, ACS_VLINE, h - 2);
    mvvline(y + 1, x + w - 1, ACS_VLINE, h - 2);
  }
  mvaddch(y + h - 1, x, ACS_LLCORNER);
  hline_at(y + h - 1, x + 1, w - 2);
  mvaddch(y + h - 1, x + w - 1, ACS_LRCORNER);
  attrset(A_NORMAL);
  char t[256], buf[256];
  snprintf(t, sizeof t, "%s%s ", focus ? " > " : " ", title);
  int n = (int)clean(t, buf, sizeof buf);
  attrset(tui_crt_attr(focus ? TUI_FOCUS : TUI_TITLE));
  mvaddnstr(y, x + 1, buf, n < w - 3 ? n : w - 3);
  attrset(tui_crt_attr(TUI_DIM));
  if (above && w > 12)
    mvaddstr(y, x + w - 9, " ^ more ");
  if (below && w > 24) {
    snprintf(t, sizeof t, " v %d more ", below);
    mvaddstr(y + h - 1, x + w - 2 - (int)strlen(t), t);
  }
  attrset(A_NORMAL);
}

static void pane_title(const struct tui_view *v, enum tui_pane p, char *out, size_t n)
{
  switch (p) {
  case TUI_PANE_TESTS: tests_title(v, out, n); break;
  case TUI_PANE_METRICS: snprintf(out, n, "Metrics: yours, reference, target"); break;
  case TUI_PANE_CHART: tui_chart_title(v, out, n); break;
  default: hints_title(v, out, n); break;
  }
}

static void pane_text(struct tui_canvas *c, const struct tui_view *v, enum tui_pane p)
{
  switch (p) {
  case TUI_PANE_TESTS: draw_tests(c, v); break;
  case TUI_PANE_METRICS: draw_metrics(c, v); break;
  case TUI_PANE_CHART: tui_chart_draw(c, v); break;
  default: draw_hints(c, v); break;
  }
}

/* A pane in its frame at (y, x, h, w): the text is laid out twice, once to learn its length
   (so the scroll is clamped before drawing), once to draw. */
static void pane(struct tui_view *v, enum tui_pane p, int y, int x, int h, int w)
{
  struct tui_canvas c = {.y = y + 1, .x = x + 2, .h = 0, .w = w - 4};
  pane_text(&c, v, p);   /* h = 0: nothing is drawn, the lines are counted */
  int rows = h - 2, lines = c.line;
  int max = lines - rows > 0 ? lines - rows : 0;
  if (v->scroll[p] > max)
    v->scroll[p] = max;
  v->lines[p] = lines;
  v->height[p] = rows;
  char title[256];
  pane_title(v, p, title, sizeof title);
  frame(y, x, h, w, title, v->focus == p, v->scroll[p] > 0, lines - v->scroll[p] - rows > 0 ?
        lines - v->scroll[p] - rows : 0);
  struct tui_canvas d = {.y = y + 1, .x = x + 2, .h = rows, .w = w - 4, .skip = v->scroll[p]};
  pane_text(&d, v, p);
}

/* A pane folded to one line (small terminals): its title on a rule. */
static void folded(struct tui_view *v, enum tui_pane p, int y)
{
  char title[256], t[300], buf[300];
  pane_title(v, p, title, sizeof title);
  v->height[p] = 0;
  attrset(A_NORMAL);
  hline_at(y, 0, COLS);
  snprintf(t, sizeof t, " %s ", title);
  int n = (int)clean(t, buf, sizeof buf);
  attrset(tui_crt_attr(TUI_TITLE));
  mvaddnstr(y, 2, buf, n < COLS - 4 ? n : COLS - 4);
  attrset(A_NORMAL);
}

/* text at (y, x), cut at the screen's edge. */
static void text_at(int y, int x, int role, const char *text)
{
  char buf[1024];
  int n = (int)clean(text, buf, sizeof buf);
  if (x >= COLS)
    return;
  attrset(tui_crt_attr(role));
  mvaddnstr(y, x, buf, n < COLS - x ? n : COLS - x);
  attrset(A_NORMAL);
  cells_mark(y, x, buf, n < COLS - x ? n : COLS - x);
}

/* Row 0: the lab and the score. */
static void header_title(const struct tui_view *v)
{
  attrset(tui_crt_attr(TUI_BAR));
  mvhline(0, 0, ' ', COLS);
  attrset(A_NORMAL);
  char left[300], right[64] = "";
  snprintf(left, sizeof left, " warplab  %s: %s", v->lab->id, v->lab->title);
  if (v->grade)
    snprintf(right, sizeof right, "Score %.1f / %.0f ", v->grade->score, v->grade->max);
  text_at(0, 0, TUI_BAR, left);
  int rl = (int)strlen(right);
  if (rl && COLS - rl > (int)strlen(left) + 1)
    text_at(0, COLS - rl, TUI_BAR, right);
}

/* Row 1: the next run's settings, each with its key, and the kernel file. */
static void header_settings(const struct tui_view *v)
{
  const char *const keys[][2] = {{"b", " backend "}, {"p", " profile "}, {"w", " watch "}};
  const char *vals[] = {v->backend, v->profile, v->watch ? "on" : "off"};
  int x = 1;
  for (int i = 0; i < 3; i++) {
    text_at(1, x, TUI_KEY, keys[i][0]);
    text_at(1, x + 1, TUI_NORMAL, keys[i][1]);
    x += 1 + (int)strlen(keys[i][1]);
    text_at(1, x, TUI_TITLE, vals[i]);
    x += (int)strlen(vals[i]) + 3;
  }
  char k[1100];
  snprintf(k, sizeof k, "kernel %s", v->kernel);
  text_at(1, x, TUI_DIM, k);
}

/* Row 2: where the figures shown come from: the backend in words, the size, the seed, the
   folder (a run that did not build has no backend or size). */
static void header_provenance(const struct tui_view *v)
{
  const struct run_result *s = v->stu;
  char prov[2400], seed[48], backend[400];
  size_t k = (size_t)snprintf(prov, sizeof prov, " shown:");
  if (!s) {
    snprintf(prov + k, sizeof prov - k, " nothing yet");
    text_at(2, 0, TUI_DIM, prov);
    return;
  }
  snprintf(seed, sizeof seed, "seed %llu", (unsigned long long)s->prov.seed);
  const char *parts[] = {run_describe_backend(s, backend, sizeof backend), s->prov.sizes, seed,
                         s->results_dir};
  int n = 0;
  for (size_t i = 0; i < sizeof parts / sizeof *parts && k < sizeof prov; i++)
    if (parts[i][0])
      k += (size_t)snprintf(prov + k, sizeof prov - k, "%s %s", n++ ? " |" : "", parts[i]);
  text_at(2, 0, TUI_DIM, prov);
}

static void status_line(const struct tui_view *v)
{
  int y = LINES - 1;
  move(y, 0);
  clrtoeol();
  static const char keys[] = "r rerun  ? help  q quit ";
  int kl = (int)strlen(keys);
  int room = COLS - kl - 2;
  char buf[512];
  snprintf(buf, sizeof buf, " %.*s", room > 0 ? room : 0, v->status);
  text_at(y, 0, v->status_role, buf);
  if (COLS > kl + 20) {
    int x = COLS - kl;
    text_at(y, x, TUI_KEY, "r");
    text_at(y, x + 1, TUI_DIM, " rerun  ");
    text_at(y, x + 9, TUI_KEY, "?");
    text_at(y, x + 10, TUI_DIM, " help  ");
    text_at(y, x + 17, TUI_KEY, "q");
    text_at(y, x + 18, TUI_DIM, " quit ");
  }
}

static void help(void)
{
  static const char *const lines[][2] = {
    {"r", "run again (fresh inputs)"},
    {"w", "watch: run again when the kernel is saved"},
    {"b", "backend of the next runs: auto, gpu, emu"},
    {"p / P", "emulator profile: next, previous"},
    {"Tab / S-Tab", "next pane, previous pane (Right, Left)"},
    {"Up, Down", "scroll the pane (j, k)"},
    {"PgUp, PgDn", "scroll a page (Space); Home, End"},
    {"[ ] c", "the lab's other charts"},
    {"Ctrl-L", "draw the screen again"},
    {"?", "this help; any key closes it"},
    {"q", "quit; exits with the last run's status"},
  };
  int n = (int)(sizeof lines / sizeof *lines);
  int w = COLS - 4 < 64 ? COLS - 4 : 64, h = n + 4 < LINES - 2 ? n + 4 : LINES - 2;
  int y = (LINES - h) / 2, x = (COLS - w) / 2;
  for (int r = 0; r < h; r++) {
    move(y + r, x);
    for (int i = 0; i < w; i++)
      addch(' ');
  }
  frame(y, x, h, w, "Keys", 1, 0, 0);
  for (int i = 0; i < n && i + 2 < h - 1; i++) {
    char t[200];
    snprintf(t, sizeof t, "%-12s", lines[i][0]);
    text_at(y + 2 + i, x + 3, TUI_KEY, t);
    snprintf(t, sizeof t, "%.*s", w - 18 > 0 ? w - 18 : 0, lines[i][1]);
    text_at(y + 2 + i, x + 16, TUI_NORMAL, t);
  }
}

void tui_draw(struct tui_view *v)
{
  erase();
  cells_reset();
  if (COLS < MIN_COLS || LINES < MIN_LINES) {
    char t[160];
    snprintf(t, sizeof t, "The terminal is %dx%d: too small; the feedback screen needs %dx%d. "
             "q quits.", COLS, LINES, MIN_COLS, MIN_LINES);
    struct tui_canvas c = {.y = 0, .x = 0, .h = LINES, .w = COLS};
    tui_wrap(&c, TUI_BAD, 0, t);
    refresh();
    return;
  }
  header_title(v);
  header_settings(v);
  header_provenance(v);
  int top = 3, h = LINES - 1 - top;
  if (COLS >= GRID_COLS && LINES >= GRID_LINES) {
    /* no measurements (a failing kernel): the tests take the room the metrics would have */
    int measured = v->stu && v->stu->npoints;
    int h1 = measured ? h * 2 / 5 : h / 2, h2;
    h1 = h1 < 9 ? 9 : h1;
    h2 = h - h1;
    int w1 = measured ? COLS * 2 / 5 : COLS * 3 / 5, w2 = COLS * 3 / 5;
    pane(v, TUI_PANE_TESTS, top, 0, h1, w1);
    pane(v, TUI_PANE_METRICS, top, w1, h1, COLS - w1);
    pane(v, TUI_PANE_CHART, top + h1, 0, h2, w2);
    pane(v, TUI_PANE_HINTS, top + h1, w2, h2, COLS - w2);
  } else {
    int y = top;
    for (int p = 0; p < TUI_NPANES; p++) {
      if (p == (int)v->focus) {
        int ph = h - (TUI_NPANES - 1);
        pane(v, (enum tui_pane)p, y, 0, ph, COLS);
        y += ph;
      } else {
        folded(v, (enum tui_pane)p, y++);
      }
    }
  }
  status_line(v);
  if (v->help) {   /* a box over the panes: its text may cover theirs */
    cells_reset();
    help();
  }
  refresh();
}
