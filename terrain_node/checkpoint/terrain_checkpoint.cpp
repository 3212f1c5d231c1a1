// Writing and reading the terrain checkpoint (layout: docs/checkpoint-format.md).
//
// The file is the BodySet's vectors one after another, so writing is a few large writes and
// reading a few large copies; 10^6 bodies take well under a second each way. Only planes, boxes
// and warm-start entries are packed field by field, from one field list per record, so that the
// layout never depends on the compiler's struct padding. The reader trusts no count before it
// has checked the file's size and checksum, and it rebuilds the BodySet through its public calls
// so that the set's private shape counters continue exactly where the writer's did.

#include "terrain_node/checkpoint/terrain_checkpoint.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "io/checkpoint_file.h"
#include "io/output_file.h"
#include "terrain_node/checkpoint/body_set_copy.h"

namespace trackcosim::terrain {
namespace {

namespace fs = std::filesystem;

constexpr char kMagic[8] = {'T', 'C', 'S', 'M', 'C', 'K', 'P', 'T'};
constexpr std::uint32_t kVersion = 1;

/// The fixed fields after magic and version: file offsets 12 to 84.
struct Header {
  std::uint32_t header_bytes;  ///< sizeof(Header); version 1 readers accept only 72
  std::uint32_t real_bytes;    ///< sizeof(real) of the writer
  std::uint64_t bodies, spheres, planes, boxes, warm, config_bytes, step;
  double time;
};
static_assert(std::is_trivially_copyable_v<Header> && sizeof(Header) == 72 && offsetof(Header, time) == 64);
constexpr std::size_t kHeaderEnd = sizeof kMagic + sizeof kVersion + sizeof(Header);
constexpr std::size_t kChecksumBytes = sizeof(std::uint64_t);

static_assert(std::endian::native == std::endian::little, "the file is little-endian and written by memcpy");
static_assert(sizeof(GlobalId) == 8 && sizeof(ShapeIndex) == 4 && sizeof(std::uint32_t) == 4);
static_assert(sizeof(gpu::Motion) == 1 && std::is_trivially_copyable_v<gpu::Motion>);
static_assert(sizeof(Vec3) == 3 * sizeof(real) && sizeof(Quat) == 4 * sizeof(real));
static_assert(sizeof(double) == 8 && std::numeric_limits<double>::is_iec559);

// One field list per packed record serves writing, reading and the record's size.
struct PlaneFields {
  template <class Io, class P>
  static constexpr void visit(Io& io, P& p) {
    std::uint32_t zero_padding = 0;
    io(p.body_gid), io(p.shape_index), io(zero_padding), io(p.point), io(p.normal);
  }
};
struct BoxFields {
  template <class Io, class B>
  static constexpr void visit(Io& io, B& b) {
    std::uint32_t zero_padding = 0;
    io(b.body_gid), io(b.shape_index), io(zero_padding), io(b.center), io(b.half_extents), io(b.orientation);
  }
};
struct WarmFields {
  template <class Io, class W>
  static constexpr void visit(Io& io, W& w) {
    io(w.gid_a), io(w.gid_b), io(w.shape_a), io(w.shape_b), io(w.impulse_on_b);
  }
};

struct CountBytes {
  std::size_t bytes = 0;
  template <class T>
  constexpr void operator()(const T&) { bytes += sizeof(T); }
};
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
template <class Fields, class Record>
constexpr std::size_t packed_bytes() {
  CountBytes count;
  Record record{};
  Fields::visit(count, record);
  return count.bytes;
}

constexpr std::size_t kPlaneBytes = packed_bytes<PlaneFields, PlaneShape>();
constexpr std::size_t kBoxBytes = packed_bytes<BoxFields, BoxShape>();
constexpr std::size_t kWarmBytes = packed_bytes<WarmFields, WarmStartEntry>();
constexpr std::size_t kBodyBytes = sizeof(GlobalId) + 24 * sizeof(real) + sizeof(gpu::Motion);
constexpr std::size_t kSphereBytes = sizeof(std::uint32_t) + 4 * sizeof(real) + sizeof(ShapeIndex);
static_assert(sizeof(real) != 8 || (kPlaneBytes == 64 && kBoxBytes == 96 && kWarmBytes == 48 && kBodyBytes == 201 &&
                                    kSphereBytes == 40),
              "docs/checkpoint-format.md gives these sizes");

/// The 24 per-body real arrays in file order (a const set gives const pointers).
template <class Set>
auto body_reals(Set& b) {
  return std::array{&b.px, &b.py, &b.pz, &b.qw, &b.qx, &b.qy, &b.qz, &b.vx, &b.vy, &b.vz, &b.wx, &b.wy,
                    &b.wz, &b.mass, &b.ix, &b.iy, &b.iz, &b.friction, &b.fx, &b.fy, &b.fz, &b.tx, &b.ty, &b.tz};
}
constexpr std::array<const char*, 24> kBodyRealNames = {"px", "py", "pz", "qw", "qx", "qy", "qz", "vx",
                                                        "vy", "vz", "wx", "wy", "wz", "mass", "ix", "iy",
                                                        "iz", "friction", "fx", "fy", "fz", "tx", "ty", "tz"};
template <class Set>
auto sphere_reals(Set& b) {
  return std::array{&b.sphere_ox, &b.sphere_oy, &b.sphere_oz, &b.sphere_radius};
}

/// Packs each record field by field (no padding bytes) into the checkpoint file.
template <class Fields, std::size_t N, class Record>
void put_records(io::AtomicCheckpointFile& file, const std::vector<Record>& records) {
  for (const Record& r : records) {
    std::array<char, N> bytes;
    PackTo to{bytes.data()};
    Fields::visit(to, r);
    file.put(bytes.data(), N);
  }
}

/// A BodySet whose vectors disagree in length would be written as a file no reader accepts.
void check_lengths(const gpu::BodySet& b) {
  auto expect = [&](const char* name, std::size_t size, std::size_t want, const char* of) {
    if (size != want)
      throw std::invalid_argument("write_checkpoint: BodySet." + std::string(name) + " has " + std::to_string(size) +
                                  " entries for " + std::to_string(want) + " " + of);
  };
  const auto reals = body_reals(b);
  for (std::size_t i = 0; i < reals.size(); ++i) expect(kBodyRealNames[i], reals[i]->size(), b.size(), "bodies");
  expect("motion", b.motion.size(), b.size(), "bodies");
  const std::size_t spheres = b.sphere_body.size();
  for (const auto* v : sphere_reals(b)) expect("sphere_ox/oy/oz/radius", v->size(), spheres, "spheres");
  expect("sphere_shape", b.sphere_shape.size(), spheres, "spheres");
  expect("planes", b.planes.size(), b.plane_body.size(), "plane_body entries");
  expect("boxes", b.boxes.size(), b.box_body.size(), "box_body entries");
}

[[noreturn]] void refuse(const fs::path& path, const std::string& problem) {
  throw std::runtime_error("checkpoint " + path.string() + ": " + problem);
}

/// The file size the header's counts imply; UINT64_MAX when that would not fit in 64 bits.
std::uint64_t implied_size(const Header& h) {
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t total = kHeaderEnd + kChecksumBytes;
  const std::pair<std::uint64_t, std::uint64_t> sections[] = {
      {h.bodies, kBodyBytes},
      {h.spheres, kSphereBytes},
      {h.planes, sizeof(std::uint32_t) + kPlaneBytes},
      {h.boxes, sizeof(std::uint32_t) + kBoxBytes},
      {h.warm, kWarmBytes},
      {h.config_bytes, 1}};
  for (const auto& [count, bytes] : sections) {
    if (count > (kMax - total) / bytes) return kMax;
    total += count * bytes;
  }
  return total;
}

/// Walks the sections of a file whose size already matches its counts.
class Sections {
 public:
  explicit Sections(const std::string& bytes) : at_(bytes.data() + kHeaderEnd) {}
  template <class T>
  void get(std::vector<T>& v, std::uint64_t count) {
    v.resize(count);
    std::memcpy(v.data(), at_, count * sizeof(T));
    at_ += count * sizeof(T);
  }
  template <class Fields, std::size_t N, class Record>
  void get_records(std::vector<Record>& v, std::uint64_t count) {
    v.resize(count);
    for (Record& r : v) {
      UnpackFrom from{at_};
      Fields::visit(from, r);
      at_ += N;
    }
  }
  const char* at() const { return at_; }

