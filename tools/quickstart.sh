#!/usr/bin/env bash
# The README's two commands.
#   tools/quickstart.sh run    install what is missing, build, run the default job
#   tools/quickstart.sh test   install what is missing, build, run the whole test suite
# Environment: BUILD_DIR (default build), JOBS (default: all cores).
set -euo pipefail
source "$(dirname "$0")/script_help.sh"

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
build_dir=${BUILD_DIR:-build}
jobs=${JOBS:-$(nproc)}
mode=${1:-}

case "$mode" in
  run|test) ;;
  *) echo "usage: tools/quickstart.sh run|test" >&2; exit 2 ;;
esac

if [[ "$mode" == test ]]; then
  bash tools/install_deps.sh --with-slurm  # the tests include a local Slurm cluster (tests/slurm/)
else
  bash tools/install_deps.sh
fi
# Open MPI refuses root unless told; CI and containers run as root.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
if [[ "$mode" == run ]]; then
  cmake --build "$build_dir" -j "$jobs" --target terrain_node vehicle_node
  # The default job: the NDIA light robot driving on a settled patch of 64,064 gravel spheres,
  # 1 vehicle rank + 2 terrain ranks (configs/cosim_gravel.json; about 28 minutes here the first
  # time, 23 once its settled bed is stored). Passive
  # OpenMP waiting keeps shared or oversubscribed cores usable (results are the same either way).
  export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
  # Through the wrapper tools/trackcosim, not trackcosim.py under the first python3 on PATH: the
  # wrapper picks the python3 with numpy and matplotlib for the plots at the end (a pyenv or
  # virtual-environment python3 may come first).
  TRACKCOSIM_BUILD="$build_dir" tools/trackcosim run configs/cosim_gravel.json
else
  cmake --build "$build_dir" -j "$jobs"
  ctest --test-dir "$build_dir" --output-on-failure -j "$jobs"
fi
