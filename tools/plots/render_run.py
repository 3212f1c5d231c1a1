"""`trackcosim render RUN_DIR`: the vehicle on the grains, frame by frame, and an MP4 per view
(docs/render.md). The frames are independent POV-Ray renders drawn by a pool of --jobs processes;
--slice I/N draws one share of them for a job of a Slurm array (jobs/render_frames.sbatch) and
--movie-only joins the frames the array drew."""
import json
import multiprocessing
import os
import shutil
import subprocess
import sys
import time

from common.command_line import UsageError, parse_render_command_line
from common.input_checks import EXIT_RUN_FAILED
from common.vtk_reader import VtkError
from plots.render_frame import SCENES, Job, draw, png_path
from plots.render_overlay import FONT, FONT_FOLDERS, font_folder
from plots.render_plan import RenderError, RenderFailed, find_series, parse_slice, plan_frames, slice_of
from plots.render_setup import UNITS, prepare

INSTALL_HINT = "apt-get install povray fonts-povray ffmpeg (or bash tools/install_deps.sh --with-render)"


def check_programs(names):
    missing = [n for n in names if not shutil.which(n)]
    if missing:
        raise RenderFailed("%s not found: %s" % (" and ".join(missing), INSTALL_HINT))


def overlay_font_folder():
    """The folder of the overlay's font, found before any frame is drawn rather than by every POV-Ray."""
    folder = font_folder()
    if folder is None:
        raise RenderFailed("POV-Ray's font %s, which the overlay writes with, is in none of %s: apt-get install "
                           "fonts-povray (or bash tools/install_deps.sh --with-render), or render with --no-overlay" % (
                               FONT, ", ".join(FONT_FOLDERS)))
    return folder


