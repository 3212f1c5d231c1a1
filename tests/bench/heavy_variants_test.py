"""bench/heavy_variants.py on a hand-made run file and terrain config (with comments and a
relative heightmap file): the reference keeps the shipped terrain and its bed store; the
iterations variant doubles solver.max_iterations, the step variant halves the terrain, coupling
and vehicle steps, ranks1 keeps the shipped terrain on one rank; all start from the reference's
stored bed and read the same heightmap; a
variant without a stored bed, or a config without the key it changes, is refused."""
import io
import json
import os
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "bench"))
import heavy_variants  # noqa: E402
from launcher.bed_store import StoredBed  # noqa: E402  (heavy_variants put tools/ on the path)

TERRAIN = """// a heavy gravel
{
  "particles": [{"kind": "heightmap", "file": "bump.png"}],
  "step_size": 2e-3,
  "solver": {"method": "apgd", "max_iterations": 200},  // the shipped budget
  "cosim": {"coupling_step": 2e-3, "settle_time": 0.6}
}
"""


class HeavyVariantsTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        root = self.tmp.name
        os.makedirs(os.path.join(root, "configs"))
        self.terrain = os.path.join(root, "configs", "gravel_terrain.json")
        with open(self.terrain, "w") as f:
            f.write(TERRAIN)
        with open(os.path.join(root, "configs", "bump.png"), "wb") as f:
            f.write(b"png")
        self.run_file = os.path.join(root, "run.json")
        with open(self.run_file, "w") as f:
            json.dump({"vehicle": {"config": "vehicle.json", "end_time": 8.7, "coupling_step": 2e-3},
                       "terrain": {"config": self.terrain, "ranks": 2}, "output": "output/x"}, f)
        self.out = os.path.join(root, "conv")
        os.environ["TRACKCOSIM_BED_STORE"] = os.path.join(root, "beds")
        self.addCleanup(os.environ.pop, "TRACKCOSIM_BED_STORE")

    def variant(self, name, until="5"):
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            status = heavy_variants.run_guarded("heavy_variants.py", heavy_variants.main,
                                                ["heavy_variants.py", self.run_file, self.out, until, name])
        return status, out.getvalue().strip(), err.getvalue()

    def store_bed(self):
        bed = StoredBed(self.terrain)
        os.makedirs(bed.folder)
        with open(bed.checkpoint, "wb") as f:
            f.write(b"bed")
        return os.path.abspath(bed.checkpoint)

    def read(self, path):
        with open(path) as f:
            return json.load(f)

    def variant_on_stored_bed(self, name):
        """The variant's run file and terrain config, after checking it starts from the stored bed."""
        bed = self.store_bed()
        status, path, _ = self.variant(name)
        self.assertEqual(status, 0)
        run = self.read(path)
        self.assertEqual(run["terrain"]["checkpoint"], bed)
        return run, heavy_variants.read_json(run["terrain"]["config"], "a terrain config", comments=True)

    def test_reference_is_the_shipped_run_cut(self):
        status, path, _ = self.variant("reference")
        self.assertEqual(status, 0)
        run = self.read(path)
        self.assertEqual(run["vehicle"]["end_time"], 5.0)
        self.assertEqual(run["vehicle"]["coupling_step"], 2e-3)
        self.assertEqual(run["terrain"]["config"], self.terrain)
        self.assertNotIn("checkpoint", run["terrain"])  # the launcher's bed store serves it
        self.assertEqual(run["output"], os.path.join(self.out, "reference"))
        status, path, _ = self.variant("reference", "end")  # the shipped run to its own end
        self.assertEqual((status, self.read(path)["vehicle"]["end_time"]), (0, 8.7))

    def test_iterations_doubled_on_the_stored_bed(self):
        run, terrain = self.variant_on_stored_bed("iterations")
        self.assertEqual(terrain["solver"]["max_iterations"], 400)
        self.assertEqual(terrain["step_size"], 2e-3)
        self.assertEqual(run["vehicle"]["coupling_step"], 2e-3)
        heightmap = terrain["particles"][0]["file"]
        self.assertEqual(heightmap, os.path.join(os.path.dirname(self.terrain), "bump.png"))

    def test_step_halved_everywhere_on_the_stored_bed(self):
        run, terrain = self.variant_on_stored_bed("step")
        self.assertEqual(terrain["step_size"], 1e-3)
        self.assertEqual(terrain["cosim"]["coupling_step"], 1e-3)
        self.assertEqual(terrain["solver"]["max_iterations"], 200)
        self.assertEqual(run["vehicle"]["coupling_step"], 1e-3)

    def test_ranks1_is_the_shipped_terrain_on_one_rank_on_the_stored_bed(self):
        run, terrain = self.variant_on_stored_bed("ranks1")
        self.assertEqual(run["terrain"]["ranks"], 1)
        self.assertEqual(run["terrain"]["config"], self.terrain)  # the shipped config, unchanged
        self.assertEqual((terrain["solver"]["max_iterations"], terrain["step_size"]), (200, 2e-3))
        self.assertEqual(run["vehicle"]["coupling_step"], 2e-3)
        self.assertFalse(os.path.exists(os.path.join(self.out, "ranks1.terrain.json")))

    def test_a_variant_without_a_stored_bed_is_refused(self):
        status, _, err = self.variant("step")
        self.assertEqual(status, 2)
        self.assertIn("run the reference first", err)

    def test_a_config_without_the_changed_key_is_refused(self):
        with open(self.terrain, "w") as f:
            f.write(TERRAIN.replace('"max_iterations": 200', '"tolerance": 0'))
        self.store_bed()
        status, _, err = self.variant("iterations")
        self.assertEqual(status, 2)
        self.assertIn("no solver.max_iterations", err)


if __name__ == "__main__":
    unittest.main()
