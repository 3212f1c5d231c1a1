// The vehicle checkpoint file (layout: docs/checkpoint-format.md, "Vehicle checkpoint").
//
// The payload is small (a few hundred bodies, the output rows so far), so it is built in memory
// and written in one piece after a fixed header that states the file's length: a reader can then
// tell a truncated file from a damaged one before it believes any count. Records with small
// fields (motors, contacts) are packed field by field with explicit zero padding, so the layout
// never depends on the compiler's struct padding.

#include "vehicle_node/coupled/vehicle_checkpoint.h"

#include <bit>
#include <cstring>
#include <algorithm>
#include <stdexcept>
#include <type_traits>

#include "io/checkpoint_file.h"

namespace trackcosim::vehicle {
namespace {

namespace fs = std::filesystem;

constexpr char kMagic[8] = {'T', 'C', 'S', 'M', 'V', 'C', 'K', 'P'};
constexpr char kTerrainMagic[8] = {'T', 'C', 'S', 'M', 'C', 'K', 'P', 'T'};
// 2 adds the drawbar rig's section after the texts; version 1 files are still read (no rig).
constexpr std::uint32_t kVersion = 2;
constexpr std::uint32_t kOldestVersion = 1;
constexpr std::size_t kHeaderBytes = 24;  // magic, version, zero padding, file length
constexpr std::size_t kChecksumBytes = 8;
static_assert(std::endian::native == std::endian::little, "the file is little-endian and written by memcpy");
static_assert(sizeof(cosim::ShoeForce) == 48 && std::is_trivially_copyable_v<cosim::ShoeForce>);

class Payload {
 public:
  template <class T>
  void put(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    bytes.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  template <class T>
  void put_array(const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    bytes.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
  }
  void put_text(const std::string& s) {
    put(static_cast<std::uint64_t>(s.size()));
    bytes += s;
  }
  void pad(std::size_t n) { bytes.append(n, '\0'); }
  std::string bytes;
};

class Cursor {
 public:
  Cursor(const std::string& bytes, std::size_t begin, std::size_t end, const fs::path& path)
      : bytes_(bytes), at_(begin), end_(end), path_(path) {}
  template <class T>
  T get(const char* what) {
    T v;
    need(sizeof v, what);
    std::memcpy(&v, bytes_.data() + at_, sizeof v);
    at_ += sizeof v;
    return v;
  }
  template <class T>
  void get_array(std::vector<T>& v, std::uint64_t count, const char* what) {
    if (count > (end_ - at_) / sizeof(T)) inconsistent(std::string(what) + " do not fit in the file");
    v.resize(count);
    std::memcpy(v.data(), bytes_.data() + at_, count * sizeof(T));
    at_ += count * sizeof(T);
  }
  std::string get_text(const char* what) {
    const auto n = get<std::uint64_t>(what);
    need(n, what);
    std::string s = bytes_.substr(at_, n);
    at_ += n;
    return s;
  }
  void skip(std::size_t n, const char* what) { need(n, what), at_ += n; }
  void done() const {
    if (at_ != end_) inconsistent(std::to_string(end_ - at_) + " bytes after the last section");
  }
  [[noreturn]] void inconsistent(const std::string& what) const {
    throw std::runtime_error("checkpoint " + path_.string() + ": inconsistent vehicle checkpoint: " + what);
  }

