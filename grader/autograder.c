/* autograder.c: write a Gradescope autograder for a lab, and grade one submission inside it
 * (see autograder.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "grader/autograder.h"
#include "grader/release.h"
#include "grader/submission.h"
#include "toolchain/tc_exec.h"

const char *autograder_root(void)
{
  const char *r = getenv("WARPLAB_AUTOGRADER_ROOT");
  return r && *r ? r : "/autograder";
}

/* ---- the folder to upload ---- */

/* setup.sh: run once by Gradescope, as root, in /autograder/source. */
static const char setup_sh[] =
  "#!/usr/bin/env bash\n"
  "# setup.sh: Gradescope runs this once, as root, in /autograder/source, when it builds the\n"
  "# autograder's image (Ubuntu, no GPU). Written by `warplab autograder`.\n"
  "#   1. the build's packages from apt (warplab/docker/install-deps.sh: gcc, make, pkg-config,\n"
  "#      jansson, ncurses, check, gnuplot), only those missing;\n"
  "#   2. nvcc and ptxas (which turn the students' .cu files into PTX for the emulator) from\n"
  "#      NVIDIA's CUDA apt repository: the compiler packages alone (cuda-nvcc, cuda-cudart-dev),\n"
  "#      no driver, about 150 MB; skipped when nvcc is already there. WARPLAB_CUDA_VERSION\n"
  "#      (default 13-0) picks the release;\n"
  "#   3. warplab, built in warplab/.\n"
  "set -euo pipefail\n"
  "here=\"$(cd \"$(dirname \"${BASH_SOURCE[0]}\")\" && pwd)\"\n"
  "w=\"$here/warplab\"\n"
  "cuda=\"${WARPLAB_CUDA_VERSION:-13-0}\"\n"
  "\n"
  "bash \"$w/docker/install-deps.sh\" --if-missing\n"
  "\n"
  "if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then\n"
  "  . /etc/os-release\n"
  "  repo=\"${ID}${VERSION_ID//./}\"                     # ubuntu2204, ubuntu2404\n"
  "  arch=\"$(uname -m)\"; [ \"$arch\" = aarch64 ] && arch=sbsa\n"
  "  export DEBIAN_FRONTEND=noninteractive\n"
  "  command -v curl >/dev/null 2>&1 || { apt-get update -q; apt-get install -y -q curl ca-certificates; }\n"
  "  curl -fsSL -o /tmp/cuda-keyring.deb \\\n"
  "    \"https://developer.download.nvidia.com/compute/cuda/repos/$repo/$arch/cuda-keyring_1.1-1_all.deb\"\n"
  "  dpkg -i /tmp/cuda-keyring.deb\n"
  "  apt-get update -q\n"
  "  pkgs=(\"cuda-nvcc-$cuda\" \"cuda-cudart-dev-$cuda\")\n"
  "  apt-cache show \"cuda-crt-$cuda\" >/dev/null 2>&1 && pkgs+=(\"cuda-crt-$cuda\")\n"
  "  apt-get install -y -q --no-install-recommends \"${pkgs[@]}\"\n"
  "  [ -e /usr/local/cuda ] || ln -s \"/usr/local/cuda-${cuda/-/.}\" /usr/local/cuda\n"
  "fi\n"
  "export PATH=\"/usr/local/cuda/bin:$PATH\"\n"
  "nvcc --version | tail -n 2\n"
  "\n"
  "make -C \"$w\" -j\"$(nproc)\" bin/warplab\n"
  "\"$w/bin/warplab\" version\n";

/* run_autograder: run by Gradescope for every submission; the lab's id goes in between. */
static const char run_head[] =
  "#!/usr/bin/env bash\n"
  "# run_autograder: Gradescope runs this for every submission (it copies it to\n"
  "# /autograder/run_autograder; the rest of the upload is in /autograder/source). The files\n"
  "# handed in are in $ROOT/submission; the grade goes to $ROOT/results/results.json, always:\n"
  "# when warplab itself cannot run, this script writes one that says so.\n"
  "# ROOT is $WARPLAB_AUTOGRADER_ROOT, or /autograder. Written by `warplab autograder`.\n"
  "ROOT=\"${WARPLAB_AUTOGRADER_ROOT:-/autograder}\"\n"
  "export WARPLAB_AUTOGRADER_ROOT=\"$ROOT\"\n"
  "w=\"$ROOT/source/warplab\"\n"
  "export WARPLAB_HOME=\"$w\"\n"
  "export PATH=\"/usr/local/cuda/bin:$PATH\"\n"
  "mkdir -p \"$ROOT/results\"\n"
  "rm -f \"$ROOT/results/results.json\"\n";

