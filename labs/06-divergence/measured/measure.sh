#!/bin/bash
# measure.sh OUTDIR: lab 06 on a GPU, what labs/06-divergence/measured holds (run from the
# repository root; WARPLAB names the binary, default bin/warplab). Hanging kernels last, each under
# WARPLAB_GPU_TIMEOUT=5 and a kill after 30 s.
export PATH=/usr/local/cuda/bin:$PATH
W=$(realpath ${WARPLAB:-bin/warplab})
O=${1:?usage: measure.sh OUTDIR}; mkdir -p "$O"; O=$(realpath "$O")
L=labs/06-divergence
S=solutions/06-divergence
A=--arg
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; nvcc --version | tail -2; ncu --version | tail -1; } > $O/gpu.txt 2>&1
t0=$(date +%s)
$W run 06 --solution --backend gpu --plain --results $O/sol > $O/h200-solution.txt 2>&1; echo "rc=$? $(( $(date +%s) - t0 )) s" >> $O/h200-solution.txt
$W run 06 --backend gpu --quick --plain --results $O/st > $O/h200-starter.txt 2>&1; echo "rc=$?" >> $O/h200-starter.txt
# the order of divergent paths, c = 0..31, as given and reversed
for r in 0 1; do
  $W emu $L/chain.cu --kernel chain --grid 1 --block 32 $A i32buf:32:iota $A i32buf:32:zero $A i32buf:1:zero $A i32:$r --dump 1=$O/o.bin --backend gpu > $O/chain-$r.txt 2>&1; echo "rc=$?" >> $O/chain-$r.txt
  od -v -A n -t d4 -w128 $O/o.bin >> $O/chain-$r.txt
done
ncu --metrics smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_average_branch_targets_threads_uniform.pct,smsp__thread_inst_executed_per_inst_executed.ratio $W emu $L/chain.cu --kernel chain --grid 1 --block 32 $A i32buf:32:iota $A i32buf:32:zero $A i32buf:1:zero $A i32:0 --backend gpu > $O/chain-ncu.txt 2>&1
for f in $L/chain.cu $L/spinlock.cu $L/barriers.cu $S/evenodd.cu; do
  b=$(basename $f .cu); $W emu $f --kernel x --grid 1 --block 32 --keep-ptx $O/$b.ptx >/dev/null 2>&1
  ptxas -arch=sm_90 $O/$b.ptx -o $O/$b.cubin && cuobjdump -sass $O/$b.cubin > $O/$b.sass 2>&1; rm -f $O/$b.cubin
done
run1() { # name, then warplab emu arguments
  local n=$1; shift
  { echo "== $n: warplab emu $*"; WARPLAB_GPU_TIMEOUT=5 timeout -s KILL 30 $W emu "$@" --backend gpu; echo "rc=$?"; } >> $O/h200-sync.txt 2>&1
}
for d in $L $S; do
  run1 "$d take_turns" $d/spinlock.cu --kernel take_turns --grid 1 --block 32 $A i32buf:32:fill=-1 --dump 0=$O/o.bin; od -v -A n -t d4 -w128 $O/o.bin >> $O/h200-sync.txt
  run1 "$d append" $d/spinlock.cu --kernel append --grid 2 --block 64 $A i32buf:1:zero $A i32buf:128:fill=-1 $A i32buf:1:zero --dump 2=$O/o.bin; od -v -A n -t d4 $O/o.bin >> $O/h200-sync.txt
  run1 "$d halves" $d/barriers.cu --kernel halves --grid 1 --block 32 $A i32buf:32:fill=-1 --dump 0=$O/o.bin; od -v -A n -t d4 -w128 $O/o.bin >> $O/h200-sync.txt
done
run1 "$L halves under synccheck" $L/barriers.cu --kernel halves --grid 1 --block 32 $A i32buf:32:fill=-1 --sanitize synccheck
run1 "$S take_turns_sync" $S/spinlock.cu --kernel take_turns_sync --grid 1 --block 32 $A i32buf:32:fill=-1 --dump 0=$O/o.bin; od -v -A n -t d4 -w128 $O/o.bin >> $O/h200-sync.txt
run1 "$S handoff" $S/barriers.cu --kernel handoff --grid 1 --block 64 $A i32buf:32:fill=-1
# may hang
run1 "$L take_turns_sync" $L/spinlock.cu --kernel take_turns_sync --grid 1 --block 32 $A i32buf:32:fill=-1 --dump 0=$O/o.bin; od -v -A n -t d4 -w128 $O/o.bin >> $O/h200-sync.txt
run1 "$L handoff" $L/barriers.cu --kernel handoff --grid 1 --block 64 $A i32buf:32:fill=-1
{ echo "== WARPLAB_GPU_TIMEOUT=5 warplab run 06 --backend gpu --quick --kernel-file tests/e2e/lab06/hang.cu"; t1=$(date +%s); WARPLAB_GPU_TIMEOUT=5 timeout -s KILL 60 $W run 06 --backend gpu --quick --plain --results $O/hang --kernel-file tests/e2e/lab06/hang.cu; echo "rc=$? after $(( $(date +%s) - t1 )) s"; } > $O/h200-hang.txt 2>&1
rm -f $O/o.bin
echo "total $(( $(date +%s) - t0 )) s" >> $O/gpu.txt
