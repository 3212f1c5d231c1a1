# Sourced by the job scripts in jobs/: the settings every co-simulation job shares.
# Parameters (environment; pass them with `sbatch --export=ALL,CONFIG=...` or export them first):
#   CONFIG         launcher run config (default configs/cosim_gravel.json; docs/protocol.md)
#   TERRAIN_RANKS  terrain ranks (default: the job's tasks minus the vehicle's one; in a
#                  heterogeneous job the tasks of component 1)
#   GROW           1: keep the config's particles per rank, the patch growing along x with the
#                  terrain ranks (weak scaling); default 0
#   OUT            run folder (default output/<config name>-<job id>)
#   RESUME         a run folder that a stop signal ended: continue it from its checkpoints
#                  (OUT becomes RESUME; any terrain rank count)
#   RESUBMIT       walltime safety: how many times a job stopped by the time-limit warning
#                  resubmits itself to continue the run (default 3; 0: never)
#   RESUBMIT_ARGS  extra sbatch options for a resubmitted job (its tasks, CPUs per task, nodes,
#                  partition and time limit are carried over)
#   TRACKCOSIM_ROOT  the source tree with a build/ (default: the folder sbatch was called from)
#   TRACKCOSIM_BUILD the build folder (default TRACKCOSIM_ROOT/build; the launcher takes the programs from it)
# Nodes, tasks, CPUs per task (= OpenMP threads per rank), partition and time limit are sbatch's
# own options: `sbatch -N 2 -n 9 -c 4 -p batch -t 01:00:00 jobs/cosim_mpirun.sbatch`.
# Walltime safety (jobs/README.md): the scripts ask for `--signal=B:USR1@120`, and run_cosim
# passes that warning to the launcher, which stops both programs with their checkpoints.
set -euo pipefail
cd "${TRACKCOSIM_ROOT:-${SLURM_SUBMIT_DIR:-.}}"
[[ -x tools/trackcosim ]] || { echo "job: $(pwd) is not a trackcosim source tree (set TRACKCOSIM_ROOT)" >&2; exit 2; }
source jobs/mpi_settings.sh  # Open MPI: a lost node ends the job within seconds
CONFIG=${CONFIG:-configs/cosim_gravel.json}
TERRAIN_RANKS=${TERRAIN_RANKS:-${SLURM_NTASKS_HET_GROUP_1:-$(( ${SLURM_NTASKS:-3} - 1 ))}}
(( TERRAIN_RANKS >= 1 )) || { echo "job: needs at least 2 tasks (1 vehicle + 1 terrain), got ${SLURM_NTASKS:-?}" >&2; exit 2; }
OUT=${RESUME:-${OUT:-output/$(basename "$CONFIG" .json)-${SLURM_JOB_ID:-local}}}
export OMP_NUM_THREADS=${SLURM_CPUS_PER_TASK:-1} OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
launch_args=(run "$CONFIG" --terrain-ranks "$TERRAIN_RANKS" --out "$OUT")
[[ "${GROW:-0}" == 1 ]] && launch_args+=(--grow-with-ranks)
[[ -n "${RESUME:-}" ]] && launch_args+=(--resume "$RESUME")
mkdir -p "$OUT"
# Where the job ran, before anything can fail (the launcher's run.json repeats it at the end).
{
  echo "job_id=${SLURM_JOB_ID:-none}"
  echo "job_name=${SLURM_JOB_NAME:-none}"
  echo "nodelist=${SLURM_JOB_NODELIST:-$(hostname)}"
  echo "nodes=${SLURM_JOB_NUM_NODES:-1} tasks=${SLURM_NTASKS:-?} cpus_per_task=${SLURM_CPUS_PER_TASK:-1}"
  echo "ranks: vehicle 0, terrain 1-$TERRAIN_RANKS; OMP_NUM_THREADS=$OMP_NUM_THREADS"
  echo "config=$CONFIG grow=${GROW:-0}"
  # A heterogeneous job: the variables above describe component 0; each component's own facts.
  roles=(vehicle terrain)
  for (( group = 0; group < ${SLURM_HET_SIZE:-0}; group++ )); do
    nodelist=SLURM_JOB_NODELIST_HET_GROUP_$group nodes=SLURM_JOB_NUM_NODES_HET_GROUP_$group
    tasks=SLURM_NTASKS_HET_GROUP_$group cpus=SLURM_CPUS_PER_TASK_HET_GROUP_$group
    echo "het_group_$group=${roles[group]:-unused} nodelist=${!nodelist:-?} nodes=${!nodes:-?}" \
         "tasks=${!tasks:-?} cpus_per_task=${!cpus:-1}"
  done
} > "$OUT/job.txt"
# Every job that worked on this run folder, one line each (a resumed run adds its own).
echo "${SLURM_JOB_ID:-none} ${RESUME:+resumed}" >> "$OUT/jobs.txt"

