// Issue 33 item 4: one gravel for every shipped run. Every terrain config under configs/ that is
// gravel runs on the load-carrying model: APGD with rolling resistance and compliant grain
// contacts (docs/ccp.md, "Every shipped gravel: one model"). Smooth spheres roll past each other
// and let a vehicle sink to the floor. The configs that are not gravel say what they are instead;
// a new config must be put in one of the lists, so none slips back to smooth spheres unnoticed.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>

#include "io/json_fields.h"
#include "terrain_node/config/terrain_config.h"

namespace trackcosim::terrain {
namespace {

const std::filesystem::path kConfigs = std::filesystem::path(TRACKCOSIM_SOURCE_DIR) / "configs";

/// Gravel beds: the co-simulations' terrains, the settling and generator examples built of gravel.
const std::set<std::string> kGravel = {
    "cosim_gravel_terrain.json",   "cosim_m113_gravel_terrain.json",   "cosim_excavator_gravel_terrain.json",
    "cosim_tcp_example.json",      "heightmap_terrain.json",           "speed_bump.json",
    "cosim_robot_terrain.json",    "cosim_robot_patch_terrain.json",   "settle_robot_terrain.json",
    "mobility_robot_terrain.json", "mobility_robot_bump_terrain.json",
};

/// Not gravel: each keeps the contact model of what it reproduces or checks.
const std::set<std::string> kNotGravel = {
    "cosim_plane_terrain.json",  // a rigid plane: no grains
    "settle_small.json",         // glass beads (the co-simulation paper's settling runs): smooth spheres
    "settle_large.json",         // the same beads at 10^6, the paper's settling study
    "anchor_bed.json",           // the anchor paper's grains and contact model (docs/anchor.md)
    "anchor_run.json",           "anchor_small.json", "anchor_small_bed.json",
    "demo_collision.json",       // one collision pass over a scene, no dynamics
};

bool is_terrain_config(const nlohmann::json& doc) { return doc.contains("particles") || doc.contains("container"); }

TEST(ShippedGravel, EveryGravelRunsOnRollingResistanceAndCompliantContacts) {
  std::set<std::string> seen;
  for (const auto& entry : std::filesystem::directory_iterator(kConfigs)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".json") continue;
    const nlohmann::json doc = io::load_json_document(entry.path());
    if (!is_terrain_config(doc)) continue;  // launcher run files and the like
    seen.insert(name);
    const bool gravel = kGravel.contains(name);
    EXPECT_TRUE(gravel || kNotGravel.contains(name))
        << name << ": a new terrain config; gravel must run on the load-carrying model (put it in kGravel)";
    if (!gravel) continue;
    const TerrainScene scene = read_terrain_scene(doc, entry.path().string());
    const gpu::SolverSettings& solver = scene.step.solver;
    EXPECT_EQ(solver.method, gpu::SolverMethod::Apgd) << name;
    EXPECT_GT(solver.rolling_friction, 0) << name << ": smooth spheres roll past each other under a shoe";
    EXPECT_GT(solver.contact_stiffness, 0) << name << ": rigid grain contacts";
    EXPECT_GT(solver.contact_damping, 0) << name;
  }
  for (const std::string& name : kGravel) EXPECT_TRUE(seen.contains(name)) << name << " is listed but not shipped";
}

/// Gravel built by the `layers` generator starts its layers at least 50% apart (gap >= 0.5): from a
/// small gap the grains start stacked in columns, which rolling resistance holds up in a loose
/// packing that collapses under a vehicle (docs/ccp.md, "Layers must start apart for rolling grains
/// to pack"). The one exception carries no vehicle: the TCP example's two layers under the
/// examples' prescribed shoes, whose motion does not depend on the bed.
TEST(ShippedGravel, LayeredGravelStartsItsLayersApart) {
  const std::set<std::string> kNoVehicle = {"cosim_tcp_example.json"};
  for (const std::string& name : kGravel) {
    if (kNoVehicle.contains(name)) continue;
    const nlohmann::json doc = io::load_json_document(kConfigs / name);
    for (const nlohmann::json& source : doc.value("particles", nlohmann::json::array())) {
      if (source.value("kind", "") != "layers") continue;
      EXPECT_GE(source.value("gap", 0.1), 0.5) << name << ": layers started closer than 50% stay in loose columns";
    }
  }
}

}  // namespace
}  // namespace trackcosim::terrain
