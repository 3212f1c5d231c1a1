#!/usr/bin/env bash
# The README's two commands.
#   tools/quickstart.sh run    install what is missing, build, run the default job
#   tools/quickstart.sh test   install what is missing, build, run the whole test suite
# Environment: BUILD_DIR (default build), JOBS (default: all cores).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
build_dir=${BUILD_DIR:-build}
jobs=${JOBS:-$(nproc)}
mode=${1:-}

case "$mode" in
  run|test) ;;
  *) echo "usage: tools/quickstart.sh run|test" >&2; exit 2 ;;
esac

bash tools/install_deps.sh
# Open MPI refuses root unless told; CI and containers run as root.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
if [[ "$mode" == run ]]; then
  cmake --build "$build_dir" -j "$jobs" --target terrain_node vehicle_node
  # The default job, until the co-simulation lands: the two programs standalone. A granular bed
  # settling in a box, then the M113 driving over a bumpy rigid ground. Passive OpenMP waiting
  # keeps shared or oversubscribed cores usable (results are the same either way).
  export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
  "$build_dir/terrain_node/terrain_node" --config configs/settle_small.json --out output/settle_small
  "$build_dir/vehicle_node/vehicle_node" --config configs/vehicles/m113.json --ground rigid \
    --ground-profile bumpy --end-time 3 --out output/m113
else
  cmake --build "$build_dir" -j "$jobs"
  ctest --test-dir "$build_dir" --output-on-failure -j "$jobs"
fi
