#!/usr/bin/env bash
# metrics_validate.sh: warplab's counters against Nsight Compute's, kernel by kernel (issue 3).
#
#   bash tests/gpu/metrics_validate.sh [--emu-only] WARPLAB OUTDIR
#
# Every case (a kernel of tests/gpu/kernels/metrics.cu, or of tests/e2e/kernels/metrics_rules.cu
# for the launches the end-to-end suite makes, a launch, its arguments) runs twice
# from the same PTX: `WARPLAB emu PTX --json` on the emulator, and `WARPLAB emu PTX
# --backend gpu` under `ncu --metrics ...`. The script writes
#   OUTDIR/metrics_compare.csv  case,metric,kind,emulator,ncu,match (yes, no or n.a.)
#   OUTDIR/metrics_compare.txt  the same as a table: mismatches of exact metrics first, a
#                               count of exact metrics matched / compared, then every case
#   OUTDIR/raw/                 each case's emulator JSON and ncu CSV
# Exact metrics must match; ptx-level and modelled ones are shown side by side (ptxas changes
# the code they count). Rows of kind "ncu-probe" are ncu metrics the emulator does not report,
# collected to settle ncu's own definitions (predicated-off warps, all lanes off).
#
# Run on the GPU machine (ncu at /usr/local/cuda/bin/ncu, python3, nvcc). With --emu-only it
# needs neither a GPU nor ncu and fills in the emulator side only (ncu column empty, match
# n.a.), to test the plumbing anywhere nvcc is installed. Exit status: 0 when every exact
# metric compared matches (always 0 with --emu-only unless the emulator fails), 1 otherwise.
set -uo pipefail

