#!/usr/bin/env bash
# The co-simulation on a GPU machine (issue "The co-simulation on a GPU node"; docs/gpu.md), in
# one call: the terrain's kernels on the GPU, the vehicle on the CPU beside it, coupled over TCP
# (`tools/trackcosim run --launcher tcp`, one terrain rank) where the machine has no MPI, or in
# one mpirun job where it has. Each case is a shipped run, to its end unless END_TIME cuts it; the
# summary gives per case the launcher's parseable line, the terrain's time per coupling step by
# stage, the host<->device bytes and copies per step, and the wall time.
#
#   bash bench/run_gpu_cosim.sh --prepare              # here: build, and fill build-gpu-carry/
#   bash bench/run_gpu_cosim.sh --prebuilt build-gpu-carry   # there: run the cases
#   bash bench/run_gpu_cosim.sh --build                # there: build with the machine's cores, run
#
#   --prepare       build the CUDA variant without MPI here (tools/check_cuda_build.sh: nvcc, no
#                   GPU needed) and copy terrain_node, vehicle_node and the libraries they link
#                   beyond glibc into build-gpu-carry/, for the device tool's `carry` (docs/gpu.md)
#   --prebuilt DIR  run DIR/terrain_node/terrain_node and DIR/vehicle_node/vehicle_node
#   --build         configure and build the CUDA variant in BUILD_DIR first (needs Eigen,
#                   nlohmann-json and CLI11 where CMake finds them: DEPS_PREFIX adds a prefix)
#   --cases LIST    among default (configs/cosim_gravel.json, 1 terrain rank), default2 (the
#                   same on 2 terrain ranks sharing the GPU: only with MPI), m113
#                   (configs/cosim_m113_gravel.json, 1 rank) and small (configs/cosim_robot.json,
#                   1 rank: the CPU dry run); default: default,default2,m113
#
# Environment:
#   OUT_DIR      summary.txt, machine.txt and one log per case (default $OUT, the device machine's
#                return folder, which brings back 8 files at most; else output/gpu_cosim)
#   RUNS_DIR     the cases' run folders (default output/gpu_cosim_runs)
#   CUDA=0       the CPU dry run: no GPU asked for, e.g.
#                CUDA=0 END_TIME=0.05 bash bench/run_gpu_cosim.sh --prebuilt build-nompi --cases small
#   END_TIME     cut every case at this vehicle time [s] (dry runs; the summary says "cut")
#   DEADLINE_S   the whole run's seconds (default 540, inside the device tool's 10 minutes): a case
#                still running at its share is stopped with SIGTERM (checkpoints written) and
#                reported as stopped
#   BUILD_DIR    build folder for --build and --prepare (default build-cuda), CUDA_ARCHS (90)
set -euo pipefail
source "$(dirname "$0")/../tools/script_help.sh"

die() { echo "run_gpu_cosim: $*" >&2; exit 1; }

