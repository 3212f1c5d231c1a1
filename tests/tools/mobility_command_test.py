"""`tools/trackcosim mobility` end to end, on a stand-in vehicle_node (fake_rig_vehicle.py: its
answers are in its docstring) found through TRACKCOSIM_BUILD, so no build, MPI or Slurm is needed:
  - a bad --slips, an unknown option, a missing value list: one `trackcosim: error:` line;
  - --dry-run prints each point's command with --rig, and for grade the terrain's tilted gravity
    g (-sin a, 0, -cos a) in the point's copy of the terrain config;
  - rigid dbp points in parallel: dbp.csv with DBP/W = 2 i after MSER-5 cut the fake's 20-row
    transient (window 1.40..2.20 s, 81 samples), efficiency 4000 i x (1 - i) 0.5 / (2 x 50 x 5),
    sinkage 0.0 on rigid ground; the parseable last line;
  - a failed point: its folder and exit status, the other rows, exit status 1;
  - --collect: the table from point folders made beforehand; --point K runs point K only;
  - an interrupted point (exit status 130) stops the series: no later point starts, exit status
    130 and how to continue; the same command again reads the finished points without running
    them, runs the rest and makes the whole table; a coupled point left with both checkpoints
    resumes (`--resume POINT`, seen in --dry-run); SIGUSR1 to the series reaches the running
    point and starts no other;
  - resistance, grade (gradeability) and obstacle figures; jobs/mobility_array.sbatch's tasks."""
import csv
import importlib.util
import json
import math
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
TRACKCOSIM = os.path.join(ROOT, "tools", "launcher", "trackcosim.py")
sys.path.insert(0, os.path.join(ROOT, "tools"))
from common.command_line import parse_mobility_command_line  # noqa: E402
from common.run_file import read_run_file  # noqa: E402
from launcher.program_lines import key_values  # noqa: E402
from mobility.mobility_plan import plan_points, prepare_point  # noqa: E402

VEHICLE = os.path.join(ROOT, "configs", "vehicles", "ndia_light_robot.json")
# The figures need matplotlib (tools/install_deps.sh); without it they are a warning, the tables stay.
PLOTS = importlib.util.find_spec("matplotlib") is not None
TERRAIN = os.path.join(ROOT, "tests", "configs", "robot_test_bed.json")


