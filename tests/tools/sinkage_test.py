"""Sinkage as the launcher reports it (tools/mobility/sinkage.py, docs/mobility-metrics.md): the loaded
shoes' lowest points below the undisturbed surface the terrain measured when the coupling
started, and the verdict on whether the run reached a steady speed (mobility_metrics.speed_at_end).

The run folder is made here: a surface map at z = 0.10 m (one cell at 0.13 m, one empty cell),
two vehicle VTK frames with two shoes of two spheres each, and shoes.csv saying which shoes the
terrain carries. The expected numbers are worked out by hand next to each check."""
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools"))
from mobility.mobility_metrics import bed_floor_lines, speed_at_end  # noqa: E402
from mobility.sinkage import floor_check, mean_over, missing_inputs, read_surface, sinkage_over_time  # noqa: E402

SPACING = 0.05
# 4 columns from x = 0, 3 rows down from y = 0.15 (row 0 = the largest y): every cell 0.10 m
# except row 1 column 3 (0.13 m, a proud grain) and row 2 column 0 (empty).
SURFACE = """# trackcosim height map: highest sphere top z + r [m] per cell
# row 0 = largest y, column 0 = smallest x; empty cells are blank
# x_min=0
# y_min=0
# x_max=0.2
# y_max=0.15
# spacing=0.05
# columns=4
# rows=3
0.1,0.1,0.1,0.1
0.1,0.1,0.1,0.13
,0.1,0.1,0.1
"""

# Per frame: shoe -> its two spheres (x, y, z, r). Shoe 0 sits at (0.075, 0.075), the middle of
# the map, whose 3 x 3 block is all 0.10 m; shoe 1 at (0.175, 0.075), whose block holds the 0.13
# cell: mean over its 6 filled cells (0.10 x 5 + 0.13) / 6 = 0.105.
# Keys (side, shoe): each track numbers its shoes from 0, as shoes.csv does; the right track's
# shoe 0 stands far above the bed and is never loaded, so it must not be taken for the left's.
FRAMES = {
    0.1: {("left", 0): [(0.075, 0.075, 0.10, 0.01), (0.080, 0.075, 0.12, 0.01)],   # bottom 0.09: 0.01 deep
          ("left", 1): [(0.175, 0.075, 0.095, 0.01), (0.170, 0.075, 0.2, 0.01)],  # 0.085: 0.02 below 0.105
          ("right", 0): [(0.075, 0.075, 0.9, 0.01)],
          ("left", 2): [(0.125, 0.075, 0.61, 0.01)]},   # caught at the sprocket: see LOADED
    0.2: {("left", 0): [(0.075, 0.075, 0.08, 0.01), (0.080, 0.075, 0.12, 0.01)],   # bottom 0.07: 0.03 deep
          ("left", 1): [(0.175, 0.075, 0.5, 0.01), (0.170, 0.075, 0.5, 0.01)],    # in the air, not loaded
          ("right", 0): [(0.075, 0.075, 0.9, 0.01)],
          ("left", 2): [(0.125, 0.075, 0.9, 0.01)]},
}
# At t = 0.2 grains ride the right track's shoe 0 up its top run (0.8 m above the bed): 8 N, above
# the 1 N a shoe needs but below 2% of the 800 N the ground puts on the left's shoe 0. Counted, it
# would add a sinkage of 0.10 - 0.89 = -0.79 m (the excavator's summary read -0.08 m so).
# At t = 0.1 grains caught at the sprocket press the left track's shoe 2, 0.5 m above its other
# loaded shoes, with 200 N (40% of the most loaded shoe): more than 4 surface cells (0.2 m) above
# their median bottom (0.09), it is not on the ground; counted, it would add 0.10 - 0.60 = -0.5 m.
LOADED = {0.1: {("left", 0): 500.0, ("left", 1): 300.0, ("right", 0): 0.0, ("left", 2): 200.0},
          0.2: {("left", 0): 800.0, ("left", 1): 0.0, ("right", 0): 8.0, ("left", 2): 0.0}}
