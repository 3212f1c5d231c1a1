#!/usr/bin/env bash
# The client printed in docs/protocol.md ("A complete client") is examples/python_client.py, and it
# runs: a client can be written from the document alone.
#  - the document's python block is byte for byte examples/python_client.py;
#  - run from the extracted block against terrain_node --cosim on TCP port 0
#    (configs/cosim_tcp_example.json), it completes its 150 coupling steps, the terrain pushes its
#    shoes up (mean vertical force > 0), and the terrain ends normally after the client's finish;
#  - keepalive: with a bed that settles for longer than the client's timeout (1.5 s), a client
#    asking for working frames every 0.375 s still gets its welcome: at least 5 working frames
#    (each sent after 0.375 s of silence, so the waits they restarted add up to more than the
#    timeout; 2 s of settling takes about 7 s here);
#  - keepalive inside a terrain step: with steps longer than the client's timeout (2 s; 12,000
#    iterations on 2,000 stacked spheres, about 4 s per terrain step here), a client asking for
#    working frames every 0.5 s still gets its forces: the terrain's leader sends them between
#    solver iterations (terrain_node/coupling/solve_pulse.h), not only between terrain steps;
#  - compatibility: a client whose hello has no "keepalive" receives no working frame (the
#    client stops on any frame it did not ask for). It waits up to 300 s for its welcome: with the
#    default 20 s it failed in CI when the 2 s of settling took longer on a loaded machine.
# Usage: protocol_doc_client_test.sh TERRAIN_NODE SOURCE_DIR
set -euo pipefail
terrain=$1 src=$2
work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; [[ -n ${KEEP_WORK:-} ]] || rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive

# The block after the marker line, without its fences.
marker='<!-- examples/python_client.py in full'
awk -v m="$marker" 'index($0, m) == 1 {found = 1; next}
                    found && !inside && /^```python$/ {inside = 1; next}
                    inside && /^```$/ {exit}
                    inside {print}' "$src/docs/protocol.md" >"$work/doc_client.py"
[[ -s $work/doc_client.py ]] || { echo "FAIL: no python block after '$marker' in docs/protocol.md"; exit 1; }
diff -u "$src/examples/python_client.py" "$work/doc_client.py" ||
  { echo "FAIL: docs/protocol.md shows another client than examples/python_client.py"; exit 1; }

# A bed that settles for 2 s of simulated time instead of 0.1 s: seconds of work before the
# welcome (the config's // comment lines are dropped).
python3 - "$src/configs/cosim_tcp_example.json" "$work/slow_settle.json" <<'EOF'
import json, sys
text = "".join(l for l in open(sys.argv[1]) if not l.lstrip().startswith("//"))
config = json.loads(text)
config["cosim"]["settle_time"] = 2.0
json.dump(config, open(sys.argv[2], "w"))
EOF

# Terrain steps longer than a client's timeout: 8 layers of stacked spheres (6,300 contacts at
# once) solved with 12,000 iterations, one settling step.
python3 - "$src/configs/cosim_tcp_example.json" "$work/long_steps.json" <<'EOF'
import json, sys
text = "".join(l for l in open(sys.argv[1]) if not l.lstrip().startswith("//"))
config = json.loads(text)
config["cosim"]["settle_time"] = 0.001
config["solver"]["max_iterations"] = 12000
config["particles"][0].update(layers=8, gap=0.0)
json.dump(config, open(sys.argv[2], "w"))
EOF

source "$src/tests/support/tcp_terrain.sh"
ends_normally() {  # name steps: the terrain exits 0 after that many coupling steps
  local status=0
  wait "$(cat "$work/$1.pid")" || status=$?
  [[ $status == 0 ]] || { echo "FAIL: terrain ($1) exit status $status"; cat "$work/$1.log"; exit 1; }
  grep -q "^terrain cosim steps=$2 shoes=8 " "$work/$1.log" ||
    { echo "FAIL: terrain ($1) did not serve $2 steps"; cat "$work/$1.log"; exit 1; }
}
client() {  # name args...: runs the document's client, fails the test with its error
  local name=$1; shift
  python3 "$work/doc_client.py" 127.0.0.1 "$port" "$@" >"$work/$name.out" 2>"$work/$name.err" ||
    { echo "FAIL: the client ($name) failed"; cat "$work/$name.err" "$work/$name.log"; exit 1; }
  tail -n 1 "$work/$name.out"
}
field() { sed -n "s/^example python .* $1=\([^ ]*\).*/\1/p" "$2"; }

start_tcp_terrain plain "$src/configs/cosim_tcp_example.json"
client plain 150
grep -q "^example python steps=150 shoes=8 " "$work/plain.out"
awk -v f="$(field mean_fz "$work/plain.out")" 'BEGIN{exit !(f > 0)}' ||
  { echo "FAIL: no upward force on the shoes"; exit 1; }
ends_normally plain 150

start_tcp_terrain keepalive "$work/slow_settle.json"
client keepalive 20 --timeout 1.5
working=$(field working "$work/keepalive.out")
(( working >= 5 )) || { echo "FAIL: $working working frames, expected at least 5"; exit 1; }
ends_normally keepalive 20

start_tcp_terrain long_steps "$work/long_steps.json"
client long_steps 1 --timeout 2
working=$(field working "$work/long_steps.out")
(( working >= 5 )) || { echo "FAIL: $working working frames during long terrain steps, expected at least 5"; exit 1; }
ends_normally long_steps 1
echo "terrain work per coupling step: $(awk -F, 'NR > 1 {printf "%s%.1f", sep, $4; sep = ", "}' "$work/long_steps/timing.csv") s (2 terrain steps) against the client's 2 s timeout"

start_tcp_terrain old "$work/slow_settle.json"
client old 20 --keepalive 0 --timeout 300
[[ $(field working "$work/old.out") == 0 ]]
ends_normally old 20
echo "the document's client is examples/python_client.py; it runs, with and without working frames, and through terrain steps longer than its timeout"
