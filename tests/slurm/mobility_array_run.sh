#!/usr/bin/env bash
# jobs/mobility_array.sbatch on the local Slurm cluster (fixture slurm): a drawbar-pull series as
# a 2-task array (each task one co-simulation, `--launcher srun`: the vehicle and one terrain rank
# as one srun step) and the collect job after it (afterok), submitted from the source tree as
# jobs/README.md says. A test series: the light robot on the short test bed
# (tests/configs/robot_test_bed.json), slips 0.1 and 0.5, 0.36 s per point (18 rows of 20 ms).
# Checks: the jobs leave the queue within 300 s; each point's rig.csv reaches the end time through
# the four phases; dbp.csv has both slips in order with their windows; dbp.png is drawn; the job
# output files lie where -o put them.
# Usage: mobility_array_run.sh SOURCE_DIR BUILD_DIR CLUSTER_DIR
set -euo pipefail
src=$1 build=$2 cluster=$3
export SLURM_CONF="$cluster/slurm.conf"
work=$(mktemp -d)
ids=""
cleanup() {
  if [[ -n "$ids" ]]; then scancel $ids 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
mkdir "$work/logs"
cat >"$work/run.json" <<JSON
{"vehicle": {"config": "$src/configs/vehicles/ndia_light_robot_toothed.json", "coupling_scheme": "sequential"},
 "terrain": {"config": "$src/tests/configs/robot_test_bed.json", "ranks": 1}}
JSON
common="ALL,TRACKCOSIM_BUILD=$build,CONFIG=$work/run.json,VALUES=0.1:0.5,OUT=$work/out"
args="--phases 0.05,0.1,0.05 --end-time 0.36 --track-speed 0.3"
# MOBILITY_ARGS holds commas, which --export's list would split: it goes in the environment (ALL).
export MOBILITY_ARGS=$args
array=$(cd "$src" && sbatch --parsable --array=0-1 -n 2 -o "$work/logs/mobility-%A_%a.out" \
          --export="$common" jobs/mobility_array.sbatch)
collect=$(cd "$src" && sbatch --parsable --dependency="afterok:$array" -n 1 -o "$work/logs/collect-%j.out" \
            --export="$common,COLLECT=1" jobs/mobility_array.sbatch)
ids="$array $collect"
echo "array job $array, collect job $collect"
deadline=$(( $(date +%s) + 300 ))
while squeue -h -j "$array,$collect" 2>/dev/null | grep -q .; do
  (( $(date +%s) < deadline )) || { squeue; tail -n 20 "$work"/logs/*; echo "FAIL: the jobs did not end within 300 s"; exit 1; }
  # A failed array task leaves the collect job pending for ever (afterok): fail now, with the logs.
  if squeue -h -j "$collect" -o %r 2>/dev/null | grep -q DependencyNeverSatisfied; then
    tail -n 20 "$work"/logs/*; echo "FAIL: an array task failed"; exit 1
  fi
  sleep 2
done
ids=""
for f in "mobility-${array}_0.out" "mobility-${array}_1.out" "collect-${collect}.out"; do
  [[ -f "$work/logs/$f" ]] || { ls "$work/logs"; echo "FAIL: no job output $f"; exit 1; }
done
cat "$work/logs/collect-${collect}.out"
grep -q "^mobility test=dbp points=2 done=2 failed=0 " "$work/logs/collect-${collect}.out" ||
  { tail -n 30 "$work"/logs/*; echo "FAIL: the collect job did not read both points"; exit 1; }
[[ -s "$work/out/dbp.png" ]] || { echo "FAIL: no dbp.png"; exit 1; }
for slip in 0.1 0.5; do
  rig="$work/out/dbp_$slip/vehicle/rig.csv"
  [[ -f "$rig" ]] || { echo "FAIL: no $rig"; exit 1; }
  [[ $(cut -d, -f2 "$rig" | tail -n +2 | uniq | paste -sd' ') == "rest ramp settle measure" ]] ||
    { echo "FAIL: $rig phases"; exit 1; }
  awk -F, 'END {exit !($1 > 0.3599 && $1 < 0.3601)}' "$rig" || { echo "FAIL: $rig ends before 0.36 s"; exit 1; }
done
[[ $(cut -d, -f1 "$work/out/dbp.csv" | paste -sd' ') == "slip 0.1 0.5" ]] || { cat "$work/out/dbp.csv"; echo "FAIL: dbp.csv rows"; exit 1; }
echo "the array ran both points through srun and the collect job made dbp.csv and dbp.png"
