#!/usr/bin/env bash
# terrain_node --config on 1, 2 and 3 ranks writes the same files: probes.csv and the .pvd byte
# for byte, every snapshot frame the same particles with the same values as written (merged over
# its pieces and sorted by gid: a frame is one piece per rank, written by that rank, never
# gathered, and the pieces hold every particle once; run_folder_checks.py), stats.csv equal in
# every column but the wall times (the residual too: an exact sum over the ranks),
# heightmap.csv byte for byte and settle.json (bed statistics) equal but for the wall time;
# run.json has every rank's start-up and peak memory. Then a run stopped at step 30 on 2 ranks
# (--checkpoint-at) and continued on 3 (--restart) ends with the same probes as the run that
# never stopped.
# Usage: same_outputs_any_rank_count.sh TERRAIN_NODE MPIEXEC
set -euo pipefail
terrain_node=$1
mpiexec=$2
checks="$(dirname "$0")/run_folder_checks.py"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive

cat > "$work/bed.json" <<'JSON'
{
  "container": {"min": [0, 0, 0], "max": [0.22, 0.22, 0.3]},
  "particles": [{"kind": "layers", "min": [0, 0], "max": [0.22, 0.22], "bottom": 0.01, "layers": 3,
                 "radius": 0.01, "seed": 3}],
  "step_size": 1e-3,
  "end_time": 0.06,
  "solver": {"method": "jacobi", "max_iterations": 25, "max_recovery_speed": 0.5},
  "collision": {"envelope": 0.001},
  "output": {"probes": [5, 77, 150, 304], "probe_interval": 5, "snapshot_interval": 20, "progress_interval": 0}
}
JSON

run() {  # ranks, out, extra args
  local ranks=$1 out=$2
  shift 2
  "$mpiexec" -n "$ranks" --oversubscribe "$terrain_node" --config "$work/bed.json" --out "$work/$out" "$@" >"$work/$out.log"
}
run 1 one
run 2 two --layout slab:x
run 3 three --layout slab:y

same_stats() {  # stats.csv without the wall-time columns (8 on)
  cut -d, -f1-7 "$1"
}
declare -A count=([one]=1 [two]=2 [three]=3)
for run in one two three; do
  python3 "$checks" frames "$work/$run" "${count[$run]}" >"$work/$run.frames"
  python3 "$checks" memory "$work/$run" "${count[$run]}"
done
for other in two three; do
  cmp "$work/one/probes.csv" "$work/$other/probes.csv"
  cmp "$work/one/particles.pvd" "$work/$other/particles.pvd"
  cmp "$work/one.frames" "$work/$other.frames"
  diff <(same_stats "$work/one/stats.csv") <(same_stats "$work/$other/stats.csv")
  cmp "$work/one/heightmap.csv" "$work/$other/heightmap.csv"
  diff <(grep -v wall_seconds "$work/one/settle.json") <(grep -v wall_seconds "$work/$other/settle.json")
done
[[ $(ls "$work"/one/particles/*.pvtu | wc -l) -ge 3 ]]
grep -q "^memory     peak RSS per rank " "$work/three.log"
grep -q '"ranks": 3' "$work/three/run.json"
grep -q '"layout": "slab:y"' "$work/three/run.json"

run 2 stop --layout slab:x --checkpoint-at 30
[[ -f "$work/stop/checkpoint.bin" ]]
run 3 continued --layout grid:1x3x1 --restart "$work/stop/checkpoint.bin"
grep -q "restart    from step 30" "$work/continued.log"
# The continued run's probes start after step 30: they must equal the tail of the full run's.
tail -n 4 "$work/continued/probes.csv" > "$work/continued.tail"
tail -n 4 "$work/one/probes.csv" > "$work/one.tail"
cmp "$work/continued.tail" "$work/one.tail"
echo "same outputs on 1, 2 and 3 ranks; restart on 3 ranks of a 2-rank checkpoint continues exactly"
