#!/usr/bin/env bash
# The measurements of the scaling model (bench/scaling_model.py, docs/scaling.md) on this
# machine, then the model's fit and projections.
#
#   bench/run_scaling_study.sh [BUILD_DIR] [OUT_DIR]      (defaults: build, output/scaling-study)
#
# Needs bench/terrain_scaling and bench/comm_costs built. Writes OUT_DIR/runs.txt (every run's
# result line with repeat=, load1= and oversubscribed=), OUT_DIR/measured.csv (medians) and
# OUT_DIR/model.txt (what scaling_model.py prints). Series:
#   comm   bench/comm_costs on COMM_RANKS: seconds per neighbour exchange by size, per allreduce;
#   split  for each per-rank size n of SIZES: 1 rank with n particles (the plain step alone),
#          2 ranks --alone with n each (the node shared, nothing sent) and 2 ranks with 2n
#          (split), REPEATS times in turn, so that a busy spell of the machine hits all three;
#   threads  1 rank with 1 and with 2 threads on THREADS_PARTICLES (OpenMP's efficiency, for the
#          projection);
#   weak   WEAK_RANKS ranks with WEAK_PER_RANK particles each, split and alone (more ranks than
#          cores: oversubscribed=1, the ranks take turns on the cores).
# Environment: SIZES ("5000 10000 20000"), REPEATS (3), STEPS (10), THREADS_PARTICLES (20000),
# WEAK_RANKS ("1 2 4 8 16"), WEAK_PER_RANK (2500), WEAK_REPEATS (REPEATS), COMM_RANKS
# ("2 4 8 16"), CORES (nproc), QUIET (0), SERIES ("comm split weak": which to run), KEEP (0; 1:
# add to runs.txt instead of starting it anew, so that runs made in turns add up). Times on a machine
# others use are noisy: the load average is recorded next to every run, and QUIET=1 waits for a
# calm spell before each.
set -euo pipefail
source "$(dirname "$0")/../tools/script_help.sh"
build=${1:-build}
out=${2:-output/scaling-study}
here=$(cd "$(dirname "$0")" && pwd)
exe="$build/bench/terrain_scaling" comm="$build/bench/comm_costs"
for p in "$exe" "$comm"; do
  [[ -x "$p" ]] || { echo "run_scaling_study.sh: $p not built (cmake --build $build --target bench_terrain_scaling bench_comm_costs)" >&2; exit 2; }
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_WAIT_POLICY=passive
sizes=${SIZES:-"5000 10000 20000"}
repeats=${REPEATS:-3}
steps=${STEPS:-10}
weak_ranks=${WEAK_RANKS:-"1 2 4 8 16"}
weak_per_rank=${WEAK_PER_RANK:-2500}
weak_repeats=${WEAK_REPEATS:-$repeats}
threads_particles=${THREADS_PARTICLES:-20000}
comm_ranks=${COMM_RANKS:-"2 4 8 16"}
cores=${CORES:-$(nproc)}
mkdir -p "$out"
runs="$out/runs.txt"
[[ ${KEEP:-0} == 1 ]] || : >"$runs"
series=" ${SERIES:-comm split weak} "

load1() { cut -d' ' -f1 /proc/loadavg; }
# Processes running now, whatever their nice value (the counting ps excluded): on this machine a
# niced process still takes its share of a memory-bound solve (two `yes` at nice 19 took a nice 5
# M113 terrain step from 0.93 to 2.1 s; docs/ccp.md, "Heavy vehicles").
busy() { ps -eo stat=,comm= | awk '$1 ~ /^R/ && $2 != "ps" { n++ } END { print n + 0 }'; }
# With QUIET=1, each run waits (up to QUIET_WAIT s, default 900) until busy has said 0 five
# times in a row, half a second apart.
wait_quiet() {
  [[ ${QUIET:-0} == 1 ]] || return 0
  local calm=0 waited=0
  while ((calm < 5 && waited < ${QUIET_WAIT:-900} * 2)); do
    if (($(busy) == 0)); then calm=$((calm + 1)); else calm=0; fi
    sleep 0.5
    waited=$((waited + 1))
  done
}
# run RANKS THREADS REPEAT PROGRAM ARGS...: one result line, annotated, into runs.txt.
run() {
  local n=$1 threads=$2 repeat=$3 over=0
  shift 3
  if ((n * threads > cores)); then over=1; fi
  local load line
  wait_quiet
  load=$(load1)
  # mpiexec binds each rank to one core by default (2 ranks or fewer): a rank's threads need more.
  local bind=()
  if ((threads > 1)); then bind=(--bind-to none); fi
  line=$(OMP_NUM_THREADS=$threads mpiexec -n "$n" --oversubscribe "${bind[@]}" "$@" | grep -E '^(scaling|comm) ')
  local after
  after=$(busy)
  while IFS= read -r l; do
    echo "$l repeat=$repeat load1=$load busy_after=$after oversubscribed=$over" | tee -a "$runs"
  done <<<"$line"
}

if [[ $series == *" comm "* ]]; then
  echo "# comm: bench/comm_costs" | tee -a "$runs"
  for n in $comm_ranks; do run "$n" 1 0 "$comm"; done
fi

[[ $series == *" split "* ]] && echo "# split: per-rank sizes $sizes, $repeats repeats" | tee -a "$runs"
for r in $(seq 1 "$repeats"); do
  [[ $series == *" split "* ]] || break
  for n in $sizes; do
    run 1 1 "$r" "$exe" --particles "$n" --steps "$steps"
    run 2 1 "$r" "$exe" --particles-per-rank "$n" --alone --steps "$steps"
    run 2 1 "$r" "$exe" --particles-per-rank "$n" --steps "$steps"
  done
  run 1 1 "$r" "$exe" --particles "$threads_particles" --steps "$steps"
  run 1 2 "$r" "$exe" --particles "$threads_particles" --steps "$steps"
done

[[ $series == *" weak "* ]] && echo "# weak: $weak_per_rank particles per rank on $weak_ranks ranks" | tee -a "$runs"
for r in $(seq 1 "$weak_repeats"); do
  [[ $series == *" weak "* ]] || break
  for n in $weak_ranks; do
    run "$n" 1 "$r" "$exe" --particles-per-rank "$weak_per_rank" --steps "$steps"
    if ((n > 1)); then run "$n" 1 "$r" "$exe" --particles-per-rank "$weak_per_rank" --alone --steps "$steps"; fi
  done
done

/usr/bin/python3 "$here/scaling_model.py" "$runs" --csv "$out/measured.csv" | tee "$out/model.txt"