EMU_ONLY=0
if [ "${1:-}" = --emu-only ]; then EMU_ONLY=1; shift; fi
WL=$(realpath "${1:?usage: metrics_validate.sh [--emu-only] WARPLAB OUTDIR}")
mkdir -p "${2:?usage: metrics_validate.sh [--emu-only] WARPLAB OUTDIR}"
OUT=$(realpath "$2")
cd "$(dirname "$0")/../.." || exit 2
SRC=tests/gpu/kernels/metrics.cu
RULES=tests/e2e/kernels/metrics_rules.cu
RAW=$OUT/raw
mkdir -p "$RAW"
rm -f "$RAW"/*.json "$RAW"/*.csv "$RAW"/*.err
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
PATH=$PATH:/usr/local/cuda/bin
NCU=${NCU:-ncu}

# The metrics ncu is asked for: the ncu-named ones of warplab's contract (the warplab__
# ones have no ncu counterpart), then the probes.
METRICS=(
  smsp__inst_executed.sum smsp__thread_inst_executed.sum smsp__thread_inst_executed_pred_on.sum
  smsp__thread_inst_executed_per_inst_executed.ratio
  smsp__sass_inst_executed_op_global_ld.sum smsp__sass_inst_executed_op_global_st.sum
  smsp__sass_inst_executed_op_global_atom.sum smsp__sass_inst_executed_op_global_red.sum
  l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
  l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum l1tex__t_requests_pipe_lsu_mem_global_op_red.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum
  l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio
  l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio
  smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct
  smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct
  smsp__sass_inst_executed_op_shared_ld.sum smsp__sass_inst_executed_op_shared_st.sum
  smsp__sass_inst_executed_op_shared_atom.sum
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  smsp__sass_inst_executed_op_local_ld.sum smsp__sass_inst_executed_op_local_st.sum
  l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum
  smsp__sass_branch_targets.sum smsp__sass_branch_targets_threads_uniform.sum
  smsp__sass_branch_targets_threads_divergent.sum smsp__sass_average_branch_targets_threads_uniform.pct
)
PROBES=(
  smsp__inst_executed_op_global_ld_pred_on_any.sum smsp__inst_executed_op_global_ld_pred_off_all.sum
  smsp__inst_executed_op_shared_ld_pred_on_any.sum smsp__inst_executed_op_shared_ld_pred_off_all.sum
  smsp__inst_executed_op_shared_st_pred_off_all.sum
  l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum l1tex__t_requests_pipe_lsu_mem_local_op_st.sum
)
ALL=$(IFS=,; echo "${METRICS[*]},${PROBES[*]}")
printf '%s\n' "${METRICS[@]}" >"$W/metrics.txt"
printf '%s\n' "${PROBES[@]}" >"$W/probes.txt"

PTX=$W/metrics.ptx
RULES_PTX=$W/metrics_rules.ptx
for pair in "$SRC:$PTX" "$RULES:$RULES_PTX"; do
  if ! nvcc -arch=sm_90 -ptx -lineinfo "${pair%%:*}" -o "${pair#*:}"; then
    echo "metrics_validate: nvcc failed on ${pair%%:*}" >&2
    exit 2
  fi
  cp "${pair#*:}" "$RAW/"
done

: >"$W/cases.txt"
# mcase NAME KERNEL GRID BLOCK ARGS...   (a kernel of metrics.cu, or of metrics_rules.cu
# when NAME starts with rules_)
mcase() {
  local name=$1 kernel=$2 grid=$3 block=$4 ptx=$PTX
  shift 4
  case $name in rules_*) ptx=$RULES_PTX ;; esac
  local cmd=("$WL" emu "$ptx" --kernel "$kernel" --grid "$grid" --block "$block" "$@")
  printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$kernel" "$grid" "$block" "$*" >>"$W/cases.txt"
  "${cmd[@]}" --json >"$RAW/$name.emu.json" 2>"$RAW/$name.emu.err"
  echo $? >"$W/$name.emu.rc"
  if [ "$EMU_ONLY" = 0 ]; then
    timeout -s KILL 120 "$NCU" --csv --print-units base --metrics "$ALL" --target-processes all \
      --log-file "$RAW/$name.ncu.csv" "${cmd[@]}" --backend gpu >/dev/null 2>"$RAW/$name.gpu.err"
    echo $? >"$W/$name.ncu.rc"
  fi
}

A=--arg
# Global loads and stores: 2048 threads, full warps everywhere.
for s in 1 2 4 8 32; do
  mcase "copy_stride$s" copy_strided 16 128 $A "f32buf:$((2048 * s)):iota" $A f32buf:2048:zero $A "i32:$s"
done
mcase copy_offset1 copy_offset 16 128 $A f32buf:2056:iota $A f32buf:2048:zero $A i32:1
mcase copy_offset8 copy_offset 16 128 $A f32buf:2056:iota $A f32buf:2048:zero $A i32:8
mcase copy_broadcast copy_broadcast 16 128 $A f32buf:64:iota $A f32buf:2048:zero $A i32:5
mcase copy_float2 copy_float2 16 128 $A f32buf:4096:iota $A f32buf:4096:zero
mcase copy_float4 copy_float4 16 128 $A f32buf:8192:iota $A f32buf:8192:zero
mcase copy_tail40 copy_tail 1 128 $A f32buf:128:iota $A f32buf:128:zero $A i32:40
mcase copy_predicated72 copy_predicated 1 128 $A f32buf:129:iota $A f32buf:128:zero $A i32:72
# Transposes of a 64x64 matrix, block 32x32.
for v in naive padded swizzle; do
  mcase "transpose_$v" "transpose_$v" 2,2 32,32 $A f32buf:4096:iota $A f32buf:4096:zero $A i32:64
done
# Shared memory: 8 blocks of 128 threads.
for s in 1 2 4 8 16 32 33; do
  mcase "smem_stride$s" smem_stride 8 128 $A f32buf:1024:zero $A "i32:$s"
done
mcase smem_broadcast smem_broadcast 8 128 $A f32buf:1024:zero $A i32:7
mcase smem_double1 smem_double 8 128 $A f64buf:1024:zero $A i32:1
mcase smem_double2 smem_double 8 128 $A f64buf:1024:zero $A i32:2
mcase smem_float4 smem_float4 8 128 $A f32buf:4096:zero
# Reductions: 8 blocks of 256.
for v in interleaved_div interleaved_bank sequential; do
  mcase "reduce_$v" "reduce_$v" 8 256 $A f32buf:2048:rand:1 $A f32buf:8:zero
done
# 2-D matrix add over 256 x 64 floats, one thread per element.
for shape in 32,32 32,16 16,32 16,16 64,8 8,32 4,64 128,2 256,1 8,8; do
  bx=${shape%,*} by=${shape#*,}
  mcase "matrix_add_${bx}x$by" matrix_add "$((256 / bx)),$((64 / by))" "$shape" \
    $A f32buf:16384:rand:2 $A f32buf:16384:rand:3 $A f32buf:16384:zero $A i32:256
done
# Branches: 1024 threads.
for k in branch_odd branch_warp branch_switch32; do
  mcase "$k" "$k" 8 128 $A f32buf:1024:rand:4 $A f32buf:1024:zero $A f32:0.5
done
# Atomics: 1024 threads.
mcase atomic_one atomic_one 8 128 $A i32buf:1:zero $A i32buf:1024:zero
mcase atomic_distinct atomic_distinct 8 128 $A i32buf:1024:zero $A i32buf:1024:zero
mcase red_one red_strided 8 128 $A i32buf:1:zero $A i32:0
mcase red_distinct red_strided 8 128 $A i32buf:1024:zero $A i32:1
# Lanes sharing addresses (lane i on ctr[((i / div) % mod) * mul]): how ncu counts the
# sectors of atomics and reductions that several lanes send to one address.
for sharing in "one 1 1 1" "pairs 2 1048576 1" "8in1sector 1 8 1" "sector_each 1 1048576 8"; do
  read -r tag div mod mul <<<"$sharing"
  mcase "red_index_$tag" red_index 8 128 $A i32buf:8192:zero $A "i32:$div" $A "i32:$mod" $A "i32:$mul"
  mcase "atomic_index_$tag" atomic_index 8 128 $A i32buf:8192:zero $A i32buf:1024:zero \
    $A "i32:$div" $A "i32:$mod" $A "i32:$mul"
done
mcase red_hot4 red_hot 2 128 $A i32buf:256:zero $A i32:4
mcase atomic_hot4 atomic_hot 2 128 $A i32buf:256:zero $A i32buf:256:zero $A i32:4
# Local memory: 256 threads.
mcase local_array local_array 2 128 $A f32buf:256:rand:5 $A f32buf:256:zero $A i32:3

# The launches of the end-to-end suite's first-principles tests (tests/e2e/metrics.c), so that
# the numbers it asserts are also measured.
for s in 1 2 4 8 32; do
  mcase "rules_load_stride$s" load_strided 2 64 $A "f32buf:$((128 * s)):iota" $A f32buf:128:zero $A "i32:$s"
done
mcase rules_load_offset1 load_offset 2 64 $A f32buf:129:iota $A f32buf:128:zero $A i32:1
mcase rules_load_broadcast load_broadcast 2 64 $A f32buf:8:iota $A f32buf:128:zero $A i32:3
mcase rules_load_float2 load_float2 2 64 $A f32buf:256:iota $A f32buf:256:zero
mcase rules_load_float4 load_float4 2 64 $A f32buf:512:iota $A f32buf:512:zero
for s in 1 2 4 32 33; do
  mcase "rules_smem_stride$s" smem_stride 1 64 $A f32buf:64:zero $A "i32:$s"
done
mcase rules_smem_broadcast smem_broadcast 1 64 $A f32buf:64:zero $A i32:5
mcase rules_branch_odd branch_odd 1 64 $A f32buf:64:iota $A f32buf:64:zero
mcase rules_branch_warp branch_warp 1 64 $A f32buf:64:iota $A f32buf:64:zero

GPU="emulator only (--emu-only)"
if [ "$EMU_ONLY" = 0 ]; then
  GPU="$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1); $("$NCU" --version 2>/dev/null | tail -1)"
fi

python3 - "$W" "$RAW" "$OUT" "$EMU_ONLY" "$GPU" <<'EOF'
import csv, json, os, sys

w, raw, out, emu_only, gpu = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == '1', sys.argv[5]
metrics = open(os.path.join(w, 'metrics.txt')).read().split()
probes = open(os.path.join(w, 'probes.txt')).read().split()
cases = [l.rstrip('\n').split('\t') for l in open(os.path.join(w, 'cases.txt')) if l.strip()]

def num(s):
    """ncu's printed value as a float, or None (n/a, empty, thousands separators removed)."""
    s = (s or '').replace(',', '').strip()
    try:
        return float(s)
    except ValueError:
        return None

def read_rc(path):
    try:
        return int(open(path).read().strip())
    except (OSError, ValueError):
        return None

def read_emu(name):
    """(metrics dict name -> (value, kind), outcome or error text)."""
    path = os.path.join(raw, name + '.emu.json')
    try:
        j = json.load(open(path))
    except (OSError, ValueError):
        err = open(os.path.join(raw, name + '.emu.err')).read().strip().splitlines()
        return {}, 'no JSON: ' + (err[-1] if err else 'rc %s' % read_rc(os.path.join(w, name + '.emu.rc')))
    m = {}
    for k, v in (j.get('metrics') or {}).items():
        if isinstance(v, dict) and isinstance(v.get('value'), (int, float)):
            m[k] = (float(v['value']), v.get('kind', '?'))
    return m, j.get('outcome', '?')

def read_ncu(name):
    """(metric -> value, status text)."""
    path = os.path.join(raw, name + '.ncu.csv')
    if emu_only:
        return {}, 'not run'
    try:
        lines = [l for l in open(path, errors='replace') if l.startswith('"')]
    except OSError:
        return {}, 'no ncu output (rc %s)' % read_rc(os.path.join(w, name + '.ncu.rc'))
    vals, kernels = {}, set()
    for row in csv.DictReader(lines):
        if row.get('Metric Name') is None:
            continue
        kernels.add(row.get('ID'))
        v = num(row.get('Metric Value'))
        if v is not None:
            vals[row['Metric Name']] = v
    if not vals:
        text = open(path, errors='replace').read().strip().splitlines()
        return {}, 'no metric rows: ' + ' | '.join(t for t in text if 'ERR' in t or 'WARN' in t)[:300]
    status = 'ok' if len(kernels) == 1 else '%d kernel launches profiled, last one used' % len(kernels)
    return vals, status

def fmt(v):
    if v is None:
        return ''
    if v != v:
        return 'nan'                    # ncu prints nan for a ratio of nothing
    return '%d' % v if v == int(v) and abs(v) < 1e15 else '%.4g' % v

def matches(metric, a, b):
    if a is None or b is None:
        return 'n.a.'
    if metric.endswith('.sum'):
        return 'yes' if abs(a - b) < 0.5 else 'no'
    return 'yes' if abs(a - b) <= max(0.01, 1e-3 * abs(b)) else 'no'   # ratios, percentages as printed

rows, notes = [], []
for name, kernel, grid, block, args in cases:
    emu, outcome = read_emu(name)
    ncu, status = read_ncu(name)
    if outcome != 'ok':
        notes.append('%s: emulator outcome %s' % (name, outcome))
    if not emu_only and status != 'ok':
        notes.append('%s: ncu %s' % (name, status))
    names = metrics + [k for k in sorted(emu) if k not in metrics]
    for m in names:
        e = emu.get(m)
        kind = e[1] if e else 'absent'
        ev = e[0] if e else None
        nv = None if m.startswith('warplab__') else ncu.get(m)
        rows.append((name, m, kind, ev, nv, matches(m, ev, nv)))
    for m in probes:
        rows.append((name, m, 'ncu-probe', None, ncu.get(m), 'n.a.'))

with open(os.path.join(out, 'metrics_compare.csv'), 'w', newline='') as f:
    cw = csv.writer(f, lineterminator='\n')
    cw.writerow(['case', 'metric', 'kind', 'emulator', 'ncu', 'match'])
    for r in rows:
        cw.writerow([r[0], r[1], r[2], fmt(r[3]), fmt(r[4]), r[5]])

def table(rs, cols):
    rs = [[str(c) for c in r] for r in rs]
    width = [max(len(r[i]) for r in [cols] + rs) for i in range(len(cols))]
    line = lambda r: '  '.join(c.ljust(width[i]) for i, c in enumerate(r)).rstrip()
    return '\n'.join([line(cols), line(['-' * x for x in width])] + [line(r) for r in rs])

exact = [r for r in rows if r[2] == 'exact' and r[5] != 'n.a.']
bad = [r for r in exact if r[5] == 'no']
other_diff = [r for r in rows if r[2] in ('ptx-level', 'modelled') and r[5] == 'no']
missing = {}
for r in rows:
    if r[2] == 'absent':
        missing[r[1]] = missing.get(r[1], 0) + 1
cols = ['case', 'metric', 'kind', 'emulator', 'ncu', 'match']
show = lambda rs: [(r[0], r[1], r[2], fmt(r[3]), fmt(r[4]), r[5]) for r in rs]
with open(os.path.join(out, 'metrics_compare.txt'), 'w') as f:
    p = lambda *a: print(*a, file=f)
    p('warplab emulator vs Nsight Compute: %s' % gpu)
    p('same PTX (tests/gpu/kernels/metrics.cu, and tests/e2e/kernels/metrics_rules.cu for the rules_ cases;')
    p('sm_90, -lineinfo), same launches and inputs; %d cases' % len(cases))
    p()
    if emu_only:
        p('emulator side only: no exact metric compared')
    else:
        p('exact metrics matched: %d / %d compared' % (len(exact) - len(bad), len(exact)))
    p()
    p('== mismatches of exact metrics (%d)' % len(bad))
    p(table(show(bad), cols) if bad else '(none)')
    p()
    p('== ptx-level and modelled metrics that differ (%d; expected where ptxas rewrites the code)' % len(other_diff))
    p(table(show(other_diff), cols) if other_diff else '(none)')
    if missing:
        p()
        p('== metrics of the contract absent from the emulator\'s JSON (a ratio of 0/0 may be left out)')
        p('\n'.join('%s  in %d of %d cases' % (m, n, len(cases)) for m, n in sorted(missing.items())))
    if notes:
        p()
        p('== run notes')
        p('\n'.join(notes))
    p()
    p('== every case')
    for name, kernel, grid, block, args in cases:
        p()
        p('-- %s: %s  grid %s  block %s  %s' % (name, kernel, grid, block, args))
        rs = [r for r in rows if r[0] == name and (r[3] is not None or r[4] is not None)]
        p(table([(r[1], r[2], fmt(r[3]), fmt(r[4]), r[5]) for r in rs], cols[1:]) if rs else '(no values)')

if emu_only:
    failed = sum(1 for n in notes if 'emulator' in n)
else:
    failed = len(bad)
print(open(os.path.join(out, 'metrics_compare.txt')).read().split('\n== every case')[0])
sys.exit(1 if failed else 0)
EOF
