"""tools/trackcosim plot (tools/plots/plot_run.py and its figure modules) on small run folders written
here with known values: each figure's axes carry their labels and its lines the inputs (the
distance's last point is x_end - x0, the weight line m g, the slip 1 - v / (omega r)); `plot`
writes every expected PNG; a folder without a run is one clear error. Needs matplotlib and
numpy (the Debian python3; tests/tools/CMakeLists.txt finds it)."""
import contextlib
import csv
import io
import json
import os
import subprocess
import sys
import tempfile
import types
import unittest

import numpy as np
from matplotlib.image import imread

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
TRACKCOSIM = os.path.join(ROOT, "tools", "launcher", "trackcosim.py")
sys.path.insert(0, os.path.join(ROOT, "tools"))
from launcher import trackcosim  # noqa: E402
from plots import plot_run  # noqa: E402
from plots.plot_data import RunFolderError, VehicleRun, read_table  # noqa: E402
from plots.plot_terrain import contacts_figure, energy_figure, residual_figure, sinkage_figure  # noqa: E402
from plots.plot_timing import phase_times_figure  # noqa: E402
from plots.plot_vehicle import (G, motion_figure, road_wheel_figure, shoe_heights_figure, slip_figure,  # noqa: E402
                                sprocket_figure, terrain_force_figure)

T = [0.1, 0.2, 0.3, 0.4]
X = [1.0, 1.1, 1.3, 1.6]
VX = [0.5, 1.0, 2.0, 3.0]
OMEGA = {"left": [0.0, 10.0, 20.0, 40.0], "right": [0.0, 12.0, 25.0, 50.0]}  # the first row stands still
TORQUE = {"left": [5.0, 6.0, 7.0, 8.0], "right": [1.0, 2.0, 3.0, 4.0]}
PITCH_RADIUS = 0.1
MASS = 100.0
SHOES = 3
STAGES = ("collision", "solve")

COSIM_FIGURES = ["motion.png", "slip.png", "sinkage.png", "sprocket.png", "terrain_force.png", "shoe_heights.png",
                 "road_wheel_reactions.png", "phase_times.png"]
TERRAIN_FIGURES = ["terrain_energy.png", "terrain_contacts.png", "terrain_residual.png"]


def write_csv(path, header, rows):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def wheel_force(side, wheel, k):
    return 100 * wheel + 10 * k + (1 if side == "right" else 0)


def shoe_z(side, shoe, k):
    return 0.01 * shoe + 0.001 * k + (0.5 if side == "right" else 0)


def shoe_force(shoe, k):
    """(fx, fy, fz) of one shoe at sample k, the same on both sides."""
    return 1.0 * shoe, -2.0, 100.0 * (shoe + 1) + k


def write_vehicle(folder):
    wheels = ["road_wheel_fz_%s_%d" % (s, i) for s in ("left", "right") for i in range(2)]
    header = (["t", "x", "y", "z", "qw", "qx", "qy", "qz", "vx", "vy", "vz", "wx", "wy", "wz"] +
              ["sprocket_torque_left", "sprocket_torque_right", "sprocket_speed_left", "sprocket_speed_right",
               "idler_travel_left", "idler_travel_right"] + wheels)
    rows = [[T[k], X[k], 0, 0.25, 1, 0, 0, 0, VX[k], 0, 0, 0, 0, 0, TORQUE["left"][k], TORQUE["right"][k],
             OMEGA["left"][k], OMEGA["right"][k], 0, 0] +
            [wheel_force(w.split("_")[3], int(w.split("_")[4]), k) for w in wheels] for k in range(len(T))]
    write_csv(os.path.join(folder, "vehicle.csv"), header, rows)
    shoes = [[T[k], i, side, 0, 0, shoe_z(side, i, k), 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, *shoe_force(i, k)]
             for k in range(len(T)) for side in ("left", "right") for i in range(SHOES)]
    write_csv(os.path.join(folder, "shoes.csv"),
              "t shoe side x y z qw qx qy qz vx vy vz wx wy wz fx fy fz".split(), shoes)
    with open(os.path.join(folder, "run.json"), "w") as f:
        json.dump({"program": "vehicle_node", "vehicle": {"sprocket_pitch_radius_m": PITCH_RADIUS,
                                                          "total_mass_kg": MASS}}, f)


