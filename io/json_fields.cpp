#include "io/json_fields.h"

#include <cmath>
#include <set>

#include "io/input_file.h"
#include "io/number_text.h"

namespace trackcosim::io {
namespace {

std::string describe(const nlohmann::json& value) {
  if (value.is_array()) return "an array of " + std::to_string(value.size()) + " elements";
  if (value.is_number_float()) return "the number " + number_to_string(value.get<double>());
  if (value.is_number()) return "the integer " + value.dump();
  return value.type_name();
}

std::string join_path(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

std::string list_numbers(std::initializer_list<real> values) {
  std::string out = "[";
  for (const real v : values) {
    if (out.size() > 1) out += ", ";
    append_number(out, v);
  }
  return out + "]";
}

/// Follows the parser through the document so that errors found while parsing can name a path:
/// a key given twice in one object (nlohmann would keep the last one without a word, hiding a
/// typo) and a number too large for a double (the value being read is at current_path()).
class ParsePathTracker {
 public:
  explicit ParsePathTracker(const std::string& source) : source_(source) {}

  bool operator()(int /*depth*/, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    using Event = nlohmann::json::parse_event_t;
    switch (event) {
      case Event::object_start: frames_.emplace_back(/*array=*/false); break;
      case Event::array_start: frames_.emplace_back(/*array=*/true); break;
      case Event::object_end:
      case Event::array_end:
        frames_.pop_back();
        next_element();
        break;
      case Event::value: next_element(); break;
      case Event::key: {
        Frame& object = frames_.back();
        object.key = parsed.get<std::string>();
        if (!object.keys.insert(object.key).second)
          throw ConfigError(source_ + ": " + current_path() + ": key given twice in one object");
        break;
      }
    }
    return true;
  }

  /// The path of the value the parser is reading now.
  std::string current_path() const {
    std::string path;
    for (const Frame& f : frames_)
      path = f.array ? path + "[" + std::to_string(f.index) + "]" : join_path(path, f.key);
    return path;
  }

 private:
  struct Frame {
    explicit Frame(bool is_array) : array(is_array) {}
    bool array;
    std::size_t index = 0;
    std::string key;
    std::set<std::string> keys;
  };

  void next_element() {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
  }

  const std::string& source_;
  std::vector<Frame> frames_;
};

/// nlohmann's message without its "[json.exception.parse_error.101] " tag.
std::string without_tag(const nlohmann::json::exception& e) {
  std::string why = e.what();
  if (const auto tag_end = why.find("] "); why.starts_with("[json.exception") && tag_end != std::string::npos)
    why.erase(0, tag_end + 2);
  return why;
}

}  // namespace

nlohmann::json parse_json_document(std::string_view text, const std::string& source_name) {
  ParsePathTracker tracker(source_name);
  try {
    return nlohmann::json::parse(
        text, [&tracker](int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
          return tracker(depth, event, parsed);
        },
        /*allow_exceptions=*/true, /*ignore_comments=*/true);
  } catch (const nlohmann::json::parse_error& e) {
    throw ConfigError(source_name + ": " + without_tag(e));  // says line and column
  } catch (const nlohmann::json::exception& e) {
    const std::string path = tracker.current_path();
    throw ConfigError(source_name + ": " + (path.empty() ? "" : path + ": ") + without_tag(e));
  }
}

nlohmann::json load_json_document(const std::filesystem::path& file) {
  return parse_json_document(read_input_file(file), file.string());
}

JsonField::JsonField(const nlohmann::json& value, std::string source_name, std::string path)
    : value_(&value), source_(std::move(source_name)), path_(std::move(path)) {}

JsonField JsonField::child(std::string path, const nlohmann::json& value) const {
  return JsonField(value, source_, std::move(path));
}

void JsonField::fail(std::string_view why) const {
  throw ConfigError(source_ + ": " + (path_.empty() ? std::string() : path_ + ": ") + std::string(why));
}

void JsonField::expect_object(std::initializer_list<std::string_view> allowed) const {
  if (!value_->is_object()) fail("expected an object, got " + describe(*value_));
  for (const auto& [key, value] : value_->items()) {
    bool known = false;
    for (const std::string_view a : allowed) known = known || key == a;
    if (known) continue;
    std::string expected;
    for (const std::string_view a : allowed) expected += (expected.empty() ? "" : ", ") + std::string(a);
    child(join_path(path_, key), value).fail("unknown key (expected one of: " + expected + ")");
  }
}

JsonField JsonField::member(std::string_view key) const {
  const auto it = value_->find(key);
  if (it == value_->end()) child(join_path(path_, key), *value_).fail("required key is missing");
  return child(join_path(path_, key), *it);
}

std::optional<JsonField> JsonField::optional_member(std::string_view key) const {
  const auto it = value_->find(key);
  if (it == value_->end()) return std::nullopt;
  return child(join_path(path_, key), *it);
}

std::vector<JsonField> JsonField::elements() const {
  if (!value_->is_array()) fail("expected an array, got " + describe(*value_));
  std::vector<JsonField> out;
  out.reserve(value_->size());
  for (std::size_t i = 0; i < value_->size(); ++i)
    out.push_back(child(path_ + "[" + std::to_string(i) + "]", (*value_)[i]));
  return out;
}

real JsonField::number() const {
  if (!value_->is_number()) fail("expected a number, got " + describe(*value_));
  // Checked after the cast: 1e300 is a finite double but an infinite float.
  const real v = static_cast<real>(value_->get<double>());
  if (!std::isfinite(v)) fail("must be a finite number, got " + number_to_string(v));
  return v;
}

real JsonField::positive_number() const {
  const real v = number();
  if (!(v > 0)) fail("must be > 0, got " + number_to_string(v));
  return v;
}

real JsonField::non_negative_number() const {
  const real v = number();
  if (!(v >= 0)) fail("must be >= 0, got " + number_to_string(v));
  return v;
}

std::uint64_t JsonField::unsigned_integer() const {
  if (value_->is_number_unsigned()) return value_->get<std::uint64_t>();
  if (value_->is_number_integer()) fail("must be >= 0, got " + value_->dump());
  fail("expected a non-negative integer, got " + describe(*value_));
}

bool JsonField::boolean() const {
  if (!value_->is_boolean()) fail("expected true or false, got " + describe(*value_));
  return value_->get<bool>();
}

std::string JsonField::string() const {
  if (!value_->is_string()) fail("expected a string, got " + describe(*value_));
  return value_->get<std::string>();
}

std::string JsonField::one_of(std::initializer_list<std::string_view> choices) const {
  const std::string value = string();
  std::string expected;
  for (const std::string_view c : choices) {
    if (value == c) return value;
    expected += (expected.empty() ? "\"" : ", \"") + std::string(c) + "\"";
  }
  fail("expected one of " + expected + ", got \"" + value + "\"");
}

void JsonField::expect_array_of_numbers(std::size_t count) const {
  if (!value_->is_array() || value_->size() != count)
    fail("expected an array of " + std::to_string(count) + " numbers, got " + describe(*value_));
}

Vec3 JsonField::vec3() const {
  expect_array_of_numbers(3);
  const std::vector<JsonField> e = elements();
  return {e[0].number(), e[1].number(), e[2].number()};
}

Quat JsonField::unit_quaternion() const {
  expect_array_of_numbers(4);
  const std::vector<JsonField> e = elements();
  const Quat q{e[0].number(), e[1].number(), e[2].number(), e[3].number()};
  const real norm = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
  if (!(norm > 0) || !std::isfinite(norm))
    fail("must be a non-zero quaternion [w, x, y, z], got " + list_numbers({q.w, q.x, q.y, q.z}));
  return {q.w / norm, q.x / norm, q.y / norm, q.z / norm};
}

Vec3 JsonField::unit_vector() const {
  const Vec3 v = vec3();
  const real norm = length(v);
  if (!(norm > 0) || !std::isfinite(norm)) fail("must be a non-zero vector, got " + list_numbers({v.x, v.y, v.z}));
  return (1 / norm) * v;
}

}  // namespace trackcosim::io
