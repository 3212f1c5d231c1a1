#!/usr/bin/env python3
"""Is a shipped co-simulation converged? Runs a run file four times with `tools/trackcosim run`:
as shipped, with the terrain solver's iterations doubled, with the terrain step, the coupling
step and the vehicle's step halved, and on a bed settled at half the step (cosim.settle_step; the
drive as shipped); then compares the mean sinkage and the mean sprocket torque of the three
variants with the shipped run's over its steady window (bench/heavy_convergence.py; the 5%
criterion of docs/ccp.md, "Is the answer converged?"). The settle variant asks whether the bed's
preparation is converged: a bed's density depends on the step it settled at (docs/ccp.md, "The
bed's preparation").

  gravel_convergence.py RUN_FILE [--out DIR] [--only base,iterations,step,settle,seed] [--window T0,T1]
                        [--beds N]

The `seed` variant (run only when --only names it) is the same run on a bed drawn with the next
seed of every random source: not a convergence check but the scatter of one realisation of the
bed against another, which the iterations and step changes must stand above to mean anything.

With --beds N (default 1) every variant runs on N beds, drawn with the seeds of its random
sources raised by 0 .. N-1 (folders <variant>, <variant>.bed1, ...), and is judged by the change
of its mean over them against the base's mean over the same seeds, with a 95% interval
(tools/common/bed_statistics.py): converged=yes when the interval lies within 5%, no when it lies
outside, unresolved when more beds are needed to tell. Its lines then also carry beds=<N>,
sinkage_sem=<s>, torque_sem=<s> and <name>_change_ci=<half width>.

Each variant settles its own bed (its config differs, so the bed store keys it apart) and writes
its run file and terrain config beside its output folder, DIR/<variant>.run.json and
DIR/<variant>.terrain.json, with checkpoints every 0.5 s unless the run file sets an interval.
A variant whose folder already holds a finished run (run.json with a summary) is not run again,
and one that stopped resumes from its checkpoints, so a study that stopped is continued by
running the same command. A variant stopped by a signal (SIGUSR1, SIGTERM: its checkpoints
written) ends the study for now with one line saying so and exit status 0. Run from the
repository's root (the run files' paths are relative to it). One line per variant:
  gravel_convergence run=<run file> variant=<v> wall_s=<t> ms_per_step=<m> sinkage_m=<s>
                     sprocket_torque_Nm=<q> sinkage_change=<ds> torque_change=<dq> converged=<yes|no>
(the base line has no changes; the seed line ends with scatter=<yes|no>, whether the bed's
realisation alone moves the answer by 5% or more, and does not count towards the exit status).
The window is the shipped run's steady window (its summary's sinkage window) unless --window is
given. Exit status 0 when every variant is converged, 1 when one is not (or, over several beds,
is unresolved), 2 for bad input or a failed run.
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
from heavy_convergence import TOLERANCE, change_fields, changes, figures, window_argument  # noqa: E402
from common.bed_statistics import mean_and_sem, relative_change, verdict  # noqa: E402
from common.input_checks import InputError, read_json  # noqa: E402
from run_finished import finished  # noqa: E402

VARIANTS = ("base", "iterations", "step", "settle")
SCATTER = "seed"  # not a convergence variant: another realisation of the same bed
RANDOM_SOURCES = ("layers", "lattice", "random_fill", "heightmap", "elevation_grid", "rocks")


def double_iterations(terrain):
    """The terrain solver's iteration count doubled in place (25 when the config leaves the default)."""
    terrain["solver"]["max_iterations"] = 2 * terrain["solver"].get("max_iterations", 25)


def next_seed(terrain, terrain_path, by=1):
    """Every random particle source's seed raised by `by` in place (its default is 0)."""
    sources = [p for p in terrain.get("particles", []) if p.get("kind") in RANDOM_SOURCES]
    if not sources:
        raise InputError("%s: no random particle source: another seed would be the same bed" % terrain_path)
    for source in sources:
        source["seed"] = source.get("seed", 0) + by


def bed_name(variant, bed):
    """The name of a variant's run on bed k (its random sources' seeds raised by k)."""
    return variant if bed == 0 else "%s.bed%d" % (variant, bed)


def settle_step(terrain):
    """The step the terrain settles its bed at: cosim.settle_step, else its step_size."""
    return terrain.get("cosim", {}).get("settle_step", terrain["step_size"])


def halve_settle_step(terrain):
    """The settling step halved in place; the step the vehicle drives at stays."""
    terrain.setdefault("cosim", {})["settle_step"] = settle_step(terrain) / 2


