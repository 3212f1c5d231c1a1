// The version 3 file: header, config text, then the sections of records, then a checksum
// (layout and messages: docs/checkpoint-format.md). Version 2 files are read too: they differ
// only in their shorter warm-start record, widened to version 3's as soon as its checksum holds.

#include "terrain_node/checkpoint/checkpoint_slices.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <tuple>
#include <type_traits>

#include "io/checkpoint_file.h"
#include "io/output_file.h"

namespace trackcosim::terrain {
namespace {

namespace fs = std::filesystem;

constexpr char kMagic[8] = {'T', 'C', 'S', 'M', 'C', 'K', 'P', 'T'};
constexpr std::uint32_t kVersion = 3;
/// The oldest version this build reads: 2, whose warm-start records lack the rolling impulse.
constexpr std::uint32_t kOldestVersion = 2;

/// Bytes per warm-start record in a file of `version`; the one thing versions 2 and 3 differ in.
std::size_t warm_record_bytes(std::uint32_t version) {
  return version == 2 ? kWarmRecordBytesV2 : kWarmRecordBytes;
}

/// The fixed fields after magic and version: file offsets 12 to 84 (as in version 1).
struct Header {
  std::uint32_t header_bytes;  ///< sizeof(Header): 72
  std::uint32_t real_bytes;    ///< sizeof(real) of the writer
  std::uint64_t bodies, spheres, planes, boxes, warm, config_bytes, step;
  double time;
};
static_assert(std::is_trivially_copyable_v<Header> && sizeof(Header) == 72 && offsetof(Header, time) == 64);
constexpr std::uint64_t kHeaderEnd = sizeof kMagic + sizeof kVersion + sizeof(Header);
constexpr std::uint64_t kChecksumBytes = sizeof(std::uint64_t);

/// Where each section starts, from the header's counts; `end` is where the checksum goes.
struct Offsets {
  std::uint64_t bodies, spheres, planes, boxes, warm, end;
};
Offsets offsets_of(const Header& h, std::size_t warm_bytes) {
  Offsets o;
  o.bodies = kHeaderEnd + h.config_bytes;
  o.spheres = o.bodies + h.bodies * kBodyRecordBytes;
  o.planes = o.spheres + h.spheres * kSphereRecordBytes;
  o.boxes = o.planes + h.planes * kPlaneRecordBytes;
  o.warm = o.boxes + h.boxes * kBoxRecordBytes;
  o.end = o.warm + h.warm * warm_bytes;
  return o;
}

/// The file size the header's counts imply; UINT64_MAX when that would not fit in 64 bits.
std::uint64_t implied_size(const Header& h, std::size_t warm_bytes) {
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t total = kHeaderEnd + kChecksumBytes;
  const std::pair<std::uint64_t, std::uint64_t> sections[] = {
      {h.bodies, kBodyRecordBytes}, {h.spheres, kSphereRecordBytes}, {h.planes, kPlaneRecordBytes},
      {h.boxes, kBoxRecordBytes},   {h.warm, warm_bytes},            {h.config_bytes, 1}};
  for (const auto& [count, bytes] : sections) {
    if (count > (kMax - total) / bytes) return kMax;
    total += count * bytes;
  }
  return total;
}

std::uint64_t fnv1a(std::string_view bytes) {
  io::Fnv1a hash;
  hash.add(bytes.data(), bytes.size());
  return hash.value();
}

/// Records [first, first + count) of rank `rank`'s block of `total` records split over `ranks`.
std::pair<std::uint64_t, std::uint64_t> block_of(std::uint64_t total, int rank, int ranks) {
  const auto at = [&](int r) {
    __extension__ typedef unsigned __int128 Wide;  // total * rank may pass 2^64
    return static_cast<std::uint64_t>(static_cast<Wide>(total) * static_cast<unsigned>(r) / static_cast<unsigned>(ranks));
  };
  return {at(rank), at(rank + 1) - at(rank)};
}

/// The checks that need only this rank's block; "" when it is consistent.
/// `warm_before`: the warm-start record just before this block's in the file (empty for none), so
/// that the key order is checked across block boundaries too, the same on any rank count.
std::string check_block(const PackedBodies& block, std::uint64_t sphere_begin, std::uint64_t file_spheres,
                        const std::string& warm, const std::string& warm_before) {
  const std::size_t n = block.body_count();
  for (std::size_t i = 0; i < n; ++i) {
    const PackedBodyView b = packed_body(block, i);
    if (i > 0) {
      const PackedBodyView a = packed_body(block, i - 1);
      if (b.first_sphere != a.first_sphere + a.sphere_count)
        return "body gid " + std::to_string(b.gid) + " starts at sphere " + std::to_string(b.first_sphere) +
               ", the body before it ends at " + std::to_string(a.first_sphere + a.sphere_count);
    } else if (b.first_sphere != sphere_begin) {
      return "body gid " + std::to_string(b.gid) + " starts at sphere " + std::to_string(b.first_sphere) + ", expected " +
             std::to_string(sphere_begin);
    }
    if (b.first_sphere > file_spheres || b.sphere_count > file_spheres - b.first_sphere)
      return "body gid " + std::to_string(b.gid) + " has spheres past the file's " + std::to_string(file_spheres);
  }
  const std::vector<WarmStartEntry> entries = unpack_warm(warm_before + warm);
  auto key = [](const WarmStartEntry& e) { return std::tie(e.gid_a, e.gid_b, e.shape_a, e.shape_b); };
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].gid_a >= entries[i].gid_b)
      return "a warm-start entry has gid A " + std::to_string(entries[i].gid_a) + " >= gid B " +
             std::to_string(entries[i].gid_b);
    if (i > 0 && !(key(entries[i - 1]) < key(entries[i])))
      return "warm-start entries are not in strictly increasing key order";
  }
  return {};
}

}  // namespace

