#!/bin/sh
# async_copy.sh: lab 03, going further. Runs async_copy.cu (the triad with its loads in flight
# kept in shared memory by cp.async, STAGES tiles per block) on the emulator at the lab's 8
# warps per SM and prints, per STAGES, the timing model's time, the bandwidth it gives and
# the long-scoreboard stalls per issued instruction (handouts/03-latency-hiding.md, section 6).
#
#   sh labs/03-latency-hiding/async_copy.sh [STAGES ...]      from the top of the repository
#
# WARPLAB names the warplab to run (default bin/warplab); N the floats per array (default
# 2162688, a quarter of the lab's emulator size); extra options for warplab emu go in EMU_OPTS.
set -eu
WARPLAB=${WARPLAB:-bin/warplab}
here=$(dirname "$0")
n=${N:-2162688}
blocks=2112
warps=8
[ $# -gt 0 ] || set -- 1 2 4 8
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
# the lab's way of holding an SM to WARPS warps (lab.json, launch.smem), less the 8 KB of
# stages the kernel declares itself
smem=$((233472 / (warps / 4) - 2048 - 8192))

metric() {   # metric NAME: its value in the JSON report on stdin
  sed -n "/\"$1\"/{n;s/.*\"value\": *\([-0-9.e+]*\).*/\1/p;}" | head -n 1
}

for s in "$@"; do
  case $s in
  1|2|4|8) ;;
  *) echo "async_copy.sh: STAGES must be 1, 2, 4 or 8, not '$s'" >&2; exit 2 ;;
  esac
done
printf '%6s %12s %10s %22s\n' STAGES "time (us)" "GB/s" "long-scoreboard stalls"
for s in "$@"; do
  # shellcheck disable=SC2086
  "$WARPLAB" emu "$here/async_copy.cu" --kernel triad_async --grid "$blocks" --block 128 \
      --smem "$smem" --arg "f32buf:$n:rand:1" --arg "f32buf:$n:rand:2" --arg "f32buf:$n:zero" \
      --arg "i32:$n" --arg "i32:$s" ${EMU_OPTS:-} --json > "$tmp/run.json"
  ns=$(metric gpu__time_duration.sum < "$tmp/run.json")
  stall=$(metric smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio < "$tmp/run.json")
  awk -v s="$s" -v ns="$ns" -v n="$n" -v st="$stall" 'BEGIN {
    if (ns == "") { printf "%6d %12s\n", s, "(no time)"; exit }
    printf "%6d %12.1f %10.0f %22.2f\n", s, ns / 1000, 12 * n / ns, st }'
done
