#!/usr/bin/env bash
# `tools/trackcosim run --resume` continues the run that wrote the checkpoints, with its vehicle
# and its terrain (docs/protocol.md, "Checkpoints"). The light robot on a rigid plane
# (configs/cosim_plane_terrain.json) for 0.2 s with a checkpoint at 0.1 s, then:
#  1. a resume with the toothed robot (configs/vehicles/ndia_light_robot_toothed.json) is refused
#     before anything starts, exit status 2, naming the first key that differs and both values
#     (`track.sprocket.radius is 0.10588 here and 0.1084 in that run`); launches.json is unchanged;
#  2. a resume whose terrain config changes material.friction is refused by the terrain naming
#     material.friction, the key the user changed, not container.floor_friction (derived from it);
#  3. a resume with the same configs completes, and run.json's "launches" keeps the original
#     run's configs and each resumed run's (the one the terrain refused too), the vehicle
#     config's document in each.
# Usage: cosim_resume_configs_run.sh VEHICLE_NODE TERRAIN_NODE MPIEXEC SOURCE_DIR
set -euo pipefail
vehicle=$1 src=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive TRACKCOSIM_BUILD=$(dirname "$(dirname "$vehicle")")
fail() { echo "FAIL: $*"; cat "$work"/*.log 2>/dev/null; exit 1; }

cp "$src/configs/cosim_plane_terrain.json" "$work/plane.json"
sed 's|"material": {"friction": 0.9,|"material": {"friction": 0.5,|' "$work/plane.json" >"$work/plane_smoother.json"
grep -q '"friction": 0.5,' "$work/plane_smoother.json" || fail "could not change material.friction"
run_file() {  # NAME VEHICLE_CONFIG TERRAIN_CONFIG
  cat >"$work/$1.json" <<JSON
{"vehicle": {"config": "$2", "end_time": 0.2, "checkpoint_interval": 0.1},
 "terrain": {"config": "$3", "ranks": 1}, "output": "$work/run"}
JSON
}
run_file friction "$src/configs/vehicles/ndia_light_robot.json" "$work/plane.json"
run_file toothed "$src/configs/vehicles/ndia_light_robot_toothed.json" "$work/plane.json"
run_file smoother "$src/configs/vehicles/ndia_light_robot.json" "$work/plane_smoother.json"
launch() {  # NAME ARGS...: the launcher; its exit status in $status, its output in NAME.log
  status=0
  "$src/tools/trackcosim" run "$work/$1.json" --no-plot "${@:2}" >"$work/$1.log" 2>&1 || status=$?
}

launch friction
[[ $status == 0 ]] || fail "the first run exited $status"
grep -q "^vehicle checkpoint step=100 " "$work/friction.log" || fail "no checkpoint at step 100"
cp "$work/run/launches.json" "$work/launches_first.json"

# 1. Another vehicle.
launch toothed --resume "$work/run"
[[ $status == 2 ]] || fail "a resume with the toothed robot exited $status, expected 2"
grep -Fq "trackcosim: error: --resume $work/run: the vehicle config $src/configs/vehicles/ndia_light_robot_toothed.json does not match the run that wrote the checkpoint: track.sprocket.radius is 0.10588 here and 0.1084 in that run" \
  "$work/toothed.log" || fail "the refusal does not name track.sprocket.radius and both values"
! grep -q "mpirun" "$work/toothed.log" || fail "the refused resume started the programs"
cmp -s "$work/launches_first.json" "$work/run/launches.json" || fail "the refused resume changed launches.json"
echo "ok: $(grep 'trackcosim: error' "$work/toothed.log" | cut -c1-200)..."

# 2. The terrain's material.friction changed: the terrain names it.
launch smoother --resume "$work/run"
[[ $status != 0 ]] || fail "a resume with another material.friction was accepted"
grep -q "material.friction is 0.5 here and 0.9 in that run" "$work/smoother.log" ||
  fail "the terrain's refusal does not name material.friction"
! grep -q "container.floor_friction" "$work/smoother.log" || fail "the refusal names container.floor_friction"
echo "ok: $(grep -o 'does not match the run that wrote the checkpoint: material.friction[^:]*' "$work/smoother.log" | head -1)"

# 3. The same configs: the run completes, and run.json keeps both runs' configs.
launch friction --resume "$work/run"
[[ $status == 0 ]] || fail "the resume with the same configs exited $status"
grep -q "^restart    coupling step 100 " "$work/friction.log" || fail "the terrain did not resume at step 100"
grep -Eq "^cosim steps=200 " "$work/friction.log" || fail "the resumed run did not complete"
python3 - "$work/run/run.json" "$work/friction.json" <<'PY' || fail "run.json does not keep both runs' configs"
import json, sys
run = json.load(open(sys.argv[1]))
launches = run["launches"]
# The original run, the resume the terrain refused (the refused vehicle never started), this one.
assert [l["resumed"] for l in launches] == [False, True, True], launches
assert [l["run_file"] == sys.argv[2] for l in launches] == [True, False, True], launches
assert launches[1]["terrain_config"].endswith("plane_smoother.json"), launches[1]
for l in launches:
    assert l["vehicle_config"]["document"]["track"]["sprocket"]["teeth"] == 0
    assert l["config"]["vehicle"]["checkpoint_interval"] == 0.1
print("ok: run.json keeps the original run's configs and each resumed run's (%d launches)" % len(launches))
PY
