#!/usr/bin/env python3
"""corpus.py: every kernel of a folder of public CUDA files on the emulator and on the GPU.

    python3 tests/gpu/corpus.py WARPLAB SRCDIR OUTDIR [--include DIR]... [--backends emu,gpu]
                                [--jobs N] [--only SUBSTRING]

Issue 18 asks how much of what people write in CUDA warplab runs unchanged. This script takes
every .cu file under SRCDIR as it is (a clone of a public sample collection, never committed
here), compiles it to PTX for sm_90 with nvcc, and runs every kernel of the PTX through
`warplab emu` on each backend with the same synthetic inputs:

- parameters from the kernel's C++ signature (c++filt) where it is mangled, else from the PTX:
  a pointer is a buffer of 2^18 elements of its type (floating point: rand, integers: iota, so
  that index buffers stay in bounds), an integer scalar 256, a floating-point one 1.5, a
  struct by value its bytes as zeros, a 64-bit parameter the kernel uses as the handle of a
  texture or surface object (tex, tld4, txq, suld, sust, suq on it) an object of rand texels
  of that instruction's geometry and type (texture_spec); 8 blocks of the first shape of SHAPES (or the
  kernel's .reqntid; within its .maxntid) that the GPU runs without a fault (the inputs
  suit the kernel), the emulator at the same shape; 48 KB of dynamic shared memory when the
  kernel declares extern shared memory;
- every buffer dumped after the run and compared byte for byte between the backends
  (floating point also in ULPs).

Each kernel gets one verdict: `match` (both ran, every buffer identical), `close` (both ran,
floating-point buffers within 16 ULP: approximate intrinsics, float atomics' order), `approx`
(both ran; the kernel uses .approx instructions, whose results are the GPU's MUFU tables, and
every buffer is within 2^-14 of its largest value), `order` (the emulator's own result changes
when its blocks and warps run in reverse order, `warplab emu --order reverse`, an order CUDA
leaves open: a race between blocks or warps, the GPU's answer one of the possible ones),
`differ`, `both-fault` (the GPU and the emulator both stopped it: the synthetic inputs do not
suit it), `refused` (the emulator names a construct it does not run), `emu-check` (the GPU
ran it, the emulator's race, initialisation or mask check stopped it, in index order or, for
a result that differed, in reverse order: with these inputs the kernel reads what no thread
wrote, or races), `emu-fault` or `gpu-fault` (one backend alone), `gpu-hang` (the GPU did not
finish within --timeout, whatever the emulator said: a deadlock it found, a race, or a timeout
of its own, which the detail names; there is no reference output), `timeout` (the emulator
alone did not finish), `no-ptx` (nvcc could not compile the file alone), `no-link` (the
kernel calls a device function the file only declares, defined in another file for nvcc -rdc:
neither backend can link the module alone), `not-run` (past
--deadline). An `emu-fault` that is an access out of bounds the GPU ran through is run again
on the GPU under compute-sanitizer's memcheck: when memcheck finds errors too, it is
`both-fault`. A `differ` that neither the reverse order nor `approx` explains is also run
under other order seeds (`warplab emu --order-check 3`): when the emulator's own outputs
change, it is `order` too (slots handed out by atomicAdd, a last writer that wins).
both-fault, gpu-fault, gpu-hang, `order`, `emu-check` and `no-link` are left out of the share that
matched (LEFT_OUT), `approx` counts with `close`. A kernel is tried at each block shape of
SHAPES in turn until both backends run it cleanly. Files are compiled first,
then every kernel of every file is one job of the --jobs pool; corpus.csv is written a kernel
at a time, so a run cut short keeps what it did.
OUTDIR/corpus.csv has one row a kernel, OUTDIR/corpus.txt the summary and every refusal's
words. With --backends emu, only the emulator runs (refusals and faults, no comparison).
"""
import argparse
import concurrent.futures as cf
import csv
import json
import math
import os
import re
import struct
import subprocess
import sys
import time

N = 1 << 18

