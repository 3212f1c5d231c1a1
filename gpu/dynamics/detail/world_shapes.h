#pragma once
// The bodies' collision shapes placed in the world for this step's collision pass: sphere
// centres = body position + R(q) offset, planes and boxes moved with their body. Everything
// stays in device memory: the collision pass reads the scene where the kernels wrote it.
// Only .cu files include this header.

#include <thrust/device_vector.h>

#include "gpu/collision/detail/device_scene.h"
#include "gpu/collision/shape_scene.h"
#include "gpu/dynamics/detail/device_bodies.h"

namespace trackcosim::gpu::detail {

class WorldShapes {
 public:
  /// Uploads the body-frame shapes; radii, gids and shape indices never change afterwards.
  explicit WorldShapes(const BodySet& bodies);

  /// Places every shape for the bodies' current poses and returns the scene (device memory).
  const DeviceScene& update(DeviceBodies& bodies);
  /// Marks a body of regroup's new_body_of that left.
  static constexpr std::uint32_t kGone = 0xffffffffu;
  /// The shapes after DeviceBodies::regroup, rebuilt on the device: new_body_of maps each body
  /// of (old ++ added) (added body k at old_bodies + k) to its new index, or kGone. Shapes are
  /// grouped by new body, each body's in the order it had them (what a BodySet built in the new
  /// body order holds).
  void regroup(const WorldShapes& added, const thrust::device_vector<std::uint32_t>& new_body_of,
               std::uint32_t old_bodies);

 private:
  thrust::device_vector<std::uint32_t> sphere_body_, plane_body_, box_body_;
  DeviceVec3 offset_;
  thrust::device_vector<PlaneShape> local_planes_;
  thrust::device_vector<BoxShape> local_boxes_;
  DeviceScene scene_;
};

}  // namespace trackcosim::gpu::detail
