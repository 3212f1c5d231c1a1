#!/usr/bin/env bash
# --from-checkpoint: a bed settled on 1 rank (a settle section: it stops below the rms-speed
# threshold and writes checkpoint.bin; 2 ranks stop at the same step with the same settle.json
# but the wall time and the same checkpoint.bin byte for byte) starts a NEW run on 2 ranks (t = 0, its own end time and
# outputs). Criterion: that run is the same trajectory as --restart of the same checkpoint on 1
# rank (the old run continued): every probe row equal to the bit but for the time column (t vs
# t + t_settled), the same height map, the same settle statistics but for steps, time and wall
# time; its first probe rows are the checkpoint's bed. --restart and --from-checkpoint together
# are refused.
# Usage: from_checkpoint_run.sh TERRAIN_NODE MPIEXEC
set -euo pipefail
terrain_node=$1 mpiexec=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive
bed() {  # end_time, settle section (or nothing)
  cat <<JSON
{
  "container": {"min": [0, 0, 0], "max": [0.22, 0.22, 0.3]},
  "particles": [{"kind": "layers", "min": [0, 0], "max": [0.22, 0.22], "bottom": 0.01, "layers": 3,
                 "radius": 0.01, "seed": 3}],
  "step_size": 1e-3,
  "end_time": $1,
  "solver": {"method": "jacobi", "max_iterations": 25, "max_recovery_speed": 0.5},
  "collision": {"envelope": 0.001},
  $2
  "output": {"probes": [5, 77, 150, 304], "probe_interval": 5, "snapshot_interval": 0, "progress_interval": 0}
}
JSON
}
bed 1.0 '"settle": {"rms_speed": 0.05, "min_time": 0.1, "check_interval": 10},' > "$work/settle.json"
"$mpiexec" -n 1 "$terrain_node" --config "$work/settle.json" --out "$work/settled" >"$work/settled.log"
grep -q "stop=threshold" "$work/settled.log" || { cat "$work/settled.log"; echo "FAIL: the bed did not settle"; exit 1; }
steps=$(sed -n 's/.*"steps": \([0-9]*\).*/\1/p' "$work/settled/settle.json")
# The settle criterion stops 2 ranks at the same step with the same bed (exact global sums).
"$mpiexec" -n 2 --oversubscribe "$terrain_node" --config "$work/settle.json" --out "$work/settled2" >"$work/settled2.log"
diff <(grep -v wall_seconds "$work/settled/settle.json") <(grep -v wall_seconds "$work/settled2/settle.json") ||
  { echo "FAIL: 1 and 2 ranks settled differently"; exit 1; }
cmp "$work/settled/checkpoint.bin" "$work/settled2/checkpoint.bin"
t_settled=$(python3 -c "print($steps * 1e-3)")

# The old run continued (same bodies, its clock) and a new run on the bed, 50 steps each.
bed "$(python3 -c "print($t_settled + 0.05)")" "" > "$work/restart.json"
bed 0.05 "" > "$work/new.json"
"$mpiexec" -n 1 "$terrain_node" --config "$work/restart.json" --out "$work/restarted" \
  --restart "$work/settled/checkpoint.bin" >"$work/restarted.log"
"$mpiexec" -n 2 --oversubscribe "$terrain_node" --config "$work/new.json" --out "$work/new" \
  --from-checkpoint "$work/settled/checkpoint.bin" >"$work/new.log"
grep -q "start      t = 0 on the bed of" "$work/new.log" || { cat "$work/new.log"; exit 1; }
grep -q '"ranks": 2' "$work/new/run.json"

rows=$(( $(wc -l <"$work/new/probes.csv") - 1 ))
(( rows == 4 * 11 )) || { echo "FAIL: the new run wrote $rows probe rows, expected 44 (steps 0, 5, ..., 50)"; exit 1; }
cmp <(cut -d, -f2- "$work/new/probes.csv") <(cut -d, -f2- "$work/restarted/probes.csv") ||
  { echo "FAIL: the new run's trajectory differs from the restarted run's"; exit 1; }
first_t=$(sed -n 2p "$work/new/probes.csv" | cut -d, -f1)
last_t=$(tail -n 1 "$work/new/probes.csv" | cut -d, -f1)
[[ $first_t == 0 ]] || { echo "FAIL: the new run starts at t = $first_t"; exit 1; }
python3 -c "assert abs($last_t - 0.05) < 1e-12, $last_t"
cmp "$work/new/heightmap.csv" "$work/restarted/heightmap.csv"
same_stats() { grep -v -e '"steps"' -e '"time"' -e '"wall_seconds"' "$1"; }
diff <(same_stats "$work/new/settle.json") <(same_stats "$work/restarted/settle.json")

if "$mpiexec" -n 1 "$terrain_node" --config "$work/new.json" --out "$work/both" --restart "$work/settled/checkpoint.bin" \
     --from-checkpoint "$work/settled/checkpoint.bin" >"$work/both.log" 2>&1; then
  echo "FAIL: --restart with --from-checkpoint was accepted"; exit 1
fi
grep -q "excludes" "$work/both.log" || { cat "$work/both.log"; exit 1; }
echo "settled on 1 rank in $steps steps; --from-checkpoint on 2 ranks = --restart on 1 rank for 50 steps (probes to the bit, height map, statistics)"
