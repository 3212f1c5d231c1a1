#!/usr/bin/env bash
# The light robot's mobility curves on gravel (docs/mobility.md): the toothed NDIA robot on the
# soil bin of configs/mobility_robot_terrain.json (15,456 grains of 20 mm radius in 12 layers, the
# shipped gravel: APGD 100, rolling resistance 0.5, compliant contacts), every point a
# co-simulation of its own through `tools/trackcosim mobility`, two at a time, then the drawbar
# pull at two slips again with twice the solver's iterations and with every step halved (the
# convergence check of docs/ccp.md: a curve that moves with the budget is not yet an answer):
#   dbp          slips 0, 0.1, 0.2, 0.4, 0.7 at a track speed of 0.3 m/s
#   resistance   towed (sprockets free) at 0.3 m/s
#   grade        slopes 0, 10, 20 degrees, free running at 0.3 m/s
#   obstacle     the speed bump of configs/mobility_robot_bump_terrain.json at 0.5 m/s
# Each point: rest 0.2, ramp 0.5, settle 0.5, measure 1.0 s (2.2 s; the obstacle 2.0 s). On the
# former bin (9,548 grains in 4 layers, Jacobi 40) a point took 4 to 5 min here with two at a time
# and the whole script about 35 min; on this one it is several times that (not yet timed). The
# tables and figures land in OUT/<test>/ (default output/mobility_bench), the convergence
# variants' run files in OUT/check/; the script ends with each test's CSV.
#
#   bench/run_mobility.sh [BUILD_DIR]     (default build)
# Environment: OUT, JOBS (points at a time, default 2), SLIPS, GRADES, SPEED (track speed, 0.3),
# CHECK_SLIPS (the convergence check's slips, default 0.1,0.4).
set -euo pipefail
source "$(dirname "$0")/../tools/script_help.sh"
build=$(cd "${1:-build}" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
[[ -x "$build/vehicle_node/vehicle_node" && -x "$build/terrain_node/terrain_node" ]] ||
  { echo "run_mobility.sh: vehicle_node or terrain_node not built in $build" >&2; exit 2; }
export TRACKCOSIM_BUILD=$build OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive
out=${OUT:-output/mobility_bench} jobs=${JOBS:-2} speed=${SPEED:-0.3}
slips=${SLIPS:-0,0.1,0.2,0.4,0.7} grades=${GRADES:-0,10,20} check_slips=${CHECK_SLIPS:-0.1,0.4}
cd "$src"
mobility() { tools/trackcosim mobility "$@" --jobs "$jobs"; }
mobility dbp configs/mobility_robot.json --slips "$slips" --track-speed "$speed" --out "$out/dbp"
mobility resistance configs/mobility_robot.json --speeds "$speed" --out "$out/resistance"
mobility grade configs/mobility_robot.json --slopes "$grades" --track-speed "$speed" --out "$out/grade"
mobility obstacle configs/mobility_robot_bump.json --speed 0.5 --end-time 2.0 --out "$out/obstacle"
# Convergence: the drawbar-pull points again with the terrain solver's iterations doubled, and
# with the terrain, coupling and vehicle steps halved (bench/gravel_convergence.py writes both
# variants' run files the way its own study does).
mkdir -p "$out/check"
for variant in iterations step; do
  run_file=$(python3 -c 'import sys; sys.path.insert(0, "bench"); from gravel_convergence import variant_files
print(variant_files("configs/mobility_robot.json", sys.argv[1], sys.argv[2])[0])' "$variant" "$out/check")
  mobility dbp "$run_file" --slips "$check_slips" --track-speed "$speed" --out "$out/dbp_$variant"
done
for t in dbp resistance grade obstacle dbp_iterations dbp_step; do
  echo "## $t"
  column -ts, "$out/$t/${t%_*}.csv"
done
