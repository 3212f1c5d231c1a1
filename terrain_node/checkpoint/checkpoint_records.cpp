// Packing and unpacking the version 3 records (layout: docs/checkpoint-format.md). Each record
// has one field list that serves packing, unpacking and its size, so the layout never depends on
// the compiler's struct padding.

#include "terrain_node/checkpoint/checkpoint_records.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <tuple>
#include <type_traits>

#include "io/checkpoint_file.h"
#include "terrain_node/checkpoint/body_set_copy.h"

namespace trackcosim::terrain {
namespace {

static_assert(std::endian::native == std::endian::little, "the file is little-endian and written by memcpy");
static_assert(sizeof(GlobalId) == 8 && sizeof(ShapeIndex) == 4 && sizeof(gpu::Motion) == 1);
static_assert(sizeof(double) == 8 && std::numeric_limits<double>::is_iec559);
static_assert(sizeof(real) != 8 || (kBodyRecordBytes == 213 && kSphereRecordBytes == 44 && kPlaneRecordBytes == 64 &&
                                    kBoxRecordBytes == 96 && kWarmRecordBytes == 72 &&
                                    kWarmRecordBytesV2 == 48),
              "docs/checkpoint-format.md gives these sizes");

struct PackTo {
  char* at;
  template <class T>
  void operator()(const T& v) { static_assert(std::is_trivially_copyable_v<T>); std::memcpy(at, &v, sizeof v), at += sizeof v; }
};
struct UnpackFrom {
  const char* at;
  template <class T>
  void operator()(T& v) { static_assert(std::is_trivially_copyable_v<T>); std::memcpy(&v, at, sizeof v), at += sizeof v; }
};

// Offsets inside a body record of the fields read without unpacking.
constexpr std::size_t kBodyMotionAt = 8 + 24 * sizeof(real), kBodySphereCountAt = kBodyMotionAt + 1,
                      kBodyFirstSphereAt = kBodySphereCountAt + 4;
// Every shape record starts with its body's gid and its shape index.
constexpr std::size_t kShapeIndexAt = 8;

template <class T>
T field_at(const std::string& bytes, std::size_t at) {
  T v;
  std::memcpy(&v, bytes.data() + at, sizeof v);
  return v;
}

/// The 24 per-body real arrays in record order (a const set gives const pointers).
template <class Set>
auto body_reals(Set& b) {
  return std::array{&b.px, &b.py, &b.pz, &b.qw, &b.qx, &b.qy, &b.qz, &b.vx, &b.vy, &b.vz, &b.wx, &b.wy,
                    &b.wz, &b.mass, &b.ix, &b.iy, &b.iz, &b.friction, &b.fx, &b.fy, &b.fz, &b.tx, &b.ty, &b.tz};
}
template <class Set>
auto sphere_reals(Set& b) {
  return std::array{&b.sphere_ox, &b.sphere_oy, &b.sphere_oz, &b.sphere_radius};
}

struct PlaneFields {
  template <class Io, class P>
  static void visit(Io& io, P& p) {
    std::uint32_t zero_padding = 0;
    io(p.body_gid), io(p.shape_index), io(zero_padding), io(p.point), io(p.normal);
  }
};
struct BoxFields {
  template <class Io, class B>
  static void visit(Io& io, B& b) {
    std::uint32_t zero_padding = 0;
    io(b.body_gid), io(b.shape_index), io(zero_padding), io(b.center), io(b.half_extents), io(b.orientation);
  }
};
// Version 3's warm-start record is version 2's with the rolling impulse after it.
struct WarmFieldsV2 {
  template <class Io, class W>
  static void visit(Io& io, W& w) {
    io(w.gid_a), io(w.gid_b), io(w.shape_a), io(w.shape_b), io(w.impulse_on_b);
  }
};
struct WarmFields {
  template <class Io, class W>
  static void visit(Io& io, W& w) {
    WarmFieldsV2::visit(io, w), io(w.rolling_on_b);
  }
};

template <class Fields, std::size_t N, class Record>
void put_record(std::string& out, const Record& r) {
  std::array<char, N> bytes{};
  PackTo to{bytes.data()};
  Fields::visit(to, r);
  out.append(bytes.data(), N);
}
template <class Fields, std::size_t N, class Record>
Record get_record(const char* at) {
  Record r{};
  UnpackFrom from{at};
  Fields::visit(from, r);
  return r;
}

/// Sorts fixed-size records by their leading gid, then (with_shape) by the shape index after it.
void sort_records(std::string& records, std::size_t bytes, bool with_shape) {
  const std::size_t n = records.size() / bytes;
  using Key = std::tuple<GlobalId, ShapeIndex, std::size_t>;
  std::vector<Key> keys(n);
  for (std::size_t i = 0; i < n; ++i)
    keys[i] = {field_at<GlobalId>(records, i * bytes),
               with_shape ? field_at<ShapeIndex>(records, i * bytes + kShapeIndexAt) : ShapeIndex(0), i};
  if (std::is_sorted(keys.begin(), keys.end())) return;
  std::sort(keys.begin(), keys.end());
  std::string sorted(records.size(), '\0');
  for (std::size_t i = 0; i < n; ++i) std::memcpy(sorted.data() + i * bytes, records.data() + std::get<2>(keys[i]) * bytes, bytes);
  records.swap(sorted);
}

/// Records of `records` whose leading gid is in `gids` (sorted).
std::string records_of(const std::string& records, std::size_t bytes, const std::vector<GlobalId>& gids) {
  std::string out;
  for (std::size_t at = 0; at < records.size(); at += bytes)
    if (std::binary_search(gids.begin(), gids.end(), field_at<GlobalId>(records, at))) out.append(records, at, bytes);
  return out;
}

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

[[noreturn]] void inconsistent(const std::string& where, const std::string& what) {
  throw std::runtime_error(where + ": inconsistent checkpoint: " + what);
}

/// Re-adds every body and shape of `raw` through the BodySet's public calls. Each shape list
/// keeps its order, and a body's shapes must arrive in shape-index order whatever their kind,
/// so the lists are merged by taking, at each turn, the first head whose index is its body's
/// next one; the set's own counters then agree with the records, which the end checks.
gpu::BodySet rebuild(const gpu::BodySet& raw, const std::string& where) {
  const std::size_t n = raw.size();
  if (n > std::numeric_limits<std::uint32_t>::max()) inconsistent(where, std::to_string(n) + " bodies (at most 2^32 - 1)");
  gpu::BodySet out;
  for (auto* v : body_reals(out)) v->reserve(n);
  for (auto* v : sphere_reals(out)) v->reserve(raw.sphere_body.size());
  out.gid.reserve(n), out.motion.reserve(n), out.sphere_body.reserve(raw.sphere_body.size());
  out.sphere_shape.reserve(raw.sphere_body.size());
  for (std::uint32_t i = 0; i < n; ++i) {
    if (static_cast<std::uint8_t>(raw.motion[i]) > static_cast<std::uint8_t>(gpu::Motion::Axial))
      inconsistent(where, "body gid " + std::to_string(raw.gid[i]) + " has motion code " + std::to_string(unsigned(raw.motion[i])));
    if (i > 0 && raw.gid[i] <= raw.gid[i - 1])
      inconsistent(where, "gid " + std::to_string(raw.gid[i]) + " of body " + std::to_string(i) + " does not increase");
    out.add_body(body_desc(raw, i));
  }
  std::vector<ShapeIndex> next(n, 0);
  std::size_t s = 0, p = 0, x = 0;
  const std::size_t spheres = raw.sphere_body.size(), planes = raw.planes.size(), boxes = raw.boxes.size();
  while (s < spheres || p < planes || x < boxes) {
    if (s < spheres && raw.sphere_shape[s] == next[raw.sphere_body[s]]) {
      const std::uint32_t b = raw.sphere_body[s];
      out.add_sphere(b, {raw.sphere_ox[s], raw.sphere_oy[s], raw.sphere_oz[s]}, raw.sphere_radius[s]);
      ++next[b], ++s;
    } else if (p < planes && raw.planes[p].shape_index == next[raw.plane_body[p]]) {
      out.add_plane(raw.plane_body[p], raw.planes[p].point, raw.planes[p].normal);
      ++next[raw.plane_body[p]], ++p;
    } else if (x < boxes && raw.boxes[x].shape_index == next[raw.box_body[x]]) {
      const gpu::BoxShape& box = raw.boxes[x];
      out.add_box(raw.box_body[x], box.center, box.half_extents, box.orientation);
      ++next[raw.box_body[x]], ++x;
    } else {
      inconsistent(where, "shape indices are not the order add_sphere/add_plane/add_box gives (stuck at sphere " +
                              std::to_string(s) + ", plane " + std::to_string(p) + ", box " + std::to_string(x) + ")");
    }
  }
  return out;
}

}  // namespace

void PackedBodies::append(const PackedBodies& more) {
  bodies += more.bodies, spheres += more.spheres, planes += more.planes, boxes += more.boxes;
}

PackedBodies pack_bodies(const gpu::BodySet& set, std::span<const std::uint32_t> which) {
  const SphereIndex index(set);
  PackedBodies out;
  std::vector<std::uint8_t> chosen(set.size(), 0);
  const auto reals = body_reals(set);
  for (const std::uint32_t b : which) {
    chosen[b] = 1;
    std::array<char, kBodyRecordBytes> bytes{};
    PackTo to{bytes.data()};
    to(set.gid[b]);
    for (const auto* v : reals) to((*v)[b]);
    const auto spheres = index.of(b);
    to(set.motion[b]), to(static_cast<std::uint32_t>(spheres.size())), to(std::uint64_t{0});
    out.bodies.append(bytes.data(), bytes.size());
    for (const std::uint32_t k : spheres) {
      std::array<char, kSphereRecordBytes> sphere{};
      PackTo at{sphere.data()};
      at(set.gid[b]), at(set.sphere_shape[k]);
      for (const auto* v : sphere_reals(set)) at((*v)[k]);
      out.spheres.append(sphere.data(), sphere.size());
    }
  }
  for (std::size_t p = 0; p < set.planes.size(); ++p)
    if (chosen[set.plane_body[p]]) put_record<PlaneFields, kPlaneRecordBytes>(out.planes, set.planes[p]);
  for (std::size_t x = 0; x < set.boxes.size(); ++x)
    if (chosen[set.box_body[x]]) put_record<BoxFields, kBoxRecordBytes>(out.boxes, set.boxes[x]);
  return out;
}

void sort_packed(PackedBodies& packed) {
  sort_records(packed.bodies, kBodyRecordBytes, false);
  sort_records(packed.spheres, kSphereRecordBytes, true);
  sort_records(packed.planes, kPlaneRecordBytes, true);
  sort_records(packed.boxes, kBoxRecordBytes, true);
}

void number_spheres(PackedBodies& packed, std::uint64_t first) {
  for (std::size_t at = 0; at < packed.bodies.size(); at += kBodyRecordBytes) {
    std::memcpy(packed.bodies.data() + at + kBodyFirstSphereAt, &first, sizeof first);
    first += field_at<std::uint32_t>(packed.bodies, at + kBodySphereCountAt);
  }
}

PackedBodyView packed_body(const PackedBodies& packed, std::size_t i) {
  const std::size_t at = i * kBodyRecordBytes;
  return {field_at<GlobalId>(packed.bodies, at),
          {field_at<real>(packed.bodies, at + 8), field_at<real>(packed.bodies, at + 8 + sizeof(real)),
           field_at<real>(packed.bodies, at + 8 + 2 * sizeof(real))},
          field_at<gpu::Motion>(packed.bodies, at + kBodyMotionAt),
          field_at<std::uint32_t>(packed.bodies, at + kBodySphereCountAt),
          field_at<std::uint64_t>(packed.bodies, at + kBodyFirstSphereAt)};
}

std::pair<GlobalId, ShapeIndex> packed_sphere_key(const PackedBodies& packed, std::size_t i) {
  const std::size_t at = i * kSphereRecordBytes;
  return {field_at<GlobalId>(packed.spheres, at), field_at<ShapeIndex>(packed.spheres, at + kShapeIndexAt)};
}

PackedBodies select_packed_by_flags(const PackedBodies& packed, const std::vector<std::uint8_t>& keep) {
  PackedBodies out;
  std::vector<GlobalId> gids;
  for (std::size_t i = 0; i < keep.size(); ++i)
    if (keep[i]) {
      out.bodies.append(packed.bodies, i * kBodyRecordBytes, kBodyRecordBytes);
      gids.push_back(packed_body(packed, i).gid);
    }
  std::sort(gids.begin(), gids.end());
  out.spheres = records_of(packed.spheres, kSphereRecordBytes, gids);
  out.planes = records_of(packed.planes, kPlaneRecordBytes, gids);
  out.boxes = records_of(packed.boxes, kBoxRecordBytes, gids);
  return out;
}

gpu::BodySet unpack_bodies(const PackedBodies& packed, const std::string& where) {
  gpu::BodySet raw;
  const std::size_t n = packed.body_count();
  const auto reals = body_reals(raw);
  std::vector<std::uint32_t> sphere_counts(n);
  for (std::size_t i = 0; i < n; ++i) {
    UnpackFrom from{packed.bodies.data() + i * kBodyRecordBytes};
    GlobalId gid;
    gpu::Motion motion;
    std::uint64_t first_sphere;
    from(gid);
    raw.gid.push_back(gid);
    for (auto* v : reals) from(v->emplace_back());
    from(motion), from(sphere_counts[i]), from(first_sphere);
    raw.motion.push_back(motion);
  }
  // The body a shape names, by gid; the shape records are sorted like the bodies.
  auto body_of = [&](GlobalId gid, const char* kind) {
    const auto it = std::lower_bound(raw.gid.begin(), raw.gid.end(), gid);
    if (it == raw.gid.end() || *it != gid) inconsistent(where, std::string("a ") + kind + " on body gid " + std::to_string(gid) + ", which is not there");
    return static_cast<std::uint32_t>(it - raw.gid.begin());
  };
  std::vector<std::uint32_t> found(n, 0);
  for (std::size_t k = 0; k < packed.sphere_count(); ++k) {
    UnpackFrom from{packed.spheres.data() + k * kSphereRecordBytes};
    GlobalId gid;
    from(gid);
    const std::uint32_t b = body_of(gid, "sphere");
    ++found[b];
    raw.sphere_body.push_back(b);
    from(raw.sphere_shape.emplace_back());
    for (auto* v : sphere_reals(raw)) from(v->emplace_back());
  }
  for (std::size_t i = 0; i < n; ++i)
    if (found[i] != sphere_counts[i])
      inconsistent(where, "body gid " + std::to_string(raw.gid[i]) + " has " + std::to_string(found[i]) +
                              " spheres, its record says " + std::to_string(sphere_counts[i]));
  for (std::size_t p = 0; p < packed.plane_count(); ++p) {
    raw.planes.push_back(get_record<PlaneFields, kPlaneRecordBytes, gpu::PlaneShape>(packed.planes.data() + p * kPlaneRecordBytes));
    raw.plane_body.push_back(body_of(raw.planes.back().body_gid, "plane"));
  }
  for (std::size_t x = 0; x < packed.box_count(); ++x) {
    raw.boxes.push_back(get_record<BoxFields, kBoxRecordBytes, gpu::BoxShape>(packed.boxes.data() + x * kBoxRecordBytes));
    raw.box_body.push_back(body_of(raw.boxes.back().body_gid, "box"));
  }
  return rebuild(raw, where);
}

std::string pack_warm(const std::vector<WarmStartEntry>& entries) {
  std::string out;
  out.reserve(entries.size() * kWarmRecordBytes);
  for (const WarmStartEntry& e : entries) put_record<WarmFields, kWarmRecordBytes>(out, e);
  return out;
}

std::vector<WarmStartEntry> unpack_warm(std::string_view records) {
  std::vector<WarmStartEntry> out(records.size() / kWarmRecordBytes);
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = get_record<WarmFields, kWarmRecordBytes, WarmStartEntry>(records.data() + i * kWarmRecordBytes);
  return out;
}

std::string widen_warm_v2(std::string_view records) {
  std::string out;
  out.reserve(records.size() / kWarmRecordBytesV2 * kWarmRecordBytes);
  for (std::size_t at = 0; at + kWarmRecordBytesV2 <= records.size(); at += kWarmRecordBytesV2)
    put_record<WarmFields, kWarmRecordBytes>(out, get_record<WarmFieldsV2, kWarmRecordBytesV2, WarmStartEntry>(records.data() + at));
  return out;
}

std::uint64_t section_checksum(Section section, std::uint64_t first_index, std::string_view records,
                               std::size_t record_bytes) {
  std::uint64_t sum = 0;
  for (std::size_t at = 0, i = first_index; at + record_bytes <= records.size(); at += record_bytes, ++i) {
    io::Fnv1a hash;
    hash.add(records.data() + at, record_bytes);
    sum ^= splitmix64(hash.value() ^ splitmix64((static_cast<std::uint64_t>(section) << 56) | i));
  }
  return sum;
}

}  // namespace trackcosim::terrain
