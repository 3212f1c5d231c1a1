// The terrain checkpoint file, format version 3 (terrain_node/checkpoint/terrain_checkpoint.h and
// checkpoint_slices.h, docs/checkpoint-format.md): bit-exact round trip of every field, shape
// indices and shape counters, warm starts and config text; the documented byte layout, found at
// the offsets the page's table gives and sealed with the checksum the page defines; atomic
// writing; and the documented refusal for each kind of bad file. Files with contents that
// disagree with themselves are made the way a buggy writer would make them: hand-made slices
// through write_checkpoint_slices, or bytes re-sealed with the format's own checksum terms.

#include "terrain_node/checkpoint/terrain_checkpoint.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <numeric>
#include <string>
#include <tuple>

#include "io/checkpoint_file.h"
#include "terrain_node/checkpoint/checkpoint_allowance.h"
#include "terrain_node/checkpoint/checkpoint_records.h"
#include "terrain_node/checkpoint/checkpoint_slices.h"

namespace trackcosim::terrain {
namespace {

namespace fs = std::filesystem;

// docs/checkpoint-format.md: header end, checksum, bytes per body / sphere / plane / box / warm entry.
constexpr std::size_t kHeaderEnd = 84, kChecksum = 8, kBody = 213, kSphere = 44, kPlane = 64, kBox = 96, kWarm = 72;
// Inside a body record: the 24 reals from byte 8, then motion, sphere count, first sphere.
constexpr std::size_t kBodyMotion = 200, kBodySphereCount = 201, kBodyFirstSphere = 205;

gpu::BodyDesc body(GlobalId gid, gpu::Motion motion) {
  gpu::BodyDesc d;  // every field distinct per body, with values whose bits a text format would lose
  const double g = static_cast<double>(gid);
  d.gid = gid;
  d.position = {g / 3.0, -g * 1e-17, std::numeric_limits<double>::denorm_min() * (g + 1)};
  d.orientation = {0.8, 0.6, -0.0, g * 1e-300};
  d.velocity = {1.0 / (g + 7), -0.0, 3.141592653589793 * g};
  d.angular_velocity = {g + 0.1, g + 0.2, -(g + 0.3) / 7};
  d.mass = 0.7 + g / 11;
  d.inertia = {1e-4 * (g + 1), 2e-4 / (g + 1), 3e-4 + g};
  d.motion = motion;
  d.friction = 0.3 + g / 1000;
  d.applied_force = {g / 9, 2.0, -3.0 / (g + 2)};
  d.applied_torque = {5e-310, g / 13, 1e308};
  return d;
}

// A fixed wall with a plane and a box, three dynamic single spheres, a compound of three spheres,
// a kinematic body whose shape kinds interleave (sphere, plane, sphere, box), and spheres added
// after all bodies, so that the set's sphere arrays are not in body order.
TerrainCheckpoint sample() {
  TerrainCheckpoint c;
  c.step = 123456789012ull;
  c.time = 1.0 / 3.0;
  c.config_text = std::string("{\"end_time\": 2, \"name\": \"s\xc3\xa9\"}\0tail", 40);
  gpu::BodySet& b = c.bodies;
  const std::uint32_t wall = b.add_body(body(0, gpu::Motion::Fixed));
  b.add_plane(wall, {0, 0, -0.5}, {0, 0, 1});
  b.add_box(wall, {1, 2, 3}, {0.1, 0.2, 0.3}, {0.5, 0.5, 0.5, 0.5});
  for (GlobalId gid = 5; gid < 8; ++gid) b.add_sphere(b.add_body(body(gid, gpu::Motion::Dynamic)), {0, 0, 0}, 0.01 * gid);
  const std::uint32_t compound = b.add_body(body(20, gpu::Motion::Dynamic));
  for (int i = 0; i < 3; ++i) b.add_sphere(compound, {0.01 * i, -0.01 * i, 1e-3 / 3}, 0.005 + 0.001 * i);
  const std::uint32_t shoe = b.add_body(body(31, gpu::Motion::Kinematic));
  b.add_sphere(shoe, {0, 0, 0.02}, 0.015);
  b.add_plane(shoe, {0, 0, -0.01}, {0, 0.6, 0.8});
  b.add_sphere(shoe, {0.01, 0, 0.02}, 0.015);
  b.add_box(shoe, {0, 0, 0}, {0.05, 0.02, 0.01}, {0.8, 0, 0.6, 0});
  b.add_sphere(1, {1e-3, 0, 0}, 0.002);  // body gid 5 gets its second shape last
  b.add_sphere(wall, {0, 0, 1}, 0.1);
  // Impulses and rolling impulses (the second without rolling resistance: zero).
  c.warm_start = {{0, 5, 2, 0, {0, 0, 1e-3}, {2e-4, -1e-4, 0}},
                  {5, 6, 0, 0, {1e-3, -2e-4, 5e-5}, {0, 0, 0}},
                  {6, 20, 0, 2, {-0.0, 1e-310, 1}, {-0.0, 5e-324, -1.0 / 7}},
                  {20, 31, 1, 2, {1.0 / 3, 2.0 / 3, -1.0 / 3}, {1e300, -3e-5, 0.1}}};
  return c;
}

/// The set's spheres in file order: by (body gid, shape index), as indices into the set's arrays.
std::vector<std::size_t> spheres_in_file_order(const gpu::BodySet& b) {
  std::vector<std::size_t> order(b.sphere_body.size());
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::sort(order.begin(), order.end(), [&](std::size_t l, std::size_t r) {
    return std::tuple(b.gid[b.sphere_body[l]], b.sphere_shape[l]) < std::tuple(b.gid[b.sphere_body[r]], b.sphere_shape[r]);
  });
  return order;
}

/// `b` with its spheres regrouped by body in shape-index order: what a reader gives back.
gpu::BodySet spheres_by_body(gpu::BodySet b) {
  const std::vector<std::size_t> order = spheres_in_file_order(b);
  auto permute = [&](auto& v) {
    auto copy = v;
    for (std::size_t k = 0; k < order.size(); ++k) v[k] = copy[order[k]];
  };
  permute(b.sphere_body), permute(b.sphere_shape), permute(b.sphere_ox), permute(b.sphere_oy), permute(b.sphere_oz);
  permute(b.sphere_radius);
  return b;
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}
template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

fs::path temp_path(const std::string& name) {
  return fs::temp_directory_path() / ("trackcosim_ckpt_" + std::to_string(::getpid()) + "_" + name);
}

std::string file_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}
void put_bytes(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string read_error(const fs::path& path) {
  try {
    read_checkpoint(path);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(no error)";
}

template <class T>
void poke(std::string& bytes, std::size_t offset, T value) {
  std::memcpy(bytes.data() + offset, &value, sizeof value);
}
template <class T>
T peek(const std::string& bytes, std::size_t offset) {
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof value);
  return value;
}

/// Where the page's layout table puts each part, from the counts in the header at offsets 20..67.
struct Layout {
  std::uint64_t bodies, spheres, planes, boxes, warm;  // counts B S P X W
  std::uint64_t config_at, bodies_at, spheres_at, planes_at, boxes_at, warm_at, checksum_at, size;
};
Layout layout_of(const std::string& bytes) {
  Layout l;
  l.bodies = peek<std::uint64_t>(bytes, 20), l.spheres = peek<std::uint64_t>(bytes, 28);
  l.planes = peek<std::uint64_t>(bytes, 36), l.boxes = peek<std::uint64_t>(bytes, 44);
  l.warm = peek<std::uint64_t>(bytes, 52);
  const std::uint64_t config = peek<std::uint64_t>(bytes, 60);
  l.config_at = kHeaderEnd;
  l.bodies_at = kHeaderEnd + config;
  l.spheres_at = l.bodies_at + kBody * l.bodies;
  l.planes_at = l.spheres_at + kSphere * l.spheres;
  l.boxes_at = l.planes_at + kPlane * l.planes;
  l.warm_at = l.boxes_at + kBox * l.boxes;
  l.checksum_at = l.warm_at + kWarm * l.warm;
  l.size = l.checksum_at + kChecksum;
  return l;
}

/// The page's checksum written out again from its definition: FNV-1a 64 of the header and the
/// config, XOR, for every record i (its index in its section s = 1 bodies .. 5 warm), of
/// splitmix64(FNV-1a(record) XOR splitmix64(s << 56 | i)).
std::uint64_t documented_checksum(const std::string& bytes) {
  auto fnv = [](const char* p, std::size_t n) {
    std::uint64_t h = 14695981039346656037ull;
    for (std::size_t i = 0; i < n; ++i) h = (h ^ static_cast<unsigned char>(p[i])) * 1099511628211ull;
    return h;
  };
  auto splitmix64 = [](std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
  };
  const Layout l = layout_of(bytes);
  std::uint64_t sum = fnv(bytes.data(), l.bodies_at);
  const std::tuple<std::uint64_t, std::uint64_t, std::uint64_t, std::size_t> sections[] = {
      {1, l.bodies_at, l.bodies, kBody},  {2, l.spheres_at, l.spheres, kSphere}, {3, l.planes_at, l.planes, kPlane},
      {4, l.boxes_at, l.boxes, kBox},     {5, l.warm_at, l.warm, kWarm}};
  for (const auto& [section, at, count, bytes_each] : sections)
    for (std::uint64_t i = 0; i < count; ++i)
      sum ^= splitmix64(fnv(bytes.data() + at + i * bytes_each, bytes_each) ^ splitmix64(section << 56 | i));
  return sum;
}

/// Seals tampered bytes again with the format's own checksum terms (io::Fnv1a, section_checksum),
/// so that only the reader's consistency checks stand between them and a restart.
void reseal(std::string& bytes) {
  const Layout l = layout_of(bytes);
  io::Fnv1a head;
  head.add(bytes.data(), l.bodies_at);
  const std::string_view all(bytes);
  std::uint64_t sum = head.value();
  sum ^= section_checksum(Section::Bodies, 0, all.substr(l.bodies_at, l.spheres_at - l.bodies_at), kBodyRecordBytes);
  sum ^= section_checksum(Section::Spheres, 0, all.substr(l.spheres_at, l.planes_at - l.spheres_at), kSphereRecordBytes);
  sum ^= section_checksum(Section::Planes, 0, all.substr(l.planes_at, l.boxes_at - l.planes_at), kPlaneRecordBytes);
  sum ^= section_checksum(Section::Boxes, 0, all.substr(l.boxes_at, l.warm_at - l.boxes_at), kBoxRecordBytes);
  sum ^= section_checksum(Section::Warm, 0, all.substr(l.warm_at, l.checksum_at - l.warm_at), kWarmRecordBytes);
  poke(bytes, l.checksum_at, sum);
}

/// A checkpoint as the one slice a single writer passes to write_checkpoint_slices.
CheckpointSlice slice_of(const TerrainCheckpoint& c) {
  CheckpointSlice s;
  s.step = c.step, s.time = c.time, s.config_text = c.config_text;
  std::vector<std::uint32_t> all(c.bodies.size());
  std::iota(all.begin(), all.end(), 0u);
  s.bodies = pack_bodies(c.bodies, all);
  sort_packed(s.bodies);
  std::vector<WarmStartEntry> warm = c.warm_start;
  std::sort(warm.begin(), warm.end(), [](const WarmStartEntry& l, const WarmStartEntry& r) {
    return std::tie(l.gid_a, l.gid_b, l.shape_a, l.shape_b) < std::tie(r.gid_a, r.gid_b, r.shape_a, r.shape_b);
  });
  s.warm = pack_warm(warm);
  return s;
}
void write_slice(const fs::path& path, CheckpointSlice slice) {
  const std::unique_ptr<CheckpointIo> io = open_checkpoint_alone(path, true);
  write_checkpoint_slices(*io, std::move(slice), path);
}

/// A written sample and its bytes; removes its files at the end.
struct CheckpointFile : ::testing::Test {
  void SetUp() override {
    write_checkpoint(good, sample());
    bytes = file_bytes(good);
  }
  void TearDown() override {
    fs::remove(good);
    fs::remove(bad);
  }
  std::string error_with(const std::string& damaged) {
    put_bytes(bad, damaged);
    return read_error(bad);
  }
  std::string error_with(CheckpointSlice slice) {
    write_slice(bad, std::move(slice));
    return read_error(bad);
  }
  const fs::path good = temp_path("good.bin"), bad = temp_path("bad.bin");
  std::string bytes;
};

void expect_same_bodies(const gpu::BodySet& a, const gpu::BodySet& b) {
#define TRACKCOSIM_EXPECT_SAME(field) EXPECT_TRUE(same_bits(a.field, b.field)) << #field
  TRACKCOSIM_EXPECT_SAME(gid);
  TRACKCOSIM_EXPECT_SAME(px); TRACKCOSIM_EXPECT_SAME(py); TRACKCOSIM_EXPECT_SAME(pz);
  TRACKCOSIM_EXPECT_SAME(qw); TRACKCOSIM_EXPECT_SAME(qx); TRACKCOSIM_EXPECT_SAME(qy); TRACKCOSIM_EXPECT_SAME(qz);
  TRACKCOSIM_EXPECT_SAME(vx); TRACKCOSIM_EXPECT_SAME(vy); TRACKCOSIM_EXPECT_SAME(vz);
  TRACKCOSIM_EXPECT_SAME(wx); TRACKCOSIM_EXPECT_SAME(wy); TRACKCOSIM_EXPECT_SAME(wz);
  TRACKCOSIM_EXPECT_SAME(mass); TRACKCOSIM_EXPECT_SAME(ix); TRACKCOSIM_EXPECT_SAME(iy); TRACKCOSIM_EXPECT_SAME(iz);
  TRACKCOSIM_EXPECT_SAME(motion); TRACKCOSIM_EXPECT_SAME(friction);
  TRACKCOSIM_EXPECT_SAME(fx); TRACKCOSIM_EXPECT_SAME(fy); TRACKCOSIM_EXPECT_SAME(fz);
  TRACKCOSIM_EXPECT_SAME(tx); TRACKCOSIM_EXPECT_SAME(ty); TRACKCOSIM_EXPECT_SAME(tz);
  TRACKCOSIM_EXPECT_SAME(sphere_body); TRACKCOSIM_EXPECT_SAME(sphere_shape);
  TRACKCOSIM_EXPECT_SAME(sphere_ox); TRACKCOSIM_EXPECT_SAME(sphere_oy); TRACKCOSIM_EXPECT_SAME(sphere_oz);
  TRACKCOSIM_EXPECT_SAME(sphere_radius); TRACKCOSIM_EXPECT_SAME(plane_body); TRACKCOSIM_EXPECT_SAME(box_body);
#undef TRACKCOSIM_EXPECT_SAME
  // Planes and boxes field by field: their padding bytes are not values.
  ASSERT_EQ(a.planes.size(), b.planes.size());
  for (std::size_t i = 0; i < a.planes.size(); ++i) {
    EXPECT_EQ(a.planes[i].body_gid, b.planes[i].body_gid) << "plane " << i;
    EXPECT_EQ(a.planes[i].shape_index, b.planes[i].shape_index) << "plane " << i;
    EXPECT_TRUE(same_bits(a.planes[i].point, b.planes[i].point) && same_bits(a.planes[i].normal, b.planes[i].normal));
  }
  ASSERT_EQ(a.boxes.size(), b.boxes.size());
  for (std::size_t i = 0; i < a.boxes.size(); ++i) {
    EXPECT_EQ(a.boxes[i].body_gid, b.boxes[i].body_gid) << "box " << i;
    EXPECT_EQ(a.boxes[i].shape_index, b.boxes[i].shape_index) << "box " << i;
    EXPECT_TRUE(same_bits(a.boxes[i].center, b.boxes[i].center) &&
                same_bits(a.boxes[i].half_extents, b.boxes[i].half_extents) &&
                same_bits(a.boxes[i].orientation, b.boxes[i].orientation))
        << "box " << i;
  }
}

// ---- round trip

TEST(TerrainCheckpoint, RoundTripIsBitExactForEveryField) {
  const TerrainCheckpoint c = sample();
  const fs::path path = temp_path("round_trip.bin");
  write_checkpoint(path, c);
  const TerrainCheckpoint r = read_checkpoint(path);
  fs::remove(path);
  EXPECT_EQ(r.step, c.step);
  EXPECT_TRUE(same_bits(r.time, c.time));
  EXPECT_EQ(r.config_text, c.config_text);  // NUL byte and UTF-8 included
  // The file holds spheres by (body gid, shape index): the reader gives each body's together.
  expect_same_bodies(spheres_by_body(c.bodies), r.bodies);
  ASSERT_EQ(r.warm_start.size(), c.warm_start.size());
  for (std::size_t i = 0; i < c.warm_start.size(); ++i) EXPECT_TRUE(same_bits(r.warm_start[i], c.warm_start[i])) << i;
}

TEST(TerrainCheckpoint, ASetInFileOrderComesBackIdenticalAndWritesTheSameBytesAgain) {
  TerrainCheckpoint c = sample();
  c.bodies = spheres_by_body(c.bodies);
  const fs::path first = temp_path("again_1.bin"), second = temp_path("again_2.bin");
  write_checkpoint(first, c);
  const TerrainCheckpoint r = read_checkpoint(first);
  expect_same_bodies(c.bodies, r.bodies);
  write_checkpoint(second, r);
  EXPECT_EQ(file_bytes(second), file_bytes(first));
  fs::remove(first);
  fs::remove(second);
}

TEST(TerrainCheckpoint, EmptyCheckpointRoundTrips) {
  const fs::path path = temp_path("empty.bin");
  write_checkpoint(path, TerrainCheckpoint{});
  EXPECT_EQ(fs::file_size(path), kHeaderEnd + kChecksum);
  const TerrainCheckpoint r = read_checkpoint(path);
  fs::remove(path);
  EXPECT_EQ(r.step, 0u);
  EXPECT_EQ(r.bodies.size(), 0u);
  EXPECT_TRUE(r.warm_start.empty() && r.config_text.empty());
}

TEST(TerrainCheckpoint, ReadBodySetCountsShapeIndicesOnWhereTheWrittenOneStopped) {
  const TerrainCheckpoint c = sample();
  const fs::path path = temp_path("counters.bin");
  write_checkpoint(path, c);
  gpu::BodySet read = read_checkpoint(path).bodies, original = c.bodies;
  fs::remove(path);
  const std::size_t before = original.sphere_shape.size();
  for (std::uint32_t i = 0; i < original.size(); ++i) {
    original.add_sphere(i, {0, 0, 0}, 0.001);
    read.add_sphere(i, {0, 0, 0}, 0.001);
  }
  const std::vector<ShapeIndex> added_original(original.sphere_shape.begin() + before, original.sphere_shape.end());
  const std::vector<ShapeIndex> added_read(read.sphere_shape.begin() + before, read.sphere_shape.end());
  EXPECT_EQ(added_read, added_original);
  EXPECT_EQ(added_read, (std::vector<ShapeIndex>{3, 2, 1, 1, 3, 4}));  // the kinematic body had 4 shapes
}

// ---- the documented layout

TEST_F(CheckpointFile, FileFollowsTheDocumentedLayout) {
  const TerrainCheckpoint c = sample();
  const gpu::BodySet& b = c.bodies;
  EXPECT_EQ(bytes.substr(0, 8), "TCSMCKPT");
  EXPECT_EQ(peek<std::uint32_t>(bytes, 8), 3u);    // version
  EXPECT_EQ(peek<std::uint32_t>(bytes, 12), 72u);  // header size from offset 12
  EXPECT_EQ(peek<std::uint32_t>(bytes, 16), 8u);   // bytes per real
  const std::uint64_t counts[] = {b.size(), b.sphere_body.size(), b.planes.size(), b.boxes.size(), c.warm_start.size(),
                                  c.config_text.size(), c.step};
  for (std::size_t i = 0; i < 7; ++i) EXPECT_EQ(peek<std::uint64_t>(bytes, 20 + 8 * i), counts[i]) << "count " << i;
  EXPECT_TRUE(same_bits(peek<double>(bytes, 76), c.time));

  const Layout l = layout_of(bytes);
  EXPECT_EQ(bytes.size(), l.size);
  EXPECT_EQ(bytes.size(), 92 + c.config_text.size() + kBody * b.size() + kSphere * b.sphere_body.size() +
                              kPlane * b.planes.size() + kBox * b.boxes.size() + kWarm * c.warm_start.size());
  EXPECT_EQ(bytes.substr(l.config_at, c.config_text.size()), c.config_text);

  // Bodies in gid order: gid, the 24 reals in the page's order, motion, sphere count, first sphere.
  const std::vector<const std::vector<real>*> reals = {
      &b.px, &b.py, &b.pz, &b.qw, &b.qx, &b.qy, &b.qz, &b.vx, &b.vy, &b.vz, &b.wx, &b.wy,
      &b.wz, &b.mass, &b.ix, &b.iy, &b.iz, &b.friction, &b.fx, &b.fy, &b.fz, &b.tx, &b.ty, &b.tz};
  std::uint64_t first_sphere = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    const std::size_t at = l.bodies_at + kBody * i;
    EXPECT_EQ(peek<std::uint64_t>(bytes, at), b.gid[i]) << "body " << i;
    for (std::size_t k = 0; k < reals.size(); ++k)
      EXPECT_TRUE(same_bits(peek<double>(bytes, at + 8 + 8 * k), (*reals[k])[i])) << "body " << i << " real " << k;
    EXPECT_EQ(peek<std::uint8_t>(bytes, at + kBodyMotion), static_cast<std::uint8_t>(b.motion[i])) << "body " << i;
    const auto spheres = static_cast<std::uint32_t>(std::count(b.sphere_body.begin(), b.sphere_body.end(), i));
    EXPECT_EQ(peek<std::uint32_t>(bytes, at + kBodySphereCount), spheres) << "body " << i;
    EXPECT_EQ(peek<std::uint64_t>(bytes, at + kBodyFirstSphere), first_sphere) << "body " << i;
    first_sphere += spheres;
  }
  // Spheres by (body gid, shape index): body gid, shape index, offset x y z, radius.
  const std::vector<std::size_t> order = spheres_in_file_order(b);
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::size_t at = l.spheres_at + kSphere * k, s = order[k];
    EXPECT_EQ(peek<std::uint64_t>(bytes, at), b.gid[b.sphere_body[s]]) << "sphere " << k;
    EXPECT_EQ(peek<std::uint32_t>(bytes, at + 8), b.sphere_shape[s]) << "sphere " << k;
    const real values[] = {b.sphere_ox[s], b.sphere_oy[s], b.sphere_oz[s], b.sphere_radius[s]};
    for (std::size_t j = 0; j < 4; ++j) EXPECT_TRUE(same_bits(peek<double>(bytes, at + 12 + 8 * j), values[j])) << k;
  }
  // Planes and boxes (already in (gid, shape index) order here): gid, shape index, 4 zero bytes, geometry.
  for (std::size_t p = 0; p < b.planes.size(); ++p) {
    const std::size_t at = l.planes_at + kPlane * p;
    EXPECT_EQ(peek<std::uint64_t>(bytes, at), b.planes[p].body_gid) << "plane " << p;
    EXPECT_EQ(peek<std::uint32_t>(bytes, at + 8), b.planes[p].shape_index) << "plane " << p;
    EXPECT_EQ(peek<std::uint32_t>(bytes, at + 12), 0u) << "plane " << p;
    EXPECT_TRUE(same_bits(peek<Vec3>(bytes, at + 16), b.planes[p].point)) << "plane " << p;
    EXPECT_TRUE(same_bits(peek<Vec3>(bytes, at + 40), b.planes[p].normal)) << "plane " << p;
  }
  for (std::size_t x = 0; x < b.boxes.size(); ++x) {
    const std::size_t at = l.boxes_at + kBox * x;
    EXPECT_EQ(peek<std::uint64_t>(bytes, at), b.boxes[x].body_gid) << "box " << x;
    EXPECT_EQ(peek<std::uint32_t>(bytes, at + 8), b.boxes[x].shape_index) << "box " << x;
    EXPECT_EQ(peek<std::uint32_t>(bytes, at + 12), 0u) << "box " << x;
    EXPECT_TRUE(same_bits(peek<Vec3>(bytes, at + 16), b.boxes[x].center)) << "box " << x;
    EXPECT_TRUE(same_bits(peek<Vec3>(bytes, at + 40), b.boxes[x].half_extents)) << "box " << x;
    EXPECT_TRUE(same_bits(peek<Quat>(bytes, at + 64), b.boxes[x].orientation)) << "box " << x;
  }
  // Warm-start entries (sorted by key already): gid A, gid B, shape A, shape B, impulse on B,
  // rolling impulse on B.
  for (std::size_t w = 0; w < c.warm_start.size(); ++w) {
    const std::size_t at = l.warm_at + kWarm * w;
    const WarmStartEntry& e = c.warm_start[w];
    EXPECT_EQ(peek<std::uint64_t>(bytes, at), e.gid_a) << "warm " << w;
    EXPECT_EQ(peek<std::uint64_t>(bytes, at + 8), e.gid_b) << "warm " << w;
    EXPECT_EQ(peek<std::uint32_t>(bytes, at + 16), e.shape_a) << "warm " << w;
    EXPECT_EQ(peek<std::uint32_t>(bytes, at + 20), e.shape_b) << "warm " << w;
    EXPECT_TRUE(same_bits(peek<Vec3>(bytes, at + 24), e.impulse_on_b)) << "warm " << w;
    EXPECT_TRUE(same_bits(peek<Vec3>(bytes, at + 48), e.rolling_on_b)) << "warm " << w;
  }
  EXPECT_EQ(peek<std::uint64_t>(bytes, l.checksum_at), documented_checksum(bytes));

