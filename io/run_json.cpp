#include "io/run_json.h"

#include <ctime>
#include <string>

#include "runtime/mpi_wait_environment.h"
#include "io/output_file.h"
#include "io/version.h"

namespace trackcosim::io {
namespace {

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

}  // namespace

nlohmann::ordered_json run_json_header(std::string_view program, const runtime::ThreadChoice& threads) {
  nlohmann::ordered_json header = {{"program", program},
                                    {"version", kTrackcosimVersion},
                                    {"threads", threads.threads},
                                    {"threads_from", threads.source}};
  if (threads.ranks_on_node > 0) {
    header["ranks_on_node"] = threads.ranks_on_node;
    header["oversubscribed"] = threads.oversubscribed;
  }
  if (const std::optional<runtime::MpiWaitChoice> wait = runtime::prepared_mpi_wait()) {
    header["mpi_wait"] = wait->wait;
    header["mpi_wait_from"] = wait->reason;
  }
  header["started"] = utc_now();
  return header;
}

void write_json_file(const std::filesystem::path& file, const nlohmann::ordered_json& document) {
  write_output_file(file, [&](std::ostream& out) { out << document.dump(2) << '\n'; });
}

}  // namespace trackcosim::io
