#!/usr/bin/env bash
# run.sh: run the timing model's benchmark sweeps (bench/timing/NAME/, issue 4) on one
# backend and keep what warplab prints.
#
#   bench/timing/run.sh BACKEND OUTDIR [NAME...]
#
# BACKEND is emu, gpu or auto (warplab run --backend). For every NAME (default: every folder
# here with a lab.json) it runs
#   warplab run bench/timing/NAME --backend BACKEND --json --kernel-file NAME/KERNEL.cu
# and writes the JSON to OUTDIR/NAME.json, warplab's messages to OUTDIR/NAME.log and the
# run's results folder under OUTDIR/results. It goes on past a failure and ends with one line
# per folder: ok, or what failed (the exit code, the sweep points that were not correct).
# Exit status: 0 when every folder ran cleanly, 1 otherwise, 2 on bad usage.
#
#   WARPLAB=PATH  the warplab binary (default: the repository's bin/warplab; build it with make)
#   NCU=1         on the GPU, also take the metrics with Nsight Compute (default --no-ncu:
#                 timings only, one launch series per point); ncu profiles the main
#                 configuration only. NCU=all: every sweep point too (--profile-all)
#   ARCH=PROFILE  on the emulator, model that architecture profile (warplab run --arch:
#                 h200, h100-sxm, ...; default warplab's own)
set -u

usage() {
  echo "usage: bench/timing/run.sh emu|gpu|auto OUTDIR [NAME...]" >&2
  exit 2
}
[ $# -ge 2 ] || usage
backend=$1
outdir=$2
shift 2
case "$backend" in emu|gpu|auto) ;; *) usage ;; esac

# OUTDIR and WARPLAB are taken from where the script is called; the runs are made from the
# repository's root (warplab finds labs/ and harness/ there)
mkdir -p "$outdir" || exit 2
outdir=$(cd "$outdir" && pwd) || exit 2
here=$(cd "$(dirname "$0")" && pwd) || exit 2
warplab=${WARPLAB:-$here/../../bin/warplab}
case "$warplab" in /*) ;; *) warplab=$PWD/$warplab ;; esac
cd "$here/../.." || exit 2
[ -x "$warplab" ] || { echo "run.sh: $warplab is not built (run: make)" >&2; exit 2; }
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi

if [ $# -gt 0 ]; then
  names=("$@")
else
  names=()
  for d in "$here"/*/; do
    [ -f "$d/lab.json" ] && names+=("$(basename "$d")")
  done
fi

summary=()
failed=0
for name in "${names[@]}"; do
  dir=bench/timing/$name
  if [ ! -f "$dir/lab.json" ]; then
    summary+=("$name: FAILED (no $dir/lab.json)")
    failed=1
    continue
  fi
  kfile=$(sed -n 's/^ *"kernel_file": *"\([^"]*\)".*/\1/p' "$dir/lab.json" | head -n 1)
  args=(run "$dir" --backend "$backend" --json --kernel-file "$dir/$kfile" --results "$outdir/results")
  case "$backend:${NCU:-0}" in
    emu:*) ;;
    *:1) ;;
    *:all) args+=(--profile-all) ;;
    *) args+=(--no-ncu) ;;
  esac
  if [ "$backend" = emu ] && [ -n "${ARCH:-}" ]; then
    args+=(--arch "$ARCH")
  fi
  echo "== $name: $warplab ${args[*]}" >&2
  start=$(date +%s.%N)
  "$warplab" "${args[@]}" >"$outdir/$name.json" 2>"$outdir/$name.log"
  rc=$?
  secs=$(echo "$start $(date +%s.%N)" | awk '{printf "%.1f", $2 - $1}')
  # sweep points are not in the exit code (it covers the tests and the main configuration)
  points=$(grep -c '"correct": ' "$outdir/$name.json")
  bad=$(grep -c '"correct": false' "$outdir/$name.json")
  if [ "$rc" -eq 0 ] && [ "$bad" -eq 0 ] && [ "$points" -gt 0 ]; then
    summary+=("$name: ok, $points points, ${secs} s")
  else
    summary+=("$name: FAILED (exit $rc, $bad of $points points not correct, ${secs} s; see $outdir/$name.json and .log)")
    failed=1
  fi
done

for line in "${summary[@]}"; do
  echo "$line"
done
exit $failed
