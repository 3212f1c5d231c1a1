#!/usr/bin/env bash
# The scaling driver (jobs/scaling.py) on the local Slurm cluster: the strong and weak series on
# 1 and 2 ranks of a small bed (4,000 and 2,000 per rank, 3 timed steps), chained so that the
# jobs do not share the 2 cores. It must submit 4 jobs, collect their results into strong.csv
# and weak.csv (2 rows each, the reference's columns; efficiency 1 on 1 rank, and the weak
# series doubling its particles), and draw scaling.png (a PNG file).
# Usage: scaling_run.sh SOURCE_DIR BUILD_DIR CLUSTER_DIR
set -euo pipefail
src=$1 build=$2 cluster=$3
export SLURM_CONF="$cluster/slurm.conf" TRACKCOSIM_BUILD="$build" TRACKCOSIM_SRUN_ARGS=--overcommit
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$src/jobs/scaling.py" --out "$work" --ranks 1,2 --strong-particles 4000 --weak-per-rank 2000 --steps 3 \
  --sbatch-args="--overcommit" --serial
/usr/bin/python3 - "$work" <<'PY'
import csv, os, sys
out = sys.argv[1]
for kind in ("strong", "weak"):
    rows = list(csv.DictReader(open(os.path.join(out, kind + ".csv"))))
    assert [r["ranks"] for r in rows] == ["1", "2"], rows
    assert list(rows[0]) == ["ranks", "particles", "ratio", "seconds_per_simulated_second", "efficiency", "job"], rows[0]
    assert float(rows[0]["efficiency"]) == 1.0 and float(rows[1]["efficiency"]) > 0, rows
    assert all(float(r["seconds_per_simulated_second"]) > 0 for r in rows), rows
    if kind == "strong":
        assert rows[0]["particles"] == rows[1]["particles"], rows
    else:
        assert 1.8 < int(rows[1]["particles"]) / int(rows[0]["particles"]) < 2.2, rows
with open(os.path.join(out, "scaling.png"), "rb") as f:
    assert f.read(8) == b"\x89PNG\r\n\x1a\n", "scaling.png is not a PNG"
print("scaling driver: 4 jobs, strong.csv and weak.csv with 2 rows each, scaling.png")
PY
