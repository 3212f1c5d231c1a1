#!/usr/bin/env bash
# A rank that crashes inside the MPI library ends the job with one line that names it (the
# signal, the address, the library and the call into it, comm/fatal_signal.h), its frames and a
# non-zero status, not Open MPI's crash dump ("Signal: Segmentation fault (11)", "Failing at
# address"), and the job does not hang: the other rank, waiting in a barrier, is ended by mpirun.
# Usage: crash_in_mpi_job.sh CRASH_PROGRAM MPIEXEC
set -euo pipefail
program=$1 mpiexec=$2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
timeout 60 "$mpiexec" --oversubscribe -np 2 "$program" >"$log" 2>&1 || status=$?
fail() { cat "$log"; echo "FAIL: $*"; exit 1; }
[[ $status -ne 0 && $status -ne 124 ]] || fail "exit status $status: expected a failed job (124: it hung)"
line=$(grep -E "^crash_in_mpi_job rank 1: fatal: SIGSEGV \(address 0x10\) in [^ ]+.*(MPI library).*: inside the MPI library: Open MPI's messages above name what failed before it" "$log") ||
  fail "no one-line report of rank 1's crash inside the MPI library"
! grep -qE "Signal: Segmentation fault|Failing at address|Signal code:" "$log" || fail "Open MPI's crash dump was printed"
grep -qE "libmpi\.so|mca_|libopen-pal" "$log" || fail "the frames do not show the MPI library"
echo "ok: exit status $status: $line"
