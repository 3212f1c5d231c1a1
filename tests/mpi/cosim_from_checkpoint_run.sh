#!/usr/bin/env bash
# terrain_node --cosim --from-checkpoint: the robot's gravel bed (tests/configs/robot_test_bed.json)
# stepped standalone for its settle_time (0.2 s) on 1 rank into a checkpoint; a co-simulation on 2
# terrain ranks that starts from that checkpoint (settle_time skipped) must give the robot exactly
# what the co-simulation that settles by itself gives it: vehicle.csv and shoes.csv byte for byte.
# The launcher passes terrain.checkpoint as --from-checkpoint.
# With ROLLING_FRICTION, the bed's solver gets that "rolling_friction" (docs/ccp.md): the
# checkpoint then carries the rolling impulses of the warm start too (format version 3), which
# the self-settled run's first coupled step warm-starts from as well.
# Usage: cosim_from_checkpoint_run.sh VEHICLE_NODE TERRAIN_NODE MPIEXEC SOURCE_DIR [ROLLING_FRICTION]
set -euo pipefail
vehicle=$1 terrain=$2 mpiexec=$3 src=$4 rolling=${5:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive
bed="$src/tests/configs/robot_test_bed.json"
if [[ -n "$rolling" ]]; then
  sed "s|\"solver\": {|\"solver\": {\"rolling_friction\": $rolling, |" "$bed" >"$work/rolling_bed.json"
  grep -q "\"rolling_friction\": $rolling," "$work/rolling_bed.json" || { echo "FAIL: could not set rolling_friction"; exit 1; }
  bed="$work/rolling_bed.json"
fi
sed 's|"end_time": 0,|"end_time": 0.2,|' "$bed" >"$work/standalone.json"
grep -q '"end_time": 0.2,' "$work/standalone.json" || { echo "FAIL: could not set the end time"; exit 1; }
"$mpiexec" -n 1 "$terrain" --config "$work/standalone.json" --out "$work/settled" --checkpoint-at 200 >"$work/settled.log"

run() {  # out, extra terrain arguments
  local out=$1
  shift
  "$mpiexec" --oversubscribe -np 1 "$vehicle" --config "$src/configs/vehicles/ndia_light_robot.json" --terrain mpi \
    --end-time 0.1 --coupling-scheme sequential --quiet --out "$work/$out/vehicle" \
    : -np 2 "$terrain" --config "$bed" --cosim --out "$work/$out/terrain" "$@" >"$work/$out.log" 2>&1 ||
    { cat "$work/$out.log"; exit 1; }
}
run self
run from --from-checkpoint "$work/settled/checkpoint.bin"
grep -q "settle     200 steps" "$work/self.log" || { cat "$work/self.log"; echo "FAIL: no settling"; exit 1; }
grep -q "cosim.settle_time skipped" "$work/from.log" || { cat "$work/from.log"; exit 1; }
grep -q '"settle_steps": 0' "$work/from/terrain/run.json"
grep -q '"from_checkpoint"' "$work/from/terrain/run.json"
cmp "$work/self/vehicle/vehicle.csv" "$work/from/vehicle/vehicle.csv" ||
  { echo "FAIL: the vehicle moved differently on the checkpointed bed"; exit 1; }
cmp "$work/self/vehicle/shoes.csv" "$work/from/vehicle/shoes.csv"

# The launcher: terrain.checkpoint becomes --from-checkpoint (dry run: the command line only).
cat >"$work/run.json" <<JSON
{"vehicle": {"config": "$src/configs/vehicles/ndia_light_robot.json", "end_time": 0.1},
 "terrain": {"config": "$bed", "ranks": 2, "checkpoint": "$work/settled/checkpoint.bin"},
 "output": "$work/launcher"}
JSON
python3 "$src/tools/launcher/trackcosim.py" run "$work/run.json" --dry-run | grep -q -- "--from-checkpoint $work/settled/checkpoint.bin" ||
  { echo "FAIL: the launcher did not pass the checkpoint"; exit 1; }
rows=$(( $(wc -l <"$work/from/vehicle/shoes.csv") - 1 ))
echo "co-simulation from a 1-rank checkpoint on 2 terrain ranks = the self-settling one ($rows shoes.csv rows byte for byte)${rolling:+, rolling_friction $rolling}; launcher passes it"
