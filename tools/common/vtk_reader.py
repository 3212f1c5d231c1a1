"""Readers for the VTK XML files of a run folder (docs/render.md): .pvd collections, .vtm
multiblocks, .vtu unstructured grids and .pvtu sets of pieces. Only what our writers produce
(io/vtk_xml.h): ASCII DataArrays of whitespace-separated values, or binary ones appended after the
XML in zlib-compressed blocks with UInt64 headers. Read with the standard library so that
rendering needs neither VTK nor numpy."""
import os
import struct
import xml.etree.ElementTree as ET
import zlib

INTEGER_TYPES = ("Int8", "UInt8", "Int16", "UInt16", "Int32", "UInt32", "Int64", "UInt64")
STRUCT_CODES = {"Int8": "b", "UInt8": "B", "Int16": "h", "UInt16": "H", "Int32": "i", "UInt32": "I",
                "Int64": "q", "UInt64": "Q", "Float32": "f", "Float64": "d"}
APPENDED = b"<AppendedData"


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
    """The file's root element."""
    return parse_with_data(path)[0]


def parse_with_data(path):
    """(root element, the appended bytes after the '_' of a binary file, or None)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise VtkError("%s: no such file" % path) from None
    appended = None
    at = data.find(APPENDED)
    if at >= 0:
        start = data.find(b"_", at) + 1
        appended = data[start:]
        data = data[:at] + b"</VTKFile>"
    try:
        root = ET.fromstring(data)
    except ET.ParseError as e:
        raise VtkError("%s: not readable XML (%s)" % (path, e)) from None
    return root, appended


def appended_bytes(root, data, offset, path):
    """The bytes of the appended array at `offset`: zlib blocks under a header of UInt64 [blocks,
    block size, last block's size when partial, each block's compressed size], or, without a
    compressor, one UInt64 byte count."""
    if data is None or root.get("header_type") != "UInt64":
        raise VtkError("%s: an appended DataArray without UInt64-headed appended data" % path)
    try:
        if root.get("compressor") is None:
            (size,) = struct.unpack_from("<Q", data, offset)
            return data[offset + 8:offset + 8 + size]
        if root.get("compressor") != "vtkZLibDataCompressor":
            raise VtkError("%s: compressor %s is not read" % (path, root.get("compressor")))
        blocks, _, _ = struct.unpack_from("<3Q", data, offset)
        sizes = struct.unpack_from("<%dQ" % blocks, data, offset + 24)
        at = offset + 24 + 8 * blocks
        out = []
        for size in sizes:
            out.append(zlib.decompress(data[at:at + size]))
            at += size
        return b"".join(out)
    except (struct.error, zlib.error) as e:
        raise VtkError("%s: appended data at offset %d not readable (%s)" % (path, offset, e)) from None


def data_array(element, path, document=None):
    """The values of one <DataArray>, ASCII or appended (`document`: parse_with_data's pair):
    ints or floats, grouped by NumberOfComponents."""
    kind = element.get("type")
    if element.get("format", "ascii") == "appended" and document is not None and kind in STRUCT_CODES:
        raw = appended_bytes(document[0], document[1], int(element.get("offset", "0")), path)
        code = STRUCT_CODES[kind]
        values = list(struct.unpack("<%d%s" % (len(raw) // struct.calcsize(code), code), raw))
        if code in "fd":
            values = [float(v) for v in values]
    elif element.get("format", "ascii") == "ascii":
        convert = int if kind in INTEGER_TYPES else float
        values = [convert(word) for word in (element.text or "").split()]
    else:
        raise VtkError("%s: DataArray %s is %s %s; only ascii and appended are read" % (
            path, element.get("Name"), element.get("format"), kind))
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
    document = parse_with_data(vtu)
    piece = document[0].find("UnstructuredGrid/Piece")
    if piece is None:
        raise VtkError("%s: no UnstructuredGrid piece" % vtu)
    grid = Grid()
    points = piece.find("Points/DataArray")
    if points is not None:
        grid.points = data_array(points, vtu, document)
    for section, target in (("PointData", grid.point_data), ("CellData", grid.cell_data)):
        for a in piece.findall(section + "/DataArray"):
            target[a.get("Name")] = data_array(a, vtu, document)
    cells = {a.get("Name"): data_array(a, vtu, document) for a in piece.findall("Cells/DataArray")}
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
