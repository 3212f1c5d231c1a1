#!/usr/bin/env bash
# `--help` on every program, launcher subcommand, bench program and script prints its help and
# exits 0 without doing anything else: run from an empty folder, each must print its help (a
# usage line, or a script's header comment, or a Python tool's docstring) and leave the folder
# empty (a bench that ran its benchmark, or a launcher that started a run, would write there).
# Programs not built in this configuration are skipped.
# Usage: help_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python=python3
[[ -x /usr/bin/python3 ]] && python=/usr/bin/python3  # the tools' numpy and matplotlib
failed=0 checked=0
check() {  # description, text the help must hold, then the command
  local what=$1 expect=$2
  shift 2
  (cd "$work" && timeout 120 "$@" --help >"$work/../help_out.$$" 2>&1)
  local status=$?
  local found=yes
  grep -qiF -- "$expect" "$work/../help_out.$$" || found=no
  if [[ $status != 0 || $found == no || -n $(ls -A "$work") ]]; then
    echo "FAIL: $what --help: exit status $status, help holds '$expect': $found, left in the folder: $(ls -A "$work" | tr '\n' ' ')"
    head -5 "$work/../help_out.$$"
    failed=1
    rm -rf "${work:?}"/* "$work"/.[!.]* 2>/dev/null
  fi
  checked=$((checked + 1))
  rm -f "$work/../help_out.$$"
}

for program in terrain_node/terrain_node vehicle_node/vehicle_node tools/mesh_spheres; do
  check "$program" usage "$build/$program"
done
for program in ccp collision comm_costs generators loaded_bed moving_patch state_hash terrain_scaling vehicle \
               device_bandwidth; do
  if [[ -x $build/bench/$program ]]; then check "bench/$program" usage "$build/bench/$program"; fi
done
for subcommand in run plot render mobility "mobility dbp configs/mobility_robot.json"; do
  # shellcheck disable=SC2086
  check "trackcosim $subcommand" "trackcosim ${subcommand%% *}" "$src/tools/trackcosim" $subcommand
done
for script in "$src"/bench/*.sh "$src"/tools/*.sh; do
  [[ $(basename "$script") == script_help.sh ]] && continue
  check "${script#"$src"/}" "$(sed -n '2s/^# //p' "$script")" bash "$script"
done
for script in "$src"/bench/*.py $(grep -rl --include='*.py' '__main__' "$src/tools" | sort); do
  first=$("$python" -c 'import ast, sys; print((ast.get_docstring(ast.parse(open(sys.argv[1]).read())) or "usage").splitlines()[0])' "$script")
  # argparse prints "usage: ..." first and the docstring after it, when it gives one.
  if grep -q "argparse\|OneLineParser" "$script"; then first=usage; fi
  check "${script#"$src"/}" "$first" "$python" "$script"
done
echo "help_test: $checked commands checked"
exit $failed
