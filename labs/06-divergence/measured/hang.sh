#!/bin/bash
# hang.sh OUTDIR [PART...]: a kernel that hangs the GPU, in a lab run, a grade and a batch, what
# h200-hang-*.txt in this folder hold (run from the repository root; WARPLAB names the binary,
# default bin/warplab). PARTs: run grade emu after batch (default: all, in that order). Each
# command under WARPLAB_GPU_TIMEOUT=5 and a kill as a last resort.
export PATH=/usr/local/cuda/bin:$PATH
W=$(realpath ${WARPLAB:-bin/warplab})
O=${1:?usage: hang.sh OUTDIR}; mkdir -p "$O"; O=$(realpath "$O")
H=tests/e2e/lab06/hang.cu
shift; P=" ${*:-run grade emu after batch} "
export WARPLAB_GPU_TIMEOUT=5
E="WARPLAB_GPU_TIMEOUT=5${WARPLAB_SANDBOX:+ WARPLAB_SANDBOX=$WARPLAB_SANDBOX}"
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; nvcc --version | tail -2; } > $O/gpu.txt 2>&1
now() { date +%s%N; }
took() { local ms=$(( ($(now) - $2) / 1000000 )); echo "rc=$1 after $((ms / 1000)).$(printf %03d $((ms % 1000))) s"; }
# a lab run: the hang is the first check's result, the rest not run, result.json written
[[ $P == *" run "* ]] && t=$(now) && { echo "== WARPLAB_GPU_TIMEOUT=5 warplab run 06 --backend gpu --kernel-file $H --quick --plain"
  timeout -s KILL 30 $W run 06 --backend gpu --kernel-file $H --quick --plain --results $O/run; took $? $t; } > $O/h200-hang-run.txt 2>&1
[[ $P == *" run "* ]] && cp $O/run/06-divergence/*/result.json $O/h200-hang-run.json
# a grade of a submission whose evenodd.cu is hang.cu: the reference solution runs after it
[[ $P == *" grade "* ]] && mkdir -p $O/sub && cp $H $O/sub/evenodd.cu && t=$(now) && { echo "== $E warplab grade 06 SUB --backend gpu (SUB/evenodd.cu is $H)"
  timeout -s KILL 60 $W grade 06 $O/sub --backend gpu --out $O/grade; took $? $t; } > $O/h200-hang-grade.txt 2>&1
[[ $P == *" grade "* ]] && cp $O/grade/06-divergence/*-student/results.json $O/h200-hang-grade.json
# warplab emu on one hanging kernel: the launch's result, then the process ends by itself
[[ $P == *" emu "* ]] && t=$(now) && { echo "== WARPLAB_GPU_TIMEOUT=5 warplab emu labs/06-divergence/spinlock.cu --kernel take_turns_sync ... --backend gpu"
  timeout -s KILL 20 $W emu labs/06-divergence/spinlock.cu --kernel take_turns_sync --grid 1 --block 32 \
    --arg i32buf:32:fill=-1 --dump 0=$O/o.bin --backend gpu; took $? $t; ls $O/o.bin 2>&1; } > $O/h200-hang-emu.txt 2>&1
# the next command finds the GPU free; the solution's time with the polled wait
[[ $P == *" after "* ]] && t=$(now) && { echo "== warplab run 06 --solution --backend gpu --quick --no-ncu --plain"
  timeout -s KILL 40 $W run 06 --solution --backend gpu --quick --no-ncu --plain --results $O/sol; took $? $t; } > $O/h200-after-hang.txt 2>&1
# a batch of two: ann hands in hang.cu, ben the solution
[[ $P == *" batch "* ]] && mkdir -p $O/class/ann $O/class/ben && cp $H $O/class/ann/evenodd.cu &&
  cp solutions/06-divergence/evenodd.cu $O/class/ben/ && t=$(now) && { echo "== $E warplab batch 06 CLASS --out OUT -j 1 --backend gpu (ann: hang.cu, ben: the solution)"
  timeout -s KILL 70 $W batch 06 $O/class --out $O/batch -j 1 --backend gpu; took $? $t
  for s in ann ben; do echo "-- $s/results.json"; head -c 1500 $O/batch/$s/results.json; echo; done
  echo "-- gradebook.csv"; cat $O/batch/gradebook.csv; } > $O/h200-hang-batch.txt 2>&1
rm -rf $O/o.bin $O/sub $O/class
