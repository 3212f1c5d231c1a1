#pragma once
// Collision results for ParaView, as VTK XML PolyData (.vtp):
//  - contacts: one line cell per contact from point_a to point_b (a degenerate line when the
//    points coincide, so the cell count always equals the contact count), with cell data
//    distance, normal, gid_a, gid_b, shape_a, shape_b, and the same per end point (point data
//    distance, normal, gid, other_gid, shape, side: 0 on body A, 1 on body B). A collision pass
//    has no impulses: the contacts of `--contacts` are geometry only;
//  - spheres: one vertex per sphere with point data radius, gid, shape_index, ready for the
//    Glyph filter (sphere glyph scaled by "radius"). docs/scene-format.md says how to view both.

#include <filesystem>
#include <ostream>

#include "gpu/collision/contact_list.h"
#include "gpu/collision/shape_scene.h"

namespace trackcosim::terrain {

void write_contacts_vtp(std::ostream& out, const gpu::ContactList& contacts);
/// Throws OutputError when the file cannot be written.
void write_contacts_vtp(const std::filesystem::path& file, const gpu::ContactList& contacts);

void write_spheres_vtp(std::ostream& out, const gpu::SphereShapes& spheres);
/// Throws OutputError when the file cannot be written.
void write_spheres_vtp(const std::filesystem::path& file, const gpu::SphereShapes& spheres);

}  // namespace trackcosim::terrain
