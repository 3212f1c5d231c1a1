// The checkpoint written and read in slices (terrain_node/checkpoint/checkpoint_slices.h,
// docs/checkpoint-format.md "Writing in slices", "Reading in slices") by n ranks played by n
// threads of this process, which share one file in memory: any rank count writes the same bytes
// as one process does, any rank count reads back the whole file exactly once, a bad file is
// refused on every rank with the same message, whichever rank's block holds the fault, and a
// version 2 file (warm-start records without the rolling impulse) is read with those impulses zero.

#include <gtest/gtest.h>

#include <algorithm>
#include <barrier>
#include <cstring>
#include <mutex>
#include <numeric>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "io/checkpoint_file.h"
#include "terrain_node/checkpoint/checkpoint_records.h"
#include "terrain_node/checkpoint/checkpoint_slices.h"

namespace trackcosim::terrain {
namespace {

constexpr std::size_t kHeaderEnd = 84;

/// n ranks as threads. Every CheckpointIo call is collective: the threads make the same calls
/// in the same order and meet at a barrier to combine their values, as a rank group does.
class ThreadRanks {
 public:
  explicit ThreadRanks(int n, std::string file = {})
      : n_(n), meet_(n), numbers_(static_cast<std::size_t>(n)), texts_(static_cast<std::size_t>(n)), file_(std::move(file)) {}

  /// Runs each_rank(io) on every rank; returns each rank's exception message ("" when none). A
  /// rank that throws leaves the barrier, so the others finish instead of waiting for it.
  template <class EachRank>
  std::vector<std::string> run(EachRank each_rank) {
    std::vector<std::string> errors(static_cast<std::size_t>(n_));
    std::vector<std::thread> threads;
    for (int r = 0; r < n_; ++r)
      threads.emplace_back([&, r] {
        Io io(*this, r);
        try {
          each_rank(io);
        } catch (const std::exception& e) {
          errors[static_cast<std::size_t>(r)] = e.what();
          meet_.arrive_and_drop();
        }
      });
    for (std::thread& t : threads) t.join();
    return errors;
  }
  const std::string& file() const { return file_; }

 private:
  class Io final : public CheckpointIo {
   public:
    Io(ThreadRanks& all, int rank) : all_(all), rank_(rank) {}
    int rank() const override { return rank_; }
    int ranks() const override { return all_.n_; }
    std::uint64_t sum(std::uint64_t v) override {
      return combine(v, [&](const auto& all) { return std::accumulate(all.begin(), all.end(), std::uint64_t(0)); });
    }
    std::uint64_t exclusive_sum(std::uint64_t v) override {
      return combine(v, [&](const auto& all) { return std::accumulate(all.begin(), all.begin() + rank_, std::uint64_t(0)); });
    }
    std::uint64_t exclusive_max(std::uint64_t v) override {
      return combine(v, [&](const auto& all) { return std::accumulate(all.begin(), all.begin() + rank_, std::uint64_t(0),
                                                                      [](auto a, auto b) { return std::max(a, b); }); });
    }
    std::uint64_t xor_all(std::uint64_t v) override {
      return combine(v, [&](const auto& all) {
        return std::accumulate(all.begin(), all.end(), std::uint64_t(0), [](auto a, auto b) { return a ^ b; });
      });
    }
    std::string first_error(const std::string& mine) override {
      all_.texts_[static_cast<std::size_t>(rank_)] = mine;
      all_.meet_.arrive_and_wait();
      std::string first;
      for (const std::string& t : all_.texts_)
        if (!t.empty()) {
          first = t;
          break;
        }
      all_.meet_.arrive_and_wait();
      return first;
    }
    void write_at_all(std::uint64_t offset, std::string_view bytes) override {
      if (bytes.empty()) return;
      const std::lock_guard<std::mutex> hold(all_.writing_);
      if (all_.file_.size() < offset + bytes.size()) all_.file_.resize(offset + bytes.size());
      std::memcpy(all_.file_.data() + offset, bytes.data(), bytes.size());
    }
    std::string read_at_all(std::uint64_t offset, std::uint64_t n) override {
      return offset >= all_.file_.size() ? std::string() : all_.file_.substr(offset, n);
    }
    std::uint64_t size() override { return all_.file_.size(); }
    void commit() override { all_.meet_.arrive_and_wait(); }

   private:
    template <class Combine>
    std::uint64_t combine(std::uint64_t v, Combine f) {
      all_.numbers_[static_cast<std::size_t>(rank_)] = v;
      all_.meet_.arrive_and_wait();
      const std::uint64_t out = f(all_.numbers_);
      all_.meet_.arrive_and_wait();
      return out;
    }
    ThreadRanks& all_;
    int rank_;
  };

