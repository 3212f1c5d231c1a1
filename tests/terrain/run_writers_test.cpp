// The writers of a terrain run's folder: probes.csv and stats.csv stream rows that read back to
// the same bits and are on disk before the writer closes (a killed run keeps them), the particle
// .vtu holds one vertex per sphere with the right arrays, the .pvd indexes every snapshot and is
// valid after each one, and compound members move with v + w x r in a frame.

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "io/csv_stream.h"
#include "io/output_file.h"
#include "io/pvd_series.h"
#include "io/run_json.h"
#include "io/version.h"
#include "io/vtk_xml.h"
#include "terrain_node/output/particle_frame.h"
#include "terrain_node/output/particle_vtu_writer.h"
#include "terrain_node/output/probe_csv_writer.h"
#include "terrain_node/output/step_stats_csv_writer.h"
#include "tests/support/text_files.h"
#include "tests/support/vtk_scan.h"

namespace trackcosim::terrain {
namespace {

using test::read_file;
using test::read_lines;

/// A fresh folder under the system's temp folder, removed at the end of the test.
class TempFolder {
 public:
  explicit TempFolder(const std::string& name)
      : path_(std::filesystem::temp_directory_path() / ("trackcosim_" + name)) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempFolder() { std::filesystem::remove_all(path_); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

double parse_double(const std::string& text) {
  double v = 0;
  std::from_chars(text.data(), text.data() + text.size(), v);
  return v;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(ProbeCsv, RowsReadBackBitwiseAndAreOnDiskBeforeClose) {
  TempFolder folder("probe_csv_test");
  const std::filesystem::path file = folder.path() / "probes.csv";
  const gpu::BodyState state{42, {0.1, 1.0 / 3, -2e-300}, {1, 0, 0, 0}, {0.5, 0, -1}, {0, 0.25, 1e300}};
  ProbeCsvWriter writer(file);
  writer.write(0.001, state);
  writer.write(0.002, state);
  writer.flush();
  // Still open: what a killed run leaves behind.
  const std::vector<std::string> lines = read_lines(file);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "t,gid,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz");
  const std::vector<std::string> f = test::csv_fields(lines[2]);
  ASSERT_EQ(f.size(), 15u);
  EXPECT_EQ(f[0], "0.002");
  EXPECT_EQ(f[1], "42");
  EXPECT_EQ(std::bit_cast<std::uint64_t>(parse_double(f[3])), std::bit_cast<std::uint64_t>(1.0 / 3));
  EXPECT_EQ(parse_double(f[4]), -2e-300);
  EXPECT_EQ(parse_double(f[14]), 1e300);
}

TEST(StepStatsCsv, HeaderNamesTheStagesAndRowsMatchIt) {
  TempFolder folder("stats_csv_test");
  const std::filesystem::path file = folder.path() / "stats.csv";
  EXPECT_EQ(step_stats_csv_header(),
            "step,t,contacts,iterations,residual,kinetic_energy,max_penetration,ghosts,proxies,collision,ownership,"
            "solve,integrate,loads,wall_total");
  gpu::StepStats stats;
  stats.contacts = 1234;
  stats.iterations = 50;
  stats.residual = 1e-7;
  stats.kinetic_energy = 0.25;
  stats.max_penetration = 3e-5;
  const StageSeconds stages{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7};
  {
    StepStatsCsvWriter writer(file);
    writer.write(7, 0.007, stats, stages, 1.5);
  }
  const std::vector<std::string> lines = read_lines(file);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1], "7,0.007,1234,50,1e-07,0.25,3e-05,0.1,0.2,0.3,0.4,0.5,0.6,0.7,1.5");
  EXPECT_EQ(test::csv_fields(lines[0]).size(), test::csv_fields(lines[1]).size());
}

TEST(CsvStream, UnwritablePathIsAnOutputErrorNamingTheFile) {
  const std::filesystem::path bad = std::filesystem::temp_directory_path() / "trackcosim_no_such_dir" / "x.csv";
  try {
    io::CsvStream csv(bad, "a,b");
    ADD_FAILURE() << "no io::OutputError";
  } catch (const io::OutputError& e) {
    EXPECT_TRUE(std::string(e.what()).starts_with("cannot write " + bad.string() + ": ")) << e.what();
  }
}

TEST(ParticleFrame, CompoundMembersAreRotatedAndMoveWithTheBody) {
  gpu::BodySet bodies;
  gpu::BodyDesc wall;
  wall.gid = 1;
  wall.motion = gpu::Motion::Fixed;
  bodies.add_plane(bodies.add_body(wall), {0, 0, 0}, {0, 0, 1});
  gpu::BodyDesc block;
  block.gid = 9;
  const std::uint32_t b = bodies.add_body(block);
  bodies.add_sphere(b, {1, 0, 0}, 0.5);
  bodies.add_sphere(b, {-1, 0, 0}, 0.25);
  // A quarter turn about z: body x -> world y. Spin 2 rad/s about z, drift 3 m/s along x.
  const real h = std::sqrt(0.5);
  const std::vector<gpu::BodyState> states{bodies.state(0),
                                           {9, {10, 20, 30}, {h, 0, 0, h}, {3, 0, 0}, {0, 0, 2}}};
  const ParticleFrame f = particle_frame(bodies, states);
  ASSERT_EQ(f.size(), 2u);  // planes are not particles
  EXPECT_NEAR(f.x[0], 10, 1e-12);
  EXPECT_NEAR(f.y[0], 21, 1e-12);
  EXPECT_NEAR(f.z[0], 30, 1e-12);
  EXPECT_NEAR(f.vx[0], 3 - 2, 1e-12);  // w x r = (0,0,2) x (0,1,0) = (-2, 0, 0)
  EXPECT_NEAR(f.vy[0], 0, 1e-12);
  EXPECT_NEAR(f.vx[1], 3 + 2, 1e-12);
  EXPECT_EQ(f.radius[1], 0.25);
  EXPECT_EQ(f.gid[0], 9u);
  EXPECT_EQ(f.gid[1], 9u);
  EXPECT_THROW(particle_frame(bodies, {states[0]}), std::invalid_argument);
}

ParticleFrame three_particles() {
  ParticleFrame f;
  for (int i = 0; i < 3; ++i) {
    f.x.push_back(i), f.y.push_back(0.5), f.z.push_back(-i);
    f.radius.push_back(0.01 * (i + 1));
    f.vx.push_back(0), f.vy.push_back(i), f.vz.push_back(-9.81);
    f.gid.push_back(100 + std::uint64_t(i));
  }
  return f;
}

TEST(ParticleVtu, OneVertexCellPerSphereWithRadiusVelocityAndGid) {
  std::ostringstream out;
  write_particles_vtu(out, three_particles(), io::vtk::Encoding::Ascii);
  const std::string vtu = out.str();
  EXPECT_NE(vtu.find("<VTKFile type=\"UnstructuredGrid\""), std::string::npos);
  EXPECT_NE(vtu.find("<Piece NumberOfPoints=\"3\" NumberOfCells=\"3\">"), std::string::npos);
  for (const char* array : {"Name=\"radius\" NumberOfComponents=\"1\"", "Name=\"velocity\" NumberOfComponents=\"3\"",
                            "Name=\"gid\" NumberOfComponents=\"1\"", "Name=\"points\" NumberOfComponents=\"3\"",
                            "Name=\"connectivity\"", "Name=\"offsets\"", "type=\"UInt8\" Name=\"types\""})
    EXPECT_EQ(count(vtu, array), 1u) << array;
  // The types array: three VTK_VERTEX (1) cells.
  const std::size_t types = vtu.find("Name=\"types\"");
  const std::string body = vtu.substr(vtu.find('>', types) + 1, vtu.find("</DataArray>", types) - vtu.find('>', types) - 1);
  std::istringstream values(body);
  int n = 0;
  for (int v; values >> v; ++n) EXPECT_EQ(v, 1);
  EXPECT_EQ(n, 3);
  EXPECT_NE(vtu.find(" 0 2 -9.81\n"), std::string::npos);  // velocity of the third sphere
  EXPECT_EQ(count(vtu, "<DataArray"), count(vtu, "</DataArray>"));
}

// A co-simulation's frame: pieces with the patch's class and the contact force of each sphere,
// and the .pvtu that declares the same arrays, with the same types, as the pieces hold (ParaView
// refuses otherwise), in either encoding.
class ParticlePvtu : public ::testing::TestWithParam<io::vtk::Encoding> {};

TEST_P(ParticlePvtu, DeclaresThePiecesArraysAndNamesEachPiece) {
  ParticleFrame f = three_particles();
  f.state = {0, 1, 2};
  f.contact_force = {0, 9.81, 19.62};
  std::ostringstream piece, index;
  write_particles_vtu(piece, f, GetParam());
  write_particles_pvtu(index, {"step_00000007_r0.vtu", "step_00000007_r1.vtu"}, {.state = true, .contact_force = true},
                       GetParam());
  const std::string vtu = piece.str(), pvtu = index.str();
  EXPECT_EQ(test::vtk_scan::array_values(vtu, "state"), (std::vector<double>{0, 1, 2}));
  const std::vector<double> force = test::vtk_scan::array_values(vtu, "contact_force");
  ASSERT_EQ(force.size(), 3u);
  EXPECT_NEAR(force[2], 19.62, 1e-5);
  EXPECT_NE(pvtu.find("<VTKFile type=\"PUnstructuredGrid\""), std::string::npos);
  for (const char* name : {"radius", "velocity", "gid", "state", "contact_force", "points"}) {
    const std::string key = std::string("Name=\"") + name + "\"";
    const std::size_t in_vtu = vtu.find(key), in_pvtu = pvtu.find(key);
    ASSERT_NE(in_pvtu, std::string::npos) << name;
    // The declaration is the piece's opening tag less the format: type, name, components.
    const std::size_t open = vtu.rfind("<DataArray ", in_vtu) + 11, end = vtu.find(" format=", in_vtu);
    EXPECT_NE(pvtu.find("<PDataArray " + vtu.substr(open, end - open) + "/>"), std::string::npos) << name;
  }
  EXPECT_NE(pvtu.find("<Piece Source=\"step_00000007_r0.vtu\"/>\n    <Piece Source=\"step_00000007_r1.vtu\"/>"),
            std::string::npos);
  // Without a patch's classes and forces, a frame has no state or contact_force array.
  std::ostringstream plain;
  write_particles_vtu(plain, three_particles(), GetParam());
  EXPECT_EQ(plain.str().find("Name=\"state\""), std::string::npos);
  EXPECT_EQ(plain.str().find("Name=\"contact_force\""), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Encodings, ParticlePvtu, ::testing::Values(io::vtk::Encoding::Ascii, io::vtk::Encoding::Binary));

// The binary frame at scale: 10^5 grains of a 10 m strip with random positions, speeds and
// forces (the worst case for compression) in at most 50 bytes a grain, every value read back
// as its Float32 (integers exactly); an empty piece (a rank without grains) is valid too.
TEST(ParticleVtu, BinaryFramesTakeAtMost50BytesAGrainAndReadBack) {
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> unit(0, 1);
  ParticleFrame f;
  const std::size_t n = 100000;
  for (std::size_t i = 0; i < n; ++i) {
    f.x.push_back(10 * unit(random)), f.y.push_back(2 * unit(random) - 1), f.z.push_back(0.3 * unit(random));
    f.radius.push_back(0.0125);
    f.vx.push_back(unit(random) - 0.5), f.vy.push_back(unit(random) - 0.5), f.vz.push_back(unit(random) - 0.5);
    f.gid.push_back(1000 + i);
    f.state.push_back(static_cast<std::uint8_t>(i % 3));
    f.contact_force.push_back(500 * unit(random));
  }
  std::ostringstream out;
  write_particles_vtu(out, f, io::vtk::Encoding::Binary);
  const std::string vtu = out.str();
  EXPECT_LE(static_cast<double>(vtu.size()) / n, 50.0) << vtu.size() << " bytes";
  std::ostringstream ascii;
  write_particles_vtu(ascii, f, io::vtk::Encoding::Ascii);
  std::cout << "[ particle frame of " << n << " grains: ascii " << ascii.str().size() / n << " B a grain, binary "
            << vtu.size() / n << " B a grain ]\n";
  namespace scan = test::vtk_scan;
  const std::vector<double> points = scan::array_values(vtu, "points"), gid = scan::array_values(vtu, "gid");
  const std::vector<double> force = scan::array_values(vtu, "contact_force"), types = scan::array_values(vtu, "types");
  const std::vector<double> offsets = scan::array_values(vtu, "offsets");
  ASSERT_EQ(points.size(), 3 * n);
  ASSERT_EQ(gid.size(), n);
  ASSERT_EQ(force.size(), n);
  ASSERT_EQ(offsets.size(), n);
  for (std::size_t i = 0; i < n; i += 997) {
    EXPECT_EQ(points[3 * i], static_cast<float>(f.x[i]));
    EXPECT_EQ(points[3 * i + 2], static_cast<float>(f.z[i]));
    EXPECT_EQ(force[i], static_cast<float>(f.contact_force[i]));
    EXPECT_EQ(gid[i], static_cast<double>(f.gid[i]));
    EXPECT_EQ(types[i], 1.0);
    EXPECT_EQ(offsets[i], static_cast<double>(i + 1));
  }
  std::ostringstream empty;
  write_particles_vtu(empty, ParticleFrame{}, io::vtk::Encoding::Binary);
  EXPECT_NE(empty.str().find("NumberOfPoints=\"0\""), std::string::npos);
  EXPECT_TRUE(scan::array_values(empty.str(), "points").empty());
  EXPECT_NE(empty.str().find("</VTKFile>"), std::string::npos);
}

TEST(VtkXml, AnUnknownEncodingIsRefusedByName) {
  EXPECT_EQ(io::vtk::parse_encoding("binary", "output.vtk_format"), io::vtk::Encoding::Binary);
  EXPECT_EQ(io::vtk::parse_encoding("ascii", "output.vtk_format"), io::vtk::Encoding::Ascii);
  try {
    io::vtk::parse_encoding("base64", "output.vtk_format");
    FAIL() << "accepted base64";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("output.vtk_format"), std::string::npos) << e.what();
  }
}

TEST(VtkXml, ByteArraysAreWrittenAsDecimals) {
  std::ostringstream out;
  const std::uint8_t values[] = {0, 7, 42, 255};
  io::vtk::write_data_array<std::uint8_t>(out, "b", 1, 4, [&](std::size_t i, int) { return values[i]; });
  EXPECT_NE(out.str().find("type=\"UInt8\""), std::string::npos);
  EXPECT_NE(out.str().find("  0\n          7\n          42\n          255\n"), std::string::npos) << out.str();
}

TEST(PvdSeries, ListsEverySnapshotAndIsValidAfterEachOne) {
  TempFolder folder("pvd_test");
  const std::filesystem::path file = folder.path() / "particles.pvd";
  io::PvdSeries series(file);
  EXPECT_EQ(count(read_file(file), "<DataSet"), 0u);
  series.add(0, "particles/step_00000000.vtu");
  series.add(0.05, "particles/step_00000050.vtu");
  const std::string pvd = read_file(file);
  EXPECT_EQ(count(pvd, "<DataSet"), 2u);
  EXPECT_NE(pvd.find("<DataSet timestep=\"0.05\" part=\"0\" file=\"particles/step_00000050.vtu\"/>"),
            std::string::npos);
  EXPECT_NE(pvd.find("<VTKFile type=\"Collection\""), std::string::npos);
  EXPECT_TRUE(pvd.ends_with("</VTKFile>\n"));
  EXPECT_FALSE(std::filesystem::exists(folder.path() / "particles.pvd.tmp"));
  EXPECT_EQ(series.entries().size(), 2u);
}

TEST(RunJson, HeaderNamesProgramVersionAndThreads) {
  runtime::ThreadChoice threads;
  threads.threads = 2;
  threads.source = "explicit";
  const nlohmann::ordered_json header = io::run_json_header("terrain_node", threads);
  EXPECT_EQ(header["program"], "terrain_node");
  EXPECT_EQ(header["version"], std::string(io::kTrackcosimVersion));
  EXPECT_EQ(header["threads"], 2);
  EXPECT_EQ(header["threads_from"], "explicit");
  EXPECT_FALSE(header.contains("ranks_on_node"));  // only when known
  EXPECT_TRUE(header["started"].get<std::string>().ends_with("Z"));
}

}  // namespace
}  // namespace trackcosim::terrain
