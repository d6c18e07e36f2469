#!/bin/sh
# banks.sh: lab 05's bank probe. Runs bank_probe.cu (one warp, one shared load) on the emulator
# for each pattern given and prints the load's wavefronts and bank conflicts
# (handouts/05-bank-conflicts.md, exercises 2 and 3).
#
#   sh labs/05-bank-conflicts/banks.sh [WIDTH:GROUP:STRIDE:SHIFT ...]    from the top of the repository
#
# A pattern is the kernel's four numbers (see bank_probe.cu): the element's size in bytes
# (4, 8 or 16), and the lane's element (l % GROUP) * STRIDE + (l / GROUP) * SHIFT. Without
# arguments: 4-byte elements at strides 1, 2, 4, 8, 16, 32 and 33. WARPLAB names the warplab
# to run (default bin/warplab); BACKEND=gpu runs the same PTX on a GPU under ncu instead, and
# prints Nsight Compute's two figures (ncu must be on PATH).
set -eu
WARPLAB=${WARPLAB:-bin/warplab}
BACKEND=${BACKEND:-emu}
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
[ $# -gt 0 ] || set -- 4:32:1:0 4:32:2:0 4:32:4:0 4:32:8:0 4:32:16:0 4:32:32:0 4:32:33:0

WAVES=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
CONFLICTS=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum

# build once, then run the PTX
"$WARPLAB" emu "$here/bank_probe.cu" --kernel bank_probe --grid 1 --block 32 \
    --arg f32buf:32:zero --arg i32:4 --arg i32:32 --arg i32:1 --arg i32:0 \
    --keep-ptx "$tmp/bank_probe.ptx" >/dev/null

# the value of metric $1 in the JSON report on stdin
metric() { sed -n "/\"$1\"/{n;s/[^0-9.]//gp;}"; }

printf '%6s %6s %7s %6s %11s %15s\n' width group stride shift wavefronts "bank conflicts"
for p in "$@"; do
  IFS=: read -r width group stride shift <<EOF
$p
EOF
  args="--kernel bank_probe --grid 1 --block 32 --arg f32buf:32:zero --arg i32:$width \
        --arg i32:$group --arg i32:$stride --arg i32:$shift"
  if [ "$BACKEND" = gpu ]; then
    # shellcheck disable=SC2086
    ncu --metrics "$WAVES,$CONFLICTS" --csv "$WARPLAB" emu "$tmp/bank_probe.ptx" $args \
        --backend gpu > "$tmp/ncu.csv" 2>/dev/null || true
    w=$(grep "\"$WAVES\"" "$tmp/ncu.csv" | awk -F'","' '{gsub(/[",]/, "", $NF); print $NF}')
    c=$(grep "\"$CONFLICTS\"" "$tmp/ncu.csv" | awk -F'","' '{gsub(/[",]/, "", $NF); print $NF}')
  else
    # shellcheck disable=SC2086
    "$WARPLAB" emu "$tmp/bank_probe.ptx" $args --json > "$tmp/run.json"
    w=$(metric "$WAVES" < "$tmp/run.json")
    c=$(metric "$CONFLICTS" < "$tmp/run.json")
  fi
  printf '%6s %6s %7s %6s %11s %15s\n' "$width" "$group" "$stride" "$shift" "${w:-?}" "${c:-?}"
done
