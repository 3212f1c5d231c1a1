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
// a nap of TRACKCOSIM_MPI_NAP_US microseconds when that is set (io/mpi_wait_choice.h sets it on a
// shared node, with mpi_yield_when_idle), else the system call, as before. Results do not change:
// only when a waiting rank looks again.

#include <cstdint>

namespace trackcosim::comm {

/// Reads TRACKCOSIM_MPI_NAP_US (before MPI starts: ensure_mpi calls it). 0 or unset: no nap.
void read_idle_nap_setting();

/// How many naps this process has taken in place of a yield.
std::uint64_t idle_naps_taken();

}  // namespace trackcosim::comm
