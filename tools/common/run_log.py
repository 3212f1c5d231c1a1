"""run.log: everything `trackcosim run` prints, in the run folder, as it is printed.

A run on a cluster is read afterwards from its folder, not from a terminal that is gone: the
launcher's own lines (the bed it used, the mpirun line), both programs' output and the summary
go to the terminal and to RUN_DIR/run.log, line by line (flushed, so a killed run's log ends
where it stopped). A new run starts the file afresh; --resume appends, after a line saying so.
Pure standard library, like the other launcher modules."""
import datetime
import os
import sys

LOG_FILE = "run.log"


class Tee:
    """A text stream that also writes everything to `log`, flushing it at once."""

    def __init__(self, stream, log):
        self.stream, self.log = stream, log

    def write(self, text):
        self.stream.write(text)
        self.log.write(text)
        self.log.flush()
        return len(text)

    def flush(self):
        self.stream.flush()
        self.log.flush()

    def __getattr__(self, name):  # isatty, fileno, encoding: the terminal's
        return getattr(self.stream, name)


def start_run_log(folder, argv, resume):
    """From now on sys.stdout and sys.stderr also go to FOLDER/run.log; returns its path."""
    path = os.path.join(folder, LOG_FILE)
    log = open(path, "a" if resume else "w", buffering=1)
    log.write("=== trackcosim %s %s: %s\n" % ("resumed" if resume else "started",
                                             datetime.datetime.now().isoformat(timespec="seconds"), " ".join(argv)))
    sys.stdout = Tee(sys.stdout, log)
    sys.stderr = Tee(sys.stderr, log)
    return path
