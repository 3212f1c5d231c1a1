#!/usr/bin/env bash
# A multi-host Slurm cluster on one machine: each host is a Linux network namespace with its own
# address on a private bridge and its own slurmd, so that ranks on different hosts talk over TCP
# through the bridge as over a network (jobs/README.md, "A multi-host test cluster").
#   tests/slurm/netns_cluster.sh start DIR [--hosts N]
#       N hosts (default 2, at most 9) h1..hN: namespace tcs-hI, address 10.77.0.(10+I)/24 on its
#       eth0, a veth pair whose other end tcs-hI is a port of the bridge tcsbr0 (10.77.0.1/24) in
#       the root namespace; in each namespace its own hostname (a UTS namespace) and slurmd -N hI
#       on Slurm's default port. slurmctld runs in the root namespace on 10.77.0.1:6837, munge is
#       shared (its socket is a file). Waits until the nodes are idle.
#   tests/slurm/netns_cluster.sh stop DIR       stop the daemons, end what still runs in the
#       namespaces, delete them and the bridge (also after a start that failed half-way)
#   tests/slurm/netns_cluster.sh status DIR     namespaces, addresses, daemons, sinfo
#   tests/slurm/netns_cluster.sh down DIR HOST link|processes
#       take a host down: its interface set down (a cable pulled: peers hear nothing more), or
#       every process in its namespace killed (a crash: peers' connections are reset)
#   tests/slurm/netns_cluster.sh up DIR HOST    the host back, as after a reboot: what ran in its
#       namespace ended, its interface up, its slurmd started again
#   tests/slurm/netns_cluster.sh check          exit 0 if network namespaces can be made here
#   tests/slurm/netns_cluster.sh env            the Open MPI settings for jobs on this cluster
# Then: export SLURM_CONF=DIR/slurm.conf and submit from the root namespace (sbatch -N 2 ...).
# Open MPI must be told which network to use and to keep shared memory out of it:
#   OMPI_MCA_btl=tcp,self OMPI_MCA_btl_tcp_if_include=10.77.0.0/24 OMPI_MCA_oob_tcp_if_include=10.77.0.0/24
# (what `env` prints; export them before sbatch, whose --export=ALL passes them on). One cluster of this kind per machine: the namespace,
# bridge and subnet names are fixed; a second start refuses while the bridge exists.
# Logs: DIR/slurmctld.log, DIR/slurmd-hI.log. Runs as root.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/cluster_common.sh"

bridge=tcsbr0 subnet=10.77.0.0/24 bridge_address=10.77.0.1 controller_port=6837
host_address() { echo "10.77.0.$(( 10 + ${1#h} ))"; }  # h2 -> 10.77.0.12
namespace() { echo "tcs-$1"; }

usage() {
  echo "usage: netns_cluster.sh start DIR [--hosts N] | stop DIR | status DIR | down DIR HOST link|processes | up DIR HOST | check | env" >&2
  exit 2
}

# Can this machine make a namespace with a veth pair? (Not in an unprivileged container.)
can_make_namespaces() {
  local probe=tcs-probe$$
  [[ $(id -u) -eq 0 ]] && command -v ip >/dev/null && command -v unshare >/dev/null || return 1
  ip netns add "$probe" 2>/dev/null || return 1
  local ok=0
  ip link add "$probe" type veth peer name eth0 netns "$probe" 2>/dev/null && ip link del "$probe" 2>/dev/null || ok=1
  ip netns del "$probe" 2>/dev/null || true
  return "$ok"
}

# The hosts of a started cluster, from its slurm.conf.
hosts_of() { sed -n 's/^NodeName=\([^ ]*\) .*/\1/p' "$1/slurm.conf" 2>/dev/null; }

# Processes in a namespace: `ip netns pids` lists them by pid; each was started by this cluster.
kill_namespace_processes() {  # namespace, signal
  local pid
  for pid in $(ip netns pids "$1" 2>/dev/null); do kill "-$2" "$pid" 2>/dev/null || true; done
}

