#include "comm/mpi_channel.h"

#include <algorithm>
#include <cstring>

#include "comm/deadline.h"

namespace trackcosim::comm {
namespace {
constexpr int kIntercommTag = 7301;
constexpr int kFrameTag = 7302;
}  // namespace

MpiChannel::MpiChannel(const RoleLayout& layout) {
  if (layout.vehicle_leader < 0 || layout.terrain_leader < 0)
    throw ChannelError("the MPI job runs only one program: the vehicle and the terrain must be launched together "
                       "(mpirun -np 1 vehicle_node ... : -np N terrain_node ...)");
  // This role's leader is rank 0 of its communicator; the remote leader is the other role's.
  int world_rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  int leader_world = world_rank;
  MPI_Bcast(&leader_world, 1, MPI_INT, 0, layout.role_comm);
  const int remote = leader_world == layout.vehicle_leader ? layout.terrain_leader : layout.vehicle_leader;
  MPI_Intercomm_create(layout.role_comm, 0, MPI_COMM_WORLD, remote, kIntercommTag, &inter_);
  peer_ = "mpi world rank " + std::to_string(remote);
}

MpiChannel::~MpiChannel() {
  if (abandoned_.empty()) {
    if (inter_ != MPI_COMM_NULL) MPI_Comm_free(&inter_);
    return;
  }
  // A send was abandoned: this job is ending (MPI_Abort follows). Freeing the intercommunicator
  // would wait for that send, and MPI may still read its frame, so the frame is left allocated.
  new std::vector<unsigned char>(std::move(abandoned_));  // NOLINT: deliberately never freed
}

void MpiChannel::send(const Frame& frame, double timeout_seconds) {
  if (!abandoned_.empty()) throw ChannelError("an earlier frame to " + peer_ + " was never taken");
  std::vector<unsigned char> bytes = encode_frame_header(frame.kind, frame.payload.size());
  bytes.insert(bytes.end(), frame.payload.begin(), frame.payload.end());
  // Nonblocking, then polled: a frame above the eager limit is only sent once the peer receives,
  // and a peer that was stopped never does.
  Deadline deadline = Deadline::after(timeout_seconds);
  MPI_Request request;
  MPI_Isend(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, 0, kFrameTag, inter_, &request);
  PollBackoff backoff;
  for (int done = 0;;) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return;
    if (deadline.passed()) {
      abandoned_ = std::move(bytes);
      MPI_Request_free(&request);
      give_up(deadline, "while waiting for " + peer_ + " to take a message",
              peer_ + " took no message for " + deadline.allowance() + " (a " + std::to_string(abandoned_.size()) +
                  "-byte frame waits to be received)");
    }
    backoff.wait();
  }
}

Frame MpiChannel::receive(double timeout_seconds) {
  Deadline deadline = Deadline::after(timeout_seconds);
  MPI_Status status;
  int arrived = 0;
  for (PollBackoff backoff(std::min(last_receive_waits_[0], last_receive_waits_[1]) * 3 / 4);; backoff.wait()) {
    MPI_Iprobe(0, kFrameTag, inter_, &arrived, &status);
    if (arrived) {
      last_receive_waits_[1] = last_receive_waits_[0];
      last_receive_waits_[0] = backoff.waited();
      break;
    }
    if (deadline.passed())
      give_up(deadline, "while waiting for a message from " + peer_, "no message from " + peer_ + " for " + deadline.allowance());
  }
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  std::vector<unsigned char> bytes(static_cast<std::size_t>(count));
  MPI_Recv(bytes.data(), count, MPI_BYTE, 0, kFrameTag, inter_, MPI_STATUS_IGNORE);
  if (bytes.size() < kFrameHeaderBytes)
    throw ChannelError("truncated message from " + peer_ + ": " + std::to_string(bytes.size()) + " bytes");
  Frame f;
  std::uint64_t length = 0;
  std::tie(f.kind, length) = decode_frame_header(bytes.data());
  if (length != bytes.size() - kFrameHeaderBytes)
    throw ChannelError("message from " + peer_ + " announces " + std::to_string(length) + " payload bytes but carries " +
                       std::to_string(bytes.size() - kFrameHeaderBytes));
  f.payload.assign(bytes.begin() + kFrameHeaderBytes, bytes.end());
  return f;
}

}  // namespace trackcosim::comm
