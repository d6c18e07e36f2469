#!/usr/bin/env bash
# emu_callgrind.sh: host instructions per warp-instruction of the emulator, counted by
# callgrind on one worker thread, for an arithmetic loop of fma, one of the rest of what
# kernels compute (division, square root, integer division by a value, floorf, compares,
# conversions, a double), two of the math library (its accurate functions, and the fast
# intrinsics of --use_fast_math), one of half precision (f16x2 fmas and products, summed in
# float), an integer hash (popc, clz), a warp's butterfly sum (__shfl_xor_sync), warp votes
# (__ballot_sync, __any_sync), an fma loop whose even and odd lanes diverge each iteration,
# a streaming memory kernel (of floats, and of float4), one of
# bytes (RGBA pixels to grey), two of global atomics (a histogram's bins, a sum every thread
# adds to), a shared-memory kernel with a barrier each iteration, and five shared-memory
# patterns of real kernels: a tiled matrix multiply, a histogram of shared bins, a stencil,
# an n-body step's tiles of float4, lanes trading values with __syncwarp() (bench/kernels).
# The warp-instructions are the PTX warp-instructions the interpreter ran
# (smsp__inst_executed.sum's ptx_value).
# A script that prints figures, never a test.
# Skipped (with a note) when valgrind is not installed.
#
# Each kernel runs at two work sizes, W1 and W2 = 4 x W1 (loop count or element count).
# Five figures per kernel, all host instructions (callgrind Ir) per warp-instruction:
#   whole:    the whole process at W2 (PTX parsing, input generation, checks, JSON included);
#   launch:   the launch alone at W2 (Ir inclusive of the worker entry, worker_main);
#   marginal: (launch Ir at W2 - launch Ir at W1) / (warp-insts at W2 - at W1), the cost of
#             one more warp-instruction with every per-launch and per-block cost taken out;
#   timing:   the same for the timing model (tm_model, after the workers, on the blocks SM 0
#             runs, ceil(blocks / SMs): one block of these grids of 8 to 16, about 500 host
#             instructions for each instruction it steps through, over 8 to 16 times as
#             many; a loop without global memory is stepped through until it repeats, then
#             its repeats are skipped: harness/timing/README.md);
#   total:    marginal + timing, what one more warp-instruction costs a run here.
# The targets of issue 19 are stated per warp-instruction; `total` is the honest figure for
# them here, `marginal` the interpreter's own.
#
#   bash bench/emu_callgrind.sh [NAME...]   (default: every row; NAMEs: the rows' first column)
set -euo pipefail

cd "$(dirname "$0")/.."
warplab=${WARPLAB:-bin/warplab}
[ -x "$warplab" ] || { echo "callgrind: $warplab is not built (run: make)" >&2; exit 1; }
command -v valgrind >/dev/null 2>&1 || { echo "callgrind: valgrind not installed, skipped"; exit 0; }
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for k in alu_loop alu_mix alu_math alu_half alu_bits alu_diverge mem_mixed mem_bytes smem_bar \
         smem_tiles smem_banks; do
  nvcc -arch=sm_90 -ptx -lineinfo "bench/kernels/$k.cu" -o "$tmp/$k.ptx"
done

# name | ptx | kernel | grid | block | args at W1 | args at W2
cases=(
  "alu_loop|alu_loop|alu_loop|8|256|f32buf:2048:zero i32:50|f32buf:2048:zero i32:200"
  "alu_mix|alu_mix|alu_mix|8|256|f32buf:2048:zero i32:50 i32:37|f32buf:2048:zero i32:200 i32:37"
  "math|alu_math|alu_math|8|256|f32buf:2048:zero i32:10|f32buf:2048:zero i32:40"
  "fastmath|alu_math|alu_fastmath|8|256|f32buf:2048:zero i32:10|f32buf:2048:zero i32:40"
  "half2|alu_half|alu_half2|8|256|f32buf:2048:zero i32:50|f32buf:2048:zero i32:200"
  "bits|alu_bits|alu_hash|8|256|u32buf:2048:zero i32:50|u32buf:2048:zero i32:200"
  "xorshfl|alu_bits|alu_xorshfl|8|256|f32buf:2048:rand f32buf:2048:zero i32:50|f32buf:2048:rand f32buf:2048:zero i32:200"
  "ballot|alu_bits|alu_ballot|8|256|u32buf:2048:zero i32:50|u32buf:2048:zero i32:200"
  "diverge|alu_diverge|alu_diverge|8|256|f32buf:2048:zero i32:50|f32buf:2048:zero i32:200"
  "saxpy|mem_mixed|saxpy|16|256|i32:65536 f32:1.5 f32buf:65536:rand:1 f32buf:65536:rand:2|i32:262144 f32:1.5 f32buf:262144:rand:1 f32buf:262144:rand:2"
  "saxpy4|mem_mixed|saxpy4|16|256|i32:16384 f32:1.5 f32buf:65536:rand:1 f32buf:65536:rand:2|i32:65536 f32:1.5 f32buf:262144:rand:1 f32buf:262144:rand:2"
  "histo_g|mem_mixed|histo_global|16|256|u32buf:65536:rand u32buf:256:zero i32:65536|u32buf:262144:rand u32buf:256:zero i32:262144"
  "sum_g|mem_mixed|sum_global|16|256|f32buf:65536:rand f32buf:1:zero i32:65536|f32buf:262144:rand f32buf:1:zero i32:262144"
  "bytes|mem_bytes|rgba_grey|16|256|u32buf:65536:rand u8buf:65536:zero i32:65536|u32buf:262144:rand u8buf:262144:zero i32:262144"
  "smem_bar|smem_bar|smem_bar|8|256|f32buf:2048:zero i32:12|f32buf:2048:zero i32:50"
  "matmul|smem_tiles|matmul_tiled|4,4|16,16|f32buf:4096:rand f32buf:4096:rand f32buf:4096:zero i32:64|f32buf:65536:rand f32buf:65536:rand f32buf:65536:zero i32:256"
  "histogram|smem_tiles|histo_smem|8|256|u32buf:65536:rand u32buf:256:zero i32:65536|u32buf:262144:rand u32buf:256:zero i32:262144"
  "stencil7|smem_tiles|stencil7|16|256|f32buf:16384:rand f32buf:16384:zero i32:16384|f32buf:65536:rand f32buf:65536:zero i32:65536"
  "nbody|smem_tiles|nbody|8|256|f32buf:8192:rand f32buf:8192:zero i32:512|f32buf:8192:rand f32buf:8192:zero i32:2048"
  "warp_swap|smem_tiles|warp_swap|8|256|f32buf:2048:zero i32:50|f32buf:2048:zero i32:200"
  "banks|smem_banks|bank_column|8|256|f32buf:2048:zero i32:20|f32buf:2048:zero i32:80"
  "tile4|smem_banks|tile4|8|256|f32buf:2048:zero i32:12|f32buf:2048:zero i32:50"
)

