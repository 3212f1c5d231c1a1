#pragma once
// The count -> scan -> write pattern that turns "each item finds a variable number of
// contacts" into a dense, race-free array without atomics: each item counts, an exclusive scan
// gives each item its first slot, then each item finds its contacts again and writes them there.
// The output order is fixed by item order, so it is the same for any thread count.
//
// A Visitor has `visit(item, on_contact)` calling on_contact(gid_a, shape_a, gid_b, shape_b,
// geometry) for each contact it owns. Only .cu files include this header.

#include <cstdint>

#include <thrust/device_vector.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/scan.h>
#include <thrust/transform.h>

#include "gpu/collision/detail/device_contacts.h"
#include "gpu/collision/detail/stage_clock.h"
#include "gpu/memory/execution.h"

namespace trackcosim::gpu::detail {

template <class Visitor>
struct CountVisits {
  Visitor visitor;
  TRACKCOSIM_HD std::uint64_t operator()(std::size_t item) const {
    std::uint64_t found = 0;
    visitor.visit(item, [&](GlobalId, ShapeIndex, GlobalId, ShapeIndex, const ContactGeometry&) { ++found; });
    return found;
  }
};

template <class Visitor>
struct WriteVisits {
  Visitor visitor;
  const std::uint64_t* offset;
  ContactWriter out;
  TRACKCOSIM_HD void operator()(std::size_t item) const {
    std::uint64_t slot = offset[item];
    visitor.visit(item, [&](GlobalId ga, ShapeIndex sa, GlobalId gb, ShapeIndex sb, const ContactGeometry& g) {
      out.write(slot++, ga, sa, gb, sb, g);
    });
  }
};

struct CountScanWriteStages {
  CollisionStage count, scan, write;
};

/// Appends the contacts visitor finds over items [0, items) to `out`.
template <class Visitor>
void append_visited_contacts(std::size_t items, const Visitor& visitor, thrust::device_vector<std::uint64_t>& offset,
                             DeviceContacts& out, StageClock& clock, CountScanWriteStages stages) {
  const auto ids = thrust::counting_iterator<std::size_t>(0);
  clock.run(stages.count, [&] {
    offset.resize(items + 1);
    thrust::transform(par(), ids, ids + items, offset.begin(), CountVisits<Visitor>{visitor});
    write_element(offset, items, std::uint64_t{0});
  });
  std::uint64_t found = 0;
  clock.run(stages.scan, [&] {
    thrust::exclusive_scan(par(), offset.begin(), offset.end(), offset.begin(), std::uint64_t{0});
    found = read_element(offset, items);
  });
  clock.run(stages.write, [&] {
    const std::size_t first = out.size();
    out.resize(first + found);
    thrust::for_each(par(), ids, ids + items,
                     WriteVisits<Visitor>{visitor, thrust::raw_pointer_cast(offset.data()), out.writer(first)});
  });
}

}  // namespace trackcosim::gpu::detail
