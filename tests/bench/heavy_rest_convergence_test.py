"""bench/heavy_rest_convergence.py on hand-made run folders: a 1000 kg vehicle at rest whose
sinkage creeps at 2 mm/s over 0.5..1.0 s (3.0 cm at 0.75 s) and whose terrain force swings
around the weight; a second run sinks 10% deeper (not converged), a third 2% (converged). The
sinkage series stands in for tools/mobility/sinkage.py's (which reads the VTK series)."""
import io
import json
import os
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "bench"))
import heavy_rest_convergence  # noqa: E402
from heavy_run_summary_test import write_csv  # noqa: E402

TIMES = [round(0.05 * k, 10) for k in range(1, 25)]  # 0.05 .. 1.2


def make_run(folder, scale):
    for sub in ("vehicle", "terrain"):
        os.makedirs(os.path.join(folder, sub))
    swing = [1.02, 0.98]
    shoes = []
    for k, t in enumerate(TIMES):
        total = 9810.0 * (swing[k % 2] if 0.5 <= t <= 1.0 else 3.0)  # 3 W outside: must not count
        shoes += [[t, 0, total / 2], [t, 1, total / 2]]
    write_csv(os.path.join(folder, "vehicle", "shoes.csv"), ["t", "shoe", "fz"], shoes)
    write_csv(os.path.join(folder, "terrain", "solver.csv"), ["step", "t", "residual"],
              [[k, t, 1e-4 if 0.5 <= t <= 1.0 else 1.0] for k, t in enumerate(TIMES)])
    with open(os.path.join(folder, "vehicle", "run.json"), "w") as f:
        json.dump({"vehicle": {"total_mass_kg": 1000.0}}, f)
    return {"t": TIMES, "mean": [scale * (0.03 + 0.002 * (t - 0.75)) for t in TIMES]}


class HeavyRestConvergenceTest(unittest.TestCase):
    def test_lines_and_verdict(self):
        with tempfile.TemporaryDirectory() as tmp:
            series = {}
            for name, scale in (("ref", 1.0), ("deeper", 1.10), ("close", 1.02)):
                series[os.path.join(tmp, name)] = make_run(os.path.join(tmp, name), scale)
            heavy_rest_convergence.missing_inputs = lambda folder: None
            heavy_rest_convergence.sinkage_over_time = lambda folder: series[folder]
            out = io.StringIO()
            with redirect_stdout(out):
                status = heavy_rest_convergence.main(["x", "--window", "0.5,1.0"] + list(series))
            lines = out.getvalue().splitlines()
        self.assertEqual(status, 1)  # "deeper" is 10% off
        fields = [dict(item.split("=", 1) for item in line.split()[1:]) for line in lines]
        self.assertEqual([f["converged"] for f in fields], ["yes", "no", "yes"])
        self.assertEqual(fields[0]["sinkage_m"], "0.0300")
        self.assertEqual(fields[0]["creep_mm_s"], "+2.00")
        self.assertEqual(fields[1]["sinkage_change"], "+0.1000")
        self.assertEqual(fields[0]["force_ratio_min"], "0.9800")
        self.assertEqual(fields[0]["force_ratio_max"], "1.0200")
        self.assertEqual(fields[0]["residual_median"], "1.00e-04")

    def test_bad_window_is_bad_input(self):
        err = io.StringIO()
        with redirect_stderr(err):
            self.assertEqual(heavy_rest_convergence.main(["x", "--window", "1.0,0.5", "a", "b"]), 2)
        self.assertIn("--window", err.getvalue())


if __name__ == "__main__":
    unittest.main()
