"""bench/heavy_stages.py on a hand-made run folder: the mean time per stage, the solver's means and
ns per contact-iteration (solve / (contacts x iterations)), the moving patch's active grains; a
last row cut short by a running run is left out; a folder without the files is refused with 2."""
import io
import os
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))
import heavy_stages  # noqa: E402

FILES = {
    "timing.csv": "step,t,terrain,solve,halo\n0,0,1.0,0.9,0.1\n1,0.002,3.0,2.9,0.3\n2,0.004,9.0,",
    "solver.csv": "step,t,contacts,iterations,residual\n0,0,1000,200,1e-4\n1,0.002,3000,200,3e-4\n",
    "patch.csv": "step,t,active\n0,0,500\n1,0.002,700\n",
}


class HeavyStagesTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        os.makedirs(os.path.join(self.tmp.name, "terrain"))
        for name, text in FILES.items():
            with open(os.path.join(self.tmp.name, "terrain", name), "w") as f:
                f.write(text)

    def run_it(self, folder):
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            status = heavy_stages.run_guarded("heavy_stages.py", heavy_stages.main, ["heavy_stages.py", folder])
        return status, out.getvalue().splitlines(), err.getvalue()

    def test_means_per_stage_and_of_the_solver(self):
        status, lines, _ = self.run_it(self.tmp.name)
        self.assertEqual(status, 0)
        self.assertEqual(lines[0], "heavy_stages terrain_ms=2000.0 solve_ms=1900.0 halo_ms=200.0")  # torn row left out
        # 1.9 s / (2000 contacts x 200 iterations) = 4750 ns
        self.assertEqual(lines[1], "heavy_solver contacts_mean=2000 iterations_mean=200.0 residual_mean=2.00e-04 "
                                   "ns_per_contact_iteration=4750.0 active_mean=600")

    def test_a_folder_without_the_files_is_refused(self):
        status, _, err = self.run_it(os.path.join(self.tmp.name, "missing"))
        self.assertEqual(status, 2)
        self.assertIn("timing.csv", err)


if __name__ == "__main__":
    unittest.main()
