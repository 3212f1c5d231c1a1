#!/usr/bin/env bash
# Installs the Debian 12 packages trackcosim needs to build, test and run. Idempotent: when
# everything is present it prints nothing and exits 0. Needs root (or sudo) only to install.
#   tools/install_deps.sh               build and run
#   tools/install_deps.sh --with-slurm  also Slurm, munge and PMIx, for the local-cluster tests
#                                       (tests/slurm/) and for trying the job scripts by hand,
#                                       POV-Ray and ffmpeg, which the render tests use, and
#                                       python3-vtk9, with which a test reads our VTK files
#   tools/install_deps.sh --with-render also POV-Ray and ffmpeg: tools/trackcosim render
#                                       (docs/render.md)
set -euo pipefail
source "$(dirname "$0")/script_help.sh"

packages=(
  g++ cmake ninja-build pkg-config
  openmpi-bin libopenmpi-dev            # MPI (terrain ranks, co-simulation)
  libthrust-dev libcub-dev              # kernels, OpenMP device system on the CPU
  libeigen3-dev                         # vehicle multibody solver
  libgtest-dev                          # tests
  nlohmann-json3-dev libcli11-dev       # configs, command lines
  libpng-dev                            # heightmap images (PNG in and out)
  zlib1g-dev                            # binary VTK outputs (zlib-compressed arrays)
  python3                               # examples and output tools
  python3-matplotlib python3-numpy      # the plots every run ends with (tools/plots/plot_run.py)
  iproute2                              # ip: a one-host run's own network namespace (tools/launcher/private_network.py)
)
render=(povray fonts-povray ffmpeg)    # frames and movies of a run (tools/plots/render_run.py); the fonts
                                       # of its overlay, which povray only recommends (docs/render.md)
if [[ "${1:-}" == --with-slurm ]]; then
  packages+=(slurm-wlm munge libpmix-dev  # one-node cluster on localhost, srun --mpi=pmix
             "${render[@]}"               # the test suite renders frames
             python3-vtk9)                # and reads the VTK outputs with VTK's own readers
elif [[ "${1:-}" == --with-render ]]; then
  packages+=("${render[@]}")
elif [[ -n "${1:-}" ]]; then
  echo "usage: tools/install_deps.sh [--with-slurm | --with-render]" >&2
  exit 2
fi

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "install_deps: need root to install: ${missing[*]}" >&2; exit 1; }
  sudo_cmd=(sudo)
fi
echo "install_deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install_deps: done"
