"""`tools/trackcosim plot` refuses a run folder it cannot plot (issue 34), with one
`trackcosim: error:` line, exit status 2 and no traceback: a vehicle.csv with one `abc` cell, a
NaN or an infinity (once `could not convert string to float: 'abc'`, naming no file) is named by
file, line and column; a binary vehicle.csv (once `'utf-8' codec can't decode byte 0xa7`) by file
and line, and column where its bytes sit in a row; a folder of another program (once exit status
0 and no figure) is refused, and no empty plots folder is left. Needs matplotlib and numpy (the
Debian python3; tests/tools/CMakeLists.txt finds it)."""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
TRACKCOSIM = os.path.join(ROOT, "tools", "launcher", "trackcosim.py")
sys.path.insert(0, HERE)
from plot_run_test import write_cosim  # noqa: E402


class PlotInputTest(unittest.TestCase):
    def setUp(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.folder = os.path.join(folder.name, "run")
        write_cosim(self.folder)
        self.vehicle_csv = os.path.join(self.folder, "vehicle", "vehicle.csv")

    def set_cell(self, line, column, text):
        with open(self.vehicle_csv) as f:
            lines = f.read().splitlines()
        cells = lines[line - 1].split(",")
        cells[lines[0].split(",").index(column)] = text
        lines[line - 1] = ",".join(cells)
        with open(self.vehicle_csv, "w") as f:
            f.write("\n".join(lines) + "\n")

    def refuses(self, *words):
        result = subprocess.run([sys.executable, TRACKCOSIM, "plot", self.folder],
                                capture_output=True, text=True, timeout=120)
        self.assertNotIn("Traceback", result.stdout + result.stderr)
        self.assertEqual(result.returncode, 2, result.stdout + result.stderr)
        error = result.stderr.splitlines()[-1]
        self.assertTrue(error.startswith("trackcosim: error: "), result.stderr)
        self.assertEqual([line for line in result.stderr.splitlines() if "error" in line], [error], result.stderr)
        for word in words:
            self.assertIn(word, error)
        return error

    def test_a_cell_that_is_not_a_number_is_named(self):
        self.set_cell(3, "x", "abc")
        self.refuses(self.vehicle_csv + ": line 3, column x: expected a finite number, got 'abc'")

    def test_nan_and_infinities_are_refused(self):
        for text in ("nan", "inf", "-inf"):
            write_cosim(self.folder)
            self.set_cell(4, "vx", text)
            self.refuses(self.vehicle_csv + ": line 4, column vx: expected a finite number, got %r" % text)

    def test_a_binary_file_is_named(self):
        with open(self.vehicle_csv, "rb") as f:
            lines = f.read().split(b"\n")
        lines[2] = lines[2][:1] + b"\xa7\x01" + lines[2][1:]
        with open(self.vehicle_csv, "wb") as f:
            f.write(b"\n".join(lines))
        self.refuses(self.vehicle_csv + ": line 3, column t: byte 0xa7 is not text")
        with open(self.vehicle_csv, "wb") as f:
            f.write(bytes(range(256)) * 8)
        self.refuses(self.vehicle_csv + ": line 1: not a CSV file")

    def test_a_folder_of_another_program_is_refused(self):
        for name in os.listdir(self.folder):
            if name != "vehicle":
                os.remove(os.path.join(self.folder, name))
        for name in os.listdir(os.path.join(self.folder, "vehicle")):
            os.remove(os.path.join(self.folder, "vehicle", name))
        with open(self.vehicle_csv, "w") as f:
            f.write("name,score\nada,3\n")
        self.refuses(self.vehicle_csv + ": no column t: not a CSV file of a trackcosim run")
        with open(self.vehicle_csv, "w") as f:
            f.write("t,score\n0.1,3\n")
        self.refuses(self.folder + ": no figure could be made from it", "motion.png: vehicle.csv has no column x")
        self.assertFalse(os.path.exists(os.path.join(self.folder, "plots")))


if __name__ == "__main__":
    unittest.main()