def phase_row(k):
    """One merged timing.csv row (s): vehicle compute, wait; terrain wait, compute, stages, halo, exchange."""
    return [k, T[k], 0.001 * (k + 1), 0.002, 0.0005, 0.004, 0.001, 0.002, 0.0015, 0.0003]


def write_cosim(folder):
    write_vehicle(os.path.join(folder, "vehicle"))
    write_csv(os.path.join(folder, "timing.csv"),
              ["step", "t", "vehicle_compute", "vehicle_wait", "terrain_wait", "terrain_compute"] +
              ["terrain_" + s for s in STAGES] + ["terrain_halo", "terrain_exchange"],
              [phase_row(k) for k in range(len(T))])


def write_terrain(folder):
    write_csv(os.path.join(folder, "stats.csv"),
              ["step", "t", "contacts", "iterations", "residual", "kinetic_energy", "max_penetration"],
              [[k + 1, T[k], 10 * k, 50, [0, 1e-3, 1e-4, 1e-5][k], 2.0 - k / 2, 0] for k in range(len(T))])


def lines_by_label(axes):
    return {line.get_label(): line for line in axes.get_lines()}


def title_of(figure):
    """The figure's suptitle (Figure.get_suptitle is matplotlib 3.8; Debian 12 has 3.6)."""
    return figure._suptitle.get_text()


def upper_edge(collection, times):
    """The top of a stackplot layer at each time: its polygon's highest vertex there."""
    vertices = collection.get_paths()[0].vertices
    return [vertices[np.isclose(vertices[:, 0], t), 1].max() for t in times]


def fake_sinkage(result):
    """A tools/mobility/sinkage.py stand-in whose sinkage_over_time returns result."""
    module = types.ModuleType("mobility.sinkage")
    module.sinkage_over_time = lambda folder: result
    return module


class FolderTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.folder = os.path.join(self.tmp.name, "run")

    def quietly(self, call, *args, **kwargs):
        """(result, stdout, stderr) of call."""
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            result = call(*args, **kwargs)
        return result, out.getvalue(), err.getvalue()


