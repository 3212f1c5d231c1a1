"""tools/trackcosim render (tools/plots/render_run.py and its modules) on synthetic run folders
(render_sample_run.py) whose chassis pose is known at every time: the frames are PNGs of the
asked size, the chassis' orange lies inside its box projected by the same pinhole camera as
POV-Ray's (tools/plots/render_camera.py), behind and above it for the chase view, and the fixed side view
holds the vehicle at every frame. The overlay (colour bar, scale bar, time) is where
tools/plots/render_overlay.py draws it, without a colour bar on a floor without grains, and nowhere
with --no-overlay (render_checks.py). Also: the frames' terrain snapshots, --slice and --movie-only,
the standalone terrain layout, and the one-line errors. Needs povray and ffmpeg
(tools/install_deps.sh --with-render)."""
import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import render_sample_run as sample  # noqa: E402
from plots.render_camera import Camera, chase_camera  # noqa: E402
from render_checks import check_frame, check_no_overlay, check_overlay  # noqa: E402
from plots.render_plan import find_series, plan_frames, snapshot_at  # noqa: E402
from plots.render_setup import prepare  # noqa: E402

SIZE = (320, 180)
TRACKCOSIM = os.path.join(ROOT, "tools", "launcher", "trackcosim.py")


def render(folder, *options, env=None):
    command = [sys.executable, TRACKCOSIM, "render", folder, "--size", "%dx%d" % SIZE, "--quality", "low"] + list(options)
    return subprocess.run(command, capture_output=True, text=True, env=env)


def chassis_corners(t):
    return [sample.to_world(t, c) for c in sample.chassis_corners()]


