"""Reads and checks a launcher run file (tools/launcher/trackcosim.py) before anything starts.

The launcher passes most of the run file on to vehicle_node and terrain_node as command-line
options, and those programs never see the file itself: a key the launcher does not know would
otherwise be dropped without a word (`"end_tim": 2` ran the vehicle config's own end time). So
every key is checked here, against the one table below, with messages in the programs' form
(io/json_fields.cpp): `FILE: vehicle.end_tim: unknown key (did you mean end_time? expected one
of: ...)`. The table is also what docs/protocol.md, "The run file", documents."""
import difflib
import json
import math
import os

from common.input_checks import describe


class RunFileError(Exception):
    """A run file the launcher refuses; the message names the file and the key."""


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def existing_file(value):
    if not isinstance(value, str):
        return "expected a path (a string), got " + describe(value)
    if not os.path.isfile(value):
        return "no such file: %s (paths are relative to the current folder)" % value
    return None


def path(value):
    return None if isinstance(value, str) and value else "expected a path (a string), got " + describe(value)


def seconds(value):
    if not is_number(value) or not math.isfinite(value) or value < 0:
        return "expected a number of seconds >= 0, got " + describe(value)
    return None


def positive_seconds(value):
    if not is_number(value) or not math.isfinite(value) or value <= 0:
        return "expected a number of seconds > 0, got " + describe(value)
    return None


def rank_count(value):
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        return "expected a whole number of ranks >= 1, got " + describe(value)
    return None


def shoe_loads(value):
    if value not in ("explicit", "implicit"):
        return 'expected "explicit" or "implicit", got ' + describe(value)
    return None


def coupling_scheme(value):
    if value not in ("concurrent", "sequential"):
        return 'expected "concurrent" or "sequential", got ' + describe(value)
    return None


# Every key of a run file, its check, and whether it is required; vehicle and terrain are
# sections of their own. Order is the order of the messages and of the docs.
SECTIONS = {
    "vehicle": {"config": (existing_file, True), "end_time": (seconds, False),
                "coupling_step": (seconds, False), "coupling_scheme": (coupling_scheme, False),
                "shoe_loads": (shoe_loads, False),
                "rig": (existing_file, False), "checkpoint_interval": (positive_seconds, False)},
    "terrain": {"config": (existing_file, True), "ranks": (rank_count, False), "checkpoint": (path, False)},
}
TOP_LEVEL = {"vehicle": (None, True), "terrain": (None, True), "output": (path, False)}


def check_keys(source, where, document, table):
    """Refuses a non-object, an unknown key (naming the closest known one) and a missing one."""
    if not isinstance(document, dict):
        raise RunFileError("%s: %sexpected an object, got %s" % (source, where + ": " if where else "",
                                                                 describe(document)))
    for key in document:
        if key not in table:
            close = difflib.get_close_matches(key, table, n=1)
            hint = "did you mean %s? " % close[0] if close else ""
            raise RunFileError("%s: %s: unknown key (%sexpected one of: %s)" % (
                source, where + "." + key if where else key, hint, ", ".join(table)))
    for key, (check, required) in table.items():
        name = where + "." + key if where else key
        if key not in document:
            if required:
                raise RunFileError("%s: %s: required key is missing" % (source, name))
            continue
        why = check(document[key]) if check else None
        if why:
            raise RunFileError("%s: %s: %s" % (source, name, why))


def check_run(source, run):
    """Checks a parsed run file; raises RunFileError at the first problem."""
    check_keys(source, "", run, TOP_LEVEL)
    for section, table in SECTIONS.items():
        check_keys(source, section, run[section], table)
    return run


def check_transport(source, terrain_config):
    """An MPI launcher starts both programs as one MPI job, so they couple over MPI: a terrain config
    whose cosim.transport says "tcp" would make the terrain wait for a TCP vehicle that never
    comes and fail after cosim.timeout blaming the vehicle. A config terrain_node cannot read is
    left to terrain_node, which names the key."""
    from common.input_checks import strip_comments
    try:
        with open(terrain_config) as f:
            cosim = json.loads(strip_comments(f.read())).get("cosim", {})
        transport = cosim.get("transport", "mpi")
    except (OSError, ValueError, AttributeError):
        return
    if transport != "mpi":
        raise RunFileError(
            '%s: terrain.config %s: cosim.transport is %s, but the launcher couples the programs over MPI '
            '(one mpirun or srun job): remove the key or set it to "mpi"; to couple over TCP, run with '
            '--launcher tcp (terrain_node --cosim and vehicle_node --terrain tcp, two processes; docs/protocol.md, '
            '"Starting over TCP")' % (source, terrain_config, describe(transport)))


def read_run_file(source, over_mpi=True):
    """The checked run file at path source (JSON). over_mpi: the launcher couples the programs over
    MPI, so the terrain config must say so; --launcher tcp writes its own copy over TCP instead."""
    try:
        with open(source) as f:
            run = json.load(f)
    except OSError as e:
        raise RunFileError("%s: cannot read the run file: %s" % (source, e.strerror or e))
    except ValueError as e:  # json.JSONDecodeError says line and column; a bad encoding does not
        raise RunFileError("%s: not a JSON run file: %s" % (source, e))
    check_run(source, run)
    if over_mpi:
        check_transport(source, run["terrain"]["config"])
    return run
