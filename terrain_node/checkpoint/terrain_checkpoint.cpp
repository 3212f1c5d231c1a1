// A whole checkpoint in one process: the version 3 file (checkpoint_slices.h) written and read
// as a single slice, for tests, tools and benchmarks. The terrain program itself writes and reads
// it in slices over its ranks (DistributedTerrain::write_checkpoint, read_checkpoint_share).

#include "terrain_node/checkpoint/terrain_checkpoint.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <tuple>

#include "terrain_node/checkpoint/checkpoint_slices.h"

namespace trackcosim::terrain {
namespace {

namespace fs = std::filesystem;

/// A BodySet whose vectors disagree in length would be written as a file no reader accepts.
void check_lengths(const gpu::BodySet& b) {
  auto expect = [&](const char* name, std::size_t size, std::size_t want, const char* of) {
    if (size != want)
      throw std::invalid_argument("write_checkpoint: BodySet." + std::string(name) + " has " + std::to_string(size) +
                                  " entries for " + std::to_string(want) + " " + of);
  };
  for (const auto& [name, v] : {std::pair{"px", &b.px}, {"py", &b.py}, {"pz", &b.pz}, {"qw", &b.qw}, {"qx", &b.qx},
                                {"qy", &b.qy}, {"qz", &b.qz}, {"vx", &b.vx}, {"vy", &b.vy}, {"vz", &b.vz},
                                {"wx", &b.wx}, {"wy", &b.wy}, {"wz", &b.wz}, {"mass", &b.mass}, {"ix", &b.ix},
                                {"iy", &b.iy}, {"iz", &b.iz}, {"friction", &b.friction}, {"fx", &b.fx},
                                {"fy", &b.fy}, {"fz", &b.fz}, {"tx", &b.tx}, {"ty", &b.ty}, {"tz", &b.tz}})
    expect(name, v->size(), b.size(), "bodies");
  expect("motion", b.motion.size(), b.size(), "bodies");
  const std::size_t spheres = b.sphere_body.size();
  for (const auto* v : {&b.sphere_ox, &b.sphere_oy, &b.sphere_oz, &b.sphere_radius})
    expect("sphere_ox/oy/oz/radius", v->size(), spheres, "spheres");
  expect("sphere_shape", b.sphere_shape.size(), spheres, "spheres");
  expect("planes", b.planes.size(), b.plane_body.size(), "plane_body entries");
  expect("boxes", b.boxes.size(), b.box_body.size(), "box_body entries");
}

}  // namespace

void write_checkpoint(const fs::path& path, const TerrainCheckpoint& c) {
  check_lengths(c.bodies);
  CheckpointSlice slice;
  slice.step = c.step;
  slice.time = c.time;
  slice.config_text = c.config_text;
  std::vector<std::uint32_t> all(c.bodies.size());
  std::iota(all.begin(), all.end(), 0u);
  slice.bodies = pack_bodies(c.bodies, all);
  sort_packed(slice.bodies);
  std::vector<WarmStartEntry> warm = c.warm_start;
  std::sort(warm.begin(), warm.end(), [](const WarmStartEntry& l, const WarmStartEntry& r) {
    return std::tie(l.gid_a, l.gid_b, l.shape_a, l.shape_b) < std::tie(r.gid_a, r.gid_b, r.shape_a, r.shape_b);
  });
  slice.warm = pack_warm(warm);
  const std::unique_ptr<CheckpointIo> io = open_checkpoint_alone(path, true);
  write_checkpoint_slices(*io, std::move(slice), path);
}

TerrainCheckpoint read_checkpoint(const fs::path& path) {
  const std::unique_ptr<CheckpointIo> io = open_checkpoint_alone(path, false);
  const CheckpointSlice slice = read_checkpoint_block(*io, path);
  TerrainCheckpoint c;
  c.step = slice.step;
  c.time = slice.time;
  c.config_text = slice.config_text;
  c.bodies = unpack_bodies(slice.bodies, "checkpoint " + path.string());
  c.warm_start = unpack_warm(slice.warm);
  return c;
}

}  // namespace trackcosim::terrain
