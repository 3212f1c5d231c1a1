// bench/collision: broad + narrow phase on a dense random sphere packing, N = 10^4 .. 10^6,
// for 1 and 2 OpenMP threads, with the time of every stage, and the plain O(n^2) search where
// it is affordable. Prints figures only; it never fails on time.
//
//   collision [--sizes 10000,30000,...] [--threads 1,2] [--max-n N] [--repeats R]
//             [--reference-max-n N] [--bin-factor-percent P]
//
// The timed pass is detect_loaded() on a scene loaded once before: a terrain on a GPU keeps its
// shapes there, so that is the detection it pays each step. `round_trip` is the best
// load() + detect_loaded() + contacts(), what a caller holding the scene on the host pays, and
// `xfer_B` the bytes the timed pass copied between host and device (gpu/memory/transfer_count.h).
// The CUDA build runs each size once and prints threads as 0. Each case ends with one parseable
// line (seconds: the timed pass):
//   collision N=<n> threads=<t> contacts=<c> seconds=<s> contacts_per_s=<x> transfer_bytes=<b>

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "bench/bench_args.h"
#include "gpu/collision/collision_detector.h"
#include "gpu/memory/transfer_count.h"

using namespace trackcosim;
using namespace trackcosim::gpu;

namespace {

// Simple cubic lattice, spacing 1, radii uniform in [0.45, 0.55] and centres jittered by up to
// +-0.05: about three contacts per sphere, as in a settled bed.
ShapeScene dense_packing(std::size_t n, std::uint64_t seed) {
  const auto side = static_cast<std::size_t>(std::ceil(std::cbrt(static_cast<double>(n))));
  std::mt19937_64 rng(seed);
  const auto uniform = [&rng](double lo, double hi) {
    return lo + (hi - lo) * static_cast<double>(rng() >> 11) * 0x1.0p-53;
  };
  ShapeScene scene;
  scene.spheres.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double x = double(i % side), y = double((i / side) % side), z = double(i / (side * side));
    const Vec3 c{x + uniform(-0.05, 0.05), y + uniform(-0.05, 0.05), z + uniform(-0.05, 0.05)};
    scene.spheres.add(c, uniform(0.45, 0.55), i, 0);
  }
  return scene;
}

std::size_t brute_force_contacts(const SphereShapes& s) {
  std::size_t found = 0;
  const std::size_t n = s.size();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      const double dx = s.x[j] - s.x[i], dy = s.y[j] - s.y[i], dz = s.z[j] - s.z[i];
      found += std::sqrt(dx * dx + dy * dy + dz * dz) - s.radius[i] - s.radius[j] <= 0;
    }
  return found;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::size_t arg(int argc, char** argv, const char* name, std::size_t fallback) {
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], name) == 0) return std::strtoull(argv[i + 1], nullptr, 10);
  return fallback;
}

std::vector<std::size_t> numbers(const char* text, const char* fallback) {
  std::vector<std::size_t> out;
  for (const std::string& s : trackcosim::bench::split(text ? text : fallback))
    out.push_back(std::strtoull(s.c_str(), nullptr, 10));
  return out;
}

}  // namespace

constexpr char kUsage[] =
    "usage: collision [--sizes 10000,30000,...] [--threads 1,2] [--max-n N] [--repeats R]\n"
    "          [--reference-max-n N] [--bin-factor-percent P]\n"
    "Broad and narrow phase on a dense random sphere packing, every stage timed (bench/collision_bench.cpp).\n";

