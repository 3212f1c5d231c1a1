// Issue 17: a crash must not lose the vehicle's outputs. vehicle_node streams vehicle.csv and
// shoes.csv (io::CsvStream, flushed every output step), so after a SIGKILL mid-run both files
// hold their header and whole rows up to the kill; only a last line without its line end (a kill
// in the middle of a write) may be partial, and a reader drops it.

#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace {

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::size_t fields(const std::string& line) { return 1 + std::count(line.begin(), line.end(), ','); }

/// Checks that `file` starts with a header that begins with `header_start`, has at least one whole
/// data row, and that every whole line has the header's number of fields.
void expect_whole_rows(const std::filesystem::path& file, const std::string& header_start) {
  SCOPED_TRACE(file.string());
  ASSERT_TRUE(std::filesystem::exists(file));
  const std::string text = read(file);
  std::istringstream lines(text);
  std::string header;
  ASSERT_TRUE(std::getline(lines, header));
  EXPECT_EQ(header.rfind(header_start, 0), 0u) << header;
  const std::size_t columns = fields(header);
  // A last line without '\n' was cut by the kill: not a row.
  const std::size_t whole_lines = std::count(text.begin(), text.end(), '\n');
  ASSERT_GE(whole_lines, 2u) << "no whole data row";
  std::string line;
  for (std::size_t i = 1; i < whole_lines && std::getline(lines, line); ++i)
    ASSERT_EQ(fields(line), columns) << "line " << i + 1 << ": " << line;
}

TEST(vehicle_node_sigkill, LeavesVehicleAndShoesCsvWithWholeRows) {
  const auto out = std::filesystem::temp_directory_path() / "trackcosim_vehicle_sigkill_test";
  std::filesystem::remove_all(out);
  // 1000 s of simulated time takes far longer than the 3 s before the kill.
  const std::string command = "timeout -s KILL 3 " + std::string(VEHICLE_NODE_EXE) + " --config " +
                              TRACKCOSIM_SOURCE_DIR + "/configs/vehicles/ndia_light_robot.json --ground rigid" +
                              " --end-time 1000 --quiet --out " + out.string() + " > /dev/null 2>&1";
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 128 + SIGKILL) << "vehicle_node was not killed mid-run";

  expect_whole_rows(out / "vehicle.csv", "t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz,sprocket_torque_left,");
  expect_whole_rows(out / "shoes.csv", "t,shoe,side,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz,fx,fy,fz");
  EXPECT_FALSE(std::filesystem::exists(out / "run.json"));  // written only by a finished run
  std::filesystem::remove_all(out);
}

}  // namespace
