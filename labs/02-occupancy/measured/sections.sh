#!/bin/bash
# sections.sh: lab 02's starter, and the solution at 32- and 256-thread blocks, under Nsight
# Compute's warp-state, memory, scheduler, launch, occupancy and speed-of-light sections, as
# raw CSV into $OUT. Run from the repository root on a machine with a GPU and ncu.
set -u
W=${WARPLAB:-bin/warplab}
S="--section WarpStateStats --section MemoryWorkloadAnalysis_Tables --section SchedulerStats --section LaunchStats --section Occupancy --section SpeedOfLight"
run() {  # name file n block
  local g=$(( ($3 + $4 - 1) / $4 ))
  ncu $S --csv --print-units base "$W" emu "$2" --backend gpu --kernel median9 --grid $g --block $4 \
    --arg f32buf:$3:rand:1 --arg f32buf:$3:zero --arg i32:$3 > $OUT/$1.csv 2> $OUT/$1.err
  echo "$1: rc $? $(wc -l < $OUT/$1.csv) lines"
}
run starter-emu-size labs/02-occupancy/median.cu 540672 32
run starter-gpu-size labs/02-occupancy/median.cu 69206016 32
run solution32-gpu-size solutions/02-occupancy/median.cu 69206016 32
run solution256-gpu-size solutions/02-occupancy/median.cu 69206016 256
