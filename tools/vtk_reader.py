"""Readers for the VTK XML files of a run folder (docs/render.md): .pvd collections, .vtm
multiblocks, .vtu unstructured grids and .pvtu sets of pieces. Only what our writers produce:
ASCII DataArrays of whitespace-separated values, read with the standard library so that rendering
needs neither VTK nor numpy."""
import os
import xml.etree.ElementTree as ET

INTEGER_TYPES = ("Int8", "UInt8", "Int16", "UInt16", "Int32", "UInt32", "Int64", "UInt64")


class VtkError(Exception):
    """A file of the run folder that is missing or not what the writers promise, named."""


class Grid:
    """One UnstructuredGrid: points as (x, y, z) tuples; point_data and cell_data by array name
    (a tuple per entry when the array has several components); cells as connectivity, offsets
    and types (empty for a grid read without cells)."""

    def __init__(self):
        self.points = []
        self.point_data = {}
        self.cell_data = {}
        self.connectivity, self.offsets, self.types = [], [], []

    def extend(self, other):
        """Appends another piece's points and point data (pieces of one .pvtu carry vertices only,
        so their cells are not merged)."""
        self.points += other.points
        for name, values in other.point_data.items():
            self.point_data.setdefault(name, []).extend(values)


def parse(path):
    try:
        return ET.parse(path).getroot()
    except FileNotFoundError:
        raise VtkError("%s: no such file" % path) from None
    except ET.ParseError as e:
        raise VtkError("%s: not readable XML (%s)" % (path, e)) from None


def data_array(element, path):
    """The values of one ASCII <DataArray>: ints or floats, grouped by NumberOfComponents."""
    if element.get("format", "ascii") != "ascii":
        raise VtkError("%s: DataArray %s is %s; only ascii is read" % (path, element.get("Name"), element.get("format")))
    convert = int if element.get("type") in INTEGER_TYPES else float
    values = [convert(word) for word in (element.text or "").split()]
    components = int(element.get("NumberOfComponents", "1"))
    if components == 1:
        return values
    return [tuple(values[i:i + components]) for i in range(0, len(values), components)]


def read_collection(pvd):
    """[(time, absolute file)] of a .pvd, in time order."""
    root = parse(pvd)
    folder = os.path.dirname(pvd)
    entries = [(float(d.get("timestep")), os.path.join(folder, d.get("file"))) for d in root.iter("DataSet")]
    return sorted(entries, key=lambda e: e[0])


def read_multiblock(vtm):
    """{block name: absolute file} of a .vtm; files are relative to the .vtm's folder."""
    folder = os.path.dirname(vtm)
    return {d.get("name"): os.path.join(folder, d.get("file")) for d in parse(vtm).iter("DataSet") if d.get("file")}


def read_grid(vtu):
    """A .vtu's first piece."""
    piece = parse(vtu).find("UnstructuredGrid/Piece")
    if piece is None:
        raise VtkError("%s: no UnstructuredGrid piece" % vtu)
    grid = Grid()
    points = piece.find("Points/DataArray")
    if points is not None:
        grid.points = data_array(points, vtu)
    for section, target in (("PointData", grid.point_data), ("CellData", grid.cell_data)):
        for a in piece.findall(section + "/DataArray"):
            target[a.get("Name")] = data_array(a, vtu)
    cells = {a.get("Name"): data_array(a, vtu) for a in piece.findall("Cells/DataArray")}
    grid.connectivity = cells.get("connectivity", [])
    grid.offsets = cells.get("offsets", [])
    grid.types = cells.get("types", [])
    return grid


def read_points_file(path):
    """A particle snapshot: a .vtu, or a .pvtu whose pieces (one per rank) are joined."""
    if not path.endswith(".pvtu"):
        return read_grid(path)
    folder = os.path.dirname(path)
    grid = Grid()
    for piece in parse(path).iter("Piece"):
        grid.extend(read_grid(os.path.join(folder, piece.get("Source"))))
    return grid


def cell_points(grid):
    """[(cell index, [point indices])] of every cell, from connectivity and offsets."""
    start = 0
    cells = []
    for i, end in enumerate(grid.offsets):
        cells.append((i, grid.connectivity[start:end]))
        start = end
    return cells
