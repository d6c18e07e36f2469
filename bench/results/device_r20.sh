#!/bin/bash
# device_r20.sh: how device_r20.txt was made (issue 19, round 20: the integer adds a worker
# holds back), run from the repository root on the device with builds under
# .carry/NAME/warplab (base: 0c850b6, round 19's last; new: this round's) and their shared
# libraries in .carry.
#   series N NAME...  N turns; in each, every build runs on 1 and on 2 workers, cores 2,3:
#                     histo_g (bench/kernels/mem_mixed.cu: 256 bins by global atomics, 4M
#                     elements, grid 512 x 256), histo_w (the same on 65536 bins: more words
#                     than a worker's buffer has slots), count_g (4M floats, the positive
#                     ones counted into one u32 by atomicAdd) and saxpy4 (1M float4s, grid
#                     512 x 256), or the kernels KERNELS names (sum_g: every element of 4M
#                     added into one float by atomicAdd, bench/kernels/mem_mixed.cu, grid
#                     512 x 256; rowsum: a row of 1024 floats a thread, 4096 rows, grid
#                     16 x 256); raw lines "NAME kernel workers run_s cpu_s model_s
#                     wall_s" to $OUT/sx.txt (run: the launch; model: the timing model after
#                     it; wall: the whole process), then the summary of them
#   bins NAME...      the bins of histo_g and histo_w (after series, which compiles them) on
#                     1, 2, 8 and 16 workers, each build: a hash of their bytes a line, to
#                     $OUT/bins.txt (integer adds commute: every line of a kernel the same)
set -u
cores=${CORES:-2,3}              # the two cores (CORES=0,1 where there are only two)
export LD_LIBRARY_PATH=$PWD/.carry PATH=/usr/local/cuda/bin:$PATH

series() {
  local rounds=$1 v t k ptx g a r t0 t1
  shift
  nvcc -arch=sm_90 -ptx -lineinfo bench/kernels/mem_mixed.cu -o /tmp/mm.ptx || return 1
  cat > /tmp/rs.cu <<'CU'
extern "C" __global__ void rowsum(const float *in, float *out, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float s = 0.0f;
    for (int c = 0; c < cols; c++) s += in[(size_t)r * cols + c];
    out[r] = s;
}
CU
  nvcc -arch=sm_90 -ptx -lineinfo /tmp/rs.cu -o /tmp/rs.ptx || return 1
  cat > /tmp/hw.cu <<'CU'
extern "C" __global__ void histo_wide(const unsigned *in, unsigned *bins, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&bins[in[i] & 65535u], 1u);
}
extern "C" __global__ void count_pos(const float *in, unsigned *n, int len)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < len; i += gridDim.x * blockDim.x)
        atomicAdd(n, in[i] > 0.5f);
}
CU
  nvcc -arch=sm_90 -ptx -lineinfo /tmp/hw.cu -o /tmp/hw.ptx || return 1
  for _ in $(seq "$rounds"); do
    for v in "$@"; do for t in 1 2; do for k in ${KERNELS:-histo_g histo_w count_g saxpy4}; do
      case $k in
        histo_g) ptx=/tmp/mm.ptx g=512 kn=histo_global
                 a=(--arg u32buf:4194304:rand --arg u32buf:256:zero --arg i32:4194304) ;;
        histo_w) ptx=/tmp/hw.ptx g=512 kn=histo_wide
                 a=(--arg u32buf:4194304:rand --arg u32buf:65536:zero --arg i32:4194304) ;;
        count_g) ptx=/tmp/hw.ptx g=512 kn=count_pos
                 a=(--arg f32buf:4194304:rand --arg u32buf:1:zero --arg i32:4194304) ;;
        rowsum)  ptx=/tmp/rs.ptx g=16 kn=rowsum
                 a=(--arg f32buf:4194304:rand --arg f32buf:4096:zero --arg i32:4096 --arg i32:1024) ;;
        sum_g)   ptx=/tmp/mm.ptx g=512 kn=sum_global
                 a=(--arg f32buf:4194304:rand --arg f32buf:1:zero --arg i32:4194304) ;;
        saxpy4)  ptx=/tmp/mm.ptx g=512 kn=saxpy4
                 a=(--arg i32:1048576 --arg f32:1.5 --arg f32buf:4194304:rand:1
                    --arg f32buf:4194304:rand:2) ;;
      esac
      t0=$(date +%s.%N)
      r=$(timeout 60 taskset -c "$cores" .carry/$v/warplab emu $ptx --kernel $kn --grid $g \
            --block 256 --threads $t --json "${a[@]}" | tr -d '\n' |
          grep -o '"\(run_seconds\|cpu_seconds\|model_seconds\)": [0-9.e-]*' |
          awk '{printf "%s ", $2}')
      t1=$(date +%s.%N)
      echo "$v $k $t $r $(echo "$t0 $t1" | awk '{printf "%.4f", $2 - $1}')" >> "$OUT/sx.txt"
    done; done; done
  done
  summary "$OUT/sx.txt"
}

