#include "terrain_node/output/contact_csv_writer.h"

#include <string>

#include "io/number_text.h"
#include "io/output_file.h"

namespace trackcosim::terrain {

void write_contacts_csv(std::ostream& out, const gpu::ContactList& c) {
  std::string text(kContactCsvHeader);
  text += '\n';
  const auto field = [&text](auto value) {
    io::append_number(text, value);
    text += ',';
  };
  for (std::size_t i = 0; i < c.size(); ++i) {
    field(c.gid_a[i]); field(c.gid_b[i]); field(c.shape_a[i]); field(c.shape_b[i]);
    field(c.distance[i]); field(c.nx[i]); field(c.ny[i]); field(c.nz[i]);
    field(c.ax[i]); field(c.ay[i]); field(c.az[i]); field(c.bx[i]); field(c.by[i]); field(c.bz[i]);
    text.back() = '\n';
    // Written in pieces so that a million contacts need no second full copy in memory.
    if (text.size() > (std::size_t{1} << 20)) {
      out.write(text.data(), static_cast<std::streamsize>(text.size()));
      text.clear();
    }
  }
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

void write_contacts_csv(const std::filesystem::path& file, const gpu::ContactList& contacts) {
  io::write_output_file(file, [&](std::ostream& out) { write_contacts_csv(out, contacts); });
}

}  // namespace trackcosim::terrain
