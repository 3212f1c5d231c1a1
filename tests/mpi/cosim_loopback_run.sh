#!/usr/bin/env bash
# A co-simulation on one host listens on the loopback only (tools/mpi_loopback.py, jobs/README.md
# "Open MPI's network"). `tools/trackcosim run` with the light robot on the rigid plane, 1 terrain
# rank, no OMPI_MCA_* and no Slurm variables in its environment: once it couples (terrain
# timing.csv has rows), every TCP socket that vehicle_node or terrain_node listens on (`ss -ltnp`,
# IPv4 and IPv6) is on 127.0.0.1 or ::1. Without the launcher's settings each rank listened on
# 0.0.0.0:<port> and [::]:<port> (Open MPI's TCP BTL binds every interface, whatever
# btl_tcp_if_include says).
# mpirun itself is printed, not judged: Open MPI 4.1's out-of-band listener of mpirun binds
# INADDR_ANY and in6addr_any in its source (orte/mca/oob/tcp/oob_tcp_listener.c, create_listen),
# with no parameter that changes the address; oob_tcp_if_include=lo keeps its traffic on the
# loopback, not its listening socket.
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

# The listening sockets of the run's processes: "name pid address:port", one a line.
pids=" $(descendants "$launcher" | tr '\n' ' ') "
ss -ltnpH | awk '{print $4, $NF}' | sed -n 's/^\(.*\) users:(("\([^"]*\)",pid=\([0-9]*\),.*/\2 \3 \1/p' |
  while read -r name pid address; do
    if [[ $pids == *" $pid "* ]]; then echo "$name $pid $address"; fi
  done >"$work/listening.txt"
echo "listening sockets of the run (ss -ltnp):"
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
echo "ok: vehicle_node and terrain_node listen on the loopback only"