class VehicleFigureTest(FolderTest):
    def setUp(self):
        super().setUp()
        write_vehicle(self.folder)
        self.run = VehicleRun(self.folder)

    def test_motion_gives_forward_speed_and_distance_from_x0(self):
        figure = motion_figure(self.run)
        self.assertEqual(title_of(figure), "Chassis motion")
        speed, distance = figure.axes
        self.assertEqual(speed.get_ylabel(), "forward speed v (m/s)")
        self.assertEqual(distance.get_xlabel(), "time t (s)")
        self.assertEqual(distance.get_ylabel(), "distance travelled x - x0 (m)")
        np.testing.assert_allclose(speed.get_lines()[0].get_ydata(), VX)  # level chassis: v = vx
        line = distance.get_lines()[0]
        np.testing.assert_allclose(line.get_xdata(), T)
        self.assertAlmostEqual(line.get_ydata()[-1], X[-1] - X[0])

    def test_slip_is_one_minus_v_over_omega_r_masked_where_the_track_stands_still(self):
        axes, = slip_figure(self.run).axes
        self.assertIn("slip", axes.get_ylabel())
        lines = lines_by_label(axes)
        for side in ("left", "right"):
            slip = lines[side].get_ydata()
            self.assertTrue(np.isnan(slip[0]))
            expected = [1 - VX[k] / (OMEGA[side][k] * PITCH_RADIUS) for k in range(1, len(T))]
            np.testing.assert_allclose(slip[1:], expected)
        self.assertIn("steady window", [p.get_label() for p in axes.patches])

    def test_sprocket_power_is_torque_times_speed_per_side_and_total(self):
        torque, power = sprocket_figure(self.run).axes
        self.assertEqual(torque.get_ylabel(), "sprocket torque (N m)")
        self.assertEqual(power.get_ylabel(), "sprocket power (kW)")
        np.testing.assert_allclose(lines_by_label(torque)["right"].get_ydata(), TORQUE["right"])
        each = {s: np.multiply(TORQUE[s], OMEGA[s]) / 1000 for s in ("left", "right")}
        lines = lines_by_label(power)
        np.testing.assert_allclose(lines["left"].get_ydata(), each["left"])
        np.testing.assert_allclose(lines["total"].get_ydata(), each["left"] + each["right"])
        self.assertIsNotNone(power.get_legend())

    def test_terrain_force_sums_the_shoes_against_the_weight(self):
        vertical, horizontal = terrain_force_figure(self.run).axes
        self.assertEqual(vertical.get_ylabel(), "vertical force (N)")
        lines = lines_by_label(vertical)
        fz = [2 * sum(shoe_force(i, k)[2] for i in range(SHOES)) for k in range(len(T))]
        np.testing.assert_allclose(lines["sum of fz"].get_ydata(), fz)
        weight = [line for label, line in lines.items() if label.startswith("weight")][0]
        np.testing.assert_allclose(weight.get_ydata(), [MASS * G] * 2)
        np.testing.assert_allclose(lines_by_label(horizontal)["sum of fy"].get_ydata(), [-2.0 * 2 * SHOES] * len(T))

    def test_shoe_heights_are_an_image_of_shoe_index_against_time(self):
        figure = shoe_heights_figure(self.run, "right")
        axes = figure.axes[0]
        self.assertEqual(axes.get_ylabel(), "shoe index (-)")
        self.assertEqual(title_of(figure), "Shoe heights, right track")
        image = axes.collections[0].get_array().reshape(SHOES, len(T))
        np.testing.assert_allclose(image, [[shoe_z("right", i, k) for k in range(len(T))] for i in range(SHOES)])
        self.assertEqual(figure.axes[1].get_ylabel(), "shoe height z (m)")  # the colour bar

    def test_road_wheel_reactions_one_panel_per_side_one_line_per_wheel(self):
        left, right = road_wheel_figure(self.run).axes
        self.assertEqual(left.get_ylabel(), "vertical reaction (N)")
        self.assertEqual((left.get_title(), right.get_title()), ("left track", "right track"))
        lines = lines_by_label(right)
        self.assertEqual(sorted(lines), ["wheel 0", "wheel 1"])
        np.testing.assert_allclose(lines["wheel 1"].get_ydata(), [wheel_force("right", 1, k) for k in range(len(T))])


class CosimFigureTest(FolderTest):
    def test_phase_times_stack_to_each_programs_step_time(self):
        write_cosim(self.folder)
        vehicle, terrain = phase_times_figure(read_table(os.path.join(self.folder, "timing.csv"))).axes
        self.assertEqual(vehicle.get_ylabel(), "time per coupling step (ms)")
        labels = [c.get_label() for c in terrain.collections]
        self.assertEqual(labels, list(STAGES) + ["other compute", "exchange", "wait"])
        tops = [1000 * (r[2] + r[3]) for r in map(phase_row, range(len(T)))]
        np.testing.assert_allclose(upper_edge(vehicle.collections[-1], T), tops)
        halo = lines_by_label(terrain)["halo (within the stages)"]
        np.testing.assert_allclose(halo.get_ydata(), [1.5] * len(T))

    def test_sinkage_draws_mean_and_max(self):
        axes, = sinkage_figure({"t": T, "mean": [0, 0.01, 0.02, 0.03], "max": [0, 0.02, 0.04, 0.05]}).axes
        self.assertEqual(axes.get_ylabel(), "sinkage (m)")
        np.testing.assert_allclose(lines_by_label(axes)["max"].get_ydata(), [0, 0.02, 0.04, 0.05])

    def test_plot_writes_every_figure_as_a_png(self):
        write_cosim(self.folder)
        out = os.path.join(self.tmp.name, "plots")
        sys.modules["mobility.sinkage"] = fake_sinkage({"t": T, "mean": [0.01] * 4, "max": [0.02] * 4})
        self.addCleanup(sys.modules.pop, "mobility.sinkage")
        written, stdout, stderr = self.quietly(plot_run.write_plots, self.folder, out, dpi=50)
        expected = [os.path.join(out, name) for name in COSIM_FIGURES]
        self.assertEqual(written, expected, stderr)
        self.assertEqual(stdout.splitlines(), expected)
        for path in expected:
            with open(path, "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n", path)
            self.assertEqual(imread(path).shape[1], 8 * 50, path)  # drawn at --dpi: 8 inches wide

    def test_a_run_without_a_sinkage_map_skips_that_figure_with_the_reason(self):
        write_cosim(self.folder)
        sys.modules["mobility.sinkage"] = fake_sinkage(None)
        self.addCleanup(sys.modules.pop, "mobility.sinkage")
        written, _, stderr = self.quietly(plot_run.write_plots, self.folder, dpi=30)
        self.assertEqual([os.path.basename(p) for p in written], [n for n in COSIM_FIGURES if n != "sinkage.png"])
        self.assertIn("skipped sinkage.png: the run has no map of the undisturbed surface", stderr)
        self.assertTrue(os.path.isdir(os.path.join(self.folder, "plots")))  # the default --out

    def test_a_missing_column_skips_only_its_figure(self):
        write_cosim(self.folder)
        os.remove(os.path.join(self.folder, "vehicle", "shoes.csv"))
        written, _, stderr = self.quietly(plot_run.write_plots, self.folder, dpi=30)
        names = [os.path.basename(p) for p in written]
        self.assertNotIn("terrain_force.png", names)
        self.assertIn("motion.png", names)
        self.assertIn("skipped shoe_heights.png: no ", stderr)


