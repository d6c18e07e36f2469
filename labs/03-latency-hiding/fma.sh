#!/bin/sh
# fma.sh: lab 03's arithmetic latency hiding. Runs fma.cu (dependent FMA chains, 1 or 4 per
# thread) as one block of 32 to 1024 threads on the emulator and prints how many FMAs the
# SM completes per cycle, out of the 128 its four schedulers can issue
# (handouts/03-latency-hiding.md, exercise 2).
#
#   sh labs/03-latency-hiding/fma.sh [ILP ...]      from the top of the repository
#
# WARPLAB names the warplab to run (default bin/warplab); extra options for warplab emu go
# in EMU_OPTS.
set -eu
WARPLAB=${WARPLAB:-bin/warplab}
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
[ $# -gt 0 ] || set -- 1 4
iters=4096

cycles() {
  # shellcheck disable=SC2086
  "$WARPLAB" emu "$@" ${EMU_OPTS:-} --json | sed -n '/"sm__cycles_elapsed.avg"/{n;s/[^0-9.]//gp;}'
}

"$WARPLAB" emu "$here/fma.cu" --kernel fma_chains --grid 1 --block 32 --arg f32buf:32:zero \
    --arg i32:16 --arg i32:1 --keep-ptx "$tmp/fma.ptx" >/dev/null
printf '%4s %6s %6s %10s %15s\n' ILP block warps cycles "FMAs per cycle"
for ilp in "$@"; do
  for block in 32 64 128 256 512 1024; do
    c=$(cycles "$tmp/fma.ptx" --kernel fma_chains --grid 1 --block "$block" \
        --arg "f32buf:$block:zero" --arg "i32:$iters" --arg "i32:$ilp")
    awk -v ilp="$ilp" -v b="$block" -v c="$c" -v it="$iters" 'BEGIN {
      if (c == "") { printf "%4d %6d %6d %10s\n", ilp, b, b / 32, "(no time)"; exit }
      printf "%4d %6d %6d %10d %15.1f\n", ilp, b, b / 32, c, b * ilp * it / c }'
  done
done
