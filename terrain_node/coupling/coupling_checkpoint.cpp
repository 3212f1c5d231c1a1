#include "terrain_node/coupling/coupling_checkpoint.h"

#include <nlohmann/json.hpp>

#include "io/config_error.h"

namespace trackcosim::terrain {

void write_coupling_checkpoint(const DistributedTerrain& terrain, const CouplingMark& mark,
                               const std::filesystem::path& path, const std::string& record) {
  nlohmann::ordered_json text = record.empty() ? nlohmann::ordered_json::object() : nlohmann::ordered_json::parse(record);
  text["cosim"] = {{"coupling_step_index", mark.step},
                   {"vehicle_time", mark.vehicle_time},
                   {"coupling_step", mark.coupling_step},
                   {"shoes", mark.shoes},
                   {"first_proxy_gid", mark.first_proxy}};
  terrain.write_checkpoint(path, text.dump());
}

CouplingMark read_coupling_mark(const CheckpointShare& checkpoint, const std::filesystem::path& file) {
  const std::string where = "--restart " + file.string();
  try {
    const nlohmann::json doc = nlohmann::json::parse(checkpoint.config_text);
    const nlohmann::json& m = doc.at("cosim");
    CouplingMark mark;
    mark.step = m.at("coupling_step_index").get<std::uint64_t>();
    mark.vehicle_time = m.at("vehicle_time").get<double>();
    mark.coupling_step = m.at("coupling_step").get<double>();
    mark.shoes = m.at("shoes").get<std::uint64_t>();
    mark.first_proxy = m.at("first_proxy_gid").get<gpu::GlobalId>();
    return mark;
  } catch (const nlohmann::json::exception&) {
    throw io::ConfigError(where +
                             ": not a co-simulation checkpoint (its text has no \"cosim\" coupling record); a "
                             "standalone run's checkpoint continues with terrain_node --config X --restart FILE");
  }
}

}  // namespace trackcosim::terrain
