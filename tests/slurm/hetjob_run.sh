#!/usr/bin/env bash
# jobs/cosim_hetjob.sbatch submitted to the local two-node Slurm cluster (the ctest fixture
# starts tests/slurm/local_cluster.sh --nodes 2): component 0 is 1 vehicle task, component 1 two
# terrain tasks; the light robot for 0.05 s on its small gravel patch (3,100 spheres). The job
# must complete (both components COMPLETED with exit code 0 in scontrol), each component must have
# run on its own node (job.txt, run.json and each slurmd's log agree: vehicle on n1, terrain on
# n2), the run folder must hold job.txt, run.json, timing.csv and vehicle.csv with its rows, and
# vehicle.csv and shoes.csv must equal, byte for byte, those of the same run under mpirun MPMD.
# The two "nodes" are one host: Open MPI's TCP transport between the components goes over the
# loopback interface (btl_tcp_if_include=lo), whatever other interfaces the machine has.
# Usage: hetjob_run.sh SOURCE_DIR BUILD_DIR CLUSTER_DIR
set -euo pipefail
src=$1 build=$2 cluster=$3
export SLURM_CONF="$cluster/slurm.conf" TRACKCOSIM_BUILD="$build" OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cat > "$work/run.json" <<JSON
{"vehicle": {"config": "configs/vehicles/ndia_light_robot.json", "end_time": 0.05, "coupling_scheme": "sequential"},
 "terrain": {"config": "tests/configs/robot_test_bed.json", "ranks": 1}}
JSON

out="$work/hetjob"
id=$(cd "$work" && timeout 500 sbatch --parsable --wait -n 1 -c 1 : -n 2 -c 1 \
      --export="ALL,TRACKCOSIM_ROOT=$src,CONFIG=$work/run.json,OUT=$out,OMPI_MCA_btl_tcp_if_include=lo" \
      "$src/jobs/cosim_hetjob.sbatch") || { cat "$work"/*.out 2>/dev/null; fail "the heterogeneous job did not finish cleanly"; }
log="$work/trackcosim-hetjob-$id.out"
[[ -f "$log" ]] || { ls "$work"; fail "no job output file $log"; }
grep -h "srun had not returned" "$log" || true  # the launcher's guard ended a hung srun (tools/launcher/slurm_hetjob.py)

# Both components completed, on different nodes (scontrol keeps finished jobs for MinJobAge, 300 s).
for offset in 0 1; do
  node=n$(( offset + 1 ))
  facts=$(scontrol show job "$id+$offset")
  grep -q "JobState=COMPLETED " <<<"$facts" && grep -q " ExitCode=0:0$" <<<"$facts" &&
    grep -q "^ *NodeList=$node$" <<<"$facts" || { echo "$facts"; fail "component $offset: not COMPLETED with exit code 0 on $node"; }
  # The step's component was launched by that node's slurmd, and only there.
  grep -q "launch task $id+$offset\.0 " "$cluster/slurmd-$node.log" ||
    { tail -n 20 "$cluster/slurmd-$node.log"; fail "component $offset's step was not launched on $node"; }
done
grep -q "launch task $id+1\.0 " "$cluster/slurmd-n1.log" && fail "the terrain's step was launched on n1 as well"

grep -q "^cosim steps=50 terrain_ranks=2 particles=3100 " "$log" || { cat "$log"; fail "no summary line for 2 terrain ranks"; }
grep -q "^job_id=$id$" "$out/job.txt" && grep -q "^ranks: vehicle 0, terrain 1-2;" "$out/job.txt" &&
  grep -q "^het_group_0=vehicle nodelist=n1 nodes=1 tasks=1 " "$out/job.txt" &&
  grep -q "^het_group_1=terrain nodelist=n2 nodes=1 tasks=2 " "$out/job.txt" || { cat "$out/job.txt"; fail "job.txt"; }
python3 - "$out" "$id" <<'PY' || fail "run.json or vehicle.csv"
import csv, json, os, sys
out, job = sys.argv[1], sys.argv[2]
run = json.load(open(os.path.join(out, "run.json")))
slurm = run["slurm"]
assert run["launcher"] == "hetjob" and slurm["job_id"] == job, slurm
groups = slurm["het_groups"]
assert [(g["role"], g["nodelist"], g["ntasks"]) for g in groups] == [("vehicle", "n1", "1"), ("terrain", "n2", "2")], groups
assert run["ranks"] == {"vehicle": [0], "terrain": [1, 2]}, run["ranks"]
assert run["summary"]["steps"] == 50 and run["summary"]["terrain_ranks"] == 2, run["summary"]
command = run["command"]
assert command[command.index("--het-group=0") + 1:][:2] == ["-n", "1"], command
# vehicle.csv: one row every 0.02 s of the 0.05 s run, the chassis landing (z 0.34 and 0.33 m).
rows = list(csv.DictReader(open(os.path.join(out, "vehicle", "vehicle.csv"))))
times = [float(r["t"]) for r in rows]
assert len(rows) == 2 and all(abs(t - want) < 1e-9 for t, want in zip(times, (0.02, 0.04))), times
assert all(0.2 < float(r["z"]) < 0.5 for r in rows), [r["z"] for r in rows]
PY
[[ $(wc -l < "$out/timing.csv") == 51 ]] || fail "timing.csv: $(wc -l < "$out/timing.csv") lines, expected 51 (header + 50 coupling steps)"

# The same run under mpirun MPMD on this host: the vehicle's outputs are the same, byte for byte.
(cd "$src" && tools/trackcosim run "$work/run.json" --terrain-ranks 2 --out "$work/mpirun") >"$work/mpirun.log" 2>&1 ||
  { cat "$work/mpirun.log"; fail "the mpirun run"; }
cmp "$out/vehicle/vehicle.csv" "$work/mpirun/vehicle/vehicle.csv" || fail "vehicle.csv differs from mpirun's"
cmp "$out/vehicle/shoes.csv" "$work/mpirun/vehicle/shoes.csv" || fail "shoes.csv differs from mpirun's"
echo "cosim_hetjob.sbatch: job $id completed, vehicle on n1 (1 task), terrain on n2 (2 tasks), 50 coupling steps," \
     "the same vehicle.csv and shoes.csv as mpirun MPMD"
