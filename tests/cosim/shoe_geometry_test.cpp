// A shoe whose pad is a mesh (issue 21; docs/meshes.md, "Shoe pads from meshes") sends the
// terrain its decomposed sphere set in the hello. The protocol sets no limit on the spheres of a
// shoe (docs/protocol.md, "Shoe spheres": at least one, the frame at most 256 MiB) and writes
// numbers as shortest round-trip text, so every offset and radius must arrive as the same bits.

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>

#include "cosim/protocol.h"
#include "geometry/mesh_check.h"
#include "geometry/mesh_file.h"
#include "geometry/mesh_mass.h"
#include "geometry/sphere_decomposition.h"

namespace trackcosim::cosim {
namespace {

/// The shipped shoe with grousers decomposed as a template decomposes it (shoe frame, origin at
/// the pins' midpoint), with the given options.
std::vector<ShoeGeometry::Sphere> mesh_shoe_spheres(const geometry::DecompositionOptions& o) {
  const geometry::TriangleMesh mesh =
      geometry::read_solid_mesh(std::string(TRACKCOSIM_SOURCE_DIR) + "/configs/vehicles/meshes/shoe_grousers.obj");
  std::vector<ShoeGeometry::Sphere> out;
  for (const geometry::Sphere& s : geometry::decompose_into_spheres(mesh, {0, 0, 0}, o).spheres) out.push_back({s.centre, s.radius});
  return out;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Two tracks of m113_grousers.json's 64 shoes decomposed with its options (f 0.5, no refinement,
// merge 0.01: 160 spheres), the right track's spheres mirrored in y as the vehicle sends them;
// and two shoes with the default options (two levels of refinement: 6,396 spheres each):
// decode(encode(hello)) gives every sphere back bit for bit, in order, with the mass.
TEST(Protocol, AMeshShoesSphereSetCrossesTheHelloBitForBit) {
  geometry::DecompositionOptions shipped;
  shipped.f = 0.5, shipped.refine_levels = 0, shipped.merge_tolerance = 0.01;
  for (const auto& [options, per_track] : {std::pair{shipped, 64}, std::pair{geometry::DecompositionOptions{}, 1}}) {
    const std::vector<ShoeGeometry::Sphere> left = mesh_shoe_spheres(options);
    std::vector<ShoeGeometry::Sphere> right = left;
    for (ShoeGeometry::Sphere& s : right) s.offset.y = -s.offset.y;
    VehicleHello h;
    h.coupling_step = 1e-3;
    h.end_time = 1;
    for (int i = 0; i < 2 * per_track; ++i) {
      h.shoes.push_back({18.02, i < per_track ? left : right});
      ShoeState st{};
      st.position[0] = 0.154 * i, st.position[2] = 0.3;
      st.orientation[0] = 1;
      h.initial.push_back(st);
    }
    const comm::Frame frame = encode_hello(h);
    const VehicleHello back = decode_hello(frame, "test");
    ASSERT_EQ(back.shoes.size(), h.shoes.size());
    std::size_t differ = 0;
    for (std::size_t i = 0; i < h.shoes.size(); ++i) {
      ASSERT_EQ(back.shoes[i].spheres.size(), h.shoes[i].spheres.size()) << "shoe " << i;
      EXPECT_TRUE(same_bits(back.shoes[i].mass, h.shoes[i].mass));
      for (std::size_t k = 0; k < h.shoes[i].spheres.size(); ++k) {
        const ShoeGeometry::Sphere &a = h.shoes[i].spheres[k], &b = back.shoes[i].spheres[k];
        if (!same_bits(a.offset.x, b.offset.x) || !same_bits(a.offset.y, b.offset.y) ||
            !same_bits(a.offset.z, b.offset.z) || !same_bits(a.radius, b.radius))
          ++differ;
      }
    }
    EXPECT_EQ(differ, 0u);
    std::printf("refine_levels %d: %zu spheres per shoe, hello of %zu bytes for %d shoes\n", options.refine_levels,
                left.size(), frame.payload.size(), 2 * per_track);
  }
}

}  // namespace
}  // namespace trackcosim::cosim
