#!/usr/bin/env bash
# prove.sh: run kernels of the end-to-end suite on the emulator and on a real GPU with the
# same PTX and the same inputs, and compare every output buffer byte for byte.
#
#   bash tests/gpu/prove.sh WARPLAB OUTDIR
#   PROVE_ONLY='^(tex|tld4|surf)' bash tests/gpu/prove.sh WARPLAB OUTDIR   (only those cases)
#   PROVE_KEEP=1 ...   also keeps both backends' buffers of every case that differs in
#                      OUTDIR/differ/NAME.{emu,gpu}.N.bin, to study the difference
#
# Run on a machine with an NVIDIA GPU (the device tool). Writes OUTDIR/proof.txt (the
# table), OUTDIR/proof.csv, and the raw reports of compute-sanitizer and ncu it runs on the
# side. The emulator's outputs must equal the GPU's bit for bit wherever the arithmetic is
# exact; buffers that hold approximate transcendental results (MUFU) or float atomics in
# scheduling order are compared in ULPs instead (mode ulp), and buffers that record the
# order in which lanes won an atomic are compared but not required to match (mode order).
set -uo pipefail
WL=$(realpath "${1:?usage: prove.sh WARPLAB OUTDIR}")
mkdir -p "${2:?usage: prove.sh WARPLAB OUTDIR}" && OUT=$(realpath "$2")
cd "$(dirname "$0")/../.."
K=tests/e2e/kernels
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
CSV=$OUT/proof.csv
echo "case,kernel,emu_outcome,gpu_outcome,buffer,bytes,identical,differing_elems,max_ulp,mode" >"$CSV"
fails=0

# ulp_diff A B TYPE: differing element count and max ULP distance (python3 is on the device).
ulp_diff() {
  python3 - "$1" "$2" "$3" <<'EOF'
import struct, sys
a = open(sys.argv[1], 'rb').read(); b = open(sys.argv[2], 'rb').read(); t = sys.argv[3]
sz = {'f32': 4, 'f64': 8}.get(t, 4); fmt = {'f32': '<i', 'f64': '<q'}.get(t, '<I')
n = min(len(a), len(b)) // sz; diff = 0; mx = 0
for i in range(n):
    x = struct.unpack_from(fmt, a, i * sz)[0]; y = struct.unpack_from(fmt, b, i * sz)[0]
    if x != y:
        diff += 1
        if t in ('f32', 'f64'):
            bias = 1 << (8 * sz - 1)
            x = x if x >= 0 else bias - x; y = y if y >= 0 else bias - y
            mx = max(mx, abs(x - y))
print(diff, mx)
EOF
}