def cores():
    """The cores this process may use (a Slurm job's share, not the node's)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def default_fps(frames):
    """Real time: one second of movie per simulated second, within 1..60 frames per second."""
    if len(frames) < 2 or frames[1].time <= frames[0].time:
        return 25
    return max(1, min(60, round(1.0 / (frames[1].time - frames[0].time))))


def duration(seconds):
    return "%d min %02d s" % divmod(int(seconds + 0.5), 60) if seconds >= 60 else "%.0f s" % seconds


def draw_frames(pool, jobs, workers):
    """Draws the frames in the pool with one progress line per frame; stops at the first failure."""
    start, done, busy = time.monotonic(), 0, 0.0
    for index, seconds, error in pool.imap_unordered(draw, jobs):
        if error:
            raise RenderFailed("frame %d: %s" % (index, error))
        done, busy = done + 1, busy + seconds
        wall = time.monotonic() - start
        print("render: %d/%d frames, %.2f s per frame (%.2f s wall each, %d jobs), ETA %s" % (
            done, len(jobs), busy / done, wall / done, workers, duration(wall / done * (len(jobs) - done))), flush=True)
    return busy / max(1, done), time.monotonic() - start


def make_movie(out, view, frames, fps):
    """out/<view>.mp4 from out/<view>/frame_%06d.png; every frame must be there."""
    missing = [f.index for f in frames if not os.path.isfile(png_path(out, view, f.index))]
    if missing:
        raise RenderError("%s: %d of %d frames missing (first: %s); draw them before --movie-only" % (
            os.path.join(out, view), len(missing), len(frames), os.path.basename(png_path(out, view, missing[0]))))
    movie = os.path.join(out, view + ".mp4")
    command = ["ffmpeg", "-y", "-loglevel", "error", "-framerate", str(fps), "-i",
               os.path.join(out, view, "frame_%06d.png"), "-c:v", "libx264", "-pix_fmt", "yuv420p",
               "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", movie]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise RenderFailed("ffmpeg failed on %s: %s" % (movie, result.stderr.strip()[-400:]))
    print("render: %s (%d frames at %d fps)" % (movie, len(frames), fps), flush=True)


def record(out, setup, options, frames, per_frame):
    """out/render.json: the colour range (the movie's legend), the side camera, the timing."""
    side = setup.side
    facts = {"color": setup.quantity, "range": [setup.low, setup.high], "unit": UNITS[setup.quantity],
             "frames": len(frames), "views": options["views"], "size": list(options["size"]),
             "quality": options["quality"], "overlay": options["overlay"], "seconds_per_frame": per_frame,
             "side_camera": {"location": side.location, "look_at": side.look_at, "angle_deg": side.angle_deg}}
    with open(os.path.join(out, "render.json"), "w") as f:
        json.dump(facts, f, indent=2)


def render(folder, opts):
    vehicle, terrain = find_series(folder)
    if vehicle and not terrain and os.path.isdir(os.path.join(folder, "terrain")):
        # A co-simulation whose terrain wrote no snapshots: say so before drawing an empty floor.
        print("trackcosim: warning: %s has no terrain series (terrain/particles.pvd): the vehicle is drawn on an "
              "empty floor; a co-simulation writes one every 0.1 s unless its terrain config sets "
              "output.snapshot_interval to 0 (docs/terrain-config.md)" % folder, file=sys.stderr, flush=True)
    frames = plan_frames(vehicle, terrain, opts["--every"], opts["--start"], opts["--end"])
    views = ["chase", "side"] if opts["--view"] == "both" else [opts["--view"]]
    if not vehicle and "chase" in views:
        if opts["--view"] == "chase":
            raise RenderError("%s: --view chase follows a vehicle, and this run has no vehicle.pvd" % folder)
        views = ["side"]
    movie = not opts["--no-movie"] and opts["--slice"] is None
    check_programs((["povray"] if not opts["--movie-only"] else []) + (["ffmpeg"] if movie or opts["--movie-only"] else []))
    overlay = not opts["--no-overlay"] and not opts["--movie-only"]
    fonts = overlay_font_folder() if overlay else None
    out = opts["--out"] or os.path.join(folder, "render")
    for sub in [SCENES] + views:
        os.makedirs(os.path.join(out, sub), exist_ok=True)
    fps = opts["--fps"] or default_fps(frames)
    if opts["--movie-only"]:
        for view in views:
            make_movie(out, view, frames, fps)
        return 0
    mine = slice_of(frames, parse_slice(opts["--slice"])) if opts["--slice"] else frames
    workers = max(1, min(opts["--jobs"] or cores(), len(mine)))
    width, height = opts["--size"]
    options = {"out": out, "views": views, "size": (width, height), "quality": opts["--quality"],
               "threads": max(1, cores() // workers), "spheres": opts["--spheres"], "keep_scenes": opts["--keep-scenes"],
               "overlay": overlay, "font_folder": fonts}
    with multiprocessing.Pool(workers) as pool:
        setup = prepare(frames, opts["--color"], width / height, pool.map)
        print("render: %d of %d frames (%s) of %s, %dx%d, %s quality, colour by %s over [%.4g, %.4g] %s, %d jobs" % (
            len(mine), len(frames), ", ".join(views), folder, width, height, opts["--quality"], opts["--color"],
            setup.low, setup.high, UNITS[setup.quantity], workers), flush=True)
        per_frame, wall = draw_frames(pool, [Job(f, setup, options) for f in mine], workers)
    if opts["--slice"] is None:
        record(out, setup, options, frames, per_frame)
    print("render: %d frames in %s, %.2f s per frame per job, frames in %s" % (
        len(mine), duration(wall), per_frame, ", ".join(os.path.join(out, v) for v in views)), flush=True)
    if movie:
        for view in views:
            make_movie(out, view, frames, fps)
    return 0


def render_command(args, fail):
    """The `render` subcommand of tools/launcher/trackcosim.py; fail(message[, exit status]) prints its error
    line and exits (docs/exit-status.md: 2 for bad input, 1 when the drawing itself failed)."""
    try:
        folder, opts = parse_render_command_line(args)
    except UsageError as e:
        fail("%s\nusage: %s" % (e, USAGE))
    if not os.path.isdir(folder):
        fail("render %s: no such run folder" % folder)
    try:
        return render(folder, opts)
    except RenderFailed as e:
        fail(str(e), EXIT_RUN_FAILED)
    except (RenderError, VtkError) as e:
        fail(str(e))
    except (KeyError, ValueError, IndexError) as e:
        fail("%s: a file lacks a block or array that docs/render.md names (%s: %s)" % (folder, type(e).__name__, e))


USAGE = ("trackcosim render RUN_DIR [--out DIR] [--view chase|side|both] [--color speed|height] [--every N] "
         "[--start T] [--end T] [--size WxH] [--jobs N] [--quality low|high] [--fps N] [--no-movie] "
         "[--slice I/N] [--movie-only] [--spheres] [--keep-scenes] [--no-overlay]")
