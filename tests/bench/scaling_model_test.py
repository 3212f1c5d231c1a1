#!/usr/bin/python3
"""bench/scaling_model.py: the fit recovers the constants a table was made from, the projection is
the model's formula, and the measured table shipped in bench/ gives the fit docs/scaling.md
quotes. Behaviour only: nothing here is timed."""

import io
import math
import os
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import scaling_model  # noqa: E402

# The constants a synthetic table is made from (seconds, bytes).
C0, C, KAPPA, C_B = 1e-3, 5e-6, 1.2, 2e-7
C_G = C  # the model's assumption: a ghost costs a particle's work
IOTA, S, ALPHA, BETA, ALPHA_R = 0.02, 0.1, 1e-6, 5e9, 8e-7
GHOSTS, EXCHANGES, BYTES, REDUCTIONS = 300.0, 110.0, 1.0e6, 2.0


def synthetic_lines():
    """Lines as the bench programs print them, made from the constants above."""
    lines = []
    for b in (8, 64, 512, 4096, 32768, 262144, 2097152):
        lines.append("comm kind=exchange ranks=2 neighbours=1 bytes=%d seconds=%.17g" % (b, ALPHA + b / BETA))
    lines.append("comm kind=allreduce ranks=2 count=1 seconds=%.17g" % ALPHA_R)
    lines.append("comm kind=allreduce ranks=4 count=1 seconds=1 oversubscribed=1")  # ignored: not a fit point
    h2 = scaling_model.expected_max_normal(2)
    for n in (5000, 10000, 20000):
        one = C0 + C * n
        together = KAPPA * one
        mean = together + C_G * GHOSTS + C_B * n
        mx = mean * (1 + IOTA)
        transfer = EXCHANGES * ALPHA + BYTES / BETA
        seconds = mx + transfer + REDUCTIONS * ALPHA_R + S * h2 * mean
        for repeat, noise in ((1, 1.2), (2, 1.0), (3, 1.5)):  # the fastest is the undisturbed one
            lines.append("scaling mode=distributed ranks=1 threads=1 particles=%d particles_per_rank=%d "
                         "seconds_per_step=%.17g repeat=%d" % (n, n, one * noise, repeat))
            lines.append("scaling mode=alone ranks=2 threads=1 particles=%d particles_per_rank=%d "
                         "seconds_per_step=%.17g compute_ms_mean=%.17g compute_ms_max=%.17g" % (
                             2 * n, n, together * noise, 1e3 * together, 1e3 * together))
            lines.append("scaling mode=distributed ranks=2 threads=1 particles=%d particles_per_rank=%d "
                         "seconds_per_step=%.17g compute_ms_mean=%.17g compute_ms_max=%.17g ghosts_per_rank=%g "
                         "exchanges_per_step=%g bytes_per_step=%g reductions_per_step=%g reductions_ms_min=%.17g "
                         "neighbours=1" % (2 * n, n, seconds * noise, 1e3 * mean * noise, 1e3 * mx * noise, GHOSTS,
                                           EXCHANGES, BYTES, REDUCTIONS, 1e3 * REDUCTIONS * ALPHA_R * noise))
    lines.append("unrelated line that the model ignores")
    return lines


def fit_of(lines, tmp):
    path = os.path.join(tmp, "runs.txt")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return scaling_model.Fit(scaling_model.parse_runs([path]))


