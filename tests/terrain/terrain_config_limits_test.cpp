// Issue 17 items 5 and 7: numbers no run can use are refused when the config is read, naming the
// file, the key and the allowed range, instead of failing deep in a run (a density of 1e300 used
// to stop in the exact sums with a 300-digit number); a heightmap path that is a folder is refused
// naming the key and the path; a negative count names the file and the key path.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "terrain_node/config/terrain_config.h"
#include "tests/support/config_errors.h"

namespace trackcosim::terrain {
namespace {

TerrainConfig parse(const std::string& text) { return parse_terrain_config(text, "terrain.json"); }

std::string config_error(const std::string& text) { return test::config_error_message(parse, text); }

using test::starts_with;

/// A config with one layered source of `count` layers whose entry ends with `extra`, and `top`
/// at the top level.
std::string layers(const std::string& extra, const std::string& top = "", const std::string& count = "3") {
  return R"({"container": {"min": [0, 0, 0], "max": [0.2, 0.2, 0.3]},
             "particles": [{"kind": "layers", "min": [0, 0], "max": [0.2, 0.2], "bottom": 0.01, "layers": )" +
         count + R"(, "radius": 0.01)" + extra + "}], " + top + R"("end_time": 0})";
}

TEST(TerrainConfigLimits, DensityOutsideItsRangeIsRefusedNamingKeyAndRange) {
  EXPECT_EQ(config_error(R"({"end_time": 1, "material": {"density": 1e300}})"),
            "terrain.json: material.density: must be in [1, 1e+05] kg/m^3, got 1e+300");
  EXPECT_EQ(config_error(R"({"end_time": 1, "material": {"density": 1e-3}})"),
            "terrain.json: material.density: must be in [1, 1e+05] kg/m^3, got 0.001");
  EXPECT_EQ(config_error(layers(R"(, "material": {"density": 2e5})")),
            "terrain.json: particles[0].material.density: must be in [1, 1e+05] kg/m^3, got 2e+05");
  EXPECT_EQ(config_error(R"({"end_time": 1, "material": {"density": 0}})"),
            "terrain.json: material.density: must be > 0, got 0");
  EXPECT_NO_THROW(parse(R"({"end_time": 1, "material": {"density": 1}})"));
  EXPECT_NO_THROW(parse(R"({"end_time": 1, "material": {"density": 1e5}})"));
}

TEST(TerrainConfigLimits, RadiusOutsideItsRangeIsRefusedInEveryForm) {
  const std::string spheres = R"({"end_time": 1, "particles": [{"kind": "spheres", "spheres": [
                                   {"position": [0, 0, 0], "radius": )";
  EXPECT_EQ(config_error(spheres + "20}]}]}"), "terrain.json: particles[0].spheres[0].radius: must be in [1e-05, 10] m, got 20");
  EXPECT_EQ(config_error(spheres + "1e-7}]}]}"),
            "terrain.json: particles[0].spheres[0].radius: must be in [1e-05, 10] m, got 1e-07");
  EXPECT_EQ(config_error(R"({"end_time": 1, "particles": [{"kind": "lattice", "min": [0, 0, 0], "max": [1, 1, 1],
                             "spacing": 0.1, "radius": [0.01, 1e300]}]})"),
            "terrain.json: particles[0].radius[1]: must be in [1e-05, 10] m, got 1e+300");
  EXPECT_EQ(config_error(R"({"end_time": 1, "particles": [{"kind": "lattice", "min": [0, 0, 0], "max": [1, 1, 1],
                             "spacing": 0.1, "radius": {"distribution": "sieve", "fractions": [{"diameter": 40, "mass": 1}]}}]})"),
            "terrain.json: particles[0].radius.fractions[0].diameter: must be in [2e-05, 20] m, got 40 (a radius in "
            "[1e-05, 10] m)");
  EXPECT_EQ(config_error(R"({"end_time": 1, "particles": [{"kind": "compounds", "bodies": [{"position": [0, 0, 0],
                             "mass": 1, "inertia": [1, 1, 1], "spheres": [{"offset": [0, 0, 0], "radius": 11}]}]}]})"),
            "terrain.json: particles[0].bodies[0].spheres[0].radius: must be in [1e-05, 10] m, got 11");
}