mode=run prebuilt="" cases=default,default2,m113
while (($#)); do
  case "$1" in
    --prepare) mode=prepare; shift ;;
    --build) mode=build; shift ;;
    --prebuilt) [[ $# -ge 2 ]] || die "--prebuilt needs a folder"; prebuilt=$(cd "$2" && pwd) || exit 1; shift 2 ;;
    --cases) [[ $# -ge 2 ]] || die "--cases needs a list"; cases=$2; shift 2 ;;
    *) die "unknown argument '$1' (expected --prepare, --build, --prebuilt DIR or --cases LIST)" ;;
  esac
done
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$(pwd)
build=${BUILD_DIR:-build-cuda}
cuda=1
case ${CUDA:-1} in 0 | OFF | off | no) cuda=0 ;; esac

# ---- prepare (here) ------------------------------------------------------------------------
if [[ $mode == prepare ]]; then
  CUDA_BUILD_DIR=$build TARGETS="terrain_node vehicle_node" bash tools/check_cuda_build.sh
  carry=$root/build-gpu-carry
  rm -rf "$carry"
  mkdir -p "$carry/terrain_node" "$carry/vehicle_node" "$carry/lib"
  for program in terrain_node vehicle_node; do
    strip -o "$carry/$program/$program" "$build/$program/$program"
  done
  # The libraries beyond glibc and the driver, for a machine that lacks one (run mode puts
  # lib/ on LD_LIBRARY_PATH only for a library ldd does not find there).
  ldd "$carry/terrain_node/terrain_node" "$carry/vehicle_node/vehicle_node" |
    awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u |
    grep -Ev '/(libc|libm|libpthread|libdl|librt|ld-linux[^/]*|libcuda)\.so' |
    while read -r library; do cp -L "$library" "$carry/lib/"; done
  du -sh "$carry" "$carry"/* | sed 's/^/run_gpu_cosim: /'
  echo "run_gpu_cosim: carry build-gpu-carry and run: bash bench/run_gpu_cosim.sh --prebuilt build-gpu-carry"
  exit 0
fi

out=${OUT_DIR:-${OUT:-output/gpu_cosim}}
mkdir -p "$out"
out=$(cd "$out" && pwd)
runs=${RUNS_DIR:-output/gpu_cosim_runs}
mkdir -p "$runs"
runs=$(cd "$runs" && pwd)

# ---- the programs --------------------------------------------------------------------------
if [[ $mode == build ]]; then
  command -v cmake >/dev/null || die "no cmake on PATH"
  flags=(-DTRACKCOSIM_CUDA=OFF)
  if ((cuda)); then
    nvcc=${CUDACXX:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
    [[ -x "$nvcc" ]] || die "no nvcc (looked at $nvcc; set CUDACXX, or CUDA=0 for the CPU dry run)"
    flags=(-DTRACKCOSIM_CUDA=ON -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCHS:-90}")
  fi
  mpi=OFF
  command -v mpicxx >/dev/null && mpi=ON
  [[ -n ${DEPS_PREFIX:-} ]] && flags+=(-DCMAKE_PREFIX_PATH="$DEPS_PREFIX")
  generator="Unix Makefiles"
  command -v ninja >/dev/null && generator=Ninja
  echo "run_gpu_cosim: building terrain_node and vehicle_node in $build (MPI $mpi; log: $out/build.log)"
  if ! { cmake -S . -B "$build" -G "$generator" -DCMAKE_BUILD_TYPE=Release "${flags[@]}" -DTRACKCOSIM_MPI=$mpi \
           -DTRACKCOSIM_BUILD_TESTS=OFF -DTRACKCOSIM_BUILD_BENCH=OFF &&
         cmake --build "$build" -j "$(nproc)" --target terrain_node vehicle_node; } >"$out/build.log" 2>&1; then
    tail -n 30 "$out/build.log" >&2
    die "build failed (whole log: $out/build.log)"
  fi
  prebuilt=$(cd "$build" && pwd)
fi
[[ -n $prebuilt ]] || die "say where the programs are: --prebuilt DIR, --build, or --prepare first"
for program in terrain_node vehicle_node; do
  [[ -x $prebuilt/$program/$program ]] || die "no program $prebuilt/$program/$program"
done
if ldd "$prebuilt/terrain_node/terrain_node" "$prebuilt/vehicle_node/vehicle_node" | grep -q "not found"; then
  [[ -d $prebuilt/lib ]] || die "the programs need libraries this machine lacks: $(ldd "$prebuilt/terrain_node/terrain_node" | grep "not found" | tr -s ' \t' ' ')"
  export LD_LIBRARY_PATH=$prebuilt/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  echo "run_gpu_cosim: libraries from $prebuilt/lib"
fi
export TRACKCOSIM_BUILD=$prebuilt OMP_WAIT_POLICY=passive
with_mpi=0
ldd "$prebuilt/terrain_node/terrain_node" | grep -q libmpi && command -v mpirun >/dev/null && with_mpi=1

# ---- the machine ---------------------------------------------------------------------------
{
  echo "host $(hostname), $(nproc) cores, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  if ((cuda)); then
    command -v nvidia-smi >/dev/null && nvidia-smi -L
  else
    echo "CPU dry run (CUDA=0)"
  fi
  echo "programs $prebuilt ($( ((with_mpi)) && echo "MPI" || echo "no MPI: one terrain rank over TCP"))"
} | tee "$out/machine.txt"

# ---- the cases -----------------------------------------------------------------------------
run_file_of() {
  case $1 in
    default | default2) echo configs/cosim_gravel.json ;;
    m113) echo configs/cosim_m113_gravel.json ;;
    small) echo configs/cosim_robot.json ;;
    *) die "unknown case '$1' (default, default2, m113, small)" ;;
  esac
}
ranks_of() { [[ $1 == default2 ]] && echo 2 || echo 1; }

# A run file with its end time cut (END_TIME), beside the outputs; else the shipped one.
run_file_for() {
  local name=$1 shipped
  shipped=$(run_file_of "$name")
  if [[ -z ${END_TIME:-} ]]; then
    echo "$shipped"
    return
  fi
  python3 - "$shipped" "$END_TIME" "$runs/$name.run.json" <<'EOF'
import json, re, sys
text = re.sub(r"^\s*//.*$", "", open(sys.argv[1]).read(), flags=re.M)
run = json.loads(text)
run["vehicle"]["end_time"] = float(sys.argv[2])
json.dump(run, open(sys.argv[3], "w"), indent=1)
EOF
  echo "$runs/$name.run.json"
}

