#!/usr/bin/env bash
# A Slurm cluster on localhost, for tests and for trying the job scripts by hand.
#   tests/slurm/local_cluster.sh start DIR [--nodes N]
#       start munge (if not running), slurmctld and slurmd with DIR/slurm.conf; waits until the
#       nodes are idle. One node (default): NodeName=localhost on Slurm's default ports.
#       N >= 2: N slurmd on this host as nodes n1..nN, for heterogeneous jobs (Slurm gives each
#       component its own node); see "Several nodes on one host" below.
#   tests/slurm/local_cluster.sh stop DIR    stop the daemons started by `start`
# Then: export SLURM_CONF=DIR/slurm.conf and use sbatch / srun / squeue as on a real cluster.
# Runs as root (no systemd needed). The daemons' logs are DIR/slurmctld.log and DIR/slurmd.log
# (DIR/slurmd-n1.log ... with several nodes).
# Facts this relies on are in ../shared/NOTES.md ("Slurm"): munged as the munge user, the
# linuxproc tracker, no task plugin, one partition that may be oversubscribed.
set -euo pipefail
action=${1:-} dir=${2:-} nodes=1
if [[ "${3:-}" == --nodes ]]; then nodes=${4:-}; fi
[[ ( "$action" == start || "$action" == stop ) && -n "$dir" && "$nodes" =~ ^[1-9]$ ]] || {
  echo "usage: local_cluster.sh start|stop DIR [--nodes N]   (N: 1 to 9 nodes, default 1)" >&2
  exit 2
}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
conf="$dir/slurm.conf"
export SLURM_CONF="$conf"

stop_daemon() {  # pid file
  [[ -f "$1" ]] || return 0
  local pid
  pid=$(cat "$1")
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
  rm -f "$1"
}

if [[ "$action" == stop ]]; then
  for pid_file in "$dir"/slurmd*.pid; do stop_daemon "$pid_file"; done
  stop_daemon "$dir/slurmctld.pid"
  echo "local_cluster: stopped"
  exit 0
fi

for program in munged slurmctld slurmd srun sbatch; do
  command -v "$program" >/dev/null || { echo "local_cluster: $program is missing (tools/install_deps.sh --with-slurm)" >&2; exit 1; }
done
[[ $(id -u) -eq 0 ]] || { echo "local_cluster: run as root" >&2; exit 1; }

# munge: the Debian package made the key; start the daemon unless one answers already.
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  mkdir -p /run/munge && chown munge:munge /run/munge
  runuser -u munge -- munged --force
  for _ in $(seq 50); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.1; done
  munge -n | unmunge >/dev/null || { echo "local_cluster: munged does not answer" >&2; exit 1; }
fi

cpus=$(nproc)
memory=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 / 2 / nodes ))
# Several nodes on one host (N >= 2): each slurmd gets its own port, spool, pid and log file
# (%n: the node name) and its own TmpFS. The PMIx plugin makes each step's client directory
# <TmpFS>/spmix_appdir_<uid>_<job>.<step>, with the same (leader's) job id in every component of
# a heterogeneous job; with the default TmpFS=/tmp the second component's slurmstepd on this
# host fails ("Cannot create client cli tmpdir ... File exists"), with TmpFS per node both start.
# Other ports and job ids than the one-node cluster's (job ids name the PMIx namespaces,
# slurm.pmix.<job>.<step>) let both clusters run at the same time.
if (( nodes == 1 )); then
  names=(localhost) spool=$dir/spool slurmd_file=$dir/slurmd
else
  mapfile -t names < <(seq -f 'n%g' "$nodes")
  spool=$dir/spool-%n slurmd_file=$dir/slurmd-%n
fi
mkdir -p "$dir/state"
{
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
StateSaveLocation=$dir/state
SlurmdSpoolDir=$spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$slurmd_file.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$slurmd_file.log
SchedulerType=sched/backfill
CONF
  if (( nodes == 1 )); then
    echo "NodeName=localhost CPUs=$cpus RealMemory=$memory State=UNKNOWN"
  else
    echo "SlurmctldPort=6827"
    echo "TmpFS=$dir/tmp-%n"
    echo "FirstJobId=1000000"
    echo "SchedulerParameters=bf_interval=1"  # heterogeneous jobs started in the backfill pass (default: every 30 s)
    for i in "${!names[@]}"; do
      echo "NodeName=${names[i]} NodeHostname=localhost NodeAddr=127.0.0.1 Port=$(( 6831 + i )) CPUs=$cpus RealMemory=$memory State=UNKNOWN"
    done
  fi
  echo "PartitionName=local Nodes=$(IFS=,; echo "${names[*]}") Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE"
} > "$conf"
for name in "${names[@]}"; do
  mkdir -p "${spool//%n/$name}"
  (( nodes == 1 )) || mkdir -p "$dir/tmp-$name"
done

slurmctld -f "$conf"
for name in "${names[@]}"; do slurmd -f "$conf" -N "$name"; done
for _ in $(seq 100); do
  idle=$(sinfo -h -N -o %T 2>/dev/null | grep -c '^idle' || true)
  (( idle == nodes )) && { echo "local_cluster: $nodes node(s) idle (${names[*]}; $cpus CPUs each), SLURM_CONF=$conf"; exit 0; }
  sleep 0.2
done
echo "local_cluster: $nodes node(s) did not become idle ($(sinfo -h -N -o '%N %T' 2>/dev/null | tr '\n' ' ')); logs in $dir" >&2
tail -n 20 "$dir/slurmctld.log" "$dir"/slurmd*.log >&2 || true
exit 1
