#include "gpu/collision/detail/scene_validation.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace trackcosim::gpu::detail {
namespace {

bool finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

[[noreturn]] void reject(const std::string& what, std::size_t index, GlobalId gid, const std::string& why) {
  throw std::invalid_argument("collision: " + what + " " + std::to_string(index) + " (body gid " +
                              std::to_string(gid) + "): " + why);
}

}  // namespace

void validate_scene(const ShapeScene& scene) {
  const SphereShapes& s = scene.spheres;
  if (s.x.size() != s.size() || s.y.size() != s.size() || s.z.size() != s.size() ||
      s.body_gid.size() != s.size() || s.shape_index.size() != s.size())
    throw std::invalid_argument("collision: sphere arrays have different lengths");
  if (s.size() >= (std::size_t{1} << 32))
    throw std::invalid_argument("collision: more than 2^32 - 1 spheres on one rank; use more ranks");
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (!finite({s.x[i], s.y[i], s.z[i]})) reject("sphere", i, s.body_gid[i], "center is not finite");
    if (!(s.radius[i] > 0) || !std::isfinite(s.radius[i]))
      reject("sphere", i, s.body_gid[i], "radius must be finite and > 0, got " + std::to_string(s.radius[i]));
  }
  for (std::size_t i = 0; i < scene.planes.size(); ++i) {
    const PlaneShape& p = scene.planes[i];
    if (!finite(p.point) || !finite(p.normal)) reject("plane", i, p.body_gid, "point or normal is not finite");
    if (std::fabs(length(p.normal) - 1) > 1e-9) reject("plane", i, p.body_gid, "normal must have unit length");
  }
  for (std::size_t i = 0; i < scene.boxes.size(); ++i) {
    const BoxShape& b = scene.boxes[i];
    const Quat q = b.orientation;
    if (!finite(b.center) || !finite(b.half_extents) || !finite({q.x, q.y, q.z}) || !std::isfinite(q.w))
      reject("box", i, b.body_gid, "center, half extents or orientation is not finite");
    if (!(b.half_extents.x > 0 && b.half_extents.y > 0 && b.half_extents.z > 0))
      reject("box", i, b.body_gid, "half extents must all be > 0");
    if (std::fabs(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z - 1) > 1e-9)
      reject("box", i, b.body_gid, "orientation must be a unit quaternion");
  }
}

void validate_settings(const CollisionSettings& settings) {
  if (!(settings.envelope >= 0) || !std::isfinite(settings.envelope))
    throw std::invalid_argument("collision: envelope must be finite and >= 0");
  if (!(settings.bin_size >= 0) || !std::isfinite(settings.bin_size))
    throw std::invalid_argument("collision: bin_size must be finite and >= 0 (0 = automatic)");
  if (!(settings.bin_size_factor > 0) || !std::isfinite(settings.bin_size_factor))
    throw std::invalid_argument("collision: bin_size_factor must be finite and > 0");
}

}  // namespace trackcosim::gpu::detail
