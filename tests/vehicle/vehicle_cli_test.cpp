// vehicle_node's command line refuses numbers no run can use, naming the option and the value in
// one short line (issue 17: CLI11's own validators printed the largest double in full).

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <tuple>

#include <gtest/gtest.h>

namespace {

const std::string kRobot = std::string(TRACKCOSIM_SOURCE_DIR) + "/configs/vehicles/ndia_light_robot.json";

/// Runs vehicle_node with `arguments` on `config`; returns (exit status, stderr and stdout).
std::pair<int, std::string> run_vehicle_node(const std::string& arguments, const std::string& config = kRobot) {
  const std::string command = std::string(VEHICLE_NODE_EXE) + " --config " + config + " " + arguments + " 2>&1";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  std::string output;
  std::array<char, 256> chunk{};
  while (std::fgets(chunk.data(), chunk.size(), pipe.get()) != nullptr) output += chunk.data();
  const int status = pclose(pipe.release());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

TEST(VehicleNodeCli, NumbersNoRunCanUseAreRefusedInOneShortLine) {
  const struct {
    const char* arguments;
    const char* message;
  } cases[] = {
      {"--ground rigid --end-time -1", "--end-time: must be a finite number >= 0, got -1"},
      {"--ground rigid --end-time 1e400", "--end-time: must be a finite number >= 0, got 1e400"},
      {"--ground rigid --step 0", "--step: must be a finite number > 0, got 0"},
      {"--terrain mpi --timeout -1", "--timeout: must be a finite number > 0, got -1"},
      {"--terrain tcp --timeout nan", "--timeout: must be a finite number > 0, got nan"},
      {"--terrain mpi --checkpoint-interval 0", "--checkpoint-interval: must be a finite number > 0, got 0"},
      {"--terrain mpi --checkpoint-interval inf", "--checkpoint-interval: must be a finite number > 0, got inf"},
      {"--ground rigid --checkpoint-interval 10", "--checkpoint-interval requires --terrain"},
  };
  for (const auto& c : cases) {
    const auto [status, output] = run_vehicle_node(c.arguments);
    EXPECT_EQ(status, 2) << c.arguments << ": " << output;  // bad command line
    EXPECT_NE(output.find(c.message), std::string::npos) << c.arguments << ": " << output;
    EXPECT_LT(output.size(), 200u) << c.arguments << ": " << output;
  }
}

// A rig file that is not there is named (a rig run's checkpoints and resume: cosim_rig_resume).
TEST(VehicleNodeCli, BadRigInputIsRefusedByName) {
  auto [status, output] = run_vehicle_node("--ground rigid --rig /nonexistent/rig.json --out /tmp/trackcosim_cli_rig");
  EXPECT_EQ(status, 2) << output;  // bad input (docs/exit-status.md)
  EXPECT_NE(output.find("/nonexistent/rig.json"), std::string::npos) << output;
}

// A vehicle config that is refused is bad input (2, docs/exit-status.md), as a bad command line
// is; 1 is kept for a run that failed. Named: the file and the key.
TEST(VehicleNodeCli, ARefusedConfigIsBadInput) {
  auto [status, output] = run_vehicle_node("--ground rigid --out /tmp/trackcosim_cli_config", "/nonexistent/v.json");
  EXPECT_EQ(status, 2) << output;
  EXPECT_NE(output.find("vehicle_node: error: /nonexistent/v.json: cannot open"), std::string::npos) << output;
  const std::string typo = testing::TempDir() + "trackcosim_cli_typo.json";
  {
    std::ifstream in(kRobot);
    std::stringstream text;
    text << in.rdbuf();
    std::string json = text.str();
    const auto at = json.find("\"driver\"");
    ASSERT_NE(at, std::string::npos);
    json.replace(at, 8, "\"drivr\"");
    std::ofstream(typo) << json;
  }
  std::tie(status, output) = run_vehicle_node("--ground rigid --out /tmp/trackcosim_cli_config", typo);
  EXPECT_EQ(status, 2) << output;
  EXPECT_NE(output.find(typo + ": drivr: unknown key"), std::string::npos) << output;
}

}  // namespace
