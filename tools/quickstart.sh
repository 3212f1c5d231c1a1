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
  cmake --build "$build_dir" -j "$jobs" --target terrain_node
  # The default job, until the co-simulation lands: one collision pass over a granular bed.
  "$build_dir/terrain_node/terrain_node" --contacts configs/demo_collision.json --out output/demo
else
  cmake --build "$build_dir" -j "$jobs"
  ctest --test-dir "$build_dir" --output-on-failure -j "$jobs"
fi
