// OBJ and STL readers and writers (geometry/mesh_file.h). Errors name the file and, for text formats,
// the line, as config errors do.

#include "geometry/mesh_file.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <tuple>

#include "io/config_error.h"
#include "io/input_file.h"
#include "io/output_file.h"

namespace trackcosim::geometry {
namespace {

[[noreturn]] void fail(const std::filesystem::path& file, const std::string& why) {
  throw io::ConfigError(file.string() + ": " + why);
}
[[noreturn]] void fail_at(const std::filesystem::path& file, std::size_t line, const std::string& why) {
  throw io::ConfigError(file.string() + ":" + std::to_string(line) + ": " + why);
}

bool parse_number(std::string_view text, double& value) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size() && std::isfinite(value);
}

/// Welds corners with bit-identical coordinates (STL repeats them per triangle).
class VertexWelder {
 public:
  explicit VertexWelder(TriangleMesh& mesh) : mesh_(mesh) {}
  std::uint32_t index_of(Vec3 p) {
    const auto [it, added] = index_.try_emplace(std::make_tuple(p.x, p.y, p.z), std::uint32_t(mesh_.vertices.size()));
    if (added) mesh_.vertices.push_back(p);
    return it->second;
  }

 private:
  TriangleMesh& mesh_;
  std::map<std::tuple<real, real, real>, std::uint32_t> index_;
};

TriangleMesh read_obj(const std::filesystem::path& file, const std::string& text) {
  std::istringstream in(text);
  TriangleMesh mesh;
  std::size_t number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    std::istringstream words(line);
    std::string tag;
    if (!(words >> tag)) continue;
    if (tag == "v") {
      std::string w[3];
      double c[3];
      for (int a = 0; a < 3; ++a)
        if (!(words >> w[a]) || !parse_number(w[a], c[a])) fail_at(file, number, "expected 'v x y z' with finite numbers");
      mesh.vertices.push_back({real(c[0]), real(c[1]), real(c[2])});
    } else if (tag == "f") {
      std::vector<std::uint32_t> face;
      for (std::string item; words >> item;) {
        long long index = 0;
        const std::string head = item.substr(0, item.find('/'));
        const auto [end, error] = std::from_chars(head.data(), head.data() + head.size(), index);
        // OBJ indices count from 1; negative ones count back from the latest vertex.
        const long long resolved = index < 0 ? (long long)mesh.vertices.size() + index : index - 1;
        if (error != std::errc() || end != head.data() + head.size() || index == 0 || resolved < 0 ||
            resolved >= (long long)mesh.vertices.size())
          fail_at(file, number, "face vertex '" + item + "' does not name one of the " +
                                    std::to_string(mesh.vertices.size()) + " vertices defined so far");
        face.push_back(std::uint32_t(resolved));
      }
      if (face.size() < 3) fail_at(file, number, "a face needs at least 3 vertices");
      for (std::size_t k = 1; k + 1 < face.size(); ++k) mesh.triangles.push_back({face[0], face[k], face[k + 1]});
    }
  }
  return mesh;
}

TriangleMesh read_ascii_stl(const std::filesystem::path& file, const std::string& text) {
  std::istringstream in(text);
  TriangleMesh mesh;
  VertexWelder welder(mesh);
  std::vector<std::uint32_t> corners;
  std::size_t number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    std::istringstream words(line);
    std::string tag;
    if (!(words >> tag)) continue;
    if (tag == "vertex") {
      std::string w[3];
      double c[3];
      for (int a = 0; a < 3; ++a)
        if (!(words >> w[a]) || !parse_number(w[a], c[a]))
          fail_at(file, number, "expected 'vertex x y z' with finite numbers");
      corners.push_back(welder.index_of({real(c[0]), real(c[1]), real(c[2])}));
    } else if (tag == "endloop") {
      if (corners.size() != 3) fail_at(file, number, "a facet needs 3 vertices, got " + std::to_string(corners.size()));
      mesh.triangles.push_back({corners[0], corners[1], corners[2]});
      corners.clear();
    }
  }
  if (!corners.empty()) fail(file, "truncated: the last facet has no 'endloop'");
  return mesh;
}

float read_float(const char* p) {
  float value;
  std::memcpy(&value, p, 4);  // STL is little-endian, as every host we build for
  return value;
}

