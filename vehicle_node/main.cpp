// vehicle_node: the tracked-vehicle program, in two modes: standalone (--ground rigid), the
// vehicle of a config file on an analytic rigid ground (vehicle_node/standalone/), and coupled
// (--terrain mpi|tcp), the same vehicle on terrain_node's granular terrain through the coupler
// API (vehicle_node/coupled/). This file only parses the command line and turns errors into one
// line and an exit code.

#include <cmath>
#include <cstdio>
#include <exception>
#include <iostream>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "cosim/coupler.h"
#include "cosim/job_control.h"
#include "io/config_error.h"
#include "io/number_option.h"
#include "io/version.h"
#include "vehicle_node/coupled/coupled_run.h"
#include "vehicle_node/standalone/standalone_run.h"

namespace {

// The exit statuses of docs/exit-status.md.
constexpr int kExitRunFailed = 1;  // a diverged run, an output that cannot be written
constexpr int kExitBadInput = 2;   // a command line or config refused: nothing was run
// 3 (cosim::kExitPeerLost): the terrain stopped answering

constexpr const char* kFooter = R"(
Outputs in DIR (written as the run goes and flushed at each output interval, so a killed run
keeps whole rows up to its last output step):
  vehicle.csv  one row per output interval: t, chassis pose (x y z qw qx qy qz) and velocity
               (vx vy vz wx wy wz), sprocket torque/speed per side, idler travel per side,
               vertical force of the track on each road wheel
  shoes.csv    one row per shoe per output interval: t, shoe, side, pose, velocity, ground force
  vehicle.pvd  the vehicle's geometry over time for ParaView, a frame every simulation.vtk_interval
               (default: the output interval; 0: none) in vtk/
  run.json     the resolved config, the derived track layout and a run summary
  rig.csv      with --rig: one row per output interval of what the rig measures (phase, chassis
               speed, sprocket speeds and torques, slip, drawbar pull, weight, ground force)
With --terrain also timing.csv, and, when SIGUSR1 or SIGTERM stopped the co-simulation (a batch
system's time-limit warning) or every --checkpoint-interval, checkpoint.bin: continue with
--restart DIR/checkpoint.bin.

Example:
  vehicle_node --config configs/vehicles/m113.json --ground rigid --ground-profile bumpy \
               --end-time 10 --out output/m113

Config format, outputs and how to view them: docs/vehicle.md.
Exit status (docs/exit-status.md): 0 success, 1 the run failed (diverged, an output that cannot be
written), 2 bad input (command line or config: nothing was run), 3 the terrain stopped answering.)";

}  // namespace

