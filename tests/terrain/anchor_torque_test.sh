#!/usr/bin/env bash
# The helical anchor (docs/anchor.md) goes deeper under a larger torque: the reduced scenario's
# anchor (configs/anchor_small.json, half size, 1.25 kg) on a small bed (tests/terrain/
# anchor_test_bed.json, 900 grains settled for at most 0.4 s), under its own weight only and turned
# from 0.15 s by LOW and HIGH N m, two runs side by side through tools/anchor/anchor_sweep.py, to 0.4 s.
# The torques lie within what the bed resists (docs/anchor.md, "Results": 1 and 4 N m screw this
# anchor in, the paper's torques scaled to it, 37.5 N m and more, spin it out of the bed). At the
# end the HIGH-torque tip must lie deeper than the LOW-torque tip by at least MARGIN m.
# Usage: anchor_torque_test.sh TERRAIN_NODE SOURCE_DIR
set -euo pipefail
terrain=$1 src=$2
low=${ANCHOR_TEST_LOW:-1} high=${ANCHOR_TEST_HIGH:-4} margin=${ANCHOR_TEST_MARGIN:-0.01}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_WAIT_POLICY=passive
cat >"$work/sweeps.json" <<JSON
{"test": {"bed": "$src/tests/terrain/anchor_test_bed.json", "run": "$src/configs/anchor_small.json",
          "torques": [$low, $high], "pull_for_torques": 0, "pulls": [], "torque_for_pulls": 0}}
JSON
start=$(date +%s)
/usr/bin/python3 "$src/tools/anchor/anchor_sweep.py" run --scenario test --sweeps "$work/sweeps.json" --sweep torques \
  --out "$work/out" --terrain-node "$terrain" --jobs 2 --threads 1 --iterations 25 \
  --press 0 --torque-from 0.15 --pull-from 0.5 --end-time 0.4 >"$work/log" 2>&1 ||
  { cat "$work/log"; for f in "$work"/out/*/terrain_node.log; do tail -5 "$f"; done; echo "FAIL: anchor_sweep exited non-zero"; exit 1; }
cat "$work/log"
python3 - "$work/out/depths.csv" "$low" "$high" "$margin" "$(( $(date +%s) - start ))" <<'PY'
import csv, sys
rows = {float(r["torque"]): r for r in csv.DictReader(open(sys.argv[1]))}
low, high, margin, seconds = float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
d_low, d_high = float(rows[low]["depth_end"]), float(rows[high]["depth_end"])
print(f"tip depth at the end: {d_low:.4f} m under {low:g} N m, {d_high:.4f} m under {high:g} N m ({seconds} s)")
if not d_high > d_low + margin:
    sys.exit(f"FAIL: the larger torque ends {d_high - d_low:+.4f} m deeper, not more than {margin} m")
PY