  write_checkpoint(bad, c);  // the bytes depend only on the values (padding is written as zeros)
  EXPECT_EQ(file_bytes(bad), bytes);
}

TEST_F(CheckpointFile, ShuffledInputGivesTheSameFile) {
  // The writer sorts what it is given (spheres by body, warm-start entries by key): the file
  // depends on the state, not on the order a rank happened to hold it in.
  TerrainCheckpoint c = sample();
  std::reverse(c.warm_start.begin(), c.warm_start.end());
  c.bodies = spheres_by_body(c.bodies);
  write_checkpoint(bad, c);
  EXPECT_EQ(file_bytes(bad), bytes);
}

// ---- atomic writing

TEST_F(CheckpointFile, WriteLeavesNoTmpFileAndReplacesAnOldCheckpoint) {
  const fs::path tmp = good.string() + ".tmp";
  EXPECT_FALSE(fs::exists(tmp));
  put_bytes(tmp, "left over from a crash");
  TerrainCheckpoint later = sample();
  later.step += 1;
  write_checkpoint(good, later);
  EXPECT_FALSE(fs::exists(tmp));
  EXPECT_EQ(read_checkpoint(good).step, later.step);
}

TEST_F(CheckpointFile, FailedWriteKeepsTheOldCheckpoint) {
  const fs::path tmp = good.string() + ".tmp";
  fs::create_directory(tmp);  // the temporary file cannot be created
  TerrainCheckpoint later = sample();
  later.step += 1;
  try {
    write_checkpoint(good, later);
    ADD_FAILURE() << "writing over a folder named like the temporary file did not throw";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot write checkpoint " + good.string()), std::string::npos) << e.what();
  }
  fs::remove(tmp);
  EXPECT_EQ(file_bytes(good), bytes);

  TerrainCheckpoint uneven = sample();  // refused before any file is touched
  uneven.bodies.vx.pop_back();
  EXPECT_THROW(write_checkpoint(good, uneven), std::invalid_argument);
  EXPECT_EQ(file_bytes(good), bytes);
  EXPECT_FALSE(fs::exists(tmp));
}

