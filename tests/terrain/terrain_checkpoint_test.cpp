// The terrain checkpoint file (terrain_node/checkpoint/terrain_checkpoint.h, docs/checkpoint-format.md): bit-exact
// round trip of every field, shape indices and shape counters, warm starts and config text; the
// documented byte layout; atomic writing; and the documented error for each kind of bad file.

#include "terrain_node/checkpoint/terrain_checkpoint.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <string>

namespace trackcosim::terrain {
namespace {

namespace fs = std::filesystem;

// docs/checkpoint-format.md: header end, bytes per body / sphere / plane / box / warm entry.
constexpr std::size_t kHeaderEnd = 84, kBody = 201, kSphere = 40, kPlane = 4 + 64, kBox = 4 + 96, kWarm = 48;

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
// after all bodies, so that the sphere arrays are not in body order.
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
  c.warm_start = {{0, 5, 0, 0, {0, 0, 1e-3}}, {5, 6, 0, 0, {1e-3, -2e-4, 5e-5}}, {6, 20, 0, 2, {-0.0, 1e-310, 1}},
                  {20, 31, 1, 2, {1.0 / 3, 2.0 / 3, -1.0 / 3}}};
  return c;
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

/// The documented checksum, written out again here: FNV-1a 64 of every byte before the last 8.
void reseal(std::string& bytes) {
  std::uint64_t h = 14695981039346656037ull;
  for (std::size_t i = 0; i + 8 < bytes.size(); ++i) h = (h ^ static_cast<unsigned char>(bytes[i])) * 1099511628211ull;
  std::memcpy(bytes.data() + bytes.size() - 8, &h, 8);
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

TEST(TerrainCheckpoint, RoundTripIsBitExactForEveryField) {
  const TerrainCheckpoint c = sample();
  const fs::path path = temp_path("round_trip.bin");
  write_checkpoint(path, c);
  const TerrainCheckpoint r = read_checkpoint(path);
  fs::remove(path);
  EXPECT_EQ(r.step, c.step);
  EXPECT_TRUE(same_bits(r.time, c.time));
  EXPECT_EQ(r.config_text, c.config_text);
  expect_same_bodies(c.bodies, r.bodies);
  ASSERT_EQ(r.warm_start.size(), c.warm_start.size());
  for (std::size_t i = 0; i < c.warm_start.size(); ++i) EXPECT_TRUE(same_bits(r.warm_start[i], c.warm_start[i])) << i;
}

TEST(TerrainCheckpoint, EmptyCheckpointRoundTrips) {
  const fs::path path = temp_path("empty.bin");
  write_checkpoint(path, TerrainCheckpoint{});
  EXPECT_EQ(fs::file_size(path), kHeaderEnd + 8);
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
  for (std::uint32_t i = 0; i < original.size(); ++i) {
    original.add_sphere(i, {0, 0, 0}, 0.001);
    read.add_sphere(i, {0, 0, 0}, 0.001);
  }
  EXPECT_EQ(read.sphere_shape, original.sphere_shape);
  EXPECT_EQ(read.sphere_shape.back(), 4u);  // the kinematic body had 4 shapes
}

TEST_F(CheckpointFile, FileFollowsTheDocumentedLayout) {
  const TerrainCheckpoint c = sample();
  const gpu::BodySet& b = c.bodies;
  EXPECT_EQ(bytes.substr(0, 8), "TCSMCKPT");
  EXPECT_EQ(peek<std::uint32_t>(bytes, 8), 1u);    // version
  EXPECT_EQ(peek<std::uint32_t>(bytes, 12), 72u);  // header size from offset 12
  EXPECT_EQ(peek<std::uint32_t>(bytes, 16), 8u);   // bytes per real
  const std::uint64_t counts[] = {b.size(), b.sphere_body.size(), b.planes.size(), b.boxes.size(), c.warm_start.size(),
                                  c.config_text.size(), c.step};
  for (std::size_t i = 0; i < 7; ++i) EXPECT_EQ(peek<std::uint64_t>(bytes, 20 + 8 * i), counts[i]) << "count " << i;
  EXPECT_TRUE(same_bits(peek<double>(bytes, 76), c.time));
  EXPECT_EQ(peek<std::uint64_t>(bytes, kHeaderEnd + 8), b.gid[1]);
  EXPECT_TRUE(same_bits(peek<double>(bytes, kHeaderEnd + 8 * b.size() + 8 * 2), b.px[2]));
  EXPECT_EQ(bytes.size(), kHeaderEnd + kBody * b.size() + kSphere * b.sphere_body.size() + kPlane * b.planes.size() +
                              kBox * b.boxes.size() + kWarm * c.warm_start.size() + c.config_text.size() + 8);
  EXPECT_EQ(bytes.substr(bytes.size() - 8 - c.config_text.size(), c.config_text.size()), c.config_text);
  write_checkpoint(bad, c);  // the bytes depend only on the values (padding is written as zeros)
  EXPECT_EQ(file_bytes(bad), bytes);
}

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

TEST_F(CheckpointFile, WrongMagicIsNotACheckpoint) {
  std::string damaged = bytes;
  damaged[3] = 'X';
  const std::string e = error_with(damaged);
  EXPECT_NE(e.find("not a trackcosim terrain checkpoint"), std::string::npos) << e;
  EXPECT_NE(e.find(bad.string()), std::string::npos) << e;
  EXPECT_NE(error_with("{\"a json file\": 1}").find("not a trackcosim terrain checkpoint"), std::string::npos);
}

TEST_F(CheckpointFile, NewerVersionIsRefusedNamingFoundAndSupported) {
  std::string newer = bytes;
  poke<std::uint32_t>(newer, 8, 99);
  reseal(newer);
  const std::string e = error_with(newer);
  EXPECT_NE(e.find("unsupported checkpoint format version 99 (this build reads version 1)"), std::string::npos) << e;
  EXPECT_NE(e.find(bad.string()), std::string::npos) << e;
}

TEST_F(CheckpointFile, TruncatedFileReportsExpectedAndFoundBytes) {
  const std::size_t n = bytes.size();
  for (const std::size_t cut : {std::size_t(0), std::size_t(5), std::size_t(8), std::size_t(10), std::size_t(40),
                                kHeaderEnd - 1, kHeaderEnd, kHeaderEnd + 8, kHeaderEnd + 100, n / 2, n - 8, n - 1}) {
    const std::string e = error_with(bytes.substr(0, cut));
    EXPECT_NE(e.find("truncated checkpoint: expected "), std::string::npos) << "cut at " << cut << ": " << e;
    EXPECT_NE(e.find(" bytes, found " + std::to_string(cut)), std::string::npos) << "cut at " << cut << ": " << e;
    EXPECT_NE(e.find(bad.string()), std::string::npos) << e;
    if (cut >= kHeaderEnd + 8) {  // past the header the counts tell the full size
      EXPECT_NE(e.find("expected " + std::to_string(n) + " bytes"), std::string::npos) << "cut at " << cut << ": " << e;
    }
  }
}

TEST_F(CheckpointFile, FlippedByteIsAChecksumMismatch) {
  const std::size_t n = bytes.size();
  // time, step, first gid, middle, last config byte, the checksum itself
  for (const std::size_t at : {std::size_t(76), std::size_t(68), kHeaderEnd, n / 2, n - 9, n - 1}) {
    std::string damaged = bytes;
    damaged[at] ^= 0x10;
    const std::string e = error_with(damaged);
    EXPECT_NE(e.find("checkpoint checksum mismatch"), std::string::npos) << "byte " << at << ": " << e;
    EXPECT_NE(e.find(bad.string()), std::string::npos) << e;
  }
}

TEST_F(CheckpointFile, InconsistentCountsAndShapesAreRefused) {
  const TerrainCheckpoint c = sample();
  const std::size_t bodies = c.bodies.size(), spheres = c.bodies.sphere_body.size();
  const std::size_t motion_at = kHeaderEnd + 200 * bodies, sphere_body_at = motion_at + bodies;
  const std::size_t sphere_shape_at = sphere_body_at + 36 * spheres;
  auto refused = [&](const std::string& name, auto change, const std::string& expected) {
    std::string damaged = bytes;
    change(damaged);
    reseal(damaged);  // a well-sealed file whose contents disagree: a writer bug, not damage
    const std::string e = error_with(damaged);
    EXPECT_NE(e.find(expected), std::string::npos) << name << ": " << e;
    EXPECT_NE(e.find(bad.string()), std::string::npos) << name << ": " << e;
  };
  refused("one sphere more than stored", [](std::string& d) { poke<std::uint64_t>(d, 28, peek<std::uint64_t>(d, 28) + 1); },
          "inconsistent checkpoint counts");
  refused("sphere count 2^61", [](std::string& d) { poke<std::uint64_t>(d, 28, std::uint64_t(1) << 61); },
          "inconsistent checkpoint counts");
  refused("header size", [](std::string& d) { poke<std::uint32_t>(d, 12, 80); }, "inconsistent checkpoint header");
  refused("4-byte reals", [](std::string& d) { poke<std::uint32_t>(d, 16, 4); }, "inconsistent checkpoint header");
  // The compound's second sphere (sphere 4) claims shape index 2, which its body has not reached.
  refused("sphere shape index", [&](std::string& d) { poke<std::uint32_t>(d, sphere_shape_at + 4 * 4, 2); },
          "inconsistent checkpoint: shape indices");
  refused("sphere on a missing body", [&](std::string& d) { poke<std::uint32_t>(d, sphere_body_at, 99); },
          "inconsistent checkpoint: a shape on body 99");
  refused("gid order", [&](std::string& d) { poke<std::uint64_t>(d, kHeaderEnd + 8 * 2, 1); },
          "inconsistent checkpoint: gid 1 of body 2 does not increase");
  refused("motion code", [&](std::string& d) { d[motion_at] = 7; }, "inconsistent checkpoint: body 0 has motion code 7");
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
  EXPECT_EQ(size, kHeaderEnd + (kBody + kSphere) * kBodies + 8);
  EXPECT_TRUE(same_bits(r.bodies.gid, c.bodies.gid));
  EXPECT_TRUE(same_bits(r.bodies.pz, c.bodies.pz));
  EXPECT_TRUE(same_bits(r.bodies.vx, c.bodies.vx));
  EXPECT_TRUE(same_bits(r.bodies.sphere_body, c.bodies.sphere_body));
}

}  // namespace
}  // namespace trackcosim::terrain
