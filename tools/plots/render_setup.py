"""What every frame of a render shares (docs/render.md): the colour range, fixed over the whole
run so that one colour means one speed (or height) in every frame; the side camera, fixed and
framing the bed and the vehicle's whole path; the vehicle's size, which places the chase camera;
the ground's height. Computed from all frames of the render, never a slice of them, so that the
jobs of an array agree."""
import math

from common.vtk_reader import read_grid, read_multiblock, read_points_file
from plots.render_camera import heading, side_camera, sub, dot

STORED = 2  # `state` of a grain kept aside by the moving patch, drawn grey
CHASSIS = 0  # body number of the chassis in the `frames` block
# Speeds are coloured up to the 99th percentile of each snapshot's, the largest over the run:
# the few grains flung by a shoe would otherwise squeeze the whole bed into the map's low end.
SPEED_PERCENTILE = 0.99
MIN_SPEED_RANGE = 1e-3  # m/s: a bed at rest still gets a range
UNITS = {"speed": "m/s", "height": "m"}  # of the quantities grain_value gives


class Setup:
    def __init__(self, **fields):
        self.__dict__.update(fields)


def grain_value(grid, quantity):
    """Each grain's speed |v| (m/s) or height z (m)."""
    if quantity == "height":
        return [p[2] for p in grid.points]
    return [math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) for v in grid.point_data["velocity"]]


def grain_state(grid):
    return grid.point_data.get("state") or [0] * len(grid.points)


def scan_snapshot(args):
    """(low, high, box_lo, box_hi) of one snapshot: its colour range and its grains' extent."""
    path, quantity = args
    grid = read_points_file(path)
    values = sorted(v for v, s in zip(grain_value(grid, quantity), grain_state(grid)) if s != STORED)
    radius = grid.point_data["radius"]
    box_lo = [min(p[k] - r for p, r in zip(grid.points, radius)) for k in range(3)]
    box_hi = [max(p[k] + r for p, r in zip(grid.points, radius)) for k in range(3)]
    if not values:
        return None, None, box_lo, box_hi
    if quantity == "height":
        return values[0], values[-1], box_lo, box_hi
    return 0.0, values[int(SPEED_PERCENTILE * (len(values) - 1))], box_lo, box_hi


def chassis_pose(vtm):
    """(position, orientation (w, x, y, z)) of the chassis in a vehicle frame."""
    frames = read_grid(read_multiblock(vtm)["frames"])
    i = frames.point_data["body"].index(CHASSIS)
    return frames.points[i], frames.point_data["orientation"][i]


def corners(lo, hi):
    return [(x, y, z) for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])]


def prepare(frames, quantity, aspect, map_fn=map):
    """The Setup of a render of frames; map_fn (a pool's map) scans the terrain snapshots."""
    snapshots = sorted({f.terrain for f in frames if f.terrain})
    scans = list(map_fn(scan_snapshot, [(path, quantity) for path in snapshots]))
    lows = [s[0] for s in scans if s[0] is not None]
    highs = [s[1] for s in scans if s[1] is not None]
    low, high = (min(lows), max(highs)) if lows else (0.0, 1.0)
    if quantity == "speed":
        high = max(high, MIN_SPEED_RANGE)
    points = [c for s in scans for c in corners(s[2], s[3])]
    poses = [chassis_pose(f.vehicle) for f in frames if f.vehicle]
    size = reach = 0.0
    ground = min(s[2][2] for s in scans) if scans else None
    travel = (1.0, 0.0, 0.0)
    if poses:
        first = next(f.vehicle for f in frames if f.vehicle)
        body_points = read_grid(read_multiblock(first)["bodies"]).points
        lo = [min(p[k] for p in body_points) for k in range(3)]
        hi = [max(p[k] for p in body_points) for k in range(3)]
        ground = lo[2] if ground is None else ground
        size = math.sqrt(sum((b - a) ** 2 for a, b in zip(lo, hi)))
        reach = max(math.sqrt(dot(d, d)) for d in (sub(p, poses[0][0]) for p in body_points))
        # The vehicle at every frame fits in a cube of half-side `reach` around its chassis.
        for position, _ in poses:
            points += corners([c - reach for c in position], [c + reach for c in position])
        path = sub(poses[-1][0], poses[0][0])
        travel = path if path[0] ** 2 + path[1] ** 2 > (0.05 * size) ** 2 else heading(poses[0][1])
    centre = tuple((min(p[k] for p in points) + max(p[k] for p in points)) / 2 for k in range(3))
    extent = math.sqrt(sum((max(p[k] for p in points) - min(p[k] for p in points)) ** 2 for k in range(3)))
    return Setup(quantity=quantity, low=low, high=high, size=size, ground=ground, centre=centre, extent=extent,
                 side=side_camera(points, travel, aspect), snapshots=len(snapshots))
