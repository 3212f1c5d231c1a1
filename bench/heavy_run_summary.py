#!/usr/bin/env python3
"""One parseable line for a finished heavy-vehicle co-simulation (bench/run_heavy.sh):

  heavy vehicle=<name> grains=<n> steps=<k> wall_s=<t> ms_per_step=<m> distance_m=<d> sinkage_m=<s>
        sprocket_torque_Nm=<q> rest_force_ratio=<r> max_grain_speed=<v>
        max_grain_speed_not_in_flight=<w>                                     (one line)

  heavy_run_summary.py RUN_DIR VEHICLE_NAME WALL_SECONDS [--rest-window T0,T1]

- steps, ms_per_step, distance_m: the launcher's summary (RUN_DIR/run.json); sinkage_m: the mean
  over its driving window, measured again by tools/mobility/sinkage.py (run.json's when the folder lacks
  the VTK series or the surface map; docs/mobility-metrics.md).
- sprocket_torque_Nm: the mean motor torque of both sprockets over the same driving window
  (run.json's driving_window_s).
- rest_force_ratio: the summed vertical terrain force on all shoes (shoes.csv) over the rest
  window, divided by the vehicle's weight (vehicle/run.json's total mass x 9.81). The rest window
  is the 0.5 s before the sprockets first turn (mean sprocket speed above 1% of its maximum),
  or --rest-window.
- max_grain_speed: the fastest grain at any coupling step (terrain/solver.csv) [m/s].
- max_grain_speed_not_in_flight: the same over the steps whose fastest grain is not in free
  flight. A grain thrown off the track flies under gravity alone, so its |v|^2 is quadratic in t
  with curvature g^2: three consecutive steps whose second difference of |v|^2 is 2 g^2 dt^2
  within 1% are in flight (the integrator keeps that exact for a grain without contacts). What
  is left is the bed's own fastest grain, the figure that says whether the bed stays calm.
- wall_s: the run's wall time as the caller measured it (bed preparation included).
Also prints a second line, `heavy_rest ...`, with the rest window and the ratio's swing in it.
"""
import csv
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from common.help_option import exit_on_help  # noqa: E402
from mobility.run_outputs import sinkage_of_run  # noqa: E402
from mobility.sinkage import missing_inputs  # noqa: E402
from run_finished import finished  # noqa: E402

GRAVITY = 9.81
REST_WINDOW_S = 0.5
TURNING_SHARE = 0.01
TIME_MATCH_S = 1e-9  # output times are sums of steps: a window edge is matched within this


