#!/usr/bin/env python3
"""Our VTK files read by VTK itself (python3-vtk9's XML readers, what ParaView uses), from the short
run of the fixture visual_short_run (binary, the default format; io/vtk_xml.h):

 - every terrain frame (.pvtu of 2 pieces) reads with vtkXMLPUnstructuredGridReader: as many
   points and vertex cells as the bed has grains, the arrays radius, velocity, gid, state and
   contact_force, each value equal to what tools/common/vtk_reader.py reads (the renderer's reader);
   contact_force is never negative and some grains carry more than their weight;
 - every vehicle frame (.vtm) reads with vtkXMLMultiBlockDataReader: three blocks named bodies,
   spheres and frames, with the points, cells and arrays tools/common/vtk_reader.py reads; frames holds
   shoe_force, whose vertical components on the shoes add up to the terrain_fz of the vehicle's
   timing.csv row at the frame's time (the force the terrain returned).

Runs under the Python that has the vtk modules (Debian's /usr/bin/python3 with python3-vtk9,
which tools/install_deps.sh --with-slurm installs). Usage: vtk_files_test.py RUN_DIR"""
import csv
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from common.vtk_reader import read_collection, read_grid, read_multiblock, read_points_file  # noqa: E402

try:
    from vtkmodules.vtkIOXML import vtkXMLMultiBlockDataReader, vtkXMLPUnstructuredGridReader
except ImportError as e:
    print("FAIL: %s has no vtk modules (%s): install python3-vtk9 (tools/install_deps.sh --with-slurm)"
          % (sys.executable, e))
    sys.exit(1)


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def read_with_vtk(reader_class, path):
    """The dataset VTK's reader of that class makes of the file."""
    reader = reader_class()
    reader.SetFileName(path)
    reader.Update()
    return reader.GetOutput()


def vtk_values(array):
    """A vtkDataArray's values as Python numbers, tuples when it has several components."""
    n, c = array.GetNumberOfTuples(), array.GetNumberOfComponents()
    if c == 1:
        return [array.GetValue(i) for i in range(n)]
    return [tuple(array.GetComponent(i, k) for k in range(c)) for i in range(n)]


def same(ours, theirs, what):
    if len(ours) != len(theirs):
        fail("%s: %d values read by tools/common/vtk_reader.py, %d by VTK" % (what, len(ours), len(theirs)))
    for i, (a, b) in enumerate(zip(ours, theirs)):
        if a != b and not (isinstance(a, tuple) and all(x == y for x, y in zip(a, b))):
            fail("%s[%d]: %r by tools/common/vtk_reader.py, %r by VTK" % (what, i, a, b))


def check_grid(dataset, grid, what):
    """One VTK dataset against the same file read by tools/common/vtk_reader.py."""
    points = dataset.GetPoints()
    theirs = [tuple(points.GetPoint(i)) for i in range(points.GetNumberOfPoints())] if points else []
    same(grid.points, theirs, what + " points")
    data = dataset.GetPointData()
    for name, values in grid.point_data.items():
        array = data.GetArray(name)
        if array is None:
            fail("%s: VTK finds no point array %s" % (what, name))
        same(values, vtk_values(array), "%s %s" % (what, name))
    return data


def terrain_frames(run):
    frames = read_collection(os.path.join(run, "terrain", "particles.pvd"))
    if not frames:
        fail("no terrain frames")
    with_weight_carried = 0
    for _, pvtu in frames:
        dataset = read_with_vtk(vtkXMLPUnstructuredGridReader, pvtu)
        grid = read_points_file(pvtu)
        if dataset.GetNumberOfPoints() != 3100 or dataset.GetNumberOfCells() != 3100:
            fail("%s: VTK reads %d points and %d cells, the bed has 3100 grains"
                 % (pvtu, dataset.GetNumberOfPoints(), dataset.GetNumberOfCells()))
        data = check_grid(dataset, grid, pvtu)
        for name in ("radius", "velocity", "gid", "state", "contact_force"):
            if data.GetArray(name) is None:
                fail("%s: no %s array" % (pvtu, name))
        force = grid.point_data["contact_force"]
        if min(force) < 0:
            fail("%s: a negative contact force sum %g" % (pvtu, min(force)))
        weight = [2600 * 4 / 3 * math.pi * r ** 3 * 9.81 for r in grid.point_data["radius"]]
        with_weight_carried += sum(1 for f, w in zip(force, weight) if f > w)
    if with_weight_carried == 0:
        fail("no grain of any frame carries more than its weight")
    print("terrain: %d frames read by VTK, each 3100 grains as tools/common/vtk_reader.py reads them" % len(frames))


def terrain_fz_by_time(run):
    with open(os.path.join(run, "vehicle", "timing.csv")) as f:
        return {round(float(row["t"]), 9): float(row["terrain_fz"]) for row in csv.DictReader(f)}


def vehicle_frames(run):
    frames = read_collection(os.path.join(run, "vehicle", "vehicle.pvd"))
    fz = terrain_fz_by_time(run)
    loaded = 0
    for t, vtm in frames:
        blocks = read_with_vtk(vtkXMLMultiBlockDataReader, vtm)
        names = [blocks.GetMetaData(i).Get(blocks.NAME()) for i in range(blocks.GetNumberOfBlocks())]
        if names != ["bodies", "spheres", "frames"]:
            fail("%s: VTK reads the blocks %s" % (vtm, names))
        files = read_multiblock(vtm)
        for i, name in enumerate(names):
            grid = read_grid(files[name])
            dataset = blocks.GetBlock(i)
            check_grid(dataset, grid, files[name])
            if dataset.GetNumberOfCells() != len(grid.types):
                fail("%s: VTK reads %d cells, tools/common/vtk_reader.py %d" % (
                    files[name], dataset.GetNumberOfCells(), len(grid.types)))
        frames_grid = read_grid(files["frames"])
        shoe_fz = sum(f[2] for f in frames_grid.point_data["shoe_force"])
        expected = fz.get(round(t, 9))
        if expected is None:
            fail("%s: no timing.csv row at t = %g" % (vtm, t))
        if abs(shoe_fz - expected) > 1e-4 * max(1.0, abs(expected)):
            fail("%s: shoe_force z adds up to %g N, timing.csv's terrain_fz is %g N" % (vtm, shoe_fz, expected))
        loaded += expected > 0
    if loaded == 0:
        fail("no vehicle frame with the terrain carrying the robot")
    print("vehicle: %d frames read by VTK, shoe_force adding up to timing.csv's terrain_fz" % len(frames))


def main():
    run = sys.argv[1]
    terrain_frames(run)
    vehicle_frames(run)
    print("vtk_files_test: OK")


if __name__ == "__main__":
    main()
