"""The co-simulation as one step of a heterogeneous Slurm job (trackcosim run --launcher hetjob).

Component 0 of the job runs vehicle_node (1 task), component 1 runs terrain_node (its tasks).
One `srun --het-group=0 ... : --het-group=1 ...` starts both as one MPI_COMM_WORLD (PMIx), so
the programs find each other by their role as under mpirun MPMD. Slurm gives each component
its own nodes; inside the batch script SLURM_NTASKS, SLURM_JOB_NODELIST and SLURM_CPUS_PER_TASK
describe component 0 only, the *_HET_GROUP_<k> variables each component."""
import os
import shutil
import sys
import threading

from launcher.launch_guard import end_process_tree
from launcher.program_lines import is_last_line


def in_hetjob():
    """True inside a heterogeneous Slurm job with at least the vehicle and terrain components."""
    return int(os.environ.get("SLURM_HET_SIZE", "0") or 0) >= 2


def _threads(group):
    """`env OMP_NUM_THREADS=<CPUs per task of the component>`: the batch script's environment,
    which every task inherits, has component 0's CPUs per task only."""
    cpus = os.environ.get("SLURM_CPUS_PER_TASK_HET_GROUP_%d" % group)
    return ["env", "OMP_NUM_THREADS=" + cpus] if cpus else []


# srun's PMIx plugin (Slurm 22.05, Debian 12) starts an abort agent thread for every component
# and, when a component's tasks have ended, stops it with an unguarded "join the agent, forget
# it". Two components that end at the same instant both join the same thread and srun never
# returns, although every task has exited: 2 runs in 5 hung so on the two-node test cluster.
# Later Slurm counts the components that started the agent. Letting the vehicle's task linger a
# few seconds after its program has exited makes the two components end apart.
LINGER_VARIABLE = "TRACKCOSIM_HETJOB_LINGER_S"
DEFAULT_LINGER_S = 3


def _linger(seconds):
    """`sh -c` that runs the program, waits `seconds` and exits with the program's status.
    Trapping SIGUSR1 keeps the shell alive when srun forwards the walltime warning to every
    process of the task; the program itself gets SIGUSR1 with its own handler (a trapped signal
    is reset to the default in the program the shell starts)."""
    if seconds <= 0:
        return []
    script = 'trap : USR1; "$@"; status=$?; sleep %g; exit $status' % seconds
    return ["sh", "-c", script, "trackcosim-linger"]


def linger_seconds():
    """TRACKCOSIM_HETJOB_LINGER_S (0 turns it off, e.g. on a Slurm without the race), else 3."""
    text = os.environ.get(LINGER_VARIABLE, "")
    try:
        return float(text) if text else DEFAULT_LINGER_S
    except ValueError:
        raise SystemExit("trackcosim: %s must be a number of seconds, got %r" % (LINGER_VARIABLE, text))


def hetjob_command(vehicle_cmd, terrain_cmd, ranks):
    """srun with the vehicle's 1 task in component 0 and `ranks` terrain tasks in component 1.
    TRACKCOSIM_SRUN_ARGS adds options to both components; the vehicle's task lingers after its
    program has ended (see LINGER_VARIABLE)."""
    extra = os.environ.get("TRACKCOSIM_SRUN_ARGS", "").split()
    return [shutil.which("srun") or "srun", "--mpi=pmix", "--kill-on-bad-exit=1",
            "--het-group=0", "-n", "1"] + extra + _threads(0) + _linger(linger_seconds()) + vehicle_cmd + \
           [":", "--het-group=1", "-n", str(ranks)] + extra + _threads(1) + terrain_cmd


def het_groups(keys):
    """Per component (index = het group): the facts of keys ({name: Slurm variable}) that Slurm
    gives per component (<variable>_HET_GROUP_<k>) and the component's role; None outside a
    heterogeneous job."""
    if not in_hetjob():
        return None
    groups = []
    for group in range(int(os.environ["SLURM_HET_SIZE"])):
        facts = {k: os.environ[v + "_HET_GROUP_%d" % group] for k, v in keys.items()
                 if v + "_HET_GROUP_%d" % group in os.environ}
        facts["role"] = {0: "vehicle", 1: "terrain"}.get(group, "unused")
        groups.append(facts)
    return groups


class HungStepGuard:
    """Ends srun when it has not returned `grace` seconds after both programs printed their last
    line (the summary, or the stop line after a signal): the race above, should the linger not
    suffice, would otherwise hold the allocation until the time limit. The outputs are complete
    then, so the run counts as finished; the message says what happened."""

    def __init__(self, process, grace=120):
        self.process, self.grace, self.ended_hung_step = process, grace, False
        self.last_lines = set()
        self.timer = None

    def saw(self, line):
        self.last_lines.update(p for p in ("vehicle", "terrain") if is_last_line(p, line))
        if len(self.last_lines) == 2 and self.timer is None:
            self.timer = threading.Timer(self.grace, self._end_step)
            self.timer.daemon = True
            self.timer.start()

    def _end_step(self):
        if self.process.poll() is None:
            print("trackcosim: srun had not returned %g s after both programs ended; ending it (Slurm's PMIx "
                  "abort agent can hang a heterogeneous step, see tools/launcher/slurm_hetjob.py)" % self.grace,
                  file=sys.stderr, flush=True)
            self.ended_hung_step = True
            # srun forks a helper that keeps our pipe open: end it too, or reading would not end.
            end_process_tree(self.process.pid)

    def cancel(self):
        if self.timer:
            self.timer.cancel()
