#!/usr/bin/env bash
# The loaded-bed comparison of docs/ccp.md ("Heavy loads"): bench/loaded_bed on one settled bed
# of N grains (default 10^4, 25 mm gravel) under 5, 10 and 20 kN, for the settings the table
# compares. Each group settles its own copy of the same bed (same seed: the same bed), then
# prints a trace per case and the parseable lines
#   loaded_bed N=<n> load_N=<f> method=<m> iterations=<k> sinkage_m=<s> max_grain_speed=<v> ...
# and this script ends with those lines alone, the table's rows.
#
#   bench/run_loaded_bed.sh [BUILD_DIR]     (default build)
# Environment: GRAINS (10000), LOADS (5000,10000,20000), THREADS (1: the table's step times are
# one thread's), HOLD (0.2 s), OUT (a file for the whole output; default a temporary one).
set -euo pipefail
source "$(dirname "$0")/../tools/script_help.sh"
build=${1:-build}
exe="$build/bench/loaded_bed"
[[ -x "$exe" ]] || { echo "run_loaded_bed.sh: $exe not built" >&2; exit 2; }
export OMP_WAIT_POLICY=passive
grains=${GRAINS:-10000} loads=${LOADS:-5000,10000,20000} threads=${THREADS:-1} hold=${HOLD:-0.2}
out=${OUT:-$(mktemp)}
common=(--grains "$grains" --loads "$loads" --threads "$threads" --hold "$hold" --print-every 50)
{
  # Smooth spheres (the CCP of today) against rolling resistance, at two iteration counts.
  "$exe" "${common[@]}" --methods apgd --rolling-friction 0,0.5 --iterations 100,200
  # Compliant grain contacts on top (1e6 N/m: 0.1 mm under 100 N), at half and the full budget.
  "$exe" "${common[@]}" --methods apgd --rolling-friction 0.5 --stiffness 1e6 --iterations 50,100
  # Their convergence: twice the budget at 10 kN.
  "$exe" "${common[@]}" --loads 10000 --methods apgd --rolling-friction 0.5 --stiffness 1e6 --iterations 200
} | tee "$out"
echo "# rows of the table ($out holds the traces):"
grep '^loaded_bed ' "$out"
