#!/usr/bin/env python3
"""bench/gravel_convergence.py writes the variants of a convergence study as it says: the iterations
variant doubles only the terrain solver's iterations, the step variant halves the terrain step, the
coupling step and (where the halved coupling step would be shorter) the vehicle's own step, and
nothing else changes; the seed variant (the scatter between two realisations of the bed) raises every
random source's seed by one and nothing else; a finished variant is not run again, and one stopped
by a signal ends the study for now (status 0) instead of being compared; bad input is refused with
status 2."""
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest
from contextlib import redirect_stdout
from unittest import mock

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "bench"))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import gravel_convergence  # noqa: E402
from common.input_checks import InputError, read_json  # noqa: E402

ROBOT = os.path.join(ROOT, "configs", "vehicles", "ndia_light_robot.json")


def write(path, document):
    with open(path, "w") as f:
        json.dump(document, f)
    return path


class Variants(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.TemporaryDirectory()
        self.dir = self.work.name
        self.terrain = {"container": {"min": [0, 0, 0], "max": [1, 1, 1]},
                        "particles": [{"kind": "layers", "min": [0, 0], "max": [1, 1], "layers": 1, "radius": 0.02}],
                        "step_size": 1e-3, "end_time": 0,
                        "solver": {"method": "apgd", "max_iterations": 100, "rolling_friction": 0.5},
                        "cosim": {"transport": "mpi", "coupling_step": 1e-3, "settle_time": 0.2}}
        self.run_file = write(os.path.join(self.dir, "run.json"), {
            "vehicle": {"config": ROBOT, "end_time": 1.0, "coupling_step": 1e-3},
            "terrain": {"config": write(os.path.join(self.dir, "terrain.json"), self.terrain), "ranks": 2},
            "output": "somewhere"})
        self.out = os.path.join(self.dir, "study")
        os.makedirs(self.out)

    def tearDown(self):
        self.work.cleanup()

    def settle_at(self, step):
        """The test terrain rewritten to settle its bed at its own step."""
        self.terrain["cosim"]["settle_step"] = step
        write(os.path.join(self.dir, "terrain.json"), self.terrain)

    def variant(self, name):
        run_copy, folder = gravel_convergence.variant_files(self.run_file, name, self.out)
        run = read_json(run_copy)
        return run, read_json(run["terrain"]["config"]), folder

    def test_base_changes_only_where_the_run_writes(self):
        run, terrain, folder = self.variant("base")
        self.assertEqual(terrain, self.terrain)
        self.assertEqual(run["output"], folder)
        self.assertEqual(folder, os.path.join(self.out, "base"))
        self.assertEqual(run["vehicle"]["checkpoint_interval"], 0.5)  # so that a stopped variant resumes
        self.assertEqual(run["vehicle"]["config"], ROBOT)

    def test_iterations_doubles_the_solver_iterations_only(self):
        _, terrain, _ = self.variant("iterations")
        expected = json.loads(json.dumps(self.terrain))
        expected["solver"]["max_iterations"] = 200
        self.assertEqual(terrain, expected)

    def test_step_halves_every_step_and_the_vehicle_step_with_them(self):
        run, terrain, _ = self.variant("step")
        self.assertAlmostEqual(terrain["step_size"], 5e-4)
        self.assertAlmostEqual(terrain["cosim"]["coupling_step"], 5e-4)
        self.assertAlmostEqual(run["vehicle"]["coupling_step"], 5e-4)
        self.assertEqual(terrain["solver"], self.terrain["solver"])
        # the robot's own step is 1 ms: a 0.5 ms coupling step needs a vehicle copy stepping 0.5 ms
        self.assertNotEqual(run["vehicle"]["config"], ROBOT)
        vehicle = read_json(run["vehicle"]["config"])
        original = read_json(ROBOT, comments=True)
        self.assertAlmostEqual(vehicle["simulation"]["step"], original["simulation"]["step"] / 2)
        vehicle["simulation"]["step"] = original["simulation"]["step"]
        self.assertEqual(vehicle, original)

    def test_step_keeps_the_vehicle_when_its_step_already_fits(self):
        run = read_json(self.run_file)
        run["vehicle"]["coupling_step"] = 2e-3  # 1 ms vehicle steps fit a 1 ms halved coupling step
        self.terrain["step_size"] = 2e-3
        write(run["terrain"]["config"], self.terrain)
        write(self.run_file, run)
        run, terrain, _ = self.variant("step")
        self.assertEqual(run["vehicle"]["config"], ROBOT)
        self.assertAlmostEqual(run["vehicle"]["coupling_step"], 1e-3)
        self.assertAlmostEqual(terrain["step_size"], 1e-3)

    def test_settle_halves_the_settling_step_only(self):
        run, terrain, _ = self.variant("settle")
        self.assertAlmostEqual(terrain["cosim"]["settle_step"], 5e-4)
        del terrain["cosim"]["settle_step"]
        self.assertEqual(terrain, self.terrain)
        self.assertEqual(run["vehicle"]["config"], ROBOT)
        # a bed that already settles at its own step settles at half of that
        self.settle_at(5e-4)
        _, terrain, _ = self.variant("settle")
        self.assertAlmostEqual(terrain["cosim"]["settle_step"], 2.5e-4)
        self.assertAlmostEqual(terrain["step_size"], 1e-3)

    def test_step_halves_a_settling_step_of_its_own_too(self):
        self.settle_at(5e-4)
        _, terrain, _ = self.variant("step")
        self.assertAlmostEqual(terrain["cosim"]["settle_step"], 2.5e-4)
        self.assertAlmostEqual(terrain["step_size"], 5e-4)

    def test_seed_draws_the_next_bed_and_changes_nothing_else(self):
        self.terrain["particles"].append({"kind": "random_fill", "min": [0, 0, 0.5], "max": [1, 1, 1],
                                          "radius": 0.02, "count": 10, "seed": 7})
        write(read_json(self.run_file)["terrain"]["config"], self.terrain)
        run, terrain, folder = self.variant("seed")
        expected = json.loads(json.dumps(self.terrain))
        expected["particles"][0]["seed"] = 1  # the default 0, raised
        expected["particles"][1]["seed"] = 8
        self.assertEqual(terrain, expected)
        self.assertEqual(run["vehicle"]["config"], ROBOT)
        self.assertEqual(folder, os.path.join(self.out, "seed"))

    def test_seed_without_a_random_source_is_refused(self):
        self.terrain["particles"] = [{"kind": "spheres", "spheres": [{"position": [0.5, 0.5, 0.5], "radius": 0.02}]}]
        write(read_json(self.run_file)["terrain"]["config"], self.terrain)
        with self.assertRaises(InputError):
            gravel_convergence.variant_files(self.run_file, "seed", self.out)

    def test_a_heightmap_terrain_is_refused(self):
        self.terrain["particles"] = [{"kind": "heightmap", "file": "ridge.png"}]
        write(read_json(self.run_file)["terrain"]["config"], self.terrain)
        with self.assertRaises(InputError):
            gravel_convergence.variant_files(self.run_file, "base", self.out)

    def test_a_finished_variant_is_not_run_again(self):
        folder = os.path.join(self.out, "base")
        os.makedirs(folder)
        self.assertFalse(gravel_convergence.finished(folder))
        write(os.path.join(folder, "run.json"), {"summary": {"steps": 1}})
        self.assertTrue(gravel_convergence.finished(folder))
        self.assertEqual(gravel_convergence.run_variant(self.run_file, "base", self.out), (folder, None))

    def test_a_variant_stopped_by_a_signal_ends_the_study_until_it_runs_again(self):
        folder = os.path.join(self.out, "base")

        def launcher_stopped_by_sigusr1(command, **kwargs):  # it writes run.json and exits 0
            os.makedirs(folder, exist_ok=True)
            write(os.path.join(folder, "run.json"), {"stopped": {"signal": "SIGUSR1", "coupling_step": 5}})
            return 0

        with mock.patch.object(gravel_convergence.subprocess, "call", launcher_stopped_by_sigusr1):
            with self.assertRaises(gravel_convergence.StoppedRun):
                gravel_convergence.run_variant(self.run_file, "base", self.out)
            out = io.StringIO()
            with redirect_stdout(out):
                status = gravel_convergence.main(["gravel_convergence.py", self.run_file, "--out", self.out,
                                                  "--only", "base,iterations"])
        self.assertEqual(status, 0)
        self.assertIn("base stopped before its end", out.getvalue())
        self.assertFalse(os.path.exists(os.path.join(self.out, "iterations")))  # not started

    def test_a_variant_on_another_bed_raises_its_seeds_and_is_named_for_it(self):
        run, terrain, folder = self.variant("iterations")
        self.assertNotIn("seed", terrain["particles"][0])  # bed 0: the shipped seed (default 0)
        run_copy, folder = gravel_convergence.variant_files(self.run_file, "iterations", self.out, 2)
        run = read_json(run_copy)
        terrain = read_json(run["terrain"]["config"])
        self.assertEqual(terrain["particles"][0]["seed"], 2)
        self.assertEqual(terrain["solver"]["max_iterations"], 200)
        self.assertEqual(folder, os.path.join(self.out, "iterations.bed2"))
        self.assertEqual(run["terrain"]["config"], os.path.join(self.out, "iterations.bed2.terrain.json"))

    def test_means_over_beds_judge_a_variant_with_its_interval(self):
        # sinkage per bed (m); the torque is 20 N m on every bed
        sinkage = {"base": [0.0400, 0.0402], "iterations": [0.0402, 0.0404],  # +0.5% +- 1.5%: yes
                   "step": [0.0500, 0.0502],  # +24.9% +- 1.7%: no
                   "settle": [0.0360, 0.0460]}  # +2.2% +- 54%: unresolved

        def fake_run(run_file, variant, out, bed=0):
            return os.path.join(out, gravel_convergence.bed_name(variant, bed)), None

        def fake_figures(folder, window):
            name, _, bed = os.path.basename(folder).partition(".bed")
            return sinkage[name][int(bed or 0)], 20.0

        out = io.StringIO()
        with mock.patch.object(gravel_convergence, "run_variant", fake_run), \
                mock.patch.object(gravel_convergence, "figures", fake_figures), \
                mock.patch.object(gravel_convergence, "step_ms", lambda folder: 100.0), redirect_stdout(out):
            status = gravel_convergence.main(["gravel_convergence.py", self.run_file, "--out", self.out, "--beds", "2",
                                              "--window", "0.5,1"])
        lines = {line.split(" variant=")[1].split()[0]: line for line in out.getvalue().splitlines()}
        self.assertIn("beds=2", lines["base"])
        self.assertIn("sinkage_m=0.0401 sprocket_torque_Nm=20.0 sinkage_sem=0.0001", lines["base"])
        self.assertNotIn("converged", lines["base"])
        self.assertIn("sinkage_change=+0.0050", lines["iterations"])
        self.assertIn("converged=yes", lines["iterations"])
        self.assertIn("sinkage_change=+0.2494", lines["step"])
        self.assertIn("converged=no", lines["step"])
        self.assertIn("converged=unresolved", lines["settle"])
        self.assertEqual(status, 1)

    def test_bad_command_lines_exit_with_status_2(self):
        script = os.path.join(ROOT, "bench", "gravel_convergence.py")
        for args in ([], [self.run_file, "--only", "iterations"], [self.run_file, "--only", "base,fast"],
                     [self.run_file, "--window", "2,1"], [os.path.join(self.dir, "missing.json")],
                     [self.run_file, "--beds", "0"], [self.run_file, "--beds", "two"],
                     [self.run_file, "--beds", "3", "--only", "base,seed"]):
            result = subprocess.run([sys.executable, script] + args + ["--out", self.out],
                                    capture_output=True, text=True)
            self.assertEqual(result.returncode, 2, args)
            self.assertIn("gravel_convergence: error:", result.stderr, args)


if __name__ == "__main__":
    unittest.main()
