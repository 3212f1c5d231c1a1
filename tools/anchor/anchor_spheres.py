#!/usr/bin/env python3
"""The helical anchor of Negrut et al. (NDIA 2012, sec. 5.3) as a rigid set of spheres.

The paper built its anchor from primitives: "the tip of the anchor was modeled using a sphere,
the shaft was modeled using a cylinder, and the helix was modeled using 67 thin boxes swept
along a helical spline". Our collision code meets spheres, so each primitive becomes spheres:

  tip    one sphere of radius --tip-radius centred on the axis at the shaft's lower end (z = 0)
  shaft  spheres of radius --shaft-radius along the axis from z = 0 to --shaft-length, at most
         --shaft-radius / 2 apart (the surface between two stays within 3% of the radius)
  helix  a plate of thickness --thickness on the helicoid
             (rho cos phi, rho sin phi, z0 + pitch phi / 2 pi),  shaft radius <= rho <= --radius,
         --turns whole turns from z0 = tip radius + thickness (just above the tip); spheres of
         radius thickness / 2 on rows of constant rho, rows and spheres along a row at most
         --spacing apart, the outermost row at rho = radius - thickness / 2 so that the plate
         reaches --radius

The spacing defaults to the thickness (neighbours touch) and must keep the smallest grain
(--grain-radius) out: a grain passes the plate between four spheres when half the diagonal of
their cell exceeds grain radius + thickness / 2, and the tool refuses such a spacing.

Mass properties are those of the primitives themselves (sphere, cylinder, plate of the given
thickness measured normal to the helicoid) at one uniform density giving --mass: the union of
tip and shaft by quadrature in (rho, z), the plate by quadrature in (rho, phi) with its
thickness integrated exactly along z. The plate starts at the shaft's surface and above the tip,
so the parts do not overlap. A whole number of turns keeps the centre of mass on the axis.
A one-start helix is not symmetric about its axis: the inertia tensor has a product Iyz (about 8%
of Ixx for the shipped anchor), and since Ixx and Izz are close, the true principal axis 3 leans
about 18 degrees off the shaft. The terrain takes a spheres file's principal axes as the body's
frame, and the axial motion (along and about world z, docs/terrain-config.md "bodies") turns the
body about world z with the moment about its frame's axis 3. So by default the file's frame is
the shaft's: "principal_axes" the identity, "principal_moments" the diagonal (Ixx, Iyy, Izz) of
the tensor in the shaft's axes, and "inertia" the whole tensor. For the axial motion this is
exact (it uses the mass and Izz only); a free anchor would miss the product Iyz: write the true
principal frame with --principal-frame for that.

Output (the format of tools/mesh_spheres, docs/meshes.md; SI units, spheres and tensor in the
shaft's axes relative to the centre of mass, z = the shaft axis, the tip at the bottom):
  {"mass", "volume", "centre_of_mass" (in the build frame above: tip centre at the origin),
   "inertia", "principal_moments", "principal_axes", "spheres": [[x, y, z, r], ...],
   "options": {...}, "geometry": {...}}

  tools/anchor/anchor_spheres.py -o configs/anchor/anchor_spheres.json      # the shipped anchor
"""
import argparse
import json
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tools/, the import root
from common.input_checks import OneLineParser, finite_float, run_guarded  # noqa: E402


