#!/usr/bin/env bash
# The M113's drawbar pull against slip and its towed resistance on its gravel (issue "Real vehicles
# driven to the end on real gravel", item 3; docs/mobility.md, "The M113 on gravel"): every point a
# co-simulation of configs/mobility_m113.json through `tools/trackcosim mobility`, one at a time
# (2 terrain ranks and the vehicle fill this machine's 2 cores), 1.0 s of rest (the rest damping
# of configs/vehicles/m113.json ends at 0.5 s), a 0.5 s ramp to 1 m/s of track speed, 0.5 s to
# settle and 1.5 s of measurement. About 30 minutes per point here, six points: start it in the
# background with the machine otherwise idle; run it again to continue a stopped series: finished
# points are read, a point that stopped resumes from its checkpoint
# (docs/mobility.md, "Long points"), then COLLECT=1 makes the tables from the points present.
#
#   bench/run_mobility_m113.sh
# Environment: OUT (default output/mobility_m113), SLIPS (0,0.1,0.2,0.4,0.7), SPEED (1.0 m/s),
# TESTS (dbp,resistance: which series; resistance alone runs only the towed point), COLLECT (1:
# only make the tables), TRACKCOSIM_BUILD.
set -euo pipefail
source "$(dirname "$0")/../tools/script_help.sh"
src=$(cd "$(dirname "$0")/.." && pwd)
cd "$src"
out=${OUT:-output/mobility_m113} slips=${SLIPS:-0,0.1,0.2,0.4,0.7} speed=${SPEED:-1.0}
export OMP_WAIT_POLICY=passive
phases=(--phases 1.0,0.5,0.5 --end-time 3.5 --jobs 1)
collect=()
[[ ${COLLECT:-0} == 1 ]] && collect=(--collect)
tests=",${TESTS:-dbp,resistance},"
[[ $tests == *,dbp,* ]] &&
  tools/trackcosim mobility dbp configs/mobility_m113.json --slips "$slips" --track-speed "$speed" "${phases[@]}" \
    --out "$out/dbp" "${collect[@]}"
[[ $tests == *,resistance,* ]] &&
  tools/trackcosim mobility resistance configs/mobility_m113.json --speeds "$speed" "${phases[@]}" \
    --out "$out/resistance" "${collect[@]}"
exit 0