def halve_step(run, terrain, vehicle_config_path):
    """Halves every step in place: the terrain's step_size, its cosim.coupling_step and the run
    file's coupling step. The coupling step must be a whole number of vehicle steps, so when the
    vehicle's own step (simulation.step) is longer than the halved coupling step, the vehicle
    config is returned with its step halved too (to be written as a copy); None otherwise."""
    if "settle_step" in terrain.get("cosim", {}):  # every step halved: the settling's too
        halve_settle_step(terrain)
    terrain["step_size"] = terrain["step_size"] / 2
    cosim = terrain.setdefault("cosim", {})
    coupling = run["vehicle"].get("coupling_step", cosim.get("coupling_step", terrain["step_size"] * 2))
    cosim["coupling_step"] = coupling / 2
    run["vehicle"]["coupling_step"] = coupling / 2
    vehicle = read_json(vehicle_config_path, "a vehicle config", comments=True)
    vehicle_step = vehicle.get("simulation", {}).get("step", coupling)
    if vehicle_step > coupling / 2:
        # the vehicle's own step must not exceed the halved coupling step: write a copy with it halved
        vehicle.setdefault("simulation", {})["step"] = vehicle_step / 2
        return vehicle
    return None


def variant_files(run_file, variant, out, bed=0):
    """(run file path, output folder) of one variant on bed `bed`, written under out."""
    run = read_json(run_file, "a run file", comments=True)
    terrain_path = run["terrain"]["config"]
    terrain = read_json(terrain_path, "a terrain config", comments=True)
    name = bed_name(variant, bed)
    folder = os.path.join(out, name)
    if variant == "iterations":
        double_iterations(terrain)
    elif variant == SCATTER:
        next_seed(terrain, terrain_path)
    elif variant == "settle":
        halve_settle_step(terrain)
    elif variant == "step":
        vehicle = halve_step(run, terrain, run["vehicle"]["config"])
        if vehicle is not None:
            vehicle_path = os.path.join(out, name + ".vehicle.json")
            with open(vehicle_path, "w") as f:
                json.dump(vehicle, f, indent=1)
            run["vehicle"]["config"] = vehicle_path
    if bed:
        next_seed(terrain, terrain_path, bed)
    if any(p.get("kind") == "heightmap" for p in terrain.get("particles", [])):
        raise InputError("%s: a heightmap terrain names files relative to its folder; not supported" % terrain_path)
    terrain_copy = os.path.join(out, name + ".terrain.json")
    with open(terrain_copy, "w") as f:
        json.dump(terrain, f, indent=1)
    run["terrain"]["config"] = terrain_copy
    run["output"] = folder
    # checkpoints every 0.5 s unless the run file sets them: a variant that stops continues from them
    run["vehicle"].setdefault("checkpoint_interval", 0.5)
    run_copy = os.path.join(out, name + ".run.json")
    with open(run_copy, "w") as f:
        json.dump(run, f, indent=1)
    return run_copy, folder


class StoppedRun(Exception):
    """A variant that a signal stopped with its checkpoints (its run.json records `stopped`): the
    study continues from them when the same command runs again."""


def run_variant(run_file, variant, out, bed=0):
    """Runs one variant on bed `bed` unless its folder holds a finished run: (folder, its wall time
    in s, None when not run now). StoppedRun when a signal stopped it before its end."""
    run_copy, folder = variant_files(run_file, variant, out, bed)
    variant = bed_name(variant, bed)
    if finished(folder):
        return folder, None
    start = time.time()
    resume = ["--resume", folder] if os.path.exists(os.path.join(folder, "vehicle", "checkpoint.bin")) else []
    with open(os.path.join(out, variant + ".log"), "a") as log:
        rc = subprocess.call([sys.executable, os.path.join(root, "tools", "launcher", "trackcosim.py"), "run", run_copy,
                              "--out", folder, "--no-plot"] + resume, stdout=log, stderr=subprocess.STDOUT, cwd=root)
    if rc != 0:
        raise RuntimeError("%s failed (exit %d): %s" % (variant, rc, os.path.join(out, variant + ".log")))
    if not finished(folder):  # the launcher exits 0 for a run stopped with its checkpoints
        raise StoppedRun("%s stopped before its end (log %s): run the same command again to resume it" % (
            variant, os.path.join(out, variant + ".log")))
    return folder, time.time() - start


