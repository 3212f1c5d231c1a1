"""Reading a finished run folder: the merged timing.csv of both programs and the figures of the
launcher's summary (sprocket torques, slip, sprocket power, ground pressure)."""
import csv
import json
import os

from common.input_checks import strip_comments
from mobility.mobility_metrics import mobility
from mobility.sinkage import SURFACE_FILE, floor_check, mean_over, missing_inputs, read_surface, sinkage_over_time


# The terrain's timing.csv columns that are not stages of its step; every other column is one
# stage, named as in terrain_node/distributed/terrain_step_stages.h (the one list of them).
TERRAIN_TIMING_FIXED = ("step", "t", "wait", "terrain", "halo", "exchange")


def merge_timing(folder):
    """Writes FOLDER/timing.csv (both programs per coupling step) and returns the mean of each
    column in ms, with the terrain's stages in step order under "terrain_stages"."""
    rows = {}
    with open(os.path.join(folder, "vehicle", "timing.csv")) as f:
        for r in csv.DictReader(f):
            rows[int(r["step"])] = {"step": r["step"], "t": r["t"], "vehicle_compute": r["vehicle"],
                                    "vehicle_wait": r["wait"]}
    with open(os.path.join(folder, "terrain", "timing.csv")) as f:
        reader = csv.DictReader(f)
        stages = [c for c in reader.fieldnames if c not in TERRAIN_TIMING_FIXED]
        for r in reader:
            row = rows.setdefault(int(r["step"]), {"step": r["step"], "t": r["t"]})
            row.update({"terrain_wait": r["wait"], "terrain_compute": r["terrain"], "terrain_halo": r["halo"],
                        "terrain_exchange": r["exchange"]})
            row.update({"terrain_" + s: r[s] for s in stages})
    columns = (["step", "t", "vehicle_compute", "vehicle_wait", "terrain_wait", "terrain_compute"] +
               ["terrain_" + s for s in stages] + ["terrain_halo", "terrain_exchange"])
    with open(os.path.join(folder, "timing.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, columns, restval="")
        w.writeheader()
        for k in sorted(rows):
            w.writerow(rows[k])
    ms = {c: 1000 * mean([float(r[c]) for r in rows.values() if r.get(c, "") != ""]) for c in columns[2:]}
    ms["terrain_stages"] = stages
    return ms


def mean(values):
    return sum(values) / len(values) if values else 0.0


def sprocket_torques(folder):
    """Mean motor torque on the left and right sprockets over the run (N m), from vehicle.csv."""
    rows = read_csv(os.path.join(folder, "vehicle", "vehicle.csv"))
    return (mean([float(r["sprocket_torque_left"]) for r in rows]),
            mean([float(r["sprocket_torque_right"]) for r in rows]))


def read_csv(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def vehicle_run_json(folder):
    """vehicle_node's run.json of the run, {} if it wrote none."""
    try:
        with open(os.path.join(folder, "vehicle", "run.json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def vehicle_config_of_run(config_file, vehicle_run):
    """The vehicle config the run names (JSON with // comments); should it no longer read, the
    document vehicle_node recorded in its run.json: the summary must not be lost at the end."""
    try:
        with open(config_file) as f:
            return json.loads(strip_comments(f.read()))
    except (OSError, ValueError) as e:
        if "config" not in vehicle_run:
            raise ValueError("%s: %s" % (config_file, e))
        return vehicle_run["config"]


def sprocket_pitch_radius(vehicle_run, vehicle_config):
    """Track speed per sprocket rad/s (m): vehicle_node's figure, which the shoes' geometry sets
    (docs/vehicle.md, "Wrapping"); a vehicle_node too old to write it leaves the config's sprocket
    radius, 8-16% short for the shipped vehicles (slip then reads low)."""
    try:
        return float(vehicle_run["vehicle"]["sprocket_pitch_radius_m"])
    except (KeyError, TypeError, ValueError):
        return float(vehicle_config["track"]["sprocket"]["radius"])


def mobility_of_run(folder, vehicle_config_file):
    """Slip, sprocket power and ground pressure of a finished run (tools/mobility/mobility_metrics.py)."""
    vehicle_run = vehicle_run_json(folder)
    vehicle_config = vehicle_config_of_run(vehicle_config_file, vehicle_run)
    vehicle_rows = read_csv(os.path.join(folder, "vehicle", "vehicle.csv"))
    shoe_rows = read_csv(os.path.join(folder, "vehicle", "shoes.csv"))
    metrics = mobility(vehicle_rows, shoe_rows, vehicle_config, sprocket_pitch_radius(vehicle_run, vehicle_config))
    metrics.update(sinkage_of_run(folder, metrics["driving_window_s"], vehicle_rows, shoe_rows))
    return metrics


def sinkage_of_run(folder, driving_window, vehicle_rows, shoe_rows):
    """{"sinkage": mean_over(...) or None, "sinkage_note": why not}: over the steady window
    (driving_window, tools/mobility/mobility_metrics.py), or
    over the second half of a run whose sprockets never turned (the vehicle has landed by then)."""
    why = missing_inputs(folder)
    series = sinkage_over_time(folder, shoe_rows) if why is None else None
    if series is None:
        return {"sinkage": None, "sinkage_note": why, "bed_floor": None}
    window = driving_window
    if window is None and vehicle_rows:
        end = float(vehicle_rows[-1]["t"])
        window = [end / 2, end]
    figure = mean_over(series, window) if window else None
    floor_z = container_floor(folder)
    surface = read_surface(os.path.join(folder, SURFACE_FILE))
    return {"sinkage": figure, "sinkage_note": None if figure else "no shoe carried by the terrain in the window",
            "bed_floor": floor_check(series, surface, floor_z) if floor_z is not None else None}


def container_floor(folder):
    """The container floor's z from the terrain's run.json (its resolved config), None without one."""
    try:
        with open(os.path.join(folder, "terrain", "run.json")) as f:
            return float(json.load(f)["config"]["container"]["min"][2])
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None