int main(int argc, char** argv) {
  using namespace trackcosim;
  CLI::App app{"trackcosim vehicle node: the tracked-vehicle multibody program.", "vehicle_node"};
  app.footer(kFooter);
  app.get_formatter()->column_width(40);
  app.set_version_flag("--version", "trackcosim vehicle_node " + std::string(io::kTrackcosimVersion));

  vehicle::StandaloneOptions options;
  std::string ground, profile;
  double end_time = 0, step = 0, output_interval = 0;
  bool quiet = false;
  app.add_option("--config", options.config, "Vehicle config (JSON): template, driver, ground, simulation")
      ->type_name("FILE.json")
      ->required();
  app.add_option("--ground", ground, "Ground model; \"rigid\": analytic ground, no terrain node (standalone mode)")
      ->type_name("rigid")
      ->check(CLI::IsMember({"rigid"}));
  CLI::Option* profile_option =
      app.add_option("--ground-profile", profile, "Rigid ground shape (default: rigid_ground.profile, else flat)")
          ->type_name("flat|bumpy")
          ->check(CLI::IsMember({"flat", "bumpy"}));
  CLI::Option* end_option = app.add_option("--end-time", end_time, "Simulated time, s (default: simulation.end_time)")
                                ->type_name("T")
                                ->check(trackcosim::io::finite_number(trackcosim::io::NumberSign::AtLeastZero));
  CLI::Option* step_option = app.add_option("--step", step, "Time step, s (default: simulation.step, 1e-3)")
                                 ->type_name("H")
                                 ->check(trackcosim::io::finite_number(trackcosim::io::NumberSign::AboveZero));
  CLI::Option* interval_option =
      app.add_option("--output-interval", output_interval, "Time between output rows, s (default 0.01)")
          ->type_name("S")
          ->check(trackcosim::io::finite_number(trackcosim::io::NumberSign::AboveZero));
  app.add_option("--out", options.out_dir, "Output folder, created if missing")->type_name("DIR")->capture_default_str();
  app.add_flag("--quiet", quiet, "No progress lines");
  vehicle::CoupledOptions coupled;
  CLI::Option* terrain_option =
      app.add_option("--terrain", coupled.transport,
                     "Co-simulate with terrain_node: \"mpi\" (same MPI job: mpirun -np 1 vehicle_node ... : -np N "
                     "terrain_node ... --cosim) or \"tcp\" (connect to --terrain-host:--terrain-port)")
          ->type_name("mpi|tcp")
          ->check(CLI::IsMember({"mpi", "tcp"}))
          ->excludes("--ground");
  app.add_option("--terrain-host", coupled.host, "tcp: the terrain leader's address")->capture_default_str();
  app.add_option("--terrain-port", coupled.port, "tcp: its port")->capture_default_str()->check(CLI::Range(1, 65535));
  app.add_option("--coupling-step", coupled.coupling_step, "Coupling step, s (default: the vehicle step)")
      ->check(trackcosim::io::finite_number(trackcosim::io::NumberSign::AboveZero));
  app.add_option("--timeout", coupled.timeout,
                 "Longest silence of the terrain on any wait, s (it sends working frames while it settles and "
                 "steps); a terrain that stays silent longer ends the job, exit status 3")
      ->capture_default_str()
      ->check(trackcosim::io::finite_number(trackcosim::io::NumberSign::AboveZero));
  app.add_option("--coupling-scheme", coupled.scheme,
                 "sequential: the vehicle waits for each interval's forces, which allows 4.4x stiffer shoe "
                 "springs; concurrent: both sides compute at once, the forces act one interval late "
                 "(docs/protocol.md)")
      ->capture_default_str()
      ->check(CLI::IsMember({"concurrent", "sequential"}));
  app.add_option("--shoe-loads", coupled.shoe_loads,
                 "explicit: the terrain's forces are held over each interval; implicit: the terrain also sends "
                 "each shoe's contact stiffness and the vehicle integrates the load implicitly, so the shoes get "
                 "springs as stiff as the grains' contacts (sequential scheme only; docs/protocol.md)")
      ->capture_default_str()
      ->check(CLI::IsMember({"explicit", "implicit"}));
  std::string rig;
  app.add_option("--rig", rig,
                 "Drawbar-pull rig (JSON) in place of the config's driver: imposed slip, imposed pull or towed, "
                 "on a slope, with rest, ramp and settle phases; writes DIR/rig.csv (docs/mobility.md)")
      ->type_name("FILE.json");
  app.add_option("--restart", coupled.restart,
                 "With --terrain: continue the co-simulation that a stop signal ended, from its vehicle "
                 "checkpoint (DIR/checkpoint.bin; the terrain resumes from its own, terrain_node --restart)")
      ->type_name("CHECKPOINT")
      ->needs(terrain_option);
  app.add_option("--checkpoint-interval", coupled.checkpoint_interval,
                 "With --terrain: both programs write their checkpoints (DIR/checkpoint.bin and the "
                 "terrain's) every S of simulated time while the run goes on, so that a crashed run "
                 "continues with --restart from the last one (docs/protocol.md, \"Checkpoints\")")
      ->type_name("S")
      ->check(trackcosim::io::finite_number(trackcosim::io::NumberSign::AboveZero))
      ->needs(terrain_option);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    std::cerr << std::string("vehicle_node: error: ") + e.what() + " (see vehicle_node --help)\n";
    return kExitBadInput;
  }
  if (*terrain_option) {
    coupled.config = options.config;
    coupled.out_dir = options.out_dir;
    coupled.rig = rig;
    if (*end_option) coupled.end_time = end_time;
    if (*step_option) coupled.step = step;
    if (quiet) coupled.progress_seconds = 0;
    try {
      const vehicle::CoupledSummary s = vehicle::run_coupled(coupled, std::cerr);
      const double wall = s.wall_seconds > 0 ? s.wall_seconds : 1;
      // Walltime safety: a stopped run is a success that a resubmitted job continues.
      if (!s.stopped_by.empty())
        std::printf("vehicle stopped by=%s step=%zu t=%.9g checkpoint=%s\n", s.stopped_by.c_str(), s.coupling_steps,
                    s.simulated_seconds, s.checkpoint.string().c_str());
      std::printf("vehicle cosim steps=%zu shoes=%zu particles=%llu distance_m=%.4f below_top_m=%.4f step_ms=%.3f "
                  "wait_share=%.4f\n",
                  s.coupling_steps, s.shoes, static_cast<unsigned long long>(s.particles), s.distance_m, s.below_top_m,
                  s.coupling_steps > 0 ? 1e3 * wall / double(s.coupling_steps) : 0.0, s.wait_seconds / wall);
      return 0;
    } catch (const std::invalid_argument& e) {
      std::cerr << std::string("vehicle_node: error: ") + e.what() + " (see vehicle_node --help)\n";
      return cosim::abort_all_or_return(kExitBadInput);
    } catch (const io::ConfigError& e) {
      std::cerr << std::string("vehicle_node: error: ") + e.what() + "\n";
      return cosim::abort_all_or_return(kExitBadInput);
    } catch (const cosim::PeerLost& e) {
      std::fflush(stdout);
      std::cerr << std::string("vehicle_node: error: ") + e.what() + "\n";
      return cosim::abort_all_or_return(cosim::kExitPeerLost);
    } catch (const std::exception& e) {
      std::fflush(stdout);
      std::cerr << std::string("vehicle_node: error: ") + e.what() + "\n";
      return cosim::abort_all_or_return(kExitRunFailed);
    }
  }
  if (ground.empty()) {
    std::cerr << "vehicle_node: error: choose --ground rigid (standalone) or --terrain mpi|tcp (co-simulation with "
                 "terrain_node) (see vehicle_node --help)\n";
    return kExitBadInput;
  }
  options.rig = rig;
  if (*profile_option) options.ground_profile = vehicle::parse_ground_profile(profile);
  if (*end_option) options.end_time = end_time;
  if (*step_option) options.step = step;
  if (*interval_option) options.output_interval = output_interval;
  if (quiet) options.progress_seconds = 0;

  try {
    const vehicle::RunSummary s = vehicle::run_standalone(options, std::cerr);
    std::printf("vehicle_node: %zu steps, %zu bodies, %.3f s simulated in %.2f s wall (%.2f x real time), largest joint "
                "violation %.3g m; outputs in %s\n",
                s.steps, s.bodies, s.simulated_seconds, s.wall_seconds,
                s.wall_seconds > 0 ? s.simulated_seconds / s.wall_seconds : 0.0, s.max_joint_violation,
                options.out_dir.string().c_str());
    return 0;
  } catch (const std::invalid_argument& e) {
    std::cerr << std::string("vehicle_node: error: ") + e.what() + " (see vehicle_node --help)\n";
    return kExitBadInput;
  } catch (const io::ConfigError& e) {
    std::cerr << std::string("vehicle_node: error: ") + e.what() + "\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::cerr << std::string("vehicle_node: error: ") + e.what() + "\n";
    return kExitRunFailed;
  }
}
