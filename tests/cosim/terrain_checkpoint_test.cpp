// The terrain checkpoint file (cosim/terrain_checkpoint.h): exact round trip of every body field,
// shape and warm-start impulse; atomic writing; and a clear error for each kind of bad file.

#include "cosim/terrain_checkpoint.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

namespace trackcosim::cosim {
namespace {

namespace fs = std::filesystem;

TerrainCheckpoint sample() {
  TerrainCheckpoint c;
  c.step = 1234;
  c.time = 1.234;
  c.config_text = R"({"end_time": 2})";
  gpu::BodySet& b = c.bodies;
  gpu::BodyDesc wall;
  wall.gid = 0;
  wall.motion = gpu::Motion::Fixed;
  wall.friction = 0.3;
  const std::uint32_t w = b.add_body(wall);
  b.add_plane(w, {0, 0, 0}, {0, 0, 1});
  b.add_box(w, {1, 2, 3}, {0.1, 0.2, 0.3}, {0.5, 0.5, 0.5, 0.5});
  for (int i = 0; i < 3; ++i) {
    gpu::BodyDesc s;
    s.gid = 10 + i;
    s.position = {0.1 * i, 1.0 / 3.0, 2e-17};
    s.velocity = {1e-300, -0.0, 3.14159};
    s.mass = 0.7 + i;
    s.inertia = {1e-4, 2e-4, 3e-4};
    s.applied_force = {1, 2, 3};
    b.add_sphere(b.add_body(s), {0, 0, 0}, 0.01 * (i + 1));
  }
  gpu::BodyDesc compound;
  compound.gid = 20;
  compound.orientation = {0.8, 0.6, 0, 0};
  const std::uint32_t k = b.add_body(compound);
  for (int i = 0; i < 3; ++i) b.add_sphere(k, {0.01 * i, -0.01 * i, 0}, 0.005);
  gpu::BodyDesc shoe;
  shoe.gid = 30;
  shoe.motion = gpu::Motion::Kinematic;
  shoe.velocity = {1, 0, 0};
  b.add_sphere(b.add_body(shoe), {0, 0, 0.02}, 0.015);
  c.warm_start = {{10, 11, 0, 0, {1e-3, -2e-4, 5e-5}}, {11, 20, 0, 2, {0, 0, 1}}};
  return c;
}

template <class T>
bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

fs::path temp_file(const std::string& name) {
  return fs::temp_directory_path() / ("trackcosim_ckpt_" + std::to_string(::getpid()) + "_" + name);
}

std::string error_of(const fs::path& path) {
  try {
    read_checkpoint(path);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(TerrainCheckpoint, RoundTripIsBitExactForEveryField) {
  const TerrainCheckpoint c = sample();
  const fs::path path = temp_file("round_trip.bin");
  write_checkpoint(path, c);
  EXPECT_FALSE(fs::exists(fs::path(path.string() + ".tmp")));
  const TerrainCheckpoint r = read_checkpoint(path);
  fs::remove(path);
  EXPECT_EQ(r.step, c.step);
  EXPECT_EQ(r.time, c.time);
  EXPECT_EQ(r.config_text, c.config_text);
  const gpu::BodySet &a = c.bodies, &b = r.bodies;
  EXPECT_TRUE(same_bytes(a.gid, b.gid));
  for (const auto member : {&gpu::BodySet::px, &gpu::BodySet::py, &gpu::BodySet::pz, &gpu::BodySet::qw,
                            &gpu::BodySet::qx, &gpu::BodySet::vx, &gpu::BodySet::vy, &gpu::BodySet::vz,
                            &gpu::BodySet::mass, &gpu::BodySet::ix, &gpu::BodySet::iz, &gpu::BodySet::friction,
                            &gpu::BodySet::fx, &gpu::BodySet::fz, &gpu::BodySet::sphere_ox, &gpu::BodySet::sphere_oy,
                            &gpu::BodySet::sphere_radius})
    EXPECT_TRUE(same_bytes(a.*member, b.*member));
  EXPECT_TRUE(same_bytes(a.motion, b.motion));
  EXPECT_TRUE(same_bytes(a.sphere_body, b.sphere_body));
  EXPECT_TRUE(same_bytes(a.sphere_shape, b.sphere_shape));
  EXPECT_TRUE(same_bytes(a.plane_body, b.plane_body));
  ASSERT_EQ(a.planes.size(), b.planes.size());
  ASSERT_EQ(a.boxes.size(), b.boxes.size());
  for (std::size_t i = 0; i < a.planes.size(); ++i) {  // field by field: padding bytes are not values
    EXPECT_EQ(a.planes[i].shape_index, b.planes[i].shape_index);
    EXPECT_TRUE(same_bytes(std::vector<Vec3>{a.planes[i].point, a.planes[i].normal},
                           std::vector<Vec3>{b.planes[i].point, b.planes[i].normal}));
  }
  for (std::size_t i = 0; i < a.boxes.size(); ++i) {
    EXPECT_EQ(a.boxes[i].shape_index, b.boxes[i].shape_index);
    EXPECT_TRUE(same_bytes(std::vector<Vec3>{a.boxes[i].center, a.boxes[i].half_extents},
                           std::vector<Vec3>{b.boxes[i].center, b.boxes[i].half_extents}));
    EXPECT_TRUE(same_bytes(std::vector<Quat>{a.boxes[i].orientation}, std::vector<Quat>{b.boxes[i].orientation}));
  }
  EXPECT_TRUE(same_bytes(c.warm_start, r.warm_start));
  // The rebuilt set continues to count shape indices where the original did.
  gpu::BodySet more = b;
  more.add_sphere(4, {0, 0, 0}, 0.001);
  EXPECT_EQ(more.sphere_shape.back(), 3u);
}

TEST(TerrainCheckpoint, BadFilesAreRefusedNamingThePathAndTheProblem) {
  const fs::path good = temp_file("good.bin");
  write_checkpoint(good, sample());
  std::string bytes;
  {
    std::ifstream in(good, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  auto write = [](const fs::path& p, const std::string& b) {
    std::ofstream(p, std::ios::binary).write(b.data(), static_cast<std::streamsize>(b.size()));
  };
  const fs::path bad = temp_file("bad.bin");

  std::string wrong_magic = bytes;
  wrong_magic[0] = 'X';
  write(bad, wrong_magic);
  EXPECT_NE(error_of(bad).find("not a trackcosim terrain checkpoint"), std::string::npos);
  EXPECT_NE(error_of(bad).find(bad.string()), std::string::npos);

  std::string newer = bytes;
  const std::uint32_t version = 99;
  std::memcpy(newer.data() + 8, &version, sizeof version);
  write(bad, newer);
  EXPECT_NE(error_of(bad).find("version 99"), std::string::npos) << error_of(bad);

  for (const std::size_t length : {std::size_t(10), std::size_t(40), bytes.size() / 2, bytes.size() - 1}) {
    write(bad, bytes.substr(0, length));
    const std::string e = error_of(bad);
    EXPECT_TRUE(e.find("truncated") != std::string::npos || e.find("does not match") != std::string::npos ||
                e.find("checksum") != std::string::npos)
        << "cut at " << length << ": " << e;
  }

  std::string flipped = bytes;
  flipped[bytes.size() / 2] ^= 0x10;
  write(bad, flipped);
  EXPECT_NE(error_of(bad).find("checksum"), std::string::npos) << error_of(bad);

  EXPECT_THROW(write_checkpoint(temp_file("no/such/folder/x.bin"), sample()), std::runtime_error);
  fs::remove(good);
  fs::remove(bad);
}

}  // namespace
}  // namespace trackcosim::cosim
