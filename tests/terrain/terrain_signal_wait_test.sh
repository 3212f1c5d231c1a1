#!/usr/bin/env bash
# A stop signal while terrain_node --cosim waits for its vehicle (docs/protocol.md, "Checkpoints"):
# the terrain ends promptly saying it was stopped by the signal and what it waited for, with exit
# status 1 (the run did not complete), instead of waiting out cosim.timeout and then blaming the
# vehicle. The timeout here is 300 s, so a terrain that ignored the signal would still be waiting
# when each case's wait for the exit gives up (60 s). Four waits, over TCP (a rigid plane, no grains):
#  1. SIGTERM while no vehicle has connected;
#  2. SIGINT (Ctrl-C) while no vehicle has connected (a background job of this script inherits
#     SIGINT ignored: the terrain's handler replaces that);
#  3. SIGTERM after a vehicle connected but before its hello;
#  4. SIGINT after the handshake, while the terrain waits for the states of coupling step 0 from
#     a vehicle that went silent: the vehicle has its grace (2 s here) to answer, then the terrain ends.
# Each case waits for an event (a line of the terrain, a file of the vehicle) before the signal,
# and for the process to end after it: nothing depends on how fast this machine is.
# Usage: terrain_signal_wait_test.sh TERRAIN_NODE SOURCE_DIR
set -euo pipefail
terrain=$1 src=$2
work=$(mktemp -d)
pids=()
trap 'kill -KILL "${pids[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive
sed -e 's|"cosim": {"transport": "mpi", "settle_time": 0}|"cosim": {"transport": "tcp", "host": "127.0.0.1", "port": 0, "settle_time": 0, "timeout": 300}|' \
  "$src/configs/cosim_plane_terrain.json" >"$work/plane.json"
grep -q '"timeout": 300' "$work/plane.json" || { echo "FAIL: could not make the TCP plane config"; exit 1; }

fail() { echo "FAIL: $*"; cat "$work"/*.log 2>/dev/null; exit 1; }
wait_for() {  # DESCRIPTION COMMAND...: until COMMAND succeeds, while the terrain runs (60 s at most)
  local what=$1
  shift
  for _ in $(seq 600); do
    "$@" && return
    kill -0 "$terrain_pid" 2>/dev/null || fail "the terrain ended before $what"
    sleep 0.1
  done
  fail "no $what within 60 s"
}
start_terrain() {  # NAME: terrain_node in the background ($terrain_pid), listening ($port)
  : >"$work/$1.log"
  "$terrain" --config "$work/plane.json" --cosim --out "$work/$1" >"$work/$1.log" 2>&1 &
  terrain_pid=$!
  pids+=("$terrain_pid")
  wait_for "listening line" grep -q "^cosim      listening on 127.0.0.1:" "$work/$1.log"
  port=$(sed -n 's/^cosim      listening on 127.0.0.1:\([0-9]*\) .*/\1/p' "$work/$1.log")
}
stopped_by() {  # NAME SIGNAL MESSAGE: send SIGNAL, then the terrain ends with status 1 and MESSAGE
  kill -"$2" "$terrain_pid"
  for _ in $(seq 600); do
    kill -0 "$terrain_pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -0 "$terrain_pid" 2>/dev/null && fail "$1: SIG$2 did not end the terrain within 60 s"
  local status=0
  wait "$terrain_pid" || status=$?
  [[ $status == 1 ]] || fail "$1: exit status $status, expected 1"
  grep -Fq "terrain_node: error: $3" "$work/$1.log" || fail "$1: expected \"terrain_node: error: $3\""
  ! grep -Eq "stopped answering|no vehicle connected" "$work/$1.log" || fail "$1: the vehicle was blamed"
  echo "ok: $1: $(grep 'terrain_node: error:' "$work/$1.log")"
}

start_terrain no_vehicle_term
stopped_by no_vehicle_term TERM "stopped by SIGTERM while waiting for a vehicle to connect to 127.0.0.1:$port"

start_terrain no_vehicle_int
stopped_by no_vehicle_int INT "stopped by SIGINT while waiting for a vehicle to connect to 127.0.0.1:$port"

start_terrain no_hello
python3 "$src/tests/terrain/silent_vehicle.py" "$port" "$work/no_hello.marker" >"$work/no_hello.vehicle.log" 2>&1 &
pids+=($!)
wait_for "vehicle connected" grep -q "^cosim      vehicle: tcp 127.0.0.1:" "$work/no_hello.log"
stopped_by no_hello TERM "stopped by SIGTERM while the terrain waited for its hello (the vehicle, tcp 127.0.0.1:"

start_terrain no_states
python3 "$src/tests/terrain/silent_vehicle.py" "$port" "$work/no_states.marker" --hello >"$work/no_states.vehicle.log" 2>&1 &
pids+=($!)
wait_for "handshake" test -s "$work/no_states.marker"
stopped_by no_states INT "stopped by SIGINT while the terrain waited for the states of coupling step 0 (the vehicle, tcp 127.0.0.1:"
