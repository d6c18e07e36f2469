#!/usr/bin/env bash
# lab_full_runs.sh: every lab's reference solution through `warplab run NN --backend gpu`
# (full, with its sweeps), keeping each report: how long it took and which figures of the
# sweep rows came from where (Nsight Compute profiles the main configuration; the sweeps'
# ratios are the emulator's exact counts of the same PTX, run_sweepfill.h).
#
#   bash tests/gpu/lab_full_runs.sh WARPLAB OUTDIR [NN...]
#
# OUTDIR/runNN.txt gets each report, OUTDIR/summary.txt a line per lab as it ends.
set -u
WL=$(realpath "${1:?usage: lab_full_runs.sh WARPLAB OUTDIR [NN...]}")
OUT=$(realpath "${2:?usage: lab_full_runs.sh WARPLAB OUTDIR [NN...]}")
shift 2
cd "$(dirname "$0")/../.." || exit 2
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="/usr/local/cuda/bin:$PATH"
labs=("$@")
[ ${#labs[@]} -gt 0 ] || labs=(01 02 03 04 05 06 07)
R=$(mktemp -d)
for n in "${labs[@]}"; do
  t0=$(date +%s.%N)
  timeout 120 "$WL" run "$n" --solution --backend gpu --plain --results "$R" >"$OUT/run$n.txt" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  printf 'run%s rc=%d %.1f s  %s\n' "$n" "$rc" "$(awk "BEGIN{print $t1 - $t0}")" \
    "$(grep -m1 '^  took' "$OUT/run$n.txt" | sed 's/^  took *//')" | tee -a "$OUT/summary.txt"
done
rm -rf "$R"
