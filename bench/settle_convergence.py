#!/usr/bin/env python3
"""Is a shipped settling run converged? Runs a standalone terrain config with a `settle` section
three times with terrain_node: as shipped, with the solver's iterations doubled, and with the step
halved; then compares the settled bed of the two variants with the shipped one's: its mean depth
(settle.json depth_mean) and its relief, the spread of the surface between its 5th and 95th
percentile heights (heightmap.csv), each within 5% (the criterion of docs/ccp.md, "Is the answer
converged?", applied to what a settled terrain is for: its surface).

  settle_convergence.py CONFIG [--out DIR] [--threads N]

Variant configs are written beside their output folders, DIR/<variant>.json, with the config's
relative file names (heightmaps) made absolute; a variant whose folder holds a settle.json is not
run again. One line per variant:
  settle_convergence config=<file> variant=<v> wall_s=<t> steps=<k> stop=<reason> depth_m=<d>
                     relief_m=<r> depth_change=<dd> relief_change=<dr> converged=<yes|no>
(the base line has no changes). Exit status 0 when both variants are within 5%, 1 when one is
not, 2 for bad input or a failed run. Binaries: $TRACKCOSIM_BUILD (default build/).
"""
import json
import os
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.normpath(os.path.join(here, ".."))
sys.path.insert(0, os.path.join(root, "tools"))
from common.help_option import exit_on_help  # noqa: E402
sys.path.insert(0, here)
from gravel_convergence import VARIANTS, double_iterations  # noqa: E402
from heavy_convergence import changes  # noqa: E402
from common.input_checks import InputError, read_json  # noqa: E402


def variant_config(config_path, variant, out):
    """The variant's config written to out/<variant>.json; its path."""
    config = read_json(config_path, "a terrain config", comments=True)
    if "settle" not in config:
        raise InputError("%s: no settle section: nothing says when the bed is settled" % config_path)
    folder = os.path.dirname(os.path.abspath(config_path))
    for source in config.get("particles", []):
        if "file" in source and not os.path.isabs(source["file"]):
            source["file"] = os.path.join(folder, source["file"])
    if variant == "iterations":
        double_iterations(config)
    elif variant == "step":
        config["step_size"] = config.get("step_size", 1e-3) / 2
    config.setdefault("output", {})["snapshot_interval"] = 0  # the surface is what is compared
    path = os.path.join(out, variant + ".json")
    with open(path, "w") as f:
        json.dump(config, f, indent=1)
    return path


def surface_heights(heightmap_csv):
    """The filled cells' heights of a heightmap.csv (comment lines start with #, empty cells are blank)."""
    heights = []
    with open(heightmap_csv) as f:
        for line in f:
            if line.startswith("#"):
                continue
            heights += [float(cell) for cell in line.strip().split(",") if cell.strip()]
    if not heights:
        raise ValueError("%s: no filled cell" % heightmap_csv)
    return sorted(heights)


def relief(heights):
    """The spread between the 5th and the 95th percentile of sorted heights."""
    def at(share):
        return heights[min(len(heights) - 1, int(share * len(heights)))]
    return at(0.95) - at(0.05)


def run_variant(config_path, variant, out, threads):
    folder = os.path.join(out, variant)
    path = variant_config(config_path, variant, out)
    if os.path.exists(os.path.join(folder, "settle.json")):
        return folder, None
    binary = os.path.join(os.environ.get("TRACKCOSIM_BUILD", os.path.join(root, "build")), "terrain_node", "terrain_node")
    start = time.time()
    with open(os.path.join(out, variant + ".log"), "w") as log:
        rc = subprocess.call([binary, "--config", path, "--threads", str(threads), "--out", folder],
                             stdout=log, stderr=subprocess.STDOUT, cwd=root)
    if rc != 0:
        raise RuntimeError("%s failed (exit %d): %s" % (variant, rc, os.path.join(out, variant + ".log")))
    return folder, time.time() - start


def figures(folder):
    with open(os.path.join(folder, "settle.json")) as f:
        settle = json.load(f)
    return settle, relief(surface_heights(os.path.join(folder, "heightmap.csv")))


def main(argv):
    exit_on_help(argv, __doc__)
    args = argv[1:]
    options = {"--out": None, "--threads": "2"}
    try:
        for key in options:
            if key in args:
                i = args.index(key)
                if i + 1 >= len(args):
                    raise InputError("%s: expected a value" % key)
                options[key] = args[i + 1]
                del args[i:i + 2]
        if len(args) != 1:
            raise InputError("expected one terrain config")
        config = args[0]
        out = options["--out"] or os.path.join("output", "convergence", os.path.splitext(os.path.basename(config))[0])
        os.makedirs(out, exist_ok=True)
        runs = {v: run_variant(config, v, out, int(options["--threads"])) for v in VARIANTS}
        base_settle, base_relief = figures(runs["base"][0])
        converged = True
        for variant in VARIANTS:
            folder, wall = runs[variant]
            settle, surface = figures(folder)
            line = "settle_convergence config=%s variant=%s wall_s=%s steps=%d stop=%s depth_m=%.4f relief_m=%.4f" % (
                config, variant, "%.0f" % wall if wall else "-", settle["steps"], settle["stop_reason"],
                settle["depth_mean"], surface)
            if variant != "base":
                text, ok = changes([("depth", settle["depth_mean"], base_settle["depth_mean"]),
                                    ("relief", surface, base_relief)])
                converged = converged and ok
                line += text
            print(line, flush=True)
    except (InputError, OSError, ValueError, KeyError, RuntimeError) as e:
        print("settle_convergence: error: %s" % e, file=sys.stderr)
        return 2
    return 0 if converged else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
