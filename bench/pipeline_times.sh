#!/usr/bin/env bash
# pipeline_times.sh: the pipeline figures issue 19 tracks, around the emulator. A script
# that prints figures, never a test: nothing here passes or fails on speed.
#
# 1. For every lab 01..07, the whole `warplab run NN --solution` (build, tests, sweeps,
#    charts) beside one `nvcc -ptx` of the same kernel file, and their ratio (target <= 4).
#    Each run twice on one fresh build cache ($WARPLAB_CACHE): cold (nothing kept), then
#    warm (the first run's PTX, ptxas report and SASS listing kept).
# 2. A student's save, the reference cached: for every lab of part 1, a copy of the solution as
#    the student's file (answers.json beside it), run once as `warplab run NN --kernel-file F
#    --seed S --plain` to fill the caches (the reference solution's build and its run on seed
#    S, as the feedback screen's second save finds them); then a comment is appended to F (a
#    save: nvcc runs again, and ptxas and nvdisasm for the SASS counts) and the same run is
#    timed: nvcc -ptx of F alone, the whole run (ratio: target <= 4), and its first results,
#    the seconds until the run's --main-first folder appears (the tests and the main
#    configuration, what the feedback screen shows first; target <= 3).
# 3. A batch: a class of BENCH_STUDENTS (default 30) copies of the lab's solution, each
#    made a distinct file (a comment naming the student: every build is one nvcc run, as
#    real submissions are), graded by `warplab batch NN CLASS -j 2 --backend emu` on a fresh
#    cache; students a minute, and the projection to 300 students x 7 labs (target <= 30
#    minutes): the sum over the labs graded of their batch time x 300 / students, scaled by
#    7 / labs graded when BENCH_BATCH_LABS names fewer than seven.
#
# Each figure of parts 1 and 2 is the best of BENCH_REPS runs (default 3): other work on the
# machine only ever slows a run down, and one run's nvcc varied from 0.26 to 0.69 s on a
# shared host.
#
#   BENCH_LABS="01 05"        labs of part 1 (default: 01..07)
#   BENCH_REPS=N              runs per figure of parts 1 and 2 (default 3)
#   BENCH_SAVE=0              skip part 2
#   BENCH_BATCH_LABS="01"     labs of part 3 (default: 01..07; "" skips it)
#   BENCH_STUDENTS=N          the class size (default 30)
set -euo pipefail

cd "$(dirname "$0")/.."
warplab=${WARPLAB:-bin/warplab}
[ -x "$warplab" ] || { echo "pipeline times: $warplab is not built (run: make)" >&2; exit 1; }
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
labs=${BENCH_LABS:-01 02 03 04 05 06 07}
reps=${BENCH_REPS:-3}
batch_labs=${BENCH_BATCH_LABS-01 02 03 04 05 06 07}
students=${BENCH_STUDENTS:-30}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
min2() { awk -v a="$1" -v b="$2" 'BEGIN { print (a == "" || b < a) ? b : a }'; }
lab_dir() { local d; for d in labs/"$1"-*; do echo "$d"; return; done; }
# The lab's kernel file name, from lab.json's "kernel_file".
kernel_name() { sed -n 's/.*"kernel_file": *"\([^"]*\)".*/\1/p' "$(lab_dir "$1")/lab.json" | head -1; }

echo "warplab pipeline times ($warplab, $(nproc) cores)"
printf '%-4s %8s | %9s %6s | %9s %6s\n' lab nvcc_s cold_run_s ratio warm_run_s ratio
for n in $labs; do
  sol=solutions/$(basename "$(lab_dir "$n")")/$(kernel_name "$n")
  tn="" cold="" warm=""
  for _ in $(seq "$reps"); do
    t0=$(now)
    nvcc -arch=sm_90 -ptx -lineinfo "$sol" -o "$tmp/k.ptx" >/dev/null 2>&1 || echo "pipeline times: nvcc $sol failed" >&2
    tn=$(min2 "$tn" "$(since "$t0")")
    rm -rf "$tmp/cache"
    walls=()
    for _ in cold warm; do
      t0=$(now)
      WARPLAB_CACHE=$tmp/cache "$warplab" run "$n" --solution --backend emu --plain --results "$tmp/results" \
        >/dev/null 2>&1 || echo "pipeline times: run $n --solution failed" >&2
      walls+=("$(since "$t0")")
    done
    cold=$(min2 "$cold" "${walls[0]}")
    warm=$(min2 "$warm" "${walls[1]}")
  done
  awk -v n="$n" -v tn="$tn" -v c="$cold" -v w="$warm" 'BEGIN {
    printf "%-4s %8.2f | %9.2f %6.1f | %9.2f %6.1f\n", n, tn, c, (tn > 0 ? c / tn : 0), w,
           (tn > 0 ? w / tn : 0) }'
  rm -rf "$tmp/results"
done
echo "ratio: the whole run's wall time over one nvcc -ptx of the same file (target <= 4);"
echo "cold: an empty build cache, warm: the same run again on the cache the cold run filled;"
echo "each figure the best of $reps."

