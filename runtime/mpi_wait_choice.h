#pragma once
// How a rank waits for its peers inside MPI: one pure decision, made before MPI starts, so that a
// test can feed it any node. Why it is needed: Open MPI's waits busy-poll. With a free core per
// rank that is the fastest way to wait, but where the ranks outnumber the cores free for them a
// polling rank holds a core that the rank it waits for needs. Open MPI then yields the core
// between polls (mpi_yield_when_idle) only when mpirun itself sees more ranks than slots: under
// srun, or on a node that other work shares, it cannot tell. Three ways to wait:
//   spin    poll without pause (Open MPI's default)
//   yield   sched_yield between polls: the core goes to another rank of ours on it
//   nap     poll for the first TRACKCOSIM_MPI_SPIN_US (300 us) of a wait, then sleep
//           TRACKCOSIM_MPI_NAP_US (20 us) between polls (comm/idle_nap.h): on a node busy with
//           other work, a yield hands the core to that work, a napping rank is woken ahead of it
// The order, first that applies:
//   the user's OMPI_MCA_mpi_yield_when_idle   kept as it is (we set nothing)
//   TRACKCOSIM_MPI_WAIT=spin|yield|nap        as asked ("auto", or unset: the rules below)
//   shared                                    nap: other work keeps at least half a core busy
//                                             (measured over 0.2 s before MPI starts, while this
//                                             job's ranks wait to start), and it plus this job's
//                                             ranks on the node reach its cores plus half a core
//   oversubscribed                            yield: this job's ranks on the node outnumber its
//                                             cores (thread_choice.h counts them), nothing else
//                                             runs there
//   otherwise                                 Open MPI's own choice (it polls, unless mpirun
//                                             sees more ranks than slots)
// Measured on 2 cores (docs/domain-decomposition.md, "On a busy node"): beside two busy
// processes, 2 ranks took 271-419 s polling, 558 s yielding, 38-44 s napping; 3 ranks of ours
// alone, 23 s yielding, 38 s napping. The waits' results are the same bits either way: only when a
// waiting rank looks again changes.

#include <optional>
#include <string>

#include "runtime/thread_choice.h"

namespace trackcosim::runtime {

/// What choose_mpi_wait reads; read_mpi_wait_inputs (mpi_wait_environment.h) fills it.
struct MpiWaitInputs {
  std::optional<std::string> requested;         ///< TRACKCOSIM_MPI_WAIT
  std::optional<std::string> ompi_yield;        ///< OMPI_MCA_mpi_yield_when_idle, as the user set it
  std::optional<std::string> nap;               ///< TRACKCOSIM_MPI_NAP_US: the nap, when they nap
  ThreadInputs threads;                         ///< the ranks on the node and its cores
  double busy_cores = -1;                       ///< cores busy with other work just before; < 0 unknown
};

/// The nap between polls when waiting ranks nap, unless TRACKCOSIM_MPI_NAP_US (1 to 100000) says.
/// With the kernel's default timer slack of 50 us a rank looks again about 70 us later. Shorter
/// is worse beside other work: a rank that barely sleeps queues behind it as a polling one does
/// (2 ranks beside two busy processes: 300 s at 5 us, 61-68 s at 20 us with a 1 us slack,
/// 44-61 s at 20 us, 60 s at 100 us).
constexpr int kMpiNapMicroseconds = 20;

struct MpiWaitChoice {
  /// The OMPI_MCA_mpi_yield_when_idle value to export before MPI starts: "1" or "0"; empty when
  /// the user's or Open MPI's own setting stands.
  std::string export_value;
  /// TRACKCOSIM_MPI_NAP_US to export (comm/idle_nap.h): the nap in microseconds, 0 for none.
  int nap_microseconds = 0;
  /// "spin", "yield", "nap", or "Open MPI's default" (polling unless mpirun sees oversubscription).
  std::string wait;
  /// Why, in words: "node shared: 2.00 cores busy + 2 ranks on 2 cores", "TRACKCOSIM_MPI_WAIT", ...
  std::string reason;
  /// Whether the run should say so at start: the node's sharing was detected, not configured.
  bool noteworthy = false;
};

/// Throws std::invalid_argument for a TRACKCOSIM_MPI_WAIT other than spin, yield, nap or auto, and
/// for a TRACKCOSIM_MPI_NAP_US that is not a whole number of microseconds from 1 to 100000.
MpiWaitChoice choose_mpi_wait(const MpiWaitInputs& inputs);

/// The line a run prints at start when the choice is noteworthy (else empty).
std::string mpi_wait_note(const MpiWaitChoice& choice);

}  // namespace trackcosim::runtime