class TerrainAndErrorTest(FolderTest):
    def test_a_terrain_run_gets_energy_contacts_and_residual(self):
        write_terrain(self.folder)
        written, _, _ = self.quietly(plot_run.write_plots, self.folder, dpi=30)
        self.assertEqual([os.path.basename(p) for p in written], TERRAIN_FIGURES)
        stats = read_table(os.path.join(self.folder, "stats.csv"))
        self.assertEqual(energy_figure(stats).axes[0].get_ylabel(), "kinetic energy (J)")
        np.testing.assert_allclose(contacts_figure(stats).axes[0].get_lines()[0].get_ydata(), [0, 10, 20, 30])
        residual = residual_figure(stats).axes[0]
        self.assertEqual(residual.get_yscale(), "log")
        self.assertTrue(np.isnan(residual.get_lines()[0].get_ydata()[0]))  # zero: not on a log axis

    def test_a_folder_without_a_run_is_one_clear_error(self):
        os.makedirs(os.path.join(self.folder, "vehicle"))
        with self.assertRaises(RunFolderError):
            plot_run.figures_of(self.folder)
        result = subprocess.run([sys.executable, TRACKCOSIM, "plot", self.folder],
                                capture_output=True, text=True, timeout=120)
        self.assertEqual(result.returncode, 2)  # bad input (docs/exit-status.md)
        self.assertEqual(len(result.stderr.splitlines()), 1, result.stderr)
        self.assertTrue(result.stderr.startswith("trackcosim: error: "), result.stderr)
        self.assertIn("vehicle/vehicle.csv", result.stderr)

    def test_a_plot_failure_after_a_run_is_a_warning(self):
        os.makedirs(self.folder)
        result, _, stderr = self.quietly(trackcosim.plot_after_run, self.folder)
        self.assertIsNone(result)
        self.assertTrue(stderr.startswith("trackcosim: warning: no plots"), stderr)

    def test_the_plot_command_line(self):
        from common.command_line import UsageError, parse_command_line, parse_plot_command_line
        self.assertEqual(parse_plot_command_line(["d", "--dpi", "72", "--track", "right"]),
                         ("d", {"--out": None, "--track": "right", "--dpi": 72}))
        self.assertTrue(parse_command_line(["c.json", "--no-plot"])[1]["--no-plot"])
        self.assertFalse(parse_command_line(["c.json"])[1]["--no-plot"])
        for bad in (["d", "--dpi", "0"], ["d", "--track", "up"], ["d", "--no-plot"], []):
            with self.assertRaises(UsageError):
                parse_plot_command_line(bad)


if __name__ == "__main__":
    unittest.main()
