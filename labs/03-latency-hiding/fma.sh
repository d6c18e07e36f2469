#!/bin/sh
# fma.sh: lab 03's arithmetic latency hiding. Runs fma.cu (dependent FMA chains, 1 or 4 per
# thread) as one block of 32 to 1024 threads on the emulator and prints how many FMAs the
# SM completes per cycle, out of the 128 its four schedulers can issue
# (handouts/03-latency-hiding.md, exercise 2). Then it charts them against the warps, with
# the H200's own chains (bench/timing/calibration/h200/fma_chain.csv) and what Little's law
# predicts from the profile: fma.png in CHARTS (default results/03-latency-hiding/fma).
#
#   sh labs/03-latency-hiding/fma.sh [ILP ...]      from the top of the repository
#
# WARPLAB names the warplab to run (default bin/warplab); extra options for warplab emu go
# in EMU_OPTS.
set -eu
WARPLAB=${WARPLAB:-bin/warplab}
here=$(dirname "$0")
out=${CHARTS:-results/03-latency-hiding/fma}
h200="$here/../../bench/timing/calibration/h200/fma_chain.csv"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
[ $# -gt 0 ] || set -- 1 4
iters=4096

cycles() {
  # shellcheck disable=SC2086
  "$WARPLAB" emu "$@" ${EMU_OPTS:-} --json | sed -n '/"sm__cycles_elapsed.avg"/{n;s/[^0-9.]//gp;}'
}

# shellcheck disable=SC2086
profile=$("$WARPLAB" emu "$here/fma.cu" --kernel fma_chains --grid 1 --block 32 \
    --arg f32buf:32:zero --arg i32:16 --arg i32:1 --keep-ptx "$tmp/fma.ptx" ${EMU_OPTS:-} --json |
    sed -n 's/.*"profile": "\([^"]*\)".*/\1/p' | head -n 1)
printf '%4s %6s %6s %10s %15s\n' ILP block warps cycles "FMAs per cycle"
: > "$tmp/points"
for ilp in "$@"; do
  for block in 32 64 128 256 512 1024; do
    c=$(cycles "$tmp/fma.ptx" --kernel fma_chains --grid 1 --block "$block" \
        --arg "f32buf:$block:zero" --arg "i32:$iters" --arg "i32:$ilp")
    # the H200's chain at the same block and ILP (one block on every SM), as FMAs per cycle
    # per SM: its time less the launch's 3.2 us, at 1980 MHz (h200.conf)
    h=""
    if [ "$profile" = h200 ] && [ -r "$h200" ]; then
      h=$(awk -F, -v ilp="$ilp" -v b="$block" '$2 == ilp && $3 == b {
            printf "%.2f", b * ilp * $5 / (($6 * 1e-3 - 3.2e-6) * 1.98e9) }' "$h200")
    fi
    awk -v ilp="$ilp" -v b="$block" -v c="$c" -v it="$iters" -v h="$h" -v pts="$tmp/points" 'BEGIN {
      if (c == "") { printf "%4d %6d %6d %10s\n", ilp, b, b / 32, "(no time)"; exit }
      r = b * ilp * it / c
      printf "%4d %6d %6d %10d %15.1f\n", ilp, b, b / 32, c, r
      printf "{\"sweep\": \"ILP %d\", \"label\": \"ILP %d, %d warp%s\", \"correct\": true,\n" \
             " \"choices\": {\"ILP\": %d, \"WARPS\": %d},\n" \
             " \"metrics\": {\"fma_per_cycle\": {\"value\": %.4f, \"kind\": \"modelled\"}", \
             ilp, ilp, b / 32, (b > 32 ? "s" : ""), ilp, b / 32, r >> pts
      if (h != "")
        printf ",\n  \"fma_per_cycle_h200\": {\"value\": %s, \"kind\": \"measured\"}", h >> pts
      printf "}},\n" >> pts }'
  done
done

# the chart: the points as a run's result.json, its definition as charts.json
mkdir -p "$out"
sweeps=$(for ilp in "$@"; do printf '"ILP %d", ' "$ilp"; done)
{
  printf '{"lab": "03-latency-hiding",\n "provenance": {"backend": "", "profile": "%s",\n' "$profile"
  printf '  "device": "fma.cu on warplab emu (profile %s)%s"},\n "points": [\n' "$profile" \
      "$([ -s "$h200" ] && [ "$profile" = h200 ] && echo ', and an H200 (bench/timing/calibration/h200, less a launch of 3.2 us)')"
  sed '$ s/,$//' "$tmp/points"
  printf ']}\n'
} > "$out/result.json"
cat > "$out/charts.json" <<EOF
{"charts": [{
  "name": "fma",
  "title": "FMAs per cycle per SM against warps, with ILP independent FMA chains per thread",
  "style": "lines",
  "sweeps": [${sweeps%, }],
  "x": "WARPS",
  "xlog": true,
  "xlabel": "warps per SM (one block; log scale)",
  "y": ["fma_per_cycle", "fma_per_cycle_h200"],
  "labels": ["emulator", "H200"],
  "ylabel": "FMAs completed per cycle per SM (of 128 lanes)",
  "predict": "fp32_lanes * min(min(WARPS, 4), WARPS * ILP / fma_cycles)",
  "predict_label": "prediction (Little's law)"
}]}
EOF
echo
if "$WARPLAB" charts "$out" > "$tmp/charts"; then
  sed 's/^/chart: /' "$tmp/charts"
else
  echo "(no chart drawn: the data is in $out)"
fi
