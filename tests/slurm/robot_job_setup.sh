# Sourced by the job tests of tests/slurm: `source robot_job_setup.sh SOURCE_DIR BUILD_DIR
# CLUSTER_DIR END_TIME` sets src, build and cluster, points Slurm's commands at the local cluster
# and the launcher at the build, makes a work folder (removed at exit) and writes $work/run.json:
# the light robot for END_TIME seconds on its small gravel patch (3,100 spheres, made for 1
# terrain rank), sequential scheme.
src=$1 build=$2 cluster=$3
export SLURM_CONF="$cluster/slurm.conf" TRACKCOSIM_BUILD="$build"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/run.json" <<JSON
{"vehicle": {"config": "configs/vehicles/ndia_light_robot.json", "end_time": $4, "coupling_scheme": "sequential"},
 "terrain": {"config": "tests/configs/robot_test_bed.json", "ranks": 1}}
JSON
