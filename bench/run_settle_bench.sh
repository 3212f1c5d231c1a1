#!/usr/bin/env bash
# Settling wall time (issue 8): a bed of N spheres (radius 1 cm, 10 layers generated with a 10%
# gap, as the co-simulation paper's settling runs) dropped into an open box and run with a settle
# section until its rms speed is below RMS_SPEED or the time cap. Prints per size the steps the
# bed needed, the wall time, the mean wall time per step, and a parseable line
#   settle_bench N=<n> ranks=<r> threads=<t> steps=<k> stop=<reason> seconds=<s> step_seconds=<x> ...
# With STEPS=k the run is capped at k steps instead (a timing sample for a size too large to
# settle here); with EXTRAPOLATE_STEPS=k the line adds extrapolated_seconds = k x step_seconds.
#
#   bench/run_settle_bench.sh [BUILD_DIR]       (default build; needs terrain_node)
# Environment: SIZES ("100000"), RANKS (1), THREADS (2), RMS_SPEED (0.01 m/s), MAX_TIME (1.5 s),
# SOLVER ('{"method": "apgd", "max_iterations": 50, "max_recovery_speed": 0.5}': projected Jacobi
# at 25 iterations leaves a 10-layer bed jittering at about 0.05 m/s, above any useful threshold),
# STEPS, EXTRAPOLATE_STEPS, WORK (a scratch folder, default mktemp).
set -euo pipefail
source "$(dirname "$0")/../tools/script_help.sh"
build=${1:-build}
exe="$build/terrain_node/terrain_node"
[[ -x "$exe" ]] || { echo "run_settle_bench.sh: $exe not built" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_WAIT_POLICY=passive
sizes=${SIZES:-100000} ranks=${RANKS:-1} threads=${THREADS:-2}
rms=${RMS_SPEED:-0.01} max_time=${MAX_TIME:-1.5}
solver=${SOLVER:-'{"method": "apgd", "max_iterations": 50, "max_recovery_speed": 0.5}'}
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"

for n in $sizes; do
  # 10 layers of c x c cells of pitch 22 mm (the extra 1 cm keeps rounding from dropping a row).
  c=$(python3 -c "import math; print(max(1, round(math.sqrt($n / 10))))")
  side=$(python3 -c "print($c * 0.022 + 0.01)")
  cap=$max_time
  [[ -n ${STEPS:-} ]] && cap=$(python3 -c "print(${STEPS} * 1e-3)")
  cat > "$work/bed_$n.json" <<JSON
{
  "container": {"min": [0, 0, 0], "max": [$side, $side, 0.5], "open_top": true},
  "material": {"friction": 0.5, "density": 2500},
  "particles": [{"kind": "layers", "min": [0, 0], "max": [$side, $side], "bottom": 0, "layers": 10,
                 "radius": 0.01, "gap": 0.1, "seed": 2018}],
  "step_size": 1e-3,
  "end_time": $cap,
  "solver": $solver,
  "collision": {"envelope": 0.001},
  "settle": {"rms_speed": $rms, "max_time": $cap, "min_time": 0.1, "check_interval": 10},
  "output": {"snapshot_interval": 0, "stats": true, "progress_interval": 30}
}
JSON
  start=$(date +%s.%N)
  mpiexec -n "$ranks" --oversubscribe "$exe" --config "$work/bed_$n.json" --out "$work/out_$n" --threads "$threads" \
    > "$work/log_$n.txt"
  total=$(python3 -c "import time; print(round($(date +%s.%N) - $start, 3))")
  python3 - "$work/out_$n" "$n" "$ranks" "$threads" "$total" "${EXTRAPOLATE_STEPS:-}" <<'PY'
import csv, json, sys
out, n, ranks, threads, total, extrapolate = sys.argv[1:]
s = json.load(open(out + "/settle.json"))
rows = list(csv.DictReader(open(out + "/stats.csv")))
# The first step allocates the device buffers: left out of the mean when there are others.
timed = rows[1:] if len(rows) > 1 else rows
step = sum(float(r["wall_total"]) for r in timed) / max(1, len(timed))
print(f"N={s['particles']}: {s['steps']} steps ({s['stop_reason']}, rms speed {s['rms_speed']:.4g} m/s), "
      f"run {s['wall_seconds']:.1f} s, {step:.3f} s per step (after the first), last step {rows[-1]['contacts']} contacts, process {total} s (set-up included); "
      f"depth {s['depth_mean']:.4f} m, packing {s['packing_fraction']}, {s['contacts_per_particle']:.3f} contacts per particle")
line = (f"settle_bench N={s['particles']} ranks={ranks} threads={threads} steps={s['steps']} stop={s['stop_reason']} "
        f"seconds={s['wall_seconds']:.3f} process_seconds={total} step_seconds={step:.4f}")
if extrapolate:
    line += f" extrapolated_steps={extrapolate} extrapolated_seconds={int(extrapolate) * step:.1f}"
print(line)
PY
done