 private:
  void need(std::uint64_t n, const char* what) const {
    if (n > end_ - at_) inconsistent(std::string("it ends inside ") + what);
  }
  const std::string& bytes_;
  std::size_t at_, end_;
  const fs::path& path_;
};

std::string payload_of(const VehicleCheckpoint& c) {
  const MultibodyState& s = c.system;
  Payload p;
  p.put(c.coupling_step_index);
  p.put(c.coupling_step);
  p.put(c.surface_height);
  p.put(c.start_x);
  p.put(c.particles);
  p.put(c.wall_seconds);
  p.put(c.wait_seconds);
  p.put(s.time);
  p.put(s.last_step);
  for (const std::size_t n : {s.bodies.size(), s.motors.size(), s.joint_limit_states.size(), s.contacts.size(),
                              c.forces.size()})
    p.put(static_cast<std::uint64_t>(n));
  p.put_array(s.bodies);
  for (const MultibodyState::Motor& m : s.motors) {
    p.put(m.mode), p.put(m.row_state), p.pad(6);
    p.put(m.speed), p.put(m.max_torque), p.put(m.torque), p.put(m.applied_torque);
  }
  p.put_array(s.joint_limit_states);
  for (const MultibodyState::ContactMemory& m : s.contacts) {
    p.put(m.key), p.put(m.row_state), p.pad(5);
    p.put(m.lambda);
  }
  p.put_array(c.forces);
  p.put(c.recorder_frames);
  for (const std::string* text : {&c.scheme, &c.config_file, &c.vehicle_csv, &c.shoes_csv, &c.timing_csv})
    p.put_text(*text);
  p.put_text(c.rig_csv);
  p.put(c.rig_steps);
  p.put(c.rig_sums);
  return p.bytes;
}

VehicleCheckpoint parse_payload(Cursor& in, std::uint32_t version) {
  VehicleCheckpoint c;
  MultibodyState& s = c.system;
  c.coupling_step_index = in.get<std::uint64_t>("the coupling step index");
  c.coupling_step = in.get<double>("the coupling step");
  c.surface_height = in.get<double>("the surface height");
  c.start_x = in.get<double>("the start position");
  c.particles = in.get<std::uint64_t>("the particle count");
  c.wall_seconds = in.get<double>("the wall time");
  c.wait_seconds = in.get<double>("the wait time");
  s.time = in.get<double>("the time");
  s.last_step = in.get<double>("the last step size");
  std::uint64_t count[5];
  for (std::uint64_t& n : count) n = in.get<std::uint64_t>("the counts");
  in.get_array(s.bodies, count[0], "bodies");
  for (std::uint64_t i = 0; i < count[1]; ++i) {
    MultibodyState::Motor m;
    m.mode = in.get<std::uint8_t>("motors"), m.row_state = in.get<std::uint8_t>("motors");
    in.skip(6, "motors");
    m.speed = in.get<double>("motors"), m.max_torque = in.get<double>("motors");
    m.torque = in.get<double>("motors"), m.applied_torque = in.get<double>("motors");
    s.motors.push_back(m);
  }
  in.get_array(s.joint_limit_states, count[2], "joint limit states");
  for (std::uint64_t i = 0; i < count[3]; ++i) {
    MultibodyState::ContactMemory m;
    m.key = in.get<std::uint64_t>("contacts");
    for (std::uint8_t& r : m.row_state) r = in.get<std::uint8_t>("contacts");
    in.skip(5, "contacts");
    for (double& l : m.lambda) l = in.get<double>("contacts");
    if (!s.contacts.empty() && m.key <= s.contacts.back().key) in.inconsistent("contact keys do not increase");
    s.contacts.push_back(m);
  }
  in.get_array(c.forces, count[4], "shoe forces");
  c.recorder_frames = in.get<std::uint64_t>("the recorder's frame count");
  for (std::string* text : {&c.scheme, &c.config_file, &c.vehicle_csv, &c.shoes_csv, &c.timing_csv})
    *text = in.get_text("the texts");
  if (version >= 2) {
    c.rig_csv = in.get_text("the rig's rows");
    c.rig_steps = in.get<std::uint64_t>("the rig's sums");
    c.rig_sums = in.get<std::array<double, 9>>("the rig's sums");
  }
  in.done();
  return c;
}

}  // namespace

void write_vehicle_checkpoint(const fs::path& path, const VehicleCheckpoint& c) {
  const std::string payload = payload_of(c);
  const std::uint64_t file_bytes = kHeaderBytes + payload.size() + kChecksumBytes;
  io::AtomicCheckpointFile file(path);
  file.put_value(kMagic);
  file.put_value(kVersion);
  file.put_value(std::uint32_t{0});
  file.put_value(file_bytes);
  file.put(payload.data(), payload.size());
  file.commit();
}

VehicleCheckpoint read_vehicle_checkpoint(const fs::path& path) {
  const std::string bytes = io::read_checkpoint_bytes(path);
  auto refuse = [&](const std::string& problem) {
    throw std::runtime_error("checkpoint " + path.string() + ": " + problem);
  };
  const std::size_t size = bytes.size();
  if (size >= sizeof kTerrainMagic && std::memcmp(bytes.data(), kTerrainMagic, sizeof kTerrainMagic) == 0)
    refuse("this is a terrain checkpoint (\"TCSMCKPT\"); vehicle_node --restart needs the vehicle's (\"TCSMVCKP\")");
  if (std::memcmp(bytes.data(), kMagic, std::min(size, sizeof kMagic)) != 0)
    refuse("not a trackcosim vehicle checkpoint (it does not start with \"TCSMVCKP\")");
  const std::string minimum = "at least " + std::to_string(kHeaderBytes + kChecksumBytes);
  if (size < kHeaderBytes + kChecksumBytes)
    refuse("truncated checkpoint: expected " + minimum + " bytes, found " + std::to_string(size));
  std::uint32_t version = 0;
  std::uint64_t expected = 0;
  std::memcpy(&version, bytes.data() + sizeof kMagic, sizeof version);
  std::memcpy(&expected, bytes.data() + 16, sizeof expected);
  if (version < kOldestVersion || version > kVersion)
    refuse("unsupported vehicle checkpoint format version " + std::to_string(version) + " (this build reads versions " +
           std::to_string(kOldestVersion) + " to " + std::to_string(kVersion) + ")");
  if (size < expected)
    refuse("truncated checkpoint: expected " + std::to_string(expected) + " bytes, found " + std::to_string(size));
  const io::Checksums sums = io::checkpoint_checksums(bytes);
  if (!sums.match())
    refuse("checkpoint checksum mismatch: stored " + std::to_string(sums.stored) + ", computed " +
           std::to_string(sums.computed) + " (the file is damaged)");
  if (size != expected)
    refuse("inconsistent vehicle checkpoint: its header gives " + std::to_string(expected) + " bytes, the file has " +
           std::to_string(size));
  Cursor in(bytes, kHeaderBytes, size - kChecksumBytes, path);
  return parse_payload(in, version);
}

}  // namespace trackcosim::vehicle
