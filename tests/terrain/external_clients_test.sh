#!/usr/bin/env bash
# External vehicle models against terrain_node --cosim over TCP (configs/cosim_tcp_example.json):
#  - the C example (examples/prescribed_track.c, through cosim/coupler_c.h) and the Python one
#    (examples/python_client.py, standard library only) complete 150 coupling steps, the terrain
#    pushes on their shoes (mean vertical force > 0), and both report the same forces: they drive
#    the same prescribed motion, so the terrain computes the same thing;
#  - a client speaking protocol version 7 is refused: both sides exit non-zero naming version 7;
#  - a client killed in the middle of the run ends the terrain with an error within 30 s;
#  - the drawbar rig through the C API (examples/rig_track.c, cosim/drawbar_rig_c.h): a track
#    segment at imposed slip 0.5 writes rig.csv with the rig's phases in order, the imposed slip in
#    every measure row, and the terrain pushes its backward-sliding shoes forward (drawbar pull > 0).
# Usage: external_clients_test.sh TERRAIN_NODE PRESCRIBED_TRACK SOURCE_DIR RIG_TRACK
set -euo pipefail
terrain=$1 c_client=$2 src=$3 rig_client=$4
work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; [[ -n ${KEEP_WORK:-} ]] || rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive

source "$src/tests/support/tcp_terrain.sh"
start_terrain() {  # name: terrain_node on the example bed (tests/support/tcp_terrain.sh)
  start_tcp_terrain "$1" "$src/configs/cosim_tcp_example.json"
}
status=0
wait_terrain() {  # name: sets $status to its exit status
  status=0
  wait "$(cat "$work/$1.pid")" || status=$?
}
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" "$2"; }

start_terrain c
"$c_client" 127.0.0.1 "$port" 150 >"$work/c_client.log"
wait_terrain c
[[ $status == 0 ]] || { cat "$work/c.log"; exit 1; }
start_terrain py
python3 "$src/examples/python_client.py" 127.0.0.1 "$port" 150 >"$work/py_client.log"
wait_terrain py
[[ $status == 0 ]] || { cat "$work/py.log"; exit 1; }
tail -n 1 "$work/c_client.log" "$work/py_client.log"
c_fz=$(field mean_fz "$work/c_client.log"); py_fz=$(field mean_fz "$work/py_client.log")
c_fx=$(field mean_fx "$work/c_client.log"); py_fx=$(field mean_fx "$work/py_client.log")
[[ $c_fz == "$py_fz" && $c_fx == "$py_fx" ]] || { echo "FAIL: C and Python saw different forces"; exit 1; }
awk -v f="$c_fz" 'BEGIN{exit !(f > 0)}' || { echo "FAIL: no vertical force on the shoes"; exit 1; }
grep -q "terrain cosim steps=150 shoes=8" "$work/c.log"

start_terrain version
if python3 "$src/examples/python_client.py" 127.0.0.1 "$port" 10 --version 7 2>"$work/version_client.err"; then
  echo "FAIL: a version-7 client was accepted"; exit 1
fi
wait_terrain version
[[ $status != 0 ]] || { echo "FAIL: the terrain did not stop on a version mismatch"; exit 1; }
grep -q "version 7" "$work/version_client.err"
grep -q "version 7" "$work/version.log"

start_terrain killed
python3 "$src/examples/python_client.py" 127.0.0.1 "$port" 100000 >/dev/null 2>&1 &
client=$!
# Killed once the terrain has taken it as its vehicle (a client that python starts too slowly to
# connect within a fixed delay would otherwise be killed before the co-simulation begins).
for _ in $(seq 300); do grep -q "^cosim      vehicle: tcp" "$work/killed.log" && break; sleep 0.1; done
sleep 0.5
kill -9 "$client"
start=$SECONDS
wait_terrain killed
[[ $status != 0 ]] || { echo "FAIL: the terrain ended normally after its vehicle died"; exit 1; }
(( SECONDS - start <= 30 )) || { echo "FAIL: the terrain took $((SECONDS - start)) s to notice"; exit 1; }
grep -q "terrain_node: error: .*tcp 127.0.0.1" "$work/killed.log"  # closed, reset or broken pipe: named

start_terrain rig
cat >"$work/rig.json" <<'JSON'
{"mode": "slip", "slip": 0.5, "track_speed": 0.2, "rest_time": 0.04, "ramp_time": 0.1, "settle_time": 0.06}
JSON
"$rig_client" 127.0.0.1 "$port" "$work/rig.json" "$work/rig_out" 200 >"$work/rig_client.log" || {
  cat "$work/rig_client.log" "$work/rig.log"; exit 1; }
wait_terrain rig
[[ $status == 0 ]] || { cat "$work/rig.log"; exit 1; }
tail -n 1 "$work/rig_client.log"
csv=$work/rig_out/rig.csv
[[ $(head -n 1 "$csv") == t,phase,chassis_x,*,slip,drawbar_pull,weight,ground_fx,ground_fz ]]
[[ $(cut -d, -f2 "$csv" | tail -n +2 | uniq | paste -sd' ') == "rest ramp settle measure" ]] ||
  { echo "FAIL: rig.csv phases out of order"; cut -d, -f1,2 "$csv"; exit 1; }
awk -F, 'NR > 1 && $2 == "measure" && ($12 < 0.4999999 || $12 > 0.5000001) {bad = 1} END {exit bad}' "$csv" ||
  { echo "FAIL: a measure row without the imposed slip"; exit 1; }
dbp=$(field measure_dbp "$work/rig_client.log")
awk -v f="$dbp" 'BEGIN{exit !(f > 0)}' || { echo "FAIL: no forward push on shoes sliding backwards ($dbp N)"; exit 1; }
echo "C and Python clients agree; a wrong version and a killed client stop the terrain with a reason;"
echo "the C rig client writes rig.csv through the rig's schedule"
