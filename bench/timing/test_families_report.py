#!/usr/bin/env python3
"""test_families_report.py: checks of families_report.py on made-up results (stdlib only).

    python3 bench/timing/test_families_report.py

Writes two small families' NAME.json files (the shape `warplab run --json` prints) for an
emulator, a GPU and ncu into a temporary folder and checks what the report prints: the
ratios to the first point, the work normalisation across sizes, the share within 25%, the
rank correlation and the instruction agreement; and that the emulator alone still reports.
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPORT = os.path.join(HERE, "families_report.py")


def result(sizes, pts, kind="modelled", inst_kind="ptx-level"):
    return {"provenance": {"sizes": sizes},
            "points": [{"sweep": "", "label": "main", "time_ms": 99.0, "metrics": {}}] +
                      [{"sweep": "s", "label": lab, "time_ms": t, "time_kind": kind,
                        "metrics": {"smsp__inst_executed.sum": {"value": inst, "kind": inst_kind}}}
                       for lab, t, inst in pts]}


def write(folder, name, data):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name + ".json"), "w") as f:
        json.dump(data, f)


def run(*args):
    p = subprocess.run([sys.executable, REPORT, *args], capture_output=True, text=True)
    return p.returncode, p.stdout


class Report(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        t = self.tmp.name
        self.emu, self.gpu, self.ncu = (os.path.join(t, d) for d in ("emu", "gpu", "ncu"))
        # gather: the emulator at a quarter of the GPU's n; model ratios 1, 2, 3 against the
        # GPU's 1, 2.2, 4 (errors 0, -9%, -25%: two of two within 25%, the last at the edge)
        write(self.emu, "gather", result("n=1000", [("a", 1.0, 100.0), ("b", 2.0, 100.0),
                                                    ("c", 3.0, 100.0)]))
        write(self.gpu, "gather", result("n=4000", [("a", 2.0, None), ("b", 4.4, None),
                                                    ("c", 8.0, None)], "measured", ""))
        # ncu: 400 per 4000 elements agrees (0.1 a unit of work), 500 does not (+25%)
        write(self.ncu, "gather", result("n=4000", [("a", 2.0, 400.0), ("b", 4.4, 500.0),
                                                    ("c", 8.0, 400.0)], "measured", "measured"))
        # gemm: work n*n*k; the emulator at k = 1 and the GPU at k = 8: per unit of work the
        # model is twice the GPU's at the first point
        write(self.emu, "gemm", result("n=10,k=1", [("x", 1.0, 10.0), ("y", 0.5, 10.0)]))
        write(self.gpu, "gemm", result("n=10,k=8", [("x", 4.0, None), ("y", 4.0, None)],
                                       "measured", ""))

    def tearDown(self):
        self.tmp.cleanup()

    def test_ratios_work_and_instructions(self):
        rc, out = run(self.emu, self.gpu, self.ncu, "--only", "gather,gemm")
        self.assertEqual(rc, 0, out)
        self.assertIn("gather: ratios within 25%: 2 of 2", out)
        self.assertIn("inst_executed within 5%: 2 of 3", out)
        # gemm's second point: model 0.5x, GPU 1x: -50%, so one of one outside 25%
        self.assertIn("gemm: ratios within 25%: 0 of 1", out)
        # the first gemm point per unit of work: (1/100) / (4/800) - 1 = +100%
        line = [l for l in out.splitlines() if l.strip().startswith("naive (x)")][0]
        self.assertIn("+100%", line)
        self.assertIn("within-family ratios within 25%: 2 of 3", out)
        self.assertIn("Spearman over 5 points", out)

    def test_main_configuration_counts(self):
        # ncu without --profile-all: the main configuration's count only; it stands for the
        # sweep point with the same choices and no other
        ncu = result("n=4000", [("a", 2.0, None), ("b", 4.4, None), ("c", 8.0, None)],
                     "measured", "")
        ncu["points"][0]["choices"] = {"K": 1}
        ncu["points"][0]["metrics"] = {"smsp__inst_executed.sum": {"value": 400.0,
                                                                   "kind": "measured"}}
        for p, k in zip(ncu["points"][1:], (0, 1, 2)):
            p["choices"] = {"K": k}
        write(self.ncu, "gather", ncu)
        rc, out = run(self.emu, self.gpu, self.ncu, "--only", "gather")
        self.assertEqual(rc, 0, out)
        self.assertIn("inst_executed within 5%: 1 of 1", out)

    def test_emulator_alone(self):
        rc, out = run(self.emu, "--only", "gather")
        self.assertEqual(rc, 0, out)
        self.assertIn("gather: no GPU times", out)
        self.assertIn("no GPU times: the model alone", out)

    def test_missing_gpu_folder(self):
        rc, out = run(self.emu, os.path.join(self.tmp.name, "none"), "--only", "gather")
        self.assertEqual(rc, 0, out)
        self.assertIn("gather: no GPU times", out)

    def test_bad_usage(self):
        rc, _ = run()
        self.assertEqual(rc, 2)


if __name__ == "__main__":
    unittest.main()
