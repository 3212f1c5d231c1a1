#!/usr/bin/env bash
# Settle once (tools/launcher/bed_store.py, docs/settling.md): the launcher's first run of a terrain saves
# the bed it settled; a second run of the same terrain starts from it (no settling) and gives the
# robot the same bits as the run that settled; a run on another rank count uses it too; a change
# that makes another bed (a material key) settles again, one that does not (a comment, the
# coupling step) does not; --fresh-bed settles again; TRACKCOSIM_BED_STORE=off turns the store off;
# a settling step of its own (cosim.settle_step) settles another bed at that step.
# Usage: cosim_bed_store_run.sh VEHICLE_NODE TERRAIN_NODE MPIEXEC SOURCE_DIR
set -euo pipefail
vehicle=$1 src=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive TRACKCOSIM_BUILD=$(dirname "$(dirname "$vehicle")")
export TRACKCOSIM_BED_STORE=$work/beds
bed="$src/tests/configs/robot_test_bed.json"
cp "$bed" "$work/terrain.json"

launch() {  # name, ranks, extra launcher arguments
  local name=$1 ranks=$2
  shift 2
  cat >"$work/$name.json" <<JSON
{"vehicle": {"config": "$src/configs/vehicles/ndia_light_robot.json", "end_time": 0.05, "coupling_scheme": "sequential"},
 "terrain": {"config": "$work/terrain.json", "ranks": $ranks}, "output": "$work/$name"}
JSON
  python3 "$src/tools/launcher/trackcosim.py" run "$work/$name.json" --no-plot "$@" >"$work/$name.log" 2>&1 ||
    { cat "$work/$name.log"; echo "FAIL: run $name"; exit 1; }
}
expect() {  # log, text, what failed
  grep -q -- "$2" "$work/$1.log" || { cat "$work/$1.log"; echo "FAIL: $3"; exit 1; }
}

launch first 2
expect first "no settled bed stored for this terrain" "the first run did not say it settles"
expect first "settle     200 steps" "the first run did not settle"
expect first "settled bed saved to $work/beds/terrain-" "the first run did not save its bed"
stored=$(ls "$work"/beds/terrain-*/bed.bin)
grep -q "\"terrain_config\": \"$work/terrain.json\"" "$(dirname "$stored")/bed.json" ||
  { echo "FAIL: bed.json does not name the config"; exit 1; }

launch second 2
expect second "starting from the settled bed $stored" "the second run did not start from the stored bed"
expect second "cosim.settle_time skipped" "the second run settled"
cmp "$work/first/vehicle/vehicle.csv" "$work/second/vehicle/vehicle.csv" ||
  { echo "FAIL: the robot moved differently on the stored bed"; exit 1; }
cmp "$work/first/vehicle/shoes.csv" "$work/second/vehicle/shoes.csv"

launch one_rank 1
expect one_rank "starting from the settled bed $stored" "1 rank did not use the bed 2 ranks stored"

# What does not make the bed keeps its key; what does makes another (dry runs: the choice only).
sed -i '1i // a comment changes nothing' "$work/terrain.json"
sed -i 's|"coupling_step": 1e-3|"coupling_step": 5e-4|' "$work/terrain.json"
grep -q '"coupling_step": 5e-4' "$work/terrain.json" || { echo "FAIL: could not change the coupling step"; exit 1; }
launch comment 2 --dry-run
expect comment "starting from the settled bed $stored" "a comment or the coupling step changed the bed's key"
launch fresh 2 --dry-run --fresh-bed
expect fresh "settling again (--fresh-bed)" "--fresh-bed did not settle again"
sed -i 's|"friction": 0.7|"friction": 0.6|' "$work/terrain.json"
launch friction 2 --dry-run
expect friction "no settled bed stored for this terrain" "a changed friction reused the stale bed"
TRACKCOSIM_BED_STORE=off launch off 2 --dry-run
if grep -q "trackcosim: bed:" "$work/off.log" || grep -q -- "--from-checkpoint\|--save-bed" "$work/off.log"; then
  cat "$work/off.log"; echo "FAIL: TRACKCOSIM_BED_STORE=off still used the store"; exit 1
fi
# A finer settling step (cosim.settle_step) makes another bed: settle_time / settle_step steps of
# it, then the coupling at step_size, on a bed the robot meets differently.
sed -i 's|"settle_time": 0.2}|"settle_time": 0.2, "settle_step": 5e-4}|' "$work/terrain.json"
grep -q '"settle_step": 5e-4' "$work/terrain.json" || { echo "FAIL: could not set the settling step"; exit 1; }
sed -i 's|"friction": 0.6|"friction": 0.7|; s|"coupling_step": 5e-4|"coupling_step": 1e-3|' "$work/terrain.json"
launch fine 2
expect fine "no settled bed stored for this terrain" "a changed settle_step reused the stale bed"
expect fine "settle     400 steps of 0.0005 s (0.2 s)" "the bed did not settle at settle_step"
grep -q '"coupling_steps": 50' "$work/fine/terrain/run.json" || { cat "$work/fine/terrain/run.json"; echo "FAIL: not 50 coupling steps of 1 ms"; exit 1; }
grep -q '"settle_steps": 400' "$work/fine/terrain/run.json" || { echo "FAIL: run.json does not count 400 settling steps"; exit 1; }
if cmp -s "$work/first/vehicle/vehicle.csv" "$work/fine/vehicle/vehicle.csv"; then
  echo "FAIL: the bed settled at half the step carried the robot as the other did, to the bit"; exit 1
fi

echo "settle once: the stored bed is made once, reused on 2 and 1 ranks (vehicle.csv byte for byte), kept by comments and coupling keys, refused after a material change"
