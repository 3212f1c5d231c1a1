"""Sinkage as a terramechanics engineer means it: how far the bottom of the track sits below the
undisturbed surface under it (docs/mobility-metrics.md, "Sinkage").

- The undisturbed surface is the terrain's own measurement when the coupling starts, before the
  vehicle has touched it: terrain/surface_start.csv, the highest sphere top per cell of one mean
  grain diameter (terrain_node/output/bed_surface.h). Under a point the local surface is the mean
  of the filled cells of the 3 x 3 block around it, so that one grain standing proud or a cell
  without a grain centre does not decide it.
- The bottom of a shoe is its lowest contact sphere's lowest point (z - r), read from the
  vehicle's VTK series (the `spheres` block: the spheres the terrain meets, world frame).
- A shoe counts while the ground carries it (vertical force in shoes.csv at the same time above
  LOADED_FORCE_N and above LOADED_SHARE of the most loaded shoe's, mobility_metrics.carried_shoes):
  a shoe in the air, or on the top run of the track with grains riding on it, has no sinkage;
  nor has one more than ABOVE_GROUND_CELLS grain diameters above its track's other loaded shoes
  (grains caught at the sprocket).

sinkage(t) = mean (and max) over the loaded shoes of surface(x, y) - bottom, metres, positive
downwards. Pure standard library, like the other launcher modules.
"""
import csv
import math
import os
import re

from common.vtk_reader import read_collection, read_grid, read_multiblock
from mobility.mobility_metrics import carried_shoes

SURFACE_FILE = os.path.join("terrain", "surface_start.csv")
TIME_MATCH_S = 1e-9
KEY_LINE = re.compile(r"^#\s*(\w+)=(\S+)$")


class Surface:
    """A height map as terrain_node writes it: row 0 is the largest y, column 0 the smallest x."""

    def __init__(self, keys, rows):
        self.x_min, self.y_max = keys["x_min"], keys["y_max"]
        self.spacing = keys["spacing"]
        self.columns, self.rows = int(keys["columns"]), int(keys["rows"])
        self.top = rows

    def local(self, x, y):
        """Mean of the filled cells of the 3 x 3 block around the cell holding (x, y); None when
        the point is off the map or the block holds no grain."""
        if self.columns == 0 or self.rows == 0:
            return None  # an empty map: a terrain without grains (a rigid plane) has no surface
        column = math.floor((x - self.x_min) / self.spacing)
        row = math.floor((self.y_max - y) / self.spacing)
        if not (0 <= column < self.columns and 0 <= row < self.rows):
            return None
        tops = [self.top[r][c] for r in range(max(0, row - 1), min(self.rows, row + 2))
                for c in range(max(0, column - 1), min(self.columns, column + 2)) if self.top[r][c] is not None]
        return sum(tops) / len(tops) if tops else None


def read_surface(path):
    """The height map of a heightmap CSV ("# key=value" lines, then one line of cells per row)."""
    keys, rows = {}, []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("#"):
                key = KEY_LINE.match(line)  # "# x_min=0.5"; other comment lines are prose
                if key:
                    keys[key.group(1)] = float(key.group(2))
                continue
            rows.append([float(v) if v else None for v in line.split(",")])
    missing = [k for k in ("x_min", "y_max", "spacing", "columns", "rows") if k not in keys]
    if missing:
        raise ValueError("%s: not a height map (no %s)" % (path, ", ".join(missing)))
    return Surface(keys, rows)


def shoe_sides(spheres):
    """{body: side} of the shoes in one frame's `spheres` block. `shoe` numbers each track's shoes
    from 0 (as shoes.csv does) and `body` runs over the left track's bodies before the right's,
    so the right track starts where, in body order, the shoe number falls back."""
    first_shoe = {}
    for body, shoe in zip(spheres.point_data["body"], spheres.point_data["shoe"]):
        first_shoe.setdefault(body, shoe)
    sides, side, last = {}, "left", -1
    for body in sorted(first_shoe):
        if first_shoe[body] < last:
            side = "right"
        sides[body], last = side, first_shoe[body]
    return sides


def shoe_bottoms(spheres):
    """{(side, shoe): (x, y, z of the lowest point)} from one frame's `spheres` block."""
    sides = shoe_sides(spheres)
    bottoms = {}
    data = spheres.point_data
    for (x, y, z), r, shoe, body in zip(spheres.points, data["radius"], data["shoe"], data["body"]):
        key = (sides[body], shoe)
        if key not in bottoms or z - r < bottoms[key][2]:
            bottoms[key] = (x, y, z - r)
    return bottoms


def loaded_shoes(shoe_rows):
    """{t: set of the (side, shoe) the ground carries at t} from shoes.csv's rows
    (mobility_metrics.carried_shoes: not a shoe that grains ride up the top run)."""
    return {t: set(by_shoe) for t, by_shoe in carried_shoes(shoe_rows).items() if by_shoe}


def read_shoe_rows(folder):
    with open(os.path.join(folder, "vehicle", "shoes.csv")) as f:
        return list(csv.DictReader(f))


