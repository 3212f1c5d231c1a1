#!/usr/bin/env bash
# The shipped configs/heightmap_terrain.json, run as shipped (7,389 spheres, 2 threads), must end
# at rest as its comment and configs/README.md say: its settle section stops it at the first
# check where the rms speed is below 0.02 m/s, before the 1.5 s cap (measured: step 460,
# 0.018 m/s, 52 s here with rolling resistance and APGD 100). It used to stop at 0.2 s still moving at 0.079 m/s (issue 17 item 8c).
# Usage: heightmap_terrain_settles.sh TERRAIN_NODE SOURCE_DIR
set -euo pipefail
terrain=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_WAIT_POLICY=passive
"$terrain" --config "$src/configs/heightmap_terrain.json" --threads 2 --out "$work/out" >"$work/log" 2>&1 ||
  { cat "$work/log"; echo "FAIL: terrain_node exited non-zero"; exit 1; }
tail -1 "$work/log"
if grep -qw nan "$work/log"; then cat "$work/log"; echo "FAIL: a nan in the summary"; exit 1; fi
python3 - "$work/out/settle.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
threshold = s.get("rms_speed_threshold", 0.02)  # absent: the config has no settle section
problems = []
if s["stop_reason"] != "threshold":
    problems.append(f"stopped by {s['stop_reason']} at t = {s['time']} s, not at rest")
if not s["rms_speed"] < threshold:
    problems.append(f"rms speed {s['rms_speed']} m/s is not below {threshold} m/s")
if threshold > 0.02:
    problems.append(f"the threshold {threshold} m/s is looser than the 0.02 m/s the docs promise")
if problems:
    sys.exit("FAIL: " + "; ".join(problems))
print(f"heightmap_terrain.json at rest: rms speed {s['rms_speed']:.4f} m/s < {threshold} m/s at t = {s['time']:.3f} s "
      f"(step {s['steps']}), mean depth {s['depth_mean']:.4f} m")
PY
