/* grade.c: score a submission by its lab's rubric (see grade.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grader/grade.h"
#include "grader/grade_occ.h"

#define GRADE_HINT_MAX sizeof ((struct grade_result *)0)->hints[0]

static struct grade_item *item(struct grade_result *g, const char *name, double max)
{
  if (g->nitems == GRADE_MAX_ITEMS)
    return NULL;
  struct grade_item *it = &g->items[g->nitems++];
  memset(it, 0, sizeof *it);
  snprintf(it->name, sizeof it->name, "%s", name);
  it->max = max;
  g->max += max;
  return it;
}

static void hint(struct grade_result *g, const char *text)
{
  if (g->nhints < GRADE_MAX_HINTS)
    snprintf(g->hints[g->nhints++], sizeof g->hints[0], "%s", text);
}

const struct run_metric *grade_main_metric(const struct run_result *r, const char *name)
{
  if (!r || !r->npoints)
    return NULL;
  const struct run_point *p = &r->points[0];
  for (uint32_t i = 0; i < p->nmetrics; i++)
    if (!strcmp(p->metric[i].name, name) && p->metric[i].defined)
      return &p->metric[i];
  return NULL;
}

/* The name of test t of lab (t == ntests: the main size on backend "gpu" or "emu"), as the
   run labels its check: "nx=33 ny=17", "n=4096 arch=wave64", "nx=1024 ny=512 (main)". */
static void test_label(const struct run_lab *lab, uint32_t t, const char *backend, char *buf,
                       size_t n)
{
  const struct run_sizes *sz = t < lab->ntests ? &lab->tests[t]
                               : !strcmp(backend, "gpu") ? &lab->gpu : &lab->emu;
  size_t k = 0;
  buf[0] = 0;
  for (uint32_t i = 0; i < sz->n && k < n; i++) {
    int w = snprintf(buf + k, n - k, "%s%s=%lld", i ? " " : "", sz->name[i], (long long)sz->v[i]);
    if (w < 0)
      break;
    k += (size_t)w;
  }
  if (k < n && t == lab->ntests)
    snprintf(buf + k, n - k, " (main)");
  else if (k < n && lab->test_arch[t][0])
    snprintf(buf + k, n - k, " arch=%s", lab->test_arch[t]);
}

/* Why no test of s ran, for "not run: ..." (s has not the lab's full list of checks): the
   build, the kernel's signature, a construct the emulator does not run. */
static void not_run_reason(const struct run_result *s, char *buf, size_t n)
{
  if (!s->built)
    snprintf(buf, n, "the kernel did not build");
  else if (s->nchecks)
    snprintf(buf, n, "%.95s: %.500s", s->checks[0].label, s->checks[0].detail);
  else
    snprintf(buf, n, "the kernel was not run");
}

/* What to look at for the fault of check k, by its kind: the loop exit of a runaway loop,
   the pointer of a null or wild access, the bound of one past the end, the barrier of a race
   or an uninitialised shared read, the mask of a *_sync intrinsic. */
