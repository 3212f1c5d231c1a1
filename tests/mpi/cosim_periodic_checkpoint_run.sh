#!/usr/bin/env bash
# Periodic checkpoints of a running co-simulation (vehicle_node --checkpoint-interval,
# docs/protocol.md "Checkpoints"): the light robot driving off on its small gravel patch
# (tests/configs/robot_test_bed.json, 3,100 grains, 2 terrain ranks) for 200 coupling steps, a
# checkpoint every 0.05 s (50 steps).
#  1. The run completes with its checkpoints at steps 50, 100 and 150 (one vehicle line each) and
#     writes the outputs of the same run without them: writing a checkpoint changes nothing.
#  2. A run is killed (SIGKILL of vehicle_node: a crash) after its second checkpoint (step 100),
#     once vehicle.csv holds a row after it (t = 0.12, 30 steps before the next checkpoint);
#     `tools/trackcosim run --resume` (its run file giving vehicle.checkpoint_interval) continues
#     it from step 100, cutting back the rows both programs had written after it, and writes its
#     next checkpoint at step 150. vehicle.csv, shoes.csv, the VTK series and the force column of
#     timing.csv are byte for byte those of the run never interrupted, and both timing.csv files
#     hold steps 0..199 once each.
#  3. The same on the moving patch's long bed (tests/configs/robot_patch_test_bed.json), whose
#     patch.csv must also be cut back: its steps once each, its counts those of the whole run.
# Usage: cosim_periodic_checkpoint_run.sh VEHICLE_NODE TERRAIN_NODE MPIEXEC SOURCE_DIR
set -euo pipefail
vehicle=$1 terrain=$2 mpiexec=$3 src=$4
work=$(mktemp -d)
trap 'pkill -KILL -P $$ 2>/dev/null || true; rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive
end=0.2 steps=200 interval=0.05
robot="$work/robot.json"
sed 's|^  "driver": {.*|  "driver": { "mode": "speed", "both": [[0, 0], [0.05, 0], [0.15, 3]] },|' \
  "$src/configs/vehicles/ndia_light_robot.json" >"$robot"
grep -q '"both": \[\[0, 0\], \[0.05, 0\]' "$robot" || { echo "FAIL: could not set the driver"; exit 1; }
gravel="$src/tests/configs/robot_test_bed.json" patch_bed="$src/tests/configs/robot_patch_test_bed.json"
. "$(dirname "${BASH_SOURCE[0]}")/fault_helpers.sh"

