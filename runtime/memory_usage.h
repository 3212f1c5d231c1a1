#pragma once
// How much memory this process holds, as Linux counts it in /proc/self/status: VmRSS (resident
// now) and VmHWM (the resident high-water mark since the process started). The peak is what
// decides whether a run fits a node, and the kernel keeps it for free, so a run reads it once at
// its end instead of sampling. Where the file is missing (not Linux) both are 0: a report of
// memory must never stop a run.

#include <cstdint>
#include <istream>

namespace trackcosim::runtime {

struct MemoryUsage {
  std::uint64_t rss_bytes = 0;       ///< VmRSS
  std::uint64_t peak_rss_bytes = 0;  ///< VmHWM
};

/// This process now; zeros where /proc/self/status cannot be read.
MemoryUsage read_memory_usage();

/// The two fields of a /proc/<pid>/status text ("VmRSS:  1234 kB"); a field that is absent or
/// not a number stays 0.
MemoryUsage parse_memory_usage(std::istream& status);

}  // namespace trackcosim::runtime
