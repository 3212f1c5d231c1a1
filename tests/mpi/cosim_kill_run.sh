#!/usr/bin/env bash
# A crash loses nothing that was written, and the other side ends at once and says why (issue
# 17). The light robot on its gravel patch, 1 vehicle rank and 2 terrain ranks:
#   1. SIGKILL of the vehicle (MPI) mid-run: mpirun ends the job;
#   2. SIGKILL of the second terrain rank (MPI): the same;
#   3. SIGKILL of the vehicle over TCP: the terrain job ends with status 3 naming the vehicle and
#      the closed connection (after a truncated message when the kill cut a frame);
#   4. a vehicle that closes the connection in the middle of a states frame (the example Python
#      client, cut off at its 30th states frame): the terrain job ends with status 3 naming the
#      truncated message.
# Each ends within 15 s; afterwards every CSV either program wrote ends on a whole line with the
# header's field count, and vehicle.csv, shoes.csv and both timing.csv files hold rows from
# before the fault (they are written as the run goes).
# Usage: cosim_kill_run.sh VEHICLE_NODE TERRAIN_NODE MPIEXEC SOURCE_DIR
set -euo pipefail
vehicle=$1 terrain=$2 mpiexec=$3 src=$4
work=$(mktemp -d)
trap 'pkill -KILL -P $$ 2>/dev/null || true; rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive
robot="$src/configs/vehicles/ndia_light_robot.json"
sed -e 's/"transport": "mpi"/"transport": "tcp", "port": 0/' "$src/tests/configs/robot_test_bed.json" >"$work/tcp.json"
grep -q '"port": 0' "$work/tcp.json" || { echo "FAIL: config"; exit 1; }
. "$(dirname "${BASH_SOURCE[0]}")/fault_helpers.sh"

ended() {  # PID LIMIT_S SINCE LABEL [STATUS]: waits for PID; a failure exit (STATUS when given) within LIMIT_S
  local status=0 took
  wait "$1" || status=$?
  took=$(echo "$(now) - $3" | bc)
  [[ $status -ne 0 ]] || fail "$4: exit status 0 after a fault"
  [[ -z ${5:-} || $status -eq $5 ]] || fail "$4: exit status $status, expected $5"
  (( $(echo "$took < $2" | bc) )) || fail "$4: ended $took s after the fault, expected within $2 s"
  echo "ok: $4 ended with status $status, $took s after the fault"
}
has_rows() {  # FILE...: each holds a header and at least one data row
  local f
  for f in "$@"; do
    [[ -f $f && $(wc -l <"$f") -ge 2 ]] || fail "$f holds no rows from before the fault"
  done
}

# 1 and 2: SIGKILL over MPI, of the vehicle (world rank 0) and of the second terrain rank (2).
for victim in 0 2; do
  name=kill_rank$victim
  mpmd "$name" "$src/tests/configs/robot_test_bed.json" ""
  wait_for_rows "$work/$name/terrain/timing.csv" 60 "$job"
  t=$(now); kill -KILL "$(pid_of "$job" "$victim")"
  ended "$job" 15 "$t" "SIGKILL of world rank $victim (mpi)"
  whole_lines "$work/$name"
  has_rows "$work/$name/vehicle/vehicle.csv" "$work/$name/vehicle/shoes.csv" "$work/$name/vehicle/timing.csv" \
    "$work/$name/terrain/timing.csv"
done

# 3: SIGKILL of the vehicle over TCP.
tcp tcp_kill
wait_for_rows "$work/tcp_kill/terrain/timing.csv" 60 "$terrain_job"
t=$(now); kill -KILL "$vehicle_job"
ended "$terrain_job" 15 "$t" "SIGKILL of the vehicle (tcp): the terrain job" 3
# The kill may land between frames or inside one (between a header and its payload, or within
# either): the terrain then reads a truncated message, which is as correct a report of the lost
# vehicle; every ordering must name the vehicle and the closed connection.
grep -m1 'error: ' "$work/tcp_kill.terrain.log" |
  grep -Eq "^terrain_node: error: the connection to the vehicle \(tcp 127.0.0.1:[0-9]+\) failed while the terrain (waited for the states|sent the forces) of coupling step [0-9]+: (truncated message from tcp 127.0.0.1:[0-9]+: [0-9]+ of [0-9]+ (header|payload) bytes, then )?tcp 127.0.0.1:[0-9]+ closed the connection$" ||
  fail "SIGKILL of the vehicle (tcp): the terrain does not name the vehicle and the closed connection"
whole_lines "$work/tcp_kill"
has_rows "$work/tcp_kill/vehicle/vehicle.csv" "$work/tcp_kill/terrain/timing.csv"

# 4: the example client, cut off in the middle of its 30th states frame.
tcp_terrain mid_frame "$src/configs/cosim_tcp_example.json"
python3 - "$src/examples" "$port" <<'PY' >"$work/mid_frame.client.log" 2>&1
import sys
sys.path.insert(0, sys.argv[1])
import python_client as client

send = client.Terrain.send
sent = [0]
def send_until_cut(self, kind, payload):
    if kind == client.STATES:
        sent[0] += 1
        if sent[0] == 30:  # half a frame, then the connection closes: a crash mid-write
            whole = client.frame(kind, payload)
            self.sock.sendall(whole[:len(whole) // 2])
            self.sock.close()
            sys.exit(0)
    send(self, kind, payload)
client.Terrain.send = send_until_cut
client.main(["python_client", "127.0.0.1", sys.argv[2], "100"])
PY
t=$(now)
ended "$terrain_job" 15 "$t" "a vehicle closing mid-frame (tcp): the terrain job" 3
grep -m1 'error: ' "$work/mid_frame.terrain.log" |
  grep -q "^terrain_node: error: the connection to the vehicle (tcp 127.0.0.1:[0-9]*) failed while the terrain waited for the states of coupling step 29: truncated message from tcp 127.0.0.1:[0-9]*: [0-9]* of [0-9]* payload bytes, then tcp 127.0.0.1:[0-9]* closed the connection$" ||
  fail "a vehicle closing mid-frame: the terrain does not name the truncated message"
whole_lines "$work/mid_frame"
has_rows "$work/mid_frame/terrain/timing.csv"
echo "PASS"
