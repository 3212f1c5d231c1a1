#include "vehicle_node/ground/bumpy_ground.h"

#include <cmath>
#include <numbers>

namespace trackcosim::vehicle {
namespace {

/// splitmix64: a fixed formula (unlike std::uniform_real_distribution, whose output the
/// standard leaves to the library), so seeds reproduce across compilers.
class SeededUniform {
 public:
  explicit SeededUniform(std::uint64_t seed) : state_(seed) {}
  double next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return static_cast<double>(z >> 11) * 0x1.0p-53;  // [0, 1)
  }

 private:
  std::uint64_t state_;
};

}  // namespace

BumpyGround::BumpyGround(double base_height, std::vector<Sinusoid> components)
    : base_(base_height), components_(std::move(components)) {
  for (const Sinusoid& s : components_) {
    const double k = 2.0 * std::numbers::pi / s.wavelength;
    waves_.push_back({s.amplitude, k * std::cos(s.direction), k * std::sin(s.direction), s.phase});
  }
}

BumpyGround BumpyGround::random(double base_height, double rms_height, double wavelength, std::uint64_t seed,
                                int count) {
  SeededUniform u(seed);
  std::vector<Sinusoid> c;
  const double amplitude = rms_height * std::sqrt(2.0 / count);
  for (int i = 0; i < count; ++i) {
    Sinusoid s;
    s.amplitude = amplitude;
    s.wavelength = wavelength * (1.0 + u.next());
    s.direction = 2.0 * std::numbers::pi * u.next();
    s.phase = 2.0 * std::numbers::pi * u.next();
    c.push_back(s);
  }
  return BumpyGround(base_height, std::move(c));
}

double BumpyGround::height(double x, double y) const {
  double z = base_;
  for (const Wave& w : waves_) z += w.amplitude * std::sin(w.kx * x + w.ky * y + w.phase);
  return z;
}

Vec3 BumpyGround::normal(double x, double y) const {
  // n = (-dz/dx, -dz/dy, 1) / |.|
  double gx = 0.0, gy = 0.0;
  for (const Wave& w : waves_) {
    const double c = w.amplitude * std::cos(w.kx * x + w.ky * y + w.phase);
    gx += c * w.kx;
    gy += c * w.ky;
  }
  const double inv = 1.0 / std::sqrt(gx * gx + gy * gy + 1.0);
  return {-gx * inv, -gy * inv, inv};
}

double BumpyGround::max_deviation() const {
  double sum = 0.0;
  for (const Sinusoid& s : components_) sum += std::abs(s.amplitude);
  return sum;
}

}  // namespace trackcosim::vehicle
