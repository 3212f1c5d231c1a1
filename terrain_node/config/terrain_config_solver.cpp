// The `solver`, `output`, `settle`, `domain` and `cosim` sections of a terrain config (docs/terrain-config.md).

#include <cstdint>
#include <limits>
#include <string>

#include "domain/grid_layout.h"
#include "io/number_text.h"
#include "terrain_node/config/terrain_config_read.h"

namespace trackcosim::terrain::terrain_config_detail {
namespace {

/// A fraction in (0, 1], as the Jacobi omega and lambda of the seeds.
real unit_fraction(const io::JsonField& f) {
  const real v = f.positive_number();
  if (v > 1) f.fail("must be in (0, 1], got " + io::number_to_string(v));
  return v;
}

/// A count of solver iterations: an integer in [1, 2^32).
std::uint32_t iteration_count(const io::JsonField& f) {
  const std::uint64_t n = f.unsigned_integer();
  if (n < 1) f.fail("must be >= 1, got 0");
  if (n > std::numeric_limits<std::uint32_t>::max()) f.fail("must be <= 4294967295, got " + std::to_string(n));
  return static_cast<std::uint32_t>(n);
}

}  // namespace

gpu::SolverSettings read_solver_settings(const io::JsonField& f) {
  f.expect_object({"method", "max_iterations", "tolerance", "residual_interval", "omega", "lambda",
                   "max_recovery_speed", "warm_start", "contact_stiffness", "contact_damping", "rolling_friction",
                   "preconditioned"});
  gpu::SolverSettings s;
  if (const auto v = f.optional_member("method"))
    s.method = v->one_of({"jacobi", "apgd"}) == "jacobi" ? gpu::SolverMethod::Jacobi : gpu::SolverMethod::Apgd;
  if (const auto v = f.optional_member("max_iterations")) s.max_iterations = iteration_count(*v);
  if (const auto v = f.optional_member("tolerance")) s.tolerance = v->non_negative_number();
  if (const auto v = f.optional_member("residual_interval")) s.residual_interval = iteration_count(*v);
  if (const auto v = f.optional_member("omega")) s.jacobi_omega = unit_fraction(*v);
  if (const auto v = f.optional_member("lambda")) s.jacobi_lambda = unit_fraction(*v);
  if (const auto v = f.optional_member("max_recovery_speed")) s.max_recovery_speed = v->non_negative_number();
  if (const auto v = f.optional_member("warm_start")) s.warm_start = v->boolean();
  if (const auto v = f.optional_member("preconditioned")) {
    s.preconditioned = v->boolean();
    if (s.preconditioned && s.method != gpu::SolverMethod::Apgd)
      v->fail("is an APGD setting: the Jacobi sweep already scales each row by its own eta");
  }
  if (const auto v = f.optional_member("rolling_friction")) s.rolling_friction = v->non_negative_number();
  if (const auto v = f.optional_member("contact_stiffness")) s.contact_stiffness = v->non_negative_number();
  if (const auto v = f.optional_member("contact_damping")) s.contact_damping = v->non_negative_number();
  if (s.contact_damping > 0 && s.contact_stiffness == 0)
    f.fail("contact_damping needs a contact_stiffness > 0 (a rigid contact has no damper)");
  return s;
}

OutputSettings read_output_settings(const io::JsonField& f) {
  f.expect_object(
      {"probes", "probe_interval", "snapshot_interval", "vtk_format", "stats", "progress_interval",
       "checkpoint_interval", "heightmap_spacing", "packing_margin", "contact_gap"});
  OutputSettings s;
  if (const auto v = f.optional_member("probes"))
    for (const io::JsonField& item : v->elements()) s.probes.push_back(item.unsigned_integer());
  if (const auto v = f.optional_member("probe_interval")) {
    s.probe_interval = v->unsigned_integer();
    if (s.probe_interval < 1) v->fail("must be >= 1 (steps), got 0");
  }
  if (const auto v = f.optional_member("snapshot_interval")) {
    s.snapshot_interval = v->unsigned_integer();
    s.snapshot_interval_set = true;
  }
  if (const auto v = f.optional_member("vtk_format"))
    s.vtk_format = io::vtk::parse_encoding(v->one_of({"binary", "ascii"}), "output.vtk_format");
  if (const auto v = f.optional_member("stats")) s.stats = v->boolean();
  if (const auto v = f.optional_member("progress_interval")) s.progress_interval = v->non_negative_number();
  if (const auto v = f.optional_member("checkpoint_interval")) s.checkpoint_interval = v->unsigned_integer();
  if (const auto v = f.optional_member("heightmap_spacing")) s.heightmap_spacing = v->non_negative_number();
  if (const auto v = f.optional_member("packing_margin")) s.packing_margin = v->non_negative_number();
  if (const auto v = f.optional_member("contact_gap")) s.contact_gap = v->non_negative_number();
  return s;
}

SettleSettings read_settle_settings(const io::JsonField& f) {
  f.expect_object({"rms_speed", "max_time", "min_time", "check_interval"});
  SettleSettings s;
  s.enabled = true;
  s.rms_speed = f.member("rms_speed").positive_number();
  if (const auto v = f.optional_member("max_time")) s.max_time = v->non_negative_number();
  if (const auto v = f.optional_member("min_time")) s.min_time = v->non_negative_number();
  if (const auto v = f.optional_member("check_interval")) {
    s.check_interval = v->unsigned_integer();
    if (s.check_interval < 1) v->fail("must be >= 1 (steps), got 0");
  }
  return s;
}

DomainSettings read_domain_settings(const io::JsonField& f) {
  f.expect_object({"layout", "balance", "balance_by", "rebalance_interval", "max_displacement"});
  DomainSettings s;
  if (const auto v = f.optional_member("layout")) {
    s.layout = v->string();
    try {
      domain::parse_layout(s.layout);
    } catch (const std::invalid_argument& e) {
      v->fail(e.what());
    }
  }
  if (const auto v = f.optional_member("balance")) s.balance = v->boolean();
  if (const auto v = f.optional_member("balance_by")) {
    s.balance_by = v->string();
    if (s.balance_by != "particles" && s.balance_by != "contacts")
      v->fail("expected \"particles\" or \"contacts\", got \"" + s.balance_by + "\"");
  }
  if (const auto v = f.optional_member("rebalance_interval")) s.rebalance_interval = v->unsigned_integer();
  if (const auto v = f.optional_member("max_displacement")) s.max_displacement = v->non_negative_number();
  return s;
}

namespace {

MovingPatchSettings read_moving_patch(const io::JsonField& f) {
  f.expect_object({"ahead", "behind", "width", "track_width", "boundary", "rebalance_shift", "footprint_height"});
  MovingPatchSettings s;
  s.ahead = f.member("ahead").non_negative_number();
  s.behind = f.member("behind").non_negative_number();
  if (s.ahead + s.behind <= 0) f.fail("ahead + behind must be > 0 (the box's length beyond the shoes), got 0");
  if (const auto v = f.optional_member("width")) s.width = v->non_negative_number();
  if (const auto v = f.optional_member("track_width")) {
    s.track_width = v->non_negative_number();
    if (s.track_width > 0 && s.width > 0)
      v->fail("cannot be given with width (one band around all shoes, or one per track): give one of them");
  }
  if (const auto v = f.optional_member("boundary")) s.boundary = v->non_negative_number();
  if (const auto v = f.optional_member("rebalance_shift")) s.rebalance_shift = v->non_negative_number();
  if (const auto v = f.optional_member("footprint_height")) s.footprint_height = v->non_negative_number();
  return s;
}

CompactionSettings read_compaction(const io::JsonField& f) {
  f.expect_object({"packing", "tap_acceleration", "tap_frequency", "relax_time", "max_taps"});
  CompactionSettings s;
  const io::JsonField packing = f.member("packing");
  s.packing = packing.positive_number();
  // 0.7405: spheres of one size packed as densely as they can be (face-centred cubic).
  if (s.packing >= 0.7405) packing.fail("a packing fraction must be below 0.7405, got " + std::to_string(s.packing));
  if (const auto v = f.optional_member("tap_acceleration")) {
    s.tap_acceleration = v->positive_number();
    // At most 1 g the bed never leaves the floor in the container's frame: nothing rearranges.
    if (s.tap_acceleration <= 1) v->fail("must be > 1 (in g: the bed must lift off), got " + std::to_string(s.tap_acceleration));
  }
  if (const auto v = f.optional_member("tap_frequency")) s.tap_frequency = v->positive_number();
  if (const auto v = f.optional_member("relax_time")) s.relax_time = v->positive_number();
  if (const auto v = f.optional_member("max_taps")) {
    s.max_taps = v->unsigned_integer();
    if (s.max_taps == 0) v->fail("must be >= 1, got 0");
  }
  return s;
}

}  // namespace

CosimSettings read_cosim_settings(const io::JsonField& f) {
  f.expect_object({"transport", "host", "port", "timeout", "coupling_step", "settle_time", "settle_step",
                   "compaction", "shoe_stiffness", "shoe_damping", "moving_patch"});
  CosimSettings s;
  if (const auto v = f.optional_member("transport")) s.transport = v->one_of({"mpi", "tcp"});
  if (const auto v = f.optional_member("host")) s.host = v->string();
  if (const auto v = f.optional_member("port")) {
    s.port = v->unsigned_integer();
    if (s.port > 65535) v->fail("must be a TCP port (0 to 65535), got " + std::to_string(s.port));
  }
  if (const auto v = f.optional_member("timeout")) s.timeout = v->positive_number();
  if (const auto v = f.optional_member("coupling_step")) s.coupling_step = v->non_negative_number();
  if (const auto v = f.optional_member("settle_time")) s.settle_time = v->non_negative_number();
  if (const auto v = f.optional_member("settle_step")) s.settle_step = v->positive_number();
  if (const auto v = f.optional_member("compaction")) s.compaction = read_compaction(*v);
  if (const auto v = f.optional_member("shoe_stiffness")) s.shoe_stiffness = v->non_negative_number();
  if (const auto v = f.optional_member("shoe_damping")) s.shoe_damping = v->non_negative_number();
  if (const auto v = f.optional_member("moving_patch")) s.moving_patch = read_moving_patch(*v);
  return s;
}

}  // namespace trackcosim::terrain::terrain_config_detail
