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
# What every test cluster does alike (munge, the common slurm.conf lines): cluster_common.sh.
# tests/slurm/netns_cluster.sh makes a cluster whose nodes are network namespaces.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/cluster_common.sh"
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

if [[ "$action" == stop ]]; then
  for pid_file in "$dir"/slurmd*.pid; do cluster_stop_daemon "$pid_file"; done
  cluster_stop_daemon "$dir/slurmctld.pid"
  echo "local_cluster: stopped"
  exit 0
fi

cluster_check_programs local_cluster
cluster_start_munge local_cluster

cpus=$(nproc)
memory=$(cluster_node_memory "$nodes")
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
  cluster_conf_head "$dir" "$spool" "$slurmd_file"
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
cluster_wait_idle local_cluster "$dir" "$nodes" "${names[*]}; $cpus CPUs each"
