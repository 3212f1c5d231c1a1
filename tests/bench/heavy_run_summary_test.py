"""bench/heavy_run_summary.py: the heavy line's figures from a hand-made run folder. The vehicle
(1000 kg) rests until its sprockets start at t = 1.0 s; the terrain carries 9810 N +- 5% over
0.5..1.0 s (a swing of mean 1.0 W), then the sprockets turn at 4 and 8 rad/s with torques 100
and 300 N m; the fastest grain is 1.5 m/s."""
import csv
import io
import json
import os
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "bench"))
import heavy_run_summary  # noqa: E402

DT = 0.1


def write_csv(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def make_run(folder):
    for sub in ("vehicle", "terrain"):
        os.makedirs(os.path.join(folder, sub))
    times = [round(DT * (k + 1), 10) for k in range(20)]  # 0.1 .. 2.0
    speed = {t: 0.0 if t < 1.05 else (4.0 if t < 1.55 else 8.0) for t in times}
    torque = {t: 0.0 if t < 1.05 else (100.0 if t < 1.55 else 300.0) for t in times}
    write_csv(os.path.join(folder, "vehicle", "vehicle.csv"),
              ["t", "sprocket_speed_left", "sprocket_speed_right", "sprocket_torque_left", "sprocket_torque_right"],
              [[t, speed[t], speed[t], torque[t], torque[t]] for t in times])
    swing = {0.5: 1.05, 0.6: 0.95, 0.7: 1.05, 0.8: 0.95, 0.9: 1.05, 1.0: 0.95}
    shoes = []
    for t in times:
        total = 9810.0 * swing.get(t, 2.0)  # 2 W outside the rest window: must not count
        shoes += [[t, 0, total / 2], [t, 1, total / 2]]
    write_csv(os.path.join(folder, "vehicle", "shoes.csv"), ["t", "shoe", "fz"], shoes)
    write_csv(os.path.join(folder, "terrain", "solver.csv"),
              ["step", "t", "contacts", "iterations", "residual", "max_grain_speed"],
              [[0, 0.0, 10, 100, 1e-3, 0.4], [1, 0.1, 10, 100, 1e-3, 1.5], [2, 0.2, 10, 100, 1e-3, 0.2]])
    with open(os.path.join(folder, "vehicle", "run.json"), "w") as f:
        json.dump({"vehicle": {"name": "box", "total_mass_kg": 1000.0}}, f)
    with open(os.path.join(folder, "run.json"), "w") as f:
        json.dump({"summary": {"steps": 1000, "particles": 5000, "step_ms": 12.5, "distance_m": 1.25,
                               "sinkage_m": 0.03, "driving_window_s": [1.6, 2.0]}}, f)


class HeavyRunSummaryTest(unittest.TestCase):
    def test_the_line(self):
        folder = tempfile.mkdtemp()
        make_run(folder)
        out = io.StringIO()
        with redirect_stdout(out):
            self.assertEqual(heavy_run_summary.main(["x", folder, "box", "600"]), 0)
        heavy, rest = out.getvalue().splitlines()
        fields = dict(item.split("=", 1) for item in heavy.split()[1:])
        self.assertEqual(fields["vehicle"], "box")
        self.assertEqual(fields["grains"], "5000")
        self.assertEqual(fields["wall_s"], "600")
        # The sprockets first turn at t = 1.1: the rest window is [0.6, 1.1), samples 0.6..1.0
        # (0.95, 1.05, 0.95, 1.05, 0.95 W): mean 0.99; the 2 W outside it does not count.
        self.assertEqual(fields["rest_force_ratio"], "0.9900")
        self.assertIn("window_s=0.600,1.100", rest)
        # Torque: over the launcher's driving window, 1.6..2.0 s: 300 N m.
        self.assertEqual(fields["sprocket_torque_Nm"], "300")
        self.assertEqual(fields["max_grain_speed"], "1.500")
        self.assertEqual(fields["max_grain_speed_not_in_flight"], "1.500")  # 0.4, 1.5, 0.2: no parabola
        self.assertEqual(fields["sinkage_m"], "0.0300")

    def test_a_grain_in_flight_is_told_apart(self):
        """A grain thrown at 6 m/s (4 horizontal, 4.47 up) flies 1 s in steps of 2 ms while the
        bed's fastest grain is 0.8 m/s before and after."""
        folder = tempfile.mkdtemp()
        make_run(folder)
        rows, dt = [], 0.002
        for k in range(800):
            t = k * dt
            if 0.2 <= t < 1.2:
                vz = 4.47 - 9.81 * (t - 0.2)
                speed = (4.0 ** 2 + vz ** 2) ** 0.5
            else:
                speed = 0.8
            rows.append([k, t, 10, 100, 1e-3, speed])
        write_csv(os.path.join(folder, "terrain", "solver.csv"),
                  ["step", "t", "contacts", "iterations", "residual", "max_grain_speed"], rows)
        out = io.StringIO()
        with redirect_stdout(out):
            heavy_run_summary.main(["x", folder, "box", "600"])
        fields = dict(item.split("=", 1) for item in out.getvalue().splitlines()[0].split()[1:])
        self.assertEqual(fields["max_grain_speed_not_in_flight"], "0.800")
        self.assertGreater(float(fields["max_grain_speed"]), 6.0)

    def test_a_given_rest_window(self):
        folder = tempfile.mkdtemp()
        make_run(folder)
        out = io.StringIO()
        with redirect_stdout(out):
            heavy_run_summary.main(["x", folder, "box", "600", "--rest-window", "0.5,1.0"])
        heavy, rest = out.getvalue().splitlines()
        # [0.5, 1.0): 1.05, 0.95, 1.05, 0.95, 1.05: mean 1.01 W, swing 0.95..1.05.
        self.assertIn("rest_force_ratio=1.0100", heavy)
        self.assertIn("ratio_min=0.9500 ratio_max=1.0500", rest)

    def test_a_run_that_never_drove_is_refused_with_why(self):
        folder = tempfile.mkdtemp()
        make_run(folder)
        with open(os.path.join(folder, "run.json"), "w") as f:
            json.dump({"summary": {"steps": 10, "particles": 5000, "step_ms": 12.5, "distance_m": 0.0,
                                   "sinkage_m": None, "driving_window_s": None}}, f)
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            self.assertEqual(heavy_run_summary.main(["x", folder, "box", "600"]), 2)
        self.assertEqual(out.getvalue(), "")
        self.assertIn("no driving window", err.getvalue())

    def test_a_run_that_has_not_ended_is_refused_with_why(self):
        folder = tempfile.mkdtemp()
        make_run(folder)
        with open(os.path.join(folder, "run.json"), "w") as f:  # what a run stopped by SIGUSR1 leaves
            json.dump({"program": "trackcosim", "stopped": {"signal": "SIGUSR1", "coupling_step": 785}}, f)
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            self.assertEqual(heavy_run_summary.main(["x", folder, "box", "600"]), 2)
            os.remove(os.path.join(folder, "run.json"))  # one still running has none yet
            self.assertEqual(heavy_run_summary.main(["x", folder, "box", "600"]), 2)
        self.assertEqual(out.getvalue(), "")
        self.assertEqual(err.getvalue().count("not a finished run"), 2)

    def test_the_sinkage_is_measured_again(self):
        """A run folder with what tools/mobility/sinkage.py reads (tests/tools/sinkage_test.py's: two loaded
        shoes 0.01 and 0.02 m deep at t = 0.1, one 0.03 m deep at 0.2, a shoe that grains ride up
        the top run and one pressed at the sprocket left out) and a stale run.json figure: the
        line gives the measure's mean over the driving window, (0.015 + 0.03) / 2."""
        sys.path.insert(0, os.path.join(HERE, "..", "tools"))
        from sinkage_test import write_run
        folder = os.path.join(tempfile.mkdtemp(), "run")
        write_run(folder)
        write_csv(os.path.join(folder, "vehicle", "vehicle.csv"),
                  ["t", "sprocket_speed_left", "sprocket_speed_right", "sprocket_torque_left", "sprocket_torque_right"],
                  [[0.1, 1.0, 1.0, 10.0, 10.0], [0.2, 1.0, 1.0, 10.0, 10.0]])
        write_csv(os.path.join(folder, "terrain", "solver.csv"),
                  ["step", "t", "contacts", "iterations", "residual", "max_grain_speed"], [[0, 0.1, 10, 100, 1e-3, 0.3]])
        with open(os.path.join(folder, "vehicle", "run.json"), "w") as f:
            json.dump({"vehicle": {"name": "box", "total_mass_kg": 100.0}}, f)
        with open(os.path.join(folder, "run.json"), "w") as f:
            json.dump({"summary": {"steps": 2, "particles": 11, "step_ms": 1.0, "distance_m": 0.1,
                                   "sinkage_m": -0.5, "driving_window_s": [0.0, 1.0]}}, f)
        out = io.StringIO()
        with redirect_stdout(out):
            heavy_run_summary.main(["x", folder, "box", "60", "--rest-window", "0.0,0.3"])
        self.assertIn(" sinkage_m=0.0225 ", out.getvalue().splitlines()[0])


if __name__ == "__main__":
    unittest.main()