def read_csv(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def mean(values):
    return sum(values) / len(values) if values else float("nan")


def sprocket_speed(row):
    return abs(float(row["sprocket_speed_left"]) + float(row["sprocket_speed_right"])) / 2


def rest_window(vehicle_rows):
    """The REST_WINDOW_S before the sprockets first turn."""
    top = max((sprocket_speed(r) for r in vehicle_rows), default=0.0)
    start = next((float(r["t"]) for r in vehicle_rows if sprocket_speed(r) > TURNING_SHARE * top),
                 float(vehicle_rows[-1]["t"]))
    return max(0.0, start - REST_WINDOW_S), start


def in_flight(solver_rows, tolerance=0.01):
    """Per solver.csv row: whether its fastest grain is in free flight (see the module doc)."""
    t = [float(r["t"]) for r in solver_rows]
    v2 = [float(r["max_grain_speed"]) ** 2 for r in solver_rows]
    flying = [False] * len(t)
    for i in range(1, len(t) - 1):
        dt = t[i + 1] - t[i]
        if dt <= 0 or abs(t[i] - t[i - 1] - dt) > 1e-9 * dt:
            continue
        curvature = (v2[i + 1] - 2 * v2[i] + v2[i - 1]) / (2 * dt * dt)
        if abs(curvature - GRAVITY ** 2) <= tolerance * GRAVITY ** 2:
            flying[i - 1] = flying[i] = flying[i + 1] = True
    return flying


def vertical_force_by_time(shoe_rows):
    totals = {}
    for r in shoe_rows:
        t = float(r["t"])
        totals[t] = totals.get(t, 0.0) + float(r["fz"])
    return totals


def sinkage_now(folder, summary, vehicle_rows):
    """The driving window's mean sinkage as tools/mobility/sinkage.py measures it now (run.json keeps the
    figure of the launcher that finished the run, before any change of the measure), or
    run.json's when the folder lacks what the measure reads."""
    if missing_inputs(folder) is not None:
        return summary.get("sinkage_m")
    figure = sinkage_of_run(folder, summary["driving_window_s"], vehicle_rows,
                            read_csv(os.path.join(folder, "vehicle", "shoes.csv")))["sinkage"]
    return figure["mean"] if figure else None


def main(argv):
    exit_on_help(argv, __doc__)
    if len(argv) not in (4, 6) or (len(argv) == 6 and argv[4] != "--rest-window"):
        print(__doc__, file=sys.stderr)
        return 2
    folder, name, wall = argv[1], argv[2], float(argv[3])
    if not finished(folder):
        print("heavy_run_summary.py: %s: not a finished run (no run.json with the launcher's summary: still "
              "running, stopped by a signal, or failed); summarise it when it has ended" % folder, file=sys.stderr)
        return 2
    with open(os.path.join(folder, "run.json")) as f:
        summary = json.load(f)["summary"]
    with open(os.path.join(folder, "vehicle", "run.json")) as f:
        vehicle_run = json.load(f)
    mass = vehicle_run["vehicle"]["total_mass_kg"]
    vehicle_rows = read_csv(os.path.join(folder, "vehicle", "vehicle.csv"))
    if len(argv) == 6:
        t0, t1 = (float(x) for x in argv[5].split(","))
    else:
        t0, t1 = rest_window(vehicle_rows)
    forces = vertical_force_by_time(read_csv(os.path.join(folder, "vehicle", "shoes.csv")))
    ratios = [force / (mass * GRAVITY) for t, force in sorted(forces.items()) if t0 - TIME_MATCH_S <= t < t1 - TIME_MATCH_S]
    if not summary.get("driving_window_s"):  # the launcher's driving window (docs/mobility-metrics.md)
        print("heavy_run_summary.py: %s: the run has no driving window (its sprockets never turned steadily): "
              "no torque or sinkage while driving to report" % folder, file=sys.stderr)
        return 2
    d0, d1 = summary["driving_window_s"]
    driving = [r for r in vehicle_rows if d0 - TIME_MATCH_S <= float(r["t"]) <= d1 + TIME_MATCH_S]
    torque = mean([(float(r["sprocket_torque_left"]) + float(r["sprocket_torque_right"])) / 2 for r in driving])
    solver = read_csv(os.path.join(folder, "terrain", "solver.csv"))
    fastest = max(float(r["max_grain_speed"]) for r in solver)
    grounded = max((float(r["max_grain_speed"]) for r, flying in zip(solver, in_flight(solver)) if not flying),
                   default=0.0)
    steps = summary["steps"]
    sinkage = sinkage_now(folder, summary, vehicle_rows)
    print("heavy vehicle=%s grains=%d steps=%d wall_s=%.0f ms_per_step=%.1f distance_m=%.3f sinkage_m=%s "
          "sprocket_torque_Nm=%.0f rest_force_ratio=%.4f max_grain_speed=%.3f max_grain_speed_not_in_flight=%.3f" % (
              name, summary["particles"], steps, wall, summary["step_ms"], summary["distance_m"],
              "n/a" if sinkage is None else "%.4f" % sinkage, torque, mean(ratios), fastest, grounded))
    print("heavy_rest window_s=%.3f,%.3f samples=%d ratio_min=%.4f ratio_max=%.4f weight_N=%.0f" % (
        t0, t1, len(ratios), min(ratios, default=float("nan")), max(ratios, default=float("nan")),
        mass * GRAVITY))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
