#!/bin/bash
# starter_l2.sh: where lab 02's starter spends its L1 and L2, under Nsight Compute, at the
# emulator's size (n = 540,672, 32-thread blocks), into $OUT: every local-memory counter of
# the L1 (starter-local-metrics.txt), the L1's totals and its writes to the L2
# (starter-l1-metrics.txt), and the breakdown of the L1's and the L2's throughput for the
# starter and the solution (*-throughput-breakdown.txt). Run from the repository root on a
# machine with a GPU and ncu.
set -u
W=${WARPLAB:-bin/warplab}
n=540672
prof() {  # metrics output file block
  ncu --metrics "$1" --csv --print-units base "$W" emu "$3" --backend gpu --kernel median9 \
    --grid $(( (n + $4 - 1) / $4 )) --block "$4" \
    --arg f32buf:$n:rand:1 --arg f32buf:$n:zero --arg i32:$n 2>&1 | grep '^"' | \
    awk -F'","' '{print $(NF-2) " = " $NF}' | tr -d '"' > "$OUT/$2"
}
local=$(ncu --query-metrics --chip gh100 | awk '/^l1tex__/ {print $1}' | grep local | \
        grep -v -E 'rate|pct|ratio' | sed 's/$/.sum/' | tr '\n' ',' | sed 's/,$//')
prof "$local" starter-local-metrics.txt labs/02-occupancy/median.cu 32
prof "sm__cycles_elapsed.avg,l1tex__throughput.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__t_sectors.sum,l1tex__t_requests.sum,l1tex__m_xbar2l1tex_read_sectors.sum,l1tex__m_l1tex2xbar_write_sectors.sum,smsp__sass_inst_executed_op_local_ld.sum,smsp__sass_inst_executed_op_local_st.sum" \
  starter-l1-metrics.txt labs/02-occupancy/median.cu 32
B="breakdown:l1tex__throughput.avg.pct_of_peak_sustained_active,breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_op_write.sum,lts__t_sectors_op_read.sum,sm__cycles_elapsed.avg,gpu__time_duration.sum"
prof "$B" starter-throughput-breakdown.txt labs/02-occupancy/median.cu 32
prof "$B" solution256-throughput-breakdown.txt solutions/02-occupancy/median.cu 256
