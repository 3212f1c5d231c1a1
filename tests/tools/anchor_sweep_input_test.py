"""tools/anchor/anchor_sweep.py refuses bad input before anything runs (issue 34), each with one
`anchor_sweep: error:` line naming the file and the key, exit status 2 and no traceback: a folder
without its sweep.json, a sweeps file with a trailing comma, a scenario without `torques`, a
torque given as a string or as NaN, a --sweeps file that does not exist, a bed config that does
not exist (once reported after the fact as "the bed did not settle"), a NaN on the command line.
terrain_node is a stand-in that records being started: none of these may start it."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SCENARIO = {"bed": "configs/anchor_small_bed.json", "run": "configs/anchor_small.json", "torques": [37.5, 50],
            "pull_for_torques": 37.5, "pulls": [125], "torque_for_pulls": 62.5}


class AnchorSweepInputTest(unittest.TestCase):
    def setUp(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.folder = folder.name
        self.started = os.path.join(self.folder, "terrain_node_started")
        self.terrain_node = os.path.join(self.folder, "terrain_node")
        with open(self.terrain_node, "w") as f:
            f.write("#!/bin/sh\ntouch %s\nexit 1\n" % self.started)
        os.chmod(self.terrain_node, 0o755)

    def sweeps(self, text_or_scenario):
        path = os.path.join(self.folder, "sweeps.json")
        with open(path, "w") as f:
            f.write(text_or_scenario if isinstance(text_or_scenario, str) else
                    json.dumps({"small": text_or_scenario}))
        return path

    def refuses(self, *args, words=()):
        result = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "anchor", "anchor_sweep.py")] + list(args)
                                + ["--terrain-node", self.terrain_node],
                                cwd=ROOT, capture_output=True, text=True, timeout=60)
        self.assertNotIn("Traceback", result.stdout + result.stderr)
        self.assertEqual(result.returncode, 2, result.stdout + result.stderr)
        self.assertEqual(len(result.stderr.splitlines()), 1, result.stderr)
        self.assertTrue(result.stderr.startswith("anchor_sweep"), result.stderr)
        for word in words:
            self.assertIn(word, result.stderr)
        self.assertFalse(os.path.exists(self.started), "terrain_node was started")
        return result.stderr

    def test_a_folder_without_its_plan(self):
        missing = os.path.join(self.folder, "no_sweep")
        for command in ("plot", "case"):
            self.refuses(command, "--out", missing, words=("--out %s: no sweep folder" % missing, "sweep.json"))

    def test_a_sweeps_file_that_is_not_json(self):
        text = json.dumps({"small": SCENARIO}).replace("[37.5, 50]", "[37.5, 50,]")
        path = self.sweeps(text)
        self.refuses("--sweeps", path, "--out", os.path.join(self.folder, "o"),
                     words=(path, "not a sweeps file", "line 1 column"))

    def test_missing_and_wrong_keys_are_named(self):
        out = ("--out", os.path.join(self.folder, "o"))
        path = self.sweeps({k: v for k, v in SCENARIO.items() if k != "torques"})
        self.refuses("--sweeps", path, *out, words=(path + ": small.torques: required key is missing",))
        path = self.sweeps(dict(SCENARIO, torques=[37.5, "50"]))
        self.refuses("--sweeps", path, *out, words=('small.torques[1]: expected a finite number, got the string "50"',))
        path = self.sweeps('{"small": %s}' % json.dumps(SCENARIO).replace("[37.5, 50]", "[37.5, NaN]"))
        self.refuses("--sweeps", path, *out, words=("small.torques[1]: expected a finite number, got the number nan",))
        path = self.sweeps(dict(SCENARIO, press=float("inf")))
        self.refuses("--sweeps", path, *out, words=("small.press: expected a finite number",))
        self.refuses("--sweeps", path, "--scenario", "big", *out, words=("no scenario 'big' (there: small)",))

    def test_a_sweeps_file_that_does_not_exist(self):
        path = os.path.join(self.folder, "none.json")
        self.refuses("--sweeps", path, "--out", os.path.join(self.folder, "o"), words=("--sweeps %s: no such file" % path,))

    def test_a_bed_config_that_does_not_exist_is_named_before_settling(self):
        path = self.sweeps(dict(SCENARIO, bed="configs/no_such_bed.json"))
        error = self.refuses("--sweeps", path, "--out", os.path.join(self.folder, "o"),
                             words=("configs/no_such_bed.json", "small.bed", "No such file"))
        self.assertNotIn("did not settle", error)

    def test_a_number_option_refuses_nan(self):
        self.refuses("--press", "nan", "--out", os.path.join(self.folder, "o"),
                     words=("argument --press: expected a finite number, got 'nan'",))


if __name__ == "__main__":
    unittest.main()
