#pragma once
// The MPI transport: both programs run in one MPI job (mpirun A : B, srun --multi-prog), each
// has split MPI_COMM_WORLD by its role (role_split.h), and the two role communicators are joined
// by an intercommunicator. Only the two leaders (rank 0 of each role) send and receive; each
// frame (frame.h) travels as one MPI message. Sending and receiving both poll with a deadline
// (a frame above the eager limit waits for the receiver), so a peer that stopped talking or
// listening ends in a ChannelError instead of a hang.

#include <chrono>
#include <vector>

#include <mpi.h>

#include "comm/channel.h"
#include "comm/role_split.h"

namespace trackcosim::comm {

class MpiChannel final : public Channel {
 public:
  /// Collective over every rank of both roles. `layout` is this program's split_by_role result;
  /// both roles must be running.
  explicit MpiChannel(const RoleLayout& layout);
  ~MpiChannel() override;
  MpiChannel(const MpiChannel&) = delete;
  MpiChannel& operator=(const MpiChannel&) = delete;

  void send(const Frame& frame, double timeout_seconds) override;
  Frame receive(double timeout_seconds) override;
  std::string peer() const override { return peer_; }

 private:
  MPI_Comm inter_ = MPI_COMM_NULL;
  std::string peer_;
  /// The frame of a send whose deadline passed: MPI may still read it, so it outlives the call.
  std::vector<unsigned char> abandoned_;
  /// How long the last two frames took to arrive. The next receive naps through three quarters of
  /// the shorter first (PollBackoff): the peer's work between two frames takes about as long each
  /// time, and a terrain step long enough to send keep-alive frames (every timeout / 4) answers
  /// after a shorter remainder, which the shorter of two waits does not oversleep.
  std::chrono::microseconds last_receive_waits_[2]{};
};

}  // namespace trackcosim::comm
