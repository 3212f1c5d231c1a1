#!/usr/bin/env python3
"""tools/anchor/anchor_sweep.py's plan (docs/anchor.md, "Running the sweeps"): what a scenario of
configs/anchor/sweeps.json and the command line put into each case's config, without running.

- A scenario's grain_density, press, pull_from and end_time reach the case: the bed settles from a
  copy of the bed config with that density, the press is the first load's force and stays on with
  the torque, the pull starts at pull_from, the run ends at end_time.
- The command line's options win over the scenario's.
- Without them, the configs' own values stand (the bed config itself, the run config's loads).
- The shipped small_gravel scenario is the one docs/anchor.md describes.
"""
import argparse
import json
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "tools"))
from anchor import anchor_sweep  # noqa: E402


def args(**over):
    a = dict(sweeps="configs/anchor/sweeps.json", scenario="small_gravel", sweep="both", iterations=0, end_time=0,
             clearance=0.01, torque_from=0, pull_from=0, press=None, snapshot_interval=None,
             terrain_node="/bin/true", build="build", threads=1, jobs=2)
    a.update(over)
    return argparse.Namespace(**a)


class AnchorSweepPlan(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.bed = os.path.join(self.tmp.name, "bed")
        os.makedirs(self.bed)
        anchor_sweep.write_json(os.path.join(self.bed, "settle.json"), {"floor_z": 0, "depth_mean": 0.5,
                                                                        "depth_max": 0.6})
        anchor_sweep.write_json(os.path.join(self.bed, "run.json"),
                                {"gid_ranges": [{"first": 0, "count": 5}, {"first": 5, "count": 2448}]})

    def tearDown(self):
        self.tmp.cleanup()

    def case(self, plan, name):
        case = next(c for c in plan["cases"] if c["name"] == name)
        return anchor_sweep.case_config(plan, case, self.bed)

    def test_scenario_settings_reach_the_bed_and_every_case(self):
        plan = anchor_sweep.make_plan(args())
        bed_config = anchor_sweep.bed_config(plan, self.bed)
        self.assertEqual(bed_config, os.path.join(self.bed, "bed_config.json"))
        self.assertEqual(anchor_sweep.read_json(bed_config)["material"]["density"], 2500)
        config, meta = self.case(plan, "torque_75")
        loads = config["bodies"][0]["loads"]
        self.assertEqual(loads[0]["force"], [0, 0, -1500])
        self.assertEqual(loads[1]["force"], [0, 0, -1500])
        self.assertEqual(loads[1]["torque"], [0, 0, -75])
        self.assertEqual(loads[2]["from"], 2.0)
        self.assertEqual(loads[2]["force"], [0, 0, 37.5])
        self.assertEqual(config["end_time"], 2.5)
        self.assertEqual(config["material"]["density"], 2500)
        self.assertEqual(config["output"]["probes"], [2453])
        self.assertAlmostEqual(meta["pull_from"], 2.0)

    def test_the_command_line_wins(self):
        plan = anchor_sweep.make_plan(args(press=10, pull_from=1.5, end_time=1.8))
        config, _ = self.case(plan, "pull_200")
        loads = config["bodies"][0]["loads"]
        self.assertEqual(loads[0]["force"], [0, 0, -10])
        self.assertEqual(loads[2]["from"], 1.5)
        self.assertEqual(loads[2]["force"], [0, 0, 200])
        self.assertEqual(config["end_time"], 1.8)

    def test_without_scenario_settings_the_configs_stand(self):
        plan = anchor_sweep.make_plan(args(scenario="small"))
        self.assertEqual(anchor_sweep.bed_config(plan, self.bed), plan["bed"])
        run = anchor_sweep.read_json(plan["run"])
        config, _ = self.case(plan, "torque_50")
        self.assertEqual(config["bodies"][0]["loads"][0]["force"], run["bodies"][0]["loads"][0]["force"])
        self.assertEqual(config["bodies"][0]["loads"][2]["from"], run["bodies"][0]["loads"][2]["from"])
        self.assertEqual(config["end_time"], run["end_time"])
        self.assertEqual(config["material"]["density"], run["material"]["density"])


if __name__ == "__main__":
    os.chdir(ROOT)
    unittest.main()
