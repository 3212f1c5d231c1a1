#!/usr/bin/env bash
# No rank holds the whole terrain (issue 19, item 3): the same bed of 64,000 spheres run on 1 and
# on 4 ranks, each run writing checkpoints (after steps 2 and 4), then continued from the other
# run's checkpoint (--restart: 4 ranks read the 1-rank file, 1 rank the 4-rank file) for 4 more
# steps with 2 more checkpoints. Each run's run.json holds every rank's resident size at start-up
# (program, libraries, MPI: the constant, about 15 MiB here) and its peak (VmHWM, read after the
# last checkpoint). The terrain's data on a rank is peak - start-up; on 4 ranks the largest must
# be at most 0.4 of the 1-rank figure, for the first runs and for the restarts (so during a
# checkpoint and a restart too: a gather to one rank would put the whole bed there).
# Also: both first runs write the same checkpoint bytes, and so do both restarts.
# Usage: memory_per_rank.sh TERRAIN_NODE MPIEXEC
set -euo pipefail
terrain_node=$1
mpiexec=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive

# 40 layers of 40 x 40 spheres starting apart (gap 0.1), so the 4 steps are cheap: about 2 KB of
# terrain data per sphere on one rank, 130 MiB in all, against the 15 MiB every process holds.
cat > "$work/bed.json" <<'JSON'
{
  "container": {"min": [0, 0, 0], "max": [0.44, 0.44, 0.5], "open_top": true},
  "particles": [{"kind": "layers", "min": [0, 0], "max": [0.44, 0.44], "bottom": 0, "layers": 40,
                 "radius": 0.005, "gap": 0.1, "seed": 19}],
  "step_size": 1e-3,
  "end_time": 0.004,
  "solver": {"method": "jacobi", "max_iterations": 10, "max_recovery_speed": 0.5},
  "collision": {"envelope": 0.0005},
  "output": {"checkpoint_interval": 2, "progress_interval": 0}
}
JSON
sed 's/"end_time": 0.004/"end_time": 0.008/' "$work/bed.json" > "$work/longer.json"

run() {  # ranks, name, terrain_node arguments...
  local n=$1 name=$2
  shift 2
  if ! "$mpiexec" --oversubscribe -n "$n" "$terrain_node" --out "$work/$name" "$@" > "$work/$name.log" 2>&1; then
    cat "$work/$name.log"
    echo "memory_per_rank: the $n-rank run '$name' failed" >&2
    exit 1
  fi
}
run 1 one --config "$work/bed.json"
run 4 four --config "$work/bed.json"
run 4 four_restart --config "$work/longer.json" --restart "$work/one/checkpoint.bin"
run 1 one_restart --config "$work/longer.json" --restart "$work/four/checkpoint.bin"

cmp "$work/one/checkpoint.bin" "$work/four/checkpoint.bin"
cmp "$work/one_restart/checkpoint.bin" "$work/four_restart/checkpoint.bin"

/usr/bin/env python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
MiB = 2.0 ** 20
def data(name):
    m = json.load(open(f"{work}/{name}/run.json"))["memory"]
    per_rank = [(p - b) / MiB for p, b in zip(m["peak_rss_bytes"], m["baseline_rss_bytes"])]
    assert all(b > 0 for b in m["baseline_rss_bytes"]), f"{name}: no start-up figure"
    return per_rank, max(m["baseline_rss_bytes"]) / MiB
failed = False
for one, four in (("one", "four"), ("one_restart", "four_restart")):
    (alone,), constant = data(one)
    split, _ = data(four)
    ratio = max(split) / alone
    print(f"{four:13s} terrain data per rank {', '.join(f'{d:.1f}' for d in split)} MiB; 1 rank {alone:.1f} MiB; "
          f"largest / 1 rank = {ratio:.3f} (limit 0.4); start-up constant {constant:.1f} MiB")
    if alone < 5 * constant:
        print(f"  the bed is too small to tell: 1 rank's data {alone:.1f} MiB against {constant:.1f} MiB start-up")
        failed = True
    if ratio > 0.4:
        print("  FAIL: a rank of 4 holds more than 0.4 of the 1-rank terrain data")
        failed = True
sys.exit(1 if failed else 0)
PY
echo "memory per rank on 4 ranks at most 0.4 of 1 rank's, runs and restarts; checkpoints the same bytes"
