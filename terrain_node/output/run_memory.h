#pragma once
// The memory each rank of a run held, for run.json's "memory" and the summary: the resident
// size at start-up (what a rank costs before it holds any terrain) and the peak resident size
// at the end of the run (runtime/memory_usage.h; the kernel's high-water mark, so it includes every
// moment of the run: steps, snapshots, checkpoints). One number of each per rank is gathered:
// O(ranks), never O(bodies).

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "comm/rank_group.h"

namespace trackcosim::terrain {

struct RunMemory {
  std::vector<std::uint64_t> baseline_rss_bytes;  ///< per rank, in rank order
  std::vector<std::uint64_t> peak_rss_bytes;      ///< per rank, in rank order
};

/// Collective: every rank's `baseline_rss_bytes` and its peak resident size now, on the leader;
/// empty elsewhere.
RunMemory gather_run_memory(const comm::RankGroup& group, std::uint64_t baseline_rss_bytes);

/// {"baseline_rss_bytes": [...], "peak_rss_bytes": [...], "note": what they measure}.
nlohmann::ordered_json run_memory_json(const RunMemory& memory);

/// "memory     peak RSS per rank 123.4 MiB max, 120.1 MiB min (start-up 40.2 MiB max)", or that
/// the system did not say, for the summary.
std::string run_memory_line(const RunMemory& memory);

}  // namespace trackcosim::terrain