# Body numbers as the vehicle's frames give them: the left track's bodies before the right's.
BODY = {("left", 0): 10, ("left", 1): 11, ("left", 2): 12, ("right", 0): 30}


def data_array(name, kind, components, values):
    return '<DataArray type="%s" Name="%s" NumberOfComponents="%d" format="ascii">%s</DataArray>' % (
        kind, name, components, " ".join(repr(v) for v in values))


def write_frame(folder, index, shoes):
    spheres = [(shoe, s) for shoe, listed in shoes.items() for s in listed]
    grid = ('<?xml version="1.0"?><VTKFile type="UnstructuredGrid" version="1.0"><UnstructuredGrid>'
            '<Piece NumberOfPoints="%d" NumberOfCells="0"><PointData>%s%s</PointData><Points>%s</Points>'
            '</Piece></UnstructuredGrid></VTKFile>') % (
        len(spheres), data_array("radius", "Float64", 1, [s[3] for _, s in spheres]),
        data_array("shoe", "UInt32", 1, [key[1] for key, _ in spheres]) +
        data_array("body", "UInt32", 1, [BODY[key] for key, _ in spheres]),
        data_array("points", "Float64", 3, [c for _, s in spheres for c in s[:3]]))
    name = "vehicle_%06d" % index
    os.makedirs(os.path.join(folder, "vtk", name), exist_ok=True)
    with open(os.path.join(folder, "vtk", name, "spheres.vtu"), "w") as f:
        f.write(grid)
    with open(os.path.join(folder, "vtk", name + ".vtm"), "w") as f:
        f.write('<?xml version="1.0"?><VTKFile type="vtkMultiBlockDataSet" version="1.0"><vtkMultiBlockDataSet>'
                '<DataSet index="1" name="spheres" file="%s/spheres.vtu"/></vtkMultiBlockDataSet></VTKFile>' % name)
    return "vtk/%s.vtm" % name


def write_run(folder):
    os.makedirs(os.path.join(folder, "terrain"))
    vehicle = os.path.join(folder, "vehicle")
    os.makedirs(vehicle)
    with open(os.path.join(folder, "terrain", "surface_start.csv"), "w") as f:
        f.write(SURFACE)
    entries = "".join('<DataSet timestep="%r" part="0" file="%s"/>' % (t, write_frame(vehicle, i, shoes))
                      for i, (t, shoes) in enumerate(sorted(FRAMES.items())))
    with open(os.path.join(vehicle, "vehicle.pvd"), "w") as f:
        f.write('<?xml version="1.0"?><VTKFile type="Collection" version="1.0"><Collection>%s</Collection></VTKFile>'
                % entries)
    with open(os.path.join(vehicle, "shoes.csv"), "w") as f:
        f.write("t,shoe,side,x,y,z,fx,fy,fz\n")
        for t, forces in sorted(LOADED.items()):
            for (side, shoe), fz in forces.items():
                f.write("%r,%d,%s,0,0,0,0,0,%r\n" % (t, shoe, side, fz))


class SinkageTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp()
        write_run(self.folder)

    def test_local_surface_is_the_mean_of_the_filled_neighbourhood(self):
        surface = read_surface(os.path.join(self.folder, "terrain", "surface_start.csv"))
        self.assertAlmostEqual(surface.local(0.075, 0.075), 0.10, places=12)
        self.assertAlmostEqual(surface.local(0.175, 0.075), (0.10 * 5 + 0.13) / 6, places=12)
        # Next to the empty corner cell: 3 filled cells of the 4 in the clipped block.
        self.assertAlmostEqual(surface.local(0.01, 0.01), 0.10, places=12)
        self.assertIsNone(surface.local(0.3, 0.075))  # off the map

    def test_loaded_shoes_below_the_undisturbed_surface(self):
        series = sinkage_over_time(self.folder)
        self.assertEqual(series["t"], [0.1, 0.2])
        self.assertEqual(series["loaded"], [2, 1])
        # t = 0.1: shoe 0 0.01 m, shoe 1 0.105 - 0.085 = 0.02 m; t = 0.2: shoe 0 alone, 0.03 m.
        self.assertAlmostEqual(series["mean"][0], 0.015, places=12)
        self.assertAlmostEqual(series["max"][0], 0.02, places=12)
        self.assertAlmostEqual(series["mean"][1], 0.03, places=12)
        over = mean_over(series, [0.0, 1.0])
        self.assertAlmostEqual(over["mean"], 0.0225, places=12)
        self.assertAlmostEqual(over["max"], 0.03, places=12)
        self.assertEqual((over["from"], over["to"]), (0.1, 0.2))
        self.assertIsNone(mean_over(series, [0.5, 1.0]))

    def test_a_bed_too_thin_for_the_shoes_is_said(self):
        series = sinkage_over_time(self.folder)
        # The loaded shoes' lowest bottoms: 0.085 (t = 0.1, shoe 1) and 0.07 (t = 0.2, shoe 0).
        self.assertEqual(len(series["lowest"]), 2)
        self.assertAlmostEqual(series["lowest"][1], 0.07, places=12)
        surface = read_surface(os.path.join(self.folder, "terrain", "surface_start.csv"))
        # Floor at z = 0: 0.07 m of grains under the deepest shoe, less than two cells (0.10 m).
        on_floor = floor_check(series, surface, 0.0)
        self.assertAlmostEqual(on_floor["clearance_m"], 0.07, places=12)
        self.assertAlmostEqual(on_floor["bed_depth_m"], (10 * 0.10 + 0.13) / 11, places=12)  # 11 filled cells
        self.assertTrue(on_floor["floor"])
        self.assertFalse(on_floor["thin"])  # 0.03 m deep of a 0.1027 m bed
        self.assertIn("reached the container floor", bed_floor_lines(on_floor)[0])
        # Floor 0.2 m lower: 0.27 m of grains, a 0.30 m bed: nothing to say.
        deep = floor_check(series, surface, -0.2)
        self.assertFalse(deep["floor"] or deep["thin"])
        self.assertEqual(bed_floor_lines(deep), [])
        # A shoe 0.2 m deep in that bed (0.3027 m) (more than half its depth) feels the floor.
        series["max"][1] = 0.2
        self.assertIn("sank 0.200 m into a bed 0.303 m deep", bed_floor_lines(floor_check(series, surface, -0.2))[0])

    def test_a_run_without_the_inputs_says_which(self):
        os.remove(os.path.join(self.folder, "terrain", "surface_start.csv"))
        self.assertIsNone(sinkage_over_time(self.folder))
        self.assertIn("terrain/surface_start.csv", missing_inputs(self.folder))
        self.assertNotIn("vehicle.pvd", missing_inputs(self.folder))


def rows(speeds, dt=0.1):
    return [{"t": repr(i * dt), "qw": "1", "qx": "0", "qy": "0", "qz": "0", "vx": repr(v), "vy": "0", "vz": "0"}
            for i, v in enumerate(speeds)]


class SteadySpeedTest(unittest.TestCase):
    def test_constant_speed_with_jitter_is_steady(self):
        speeds = [0.5 + (0.01 if i % 2 else -0.01) for i in range(50)]
        end = speed_at_end(rows(speeds))
        self.assertTrue(end["steady"], end)
        self.assertAlmostEqual(end["speed"], 0.5, places=2)
        self.assertAlmostEqual(end["over_s"], 0.9, places=9)  # the last 20% of 4.9 s: 10 samples

    def test_a_run_still_accelerating_is_not(self):
        # 0.1 m/s^2 at about 0.9 m/s over the last 0.9 s: a fitted change of 0.09 m/s, about 10%.
        end = speed_at_end(rows([0.4 + 0.01 * i for i in range(50)]))
        self.assertFalse(end["steady"])
        self.assertAlmostEqual(end["change"], 0.09 / end["speed"], places=9)

    def test_too_short_a_window_gives_no_verdict(self):
        self.assertIsNone(speed_at_end(rows([0.5, 0.5, 0.5])))
        self.assertIsNone(speed_at_end([]))


if __name__ == "__main__":
    unittest.main()
