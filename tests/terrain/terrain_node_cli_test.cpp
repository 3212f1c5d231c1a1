// terrain_node's command line for --config: bad input exits 1 with one line naming the file and
// the key; bad usage exits 2; the help lists the outputs of both modes.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;

struct Result {
  int status;
  std::string output;  ///< stdout and stderr together
};

Result run(const std::string& arguments) {
  const std::string command = std::string(TERRAIN_NODE_EXE) + " " + arguments + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  Result r{-1, {}};
  if (!pipe) return r;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) r.output.append(buffer, n);
  const int raw = pclose(pipe);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return r;
}

// A refused config is bad input: exit status 2 (docs/exit-status.md), as a bad command line.
TEST(TerrainNodeCli, BadConfigExitsTwoNamingFileAndKey) {
  const fs::path file = fs::temp_directory_path() / "trackcosim_cli_bad_config.json";
  std::ofstream(file) << R"({"end_time": 1, "solver": {"omega": 2}})";
  const Result r = run("--config " + file.string() + " --out " + (fs::temp_directory_path() / "trackcosim_cli_out").string());
  fs::remove(file);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.output, "terrain_node: error: " + file.string() + ": solver.omega: must be in (0, 1], got 2\n");
}

TEST(TerrainNodeCli, BothModesOrNoneIsBadUsage) {
  EXPECT_EQ(run("--config a.json --contacts b.json").status, 2);
  EXPECT_EQ(run("").status, 2);
  EXPECT_EQ(run("--config a.json --threads 0").status, 2);
}

TEST(TerrainNodeCli, HelpListsTheOutputsAndAnExample) {
  const Result r = run("--help");
  EXPECT_EQ(r.status, 0);
  for (const char* text : {"--config", "probes.csv", "stats.csv", "particles.pvd", "run.json",
                           "terrain_node --config configs/settle_small.json"})
    EXPECT_NE(r.output.find(text), std::string::npos) << text;
}

}  // namespace