# pcase NAME FILE KERNEL GRID BLOCK "N:TYPE:MODE ..." ARGS...   (MODE exact or ulp)
pcase() {
  local name=$1 file=$2 kernel=$3 grid=$4 block=$5 dumps=$6
  shift 6
  if [ -n "${PROVE_ONLY:-}" ] && [[ ! $name =~ $PROVE_ONLY ]]; then return; fi
  local ptx=$W/$name.ptx
  nvcc -arch=sm_90 -ptx -lineinfo "$K/$file" -o "$ptx" 2>/dev/null || { echo "nvcc failed on $file"; fails=$((fails+1)); return; }
  local be d outcome_emu outcome_gpu
  for be in emu gpu; do
    local dargs=()
    for d in $dumps; do dargs+=(--dump "${d%%:*}=$W/$name.$be.${d%%:*}.bin"); done
    "$WL" emu "$ptx" --kernel "$kernel" --grid "$grid" --block "$block" "$@" "${dargs[@]}" \
      --backend "$be" --json >"$W/$name.$be.json" 2>"$W/$name.$be.err"
    echo $? >"$W/$name.$be.rc"
  done
  outcome_emu=$(grep -m1 '"outcome"' "$W/$name.emu.json" | sed 's/.*: "\(.*\)".*/\1/')
  outcome_gpu=$(grep -m1 '"outcome"' "$W/$name.gpu.json" | sed 's/.*: "\(.*\)".*/\1/')
  for d in $dumps; do
    local n=${d%%:*} rest=${d#*:}
    local ty=${rest%%:*} mode=${rest#*:}
    local a=$W/$name.emu.$n.bin b=$W/$name.gpu.$n.bin same diffs mx bytes
    bytes=$(stat -c %s "$a" 2>/dev/null || echo 0)
    if [ -s "$a" ] && cmp -s "$a" "$b"; then same=yes; diffs=0; mx=0
    else same=no; read -r diffs mx < <(ulp_diff "$a" "$b" "$ty"); fi
    echo "$name,$kernel,${outcome_emu:-?},${outcome_gpu:-?},arg$n:$ty,$bytes,$same,$diffs,$mx,$mode" >>"$CSV"
    if [ "$mode" = exact ] && [ "$same" != yes ]; then fails=$((fails+1)); fi
    if [ -n "${PROVE_KEEP:-}" ] && [ "$same" != yes ]; then
      mkdir -p "$OUT/differ" && cp "$a" "$b" "$OUT/differ/" 2>/dev/null
    fi
  done
}

A=--arg
pcase vector_add elementwise.cu add 4 256 "2:f32:exact" \
  $A f32buf:1000:rand:1 $A f32buf:1000:rand:2 $A f32buf:1000:zero $A i32:1000
pcase saxpy elementwise.cu saxpy 8 128 "3:f32:exact" \
  $A i32:1000 $A f32:2.5 $A f32buf:1000:rand:3 $A f32buf:1000:rand:4
pcase matrix_add matrix_add.cu matrix_add 10,25 32,8 "2:f32:exact" \
  $A f32buf:60000:rand:5 $A f32buf:60000:rand:6 $A f32buf:60000:zero $A i32:300 $A i32:200
pcase transpose transpose.cu transpose_tiled 3,2 32,8 "1:f32:exact" \
  $A f32buf:6144:rand:7 $A f32buf:6144:zero $A i32:96 $A i32:64
pcase reduce_shared reduce.cu reduce_shared 40 128 "1:f32:exact" \
  $A f32buf:5000:rand:8 $A f32buf:40:zero $A i32:5000
pcase reduce_warp_int reduce.cu reduce_warp_int 20 256 "1:i32:exact" \
  $A i32buf:5000:rand:9 $A i32buf:1:zero $A i32:5000
pcase reduce_warp_f32 reduce.cu reduce_warp 20 256 "1:f32:ulp" \
  $A f32buf:5000:rand:10 $A f32buf:1:zero $A i32:5000
pcase hist_global atomics.cu hist_global 8 128 "1:u32:exact" \
  $A u8buf:10000:rand:11 $A u32buf:256:zero $A i32:10000
pcase hist_shared atomics.cu hist_shared 8 128 "1:u32:exact" \
  $A u8buf:10000:rand:12 $A u32buf:256:zero $A i32:10000
pcase max_cas atomics.cu max_cas 12 256 "1:i32:exact" \
  $A i32buf:3000:rand:13 $A i32buf:1:fill=-2147483648 $A i32:3000
pcase loop_mod7 divergent.cu loop_mod7 4 256 "0:i32:exact" $A i32buf:1000:zero $A i32:1000
pcase collatz divergent.cu collatz 12 256 "1:u32:exact" \
  $A u32buf:3000:iota $A u32buf:3000:zero $A i32:3000
pcase call_device device_func.cu call_device 3 256 "2:i32:exact" \
  $A i32buf:700:rand:14 $A i32buf:700:rand:15 $A i32buf:700:zero $A i32:700
pcase spin_lock spinlock.cu spin_in_order 1 32 "1:i32:exact" $A i32buf:2:zero $A i32buf:32:zero
pcase int_ops int_ops.cu int_ops 2 256 "2:u32:exact" \
  $A u32buf:500:rand:16 $A u32buf:500:rand:17 $A u32buf:12000:zero $A i32:500
pcase float_ops float_ops.cu float_ops 4 256 "2:f32:ulp 3:i32:exact 4:f64:exact 5:u32:exact" \
  $A f32buf:1000:rand:18 $A f32buf:1000:rand:19 $A f32buf:14000:zero $A i32buf:6000:zero \
  $A f64buf:4000:zero $A u32buf:2000:zero $A i32:1000
# ptxas fuses mul+add/sub without rounding modifier into one fma (sim_contract.c)
pcase fma_contract contract.cu fma_contract 8 128 "3:f32:exact 4:f64:exact" \
  $A f32buf:1024:rand:23 $A f32buf:1024:rand:24 $A f32buf:1024:rand:25 $A f32buf:5120:zero \
  $A f64buf:2048:zero $A i32:1024
# and the half types' pairs into HFMA2 (f16, f16x2) and HFMA2.BF16_V2 (bf16, bf16x2)
pcase fma_contract_half contract.cu fma_contract_half 4 128 "3:u32:exact" \
  $A u32buf:512:rand:31 $A u32buf:512:rand:32 $A u32buf:512:rand:33 $A u32buf:14336:zero $A i32:512
# redux.sync with each group of a warp its own membermask (labeled_partition + reduce)
pcase redux_groups ptxops.cu redux_groups 2 128 "1:u32:exact" $A u32buf:256:rand:26 \
  $A u32buf:1024:zero $A i32:256
# a NaN's sign and payload through cvt.f64.f32, add.f64, cvt.rn.f32.f64 (sim_alu.c)
pcase nan_payload ptxops.cu nan_payload 2 128 "1:u32:exact 2:u64:exact" $A u32buf:256:rand:27 \
  $A u32buf:256:zero $A u64buf:256:zero $A i32:256
pcase warp_vote warp_vote.cu warp_vote 2 64 "1:u32:exact" $A i32buf:128:rand:20 $A u32buf:1024:zero
pcase warp_redux warp_vote.cu warp_redux 2 64 "1:u32:exact" $A u32buf:128:rand:21 $A u32buf:768:zero
pcase shuffles warp_shuffle.cu shuffles 2 64 "1:i32:exact" $A i32buf:128:rand:22 $A i32buf:1280:zero
pcase poly_const const_mem.cu poly_const 4 256 "1:f32:exact" \
  $A f32buf:1000:rand:23 $A f32buf:1000:zero $A i32:1000
# reads past the end of __constant__ arrays (dct8x8's Q, bilateralFilter's cGaussian): the
# GPU reads the bytes that follow in constant bank 3, laid out by ptxas (sim_const.c): the
# neighbour's, the padding, and 256+ bytes past the last variable, which the emulator takes
# as zero; the emulator warns at the .cu line and runs on
pcase const_overread const_overread.cu const_overread 1 96 "0:u32:exact" \
  $A u32buf:96:fill=7 $A i32:96
# reads through a __constant__ array that leave the 64 KB bank (past its end: a 64 KB filter
# indexed with a larger size; before its start): zeros on the GPU, no fault
pcase const_outside_end const_overread.cu const_far 1 64 "0:u32:exact" $A u32buf:64:fill=7 $A i32:16380
pcase const_outside_start const_overread.cu const_far 1 64 "0:u32:exact" $A u32buf:64:fill=7 $A i32:-10
# cudaGraphSetConditional outside a graph (graphConditionalNodes' kernels): ptxas resolves it
# itself (a call through the driver's table, c[0x4], as vprintf), so the PTX loads as it is;
# the buffer shows the kernel's own writes. The H100 stops the kernel at a handle no graph
# made (proof_const_graph_h100.txt: no buffer came back), where the emulator runs the call
# and reports the values set: a known difference, kept so this case shows it
pcase graph_cond graph_cond.cu graph_cond 4 32 "1:i32:exact" \
  $A i32buf:4:iota $A i32buf:4:zero $A u64:1234 $A u64:99
pcase vec4_scale vector_load.cu vec4_scale 1 256 "1:f32:exact" \
  $A f32buf:1024:rand:24 $A f32buf:1024:zero $A i32:256 $A f32:1.5
pcase vec2_swap vector_load.cu vec2_swap 2 256 "1:f32:exact" \
  $A f32buf:1024:rand:25 $A f32buf:1024:zero $A i32:512
pcase coverage coverage.cu coverage 1 64 "1:f32:exact 2:u32:order 3:u64:exact 4:f64:exact" \
  $A f32buf:64:rand:27 $A f32buf:257:zero $A u32buf:512:zero $A u64buf:3:fill=99999 $A f64buf:65:zero
pcase dyn_smem dyn_smem.cu reverse_block 4 128 "1:f32:exact" --smem 512 \
  $A f32buf:512:rand:26 $A f32buf:512:zero
# cooperative launches and clusters (issue 18): a kernel that uses grid.sync() is launched
# cooperatively on both backends (cuLaunchKernelEx's cooperative attribute on the GPU);
# --cooperative and --cluster pass through to both
pcase grid_sync grid_sync.cu grid_reduce 20 256 "1:i32:exact 2:i32:exact" \
  $A i32buf:50000:rand:41 $A i32buf:20:zero $A i32buf:20:zero $A i32:50000
pcase coop_counter grid_sync.cu counter_barrier 8 64 "1:i32:exact" --cooperative \
  $A i32buf:1:zero $A i32buf:512:zero
pcase cluster_hist cluster.cu dsmem_hist 8 128 "1:u32:exact" --smem 64 \
  $A u32buf:5000:rand:42 $A u32buf:128:zero $A i32:5000 $A i32:64
pcase cluster_nb_2x2 cluster.cu neighbour 4,4 64 "0:i32:exact" --cluster 2,2 $A i32buf:96:zero
pcase cluster_nb_4x1 cluster.cu neighbour 4,4 64 "0:i32:exact" --cluster 4 $A i32buf:96:zero
pcase cluster_nb_none cluster.cu neighbour 4,4 64 "0:i32:exact" $A i32buf:96:zero
# cooperative groups' tiles of 64 to 512 threads (cg_tiles.cu): their barriers and exchange
# slots live in the block's reserved shared memory (%reserved_smem_offset_1). The registers'
# values are the driver's on the GPU and the emulator's own (order: told, not required; with
# PROVE_KEEP=1 the GPU's are in differ/cg_reserved_regs.gpu.0.bin: begin end cap off0 off1)
pcase cg_tile64_sum cg_tiles.cu tile64_sum 3 256 "1:i32:exact 2:u32:exact" \
  $A i32buf:768:rand:51 $A i32buf:12:zero $A u32buf:3072:zero
pcase cg_tile128_sum cg_tiles.cu tile128_sum 3 256 "1:i32:exact 2:u32:exact" \
  $A i32buf:768:rand:51 $A i32buf:6:zero $A u32buf:3072:zero
pcase cg_tile128_exchange cg_tiles.cu tile128_exchange 2 512 "1:i32:exact" \
  $A i32buf:1024:rand:52 $A i32buf:4096:zero
pcase cg_tile_memory cg_tiles.cu tile_memory_nested 2 512 "1:i32:exact 2:i32:exact" \
  $A i32buf:1024:rand:53 $A i32buf:4:zero $A i32buf:16:zero
pcase cg_reserved_regs cg_tiles.cu reserved_smem_regs 1 32 "0:u32:order" $A u32buf:6:zero

# Tensor cores (tests/e2e/kernels/mma.cu). mma.sync takes each lane's registers raw, so the
# fragment layouts are what is compared. Exact: f16/bf16 rand values (k/1024 - 1, k/128 - 1)
# with C = 0 sum exactly in f32 in any order; iota integers and int8 are exact; ldmatrix and
# stmatrix move bits. ulp: random C, tf32 from full f32 mantissas (the low 13 bits must be
# ignored), f64 rand and f16 accumulators, where the sums are not exact: the emulator follows
# the published model of the H100's tensor cores (sim_mma.c) for f16/bf16/tf32 and a chain of
# fmas for f64; "identical" in proof.csv says whether that is bit for bit.
pcase mma_f16_k16 mma.cu mma_f16_k16 1 32 "3:f32:exact" \
  $A f16buf:256:rand:40 $A f16buf:128:rand:41 $A f32buf:128:zero $A f32buf:128:zero
pcase mma_f16_k16_c mma.cu mma_f16_k16 1 32 "3:f32:ulp" \
  $A f16buf:256:rand:40 $A f16buf:128:rand:41 $A f32buf:128:rand:42 $A f32buf:128:zero
pcase mma_f16_k8 mma.cu mma_f16_k8 1 32 "3:f32:exact" \
  $A f16buf:128:rand:43 $A f16buf:64:rand:44 $A f32buf:128:zero $A f32buf:128:zero
pcase mma_f16_f16acc mma.cu mma_f16_k16_f16acc 1 32 "3:u32:ulp" \
  $A f16buf:256:rand:45 $A f16buf:128:rand:46 $A f16buf:128:rand:47 $A u32buf:64:zero
pcase mma_bf16_k16 mma.cu mma_bf16_k16 1 32 "3:f32:exact" \
  $A bf16buf:256:rand:48 $A bf16buf:128:rand:49 $A f32buf:128:zero $A f32buf:128:zero
pcase mma_bf16_k8 mma.cu mma_bf16_k8 1 32 "3:f32:exact" \
  $A bf16buf:128:rand:63 $A bf16buf:64:rand:64 $A f32buf:128:zero $A f32buf:128:zero
pcase mma_tf32_k8 mma.cu mma_tf32_k8 1 32 "3:f32:exact" \
  $A f32buf:128:iota $A f32buf:64:iota $A f32buf:128:iota $A f32buf:128:zero
pcase mma_tf32_k8_rand mma.cu mma_tf32_k8 1 32 "3:f32:ulp" \
  $A f32buf:128:rand:50 $A f32buf:64:rand:51 $A f32buf:128:rand:52 $A f32buf:128:zero
pcase mma_tf32_k4_rand mma.cu mma_tf32_k4 1 32 "3:f32:ulp" \
  $A f32buf:64:rand:53 $A f32buf:32:rand:54 $A f32buf:128:zero $A f32buf:128:zero
pcase mma_f64 mma.cu mma_f64 1 32 "3:f64:exact" \
  $A f64buf:32:iota $A f64buf:32:iota $A f64buf:64:iota $A f64buf:64:zero
pcase mma_f64_rand mma.cu mma_f64 1 32 "3:f64:ulp" \
  $A f64buf:32:rand:55 $A f64buf:32:rand:56 $A f64buf:64:rand:57 $A f64buf:64:zero
pcase mma_s8_k32 mma.cu mma_s8_k32 1 32 "3:i32:exact" \
  $A i8buf:512:rand:58 $A i8buf:256:rand:59 $A i32buf:128:rand:60 $A i32buf:128:zero
pcase mma_u8s8_k32_sat mma.cu mma_u8s8_k32_sat 1 32 "3:i32:exact" \
  $A u8buf:512:rand:65 $A i8buf:256:rand:66 $A i32buf:128:rand:67 $A i32buf:128:zero
pcase mma_s8u8_k16 mma.cu mma_s8u8_k16 1 32 "3:i32:exact" \
  $A i8buf:256:rand:68 $A u8buf:128:rand:69 $A i32buf:128:rand:70 $A i32buf:128:zero
pcase mma_s8_m8n8k16 mma.cu mma_s8_m8n8k16 1 32 "3:i32:exact" \
  $A i8buf:128:rand:71 $A i8buf:128:rand:72 $A i32buf:64:rand:73 $A i32buf:64:zero
pcase mma_u8_m8n8k16_sat mma.cu mma_u8_m8n8k16_sat 1 32 "3:i32:exact" \
  $A u8buf:128:rand:74 $A u8buf:128:rand:75 $A i32buf:64:rand:76 $A i32buf:64:zero
pcase ldmatrix mma.cu ldsm 1 32 "1:u32:exact" $A u16buf:256:rand:61 $A u32buf:768:zero
pcase stmatrix mma.cu stsm 1 32 "1:u32:exact" $A u32buf:128:rand:62 $A u16buf:1536:zero
# wmma: D, and every element of the A, B and C fragments (their layout is the GPU's own;
# the emulator's is read off ptxas's SASS). iota inputs are distinct exact integers.
wm() {  # wm NAME KERNEL ABTYPE CTYPE FTYPE MODE-OF-D [INIT-A INIT-B INIT-C]
  pcase "$1" mma.cu "$2" 1 32 "3:$4:$6 4:u32:exact 5:u32:exact 6:u32:exact" \
    $A "$3buf:1024:${7:-iota}" $A "$3buf:1024:${8:-iota}" $A "$4buf:1024:${9:-iota}" \
    $A "$4buf:1024:zero" $A "$5buf:512:zero" $A "$5buf:512:zero" $A "$4buf:256:zero"
}
wm wmma_f16_rc wmma_f16_rc f16 f32 f16 exact
wm wmma_f16_rc_rand wmma_f16_rc f16 f32 f16 exact rand:77 rand:78 zero
wm wmma_f16_cr wmma_f16_cr f16 f32 f16 exact
wm wmma_f16_rr_h wmma_f16_rr_h f16 f16 f16 ulp rand:79 rand:80 rand:81
wm wmma_f16_m32 wmma_f16_m32 f16 f32 f16 exact
wm wmma_f16_m8 wmma_f16_m8 f16 f32 f16 exact
wm wmma_bf16 wmma_bf16 bf16 f32 bf16 exact
wm wmma_tf32 wmma_tf32 f32 f32 f32 exact
# full-mantissa tf32 with a random C: two HMMA.1684 per k8 step, each rounded (sim_mma.c)
wm wmma_tf32_rand wmma_tf32 f32 f32 f32 exact rand:82 rand:83 rand:84
wm wmma_f64 wmma_f64 f64 f64 f64 exact
wm wmma_s8 wmma_s8 i8 i32 i8 exact
wm wmma_u8 wmma_u8 u8 i32 u8 exact
# the CUDA 9 blog's wmma GEMM as public collections carry it: three accumulating mma per tile,
# so the H100's truncating sums show (ulp: how far the emulator's model is from it)
pcase wmma_blog_gemm mma.cu wmma_blog_gemm 2,1 128,4 "2:f32:ulp" \
  $A f16buf:4608:rand:82 $A f16buf:3072:rand:83 $A f32buf:6144:rand:84 \
  $A i32:96 $A i32:64 $A i32:48 $A f32:2 $A f32:-1
# bulk copies (cp.async.bulk: cuda::memcpy_async on a barrier, memcpy_async_tx, bulk store,
# cp.reduce.async.bulk with integer-valued floats, exact in any order)
pcase bulk_tiles bulk_copy.cu bulk_tiles 1 128 "1:f32:exact" \
  $A f32buf:640:rand:61 $A f32buf:640:zero $A i32:5
pcase bulk_group_copy bulk_copy.cu bulk_group_copy 3 128 "1:f32:exact" \
  $A f32buf:384:rand:64 $A f32buf:384:zero
pcase bulk_ptx_wrappers bulk_copy.cu bulk_ptx_wrappers 2 64 "1:f32:exact" \
  $A f32buf:128:rand:65 $A f32buf:128:zero
pcase bulk_roundtrip bulk_copy.cu bulk_roundtrip 3 128 "1:f32:exact" \
  $A f32buf:384:rand:62 $A f32buf:384:zero
pcase bulk_reduce_add bulk_copy.cu bulk_reduce_add 4 64 "1:f32:exact" \
  $A f32buf:256:iota $A f32buf:64:fill=1
# tensor copies (TMA): tensor maps made by cuTensorMapEncodeTiled on the GPU, boxes past the
# tensor's edges (zeros in, not written out), rows padded to a multiple of 16 bytes
pcase tma_f32 tma.cu tma_f32 2,3 128 "0:f32:exact 1:f32:exact 2:u32:exact" \
  $A tmap:50x37:208:32x16:f32buf:1924:rand:71 $A tmap:50x37:208:32x16:f32buf:1924:zero \
  $A u32buf:3072:fill=7
pcase tma_f16 tma.cu tma_f16 3,2 128 "1:u16:exact 2:u32:exact" \
  $A tmap:70x20:144:32x16:f16buf:1440:rand:71 $A tmap:70x20:144:32x16:f16buf:1440:zero \
  $A u32buf:1536:fill=7
pcase tma_u8 tma.cu tma_u8 2,3 128 "1:u8:exact 2:u32:exact" \
  $A tmap:45x33:64:32x16:u8buf:2112:rand:71 $A tmap:45x33:64:32x16:u8buf:2112:zero \
  $A u32buf:768:fill=7
pcase tma_box3d tma.cu tma_box3d 2 64 "1:f32:exact" \
  $A tmap:12x5x3:-:8x4x2:f32buf:180:iota $A f32buf:128:fill=-1
# texture and surface objects (texture.cu): cuTexObjectCreate/cuSurfObjectCreate over CUDA
# arrays (pitch2D and linear memory where res= says) on the GPU. Steps of 0.3/0.7 give
# fractions that are not multiples of 1/256, so the linear cases test the 8-bit weights; iota
# texels keep the blends exact in f32 whatever the order of the sums, rand ones are in ULPs.
T=texture.cu
S8="f32:-0.5 f32:0.1875 f32:-0.25 f32:0.375"          # normalised: -0.5 .. 2.3, -0.25 .. 2.4
SU="f32:-2.5 f32:0.75 f32:-1.5 f32:0.625"             # unnormalised: -2.5 .. 8.75, -1.5 .. 2.9
SL="f32:-1 f32:0.3 f32:-0.6 f32:0.7"                  # linear: fractions off the 1/256 grid
targs() { local r=() v; for v in "$@"; do r+=($A "$v"); done; echo "${r[@]}"; }
pcase tex2d_point_wrap $T tex2d_f4 1 16,8 "1:f32:exact" $(targs tex2d:8x4:f32x4:iota:norm=1,addr=wrap f32buf:512:zero $S8)
pcase tex2d_point_mirror $T tex2d_f4 1 16,8 "1:f32:exact" $(targs tex2d:8x4:f32x4:iota:norm=1,addr=mirror f32buf:512:zero $S8)
pcase tex2d_point_clamp $T tex2d_f4 1 16,8 "1:f32:exact" $(targs tex2d:8x4:f32x4:iota:addr=clamp f32buf:512:zero $SU)
pcase tex2d_point_border $T tex2d_f4 1 16,8 "1:f32:exact" $(targs tex2d:8x4:f32x4:iota:addr=border f32buf:512:zero $SU)
pcase tex2d_wrap_unnorm $T tex2d_f4 1 16,8 "1:f32:exact" $(targs tex2d:8x4:f32x4:iota:addr=wrap f32buf:512:zero $SU)
pcase tex2d_one_channel $T tex2d_f4 1 16,8 "1:f32:exact" $(targs tex2d:8x4:f32:iota:norm=1,addr=wrap f32buf:512:zero $S8)
pcase tex2d_linear_clamp $T tex2d_f1 1 32,8 "1:f32:exact" $(targs tex2d:8x4:f32:iota:filter=linear f32buf:256:zero $SL)
pcase tex2d_linear_border $T tex2d_f1 1 32,8 "1:f32:exact" $(targs tex2d:8x4:f32:iota:filter=linear,addr=border f32buf:256:zero $SL)
pcase tex2d_linear_wrap_norm $T tex2d_f4 1 16,8 "1:f32:exact" $(targs tex2d:8x4:f32x2:iota:filter=linear,norm=1,addr=wrap f32buf:512:zero f32:-0.3 f32:0.17 f32:-0.2 f32:0.31)
pcase tex2d_linear_rand $T tex2d_f1 1 32,8 "1:f32:ulp" $(targs tex2d:8x4:f32:rand:91:filter=linear f32buf:256:zero $SL)
pcase tex2d_linear_u8norm $T tex2d_f4 1 16,8 "1:f32:ulp" $(targs tex2d:8x4:u8x4:rand:92:filter=linear,read=norm,norm=1,addr=mirror f32buf:512:zero f32:-0.3 f32:0.17 f32:-0.2 f32:0.31)
pcase tex2d_linear_f16 $T tex2d_f4 1 16,8 "1:f32:ulp" $(targs tex2d:8x4:f16x4:rand:93:filter=linear f32buf:512:zero $SL)
pcase tex2d_u8_elem $T tex2d_u4 1 16,8 "1:u32:exact" $(targs tex2d:8x4:u8x4:rand:94 u32buf:512:zero $SU)
pcase tex2d_i16_norm $T tex2d_f4 1 16,8 "1:f32:exact" $(targs tex2d:8x4:i16x2:rand:95:read=norm f32buf:512:zero $SU)
pcase tex2d_pitch2d $T tex2d_f1 1 32,8 "1:f32:exact" $(targs tex2d:16x8:f32:iota:res=pitch,filter=linear f32buf:256:zero $SL)
pcase tex1d_fetch $T fetch1d 1 1024 "1:f32:exact" $(targs tex1d:1000:f32:rand:96 f32buf:1024:zero i32:-5)
pcase tex1d_linear_wrap $T tex1d_f1 1 64 "1:f32:exact" $(targs tex1d:16:f32:iota:res=array,filter=linear,norm=1,addr=wrap f32buf:64:zero f32:-0.7 f32:0.049)
pcase tld4_gather $T gather_g 1 16,8 "1:f32:exact" $(targs tex2d:8x4:f32x2:iota f32buf:512:zero $SL)
pcase tld4_gather_u8 $T gather_g 1 16,8 "1:f32:exact" $(targs tex2d:8x4:u8x4:rand:97:read=norm,norm=1,addr=wrap f32buf:512:zero $S8)
pcase tex3d_linear $T tex3d_f1 1 8,8 "1:f32:exact" $(targs tex3d:4x4x4:f32:iota:filter=linear f32buf:64:zero f32:-0.3 f32:0.55 f32:1.3)
# formats and texels the filtering rules were not fitted on (sim_tex.c: fitted on f32, f16 and
# u8 normalised): 16-bit and signed 8-bit normalised, half with two channels, 3-D rand texels
pcase tex2d_linear_u16norm $T tex2d_f4 1 16,8 "1:f32:exact" $(targs tex2d:8x4:u16x4:rand:97:filter=linear,read=norm f32buf:512:zero $SL)
pcase tex2d_linear_i8norm $T tex2d_f4 1 16,8 "1:f32:exact" $(targs tex2d:8x4:i8x4:rand:98:filter=linear,read=norm,norm=1,addr=wrap f32buf:512:zero f32:-0.3 f32:0.17 f32:-0.2 f32:0.31)
pcase tex2d_linear_i16norm $T tex2d_f4 1 16,8 "1:f32:exact" $(targs tex2d:8x4:i16x2:rand:99:filter=linear,read=norm,addr=border f32buf:512:zero $SL)
pcase tex2d_linear_f16x2 $T tex2d_f4 1 16,8 "1:f32:exact" $(targs tex2d:8x4:f16x2:rand:100:filter=linear,norm=1,addr=mirror f32buf:512:zero f32:-0.3 f32:0.17 f32:-0.2 f32:0.31)
pcase tex3d_linear_rand $T tex3d_f1 1 8,8 "1:f32:exact" $(targs tex3d:4x4x4:f32:rand:101:filter=linear f32buf:64:zero f32:-0.3 f32:0.55 f32:1.3)
# and again on other texels, the check of the rules fitted on the three cases above
pcase tex2d_linear_u16norm_b $T tex2d_f4 1 16,8 "1:f32:exact" $(targs tex2d:8x4:u16x4:rand:102:filter=linear,read=norm,norm=1,addr=mirror f32buf:512:zero f32:-0.3 f32:0.17 f32:-0.2 f32:0.31)
pcase tex2d_linear_i8norm_b $T tex2d_f4 1 16,8 "1:f32:exact" $(targs tex2d:8x4:i8x4:rand:103:filter=linear,read=norm f32buf:512:zero $SL)
pcase tex2d_linear_i16norm_b $T tex2d_f4 1 16,8 "1:f32:exact" $(targs tex2d:8x4:i16x4:rand:104:filter=linear,read=norm,norm=1,addr=wrap f32buf:512:zero f32:-0.3 f32:0.17 f32:-0.2 f32:0.31)
pcase tex3d_linear_i8norm $T tex3d_f1 1 8,8 "1:f32:exact" $(targs tex3d:4x4x4:i8:rand:105:filter=linear,read=norm f32buf:64:zero f32:-0.3 f32:0.55 f32:1.3)
pcase tex2d_layered $T tex2dlayered_f1 1 8,8 "1:f32:exact" $(targs tex2dlayered:4x4x3:f32:iota:filter=linear f32buf:64:zero f32:-0.3 f32:0.55 i32:2)
pcase texcube $T texcube_f1 1 4,4 "1:f32:exact" $(targs texcube:4:f32:iota f32buf:16:zero f32:-0.9 f32:0.55 f32:-0.8 f32:0.6)
pcase texcube_layered $T texcubelayered_f1 1 4,4 "1:f32:exact" $(targs texcubelayered:4x3:f32:iota f32buf:16:zero f32:-0.9 f32:0.55 f32:-0.8 f32:0.6 i32:2)
# tex.level and tex.grad (tex_lod.cu: tex2DLod, tex2DGrad, tex1DLod, tex3DGrad) on textures of
# one level (CUDA arrays, not mipmapped arrays): the GPU samples level 0 whatever the level of
# detail, so each must also equal the plain case above with the same texture and steps
# (tex2d_linear_wrap_norm's texture here, with S8; tex1d_linear_wrap; tex3d_linear)
TL=tex_lod.cu
pcase tex2d_lod $TL tex2d_lod_f4 1 16,8 "1:f32:exact" $(targs tex2d:8x4:f32x4:iota:filter=linear,norm=1,addr=wrap f32buf:512:zero $S8 f32:1.5)
pcase tex2d_lod_plain $T tex2d_f4 1 16,8 "1:f32:exact" $(targs tex2d:8x4:f32x4:iota:filter=linear,norm=1,addr=wrap f32buf:512:zero $S8)
pcase tex2d_grad $TL tex2d_grad_f4 1 16,8 "1:f32:exact" $(targs tex2d:8x4:f32x4:iota:filter=linear,norm=1,addr=wrap f32buf:512:zero $S8 f32:0.7)
pcase tex1d_lod $TL tex1d_lod_f1 1 64 "1:f32:exact" $(targs tex1d:16:f32:iota:res=array,filter=linear,norm=1,addr=wrap f32buf:64:zero f32:-0.7 f32:0.049 f32:0.25)
pcase tex3d_grad $TL tex3d_grad_f1 1 8,8 "1:f32:exact" $(targs tex3d:4x4x4:f32:iota:filter=linear f32buf:64:zero f32:-0.3 f32:0.55 f32:1.3)
pcase surfcube $T surfcube_copy 1 4,4,6 "1:f32:exact" $(targs surfcube:4:f32:rand:90 surfcube:4:f32:zero)
pcase surf2d_f32 $T surf_scale 1 8,4 "1:f32:exact" $(targs surf2d:6x3:f32:rand:98 surf2d:6x3:f32:zero i32:6 i32:3)
pcase surf2d_u8x4 $T surf_u8x4 1 8,4 "1:u8:exact" $(targs surf2d:7x3:u8x4:rand:99 surf2d:7x3:u8x4:zero i32:7 i32:3)
# calls through pointers: virtual functions of objects built in the kernel, function pointers
pcase virtual_shapes virtual.cu virtual_shapes 2 128 "1:f32:exact" \
  $A f32buf:200:rand:81 $A f32buf:200:zero $A i32:200
pcase function_pointers virtual.cu function_pointers 2 128 "1:i32:exact" \
  $A i32buf:200:rand:82 $A i32buf:200:zero $A i32:200
pcase virtual_destructor virtual.cu virtual_destructor_and_constant_table 1 128 "1:f32:exact" \
  $A f32buf:100:rand:83 $A f32buf:100:zero $A i32:100
# a struct of 32000 bytes by value (kernel parameters may take 32764 bytes since CUDA 12.1)
pcase big_param args.cu big_param 32 256 "1:i32:exact" \
  $A "bytes:$(python3 -c 'import struct; print(struct.pack("<8000i", *range(8000)).hex())')" \
  $A i32buf:8000:zero
# in-kernel malloc/free and new/delete (heap.cu): per-thread blocks written and summed, the
# 8 MiB default heap refusing 16 MiB (NULL, handled) and giving 1 MiB
pcase heap_per_thread heap.cu heap_per_thread 4 256 "0:i32:exact" $A i32buf:1024:zero $A i32:10
pcase heap_new_delete heap.cu heap_new_delete 4 256 "0:i32:exact" $A i32buf:1024:zero $A i32:7
pcase heap_exhaust heap.cu heap_exhaust 1 32 "0:i32:exact" $A i32buf:3:zero $A u64:16777216 $A u64:1048576
# how much a heap of --heap BYTES holds is the allocator's own: on the H100 (2026-11-26) a
# 1 MiB heap gave 2 MiB where the emulator's refuses it, so this case is compared, not required
pcase heap_small heap.cu heap_exhaust 1 32 "0:i32:order" --heap 1048576 $A i32buf:3:zero $A u64:2097152 $A u64:262144
# order.cu (warplab emu --order, --order-check): an integer histogram and how many elements
# push appends are the same in every order of warps and blocks, so bit-exact; where push puts
# each element is the scheduler's (the emulator's order check calls it order-dependent), so
# compared, not required
pcase order_histogram order.cu histogram 8 256 "1:u32:exact" \
  $A i32buf:2048:rand:3 $A u32buf:16:zero $A i32:2048
pcase order_push order.cu push 4 64 "2:i32:exact 1:i32:order" \
  $A i32buf:256:iota $A i32buf:256:zero $A i32buf:1:zero $A i32:256
# recursion (recursion.cu): fib to depths that differ lane by lane, a walk the lanes' data
# steer, a local array per activation changed by the next one down, mutual recursion,
# recursion through a function pointer, 64 activations in CUDA's 1 KiB stack and 201 in a
# 4 KiB one (--stack: the GPU's cudaLimitStackSize too)
pcase rec_fact_fib recursion.cu fact_fib 3 64 "1:u32:exact" $A u32buf:150:rand:91 $A u32buf:300:zero $A i32:150
# (tree: ptxas gives it a 32-byte frame, 50 deep pass 1 KiB on the GPU: --stack 4096)
pcase rec_tree_walk recursion.cu tree_walk 3 64 "1:u32:exact" --stack 4096 $A u32buf:150:rand:95 $A u32buf:150:zero $A i32:150
pcase rec_local_frames recursion.cu local_frames 3 64 "1:u32:exact" $A u32buf:150:rand:92 $A u32buf:150:zero $A i32:150
pcase rec_mutual recursion.cu mutual 3 64 "1:u32:exact" $A u32buf:150:rand:93 $A u32buf:150:zero $A i32:150
pcase rec_pointer recursion.cu pointer_recursion 3 64 "1:u32:exact" $A u32buf:150:rand:94 $A u32buf:150:zero $A i32:150
pcase rec_deep_1k recursion.cu deep_recursion 1 32 "1:u32:exact" $A u32buf:32:iota $A u32buf:32:zero $A i32:32
pcase rec_deep_4k recursion.cu deep_recursion 2 64 "1:u32:exact" --stack 4096 $A u32buf:128:fill=200 $A u32buf:128:zero $A i32:128
# heavy: ptxas spills it to a 32-byte frame; 41 activations need 1312 bytes: --stack 2048
pcase rec_heavy_2k recursion.cu heavy_recursion 1 32 "1:u32:exact" --stack 2048 $A u32buf:32:fill=40 $A u32buf:32:zero $A i32:32
# tf32 GEMMs from a zero accumulator (wmma_tf32_gemm.cu): the tensor cores align a block to
# its largest product unnormalised and leave C = 0 out of it (sim_mma.c); the GEMM has the
# shape of cuda-samples' simple_wmma_tf32gemm (__float_to_tf32, fill_fragment 0, k / 8 wmma
# steps, alpha * acc + beta * c), 132 of its 65536 words change with that; zero_c is one such
# sum, 0x3e0fffff in every word. mma_tf32_k4_rand (C = 0) should now be identical too.
pcase wmma_tf32_gemm wmma_tf32_gemm.cu wmma_tf32_gemm 4,16 128 "3:f32:exact" \
  $A f32buf:16384:rand:85 $A f32buf:16384:rand:86 $A f32buf:65536:rand:87 $A f32buf:65536:zero \
  $A i32:256 $A i32:256 $A i32:64 $A f32:1.5 $A f32:1.5
pcase wmma_tf32_zero_c wmma_tf32_gemm.cu wmma_tf32_zero_c 1 32 "0:f32:exact" $A f32buf:256:zero
# the shared-memory size registers (smem_sizes.cu): 400 bytes of the block's own, --smem 1000;
# the emulator gives %dynamic_smem_size 1000, %total_smem_size 1408 (as the H100: 1400 in 128-byte units), %aggr_smem_size 2424
# (the total and the 1 KB reserve), %reserved_smem_offset_cap 1024
pcase smem_sizes smem_sizes.cu smem_sizes 1 32 "0:u32:exact" --smem 1000 $A u32buf:4:zero

{
  echo "warplab emulator vs $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
  echo "same PTX (nvcc $(nvcc --version | grep -o 'release [0-9.]*'), sm_90), same inputs, every output buffer compared"
  echo
  if command -v column >/dev/null 2>&1; then column -s, -t "$CSV"; else tr , '\t' <"$CSV"; fi
  echo
  echo "exact buffers that differ: $fails"
} >"$OUT/proof.txt"

# What the hardware says about the faults the emulator reports (compute-sanitizer's words).
S=tests/gpu/kernels/sync_semantics.cu
nvcc -arch=sm_90 -ptx -lineinfo "$K/barrier_divergence.cu" -o "$W/bd.ptx"
nvcc -arch=sm_90 -ptx -lineinfo "$K/oob.cu" -o "$W/oob.ptx"
nvcc -arch=sm_90 -ptx -lineinfo "$S" -o "$W/sync.ptx"
{
  echo "== half_barrier (__syncthreads in if (threadIdx.x < 16)), gpu, no sanitizer"
  timeout -s KILL 20 "$WL" emu "$W/bd.ptx" --kernel half_barrier --grid 1 --block 64 $A f32buf:64:zero --backend gpu; echo "rc=$?"
  echo "== half_barrier under compute-sanitizer synccheck"
  timeout -s KILL 60 compute-sanitizer --tool synccheck "$WL" emu "$W/bd.ptx" --kernel half_barrier --grid 1 --block 64 $A f32buf:64:zero --backend gpu; echo "rc=$?"
  echo "== half_barrier on the emulator"
  "$WL" emu "$W/bd.ptx" --kernel half_barrier --grid 1 --block 64 $A f32buf:64:zero; echo "rc=$?"
  echo "== early_exit_barrier (return before __syncthreads) under synccheck"
  timeout -s KILL 60 compute-sanitizer --tool synccheck "$WL" emu "$W/sync.ptx" --kernel early_exit_barrier --grid 1 --block 64 $A f32buf:64:zero $A i32:40 --backend gpu; echo "rc=$?"
  echo "== early_exit_barrier on the emulator"
  "$WL" emu "$W/sync.ptx" --kernel early_exit_barrier --grid 1 --block 64 $A f32buf:64:zero $A i32:40; echo "rc=$?"
  echo "== oob_write under compute-sanitizer memcheck"
  timeout -s KILL 60 compute-sanitizer --tool memcheck "$WL" emu "$W/oob.ptx" --kernel oob_write --grid 2 --block 64 $A f32buf:100:rand $A f32buf:100:zero $A i32:100 --backend gpu 2>&1 | head -40; echo "rc=$?"
  echo "== oob_write on the emulator"
  "$WL" emu "$W/oob.ptx" --kernel oob_write --grid 2 --block 64 $A f32buf:100:rand $A f32buf:100:zero $A i32:100; echo "rc=$?"
  # a runaway recursion past the 1 KiB stack: the GPU's error beside the emulator's fault
  nvcc -arch=sm_90 -ptx -lineinfo "$K/recursion.cu" -o "$W/rec.ptx"
  echo "== deep_recursion 4000000000 deep on the gpu"
  timeout -s KILL 60 "$WL" emu "$W/rec.ptx" --kernel deep_recursion --grid 2 --block 64 $A u32buf:128:fill=4000000000 $A u32buf:128:zero $A i32:128 --backend gpu; echo "rc=$?"
  echo "== deep_recursion 4000000000 deep under compute-sanitizer memcheck"
  timeout -s KILL 60 compute-sanitizer --tool memcheck "$WL" emu "$W/rec.ptx" --kernel deep_recursion --grid 2 --block 64 $A u32buf:128:fill=4000000000 $A u32buf:128:zero $A i32:128 --backend gpu 2>&1 | head -30; echo "rc=$?"
  echo "== deep_recursion 4000000000 deep on the emulator"
  "$WL" emu "$W/rec.ptx" --kernel deep_recursion --grid 2 --block 64 $A u32buf:128:fill=4000000000 $A u32buf:128:zero $A i32:128; echo "rc=$?"
  # 41 activations of heavy fit 1 KiB at the old estimate (16 bytes), not at ptxas's 32-byte
  # frame: the GPU must fail as the emulator does (stack overflow, 33 calls deep)
  echo "== heavy_recursion 40 deep in 1 KiB on the gpu"
  timeout -s KILL 60 "$WL" emu "$W/rec.ptx" --kernel heavy_recursion --grid 1 --block 32 $A u32buf:32:fill=40 $A u32buf:32:zero $A i32:32 --backend gpu; echo "rc=$?"
  echo "== heavy_recursion 40 deep in 1 KiB under compute-sanitizer memcheck"
  timeout -s KILL 60 compute-sanitizer --tool memcheck "$WL" emu "$W/rec.ptx" --kernel heavy_recursion --grid 1 --block 32 $A u32buf:32:fill=40 $A u32buf:32:zero $A i32:32 --backend gpu 2>&1 | head -30; echo "rc=$?"
  echo "== heavy_recursion 40 deep in 1 KiB on the emulator"
  "$WL" emu "$W/rec.ptx" --kernel heavy_recursion --grid 1 --block 32 $A u32buf:32:fill=40 $A u32buf:32:zero $A i32:32; echo "rc=$?"
} >"$OUT/sanitizer.txt" 2>&1

# What the GPU refuses of cooperative and cluster launches, next to the emulator's words.
nvcc -arch=sm_90 -ptx -lineinfo "$K/grid_sync.cu" -o "$W/gs.ptx"
nvcc -arch=sm_90 -ptx -lineinfo "$K/cluster.cu" -o "$W/cl.ptx"
{
  for be in gpu emu; do
    echo "== grid_reduce (grid.sync) with 100000 blocks of 256, $be"
    "$WL" emu "$W/gs.ptx" --kernel grid_reduce --grid 100000 --block 256 $A i32buf:1000:zero \
      $A i32buf:100000:zero $A i32buf:100000:zero $A i32:1000 --backend $be; echo "rc=$?"
    echo "== neighbour --grid 6 --cluster 4, $be"
    "$WL" emu "$W/cl.ptx" --kernel neighbour --grid 6 --block 32 --cluster 4 $A i32buf:36:zero \
      --backend $be; echo "rc=$?"
    echo "== dsmem_hist (__cluster_dims__(4,1,1)) with --cluster 2, $be"
    "$WL" emu "$W/cl.ptx" --kernel dsmem_hist --grid 8 --block 32 --smem 64 --cluster 2 \
      $A u32buf:10:zero $A u32buf:128:zero $A i32:10 $A i32:64 --backend $be; echo "rc=$?"
  done
} >"$OUT/coop.txt" 2>&1

# Instruction counts as ncu reports them (SASS) next to the emulator's (PTX), for issue 3.
{
  for k in "elementwise.cu add 4 256 $A f32buf:1000:rand:1 $A f32buf:1000:rand:2 $A f32buf:1000:zero $A i32:1000" \
           "matrix_add.cu matrix_add 10,25 32,8 $A f32buf:60000:rand:5 $A f32buf:60000:rand:6 $A f32buf:60000:zero $A i32:300 $A i32:200" \
           "reduce.cu reduce_shared 40 128 $A f32buf:5000:rand:8 $A f32buf:40:zero $A i32:5000" \
           "divergent.cu loop_mod7 4 256 $A i32buf:1000:zero $A i32:1000"; do
    set -- $k
    f=$1 kern=$2 g=$3 bl=$4
    shift 4
    nvcc -arch=sm_90 -ptx -lineinfo "$K/$f" -o "$W/ncu.ptx"
    echo "== $kern emulator"
    "$WL" emu "$W/ncu.ptx" --kernel "$kern" --grid "$g" --block "$bl" "$@" --json | grep -A1 '"smsp__' | grep -v -- --
    echo "== $kern ncu"
    timeout -s KILL 120 ncu --metrics smsp__inst_executed.sum,smsp__thread_inst_executed.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum \
      "$WL" emu "$W/ncu.ptx" --kernel "$kern" --grid "$g" --block "$bl" "$@" --backend gpu 2>&1 | grep -E "smsp__|l1tex__|ERR|==PROF=="
  done
  # tensor cores: ptxas's HMMA count and fragment loads/stores next to the emulator's
  nvcc -arch=sm_90 -ptx -lineinfo "$K/mma.cu" -o "$W/ncu_mma.ptx"
  set -- $A f16buf:1024:iota $A f16buf:1024:iota $A f32buf:1024:iota $A f32buf:1024:zero \
    $A f16buf:512:zero $A f16buf:512:zero $A f32buf:256:zero
  echo "== wmma_f16_rc emulator"
  "$WL" emu "$W/ncu_mma.ptx" --kernel wmma_f16_rc --grid 1 --block 32 "$@" --json | \
    grep -A1 '"smsp__inst_executed_pipe_tensor\|"smsp__sass_inst_executed_op_global' | grep -v -- --
  echo "== wmma_f16_rc ncu"
  timeout -s KILL 120 ncu --metrics smsp__inst_executed_pipe_tensor.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum \
    "$WL" emu "$W/ncu_mma.ptx" --kernel wmma_f16_rc --grid 1 --block 32 "$@" --backend gpu 2>&1 | grep -E "smsp__|ERR|==PROF=="
} >"$OUT/ncu.txt" 2>&1

# Launches a GPU refuses for their clusters, and one __launch_bounds__(T, minBlocks) allows
# (issue 22): the driver's error on the GPU beside the emulator's words, for each.
nvcc -arch=sm_90 -ptx -lineinfo "$K/limits.cu" -o "$W/limits.ptx"
{
  for k in "wide_cluster 16 32 $A i32buf:16:zero" "square_cluster 3,2 32 $A i32buf:6:zero" \
           "square_cluster 4,2 32 $A i32buf:8:zero" \
           "capped 1 256 $A f32buf:1024:rand $A f32buf:1024:zero $A i32:2"; do
    set -- $k
    kern=$1 g=$2 bl=$3
    shift 3
    for be in gpu emu; do
      echo "== $kern grid $g block $bl on $be"
      timeout -s KILL 60 "$WL" emu "$W/limits.ptx" --kernel "$kern" --grid "$g" --block "$bl" "$@" --backend "$be" 2>&1 | grep -E "CUDA_ERROR|ran cleanly|registers"; echo "rc=${PIPESTATUS[0]}"
    done
  done
} >"$OUT/launch_refusals.txt" 2>&1

# A module that calls device-runtime functions the driver's JIT does not provide (a launch
# from the device, compiled with -rdc=true): the GPU backend links it with libcudadevrt.a
# (be_cuda.c); want "ran cleanly" and out[i] = 3i + 1 on the gpu, the emulator's refusal by
# name beside it.
if [ -z "${PROVE_ONLY:-}" ] || [[ devrt =~ $PROVE_ONLY ]]; then
  {
    nvcc -arch=sm_90 -rdc=true -ptx -lineinfo "$K/cdp_launch.cu" -o "$W/cdp.ptx"
    grep -o '__cudaCDP2[A-Za-z0-9]*' "$W/cdp.ptx" | sort -u
    for be in gpu emu; do
      echo "== cdp_parent on $be"
      timeout -s KILL 60 "$WL" emu "$W/cdp.ptx" --kernel cdp_parent --grid 1 --block 32 \
        $A i32buf:200:zero $A i32:200 --dump "0=$W/cdp.$be.bin" --backend $be 2>&1 | \
        grep -E "ran cleanly|warplab|CUDA_ERROR|rror"; echo "rc=${PIPESTATUS[0]}"
    done
    python3 -c "import struct,sys; d=open(sys.argv[1],'rb').read(); v=struct.unpack('<200i',d); print('gpu out[i] == 3i+1 for all 200:', all(v[i]==3*i+1 for i in range(200)))" "$W/cdp.gpu.bin"
  } >"$OUT/devrt.txt" 2>&1
fi

# Last, because it may leave a hung kernel behind: the spin lock followed by __syncthreads().
{
  echo "== spin_then_sync on the gpu (20 s limit)"
  timeout -s KILL 20 "$WL" emu "$W/sync.ptx" --kernel spin_then_sync --grid 1 --block 32 $A i32buf:1:zero $A i32buf:32:zero --backend gpu; echo "rc=$? (137: killed after 20 s, the kernel hung)"
  echo "== spin_then_sync on the emulator, its and stack"
  "$WL" emu "$W/sync.ptx" --kernel spin_then_sync --grid 1 --block 32 $A i32buf:1:zero $A i32buf:32:zero; echo "rc=$?"
  "$WL" emu "$W/sync.ptx" --kernel spin_then_sync --grid 1 --block 32 $A i32buf:1:zero $A i32buf:32:zero --sched stack; echo "rc=$?"
} >"$OUT/spin.txt" 2>&1

cat "$OUT/proof.txt"
exit $((fails > 0))
