#pragma once
// The terrain's side of the handshake and its stand-ins for the vehicle's shoes
// (coupling_session.h uses them; docs/protocol.md, "Shoe contact law").

#include "cosim/protocol.h"
#include "terrain_node/config/terrain_config.h"
#include "terrain_node/distributed/distributed_terrain.h"

namespace trackcosim::terrain {

/// The welcome: the bed's extent, its surface height (the highest sphere top), particle count
/// and material, reduced over every rank's particles. Collective; the same on every rank.
cosim::TerrainWelcome make_welcome(const DistributedTerrain& terrain, const TerrainConfig& config);

/// One kinematic proxy per shoe of the hello, gids first_gid, first_gid + 1, ...
gpu::BodySet shoe_proxies(const cosim::VehicleHello& hello, gpu::GlobalId first_gid, real friction);

/// Each shoe's stiffness and damping over a coupling interval (docs/protocol.md, "Implicit shoe
/// loads"): K = k G and C = c G with its spring's k and c and G the mean over the interval's
/// `substeps` terrain steps of its loaded contacts' g g^T (DistributedTerrain::take_contact_geometry).
std::vector<cosim::ShoeStiffness> shoe_stiffness(const std::vector<std::array<double, 21>>& geometry_sums,
                                                 const std::vector<gpu::CompliantBody>& springs, std::uint64_t substeps);

/// The spring-damper of one shoe proxy's contacts: cosim settings, else the scheme's default;
/// for a vehicle that takes the loads implicitly (hello "stiffness"), at least the grains' own
/// contact law (`grains`).
gpu::CompliantBody shoe_spring(gpu::GlobalId gid, const cosim::ShoeGeometry& shoe, const cosim::VehicleHello& hello,
                               const gpu::StepSettings& grains,
                               const CosimSettings& settings);

/// A proxy's state from its shoe's state in a states message.
gpu::BodyState body_state(gpu::GlobalId gid, const cosim::ShoeState& s);

}  // namespace trackcosim::terrain
