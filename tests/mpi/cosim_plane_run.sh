#!/usr/bin/env bash
# The co-simulation against a rigid-plane terrain node (configs/cosim_plane_terrain.json: the
# container floor and no grains) reproduces the standalone rigid-ground run. The M113, its
# sprockets held still, stands for 3 s on a flat ground, at a 0.5 ms step, once standalone
# (vehicle_node --ground rigid) and once coupled to terrain_node (1 vehicle rank + 1 terrain
# rank, the concurrent scheme: the softer of the two). At every output time (20 ms) the mean height of the shoes that carry
# the vehicle (z < 35 mm: the pad spheres' 30 mm radius plus 5 mm) is the same within 1 mm.
# Measured: 0.65 mm at most. Most of it is the shoe springs' compression, 1 mm under a
# road wheel's 11 kN (docs/protocol.md, "Shoe contact law").
# With MODE "implicit" the coupling is sequential with implicit shoe loads (docs/protocol.md,
# "Implicit shoe loads"): the shoes' springs are 4 times the sequential default (no grains to
# lend their contact law) and the loaded shoes must match the rigid ground within 0.5 mm.
# Measured: 0.32 mm (16 times the default: the shoes chattered on the floor's explicit friction,
# 3.8 mm).
# Usage: cosim_plane_run.sh VEHICLE_NODE TERRAIN_NODE MPIEXEC SOURCE_DIR [explicit|implicit]
set -euo pipefail
vehicle=$1 terrain=$2 mpiexec=$3 src=$4 mode=${5:-explicit}
if [[ $mode == implicit ]]; then
  coupling=(--coupling-scheme sequential --shoe-loads implicit) bound=5e-4
else
  coupling=(--coupling-scheme concurrent) bound=1e-3
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive

# The shipped M113 with its driver holding both sprockets at 0 rad/s throughout.
sed 's|^  "driver": {.*|  "driver": { "mode": "speed", "both": [[0, 0]] },|' "$src/configs/vehicles/m113.json" >"$work/m113.json"
grep -q '"both": \[\[0, 0\]\] }' "$work/m113.json" || { echo "FAIL: could not set the driver"; exit 1; }

"$vehicle" --config "$work/m113.json" --ground rigid --ground-profile flat --end-time 3 --step 5e-4 --quiet \
  --out "$work/alone" >"$work/alone.log" 2>&1 || { cat "$work/alone.log"; exit 1; }
"$mpiexec" --oversubscribe -np 1 "$vehicle" --config "$work/m113.json" --terrain mpi --end-time 3 --step 5e-4 \
  --coupling-step 5e-4 "${coupling[@]}" --quiet --out "$work/coupled/vehicle" \
  : -np 1 "$terrain" --config "$src/configs/cosim_plane_terrain.json" --cosim --out "$work/coupled/terrain" \
  >"$work/coupled.log" 2>&1 || { cat "$work/coupled.log"; exit 1; }

loaded_heights() {  # shoes.csv -> "t mean_z count" per output time
  awk -F, 'NR > 1 && $6 < 0.035 { s[$1] += $6; n[$1]++ } END { for (t in s) printf "%.4f %.7f %d\n", t, s[t] / n[t], n[t] }' "$1" |
    sort -n
}
loaded_heights "$work/alone/shoes.csv" >"$work/alone.z"
loaded_heights "$work/coupled/vehicle/shoes.csv" >"$work/coupled.z"
[[ $(wc -l <"$work/alone.z") -ge 140 ]] || { echo "FAIL: too few output times"; exit 1; }
join "$work/alone.z" "$work/coupled.z" | awk -v bound="$bound" '
  { d = $2 - $4; if (d < 0) d = -d; if (d > worst) { worst = d; when = $1 } ++rows }
  END {
    printf "%d output times; mean height of the loaded shoes differs by at most %.2f mm (t = %s s)\n", rows, 1e3 * worst, when
    exit !(rows >= 140 && worst < bound)
  }'
