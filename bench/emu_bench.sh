#!/usr/bin/env bash
# emu_bench.sh: `make bench`. Emulator throughput in warp-instructions per second on a
# fixed set of kernels, on one worker thread and on all cores. A script that prints
# figures, never a test: nothing here passes or fails on speed.
#
# The kernels (bench/kernels) are compiled to PTX once, before timing, so the figures
# are the emulator's alone (parsing included, nvcc excluded). The instruction count is
# warplab's own metric smsp__inst_executed.sum, read from --json; the time is the launch's
# own wall time as the emulator measures it (emulator.run_seconds: the grid, nothing else),
# with the whole process's wall time (inputs made, PTX parsed) beside it.
#
# Then the host instructions per warp-instruction under callgrind (bench/emu_callgrind.sh:
# the interpreter's, the timing model's, their sum), the wall time of three lab runs
# (bench/lab_times.sh), and the pipeline's figures
# (bench/pipeline_times.sh: every lab's run against one nvcc, cold and warm build cache, and
# a 30-student batch a lab projected to 300 students x 7 labs; its BENCH_LABS,
# BENCH_BATCH_LABS and BENCH_STUDENTS make it shorter).
#
#   BENCH_SCALE=N   multiply the work of every kernel by N (default 1)
#   BENCH_REPS=N    runs of each throughput figure, the best kept (default 5)
#   BENCH_PARTS="throughput callgrind labs pipeline"   the parts to run (default: all four)
set -euo pipefail

cd "$(dirname "$0")/.."
warplab=${WARPLAB:-bin/warplab}
scale=${BENCH_SCALE:-1}
reps=${BENCH_REPS:-5}
[ -x "$warplab" ] || { echo "bench: $warplab is not built (run: make)" >&2; exit 1; }
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
command -v nvcc >/dev/null 2>&1 || { echo "bench: nvcc not found: the benchmark kernels are .cu files" >&2; exit 1; }

