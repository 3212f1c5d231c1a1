// The `cosim` section of a terrain config: what a co-simulation refuses because it would ignore
// it (and what a compaction may use), the shipped co-simulation configs, the snapshot interval,
// cosim.settle_step and cosim.compaction (defaults, round trip through run.json, refusals).

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "io/json_fields.h"
#include "terrain_node/config/cosim_unused_settings.h"
#include "terrain_node/config/terrain_config.h"
#include "terrain_node/coupling/cosim_snapshots.h"
#include "tests/support/config_errors.h"

namespace trackcosim::terrain {
namespace {

TerrainConfig parse(const std::string& text) { return parse_terrain_config(text, "terrain.json"); }

using test::starts_with;

// Issue 17 item 8a: a co-simulation writes no snapshots, probes, settle statistics or periodic
// checkpoints, so a --cosim config that asks for one is refused, naming the file and the key.
std::string cosim_refusal(const std::string& extra) {
  const TerrainConfig c = parse(R"({"end_time": 0, "cosim": {"settle_time": 0.1})" + extra + "}");
  try {
    refuse_settings_unused_by_cosim(c);
  } catch (const io::ConfigError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(TerrainConfigCosim, SettingsACosimRunWouldIgnoreAreRefusedByName) {
  EXPECT_TRUE(starts_with(cosim_refusal(R"(, "container": {"min": [0, 0, 0], "max": [1, 1, 1]},
                                          "output": {"probes": [2]})"),
                          "terrain.json: output.probes: co-simulation writes no probes.csv"));
  EXPECT_TRUE(starts_with(cosim_refusal(R"(, "output": {"probe_interval": 10})"), "terrain.json: output.probe_interval: "));
  EXPECT_TRUE(starts_with(cosim_refusal(R"(, "output": {"checkpoint_interval": 100})"),
                          "terrain.json: output.checkpoint_interval: co-simulation writes checkpoint.bin only when"));
  EXPECT_TRUE(starts_with(cosim_refusal(R"(, "output": {"heightmap_spacing": 0.01})"),
                          "terrain.json: output.heightmap_spacing: co-simulation writes no heightmap"));
  EXPECT_TRUE(starts_with(cosim_refusal(R"(, "output": {"packing_margin": 1})"), "terrain.json: output.packing_margin: "));
  EXPECT_TRUE(starts_with(cosim_refusal(R"(, "output": {"contact_gap": 1e-4})"), "terrain.json: output.contact_gap: "));
  EXPECT_TRUE(starts_with(cosim_refusal(R"(, "settle": {"rms_speed": 0.01})"),
                          "terrain.json: settle: co-simulation settles for cosim.settle_time"));
  // What it does use, and values that ask for nothing, pass.
  // Snapshots of the coupling are written (cosim_snapshots.h).
  EXPECT_EQ(cosim_refusal(R"(, "output": {"snapshot_interval": 50})"), "accepted");
  // A compaction measures the packing as the settle statistics do: their box and map settings.
  EXPECT_NO_THROW(refuse_settings_unused_by_cosim(
      parse(R"({"end_time": 0, "cosim": {"settle_time": 0.1, "compaction": {"packing": 0.6}},
                "output": {"packing_margin": 1, "heightmap_spacing": 0.01}})")));
  EXPECT_EQ(cosim_refusal(R"(, "output": {"progress_interval": 0, "stats": true, "snapshot_interval": 0,
                                          "checkpoint_interval": 0, "probe_interval": 1, "probes": []})"),
            "accepted");
}

/// The terrain configs a co-simulation runs: each launcher file's terrain.config, and the
/// configs/cosim_*.json that are terrain configs themselves (the plane, the TCP example).
TEST(TerrainConfigCosim, ShippedCosimConfigsAskForNothingTheCosimIgnores) {
  const std::filesystem::path configs = std::filesystem::path(TRACKCOSIM_SOURCE_DIR) / "configs";
  std::set<std::filesystem::path> terrains;
  for (const auto& entry : std::filesystem::directory_iterator(configs)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with("cosim_") || entry.path().extension() != ".json") continue;
    const nlohmann::json doc = io::load_json_document(entry.path());
    terrains.insert(doc.contains("terrain")
                        ? std::filesystem::path(TRACKCOSIM_SOURCE_DIR) / doc["terrain"]["config"].get<std::string>()
                        : entry.path());
  }
  EXPECT_GE(terrains.size(), 7u);
  for (const std::filesystem::path& file : terrains) {
    TerrainConfig c;  // the description is enough: the big beds are not built here
    c.source = file.string();
    c.scene = read_terrain_scene(io::load_json_document(file), c.source);
    EXPECT_NO_THROW(refuse_settings_unused_by_cosim(c)) << file;
  }
  // What they do ask for: the default run and the moving patch record the bed (particles.pvd).
  for (const char* name : {"cosim_gravel_terrain.json", "cosim_robot_patch_terrain.json"})
    EXPECT_GT(read_terrain_scene(io::load_json_document(configs / name), name).output.snapshot_interval, 0u) << name;
  // And every shipped co-simulation writes terrain frames, the others at the default 0.1 s.
  for (const std::filesystem::path& file : terrains) {
    const TerrainScene scene = read_terrain_scene(io::load_json_document(file), file.string());
    EXPECT_GT(cosim_snapshot_interval(scene.output, scene.step.step_size), 0u) << file;
  }
}

// A co-simulation takes a frame every 0.1 s unless its config says otherwise; 0 turns them off.
// The resolved config (run.json) leaves the key out when it was not given, so that it loads again
// to the same default.
TEST(CosimSnapshotInterval, DefaultIsATenthOfASecondAndTheConfigDecides) {
  OutputSettings o;
  EXPECT_EQ(cosim_snapshot_interval(o, 1e-3), 100u);
  EXPECT_EQ(cosim_snapshot_interval(o, 2e-3), 50u);
  EXPECT_EQ(cosim_snapshot_interval(o, 0.5), 1u);
  o.snapshot_interval_set = true;
  EXPECT_EQ(cosim_snapshot_interval(o, 1e-3), 0u);
  o.snapshot_interval = 7;
  EXPECT_EQ(cosim_snapshot_interval(o, 1e-3), 7u);
  const TerrainConfig unset = parse_terrain_config(R"({"container": {"min": [0, 0, 0], "max": [1, 1, 1]},
    "particles": [{"kind": "spheres", "spheres": [{"position": [0.5, 0.5, 0.5], "radius": 0.1}]}],
    "step_size": 1e-3, "end_time": 0.1})", "unset.json");
  EXPECT_FALSE(unset.scene.output.snapshot_interval_set);
  EXPECT_FALSE(resolved_config_json(unset.scene)["output"].contains("snapshot_interval"));
  const TerrainConfig off = parse_terrain_config(R"({"container": {"min": [0, 0, 0], "max": [1, 1, 1]},
    "particles": [{"kind": "spheres", "spheres": [{"position": [0.5, 0.5, 0.5], "radius": 0.1}]}],
    "step_size": 1e-3, "end_time": 0.1, "output": {"snapshot_interval": 0}})", "off.json");
  EXPECT_TRUE(off.scene.output.snapshot_interval_set);
  EXPECT_EQ(resolved_config_json(off.scene)["output"]["snapshot_interval"], 0);
}


// cosim.settle_step (docs/terrain-config.md): absent it is the step size and run.json says
// nothing of it; given, it round-trips; zero or negative is refused by its key.
TEST(TerrainConfig, SettleStepRoundTripsAndMustBePositive) {
  const auto scene = [](const std::string& cosim) {
    return read_terrain_scene(nlohmann::json::parse(R"({"end_time": 1, "cosim": )" + cosim + "}"), "terrain.json");
  };
  EXPECT_EQ(scene(R"({"settle_time": 0.6})").cosim.settle_step, 0.0);
  EXPECT_FALSE(resolved_config_json(scene(R"({"settle_time": 0.6})"))["cosim"].contains("settle_step"));
  const TerrainScene fine = scene(R"({"settle_time": 0.6, "settle_step": 2.5e-4})");
  EXPECT_EQ(fine.cosim.settle_step, 2.5e-4);
  const TerrainScene again = read_terrain_scene(nlohmann::json::parse(resolved_config_json(fine).dump()), "resolved");
  EXPECT_EQ(again.cosim.settle_step, 2.5e-4);
  try {
    scene(R"({"settle_step": 0})");
    ADD_FAILURE() << "a zero settle_step was taken";
  } catch (const io::ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), "terrain.json: cosim.settle_step: must be > 0, got 0");
  }
}