TEST(TerrainCheckpoint, MissingFileAndMissingFolderAreNamed) {
  const fs::path missing = temp_path("never_written.bin");
  const std::string e = read_error(missing);
  EXPECT_NE(e.find("checkpoint " + missing.string() + ": cannot open"), std::string::npos) << e;

  const fs::path folder = temp_path("no_such_folder");
  try {
    write_checkpoint(folder / "checkpoint.bin", sample());
    ADD_FAILURE() << "writing into a missing folder did not throw";
  } catch (const std::runtime_error& error) {
    const std::string w = error.what();
    EXPECT_NE(w.find("folder " + folder.string() + " does not exist"), std::string::npos) << w;
  }
  EXPECT_FALSE(fs::exists(folder));
}

// ---- refusals, in the reader's order

TEST_F(CheckpointFile, WrongMagicIsNotACheckpoint) {
  std::string damaged = bytes;
  damaged[3] = 'X';
  const std::string e = error_with(damaged);
  EXPECT_NE(e.find("not a trackcosim terrain checkpoint"), std::string::npos) << e;
  EXPECT_NE(e.find(bad.string()), std::string::npos) << e;
  EXPECT_NE(error_with(std::string("{\"a json file\": 1}")).find("not a trackcosim terrain checkpoint"),
            std::string::npos);
}