static const char run_tail[] =
  "if [ ! -s \"$ROOT/results/results.json\" ]; then\n"
  "  cat > \"$ROOT/results/results.json\" <<'EOF'\n"
  "{\"score\": 0, \"output\": \"The autograder could not run warplab (it did not build when the "
  "autograder was set up, or it stopped before writing a grade). This is not a problem with "
  "your submission: tell your instructor.\", \"tests\": []}\n"
  "EOF\n"
  "fi\n"
  "exit 0\n";

static int write_text(const char *path, const char *a, const char *b, const char *c, mode_t mode,
                      char *err, size_t errlen)
{
  FILE *f = fopen(path, "w");
  if (!f || fputs(a, f) < 0 || (b && fputs(b, f) < 0) || (c && fputs(c, f) < 0) || fclose(f)) {
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    return -1;
  }
  if (chmod(path, mode) != 0) {
    snprintf(err, errlen, "cannot make %s executable: %s", path, strerror(errno));
    return -1;
  }
  return 0;
}

static int skip_measured(const char *rel, int is_dir)
{
  const char *base = strrchr(rel, '/');
  base = base ? base + 1 : rel;
  return (is_dir && (!strcmp(base, "measured") || !strcmp(base, ".git"))) ||
         (!is_dir && !strcmp(base, "answers.json"));
}

int autograder_write(const char *home, const struct run_lab *lab, const char *out, char *err,
                     size_t errlen)
{
  if (release_new_folder(out, err, errlen))
    return -1;
  char w[4096], from[4200], to[4200];
  snprintf(w, sizeof w, "%.4000s/warplab", out);
  if (release_mkdirs(w, err, errlen))
    return -1;
  /* the tree to build: the harness and the grader, this lab and its solution */
  static const char *const files[] = {"Makefile", "README.md"};
  static const char *const dirs[] = {"harness", "grader", "plots", "docker", "handouts"};
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
    snprintf(from, sizeof from, "%s/%s", home, files[i]);
    snprintf(to, sizeof to, "%s/%s", w, files[i]);
    if (release_copy_file(from, to, err, errlen))
      return -1;
  }
  for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
    snprintf(from, sizeof from, "%s/%s", home, dirs[i]);
    snprintf(to, sizeof to, "%s/%s", w, dirs[i]);
    if (access(from, F_OK) == 0 && release_copy_tree(from, to, skip_measured, NULL, err, errlen))
      return -1;
  }
  snprintf(from, sizeof from, "%s/labs/%s", home, lab->id);
  snprintf(to, sizeof to, "%s/labs/%s", w, lab->id);
  if (release_copy_tree(from, to, skip_measured, NULL, err, errlen))
    return -1;
  snprintf(from, sizeof from, "%s/solutions/%s", home, lab->id);
  snprintf(to, sizeof to, "%s/solutions/%s", w, lab->id);
  if (access(from, F_OK) != 0) {
    snprintf(err, errlen, "no reference solution %s: the autograder scores against it", from);
    return -1;
  }
  if (release_copy_tree(from, to, skip_measured, NULL, err, errlen))
    return -1;
  /* the scripts */
  char line[256];
  snprintf(line, sizeof line, "\"$w/bin/warplab\" autograder %s --run || true\n", lab->id);
  snprintf(to, sizeof to, "%s/setup.sh", out);
  if (write_text(to, setup_sh, NULL, NULL, 0755, err, errlen))
    return -1;
  snprintf(to, sizeof to, "%s/run_autograder", out);
  if (write_text(to, run_head, line, run_tail, 0755, err, errlen))
    return -1;
  char readme[2048];
  snprintf(readme, sizeof readme,
           "# Gradescope autograder for lab %s\n"
           "\n"
           "Written by `warplab autograder %s`. It holds the lab's answer keys, hidden test\n"
           "sizes and reference solution: upload it to Gradescope, never give it to students.\n"
           "\n"
           "1. Zip the *contents* of this folder (setup.sh and run_autograder at the top of the\n"
           "   zip): `cd THIS_FOLDER && zip -r ../autograder-%s.zip .`\n"
           "2. On Gradescope: create a *Programming Assignment*; under *Configure Autograder*,\n"
           "   choose the Ubuntu base image (22.04 or 24.04), upload the zip, and press\n"
           "   *Update Autograder*. The build (setup.sh) takes a few minutes; its log is shown.\n"
           "3. Give the autograder a time limit of at least 20 minutes (the emulator is slow on\n"
           "   large sizes). warplab stops a grading after WARPLAB_AUTOGRADER_TIMEOUT seconds\n"
           "   (900 unless set in run_autograder) and still writes a results.json.\n"
           "4. *Test Autograder* with the lab's starter and with the reference solution\n"
           "   (`%s` and, for full marks, answers.json with the answers).\n"
           "\n"
           "Students upload the kernel file `%s`, and `answers.json` ({\"q1\": 4, ...}) for the\n"
           "handout's questions. A missing or misnamed file gets a score of 0 with what was\n"
           "expected and what was found; a kernel file in a sub-folder of the upload is found.\n",
           lab->id, lab->id, lab->id, lab->kernel_file, lab->kernel_file);
  snprintf(to, sizeof to, "%s/README.md", out);
  return write_text(to, readme, NULL, NULL, 0644, err, errlen);
}

