#!/usr/bin/env bash
# Walltime safety of a co-simulation: the light robot driving off on its small gravel patch
# (tests/configs/robot_test_bed.json, 3,100 grains) for 0.15 s.
#  1. SIGUSR1 to the vehicle_node process mid-run (sequential scheme, 2 terrain ranks): both
#     programs stop at the same coupling step k (exit status 0) with vehicle/checkpoint.bin and
#     terrain/checkpoint.bin, and the run resumed from them on 1 terrain rank completes it;
#  2. SIGUSR1 to the second terrain rank only (concurrent scheme, whose forces of step k - 1 the
#     vehicle checkpoint must carry over): the terrain asks the vehicle to stop (forces_stop),
#     both checkpoint at one step, and the launcher (tools/trackcosim run --resume) completes it
#     on 2 terrain ranks.
# Each resumed run's vehicle.csv, shoes.csv and the force column of timing.csv (the whole
# history: rows from before and after the stop), and its vehicle VTK series (vehicle.pvd and the
# frames in vtk/, numbered on across the stop) are byte for byte those of the same run never
# interrupted (Jacobi: the terrain does not depend on its rank count).
# Usage: cosim_signal_run.sh VEHICLE_NODE TERRAIN_NODE MPIEXEC SOURCE_DIR
set -euo pipefail
vehicle=$1 terrain=$2 mpiexec=$3 src=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive
end=0.15 steps=150
robot="$work/robot.json"
sed 's|^  "driver": {.*|  "driver": { "mode": "speed", "both": [[0, 0], [0.1, 0], [0.2, 3]] },|' \
  "$src/configs/vehicles/ndia_light_robot.json" >"$robot"
grep -q '"both": \[\[0, 0\], \[0.1, 0\]' "$robot" || { echo "FAIL: could not set the driver"; exit 1; }
terrain_config="$src/tests/configs/robot_test_bed.json"
# Part 1 records particle snapshots every 50 steps: the resumed run continues the series.
snapshot_config="$work/terrain_snapshots.json"
sed 's|"output": {"progress_interval": 0}|"output": {"progress_interval": 0, "snapshot_interval": 50}|' \
  "$terrain_config" >"$snapshot_config"
grep -q '"snapshot_interval": 50' "$snapshot_config" || { echo "FAIL: could not set the snapshot interval"; exit 1; }

start() {  # terrain ranks, out, extra vehicle args, extra terrain args; $scheme (background; pid in $job)
  "$mpiexec" --oversubscribe -np 1 "$vehicle" --config "$robot" --terrain mpi --end-time $end \
    --coupling-scheme "$scheme" --quiet --out "$work/$2/vehicle" $3 \
    : -np "$1" "$terrain" --config "${config:-$terrain_config}" --cosim --out "$work/$2/terrain" $4 >>"$work/$2.log" 2>&1 &
  job=$!
}
finish() {  # out: waits for $job, which must exit 0
  wait "$job" || { cat "$work/$1.log"; echo "FAIL: $1 exited with $?"; exit 1; }
}
wait_for_coupling() {  # out: until the terrain has timed some coupling steps
  for _ in $(seq 600); do
    [[ -f "$work/$1/terrain/timing.csv" && $(wc -l <"$work/$1/terrain/timing.csv") -gt 50 ]] && return
    sleep 0.1
  done
  echo "FAIL: $1 did not start coupling"; exit 1
}
same_as_whole() {  # out, uninterrupted out
  cmp "$work/$2/vehicle/vehicle.csv" "$work/$1/vehicle/vehicle.csv"
  cmp "$work/$2/vehicle/shoes.csv" "$work/$1/vehicle/shoes.csv"
  cmp "$work/$2/vehicle/vehicle.pvd" "$work/$1/vehicle/vehicle.pvd"
  diff -r "$work/$2/vehicle/vtk" "$work/$1/vehicle/vtk" >/dev/null
  diff <(cut -d, -f1,2,5 "$work/$2/vehicle/timing.csv") <(cut -d, -f1,2,5 "$work/$1/vehicle/timing.csv")
  [[ $(wc -l <"$work/$1/vehicle/timing.csv") == $((steps + 1)) ]]
}
stop_step() {  # out, expected "by" value: the step both programs stopped at
  local line k
  line=$(grep "^vehicle stopped by=$2 step=" "$work/$1.log") || { cat "$work/$1.log"; echo "FAIL: no vehicle stop"; exit 1; }
  k=$(sed 's/.* step=\([0-9]*\) .*/\1/' <<<"$line")
  grep -q "^terrain stopped step=$k " "$work/$1.log" || { cat "$work/$1.log"; echo "FAIL: the terrain stopped elsewhere"; exit 1; }
  [[ -f "$work/$1/vehicle/checkpoint.bin" && -f "$work/$1/terrain/checkpoint.bin" ]] || { echo "FAIL: checkpoints"; exit 1; }
  (( k > 0 && k < steps )) || { echo "FAIL: stopped at step $k, not during the run"; exit 1; }
  echo "$k"
}