static void fault_hint(const struct run_check *k, char *h, size_t n)
{
  const char *base = strrchr(k->fault_file, '/');
  char at[320];
  if (k->fault_line)
    snprintf(at, sizeof at, " at %s:%u (%s)", base ? base + 1 : k->fault_file, k->fault_line,
             k->label);
  else
    snprintf(at, sizeof at, " (%s)", k->label);
  const char *kind = k->fault_kind, *place = k->fault_place;
  if (!strcmp(kind, "budget_exceeded"))
    snprintf(h, n, "The kernel ran away%s: a loop there never ends. Look at that loop's exit "
             "condition: does what it tests change on every pass and reach the bound for every "
             "thread (a stride of 0, a step that jumps over a != bound, an unsigned counter "
             "that never goes below 0)?", at);
  else if (!strcmp(place, "null"))
    snprintf(h, n, "The kernel used a null pointer%s: the pointer there was never set. Use the "
             "kernel's own arguments (device buffers), not a host pointer or an unset "
             "variable.", at);
  else if (!strcmp(place, "wild"))
    snprintf(h, n, "The kernel used a wild pointer%s: an address far from every buffer. Look at "
             "how that pointer or index is made: an unset variable, a wrong cast, a value read "
             "from memory used as an index.", at);
  else if (!strcmp(place, "one_past"))
    snprintf(h, n, "The kernel touched the element just past the end of a buffer%s: an "
             "off-by-one. Check that line's guard or loop bound: i < n, not i <= n.", at);
  else if (!strcmp(place, "before"))
    snprintf(h, n, "The kernel touched memory before the start of a buffer%s: a negative index. "
             "Check a neighbour's index at the edge (i - 1 when i is 0).", at);
  else if (!strcmp(kind, "race"))
    snprintf(h, n, "A race on shared memory%s: one thread wrote a word another read or wrote "
             "with nothing ordering them. Put __syncthreads() (or __syncwarp() within one "
             "warp) between the write and the other thread's access, and before a slot is "
             "written again.", at);
  else if (!strcmp(kind, "uninitialized_read"))
    snprintf(h, n, "The kernel read shared memory no thread had written%s. Every word read must "
             "be stored first, before a __syncthreads(): does the loading code cover the whole "
             "tile, and store a neutral value (0 for a sum) where it is past the input's end?",
             at);
  else if (!strcmp(kind, "sync_mask"))
    snprintf(h, n, "A *_sync intrinsic got a wrong mask%s: the mask must name exactly the lanes "
             "that call it (0xffffffff when the whole warp does), never leave out the calling "
             "lane or name lanes that have exited.", at);
  else if (!strcmp(kind, "deadlock") || !strcmp(kind, "barrier_divergence"))
    snprintf(h, n, "The kernel stopped at a barrier%s that some threads never reach: a "
             "__syncthreads() or __syncwarp() inside an if, or after a return, that not every "
             "thread takes. The test's report names the lines.", at);
  else if (!strcmp(kind, "misaligned"))
    snprintf(h, n, "A misaligned access%s: an address that is not a multiple of its access's "
             "size (a cast of a pointer to a wider type).", at);
  else if (!strcmp(place, "past") || !strcmp(kind, "out_of_bounds") || !kind[0])
    snprintf(h, n, "The kernel faulted%s. Guard every index against the problem's size: every "
             "test size must work, not only multiples of your block.", at);
  else
    snprintf(h, n, "The kernel faulted%s: the test's report says what and where.", at);
}

/* Tests that gave wrong outputs (no fault): which, and for tests on another architecture
   profile (wave64) what a kernel written for 32 lanes assumes. */
static void failed_hint(const struct run_result *s, struct grade_result *g)
{
  char names[400] = "";
  size_t k = 0;
  uint32_t nfail = 0, narch = 0;
  for (uint32_t i = 0; i < s->nchecks; i++) {
    const struct run_check *c = &s->checks[i];
    if (c->state != RUN_CHECK_FAIL)
      continue;
    nfail++;
    if (strstr(c->label, "arch="))
      narch++;
    if (k < sizeof names) {
      int w = snprintf(names + k, sizeof names - k, "%s%s", k ? "; " : "", c->label);
      k += w > 0 ? (size_t)w : 0;
    }
  }
  if (!nfail || nfail == s->nchecks)
    return;
  char h[GRADE_HINT_MAX];
  if (narch == nfail)
    snprintf(h, sizeof h, "%u test%s on another architecture profile failed (%.300s): a warp "
             "there is not 32 lanes. Use warpSize, not 32; a mask of every lane of the warp "
             "(__activemask(), or all ones of warpSize bits); and shuffle offsets from "
             "warpSize / 2.", nfail, nfail == 1 ? "" : "s", names);
  else
    snprintf(h, sizeof h, "%u of %u tests failed (%.300s); the others pass: what is different "
             "about those sizes (a partial last block, a size that is not a multiple of 32)?",
             nfail, s->nchecks, names);
  hint(g, h);
}

