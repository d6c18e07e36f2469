#!/bin/sh
# staircase.sh: lab 03's latency staircase. Runs chase.cu (one thread, one 128-byte line per
# step) through footprints from 16 KB to 64 MB on the emulator and prints the cycles each
# dependent load takes, footprint by footprint (handouts/03-latency-hiding.md, exercise 1).
#
#   sh labs/03-latency-hiding/staircase.sh [KB ...]      from the top of the repository
#
# Every footprint runs twice, for S and for 2S steps, S = max(lines in the footprint, 8192):
# the first S steps include the first pass over the footprint, which finds every line cold;
# the last S steps find it wherever it fits. The difference of the two runs' cycles over S
# is the warm cost of one step, with the cold pass and the launch's fixed costs cancelled.
# WARPLAB names the warplab to run (default bin/warplab); extra options for warplab emu go
# in EMU_OPTS (say EMU_OPTS="--arch h100-sxm").
set -eu
WARPLAB=${WARPLAB:-bin/warplab}
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
[ $# -gt 0 ] || set -- 16 64 256 1024 4096 16384 65536

# the modelled sm__cycles_elapsed.avg of one run: warplab emu ARGS... --json
cycles() {
  # shellcheck disable=SC2086
  "$WARPLAB" emu "$@" ${EMU_OPTS:-} --json | sed -n '/"sm__cycles_elapsed.avg"/{n;s/[^0-9.]//gp;}'
}

# build once, then run the PTX
"$WARPLAB" emu "$here/chase.cu" --kernel chase --grid 1 --block 1 --arg u32buf:32:iota \
    --arg u32buf:1:zero --arg i32:32 --arg i32:1 --keep-ptx "$tmp/chase.ptx" >/dev/null
printf '%12s %10s %16s\n' footprint steps "cycles per step"
for kb in "$@"; do
  words=$((kb * 256))
  steps=$((words / 32))
  [ "$steps" -ge 8192 ] || steps=8192
  one=$(cycles "$tmp/chase.ptx" --kernel chase --grid 1 --block 1 --arg "u32buf:$words:iota" \
        --arg u32buf:1:zero --arg "i32:$words" --arg "i32:$steps")
  two=$(cycles "$tmp/chase.ptx" --kernel chase --grid 1 --block 1 --arg "u32buf:$words:iota" \
        --arg u32buf:1:zero --arg "i32:$words" --arg "i32:$((2 * steps))")
  awk -v kb="$kb" -v s="$steps" -v a="$one" -v b="$two" 'BEGIN {
    if (a == "" || b == "") { printf "%9d KB %10d %16s\n", kb, s, "(no time)"; exit }
    printf "%9d KB %10d %16.1f\n", kb, s, (b - a) / s }'
done
