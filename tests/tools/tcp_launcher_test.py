"""`trackcosim run --launcher tcp` without a co-simulation (tools/launcher/tcp_launch.py): what it
would start (--dry-run), what it refuses, the terrain config it writes, the settled bed it finds,
and how it starts, signals and ends two stand-in programs (shell scripts in place of
terrain_node and vehicle_node). The real programs: tcp_launcher_run_test.py."""
import json
import os
import re
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
from launcher.run_terrain_config import write_run_terrain_config  # noqa: E402

VEHICLE = os.path.join(ROOT, "configs", "vehicles", "ndia_light_robot.json")
TERRAIN = os.path.join(ROOT, "tests", "configs", "robot_test_bed.json")
TCP_VEHICLE = "--terrain tcp --terrain-host 127.0.0.1 --terrain-port"

# Stand-ins: the terrain says its port as terrain_node does; each program notes its arguments and
# the stop signal it gets in FAKE_NOTES, and ends on SIGUSR1 (the launcher's stop).
TERRAIN_SERVES = """trap 'echo USR1 >>"$FAKE_NOTES/terrain.signal"; exit 0' USR1
echo "$@" >"$FAKE_NOTES/terrain.args"
echo "cosim      listening on 127.0.0.1:45678 for the vehicle"
while :; do sleep 0.1; done"""
VEHICLE_WAITS = """trap 'echo USR1 >>"$FAKE_NOTES/vehicle.signal"; exit 0' USR1
echo "$@" >"$FAKE_NOTES/vehicle.args"
while :; do sleep 0.1; done"""


class TcpLauncherTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="tcp_launcher_")
        self.addCleanup(shutil.rmtree, self.folder, ignore_errors=True)
        self.notes, self.out = os.path.join(self.folder, "notes"), os.path.join(self.folder, "out")
        os.makedirs(self.notes)
        self.run_file = self.write_run({"vehicle": {"config": VEHICLE, "end_time": 0.1},
                                        "terrain": {"config": TERRAIN, "ranks": 1}})
        self.programs(terrain="exit 0", vehicle="exit 0")

    def write_run(self, document, name="run.json"):
        path = os.path.join(self.folder, name)
        with open(path, "w") as f:
            json.dump(document, f)
        return path

    def programs(self, terrain, vehicle):
        """Shell stand-ins for terrain_node and vehicle_node under a build folder of their own."""
        self.build = os.path.join(self.folder, "build")
        for name, body in (("terrain_node", terrain), ("vehicle_node", vehicle)):
            path = os.path.join(self.build, name, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write("#!/bin/bash\n%s\n" % body)
            os.chmod(path, 0o755)

    def environment(self, **more):
        return dict(os.environ, **dict({"TRACKCOSIM_BUILD": self.build, "TRACKCOSIM_BED_STORE": "off",
                                        "FAKE_NOTES": self.notes}, **more))

    def launcher(self, *args, status=0, cwd=None, env=None):
        result = subprocess.run([sys.executable, TRACKCOSIM] + list(args), cwd=cwd or self.folder, capture_output=True,
                                text=True, timeout=60, env=env or self.environment())
        self.assertNotIn("Traceback", result.stdout + result.stderr)
        self.assertEqual(result.returncode, status, result.stdout + result.stderr)
        return result

    def note(self, name):
        path = os.path.join(self.notes, name)
        if not os.path.exists(path):
            return None
        with open(path) as f:
            return f.read().strip()

    def test_dry_run_prints_both_command_lines_over_tcp_and_no_mpirun(self):
        result = self.launcher("run", self.run_file, "--launcher", "tcp", "--dry-run", "--out", self.out)
        lines = [line for line in result.stdout.splitlines() if re.match(r"trackcosim: /.*_node ", line)]
        self.assertEqual(len(lines), 2, result.stdout)
        terrain, vehicle = lines
        config = os.path.join(self.out, "terrain_config.json")
        self.assertIn("terrain_node/terrain_node --config %s --cosim --out %s" % (config, os.path.join(self.out, "terrain")),
                      terrain)
        self.assertIn("vehicle_node/vehicle_node --config %s %s PORT " % (VEHICLE, TCP_VEHICLE), vehicle)
        self.assertNotIn("--terrain mpi", vehicle)
        self.assertNotIn("mpirun", result.stdout)
        self.assertNotIn("unshare", result.stdout)  # no network namespace: nothing of Open MPI listens
        self.assertIn("OMPI_MCA_ess_singleton_isolated=1", result.stdout)
        with open(config) as f:
            cosim = json.load(f)["cosim"]
        self.assertEqual(cosim, {"transport": "tcp", "host": "127.0.0.1", "port": 0, "coupling_step": 1e-3,
                                 "settle_time": 0.2})

    def test_more_than_one_terrain_rank_is_refused_in_one_line(self):
        for args, source in ((["--terrain-ranks", "2"], "(--terrain-ranks)"), ([], "(terrain.ranks of ")):
            run_file = self.run_file if args else self.write_run(
                {"vehicle": {"config": VEHICLE}, "terrain": {"config": TERRAIN, "ranks": 2}}, "two.json")
            result = self.launcher("run", run_file, "--launcher", "tcp", "--dry-run", "--out", self.out, *args, status=2)
            self.assertEqual(len(result.stderr.splitlines()), 1, result.stderr)
            self.assertTrue(result.stderr.startswith(
                "trackcosim: error: --launcher tcp runs one terrain rank (no MPI between terrain ranks), not 2 " + source),
                result.stderr)
            self.assertIn("pass --terrain-ranks 1", result.stderr)
        grown = self.launcher("run", self.run_file, "--launcher", "tcp", "--grow-with-ranks", "--dry-run", status=2)
        self.assertIn("trackcosim: error: --grow-with-ranks grows the terrain with its rank count", grown.stderr)
        # A run file of 2 ranks runs over TCP when the command line asks for 1.
        two = self.write_run({"vehicle": {"config": VEHICLE}, "terrain": {"config": TERRAIN, "ranks": 2}}, "two.json")
        self.launcher("run", two, "--launcher", "tcp", "--terrain-ranks", "1", "--dry-run", "--out", self.out)

    def test_a_terrain_config_over_tcp_runs_over_tcp_and_is_still_refused_over_mpi(self):
        tcp_terrain = os.path.join(ROOT, "configs", "cosim_tcp_example.json")
        run_file = self.write_run({"vehicle": {"config": VEHICLE}, "terrain": {"config": tcp_terrain}}, "tcp.json")
        self.launcher("run", run_file, "--launcher", "tcp", "--dry-run", "--out", self.out)
        with open(os.path.join(self.out, "terrain_config.json")) as f:
            cosim = json.load(f)["cosim"]
        self.assertEqual((cosim["port"], cosim["timeout"], cosim["coupling_step"]), (0, 20, 2e-3))
        refused = self.launcher("run", run_file, "--dry-run", "--out", self.out, status=2)
        self.assertIn('cosim.transport is the string "tcp"', refused.stderr)
        self.assertIn("run with --launcher tcp", refused.stderr)

    def test_the_copy_names_the_same_files_and_grows_as_before(self):
        """Relative file names start from the config's own folder (docs/terrain-config.md): the
        copy in the run folder names them absolutely, for TCP and for --grow-with-ranks alike."""
        source = os.path.join(self.folder, "terrains")
        os.makedirs(os.path.join(source, "meshes"))
        for name in ("hill.pgm", "meshes/rock.obj", "rock_spheres.json"):
            open(os.path.join(source, name), "w").close()
        config = os.path.join(source, "hill.json")
        with open(config, "w") as f:
            f.write('// a comment\n{"container": {"min": [0, 0, 0], "max": [2, 1, 1]},\n'
                    ' "particles": [{"kind": "heightmap", "file": "hill.pgm"},\n'
                    '               {"kind": "layers", "min": [0, 0], "max": [2, 1], "layers": 2, "radius": 0.02}],\n'
                    ' "bodies": [{"shape": {"mesh": "meshes/rock.obj", "density": 2600}},\n'
                    '            {"shape": {"spheres_file": "rock_spheres.json"}}],\n'
                    ' "cosim": {"transport": "mpi", "settle_time": 0.1}}\n')
        os.makedirs(self.out)
        for options in ({"over_tcp": True}, {"grow_factor": 2.0}):
            with open(write_run_terrain_config(config, self.out, **options)) as f:
                copy = json.load(f)
            self.assertEqual(copy["particles"][0]["file"], os.path.join(source, "hill.pgm"))
            self.assertEqual(copy["bodies"][0]["shape"]["mesh"], os.path.join(source, "meshes", "rock.obj"))
            self.assertEqual(copy["bodies"][1]["shape"]["spheres_file"], os.path.join(source, "rock_spheres.json"))
            grown = "grow_factor" in options
            self.assertEqual((copy["container"]["max"][0], copy["particles"][1]["max"][0]), (4, 4) if grown else (2, 2))
            self.assertEqual(copy["cosim"], {"transport": "mpi", "settle_time": 0.1} if grown else
                             {"transport": "tcp", "host": "127.0.0.1", "port": 0, "settle_time": 0.1})

    def test_a_tcp_run_finds_the_bed_an_mpirun_run_stored(self):
        """The bed store keys a bed by what makes it (tools/launcher/bed_store.py): the transport
        is not, so configs/cosim_gravel.json's terrain has one bed whatever launches it."""
        store = os.path.join(self.folder, "beds")
        env = self.environment(TRACKCOSIM_BED_STORE=store)

        def bed_line(launcher):  # the shipped run file's paths are relative to the source tree
            result = self.launcher("run", "configs/cosim_gravel.json", "--launcher", launcher, "--terrain-ranks", "1",
                                   "--dry-run", "--out", os.path.join(self.folder, launcher), cwd=ROOT, env=env)
            return next(line for line in result.stdout.splitlines() if line.startswith("trackcosim: bed: ")), result

        (mpi_line, _), (tcp_line, _) = bed_line("mpirun"), bed_line("tcp")
        self.assertIn("no settled bed stored for this terrain", mpi_line)
        found = re.search(r"saving the bed to (\S+) \(key ([0-9a-f]{16})\)", mpi_line)
        self.assertEqual(tcp_line, mpi_line)
        bed = os.path.join(ROOT, found.group(1))
        self.assertEqual(os.path.dirname(os.path.dirname(bed)), store)
        self.assertTrue(os.path.basename(os.path.dirname(bed)).startswith("cosim_gravel_terrain-" + found.group(2)))
        os.makedirs(os.path.dirname(bed))
        open(bed, "w").close()  # the bed an mpirun run stored (its record is not needed to find it)
        tcp_line, result = bed_line("tcp")
        self.assertIn("starting from the settled bed %s (key %s" % (found.group(1), found.group(2)), tcp_line)
        self.assertIn("--from-checkpoint %s" % found.group(1), result.stdout)

    def test_mobility_passes_tcp_to_its_points(self):
        run_file = self.write_run({"vehicle": {"config": VEHICLE}, "terrain": {"config": TERRAIN, "ranks": 2}}, "two.json")
        result = self.launcher("mobility", "grade", run_file, "--slopes", "10", "--launcher", "tcp", "--terrain-ranks", "1",
                               "--dry-run", "--out", self.out)
        point = os.path.join(self.out, "grade_10")
        self.assertIn(TCP_VEHICLE + " PORT", result.stdout)
        self.assertNotIn("mpirun", result.stdout)
        with open(os.path.join(point, "terrain_config.json")) as f:
            terrain = json.load(f)  # the point's tilted terrain, which its run couples over TCP
        self.assertEqual(terrain["cosim"]["transport"], "tcp")
        self.assertLess(terrain["gravity"][0], 0)
        refused = self.launcher("mobility", "dbp", run_file, "--slips", "0", "--launcher", "tcp", "--out", self.out,
                                status=2)
        self.assertIn("--launcher tcp runs one terrain rank", refused.stderr)

    def test_the_vehicle_starts_on_the_port_the_terrain_prints_and_both_get_the_stop(self):
        self.programs(TERRAIN_SERVES, VEHICLE_WAITS)
        launcher = subprocess.Popen([sys.executable, TRACKCOSIM, "run", self.run_file, "--launcher", "tcp", "--out",
                                     self.out, "--no-plot"], cwd=self.folder, env=self.environment(),
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.addCleanup(lambda: launcher.poll() is None and launcher.kill())
        for _ in range(300):
            if self.note("vehicle.args"):
                break
            time.sleep(0.1)
        self.assertIn(TCP_VEHICLE + " 45678 ", self.note("vehicle.args") + " ")
        self.assertIn("--cosim --out %s" % os.path.join(self.out, "terrain"), self.note("terrain.args"))
        launcher.send_signal(signal.SIGUSR1)  # a batch system's walltime warning
        output, _ = launcher.communicate(timeout=30)
        self.assertEqual((self.note("terrain.signal"), self.note("vehicle.signal")), ("USR1", "USR1"), output)
        # The stand-ins print no summary: the launcher says so, as after mpirun.
        self.assertEqual(launcher.returncode, 1, output)
        self.assertIn("the programs ended without their summary lines", output)

    def test_a_terrain_that_fails_before_it_listens_is_named_and_no_vehicle_starts(self):
        self.programs('echo "terrain_node: error: a bad config"; exit 2', VEHICLE_WAITS)
        result = self.launcher("run", self.run_file, "--launcher", "tcp", "--out", self.out, status=2)
        self.assertIn("terrain_node: error: a bad config", result.stdout)
        self.assertEqual(result.stderr.strip(), "trackcosim: error: terrain_node exited with status 2 before it listened "
                         "for the vehicle; its lines are above and in %s" % os.path.join(self.out, "run.log"))
        self.assertIsNone(self.note("vehicle.args"))

    def test_a_terrain_that_never_listens_is_ended_after_cosim_timeout(self):
        self.programs("while :; do sleep 0.1; done", VEHICLE_WAITS)
        terrain = os.path.join(self.folder, "slow.json")
        with open(TERRAIN) as f:
            text = f.read()
        with open(terrain, "w") as f:
            f.write(text.replace('"settle_time": 0.2}', '"settle_time": 0.2, "timeout": 1}'))
        run_file = self.write_run({"vehicle": {"config": VEHICLE}, "terrain": {"config": terrain}}, "slow_run.json")
        start = time.monotonic()
        result = self.launcher("run", run_file, "--launcher", "tcp", "--out", self.out, status=1)
        self.assertLess(time.monotonic() - start, 20)
        self.assertIn("trackcosim: error: terrain_node printed no `listening on 127.0.0.1:<port>` line within 1 s "
                      "(cosim.timeout) and was ended; its lines are above and in %s" % os.path.join(self.out, "run.log"),
                      result.stderr)
        self.assertIsNone(self.note("vehicle.args"))

    def test_the_first_failure_gives_the_status_and_its_peer_is_ended(self):
        """The vehicle gives up on its peer (status 3) and the terrain would wait on: the launcher
        ends it, and says the run lost its peer (docs/exit-status.md)."""
        self.programs(TERRAIN_SERVES, 'echo "vehicle_node: error: the terrain stopped answering"; exit 3')
        start = time.monotonic()
        result = self.launcher("run", self.run_file, "--launcher", "tcp", "--out", self.out, status=3)
        self.assertLess(time.monotonic() - start, 30)
        self.assertIn("trackcosim: error: the co-simulation failed (exit status 3)", result.stderr)


if __name__ == "__main__":
    unittest.main()