start_slurmd() {  # dir, host
  # Its own hostname (UTS namespace) as well as its own network: Open MPI and Slurm name the
  # host of a process by gethostname(). nsenter, not `ip netns exec`: that one also mounts a
  # sysfs of its own, without the cgroup file system that slurmd needs.
  nsenter --net="/run/netns/$(namespace "$2")" unshare --uts sh -c \
    "hostname $2 && exec slurmd -f '$1/slurm.conf' -N $2" || {
    echo "netns_cluster: slurmd of $2 did not start:" >&2
    tail -n 5 "$1/slurmd-$2.log" >&2 || true
    exit 1
  }
}

action=${1:-}
case "$action" in
  check)
    can_make_namespaces || { echo "netns_cluster: cannot make network namespaces here (needs root, ip netns, veth)"; exit 1; }
    echo "netns_cluster: network namespaces can be made here"; exit 0 ;;
  env)
    echo "OMPI_MCA_btl=tcp,self"
    echo "OMPI_MCA_btl_tcp_if_include=$subnet"
    echo "OMPI_MCA_oob_tcp_if_include=$subnet"
    exit 0 ;;
  start|stop|status|down|up) ;;
  *) usage ;;
esac
dir=${2:-}
[[ -n "$dir" ]] || usage
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
export SLURM_CONF="$dir/slurm.conf"

if [[ "$action" == stop ]]; then
  for pid_file in "$dir"/slurmd*.pid; do cluster_stop_daemon "$pid_file"; done
  cluster_stop_daemon "$dir/slurmctld.pid"
  # Job steps, MPI daemons and ranks that outlived their slurmd; then the namespaces themselves.
  for ns in $(ip netns list 2>/dev/null | awk '$1 ~ /^tcs-h[1-9]$/ {print $1}'); do
    kill_namespace_processes "$ns" TERM
  done
  sleep 0.5
  for ns in $(ip netns list 2>/dev/null | awk '$1 ~ /^tcs-h[1-9]$/ {print $1}'); do
    kill_namespace_processes "$ns" KILL
    ip link del "$ns" 2>/dev/null || true
    ip netns del "$ns"
  done
  ip link del "$bridge" 2>/dev/null || true
  echo "netns_cluster: stopped (namespaces and bridge $bridge removed)"
  exit 0
fi

if [[ "$action" == status ]]; then
  ip -o -4 addr show dev "$bridge" 2>/dev/null || echo "bridge $bridge: absent"
  for host in $(hosts_of "$dir"); do
    ns=$(namespace "$host")
    if ip netns list | grep -q "^$ns\b"; then
      echo "$host: namespace $ns, $(ip -n "$ns" -o -4 addr show dev eth0 2>/dev/null | awk '{print $4}')," \
           "link $(ip -n "$ns" -o link show dev eth0 2>/dev/null | grep -o 'state [A-Z]*'), $(ip netns pids "$ns" | wc -l) processes"
    else
      echo "$host: namespace $ns absent"
    fi
  done
  for pid_file in "$dir"/slurmctld.pid "$dir"/slurmd*.pid; do
    [[ -f "$pid_file" ]] && kill -0 "$(cat "$pid_file")" 2>/dev/null && echo "$(basename "$pid_file" .pid): pid $(cat "$pid_file")"
  done
  sinfo -N -o '%N %T %c' 2>/dev/null || true
  exit 0
fi

