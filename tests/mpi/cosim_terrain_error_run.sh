#!/usr/bin/env bash
# A terrain that refuses its input in an MPMD co-simulation says why. The terrain's leader is
# world rank 1 there (the vehicle is rank 0), so its config errors must be printed by its own
# first rank, not by world rank 0: a missing terrain config and a typo in a cosim key each end
# the job with exit status 2 (bad input, docs/exit-status.md) and one "terrain_node: error:" line
# naming the file and the key,
# on 1 vehicle rank + 2 terrain ranks, well within the timeout; so does a setting a co-simulation
# would ignore (output.checkpoint_interval); and a standalone terrain_node with a typo in its config.
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
  if [[ $status -ne 2 ]]; then
    cat log; echo "FAIL: $config: exit status $status (expected 2, bad input; 124: a hang)"; exit 1
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
# The same convention without the vehicle: a standalone terrain_node (one rank, no mpiexec)
# refusing its config ends with 2, and one whose run fails with 1 is tested elsewhere.
sed 's/"end_time"/"end_tme"/' "$src/configs/settle_small.json" >"$work/standalone.json"
grep -q '"end_tme"' "$work/standalone.json" || { echo "FAIL: could not make the standalone typo"; exit 1; }
status=0
"$terrain" --config "$work/standalone.json" --out standalone >log 2>&1 || status=$?
[[ $status -eq 2 ]] || { cat log; echo "FAIL: standalone: exit status $status, expected 2 (bad input)"; exit 1; }
grep -q '^terrain_node: error: .*standalone.json.*end_tme' log || { cat log; echo "FAIL: standalone: the error does not name the key"; exit 1; }
echo "ok: standalone: $(grep '^terrain_node: error: ' log)"
