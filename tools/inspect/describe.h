#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "tools/evidence/runner/host_session.h"

namespace etns::tools {

// Everything `etns inspect` reports about a loaded program, as JSON
// (schema "etns.inspect", version 1): SHA-256, size, header, constants,
// and per method its inputs, outputs, planned buffers, instructions,
// operators and the portable fallbacks (every aten:: operator it names).
nlohmann::json describe_program(const HostSession& session);

// The same, as the aligned text `etns inspect` prints.
std::string render_description(const nlohmann::json& description);

}  // namespace etns::tools
