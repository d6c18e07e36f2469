#!/bin/bash
# device_r18.sh: how device_r18.txt was made (issue 19, round 18), run from the repository
# root on the device with builds under .carry/NAME/warplab (base: df9bd4c, round 17's last;
# new: this round's) and their shared libraries in .carry.
#   series N NAME...  N turns; in each, every build runs saxpy4 (bench/kernels/mem_mixed.cu:
#                     float4 saxpy of $N4 float4s, default 1M, grid 512 x 256) and nbody
#                     (smem_tiles.cu: 2048 bodies, grid 8 x 256) on 1 and on 2 workers, cores
#                     2,3; raw lines "NAME kernel workers run_s cpu_s" to $OUT/sx.txt, then
#                     device_r10.sh's summary of them (min and median launches, a turn's
#                     speedup)
set -u
export LD_LIBRARY_PATH=$PWD/.carry PATH=/usr/local/cuda/bin:$PATH
n4=${N4:-1048576}

series() {
  local rounds=$1 v t k a r ptx
  shift
  nvcc -arch=sm_90 -ptx -lineinfo bench/kernels/mem_mixed.cu -o /tmp/mm.ptx || return 1
  nvcc -arch=sm_90 -ptx -lineinfo bench/kernels/smem_tiles.cu -o /tmp/st.ptx || return 1
  for _ in $(seq "$rounds"); do
    for v in "$@"; do for t in 1 2; do for k in saxpy4 nbody; do
      if [ $k = saxpy4 ]; then
        ptx=/tmp/mm.ptx g=512
        a=(--arg i32:$n4 --arg f32:1.5 --arg f32buf:$((4 * n4)):rand:1
           --arg f32buf:$((4 * n4)):rand:2)
      else
        ptx=/tmp/st.ptx g=8
        a=(--arg f32buf:8192:rand:3 --arg f32buf:8192:zero --arg i32:2048)
      fi
      r=$(timeout 60 taskset -c 2,3 .carry/$v/warplab emu $ptx --kernel $k --grid $g \
            --block 256 --threads $t --json "${a[@]}" | tr -d '\n' |
          grep -o '"\(run_seconds\|cpu_seconds\)": [0-9.e-]*' | awk '{printf "%s ", $2}')
      echo "$v $k $t $r" >> "$OUT/sx.txt"
    done; done; done
  done
  bash bench/results/device_r10.sh summary "$OUT/sx.txt"
}

"$@"
