#pragma once
// A leader-to-leader message channel between the vehicle and the terrain (docs/protocol.md).
// Two transports: MPI (both programs in one MPI job, mpi_channel.h) and TCP (an external
// vehicle model started on its own, tcp_channel.h). Both move the same frames (frame.h).

#include "comm/frame.h"

namespace trackcosim::comm {

class Channel {
 public:
  virtual ~Channel() = default;
  /// Waits at most timeout_seconds for the peer to take the frame (a stopped peer stops reading).
  /// Throws ChannelError when the peer is gone or the deadline passed.
  virtual void send(const Frame& frame, double timeout_seconds) = 0;
  /// Waits at most timeout_seconds for a whole frame. Throws ChannelError on timeout, on a peer
  /// that closed, on a truncated or malformed frame, with the reason.
  virtual Frame receive(double timeout_seconds) = 0;
  /// Human-readable peer description for messages ("tcp 127.0.0.1:40123", "mpi world rank 0").
  virtual std::string peer() const = 0;
};

}  // namespace trackcosim::comm