start() {  # out, terrain config, extra vehicle args (background; pid in $job)
  "$mpiexec" --oversubscribe -np 1 "$vehicle" --config "$robot" --terrain mpi --end-time $end --quiet \
    --out "$work/$1/vehicle" $3 : -np 2 "$terrain" --config "$2" --cosim \
    --out "$work/$1/terrain" >"$work/$1.log" 2>&1 &
  job=$!
}
finish() {  # out: waits for $job, which must exit 0
  wait "$job" || fail "$1 exited with $?"
}
checkpoint_steps() {  # log: the steps of its periodic checkpoint lines, one line
  sed -n 's/^vehicle checkpoint step=\([0-9]*\) .*/\1/p' "$1" | tr '\n' ' '
}
same_as() {  # out, uninterrupted out: the vehicle outputs are the same
  local f
  for f in vehicle.csv shoes.csv vehicle.pvd; do
    cmp "$work/$2/vehicle/$f" "$work/$1/vehicle/$f" || fail "$1: vehicle/$f differs from $2's"
  done
  diff -r "$work/$2/vehicle/vtk" "$work/$1/vehicle/vtk" >/dev/null || fail "$1: the vehicle's vtk/ frames differ"
  diff <(cut -d, -f1,2,5 "$work/$2/vehicle/timing.csv") <(cut -d, -f1,2,5 "$work/$1/vehicle/timing.csv") \
    >/dev/null || fail "$1: vehicle/timing.csv's steps or forces differ"
}
steps_once() {  # CSV: its first column is the steps 0..steps-1, once each, in order
  [[ "$(tail -n +2 "$1" | cut -d, -f1 | tr '\n' ' ')" == "$(seq -s ' ' 0 $((steps - 1))) " ]] ||
    fail "$1 does not hold steps 0..$((steps - 1)) once each"
}
rank_rows_match() {  # out: terrain/ranks.csv holds a row for each of the 2 terrain ranks per step,
  # whose contacts add up to solver.csv's, whose owned grains add up to the bed's 3,100 (no patch: none
  # stored), and whose clocks are positive (work) or not negative (halo, a part of the step)
  python3 - "$work/$1/terrain/ranks.csv" "$work/$1/terrain/solver.csv" "${2:-}" <<'PY' || fail "$1: terrain/ranks.csv"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
solver = {r["step"]: float(r["contacts"]) for r in csv.DictReader(open(sys.argv[2]))}
steps = sorted(solver, key=int)
assert [(r["step"], r["rank"]) for r in rows] == [(s, k) for s in steps for k in ("0", "1")], "not 2 rows per step in order"
for s in steps:
    mine = [r for r in rows if r["step"] == s]
    assert sum(float(r["contacts"]) for r in mine) == solver[s], "step %s: contacts %s != solver.csv's %s" % (
        s, [r["contacts"] for r in mine], solver[s])
    if sys.argv[3] != "patch":
        assert sum(float(r["owned"]) for r in mine) == 3100, "step %s: owned %s" % (s, [r["owned"] for r in mine])
    for r in mine:
        assert float(r["work_s"]) > 0 and float(r["solve_s"]) > 0 and float(r["halo_s"]) >= 0, r
        assert float(r["ghosts"]) > 0, "step %s rank %s holds no ghosts" % (s, r["rank"])
PY
}
crash_and_resume() {  # out, terrain config, uninterrupted out
  start "$1" "$2" "--checkpoint-interval $interval"
  # The line of step 100, then vehicle.csv's row of t = 0.12 (its 6th; one every 0.02 s): a row
  # after the checkpoint, which the resumed run must cut back. Polled often: the next checkpoint
  # is 30 steps (about 0.6 s here) later.
  for _ in $(seq 3000); do
    grep -q "^vehicle checkpoint step=100 " "$work/$1.log" && (( $(wc -l <"$work/$1/vehicle/vehicle.csv") > 6 )) &&
      break
    kill -0 "$job" 2>/dev/null || fail "$1 ended before its second checkpoint"
    sleep 0.02
  done
  (( $(wc -l <"$work/$1/vehicle/vehicle.csv") > 6 )) || fail "$1: vehicle.csv got no row after the checkpoint"
  kill -KILL "$(pid_of "$job" 0)"
  ! wait "$job" || fail "$1: the killed job exited 0"
  [[ "$(checkpoint_steps "$work/$1.log")" == "50 100 " ]] ||
    fail "$1: the killed run's checkpoints: $(checkpoint_steps "$work/$1.log"), expected 50 100 (killed too late?)"
  cat >"$work/$1.run.json" <<JSON
{"vehicle": {"config": "$robot", "end_time": $end, "checkpoint_interval": $interval},
 "terrain": {"config": "$2", "ranks": 2}}
JSON
  TRACKCOSIM_BUILD=$(dirname "$(dirname "$vehicle")") "$src/tools/trackcosim" run "$work/$1.run.json" \
    --resume "$work/$1" --no-plot >"$work/$1.resumed.log" 2>&1 || fail "$1: --resume exited with $?"
  grep -q "^restart    coupling step 100 " "$work/$1.resumed.log" || fail "$1: the terrain did not resume at step 100"
  grep -q "^=== trackcosim resumed " "$work/$1/run.log" && grep -q "^restart    coupling step 100 " "$work/$1/run.log" ||
    fail "$1: run.log does not hold the resumed run's lines"
  grep -Eq "^cosim steps=$steps terrain_ranks=2 " "$work/$1.resumed.log" || fail "$1: the resumed run did not complete"
  [[ "$(checkpoint_steps "$work/$1.resumed.log")" == "150 " ]] ||
    fail "$1: the resumed run's checkpoints: $(checkpoint_steps "$work/$1.resumed.log"), expected 150"
  same_as "$1" "$3"
  steps_once "$work/$1/vehicle/timing.csv"
  steps_once "$work/$1/terrain/timing.csv"
  steps_once "$work/$1/terrain/solver.csv"
  rank_rows_match "$1" "${4:-}"
}

# The reference: no periodic checkpoints.
start whole "$gravel" ""
finish whole
grep -q "^vehicle cosim steps=$steps " "$work/whole.log" || fail "the reference run did not complete"

# 1. Periodic checkpoints in a run that completes.
start periodic "$gravel" "--checkpoint-interval $interval"
finish periodic
[[ "$(checkpoint_steps "$work/periodic.log")" == "50 100 150 " ]] ||
  fail "checkpoints at steps $(checkpoint_steps "$work/periodic.log"), expected 50 100 150"
[[ -f $work/periodic/vehicle/checkpoint.bin && -f $work/periodic/terrain/checkpoint.bin ]] || fail "no checkpoint files"
! grep -q "stopped" "$work/periodic.log" || fail "a periodic checkpoint stopped the run"
same_as periodic whole
rank_rows_match periodic
echo "ok: checkpoints at steps 50, 100, 150 while the run went on; its outputs are those of the run without them"

# 2. Killed after the second checkpoint, resumed by the launcher from it.
crash_and_resume crash "$gravel" whole
echo "ok: killed after the checkpoint of step 100, resumed from it by the launcher: the outputs of the run never interrupted"

# 3. The same through a moving patch: patch.csv cut back too (its last two columns are the cuts'
# moves, which a resumed patch places anew, and wall seconds).
start whole_patch "$patch_bed" ""
finish whole_patch
crash_and_resume crash_patch "$patch_bed" whole_patch patch
steps_once "$work/crash_patch/terrain/patch.csv"
diff <(cut -d, -f1-8 "$work/whole_patch/terrain/patch.csv") <(cut -d, -f1-8 "$work/crash_patch/terrain/patch.csv") \
  >/dev/null || fail "crash_patch: patch.csv's counts differ from the run never interrupted"
echo "ok: the same through a moving patch, patch.csv holding each step once with the whole run's counts"
