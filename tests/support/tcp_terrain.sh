# Sourced by the tests that couple an external client to terrain_node --cosim over TCP
# (tests/terrain/external_clients_test.sh, protocol_doc_client_test.sh, tests/cosim/install_test.sh).
# Needs $work (a scratch folder), $terrain (the terrain_node to run) and an array `pids` that the
# test's exit trap kills.
#
# start_tcp_terrain NAME CONFIG: starts terrain_node --cosim on CONFIG, a child of this shell,
# with its output in $work/NAME.log and its pid in $work/NAME.pid; sets $port once it prints the
# port it listens on (at most 30 s: a busy machine builds the example bed slowly), else fails.
port=""
start_tcp_terrain() {
  # The log exists before the first look at it: the background redirection may not have run yet.
  : >"$work/$1.log"
  "$terrain" --config "$2" --cosim --out "$work/$1" >"$work/$1.log" 2>&1 &
  pids+=($!)
  echo $! >"$work/$1.pid"
  for _ in $(seq 300); do
    port=$(sed -n 's/.*listening on 127.0.0.1:\([0-9]*\).*/\1/p' "$work/$1.log")
    [[ -n $port ]] && return
    sleep 0.1
  done
  echo "terrain_node did not print its port" >&2
  cat "$work/$1.log" >&2
  exit 1
}
