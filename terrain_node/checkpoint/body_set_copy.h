#pragma once
// Copying bodies between BodySets with their shapes and shape indices intact: what a rank does
// when it rebuilds its local set, and what a checkpoint reader does when it rebuilds the file's.

#include <cstdint>
#include <span>
#include <vector>

#include "gpu/dynamics/body_set.h"

namespace trackcosim::terrain {

/// The spheres of each body of a BodySet: body i owns sphere[start[i] .. start[i+1]), in the
/// order they were added (which fixes their shape indices).
struct SphereIndex {
  std::vector<std::uint32_t> start, sphere;
  explicit SphereIndex(const gpu::BodySet& set);
  std::span<const std::uint32_t> of(std::uint32_t body) const {
    return {sphere.data() + start[body], sphere.data() + start[body + 1]};
  }
};

/// Body i of a set as a description (state, mass properties, motion, friction, applied loads).
gpu::BodyDesc body_desc(const gpu::BodySet& set, std::uint32_t i);

/// Appends one body of `from` with its spheres, planes and boxes to `to`, re-adding the shapes
/// in their original shape-index order so that contact keys stay the same.
void copy_body(const gpu::BodySet& from, const SphereIndex& index, std::uint32_t body, gpu::BodySet& to);

}  // namespace trackcosim::terrain
