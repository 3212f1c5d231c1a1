#include "terrain_node/output/snapshot_files.h"

#include <cstdio>
#include <system_error>

namespace trackcosim::terrain {

std::string snapshot_stem(std::uint64_t step) {
  char name[32];
  std::snprintf(name, sizeof name, "step_%08llu", static_cast<unsigned long long>(step));
  return name;
}

void remove_old_snapshots(const std::filesystem::path& folder) {
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with("step_") && (name.ends_with(".vtu") || name.ends_with(".pvtu")))
      std::filesystem::remove(entry.path(), error);
  }
}

}  // namespace trackcosim::terrain
