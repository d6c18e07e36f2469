#!/bin/sh
# banks.sh: lab 05's bank probe. Runs bank_probe.cu (one warp, one shared load) for each
# pattern given and prints the load's wavefronts and bank conflicts
# (handouts/05-bank-conflicts.md, exercises 2 and 3).
#
#   sh labs/05-bank-conflicts/banks.sh [WIDTH:GROUP:STRIDE:SHIFT ...]    from the top of the repository
#
# A pattern is the kernel's four numbers (see bank_probe.cu): the element's size in bytes
# (4, 8 or 16), and the lane's element (l % GROUP) * STRIDE + (l / GROUP) * SHIFT. Without
# arguments: 4-byte elements at strides 1, 2, 4, 8, 16, 32 and 33. WARPLAB names the warplab
# to run (default bin/warplab). The figures are the emulator's; BACKEND=gpu runs the same PTX
# on a GPU under Nsight Compute instead (ncu on PATH) and prints the GPU's.
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

# the arguments of warplab emu for pattern $1
probe_args() {
  echo "$1" | awk -F: -v ptx="$tmp/bank_probe.ptx" '{
    printf "%s --kernel bank_probe --grid 1 --block 32 --arg f32buf:32:zero", ptx
    printf " --arg i32:%s --arg i32:%s --arg i32:%s --arg i32:%s\n", $1, $2, $3, $4 }'
}

# the value of metric $1 in warplab's JSON report on stdin
json_metric() { sed -n "/\"$1\"/{n;s/[^0-9.]//gp;}"; }

# the value of metric $1 in row $2 of its rows of ncu's CSV on stdin (the last field)
csv_metric() { grep "\"$1\"" | sed -n "$2p" | awk -F'","' '{gsub(/[",]/, "", $NF); print $NF}'; }

if [ "$BACKEND" = gpu ]; then
  # one ncu for every pattern: it profiles each child process's launch, in order
  for p in "$@"; do
    echo "\"$WARPLAB\" emu $(probe_args "$p") --backend gpu >/dev/null"
  done > "$tmp/all.sh"
  ncu --target-processes all --csv --metrics "$WAVES,$CONFLICTS" sh "$tmp/all.sh" \
      > "$tmp/ncu.csv" 2>/dev/null || true
fi

printf '%6s %6s %7s %6s %11s %15s\n' width group stride shift wavefronts "bank conflicts"
i=0
for p in "$@"; do
  i=$((i + 1))
  if [ "$BACKEND" = gpu ]; then
    w=$(csv_metric "$WAVES" "$i" < "$tmp/ncu.csv")
    c=$(csv_metric "$CONFLICTS" "$i" < "$tmp/ncu.csv")
  else
    # shellcheck disable=SC2046
    "$WARPLAB" emu $(probe_args "$p") --json > "$tmp/run.json"
    w=$(json_metric "$WAVES" < "$tmp/run.json")
    c=$(json_metric "$CONFLICTS" < "$tmp/run.json")
  fi
  echo "$p" | awk -F: -v w="${w:-?}" -v c="${c:-?}" \
    '{ printf "%6s %6s %7s %6s %11s %15s\n", $1, $2, $3, $4, w, c }'
done