class ScalingModelTest(unittest.TestCase):
    def setUp(self):
        import tempfile
        self.tmp = tempfile.mkdtemp()

    def test_fit_recovers_the_constants_of_a_synthetic_table(self):
        fit = fit_of(synthetic_lines(), self.tmp)
        for name, got, want in (("c0", fit.c0, C0), ("c", fit.c, C), ("kappa", fit.kappa, KAPPA),
                                ("c_g", fit.c_g, C_G), ("c_b", fit.c_b, C_B), ("iota", fit.iota, IOTA),
                                ("s", fit.s, S), ("alpha", fit.alpha, ALPHA), ("beta", fit.beta, BETA),
                                ("alpha_r", fit.alpha_r, ALPHA_R), ("exchanges", fit.exchanges, EXCHANGES),
                                ("bytes per ghost", fit.bytes_per_ghost, BYTES / GHOSTS),
                                ("reductions", fit.reductions, REDUCTIONS)):
            self.assertAlmostEqual(got / want, 1.0, places=6, msg=name)

    def test_expected_largest_normal(self):
        self.assertEqual(scaling_model.expected_max_normal(1), 0.0)
        self.assertAlmostEqual(scaling_model.expected_max_normal(2), 1 / math.sqrt(math.pi), places=9)
        self.assertAlmostEqual(scaling_model.expected_max_normal(3), 1.5 / math.sqrt(math.pi), places=9)
        # Tabulated (Tippett 1925): 1.0294 for 4, 2.0697 for 32.
        self.assertAlmostEqual(scaling_model.expected_max_normal(4), 1.0294, places=4)
        self.assertAlmostEqual(scaling_model.expected_max_normal(32), 2.0697, places=4)

    def test_step_time_is_the_formula(self):
        fit = fit_of(synthetic_lines(), self.tmp)
        n, g, k, p, lat, bw, ar = 1e6, 5000.0, 2, 32, 2e-6, 1e9, 4e-6
        t, terms = scaling_model.step_time(fit, n, g, k, p, lat, bw, ar)
        work = C0 + C * n
        want = ((work + C_G * g + C_B * n) * (1 + IOTA + S * scaling_model.expected_max_normal(p)) +
                EXCHANGES * k * lat + BYTES / GHOSTS * g / bw + REDUCTIONS * ar * 5)
        self.assertAlmostEqual(t / want, 1.0, places=9)
        self.assertAlmostEqual(sum(terms.values()) / t, 1.0, places=12)
        one, terms_one = scaling_model.step_time(fit, n, g, k, 1, lat, bw, ar)
        self.assertAlmostEqual(one / work, 1.0, places=12)
        self.assertEqual(list(terms_one), ["compute"])

    def test_model_gives_back_the_runs_it_was_fitted_to(self):
        fit = fit_of(synthetic_lines(), self.tmp)
        rows = scaling_model.check_rows(fit)
        self.assertEqual([n for n, _, _ in rows], [5000, 10000, 20000])
        for n, model, measured in rows:
            self.assertAlmostEqual(model / measured, 1.0, places=9, msg=n)

    def test_papers_weak_series_read_as_waits(self):
        s, loss, h = scaling_model.paper_waits()
        self.assertEqual(sorted(h), [2, 4, 8, 16, 32])
        self.assertAlmostEqual(1 / (1 + loss[32]), 23489.5 / 24480.8, places=12)
        # The least-squares s through the origin, and the paper's E within 0.006 at every rank count.
        self.assertAlmostEqual(s, sum(loss[p] * h[p] for p in h) / sum(h[p] ** 2 for p in h), places=15)
        for p in h:
            self.assertLess(abs(1 / (1 + s * h[p]) - 1 / (1 + loss[p])), 0.006, p)

    def test_projected_beds_grow_the_papers_bed(self):
        cases = {c[0]: c for c in scaling_model.projections()}
        _, total, ranks, n, ghosts, neighbours = cases["paper weak, slab"]
        self.assertEqual((total, ranks, neighbours), (39555236, 32, 2))
        # 4 m of bed per rank, a ghost layer of 4.1 radii on each of two faces.
        self.assertAlmostEqual(ghosts / (2 * n * 4.1 * 0.00125 / (4.0 * n / 1236372)), 1.0, places=9)
        _, total, ranks, n, ghosts, neighbours = cases["1e9, grid 32x32"]
        self.assertEqual((total, ranks, neighbours), (1e9, 1024, 8))
        self.assertLess(ghosts / n, 0.02)

    def test_cpu_times_give_sharing_and_splitting_when_there(self):
        # CPU times that say sharing costs 10% and splitting 5%, where the wall times say 20%.
        lines = []
        for line in synthetic_lines():
            if line.startswith("scaling "):
                n = int(line.split("particles_per_rank=")[1].split()[0])
                one = C * n
                cpu = {"distributed ranks=1 ": one, "alone ": 1.1 * one, "distributed ranks=2 ": 1.1 * 1.05 * one}
                for key, value in cpu.items():
                    if key in line:
                        line += " cpu_compute_ms_mean=%.17g" % (1e3 * value)
            lines.append(line)
        fit = fit_of(lines, self.tmp)
        self.assertTrue(fit.by_cpu)
        self.assertAlmostEqual(fit.kappa, 1.1, places=9)
        for s in fit.split:
            self.assertAlmostEqual(s["work"]["two"] / s["work"]["together"], 1.05, places=9)
        self.assertFalse(fit_of(synthetic_lines(), self.tmp).by_cpu)

    def test_missing_series_are_named(self):
        lines = [l for l in synthetic_lines() if "mode=alone" not in l]
        with self.assertRaisesRegex(ValueError, "2 alone"):
            fit_of(lines, self.tmp)

    def test_prints_tables_fit_and_projection(self):
        path = os.path.join(self.tmp, "runs.txt")
        with open(path, "w") as f:
            f.write("\n".join(synthetic_lines()) + "\n")
        out = io.StringIO()
        old, sys.stdout = sys.stdout, out
        try:
            scaling_model.main([path, "--csv", os.path.join(self.tmp, "measured.csv")])
        finally:
            sys.stdout = old
        text = out.getvalue()
        for heading in ("measured: compute of one rank alone", "measured: two ranks split", "\nfit\n",
                        "projection:", "paper weak, slab", "1e9, grid 32x32"):
            self.assertIn(heading, text)
        with open(os.path.join(self.tmp, "measured.csv")) as f:
            self.assertEqual(len(f.read().strip().splitlines()), 1 + 9)  # header, 3 sizes x 3 kinds


if __name__ == "__main__":
    unittest.main()