def options(argv):
    p = OneLineParser(description=__doc__.split("\n")[0],
                      formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--radius", type=finite_float, default=0.5, help="helix outer radius [m] (paper: 0.5)")
    p.add_argument("--pitch", type=finite_float, default=0.25, help="helix rise per turn [m]")
    p.add_argument("--turns", type=finite_float, default=1.0, help="helix turns (a whole number)")
    p.add_argument("--thickness", type=finite_float, default=0.02, help="helix plate thickness [m]")
    p.add_argument("--shaft-radius", type=finite_float, default=0.04, help="[m]")
    p.add_argument("--shaft-length", type=finite_float, default=1.2, help="from the tip centre up [m]")
    p.add_argument("--tip-radius", type=finite_float, default=0.05, help="[m]")
    p.add_argument("--spacing", type=finite_float, default=0.0,
                   help="largest distance between neighbouring helix spheres [m]; 0: the thickness")
    p.add_argument("--grain-radius", type=finite_float, default=0.025,
                   help="smallest grain radius [m]; it must not pass through the helix plate")
    p.add_argument("--mass", type=finite_float, default=10.0, help="[kg] (paper: 10)")
    p.add_argument("--principal-frame", action="store_true",
                   help="write the tensor's own principal moments and axes (for a free anchor) instead of the shaft's axes")
    p.add_argument("-o", "--output", default="anchor_spheres.json")
    a = p.parse_args(argv)
    for name in ("radius", "pitch", "thickness", "shaft_radius", "shaft_length", "tip_radius",
                 "grain_radius", "mass"):
        if not getattr(a, name) > 0:
            p.error(f"--{name.replace('_', '-')} must be > 0, got {getattr(a, name)}")
    if a.turns < 1 or abs(a.turns - round(a.turns)) > 1e-9:
        p.error(f"--turns must be a whole number >= 1 (keeps the centre of mass on the axis), got {a.turns}")
    a.turns = int(round(a.turns))
    if a.spacing == 0:
        a.spacing = a.thickness
    if not a.spacing > 0:
        p.error(f"--spacing must be > 0, got {a.spacing}")
    if a.radius <= a.shaft_radius + a.thickness:
        p.error("--radius must exceed --shaft-radius + --thickness")
    if a.tip_radius < a.shaft_radius:
        p.error("--tip-radius must be at least --shaft-radius")
    z_top = a.tip_radius + a.thickness + a.pitch * a.turns + a.thickness
    if z_top > a.shaft_length:
        p.error(f"--shaft-length {a.shaft_length} m is shorter than the helix top ({z_top:.3f} m)")
    # A grain passes between four plate spheres of a cell d x d when d / sqrt(2) > grain + t/2.
    half_diagonal = a.spacing / math.sqrt(2)
    if half_diagonal > a.grain_radius + a.thickness / 2:
        p.error(f"--spacing {a.spacing} m lets a grain of radius {a.grain_radius} m through the helix "
                f"(largest spacing {math.sqrt(2) * (a.grain_radius + a.thickness / 2):.4f} m)")
    return a


def helix_start(a):
    return a.tip_radius + a.thickness  # the plate's mid-surface starts here, clear of the tip


def sphere_centres(a):
    """Member spheres [x, y, z, r] in the build frame (tip centre at the origin)."""
    spheres = [[0.0, 0.0, 0.0, a.tip_radius]]
    n = max(1, math.ceil(a.shaft_length / (a.shaft_radius / 2)))
    spheres += [[0.0, 0.0, a.shaft_length * k / n, a.shaft_radius] for k in range(1, n + 1)]
    s = a.thickness / 2
    inner, outer = a.shaft_radius, a.radius - s
    rows = max(1, math.ceil((outer - inner) / a.spacing))
    z0, angle = helix_start(a), 2 * math.pi * a.turns
    for j in range(rows + 1):
        rho = inner + (outer - inner) * j / rows
        length = a.turns * math.hypot(2 * math.pi * rho, a.pitch)
        m = max(1, math.ceil(length / a.spacing))
        for k in range(m + 1):
            phi = angle * k / m
            spheres.append([rho * math.cos(phi), rho * math.sin(phi), z0 + a.pitch * phi / (2 * math.pi), s])
    return spheres


def shaft_and_tip_moments(a, n=2000):
    """Volume, first and second moments of the union of tip sphere and shaft cylinder (axisymmetric)."""
    rmax = a.tip_radius
    zmin, zmax = -a.tip_radius, a.shaft_length
    rho = (np.arange(n) + 0.5) * rmax / n
    z = zmin + (np.arange(4 * n) + 0.5) * (zmax - zmin) / (4 * n)
    R, Z = np.meshgrid(rho, z, indexing="ij")
    inside = ((R <= a.shaft_radius) & (Z >= 0) & (Z <= a.shaft_length)) | (R * R + Z * Z <= a.tip_radius ** 2)
    dv = 2 * math.pi * R * (rmax / n) * ((zmax - zmin) / (4 * n)) * inside
    V = dv.sum()
    first = np.array([0.0, 0.0, (dv * Z).sum()])
    # second moments  S_ij = integral of x_i x_j dV; axisymmetric: Sxx = Syy = integral rho^2 / 2
    sxx = (dv * R * R).sum() / 2
    S = np.diag([sxx, sxx, (dv * Z * Z).sum()])
    return V, first, S


def helix_moments(a, nr=400, nphi=20000):
    """The same for the plate: thickness t normal to the helicoid is t sqrt(1 + (p / 2 pi rho)^2) along z."""
    rho = a.shaft_radius + (np.arange(nr) + 0.5) * (a.radius - a.shaft_radius) / nr
    phi = (np.arange(nphi) + 0.5) * 2 * math.pi * a.turns / nphi
    R, P = np.meshgrid(rho, phi, indexing="ij")
    tau = a.thickness * np.sqrt(1 + (a.pitch / (2 * math.pi * R)) ** 2)
    zc = helix_start(a) + a.pitch * P / (2 * math.pi)
    area = R * ((a.radius - a.shaft_radius) / nr) * (2 * math.pi * a.turns / nphi)
    dv = area * tau
    x, y = R * np.cos(P), R * np.sin(P)
    V = dv.sum()
    first = np.array([(dv * x).sum(), (dv * y).sum(), (dv * zc).sum()])
    zz = dv * (zc * zc + tau * tau / 12)
    S = np.array([[(dv * x * x).sum(), (dv * x * y).sum(), (dv * x * zc).sum()],
                  [0, (dv * y * y).sum(), (dv * y * zc).sum()],
                  [0, 0, zz.sum()]])
    S = np.triu(S) + np.triu(S, 1).T
    return V, first, S


def mass_properties(a):
    v1, f1, s1 = shaft_and_tip_moments(a)
    v2, f2, s2 = helix_moments(a)
    volume = v1 + v2
    density = a.mass / volume
    com = (f1 + f2) / volume
    S = density * (s1 + s2) - a.mass * np.outer(com, com)  # second moments about the COM
    inertia = np.trace(S) * np.eye(3) - S
    moments, axes = np.linalg.eigh(inertia)
    k3 = int(np.argmax(np.abs(axes[2, :])))  # the principal axis nearest the shaft is axis 3
    order = [k for k in range(3) if k != k3] + [k3]
    moments, axes = moments[order], axes[:, order]
    if axes[2, 2] < 0:
        axes[:, 2] = -axes[:, 2]
    if np.linalg.det(axes) < 0:
        axes[:, 0] = -axes[:, 0]
    return {"volume": volume, "density": density, "shaft_tip_volume": v1, "helix_volume": v2,
            "com": com, "inertia": inertia, "moments": moments, "axes": axes}


def main(argv):
    a = options(argv)
    mp = mass_properties(a)
    com = mp["com"]
    spheres = [[x - com[0], y - com[1], z - com[2], r] for x, y, z, r in sphere_centres(a)]
    lean = math.degrees(math.acos(min(1.0, abs(mp["axes"][2, 2]))))
    out = {
        "mass": a.mass,
        "volume": mp["volume"],
        "centre_of_mass": com.tolist(),
        "inertia": mp["inertia"].tolist(),
        "principal_moments": (mp["moments"] if a.principal_frame else np.diag(mp["inertia"])).tolist(),
        "principal_axes": (mp["axes"].T if a.principal_frame else np.eye(3)).tolist(),
        "spheres": spheres,
        "options": {"radius": a.radius, "pitch": a.pitch, "turns": a.turns, "thickness": a.thickness,
                    "shaft_radius": a.shaft_radius, "shaft_length": a.shaft_length,
                    "tip_radius": a.tip_radius, "spacing": a.spacing, "grain_radius": a.grain_radius,
                    "frame": "principal" if a.principal_frame else "shaft"},
    }
    with open(a.output, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    I = mp["inertia"]
    print(f"{a.output}: {len(spheres)} spheres, volume {mp['volume']:.6g} m^3 "
          f"(helix {mp['helix_volume']:.6g}), density {mp['density']:.6g} kg/m^3, mass {a.mass} kg")
    print(f"centre of mass {com[2]:.4f} m above the tip centre; tip bottom {com[2] + a.tip_radius:.4f} m below it")
    print(f"inertia about the COM: Ixx {I[0, 0]:.5g} Iyy {I[1, 1]:.5g} Izz {I[2, 2]:.5g} "
          f"Ixy {I[0, 1]:.3g} Ixz {I[0, 2]:.3g} Iyz {I[1, 2]:.3g} kg m^2; principal axis 3 leans {lean:.2f} deg off the shaft")
    return 0


if __name__ == "__main__":
    sys.exit(run_guarded("anchor_spheres", lambda argv: main(argv[1:]), sys.argv))
