// Runs on 2 and 3 ranks (ctest names end in _np2, _np3). The typed collectives of comm/ that the
// terrain program reaches MPI through: reductions give the sums and extremes computed here by
// formula, and the leader's command, records and text arrive unchanged on every rank.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "comm/broadcast.h"
#include "comm/mpi_session.h"
#include "comm/rank_group.h"
#include "tests/support/mpi_world.h"

namespace trackcosim::comm {
namespace {

using test::world_rank;
using test::world_size;

TEST(RankGroup, WorldAndSelfKnowTheirRanks) {
  EXPECT_EQ(RankGroup::world().rank(), world_rank());
  EXPECT_EQ(RankGroup::world().size(), world_size());
  EXPECT_EQ(RankGroup::world().leader(), world_rank() == 0);
  EXPECT_EQ(RankGroup::self().rank(), 0);
  EXPECT_EQ(RankGroup::self().size(), 1);
  EXPECT_EQ(RankGroup::self().sum(7), 7);  // a collective over one rank is local
  EXPECT_EQ(world_rank_if_initialised(), world_rank());
  RankGroup::world().barrier();
}

TEST(RankGroup, ScalarReductionsMatchTheirFormulas) {
  const RankGroup group = RankGroup::world();
  const int n = world_size(), r = world_rank();
  // Sum over ranks of (r + 1) = n (n + 1) / 2; above 2^32 to show 64-bit integers stay exact.
  const std::uint64_t big = std::uint64_t{1} << 40;
  EXPECT_EQ(group.sum(big + std::uint64_t(r) + 1), big * std::uint64_t(n) + std::uint64_t(n) * (n + 1) / 2);
  EXPECT_EQ(group.max(std::uint64_t(r)), std::uint64_t(n - 1));
  EXPECT_EQ(group.max(r), n - 1);
  EXPECT_EQ(group.min(r + 10), 10);
  EXPECT_EQ(group.sum(1), n);
  EXPECT_EQ(group.max(0.5 * r), 0.5 * (n - 1));
  EXPECT_EQ(group.min(-0.25 * r), -0.25 * (n - 1));
  EXPECT_EQ(group.sum(0.5), 0.5 * n);  // exact in binary, whatever the order
}

TEST(RankGroup, InPlaceReductionsWorkOnArraysVectorsAndStdArrays) {
  const RankGroup group = RankGroup::world();
  const int n = world_size(), r = world_rank();
  std::uint64_t counts[2] = {1, std::uint64_t(r)};
  group.sum_in_place(counts);
  EXPECT_EQ(counts[0], std::uint64_t(n));
  EXPECT_EQ(counts[1], std::uint64_t(n) * (n - 1) / 2);

  std::vector<double> top = {double(r), -double(r), 3.0};
  group.max_in_place(top);
  EXPECT_EQ(top, (std::vector<double>{double(n - 1), 0.0, 3.0}));

  std::array<double, 3> lo = {double(r), -double(r), 3.0};
  group.min_in_place(lo);
  EXPECT_EQ(lo, (std::array<double, 3>{0.0, -double(n - 1), 3.0}));

  std::vector<int> flags = {r == 1 ? 1 : 0, 0};
  group.max_in_place(flags);
  EXPECT_EQ(flags, (std::vector<int>{1, 0}));
}

// The shape of the coupling session's step: a kind and a time, then one record per shoe.
enum class Kind : std::int32_t { Finish, Step };
struct Command {
  Kind kind;
  double time;
};
struct Record {
  double values[13];
};
static_assert(std::is_trivially_copyable_v<Command> && std::is_trivially_copyable_v<Record>);

Record record(double seed) {
  Record out{};
  for (int i = 0; i < 13; ++i) out.values[i] = seed + 0.1 * i;
  return out;
}

TEST(Broadcast, CommandAndRecordsAreTheLeadersOnEveryRank) {
  const RankGroup group = RankGroup::world();
  const bool leader = world_rank() == 0;
  // Every rank starts from something else: other values, another record count.
  Command command{leader ? Kind::Step : Kind::Finish, leader ? 1.25 : -1.0};
  std::vector<Record> records;
  if (leader) records = {record(1), record(2), record(3)};
  else records.assign(static_cast<std::size_t>(world_rank()) * 5, record(-9));
  broadcast_command(group, command, records);
  EXPECT_EQ(command.kind, Kind::Step);
  EXPECT_EQ(command.time, 1.25);
  ASSERT_EQ(records.size(), 3u);
  for (std::size_t k = 0; k < records.size(); ++k)
    for (int i = 0; i < 13; ++i) EXPECT_EQ(records[k].values[i], record(double(k + 1)).values[i]);

  // A command without records (the vehicle finished) empties every rank's.
  command = {leader ? Kind::Finish : Kind::Step, leader ? 2.5 : 0.0};
  if (leader) records.clear();
  broadcast_command(group, command, records);
  EXPECT_EQ(command.kind, Kind::Finish);
  EXPECT_EQ(command.time, 2.5);
  EXPECT_TRUE(records.empty());
}

TEST(Broadcast, TextAndValuesAreTheLeaders) {
  const RankGroup group = RankGroup::world();
  const bool leader = world_rank() == 0;
  std::string text = leader ? "the vehicle refused: 3 shoes expected" : "stale";
  broadcast(group, text);
  EXPECT_EQ(text, "the vehicle refused: 3 shoes expected");
  std::string empty = leader ? "" : "stale";
  broadcast(group, empty);
  EXPECT_TRUE(empty.empty());
  double value = leader ? 0.125 : 0;
  broadcast(group, value);
  EXPECT_EQ(value, 0.125);
}

}  // namespace
}  // namespace trackcosim::comm
