"""A run folder's record of the runs that wrote it, for `trackcosim run` (tools/launcher/trackcosim.py).

RUN_DIR/launches.json lists every run of the folder since it was last started afresh: the run
file, the vehicle config (its path and its document) and the terrain config each one ran with,
and whether it resumed. A fresh run starts the list; `--resume` adds to it once its configs are
accepted, before anything starts, so that a run killed later still leaves the record of what
wrote its checkpoints. run.json repeats the list ("launches"): the original configs and the
resumed ones side by side.

A resume continues the vehicle of the checkpoint. The terrain checks its own config against its
checkpoint (terrain_node/checkpoint/start_state.cpp, naming the first key that differs); the
vehicle checkpoint does not hold its config, so the launcher checks the vehicle here, the same
way, against the last run of the folder: another vehicle (the toothed robot resuming the
friction-drive robot's checkpoint) would otherwise run on with a different answer."""
import copy
import json
import os
import shlex
import time

from common.input_checks import InputError

LAUNCHES = "launches.json"

# What a resumed vehicle may change: how long the run goes and what it writes, its label, and the
# rigid ground a co-simulation does not use. Everything else makes the vehicle or moves it.
FREE_ON_RESUME = (("name",), ("rigid_ground",), ("simulation", "end_time"), ("simulation", "output_interval"),
                  ("simulation", "vtk_interval"))


def vehicle_document(path):
    """The vehicle config at path as a document (// comments allowed), None when it cannot be read
    (vehicle_node then says why)."""
    from common.input_checks import strip_comments
    try:
        with open(path) as f:
            document = json.loads(strip_comments(f.read()))
    except (OSError, ValueError):
        return None
    return document if isinstance(document, dict) else None


def launches_of(folder):
    """The folder's record, oldest first; [] when it has none (a folder of an older launcher)."""
    try:
        with open(os.path.join(folder, LAUNCHES)) as f:
            launches = json.load(f).get("launches", [])
    except (OSError, ValueError, AttributeError):
        return []
    return launches if isinstance(launches, list) else []


def record_launch(folder, run_file, run, vehicle_config, terrain_config, resumed):
    """Adds this run to the folder's record (a fresh run starts it anew) and returns the list."""
    launches = launches_of(folder) if resumed else []
    launches.append({"run_file": run_file, "config": run,
                     "vehicle_config": {"file": vehicle_config, "document": vehicle_document(vehicle_config)},
                     "terrain_config": terrain_config, "resumed": resumed,
                     "started": time.strftime("%Y-%m-%dT%H:%M:%S%z")})
    with open(os.path.join(folder, LAUNCHES), "w") as f:
        json.dump({"launches": launches}, f, indent=2)
    return launches


def resumed_vehicle(folder):
    """(source, document) of the vehicle config that wrote the folder's checkpoints: the last
    launch's, else vehicle_node's own run.json of its last stop; None when neither records it."""
    launches = launches_of(folder)
    if launches:
        vehicle = launches[-1].get("vehicle_config") or {}
        if isinstance(vehicle.get("document"), dict):
            return vehicle.get("file", "?"), vehicle["document"]
    try:
        with open(os.path.join(folder, "vehicle", "run.json")) as f:
            run = json.load(f)
        if isinstance(run.get("config"), dict):
            return run.get("config_file", "?"), run["config"]
    except (OSError, ValueError, AttributeError):
        pass
    return None


def without_free_keys(document):
    """The document less the keys a resume may change (FREE_ON_RESUME)."""
    kept = copy.deepcopy(document)
    for path in FREE_ON_RESUME:
        parent = kept
        for key in path[:-1]:
            parent = parent.get(key) if isinstance(parent, dict) else None
        if isinstance(parent, dict):
            parent.pop(path[-1], None)
    return kept


_ABSENT = object()


def first_difference(mine, theirs, path=""):
    """(path, mine, theirs) at the first place where the documents differ, in the order of `theirs`
    (the file the checkpoint's run read; _ABSENT: the key is missing on that side), or None."""
    if mine == theirs:
        return None
    if isinstance(mine, dict) and isinstance(theirs, dict):
        for key in list(theirs) + [k for k in mine if k not in theirs]:
            found = first_difference(mine.get(key, _ABSENT), theirs.get(key, _ABSENT), path + "." + key if path else key)
            if found:
                return found
    if isinstance(mine, list) and isinstance(theirs, list) and len(mine) == len(theirs):
        for i, (a, b) in enumerate(zip(mine, theirs)):
            found = first_difference(a, b, "%s[%d]" % (path, i))
            if found:
                return found
    return path, mine, theirs


def shown(value):
    """A value for a message: its JSON, cut short when long."""
    if value is _ABSENT:
        return "absent"
    text = json.dumps(value)
    return text if len(text) <= 80 else text[:77] + "..."


def check_resumed_vehicle(folder, vehicle_config):
    """InputError naming the first key where vehicle_config differs from the vehicle that wrote the
    folder's checkpoint; a line on stdout when the folder does not record that vehicle."""
    before = resumed_vehicle(folder)
    mine = vehicle_document(vehicle_config)
    if before is None or mine is None:
        if before is None:
            print("trackcosim: warning: --resume %s: the folder records no vehicle config (written by an older "
                  "launcher): the vehicle is not checked against the checkpoint's" % folder, flush=True)
        return
    source, theirs = before
    found = first_difference(without_free_keys(mine), without_free_keys(theirs))
    if found:
        key, here, there = found
        raise InputError(
            "--resume %s: the vehicle config %s does not match the run that wrote the checkpoint: %s is %s here and "
            "%s in that run (%s): a resume continues that run's vehicle; resume with its config, or start a new run "
            "(without --resume)" % (folder, vehicle_config, key, shown(here), shown(there), source))


def resume_command(program, config_file, folder, options):
    """The exact command line that continues the run in `folder` (its options that matter again)."""
    words = [program, "run", config_file, "--resume", folder]
    if options["--terrain-ranks"]:
        words += ["--terrain-ranks", str(options["--terrain-ranks"])]
    if options["--launcher"] != "mpirun":
        words += ["--launcher", options["--launcher"]]
    if options["--grow-with-ranks"]:
        words.append("--grow-with-ranks")
    return " ".join(shlex.quote(w) for w in words)
