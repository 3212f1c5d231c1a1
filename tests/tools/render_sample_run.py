"""A synthetic run folder in the format of the vehicle and terrain VTK writers (docs/render.md):
a box chassis, two tracks of wheels (polygons) and shoes (quads) with a contact sphere each,
driving along x with a known yaw over a bed of a few thousand grains. The render test draws it
with known chassis poses; `python3 render_sample_run.py OUT [cosim|terrain|vehicle] [GRAINS_PER_M]`
writes one for trying the renderer by hand.

Layouts: cosim (OUT/vehicle/vehicle.pvd + OUT/terrain/particles.pvd of .pvtu over 2 ranks),
terrain (a standalone terrain run: OUT/particles.pvd of .pvtu over 3 ranks), vehicle (OUT/vehicle.pvd)."""
import math
import os
import sys

CHASSIS_HALF = (0.6, 0.35, 0.12)  # m, half length, width, height of the box
CHASSIS_Z = 0.42  # m, height of the chassis' centre
YAW = math.radians(12.0)  # the vehicle's heading, turned from x towards y
SPEED = 2.0  # m/s along its heading
START = (0.0, 0.0)
VEHICLE_DT, TERRAIN_DT, END = 0.02, 0.1, 0.2  # s
WHEEL_RADIUS, TRACK_Y, WHEEL_Z = 0.12, 0.47, 0.24  # in the chassis frame's x, y; world height
WHEEL_X = {1: [0.55], 2: [-0.55], 3: [-0.3, 0.0, 0.3]}  # sprocket, idler, road wheels
BED = ((-1.5, 3.5), (-1.0, 1.0))  # m, x and y extent of the grains
GRAIN_RADIUS = 0.03


def chassis_pose(t):
    """(position, orientation (w, x, y, z)) of the chassis at time t."""
    d = SPEED * t
    position = (START[0] + d * math.cos(YAW), START[1] + d * math.sin(YAW), CHASSIS_Z)
    return position, (math.cos(YAW / 2), 0.0, 0.0, math.sin(YAW / 2))


def to_world(t, local):
    """A point of the chassis frame (origin at its centre) at time t (the vehicle is rigid)."""
    (px, py, pz), _ = chassis_pose(t)
    c, s = math.cos(YAW), math.sin(YAW)
    x, y, z = local
    return (px + c * x - s * y, py + s * x + c * y, pz + z)


def chassis_corners():
    hx, hy, hz = CHASSIS_HALF
    return [(sx * hx, sy * hy, sz * hz) for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]


def vehicle_cells():
    """(local points, cells [(vtk type, [point indices], kind, body)], frames [(body, kind, local centre)])."""
    points, cells, frames = [], [], [(0, 0, (0.0, 0.0, 0.0))]

    def add(local):
        points.append(local)
        return len(points) - 1
    corner = [add(p) for p in chassis_corners()]  # index = 4 sx + 2 sy + sz (0: -, 1: +)
    for face in ((0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)):
        cells.append((9, [corner[i] for i in face], 0, 0))
    body = 1
    wz = WHEEL_Z - CHASSIS_Z
    for side in (-1, 1):
        for kind, xs in WHEEL_X.items():
            for x in xs:
                ring = [add((x + WHEEL_RADIUS * math.cos(a), side * TRACK_Y, wz + WHEEL_RADIUS * math.sin(a)))
                        for a in (2 * math.pi * k / 16 for k in range(16))]
                cells.append((7, ring, kind, body))
                frames.append((body, kind, (x, side * TRACK_Y, wz)))
                body += 1
        for x0 in [-0.6 + 0.1 * k for k in range(13)]:  # the track's lower run, shoes 0.09 m long
            z = wz - WHEEL_RADIUS - 0.01
            quad = [add((x0 - 0.045, side * TRACK_Y - 0.1, z)), add((x0 + 0.045, side * TRACK_Y - 0.1, z)),
                    add((x0 + 0.045, side * TRACK_Y + 0.1, z)), add((x0 - 0.045, side * TRACK_Y + 0.1, z))]
            cells.append((9, quad, 5, body))
            frames.append((body, 5, (x0, side * TRACK_Y, z)))
            body += 1
    return points, cells, frames


def data_array(name, vtk_type, components, values):
    rows = "\n".join("          " + " ".join(repr(v) if isinstance(v, float) else str(v) for v in
                                              (row if isinstance(row, tuple) else (row,))) for row in values)
    return ('        <DataArray type="%s" Name="%s" NumberOfComponents="%d" format="ascii">\n%s\n        </DataArray>\n'
            % (vtk_type, name, components, rows))


def write_vtu(path, points, point_data=(), cell_data=(), cells=None):
    """cells: (connectivity, offsets, types); None: one VTK_VERTEX per point."""
    if cells is None:
        cells = (list(range(len(points))), list(range(1, len(points) + 1)), [1] * len(points))
    text = ['<?xml version="1.0"?>\n<VTKFile type="UnstructuredGrid" version="1.0" byte_order="LittleEndian">\n'
            '  <UnstructuredGrid>\n    <Piece NumberOfPoints="%d" NumberOfCells="%d">\n' % (len(points), len(cells[2]))]
    for section, arrays in (("PointData", point_data), ("CellData", cell_data)):
        text.append("      <%s>\n" % section + "".join(data_array(*a) for a in arrays) + "      </%s>\n" % section)
    text.append("      <Points>\n" + data_array("Points", "Float32", 3, points) + "      </Points>\n")
    text.append("      <Cells>\n" + data_array("connectivity", "Int64", 1, cells[0]) +
                data_array("offsets", "Int64", 1, cells[1]) + data_array("types", "UInt8", 1, cells[2]) + "      </Cells>\n")
    text.append("    </Piece>\n  </UnstructuredGrid>\n</VTKFile>\n")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("".join(text))


