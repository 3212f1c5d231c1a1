#pragma once
// What a coupled vehicle program needs from its job besides the coupler: the batch system's stop
// signal (walltime safety, docs/protocol.md "Checkpoints") and a way to end the whole MPI job on
// an error. cosim/ wraps comm/ here so that the vehicle program depends on the coupling contract
// alone (DESIGN.md); this header includes neither comm/ nor mpi.h.

#include <memory>

namespace trackcosim::comm {
class StopSignal;
}

namespace trackcosim::cosim {

/// Catches SIGUSR1, SIGTERM and SIGINT for its lifetime (the previous handlers come back after),
/// so a run can stop at a coupling step boundary with a checkpoint instead of being killed mid-step.
class StopSignal {
 public:
  StopSignal();
  ~StopSignal();
  /// The signal this process caught (SIGUSR1, SIGTERM or SIGINT), or 0.
  int caught() const;

 private:
  std::unique_ptr<comm::StopSignal> signal_;  ///< one owner: the handlers are restored once
};

/// "USR1", "TERM", "INT", or "a signal".
const char* signal_name(int signal);

/// The exit status of a program that gave up on its peer: a send or receive passed its timeout
/// (the peer's name and what was awaited are in the message), or a watchdog found no progress.
inline constexpr int kExitPeerLost = 3;

/// Ends every rank of the MPI job with `code` when MPI runs with more than one rank (the terrain
/// would otherwise wait for the vehicle until its timeout); else returns `code`.
int abort_all_or_return(int code);

}  // namespace trackcosim::cosim
