"""Which frames `trackcosim render` draws (docs/render.md): the run folder's two series, the
vehicle frames chosen by --start, --end and --every, the terrain snapshot each one shows, and
the slice of them one job of an array renders."""
import os

from common.vtk_reader import read_collection

# Where each series lies: a co-simulation's run folder first, then a standalone run's.
VEHICLE_SERIES = ("vehicle/vehicle.pvd", "vehicle.pvd")
TERRAIN_SERIES = ("terrain/particles.pvd", "particles.pvd")
# Times are written in decimal; a snapshot meant for time t may read as t + 1 ulp.
TIME_SLACK = 1e-9


class RenderError(Exception):
    """A run folder or option the renderer cannot work with, said for the user (exit status 2)."""


class RenderFailed(RenderError):
    """The input was good but the drawing failed: POV-Ray or ffmpeg missing or failing (exit status 1)."""


class Frame:
    """One rendered frame: its number in the movie, the time, the vehicle's .vtm (or None) and
    the terrain snapshot it shows (or None)."""

    def __init__(self, index, time, vehicle, terrain):
        self.index, self.time, self.vehicle, self.terrain = index, time, vehicle, terrain


def find_series(run_dir):
    """(vehicle entries, terrain entries) of a run folder, each [(t, file)] or [] when absent."""
    found = []
    for candidates in (VEHICLE_SERIES, TERRAIN_SERIES):
        path = next((os.path.join(run_dir, c) for c in candidates if os.path.isfile(os.path.join(run_dir, c))), None)
        found.append(read_collection(path) if path else [])
    if not found[0] and not found[1]:
        looked = ", ".join(os.path.join(run_dir, c) for c in VEHICLE_SERIES + TERRAIN_SERIES)
        raise RenderError("%s: nothing to render: none of %s (or each is empty)" % (run_dir, looked))
    return found[0], found[1]


def snapshot_at(terrain, t):
    """The latest terrain snapshot at or before t (None before the first): snapshots are sparser
    than vehicle frames, and a frame must not show grains from its future."""
    latest = None
    for time, path in terrain:
        if time > t + TIME_SLACK:
            break
        latest = path
    return latest


def plan_frames(vehicle, terrain, every=1, start=None, end=None):
    """The frames of a render, numbered from 0. Their times are the vehicle's frames, or the
    terrain's snapshots for a run without a vehicle."""
    times = vehicle or terrain
    chosen = [(t, path) for t, path in times
              if (start is None or t >= start - TIME_SLACK) and (end is None or t <= end + TIME_SLACK)]
    chosen = chosen[::every]
    if not chosen:
        raise RenderError("no frame between --start %s and --end %s (the run's frames span %g to %g s)" % (
            start, end, times[0][0], times[-1][0]))
    frames = []
    for i, (t, path) in enumerate(chosen):
        frames.append(Frame(i, t, path if vehicle else None, snapshot_at(terrain, t) if vehicle else path))
    return frames


def parse_slice(text):
    """'I/N' -> (I, N) with 0 <= I < N: job I of N renders frames I, I+N, I+2N, ..."""
    try:
        i, n = (int(part) for part in text.split("/"))
    except ValueError:
        raise RenderError("--slice: expected I/N (job I of N, counted from 0), got %r" % text) from None
    if n < 1 or not 0 <= i < n:
        raise RenderError("--slice %s: I must lie in 0..N-1" % text)
    return i, n


def slice_of(frames, part):
    """Interleaved rather than contiguous, so that every job gets early and late frames alike and
    the jobs of an array end together."""
    i, n = part
    return frames[i::n]
