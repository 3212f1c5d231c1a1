#!/usr/bin/env bash
# Time per coupling step of each subsystem and of the exchange (as table 3 of Negrut et al.
# 2018), for 1 and 2 terrain ranks: the default run (the light robot on 64,064 gravel spheres,
# configs/cosim_gravel.json), shortened to END_TIME, through the launcher. Means over the coupling steps after the first 50, in ms:
#   ranks, then every column of the run's merged timing.csv after step and t (vehicle compute and wait,
#   terrain wait and compute, the terrain's stages in step order, halo, exchange), and the share of the step that is exchange + waiting on the terrain side.
# Usage: bench/run_cosim_bench.sh [BUILD_DIR]   Environment: RANKS (default "1 2"), END_TIME (0.5),
#   TERRAIN (configs/cosim_gravel_terrain.json), COUPLING_STEP (1e-3; must match the terrain's),
#   COUPLING_SCHEME (sequential, as the default run).
set -euo pipefail
source "$(dirname "$0")/../tools/script_help.sh"
build=${1:-build}
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TRACKCOSIM_BUILD=$(cd "$build" && pwd) OMP_NUM_THREADS=1
counts=${RANKS:-1 2}
for n in $counts; do
  cat > "$work/run.json" <<JSON
{"vehicle": {"config": "$src/configs/vehicles/ndia_light_robot.json", "end_time": ${END_TIME:-0.5},
             "coupling_step": ${COUPLING_STEP:-1e-3}, "coupling_scheme": "${COUPLING_SCHEME:-sequential}"},
 "terrain": {"config": "$src/${TERRAIN:-configs/cosim_gravel_terrain.json}", "ranks": $n}, "output": "$work/np$n"}
JSON
  "$src/tools/trackcosim" run "$work/run.json" >"$work/np$n.log" 2>&1 || { cat "$work/np$n.log"; exit 1; }
  awk -F, -v n="$n" 'NR == 1 {
      if (n == first) { printf "%5s", "ranks"; for (i = 3; i <= NF; ++i) printf " %s", $i; print " xchg_share" }
      for (i = 3; i <= NF; ++i) col[$i] = i
      next
    } NR > 51 {
      for (i = 3; i <= NF; ++i) s[i] += $i; c++
    } END {
      x = s[col["terrain_exchange"]]; w = s[col["terrain_wait"]]; k = s[col["terrain_compute"]]
      printf "%5d", n; for (i = 3; i <= NF; ++i) printf " %.3f", 1e3 * s[i] / c; printf " %.4f\n", (x + w) / (w + k + x)
    }' first="${counts%% *}" "$work/np$n/timing.csv"
  tail -n 1 "$work/np$n.log"
done
