#!/usr/bin/env bash
# Is a heavy vehicle's drive converged? The 5% criterion of issue "Real vehicles driven to the end
# on real gravel" (docs/ccp.md, "Heavy vehicles: is the answer converged?"): doubling the
# iterations, or halving the terrain step, must change the mean sinkage and the mean sprocket
# torque over the driving window by less than 5%. Three runs of the shipped run file from the
# same stored bed (bench/heavy_variants.py): the reference, which is the shipped run to its end
# (the proof that it completes: its `heavy ...` line, bench/heavy_run_summary.py, with wall_s the
# sum of its legs, bed preparation included, a leg killed with its machine counted until its log's
# last line; then its stage times, bench/heavy_stages.py), and to UNTIL twice the iterations and
# half the step. Then one `heavy_convergence ...` line per window (bench/heavy_convergence.py).
#
# Long: each run is hours on 2 cores (the M113's 3 s: about 50 min at 2 ms/200 on the host of
# docs/ccp.md, twice that at 400 or at 1 ms). The script can be stopped at any time and run
# again with the same arguments: a finished run (its run.json with the summary) is kept, a stopped one is resumed
# from its last checkpoint (the run file's checkpoint_interval, every 0.5 s of simulated time in the
# shipped heavy runs). Start it in the background (nice) and leave the machine otherwise idle:
# its times mean nothing beside other work, though its answers do not change.
#
#   bench/run_heavy_convergence.sh RUN_FILE UNTIL WINDOW [WINDOW...]
#   e.g. bench/run_heavy_convergence.sh configs/cosim_excavator_gravel.json 5.0 3,4 4,5
# Environment: OUT (default output/heavy_convergence/<run file's stem>); VARIANTS (default
# "reference iterations step"; "reference ranks1" compares the run file's terrain ranks with one
# and also prints `heavy_ranks vehicle_csv=same rows=<n>` or `... differs from_t=<t>`);
# REFERENCE_UNTIL (default "end"; a number of seconds runs the reference only that far, e.g.
# UNTIL itself when the shipped run's end-to-end `heavy` line is on record already: the
# excavator's 8.7 s cost 3.7 s of driving that the check never reads); TRACKCOSIM_BUILD,
# TRACKCOSIM_BED_STORE (the launcher's).
# Exit status: heavy_convergence.py's (0: every variant within 5% of the reference), 2 for bad
# input, else the failed run's.
set -euo pipefail
source "$(dirname "$0")/../tools/script_help.sh"
src=$(cd "$(dirname "$0")/.." && pwd)
cd "$src"
[[ $# -ge 3 ]] || { echo "usage: run_heavy_convergence.sh RUN_FILE UNTIL WINDOW [WINDOW...]" >&2; exit 2; }
run=$1 until=$2
shift 2
windows=("$@")
out=${OUT:-output/heavy_convergence/$(basename "$run" .json)}
variants=(${VARIANTS:-reference iterations step})
export OMP_WAIT_POLICY=passive
mkdir -p "$out"
for variant in "${variants[@]}"; do
  # A leg that never recorded its end died with its machine: it counts until its log's last line.
  if [[ -f "$out/$variant.leg_start" ]]; then
    echo $(($(stat -c %Y "$out/$variant.log") - $(cat "$out/$variant.leg_start"))) >>"$out/$variant.wall_s"
    rm "$out/$variant.leg_start"
  fi
  to=$until
  [[ $variant == reference ]] && to=${REFERENCE_UNTIL:-end}
  file=$(python3 bench/heavy_variants.py "$run" "$out" "$to" "$variant")
  folder="$out/$variant"
  # A run stopped by a signal has a run.json too (recording `stopped`): finished means its summary.
  if python3 bench/run_finished.py "$folder"; then
    echo "run_heavy_convergence.sh: $variant: finished ($folder)"
    continue
  fi
  resume=()
  [[ -f "$folder/vehicle/checkpoint.bin" ]] && resume=(--resume "$folder")
  echo "run_heavy_convergence.sh: $variant: ${resume:+resuming }$file (log $out/$variant.log) at $(date +%T)"
  start=$(date +%s)
  echo "$start" >"$out/$variant.leg_start"
  tools/trackcosim run "$file" --no-plot "${resume[@]}" >>"$out/$variant.log" 2>&1 ||
    { status=$?; tail -20 "$out/$variant.log"; echo "run_heavy_convergence.sh: $variant failed (log $out/$variant.log)" >&2
      exit $status; }
  echo $(($(date +%s) - start)) >>"$out/$variant.wall_s"  # one line per leg
  rm "$out/$variant.leg_start"
  python3 bench/run_finished.py "$folder" ||
    { echo "run_heavy_convergence.sh: $variant stopped before its end (log $out/$variant.log); run this again to resume it"
      exit 0; }
done
if python3 bench/run_finished.py "$out/reference"; then
  wall=$(awk '{s += $1} END {print s + 0}' "$out/reference.wall_s" 2>/dev/null || echo 0)
  vehicle=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['vehicle']['name'])" "$out/reference/vehicle/run.json")
  python3 bench/heavy_run_summary.py "$out/reference" "$vehicle" "$wall" || true  # it says why not
  python3 bench/heavy_stages.py "$out/reference" || true
fi
others=()
for variant in "${variants[@]}"; do [[ $variant == reference ]] || others+=("$out/$variant"); done
[[ ${#others[@]} -gt 0 ]] || exit 0
status=0
for window in "${windows[@]}"; do
  python3 bench/heavy_convergence.py --window "$window" "$out/reference" "${others[@]}" || status=$?
done
# One terrain rank against the run file's: vehicle.csv the same bytes, or the time of the first row
# where they part (over the rows both runs wrote).
if [[ -f "$out/ranks1/vehicle/vehicle.csv" ]]; then
  a=$out/reference/vehicle/vehicle.csv b=$out/ranks1/vehicle/vehicle.csv
  if where=$(cmp "$a" "$b" 2>&1) || [[ $where == *EOF* ]]; then
    rows=$(wc -l <"$a") rows_b=$(wc -l <"$b")
    echo "heavy_ranks vehicle_csv=same rows=$((rows < rows_b ? rows : rows_b))"
  else
    line=$(sed -n 's/.*line \([0-9]*\).*/\1/p' <<<"$where")
    echo "heavy_ranks vehicle_csv=differs from_t=$(sed -n "${line}p" "$a" | cut -d, -f1) line=$line"
  fi
fi
exit $status
