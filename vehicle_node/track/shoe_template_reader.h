#pragma once
// Reads "track.shoes": count, pitch, mass, inertia and the contact geometry as a sphere set,
// either listed sphere by sphere, generated from a pad, or both (a pad plus guide horns or
// grousers listed by hand). A pad is a box (a grid of spheres filling it) or a surface mesh
// decomposed into spheres (shoe_mesh_pad.h), whose density may give the mass and inertia.

#include <filesystem>

#include "io/json_fields.h"
#include "vehicle_node/track/vehicle_template.h"

namespace trackcosim::vehicle {

/// `config_folder`: the folder of the config file, against which a pad's mesh path is resolved.
ShoeTemplate read_shoe_template(const io::JsonField& shoes, const std::filesystem::path& config_folder);

/// The pad's spheres: `along` x `across` spheres of radius thickness / 2 centred on the pin
/// plane (z = 0), spread so that their outer surfaces touch the pad's length and width.
std::vector<LocalSphere> pad_spheres(double length, double width, double thickness, std::uint32_t along,
                                     std::uint32_t across);

}  // namespace trackcosim::vehicle
