#include "terrain_node/config/terrain_config.h"

#include <cmath>
#include <cstdio>
#include <string>

#include "io/number_text.h"
#include "terrain_node/config/collision_settings_json.h"
#include "terrain_node/config/terrain_config_read.h"

namespace trackcosim::terrain {
namespace {

using namespace terrain_config_detail;

Container read_container(const io::JsonField& f, const Material& material) {
  f.expect_object({"min", "max", "open_top", "floor_friction", "wall_friction"});
  Container c;
  c.min = f.member("min").vec3();
  const io::JsonField max_field = f.member("max");
  c.max = max_field.vec3();
  for (int a = 0; a < 3; ++a)
    if (!(axis(c.max, a) > axis(c.min, a)))
      max_field.fail(std::string("must be > min along ") + "xyz"[a] + ", got " + io::number_to_string(axis(c.max, a)) +
                     " <= " + io::number_to_string(axis(c.min, a)));
  if (const auto v = f.optional_member("open_top")) c.open_top = v->boolean();
  c.floor_friction = material.friction;
  c.wall_friction = material.friction;
  if (const auto v = f.optional_member("floor_friction")) c.floor_friction = v->non_negative_number();
  if (const auto v = f.optional_member("wall_friction")) c.wall_friction = v->non_negative_number();
  return c;
}

Vec3 read_gravity(const io::JsonField& f) {
  const Vec3 g = f.vec3();
  const double magnitude = std::hypot(double(g.x), double(g.y), double(g.z));  // no overflow at 1e300
  if (!(magnitude <= kMaxGravity))
    f.fail("must be at most " + io::number_to_string(kMaxGravity) + " m/s^2 long (a hundred times the Earth's), got " +
           io::number_to_string(magnitude) + " m/s^2");
  return g;
}

void check_step_count(const io::JsonField& end_time, double end, double step_size) {
  // A count past this cannot finish (10^12 steps at 1 us each is 11 days of one core) and past
  // 2^64 it would wrap to a run of 0 steps that exits as a success.
  constexpr double kMostSteps = 1e12;
  const double steps = end / step_size;
  if (steps > kMostSteps) {
    char count[32];
    std::snprintf(count, sizeof count, "%.3g", steps);
    end_time.fail("end_time " + io::number_to_string(end) + " s at step_size " + io::number_to_string(step_size) +
                  " s asks for " + count + " steps; at most 1e+12 can run (a longer step_size or a shorter end_time)");
  }
}

}  // namespace

namespace terrain_config_detail {

real number_in_range(const io::JsonField& field, real lo, real hi, std::string_view unit) {
  const real v = field.positive_number();
  if (v < lo || v > hi)
    field.fail("must be in [" + io::number_to_string(lo) + ", " + io::number_to_string(hi) + "] " + std::string(unit) +
               ", got " + io::number_to_string(v));
  return v;
}

Material read_material(const io::JsonField& f, const Material& defaults) {
  f.expect_object({"friction", "density"});
  Material m = defaults;
  if (const auto v = f.optional_member("friction")) m.friction = v->non_negative_number();
  if (const auto v = f.optional_member("density")) m.density = number_in_range(*v, kMinDensity, kMaxDensity, "kg/m^3");
  return m;
}

}  // namespace terrain_config_detail

/// Gids are dense from 0, so a probe exists when it is below the body count.
void check_probes(const TerrainScene& scene, std::uint64_t gids, const std::string& source_name,
                  const std::string& bed) {
  const std::vector<gpu::GlobalId>& probes = scene.output.probes;
  for (std::size_t i = 0; i < probes.size(); ++i)
    if (probes[i] >= gids)
      throw io::ConfigError(source_name + ": output.probes[" + std::to_string(i) + "]: no body has gid " +
                            std::to_string(probes[i]) + " (" + bed +
                            (gids == 0 ? std::string(" has no bodies)")
                                       : " has gids 0 to " + std::to_string(gids - 1) + ")"));
}

TerrainScene read_terrain_scene(const nlohmann::json& document, const std::string& source_name, ProbeCheck probes) {
  const io::JsonField root(document, source_name);
  root.expect_object({"container", "material", "particles", "obstacles", "bodies", "gravity", "step_size", "end_time",
                      "solver", "collision", "output", "settle", "domain", "cosim"});
  TerrainScene scene;
  if (const auto f = root.optional_member("material")) scene.material = read_material(*f, Material{});
  if (const auto f = root.optional_member("container")) scene.container = read_container(*f, scene.material);
  if (const auto f = root.optional_member("obstacles")) scene.obstacles = read_obstacles(*f, scene.material);
  if (const auto f = root.optional_member("particles")) {
    scene.particles = read_particles(
        *f, {scene.material, scene.container, &scene.obstacles, std::filesystem::path(source_name).parent_path()});
    check_bed_mass(*f, scene);
  }
  if (const auto f = root.optional_member("bodies"))
    scene.bodies = read_bodies(
        *f, {scene.material, scene.container, &scene.obstacles, std::filesystem::path(source_name).parent_path()});
  if (const auto f = root.optional_member("gravity")) scene.step.gravity = read_gravity(*f);
  if (const auto f = root.optional_member("step_size")) {
    scene.step.step_size = f->positive_number();
    if (scene.step.step_size > kMaxStepSize)
      f->fail("must be at most " + io::number_to_string(kMaxStepSize) + " s, got " +
              io::number_to_string(scene.step.step_size));
  }
  scene.end_time = root.member("end_time").non_negative_number();
  check_step_count(root.member("end_time"), scene.end_time, scene.step.step_size);
  if (const auto f = root.optional_member("solver")) scene.step.solver = read_solver_settings(*f);
  if (const auto f = root.optional_member("collision")) scene.step.collision = read_collision_settings(*f);
  if (const auto f = root.optional_member("output")) scene.output = read_output_settings(*f);
  if (probes == ProbeCheck::AgainstScene) check_probes(scene, body_count(scene), source_name, "this scene");
  if (const auto f = root.optional_member("settle")) scene.settle = read_settle_settings(*f);
  if (const auto f = root.optional_member("domain")) scene.domain = read_domain_settings(*f);
  if (const auto f = root.optional_member("cosim")) scene.cosim = read_cosim_settings(*f);
  return scene;
}

std::uint64_t TerrainConfig::step_count() const {
  const real end = scene.settle.enabled && scene.settle.max_time > 0 ? scene.settle.max_time : scene.end_time;
  const double steps = static_cast<double>(end) / static_cast<double>(scene.step.step_size);
  return steps > 0 ? static_cast<std::uint64_t>(std::ceil(steps - 1e-9)) : 0;
}

namespace {

/// Fixed bodies only: a region no particle centre lies in. A generator's error (a random fill
/// that cannot meet its count) gets the file's name, as the reader's errors have.
gpu::BodySet build(const TerrainScene& scene, BuildBodies which, const std::string& source) {
  try {
    if (which == BuildBodies::All) return build_terrain_bodies(scene);
    return build_terrain_bodies(scene, domain::Aabb{{0, 0, 0}, {0, 0, 0}});
  } catch (const io::ConfigError& e) {
    throw io::ConfigError(source + ": " + e.what());
  }
}

}  // namespace

TerrainConfig parse_terrain_config(std::string_view text, const std::string& source_name, BuildBodies which) {
  TerrainConfig config;
  config.source = source_name;
  config.scene = read_terrain_scene(io::parse_json_document(text, source_name), source_name);
  config.gid_ranges = plan_gid_ranges(config.scene);
  for (std::size_t i = 0; i < config.scene.bodies.size(); ++i) config.body_gids.push_back(body_gid(config.scene, i));
  config.bodies = build(config.scene, which, config.source);
  return config;
}

TerrainConfig load_terrain_config(const std::filesystem::path& file, BuildBodies which, ProbeCheck probes) {
  TerrainConfig config;
  config.source = file.string();
  config.scene = read_terrain_scene(io::load_json_document(file), config.source, probes);
  config.gid_ranges = plan_gid_ranges(config.scene);
  for (std::size_t i = 0; i < config.scene.bodies.size(); ++i) config.body_gids.push_back(body_gid(config.scene, i));
  config.bodies = build(config.scene, which, config.source);
  return config;
}

}  // namespace trackcosim::terrain
