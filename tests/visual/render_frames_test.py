"""tools/trackcosim render on the short co-simulation (the fixture visual_short_run): two frames
of each view at 320x180, each a PNG of that size that is not one flat colour, with the chassis'
orange inside the box its surface points (bodies.vtu, kind 0) project to through the camera of
that view, and that box inside the image; the overlay where tools/plots/render_overlay.py draws it: the
colour bar's 32 levels in the map's colours, a scale bar as long as its length looks at the
look-at point, and the time, written differently in the two frames; and the first frame drawn
again with --no-overlay without them (tests/tools/render_checks.py, which the synthetic render
test shares). Usage: render_frames_test.py RUN_DIR"""
import json
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
TRACKCOSIM = os.path.join(ROOT, "tools", "launcher", "trackcosim.py")
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, os.path.join(ROOT, "tests", "tools"))
from plots.render_camera import Camera, chase_camera  # noqa: E402
from render_checks import check_frame, check_no_overlay, check_overlay  # noqa: E402
from common.vtk_reader import read_grid, read_multiblock  # noqa: E402
from plots.render_plan import find_series, plan_frames  # noqa: E402
from plots.render_setup import CHASSIS, chassis_pose, prepare  # noqa: E402

SIZE = (320, 180)
RUN = None
# Two frames: one as the sprockets start to turn, one at the end of the 0.3 s run.
CHOICE = ["--start", "0.1", "--every", "10"]


def chassis_points(vtm):
    bodies = read_grid(read_multiblock(vtm)["bodies"])
    mine = {p for cell, kind in enumerate(bodies.cell_data["kind"]) if kind == CHASSIS
            for p in bodies.connectivity[(bodies.offsets[cell - 1] if cell else 0):bodies.offsets[cell]]}
    return [bodies.points[p] for p in sorted(mine)]


def render(out, *options):
    command = [sys.executable, TRACKCOSIM, "render", RUN, "--out", out,
               "--size", "%dx%d" % SIZE, "--quality", "low", "--no-movie"] + CHOICE + list(options)
    return subprocess.run(command, capture_output=True, text=True)


class RenderShortRun(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.out = os.path.join(os.path.dirname(os.path.abspath(RUN)), "render_test")
        cls.result = render(cls.out)
        cls.bare = cls.out + "_no_overlay"
        cls.bare_result = render(cls.bare, "--end", "0.1", "--no-overlay")  # the first frame only
        vehicle, terrain = find_series(RUN)
        cls.frames = plan_frames(vehicle, terrain, 10, 0.1)

    def test_two_frames_of_each_view(self):
        self.assertEqual(self.result.returncode, 0, self.result.stdout + self.result.stderr)
        self.assertEqual(len(self.frames), 2)
        self.assertTrue(all(f.terrain for f in self.frames), "every frame shows a terrain snapshot")
        for view in ("chase", "side"):
            self.assertEqual(sorted(os.listdir(os.path.join(self.out, view))), ["frame_000000.png", "frame_000001.png"])

    def cameras(self, frame):
        """{view: its camera at frame}, as the render placed them."""
        setup = prepare(plan_frames(*find_series(RUN)), "speed", SIZE[0] / SIZE[1])
        with open(os.path.join(self.out, "render.json")) as f:
            side = json.load(f)["side_camera"]
        return {"chase": chase_camera(*chassis_pose(frame.vehicle), setup.size),
                "side": Camera(side["location"], side["look_at"], side["angle_deg"])}

    def test_each_view_shows_the_chassis_where_the_camera_projects_it_and_the_overlay(self):
        self.assertEqual(self.result.returncode, 0, self.result.stdout + self.result.stderr)
        for view, min_fill in (("chase", 0.1), ("side", 0.05)):
            times = []
            for f in self.frames:
                camera, png = self.cameras(f)[view], os.path.join(self.out, view, "frame_%06d.png" % f.index)
                check_frame(self, png, SIZE, camera, chassis_points(f.vehicle), min_fill=min_fill)
                times.append(check_overlay(self, png, SIZE, camera)[2])
            self.assertNotEqual(times[0], times[1], "%s: the two frames' times are written alike" % view)

    def test_no_overlay_draws_none(self):
        self.assertEqual(self.bare_result.returncode, 0, self.bare_result.stdout + self.bare_result.stderr)
        for view, camera in self.cameras(self.frames[0]).items():
            check_no_overlay(self, os.path.join(self.bare, view, "frame_000000.png"), SIZE, camera)


if __name__ == "__main__":
    RUN = sys.argv.pop(1)
    unittest.main()