TEST_F(CheckpointFile, NewerVersionIsRefusedNamingFoundAndSupported) {
  std::string newer = bytes;
  poke<std::uint32_t>(newer, 8, 99);
  reseal(newer);
  const std::string e = error_with(newer);
  EXPECT_NE(e.find("unsupported checkpoint format version 99 (this build reads versions 2 and 3)"), std::string::npos) << e;
  EXPECT_NE(e.find(bad.string()), std::string::npos) << e;
}

TEST_F(CheckpointFile, VersionOneFileHasItsOwnRefusal) {
  // A version 1 file starts like this one; whatever follows, its version alone decides.
  std::string old = bytes;
  poke<std::uint32_t>(old, 8, 1);
  for (const std::string& file : {old, old.substr(0, 12), old.substr(0, 92)}) {
    const std::string e = error_with(file);
    EXPECT_NE(e.find("checkpoint " + bad.string() + ": checkpoint format version 1 "), std::string::npos) << e;
    EXPECT_NE(e.find("which reads versions 2 and 3"), std::string::npos) << e;
    EXPECT_NE(e.find("rerun the case"), std::string::npos) << e;
  }
}

TEST_F(CheckpointFile, TruncatedFileReportsExpectedAndFoundBytes) {
  const std::size_t n = bytes.size(), config_end = kHeaderEnd + sample().config_text.size();
  for (const std::size_t cut : {std::size_t(0), std::size_t(5), std::size_t(8), std::size_t(10), std::size_t(40),
                                kHeaderEnd - 1, kHeaderEnd, kHeaderEnd + 7, kHeaderEnd + 8, config_end,
                                config_end + kBody + 3, n / 2, n - kChecksum - kWarm, n - 8, n - 1}) {
    const std::string e = error_with(bytes.substr(0, cut));
    EXPECT_NE(e.find("truncated checkpoint: expected "), std::string::npos) << "cut at " << cut << ": " << e;
    EXPECT_NE(e.find(" bytes, found " + std::to_string(cut)), std::string::npos) << "cut at " << cut << ": " << e;
    EXPECT_NE(e.find(bad.string()), std::string::npos) << e;
    // Past the header and checksum's 92 bytes the counts tell the full size.
    const std::string expected = cut >= kHeaderEnd + kChecksum ? std::to_string(n) : "at least 92";
    EXPECT_NE(e.find("expected " + expected + " bytes"), std::string::npos) << "cut at " << cut << ": " << e;
  }
}

