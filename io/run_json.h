#pragma once
// run.json: what a run was (program, version, thread count, the resolved config) so that an
// output folder explains itself. The programs add their own fields to the header's object.

#include <filesystem>
#include <string_view>

#include <nlohmann/json.hpp>

#include "runtime/thread_choice.h"

namespace trackcosim::io {

/// {"program": ..., "version": kTrackcosimVersion, "threads": per rank, "threads_from": how they
/// were chosen (ThreadChoice::source), "ranks_on_node" and "oversubscribed" when the ranks on the
/// node are known, "mpi_wait" and "mpi_wait_from" when the program chose how its MPI waits poll
/// (mpi_wait_choice.h), "started": "<UTC ISO 8601>"}
nlohmann::ordered_json run_json_header(std::string_view program, const runtime::ThreadChoice& threads);

/// Writes `document` indented by two spaces. Throws OutputError naming the file.
void write_json_file(const std::filesystem::path& file, const nlohmann::ordered_json& document);

}  // namespace trackcosim::io
