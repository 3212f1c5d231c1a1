// bench/vehicle: wall time per step and real-time factor of the vehicle node alone (standalone
// mode on flat rigid ground, each config's own driver) for every shipped vehicle at h = 1e-3 s.
// Prints one parseable line per vehicle:
//   vehicle model=<name> bodies=<n> ms_per_step=<x> realtime_factor=<y>
// (realtime_factor = simulated time / wall time; > 1 is faster than real time). The first
// `--warmup` steps (the drop onto the ground, the first factorization) are not timed.
// Usage: vehicle [--steps N] [--warmup N] [CONFIG.json ...]   (default: configs/vehicles/*.json)

#include <chrono>
#include <cmath>
#include <stdexcept>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/bench_args.h"
#include "vehicle_node/driver/driver.h"
#include "vehicle_node/ground/ground_settings.h"
#include "vehicle_node/standalone/run_config.h"
#include "vehicle_node/track/tracked_vehicle.h"

namespace {

using namespace trackcosim::vehicle;
using trackcosim::Vec3;

void bench(const std::string& file, int warmup, int steps) {
  const RunConfig config = load_run_config(file);
  const double h = 1e-3;
  const auto ground = make_ground(GroundSettings{});
  MultibodySystem system;
  const TrackedVehicle vehicle(config.vehicle, system, *ground);
  system.set_ground(ground, config.vehicle.contact.ground_friction);
  const auto advance = [&] {
    apply_driver(config.driver, vehicle, system, system.time());
    vehicle.apply_travel_stops(system, h);
    system.step(h);
  };
  for (int k = 0; k < warmup; ++k) advance();
  const auto start = std::chrono::steady_clock::now();
  for (int k = 0; k < steps; ++k) advance();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const Vec3 chassis = system.state(vehicle.chassis()).position;
  if (!std::isfinite(chassis.x + chassis.y + chassis.z))
    throw std::runtime_error(config.vehicle.name + " diverged (chassis position not finite): no timing");
  std::printf("vehicle model=%s bodies=%zu ms_per_step=%.3f realtime_factor=%.3f\n", config.vehicle.name.c_str(),
              system.body_count(), 1e3 * wall / steps, steps * h / wall);
  std::fflush(stdout);
}

}  // namespace

constexpr char kUsage[] =
    "usage: vehicle [--steps N (2000)] [--warmup N (500)] [CONFIG.json ...]   (default: configs/vehicles/*.json)\n"
    "Wall time per step and real-time factor of every shipped vehicle alone on rigid ground (bench/vehicle_bench.cpp).\n";

int main(int argc, char** argv) {
  trackcosim::bench::help_exits(argc, argv, kUsage);
  int steps = 2000, warmup = 500;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--steps" || arg == "--warmup") && i + 1 < argc) {
      (arg == "--steps" ? steps : warmup) = std::atoi(argv[++i]);
    } else {
      files.push_back(arg);
    }
  }
  if (steps < 1 || warmup < 0) {
    std::fprintf(stderr, "vehicle: --steps must be >= 1 and --warmup >= 0\n");
    return 2;
  }
  if (files.empty())
    for (const char* name : {"excavator_thesis", "ndia_light_robot", "m113"})
      files.push_back(std::string(TRACKCOSIM_SOURCE_DIR) + "/configs/vehicles/" + name + ".json");
  int failures = 0;
  for (const std::string& f : files) {
    try {
      bench(f, warmup, steps);
    } catch (const std::exception& e) {  // one vehicle failing does not hide the others' figures
      std::printf("vehicle file=%s error=\"%s\"\n", f.c_str(), e.what());
      ++failures;
    }
  }
  return failures == 0 ? 0 : 1;
}
