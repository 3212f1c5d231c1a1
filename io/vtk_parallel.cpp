#include "io/vtk_parallel.h"

#include "io/vtk_xml.h"

namespace trackcosim::io::vtk {
namespace {

void declare(std::ostream& out, const ArrayDeclaration& a) {
  out << "      <PDataArray type=\"" << a.type << "\" Name=\"" << a.name << "\" NumberOfComponents=\""
      << a.components << "\"/>\n";
}

}  // namespace

void write_punstructured_grid(std::ostream& out, const std::vector<ArrayDeclaration>& point_data,
                              std::string_view scalars, std::string_view vectors, const ArrayDeclaration& points,
                              const std::vector<std::string>& pieces) {
  // GhostLevel 0: each piece holds only the points its rank owns, none twice.
  out << "<?xml version=\"1.0\"?>\n"
      << "<VTKFile type=\"PUnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
      << "  <PUnstructuredGrid GhostLevel=\"0\">\n"
      << "    <PPointData Scalars=\"" << scalars << "\" Vectors=\"" << vectors << "\">\n";
  for (const ArrayDeclaration& a : point_data) declare(out, a);
  out << "    </PPointData>\n"
      << "    <PPoints>\n";
  declare(out, points);
  out << "    </PPoints>\n";
  for (const std::string& piece : pieces) out << "    <Piece Source=\"" << piece << "\"/>\n";
  end_file(out, "PUnstructuredGrid");
}

}  // namespace trackcosim::io::vtk
