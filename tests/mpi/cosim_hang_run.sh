#!/usr/bin/env bash
# A hung peer ends the whole co-simulation, with a message naming who stopped answering (issue
# 17, docs/protocol.md "Timeouts"). The light robot on its gravel patch, 1 vehicle rank and 2
# terrain ranks; one process is stopped with SIGSTOP mid-run (it neither computes nor answers, as
# a hung or swapped-out node would):
#   1. the vehicle (MPI): the terrain leader, blocked sending the forces (above the eager limit),
#      names the vehicle;
#   2. the second terrain rank (MPI): the terrain leader waits in a collective, so the vehicle
#      names the terrain;
#   3. the terrain leader while the bed settles (MPI): no working frames come, the vehicle names
#      the terrain while waiting for its welcome;
#   4. over TCP, two jobs: the second terrain rank: the vehicle names the terrain and ends; the
#      terrain job ends by its watchdog (no progress on its other ranks);
#   5. over TCP, the vehicle: the terrain job names it and ends;
#   6. with the shipped defaults (20 s), the vehicle: the job ends by the 20 s deadline.
# Each job must end with exit status 3, its first error line naming the peer (which shows that the
# right deadline ended it), and every CSV the programs wrote must end on a whole line.
# The time bound only tells an ending from a hang, so it is twice the longest deadline that may
# apply (the timeout plus the watchdog's 5 s grace): on an idle machine the jobs end in 4-5 s
# (the watchdog's in 10-11 s), but on a busy one the watchdog rightly postpones its deadline by
# the time its own process was starved (comm/watchdog.cpp), and mpirun's teardown slows down, so
# a tighter bound (the old 12 s) was broken by load alone (12.6-13.2 s seen).
# Usage: cosim_hang_run.sh VEHICLE_NODE TERRAIN_NODE MPIEXEC SOURCE_DIR
set -euo pipefail
vehicle=$1 terrain=$2 mpiexec=$3 src=$4
work=$(mktemp -d)
trap 'pkill -KILL -P $$ 2>/dev/null || true; rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive
robot="$src/configs/vehicles/ndia_light_robot.json"
# The shipped config keeps the default timeout (20 s); the first five cases use $timeout.
timeout=4 default_timeout=20
grep -q '"timeout"' "$src/tests/configs/robot_test_bed.json" && { echo "FAIL: the test bed sets a timeout"; exit 1; }
sed 's/"settle_time": 0.2}/"settle_time": 0.2, "timeout": '"$timeout"'}/' "$src/tests/configs/robot_test_bed.json" >"$work/mpi.json"
cp "$src/tests/configs/robot_test_bed.json" "$work/defaults.json"
sed -e 's/"transport": "mpi"/"transport": "tcp", "port": 0/' -e 's/"settle_time": 0.2}/"settle_time": 0.2, "timeout": '"$timeout"'}/' \
  "$src/tests/configs/robot_test_bed.json" >"$work/tcp.json"
grep -q "\"timeout\": $timeout" "$work/mpi.json" && grep -q '"port": 0' "$work/tcp.json" || { echo "FAIL: configs"; exit 1; }

. "$(dirname "${BASH_SOURCE[0]}")/fault_helpers.sh"
watchdog_grace=5  # kWatchdogGraceSeconds, terrain_node/coupling/cosim_command.cpp
bound() { echo $((2 * ($1 + watchdog_grace))); }  # TIMEOUT_S: the time bound above
limit=$(bound "$timeout") default_limit=$(bound "$default_timeout")
ended_within() {  # PID LIMIT_S STOPPED_AT LABEL: waits for PID; exit 3 within LIMIT_S of STOPPED_AT
  local status=0
  wait "$1" || status=$?
  local took
  took=$(echo "$(now) - $3" | bc)
  [[ $status -eq 3 ]] || fail "$4: exit status $status, expected 3 (a peer stopped answering)"
  (( $(echo "$took < $2" | bc) )) || fail "$4: ended $took s after the SIGSTOP, expected within $2 s"
  echo "ok: $4 ended with status 3, $took s after the SIGSTOP"
}
names() {  # LOG PATTERN LABEL: the log's first error line matches PATTERN (what the stopped
  # process may print once the launcher continues it to end it comes later, if at all)
  grep -m1 -- 'error: ' "$1" | grep -q -- "$2" || fail "$3: the first error line of $1 is not: $2"
}
# 1. The vehicle stops answering (MPI).
mpmd vehicle "$work/mpi.json" "$timeout"
wait_for_rows "$work/vehicle/terrain/timing.csv" 20 "$job"
t=$(now); kill -STOP "$(pid_of "$job" 0)"
ended_within "$job" "$limit" "$t" "SIGSTOP vehicle (mpi)"
names "$work/vehicle.log" "^terrain_node: error: the vehicle (mpi world rank 0) stopped answering while the terrain sent the forces of coupling step" "SIGSTOP vehicle (mpi)"
whole_lines "$work/vehicle"

