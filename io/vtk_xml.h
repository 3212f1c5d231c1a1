#pragma once
// The little of the VTK XML format (https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html)
// that our writers share: the file envelope and <DataArray> elements, in either of two encodings
// (Encoding). ASCII keeps small files diffable at full precision; binary keeps a large series
// small: a terrain frame of the M113's 104,544 grains is 278 bytes a grain as text and 34 in
// binary (docs/visualisation.md, "File sizes").

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "io/number_text.h"

namespace trackcosim::io::vtk {

/// VTK cell type numbers (vtkCellType.h) of the cells our files use.
inline constexpr std::uint8_t kVertex = 1;
inline constexpr std::uint8_t kPolygon = 7;
inline constexpr std::uint8_t kQuad = 9;

template <typename T>
constexpr std::string_view type_name() {
  if constexpr (std::is_same_v<T, double>) return "Float64";
  else if constexpr (std::is_same_v<T, float>) return "Float32";
  else if constexpr (std::is_same_v<T, std::uint64_t>) return "UInt64";
  else if constexpr (std::is_same_v<T, std::int64_t>) return "Int64";
  else if constexpr (std::is_same_v<T, std::uint32_t>) return "UInt32";
  else if constexpr (std::is_same_v<T, std::uint8_t>) return "UInt8";
  else static_assert(sizeof(T) == 0, "no VTK type for this C++ type");
}

/// `<?xml ...?><VTKFile type="<type>" ...><type>`; end_file closes both.
void begin_file(std::ostream& out, std::string_view dataset_type);
void end_file(std::ostream& out, std::string_view dataset_type);

/// One ASCII <DataArray> of `tuples` tuples with `components` values of type T each, one tuple per
/// line; value_at(tuple, component) gives each value.
template <typename T, typename ValueAt>
void write_data_array(std::ostream& out, std::string_view name, int components, std::size_t tuples,
                      ValueAt value_at) {
  std::string text = "        <DataArray type=\"" + std::string(type_name<T>()) + "\" Name=\"" + std::string(name) +
                     "\" NumberOfComponents=\"" + std::to_string(components) + "\" format=\"ascii\">\n";
  for (std::size_t i = 0; i < tuples; ++i) {
    text += "         ";
    for (int c = 0; c < components; ++c) {
      text += ' ';
      if constexpr (std::is_same_v<T, std::uint8_t>) {
        // By hand: GCC 12 warns falsely (-Wrestrict) on appending to_chars' text of a constant byte.
        const unsigned v = static_cast<T>(value_at(i, c));
        if (v >= 100) text += static_cast<char>('0' + v / 100);
        if (v >= 10) text += static_cast<char>('0' + v / 10 % 10);
        text += static_cast<char>('0' + v % 10);
      } else {
        append_number(text, static_cast<T>(value_at(i, c)));
      }
    }
    text += '\n';
    if (text.size() > (std::size_t{1} << 20)) {
      out.write(text.data(), static_cast<std::streamsize>(text.size()));
      text.clear();
    }
  }
  text += "        </DataArray>\n";
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

/// How a dataset file holds its arrays. Ascii: inline text, each number read back to the same
/// bits. Binary: VTK's appended raw data after the XML, compressed in zlib blocks
/// (vtkZLibDataCompressor, UInt64 headers), with floating-point arrays stored as Float32: 7
/// significant digits, 1 um at 10 m, enough to look at a run; CSVs and checkpoints keep every bit.
/// ParaView and python3-vtk read both, as does tools/common/vtk_reader.py.
enum class Encoding { Ascii, Binary };

/// "ascii" or "binary"; throws std::invalid_argument naming `what` on anything else.
Encoding parse_encoding(std::string_view text, std::string_view what);
std::string_view encoding_name(Encoding encoding);

/// The type a value of type T is stored as: binary files narrow double to float.
template <typename T>
std::string_view stored_type_name(Encoding encoding) {
  if constexpr (std::is_same_v<T, double>) return encoding == Encoding::Binary ? type_name<float>() : type_name<double>();
  else return type_name<T>();
}

/// One dataset file (.vtu, .vtp) being written: the constructor writes the envelope's opening,
/// array() one <DataArray> (inline, or a reference into the appended section), close() the end of
/// the dataset element, the appended section and </VTKFile>. The caller writes the other XML
/// (Piece, PointData, Cells) to the same stream between them.
class DatasetFile {
 public:
  DatasetFile(std::ostream& out, std::string_view dataset_type, Encoding encoding);
  Encoding encoding() const { return encoding_; }

  /// `tuples` tuples of `components` values of type T, value_at(tuple, component) each.
  template <typename T, typename ValueAt>
  void array(std::string_view name, int components, std::size_t tuples, ValueAt value_at) {
    if (encoding_ == Encoding::Ascii) {
      write_data_array<T>(out_, name, components, tuples, value_at);
      return;
    }
    using Stored = std::conditional_t<std::is_same_v<T, double>, float, T>;
    std::vector<Stored> values;
    values.reserve(tuples * static_cast<std::size_t>(components));
    for (std::size_t i = 0; i < tuples; ++i)
      for (int c = 0; c < components; ++c) values.push_back(static_cast<Stored>(static_cast<T>(value_at(i, c))));
    declare_appended(name, type_name<Stored>(), components);
    append_compressed(values.data(), values.size() * sizeof(Stored));
  }

  void close();

 private:
  void declare_appended(std::string_view name, std::string_view type, int components);
  void append_compressed(const void* bytes, std::size_t size);

  std::ostream& out_;
  std::string dataset_type_;
  Encoding encoding_;
  std::string appended_;  ///< the appended section's bytes, written by close()
};

/// The connectivity and offsets arrays of `cells` cells where cell i is points [i*n, (i+1)*n)
/// (vertices: n = 1, lines: n = 2); the caller wraps them in <Verts>, <Lines> or <Cells>.
inline void write_consecutive_cell_arrays(std::ostream& out, std::size_t cells, std::uint64_t points_per_cell) {
  write_data_array<std::int64_t>(out, "connectivity", 1, cells * points_per_cell, [](std::size_t i, int) { return i; });
  write_data_array<std::int64_t>(out, "offsets", 1, cells,
                                 [&](std::size_t i, int) { return (i + 1) * points_per_cell; });
}

/// The whole <Cells> element of an UnstructuredGrid of `n` VTK_VERTEX cells, cell i on point i.
inline void write_vertex_cells(std::ostream& out, std::size_t n) {
  out << "      <Cells>\n";
  write_consecutive_cell_arrays(out, n, 1);
  write_data_array<std::uint8_t>(out, "types", 1, n, [](std::size_t, int) { return kVertex; });
  out << "      </Cells>\n";
}

/// One named block of a vtkMultiBlockDataSet (.vtm): a dataset file relative to the .vtm's folder.
struct Block {
  std::string name;
  std::string file;  ///< '/' separated
};

/// A whole .vtm file: the blocks in order, block i at index i. ParaView reads each block's file
/// with the reader its extension names and keeps the names in its block tree.
void write_multiblock(std::ostream& out, const std::vector<Block>& blocks);

}  // namespace trackcosim::io::vtk
