#include "comm/mpi_channel.h"

#include <chrono>
#include <cstring>
#include <thread>

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
  if (inter_ != MPI_COMM_NULL) MPI_Comm_free(&inter_);
}

void MpiChannel::send(const Frame& frame) {
  std::vector<unsigned char> bytes = encode_frame_header(frame.kind, frame.payload.size());
  bytes.insert(bytes.end(), frame.payload.begin(), frame.payload.end());
  MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, 0, kFrameTag, inter_);
}

Frame MpiChannel::receive(double timeout_seconds) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  const auto limit = std::chrono::microseconds(static_cast<long long>(timeout_seconds * 1e6));
  MPI_Status status;
  int arrived = 0;
  // Poll: spin briefly (a step's answer is usually close), then back off to leave the core to
  // the computation sharing it.
  for (int polls = 0;; ++polls) {
    MPI_Iprobe(0, kFrameTag, inter_, &arrived, &status);
    if (arrived) break;
    if (Clock::now() - start > limit)
      throw ChannelError("no message from " + peer_ + " within " + std::to_string(timeout_seconds) + " s");
    if (polls > 1000) std::this_thread::sleep_for(std::chrono::microseconds(100));
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
