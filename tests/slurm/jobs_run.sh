#!/usr/bin/env bash
# The job scripts of jobs/ submitted to the local Slurm cluster (the ctest fixture starts it):
# jobs/cosim_mpirun.sbatch and jobs/cosim_srun.sbatch, each on 1 vehicle + 2 terrain tasks, the
# light robot for 0.05 s on its small gravel patch (3,100 spheres, made for 1 terrain rank). The
# second job keeps the particles per rank (GROW=1): its 2 terrain ranks get a patch twice as
# long, 6,200 spheres. Each job must finish with exit status 0 and leave in its run folder job.txt
# (job id, node list, rank layout), the launcher's run.json with the same job id, the merged
# timing.csv with one row per coupling step, and its summary line in the job's output file.
# Usage: jobs_run.sh SOURCE_DIR BUILD_DIR CLUSTER_DIR
set -euo pipefail
source "$(dirname "$0")/robot_job_setup.sh" "$1" "$2" "$3" 0.05

check() {  # script, extra exports, expected particles
  local script=$1 extra=$2 particles=$3 name out id
  name=$(basename "$script" .sbatch)
  out="$work/$name"
  # --overcommit: 3 tasks on this 2-CPU node. TRACKCOSIM_SRUN_ARGS passes it on to the step.
  id=$(cd "$work" && sbatch --parsable --wait --overcommit -n 3 -c 1 \
        --export="ALL,TRACKCOSIM_ROOT=$src,CONFIG=$work/run.json,OUT=$out,TRACKCOSIM_SRUN_ARGS=--overcommit$extra" \
        "$src/jobs/$script") || { cat "$work"/*.out 2>/dev/null; echo "FAIL: $script did not finish cleanly"; exit 1; }
  local log="$work/trackcosim-${name#cosim_}-$id.out"
  [[ -f "$log" ]] || { ls "$work"; echo "FAIL: no job output file $log"; exit 1; }
  grep -Eq "^cosim steps=50 terrain_ranks=2 particles=$particles " "$log" ||
    { cat "$log"; echo "FAIL: $script: no summary line with $particles particles"; exit 1; }
  grep -q "^job_id=$id$" "$out/job.txt" && grep -q "^ranks: vehicle 0, terrain 1-2;" "$out/job.txt" ||
    { cat "$out/job.txt"; echo "FAIL: job.txt"; exit 1; }
  python3 - "$out/run.json" "$id" <<'PY' || { echo "FAIL: run.json does not record the job"; exit 1; }
import json, sys
run = json.load(open(sys.argv[1]))
assert run["slurm"]["job_id"] == sys.argv[2], run["slurm"]
assert run["slurm"]["nodelist"] == "localhost" and run["slurm"]["ntasks"] == "3", run["slurm"]
assert run["ranks"] == {"vehicle": [0], "terrain": [1, 2]}, run["ranks"]
PY
  [[ $(wc -l < "$out/timing.csv") == 51 ]] || { echo "FAIL: timing.csv rows"; exit 1; }
  echo "$script: job $id finished, $particles particles, outputs and job facts recorded"
}
check cosim_mpirun.sbatch "" 3100
check cosim_srun.sbatch ",GROW=1" 6200