/* Correctness: the points shared evenly by the lab's test sizes and its main size, all or
   nothing each. The items are the same, by name and number, whatever the kernel did: a
   kernel that did not build or could not run has each of them at 0, "not run: why". */
static void correctness(const struct run_rubric *rb, const struct run_lab *lab,
                        const struct run_result *s, const struct run_result *ref,
                        struct grade_result *g)
{
  double pts = rb->correctness_points;
  /* the tests scored: the lab's, less its hidden ones where the run left them out (`run` and
     the feedback screen score what the student can see; `grade` runs them all) */
  uint32_t idx[RUN_MAX_TESTS + 1], n = 0;
  for (uint32_t t = 0; t < lab->ntests; t++)
    if (!(s->hidden_left_out && lab->test_hidden[t]))
      idx[n++] = t;
  idx[n++] = lab->ntests;
  int full = s->built && s->nchecks == n;
  const char *backend = s->prov.backend[0] ? s->prov.backend
                        : ref && ref->prov.backend[0] ? ref->prov.backend : "emu";
  char why[640];
  not_run_reason(s, why, sizeof why);
  for (uint32_t i = 0; i < n; i++) {
    char label[96], name[128];
    if (full)
      snprintf(label, sizeof label, "%s", s->checks[i].label);
    else
      test_label(lab, idx[i], backend, label, sizeof label);
    snprintf(name, sizeof name, "correctness: %s", label);
    struct grade_item *it = item(g, name, pts / n);
    if (!it)
      return;
    if (!full && !s->built && i == 0)
      snprintf(it->output, sizeof it->output, "not run: the kernel did not build:\n%.680s",
               s->build_log);
    else if (!full && !s->built)
      snprintf(it->output, sizeof it->output, "not run: the kernel did not build (the "
               "compiler's messages are under the first test)");
    else if (!full)
      snprintf(it->output, sizeof it->output, "not run: %s", why);
    else {
      const struct run_check *k = &s->checks[i];
      it->score = k->state == RUN_CHECK_PASS ? it->max : 0;
      snprintf(it->output, sizeof it->output, "%s",
               k->state == RUN_CHECK_PASS ? "every element matches the reference" : k->detail);
    }
  }
  if (!s->built) {
    hint(g, "Fix the build first: the compiler's message names the file and line.");
    return;
  }
  for (uint32_t i = 0; i < s->nchecks; i++) {
    const struct run_check *k = &s->checks[i];
    if (!full) {
      hint(g, k->detail);                       /* what kept every test from running */
      break;
    }
    if (k->state == RUN_CHECK_FAULT) {
      char h[GRADE_HINT_MAX];
      fault_hint(k, h, sizeof h);
      hint(g, h);
      break;
    }
    if (k->state == RUN_CHECK_FAIL && strstr(k->detail, "never wrote")) {
      hint(g, "Some outputs were never written (they still hold the poison NaN): does every "
              "thread that owns an output element store it?");
      break;
    }
  }
  if (full)
    failed_hint(s, g);
}

/* Correct on the main size (its check, the last, passed) and measured there: what the metric
   targets and performance need; an edge size that failed costs its own points only. */
static int main_correct(const struct run_result *s)
{
  return s->built && s->nchecks && s->checks[s->nchecks - 1].state == RUN_CHECK_PASS && s->npoints;
}

/* A metric target that is an average over accesses or instructions can be padded: accesses
   that do none of the lab's work (1000 coalesced byte loads a thread) pull the average of a
   32-sectors-a-request kernel under the target. Each such family of targets, and the count
   its average is taken over: a student's count many times the reference solution's, for the
   same outputs, means the average is mostly of accesses the lab did not ask for. */
