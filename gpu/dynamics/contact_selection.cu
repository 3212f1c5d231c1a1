// Narrowing this step's contact list in device memory (detail/contact_selection.h).

#include "gpu/dynamics/detail/contact_selection.h"

#include <stdexcept>
#include <string>

#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

#include "gpu/dynamics/detail/index_ops.h"
#include "gpu/dynamics/detail/soa_view.h"
#include "gpu/dynamics/detail/sorted_ids.h"
#include "gpu/memory/execution.h"
#include "gpu/memory/host_copy.h"

namespace trackcosim::gpu::detail {
namespace {

struct IsSet {
  TRACKCOSIM_HD bool operator()(std::uint8_t flag) const { return flag != 0; }
};

template <class T>
void keep_field(const thrust::device_vector<T>& from, const thrust::device_vector<std::uint8_t>& flags,
                thrust::device_vector<T>& to) {
  thrust::copy_if(par(), from.begin(), from.end(), flags.begin(), to.begin(), IsSet{});
}

}  // namespace

void ContactSelection::drop_immovable_pairs(const thrust::device_vector<GlobalId>& immovable,
                                            const thrust::device_vector<GlobalId>& compliant) {
  const std::size_t n = size();
  if (immovable.size() < 2 || n == 0) return;  // one wall body cannot touch itself
  flags_.resize(n);
  const GlobalId *a = raw(current_->gid_a), *b = raw(current_->gid_b);
  const GlobalId *fixed = raw(immovable), *springs = raw(compliant);
  const std::size_t n_fixed = immovable.size(), n_springs = compliant.size();
  std::uint8_t* flag = raw(flags_);
  thrust::for_each(par(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(n),
                   [=] TRACKCOSIM_HD(std::size_t i) {
                     const bool both_immovable = holds_gid(fixed, n_fixed, a[i]) && holds_gid(fixed, n_fixed, b[i]);
                     const bool spring = holds_gid(springs, n_springs, a[i]) || holds_gid(springs, n_springs, b[i]);
                     flag[i] = !both_immovable || spring;
                   });
  compact();
}

void ContactSelection::drop(const std::vector<std::uint32_t>& indices) {
  if (indices.empty()) return;
  for (std::size_t k = 0; k < indices.size(); ++k)
    if (indices[k] >= size() || (k > 0 && indices[k] <= indices[k - 1]))
      throw std::invalid_argument("drop_contacts: index " + std::to_string(indices[k]) + " (entry " +
                                  std::to_string(k) + ") is out of order or not below the " +
                                  std::to_string(size()) + " contacts");
  thrust::device_vector<std::uint32_t> dropped;
  upload(dropped, indices);
  flags_.assign(size(), 1);
  mark(flags_, dropped, 0);
  compact();
}

void ContactSelection::compact() {
  const std::size_t kept = thrust::count_if(par(), flags_.begin(), flags_.end(), IsSet{});
  if (kept == current_->size()) return;
  DeviceContacts& to = current_ == &kept_[0] ? kept_[1] : kept_[0];
  to.resize(kept);
  keep_field(current_->gid_a, flags_, to.gid_a);
  keep_field(current_->gid_b, flags_, to.gid_b);
  keep_field(current_->shape_a, flags_, to.shape_a);
  keep_field(current_->shape_b, flags_, to.shape_b);
  const auto from_fields = current_->real_fields();
  const auto to_fields = to.real_fields();
  for (std::size_t f = 0; f < from_fields.size(); ++f) keep_field(*from_fields[f], flags_, *to_fields[f]);
  current_ = &to;
}

}  // namespace trackcosim::gpu::detail
