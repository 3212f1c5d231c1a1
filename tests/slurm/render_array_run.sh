#!/usr/bin/env bash
# jobs/render_frames.sbatch on the local Slurm cluster (fixture slurm) with the short
# co-simulation of the fixture visual_run: a 2-task array draws the frames (--slice I/2) and the
# dependent job its first task submits joins them into the movies (--movie-only). Submitted from
# the source tree, as the docs say, on a copy of the run folder (the other tests read the
# original), tiny frames: 160x90, low quality, every 5th vehicle frame.
# Checks: both array tasks and the movie job complete; every frame of the plan exists for each view,
# and its pixels equal those of the same frame drawn without Slurm (POV-Ray writes the render
# time into the PNG's tIME and tEXt chunks, so the files differ in those bytes only); chase.mp4 and
# side.mp4 hold one video frame per planned frame (ffprobe); the job output files lie where -o
# put them (the movie job's too) and none in the source tree.
# Usage: render_array_run.sh SOURCE_DIR CLUSTER_DIR RUN_DIR
set -euo pipefail
src=$1 cluster=$2 run=$3
export SLURM_CONF="$cluster/slurm.conf"
render_args="--size 160x90 --quality low --every 5"
[[ -f "$run/vehicle/vehicle.pvd" ]] || { echo "FAIL: no run folder $run (fixture visual_run)"; exit 1; }
work=$(mktemp -d)
array_id=""
cleanup() {
  if [[ -n "$array_id" ]]; then scancel "$array_id" ${movie_id:+"$movie_id"} 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
cp -r "$run" "$work/slurm"
cp -r "$run" "$work/plain"
rm -rf "$work/slurm/render" "$work/plain/render"
mkdir "$work/logs"
logs_in_src() { { compgen -G "$src/trackcosim-render-*" || true; } | wc -l; }
before=$(logs_in_src)

start=$(date +%s)
array_id=$(cd "$src" && sbatch --parsable --array=0-1 -o "$work/logs/trackcosim-render-%A_%a.out" \
             --export="ALL,RUN=$work/slurm,RENDER_ARGS=$render_args" jobs/render_frames.sbatch)
echo "array job $array_id submitted"

# The reference: the same frames drawn without Slurm, while the array runs.
# shellcheck disable=SC2086  # render_args is a list of options
"$src/tools/trackcosim" render "$work/plain" $render_args --no-movie >"$work/plain.log" 2>&1 ||
  { cat "$work/plain.log"; echo "FAIL: render without Slurm"; exit 1; }

state() {  # job id -> its JobState (COMPLETED, FAILED, ...; scontrol keeps ended jobs MinJobAge=300 s)
  scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | sort -u | tr '\n' ' '
}
show_logs() { for f in "$work"/logs/*; do echo "== $f"; cat "$f"; done; }
deadline=$(( start + 300 )) movie_id=""
while :; do
  (( $(date +%s) < deadline )) || { squeue; show_logs; echo "FAIL: jobs not done within 300 s"; exit 1; }
  [[ -z "$movie_id" && -f "$work/logs/trackcosim-render-${array_id}_0.out" ]] &&
    movie_id=$(sed -n 's/^movie_job=\([0-9]*\) .*/\1/p' "$work/logs/trackcosim-render-${array_id}_0.out")
  array_state=$(state "$array_id")
  movie_state=${movie_id:+$(state "$movie_id")}
  case "$array_state $movie_state" in
    *FAIL*|*CANCEL*|*TIMEOUT*|*OUT_OF_ME*) show_logs; echo "FAIL: array: $array_state movie: $movie_state"; exit 1 ;;
  esac
  [[ "$array_state" == "COMPLETED " && -z "$movie_id" ]] &&
    { show_logs; echo "FAIL: the array's first task did not report its movie job (movie_job=ID)"; exit 1; }
  [[ "$array_state" == "COMPLETED " && "$movie_state" == "COMPLETED " ]] && break
  sleep 2
done
echo "array job $array_id (2 tasks) and movie job $movie_id completed in $(( $(date +%s) - start )) s"

# Output files: both tasks' and the movie job's beside each other where -o put them, none in the
# source tree (the movie job used to write its file there, into the folder the job runs in).
for f in "${array_id}_0" "${array_id}_1" "${array_id}-movie"; do
  [[ -s "$work/logs/trackcosim-render-$f.out" ]] || { ls "$work/logs"; echo "FAIL: no output file trackcosim-render-$f.out"; exit 1; }
done
after=$(logs_in_src)
[[ "$after" == "$before" ]] || { echo "FAIL: job output files in the source tree"; exit 1; }
for task in 0 1; do
  grep -q "^job_id=${array_id}_$task nodelist=localhost slice=$task/2 " "$work/logs/trackcosim-render-${array_id}_$task.out" ||
    { show_logs; echo "FAIL: task $task's slice"; exit 1; }
done

/usr/bin/python3 - "$work" "$src/tests/tools" <<'PY' || { show_logs; exit 1; }
import os, subprocess, sys
work, tools = sys.argv[1], sys.argv[2]
sys.path.insert(0, tools)
from png_pixels import read_png
slurm, plain = os.path.join(work, "slurm", "render"), os.path.join(work, "plain", "render")
movie_log = open(os.path.join(work, "logs", [f for f in os.listdir(os.path.join(work, "logs")) if f.endswith("-movie.out")][0])).read()
for view in ("chase", "side"):
    planned = sorted(f for f in os.listdir(os.path.join(plain, view)) if f.endswith(".png"))
    drawn = sorted(f for f in os.listdir(os.path.join(slurm, view)) if f.endswith(".png"))
    assert len(planned) >= 3, (view, planned)
    assert planned == ["frame_%06d.png" % i for i in range(len(planned))], planned
    assert drawn == planned, "%s: the array drew %s, the plan is %s" % (view, drawn, planned)
    for name in planned:
        a, b = read_png(os.path.join(slurm, view, name)), read_png(os.path.join(plain, view, name))
        assert a[:2] == (160, 90), (view, name, a[:2])
        assert a == b, "%s/%s: the array's pixels differ from the frame drawn without Slurm" % (view, name)
    movie = os.path.join(slurm, view + ".mp4")
    assert os.path.getsize(movie) > 0, movie
    assert "render: %s (%d frames at " % (movie, len(planned)) in movie_log, movie_log
    probe = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                            "stream=nb_read_frames,width,height", "-of", "csv=p=0", movie],
                           capture_output=True, text=True, check=True).stdout.strip()
    assert probe == "160,90,%d" % len(planned), (movie, probe)
    print("%s: %d frames, pixels equal to the render without Slurm; %s: %s (width, height, frames)" % (
        view, len(planned), os.path.basename(movie), probe))
PY
echo "PASS: render_frames.sbatch as a 2-task array and its movie job"
