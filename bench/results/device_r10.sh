#!/bin/bash
# device_r10.sh: how device_r10.txt was made (issue 19, round 10), run from the repository
# root on the device with builds under .carry/NAME/warplab (and their shared libraries in
# .carry). Two steps:
#   series N NAME...   N turns; in each, every build runs saxpy and reduce of
#                      bench/kernels/mem_mixed.cu (emu_bench.sh's sizes) on 1 and on 2
#                      workers, cores 2,3; raw lines "NAME kernel workers run_s cpu_s" to
#                      $OUT/sx.txt; then `summary $OUT/sx.txt`
#   bench              emu_bench.sh's throughput part, base and new in turns, three rounds
#                      (BENCH_REPS=9), then BENCH_SCALE=4 once each
set -u
export LD_LIBRARY_PATH=$PWD/.carry
n=4194304

series() {
  local rounds=$1 v t k a r
  shift
  nvcc -arch=sm_90 -ptx -lineinfo bench/kernels/mem_mixed.cu -o /tmp/mm.ptx || return 1
  for _ in $(seq "$rounds"); do
    for v in "$@"; do for t in 1 2; do for k in saxpy reduce; do
      if [ $k = saxpy ]; then
        a=(--arg i32:$n --arg f32:1.5 --arg f32buf:$n:rand:1 --arg f32buf:$n:rand:2)
      else
        a=(--arg f32buf:$n:rand:3 --arg f32buf:512:zero --arg i32:$n)
      fi
      r=$(timeout 20 taskset -c 2,3 .carry/$v/warplab emu /tmp/mm.ptx --kernel $k --grid 512 \
            --block 256 --threads $t --json "${a[@]}" | tr -d '\n' |
          grep -o '"\(run_seconds\|cpu_seconds\)": [0-9.e-]*' | awk '{printf "%s ", $2}')
      echo "$v $k $t $r" >> "$OUT/sx.txt"
    done; done; done
  done
  summary "$OUT/sx.txt"
}

# Per build and kernel: min and median launch on 1 and 2 workers, CPU over one worker's;
# then against the build named base, the median over the turns of the ratio of a turn's
# launches (1 and 2 workers), and the median of a turn's speedup.
summary() {
  python3 - "$1" <<'PY'
import sys, statistics as st
seq = {}
for line in open(sys.argv[1]):
    p = line.split()
    if len(p) >= 5:
        seq.setdefault((p[0], p[1], p[2]), []).append((float(p[3]), float(p[4])))
names = sorted({k[0] for k in seq}); kernels = sorted({k[1] for k in seq})
for k in kernels:
    for v in names:
        r1 = [x[0] for x in seq[(v, k, '1')]]; r2 = [x[0] for x in seq[(v, k, '2')]]
        c1 = [x[1] for x in seq[(v, k, '1')]]; c2 = [x[1] for x in seq[(v, k, '2')]]
        print(f"{v:6s} {k:7s} n={len(r1)} 1 worker min {min(r1)*1e3:6.2f} med {st.median(r1)*1e3:6.2f} ms"
              f" | 2 workers min {min(r2)*1e3:6.2f} med {st.median(r2)*1e3:6.2f} ms"
              f" | CPU 2/1 median {st.median(c2)/st.median(c1):.3f}")
    for v in names:
        if v == 'base':
            continue
        out = []
        for t in '12':
            a = [x[0] for x in seq[('base', k, t)]]; b = [x[0] for x in seq[(v, k, t)]]
            out.append(f"{t} worker{'s' if t == '2' else ''}: {st.median([y / x for x, y in zip(a, b)]):.3f}")
        sp = lambda w: st.median([x[0] / y[0] for x, y in zip(seq[(w, k, '1')], seq[(w, k, '2')])])
        print(f"  {k} {v} / base, median of a turn's launch ratio: {', '.join(out)};"
              f" a turn's speedup, median: {sp(v):.2f} (base {sp('base'):.2f})")
PY
}

bench() {
  local r b
  for r in 1 2 3; do for b in base new; do
    echo "-- $b round $r"
    WARPLAB=.carry/$b/warplab BENCH_PARTS=throughput BENCH_REPS=9 timeout 150 taskset -c 2,3 \
      bash bench/emu_bench.sh 2>&1 | sed -n '3,7p'
  done; done
  for b in base new; do
    echo "-- $b scale 4"
    WARPLAB=.carry/$b/warplab BENCH_SCALE=4 BENCH_PARTS=throughput BENCH_REPS=5 timeout 200 \
      taskset -c 2,3 bash bench/emu_bench.sh 2>&1 | sed -n '3,7p'
  done
}

"$@"
