#!/usr/bin/env bash
# The multi-host test cluster (tests/slurm/netns_cluster.sh): two hosts h1 and h2, each a network
# namespace with its own address on a private bridge and its own slurmd; Open MPI uses TCP
# between them and no shared memory (btl tcp,self on the bridge's subnet). Steps:
#  1. a probe job of 4 ranks over both hosts (srun --mpi=pmix and mpirun): two hostnames, two
#     network namespaces, two addresses, and 1 MiB passed around the ring;
#  2. the co-simulation job (jobs/cosim_mpirun.sbatch: the light robot for 0.05 s on its 3,100
#     spheres, 1 vehicle + 2 terrain ranks) with ranks on both hosts (Open MPI's map says which)
#     writes the same vehicle.csv and shoes.csv, byte for byte, as on one host (shared memory
#     allowed there);
#  3. the standalone terrain job (jobs/terrain_run.sbatch under srun: configs/settle_small.json
#     for 0.03 s, 30 steps, a checkpoint every 10, 4 ranks) over both hosts writes the same
#     checkpoint.bin and probes.csv as on one host;
#  4. a host taken down mid-run: the same terrain run, 1 s long, loses h2 (its interface set
#     down) after its first checkpoint; the job must end within 60 s with the ranks' watchdog
#     error, and its checkpoint must continue (--restart, 2 ranks on h1 alone) to step 30 with
#     the bytes of step 3's checkpoint;
#  5. the co-simulation, 1 s long, loses h2 (its processes killed) after 20 coupling steps: the
#     job must end within 60 s with an error naming the lost daemon or peer.
# Prints the measured seconds from taking the host down to the job's end. Starts the cluster
# itself and stops it, removing namespaces and bridge, however the test ends. Exit status 77
# (ctest: skipped) where network namespaces cannot be made.
# Usage: netns_cluster_run.sh SOURCE_DIR BUILD_DIR CLUSTER_DIR PROBE_PROGRAM
set -euo pipefail
src=$1 build=$2 cluster=$3 probe=$4
script="$src/tests/slurm/netns_cluster.sh"
if ! reason=$(bash "$script" check); then
  echo "SKIP: $reason"
  exit 77
fi
work=$(mktemp -d)
cleanup() {
  # Ends the jobs too: their processes run in the namespaces.
  bash "$script" stop "$cluster" || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }

bash "$script" start "$cluster"
export SLURM_CONF="$cluster/slurm.conf" TRACKCOSIM_BUILD="$build" OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive
# TCP between hosts on the bridge's subnet, no shared memory (netns_cluster.sh env).
while read -r line; do export "${line?}"; done < <(bash "$script" env)
# Each job's output shows which host each rank ran on (mpirun's map).
export OMPI_MCA_rmaps_base_display_map=1

# 1. The probe: ranks in two namespaces, over TCP.
for launcher in "srun --mpi=pmix" "mpirun"; do
  (cd "$work" && sbatch --wait --no-requeue -N 2 -n 4 -o probe.out --wrap "$launcher $probe") >/dev/null ||
    { cat "$work/probe.out"; fail "the probe job under $launcher"; }
  grep -q "^probe ranks=4 hosts=2 netns=2 ring=ok$" "$work/probe.out" || { cat "$work/probe.out"; fail "probe under $launcher"; }
  for host in h1:10.77.0.11 h2:10.77.0.12; do
    [[ $(grep -c "^probe rank=[0-9] host=${host%:*} netns=net:\[[0-9]*\] addresses=${host#*:}/24$" "$work/probe.out") == 2 ]] ||
      { cat "$work/probe.out"; fail "probe under $launcher: not 2 ranks on ${host%:*} with address ${host#*:}"; }
  done
  echo "probe ($launcher): 4 ranks, 2 on h1 (10.77.0.11), 2 on h2 (10.77.0.12), two network namespaces, ring over TCP ok"
done

# submit NAME SBATCH_ARGS...: a job from $work with output NAME.out; prints its id.
submit() {
  local name=$1; shift
  (cd "$work" && sbatch --parsable --no-requeue -o "$name.out" "$@")
}
# state JOB: its Slurm state (RUNNING, COMPLETING, ...), or UNKNOWN when squeue does not answer.
state() { squeue -h -t all -j "$1" -o %T 2>/dev/null || echo UNKNOWN; }
# ranks_on_hosts LOG: the hosts of mpirun's map that got ranks ("h1 h2").
ranks_on_hosts() { grep -o "Data for node: h[0-9]" "$1" | awk '{print $4}' | sort -u | tr '\n' ' '; }

