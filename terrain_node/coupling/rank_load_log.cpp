#include "terrain_node/coupling/rank_load_log.h"

#include <array>
#include <string>
#include <vector>

#include "comm/gather.h"
#include "io/number_text.h"

namespace trackcosim::terrain {
namespace {

constexpr std::size_t kFigures = 6;  // owned, ghosts, contacts, solve_s, halo_s, work_s

}  // namespace

RankLoadLog::RankLoadLog(const std::filesystem::path& file, bool resume, std::uint64_t first_step) {
  if (!file.empty())
    io::open_continued(csv_, file, "step,rank,owned,ghosts,contacts,solve_s,halo_s,work_s", resume, first_step);
}

void RankLoadLog::after_substep(const DistributedTerrain& terrain, double step_seconds) {
  const ExchangeStats& e = terrain.exchange_stats();
  solve_ += terrain.stage_seconds()[static_cast<std::size_t>(TerrainStage::Solve)];
  halo_ += e.seconds + e.solver_seconds;
  step_ += step_seconds;
}

void RankLoadLog::on_advanced(const DistributedTerrain& terrain, const CouplingStep& step) {
  const std::vector<std::array<double, kFigures>> mine{
      {static_cast<double>(terrain.owned_count()), static_cast<double>(terrain.exchange_stats().ghosts),
       static_cast<double>(terrain.contacts_solved_here()), solve_, halo_, step_ - halo_}};
  const std::vector<std::array<double, kFigures>> all = comm::gather_to_leader(terrain.group(), mine);
  if (csv_)
    for (std::size_t rank = 0; rank < all.size(); ++rank) {
      std::string row;
      io::append_number(row, step.index);
      io::append_number(row += ',', static_cast<double>(rank));
      for (const double value : all[rank]) io::append_number(row += ',', value);
      csv_->write_row(row);
    }
  solve_ = halo_ = step_ = 0;
}

}  // namespace trackcosim::terrain
