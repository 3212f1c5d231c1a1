// Process-wide counters behind transfer_count.h. Relaxed atomics: the totals are read between
// steps, never used to order anything.

#include "gpu/memory/transfer_count.h"

#include <atomic>

namespace trackcosim::gpu {
namespace {
std::atomic<std::uint64_t> to_device{0}, to_host{0}, copies{0}, messages{0};
thread_local int message_scopes = 0;

void count_message(std::uint64_t bytes) {
  if (message_scopes > 0) messages.fetch_add(bytes, std::memory_order_relaxed);
}
}  // namespace

TransferBytes transfer_bytes() {
  return {to_device.load(std::memory_order_relaxed), to_host.load(std::memory_order_relaxed),
          copies.load(std::memory_order_relaxed), messages.load(std::memory_order_relaxed)};
}

namespace detail {
void count_to_device(std::uint64_t bytes) {
  to_device.fetch_add(bytes, std::memory_order_relaxed);
  copies.fetch_add(1, std::memory_order_relaxed);
  count_message(bytes);
}
void count_to_host(std::uint64_t bytes) {
  to_host.fetch_add(bytes, std::memory_order_relaxed);
  copies.fetch_add(1, std::memory_order_relaxed);
  count_message(bytes);
}
MessageCopies::MessageCopies() { ++message_scopes; }
MessageCopies::~MessageCopies() { --message_scopes; }
}  // namespace detail

}  // namespace trackcosim::gpu
