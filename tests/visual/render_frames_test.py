"""tools/trackcosim render on the short co-simulation (the fixture visual_short_run): two frames
of each view at 320x180, each a PNG of that size that is not one flat colour, with the chassis'
orange inside the box its surface points (bodies.vtu, kind 0) project to through the camera of
that view, and that box inside the image (tests/tools/render_checks.py, which the synthetic
render test shares). Usage: render_frames_test.py RUN_DIR"""
import json
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, os.path.join(ROOT, "tests", "tools"))
from render_camera import Camera, chase_camera  # noqa: E402
from render_checks import check_frame  # noqa: E402
from render_plan import find_series, plan_frames  # noqa: E402
from render_setup import CHASSIS, chassis_pose, prepare  # noqa: E402
from vtk_reader import read_grid, read_multiblock  # noqa: E402

SIZE = (320, 180)
RUN = None
# Two frames: one as the sprockets start to turn, one at the end of the 0.3 s run.
CHOICE = ["--start", "0.1", "--every", "10"]


def chassis_points(vtm):
    bodies = read_grid(read_multiblock(vtm)["bodies"])
    mine = {p for cell, kind in enumerate(bodies.cell_data["kind"]) if kind == CHASSIS
            for p in bodies.connectivity[(bodies.offsets[cell - 1] if cell else 0):bodies.offsets[cell]]}
    return [bodies.points[p] for p in sorted(mine)]


class RenderShortRun(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.out = os.path.join(os.path.dirname(os.path.abspath(RUN)), "render_test")
        command = [sys.executable, os.path.join(ROOT, "tools", "trackcosim.py"), "render", RUN, "--out", cls.out,
                   "--size", "%dx%d" % SIZE, "--quality", "low", "--no-movie"] + CHOICE
        cls.result = subprocess.run(command, capture_output=True, text=True)
        vehicle, terrain = find_series(RUN)
        cls.frames = plan_frames(vehicle, terrain, 10, 0.1)

    def test_two_frames_of_each_view(self):
        self.assertEqual(self.result.returncode, 0, self.result.stdout + self.result.stderr)
        self.assertEqual(len(self.frames), 2)
        self.assertTrue(all(f.terrain for f in self.frames), "every frame shows a terrain snapshot")
        for view in ("chase", "side"):
            self.assertEqual(sorted(os.listdir(os.path.join(self.out, view))), ["frame_000000.png", "frame_000001.png"])

    def test_chase_view_shows_the_chassis_where_the_camera_projects_it(self):
        setup = prepare(plan_frames(*find_series(RUN)), "speed", SIZE[0] / SIZE[1])
        for f in self.frames:
            camera = chase_camera(*chassis_pose(f.vehicle), setup.size)
            check_frame(self, os.path.join(self.out, "chase", "frame_%06d.png" % f.index), SIZE, camera,
                        chassis_points(f.vehicle), min_fill=0.1)

    def test_side_view_shows_the_chassis_where_the_camera_projects_it(self):
        with open(os.path.join(self.out, "render.json")) as f:
            side = json.load(f)["side_camera"]
        camera = Camera(side["location"], side["look_at"], side["angle_deg"])
        for f in self.frames:
            check_frame(self, os.path.join(self.out, "side", "frame_%06d.png" % f.index), SIZE, camera,
                        chassis_points(f.vehicle), min_fill=0.05)


if __name__ == "__main__":
    RUN = sys.argv.pop(1)
    unittest.main()
