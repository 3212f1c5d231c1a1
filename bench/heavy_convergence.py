#!/usr/bin/env python3
"""Is a heavy run converged? Compares co-simulation run folders over one driving window: the mean
sinkage (tools/mobility/sinkage.py: loaded shoes' bottom below the undisturbed surface) and the mean
sprocket torque (both sprockets, vehicle.csv), each against the first (reference) run.

  heavy_convergence.py --window T0,T1 REFERENCE_RUN OTHER_RUN [OTHER_RUN...]

One line per run:
  heavy_convergence run=<dir> window_s=<t0>,<t1> sinkage_m=<s> sprocket_torque_Nm=<q>
                    sinkage_change=<ds> torque_change=<dq> converged=<yes|no>
where the changes are relative to the reference and `converged` says whether both are below 5%
(the criterion of docs/ccp.md: doubling the iterations or halving the step must change the mean
sinkage and torque by less than 5%). Exit status 0 when every run is within 5%, 1 otherwise,
2 for bad input.
"""
import csv
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from common.help_option import exit_on_help  # noqa: E402
from mobility.sinkage import mean_over, missing_inputs, sinkage_over_time  # noqa: E402

TOLERANCE = 0.05


def torque_over(folder, window):
    t0, t1 = window
    with open(os.path.join(folder, "vehicle", "vehicle.csv")) as f:
        torques = [(float(r["sprocket_torque_left"]) + float(r["sprocket_torque_right"])) / 2
                   for r in csv.DictReader(f) if t0 <= float(r["t"]) <= t1]
    return sum(torques) / len(torques) if torques else None


def figures(folder, window):
    why = missing_inputs(folder)
    if why:
        raise ValueError("%s: %s" % (folder, why))
    sinkage = mean_over(sinkage_over_time(folder), window)
    torque = torque_over(folder, window)
    if sinkage is None or torque is None:
        raise ValueError("%s: no sample in the window %g..%g s" % (folder, window[0], window[1]))
    return sinkage["mean"], torque


def change_fields(named):
    """(" <name>_change=<+x> ...", ok) for (name, value, reference) triples: each relative change,
    and whether all of them are below TOLERANCE."""
    text, ok = "", True
    for name, value, reference in named:
        change = value / reference - 1
        ok = ok and abs(change) < TOLERANCE
        text += " %s_change=%+.4f" % (name, change)
    return text, ok


def changes(named):
    """change_fields with the verdict: (" <name>_change=<+x> ... converged=<yes|no>", ok)."""
    text, ok = change_fields(named)
    return text + " converged=%s" % ("yes" if ok else "no"), ok


def window_argument(text):
    """--window T0,T1 (T0 < T1) as a pair of floats; ValueError naming the option otherwise."""
    window = tuple(float(x) for x in text.split(","))
    if len(window) != 2 or not window[0] < window[1]:
        raise ValueError("--window: expected T0,T1 with T0 < T1, got %r" % text)
    return window


def main(argv):
    exit_on_help(argv, __doc__)
    if len(argv) < 5 or argv[1] != "--window":
        print(__doc__, file=sys.stderr)
        return 2
    try:
        window = window_argument(argv[2])
        reference = figures(argv[3], window)
        converged = True
        for folder in argv[3:]:
            sinkage, torque = figures(folder, window)
            text, ok = changes([("sinkage", sinkage, reference[0]), ("torque", torque, reference[1])])
            converged = converged and ok
            print("heavy_convergence run=%s window_s=%g,%g sinkage_m=%.4f sprocket_torque_Nm=%.0f%s" % (
                folder, window[0], window[1], sinkage, torque, text))
    except (OSError, ValueError, KeyError) as e:
        print("heavy_convergence: error: %s" % e, file=sys.stderr)
        return 2
    return 0 if converged else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
