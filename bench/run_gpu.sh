#!/usr/bin/env bash
# The terrain step on a GPU (issue 22): builds the kernel benchmarks with nvcc alone
# (TRACKCOSIM_KERNELS_ONLY: cmake, nvcc and OpenMP, none of the terrain's other packages, which
# the lent GPU machines lack), measures the device's memory bandwidth, runs bench/collision and
# bench/ccp (30 Jacobi/APGD iterations) at 10^5, 10^6 and 4x10^6 spheres, and ends with a table
# held against the issue's targets at N = 10^6: collision >= 1e8 contacts/s, Jacobi <= 0.5 ns
# per contact-iteration, a whole step under 50 ms. Then collision again with the other backend's
# default bin size (2 mean diameters on CUDA, 1 on the CPU build), and bench/state_hash (the same
# bed stepped three times must give the same bits).
#
#   bash bench/run_gpu.sh [--prebuilt DIR] [--build-only]
#
#   --prebuilt DIR  run DIR/{collision,ccp,device_bandwidth} instead of building (build here with
#                   --build-only, copy the three programs into a folder, carry that folder)
#   --build-only    configure and build, run nothing (a compile check on a machine with no GPU)
#
# Environment:
#   BUILD_DIR   build folder (default build-gpu; build-kernels-cpu when CUDA=0)
#   CUDA_ARCHS  CMAKE_CUDA_ARCHITECTURES (default 90: H100, H200)
#   OUT_DIR     logs and summary.txt (default $OUT, the device machine's return folder, else
#               bench-gpu-out)
#   SIZES       N for both benchmarks (default 100000,1000000,4000000)
#   CUDA=0      dry run on the CPU build (OpenMP on all cores, no device_bandwidth): the same
#               pipeline on a machine without a GPU, e.g. CUDA=0 SIZES=10000,30000 bash bench/run_gpu.sh
set -euo pipefail
source "$(dirname "$0")/../tools/script_help.sh"

die() { echo "run_gpu: $*" >&2; exit 1; }

prebuilt="" build_only=0
while (($#)); do
  case "$1" in
    --prebuilt) [[ $# -ge 2 ]] || die "--prebuilt needs a folder"; prebuilt=$(cd "$2" && pwd) || exit 1; shift 2 ;;
    --build-only) build_only=1; shift ;;
    *) die "unknown argument '$1' (expected --prebuilt DIR or --build-only)" ;;
  esac
done

cuda=1
case ${CUDA:-1} in 0 | OFF | off | no) cuda=0 ;; esac
sizes=${SIZES:-100000,1000000,4000000}
out=${OUT_DIR:-${OUT:-bench-gpu-out}}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$(dirname "${BASH_SOURCE[0]}")/.."

programs=(collision ccp state_hash)
((cuda)) && programs+=(device_bandwidth)

# ---- build ---------------------------------------------------------------------------------
if [[ -n "$prebuilt" ]]; then
  bin=$prebuilt
