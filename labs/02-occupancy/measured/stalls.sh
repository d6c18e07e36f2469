#!/bin/bash
# stalls.sh (run from the repository root on a machine with a GPU and ncu): lab 02's median9 solution under Nsight Compute at the configurations the timing
# model gets wrong or right (see labs/02-occupancy/measured/README.md), warp-state metrics
set -u
W=${WARPLAB:-bin/warplab}
n=69206016
M=gpu__time_duration.sum,sm__cycles_elapsed.avg,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,dram__bytes.sum
for s in selected not_selected long_scoreboard short_scoreboard wait math_pipe_throttle lg_throttle mio_throttle barrier branch_resolving; do
  M=$M,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio
done
run() {  # label grid block smem
  echo "== $1: grid $2, block $3, smem $4"
  ncu --metrics "$M" --csv --print-units base "$W" emu solutions/02-occupancy/median.cu --backend gpu \
    --kernel median9 --grid "$2" --block "$3" --smem "$4" \
    --arg f32buf:$n:rand:1 --arg f32buf:$n:zero --arg i32:$n 2>&1 | grep -E '^"' | \
    awk -F'","' '{print $(NF-2) " = " $NF}' | tr -d '"'
}
run "waves 132 (1 block of 8 warps a SM)" 132 256 232448
run "waves 133" 133 256 232448
run "resident warps 64 (128-thread blocks)" 540672 128 0
run "resident warps 4" 540672 128 232448
