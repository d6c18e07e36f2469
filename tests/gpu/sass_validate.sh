#!/usr/bin/env bash
# sass_validate.sh: warplab's counts from SASS against Nsight Compute's (issue 15, item 1).
#
#   bash tests/gpu/sass_validate.sh [--emu-only] [--committed] WARPLAB OUTDIR
#
# The emulator counts what ptxas's machine code executes where nvdisasm is installed
# (harness/toolchain/tc_sass.c; metrics of kind "from-sass", their PTX counts kept as ptx_value).
# This script compares those counts with ncu's on the GPU:
#   1. the 74 cases of tests/gpu/metrics_validate.sh (its kernels of metrics.cu and
#      metrics_rules.cu), run by that script into OUTDIR/metrics/;
#   2. the cases below: tests/gpu/kernels/sass_families.cu (tiled GEMM with LDS.128 merging,
#      register-blocked GEMM, histograms global and privatised, same-address atomicAdd with and
#      without its result, reductions) and kernels of the end-to-end suite
#      (tests/e2e/kernels/sass_merge.cu, reduce.cu, atomics.cu, transpose.cu, and prove.sh's
#      launches of elementwise.cu, matrix_add.cu, reduce.cu, divergent.cu), into OUTDIR/raw/.
# It writes OUTDIR/sass_compare.csv (case,metric,kind,emulator,ptx,ncu,agrees) and
# OUTDIR/sass_compare.txt: for smsp__inst_executed.sum how many cases are within 5% of ncu
# counted on SASS and on PTX; for the shared-load instructions and wavefronts and the atomic
# instruction counts how many are equal; then every row.
#
# --emu-only: no GPU, no ncu: the emulator side only (ncu columns empty), to test the plumbing.
# --committed: with --emu-only, take ncu's figures for part 1 from the committed
#   tests/gpu/results/metrics_compare.csv (an H200, ncu 2025.3.1): how the SASS counts of this
#   build compare with what was measured, without a GPU.
# Needs python3, nvcc, and nvdisasm (PATH or /usr/local/cuda/bin; else the counts are the
# PTX's and the script says so). Exit status 0 unless a run could not be made.
set -uo pipefail

EMU_ONLY=0
COMMITTED=0
while [ $# -gt 0 ]; do
  case $1 in
    --emu-only) EMU_ONLY=1; shift ;;
    --committed) COMMITTED=1; shift ;;
    *) break ;;
  esac
done
WL=$(realpath "${1:?usage: sass_validate.sh [--emu-only] [--committed] WARPLAB OUTDIR}")
mkdir -p "${2:?usage: sass_validate.sh [--emu-only] [--committed] WARPLAB OUTDIR}"
OUT=$(realpath "$2")
cd "$(dirname "$0")/../.." || exit 2
PATH=$PATH:/usr/local/cuda/bin
NCU=${NCU:-ncu}
if command -v nvdisasm >/dev/null 2>&1; then
  echo "sass_validate: nvdisasm: $(command -v nvdisasm)"
else
  echo "sass_validate: WARNING: nvdisasm not found: the emulator's counts will be the PTX's" >&2
fi

# 1. metrics_validate.sh's cases
MV=(bash tests/gpu/metrics_validate.sh)
[ "$EMU_ONLY" = 1 ] && MV+=(--emu-only)
"${MV[@]}" "$WL" "$OUT/metrics" >"$OUT/metrics_validate.log" 2>&1
echo "sass_validate: metrics_validate.sh: exit $? (log: $OUT/metrics_validate.log)"

