#!/usr/bin/env bash
# A lost peer ends a standalone terrain run (terrain_node --config --peer-timeout, issue 19 item 5):
# settle_small.json on 2 ranks, 1 s of simulated time, --peer-timeout 3. Once the run has done
# 10 steps, rank 1 is stopped with SIGSTOP (it neither computes nor answers, as a rank on a lost
# node). Rank 0, waiting for it inside the next step, must end the job with exit status 3 after its
# 3 s limit (plus any time rank 0 itself did not run), its error naming its last step; the last checkpoint (every step, so that the stop
# lands inside a checkpoint's collective write as often as inside a step: both are watched)
# must be whole (a 1-rank --restart from it runs 10 more steps). tests/slurm/netns_cluster_run.sh does the same
# with a host's network really cut.
# Usage: terrain_hang_run.sh TERRAIN_NODE MPIEXEC SOURCE_DIR
set -euo pipefail
terrain=$1 mpiexec=$2 src=$3
work=$(mktemp -d)
trap 'pkill -KILL -P $$ 2>/dev/null || true; rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive
sed -e 's/"end_time": 0.5,/"end_time": 1.0,/' -e 's/"snapshot_interval": 50,/"snapshot_interval": 0, "checkpoint_interval": 1,/' \
  "$src/configs/settle_small.json" >"$work/bed.json"
grep -q '"checkpoint_interval": 1' "$work/bed.json" || { echo "FAIL: could not derive the config"; exit 1; }
. "$(dirname "${BASH_SOURCE[0]}")/fault_helpers.sh"

"$mpiexec" --oversubscribe -np 2 "$terrain" --config "$work/bed.json" --out "$work/run" --peer-timeout 3 \
  >"$work/run.log" 2>&1 &
job=$!
wait_for_rows "$work/run/stats.csv" 10 "$job"
t=$(now); kill -STOP "$(pid_of "$job" 1)"
# A job that does not end fails here with its logs, not silently at ctest's timeout.
for _ in $(seq 600); do kill -0 "$job" 2>/dev/null || break; sleep 0.1; done
kill -0 "$job" 2>/dev/null && fail "the job did not end within 60 s of the SIGSTOP"
status=0
wait "$job" || status=$?
took=$(echo "$(now) - $t" | bc)
[[ $status -eq 3 ]] || fail "exit status $status, expected 3 (a peer lost)"
# (mpirun forwards stdout and stderr apart: the line may follow a progress line's text.)
watchdog=$(grep -Eo "terrain_node rank 0: error: no progress for [0-9]+ s since terrain step [0-9]+: a peer.*" "$work/run.log") ||
  fail "no watchdog error of rank 0 naming its last step"
# The bounds come from the watchdog's own accounting, not from the clock alone: on a starved
# machine rank 0's watchdog looks late, and the time it did not run extends its limit (that time
# is not the peer's silence). It must not give up before its limit, must apply the 3 s limit
# (more only after a slow step: 10 times the slowest), must give up within a look of it, and the
# job must end promptly after its decision.
seconds='([0-9]+(\.[0-9])?) s'
[[ $watchdog =~ no\ progress\ for\ $seconds ]] && silent=${BASH_REMATCH[1]} || fail "no silence in: $watchdog"
[[ $watchdog =~ limit\ $seconds ]] && limit=${BASH_REMATCH[1]} || fail "no limit in: $watchdog"
unseen=0
[[ $watchdog =~ extended\ by\ $seconds ]] && unseen=${BASH_REMATCH[1]}
counted=$(echo "$silent - $unseen" | bc)
(( $(echo "$limit >= 3 && $limit <= 15" | bc) )) || fail "limit $limit s, expected --peer-timeout 3 s (or 10 slowest steps, within 15 s)"
(( $(echo "$counted >= $limit - 1 && $counted <= $limit + 2" | bc) )) ||
  fail "the watchdog counted $counted s of the peer's silence ($silent s less $unseen s unseen) against its $limit s limit"
(( $(echo "$took < $silent + 12" | bc) )) ||
  fail "ended $took s after the SIGSTOP, $silent s of silence by the watchdog's count: expected within 12 s of its decision"
echo "ok: rank 1 stopped; the job ended with status 3 after $took s: $watchdog"
# The checkpoint's step (header offset 68, docs/checkpoint-format.md) depends on how far the run
# got before the SIGSTOP landed; the restart runs 10 steps past it.
saved=$(od -An -t u8 -j 68 -N 8 "$work/run/checkpoint.bin" | tr -d ' ')
[[ $saved =~ ^[0-9]+$ && $saved -gt 0 ]] || fail "checkpoint step '$saved' is not a step count"
target=$((saved + 10))
sed "s/\"end_time\": 1.0,/\"end_time\": $(printf "%d.%03d" $((target / 1000)) $((target % 1000))),/" "$work/bed.json" >"$work/short.json"
"$terrain" --config "$work/short.json" --out "$work/restart" --restart "$work/run/checkpoint.bin" \
  >"$work/restart.log" 2>&1 || fail "the last checkpoint does not restart"
grep -q "^restart    from step $saved," "$work/restart.log" || fail "the restart did not start at step $saved"
grep -q "^settle bodies=3245 steps=$target " "$work/restart.log" || fail "the restart did not run to step $target"
echo "ok: $(grep -m1 '^restart ' "$work/restart.log"), finished on 1 rank at step $target"
