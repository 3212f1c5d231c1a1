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

/// The spring-damper of one shoe proxy's contacts: cosim settings, else the scheme's default.
gpu::CompliantBody shoe_spring(gpu::GlobalId gid, const cosim::ShoeGeometry& shoe, const cosim::VehicleHello& hello,
                               const CosimSettings& settings);

/// A proxy's state from its shoe's state in a states message.
gpu::BodyState body_state(gpu::GlobalId gid, const cosim::ShoeState& s);

}  // namespace trackcosim::terrain
