#!/usr/bin/env bash
# emu_callgrind.sh: host instructions per warp-instruction of the emulator, counted by
# callgrind on one worker thread, for an arithmetic loop, a streaming memory kernel and a
# shared-memory kernel with a barrier each iteration (bench/kernels). The count is the
# whole process's (PTX parsing and inputs included, kept small by running enough
# warp-instructions); the warp-instructions are warplab's smsp__inst_executed.sum. A script
# that prints figures, never a test. Skipped (with a note) when valgrind is not installed.
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
for k in alu_loop mem_mixed smem_bar; do
  nvcc -arch=sm_90 -ptx -lineinfo "bench/kernels/$k.cu" -o "$tmp/$k.ptx"
done

# name | ptx | kernel | grid | block | args...
cases=(
  "alu_loop|alu_loop|alu_loop|8|256|f32buf:2048:zero i32:200"
  "saxpy|mem_mixed|saxpy|16|256|i32:262144 f32:1.5 f32buf:262144:rand:1 f32buf:262144:rand:2"
  "smem_bar|smem_bar|smem_bar|8|256|f32buf:2048:zero i32:50"
)
printf '%-10s %12s %14s %10s\n' kernel warp-insts host-insts per-w-inst
for c in "${cases[@]}"; do
  IFS='|' read -r name ptx kernel grid block argl <<< "$c"
  args=()
  for a in $argl; do args+=(--arg "$a"); done
  out=$(valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$name" "$warplab" emu \
        "$tmp/$ptx.ptx" --kernel "$kernel" --grid "$grid" --block "$block" --threads 1 \
        --json "${args[@]}" 2>"$tmp/err.$name") || { echo "callgrind: $name failed" >&2; cat "$tmp/err.$name" >&2; exit 1; }
  wi=$(printf '%s' "$out" | tr -d '\n' | sed -n 's/.*"smsp__inst_executed\.sum"[^0-9]*\([0-9][0-9]*\).*/\1/p')
  ir=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$tmp/cg.$name")
  [ -n "$ir" ] || ir=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$tmp/cg.$name")
  awk -v n="$name" -v w="$wi" -v i="$ir" 'BEGIN { printf "%-10s %12d %14d %10.0f\n", n, w, i, (w > 0 ? i / w : 0) }'
  [ -z "${CALLGRIND_KEEP:-}" ] || cp "$tmp/cg.$name" "$CALLGRIND_KEEP.$name"
done
echo "per-w-inst: host instructions (callgrind Ir, whole process) per warp-instruction"
echo "(smsp__inst_executed.sum), one worker thread"
