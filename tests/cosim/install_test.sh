#!/usr/bin/env bash
# An external vehicle model builds against an installed trackcosim as against preCICE
# (docs/coupling.md):
#  - cmake --install puts the programs, the launcher, the coupler library and its headers, the
#    CMake package, the pkg-config file and the Python module under a fresh prefix;
#  - the example models build out of tree against it with find_package(trackcosim) (C and C++),
#    and with pkg-config: the C model with cc alone, linked without MPI; the C++ one with c++;
#  - the installed terrain_node couples with the pkg-config C model and, in a second run, with the
#    CMake C++ model: both complete 150 steps and see the same forces (the same prescribed motion);
#  - the Python client imports as the installed module trackcosim_client, and the installed
#    launcher answers --help through its bin/ link.
# Usage: install_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; [[ -n ${KEEP_WORK:-} ]] || rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive
prefix=$work/prefix
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >"$work/install.log"
for f in bin/terrain_node bin/vehicle_node bin/trackcosim lib/libtrackcosim_coupler.so \
         include/trackcosim/cosim/coupler_c.h include/trackcosim/cosim/coupler.h \
         lib/cmake/trackcosim/trackcosimConfig.cmake lib/pkgconfig/trackcosim.pc \
         lib/python3/site-packages/trackcosim_client.py share/trackcosim/examples/CMakeLists.txt; do
  [[ -e $prefix/$f ]] || fail "cmake --install did not put $f under the prefix"
done

# find_package(trackcosim): the examples' own CMakeLists.txt, as a user's project would be.
# Ninja: tools/install_deps.sh installs it, where make may be missing.
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake "${generator[@]}" -S "$prefix/share/trackcosim/examples" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_BUILD_TYPE=Release >"$work/cmake-configure.log" || { cat "$work/cmake-configure.log"; fail "configure"; }
cmake --build "$work/cmake-build" >"$work/cmake-build.log" || { cat "$work/cmake-build.log"; fail "build"; }

# pkg-config: a C compiler and the coupler, nothing else.
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
examples=$prefix/share/trackcosim/examples
# shellcheck disable=SC2046
cc -o "$work/pt_c" "$examples/prescribed_track.c" $(pkg-config --cflags --libs trackcosim)
# shellcheck disable=SC2046
c++ -std=c++17 -o "$work/pt_cpp" "$examples/prescribed_track.cpp" $(pkg-config --cflags --libs trackcosim)
for program in "$work/pt_c" "$work/cmake-build/prescribed_track" "$work/cmake-build/prescribed_track_cpp"; do
  ldd "$program" >"$work/ldd.txt"
  loaded=$(sed -n 's/.*libtrackcosim_coupler[^ ]* => \([^ ]*\) .*/\1/p' "$work/ldd.txt")
  [[ -n $loaded && $(readlink -f "$loaded") == $(readlink -f "$prefix/lib/libtrackcosim_coupler.so") ]] ||
    { cat "$work/ldd.txt"; fail "$program does not load the installed coupler"; }
  if grep -qi "libmpi" "$work/ldd.txt"; then cat "$work/ldd.txt"; fail "$program needs MPI"; fi
done

terrain=$prefix/bin/terrain_node  # the installed one
source "$src/tests/support/tcp_terrain.sh"
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" "$2"; }
run_client() {  # name program
  start_tcp_terrain "$1" "$src/configs/cosim_tcp_example.json"
  "$2" 127.0.0.1 "$port" 150 >"$work/$1_client.log" || { cat "$work/$1_client.log" "$work/$1.log"; fail "$1 client"; }
  wait "$(cat "$work/$1.pid")" || { cat "$work/$1.log"; fail "terrain_node with the $1 client"; }
  grep -q "terrain cosim steps=150 shoes=8" "$work/$1.log" || fail "the terrain did not run 150 steps with the $1 client"
}
run_client c "$work/pt_c"
run_client cpp "$work/cmake-build/prescribed_track_cpp"
tail -n 1 "$work/c_client.log" "$work/cpp_client.log"
[[ $(field mean_fz "$work/c_client.log") == $(field mean_fz "$work/cpp_client.log") &&
   $(field mean_fx "$work/c_client.log") == $(field mean_fx "$work/cpp_client.log") ]] ||
  fail "the C and C++ models saw different forces"
awk -v f="$(field mean_fz "$work/c_client.log")" 'BEGIN{exit !(f > 0)}' || fail "no vertical force on the shoes"

PYTHONPATH=$prefix/lib/python3/site-packages python3 -c '
import trackcosim_client as t
assert t.frame(t.HELLO, b"{}")[:4] == b"TCSM" and len(t.frame(t.HELLO, b"{}")) == 18
print("python module", t.__file__)'
"$prefix/bin/trackcosim" --help >"$work/help.txt" || fail "the installed trackcosim --help"
grep -q "run" "$work/help.txt" || fail "the installed launcher's help names no run command"
echo "install test: ok"