/* ---- grading one submission ---- */

/* The first file named name below dir, at most depth folders down, into path. */
static int find_named(const char *dir, const char *name, int depth, char *path, size_t n)
{
  DIR *d = opendir(dir);
  if (!d)
    return -1;
  struct dirent *e;
  int rc = -1;
  while (rc && (e = readdir(d))) {
    if (e->d_name[0] == '.' || !strcmp(e->d_name, "__MACOSX"))
      continue;
    char p[4096];
    snprintf(p, sizeof p, "%.3800s/%s", dir, e->d_name);
    struct stat st;
    if (lstat(p, &st) != 0)
      continue;
    if (S_ISREG(st.st_mode) && !strcmp(e->d_name, name)) {
      snprintf(path, n, "%s", p);
      rc = 0;
    } else if (S_ISDIR(st.st_mode) && depth > 0) {
      rc = find_named(p, name, depth - 1, path, n);
    }
  }
  closedir(d);
  return rc;
}

/* The .cu files below dir (names relative to it), listed into list. */
static void list_cu(const char *dir, const char *rel, int depth, char *list, size_t n)
{
  char full[4096];
  snprintf(full, sizeof full, "%.3000s%s%.1000s", dir, rel[0] ? "/" : "", rel);
  DIR *d = opendir(full);
  if (!d)
    return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.')
      continue;
    char r[2048], p[4400];
    snprintf(r, sizeof r, "%.1000s%s%.900s", rel, rel[0] ? "/" : "", e->d_name);
    snprintf(p, sizeof p, "%s/%s", full, e->d_name);
    struct stat st;
    if (lstat(p, &st) != 0)
      continue;
    size_t l = strlen(e->d_name);
    if (S_ISDIR(st.st_mode) && depth > 0)
      list_cu(dir, r, depth - 1, list, n);
    else if (S_ISREG(st.st_mode) && l > 3 && !strcmp(e->d_name + l - 3, ".cu")) {
      size_t k = strlen(list);
      snprintf(list + k, n - k, "%s%s", k ? ", " : "", r);
    }
  }
  closedir(d);
}

/* Write j to root/results/results.json (a temporary file renamed into place). */
static int put_results(const char *root, json_t *j, char *err, size_t errlen)
{
  char dir[4096], tmp[4200], path[4200];
  snprintf(dir, sizeof dir, "%.4000s/results", root);
  if (release_mkdirs(dir, err, errlen))
    return -1;
  snprintf(tmp, sizeof tmp, "%s/.results.json.tmp", dir);
  snprintf(path, sizeof path, "%s/results.json", dir);
  if (json_dump_file(j, tmp, JSON_INDENT(2) | JSON_PRESERVE_ORDER) || rename(tmp, path)) {
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    return -1;
  }
  return 0;
}