# 1. The vehicle is signalled.
scheme=sequential config=$snapshot_config
start 2 whole "" ""
finish whole
grep -q "^vehicle cosim steps=$steps " "$work/whole.log"
start 2 by_vehicle "" ""
wait_for_coupling by_vehicle
kill -USR1 "$(pgrep -P "$job" -x vehicle_node)"
finish by_vehicle
k=$(stop_step by_vehicle USR1)
start 1 by_vehicle "--restart $work/by_vehicle/vehicle/checkpoint.bin" "--restart $work/by_vehicle/terrain/checkpoint.bin"
finish by_vehicle
grep -q "^restart    coupling step $k " "$work/by_vehicle.log"
same_as_whole by_vehicle whole
frames() { grep -o 'timestep="[^"]*" part="0" file="[^"]*"' "$work/$1/terrain/particles.pvd"; }
[[ "$(frames by_vehicle)" == "$(frames whole)" && $(frames whole | wc -l) == 4 ]] ||
  { frames whole; frames by_vehicle; echo "FAIL: the resumed run's snapshot series"; exit 1; }
for f in $(frames by_vehicle | sed 's/.*file="\([^"]*\)"/\1/'); do
  [[ -f "$work/by_vehicle/terrain/$f" ]] || { echo "FAIL: $f is listed, not written"; exit 1; }
done
echo "SIGUSR1 to the vehicle: both stopped at coupling step $k; resumed on 1 terrain rank, the same outputs and snapshot series"
unset config

# 2. Only the second terrain rank (world rank 2) is signalled; the launcher resumes.
scheme=concurrent
start 1 whole_concurrent "" ""
finish whole_concurrent
start 2 by_terrain "" ""
wait_for_coupling by_terrain
for pid in $(pgrep -P "$job" -x terrain_node); do
  tr '\0' '\n' <"/proc/$pid/environ" | grep -qx "OMPI_COMM_WORLD_RANK=2" && kill -USR1 "$pid"
done
finish by_terrain
k=$(stop_step by_terrain terrain)
grep -q "^terrain stopped step=$k signal=USR1 " "$work/by_terrain.log"
cat > "$work/run.json" <<JSON
{"vehicle": {"config": "$robot", "end_time": $end, "coupling_scheme": "concurrent"},
 "terrain": {"config": "$terrain_config", "ranks": 2}}
JSON
TRACKCOSIM_BUILD=$(dirname "$(dirname "$vehicle")") "$src/tools/trackcosim" run "$work/run.json" \
  --resume "$work/by_terrain" >"$work/resumed.log" 2>&1 || { cat "$work/resumed.log"; echo "FAIL: --resume"; exit 1; }
grep -Eq "^cosim steps=$steps terrain_ranks=2 " "$work/resumed.log"
same_as_whole by_terrain whole_concurrent
[[ $(wc -l <"$work/by_terrain/terrain/timing.csv") == $((steps + 1)) ]]
echo "SIGUSR1 to terrain rank 1 (concurrent): both stopped at coupling step $k; the launcher resumed it, the same outputs"
