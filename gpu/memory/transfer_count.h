#pragma once
// Bytes copied between host and device memory by gpu/, counted where the copy is made
// (memory/host_copy.h). The CPU build counts the same copies, though there host and "device"
// are the same memory: that is how a test on a machine without a GPU shows that a step moves
// no body array across (docs/ccp.md, "On a GPU").
//
// Plain C++ (no Thrust types), so benchmarks and tests compiled by g++ can read it.

#include <cstdint>

namespace trackcosim::gpu {

struct TransferBytes {
  std::uint64_t to_device = 0;  ///< host -> device
  std::uint64_t to_host = 0;    ///< device -> host
  std::uint64_t copies = 0;     ///< number of copies (each one a synchronisation on a GPU)
  /// Of to_device + to_host, the distributed solver's messages staged through the host (its
  /// slots, velocities and contact counts, every iteration: what a CUDA-aware MPI would send
  /// from device memory).
  std::uint64_t messages = 0;
  std::uint64_t total() const { return to_device + to_host; }
};

inline TransferBytes operator-(const TransferBytes& later, const TransferBytes& earlier) {
  return {later.to_device - earlier.to_device, later.to_host - earlier.to_host, later.copies - earlier.copies,
          later.messages - earlier.messages};
}

/// Totals since the process started, over all threads.
TransferBytes transfer_bytes();

namespace detail {
void count_to_device(std::uint64_t bytes);
void count_to_host(std::uint64_t bytes);

/// While one lives, this thread's copies also count as messages (TransferBytes::messages).
class MessageCopies {
 public:
  MessageCopies();
  ~MessageCopies();
  MessageCopies(const MessageCopies&) = delete;
  MessageCopies& operator=(const MessageCopies&) = delete;
};
}  // namespace detail

}  // namespace trackcosim::gpu
