#!/usr/bin/env bash
# A terrain that refuses its input in an MPMD co-simulation says why. The terrain's leader is
# world rank 1 there (the vehicle is rank 0), so its config errors must be printed by its own
# first rank, not by world rank 0: a missing terrain config and a typo in a cosim key each end
# the job with a non-zero exit and one "terrain_node: error:" line naming the file and the key,
# on 1 vehicle rank + 2 terrain ranks, well within the timeout; so does a setting a co-simulation
# would ignore (output.checkpoint_interval).
# Usage: cosim_terrain_error_run.sh VEHICLE_NODE TERRAIN_NODE MPIEXEC SOURCE_DIR
set -euo pipefail
vehicle=$1 terrain=$2 mpiexec=$3 src=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive
cd "$work"

expect_error() {  # TERRAIN_CONFIG EXPECTED_TEXT...
  local config=$1; shift
  local status=0
  timeout 120 "$mpiexec" --oversubscribe -np 1 "$vehicle" --config "$src/configs/vehicles/m113.json" --terrain mpi \
    --end-time 0.01 --quiet --out vehicle : -np 2 "$terrain" --config "$config" --cosim --out terrain >log 2>&1 || status=$?
  if [[ $status -eq 0 || $status -eq 124 ]]; then
    cat log; echo "FAIL: $config: exit status $status (expected an error exit, not success or a hang)"; exit 1
  fi
  local errors
  errors=$(grep -c '^terrain_node: error: ' log || true)
  [[ $errors -eq 1 ]] || { cat log; echo "FAIL: $config: $errors terrain error lines, expected exactly 1"; exit 1; }
  for text in "$@"; do
    grep '^terrain_node: error: ' log | grep -qF -- "$text" || { cat log; echo "FAIL: $config: the error does not name '$text'"; exit 1; }
  done
  echo "ok: $(grep '^terrain_node: error: ' log)"
}

expect_error "$work/missing.json" "missing.json" "cannot open"
sed 's/"settle_time": 0/"settle_tim": 0/' "$src/configs/cosim_plane_terrain.json" >"$work/typo.json"
grep -q '"settle_tim"' "$work/typo.json" || { echo "FAIL: could not make the typo"; exit 1; }
expect_error "$work/typo.json" "typo.json" "cosim.settle_tim" "settle_time"
# A setting a co-simulation would silently ignore (issue 17 item 8): refused naming the key.
sed 's/"output": {"progress_interval": 0}/"output": {"progress_interval": 0, "checkpoint_interval": 10}/' \
  "$src/configs/cosim_plane_terrain.json" >"$work/ignored.json"
grep -q '"checkpoint_interval": 10' "$work/ignored.json" || { echo "FAIL: could not set checkpoint_interval"; exit 1; }
expect_error "$work/ignored.json" "ignored.json" "output.checkpoint_interval" "co-simulation writes checkpoint.bin only when"
