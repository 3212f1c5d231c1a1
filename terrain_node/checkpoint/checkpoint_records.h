#pragma once
// The records of checkpoint format version 3 (docs/checkpoint-format.md): every body, sphere,
// plane, box and warm-start entry is one fixed-size record, packed field by field, that names
// its body by gid. Any rank can therefore write or read any run of consecutive records without
// knowing the rest of the file, and a set of bodies travels between ranks as these same bytes.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gpu/dynamics/body_set.h"
#include "terrain_node/checkpoint/terrain_checkpoint.h"

namespace trackcosim::terrain {

/// Bytes per record (8-byte reals; static_asserts in the .cpp hold them to the format page).
constexpr std::size_t kBodyRecordBytes = 8 + 24 * sizeof(real) + 1 + 4 + 8;  // gid, reals, motion, sphere count, first sphere
constexpr std::size_t kSphereRecordBytes = 8 + 4 + 4 * sizeof(real);          // body gid, shape index, offset, radius
constexpr std::size_t kPlaneRecordBytes = 8 + 4 + 4 + 6 * sizeof(real);
constexpr std::size_t kBoxRecordBytes = 8 + 4 + 4 + 10 * sizeof(real);
constexpr std::size_t kWarmRecordBytes = 8 + 8 + 4 + 4 + 6 * sizeof(real);  // key, impulse, rolling impulse
/// Version 2's warm-start record: key and impulse, no rolling impulse. Read, never written.
constexpr std::size_t kWarmRecordBytesV2 = 8 + 8 + 4 + 4 + 3 * sizeof(real);

/// Bodies with all their shapes as the file's records, each kind back to back.
struct PackedBodies {
  std::string bodies, spheres, planes, boxes;

  std::size_t body_count() const { return bodies.size() / kBodyRecordBytes; }
  std::size_t sphere_count() const { return spheres.size() / kSphereRecordBytes; }
  std::size_t plane_count() const { return planes.size() / kPlaneRecordBytes; }
  std::size_t box_count() const { return boxes.size() / kBoxRecordBytes; }
  void append(const PackedBodies& more);
};

/// Bodies `which` of `set` (any order) with all their shapes; first_sphere is left 0
/// (number_spheres sets it where the records' place in the file is known).
PackedBodies pack_bodies(const gpu::BodySet& set, std::span<const std::uint32_t> which);
/// Sorts the bodies by gid and each shape kind by (body gid, shape index): the file's order.
void sort_packed(PackedBodies& packed);
/// Sets each body's first_sphere to `first` plus the spheres of the bodies before it.
void number_spheres(PackedBodies& packed, std::uint64_t first);

/// The fields of packed body `i` that the code around the file needs without unpacking.
struct PackedBodyView {
  GlobalId gid;
  Vec3 position;
  gpu::Motion motion;
  std::uint32_t sphere_count;
  std::uint64_t first_sphere;
};
PackedBodyView packed_body(const PackedBodies& packed, std::size_t i);
/// Body gid and shape index of packed sphere `i`.
std::pair<GlobalId, ShapeIndex> packed_sphere_key(const PackedBodies& packed, std::size_t i);

/// Only the bodies (with their shapes) for which keep(view) is true, order kept.
template <class Keep>
PackedBodies select_packed(const PackedBodies& packed, Keep keep);

/// The bodies (with their shapes) split into `parts` sets by dest(gid), a part in [0, parts).
template <class Dest>
std::vector<PackedBodies> split_packed(const PackedBodies& packed, int parts, Dest dest);

/// Rebuilds sorted packed bodies as a BodySet through its public add_* calls, so its shape
/// counters continue where the writer's did. Throws std::runtime_error("<where>: inconsistent
/// checkpoint: ...") when the records disagree with themselves.
gpu::BodySet unpack_bodies(const PackedBodies& packed, const std::string& where);

std::string pack_warm(const std::vector<WarmStartEntry>& entries);
std::vector<WarmStartEntry> unpack_warm(std::string_view records);
/// Version 2 warm-start records as version 3 ones, the rolling impulse zero: a reader widens a
/// version 2 file's records once, and everything after it knows one record size.
std::string widen_warm_v2(std::string_view records);

/// The file's sections, numbered for the checksum.
enum class Section : std::uint64_t { Bodies = 1, Spheres = 2, Planes = 3, Boxes = 4, Warm = 5 };
/// The XOR over records first_index, first_index + 1, ... of `records` (back to back, each
/// `record_bytes`) of mix(section, index, FNV-1a(record)): a checksum any rank can compute over
/// its own records, whose XOR over all ranks does not depend on how they were split.
std::uint64_t section_checksum(Section section, std::uint64_t first_index, std::string_view records,
                               std::size_t record_bytes);

// ---- template definition

PackedBodies select_packed_by_flags(const PackedBodies& packed, const std::vector<std::uint8_t>& keep);

template <class Keep>
PackedBodies select_packed(const PackedBodies& packed, Keep keep) {
  std::vector<std::uint8_t> flags(packed.body_count());
  for (std::size_t i = 0; i < flags.size(); ++i) flags[i] = keep(packed_body(packed, i)) ? 1 : 0;
  return select_packed_by_flags(packed, flags);
}

template <class Dest>
std::vector<PackedBodies> split_packed(const PackedBodies& packed, int parts, Dest dest) {
  std::vector<PackedBodies> out(static_cast<std::size_t>(parts));
  // Every record starts with its body's gid.
  auto split = [&](const std::string& records, std::size_t bytes, std::string PackedBodies::*kind) {
    for (std::size_t at = 0; at < records.size(); at += bytes) {
      GlobalId gid;
      std::memcpy(&gid, records.data() + at, sizeof gid);
      (out[static_cast<std::size_t>(dest(gid))].*kind).append(records, at, bytes);
    }
  };
  split(packed.bodies, kBodyRecordBytes, &PackedBodies::bodies);
  split(packed.spheres, kSphereRecordBytes, &PackedBodies::spheres);
  split(packed.planes, kPlaneRecordBytes, &PackedBodies::planes);
  split(packed.boxes, kBoxRecordBytes, &PackedBodies::boxes);
  return out;
}

}  // namespace trackcosim::terrain
