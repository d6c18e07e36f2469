/* batch_slurm.c: a class graded by a Slurm job array (see batch.h).
 *
 * Everything a task needs is written down before anything is submitted: OUT/slurm/
 * students.txt fixes who is in which slice (a roster that changes while the array waits in
 * the queue does not move students between tasks), grade.sbatch is the array (task i runs
 * `warplab batch ... --list students.txt --slice i --chunk N`, the local batch on its slice,
 * writing the same atomic per-student results, each read from its grader's own result
 * descriptor and checked, never from a log), collect.sbatch runs the collection after
 * the array (afterany: whatever became of the tasks), and collect.sh is the same command for
 * a person. Paths are made absolute, so the jobs run from any folder, and every path and
 * argument in the scripts is quoted for the shell: a roster's folder name is data.
 *
 * sbatch runs as a child process (no shell), found on PATH.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grader/batch.h"
#include "toolchain/tc_exec.h"
#include "toolchain/tc_file.h"

/* s in single quotes for sh, a quote inside as '\'' . */
static void sh_quote(FILE *f, const char *s)
{
  fputc('\'', f);
  for (; *s; s++) {
    if (*s == '\'')
      fputs("'\\''", f);
    else
      fputc(*s, f);
  }
  fputc('\'', f);
}

/* The absolute form of path (which exists), into out. Returns 0, or -1 with err. */
static int absolute(const char *path, char *out, size_t outlen, char *err, size_t errlen)
{
  char buf[PATH_MAX];
  if (!realpath(path, buf)) {
    snprintf(err, errlen, "%s: %s", path, strerror(errno));
    return -1;
  }
  if (strlen(buf) >= outlen) {
    snprintf(err, errlen, "%s: the path is too long", path);
    return -1;
  }
  memcpy(out, buf, strlen(buf) + 1);
  return 0;
}

/* The options given for sbatch, as #SBATCH lines: the scripts stay whole for a resubmission
   by hand. */
static void sbatch_lines(FILE *f, const struct batch_slurm_opts *so)
{
  for (int i = 0; i < so->nargs; i++)
    fprintf(f, "#SBATCH %s\n", so->sbatch_args[i]);
}

/* The `warplab batch` command line both kinds of job run, up to its mode's own options. */
static void command(FILE *f, const struct batch_opts *o, const char *roster, const char *out)
{
  sh_quote(f, o->warplab);
  fputs(" batch ", f);
  sh_quote(f, o->lab);
  fputc(' ', f);
  sh_quote(f, roster);
  fputs(" --out ", f);
  sh_quote(f, out);
  fputs(" --backend ", f);
  sh_quote(f, o->backend);
}

static int write_script(const char *path, const char *text, char *err, size_t errlen)
{
  FILE *f = fopen(path, "w");
  if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    return -1;
  }
  chmod(path, 0755);
  return 0;
}

/* The scripts' text, built in memory. */
struct text {
  char *buf;
  size_t len;
  FILE *f;
};

static FILE *text_open(struct text *t)
{
  t->buf = NULL;
  t->len = 0;
  t->f = open_memstream(&t->buf, &t->len);
  return t->f;
}

/* Run sbatch --parsable [--dependency=afterany:DEPENDENCY] script; its job id into id.
   Returns 0, or -1 with err. */
static int sbatch(const char *dependency, const char *script, char *id, size_t idlen, char *err,
                  size_t errlen)
{
  char *argv[8];
  int a = 0;
  argv[a++] = "sbatch";
  argv[a++] = "--parsable";
  char dep[128];
  if (dependency) {
    snprintf(dep, sizeof dep, "--dependency=afterany:%s", dependency);
    argv[a++] = dep;
  }
  argv[a++] = (char *)script;
  argv[a] = NULL;
  char out[4096];
  int st = tc_exec_capture(argv, NULL, out, sizeof out);
  size_t n = strlen(out);
  while (n && (out[n - 1] == '\n' || out[n - 1] == ' '))
    out[--n] = 0;
  if (st == 127) {
    snprintf(err, errlen, "sbatch could not be run (is Slurm installed, and sbatch on PATH?)");
    return -1;
  }
  /* --parsable prints "JOBID" or "JOBID;CLUSTER" on its last line */
  const char *last = strrchr(out, '\n') ? strrchr(out, '\n') + 1 : out;
  size_t digits = strspn(last, "0123456789");
  if (st != 0 || !digits) {
    snprintf(err, errlen, "sbatch refused %s (exit %d): %.1500s", script, st, n ? out : "no message");
    return -1;
  }
  snprintf(id, idlen, "%.*s", (int)digits, last);
  return 0;
}

