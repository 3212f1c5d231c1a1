#include "cosim/protocol.h"

#include <cstring>

#include <nlohmann/json.hpp>

#include "io/config_error.h"
#include "io/json_fields.h"

namespace trackcosim::cosim {
namespace {

using Json = nlohmann::ordered_json;

/// Binary payloads: little-endian integers and IEEE doubles, appended in order.
class Writer {
 public:
  template <class T>
  void put(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* b = reinterpret_cast<const unsigned char*>(&v);
    bytes.insert(bytes.end(), b, b + sizeof v);
  }
  template <class T>
  void put_all(const std::vector<T>& v) {
    const auto* b = reinterpret_cast<const unsigned char*>(v.data());
    bytes.insert(bytes.end(), b, b + v.size() * sizeof(T));
  }
  std::vector<unsigned char> bytes;
};

class Reader {
 public:
  Reader(const std::vector<unsigned char>& bytes, std::string what) : bytes_(bytes), what_(std::move(what)) {}
  template <class T>
  T get() {
    T v;
    need(sizeof v);
    std::memcpy(&v, bytes_.data() + at_, sizeof v);
    at_ += sizeof v;
    return v;
  }
  template <class T>
  std::vector<T> get_all(std::size_t n) {
    need(n * sizeof(T));
    std::vector<T> v(n);
    std::memcpy(v.data(), bytes_.data() + at_, n * sizeof(T));
    at_ += n * sizeof(T);
    return v;
  }
  void done() const {
    if (at_ != bytes_.size())
      throw ProtocolError(what_ + ": " + std::to_string(bytes_.size() - at_) + " bytes too many");
  }