def write_pvd(path, entries):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write('<?xml version="1.0"?>\n<VTKFile type="Collection" version="1.0">\n  <Collection>\n')
        f.writelines('    <DataSet timestep="%r" part="0" file="%s"/>\n' % e for e in entries)
        f.write("  </Collection>\n</VTKFile>\n")


def write_vehicle_frame(folder, frame, t):
    points, cells, frames = vehicle_cells()
    name = "vehicle_%06d" % frame
    blocks = os.path.join(folder, "vtk", name)
    world = [to_world(t, p) for p in points]
    connectivity, offsets, types = [], [], []
    for vtk_type, ids, _, _ in cells:
        connectivity += ids
        offsets.append(len(connectivity))
        types.append(vtk_type)
    write_vtu(os.path.join(blocks, "bodies.vtu"), world,
              cell_data=[("body", "UInt32", 1, [c[3] for c in cells]), ("kind", "UInt8", 1, [c[2] for c in cells])],
              cells=(connectivity, offsets, types))
    shoes = [f for f in frames if f[1] == 5]
    write_vtu(os.path.join(blocks, "spheres.vtu"), [to_world(t, (c[0], c[1], c[2] - 0.01)) for _, _, c in shoes],
              point_data=[("radius", "Float64", 1, [0.02] * len(shoes)), ("shoe", "UInt32", 1, list(range(len(shoes))))])
    _, q = chassis_pose(t)
    velocity = (SPEED * math.cos(YAW), SPEED * math.sin(YAW), 0.0)
    write_vtu(os.path.join(blocks, "frames.vtu"), [to_world(t, c) for _, _, c in frames],
              point_data=[("body", "UInt32", 1, [f[0] for f in frames]), ("kind", "UInt8", 1, [f[1] for f in frames]),
                          ("orientation", "Float64", 4, [q] * len(frames)),
                          ("velocity", "Float64", 3, [velocity] * len(frames))])
    with open(os.path.join(folder, "vtk", name + ".vtm"), "w") as f:
        f.write('<?xml version="1.0"?>\n<VTKFile type="vtkMultiBlockDataSet" version="1.0">\n  <vtkMultiBlockDataSet>\n'
                + "".join('    <DataSet index="%d" name="%s" file="%s/%s.vtu"/>\n' % (i, b, name, b)
                          for i, b in enumerate(("bodies", "spheres", "frames")))
                + "  </vtkMultiBlockDataSet>\n</VTKFile>\n")
    return "vtk/%s.vtm" % name


def grains(t, per_m):
    """Two layers of grains on a square grid; speeds rise near the vehicle; past x = 3 stored."""
    (vx, vy, _), _ = chassis_pose(t)
    step = 1.0 / per_m
    out = []
    for layer in range(2):
        z = GRAIN_RADIUS + layer * 2 * GRAIN_RADIUS
        x = BED[0][0]
        while x <= BED[0][1]:
            y = BED[1][0]
            while y <= BED[1][1]:
                near = math.exp(-((x - vx) ** 2 + (y - vy) ** 2) / 0.3)
                out.append(((x, y, z), (0.5 * near, 0.0, 0.3 * near * layer), 2 if x > 3.0 else 0))
                y += step
            x += step
    return out


def write_snapshot(path, t, per_m, ranks):
    """The grains at time t as the writers give them: one piece per rank and a .pvtu listing them."""
    g = grains(t, per_m)

    def piece(file, gids):
        write_vtu(file, [g[i][0] for i in gids],
                  point_data=[("radius", "Float64", 1, [GRAIN_RADIUS] * len(gids)),
                              ("velocity", "Float64", 3, [g[i][1] for i in gids]),
                              ("gid", "UInt64", 1, list(gids)), ("state", "UInt8", 1, [g[i][2] for i in gids])])
    stem = os.path.basename(path)[:-len(".pvtu")]
    sources = []
    for r in range(ranks):
        sources.append("%s_r%d.vtu" % (stem, r))
        piece(os.path.join(os.path.dirname(path), sources[-1]), range(r, len(g), ranks))
    with open(path, "w") as f:
        f.write('<?xml version="1.0"?>\n<VTKFile type="PUnstructuredGrid" version="1.0">\n  <PUnstructuredGrid GhostLevel="0">\n'
                + "".join('    <Piece Source="%s"/>\n' % s for s in sources) + "  </PUnstructuredGrid>\n</VTKFile>\n")


def write_sample_run(folder, layout="cosim", per_m=16.0):
    """Writes a run folder of the layout; returns it."""
    frames = int(round(END / VEHICLE_DT)) + 1
    snapshots = int(round(END / TERRAIN_DT)) + 1
    if layout in ("cosim", "vehicle"):
        vehicle = os.path.join(folder, "vehicle") if layout == "cosim" else folder
        write_pvd(os.path.join(vehicle, "vehicle.pvd"),
                  [(k * VEHICLE_DT, write_vehicle_frame(vehicle, k, k * VEHICLE_DT)) for k in range(frames)])
    if layout in ("cosim", "terrain"):
        terrain = os.path.join(folder, "terrain") if layout == "cosim" else folder
        ranks = 2 if layout == "cosim" else 3
        entries = []
        for k in range(snapshots):
            file = "particles/step_%08d.pvtu" % (k * 50)
            write_snapshot(os.path.join(terrain, file), k * TERRAIN_DT, per_m, ranks)
            entries.append((k * TERRAIN_DT, file))
        write_pvd(os.path.join(terrain, "particles.pvd"), entries)
    return folder


if __name__ == "__main__":
    write_sample_run(sys.argv[1], *(sys.argv[2:3] or ["cosim"]), *[float(a) for a in sys.argv[3:4]])