parts=" ${BENCH_PARTS:-throughput callgrind labs pipeline} "
part() { [[ $parts == *" $1 "* ]]; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# name | ptx | kernel | grid | block | args...
n=$((4194304 * scale))
cases=(
  "alu_loop|alu_loop|alu_loop|64|256|f32buf:16384:zero i32:$((5000 * scale))"
  "bare_loop|bare_loop|bare_loop|64|256|u32buf:16384:zero i32:$((10000 * scale))"
  "saxpy|mem_mixed|saxpy|512|256|i32:$n f32:1.5 f32buf:$n:rand:1 f32buf:$n:rand:2"
  "reduce|mem_mixed|reduce|512|256|f32buf:$n:rand:3 f32buf:512:zero i32:$n"
  "histo_g|mem_mixed|histo_global|512|256|u32buf:$n:rand:4 u32buf:256:zero i32:$n"
)

# The integer after "key": in a JSON text (one level of nesting is enough here).
json_int() {
  tr -d '\n' | sed -n "s/.*\"$1\"[^0-9-]*\\(-\\{0,1\\}[0-9][0-9]*\\).*/\\1/p"
}
# The number (decimal or exponent form) after "key":.
json_num() {
  tr -d '\n' | sed -n "s/.*\"$1\": *\\([-0-9.eE+]*\\).*/\\1/p"
}

run_one() { # name ptx kernel grid block args threads -> "insts launch_s process_s threads"
  local args=() a
  for a in $6; do args+=(--arg "$a"); done
  local t0 t1 out
  t0=$(date +%s.%N)
  out=$("$warplab" emu "$tmp/$2.ptx" --kernel "$3" --grid "$4" --block "$5" --threads "$7" \
        --json "${args[@]}") || { echo "bench: $1 failed (--threads $7)" >&2; return 1; }
  t1=$(date +%s.%N)
  local insts threads launch model cpu
  insts=$(printf '%s' "$out" | json_int 'smsp__inst_executed\.sum')
  threads=$(printf '%s' "$out" | json_int 'threads')
  launch=$(printf '%s' "$out" | json_num 'run_seconds')
  model=$(printf '%s' "$out" | json_num 'model_seconds')
  cpu=$(printf '%s' "$out" | json_num 'cpu_seconds')
  echo "${insts:-0} ${launch:-0} $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }') ${threads:-?} ${model:-0} ${cpu:-0}"
}

# The shorter launch of two results.
shorter() {
  if [ -z "$2" ] || awk -v a="$(echo "$1" | cut -d' ' -f2)" -v b="$(echo "$2" | cut -d' ' -f2)" 'BEGIN { exit !(a < b) }'; then
    echo "$1"
  else
    echo "$2"
  fi
}

# N runs on one worker and N on all cores, taken in turns, so that both see the same minutes
# of a host whose per-core speed drifts; each the run with the shortest launch (other work on
# the machine only ever slows a run down). Prints the two results on two lines, then the
# median over the N turns of one turn's speedup (its one-worker launch over its all-cores
# launch): on a host whose speed drifts within minutes, the two best runs may come from
# different minutes, a turn's two runs from the same.
best_pair() {
  local n=$1 b1="" b0="" r r1 ratios=""
  shift
  for _ in $(seq "$n"); do
    r1=$(run_one "$@" 1) || return 1
    b1=$(shorter "$r1" "$b1")
    r=$(run_one "$@" 0) || return 1
    b0=$(shorter "$r" "$b0")
    ratios+="$(awk -v a="$(echo "$r1" | cut -d' ' -f2)" -v b="$(echo "$r" | cut -d' ' -f2)" \
               'BEGIN { printf "%.4f", (b > 0 ? a / b : 0) }') "
  done
  printf '%s\n%s\n%s\n' "$b1" "$b0" \
    "$(printf '%s\n' $ratios | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }')"
}

if part throughput; then
for k in alu_loop bare_loop mem_mixed; do
  nvcc -arch=sm_90 -ptx -lineinfo "bench/kernels/$k.cu" -o "$tmp/$k.ptx"
done
echo "warplab emulator throughput ($warplab, $(nproc) cores, BENCH_SCALE=$scale)"
printf '%-10s %12s | %22s | %22s | %s\n' "" "" "one worker thread" "all cores" ""
printf '%-10s %12s | %7s %7s %6s | %7s %7s %6s | %7s %6s %5s %5s %7s %s\n' kernel warp-insts launch_s Mwi/s proc_s launch_s Mwi/s proc_s speedup med_x cores work model_s threads
for c in "${cases[@]}"; do
  IFS='|' read -r name ptx kernel grid block args <<< "$c"
  pair=$(best_pair "$reps" "$name" "$ptx" "$kernel" "$grid" "$block" "$args")
  r1=$(echo "$pair" | sed -n 1p)
  r0=$(echo "$pair" | sed -n 2p)
  med=$(echo "$pair" | sed -n 3p)
  read -r i1 s1 p1 _ _ c1 <<< "$r1"
  read -r i0 s0 p0 th m0 c0 <<< "$r0"
  [ "$i1" = "$i0" ] || echo "bench: $name: instruction counts differ ($i1 vs $i0)" >&2
  awk -v n="$name" -v i="$i1" -v s1="$s1" -v s0="$s0" -v p1="$p1" -v p0="$p0" -v th="$th" -v m="$m0" \
      -v c1="$c1" -v c0="$c0" -v med="$med" 'BEGIN {
    printf "%-10s %12d | %8.3f %7.2f %6.2f | %8.3f %7.2f %6.2f | %6.2fx %5.2fx %5.2f %5.2f %7.3f %s\n", n, i,
           s1, (s1 > 0 ? i / s1 / 1e6 : 0), p1, s0, (s0 > 0 ? i / s0 / 1e6 : 0), p0,
           (s0 > 0 ? s1 / s0 : 0), med, (s0 > 0 ? c0 / s0 : 0), (c0 > 0 ? c1 / c0 : 0), m, th }'
done
echo "Mwi/s: millions of warp-instructions (smsp__inst_executed.sum) per second of the launch"
echo "(emulator.run_seconds); proc_s: the whole warplab process (inputs, parsing, launch);"
echo "speedup: the launch on one worker thread over the launch on all cores (threads), the"
echo "figure issue 19 asks >= 1.8 of with 2 threads on 2 idle cores (a loaded machine gives less);"
echo "med_x: the median over the turns of a turn's speedup (one-worker launch, then all cores:"
echo "on a host whose speed drifts, the two best runs may come from different minutes);"
echo "cores: the all-cores launch's worker CPU time over its wall time (emulator.cpu_seconds; 2.00"
echo "when each of 2 workers had a core to itself throughout, less when the host gave them less);"
echo "work: the one-worker launch's CPU time over the all-cores launch's (1.00 when the threads"
echo "together needed no more CPU time than one; less when they did, or their cores ran slower"
echo "side by side, as two threads of one physical core do); speedup is about cores x work;"
echo "model_s: the timing model replaying SM 0's recorded blocks (emulator.model_seconds)."
echo "Each figure but med_x is the best of $reps runs (BENCH_REPS), one worker and all cores in turns."
fi
if part callgrind; then
  echo
  bash bench/emu_callgrind.sh
fi
if part labs; then
  echo
  bash bench/lab_times.sh
fi
if part pipeline; then
  echo
  bash bench/pipeline_times.sh
fi
