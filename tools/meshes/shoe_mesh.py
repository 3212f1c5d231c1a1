#!/usr/bin/env python3
"""A track shoe with grousers as a closed triangle mesh (OBJ), for a shoe template's mesh pad.

The shoe is a side profile (x along the chain, z) extruded across the track (y): a plate with
grousers on its ground side. Frame: the shoe frame of vehicle_node/track/vehicle_template.h,
origin half-way between the two pins, x along the chain, y across, z into the track loop (towards
the wheels), so the grousers point to -z and the face the wheels roll on is the plate's top,
z = --top (the template's pin offset).

    z
    ^            plate, --length x --width, from z = --top - --thickness to --top
    |   +-------------------------------------+
    |   |                 o pins at z = 0     |
    |   +----+====+---------------+====+------+
    |        |    |               |    |         grousers, --grouser-width wide (x) and
    |        +----+               +----+         --grouser-height deep, across the whole width
    +-------------------------------------------> x

The solid is the union of cells of a rectilinear grid (profile cells times slices across y); the
mesh is the boundary between filled and empty cells, every grid quad split into two triangles,
all counter-clockwise seen from outside (outward normals). Vertices are the grid nodes and are
shared, so the mesh is closed and 2-manifold by construction (no two cells meet at an edge
only). The grid's spacing sets the triangles' size, which sets the spheres' size in the
decomposition (docs/meshes.md): at most --cell across y and along x, and the plate's and
grousers' depth in --layers rows.

  tools/meshes/shoe_mesh.py -o configs/vehicles/meshes/shoe_grousers.obj     # the shipped shoe
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tools/, the import root
from common.input_checks import OneLineParser, finite_float, run_guarded  # noqa: E402


def options(argv):
    p = OneLineParser(description=__doc__.split("\n")[0],
                      formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--length", type=finite_float, default=0.14, help="plate length along the chain (x) [m]")
    p.add_argument("--width", type=finite_float, default=0.38, help="plate width across the track (y) [m]")
    p.add_argument("--top", type=finite_float, default=0.03, help="z of the plate's inner face (the pin offset) [m]")
    p.add_argument("--thickness", type=finite_float, default=0.05, help="plate thickness [m]")
    p.add_argument("--grousers", type=int, default=2, help="number of grousers")
    p.add_argument("--grouser-width", type=finite_float, default=0.03, help="along x [m]")
    p.add_argument("--grouser-height", type=finite_float, default=0.025, help="below the plate [m]")
    p.add_argument("--grouser-pitch", type=finite_float, default=0.08, help="distance between grouser centres [m]")
    p.add_argument("--cell", type=finite_float, default=0.03, help="largest grid spacing along x and y [m]")
    p.add_argument("--layers", type=int, default=2, help="grid rows through the plate's thickness")
    p.add_argument("-o", "--output", default="shoe_grousers.obj")
    a = p.parse_args(argv)
    half_span = 0.5 * (a.grousers - 1) * a.grouser_pitch + 0.5 * a.grouser_width
    if a.grousers < 0 or half_span > 0.5 * a.length:
        p.error("the grousers must fit under the plate (length %g m)" % a.length)
    if a.grousers > 1 and a.grouser_pitch <= a.grouser_width:
        p.error("--grouser-pitch must exceed --grouser-width (grousers apart)")
    if min(a.length, a.width, a.thickness, a.cell) <= 0 or a.layers < 1:
        p.error("sizes and --cell must be > 0, --layers >= 1")
    return a


def split(breaks, cell):
    """Sorted grid coordinates: the breakpoints, each interval cut evenly into pieces <= cell."""
    breaks = sorted(set(round(b, 12) for b in breaks))
    out = [breaks[0]]
    for lo, hi in zip(breaks, breaks[1:]):
        n = max(1, int(-(-(hi - lo) // cell)))  # ceil
        out += [lo + (hi - lo) * k / n for k in range(1, n + 1)]
    return out


def grousers_x(a):
    """[x_lo, x_hi] of each grouser, centred on the shoe."""
    first = -0.5 * (a.grousers - 1) * a.grouser_pitch
    return [(first + k * a.grouser_pitch - 0.5 * a.grouser_width, first + k * a.grouser_pitch + 0.5 * a.grouser_width)
            for k in range(a.grousers)]


def build(a):
    """(vertices, triangles): the boundary of the filled cells, outward."""
    hx, hw = 0.5 * a.length, 0.5 * a.width
    bottom = a.top - a.thickness
    tip = bottom - a.grouser_height
    g = grousers_x(a)
    xs = split([-hx, hx] + [x for pair in g for x in pair], a.cell)
    ys = split([-hw, hw], a.cell)
    plate_rows = [bottom + a.thickness * k / a.layers for k in range(a.layers + 1)]
    zs = ([tip] if a.grousers else []) + plate_rows

    def filled(i, j, k):
        if i < 0 or j < 0 or k < 0 or i >= len(xs) - 1 or j >= len(ys) - 1 or k >= len(zs) - 1:
            return False
        if zs[k] >= bottom - 1e-12:
            return True  # the plate
        xm = 0.5 * (xs[i] + xs[i + 1])
        return any(lo < xm < hi for lo, hi in g)

    index = {}
    vertices = []

    def node(i, j, k):
        key = (i, j, k)
        if key not in index:
            index[key] = len(vertices) + 1  # OBJ counts from 1
            vertices.append((xs[i], ys[j], zs[k]))
        return index[key]

    triangles = []

    def quad(corners, outward_sign):
        """corners: four grid nodes in order round the face; reversed if that order points inward."""
        c = [node(*n) for n in corners]
        if outward_sign < 0:
            c.reverse()
        triangles.append((c[0], c[1], c[2]))
        triangles.append((c[0], c[2], c[3]))

    nx, ny, nz = len(xs) - 1, len(ys) - 1, len(zs) - 1
    for i in range(nx + 1):
        for j in range(ny + 1):
            for k in range(nz + 1):
                # The face of normal +x at x = xs[i] between cells (i-1, j, k) and (i, j, k): the
                # corner order (j,k) -> (j+1,k) -> (j+1,k+1) -> (j,k+1) turns about +x.
                if j < ny and k < nz and filled(i - 1, j, k) != filled(i, j, k):
                    quad([(i, j, k), (i, j + 1, k), (i, j + 1, k + 1), (i, j, k + 1)], 1 if filled(i - 1, j, k) else -1)
                # normal +y: (k,i) -> (k+1,i) -> (k+1,i+1) -> (k,i+1) turns about +y (z x x = y)
                if i < nx and k < nz and filled(i, j - 1, k) != filled(i, j, k):
                    quad([(i, j, k), (i, j, k + 1), (i + 1, j, k + 1), (i + 1, j, k)], 1 if filled(i, j - 1, k) else -1)
                # normal +z: (i,j) -> (i+1,j) -> (i+1,j+1) -> (i,j+1) turns about +z
                if i < nx and j < ny and filled(i, j, k - 1) != filled(i, j, k):
                    quad([(i, j, k), (i + 1, j, k), (i + 1, j + 1, k), (i, j + 1, k)], 1 if filled(i, j, k - 1) else -1)
    return vertices, triangles


def main(argv):
    a = options(argv)
    vertices, triangles = build(a)
    with open(a.output, "w") as out:
        out.write("# Track shoe with %d grousers, generated by tools/meshes/shoe_mesh.py %s\n" % (
            a.grousers, " ".join(argv)))
        out.write("# Shoe frame: x along the chain (pins at +-pitch/2), y across, z into the track loop; m.\n")
        out.write("# Plate %g x %g x %g m, inner face at z = %g; grousers %g wide, %g deep, %g apart.\n" %
                  (a.length, a.width, a.thickness, a.top, a.grouser_width, a.grouser_height, a.grouser_pitch))
        for v in vertices:
            out.write("v %.9g %.9g %.9g\n" % v)
        for t in triangles:
            out.write("f %d %d %d\n" % t)
    print("%s: %d vertices, %d triangles" % (a.output, len(vertices), len(triangles)))
    return 0


if __name__ == "__main__":
    sys.exit(run_guarded("shoe_mesh", lambda argv: main(argv[1:]), sys.argv))
