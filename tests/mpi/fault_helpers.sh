# Shared by the fault-injection scripts (cosim_hang_run.sh, cosim_kill_run.sh): start the light
# robot's co-simulation over MPI or TCP, find a rank's process, wait for coupling rows, and check
# that every CSV a killed or stopped job left ends on a whole line. Sourced after the script has
# set: vehicle, terrain, mpiexec, work (a scratch folder), robot (the vehicle config).

now() { date +%s.%N; }
fail() { for f in "$work"/*.log; do echo "== $f"; cat "$f"; done; echo "FAIL: $*"; exit 1; }
wait_for_rows() {  # FILE ROWS PID: until FILE has more than ROWS lines, while PID runs
  for _ in $(seq 1200); do
    [[ -f $1 && $(wc -l <"$1") -gt $2 ]] && return
    kill -0 "$3" 2>/dev/null || fail "the job ended before $1 got $2 rows"
    sleep 0.1
  done
  fail "$1 never got $2 rows"
}
pid_of() {  # MPIEXEC_PID WORLD_RANK: the process of that rank (from Open MPI's environment variable)
  local pid
  for pid in $(pgrep -P "$1"); do
    tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$2" && { echo "$pid"; return; }
  done
  fail "no process of world rank $2 under $1"
}
whole_lines() {  # DIR: every CSV under DIR ends on a newline and each row has the header's field count
  # ('#' lines are comments, not rows: the height map's key=value header, surface_start.csv)
  local f
  for f in $(find "$1" -name '*.csv'); do
    [[ ! -s $f || $(tail -c1 "$f" | od -An -c | tr -d ' ') == '\n' ]] || fail "$f ends mid-line"
    awk -F, '/^#/ {next} n == "" {n = NF} NF != n {exit 1}' "$f" || fail "$f has a row with a different field count"
  done
}
mpmd() {  # NAME TERRAIN_CONFIG VEHICLE_TIMEOUT (empty: the default): background job, pid in $job
  "$mpiexec" --oversubscribe -np 1 "$vehicle" --config "$robot" --terrain mpi --end-time 5 ${3:+--timeout $3} --quiet \
    --out "$work/$1/vehicle" : -np 2 "$terrain" --config "$2" --cosim --out "$work/$1/terrain" >"$work/$1.log" 2>&1 &
  job=$!
}

tcp_terrain() {  # NAME [TERRAIN_CONFIG, default $work/tcp.json]: a terrain job listening on TCP
  # (background, $terrain_job), its port in $port
  "$mpiexec" --oversubscribe -np 2 "$terrain" --config "${2:-$work/tcp.json}" --cosim --out "$work/$1/terrain" \
    >"$work/$1.terrain.log" 2>&1 &
  terrain_job=$!
  port=""
  for _ in $(seq 600); do
    port=$(sed -n 's/^cosim      listening on 127.0.0.1:\([0-9]*\) .*/\1/p' "$work/$1.terrain.log" 2>/dev/null)
    [[ -n $port ]] && return
    sleep 0.05
  done
  fail "$1: the terrain printed no port"
}
tcp() {  # NAME [TERRAIN_CONFIG]: tcp_terrain, then vehicle_node connecting to it (background,
  # $vehicle_job; --timeout $vehicle_timeout when set). In a session of its own (setsid execs it,
  # same pid): stopped (SIGSTOP) inside ctest's process group, which is orphaned when ctest runs
  # without a terminal, it would have the kernel send SIGHUP to that whole group, every test
  # beside this one included, as soon as any member exited. (mpirun's ranks have their own
  # groups already.)
  tcp_terrain "$@"
  setsid "$vehicle" --config "$robot" --terrain tcp --terrain-port "$port" --end-time 5 ${vehicle_timeout:+--timeout $vehicle_timeout} \
    --quiet --out "$work/$1/vehicle" >"$work/$1.vehicle.log" 2>&1 &
  vehicle_job=$!
}
