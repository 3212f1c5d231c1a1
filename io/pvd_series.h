#pragma once
// A ParaView data collection (.pvd): the index of a series of snapshot files by time, so that
// ParaView opens one file and plays the whole run. The index is rewritten after every snapshot
// (to a temporary file, then renamed over the old one), so a run killed at any point leaves a
// valid .pvd that lists every snapshot written so far.

#include <filesystem>
#include <string>
#include <vector>

#include "math/real.h"

namespace trackcosim::io {

class PvdSeries {
 public:
  struct Entry {
    double time;
    std::string file;  ///< relative to the .pvd's folder, '/' separated
  };

  /// Writes the collection at once: empty, or the entries of an earlier run that this one
  /// continues (a resumed co-simulation). Throws OutputError.
  explicit PvdSeries(std::filesystem::path pvd_file, std::vector<Entry> earlier = {});

  /// Records a snapshot file (relative to the .pvd's folder) at `time` and rewrites the index.
  void add(double time, const std::string& relative_file);

  const std::vector<Entry>& entries() const { return entries_; }

 private:
  void write() const;

  std::filesystem::path file_;
  std::vector<Entry> entries_;
};

}  // namespace trackcosim::io
