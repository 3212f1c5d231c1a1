#include "terrain_node/output/run_memory.h"

#include <algorithm>
#include <cstdio>

#include "comm/gather.h"
#include "runtime/memory_usage.h"

namespace trackcosim::terrain {
namespace {

struct RankFigures {
  std::uint64_t baseline, peak;
};
static_assert(sizeof(RankFigures) == 16);

double mebibytes(std::uint64_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); }

}  // namespace

RunMemory gather_run_memory(const comm::RankGroup& group, std::uint64_t baseline_rss_bytes) {
  const std::vector<RankFigures> all =
      comm::gather_to_leader(group, std::vector<RankFigures>{{baseline_rss_bytes, runtime::read_memory_usage().peak_rss_bytes}});
  RunMemory memory;
  for (const RankFigures& f : all) {
    memory.baseline_rss_bytes.push_back(f.baseline);
    memory.peak_rss_bytes.push_back(f.peak);
  }
  return memory;
}

nlohmann::ordered_json run_memory_json(const RunMemory& memory) {
  return {{"baseline_rss_bytes", memory.baseline_rss_bytes},
          {"peak_rss_bytes", memory.peak_rss_bytes},
          {"note", "per terrain rank, in rank order, from /proc/self/status (0: not reported by the system). "
                   "baseline: VmRSS after start-up (the parallel runtime and the role split), before the config, a checkpoint "
                   "or the terrain are read or built; peak: VmHWM, the largest resident size of the whole "
                   "run, read after its last snapshot and checkpoint were written"}};
}

std::string run_memory_line(const RunMemory& memory) {
  const auto& peak = memory.peak_rss_bytes;
  if (peak.empty() || *std::max_element(peak.begin(), peak.end()) == 0)
    return "memory     not reported by this system (/proc/self/status)";
  char line[160];
  std::snprintf(line, sizeof line, "memory     peak RSS per rank %.1f MiB max, %.1f MiB min (start-up %.1f MiB max)",
                mebibytes(*std::max_element(peak.begin(), peak.end())),
                mebibytes(*std::min_element(peak.begin(), peak.end())),
                mebibytes(*std::max_element(memory.baseline_rss_bytes.begin(), memory.baseline_rss_bytes.end())));
  return line;
}

}  // namespace trackcosim::terrain
