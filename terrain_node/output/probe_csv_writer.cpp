#include "terrain_node/output/probe_csv_writer.h"

#include "io/number_text.h"

namespace trackcosim::terrain {

void ProbeCsvWriter::write(real t, const gpu::BodyState& s) {
  row_.clear();
  io::append_number(row_, t);
  row_ += ',';
  io::append_number(row_, s.gid);
  for (const real v : {s.position.x, s.position.y, s.position.z, s.orientation.w, s.orientation.x, s.orientation.y,
                       s.orientation.z, s.velocity.x, s.velocity.y, s.velocity.z, s.angular_velocity.x,
                       s.angular_velocity.y, s.angular_velocity.z}) {
    row_ += ',';
    io::append_number(row_, v);
  }
  csv_.write_row(row_);
}

}  // namespace trackcosim::terrain
