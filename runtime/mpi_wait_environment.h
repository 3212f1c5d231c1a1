#pragma once
// What choose_mpi_wait (mpi_wait_choice.h) reads from this process's environment and node, and
// the one place that acts on its choice: before MPI starts, since Open MPI reads
// OMPI_MCA_mpi_yield_when_idle when it initialises.

#include <optional>

#include "runtime/mpi_wait_choice.h"

namespace trackcosim::runtime {

/// TRACKCOSIM_MPI_WAIT, OMPI_MCA_mpi_yield_when_idle, read_thread_inputs (without MPI's count)
/// and the node's busy cores over 0.2 s from /proc/stat (when TRACKCOSIM_MPI_WAIT asks for auto).
/// Not the load average: that still counts a run which ended a minute ago, and back-to-back runs
/// of our own (a mobility series) would nap where they should yield.
MpiWaitInputs read_mpi_wait_inputs();

/// Reads, chooses and exports OMPI_MCA_mpi_yield_when_idle when the choice sets it, and
/// TRACKCOSIM_MPI_NAP_US (comm/idle_nap.h). For a program
/// about to start MPI (before comm::ensure_mpi); a second call returns the first choice.
const MpiWaitChoice& prepare_mpi_waits();

/// The choice prepare_mpi_waits made in this process, if it ran: for run.json.
std::optional<MpiWaitChoice> prepared_mpi_wait();

}  // namespace trackcosim::runtime