if [ "${BENCH_SAVE:-1}" != 0 ]; then
  echo
  echo "student save, reference cached: warplab run NN --kernel-file F --seed S --plain, after"
  echo "a comment is appended to F (a run before it filled the caches)"
  printf '%-4s %8s | %9s %6s | %8s\n' lab nvcc_s save_run_s ratio first_s
  for n in $labs; do
    d=$(lab_dir "$n")
    k=$(kernel_name "$n")
    stu=$tmp/student-$n
    mkdir -p "$stu"
    cp "solutions/$(basename "$d")/$k" "$stu/$k"
    if [ -f "solutions/$(basename "$d")/answers.json" ]; then
      cp "solutions/$(basename "$d")/answers.json" "$stu/"
    fi
    save_run() {   # save_run FIRST_DIR: the run, its --main-first folder FIRST_DIR
      WARPLAB_CACHE=$tmp/cache "$warplab" run "$n" --kernel-file "$stu/$k" --seed 20261126 \
        --backend emu --plain --results "$tmp/results" --main-first "$1" >/dev/null 2>&1
    }
    rm -rf "$tmp/cache"
    save_run "$tmp/first-fill" || echo "pipeline times: run $n (filling the caches) failed" >&2
    tn="" w="" first=""
    for r in $(seq "$reps"); do
      printf '// saved %s\n' "$r" >> "$stu/$k"
      t0=$(now)
      nvcc -arch=sm_90 -ptx -lineinfo "$stu/$k" -o "$tmp/k.ptx" >/dev/null 2>&1 || echo "pipeline times: nvcc $stu/$k failed" >&2
      tn=$(min2 "$tn" "$(since "$t0")")
      printf '// saved again %s\n' "$r" >> "$stu/$k"
      rm -rf "$tmp/first-save"
      t0=$(now)
      save_run "$tmp/first-save" &
      pid=$!
      f=""
      while kill -0 "$pid" 2>/dev/null; do
        if [ -z "$f" ] && [ -d "$tmp/first-save" ]; then f=$(since "$t0"); fi
        sleep 0.02
      done
      wait "$pid" || echo "pipeline times: run $n (the save) failed" >&2
      ws=$(since "$t0")
      if [ -z "$f" ]; then f=$ws; fi   # no sweeps: the whole run is its first results
      w=$(min2 "$w" "$ws")
      first=$(min2 "$first" "$f")
    done
    awk -v n="$n" -v tn="$tn" -v w="$w" -v f="$first" 'BEGIN {
      printf "%-4s %8.2f | %9.2f %6.1f | %8.2f\n", n, tn, w, (tn > 0 ? w / tn : 0), f }'
    rm -rf "$tmp/results" "$tmp/first-fill" "$tmp/first-save" "$stu"
  done
  echo "save_run: the whole run after the save (nvcc, ptxas and nvdisasm on the new file, the"
  echo "tests, the sweeps, the charts, the score against the cached reference run; target <= 4"
  echo "x nvcc); first: until its tests and main configuration were written (--main-first);"
  echo "each the best of $reps saves (a comment changes the PTX's internal names: every save"
  echo "builds anew)."
fi

[ -n "$batch_labs" ] || exit 0
echo
echo "batch: $students students a lab, warplab batch -j 2 --backend emu, a fresh cache a lab"
printf '%-4s %9s %12s\n' lab wall_s students/min
total=0
nl=0
for n in $batch_labs; do
  d=$(lab_dir "$n")
  k=$(kernel_name "$n")
  cls=$tmp/class-$n
  for i in $(seq -w 1 "$students"); do
    mkdir -p "$cls/s$i"
    cp "solutions/$(basename "$d")/$k" "$cls/s$i/$k"
    printf '// student s%s\n' "$i" >> "$cls/s$i/$k"
    if [ -f "solutions/$(basename "$d")/answers.json" ]; then
      cp "solutions/$(basename "$d")/answers.json" "$cls/s$i/"
    fi
  done
  rm -rf "$tmp/cache"
  t0=$(now)
  WARPLAB_CACHE=$tmp/cache "$warplab" batch "$n" "$cls" --out "$tmp/graded-$n" -j 2 --backend emu \
    >/dev/null 2>&1 || echo "pipeline times: batch $n failed" >&2
  w=$(since "$t0")
  awk -v n="$n" -v w="$w" -v s="$students" 'BEGIN { printf "%-4s %9.1f %12.1f\n", n, w, (w > 0 ? s * 60 / w : 0) }'
  total=$(awk -v a="$total" -v w="$w" 'BEGIN { print a + w }')
  nl=$((nl + 1))
  rm -rf "$cls" "$tmp/graded-$n"
done
awk -v t="$total" -v s="$students" -v nl="$nl" 'BEGIN {
  m = t * 300 / s * 7 / nl / 60
  printf "projection: 300 students x 7 labs on 2 cores: %.1f minutes (target <= 30)%s\n", m,
         (nl < 7 ? sprintf(", from %d of the 7 labs", nl) : "") }'
