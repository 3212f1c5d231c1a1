// An external vehicle model in C++: the row of 8 shoes of prescribed_track.c (3-sphere pads,
// pressed 10 mm into the terrain, dragged forward at 0.2 m/s), through the C++ API of
// cosim/coupler.h over TCP. The forces are only reported.
//
//   prescribed_track_cpp HOST PORT [STEPS]
//
// Ends with `example cpp steps=<n> shoes=<s> mean_fz=<N> mean_fx=<N>` (means over the second
// half of the run). Exit status 0, or 1 with the coupler's message.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

#include "cosim/coupler.h"

namespace cosim = trackcosim::cosim;

int main(int argc, char** argv) try {
  if (argc < 3) {
    std::fprintf(stderr, "usage: prescribed_track_cpp HOST PORT [STEPS]\n");
    return 2;
  }
  const int shoes = 8, steps = argc > 3 ? std::atoi(argv[3]) : 150;
  const double h = 2e-3, speed = 0.2, pitch = 0.08, radius = 0.02;
  cosim::VehicleCoupler coupler = cosim::VehicleCoupler::connect_tcp(argv[1], std::atoi(argv[2]), 20.0);

  cosim::VehicleHello hello;
  hello.coupling_step = h;
  hello.end_time = steps * h;
  cosim::ShoeState above{};  // the first pose: placed once the surface height is known
  above.orientation[0] = 1.0;
  for (int i = 0; i < shoes; ++i) {
    cosim::ShoeGeometry pad;
    pad.mass = 1.0;
    for (int k = 0; k < 3; ++k) pad.spheres.push_back({{0.0, 0.04 * (k - 1), 0.0}, radius});  // across the shoe
    hello.shoes.push_back(pad);
    hello.initial.push_back(above);
  }
  const cosim::TerrainWelcome welcome = coupler.handshake(hello);
  const double z = welcome.surface_height + radius - 0.01;  // sphere bottoms 10 mm below the surface
  const double y = 0.5 * (welcome.patch_min.y + welcome.patch_max.y);
  std::printf("terrain: %llu particles, surface at %.4f m\n", static_cast<unsigned long long>(welcome.particles),
              welcome.surface_height);

  std::vector<cosim::ShoeState> states(shoes, above);
  double sum_fz = 0, sum_fx = 0;
  int counted = 0;
  for (int k = 0; k < steps; ++k) {
    const double t = k * h;
    for (int i = 0; i < shoes; ++i) {
      states[i].position[0] = 0.2 + pitch * i + speed * t, states[i].position[1] = y, states[i].position[2] = z;
      states[i].velocity[0] = speed;
    }
    coupler.send_states(t, states);
    double fz = 0, fx = 0;
    for (const cosim::ShoeForce& f : coupler.receive_forces()) fz += f.force[2], fx += f.force[0];
    if (k >= steps / 2) sum_fz += fz, sum_fx += fx, ++counted;
    if (k % 25 == 0) std::printf("t %.3f s  total force on the shoes: fx %.2f N, fz %.2f N\n", t, fx, fz);
  }
  coupler.finish();
  std::printf("example cpp steps=%d shoes=%d mean_fz=%.3f mean_fx=%.3f\n", steps, shoes, sum_fz / counted,
              sum_fx / counted);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "prescribed_track_cpp: error: %s\n", e.what());
  return 1;
}
