#!/usr/bin/env bash
# tools/anchor/anchor_sweep.py slurm on the local Slurm cluster (fixture slurm): the helical anchor's
# sweep as the three submissions a cluster gets (docs/anchor.md, "On Slurm"): the bed as
# jobs/terrain_run.sbatch, the cases as an array of jobs/anchor_sweep.sbatch after it (afterok),
# the figures as one more job after the array (afterany). A test scenario: the small anchor bed
# of tests/terrain/anchor_test_bed.json, two torques and one pull, 0.1 s per case.
# Checks: the jobs leave the queue within 300 s; the bed's checkpoint, each case's probes.csv
# (the anchor's gid, times to the end), depths.csv with the three cases, both figures, and every
# job's output file where the tool put them (17 s here).
# Usage: anchor_array_run.sh SOURCE_DIR TERRAIN_NODE CLUSTER_DIR
set -euo pipefail
src=$1 terrain=$2 cluster=$3
export SLURM_CONF="$cluster/slurm.conf"
work=$(mktemp -d)
ids=""
cleanup() {
  if [[ -n "$ids" ]]; then scancel $ids 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
cat >"$work/sweeps.json" <<JSON
{"test": {"bed": "$src/tests/terrain/anchor_test_bed.json", "run": "$src/configs/anchor_small.json",
          "torques": [1, 4], "pull_for_torques": 20, "pulls": [30], "torque_for_pulls": 4}}
JSON
/usr/bin/python3 "$src/tools/anchor/anchor_sweep.py" slurm --scenario test --sweeps "$work/sweeps.json" --out "$work/out" \
  --terrain-node "$terrain" --threads 1 --iterations 15 --press 0 --torque-from 0.03 --pull-from 0.07 \
  --end-time 0.1 --sbatch-args="--time=00:10:00" >"$work/submit.log" 2>&1 ||
  { cat "$work/submit.log"; echo "FAIL: anchor_sweep.py slurm"; exit 1; }
cat "$work/submit.log"
bed=$(sed -n 's/^bed_job=//p' "$work/submit.log")
array=$(sed -n 's/^array_job=\([0-9]*\).*/\1/p' "$work/submit.log")
plot=$(sed -n 's/.*plot_job=\([0-9]*\).*/\1/p' "$work/submit.log")
[[ -n "$bed" && -n "$array" && -n "$plot" ]] || { echo "FAIL: the tool did not print the three job ids"; exit 1; }
ids="$bed $array $plot"

deadline=$(( $(date +%s) + 300 ))
while squeue -h -j "$bed,$array,$plot" 2>/dev/null | grep -q .; do
  (( $(date +%s) < deadline )) || { squeue; cat "$work"/out/*.out 2>/dev/null; echo "FAIL: the jobs did not end within 300 s"; exit 1; }
  sleep 2
done
ids=""
for f in bed.out case-0.out case-1.out case-2.out plot.out; do
  [[ -f "$work/out/$f" ]] || { ls "$work/out"; echo "FAIL: no job output $f"; exit 1; }
done
[[ -f "$work/out/bed/checkpoint.bin" ]] || { cat "$work/out/bed.out"; echo "FAIL: the bed job left no checkpoint"; exit 1; }
for png in depth_torques.png depth_pulls.png; do
  [[ -s "$work/out/$png" ]] || { cat "$work/out/plot.out"; echo "FAIL: the plot job drew no $png"; exit 1; }
done
python3 - "$work/out" <<'PY' || { cat "$work"/out/case-*.out; echo "FAIL: the cases' outputs"; exit 1; }
import csv, json, os, sys
out = sys.argv[1]
plan = json.load(open(os.path.join(out, "sweep.json")))
names = [c["name"] for c in plan["cases"]]
assert names == ["torque_1", "torque_4", "pull_30"], names
rows = {r["case"]: r for r in csv.DictReader(open(os.path.join(out, "depths.csv")))}
assert sorted(rows) == sorted(names), rows.keys()
for name in names:
    case = json.load(open(os.path.join(out, name, "case.json")))
    times = [float(r["t"]) for r in csv.DictReader(open(os.path.join(out, name, "probes.csv")))
             if int(r["gid"]) == case["gid"]]
    assert times and abs(times[-1] - 0.1) < 0.01, (name, times[-3:])
print("cases:", ", ".join(f"{n} depth_end {float(rows[n]['depth_end']):.4f} m" for n in names))
PY
echo "anchor sweep on Slurm: bed job $bed, array $array (3 tasks), plot job $plot: all ended with their outputs"
