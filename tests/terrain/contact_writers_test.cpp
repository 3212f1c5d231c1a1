// The contact writers: the CSV reads back to the very same bits (awkward values included:
// 0.1, 1/3, subnormals, -0, the largest gid), and the VTK files are well-formed XML whose
// counts (points, lines, vertices, array lengths) match the contacts and spheres written.

#include <gtest/gtest.h>

#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/output_file.h"
#include "terrain_node/output/contact_csv_writer.h"
#include "terrain_node/output/contact_vtk_writer.h"

namespace trackcosim::terrain {
namespace {

void add_contact(gpu::ContactList& c, gpu::GlobalId a, gpu::GlobalId b, gpu::ShapeIndex sa, gpu::ShapeIndex sb,
                 real distance, Vec3 n, Vec3 pa, Vec3 pb) {
  c.gid_a.push_back(a), c.gid_b.push_back(b), c.shape_a.push_back(sa), c.shape_b.push_back(sb);
  c.distance.push_back(distance);
  c.nx.push_back(n.x), c.ny.push_back(n.y), c.nz.push_back(n.z);
  c.ax.push_back(pa.x), c.ay.push_back(pa.y), c.az.push_back(pa.z);
  c.bx.push_back(pb.x), c.by.push_back(pb.y), c.bz.push_back(pb.z);
}

/// Values that a "%.6g" writer would lose, or that trip naive parsers.
gpu::ContactList awkward_contacts() {
  gpu::ContactList c;
  constexpr real third = real(1) / 3;
  add_contact(c, 1, 2, 0, 0, -0.1, {0, 0, 1}, {0.1, 0.2, 0.3}, {0.1, 0.2, 0.2});
  add_contact(c, 3, std::numeric_limits<gpu::GlobalId>::max(), 7, 4294967295u, third, {third, -third, 0.5},
              {1e300, -1e-300, std::numeric_limits<real>::denorm_min()}, {-0.0, 123456789.123456789, 6.02214076e23});
  // Coinciding points: the VTK file must still hold a (degenerate) line for it.
  add_contact(c, 10, 11, 2, 3, 0, {1, 0, 0}, {5, 5, 5}, {5, 5, 5});
  return c;
}

std::vector<std::string> split(const std::string& line, char separator) {
  std::vector<std::string> out(1);
  for (const char ch : line) {
    if (ch == separator) out.emplace_back();
    else out.back().push_back(ch);
  }
  return out;
}

template <typename T>
T parse_number(const std::string& text) {
  T value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) throw std::runtime_error("not a number: " + text);
  return value;
}

::testing::AssertionResult same_bits(real got, real want) {
  if (std::bit_cast<std::uint64_t>(double(got)) == std::bit_cast<std::uint64_t>(double(want)) &&
      std::signbit(got) == std::signbit(want))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << got << " is not bitwise " << want;
}

TEST(ContactCsv, RoundTripIsBitwiseExact) {
  const gpu::ContactList c = awkward_contacts();
  std::ostringstream out;
  write_contacts_csv(out, c);
  std::istringstream in(out.str());
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  EXPECT_EQ(line, "gidA,gidB,shapeA,shapeB,distance,nx,ny,nz,ax,ay,az,bx,by,bz");
  std::size_t row = 0;
  while (std::getline(in, line)) {
    SCOPED_TRACE(line);
    ASSERT_LT(row, c.size());
    const std::vector<std::string> f = split(line, ',');
    ASSERT_EQ(f.size(), 14u);
    EXPECT_EQ(parse_number<gpu::GlobalId>(f[0]), c.gid_a[row]);
    EXPECT_EQ(parse_number<gpu::GlobalId>(f[1]), c.gid_b[row]);
    EXPECT_EQ(parse_number<gpu::ShapeIndex>(f[2]), c.shape_a[row]);
    EXPECT_EQ(parse_number<gpu::ShapeIndex>(f[3]), c.shape_b[row]);
    const real want[10] = {c.distance[row], c.nx[row], c.ny[row], c.nz[row], c.ax[row],
                           c.ay[row],       c.az[row], c.bx[row], c.by[row], c.bz[row]};
    for (int k = 0; k < 10; ++k) EXPECT_TRUE(same_bits(parse_number<real>(f[4 + k]), want[k])) << "column " << 4 + k;
    ++row;
  }
  EXPECT_EQ(row, c.size());
}

TEST(ContactCsv, EmptyListIsJustTheHeader) {
  std::ostringstream out;
  write_contacts_csv(out, gpu::ContactList{});
  EXPECT_EQ(out.str(), std::string(kContactCsvHeader) + "\n");
}

TEST(ContactCsv, FileMatchesStreamAndUnwritablePathIsAnOutputError) {
  const gpu::ContactList c = awkward_contacts();
  const std::filesystem::path file = std::filesystem::temp_directory_path() / "trackcosim_contacts_test.csv";
  write_contacts_csv(file, c);
  std::ostringstream expected, got;
  write_contacts_csv(expected, c);
  got << std::ifstream(file).rdbuf();
  EXPECT_EQ(got.str(), expected.str());
  std::filesystem::remove(file);

  const std::filesystem::path bad = std::filesystem::temp_directory_path() / "trackcosim_no_such_dir" / "c.csv";
  try {
    write_contacts_csv(bad, c);
    ADD_FAILURE() << "no io::OutputError";
  } catch (const io::OutputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("cannot write " + bad.string() + ": ", 0), 0u) << e.what();
  }
}

