// bench/loaded_bed: a rigid plate the size of an M113 shoe (0.154 m x 0.38 m, 18.02 kg) pressed
// into a settled gravel bed with 5, 10 and 20 kN (issue 15), for each solver setting asked. It
// prints, per case, a trace of the sinkage, the fastest grain, the residual and the floor force,
// then one parseable line:
//   loaded_bed N=<n> load_N=<f> method=<m> iterations=<k> sinkage_m=<s> max_grain_speed=<v>
//              step_seconds=<t> residual=<r>
// `method` names the solver and what differs from the rigid CCP at 1 ms: apgd, apgd_pre (APGD
// preconditioned by the constraints' diagonal, SolverSettings::preconditioned), jacobi,
// apgd_tol0.0001 (stops at that residual, --iterations is the cap and the line gives the mean
// count), apgd_mur0.1 (rolling resistance mu_r), apgd_k1e+07 (compliant grain contacts of that
// stiffness, N/m), apgd_h0.00025 (terrain step).
// sinkage_m and residual are means over the last `--window` seconds of the hold,
// max_grain_speed the largest over the run. It never fails on its figures.
//
//   loaded_bed [--grains 10000] [--loads 5000,10000,20000] [--methods apgd,jacobi]
//              [--iterations 50,100,200] [--steps 1e-3] [--rolling-friction 0] [--stiffness 0]
//              [--damping-ratio 0.3] [--tolerance 0]
//              [--ramp 0.05] [--hold 0.25] [--window 0.1] [--threads 2] [--radius 0.0125] [--box side_m]
//              [--spheres-per-grain 1|2|3|4] [--inertia-scale 1]
//              [--print-every 25] [--residual-curve]

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "bench/bench_args.h"
#include "bench/loaded_bed/loaded_bed_case.h"

using namespace trackcosim;
using namespace trackcosim::bench;

namespace {

std::vector<double> numbers(const char* text) {
  std::vector<double> out;
  for (const std::string& s : split(text)) {
    char* end = nullptr;
    out.push_back(std::strtod(s.c_str(), &end));
    if (end == s.c_str() || *end != '\0') {
      std::fprintf(stderr, "loaded_bed: '%s' is not a number\n", s.c_str());
      std::exit(2);
    }
  }
  return out;
}

gpu::SolverMethod method_of(const std::string& s) {
  if (s == "jacobi") return gpu::SolverMethod::Jacobi;
  if (s == "apgd" || s == "apgd_pre") return gpu::SolverMethod::Apgd;
  std::fprintf(stderr, "loaded_bed: --methods: unknown method '%s' (expected jacobi, apgd or apgd_pre)\n", s.c_str());
  std::exit(2);
}

/// The label of a setting: the method, then what differs from the rigid CCP at 1 ms.
std::string label(const std::string& method, double rolling, double stiffness, double step, double tolerance) {
  char buf[96];
  std::string out = method;
  if (tolerance > 0) std::snprintf(buf, sizeof buf, "_tol%g", tolerance), out += buf;
  if (rolling > 0) std::snprintf(buf, sizeof buf, "_mur%g", rolling), out += buf;
  if (stiffness > 0) std::snprintf(buf, sizeof buf, "_k%g", stiffness), out += buf;
  if (step != 1e-3) std::snprintf(buf, sizeof buf, "_h%g", step), out += buf;
  return out;
}

}  // namespace

constexpr char kUsage[] =
    "usage: loaded_bed [--grains 10000] [--loads 5000,10000,20000] [--methods apgd,apgd_pre,jacobi]\n"
    "           [--iterations 50,100,200] [--steps 1e-3] [--rolling-friction 0] [--stiffness 0]\n"
    "           [--damping-ratio 0.3] [--tolerance 0] [--ramp 0.05] [--hold 0.25] [--window 0.1]\n"
    "           [--threads 2] [--radius 0.0125] [--box side_m] [--spheres-per-grain 1|2|3|4]\n"
    "           [--inertia-scale 1] [--print-every 25] [--residual-curve]\n"
    "A shoe-sized plate pressed into a settled gravel bed, per solver setting (bench/loaded_bed/loaded_bed_bench.cpp).\n";

