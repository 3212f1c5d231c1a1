#!/usr/bin/env python3
"""The run files of a heavy vehicle's convergence check (bench/run_heavy_convergence.sh): the
shipped co-simulation run file, and the two variants the 5% criterion compares it with, each
ending at UNTIL (a number of seconds, or "end": the run file's own end_time)
(docs/ccp.md, "Heavy vehicles: is the answer converged?"):

  reference   the run file as shipped; its terrain starts from the bed store's settled bed (the
              launcher settles and stores one when there is none)
  iterations  twice the terrain's solver.max_iterations
  step        half the terrain step (step_size, cosim.coupling_step) and half the vehicle's
              coupling step
  ranks1      the shipped configs on one terrain rank instead of the run file's (not a
              convergence variant: the solver's sums are exact, so the two give the same bits;
              docs/ccp.md, "Exact scalar sums")

Every variant starts from the reference's stored bed (terrain.checkpoint). The first two change
the terrain config, so the bed store would settle a bed for each, and the check would then also
compare beds: a bed's warm start alone moves the M113's sinkage at rest by 2%.

  heavy_variants.py RUN_FILE OUT_DIR UNTIL VARIANT

writes OUT_DIR/VARIANT.run.json (and OUT_DIR/VARIANT.terrain.json for iterations and step), with every path
in it absolute, and prints the run file's path. Run from the repository root (the run file's
paths are relative to it, as for `trackcosim run`). Exit status 2 for bad input, or for a variant
whose bed is not stored yet: run the reference first.
"""
import copy
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from common.help_option import exit_on_help  # noqa: E402
from common.input_checks import InputError, read_json, run_guarded  # noqa: E402
from common.terrain_files import anchored  # noqa: E402
from launcher.bed_store import StoredBed  # noqa: E402

VARIANTS = ("reference", "iterations", "step", "ranks1")


def number_at(document, keys, source, variant):
    """document[keys[0]][keys[1]]...: a positive number, or InputError naming the key the variant
    changes."""
    value = document
    for key in keys:
        if not isinstance(value, dict) or key not in value:
            raise InputError("%s: no %s (the %s variant changes it)" % (source, ".".join(keys), variant))
        value = value[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        raise InputError("%s: %s is %r, not a positive number" % (source, ".".join(keys), value))
    return value


def terrain_variant(terrain, source, variant):
    """The terrain config of a variant: twice the iterations, or half the step."""
    changed = copy.deepcopy(terrain)
    if variant == "iterations":
        changed["solver"]["max_iterations"] = 2 * number_at(terrain, ("solver", "max_iterations"), source, variant)
    else:
        changed["step_size"] = number_at(terrain, ("step_size",), source, variant) / 2
        if "coupling_step" in terrain.get("cosim", {}):
            changed["cosim"]["coupling_step"] = number_at(terrain, ("cosim", "coupling_step"), source, variant) / 2
    return changed


def variant_run(run_file, out_dir, until, variant):
    """The run file of one variant, as a dict; writes the variant's terrain config beside it."""
    run = read_json(run_file, "a run file", comments=True)
    vehicle, terrain = dict(run["vehicle"]), dict(run["terrain"])
    vehicle["config"] = os.path.abspath(vehicle["config"])
    if until is not None:
        vehicle["end_time"] = until
    terrain_config = terrain["config"]
    terrain["config"] = os.path.abspath(terrain_config)
    if variant != "reference":
        bed = StoredBed(terrain_config)
        if not bed.exists():
            raise InputError("%s: no stored bed for %s yet (%s): run the reference first" % (
                variant, terrain_config, bed.checkpoint))
        if variant == "ranks1":
            terrain["ranks"] = 1
        else:
            config = read_json(terrain_config, "a terrain config", comments=True)
            changed = anchored(terrain_variant(config, terrain_config, variant),
                               os.path.dirname(os.path.abspath(terrain_config)))
            terrain["config"] = os.path.join(out_dir, variant + ".terrain.json")
            with open(terrain["config"], "w") as f:
                json.dump(changed, f, indent=1)
        terrain["checkpoint"] = os.path.abspath(bed.checkpoint)
        if variant == "step" and "coupling_step" in vehicle:
            vehicle["coupling_step"] = vehicle["coupling_step"] / 2
    return {"vehicle": vehicle, "terrain": terrain, "output": os.path.join(out_dir, variant)}


def main(argv):
    exit_on_help(argv, __doc__)
    if len(argv) != 5 or argv[4] not in VARIANTS:
        raise InputError("usage: heavy_variants.py RUN_FILE OUT_DIR UNTIL %s" % "|".join(VARIANTS))
    run_file, out_dir, until, variant = argv[1:]
    try:
        until = None if until == "end" else float(until)
    except ValueError:
        raise InputError("UNTIL %r: not a number of seconds, nor \"end\"" % until)
    out_dir = os.path.abspath(out_dir)
    os.makedirs(out_dir, exist_ok=True)
    run = variant_run(run_file, out_dir, until, variant)
    path = os.path.join(out_dir, variant + ".run.json")
    with open(path, "w") as f:
        json.dump(run, f, indent=1)
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(run_guarded("heavy_variants.py", main, sys.argv))
