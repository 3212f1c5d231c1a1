"""The points of a mobility test (tools/mobility/mobility_tests.py) and the files each point runs from.

Every point is a run of its own in OUT/<test>_<value>/: rig.json (what the drawbar-pull rig
imposes, cosim/drawbar_rig.h), run_file.json (the user's run file with the rig, the point's end
time and its folder as output: `trackcosim run` runs it as any other) and, on a slope, the
terrain config with its gravity tilted, terrain_config.json. Every rig key is written out, so a
point's rig.json says all it was run with whatever the rig's own defaults become.
"""
import json
import math
import os
import sys
from collections import namedtuple

from common.input_checks import strip_comments
from common.launcher_common import find_program
from common.terrain_files import anchored

# Each test: the rig mode, the rig key its values set, and the series its steady window is chosen on.
TESTS = {"dbp": {"mode": "slip", "key": "slip", "series": "drawbar_pull"},
         "resistance": {"mode": "towed", "key": "speed", "series": "drawbar_pull"},
         "grade": {"mode": "pull", "key": "slope_deg", "series": "chassis_vx"},
         "obstacle": {"mode": "pull", "key": "track_speed", "series": "chassis_vx"}}
PHASES = {"rest_time": 0.2, "ramp_time": 0.5, "settle_time": 0.5}  # s before the measurement
MEASURE_TIME = 1.0     # s of measurement a point runs by default
TRACK_SPEED = 0.5      # m/s, the slip and pull modes' track speed unless --track-speed
TOWED_TRACK_SPEED = 0.0
EARTH_GRAVITY = 9.81   # m/s^2, a terrain config's default gravity (docs/terrain-config.md)
TRACKCOSIM = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "launcher", "trackcosim.py")

Point = namedtuple("Point", "index test value name folder")


def point_name(test, value):
    return "%s_%g" % (test, value)


def plan_points(test, values, out):
    """The points in the order of the values given (--point K is the K-th)."""
    names = [point_name(test, v) for v in values]
    return [Point(k, test, v, name, os.path.join(out, name)) for k, (v, name) in enumerate(zip(values, names))]


def phases(given=None):
    """The rig's phase times: PHASES, or --phases REST,RAMP,SETTLE."""
    return dict(zip(PHASES, given)) if given else dict(PHASES)


def default_end_time(given_phases=None):
    return sum(phases(given_phases).values()) + MEASURE_TIME


# The keys each rig mode takes (vehicle_node refuses another mode's key: cosim/drawbar_rig.h).
MODE_KEYS = {"slip": ("slip", "track_speed"), "pull": ("pull", "track_speed"), "towed": ("speed",)}


def rig_document(test, value, track_speed=None, given_phases=None):
    """The rig file of one point: slip mode for dbp, towed for resistance, pull 0 on a slope for
    grade and at the value's track speed for obstacle; only the keys of its mode."""
    mode = TESTS[test]["mode"]
    every = {"slip": 0.0, "pull": 0.0, "track_speed": track_speed or TRACK_SPEED, "speed": 0.0}
    rig = {"mode": mode}
    rig.update({key: every[key] for key in MODE_KEYS[mode]})
    rig["slope_deg"] = 0.0
    rig[TESTS[test]["key"]] = value
    rig.update(phases(given_phases))
    return rig


def tilted_gravity(gravity, slope_deg):
    """|gravity| along (-sin a, 0, -cos a): the ground rising along +x by a, as the rig tilts the
    vehicle's (cosim/drawbar_rig.h, slope_gravity)."""
    g = math.sqrt(sum(c * c for c in gravity))
    a = math.radians(slope_deg)
    return [-g * math.sin(a) + 0.0, 0.0, -g * math.cos(a)]  # + 0.0: no -0 on level ground


def tilted_terrain_config(text, slope_deg, folder):
    """A terrain config (JSON with // comments, read from folder) with its gravity tilted for the
    slope, to be written elsewhere: the files it names relative to its own folder are made
    absolute so that the copy still finds them (tools/common/terrain_files.py)."""
    config = anchored(json.loads(strip_comments(text)), folder)
    config["gravity"] = tilted_gravity(config.get("gravity", [0.0, 0.0, -EARTH_GRAVITY]), slope_deg)
    return config


def write_json(path, document):
    with open(path, "w") as f:
        json.dump(document, f, indent=2)
        f.write("\n")
    return path


def prepare_point(point, run, options):
    """Writes the point's rig.json, run_file.json (coupled) and tilted terrain config (grade on a
    terrain) into its folder; returns the point's record, point.json's content (its command)."""
    os.makedirs(point.folder, exist_ok=True)
    rig = rig_document(point.test, point.value, options["--track-speed"], options.get("--phases"))
    if point.test == "grade":
        rig["pull"] = 0.0
    rig_path = write_json(os.path.join(point.folder, "rig.json"), rig)
    end_time = options["--end-time"] or default_end_time(options.get("--phases"))
    record = {"test": point.test, "value": point.value, "rigid": options["--rigid"], "rig": rig, "end_time": end_time}
    if options["--rigid"]:
        record["command"] = rigid_command(run["vehicle"]["config"], rig_path, point.folder, end_time)
        return record
    point_run = json.loads(json.dumps(run))
    point_run["vehicle"].update({"rig": rig_path, "end_time": end_time})
    # vehicle.checkpoint_interval is kept: a long point (a heavy vehicle's) writes checkpoints and
    # resumes with `tools/trackcosim run POINT/run_file.json --resume POINT` (docs/mobility.md).
    point_run["output"] = point.folder
    if point.test == "grade":
        with open(run["terrain"]["config"]) as f:
            terrain = tilted_terrain_config(f.read(), point.value, os.path.dirname(run["terrain"]["config"]))
        point_run["terrain"]["config"] = write_json(os.path.join(point.folder, "terrain_config.json"), terrain)
        record["terrain_gravity"] = terrain["gravity"]
    run_file = write_json(os.path.join(point.folder, "run_file.json"), point_run)
    command = [sys.executable, TRACKCOSIM, "run", run_file, "--out", point.folder, "--launcher", options["--launcher"],
               "--no-plot"]
    if options["--terrain-ranks"]:
        command += ["--terrain-ranks", str(options["--terrain-ranks"])]
    record["command"] = command
    return record


def rigid_command(vehicle_config, rig_path, folder, end_time):
    """vehicle_node alone on its rigid ground, with the rig (found as `trackcosim run` finds it)."""
    return [find_program("vehicle_node"), "--config", vehicle_config, "--ground", "rigid", "--rig", rig_path,
            "--out", os.path.join(folder, "vehicle"), "--quiet", "--end-time", "%g" % end_time]


def terrain_ranks(run, options):
    return 0 if options["--rigid"] else options["--terrain-ranks"] or run["terrain"].get("ranks", 1)


def default_jobs(run, options, cores):
    """Points at a time: one per (terrain ranks + 1 vehicle) cores, one per core on rigid ground."""
    return max(1, cores // (terrain_ranks(run, options) + 1))
