"""`trackcosim run --launcher tcp` with the built programs (TRACKCOSIM_BUILD): the light robot
landing on the plumbing tests' bed (tests/configs/robot_test_bed.json, 3,100 spheres settled
0.2 s, as cosim_bed_store_settles_once runs it) for 0.15 s, on one terrain rank:
 - the run completes (exit status 0) with the parseable `cosim steps=150 terrain_ranks=1 ...`
   line, vehicle/vehicle.csv and terrain/timing.csv, and the shoes met the grains;
 - vehicle.csv and shoes.csv are byte for byte those of the same run under mpirun: the programs'
   bits do not depend on the transport;
 - while it couples, every socket its processes listen on is terrain_node's, on 127.0.0.1
   (no Open MPI daemon, no TCP BTL: tools/launcher/mpi_loopback.py);
 - Ctrl-C (SIGINT to the launcher's process group) stops both programs with their checkpoints
   (exit status 130), and the resume command the launcher prints completes the run with the
   uninterrupted run's vehicle.csv.
The stand-in programs' cases (dry run, refusals, the bed key, failures): tcp_launcher_test.py."""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
TRACKCOSIM = os.path.join(ROOT, "tools", "launcher", "trackcosim.py")
sys.path.insert(0, os.path.join(ROOT, "tools"))
from launcher.launch_guard import descendants  # noqa: E402
from launcher.program_lines import key_values  # noqa: E402

VEHICLE = os.path.join(ROOT, "configs", "vehicles", "ndia_light_robot.json")
TERRAIN = os.path.join(ROOT, "tests", "configs", "robot_test_bed.json")
END_TIME = 0.15  # s: the shoes meet the grains at about 0.07 s
STEPS = 150      # coupling steps of 1 ms


def read(path, mode="r"):
    with open(path, mode) as f:
        return f.read()


class TcpLauncherRunTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        folder = tempfile.TemporaryDirectory()
        cls.addClassCleanup(folder.cleanup)
        cls.folder = folder.name
        cls.env = dict(os.environ, TRACKCOSIM_BED_STORE="off", OMP_NUM_THREADS="1", OMP_WAIT_POLICY="passive")
        cls.tcp = cls.launch("tcp", END_TIME)

    @classmethod
    def write_run_file(cls, name, end_time):
        path = os.path.join(cls.folder, name + ".json")
        with open(path, "w") as f:
            json.dump({"vehicle": {"config": VEHICLE, "end_time": end_time, "coupling_scheme": "sequential"},
                       "terrain": {"config": TERRAIN, "ranks": 1}, "output": os.path.join(cls.folder, name)}, f)
        return path

    @classmethod
    def launch(cls, launcher, end_time, *options):
        """Runs the launcher on the robot's run file; (exit status, what it printed, run folder)."""
        name = "%s_%g" % (launcher, end_time)
        result = subprocess.run([sys.executable, TRACKCOSIM, "run", cls.write_run_file(name, end_time), "--launcher",
                                 launcher, "--no-plot"] + list(options), env=cls.env, capture_output=True, text=True,
                                timeout=300)
        return result.returncode, result.stdout + result.stderr, os.path.join(cls.folder, name)

    def completed(self, launched):
        status, output, folder = launched
        self.assertEqual(status, 0, output)
        summary = key_values("cosim", output.strip().splitlines()[-1])
        self.assertIsNotNone(summary, output)
        self.assertEqual((summary["steps"], summary["terrain_ranks"], summary["particles"]), (str(STEPS), "1", "3100"))
        return folder

    def test_the_run_completes_and_matches_mpirun_byte_for_byte(self):
        folder = self.completed(self.tcp)
        for path in ("vehicle/vehicle.csv", "vehicle/shoes.csv", "terrain/timing.csv", "timing.csv", "run.json"):
            self.assertTrue(os.path.isfile(os.path.join(folder, path)), path)
        record = json.loads(read(os.path.join(folder, "run.json")))
        self.assertEqual(record["launcher"], "tcp")
        self.assertEqual(json.loads(read(record["terrain_config"]))["cosim"]["transport"], "tcp")
        self.assertIn("--terrain-port", record["command"]["vehicle"])
        forces = [float(row.split(",")[4]) for row in read(os.path.join(folder, "vehicle", "timing.csv")).splitlines()[1:]]
        self.assertGreater(max(forces), 1000.0, "the shoes never met the grains: nothing for the transport to carry")
        if not shutil.which("mpirun"):  # a build without MPI (docs/gpu.md): the TCP run is all it has
            self.skipTest("no mpirun to compare with")
        mpi = self.completed(self.launch("mpirun", END_TIME, "--terrain-ranks", "1"))
        for path in ("vehicle/vehicle.csv", "vehicle/shoes.csv"):
            self.assertEqual(read(os.path.join(folder, path), "rb"), read(os.path.join(mpi, path), "rb"), path)

    def test_it_listens_on_the_loopback_only_and_ctrl_c_stops_it_to_resume(self):
        folder = os.path.join(self.folder, "stopped")
        run_file = self.write_run_file("stopped", 100)
        # A session of its own: the SIGINT goes to its whole group, as a terminal's Ctrl-C does.
        launcher = subprocess.Popen([sys.executable, TRACKCOSIM, "run", run_file, "--launcher", "tcp", "--no-plot"],
                                    env=self.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                    start_new_session=True)
        self.addCleanup(lambda: launcher.poll() is None and os.killpg(launcher.pid, signal.SIGKILL))
        rows = os.path.join(folder, "terrain", "timing.csv")
        for _ in range(1200):
            if os.path.isfile(rows) and len(read(rows).splitlines()) > 20 or launcher.poll() is not None:
                break
            time.sleep(0.1)
        self.assertIsNone(launcher.poll(), "the run ended before it coupled")
        if shutil.which("ss"):
            self.assert_listens_on_the_loopback_only(launcher.pid)
        os.killpg(launcher.pid, signal.SIGINT)
        output, _ = launcher.communicate(timeout=120)
        self.assertEqual(launcher.returncode, 130, output)
        line = next((l for l in output.splitlines() if l.startswith("trackcosim: interrupted (SIGINT): both programs "
                                                                     "stopped at coupling step ")), None)
        self.assertIsNotNone(line, output)
        step = int(line.split("coupling step ")[1].split()[0])
        self.assertLess(step, STEPS, "stopped after the end of the run it is compared with")
        resume = line.split("resume with ")[1]
        self.assertEqual(resume, "%s run %s --resume %s --launcher tcp" % (
            os.path.join(ROOT, "tools", "trackcosim"), run_file, folder))
        self.write_run_file("stopped", END_TIME)
        result = subprocess.run(resume + " --no-plot", shell=True, env=self.env, capture_output=True, text=True,
                                timeout=300)
        resumed = result.stdout + result.stderr
        self.assertIn("restart    coupling step %d " % step, resumed)
        self.completed((result.returncode, resumed, folder))
        self.assertEqual(read(os.path.join(folder, "vehicle", "vehicle.csv"), "rb"),
                         read(os.path.join(self.tcp[2], "vehicle", "vehicle.csv"), "rb"))

    def assert_listens_on_the_loopback_only(self, launcher_pid):
        pids = {str(pid) for pid in descendants(launcher_pid)}
        sockets = subprocess.run(["ss", "-ltnp"], capture_output=True, text=True).stdout.splitlines()
        ours = [line for line in sockets if any("pid=%s," % pid in line for pid in pids)]
        self.assertTrue(ours and all("terrain_node" in line and " 127.0.0.1:" in line for line in ours),
                        "listening: %s" % ours)


if __name__ == "__main__":
    unittest.main()