CXX_TYPES = [  # demangled C++ type -> warplab element type
    ("unsigned long long", "u64"), ("long long", "i64"), ("unsigned long", "u64"), ("long", "i64"),
    ("unsigned int", "u32"), ("int", "i32"), ("unsigned short", "u16"), ("short", "i16"),
    ("unsigned char", "u8"), ("signed char", "i8"), ("char", "i8"), ("bool", "u8"),
    ("double", "f64"), ("float", "f32"), ("__half", "f16"), ("half", "f16"),
    ("__nv_bfloat16", "bf16"), ("size_t", "u64"), ("uint", "u32"),
    ("float2", "f32"), ("float4", "f32"), ("int2", "i32"), ("int4", "i32"), ("uint4", "u32"),
    ("uchar4", "u8"), ("double2", "f64"),
]
PTX_SCALAR = {"u8": "u8", "s8": "i8", "u16": "u16", "s16": "i16", "u32": "u32", "s32": "i32",
              "b32": "u32", "u64": "u64", "s64": "i64", "b64": "u64", "f32": "f32",
              "f64": "f64", "b16": "u16", "b8": "u8", "f16": "f16"}


def demangle(names):
    try:
        out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True,
                             timeout=30).stdout.split("\n")
        return dict(zip(names, out))
    except (OSError, subprocess.TimeoutExpired):
        return {n: n for n in names}


def split_params(sig):
    """'k(float*, int, Foo<int, 2>)' -> ['float*', 'int', 'Foo<int, 2>']"""
    i = sig.find("(")
    if i < 0 or not sig.endswith(")"):
        return None
    body, depth, cur, out = sig[i + 1:-1], 0, "", []
    for ch in body:
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def cxx_elem(t):
    t = re.sub(r"\b(const|volatile|__restrict__|__restrict|restrict)\b", "", t).strip()
    for name, e in CXX_TYPES:
        if re.fullmatch(r"(std::)?" + re.escape(name) + r"\s*\*?", t.replace(" *", "*")):
            return e
    return None


