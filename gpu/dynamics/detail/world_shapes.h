#pragma once
// The bodies' collision shapes placed in the world for this step's collision pass: sphere
// centres = body position + R(q) offset, planes and boxes moved with their body.
// Only .cu files include this header.

#include <thrust/device_vector.h>

#include "gpu/collision/shape_scene.h"
#include "gpu/dynamics/detail/device_bodies.h"

namespace trackcosim::gpu::detail {

class WorldShapes {
 public:
  /// Keeps the body-frame shapes; radii, gids and shape indices never change afterwards.
  explicit WorldShapes(const BodySet& bodies);

  /// Updates and returns the world-frame scene for the bodies' current poses.
  const ShapeScene& update(DeviceBodies& bodies);

 private:
  thrust::device_vector<std::uint32_t> sphere_body_;
  DeviceVec3 offset_, world_;
  std::vector<std::uint32_t> plane_body_, box_body_;
  std::vector<PlaneShape> local_planes_;
  std::vector<BoxShape> local_boxes_;
  ShapeScene scene_;
};

}  // namespace trackcosim::gpu::detail
