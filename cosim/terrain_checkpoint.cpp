// Writing and reading the terrain checkpoint (layout: docs/checkpoint-format.md).
//
// The file is the BodySet's vectors one after another, so writing is a few large writes and
// reading a few large copies; 10^6 bodies take well under a second each way. Only planes, boxes
// and warm-start entries are packed field by field, from one field list per record, so that the
// layout never depends on the compiler's struct padding. The reader trusts no count before it
// has checked the file's size and checksum, and it rebuilds the BodySet through its public calls
// so that the set's private shape counters continue exactly where the writer's did.

#include "cosim/terrain_checkpoint.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <system_error>
#include <type_traits>
#include <utility>

#include "cosim/body_set_copy.h"
#include "cosim/output_file.h"

namespace trackcosim::cosim {
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

class Fnv1a {
 public:
  void add(const char* data, std::size_t n) {
    std::uint64_t h = hash_;
    for (std::size_t i = 0; i < n; ++i) h = (h ^ static_cast<unsigned char>(data[i])) * 1099511628211ull;
    hash_ = h;
  }
  std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 14695981039346656037ull;
};

std::string system_reason(int error) { return std::generic_category().message(error); }

/// "<path>.tmp", open for writing; every byte passes through the checksum. The destructor removes
/// the file again unless commit() renamed it into place.
class TmpFile {
 public:
  explicit TmpFile(const fs::path& path) : path_(path), tmp_(path.string() + ".tmp") {
    fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) {
      const int error = errno;
      if (!path_.parent_path().empty() && !fs::is_directory(path_.parent_path()))
        throw OutputError("cannot write checkpoint " + path_.string() + ": folder " + path_.parent_path().string() +
                          " does not exist");
      fail("cannot create " + tmp_.string(), error);
    }
    buffer_.reserve(kBufferBytes);
  }
  TmpFile(const TmpFile&) = delete;
  TmpFile& operator=(const TmpFile&) = delete;
  ~TmpFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_) ::unlink(tmp_.c_str());
  }

  void put(const char* data, std::size_t n) {
    hash_.add(data, n);
    if (n > kBufferBytes - buffer_.size()) flush();
    if (n >= kBufferBytes) return write_all(data, n);
    buffer_.insert(buffer_.end(), data, data + n);
  }
  template <class T>
  void put_value(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    put(reinterpret_cast<const char*>(&v), sizeof v);
  }
  template <class T>
  void put_array(const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    put(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
  }
  template <class Fields, std::size_t N, class Record>
  void put_records(const std::vector<Record>& records) {
    for (const Record& r : records) {
      std::array<char, N> bytes;
      PackTo to{bytes.data()};
      Fields::visit(to, r);
      put(bytes.data(), N);
    }
  }

  /// Appends the checksum, fsyncs and renames over the real name, then fsyncs the folder so the
  /// rename itself survives a crash (best effort: some file systems refuse a folder fsync).
  void commit() {
    const std::uint64_t checksum = hash_.value();
    buffer_.insert(buffer_.end(), reinterpret_cast<const char*>(&checksum),
                   reinterpret_cast<const char*>(&checksum) + sizeof checksum);
    flush();
    if (::fsync(fd_) != 0) fail("fsync of " + tmp_.string() + " failed", errno);
    const int fd = std::exchange(fd_, -1);
    if (::close(fd) != 0) fail("closing " + tmp_.string() + " failed", errno);
    if (::rename(tmp_.c_str(), path_.c_str()) != 0) fail("cannot rename " + tmp_.string() + " into place", errno);
    committed_ = true;
    const fs::path folder = path_.parent_path().empty() ? fs::path(".") : path_.parent_path();
    if (const int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dir >= 0) {
      ::fsync(dir);
      ::close(dir);
    }
  }

 private:
  static constexpr std::size_t kBufferBytes = std::size_t(1) << 20;

  void flush() {
    write_all(buffer_.data(), buffer_.size());
    buffer_.clear();
  }
  void write_all(const char* data, std::size_t n) {
    while (n > 0) {
      const ssize_t written = ::write(fd_, data, n);
      if (written < 0 && errno == EINTR) continue;
      if (written <= 0) fail("writing " + tmp_.string() + " failed", written < 0 ? errno : ENOSPC);
      data += written, n -= static_cast<std::size_t>(written);
    }
  }
  [[noreturn]] void fail(const std::string& what, int error) const {
    throw OutputError("cannot write checkpoint " + path_.string() + ": " + what + ": " + system_reason(error));
  }

  fs::path path_, tmp_;
  int fd_ = -1;
  bool committed_ = false;
  std::vector<char> buffer_;
  Fnv1a hash_;
};

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

std::string read_file(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) refuse(path, "cannot open: " + system_reason(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat info {};
  if (::fstat(fd, &info) != 0) refuse(path, "cannot read: " + system_reason(errno));
  std::string bytes(static_cast<std::size_t>(info.st_size), '\0');
  std::size_t got = 0;
  while (got < bytes.size()) {
    const ssize_t n = ::read(fd, bytes.data() + got, bytes.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) refuse(path, "cannot read: " + system_reason(errno));
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  bytes.resize(got);
  return bytes;
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
  TmpFile file(path);
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
  file.put_records<PlaneFields, kPlaneBytes>(b.planes);
  file.put_array(b.box_body);
  file.put_records<BoxFields, kBoxBytes>(b.boxes);
  file.put_records<WarmFields, kWarmBytes>(c.warm_start);
  file.put(c.config_text.data(), c.config_text.size());
  file.commit();
}

TerrainCheckpoint read_checkpoint(const fs::path& path) {
  const std::string bytes = read_file(path);
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
  Fnv1a hash;
  hash.add(bytes.data(), size - kChecksumBytes);
  std::uint64_t stored = 0;
  std::memcpy(&stored, bytes.data() + size - kChecksumBytes, sizeof stored);
  if (hash.value() != stored) {
    if (size < expected) truncated(std::to_string(expected));
    refuse(path, "checkpoint checksum mismatch: stored " + std::to_string(stored) + ", computed " +
                     std::to_string(hash.value()) + " (the file is damaged)");
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

}  // namespace trackcosim::cosim
