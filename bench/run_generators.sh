#!/usr/bin/env bash
# Particles created per second per rank by every granular source, at 10^5 and 10^6 particles on
# 1 and 2 ranks (bench/generators_bench.cpp says what is timed). Prints numbers; never fails on time.
#
#   bench/run_generators.sh [BUILD_DIR]     (needs bench/generators built: --target bench_generators)
# Environment: SIZES (default "100000 1000000"), RANKS (default "1 2").
set -euo pipefail
source "$(dirname "$0")/../tools/script_help.sh"
build=${1:-build}
exe="$build/bench/generators"
[[ -x "$exe" ]] || { echo "run_generators.sh: $exe not built (cmake --build $build --target bench_generators)" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive
for p in ${SIZES:-100000 1000000}; do
  for n in ${RANKS:-1 2}; do
    mpiexec -n "$n" --oversubscribe "$exe" --particles "$p"
  done
done
