#pragma once

#include <optional>
#include <string>

#include "protocol/provider.h"

// The exporter's file naming, <model>_<provider>.pte, read and written in one
// place (export, bench, reproduce and compare-programs all rely on it).
namespace etns::tools {

// "tier1", ns -> "tier1_ns.pte".
std::string program_file_name(const std::string& model, protocol::Provider provider);

struct ProgramName {
  std::string model;  // "tier1"
  protocol::Provider provider = protocol::Provider::Arm;
};

// The model and provider in a path's stem ("out/tier1_ns.pte" -> tier1, ns);
// nullopt when the stem does not end in _arm or _ns after a model name.
std::optional<ProgramName> parse_program_file_name(const std::string& path);

}  // namespace etns::tools