  int n_;
  std::barrier<> meet_;
  std::vector<std::uint64_t> numbers_;
  std::vector<std::string> texts_;
  std::mutex writing_;
  std::string file_;
};

/// A fixed wall (plane, box, sphere), dynamic bodies of 1 to 3 spheres with gaps in their gids,
/// a kinematic shoe (sphere, box, sphere), and a warm-start entry between neighbours, with
/// rolling impulses.
CheckpointSlice sample() {
  gpu::BodySet b;
  auto add = [&](GlobalId gid, gpu::Motion motion) {
    gpu::BodyDesc d;
    d.gid = gid, d.motion = motion;
    d.position = {0.1 * static_cast<double>(gid), -1.0 / static_cast<double>(gid + 3), 1e-310 * static_cast<double>(gid)};
    d.velocity = {-0.0, 1.0 / 3, static_cast<double>(gid)};
    return b.add_body(d);
  };
  const std::uint32_t wall = add(0, gpu::Motion::Fixed);
  b.add_plane(wall, {0, 0, 0}, {0, 0, 1});
  b.add_box(wall, {1, 0, 0}, {0.1, 1, 1});
  b.add_sphere(wall, {0, 0, 2}, 0.5);
  std::vector<WarmStartEntry> warm;
  for (GlobalId gid = 3; gid < 40; gid += 1 + gid % 3) {
    const std::uint32_t i = add(gid, gpu::Motion::Dynamic);
    for (GlobalId k = 0; k <= gid % 3; ++k) b.add_sphere(i, {0.001 * static_cast<double>(k), 0, 0}, 0.01);
    warm.push_back({0, gid, 2, 0, {0, 0, 1e-3 * static_cast<double>(gid)}, {1e-5 * static_cast<double>(gid), -0.0, 2e-6}});
    if (i > 1) warm.push_back({b.gid[i - 1], gid, 0, static_cast<ShapeIndex>(gid % 3), {1e-4, -0.0, 0}, {0, -1.0 / 3, 0}});
  }
  const std::uint32_t shoe = add(50, gpu::Motion::Kinematic);
  b.add_sphere(shoe, {0, 0, 0}, 0.02);
  b.add_box(shoe, {0, 0, 0}, {0.05, 0.02, 0.01});
  b.add_sphere(shoe, {0.01, 0, 0}, 0.02);
  std::sort(warm.begin(), warm.end(), [](const WarmStartEntry& l, const WarmStartEntry& r) {
    return std::tie(l.gid_a, l.gid_b, l.shape_a, l.shape_b) < std::tie(r.gid_a, r.gid_b, r.shape_a, r.shape_b);
  });
  CheckpointSlice s;
  s.step = 77, s.time = 0.077, s.config_text = std::string("{\"x\": \"\xc3\xa9\"}\0!", 15);
  std::vector<std::uint32_t> all(b.size());
  std::iota(all.begin(), all.end(), 0u);
  s.bodies = pack_bodies(b, all);
  sort_packed(s.bodies);
  s.warm = pack_warm(warm);
  return s;
}

/// The file that `whole` gives when n ranks write it: each rank holds the bodies of its gid block
/// [G r / n, G (r+1) / n) (G = largest gid + 1) and the warm-start entries of its bodies A, as
/// DistributedTerrain::write_checkpoint hands them out. Only the leader's step, time and config
/// may be written.
std::string written_by(int n, const CheckpointSlice& whole) {
  GlobalId gids = 0;
  for (std::size_t i = 0; i < whole.bodies.body_count(); ++i) gids = std::max(gids, packed_body(whole.bodies, i).gid + 1);
  const auto block = [&](GlobalId gid) { return static_cast<int>(gid * static_cast<unsigned>(n) / gids); };
  const std::vector<PackedBodies> parts = split_packed(whole.bodies, n, block);
  std::vector<std::string> warm(static_cast<std::size_t>(n));
  for (std::size_t at = 0; at < whole.warm.size(); at += kWarmRecordBytes) {
    GlobalId gid_a;
    std::memcpy(&gid_a, whole.warm.data() + at, sizeof gid_a);
    warm[static_cast<std::size_t>(block(gid_a))].append(whole.warm, at, kWarmRecordBytes);
  }
  ThreadRanks ranks(n);
  const std::vector<std::string> errors = ranks.run([&](CheckpointIo& io) {
    const auto r = static_cast<std::size_t>(io.rank());
    CheckpointSlice mine;
    mine.step = r == 0 ? whole.step : 1000 + r;
    mine.time = r == 0 ? whole.time : -1.0;
    mine.config_text = r == 0 ? whole.config_text : "not the leader's";
    mine.bodies = parts[r];
    mine.warm = warm[r];
    write_checkpoint_slices(io, std::move(mine), "shared.bin");
  });
  for (int r = 0; r < n; ++r) EXPECT_EQ(errors[static_cast<std::size_t>(r)], "") << "rank " << r << " of " << n;
  return ranks.file();
}

struct Blocks {
  std::vector<CheckpointSlice> slices;
  std::vector<std::string> errors;
};
Blocks read_by(int n, const std::string& file) {
  Blocks out;
  out.slices.resize(static_cast<std::size_t>(n));
  ThreadRanks ranks(n, file);
  out.errors = ranks.run([&](CheckpointIo& io) {
    out.slices[static_cast<std::size_t>(io.rank())] = read_checkpoint_block(io, "shared.bin");
  });
  return out;
}

/// Every rank's message is the same one and contains `expected`.
void expect_refused_alike(const Blocks& read, const std::string& expected, const std::string& what) {
  for (std::size_t r = 0; r < read.errors.size(); ++r) {
    EXPECT_NE(read.errors[r].find("checkpoint shared.bin: " + expected), std::string::npos)
        << what << ", rank " << r << " of " << read.errors.size() << ": " << read.errors[r];
    EXPECT_EQ(read.errors[r], read.errors[0]) << what << ", rank " << r;
  }
}

std::string one_process_file(const CheckpointSlice& whole) { return written_by(1, whole); }

TEST(CheckpointSlices, AnyRankCountWritesTheSameFile) {
  const CheckpointSlice whole = sample();
  const std::string one = one_process_file(whole);
  ASSERT_GT(one.size(), kHeaderEnd);
  for (const int n : {2, 3, 4, 5, 8, 13, 64})  // 64 > G: some gid blocks are empty
    EXPECT_EQ(written_by(n, whole), one) << n << " ranks";
}

TEST(CheckpointSlices, AnyRankCountReadsTheWholeFileOnce) {
  const CheckpointSlice whole = sample();
  const std::string file = one_process_file(whole);
  const std::uint64_t bodies = whole.bodies.body_count(), warm = whole.warm.size() / kWarmRecordBytes;
  for (const int n : {1, 2, 3, 4, 7, 40}) {
    const Blocks read = read_by(n, file);
    PackedBodies joined;
    std::string joined_warm;
    for (int r = 0; r < n; ++r) {
      const CheckpointSlice& s = read.slices[static_cast<std::size_t>(r)];
      ASSERT_EQ(read.errors[static_cast<std::size_t>(r)], "") << "rank " << r << " of " << n;
      EXPECT_EQ(s.step, whole.step);
      EXPECT_EQ(s.config_text, whole.config_text);
      EXPECT_EQ(s.file_bodies, bodies);
      EXPECT_EQ(s.file_warm, warm);
      // Rank r of n: bodies [B r / n, B (r+1) / n), warm-start entries [W r / n, W (r+1) / n).
      EXPECT_EQ(s.bodies.body_count(), bodies * (r + 1) / n - bodies * r / n) << "rank " << r << " of " << n;
      EXPECT_EQ(s.warm.size() / kWarmRecordBytes, warm * (r + 1) / n - warm * r / n) << "rank " << r << " of " << n;
      joined.append(s.bodies);
      joined_warm += s.warm;
    }
    // The blocks' spheres, planes and boxes are their bodies' (numbering included), each once.
    PackedBodies expected = whole.bodies;
    number_spheres(expected, 0);
    EXPECT_EQ(joined.bodies, expected.bodies) << n << " ranks";
    EXPECT_EQ(joined.spheres, expected.spheres) << n << " ranks";
    EXPECT_EQ(joined.planes, expected.planes) << n << " ranks";
    EXPECT_EQ(joined.boxes, expected.boxes) << n << " ranks";
    EXPECT_EQ(joined_warm, whole.warm) << n << " ranks";
  }
}

TEST(CheckpointSlices, FlippedByteIsRefusedOnEveryRankWhicheverBlockHoldsIt) {
  const std::string file = one_process_file(sample());
  for (std::size_t at = 68; at < file.size(); at += 3) {
    std::string damaged = file;
    damaged[at] = static_cast<char>(damaged[at] ^ 0x04);
    expect_refused_alike(read_by(3, damaged), "checkpoint checksum mismatch", "byte " + std::to_string(at));
  }
}

TEST(CheckpointSlices, InconsistentBlockIsRefusedOnEveryRank) {
  const CheckpointSlice whole = sample();
  CheckpointSlice bad = whole;
  const std::size_t last = bad.bodies.body_count() - 1;
  bad.bodies.bodies[last * kBodyRecordBytes + 8 + 24 * sizeof(real)] = 9;  // the shoe's motion code
  for (const int n : {1, 2, 5}) {
    expect_refused_alike(read_by(n, written_by(n, bad)), "inconsistent checkpoint: body gid 50 has motion code 9",
                         std::to_string(n) + " ranks");
  }
  // Gids that increase within every rank's block but not across two blocks.
  CheckpointSlice crossed;
  for (const GlobalId gid : {1, 2, 5, 3, 4, 6}) {  // bodies without shapes, packed one by one
    gpu::BodySet one;
    gpu::BodyDesc d;
    d.gid = gid;
    one.add_body(d);
    crossed.bodies.append(pack_bodies(one, std::vector<std::uint32_t>{0}));
  }
  const std::string file = written_by(1, crossed);  // one writer: the order as given
  expect_refused_alike(read_by(1, file), "inconsistent checkpoint: gid 3 of body 3 does not increase", "1 rank");
  expect_refused_alike(read_by(2, file), "inconsistent checkpoint: gid 3 does not increase", "2 ranks");
  expect_refused_alike(read_by(3, file), "inconsistent checkpoint: gid 3 of body 1 does not increase", "3 ranks");
}

// Known gaps of the reader, disabled until checkpoint_slices.cpp closes them (each refuses the
// file on some rank counts only, or calls a writer's mistake damage).

// check_block checks the warm-start key order inside each rank's block only: entries out of
// order across a block boundary pass on 2 ranks and are refused on 1 or 3.
TEST(CheckpointSlices, WarmStartOrderAcrossBlocksIsRefusedOnAnyRankCount) {
  CheckpointSlice bad = sample();
  const std::size_t half = bad.warm.size() / kWarmRecordBytes / 2;
  std::swap_ranges(bad.warm.begin() + (half - 1) * kWarmRecordBytes, bad.warm.begin() + half * kWarmRecordBytes,
                   bad.warm.begin() + half * kWarmRecordBytes);  // the entries either side of 2 ranks' boundary
  const std::string file = written_by(1, bad);
  for (const int n : {1, 2, 3})
    expect_refused_alike(read_by(n, file), "inconsistent checkpoint: warm-start entries are not in strictly increasing",
                         std::to_string(n) + " ranks");
}

// Bodies whose sphere counts add up to fewer than the file's spheres: the reader checksums only
// the spheres the counts locate, so a well-sealed file is called damaged.
TEST(CheckpointSlices, FewerSpheresCountedThanStoredIsInconsistentNotDamage) {
  CheckpointSlice bad = sample();
  const std::size_t at = 3 * kBodyRecordBytes + 8 + 24 * sizeof(real) + 1;  // body 3's sphere count
  std::uint32_t count;
  std::memcpy(&count, bad.bodies.bodies.data() + at, sizeof count);
  --count;
  std::memcpy(bad.bodies.bodies.data() + at, &count, sizeof count);
  const std::string file = written_by(1, bad);
  for (const int n : {1, 2, 3})
    expect_refused_alike(read_by(n, file), "inconsistent checkpoint: ", std::to_string(n) + " ranks");
}

// ---- version 2 files (docs/checkpoint-format.md, "Versioning"): read, their rolling impulses zero

/// `v3` (a version 3 file) as the version 2 writer made it: version 2, the warm-start records
/// without their rolling impulses, sealed again. Only the header's and the warm-start section's
/// checksum terms change, so the old ones are XORed out and the new ones in.
std::string as_version_2(const std::string& v3) {
  std::uint64_t warm = 0, config = 0, checksum = 0;
  std::memcpy(&warm, v3.data() + 52, sizeof warm);
  std::memcpy(&config, v3.data() + 60, sizeof config);
  const std::size_t warm_at = v3.size() - 8 - warm * kWarmRecordBytes;
  std::memcpy(&checksum, v3.data() + v3.size() - 8, sizeof checksum);
  std::string v2 = v3.substr(0, warm_at), records;
  const std::uint32_t version = 2;
  std::memcpy(v2.data() + 8, &version, sizeof version);
  for (std::size_t at = warm_at; at < v3.size() - 8; at += kWarmRecordBytes) records.append(v3, at, kWarmRecordBytesV2);
  auto head_term = [&](const std::string& file) {
    io::Fnv1a hash;
    hash.add(file.data(), kHeaderEnd + config);
    return hash.value();
  };
  checksum ^= head_term(v3) ^ head_term(v2);
  checksum ^= section_checksum(Section::Warm, 0, std::string_view(v3).substr(warm_at, warm * kWarmRecordBytes),
                               kWarmRecordBytes);
  checksum ^= section_checksum(Section::Warm, 0, records, kWarmRecordBytesV2);
  v2 += records;
  v2.append(reinterpret_cast<const char*>(&checksum), sizeof checksum);
  return v2;
}

/// `slice`'s warm-start entries with their rolling impulses zero: what a version 2 file holds.
std::string without_rolling(const CheckpointSlice& slice) {
  std::vector<WarmStartEntry> entries = unpack_warm(slice.warm);
  for (WarmStartEntry& e : entries) e.rolling_on_b = {0, 0, 0};
  return pack_warm(entries);
}

TEST(CheckpointSlices, VersionTwoFileIsReadOnAnyRankCountWithRollingImpulsesZero) {
  const CheckpointSlice whole = sample();
  const std::string v3 = one_process_file(whole), v2 = as_version_2(v3);
  const std::uint64_t warm = whole.warm.size() / kWarmRecordBytes;
  ASSERT_EQ(v2.size(), v3.size() - warm * (kWarmRecordBytes - kWarmRecordBytesV2));
  ASSERT_NE(without_rolling(whole), whole.warm);  // the sample has rolling impulses to lose
  for (const int n : {1, 2, 3, 7}) {
    const Blocks read = read_by(n, v2), read_v3 = read_by(n, v3);
    std::string joined_warm;
    for (int r = 0; r < n; ++r) {
      const CheckpointSlice &s = read.slices[static_cast<std::size_t>(r)], &s3 = read_v3.slices[static_cast<std::size_t>(r)];
      ASSERT_EQ(read.errors[static_cast<std::size_t>(r)], "") << "rank " << r << " of " << n;
      EXPECT_EQ(s.step, whole.step);
      EXPECT_EQ(s.config_text, whole.config_text);
      EXPECT_EQ(s.file_warm, warm);
      EXPECT_EQ(s.bodies.bodies, s3.bodies.bodies) << "rank " << r << " of " << n;  // the same bodies and shapes
      EXPECT_EQ(s.bodies.spheres, s3.bodies.spheres) << "rank " << r << " of " << n;
      EXPECT_EQ(s.bodies.planes, s3.bodies.planes) << "rank " << r << " of " << n;
      EXPECT_EQ(s.bodies.boxes, s3.bodies.boxes) << "rank " << r << " of " << n;
      joined_warm += s.warm;  // version 3 records, widened by the reader
    }
    EXPECT_EQ(joined_warm, without_rolling(whole)) << n << " ranks";
  }
}

TEST(CheckpointSlices, VersionTwoFileIsCheckedWithItsOwnRecordSize) {
  CheckpointSlice unordered = sample();  // the entries either side of 2 ranks' boundary swapped
  const std::size_t half = unordered.warm.size() / kWarmRecordBytes / 2;
  std::swap_ranges(unordered.warm.begin() + (half - 1) * kWarmRecordBytes, unordered.warm.begin() + half * kWarmRecordBytes,
                   unordered.warm.begin() + half * kWarmRecordBytes);
  const std::string v2 = as_version_2(one_process_file(sample())), bad_order = as_version_2(written_by(1, unordered));
  for (const int n : {1, 2, 3}) {
    const std::string ranks = std::to_string(n) + " ranks";
    // Truncated and overlong: the sizes a version 2 file's counts give.
    expect_refused_alike(read_by(n, v2.substr(0, v2.size() - 1)),
                         "truncated checkpoint: expected " + std::to_string(v2.size()) + " bytes, found " +
                             std::to_string(v2.size() - 1),
                         ranks);
    expect_refused_alike(read_by(n, v2 + "x"),
                         "inconsistent checkpoint counts: they need " + std::to_string(v2.size()) + " bytes, the file has " +
                             std::to_string(v2.size() + 1),
                         ranks);
    std::string damaged = v2;
    damaged[v2.size() - 20] ^= 0x10;  // in the last warm-start record
    expect_refused_alike(read_by(n, damaged), "checkpoint checksum mismatch", ranks);
    expect_refused_alike(read_by(n, bad_order), "inconsistent checkpoint: warm-start entries are not in strictly increasing",
                         ranks);
  }
}

}  // namespace
}  // namespace trackcosim::terrain
