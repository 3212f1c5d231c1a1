#include "cosim/terrain_checkpoint.h"

#include <array>

#include <cstring>
#include <fstream>
#include <stdexcept>
#include <type_traits>

#include "cosim/body_set_copy.h"

namespace trackcosim::cosim {
namespace {

constexpr char kMagic[8] = {'T', 'C', 'S', 'M', 'C', 'K', 'P', 'T'};
constexpr std::uint32_t kVersion = 1;

static_assert(std::is_trivially_copyable_v<WarmStartEntry> && sizeof(WarmStartEntry) == 48);
static_assert(std::is_trivially_copyable_v<PlaneShape> && std::is_trivially_copyable_v<BoxShape>);
static_assert(sizeof(PlaneShape) == 16 + 6 * sizeof(real) && sizeof(BoxShape) == 16 + 10 * sizeof(real),
              "docs/checkpoint-format.md gives these record sizes");

/// Counts written after the magic and version.
struct Header {
  std::uint32_t header_bytes;
  std::uint32_t real_bytes;
  std::uint64_t bodies, spheres, planes, boxes, warm, config_bytes, step;
  double time;
};
static_assert(std::is_trivially_copyable_v<Header> && sizeof(Header) == 72);

std::uint64_t fnv1a(const std::string& bytes) {
  std::uint64_t h = 1469598103934665603ull;
  for (const char c : bytes) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return h;
}

class Writer {
 public:
  template <class T>
  void put(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    bytes.append(reinterpret_cast<const char*>(&value), sizeof value);
  }
  template <class T>
  void put(const std::vector<T>& values) {
    static_assert(std::is_trivially_copyable_v<T>);
    bytes.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
  }
  std::string bytes;
};

class Reader {
 public:
  Reader(const std::string& bytes, const std::filesystem::path& path) : bytes_(bytes), path_(path) {}
  template <class T>
  T get() {
    T value;
    take(&value, sizeof value);
    return value;
  }
  template <class T>
  std::vector<T> get(std::uint64_t count) {
    if (count > (bytes_.size() - at_) / sizeof(T)) truncated(count * sizeof(T));
    std::vector<T> values(count);
    take(values.data(), count * sizeof(T));
    return values;
  }
  std::size_t offset() const { return at_; }

 private:
  void take(void* out, std::size_t n) {
    if (n > bytes_.size() - at_) truncated(n);
    std::memcpy(out, bytes_.data() + at_, n);
    at_ += n;
  }
  [[noreturn]] void truncated(std::size_t wanted) const {
    throw std::runtime_error(path_.string() + ": truncated checkpoint: needs " + std::to_string(at_ + wanted) +
                             " bytes, the file has " + std::to_string(bytes_.size()));
  }
  const std::string& bytes_;
  const std::filesystem::path& path_;
  std::size_t at_ = 0;
};

/// Copies with zeroed padding, so that the file's bytes depend only on the values.
PlaneShape clean(const PlaneShape& p) {
  PlaneShape out;
  std::memset(&out, 0, sizeof out);
  out.body_gid = p.body_gid, out.shape_index = p.shape_index, out.point = p.point, out.normal = p.normal;
  return out;
}
BoxShape clean(const BoxShape& b) {
  BoxShape out;
  std::memset(&out, 0, sizeof out);
  out.body_gid = b.body_gid, out.shape_index = b.shape_index, out.center = b.center;
  out.half_extents = b.half_extents, out.orientation = b.orientation;
  return out;
}
template <class T>
std::vector<T> clean(const std::vector<T>& v) {
  std::vector<T> out;
  for (const T& x : v) out.push_back(clean(x));
  return out;
}

gpu::BodySet rebuild_body_set(const gpu::BodySet& raw, const std::filesystem::path& path) {
  for (std::size_t i = 1; i < raw.size(); ++i)
    if (!(raw.gid[i] > raw.gid[i - 1]))
      throw std::runtime_error(path.string() + ": inconsistent checkpoint: gids not increasing at body " +
                               std::to_string(i));
  for (const auto* owners : {&raw.sphere_body, &raw.plane_body, &raw.box_body})
    for (const std::uint32_t b : *owners)
      if (b >= raw.size())
        throw std::runtime_error(path.string() + ": inconsistent checkpoint: a shape on body " + std::to_string(b) +
                                 " of " + std::to_string(raw.size()));
  const SphereIndex index(raw);
  gpu::BodySet out;
  for (std::uint32_t i = 0; i < raw.size(); ++i) copy_body(raw, index, i, out);
  if (out.sphere_shape != raw.sphere_shape)
    throw std::runtime_error(path.string() + ": inconsistent checkpoint: sphere shape indices do not follow the "
                                             "order the shapes were added in");
  return out;
}

}  // namespace

void write_checkpoint(const std::filesystem::path& path, const TerrainCheckpoint& c) {
  const gpu::BodySet& b = c.bodies;
  Writer w;
  w.bytes.append(kMagic, sizeof kMagic);
  w.put(kVersion);
  w.put(Header{sizeof(Header), sizeof(real), b.size(), b.sphere_radius.size(), b.planes.size(), b.boxes.size(),
               c.warm_start.size(), c.config_text.size(), c.step, c.time});
  w.put(b.gid);
  for (const auto* v : {&b.px, &b.py, &b.pz, &b.qw, &b.qx, &b.qy, &b.qz, &b.vx, &b.vy, &b.vz, &b.wx, &b.wy, &b.wz,
                        &b.mass, &b.ix, &b.iy, &b.iz, &b.friction, &b.fx, &b.fy, &b.fz, &b.tx, &b.ty, &b.tz})
    w.put(*v);
  w.put(b.motion);
  w.put(b.sphere_body);
  for (const auto* v : {&b.sphere_ox, &b.sphere_oy, &b.sphere_oz, &b.sphere_radius}) w.put(*v);
  w.put(b.sphere_shape);
  w.put(b.plane_body);
  w.put(clean(b.planes));
  w.put(b.box_body);
  w.put(clean(b.boxes));
  w.put(c.warm_start);
  w.bytes.append(c.config_text);
  w.put(fnv1a(w.bytes));

  std::filesystem::path tmp = path;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error(tmp.string() + ": cannot write the checkpoint (does the folder exist?)");
    out.write(w.bytes.data(), static_cast<std::streamsize>(w.bytes.size()));
    out.flush();
    if (!out) throw std::runtime_error(tmp.string() + ": writing the checkpoint failed (disk full?)");
  }
  std::error_code error;
  std::filesystem::rename(tmp, path, error);
  if (error) throw std::runtime_error(path.string() + ": cannot rename the checkpoint into place: " + error.message());
}