# One callgrind run: prints "warp-insts whole-Ir launch-Ir timing-Ir".
measure() { # tag ptx kernel grid block args
  local args=() a out wi ir lir
  for a in $6; do args+=(--arg "$a"); done
  out=$(valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$1" "$warplab" emu \
        "$tmp/$2.ptx" --kernel "$3" --grid "$4" --block "$5" --threads 1 \
        --json "${args[@]}" 2>"$tmp/err.$1") || { echo "callgrind: $1 failed" >&2; cat "$tmp/err.$1" >&2; return 1; }
  # the PTX warp-instructions the interpreter ran (ptx_value: smsp__inst_executed.sum itself
  # counts ptxas's machine code where nvdisasm is installed, which is not the work done here)
  wi=$(printf '%s' "$out" | tr -d '\n' |
       sed -n 's/.*"smsp__inst_executed\.sum": *{[^}]*"ptx_value": *\([0-9][0-9]*\).*/\1/p')
  [ -n "$wi" ] ||
    wi=$(printf '%s' "$out" | tr -d '\n' | sed -n 's/.*"smsp__inst_executed\.sum"[^0-9]*\([0-9][0-9]*\).*/\1/p')
  ir=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$tmp/cg.$1")
  [ -n "$ir" ] || ir=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$tmp/cg.$1")
  local ann
  ann=$(callgrind_annotate --inclusive=yes --threshold=100 "$tmp/cg.$1" 2>/dev/null)
  lir=$(printf '%s\n' "$ann" | sed -n 's/^ *\([0-9,]*\) .*worker_main.*/\1/p' | head -n 1 | tr -d ,)
  tir=$(printf '%s\n' "$ann" | sed -n 's/^ *\([0-9,]*\) .*:tm_model .*/\1/p' | head -n 1 | tr -d ,)
  echo "${wi:-0} ${ir:-0} ${lir:-0} ${tir:-0}"
}

printf '%-10s %12s %8s %8s %9s %7s %6s\n' kernel warp-insts whole launch marginal timing total
for c in "${cases[@]}"; do
  IFS='|' read -r name ptx kernel grid block args1 args2 <<< "$c"
  if [ $# -gt 0 ] && [[ " $* " != *" $name "* ]]; then continue; fi
  read -r w1 _ l1 t1 <<< "$(measure "$name.1" "$ptx" "$kernel" "$grid" "$block" "$args1")"
  read -r w2 i2 l2 t2 <<< "$(measure "$name.2" "$ptx" "$kernel" "$grid" "$block" "$args2")"
  awk -v n="$name" -v w1="$w1" -v w2="$w2" -v i2="$i2" -v l1="$l1" -v l2="$l2" -v t1="$t1" \
      -v t2="$t2" 'BEGIN {
    m = (w2 > w1 ? (l2 - l1) / (w2 - w1) : 0); t = (w2 > w1 ? (t2 - t1) / (w2 - w1) : 0)
    printf "%-10s %12d %8.0f %8.0f %9.0f %7.0f %6.0f\n", n, w2, (w2 > 0 ? i2 / w2 : 0),
           (w2 > 0 ? l2 / w2 : 0), m, t, m + t }'
  [ -z "${CALLGRIND_KEEP:-}" ] || cp "$tmp/cg.$name.2" "$CALLGRIND_KEEP.$name"
done
echo "host instructions (callgrind Ir) per PTX warp-instruction run (smsp__inst_executed.sum's ptx_value), one"
echo "worker thread. whole: the whole process; launch: the launch alone (worker_main);"
echo "marginal: launch Ir per extra warp-instruction between two work sizes (W2 = 4 x W1);"
echo "timing: the timing model's (tm_model) the same way; total: marginal + timing."
