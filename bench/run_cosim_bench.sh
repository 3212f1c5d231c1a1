#!/usr/bin/env bash
# Time per coupling step of each subsystem and of the exchange (as table 3 of Negrut et al.
# 2018), for 1 and 2 terrain ranks: the default run (the light robot on 52,682 gravel spheres,
# configs/cosim_gravel.json), shortened to END_TIME, through the launcher. Means over the coupling steps after the first 50, in ms:
#   ranks  vehicle  terrain (collision prepare solve integrate halo)  exchange  vehicle_wait  terrain_wait
#   and the share of the step that is exchange + waiting on the terrain side.
# Usage: bench/run_cosim_bench.sh [BUILD_DIR]   Environment: RANKS (default "1 2"), END_TIME (0.5),
#   TERRAIN (configs/cosim_gravel_terrain.json), COUPLING_STEP (1e-3; must match the terrain's),
#   COUPLING_SCHEME (sequential, as the default run).
set -euo pipefail
build=${1:-build}
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TRACKCOSIM_BUILD=$(cd "$build" && pwd) OMP_NUM_THREADS=1
printf '%5s %8s %8s %9s %8s %8s %9s %7s %9s %9s %9s %10s\n' ranks vehicle terrain collision prepare solve integrate \
  halo exchange v_wait t_wait xchg_share
for n in ${RANKS:-1 2}; do
  cat > "$work/run.json" <<JSON
{"vehicle": {"config": "$src/configs/vehicles/ndia_light_robot.json", "end_time": ${END_TIME:-0.5},
             "coupling_step": ${COUPLING_STEP:-1e-3}, "coupling_scheme": "${COUPLING_SCHEME:-sequential}"},
 "terrain": {"config": "$src/${TERRAIN:-configs/cosim_gravel_terrain.json}", "ranks": $n}, "output": "$work/np$n"}
JSON
  "$src/tools/trackcosim" run "$work/run.json" >"$work/np$n.log" 2>&1 || { cat "$work/np$n.log"; exit 1; }
  awk -F, -v n="$n" 'NR > 51 {
      for (i = 3; i <= 12; ++i) s[i] += $i; c++
    } END {
      share = (s[12] + s[5]) / (s[5] + s[6] + s[12])
      printf "%5d %8.3f %8.3f %9.3f %8.3f %8.3f %9.3f %7.3f %9.3f %9.3f %9.3f %10.4f\n", n, 1e3*s[3]/c, 1e3*s[6]/c,
             1e3*s[7]/c, 1e3*s[8]/c, 1e3*s[9]/c, 1e3*s[10]/c, 1e3*s[11]/c, 1e3*s[12]/c, 1e3*s[4]/c, 1e3*s[5]/c, share
    }' "$work/np$n/timing.csv"
  tail -n 1 "$work/np$n.log"
done