 private:
  const char* at_;
};

/// Re-adds every body and shape through the BodySet's public calls. Each shape list keeps its
/// file order, and a body's shapes must arrive in shape-index order whatever their kind, so the
/// lists are merged by taking, at each turn, the first head whose index is its body's next one;
/// the set's own counters then agree with the file, which the end checks.
gpu::BodySet rebuild(const gpu::BodySet& raw, const fs::path& path) {
  const std::size_t n = raw.size();
  auto inconsistent = [&](const std::string& what) { refuse(path, "inconsistent checkpoint: " + what); };
  if (n > std::numeric_limits<std::uint32_t>::max()) inconsistent(std::to_string(n) + " bodies (at most 2^32 - 1)");
  gpu::BodySet out;
  for (auto* v : body_reals(out)) v->reserve(n);
  for (auto* v : sphere_reals(out)) v->reserve(raw.sphere_body.size());
  out.gid.reserve(n), out.motion.reserve(n), out.sphere_body.reserve(raw.sphere_body.size());
  out.sphere_shape.reserve(raw.sphere_body.size());
  for (std::uint32_t i = 0; i < n; ++i) {
    if (static_cast<std::uint8_t>(raw.motion[i]) > static_cast<std::uint8_t>(gpu::Motion::Kinematic))
      inconsistent("body " + std::to_string(i) + " has motion code " + std::to_string(unsigned(raw.motion[i])));
    if (i > 0 && raw.gid[i] <= raw.gid[i - 1])
      inconsistent("gid " + std::to_string(raw.gid[i]) + " of body " + std::to_string(i) + " does not increase");
    out.add_body(body_desc(raw, i));
  }
  for (const auto* owners : {&raw.sphere_body, &raw.plane_body, &raw.box_body})
    for (const std::uint32_t b : *owners)
      if (b >= n) inconsistent("a shape on body " + std::to_string(b) + ", but " + std::to_string(n) + " bodies");

  std::vector<ShapeIndex> next(n, 0);
  std::size_t s = 0, p = 0, x = 0;
  const std::size_t spheres = raw.sphere_body.size(), planes = raw.planes.size(), boxes = raw.boxes.size();
  while (s < spheres || p < planes || x < boxes) {
    if (s < spheres && raw.sphere_shape[s] == next[raw.sphere_body[s]]) {
      const std::uint32_t b = raw.sphere_body[s];
      out.add_sphere(b, {raw.sphere_ox[s], raw.sphere_oy[s], raw.sphere_oz[s]}, raw.sphere_radius[s]);
      ++next[b], ++s;
    } else if (p < planes && raw.planes[p].shape_index == next[raw.plane_body[p]]) {
      const PlaneShape& plane = raw.planes[p];
      out.add_plane(raw.plane_body[p], plane.point, plane.normal);
      ++next[raw.plane_body[p]], ++p;
    } else if (x < boxes && raw.boxes[x].shape_index == next[raw.box_body[x]]) {
      const BoxShape& box = raw.boxes[x];
      out.add_box(raw.box_body[x], box.center, box.half_extents, box.orientation);
      ++next[raw.box_body[x]], ++x;
    } else {
      inconsistent("shape indices are not the order add_sphere/add_plane/add_box gives (stuck at sphere " +
                   std::to_string(s) + ", plane " + std::to_string(p) + ", box " + std::to_string(x) + ")");
    }
  }
  if (out.sphere_shape != raw.sphere_shape) inconsistent("sphere shape indices differ from the rebuilt ones");
  for (std::size_t i = 0; i < planes; ++i)
    if (out.planes[i].body_gid != raw.planes[i].body_gid || out.planes[i].shape_index != raw.planes[i].shape_index)
      inconsistent("plane " + std::to_string(i) + " names another body gid or shape index than its body's");
  for (std::size_t i = 0; i < boxes; ++i)
    if (out.boxes[i].body_gid != raw.boxes[i].body_gid || out.boxes[i].shape_index != raw.boxes[i].shape_index)
      inconsistent("box " + std::to_string(i) + " names another body gid or shape index than its body's");
  return out;
}

}  // namespace

void write_checkpoint(const fs::path& path, const TerrainCheckpoint& c) {
  const gpu::BodySet& b = c.bodies;
  check_lengths(b);
  io::AtomicCheckpointFile file(path);
  file.put_value(kMagic);
  file.put_value(kVersion);
  file.put_value(Header{sizeof(Header), sizeof(real), b.size(), b.sphere_body.size(), b.planes.size(),
                        b.boxes.size(), c.warm_start.size(), c.config_text.size(), c.step, c.time});
  file.put_array(b.gid);
  for (const auto* v : body_reals(b)) file.put_array(*v);
  file.put_array(b.motion);
  file.put_array(b.sphere_body);
  for (const auto* v : sphere_reals(b)) file.put_array(*v);
  file.put_array(b.sphere_shape);
  file.put_array(b.plane_body);
  put_records<PlaneFields, kPlaneBytes>(file, b.planes);
  file.put_array(b.box_body);
  put_records<BoxFields, kBoxBytes>(file, b.boxes);
  put_records<WarmFields, kWarmBytes>(file, c.warm_start);
  file.put(c.config_text.data(), c.config_text.size());
  file.commit();
}

TerrainCheckpoint read_checkpoint(const fs::path& path) {
  const std::string bytes = io::read_checkpoint_bytes(path);
  const std::size_t size = bytes.size();
  const std::size_t magic_bytes = std::min(size, sizeof kMagic);
  if (std::memcmp(bytes.data(), kMagic, magic_bytes) != 0)
    refuse(path, "not a trackcosim terrain checkpoint (it does not start with \"TCSMCKPT\")");
  auto truncated = [&](const std::string& expected) {
    refuse(path, "truncated checkpoint: expected " + expected + " bytes, found " + std::to_string(size));
  };
  const std::string minimum = "at least " + std::to_string(kHeaderEnd + kChecksumBytes);
  if (size < sizeof kMagic + sizeof kVersion) truncated(minimum);
  std::uint32_t version = 0;
  std::memcpy(&version, bytes.data() + sizeof kMagic, sizeof version);
  if (version != kVersion)
    refuse(path, "unsupported checkpoint format version " + std::to_string(version) + " (this build reads version " +
                     std::to_string(kVersion) + ")");
  if (size < kHeaderEnd + kChecksumBytes) truncated(minimum);
  Header h;
  std::memcpy(&h, bytes.data() + sizeof kMagic + sizeof kVersion, sizeof h);

  // Size and checksum first: a count is only believed once the bytes behind it are known good.
  const std::uint64_t expected = implied_size(h);
  const io::Checksums sums = io::checkpoint_checksums(bytes);
  if (!sums.match()) {
    if (size < expected) truncated(std::to_string(expected));
    refuse(path, "checkpoint checksum mismatch: stored " + std::to_string(sums.stored) + ", computed " +
                     std::to_string(sums.computed) + " (the file is damaged)");
  }
  if (h.header_bytes != sizeof(Header) || h.real_bytes != sizeof(real))
    refuse(path, "inconsistent checkpoint header: header size " + std::to_string(h.header_bytes) + " (expected " +
                     std::to_string(sizeof(Header)) + "), " + std::to_string(h.real_bytes) +
                     "-byte reals (this build uses " + std::to_string(sizeof(real)) + ")");
  if (size != expected)
    refuse(path, "inconsistent checkpoint counts: they need " +
                     (expected == std::numeric_limits<std::uint64_t>::max() ? std::string("more than 2^64")
                                                                            : std::to_string(expected)) +
                     " bytes, the file has " + std::to_string(size));

  TerrainCheckpoint c;
  c.step = h.step;
  c.time = h.time;
  gpu::BodySet raw;
  Sections in(bytes);
  in.get(raw.gid, h.bodies);
  for (auto* v : body_reals(raw)) in.get(*v, h.bodies);
  in.get(raw.motion, h.bodies);
  in.get(raw.sphere_body, h.spheres);
  for (auto* v : sphere_reals(raw)) in.get(*v, h.spheres);
  in.get(raw.sphere_shape, h.spheres);
  in.get(raw.plane_body, h.planes);
  in.get_records<PlaneFields, kPlaneBytes>(raw.planes, h.planes);
  in.get(raw.box_body, h.boxes);
  in.get_records<BoxFields, kBoxBytes>(raw.boxes, h.boxes);
  in.get_records<WarmFields, kWarmBytes>(c.warm_start, h.warm);
  c.config_text.assign(in.at(), h.config_bytes);
  c.bodies = rebuild(raw, path);
  return c;
}

}  // namespace trackcosim::terrain
