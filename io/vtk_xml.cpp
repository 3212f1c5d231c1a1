#include "io/vtk_xml.h"

namespace trackcosim::io::vtk {

void begin_file(std::ostream& out, std::string_view dataset_type) {
  out << "<?xml version=\"1.0\"?>\n"
      << "<VTKFile type=\"" << dataset_type
      << "\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
      << "  <" << dataset_type << ">\n";
}

void end_file(std::ostream& out, std::string_view dataset_type) {
  out << "  </" << dataset_type << ">\n"
      << "</VTKFile>\n";
}

void write_multiblock(std::ostream& out, const std::vector<Block>& blocks) {
  begin_file(out, "vtkMultiBlockDataSet");
  for (std::size_t i = 0; i < blocks.size(); ++i)
    out << "    <DataSet index=\"" << i << "\" name=\"" << blocks[i].name << "\" file=\"" << blocks[i].file << "\"/>\n";
  end_file(out, "vtkMultiBlockDataSet");
}

}  // namespace trackcosim::io::vtk
