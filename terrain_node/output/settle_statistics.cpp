#include "terrain_node/output/settle_statistics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "comm/gather.h"
#include "terrain_node/output/bed_surface.h"
#include "terrain_node/output/sphere_box_volume.h"

namespace trackcosim::terrain {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Why the sample box of a bed is empty: its first side (x, y, then the mean depth) that is not
/// longer than the two margins, in words; empty when every side is.
std::string packing_note(const BedFrame& frame, double depth_mean, std::uint64_t spheres, double mean_diameter,
                         double packing_margin) {
  if (spheres == 0) return "no particles";
  const double margins = 2 * packing_margin * mean_diameter;
  const struct {
    const char* side;
    double length;
  } sides[] = {{"x extent", frame.x_max - frame.x_min},
               {"y extent", frame.y_max - frame.y_min},
               {"mean depth", depth_mean}};
  for (const auto& [side, length] : sides) {
    if (length > margins) continue;
    char text[320];
    std::snprintf(text, sizeof text,
                  "the bed's %s %.4g m is not more than 2 x output.packing_margin (%g) x the mean diameter %.4g m "
                  "= %.4g m, so no sample box fits%s",
                  side, length, packing_margin, mean_diameter, margins,
                  packing_margin > 0 ? "; a smaller packing_margin measures it, nearer the walls, floor and surface"
                                     : "");
    return text;
  }
  return {};
}

}  // namespace

double rms_speed(double kinetic_energy, double mass) { return mass > 0 ? std::sqrt(2 * kinetic_energy / mass) : 0; }

SettleStatistics measure_settled_bed(const DistributedTerrain& terrain, const TerrainConfig& config) {
  const comm::RankGroup& group = terrain.group();
  const OutputSettings& out = config.scene.output;
  const std::vector<WorldSphere> spheres = terrain.owned_spheres();
  SettleStatistics s;

  const BedSurface bed = measure_bed_surface(spheres, config, group);
  const BedFrame& frame = bed.frame;
  const std::uint64_t sphere_count = bed.spheres;
  s.mean_diameter = bed.mean_diameter;
  s.floor = frame.floor;
  s.height_map = bed.height_map;
  // Depths from the reduced map, in cell order: the same on every rank.
  double depth_sum = 0;
  std::size_t filled = 0;
  s.depth_max = 0;
  for (const double top : s.height_map.top) {
    if (std::isnan(top)) continue;
    depth_sum += top - s.floor;
    s.depth_max = std::max(s.depth_max, top - s.floor);
    ++filled;
  }
  s.depth_mean = filled > 0 ? depth_sum / double(filled) : 0;

  const double margin = out.packing_margin * s.mean_diameter;
  s.sample_box = {{frame.x_min + margin, frame.y_min + margin, s.floor + margin},
                  {frame.x_max - margin, frame.y_max - margin, s.floor + s.depth_mean - margin}};
  s.packing_fraction = kNaN;
  s.packing_note = packing_note(frame, s.depth_mean, sphere_count, s.mean_diameter, out.packing_margin);
  if (s.packing_note.empty() && !s.sample_box.empty() && s.sample_box.lo.x < s.sample_box.hi.x &&
      s.sample_box.lo.y < s.sample_box.hi.y && s.sample_box.lo.z < s.sample_box.hi.z) {
    comm::ExactSum volume;
    for (const WorldSphere& w : spheres) volume.add(sphere_box_volume(w.centre, w.radius, s.sample_box));
    const Vec3 e = s.sample_box.hi - s.sample_box.lo;
    s.packing_fraction = volume.total(group) / (double(e.x) * e.y * e.z);
  }

  const DynamicTotals totals = terrain.dynamic_totals();
  s.particles = totals.bodies;
  s.contact_gap = out.contact_gap > 0 ? out.contact_gap : 0.01 * s.mean_diameter;
  const ContactEnds ends = terrain.contact_ends(s.contact_gap);
  const double n = totals.bodies > 0 ? double(totals.bodies) : 1;
  s.contacts_per_particle = double(ends.touching) / n;
  s.loaded_contacts_per_particle = double(ends.loaded) / n;
  s.kinetic_energy = terrain.global_stats().kinetic_energy;
  s.kinetic_energy_per_particle = s.kinetic_energy / n;
  s.rms_speed = rms_speed(s.kinetic_energy, totals.mass);
  return s;
}

nlohmann::ordered_json settle_statistics_json(const SettleStatistics& s) {
  using Json = nlohmann::ordered_json;
  auto number = [](double v) { return std::isnan(v) ? Json(nullptr) : Json(v); };
  auto vec = [](Vec3 v) { return Json::array({v.x, v.y, v.z}); };
  const HeightMapGrid& g = s.height_map.grid;
  const auto [z_min, z_max] = s.height_map.range();
  return {{"particles", s.particles},
          {"mean_diameter", s.mean_diameter},
          {"floor_z", s.floor},
          {"depth_mean", s.depth_mean},
          {"depth_max", s.depth_max},
          {"packing_fraction", number(s.packing_fraction)},
          {"packing_note", s.packing_note.empty() ? Json(nullptr) : Json(s.packing_note)},
          {"packing_sample_box", {{"min", vec(s.sample_box.lo)}, {"max", vec(s.sample_box.hi)}}},
          {"contact_gap", s.contact_gap},
          {"contacts_per_particle", s.contacts_per_particle},
          {"loaded_contacts_per_particle", s.loaded_contacts_per_particle},
          {"kinetic_energy", s.kinetic_energy},
          {"kinetic_energy_per_particle", s.kinetic_energy_per_particle},
          {"rms_speed", s.rms_speed},
          {"heightmap",
           {{"min", Json::array({g.x_min, g.y_min})},
            {"max", Json::array({g.x_max(), g.y_max()})},
            {"spacing", g.spacing},
            {"columns", g.columns},
            {"rows", g.rows},
            {"filled_cells", s.height_map.filled()},
            {"elevation", Json::array({number(z_min), number(z_max)})}}}};
}

void print_settle_statistics(const SettleStatistics& s) {
  std::printf("bed        %llu particles, mean diameter %.4g m, depth %.4g m mean, %.4g m max above z = %g\n",
              static_cast<unsigned long long>(s.particles), s.mean_diameter, s.depth_mean, s.depth_max, s.floor);
  if (std::isnan(s.packing_fraction))
    std::printf("packing    n/a (%s)\n", s.packing_note.c_str());
  else
    std::printf("packing    %.4f (sample box %.3g x %.3g x %.3g m)\n", s.packing_fraction,
                double(s.sample_box.hi.x - s.sample_box.lo.x), double(s.sample_box.hi.y - s.sample_box.lo.y),
                double(s.sample_box.hi.z - s.sample_box.lo.z));
  std::printf("contacts   %.3f per particle touching, %.3f loaded\n", s.contacts_per_particle,
              s.loaded_contacts_per_particle);
  std::printf("motion     kinetic energy %.4g J (%.4g J per particle), rms speed %.4g m/s\n", s.kinetic_energy,
              s.kinetic_energy_per_particle, s.rms_speed);
}

}  // namespace trackcosim::terrain
