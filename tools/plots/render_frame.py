"""One frame of `trackcosim render` (docs/render.md): read its vehicle frame and terrain
snapshot, write its scene, and run POV-Ray once per view. Runs in a worker of the render's
process pool, so it returns its failure as text instead of raising it."""
import os
import subprocess
import time

from common.vtk_reader import VtkError, read_grid, read_multiblock, read_points_file
from plots.povray_scene import frame_include, view_scene
from plots.render_camera import chase_camera
from plots.render_overlay import overlay
from plots.render_setup import chassis_pose

SCENES = "scenes"  # under the output folder: the .inc and .pov files of the frames being drawn


class Job:
    """What a worker needs for one frame: the frame (render_plan.Frame), the run's Setup, and the
    render's options (views, size, quality, threads per POV-Ray, contact spheres, keep scenes,
    overlay and the folder of its font)."""

    def __init__(self, frame, setup, options):
        self.frame, self.setup, self.options = frame, setup, options


def povray_command(pov, png, options):
    """POV-Ray with no display (-D), quiet (-V), PNG output; `high` adds antialiasing; the
    overlay's font folder as a library path (+L)."""
    width, height = options["size"]
    quality = ["+A0.2", "+AM2", "+R2"] if options["quality"] == "high" else ["-A"]
    fonts = ["+L" + options["font_folder"]] if options["overlay"] else []
    return ["povray", "+I" + pov, "+O" + png, "+W%d" % width, "+H%d" % height, "-D", "-V", "+FN",
            "+WT%d" % options["threads"]] + quality + fonts


def camera_of(view, frame, setup):
    if view == "side":
        return setup.side
    position, orientation = chassis_pose(frame.vehicle)
    return chase_camera(position, orientation, setup.size)


def png_path(out, view, index):
    return os.path.join(out, view, "frame_%06d.png" % index)


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def draw(job):
    """Renders job's frame in every view; returns (frame index, seconds, error text or None)."""
    start = time.monotonic()
    frame, setup, options = job.frame, job.setup, job.options
    out = options["out"]
    try:
        terrain = read_points_file(frame.terrain) if frame.terrain else None
        bodies = spheres = None
        if frame.vehicle:
            blocks = read_multiblock(frame.vehicle)
            bodies = read_grid(blocks["bodies"])
            spheres = read_grid(blocks["spheres"]) if options["spheres"] else None
        title = "frame %d, t = %.6g s: %s, %s" % (frame.index, frame.time, frame.vehicle, frame.terrain)
        include = os.path.join(SCENES, "frame_%06d.inc" % frame.index)
        write(os.path.join(out, include), frame_include(setup, options["quality"], title, terrain, bodies, spheres))
        width, height = options["size"]
        written = [include]
        for view in options["views"]:
            pov = os.path.join(SCENES, "%s_%06d.pov" % (view, frame.index))
            camera = camera_of(view, frame, setup)
            legend = (setup.quantity, setup.low, setup.high) if frame.terrain else None
            text = overlay(camera, width / height, frame.time, legend) if options["overlay"] else ""
            write(os.path.join(out, pov), view_scene(camera, width / height, include, text))
            written.append(pov)
            png = os.path.relpath(png_path(out, view, frame.index), out)
            # POV-Ray's default file I/O security allows the current folder: run it in out.
            result = subprocess.run(povray_command(pov, png, options), cwd=out, capture_output=True, text=True)
            if result.returncode != 0 or not os.path.isfile(os.path.join(out, png)):
                tail = " | ".join((result.stderr or result.stdout).strip().splitlines()[-4:])
                return frame.index, time.monotonic() - start, "povray failed on %s (exit %d): %s" % (
                    os.path.join(out, pov), result.returncode, tail)
        if not options["keep_scenes"]:
            for path in written:
                os.remove(os.path.join(out, path))
    except (VtkError, OSError) as e:
        return frame.index, time.monotonic() - start, str(e)
    except (KeyError, ValueError, IndexError) as e:
        return frame.index, time.monotonic() - start, "%s or %s lacks a block or array the format names (%s: %s)" % (
            frame.vehicle, frame.terrain, type(e).__name__, e)
    return frame.index, time.monotonic() - start, None
