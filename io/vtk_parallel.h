#pragma once
// The parallel VTK XML files (.pvtu): one small index per frame naming a piece file per rank
// and declaring the arrays every piece holds, so that ParaView reads a distributed frame as one
// dataset without any rank gathering the others' data. The pieces are ordinary .vtu files
// (io/vtk_xml.h); the declarations here must match what they hold, so a writer keeps one list
// of its arrays for both.

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace trackcosim::io::vtk {

/// What a <PDataArray> declares: the name, VTK type (type_name<T>()) and components of an array.
struct ArrayDeclaration {
  std::string_view name;
  std::string_view type;
  int components;
};

/// A whole PUnstructuredGrid file: point data `point_data` (the first named `scalars` and
/// `vectors` made the active ones, as in the pieces), the points array `points`, and one
/// <Piece Source=...> per entry of `pieces` (file names relative to the .pvtu's folder).
void write_punstructured_grid(std::ostream& out, const std::vector<ArrayDeclaration>& point_data,
                              std::string_view scalars, std::string_view vectors, const ArrayDeclaration& points,
                              const std::vector<std::string>& pieces);

}  // namespace trackcosim::io::vtk