# 2. The co-simulation over two hosts and on one. On one host the ranks may use shared memory
# (btl vader), as an ordinary run does; between hosts only TCP.
cat > "$work/cosim.json" <<JSON
{"vehicle": {"config": "configs/vehicles/ndia_light_robot.json", "end_time": 0.05, "coupling_scheme": "sequential"},
 "terrain": {"config": "tests/configs/robot_test_bed.json", "ranks": 1}}
JSON
for shape in two one; do
  nodes=(-N 2) btl=tcp,self && [[ $shape == one ]] && nodes=(-N 1 -w h1 --overcommit) btl=self,vader,tcp
  OMPI_MCA_btl=$btl submit "cosim_$shape" --wait "${nodes[@]}" -n 3 \
    --export="ALL,TRACKCOSIM_ROOT=$src,CONFIG=$work/cosim.json,OUT=$work/cosim_$shape" "$src/jobs/cosim_mpirun.sbatch" >/dev/null ||
    { cat "$work/cosim_$shape.out"; fail "the co-simulation job on $shape host(s)"; }
  grep -q "^cosim steps=50 terrain_ranks=2 particles=3100 " "$work/cosim_$shape.out" || { cat "$work/cosim_$shape.out"; fail "cosim summary"; }
done
[[ $(ranks_on_hosts "$work/cosim_two.out") == "h1 h2 " ]] || { cat "$work/cosim_two.out"; fail "the co-simulation's ranks were not on both hosts"; }
for file in vehicle/vehicle.csv vehicle/shoes.csv; do
  cmp "$work/cosim_two/$file" "$work/cosim_one/$file" || fail "$file: two hosts differ from one"
done
echo "co-simulation (cosim_mpirun.sbatch, 50 coupling steps): ranks on h1 and h2; vehicle.csv and shoes.csv equal those on one host"

# 3. The standalone terrain run over two hosts and on one: the 30-step settle_small bed, 4 ranks.
terrain_config() {  # end time, file
  sed -e 's/"end_time": 0.5,/"end_time": '"$1"',/' -e 's/"snapshot_interval": 50,/"snapshot_interval": 10, "checkpoint_interval": 10,/' \
    "$src/configs/settle_small.json" > "$2"
  grep -q "\"end_time\": $1," "$2" && grep -q '"checkpoint_interval": 10' "$2" || fail "could not derive $2 from settle_small.json"
}
terrain_config 0.03 "$work/bed.json"
for shape in two one; do
  nodes=(-N 2) btl=tcp,self && [[ $shape == one ]] && nodes=(-N 1 -w h1 --overcommit) btl=self,vader,tcp
  OMPI_MCA_btl=$btl submit "terrain_$shape" --wait "${nodes[@]}" -n 4 \
    --export="ALL,TRACKCOSIM_ROOT=$src,CONFIG=$work/bed.json,OUT=$work/terrain_$shape,TRACKCOSIM_SRUN_ARGS=--overcommit" \
    "$src/jobs/terrain_run.sbatch" >/dev/null || { cat "$work/terrain_$shape.out"; fail "the terrain job on $shape host(s)"; }
  grep -q "^settle bodies=3245 steps=30 .* ranks=4 " "$work/terrain_$shape.out" || { cat "$work/terrain_$shape.out"; fail "terrain summary"; }
done
grep -q "nodelist=h\[1-2\] nodes=2 tasks=4" "$work/terrain_two/job.txt" || { cat "$work/terrain_two/job.txt"; fail "terrain job.txt"; }
for file in checkpoint.bin probes.csv; do
  cmp "$work/terrain_two/$file" "$work/terrain_one/$file" || fail "terrain $file: two hosts differ from one"
done
echo "terrain run (terrain_run.sbatch, srun, 4 ranks over h1 and h2): checkpoint.bin and probes.csv equal those on one host"