# run_cosim LAUNCHER_ARGS...: the launcher in the background, so that this batch shell can pass it
# the time-limit warning (--signal=B:USR1@T reaches only the batch shell) or a SIGTERM (scancel);
# the launcher stops both programs at one coupling step with their checkpoints (exit 0). A run
# that stopped that way (RUN_DIR/stopped.txt) is then resubmitted to continue after this job.
run_cosim() {
  local launcher status=0
  tools/trackcosim "${launch_args[@]}" "$@" &
  launcher=$!
  trap 'kill -USR1 "$launcher" 2>/dev/null || true' USR1 TERM
  # `wait` returns early when a trapped signal arrives: wait again until the launcher has ended.
  while :; do
    status=0
    wait "$launcher" || status=$?
    kill -0 "$launcher" 2>/dev/null || break
  done
  trap - USR1 TERM
  (( status == 0 )) || return "$status"
  [[ -f "$OUT/stopped.txt" ]] || return 0
  if (( ${RESUBMIT:-3} <= 0 )) || [[ -z "${SLURM_JOB_ID:-}" ]]; then
    echo "job: the run stopped early; continue it with sbatch --export=ALL,RESUME=$OUT $JOB_SCRIPT"
    return 0
  fi
  local limit next root=$PWD
  limit=$(squeue -h -j "$SLURM_JOB_ID" -o %l | head -n 1)
  # The job-wide options go with the first component; then the shape of each component.
  local options=(--parsable --dependency="afterany:$SLURM_JOB_ID" --job-name="$SLURM_JOB_NAME" --time="$limit"
                 --export="ALL,TRACKCOSIM_ROOT=$root,RESUME=$OUT,RESUBMIT=$(( ${RESUBMIT:-3} - 1 ))")
  if (( ${SLURM_HET_SIZE:-1} > 1 )); then
    options+=($(component_shape _HET_GROUP_0) : $(component_shape _HET_GROUP_1))
  else
    options+=($(component_shape ""))
  fi
  # From the first job's submit folder, so that the job output files land next to its own.
  next=$(cd "${SLURM_SUBMIT_DIR:-.}" && sbatch "${options[@]}" "$root/$JOB_SCRIPT")
  echo "job: the run stopped early; resubmitted as job $next to continue it (RESUME=$OUT)"
}

# component_shape SUFFIX: the sbatch options that give a resubmitted job (or one component of a
# heterogeneous job, SUFFIX _HET_GROUP_<n>) the tasks, CPUs per task, nodes and partition of this
# one, plus RESUBMIT_ARGS.
component_shape() {
  local tasks=SLURM_NTASKS$1 cpus=SLURM_CPUS_PER_TASK$1 nodes=SLURM_JOB_NUM_NODES$1 partition=SLURM_JOB_PARTITION$1
  # shellcheck disable=SC2086  # RESUBMIT_ARGS is a list of options
  echo --ntasks="${!tasks}" --cpus-per-task="${!cpus:-1}" --nodes="${!nodes:-1}" \
       --partition="${!partition:-$SLURM_JOB_PARTITION}" ${RESUBMIT_ARGS:-}
}