TEST_F(CheckpointFile, FlippedByteAnywhereIsAChecksumMismatch) {
  // Every byte the checksum covers, from the step (offset 68) to the checksum itself; the magic,
  // the version and the sizes and counts before it have their own refusals (tested below).
  const Layout l = layout_of(bytes);
  auto part = [&](std::size_t at) -> std::string {
    if (at < l.config_at) return "header";
    if (at < l.bodies_at) return "config text";
    if (at < l.spheres_at) return "body " + std::to_string((at - l.bodies_at) / kBody);
    if (at < l.planes_at) return "sphere " + std::to_string((at - l.spheres_at) / kSphere);
    if (at < l.boxes_at) return "plane " + std::to_string((at - l.planes_at) / kPlane);
    if (at < l.warm_at) return "box " + std::to_string((at - l.boxes_at) / kBox);
    if (at < l.checksum_at) return "warm-start entry " + std::to_string((at - l.warm_at) / kWarm);
    return "checksum";
  };
  std::size_t tried = 0;
  for (std::size_t at = 68; at < bytes.size(); ++at)
    for (const unsigned char mask : {0x01, 0x80}) {
      std::string damaged = bytes;
      damaged[at] = static_cast<char>(damaged[at] ^ mask);
      const std::string e = error_with(damaged);
      ASSERT_NE(e.find(bad.string() + ": checkpoint checksum mismatch: stored "), std::string::npos)
          << "byte " << at << " (" << part(at) << "), mask " << int(mask) << ": " << e;
      ++tried;
    }
  EXPECT_EQ(tried, 2 * (bytes.size() - 68));
  EXPECT_LT(l.config_at, l.bodies_at);  // the loop went through config, bodies, spheres, ... warm
  EXPECT_TRUE(l.spheres > 0 && l.planes > 0 && l.boxes > 0 && l.warm > 0);
}