// A small XML reader, strict enough to reject what ParaView's parser rejects: unbalanced or
// crossed tags, unquoted attributes, text outside the root, more than one root element.
struct XmlElement {
  std::string name;
  std::map<std::string, std::string> attributes;
  std::string text;
  std::vector<XmlElement> children;

  const XmlElement& child(const std::string& n) const {
    for (const XmlElement& c : children)
      if (c.name == n) return c;
    throw std::runtime_error("no <" + n + "> in <" + name + ">");
  }
  const XmlElement& data_array(const std::string& array_name) const {
    for (const XmlElement& c : children)
      if (c.name == "DataArray" && c.attributes.at("Name") == array_name) return c;
    throw std::runtime_error("no DataArray " + array_name + " in <" + name + ">");
  }
  std::vector<double> numbers() const {
    std::istringstream in(text);
    std::vector<double> out;
    for (double v; in >> v;) out.push_back(v);
    return out;
  }
};

class XmlReader {
 public:
  explicit XmlReader(std::string text) : s_(std::move(text)) {}

  XmlElement document() {
    skip_space();
    if (s_.compare(i_, 5, "<?xml") == 0) i_ = must_find("?>") + 2;
    skip_space();
    XmlElement root = element();
    skip_space();
    if (i_ != s_.size()) fail("content after the root element");
    return root;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw std::runtime_error("XML at offset " + std::to_string(i_) + ": " + why);
  }
  std::size_t must_find(const char* what) const {
    const std::size_t at = s_.find(what, i_);
    if (at == std::string::npos) fail(std::string("missing ") + what);
    return at;
  }
  void skip_space() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  std::string name() {
    const std::size_t start = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_' || s_[i_] == ':'))
      ++i_;
    if (i_ == start) fail("expected a name");
    return s_.substr(start, i_ - start);
  }
  void expect(char c) {
    if (i_ >= s_.size() || s_[i_] != c) fail(std::string("expected '") + c + "'");
    ++i_;
  }

  XmlElement element() {
    expect('<');
    XmlElement e;
    e.name = name();
    for (;;) {
      skip_space();
      if (s_.compare(i_, 2, "/>") == 0) return i_ += 2, e;
      if (i_ < s_.size() && s_[i_] == '>') break;
      const std::string key = name();
      expect('=');
      expect('"');
      const std::size_t end = must_find("\"");
      if (!e.attributes.emplace(key, s_.substr(i_, end - i_)).second) fail("attribute given twice: " + key);
      i_ = end + 1;
    }
    ++i_;
    for (;;) {
      const std::size_t lt = must_find("<");
      e.text += s_.substr(i_, lt - i_);
      i_ = lt;
      if (s_.compare(i_, 2, "</") == 0) {
        i_ += 2;
        if (name() != e.name) fail("</...> does not close <" + e.name + ">");
        skip_space();
        expect('>');
        return e;
      }
      e.children.push_back(element());
    }
  }

