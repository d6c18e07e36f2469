#!/bin/sh
# staircase.sh: lab 03's latency staircase. Runs chase.cu (one thread, one 128-byte line per
# step) through footprints from 16 KB to 64 MB on the emulator and prints the cycles each
# dependent load takes, footprint by footprint (handouts/03-latency-hiding.md, exercise 1).
# Then it charts them against the footprint on a log axis, with the H200's own chase
# (bench/timing/calibration/h200/pointer_chase.csv) and the load latencies of the profile:
# staircase.png in CHARTS (default results/03-latency-hiding/staircase).
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
out=${CHARTS:-results/03-latency-hiding/staircase}
h200="$here/../../bench/timing/calibration/h200/pointer_chase.csv"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
[ $# -gt 0 ] || set -- 16 64 256 1024 4096 16384 65536

# the modelled sm__cycles_elapsed.avg of one run: warplab emu ARGS... --json
cycles() {
  # shellcheck disable=SC2086
  "$WARPLAB" emu "$@" ${EMU_OPTS:-} --json | sed -n '/"sm__cycles_elapsed.avg"/{n;s/[^0-9.]//gp;}'
}

# build once, then run the PTX; the profile the emulator models, for the chart
# shellcheck disable=SC2086
profile=$("$WARPLAB" emu "$here/chase.cu" --kernel chase --grid 1 --block 1 --arg u32buf:32:iota \
    --arg u32buf:1:zero --arg i32:32 --arg i32:1 --keep-ptx "$tmp/chase.ptx" ${EMU_OPTS:-} --json |
    sed -n 's/.*"profile": "\([^"]*\)".*/\1/p' | head -n 1)
printf '%12s %10s %16s\n' footprint steps "cycles per step"
: > "$tmp/points"
for kb in "$@"; do
  words=$((kb * 256))
  steps=$((words / 32))
  [ "$steps" -ge 8192 ] || steps=8192
  one=$(cycles "$tmp/chase.ptx" --kernel chase --grid 1 --block 1 --arg "u32buf:$words:iota" \
        --arg u32buf:1:zero --arg "i32:$words" --arg "i32:$steps")
  two=$(cycles "$tmp/chase.ptx" --kernel chase --grid 1 --block 1 --arg "u32buf:$words:iota" \
        --arg u32buf:1:zero --arg "i32:$words" --arg "i32:$((2 * steps))")
  # the H200's chase over the same footprint, 128 bytes a step
  h=""
  if [ "$profile" = h200 ] && [ -r "$h200" ]; then
    h=$(awk -F, -v b=$((kb * 1024)) '$1 == b && $2 == 128 { print $3 }' "$h200")
  fi
  awk -v kb="$kb" -v s="$steps" -v a="$one" -v b="$two" -v h="$h" -v pts="$tmp/points" 'BEGIN {
    if (a == "" || b == "") { printf "%9d KB %10d %16s\n", kb, s, "(no time)"; exit }
    printf "%9d KB %10d %16.1f\n", kb, s, (b - a) / s
    printf "{\"sweep\": \"chase\", \"label\": \"%d KB\", \"correct\": true, \"choices\": {\"KB\": %d},\n" \
           " \"metrics\": {\"cycles_per_step\": {\"value\": %.2f, \"kind\": \"modelled\"}", \
           kb, kb, (b - a) / s >> pts
    if (h != "")
      printf ",\n  \"cycles_per_step_h200\": {\"value\": %s, \"kind\": \"measured\"}", h >> pts
    printf "}},\n" >> pts }'
done

# the chart: the points as a run's result.json, its definition as charts.json
mkdir -p "$out"
{
  printf '{"lab": "03-latency-hiding",\n "provenance": {"backend": "", "profile": "%s",\n' "$profile"
  printf '  "device": "chase.cu on warplab emu (profile %s)%s"},\n "points": [\n' "$profile" \
      "$([ -s "$h200" ] && [ "$profile" = h200 ] && echo ', and an H200 (bench/timing/calibration/h200)')"
  sed '$ s/,$//' "$tmp/points"
  printf ']}\n'
} > "$out/result.json"
cat > "$out/charts.json" <<'EOF'
{"charts": [{
  "name": "staircase",
  "title": "The latency staircase: cycles per dependent load against the footprint",
  "style": "lines",
  "sweep": "chase",
  "x": "KB",
  "xlog": true,
  "xlabel": "footprint the chase cycles through, KB (log scale)",
  "y": ["cycles_per_step", "cycles_per_step_h200"],
  "labels": ["emulator, chase.cu", "H200, calibration chase"],
  "ylabel": "SM cycles per step",
  "predict": "KB * 1024 <= l1_bytes ? l1_hit_cycles : (KB * 1024 <= l2_bytes ? l2_hit_cycles : dram_cycles)",
  "predict_label": "the profile's load latency (L1, L2, DRAM)"
}]}
EOF
echo
if "$WARPLAB" charts "$out" > "$tmp/charts"; then
  sed 's/^/chart: /' "$tmp/charts"
else
  echo "(no chart drawn: the data is in $out)"
fi
