#!/usr/bin/env bash
# lab_times.sh: wall time of whole lab runs on the emulator (nvcc included), the figures
# issue 19 tracks: `warplab run 07 --solution --quick`, `run 05` and `run 02` (both with
# --solution, so the runs do not depend on a student's file). A script that prints
# figures, never a test.
set -euo pipefail

cd "$(dirname "$0")/.."
warplab=${WARPLAB:-bin/warplab}
[ -x "$warplab" ] || { echo "lab times: $warplab is not built (run: make)" >&2; exit 1; }
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-32s %8s\n' "lab run" wall_s
for c in "07 --solution --quick" "05 --solution" "02 --solution"; do
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086
  "$warplab" run $c --plain --results "$tmp" >/dev/null 2>&1 || echo "lab times: run $c failed" >&2
  t1=$(date +%s.%N)
  awk -v n="run $c" -v a="$t0" -v b="$t1" 'BEGIN { printf "%-32s %8.2f\n", n, b - a }'
done
