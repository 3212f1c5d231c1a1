#!/usr/bin/env bash
# Configures and builds the CUDA variant (nvcc, Thrust's CUDA device system) so a CUDA break
# fails CI. Compile and link only: this machine has no GPU to run it. It is the variant a GPU
# machine without MPI runs (docs/gpu.md): TRACKCOSIM_MPI=OFF, the one-process MPI of comm/mpi_stub
# (MPI=ON builds it against Open MPI instead).
# Environment: CUDA_BUILD_DIR (default build-cuda), CUDA_ARCHS (default 90), MPI (default OFF),
# TARGETS (default all), JOBS (default: the cores).
set -euo pipefail
source "$(dirname "$0")/script_help.sh"

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
nvcc=${CUDACXX:-/usr/local/cuda/bin/nvcc}
[[ -x "$nvcc" ]] || { echo "check_cuda_build: no nvcc at $nvcc (set CUDACXX)" >&2; exit 1; }

cmake -S . -B "${CUDA_BUILD_DIR:-build-cuda}" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DTRACKCOSIM_CUDA=ON -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCHS:-90}" \
  -DTRACKCOSIM_MPI="${MPI:-OFF}" -DTRACKCOSIM_BUILD_TESTS=OFF >/dev/null
# TARGETS (default: all): e.g. "terrain_node vehicle_node", what bench/run_gpu_cosim.sh --prepare carries.
read -r -a targets <<<"${TARGETS:-all}"
cmake --build "${CUDA_BUILD_DIR:-build-cuda}" -j "${JOBS:-$(nproc)}" --target "${targets[@]}"
echo "check_cuda_build: CUDA variant compiled and linked"