def table(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


class MobilityCommandTest(unittest.TestCase):
    def setUp(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.folder = folder.name
        self.build = os.path.join(self.folder, "build")
        for name, body in (("vehicle_node", 'exec "%s" "%s" "$@"' % (sys.executable, os.path.join(HERE, "fake_rig_vehicle.py"))),
                           ("terrain_node", "exit 0")):
            os.makedirs(os.path.join(self.build, name))
            path = os.path.join(self.build, name, name)
            with open(path, "w") as f:
                f.write("#!/bin/sh\n" + body + "\n")
            os.chmod(path, 0o755)
        self.run_file = os.path.join(self.folder, "run.json")
        with open(self.run_file, "w") as f:
            json.dump({"vehicle": {"config": VEHICLE, "end_time": 9.0}, "terrain": {"config": TERRAIN, "ranks": 2}}, f)
        self.out = os.path.join(self.folder, "out")

    def launcher(self, *args, env=None, status=0):
        environment = dict(os.environ, TRACKCOSIM_BUILD=self.build, **(env or {}))
        result = subprocess.run([sys.executable, TRACKCOSIM, "mobility"] + list(args),
                                cwd=self.folder, capture_output=True, text=True, timeout=120, env=environment)
        self.assertNotIn("Traceback", result.stdout + result.stderr)
        self.assertEqual(result.returncode, status, result.stdout + result.stderr)
        return result

    def last_line(self, result):
        return key_values("mobility", result.stdout.strip().splitlines()[-1])

    def test_bad_command_lines_are_one_error_line(self):
        for args, words in ((["dbp", self.run_file, "--slips", "0,abc"], "--slips: expected a slip in [-1, 1], got 'abc'"),
                            (["dbp", self.run_file, "--slips", "0,1.5"], "got '1.5'"),
                            (["dbp", self.run_file, "--slips", "0.1,0.1"], "--slips: a value is given twice"),
                            (["dbp", self.run_file, "--slips", "0", "--bogus"], "unknown argument '--bogus'"),
                            (["dbp", self.run_file], "mobility dbp needs --slips"),
                            (["dbp", self.run_file, "--speeds", "1"], "unknown argument '--speeds'"),
                            (["drawbar", self.run_file], "mobility needs a test first, one of dbp, resistance"),
                            (["dbp", self.run_file, "--slips", "0,0.1", "--point", "2"], "--point: expected a point index from 0 to 1"),
                            (["dbp", self.run_file, "--slips", "0", "--launcher", "hetjob"], "--launcher must be one of mpirun, srun"),
                            (["obstacle", self.run_file, "--speed", "0.5,1"], "--speed: the obstacle test is one run"),
                            (["dbp", os.path.join(self.folder, "none.json"), "--slips", "0"], "none.json: cannot read the run file")):
            result = self.launcher(*args, "--out", self.out, status=2)  # bad input (docs/exit-status.md)
            lines = result.stderr.splitlines()
            self.assertTrue(lines[0].startswith("trackcosim: error: "), result.stderr)
            self.assertIn(words, lines[0])
            self.assertTrue(len(lines) == 1 or (len(lines) == 2 and lines[1].startswith("usage: trackcosim mobility")),
                            result.stderr)

    def test_dry_run_prints_rig_and_tilted_terrain_gravity(self):
        result = self.launcher("grade", self.run_file, "--slopes", "0,10", "--dry-run", "--out", self.out)
        point = os.path.join(self.out, "grade_10")
        g = [-9.81 * math.sin(math.radians(10)), 0.0, -9.81 * math.cos(math.radians(10))]
        self.assertIn("mobility: grade_10: terrain gravity [%.6g, 0, %.6g] in %s" % (
            g[0], g[2], os.path.join(point, "terrain_config.json")), result.stdout)
        launch = [l for l in result.stdout.splitlines() if l.startswith("mobility: grade_10: ") and "mpirun" in l]
        self.assertEqual(len(launch), 1, result.stdout)
        self.assertIn("--rig %s" % os.path.join(point, "rig.json"), launch[0])
        self.assertIn("--end-time 2.2", launch[0])  # 0.2 + 0.5 + 0.5 + 1.0 s, not the run file's 9
        self.assertIn("terrain_node --config %s" % os.path.join(point, "terrain_config.json"), launch[0])
        self.assertIn("-np 2", launch[0])
        with open(os.path.join(point, "terrain_config.json")) as f:
            for got, want in zip(json.load(f)["gravity"], g):
                self.assertAlmostEqual(got, want, places=12)
        with open(os.path.join(point, "rig.json")) as f:
            rig = json.load(f)
        self.assertEqual((rig["mode"], rig["pull"], rig["slope_deg"], rig["track_speed"]), ("pull", 0.0, 10.0, 0.5))
        self.assertFalse(os.path.exists(os.path.join(point, "vehicle")))  # nothing ran
        rigid = self.launcher("dbp", self.run_file, "--slips", "0.2", "--rigid", "--dry-run", "--end-time", "3",
                              "--track-speed", "0.7", "--out", self.out)
        self.assertIn("vehicle_node --config %s --ground rigid --rig %s" % (VEHICLE, os.path.join(self.out, "dbp_0.2", "rig.json")),
                      rigid.stdout)
        self.assertIn("--end-time 3", rigid.stdout)
        with open(os.path.join(self.out, "dbp_0.2", "rig.json")) as f:
            self.assertEqual(json.load(f)["track_speed"], 0.7)

    def test_rigid_dbp_points_make_the_table(self):
        result = self.launcher("dbp", self.run_file, "--slips", "0.2,0,0.1", "--rigid", "--jobs", "2", "--out", self.out)
        progress = [l for l in result.stdout.splitlines() if l.startswith("mobility: dbp_") and " done in " in l]
        self.assertEqual(len(progress), 3, result.stdout)
        rows = table(os.path.join(self.out, "dbp.csv"))
        self.assertEqual([r["slip"] for r in rows], ["0", "0.1", "0.2"])  # sorted at the end
        self.assertEqual(list(rows[0])[:3], ["slip", "measured_slip", "drawbar_pull_n"])
        for r in rows:
            i = float(r["slip"])
            self.assertAlmostEqual(float(r["dbp_over_weight"]), 2 * i, places=5)
            self.assertAlmostEqual(float(r["measured_slip"]), i, places=5)
            self.assertEqual(float(r["dbp_over_weight_se"]), 0.0)
            self.assertAlmostEqual(float(r["sprocket_torque_nm"]), 100.0)
            self.assertAlmostEqual(float(r["tractive_efficiency"]), 4000 * i * (1 - i) * 0.5 / 500.0, places=5)
            self.assertEqual((r["window_start_s"], r["window_end_s"], r["samples"]), ("1.4", "2.2", "81"))
            self.assertEqual(r["sinkage_m"], "0")  # rigid ground does not sink
        fields = self.last_line(result)
        self.assertEqual((fields["test"], fields["points"], fields["done"], fields["failed"]), ("dbp", "3", "3", "0"))
        self.assertEqual(fields["dbp_over_weight_max"], "0.4000")
        self.assertEqual(os.path.isfile(os.path.join(self.out, "dbp.png")), PLOTS)
        with open(os.path.join(self.out, "dbp_0.1", "point.json")) as f:
            self.assertEqual(json.load(f)["status"], 0)

    def test_a_failed_point_is_reported_and_the_others_finish(self):
        result = self.launcher("dbp", self.run_file, "--slips", "0,0.1,0.2", "--rigid", "--out", self.out,
                               env={"FAKE_FAIL_VALUE": "0.1"}, status=1)
        folder = os.path.join(self.out, "dbp_0.1")
        self.assertIn("mobility: dbp_0.1 (2/3) FAILED with exit status 3; see %s" % os.path.join(folder, "log.txt"),
                      result.stdout)
        self.assertIn("trackcosim: error: 1 of 3 points failed: %s (exit status 3)" % folder, result.stderr)
        self.assertEqual([r["slip"] for r in table(os.path.join(self.out, "dbp.csv"))], ["0", "0.2"])
        fields = self.last_line(result)
        self.assertEqual((fields["done"], fields["failed"]), ("2", "1"))
        with open(os.path.join(folder, "log.txt")) as f:
            self.assertIn("the fake fails for 0.1", f.read())

    def runs(self, point):
        path = os.path.join(self.out, point, "runs.txt")
        if not os.path.exists(path):
            return 0
        with open(path) as f:
            return len(f.read().split())

    def test_an_interrupted_point_stops_the_series_and_the_same_command_continues_it(self):
        args = ("dbp", self.run_file, "--slips", "0,0.1,0.2", "--rigid", "--jobs", "1", "--out", self.out)
        stopped = self.launcher(*args, env={"FAKE_INTERRUPT_VALUE": "0.1"}, status=130)
        self.assertIn("mobility: dbp_0.1 (2/3) interrupted with its checkpoints", stopped.stdout)
        self.assertIn("mobility: dbp_0.2 (3/3) not started: the series was stopped", stopped.stdout)
        self.assertIn("stopped with 2 points left (dbp_0.1, dbp_0.2): run the same command again", stopped.stdout)
        self.assertEqual([self.runs(p) for p in ("dbp_0", "dbp_0.1", "dbp_0.2")], [1, 1, 0])
        again = self.launcher(*args)
        self.assertIn("mobility: dbp_0 (1/3) read: slip 0.000", again.stdout)
        self.assertEqual([self.runs(p) for p in ("dbp_0", "dbp_0.1", "dbp_0.2")], [1, 2, 1])  # dbp_0 not run again
        self.assertEqual([r["slip"] for r in table(os.path.join(self.out, "dbp.csv"))], ["0", "0.1", "0.2"])
        self.assertEqual(self.last_line(again)["done"], "3")
        with open(os.path.join(self.out, "run.log")) as f:  # both runs of the series, as printed
            log = f.read()
        self.assertEqual(log.count("=== trackcosim "), 2, log)
        self.assertIn("=== trackcosim resumed ", log)
        self.assertIn("stopped with 2 points left", log)
        self.assertIn(again.stdout.strip().splitlines()[-1], log)
        # Another question in the same folder is not answered from it: a new track speed runs again.
        self.launcher(*args, "--track-speed", "0.7")
        self.assertEqual([self.runs(p) for p in ("dbp_0", "dbp_0.1", "dbp_0.2")], [2, 3, 2])

    def test_a_stop_signal_to_the_series_reaches_the_running_point(self):
        # A batch system's walltime warning goes to the mobility process: the point running gets
        # it (and checkpoints), and no later point starts.
        environment = dict(os.environ, TRACKCOSIM_BUILD=self.build, FAKE_WAIT_VALUE="0")
        series = subprocess.Popen([sys.executable, TRACKCOSIM, "mobility", "dbp",
                                   self.run_file, "--slips", "0,0.1", "--rigid", "--jobs", "1", "--out", self.out],
                                  cwd=self.folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                  env=environment)
        waiting = os.path.join(self.out, "dbp_0", "waiting")
        for _ in range(1200):  # the fake says when it waits: no guess at how long it takes to start
            if os.path.exists(waiting) or series.poll() is not None:
                break
            time.sleep(0.05)
        self.assertTrue(os.path.exists(waiting), "the point never started")
        series.send_signal(signal.SIGUSR1)
        output, _ = series.communicate(timeout=120)
        self.assertEqual(series.returncode, 130, output)
        self.assertIn("dbp_0 (1/2) interrupted with its checkpoints", output)
        self.assertIn("dbp_0.1 (2/2) not started: the series was stopped", output)
        self.assertEqual(self.runs("dbp_0.1"), 0)

    def test_a_coupled_point_with_both_checkpoints_resumes(self):
        # What a point stopped after a checkpoint leaves: both checkpoints, and its point.json as
        # the series planned it (the same rig, end time and command), with exit status 130.
        args = ["dbp", self.run_file, "--slips", "0,0.1", "--out", self.out]
        test, config, options = parse_mobility_command_line(args)
        cwd = os.getcwd()
        os.chdir(self.folder)  # the launcher's paths are the series' own
        try:
            point = plan_points(test, options["values"], self.out)[1]
            record = prepare_point(point, read_run_file(config), options)
        finally:
            os.chdir(cwd)
        for side in ("vehicle", "terrain"):
            os.makedirs(os.path.join(point.folder, side))
            open(os.path.join(point.folder, side, "checkpoint.bin"), "w").close()
        with open(os.path.join(point.folder, "point.json"), "w") as f:
            json.dump(dict(record, status=130), f)
        result = self.launcher(*args, "--dry-run")
        resumed = [l for l in result.stdout.splitlines() if l.startswith("mobility: dbp_0.1: ") and "mpirun" in l]
        self.assertEqual(len(resumed), 1, result.stdout)
        self.assertIn("--restart", resumed[0])  # both programs continue from their checkpoints
        fresh = [l for l in result.stdout.splitlines() if l.startswith("mobility: dbp_0: ") and "mpirun" in l]
        self.assertNotIn("--restart", fresh[0])

    def test_collect_builds_the_table_from_point_folders(self):
        for slip in ("0.05", "0.3"):  # made beforehand, as array tasks would (no point.json)
            os.makedirs(os.path.join(self.out, "dbp_" + slip))
            with open(os.path.join(self.out, "dbp_" + slip, "rig.json"), "w") as f:
                json.dump({"mode": "slip", "slip": float(slip), "track_speed": 0.5, "speed": 0, "slope_deg": 0,
                           "pull": 0, "rest_time": 0.2, "ramp_time": 0.5, "settle_time": 0.5}, f)
            subprocess.run([sys.executable, os.path.join(HERE, "fake_rig_vehicle.py"), "--rig",
                            os.path.join(self.out, "dbp_" + slip, "rig.json"), "--out",
                            os.path.join(self.out, "dbp_" + slip, "vehicle")], check=True, capture_output=True)
        result = self.launcher("dbp", self.run_file, "--slips", "0.05,0.3", "--collect", "--out", self.out)
        rows = table(os.path.join(self.out, "dbp.csv"))
        self.assertEqual([float(r["dbp_over_weight"]) for r in rows], [0.1, 0.6])
        self.assertEqual([r["sinkage_m"] for r in rows], ["nan", "nan"])  # a terrain run without the surface map
        self.assertEqual(self.last_line(result)["done"], "2")
        missing = self.launcher("dbp", self.run_file, "--slips", "0.05,0.3,0.5", "--collect", "--out", self.out, status=1)
        self.assertIn("dbp_0.5 (3/3) FAILED with exit status none: no %s" % os.path.join(self.out, "dbp_0.5", "vehicle", "rig.csv"),
                      missing.stdout)
        self.assertEqual(len(table(os.path.join(self.out, "dbp.csv"))), 2)

    def test_point_k_runs_that_point_only(self):
        result = self.launcher("dbp", self.run_file, "--slips", "0,0.1,0.2", "--rigid", "--point", "1", "--out", self.out)
        self.assertEqual(sorted(os.listdir(self.out)), ["dbp_0.1"])
        self.assertIn("vehicle_node: fake rig run of 220 rows", result.stdout)  # one point: its output shown
        fields = self.last_line(result)
        self.assertEqual((fields["points"], fields["point"], fields["done"]), ("1", "1", "1"))

    def test_resistance_grade_and_obstacle(self):
        self.launcher("resistance", self.run_file, "--speeds", "0.2,0.4", "--rigid", "--out", self.out)
        rows = table(os.path.join(self.out, "resistance.csv"))
        self.assertEqual([float(r["motion_resistance_n"]) for r in rows], [120.0, 140.0])
        self.assertEqual([float(r["resistance_over_weight"]) for r in rows], [0.06, 0.07])
        grade = self.launcher("grade", self.run_file, "--slopes", "20,0,10", "--rigid", "--out", self.out)
        self.assertEqual([r["climbs"] for r in table(os.path.join(self.out, "grade.csv"))], ["1", "1", "0"])
        self.assertEqual(self.last_line(grade)["gradeability_deg"], "10")
        obstacle = self.launcher("obstacle", self.run_file, "--speed", "0.5", "--rigid", "--out", self.out)
        row, = table(os.path.join(self.out, "obstacle.csv"))
        self.assertAlmostEqual(float(row["pitch_max_deg"]), 2.0, places=5)
        self.assertAlmostEqual(float(row["pitch_min_deg"]), 0.0, places=5)
        self.assertAlmostEqual(float(row["accel_max_mps2"]), 10.0, places=4)
        self.assertEqual((row["road_wheel_fz_left_0_max_n"], row["road_wheel_fz_right_0_max_n"]), ("1500", "800"))
        self.assertEqual(self.last_line(obstacle)["wheel_fz_max_n"], "1500.0")
        for name in ("resistance.png", "grade.png", "obstacle.png"):
            self.assertEqual(os.path.isfile(os.path.join(self.out, name)), PLOTS, name)

    def test_the_array_job_script_runs_a_point_and_collects(self):
        env = dict(os.environ, TRACKCOSIM_ROOT=ROOT, TRACKCOSIM_BUILD=self.build, CONFIG=self.run_file,
                   VALUES="0:0.1", OUT=self.out, MOBILITY_ARGS="--rigid")
        script = os.path.join(ROOT, "jobs", "mobility_array.sbatch")
        for task in ("1", "0"):
            task_run = subprocess.run(["bash", script], env=dict(env, SLURM_ARRAY_TASK_ID=task, SLURM_NTASKS="3"),
                                      capture_output=True, text=True, timeout=120)
            self.assertEqual(task_run.returncode, 0, task_run.stdout + task_run.stderr)
            self.assertIn("point=%s terrain_ranks=2" % task, task_run.stdout)
        collect = subprocess.run(["bash", script], env=dict(env, COLLECT="1"), capture_output=True, text=True, timeout=120)
        self.assertEqual(collect.returncode, 0, collect.stdout + collect.stderr)
        self.assertEqual([r["slip"] for r in table(os.path.join(self.out, "dbp.csv"))], ["0", "0.1"])


if __name__ == "__main__":
    unittest.main()
