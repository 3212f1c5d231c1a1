"""The launcher's summary figures are means over the steady window, not over a start-up transient
(issue 34: the default run reported slip 0.065 over t = 0.46..2.00 s, 0.022 once steady).

A synthetic run folder shaped like the light robot's default run, answers known by hand:
  - output every 20 ms to 2.0 s; the driver ramps both sprockets from 0 at 0.3 s to 5 rad/s at
    0.6 s (the driving window, half the top speed on, starts at 0.46 s, inside the ramp);
  - the chassis stands until 0.35 s, then gains speed linearly until 1.0 s, from when it runs at
    the tracks' speed less a slip of exactly 0.022 (pitch radius 0.1171 m: 0.5855 m/s of track);
  - the sprockets take 300 N m each while the chassis accelerates, 60 N m once steady: power
    2 x 60 x 5 W = 0.600 kW;
  - every row has 10 loaded shoes of 100 N on pads of 0.005 m^2 (pressure 20 kPa throughout).
Over the whole driving window the slip is 0.160 and the power 1.36 kW: means that the ramp biases.
MSER-5 (tools/mobility/rig_analysis.py) cuts the transient at its first batch wholly in the steady part,
t = 1.06 s, and the summary is the steady value."""
import json
import math
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mobility_metrics_test import temporary_folder, write_run  # noqa: E402  (tests/tools)
from launcher.trackcosim import mobility_of_run  # noqa: E402
from mobility.mobility_metrics import report_lines  # noqa: E402  (tools/, put on the path by mobility_metrics_test)

PITCH_RADIUS = 0.1171
TOP_SPEED = 5.0                        # rad/s
STEADY_SLIP = 0.022
STEADY_FROM = 1.0                      # s: the chassis at its steady speed from here
TIMES = [round(0.02 * k, 10) for k in range(1, 101)]
TRACK_SPEED = TOP_SPEED * PITCH_RADIUS
STEADY_SPEED = TRACK_SPEED * (1 - STEADY_SLIP)


def sprocket_speed(t):
    return TOP_SPEED * min(1.0, max(0.0, (t - 0.3) / 0.3))


def chassis_speed(t):
    return STEADY_SPEED * min(1.0, max(0.0, (t - 0.35) / (STEADY_FROM - 0.35)))


def vehicle_row(t):
    torque = 60.0 if t >= STEADY_FROM else 300.0
    return {"t": t, "x": 0, "y": 0, "z": 0.3, "qw": 1, "qx": 0, "qy": 0, "qz": 0,
            "vx": chassis_speed(t), "vy": 0, "vz": 0, "wx": 0, "wy": 0, "wz": 0,
            "sprocket_torque_left": torque, "sprocket_torque_right": torque,
            "sprocket_speed_left": sprocket_speed(t), "sprocket_speed_right": sprocket_speed(t),
            "idler_travel_left": 0, "idler_travel_right": 0}


class RampThenSteadyTest(unittest.TestCase):
    def setUp(self):
        self.folder = temporary_folder(self)
        config = write_run(self.folder, [vehicle_row(t) for t in TIMES], lambda i, r: 100.0 if i < 10 else 0.0,
                           pitch_radius=PITCH_RADIUS)
        self.m = mobility_of_run(self.folder, config)

    def test_the_ramp_would_bias_the_mean(self):
        # The premise: over the whole driving window the slip is far from the steady one.
        driving = [t for t in TIMES if sprocket_speed(t) >= 0.5 * TOP_SPEED]
        self.assertEqual(driving[0], 0.46)
        slips = [1 - chassis_speed(t) / (sprocket_speed(t) * PITCH_RADIUS) for t in driving]
        self.assertGreater(sum(slips) / len(slips) - STEADY_SLIP, 0.1)

    def test_the_window_starts_once_steady(self):
        start, end = self.m["driving_window_s"]
        self.assertGreaterEqual(start, STEADY_FROM)
        self.assertLess(start, STEADY_FROM + 0.1)  # within one MSER batch (5 rows) of it
        self.assertEqual(end, 2.0)
        self.assertEqual(self.m["driving_from_s"], 0.46)
        self.assertEqual(json.loads(json.dumps(self.m))["driving_window_s"], [start, end])  # run.json

    def test_slip_and_power_are_the_steady_values(self):
        for side in ("left", "right", "mean"):
            self.assertAlmostEqual(self.m["slip"][side], STEADY_SLIP, places=12)
        self.assertAlmostEqual(self.m["sprocket_power_kw"]["total"], 2 * 60.0 * TOP_SPEED / 1000, places=12)
        self.assertAlmostEqual(self.m["ground_pressure_kpa"]["mean"], 20.0, places=9)

    def test_the_printout_names_the_window(self):
        lines = report_lines(self.m)
        start = self.m["driving_window_s"][0]
        window = [line for line in lines if line.startswith("  steady window ")]
        self.assertEqual(len(window), 1, lines)
        self.assertIn("t = %.2f..2.00 s: the driving window from t = 0.46 s less its start-up transient" % start,
                      window[0])
        slip = [line for line in lines if line.startswith("  slip ")]
        self.assertIn("(mean 0.022), over t = %.2f..2.00 s" % start, slip[0])
        # Steady at the end, judged as before on the end of the driving window.
        self.assertTrue(self.m["speed_at_end"]["steady"])
        self.assertTrue(math.isclose(self.m["speed_at_end"]["speed"], STEADY_SPEED))


if __name__ == "__main__":
    unittest.main()
