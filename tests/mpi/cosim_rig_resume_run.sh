#!/usr/bin/env bash
# A drawbar-rig point resumes from its checkpoint (docs/mobility.md, "Long points"): the toothed
# light robot in slip mode (slip 0.2 at 0.3 m/s after 0.02 s of rest and a 0.05 s ramp) on its
# small gravel patch (tests/configs/robot_test_bed.json, 3,100 grains, 2 terrain ranks), 200
# coupling steps of 1 ms, a checkpoint every 0.05 s, rig.csv rows every 7 steps, so that each
# checkpoint (steps 50, 100, 150) falls inside a row and must keep its partial sums.
#  1. Run A goes to the end with its periodic checkpoints; run C, the same without them, writes
#     the same rig.csv and vehicle.csv: writing a checkpoint changes nothing.
#  2. Run B is a copy of A's folder resumed (`tools/trackcosim run --resume`) from A's last
#     checkpoint (step 150): its rig.csv, vehicle.csv and shoes.csv are A's, byte for byte (the
#     rows before step 150 from the checkpoint, the row in progress from its sums, the rest
#     recomputed).
#  3. A checkpoint of a run with a rig does not continue a run without one: refused by name.
# Usage: cosim_rig_resume_run.sh VEHICLE_NODE TERRAIN_NODE MPIEXEC SOURCE_DIR
set -euo pipefail
vehicle=$1 src=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive TRACKCOSIM_BUILD=$(dirname "$(dirname "$vehicle")")
fail() { echo "FAIL: $*"; tail -n 30 "$work"/*.log 2>/dev/null; exit 1; }

robot="$work/robot.json"
sed 's|"output_interval": [0-9.e-]*|"output_interval": 0.007|' "$src/configs/vehicles/ndia_light_robot_toothed.json" >"$robot"
grep -q '"output_interval": 0.007' "$robot" || fail "could not set the output interval"
cat >"$work/rig.json" <<JSON
{"mode": "slip", "slip": 0.2, "track_speed": 0.3, "rest_time": 0.02, "ramp_time": 0.05, "settle_time": 0.03}
JSON
run_file() {  # name, checkpoint interval ("" for none), rig ("" for none)
  local interval="" rig=""
  [[ -n $2 ]] && interval=", \"checkpoint_interval\": $2"
  [[ -n $3 ]] && rig=", \"rig\": \"$3\""
  cat >"$work/$1.json" <<JSON
{"vehicle": {"config": "$robot", "end_time": 0.2, "coupling_scheme": "sequential"$interval$rig},
 "terrain": {"config": "$src/tests/configs/robot_test_bed.json", "ranks": 2}, "output": "$work/$1"}
JSON
}
launch() {  # run file name, extra launcher arguments
  "$src/tools/trackcosim" run "$work/$1.json" --no-plot "${@:2}" >"$work/$1.log" 2>&1
}

run_file A 0.05 "$work/rig.json"
launch A || fail "run A exited with $?"
[[ "$(sed -n 's/^vehicle checkpoint step=\([0-9]*\) .*/\1/p' "$work/A.log" | tr '\n' ' ')" == "50 100 150 " ]] ||
  fail "run A's checkpoints are not at steps 50, 100 and 150"
(( $(wc -l <"$work/A/vehicle/rig.csv") > 25 )) || fail "run A's rig.csv has too few rows"
grep -q ',measure,' "$work/A/vehicle/rig.csv" || fail "run A never reached the measure phase"

run_file C "" "$work/rig.json"
launch C || fail "run C exited with $?"
for f in rig.csv vehicle.csv; do
  cmp "$work/A/vehicle/$f" "$work/C/vehicle/$f" || fail "writing checkpoints changed vehicle/$f"
done
echo "ok: the periodic checkpoints change neither rig.csv nor vehicle.csv"

cp -r "$work/A" "$work/B"
run_file B 0.05 "$work/rig.json"
launch B --resume "$work/B" || fail "run B (--resume) exited with $?"
grep -q "^restart    coupling step 150 " "$work/B.log" || fail "run B did not resume at coupling step 150"
for f in rig.csv vehicle.csv shoes.csv; do
  cmp "$work/A/vehicle/$f" "$work/B/vehicle/$f" || fail "the resumed run's vehicle/$f differs from the run never stopped"
done
echo "ok: resumed at step 150, rig.csv, vehicle.csv and shoes.csv are those of the run never stopped"

cp -r "$work/A" "$work/D"
run_file D 0.05 ""
! launch D --resume "$work/D" || fail "a rig's checkpoint continued a run without a rig"
grep -q "the checkpoint was written with a drawbar rig, this run has none" "$work/D.log" ||
  fail "the refusal does not say why"
echo "ok: a rig's checkpoint does not continue a run without one"
