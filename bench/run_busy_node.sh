#!/usr/bin/env bash
# The README's 2-rank example on a busy node (issue 35): configs/settle_small.json (3,240 grains,
# 500 steps) run one after the other as
#   one_rank   terrain_node --threads CORES            (the README's 1-rank line, as a user types it)
#   one_rank_passive  the same with OMP_WAIT_POLICY=passive (what the launcher and job scripts set)
#   two_auto   mpiexec -n 2 terrain_node               (the programs' own wait choice: they see the
#                                                        other work and nap, runtime/mpi_wait_choice.h)
#   two_spin   TRACKCOSIM_MPI_WAIT=spin mpiexec -n 2   (Open MPI's polling, as before the choice)
#   two_yield  TRACKCOSIM_MPI_WAIT=yield mpiexec -n 2  (sched_yield between polls)
#   two_nap    TRACKCOSIM_MPI_WAIT=nap mpiexec -n 2    (naps asked for: on a quiet node, what a
#                                                        wrong "shared" guess would cost)
# in ROUNDS rounds, while LOAD busy processes (`yes`, same priority, default: one per core) keep the
# node busy; LOAD=0 measures a quiet node. Prints one parseable line per run and per variant:
#   busy_node load=<n> round=<k> run=<name> wall_s=<t> mpi_wait=<run.json's choice>
#   busy_node load=<n> run=<name> best_s=<t> worst_s=<t> best_over_one_rank_best=<x>
# (one_rank_best: the fastest of the one_rank and one_rank_passive runs)
#
#   bench/run_busy_node.sh [BUILD_DIR]      (default build; needs terrain_node)
# Environment: LOAD (cores), ROUNDS (2), RUNS ("one_rank one_rank_passive two_auto two_spin"), CONFIG
# (configs/settle_small.json), WORK (a scratch folder, default mktemp).
set -euo pipefail
source "$(dirname "$0")/../tools/script_help.sh"
build=${1:-build}
exe="$build/terrain_node/terrain_node"
[[ -x "$exe" ]] || { echo "run_busy_node.sh: $exe not built" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cores=$(nproc)
load=${LOAD:-$cores} rounds=${ROUNDS:-2} runs=${RUNS:-one_rank one_rank_passive two_auto two_spin}
config=${CONFIG:-configs/settle_small.json}
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"

load_pids=()
stop_load() { ((${#load_pids[@]})) && kill "${load_pids[@]}" 2>/dev/null; wait 2>/dev/null || true; }
trap stop_load EXIT
for ((i = 0; i < load; i++)); do yes > /dev/null & load_pids+=($!); done
((load > 0)) && sleep 2  # the programs look at the node's busy cores for 0.2 s as they start

run_one() {  # run_one NAME OUT: runs variant NAME into folder OUT
  case $1 in
    one_rank) "$exe" --config "$config" --threads "$cores" --out "$2" ;;
    one_rank_passive) OMP_WAIT_POLICY=passive "$exe" --config "$config" --threads "$cores" --out "$2" ;;
    two_auto) mpiexec -n 2 "$exe" --config "$config" --out "$2" ;;
    two_spin) TRACKCOSIM_MPI_WAIT=spin mpiexec -n 2 "$exe" --config "$config" --out "$2" ;;
    two_yield) TRACKCOSIM_MPI_WAIT=yield mpiexec -n 2 "$exe" --config "$config" --out "$2" ;;
    two_nap) TRACKCOSIM_MPI_WAIT=nap mpiexec -n 2 "$exe" --config "$config" --out "$2" ;;
    *) echo "run_busy_node.sh: unknown run $1 (one_rank, one_rank_passive, two_auto, two_spin, two_yield, two_nap)" >&2
       exit 2 ;;
  esac
}

declare -A walls
for ((round = 1; round <= rounds; round++)); do
  for name in $runs; do
    out="$work/$name.$round"
    start=$(date +%s.%N)
    run_one "$name" "$out" > "$out.log" 2>&1 || { echo "run_busy_node.sh: $name failed:"; tail -5 "$out.log"; exit 1; }
    wall=$(python3 -c "print('%.1f' % ($(date +%s.%N) - $start))")
    wait_choice=$(python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(r.get('mpi_wait','?') + ' (' + r.get('mpi_wait_from','?') + ')')" "$out/run.json" | tr ' ' '_')
    echo "busy_node load=$load round=$round run=$name wall_s=$wall mpi_wait=$wait_choice"
    walls[$name]+="$wall "
  done
done

# Against the better 1-rank run, with or without passive OpenMP waits.
one_best=$(python3 -c "w = '${walls[one_rank]:-} ${walls[one_rank_passive]:-}'.split(); print(min(map(float, w)) if w else 0)")
for name in $runs; do
  python3 - "$name" "$load" "$one_best" ${walls[$name]} <<'PY'
import sys
name, load, one_best, walls = sys.argv[1], sys.argv[2], float(sys.argv[3]), [float(w) for w in sys.argv[4:]]
ratio = "%.2f" % (min(walls) / one_best) if one_best > 0 else "nan"
print("busy_node load=%s run=%s best_s=%.1f worst_s=%.1f best_over_one_rank_best=%s" % (load, name, min(walls), max(walls), ratio))
PY
done
