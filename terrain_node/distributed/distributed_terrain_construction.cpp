// DistributedTerrain's constructor: each rank builds only its own particles.
//
// The final split (the same as if one rank had built everything: the grid chosen from the
// particles' exact bounds, cuts at their count quantiles) needs the particles' positions, so the
// set-up runs in three collective steps:
//   1. a first split of space: uniform cuts over the bounds the sources can fill (the scene's
//      description, no particle needed); each rank generates the particles whose centre lies in
//      its first box (terrain::build_terrain_bodies with a region), gids global as always;
//   2. the exact bounds (an allreduce) choose the grid, and the cuts come from the count
//      histogram summed over ranks (global_cuts), exactly as a single rank would compute them;
//   3. every particle goes to its final owner (one all-to-all), as rebalance() moves them.
// A restart takes the same path from the block of the checkpoint each rank read (its first
// split), then hands out the warm start (distributed_terrain_checkpoint.cpp).

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "domain/balanced_cuts.h"
#include "domain/ghost_width.h"
#include "domain/grid_layout.h"
#include "terrain_node/distributed/distributed_terrain.h"
#include "terrain_node/distributed/distributed_terrain_state.h"

namespace trackcosim::terrain {
namespace {

/// Largest distance from a dynamic body's centre to the far side of one of its spheres, over all ranks.
real largest_body_radius(const comm::RankGroup& group, const gpu::BodySet& s) {
  double r = 0;
  for (std::size_t k = 0; k < s.sphere_radius.size(); ++k) {
    if (!dynamic(s, s.sphere_body[k])) continue;
    const Vec3 o{s.sphere_ox[k], s.sphere_oy[k], s.sphere_oz[k]};
    r = std::max(r, double(std::sqrt(dot(o, o)) + s.sphere_radius[k]));
  }
  return real(group.max(r));
}

void check_distributable(const gpu::BodySet& s) {
  for (const std::uint32_t b : s.plane_body)
    if (dynamic(s, b)) throw std::invalid_argument("body gid " + std::to_string(s.gid[b]) +
                                                   ": a dynamic body with a plane cannot be distributed");
  for (const std::uint32_t b : s.box_body)
    if (dynamic(s, b)) throw std::invalid_argument("body gid " + std::to_string(s.gid[b]) +
                                                   ": a dynamic body with a box cannot be distributed (use spheres)");
}

/// Bounds of the dynamic bodies' centres over all ranks; a point box at 0 when there are none.
domain::Aabb global_dynamic_bounds(const comm::RankGroup& group, const gpu::BodySet& s) {
  const double inf = std::numeric_limits<double>::infinity();
  double m[6] = {inf, inf, inf, inf, inf, inf};  // min x y z, -max x y z
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (!dynamic(s, i)) continue;
    const Vec3 p = position(s, i);
    for (int a = 0; a < 3; ++a) {
      m[a] = std::min(m[a], double(axis_value(p, a)));
      m[a + 3] = std::min(m[a + 3], -double(axis_value(p, a)));
    }
  }
  group.min_in_place(m);
  if (m[0] == inf) return {{0, 0, 0}, {0, 0, 0}};
  return {{real(m[0]), real(m[1]), real(m[2])}, {real(-m[3]), real(-m[4]), real(-m[5])}};
}

/// Uniform cuts over `bounds`, each axis at least 1 mm long so the cuts increase strictly.
domain::Decomposition first_split(const domain::LayoutRequest& request, int ranks, domain::Aabb bounds) {
  const domain::GridShape grid = domain::choose_grid(request, ranks, bounds);
  bounds.hi = {std::max(bounds.hi.x, bounds.lo.x + real(1e-3)), std::max(bounds.hi.y, bounds.lo.y + real(1e-3)),
               std::max(bounds.hi.z, bounds.lo.z + real(1e-3))};
  return domain::Decomposition::uniform(grid, bounds);
}

/// Generates this rank's share; a generator error on any rank (a random fill that cannot meet
/// its count) stops every rank with that message instead of leaving the others waiting.
gpu::BodySet generate_share(const comm::RankGroup& group, const TerrainConfig& config, const domain::Aabb& box,
                            std::uint64_t& built) {
  std::string error;
  gpu::BodySet local;
  try {
    local = build_terrain_bodies(config.scene, box, &built);
  } catch (const io::ConfigError& e) {
    error = config.source + ": " + e.what();
  }
  if (group.max(error.empty() ? 0 : 1) != 0)
    throw io::ConfigError(error.empty() ? "another terrain rank could not generate its particles (see its message)"
                                           : error);
  return local;
}

}  // namespace

