#pragma once
// What a settled bed looks like (docs/terrain-config.md, "Settle statistics"), measured at the
// end of a standalone run on every rank together; every number except the wall time is the same
// bits on any rank count (integer counts, exact sums, maxima).
//
//   floor        the container's floor, else the lowest sphere bottom;
//   height map   the highest sphere top per cell (terrain_node/output/height_map.h) over the container's
//                x/y extent (else the spheres' extent), cells of output.heightmap_spacing;
//   depth        mean and max over the filled cells of (top - floor);
//   packing      sphere volume inside a sample box / the box's volume, the box being the bed's
//                x/y extent and [floor, mean top] shrunk by output.packing_margin mean diameters
//                on every side (away from walls, floor and surface); each sphere counts with the
//                part of it inside the box (sphere_box_volume.h). NaN when the bed is too small
//                for a box, with the reason in packing_note (printed `n/a` with it);
//   coordination contact ends per dynamic body among the last step's contacts: touching (gap
//                <= output.contact_gap) and loaded (normal impulse > 0);
//   motion       kinetic energy (translation + rotation), its value per dynamic body, and the
//                rms speed sqrt(2 E / M) the settle criterion compares.

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "domain/aabb.h"
#include "terrain_node/config/terrain_config.h"
#include "terrain_node/distributed/distributed_terrain.h"
#include "terrain_node/output/height_map.h"

namespace trackcosim::terrain {

struct SettleStatistics {
  std::uint64_t particles = 0;  ///< dynamic bodies
  double mean_diameter = 0;     ///< of their spheres [m]
  double floor = 0;             ///< z [m]
  double depth_mean = 0, depth_max = 0;  ///< top surface above the floor [m]
  double packing_fraction = 0;           ///< NaN without a sample box
  /// Why there is no sample box (which side of the bed is shorter than 2 x packing_margin mean
  /// diameters, or no particles); empty when packing_fraction is measured.
  std::string packing_note;
  domain::Aabb sample_box{};
  double contact_gap = 0;                ///< [m], as used
  double contacts_per_particle = 0;      ///< touching
  double loaded_contacts_per_particle = 0;
  double kinetic_energy = 0, kinetic_energy_per_particle = 0, rms_speed = 0;
  HeightMap height_map;
};

/// Collective over the terrain's ranks. The last step's contacts must still be the terrain's
/// (call it after the last step, before anything else steps it).
SettleStatistics measure_settled_bed(const DistributedTerrain& terrain, const TerrainConfig& config);

/// sqrt(2 E / M): the speed the bodies would share if the energy were all translation.
double rms_speed(double kinetic_energy, double mass);

/// settle.json's measurement fields (the run adds steps, time, wall time and the stop reason).
nlohmann::ordered_json settle_statistics_json(const SettleStatistics& s);

/// The summary lines (leader).
void print_settle_statistics(const SettleStatistics& s);

}  // namespace trackcosim::terrain
