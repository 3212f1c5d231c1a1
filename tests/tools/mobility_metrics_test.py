"""The launcher's mobility figures (tools/mobility/mobility_metrics.py, read by tools/launcher/trackcosim.py) on a
synthetic run folder whose answers are known by hand:
  - the driver ramps the sprockets up over 0.1..0.4 s (chassis still, a 5000 N load on every
    shoe, 1000 N m on the sprockets: all outside the driving window, each would show if counted),
    then holds them from 0.5 s to 2.0 s;
  - the chassis, yawed 30 degrees, moves at 1.0 m/s along its own x axis (plus 0.3 m/s sideways,
    which is no forward speed); pitch radius 0.125 m; left sprocket 10 rad/s = 1.25 m/s of track
    -> slip 1 - 1.0/1.25 = 0.2; right 8.889 rad/s = 1.111 m/s -> slip 0.1; mean 0.15;
  - sprocket torques 100 and 200 N m -> power 100 x 10 + 200 x 8.889 W = 2.778 kW;
  - per sample, 10 loaded shoes carrying 100, 200, ..., 1000 N on pads of 0.05 m x 0.1 m, the
    other shoes 0.5 N (below the 1 N of a loaded shoe) or pulled up (-20 N) -> mean pressure
    5500 N / (10 x 0.005 m^2) = 110 kPa; the 1000 N shoe is the top tenth of the per-shoe
    pressures, so the 95th percentile is its 200 kPa;
and on a vehicle standing still, where none of the three is defined (n/a, null)."""
import csv
import json
import math
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from launcher.program_lines import key_values  # noqa: E402
from launcher.trackcosim import mobility_of_run  # noqa: E402
from mobility.mobility_metrics import line_fields, quantile, report_lines  # noqa: E402

PITCH_RADIUS = 0.125
LEFT_SPEED, RIGHT_SPEED = 10.0, (1.0 / 0.9) / PITCH_RADIUS  # rad/s: 1.25 and 1.111 m/s of track
SHOES_PER_SIDE = 15

# As configs/vehicles/*.json: JSON with // comments; only the keys the figures read.
VEHICLE_CONFIG = """// a synthetic vehicle
{
  "track": {
    "sprocket": { "radius": 0.1 },   // the wheel, not the pitch radius
    "shoes": { "pitch": 0.06, "pad": { "length": 0.05, "width": 0.1, "thickness": 0.015 } }  // 0.005 m^2
  }
}
"""
# The same as vehicle_node records it in vehicle/run.json ("config").
VEHICLE_DOCUMENT = {"track": {"sprocket": {"radius": 0.1},
                              "shoes": {"pitch": 0.06, "pad": {"length": 0.05, "width": 0.1, "thickness": 0.015}}}}

VEHICLE_COLUMNS = ["t", "x", "y", "z", "qw", "qx", "qy", "qz", "vx", "vy", "vz", "wx", "wy", "wz",
                   "sprocket_torque_left", "sprocket_torque_right", "sprocket_speed_left", "sprocket_speed_right",
                   "idler_travel_left", "idler_travel_right"]
SHOE_COLUMNS = ["t", "shoe", "side", "x", "y", "z", "qw", "qx", "qy", "qz", "vx", "vy", "vz", "wx", "wy", "wz",
                "fx", "fy", "fz"]
TIMES = [round(0.1 * k, 10) for k in range(1, 21)]  # output times 0.1 .. 2.0 s


def vehicle_row(t, driving):
    """The chassis yawed 30 degrees; driving: 1.0 m/s forward and 0.3 m/s to its left."""
    yaw = math.radians(30)
    forward, left = (1.0, 0.3) if driving else (0.0, 0.0)
    ramp = 1.0 if driving else t  # the ramp stays below half the final speed
    return {"t": t, "x": 0, "y": 0, "z": 0.3, "qw": math.cos(yaw / 2), "qx": 0, "qy": 0, "qz": math.sin(yaw / 2),
            "vx": forward * math.cos(yaw) - left * math.sin(yaw), "vy": forward * math.sin(yaw) + left * math.cos(yaw),
            "vz": 0, "wx": 0, "wy": 0, "wz": 0,
            "sprocket_torque_left": 100.0 if driving else 1000.0, "sprocket_torque_right": 200.0 if driving else 1000.0,
            "sprocket_speed_left": ramp * LEFT_SPEED, "sprocket_speed_right": ramp * RIGHT_SPEED,
            "idler_travel_left": 0, "idler_travel_right": 0}


