#!/usr/bin/env python3
"""tools/launcher/launch_guard.py [--grace SECONDS] -- LAUNCHER ARGS...

Runs a job's launcher (mpirun or srun and the programs it starts), passing its output through,
and ends it when it hangs after a node was lost: the defence of jobs/terrain_run.sbatch and of
`tools/trackcosim run` (LostPeerGuard).

When a node is lost mid-run (its network cut, or the node down), the ranks on the other nodes give
up on their peers (their watchdogs and deadlines end them with exit status 3 and an error line;
docs/protocol.md, "Timeouts"), and the launcher should then end the job. It may not: to end the
lost node's tasks it sends to that node, whose TCP connection now holds unacknowledged data and
waits out the kernel's retransmissions (about 15 minutes). Measured on the namespace cluster
(tests/slurm/netns_cluster.sh), with a host's interface set down: mpirun printed "the job has been
aborted" and had not returned 140 s later; srun printed "Waiting up to 32 seconds for job step to
finish" and had not returned 170 s later. So once a line says that a rank gave up on a peer or
that the launcher is aborting the job, the launcher has GRACE seconds (default 15) to return;
then it and every process below it are ended (SIGKILL), with one line saying so, and the exit
status is that of the launcher's failure. The batch system then ends what is left of the job on
the nodes it can reach.

SIGUSR1 or SIGTERM to this program (the batch shell passing on the time-limit warning, scancel)
reaches the launcher as SIGUSR1, which mpirun and srun forward to every rank: the programs stop
with their checkpoints. Exit status: the launcher's (128 + 9 when it had to be ended)."""
import os
import re
import signal
import subprocess
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tools/, the import root
from common.help_option import exit_on_help  # noqa: E402
from common.input_checks import EXIT_BAD_INPUT, InputError, finite_number  # noqa: E402

# Lines after which the launcher has GRACE seconds to return: a rank that gave up on its peers
# (comm/watchdog.cpp, the channels' deadlines), Open MPI ending the job, srun ending the step.
LOST_PEER_LINES = re.compile(
    r"error: no progress for [0-9]+ s since"                  # a watchdog (comm/watchdog.cpp)
    r"|stopped answering"                                     # a channel deadline (cosim/)
    r"|ORTE has lost communication with a remote daemon"      # mpirun: a node's daemon is gone
    r"|the job has been aborted"                              # mpirun: a rank exited non-zero
    r"|MPI_ABORT was invoked"
    r"|srun: error: .*: tasks? [0-9,-]+: (Exited with exit code [1-9]|Killed)"
    r"|srun: Job step aborted")
DEFAULT_GRACE_S = 15


def descendants(pid):
    """The processes below pid (Linux /proc), children first listed after their parents."""
    found = []
    try:
        tasks = os.listdir("/proc/%d/task" % pid)
    except OSError:
        return found
    for task in tasks:
        try:
            with open("/proc/%d/task/%s/children" % (pid, task)) as f:
                children = [int(c) for c in f.read().split()]
        except OSError:
            continue
        for child in children:
            found += [child] + descendants(child)
    return found


def end_process_tree(pid):
    """SIGKILL to pid and every process below it (srun forks a helper that keeps the pipe open).
    The launcher goes first: ended after its children, it could see them die and exit on its own
    (a shell returns 137), so the caller would not know whether the launcher was ended or failed."""
    for process in [pid] + descendants(pid):
        try:
            os.kill(process, signal.SIGKILL)
        except OSError:
            pass


class LostPeerGuard:
    """Ends the launcher `process` when it has not returned `grace` seconds after a line that says
    a rank gave up on a lost peer or that the launcher is aborting the job (LOST_PEER_LINES)."""

    def __init__(self, process, grace=DEFAULT_GRACE_S, name="the launcher", who="launch_guard"):
        self.process, self.grace, self.name, self.who = process, grace, name, who
        self.ended_hung_launcher = False
        self.timer = None

    def saw(self, line):
        if self.timer is None and LOST_PEER_LINES.search(line):
            self.timer = threading.Timer(self.grace, self._end)
            self.timer.daemon = True
            self.timer.start()

    def _end(self):
        if self.process.poll() is None:
            print("%s: error: %s had not returned %g s after a rank gave up on a lost peer (a node lost mid-run: "
                  "its tasks cannot be reached to end them); ending it" % (self.who, self.name, self.grace),
                  file=sys.stderr, flush=True)
            self.ended_hung_launcher = True
            end_process_tree(self.process.pid)

    def cancel(self):
        if self.timer:
            self.timer.cancel()


def forward_stop_signals(process, interrupt=False):
    """SIGUSR1 or SIGTERM to this process (with `interrupt`, also SIGINT: Ctrl-C) reaches the
    launcher as SIGUSR1 (SIGTERM itself would make mpirun kill its ranks without their
    checkpoints). Returns the list of the signals received, in order, for the caller to tell a
    Ctrl-C from a batch system's stop. A second Ctrl-C is Python's own (KeyboardInterrupt): the
    way out of a stop that does not come."""
    received = []

    def forward(signum, frame):
        received.append(signum)
        if signum == signal.SIGINT:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            process.send_signal(signal.SIGUSR1)
        except ProcessLookupError:
            pass
    for signum in (signal.SIGUSR1, signal.SIGTERM) + ((signal.SIGINT,) if interrupt else ()):
        signal.signal(signum, forward)
    return received


def main(argv):
    exit_on_help(argv[:2], __doc__)  # only before the launcher: its own --help is its business
    args = argv[1:]
    grace = DEFAULT_GRACE_S
    if args[:1] == ["--grace"] and len(args) >= 2:
        try:
            grace = finite_number(args[1], "--grace", text=True)
        except InputError:
            print("launch_guard: error: --grace takes seconds, got %r" % args[1], file=sys.stderr)
            return EXIT_BAD_INPUT
        args = args[2:]
    if args[:1] == ["--"]:
        args = args[1:]
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    forward_stop_signals(process)
    guard = LostPeerGuard(process, grace, os.path.basename(args[0]))
    for line in process.stdout:
        sys.stdout.write(line)
        sys.stdout.flush()
        guard.saw(line)
    status = process.wait()
    guard.cancel()
    return 128 - status if status < 0 else status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
