"""tools/mobility/rig_analysis.py against answers known in closed form:
  - MSER-5 cuts a transient of known length: a series offset by +5 for its first 40 samples, then
    unit noise, is cut at 40 samples (within one batch of 5), inside the measure phase only;
  - batch means on an AR(1) series x_k = phi x_(k-1) + e_k (phi = 0.9, unit noise, stationary
    start): the variance of the mean of n samples is
        Var = s^2 / (1 - phi^2) / n * [(1 + phi) / (1 - phi) - 2 phi (1 - phi^n) / (n (1 - phi)^2)],
    over 200 series of 4,000 samples the batch-means SE^2 averages within 15% of it, while
    sd / sqrt(n) is low by sqrt((1 - phi) / (1 + phi)) = 0.23;
  - a steady point's figures: DBP 400 N, weight 2000 N -> DBP/W 0.2; chassis 0.4 m/s, sprockets
    4 rad/s under 50 N m each -> tractive efficiency 400 x 0.4 / (2 x 50 x 4) = 0.4; towed: motion
    resistance -DBP; climbs: speed > 0 and slip < 0.9."""
import math
import os
import random
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from mobility.rig_analysis import (RIG_COLUMNS, batch_means, climbs, gradeability, mser5_cut, naive_se,  # noqa: E402
                                   point_figures, read_rig, steady_rows)

PHI = 0.9


def ar1(n, rng, phi=PHI):
    x = rng.gauss(0.0, 1.0 / math.sqrt(1 - phi * phi))
    out = []
    for _ in range(n):
        x = phi * x + rng.gauss(0.0, 1.0)
        out.append(x)
    return out


def ar1_mean_variance(n, phi=PHI):
    return (1 / (1 - phi * phi) / n) * ((1 + phi) / (1 - phi) - 2 * phi * (1 - phi ** n) / (n * (1 - phi) ** 2))


def rig_rows(measure_rows, row_of, rest=10, ramp=10, settle=10, dt=0.01):
    """A rig dict: rest, ramp and settle rows of nonsense (they must not count), then the measure
    rows given by row_of(k) (a dict of the columns that differ from a standing vehicle)."""
    rig = {c: [] for c in RIG_COLUMNS}
    phases = ["rest"] * rest + ["ramp"] * ramp + ["settle"] * settle + ["measure"] * measure_rows
    for i, phase in enumerate(phases):
        row = {c: 0.0 for c in RIG_COLUMNS}
        row.update({"t": dt * (i + 1), "phase": phase, "weight": 2000.0})
        row.update(row_of(i - rest - ramp - settle) if phase == "measure" else {"drawbar_pull": 9e9, "chassis_vx": -9.0})
        for c in RIG_COLUMNS:
            rig[c].append(row[c])
    return rig


def steady_row(k):
    return {"drawbar_pull": 400.0, "chassis_vx": 0.4, "sprocket_torque_left": 50.0, "sprocket_torque_right": 50.0,
            "sprocket_speed_left": 4.0, "sprocket_speed_right": 4.0, "track_speed": 0.5, "slip": 0.2,
            "pitch_deg": 1.5}


class MserTest(unittest.TestCase):
    def test_a_transient_of_40_samples_is_cut(self):
        rng = random.Random(7)
        series = [5.0 + rng.gauss(0, 1) if k < 40 else rng.gauss(0, 1) for k in range(400)]
        cut = mser5_cut(series)
        self.assertEqual(cut % 5, 0)
        self.assertTrue(40 <= cut <= 45, cut)

    def test_a_steady_series_keeps_its_start_and_the_search_stops_at_half(self):
        rng = random.Random(3)
        self.assertLessEqual(mser5_cut([rng.gauss(0, 1) for _ in range(400)]), 200)
        # A transient longer than half the rows is not cut past half of them.
        self.assertLessEqual(mser5_cut([10.0] * 300 + [0.0] * 100), 200)
        self.assertEqual(mser5_cut([1.0, 2.0, 3.0]), 0)

    def test_the_window_lies_in_the_measure_phase_after_the_cut(self):
        rng = random.Random(11)
        rig = rig_rows(200, lambda k: {"drawbar_pull": (300.0 if k < 30 else 0.0) + rng.gauss(0, 1)})
        rows = steady_rows(rig, "drawbar_pull")
        self.assertTrue(all(rig["phase"][i] == "measure" for i in rows))
        self.assertIn(rows[0] - 30, (30, 35))  # 30 rows before the measure phase, 30 of transient
        self.assertEqual(rows[-1], len(rig["t"]) - 1)