TEST(TerrainConfigLimits, CompoundMassAndBedMassBeyondTheExactSumsAreRefused) {
  EXPECT_EQ(config_error(R"({"end_time": 1, "particles": [{"kind": "compounds", "bodies": [{"position": [0, 0, 0],
                             "mass": 1e300, "inertia": [1, 1, 1], "spheres": [{"offset": [0, 0, 0], "radius": 1}]}]}]})"),
            "terrain.json: particles[0].bodies[0].mass: must be in [1e-15, 1e+10] kg, got 1e+300");
  // 200 spheres of radius 5 m at 10^5 kg/m^3: 1.05e10 kg, each within its own range.
  EXPECT_TRUE(starts_with(config_error(R"({"end_time": 1, "material": {"density": 1e5}, "particles": [
      {"kind": "lattice", "min": [0, 0, 0], "max": [1, 1, 1], "spacing": 0.1, "radius": 0.01},
      {"kind": "lattice", "min": [0, 0, 2], "max": [105, 105, 23], "spacing": 10.5, "radius": 5}]})"),
                          "terrain.json: particles[1]: the particles up to this entry may weigh 1.05e+10 kg"));
}

TEST(TerrainConfigLimits, GravityAndStepSizeBeyondTheirRangesAreRefused) {
  EXPECT_EQ(config_error(R"({"end_time": 1, "gravity": [0, 0, -1e300]})"),
            "terrain.json: gravity: must be at most 1000 m/s^2 long (a hundred times the Earth's), got 1e+300 m/s^2");
  EXPECT_NO_THROW(parse(R"({"end_time": 1, "gravity": [0, 0, -1000]})"));
  EXPECT_EQ(config_error(R"({"end_time": 1e300, "step_size": 1e300})"),
            "terrain.json: step_size: must be at most 1 s, got 1e+300");
  // Too many steps: refused naming end_time (TerrainConfigErrors has the exact messages).
  EXPECT_TRUE(starts_with(config_error(R"({"end_time": 1, "step_size": 1e-300})"), "terrain.json: end_time: "));
  EXPECT_TRUE(starts_with(config_error(R"({"end_time": 1e300})"), "terrain.json: end_time: "));
}

TEST(TerrainConfigLimits, NegativeCountsNameTheFileAndTheKeyPath) {
  EXPECT_EQ(config_error(layers("", "", "-4")),
            "terrain.json: particles[0].layers: must be >= 0, got -4");
  EXPECT_EQ(config_error(layers(R"(, "seed": -4)")), "terrain.json: particles[0].seed: must be >= 0, got -4");
  EXPECT_EQ(config_error(layers("", R"("solver": {"max_iterations": -4}, )")),
            "terrain.json: solver.max_iterations: must be >= 0, got -4");
  EXPECT_EQ(config_error(layers("", R"("output": {"snapshot_interval": -4}, )")),
            "terrain.json: output.snapshot_interval: must be >= 0, got -4");
}

TEST(TerrainConfigLimits, AHeightmapPathThatIsAFolderIsRefusedNamingKeyAndPath) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "trackcosim_config_limits_test";
  std::filesystem::create_directories(dir / "ground.png");
  const std::string text = R"({"container": {"min": [0, 0, 0], "max": [1, 1, 1]},
    "particles": [{"kind": "heightmap", "file": "ground.png", "min": [0, 0], "max": [1, 1], "elevation": [0.1, 0.2],
                   "radius": 0.01}], "end_time": 0})";
  const std::string source = (dir / "terrain.json").string();
  const std::string message =
      test::config_error_message([&](const std::string& t) { return parse_terrain_config(t, source); }, text);
  EXPECT_EQ(message, source + ": particles[0].file: " + (dir / "ground.png").string() + ": is a directory, not a file");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace trackcosim::terrain