  std::string s_;
  std::size_t i_ = 0;
};

XmlElement parse_xml(const std::string& text) { return XmlReader(text).document(); }

std::size_t attribute(const XmlElement& e, const std::string& key) { return std::stoul(e.attributes.at(key)); }

TEST(ContactVtk, LinesFromPointAToPointB) {
  const gpu::ContactList c = awkward_contacts();
  std::ostringstream out;
  write_contacts_vtp(out, c);
  XmlElement root;
  ASSERT_NO_THROW(root = parse_xml(out.str()));
  EXPECT_EQ(root.name, "VTKFile");
  EXPECT_EQ(root.attributes.at("type"), "PolyData");
  const XmlElement& piece = root.child("PolyData").child("Piece");
  const std::size_t n = c.size();
  EXPECT_EQ(attribute(piece, "NumberOfPoints"), 2 * n);
  EXPECT_EQ(attribute(piece, "NumberOfLines"), n);
  EXPECT_EQ(attribute(piece, "NumberOfVerts"), 0u);

  const std::vector<double> points = piece.child("Points").child("DataArray").numbers();
  ASSERT_EQ(points.size(), 6 * n);
  for (std::size_t i = 0; i < n; ++i) {  // points 2i, 2i+1 = point_a, point_b of contact i
    EXPECT_EQ(points[6 * i + 0], c.ax[i]);
    EXPECT_EQ(points[6 * i + 5], c.bz[i]);
  }
  const XmlElement& lines = piece.child("Lines");
  EXPECT_EQ(lines.data_array("connectivity").numbers(), (std::vector<double>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(lines.data_array("offsets").numbers(), (std::vector<double>{2, 4, 6}));

  const XmlElement& cells = piece.child("CellData");
  EXPECT_EQ(cells.data_array("distance").numbers().size(), n);
  EXPECT_EQ(cells.data_array("normal").numbers().size(), 3 * n);
  EXPECT_EQ(cells.data_array("normal").attributes.at("NumberOfComponents"), "3");
  EXPECT_EQ(cells.data_array("gid_a").numbers().size(), n);
  EXPECT_EQ(cells.data_array("gid_b").text.find("18446744073709551615") != std::string::npos, true);
  EXPECT_EQ(cells.data_array("shape_b").numbers().size(), n);
}

// Issue 17 item 8d: the end points carry the contact too, so point filters (Glyph arrows along
// the normal, Threshold on a body's gid) work on contacts.vtp directly.
TEST(ContactVtk, EachEndPointCarriesItsBodyShapeNormalAndDistance) {
  const gpu::ContactList c = awkward_contacts();
  std::ostringstream out;
  write_contacts_vtp(out, c);
  XmlElement root;
  ASSERT_NO_THROW(root = parse_xml(out.str()));
  const XmlElement& points = root.child("PolyData").child("Piece").child("PointData");
  EXPECT_EQ(points.attributes.at("Vectors"), "normal");
  EXPECT_EQ(points.attributes.at("Scalars"), "distance");
  const std::size_t n = c.size();
  const std::vector<double> distance = points.data_array("distance").numbers();
  const std::vector<double> normal = points.data_array("normal").numbers();
  const std::vector<double> shape = points.data_array("shape").numbers();
  const std::vector<double> side = points.data_array("side").numbers();
  const std::string gid_text = points.data_array("gid").text, other_text = points.data_array("other_gid").text;
  ASSERT_EQ(distance.size(), 2 * n);
  ASSERT_EQ(normal.size(), 6 * n);
  ASSERT_EQ(shape.size(), 2 * n);
  EXPECT_EQ(points.data_array("normal").attributes.at("NumberOfComponents"), "3");
  EXPECT_EQ(points.data_array("side").attributes.at("type"), "UInt8");
  EXPECT_EQ(points.data_array("gid").attributes.at("type"), "UInt64");
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t end = 0; end < 2; ++end) {
      const std::size_t p = 2 * i + end;
      EXPECT_TRUE(same_bits(real(distance[p]), c.distance[i])) << "point " << p;
      EXPECT_TRUE(same_bits(real(normal[3 * p + 0]), c.nx[i])) << "point " << p;
      EXPECT_TRUE(same_bits(real(normal[3 * p + 2]), c.nz[i])) << "point " << p;
      EXPECT_EQ(shape[p], double(end == 0 ? c.shape_a[i] : c.shape_b[i])) << "point " << p;
      EXPECT_EQ(side[p], double(end));
    }
  // UInt64 gids as text (a double would round the largest): A's then B's at each contact.
  std::istringstream gids(gid_text), others(other_text);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t g0 = 0, g1 = 0, o0 = 0, o1 = 0;
    ASSERT_TRUE(gids >> g0 >> g1);
    ASSERT_TRUE(others >> o0 >> o1);
    EXPECT_EQ(g0, c.gid_a[i]);
    EXPECT_EQ(g1, c.gid_b[i]);
    EXPECT_EQ(o0, c.gid_b[i]);
    EXPECT_EQ(o1, c.gid_a[i]);
  }
}

