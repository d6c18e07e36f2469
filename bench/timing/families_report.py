#!/usr/bin/env python3
"""families_report.py: the timing model against a GPU, family by family (issue 15).

usage: bench/timing/families_report.py EMU_DIR [GPU_DIR [NCU_DIR]] [--only NAME,NAME...]

EMU_DIR, GPU_DIR and NCU_DIR hold NAME.json files written by `bench/timing/run.sh` (the JSON
of `warplab run --json`): the emulator's modelled times, the GPU's CUDA-event times, and the
GPU run under Nsight Compute (NCU=1) for smsp__inst_executed.sum. Without NCU_DIR the
instruction counts are taken from GPU_DIR when they were measured there. GPU_DIR may be left
out (or not exist): the report then shows the model alone, the GPU columns empty.

A family is one folder of bench/timing (FAMILIES below); its points are its sweeps' points,
in lab.json's order. The emulator runs most families at a smaller size than the GPU, so:

  within a family  every point's time is divided by the family's first point's on the same
                   backend, and the model's ratio is set against the GPU's: err = model x /
                   GPU x - 1; "within 25%" counts the points past the first with |err| <= 0.25
  across families  every time is divided by the point's work (WORK below: the elements a
                   family's size names, n*n*k for gemm), and Spearman's rank correlation is
                   taken over all the points of all families; "abs err" is the model's time
                   per unit of work over the GPU's, less 1
  instructions     smsp__inst_executed.sum per unit of work, the emulator's (PTX-level)
                   against ncu's (SASS), agreement within 5%

Exit status 0 (the report is information, not a verdict), 2 on bad usage.
"""
import json
import math
import os
import sys

# the families, in the order the report prints them (bench/timing/families.sh runs the same)
FAMILIES = ["transpose", "gather", "loops", "stencil", "gemm", "conv2d", "scan", "spmv",
            "rowred"]

# the work of one run, from its sizes (provenance "n=..,nx=..."): by default the product of
# the sizes; where that is not the work, an expression over them
WORK = {"gemm": lambda s: s["n"] * s["n"] * s["k"]}

# what each family's points are, in lab.json's order (the labels are the swept values)
NAMES = {
    "transpose": ["copy", "naive", "tile", "tile padded"],
    "gather": ["sorted", "random in 16 KB", "random"],
    "loops": ["sorted trips", "random trips", "random 0..7"],
    "stencil": ["1-D naive", "1-D shared", "2-D naive", "2-D shared"],
    "gemm": ["naive", "tiled 16", "tiled 32", "regs 2x2", "regs 4x4"],
    "conv2d": ["3x3", "5x5", "7x7"],
    "scan": ["Hillis-Steele", "Blelloch", "warp shuffle"],
    "spmv": ["vector banded", "vector random", "scalar banded", "scalar random"],
    "rowred": ["gemv thread", "gemv warp", "softmax thread", "softmax warp"],
}

INST = "smsp__inst_executed.sum"


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def sizes(result):
    out = {}
    text = (result.get("provenance") or {}).get("sizes", "")
    for part in text.replace(" ", ",").split(","):
        if "=" in part:
            k, v = part.split("=", 1)
            try:
                out[k] = int(v)
            except ValueError:
                pass
    return out


def work(name, result):
    s = sizes(result)
    if not s:
        return None
    if name in WORK:
        try:
            return float(WORK[name](s))
        except KeyError:
            return None
    w = 1.0
    for v in s.values():
        w *= v
    return w


def points(result):
    """[(sweep, label, time_ms, inst or None, inst kind)] of the sweep points with a time.
    A point without a measured instruction count takes the main configuration's when their
    choices are the same (ncu without --profile-all profiles the main configuration only)."""
    out, main = [], None
    pts = (result or {}).get("points", [])
    for p in pts:
        m = (p.get("metrics") or {}).get(INST) or {}
        if not p.get("sweep") and m.get("kind") == "measured":
            main = (p.get("choices"), m)
    for p in pts:
        if not p.get("sweep") or p.get("time_ms") is None:
            continue
        m = (p.get("metrics") or {}).get(INST) or {}
        if m.get("kind") != "measured" and main and main[0] is not None and \
                p.get("choices") == main[0]:
            m = main[1]
        out.append((p["sweep"], p["label"], p["time_ms"], m.get("value"), m.get("kind", "")))
    return out


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    r = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2.0 + 1
        i = j + 1
    return r


def spearman(a, b):
    if len(a) < 2:
        return float("nan")
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra) ** 0.5
    vb = sum((y - mb) ** 2 for y in rb) ** 0.5
    return cov / (va * vb) if va > 0 and vb > 0 else float("nan")


def median(v):
    v = sorted(v)
    if not v:
        return float("nan")
    m = len(v) // 2
    return v[m] if len(v) % 2 else (v[m - 1] + v[m]) / 2


def fmt(x, spec, width):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-".rjust(width)
    return format(x, spec).rjust(width)


def pct(x, width=7):
    return fmt(None if x is None else 100 * x, "+.0f", width - 1) + ("%" if x is not None else " ")


class Totals:
    def __init__(self):
        self.model_pw, self.gpu_pw = [], []   # per-work times of points with both
        self.errs, self.within, self.compared = [], 0, 0
        self.abs_errs = []
        self.inst_ok, self.inst_n = 0, 0


