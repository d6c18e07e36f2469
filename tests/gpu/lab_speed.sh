#!/usr/bin/env bash
# lab_speed.sh: how long a lab takes on a GPU (issue 21): every lab's reference solution
# through `warplab run NN --backend gpu` (full, with its sweeps), `--quick`, and `warplab
# grade NN` of the solution as a submission, first with an empty reference cache (the
# reference solution built and run) and then again (the reference from the cache), each
# with its wall time and the phases the report gives.
#
#   bash tests/gpu/lab_speed.sh WARPLAB OUTDIR [NN...]
#
# OUTDIR/lab_speed.txt gets a line per command as it ends; OUTDIR/lab_speed.tgz the reports.
set -u
WL=$(realpath "${1:?usage: lab_speed.sh WARPLAB OUTDIR [NN...]}")
OUT=$(realpath "${2:?usage: lab_speed.sh WARPLAB OUTDIR [NN...]}")
shift 2
cd "$(dirname "$0")/../.." || exit 2
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="/usr/local/cuda/bin:$PATH"
labs=("$@")
[ ${#labs[@]} -gt 0 ] || labs=(01 02 03 04 05 06 07)
R=$(mktemp -d)
S=$OUT/lab_speed.txt
export WARPLAB_CACHE=$R/cache
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1 | head -1
  nvcc --version 2>&1 | tail -1
  ncu --version 2>&1 | tail -1
} >"$S"
timed() {  # timed NAME CMD...: run, note the wall time, exit code and the report's phases
  local name=$1; shift
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >"$R/$name.txt" 2>&1
  local rc=$?
  t1=$(date +%s.%N)
  printf '%-22s rc=%d %6.1f s  %s\n' "$name" "$rc" "$(awk "BEGIN{print $t1 - $t0}")" \
    "$(grep -m1 -E '^  took' "$R/$name.txt" | sed 's/^  took *//')" >>"$S"
}
for n in "${labs[@]}"; do
  dir=$(ls -d solutions/"$n"-*/ | head -1)
  timed "run$n" "$WL" run "$n" --solution --backend gpu --plain --results "$R/results"
  timed "run$n-quick" "$WL" run "$n" --solution --backend gpu --plain --quick --results "$R/results"
  timed "grade$n-cold" "$WL" grade "$n" "$dir" --backend gpu --seed 1 --out "$R/results"
  timed "grade$n-warm" "$WL" grade "$n" "$dir" --backend gpu --seed 1 --out "$R/results"
done
rm -rf "$R/results" "$R/cache"
tar czf "$OUT/lab_speed.tgz" -C "$R" . && rm -rf "$R"
cat "$S"