TEST(ContactVtk, EmptyContactListIsStillAValidFile) {
  std::ostringstream out;
  write_contacts_vtp(out, gpu::ContactList{});
  XmlElement root;
  ASSERT_NO_THROW(root = parse_xml(out.str()));
  const XmlElement& piece = root.child("PolyData").child("Piece");
  EXPECT_EQ(attribute(piece, "NumberOfPoints"), 0u);
  EXPECT_EQ(attribute(piece, "NumberOfLines"), 0u);
}

TEST(SphereVtk, OneVertexPerSphereWithRadius) {
  gpu::SphereShapes s;
  s.add({0, 0, 0}, 0.5, 1, 0);
  s.add({1, 2, 3}, 0.25, 2, 0);
  s.add({1, 2, 3.5}, 0.125, 2, 1);
  std::ostringstream out;
  write_spheres_vtp(out, s);
  XmlElement root;
  ASSERT_NO_THROW(root = parse_xml(out.str()));
  const XmlElement& piece = root.child("PolyData").child("Piece");
  EXPECT_EQ(attribute(piece, "NumberOfPoints"), 3u);
  EXPECT_EQ(attribute(piece, "NumberOfVerts"), 3u);
  EXPECT_EQ(attribute(piece, "NumberOfLines"), 0u);
  EXPECT_EQ(piece.child("Points").child("DataArray").numbers(),
            (std::vector<double>{0, 0, 0, 1, 2, 3, 1, 2, 3.5}));
  EXPECT_EQ(piece.child("Verts").data_array("offsets").numbers(), (std::vector<double>{1, 2, 3}));
  const XmlElement& data = piece.child("PointData");
  EXPECT_EQ(data.attributes.at("Scalars"), "radius");
  EXPECT_EQ(data.data_array("radius").numbers(), (std::vector<double>{0.5, 0.25, 0.125}));
  EXPECT_EQ(data.data_array("gid").numbers(), (std::vector<double>{1, 2, 2}));
  EXPECT_EQ(data.data_array("shape_index").numbers(), (std::vector<double>{0, 0, 1}));
}

TEST(XmlReaderSelfCheck, RejectsMalformedDocuments) {
  EXPECT_THROW(parse_xml("<a><b></a></b>"), std::runtime_error);
  EXPECT_THROW(parse_xml("<a x=1></a>"), std::runtime_error);
  EXPECT_THROW(parse_xml("<a></a><b></b>"), std::runtime_error);
  EXPECT_THROW(parse_xml("<a>"), std::runtime_error);
  EXPECT_NO_THROW(parse_xml("<?xml version=\"1.0\"?>\n<a x=\"1\"><b/>text</a>\n"));
}

}  // namespace
}  // namespace trackcosim::terrain
