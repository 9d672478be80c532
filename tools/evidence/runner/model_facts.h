#pragma once

#include <optional>
#include <string>

#include "tools/evidence/config/config.h"

namespace etns::tools {

// What a profile configuration checks against the program at `pte_path`
// (its portable operators and its inputs), from loading it unbound as
// `etns inspect` does; nullopt when it does not load. The reader that
// load_profile_config takes.
std::optional<ModelFacts> read_model_facts(const std::string& pte_path);

}  // namespace etns::tools
