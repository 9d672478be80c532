#pragma once

// Internal to the profile configuration reader: profiling.pmu_counters.

#include "tools/evidence/config/config.h"
#include "tools/evidence/config/config_tree.h"

namespace etns::tools::config_detail {

// profiling.pmu_counters (spec §4.2), a mapping the key table has checked,
// against config.target's counter catalogue: fills config.groups and
// config.counters; returns the resolved mapping. Every problem with a group
// or a counter name is added to `problems`; one that stops the whole
// selection (nothing selected) is thrown.
Json select_counters(const Json& selection, ProfileConfig& config, Problems& problems);

}  // namespace etns::tools::config_detail
