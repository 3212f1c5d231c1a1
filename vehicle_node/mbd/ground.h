#pragma once
// The rigid ground the vehicle can stand on when no terrain node is attached. The engine asks
// only two questions per contact sphere: the surface height under a point and the outward
// unit normal there; the track engineer's bumpy height field implements the same interface.

#include "math/vec3.h"

namespace trackcosim::vehicle {

/// Height field z = height(x, y) in the world frame (metres). normal() is the outward unit
/// normal of the surface at (x, y). Both are called many times per step: keep them cheap and
/// thread-safe (const, no caches that mutate).
class Ground {
 public:
  virtual ~Ground() = default;
  virtual double height(double x, double y) const = 0;
  virtual Vec3 normal(double x, double y) const = 0;
};

/// The plane z = h.
class FlatGround final : public Ground {
 public:
  explicit FlatGround(double h = 0.0) : h_(h) {}
  double height(double, double) const override { return h_; }
  Vec3 normal(double, double) const override { return {0.0, 0.0, 1.0}; }

 private:
  double h_;
};

}  // namespace trackcosim::vehicle
