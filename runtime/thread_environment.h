#pragma once
// What choose_threads (thread_choice.h) reads from this process's environment and machine: the
// launchers' variables, the CPUs the process is bound to, the node's CPUs. Apart from the
// decision so that the decision stays pure and testable.

#include "runtime/thread_choice.h"

namespace trackcosim::runtime {

/// `explicit_threads`: --threads (0 when not given); `mpi_ranks_on_node`: from
/// comm::ranks_on_this_node, 0 when the program runs without MPI.
ThreadInputs read_thread_inputs(int explicit_threads, int mpi_ranks_on_node);

/// The variable's value, or nothing when it is unset.
std::optional<std::string> environment_variable(const char* name);

/// Whether OMP_WAIT_POLICY is set: if not, oversubscription_note advises it.
bool omp_wait_policy_set();

}  // namespace trackcosim::runtime