# take_down JOB LOG HOST HOW READY_FILE LINES: once READY_FILE has LINES lines, take HOST down
# (netns_cluster.sh down: link or processes); wait (90 s at most) for the job to leave RUNNING;
# sets `seconds` to the time from taking the host down to then.
take_down() {
  local job=$1 log=$2 host=$3 how=$4 ready=$5 lines=$6 t0
  ready() { [[ -f "$ready" ]] && (( $(wc -l < "$ready") >= lines )); }
  for _ in $(seq 1200); do
    ready && break
    case $(state "$job") in
      PENDING|CONFIGURING|RUNNING|UNKNOWN) ;;
      *) cat "$log" 2>/dev/null; fail "job $job ended ($(state "$job")) before $host was taken down" ;;
    esac
    sleep 0.2
  done
  ready || fail "$ready did not reach $lines lines in 240 s"
  t0=$(date +%s.%N)
  bash "$script" down "$cluster" "$host" "$how" >/dev/null
  for _ in $(seq 900); do
    case $(state "$job") in RUNNING|UNKNOWN) sleep 0.1 ;; *) break ;; esac
  done
  seconds=$(python3 -c "import sys, time; print('%.1f' % (time.time() - float(sys.argv[1])))" "$t0")
}

# 4. A host's interface down in the middle of a terrain run; its checkpoint continues the run.
terrain_config 1.0 "$work/bed_long.json"
job=$(submit terrain_down -N 2 -n 4 \
  --export="ALL,TRACKCOSIM_ROOT=$src,CONFIG=$work/bed_long.json,OUT=$work/terrain_down" "$src/jobs/terrain_run.sbatch")
take_down "$job" "$work/terrain_down.out" h2 link "$work/terrain_down/checkpoint.bin" 1
log="$work/terrain_down.out"
grep -E "terrain_node rank [0-9]: error: no progress for [0-9]+ s since terrain step [0-9]+" "$log" ||
  { cat "$log"; fail "no watchdog error in the terrain job"; }
grep -q "^job: terrain_node ended with status " "$log" || { cat "$log"; fail "the job did not say that terrain_node failed"; }
python3 -c "import sys; sys.exit(float(sys.argv[1]) > 60)" "$seconds" || fail "the terrain job ended $seconds s after h2 went down (> 60 s)"
echo "terrain run, h2's interface down after the first checkpoint: the job ended after $seconds s with the error above"
bash "$script" up "$cluster" h2 >/dev/null
submit terrain_restart --wait -N 1 -w h1 --overcommit -n 2 \
  --export="ALL,TRACKCOSIM_ROOT=$src,CONFIG=$work/bed.json,OUT=$work/terrain_restart,RESTART=$work/terrain_down/checkpoint.bin" \
  "$src/jobs/terrain_run.sbatch" >/dev/null || { cat "$work/terrain_restart.out"; fail "the restart from the checkpoint"; }
grep -q "^restart    from step 10," "$work/terrain_restart.out" && grep -q "^settle bodies=3245 steps=30 .* ranks=2 " "$work/terrain_restart.out" ||
  { cat "$work/terrain_restart.out"; fail "the restart did not continue from step 10 to 30"; }
cmp "$work/terrain_restart/checkpoint.bin" "$work/terrain_two/checkpoint.bin" ||
  fail "the run continued from the checkpoint left by the lost host does not end with the uninterrupted run's checkpoint"
echo "its checkpoint (step 10), continued on h1 alone (2 ranks) to step 30: the same checkpoint.bin as the uninterrupted run"

# 5. A host's processes killed in the middle of a co-simulation.
sed 's/"end_time": 0.05/"end_time": 1.0/' "$work/cosim.json" > "$work/cosim_long.json"
job=$(submit cosim_down -N 2 -n 3 \
  --export="ALL,TRACKCOSIM_ROOT=$src,CONFIG=$work/cosim_long.json,OUT=$work/cosim_down" "$src/jobs/cosim_mpirun.sbatch")
take_down "$job" "$work/cosim_down.out" h2 processes "$work/cosim_down/vehicle/timing.csv" 21
log="$work/cosim_down.out"
grep -E "ORTE has lost communication with a remote daemon|stopped answering|peer hung up|no progress for" "$log" ||
  { cat "$log"; fail "no error naming the lost host or peer in the co-simulation job"; }
python3 -c "import sys; sys.exit(float(sys.argv[1]) > 60)" "$seconds" || fail "the co-simulation job ended $seconds s after h2 went down (> 60 s)"
echo "co-simulation, h2's processes killed after 20 coupling steps: the job ended after $seconds s with the error above"
bash "$script" up "$cluster" h2 >/dev/null
