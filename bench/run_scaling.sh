#!/usr/bin/env bash
# Strong and weak scaling of the distributed terrain, printed as the tables of the reference
# (Negrut et al. 2018, tables 1-2): ranks, particles, wall time per simulated second, parallel
# efficiency (strong: E_s = T1 / (n Tn); weak: E_w = T1 / Tn), and the time per step spent in
# messages (ghost refresh + warm start, and the solver's per-iteration exchange).
#
#   bench/run_scaling.sh [BUILD_DIR]      (default build; needs bench/terrain_scaling built)
# bench/run_scaling_study.sh measures what the scaling model needs (docs/scaling.md).
# Environment: RANKS (default "1 2"), OVERSUBSCRIBED (default "4": run separately, marked, since
# more ranks than cores share them), STRONG_PARTICLES (40000), WEAK_PER_RANK (20000), STEPS (10).
set -euo pipefail
source "$(dirname "$0")/../tools/script_help.sh"
build=${1:-build}
exe="$build/bench/terrain_scaling"
[[ -x "$exe" ]] || { echo "run_scaling.sh: $exe not built (cmake --build $build --target bench_terrain_scaling)" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive
ranks=${RANKS:-"1 2"}
oversubscribed=${OVERSUBSCRIBED:-"4"}
strong=${STRONG_PARTICLES:-40000}
weak=${WEAK_PER_RANK:-20000}
steps=${STEPS:-10}

field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }

table() {  # kind (strong|weak), then the result lines
  local kind=$1
  shift
  printf '\n%s scaling (%s)\n' "$kind" "$([[ $kind == strong ]] && echo "E_s = T1 / (n Tn)" || echo "E_w = T1 / Tn")"
  printf '%6s %10s %22s %8s %16s %22s\n' ranks particles "s per simulated s" E "exchange ms/step" "solver exchange ms/step"
  local t1=""
  for line in "$@"; do
    local n p t e x
    n=$(field ranks "$line"); p=$(field particles "$line"); t=$(field seconds_per_simulated_second "$line")
    e=$(field exchange_ms_per_step "$line"); x=$(field solver_exchange_ms_per_step "$line")
    [[ -z $t1 ]] && t1=$t
    local eff
    if [[ $kind == strong ]]; then eff=$(awk -v a="$t1" -v b="$t" -v n="$n" 'BEGIN{printf "%.3f", a/(n*b)}')
    else eff=$(awk -v a="$t1" -v b="$t" 'BEGIN{printf "%.3f", a/b}'); fi
    local mark=""
    for o in $oversubscribed; do [[ $n == "$o" ]] && mark=" (oversubscribed)"; done
    printf '%6s %10s %22s %8s %16s %22s%s\n' "$n" "$p" "$t" "$eff" "$e" "$x" "$mark"
  done
}

run() { mpiexec -n "$1" --oversubscribe "$exe" "${@:2}" --steps "$steps"; }

strong_lines=() weak_lines=()
for n in $ranks $oversubscribed; do
  line=$(run "$n" --particles "$strong"); echo "$line"; strong_lines+=("$line")
  line=$(run "$n" --particles-per-rank "$weak"); echo "$line"; weak_lines+=("$line")
done
table strong "${strong_lines[@]}"
table weak "${weak_lines[@]}"
