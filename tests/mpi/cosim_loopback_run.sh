#!/usr/bin/env bash
# A co-simulation on one host listens on the loopback only (tools/launcher/mpi_loopback.py, jobs/README.md
# "Open MPI's network"). `tools/trackcosim run` with the light robot on the rigid plane, 1 terrain
# rank, no OMPI_MCA_* and no Slurm variables in its environment: once it couples (terrain
# timing.csv has rows), every TCP socket that vehicle_node or terrain_node listens on (`ss -ltnp`,
# IPv4 and IPv6) is on 127.0.0.1 or ::1. Without the launcher's settings each rank listened on
# 0.0.0.0:<port> and [::]:<port> (Open MPI's TCP BTL binds every interface, whatever
# btl_tcp_if_include says).
# mpirun's own out-of-band listener binds INADDR_ANY and in6addr_any in Open MPI 4.1's source
# (orte/mca/oob/tcp/oob_tcp_listener.c, create_listen), with no parameter that changes the
# address. So where a network namespace can be made (root here), the launcher runs mpirun in one
# of its own whose only interface is the loopback (tools/launcher/private_network.py): then no process of
# the run listens in the host's namespace at all, and inside the run's namespace there is only
# lo. Where none can be made, the launcher must say that mpirun listens on every interface.
# Usage: cosim_loopback_run.sh VEHICLE_NODE TERRAIN_NODE MPIEXEC SOURCE_DIR
set -euo pipefail
vehicle=$1 src=$4
work=$(mktemp -d)
launcher=""
descendants() {  # PID: PID and every process below it
  ps -e -o pid=,ppid= | awk -v root="$1" '{parent[$1] = $2} END {
    keep[root] = 1; do { grown = 0; for (p in parent) if (!(p in keep) && (parent[p] in keep)) { keep[p] = 1; grown = 1 } } while (grown)
    for (p in keep) print p }'
}
cleanup() {
  [[ -z $launcher ]] || for pid in $(descendants "$launcher"); do kill -KILL "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; cat "$work/launcher.log" 2>/dev/null; exit 1; }
# The default a user gets: no Open MPI network settings, not inside a Slurm job.
unset OMPI_MCA_btl OMPI_MCA_btl_tcp_if_include OMPI_MCA_btl_tcp_if_exclude OMPI_MCA_oob_tcp_if_include \
  OMPI_MCA_oob_tcp_if_exclude OMPI_MCA_orte_default_hostfile OMPI_MCA_orte_default_dash_host
unset SLURM_JOB_ID SLURM_JOB_NUM_NODES SLURM_JOB_NODELIST SLURM_HET_SIZE PE_HOSTFILE
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive TRACKCOSIM_BUILD=$(dirname "$(dirname "$vehicle")")
cat >"$work/run.json" <<JSON
{"vehicle": {"config": "$src/configs/vehicles/ndia_light_robot.json", "end_time": 100},
 "terrain": {"config": "$src/configs/cosim_plane_terrain.json", "ranks": 1}, "output": "$work/run"}
JSON
"$src/tools/trackcosim" run "$work/run.json" --no-plot >"$work/launcher.log" 2>&1 &
launcher=$!
rows="$work/run/terrain/timing.csv"
for _ in $(seq 1200); do
  [[ -f $rows && $(wc -l <"$rows") -gt 5 ]] && break
  kill -0 "$launcher" 2>/dev/null || fail "the run ended before coupling"
  sleep 0.1
done
[[ -f $rows && $(wc -l <"$rows") -gt 5 ]] || fail "the run did not start coupling within 120 s"

# The listening sockets of the run's processes: "name pid address:port", one a line. NETNS: run
# ss inside the namespace of that process (nsenter), else in the host's.
pids=" $(descendants "$launcher" | tr '\n' ' ') "
listening() {  # [PID whose network namespace to look in]
  local in=()
  [[ -z ${1:-} ]] || in=(nsenter --net="/proc/$1/ns/net")
  "${in[@]}" ss -ltnpH | awk '{print $4, $NF}' | sed -n 's/^\(.*\) users:(("\([^"]*\)",pid=\([0-9]*\),.*/\2 \3 \1/p' |
    while read -r name pid address; do
      if [[ $pids == *" $pid "* ]]; then echo "$name $pid $address"; fi
    done
}
mpirun_pid=$(for pid in $pids; do if [[ $(cat "/proc/$pid/comm" 2>/dev/null) == mpirun ]]; then echo "$pid"; fi; done)
[[ -n $mpirun_pid ]] || fail "no mpirun among the run's processes"
if grep -q "^trackcosim: one host: the run has a network namespace of its own" "$work/launcher.log"; then
  [[ $(readlink "/proc/$mpirun_pid/ns/net") != $(readlink /proc/self/ns/net) ]] ||
    fail "the launcher said the run has its own network namespace, but mpirun is in the host's"
  host_side=$(listening)
  [[ -z $host_side ]] || fail "processes of the run listen in the host's network namespace:
$host_side"
  interfaces=$(nsenter --net="/proc/$mpirun_pid/ns/net" ip -o link show | awk -F': ' '{print $2}' | tr '\n' ' ')
  [[ $interfaces == "lo " ]] || fail "the run's network namespace has interfaces '$interfaces', expected the loopback only"
  listening "$mpirun_pid" >"$work/listening.txt"
  echo "in the host's network namespace the run listens on nothing; in its own (interfaces: $interfaces), ss -ltnp:"
else
  grep -q "^trackcosim: one host: mpirun's own listener is open on every interface" "$work/launcher.log" ||
    fail "the launcher neither made a network namespace nor said that mpirun listens on every interface"
  listening >"$work/listening.txt"
  echo "listening sockets of the run (ss -ltnp; no network namespace could be made here):"
fi
sed 's/^/  /' "$work/listening.txt"
grep -Eq '^(vehicle_node|terrain_node) ' "$work/listening.txt" ||
  echo "  (vehicle_node and terrain_node listen on nothing)"
wide=$(grep -E '^(vehicle_node|terrain_node) ' "$work/listening.txt" |
  grep -Ev ' (127\.0\.0\.1|\[::1\]|\[::ffff:127\.0\.0\.1\]):[0-9]+$' || true)
[[ -z $wide ]] || fail "the programs listen beyond the loopback:
$wide"
grep -q "^trackcosim: one host: Open MPI kept on the loopback" "$work/launcher.log" ||
  fail "the launcher did not say it kept Open MPI on the loopback"

# A clean stop (SIGUSR1: both programs checkpoint), so that nothing is left behind.
kill -USR1 "$launcher"
status=0
wait "$launcher" || status=$?
launcher=""
[[ $status == 0 ]] || fail "the stopped launcher exited $status"
echo "ok: vehicle_node and terrain_node listen on the loopback only; nothing of the run is reachable from another host"
