/* run_describe.c: a run's backend in words (run_describe.h). */
#include <stdio.h>
#include <string.h>

#include "run/run_describe.h"

const char *run_describe_no_gpu(const char *err, char *out, size_t n)
{
  if (strstr(err, "no NVIDIA driver")) {
    snprintf(out, n, "no NVIDIA driver on this machine");
    return out;
  }
  /* "--backend gpu: no CUDA device (cuInit: ...)" -> "no CUDA device" */
  const char *p = err;
  if (!strncmp(p, "--backend gpu: ", 15))
    p += 15;
  if (!strncmp(p, "no GPU (", 8))
    p += 8;
  size_t len = strcspn(p, "(:;");
  while (len && p[len - 1] == ' ')
    len--;
  snprintf(out, n, "%.*s", (int)(len > 100 ? 100 : len), len ? p : "no usable GPU");
  return out;
}

const char *run_describe_backend(const struct run_result *r, char *out, size_t n)
{
  const struct run_provenance *p = &r->prov;
  char why[160];
  const char *reason = p->backend_reason;
  if (!strncmp(reason, "no GPU", 6))
    run_describe_no_gpu(reason, why, sizeof why);
  else if (!strcmp(reason, "asked for"))
    snprintf(why, sizeof why, "as asked (--backend %s)", p->backend);
  else
    snprintf(why, sizeof why, "%.150s", reason);
  if (!strcmp(p->backend, "emu")) {
    /* device: "warplab emulator (2 host cores), profile NVIDIA H200 SXM 141GB" */
    const char *prof = strstr(p->device, ", profile ");
    snprintf(out, n, "emulator (%s%s%s%s)%s%s", p->profile[0] ? p->profile : "default",
             " profile", prof ? ": " : "", prof ? prof + 10 : "", why[0] ? "; " : "", why);
  } else if (!strcmp(p->backend, "gpu")) {
    snprintf(out, n, "GPU %s%s%s", p->device, why[0] ? "; " : "", why);
  } else {
    snprintf(out, n, "none (%s)", r->built ? "the run did not start" : "the kernel did not build");
  }
  return out;
}