def at_time(table, t):
    """The value of `table` (keyed by time) at t, None when no key is within TIME_MATCH_S."""
    for key, value in table.items():
        if abs(key - t) <= TIME_MATCH_S:
            return value
    return None


def missing_inputs(folder):
    """Why a run has no sinkage (a sentence), or None when it has what sinkage needs."""
    needs = {SURFACE_FILE: "the terrain's undisturbed surface (written by terrain_node --cosim)",
             os.path.join("vehicle", "vehicle.pvd"): "the vehicle's VTK series (simulation.vtk_interval > 0)",
             os.path.join("vehicle", "shoes.csv"): "the shoe forces"}
    absent = ["%s, %s" % (path, what) for path, what in needs.items() if not os.path.isfile(os.path.join(folder, path))]
    return "no " + "; no ".join(absent) if absent else None


# A loaded shoe whose bottom is more than this many surface cells (mean grain diameters) above
# the median bottom of its track's loaded shoes is not on the ground: grains caught between it and
# the sprocket press it with hundreds of newtons (the excavator's, 0.3-0.5 m up, took 300-400 N).
ABOVE_GROUND_CELLS = 4


def on_the_ground(bottoms, carried, above):
    """Of {shoe: (x, y, bottom)}, the carried shoes whose bottom is at most `above` over the
    median bottom of their track's carried shoes."""
    sides = {}
    for shoe in carried:
        if shoe in bottoms:
            sides.setdefault(shoe[0], []).append(bottoms[shoe][2])
    level = {side: sorted(b)[len(b) // 2] for side, b in sides.items()}
    return {shoe: xyz for shoe, xyz in bottoms.items() if shoe in carried and xyz[2] <= level[shoe[0]] + above}


def sinkage_over_time(folder, shoe_rows=None):
    """{"t", "mean", "max", "loaded"}: per vehicle VTK frame with at least one loaded shoe, the
    mean and largest sinkage of the loaded shoes (m) and their number; None when the run lacks
    an input (missing_inputs says which)."""
    if missing_inputs(folder):
        return None
    surface = read_surface(os.path.join(folder, SURFACE_FILE))
    loaded = loaded_shoes(shoe_rows if shoe_rows is not None else read_shoe_rows(folder))
    series = {"t": [], "mean": [], "max": [], "loaded": [], "lowest": []}
    for t, vtm in read_collection(os.path.join(folder, "vehicle", "vehicle.pvd")):
        carried = at_time(loaded, t) or set()
        depths, bottoms = [], []
        for _, (x, y, bottom) in on_the_ground(shoe_bottoms(read_grid(read_multiblock(vtm)["spheres"])), carried,
                                               ABOVE_GROUND_CELLS * surface.spacing).items():
            top = surface.local(x, y)
            if top is not None:
                depths.append(top - bottom)
                bottoms.append(bottom)
        if depths:
            series["lowest"].append(min(bottoms))
            series["t"].append(t)
            series["mean"].append(sum(depths) / len(depths))
            series["max"].append(max(depths))
            series["loaded"].append(len(depths))
    return series


# A shoe with fewer grain layers than this under it stands on the floor through them: the
# sinkage is then the bed's depth, not the soil's answer.
FLOOR_LAYERS = 2
# A track that sinks deeper than this share of the bed feels the floor (its pressure bulb
# reaches it) even before touching it.
THIN_BED_SHARE = 0.5


def floor_check(series, surface, floor_z):
    """{"clearance_m", "bed_depth_m", "deepest_m", "floor", "thin"}: the least depth of grains left
    under any loaded shoe at any frame (its bottom above the container floor), the bed's mean
    depth (the undisturbed surface's filled cells above the floor), the deepest sinkage of the
    run, and whether the shoes reached the floor (clearance below FLOOR_LAYERS mean grain
    diameters: the surface map's cell) or the bed is too thin for them (deepest sinkage above
    THIN_BED_SHARE of its depth). None without a loaded shoe."""
    if not series["t"]:
        return None
    cells = [h for row in surface.top for h in row if h is not None]
    bed_depth = sum(cells) / len(cells) - floor_z if cells else None
    clearance = min(series["lowest"]) - floor_z
    deepest = max(series["max"])
    return {"clearance_m": clearance, "bed_depth_m": bed_depth, "deepest_m": deepest,
            "floor": clearance < FLOOR_LAYERS * surface.spacing,
            "thin": bed_depth is not None and deepest > THIN_BED_SHARE * bed_depth}


def mean_over(series, window):
    """{"mean", "max", "from", "to"} of the series over [t0, t1] (the mean of the per-frame means;
    the largest single shoe), or None when no frame falls in it."""
    t0, t1 = window
    picked = [i for i, t in enumerate(series["t"]) if t0 - TIME_MATCH_S <= t <= t1 + TIME_MATCH_S]
    if not picked:
        return None
    return {"mean": sum(series["mean"][i] for i in picked) / len(picked),
            "max": max(series["max"][i] for i in picked),
            "from": series["t"][picked[0]], "to": series["t"][picked[-1]]}
