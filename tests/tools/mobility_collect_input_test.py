"""`tools/trackcosim mobility ... --collect` on point folders whose rig.csv is broken (issue 34):
a rig.csv torn in a row (once `internal error: TypeError ... (rig_analysis.py:45)`), a header-only
one (once counted done=1 failed=0, exit status 0), one with a cell that is not a number, one
whose rows end before the measure phase. Each point counts as failed with its file, line and
column named; the good point still makes its row; exit status 1 (a point failed); no traceback.
The points are written by the stand-in vehicle_node (fake_rig_vehicle.py), then broken here."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
TRACKCOSIM = os.path.join(ROOT, "tools", "launcher", "trackcosim.py")
sys.path.insert(0, os.path.join(ROOT, "tools"))
from launcher.program_lines import key_values  # noqa: E402

VEHICLE = os.path.join(ROOT, "configs", "vehicles", "ndia_light_robot.json")
TERRAIN = os.path.join(ROOT, "tests", "configs", "robot_test_bed.json")
SLIPS = ("0.1", "0.2")


class MobilityCollectInputTest(unittest.TestCase):
    def setUp(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.run_file = os.path.join(folder.name, "run.json")
        with open(self.run_file, "w") as f:
            json.dump({"vehicle": {"config": VEHICLE}, "terrain": {"config": TERRAIN}}, f)
        self.out = os.path.join(folder.name, "out")
        for slip in SLIPS:
            point = os.path.join(self.out, "dbp_" + slip)
            os.makedirs(point)
            with open(os.path.join(point, "rig.json"), "w") as f:
                json.dump({"mode": "slip", "slip": float(slip), "track_speed": 0.5, "speed": 0, "slope_deg": 0,
                           "pull": 0, "rest_time": 0.2, "ramp_time": 0.5, "settle_time": 0.5}, f)
            subprocess.run([sys.executable, os.path.join(HERE, "fake_rig_vehicle.py"), "--rig",
                            os.path.join(point, "rig.json"), "--out", os.path.join(point, "vehicle")],
                           check=True, capture_output=True)
        self.broken = os.path.join(self.out, "dbp_0.2", "vehicle", "rig.csv")
        with open(self.broken) as f:
            self.lines = f.read().splitlines(keepends=True)

    def collect(self, broken_lines):
        with open(self.broken, "w") as f:
            f.write("".join(broken_lines))
        result = subprocess.run([sys.executable, TRACKCOSIM, "mobility", "dbp",
                                 self.run_file, "--slips", ",".join(SLIPS), "--collect", "--rigid", "--out", self.out],
                                capture_output=True, text=True, timeout=120)
        self.assertNotIn("Traceback", result.stdout + result.stderr)
        self.assertNotIn("internal error", result.stderr)
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        last = key_values("mobility", result.stdout.strip().splitlines()[-1])
        self.assertEqual((last["done"], last["failed"]), ("1", "1"), result.stdout)
        self.assertIn("dbp_0.2 (2/2) has no figures: " + self.broken, result.stdout)
        return result.stdout

    def test_a_torn_row_is_named_by_its_line(self):
        torn = self.lines[:50] + [self.lines[50][:20] + "\n"] + self.lines[51:]
        self.assertIn(self.broken + ": line 51: ", self.collect(torn))

    def test_a_file_cut_in_its_last_row_is_named(self):
        self.assertIn(self.broken + ": line 120: ", self.collect(self.lines[:119] + [self.lines[119][:30]]))

    def test_a_header_only_rig_csv_is_a_failed_point(self):
        self.assertIn("no rows, only the header", self.collect(self.lines[:1]))

    def test_a_cell_that_is_not_a_number_is_named(self):
        header = self.lines[0].strip().split(",")
        cells = self.lines[30].strip().split(",")
        cells[header.index("drawbar_pull")] = "abc"
        self.assertIn(self.broken + ": line 31, column drawbar_pull: expected a finite number, got 'abc'",
                      self.collect(self.lines[:30] + [",".join(cells) + "\n"] + self.lines[31:]))

    def test_rows_that_end_before_the_measure_phase_are_a_failed_point(self):
        before = [line for line in self.lines if ",measure," not in line]
        self.assertIn("no row of the measure phase", self.collect(before))


if __name__ == "__main__":
    unittest.main()