static const struct {
  const char *family;          /* a part of the target's name */
  const char *count;           /* the metric its average is taken over */
  const char *what;            /* that count, in words */
} padded_by[] = {
  {"mem_global_op_ld", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "global load requests"},
  {"mem_global_op_st", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "global store requests"},
  {"mem_shared_op_ld", "warplab__ideal_wavefronts_mem_shared_op_ld.sum", "shared-memory loads"},
  {"mem_shared_op_st", "warplab__ideal_wavefronts_mem_shared_op_st.sum", "shared-memory stores"},
  {"branch_targets", "smsp__sass_branch_targets.sum", "branch targets"},
  {"per_inst_executed", "smsp__inst_executed.sum", "warp instructions"},
};
#define PADDING_FACTOR 4.0     /* this many times the reference's count: the target is not met */

/* Whether target name, an average, is taken over a count the student s has PADDING_FACTOR
   times (or more) the reference ref's: then why says so, for the student and the instructor. */
static int padded(const char *name, const struct run_result *s, const struct run_result *ref,
                  char *why, size_t n)
{
  if (!ref || !main_correct(ref) || !(strstr(name, ".ratio") || strstr(name, ".pct")))
    return 0;
  for (size_t i = 0; i < sizeof padded_by / sizeof *padded_by; i++) {
    if (!strstr(name, padded_by[i].family))
      continue;
    const struct run_metric *a = grade_main_metric(s, padded_by[i].count);
    const struct run_metric *b = grade_main_metric(ref, padded_by[i].count);
    if (!a || !b || b->value <= 0 || a->value < PADDING_FACTOR * b->value)
      return 0;
    snprintf(why, n, "the kernel makes %.0f %s (%.1fx the reference solution's %.0f) for the "
             "same outputs: %s is judged on the accesses that do the lab's work, and the extra "
             "ones change it", a->value, padded_by[i].what, a->value / b->value, b->value, name);
    return 1;
  }
  return 0;
}

static void metric_targets(const struct run_rubric *rb, const struct run_result *s,
                           const struct run_result *ref, struct grade_result *g)
{
  for (uint32_t i = 0; i < rb->ntargets; i++) {
    const struct run_target *t = &rb->targets[i];
    const char *name = t->metric;
    double pts = t->points;
    char label[160];
    snprintf(label, sizeof label, "metric target: %s", name);
    if (ref && main_correct(ref) && !grade_main_metric(ref, name)) {
      /* not measured for the reference solution either (a GPU without Nsight Compute, or
         --no-ncu): not counted, for every student alike, as performance is */
      size_t k = strlen(g->note);
      snprintf(g->note + k, sizeof g->note - k, "%smetric target %s (%g points) not scored: no "
               "value on this backend", k ? "; " : "", name, pts);
      continue;
    }
    struct grade_item *it = item(g, label, pts);
    if (!it)
      continue;
    const struct run_metric *x = grade_main_metric(s, name);
    int mx = t->has_max, mn = t->has_min;
    double bound = mx ? t->max : t->min;
    snprintf(it->metric, sizeof it->metric, "%s", name);
    snprintf(it->target, sizeof it->target, "%s %.4g", mx ? "at most" : "at least", bound);
    if (!main_correct(s) || !x) {
      snprintf(it->output, sizeof it->output, "%s", !main_correct(s)
               ? "not scored: the kernel must be correct on the main size first"
               : "not measured on this backend");
      continue;
    }
    int ok = (!mx || x->value <= t->max + 1e-9) && (!mn || x->value >= t->min - 1e-9);
    char pad[400];
    if (ok && padded(name, s, ref, pad, sizeof pad)) {
      /* not met, and the instructor sees why in the hidden integrity test */
      snprintf(it->output, sizeof it->output, "not met: %s = %.4g, but %s.", name, x->value, pad);
      size_t k = strlen(g->flagged);
      snprintf(g->flagged + k, sizeof g->flagged - k, "%smetric target not met: %s", k ? "; " : "",
               pad);
      continue;
    }
    it->score = ok ? pts : 0;
    snprintf(it->output, sizeof it->output, "%s = %.4g (%s); target %s %.4g. %s", name, x->value,
             x->kind, mx ? "at most" : "at least", bound, t->why);
    if (!ok) {
      char h[512];
      snprintf(h, sizeof h, "%s is %.4g, the target is %s %.4g: %s", name, x->value,
               mx ? "at most" : "at least", bound, t->why);
      hint(g, h);
    }
  }
}

