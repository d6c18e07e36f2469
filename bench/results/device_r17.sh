#!/bin/bash
# device_r17.sh: how device_r17.txt was made (issue 19, round 17), run from the repository
# root on the device with builds under .carry/NAME/warplab (base: f465a91, round 16's last;
# new: this round's) and their shared libraries in .carry.
#   series  round 10's series (two workers against one, saxpy and a reduction), 50 turns,
#           base and new, cores 2,3: what the counting of blocks past a fault costs
#   faults  tests/gpu/kernels/fault_order.cu's launches, ten times each on 1, 2 and 16
#           workers with each build: the distinct (warp-instructions, printed lines,
#           faulting block) each gives, which must be one per build and kernel for new
set -u
export LD_LIBRARY_PATH=$PWD/.carry PATH=/usr/local/cuda/bin:$PATH

series() {
  timeout 250 bash bench/results/device_r10.sh series 50 base new
}

faults() {
  nvcc -arch=sm_90 -ptx tests/gpu/kernels/fault_order.cu -o /tmp/fo.ptx || return 1
  local v k t i
  for v in base new; do for k in spin_fault cl_fault; do for t in 1 2 16; do
    for i in $(seq 10); do
      timeout 60 .carry/$v/warplab emu /tmp/fo.ptx --kernel $k --grid 64 --block 64 \
        --threads $t --json --arg f32buf:4096:zero --arg i32:4096 --arg i32:20000 |
        python3 -c '
import json, sys
d = json.load(sys.stdin)
print(d["metrics"]["smsp__inst_executed.sum"]["value"], (d.get("printf") or "").count("\n"),
      d["fault"]["block"][0])'
    done | sort | uniq -c | awk -v v=$v -v k=$k -v t=$t \
      '{printf "%s %s threads %s: %s runs: %s warp-instructions, %s lines, block %s\n", v, k, t, $1, $2, $3, $4}'
  done; done; done
}

"$@"
