#pragma once
// A tiny reader of the ASCII VTK XML files our writers produce, enough for tests: an attribute
// of the first element that has it, a <DataArray>'s values as text or numbers, the DataSet
// entries of a .pvd or .vtm. Not a general XML parser: it relies on our writers' layout.

#include <cstdlib>
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

inline std::vector<double> array_values(const std::string& xml, const std::string& name) {
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