# 2. the families
RAW=$OUT/raw
mkdir -p "$RAW"
rm -f "$RAW"/*.json "$RAW"/*.csv "$RAW"/*.err
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
METRICS=smsp__inst_executed.sum,smsp__thread_inst_executed.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_shared_atom.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,smsp__sass_inst_executed_op_global_atom.sum,smsp__sass_inst_executed_op_global_red.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum
declare -A PTXOF
for src in tests/gpu/kernels/sass_families.cu tests/e2e/kernels/sass_merge.cu tests/e2e/kernels/reduce.cu \
           tests/e2e/kernels/atomics.cu tests/e2e/kernels/transpose.cu tests/e2e/kernels/elementwise.cu \
           tests/e2e/kernels/matrix_add.cu tests/e2e/kernels/divergent.cu; do
  base=$(basename "$src" .cu)
  if ! nvcc -arch=sm_90 -ptx -lineinfo "$src" -o "$W/$base.ptx"; then
    echo "sass_validate: nvcc failed on $src" >&2
    exit 2
  fi
  cp "$W/$base.ptx" "$RAW/"
  PTXOF[$base]=$W/$base.ptx
done
: >"$W/cases.txt"
# scase NAME FILE KERNEL GRID BLOCK ARGS...
scase() {
  local name=$1 file=$2 kernel=$3 grid=$4 block=$5
  shift 5
  local cmd=("$WL" emu "${PTXOF[$file]}" --kernel "$kernel" --grid "$grid" --block "$block" "$@")
  printf '%s\n' "$name" >>"$W/cases.txt"
  "${cmd[@]}" --json >"$RAW/$name.emu.json" 2>"$RAW/$name.emu.err"
  if [ "$EMU_ONLY" = 0 ]; then
    timeout -s KILL 300 "$NCU" --csv --print-units base --metrics "$METRICS" --target-processes all \
      --log-file "$RAW/$name.ncu.csv" "${cmd[@]}" --backend gpu >/dev/null 2>"$RAW/$name.gpu.err"
  fi
}
A=--arg
scase gemm32_n256 sass_families gemm_tiled32 8,8 32,32 $A f32buf:65536:rand:1 $A f32buf:65536:rand:2 $A f32buf:65536:zero $A i32:256
scase gemm_regblock_n256 sass_families gemm_regblock 4,16 16,16 $A f32buf:65536:rand:1 $A f32buf:65536:rand:2 $A f32buf:65536:zero $A i32:256
scase hist_global_uniform sass_families hist_global 256 256 $A u32buf:65536:rand:3 $A u32buf:256:zero $A i32:65536
scase hist_global_one_bin sass_families hist_global 256 256 $A u32buf:65536:fill=7 $A u32buf:256:zero $A i32:65536
scase hist_shared_uniform sass_families hist_shared 64 256 $A u32buf:65536:rand:3 $A u32buf:256:zero $A i32:65536
scase hist_shared_one_bin sass_families hist_shared 64 256 $A u32buf:65536:fill=7 $A u32buf:256:zero $A i32:65536
scase count_hot sass_families count_hot 64 256 $A u32buf:1:zero $A u32buf:16384:zero
scase sum_hot sass_families sum_hot 64 256 $A f32buf:16384:rand:4 $A f32buf:1:zero $A i32:16384
scase reduce_shared_fam sass_families reduce_shared 64 256 $A f32buf:16384:rand:5 $A f32buf:64:zero
scase reduce_shfl_fam sass_families reduce_shfl 64 256 $A f32buf:16384:rand:6 $A f32buf:1:zero $A i32:16384
scase merge_gemm_n64 sass_merge gemm_tiled 4,4 16,16 $A f32buf:4096:rand:1 $A f32buf:4096:rand:2 $A f32buf:4096:zero $A i32:64
scase merge_count_one sass_merge count_one 8 128 $A i32buf:1:zero $A i32buf:1024:zero
scase merge_div_mod sass_merge div_mod 8 128 $A i32buf:1024:rand:7 $A i32buf:1024:zero $A i32:7
scase merge_div_float sass_merge div_float 8 128 $A f32buf:1025:rand:8 $A f32buf:1024:zero
scase e2e_reduce_shared reduce reduce_shared 16 256 $A f32buf:4096:rand:9 $A f32buf:16:zero $A i32:4096
scase e2e_reduce_warp reduce reduce_warp 16 256 $A f32buf:4096:rand:9 $A f32buf:1:zero $A i32:4096
scase e2e_hist_global atomics hist_global 16 256 $A u8buf:65536:rand:10 $A u32buf:256:zero $A i32:65536
scase e2e_hist_shared atomics hist_shared 16 256 $A u8buf:65536:rand:10 $A u32buf:256:zero $A i32:65536
scase e2e_transpose transpose transpose_tiled 4,4 32,8 $A f32buf:16384:iota $A f32buf:16384:zero $A i32:128 $A i32:128
# prove.sh's instruction-count launches (tests/gpu/results/ncu_inst_counts.txt: ncu 640, 52000,
# 15360, 1792 warp-instructions); loop_mod7's loop ptxas unrolls by 4, which the SASS counts
# do not follow (every copy is counted at the PTX trip count)
scase e2e_add elementwise add 4 256 $A f32buf:1000:rand:1 $A f32buf:1000:rand:2 $A f32buf:1000:zero $A i32:1000
scase e2e_matrix_add matrix_add matrix_add 10,25 32,8 $A f32buf:60000:rand:5 $A f32buf:60000:rand:6 $A f32buf:60000:zero $A i32:300 $A i32:200
scase e2e_reduce_shared_40 reduce reduce_shared 40 128 $A f32buf:5000:rand:8 $A f32buf:40:zero $A i32:5000
scase e2e_loop_mod7 divergent loop_mod7 4 256 $A i32buf:1000:zero $A i32:1000

python3 - "$OUT" "$W/cases.txt" "$EMU_ONLY" "$COMMITTED" tests/gpu/results/metrics_compare.csv <<'PYEOF'
import csv, json, os, sys

out, cases_file, emu_only, committed, committed_csv = sys.argv[1:6]
emu_only, committed = emu_only == '1', committed == '1'
INST = 'smsp__inst_executed.sum'
EQUAL = ['smsp__sass_inst_executed_op_shared_ld.sum',
         'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum',
         'smsp__sass_inst_executed_op_shared_atom.sum',
         'smsp__sass_inst_executed_op_global_atom.sum',
         'smsp__sass_inst_executed_op_global_red.sum']
SHOWN = [INST] + EQUAL

def num(s):
    s = (s or '').replace(',', '').strip()
    try:
        return float(s)
    except ValueError:
        return None

def read_emu(path):
    try:
        j = json.load(open(path))
    except (OSError, ValueError):
        return None, None
    m = {}
    for k, v in (j.get('metrics') or {}).items():
        if isinstance(v, dict) and isinstance(v.get('value'), (int, float)):
            ptx = v.get('ptx_value', v['value'])
            m[k] = (float(v['value']), v.get('kind', '?'), float(ptx))
    return m, (j.get('sass') or {}).get('counts', '?')

def read_ncu(path):
    try:
        lines = [l for l in open(path, errors='replace') if l.startswith('"')]
    except OSError:
        return {}
    vals = {}
    for row in csv.DictReader(lines):
        v = num(row.get('Metric Value'))
        if row.get('Metric Name') and v is not None:
            vals[row['Metric Name']] = v
    return vals

# (case, source of counts, emu metrics, ncu metrics)
runs = []
mraw = os.path.join(out, 'metrics', 'raw')
committed_ncu = {}
if committed:
    for row in csv.DictReader(open(committed_csv)):
        v = num(row['ncu'])
        if v is not None:
            committed_ncu.setdefault(row['case'], {})[row['metric']] = v
names = sorted(f[:-9] for f in os.listdir(mraw) if f.endswith('.emu.json')) if os.path.isdir(mraw) else []
for name in names:
    emu, counts = read_emu(os.path.join(mraw, name + '.emu.json'))
    ncu = committed_ncu.get(name, {}) if committed else read_ncu(os.path.join(mraw, name + '.ncu.csv'))
    runs.append((name, counts, emu, ncu))
for name in [l.strip() for l in open(cases_file) if l.strip()]:
    emu, counts = read_emu(os.path.join(out, 'raw', name + '.emu.json'))
    ncu = {} if emu_only else read_ncu(os.path.join(out, 'raw', name + '.ncu.csv'))
    runs.append((name, counts, emu, ncu))

rows, missing = [], []
within = {'sass': 0, 'ptx': 0, 'n': 0}
equal = {m: {'sass': 0, 'ptx': 0, 'n': 0} for m in EQUAL}
def fmt(v):
    if v is None:
        return ''
    return 'nan' if v != v else ('%d' % v if v == int(v) else '%.4g' % v)
for name, counts, emu, ncu in runs:
    if emu is None:
        missing.append(name)
        continue
    for m in SHOWN:
        if m not in emu:
            continue
        val, kind, ptx = emu[m]
        n = ncu.get(m)
        agree = ''
        if n is not None:
            if m == INST:
                ok = lambda x: abs(x - n) <= 0.05 * n
                within['n'] += 1
                within['sass'] += ok(val)
                within['ptx'] += ok(ptx)
            else:
                ok = lambda x: abs(x - n) < 0.5
                equal[m]['n'] += 1
                equal[m]['sass'] += ok(val)
                equal[m]['ptx'] += ok(ptx)
            agree = 'yes' if ok(val) else 'no'
        rows.append((name, m, kind, fmt(val), fmt(ptx), fmt(n), agree))

with open(os.path.join(out, 'sass_compare.csv'), 'w', newline='') as f:
    w = csv.writer(f)
    w.writerow(['case', 'metric', 'kind', 'emulator', 'ptx', 'ncu', 'agrees'])
    w.writerows(rows)
srcs = sorted(set(r[1] for r in runs if r[2] is not None))
lines = ['warplab counts from SASS against Nsight Compute (%s)' %
         ('ncu from tests/gpu/results/metrics_compare.csv for the metrics_validate cases'
          if committed else 'emulator only' if emu_only else 'ncu on this GPU'),
         'emulator counts: %s' % ', '.join(srcs), '']
if within['n']:
    lines.append('%s within 5%% of ncu: from SASS %d / %d, PTX-level %d / %d' %
                 (INST, within['sass'], within['n'], within['ptx'], within['n']))
for m in EQUAL:
    if equal[m]['n']:
        lines.append('%s equal to ncu: from SASS %d / %d, PTX-level %d / %d' %
                     (m, equal[m]['sass'], equal[m]['n'], equal[m]['ptx'], equal[m]['n']))
if missing:
    lines.append('no emulator result: ' + ', '.join(missing))
lines.append('')
wid = [max(len(str(r[i])) for r in rows + [('case', 'metric', 'kind', 'emulator', 'ptx', 'ncu', 'agrees')]) for i in range(7)]
for r in [('case', 'metric', 'kind', 'emulator', 'ptx', 'ncu', 'agrees')] + rows:
    lines.append('  '.join(str(x).ljust(wid[i]) for i, x in enumerate(r)).rstrip())
open(os.path.join(out, 'sass_compare.txt'), 'w').write('\n'.join(lines) + '\n')
print('\n'.join(lines[:3 + 1 + len(EQUAL) + 1]))
PYEOF
