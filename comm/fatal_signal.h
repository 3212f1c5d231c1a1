#pragma once
// A crash ends the process with one line that says where, not with a crash dump. Open MPI
// installs its own handler at MPI_Init that prints a banner and a raw backtrace ("Signal:
// Segmentation fault (11)", "Failing at address: (nil)") and leaves the job to die of the
// signal; a rank that crashed inside the MPI library after its network failed looked like a bug
// of ours. This report replaces it: "<who>: fatal: SIGSEGV (address 0x0) in <library>
// (<function>+0x..): ...", the frames below it (to file the bug where it belongs), and exit
// status 1 (the run failed, docs/exit-status.md), which mpirun and srun pass on as a failed rank.

#include <string>

namespace trackcosim::comm {

/// Reports SIGSEGV, SIGBUS, SIGFPE and SIGILL as above, as `who` ("terrain_node rank 0"). Call
/// after MPI_Init (comm::ensure_mpi does), so that this report, not Open MPI's, is the one in
/// place. Calling it again changes the name only.
void report_fatal_signals(const std::string& who);

}  // namespace trackcosim::comm