void write_checkpoint_slices(CheckpointIo& io, CheckpointSlice slice, const fs::path& path) {
  const bool leader = io.rank() == 0;
  PackedBodies& b = slice.bodies;
  Header h{};
  h.header_bytes = sizeof(Header);
  h.real_bytes = sizeof(real);
  h.bodies = io.sum(b.body_count());
  h.spheres = io.sum(b.sphere_count());
  h.planes = io.sum(b.plane_count());
  h.boxes = io.sum(b.box_count());
  h.warm = io.sum(slice.warm.size() / kWarmRecordBytes);
  h.config_bytes = io.sum(leader ? slice.config_text.size() : 0);
  h.step = slice.step;
  h.time = slice.time;
  const std::uint64_t body0 = io.exclusive_sum(b.body_count()), sphere0 = io.exclusive_sum(b.sphere_count());
  const std::uint64_t plane0 = io.exclusive_sum(b.plane_count()), box0 = io.exclusive_sum(b.box_count());
  const std::uint64_t warm0 = io.exclusive_sum(slice.warm.size() / kWarmRecordBytes);
  number_spheres(b, sphere0);

  std::string head;
  if (leader) {
    head.append(kMagic, sizeof kMagic);
    head.append(reinterpret_cast<const char*>(&kVersion), sizeof kVersion);
    head.append(reinterpret_cast<const char*>(&h), sizeof h);
    head += slice.config_text;
  }
  const Offsets at = offsets_of(h, kWarmRecordBytes);
  io.write_at_all(0, head);
  io.write_at_all(at.bodies + body0 * kBodyRecordBytes, b.bodies);
  io.write_at_all(at.spheres + sphere0 * kSphereRecordBytes, b.spheres);
  io.write_at_all(at.planes + plane0 * kPlaneRecordBytes, b.planes);
  io.write_at_all(at.boxes + box0 * kBoxRecordBytes, b.boxes);
  io.write_at_all(at.warm + warm0 * kWarmRecordBytes, slice.warm);
  std::uint64_t mine = leader ? fnv1a(head) : 0;
  mine ^= section_checksum(Section::Bodies, body0, b.bodies, kBodyRecordBytes);
  mine ^= section_checksum(Section::Spheres, sphere0, b.spheres, kSphereRecordBytes);
  mine ^= section_checksum(Section::Planes, plane0, b.planes, kPlaneRecordBytes);
  mine ^= section_checksum(Section::Boxes, box0, b.boxes, kBoxRecordBytes);
  mine ^= section_checksum(Section::Warm, warm0, slice.warm, kWarmRecordBytes);
  const std::uint64_t checksum = io.xor_all(mine);
  io.write_at_all(at.end, leader ? std::string_view(reinterpret_cast<const char*>(&checksum), sizeof checksum)
                                 : std::string_view());
  try {
    io.commit();
  } catch (const std::exception& e) {
    throw io::OutputError("cannot write checkpoint " + path.string() + ": " + e.what());
  }
}

