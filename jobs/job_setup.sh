# Sourced by the job scripts in jobs/: the settings every co-simulation job shares.
# Parameters (environment; pass them with `sbatch --export=ALL,CONFIG=...` or export them first):
#   CONFIG         launcher run config (default configs/cosim_gravel.json; docs/protocol.md)
#   TERRAIN_RANKS  terrain ranks (default: the job's tasks minus the vehicle's one; in a
#                  heterogeneous job the tasks of component 1)
#   GROW           1: keep the config's particles per rank, the patch growing along x with the
#                  terrain ranks (weak scaling); default 0
#   OUT            run folder (default output/<config name>-<job id>)
#   TRACKCOSIM_ROOT  the source tree with a build/ (default: the folder sbatch was called from)
# Nodes, tasks, CPUs per task (= OpenMP threads per rank), partition and time limit are sbatch's
# own options: `sbatch -N 2 -n 9 -c 4 -p batch -t 01:00:00 jobs/cosim_mpirun.sbatch`.
set -euo pipefail
cd "${TRACKCOSIM_ROOT:-${SLURM_SUBMIT_DIR:-.}}"
[[ -x tools/trackcosim ]] || { echo "job: $(pwd) is not a trackcosim source tree (set TRACKCOSIM_ROOT)" >&2; exit 2; }
CONFIG=${CONFIG:-configs/cosim_gravel.json}
TERRAIN_RANKS=${TERRAIN_RANKS:-${SLURM_NTASKS_HET_GROUP_1:-$(( ${SLURM_NTASKS:-3} - 1 ))}}
(( TERRAIN_RANKS >= 1 )) || { echo "job: needs at least 2 tasks (1 vehicle + 1 terrain), got ${SLURM_NTASKS:-?}" >&2; exit 2; }
OUT=${OUT:-output/$(basename "$CONFIG" .json)-${SLURM_JOB_ID:-local}}
export OMP_NUM_THREADS=${SLURM_CPUS_PER_TASK:-1} OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
launch_args=(run "$CONFIG" --terrain-ranks "$TERRAIN_RANKS" --out "$OUT")
[[ "${GROW:-0}" == 1 ]] && launch_args+=(--grow-with-ranks)
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
