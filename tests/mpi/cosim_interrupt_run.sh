#!/usr/bin/env bash
# Ctrl-C on `tools/trackcosim run` (docs/protocol.md, "Checkpoints"): SIGINT to the launcher's
# whole process group, as a terminal sends it (the launcher and mpirun; Open MPI puts the ranks
# in groups of their own and passes the stop on). Both programs stop at one coupling step with
# their checkpoints; the launcher says it was interrupted and prints the exact command line that
# continues the run, exits with status 130 (docs/exit-status.md), and that command, run as
# printed, completes the run. The light robot on a rigid plane (configs/cosim_plane_terrain.json),
# 1 terrain rank. Whichever program sees the stop first, and whichever signal reaches the ranks
# (mpirun's SIGTERM or the launcher's SIGUSR1), the outcome is the same.
# Usage: cosim_interrupt_run.sh VEHICLE_NODE TERRAIN_NODE MPIEXEC SOURCE_DIR
set -euo pipefail
vehicle=$1 src=$4
work=$(mktemp -d)
group=""
trap '[[ -z $group ]] || kill -KILL -- "-$group" 2>/dev/null || true; rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive TRACKCOSIM_BUILD=$(dirname "$(dirname "$vehicle")")
fail() { echo "FAIL: $*"; cat "$work"/*.log 2>/dev/null; exit 1; }
write_run_file() {  # END_TIME
  cat >"$work/run.json" <<JSON
{"vehicle": {"config": "$src/configs/vehicles/ndia_light_robot.json", "end_time": $1},
 "terrain": {"config": "$src/configs/cosim_plane_terrain.json", "ranks": 1}, "output": "$work/run"}
JSON
}
write_run_file 100  # long enough that only the interrupt ends it

# setsid: the launcher leads a process group of its own, which the SIGINT then goes to.
setsid "$src/tools/trackcosim" run "$work/run.json" --no-plot >"$work/launcher.log" 2>&1 &
launcher=$!
group=$launcher
for _ in $(seq 1200); do
  [[ -f $work/run/terrain/timing.csv && $(wc -l <"$work/run/terrain/timing.csv") -gt 20 ]] && break
  kill -0 "$launcher" 2>/dev/null || fail "the run ended before coupling"
  sleep 0.1
done
[[ $(wc -l <"$work/run/terrain/timing.csv") -gt 20 ]] || fail "the run did not start coupling within 120 s"
kill -INT -- "-$group"
status=0
wait "$launcher" || status=$?
[[ $status == 130 ]] || fail "the interrupted launcher exited $status, expected 130"
! grep -q "the co-simulation failed" "$work/launcher.log" || fail "the interrupt was reported as a failure"
line=$(grep "^trackcosim: interrupted (SIGINT): both programs stopped at coupling step " "$work/launcher.log") ||
  fail "no line saying the run was interrupted"
k=$(sed 's/.* coupling step \([0-9]*\) .*/\1/' <<<"$line")
resume=${line#*resume with }
[[ $resume == "$src/tools/trackcosim run $work/run.json --resume $work/run" ]] || fail "resume line: $resume"
[[ -f $work/run/vehicle/checkpoint.bin && -f $work/run/terrain/checkpoint.bin ]] || fail "no checkpoints"
grep -Fxq "$resume" "$work/run/stopped.txt" || fail "stopped.txt does not hold the resume command"
echo "ok: $line"

# The printed command continues the run (the run file now ends it 50 steps after the stop).
write_run_file "$(awk -v k="$k" 'BEGIN { printf "%.3f", (k + 50) * 1e-3 }')"
bash -c "$resume --no-plot" >"$work/resumed.log" 2>&1 || fail "the printed resume command exited $?"
grep -q "^restart    coupling step $k " "$work/resumed.log" || fail "the terrain did not resume at step $k"
grep -Eq "^cosim steps=[0-9]+ " "$work/resumed.log" || fail "the resumed run did not complete"
echo "ok: the printed command resumed at coupling step $k and completed the run"
