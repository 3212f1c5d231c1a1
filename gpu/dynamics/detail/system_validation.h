#pragma once
// Checks of a BodySet and StepSettings before anything is uploaded; each failure is a
// std::invalid_argument naming the body gid (or setting) and the expected value.

#include "gpu/dynamics/body_set.h"
#include "gpu/dynamics/step_settings.h"

namespace trackcosim::gpu::detail {

void validate_bodies(const BodySet& bodies);
void validate_step_settings(const StepSettings& settings);

}  // namespace trackcosim::gpu::detail
