#!/usr/bin/env bash
# families.sh: the GPU half of the kernel families' proof (issue 15), in one call.
#
#   bash bench/timing/families.sh WARPLAB OUTDIR [NAME...]
#
# On a machine with an NVIDIA GPU: every family folder of bench/timing (FAMILIES below, or
# the NAMEs given) measured with CUDA events (bench/timing/run.sh gpu, at lab.json's GPU
# size) into OUTDIR/gpu, then again under Nsight Compute (NCU=all: smsp__inst_executed.sum
# and the other metrics lab.json lists, at every sweep point) into OUTDIR/ncu. Every folder runs under a timeout of its
# own (PER_S seconds, default 40), and the whole stays inside BUDGET_S seconds (default 330:
# a folder that would start past it is skipped), so one folder that fails or hangs costs at
# most its timeout and the rest still run. Then the report against the emulator's committed
# results goes to OUTDIR/report.txt (bench/timing/results/emu-families/PROFILE, the profile
# of the GPU found: h100-sxm for an H100, else h200; EMU_DIR=PATH picks another), the device's
# description to OUTDIR/device.txt, and everything (without the results folders) also to
# OUTDIR/families-gpu.tgz. MODES="ncu" (default "gpu ncu") runs the ncu pass alone (the
# report then has no GPU times). Exit status 0 when every folder ran cleanly, 1 otherwise.
set -u
FAMILIES=(transpose gather loops stencil gemm conv2d scan spmv rowred)
WL=$(realpath "${1:?usage: families.sh WARPLAB OUTDIR [NAME...]}")
mkdir -p "${2:?usage: families.sh WARPLAB OUTDIR [NAME...]}" || exit 2
OUT=$(realpath "$2")
shift 2
[ $# -gt 0 ] && FAMILIES=("$@")
cd "$(dirname "$0")/../.." || exit 2
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="/usr/local/cuda/bin:$PATH"
PER_S=${PER_S:-40}
BUDGET_S=${BUDGET_S:-330}
mkdir -p "$OUT/gpu" "$OUT/ncu"
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv 2>&1
  nvcc --version 2>&1 | tail -1
  ncu --version 2>&1 | tail -1
  date -u +%Y-%m-%dT%H:%M:%SZ
} >"$OUT/device.txt"

t0=$(date +%s)
status=0
summary=()
# one_run MODE NAME: one folder on the GPU, CUDA events (MODE gpu) or under ncu (MODE ncu)
one_run() {
  local mode=$1 name=$2 left t rc ncu=0
  left=$(( BUDGET_S - ($(date +%s) - t0) ))
  if [ "$left" -lt 10 ]; then
    summary+=("$mode $name: SKIPPED (the budget of $BUDGET_S s is spent)")
    status=1
    return
  fi
  t=$(( left < PER_S ? left : PER_S ))
  [ "$mode" = ncu ] && ncu=all
  local s=$(date +%s)
  NCU=$ncu WARPLAB=$WL timeout -k 5 "$t" bash bench/timing/run.sh gpu "$OUT/$mode" "$name" \
    >"$OUT/$mode/$name.summary" 2>&1
  rc=$?
  rm -rf "$OUT/$mode/results"
  if [ "$rc" -eq 0 ]; then
    summary+=("$mode $name: ok ($(( $(date +%s) - s )) s)")
  elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    summary+=("$mode $name: TIMED OUT after $t s")
    status=1
  else
    summary+=("$mode $name: FAILED: $(tail -n 1 "$OUT/$mode/$name.summary")")
    status=1
  fi
}

for mode in ${MODES:-gpu ncu}; do
  case "$mode" in gpu|ncu) ;; *) echo "families.sh: MODES: gpu or ncu, not $mode" >&2; exit 2 ;; esac
  for name in "${FAMILIES[@]}"; do
    one_run "$mode" "$name"
  done
done
{
  for line in "${summary[@]}"; do
    echo "$line"
  done
  echo "total: $(( $(date +%s) - t0 )) s"
} | tee "$OUT/summary.txt"
if [ -z "${EMU_DIR:-}" ]; then
  EMU_DIR=bench/timing/results/emu-families/h200
  grep -q H100 "$OUT/device.txt" && EMU_DIR=bench/timing/results/emu-families/h100-sxm
  [ -d "$EMU_DIR" ] || EMU_DIR=bench/timing/results/emu-families/h200
fi
echo "report against $EMU_DIR" >>"$OUT/summary.txt"
python3 bench/timing/families_report.py "$EMU_DIR" "$OUT/gpu" "$OUT/ncu" \
  --only "$(IFS=,; echo "${FAMILIES[*]}")" >"$OUT/report.txt" 2>&1
tail -n 8 "$OUT/report.txt"
tar czf "$OUT/families-gpu.tgz" -C "$OUT" device.txt summary.txt report.txt gpu ncu
exit $status
