#include "runtime/memory_usage.h"

#include <fstream>
#include <sstream>
#include <string>

namespace trackcosim::runtime {

MemoryUsage parse_memory_usage(std::istream& status) {
  MemoryUsage usage;
  std::string line;
  while (std::getline(status, line)) {
    std::istringstream fields(line);
    std::string key, unit;
    std::uint64_t value = 0;
    if (!(fields >> key >> value)) continue;
    fields >> unit;
    // The kernel writes these in kB (kibibytes); no other unit appears in the file.
    const std::uint64_t bytes = unit == "kB" ? value * 1024 : value;
    if (key == "VmRSS:") usage.rss_bytes = bytes;
    if (key == "VmHWM:") usage.peak_rss_bytes = bytes;
  }
  return usage;
}

MemoryUsage read_memory_usage() {
  std::ifstream status("/proc/self/status");
  if (!status) return {};
  return parse_memory_usage(status);
}

}  // namespace trackcosim::runtime