TEST_F(CheckpointFile, InconsistentHeaderAndCountsAreRefused) {
  auto refused = [&](const std::string& name, auto change, const std::string& expected) {
    std::string damaged = bytes;
    change(damaged);
    const std::string e = error_with(damaged);
    EXPECT_NE(e.find(bad.string() + ": " + expected), std::string::npos) << name << ": " << e;
  };
  // Header fields are sealed with the rest: re-sealed, they are what a writer bug would give.
  refused("header size", [](std::string& d) { poke<std::uint32_t>(d, 12, 80), reseal(d); },
          "inconsistent checkpoint header: header size 80 (expected 72), 8-byte reals");
  refused("4-byte reals", [](std::string& d) { poke<std::uint32_t>(d, 16, 4), reseal(d); },
          "inconsistent checkpoint header: header size 72 (expected 72), 4-byte reals (this build uses 8)");
  // The counts locate the checksum, so the size is checked against them before the checksum.
  const std::string n = std::to_string(bytes.size());
  refused("one sphere more than stored", [](std::string& d) { poke<std::uint64_t>(d, 28, peek<std::uint64_t>(d, 28) + 1); },
          "truncated checkpoint: expected " + std::to_string(bytes.size() + kSphere) + " bytes, found " + n);
  refused("one sphere fewer than stored", [](std::string& d) { poke<std::uint64_t>(d, 28, peek<std::uint64_t>(d, 28) - 1); },
          "inconsistent checkpoint counts: they need " + std::to_string(bytes.size() - kSphere) +
              " bytes, the file has " + n);
  refused("one config byte fewer", [](std::string& d) { poke<std::uint64_t>(d, 60, peek<std::uint64_t>(d, 60) - 1); },
          "inconsistent checkpoint counts");
  refused("sphere count 2^61", [](std::string& d) { poke<std::uint64_t>(d, 28, std::uint64_t(1) << 61); },
          "truncated checkpoint: expected more than 2^64 bytes, found " + n);
}

