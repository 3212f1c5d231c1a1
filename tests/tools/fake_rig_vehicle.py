"""A stand-in for vehicle_node --rig (cosim/drawbar_rig.h) with answers known by hand, for the
tests of `trackcosim mobility`: it reads its rig.json and writes vehicle/rig.csv, vehicle.csv and
run.json as vehicle_node would, without a multibody model. Every 0.01 s to --end-time:
  - weight 2000 N, pitch radius 0.1 m, sprockets at track_speed / 0.1 rad/s under 50 N m each;
  - slip mode: chassis at (1 - i) x track speed; drawbar pull 4000 i N (DBP/W = 2 i), except in
    the first TRANSIENT_ROWS rows of the measure phase, +300 N (a transient MSER-5 cuts);
  - towed mode: chassis at the speed, sprockets free, drawbar pull -(100 + 100 v) N;
  - pull mode: chassis at track speed x (1 - slope / 20 deg), slip slope / 20;
  - vehicle.csv: one road wheel per side, the left one loaded 1000 N plus 500 N at t = 1.5 s,
    the chassis pitched nose up 2 degrees at t = 1.5 s and its vz stepping 0.1 m/s there.
FAKE_FAIL_VALUE=<v> (environment): exit with status 3 for a rig whose test value is v;
FAKE_INTERRUPT_VALUE=<v>: exit with status 130, as a run ended by Ctrl-C, for that value.
FAKE_WAIT_VALUE=<v>: for that value, wait (up to 60 s) for SIGUSR1 or SIGTERM and then exit 130,
as a run that checkpointed on the signal.
Each run appends its value to runs.txt in its point's folder (the parent of --out): which ran."""
import csv
import json
import math
import os
import signal
import sys
import time

TRANSIENT_ROWS = 20
DT = 0.01
WEIGHT = 2000.0
PITCH_RADIUS = 0.1


def option(name, default=None):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def rig_row(rig, t, k_measure):
    start = rig["rest_time"] + rig["ramp_time"] + rig["settle_time"]
    phase = "rest" if t < rig["rest_time"] else "ramp" if t < rig["rest_time"] + rig["ramp_time"] else \
        "settle" if t < start else "measure"
    omega = 0.0 if rig["mode"] == "towed" else rig["track_speed"] / PITCH_RADIUS
    if rig["mode"] == "slip":
        vx, pull = (1 - rig["slip"]) * rig["track_speed"], 4000.0 * rig["slip"]
        if phase != "measure" or k_measure < TRANSIENT_ROWS:
            pull += 300.0
    elif rig["mode"] == "towed":
        vx, pull = rig["speed"], -(100.0 + 100.0 * rig["speed"])
    else:
        vx, pull = rig["track_speed"] * (1 - rig["slope_deg"] / 20.0), 0.0
    track = omega * PITCH_RADIUS
    slip = 1 - vx / track if abs(track) >= 1e-3 else math.nan
    torque = 0.0 if rig["mode"] == "towed" else 50.0
    return {"t": t, "phase": phase, "chassis_x": vx * t, "chassis_z": 0.3, "chassis_vx": vx, "pitch_deg": 0.0,
            "sprocket_speed_left": omega, "sprocket_speed_right": omega, "sprocket_torque_left": torque,
            "sprocket_torque_right": torque, "track_speed": track, "slip": slip, "drawbar_pull": pull,
            "weight": WEIGHT, "ground_fx": pull, "ground_fz": WEIGHT}


def vehicle_row(t):
    bump = abs(t - 1.5) < DT / 2
    half = math.radians(2.0 if bump else 0.0) / 2  # nose up: a negative rotation about y
    return {"t": t, "x": 0, "y": 0, "z": 0.3, "qw": math.cos(half), "qx": 0, "qy": -math.sin(half), "qz": 0,
            "vx": 0.5, "vy": 0, "vz": 0.1 if t >= 1.5 - DT / 2 else 0.0, "wx": 0, "wy": 0, "wz": 0,
            "road_wheel_fz_left_0": 1000.0 + (500.0 if bump else 0.0), "road_wheel_fz_right_0": 800.0}


def main():
    with open(option("--rig")) as f:
        rig = json.load(f)
    value = {"slip": lambda: rig["slip"], "towed": lambda: rig["speed"], "pull": lambda: rig["slope_deg"]}[rig["mode"]]()
    out = option("--out")
    with open(os.path.join(os.path.dirname(os.path.abspath(out)), "runs.txt"), "a") as f:
        f.write("%g\n" % value)
    if os.environ.get("FAKE_FAIL_VALUE") not in (None, "") and float(os.environ["FAKE_FAIL_VALUE"]) == value:
        print("vehicle_node: error: the fake fails for %g" % value, file=sys.stderr)
        return 3
    if os.environ.get("FAKE_INTERRUPT_VALUE") not in (None, "") and float(os.environ["FAKE_INTERRUPT_VALUE"]) == value:
        print("vehicle_node: interrupted (SIGINT) at %g" % value, file=sys.stderr)
        return 130
    if os.environ.get("FAKE_WAIT_VALUE") not in (None, "") and float(os.environ["FAKE_WAIT_VALUE"]) == value:
        caught = []
        for s in (signal.SIGUSR1, signal.SIGTERM):
            signal.signal(s, lambda signum, _frame: caught.append(signum))
        with open(os.path.join(os.path.dirname(os.path.abspath(out)), "waiting"), "w"):
            pass
        deadline = time.monotonic() + 60
        while not caught and time.monotonic() < deadline:
            time.sleep(0.05)
        print("vehicle_node: stopped by signal %s" % (caught or ["none"])[0], file=sys.stderr)
        return 130
    os.makedirs(out, exist_ok=True)
    end = float(option("--end-time", "2.2"))
    times = [round(DT * (k + 1), 10) for k in range(int(round(end / DT)))]
    start = rig["rest_time"] + rig["ramp_time"] + rig["settle_time"]
    with open(os.path.join(out, "rig.csv"), "w", newline="") as f:
        rows = [rig_row(rig, t, int(round((t - start) / DT))) for t in times]
        w = csv.DictWriter(f, list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    with open(os.path.join(out, "vehicle.csv"), "w", newline="") as f:
        rows = [vehicle_row(t) for t in times]
        w = csv.DictWriter(f, list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    with open(os.path.join(out, "run.json"), "w") as f:
        json.dump({"program": "vehicle_node", "vehicle": {"total_mass_kg": WEIGHT / 9.81,
                                                          "sprocket_pitch_radius_m": PITCH_RADIUS}}, f)
    print("vehicle_node: fake rig run of %d rows in %s" % (len(times), out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
