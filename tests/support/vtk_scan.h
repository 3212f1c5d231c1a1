#pragma once
// A tiny reader of the VTK XML files our writers produce, enough for tests: an attribute of the
// first element that has it, a <DataArray>'s values as text (ASCII) or numbers (ASCII, or binary
// appended zlib blocks, io/vtk_xml.h), the DataSet entries of a .pvd or .vtm. Not a general XML
// parser: it relies on our writers' layout. tests/visual/vtk_files_test.py reads the same files
// with VTK's own readers.

#include <zlib.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace trackcosim::test::vtk_scan {

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// The value of `name="..."` at or after `from` (empty when absent).
inline std::string attribute(const std::string& xml, const std::string& name, std::size_t from = 0) {
  const std::string key = " " + name + "=\"";
  const std::size_t at = xml.find(key, from);
  if (at == std::string::npos) return {};
  const std::size_t start = at + key.size();
  return xml.substr(start, xml.find('"', start) - start);
}

/// The whitespace-separated values of the DataArray named `name`, as written.
inline std::vector<std::string> array_text(const std::string& xml, const std::string& name) {
  const std::size_t at = xml.find("Name=\"" + name + "\"");
  if (at == std::string::npos) return {};
  const std::size_t start = xml.find('>', at) + 1;
  std::istringstream values(xml.substr(start, xml.find("</DataArray>", start) - start));
  std::vector<std::string> out;
  for (std::string v; values >> v;) out.push_back(v);
  return out;
}

/// The bytes of the appended, zlib-compressed array at `offset` (bytes after the '_' marker).
inline std::string appended_bytes(const std::string& file, std::size_t offset) {
  const std::size_t data = file.find('_', file.find("<AppendedData")) + 1;
  const auto u64 = [&](std::size_t at) {
    std::uint64_t v;
    std::memcpy(&v, file.data() + data + offset + 8 * at, 8);
    return v;
  };
  const std::uint64_t blocks = u64(0), block_size = u64(1), last_size = u64(2);
  std::string out;
  std::size_t at = data + offset + 8 * (3 + blocks);
  for (std::uint64_t b = 0; b < blocks; ++b) {
    uLongf size = (b + 1 == blocks && last_size != 0) ? last_size : block_size;
    std::string block(size, '\0');
    if (uncompress(reinterpret_cast<Bytef*>(block.data()), &size, reinterpret_cast<const Bytef*>(file.data() + at),
                   static_cast<uLong>(u64(3 + b))) != Z_OK)
      return {};
    out.append(block, 0, size);
    at += u64(3 + b);
  }
  return out;
}

template <typename T>
std::vector<double> as_doubles(const std::string& bytes) {
  std::vector<double> out(bytes.size() / sizeof(T));
  for (std::size_t i = 0; i < out.size(); ++i) {
    T v;
    std::memcpy(&v, bytes.data() + i * sizeof(T), sizeof(T));
    out[i] = static_cast<double>(v);
  }
  return out;
}

/// The values of the DataArray named `name`, ASCII or appended.
inline std::vector<double> array_values(const std::string& xml, const std::string& name) {
  const std::size_t at = xml.find("Name=\"" + name + "\"");
  if (at == std::string::npos) return {};
  const std::string tag = xml.substr(xml.rfind('<', at), xml.find('>', at) - xml.rfind('<', at));
  if (attribute(tag, "format") == "appended") {
    const std::string bytes = appended_bytes(xml, std::stoull(attribute(tag, "offset")));
    const std::string type = attribute(tag, "type");
    if (type == "Float32") return as_doubles<float>(bytes);
    if (type == "Float64") return as_doubles<double>(bytes);
    if (type == "UInt8") return as_doubles<std::uint8_t>(bytes);
    if (type == "UInt32") return as_doubles<std::uint32_t>(bytes);
    if (type == "Int64") return as_doubles<std::int64_t>(bytes);
    if (type == "UInt64") return as_doubles<std::uint64_t>(bytes);
    return {};
  }
  std::vector<double> out;
  for (const std::string& v : array_text(xml, name)) out.push_back(std::strtod(v.c_str(), nullptr));
  return out;
}

/// Each <DataSet .../> element's `attr` value, in order (a .pvd's timestep or file, a .vtm's file).
inline std::vector<std::string> datasets(const std::string& xml, const std::string& attr) {
  std::vector<std::string> out;
  for (std::size_t at = xml.find("<DataSet "); at != std::string::npos; at = xml.find("<DataSet ", at + 1))
    out.push_back(attribute(xml.substr(at, xml.find("/>", at) - at), attr));
  return out;
}

}  // namespace trackcosim::test::vtk_scan
