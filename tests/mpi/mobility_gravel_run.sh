#!/usr/bin/env bash
# The mobility tests on gravel, short (docs/mobility.md): the toothed light robot on the soil bin of
# tests/configs/robot_mobility_test_bed.json (about 4,400 grains in 2 layers, Jacobi with rolling
# resistance 0.5: cheap, not the shipped soil), each point 1.0 s
# (rest 0.1, ramp 0.2, settle 0.2, measure 0.5 s), through `tools/trackcosim mobility`:
#  - drawbar pull against slip at 0.1 and 0.6: the pull rises with slip by more than twice the
#    error of the difference (the batch-means standard errors of the two points), and DBP / W stays
#    below the bed's friction coefficient 0.7 (the soil cannot push harder than its grains slide);
#  - motion resistance of the towed robot (sprockets free) at 0.3 m/s: positive, by more than twice
#    its standard error (towing through gravel takes force);
#  - the slip 0.6 point on 2 terrain ranks: rig.csv byte for byte the one of 1 rank (Jacobi), and
#    the same row in dbp.csv.
# Usage: mobility_gravel_run.sh VEHICLE_NODE TERRAIN_NODE MPIEXEC SOURCE_DIR
set -euo pipefail
vehicle=$1 terrain=$2 mpiexec=$3 src=$4
work=$(mktemp -d)
trap '[[ -n ${KEEP_WORK:-} ]] || rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive
export TRACKCOSIM_BUILD
TRACKCOSIM_BUILD=$(dirname "$(dirname "$vehicle")")
PATH=$(dirname "$mpiexec"):$PATH
run_file() {  # ranks
  cat <<JSON
{"vehicle": {"config": "$src/configs/vehicles/ndia_light_robot_toothed.json", "coupling_scheme": "sequential"},
 "terrain": {"config": "$src/tests/configs/robot_mobility_test_bed.json", "ranks": $1}}
JSON
}
run_file 1 >"$work/one.json"
run_file 2 >"$work/two.json"
# The phases cut short for a test: rest 0.1, ramp 0.2, settle 0.2 s, then 0.5 s of measurement.
short="--phases 0.1,0.2,0.2 --end-time 1.0 --jobs 2"
mobility() { "$src/tools/trackcosim" mobility "$@" >"$work/$1.log" 2>&1 || { cat "$work/$1.log"; exit 1; }; tail -n 1 "$work/$1.log"; }

mobility dbp "$work/one.json" --slips 0.1,0.6 --track-speed 0.3 $short --out "$work/dbp"
mobility resistance "$work/one.json" --speeds 0.3 $short --out "$work/resistance"
mobility dbp "$work/two.json" --slips 0.6 --track-speed 0.3 $short --out "$work/dbp2"
column -ts, "$work/dbp/dbp.csv" "$work/resistance/resistance.csv" | cut -c1-200

field() {  # csv row column: the value in row (1 = first data row) of the named column
  awk -F, -v row="$2" -v name="$3" 'NR == 1 {for (i = 1; i <= NF; i++) if ($i == name) c = i}
                                    NR == row + 1 {print $c}' "$1"
}
d1=$(field "$work/dbp/dbp.csv" 1 drawbar_pull_n) e1=$(field "$work/dbp/dbp.csv" 1 drawbar_pull_se_n)
d2=$(field "$work/dbp/dbp.csv" 2 drawbar_pull_n) e2=$(field "$work/dbp/dbp.csv" 2 drawbar_pull_se_n)
w2=$(field "$work/dbp/dbp.csv" 2 dbp_over_weight)
echo "DBP at slip 0.1: $d1 +- $e1 N; at 0.6: $d2 +- $e2 N (DBP/W $w2)"
awk -v a="$d1" -v ea="$e1" -v b="$d2" -v eb="$e2" 'BEGIN{exit !(b - a > 2 * sqrt(ea * ea + eb * eb))}' ||
  { echo "FAIL: the drawbar pull does not rise with slip beyond its error bars"; exit 1; }
awk -v w="$w2" 'BEGIN{exit !(w < 0.7)}' || { echo "FAIL: DBP/W $w2 at or above the bed friction 0.7"; exit 1; }
r=$(field "$work/resistance/resistance.csv" 1 motion_resistance_n) er=$(field "$work/resistance/resistance.csv" 1 motion_resistance_se_n)
echo "motion resistance towed at 0.3 m/s: $r +- $er N"
awk -v r="$r" -v e="$er" 'BEGIN{exit !(r > 2 * e && r > 0)}' || { echo "FAIL: the motion resistance is not positive"; exit 1; }

cmp "$work/dbp/dbp_0.6/vehicle/rig.csv" "$work/dbp2/dbp_0.6/vehicle/rig.csv"
[[ $(sed -n 2p "$work/dbp2/dbp.csv") == "$(sed -n 3p "$work/dbp/dbp.csv")" ]] ||
  { echo "FAIL: the slip 0.6 row differs between 1 and 2 terrain ranks"; exit 1; }
echo "the same drawbar-pull point on 1 and 2 terrain ranks"
