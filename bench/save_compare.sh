#!/usr/bin/env bash
# save_compare.sh: a student's save timed with several warplab builds, interleaved, so that
# a noisy machine slows each build alike. A script that prints figures, never a test.
#
# For each lab, each build first runs the lab's solution as the student's file (filling its
# caches: the reference solution's build and run for the score), then N times: one
# `nvcc -ptx -lineinfo` of the lab's file (as warplab builds it), and for each build a
# comment appended to its copy of the file (a save: nvcc, ptxas and nvdisasm run again) and
# the timed
# `warplab run NN --backend emu --kernel-file F --seed 5 --plain`. Prints each build's best
# and every time, and nvcc's.
#
#   bash bench/save_compare.sh BUILD...       (paths of warplab binaries)
#   BENCH_LABS="07 03"  BENCH_REPS=5           labs (default 07 03 02), saves per build
set -uo pipefail

cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: bash bench/save_compare.sh WARPLAB..." >&2; exit 2; }
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
reps=${BENCH_REPS:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }
log=$tmp/log
for lab in ${BENCH_LABS:-07 03 02}; do
  src=$(ls solutions/$lab-*/*.cu | head -1)
  for k in $(seq $#); do
    b=${!k}
    mkdir -p "$tmp/b$k"
    cp "$src" "$tmp/b$k/k$lab.cu"
    WARPLAB_CACHE=$tmp/cache$k timeout 120 "$b" run "$lab" --backend emu --kernel-file \
      "$tmp/b$k/k$lab.cu" --seed 5 --plain --results "$tmp/res" >/dev/null 2>&1
  done
  for i in $(seq "$reps"); do
    t0=$(now); nvcc -arch=sm_90 -ptx -lineinfo "$src" -o "$tmp/x.ptx"; t1=$(now)
    echo "$lab nvcc $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')" >> "$log"
    for k in $(seq $#); do
      b=${!k}
      f=$tmp/b$k/k$lab.cu
      echo "// save $i $(date +%s%N) $RANDOM" >> "$f"
      t0=$(now)
      WARPLAB_CACHE=$tmp/cache$k timeout 120 "$b" run "$lab" --backend emu --kernel-file "$f" \
        --seed 5 --plain --results "$tmp/res" >/dev/null 2>&1
      t1=$(now)
      echo "$lab build$k $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')" >> "$log"
    done
  done
done
echo "a student's save, builds interleaved (seconds: best, then every save in order)"
for k in $(seq $#); do echo "build$k: ${!k}"; done
awk '{ k = $1 " " $2; if (!(k in best) || $3 < best[k]) best[k] = $3; all[k] = all[k] " " $3 }
     END { for (k in best) print k, "best", best[k], "all", all[k] }' "$log" | sort
