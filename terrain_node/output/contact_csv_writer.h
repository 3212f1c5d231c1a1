#pragma once
// Contacts as CSV, one row per contact in the list's canonical order, for scripts and regression
// tests. Numbers are written as the shortest text that reads back to the same bits, so two runs
// can be compared with diff and a parsed file equals the list it came from.

#include <filesystem>
#include <ostream>
#include <string_view>

#include "gpu/collision/contact_list.h"

namespace trackcosim::terrain {

inline constexpr std::string_view kContactCsvHeader = "gidA,gidB,shapeA,shapeB,distance,nx,ny,nz,ax,ay,az,bx,by,bz";

void write_contacts_csv(std::ostream& out, const gpu::ContactList& contacts);

/// Throws OutputError when the file cannot be written.
void write_contacts_csv(const std::filesystem::path& file, const gpu::ContactList& contacts);

}  // namespace trackcosim::terrain