bins() {
  local v t k p kn nb
  for v in "$@"; do for t in 1 2 8 16; do for k in histo_g histo_w; do
    case $k in
      histo_g) p=/tmp/mm.ptx kn=histo_global nb=256 ;;
      histo_w) p=/tmp/hw.ptx kn=histo_wide nb=65536 ;;
    esac
    timeout 60 .carry/$v/warplab emu $p --kernel $kn --grid 512 --block 256 --threads $t \
      --arg u32buf:4194304:rand --arg u32buf:$nb:zero --arg i32:4194304 --dump 1=/tmp/bins \
      > /dev/null || echo "$v $k $t: exit $?" >> "$OUT/bins.txt"
    echo "$v $k $t workers: $(md5sum < /tmp/bins | cut -c1-16)" >> "$OUT/bins.txt"
  done; done; done
  cat "$OUT/bins.txt"
}

# Per build, kernel and workers: the medians of the launch, the model and the whole process;
# then against base, the median over the turns of the ratio of a turn's figures, and the
# median of a turn's speedup of the launch on 2 workers.
summary() {
  python3 - "$1" <<'PY'
import sys, statistics as st
seq = {}
for line in open(sys.argv[1]):
    p = line.split()
    if len(p) >= 7:
        seq.setdefault((p[0], p[1], p[2]), []).append(tuple(float(x) for x in p[3:7]))
names = sorted({k[0] for k in seq}); kernels = sorted({k[1] for k in seq})
med = lambda v, k, t, i: st.median([x[i] for x in seq[(v, k, t)]])
for k in kernels:
    for v in names:
        for t in '12':
            print(f"{v:5s} {k:8s} {t} worker{'s' if t == '2' else ' '} n={len(seq[(v, k, t)])}: launch "
                  f"{med(v, k, t, 0)*1e3:7.2f} ms, model {med(v, k, t, 2)*1e3:7.2f} ms, process "
                  f"{med(v, k, t, 3)*1e3:7.1f} ms (medians)")
    for v in names:
        if v == 'base':
            continue
        ratio = lambda t, i: st.median([y[i] / x[i] for x, y in zip(seq[('base', k, t)], seq[(v, k, t)]) if x[i] > 0])
        sp = lambda w: st.median([x[0] / y[0] for x, y in zip(seq[(w, k, '1')], seq[(w, k, '2')])])
        print(f"  {k} {v} / base, median of a turn's ratio: launch {ratio('1', 0):.3f} (1 worker), "
              f"{ratio('2', 0):.3f} (2); model {ratio('1', 2):.3f}; process {ratio('1', 3):.3f}; "
              f"2-worker launch speedup, median of a turn's: {sp(v):.2f} (base {sp('base'):.2f})")
PY
}

"$@"
