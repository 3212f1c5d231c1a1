"""The co-simulation as one step of a heterogeneous Slurm job (trackcosim run --launcher hetjob).

Component 0 of the job runs vehicle_node (1 task), component 1 runs terrain_node (its tasks).
One `srun --het-group=0 ... : --het-group=1 ...` starts both as one MPI_COMM_WORLD (PMIx), so
the programs find each other by their role as under mpirun MPMD. Slurm gives each component
its own nodes; inside the batch script SLURM_NTASKS, SLURM_JOB_NODELIST and SLURM_CPUS_PER_TASK
describe component 0 only, the *_HET_GROUP_<k> variables each component."""
import os
import shutil


def in_hetjob():
    """True inside a heterogeneous Slurm job with at least the vehicle and terrain components."""
    return int(os.environ.get("SLURM_HET_SIZE", "0") or 0) >= 2


def _threads(group):
    """`env OMP_NUM_THREADS=<CPUs per task of the component>`: the batch script's environment,
    which every task inherits, has component 0's CPUs per task only."""
    cpus = os.environ.get("SLURM_CPUS_PER_TASK_HET_GROUP_%d" % group)
    return ["env", "OMP_NUM_THREADS=" + cpus] if cpus else []


def hetjob_command(vehicle_cmd, terrain_cmd, ranks):
    """srun with the vehicle's 1 task in component 0 and `ranks` terrain tasks in component 1.
    TRACKCOSIM_SRUN_ARGS adds options to both components."""
    extra = os.environ.get("TRACKCOSIM_SRUN_ARGS", "").split()
    return [shutil.which("srun") or "srun", "--mpi=pmix",
            "--het-group=0", "-n", "1"] + extra + _threads(0) + vehicle_cmd + \
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