int main(int argc, char** argv) {
  trackcosim::bench::help_exits(argc, argv, kUsage);
  LoadedBedSpec spec;
  spec.grains = static_cast<std::size_t>(numbers(flag(argc, argv, "--grains", "10000")).at(0));
  spec.radius = numbers(flag(argc, argv, "--radius", "0.0125")).at(0);
  spec.inertia_scale = numbers(flag(argc, argv, "--inertia-scale", "1")).at(0);
  spec.spheres_per_grain = static_cast<unsigned>(numbers(flag(argc, argv, "--spheres-per-grain", "1")).at(0));
  // The container grows with the bed so that it stays about 0.25 m deep at a packing fraction of
  // 0.6 (10^4 grains of 12.5 mm: 0.8 m square; 10^5: 2.1 m), and never narrower than 0.8 m.
  const double grain_volume = 4.0 / 3.0 * 3.14159265358979323846 * std::pow(spec.radius, 3);
  spec.box_x = spec.box_y = std::max(0.8, std::sqrt(double(spec.grains) * grain_volume / (0.6 * 0.25)));
  if (const char* box = flag(argc, argv, "--box", nullptr)) spec.box_x = spec.box_y = numbers(box).at(0);
  const std::vector<double> loads = numbers(flag(argc, argv, "--loads", "5000,10000,20000"));
  const std::vector<std::string> methods = split(flag(argc, argv, "--methods", "apgd,jacobi"));
  const std::vector<double> iteration_counts = numbers(flag(argc, argv, "--iterations", "50,100,200"));
  const std::vector<double> steps = numbers(flag(argc, argv, "--steps", "1e-3"));
  const std::vector<double> stiffnesses = numbers(flag(argc, argv, "--stiffness", "0"));
  const std::vector<double> rollings = numbers(flag(argc, argv, "--rolling-friction", "0"));
  // Residual-based stopping: --iterations is then the cap, and the line reports the mean count.
  const double tolerance = numbers(flag(argc, argv, "--tolerance", "0")).at(0);
  const double damping_ratio = numbers(flag(argc, argv, "--damping-ratio", "0.3")).at(0);
  const double ramp = numbers(flag(argc, argv, "--ramp", "0.05")).at(0);
  const double hold = numbers(flag(argc, argv, "--hold", "0.25")).at(0);
  const double window = numbers(flag(argc, argv, "--window", "0.1")).at(0);
  const auto print_every = static_cast<std::size_t>(numbers(flag(argc, argv, "--print-every", "25")).at(0));
  omp_set_num_threads(static_cast<int>(numbers(flag(argc, argv, "--threads", "2")).at(0)));
  const bool residual_curve = has(argc, argv, "--residual-curve");

  // Settle once; every case starts from the same bed.
  gpu::StepSettings settle_settings;
  settle_settings.step_size = 1e-3;
  settle_settings.collision.envelope = 0.05 * spec.radius;
  settle_settings.solver.method = gpu::SolverMethod::Apgd;
  settle_settings.solver.max_iterations = 50;
  settle_settings.solver.max_recovery_speed = 0.5;
  SettleReport settled_report;
  const gpu::BodySet loose = loose_bed(spec);
  const gpu::BodySet settled = settle(loose, settle_settings, 0.01, 1.5, &settled_report);
  const gpu::BodySet loaded = with_plate(settled, spec);
  double grain_mass = 0;  // the mean, from the bodies themselves (clumps differ from spheres)
  for (std::size_t i = 2; i < loose.size(); ++i) grain_mass += loose.mass[i] / double(loose.size() - 2);
  std::printf("# loaded bed: %zu grains of %u sphere(s), r = %.4f m +-%.0f%% (%.1f g each), box %.2f x %.2f m, settled in %.2f s "
              "simulated (%zu steps, %.1f s wall), rms speed %.4f m/s, surface under the plate %.3f m\n",
              spec.grains, spec.spheres_per_grain, spec.radius, 100 * spec.radius_spread, 1e3 * grain_mass, spec.box_x, spec.box_y,
              settled_report.simulated_seconds, settled_report.steps, settled_report.wall_seconds,
              settled_report.rms_speed, double(surface_under_plate(settled, spec)));
  std::printf("# plate %.3f x %.3f m, %.2f kg (plate-to-grain mass ratio %.0f); load ramped over %.3f s, held %.3f s; "
              "figures: means over the last %.3f s, max speed over the run\n",
              spec.plate_length, spec.plate_width, spec.plate_mass, spec.plate_mass / grain_mass, ramp, hold, window);
  std::fflush(stdout);

  for (const double load : loads)
    for (const std::string& method : methods)
      for (const double rolling : rollings)
      for (const double stiffness : stiffnesses)
        for (const double step : steps)
          for (const double iterations : iteration_counts) {
            LoadCase c;
            c.load_newton = load;
            c.ramp_time = ramp;
            c.hold_time = hold;
            c.record_last_residuals = residual_curve;
            c.settings.step_size = step;
            c.settings.collision.envelope = 0.05 * spec.radius;
            c.settings.solver.method = method_of(method);
            c.settings.solver.preconditioned = method == "apgd_pre";
            c.settings.solver.max_iterations = static_cast<std::uint32_t>(iterations);
            c.settings.solver.tolerance = tolerance;
            c.settings.solver.max_recovery_speed = 0.5;
            c.settings.solver.contact_stiffness = stiffness;
            c.settings.solver.rolling_friction = rolling;
            // Damping ratio zeta of two grains in contact (reduced mass m/2): c = 2 zeta sqrt(k m / 2).
            c.settings.solver.contact_damping = stiffness > 0 ? 2 * damping_ratio * std::sqrt(stiffness * grain_mass / 2) : 0;
            const std::string name = label(method, rolling, stiffness, step, tolerance);
            std::printf("# case load=%.0f N method=%s iterations=%.0f\n#   t_s sinkage_m plate_vz max_grain_speed "
                        "residual floor_force_N contacts step_s  fastest_grain_xyz (plate centre %.3f %.3f)\n",
                        load, name.c_str(), iterations, spec.box_x / 2, spec.box_y / 2);
            std::size_t k = 0;
            const LoadResult r = run_load_case(loaded, spec, c, window, [&](const LoadSample& s) {
              if (++k % print_every != 0) return;
              std::printf("  %7.4f %9.5f %8.4f %8.4f %10.3e %10.1f %8llu %7.4f  %.3f %.3f %.3f\n", s.time, s.sinkage,
                          s.plate_velocity_z, s.max_grain_speed, s.residual, s.floor_force,
                          static_cast<unsigned long long>(s.contacts), s.step_seconds, s.fastest_grain_position.x,
                          s.fastest_grain_position.y, s.fastest_grain_position.z);
              std::fflush(stdout);
            });
            if (residual_curve) {
              std::printf("# residual against iteration, last step\n");
              for (std::size_t i = 0; i < r.last_residual_curve.size(); ++i)
                std::printf("#   %zu %.4e\n", i + 1, double(r.last_residual_curve[i]));
            }
            std::printf("# floor force %.1f N (expected %.1f N, %+.2f%%), sinkage drift over the window %.2e m%s\n",
                        r.mean_floor_force, r.expected_floor_force,
                        100 * (r.mean_floor_force / r.expected_floor_force - 1), r.sinkage_drift,
                        r.plate_lost ? ", PLATE REACHED THE FLOOR" : "");
            std::printf("loaded_bed N=%zu load_N=%.0f method=%s iterations=%.0f sinkage_m=%.5f max_grain_speed=%.4f "
                        "step_seconds=%.5f residual=%.3e\n",
                        spec.grains, load, name.c_str(), r.mean_iterations, r.mean_sinkage, r.max_grain_speed,
                        r.mean_step_seconds, r.mean_residual);
            std::fflush(stdout);
          }
  return 0;
}
