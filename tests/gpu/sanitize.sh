#!/usr/bin/env bash
# sanitize.sh: `warplab emu --backend gpu --sanitize TOOL` on a real GPU (issue 9): what
# compute-sanitizer finds, in the emulator's words, next to what the emulator itself reports
# for the same launch. Run on a machine with an NVIDIA GPU and the CUDA Toolkit (the device
# tool); writes OUTDIR/sanitize.txt and exits 1 if a finding does not match.
#
#   bash tests/gpu/sanitize.sh WARPLAB OUTDIR
set -u
WL=$(realpath "${1:?usage: sanitize.sh WARPLAB OUTDIR}")
OUT=$(realpath "${2:?usage: sanitize.sh WARPLAB OUTDIR}")
cd "$(dirname "$0")/../.." || exit 2
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="/usr/local/cuda/bin:$PATH"
A=--arg
bad=0
# name | tool | kernel file | kernel | grid | block | args
cases=(
  "oob|memcheck|tests/e2e/kernels/oob.cu|oob_write|2|64|$A f32buf:100:rand $A f32buf:100:zero $A i32:100"
  "barrier|synccheck|tests/e2e/kernels/barrier_divergence.cu|half_barrier|1|64|$A f32buf:64:zero"
  "race|racecheck|tests/gpu/kernels/race.cu|neighbour_race|1|256|$A f32buf:256:zero"
)
{
  for c in "${cases[@]}"; do
    IFS='|' read -r name tool file kern grid block args <<< "$c"
    echo "== $name: compute-sanitizer $tool"
    gpu=$(timeout -s KILL 120 "$WL" emu "$file" --kernel "$kern" --grid "$grid" --block "$block" \
          $args --backend gpu --sanitize "$tool" 2>&1)
    echo "$gpu"
    echo "== $name: the emulator"
    emu=$("$WL" emu "$file" --kernel "$kern" --grid "$grid" --block "$block" $args --json 2>&1 |
          sed -n 's/^ *"message": "\(.*\)",*$/\1/p' | head -1)
    echo "  ${emu:-ran cleanly}"
    # the same kind of error (the report's first words) at the same file:line
    g=$(echo "$gpu" | sed -n 's/^  first: //p')
    gk=$(echo "$g" | cut -c1-40); gl=$(echo "$g" | grep -o '[A-Za-z_0-9]*\.cu:[0-9]*' | head -1)
    ek=$(echo "$emu" | cut -c1-40); el=$(echo "$emu" | grep -o '[A-Za-z_0-9]*\.cu:[0-9]*' | head -1)
    if [ -n "$g" ] && [ "$gk" = "$ek" ] && [ "$gl" = "$el" ]; then
      echo "-> same finding: '$gk' at $gl"
    else
      echo "-> DIFFERENT: gpu '$gk' at $gl, emulator '$ek' at $el"
      [ "$name" = race ] || bad=1          # the emulator has no race detector
    fi
  done
} >"$OUT/sanitize.txt" 2>&1
cat "$OUT/sanitize.txt"
exit $bad