IFS=, read -r -a names <<<"$cases"
deadline=$((SECONDS + ${DEADLINE_S:-540}))
summary=$out/summary.txt
: >"$summary"
for i in "${!names[@]}"; do
  name=${names[$i]}
  ranks=$(ranks_of "$name")
  run_file=$(run_file_for "$name")
  if ((ranks > 1 && !with_mpi)); then
    echo "case $name: skipped: $ranks terrain ranks need MPI, and these programs or this machine have none" | tee -a "$summary"
    continue
  fi
  launcher=tcp
  ((with_mpi)) && launcher=mpirun
  # Each case gets an equal share of the time left, the last one all of it.
  left=$((deadline - SECONDS))
  share=$((left / (${#names[@]} - i)))
  ((share > 30)) || { echo "case $name: skipped: no time left" | tee -a "$summary"; continue; }
  echo "run_gpu_cosim: case $name: $run_file, $ranks terrain rank(s), $launcher, at most $share s"
  start=$SECONDS status=0
  timeout -s TERM -k 60 "$share" tools/trackcosim run "$run_file" --terrain-ranks "$ranks" --launcher "$launcher" \
    --out "$runs/$name" --no-plot >"$out/$name.log" 2>&1 || status=$?
  wall=$((SECONDS - start))
  {
    echo "case $name: $run_file, $ranks terrain rank(s), $launcher, exit status $status, wall ${wall} s$([[ -n ${END_TIME:-} ]] && echo ", cut at t = $END_TIME s")"
    ((status == 124)) && echo "  stopped at its share of the time ($share s)"
    grep -E "^ *(device |per coupling step|terrain computing|sinkage|cosim steps=|terrain device |trackcosim: (error|stopped))" "$out/$name.log" | sed 's/^ */  /'
  } | tee -a "$summary"
done
# Bitwise: the same vehicle on 1 and 2 terrain ranks (where both ran).
if [[ -f $runs/default/vehicle/vehicle.csv && -f $runs/default2/vehicle/vehicle.csv ]]; then
  if cmp -s "$runs/default/vehicle/vehicle.csv" "$runs/default2/vehicle/vehicle.csv"; then
    echo "default and default2: vehicle.csv identical" | tee -a "$summary"
  else
    echo "default and default2: vehicle.csv differs: $(cmp "$runs/default/vehicle/vehicle.csv" "$runs/default2/vehicle/vehicle.csv" | head -1)" | tee -a "$summary"
  fi
fi
echo "run_gpu_cosim: summary in $summary"
