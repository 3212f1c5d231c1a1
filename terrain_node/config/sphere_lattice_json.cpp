#include "terrain_node/config/sphere_lattice_json.h"

#include <string>

#include "io/number_text.h"

namespace trackcosim::terrain {

std::uint64_t checked_lattice_size(const SphereLattice& lattice, const io::JsonField& box_field,
                                   const io::JsonField& size_field) {
  const auto cells = lattice_cells_per_axis(lattice);
  for (int a = 0; a < 3; ++a)
    if (cells[a] == 0)
      box_field.fail(std::string("the box [min, max] holds no whole lattice cell along ") + "xyz"[a] +
                     " (spacing " + io::number_to_string(lattice.spacing) + ")");
  const double total = double(cells[0]) * double(cells[1]) * double(cells[2]);
  if (total > double(kMaxLatticeSpheres))
    size_field.fail("the lattice would hold " + io::number_to_string(total) + " spheres, more than the limit of " +
               std::to_string(kMaxLatticeSpheres) + "; check spacing and units (metres)");
  return cells[0] * cells[1] * cells[2];
}

SphereLattice read_sphere_lattice(const io::JsonField& f) {
  SphereLattice lattice;
  lattice.min = f.member("min").vec3();
  const io::JsonField max_field = f.member("max");
  lattice.max = max_field.vec3();
  const io::JsonField spacing = f.member("spacing");
  lattice.spacing = spacing.positive_number();
  lattice.radius = read_size_distribution(f.member("radius"));
  if (const auto jitter = f.optional_member("jitter")) {
    lattice.jitter = jitter->non_negative_number();
    // Beyond half a spacing two neighbours could swap places or coincide.
    if (lattice.jitter > 0.5)
      jitter->fail("must be <= 0.5 (a fraction of spacing), got " + io::number_to_string(lattice.jitter));
  }
  if (const auto seed = f.optional_member("seed")) lattice.seed = seed->unsigned_integer();
  checked_lattice_size(lattice, max_field, spacing);
  return lattice;
}

}  // namespace trackcosim::terrain