TerrainCheckpoint read_checkpoint(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path.string() + ": cannot open the checkpoint");
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    throw std::runtime_error(path.string() + ": not a trackcosim terrain checkpoint (bad magic)");
  Reader r(bytes, path);
  r.get<std::array<char, 8>>();
  const auto version = r.get<std::uint32_t>();
  if (version != kVersion)
    throw std::runtime_error(path.string() + ": checkpoint format version " + std::to_string(version) +
                             ", this build reads version " + std::to_string(kVersion));
  const auto h = r.get<Header>();
  if (h.header_bytes != sizeof(Header) || h.real_bytes != sizeof(real))
    throw std::runtime_error(path.string() + ": inconsistent checkpoint header (written with " +
                             std::to_string(h.real_bytes) + "-byte reals?)");
  if (bytes.size() < sizeof(std::uint64_t)) throw std::runtime_error(path.string() + ": truncated checkpoint");
  std::uint64_t stored = 0;
  std::memcpy(&stored, bytes.data() + bytes.size() - sizeof stored, sizeof stored);

  TerrainCheckpoint c;
  c.step = h.step;
  c.time = h.time;
  gpu::BodySet raw;
  raw.gid = r.get<GlobalId>(h.bodies);
  for (auto* v : {&raw.px, &raw.py, &raw.pz, &raw.qw, &raw.qx, &raw.qy, &raw.qz, &raw.vx, &raw.vy, &raw.vz, &raw.wx,
                  &raw.wy, &raw.wz, &raw.mass, &raw.ix, &raw.iy, &raw.iz, &raw.friction, &raw.fx, &raw.fy, &raw.fz,
                  &raw.tx, &raw.ty, &raw.tz})
    *v = r.get<real>(h.bodies);
  raw.motion = r.get<gpu::Motion>(h.bodies);
  raw.sphere_body = r.get<std::uint32_t>(h.spheres);
  for (auto* v : {&raw.sphere_ox, &raw.sphere_oy, &raw.sphere_oz, &raw.sphere_radius}) *v = r.get<real>(h.spheres);
  raw.sphere_shape = r.get<ShapeIndex>(h.spheres);
  raw.plane_body = r.get<std::uint32_t>(h.planes);
  raw.planes = r.get<PlaneShape>(h.planes);
  raw.box_body = r.get<std::uint32_t>(h.boxes);
  raw.boxes = r.get<BoxShape>(h.boxes);
  c.warm_start = r.get<WarmStartEntry>(h.warm);
  const std::vector<char> text = r.get<char>(h.config_bytes);
  c.config_text.assign(text.begin(), text.end());
  if (r.offset() + sizeof stored != bytes.size())
    throw std::runtime_error(path.string() + ": checkpoint size " + std::to_string(bytes.size()) +
                             " bytes does not match its counts (" + std::to_string(r.offset() + sizeof stored) + ")");
  if (fnv1a(bytes.substr(0, bytes.size() - sizeof stored)) != stored)
    throw std::runtime_error(path.string() + ": checkpoint checksum mismatch (the file is damaged)");

  // Rebuild through the public calls so the body set's own bookkeeping (shape counters) holds;
  // shapes are re-added in shape-index order and must come out with their stored indices.
  c.bodies = rebuild_body_set(raw, path);
  return c;
}

}  // namespace trackcosim::cosim
