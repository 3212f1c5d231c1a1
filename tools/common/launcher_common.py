"""What the launcher's subcommands share (tools/launcher/trackcosim.py and the `mobility` subcommand,
tools/mobility/mobility_tests.py and tools/mobility/mobility_plan.py): its error line, finding the programs, and
making a run folder. Its own module so that the subcommands need not import tools/launcher/trackcosim.py,
which imports them: no import circle."""
import os
import shutil
import sys

from common.input_checks import EXIT_BAD_INPUT, EXIT_RUN_FAILED

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the tree above tools/common/


def fail(message, status=EXIT_BAD_INPUT):
    """One error line and the exit status (docs/exit-status.md): unless said, the input was bad."""
    print("trackcosim: error: " + message, file=sys.stderr)
    sys.exit(status)


def find_program(name):
    """A built program: under $TRACKCOSIM_BUILD, then this tree's build/, then on PATH."""
    for folder in (os.environ.get("TRACKCOSIM_BUILD", ""), os.path.join(ROOT, "build")):
        path = os.path.join(folder, name, name)
        if folder and os.access(path, os.X_OK):
            return path
    found = shutil.which(name)
    if not found:
        fail("cannot find %s: build it (cmake --build build) or set TRACKCOSIM_BUILD" % name, EXIT_RUN_FAILED)
    return found


def make_run_folder(folder, given_by):
    """Creates the run folder; a file where a folder of its path should be is refused by name."""
    parent = folder
    while parent and not os.path.exists(parent):
        parent = os.path.dirname(parent)
    if parent and not os.path.isdir(parent):
        fail("%s %s: %s is a file, not a folder" % (given_by, folder, parent))
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as e:
        fail("%s %s: cannot create the run folder: %s" % (given_by, folder, e.strerror or e))