DistributedTerrain::DistributedTerrain(const TerrainConfig& config, const comm::RankGroup& group,
                                       const std::string& layout, const CheckpointShare* restart)
    : group_(group), rank_(group.rank()), ranks_(group.size()), held_(std::make_unique<HeldBodies>()) {
  const DomainSettings& settings = config.scene.domain;
  const domain::LayoutRequest request = domain::parse_layout(layout.empty() ? settings.layout : layout);

  // 1. This rank's share under a first split.
  gpu::BodySet local;
  if (restart != nullptr) {
    local = restart->bodies;  // this rank's block of the file: any share serves as a first split
  } else {
    const domain::Decomposition split = first_split(request, ranks_, particle_bounds(config.scene));
    local = generate_share(group_, config, split.box(rank_), generated_);
  }
  check_distributable(local);
  const real radius = largest_body_radius(group_, local);
  max_displacement_ = settings.max_displacement > 0 ? settings.max_displacement : radius;
  ghost_width_ = domain::ghost_width(radius > 0 ? radius : real(1), config.scene.step.collision.envelope,
                                     max_displacement_);
  balance_ = settings.balance;
  balance_contacts_ = settings.balance_by == "contacts";
  rebalance_interval_ = settings.rebalance_interval;
  // Only the particles' ranges, kept once: a patch asks for every held body each coupling step.
  for (const GidRange& r : config.gid_ranges)
    if (is_particle(config.gid_ranges, r.first) && r.count > 0) particle_ranges_.push_back(r);

  // 2. The final split, as one rank holding every particle would choose it.
  std::vector<std::uint32_t> moving, everywhere;
  std::vector<Vec3> moving_position;
  for (std::uint32_t i = 0; i < local.size(); ++i)
    if (dynamic(local, i)) {
      moving.push_back(i);
      moving_position.push_back(position(local, i));
    } else {
      everywhere.push_back(i);
    }
  const domain::GridShape grid = domain::choose_grid(request, ranks_, global_dynamic_bounds(group_, local));
  const int parts[3] = {grid.px, grid.py, grid.pz};
  std::vector<real> cuts[3];
  for (int a = 0; a < 3; ++a)
    if (parts[a] > 1) cuts[a] = global_cuts(group_, moving_position, a, parts[a], ghost_width_, balance_);
  use_decomposition(domain::Decomposition(grid, cuts[0], cuts[1], cuts[2]));

  // 3. Every particle to its owner.
  const BodyRecords received = send_to_owners(group_, local, moving, decomposition_);
  system_ = std::make_unique<gpu::RigidBodySystem>(merge_bodies(local, everywhere, {&received}), config.scene.step);
  reload_held_bodies();
  held_->local.gid = held_->set.gid;
  held_->local.holder.assign(held_->set.size(), kOwnedHere);
  for (std::size_t i = 0; i < held_->set.size(); ++i)
    if (!dynamic(held_->set, i)) held_->local.holder[i] = kOnEveryRank;

  if (restart != nullptr) {
    system_->set_clock(restart->time, restart->step);
    take_warm_start(*restart);
  }
}

}  // namespace trackcosim::terrain

namespace trackcosim::terrain {

real DistributedTerrain::largest_sphere_radius() const {
  const gpu::BodySet& s = held_->set;
  double r = 0;
  for (std::size_t k = 0; k < s.sphere_radius.size(); ++k)
    if (held_->local.holder[s.sphere_body[k]] == kOwnedHere) r = std::max(r, double(s.sphere_radius[k]));
  return real(group_.max(r));
}

}  // namespace trackcosim::terrain
