#pragma once

// Internal to the profile configuration reader: profiling.pmu_counters.

#include "tools/config/config.h"
#include "tools/config/config_tree.h"

namespace etns::tools::config_detail {

// profiling.pmu_counters (spec §4.2), a mapping the key table has checked,
// against config.target's counter catalogue: fills config.groups and
// config.counters; returns the resolved mapping.
Json select_counters(const Json& selection, ProfileConfig& config);

}  // namespace etns::tools::config_detail
