#pragma once
// Typed reads from a parsed JSON document where every failure names the file and the JSON path
// of the key (`scene.json: boxes[1].half_extents: expected an array of 3 numbers, got string`).
// Config files are written by hand; an error that says where is most of the fix, so the loaders
// read every value through a JsonField and never call nlohmann's get<> directly.

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "math/vec3.h"
#include "io/config_error.h"

namespace trackcosim::io {

/// Parses JSON text with comments allowed. Syntax errors and duplicate keys in one object (which
/// nlohmann would silently resolve to the last one) throw ConfigError naming `source_name`.
nlohmann::json parse_json_document(std::string_view text, const std::string& source_name);

/// Reads the whole file and parses it as above; an unreadable file is a ConfigError too.
nlohmann::json load_json_document(const std::filesystem::path& file);

/// One JSON value and where it sits: the file it came from and its path inside the document.
/// Holds a reference into the document, which must outlive it.
class JsonField {
 public:
  JsonField(const nlohmann::json& value, std::string source_name, std::string path = {});

  const nlohmann::json& json() const { return *value_; }
  const std::string& path() const { return path_; }

  /// Throws ConfigError "<source>: <path>: <why>".
  [[noreturn]] void fail(std::string_view why) const;

  /// Requires an object whose keys all appear in `allowed`; anything else is a typo to report.
  void expect_object(std::initializer_list<std::string_view> allowed) const;
  /// A key that must be present (call expect_object first).
  JsonField member(std::string_view key) const;
  std::optional<JsonField> optional_member(std::string_view key) const;

  /// The elements of an array, each with its indexed path.
  std::vector<JsonField> elements() const;

  /// A finite number.
  real number() const;
  real positive_number() const;
  real non_negative_number() const;
  /// A whole number >= 0 written without fraction or exponent (JSON integer).
  std::uint64_t unsigned_integer() const;
  /// true or false (not 0/1, not "true").
  bool boolean() const;
  /// A JSON string.
  std::string string() const;
  /// A string that is one of `choices`; anything else names the choices.
  std::string one_of(std::initializer_list<std::string_view> choices) const;
  /// [x, y, z], finite.
  Vec3 vec3() const;
  /// [w, x, y, z], finite and non-zero, returned normalised to unit length.
  Quat unit_quaternion() const;
  /// [x, y, z], finite and non-zero, returned normalised to unit length.
  Vec3 unit_vector() const;
  /// Requires an array of exactly `count` elements (each read with number() afterwards).
  void expect_array_of_numbers(std::size_t count) const;

 private:
  JsonField child(std::string path, const nlohmann::json& value) const;

  const nlohmann::json* value_;
  std::string source_;
  std::string path_;
};

}  // namespace trackcosim::io
