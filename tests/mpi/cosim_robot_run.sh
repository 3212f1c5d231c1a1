#!/usr/bin/env bash
# vehicle_node and terrain_node in one MPI job (mpirun MPMD), the NDIA light robot landing on a
# settled gravel patch (tests/configs/robot_test_bed.json) for 0.8 s, its motors holding the
# sprockets still throughout, sequential scheme (the light shoes need its stiffer springs):
#  - the handshake places it on the terrain and the terrain catches it: once settled
#    (0.4 s to 0.8 s), the mean vertical force on its 122 shoes is its weight
#    (471.48 kg x 9.81 = 4625 N) within 5%, and the chassis stays above the floor; shoes.csv
#    holds those terrain forces per shoe (fz summed over the shoes: the weight within 5%);
#  - the robot's outputs (vehicle.csv, shoes.csv, the force column of timing.csv) are byte for
#    byte the same with 1 and 2 terrain ranks: the shoe forces do not depend on the rank count;
#  - the 2-rank run goes through the launcher (tools/trackcosim run), which writes the merged
#    timing.csv and run.json and ends with the parseable `cosim steps=...` line, whose mobility
#    fields (slip, sprocket power, ground pressure) are n/a: the sprockets never turn; its rank
#    balance line reads terrain/ranks.csv, two rows a step; run.log in the run folder holds
#    every line it printed; the README's quoted summary line has the keys of this run's line.
# With LOADS "implicit" the vehicle takes the shoe loads implicitly (docs/protocol.md, "Implicit
# shoe loads": the terrain sends each shoe's contact stiffness, exact over its ranks), and all of
# the above must hold the same way.
# Usage: cosim_robot_run.sh VEHICLE_NODE TERRAIN_NODE MPIEXEC SOURCE_DIR [explicit|implicit]
set -euo pipefail
vehicle=$1 terrain=$2 mpiexec=$3 src=$4 loads=${5:-explicit}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive
# The shipped robot with its driver holding both sprockets at 0 rad/s throughout.
robot="$work/robot.json"
sed 's|^  "driver": {.*|  "driver": { "mode": "speed", "both": [[0, 0]] },|' "$src/configs/vehicles/ndia_light_robot.json" >"$robot"
grep -q '"both": \[\[0, 0\]\] }' "$robot" || { echo "FAIL: could not set the driver"; exit 1; }

run() {  # terrain ranks, out
  "$mpiexec" --oversubscribe -np 1 "$vehicle" --config "$robot" --terrain mpi \
    --end-time 0.8 --coupling-scheme sequential --shoe-loads "$loads" --quiet --out "$work/$2/vehicle" \
    : -np "$1" "$terrain" --config "$src/tests/configs/robot_test_bed.json" --cosim --out "$work/$2/terrain" \
    >"$work/$2.log" 2>&1 || { cat "$work/$2.log"; exit 1; }
}
run 1 one
# The same with 2 terrain ranks through the launcher, which must write its folder and summary.
cat > "$work/run.json" <<JSON
{"vehicle": {"config": "$robot", "end_time": 0.8, "coupling_scheme": "sequential", "shoe_loads": "$loads"},
 "terrain": {"config": "$src/tests/configs/robot_test_bed.json", "ranks": 2}, "output": "$work/two"}
JSON
TRACKCOSIM_BUILD=$(dirname "$(dirname "$vehicle")") "$src/tools/trackcosim" run "$work/run.json" >"$work/two.log" 2>&1 ||
  { cat "$work/two.log"; exit 1; }
