#!/usr/bin/env bash
# The heavy vehicles driven to the end on their gravel (issue "Real vehicles driven to the end on
# real gravel"; docs/protocol.md, "Heavy vehicles"): each run file is run with
# `tools/trackcosim run` as shipped, to its end, on 2 terrain ranks, and one line is printed per run
# (bench/heavy_run_summary.py):
#   heavy vehicle=<name> grains=<n> steps=<k> wall_s=<t> ms_per_step=<m> distance_m=<d> sinkage_m=<s>
#         sprocket_torque_Nm=<q> rest_force_ratio=<r> max_grain_speed=<v>
# wall_s counts the whole launcher run, the bed's settling included when the bed store has none
# (FRESH_BED=1 settles again: the cost of a first run). Then the terrain's mean time per coupling
# step per stage and its solver's figures (bench/heavy_stages.py).
# Long, measured here on 2 terrain ranks: the M113 46-49 min from a stored bed (about 8 min more to
# settle one), the excavator about 2 h 15 min with its 13 min of settling (docs/ccp.md, "Heavy
# vehicles: where a coupling step's time goes"); start it in the background and keep the
# machine otherwise idle while it runs if its times are to mean anything: nice does not keep
# other work off it (two `yes` at nice 19 took a nice 5 M113 terrain step from 0.93 to 2.1 s).
#
#   bench/run_heavy.sh [RUN_FILE...]       (default: the M113 and the excavator)
# Environment: OUT (default output/heavy), TERRAIN_RANKS (2), FRESH_BED (0), TRACKCOSIM_BUILD.
set -euo pipefail
source "$(dirname "$0")/../tools/script_help.sh"
src=$(cd "$(dirname "$0")/.." && pwd)
cd "$src"
out=${OUT:-output/heavy} ranks=${TERRAIN_RANKS:-2}
runs=("$@")
[[ ${#runs[@]} -gt 0 ]] || runs=(configs/cosim_m113_gravel.json configs/cosim_excavator_gravel.json)
export OMP_WAIT_POLICY=passive OMPI_MCA_mpi_yield_when_idle=1
fresh=()
[[ "${FRESH_BED:-0}" == 1 ]] && fresh=(--fresh-bed)
mkdir -p "$out"
for run in "${runs[@]}"; do
  name=$(basename "$run" .json)
  folder="$out/$name"
  start=$(date +%s.%N)
  tools/trackcosim run "$run" --out "$folder" --terrain-ranks "$ranks" --no-plot "${fresh[@]}" >"$out/$name.log" 2>&1 ||
    { tail -20 "$out/$name.log"; echo "run_heavy.sh: $run failed (log $out/$name.log)" >&2; exit 1; }
  # A run stopped by a signal exits 0 with its checkpoints: no line for half a run.
  python3 bench/run_finished.py "$folder" ||
    { echo "run_heavy.sh: $run stopped before its end (log $out/$name.log); continue it with" \
           "tools/trackcosim run $run --resume $folder"; exit 0; }
  wall=$(python3 -c "import time; print(time.time() - $start)")
  vehicle=$(python3 -c "import json,sys; print(json.load(open('$folder/vehicle/run.json'))['vehicle']['name'])")
  python3 bench/heavy_run_summary.py "$folder" "$vehicle" "$wall"
  python3 bench/heavy_stages.py "$folder"
done
