#!/usr/bin/env python3
"""test_corpus.py: corpus.py's verdicts on made-up backend results, no GPU and no warplab.

    python3 tests/gpu/test_corpus.py      (exit status 0 when every test passes)

judge() is given the (exit status, first words) pairs one_run() would return and the buffers it
would have dumped; summary() the rows; first_words() a report with a warning before its fault. A GPU run that timed out has no reference output, so it
is `gpu-hang` whatever the emulator did and is left out of the judged share; an emulator that
alone timed out is `timeout` and counts against the emulator.
"""
import os
import sys
import tempfile
import types
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus  # noqa: E402

ARGS = types.SimpleNamespace(timeout=30)
HUNG = (124, "timed out after 30 s")
DEADLOCK = (1, "deadlock: inter-block dependence: block (0,0,0) and 7 other blocks wait")


class JudgeTest(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.mkdtemp()
        for be in ("emu", "gpu"):
            with open(os.path.join(self.work, "k.%s.0.bin" % be), "wb") as f:
                f.write(b"\x01\x02\x03\x04")

    def judge(self, emu, gpu):
        return corpus.judge(ARGS, {"emu": emu, "gpu": gpu}, ["u32buf:1:iota"], [0], "128",
                            self.work, "k")

    def test_gpu_hang_emulator_found_deadlock(self):
        v, why = self.judge(DEADLOCK, HUNG)
        self.assertEqual(v, "gpu-hang")
        self.assertIn("the GPU did not finish in 30 s", why)
        self.assertIn("the emulator: deadlock: inter-block dependence", why)

    def test_gpu_hang_emulator_also_timed_out(self):
        v, why = self.judge(HUNG, HUNG)
        self.assertEqual(v, "gpu-hang")
        self.assertTrue(why.endswith("the emulator: also timed out"), why)

    def test_gpu_hang_emulator_ran(self):
        v, why = self.judge((0, "global: 4 bytes"), HUNG)
        self.assertEqual(v, "gpu-hang")
        self.assertTrue(why.endswith("the emulator: ran to the end"), why)

    def test_emulator_alone_timed_out(self):
        self.assertEqual(self.judge(HUNG, (0, ""))[0], "timeout")

    def test_refusal_comes_before_a_hang(self):
        refused = (2, "warplab: function f is declared but has no body in this module")
        self.assertEqual(self.judge(refused, HUNG)[0], "refused")

    def test_match_and_differ(self):
        self.assertEqual(self.judge((0, ""), (0, ""))[0], "match")
        with open(os.path.join(self.work, "k.gpu.0.bin"), "wb") as f:
            f.write(b"\x01\x02\x03\x05")
        self.assertEqual(self.judge((0, ""), (0, ""))[0], "differ")


class FirstWordsTest(unittest.TestCase):
    def test_a_warning_is_not_the_fault(self):
        out = ("warplab emu: k  grid (8,1,1)  block (128,1,1)\n"
               "  global: 1 load requests\n"
               "  warning: read past the end of __constant__ Q: the GPU returns the bytes\n"
               "\n  race: Race on __shared__ memory: write-after-write hazard\n")
        self.assertTrue(corpus.first_words(out, "").startswith("race: Race on __shared__"))

    def test_the_refusal_on_stderr(self):
        self.assertEqual(corpus.first_words("", "warplab: function f is declared\n"),
                         "warplab: function f is declared")


class SummaryTest(unittest.TestCase):
    def test_gpu_hang_left_out_timeout_counted(self):
        rows = [("a.cu", "k%d" % i, "match", "block 128") for i in range(8)]
        rows += [("b.cu", "hang", "gpu-hang", "block 128: the GPU did not finish"),
                 ("c.cu", "slow", "timeout", "block 128: timed out after 30 s")]
        lines = corpus.summary(rows, 3, ["emu", "gpu"])
        share = [ln for ln in lines if ln.startswith("ran and matched:")]
        self.assertEqual(len(share), 1)
        self.assertTrue(share[0].startswith("ran and matched: 8 of 9 kernels"), share[0])
        self.assertIn("gpu-hang (the GPU did not finish: no reference)", share[0])
        self.assertIn("  gpu-hang    1", lines)


if __name__ == "__main__":
    unittest.main()
