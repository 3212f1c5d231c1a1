# shellcheck shell=bash
# Sourced by the test clusters' scripts (local_cluster.sh: daemons on localhost; netns_cluster.sh:
# one slurmd per network namespace): what every such cluster does alike. Facts this relies on are
# in ../shared/NOTES.md ("Slurm"): munged as the munge user, the linuxproc tracker, no task
# plugin, one partition that may be oversubscribed.

# cluster_check_programs NAME: the Slurm and munge programs are installed and we are root.
cluster_check_programs() {
  local program
  for program in munged slurmctld slurmd srun sbatch; do
    command -v "$program" >/dev/null || { echo "$1: $program is missing (tools/install_deps.sh --with-slurm)" >&2; exit 1; }
  done
  [[ $(id -u) -eq 0 ]] || { echo "$1: run as root" >&2; exit 1; }
}

# cluster_start_munge NAME: munge, shared by every cluster on this host (its socket is a file,
# so processes in other network namespaces reach it too). The Debian package made the key;
# start the daemon unless one answers already.
cluster_start_munge() {
  munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && return 0
  mkdir -p /run/munge && chown munge:munge /run/munge
  runuser -u munge -- munged --force
  for _ in $(seq 50); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.1; done
  munge -n | unmunge >/dev/null || { echo "$1: munged does not answer" >&2; exit 1; }
}

# cluster_stop_daemon PID_FILE: TERM, then KILL after 5 s; the pid file goes.
cluster_stop_daemon() {
  [[ -f "$1" ]] || return 0
  local pid
  pid=$(cat "$1")
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
  rm -f "$1"
}

# cluster_node_memory NODES: MB of memory per node, half the host's shared among them.
cluster_node_memory() {
  echo $(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 / 2 / $1 ))
}

# cluster_conf_head DIR SPOOL SLURMD_FILE: the slurm.conf lines every test cluster shares (state,
# spool, pid and log files under DIR; SPOOL and SLURMD_FILE may hold %n, the node name). The
# caller adds its ports, nodes and partition.
cluster_conf_head() {
  cat <<CONF
ClusterName=trackcosim-local
SlurmctldHost=localhost
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
StateSaveLocation=$1/state
SlurmdSpoolDir=$2
SlurmctldPidFile=$1/slurmctld.pid
SlurmdPidFile=$3.pid
SlurmctldLogFile=$1/slurmctld.log
SlurmdLogFile=$3.log
SchedulerType=sched/backfill
CONF
}

# cluster_wait_idle NAME DIR NODES DESCRIPTION: wait until NODES nodes are idle (20 s at most);
# exits 0 with a line saying so, or 1 with the daemons' logs.
cluster_wait_idle() {
  local idle
  for _ in $(seq 100); do
    idle=$(sinfo -h -N -o %T 2>/dev/null | grep -c '^idle' || true)
    (( idle == $3 )) && { echo "$1: $3 node(s) idle ($4), SLURM_CONF=$SLURM_CONF"; exit 0; }
    sleep 0.2
  done
  echo "$1: $3 node(s) did not become idle ($(sinfo -h -N -o '%N %T' 2>/dev/null | tr '\n' ' ')); logs in $2" >&2
  tail -n 20 "$2/slurmctld.log" "$2"/slurmd*.log >&2 || true
  exit 1
}