def parse(argv):
    options = {"out": None, "only": VARIANTS, "window": None, "beds": "1"}
    rest = []
    i = 1
    while i < len(argv):
        if argv[i] in ("--out", "--only", "--window", "--beds") and i + 1 < len(argv):
            options[argv[i][2:]] = argv[i + 1]
            i += 2
        else:
            rest.append(argv[i])
            i += 1
    if len(rest) != 1:
        raise InputError("expected one run file")
    if isinstance(options["only"], str):
        options["only"] = tuple(options["only"].split(","))
        unknown = [v for v in options["only"] if v not in VARIANTS + (SCATTER,)]
        if unknown or "base" not in options["only"]:
            raise InputError("--only: expected base and any of iterations,step,settle,seed, got %s"
                             % ",".join(options["only"]))
    if options["window"] is not None:
        options["window"] = window_argument(options["window"])
    if not options["beds"].isdigit() or int(options["beds"]) < 1:
        raise InputError("--beds: expected a whole number >= 1, got %r" % options["beds"])
    options["beds"] = int(options["beds"])
    if options["beds"] > 1 and SCATTER in options["only"]:
        raise InputError("--beds %d measures the scatter between beds itself: leave seed out of --only"
                         % options["beds"])
    name = os.path.splitext(os.path.basename(rest[0]))[0]
    options["out"] = options["out"] or os.path.join("output", "convergence", name)
    return rest[0], options


def steady_window(folder):
    with open(os.path.join(folder, "run.json")) as f:
        sinkage = json.load(f)["summary"].get("sinkage")
    if not sinkage:
        raise InputError("%s: the summary has no sinkage window; give --window" % folder)
    return sinkage["from"], sinkage["to"]


def step_ms(folder):
    with open(os.path.join(folder, "run.json")) as f:
        return json.load(f)["summary"]["step_ms"]


def one_bed_fields(variant, answer, reference):
    """(text after the figures, whether it counts as converged) of a variant run on one bed."""
    if variant == "base":
        return "", True
    named = [("sinkage", answer[0], reference[0]), ("torque", answer[1], reference[1])]
    if variant == SCATTER:  # another realisation, not a convergence check: no verdict
        text, within = change_fields(named)
        return text + " scatter=%s" % ("no" if within else "yes"), True
    return changes(named)


def many_beds_fields(variant, answers, references):
    """(" sinkage_sem=... torque_sem=... [changes with their 95% half widths] converged=...", ok) of
    a variant over several beds against the base over the same seeds (tools/common/bed_statistics.py)."""
    text, verdicts = "", []
    for name, k in (("sinkage", 0), ("torque", 1)):
        text += " %s_sem=%.4g" % (name, mean_and_sem([a[k] for a in answers])[1])
    if variant == "base":
        return text, True
    for name, k in (("sinkage", 0), ("torque", 1)):
        change, half = relative_change([a[k] for a in answers], [r[k] for r in references])
        text += " %s_change=%+.4f %s_change_ci=%.4f" % (name, change, name, half)
        verdicts.append(verdict(change, half, TOLERANCE))
    overall = "no" if "no" in verdicts else "yes" if all(v == "yes" for v in verdicts) else "unresolved"
    return text + " converged=%s" % overall, overall == "yes"


def main(argv):
    exit_on_help(argv, __doc__)
    try:
        run_file, options = parse(argv)
        out = options["out"]
        os.makedirs(out, exist_ok=True)
        beds = range(options["beds"])
        # bed by bed, so that a study stopped half way has whole sets of variants
        runs = {(v, k): run_variant(run_file, v, out, k) for k in beds for v in options["only"]}
        window = options["window"] or steady_window(runs["base", 0][0])
        answers = {v: [figures(runs[v, k][0], window) for k in beds] for v in options["only"]}
        converged = True
        for variant in options["only"]:
            walls = [runs[variant, k][1] for k in beds if runs[variant, k][1]]
            mean = [sum(a[i] for a in answers[variant]) / len(beds) for i in (0, 1)]
            line = "gravel_convergence run=%s variant=%s%s window_s=%.3g,%.3g wall_s=%s ms_per_step=%.1f " \
                   "sinkage_m=%.4f sprocket_torque_Nm=%.1f" % (
                       run_file, variant, " beds=%d" % len(beds) if len(beds) > 1 else "", window[0], window[1],
                       "%.0f" % sum(walls) if walls else "-",
                       sum(step_ms(runs[variant, k][0]) for k in beds) / len(beds), mean[0], mean[1])
            if len(beds) == 1:
                text, ok = one_bed_fields(variant, answers[variant][0], answers["base"][0])
            else:
                text, ok = many_beds_fields(variant, answers[variant], answers["base"])
            converged = converged and ok
            print(line + text, flush=True)
    except StoppedRun as e:
        print("gravel_convergence: %s" % e, flush=True)
        return 0
    except (InputError, OSError, ValueError, KeyError, RuntimeError) as e:
        print("gravel_convergence: error: %s" % e, file=sys.stderr)
        return 2
    return 0 if converged else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
