// The memory figures of run.json (runtime/memory_usage.h): the two fields of a status text in bytes,
// absent or broken fields as 0, and this process's own figures as Linux gives them (the peak
// never below the resident size, and growing when memory is touched).

#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include "runtime/memory_usage.h"

namespace trackcosim::runtime {
namespace {

TEST(MemoryUsage, ReadsResidentAndPeakInBytes) {
  std::istringstream status("Name:\tterrain_node\nVmPeak:\t  999999 kB\nVmHWM:\t    2048 kB\nVmRSS:\t    1536 kB\n"
                            "Threads:\t4\n");
  const MemoryUsage m = parse_memory_usage(status);
  EXPECT_EQ(m.rss_bytes, 1536u * 1024u);
  EXPECT_EQ(m.peak_rss_bytes, 2048u * 1024u);
}

TEST(MemoryUsage, AbsentOrBrokenFieldsAreZero) {
  std::istringstream empty("");
  EXPECT_EQ(parse_memory_usage(empty).rss_bytes, 0u);
  std::istringstream broken("VmRSS:\tlots kB\nName:\tx\n");
  const MemoryUsage m = parse_memory_usage(broken);
  EXPECT_EQ(m.rss_bytes, 0u);
  EXPECT_EQ(m.peak_rss_bytes, 0u);
}

TEST(MemoryUsage, ThisProcessPeakIsAtLeastItsResidentSizeAndFollowsTouchedMemory) {
  const MemoryUsage before = read_memory_usage();
  ASSERT_GT(before.rss_bytes, 0u) << "/proc/self/status is expected on Linux";
  EXPECT_GE(before.peak_rss_bytes, before.rss_bytes);
  // 64 MiB written byte by byte is resident: the high-water mark must be at least that far up.
  std::vector<unsigned char> block(64u << 20);
  for (std::size_t i = 0; i < block.size(); i += 4096) block[i] = static_cast<unsigned char>(i >> 12);
  asm volatile("" : : "g"(block.data()) : "memory");  // the writes happen: the compiler may not drop them
  const MemoryUsage after = read_memory_usage();
  EXPECT_GE(after.peak_rss_bytes, before.rss_bytes + block.size() * 9 / 10);
  EXPECT_GE(after.peak_rss_bytes, after.rss_bytes);
  EXPECT_EQ(block[4096], 1);  // keeps the block alive until after the reading
}

}  // namespace
}  // namespace trackcosim::runtime
