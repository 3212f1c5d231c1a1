#!/usr/bin/env bash
# A one-node Slurm cluster on localhost, for tests and for trying the job scripts by hand.
#   tests/slurm/local_cluster.sh start DIR   start munge (if not running), slurmctld and slurmd
#                                            with DIR/slurm.conf; waits until the node is idle
#   tests/slurm/local_cluster.sh stop DIR    stop the daemons started by `start`
# Then: export SLURM_CONF=DIR/slurm.conf and use sbatch / srun / squeue as on a real cluster.
# Runs as root (no systemd needed). The daemons' logs are DIR/slurmctld.log and DIR/slurmd.log.
# Facts this relies on are in ../shared/NOTES.md ("Slurm"): munged as the munge user, the
# linuxproc tracker, no task plugin, one partition that may be oversubscribed.
set -euo pipefail
action=${1:-} dir=${2:-}
[[ ( "$action" == start || "$action" == stop ) && -n "$dir" ]] || {
  echo "usage: local_cluster.sh start|stop DIR" >&2
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
  stop_daemon "$dir/slurmd.pid"
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
memory=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 / 2 ))
mkdir -p "$dir/state" "$dir/spool"
cat > "$conf" <<CONF
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
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SchedulerType=sched/backfill
NodeName=localhost CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=local Nodes=localhost Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE
CONF

slurmctld -f "$conf"
slurmd -f "$conf" -N localhost
for _ in $(seq 100); do
  state=$(sinfo -h -N -o %T 2>/dev/null | head -n 1 || true)
  [[ "$state" == idle* ]] && { echo "local_cluster: node localhost idle ($cpus CPUs), SLURM_CONF=$conf"; exit 0; }
  sleep 0.2
done
echo "local_cluster: the node did not become idle (state '${state:-none}'); logs in $dir" >&2
tail -n 20 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 || true
exit 1
