#include "terrain_node/checkpoint/start_state.h"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string_view>

#include "io/config_error.h"
#include "io/json_fields.h"
#include "terrain_node/checkpoint/body_set_copy.h"

namespace trackcosim::terrain {
namespace {

/// The keys of a config that make the bed or its clock: a --restart must not change them (a
/// `bodies` entry's load schedule among them: it is part of the entry). The
/// rest (end_time, solver, collision, output, settle, domain, cosim) says how the run goes on.
/// They are compared in this order, and the first difference is named: a key whose default is
/// taken from another comes after it (the container's frictions default to material.friction),
/// so a change names the key the user wrote, not one the config derived from it.
constexpr std::array<std::string_view, 7> kBedKeys = {"material", "container", "particles", "obstacles",
                                                      "bodies",   "gravity",   "step_size"};

/// The gid ranges of a saved bed: its runs of consecutive gids with the same motion. Dynamic
/// runs are named as particles (is_particle), so the co-simulation's welcome counts them and the
/// bed's surface is found; the rest (walls, obstacles) as fixed bodies.
std::vector<GidRange> checkpoint_gid_ranges(const CheckpointShare& share, const std::string& file) {
  std::vector<GidRange> ranges;
  for (const GidRun& r : share.runs)
    ranges.push_back({(r.dynamic ? "particles[] (checkpoint " : "fixed bodies (checkpoint ") + file + ")", r.first, r.count});
  return ranges;
}

/// A value for a message: its JSON, cut short when long.
std::string shown(const nlohmann::json* value) {
  if (value == nullptr) return "absent";
  std::string text = value->dump();
  if (text.size() > 80) text = text.substr(0, 77) + "...";
  return text;
}

/// The path of the first place where `a` and `b` differ ("" for the values themselves), with
/// both values there (nullptr: the key is absent on that side).
struct Difference {
  std::string path;
  const nlohmann::json* a = nullptr;
  const nlohmann::json* b = nullptr;
};

std::optional<Difference> first_difference(const nlohmann::json* a, const nlohmann::json* b, const std::string& path) {
  if (a == nullptr && b == nullptr) return std::nullopt;  // absent on both sides (`bodies` of most runs)
  if (a != nullptr && b != nullptr && *a == *b) return std::nullopt;
  if (a == nullptr || b == nullptr || a->type() != b->type()) return Difference{path, a, b};
  if (a->is_object()) {
    for (const auto& [key, value] : a->items()) {
      const auto other = b->find(key);
      if (auto d = first_difference(&value, other == b->end() ? nullptr : &*other, path + "." + key)) return d;
    }
    for (const auto& [key, value] : b->items())
      if (!a->contains(key)) return Difference{path + "." + key, nullptr, &value};
  } else if (a->is_array() && a->size() == b->size()) {
    for (std::size_t i = 0; i < a->size(); ++i)
      if (auto d = first_difference(&(*a)[i], &(*b)[i], path + "[" + std::to_string(i) + "]")) return d;
  }
  return Difference{path, a, b};
}

/// The record of checkpoint_record, or null when the checkpoint has none (written before it
/// existed, or by a co-simulation, whose text holds its coupling record).
nlohmann::json read_record(const CheckpointShare& c) {
  if (c.config_text.empty()) return nullptr;
  nlohmann::json doc = nlohmann::json::parse(c.config_text, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object() || !doc.contains("config") || !doc["config"].is_object()) return nullptr;
  return doc;
}

constexpr const char* kRestartHint =
    ": --restart continues the run that wrote the checkpoint, with that run's bed and step_size "
    "(docs/terrain-config.md, \"Starting from a checkpoint\"); to start a new run on this bed, "
    "use --from-checkpoint";

/// --restart: the config must describe the bed the checkpoint holds. Where the checkpoint
/// records its run's config, the bed keys are compared; the body and sphere counts always are
/// (a bed that came from another checkpoint has only the record).
void check_restart(StartState& s, const std::filesystem::path& restart, const nlohmann::json& record) {
  const std::string where = "--restart " + restart.string() + ": ";
  if (!record.is_null()) {
    const nlohmann::json mine = nlohmann::json::parse(resolved_config_json(s.config.scene).dump());
    const nlohmann::json& theirs = record["config"];
    for (const std::string_view key : kBedKeys) {
      const auto a = mine.find(key), b = theirs.find(key);
      const auto d = first_difference(a == mine.end() ? nullptr : &*a, b == theirs.end() ? nullptr : &*b, std::string(key));
      if (d)
        throw io::ConfigError(where + "the config " + s.config.source + " does not match the run that wrote the checkpoint: " +
                              d->path + " is " + shown(d->a) + " here and " + shown(d->b) + " in that run" + kRestartHint);
    }
    if (record.contains("bed_checkpoint")) return;  // the config's generators never made this bed
  }
  const std::uint64_t bodies = body_count(s.config.gid_ranges), spheres = sphere_count(s.config.scene);
  if (bodies != s.bodies || spheres != s.spheres)
    throw io::ConfigError(where + "the config " + s.config.source + " makes " + std::to_string(bodies) + " bodies and " +
                          std::to_string(spheres) + " spheres (walls, particles and obstacles), the checkpoint holds " +
                          std::to_string(s.bodies) + " bodies and " + std::to_string(s.spheres) + " spheres" +
                          kRestartHint);
}

/// The checkpoint's bodies are the bed: the config's generators do not run. config.bodies keeps
/// the bodies every rank holds (walls, obstacles); the particles stay in the ranks' shares.
void take_bed_from(StartState& s, const std::string& bed_file) {
  const gpu::BodySet& b = s.checkpoint->bodies;
  std::vector<std::uint32_t> fixed;
  for (std::uint32_t i = 0; i < b.size(); ++i)
    if (!gpu::is_dynamic(b.motion[i])) fixed.push_back(i);
  const SphereIndex spheres(b);
  s.config.bodies = gpu::BodySet{};
  for (const std::uint32_t i : fixed) copy_body(b, spheres, i, s.config.bodies);
  s.config.gid_ranges = checkpoint_gid_ranges(*s.checkpoint, bed_file);
  s.bed_checkpoint = bed_file;
}

/// --from-checkpoint: the config's `bodies` join the saved bed with the gids after its last one.
/// Fixed ones are held by every rank (with the walls); moving ones start in the leader's share,
/// which DistributedTerrain hands to their owners like every other body of the file.
void add_config_bodies(StartState& s, const comm::RankGroup& group) {
  const std::vector<SceneBody>& list = s.config.scene.bodies;
  CheckpointShare& share = *s.checkpoint;
  GlobalId next = share.runs.empty() ? 0 : share.runs.back().first + share.runs.back().count;
  for (std::size_t i = 0; i < list.size(); ++i, ++next) {
    const SceneBody& b = list[i];
    s.config.body_gids.push_back(next);
    s.config.gid_ranges.push_back({body_label(i, b), next, 1});
    ++s.bodies;
    s.spheres += b.shape.spheres.size();
    if (!gpu::is_dynamic(b.motion)) add_scene_body(s.config.bodies, next, b);
    if (!gpu::is_dynamic(b.motion) || group.rank() == 0) add_scene_body(share.bodies, next, b);
  }
}

/// --restart of a run whose bed came from a checkpoint: its `bodies` were added after that bed,
/// so they are the file's last gids (add_config_bodies); their ranges are named as the run that
/// added them named them, not as the bed's.
void find_config_bodies(StartState& s) {
  const std::vector<SceneBody>& list = s.config.scene.bodies;
  std::vector<GidRange>& ranges = s.config.gid_ranges;
  std::uint64_t n = list.size();
  const GlobalId end = body_count(ranges);
  if (n > end) throw io::ConfigError("--restart: the config has " + std::to_string(n) + " bodies, the checkpoint only " +
                                     std::to_string(end) + " gids");
  for (std::uint64_t left = n; left > 0;) {
    const std::uint64_t cut = std::min(left, ranges.back().count);
    ranges.back().count -= cut;
    left -= cut;
    if (ranges.back().count == 0) ranges.pop_back();
  }
  s.config.body_gids.clear();
  for (std::size_t i = 0; i < list.size(); ++i) {
    s.config.body_gids.push_back(end - n + i);
    ranges.push_back({body_label(i, list[i]), end - n + i, 1});
  }
}

/// A checkpoint's run: output.probes name bodies of the bed that runs, not of the config's own scene.
void check_probes_on_bed(const StartState& s) {
  check_probes(s.config.scene, body_count(s.config.gid_ranges), s.config.source,
               "the bed that runs, the checkpoint's bodies and the config's `bodies`,");
}

}  // namespace

StartState load_start_state(const comm::RankGroup& group, const std::filesystem::path& config,
                            const std::filesystem::path& restart, const std::filesystem::path& from_checkpoint) {
  if (!restart.empty() && !from_checkpoint.empty())
    throw std::invalid_argument("--restart and --from-checkpoint exclude each other: --restart continues a run, "
                                "--from-checkpoint starts a new one on a saved bed");
  StartState s;
  if (from_checkpoint.empty()) {
    // Each rank generates its own particles (DistributedTerrain): only the fixed bodies here.
    s.config = load_terrain_config(config, BuildBodies::FixedOnly,
                                   restart.empty() ? ProbeCheck::AgainstScene : ProbeCheck::Later);
    s.bodies = body_count(s.config.gid_ranges);
    s.spheres = sphere_count(s.config.scene);
    if (restart.empty()) return s;
    s.restart = restart.string();
    s.checkpoint = read_checkpoint_share(group, restart);
    s.bodies = s.checkpoint->bed_bodies, s.spheres = s.checkpoint->bed_spheres;
    const nlohmann::json record = read_record(*s.checkpoint);
    check_restart(s, restart, record);
    if (!record.is_null() && record.contains("bed_checkpoint")) {
      take_bed_from(s, record["bed_checkpoint"].get<std::string>());
      find_config_bodies(s);
    }
    check_probes_on_bed(s);
    return s;
  }
  // The config's generators do not run: the checkpoint is the bed.
  s.config.source = config.string();
  s.config.scene = read_terrain_scene(io::load_json_document(config), s.config.source, ProbeCheck::Later);
  s.checkpoint = read_checkpoint_share(group, from_checkpoint);
  s.checkpoint->step = 0;
  s.checkpoint->time = 0;
  s.bodies = s.checkpoint->bed_bodies, s.spheres = s.checkpoint->bed_spheres;
  take_bed_from(s, from_checkpoint.string());
  add_config_bodies(s, group);
  check_probes_on_bed(s);
  return s;
}

std::string checkpoint_record(const StartState& start) {
  nlohmann::ordered_json record = {{"config", resolved_config_json(start.config.scene)}};
  if (!start.bed_checkpoint.empty()) record["bed_checkpoint"] = start.bed_checkpoint;
  return record.dump();
}

}  // namespace trackcosim::terrain