static void performance(const struct run_rubric *rb, const struct run_result *s,
                        const struct run_result *ref, struct grade_result *g)
{
  const char *name = rb->performance_metric[0] ? rb->performance_metric : NULL;
  double pts = rb->performance_points, full = rb->full_within, zero = rb->zero_beyond;
  const struct run_metric *a = name ? grade_main_metric(s, name) : NULL;
  const struct run_metric *b = name && ref ? grade_main_metric(ref, name) : NULL;
  if (!b || b->value <= 0) {
    /* no time for the reference solution (the timing model could not model it): not counted,
       for every student alike, so maximum scores agree across a class */
    size_t k = strlen(g->note);
    snprintf(g->note + k, sizeof g->note - k, "%sperformance (%g points) not scored: the "
             "reference solution's %s has no value on this backend", k ? "; " : "", pts,
             name ? name : "time");
    return;
  }
  struct grade_item *it = item(g, "performance against the reference solution", pts);
  if (!it)
    return;
  snprintf(it->metric, sizeof it->metric, "%s", name);
  snprintf(it->target, sizeof it->target, "within %.3gx of the reference", full);
  if (!main_correct(s)) {
    snprintf(it->output, sizeof it->output, "not scored: the kernel must be correct on the main size");
    return;
  }
  if (!a) {                     /* correct, but its run has no time where the reference's has */
    snprintf(it->output, sizeof it->output, "not scored: no %s for this kernel on this backend%s%s",
             name, s->prov.timing_note[0] ? ": " : "", s->prov.timing_note);
    return;
  }
  double ratio = a->value / b->value;
  double frac = ratio <= full ? 1.0 : ratio >= zero ? 0.0 : (zero - ratio) / (zero - full);
  it->score = pts * frac;
  g->time_ratio = ratio;
  g->has_time_ratio = 1;
  snprintf(it->output, sizeof it->output, "%s (%s%s): yours %.4g, the reference solution's %.4g, "
           "ratio %.3f (full points up to %.2f, none from %.2f)", name, a->kind,
           !strcmp(a->kind, "modelled") ? " by the emulator's timing model for the GPU it stands "
           "for" : "", a->value, b->value, ratio, full, zero);
}

/* v as the student wrote it, as near as a double keeps it: the shortest text that reads back
   as v ("8.0000001", "0.671", "50"), never rounded to a few digits. */
static void shortest(double v, char *buf, size_t n)
{
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(buf, n, "%.*g", prec, v);
    if (strtod(buf, NULL) == v)
      return;
  }
}

/* The JSON type of a, in words, for an answer that is not a number. */
static const char *json_kind(const json_t *a)
{
  switch (json_typeof(a)) {
  case JSON_STRING: return "a string";
  case JSON_TRUE: case JSON_FALSE: return "a true/false value";
  case JSON_NULL: return "null";
  case JSON_ARRAY: return "a list";
  case JSON_OBJECT: return "an object";
  default: return "a number";
  }
}

/* How far got is from want, in words that do not give the answer away: close, within a
   factor of 2, or about how many times too high or too low, naming a factor that a slip of
   unit would make (1000: bytes and KB, or ms and us; 1024; 100: a fraction and a percent;
   8: bits and bytes; 32: lanes and warps). */