else
  command -v cmake >/dev/null || die "no cmake on PATH"
  build=${BUILD_DIR:-$( ((cuda)) && echo build-gpu || echo build-kernels-cpu)}
  cuda_flags=(-DTRACKCOSIM_CUDA=OFF)
  if ((cuda)); then
    nvcc=${CUDACXX:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
    [[ -x "$nvcc" ]] || die "no nvcc (looked at ${nvcc}; set CUDACXX, or CUDA=0 for the CPU dry run)"
    cuda_flags=(-DTRACKCOSIM_CUDA=ON -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCHS:-90}")
  fi
  generator="Unix Makefiles"
  command -v ninja >/dev/null && generator=Ninja
  echo "run_gpu: building ${programs[*]} in $build (log: $out/build.log)"
  if ! { cmake -S . -B "$build" -G "$generator" -DCMAKE_BUILD_TYPE=Release "${cuda_flags[@]}" \
           -DTRACKCOSIM_KERNELS_ONLY=ON -DTRACKCOSIM_BUILD_TESTS=OFF &&
         cmake --build "$build" -j "$(nproc)" --target "${programs[@]/#/bench_}"; } >"$out/build.log" 2>&1; then
    tail -n 30 "$out/build.log" >&2
    die "build failed (whole log: $out/build.log)"
  fi
  bin=$build/bench
fi
for p in "${programs[@]}"; do [[ -x "$bin/$p" ]] || die "no program $bin/$p"; done
if ((build_only)); then
  echo "run_gpu: built ${programs[*]/#/$bin/}"
  exit 0
fi

# ---- run -----------------------------------------------------------------------------------
threads=()
if ((cuda)); then
  if command -v nvidia-smi >/dev/null; then
    nvidia-smi -L 2>&1 | tee "$out/nvidia-smi.log" || die "nvidia-smi sees no GPU"
  fi
  # device_bandwidth fails first, naming the CUDA error, where no device is usable.
  "$bin/device_bandwidth" 2>&1 | tee "$out/device_bandwidth.log" || die "device_bandwidth failed: no usable GPU?"
else
  threads=(--threads "$(nproc)")
  rm -f "$out/device_bandwidth.log"
fi
# No O(n^2) reference pass: at 10^5 it would take the CPU longer than the whole GPU run.
"$bin/collision" --sizes "$sizes" --repeats 3 --reference-max-n 0 "${threads[@]}" 2>&1 | tee "$out/collision.log" ||
  die "collision failed (log: $out/collision.log)"
"$bin/ccp" --sizes "$sizes" --methods jacobi,apgd --iterations 30 --warmup-steps 3 --steps 3 "${threads[@]}" 2>&1 |
  tee "$out/ccp.log" || die "ccp failed (log: $out/ccp.log)"
# The other backend's default bin size, for comparison: 2 mean diameters on CUDA (where the
# default is 1, the GPU papers' choice), 1 on the CPU build (default 2).
other_bins=200 other_name="bins of two diameters"
((cuda)) || other_bins=100 other_name="bins of one diameter"
"$bin/collision" --sizes "$sizes" --repeats 3 --reference-max-n 0 --bin-factor-percent "$other_bins" "${threads[@]}" 2>&1 |
  tee "$out/collision_other_bins.log" || die "collision ($other_name) failed"
# Determinism: the same bed stepped three times gives the same bits (exit 1 if not).
"$bin/state_hash" --repeats 3 2>&1 | tee "$out/state_hash.log" || echo "run_gpu: state_hash: NOT reproducible" >&2

# ---- summary -------------------------------------------------------------------------------
# From the parseable lines only; where a program ran several thread counts, the last wins.
logs=("$out/collision.log" "$out/ccp.log")
((cuda)) && logs=("$out/device_bandwidth.log" "${logs[@]}")
awk '
  function field(key,   i) {  # a string: "+ 0" where it is compared as a number
    for (i = 2; i <= NF; i++) if (index($i, key "=") == 1) return substr($i, length(key) + 2)
    return ""
  }
  function verdict(ok) { return ok ? "met" : "missed" }
  $1 == "device_bandwidth" {
    match($0, /name="[^"]*"/); device = substr($0, RSTART + 6, RLENGTH - 7)
    bandwidth = field("kernel_GBps") + 0; copy = field("copy_GBps") + 0
  }
  $1 == "collision" { per_s[field("N")] = field("contacts_per_s") + 0 }
  $1 == "ccp" {
    key = field("N") " " field("method")
    if (!(key in ns)) rows[++count] = key
    ns[key] = field("ns_per_contact_iteration") + 0; bytes[key] = field("bytes_per_contact_iteration") + 0
    step[key] = field("step_seconds") + 0; transfer[key] = field("transfer_bytes_per_step") + 0
  }
  END {
    if (device != "") printf "device %s: kernel copy %.0f GB/s, cudaMemcpy %.0f GB/s\n", device, bandwidth, copy
    else print "device: none measured (CPU build); bandwidth columns n/a"
    printf "%9s %6s %11s %8s %6s %8s %6s %8s %11s\n", "N", "method", "contacts/s", "ns/c-it", "B/c-it", "GB/s",
           "of_bw", "step_ms", "xfer_B/step"
    for (r = 1; r <= count; r++) {
      split(rows[r], k, " "); key = rows[r]
      gbps = ns[key] > 0 ? bytes[key] / ns[key] : 0
      share = bandwidth > 0 ? sprintf("%5.0f%%", 100 * gbps / bandwidth) : "n/a"
      printf "%9d %6s %11s %8.3f %6.0f %8.1f %6s %8.2f %11.0f\n", k[1], k[2],
             (k[1] in per_s) ? sprintf("%.3e", per_s[k[1]]) : "n/a", ns[key], bytes[key], gbps, share,
             1e3 * step[key], transfer[key]
    }
    n = 1000000; printf "targets at N = %d:\n", n
    if (n in per_s) printf "  collision >= 1e8 contacts/s            %11.3e  %s\n", per_s[n], verdict(per_s[n] >= 1e8)
    else print "  collision >= 1e8 contacts/s            not run"
    if ((n " jacobi") in ns) {
      printf "  Jacobi <= 0.5 ns per contact-iteration %11.3f  %s\n", ns[n " jacobi"], verdict(ns[n " jacobi"] <= 0.5)
      printf "  Jacobi step (30 iterations) < 50 ms    %11.2f  %s\n", 1e3 * step[n " jacobi"], verdict(step[n " jacobi"] < 0.05)
    } else print "  Jacobi targets                         not run"
    if ((n " apgd") in step)
      printf "  APGD step (30 iterations) < 50 ms      %11.2f  %s\n", 1e3 * step[n " apgd"], verdict(step[n " apgd"] < 0.05)
  }' "${logs[@]}" | tee "$out/summary.txt"
{
  grep '^collision ' "$out/collision_other_bins.log" | sed "s/^/$other_name: /"
  grep '^state_hash ' "$out/state_hash.log"
} | tee -a "$out/summary.txt"
