#pragma once
// probes.csv: the state of chosen bodies over time, one row per body per written step, streamed
// (io/csv_stream.h). Numbers are the shortest text that reads back to the same bits.

#include <filesystem>
#include <string>
#include <string_view>

#include "gpu/dynamics/body_set.h"
#include "io/csv_stream.h"

namespace trackcosim::terrain {

/// Position [m], orientation (w, x, y, z), linear velocity [m/s], angular velocity [rad/s, world].
inline constexpr std::string_view kProbeCsvHeader = "t,gid,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz";

class ProbeCsvWriter {
 public:
  /// Creates the file and writes the header. Throws OutputError.
  explicit ProbeCsvWriter(std::filesystem::path file) : csv_(std::move(file), kProbeCsvHeader) {}

  void write(real t, const gpu::BodyState& state);
  void flush() { csv_.flush(); }

 private:
  io::CsvStream csv_;
  std::string row_;
};

}  // namespace trackcosim::terrain