static void how_far(double got, double want, const char *unit, char *buf, size_t n)
{
  if (want == 0 || got == 0 || (got < 0) != (want < 0)) {
    snprintf(buf, n, "%s", want == 0 ? (got > 0 ? "too high" : "too low")
             : got == 0 ? "0 is not it" : "the sign is wrong");
    return;
  }
  double r = got / want, f = r > 1 ? r : 1 / r;
  const char *dir = r > 1 ? "too high" : "too low";
  static const double slips[] = {1e6, 1e3, 1024, 100, 32, 8};
  if (f <= 1.1) {
    snprintf(buf, n, "close: within 10%% of the answer, but outside its tolerance");
    return;
  }
  if (f <= 2) {
    snprintf(buf, n, "%s, by less than a factor of 2", dir);
    return;
  }
  for (size_t i = 0; i < sizeof slips / sizeof *slips; i++)
    if (fabs(f / slips[i] - 1) < 0.01) {
      snprintf(buf, n, "about %g times %s, a factor a slip of unit makes: the answer is in %s",
               slips[i], dir, unit[0] ? unit : "the question's unit");
      return;
    }
  snprintf(buf, n, "about %.2g times %s", f, dir);
}

/* Questions: each answer judged against the rubric's answer within its tolerance, as given
   (a string "4" is a string, named as such). Feedback names the question's unit, how far a
   wrong answer is and the handout section; a pencil question ("method": "pencil") is sent
   back to the handout, a measured one to warplab. */
static void questions(const struct run_rubric *rb, const struct run_lab *lab, json_t *answers,
                      struct grade_result *g)
{
  double pts = rb->questions_points;
  uint32_t n = rb->nquestions;
  for (uint32_t i = 0; i < n; i++) {
    const struct run_question *x = &rb->questions[i];
    const char *id = x->id, *unit = x->unit;
    const char *section = x->section[0] ? x->section : NULL;
    char name[96], in_unit[96] = "";
    if (unit[0])
      snprintf(in_unit, sizeof in_unit, " (in %s)", unit);
    snprintf(name, sizeof name, "question %s", id);
    struct grade_item *it = item(g, name, n ? pts / (double)n : 0);
    if (!it)
      continue;
    json_t *a = answers ? json_object_get(answers, id) : NULL;
    double want = x->has_answer ? x->answer : NAN, tol = x->tolerance;
    char see[400] = "";
    if (section)
      snprintf(see, sizeof see, " See handouts/%s.md, section '%s'.", lab->id, section);
    if (!a) {
      snprintf(it->output, sizeof it->output, "%s%s: no answer given (answers.json: {\"%s\": "
               "NUMBER}).%s", id, in_unit, id, see);
      continue;
    }
    if (!json_is_number(a)) {
      char shown[64] = "";
      if (json_is_string(a))
        snprintf(shown, sizeof shown, " \"%.40s\"", json_string_value(a));
      snprintf(it->output, sizeof it->output, "%s%s: your answer%s is %s where a number is "
               "expected: write it without quotes or unit, e.g. {\"%s\": 12.5}; not counted.",
               id, in_unit, shown, json_kind(a), id);
      continue;
    }
    double got = json_number_value(a);
    char given[40];
    shortest(got, given, sizeof given);
    if (!x->has_answer) {                  /* a students' copy (warplab release): no key */
      snprintf(it->output, sizeof it->output, "%s: you answered %s; this copy has no answer key: "
               "your instructor's grading scores it", id, given);
      continue;
    }
    /* the rubric's tolerance, and no more than a double's rounding of the answer */
    int ok = fabs(got - want) <= tol + 1e-12 * fmax(1.0, fabs(want));
    it->score = ok ? it->max : 0;
    if (ok) {
      snprintf(it->output, sizeof it->output, "%s: you answered %s%s%s: right", id, given,
               unit[0] ? " " : "", unit);
      continue;
    }
    char far[160];
    how_far(got, want, unit, far, sizeof far);
    snprintf(it->output, sizeof it->output, "%s: you answered %s%s%s, which is not it (%s). "
             "%s%s", id, given, unit[0] ? " " : "", unit, far,
             x->pencil
             ? "Work it out again from the handout's figures."
             : "Measure it with warplab and look again.", see);
  }
}

/* The main configuration's figures, the student's and the reference's, for class charts:
   only what the rubric would judge, a kernel correct on the main size. */
