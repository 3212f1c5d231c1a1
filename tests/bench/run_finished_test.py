"""bench/run_finished.py: a run folder is finished only when its run.json has the launcher's
summary. A run stopped by a signal also writes run.json (with `stopped`), and a study that took
that for finished skipped the rest of its reference run (bench/run_heavy_convergence.sh did, on
the excavator, until this check)."""
import io
import json
import os
import sys
import tempfile
import unittest
from contextlib import redirect_stderr

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "bench"))
import run_finished  # noqa: E402


class RunFinishedTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def folder(self, run_json):
        """A run folder whose run.json holds `run_json` (a dict, raw text, or None: no file)."""
        path = tempfile.mkdtemp(dir=self.tmp.name)
        if run_json is not None:
            with open(os.path.join(path, "run.json"), "w") as f:
                f.write(run_json if isinstance(run_json, str) else json.dumps(run_json))
        return path

    def status(self, path):
        return run_finished.main(["run_finished.py", path])

    def test_a_run_with_its_summary_is_finished(self):
        self.assertEqual(self.status(self.folder({"program": "trackcosim", "summary": {"steps": 2500}})), 0)

    def test_a_run_stopped_by_a_signal_is_not(self):
        stopped = {"program": "trackcosim", "stopped": {"signal": "SIGUSR1", "coupling_step": 785}}
        self.assertEqual(self.status(self.folder(stopped)), 1)

    def test_no_run_json_or_a_cut_one_is_not(self):
        self.assertEqual(self.status(self.folder(None)), 1)
        self.assertEqual(self.status(self.folder('{"program": "trackcosim", "summ')), 1)
        self.assertEqual(self.status(os.path.join(self.tmp.name, "missing")), 1)

    def test_a_wrong_call_is_bad_input(self):
        with redirect_stderr(io.StringIO()) as err:
            self.assertEqual(run_finished.main(["run_finished.py"]), 2)
        self.assertIn("usage", err.getvalue())


if __name__ == "__main__":
    unittest.main()
