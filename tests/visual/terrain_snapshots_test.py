#!/usr/bin/env python3
"""The terrain's particle snapshots of a co-simulation (terrain_node/coupling/cosim_snapshots.h),
read from the short run of the fixture visual_short_run (2 terrain ranks, snapshot_interval 50
steps of 1 ms, the vehicle driving 0.3 s):

 - terrain/particles.pvd lists the coupling times 0, 0.05, ..., 0.3 (the vehicle's t: the settle
   time is not in them), each pointing at particles/step_<k>.pvtu with k the terrain step, 50
   steps apart;
 - each .pvtu names 2 pieces (step_<k>_r0.vtu, step_<k>_r1.vtu) that exist, and declares the
   arrays the pieces hold;
 - the pieces of a frame hold the bed's particles once each: their points add up to the bed's
   particle count (the launcher's run.json), gids are unique across them, and the state array
   (the moving patch's class) is present and 0 everywhere, since this run has no patch.

Usage: terrain_snapshots_test.py RUN_DIR"""
import json
import os
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from common.vtk_reader import VtkError, parse, read_grid  # noqa: E402

STEP = 1e-3
INTERVAL = 50
END = 0.3


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def data_arrays(parent):
    """{name: (type, components)} of the <DataArray>/<PDataArray> children of an element."""
    return {a.get("Name"): (a.get("type"), a.get("NumberOfComponents")) for a in parent}


def read_piece(path):
    """(point count, gids, states, point arrays, points array) of one .vtu piece (ASCII or binary:
    tools/common/vtk_reader.py reads the values, the declarations come from the XML)."""
    try:
        grid = read_grid(path)
    except VtkError as e:
        fail(str(e))
    piece = parse(path).find("UnstructuredGrid/Piece")
    n = int(piece.get("NumberOfPoints"))
    if len(grid.points) != n:
        fail("%s: %d points for NumberOfPoints %d" % (path, len(grid.points), n))
    if "state" not in grid.point_data:
        fail("%s: no state array" % path)
    gids, states = grid.point_data["gid"], grid.point_data["state"]
    if len(gids) != n or len(states) != n:
        fail("%s: %d gids and %d states for %d points" % (path, len(gids), len(states), n))
    return n, gids, states, data_arrays(piece.find("PointData")), data_arrays(piece.find("Points"))


def main():
    run = sys.argv[1]
    terrain = os.path.join(run, "terrain")
    with open(os.path.join(run, "run.json")) as f:
        particles = json.load(f)["summary"]["particles"]
    collection = ET.parse(os.path.join(terrain, "particles.pvd")).getroot().find("Collection")
    frames = [(float(d.get("timestep")), d.get("file")) for d in collection.findall("DataSet")]
    expected = [k * INTERVAL * STEP for k in range(int(round(END / (INTERVAL * STEP))) + 1)]
    times = [t for t, _ in frames]
    if len(times) != len(expected) or any(abs(t - e) > 1e-9 for t, e in zip(times, expected)):
        fail("particles.pvd lists the times %s, expected %s" % (times, expected))
    steps = [int(os.path.basename(name)[len("step_"):-len(".pvtu")]) for _, name in frames]
    if any(b - a != INTERVAL for a, b in zip(steps, steps[1:])):
        fail("frames at terrain steps %s, not %d apart" % (steps, INTERVAL))

    for (t, name), step in zip(frames, steps):
        pvtu = os.path.join(terrain, name)
        grid = ET.parse(pvtu).getroot().find("PUnstructuredGrid")
        sources = [p.get("Source") for p in grid.findall("Piece")]
        stem = "step_%08d" % step
        if sources != ["%s_r%d.vtu" % (stem, r) for r in range(2)]:
            fail("%s names the pieces %s" % (name, sources))
        total, gids = 0, set()
        for source in sources:
            path = os.path.join(os.path.dirname(pvtu), source)
            if not os.path.isfile(path):
                fail("%s names %s, which does not exist" % (name, source))
            n, piece_gids, states, point_data, points = read_piece(path)
            if point_data != data_arrays(grid.find("PPointData")) or points != data_arrays(grid.find("PPoints")):
                fail("%s declares %s / %s, its piece %s holds %s / %s" % (
                    name, data_arrays(grid.find("PPointData")), data_arrays(grid.find("PPoints")), source,
                    point_data, points))
            if any(s != 0 for s in states):
                fail("%s: states other than 0 (active) without a moving patch" % source)
            if gids & set(piece_gids) or len(set(piece_gids)) != n:
                fail("%s: a gid appears twice in the frame at t = %g" % (source, t))
            gids |= set(piece_gids)
            total += n
        if total != particles:
            fail("the frame at t = %g holds %d points, the bed %d particles" % (t, total, particles))
    print("terrain snapshots: %d frames at t = %s, each 2 pieces with all %d particles once, state 0" % (
        len(frames), ", ".join("%g" % t for t in times), particles))


if __name__ == "__main__":
    main()