def shoe_fz(i, driving):
    if not driving:
        return 5000.0
    if i < 10:
        return 100.0 * (i + 1)
    return 0.5 if i % 2 else -20.0


def temporary_folder(test):
    folder = tempfile.TemporaryDirectory()
    test.addCleanup(folder.cleanup)
    return folder.name


def write_run(folder, rows, shoe_force, pitch_radius=PITCH_RADIUS):
    """folder/vehicle/{vehicle.csv, shoes.csv, run.json} and folder/vehicle.json."""
    os.makedirs(os.path.join(folder, "vehicle"))
    with open(os.path.join(folder, "vehicle", "vehicle.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, VEHICLE_COLUMNS)
        w.writeheader()
        w.writerows(rows)
    with open(os.path.join(folder, "vehicle", "shoes.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, SHOE_COLUMNS, restval=0)
        w.writeheader()
        for r in rows:
            for side in ("left", "right"):
                for i in range(SHOES_PER_SIDE):
                    # The loaded shoes on the left; the right ones hang in the air.
                    w.writerow({"t": r["t"], "shoe": i, "side": side, "qw": 1,
                                "fz": shoe_force(i, r) if side == "left" else 0.0})
    if pitch_radius is not None:
        with open(os.path.join(folder, "vehicle", "run.json"), "w") as f:
            json.dump({"program": "vehicle_node", "vehicle": {"sprocket_pitch_radius_m": pitch_radius},
                       "config": VEHICLE_DOCUMENT}, f)
    config = os.path.join(folder, "vehicle.json")
    with open(config, "w") as f:
        f.write(VEHICLE_CONFIG)
    return config


class DrivingRunTest(unittest.TestCase):
    def setUp(self):
        self.folder = temporary_folder(self)
        rows = [vehicle_row(t, driving=t >= 0.5) for t in TIMES]
        config = write_run(self.folder, rows, lambda i, r: shoe_fz(i, r["t"] >= 0.5))
        self.m = mobility_of_run(self.folder, config)

    def test_the_window_is_the_driving_part(self):
        # No start-up transient: the chassis is at its speed from the first driving row.
        self.assertEqual(self.m["driving_window_s"], [0.5, 2.0])
        self.assertEqual(self.m["driving_from_s"], 0.5)
        self.assertEqual(self.m["sprocket_pitch_radius_m"], PITCH_RADIUS)  # from vehicle/run.json

    def test_slip_per_side_and_mean(self):
        slip = self.m["slip"]
        self.assertAlmostEqual(slip["left"], 0.2, places=12)
        self.assertAlmostEqual(slip["right"], 0.1, places=12)
        self.assertAlmostEqual(slip["mean"], 0.15, places=12)

    def test_sprocket_power(self):
        power = self.m["sprocket_power_kw"]
        self.assertAlmostEqual(power["left"], 1.0, places=12)
        self.assertAlmostEqual(power["right"], 0.2 * RIGHT_SPEED, places=12)
        self.assertAlmostEqual(power["total"], 1.0 + 0.2 * RIGHT_SPEED, places=12)
        self.assertAlmostEqual(power["total"], 2.7778, places=4)

    def test_ground_pressure(self):
        pressure = self.m["ground_pressure_kpa"]
        self.assertAlmostEqual(self.m["pad_area_m2"], 0.005, places=15)
        self.assertEqual(pressure["loaded_shoes"], 10)
        self.assertAlmostEqual(pressure["mean"], 110.0, places=9)
        self.assertAlmostEqual(pressure["p95"], 200.0, places=9)

    def test_printout_and_parseable_line(self):
        lines = report_lines(self.m)
        # No terrain surface nor vehicle VTK series in this folder: sinkage says what it lacks.
        self.assertTrue(lines[0].startswith("  sinkage               n/a (no terrain/surface_start.csv"), lines[0])
        # The speed is constant over the end of the driving window: steady.
        self.assertTrue(lines[1].startswith("  speed at the end      ") and ", steady (" in lines[1], lines[1])
        self.assertTrue(lines[2].startswith("  steady window         t = 0.50..2.00 s: the driving window from "
                                            "t = 0.50 s less its start-up transient"), lines[2])
        self.assertEqual(lines[3], "  slip                  left 0.200, right 0.100 (mean 0.150), over t = 0.50..2.00 s, "
                                   "against the track speed sprocket speed x pitch radius 0.1250 m")
        self.assertTrue(lines[4].startswith("  sprocket power        2.78 kW (left 1.00, right 1.78)"), lines[4])
        self.assertTrue(lines[5].startswith("  ground pressure       mean 110.0 kPa, 95th percentile 200.0 kPa over "
                                            "10.0 loaded shoes"), lines[5])
        # The launcher's last line: the old fields first, unchanged, then the new ones.
        line = ("cosim steps=2000 terrain_ranks=2 particles=52682 distance_m=1.5000 sinkage_m=0.0120 step_ms=4.000 "
                "exchange_share=0.0150" + line_fields(self.m))
        fields = key_values("cosim", line)
        self.assertEqual(list(fields)[:7], ["steps", "terrain_ranks", "particles", "distance_m", "sinkage_m",
                                            "step_ms", "exchange_share"])
        self.assertEqual(fields["exchange_share"], "0.0150")
        self.assertEqual((fields["slip"], fields["sprocket_power_kw"], fields["ground_pressure_kpa"]),
                         ("0.1500", "2.778", "110.00"))

    def test_without_the_vehicles_pitch_radius_the_configs_radius_is_taken(self):
        folder = temporary_folder(self)
        rows = [vehicle_row(t, driving=t >= 0.5) for t in TIMES]
        m = mobility_of_run(folder, write_run(folder, rows, lambda i, r: shoe_fz(i, True), pitch_radius=None))
        self.assertEqual(m["sprocket_pitch_radius_m"], 0.1)
        self.assertAlmostEqual(m["slip"]["left"], 1 - 1.0 / (LEFT_SPEED * 0.1), places=12)

    def test_a_config_that_no_longer_reads_is_the_one_vehicle_node_recorded(self):
        m = mobility_of_run(self.folder, os.path.join(self.folder, "moved_away.json"))
        self.assertAlmostEqual(m["ground_pressure_kpa"]["mean"], 110.0, places=9)


class StandingStillTest(unittest.TestCase):
    def test_nothing_is_defined(self):
        folder = temporary_folder(self)
        rows = [vehicle_row(t, driving=True) for t in TIMES]
        for r in rows:  # the motors hold the sprockets: a trace of jitter, the chassis at rest
            r.update({"sprocket_speed_left": 1e-4, "sprocket_speed_right": 5e-5, "vx": 0.0, "vy": 0.0})
        m = mobility_of_run(folder, write_run(folder, rows, lambda i, r: shoe_fz(i, True)))
        self.assertIsNone(m["driving_window_s"])
        self.assertIsNone(m["slip"])
        self.assertIsNone(m["sprocket_power_kw"])
        self.assertIsNone(m["ground_pressure_kpa"])
        self.assertEqual(line_fields(m), " slip=n/a sprocket_power_kw=n/a ground_pressure_kpa=n/a")
        self.assertTrue(all("n/a" in line for line in report_lines(m)))
        self.assertIsNone(json.loads(json.dumps(m))["slip"])  # null in run.json


class QuantileTest(unittest.TestCase):
    def test_linear_between_closest_ranks(self):
        self.assertEqual(quantile(list(range(101)), 0.95), 95)
        self.assertAlmostEqual(quantile([10.0, 0.0], 0.95), 9.5)
        self.assertEqual(quantile([7.0], 0.95), 7.0)


if __name__ == "__main__":
    unittest.main()
