#!/usr/bin/env bash
# mesh_spheres end to end: a unit cube of density 1000 gives mass 1000 kg, centre (0.5, 0.5, 0.5),
# I = m (1 + 1) / 12 about every axis and spheres relative to the centre (all within the cube's
# half size plus their radius); the same cube with a face missing exits 1 naming the open edges.
# Usage: mesh_spheres_test.sh MESH_SPHERES
set -euo pipefail
tool=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cube='v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n'
faces='f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\n'
printf "$cube$faces"'f 1 5 8 4\n' >"$work/cube.obj"
printf "$cube$faces" >"$work/open.obj"

"$tool" "$work/cube.obj" --density 1000 -o "$work/cube.json" >"$work/report.txt"
grep -q 'spheres (12 sharp faces refined' "$work/report.txt"
python3 - "$work/cube.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert abs(j["mass"] - 1000) < 1e-9, j["mass"]
assert all(abs(c - 0.5) < 1e-12 for c in j["centre_of_mass"]), j["centre_of_mass"]
assert all(abs(m - 1000 * 2 / 12) < 1e-9 for m in j["principal_moments"]), j["principal_moments"]
assert len(j["spheres"]) == j["fit"]["spheres"] > 12
assert all(max(abs(x), abs(y), abs(z)) <= 0.5 + r for x, y, z, r in j["spheres"])
assert j["fit"]["gap"] < 1e-9 and 0 < j["fit"]["protrusion"] < 1
PY

if "$tool" "$work/open.obj" --density 1000 -o "$work/open.json" 2>"$work/error.txt"; then
  echo "an open mesh was accepted" >&2
  exit 1
fi
grep -q "open.obj: open mesh: 4 edges belong to one face only (first: vertices 0-3)" "$work/error.txt" ||
  { cat "$work/error.txt" >&2; exit 1; }
test ! -e "$work/open.json"
echo "mesh_spheres: cube and open cube as expected"
