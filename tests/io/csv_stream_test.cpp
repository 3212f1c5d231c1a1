// io/csv_stream.h: the rows a resumed run keeps from an earlier run's CSV, and a full disk reported.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "io/csv_stream.h"
#include "io/output_file.h"

namespace trackcosim::io {
namespace {

std::filesystem::path scratch(const std::string& name) {
  const std::filesystem::path folder = std::filesystem::temp_directory_path() / "trackcosim_csv_stream_test";
  std::filesystem::create_directories(folder);
  return folder / name;
}

TEST(RowsBeforeStep, KeepsTheRowsOfEarlierStepsAndDropsAPartialLastLine) {
  const std::filesystem::path file = scratch("timing.csv");
  {
    std::ofstream out(file, std::ios::binary);
    out << "step,t,wait\n0,0.001,0.5\n1,0.002,0.25\n2,0.003,0.125\n3,0.004,0.0625\n4,0.0";  // killed mid-row
  }
  EXPECT_EQ(rows_before_step(file, 3), (std::vector<std::string>{"0,0.001,0.5", "1,0.002,0.25", "2,0.003,0.125"}));
  EXPECT_EQ(rows_before_step(file, 0), std::vector<std::string>{});
  // The partial row of step 4 is never kept, even when every step is wanted.
  EXPECT_EQ(rows_before_step(file, 100).size(), 4u);
}

TEST(RowsBeforeStep, AMissingFileHasNone) {
  EXPECT_TRUE(rows_before_step(scratch("no_such_file.csv"), 10).empty());
}

TEST(CsvStream, RowsWrittenAreWholeLinesAfterTheHeader) {
  const std::filesystem::path file = scratch("rows.csv");
  {
    CsvStream csv(file, "step,x");
    csv.write_row("0,1.5");
    csv.write_row("1,2.5");
  }
  EXPECT_EQ(rows_before_step(file, 2), (std::vector<std::string>{"0,1.5", "1,2.5"}));
}

TEST(CsvStream, AFullDiskIsAnOutputErrorNamingTheFileAndTheReason) {
  // /dev/full takes the open and refuses every write with ENOSPC, as a full disk does.
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full on this system";
  try {
    CsvStream csv("/dev/full", "a,b");
    FAIL() << "the header's write to a full disk was not refused";
  } catch (const OutputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("/dev/full"), std::string::npos) << what;
    EXPECT_NE(what.find("No space left on device"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace trackcosim::io
