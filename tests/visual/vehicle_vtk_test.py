#!/usr/bin/env python3
"""The vehicle's VTK series of a co-simulation (docs/vehicle.md, "VTK series"), read back from the
run folder of the visual fixture (short_run.sh) the way a renderer reads it:
  - vehicle/vehicle.pvd lists frames, each a .vtm of the blocks bodies, spheres, frames;
  - every spheres block has (shoes x terrain spheres per shoe) points: the geometry sent to the
    terrain (the pad's terrain_spheres_along x terrain_spheres_across, plus the listed spheres);
  - every frames block has one point per drawn body (chassis; per side sprocket, idler, road
    wheels, rollers, shoes) and every bodies block draws each of them;
  - at every frame's time, the frames block's shoe points and shoe forces are shoes.csv's x,y,z
    and fx,fy,fz of the rows at that t (to Float32's precision: the frames are binary, the
    default; io/vtk_xml.h).
The expected counts come from the config run.json records, not from the series' own entry.
Usage: vehicle_vtk_test.py RUN_FOLDER"""
import csv
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from common.vtk_reader import VtkError, parse, read_grid, read_multiblock  # noqa: E402

SHOE = 5  # the `kind` of a shoe


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def expected_counts(config):
    track = config["track"]
    shoes = track["shoes"]
    per_shoe = len(shoes.get("spheres", []))
    pad = shoes.get("pad")
    if pad:
        per_shoe += pad.get("terrain_spheres_along", pad.get("spheres_along", 2)) * \
            pad.get("terrain_spheres_across", pad.get("spheres_across", 3))
    per_side = 2 + len(track["road_wheels"]["positions"]) + \
        len(track.get("rollers", {}).get("positions", [])) + shoes["count"]
    return 2 * shoes["count"], per_shoe, 1 + 2 * per_side


def shoe_rows_by_time(path):
    rows = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            rows.setdefault(r["t"], []).append(tuple(float(r[k]) for k in ("x", "y", "z", "fx", "fy", "fz")))
    return rows


def same_number(a, b):
    """a (a Float32 of the frame) is b (a shoes.csv number) to Float32's precision."""
    return abs(a - b) <= 1e-6 * max(1.0, abs(b))


def main(folder):
    vehicle = os.path.join(folder, "vehicle")
    with open(os.path.join(vehicle, "run.json")) as f:
        run = json.load(f)
    shoes, spheres_per_shoe, bodies = expected_counts(run["config"])
    pvd = parse(os.path.join(vehicle, "vehicle.pvd"))
    entries = [(d.get("timestep"), d.get("file")) for d in pvd.iter("DataSet")]
    if not entries:
        fail("vehicle.pvd lists no frames")
    for i, (_, file) in enumerate(entries):
        if file != "vtk/vehicle_%06d.vtm" % i:
            fail("frame %d is %s" % (i, file))
    csv_rows = shoe_rows_by_time(os.path.join(vehicle, "shoes.csv"))
    times = {float(t): t for t in csv_rows}

    for t, file in entries:
        vtm = os.path.join(vehicle, file)
        if parse(vtm).get("type") != "vtkMultiBlockDataSet":
            fail("%s is not a vtkMultiBlockDataSet" % file)
        blocks = read_multiblock(vtm)
        if sorted(blocks) != ["bodies", "frames", "spheres"]:
            fail("%s has the blocks %s" % (file, sorted(blocks)))
        try:
            grid = {name: read_grid(path) for name, path in blocks.items()}
        except VtkError as e:
            fail(str(e))

        n = len(grid["spheres"].points)
        if n != shoes * spheres_per_shoe:
            fail("t = %s: %d spheres, expected %d shoes x %d" % (t, n, shoes, spheres_per_shoe))
        drawn = set(grid["bodies"].cell_data["body"])
        if len(drawn) != bodies:
            fail("t = %s: the bodies block draws %d bodies, expected %d" % (t, len(drawn), bodies))
        frames = grid["frames"]
        if len(frames.points) != bodies:
            fail("t = %s: %d frames, expected %d" % (t, len(frames.points), bodies))

        kinds = frames.point_data["kind"]
        forces = frames.point_data["shoe_force"]
        shoe_points = [tuple(frames.points[i]) + tuple(forces[i]) for i, k in enumerate(kinds) if k == SHOE]
        key = t if t in csv_rows else times.get(min(times, key=lambda x: abs(x - float(t))))
        if key is None or abs(float(key) - float(t)) > 1e-12:
            fail("t = %s: no shoes.csv rows at that time" % t)
        rows = csv_rows[key]
        if len(rows) != len(shoe_points):
            fail("t = %s: %d shoe points, %d shoes.csv rows" % (t, len(shoe_points), len(rows)))
        for i, (p, r) in enumerate(zip(shoe_points, rows)):
            if not all(same_number(a, b) for a, b in zip(p, r)):
                fail("t = %s: shoe row %d is %s in shoes.csv, %s in frames.vtu (x y z fx fy fz)" % (t, i, r, p))
    print("vehicle.pvd: %d frames of %d bodies and %d spheres agree with shoes.csv (points and shoe forces)"
          % (len(entries), bodies, shoes * spheres_per_shoe))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        fail("usage: vehicle_vtk_test.py RUN_FOLDER")
    main(sys.argv[1])
