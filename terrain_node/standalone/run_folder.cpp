#include "terrain_node/standalone/run_folder.h"

#include "io/output_file.h"
#include "io/run_json.h"
#include "terrain_node/output/height_map.h"
#include "terrain_node/output/snapshot_files.h"
#include "terrain_node/output/settle_statistics.h"

namespace trackcosim::terrain {
namespace {

nlohmann::ordered_json gid_ranges_json(const std::vector<GidRange>& ranges) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const GidRange& r : ranges) out.push_back({{"what", r.what}, {"first", r.first}, {"count", r.count}});
  return out;
}

}  // namespace

RunFolder::RunFolder(std::filesystem::path folder, const StartState& start, const DistributedTerrain& terrain,
                     const runtime::ThreadChoice& threads, const gpu::DeviceChoice& device,
                     std::uint64_t startup_rss_bytes)
    : folder_(std::move(folder)), config_(start.config), writes_(terrain.leader()),
      final_snapshot_(start.config.scene.output.snapshot_interval > 0 || start.config.scene.settle.enabled),
      startup_rss_bytes_(startup_rss_bytes) {
  const OutputSettings& out = config_.scene.output;
  if (writes_) start_files(start, terrain, threads, device);
  // Every rank writes its piece of each frame; an earlier run's frames in the folder go.
  if (final_snapshot_) snapshots_.emplace(terrain, folder_, /*fresh=*/true, config_.scene.output.vtk_format);
  write_probes(terrain);
  if (out.snapshot_interval > 0) snapshot(terrain);
}

void RunFolder::start_files(const StartState& start, const DistributedTerrain& terrain,
                            const runtime::ThreadChoice& threads, const gpu::DeviceChoice& device) {
  const TerrainConfig& config = start.config;
  const OutputSettings& out = config.scene.output;
  io::create_output_folder(folder_);
  run_json_ = io::run_json_header("terrain_node", threads);
  run_json_["device"] = device.description;
  run_json_["config_file"] = config.source;
  run_json_["status"] = "running";
  // The bed that runs: a checkpoint's when the run starts from one, whatever the config's
  // particles would make.
  run_json_["bodies"] = start.bodies;
  run_json_["spheres"] = start.spheres;
  if (!start.bed_checkpoint.empty()) run_json_["bed_checkpoint"] = start.bed_checkpoint;
  if (!start.restart.empty())
    run_json_["restarted_from"] = {{"checkpoint", start.restart}, {"step", terrain.step_count()}, {"time", terrain.time()}};
  run_json_["steps"] = config.step_count();
  run_json_["gid_ranges"] = gid_ranges_json(config.gid_ranges);
  run_json_["ranks"] = terrain.ranks();
  run_json_["layout"] = terrain.layout_name();
  run_json_["ghost_width"] = terrain.ghost_width();
  run_json_["config"] = resolved_config_json(config.scene);
  write_run_json();

  if (!out.probes.empty()) probes_.emplace(folder_ / "probes.csv");
  if (out.stats) stats_.emplace(folder_ / "stats.csv");
}

void RunFolder::after_step(const DistributedTerrain& terrain, const gpu::StepStats& stats, double wall_seconds) {
  const std::uint64_t step = terrain.step_count();
  const OutputSettings& out = config_.scene.output;
  if (stats_) stats_->write(step, terrain.time(), stats, terrain.stage_seconds(), wall_seconds);
  if (step % out.probe_interval == 0) write_probes(terrain);
  if (out.snapshot_interval > 0 && step % out.snapshot_interval == 0) snapshot(terrain);
}

void RunFolder::finish(const DistributedTerrain& terrain, double run_wall_seconds, const SettleStatistics* bed,
                       const char* stop_reason) {
  const std::uint64_t step = terrain.step_count();
  if (final_snapshot_ && last_snapshot_step_ != step) snapshot(terrain);
  // The high-water mark, read after the last snapshot and (the caller's) last checkpoint.
  memory_ = gather_run_memory(terrain.group(), startup_rss_bytes_);
  if (!writes_) return;
  if (bed != nullptr) write_settle(terrain, run_wall_seconds, *bed, stop_reason);
  if (probes_) probes_->flush();
  if (stats_) stats_->flush();
  run_json_["status"] = "finished";
  run_json_["steps_done"] = step;
  run_json_["final_time"] = terrain.time();
  run_json_["wall_seconds"] = run_wall_seconds;
  run_json_["memory"] = run_memory_json(memory_);
  write_run_json();
}

std::vector<std::string> RunFolder::file_names() const {
  std::vector<std::string> names{"run.json"};
  if (probes_) names.push_back("probes.csv");
  if (stats_) names.push_back("stats.csv");
  if (run_json_.contains("settle")) names.push_back("settle.json");
  if (has_height_map_) names.push_back("heightmap.csv, heightmap.png");
  if (snapshots_)
    names.push_back("particles.pvd (" + std::to_string(snapshots_->frames()) + " snapshots in " + kSnapshotFolder +
                    "/, one piece per rank)");
  return names;
}

void RunFolder::write_probes(const DistributedTerrain& terrain) {
  if (config_.scene.output.probes.empty()) return;
  const std::vector<gpu::BodyState> states = terrain.gather_states(config_.scene.output.probes);
  if (!writes_) return;
  for (const gpu::BodyState& state : states) probes_->write(terrain.time(), state);
}

void RunFolder::snapshot(const DistributedTerrain& terrain) {
  snapshots_->write(terrain, terrain.time());
  last_snapshot_step_ = terrain.step_count();
}

void RunFolder::write_settle(const DistributedTerrain& terrain, double run_wall_seconds, const SettleStatistics& bed,
                             const char* stop_reason) {
  nlohmann::ordered_json settle = {{"stop_reason", stop_reason != nullptr ? stop_reason : "end_time"}};
  if (config_.scene.settle.enabled) settle["rms_speed_threshold"] = config_.scene.settle.rms_speed;
  settle["steps"] = terrain.step_count();
  settle["time"] = terrain.time();
  settle["wall_seconds"] = run_wall_seconds;
  settle.update(settle_statistics_json(bed));
  io::write_json_file(folder_ / "settle.json", settle);
  run_json_["settle"] = settle;
  if (bed.height_map.top.empty()) return;
  write_height_map_csv(folder_ / "heightmap.csv", bed.height_map);
  write_height_map_png(folder_ / "heightmap.png", bed.height_map);
  has_height_map_ = true;
}

void RunFolder::write_run_json() const { io::write_json_file(folder_ / "run.json", run_json_); }

}  // namespace trackcosim::terrain
