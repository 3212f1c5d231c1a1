#pragma once
// How long a checkpoint may keep every rank from its next step before the watchdog (comm/
// watchdog.h) takes a peer for lost. A checkpoint is a collective write: a rank whose peer died
// during it waits forever inside it, so it is watched like a step, but with more time than a step
// (a large bed writes for minutes). Used by the standalone run (standalone/step_watch.h) and the
// co-simulation (coupling/coupling_session.cpp).

#include <cstdint>

namespace trackcosim::terrain {

/// The extra seconds, beyond the watchdog's limit, that writing a checkpoint of `bodies` bodies
/// may take: 10 times the slowest step or the slowest checkpoint so far, or the time its file
/// takes at a slow file system's pace (1 KiB per body at 10 MB/s), whichever is longest.
double checkpoint_allowance(double slowest_step_seconds, double slowest_checkpoint_seconds, std::uint64_t bodies);

}  // namespace trackcosim::terrain
