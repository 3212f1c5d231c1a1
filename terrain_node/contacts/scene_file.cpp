#include "terrain_node/contacts/scene_file.h"

#include <limits>
#include <map>
#include <optional>

#include "io/json_fields.h"
#include "io/number_text.h"
#include "terrain_node/config/collision_settings_json.h"
#include "terrain_node/config/sphere_lattice_json.h"

namespace trackcosim::terrain {
namespace {

using gpu::GlobalId;

/// Every global id is given once (DESIGN.md), so each item's id is recorded with its JSON field,
/// and a clash names both places. The lattice claims a whole range of ids at once.
class GidRegistry {
 public:
  void claim(const io::JsonField& id_field, GlobalId gid) {
    const auto [it, inserted] = explicit_ids_.emplace(gid, id_field);
    if (!inserted)
      id_field.fail("duplicate id " + std::to_string(gid) + ", already used by " + it->second.path());
  }

  void claim_range(const io::JsonField& first_id_field, GlobalId first, std::uint64_t count) {
    if (count == 0) return;
    if (first > std::numeric_limits<GlobalId>::max() - (count - 1))
      first_id_field.fail("ids " + std::to_string(first) + " + " + std::to_string(count) +
                          " spheres run past the largest 64-bit id");
    const GlobalId last = first + (count - 1);
    if (const auto it = explicit_ids_.lower_bound(first); it != explicit_ids_.end() && it->first <= last)
      it->second.fail("duplicate id " + std::to_string(it->first) + ", already used by the lattice (" +
                      first_id_field.path() + " = " + std::to_string(first) + " gives ids " +
                      std::to_string(first) + " to " + std::to_string(last) + ")");
  }

 private:
  std::map<GlobalId, io::JsonField> explicit_ids_;
};

GlobalId read_id(const io::JsonField& item, GidRegistry& ids) {
  const io::JsonField field = item.member("id");
  const GlobalId gid = field.unsigned_integer();
  ids.claim(field, gid);
  return gid;
}

Quat read_orientation(const io::JsonField& item) {
  const std::optional<io::JsonField> field = item.optional_member("orientation");
  return field ? field->unit_quaternion() : Quat{1, 0, 0, 0};
}

void read_spheres(const io::JsonField& list, gpu::SphereShapes& out, GidRegistry& ids) {
  for (const io::JsonField& item : list.elements()) {
    item.expect_object({"id", "center", "radius"});
    const GlobalId gid = read_id(item, ids);
    out.add(item.member("center").vec3(), item.member("radius").positive_number(), gid, 0);
  }
}

void read_planes(const io::JsonField& list, std::vector<gpu::PlaneShape>& out, GidRegistry& ids) {
  for (const io::JsonField& item : list.elements()) {
    item.expect_object({"id", "point", "normal"});
    const GlobalId gid = read_id(item, ids);
    out.push_back({gid, 0, item.member("point").vec3(), item.member("normal").unit_vector()});
  }
}

void read_boxes(const io::JsonField& list, std::vector<gpu::BoxShape>& out, GidRegistry& ids) {
  for (const io::JsonField& item : list.elements()) {
    item.expect_object({"id", "center", "half_extents", "orientation"});
    const GlobalId gid = read_id(item, ids);
    const Vec3 center = item.member("center").vec3();
    const io::JsonField half_field = item.member("half_extents");
    const Vec3 half = half_field.vec3();
    if (!(half.x > 0 && half.y > 0 && half.z > 0))
      half_field.fail("must all be > 0, got [" + io::number_to_string(half.x) + ", " + io::number_to_string(half.y) + ", " +
                      io::number_to_string(half.z) + "]");
    out.push_back({gid, 0, center, half, read_orientation(item)});
  }
}

/// A compound body is a rigid set of spheres sharing one gid; offsets are in the body frame.
void read_compounds(const io::JsonField& list, gpu::SphereShapes& out, GidRegistry& ids) {
  for (const io::JsonField& item : list.elements()) {
    item.expect_object({"id", "position", "orientation", "spheres"});
    const GlobalId gid = read_id(item, ids);
    const Vec3 position = item.member("position").vec3();
    const Quat orientation = read_orientation(item);
    const io::JsonField spheres = item.member("spheres");
    const std::vector<io::JsonField> members = spheres.elements();
    if (members.empty()) spheres.fail("a compound needs at least one sphere");
    for (std::size_t k = 0; k < members.size(); ++k) {
      members[k].expect_object({"offset", "radius"});
      const Vec3 offset = members[k].member("offset").vec3();
      const real radius = members[k].member("radius").positive_number();
      out.add(position + rotate(orientation, offset), radius, gid, static_cast<gpu::ShapeIndex>(k));
    }
  }
}

void read_lattice(const io::JsonField& f, gpu::SphereShapes& out, GidRegistry& ids) {
  f.expect_object({"first_id", "min", "max", "spacing", "radius", "jitter", "seed"});
  const io::JsonField first_id = f.member("first_id");
  const GlobalId first = first_id.unsigned_integer();
  SphereLattice lattice = read_sphere_lattice(f);
  lattice.first_id = first;
  const auto cells = lattice_cells_per_axis(lattice);
  ids.claim_range(first_id, lattice.first_id, cells[0] * cells[1] * cells[2]);
  generate_lattice(lattice, out);
}

SceneFile read_scene(const nlohmann::json& document, const std::string& source_name) {
  const io::JsonField root(document, source_name);
  root.expect_object({"collision", "spheres", "planes", "boxes", "compounds", "lattice"});

  SceneFile scene;
  GidRegistry ids;
  if (const auto f = root.optional_member("collision")) scene.collision = read_collision_settings(*f);
  if (const auto f = root.optional_member("planes")) read_planes(*f, scene.shapes.planes, ids);
  if (const auto f = root.optional_member("boxes")) read_boxes(*f, scene.shapes.boxes, ids);
  if (const auto f = root.optional_member("spheres")) read_spheres(*f, scene.shapes.spheres, ids);
  if (const auto f = root.optional_member("compounds")) read_compounds(*f, scene.shapes.spheres, ids);
  // Last, so that its id range is checked against every explicit id.
  if (const auto f = root.optional_member("lattice")) read_lattice(*f, scene.shapes.spheres, ids);
  return scene;
}

}  // namespace

SceneFile parse_scene(std::string_view text, const std::string& source_name) {
  return read_scene(io::parse_json_document(text, source_name), source_name);
}

SceneFile load_scene_file(const std::filesystem::path& file) {
  return read_scene(io::load_json_document(file), file.string());
}

}  // namespace trackcosim::terrain