 private:
  void need(std::size_t n) const {
    if (n > bytes_.size() - at_)
      throw ProtocolError(what_ + ": truncated (" + std::to_string(bytes_.size()) + " bytes, needs " +
                          std::to_string(at_ + n) + ")");
  }
  const std::vector<unsigned char>& bytes_;
  std::string what_;
  std::size_t at_ = 0;
};

comm::Frame json_frame(MessageKind kind, const Json& j) {
  const std::string text = j.dump();
  return {static_cast<std::uint32_t>(kind), std::vector<unsigned char>(text.begin(), text.end())};
}

/// Parses a JSON payload; every later error names the peer and the field.
nlohmann::json parse_payload(const comm::Frame& f, const std::string& what) {
  try {
    return nlohmann::json::parse(f.payload.begin(), f.payload.end());
  } catch (const nlohmann::json::exception&) {
    throw ProtocolError(what + ": not valid JSON");
  }
}

template <class Read>
auto read_json(const comm::Frame& f, const std::string& what, Read read) {
  const nlohmann::json doc = parse_payload(f, what);
  try {
    return read(io::JsonField(doc, what));
  } catch (const io::ConfigError& e) {
    throw ProtocolError(e.what());
  }
}

Json vec(Vec3 v) { return Json::array({v.x, v.y, v.z}); }
template <std::size_t N>
Json numbers(const double (&v)[N]) {
  Json a = Json::array();
  for (double x : v) a.push_back(x);
  return a;
}

void check_version(const io::JsonField& f, const char* who) {
  if (f.member("protocol").string() != kProtocolName)
    f.member("protocol").fail(std::string("expected \"") + kProtocolName + "\"");
  const std::uint64_t v = f.member("version").unsigned_integer();
  if (v != kProtocolVersion)
    f.member("version").fail(std::string("protocol version mismatch: the ") + who + " speaks version " +
                             std::to_string(v) + ", this side speaks version " + std::to_string(kProtocolVersion));
}

}  // namespace

const char* message_kind_name(std::uint32_t kind) {
  switch (kind) {
    case 1: return "hello";
    case 2: return "welcome";
    case 3: return "states";
    case 4: return "forces";
    case 5: return "finish";
    case 6: return "refusal";
    case 7: return "checkpoint";
    case 8: return "forces_stop";
    case 9: return "working";
    default: return "unknown";
  }
}

comm::Frame encode_hello(const VehicleHello& h) {
  Json shoes = Json::array();
  for (std::size_t i = 0; i < h.shoes.size(); ++i) {
    Json spheres = Json::array();
    for (const ShoeGeometry::Sphere& s : h.shoes[i].spheres)
      spheres.push_back({{"offset", vec(s.offset)}, {"radius", s.radius}});
    const ShoeState& st = h.initial.at(i);
    shoes.push_back({{"mass", h.shoes[i].mass},
                     {"spheres", spheres},
                     {"state",
                      {{"position", numbers(st.position)},
                       {"orientation", numbers(st.orientation)},
                       {"velocity", numbers(st.velocity)},
                       {"angular_velocity", numbers(st.angular_velocity)}}}});
  }
  Json doc = {{"protocol", kProtocolName},        {"version", h.version},   {"units", h.units},
              {"coupling_step", h.coupling_step}, {"end_time", h.end_time}, {"scheme", h.scheme}};
  // Optional keys only when they say something, so a plain hello stays what it always was.
  if (h.checkpoint) doc["checkpoint"] = true;
  if (h.start_step > 0) doc["start_step"] = h.start_step, doc["start_time"] = h.start_time;
  if (h.keepalive > 0) doc["keepalive"] = h.keepalive;
  if (h.stiffness) doc["stiffness"] = true;
  doc["shoes"] = shoes;
  return json_frame(MessageKind::Hello, doc);
}

VehicleHello decode_hello(const comm::Frame& frame, const std::string& peer) {
  expect_kind(frame, MessageKind::Hello, peer);
  return read_json(frame, "hello from " + peer, [](const io::JsonField& f) {
    f.expect_object({"protocol", "version", "units", "coupling_step", "end_time", "scheme", "shoes", "checkpoint",
                     "start_step", "start_time", "keepalive", "stiffness"});
    check_version(f, "vehicle");
    VehicleHello h;
    if (const auto k = f.optional_member("stiffness")) h.stiffness = k->boolean();
    if (const auto k = f.optional_member("keepalive")) h.keepalive = k->positive_number();
    if (const auto c = f.optional_member("checkpoint")) h.checkpoint = c->boolean();
    if (const auto s = f.optional_member("start_step")) h.start_step = s->unsigned_integer();
    if (const auto t = f.optional_member("start_time")) h.start_time = t->number();
    h.units = f.member("units").one_of({"SI"});
    h.coupling_step = f.member("coupling_step").positive_number();
    h.end_time = f.member("end_time").non_negative_number();
    if (const auto scheme = f.optional_member("scheme")) h.scheme = scheme->one_of({"concurrent", "sequential"});
    // The correction K e is for the interval whose forces the vehicle applies: its own.
    if (h.stiffness && h.scheme != "sequential")
      f.member("stiffness").fail("implicit shoe loads need the sequential scheme, the hello's is " + h.scheme);
    for (const io::JsonField& shoe : f.member("shoes").elements()) {
      shoe.expect_object({"mass", "spheres", "state"});
      ShoeGeometry g;
      g.mass = shoe.member("mass").positive_number();
      for (const io::JsonField& s : shoe.member("spheres").elements()) {
        s.expect_object({"offset", "radius"});
        g.spheres.push_back({s.member("offset").vec3(), s.member("radius").positive_number()});
      }
      if (g.spheres.empty()) shoe.member("spheres").fail("a shoe needs at least one sphere");
      const io::JsonField state = shoe.member("state");
      state.expect_object({"position", "orientation", "velocity", "angular_velocity"});
      ShoeState st{};
      auto fill = [&](const char* key, double* out, std::size_t n) {
        const io::JsonField v = state.member(key);
        v.expect_array_of_numbers(n);
        const std::vector<io::JsonField> e = v.elements();
        for (std::size_t k = 0; k < n; ++k) out[k] = e[k].number();
      };
      fill("position", st.position, 3);
      fill("orientation", st.orientation, 4);
      fill("velocity", st.velocity, 3);
      fill("angular_velocity", st.angular_velocity, 3);
      h.shoes.push_back(std::move(g));
      h.initial.push_back(st);
    }
    if (h.shoes.empty()) f.member("shoes").fail("the vehicle sent no shoes");
    return h;
  });
}

comm::Frame encode_welcome(const TerrainWelcome& w) {
  Json doc = {{"protocol", kProtocolName},
              {"version", w.version},
              {"patch", {{"min", vec(w.patch_min)}, {"max", vec(w.patch_max)}}},
              {"surface_height", w.surface_height},
              {"particles", w.particles},
              {"material", {{"friction", w.friction}, {"density", w.density}}},
              {"terrain_step", w.terrain_step}};
  if (w.checkpoint) doc["checkpoint"] = true;
  if (w.stiffness) doc["stiffness"] = true;
  return json_frame(MessageKind::Welcome, doc);
}

TerrainWelcome decode_welcome(const comm::Frame& frame, const std::string& peer) {
  expect_kind(frame, MessageKind::Welcome, peer);
  return read_json(frame, "welcome from " + peer, [](const io::JsonField& f) {
    f.expect_object(
        {"protocol", "version", "patch", "surface_height", "particles", "material", "terrain_step", "checkpoint", "stiffness"});
    check_version(f, "terrain");
    TerrainWelcome w;
    if (const auto k = f.optional_member("stiffness")) w.stiffness = k->boolean();
    if (const auto c = f.optional_member("checkpoint")) w.checkpoint = c->boolean();
    const io::JsonField patch = f.member("patch");
    patch.expect_object({"min", "max"});
    w.patch_min = patch.member("min").vec3();
    w.patch_max = patch.member("max").vec3();
    w.surface_height = f.member("surface_height").number();
    w.particles = f.member("particles").unsigned_integer();
    const io::JsonField m = f.member("material");
    m.expect_object({"friction", "density"});
    w.friction = m.member("friction").non_negative_number();
    w.density = m.member("density").non_negative_number();
    w.terrain_step = f.member("terrain_step").positive_number();
    return w;
  });
}

comm::Frame encode_states(std::uint64_t step, double time, const std::vector<ShoeState>& states) {
  Writer w;
  w.put(step);
  w.put(time);
  w.put(static_cast<std::uint64_t>(states.size()));
  w.put_all(states);
  return {static_cast<std::uint32_t>(MessageKind::States), std::move(w.bytes)};
}

std::vector<ShoeState> decode_states(const comm::Frame& frame, std::uint64_t expected_step, std::size_t shoes,
                                     double& time, const std::string& peer) {
  expect_kind(frame, MessageKind::States, peer);
  Reader r(frame.payload, "shoe states from " + peer);
  const auto step = r.get<std::uint64_t>();
  time = r.get<double>();
  const auto count = r.get<std::uint64_t>();
  if (step != expected_step)
    throw ProtocolError("shoe states from " + peer + " are for coupling step " + std::to_string(step) +
                        ", this side is at step " + std::to_string(expected_step));
  if (count != shoes)
    throw ProtocolError("shoe count mismatch: " + peer + " sent " + std::to_string(count) +
                        " shoe states, the handshake announced " + std::to_string(shoes));
  std::vector<ShoeState> states = r.get_all<ShoeState>(count);
  r.done();
  return states;
}

comm::Frame encode_forces(std::uint64_t step, const std::vector<ShoeForce>& forces, bool stop,
                          const std::vector<ShoeStiffness>* stiffness) {
  if (stiffness != nullptr && stiffness->size() != forces.size())
    throw std::invalid_argument("encode_forces: " + std::to_string(forces.size()) + " forces but " +
                                std::to_string(stiffness->size()) + " stiffnesses");
  Writer w;
  w.put(step);
  w.put(static_cast<std::uint64_t>(forces.size()));
  w.put_all(forces);
  if (stiffness != nullptr) w.put_all(*stiffness);
  return {static_cast<std::uint32_t>(stop ? MessageKind::ForcesStop : MessageKind::Forces), std::move(w.bytes)};
}

std::vector<ShoeForce> decode_forces(const comm::Frame& frame, std::uint64_t expected_step, std::size_t shoes,
                                     const std::string& peer, bool* stop, std::vector<ShoeStiffness>* stiffness) {
  const bool is_stop = frame.kind == static_cast<std::uint32_t>(MessageKind::ForcesStop);
  if (stop != nullptr) *stop = is_stop;
  if (!is_stop || stop == nullptr) expect_kind(frame, MessageKind::Forces, peer);
  Reader r(frame.payload, "shoe forces from " + peer);
  const auto step = r.get<std::uint64_t>();
  const auto count = r.get<std::uint64_t>();
  if (step != expected_step)
    throw ProtocolError("shoe forces from " + peer + " are for coupling step " + std::to_string(step) +
                        ", this side is at step " + std::to_string(expected_step));
  if (count != shoes)
    throw ProtocolError("shoe count mismatch: " + peer + " sent " + std::to_string(count) +
                        " shoe forces, the handshake announced " + std::to_string(shoes));
  std::vector<ShoeForce> forces = r.get_all<ShoeForce>(count);
  if (stiffness != nullptr) *stiffness = r.get_all<ShoeStiffness>(count);
  r.done();
  return forces;
}

comm::Frame encode_checkpoint(const CheckpointRequest& c) {
  Json doc = {{"step", c.step}, {"time", c.time}, {"reason", c.reason}};
  if (c.keep_going) doc["continue"] = true;
  return json_frame(MessageKind::Checkpoint, doc);
}

CheckpointRequest decode_checkpoint(const comm::Frame& frame, std::uint64_t expected_step, const std::string& peer) {
  expect_kind(frame, MessageKind::Checkpoint, peer);
  const CheckpointRequest c = read_json(frame, "checkpoint request from " + peer, [](const io::JsonField& f) {
    f.expect_object({"step", "time", "reason", "continue"});
    CheckpointRequest r;
    if (const auto c = f.optional_member("continue")) r.keep_going = c->boolean();
    r.step = f.member("step").unsigned_integer();
    r.time = f.member("time").number();
    if (const auto reason = f.optional_member("reason")) r.reason = reason->string();
    return r;
  });
  if (c.step != expected_step)
    throw ProtocolError("checkpoint request from " + peer + " is for coupling step " + std::to_string(c.step) +
                        ", this side is at step " + std::to_string(expected_step));
  return c;
}

comm::Frame encode_refusal(const std::string& reason) {
  return json_frame(MessageKind::Refusal, {{"error", reason}});
}

comm::Frame finish_frame() { return {static_cast<std::uint32_t>(MessageKind::Finish), {}}; }
comm::Frame working_frame() { return {static_cast<std::uint32_t>(MessageKind::Working), {}}; }

void expect_kind(const comm::Frame& frame, MessageKind expected, const std::string& peer) {
  if (frame.kind == static_cast<std::uint32_t>(MessageKind::Refusal)) {
    std::string reason = "(no reason given)";
    try {
      reason = nlohmann::json::parse(frame.payload.begin(), frame.payload.end()).at("error").get<std::string>();
    } catch (const nlohmann::json::exception&) {
    }
    throw ProtocolError(peer + " stopped the co-simulation: " + reason);
  }
  if (frame.kind != static_cast<std::uint32_t>(expected))
    throw ProtocolError("expected a " + std::string(message_kind_name(static_cast<std::uint32_t>(expected))) +
                        " message from " + peer + ", got kind " + std::to_string(frame.kind) + " (" +
                        message_kind_name(frame.kind) + ")");
}

}  // namespace trackcosim::cosim
