#!/usr/bin/env python3
"""A part's mesh beside the sphere set mesh_spheres made of it, as one PNG (docs/meshes.md).

Left: the mesh's triangles, shaded by their normal. Right: the spheres, drawn as small shaded
balls. Both in the mesh's frame: mesh_spheres writes sphere centres relative to the centre of
mass, which this script adds back. The view looks from below and from the side, so a track
shoe's grousers (on its -z side) face the reader.

  build/tools/mesh_spheres configs/vehicles/meshes/shoe_grousers.obj --density 7800 \\
      --refine-levels 0 -o /tmp/shoe_spheres.json
  tools/meshes/plot_mesh_spheres.py configs/vehicles/meshes/shoe_grousers.obj /tmp/shoe_spheres.json \\
      -o docs/images/shoe_grousers_spheres.png --title "M113 shoe with grousers"
"""
import os
import sys

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator
from mpl_toolkits.mplot3d.art3d import Poly3DCollection

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tools/, the import root
from common.input_checks import (InputError, OneLineParser, finite_float, finite_number, member,  # noqa: E402
                                 read_json, read_text, run_guarded)


def read_obj(path):
    """(vertices n x 3, triangles m x 3, from 0); polygons split into fans, as io/mesh_file does."""
    vertices, faces = [], []
    for number, line in enumerate(read_text(path, "an OBJ mesh").splitlines(), 1):
        w = line.split()
        where = "%s: line %d" % (path, number)
        if w and w[0] == "v":
            vertices.append([finite_number(x, where, text=True) for x in w[1:4]])
        elif w and w[0] == "f":
            try:
                idx = [int(x.split("/")[0]) for x in w[1:]]
            except ValueError:
                raise InputError("%s: expected vertex numbers, got %r" % (where, line)) from None
            idx = [i - 1 if i > 0 else len(vertices) + i for i in idx]
            faces += [[idx[0], idx[k], idx[k + 1]] for k in range(1, len(idx) - 1)]
    return np.array(vertices), np.array(faces)


def shade(normals, light=(0.3, -0.5, -0.8)):
    """Grey levels from the angle between each normal and the light."""
    light = np.array(light) / np.linalg.norm(light)
    return 0.35 + 0.6 * np.clip(normals @ light, 0, 1)


def equal_axes(ax, lo, hi):
    """Limits at the data's box, drawn to scale (one metre is as long on every axis)."""
    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(lo[1], hi[1])
    ax.set_zlim(lo[2], hi[2])
    ax.set_box_aspect(tuple(hi - lo))
    for axis in (ax.xaxis, ax.yaxis, ax.zaxis):
        axis.set_major_locator(MaxNLocator(3))
        axis.set_tick_params(labelsize=7)
        axis.pane.set_alpha(0.2)
    ax.set_xlabel("x (m)", fontsize=8)
    ax.set_ylabel("y (m)", fontsize=8)
    ax.set_zlabel("z (m)", fontsize=8)


def main(argv):
    p = OneLineParser(description=__doc__.split("\n")[0])
    p.add_argument("mesh", help=".obj file")
    p.add_argument("spheres", help="mesh_spheres output (JSON)")
    p.add_argument("-o", "--output", default="mesh_spheres.png")
    p.add_argument("--title", default="")
    p.add_argument("--elev", type=finite_float, default=-25, help="view elevation (degrees; < 0 looks from below)")
    p.add_argument("--azim", type=finite_float, default=-50, help="view azimuth (degrees)")
    a = p.parse_args(argv)

    v, t = read_obj(a.mesh)
    data = read_json(a.spheres, "a mesh_spheres output")
    com = np.array(member(data, ["centre_of_mass"], a.spheres))
    spheres = np.array(member(data, ["spheres"], a.spheres))
    centres, radii = spheres[:, :3] + com, spheres[:, 3]
    fit = member(data, ["fit"], a.spheres)

    figure = Figure(figsize=(12, 4.2), layout="constrained")
    lo = np.minimum(v.min(axis=0), (centres - radii[:, None]).min(axis=0))
    hi = np.maximum(v.max(axis=0), (centres + radii[:, None]).max(axis=0))

    ax = figure.add_subplot(1, 2, 1, projection="3d")
    tri = v[t]
    n = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    n /= np.linalg.norm(n, axis=1)[:, None]
    g = shade(n)
    ax.add_collection3d(Poly3DCollection(tri, facecolors=np.stack([g, g, g], axis=1), edgecolors=(0.2, 0.2, 0.4, 0.6),
                                         linewidths=0.3))
    equal_axes(ax, lo, hi)
    ax.view_init(elev=a.elev, azim=a.azim)
    ax.set_title("mesh: %d triangles" % len(t), fontsize=10)

    ax = figure.add_subplot(1, 2, 2, projection="3d")
    u, w = np.meshgrid(np.linspace(0, 2 * np.pi, 13), np.linspace(0, np.pi, 7))
    ball = np.stack([np.cos(u) * np.sin(w), np.sin(u) * np.sin(w), np.cos(w)], axis=-1)
    faces, colours = [], []
    for c, r in zip(centres, radii):
        pts = c + r * ball
        for i in range(ball.shape[0] - 1):
            for j in range(ball.shape[1] - 1):
                quad = [pts[i, j], pts[i, j + 1], pts[i + 1, j + 1], pts[i + 1, j]]
                faces.append(quad)
                colours.append(ball[i, j])
    g = shade(np.array(colours))
    rgb = np.stack([0.55 * g + 0.2, 0.7 * g + 0.1, g], axis=1)
    ax.add_collection3d(Poly3DCollection(faces, facecolors=rgb, edgecolors="none"))
    equal_axes(ax, lo, hi)
    ax.view_init(elev=a.elev, azim=a.azim)
    ax.set_title("%d spheres: protrusion %.2g%%, gap %.2g%% of the part's %.2f m" %
                 (len(radii), 100 * fit["protrusion"], 100 * fit["gap"], fit["part_size"]), fontsize=10)
    if a.title:
        figure.suptitle(a.title)
    figure.savefig(a.output, dpi=110)
    print("%s: %d triangles, %d spheres" % (a.output, len(t), len(radii)))
    return 0


if __name__ == "__main__":
    sys.exit(run_guarded("plot_mesh_spheres", lambda argv: main(argv[1:]), sys.argv))