def entries(ptx):
    """[(name, [(ptxtype or None, bytes, param_name)], body, directives)]"""
    out = []
    for m in re.finditer(r"\.entry\s+([\w$]+)\s*\((.*?)\)\s*([^{]*)\{", ptx, re.S):
        params = []
        for p in re.finditer(r"\.param\s+(?:\.align\s+(\d+)\s+)?\.(\w+)\s+(?:\.ptr\s+[^\n,]*?)?([\w$]+)(?:\[(\d+)\])?",
                             m.group(2)):
            ty, name, count = p.group(2), p.group(3), p.group(4)
            if count is not None:
                params.append((None, int(count), name))
            else:
                params.append((ty, int(re.sub(r"\D", "", ty) or 8) // 8, name))
        start, depth, end = m.end(), 1, m.end()
        while depth and end < len(ptx):     # the matching brace: inline asm has { } blocks
            c = ptx[end]
            depth += 1 if c == "{" else -1 if c == "}" else 0
            end += 1
        out.append((m.group(1), params, ptx[start:end - 1], m.group(3)))
    return out


TEX_USE = r"\b(tex|tld4|txq|suld|sust|suq)((?:\.\w+)*)\s[^;]*?\[\s*%s\s*[,\]]"
TEX_DIMS = {"1d": ("1d", "65536"), "2d": ("2d", "512x512"), "3d": ("3d", "64x64x64"),
            "a1d": ("1dlayered", "4096x4"), "a2d": ("2dlayered", "256x256x4"),
            "cube": ("cube", "64"), "acube": ("cubelayered", "64x2")}
SURF_TEXEL = {"b8": "u8", "b16": "u16", "b32": "u32", "b64": "u32x2"}


def texture_spec(pname, body, seed):
    """A texture or surface object argument for a .u64 parameter the kernel uses as the handle of
    tex, tld4, txq, suld, sust or suq (cudaTextureObject_t and cudaSurfaceObject_t are unsigned
    long long in a signature): its geometry and texel type from the first such instruction,
    point sampling, clamped, over rand texels. None when the parameter is no handle."""
    reg = re.search(r"ld\.param\.[ub]64\s+(%rd\d+),\s*\[" + re.escape(pname) + r"\]", body)
    if not reg:
        return None
    use = re.search(TEX_USE % re.escape(reg.group(1)), body)
    if not use:
        return None
    op, mods = use.group(1), use.group(2).split(".")[1:]
    geom = next((TEX_DIMS[m] for m in mods if m in TEX_DIMS), TEX_DIMS["2d"])
    if op in ("suld", "sust", "suq"):
        kind = "surf"
        texel = next((SURF_TEXEL[m] for m in mods if m in SURF_TEXEL), "u32")
        if "v4" in mods and "x" not in texel:
            texel += "x4"
        elif "v2" in mods and "x" not in texel:
            texel += "x2"
    else:
        kind = "tex"
        kinds = [m for m in mods if m in ("f32", "s32", "u32", "f16")]
        texel = {"s32": "i32", "u32": "u32"}.get(kinds[0] if kinds else "f32", "f32")
    return "%s%s:%s:%s:rand:%d" % (kind, geom[0], geom[1], texel, seed)


def arg_specs(name, params, body, sig, seed):
    cxx = split_params(sig) if sig != name else None
    if cxx is not None and len(cxx) != len(params):
        cxx = None
    specs, bufs = [], []
    for i, (ty, nbytes, pname) in enumerate(params):
        c = cxx[i] if cxx else None
        tex = texture_spec(pname, body, seed + i) if ty in ("u64", "b64", "s64") else None
        if tex:
            specs.append(tex)
            bufs.append(i)
            continue
        is_ptr = None
        if c is not None:
            is_ptr = c.rstrip().endswith("*")
        elif ty in ("u64", "b64", "s64"):
            reg = re.search(r"ld\.param\.[ub]64\s+(%rd\d+),\s*\[" + re.escape(pname) + r"\]", body)
            is_ptr = bool(reg and re.search(r"cvta\.to\.global\.u64\s+%rd\d+,\s*" + re.escape(reg.group(1)) + r"\b",
                                            body))
        if ty is None and not is_ptr:               # a struct by value: its bytes, zero
            specs.append("bytes:" + "00" * nbytes)
            continue
        if is_ptr:
            e = cxx_elem(c) if c else None
            if e is None:
                specs.append("u8buf:%d:iota" % (4 * N))
            elif e.startswith("f") or e == "bf16":
                specs.append("%sbuf:%d:rand:%d" % (e, N, seed + i))
            else:
                specs.append("%sbuf:%d:iota" % (e, N))
            bufs.append(i)
            continue
        e = cxx_elem(c) if c else PTX_SCALAR.get(ty, "u32")
        if e is None:
            e = PTX_SCALAR.get(ty, "u32")
        specs.append("%s:%s" % (e, "1.5" if e.startswith("f") or e == "bf16" else "8" if e in ("i8", "u8") else "256"))
    return specs, bufs


def launch_shapes(directives):
    """The block shapes to try: the kernel's .reqntid alone, else SHAPES within .maxntid."""
    m = re.search(r"\.(reqntid|maxntid)\s+(\d+)(?:\s*,\s*(\d+))?(?:\s*,\s*(\d+))?", directives)
    if not m:
        return SHAPES
    dims = [int(x) for x in m.groups()[1:] if x]
    if m.group(1) == "reqntid":
        return [",".join(str(d) for d in dims)]
    most = 1
    for d in dims:
        most *= d
    fit = [b for b in SHAPES if eval(b.replace(",", "*")) <= most]
    return fit or [str(most)]


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return 124, "", "timed out after %d s" % timeout


def ulps(a, b, e):
    size = {"f32": 4, "f64": 8, "f16": 2, "bf16": 2}.get(e)
    if not size or len(a) != len(b):
        return None
    fmt = {4: "<i", 8: "<q", 2: "<h"}[size]
    worst = 0
    for k in range(0, len(a) - size + 1, size):
        x, y = struct.unpack_from(fmt, a, k)[0], struct.unpack_from(fmt, b, k)[0]
        if x != y:
            bias = 1 << (8 * size - 1)
            x = x if x >= 0 else bias - x
            y = y if y >= 0 else bias - y
            worst = max(worst, abs(x - y))
    return worst


SHAPES = ["128", "16,16", "256", "32,8", "512"]
LEFT_OUT = ("both-fault", "gpu-fault", "gpu-hang", "emu-check", "order", "no-link")  # not judged


def emu_cmd(args, ptx_path, name, specs, block, smem, extra):
    """The `warplab emu` command line of one launch of the corpus (8 blocks of `block`, the
    kernel's arguments), with the options in extra."""
    cmd = [args.warplab, "emu", ptx_path, "--kernel", name, "--grid", "8", "--block", block] + extra
    if smem:
        cmd += ["--smem", str(smem)]
    for s in specs:
        cmd += ["--arg", s]
    return cmd


def one_run(args, be, ptx_path, name, specs, bufs, block, smem, work, reverse=False):
    """One backend's run; with reverse, the emulator's with blocks and warps in reverse order
    (--order reverse), dumped as NAME.emurev.I.bin."""
    cmd = emu_cmd(args, ptx_path, name, specs, block, smem,
                  ["--backend", be] + (["--order", "reverse"] if reverse else []))
    tag = "emurev" if reverse else be
    for i in bufs:
        cmd += ["--dump", "%d=%s/%s.%s.%d.bin" % (i, work, name, tag, i)]
    rc, out, err = run(cmd, args.timeout)
    return rc, first_words(out, err)


def first_words(out, err):
    """What a `warplab emu` run said, in a line: the fault's own line (or the refusal's), not
    a figure of the report nor a warning the run went on after, else its first words."""
    for line in (out + "\n" + err).split("\n"):
        if re.match(r"\s*(warplab:|[a-z_]+: )", line) and not line.strip().startswith(
                ("global:", "shared:", "branches:", "ptxas:", "occupancy", "local:", "warning:")):
            return line.strip()[:300]
    return (err or out).strip().split("\n")[0][:300]


def judge(args, res, specs, bufs, block, work, name):
    emu_rc, emu_msg = res["emu"]
    refused = emu_rc == 2 and re.search(r"cannot run on the emulator|unsupported|not supported|has no body",
                                        emu_msg, re.I) and "GPU refuses this launch" not in emu_msg
    if emu_rc == 2 and "GPU refuses this launch" in emu_msg:
        emu_rc = 1                                  # a launch the GPU refuses: a fault of this shape
    if refused and "has no body" in emu_msg and res.get("gpu", (0,))[0] not in (0, 124):
        # a device function defined in another file (nvcc -rdc): the GPU cannot link the
        # module alone either
        return "no-link", "%s; the GPU: %s" % (emu_msg, res["gpu"][1])
    if refused:
        return "refused", emu_msg
    if res.get("gpu", (0,))[0] == 124:              # no reference output: not the emulator's fault
        said = "also timed out" if emu_rc == 124 else "ran to the end" if emu_rc == 0 else emu_msg
        return "gpu-hang", "block %s: the GPU did not finish in %d s; the emulator: %s" % (
            block, args.timeout, said)
    if emu_rc == 124:
        return "timeout", "block %s: %s" % (block, emu_msg)
    if emu_rc == 2:
        return "error", emu_msg
    check = re.match(r"(race|uninitialized_read|sync_mask|barrier_divergence):", emu_msg)
    if "gpu" not in res:
        return ("ran" if emu_rc == 0 else "emu-check" if check else "emu-fault"), "block %s: %s" % (block, emu_msg)
    gpu_rc, gpu_msg = res["gpu"]
    if emu_rc != 0 and gpu_rc != 0:
        return "both-fault", emu_msg
    if emu_rc != 0:
        return ("emu-check" if check else "emu-fault"), "block %s: %s" % (block, emu_msg)
    if gpu_rc != 0:
        return "gpu-fault", gpu_msg
    worst, differ = 0, False
    for i in bufs:
        try:
            a = open("%s/%s.emu.%d.bin" % (work, name, i), "rb").read()
            b = open("%s/%s.gpu.%d.bin" % (work, name, i), "rb").read()
        except OSError as ex:
            return "error", str(ex)
        if a != b:
            e = specs[i].split("buf:")[0]
            u = ulps(a, b, e)
            if u is None:
                differ = True
            else:
                worst = max(worst, u)
    if differ or worst > 16:
        return "differ", "block %s: %s" % (block, "max %d ULP" % worst if not differ else "integer or byte buffers differ")
    return ("close", "block %s: max %d ULP" % (block, worst)) if worst else ("match", "block %s" % block)


def order_verdict(args, ptx_path, name, specs, block, smem, verdict):
    """A `differ` verdict becomes `order` when the emulator's own outputs change between orders
    of warps and blocks (`warplab emu --order-check 3`: the default order and seeds 1 and 2): the
    result depends on scheduling, and the GPU's is one of several legitimate ones."""
    if verdict[0] != "differ":
        return verdict
    cmd = emu_cmd(args, ptx_path, name, specs, block, smem,
                  ["--backend", "emu", "--order-check", "3", "--json"])
    rc, out, _ = run(cmd, 3 * args.timeout)
    try:
        oc = json.loads(out).get("order_check") or {}
    except ValueError:
        return verdict
    if rc == 0 and oc.get("depends"):
        return "order", "block %s: %s" % (block, oc.get("message", "")[:240])
    return verdict


APPROX = re.compile(r"\b(?:ex2|lg2|sin|cos|rsqrt|rcp|sqrt|tanh|div)\.approx\b")
APPROX_SCALE = 2.0 ** -14      # an approx difference, relative to the buffer's largest value


def approx_error(a, b, e):
    """The largest difference between the buffers read as floats of type e, relative to the
    buffer's largest value; for a buffer whose element type the signature did not say (u8),
    read as f32 and relative to each word's own value (the rest of it may be anything read as
    a float). None when they cannot be so compared (an integer type, NaN or infinity in one and
    not the other)."""
    untyped = e == "u8"
    fmt = {"f32": "f", "f64": "d", "u8": "f"}.get(e)
    if not fmt or len(a) != len(b) or len(a) % struct.calcsize(fmt):
        return None
    size = struct.calcsize(fmt)
    n = len(a) // size
    xs, ys = struct.unpack("<%d%s" % (n, fmt), a), struct.unpack("<%d%s" % (n, fmt), b)
    top, worst = 0.0, 0.0
    for k, (x, y) in enumerate(zip(xs, ys)):
        if a[k * size:(k + 1) * size] != b[k * size:(k + 1) * size]:
            if not (math.isfinite(x) and math.isfinite(y)):
                return None
            d = abs(x - y)
            if untyped:
                d = d / max(abs(x), abs(y)) if d else 0.0
            worst = max(worst, d)
        if math.isfinite(y) and not untyped:
            top = max(top, abs(y))
    if untyped:
        return worst
    return worst / top if top else None


def second_opinion(args, ptx_path, name, specs, bufs, block, smem, work, body, why):
    """A `differ` looked at again, by what the emulator alone can say:
    - `emu-check`: run with blocks and warps in reverse order (an order CUDA leaves open), its
      race, initialisation or mask check stops the kernel: two threads write one word with no
      barrier between, which the first order hid;
    - `order`: the reverse order runs cleanly and its result is not the index order's: blocks
      or warps race (write one word, or read what another writes) and the GPU's answer is one
      of the possible ones;
    - `approx`: the kernel uses approximate instructions (ex2/lg2/sin/cos/rsqrt/rcp/sqrt/tanh/
      div .approx: the GPU's MUFU tables, which the emulator does not reproduce bit for bit)
      and every buffer is within APPROX_SCALE of its largest value;
    else `differ` as it was."""
    rc, msg = one_run(args, "emu", ptx_path, name, specs, bufs, block, smem, work, reverse=True)
    if rc != 0 and re.match(r"(race|uninitialized_read|sync_mask|barrier_divergence):", msg):
        return "emu-check", "block %s: with blocks and warps in reverse order: %s" % (block, msg)
    if rc == 0:
        for i in bufs:
            try:
                a = open("%s/%s.emu.%d.bin" % (work, name, i), "rb").read()
                r = open("%s/%s.emurev.%d.bin" % (work, name, i), "rb").read()
            except OSError:
                break
            if a != r:
                n = sum(1 for k in range(0, min(len(a), len(r)) - 3, 4) if a[k:k + 4] != r[k:k + 4])
                return "order", ("block %s: argument %d: %d words change when blocks and warps run "
                                 "in reverse order (a race between them); %s" % (block, i, n, why))
    if APPROX.search(body):
        worst = 0.0
        for i in bufs:
            a = open("%s/%s.emu.%d.bin" % (work, name, i), "rb").read()
            b = open("%s/%s.gpu.%d.bin" % (work, name, i), "rb").read()
            if a != b:
                err = approx_error(a, b, specs[i].split("buf:")[0])
                if err is None or err > APPROX_SCALE:
                    return "differ", "block %s: %s" % (block, why)
                worst = max(worst, err)
        return "approx", "block %s: .approx instructions; largest difference %.2g of the largest value" % (block, worst)
    return "differ", "block %s: %s" % (block, why)


def kernel_case(args, ptx_path, name, specs, bufs, blocks, smem, work, body=""):
    """The first block shape both backends run cleanly (the inputs suit the kernel there), else
    the verdict at the first shape the GPU ran (or the first shape)."""
    first = None
    for block in blocks:
        res = {}
        if "gpu" in args.backends:
            res["gpu"] = one_run(args, "gpu", ptx_path, name, specs, bufs, block, smem, work)
            if res["gpu"][0] != 0 and block != blocks[-1]:
                continue
        res["emu"] = one_run(args, "emu", ptx_path, name, specs, bufs, block, smem, work)
        verdict = judge(args, res, specs, bufs, block, work, name)
        if verdict[0] == "differ" and "gpu" in res:
            verdict = second_opinion(args, ptx_path, name, specs, bufs, block, smem, work, body,
                                     verdict[1].split(": ", 1)[1])
            return order_verdict(args, ptx_path, name, specs, block, smem, verdict)
        if verdict[0] in ("match", "close", "ran", "differ", "refused", "error"):
            return verdict
        if first is None:
            first = verdict
    return sanitizer_verdict(args, ptx_path, name, specs, smem, first)


def sanitizer_verdict(args, ptx_path, name, specs, smem, verdict):
    """An `emu-fault` out-of-bounds access the GPU ran through: a GPU does not stop at every
    access outside a buffer (an allocation sits in larger mapped pages), so the same launch runs
    again on the GPU under compute-sanitizer's memcheck (`warplab emu --backend gpu --sanitize
    memcheck`); when it reports errors too, the inputs do not suit the kernel on either
    backend: `both-fault`, with memcheck's first words."""
    if verdict is None or verdict[0] != "emu-fault" or "out_of_bounds" not in verdict[1] \
            or "gpu" not in args.backends:
        return verdict
    m = re.match(r"block (\S+):", verdict[1])
    if not m:
        return verdict
    cmd = emu_cmd(args, ptx_path, name, specs, m.group(1), smem,
                  ["--backend", "gpu", "--sanitize", "memcheck", "--json"])
    rc, out, _ = run(cmd, 4 * args.timeout)
    try:
        found = json.loads(out)
    except ValueError:
        return verdict
    if found.get("errors", 0) > 0:
        return "both-fault", "%s; compute-sanitizer memcheck on the GPU agrees (%d errors, first: %s)" % (
            verdict[1][:200], found["errors"], (found.get("first") or "")[:160])
    return verdict


def prepare_file(args, src):
    """The file compiled to PTX: ([rows already judged: no-ptx], [kernel tasks]); a task is
    (rel, ptx_path, work, ptx, kernel index, entry, signature)."""
    rel = os.path.relpath(src, args.srcdir)
    work = os.path.join(args.out, "work", re.sub(r"[^\w.-]", "_", rel))
    os.makedirs(work, exist_ok=True)
    ptx_path = os.path.join(work, "k.ptx")
    inc = sum((["-I", d] for d in args.include), [])
    failed = ptx_path + ".failed"
    if args.reuse_ptx and os.path.exists(failed):
        return [(rel, "", "no-ptx", open(failed).read()[:200])], []
    if not (args.reuse_ptx and os.path.exists(ptx_path)):
        rc, _, err = run(["nvcc", "-arch=sm_90", "-ptx", "-lineinfo", "-I", os.path.dirname(src)] + inc +
                         [src, "-o", ptx_path], 120)
        if rc != 0:
            open(failed, "w").write(err.strip().split("\n")[0][:200])
            return [(rel, "", "no-ptx", err.strip().split("\n")[0][:200])], []
    if args.compile_only:
        return [], []
    ptx = open(ptx_path).read()
    ents = entries(ptx)
    sigs = demangle([e[0] for e in ents])
    tasks = [(rel, ptx_path, work, ptx, k, e, sigs.get(e[0], e[0]))
             for k, e in enumerate(ents) if not args.only or args.only in e[0]]
    return [], tasks


def run_kernel(args, task):
    """One kernel's verdict row. Kernels run in parallel across and within files (a file of
    168 template instances no longer runs them one after another)."""
    rel, ptx_path, work, ptx, k, (name, params, body, directives), sig = task
    if args.deadline_at and time.time() > args.deadline_at:
        return (rel, sig[:160], "not-run", "past --deadline")
    specs, bufs = arg_specs(name, params, body, sig, 100 + k)
    blocks = launch_shapes(directives)
    smem = 48 * 1024 if re.search(r"\.extern\s+\.shared", ptx) else 0
    verdict, why = kernel_case(args, ptx_path, name, specs, bufs, blocks, smem, work, body)
    return (rel, sig[:160], verdict, why)


def summary(rows, nfiles, backends):
    """corpus.txt's lines for the verdict rows (file, kernel, verdict, detail): the count of
    each verdict, the share that ran and matched among the kernels judged (LEFT_OUT are not),
    then every row that did not match."""
    counts = {}
    for r in rows:
        counts[r[2]] = counts.get(r[2], 0) + 1
    kernels = [r for r in rows if r[2] not in ("no-ptx", "not-run")]
    judged = [r for r in kernels if r[2] not in LEFT_OUT]
    ok = [r for r in judged if r[2] in ("match", "close", "approx", "ran")]
    lines = ["%d files, %d kernels (backends %s)" % (nfiles, len(kernels), ",".join(backends))]
    lines += ["  %-11s %d" % (k, v) for k, v in sorted(counts.items(), key=lambda kv: -kv[1])]
    if counts.get("order"):
        lines.append("  (order: the emulator's own outputs change with the order warps and blocks "
                     "run, warplab emu --order-check; the result depends on scheduling)")
    if judged:
        lines.append("ran and matched: %d of %d kernels whose inputs the GPU accepted (%.1f%%); "
                     "both-fault, gpu-fault, gpu-hang (the GPU did not finish: no reference), "
                     "emu-check, order (the result depends on the order warps run: no single "
                     "right answer) and no-link are left out" % (len(ok), len(judged), 100.0 * len(ok) / len(judged)))
    lines.append("")
    for r in rows:
        if r[2] not in ("match", "close", "approx", "ran"):
            lines.append("%-10s %s: %s: %s" % (r[2], r[0], r[1], r[3]))
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("warplab")
    ap.add_argument("srcdir")
    ap.add_argument("out")
    ap.add_argument("--include", action="append", default=[])
    ap.add_argument("--backends", default="emu,gpu")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--only", default="")
    ap.add_argument("--compile-only", action="store_true", help="only make OUTDIR/work/*/k.ptx")
    ap.add_argument("--reuse-ptx", action="store_true", help="take OUTDIR/work/*/k.ptx made before")
    ap.add_argument("--deadline", type=int, default=0, help="seconds: files not started by then are not run")
    args = ap.parse_args()
    args.backends = args.backends.split(",")
    args.warplab = os.path.realpath(args.warplab)
    os.makedirs(args.out, exist_ok=True)
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(args.srcdir) for f in fs if f.endswith(".cu"))
    rows = []
    deadline = args.deadline_at = time.time() + args.deadline if args.deadline else None
    f = open(os.path.join(args.out, "corpus.csv"), "w", newline="")
    w = csv.writer(f)
    w.writerow(["file", "kernel", "verdict", "detail"])
    with cf.ThreadPoolExecutor(args.jobs) as ex:
        tasks = []
        for done, todo in ex.map(lambda src: prepare_file(args, src), files):
            rows.extend(done)
            w.writerows(done)
            tasks.extend(todo)
        f.flush()
        for r in ex.map(lambda t: run_kernel(args, t), tasks):
            rows.append(r)
            w.writerow(r)
            f.flush()
    f.close()
    lines = summary(rows, len(files), args.backends)
    open(os.path.join(args.out, "corpus.txt"), "w").write("\n".join(lines) + "\n")
    print("\n".join(lines[:14]))


if __name__ == "__main__":
    sys.exit(main())
