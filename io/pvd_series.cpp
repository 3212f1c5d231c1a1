#include "io/pvd_series.h"

#include <system_error>

#include "io/number_text.h"
#include "io/output_file.h"

namespace trackcosim::io {

PvdSeries::PvdSeries(std::filesystem::path pvd_file, std::vector<Entry> earlier)
    : file_(std::move(pvd_file)), entries_(std::move(earlier)) {
  write();
}

void PvdSeries::add(double time, const std::string& relative_file) {
  entries_.push_back({time, relative_file});
  write();
}

void PvdSeries::write() const {
  std::filesystem::path temporary = file_;
  temporary += ".tmp";
  write_output_file(temporary, [&](std::ostream& out) {
    out << "<?xml version=\"1.0\"?>\n"
        << "<VTKFile type=\"Collection\" version=\"1.0\" byte_order=\"LittleEndian\">\n"
        << "  <Collection>\n";
    for (const Entry& e : entries_)
      out << "    <DataSet timestep=\"" << number_to_string(e.time) << "\" part=\"0\" file=\"" << e.file << "\"/>\n";
    out << "  </Collection>\n"
        << "</VTKFile>\n";
  });
  std::error_code error;
  std::filesystem::rename(temporary, file_, error);
  if (error) throw OutputError("cannot write " + file_.string() + ": " + error.message());
}

}  // namespace trackcosim::io
