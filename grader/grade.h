/* grade.h: score one submission of a lab by its rubric (lab.json "rubric").
 *
 * The rubric weighs correctness (all or nothing per test size), metric targets on the
 * student's own configuration, performance against the reference solution measured in the
 * same session on the same backend, and the numeric answers to the handout's "predict, then
 * measure" questions. The grader reads run results only (run/run.h), never the emulator,
 * and the rubric as the lab loader parsed and checked it (run_lab.rubric), never lab.json.
 */
#ifndef WARPLAB_GRADE_H
#define WARPLAB_GRADE_H

#include <jansson.h>

#include "run/run.h"

#define GRADE_MAX_ITEMS 48
#define GRADE_MAX_HINTS 8

struct grade_item {
  char name[192];
  double score, max;
  char output[768];            /* what was checked and what came out, for the student */
  char metric[96];             /* the metric a target or the performance item judges; "" else */
  char target[64];             /* that target in words: "at most 4", "within 1.2x of the reference" */
};

/* One figure of the main configuration, the submission's and the reference solution's, kept
   in results.json (extra_data.measured) so a class can be charted from the results alone. */
struct grade_measure {
  char metric[96];
  double value, reference;
  int has_value, has_reference;
};

struct grade_result {
  double score, max;
  struct grade_item items[GRADE_MAX_ITEMS];
  uint32_t nitems;
  char hints[GRADE_MAX_HINTS][768];
  uint32_t nhints;
  char note[768];              /* why parts were not scored (performance, metric targets) */
  char flagged[512];           /* integrity flags for the instructor (run_result.integrity):
                                  the score is not changed, the instructor decides */
  struct grade_measure measured[RUN_MAX_POINT_METRICS];
  uint32_t nmeasured;          /* the main point's defined metrics; 0 when not measured */
  double time_ratio;           /* the performance item's ratio, when has_time_ratio */
  int has_time_ratio;
  char backend[8];             /* the run's backend: "emu" or "gpu" */
  char isolation[700];         /* how the build was kept from other files (run.h prov) */
  uint32_t hot_expected;       /* bit i: the submission's hotspot i (run_result.hot) is a
                                  pattern the reference solution shows too, no worse than
                                  there: expected in this lab, so not hinted */
};

/* Score student against solution (the reference solution's run, same backend and seed) with
   the answers (a JSON object {"q1": 4, ...}, or NULL). Returns 0, or -1 with err when the
   lab has no rubric (a malformed one was refused when the lab loaded). */
int grade_score(const struct run_lab *lab, const struct run_result *student,
                const struct run_result *solution, json_t *answers, struct grade_result *g,
                char *err, size_t errlen);

/* The defined metric NAME of r's main configuration (its first point), or NULL (r NULL too). */
const struct run_metric *grade_main_metric(const struct run_result *r, const char *name);

/* Gradescope's results.json for g. Returns a new JSON object. */
json_t *grade_gradescope_json(const struct grade_result *g);

/* The feedback report, in Markdown, to f. */
void grade_feedback_md(FILE *f, const struct run_lab *lab, const struct run_result *student,
                       const struct grade_result *g);

#endif
