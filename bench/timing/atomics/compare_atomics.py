#!/usr/bin/env python3
"""compare_atomics.py: the atomics benchmark, modelled against measured.

    bench/timing/atomics/compare_atomics.py GPU.json EMU.json

GPU.json: `warplab run bench/timing/atomics --backend gpu --profile-all --json` on a GPU
(bench/timing/results/h100/atomics.json, an H100); EMU.json: the same on the emulator
(`--backend emu --arch h100-sxm`). The emulator's problem is 8 times smaller (lab.json's
sizes), so times are compared as ratios to the 256-bin global histogram's, per point, with
Spearman's rank correlation over every point and the share of ratios within 25%.
"""
import json
import sys


def points(path):
    with open(path) as f:
        d = json.load(f)
    return {(p["sweep"], p["label"]): p["time_ms"] for p in d["points"] if p["sweep"]}


def ranks(v):
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0] * len(v)
    for i, j in enumerate(order):
        r[j] = i
    return r


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: compare_atomics.py GPU.json EMU.json")
    gpu, emu = points(sys.argv[1]), points(sys.argv[2])
    base = ("histogram global", "0x255")
    keys = [k for k in gpu if k in emu]
    print("%-18s %-8s %10s %10s %8s" % ("sweep", "point", "gpu x", "model x", "err"))
    within = 0
    for k in keys:
        rg, rm = gpu[k] / gpu[base], emu[k] / emu[base]
        within += 0.8 <= rm / rg <= 1.25
        print("%-18s %-8s %10.3f %10.3f %+7.0f%%" % (k[0], k[1], rg, rm, 100 * (rm / rg - 1)))
    a, b, n = ranks([gpu[k] for k in keys]), ranks([emu[k] for k in keys]), len(keys)
    rho = 1 - 6 * sum((x - y) ** 2 for x, y in zip(a, b)) / (n * (n * n - 1))
    print("spearman %.3f; %d/%d ratios within 25%%" % (rho, within, n))


main()