tail -n 1 "$work/two.log"
grep -Eq "^cosim steps=800 terrain_ranks=2 particles=3100 distance_m=[-0-9.]+ sinkage_m=[-0-9.]+ step_ms=[0-9.]+ exchange_share=[0-9.]+ slip=n/a sprocket_power_kw=n/a ground_pressure_kpa=n/a$" "$work/two.log"
# The README quotes the default run's parseable line: it must have this run's keys, in this order.
keys() { grep -Eo "[a-z_]+=" | tr -d '\n'; }
readme_keys=$(grep -Em 1 "^ *cosim steps=" "$src/README.md" | keys)
run_keys=$(grep -E "^cosim steps=" "$work/two.log" | keys)
[[ -n $readme_keys && $readme_keys == "$run_keys" ]] ||
  { echo "FAIL: the README's summary line has keys $readme_keys, a run prints $run_keys"; exit 1; }
[[ -f $work/two/timing.csv && -f $work/two/run.json && -f $work/two/terrain/timing.csv ]]
[[ $(wc -l < "$work/two/timing.csv") == 801 ]]
# Two terrain ranks: the summary says how evenly they shared the work (terrain/ranks.csv, 2 rows a step).
grep -Eq "^  rank balance +work per coupling step rank 0 [0-9.]+ ms \([0-9]+ contacts\), rank 1 [0-9.]+ ms" "$work/two.log" ||
  { echo "FAIL: no rank balance line in the 2-rank summary"; exit 1; }
[[ $(wc -l < "$work/two/terrain/ranks.csv") == 1601 ]] || { echo "FAIL: terrain/ranks.csv is not 2 rows a step"; exit 1; }
# run.log: what the launcher printed, in the run folder (its start line, the mpirun line, both
# programs' lines, the summary), the same lines as the terminal got (sorted: python buffers
# stdout into a file, so the terminal file may order stdout and stderr lines otherwise).
head -n 1 "$work/two/run.log" | grep -q "^=== trackcosim started " || { echo "FAIL: run.log has no start line"; exit 1; }
diff <(tail -n +2 "$work/two/run.log" | sort) <(sort "$work/two.log") >/dev/null || { echo "FAIL: run.log is not what the run printed"; exit 1; }

weight=$(awk 'BEGIN{printf "%.1f", 471.48 * 9.81}')
settled=$(awk -F, 'NR > 1 && $2 > 0.4 && $2 <= 0.8 {s += $5; n++} END {printf "%.1f", s / n}' "$work/two/vehicle/timing.csv")
echo "mean terrain force on the shoes from 0.4 s to 0.8 s: $settled N; robot weight $weight N"
awk -v f="$settled" -v w="$weight" 'BEGIN{exit !(f > 0.95 * w && f < 1.05 * w)}' ||
  { echo "FAIL: the settled terrain force is not the weight within 5%"; exit 1; }
shoes=$(awk -F, 'NR > 1 && $1 > 0.4 && $1 <= 0.8 {s[$1] += $19} END {for (t in s) {m += s[t]; n++}; printf "%.1f", m / n}' \
  "$work/two/vehicle/shoes.csv")
echo "shoes.csv: mean terrain force summed over the shoes from 0.4 s to 0.8 s: $shoes N"
awk -v f="$shoes" -v w="$weight" 'BEGIN{exit !(f > 0.95 * w && f < 1.05 * w)}' ||
  { echo "FAIL: shoes.csv does not hold the terrain's forces (their sum is not the weight within 5%)"; exit 1; }
lowest=$(awk -F, 'NR > 1 && (min == "" || $4 < min) {min = $4} END {print min}' "$work/two/vehicle/vehicle.csv")
awk -v z="$lowest" 'BEGIN{exit !(z > 0.1)}' || { echo "FAIL: the chassis fell to z = $lowest m"; exit 1; }

cmp "$work/one/vehicle/vehicle.csv" "$work/two/vehicle/vehicle.csv"
cmp "$work/one/vehicle/shoes.csv" "$work/two/vehicle/shoes.csv"
diff <(cut -d, -f1,2,5 "$work/one/vehicle/timing.csv") <(cut -d, -f1,2,5 "$work/two/vehicle/timing.csv")
echo "the same shoe forces and vehicle motion with 1 and 2 terrain ranks"
