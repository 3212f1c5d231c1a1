#!/usr/bin/env python3
"""tools/anchor/anchor_spheres.py against closed forms (docs/anchor.md, "Geometry").

- A helix of vanishing pitch is a flat annulus: volume pi (R^2 - a^2) t and, per unit density,
  Izz = pi t (R^4 - a^4) / 2 (relative 1e-4).
- Tip of the shaft's radius: the union is a cylinder and a hemisphere, pi a^2 L + 2/3 pi a^3 (1e-4).
- The written anchor: mass as asked, centre of mass at the origin, a symmetric inertia tensor
  whose diagonal are the moments about the shaft's axes (the file's frame), and no gap a smallest grain could pass: every
  point of the helix's mid-surface lies closer than plate sphere + grain radius to a plate sphere.
- A spacing that would let the grain through and a fractional number of turns are refused.
"""
import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "..", "..", "tools", "anchor", "anchor_spheres.py")
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools"))
from anchor import anchor_spheres  # noqa: E402


class AnchorSpheres(unittest.TestCase):
    def test_flat_helix_is_an_annulus(self):
        a = anchor_spheres.options(["--pitch", "1e-7", "--thickness", "0.02"])
        v, first, S = anchor_spheres.helix_moments(a)
        R, r, t = a.radius, a.shaft_radius, a.thickness
        self.assertAlmostEqual(v / (math.pi * (R * R - r * r) * t), 1, delta=1e-4)
        izz = S[0, 0] + S[1, 1]
        self.assertAlmostEqual(izz / (math.pi * t * (R ** 4 - r ** 4) / 2), 1, delta=1e-4)
        self.assertLess(abs(first[0]) + abs(first[1]), 1e-9)  # whole turns: on the axis

    def test_shaft_and_tip_of_one_radius(self):
        a = anchor_spheres.options(["--tip-radius", "0.04", "--shaft-radius", "0.04"])
        v, _, _ = anchor_spheres.shaft_and_tip_moments(a)
        r, L = a.shaft_radius, a.shaft_length
        self.assertAlmostEqual(v / (math.pi * r * r * L + 2 / 3 * math.pi * r ** 3), 1, delta=1e-4)

    def test_written_anchor(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "a.json")
            subprocess.run([sys.executable, TOOL, "-o", out], check=True, capture_output=True)
            with open(out) as f:
                doc = json.load(f)
        self.assertEqual(doc["mass"], 10.0)
        I = np.array(doc["inertia"])
        self.assertTrue(np.allclose(I, I.T))
        # the shaft's frame (the axial motion's): the moments are the tensor's diagonal
        self.assertEqual(doc["principal_axes"], np.eye(3).tolist())
        self.assertEqual(doc["principal_moments"], np.diag(I).tolist())
        o = doc["options"]
        com = doc["centre_of_mass"]
        spheres = np.array(doc["spheres"])
        plate = spheres[np.isclose(spheres[:, 3], o["thickness"] / 2)]
        # no grain passes: sample the mid-surface, the nearest plate sphere is within s + r_grain
        rng = np.random.default_rng(1)
        rho = rng.uniform(o["shaft_radius"], o["radius"] - o["thickness"] / 2, 4000)
        phi = rng.uniform(0, 2 * math.pi * o["turns"], 4000)
        z0 = o["tip_radius"] + o["thickness"]
        pts = np.stack([rho * np.cos(phi), rho * np.sin(phi), z0 + o["pitch"] * phi / (2 * math.pi)], 1) - com
        nearest = np.array([np.min(np.linalg.norm(plate[:, :3] - p, axis=1)) for p in pts])
        self.assertLess(nearest.max(), o["thickness"] / 2 + o["grain_radius"])
        # COM at the origin: the spheres are relative to it, and the tool's COM is the primitives'
        mp = anchor_spheres.mass_properties(anchor_spheres.options([]))
        self.assertTrue(np.allclose(mp["com"], com, atol=1e-12))

    def test_refusals(self):
        for args, words in ((["--spacing", "0.08"], "lets a grain"), (["--turns", "1.5"], "whole number")):
            p = subprocess.run([sys.executable, TOOL, "-o", os.devnull] + args, capture_output=True, text=True)
            self.assertEqual(p.returncode, 2, args)
            self.assertIn(words, p.stderr)


if __name__ == "__main__":
    unittest.main()
