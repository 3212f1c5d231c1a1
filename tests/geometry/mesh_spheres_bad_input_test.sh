#!/usr/bin/env bash
# mesh_spheres refuses numbers it cannot use and a missing mesh as bad input (exit status 2, the
# project's convention, docs/exit-status.md), with one line naming the option and writing no
# sphere file: NaN and the infinities for --density (a NaN density wrote "inertia": null and
# exited 0; inf printed a 309-digit range and exited 105) and for the decomposition's numbers;
# a missing mesh says what is required and how (exited 106 with a bare `mesh is required`). A
# good tetrahedron still exits 0, and an output it cannot write exits 1 (the run failed).
# Usage: mesh_spheres_bad_input_test.sh MESH_SPHERES
set -euo pipefail
tool=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n' >"$work/tetra.obj"

fail() { echo "FAIL: $*"; cat "$work/err.txt"; exit 1; }
refused() {  # STATUS PATTERN ARGS...: exits STATUS, stderr's first line matches PATTERN, no sphere file
  local want=$1 pattern=$2 status=0
  shift 2
  rm -f "$work/out.json"
  "$tool" "$@" -o "$work/out.json" >/dev/null 2>"$work/err.txt" || status=$?
  [[ $status == "$want" ]] || fail "mesh_spheres $* exited $status, expected $want"
  head -1 "$work/err.txt" | grep -Eq "^mesh_spheres: error: $pattern" || fail "mesh_spheres $*: wrong message"
  [[ ! -e $work/out.json ]] || fail "mesh_spheres $* wrote a sphere file"
}

for value in nan NaN inf -inf 1e400 0 -3 abc; do
  refused 2 "--density: must be a finite number > 0, got $value\$" "$work/tetra.obj" --density "$value"
  [[ $(wc -l <"$work/err.txt") == 1 ]] || fail "--density $value: more than one line"
done
refused 2 "--f: must be a finite number, got nan\$" "$work/tetra.obj" --density 1000 --f nan
refused 2 "--refined-f: must be a finite number, got inf\$" "$work/tetra.obj" --density 1000 --refined-f inf
refused 2 "--sharp-angle: must be a finite number, got -inf\$" "$work/tetra.obj" --density 1000 --sharp-angle -inf
refused 2 "--merge: must be a finite number >= 0, got nan\$" "$work/tetra.obj" --density 1000 --merge nan
refused 2 "a mesh file is required: the part's closed surface, .obj or .stl" --density 1000
grep -q "^usage: mesh_spheres MESH.obj|MESH.stl --density KG_PER_M3" "$work/err.txt" || fail "no usage line"
refused 2 "--density is required" "$work/tetra.obj"
refused 2 ".*no_such.obj" "$work/no_such.obj" --density 1000

"$tool" "$work/tetra.obj" --density 1000 -o "$work/tetra.json" >/dev/null 2>"$work/err.txt" || fail "a good mesh exited $?"
python3 -c 'import json, math, sys; j = json.load(open(sys.argv[1])); assert all(math.isfinite(x) for row in j["inertia"] for x in row)' \
  "$work/tetra.json" || fail "the good mesh's inertia is not finite"
status=0
"$tool" "$work/tetra.obj" --density 1000 -o "$work/tetra.obj/x.json" >/dev/null 2>"$work/err.txt" || status=$?
[[ $status == 1 ]] || fail "an unwritable output exited $status, expected 1"
echo "mesh_spheres: bad numbers and a missing mesh refused with exit status 2, one line naming the option"
