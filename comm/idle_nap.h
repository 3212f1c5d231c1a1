#pragma once
// How a rank waiting inside Open MPI gives up its core on a node shared with other work.
//
// With mpi_yield_when_idle on, Open MPI's progress loop calls sched_yield() whenever a poll found
// nothing. Where the node's other cores are taken by our own ranks, that hands the core to the
// rank being waited for, as it should. Where they are taken by other work, the kernel gives it to
// that work and the waiting rank queues behind it for every poll: the README's 2-rank example
// beside two busy processes took 558 s yielding and 419 s polling, against 52 s napping. A
// rank that sleeps briefly instead is woken ahead of the other work, since it used less of the
// core than they did.
//
// So this process defines sched_yield() itself (the dynamic linker binds Open MPI's calls to it):
// when TRACKCOSIM_MPI_NAP_US is set (runtime/mpi_wait_choice.h sets it on a shared node, with
// mpi_yield_when_idle), a wait polls for its first TRACKCOSIM_MPI_SPIN_US microseconds and then
// naps TRACKCOSIM_MPI_NAP_US at a time; else sched_yield is the system call, as before. Results
// do not change: only when a waiting rank looks again.

#include <cstdint>

namespace trackcosim::comm {

/// How long a wait polls before its first nap, unless TRACKCOSIM_MPI_SPIN_US (0 to 100000) says.
/// A peer that is on a core answers within it (a halo message takes microseconds), and a nap costs
/// about 70 us to come back from (the kernel's 50 us timer slack): napping at the first empty poll
/// made the 2-rank example 1.6x slower than polling on a quiet node. A peer that is off its core
/// is away for a scheduler slice (milliseconds), so polling longer only takes time from the work
/// around. Measured on 2 cores (docs/domain-decomposition.md, "On a busy node"): beside two busy
/// processes 51-61 s at 0, 50 s at 30, 42-45 s at 100, 41-43 s at 300, 54-56 s at 1000; on a
/// quiet node 30 s at 0 and 17-19 s from 100 up, as fast as polling (18 s).
constexpr int kSpinBeforeNapMicroseconds = 300;

/// Reads TRACKCOSIM_MPI_NAP_US and TRACKCOSIM_MPI_SPIN_US (before MPI starts: ensure_mpi calls
/// it). Nap 0 or unset: no naps. Values outside 0 to 100000 are ignored.
void read_idle_nap_setting();

/// How many naps this process has taken in place of a yield.
std::uint64_t idle_naps_taken();

}  // namespace trackcosim::comm