// Well-sealed files whose records disagree with themselves: what a writer bug would leave. Each
// is the sample's slice with one record changed, written by write_checkpoint_slices (which seals
// whatever it is given), or, where that writer sets the field itself, re-sealed bytes.
TEST_F(CheckpointFile, InconsistentRecordsAreRefused) {
  const CheckpointSlice good_slice = slice_of(sample());
  auto refused = [&](const std::string& name, auto change, const std::string& expected) {
    CheckpointSlice s = good_slice;
    change(s);
    const std::string e = error_with(std::move(s));
    EXPECT_NE(e.find("checkpoint " + bad.string() + ": inconsistent checkpoint: " + expected), std::string::npos)
        << name << ": " << e;
  };
  // Records in file order: bodies 0 5 6 7 20 31; spheres (0,2) (5,0) (5,1) (6,0) (7,0) (20,0..2) (31,0) (31,2).
  auto sphere_at = [](std::size_t k, std::size_t field) { return k * kSphere + field; };
  // The compound's second sphere claims shape index 2, which its body has not reached.
  refused("sphere shape index", [&](CheckpointSlice& s) { poke<std::uint32_t>(s.bodies.spheres, sphere_at(6, 8), 2); },
          "shape indices are not the order add_sphere/add_plane/add_box gives");
  refused("sphere on a missing body", [&](CheckpointSlice& s) { poke<GlobalId>(s.bodies.spheres, sphere_at(3, 0), 99); },
          "a sphere on body gid 99, which is not there");
  refused("plane on a missing body", [](CheckpointSlice& s) { poke<GlobalId>(s.bodies.planes, kPlane, 99); },
          "1 planes or boxes name a body the file does not hold");
  refused("box on a missing body", [](CheckpointSlice& s) { poke<GlobalId>(s.bodies.boxes, 0, 99); },
          "1 planes or boxes name a body the file does not hold");
  refused("motion code", [](CheckpointSlice& s) { s.bodies.bodies[kBodyMotion] = 7; },
          "body gid 0 has motion code 7");
  refused("more spheres counted than stored",
          [](CheckpointSlice& s) { poke<std::uint32_t>(s.bodies.bodies, 4 * kBody + kBodySphereCount, 4); },
          "body gid 31 has spheres past the file's 10");
  refused("warm-start order", [](CheckpointSlice& s) { std::swap_ranges(s.warm.begin(), s.warm.begin() + kWarm, s.warm.begin() + kWarm); },
          "warm-start entries are not in strictly increasing key order");
  refused("warm-start gid A not below gid B", [](CheckpointSlice& s) { poke<GlobalId>(s.warm, 8, 0); },
          "a warm-start entry has gid A 0 >= gid B 0");

  // Bodies out of gid order (bodies without shapes, so that no shape looks its body up first).
  CheckpointSlice unordered;
  gpu::BodySet two;
  two.add_body(body(2, gpu::Motion::Dynamic));
  two.add_body(body(3, gpu::Motion::Dynamic));
  unordered.bodies = pack_bodies(two, std::vector<std::uint32_t>{1, 0});  // not sorted: gids 3, 2
  EXPECT_NE(error_with(unordered).find("inconsistent checkpoint: gid 2 of body 1 does not increase"), std::string::npos)
      << error_with(unordered);

  // Sphere numbering: write_checkpoint_slices numbers the spheres itself, so change the bytes.
  std::string renumbered = bytes;
  const Layout l = layout_of(renumbered);
  poke<std::uint64_t>(renumbered, l.bodies_at + 2 * kBody + kBodyFirstSphere, 4);
  reseal(renumbered);
  const std::string e = error_with(renumbered);
  EXPECT_NE(e.find("inconsistent checkpoint: body gid 6 starts at sphere 4, the body before it ends at 3"),
            std::string::npos) << e;
}