// cosim.compaction (docs/terrain-config.md): absent, none; given with its packing alone, the
// defaults (2 g taps at 20 Hz, 0.1 s to relax, at most 50) and a round trip through run.json;
// a packing no spheres reach, a tap that cannot lift the bed, zero taps and a missing packing
// are refused by their keys.
TEST(TerrainConfig, CompactionRoundTripsWithItsDefaultsAndRefusesWhatCannotCompact) {
  const auto scene = [](const std::string& cosim) {
    return read_terrain_scene(nlohmann::json::parse(R"({"end_time": 1, "cosim": )" + cosim + "}"), "terrain.json");
  };
  EXPECT_FALSE(scene(R"({"settle_time": 0.6})").cosim.compaction.has_value());
  EXPECT_FALSE(resolved_config_json(scene(R"({"settle_time": 0.6})"))["cosim"].contains("compaction"));
  const TerrainScene dense = scene(R"({"settle_time": 0.6, "compaction": {"packing": 0.58}})");
  ASSERT_TRUE(dense.cosim.compaction.has_value());
  EXPECT_EQ(dense.cosim.compaction->packing, 0.58);
  EXPECT_EQ(dense.cosim.compaction->tap_acceleration, 2.0);
  EXPECT_EQ(dense.cosim.compaction->tap_frequency, 20.0);
  EXPECT_EQ(dense.cosim.compaction->relax_time, 0.1);
  EXPECT_EQ(dense.cosim.compaction->max_taps, 50u);
  const TerrainScene again = read_terrain_scene(nlohmann::json::parse(resolved_config_json(dense).dump()), "resolved");
  ASSERT_TRUE(again.cosim.compaction.has_value());
  EXPECT_EQ(again.cosim.compaction->packing, 0.58);
  EXPECT_EQ(again.cosim.compaction->max_taps, 50u);
  const auto refused = [&](const std::string& compaction, const std::string& message) {
    try {
      scene(R"({"compaction": )" + compaction + "}");
      ADD_FAILURE() << compaction << " was taken";
    } catch (const io::ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  };
  refused(R"({"packing": 0.75})", "cosim.compaction.packing: a packing fraction must be below 0.7405");
  refused(R"({"packing": 0.6, "tap_acceleration": 1})", "cosim.compaction.tap_acceleration: must be > 1");
  refused(R"({"packing": 0.6, "max_taps": 0})", "cosim.compaction.max_taps: must be >= 1, got 0");
  refused(R"({"tap_acceleration": 3})", "packing");
}

}  // namespace
}  // namespace trackcosim::terrain
