#include "comm/broadcast.h"

#include <limits>
#include <stdexcept>

namespace trackcosim::comm {

void broadcast_bytes(const RankGroup& group, std::span<std::byte> bytes) {
  // MPI counts are ints; a message this large would be a mistake long before it is a limit.
  if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw std::length_error("broadcast: more than 2 GiB in one message");
  MPI_Bcast(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, 0, group.handle());
}

void broadcast(const RankGroup& group, std::string& text) {
  std::vector<char> chars(text.begin(), text.end());
  broadcast(group, chars);
  text.assign(chars.begin(), chars.end());
}

}  // namespace trackcosim::comm
