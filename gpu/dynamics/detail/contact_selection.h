#pragma once
// This step's contacts as the solver sees them: the collision pass's list, less the contacts it
// cannot act on and, in a distributed step, less those another rank needs alone. The list is
// narrowed in device memory, in order (stream compaction), so the canonical order survives and
// nothing crosses to the host. Only .cu files include this header.

#include <cstdint>
#include <vector>

#include <thrust/device_vector.h>

#include "gpu/collision/detail/device_contacts.h"

namespace trackcosim::gpu::detail {

class ContactSelection {
 public:
  /// Starts from the collision pass's list (not copied: the selection points at it).
  void take(const DeviceContacts& all) { current_ = &all; }

  /// Drops contacts between two immovable bodies unless one of them is compliant (a shoe
  /// proxy on the container floor: the spring alone gives its force). Both gid lists sorted.
  void drop_immovable_pairs(const thrust::device_vector<GlobalId>& immovable,
                            const thrust::device_vector<GlobalId>& compliant);

  /// Drops the listed contacts (indices into the current list, increasing), keeping the order.
  /// Throws std::invalid_argument for an index out of range or out of order.
  void drop(const std::vector<std::uint32_t>& indices);

  const DeviceContacts& contacts() const { return *current_; }
  std::size_t size() const { return current_ == nullptr ? 0 : current_->size(); }

 private:
  /// Compacts *current_ by flags_ into the buffer it is not, which becomes current.
  void compact();

  const DeviceContacts* current_ = nullptr;
  thrust::device_vector<std::uint8_t> flags_;
  DeviceContacts kept_[2];
};

}  // namespace trackcosim::gpu::detail
