"""tools/trackcosim refuses a bad run file or command line before anything starts, with one
`trackcosim: error:` line naming the key or option, never a Python traceback (issue 17): a typo
inside vehicle or terrain once ran with the default it hid. Runs the launcher with --dry-run in
a subprocess; no MPI or built programs are needed, as every case stops before they are looked up."""
import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
TRACKCOSIM = os.path.join(ROOT, "tools", "launcher", "trackcosim.py")
sys.path.insert(0, os.path.join(ROOT, "tools"))
from common.run_file import read_run_file  # noqa: E402
from launcher import trackcosim  # noqa: E402

VEHICLE = os.path.join(ROOT, "configs", "vehicles", "ndia_light_robot.json")
TERRAIN = os.path.join(ROOT, "tests", "configs", "robot_test_bed.json")


def run_document(**changes):
    """A valid run file with sections updated by changes ({"vehicle": {...}} merges; None drops)."""
    run = {"vehicle": {"config": VEHICLE}, "terrain": {"config": TERRAIN}}
    for key, value in changes.items():
        if isinstance(value, dict) and key in run:
            run[key].update(value)
        else:
            run[key] = value
    return run


def read_run_file_text(folder, document):
    """The checked run file of document, written to folder."""
    path = os.path.join(folder, "run.json")
    with open(path, "w") as f:
        json.dump(document, f)
    return read_run_file(path)


class LauncherInputTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)

    def launcher(self, *args, env=None):
        result = subprocess.run([sys.executable, TRACKCOSIM] + list(args),
                                cwd=ROOT, capture_output=True, text=True, timeout=60, env=env)
        self.assertNotIn("Traceback", result.stdout + result.stderr)
        return result

    def refuses(self, document, *words, options=()):
        """Runs --dry-run on document (JSON text or a value); asserts exit 2 (bad input) and words in the error."""
        path = os.path.join(self.folder.name, "run.json")
        with open(path, "w") as f:
            f.write(document if isinstance(document, str) else json.dumps(document))
        result = self.launcher("run", path, "--dry-run", "--out", os.path.join(self.folder.name, "out"), *options)
        self.assertEqual(result.returncode, 2, result.stdout + result.stderr)
        self.assertTrue(result.stderr.startswith("trackcosim: error: "), result.stderr)
        for word in words:
            self.assertIn(word, result.stderr)
        return result.stderr

    def test_a_typo_in_vehicle_is_named_with_the_closest_key(self):
        error = self.refuses(run_document(vehicle={"end_tim": 2}), "run.json: vehicle.end_tim: unknown key",
                             "did you mean end_time?", "coupling_scheme")
        self.assertEqual(len(error.splitlines()), 1, error)
        self.refuses(run_document(vehicle={"coupling_schme": "sequential"}), "vehicle.coupling_schme",
                     "did you mean coupling_scheme?")

    def test_an_unknown_key_at_the_top_or_in_terrain_is_refused(self):
        self.refuses(run_document(outptu="x"), "outptu: unknown key", "vehicle, terrain, output")
        self.refuses(run_document(terrain={"rank": 2}), "terrain.rank: unknown key", "did you mean ranks?")

    def test_the_run_file_must_be_an_object_of_objects(self):
        self.refuses("[]", "expected an object, got an array")
        self.refuses(run_document(vehicle=[VEHICLE]), "vehicle: expected an object")
        self.refuses('{"vehicle": ', "not a JSON run file", "line 1")
        self.refuses({"vehicle": {"config": VEHICLE}}, "terrain: required key is missing")

    def test_wrong_types_name_the_key_and_what_it_expects(self):
        self.refuses(run_document(output=5), "output: expected a path (a string), got the number 5")
        self.refuses(run_document(terrain={"ranks": "abc"}), "terrain.ranks: expected a whole number of ranks >= 1",
                     '"abc"')
        self.refuses(run_document(terrain={"ranks": 0}), "terrain.ranks: expected a whole number of ranks >= 1")
        self.refuses(run_document(terrain={"ranks": True}), "terrain.ranks")
        self.refuses(run_document(vehicle={"end_time": "2s"}), "vehicle.end_time: expected a number of seconds")
        self.refuses(run_document(vehicle={"coupling_scheme": "seq"}), "vehicle.coupling_scheme", "sequential")
        self.refuses(run_document(vehicle={"config": "no/such/vehicle.json"}), "vehicle.config: no such file")
        for interval in (0, -1, "10", float("nan"), True):
            self.refuses(run_document(vehicle={"checkpoint_interval": interval}),
                         "vehicle.checkpoint_interval: expected a number of seconds > 0")

    def test_a_checkpoint_interval_reaches_vehicle_node(self):
        run = read_run_file_text(self.folder.name, run_document(vehicle={"checkpoint_interval": 30}))
        found = trackcosim.find_program
        trackcosim.find_program = lambda name: name  # no built programs needed
        try:
            vehicle_cmd, terrain_cmd = trackcosim.program_commands(run["vehicle"], TERRAIN, "out")
        finally:
            trackcosim.find_program = found
        self.assertEqual(vehicle_cmd[vehicle_cmd.index("--checkpoint-interval") + 1], "30")
        self.assertNotIn("--checkpoint-interval", terrain_cmd)

    def test_the_command_line_is_checked(self):
        valid = run_document()
        for ranks in ("abc", "0", "-2"):
            self.refuses(valid, "--terrain-ranks", "usage: trackcosim run CONFIG", options=("--terrain-ranks", ranks))
        self.refuses(valid, "unknown argument '--bogus'", options=("--bogus",))
        self.refuses(valid, "--launcher must be", options=("--launcher", "qsub"))
        missing = self.launcher("run", "configs/cosim_gravel.json", "--out")
        self.assertEqual(missing.returncode, 2)
        self.assertIn("--out needs a value", missing.stderr)

    def test_an_out_folder_under_a_file_is_refused_naming_the_file(self):
        a_file = os.path.join(self.folder.name, "a_file")
        open(a_file, "w").close()
        under = os.path.join(a_file, "run")
        self.refuses(run_document(), "--out %s: %s is a file, not a folder" % (under, a_file), options=("--out", under))

    def test_help_exits_0_and_a_bare_call_prints_usage_with_2(self):
        for word in ("--help", "-h", "help"):
            result = self.launcher(word)
            self.assertEqual(result.returncode, 0)
            self.assertIn("trackcosim run CONFIG", result.stdout)
        bare = self.launcher()
        self.assertEqual(bare.returncode, 2)
        self.assertIn("trackcosim run CONFIG", bare.stderr)

    def test_a_misspelt_subcommand_is_one_error_line_naming_it(self):
        result = self.launcher("rnu", "configs/cosim_gravel.json")
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertEqual(result.stdout, "")
        self.assertEqual(len(result.stderr.splitlines()), 1, result.stderr)
        self.assertIn("trackcosim: error: unknown subcommand 'rnu' (did you mean run? expected one of: run, plot, "
                      "render, mobility, help", result.stderr)

    def test_a_terrain_config_over_tcp_is_refused_at_dry_run_naming_the_key(self):
        terrain = os.path.join(self.folder.name, "tcp_terrain.json")
        with open(TERRAIN) as f:
            text = f.read()
        with open(terrain, "w") as f:
            f.write(text.replace('"transport": "mpi"', '"transport": "tcp"', 1))
        error = self.refuses(run_document(terrain={"config": terrain}), "terrain.config %s: cosim.transport" % terrain,
                             '"tcp"', "remove the key", "vehicle_node --terrain tcp")
        self.assertEqual(len(error.splitlines()), 1, error)

    def test_exit_status_says_whether_the_run_failed_or_lost_its_peer(self):
        """docs/exit-status.md: the launcher's own status is 1 for a failed co-simulation, 2 when a
        program refused its input (2) and 3 when mpirun reports a program's lost peer (3),
        whatever mpirun's other statuses."""
        bin_folder = os.path.join(self.folder.name, "bin")
        for name, body in (("mpirun", 'echo "terrain_node: error: the vehicle stopped answering"; exit $FAKE_STATUS'),
                           ("vehicle_node/vehicle_node", "exit 0"), ("terrain_node/terrain_node", "exit 0")):
            path = os.path.join(bin_folder, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write("#!/bin/sh\n%s\n" % body)
            os.chmod(path, 0o755)
        path = os.path.join(self.folder.name, "run.json")
        with open(path, "w") as f:
            json.dump(run_document(), f)
        for mpirun_status, status in (("1", 1), ("2", 2), ("3", 3), ("137", 1)):
            env = dict(os.environ, PATH=bin_folder + os.pathsep + os.environ["PATH"], TRACKCOSIM_BUILD=bin_folder,
                       TRACKCOSIM_BED_STORE="off", FAKE_STATUS=mpirun_status)
            result = self.launcher("run", path, "--out", os.path.join(self.folder.name, "out"), "--no-plot", env=env)
            self.assertEqual(result.returncode, status, result.stdout + result.stderr)
            what = "a program refused its input" if status == 2 else "the co-simulation failed"
            self.assertIn("trackcosim: error: %s (exit status %s)" % (what, mpirun_status), result.stderr)

    def test_a_shipped_run_file_passes(self):
        cwd = os.getcwd()
        os.chdir(ROOT)  # its paths are relative to the source tree
        try:
            run = read_run_file("configs/cosim_gravel.json")
        finally:
            os.chdir(cwd)
        self.assertEqual(run["terrain"]["ranks"], 2)
        self.assertEqual(run["vehicle"]["coupling_scheme"], "sequential")

    def test_a_launcher_bug_is_said_as_one_line_not_a_traceback(self):
        def broken(argv):
            return {}["missing"]
        real, trackcosim.main = trackcosim.main, broken
        self.addCleanup(setattr, trackcosim, "main", real)
        os.environ.pop("TRACKCOSIM_DEBUG", None)
        stderr = io.StringIO()
        with contextlib.redirect_stderr(stderr):
            status = trackcosim.run_main(["trackcosim"])
        self.assertEqual(status, 1)
        self.assertIn("trackcosim: internal error: KeyError", stderr.getvalue())
        self.assertIn("please report it", stderr.getvalue())
        self.assertNotIn("Traceback", stderr.getvalue())


if __name__ == "__main__":
    unittest.main()