class RenderSyntheticRun(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.run_dir = sample.write_sample_run(os.path.join(cls.tmp.name, "cosim"))
        # Frames 5 and 6 (t = 0.10 and 0.12 s): the first at a snapshot's time, the second between two.
        cls.result = render(cls.run_dir, "--start", "0.1", "--end", "0.12", "--jobs", "2")
        cls.out = os.path.join(cls.run_dir, "render")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_renders_both_views_and_their_movies(self):
        self.assertEqual(self.result.returncode, 0, self.result.stdout + self.result.stderr)
        self.assertIn("render: 2/2 frames", self.result.stdout)
        for view in ("chase", "side"):
            self.assertEqual(sorted(os.listdir(os.path.join(self.out, view))), ["frame_000000.png", "frame_000001.png"])
            self.assertGreater(os.path.getsize(os.path.join(self.out, view + ".mp4")), 1000)
        self.assertEqual(os.listdir(os.path.join(self.out, "scenes")), [], "scene files are removed once drawn")

    def test_chase_view_shows_the_chassis_where_the_camera_projects_it(self):
        vehicle, terrain = find_series(self.run_dir)
        setup = prepare(plan_frames(vehicle, terrain), "speed", SIZE[0] / SIZE[1])
        for index, t in enumerate((0.1, 0.12)):
            position, orientation = sample.chassis_pose(t)
            camera = chase_camera(position, orientation, setup.size)
            heading = (math.cos(sample.YAW), math.sin(sample.YAW))
            behind = (camera.location[0] - position[0]) * heading[0] + (camera.location[1] - position[1]) * heading[1]
            self.assertLess(behind, 0, "the chase camera stands behind the chassis")
            self.assertGreater(camera.location[2], position[2] + sample.CHASSIS_HALF[2], "and above it")
            png = os.path.join(self.out, "chase", "frame_%06d.png" % index)
            check_frame(self, png, SIZE, camera, chassis_corners(t))
            check_overlay(self, png, SIZE, camera)

    def test_side_view_frames_the_vehicle_at_every_frame(self):
        with open(os.path.join(self.out, "render.json")) as f:
            side = json.load(f)["side_camera"]
        camera = Camera(side["location"], side["look_at"], side["angle_deg"])
        points, _, _ = sample.vehicle_cells()
        for k in range(int(round(sample.END / sample.VEHICLE_DT)) + 1):
            t = k * sample.VEHICLE_DT
            for p in points:
                x, y = camera.project(sample.to_world(t, p), *SIZE)
                self.assertTrue(0 <= x <= SIZE[0] and 0 <= y <= SIZE[1], "t=%g: %s at (%.0f, %.0f)" % (t, p, x, y))
        times = []
        for index, t in enumerate((0.1, 0.12)):
            png = os.path.join(self.out, "side", "frame_%06d.png" % index)
            check_frame(self, png, SIZE, camera, chassis_corners(t), min_fill=0.1)
            times.append(check_overlay(self, png, SIZE, camera)[2])
        self.assertNotEqual(times[0], times[1], "t = 0.100 s and t = 0.120 s are written alike")
        bare = os.path.join(self.tmp.name, "bare")
        r = render(self.run_dir, "--start", "0.1", "--end", "0.1", "--view", "side", "--no-movie", "--no-overlay", "--out", bare)
        self.assertEqual(r.returncode, 0, r.stderr)
        check_no_overlay(self, os.path.join(bare, "side", "frame_000000.png"), SIZE, camera)

    def test_a_frame_shows_the_latest_terrain_snapshot_not_after_it(self):
        vehicle, terrain = find_series(self.run_dir)
        frames = plan_frames(vehicle, terrain)
        self.assertEqual(len(frames), 11)
        shown = [os.path.basename(f.terrain) for f in frames]
        self.assertEqual(shown, ["step_00000000.pvtu"] * 5 + ["step_00000050.pvtu"] * 5 + ["step_00000100.pvtu"])
        self.assertIsNone(snapshot_at(terrain, -0.01))
        self.assertEqual([round(f.time, 6) for f in plan_frames(vehicle, terrain, every=4)], [0.0, 0.08, 0.16])

    def test_slices_of_an_array_then_the_movie(self):
        out = os.path.join(self.tmp.name, "sliced")
        for part in ("0/2", "1/2"):
            r = render(self.run_dir, "--out", out, "--view", "side", "--every", "5", "--slice", part)
            self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(sorted(os.listdir(os.path.join(out, "side"))), ["frame_%06d.png" % i for i in range(3)])
        self.assertFalse(os.path.exists(os.path.join(out, "side.mp4")), "a slice makes no movie")
        r = render(self.run_dir, "--out", out, "--view", "side", "--every", "5", "--movie-only")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("3 frames at 10 fps", r.stdout)
        self.assertGreater(os.path.getsize(os.path.join(out, "side.mp4")), 1000)

    def test_a_standalone_terrain_run_is_drawn_from_the_side(self):
        folder = sample.write_sample_run(os.path.join(self.tmp.name, "terrain"), "terrain", per_m=8.0)
        r = render(folder, "--end", "0", "--no-movie")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(os.listdir(os.path.join(folder, "render", "side")), ["frame_000000.png"])
        self.assertFalse(os.path.exists(os.path.join(folder, "render", "chase")))
        r = render(folder, "--view", "chase")
        self.assertEqual((r.returncode, r.stderr.count("\n")), (2, 1), r.stderr)  # bad input
        self.assertIn("trackcosim: error:", r.stderr)
        self.assertIn("no vehicle.pvd", r.stderr)

    def test_a_cosimulation_without_terrain_snapshots_is_drawn_with_a_warning(self):
        folder = sample.write_sample_run(os.path.join(self.tmp.name, "no_grains"), "cosim", per_m=8.0)
        os.remove(os.path.join(folder, "terrain", "particles.pvd"))
        r = render(folder, "--end", "0", "--view", "side", "--no-movie")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("trackcosim: warning: %s has no terrain series" % folder, r.stderr)
        self.assertEqual(os.listdir(os.path.join(folder, "render", "side")), ["frame_000000.png"])
        with open(os.path.join(folder, "render", "render.json")) as f:
            side = json.load(f)["side_camera"]
        check_overlay(self, os.path.join(folder, "render", "side", "frame_000000.png"), SIZE,
                      Camera(side["location"], side["look_at"], side["angle_deg"]), colour_bar=False)
        drawn = render(self.run_dir, "--end", "0", "--view", "side", "--no-movie", "--out",
                       os.path.join(self.tmp.name, "with_grains"))
        self.assertNotIn("warning", drawn.stderr)

    def test_errors_are_one_line(self):
        empty = os.path.join(self.tmp.name, "empty")
        os.makedirs(empty, exist_ok=True)
        r = render(empty)
        self.assertEqual(r.returncode, 2)  # bad input
        self.assertTrue(r.stderr.startswith("trackcosim: error:") and r.stderr.count("\n") == 1, r.stderr)
        for looked in ("vehicle/vehicle.pvd", "terrain/particles.pvd", "particles.pvd"):
            self.assertIn(os.path.join(empty, looked), r.stderr)
        no_programs = dict(os.environ, PATH=empty)
        r = render(self.run_dir, "--out", os.path.join(self.tmp.name, "none"), env=no_programs)
        self.assertEqual(r.returncode, 1)  # the drawing failed
        self.assertIn("povray and ffmpeg not found: apt-get install povray fonts-povray ffmpeg", r.stderr)
        r = render(self.run_dir, "--size", "320")
        self.assertIn("--size: expected WxH", r.stderr)


if __name__ == "__main__":
    unittest.main()