/* A results.json that grades nothing: score 0 of the lab's full score, and why. */
static int put_zero(const char *root, double max, const char *why, char *err, size_t errlen)
{
  json_t *j = json_pack("{s:f, s:f, s:s, s:[{s:s, s:f, s:f, s:s}]}", "score", 0.0, "max_score",
                        max, "output", why, "tests", "name", "submission", "score", 0.0,
                        "max_score", max, "output", why);
  int rc = j ? put_results(root, j, err, errlen) : -1;
  if (!j)
    snprintf(err, errlen, "out of host memory");
  json_decref(j);
  return rc;
}

static double full_score(const struct run_lab *lab)
{
  return lab->rubric.has_total ? lab->rubric.total : 100.0;
}

/* The last n bytes of file path, into out ("" when none). */
static void tail_of(const char *path, char *out, size_t n)
{
  out[0] = 0;
  FILE *f = fopen(path, "r");
  if (!f)
    return;
  if (fseek(f, 0, SEEK_END) == 0) {
    long sz = ftell(f);
    long from = sz > (long)n - 1 ? sz - (long)n + 1 : 0;
    if (fseek(f, from, SEEK_SET) == 0) {
      size_t got = fread(out, 1, n - 1, f);
      out[got] = 0;
    }
  }
  fclose(f);
}

/* `warplab grade LAB DIR --backend emu --json --out OUT/runs` with stdout to OUT/grade.json and
   stderr to OUT/grade.log, killed after timeout_s. Returns its wait status, or -1. */