int batch_slurm_submit(const struct batch_opts *o, const struct batch_slurm_opts *so, char *info,
                       size_t infolen, char *err, size_t errlen)
{
  info[0] = 0;
  if (so->chunk < 1) {
    snprintf(err, errlen, "--chunk must be at least 1");
    return -1;
  }
  for (int i = 0; i < so->nargs; i++)
    if (so->sbatch_args[i][0] != '-' || strpbrk(so->sbatch_args[i], "\n\r")) {
      snprintf(err, errlen, "--sbatch-arg '%s': expected one sbatch option on one line, e.g. "
               "--sbatch-arg=--partition=gpu", so->sbatch_args[i]);
      return -1;
    }
  char roster[PATH_MAX], out[PATH_MAX], cwd[PATH_MAX], home[PATH_MAX], dir[PATH_MAX + 16];
  if (absolute(o->roster, roster, sizeof roster, err, errlen))
    return -1;
  if (mkdir(o->out, 0755) && errno != EEXIST) {
    snprintf(err, errlen, "cannot make %s: %s", o->out, strerror(errno));
    return -1;
  }
  if (absolute(o->out, out, sizeof out, err, errlen) || absolute(".", cwd, sizeof cwd, err, errlen) ||
      absolute(tc_home(), home, sizeof home, err, errlen))
    return -1;
  snprintf(dir, sizeof dir, "%s/slurm", out);
  if (mkdir(dir, 0755) && errno != EEXIST) {
    snprintf(err, errlen, "cannot make %s: %s", dir, strerror(errno));
    return -1;
  }

  /* who: the roster's students (with --resume, those without a grade of their submission as
     it is now) */
  char **names = calloc(BATCH_MAX_STUDENTS, sizeof *names);
  if (!names) {
    snprintf(err, errlen, "out of host memory");
    return -1;
  }
  struct batch_opts all = *o;
  all.list = NULL;
  int n = batch_students(&all, names, BATCH_MAX_STUDENTS, err, errlen);
  if (n < 0) {
    free(names);
    return -1;
  }
  char list[PATH_MAX + 32];
  snprintf(list, sizeof list, "%s/students.txt", dir);
  struct text t;
  int todo = 0, rc = -1;
  FILE *f = text_open(&t);
  for (int i = 0; f && i < n; i++) {
    if (o->resume && !batch_needs_grading(o, names[i]))
      continue;                                 /* graded, and its submission unchanged */
    if (strchr(names[i], '\n'))
      continue;                                 /* a name the list cannot hold: not a student */
    fprintf(f, "%s\n", names[i]);
    todo++;
  }
  for (int i = 0; i < n; i++)
    free(names[i]);
  free(names);
  if (!f || fclose(f) != 0) {
    snprintf(err, errlen, "out of host memory");
    free(t.buf);
    return -1;
  }
  int tasks = (todo + so->chunk - 1) / so->chunk;
  if (write_script(list, t.buf, err, errlen)) {
    free(t.buf);
    return -1;
  }
  free(t.buf);

  /* the array: task i grades slice i of the list; its time limit covers its students one
     after another at the per-student limit, with room for the reference solution's runs */
  int jobs = o->jobs < 1 ? 1 : o->jobs;
  long minutes = ((long)so->chunk * (o->timeout_s + 60) / jobs + 59) / 60 + 5;
  char grade[PATH_MAX + 32], collect[PATH_MAX + 32], collect_sh[PATH_MAX + 32];
  snprintf(grade, sizeof grade, "%s/grade.sbatch", dir);
  snprintf(collect, sizeof collect, "%s/collect.sbatch", dir);
  snprintf(collect_sh, sizeof collect_sh, "%s/collect.sh", dir);
  if (!(f = text_open(&t)))
    goto nomem;
  fprintf(f, "#!/bin/bash\n"
             "#SBATCH --job-name=warplab-%s\n"
             "#SBATCH --array=0-%d\n"
             "#SBATCH --cpus-per-task=%d\n"
             "#SBATCH --time=%ld\n"
             "#SBATCH --output=%s/task-%%A_%%a.log\n"
             "# Written by warplab batch --slurm: task i grades students i*%d ... i*%d+%d of\n"
             "# students.txt (%d students, %d tasks), each into OUT/STUDENT/results.json as a\n"
             "# local batch does. Resubmit the students left without results with\n"
             "# `warplab batch ... --slurm --resume`.\n", o->lab, tasks > 0 ? tasks - 1 : 0, jobs,
          minutes, dir, so->chunk, so->chunk, so->chunk - 1, todo, tasks);
  sbatch_lines(f, so);
  fputs("set -eu\ncd ", f);
  sh_quote(f, cwd);
  fputs("\nexport WARPLAB_HOME=", f);
  sh_quote(f, home);
  fputs("\nexec ", f);
  command(f, o, roster, out);
  fputs(" --list ", f);
  sh_quote(f, list);
  fprintf(f, " --slice \"$SLURM_ARRAY_TASK_ID\" --chunk %d -j %d --timeout %d --memory %zu",
          so->chunk, jobs, o->timeout_s, o->memory_mb);
  if (o->seed) {
    fputs(" --seed ", f);
    sh_quote(f, o->seed);
  }
  fputs(o->resume ? " --resume\n" : "\n", f);
  if (fclose(f) != 0)
    goto nomem;
  if (write_script(grade, t.buf, err, errlen))
    goto out;
  free(t.buf);
  t.buf = NULL;

  /* the collection: the gradebook and the charts of the whole roster */
  for (int k = 0; k < 2; k++) {
    if (!(f = text_open(&t)))
      goto nomem;
    if (k == 0)
      fprintf(f, "#!/bin/bash\n#SBATCH --job-name=warplab-%s-collect\n#SBATCH --time=30\n"
                 "#SBATCH --output=%s/collect-%%j.log\n"
                 "# Written by warplab batch --slurm: after the array, the gradebook and the class\n"
                 "# charts from every student's results.json.\n", o->lab, dir);
    if (k == 0)
      sbatch_lines(f, so);
    else
      fputs("#!/bin/sh\n# Written by warplab batch --slurm: the gradebook and the class charts, once\n"
            "# the array has finished (its collection job does the same).\n", f);
    fputs("set -eu\ncd ", f);
    sh_quote(f, cwd);
    fputs("\nexport WARPLAB_HOME=", f);
    sh_quote(f, home);
    fputs("\nexec ", f);
    command(f, o, roster, out);
    fputs(" --collect\n", f);
    if (fclose(f) != 0)
      goto nomem;
    if (write_script(k == 0 ? collect : collect_sh, t.buf, err, errlen))
      goto out;
    free(t.buf);
    t.buf = NULL;
  }

  size_t k = (size_t)snprintf(info, infolen, "%d students to grade in %d Slurm task%s of up to %d: "
                              "%s\n", todo, tasks, tasks == 1 ? "" : "s", so->chunk, grade);
  if (!so->submit) {
    snprintf(info + k, infolen - k, "Not submitted (--no-submit): sbatch %s, then sbatch "
             "--dependency=afterany:JOBID %s; or collect by hand: %s\n", grade, collect, collect_sh);
    rc = 0;
    goto out;
  }
  char id[64], cid[64];
  if (tasks == 0) {
    if (sbatch(NULL, collect, cid, sizeof cid, err, errlen))
      goto out;
    snprintf(info + k, infolen - k, "Every student has results: no array submitted; the "
             "collection is job %s\n", cid);
    rc = 0;
    goto out;
  }
  if (sbatch(NULL, grade, id, sizeof id, err, errlen))
    goto out;
  if (sbatch(id, collect, cid, sizeof cid, err, errlen)) {
    size_t e = strlen(err);
    snprintf(err + e, errlen - e, " (the array, job %s, was submitted: collect by hand with %s "
             "when it has finished)", id, collect_sh);
    goto out;
  }
  snprintf(info + k, infolen - k, "Submitted job array %s and the collection, job %s, which "
           "runs when the array has finished.\nFollow it with: squeue -j %s,%s\n"
           "Collect by hand (the gradebook and the class charts): %s\n", id, cid, id, cid,
           collect_sh);
  rc = 0;
  goto out;
nomem:
  snprintf(err, errlen, "out of host memory");
out:
  free(t.buf);
  return rc;
}
