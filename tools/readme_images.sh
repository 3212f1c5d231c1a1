#!/usr/bin/env bash
# The README's two pictures of the default run (docs/visualisation.md, "The README's pictures"):
# the side view of its last frame, rendered with POV-Ray, and the plot of its speed and distance.
#   bash tools/readme_images.sh [RUN_DIR]     RUN_DIR defaults to output/cosim_gravel
# Run the default co-simulation first (bash tools/quickstart.sh run). Writes docs/images/
# default_run_side.png and docs/images/default_run_motion.png; commit them with git add docs/images.
set -euo pipefail
source "$(dirname "$0")/script_help.sh"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
run=${1:-output/cosim_gravel}
[[ -f "$run/vehicle/vehicle.pvd" ]] || { echo "readme_images: $run/vehicle/vehicle.pvd: no such file (run the default co-simulation first)" >&2; exit 1; }
images="$here/docs/images"
mkdir -p "$images"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The last vehicle frame's time: the render draws the frames from --start on.
last=$(sed -n 's/.*timestep="\([^"]*\)".*/\1/p' "$run/vehicle/vehicle.pvd" | tail -n 1)
"$here/tools/trackcosim" render "$run" --out "$work/render" --view side --start "$last" --size 800x450 --no-movie
cp "$(ls "$work"/render/side/frame_*.png | tail -n 1)" "$images/default_run_side.png"
"$here/tools/trackcosim" plot "$run" --out "$work/plots" --dpi 80 >/dev/null
cp "$work/plots/motion.png" "$images/default_run_motion.png"
ls -l "$images"/default_run_*.png
