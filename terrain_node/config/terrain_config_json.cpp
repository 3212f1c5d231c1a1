// A terrain description written back as a config document with every key present, in the order
// of docs/terrain-config.md: run.json's "config", which loads again to the same bodies.

#include <filesystem>
#include <type_traits>

#include "terrain_node/config/collision_settings_json.h"
#include "terrain_node/config/terrain_config.h"

namespace trackcosim::terrain {
namespace {

using Json = nlohmann::ordered_json;

Json vec(Vec3 v) { return Json::array({v.x, v.y, v.z}); }
Json quat(Quat q) { return Json::array({q.w, q.x, q.y, q.z}); }
Json xy(real x, real y) { return Json::array({x, y}); }

Json material_json(const Material& m) { return {{"friction", m.friction}, {"density", m.density}}; }

Json container_json(const Container& c) {
  return {{"min", vec(c.min)},
          {"max", vec(c.max)},
          {"open_top", c.open_top},
          {"floor_friction", c.floor_friction},
          {"wall_friction", c.wall_friction}};
}

void write_generator(Json& out, const LatticeSource& g) {
  out["min"] = vec(g.min);
  out["max"] = vec(g.max);
  out["spacing"] = g.spacing;
  out["radius"] = size_distribution_json(g.radius);
  out["jitter"] = g.jitter;
  out["seed"] = g.seed;
}

void write_generator(Json& out, const LayersSource& g) {
  out["min"] = Json::array({g.x_min, g.y_min});
  out["max"] = Json::array({g.x_max, g.y_max});
  out["bottom"] = g.bottom;
  out["layers"] = g.layers;
  out["radius"] = size_distribution_json(g.radius);
  out["gap"] = g.gap;
  out["seed"] = g.seed;
}

void write_generator(Json& out, const SphereListSource& g) {
  Json list = Json::array();
  for (const ExplicitSphere& s : g.spheres)
    list.push_back({{"position", vec(s.position)},
                    {"radius", s.radius},
                    {"velocity", vec(s.velocity)},
                    {"angular_velocity", vec(s.angular_velocity)}});
  out["spheres"] = std::move(list);
}

void write_generator(Json& out, const CompoundListSource& g) {
  Json list = Json::array();
  for (const CompoundBody& b : g.bodies) {
    Json spheres = Json::array();
    for (const CompoundBody::Member& m : b.spheres) spheres.push_back({{"offset", vec(m.offset)}, {"radius", m.radius}});
    list.push_back({{"position", vec(b.position)},
                    {"orientation", quat(b.orientation)},
                    {"velocity", vec(b.velocity)},
                    {"angular_velocity", vec(b.angular_velocity)},
                    {"mass", b.mass},
                    {"inertia", vec(b.inertia)},
                    {"spheres", std::move(spheres)}});
  }
  out["bodies"] = std::move(list);
}

/// The file as an absolute path: run.json lives in another folder than the config it resolves.
void write_surface_file(Json& out, const SurfaceFile& f) {
  out["file"] = std::filesystem::absolute(f.file).lexically_normal().string();
  if (f.area_given) {
    out["min"] = xy(f.area.x_min, f.area.y_min);
    out["max"] = xy(f.area.x_max, f.area.y_max);
  }
  if (f.format == "heightmap") out["elevation"] = xy(f.elevation_min, f.elevation_max);
}

void write_generator(Json& out, const SurfaceSource& g) {
  write_surface_file(out, g.input);
  out["bottom"] = g.fill.bottom;
  Json strata = Json::array();
  for (const Stratum& s : g.fill.strata) {
    Json item = Json::object();
    if (s.thickness > 0) item["thickness"] = s.thickness;
    item["radius"] = size_distribution_json(s.radius);
    strata.push_back(std::move(item));
  }
  out["strata"] = std::move(strata);
  out["gap"] = g.fill.gap;
  out["seed"] = g.fill.seed;
}

/// The count, also when a packing fraction was asked for: it is what the fill makes.
void write_generator(Json& out, const RandomFillSource& g) {
  out["min"] = vec(g.fill.min);
  out["max"] = vec(g.fill.max);
  out["radius"] = size_distribution_json(g.fill.radius);
  out["gap"] = g.fill.gap;
  out["count"] = g.fill.count;
  out["seed"] = g.fill.seed;
  if (g.surface) {
    Json surface = Json::object();
    write_surface_file(surface, *g.surface);
    out["surface"] = std::move(surface);
  }
}

Json obstacle_json(const Obstacle& o) {
  Json out = {{"kind", o.kind_name()}};
  if (o.kind == Obstacle::Kind::Box) {
    out["center"] = vec(o.center);
    out["size"] = vec(o.size);
    out["orientation"] = quat(o.orientation);
  } else if (o.kind == Obstacle::Kind::Ramp) {
    out["min"] = vec(o.min);
    out["max"] = vec(o.max);
    out["rise"] = o.rises_along_x ? "+x" : "-x";
  } else {
    out["center"] = vec(o.center);
    out["length"] = o.length;
    out["width"] = o.width;
    out["height"] = o.height;
    out["segments"] = o.segments;
  }
  out["friction"] = o.friction;
  return out;
}

/// The shape as the config gave it (files as absolute paths), so that it loads again to the same
/// spheres: a mesh is decomposed again, which is deterministic.
Json shape_json(const BodyShape& shape) {
  const std::string file =
      shape.source == BodyShape::Source::Inline ? "" : std::filesystem::absolute(shape.file).lexically_normal().string();
  if (shape.source == BodyShape::Source::Mesh) {
    const geometry::DecompositionOptions& o = shape.decomposition;
    return {{"mesh", file},           {"density", shape.density},         {"f", o.f},
            {"refined_f", o.refined_f}, {"refine_levels", o.refine_levels}, {"sharp_angle", o.sharp_angle_deg},
            {"max_protrusion", o.max_protrusion}, {"merge", o.merge_tolerance}};
  }
  if (shape.source == BodyShape::Source::SpheresFile) return {{"spheres_file", file}};
  Json spheres = Json::array();
  for (const CompoundBody::Member& m : shape.spheres) spheres.push_back({m.offset.x, m.offset.y, m.offset.z, m.radius});
  return {{"spheres", std::move(spheres)}, {"mass", shape.mass}, {"inertia", vec(shape.inertia)}};
}

Json body_json(const SceneBody& b) {
  Json out = Json::object();
  if (!b.name.empty()) out["name"] = b.name;
  out["shape"] = shape_json(b.shape);
  if (b.mass_override > 0) out["mass"] = b.mass_override;
  out["position"] = vec(b.position);
  out["orientation"] = quat(b.orientation);
  out["motion"] = motion_name(b.motion);
  out["friction"] = b.friction;
  if (b.motion != gpu::Motion::Fixed) {
    out["velocity"] = vec(b.velocity);
    out["angular_velocity"] = vec(b.angular_velocity);
    Json loads = Json::array();
    for (const BodyLoad& l : b.loads)
      loads.push_back({{"from", l.from}, {"force", vec(l.force)}, {"torque", vec(l.torque)}});
    out["loads"] = std::move(loads);
  }
  return out;
}

void write_generator(Json& out, const RocksSource& g) {
  out["shape"] = shape_json(g.shape);
  if (g.mass_override > 0) out["mass"] = g.mass_override;
  out["min"] = vec(g.min);
  out["max"] = vec(g.max);
  out["gap"] = g.gap;
  out["seed"] = g.seed;
}

Json particle_json(const ParticleSource& source) {
  Json out = {{"kind", source_kind(source)}};
  std::visit([&](const auto& g) { write_generator(out, g); }, source.generator);
  out["material"] = material_json(source.material);
  return out;
}

Json solver_json(const gpu::SolverSettings& s) {
  return {{"method", s.method == gpu::SolverMethod::Jacobi ? "jacobi" : "apgd"},
          {"max_iterations", s.max_iterations},
          {"tolerance", s.tolerance},
          {"residual_interval", s.residual_interval},
          {"omega", s.jacobi_omega},
          {"lambda", s.jacobi_lambda},
          {"max_recovery_speed", s.max_recovery_speed},
          {"warm_start", s.warm_start}};
}

Json output_json(const OutputSettings& s) {
  Json out{{"probes", s.probes},
          {"probe_interval", s.probe_interval},
          {"vtk_format", std::string(io::vtk::encoding_name(s.vtk_format))},
          {"stats", s.stats},
          {"progress_interval", s.progress_interval},
          {"checkpoint_interval", s.checkpoint_interval},
          {"heightmap_spacing", s.heightmap_spacing},
          {"packing_margin", s.packing_margin},
          {"contact_gap", s.contact_gap}};
  // Left out when not given: a co-simulation then takes its default (cosim_snapshots.h).
  if (s.snapshot_interval_set) out["snapshot_interval"] = s.snapshot_interval;
  return out;
}

Json settle_json(const SettleSettings& s) {
  return {{"rms_speed", s.rms_speed},
          {"max_time", s.max_time},
          {"min_time", s.min_time},
          {"check_interval", s.check_interval}};
}

Json domain_json(const DomainSettings& s) {
  return {{"layout", s.layout},
          {"balance", s.balance},
          {"balance_by", s.balance_by},
          {"rebalance_interval", s.rebalance_interval},
          {"max_displacement", s.max_displacement}};
}

}  // namespace

nlohmann::ordered_json resolved_config_json(const TerrainScene& scene) {
  Json out = Json::object();
  if (scene.container) out["container"] = container_json(*scene.container);
  out["material"] = material_json(scene.material);
  Json particles = Json::array();
  for (const ParticleSource& source : scene.particles) particles.push_back(particle_json(source));
  out["particles"] = std::move(particles);
  Json obstacles = Json::array();
  for (const Obstacle& o : scene.obstacles) obstacles.push_back(obstacle_json(o));
  out["obstacles"] = std::move(obstacles);
  // Only when given: a checkpoint written before `bodies` existed records none, and a --restart
  // compares this key with its record (start_state.cpp).
  if (!scene.bodies.empty()) {
    Json bodies = Json::array();
    for (const SceneBody& b : scene.bodies) bodies.push_back(body_json(b));
    out["bodies"] = std::move(bodies);
  }
  out["gravity"] = vec(scene.step.gravity);
  out["step_size"] = scene.step.step_size;
  out["end_time"] = scene.end_time;
  out["solver"] = solver_json(scene.step.solver);
  out["collision"] = collision_settings_json(scene.step.collision);
  out["output"] = output_json(scene.output);
  // Only when given: without it the run goes to end_time, and "settle" must stay absent to say so.
  if (scene.settle.enabled) out["settle"] = settle_json(scene.settle);
  out["domain"] = domain_json(scene.domain);
  out["cosim"] = {{"transport", scene.cosim.transport}, {"host", scene.cosim.host},
                  {"port", scene.cosim.port},           {"timeout", scene.cosim.timeout},
                  {"coupling_step", scene.cosim.coupling_step}, {"settle_time", scene.cosim.settle_time},
                  {"shoe_stiffness", scene.cosim.shoe_stiffness}, {"shoe_damping", scene.cosim.shoe_damping}};
  if (scene.cosim.settle_step > 0) out["cosim"]["settle_step"] = scene.cosim.settle_step;
  if (const auto& k = scene.cosim.compaction)
    out["cosim"]["compaction"] = {{"packing", k->packing},
                                  {"tap_acceleration", k->tap_acceleration},
                                  {"tap_frequency", k->tap_frequency},
                                  {"relax_time", k->relax_time},
                                  {"max_taps", k->max_taps}};
  if (const auto& p = scene.cosim.moving_patch)
    out["cosim"]["moving_patch"] = {{"ahead", p->ahead},       {"behind", p->behind},
                                    {"width", p->width},       {"track_width", p->track_width},
                                    {"boundary", p->boundary},
                                    {"rebalance_shift", p->rebalance_shift},
                                    {"footprint_height", p->footprint_height}};
  return out;
}

}  // namespace trackcosim::terrain
