#!/usr/bin/env python3
"""Does a run folder hold a finished `tools/trackcosim run`? Exit status 0 when its run.json has
the launcher's summary, 1 when it does not (no run.json yet, or a run stopped by a signal, whose
run.json records `stopped` and which continues with --resume), so that a study that is run again
keeps its finished runs and resumes the others.

  run_finished.py RUN_DIR
"""
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "tools"))
from common.help_option import exit_on_help  # noqa: E402


def finished(folder):
    """Whether folder/run.json is a finished run's (it has the summary a stopped run lacks)."""
    try:
        with open(os.path.join(folder, "run.json")) as f:
            return "summary" in json.load(f)
    except (OSError, ValueError):
        return False


def main(argv):
    exit_on_help(argv, __doc__)
    if len(argv) != 2:
        print("usage: run_finished.py RUN_DIR", file=sys.stderr)
        return 2
    return 0 if finished(argv[1]) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