static void measure(const struct run_result *s, const struct run_result *ref, struct grade_result *g)
{
  if (!main_correct(s))
    return;
  const struct run_point *p = &s->points[0];
  for (uint32_t i = 0; i < p->nmetrics && g->nmeasured < RUN_MAX_POINT_METRICS; i++) {
    if (!p->metric[i].defined)
      continue;
    struct grade_measure *m = &g->measured[g->nmeasured++];
    snprintf(m->metric, sizeof m->metric, "%s", p->metric[i].name);
    m->value = p->metric[i].value;
    m->has_value = 1;
    const struct run_metric *r = ref ? grade_main_metric(ref, m->metric) : NULL;
    if (r) {
      m->reference = r->value;
      m->has_reference = 1;
    }
  }
}

/* Whether hotspot h of a submission is a pattern the reference solution's run (same inputs)
   shows too: a finding of the same kind, costing no more than twice the reference's worst
   of that kind (the lone atomicAdd of a reduction, the if (lane == 0) that splits a warp on
   purpose). A finding far worse than the reference's is still one to fix. */
static int hot_expected(const struct run_hotspot *h, const struct run_result *ref)
{
  if (!ref)
    return 0;
  double worst = -1;
  for (uint32_t i = 0; i < ref->nhot; i++)
    if (!strcmp(ref->hot[i].kind, h->kind) && ref->hot[i].weight > worst)
      worst = ref->hot[i].weight;
  return worst >= 0 && h->weight <= 2 * worst;
}

int grade_score(const struct run_lab *lab, const struct run_result *student,
                const struct run_result *solution, json_t *answers, struct grade_result *g,
                char *err, size_t errlen)
{
  memset(g, 0, sizeof *g);
  const struct run_rubric *rb = &lab->rubric;   /* parsed and checked when the lab loaded */
  if (!rb->present) {
    snprintf(err, errlen, "lab %s has no rubric in its lab.json", lab->id);
    return -1;
  }
  if (rb->has_correctness)
    correctness(rb, lab, student, solution, g);
  if (rb->has_metrics)
    metric_targets(rb, student, solution, g);
  if (rb->has_performance)
    performance(rb, student, solution, g);
  if (rb->has_questions)
    questions(rb, lab, answers, g);
  for (uint32_t i = 0; i < g->nitems; i++)
    g->score += g->items[i].score;
  /* items split points into sevenths and the like: the sums, to a millionth of a point, so
     that 7 of 7 tests worth 60 read 60, not 59.99999999 (a gradebook bin's edge) */
  g->score = round(g->score * 1e6) / 1e6;
  g->max = round(g->max * 1e6) / 1e6;
  char occ[768];
  if (main_correct(student) && grade_occupancy_hint(lab, student, solution, occ, sizeof occ))
    hint(g, occ);
  for (uint32_t i = 0; i < student->nhot; i++) {   /* what the counters found, line by line */
    if (hot_expected(&student->hot[i], solution)) {
      g->hot_expected |= 1u << i;
      continue;
    }
    char h[512];
    const char *base = strrchr(student->hot[i].file, '/');
    snprintf(h, sizeof h, "%s:%u: %s.", base ? base + 1 : student->hot[i].file,
             student->hot[i].line, student->hot[i].text);
    hint(g, h);
  }
  size_t fl = strlen(g->flagged);             /* after the metric targets' own flags */
  snprintf(g->flagged + fl, sizeof g->flagged - fl, "%s%s", fl && student->integrity[0] ? "; " : "",
           student->integrity);
  snprintf(g->backend, sizeof g->backend, "%s", student->prov.backend);
  snprintf(g->isolation, sizeof g->isolation, "%s", student->prov.isolation);
  measure(student, solution, g);
  return 0;
}

