#!/usr/bin/env bash
# vehicle_node and terrain_node under `srun --mpi=pmix --multi-prog` on the local Slurm cluster
# (tests/slurm/local_cluster.sh, started by the ctest fixture): 1 vehicle task + 2 terrain
# tasks in one step, the light robot on gravel for 0.1 s. Under srun MPI_APPNUM is not set;
# each program finds its peers by the role split of MPI_COMM_WORLD alone. The run must
# finish and write the same vehicle.csv and shoes.csv, byte for byte, as the same job under
# `mpirun A : B`.
# Usage: srun_multiprog_run.sh VEHICLE_NODE TERRAIN_NODE MPIEXEC SOURCE_DIR CLUSTER_DIR
set -euo pipefail
vehicle=$1 terrain=$2 mpiexec=$3 src=$4 cluster=$5
export SLURM_CONF="$cluster/slurm.conf" OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
vehicle_args=(--config "$src/configs/vehicles/ndia_light_robot.json" --terrain mpi --end-time 0.1 --quiet)
terrain_args=(--config "$src/tests/configs/robot_test_bed.json" --cosim)

cat > "$work/multi.conf" <<CONF
0 $vehicle ${vehicle_args[*]} --out $work/srun/vehicle
1-2 $terrain ${terrain_args[*]} --out $work/srun/terrain
CONF
timeout 300 srun --mpi=pmix -n 3 --overcommit --multi-prog "$work/multi.conf" >"$work/srun.log" 2>&1 ||
  { cat "$work/srun.log"; exit 1; }
grep -q "^vehicle cosim steps=100 " "$work/srun.log" || { cat "$work/srun.log"; echo "FAIL: no vehicle summary"; exit 1; }
grep -q "^terrain cosim steps=100 shoes=122 ranks=2 " "$work/srun.log" ||
  { cat "$work/srun.log"; echo "FAIL: no terrain summary on 2 ranks"; exit 1; }

"$mpiexec" --oversubscribe -np 1 "$vehicle" "${vehicle_args[@]}" --out "$work/mpirun/vehicle" \
  : -np 2 "$terrain" "${terrain_args[@]}" --out "$work/mpirun/terrain" >"$work/mpirun.log" 2>&1 ||
  { cat "$work/mpirun.log"; exit 1; }
cmp "$work/srun/vehicle/vehicle.csv" "$work/mpirun/vehicle/vehicle.csv"
cmp "$work/srun/vehicle/shoes.csv" "$work/mpirun/vehicle/shoes.csv"
echo "srun --multi-prog: 100 coupling steps on 1 + 2 tasks, the same outputs as mpirun MPMD"
