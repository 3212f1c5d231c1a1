#!/usr/bin/env bash
# A bed with rolling resistance (solver.rolling_friction 0.5, docs/ccp.md) stopped and continued
# goes on bit for bit: on 1 rank and on 2, a run of 100 steps that writes checkpoint.bin at the
# end and a run stopped at step 50 (--checkpoint-at 50), continued with --restart to step 100,
# write the same final checkpoint.bin byte for byte and the same probe rows. This needs
# the rolling impulses in the checkpoint (format version 3): with them read as zero, the first
# step after the restart warm-starts its rolling rows from zero and the bits part. The stop's
# checkpoint must hold nonzero rolling impulses, or the test would prove nothing: gravity tilted
# towards a corner of the box makes the grains roll (about 40% of the contacts at step 50 hold a
# rolling impulse).
# Usage: rolling_restart_run.sh TERRAIN_NODE MPIEXEC
set -euo pipefail
terrain_node=$1 mpiexec=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive
bed() {  # end_time
  cat <<JSON
{
  "container": {"min": [0, 0, 0], "max": [0.22, 0.22, 0.3]},
  "particles": [{"kind": "layers", "min": [0, 0], "max": [0.22, 0.22], "bottom": 0.01, "layers": 3,
                 "radius": 0.01, "seed": 3}],
  "step_size": 1e-3,
  "gravity": [3, 2, -9.81],
  "end_time": $1,
  "solver": {"method": "jacobi", "max_iterations": 25, "max_recovery_speed": 0.5, "rolling_friction": 0.5},
  "collision": {"envelope": 0.001},
  "output": {"probes": [5, 77, 150, 304], "probe_interval": 5, "snapshot_interval": 0, "progress_interval": 0}
}
JSON
}
bed 0.1 >"$work/whole.json"
bed 0.05 >"$work/stop.json"

run() {  # ranks, config, out, extra args
  local ranks=$1 config=$2 out=$3
  shift 3
  "$mpiexec" -n "$ranks" --oversubscribe "$terrain_node" --config "$work/$config" --out "$work/$out" "$@" \
    >"$work/$out.log" 2>&1 || { cat "$work/$out.log"; exit 1; }
}
# The nonzero rolling impulses of a checkpoint (version 3: W at offset 52, the warm-start records
# of 72 bytes before the 8-byte checksum, the rolling impulse at byte 48 of each).
rolling_impulses() {
  python3 - "$1" <<'PY'
import struct, sys
f = open(sys.argv[1], "rb").read()
assert struct.unpack_from("<I", f, 8)[0] == 3, "not a version 3 checkpoint"
W = struct.unpack_from("<Q", f, 52)[0]
at = len(f) - 8 - 72 * W
print(sum(any(v != 0 for v in struct.unpack_from("<3d", f, at + 72 * i + 48)) for i in range(W)), "of", W)
PY
}

for ranks in 1 2; do
  run "$ranks" whole.json "whole$ranks" --checkpoint-at 100
  run "$ranks" stop.json "stop$ranks" --checkpoint-at 50
  run "$ranks" whole.json "continued$ranks" --restart "$work/stop$ranks/checkpoint.bin" --checkpoint-at 100
  grep -q "restart    from step 50" "$work/continued$ranks.log" || { cat "$work/continued$ranks.log"; exit 1; }
  rolling=$(rolling_impulses "$work/stop$ranks/checkpoint.bin")
  (( ${rolling%% *} > 0 )) || { echo "FAIL: the checkpoint at step 50 holds no rolling impulse"; exit 1; }
  cmp "$work/whole$ranks/checkpoint.bin" "$work/continued$ranks/checkpoint.bin" ||
    { echo "FAIL: $ranks rank(s): the continued run's state at step 100 differs from the uninterrupted run's"; exit 1; }
  # Every probe row of the continued run (4 probes, steps 50 to 100) is a row of the whole run.
  [[ $(( $(wc -l <"$work/continued$ranks/probes.csv") - 1 )) -ge 40 ]]
  foreign=$(grep -cvxFf "$work/whole$ranks/probes.csv" "$work/continued$ranks/probes.csv" || true)
  [[ $foreign -eq 0 ]] || { echo "FAIL: $ranks rank(s): $foreign probe rows differ from the uninterrupted run's"; exit 1; }
done
cmp "$work/whole1/checkpoint.bin" "$work/whole2/checkpoint.bin"  # and the rank count changes nothing
echo "rolling resistance: stopped at step 50 ($rolling rolling impulses nonzero) and continued to 100 on 1 and 2" \
     "ranks: the same checkpoint.bin byte for byte as the uninterrupted run, the same probe rows"