class BatchMeansTest(unittest.TestCase):
    def test_ar1_standard_error_is_honest_and_the_naive_one_is_not(self):
        rng = random.Random(2024)
        n, replications = 4000, 200
        batch_var, naive_var, means = 0.0, 0.0, []
        for _ in range(replications):
            x = ar1(n, rng)
            m, se, b = batch_means(x)
            self.assertEqual(b, 10)
            batch_var += se * se / replications
            naive_var += naive_se(x) ** 2 / replications
            means.append(m)
        theory = ar1_mean_variance(n)
        self.assertAlmostEqual(batch_var / theory, 1.0, delta=0.15)
        self.assertAlmostEqual(math.sqrt(naive_var / theory), math.sqrt((1 - PHI) / (1 + PHI)), delta=0.03)
        self.assertGreater(math.sqrt(batch_var / naive_var), 3.5)
        # The spread of the means themselves agrees with the formula too.
        spread = sum(m * m for m in means) / replications
        self.assertAlmostEqual(spread / theory, 1.0, delta=0.3)

    def test_batches_and_small_samples(self):
        mean, se, b = batch_means([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0])  # 3 batches of 2, the first sample dropped
        self.assertEqual(b, 3)
        self.assertAlmostEqual(mean, 4.5)
        self.assertAlmostEqual(se, math.sqrt(((2.5 - 4.5) ** 2 + (6.5 - 4.5) ** 2) / 2 / 3))  # batch means 2.5, 4.5, 6.5
        self.assertTrue(math.isnan(batch_means([1.0, 2.0, 3.0])[1]))  # one batch: no error estimate
        self.assertTrue(math.isnan(batch_means([])[0]))
        self.assertEqual(batch_means([float("nan"), 2.0, 2.0, 2.0, 2.0])[:2], (2.0, 0.0))


class PointFiguresTest(unittest.TestCase):
    def test_steady_slip_point(self):
        f = point_figures(rig_rows(100, steady_row), "drawbar_pull")
        self.assertAlmostEqual(f["dbp_over_weight"], 0.2, places=12)
        self.assertAlmostEqual(f["drawbar_pull"], 400.0, places=9)
        self.assertAlmostEqual(f["tractive_efficiency"], 0.4, places=12)
        self.assertAlmostEqual(f["sprocket_torque"], 100.0, places=9)
        self.assertAlmostEqual(f["slip"], 0.2, places=12)
        self.assertAlmostEqual(f["motion_resistance"], -400.0, places=9)
        self.assertAlmostEqual(f["pitch_deg"], 1.5, places=12)
        self.assertEqual(f["drawbar_pull_se"], 0.0)
        self.assertEqual(f["samples"], 100)
        self.assertAlmostEqual(f["window"][0], 0.31)
        self.assertAlmostEqual(f["window"][1], 1.30)

    def test_no_drive_power_no_efficiency_and_a_towed_resistance(self):
        towed = lambda k: {"drawbar_pull": -150.0, "chassis_vx": 0.3, "slip": float("nan")}  # noqa: E731
        f = point_figures(rig_rows(50, towed), "drawbar_pull")
        self.assertTrue(math.isnan(f["tractive_efficiency"]))
        self.assertTrue(math.isnan(f["slip"]))
        self.assertAlmostEqual(f["motion_resistance"], 150.0)
        self.assertAlmostEqual(f["resistance_over_weight"], 0.075)

    def test_no_measure_phase_no_figures(self):
        f = point_figures(rig_rows(0, steady_row), "drawbar_pull")
        self.assertEqual(f["samples"], 0)
        self.assertTrue(math.isnan(f["drawbar_pull"]) and math.isnan(f["window"][0]))

    def test_climbs_and_gradeability(self):
        self.assertTrue(climbs({"chassis_vx": 0.1, "slip": 0.5}))
        self.assertFalse(climbs({"chassis_vx": -0.01, "slip": 0.5}))
        self.assertFalse(climbs({"chassis_vx": 0.1, "slip": 0.95}))
        self.assertFalse(climbs({"chassis_vx": 0.1, "slip": float("nan")}))
        points = [(0, {"chassis_vx": 0.4, "slip": 0.1}), (10, {"chassis_vx": 0.2, "slip": 0.5}),
                  (20, {"chassis_vx": -0.1, "slip": 1.0})]
        self.assertEqual(gradeability(points), 10)
        self.assertTrue(math.isnan(gradeability(points[2:])))

    def test_read_rig_refuses_a_file_without_the_columns(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "rig.csv")
            with open(path, "w") as f:
                f.write("t,phase,drawbar_pull\n0.1,rest,0\n")
            with self.assertRaisesRegex(ValueError, "rig.csv: no column chassis_x, .*: not a rig.csv"):
                read_rig(path)


if __name__ == "__main__":
    unittest.main()
