/* tc_sanitize.h: NVIDIA's compute-sanitizer on a real GPU, its findings in the emulator's
 * words.
 *
 * A kernel that faults on a GPU says only "illegal address" or "unspecified launch failure".
 * compute-sanitizer (memcheck, racecheck, synccheck) finds what and where; the emulator's
 * fault reports already use its phrases, so its first report is turned into the same one-line
 * message the emulator gives ("Invalid __global__ write of size 4 bytes at oob.cu:8 by thread
 * (100,0,0) in block (1,0,0): access to 0x... is out of bounds and is 1 bytes after the
 * nearest allocation at 0x... of size 400 bytes").
 */
#ifndef WARPLAB_TC_SANITIZE_H
#define WARPLAB_TC_SANITIZE_H

#include <stddef.h>

struct tc_sanitized {
  int errors;                  /* ERROR SUMMARY's count (or the reports counted) */
  char message[768];           /* the first report, in the emulator's words ("" when none) */
  char file[256];              /* its CUDA source file and line, when the report has them */
  int line;
  char tool_error[256];        /* the tool's own failure ("Error: Target application terminated
                                  before first instrumented API call"): no kernel was checked */
};

/* Parse compute-sanitizer's output (its "========= " lines; anything else is ignored).
   Returns the number of errors found. An unindented "Error: ..." that is not a report (the
   tool could not check the application) goes to tool_error. */
int tc_sanitizer_parse(const char *text, struct tc_sanitized *out);

/* Run argv (a NULL-terminated command, e.g. warplab emu ... --backend gpu) under
   `compute-sanitizer --tool tool`, with the limits of every tool run on a student's input
   (tc_exec_tool), and parse what it says. Returns 0 with *out filled, or -1 with why in err
   (no compute-sanitizer, it could not run, it checked no kernel -- "compute-sanitizer checked
   no kernel: Target application terminated ..." with the application's last line --, or a
   limit stopped it: "could not be measured:
   compute-sanitizer was stopped after 600 s on the clock (its limit)"). */
int tc_sanitize(const char *tool, char *const argv[], struct tc_sanitized *out, char *err,
                 size_t errlen);

#endif
