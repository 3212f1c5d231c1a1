#!/usr/bin/env python3
"""Where a heavy run's coupling steps went (issue 33: "per stage, per iteration, active grains,
contacts and rolling rows per step"), from a co-simulation folder's terrain/timing.csv,
terrain/solver.csv and terrain/patch.csv (a moving patch's; its active grains):

  heavy_stages <stage>_ms=<mean> ...            the leader's mean time per coupling step per stage
  heavy_solver contacts_mean=<c> iterations_mean=<i> residual_mean=<r> ns_per_contact_iteration=<n>
               [active_mean=<a>]

Each contact carries a rolling row when the terrain has rolling_friction, so the contacts are
also the rolling rows. ns_per_contact_iteration is the solve stage over (contacts x iterations)
of the whole bed; two ranks share the contacts, so one rank's is about twice it.

  heavy_stages.py RUN_DIR
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from common.help_option import exit_on_help  # noqa: E402
from common.input_checks import InputError, read_csv, run_guarded  # noqa: E402


def rows(folder, name, required):
    """The rows of terrain/<name> (a last row cut short by a run still writing left out)."""
    path = os.path.join(folder, "terrain", name)
    table = read_csv(path, required=required, torn_end=True, what="a co-simulation's terrain/" + name).rows
    if not table:
        raise InputError("%s: no coupling step recorded" % path)
    return [{c: float(v) for c, v in r.items()} for r in table]


def mean(table, column):
    return sum(r[column] for r in table) / len(table)


def main(argv):
    exit_on_help(argv, __doc__)
    if len(argv) != 2:
        raise InputError("usage: heavy_stages.py RUN_DIR")
    folder = argv[1]
    timing = rows(folder, "timing.csv", ("solve",))
    print("heavy_stages " + " ".join("%s_ms=%.1f" % (c, 1000 * mean(timing, c))
                                     for c in timing[0] if c not in ("step", "t")))
    solver = rows(folder, "solver.csv", ("contacts", "iterations", "residual"))
    contacts, iterations = mean(solver, "contacts"), mean(solver, "iterations")
    line = "heavy_solver contacts_mean=%.0f iterations_mean=%.1f residual_mean=%.2e ns_per_contact_iteration=%.1f" % (
        contacts, iterations, mean(solver, "residual"), 1e9 * mean(timing, "solve") / (contacts * iterations))
    if os.path.exists(os.path.join(folder, "terrain", "patch.csv")):
        line += " active_mean=%.0f" % mean(rows(folder, "patch.csv", ("active",)), "active")
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(run_guarded("heavy_stages.py", main, sys.argv))