// ---- size and speed

TEST(TerrainCheckpoint, MillionSingleSphereBodiesRoundTrip) {
  constexpr std::size_t kBodies = 1'000'000;
  TerrainCheckpoint c;
  for (std::size_t i = 0; i < kBodies; ++i) {
    gpu::BodyDesc d;
    d.gid = 2 * i + 1;
    d.position = {0.01 * static_cast<double>(i % 100), 0.01 * static_cast<double>(i / 100 % 100), 0.01 * i / 1e4};
    d.velocity = {1e-3 / (i + 1), 0, -1e-2};
    c.bodies.add_sphere(c.bodies.add_body(d), {0, 0, 0}, 0.005);
  }
  const fs::path path = temp_path("million.bin");
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  write_checkpoint(path, c);
  const auto t1 = Clock::now();
  const TerrainCheckpoint r = read_checkpoint(path);
  const auto t2 = Clock::now();
  const std::uintmax_t size = fs::file_size(path);
  fs::remove(path);
  const auto seconds = [](auto d) { return std::chrono::duration<double>(d).count(); };
  std::cout << "10^6 bodies: write " << seconds(t1 - t0) << " s, read " << seconds(t2 - t1) << " s, " << size
            << " bytes\n";
  RecordProperty("write_s", std::to_string(seconds(t1 - t0)));
  RecordProperty("read_s", std::to_string(seconds(t2 - t1)));
  EXPECT_EQ(size, kHeaderEnd + kChecksum + (kBody + kSphere) * kBodies);
  EXPECT_TRUE(same_bits(r.bodies.gid, c.bodies.gid));
  EXPECT_TRUE(same_bits(r.bodies.pz, c.bodies.pz));
  EXPECT_TRUE(same_bits(r.bodies.vx, c.bodies.vx));
  EXPECT_TRUE(same_bits(r.bodies.sphere_body, c.bodies.sphere_body));
}

// A checkpoint is watched with an allowance (checkpoint_allowance.h): before anything was timed,
// the file's size at a slow file system's pace (1 KiB per body at 10 MB/s); then 10 times the
// slowest step or checkpoint, whichever is the longest of the three.
TEST(CheckpointAllowance, GrowsWithTheBedAndTheSlowestStepOrCheckpoint) {
  EXPECT_DOUBLE_EQ(checkpoint_allowance(0, 0, 1'000'000), 102.4);  // 10^6 bodies: 1.024 GB at 10 MB/s
  EXPECT_DOUBLE_EQ(checkpoint_allowance(0, 0, 0), 0);
  EXPECT_DOUBLE_EQ(checkpoint_allowance(2.5, 0, 1000), 25);     // a slow step outweighs a small bed
  EXPECT_DOUBLE_EQ(checkpoint_allowance(2.5, 30, 1000), 300);   // and a slow checkpoint both
  EXPECT_DOUBLE_EQ(checkpoint_allowance(0.01, 0.02, 1'000'000), 102.4);
}

}  // namespace
}  // namespace trackcosim::terrain
