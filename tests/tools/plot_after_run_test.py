"""The plots at the end of `trackcosim run` land in RUN_DIR/plots even when the launcher runs
under a python3 without numpy or matplotlib (issue 34): `bash tools/quickstart.sh run` once called
`python3 tools/launcher/trackcosim.py`, a pyenv python3 came first on PATH, and the run ended with
`trackcosim: warning: no plots (ModuleNotFoundError: No module named 'numpy')`. The launcher is
run here under this test's python3 with numpy and matplotlib made unimportable; it must hand the
plots to tools/trackcosim, whose wrapper picks the Debian python3 that has them. The quickstart
itself (which builds and runs for minutes) is checked to call tools/trackcosim, not python3."""
import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
from plot_run_test import write_cosim  # noqa: E402

WITHOUT_NUMPY = """
import sys
sys.modules["numpy"] = sys.modules["matplotlib"] = None  # import numpy now raises ImportError
sys.path.insert(0, sys.argv[1])
from launcher import trackcosim
trackcosim.plot_after_run(sys.argv[2])
"""
DEBIAN_PLOTS = subprocess.run(["/usr/bin/python3", "-c", "import matplotlib, numpy"],
                              capture_output=True).returncode == 0 if os.path.exists("/usr/bin/python3") else False


class PlotAfterRunTest(unittest.TestCase):
    @unittest.skipUnless(DEBIAN_PLOTS, "/usr/bin/python3 cannot import matplotlib and numpy (tools/install_deps.sh)")
    def test_plots_land_in_the_run_folder_under_a_python_without_numpy(self):
        with tempfile.TemporaryDirectory() as tmp:
            folder = os.path.join(tmp, "run")
            write_cosim(folder)
            result = subprocess.run([sys.executable, "-c", WITHOUT_NUMPY, os.path.join(ROOT, "tools"), folder],
                                    capture_output=True, text=True, timeout=120)
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertNotIn("warning: no plots", result.stderr)
            self.assertIn("motion.png", os.listdir(os.path.join(folder, "plots")))
            self.assertIn(os.path.join(folder, "plots", "motion.png"), result.stdout)

    def test_the_quickstart_runs_the_launcher_through_its_wrapper(self):
        with open(os.path.join(ROOT, "tools", "quickstart.sh")) as f:
            text = f.read()
        self.assertRegex(text, r"\btools/trackcosim run configs/cosim_gravel.json")
        self.assertIsNone(re.search(r"python3?\s+\S*tools/(launcher/)?trackcosim\.py", text))


if __name__ == "__main__":
    unittest.main()
