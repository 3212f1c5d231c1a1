#!/usr/bin/env bash
# How waiting MPI ranks poll (runtime/mpi_wait_choice.h) reaches Open MPI: the probe starts MPI as the
# programs do and reads mpi_yield_when_idle back from MPI itself.
#  1. TRACKCOSIM_MPI_WAIT=yield on 2 ranks: every rank yields (Open MPI alone would poll).
#  2. TRACKCOSIM_MPI_WAIT=spin on more ranks than cores: every rank polls (Open MPI alone would yield).
#  3. Unset, more ranks than cores: Open MPI yields on every rank, the choice naming the counts.
#  4. The user's own OMPI_MCA_mpi_yield_when_idle=0 stands over the oversubscription.
#  5. TRACKCOSIM_MPI_WAIT=nap: Open MPI yields, and its yields reach this program's sched_yield,
#     which naps (comm/idle_nap.h): rank 0, waiting inside MPI for the last rank, took naps; with
#     yield, none.
#  6. TRACKCOSIM_MPI_WAIT=sleep is refused by name before MPI starts.
# None of these depends on the node's load: the load rule is the unit test's (io_tests).
set -euo pipefail
probe=$1 mpiexec=$2
crowd=$(( $(nproc) + 1 ))  # more ranks than this node has cores, whatever it has

expect() {  # expect NAME RANKS YIELD OUTPUT
  local name=$1 ranks=$2 yield=$3 output=$4
  local lines
  lines=$(grep -c "yield_when_idle=$yield naps=" <<<"$output" || true)
  [[ $lines == "$ranks" ]] || { echo "FAIL ($name): expected $ranks ranks with yield_when_idle=$yield:"; echo "$output"; exit 1; }
  echo "ok ($name): $ranks ranks, yield_when_idle=$yield"
}

out=$(TRACKCOSIM_MPI_WAIT=yield "$mpiexec" -n 2 "$probe")
expect "yield asked" 2 1 "$out"
out=$(TRACKCOSIM_MPI_WAIT=spin "$mpiexec" --oversubscribe -n "$crowd" "$probe")
expect "spin asked" "$crowd" 0 "$out"
out=$(env -u TRACKCOSIM_MPI_WAIT "$mpiexec" --oversubscribe -n "$crowd" "$probe")
expect "oversubscribed" "$crowd" 1 "$out"
# "oversubscribed: ...", or "node shared: ..." when other work is busy here too (both name the count).
grep -q "from=[a-z ]*: .*$crowd ranks on $(nproc) cores" <<<"$out" ||
  { echo "FAIL: the choice does not name the ranks and cores:"; echo "$out"; exit 1; }
out=$(OMPI_MCA_mpi_yield_when_idle=0 "$mpiexec" --oversubscribe -n "$crowd" "$probe")
expect "the user's setting" "$crowd" 0 "$out"
grep -q "^rank 0 .* naps=0\$" <<<"$out" || { echo "FAIL: a rank napped without being asked:"; echo "$out"; exit 1; }

out=$(TRACKCOSIM_MPI_WAIT=nap "$mpiexec" -n 2 "$probe")
expect "nap asked" 2 1 "$out"
grep -Eq "^rank 0 wait=nap .* naps=[1-9][0-9]*\$" <<<"$out" ||
  { echo "FAIL: rank 0 waited in MPI and took no nap:"; echo "$out"; exit 1; }
echo "ok (naps): $(grep '^rank 0' <<<"$out")"
out=$(TRACKCOSIM_MPI_WAIT=yield "$mpiexec" -n 2 "$probe")
grep -q "^rank 0 wait=yield .* naps=0\$" <<<"$out" || { echo "FAIL: yield napped:"; echo "$out"; exit 1; }

set +e
err=$(TRACKCOSIM_MPI_WAIT=sleep "$probe" 2>&1 >/dev/null)
status=$?
set -e
[[ $status == 2 && $err == *"TRACKCOSIM_MPI_WAIT=sleep: expected spin, yield, nap or auto"* ]] ||
  { echo "FAIL: TRACKCOSIM_MPI_WAIT=sleep gave status $status: $err"; exit 1; }
echo "ok (refused): $err"