static int grade_child(const char *warplab, const char *lab, const char *dir, const char *out,
                       unsigned timeout_s)
{
  char runs[4200], jpath[4200], lpath[4200];
  snprintf(runs, sizeof runs, "%.4000s/runs", out);
  snprintf(jpath, sizeof jpath, "%.4000s/grade.json", out);
  snprintf(lpath, sizeof lpath, "%.4000s/grade.log", out);
  int jo = open(jpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  int lo = open(lpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  int rc = -1;
  if (jo >= 0 && lo >= 0) {
    char *argv[] = {(char *)warplab, "grade", (char *)lab, (char *)dir, "--backend", "emu",
                    "--json", "--out", runs, NULL};
    struct tc_exec_child c = {.in = -1, .out = jo, .err = lo, .pass_fd = -1, .pass_as = -1};
    fflush(NULL);
    pid_t pid = tc_exec_start(argv, &c);
    if (pid > 0) {
      rc = tc_exec_wait(pid, timeout_s);
      if (rc == TC_EXEC_TIMEOUT)
        rc = -2;
    }
  }
  if (jo >= 0)
    close(jo);
  if (lo >= 0)
    close(lo);
  return rc;
}

/* The checks of the tests lab.json marks hidden stay out of the students' sight on
   Gradescope until the grades are published ("visibility": "after_published"); their points
   count in the score all along. A check is named "correctness: " and its sizes as run.c
   writes them ("nx=31 ny=65"), perhaps followed by " arch=...". */
static void hide_hidden_checks(const struct run_lab *lab, json_t *results)
{
  for (uint32_t t = 0; t < lab->ntests; t++) {
    if (!lab->test_hidden[t])
      continue;
    char name[600];
    size_t k = (size_t)snprintf(name, sizeof name, "correctness: ");
    for (uint32_t i = 0; i < lab->tests[t].n && k < sizeof name; i++)
      k += (size_t)snprintf(name + k, sizeof name - k, "%s%s=%lld", i ? " " : "",
                            lab->tests[t].name[i], (long long)lab->tests[t].v[i]);
    size_t len = strlen(name), i;
    json_t *x;
    json_array_foreach(json_object_get(results, "tests"), i, x) {
      const char *n = json_string_value(json_object_get(x, "name"));
      if (n && !strncmp(n, name, len) && (n[len] == 0 || n[len] == ' '))
        json_object_set_new(x, "visibility", json_string("after_published"));
    }
  }
}

int autograder_run(const struct run_lab *lab, const char *warplab, const char *root,
                   unsigned timeout_s, char *err, size_t errlen)
{
  double max = full_score(lab);
  char sub[4096], kpath[4096], why[2048], found[1024] = "";
  snprintf(sub, sizeof sub, "%.4000s/submission", root);
  /* the kernel file: at the top of the upload, or in a folder of it (a zip of a folder) */
  const char *dir = sub;
  char stage[] = "/tmp/warplab-autograder-XXXXXX";
  if (!mkdtemp(stage)) {
    snprintf(why, sizeof why, "The autograder could not make a temporary folder (%s): tell your "
             "instructor.", strerror(errno));
    return put_zero(root, max, why, err, errlen);
  }
  char note[1200] = "";
  if (submission_kernel(sub, lab->kernel_file, kpath, sizeof kpath, why, sizeof why) != 0) {
    if (find_named(sub, lab->kernel_file, 3, kpath, sizeof kpath) != 0) {
      list_cu(sub, "", 3, found, sizeof found);
      char msg[4096];
      snprintf(msg, sizeof msg, "Not graded: your submission has no %s, the lab's kernel file "
               "(%s%s). Hand in the kernel file under exactly that name (the starter's name, "
               "letter case included), with answers.json beside it if you answer the handout's "
               "questions, and submit again.", lab->kernel_file,
               found[0] ? "found instead: " : "no .cu file was handed in", found);
      release_remove_tree(stage);
      return put_zero(root, max, msg, err, errlen);
    }
    /* in a folder of the upload: graded from a copy, with answers.json from beside it */
    char to[4200], from[4200];
    snprintf(to, sizeof to, "%s/%s", stage, lab->kernel_file);
    if (release_copy_file(kpath, to, why, sizeof why))
      return put_zero(root, max, why, err, errlen);
    snprintf(from, sizeof from, "%.*s/answers.json", (int)(strrchr(kpath, '/') - kpath), kpath);
    snprintf(to, sizeof to, "%s/answers.json", stage);
    if (access(from, R_OK) == 0)
      release_copy_file(from, to, why, sizeof why);
    snprintf(note, sizeof note, "Graded %s, found in a folder of your submission.\n\n",
             kpath + strlen(sub) + 1);
    dir = stage;
  }
  char work[4200];
  snprintf(work, sizeof work, "%s/grade", stage);
  if (release_mkdirs(work, why, sizeof why))
    return put_zero(root, max, why, err, errlen);
  int st = grade_child(warplab, lab->id, dir, work, timeout_s);
  char jpath[4300], lpath[4300], log[1600];
  snprintf(jpath, sizeof jpath, "%s/grade.json", work);
  snprintf(lpath, sizeof lpath, "%s/grade.log", work);
  tail_of(lpath, log, sizeof log);
  json_error_t je;
  json_t *j = st >= 0 ? json_load_file(jpath, 0, &je) : NULL;
  int rc;
  if (json_is_object(j) && json_is_number(json_object_get(j, "score"))) {
    if (note[0]) {
      const char *o = json_string_value(json_object_get(j, "output"));
      char *joined = malloc(strlen(note) + (o ? strlen(o) : 0) + 1);
      if (joined) {
        memcpy(joined, note, strlen(note) + 1);
        if (o)
          memcpy(joined + strlen(note), o, strlen(o) + 1);
        json_object_set_new(j, "output", json_string(joined));
        free(joined);
      }
    }
    hide_hidden_checks(lab, j);
    rc = put_results(root, j, err, errlen);
  } else {
    char msg[4096];
    if (st == -2)
      snprintf(msg, sizeof msg, "Not graded: the grading took more than %u seconds and was "
               "stopped (a kernel that loops for a very long time?). Run it with warplab run on "
               "your own machine first. Last output:\n%s", timeout_s, log);
    else
      snprintf(msg, sizeof msg, "Not graded: warplab could not grade this submission (%s "
               "%d). What it said:\n%s",
               st >= 0 && WIFSIGNALED(st) ? "killed by signal" : "exit status",
               st >= 0 && WIFSIGNALED(st) ? WTERMSIG(st) : st >= 0 ? WEXITSTATUS(st) : -1, log);
    rc = put_zero(root, max, msg, err, errlen);
  }
  json_decref(j);
  release_remove_tree(stage);
  return rc;
}
