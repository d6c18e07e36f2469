#!/bin/bash
# device_r11.sh: how device_r11.txt and tests/gpu/results/proof_h200_r11.txt were made (issue
# 19, round 11), run from the repository root on the device with builds under
# .carry/NAME/warplab (base: f4a9bf4, new: this round's) and their shared libraries in .carry.
#   gpu     the new build's `warplab run 07 --backend gpu` and tests/gpu/prove.sh, to $OUT
#   series  device_r10.sh's series, 12 then 50 turns, base and new, cores 2,3
#   bench   device_r10.sh's bench: emu_bench.sh's throughput part, base and new in turns
set -u
export LD_LIBRARY_PATH=$PWD/.carry PATH=/usr/local/cuda/bin:$PATH

gpu() {
  mkdir -p bin && cp .carry/new/* bin/
  timeout 120 bin/warplab run 07 --solution --backend gpu --plain --results /tmp/r \
    > "$OUT/gpu.txt" 2>&1
  echo "run 07 gpu rc=$?" >> "$OUT/gpu.txt"
  timeout 300 bash tests/gpu/prove.sh "$PWD/bin/warplab" /tmp/prove > "$OUT/prove.log" 2>&1
  echo "prove rc=$?" >> "$OUT/gpu.txt"
  cp /tmp/prove/proof.txt "$OUT/proof.txt"
}

series() {
  timeout 100 bash bench/results/device_r10.sh series 12 base new
  rm -f "$OUT/sx.txt"
  timeout 200 bash bench/results/device_r10.sh series 50 base new
}

bench() {
  timeout 330 bash bench/results/device_r10.sh bench
}

lscpu | grep -E "Model name|^CPU\(s\)"
"$@"
