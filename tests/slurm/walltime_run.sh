#!/usr/bin/env bash
# Walltime safety under Slurm (jobs/README.md, "Walltime safety"): a job script of jobs/
# (cosim_mpirun.sbatch, cosim_srun.sbatch: srun forwards the signal to its tasks, or
# cosim_hetjob.sbatch on the two-node cluster: vehicle on n1, terrain on n2) runs
# the light robot on its small gravel patch (1 vehicle + 2 terrain tasks, 0.2 s, 200 coupling
# steps). Mid-run the batch shell gets SIGUSR1, as `#SBATCH --signal=B:USR1@120` sends it before
# the time limit (here simulated with `scancel --signal=USR1 --batch`). The job must end with
# exit status 0, both checkpoints and the launcher's "stopped by SIGUSR1 at coupling step k", and
# resubmit itself; the resubmitted job (RESUME) must complete the run in the same folder: all
# 200 coupling steps in timing.csv and vehicle/timing.csv, in order, and the summary line;
# jobs.txt names both jobs.
# Usage: walltime_run.sh SOURCE_DIR BUILD_DIR CLUSTER_DIR JOB_SCRIPT
set -euo pipefail
source "$(dirname "$0")/robot_job_setup.sh" "$1" "$2" "$3" 0.2
script=$4 name=$(basename "$4" .sbatch)
out="$work/run"

gone() { [[ -z $(squeue -h -j "$1" -o %T 2>/dev/null) ]]; }
wait_gone() {  # job id, seconds
  for _ in $(seq $(( $2 * 2 ))); do gone "$1" && return; sleep 0.5; done
  scancel "$1" 2>/dev/null || true
  cat "$work"/*.out 2>/dev/null; echo "FAIL: job $1 did not end within $2 s"; exit 1
}

if [[ "$script" == cosim_hetjob.sbatch ]]; then
  # A component per node; their ranks talk over TCP on the loopback (tests/slurm/hetjob_run.sh).
  shape=(-n 1 -c 1 : -n 2 -c 1) environment=OMPI_MCA_btl_tcp_if_include=lo
else
  # --overcommit: 3 tasks on this 2-CPU node, for the job, its srun steps and the resubmitted job.
  shape=(--overcommit -n 3 -c 1) environment=TRACKCOSIM_SRUN_ARGS=--overcommit
fi
first=$(cd "$work" && sbatch --parsable -t 00:10:00 \
  --export="ALL,TRACKCOSIM_ROOT=$src,CONFIG=$work/run.json,OUT=$out,RESUBMIT=1,RESUBMIT_ARGS=--overcommit,$environment" \
  "${shape[@]}" "$src/jobs/$script")
for _ in $(seq 600); do
  [[ -f "$out/terrain/timing.csv" && $(wc -l <"$out/terrain/timing.csv") -gt 45 ]] && break
  gone "$first" && { cat "$work"/*.out; echo "FAIL: the job ended before it was signalled"; exit 1; }
  sleep 0.5
done
scancel --signal=USR1 --batch "$first"
wait_gone "$first" 300
log="$work/trackcosim-${name#cosim_}-$first.out"
line=$(grep "^trackcosim: stopped by SIGUSR1 at coupling step " "$log") || { cat "$log"; echo "FAIL: no stop"; exit 1; }
k=$(sed 's/.* coupling step \([0-9]*\);.*/\1/' <<<"$line")
(( k > 0 && k < 200 )) || { echo "FAIL: stopped at coupling step $k"; exit 1; }
# Slurm signals every task: either program may act first (the vehicle says by=USR1, or by=terrain
# when the terrain's stop came first), and each says whether it caught the signal. Every order
# is right as long as both stopped at step k and one of them caught SIGUSR1.
grep -Eq "^vehicle stopped by=(USR1|terrain) step=$k " "$log" && grep -Eq "^terrain stopped step=$k signal=(USR1|none) " "$log" ||
  { cat "$log"; echo "FAIL: the programs did not both stop at step $k"; exit 1; }
grep -q "^vehicle stopped by=USR1 step=$k " "$log" || grep -q "^terrain stopped step=$k signal=USR1 " "$log" ||
  { cat "$log"; echo "FAIL: neither program says it caught SIGUSR1"; exit 1; }
[[ -f "$out/vehicle/checkpoint.bin" && -f "$out/terrain/checkpoint.bin" ]] || { echo "FAIL: checkpoints"; exit 1; }
second=$(sed -n 's/^job: the run stopped early; resubmitted as job \([0-9]*\) .*/\1/p' "$log")
[[ -n "$second" ]] || { cat "$log"; echo "FAIL: the job did not resubmit itself"; exit 1; }
echo "$script: job $first: SIGUSR1 to the batch shell stopped both programs at coupling step $k; resubmitted as job $second"

wait_gone "$second" 400
log2="$work/trackcosim-${name#cosim_}-$second.out"
grep -Eq "^cosim steps=200 terrain_ranks=2 particles=3100 " "$log2" || { cat "$log2"; echo "FAIL: no summary"; exit 1; }
grep -q "^restart    coupling step $k " "$log2" || { cat "$log2"; echo "FAIL: not resumed at step $k"; exit 1; }
[[ ! -f "$out/stopped.txt" ]] || { echo "FAIL: stopped.txt left behind"; exit 1; }
diff "$out/jobs.txt" <(printf '%s \n%s resumed\n' "$first" "$second") || { echo "FAIL: jobs.txt"; exit 1; }
diff <(cut -d, -f1 "$out/vehicle/timing.csv") <(echo step; seq 0 199) >/dev/null ||
  { echo "FAIL: vehicle/timing.csv does not hold steps 0..199 once each"; exit 1; }
diff <(cut -d, -f1 "$out/timing.csv") <(echo step; seq 0 199) >/dev/null ||
  { echo "FAIL: the merged timing.csv does not hold steps 0..199 once each"; exit 1; }
echo "job $second resumed at coupling step $k and completed the run: 200 coupling steps in the same folder"
# Not a failure, but worth seeing: srun hung after the heterogeneous step and the launcher's guard
# ended it (tools/launcher/slurm_hetjob.py).
grep -h "srun had not returned" "$work"/*.out || true