def family(name, emu, gpu, ncu, tot):
    pe = points(emu)
    if not pe:
        print(f"\n{name}: no modelled points")
        return
    pg = {(s, l): (t, i, k) for s, l, t, i, k in points(gpu)}
    pn = {(s, l): (t, i, k) for s, l, t, i, k in points(ncu)}
    we, wg = work(name, emu), (work(name, gpu) if gpu else None)
    size_e = (emu.get("provenance") or {}).get("sizes", "?")
    size_g = (gpu.get("provenance") or {}).get("sizes", "-") if gpu else "-"
    print(f"\n{name}  (model at {size_e}; GPU at {size_g})")
    print(f"  {'point (swept values)':<36} {'model us':>10} {'GPU us':>10} {'model x':>8} {'GPU x':>8}"
          f" {'err':>7} {'abs err':>8} {'inst/work model':>16} {'ncu':>10} {'inst':>6}")
    base_e = pe[0][2]
    first = (pe[0][0], pe[0][1])
    base_g = pg[first][0] if first in pg else None
    errs, abs_errs, within, compared, inst_ok, inst_n = [], [], 0, 0, 0, 0
    names = NAMES.get(name, [])
    for pos, (s, l, te, ie, _) in enumerate(pe):
        g = pg.get((s, l))
        tg = g[0] if g else None
        xe = te / base_e if base_e else None
        xg = tg / base_g if (tg is not None and base_g) else None
        err = xe / xg - 1 if (xe is not None and xg) else None
        abs_err = None
        if tg and we and wg:
            abs_err = (te / we) / (tg / wg) - 1
            tot.model_pw.append(te / we)
            tot.gpu_pw.append(tg / wg)
            abs_errs.append(abs(abs_err))
        if err is not None and (s, l) != first:
            compared += 1
            within += abs(err) <= 0.25
            errs.append(abs(err))
        # instructions: ncu's run, else the GPU run's when it measured them
        src = pn.get((s, l)) or g
        ig = src[1] if src and src[2] == "measured" else None
        ipw_e = ie / we if (ie is not None and we) else None
        ipw_g = ig / wg if (ig is not None and wg) else None
        iagree = None
        if ipw_e is not None and ipw_g:
            iagree = ipw_e / ipw_g - 1
            inst_n += 1
            inst_ok += abs(iagree) <= 0.05
        label = f"{names[pos]} ({l})" if pos < len(names) else f"{s} / {l}"
        print(f"  {label[:36]:<36} {fmt(te * 1e3, '.2f', 10)} {fmt(None if tg is None else tg * 1e3, '.2f', 10)}"
              f" {fmt(xe, '.3f', 8)} {fmt(xg, '.3f', 8)} {pct(err)} {pct(abs_err, 8)}"
              f" {fmt(ipw_e, '.4g', 16)} {fmt(ipw_g, '.4g', 10)} {pct(iagree, 6)}")
    line = f"  {name}: "
    if compared:
        line += (f"ratios within 25%: {within} of {compared}; median |err| {100 * median(errs):.0f}%"
                 f"; median |abs err| {100 * median(abs_errs):.0f}%")
    else:
        line += "no GPU times"
    if inst_n:
        line += f"; inst_executed within 5%: {inst_ok} of {inst_n}"
    print(line)
    tot.errs += errs
    tot.abs_errs += abs_errs
    tot.within += within
    tot.compared += compared
    tot.inst_ok += inst_ok
    tot.inst_n += inst_n


def main(argv):
    args, only = [], None
    i = 1
    while i < len(argv):
        if argv[i] == "--only" and i + 1 < len(argv):
            only = [x for x in argv[i + 1].split(",") if x]
            i += 2
            continue
        if argv[i].startswith("-"):
            print(__doc__.strip().splitlines()[2], file=sys.stderr)
            return 2
        args.append(argv[i])
        i += 1
    if not 1 <= len(args) <= 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    emu_dir = args[0]
    gpu_dir = args[1] if len(args) > 1 else None
    ncu_dir = args[2] if len(args) > 2 else None
    if not os.path.isdir(emu_dir):
        print(f"families_report.py: {emu_dir}: not a folder", file=sys.stderr)
        return 2
    tot = Totals()
    for name in only or FAMILIES:
        emu = load(os.path.join(emu_dir, name + ".json"))
        if emu is None:
            print(f"\n{name}: no emulator results in {emu_dir}")
            continue
        gpu = load(os.path.join(gpu_dir, name + ".json")) if gpu_dir else None
        ncu = load(os.path.join(ncu_dir, name + ".json")) if ncu_dir else None
        family(name, emu, gpu, ncu, tot)
    print("\nall families:")
    if tot.model_pw:
        print(f"  Spearman over {len(tot.model_pw)} points (time per unit of work): "
              f"{spearman(tot.model_pw, tot.gpu_pw):.3f}")
        print(f"  within-family ratios within 25%: {tot.within} of {tot.compared}"
              f" ({100 * tot.within / max(1, tot.compared):.0f}%)")
        print(f"  median |err| of the ratios {100 * median(tot.errs):.0f}%; median |abs err| of the"
              f" times per work {100 * median(tot.abs_errs):.0f}%")
    else:
        print("  no GPU times: the model alone")
    if tot.inst_n:
        print(f"  smsp__inst_executed.sum within 5% of ncu: {tot.inst_ok} of {tot.inst_n}")
    else:
        print("  no ncu instruction counts")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
