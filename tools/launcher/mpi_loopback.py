"""Open MPI kept on the loopback for a co-simulation that runs on one host (jobs/README.md,
"Open MPI's network").

Every Open MPI 4.1 rank opens TCP listeners on all interfaces at start-up (its TCP BTL binds
0.0.0.0 and [::], whatever btl_tcp_if_include says; measured with `ss -ltnp`), for a run that
never leaves the host. On one host shared memory (vader) and self carry every MPI message, so
the launcher restricts the BTLs to them and the out-of-band traffic to the loopback; the ranks
then listen on nothing. mpirun's own out-of-band listener stays on every interface: Open MPI 4.1
binds it to INADDR_ANY with no parameter to change that; tools/launcher/private_network.py keeps it off
the host's network instead.

Programs started without mpirun (`--launcher tcp`: tools/launcher/tcp_launch.py) are Open MPI
singletons, each on this host by definition. A singleton forks a daemon of its own (orted) whose
out-of-band listeners bind every interface (0.0.0.0 and [::], measured with `ss -ltnp`, whatever
oob_tcp_if_include says); told ess_singleton_isolated, it starts none, and with the loopback
BTLs nothing of Open MPI listens: only terrain_node, on 127.0.0.1.

Multi-host jobs are left as they are: shared memory cannot reach another host. Every setting is a
default only: a user or site that has set the parameter, or chosen that transport's interfaces,
in the environment keeps its choice. Parameter files rank below the environment, and they are
not read here: Debian's own /etc/openmpi/openmpi-mca-params.conf sets btl, to leave out
components, not to choose a network; a site that wants its own BTLs on one host exports them.
"""
import os

# Each default and the parameters that, when set, mean the user chose for that part of Open MPI.
LOOPBACK_DEFAULTS = (
    ("OMPI_MCA_btl", "self,vader", ("OMPI_MCA_btl", "OMPI_MCA_btl_tcp_if_include", "OMPI_MCA_btl_tcp_if_exclude")),
    ("OMPI_MCA_oob_tcp_if_include", "lo", ("OMPI_MCA_oob_tcp_if_include", "OMPI_MCA_oob_tcp_if_exclude")),
)
# Singletons (--launcher tcp) without their daemon: it would listen on every interface.
SINGLETON_DEFAULTS = (
    ("OMPI_MCA_ess_singleton_isolated", "1", ("OMPI_MCA_ess_singleton_isolated",)),
)
# Where mpirun outside a batch job can find other hosts: its hostfile and host parameters, and
# Grid Engine's host list (Open MPI's gridengine allocator reads it).
HOST_LISTS = ("OMPI_MCA_orte_default_hostfile", "OMPI_MCA_orte_default_dash_host", "PE_HOSTFILE")
DEBIAN_DEFAULT_HOSTFILE = "/etc/openmpi/openmpi-default-hostfile"


def slurm_hosts_are_one(environ):
    """Inside a Slurm job: whether all of it is on one node. A heterogeneous job's components
    each have their own node list; Open MPI treats two components as two hosts unless Slurm put
    both on the same single node."""
    groups = int(environ.get("SLURM_HET_SIZE", "0") or 0)
    if groups >= 2:
        counts = [environ.get("SLURM_JOB_NUM_NODES_HET_GROUP_%d" % g) for g in range(groups)]
        nodes = {environ.get("SLURM_JOB_NODELIST_HET_GROUP_%d" % g) for g in range(groups)}
        return all(c == "1" for c in counts) and len(nodes) == 1 and None not in nodes
    return environ.get("SLURM_JOB_NUM_NODES", environ.get("SLURM_NNODES")) == "1"


def hostfile_names_hosts(path):
    """Whether an Open MPI hostfile lists any host (lines other than comments and blanks)."""
    try:
        with open(path) as f:
            return any(line.split("#")[0].strip() for line in f)
    except OSError:
        return False


def default_hostfiles(mpirun):
    """Open MPI's default hostfile: in its installation's etc/ and, for Debian's, /etc/openmpi."""
    prefix = os.path.dirname(os.path.dirname(os.path.realpath(mpirun))) if mpirun else None
    return ([os.path.join(prefix, "etc", "openmpi-default-hostfile")] if prefix else []) + [DEBIAN_DEFAULT_HOSTFILE]


def on_one_host(environ, launcher, mpirun=None):
    """Whether the run is known to stay on this host: two processes of the launcher's own (tcp), a
    Slurm job of one node (any other launcher), or mpirun outside any batch job with no host list
    that could send ranks elsewhere. srun outside a job may allocate several nodes itself: not known."""
    if launcher == "tcp":
        return True
    if "SLURM_JOB_ID" in environ:
        return slurm_hosts_are_one(environ)
    if launcher != "mpirun" or any(environ.get(name) for name in HOST_LISTS):
        return False
    return not any(hostfile_names_hosts(path) for path in default_hostfiles(mpirun))


def loopback_settings(environ, launcher, mpirun=None):
    """{variable: value} to add to the run's environment: the loopback defaults the environment
    leaves open, for a run on one host; {} otherwise."""
    if not on_one_host(environ, launcher, mpirun):
        return {}
    defaults = LOOPBACK_DEFAULTS + (SINGLETON_DEFAULTS if launcher == "tcp" else ())
    return {name: value for name, value, chosen_by in defaults if not any(key in environ for key in chosen_by)}