if [[ "$action" == down || "$action" == up ]]; then
  host=${3:-}
  hosts_of "$dir" | grep -qx "$host" || { echo "netns_cluster: no host '$host' in $dir/slurm.conf" >&2; exit 2; }
  ns=$(namespace "$host")
  if [[ "$action" == up ]]; then
    # As after a reboot: nothing of before runs on it (the processes of a job cut off from its
    # peers would block, or wake up and talk out of turn), and a fresh slurmd registers at once.
    kill_namespace_processes "$ns" KILL
    rm -f "$dir/slurmd-$host.pid"
    ip link set "$ns" up
    ip -n "$ns" link set eth0 up
    start_slurmd "$dir" "$host"
    echo "netns_cluster: $host up (its processes ended, slurmd started again)"
    exit 0
  fi
  case "${4:-}" in
    link) ip -n "$ns" link set eth0 down; ip link set "$ns" down ;;
    processes) kill_namespace_processes "$ns" KILL ;;
    *) usage ;;
  esac
  echo "netns_cluster: $host down ($4)"
  exit 0
fi

# start
hosts=2
if [[ "${3:-}" == --hosts ]]; then hosts=${4:-}; fi
[[ "$hosts" =~ ^[1-9]$ ]] || usage
cluster_check_programs netns_cluster
can_make_namespaces || { echo "netns_cluster: cannot make network namespaces here (needs root, ip netns, veth)" >&2; exit 1; }
if ip link show "$bridge" >/dev/null 2>&1; then
  echo "netns_cluster: bridge $bridge exists: a cluster is running (netns_cluster.sh status/stop DIR)" >&2
  exit 1
fi
if ip -o -4 addr show | grep -q ' 10\.77\.0\.'; then
  echo "netns_cluster: an interface of this machine already has an address in $subnet" >&2
  exit 1
fi
cluster_start_munge netns_cluster

# The network: a bridge in the root namespace, a veth pair per host.
ip link add "$bridge" type bridge
ip addr add "$bridge_address/24" dev "$bridge"
ip link set "$bridge" up
mapfile -t names < <(seq -f 'h%g' "$hosts")
for host in "${names[@]}"; do
  ns=$(namespace "$host")
  ip netns add "$ns"
  ip link add "$ns" type veth peer name eth0 netns "$ns"
  ip link set "$ns" master "$bridge" up
  ip -n "$ns" addr add "$(host_address "$host")/24" dev eth0
  ip -n "$ns" link set eth0 up
  ip -n "$ns" link set lo up
done

cpus=$(nproc)
memory=$(cluster_node_memory "$hosts")
# A fresh cluster: no jobs or node states of an earlier one in this folder.
rm -rf "$dir/state" "$dir"/spool-h* "$dir"/tmp-h*
mkdir -p "$dir/state"
# Each slurmd has its own network, so all use Slurm's default port; slurmctld listens on every
# address of the root namespace, the others reach it on the bridge's (SlurmctldAddr). Its port and
# the job ids differ from the other test clusters' (local_cluster.sh), so they may run beside it.
# TmpFS per node: the PMIx plugin's client directories (local_cluster.sh explains). Slurm's own
# timeouts keep their defaults (SlurmdTimeout 300 s: a host taken down is marked DOWN, and jobs
# on it ended, after 5 minutes), so that what ends a job sooner is the job's own doing.
{
  cluster_conf_head "$dir" "$dir/spool-%n" "$dir/slurmd-%n"
  echo "SlurmctldAddr=$bridge_address"
  echo "SlurmctldPort=$controller_port"
  echo "TmpFS=$dir/tmp-%n"
  echo "FirstJobId=2000000"
  for host in "${names[@]}"; do
    echo "NodeName=$host NodeHostname=$host NodeAddr=$(host_address "$host") CPUs=$cpus RealMemory=$memory State=UNKNOWN"
  done
  echo "PartitionName=hosts Nodes=$(IFS=,; echo "${names[*]}") Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE"
} > "$SLURM_CONF"
for host in "${names[@]}"; do mkdir -p "$dir/spool-$host" "$dir/tmp-$host"; done

slurmctld -f "$SLURM_CONF"
for host in "${names[@]}"; do start_slurmd "$dir" "$host"; done
cluster_wait_idle netns_cluster "$dir" "$hosts" \
  "${names[*]}: namespaces tcs-h1.., $(host_address h1).. on bridge $bridge; $cpus CPUs each"
