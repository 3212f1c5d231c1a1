#!/usr/bin/env python3
"""Is a heavy vehicle's rest converged? For co-simulation run folders of the same vehicle on the
same bed, differing in the terrain step or the solver's iterations (bench/run_heavy_rest.sh), one
line per run over a window of its rest (before the sprockets turn):

  heavy_rest_convergence run=<dir> window_s=<t0>,<t1> sinkage_m=<s> creep_mm_s=<c>
                         force_ratio=<r> force_ratio_min=<a> force_ratio_max=<b>
                         residual_median=<m> sinkage_change=<ds> converged=<yes|no>

- sinkage_m: the mean sinkage of the loaded shoes over the window (tools/mobility/sinkage.py);
- creep_mm_s: its least-squares slope over the window: a bed that carries the vehicle converged
  holds it still (0); an unconverged solve lets it sink on;
- force_ratio (min, max): the summed vertical terrain force on the shoes over the window against
  the weight (the criterion of docs/ccp.md: within 3% of 1);
- residual_median: the median over the window's coupling steps of the largest sub-step residual
  (terrain/solver.csv), m/s;
- sinkage_change, converged: against the first run (the reference), the 5% criterion.

  heavy_rest_convergence.py --window T0,T1 REFERENCE_RUN OTHER_RUN [OTHER_RUN...]

Exit status 0 when every run is within 5% of the reference, 1 otherwise, 2 for bad input.
"""
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from common.help_option import exit_on_help  # noqa: E402
from mobility.sinkage import missing_inputs, sinkage_over_time  # noqa: E402
from heavy_run_summary import GRAVITY, TIME_MATCH_S, read_csv, vertical_force_by_time  # noqa: E402
from heavy_convergence import TOLERANCE, window_argument  # noqa: E402


def slope(ts, values):
    """Least-squares slope of values against ts."""
    t_mean, v_mean = statistics.mean(ts), statistics.mean(values)
    spread = sum((t - t_mean) ** 2 for t in ts)
    return sum((t - t_mean) * (v - v_mean) for t, v in zip(ts, values)) / spread if spread > 0 else 0.0


def inside(t, window):
    return window[0] - TIME_MATCH_S <= t <= window[1] + TIME_MATCH_S


def figures(folder, window):
    why = missing_inputs(folder)
    if why:
        raise ValueError("%s: %s" % (folder, why))
    series = sinkage_over_time(folder)
    samples = [(t, s) for t, s in zip(series["t"], series["mean"]) if inside(t, window)]
    if len(samples) < 2:
        raise ValueError("%s: fewer than 2 sinkage samples in the window %g..%g s" % (folder, *window))
    ts, sinkages = zip(*samples)
    with open(os.path.join(folder, "vehicle", "run.json")) as f:
        weight = json.load(f)["vehicle"]["total_mass_kg"] * GRAVITY
    forces = vertical_force_by_time(read_csv(os.path.join(folder, "vehicle", "shoes.csv")))
    ratios = [force / weight for t, force in forces.items() if inside(t, window)]
    residuals = [float(r["residual"]) for r in read_csv(os.path.join(folder, "terrain", "solver.csv"))
                 if inside(float(r["t"]), window)]
    return {"sinkage": statistics.mean(sinkages), "creep": 1000 * slope(ts, sinkages),
            "ratio": statistics.mean(ratios), "ratio_min": min(ratios), "ratio_max": max(ratios),
            "residual": statistics.median(residuals)}


def main(argv):
    exit_on_help(argv, __doc__)
    if len(argv) < 5 or argv[1] != "--window":
        print(__doc__, file=sys.stderr)
        return 2
    try:
        window = window_argument(argv[2])
        runs = [(folder, figures(folder, window)) for folder in argv[3:]]
    except (OSError, ValueError, KeyError) as e:
        print("heavy_rest_convergence: error: %s" % e, file=sys.stderr)
        return 2
    reference = runs[0][1]["sinkage"]
    all_within = True
    for folder, f in runs:
        change = f["sinkage"] / reference - 1
        within = abs(change) < TOLERANCE
        all_within = all_within and within
        print("heavy_rest_convergence run=%s window_s=%g,%g sinkage_m=%.4f creep_mm_s=%+.2f force_ratio=%.4f "
              "force_ratio_min=%.4f force_ratio_max=%.4f residual_median=%.2e sinkage_change=%+.4f converged=%s" % (
                  folder, window[0], window[1], f["sinkage"], f["creep"], f["ratio"], f["ratio_min"],
                  f["ratio_max"], f["residual"], change, "yes" if within else "no"))
    return 0 if all_within else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