TriangleMesh read_binary_stl(const std::filesystem::path& file, const std::string& bytes) {
  std::uint32_t count = 0;
  std::memcpy(&count, bytes.data() + 80, 4);
  if (bytes.size() < 84 + 50 * std::uint64_t(count))
    fail(file, "truncated binary STL: the header announces " + std::to_string(count) + " triangles (" +
                   std::to_string(84 + 50 * std::uint64_t(count)) + " bytes), the file has " +
                   std::to_string(bytes.size()) + " bytes");
  TriangleMesh mesh;
  VertexWelder welder(mesh);
  for (std::uint32_t t = 0; t < count; ++t) {
    const char* record = bytes.data() + 84 + 50 * std::size_t(t) + 12;  // skip the facet normal
    std::array<std::uint32_t, 3> triangle{};
    for (int k = 0; k < 3; ++k) {
      const Vec3 p{read_float(record + 12 * k), read_float(record + 12 * k + 4), read_float(record + 12 * k + 8)};
      if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
        fail(file, "triangle " + std::to_string(t) + " has a coordinate that is not a finite number");
      triangle[k] = welder.index_of(p);
    }
    mesh.triangles.push_back(triangle);
  }
  return mesh;
}

/// Binary STL may start with "solid" too, so the size decides: a binary file is exactly
/// 84 + 50 n bytes for the n its header announces.
bool is_binary_stl(const std::string& bytes) {
  if (bytes.size() < 84) return false;
  std::uint32_t count = 0;
  std::memcpy(&count, bytes.data() + 80, 4);
  if (bytes.size() == 84 + 50 * std::uint64_t(count)) return true;
  return bytes.compare(0, 5, "solid") != 0;
}

}  // namespace

real largest_side(const TriangleMesh& mesh) {
  if (mesh.vertices.empty()) return 0;
  Vec3 lo = mesh.vertices.front(), hi = lo;
  for (const Vec3& v : mesh.vertices) {
    lo = {std::min(lo.x, v.x), std::min(lo.y, v.y), std::min(lo.z, v.z)};
    hi = {std::max(hi.x, v.x), std::max(hi.y, v.y), std::max(hi.z, v.z)};
  }
  return std::max({hi.x - lo.x, hi.y - lo.y, hi.z - lo.z});
}

TriangleMesh read_mesh_file(const std::filesystem::path& file) {
  std::string extension = file.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(), [](unsigned char c) { return std::tolower(c); });
  if (extension != ".obj" && extension != ".stl") fail(file, "expected an .obj or .stl mesh file");
  const std::string bytes = io::read_input_file(file);
  if (extension == ".obj") return read_obj(file, bytes);
  return is_binary_stl(bytes) ? read_binary_stl(file, bytes) : read_ascii_stl(file, bytes);
}

TriangleMesh read_obj_file(const std::filesystem::path& file) { return read_obj(file, io::read_input_file(file)); }

void write_obj(const std::filesystem::path& file, const TriangleMesh& mesh) {
  io::write_output_file(file, [&](std::ostream& out) {
    out.precision(17);
    for (const Vec3& v : mesh.vertices) out << "v " << v.x << ' ' << v.y << ' ' << v.z << '\n';
    for (const auto& t : mesh.triangles) out << "f " << t[0] + 1 << ' ' << t[1] + 1 << ' ' << t[2] + 1 << '\n';
  });
}

void write_binary_stl(const std::filesystem::path& file, const TriangleMesh& mesh) {
  io::write_output_file(file, [&](std::ostream& out) {
    const std::string header(80, ' ');
    out.write(header.data(), 80);
    const auto count = std::uint32_t(mesh.triangles.size());
    out.write(reinterpret_cast<const char*>(&count), 4);
    for (const auto& t : mesh.triangles) {
      float record[12] = {};  // normal left zero: readers recompute it from the corners
      for (int k = 0; k < 3; ++k) {
        const Vec3& p = mesh.vertices[t[k]];
        record[3 + 3 * k] = float(p.x), record[4 + 3 * k] = float(p.y), record[5 + 3 * k] = float(p.z);
      }
      out.write(reinterpret_cast<const char*>(record), 48);
      const std::uint16_t attribute = 0;
      out.write(reinterpret_cast<const char*>(&attribute), 2);
    }
  });
}

}  // namespace trackcosim::geometry
