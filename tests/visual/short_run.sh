#!/usr/bin/env bash
# The fixture of the visualisation tests: one short co-simulation through the launcher, the
# NDIA light robot on 3,100 gravel spheres over 2 terrain ranks for 0.3 s, its sprockets starting
# to turn at once, written to OUT_DIR (kept for the tests that read it: VTK series, plots,
# rendered frames). Vehicle VTK frames every 0.02 s, terrain snapshots every 0.05 s.
# Usage: short_run.sh BUILD_DIR SOURCE_DIR OUT_DIR
set -euo pipefail
build=$1 src=$2 out=$3
rm -rf "$out"
mkdir -p "$out"
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive
robot="$out/../short_run_robot.json"
sed 's|^  "driver": {.*|  "driver": { "mode": "speed", "both": [[0, 0], [0.1, 4]] },|' \
  "$src/configs/vehicles/ndia_light_robot.json" >"$robot"
grep -q '"both": \[\[0, 0\], \[0.1, 4\]\] }' "$robot" || { echo "FAIL: could not set the driver"; exit 1; }
cat >"$out/../short_run.json" <<JSON
{"vehicle": {"config": "$robot", "end_time": 0.3, "coupling_scheme": "sequential"},
 "terrain": {"config": "$src/tests/visual/short_run_terrain.json", "ranks": 2}, "output": "$out"}
JSON
TRACKCOSIM_BUILD=$build "$src/tools/trackcosim" run "$out/../short_run.json" >"$out/../short_run.log" 2>&1 ||
  { cat "$out/../short_run.log"; exit 1; }
tail -n 3 "$out/../short_run.log"