json_t *grade_gradescope_json(const struct grade_result *g)
{
  json_t *tests = json_array();
  for (uint32_t i = 0; i < g->nitems; i++) {
    const struct grade_item *it = &g->items[i];
    json_array_append_new(tests, json_pack("{s:s,s:f,s:f,s:s,s:s}", "name", it->name, "score",
                                           it->score, "max_score", it->max, "output", it->output,
                                           "visibility", "visible"));
  }
  char out[8192];
  size_t k = (size_t)snprintf(out, sizeof out, "%s", g->note);
  for (uint32_t i = 0; i < g->nhints && k < sizeof out; i++)
    k += (size_t)snprintf(out + k, sizeof out - k, "%sHint: %s", k ? "\n" : "", g->hints[i]);
  json_t *j = json_pack("{s:f,s:f,s:s,s:o}", "score", g->score, "max_score", g->max, "output",
                        out, "tests", tests);
  /* Gradescope keeps extra_data for the instructor: the integrity flags, and the figures the
     class charts of a batch are drawn from. The flags are in no visible text (the top-level
     output and every visible test are shown to the student): only in the hidden test below
     and in extra_data. */
  json_t *extra = json_object();
  if (g->flagged[0]) {
    /* a test entry only the instructor sees, too */
    json_array_append_new(tests, json_pack("{s:s,s:f,s:f,s:s,s:s}", "name", "integrity",
                                           "score", 0.0, "max_score", 0.0, "output", g->flagged,
                                           "visibility", "hidden"));
    json_object_set_new(extra, "integrity", json_string(g->flagged));
  }
  if (g->backend[0])
    json_object_set_new(extra, "backend", json_string(g->backend));
  if (g->isolation[0])
    json_object_set_new(extra, "isolation", json_string(g->isolation));
  if (g->has_time_ratio)
    json_object_set_new(extra, "time_ratio", json_real(g->time_ratio));
  if (g->nmeasured) {
    json_t *ms = json_object();
    for (uint32_t i = 0; i < g->nmeasured; i++) {
      const struct grade_measure *m = &g->measured[i];
      json_t *o = json_pack("{s:f}", "value", m->value);
      if (m->has_reference)
        json_object_set_new(o, "reference", json_real(m->reference));
      json_object_set_new(ms, m->metric, o);
    }
    json_object_set_new(extra, "measured", ms);
  }
  if (json_object_size(extra))
    json_object_set_new(j, "extra_data", extra);
  else
    json_decref(extra);
  return j;
}

void grade_feedback_md(FILE *f, const struct run_lab *lab, const struct run_result *s,
                       const struct grade_result *g)
{
  fprintf(f, "# %s: %.1f / %.1f\n\n", lab->title, g->score, g->max);
  fprintf(f, "Kernel file `%s`, %s backend (%s), seed %llu.\n\n", s->prov.kernel_file,
          s->prov.backend, s->prov.device, (unsigned long long)s->prov.seed);
  if (s->prov.isolation[0])
    fprintf(f, "Built in isolation: %s.\n\n", s->prov.isolation);
  if (g->note[0])
    fprintf(f, "_%s_\n\n", g->note);
  fprintf(f, "| item | score | |\n| --- | --- | --- |\n");
  for (uint32_t i = 0; i < g->nitems; i++) {
    const struct grade_item *it = &g->items[i];
    char out[768];
    size_t k = 0;
    for (const char *p = it->output; *p && k + 1 < sizeof out; p++)
      out[k++] = *p == '\n' ? ' ' : *p == '|' ? '/' : *p;
    out[k] = 0;
    fprintf(f, "| %s | %.2f / %.2f | %s |\n", it->name, it->score, it->max, out);
  }
  if (g->nhints) {
    fprintf(f, "\n## Hints\n\n");
    for (uint32_t i = 0; i < g->nhints; i++)
      fprintf(f, "- %s\n", g->hints[i]);
  }
  if (g->flagged[0])
    fprintf(f, "\n## Flagged for your instructor\n\n- %s\n\nInputs, outputs and timers belong "
            "to the harness. The score above is unchanged; your instructor will look.\n",
            g->flagged);
}
