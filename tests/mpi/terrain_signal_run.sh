#!/usr/bin/env bash
# Walltime safety of a standalone terrain run: terrain_node on 2 ranks gets SIGUSR1 (what
# `#SBATCH --signal=USR1@120` sends before the time limit) while it settles a bed. It must stop
# at a step boundary with exit status 0, write checkpoint.bin and say so; the run continued
# from that checkpoint (--restart, here on 1 rank, as a resubmitted job might) must end with the
# same probes as a run that was never interrupted. The stopped run's run.json still has both
# ranks' memory figures (taken after the checkpoint was written).
# Usage: terrain_signal_run.sh TERRAIN_NODE MPIEXEC
set -euo pipefail
terrain_node=$1 mpiexec=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive
cat > "$work/bed.json" <<'JSON'
{
  "container": {"min": [0, 0, 0], "max": [0.22, 0.22, 0.3]},
  "particles": [{"kind": "layers", "min": [0, 0], "max": [0.22, 0.22], "bottom": 0.01, "layers": 6,
                 "radius": 0.005, "seed": 4}],
  "step_size": 1e-3,
  "end_time": 0.4,
  "solver": {"method": "jacobi", "max_iterations": 25, "max_recovery_speed": 0.5},
  "collision": {"envelope": 0.001},
  "output": {"probes": [5, 400, 2000], "probe_interval": 5, "snapshot_interval": 0, "progress_interval": 0}
}
JSON
"$mpiexec" -n 1 "$terrain_node" --config "$work/bed.json" --out "$work/whole" >"$work/whole.log"

"$mpiexec" -n 2 --oversubscribe "$terrain_node" --config "$work/bed.json" --out "$work/stopped" >"$work/stopped.log" 2>&1 &
job=$!
# Signal once the run is well under way (some probe rows written), well before its end.
for _ in $(seq 200); do
  [[ -f "$work/stopped/probes.csv" && $(wc -l <"$work/stopped/probes.csv") -gt 20 ]] && break
  sleep 0.1
done
kill -USR1 "$job"
wait "$job" || { cat "$work/stopped.log"; echo "FAIL: the signalled run did not exit with 0"; exit 1; }
grep -q "^stopped    by SIGUSR1 at step " "$work/stopped.log" || { cat "$work/stopped.log"; echo "FAIL: no stop message"; exit 1; }
[[ -f "$work/stopped/checkpoint.bin" ]] || { echo "FAIL: no checkpoint"; exit 1; }
python3 "$(dirname "$0")/run_folder_checks.py" memory "$work/stopped" 2
grep -q "^memory     peak RSS per rank " "$work/stopped.log" || { cat "$work/stopped.log"; echo "FAIL: no memory line"; exit 1; }
step=$(sed -n 's/^stopped    by SIGUSR1 at step \([0-9]*\) .*/\1/p' "$work/stopped.log")
(( step > 0 && step < 400 )) || { echo "FAIL: stopped at step $step, not during the run"; exit 1; }

"$mpiexec" -n 1 "$terrain_node" --config "$work/bed.json" --out "$work/resumed" \
  --restart "$work/stopped/checkpoint.bin" >"$work/resumed.log"
grep -q "restart    from step $step" "$work/resumed.log" || { cat "$work/resumed.log"; echo "FAIL: no restart line for step $step"; exit 1; }
# Every probe row of the resumed run is a row of the uninterrupted run, byte for byte, except
# the rows it writes at the restart step itself when that step is off the probe interval.
rows=$(( $(wc -l <"$work/resumed/probes.csv") - 1 ))
(( rows > 30 )) || { echo "FAIL: the resumed run wrote only $rows probe rows"; exit 1; }
first_t=$(sed -n 2p "$work/resumed/probes.csv" | cut -d, -f1)
# (grep -v exits 1 when every row matches, as when the restart step is on the probe interval:
# that is the good case, so its status must not end the script under pipefail.)
foreign=$({ grep -vxFf "$work/whole/probes.csv" "$work/resumed/probes.csv" || true; } | cut -d, -f1 | sort -u)
[[ -z "$foreign" || "$foreign" == "$first_t" ]] ||
  { echo "FAIL: resumed probe rows at t = $foreign differ from the uninterrupted run"; exit 1; }
cmp <(tail -n 3 "$work/resumed/probes.csv") <(tail -n 3 "$work/whole/probes.csv")
echo "SIGUSR1 at step $step: checkpoint written, exit 0; resumed on 1 rank, its $rows probe rows match the uninterrupted run's"