int main(int argc, char** argv) {
  trackcosim::bench::help_exits(argc, argv, kUsage);
  const std::size_t max_n = arg(argc, argv, "--max-n", SIZE_MAX);
  const std::size_t repeats = arg(argc, argv, "--repeats", 3);
  const std::size_t reference_max_n = arg(argc, argv, "--reference-max-n", 100000);
  CollisionSettings settings;
  const std::size_t factor_percent = arg(argc, argv, "--bin-factor-percent", 0);
  if (factor_percent > 0) settings.bin_size_factor = static_cast<double>(factor_percent) / 100;
  const std::vector<std::size_t> sizes =
      numbers(trackcosim::bench::flag(argc, argv, "--sizes"), "10000,30000,100000,300000,1000000");
#ifdef TRACKCOSIM_BENCH_ON_GPU
  const std::vector<std::size_t> thread_counts{0};  // the GPU build: OpenMP threads do not run the kernels
#else
  const std::vector<std::size_t> thread_counts = numbers(trackcosim::bench::flag(argc, argv, "--threads"), "1,2");
#endif

  std::printf("# dense random packing, radii 0.45-0.55 on a unit lattice; bin = %.2f x mean diameter; best of %zu passes\n",
              settings.bin_size_factor, repeats);
  std::printf("%9s %3s %9s %9s %12s %8s %7s", "N", "thr", "contacts", "seconds", "contacts/s", "ns/cont", "per_bin");
  for (auto name : kCollisionStageNames) std::printf(" %*s", int(std::max<std::size_t>(name.size(), 7)), name.data());
  std::printf(" %10s %10s\n", "round_trip", "xfer_B");

  for (const std::size_t n : sizes) {
    if (n > max_n) continue;
    const ShapeScene scene = dense_packing(n, 42);
    for (const std::size_t threads : thread_counts) {
      if (threads > 0) omp_set_num_threads(static_cast<int>(threads));
      CollisionDetector detector(settings);
      CollisionStats best;
      double best_seconds = 1e300, best_round_trip = 1e300;
      std::size_t contacts = 0;
      std::uint64_t transfer = 0;
      detector.load(scene);
      for (std::size_t r = 0; r < repeats + 1; ++r) {  // the first pass warms buffers up
        const TransferBytes before = transfer_bytes();
        const auto t0 = std::chrono::steady_clock::now();
        contacts = detector.detect_loaded();
        const double s = seconds_since(t0);
        if (r > 0 && s < best_seconds) best_seconds = s, best = detector.last_stats();
        if (r > 0) transfer = std::max(transfer, (transfer_bytes() - before).total());
      }
      for (std::size_t r = 0; r < repeats; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        detector.load(scene);
        detector.detect_loaded();
        const ContactList list = detector.contacts();
        best_round_trip = std::min(best_round_trip, seconds_since(t0));
      }
      // per_bin: sphere entries per active bin, what each pair-testing thread loops over.
      std::printf("%9zu %3zu %9zu %9.4f %12.3e %8.1f %7.1f", n, threads, contacts, best_seconds,
                  contacts / best_seconds, 1e9 * best_seconds / double(contacts),
                  double(best.bin_shape_pairs) / double(std::max<std::uint64_t>(best.active_bins, 1)));
      for (std::size_t k = 0; k < kCollisionStageCount; ++k)
        std::printf(" %*.4f", int(std::max<std::size_t>(kCollisionStageNames[k].size(), 7)), best.stage_seconds[k]);
      std::printf(" %10.4f %10llu\n", best_round_trip, static_cast<unsigned long long>(transfer));
      std::printf("collision N=%zu threads=%zu contacts=%zu seconds=%.6f contacts_per_s=%.4e transfer_bytes=%llu\n", n,
                  threads, contacts, best_seconds, contacts / best_seconds, static_cast<unsigned long long>(transfer));
    }
    if (n <= reference_max_n) {
      const auto t0 = std::chrono::steady_clock::now();
      const std::size_t found = brute_force_contacts(scene.spheres);
      const double s = seconds_since(t0);
      std::printf("reference N=%zu threads=1 contacts=%zu seconds=%.6f contacts_per_s=%.4e\n", n, found, s, found / s);
    }
    std::fflush(stdout);
  }
  return 0;
}