CheckpointSlice read_checkpoint_block(CheckpointIo& io, const fs::path& path) {
  const std::string where = "checkpoint " + path.string();
  auto refuse = [&](const std::string& problem) { throw std::runtime_error(where + ": " + problem); };
  // Every rank reads the same header and config, so these checks fail on all ranks alike.
  const std::uint64_t size = io.size();
  const std::string head = io.read_at_all(0, std::min<std::uint64_t>(size, kHeaderEnd));
  if (std::memcmp(head.data(), kMagic, std::min(head.size(), sizeof kMagic)) != 0)
    refuse("not a trackcosim terrain checkpoint (it does not start with \"TCSMCKPT\")");
  const std::string minimum = "at least " + std::to_string(kHeaderEnd + kChecksumBytes);
  auto truncated = [&](const std::string& expected) {
    refuse("truncated checkpoint: expected " + expected + " bytes, found " + std::to_string(size));
  };
  if (head.size() < sizeof kMagic + sizeof kVersion) truncated(minimum);
  std::uint32_t version = 0;
  std::memcpy(&version, head.data() + sizeof kMagic, sizeof version);
  if (version == 1)
    refuse("checkpoint format version 1 (one file gathered on one rank, trackcosim before 2026-11-26) cannot be "
           "read by this build, which reads versions 2 and 3 (written in slices by every rank); rerun the case that "
           "wrote it with this build to get a version 3 checkpoint");
  if (version < kOldestVersion || version > kVersion)
    refuse("unsupported checkpoint format version " + std::to_string(version) + " (this build reads versions " +
           std::to_string(kOldestVersion) + " and " + std::to_string(kVersion) + ")");
  const std::size_t warm_bytes = warm_record_bytes(version);
  if (size < kHeaderEnd + kChecksumBytes) truncated(minimum);
  Header h;
  std::memcpy(&h, head.data() + sizeof kMagic + sizeof kVersion, sizeof h);
  if (h.header_bytes != sizeof(Header) || h.real_bytes != sizeof(real))
    refuse("inconsistent checkpoint header: header size " + std::to_string(h.header_bytes) + " (expected " +
           std::to_string(sizeof(Header)) + "), " + std::to_string(h.real_bytes) + "-byte reals (this build uses " +
           std::to_string(sizeof(real)) + ")");
  const std::uint64_t expected = implied_size(h, warm_bytes);
  if (size < expected) truncated(expected == std::numeric_limits<std::uint64_t>::max() ? "more than 2^64"
                                                                                       : std::to_string(expected));
  if (size != expected)
    refuse("inconsistent checkpoint counts: they need " + std::to_string(expected) + " bytes, the file has " +
           std::to_string(size));

  CheckpointSlice s;
  s.step = h.step;
  s.time = h.time;
  s.file_bodies = h.bodies;
  s.file_warm = h.warm;
  s.config_text = io.read_at_all(kHeaderEnd, h.config_bytes);
  const Offsets at = offsets_of(h, warm_bytes);
  std::string stored_bytes = io.read_at_all(at.end, kChecksumBytes);
  std::uint64_t stored = 0;
  std::memcpy(&stored, stored_bytes.data(), std::min<std::size_t>(stored_bytes.size(), sizeof stored));

  const auto [body0, bodies] = block_of(h.bodies, io.rank(), io.ranks());
  s.bodies.bodies = io.read_at_all(at.bodies + body0 * kBodyRecordBytes, bodies * kBodyRecordBytes);
  // This block's spheres follow those of the blocks below it: their counts say where they start.
  std::uint64_t my_spheres = 0;
  for (std::size_t i = 0; i < s.bodies.body_count(); ++i) my_spheres += packed_body(s.bodies, i).sphere_count;
  const std::uint64_t sphere0 = io.exclusive_sum(my_spheres);
  const auto [warm0, warm] = block_of(h.warm, io.rank(), io.ranks());
  s.warm = io.read_at_all(at.warm + warm0 * warm_bytes, warm * warm_bytes);
  const bool entry_before = warm0 > 0 && warm > 0;
  std::string warm_before = io.read_at_all(at.warm + (entry_before ? warm0 - 1 : 0) * warm_bytes,
                                           entry_before ? warm_bytes : 0);
  // Counts are believed only after the checksum: until then the range is kept inside the section.
  // The ranks' ranges tile [0, S): the last one reaches S even when the counts fall short of it.
  const std::uint64_t sphere_begin = std::min(sphere0, h.spheres);
  const std::uint64_t sphere_count = io.rank() == io.ranks() - 1 ? h.spheres - sphere_begin
                                                                 : std::min(my_spheres, h.spheres - sphere_begin);
  s.bodies.spheres = io.read_at_all(at.spheres + sphere_begin * kSphereRecordBytes, sphere_count * kSphereRecordBytes);
  // Planes and boxes belong to the few fixed and kinematic bodies: every rank reads them all,
  // keeps those of its own bodies and checks its block of them.
  const std::string planes = io.read_at_all(at.planes, h.planes * kPlaneRecordBytes);
  const std::string boxes = io.read_at_all(at.boxes, h.boxes * kBoxRecordBytes);

  const auto [plane0, plane_count] = block_of(h.planes, io.rank(), io.ranks());
  const auto [box0, box_count] = block_of(h.boxes, io.rank(), io.ranks());
  std::uint64_t mine = io.rank() == 0 ? fnv1a(head + s.config_text) : 0;
  mine ^= section_checksum(Section::Bodies, body0, s.bodies.bodies, kBodyRecordBytes);
  mine ^= section_checksum(Section::Spheres, sphere_begin, s.bodies.spheres, kSphereRecordBytes);
  mine ^= section_checksum(Section::Planes, plane0,
                           std::string_view(planes).substr(plane0 * kPlaneRecordBytes, plane_count * kPlaneRecordBytes),
                           kPlaneRecordBytes);
  mine ^= section_checksum(Section::Boxes, box0,
                           std::string_view(boxes).substr(box0 * kBoxRecordBytes, box_count * kBoxRecordBytes),
                           kBoxRecordBytes);
  mine ^= section_checksum(Section::Warm, warm0, s.warm, warm_bytes);
  const std::uint64_t computed = io.xor_all(mine);
  if (computed != stored)
    refuse("checkpoint checksum mismatch: stored " + std::to_string(stored) + ", computed " + std::to_string(computed) +
           " (the file is damaged)");
  if (version == 2) {  // its rolling impulses read as zero: such a run warm-starts its rolling rows from zero
    s.warm = widen_warm_v2(s.warm);
    warm_before = widen_warm_v2(warm_before);
  }

  // A well-sealed file: now its counts and orders must agree with themselves.
  const std::uint64_t body_spheres = io.sum(my_spheres);  // collective: every rank, always
  std::string error = check_block(s.bodies, sphere0, h.spheres, s.warm, warm_before);
  if (error.empty() && body_spheres != h.spheres)
    error = "the bodies have " + std::to_string(body_spheres) + " spheres, the header says " + std::to_string(h.spheres);
  // Gids increase across blocks too: each block starts above the largest gid below it.
  const std::uint64_t last_below = io.exclusive_max(s.bodies.body_count() > 0
                                                        ? packed_body(s.bodies, s.bodies.body_count() - 1).gid + 1
                                                        : 0);
  if (error.empty() && s.bodies.body_count() > 0 && last_below > 0 && packed_body(s.bodies, 0).gid + 1 <= last_below)
    error = "gid " + std::to_string(packed_body(s.bodies, 0).gid) + " does not increase";
  std::vector<GlobalId> gids;
  for (std::size_t i = 0; i < s.bodies.body_count(); ++i) gids.push_back(packed_body(s.bodies, i).gid);
  auto own = [&](const std::string& records, std::size_t bytes) {
    std::string out;
    for (std::size_t k = 0; k < records.size(); k += bytes) {
      GlobalId gid;
      std::memcpy(&gid, records.data() + k, sizeof gid);
      if (std::binary_search(gids.begin(), gids.end(), gid)) out.append(records, k, bytes);
    }
    return out;
  };
  s.bodies.planes = own(planes, kPlaneRecordBytes);
  s.bodies.boxes = own(boxes, kBoxRecordBytes);
  // Every plane and box must name a body of some block.
  const std::uint64_t owned_shapes = io.sum(s.bodies.plane_count() + s.bodies.box_count());
  if (error.empty() && owned_shapes != h.planes + h.boxes)
    error = std::to_string(h.planes + h.boxes - owned_shapes) + " planes or boxes name a body the file does not hold";
  if (error.empty()) {
    try {
      (void)unpack_bodies(s.bodies, where);
    } catch (const std::runtime_error& e) {
      error = e.what();
    }
  }
  error = io.first_error(error);
  if (!error.empty()) throw std::runtime_error(error.rfind(where, 0) == 0 ? error : where + ": inconsistent checkpoint: " + error);
  return s;
}

}  // namespace trackcosim::terrain