# 2. A terrain rank that is not the leader (MPI).
mpmd rank "$work/mpi.json" "$timeout"
wait_for_rows "$work/rank/terrain/timing.csv" 20 "$job"
t=$(now); kill -STOP "$(pid_of "$job" 2)"
ended_within "$job" "$limit" "$t" "SIGSTOP terrain rank 1 (mpi)"
names "$work/rank.log" "^vehicle_node: error: the terrain (mpi world rank 1) stopped answering while the vehicle waited for the forces of coupling step" "SIGSTOP terrain rank 1 (mpi)"
whole_lines "$work/rank"

# 3. The terrain leader while the bed settles (MPI): the vehicle waits for its welcome.
mpmd settle "$work/mpi.json" "$timeout"
for _ in $(seq 600); do grep -q "^settle " "$work/settle.log" 2>/dev/null && break; sleep 0.05; done
t=$(now); kill -STOP "$(pid_of "$job" 1)"
ended_within "$job" "$limit" "$t" "SIGSTOP terrain leader while settling (mpi)"
names "$work/settle.log" "^vehicle_node: error: the terrain (mpi world rank 1) stopped answering while the vehicle waited for its welcome" "SIGSTOP terrain leader while settling"

# 4 and 5. TCP: the terrain and the vehicle are separate jobs.
vehicle_timeout=$timeout
tcp tcp_rank
wait_for_rows "$work/tcp_rank/terrain/timing.csv" 20 "$terrain_job"
t=$(now); kill -STOP "$(pid_of "$terrain_job" 1)"
ended_within "$vehicle_job" "$limit" "$t" "SIGSTOP terrain rank 1 (tcp): the vehicle"
names "$work/tcp_rank.vehicle.log" "^vehicle_node: error: the terrain (tcp 127.0.0.1:[0-9]*) stopped answering while the vehicle waited for the forces" "SIGSTOP terrain rank 1 (tcp)"
ended_within "$terrain_job" "$limit" "$t" "SIGSTOP terrain rank 1 (tcp): the terrain job"
names "$work/tcp_rank.terrain.log" "^terrain_node rank 0: error: no progress for [0-9]* s since .*step [0-9]*: a peer" "SIGSTOP terrain rank 1 (tcp): the terrain's watchdog"
whole_lines "$work/tcp_rank"

tcp tcp_vehicle
wait_for_rows "$work/tcp_vehicle/terrain/timing.csv" 20 "$terrain_job"
t=$(now); kill -STOP "$vehicle_job"
ended_within "$terrain_job" "$limit" "$t" "SIGSTOP vehicle (tcp): the terrain job"
names "$work/tcp_vehicle.terrain.log" "^terrain_node: error: the vehicle (tcp 127.0.0.1:[0-9]*) stopped answering while the terrain waited for the states of coupling step" "SIGSTOP vehicle (tcp)"
kill -KILL "$vehicle_job"; wait "$vehicle_job" 2>/dev/null || true
whole_lines "$work/tcp_vehicle"

# 6. The shipped defaults (20 s on both sides).
mpmd defaults "$work/defaults.json" ""
wait_for_rows "$work/defaults/terrain/timing.csv" 20 "$job"
t=$(now); kill -STOP "$(pid_of "$job" 0)"
ended_within "$job" "$default_limit" "$t" "SIGSTOP vehicle with the default timeouts"
names "$work/defaults.log" "^terrain_node: error: the vehicle (mpi world rank 0) stopped answering" "defaults"
echo "PASS"
